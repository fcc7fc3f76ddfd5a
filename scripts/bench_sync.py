"""Benchmark: syncing from the local PDS into a local RushDB, against a baseline in the same run.

Starts a local PDS (scripts/pds) and a local RushDB server (scripts/rushdb), writes N memory
records (default 5,000) into one account's repository, then, each in a fresh RushDB project:
- baseline: one SDK ``records.upsert`` per record (MEMORY_FACT merged by ``factId``), as a
  naive adapter writes; the records are read from the PDS and mapped to events beforehand, so
  only the writes are timed, and on at most 1,000 of them (the rate is extrapolated);
- pdsmem: the whole ``pdsmem sync`` through its Python API (reading and verifying the
  repository, mapping, and writing each memory, its record's mirror and their relationship,
  in bulk), timed end to end;
- pdsmem again with nothing changed (the no-op re-sync: no writes).
A small sync and a few upserts into a project of their own warm the server up first (untimed).
Prints rates and the ratio; fails when the counts in RushDB are not N or the re-sync wrote.

    .venv/bin/python scripts/bench_sync.py [--n 5000]
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys
import tempfile
from pathlib import Path

import httpx

from devkit.events import fact
from devkit.pds import Account, LocalPds, Repo
from devkit.timing import clock, line
from devkit.rushdb import LocalRushDB, Project

from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.rushdb.store import MemoryStore, RushDBTarget
from pdsmem.bridge.pipelines.state import State
from pdsmem.bridge.pipelines.syncer import SyncReport, Syncer
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import ImportScope
from pdsmem.mapping.to_record import to_record

SCOPE = {"agent_id": "coder", "profile_id": "default", "salt": "bench-salt"}
BASELINE_MAX = 1000  # records the baseline writes; about 50 ms each
WARM_UP = 200  # records synced before anything is timed


def count(project: Project, label: str) -> int:
    return client(project).records.find({"labels": [label], "limit": 1}).total


def list_records(pds: LocalPds, did: str) -> list[dict]:
    """Every memory record of the repository, as ``listRecords`` gives them ({uri, cid, value})."""
    out, cursor = [], None
    with httpx.Client(timeout=60) as http:
        while True:
            params = {"repo": did, "collection": RECORD_NSID, "limit": 100, **({"cursor": cursor} if cursor else {})}
            page = http.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", params=params).raise_for_status().json()
            out += page["records"]
            cursor = page.get("cursor")
            if not cursor or not page["records"]:
                return out


def write_repo(pds: LocalPds, n: int, *, first: int = 0) -> Account:
    """A new account whose repository holds n memory records (facts ``first`` to ``first + n - 1``),
    written with ``applyWrites`` batches of 200."""
    account = pds.create_account()
    views = [to_record(fact(i), account.did) for i in range(first, first + n)]
    assert len({v.uri for v in views}) == n, "record keys collide"
    repo = Repo(pds, account)
    for start in range(0, n, 200):
        repo.apply([{"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID,
                     "rkey": v.uri.rsplit("/", 1)[1], "value": v.value} for v in views[start:start + 200]])
    return account


def memory_rows(pds: LocalPds, did: str, n: int) -> list[dict]:
    """The MEMORY_FACT rows of the repository's records, mapped by pdsmem's mapper (as sync maps them)."""
    mapped, failed = from_records(list_records(pds, did), ImportScope(did=did, **SCOPE))
    assert len(mapped) == n and not failed, (len(mapped), failed[:3])
    return [rows.memory_row(item.event) for item in mapped]


def client(project: Project):
    """The SDK client of a project (``rushdb.RushDB``), as pdsmem connects it."""
    return RushDBTarget(project.api_key, url=project.url).connect()


def upsert_each(db, memories: list[dict]) -> None:
    """The baseline: one SDK call per memory, merged by its id, as a naive adapter writes."""
    options = {"mergeBy": ["factId"], "mergeStrategy": "append", "suggestTypes": True, "returnResult": False}
    for row in memories:
        db.records.upsert(row, rows.FACT, options)


def sync(pds: LocalPds, did: str, state: State, store: MemoryStore) -> SyncReport:
    """What ``pdsmem sync DID`` does, without its progress display."""
    store.check()
    importer = Importer(state, **SCOPE, plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)
    with importer.from_pds(did) as batch:
        return Syncer(importer, store).sync(batch)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000)
    n = parser.parse_args().n
    print(f"# {platform.machine()}, {platform.system()}, Python {platform.python_version()}, N={n:,}")
    work = Path(tempfile.mkdtemp(prefix="pdsmem-bench-"))
    try:
        with LocalPds() as pds, LocalRushDB() as rushdb:
            # Warm-up, not timed: a small sync and a few upserts in a project of their own, so that
            # neither side pays for a cold server (the JVM's and Node's JIT, Neo4j's caches).
            warm = rushdb.new_project("warm-up")
            warm_account = write_repo(pds, WARM_UP, first=n)
            with State(work / "warm-up") as state:
                sync(pds, warm_account.did, state, MemoryStore(RushDBTarget(warm.api_key, url=warm.url)))
            upsert_each(client(warm), memory_rows(pds, warm_account.did, WARM_UP)[:50])

            account = write_repo(pds, n)

            # Baseline: one SDK upsert per record (read and mapped beforehand, not timed).
            project = rushdb.new_project("baseline")
            memories, db = memory_rows(pds, account.did, n)[:BASELINE_MAX], client(project)
            seconds, _ = clock(lambda: upsert_each(db, memories))
            if count(project, rows.FACT) != len(memories):
                print(f"FAILED: the baseline project holds {count(project, rows.FACT)} facts, "
                      f"expected {len(memories)}", file=sys.stderr)
                return 1
            label = "baseline: one SDK upsert per record"
            if len(memories) < n:
                label += f" ({len(memories):,} of {n:,})"
            baseline = line(label, len(memories), seconds)

            # pdsmem: the whole sync, then again with nothing changed.
            project = rushdb.new_project("pdsmem")
            store = MemoryStore(RushDBTarget(project.api_key, url=project.url))
            with State(work / "state") as state:
                seconds, report = clock(lambda: sync(pds, account.did, state, store))
                if report.counts["created"] != n or report.failures:
                    print(f"FAILED: the sync reported {report.counts}, {len(report.failures)} failures",
                          file=sys.stderr)
                    return 1
                ours = line("pdsmem sync (read, verify, map, write, link)", n, seconds)
                held = count(project, rows.FACT)
                if held != n:
                    print(f"FAILED: the project holds {held} MEMORY_FACT records, expected {n}", file=sys.stderr)
                    return 1
                again, report = clock(lambda: sync(pds, account.did, state, store))
                if report.read != "unchanged" or not report.wrote_nothing:
                    print(f"FAILED: the re-sync with nothing changed read {report.read!r} and wrote "
                          f"{report.written}", file=sys.stderr)
                    return 1
                print(f"{'pdsmem re-sync, nothing changed':<52} {n:>6} in {again:7.2f} s  (writes: 0)")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"sync: pdsmem / one SDK upsert per record = {ours / baseline:.1f}x (aim >= 20x)")
    print(f"sync: no-change re-sync {again:.2f} s, nothing changed, 0 writes (aim < 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
