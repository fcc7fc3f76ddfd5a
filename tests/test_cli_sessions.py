"""``pdsmem login`` / ``logout`` and the stored session the other commands reuse (real PDS)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.events import fact
from support.pds import Account, LocalPds

from pdsmem.bridge.session import SessionStore, StoredSession
from pdsmem.cli import cli


def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, input=stdin, catch_exceptions=False)


@pytest.mark.pds
def test_login_keeps_a_session_that_export_reuses_and_logout_ends(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    where = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url}
    logged_in = run("login", account.handle, env={**where, "ATP_AUTH_PASSWORD": account.password})
    assert logged_in.exit_code == 0
    assert logged_in.stdout == (
        f"Logged in as {account.handle} ({account.did}) at {pds.url}; session kept in "
        f"{tmp_path}/state/sessions\n"
    )
    assert account.password not in logged_in.output

    status = run("status", env=where)
    assert f"Stored sessions:\n  {account.handle}  {account.did}  at {pds.url}\n" in status.stdout
    session_file = next((tmp_path / "state" / "sessions").glob("*.json"))
    tokens = json.loads(session_file.read_text())
    assert tokens["accessJwt"] not in status.output and tokens["refreshJwt"] not in status.output

    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    exported = run("export", "--to", account.handle, "--from", str(memories), env=where)  # no password
    assert exported.exit_code == 0, exported.stderr
    assert exported.stdout == f"1 created, 0 unchanged ({account.did}, 1 applyWrites batch)\n"

    logged_out = run("logout", account.handle, env=where)
    assert logged_out.stdout == f"Logged out {account.handle} ({account.did}) at {pds.url}\n"
    assert list((tmp_path / "state" / "sessions").glob("*.json")) == []
    again = run("logout", account.did, env=where)
    assert again.exit_code == 1
    assert again.stderr == (
        f"Error: no stored session for {account.did} in {tmp_path}/state/sessions (nothing to "
        "log out; pdsmem status lists the stored sessions)\n"
    )
    no_password = run("export", "--to", account.handle, "--from", str(memories), env=where)
    assert no_password.exit_code == 1
    assert no_password.stderr == (
        f"Error: no stored session for {account.handle} at {pds.url}; set ATP_AUTH_PASSWORD or "
        "run pdsmem login\n"
    )


def test_login_without_a_password_or_a_terminal_says_how_to_give_one() -> None:
    result = run("login", "alice.test", env={"ATP_PDS_HOST": "http://127.0.0.1:9"}, stdin="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: no password for alice.test: set ATP_AUTH_PASSWORD to an app password, or run "
        "pdsmem login in a terminal to be asked for it"
    )


def test_login_without_an_account_names_every_way_to_give_one() -> None:
    result = run("login")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        'Error: no account: pass HANDLE_OR_DID, set ATP_AUTH_HANDLE, or add handle = "…" to the '
        "config file (pdsmem config path)"
    )


def test_logout_forgets_the_session_here_when_its_pds_cannot_be_reached(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{probe.getsockname()[1]}"
    store = SessionStore(tmp_path / "state")
    path = store.save(StoredSession(nowhere, "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.test", "a", "r"))
    env = {"PDSMEM_STATE_DIR": str(tmp_path / "state")}

    elsewhere = CliRunner().invoke(cli, ["logout", "alice.test", "--pds", "http://127.0.0.1:9"], env=env)
    assert elsewhere.exit_code == 1 and path.exists()
    assert elsewhere.stderr == (
        f"Error: no stored session for alice.test at http://127.0.0.1:9 in {store.directory} (its "
        f"session is stored for {nowhere}: pass that with --pds, or unset ATP_PDS_HOST)\n"
    )

    result = CliRunner().invoke(cli, ["logout", "alice.test"], env=env)
    assert result.exit_code == 3 and not path.exists()
    assert result.stdout == "Logged out alice.test (did:plc:ewvi7nxzyoun6zhxrhs64oiz) on this machine only\n"
    assert result.stderr == (
        f"Warning: cannot reach the PDS at {nowhere}: connection refused; the session of alice.test "
        "stays valid at its PDS until it expires (revoke the app password in the account's "
        "settings to end it now)\n"
    )
