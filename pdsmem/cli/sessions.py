"""``pdsmem login`` and ``pdsmem logout``: keep or end an account's session in the state directory.

``login`` signs in with atproto OAuth in the browser by default (the library's
``log_in_with_oauth``), asking only for the collections pdsmem writes. With ``--app-password`` or
``ATP_AUTH_PASSWORD`` it logs in with an app password instead (``log_in``), from that variable or,
on a terminal, a hidden prompt; it is never stored, echoed or logged. ``logout`` is ``log_out``. The session file holds tokens (and, for OAuth, the key they are
bound to), owner-only (docs/oauth.md).
"""

from __future__ import annotations

import os
import sys

import click

from pdsmem import api
from pdsmem.cli import EXIT_PARTIAL, cli
from pdsmem.cli.accounts import password_for
from pdsmem.cli.options import ENV_HANDLES, ENV_PASSWORD, is_account, pds_option, pds_options, settings
from pdsmem.cli.options import state_dir_option


def _account(ctx: click.Context, given: str | None) -> str:
    """The account argument, else ATP_AUTH_HANDLE (or ATP_AUTH_USERNAME), else the config file's
    ``handle``; checked for syntax (a usage error)."""
    from_env = next((os.environ[name] for name in ENV_HANDLES if os.environ.get(name)), None)
    account = given or from_env or settings(ctx).get("handle")
    if not account:
        raise click.UsageError(
            f"no account: pass HANDLE_OR_DID, set {' or '.join(ENV_HANDLES)}, or add handle = \"…\" to "
            "the config file (pdsmem config path)"
        )
    return is_account(ctx, None, account)


@cli.command()
@click.argument("account", metavar="[HANDLE_OR_DID]", required=False)
@click.option("--app-password", "app_password", is_flag=True,
              help="Log in with an app password (from ATP_AUTH_PASSWORD or asked for) instead of "
                   "signing in in the browser; for servers without OAuth.")
@click.option("--no-browser", is_flag=True,
              help="Do not open a browser: print the sign-in page's address to open elsewhere.")
@pds_options
@click.pass_context
def login(ctx: click.Context, account: str | None, app_password: bool, no_browser: bool,
          pds_url: str | None, plc_url: str | None, state_dir: str | None) -> None:
    """Sign in to your PDS and keep the session for later commands.

    By default you sign in in your browser, with atproto OAuth: pdsmem asks only to write its
    memory records and the lexicon it publishes, never your posts, likes or profile, and never
    sees your password. The browser comes back to pdsmem on a local port of this machine.

    With --app-password (or when ATP_AUTH_PASSWORD is set, for scripts), log in with an app
    password instead (made in your account's settings), which can write anything in the
    account; it is never stored.

    The session is kept in the state directory, readable by you only, and renewed as needed;
    `pdsmem status` shows what was granted and `pdsmem logout` ends it.

    \b
    Examples:
      pdsmem login alice.example.com
      pdsmem login alice.example.com --no-browser
      ATP_AUTH_PASSWORD=app-password pdsmem login alice.test --pds http://localhost:2583
    """
    account = _account(ctx, account)
    where = api.sessions_directory(state_dir)
    if app_password or ENV_PASSWORD in os.environ:  # (set but empty too: a script meant a password, not a browser)
        with api.log_in(account, password_for(account), pds_url=pds_url, plc_url=plc_url,
                        state_dir=state_dir) as session:
            click.echo(f"Logged in as {session.handle} ({session.did}) at {session.pds_url} with an "
                       f"app password; session kept in {where}")
        return

    def show(url: str) -> None:
        click.echo(f"Open this page in your browser to sign in:\n\n  {url}\n", err=True)
        if not no_browser and _has_display():
            click.launch(url)
        click.echo("Waiting for the sign-in (up to 5 minutes; Ctrl-C cancels)…", err=True)

    def ignored(message: str) -> None:
        click.echo(f"Warning: {message}", err=True)

    grant = api.log_in_with_oauth(account, show, on_ignored=ignored, pds_url=pds_url, plc_url=plc_url,
                                  state_dir=state_dir)
    click.echo(f"Signed in as {grant.handle} ({grant.did}) at {grant.pds_url}; granted: {grant.granted}; "
               f"session kept in {where}")


def _has_display() -> bool:
    """Whether a graphical browser can open here: on Linux and BSDs only with a display (without
    one, the system's opener may start a text browser in this very terminal)."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


@cli.command()
@click.argument("account", metavar="[HANDLE_OR_DID]", required=False)
@pds_option
@state_dir_option
@click.pass_context
def logout(ctx: click.Context, account: str | None, pds_url: str | None,
           state_dir: str | None) -> None:
    """End an account's stored session: at its PDS, and on this machine.

    \b
    Example:
      pdsmem logout alice.example.com
    """
    account = _account(ctx, account).strip().removeprefix("@")
    ended = api.log_out(account, pds_url=pds_url, state_dir=state_dir)
    if not ended:  # already logged out: the wanted state holds
        click.echo(f"No stored session for {account} in {api.sessions_directory(state_dir)}: nothing to log out")
        return
    for done in ended:
        if done.problem is not None:  # down, gone or refused: forgotten here anyway
            how = ("revoke pdsmem's access in the account's settings" if done.oauth
                   else "revoke the app password in the account's settings")
            click.echo(
                f"Warning: {done.problem}; the session of {done.handle} stays valid at its PDS "
                f"until it expires ({how} to end it now)",
                err=True,
            )
            click.echo(f"Logged out {done.handle} ({done.did}) on this machine only")
            continue
        revoked = f"; the sign-in was revoked at {done.issuer}" if done.oauth else ""
        click.echo(f"Logged out {done.handle} ({done.did}) at {done.pds_url}{revoked}")
    if any(done.problem is not None for done in ended):
        click.get_current_context().exit(EXIT_PARTIAL)
