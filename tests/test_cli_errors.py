"""The errors people meet, word for word: what happened, to which item, and what to do.

Network errors come from the real local PDS (a wrong app password, an unknown handle, a 429
from its own rate limiter) or from a closed loopback port (an unreachable server). Nothing is
mocked.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from devkit.events import fact
from devkit.pds import Account, LocalPds
from devkit.repo_builder import COLLECTION, DID, Breakage, Keypair, build_repo, tid

from pdsmem.bridge.atproto.identity import resolve
from pdsmem.cli import cli
from pdsmem.errors import TransientError
from pdsmem.mapping import contract

KEY = Keypair.generate()


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("PDSMEM_CONFIG", "ATP_AUTH_HANDLE", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST",
                 "ATP_PLC_HOST", "PDSMEM_AGENT_ID", "PDSMEM_PROFILE_ID", "MEMORY_SCOPE_SALT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path / "state"))


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def source(tmp_path: Path, events: list[dict]) -> str:
    path = tmp_path / "memories.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(path)


def on(pds: LocalPds, **more: str) -> dict[str, str]:
    return {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, **more}


@pytest.mark.pds
def test_a_wrong_app_password(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    result = run("export", "--to", account.handle, "--from", source(tmp_path, [fact(1)]),
                 env=on(pds, ATP_AUTH_PASSWORD="not-the-password"))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"Error: the PDS refused the app password for {account.handle}: Invalid identifier or "
        "password; check ATP_AUTH_PASSWORD\n"
    )


@pytest.mark.pds
def test_an_unknown_handle_or_did(pds: LocalPds, tmp_path: Path) -> None:
    memories = source(tmp_path, [fact(1)])
    exported = run("export", "--to", "nobody.test", "--from", memories, env=on(pds, ATP_AUTH_PASSWORD="x"))
    assert exported.exit_code == 1
    assert exported.stderr == (
        f"Error: the PDS at {pds.url} has no account nobody.test (check the spelling of the "
        "handle, and that --pds or ATP_PDS_HOST names the account's PDS)\n"
    )
    nobody = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
    by_did = run("export", "--to", nobody, "--from", memories, env=on(pds, ATP_AUTH_PASSWORD="x"))
    assert by_did.stderr == (
        f"Error: the PDS at {pds.url} has no account {nobody} (check the spelling of the DID, "
        "and that --pds or ATP_PDS_HOST names the account's PDS)\n"
    )
    imported = run("import", "--from", "nobody.test", "--agent-id", "a", "--profile-id", "p", "--accept-unsalted-scope",
                   env=on(pds))
    assert imported.exit_code == 1 and imported.stdout == ""
    assert imported.stderr == (
        "Error: could not resolve handle nobody.test: .test is a reserved top-level domain with "
        f"no public DNS, and the PDS at {pds.url} has no account nobody.test "
        "(check the handle's spelling, and that --pds or ATP_PDS_HOST names the PDS that hosts "
        "the account)\n"
    )


def test_an_unreachable_pds_or_plc_directory(tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{closed_port()}"
    memories = source(tmp_path, [fact(1)])
    for args in (["export", "--to", "alice.test", "--from", memories], ["login", "alice.test"],
                 ["lexicon", "publish", "--to", "alice.test"]):
        result = run(*args, env={"ATP_PDS_HOST": nowhere, "ATP_AUTH_PASSWORD": "x"})
        assert result.exit_code == 1, args
        assert result.stderr == (
            f"Error: cannot reach the PDS at {nowhere}: connection refused (is the server "
            "running? check --pds or ATP_PDS_HOST; running the same command again is safe)\n"
        )
    plc = run("verify", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--plc", nowhere)
    assert plc.exit_code == 1
    assert plc.stderr == (
        f"Error: did:plc:ewvi7nxzyoun6zhxrhs64oiz: cannot reach the PLC directory at {nowhere}: "
        "connection refused (is it running? check --plc or ATP_PLC_HOST; running the same "
        "command again is safe)\n"
    )


def test_an_unreachable_rushdb_or_embeddings_endpoint_is_named_as_the_pds_is(tmp_path: Path) -> None:
    """Regression: these showed the system's error numbers ('[Errno 111] Connection refused',
    '[Errno -2] Name or service not known')."""
    nowhere = f"http://127.0.0.1:{closed_port()}"
    recall = ["recall", "which language", "--agent-id", "a", "--profile-id", "p", "--accept-unsalted-scope",
              "--did", DID]
    rushdb = {"RUSHDB_API_KEY": "k", "RUSHDB_API_URL": None, "RUSHDB_ENGINE_URL": None,
              "RUSHDB_EMBEDDING_API_KEY": None, "RUSHDB_EMBEDDING_MODEL": None, "RUSHDB_EMBEDDING_DIMENSIONS": None}
    hint = " (is the server running? check --rushdb-url or RUSHDB_API_URL; running the same command again is safe)\n"
    for url, reason in ((nowhere, "connection refused"), ("http://nonexistent.invalid", "host name not found")):
        result = run(*recall, "--rushdb-url", url, env=rushdb)
        assert result.exit_code == 1
        assert result.stderr == f"Error: cannot reach RushDB at {url}: {reason}{hint}"
        embedded = run(*recall, "--rushdb-url", nowhere, env={
            **rushdb, "RUSHDB_EMBEDDING_API_KEY": "e", "RUSHDB_EMBEDDING_MODEL": "m",
            "RUSHDB_EMBEDDING_DIMENSIONS": "8", "RUSHDB_EMBEDDING_BASE_URL": url,
        })
        assert embedded.exit_code == 1
        assert embedded.stderr.splitlines()[-1] == (
            f"Error: cannot reach the embeddings endpoint {url} (model m): {reason}"
        )


def test_an_embeddings_url_that_serves_a_web_page_names_the_url_in_one_line(tmp_path: Path) -> None:
    """Regression: a base URL that is a web site dumped its whole HTML page into the error and said
    to check the API key and the model (a new user's try)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = b"<!DOCTYPE html>\n<html>\n<head><title>Not Found</title></head>\n<body>nothing here</body>\n</html>\n"
            self.send_response(404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        result = run("recall", "which language", "--agent-id", "a", "--profile-id", "p", "--accept-unsalted-scope",
                     "--did", DID, "--rushdb-url", f"http://127.0.0.1:{closed_port()}", env={
                         "RUSHDB_API_KEY": "k", "RUSHDB_EMBEDDING_API_KEY": "e", "RUSHDB_EMBEDDING_MODEL": "m",
                         "RUSHDB_EMBEDDING_DIMENSIONS": "8", "RUSHDB_EMBEDDING_BASE_URL": url})
    finally:
        server.shutdown()
        server.server_close()
    assert result.exit_code == 1
    last = result.stderr.splitlines()[-1]
    assert last.startswith("Error: the embeddings endpoint") and "(HTTP 404)" in last, result.stderr
    assert "check RUSHDB_EMBEDDING_BASE_URL" in last and "<html>" not in result.stderr


@pytest.mark.pds
def test_export_to_a_pds_gone_down_shows_each_retry_and_ends_with_the_hint(tmp_path: Path) -> None:
    """Regression: with a stored session and the PDS down, export retried silently for about
    20 s and ended without the "is the server running?" hint that login gives."""
    memories = source(tmp_path, [fact(1)])
    with LocalPds() as server:
        account = server.create_account("down")
        env = {"ATP_PDS_HOST": server.url, "ATP_PLC_HOST": server.plc_url, "ATP_AUTH_PASSWORD": account.password}
        assert run("login", account.handle, env=env).exit_code == 0
        server.stop()
        result = run("export", "--to", account.handle, "--from", memories, env={"ATP_PLC_HOST": server.plc_url})
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    retry = f"Retrying: cannot reach the PDS at {server.url}: connection refused; next try in"
    assert [line.removeprefix(retry) for line in lines[:-1]] == [
        " 0.2 s.", " 0.4 s.", " 0.8 s.", " 1.6 s.", " 3.2 s.", " 5.0 s.", " 5.0 s.", " 5.0 s."]
    assert lines[-1] == (
        f"Error: cannot reach the PDS at {server.url}: connection refused (tried 9 times) (is the server "
        "running? check --pds or ATP_PDS_HOST; nothing was written: run the same command again when the "
        "PDS answers)"
    )


@pytest.mark.pds
def test_private_memories_and_content_over_the_lexicon_limits(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    private = fact(2, privacyScope="private")
    too_long = fact(3, text="x" * 10_001)
    too_many_graphemes = fact(4, text="e\u0301" * 2_501)  # 7,503 bytes, 2,501 graphemes
    memories = source(tmp_path, [fact(1), private, too_long, too_many_graphemes])
    result = run("export", "--to", account.did, "--from", memories,
                 env=on(pds, ATP_AUTH_PASSWORD=account.password))
    assert result.exit_code == 3
    assert result.stdout == f"1 created, 0 unchanged, 1 refused, 2 failed ({account.did}, 1 applyWrites batch)\n"
    errors = result.stderr.splitlines()
    private_id = contract.fact_id(private)
    assert errors[0] == (
        f'Error: memories.jsonl:2: refused: memory {private_id} is private (privacyScope is '
        '"private") and a PDS repository is public (pass --publish-private to acknowledge that '
        "the target repository is public)"
    )
    assert re.fullmatch(
        rf"Error: memories\.jsonl:3: failed: at://{account.did}/{COLLECTION}/\w+, at \$\.content: "
        r"must be at most 10000 bytes long \(got 10001\); fix the memory in the source, then run "
        r"the export again", errors[1],
    ), errors[1]
    assert re.fullmatch(
        rf"Error: memories\.jsonl:4: failed: at://{account.did}/{COLLECTION}/\w+, at \$\.content: "
        r"must be at most 2500 graphemes long \(got 2501\); fix the memory in the source, then "
        r"run the export again", errors[2],
    ), errors[2]
    assert len(errors) == 3


@pytest.mark.pds
def test_a_memory_refused_for_a_secret_is_named_without_its_words(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: the refusal quoted the memory's first words, the secret among them, into the
    terminal and whatever log keeps it; a memory refused for its scope was still quoted, and a
    private memory's words are as private (tests/test_privacy_messages.py tries every path)."""
    secret = fact(1, text="The user's wifi password is hunter22.")
    private = fact(2, privacyScope="private")
    memories = source(tmp_path, [secret, private, fact(3)])
    result = run("export", "--to", account.did, "--from", memories, env=on(pds, ATP_AUTH_PASSWORD=account.password))
    assert result.exit_code == 3
    assert "hunter22" not in result.output
    assert result.stderr.splitlines()[0] == (
        f"Error: memories.jsonl:1: refused: at $.text: memory {contract.fact_id(secret)}: its text looks like a "
        "credential stated in a sentence (remove it from the memory where it is kept (its file, or its row in "
        "RushDB) before exporting, or pass --allow-refused to export the rest and note it; no flag publishes "
        "secrets, personal numbers, command output or local paths)"
    )
    assert result.stderr.splitlines()[1].startswith("Error: memories.jsonl:2: refused: ")
    assert private["text"] not in result.output


def test_a_repository_that_fails_verification(tmp_path: Path) -> None:
    records = {f"{COLLECTION}/{tid(1_700_000_000_000_000)}": {
        "$type": COLLECTION, "content": "likes tea", "createdAt": "2024-01-01T00:00:00.000Z"}}
    built = build_repo(records, keypair=KEY, breakage=Breakage(signer=Keypair.generate()))
    car = tmp_path / "repo.car"
    car.write_bytes(built.car)
    result = run("verify", str(car), "--signing-key", KEY.did_key)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"Error: repo.car, {DID}, at commit {built.commit_cid}: commit signature does not verify against "
        f"signing key {KEY.did_key} (the commit was signed by another key, or the DID document "
        "is out of date)\n"
    )
    imported = run("import", "--from", str(car), "--signing-key", KEY.did_key,
                   "--agent-id", "a", "--profile-id", "p", "--accept-unsalted-scope")
    assert imported.exit_code == 1 and imported.stdout == ""
    assert imported.stderr.endswith(
        "(the commit was signed by another key, or the DID document is out of date; nothing "
        "was imported and the stored cursor did not move)\n"
    )


@pytest.mark.pds
def test_a_forged_repository_of_a_real_account_is_refused(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    record = {"$type": COLLECTION, "content": "forged", "createdAt": "2024-01-01T00:00:00.000Z"}
    built = build_repo({f"{COLLECTION}/{tid(1_700_000_000_000_000)}": record}, keypair=KEY, did=account.did)
    car = tmp_path / "forged.car"
    car.write_bytes(built.car)
    key = resolve(account.did, plc_url=pds.plc_url, pds_hint=pds.url).signing_key
    result = run("verify", str(car), env=on(pds))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: forged.car, {account.did}, at commit {built.commit_cid}: commit signature does not verify "
        f"against signing key {key} (the commit was signed by another key, or the DID document "
        "is out of date)\n"
    )


@pytest.mark.pds
def test_export_paused_by_a_rate_limit_says_when_to_resume(tmp_path: Path) -> None:
    """The PDS's own limiter: 1,700 creates cost 5,100 points, over its 5,000 an hour."""
    with LocalPds(rate_limits=True) as limited:
        account = limited.create_account()
        memories = source(tmp_path, [fact(n) for n in range(1700)])
        result = run("export", "--to", account.did, "--from", memories,
                     env=on(limited, ATP_AUTH_PASSWORD=account.password))
    assert result.exit_code == 3 and result.stdout == ""
    clock = r"(\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \w+"  # the date too when the reset is tomorrow
    assert re.fullmatch(
        rf"Error: the PDS rate-limited the export of {account.did}; its limit resets at "
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(everything written so far is recorded: run the "
        r"same command again after that time, or pass --max-wait SECONDS to wait for the reset\)"
        "\n"
        rf"Paused: \d+00 of 1700 writes done for {account.did}; the limit resets at {clock} "
        r"\(in (59|60) min \d\d s\)\." "\n",
        result.stderr,
    ), result.stderr


def test_debug_shows_the_traceback_instead_of_the_one_line_error() -> None:
    nowhere = f"http://127.0.0.1:{closed_port()}"
    args = ["verify", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--plc", nowhere]
    plain = CliRunner().invoke(cli, args)
    assert plain.exit_code == 1 and isinstance(plain.exception, SystemExit)
    assert plain.stderr.startswith("Error: ") and "Traceback" not in plain.output
    debug = CliRunner().invoke(cli, ["--debug", *args])
    assert isinstance(debug.exception, TransientError)
    assert str(debug.exception).startswith("did:plc:ewvi7nxzyoun6zhxrhs64oiz: cannot reach the PLC directory")


@pytest.mark.parametrize("args, option", [
    (["import", "--from", "x", "--agent-id", "a", "--profile-id", "p", "--pds", "not a url"], "--pds"),
    (["verify", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--plc", "ftp://plc.example"], "--plc"),
    (["convert", "to-record", "--did", "notadid"], "--did"),
    (["verify", "repo.car", "--signing-key", "did:key:zBAD"], "--signing-key"),
])
def test_a_bad_option_value_is_a_usage_error(args: list[str], option: str) -> None:
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 2
    assert f"Error: Invalid value for '{option}': " in result.stderr


@pytest.mark.parametrize("args, message", [
    (["sync", "x.test", "--batch-size", "abc"], "'--batch-size': 'abc' is not a whole number: give one from 1 to 5000."),
    (["sync", "x.test", "--batch-size", "0"], "'--batch-size': 0 is out of range: give a whole number from 1 to 5000."),
    (["sync", "x.test", "--batch-size", "2.5"], "'--batch-size': '2.5' is not a whole number: give one from 1 to 5000."),
    (["recall", "q", "--limit", "51"], "'--limit': 51 is out of range: give a whole number from 1 to 50."),
    (["export", "--max-wait", "-3", "--to", "x.test", "--from", "m.jsonl"],
     "'--max-wait': '-3' is below 0: give a number of seconds, 0 or more (0: do not wait)."),
    (["export", "--max-wait", "nan", "--to", "x.test", "--from", "m.jsonl"],
     "'--max-wait': 'nan' is not a number of seconds: give 0 or more (0: do not wait)."),
])
def test_a_number_option_out_of_its_range_says_what_it_takes_in_words(args: list[str], message: str) -> None:
    """Regression: click's own words were "'abc' is not a valid integer range" and "0 is not in the
    range 1<=x<=5000", and `--max-wait nan` was taken (nan is below nothing) for a wait to sleep."""
    result = CliRunner().invoke(cli, args, input="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: Invalid value for {message}"


@pytest.mark.parametrize("command", ["recall", "list"])
def test_a_participant_did_plc_of_another_shape_is_an_error_of_the_option(command: str) -> None:
    """Found by a new user: ``recall --did did:plc:bad`` was refused as "did: not a valid did:plc"
    (the library's parameter), after the RushDB key was asked for; it is the option's error."""
    args = [command, *(["tea"] if command == "recall" else []), "--agent-id", "a", "--profile-id", "p", "--salt", "s",
            "--did", "did:plc:bad"]
    nowhere = f"http://127.0.0.1:{closed_port()}"  # a RushDB never asked
    result = CliRunner().invoke(cli, args, env={"RUSHDB_API_KEY": "k", "RUSHDB_API_URL": nowhere})
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--did': not a valid did:plc: one has 24 characters after 'did:plc:', letters a-z "
        "and digits 2-7 (this one has 3): 'did:plc:bad'")


def test_a_bad_account_argument_is_quoted_back_unless_it_looks_like_a_secret(tmp_path: Path) -> None:
    """Found by a new user: ``--to "alice test"`` was shown as "(a value of 10 characters)", the form
    messages use for a memory's words; an argument is what the person typed, so it is quoted."""
    memories = source(tmp_path, [fact(1)])
    typo = CliRunner().invoke(cli, ["export", "--to", "alice test", "--from", memories])
    assert typo.exit_code == 2
    assert typo.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--to': expected a DID ('did:...') or a handle; handle has ' ' at position 5 "
        "(only ASCII letters, digits, '.' and '-' allowed): 'alice test'"
    )
    secret = "the password is Kestrel!Moon77"
    pasted = CliRunner().invoke(cli, ["export", "--to", secret, "--from", memories])
    assert pasted.exit_code == 2
    assert "Kestrel" not in pasted.output and pasted.stderr.endswith(": (a value of 30 characters)\n")


@pytest.mark.parametrize("command", [
    ["export", "--from", "{memories}", "--to", "did:plc:xyz"],
    ["import", "--from", "did:plc:xyz", "--agent-id", "a", "--profile-id", "p", "--salt", "s", "--dry-run"],
])
def test_a_did_plc_of_another_shape_is_refused_before_any_pds_is_asked(tmp_path: Path, command: list[str]) -> None:
    """Found by a new user: with ``ATP_PDS_HOST`` set, ``--to did:plc:xyz`` went to the PDS, which
    answered that it has no such account, as if a real DID were missing; only the path through the
    PLC directory checked the method's shape."""
    memories = source(tmp_path, [fact(1)])
    nowhere = f"http://127.0.0.1:{closed_port()}"  # a PDS that would refuse the connection: never asked
    result = CliRunner().invoke(cli, [arg.format(memories=memories) for arg in command],
                                env={"ATP_PDS_HOST": nowhere, "ATP_AUTH_PASSWORD": "app-pass"})
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1].endswith(
        "not a valid did:plc: one has 24 characters after 'did:plc:', letters a-z and digits 2-7 (this one "
        "has 3): 'did:plc:xyz'" + (" (expected a handle, a DID or a CAR file)" if command[0] == "import" else ""))
    assert "cannot reach" not in result.output


def test_a_bad_url_in_the_config_file_is_a_usage_error(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('pds = "not a url"\n')
    result = CliRunner().invoke(cli, ["verify", "did:plc:ewvi7nxzyoun6zhxrhs64oiz"],
                                env={"PDSMEM_CONFIG": str(config)})
    assert result.exit_code == 2 and "Invalid value for '--pds'" in result.stderr


@pytest.mark.parametrize("args", [
    ["import", "--from", "{name}", "--agent-id", "a", "--profile-id", "p", "--salt", "s"],
    ["export", "--to", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--from", "{name}"],
    ["verify", "{name}.car"],
])
def test_a_file_name_longer_than_the_system_allows_is_a_usage_error_shown_shortened(args: list[str]) -> None:
    """Regression: the name came back whole (5,000 characters) with exit 1, as if a file had failed."""
    name = "m" * 5000
    result = CliRunner().invoke(cli, [arg.format(name=name) for arg in args])
    assert result.exit_code == 2, result.output
    assert re.fullmatch(r"Error: m{60}…m{16}(?:m{4}|\.car) \(5,00[04] characters\): File name too long\n", result.stderr)


@pytest.mark.parametrize("command", [["ids"], ["convert", "to-record", "--did", "did:plc:abc"], ["validate"]])
def test_a_file_named_as_an_argument_to_a_command_that_reads_stdin_is_told_how_to_name_it(command: list[str]) -> None:
    """A new user's try: `pdsmem ids memories.jsonl` said only "Got unexpected extra argument"."""
    result = CliRunner().invoke(cli, [*command, "memories.jsonl"], input="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Got unexpected extra argument (memories.jsonl); this command reads stdin, or the file named "
        "with --input FILE")
