"""``pdsmem status``: what is configured and stored, with secrets shown by name only.

Offline: the state database and session files are made with the bridge's own classes.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pdsmem.bridge.signin.session import SessionStore, StoredSession
from pdsmem.bridge.pipelines.state import _MIGRATIONS, ExportedRecord, State, StateError
from pdsmem.cli import cli
from pdsmem.cli.progress import format_clock

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
OTHER = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
SECRETS = ("pw-SECRET-value", "salt-SECRET-value", "access-SECRET-jwt", "refresh-SECRET-jwt")


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("PDSMEM_CONFIG", "ATP_AUTH_HANDLE", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST",
                 "ATP_PLC_HOST", "PDSMEM_AGENT_ID", "PDSMEM_PROFILE_ID", "MEMORY_SCOPE_SALT",
                 "PDSMEM_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path / "state"))


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_status_of_a_fresh_machine_creates_nothing(tmp_path: Path) -> None:
    result = run("status")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"Config file: {tmp_path}/xdg/pdsmem/config.toml (none)",
        "Environment:",
        f"  PDSMEM_STATE_DIR={tmp_path}/state",
        "RushDB: RushDB at https://api.rushdb.com (no key set (RUSHDB_API_KEY); sync would ask for one)",
        f"State directory: {tmp_path}/state",
        "Imported repositories (cursor per repository and import scope): none",
        "Synced into RushDB (cursor per repository, scope and RushDB project): none",
        "Following event streams (sync --follow: the last event whose changes are in RushDB): none",
        "Exports (records pdsmem wrote, per repository): none",
        "Exports waiting to resume (run the same pdsmem export again): none",
        "Stored sessions: none",
    ]
    assert not (tmp_path / "state").exists()


def fill_state(directory: Path) -> None:
    with State(directory) as state:
        state.advance(DID, "3lbt4ilkfw22s", "bafyreicommit", {f"at://{DID}/c/1": "bafyreirecord"}, reader="coder/default/0123456789ab")
        state.advance(DID, "3lbt4ilkfw22s", "bafyreicommit", {}, reader="coder/work/ba9876543210", unsalted=True)
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyreione", "m1")])
        state.record_writes(OTHER, [ExportedRecord(f"3lbt4ilkfw2{n}s", "bafyreix", f"m{n}") for n in range(2, 5)])
    SessionStore(directory).save(
        StoredSession("http://127.0.0.1:2583", DID, "alice.test", SECRETS[2], SECRETS[3])
    )


def test_status_lists_config_environment_cursors_exports_and_sessions(tmp_path: Path) -> None:
    fill_state(tmp_path / "state")
    config = tmp_path / "xdg" / "pdsmem" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('handle = "alice.test"\nagent-id = "coder"\npds = "http://u:pw-SECRET-value@127.0.0.1:2583"\n')
    env = {"ATP_AUTH_PASSWORD": SECRETS[0], "MEMORY_SCOPE_SALT": SECRETS[1],
           "ATP_PDS_HOST": "http://127.0.0.1:2583", "ATP_PLC_HOST": f"http://plc:{SECRETS[0]}@127.0.0.1:2582"}
    result = run("status", env=env)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"Config file: {config}",
        "  handle = alice.test",
        "  agent-id = coder",
        "  pds = http://***@127.0.0.1:2583",
        "Environment:",
        "  ATP_PDS_HOST=http://127.0.0.1:2583",
        "  ATP_PLC_HOST=http://***@127.0.0.1:2582",
        f"  PDSMEM_STATE_DIR={tmp_path}/state",
        "  ATP_AUTH_PASSWORD (set, not shown)",
        "  MEMORY_SCOPE_SALT (set, not shown)",
        "RushDB: RushDB at https://api.rushdb.com (no key set (RUSHDB_API_KEY); sync would ask for one)",
        f"State directory: {tmp_path}/state",
        "Imported repositories (cursor per repository and import scope):",
        f"  {DID}  scope coder/default/0123456789ab  rev 3lbt4ilkfw22s  commit bafyreicommit",
        f"  {DID}  scope coder/work/ba9876543210  rev 3lbt4ilkfw22s  commit bafyreicommit  UNSALTED "
        "(--accept-unsalted-scope: its records can be forged)",
        "Synced into RushDB (cursor per repository, scope and RushDB project): none",
        "Following event streams (sync --follow: the last event whose changes are in RushDB): none",
        "Exports (records pdsmem wrote, per repository):",
        f"  {OTHER}  3 records",
        f"  {DID}  1 record",
        "Exports waiting to resume (run the same pdsmem export again): none",
        "Stored sessions:",
        f"  alice.test  {DID}  at http://127.0.0.1:2583  app password",
    ]
    as_json = run("status", "--json", env=env)
    report = json.loads(as_json.stdout)["summary"]
    assert report["sessions"] == [{"handle": "alice.test", "did": DID, "pds": "http://127.0.0.1:2583", "auth": "app password"}]
    assert report["environment"]["ATP_AUTH_PASSWORD"] == "(set, not shown)"
    assert report["imports"] == [
        {"did": DID, "scope": "coder/default/0123456789ab", "rev": "3lbt4ilkfw22s", "commit": "bafyreicommit",
         "unsalted": False},
        {"did": DID, "scope": "coder/work/ba9876543210", "rev": "3lbt4ilkfw22s", "commit": "bafyreicommit",
         "unsalted": True},
    ]
    assert report["exports"] == [{"did": OTHER, "records": 3, "deletedOnPds": []}, {"did": DID, "records": 1, "deletedOnPds": []}]
    for secret in SECRETS:
        assert secret not in result.output and secret not in as_json.output


START_EXPORT = """
import sys, time
from pdsmem.bridge.pipelines.state import State
state = State(sys.argv[1])
state.start_export(sys.argv[2], sys.argv[3])
state.export_progress(sys.argv[2], sys.argv[3], 200, 1000)
print("started", flush=True)
if sys.argv[4] == "stay":
    time.sleep(60)
"""


def exporter_process(directory: Path, did: str, source: str, *, stay: bool) -> subprocess.Popen:
    """A real process that starts an export run in the state, then ends or stays."""
    process = subprocess.Popen(
        [sys.executable, "-c", START_EXPORT, str(directory), did, source, "stay" if stay else "end"],
        stdout=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "started\n"
    return process


def test_status_lists_each_export_waiting_to_resume_and_what_became_of_it(tmp_path: Path) -> None:
    directory = tmp_path / "state"
    reset = time.time() + 1800
    with State(directory) as state:
        state.start_export(DID, "/data/paused.jsonl")
        state.export_progress(DID, "/data/paused.jsonl", 400, 1700)
        state.stop_export(DID, "/data/paused.jsonl", "the PDS rate-limited the export", paused_until=reset)
        state.start_export(OTHER, "/data/stopped.jsonl")
        state.stop_export(OTHER, "/data/stopped.jsonl", "cannot reach the PDS at http://127.0.0.1:1")
        state.start_export(OTHER, "/data/done.jsonl")
        state.finish_export(OTHER, "/data/done.jsonl")
    exporter_process(directory, DID, "/data/killed.jsonl", stay=False).wait()
    running = exporter_process(directory, OTHER, "/data/running.jsonl", stay=True)
    try:
        result = run("status")
        as_json = json.loads(run("status", "--json").stdout)["summary"]["unfinishedExports"]
    finally:
        running.kill()
        running.wait()
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    start = lines.index("Exports waiting to resume (run the same pdsmem export again):")
    stamp = r"started \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
    expected = [
        rf"  {DID}  from /data/paused\.jsonl  {stamp}  400 of 1700 writes done  paused by the "
        rf"PDS's rate limit until {re.escape(format_clock(reset))}",
        rf"  {OTHER}  from /data/stopped\.jsonl  {stamp}  no write done  stopped: cannot reach the "
        r"PDS at http://127\.0\.0\.1:1",
        rf"  {DID}  from /data/killed\.jsonl  {stamp}  200 of 1000 writes done  ended before "
        r"finishing \(pdsmem was killed\)",
        rf"  {OTHER}  from /data/running\.jsonl  {stamp}  200 of 1000 writes done  running now",
    ]
    shown = lines[start + 1:start + 5]
    assert len(shown) == 4 and lines[start + 5] == "Stored sessions: none"
    for line, pattern in zip(shown, expected):
        assert re.fullmatch(pattern, line), line
    assert [(r["source"], r["state"], r["pausedUntil"]) for r in as_json] == [
        ("/data/paused.jsonl", "paused", reset), ("/data/stopped.jsonl", "stopped", None),
        ("/data/killed.jsonl", "killed", None), ("/data/running.jsonl", "running", None),
    ]


def files_under(directory: Path) -> dict[str, bytes | None]:
    """Every file and directory under ``directory``, with its bytes (None for a directory)."""
    return {str(p.relative_to(directory)): None if p.is_dir() else p.read_bytes() for p in directory.rglob("*")}


def another_programs_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("INSERT INTO notes VALUES ('not pdsmem')")
    db.close()


MOVE_FILE = "move that file aside: pdsmem starts a new one, and the next import delivers everything again"


@pytest.mark.parametrize(("make", "why", "hint"), [
    (lambda path: (path.mkdir(), (path / "inside").write_text("x")), "it is a directory",
     "move that directory aside: pdsmem then starts a new database, and the next import delivers everything again"),
    (lambda path: path.write_bytes(bytes(range(256)) * 16), "file is not a database", MOVE_FILE),
    (another_programs_database, "it is not a pdsmem state database", MOVE_FILE),
], ids=["directory", "random-bytes", "another-database"])
def test_a_state_database_status_cannot_read_is_an_error_and_is_left_as_it_is(
    tmp_path: Path, make, why: str, hint: str
) -> None:
    """Regression: a directory (or another program's SQLite file) named state.sqlite3 was shown as
    "none" with exit 0, as if nothing were imported, synced or exported."""
    directory = tmp_path / "state"
    directory.mkdir()
    path = directory / "state.sqlite3"
    make(path)
    before = files_under(directory)
    for args in (["status"], ["status", "--json"]):
        result = run(*args)
        assert result.exit_code == 1, result.output
        message = f"cannot use the state database {path}: {why} ({hint})"
        assert result.stdout == ("" if args == ["status"] else
                                 json.dumps({"error": {"kind": "error", "message": message, "exitCode": 1}},
                                            separators=(",", ":")) + "\n")
        assert result.stderr == f"Error: {message}\n"
        assert files_under(directory) == before  # nothing repaired, created or changed
    with pytest.raises(StateError) as opened:  # what export, import and sync say of it
        State(directory)
    assert result.stderr == f"Error: {opened.value}\n"


def test_status_reads_an_empty_or_older_state_database_without_changing_it(tmp_path: Path) -> None:
    """Regression: status brought an older schema forward (or wrote one into an empty file)."""
    directory = tmp_path / "state"
    directory.mkdir()
    (directory / "state.sqlite3").write_bytes(b"")
    result = run("status")
    assert result.exit_code == 0 and "Exports (records pdsmem wrote, per repository): none" in result.stdout
    assert files_under(directory) == {"state.sqlite3": b""}
    (directory / "state.sqlite3").unlink()
    with sqlite3.connect(directory / "state.sqlite3") as db:
        db.executescript(_MIGRATIONS[1])
        db.execute("INSERT INTO export_record VALUES (?, '3lbt4ilkfw22s', 'bafyreione', 'm1')", (DID,))
        db.execute("PRAGMA user_version = 1")
    db.close()
    before = files_under(directory)
    result = run("status")
    assert result.exit_code == 0
    assert f"Exports (records pdsmem wrote, per repository):\n  {DID}  1 record\n" in result.stdout
    assert files_under(directory) == before


def test_status_lists_unreadable_session_files_by_name_and_why_never_their_secrets(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a damaged session file was left out of status (only a log line named it, on stderr)."""
    fill_state(tmp_path / "state")
    sessions = tmp_path / "state" / "sessions"
    (sessions / "broken.json").write_text(f'{{"version": 1, "accessJwt": "{SECRETS[2]}", "refreshJw')
    (sessions / "wrong-shape.json").write_text(json.dumps(
        {"version": 1, "pdsUrl": "http://127.0.0.1:2583", "did": DID, "handle": "alice.test",
         "accessJwt": SECRETS[2], "refreshJwt": 42, "dpopKey": {"d": SECRETS[3]}}))  # a number: wrong
    (sessions / "folder.json").mkdir()
    (sessions / ".tmp-half-written.json").write_text("{")  # a save under way: not a session file yet
    with caplog.at_level("WARNING"):
        result = run("status")
    assert result.exit_code == 0 and result.stderr == "" and caplog.records == []  # listed once, by name
    lines = result.stdout.splitlines()
    assert lines[lines.index("Stored sessions:"):] == [
        "Stored sessions:",
        f"  alice.test  {DID}  at http://127.0.0.1:2583  app password",
        "Unreadable session files (every command skips them, and logout does not remove them: delete the file):",
        "  sessions/broken.json  damaged: not JSON",
        "  sessions/folder.json  cannot be read: it is a directory",
        "  sessions/wrong-shape.json  damaged, or written by another version",
    ]
    as_json = run("status", "--json")
    assert as_json.exit_code == 0
    report = json.loads(as_json.stdout)["summary"]
    assert [s["handle"] for s in report["sessions"]] == ["alice.test"]
    assert report["unreadableSessions"] == [
        {"file": "sessions/broken.json", "reason": "damaged: not JSON"},
        {"file": "sessions/folder.json", "reason": "cannot be read: it is a directory"},
        {"file": "sessions/wrong-shape.json", "reason": "damaged, or written by another version"},
    ]
    for secret in SECRETS:
        assert secret not in result.output and secret not in as_json.output
    assert json.loads(run("status", "--json").stdout)["summary"]["unreadableSessions"] == report["unreadableSessions"]
    (sessions / "broken.json").unlink()
    (sessions / "folder.json").rmdir()
    (sessions / "wrong-shape.json").unlink()
    assert json.loads(run("status", "--json").stdout)["summary"]["unreadableSessions"] == []
    assert "Unreadable session files" not in run("status").stdout


def test_a_refused_grant_is_shown_as_refused_with_how_to_sign_in_again(tmp_path: Path) -> None:
    """Regression: a revoked OAuth grant was listed as a normal session, and the export it stopped
    as one to run again, which could not succeed before a new sign-in."""
    from joserfc.jwk import ECKey

    from pdsmem.bridge.signin.session_store import StoredGrant

    why = "the authorization server refused renewing the sign-in: invalid_grant: Invalid refresh token"
    SessionStore(tmp_path / "state").save(StoredGrant(
        "https://pds.example.com", DID, "alice.test", "https://pds.example.com", "https://client/meta.json",
        "https://pds.example.com/oauth/token", None, "atproto", time.time() + 60, SECRETS[2], SECRETS[3],
        ECKey.generate_key("P-256").as_dict(private=True), refused=why,
    ))
    with State(tmp_path / "state") as state:
        state.start_export(DID, "/home/alice/memories.jsonl")
        state.stop_export(DID, "/home/alice/memories.jsonl", f"the sign-in of alice.test is no longer accepted: {why}")
    shown = run("status")
    assert shown.exit_code == 0
    assert (f"  alice.test  {DID}  at https://pds.example.com  OAuth, REFUSED by https://pds.example.com ({why}): "
            "sign in again with pdsmem login alice.test") in shown.stdout.splitlines()
    waiting = [line for line in shown.stdout.splitlines() if "/home/alice/memories.jsonl" in line]
    assert waiting[0].endswith("  (its sign-in was refused: sign in again first, pdsmem login alice.test)")
    [session] = json.loads(run("status", "--json").stdout)["summary"]["sessions"]
    assert session["refused"] == why and session["signInAgain"] == "pdsmem login alice.test"


def test_the_renewal_lock_file_is_owner_only_like_the_session_files(tmp_path: Path) -> None:
    """Regression: the lock file renewals take was made with the umask's mode (0644 as a rule)."""
    store = SessionStore(tmp_path / "state")
    old = os.umask(0o022)
    try:
        with store.renewing("https://pds.example.com", "did:plc:ewvi7nxzyoun6zhxrhs64oiz"):
            pass
    finally:
        os.umask(old)
    files = list(store.directory.iterdir())
    assert files and all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in files)


@pytest.mark.parametrize("token", ["RUSHDB_ENGINE_TOKEN", "RUSHDB_API_KEY"])
def test_status_check_asks_a_standalone_engine_what_it_can_answer(token: str) -> None:
    """Regression: the check asked a standalone engine for the server settings, a RushDB Cloud call
    the SDK's direct mode refuses without a request, so a running engine failed as one that was
    down; and with the API key as its token (the commands take it so) the check said no key was set."""
    result = run("status", "--check", env={"RUSHDB_ENGINE_URL": "http://127.0.0.1:9", token: "t"})
    assert result.exit_code == 1
    assert "  the RushDB engine at http://127.0.0.1:9: FAILED: cannot reach the RushDB engine at " \
           "http://127.0.0.1:9: connection refused" in result.stdout
    assert f"(key from {token})" in result.stdout and "requires RushDB Cloud" not in result.output


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/?apiKey=PASTED-KEY-value", "http://127.0.0.1:9#PASTED-KEY-value",
                                 "http://127.0.0.1:9/api/v1?token=PASTED-KEY-value#x"])
def test_a_key_pasted_into_the_rushdb_url_is_never_shown_and_the_url_is_refused(url: str) -> None:
    """Regression: a RUSHDB_API_URL with a key in its query or fragment was shown whole by status
    (its environment, its RushDB line, --check's failure) and sent to the server as it was."""
    env = {"RUSHDB_API_URL": url, "RUSHDB_API_KEY": "k"}
    for args in (["status"], ["status", "--check"], ["status", "--check", "--json"]):
        shown = run(*args, env=env)
        assert "PASTED-KEY-value" not in shown.output, args
    assert "RushDB: RushDB at http://127.0.0.1:9" in run("status", env=env).stdout
    checked = run("status", "--check", env=env)
    assert checked.exit_code == 1 and "has a " in checked.stdout and "RUSHDB_API_KEY" in checked.stdout
    refused = run("recall", "--agent-id", "a", "--profile-id", "p", "--accept-unsalted-scope",
                  "--did", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "tea", env=env)
    assert refused.exit_code == 2 and "PASTED-KEY-value" not in refused.output
    assert "the RushDB URL 'http://127.0.0.1:9" in refused.output and "RUSHDB_API_KEY" in refused.output


def test_spaces_around_the_rushdb_url_are_not_part_of_it() -> None:
    shown = run("status", env={"RUSHDB_API_URL": " http://127.0.0.1:9 ", "RUSHDB_API_KEY": "k"})
    assert "RushDB: RushDB at http://127.0.0.1:9 (key from RUSHDB_API_KEY)" in shown.stdout.splitlines()
