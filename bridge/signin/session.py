"""Logged-in XRPC calls to a PDS: create, store, reuse and renew an account's session.

Scope: ``com.atproto.server.createSession`` from a handle or DID and an app password, the
session file kept between runs, and the renewal of expired tokens. The PDS URL comes from the
caller, ``ATP_PDS_HOST``, or the account's DID document.

Session files live in ``<state dir>/sessions/`` (``bridge.signin.session_store``); a stored OAuth grant
(``pdsmem login`` without an app password, ``bridge.signin.oauth``) is reused the same way: see
``open_stored``. Passwords are never stored.

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

import logging
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx

from pdsmem.errors import PdsmemError
from pdsmem.mapping.syntax import Did

from .authed import AuthedCalls
from .env import ENV_HANDLE, ENV_HANDLES, ENV_PASSWORD, ENV_PDS, ENV_STATE_DIR
from ..atproto.identity import IdentityError, resolve
from .oauth import OAuthSession
from .session_store import (
    SessionError, SessionStore, Stored, StoredGrant, StoredSession, parse_identifier,
)
from ..pipelines.state import default_state_dir
from ..atproto.xrpc import DEFAULT_TIMEOUT, XrpcClient, XrpcError, normalize_base_url

__all__ = [
    "ENV_HANDLE", "ENV_HANDLES", "ENV_PASSWORD", "ENV_PDS", "ENV_STATE_DIR", "AuthedClient", "Session",
    "OAuthSession", "SessionError", "SessionStore", "StoredGrant", "StoredSession", "default_state_dir",
    "keep_only", "open_stored",
]

log = logging.getLogger(__name__)


_RENEW_ON = frozenset({"ExpiredToken", "InvalidToken"})
_T = TypeVar("_T")


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


class Session(AuthedCalls):
    """Authenticated XRPC calls for one account at one PDS, renewing its tokens when they expire.

    Build with :meth:`login` or :meth:`load_or_login`. ``query``, ``procedure`` and ``stream``
    work as on :class:`~pdsmem.bridge.atproto.xrpc.XrpcClient`.
    """

    def __init__(
        self,
        stored: StoredSession,
        *,
        store: SessionStore | None = None,
        password: str | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        password_from: str = ENV_PASSWORD,
    ) -> None:
        self._stored = stored
        self._store = store
        self._password = password
        self._password_from = password_from  # where a refused password came from, as its error says
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
        password_from: str = ENV_PASSWORD,
    ) -> Session:
        """Log in with ``createSession`` and save the session (to ``store`` or ``state_dir``).
        ``password_from``: where the password came from, as an error names it."""
        store = store or SessionStore(state_dir)
        account = parse_identifier(identifier)
        store.prepare()  # a session the PDS opens must be one that can be kept
        stored = _create_session(pds_url, account, password, transport, timeout, password_from)
        store.save(stored)
        return cls(stored, store=store, password=password, transport=transport, timeout=timeout,
                   password_from=password_from)

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
        password_from: str = ENV_PASSWORD,
    ) -> Session | OAuthSession:
        """Reuse the stored session of the account, or log in and store a new one.

        Missing arguments come from ``ATP_AUTH_HANDLE`` (or ``ATP_AUTH_USERNAME``),
        ``ATP_AUTH_PASSWORD`` and ``ATP_PDS_HOST``; without a PDS URL, a stored session of the
        account names it, else the account's DID document.
        """
        identifier = identifier or env_account()
        if not identifier:
            raise SessionError(f"no account given; set {ENV_HANDLE} or pass a handle or DID")
        account = parse_identifier(identifier)
        password = password or os.environ.get(ENV_PASSWORD) or None
        pds_url = pds_url or os.environ.get(ENV_PDS) or None
        store = SessionStore(state_dir)
        if pds_url is None:
            stored = store.find(account)
            pds_url = stored.pds_url if stored is not None else None
        if pds_url is None:
            try:
                pds_url = resolve(account, plc_url=plc_url).pds_url
            except IdentityError as exc:  # (its message is about ``account``: not named twice)
                what = "DID" if account.startswith("did:") else "handle"
                raise SessionError(
                    f"cannot find the PDS of {account}: {exc.message}",
                    hint=exc.hint or f"check the {what}'s spelling; if it is right, set {ENV_PDS} to the "
                    "URL of the account's PDS",
                ) from None
        stored = store.load(pds_url, account)
        if stored is not None:
            log.debug("reusing the stored session of %s at %s", stored.did, stored.pds_url)
            return open_stored(stored, store, password=password, transport=transport, timeout=timeout,
                               password_from=password_from)
        if password is None:
            damaged = (f" ({len(store.unreadable)} unreadable session file"
                       f"{'' if len(store.unreadable) == 1 else 's'} in {store.directory} ignored: damaged, "
                       "or written by another version)") if store.unreadable else ""
            elsewhere = sorted({kept.pds_url for kept in store.sessions_of(account)})
            kept = (f" (its session is stored for {' and '.join(elsewhere)}: pass that with --pds, or unset {ENV_PDS})"
                    if elsewhere else "")  # a wrong port is likelier than a lost session
            raise SessionError(
                f"no stored session for {account} at {normalize_base_url(pds_url)}{kept}{damaged}; "
                f"set {ENV_PASSWORD} or run pdsmem login"
            )
        return cls.login(
            pds_url, account, password, store=store, transport=transport, timeout=timeout, password_from=password_from
        )

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
            self.pds_url, self.did, self._password, self._transport, self._timeout, self._password_from
        )
        self._save()


AuthedClient = Session
"""The name other layers use for a logged-in client; the same class as :class:`Session`."""


def open_stored(
    stored: Stored,
    store: SessionStore | None,
    *,
    password: str | None = None,
    transport: httpx.BaseTransport | None = None,
    timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    password_from: str = ENV_PASSWORD,
) -> Session | OAuthSession:
    """A client for a stored session of either kind: an app password's or an OAuth grant's."""
    if isinstance(stored, StoredGrant):
        return OAuthSession(stored, store=store, transport=transport, timeout=timeout)
    return Session(stored, store=store, password=password, transport=transport, timeout=timeout,
                   password_from=password_from)


def keep_only(store: SessionStore, stored: Stored) -> None:
    """Save ``stored`` as its account's one session: the others of the same DID (an app
    password's, an earlier grant) are ended at their server as far as it can be reached, and
    removed here."""
    for old in store.sessions():
        if old.did == stored.did:
            try:
                with open_stored(old, None) as session:
                    session.logout()
            except PdsmemError:
                pass  # it cannot be ended there: it expires there, and is forgotten here
            store.delete(old.pds_url, old.did)
    store.save(stored)


def _create_session(
    pds_url: str,
    account: str,
    password: str,
    transport: httpx.BaseTransport | None,
    timeout: float | httpx.Timeout,
    password_from: str = ENV_PASSWORD,
) -> StoredSession:
    """Log ``account`` (a DID or lowercase handle) in at ``pds_url`` with ``createSession``;
    a refused password is named by where it came from (``password_from``)."""
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
                    f"check {password_from}"
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
