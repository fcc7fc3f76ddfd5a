"""The checks of what a caller hands the library, made before anything is read or written: a
value of the wrong kind is a ``UsageError`` that says what to pass (docs/library.md, "Errors"),
never Python's ``AttributeError`` or ``TypeError`` from deep inside a run."""

from __future__ import annotations

import io
import operator
import os
from typing import TYPE_CHECKING, Any

from pdsmem.errors import InvalidSyntax, UsageError, kind_of

if TYPE_CHECKING:
    from pdsmem.api.values import Scope

_DATA = (str, bytes, bytearray, bool, int, float, list, tuple, dict, type(None))


def described(value: Any) -> str:
    """What ``value`` is, for a message: its data-model kind ("null", "an integer", "bytes"), or
    the name of its type for anything else ("a Session")."""
    if isinstance(value, _DATA):
        return kind_of(value)
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def a_scope(scope: Any) -> Scope:
    """``scope``, when it is a ``Scope``; else a ``UsageError`` that says how to make one."""
    from pdsmem.api.values import Scope  # (here: status and ids start without it)

    if not isinstance(scope, Scope):
        raise UsageError(f"the scope is {described(scope)}, not a pdsmem.Scope",
                         hint='Scope(agent_id="…", profile_id="…", salt="…"), as docs/library.md shows')
    return scope


def a_did(did: Any) -> str | None:
    """``did`` checked as a DID, or None; a malformed one is a ``UsageError``."""
    if did is not None:
        from pdsmem.mapping.syntax import Did

        if not isinstance(did, str):
            raise UsageError(f"did is {described(did)}, not a string",
                             hint="the repository owner's DID, as did:plc:… or did:web:…")
        try:
            problem = Did.parse(did).plc_problem()
        except InvalidSyntax as err:
            problem = str(err)
        if problem:
            raise UsageError(f"did: {problem}", hint="the repository owner's DID, as did:plc:… or did:web:…")
        return did
    return None


def a_store(store: Any) -> Any:
    """``store``, when it is a RushDB project ``pdsmem.rushdb`` made; else a ``UsageError``."""
    from pdsmem.bridge.rushdb.store import MemoryStore

    if not isinstance(store, MemoryStore):
        raise UsageError(f"the store is {described(store)}, not a RushDB project",
                         hint="store = pdsmem.rushdb(api_key, url), as docs/library.md shows")
    return store


def a_repository(source: Any) -> Any:
    """``source``, when it names a repository (a handle, a DID, a CAR file's path, bytes or a binary
    stream; a string with a slash is a path); else a ``UsageError`` (a session is no repository:
    pass its ``did``; a file opened as text is no CAR)."""
    if isinstance(source, str) and ("/" in source or os.sep in source):
        from pathlib import Path

        return Path(source)  # no handle or DID holds a slash: a CAR file's path ("./repo.car")
    if isinstance(source, io.TextIOBase):
        raise UsageError("the CAR file was opened as text", hint='open it in binary mode: open(path, "rb")')
    if isinstance(source, (str, os.PathLike, bytes, bytearray, memoryview)) or callable(getattr(source, "read", None)):
        return source
    hint = ("pass the account's handle or DID (session.did)" if hasattr(source, "did")
            else "a handle or DID (read from its PDS), or a CAR file's path or binary stream")
    raise UsageError(f"the repository is {described(source)}, not a handle, a DID or a CAR file", hint=hint)


def a_count(value: Any, name: str) -> int:
    """``value`` as a count of 1 or more (any integer type: a NumPy one too); else a ``UsageError``
    naming the argument."""
    try:
        count = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        count = None
    if count is None or count < 1:
        shown = count if count is not None else described(value)
        raise UsageError(f"{name} is {shown}; it must be a whole number of 1 or more")
    return count


def an_output(out: Any) -> Any:
    """``out`` when it is None, a file's path or a text stream; else a ``UsageError`` (a binary
    stream takes no JSON Lines text)."""
    if out is not None and not isinstance(out, (str, os.PathLike)) and (
            not callable(getattr(out, "write", None)) or isinstance(out, (io.RawIOBase, io.BufferedIOBase))
            or "b" in str(getattr(out, "mode", ""))):
        raise UsageError(f"out is {described(out)}, not a file path or a text stream",
                         hint='out=sys.stdout, out="changes.jsonl", a file opened as text, or no out: the changes come '
                         "back in Report.changes")
    return out


def a_url(value: Any, name: str, *, hint: str | None = None) -> str | None:
    """``value`` as a server's base URL (``scheme://host[:port][/path]``), or None when it is None
    or "" (not given); else a ``UsageError`` naming ``name`` and never echoing a user name,
    password or query in it: the same mistake in any server's URL (the PDS's, RushDB's, a relay's)
    is the same kind of error. A blank one is a mistake too (RushDB's went to RushDB Cloud)."""
    from pdsmem.bridge.atproto.xrpc import normalize_base_url

    if value is not None and not isinstance(value, str):
        raise UsageError(f"{name} is {described(value)}, not a URL", hint='a base URL as a string: "https://host"')
    if value is None or value == "":
        return None
    if not value.strip():
        raise UsageError(f"{name} is blank", hint=hint or 'a base URL: "https://host", or None for the default')
    try:
        return normalize_base_url(value, what=name)
    except InvalidSyntax as err:
        raise UsageError(err.message, hint=err.hint or hint) from None


def a_string(value: Any, name: str, *, hint: str | None = None, one_line: bool = False) -> str:
    """``value``, when it is a string that is not blank (and, ``one_line``, holds no line break or
    control character: a key sent in a header); else a ``UsageError`` naming the argument (never
    quoting it: it may be a password)."""
    if not isinstance(value, str):
        raise UsageError(f"{name} is {described(value)}, not a string", hint=hint)
    if not value.strip():
        raise UsageError(f"{name} is empty", hint=hint)
    if one_line and not value.strip().isprintable():
        raise UsageError(f"{name} holds a line break or another control character", hint=hint)
    return value


def a_session(session: Any) -> Any:
    """``session``, when it is a signed-in session that is still open; else a ``UsageError``."""
    if not isinstance(getattr(session, "did", None), str):
        raise UsageError(f"the session is {described(session)}, not a signed-in session",
                         hint="sign in first: session = pdsmem.sign_in(account, password)")
    if getattr(session, "closed", False) is True:  # before anything notes a run
        from pdsmem.bridge.atproto.xrpc import closed_error

        raise closed_error(session.pds_url)
    return session


def a_directory(path: Any, name: str = "state_dir") -> Any:
    """``path`` when it is None, a string or a path; else a ``UsageError`` naming the argument."""
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise UsageError(f"{name} is {described(path)}, not a directory's path",
                         hint='a path as a string or a pathlib.Path: "~/.local/state/pdsmem"')
    return path


def an_embedder(embedder: Any) -> Any:
    """``embedder`` when it is None or has an ``embed`` method (``embedder_from_env``); else a
    ``UsageError``."""
    if embedder is not None and not callable(getattr(embedder, "embed", None)):
        raise UsageError(f"the embedder is {described(embedder)}, not an embeddings endpoint",
                         hint="embedder=pdsmem.embedder_from_env(), or None to rank by the query's words")
    return embedder
