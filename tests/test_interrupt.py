"""Ctrl-C during ``export`` and ``sync``: a real ``pdsmem`` process gets SIGINT, says it was
interrupted and that running it again resumes, and exits 130; running it again finishes.

The export is interrupted between its writes to the real local PDS. The sync is interrupted
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
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from devkit.events import fact
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project

from pdsmem.bridge.session import Session
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.to_record import to_records

RESUMES = "running the same command again resumes where it stopped (nothing is written twice)"


def pdsmem(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pdsmem", *args], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def interrupt(process: subprocess.Popen) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    return process.communicate(timeout=60)


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
    env = {"ATP_AUTH_PASSWORD": account.password, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url,
           "PDSMEM_STATE_DIR": str(tmp_path / "state")}
    args = ["export", "--to", account.did, "--from", str(source)]
    with Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "observer") as session:
        revs = {head_rev(session)}
        process = pdsmem(args, env)
        deadline = time.time() + 120
        while time.time() < deadline and process.poll() is None and len(revs) <= 2:
            revs.add(head_rev(session))
            time.sleep(0.005)
        assert process.poll() is None, "the export finished before it could be interrupted"
        out, err = interrupt(process)
        assert process.returncode == 130, err
        assert "Aborted!" not in err and "Traceback" not in err
        assert err.splitlines()[-1] == (
            f"Interrupted: the export stopped before finishing; what it wrote stays, and {RESUMES}")
        again = pdsmem(args, env)
        out, err = again.communicate(timeout=300)
        assert again.returncode == 0, err
        expected, _ = to_records(events, account.did)
        page, held, cursor = None, set(), None
        while page is None or cursor:
            page = session.query("com.atproto.repo.listRecords",
                                 {"repo": account.did, "collection": RECORD_NSID, "limit": 100, "cursor": cursor})
            held |= {record["uri"] for record in page["records"]}
            cursor = page.get("cursor") if page["records"] else None
        assert held == {record.uri for record in expected}


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
def test_ctrl_c_during_sync_says_so_exits_130_and_running_again_finishes(
    pds: LocalPds, account: Account, rushdb: Project, silent_server: socket.socket, tmp_path: Path
) -> None:
    Repo(pds, account).create(RECORD_NSID, {"$type": RECORD_NSID, "content": "The user drinks tea.",
                                            "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference"})
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt",
           "PDSMEM_STATE_DIR": str(tmp_path / "state"), "RUSHDB_API_KEY": rushdb.api_key}
    args = ["sync", account.did, "--agent-id", "coder", "--profile-id", "default"]
    process = pdsmem(args, {**env, "RUSHDB_API_URL": url(silent_server)})
    connection, _ = silent_server.accept()  # the sync is under way and waits on RushDB's answer
    with connection:
        time.sleep(0.5)  # the request sent, the answer awaited
        assert process.poll() is None, process.communicate()
        out, err = interrupt(process)
    assert process.returncode == 130, err
    assert "Aborted!" not in err and "Traceback" not in err
    assert err.splitlines()[-1] == f"Interrupted: the sync stopped before finishing; what it wrote stays, and {RESUMES}"
    again = pdsmem(args, {**env, "RUSHDB_API_URL": rushdb.url})
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
