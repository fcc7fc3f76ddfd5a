"""Benchmark: mapping and ids, against the Python peer implementation in the same run.

Generates N facts and N episodes (default 100,000 each), then times, on one core:
- ids: pdsmem's factId/eventId vs rushdb-hermes-memory's (the baseline) on the same inputs;
- fact → record and episode → record (ids, privacy gate, lexicon validation, CID included);
- record → fact (lexicon validation, extension check, ids, contract validation included).
Prints records per second and ratios.

    .venv/bin/python scripts/bench_mapping.py [--n 100000]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rushdb_hermes_memory import contract as peer  # noqa: E402
from support.events import episode, fact  # noqa: E402

from pdsmem.mapping import contract  # noqa: E402
from pdsmem.mapping.from_record import from_records  # noqa: E402
from pdsmem.mapping.records import ImportScope  # noqa: E402
from pdsmem.mapping.to_record import to_records  # noqa: E402

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"


def timed(label: str, n: int, fn) -> float:
    gc.collect()
    start = time.perf_counter()
    fn()
    seconds = time.perf_counter() - start
    rate = n / seconds
    print(f"{label:<44} {n:>8} in {seconds:7.2f} s  {rate:>10,.0f} /s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    n = parser.parse_args().n
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, one core, N={n:,}")
    facts = [fact(i, text=f"Fact {i}: the user prefers TypeScript — ünïcödé ✓ for service {i}.") for i in range(n)]
    episodes = [episode(i) for i in range(n)]

    peer_ids = timed("ids, baseline (rushdb-hermes-memory)", 2 * n, lambda: (
        [peer.fact_event_id(f) for f in facts], [peer.episode_event_id(e) for e in episodes]))
    our_ids = timed("ids, pdsmem", 2 * n, lambda: (
        [contract.fact_id(f) for f in facts], [contract.event_id(e) for e in episodes]))
    assert [contract.fact_id(f) for f in facts[:1000]] == [peer.fact_event_id(f) for f in facts[:1000]]

    out: dict[str, list] = {}
    fact_rate = timed("fact -> record", n, lambda: out.update(facts=to_records(facts, DID)))
    timed("episode -> record", n, lambda: out.update(episodes=to_records(episodes, DID)))
    assert not out["facts"][1] and not out["episodes"][1]
    views = [v.to_json() for v in out["facts"][0]]
    scope = ImportScope(did=DID, agent_id="coder", profile_id="default", salt="salt")
    timed("record -> fact", n, lambda: out.update(back=from_records(views, scope)))
    assert not out["back"][1]

    print(f"ids: pdsmem / baseline = {our_ids / peer_ids:.2f}x")
    print(f"fact -> record (full mapping) / baseline ids only = {fact_rate / peer_ids:.2f}x")
    print(f"fact -> record: {fact_rate:,.0f} facts/s (aim: >= 100,000/s on one core)")


if __name__ == "__main__":
    main()
