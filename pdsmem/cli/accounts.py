"""Logging in from the command line: a stored session, ``ATP_AUTH_PASSWORD`` or, on a terminal, a
hidden prompt; with clear errors.

``open_session`` asks for the password on a terminal when no session is kept, then calls the
library's ``sign_in``; a stored session names its account's PDS, so ``--pds`` is needed only
once, at login (``pds_hint`` gives read-only commands the same). When a PDS refuses a login, the
library asks it whether the account exists at all, so that a mistyped handle reads as "no such
account", not as a wrong password."""

from __future__ import annotations

import os
import sys

import click

from pdsmem import api
from pdsmem.cli.options import ENV_PASSWORD


def _kept(account: str, pds_url: str | None, state_dir: str | None) -> api.KeptSession | None:
    """The session kept for ``account`` (at ``pds_url`` when given, else at whichever PDS); None
    when there is none, or several."""
    found = api.kept_sessions(account, pds_url=pds_url, state_dir=state_dir)
    return found[0] if len(found) == 1 else None


def open_session(account: str, *, pds_url: str | None, plc_url: str | None, state_dir: str | None) -> api.Session:
    """The logged-in session of ``account`` (a handle or DID): its stored session, else a login
    with ``ATP_AUTH_PASSWORD`` or, on a terminal, the password asked for."""
    password = env_password()
    if password is None and _kept(account, pds_url, state_dir) is None:
        if sys.stdin.isatty():
            password = ask_password(account)
        elif not api.kept_sessions(account, state_dir=state_dir):  # else: the library names the PDS it is kept for
            _not_blank(account)
    return api.sign_in(account, password, pds_url=pds_url, plc_url=plc_url, state_dir=state_dir)


def ask_password(account: str) -> str:
    """The app password, asked for on the terminal (hidden; never stored)."""
    return click.prompt(f"App password for {account}", hide_input=True, err=True)


def password_for(account: str) -> str:
    """``ATP_AUTH_PASSWORD``, else the password asked for on a terminal; a usage error elsewhere."""
    password = env_password()
    if password:
        return password
    if not sys.stdin.isatty():
        _not_blank(account)
        raise click.UsageError(
            f"no password for {account}: set {ENV_PASSWORD} to an app password, or run pdsmem "
            "login in a terminal to be asked for it"
        )
    return ask_password(account)


def env_password() -> str | None:
    """``ATP_AUTH_PASSWORD``, or None when it is unset, empty or only spaces (no app password is)."""
    password = os.environ.get(ENV_PASSWORD, "")
    return password if password.strip() else None


def _not_blank(account: str) -> None:
    """A usage error when ``ATP_AUTH_PASSWORD`` is set but empty (``export VAR=$UNSET``): telling
    the user to set a variable they did set sends them looking in the wrong place."""
    if ENV_PASSWORD in os.environ:
        what = "empty" if not os.environ[ENV_PASSWORD] else "only spaces"
        raise click.UsageError(
            f"no password for {account}: {ENV_PASSWORD} is set but {what}; set it to an app password, "
            "or unset it and run pdsmem login"
        )


def pds_hint(account: str, pds_url: str | None, state_dir: str | None) -> str | None:
    """``pds_url``, else the PDS of the account's stored session (for handles no DNS resolves)."""
    if pds_url:
        return pds_url
    stored = _kept(account, None, state_dir)
    return stored.pds_url if stored is not None else None
