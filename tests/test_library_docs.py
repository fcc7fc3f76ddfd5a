"""The examples of docs/library.md run, as they are, against a local PDS and RushDB server.

Each ```python block is run in order, in a fresh namespace, with the environment variables the
examples read set to the fixtures' servers and a new account; the blocks assert what they show.
"""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "library.md"
SALT = "library docs salt"


def blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_docs_library_shows_the_three_examples():
    assert len(blocks()) == 3


def test_the_examples_run_against_the_real_servers(pds, account, rushdb, monkeypatch, capsys):
    for name, value in {"ATP_AUTH_HANDLE": account.handle, "ATP_AUTH_PASSWORD": account.password,
                        "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                        **rushdb.env}.items():
        monkeypatch.setenv(name, value)
    for number, code in enumerate(blocks(), start=1):
        exec(compile(code, f"docs/library.md, example {number}", "exec"), {"__name__": f"example_{number}"})
    shown = capsys.readouterr().out
    assert "kept private: at $.text: memory " in shown and "hunter2" not in shown
    assert "untrusted" in shown.lower()
