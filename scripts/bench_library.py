"""Benchmark: one memory exported after a turn, in-process through the library, against the command
line doing the same, and against the PDS's own round trip for one write, in the same run.

Starts a local PDS (scripts/pds), creates an account, then for each of T turns (default 30)
exports one new memory: through ``pdsmem.export`` on one signed-in session (what an agent
runtime does after a turn), and through ``pdsmem export`` as a new process (what shelling out
costs). The baseline: one ``applyWrites`` create of the same record sent by a bare HTTP client
(the PDS round trip). Prints the medians, the ratio of the command line to the library, and what
the library costs beyond the round trip (the aim: a few milliseconds).

    .venv/bin/python scripts/bench_library.py [--turns 30]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from devkit.events import fact
from devkit.pds import LocalPds

import pdsmem

ROOT = Path(__file__).resolve().parents[1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=30)
    turns = parser.parse_args().turns
    print(f"# {platform.machine()}, {platform.system()}, Python {platform.python_version()}, turns={turns}")
    work = Path(tempfile.mkdtemp(prefix="pdsmem-bench-library-"))
    with LocalPds() as pds:
        http = httpx.Client(timeout=60)

        # Baseline: the PDS round trip, one applyWrites create of a pre-mapped record.
        acct = pds.create_account()
        rtt = []
        for turn in range(turns + 1):
            record = pdsmem.to_record(fact(turn), acct.did)
            body = {"repo": acct.did, "writes": [{"$type": "com.atproto.repo.applyWrites#create",
                                                   "collection": record.value["$type"],
                                                   "rkey": record.uri.rsplit("/", 1)[1], "value": record.value}]}
            start = time.perf_counter()
            http.post(f"{pds.url}/xrpc/com.atproto.repo.applyWrites", headers=acct.auth_headers,
                      json=body).raise_for_status()
            rtt.append(time.perf_counter() - start)
        rtt = rtt[1:]  # the first warms the connection

        # The library: one session, one export per turn.
        acct = pds.create_account()
        session = pdsmem.sign_in(acct.did, acct.password, pds_url=pds.url, state_dir=work / "lib")
        library = []
        for turn in range(turns + 1):
            start = time.perf_counter()
            report = pdsmem.export(session, [fact(turn)], state_dir=work / "lib")
            library.append(time.perf_counter() - start)
            assert report.created == 1, report.counts
        library = library[1:]  # the first imports the mapping and the SDK
        session.close()

        # The command line: a new process per turn, as a runtime shelling out would.
        acct = pds.create_account()
        env = {**os.environ, "ATP_AUTH_PASSWORD": acct.password, "ATP_PDS_HOST": pds.url,
               "ATP_PLC_HOST": pds.plc_url, "PDSMEM_STATE_DIR": str(work / "cli"), "PYTHONPATH": str(ROOT)}
        cli = []
        for turn in range(turns):
            source = work / f"turn-{turn}.jsonl"
            source.write_text(json.dumps(fact(turn)) + "\n")
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "pdsmem.cli", "export", "--to", acct.did, "--from",
                                   str(source), "--json"], env=env, capture_output=True, text=True)
            cli.append(time.perf_counter() - start)
            assert done.returncode == 0 and '"created": 1' in done.stdout.replace('":1', '": 1'), done.stderr

    lib, rt, sh = statistics.median(library), statistics.median(rtt), statistics.median(cli)
    print(f"baseline: PDS round trip, one applyWrites create      median {ms(rt)}")
    print(f"pdsmem.export of one memory, in-process                median {ms(lib)}")
    print(f"pdsmem export of one memory, a new process             median {ms(sh)}")
    print(f"command line / library = {sh / lib:,.1f}x")
    print(f"library - PDS round trip = {ms(lib - rt)} (aim: a few milliseconds; a few new memories are one "
          "applyWrites, with no read of the repository first)")


if __name__ == "__main__":
    main()
