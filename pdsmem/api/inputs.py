"""What a person or a program hands pdsmem, checked as pdsmem checks it: server URLs, DIDs, handles,
NSIDs, signing keys, the participant scope hash's parts, JSON and JSON Lines.

Each check raises a ``PdsmemError`` that says what is wrong with the value, never with Python's
words, and makes no request. The checking code is imported when a call is first made.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

from pdsmem.errors import PdsmemError

__all__ = [
    "base_url", "check_did", "check_handle_or_did", "check_nsid", "hash_scope", "json_lines", "masked_url",
    "parse_json", "signing_key",
]


def base_url(value: str, *, what: str = "the PDS URL") -> str:
    """``value`` as a server's base URL, ``scheme://host[:port][/path]`` without a trailing slash.
    Raises ``InvalidSyntax`` naming ``what`` for anything else, and for a URL carrying a user
    name or password (never echoed)."""
    from pdsmem.bridge.atproto.xrpc import normalize_base_url

    return normalize_base_url(value, what=what)


def masked_url(text: str) -> str:
    """``text`` (a server's URL as a setting holds it) with a user name and password, a query and
    a fragment in it replaced by ``***``, for showing it."""
    from pdsmem.mapping.syntax_base import mask_url

    return mask_url(text)


def check_did(value: str) -> str:
    """``value`` if it is a DID (``did:method:…``); else ``InvalidSyntax`` saying why."""
    from pdsmem.mapping.syntax import Did

    return str(Did.parse(value))


def check_nsid(value: str) -> str:
    """``value`` if it is an NSID (``com.example.thing``); else ``InvalidSyntax`` saying why."""
    from pdsmem.mapping.syntax import Nsid

    return str(Nsid.parse(value))


def check_handle_or_did(value: str) -> str:
    """``value`` (blanks and a leading ``@`` left out) if it is a handle or a DID; else
    ``InvalidSyntax`` saying why, quoting ``value`` unless the privacy gate refuses it. Syntax only
    (a ``did:plc``'s identifier included, so no PDS is asked about one that cannot exist):
    ``check_account`` also checks that a ``did:web`` names a host pdsmem can reach."""
    from pdsmem.errors import InvalidSyntax
    from pdsmem.mapping.syntax import AtIdentifier, Did
    from pdsmem.mapping.syntax_base import invalid, sensitive

    value = value.strip().removeprefix("@")
    try:
        identifier = AtIdentifier.parse(value)
        if identifier.is_did and (problem := Did.parse(identifier).plc_problem()):
            raise invalid(problem, value)
        return str(identifier)
    except InvalidSyntax as err:
        # A bad value with a space in it is shown by its length only, as a memory's words may be
        # there (docs/mapping.md, "Privacy gate"); an account is what the caller typed: quoted back.
        if err.why is None or len(value) > 64 or sensitive(value):
            raise
        raise InvalidSyntax(f"{err.why}: {value!r}", hint=err.hint) from None


def signing_key(value: str) -> str:
    """A P-256 or K-256 public key as ``did:key:z…``, whichever form was typed: a ``did:key``, or
    the legacy multibase form a DID document prints, with or without ``did:key:`` in front (the
    same key always reads the same). Raises ``VerificationError`` for anything else."""
    from pdsmem.bridge.atproto.repo import normalize_signing_key

    return normalize_signing_key(value)


def hash_scope(parts: Iterable[str], salt: str) -> str:
    """The participant scope hash of ``parts`` with ``salt``, as the AgentMemoryEvent v1
    contract's ``hashScope`` computes it (``Scope(participant_parts=…)`` hashes the same way)."""
    from pdsmem.mapping.contract_ids import hash_scope as hashed

    return hashed(list(parts), salt)


def parse_json(data: str | bytes) -> Any:
    """The JSON value ``data`` holds. Raises a ``PdsmemError`` saying in words why it holds none:
    not UTF-8 text, not JSON, or past what can be read (a number of thousands of digits, nesting
    about a thousand levels deep)."""
    from pdsmem.bridge.pipelines.sources import json_value

    return json_value(data)


def json_lines(stream: IO[bytes]) -> Iterator[tuple[int, dict[str, Any] | PdsmemError]]:
    """Each non-blank line of ``stream`` as its line number and the JSON object it holds, or a
    ``PdsmemError`` (naming ``line N``) saying why it holds none: a bad line never stops the
    reading, the next one is read as usual. Lines are read one at a time."""
    from pdsmem.bridge.pipelines.sources import json_lines as read

    yield from read(stream)
