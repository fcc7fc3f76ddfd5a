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

from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_text_for_json
from pdsmem.mapping.privacy import check_publishable
from pdsmem.mapping.from_record import _fact, from_records
from pdsmem.mapping.records import (
    EXT_KEY,
    ImportScope,
    RecordView,
    _proof,
    checked_extension,
    default_lexicons,
    recognised,
)
from pdsmem.mapping.syntax import AtUri, Did
from pdsmem.mapping.to_record import (
    _extension,
    _planned_uri,
    _publishable_texts,
    _record_value,
    in_supersession_order,
    prepare_item,
    to_records,
)

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

    stages(facts, fact_records, views, scope, n, fact_rate, back_rate, repeat)

    print(f"ids: pdsmem / baseline = {our_ids / peer_ids:.2f}x")
    print(f"fact -> record (full mapping) / baseline ids only = {fact_rate / peer_ids:.2f}x")
    print(f"fact -> record: {fact_rate:,.0f} facts/s (aim: >= 50,000/s on one core); "
          f"episode -> record: {episode_rate:,.0f}/s; record -> fact: {back_rate:,.0f}/s")


def stages(facts: list[dict], records: list, views: list[dict], scope: ImportScope, n: int,
           fact_rate: float, back_rate: float, repeat: int) -> None:
    """Where the time of each full mapping goes: each step run alone over the same N memories, in
    microseconds per memory, then what is left: the batch loop and the cost of interleaving the
    steps (a step run alone keeps its code and data warm, which the full mapping cannot)."""
    did = Did.parse(DID)
    prepared = [prepare_item(f) for f in facts]
    events = [event for event, _ in prepared]
    planned = [_planned_uri(event, did) for event in events]
    values = [view.value for view in records]
    uris = [view.uri for view in records]
    rkeys = [str(AtUri.parse(uri).rkey) for uri in uris]
    exts = [value[EXT_KEY] for value in values]
    fields = scope.fields
    imported, _ = from_records(views, scope)
    imported_events = [item.event for item in imported]
    lexicons = default_lexicons()

    def each(fn: Callable[[int], Any]) -> Callable[[], None]:
        return lambda: [fn(i) for i in range(n)]

    def lexicon_check(i: int) -> None:
        lexicons.validate_record(RECORD_NSID, values[i])
        lexicons.validate_value(EXTENSION_NSID, exts[i])

    def lexicon_import(i: int) -> None:
        lexicons.validate_record(RECORD_NSID, values[i], rkey=rkeys[i])
        checked_extension(values[i])

    def gate(i: int) -> None:
        event = events[i]
        texts = _publishable_texts(event, include_transcript=False)
        check_publishable(event, memory_id=event["factId"], publish_private=False, texts=texts)

    def build(i: int) -> None:
        _record_value(events[i], events[i]["validFrom"], {})
        _extension(events[i], include_transcript=False)

    def at_uri(i: int) -> None:
        uri = AtUri.parse(uris[i])
        assert uri.authority == scope.did and str(uri.collection) == RECORD_NSID and uri.rkey is not None

    def gc_share(run: Callable[[], Any]) -> Callable[[], float]:
        """Seconds the full mapping spends more with the garbage collector on than off (the
        median of ``repeat`` runs each way)."""
        def measure() -> float:
            seconds: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(repeat):
                for enabled in (False, True):
                    gc.collect()
                    if not enabled:
                        gc.disable()
                    start = time.perf_counter()
                    run()
                    seconds[enabled].append(time.perf_counter() - start)
                    gc.enable()
            return statistics.median(seconds[True]) - statistics.median(seconds[False])
        return measure

    checks = {
        "fact -> record": (fact_rate, gc_share(lambda: to_records(facts, DID)), [
            ("event against the contract, and its ids", each(lambda i: prepare_item(facts[i]))),
            ("record key and at-uri (time parsed, TID)", each(lambda i: _planned_uri(events[i], did))),
            ("privacy gate (five texts)", each(gate)),
            ("record value and extension built", each(build)),
            ("proof (canonical JSON, SHA-256)", each(lambda i: _proof(planned[i], events[i], values[i], exts[i]))),
            ("lexicon validation (record and extension)", each(lexicon_check)),
            ("CID (DAG-CBOR, SHA-256, base32)", each(lambda i: cid_text_for_json(values[i]))),
            ("batch order (supersession)", lambda: in_supersession_order(events)),
        ]),
        "record -> fact": (back_rate, gc_share(lambda: from_records(views, scope)), [
            ("the view: its CID checked against its value", each(lambda i: RecordView.from_json(views[i]))),
            ("the at-uri parsed and checked", each(at_uri)),
            ("lexicon validation (record, key, extension)", each(lexicon_import)),
            ("proof check (recognised)", each(lambda i: recognised(uris[i], values[i], exts[i], scope.fields))),
            ("event built", each(lambda i: _fact(values[i], exts[i], uris[i], fields, scope, True))),
            ("event against the contract", each(lambda i: contract.check_event(imported_events[i]))),
        ]),
    }
    print("# where the time goes: each step alone over the same memories, one core")
    for mapping, (rate, collector, parts) in checks.items():
        total = 1e6 / rate
        spent = 0.0
        for label, fn in parts:
            gc.collect()
            start = time.perf_counter()
            fn()
            micros = (time.perf_counter() - start) * 1e6 / n
            spent += micros
            print(f"  {mapping}: {label:<44} {micros:6.1f} us  ({micros / total:4.0%})")
        rest = total - spent
        print(f"  {mapping}: {'the rest: loop, interleaving the steps':<44} {rest:6.1f} us  "
              f"({rest / total:4.0%}) of {total:.1f} us per memory")
        micros = collector() * 1e6 / n
        print(f"  {mapping}: {'  of the whole: garbage collection (on - off)':<44} {micros:6.1f} us  "
              f"({micros / total:4.0%})")


if __name__ == "__main__":
    main()
