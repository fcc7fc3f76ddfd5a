"""Benchmark: following a repository into RushDB (``pdsmem sync --follow``), against a baseline.

Starts a local PDS and a local RushDB server, and ``pdsmem sync DID --follow`` as a process of
its own (the real command line, as a person or a service runs it). Then:

- latency: W memory records written one at a time through the PDS (``putRecord``), each timed
  from just before the write until its mirror is readable in RushDB (polled every 10 ms); p50,
  p95 and the worst;
- burst: B memory records written as fast as the PDS takes them (``applyWrites`` of 10, so B/10
  commits), timed until RushDB holds every one: records/s sustained while following;
- baseline: a full re-sync per change (``pdsmem sync --full`` of the same repository, the way to
  stay current without the stream): one such sync is timed, and its rate is one change per sync.

    .venv/bin/python scripts/bench_follow.py [--writes 500] [--burst 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from devkit.pds import LocalPds, Repo
from devkit.repo_builder import tid
from devkit.rushdb import LocalRushDB, Project
from devkit.timing import clock

from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.rushdb.store import MemoryStore, RushDBTarget
from pdsmem.bridge.pipelines.state import State
from pdsmem.bridge.pipelines.syncer import Syncer
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows

REPO_ROOT = Path(__file__).resolve().parents[1]
SCOPE = ["--agent-id", "coder", "--profile-id", "default"]
AIM_P95 = 1.0


def rkey(i: int) -> str:
    return tid(1_780_000_000_000_000 + i * 1000)


def memory(i: int) -> dict:
    return {"$type": RECORD_NSID, "content": f"Benchmark memory {i}: the user likes item {i}.", "kind": "preference",
            "createdAt": "2026-10-01T09:00:00.000Z"}


def held(db, label: str, where: dict | None = None) -> int:
    return db.records.find({"labels": [label], "where": where or {}, "limit": 1}).total or 0


def start_follow(pds: LocalPds, project: Project, did: str, state: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "bench-salt",
           "PDSMEM_STATE_DIR": str(state), **project.env}
    process = subprocess.Popen([sys.executable, "-m", "pdsmem", "sync", did, *SCOPE, "--follow", "--json"],
                               env=env, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:  # until the first sync is done
        status = json.loads(line)["follow"]
        if status["state"] == "connected" and "first sync" in status["note"]:
            # From here on nobody reads its status lines: drain them, or a full pipe stops it.
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process
    raise SystemExit(f"the follow ended before its first sync: {process.stderr.read() if process.stderr else ''}")


def wait_for(condition, what: str, timeout: float = 600) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"FAILED: timed out waiting for {what}")
        time.sleep(0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=500, help="writes timed one at a time")
    parser.add_argument("--burst", type=int, default=1000, help="records written in the burst")
    options = parser.parse_args()
    print(f"# {platform.machine()}, {platform.system()}, Python {platform.python_version()}, "
          f"{options.writes} timed writes, a burst of {options.burst}")
    work = Path(tempfile.mkdtemp(prefix="pdsmem-bench-"))
    try:
        with LocalPds() as pds:
            with LocalRushDB() as server:
                account = pds.create_account()
                repo = Repo(pds, account)
                project = server.new_project("follow")
                db = RushDBTarget(project.api_key, url=project.url).connect()
                process = start_follow(pds, project, account.did, work / "state")
                try:
                    for i in range(5):  # warm-up, not timed
                        repo.put(RECORD_NSID, rkey(10_000_000 + i), memory(i))
                    wait_for(lambda: held(db, rows.MIRROR) == 5, "the warm-up")

                    latencies = []
                    for i in range(options.writes):
                        uri = f"at://{account.did}/{RECORD_NSID}/{rkey(i)}"
                        start = time.perf_counter()
                        repo.put(RECORD_NSID, rkey(i), memory(i))
                        wait_for(lambda: held(db, rows.MIRROR, {"uri": uri}) == 1, f"write {i}")
                        latencies.append(time.perf_counter() - start)
                    latencies.sort()
                    p50 = statistics.median(latencies)
                    p95 = latencies[min(len(latencies) - 1, round(0.95 * len(latencies)) - 1)]
                    print(f"latency, PDS write to readable in RushDB ({len(latencies)} writes, one at a time): "
                          f"p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, worst {latencies[-1] * 1000:.0f} ms")

                    before = held(db, rows.MIRROR)
                    first = options.writes + 1000

                    def burst() -> None:
                        for start in range(first, first + options.burst, 10):
                            repo.apply([{"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID,
                                         "rkey": rkey(i), "value": memory(i)} for i in range(start, start + 10)])
                        wait_for(lambda: held(db, rows.MIRROR) == before + options.burst, "the burst")

                    seconds, _ = clock(burst)
                    ours = options.burst / seconds
                    print(f"{'burst, followed (' + str(options.burst // 10) + ' commits of 10)':<52} "
                          f"{options.burst:>6} in {seconds:7.2f} s  {ours:9,.0f} records/s")
                finally:
                    process.terminate()
                    process.wait(timeout=60)
                total = held(db, rows.MIRROR)

            # Baseline: a full re-sync per change, into a RushDB server of its own (whatever the
            # follow left behind in its server, such as memory held by transactions, stays there).
            with LocalRushDB() as server:
                baseline_project = server.new_project("baseline")
                store = MemoryStore(RushDBTarget(baseline_project.api_key, url=baseline_project.url))
                with State(work / "baseline-state") as state:
                    importer = Importer(state, agent_id="coder", profile_id="default", salt="bench-salt",
                                        plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)

                    def full_sync() -> None:
                        with importer.from_pds(account.did, full=True) as batch:
                            Syncer(importer, store).sync(batch)

                    full_sync()  # the first one creates everything; the re-syncs are what is timed
                    full_seconds, _ = clock(full_sync)
                print(f"{'baseline: a full re-sync (' + str(total) + ' records) per change':<52} "
                      f"{1:>6} in {full_seconds:7.2f} s  {1 / full_seconds:9,.2f} changes/s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    verdict = "met" if p95 < AIM_P95 else "NOT met"
    print(f"follow: latency p95 {p95 * 1000:.0f} ms (aim < {AIM_P95 * 1000:.0f} ms: {verdict}); p50 {p50 * 1000:.0f} ms")
    print(f"follow: burst records/s / a full re-sync per change = {ours * full_seconds:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
