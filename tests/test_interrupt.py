"""Ctrl-C during ``export`` and ``sync``: a real ``pdsmem`` process gets SIGINT, says it was
interrupted and that running it again resumes, and exits 130; running it again finishes.

The export writes to the real local PDS through a loopback proxy that, once some batches have
landed, stops passing bytes (as a PDS that stopped answering): the signal then lands while the
export is certainly under way, whatever the machine's speed. The sync is interrupted
while it waits on a RushDB that accepts its connection and never answers (the signal is sent
once the connection is made, so it lands during the run whatever the machine's speed), then runs
again against the real RushDB.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from devkit.events import fact
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project

from pdsmem.bridge.signin.session import Session
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.to_record import to_records

RESUMES = "running the same command again resumes where it stopped (nothing is written twice)"


# Starts pdsmem as a terminal starts a command in the foreground: SIGINT neither ignored nor blocked.
# A test worker may have inherited SIGINT ignored (a job started in the background by a shell
# without job control ignores it, and so do its children); a process started so rightly ignores
# Ctrl-C, and the test would time out instead of testing pdsmem's answer to it.
_AS_IN_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                     "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
                     "os.execv(sys.executable, [sys.executable, '-m', 'pdsmem', *sys.argv[1:]])")


def pdsmem(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _AS_IN_A_TERMINAL, *args], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def interrupt(process: subprocess.Popen) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=300)  # generous: a busy machine is slow to start and stop


class HoldingProxy:
    """A TCP proxy on loopback to ``port``; after ``hold()`` it passes no more bytes either way
    and keeps the connections open."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.held = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def hold(self) -> None:
        self.held.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(("127.0.0.1", self.port))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.held.is_set():
                    time.sleep(0.1)
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self.listener.close()


def held(session: Session) -> set[str]:
    """The at-uris of the memory records the repository holds."""
    page, uris, cursor = None, set(), None
    while page is None or cursor:
        page = session.query("com.atproto.repo.listRecords",
                             {"repo": session.did, "collection": RECORD_NSID, "limit": 100, "cursor": cursor})
        uris |= {record["uri"] for record in page["records"]}
        cursor = page.get("cursor") if page["records"] else None
    return uris


def head_rev(session: Session) -> str:
    return session.query("com.atproto.sync.getLatestCommit", {"did": session.did})["rev"]


@pytest.mark.pds
def test_ctrl_c_during_export_says_so_exits_130_and_running_again_resumes(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: click printed "Aborted!" and exited 1, saying nothing of what was left."""
    source = tmp_path / "memories.jsonl"
    events = [fact(n) for n in range(3000)]
    source.write_text("".join(json.dumps(e) + "\n" for e in events))
    env = {"ATP_AUTH_PASSWORD": account.password, "ATP_PLC_HOST": pds.plc_url,
           "PDSMEM_STATE_DIR": str(tmp_path / "state")}
    args = ["export", "--to", account.did, "--from", str(source)]
    proxy = HoldingProxy(int(pds.url.rsplit(":", 1)[1]))
    with Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "observer") as session:
        revs = {head_rev(session)}
        process = pdsmem(args, {**env, "ATP_PDS_HOST": proxy.url})
        deadline = time.time() + 300
        while time.time() < deadline and process.poll() is None and len(revs) <= 1:
            revs.add(head_rev(session))
            time.sleep(0.05)
        proxy.hold()  # some batches landed; the next one waits for an answer that does not come
        time.sleep(1)
        assert process.poll() is None, process.communicate()
        out, err = interrupt(process)
        proxy.close()
        assert process.returncode == 130, err
        assert "Aborted!" not in err and "Traceback" not in err
        assert err.splitlines()[-1] == (
            f"Interrupted: the export stopped before finishing; what it wrote stays, and {RESUMES}")
        assert 0 < len(held(session)) < 3000  # interrupted half way
        again = pdsmem(args, {**env, "ATP_PDS_HOST": pds.url})
        out, err = again.communicate(timeout=300)
        assert again.returncode == 0, err
        expected, _ = to_records(events, account.did)
        assert held(session) == {record.uri for record in expected}


@pytest.fixture
def silent_server() -> Iterator[socket.socket]:
    """A loopback server that takes connections and never answers (its URL: ``url(listener)``)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(120)
        yield listener


def url(listener: socket.socket) -> str:
    return f"http://127.0.0.1:{listener.getsockname()[1]}"


@pytest.mark.pds
@pytest.mark.rushdb
@pytest.mark.parametrize("as_json", [False, True], ids=["human", "json"])
def test_ctrl_c_during_sync_says_so_exits_130_and_running_again_finishes(
    pds: LocalPds, account: Account, rushdb: Project, silent_server: socket.socket, tmp_path: Path, as_json: bool
) -> None:
    Repo(pds, account).create(RECORD_NSID, {"$type": RECORD_NSID, "content": "The user drinks tea.",
                                            "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference"})
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt",
           "PDSMEM_STATE_DIR": str(tmp_path / "state"), "RUSHDB_API_KEY": rushdb.api_key}
    args = ["sync", account.did, "--agent-id", "coder", "--profile-id", "default", *(["--json"] if as_json else [])]
    process = pdsmem(args, {**env, "RUSHDB_API_URL": url(silent_server)})
    connection, _ = silent_server.accept()  # the sync is under way and waits on RushDB's answer
    with connection:
        time.sleep(0.5)  # the request sent, the answer awaited
        assert process.poll() is None, process.communicate()
        out, err = interrupt(process)
    assert process.returncode == 130, err
    assert "Aborted!" not in err and "Traceback" not in err
    assert err.splitlines()[-1] == f"Interrupted: the sync stopped before finishing; what it wrote stays, and {RESUMES}"
    if as_json:  # the reader of the lines is told how the run ended, as stderr tells a person
        last = json.loads(out.splitlines()[-1])
        assert last == {"error": {"kind": "interrupted", "exitCode": 130,
                                  "message": err.splitlines()[-1].removeprefix("Interrupted: ")}}, out
    else:
        assert out == "", out
    again = pdsmem(args, {**env, "RUSHDB_API_URL": rushdb.url})
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
