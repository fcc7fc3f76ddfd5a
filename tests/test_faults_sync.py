"""Faults in the middle of ``pdsmem sync``, against the real PDS and real RushDB servers: pdsmem
killed with SIGKILL at several points, the RushDB core stopped and started again while a sync
runs, the whole RushDB server killed. After each, a re-run must leave RushDB exactly as a fresh
full sync of the same repository leaves a project of its own: nothing lost, nothing duplicated,
every relationship once.

The repository holds three chunks of memory records (sync writes 500 per transaction), with
supersession links inside and across chunks, so a kill can land between chunks, inside one, or
before the relationships are linked.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from devkit.pds import Account, LocalPds, Repo
from devkit.repo_builder import tid
from devkit.rushdb import LocalRushDB, Project
from support.rushdb_view import MEMORY_LABELS, client, records, snapshot

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

RECORDS = 1200  # three chunks
SCOPE = ["--agent-id", "coder", "--profile-id", "default"]
REPO_ROOT = Path(__file__).resolve().parents[1]


def rkey(i: int) -> str:
    return tid(1_760_000_000_000_000 + i * 1000)


def memory(did: str, i: int) -> dict:
    value = {"$type": RECORD_NSID, "content": f"Memory number {i}: the user likes item {i}.", "kind": "preference",
             "createdAt": "2026-08-18T09:00:00.000Z"}
    if i % 10 == 9:  # supersedes one earlier record, 7 back (sometimes in the chunk before)
        value["supersedes"] = [f"at://{did}/{RECORD_NSID}/{rkey(i - 7)}"]
    return value


@pytest.fixture
def filled(pds: LocalPds, account: Account) -> Account:
    repo = Repo(pds, account)
    for start in range(0, RECORDS, 200):
        repo.apply([{"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID,
                     "rkey": rkey(i), "value": memory(account.did, i)} for i in range(start, start + 200)])
    return account


def environment(pds: LocalPds, project: Project, state: Path) -> dict[str, str]:
    return {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "fault-salt",
            "PDSMEM_STATE_DIR": str(state), **project.env}


def sync_here(pds: LocalPds, project: Project, account: Account, state: Path) -> dict:
    """``pdsmem sync --json`` in this process; its summary."""
    result = CliRunner().invoke(cli, ["sync", account.did, *SCOPE, "--json"],
                                env=environment(pds, project, state), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.splitlines()[-1])["summary"]


def start_sync(pds: LocalPds, project: Project, account: Account, state: Path) -> subprocess.Popen[str]:
    """``pdsmem sync`` as a process of its own, as a person or cron runs it."""
    env = {**os.environ, **environment(pds, project, state)}
    return subprocess.Popen([sys.executable, "-m", "pdsmem", "sync", account.did, *SCOPE], env=env, cwd=REPO_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def count(project: Project, label: str) -> int:
    return client(project).records.find({"labels": [label], "limit": 1}).total or 0


def wait_for(condition, process: subprocess.Popen[str], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"sync ended (exit {process.returncode}) before {what}:\n{out}\n{err}")
        time.sleep(0.02)
    process.kill()
    pytest.fail(f"timed out waiting for {what}")


def links(project: Project) -> int:
    return client(project).relationships.find({"where": {}}, pagination={"limit": 1}).total or 0


def assert_same_as_fresh(project: Project, reference: dict) -> None:
    held = snapshot(project)
    for label in MEMORY_LABELS:  # one record per key: nothing written twice
        assert len(records(project, label)) == len(held[label]), label
    assert len(records(project, "PDSMEM_SCOPE")) == len(held["scopes"]) == 1  # one row for the scope
    assert held == reference


@pytest.fixture
def reference(pds: LocalPds, filled: Account, rushdb_server: LocalRushDB, tmp_path: Path) -> dict:
    """What a fresh full sync of the repository leaves in a project of its own."""
    project = rushdb_server.new_project("reference")
    summary = sync_here(pds, project, filled, tmp_path / "reference-state")
    assert summary["created"] == RECORDS
    held = snapshot(project)
    assert len(held["MEMORY_FACT"]) == RECORDS and len(held["ATPROTO_RECORD"]) == RECORDS
    assert sum(1 for kind, *_ in held["relationships"] if kind == "SUPERSEDES") == RECORDS // 10
    assert sum(1 for row in held["MEMORY_FACT"].values() if row["active"] is False) == RECORDS // 10
    return held


# The points a kill lands at: (what has happened in RushDB, a check of the project).
KILL_POINTS = {
    "before any write": lambda project: True,
    "after the first chunk": lambda project: count(project, "ATPROTO_RECORD") >= 500,
    "inside the last chunk": lambda project: count(project, "ATPROTO_RECORD") >= 1000,
    # RECORDED_AS and the two IN_SCOPE of every record are in (with the chunks); SUPERSEDES next
    "while linking": lambda project: links(project) >= 3 * RECORDS,
}


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_sync_killed_at_any_point_is_finished_by_the_next_run(
    pds: LocalPds, filled: Account, rushdb_server: LocalRushDB, reference: dict, tmp_path: Path, point: str
) -> None:
    project = rushdb_server.new_project(point)
    state = tmp_path / "state"
    process = start_sync(pds, project, filled, state)
    wait_for(lambda: KILL_POINTS[point](project), process, point)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = count(project, "MEMORY_FACT")

    again = sync_here(pds, project, filled, state)
    assert again["read"] != "unchanged"  # the killed run's records are not taken as done
    # The counts are what RushDB holds: the rows the killed run wrote are unchanged, not updated.
    assert (again["created"], again["merged"], again["updated"], again["unchanged"]) == (RECORDS - before, 0, 0, before)
    assert_same_as_fresh(project, reference)
    assert sync_here(pds, project, filled, state)["written"] == {"memories": 0, "mirrors": 0, "deactivated": 0}


def test_records_changed_after_a_killed_sync_end_as_a_fresh_sync_of_the_new_repository(
    pds: LocalPds, filled: Account, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    project = rushdb_server.new_project("changed")
    state = tmp_path / "state"
    process = start_sync(pds, project, filled, state)
    wait_for(lambda: count(project, "ATPROTO_RECORD") >= 500, process, "the first chunk")
    process.send_signal(signal.SIGKILL)
    process.wait()
    repo = Repo(pds, filled)
    repo.delete(RECORD_NSID, rkey(3))  # written by the killed run
    repo.delete(RECORD_NSID, rkey(1100))  # not yet written by it
    edited = memory(filled.did, 4) | {"content": "The user now likes something else."}
    repo.put(RECORD_NSID, rkey(4), edited)

    sync_here(pds, project, filled, state)

    fresh = rushdb_server.new_project("fresh")
    sync_here(pds, fresh, filled, tmp_path / "fresh-state")
    held, expected = snapshot(project), snapshot(fresh)
    # The fresh sync never saw the two deleted records or the fact the edit replaced; the resumed
    # one keeps them, deactivated, with their mirrors marked deleted (nothing is hard-deleted).
    kept = {key: row for key, row in held["MEMORY_FACT"].items() if key not in expected["MEMORY_FACT"]}
    assert len(kept) == 2 and all(row["active"] is False for row in kept.values())
    gone = [row for row in held["ATPROTO_RECORD"].values() if row["deleted"]]
    assert sorted(row["rkey"] for row in gone) == [rkey(3)]  # 1100's record was never mirrored
    for label in ("MEMORY_FACT", "EPISODE"):
        live = {key: row for key, row in held[label].items() if row.get("active") is not False}
        assert live == {key: row for key, row in expected[label].items() if row.get("active") is not False}
    live_mirrors = {key: row for key, row in held["ATPROTO_RECORD"].items() if not row["deleted"]}
    # The edited record's mirror remembers the fact it made before (retiredIds): a fresh sync never saw it.
    assert live_mirrors[next(k for k, m in live_mirrors.items() if m["rkey"] == rkey(4))]["retiredIds"]
    assert ({key: {**row, "retiredIds": []} for key, row in live_mirrors.items()}
            == {key: {**row, "retiredIds": []} for key, row in expected["ATPROTO_RECORD"].items()})


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LocalRushDB]:
    """A RushDB server of this test's own, to stop and kill."""
    with LocalRushDB(data_dir=tmp_path / "rushdb") as server:
        yield server


def test_the_rushdb_core_stopped_and_started_mid_sync_is_ridden_out(
    pds: LocalPds, filled: Account, own_server: LocalRushDB, reference: dict, tmp_path: Path
) -> None:
    project = own_server.new_project()
    process = start_sync(pds, project, filled, tmp_path / "state")
    wait_for(lambda: count(project, "ATPROTO_RECORD") >= 500, process, "the first chunk")
    own_server.stop_core()
    time.sleep(1)
    own_server.start_core()
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "Retrying: cannot reach RushDB" in err and "next try in" in err  # each retry is shown
    assert_same_as_fresh(project, reference)


def test_a_rushdb_server_killed_mid_sync_fails_the_run_and_the_next_run_finishes(
    pds: LocalPds, filled: Account, own_server: LocalRushDB, reference: dict, tmp_path: Path
) -> None:
    project = own_server.new_project()
    state = tmp_path / "state"
    process = start_sync(pds, project, filled, state)
    wait_for(lambda: count(project, "ATPROTO_RECORD") >= 500, process, "the first chunk")
    own_server.kill()
    out, err = process.communicate(timeout=300)
    assert process.returncode == 1
    assert err.strip().splitlines()[-1].startswith(f"Error: cannot reach RushDB at {project.url}")
    assert "Traceback" not in err

    own_server.start()
    sync_here(pds, project, filled, state)
    assert_same_as_fresh(project, reference)


def test_a_second_sync_into_the_same_scope_and_project_waits_its_turn(
    pds: LocalPds, filled: Account, rushdb_server: LocalRushDB, reference: dict, tmp_path: Path
) -> None:
    project = rushdb_server.new_project("two at once")
    state = tmp_path / "state"
    process = start_sync(pds, project, filled, state)
    wait_for(lambda: count(project, "ATPROTO_RECORD") >= 1, process, "the first write")
    # The same project by another name: the lock is the scope's, whatever the URL or key.
    other_name = {**environment(pds, project, state), "RUSHDB_API_URL": project.url.replace("127.0.0.1", "localhost")}
    second = CliRunner().invoke(cli, ["sync", filled.did, *SCOPE], env=other_name)
    assert second.exit_code == 1
    assert "another pdsmem sync into this scope is already running (pid" in second.stderr
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert_same_as_fresh(project, reference)
