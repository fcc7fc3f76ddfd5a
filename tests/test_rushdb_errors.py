"""What a person sees when RushDB cannot be used: a server that is down, a wrong API key, a
server that fails (5xx), no key at all. Each is one clear ``Error:`` line and an exit code from
the documented set, before anything is read or written; the sync state does not move."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project, free_port

from pdsmem.bridge.pipelines.state import State
from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

SCOPE = ["--agent-id", "coder", "--profile-id", "default"]
PYTHON_INTERNALS = ("Traceback", "Error(", "<class", "NoneType", "b'")


def run(pds: LocalPds, tmp_path: Path, *args: str, **env: str) -> Result:
    environment = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt",
                   "PDSMEM_STATE_DIR": str(tmp_path / "state"), **env}
    return CliRunner().invoke(cli, list(args), env=environment, catch_exceptions=False)


def one_error(result: Result) -> str:
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.stderr
    assert not any(mark in result.stderr for mark in PYTHON_INTERNALS), result.stderr
    return errors[0]


def nothing_synced(tmp_path: Path) -> None:
    with State(tmp_path / "state") as state:
        assert state.cursors() == []


@pytest.fixture
def with_a_memory(pds: LocalPds, account: Account) -> Account:
    Repo(pds, account).create(RECORD_NSID, {"$type": RECORD_NSID, "content": "The user drinks tea.",
                                            "kind": "preference", "createdAt": "2026-08-18T09:00:00.000Z"})
    return account


class Failing:
    """An HTTP server on loopback that answers every request with ``status``."""

    def __init__(self, status: int, *, settings: bool = False) -> None:
        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if settings and self.command == "GET" and self.path.endswith("/settings"):  # a server that answers that
                    body, answer = b'{"data": {}, "success": true}', 200
                else:
                    body, answer = b'{"message": "Internal server error", "statusCode": %d}' % status, status
                self.send_response(answer)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Failing:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def failing() -> Iterator[Failing]:
    with Failing(503) as server:
        yield server


def test_a_server_that_is_not_rushdb_is_named_as_such(pds, tmp_path, with_a_memory) -> None:
    with Failing(404) as elsewhere:
        result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=elsewhere.url,
                     RUSHDB_API_KEY="k")
    assert result.exit_code == 1
    line = one_error(result)
    assert f"RushDB at {elsewhere.url} does not answer as a RushDB REST API does (HTTP 404" in line
    assert "check --rushdb-url or RUSHDB_API_URL" in line


def test_a_server_that_answers_the_check_but_is_not_rushdb_is_named_as_such(pds, tmp_path, with_a_memory) -> None:
    """Regression: a server that answered the settings and 404 to everything else passed the key
    check (a missing record is a 404 too) and then failed with "refused to search … (HTTP 404)"."""
    with Failing(404, settings=True) as elsewhere:
        result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=elsewhere.url,
                     RUSHDB_API_KEY="k")
    assert result.exit_code == 1
    line = one_error(result)
    assert "(HTTP 404" in line and "check --rushdb-url or RUSHDB_API_URL" in line, line


@pytest.mark.parametrize("source", ["bad did:", "did:plc:bad!", "bad_handle.test"])
def test_a_malformed_repository_is_a_usage_error(pds, tmp_path, source) -> None:
    result = run(pds, tmp_path, "sync", source, *SCOPE, RUSHDB_API_URL="http://127.0.0.1:9", RUSHDB_API_KEY="k")
    assert result.exit_code == 2, result.output
    assert "expected a handle, a DID or a CAR file" in result.stderr


def test_a_server_that_is_down_is_named_with_what_to_check(pds, tmp_path, with_a_memory) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=url, RUSHDB_API_KEY="key")
    assert result.exit_code == 1
    line = one_error(result)
    assert f"cannot reach RushDB at {url}" in line
    assert "check --rushdb-url or RUSHDB_API_URL" in line
    nothing_synced(tmp_path)


def test_a_wrong_api_key_is_refused_before_anything_is_read(pds, tmp_path, with_a_memory, rushdb: Project) -> None:
    result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE,
                 RUSHDB_API_URL=rushdb.url, RUSHDB_API_KEY="not-the-key")
    assert result.exit_code == 1
    line = one_error(result)
    assert f"RushDB at {rushdb.url} refused the API key" in line
    assert "RUSHDB_API_KEY" in line
    assert "not-the-key" not in result.output + result.stderr
    nothing_synced(tmp_path)
    for command in (["recall", "tea", *SCOPE, "--did", with_a_memory.did], ["ensure-indexes"]):
        other = run(pds, tmp_path, *command, RUSHDB_API_URL=rushdb.url, RUSHDB_API_KEY="not-the-key")
        assert other.exit_code == 1, other.output
        assert "refused the API key" in one_error(other)


def test_a_server_failing_with_5xx_is_an_error_that_says_so(pds, tmp_path, with_a_memory, failing) -> None:
    result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=failing.url, RUSHDB_API_KEY="k")
    assert result.exit_code == 1
    line = one_error(result)
    assert f"RushDB at {failing.url} failed to" in line and "HTTP 503" in line
    nothing_synced(tmp_path)


def test_no_api_key_without_a_terminal_is_a_usage_error(pds, tmp_path, with_a_memory, rushdb: Project) -> None:
    result = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=rushdb.url)
    assert result.exit_code == 2
    assert "no RushDB API key" in result.stderr and "RUSHDB_API_KEY" in result.stderr
    nothing_synced(tmp_path)


def test_an_api_key_with_a_line_break_is_refused_unshown_and_one_pasted_with_a_line_end_works(
    pds, tmp_path, with_a_memory, rushdb: Project
) -> None:
    broken = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=rushdb.url,
                 RUSHDB_API_KEY=rushdb.api_key[:8] + "\r" + rushdb.api_key[8:])
    assert broken.exit_code == 2  # it was a traceback that showed the key
    assert "the RushDB API key is empty or holds a line break" in broken.stderr
    assert rushdb.api_key[8:] not in broken.output
    nothing_synced(tmp_path)
    pasted = run(pds, tmp_path, "sync", with_a_memory.did, *SCOPE, RUSHDB_API_URL=rushdb.url,
                 RUSHDB_API_KEY=rushdb.api_key + "\r\n")
    assert pasted.exit_code == 0, pasted.output
    assert ": 1 created," in pasted.stdout


@pytest.mark.parametrize("url", ["notaurl", "ftp://example.com", "https://user:secret@rushdb.example"])
def test_a_malformed_rushdb_url_is_a_usage_error_that_never_echoes_a_password(pds, tmp_path, url) -> None:
    result = run(pds, tmp_path, "sync", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", *SCOPE, RUSHDB_API_URL=url, RUSHDB_API_KEY="k")
    assert result.exit_code == 2
    assert "the RushDB URL" in result.stderr
    assert "secret" not in result.stderr


@pytest.mark.parametrize("command", [["sync", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", *SCOPE], ["recall", "tea", *SCOPE],
                                     ["export", "--to", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", "--from", "rushdb", *SCOPE]])
def test_a_participant_hash_that_is_not_one_is_a_usage_error(pds, tmp_path, command) -> None:
    result = run(pds, tmp_path, *command, "--participant-scope-hash", "user-42", RUSHDB_API_URL="http://127.0.0.1:9",
                 RUSHDB_API_KEY="k")
    assert result.exit_code == 2, result.output
    assert "'--participant-scope-hash': must be 64 lowercase hexadecimal digits" in result.stderr


@pytest.mark.parametrize("command", [["sync", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", *SCOPE], ["recall", "tea", *SCOPE, "--did", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"],
                                     ["ensure-indexes"]])
def test_an_embeddings_endpoint_configured_in_part_is_a_usage_error(pds, tmp_path, rushdb: Project, command) -> None:
    result = run(pds, tmp_path, *command, RUSHDB_API_URL=rushdb.url, RUSHDB_API_KEY=rushdb.api_key,
                 RUSHDB_EMBEDDING_MODEL="text-embedding-3-small")
    assert result.exit_code == 2, result.output
    assert "the embeddings endpoint is configured only in part" in result.stderr
    full = {"RUSHDB_EMBEDDING_API_KEY": "e", "RUSHDB_EMBEDDING_MODEL": "m"}
    for dimensions in ("\u00b2", "0", "4097", "eight"):  # '²' passed str.isdigit(), then crashed in int()
        result = run(pds, tmp_path, *command, RUSHDB_API_URL=rushdb.url, RUSHDB_API_KEY=rushdb.api_key, **full,
                     RUSHDB_EMBEDDING_DIMENSIONS=dimensions)
        assert result.exit_code == 2, result.output
        assert (f"RUSHDB_EMBEDDING_DIMENSIONS must be an integer from 1 to 4096, the length of the model's vectors; "
                f"got {dimensions!r}") in result.stderr
    result = run(pds, tmp_path, *command, RUSHDB_API_URL=rushdb.url, RUSHDB_API_KEY=rushdb.api_key, **full,
                 RUSHDB_EMBEDDING_DIMENSIONS="8", RUSHDB_EMBEDDING_BASE_URL="http://a..b")
    assert result.exit_code == 2 and "RUSHDB_EMBEDDING_BASE_URL 'http://a..b' has a host name with an empty part" \
        in result.stderr
