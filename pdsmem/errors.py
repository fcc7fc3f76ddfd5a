"""One exception tree for pdsmem.

Every error says what was expected, where (``path`` inside an item, ``item`` position in the
input, ``uri``/``did`` of the record), and whether retrying can succeed (``retryable``).
The CLI turns any ``PdsmemError`` into ``Error: …`` on stderr and exits with the error's
``exit_code``: ``EXIT_USAGE`` (2) for a ``UsageError``, ``EXIT_FAILED`` (1) for any other.
A run that did part of its work exits ``EXIT_PARTIAL`` (3; ``Report.exit_code`` says which).

Errors of the I/O layer subclass these (a PDS's answer is an ``XrpcError``, a ``PdsmemError``; a
server away or overloaded a ``TransientError``): catch these classes, not those. A failed sign-in
is a ``SessionError``.
"""

from __future__ import annotations

from typing import Any, ClassVar

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PARTIAL = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a program stopped by Ctrl-C

_KINDS = (
    (bool, "a boolean"), (int, "an integer"), (float, "a float"), (str, "a string"),
    ((bytes, bytearray, memoryview), "bytes"), ((list, tuple), "an array"), (dict, "an object"),
)


def kind_of(value: Any) -> str:
    """The data-model name of a value's type, for messages ("null", "an integer", "bytes"):
    never a Python type name, which means nothing to the person reading."""
    if value is None:
        return "null"
    for python_type, name in _KINDS:
        if isinstance(value, python_type):
            return name
    if hasattr(value, "multihash") or type(value).__name__ == "Cid":
        return "a CID link"
    return "a value outside the atproto data model"


class PdsmemError(Exception):
    """Root of every error pdsmem raises on purpose."""

    retryable: bool = False
    exit_code: ClassVar[int] = EXIT_FAILED
    """The command line's exit code for this error."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        item: int | str | None = None,
        uri: str | None = None,
        did: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.item = item
        self.uri = uri
        self.did = did
        self.hint = hint

    def detail(self) -> str:
        """What went wrong and what to do, without the position (``item``, ``uri``, ``did``): for
        a report that already names the item."""
        text = f"at {self.path}: {self.message}" if self.path else self.message  # (where, as ``str`` puts it)
        return f"{text} ({self.hint})" if self.hint else text

    def __str__(self) -> str:
        where = []
        if self.item is not None:
            where.append(self.item if isinstance(self.item, str) else f"item {self.item}")
        if self.uri:
            where.append(self.uri)
        elif self.did:
            where.append(self.did)
        if self.path:
            where.append(f"at {self.path}")
        text = f"{', '.join(where)}: {self.message}" if where else self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class UsageError(PdsmemError, ValueError):
    """A bad value given by the caller (an argument, an environment value, a config file): the
    command line exits 2."""

    exit_code: ClassVar[int] = EXIT_USAGE


class InvalidSyntax(PdsmemError, ValueError):
    """An identifier (DID, handle, NSID, at-uri, record key, TID, datetime, CID) is malformed."""

    why: str | None = None
    """What is wrong with the value, without the value: the message is ``why`` and the value as a
    message may show it (``mapping.syntax_base.shown``)."""


class DataModelError(PdsmemError, ValueError):
    """A value is outside the atproto data model, or DAG-CBOR/CID bytes are malformed."""


class LexiconError(PdsmemError):
    """A lexicon document itself is malformed or a reference cannot be resolved."""


class RecordInvalid(PdsmemError, ValueError):
    """A record does not validate against its lexicon."""


class ContractError(PdsmemError, ValueError):
    """An AgentMemoryEvent does not match the v1 contract."""


class PrivacyRefused(PdsmemError):
    """A memory may not be written to a public repository (private scope or sensitive content)."""


class SensitiveContent(PrivacyRefused):
    """A text of the memory looks like a secret, a credential, command output or a local path: the
    memory is named by its id only, never by its words, which may be the very secret."""


class MappingError(PdsmemError, ValueError):
    """A memory or record cannot be mapped to the other model."""


class IdentityError(PdsmemError):
    """A handle or DID cannot be resolved, or the handle and the DID do not point at each other."""


class SessionError(PdsmemError):
    """No usable session: no stored session and no password, the PDS refused the password, or
    the session expired for good."""


class UnknownAccount(SessionError):
    """The PDS has no account with that handle or DID."""


class VerificationError(PdsmemError):
    """A repository, commit, block or record failed cryptographic or structural verification."""


class StateError(PdsmemError):
    """The state database (what was imported, exported and synced on this machine) cannot be
    opened or used."""


class FollowError(PdsmemError):
    """The event stream cannot be followed: a URL that serves no event stream, or a stream that
    says why it ends."""


class RushDBError(PdsmemError):
    """RushDB refused a request, or answered it unexpectedly (one it could not be reached for is
    a ``TransientError``)."""


class RushDBRefused(RushDBError):
    """RushDB refused the API key (401/403)."""


class TransientError(PdsmemError):
    """A failure that may succeed when retried (network, 5xx, rate limit)."""

    retryable = True


class RateLimited(TransientError):
    """The server refused the request for now (HTTP 429)."""

    def __init__(self, message: str, *, reset_at: float | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.reset_at = reset_at


class ExportPaused(RateLimited):
    """The PDS's rate limit stopped an export; running it again later resumes it (``reset_at``:
    when the limit lifts, if the PDS said)."""
