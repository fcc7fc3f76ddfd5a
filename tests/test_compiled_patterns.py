"""The privacy gate's patterns built from a kept table (``pdsmem.mapping.compiled_patterns``) are the
patterns ``re.compile`` makes: the same matches on the corpora's texts, for every pattern of the gate.
A kept form that cannot be read, is another pattern's, or that the engine refuses is passed over;
the command line keeps its patterns in ``PDSMEM_CACHE_DIR`` (``pdsmem.bridge.pattern_cache``), and
no memory's text with them.

How much time the table saves is measured by scripts/bench_startup.py (docs/benchmarks.md).
"""

from __future__ import annotations

import gc
import json
import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from devkit.events import fact

import pdsmem.mapping.privacy  # noqa: F401 (every layer's patterns, made when it is imported)
from pdsmem.mapping import compiled_patterns
from pdsmem.mapping.privacy import plain

CORPUS = Path(__file__).parent / "privacy_corpus" / "tune"


@pytest.fixture(autouse=True)
def _no_table():
    compiled_patterns.forget()
    yield
    compiled_patterns.forget()


def _gate_patterns() -> list[tuple[str, int]]:
    """Every pattern the gate's layers hold, as written and, for those searched in a text's lower
    case, in the factored form they are compiled to after their first lines (``plain.factored``)."""
    found = set()
    for thing in gc.get_objects():
        try:
            isinstance(thing, plain.LazyPattern)
        except ReferenceError:  # a weak proxy whose object is gone (another library's): no pattern of the gate
            continue
        if isinstance(thing, plain.LazyPattern):
            found.add((thing.pattern, int(thing._flags)))
        elif isinstance(thing, plain._LoweredSearch):
            found.add((plain.factored(thing._pattern), 0))
    return sorted(found)


def _texts() -> list[str]:
    texts = []
    for kind in ("leaks", "benign"):
        with open(CORPUS / f"{kind}.jsonl", encoding="utf-8") as lines:
            texts += [json.loads(line)["text"] for line in lines][:250]
    return texts


def _matches(pattern: re.Pattern[str], text: str) -> list[tuple]:
    return [(match.span(), match.groups()) for match in pattern.finditer(text)]


def _kept_as_the_next_run_reads_them() -> None:
    """What this run compiled, kept; then read as the next run reads it (and nothing else of this run)."""
    kept = compiled_patterns.to_keep()
    compiled_patterns.forget()
    compiled_patterns.keep_with(kept.get)


def test_every_pattern_of_the_gate_built_from_its_kept_form_matches_as_re_compile_does():
    patterns = _gate_patterns()
    assert len(patterns) > 600  # (the gate's, not a few)
    compiled_patterns.keep_with(lambda name: None)  # a machine's first run: none kept yet
    for pattern, flags in patterns:
        compiled_patterns.compile(pattern, flags)
    _kept_as_the_next_run_reads_them()
    kept = [compiled_patterns.compile(pattern, flags) for pattern, flags in patterns]
    assert compiled_patterns.to_keep() == {}  # every one came from what was kept: nothing new
    texts, matched, differ = _texts(), 0, []
    for (pattern, flags), built in zip(patterns, kept):
        fresh = re.compile(pattern, flags)
        assert (built.pattern, built.flags, built.groups, built.groupindex) == \
               (fresh.pattern, fresh.flags, fresh.groups, fresh.groupindex)
        for text in texts:
            expected = _matches(fresh, text)
            matched += bool(expected)
            if _matches(built, text) != expected:
                differ.append((pattern[:60], text[:60]))
    assert differ == []
    assert matched > 5000  # the texts reach the patterns (a pattern that never matched would prove little)


def _sealed(payload: bytes) -> bytes:
    return compiled_patterns._sealed(payload)


@pytest.mark.parametrize("kept", [
    None, b"", b"not a form", _sealed(marshal.dumps(["a", "list"])), _sealed(marshal.dumps(("a+", 0, "not an entry"))),
    _sealed(marshal.dumps(("b+", 0, (32, b"", 0, {}, (None,))))),
    # an entry whose code the engine refuses ("invalid SRE code")
    _sealed(marshal.dumps(("a+", 0, (32, b"\x00" * 16, 0, {}, (None,))))),
    # a form whose CRC-32 does not hold, and one of no format of pdsmem's
    _sealed(marshal.dumps(("a+", 0, "x")))[:-1] + b"y", marshal.dumps(("a+", 0, "x")),
], ids=["none", "empty", "garbage", "a-list", "not-an-entry", "another-pattern", "code-refused", "torn", "unsealed"])
def test_a_kept_form_that_cannot_be_used_is_passed_over(kept):
    compiled_patterns.keep_with(lambda name: kept)
    built = compiled_patterns.compile("a+")
    assert built.findall("caab aaa") == ["aa", "aaa"] and built.pattern == "a+"
    assert list(compiled_patterns.to_keep()) == [compiled_patterns.kept_name("a+")]  # made here, kept next


def test_a_form_that_is_not_sealed_is_not_read(monkeypatch):
    """Regression: marshal takes a tuple's length from its data ("(\\xff\\xff\\xff\\x7f" declares two billion
    items) and makes room for it before it finds the data short: a torn cache file of five bytes held a command up
    for 40 s. A kept form is read only once its format and CRC-32 hold."""
    read = []
    monkeypatch.setattr(compiled_patterns.marshal, "loads", lambda data: read.append(data) or ("a+", 0, ()))
    compiled_patterns.keep_with(lambda name: b"(\xff\xff\xff\x7f")
    assert compiled_patterns.compile("a+").findall("caab") == ["aa"]
    assert read == []


def test_with_nobody_to_keep_them_nothing_is_held_for_writing():
    assert compiled_patterns.compile("a+").findall("caab") == ["aa"]
    assert compiled_patterns.to_keep() == {} and compiled_patterns.used() == set()


def test_a_reader_that_fails_is_passed_over():
    def read(name):
        raise OSError("no such file")

    compiled_patterns.keep_with(read)
    assert compiled_patterns.compile(r"\d+").findall("a 12 b 345") == ["12", "345"]


def test_a_pattern_is_kept_under_its_text_and_flags():
    names = {compiled_patterns.kept_name(p, f) for p, f in [("a+", 0), ("a+", re.IGNORECASE), ("a*", 0), ("\ud800", 0)]}
    assert len(names) == 4
    compiled_patterns.keep_with(lambda name: None)
    compiled_patterns.compile("a+", re.IGNORECASE)
    _kept_as_the_next_run_reads_them()
    assert compiled_patterns.compile("a+").findall("aA") == ["a"]  # not the case-blind one kept
    assert compiled_patterns.compile("a+", re.IGNORECASE).findall("aA") == ["aA"]
    assert list(compiled_patterns.to_keep()) == [compiled_patterns.kept_name("a+")]
    assert compiled_patterns.used() == {compiled_patterns.kept_name("a+"), compiled_patterns.kept_name("a+", 2)}


_EVENT = {**fact(1), "text": "The user keeps the allotment shed's spare key under the blue pot."}


def _convert(cache_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PDSMEM_CACHE_DIR": str(cache_dir), "PDSMEM_STATE_DIR": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-m", "pdsmem", "convert", "to-record", "--did", "did:plc:abc"],
                          input=json.dumps(_EVENT) + "\n", capture_output=True, text=True, env=env)


def _folder(cache: Path) -> Path:
    return cache / f"patterns-{compiled_patterns.KEPT_FOR}"


def test_the_command_line_keeps_its_patterns_for_the_next_run_and_no_memory_text(tmp_path):
    cache = tmp_path / "cache"
    first = _convert(cache, tmp_path)
    assert first.returncode == 0 and first.stderr == ""
    kept = {path.name: path.read_bytes() for path in _folder(cache).iterdir()}
    assert len(kept) > 10 and not any(name.startswith(".") for name in kept)  # (no partial file left)
    held = b"".join(kept.values())
    assert all(form.startswith(b"pdsmem compiled pattern 1\n") for form in kept.values())
    assert b"allotment" not in held and "allotment".encode("utf-16-le") not in held
    second = _convert(cache, tmp_path)
    assert (second.returncode, second.stdout, second.stderr) == (0, first.stdout, "")
    assert {path.name: path.read_bytes() for path in _folder(cache).iterdir()} == kept  # nothing new


def test_a_cache_folder_that_cannot_be_used_costs_nothing_but_time(tmp_path):
    expected = _convert(tmp_path / "cache", tmp_path)
    for path in _folder(tmp_path / "cache").iterdir():
        path.write_bytes(b"\x00 torn")
    torn = _convert(tmp_path / "cache", tmp_path)
    assert (torn.returncode, torn.stdout, torn.stderr) == (0, expected.stdout, "")
    assert all(compiled_patterns._opened(path.read_bytes()) for path in _folder(tmp_path / "cache").iterdir())  # made again
    (tmp_path / "a-file").write_text("")
    unwritable = _convert(tmp_path / "a-file" / "cache", tmp_path)  # a folder under a file
    assert (unwritable.returncode, unwritable.stdout, unwritable.stderr) == (0, expected.stdout, "")


def test_past_its_limit_the_folder_keeps_only_what_a_run_used(tmp_path):
    cache = tmp_path / "cache"
    _folder(cache).mkdir(parents=True)
    for number in range(5):
        (_folder(cache) / f"{number:032x}").write_bytes(b"an older version's")
    env = {**os.environ, "PDSMEM_CACHE_DIR": str(cache)}
    code = ("import pdsmem.bridge.pattern_cache as cache; cache.MAX_FILES = 3; cache.keep_compiled_patterns(); "
            "from pdsmem.mapping import compiled_patterns; compiled_patterns.compile('a+'); compiled_patterns.compile('b+')")
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    assert sorted(path.name for path in _folder(cache).iterdir()) == \
           sorted(compiled_patterns.kept_name(p) for p in ("a+", "b+"))
