"""The README's run command: the demo, end to end, against the real local PDS."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.pds
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
    assert "Stopped the local PDS" in out
