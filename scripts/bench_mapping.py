"""Benchmark: mapping and ids, against the Python peer implementation in the same run.

Generates N facts and N episodes (default 100,000 each), then times, on one core:
- ids: pdsmem's factId/eventId vs rushdb-hermes-memory's (the baseline) on the same inputs;
- fact → record and episode → record (contract validation and ids, privacy gate, lexicon
  validation of the record and its extension, proof, CID: every check an export makes);
- record → fact (lexicon validation, extension check, proof, ids, contract validation);
- the privacy gate on hostile texts of 40,000 characters (runs of blank lines, of Chinese, of URL-scheme or
  token characters, invisible characters) against ordinary prose of the same length: a gate
  whose time grew with the square of a text's length would show here.
Each measurement runs --repeat times (default 3); the median rate is printed, with the range, since
other work on the machine moves single runs. Prints records per second and ratios, then where
each full mapping's time goes: every step timed where it runs in the full mapping (a copy of its
loop with timers, checked to give the same output) and alone over the same memories.

    .venv/bin/python scripts/bench_mapping.py [--n 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from rushdb_hermes_memory import contract as peer
from devkit.events import episode, fact

from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_text_for_json
from pdsmem.mapping.privacy import check_publishable, sensitive_reason
from pdsmem.mapping.from_record import _episode, _fact, from_records, resolve_supersession
from pdsmem.mapping.records import (
    EXT_KEY,
    ImportScope,
    Imported,
    RecordView,
    _check_datetime,
    _proof,
    checked_extension,
    default_lexicons,
    memory_id,
    recognised,
    record_key,
)
from pdsmem.mapping.syntax import AtUri, Did
from pdsmem.mapping.to_record import (
    _extension,
    _planned_uri,
    _record_uri,
    _record_value,
    _validate,
    in_supersession_order,
    prepare_item,
    publishable_texts,
    to_records,
)

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
AIM = 50_000  # the aim: memories per second on one core, in each direction


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
    hostile_gate(repeat)

    print(f"ids: pdsmem / baseline = {our_ids / peer_ids:.2f}x")
    print(f"fact -> record (full mapping) / baseline ids only = {fact_rate / peer_ids:.2f}x")
    print(f"fact -> record: {fact_rate:,.0f} facts/s (aim: >= {AIM:,}/s on one core); "
          f"episode -> record: {episode_rate:,.0f}/s; record -> fact: {back_rate:,.0f}/s")


_FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}
HOSTILE_TEXTS = {  # 40,000 characters each, that reach a detector's pattern without matching it
    "blank lines": "\n" * 40_000,
    "blank lines behind zero-width spaces": "\u200b\n" * 20_000,
    "a URL scheme run, full width": ("a." * 19_998 + "a://x").translate(_FULL_WIDTH)[:40_000],
    "a token run of 'eyJ-', full width": ("eyJ-" * 10_000).translate(_FULL_WIDTH),
    "'password ' and spaces": ("password " + " " * 91) * 400,
    "'exit code' and spaces": ("exit code" + " " * 991) * 40,
    "'パスワードは' (a password is), no value": "パスワードは" * 6_666 + "パスワー",
    # a run of a script written without spaces: a pattern that starts inside it scans it to its end
    "a run of Chinese, no space": "密保" * 20_000,
    # a lock's line of numbers that a word in the line says are no code, each number looked at
    "'PIN on the map' and numbers, a sentence each": ("PIN on the map. " + "Room 1234. " * 4_000)[:40_000],
    "'NHS' and groups of digits": ("NHS 1 2 3 " * 4_000)[:40_000],
    # a lock's line of digits spelled out, three at a time: each run read, none long enough for a code
    "'PIN' and digits spelled out, three at a time": ("PIN " + "seven seven seven, x " * 2_000)[:40_000],
    "'Passwords:' and a list": ("Passwords: " + "a b, " * 8_000)[:40_000],
    "'пароль' (password), no value": ("пароль " * 6_000)[:40_000],
    # one line of talk about a password: each token looked back over all the line before it
    "one line of Estonian about a password": ("Parool on salvestatud paroolihaldurisse, mitte siin. " * 800)[:40_000],
    "'parool on' and random-case words": ("parool " + "for tDYriPTHeV parool on " * 1_700)[:40_000],
    # the word for a password again and again: each was searched for an example over the whole line
    "'password is \"', again and again": ('password is " ' * 3_000)[:40_000],
    # one long word after the start of a word for a password, or of a lock's: each start scanned it
    "'hasl' and one long word": "hasl" + "a" * 39_996,
    "'adgangskode' and one long word": "adgangskode" + "a" * 39_989,
    # a word that is also one of the worst passwords, on a line about access: each was searched for an
    # example over the whole line
    "'admin and then', again and again": ("admin and then " * 3_000)[:40_000],
    # a letter whose case is told, on a line about access: each token looked back over all the line
    "'wifi R is a capital', again and again": ("wifi R is a capital " * 2_500)[:40_000],
    # the shapes of a value told with no label (mapping/privacy/told.py), with what they need around them
    "'wifi 1 2', again and again": ("wifi 1 2 " * 6_000)[:40_000],
    "'a-', a character spelled on and on": ("a-" * 20_000)[:40_000],
    "'sentence with spaces:', again and again": ("sentence with spaces: " * 2_000)[:40_000],
    "'код два три' (code two three), again": ("код два три " * 4_000)[:40_000],
    "'pin year of birth', again and again": ("pin year of birth " * 3_000)[:40_000],
}


def hostile_gate(repeat: int) -> None:
    """The privacy gate's time on each hostile text, as a ratio to ordinary prose of its length."""
    prose = ("The user prefers short replies, reviews code on Fridays and works in UTC. " * 600)[:40_000]

    def gate_ms(text: str) -> float:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            assert sensitive_reason(text) is None
            runs.append(time.perf_counter() - start)
        return statistics.median(runs) * 1000

    base = gate_ms(prose)
    print(f"# the privacy gate on hostile texts of 40,000 characters; baseline: prose, {base:.2f} ms")
    worst = 0.0
    for name, text in HOSTILE_TEXTS.items():
        took = gate_ms(text)
        worst = max(worst, took / base)
        print(f"  privacy gate: {name:<40} {took:8.2f} ms  ({took / base:.1f}x prose)")
    print(f"privacy gate: the slowest hostile text / prose of the same length = {worst:.1f}x (time: lower is better)")


# The steps of each full mapping, in the order they run. The full mapping is run once more with a
# timer around each step where it runs (in situ): each step then pays what it pays in the real
# mapping (its data and code cold after the other steps ran, the datetime cache emptied by the
# first pass...), which running it alone over all the memories (warm) hides. What the timers
# leave is the loop itself, and the timers' own cost, measured apart.
TO_STEPS = (
    "event against the contract, and its ids",
    "record key and at-uri (time parsed, TID)",  # timed where it runs: as the memory is mapped
    "privacy gate (five texts)",
    "record value and extension built",
    "proof (canonical JSON, SHA-256)",
    "lexicon validation (record and extension)",
    "CID (DAG-CBOR, SHA-256, base32)",
    "record view built (RecordView)",
    "batch bookkeeping (superseded uris, in order)",
    "batch order (supersession)",
)
FROM_STEPS = (
    "the view: its CID checked against its value",
    "the at-uri parsed and checked",
    "lexicon validation (record, key, extension)",
    "proof check (scope fields, recognised)",
    "event built",
    "event against the contract",
    "result built (Imported, supersedes links)",
    "batch supersession resolved",
)


def to_records_timed(items: list, did_text: str, timers: list[float]) -> list[RecordView]:
    """``to_records`` for new events that all map (the benchmark's): the same calls in the same
    order, each step's seconds added to ``timers[i]`` (``TO_STEPS[i]``), the whole run's to
    ``timers[-1]``. The caller checks its records against ``to_records``'s."""
    t = time.perf_counter
    start = t()
    did = Did.parse(did_text)
    uris: dict[str, str] = {}
    split = []
    for position, item in enumerate(items):
        a = t()
        event, source = prepare_item(item)
        b = t()
        split.append((position, event, source))
        c = t()
        timers[0] += b - a
        timers[8] += c - b
    a = t()
    superseded = {event.get("supersedesFactId") for _, event, _ in split if event.get("eventType") == "fact"}
    superseded.discard(None)
    prepared = []
    planned: set[str] = set()
    for position, event, source in split:
        fact_id = event.get("factId")
        uri = None
        if fact_id in superseded:
            uri = _planned_uri(event, did)
            if fact_id not in uris and uri is not None:
                uris[fact_id] = uri
                planned.add(fact_id)
        prepared.append((position, event, source, uri))
    b = t()
    order = in_supersession_order([event for _, event, _, _ in prepared])
    c = t()
    timers[8] += b - a
    timers[9] += c - b
    mapped: dict[int, RecordView] = {}
    for index in order:
        a = t()
        position, event, source, uri = prepared[index]
        mid = memory_id(event)
        texts = publishable_texts(event, include_transcript=False)
        check_publishable(event, memory_id=mid, publish_private=False, texts=texts)
        b = t()
        fact = event["eventType"] == "fact"
        if uri is None:
            created_at = _check_datetime(event, "validFrom" if fact else "observedAt", mid)
            uri = _record_uri(did, record_key(created_at, mid, 0))
        else:
            created_at = event["validFrom" if fact else "observedAt"]
        c = t()
        if fact and event.get("validUntil") is not None:
            _check_datetime(event, "validUntil", mid)
        value = _record_value(event, created_at, uris)
        ext = _extension(event, include_transcript=False)
        d = t()
        ext["proof"] = _proof(uri, event, value, ext)
        value[EXT_KEY] = ext
        e = t()
        _validate(value, uri)
        f = t()
        cid = cid_text_for_json(value)
        g = t()
        mapped[position] = RecordView(uri=uri, cid=cid, value=value)
        h = t()
        timers[2] += b - a
        timers[1] += c - b
        timers[3] += d - c
        timers[4] += e - d
        timers[5] += f - e
        timers[6] += g - f
        timers[7] += h - g
    a = t()
    records = [mapped[position] for position in sorted(mapped)]
    timers[8] += t() - a
    timers[-1] += t() - start
    return records


def from_records_timed(views: list[dict], scope: ImportScope, timers: list[float]) -> list[Imported]:
    """``from_records`` for views that all map, timed as ``to_records_timed`` is (``FROM_STEPS``)."""
    t = time.perf_counter
    start = t()
    ok: list[Imported] = []
    lexicons = default_lexicons()
    for obj in views:
        a = t()
        view = RecordView.from_json(obj)
        b = t()
        uri = AtUri.parse(view.uri)
        assert uri.authority == scope.did and str(uri.collection) == RECORD_NSID and uri.rkey is not None
        c = t()
        value = view.value
        lexicons.validate_record(RECORD_NSID, value, rkey=str(uri.rkey))
        ext, invalid = checked_extension(value)
        d = t()
        fields = scope.fields
        trusted = recognised(view.uri, value, ext, fields)
        assert invalid is None and value["content"]  # (the benchmark's scope is not the events': untrusted)
        e = t()
        event = (_episode if ext.get("eventType") == "episode" else _fact)(value, ext, view.uri, fields, scope, trusted)
        f = t()
        contract.check_event(event)
        g = t()
        imported = Imported(event=event, record=view, notes=[])
        for prior in value.get("supersedes") or []:
            if prior not in imported.supersedes:
                imported.supersedes.append(prior)
        ok.append(imported)
        h = t()
        timers[0] += b - a
        timers[1] += c - b
        timers[2] += d - c
        timers[3] += e - d
        timers[4] += f - e
        timers[5] += g - f
        timers[6] += h - g
    a = t()
    resolve_supersession(ok)
    timers[7] += t() - a
    timers[-1] += t() - start
    return ok


def timer_cost(n: int, per_memory: int) -> float:
    """Seconds that ``per_memory`` timed steps cost per memory over ``n`` memories: each a
    ``perf_counter()`` call and a sum, as in the timed mappings."""
    t = time.perf_counter
    timers = [0.0] * 4
    start = t()
    for _ in range(n):
        a = t()
        b = t()
        c = t()
        d = t()
        e = t()
        timers[0] += b - a
        timers[1] += c - b
        timers[2] += d - c
        timers[3] += e - d
    loop = t() - start
    start = t()
    for _ in range(n):
        pass
    empty = t() - start
    return (loop - empty) / 4 * per_memory


def stages(facts: list[dict], records: list, views: list[dict], scope: ImportScope, n: int,
           fact_rate: float, back_rate: float, repeat: int) -> None:
    """Where the time of each full mapping goes, step by step: timed in situ (the median of
    ``repeat`` timed runs of the full mapping, by their whole time), and alone (each step over the same N memories,
    warm). In situ, the steps add up to the whole but for the loop itself; the difference
    between the two columns is what interleaving the steps costs them."""
    did = Did.parse(DID)
    prepared = [prepare_item(f) for f in facts]
    events = [event for event, _ in prepared]
    planned = [_planned_uri(event, did) for event in events]
    values = [view.value for view in records]
    uris = [view.uri for view in records]
    cids = [view.cid for view in records]
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
        texts = publishable_texts(event, include_transcript=False)
        check_publishable(event, memory_id=event["factId"], publish_private=False, texts=texts)

    def build(i: int) -> None:
        _record_value(events[i], events[i]["validFrom"], {})
        _extension(events[i], include_transcript=False)

    def at_uri(i: int) -> None:
        uri = AtUri.parse(uris[i])
        assert uri.authority == scope.did and str(uri.collection) == RECORD_NSID and uri.rkey is not None

    def bookkeeping() -> None:
        split = [(position, event, None) for position, event in enumerate(events)]
        superseded = {event.get("supersedesFactId") for _, event, _ in split if event.get("eventType") == "fact"}
        superseded.discard(None)
        kept = []
        for position, event, source in split:
            fact_id = event.get("factId")
            kept.append((position, event, source, planned[position] if fact_id in superseded else None))
        by_position = dict(enumerate(records))
        [by_position[position] for position in sorted(by_position)]

    def results(i: int) -> None:
        Imported(event=imported_events[i], record=records[i], notes=[])

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

    def in_situ(run: Callable[[list[float]], Any], steps: int) -> list[float]:
        """Seconds per step (and, last, of the whole run) of the median run of ``repeat``: one
        run's figures, so that they add up."""
        runs = []
        for _ in range(repeat):
            timers = [0.0] * (steps + 1)
            gc.collect()
            run(timers)
            runs.append(timers)
        return sorted(runs, key=lambda timers: timers[-1])[len(runs) // 2]

    timed_records = to_records_timed(facts, DID, [0.0] * (len(TO_STEPS) + 1))
    assert [r.to_json() for r in timed_records] == [r.to_json() for r in records]
    timed_imports = from_records_timed(views, scope, [0.0] * (len(FROM_STEPS) + 1))
    assert [(i.event, i.record, i.supersedes) for i in timed_imports] == [
        (i.event, i.record, i.supersedes) for i in imported]

    checks = {
        "fact -> record": (
            fact_rate, gc_share(lambda: to_records(facts, DID)),
            lambda timers: to_records_timed(facts, DID, timers), 9, [
                each(lambda i: prepare_item(facts[i])),
                each(lambda i: _planned_uri(events[i], did)),
                each(gate),
                each(build),
                each(lambda i: _proof(planned[i], events[i], values[i], exts[i])),
                each(lexicon_check),
                each(lambda i: cid_text_for_json(values[i])),
                each(lambda i: RecordView(uri=uris[i], cid=cids[i], value=values[i])),
                bookkeeping,
                lambda: in_supersession_order(events),
            ], TO_STEPS),
        "record -> fact": (
            back_rate, gc_share(lambda: from_records(views, scope)),
            lambda timers: from_records_timed(views, scope, timers), 7, [
                each(lambda i: RecordView.from_json(views[i])),
                each(at_uri),
                each(lexicon_import),
                each(lambda i: recognised(uris[i], values[i], exts[i], scope.fields)),
                each(lambda i: _fact(values[i], exts[i], uris[i], fields, scope, True)),
                each(lambda i: contract.check_event(imported_events[i])),
                each(results),
                lambda: resolve_supersession(list(imported)),
            ], FROM_STEPS),
    }
    print("# where the time goes, in us per memory, one core: each step timed where it runs in the full")
    print("# mapping (in situ, median of the timed runs), and alone over the same memories (warm)")
    for mapping, (rate, collector, timed_run, timed_steps, alone, labels) in checks.items():
        total = 1e6 / rate
        situ = [seconds * 1e6 / n for seconds in in_situ(timed_run, len(labels))]
        whole, situ = situ[-1], situ[:-1]
        timers = timer_cost(n, timed_steps) * 1e6 / n
        print(f"  {mapping}: {'':<46} {'in situ':>8} {'alone':>7}")
        alone_sum = 0.0
        warm_steps = []
        for label, fn, micros in zip(labels, alone, situ):
            gc.collect()
            start = time.perf_counter()
            fn()
            warm = (time.perf_counter() - start) * 1e6 / n
            alone_sum += warm
            warm_steps.append((warm, label))
            print(f"  {mapping}: {label:<46} {micros:6.1f} us {warm:5.1f} us ({micros / whole:4.0%})")
        loop = whole - sum(situ) - timers
        print(f"  {mapping}: {'the timers themselves':<46} {timers:6.1f} us {'':8} ({timers / whole:4.0%})")
        print(f"  {mapping}: {'the rest: the loop itself':<46} {loop:6.1f} us {'':8} ({loop / whole:4.0%})")
        print(f"  {mapping}: {'timed run, in all':<46} {whole:6.1f} us {alone_sum:5.1f} us "
              f"(interleaving costs the steps {sum(situ) - alone_sum:.1f} us)")
        print(f"  {mapping}: {'the full mapping, untimed (above)':<46} {total:6.1f} us")
        micros = collector() * 1e6 / n
        print(f"  {mapping}: {'  of which garbage collection (on - off)':<46} {micros:6.1f} us {'':8} "
              f"({micros / total:4.0%})")
        budget = 1e6 / AIM
        largest = "; ".join(f"{label} {warm:.1f} us" for warm, label in sorted(warm_steps, reverse=True)[:3])
        verdict = "more than" if alone_sum > budget else "within"
        print(f"  {mapping}: the aim ({AIM:,}/s) leaves {budget:.1f} us per memory; the steps alone, warm, "
              f"need {alone_sum:.1f} us, {verdict} it. Largest: {largest}")


if __name__ == "__main__":
    main()
