"""Benchmark: mapping and ids, against the Python peer implementation in the same run.

Generates N facts and N episodes (default 100,000 each), then times, on one core:
- ids: pdsmem's factId/eventId vs rushdb-hermes-memory's (the baseline) on the same inputs;
- fact → record and episode → record (contract validation and ids, privacy gate, lexicon
  validation of the record and its extension, proof, CID: every check an export makes);
- record → fact (lexicon validation, extension check, proof, ids, contract validation).
Each measurement runs --repeat times (default 3); the median rate is printed, with the range, since
other work on the machine moves single runs. Prints records per second and ratios.

    .venv/bin/python scripts/bench_mapping.py [--n 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rushdb_hermes_memory import contract as peer
from devkit.events import episode, fact

from pdsmem.mapping import contract
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import ImportScope
from pdsmem.mapping.to_record import to_records

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"


def timed(label: str, n: int, fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median rate of ``repeat`` runs of ``fn`` over ``n`` items, and the last run's result."""
    rates = []
    result = None
    for _ in range(repeat):
        result = None  # the previous run's output is garbage before the next one starts
        gc.collect()
        start = time.perf_counter()
        result = fn()
        rates.append(n / (time.perf_counter() - start))
    rate = statistics.median(rates)
    spread = f"({min(rates):,.0f}-{max(rates):,.0f})" if repeat > 1 else ""
    print(f"{label:<40} {n:>8} x{repeat}  median {rate:>9,.0f} /s  {spread}")
    return rate, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, repeat = args.n, max(1, args.repeat)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    machine = platform.processor() or platform.machine()
    print(f"# {machine}, Python {platform.python_version()}, one core, N={n:,}, median of {repeat}")
    facts = [fact(i, text=f"Fact {i}: the user prefers TypeScript — ünïcödé ✓ for service {i}.") for i in range(n)]
    episodes = [episode(i) for i in range(n)]

    peer_ids, _ = timed("ids, baseline (rushdb-hermes-memory)", 2 * n, lambda: (
        [peer.fact_event_id(f) for f in facts], [peer.episode_event_id(e) for e in episodes]), repeat)
    our_ids, _ = timed("ids, pdsmem", 2 * n, lambda: (
        [contract.fact_id(f) for f in facts], [contract.event_id(e) for e in episodes]), repeat)
    assert [contract.fact_id(f) for f in facts[:1000]] == [peer.fact_event_id(f) for f in facts[:1000]]

    fact_rate, (fact_records, failed) = timed("fact -> record", n, lambda: to_records(facts, DID), repeat)
    assert not failed
    episode_rate, (_, failed) = timed("episode -> record", n, lambda: to_records(episodes, DID), repeat)
    assert not failed
    views = [view.to_json() for view in fact_records]
    scope = ImportScope(did=DID, agent_id="coder", profile_id="default", salt="salt")
    back_rate, (_, failed) = timed("record -> fact", n, lambda: from_records(views, scope), repeat)
    assert not failed

    print(f"ids: pdsmem / baseline = {our_ids / peer_ids:.2f}x")
    print(f"fact -> record (full mapping) / baseline ids only = {fact_rate / peer_ids:.2f}x")
    print(f"fact -> record: {fact_rate:,.0f} facts/s (aim: >= 100,000/s on one core); "
          f"episode -> record: {episode_rate:,.0f}/s; record -> fact: {back_rate:,.0f}/s")


if __name__ == "__main__":
    main()
