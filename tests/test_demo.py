"""The README's run command: the demo, end to end, against the real local PDS and RushDB server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.pds
@pytest.mark.rushdb
def test_demo_runs_and_shows_both_sides():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo.py")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    out = result.stdout
    assert "5 created, 0 unchanged, 2 refused" in out
    assert "0 created, 5 unchanged, 2 refused" in out and "0 applyWrites batches" in out
    assert "memoryRecords\t5" in out
    assert "5 created, 0 updated, 0 unchanged, 0 deleted, 0 failed" in out
    assert "refused (private)" in out and "refused (local path)" in out
    tea = next(line for line in out.splitlines() if "drinks tea" in line)
    coffee = next(line for line in out.splitlines() if "drinks coffee" in line)
    assert tea.rstrip().endswith("False") and coffee.rstrip().endswith("True")
    # The RushDB half: synced, a second sync writes nothing, the superseded fact inactive in RushDB.
    assert ("5 created, 0 merged, 0 updated, 0 unchanged, 0 kept deleted, 0 retired, 0 deleted, 0 failed; wrote 5 memories, 5 mirrors, "
            "0 deactivated") in out
    assert "(nothing changed since the last sync)" in out and "wrote 0 memories, 0 mirrors, 0 deactivated" in out
    rushdb = out.split("In RushDB")[1]
    tea = next(line for line in rushdb.splitlines() if "drinks tea" in line)
    coffee = next(line for line in rushdb.splitlines() if "drinks coffee" in line)
    assert tea.rstrip().endswith("False") and coffee.rstrip().endswith("True")
    assert "-[:SUPERSEDES]->('The user drinks tea in the morning.')" in rushdb
    recalled = rushdb.split("pdsmem recall")[1].split("\n$ ")[0]
    assert "untrusted historical context" in recalled and "[Historical memory 1; source=MEMORY_FACT" in recalled
    assert '"The user now drinks coffee in the morning, not tea."' in recalled and "drinks tea" not in recalled
    assert "0 created, 5 unchanged" in rushdb.split("--from rushdb")[1]
    # Regression: the commands of a scope were printed without the salt they ran with, so a copy failed.
    for command in ("import --from", "sync", "recall", "export --to"):
        scoped = [line for line in out.splitlines() if line.startswith("$ ") and f"pdsmem {command}" in line
                  and "--agent-id" in line]
        assert scoped and all(line.startswith("$ MEMORY_SCOPE_SALT=demo-salt pdsmem ") for line in scoped), command
    assert "Stopped the local PDS and RushDB servers, and removed the run's files." in out
    assert "pdsmem-demo-" not in out.split("removed the run's files")[1]
