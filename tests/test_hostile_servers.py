"""Servers that answer with hostile bodies: nesting too deep to parse, no end, or a trickle.

A real HTTP server on loopback plays the PLC directory or the PDS; pdsmem must end each case with
a specific error, without a traceback, without filling memory and without waiting forever.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pdsmem.bridge.atproto import identity, xrpc
from pdsmem.bridge.atproto.identity import IdentityError, IdentityResolver
from pdsmem.bridge.atproto.xrpc import AnswerTooLarge, XrpcClient, XrpcError

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"


class Hostile(BaseHTTPRequestHandler):
    mode = "deep"

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        try:
            if self.mode == "deep":
                self.wfile.write(b"[" * 200_000)
            elif self.mode == "endless":
                while True:
                    self.wfile.write(b" " * 65_536)
            else:  # trickle: one byte every 0.2 s, for ever
                while True:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: as it should

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def quick_deadlines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity, "_DOCUMENT_DEADLINE", 1.0)
    monkeypatch.setattr(xrpc, "ANSWER_DEADLINE", 1.0)
    monkeypatch.setattr(xrpc, "MAX_JSON_ANSWER", 4 * 1024 * 1024)


@pytest.mark.parametrize("mode, message", [
    ("deep", "did not return a JSON DID document"),
    ("endless", "sent more than 1,048,576 bytes; stopped reading, expected a DID document"),
    ("trickle", "took more than 1 s to answer; stopped reading, expected a DID document"),
])
def test_a_hostile_plc_directory_ends_in_an_identity_error(server: str, mode: str, message: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Hostile, "mode", mode)
    with IdentityResolver(plc_url=server) as resolver, pytest.raises(IdentityError) as caught:
        resolver.resolve(DID)
    assert caught.value.message.endswith(message)


@pytest.mark.parametrize("mode, error, message", [
    ("deep", XrpcError, "answered 200 with a body that is not a JSON object"),
    ("endless", AnswerTooLarge, "sent more than 4,194,304 bytes; stopped reading"),
    ("trickle", AnswerTooLarge, "took more than 1 s to answer; stopped reading"),
])
def test_a_hostile_pds_answer_ends_in_a_specific_error(server: str, mode: str, error: type, message: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Hostile, "mode", mode)
    with XrpcClient(server) as client, pytest.raises(error) as caught:
        client.query("com.atproto.repo.describeRepo", {"repo": DID})
    assert message in caught.value.message
