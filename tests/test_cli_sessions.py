"""``pdsmem login`` / ``logout`` and the stored session the other commands reuse (real PDS)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from devkit.events import fact
from devkit.pds import Account, LocalPds
from support.terminal import run_on_terminal

from pdsmem.bridge.signin.oauth import Dpop
from pdsmem.bridge.signin.session import SessionStore, StoredGrant, StoredSession
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
        f"Logged in as {account.handle} ({account.did}) at {pds.url} with an app password; session kept in "
        f"{tmp_path}/state/sessions\n"
    )
    assert account.password not in logged_in.output

    status = run("status", env=where)
    assert f"Stored sessions:\n  {account.handle}  {account.did}  at {pds.url}  app password\n" in status.stdout
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
    again = run("logout", account.did, env=where)  # regression: a second logout exited 1
    assert again.exit_code == 0
    assert again.stdout == f"No stored session for {account.did} in {tmp_path}/state/sessions: nothing to log out\n"
    no_password = run("export", "--to", account.handle, "--from", str(memories), env=where)
    assert no_password.exit_code == 1
    assert no_password.stderr == (
        f"Error: no stored session for {account.handle} at {pds.url}; set ATP_AUTH_PASSWORD or "
        "run pdsmem login\n"
    )


def test_login_without_a_password_or_a_terminal_says_how_to_give_one() -> None:
    result = run("login", "alice.test", "--app-password", env={"ATP_PDS_HOST": "http://127.0.0.1:9"}, stdin="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: no password for alice.test: set ATP_AUTH_PASSWORD to an app password, or run "
        "pdsmem login in a terminal to be asked for it"
    )


@pytest.mark.parametrize("command", [["login", "alice.test", "--app-password"], ["login", "alice.test"],
                                     ["export", "--to", "alice.test", "--from", "-"]])
@pytest.mark.parametrize("blank", ["", "  "])
def test_a_password_variable_set_but_empty_is_named_so(command: list[str], blank: str, tmp_path: Path) -> None:
    """Regression: `ATP_AUTH_PASSWORD= pdsmem …` (a variable exported from an unset one) was told
    to set ATP_AUTH_PASSWORD, which it had; `login` without --app-password waited five minutes for
    a browser's sign-in, and export sent a password of spaces to the PDS (a review's finds)."""
    env = {"ATP_PDS_HOST": "http://127.0.0.1:9", "ATP_AUTH_PASSWORD": blank, "PDSMEM_STATE_DIR": str(tmp_path)}
    result = run(*command, env=env, stdin="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: no password for alice.test: ATP_AUTH_PASSWORD is set but {'empty' if not blank else 'only spaces'}; "
        "set it to an app password, or unset it and run pdsmem login"
    )


def test_login_without_an_account_names_every_way_to_give_one() -> None:
    result = run("login")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        'Error: no account: pass HANDLE_OR_DID, set ATP_AUTH_HANDLE or ATP_AUTH_USERNAME, or add '
        'handle = "…" to the config file (pdsmem config path)'
    )


def test_logout_forgets_the_session_here_when_its_pds_cannot_be_reached(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{probe.getsockname()[1]}"
    store = SessionStore(tmp_path / "state")
    path = store.save(StoredSession(nowhere, "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "alice.test", "a", "r"))
    with store.renewing(nowhere, "did:plc:ewvi7nxzyoun6zhxrhs64oiz"):  # leaves its lock file
        pass
    env = {"PDSMEM_STATE_DIR": str(tmp_path / "state")}

    elsewhere = CliRunner().invoke(cli, ["logout", "alice.test", "--pds", "http://127.0.0.1:9"], env=env)
    assert elsewhere.exit_code == 1 and path.exists()
    assert elsewhere.stderr == (
        f"Error: no stored session for alice.test at http://127.0.0.1:9 in {store.directory} (its "
        f"session is stored for {nowhere}: pass that with --pds, or unset ATP_PDS_HOST)\n"
    )

    # found by a new user: export named no stored session and sent them to log in again
    memories = tmp_path / "m.jsonl"
    memories.write_text("")
    export = CliRunner().invoke(cli, ["export", "--to", "alice.test", "--from", str(memories), "--pds",
                                      "http://127.0.0.1:9"], env=env)
    assert export.exit_code == 1
    assert export.stderr.splitlines()[-1] == (
        f"Error: no stored session for alice.test at http://127.0.0.1:9 (its session is stored for {nowhere}: "
        "pass that with --pds, or unset ATP_PDS_HOST); set ATP_AUTH_PASSWORD or run pdsmem login"
    )

    result = CliRunner().invoke(cli, ["logout", "alice.test"], env=env)
    assert result.exit_code == 3 and not path.exists()
    assert list(store.directory.iterdir()) == []  # the renewal lock file goes with the session
    assert result.stdout == "Logged out alice.test (did:plc:ewvi7nxzyoun6zhxrhs64oiz) on this machine only\n"
    assert result.stderr == (
        f"Warning: cannot reach the PDS at {nowhere}: connection refused; the session of alice.test "
        "stays valid at its PDS until it expires (revoke the app password in the account's "
        "settings to end it now)\n"
    )


@pytest.mark.pds
def test_export_without_to_goes_to_the_one_account_signed_in(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Regression: ``pdsmem login alice.test`` then ``pdsmem export --from …`` was a usage error
    (``Missing option '--to'``) although one account was signed in. With two, it names both."""
    where = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url}
    assert run("login", account.handle, env={**where, "ATP_AUTH_PASSWORD": account.password}).exit_code == 0
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    exported = run("export", "--from", str(memories), env=where)
    assert exported.exit_code == 0, exported.output
    assert exported.stdout == f"1 created, 0 unchanged ({account.did}, 1 applyWrites batch)\n"
    assert exported.stderr.startswith(f"Note: --to {account.handle} ({account.did}), the one account signed in")
    # a --from that is not there is the error, before the account is named (found by a new user)
    missing = run("export", "--from", str(tmp_path / "nosuch.jsonl"), env=where)
    assert missing.exit_code == 2 and "Note:" not in missing.stderr
    assert missing.stderr.endswith(f"Error: Invalid value for '--from': no such file or directory: "
                                   f"{tmp_path / 'nosuch.jsonl'}\n")

    other = pds.create_account()
    assert run("login", other.handle, env={**where, "ATP_AUTH_PASSWORD": other.password}).exit_code == 0
    ambiguous = run("export", "--from", str(memories), env=where)
    assert ambiguous.exit_code == 2 and ambiguous.stdout == ""
    assert f"signed in on this machine: {', '.join(sorted([account.handle, other.handle]))}" in ambiguous.stderr


@pytest.mark.pds
def test_a_stored_session_finds_its_pds_for_every_command(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Regression: after ``login --pds URL``, ``export --to HANDLE`` failed ("cannot find the
    PDS") unless --pds was repeated; a .test handle has no DNS record to resolve."""
    logged_in = run("login", account.handle, "--pds", pds.url, "--plc", pds.plc_url,
                    env={"ATP_AUTH_PASSWORD": account.password})
    assert logged_in.exit_code == 0, logged_in.output
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    where = {"ATP_PLC_HOST": pds.plc_url}  # no --pds, no ATP_PDS_HOST, no password
    exported = run("export", "--to", account.handle, "--from", str(memories), env=where)
    assert exported.exit_code == 0, exported.output
    assert exported.stdout == f"1 created, 0 unchanged ({account.did}, 1 applyWrites batch)\n"
    verified = run("verify", account.handle, env=where)
    assert verified.exit_code == 0, verified.output
    imported = run("import", "--from", account.handle, "--agent-id", "a", "--profile-id", "p",
                   "--accept-unsalted-scope", env=where)
    assert imported.exit_code == 0, imported.output
    assert json.loads(imported.stdout.splitlines()[0])["op"] == "create"


@pytest.mark.pds
def test_atp_auth_username_names_the_account_as_goat_reads_it(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    env = {"ATP_AUTH_USERNAME": account.handle, "ATP_AUTH_PASSWORD": account.password, "ATP_PDS_HOST": pds.url}
    logged_in = run("login", env=env)
    assert logged_in.exit_code == 0, logged_in.output
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    exported = run("export", "--from", str(memories), env=env)
    assert exported.exit_code == 0, exported.output


@pytest.mark.pds
def test_export_asks_for_the_password_on_a_terminal(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Regression: export did not prompt on a terminal when there was no session."""
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "PDSMEM_STATE_DIR": str(tmp_path / "state")}
    code, screen = run_on_terminal(["export", "--to", account.handle, "--from", str(memories)], env,
                                   answer=account.password)
    assert f"App password for {account.handle}:" in screen
    assert account.password not in screen  # hidden input
    assert code == 0, screen
    assert f"1 created, 0 unchanged ({account.did}, 1 applyWrites batch)" in screen


def test_a_malformed_account_is_a_usage_error_wherever_it_comes_from(tmp_path: Path) -> None:
    """Regression: ``export --to did:plc:bad!`` exited 1, ``convert --did notadid`` exited 2."""
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    for args, env in (
        (["export", "--to", "did:plc:bad!", "--from", str(memories)], {}),
        (["export", "--from", str(memories)], {"ATP_AUTH_HANDLE": "not a handle"}),
        (["login", "did:plc:bad!"], {"ATP_AUTH_PASSWORD": "x"}),
        (["logout", "bad..test"], {}),
    ):
        result = run(*args, env=env)
        assert result.exit_code == 2, (args, result.output)
        assert "Invalid value" in result.stderr and "Traceback" not in result.output


DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
GRANT = {
    "version": 1, "kind": "oauth", "pdsUrl": "http://127.0.0.1:9", "did": DID, "handle": "alice.test",
    "issuer": "http://127.0.0.1:9", "clientId": "http://localhost?scope=atproto",
    "tokenEndpoint": "http://127.0.0.1:9/t",
    "revocationEndpoint": None, "scope": "atproto", "expiresAt": 1e9, "accessToken": "a", "refreshToken": "r",
    "dpopKey": {"kty": "EC", "crv": "P-256", "x": "a", "y": "b", "d": "c"},
}
APP_PASSWORD = {"version": 1, "pdsUrl": "http://127.0.0.1:9", "did": DID, "handle": "alice.test",
                "accessJwt": "a", "refreshJwt": "r"}


@pytest.mark.parametrize("damaged", [
    "[" * 50_000 + "]" * 50_000,  # regression: RecursionError
    json.dumps(GRANT),  # regression: binascii.Error from the DPoP key, at logout and export
    json.dumps({**APP_PASSWORD, "pdsUrl": "http://[::1"}),  # regression: ValueError 'Invalid IPv6 URL'
    json.dumps({**APP_PASSWORD, "pdsUrl": "x"}),
    json.dumps({**APP_PASSWORD, "did": "not a did\n"}),
    json.dumps({**APP_PASSWORD, "handle": "alice\x1b[31m.test"}),
    json.dumps({**APP_PASSWORD, "accessJwt": "a\n"}),
    json.dumps({**GRANT, "dpopKey": {**GRANT["dpopKey"], "x": "AAAA"}, "expiresAt": float("nan")}),
    json.dumps({**GRANT, "expiresAt": 10 ** 400}),
    json.dumps({**GRANT, "tokenEndpoint": "http://[::1/t"}),
], ids=["deep", "key", "ipv6", "url", "did", "handle", "token", "nan", "overflow", "endpoint"])
def test_a_damaged_session_file_is_skipped_as_unreadable_by_every_command(tmp_path: Path, damaged: str) -> None:
    sessions = tmp_path / "state" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "damaged.json").write_text(damaged)
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    env = {"PDSMEM_STATE_DIR": str(tmp_path / "state"), "ATP_PLC_HOST": "http://127.0.0.1:9"}

    status = run("status", env=env)
    assert status.exit_code == 0 and "Stored sessions: none\n" in status.stdout
    logout = run("logout", "alice.test", env=env)
    assert logout.exit_code == 0
    assert logout.stdout == f"No stored session for alice.test in {sessions}: nothing to log out\n"
    export = run("export", "--to", "alice.test", "--pds", "http://127.0.0.1:9", "--from", str(memories), env=env)
    assert export.exit_code == 1
    assert export.stderr.splitlines()[-1] == (
        f"Error: no stored session for alice.test at http://127.0.0.1:9 (1 unreadable session file in {sessions} "
        "ignored: damaged, or written by another version); set ATP_AUTH_PASSWORD or run pdsmem login"
    )


def test_a_sound_grant_file_is_read_back_as_written(tmp_path: Path) -> None:
    """The checks that skip a damaged file pass every grant pdsmem writes."""
    store = SessionStore(tmp_path / "state")
    grant = StoredGrant.from_json({**GRANT, "expiresAt": 1e9 + 0.5, "accessToken": "eyJ.a-b_c~",
                                   "dpopKey": Dpop().private_jwk})
    assert grant is not None
    store.save(grant)
    assert store.sessions() == [grant] and store.unreadable == {}


def test_export_without_to_and_no_account_signed_in_says_how_to_sign_in(tmp_path: Path) -> None:
    """Regression: the error named --to, the environment and the config file, not ``pdsmem login``."""
    memories = tmp_path / "memories.jsonl"
    memories.write_text(json.dumps(fact(1)) + "\n")
    result = run("export", "--from", str(memories), env={"PDSMEM_STATE_DIR": str(tmp_path / "empty")})
    assert result.exit_code == 2 and "sign in once with pdsmem login" in result.stderr


@pytest.mark.pds
@pytest.mark.rushdb
def test_status_check_asks_rushdb_and_each_sessions_pds_and_fails_when_one_does_not_answer(
    pds: LocalPds, account: Account, rushdb, tmp_path: Path
) -> None:
    """Regression: status showed the RushDB a sync would use whether or not it was up, or took the
    key; a new user learnt it from the sync. Without --check, status asks no server."""
    where = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url}
    assert run("login", account.handle, env={**where, "ATP_AUTH_PASSWORD": account.password}).exit_code == 0
    good = run("status", "--check", env={**where, **rushdb.env})
    assert good.exit_code == 0, good.output
    assert good.stdout.splitlines()[-3:] == [
        "Checks (--check: the servers asked now):",
        f"  RushDB at {rushdb.url}: answers and takes the key",
        f"  PDS at {pds.url} ({account.did}): answers and holds the repository",
    ]
    wrong_key = run("status", "--check", env={**where, **rushdb.env, "RUSHDB_API_KEY": "not-the-key"})
    assert wrong_key.exit_code == 1 and "not-the-key" not in wrong_key.output
    assert f"  RushDB at {rushdb.url}: FAILED: RushDB at {rushdb.url} refused the API key" in wrong_key.stdout
    assert wrong_key.stderr.splitlines()[-1] == (
        "Error: 1 of the servers asked did not answer as they should (see the checks above)")
    down = run("status", "--check", "--json", env={**where, "RUSHDB_API_URL": "http://127.0.0.1:9",
                                                   "RUSHDB_API_KEY": "k"})
    assert down.exit_code == 1
    summary, error = [json.loads(line) for line in down.stdout.splitlines()]
    assert error == {"error": {"kind": "error", "exitCode": 1, "message": "1 of the servers asked did not answer "
                               "as they should (see the checks above)"}}
    checks = summary["summary"]["checks"]
    assert [(c["service"], c["ok"]) for c in checks] == [("RushDB", False), ("PDS", True)]
    assert checks[0]["problem"].startswith("cannot reach RushDB at http://127.0.0.1:9: connection refused")
    assert "checks" not in json.loads(run("status", "--json", env={**where, **rushdb.env}).stdout)["summary"]
    # a server address with a fragment reached the server's web page, no record (the SDK raised
    # ValueError); it is refused before any request, and shown masked
    other = run("status", "--check", env={**where, **rushdb.env, "RUSHDB_API_URL": f"{rushdb.url}/#frag"})
    assert other.exit_code == 1
    assert f"RushDB at {rushdb.url}/#***: FAILED: the RushDB URL '{rushdb.url}/#***' has a fragment" in other.stdout
    # an empty query is no part of the address the SDK is given: the server's API answers
    assert run("status", "--check", env={**where, **rushdb.env, "RUSHDB_API_URL": f"{rushdb.url}/?"}).exit_code == 0
    unasked = run("status", "--check", env=where)
    assert unasked.exit_code == 0
    assert "  RushDB at https://api.rushdb.com: not asked: no key set (RUSHDB_API_KEY)" in unasked.stdout


@pytest.mark.pds
def test_check_pds_tells_a_pds_that_holds_no_such_repository_or_cannot_be_reached(pds: LocalPds,
                                                                                account: Account) -> None:
    from pdsmem import api
    from pdsmem.errors import InvalidSyntax, TransientError, UnknownAccount, UsageError

    api.check_pds(pds.url, account.did)
    with pytest.raises(UnknownAccount, match=f"the PDS at {pds.url} holds no active repository of "
                       "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"):
        api.check_pds(pds.url, "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")
    with pytest.raises(TransientError, match="cannot reach the PDS at http://127.0.0.1:9"):
        api.check_pds("http://127.0.0.1:9", account.did)
    with pytest.raises(UsageError, match="pds_url is null, not a URL"):
        api.check_pds(None, account.did)  # type: ignore[arg-type]
    with pytest.raises(InvalidSyntax):
        api.check_pds(pds.url, "alice.test")


@pytest.mark.pds
def test_status_check_fails_a_kept_sign_in_the_server_refused(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """A reviewer's try: describeRepo needs no sign-in, so a revoked grant's PDS passed the check,
    though no run could use it."""
    import time

    from joserfc.jwk import ECKey

    why = "the authorization server refused renewing the sign-in: invalid_grant: Invalid refresh token"
    SessionStore(tmp_path / "state").save(StoredGrant(
        pds.url, account.did, account.handle, pds.url, "https://client/meta.json", f"{pds.url}/oauth/token", None,
        "atproto", time.time() + 60, "access", "refresh", ECKey.generate_key("P-256").as_dict(private=True),
        refused=why,
    ))
    checked = run("status", "--check", env={"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url})
    assert checked.exit_code == 1
    assert (f"  PDS at {pds.url} ({account.did}): FAILED: answers, but it refused the kept sign-in ({why}): sign in "
            f"again with pdsmem login {account.handle}") in checked.stdout.splitlines()


@pytest.mark.pds
def test_a_wrong_password_is_named_by_where_it_came_from(pds: LocalPds, account: Account, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A new developer's try: a wrong password passed to sign_in was blamed on ATP_AUTH_PASSWORD,
    which they had not set."""
    from pdsmem import api
    from pdsmem.errors import SessionError

    monkeypatch.delenv("ATP_AUTH_PASSWORD", raising=False)
    for call in (lambda: api.sign_in(account.handle, "not-the-password", pds_url=pds.url, state_dir=tmp_path),
                 lambda: api.log_in(account.handle, "not-the-password", pds_url=pds.url, state_dir=tmp_path)):
        with pytest.raises(SessionError) as caught:
            call()
        assert str(caught.value).endswith("Invalid identifier or password; check the app password given")
    monkeypatch.setenv("ATP_AUTH_PASSWORD", "not-the-password")
    with pytest.raises(SessionError, match="check ATP_AUTH_PASSWORD$"):
        api.sign_in(account.handle, pds_url=pds.url, state_dir=tmp_path)
