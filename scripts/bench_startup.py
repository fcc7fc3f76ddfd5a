"""How fast the command line starts: ``pdsmem --help``, ``status``, ``ids`` and ``convert`` as new
processes, against ``python -c "import click"`` in the same run (the floor: an interpreter and
the command line library), with the costliest imports of each (``python -X importtime``).

A cron job, a follower restarted by its service manager and an agent calling pdsmem per turn pay
this on every call (docs/benchmarks.md, start-up). Aim: each within 2x of ``import click``.

pdsmem's modules are byte-compiled first, as an installed package's are (``pip install`` compiles
every module, and ``scripts/setup`` compiles the editable checkout): ``import click`` loads
compiled files too, and a run that compiled pdsmem's sources on every start (an editable install
where ``PYTHONDONTWRITEBYTECODE`` is set) would time the compiler, not the start. The privacy
gate's patterns are kept compiled by the first run on a machine (``pdsmem.mapping.compiled_patterns``,
in ``PDSMEM_CACHE_DIR``, here a folder of the run's own): the warm-up run keeps them, and the
last case times ``convert`` as a machine's first run, with a new empty folder each time.

    .venv/bin/python scripts/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from devkit.events import fact  # noqa: E402

PYTHON = sys.executable


def timed(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - start


def costliest(argv: list[str], stdin: bytes, env: dict[str, str], top: int = 4) -> list[tuple[str, float]]:
    """The top-level modules with the largest cumulative import time (ms), from -X importtime."""
    run = subprocess.run([PYTHON, "-X", "importtime", *argv[1:]], input=stdin, capture_output=True, env=env, check=False)
    rows = []
    for line in run.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|", 2)
            if cumulative.strip().isdigit() and not name.startswith("  "):  # a module imported at the top, not by another one
                rows.append((name.strip(), int(cumulative) / 1000))
    return sorted(rows, key=lambda row: -row[1])[:top]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (the median is shown)")
    options = parser.parse_args()
    import pdsmem

    package = Path(pdsmem.__file__).parent  # its layers are linked in (mapping/, bridge/, lexicons/)
    for directory in [package, *(path.resolve() for path in package.iterdir() if path.is_symlink() and path.is_dir())]:
        compileall.compile_dir(directory, quiet=2)  # as an install leaves it
    with tempfile.TemporaryDirectory() as state:
        config = Path(state) / "config.toml"
        config.write_text("")  # an empty config file: a missing one is an error, which status would time instead
        env = {**os.environ, "PDSMEM_STATE_DIR": state, "PDSMEM_CONFIG": str(config),
               "PDSMEM_CACHE_DIR": str(Path(state) / "cache")}
        event = (json.dumps(fact(1)) + "\n").encode()
        script = Path(PYTHON).with_name("pdsmem")  # the command as installed; -m adds runpy's imports
        pdsmem = [PYTHON, str(script)] if script.is_file() else [PYTHON, "-m", "pdsmem"]
        cases = {
            'python -c "import click"': ([PYTHON, "-c", "import click"], b""),
            "pdsmem --help": ([*pdsmem, "--help"], b""),
            "pdsmem status": ([*pdsmem, "status"], b""),
            "pdsmem ids (one fact)": ([*pdsmem, "ids"], event),
            "pdsmem convert to-record (one fact)": ([*pdsmem, "convert", "to-record", "--did", "did:plc:abc"], event),
        }
        first_run = "  the same, a machine's first run"  # no patterns kept yet (not held to the aim)
        cases[first_run] = cases["pdsmem convert to-record (one fact)"]
        for argv, stdin in cases.values():  # warm the file cache, and keep the gate's patterns
            timed(argv, stdin, env)
        medians = {}
        for run in range(options.runs):  # in turn, so that load falls on every case alike
            for name, (argv, stdin) in cases.items():
                case_env = {**env, "PDSMEM_CACHE_DIR": str(Path(state) / f"first-{run}")} if name == first_run else env
                medians.setdefault(name, []).append(timed(argv, stdin, case_env))
        floor = statistics.median(medians['python -c "import click"'])
        print(f"start-up, median of {options.runs} runs each, taken in turn (load {os.getloadavg()[0]:.1f}):")
        for name, times in medians.items():
            median = statistics.median(times)
            print(f"  {name:<38} {median * 1000:7.0f} ms   ratio to import click = {median / floor:.2f}")
        print("costliest imports (cumulative ms, from -X importtime):")
        for name, (argv, stdin) in list(cases.items())[1:-1]:
            top = ", ".join(f"{module} {ms:.0f}" for module, ms in costliest(argv, stdin, env))
            print(f"  {name:<38} {top}")
        worst = max((name for name in medians if name.startswith("pdsmem")), key=lambda n: statistics.median(medians[n]))
        # (the first run's: once a machine, in a folder pdsmem can write; see the module's docstring)
        print(f"aim: each within 2x of import click; slowest {worst} at "
              f"{statistics.median(medians[worst]) / floor:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
