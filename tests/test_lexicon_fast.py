"""The generated fast path of lexicon validation (mapping/lexicon_fast.py): it says "certainly
valid" only where the reference checkers find nothing wrong, and it does say so for the records
pdsmem writes (or it would be dead weight)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from pdsmem import lexicons
from pdsmem.errors import RecordInvalid
from pdsmem.mapping.lexicon import FAST_WARM_UP, LexiconSet
from pdsmem.mapping.lexicon_checks import data_problems
from pdsmem.mapping.lexicon_fast import fast_check
from pdsmem.mapping.to_record import to_records
from devkit.events import episode, fact

FIXTURES = Path(__file__).parent / "fixtures" / "interop" / "lexicon"
RECORD, EXTENSION = lexicons.RECORD_NSID, lexicons.EXTENSION_NSID
DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
AT_URI = f"at://{DID}/{RECORD}/3kznmn7xqxl22"
CATALOG_RECORD = "example.lexicon.record"
SHIPPED = LexiconSet.default()
CATALOG = LexiconSet(
    json.loads(p.read_text(encoding="utf-8")) for p in sorted((FIXTURES / "catalog").glob("*.json"))
)


def fast(lexset: LexiconSet, ref: str):
    """A fresh fast path, written for this test (not the set's cached one)."""
    full = ref if "#" in ref else ref + "#main"
    return fast_check(full, lexset._lookup)


def reference_ok(lexset: LexiconSet, ref: str, value: Any) -> bool:
    """The reference verdict: the checker closures, plus the whole-record data check of a record."""
    if lexset.errors(ref, value):
        return False
    return lexset._definition(ref).type != "record" or data_problems(value) is None


class Text(str):
    """A str subclass: equal to, and hashing as, the plain string it spells."""


# --- values near the two shipped lexicons, so that the fast path often says yes ------------------

def _built(*runs: tuple[str, int]) -> st.SearchStrategy:
    """Texts built when drawn (``piece * count``): long literals would bloat the strategy's repr."""
    return st.sampled_from(runs).map(lambda run: run[0] * run[1])


_texts = st.text(max_size=12) | _built(("a", 2500), ("é", 2500), ("\r\n", 3), ("👩\u200d👩", 1))
_bad_texts = _built(("é", 2501), ("a", 10001), ("\ud800", 1), ("x\udfff", 1))
_datetimes = st.sampled_from(["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456789+05:30", "0000-01-01T00:00:00Z"])
_bad_datetimes = st.sampled_from(
    ["2024-02-30T00:00:00Z", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00-00:00", "\u0662024-05-01T12:00:00Z"]
)
_bad_at_uris = st.sampled_from(["at://did:plc:x/", "at://x/y/z/", "https://example.com", "at://é"])
_hex = _built(("0", 64), ("f", 64))
_bad_hex = _built(("f", 63), ("a", 65), ("é", 64), ("é", 1))
_scalars = st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | _texts | _bad_texts
_special = st.sampled_from(
    [{"$link": "bafyreiclp443lavogvhj3d2ob2cxbfuscni2k5jk7bebjzg7khl3esabwq"}, {"$bytes": "aGk"},
     {"$type": "blob", "mimeType": "image/png", "size": 1}, {"$type": ""}, {"$type": 1}, {"$type": "\ud800"}, {},
     []]
)
_json = st.recursive(
    _scalars | _special,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def _nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


_odd = _json | st.sampled_from([_nested(30), _nested(31), _nested(32), 2**53, -(2**53), 2**53 - 1, 1.0])


def _field(valid: st.SearchStrategy, near_misses: st.SearchStrategy = st.nothing()) -> st.SearchStrategy:
    """A valid value most of the time (15 in 16), else a near miss or anything at all."""
    return st.integers(0, 15).flatmap(lambda pick: valid if pick else near_misses | _odd)


_nested_type = _field(st.just("com.example.part"), st.sampled_from(["", "blob", "\ud800", "é\udfff"]))
_extension = st.fixed_dictionaries(
    {"eventType": _field(st.sampled_from(["fact", "episode"]), st.just("x" * 33)),
     "id": _field(_hex, _bad_hex), "proof": _field(_hex, _bad_hex)},
    optional={
        "runtime": _field(st.sampled_from(["hermes", "custom"]), st.just("x" * 65)),
        "subjectKey": _field(_texts, _bad_texts),
        "confidence": _field(st.sampled_from(["0.85", "1.0"]), st.just("x" * 33)),
        "validFrom": _field(_datetimes, _bad_datetimes), "validUntil": _field(_datetimes, _bad_datetimes),
        "turnIndex": _field(st.integers(0, 2**53 - 1), st.sampled_from([-1, 2**53])),
        "transcript": _field(st.fixed_dictionaries({"userText": _texts, "assistantText": _texts})),
        "other": _field(_json), "$type": _field(st.just("com.example.thing"), st.just("")),
    },
)
_records = st.fixed_dictionaries(
    {"$type": _field(st.just(RECORD)), "content": _field(_texts, _bad_texts),
     "createdAt": _field(_datetimes, _bad_datetimes)},
    optional={
        "kind": _field(_texts, _bad_texts), "scope": _field(_texts, _bad_texts),
        "updatedAt": _field(_datetimes, _bad_datetimes),
        "supersedes": _field(st.lists(_field(st.just(AT_URI), _bad_at_uris), max_size=20), st.just([AT_URI] * 21)),
        "occurredAt": _field(st.fixed_dictionaries(
            {"from": _field(_datetimes, _bad_datetimes)},
            optional={"to": _field(_datetimes), "precision": _field(st.just("day"), st.just("week")),
                      "$type": _nested_type})),
        "provenance": _field(st.fixed_dictionaries({}, optional={
            "agent": _field(_texts), "client": _field(st.just("https://a.example/c"), st.just("not a uri")),
            "sourceUri": _field(st.just("at://x"), st.just(":")), "$type": _nested_type})),
        EXTENSION: _field(_extension), "other": _field(_json),
    },
)


@settings(max_examples=2000, deadline=None)
@given(record=_records)
def test_a_record_the_fast_path_passes_is_valid(record: dict) -> None:
    if fast(SHIPPED, RECORD)(record):
        assert reference_ok(SHIPPED, RECORD, record), record


@settings(max_examples=1500, deadline=None)
@given(ext=_extension)
def test_an_extension_the_fast_path_passes_is_valid(ext: dict) -> None:
    if fast(SHIPPED, EXTENSION)(ext):
        assert reference_ok(SHIPPED, EXTENSION, ext), ext


@settings(max_examples=1000, deadline=None)
@given(value=_json)
def test_anything_the_fast_path_passes_is_valid(value: Any) -> None:
    for lexset, ref in ((SHIPPED, RECORD), (SHIPPED, EXTENSION), (SHIPPED, f"{RECORD}#occurrence"),
                        (CATALOG, CATALOG_RECORD)):
        if fast(lexset, ref)(value):
            assert reference_ok(lexset, ref, value), (ref, value)


@pytest.mark.parametrize("ref, values", [(RECORD, _records), (EXTENSION, _extension)])
def test_the_property_tests_reach_the_fast_paths_yes(ref: str, values: st.SearchStrategy) -> None:
    """The generators above give the fast path values to say yes to (with an extension, a list
    of at-uris, a non-ASCII text...), or the properties would only ever test ``False``."""
    test = fast(SHIPPED, ref)
    if ref == RECORD:
        wanted = lambda v: {"supersedes", EXTENSION} <= v.keys() and v["supersedes"]  # noqa: E731
    else:
        wanted = lambda v: {"transcript", "turnIndex"} <= v.keys()  # noqa: E731
    found = find(values, lambda v: test(v) and wanted(v), settings=settings(max_examples=5000, database=None))
    assert reference_ok(SHIPPED, ref, found)


# --- the interop fixtures ------------------------------------------------------------------------


def _fixture(name: str) -> list[dict]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", _fixture("record-data-invalid.json"), ids=lambda c: c["name"])
def test_no_invalid_fixture_passes_the_fast_path(case: dict) -> None:
    assert fast(CATALOG, CATALOG_RECORD)(case["data"]) is False


def test_valid_fixtures_pass_the_fast_path_unless_they_hold_what_it_leaves_to_the_reference() -> None:
    passed = [case["name"] for case in _fixture("record-data-valid.json") if fast(CATALOG, CATALOG_RECORD)(case["data"])]
    assert passed  # the catalog's union, blob, bytes and cid-link fields are the reference's
    for case in _fixture("record-data-valid.json"):
        assert reference_ok(CATALOG, CATALOG_RECORD, case["data"])


# --- what pdsmem writes takes the fast path --------------------------------------------------------


@pytest.mark.parametrize("include_transcript", [False, True])
def test_every_record_pdsmem_writes_takes_the_fast_path(include_transcript: bool) -> None:
    events = [fact(i, text=f"Fact {i}: ünïcödé ✓ {'é' * i}") for i in range(30)] + [episode(i) for i in range(30)]
    records, failed = to_records(events, DID, include_transcript=include_transcript)
    assert not failed
    record_fast, ext_fast = fast(SHIPPED, RECORD), fast(SHIPPED, EXTENSION)
    for view in records:
        assert record_fast(view.value) and ext_fast(view.value[EXTENSION])


# --- what it leaves to the reference ---------------------------------------------------------------


def _record(**fields: Any) -> dict:
    return {"$type": RECORD, "content": "I prefer tea.", "createdAt": "2024-05-01T12:00:00Z"} | fields


@pytest.mark.parametrize(
    "record",
    [
        {Text("content"): "I prefer tea.", "$type": RECORD, "createdAt": "2024-05-01T12:00:00Z"},
        {"$type": Text(RECORD), "content": "I prefer tea.", "createdAt": "2024-05-01T12:00:00Z"},
        _record(content=Text("I prefer tea.")),
        _record(other=_nested(32)),  # a container at depth 32, counted from the record
        _record(content="\ud800"),
        _record(kind="\udfff"),  # no length limit: the text is still checked
        _record(provenance={"agent": "x\ud800"}),
        _record(content="é" * 2501),  # within 10,000 bytes, but graphemes need counting
        _record(supersedes=[AT_URI] * 21),
        _record(other={"$type": "blob", "mimeType": "a/b", "size": 1}),
        _record(other=2**53),
        _record(other=1.0),
        _record(**{"$link": "x"}),
        _record(provenance={"$type": "\ud800"}),  # an undeclared $type is text too (found in review)
        _record(provenance={"x\udfff": 1}),  # and so is a property name
        _record(**{"é\ud800": "x"}),
        {"$type": RECORD, "content": "I prefer tea.", "createdAt": "2024-05-01T12:00:00Z", "x": {"$type": "a\udfff"}},
    ],
)
def test_what_the_fast_path_leaves_to_the_reference(record: dict) -> None:
    assert fast(SHIPPED, RECORD)(record) is False


def test_nesting_is_counted_from_the_record_through_declared_objects() -> None:
    """The data model refuses nesting past 256 levels; the fast path leaves anything past 31 to it."""
    node = {"type": "object", "properties": {"child": {"type": "ref", "ref": "#node"}}}
    doc = {"lexicon": 1, "id": "com.example.tree", "defs": {
        "main": {"type": "record", "key": "any", "record": node}, "node": node}}
    lexset = LexiconSet([doc])
    test = fast(lexset, "com.example.tree")
    for depth, valid, said in ((31, True, True), (40, True, False), (257, False, False)):
        record: dict = {}
        for _ in range(depth):
            record = {"child": record}
        record["$type"] = "com.example.tree"
        assert reference_ok(lexset, "com.example.tree", record) is valid
        assert test(record) is said


def test_the_generated_source_is_kept_for_reading() -> None:
    source = fast(SHIPPED, RECORD).source
    assert "def record(v):" in source and "'content'" in source


def test_a_definition_added_later_is_left_to_the_reference_then_checked() -> None:
    doc = {"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "object", "properties": {
        "b": {"type": "ref", "ref": "com.example.b"}}}}}
    lexset = LexiconSet([doc])
    assert fast(lexset, "com.example.a")({"b": {"n": 1}}) is False  # unresolved: the reference raises
    assert lexset._fast_path("com.example.a")({"b": {"n": 1}}) is False
    lexset.add({"lexicon": 1, "id": "com.example.b", "defs": {"main": {"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 3}}}}})
    assert fast(lexset, "com.example.a")({"b": {"n": 1}}) is True
    assert fast(lexset, "com.example.a")({"b": {"n": 4}}) is False
    assert warmed(lexset, "com.example.a")({"b": {"n": 1}}) is True  # the set's own, written again


def warmed(lexset: LexiconSet, ref: str):
    """The set's own fast path of ``ref``, once written: the reference checks the first values."""
    for _ in range(FAST_WARM_UP):
        assert lexset._fast_path(ref)({"anything": 1}) is False
    return lexset._fast_path(ref)


def test_the_set_writes_a_fast_path_only_once_a_definition_has_checked_some_values() -> None:
    """A command that checks one record (convert) pays no code generation; a run of many does."""
    lexset = LexiconSet.default()
    record = {"$type": RECORD, "content": "I prefer tea.", "createdAt": "2024-05-01T12:00:00Z"}
    for n in range(FAST_WARM_UP):
        if n % 2:
            lexset.validate_record(RECORD, record)
        else:
            with pytest.raises(RecordInvalid):
                lexset.validate_record(RECORD, {**record, "content": 3})
    assert RECORD not in lexset._fast
    lexset.validate_record(RECORD, record)
    assert lexset._fast[RECORD](record) is True
    with pytest.raises(RecordInvalid):
        lexset.validate_record(RECORD, {**record, "content": 3})


class Loud(str):
    """A property name whose repr is code: a document built in Python can hold one."""

    def __repr__(self) -> str:
        return "__import__('os').environ.setdefault('PDSMEM_INJECTED', '1')"


@pytest.mark.parametrize(
    "definition, value, said",
    [
        ({"type": "string"}, "ok", True),  # under a name holding a NUL: the generated code's file name
        ({"type": "object", "properties": {Loud("n"): {"type": "string"}}}, {"n": "x"}, False),
        ({"type": "object", "properties": {1: {"type": "string"}}}, {}, False),
        ({"type": "object", "properties": {"n": {"type": "integer", "minimum": 10**5000}}}, {}, False),
        ({"type": "object", "properties": {"n": {"type": "string", "maxLength": 10**5000}}}, {}, False),
        ({"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(65)}}, {"p1": "x"}, False),
    ],
)
def test_what_the_writer_cannot_handle_is_left_to_the_reference(definition: dict, value: Any, said: bool) -> None:
    """Found in review: each of these raised (or ran a name's repr) while the fast path was written."""
    lexset = LexiconSet([{"lexicon": 1, "id": "com.example.odd", "defs": {"a\u0000b": definition}}])
    ref = "com.example.odd#a\u0000b"
    assert fast(lexset, ref)(value) is said
    lexset.validate_value(ref, value)  # valid, as the reference says
    assert "PDSMEM_INJECTED" not in os.environ


def test_a_schema_nested_too_deeply_to_write_is_left_to_the_reference() -> None:
    schema: dict = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "array", "items": schema}
    test = fast_check("com.example.deep#main", lambda ref, base: ("com.example.deep#main", "array", schema))
    assert "could not handle" in test.source and test([]) is False


def test_a_document_changed_after_it_was_added_changes_nothing() -> None:
    doc = {"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 3}}}}}
    lexset = LexiconSet([doc])
    doc["defs"]["main"]["properties"]["n"]["maximum"] = 100
    assert fast(lexset, "com.example.a")({"n": 50}) is False
