"""Benchmark: one person's sync, recall and follow against RushDB projects of growing size.

Starts a local PDS and a local RushDB server. For each N (rows of other scopes), a fresh project
is filled with N rows shaped as pdsmem writes them (other people's facts, each with its record's
mirror and their ``RECORDED_AS``; ``ATPROTO_RECORD`` rows are half of N), sent as pre-built
nested ``records.import_json`` calls of 1,000 rows: RushDB's own fastest bulk ingest, whose rate
is the baseline for pdsmem's sync rate in the same run. Then the project's ``PDSMEM_PROJECT``
row, as pdsmem makes one with a project's first scope's row, and one ``PDSMEM_SCOPE`` row per other
scope, as pdsmem writes one for each scope it syncs (their ``IN_SCOPE`` links are left out: the
timed scope never reads them; the rows make the search for the timed scope's own row read as
many rows of that label as such a project holds). Then, for one account of R memory
records (default 20), each on its own in that project:

- first sync, no-change re-sync, and a sync after one new record (the median of ``--repeat``
  accounts), with where the first sync's time goes, per kind of RushDB call. The records are as
  pdsmem exports them on another machine: each names the memory it was exported from, which
  the sync searches the project for (an agent runtime may hold it);
- the round trip on one machine: an agent's R facts of the scope in the project, exported by
  pdsmem to a new account, then the first sync back (into the agent's rows, read by the ids the
  export ledger keeps), and a sync after the agent learns one more fact and it is exported;
- recall (``pdsmem recall`` by words: no embedder), the median of three;
- follow (``pdsmem sync --follow`` as its own process): W records written one at a time through
  the PDS, each timed until its mirror is readable in RushDB (p50, p95);
- a larger sync (``--big`` records) into the largest project: its rows/s against the ingest rate.

Prints each time, and its ratio to N = 0 (aim: 1.3x at most; follow p95 under 1 s).

    .venv/bin/python scripts/bench_scale.py [--sizes 0,100000] [--records 20] [--big 5000]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_follow import memory, rkey, start_follow, wait_for
from bench_sync import write_repo
from devkit.events import fact
from devkit.pds import LocalPds, Repo
from devkit.rushdb import LocalRushDB, Project
from devkit.timing import clock

from pdsmem.api import FromRushDB, Scope, export, sign_in
from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.pipelines.state import State
from pdsmem.bridge.pipelines.syncer import SyncReport, Syncer
from pdsmem.bridge.rushdb.memories import recall
from pdsmem.bridge.rushdb.store import MemoryStore, RushDBTarget
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.contract_ids import fact_id
from pdsmem.mapping.records import ImportScope
from pdsmem.mapping.to_record import to_record

SCOPE = {"agent_id": "coder", "profile_id": "default", "salt": "bench-salt"}
PER_ACCOUNT = 20  # memories of each other person in the fill
FILL_CALL = 500  # memories per import call (with their mirrors: 1,000 rows, the most the server returns)
AIM_RATIO, AIM_P95 = 1.3, 1.0
TIMED = ("first sync", "no-change re-sync", "sync after one new record", "recall", "round trip: first sync",
         "round trip: sync after one new fact")


class TimedStore(MemoryStore):
    """A MemoryStore that adds up the time of each kind of RushDB call."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.spent: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()

    def call(self, what, fn, *args, **kwargs):
        kind = re.sub(r"\d+", "N", what)
        start = time.perf_counter()
        try:
            return super().call(what, fn, *args, **kwargs)
        finally:
            self.spent[kind] += time.perf_counter() - start
            self.calls[kind] += 1

    def reset(self) -> None:
        self.spent.clear()
        self.calls.clear()


def fill_payload(n: int) -> list[list[dict]]:
    """N rows of other scopes as import calls: facts, each with its record's mirror nested."""
    did0 = "did:plc:" + "a" * 24
    event = to_record(fact(0), did0)
    scope0 = ImportScope(did=did0, **SCOPE).fields
    from pdsmem.mapping.from_record import from_records
    (item,), _ = from_records([event.to_json()], ImportScope(did=did0, **SCOPE))
    base_memory, base_view = rows.memory_row(item.event), event
    calls, batch = [], []
    for i in range(n // 2):
        person = i // PER_ACCOUNT
        did = f"did:plc:other{person:019d}"
        hashed = hashlib.sha256(f"{did}|salt".encode()).hexdigest()
        memory_id = hashlib.sha256(f"fill-{i}".encode()).hexdigest()
        uri = f"at://{did}/{RECORD_NSID}/{rkey(i)}"
        scope = {**scope0, "participantScopeHash": hashed}
        row = {**base_memory, "factId": memory_id, "participantScopeHash": hashed,
               "text": f"Person {person} likes item {i}.", "subjectKey": f"user.item-{i}",
               "sourceEventId": f"turn-{i}"}
        mirror = rows.mirror_row(base_view, rev="3l000000000aa", synced_at="2026-10-01T09:00:00.000Z", scope=scope,
                                 memory=row)
        mirror.update({"mirrorKey": rows.mirror_key(uri, scope), "uri": uri, "did": did, "rkey": rkey(i),
                       "cid": "bafyrei" + memory_id[:52]})
        batch.append({**row, rows.MIRROR: mirror})
        if len(batch) == FILL_CALL:
            calls.append(batch)
            batch = []
    if batch:
        calls.append(batch)
    return calls


def fill(project: Project, n: int) -> float:
    """Fill ``project`` with N rows of other scopes; returns the seconds the ingest took."""
    if n == 0:
        return 0.0
    calls = fill_payload(n)
    db = RushDBTarget(project.api_key, url=project.url).connect()
    options = {"suggestTypes": True, "returnResult": False, "relationshipType": rows.RECORDED_AS}
    start = time.perf_counter()
    for payload in calls:
        db.records.import_json(payload, rows.FACT, options)
    seconds = time.perf_counter() - start
    scopes = {row[rows.MIRROR]["participantScopeHash"]: rows.scope_row(row[rows.MIRROR]) for call in calls for row in call}
    db.records.import_json([rows.project_row("2026-10-01T09:00:00+00:00")], rows.PROJECT, {"suggestTypes": True})
    db.records.import_json(list(scopes.values()), rows.SCOPE, {"suggestTypes": True, "returnResult": False})
    return seconds


def sync(pds: LocalPds, did: str, state: State, store: MemoryStore) -> SyncReport:
    store.check()
    importer = Importer(state, **SCOPE, plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)
    with importer.from_pds(did) as batch:
        return Syncer(importer, store).sync(batch)


def one_account(pds: LocalPds, project: Project, work: Path, records: int, tag: str) -> dict:
    """First sync, no-change re-sync, one new record; and where the first sync's time went."""
    account = write_repo(pds, records)
    store = TimedStore(RushDBTarget(project.api_key, url=project.url))
    out = {}
    with State(work / f"state-{tag}") as state:
        out["first sync"], report = clock(lambda: sync(pds, account.did, state, store))
        assert report.counts["created"] == records and not report.failures, report.counts
        out["spent"], out["calls"] = dict(store.spent), dict(store.calls)
        out["no-change re-sync"], report = clock(lambda: sync(pds, account.did, state, store))
        assert report.wrote_nothing, report.written
        repo = Repo(pds, account)
        view = to_record(fact(10_000 + records), account.did)
        repo.put(RECORD_NSID, view.uri.rsplit("/", 1)[1], view.value)
        store.reset()
        out["sync after one new record"], report = clock(lambda: sync(pds, account.did, state, store))
        assert report.counts["created"] == 1, report.counts
        out["spent one"], out["calls one"] = dict(store.spent), dict(store.calls)
        scope = Importer(state, **SCOPE).scope_for(account.did).fields
        times = []
        for _ in range(3):
            seconds, found = clock(lambda: recall(store, scope, "TypeScript service", embedder=None))
            times.append(seconds)
        assert found.hits, "recall found nothing"
        out["recall"] = statistics.median(times)
    return out


def round_trip(pds: LocalPds, project: Project, work: Path, records: int, tag: str) -> dict:
    """An agent's facts of the scope, exported to a new account, then synced back: the first
    sync, and the sync after one more fact is learned and exported (timed: the syncs only)."""
    account = pds.create_account()
    scope = ImportScope(did=account.did, **SCOPE).fields
    db = RushDBTarget(project.api_key, url=project.url).connect()

    def agent_writes(numbers: range) -> None:  # as an agent runtime writes its facts
        events = [{**fact(n), **scope} for n in numbers]
        db.records.import_json([{**event, "factId": fact_id(event)} for event in events], rows.FACT,
                               {"suggestTypes": True, "returnResult": False})

    def exported() -> None:
        session = sign_in(account.did, account.password, pds_url=pds.url, plc_url=pds.plc_url, state_dir=work / tag)
        source = FromRushDB(store, Scope("coder", "default", salt=SCOPE["salt"]))
        assert not export(session, source, state_dir=work / tag).problems

    store = TimedStore(RushDBTarget(project.api_key, url=project.url))
    out = {}
    agent_writes(range(records))
    exported()
    store.reset()
    with State(work / tag) as state:
        out["round trip: first sync"], report = clock(lambda: sync(pds, account.did, state, store))
        assert (report.counts["created"], report.counts["merged"]) == (0, records), report.counts
        out["spent round trip"], out["calls round trip"] = dict(store.spent), dict(store.calls)
        agent_writes(range(records, records + 1))
        exported()
        out["round trip: sync after one new fact"], report = clock(lambda: sync(pds, account.did, state, store))
        assert report.counts["merged"] == 1, report.counts
    return out


def follow_latency(pds: LocalPds, project: Project, work: Path, writes: int, tag: str) -> list[float]:
    account = pds.create_account()
    repo = Repo(pds, account)
    db = RushDBTarget(project.api_key, url=project.url).connect()
    process = start_follow(pds, project, account.did, work / f"follow-{tag}")
    # Each write is looked for among the rows of the scope's row, which the server reads from its
    # id: a search of the project would scan it on every poll (a few hundred ms at 100,000 rows,
    # every 10 ms), timing the probe and slowing the server the follower writes to.
    scope = ImportScope(did=account.did, **SCOPE).fields
    [anchor] = db.records.find({"labels": [rows.SCOPE], "where": rows.scope_where(scope)}).data
    latencies = []
    try:
        for i in range(writes + 2):
            uri = f"at://{account.did}/{RECORD_NSID}/{rkey(i)}"
            start = time.perf_counter()
            repo.put(RECORD_NSID, rkey(i), memory(i))
            wait_for(lambda: in_scope(db, anchor.id, uri), f"write {i}")
            if i >= 2:  # the first two warm the follower up
                latencies.append(time.perf_counter() - start)
    finally:
        process.terminate()
        process.wait(timeout=60)
    return sorted(latencies)


def in_scope(db, anchor: str, uri: str) -> bool:
    """Whether the mirror of ``uri`` is among the rows linked to the scope's row ``anchor``."""
    found = db.records.find({"labels": [rows.MIRROR], "where": {"uri": uri}, "limit": 1}, record_id=anchor)
    return bool(found.data)


def p95(values: list[float]) -> float:
    return values[min(len(values) - 1, round(0.95 * len(values)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0,100000", help="rows of other scopes, comma-separated")
    parser.add_argument("--records", type=int, default=20, help="memory records of the account timed")
    parser.add_argument("--repeat", type=int, default=3, help="accounts timed per size (the median)")
    parser.add_argument("--follow", type=int, default=20, help="writes timed while following (0: none)")
    parser.add_argument("--big", type=int, default=5000, help="records of the large sync (0: none)")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    print(f"# {platform.machine()}, {platform.system()}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; sizes {sizes}, {options.records} records")
    work = Path(tempfile.mkdtemp(prefix="pdsmem-bench-"))
    results: dict[int, dict] = {}
    ingest_rates = []
    try:
        with LocalPds() as pds, LocalRushDB() as server:
            warm = server.new_project("warm-up")  # not timed: the JIT and caches of both servers
            one_account(pds, warm, work, 5, "warm")
            for n in sizes:
                project = server.new_project(f"n{n}")
                seconds = fill(project, n)
                if n:
                    rate = n / seconds
                    ingest_rates.append(rate)
                    print(f"N={n:,}: baseline, RushDB's own bulk ingest (import_json, pre-built, 1,000 rows a call) "
                          f"{n:,} rows in {seconds:.1f} s, {rate:,.0f} rows/s")
                runs = [{**one_account(pds, project, work, options.records, f"{n}-{k}"),
                         **round_trip(pds, project, work, options.records, f"{n}-{k}-trip")} for k in range(options.repeat)]
                result = {name: statistics.median(run[name] for run in runs) for name in TIMED}
                spent = runs[len(runs) // 2]
                for part in ("spent", "calls", "spent one", "calls one", "spent round trip", "calls round trip"):
                    result[part] = spent[part]
                if options.follow:
                    latencies = follow_latency(pds, project, work, options.follow, str(n))
                    result["follow p50"], result["follow p95"] = statistics.median(latencies), p95(latencies)
                results[n] = result
                print(f"N={n:,}: " + ", ".join(f"{name} {value:.2f} s" for name, value in result.items()
                                                if isinstance(value, float)))
                where = sorted(result["spent"].items(), key=lambda item: -item[1])
                print(f"N={n:,}: the first sync's RushDB calls: " + "; ".join(
                    f"{kind} {seconds:.2f} s ({result['calls'][kind]}x)" for kind, seconds in where))
                print(f"N={n:,}: the first sync outside RushDB calls (reading the PDS, verifying, mapping): "
                      f"{result['first sync'] - sum(result['spent'].values()):.2f} s")
                for name, part in (("the sync after one new record", "one"), ("the round trip's first sync", "round trip")):
                    where = sorted(result[f"spent {part}"].items(), key=lambda item: -item[1])
                    print(f"N={n:,}: {name}, its RushDB calls: " + "; ".join(
                        f"{kind} {seconds:.2f} s ({result[f'calls {part}'][kind]}x)" for kind, seconds in where),
                        flush=True)
            if options.big:
                n = sizes[-1]
                account = write_repo(pds, options.big, first=100_000)  # into the largest project, filled already
                store = TimedStore(RushDBTarget(project.api_key, url=project.url))
                with State(work / "big") as state:
                    seconds, report = clock(lambda: sync(pds, account.did, state, store))
                assert report.counts["created"] == options.big, report.counts
                rate = 2 * options.big / seconds
                print(f"N={n:,}: pdsmem sync of {options.big:,} records ({2 * options.big:,} rows: memories and "
                      f"mirrors) in {seconds:.1f} s, {rate:,.0f} rows/s")
                if ingest_rates:
                    print(f"scale: sync rate / RushDB's own bulk ingest = {rate / statistics.median(ingest_rates):.2f}x "
                          f"(pdsmem reads and verifies the repository too)")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    base = results.get(0)
    if base is None:
        return 0
    for n, result in results.items():
        if n == 0:
            continue
        for name in TIMED:
            ratio = result[name] / base[name]
            verdict = "" if "after one new" in name else (
                f" (aim <= {AIM_RATIO}x: {'met' if ratio <= AIM_RATIO else 'NOT met'})")
            print(f"scale: {name}, N={n:,} / N=0 = {ratio:.2f}x ({result[name]:.2f} s / {base[name]:.2f} s){verdict}")
        if "follow p95" in result:
            verdict = "met" if result["follow p95"] < AIM_P95 else "NOT met"
            print(f"scale: follow p95 at N={n:,} {result['follow p95'] * 1000:.0f} ms (aim < {AIM_P95 * 1000:.0f} ms: "
                  f"{verdict}); N=0 {base['follow p95'] * 1000:.0f} ms")
    print(f"scale: first sync of {options.records} records at N=0 {base['first sync']:.2f} s (aim < 2 s on a quiet "
          f"machine; load now {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
