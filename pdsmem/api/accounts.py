"""Signing in, and the sessions kept on this machine: ``sign_in`` (the kept session, else a login),
``log_in`` and ``log_in_with_oauth`` (a new session, kept), ``log_out``, ``kept_sessions``.

Sessions are kept in the ``sessions`` folder of the state directory (``sessions_directory``), one
owner-only file each: tokens, and for an OAuth grant the key they are bound to; never a password.
Each call imports the sign-in code when it is first made.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pdsmem.api.arguments import a_did, a_string, a_url, described
from pdsmem.errors import IdentityError, PdsmemError, SessionError, TransientError, UnknownAccount, UsageError, kind_of

if TYPE_CHECKING:
    from pdsmem.api.results import Session
    from pdsmem.bridge.signin.session_store import SessionStore, Stored

__all__ = [
    "KeptSession", "LoggedOut", "check_pds", "kept_sessions", "log_in", "log_in_with_oauth", "log_out", "sessions_directory",
    "sign_in",
]


@dataclass(frozen=True)
class KeptSession:
    """A session kept on this machine: whose (``handle``, ``did``), at which PDS, and how; never
    its tokens.

    ``oauth``: an OAuth grant (``pdsmem login``), else an app password's session. For a grant,
    ``granted`` is the scope the authorization server granted, ``issuer`` that server, and
    ``refused`` what it said when it last refused to renew the grant (revoked or expired: only a
    new sign-in helps), None while it is accepted."""

    handle: str
    did: str
    pds_url: str
    oauth: bool = False
    granted: str | None = None
    issuer: str | None = None
    refused: str | None = None


@dataclass(frozen=True)
class LoggedOut:
    """A session ``log_out`` ended: whose, at which PDS, and how (``oauth``: a grant, revoked at
    ``issuer``). ``problem``: why it could not be ended at its server (down, gone, or refusing),
    so that it stays valid there until it expires; it is forgotten on this machine all the same."""

    handle: str
    did: str
    pds_url: str
    oauth: bool
    issuer: str | None = None
    problem: str | None = None


def _kept(stored: Stored) -> KeptSession:
    from pdsmem.bridge.signin.session_store import StoredGrant

    if isinstance(stored, StoredGrant):
        return KeptSession(stored.handle, stored.did, stored.pds_url, oauth=True, granted=stored.scope,
                           issuer=stored.issuer, refused=stored.refused)
    return KeptSession(stored.handle, stored.did, stored.pds_url)


def sessions_directory(state_dir: str | os.PathLike[str] | None = None) -> Path:
    """The folder the sessions are kept in: ``sessions`` in the state directory (default: the
    platform's user state directory; ``PDSMEM_STATE_DIR``). Creates nothing."""
    from pdsmem.bridge.signin.session_store import SessionStore

    return SessionStore(state_dir).directory


def kept_sessions(account: str | None = None, *, pds_url: str | None = None,
                  state_dir: str | os.PathLike[str] | None = None) -> list[KeptSession]:
    """The sessions kept on this machine, in file-name order: every one, or those of ``account``
    (a handle or DID; none for a name that is neither), and of those, with ``pds_url``, the ones
    at that PDS (kept under that address, else under another name of the same server on this
    machine).

    Session files that cannot be read (damaged, or written by another version) are skipped with a
    logged warning. Never opens a session and never makes a request."""
    from pdsmem.bridge.signin.session_store import SessionStore

    store = SessionStore(state_dir)
    found = store.sessions() if account is None else store.sessions_of(account, pds_url)
    return [_kept(stored) for stored in found]


def _no_password(account: str, store: SessionStore, env_password: str) -> None:
    """Raise ``SessionError`` when no session of ``account`` is kept: without a password, nothing
    could sign it in, wherever its PDS is."""
    if store.sessions_of(account):
        return
    count = len(store.unreadable)
    damaged = (f" ({count} unreadable session file{'' if count == 1 else 's'} in {store.directory} ignored: "
               "damaged, or written by another version)") if count else ""
    raise SessionError(f"no stored session for {account} and no app password to log in with{damaged}",
                       hint=f"set {env_password} to an app password, or sign in once with pdsmem login")


def sign_in(account: str, password: str | None = None, *, pds_url: str | None = None,
            plc_url: str | None = None, state_dir: str | os.PathLike[str] | None = None) -> Session:
    """The signed-in session of ``account`` (a handle or DID): its kept session (an app
    password's or an OAuth grant's, ``pdsmem login``), else a new login with ``password`` (an app
    password; else ``ATP_AUTH_PASSWORD``), kept for the next time.

    Without ``pds_url`` (or ``ATP_PDS_HOST``) a kept session names the PDS, else the account's
    DID document. Without a password and without a kept session of the account, raises
    ``SessionError`` saying so and naming ``ATP_AUTH_PASSWORD``: before any request, unless
    ``pds_url`` is given (that PDS is then asked whether the account exists at all). Raises
    ``SessionError`` too when the PDS refuses the password, and when a DID was asked for and the
    session is another account's; ``UnknownAccount`` (a ``SessionError``) when the PDS at
    ``pds_url`` has no such account; ``InvalidSyntax`` for a name that is no handle or DID;
    ``IdentityError`` or ``TransientError``. Never prompts and never logs the password."""
    from pdsmem.bridge.signin.env import ENV_PASSWORD, ENV_PDS
    from pdsmem.bridge.signin.session import Session as Bridged
    from pdsmem.bridge.signin.session_store import SessionStore, parse_identifier

    a_string(account, "the account", hint="its handle or DID")
    a_url(pds_url, "the PDS URL"), a_url(plc_url, "the PLC directory's URL")
    if password is not None and not isinstance(password, str):  # ("" is None: the kept session, ATP_AUTH_PASSWORD)
        raise UsageError(f"the password is {described(password)}, not a string",
                         hint="an app password, or None to use the kept session or ATP_AUTH_PASSWORD")
    password = password or os.environ.get(ENV_PASSWORD) or None
    if password is not None and not password.strip():
        password = None  # (no app password is blank: spaces are a variable set from nothing)
    if password is None and not (pds_url or os.environ.get(ENV_PDS)):
        _no_password(parse_identifier(account), SessionStore(state_dir), ENV_PASSWORD)
    try:
        session = Bridged.load_or_login(account, password, pds_url=pds_url, state_dir=state_dir, plc_url=plc_url,
                                        password_from=_password_from(password))
    except SessionError:
        if pds_url:
            _raise_if_unknown(account, pds_url)
        raise
    wanted = account.strip().removeprefix("@").lower()
    if wanted.startswith("did:") and session.did != account.strip():
        session.close()
        raise SessionError(
            f"logged in as {session.did}, but {account} was asked for",
            hint="the stored session or ATP_AUTH_PASSWORD belongs to another account",
        )
    return session


def _password_from(password: str | None) -> str:
    """Where ``password`` came from, as a refusal of it names it: ``ATP_AUTH_PASSWORD``, or the
    caller (a wrong password passed to ``sign_in`` was blamed on the variable)."""
    from pdsmem.bridge.signin.env import ENV_PASSWORD

    return ENV_PASSWORD if password is None or password == os.environ.get(ENV_PASSWORD) else "the app password given"


def _raise_if_unknown(account: str, pds_url: str) -> None:
    """Raise ``UnknownAccount`` when the PDS at ``pds_url`` says it has no such account.

    A handle is looked up with ``resolveHandle`` (the PDS knows its own accounts' handles
    without DNS), a DID with ``describeRepo``. Any other answer leaves the login error as it was.
    """
    from pdsmem.bridge.atproto.xrpc import XrpcClient, XrpcError, normalize_base_url

    name = account.strip().removeprefix("@")
    is_did = name.startswith("did:")
    nsid, params = (
        ("com.atproto.repo.describeRepo", {"repo": name}) if is_did
        else ("com.atproto.identity.resolveHandle", {"handle": name.lower()})
    )
    try:
        with XrpcClient(pds_url) as xrpc:
            xrpc.query(nsid, params)
    except XrpcError as exc:
        if exc.status == 400 and exc.error in ("RepoNotFound", "InvalidRequest", "HandleNotFound"):
            raise UnknownAccount(
                f"the PDS at {normalize_base_url(pds_url)} has no account {name}",
                hint=f"check the spelling of the {'DID' if is_did else 'handle'}, and that "
                "--pds or ATP_PDS_HOST names the account's PDS",
            ) from None
    except PdsmemError:
        return  # the login error already says what went wrong


def check_pds(pds_url: str, did: str) -> None:
    """Ask the PDS at ``pds_url`` whether it answers and holds the repository of ``did``
    (``describeRepo``: no sign-in, nothing stored). Raises ``UnknownAccount`` when it has no such
    repository (the account moved, or was deleted), a ``TransientError`` when it cannot be reached
    or fails, or another ``PdsmemError`` saying what it answered."""
    from pdsmem.api.inputs import check_did
    from pdsmem.bridge.atproto.xrpc import XrpcClient, XrpcError

    if not isinstance(pds_url, str):
        raise UsageError(f"pds_url is {kind_of(pds_url)}, not a URL", hint='the PDS\'s base URL: "https://pds.example.com"')
    url = a_url(a_string(pds_url, "pds_url", hint="the PDS's base URL"), "the PDS URL") or ""  # (not blank: a_string)
    check_did(a_string(did, "the DID", hint="the repository owner's DID, as did:plc:… or did:web:…"))
    a_did(did)  # of its method's shape too: no PDS is asked about did:plc:xyz
    try:
        with XrpcClient(url) as xrpc:
            xrpc.query("com.atproto.repo.describeRepo", {"repo": did})
    except XrpcError as exc:
        if exc.status == 400 and exc.error in _NO_REPOSITORY:
            raise UnknownAccount(f"the PDS at {url} holds no active repository of {did} ({exc.error})",
                                 hint=_NO_REPOSITORY[exc.error]) from None
        raise


_NO_REPOSITORY = {  # what describeRepo answers for a repository it does not serve, and what to do
    "RepoNotFound": "the account moved to another PDS or was deleted: sign in again with pdsmem login",
    "RepoDeactivated": "the account is deactivated on that PDS: reactivate it there (its settings), then run again",
    "RepoTakendown": "that PDS took the account down: its operator says why",
    "RepoSuspended": "that PDS suspended the account: its operator says why",
}


def log_in(account: str, password: str, *, pds_url: str | None = None, plc_url: str | None = None,
           state_dir: str | os.PathLike[str] | None = None) -> Session:
    """A new login of ``account`` (a handle or DID) with an app password (``createSession``),
    kept in place of the session kept for it at that PDS; ``sign_in`` reuses it next time.

    Without ``pds_url`` (or ``ATP_PDS_HOST``) the account's DID document names the PDS. Raises
    ``SessionError`` when the PDS refuses the password, ``UnknownAccount`` when it has no such
    account, ``IdentityError`` when the PDS cannot be found, or ``TransientError``. Never stores
    or logs the password."""
    from pdsmem.bridge.atproto.identity import resolve
    from pdsmem.bridge.signin.env import ENV_PDS
    from pdsmem.bridge.signin.session import Session as Bridged

    a_string(account, "the account", hint="its handle or DID")
    a_string(password, "the password", hint="an app password")
    pds_url = pds_url or os.environ.get(ENV_PDS) or None
    if not pds_url:
        try:
            pds_url = resolve(account.strip().removeprefix("@"), plc_url=plc_url).pds_url
        except IdentityError as exc:
            exc.hint = exc.hint or "pass --pds or set ATP_PDS_HOST to the account's PDS URL"
            raise
    try:
        return Bridged.login(pds_url, account, password, state_dir=state_dir, password_from=_password_from(password))
    except SessionError:
        _raise_if_unknown(account, pds_url)
        raise


def log_in_with_oauth(account: str, open_url: Callable[[str], None], *,
                      on_ignored: Callable[[str], None] | None = None, pds_url: str | None = None,
                      plc_url: str | None = None, state_dir: str | os.PathLike[str] | None = None) -> KeptSession:
    """Sign ``account`` (a handle or DID) in with atproto OAuth, asking only to write pdsmem's
    records and the lexicons it publishes, and keep the grant (docs/oauth.md).

    ``open_url`` is handed the sign-in page's address (open a browser there, or show it); the
    browser's answer is awaited on a loopback port for up to five minutes, and requests to that
    port that are not it are told to ``on_ignored``. The account's DID document names its PDS
    (``pds_url`` only helps to resolve a handle without public DNS). The sessions kept before for
    the account are ended at their server, as far as it can be reached, and removed. Raises
    ``IdentityError``, ``OAuthError`` (a ``PdsmemError``: the server refused, or the sign-in was
    not finished in time), ``StateError`` (before the sign-in page is shown) when the state
    directory cannot be written, or ``TransientError``. Never sees the account's password."""
    from pdsmem.bridge.atproto.identity import resolve
    from pdsmem.bridge.signin.oauth import sign_in as authorize
    from pdsmem.bridge.signin.session import SessionStore, keep_only

    a_string(account, "the account", hint="its handle or DID")
    store = SessionStore(state_dir)
    store.prepare()  # a grant the person gives must be one that can be kept: say so before they sign in
    try:
        identity = resolve(account.strip().removeprefix("@"), plc_url=plc_url, pds_hint=pds_url)
    except IdentityError as exc:
        exc.hint = exc.hint or "pass --pds or set ATP_PDS_HOST to the account's PDS URL"
        raise
    handle = identity.handle or account.strip().removeprefix("@")
    grant = authorize(did=str(identity.did), handle=handle, pds_url=identity.pds_url, open_url=open_url,
                      on_ignored=on_ignored or (lambda _: None))
    keep_only(store, grant)
    return _kept(grant)


def log_out(account: str, *, pds_url: str | None = None,
            state_dir: str | os.PathLike[str] | None = None) -> list[LoggedOut]:
    """End the kept sessions of ``account`` (a handle or DID; at ``pds_url`` when given): at their
    server (an app password's session is deleted at its PDS, a grant revoked at its authorization
    server) and on this machine. Returns what was ended, each with the ``problem`` that kept its
    server from ending it; an empty list when no session of the account is kept.

    A ``Session`` object already open keeps working until its access token expires (minutes:
    the PDS ends the refresh token, not the access token it already gave): close it too.

    Raises ``PdsmemError`` when the account's sessions are kept for another PDS than ``pds_url``
    (nothing is ended). Never removes the sessions of another account."""
    from pdsmem.bridge.signin.oauth import OAuthError
    from pdsmem.bridge.signin.session import SessionStore, StoredGrant, open_stored

    account = a_string(account, "the account", hint="its handle or DID").strip().removeprefix("@")
    store = SessionStore(state_dir)
    theirs = store.sessions_of(account)
    matches = store.sessions_of(account, pds_url) if pds_url else theirs
    if not matches and theirs:
        elsewhere = ", ".join(sorted({stored.pds_url for stored in theirs}))
        raise PdsmemError(
            f"no stored session for {account} at {pds_url} in {store.directory}",
            hint=f"its session is stored for {elsewhere}: pass that with --pds, or unset ATP_PDS_HOST",
        )
    ended = []
    for stored in matches:
        oauth = isinstance(stored, StoredGrant)
        issuer = stored.issuer if isinstance(stored, StoredGrant) else None
        problem = None
        with open_stored(stored, store) as session:
            try:
                session.logout()
            except (TransientError, OAuthError) as err:  # down, gone or refused: forget it here anyway
                store.delete(stored.pds_url, stored.did)
                problem = err.message
        ended.append(LoggedOut(stored.handle, stored.did, stored.pds_url, oauth, issuer, problem))
    return ended

