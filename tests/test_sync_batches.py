"""A RushDB server that runs out of its transaction time budget on large writes (HTTP 408, "reduce
the batch size", as the real one does after a restart on a large project): sync writes the chunk
again in halves and finishes, with every memory written once. The real local RushDB server
answers everything, behind a proxy that refuses, as the server words it, any import of more than
a few records."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from click.testing import CliRunner
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project, free_port
from support.rushdb_view import records

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

BUDGET = 3  # records an import may hold before the proxy answers 408
TOO_LONG = ("The operation exceeded the server-side transaction time budget and was rolled back. Narrow the "
            "operation with `where` filters or split it into smaller requests.")


class _Proxy(BaseHTTPRequestHandler):
    upstream = ""
    refused = 0

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.endswith("/records/import/json") and len(json.loads(body).get("data") or []) > BUDGET:
            type(self).refused += 1
            answer = json.dumps({"statusCode": 408, "message": TOO_LONG}).encode()
            self.send_response(408)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
        reply = httpx.request(self.command, self.upstream + self.path, content=body, headers=headers, timeout=120)
        self.send_response(reply.status_code)
        for name in ("Content-Type",):
            if name in reply.headers:
                self.send_header(name, reply.headers[name])
        self.send_header("Content-Length", str(len(reply.content)))
        self.end_headers()
        self.wfile.write(reply.content)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _forward

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def budgeted(rushdb: Project) -> Iterator[str]:
    port = free_port()
    handler = type("Budgeted", (_Proxy,), {"upstream": rushdb.url})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}", handler
    finally:
        server.shutdown()
        server.server_close()


def test_a_chunk_the_server_runs_out_of_time_on_is_written_again_in_halves(
    pds: LocalPds, account: Account, rushdb: Project, budgeted
) -> None:
    url, handler = budgeted
    repo = Repo(pds, account)
    for n in range(20):
        repo.create(RECORD_NSID, {"$type": RECORD_NSID, "content": f"Memory number {n}.",
                                  "createdAt": "2026-08-18T09:00:00.000Z"})
    env = {**rushdb.env, "RUSHDB_API_URL": url, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url,
           "MEMORY_SCOPE_SALT": "salt"}
    done = CliRunner().invoke(cli, ["sync", account.did, "--agent-id", "coder", "--profile-id", "default",
                                    "--batch-size", "8", "--json"], env=env, catch_exceptions=False)
    assert done.exit_code == 0, done.output
    # 8, then its halves of 4 refused; every chunk after at the size that worked (2): none refused
    # (the size was read once, and each later chunk of 8 was refused three times again)
    assert handler.refused == 3
    assert "ran out of time to write" in done.stderr and "Traceback" not in done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])["summary"]
    assert summary["created"] == 20 and summary["written"]["memories"] == 20
    assert sorted(row["text"] for row in records(rushdb, "MEMORY_FACT")) == sorted(
        f"Memory number {n}." for n in range(20))
    assert len(records(rushdb, "ATPROTO_RECORD")) == 20
