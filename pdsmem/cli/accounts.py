"""Logging in from the command line: a stored session, ``ATP_AUTH_PASSWORD`` or, on a terminal, a
hidden prompt; with clear errors.

``open_session`` wraps ``Session.load_or_login`` and ``login`` wraps ``Session.login``; a stored
session names its account's PDS, so ``--pds`` is needed only once, at login (``pds_hint`` gives
read-only commands the same). When
a PDS refuses a login, it is asked whether the account exists at all (``resolveHandle`` or
``describeRepo``, no login needed), so that a mistyped handle reads as "no such account", not
as a wrong password."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import click

from pdsmem.bridge.atproto.identity import IdentityError, resolve
from pdsmem.bridge.signin.oauth import OAuthSession, sign_in
from pdsmem.bridge.signin.session import (
    ENV_PASSWORD, Session, SessionError, SessionStore, StoredGrant, keep_only,
)
from pdsmem.bridge.atproto.xrpc import XrpcClient, XrpcError, normalize_base_url
from pdsmem.errors import PdsmemError


class UnknownAccount(SessionError):
    """The PDS has no account with that handle or DID."""


def open_session(
    account: str, *, pds_url: str | None, plc_url: str | None, state_dir: Path | None
) -> Session | OAuthSession:
    """The logged-in session of ``account`` (a handle or DID): its stored session, else a login
    with ``ATP_AUTH_PASSWORD`` or, on a terminal, the password asked for."""
    password = os.environ.get(ENV_PASSWORD) or None
    if password is None and SessionStore(state_dir).find(account, pds_url) is None and sys.stdin.isatty():
        password = ask_password(account)
    try:
        session = Session.load_or_login(
            account, password, pds_url=pds_url, state_dir=state_dir, plc_url=plc_url
        )
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


def ask_password(account: str) -> str:
    """The app password, asked for on the terminal (hidden; never stored)."""
    return click.prompt(f"App password for {account}", hide_input=True, err=True)


def password_for(account: str) -> str:
    """``ATP_AUTH_PASSWORD``, else the password asked for on a terminal; a usage error elsewhere."""
    password = os.environ.get(ENV_PASSWORD)
    if password:
        return password
    if not sys.stdin.isatty():
        raise click.UsageError(
            f"no password for {account}: set {ENV_PASSWORD} to an app password, or run pdsmem "
            "login in a terminal to be asked for it"
        )
    return ask_password(account)


def pds_hint(account: str, pds_url: str | None, state_dir: Path | None) -> str | None:
    """``pds_url``, else the PDS of the account's stored session (for handles no DNS resolves)."""
    if pds_url:
        return pds_url
    stored = SessionStore(state_dir).find(account)
    return stored.pds_url if stored is not None else None


def _raise_if_unknown(account: str, pds_url: str) -> None:
    """Raise ``UnknownAccount`` when the PDS at ``pds_url`` says it has no such account.

    A handle is looked up with ``resolveHandle`` (the PDS knows its own accounts' handles
    without DNS), a DID with ``describeRepo``. Any other answer leaves the login error as it was.
    """
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


def login(
    account: str, password: str, *, pds_url: str | None, plc_url: str | None,
    state_dir: Path | None,
) -> Session:
    """Log in anew with ``createSession`` and store the session (replacing a stored one)."""
    if not pds_url:
        try:
            pds_url = resolve(account.strip().removeprefix("@"), plc_url=plc_url).pds_url
        except IdentityError as exc:
            exc.hint = exc.hint or "pass --pds or set ATP_PDS_HOST to the account's PDS URL"
            raise
    try:
        return Session.login(pds_url, account, password, state_dir=state_dir)
    except SessionError:
        _raise_if_unknown(account, pds_url)
        raise


def oauth_login(
    account: str, open_url: Callable[[str], None], on_ignored: Callable[[str], None], *,
    pds_url: str | None, plc_url: str | None, state_dir: Path | None,
) -> StoredGrant:
    """Sign ``account`` in with OAuth and store the grant.

    The account is resolved to its DID document, whose PDS (not ``pds_url``, which only helps to
    resolve a handle without public DNS) is the one its authorization server speaks for. Sessions
    stored before for the same account (an app password's, an earlier grant) are ended at their
    server, as far as it can be reached, and removed: the new sign-in replaces them."""
    try:
        identity = resolve(account.strip().removeprefix("@"), plc_url=plc_url, pds_hint=pds_url)
    except IdentityError as exc:
        exc.hint = exc.hint or "pass --pds or set ATP_PDS_HOST to the account's PDS URL"
        raise
    handle = identity.handle or account.strip().removeprefix("@")
    grant = sign_in(did=str(identity.did), handle=handle, pds_url=identity.pds_url,
                    open_url=open_url, on_ignored=on_ignored)
    keep_only(SessionStore(state_dir), grant)
    return grant
