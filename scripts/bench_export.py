"""Benchmark: exporting to the local reference PDS, against baselines in the same run.

Starts a local PDS (scripts/pds, installed by scripts/setup), then for N memories (default 2,000):
- baseline: one ``createRecord`` per memory (records pre-mapped, so only the writes are timed);
- ceiling: a minimal client that only sends pre-built ``applyWrites`` batches of 200;
- pdsmem: the whole export (mapping, reading the repository, planning, applyWrites, ledger);
- pdsmem again with nothing changed (the no-op re-export);
- reading the repository back: a verified CAR (getRepo) vs ``listRecords`` pages, and the same
  CAR only downloaded (what the PDS's side of a getRepo costs), each the best of five.
Each on a fresh account. Prints rates and ratios.

    .venv/bin/python scripts/bench_export.py [--n 2000]
"""

from __future__ import annotations

import argparse
import platform
import tempfile
from pathlib import Path

import httpx

from devkit.events import fact
from devkit.pds import LocalPds
from devkit.timing import clock, line

from pdsmem.bridge.pipelines.exporter import Exporter
from pdsmem.bridge.atproto.identity import resolve
from pdsmem.bridge.atproto.repo import verify_repo
from pdsmem.bridge.signin.session import Session
from pdsmem.bridge.pipelines.sources import SourceItem
from pdsmem.bridge.pipelines.state import State
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.to_record import to_records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    n = parser.parse_args().n
    print(f"# {platform.machine()}, {platform.system()}, Python {platform.python_version()}, N={n:,}")
    events = [fact(i) for i in range(n)]
    work = Path(tempfile.mkdtemp(prefix="pdsmem-bench-"))
    with LocalPds() as pds:
        http = httpx.Client(timeout=60)

        # Baseline: one createRecord per memory.
        acct = pds.create_account()
        views, _ = to_records(events, acct.did)
        def one_by_one():
            for v in views:
                http.post(f"{pds.url}/xrpc/com.atproto.repo.createRecord", headers=acct.auth_headers, json={
                    "repo": acct.did, "collection": RECORD_NSID, "rkey": v.uri.rsplit("/", 1)[1], "record": v.value,
                }).raise_for_status()
        baseline = line("baseline: one createRecord per memory", n, clock(one_by_one)[0])

        # Ceiling: pre-built applyWrites batches, nothing else.
        acct = pds.create_account()
        views, _ = to_records(events, acct.did)
        batches = [
            {"repo": acct.did, "writes": [
                {"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID,
                 "rkey": v.uri.rsplit("/", 1)[1], "value": v.value} for v in views[i:i + 200]]}
            for i in range(0, n, 200)
        ]
        def ceiling_run():
            for body in batches:
                http.post(f"{pds.url}/xrpc/com.atproto.repo.applyWrites", headers=acct.auth_headers, json=body).raise_for_status()
        ceiling = line("ceiling: pre-built applyWrites batches of 200", n, clock(ceiling_run)[0])

        # pdsmem: the whole export, then again with nothing changed.
        acct = pds.create_account()
        session = Session.login(pds.url, acct.did, acct.password, state_dir=work / "sessions")
        items = [SourceItem(f"item {i}", e) for i, e in enumerate(events)]
        with State(work / "state") as state:
            seconds, report = clock(lambda: Exporter(session, state).run(items))
            assert report.counts["created"] == n, report.counts
            ours = line("pdsmem export (map, plan, applyWrites, ledger)", n, seconds)
            seconds, report = clock(lambda: Exporter(session, state).run(items))
            assert report.counts["unchanged"] == n and report.batches == 0
            print(f"{'pdsmem re-export, nothing changed':<52} {n:>6} in {seconds:7.2f} s  (writes: 0)")

        # Reading back: verified CAR vs listRecords pages.
        def via_car():
            key = resolve(acct.did, plc_url=pds.plc_url, pds_hint=pds.url).signing_key
            with session.stream("com.atproto.sync.getRepo", {"did": acct.did}) as chunks:
                with verify_repo(chunks, did=acct.did, signing_key=key) as repo:
                    return sum(1 for _ in repo.records(collection=RECORD_NSID))
        def via_list():
            count, cursor = 0, None
            while True:
                page = session.query("com.atproto.repo.listRecords",
                                     {"repo": acct.did, "collection": RECORD_NSID, "limit": 100, "cursor": cursor})
                count += len(page["records"])
                cursor = page.get("cursor")
                if not cursor or not page["records"]:
                    return count
        def download_only():
            with session.stream("com.atproto.sync.getRepo", {"did": acct.did}) as chunks:
                return sum(len(chunk) for chunk in chunks)
        def best(fn):  # reads are short: the best of five, so that one hiccup does not decide
            runs = [clock(fn) for _ in range(5)]
            return min(seconds for seconds, _ in runs), runs[-1][1]
        seconds, count = best(via_car)
        assert count == n
        car = line("read: getRepo CAR, verified (signature, blocks, MST)", n, seconds)
        seconds, _ = best(download_only)
        fetched = line("read: getRepo CAR, downloaded only (the PDS's part)", n, seconds)
        seconds, count = best(via_list)
        assert count == n
        listed = line("read: listRecords pages of 100 (unverified)", n, seconds)
        session.close()

    print(f"export: pdsmem / one createRecord per memory = {ours / baseline:.1f}x (aim >= 10x)")
    print(f"export: pdsmem / pre-built applyWrites ceiling = {ours / ceiling:.2f} (aim >= 0.8)")
    print(f"read:   verified CAR / listRecords = {car / listed:.2f}x (aim >= 1)")
    print(f"read:   getRepo downloaded only, nothing checked / listRecords = {fetched / listed:.2f}x "
          "(the most a verified CAR read can reach on this PDS)")


if __name__ == "__main__":
    main()
