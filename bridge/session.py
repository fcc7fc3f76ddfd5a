"""Logged-in XRPC calls to a PDS: create, store, reuse and renew an account's session.

Scope: ``com.atproto.server.createSession`` from a handle or DID and an app password, the
session file kept between runs, and the renewal of expired tokens. The PDS URL comes from the
caller, ``ATP_PDS_HOST``, or the account's DID document.

Session files live in ``<state dir>/sessions/``, one per (PDS URL, DID), owner-only (file 0600,
folder 0700), and are replaced atomically (temporary file, fsync, rename): a crash leaves the
old file or the new one, never half of one. The state dir is ``PDSMEM_STATE_DIR`` or the
platform's user state folder. Passwords are never stored.

Environment variables (the names goat uses): ``ATP_AUTH_HANDLE`` or ``ATP_AUTH_USERNAME`` (handle
or DID), ``ATP_AUTH_PASSWORD`` (an app password), ``ATP_PDS_HOST`` (the PDS URL).

Tricky bits:
- A call answered ``ExpiredToken`` or ``InvalidToken`` is retried once after one
  ``refreshSession``. A refused refresh token falls back to a new login when a password is at
  hand, else the call fails with a message saying how to log in again.
- ``refreshSession`` rotates the refresh token: the new pair is saved before anything else, so
  the next run does not start from a token the PDS has already spent.
- Tokens and passwords never reach a log line, an exception message or a ``repr``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

from pdsmem.errors import PdsmemError
from pdsmem.mapping.syntax import AtIdentifier, Did

from .identity import IdentityError, resolve
from .state import default_state_dir, resolve_state_dir
from .xrpc import DEFAULT_TIMEOUT, RateLimit, XrpcClient, XrpcError, normalize_base_url

__all__ = [
    "ENV_HANDLE", "ENV_HANDLES", "ENV_PASSWORD", "ENV_PDS", "ENV_STATE_DIR", "AuthedClient", "Session",
    "SessionError", "SessionStore", "StoredSession", "default_state_dir",
]

log = logging.getLogger(__name__)

ENV_HANDLE = "ATP_AUTH_HANDLE"
ENV_HANDLES = (ENV_HANDLE, "ATP_AUTH_USERNAME")  # goat reads the second; either names the account
ENV_PASSWORD = "ATP_AUTH_PASSWORD"
ENV_PDS = "ATP_PDS_HOST"
ENV_STATE_DIR = "PDSMEM_STATE_DIR"

_FORMAT_VERSION = 1
_RENEW_ON = frozenset({"ExpiredToken", "InvalidToken"})
_T = TypeVar("_T")


class SessionError(PdsmemError):
    """No usable session: the PDS refused the password, or the session expired for good."""


@dataclass(frozen=True)
class StoredSession:
    """One account's session at one PDS, as kept in its session file."""

    pds_url: str
    did: str
    handle: str
    access_jwt: str = field(repr=False)
    refresh_jwt: str = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": _FORMAT_VERSION, "pdsUrl": self.pds_url, "did": self.did,
            "handle": self.handle, "accessJwt": self.access_jwt, "refreshJwt": self.refresh_jwt,
        }

    @classmethod
    def from_json(cls, data: Any) -> StoredSession | None:
        """The session in ``data``, or None when it is not a session file this version wrote."""
        keys = ("pdsUrl", "did", "handle", "accessJwt", "refreshJwt")
        if not isinstance(data, dict) or data.get("version") != _FORMAT_VERSION:
            return None
        if not all(isinstance(data.get(key), str) and data[key] for key in keys):
            return None
        return cls(*(data[key] for key in keys))


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; the file is readable by its owner only."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


class SessionStore:
    """The session files under ``<state_dir>/sessions``."""

    def __init__(self, state_dir: str | os.PathLike[str] | None = None) -> None:
        self.state_dir = resolve_state_dir(state_dir)
        self.directory = self.state_dir / "sessions"

    def __repr__(self) -> str:
        return f"SessionStore({str(self.state_dir)!r})"

    def path_for(self, pds_url: str, did: str) -> Path:
        """The session file of ``did`` at ``pds_url``: readable name plus a hash of both."""
        url = normalize_base_url(pds_url)
        readable = re.sub(r"[^A-Za-z0-9.-]+", "_", f"{url.split('://', 1)[1]}_{did}")[:120]
        digest = hashlib.sha256(f"{url}\n{did}".encode()).hexdigest()[:12]
        return self.directory / f"{readable}-{digest}.json"

    def sessions(self) -> list[StoredSession]:
        """Every stored session, in file-name order; unreadable files are logged and skipped."""
        if not self.directory.is_dir():
            return []
        found = []
        for path in sorted(self.directory.glob("[!.]*.json")):  # not a temporary ".tmp-" file
            try:
                stored = StoredSession.from_json(json.loads(path.read_bytes()))
            except (OSError, ValueError):
                stored = None
            if stored is None:
                log.warning("ignoring unreadable session file %s", path)
                continue
            found.append(stored)
        return found

    def load(self, pds_url: str, identifier: str) -> StoredSession | None:
        """The stored session at ``pds_url`` of the account named by DID or handle, if any."""
        url = normalize_base_url(pds_url)
        wanted = identifier.lower()
        for stored in self.sessions():
            if stored.pds_url == url and wanted in (stored.did, stored.handle.lower()):
                return stored
        return None

    def find(self, identifier: str, pds_url: str | None = None) -> StoredSession | None:
        """The stored session of the account named by DID or handle: at ``pds_url`` when given,
        else at whichever PDS it was made (None when there is none, or several)."""
        try:
            wanted = _parse_identifier(identifier)
        except PdsmemError:  # not a handle or DID: no session can be its
            return None
        url = normalize_base_url(pds_url) if pds_url else None
        found = [
            stored for stored in self.sessions()
            if wanted in (stored.did, stored.handle.lower()) and url in (None, stored.pds_url)
        ]
        return found[0] if len(found) == 1 else None

    def save(self, stored: StoredSession) -> Path:
        """Write ``stored`` to its session file (atomically, owner-only); return the path."""
        self.state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.directory.mkdir(mode=0o700, exist_ok=True)
        os.chmod(self.directory, 0o700)
        path = self.path_for(stored.pds_url, stored.did)
        _write_private(path, json.dumps(stored.to_json(), indent=2).encode())
        return path

    def delete(self, pds_url: str, did: str) -> bool:
        """Remove the session file of ``did`` at ``pds_url``; False when there was none."""
        path = self.path_for(pds_url, did)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True


def _session_from(answer: Mapping[str, Any], pds_url: str, what: str) -> StoredSession:
    """The session in a createSession or refreshSession answer, checked for shape."""
    fields = ("did", "handle", "accessJwt", "refreshJwt")
    missing = [name for name in fields if not isinstance(answer.get(name), str)]
    if missing:
        raise SessionError(
            f"the {what} answer of the PDS at {pds_url} lacks {', '.join(missing)}"
        )
    did = Did.parse(answer["did"])
    return StoredSession(
        pds_url, str(did), answer["handle"], answer["accessJwt"], answer["refreshJwt"]
    )


class Session:
    """Authenticated XRPC calls for one account at one PDS, renewing its tokens when they expire.

    Build with :meth:`login` or :meth:`load_or_login`. ``query``, ``procedure`` and ``stream``
    work as on :class:`~pdsmem.bridge.xrpc.XrpcClient`.
    """

    def __init__(
        self,
        stored: StoredSession,
        *,
        store: SessionStore | None = None,
        password: str | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._stored = stored
        self._store = store
        self._password = password
        self._transport, self._timeout = transport, timeout
        self.xrpc = XrpcClient(
            stored.pds_url, transport=transport, timeout=timeout, auth=self._auth
        )

    # --- building -------------------------------------------------------------------------

    @classmethod
    def login(
        cls,
        pds_url: str,
        identifier: str,
        password: str,
        *,
        state_dir: str | os.PathLike[str] | None = None,
        store: SessionStore | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> Session:
        """Log in with ``createSession`` and save the session (to ``store`` or ``state_dir``)."""
        store = store or SessionStore(state_dir)
        account = _parse_identifier(identifier)
        stored = _create_session(pds_url, account, password, transport, timeout)
        store.save(stored)
        return cls(stored, store=store, password=password, transport=transport, timeout=timeout)

    @classmethod
    def load_or_login(
        cls,
        identifier: str | None = None,
        password: str | None = None,
        *,
        pds_url: str | None = None,
        state_dir: str | os.PathLike[str] | None = None,
        plc_url: str | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> Session:
        """Reuse the stored session of the account, or log in and store a new one.

        Missing arguments come from ``ATP_AUTH_HANDLE`` (or ``ATP_AUTH_USERNAME``),
        ``ATP_AUTH_PASSWORD`` and ``ATP_PDS_HOST``; without a PDS URL, a stored session of the
        account names it, else the account's DID document.
        """
        identifier = identifier or env_account()
        if not identifier:
            raise SessionError(f"no account given; set {ENV_HANDLE} or pass a handle or DID")
        account = _parse_identifier(identifier)
        password = password or os.environ.get(ENV_PASSWORD) or None
        pds_url = pds_url or os.environ.get(ENV_PDS) or None
        store = SessionStore(state_dir)
        if pds_url is None:
            stored = store.find(account)
            pds_url = stored.pds_url if stored is not None else None
        if pds_url is None:
            try:
                pds_url = resolve(account, plc_url=plc_url).pds_url
            except IdentityError as exc:
                raise SessionError(
                    f"cannot find the PDS of {account}: {exc}", hint=f"set {ENV_PDS} to its URL"
                ) from None
        stored = store.load(pds_url, account)
        if stored is not None:
            log.debug("reusing the stored session of %s at %s", stored.did, stored.pds_url)
            return cls(stored, store=store, password=password, transport=transport, timeout=timeout)
        if password is None:
            raise SessionError(
                f"no stored session for {account} at {normalize_base_url(pds_url)}; "
                f"set {ENV_PASSWORD} or run pdsmem login"
            )
        return cls.login(
            pds_url, account, password, store=store, transport=transport, timeout=timeout
        )

    # --- what it is -----------------------------------------------------------------------

    @property
    def did(self) -> str:
        return self._stored.did

    @property
    def handle(self) -> str:
        return self._stored.handle

    @property
    def pds_url(self) -> str:
        return self._stored.pds_url

    @property
    def last_rate_limit(self) -> RateLimit | None:
        return self.xrpc.last_rate_limit

    def __repr__(self) -> str:
        return f"Session(did={self.did!r}, handle={self.handle!r}, pds_url={self.pds_url!r})"

    def close(self) -> None:
        self.xrpc.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- calls ----------------------------------------------------------------------------

    def query(self, nsid: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self._renewing(lambda: self.xrpc.query(nsid, params))

    def procedure(
        self,
        nsid: str,
        body: Mapping[str, Any] | bytes | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        return self._renewing(lambda: self.xrpc.procedure(nsid, body, headers=headers))

    @contextmanager
    def stream(
        self, nsid: str, params: Mapping[str, Any] | None = None
    ) -> Iterator[Iterator[bytes]]:
        with ExitStack() as stack:
            yield self._renewing(lambda: stack.enter_context(self.xrpc.stream(nsid, params)))

    def refresh(self) -> None:
        """Trade the refresh token for a new pair (``refreshSession``) and save it at once.

        Raises ``SessionError`` when the PDS refuses the refresh token.
        """
        old = self._stored
        try:
            answer = self.xrpc.procedure(
                "com.atproto.server.refreshSession",
                headers={"Authorization": f"Bearer {old.refresh_jwt}"},
            )
        except XrpcError as exc:
            if exc.status is None or exc.status >= 500 or exc.status == 429:
                raise
            raise SessionError(
                f"the PDS at {old.pds_url} refused to renew the session of {old.handle}: "
                f"{exc.error}: {exc.server_message or 'no message'}",
                did=old.did,
            ) from None
        stored = _session_from(answer, old.pds_url, "refreshSession")
        if stored.did != old.did:
            raise SessionError(f"refreshSession answered for {stored.did}", did=old.did)
        self._stored = stored
        self._save()
        log.info("renewed the session of %s at %s", stored.did, stored.pds_url)

    def logout(self) -> None:
        """End the session at the PDS (``deleteSession``) and remove its session file."""
        try:
            self.xrpc.procedure(
                "com.atproto.server.deleteSession",
                headers={"Authorization": f"Bearer {self._stored.refresh_jwt}"},
            )
        except XrpcError as exc:
            if exc.status is None or exc.status >= 500:
                raise  # 4xx: the PDS already forgot it
        if self._store is not None:
            self._store.delete(self.pds_url, self.did)

    # --- internals ------------------------------------------------------------------------

    def _auth(self) -> str:
        return f"Bearer {self._stored.access_jwt}"

    def _save(self) -> None:
        if self._store is not None:
            self._store.save(self._stored)

    def _renewing(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except XrpcError as exc:
            if exc.error not in _RENEW_ON:
                raise
            log.info("the PDS answered %s; renewing the session of %s", exc.error, self.did)
        self._renew()
        return call()

    def _renew(self) -> None:
        try:
            self.refresh()
            return
        except SessionError as exc:
            if self._password is None:
                raise SessionError(
                    f"session expired; set {ENV_PASSWORD} or run pdsmem login",
                    did=self.did, hint=exc.message,
                ) from None
            log.info("%s; logging in again", exc.message)
        self._stored = _create_session(
            self.pds_url, self.did, self._password, self._transport, self._timeout
        )
        self._save()


AuthedClient = Session
"""The name other layers use for a logged-in client; the same class as :class:`Session`."""


def _create_session(
    pds_url: str,
    account: str,
    password: str,
    transport: httpx.BaseTransport | None,
    timeout: float | httpx.Timeout,
) -> StoredSession:
    """Log ``account`` (a DID or lowercase handle) in at ``pds_url`` with ``createSession``."""
    with XrpcClient(pds_url, transport=transport, timeout=timeout) as xrpc:
        try:
            answer = xrpc.procedure(
                "com.atproto.server.createSession", {"identifier": account, "password": password}
            )
        except XrpcError as exc:
            if exc.status is None or exc.status >= 500 or exc.status == 429:
                raise
            reason = exc.server_message or exc.error
            if exc.error == "AuthenticationRequired":
                raise SessionError(
                    f"the PDS refused the app password for {account}: {reason}; "
                    f"check {ENV_PASSWORD}"
                ) from None
            raise SessionError(
                f"the PDS at {xrpc.base_url} refused to log in {account}: {exc.error}: {reason}"
            ) from None
        stored = _session_from(answer, xrpc.base_url, "createSession")
    if account.startswith("did:") and stored.did != account:
        raise SessionError(f"logged in as {account}, but the PDS answered for {stored.did}")
    log.info("logged in to %s as %s (%s)", stored.pds_url, stored.handle, stored.did)
    return stored


def env_account() -> str | None:
    """The account the environment names (``ATP_AUTH_HANDLE``, else ``ATP_AUTH_USERNAME``)."""
    return next((os.environ[name] for name in ENV_HANDLES if os.environ.get(name)), None)


def _parse_identifier(identifier: str) -> str:
    """A DID as is, or a handle in lowercase (``@`` prefix allowed)."""
    raw = identifier.strip()
    raw = raw[1:] if raw.startswith("@") else raw
    parsed = AtIdentifier.parse(raw)
    return str(parsed) if parsed.is_did else str(parsed).lower()
