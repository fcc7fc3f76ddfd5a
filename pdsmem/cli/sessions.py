"""``pdsmem login`` and ``pdsmem logout``: keep or end an account's session in the state directory.

The app password comes from ``ATP_AUTH_PASSWORD`` or, on a terminal, a hidden prompt; it is
never stored, echoed or logged. The session file holds tokens, owner-only (see
``pdsmem.bridge.session``).
"""

from __future__ import annotations

from pathlib import Path

import click

from pdsmem.bridge.session import ENV_HANDLES, Session, SessionStore, env_account
from pdsmem.cli import EXIT_PARTIAL, cli
from pdsmem.cli.accounts import login as login_account
from pdsmem.cli.accounts import password_for
from pdsmem.cli.options import is_account, pds_option, pds_options, settings, state_dir_option
from pdsmem.errors import PdsmemError, TransientError


def _account(ctx: click.Context, given: str | None) -> str:
    """The account argument, else ATP_AUTH_HANDLE (or ATP_AUTH_USERNAME), else the config file's
    ``handle``; checked for syntax (a usage error)."""
    account = given or env_account() or settings(ctx).get("handle")
    if not account:
        raise click.UsageError(
            f"no account: pass HANDLE_OR_DID, set {' or '.join(ENV_HANDLES)}, or add handle = \"…\" to "
            "the config file (pdsmem config path)"
        )
    return is_account(ctx, None, account)


@cli.command()
@click.argument("account", metavar="[HANDLE_OR_DID]", required=False)
@pds_options
@click.pass_context
def login(ctx: click.Context, account: str | None, pds_url: str | None, plc_url: str | None,
          state_dir: Path | None) -> None:
    """Log in to a PDS and keep the session for later commands.

    Use an app password (made in your account's settings), from ATP_AUTH_PASSWORD or typed
    at the prompt; it is never stored. The session (tokens) is kept in the state directory,
    readable by you only, and renewed as needed; `pdsmem logout` ends it.

    \b
    Examples:
      pdsmem login alice.example.com
      ATP_AUTH_PASSWORD=app-password pdsmem login alice.test --pds http://localhost:2583
    """
    account = _account(ctx, account)
    with login_account(account, password_for(account), pds_url=pds_url, plc_url=plc_url,
                       state_dir=state_dir) as session:
        where = SessionStore(state_dir).directory
        click.echo(f"Logged in as {session.handle} ({session.did}) at {session.pds_url}; "
                   f"session kept in {where}")


@cli.command()
@click.argument("account", metavar="[HANDLE_OR_DID]", required=False)
@pds_option
@state_dir_option
@click.pass_context
def logout(ctx: click.Context, account: str | None, pds_url: str | None,
           state_dir: Path | None) -> None:
    """End an account's stored session: at its PDS, and on this machine.

    \b
    Example:
      pdsmem logout alice.example.com
    """
    account = _account(ctx, account).strip().removeprefix("@")
    wanted = account if account.startswith("did:") else account.lower()
    store = SessionStore(state_dir)
    theirs = [stored for stored in store.sessions() if wanted in (stored.did, stored.handle.lower())]
    matches = [stored for stored in theirs if not pds_url or stored.pds_url == pds_url.rstrip("/")]
    if not matches and theirs:
        elsewhere = ", ".join(sorted({stored.pds_url for stored in theirs}))
        raise PdsmemError(
            f"no stored session for {account} at {pds_url} in {store.directory}",
            hint=f"its session is stored for {elsewhere}: pass that with --pds, or unset ATP_PDS_HOST",
        )
    if not matches:  # already logged out: the wanted state holds
        click.echo(f"No stored session for {account} in {store.directory}: nothing to log out")
        return
    unreachable = 0
    for stored in matches:
        with Session(stored, store=store) as session:
            try:
                session.logout()
            except TransientError as err:  # the PDS is down or gone: forget the session here anyway
                store.delete(stored.pds_url, stored.did)
                unreachable += 1
                click.echo(
                    f"Warning: {err.message}; the session of {stored.handle} stays valid at its PDS "
                    "until it expires (revoke the app password in the account's settings to end it now)",
                    err=True,
                )
                click.echo(f"Logged out {stored.handle} ({stored.did}) on this machine only")
                continue
        click.echo(f"Logged out {stored.handle} ({stored.did}) at {stored.pds_url}")
    if unreachable:
        click.get_current_context().exit(EXIT_PARTIAL)
