"""The wheel carries one import package, `pdsmem`, with its lexicons; nothing generic at top level."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_the_lexicons_under_one_package(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("pdsmem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pdsmem/lexicons/dev/bastienrobert/memory/record.json" in names
    assert "pdsmem/lexicons/dev/pdsmem/agentMemory.json" in names
    for shipped in ("agent-memory-event.v1.schema.json", "LICENSE-APACHE-2.0", "README.md"):  # pdsmem schema
        assert f"pdsmem/lexicons/contract/{shipped}" in names
    for module in ("pdsmem/mapping/records.py", "pdsmem/bridge/pipelines/exporter.py", "pdsmem/cli/__init__.py"):
        assert module in names
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"pdsmem"}


def test_shipped_lexicons_match_the_published_record_lexicon():
    import json

    from pdsmem.lexicons import RECORD_NSID, load

    doc = load(RECORD_NSID)
    assert doc["defs"]["main"]["key"] == "tid"
    record = doc["defs"]["main"]["record"]
    assert record["required"] == ["content", "createdAt"]
    assert record["properties"]["content"]["maxLength"] == 10000
    assert record["properties"]["content"]["maxGraphemes"] == 2500
    assert record["properties"]["supersedes"]["maxLength"] == 20
    assert set(doc["defs"]) == {"main", "occurrence", "provenance"}
    assert json.loads(json.dumps(doc)) == doc
