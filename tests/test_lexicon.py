"""The lexicon validator: interop fixtures, the shipped lexicons, and properties."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from pdsmem import lexicons
from pdsmem.errors import LexiconError, RecordInvalid
from pdsmem.mapping.lexicon import LexiconSet

FIXTURES = Path(__file__).parent / "fixtures" / "interop" / "lexicon"
RECORD = lexicons.RECORD_NSID
EXTENSION = lexicons.EXTENSION_NSID
CATALOG_RECORD = "example.lexicon.record"
CID = "bafyreiclp443lavogvhj3d2ob2cxbfuscni2k5jk7bebjzg7khl3esabwq"
FAMILY = "👩\u200d👩\u200d👦\u200d👦"  # one grapheme, 25 bytes
AT_URI = f"at://did:plc:abcdefghijklmnopqrstuvwx/{RECORD}/3kznmn7xqxl22"


def _fixture(name: str) -> list[dict[str, Any]]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _doc(defs: dict[str, Any], nsid: str = "com.example.test") -> dict[str, Any]:
    return {"lexicon": 1, "id": nsid, "defs": defs}


def _record_doc(properties: dict[str, Any], nsid: str = "com.example.test") -> dict[str, Any]:
    body = {"type": "object", "properties": properties}
    return _doc({"main": {"type": "record", "key": "any", "record": body}}, nsid)


@pytest.fixture(scope="module")
def catalog() -> LexiconSet:
    paths = sorted((FIXTURES / "catalog").glob("*.json"))
    return LexiconSet(json.loads(p.read_text(encoding="utf-8")) for p in paths)


_default = functools.cache(LexiconSet.default)


@pytest.fixture(scope="module")
def shipped() -> LexiconSet:
    return _default()


def memory(**fields: Any) -> dict[str, Any]:
    record = {"$type": RECORD, "content": "I prefer tea.", "createdAt": "2024-05-01T12:00:00Z"}
    return record | fields


def only_error(lexset: LexiconSet, nsid: str, value: Any) -> RecordInvalid:
    errors = lexset.errors(nsid, value)
    assert len(errors) == 1, errors
    with pytest.raises(RecordInvalid) as raised:
        lexset.validate_record(nsid, value)
    assert (raised.value.path, raised.value.message) == (errors[0].path, errors[0].message)
    return errors[0]


# --- interop fixtures ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", _fixture("lexicon-valid.json"), ids=lambda c: c["name"])
def test_valid_lexicon_loads(case: dict) -> None:
    lexset = LexiconSet([case["lexicon"]])
    for name in case["lexicon"]["defs"]:
        assert f"{case['lexicon']['id']}#{name}" in lexset


# Where in the document each invalid fixture goes wrong.
INVALID_LEXICON_PATHS = {
    "invalid lexicon field": "lexicon",
    "invalid id field": "id",
    "invalid NSID": "id",
    "defined unknown": "defs.demo.type",
    "defined ref": "defs.demo.type",
    "non-main primary": "defs.demo.type",
    "record missing type object": "defs.main.record.type",
}


@pytest.mark.parametrize("case", _fixture("lexicon-invalid.json"), ids=lambda c: c["name"])
def test_invalid_lexicon_is_rejected_at_the_right_place(case: dict) -> None:
    with pytest.raises(LexiconError) as raised:
        LexiconSet([case["lexicon"]])
    assert raised.value.path == INVALID_LEXICON_PATHS[case["name"]]


def test_catalog_loads_with_only_its_external_ref_unresolved(catalog: LexiconSet) -> None:
    assert catalog.unresolved_refs() == [
        "app.bsky.actor.defs#preferences (from example.lexicon.procedure at "
        "defs.main.input.schema.properties.preferences.ref)"
    ]


@pytest.mark.parametrize("case", _fixture("record-data-valid.json"), ids=lambda c: c["name"])
def test_valid_record_passes(catalog: LexiconSet, case: dict) -> None:
    assert catalog.errors(CATALOG_RECORD, case["data"]) == []
    catalog.validate_record(CATALOG_RECORD, case["data"], rkey=case["rkey"])


@pytest.mark.parametrize("case", _fixture("record-data-invalid.json"), ids=lambda c: c["name"])
def test_invalid_record_fails_at_the_bad_field(catalog: LexiconSet, case: dict) -> None:
    fields = set(case["data"]) - {"$type", "integer"}
    assert len(fields) <= 1, "each fixture breaks one field"
    field = fields.pop() if fields else "integer"
    paths = [error.path for error in catalog.errors(CATALOG_RECORD, case["data"])]
    assert any(p == f"$.{field}" or p.startswith((f"$.{field}.", f"$.{field}[")) for p in paths)
    with pytest.raises(RecordInvalid):
        catalog.validate_record(CATALOG_RECORD, case["data"])


# --- the shipped memory record ------------------------------------------------------------------


def test_shipped_lexicons_resolve_every_reference(shipped: LexiconSet) -> None:
    assert shipped.unresolved_refs() == []
    assert RECORD in shipped and EXTENSION in shipped and f"{EXTENSION}#transcript" in shipped


@pytest.mark.parametrize(
    ("unit", "fits", "extra", "message"),
    [
        ("a", 2500, "a", "must be at most 2500 graphemes long (got 2501)"),
        ("\r\n", 2500, "a", "must be at most 2500 graphemes long (got 2501)"),  # CR LF: 1 cluster
        ("é", 2500, "é", "must be at most 2500 graphemes long (got 2501)"),
        ("e\u0301", 2500, "e\u0301", "must be at most 2500 graphemes long (got 2501)"),
        ("\u00e9\u0301", 2500, "a", "must be at most 10000 bytes long (got 10001)"),
        ("😀", 2500, "😀", "must be at most 10000 bytes long (got 10004)"),
        (FAMILY, 400, "a", "must be at most 10000 bytes long (got 10001)"),
        ("🇫🇷", 1250, "🇫", "must be at most 10000 bytes long (got 10004)"),
        ("한", 2500, "한", "must be at most 2500 graphemes long (got 2501)"),
    ],
    ids=["ascii", "crlf", "precomposed", "combining", "stacked", "emoji", "zwj", "flag", "hangul"],
)
def test_content_limits_in_bytes_and_graphemes(
    shipped: LexiconSet, unit: str, fits: int, extra: str, message: str
) -> None:
    at_limit = unit * fits
    assert len(at_limit.encode()) <= 10000 and len(regex.findall(r"\X", at_limit)) <= 2500
    shipped.validate_record(RECORD, memory(content=at_limit))
    error = only_error(shipped, RECORD, memory(content=at_limit + extra))
    assert (error.path, error.message) == ("$.content", message)


def test_supersedes_holds_at_most_twenty(shipped: LexiconSet) -> None:
    shipped.validate_record(RECORD, memory(supersedes=[AT_URI] * 20))
    error = only_error(shipped, RECORD, memory(supersedes=[AT_URI] * 21))
    assert (error.path, error.message) == ("$.supersedes", "must be at most 20 items long (got 21)")


def test_bad_at_uri_in_supersedes_is_located(shipped: LexiconSet) -> None:
    uris = [AT_URI] * 3 + ["https://example.com/not-an-at-uri"] + [AT_URI]
    error = only_error(shipped, RECORD, memory(supersedes=uris))
    assert error.path == "$.supersedes[3]"
    assert error.message.startswith("must be a valid at-uri: ")


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"createdAt": "2024-05-01 12:00:00Z"}, "$.createdAt"),
        ({"updatedAt": "2024-02-30T12:00:00Z"}, "$.updatedAt"),
        ({"occurredAt": {"from": "2024-05-01T12:00:00"}}, "$.occurredAt.from"),
    ],
)
def test_bad_datetime_is_located(shipped: LexiconSet, fields: dict, path: str) -> None:
    error = only_error(shipped, RECORD, memory(**fields))
    assert error.path == path
    assert error.message.startswith("must be a valid datetime: ")


def test_open_and_closed_vocabularies(shipped: LexiconSet) -> None:
    shipped.validate_record(RECORD, memory(kind="a-kind-from-the-future"))
    occurred = {"from": "2024-05-01T00:00:00Z", "precision": "week"}
    error = only_error(shipped, RECORD, memory(occurredAt=occurred))
    assert error.path == "$.occurredAt.precision"
    assert error.message == "must be one of 'year', 'month', 'day', 'instant' (got 'week')"


def test_unknown_properties_are_accepted_and_left_in_place(shipped: LexiconSet) -> None:
    nested = {"note": "kept", "deeper": [{"$link": CID}, {"$bytes": "aGk"}]}
    record = memory(
        futureField={"x": 1},
        occurredAt={"from": "2024-05-01T00:00:00Z", "timezone": "Europe/Paris"},
        provenance={"agent": "hermes", "future": nested},
    )
    before = copy.deepcopy(record)
    shipped.validate_record(RECORD, record)
    assert record == before
    assert record["provenance"]["future"] is nested


def test_default_is_not_filled_in(catalog: LexiconSet) -> None:
    record = {"$type": CATALOG_RECORD, "integer": 1}
    catalog.validate_record(CATALOG_RECORD, record)
    assert record == {"$type": CATALOG_RECORD, "integer": 1}


def test_unknown_properties_must_still_be_valid_data(shipped: LexiconSet) -> None:
    error = only_error(shipped, RECORD, memory(provenance={"future": {"score": 0.5}}))
    assert error.path == "$.provenance.future.score"
    error = only_error(shipped, RECORD, memory(extra={"$link": "not a cid"}))
    assert error.path.startswith("$.extra")


def test_integer_fields_refuse_floats_even_whole_ones(shipped: LexiconSet) -> None:
    ext = {"eventType": "fact", "id": "a" * 64, "proof": "b" * 64, "turnIndex": 3}
    shipped.validate_value(EXTENSION, ext)
    with pytest.raises(RecordInvalid) as raised:
        shipped.validate_value(EXTENSION, ext | {"turnIndex": 3.0})
    assert raised.value.path == "$.turnIndex"
    assert raised.value.message == "must be an integer (got float 3.0)"


def test_record_type_must_match(shipped: LexiconSet) -> None:
    error = only_error(shipped, RECORD, memory(**{"$type": "com.example.other"}))
    assert error.path == "$.$type"
    without = memory()
    del without["$type"]
    assert only_error(shipped, RECORD, without).path == "$.$type"


def test_errors_lists_every_problem_in_order(shipped: LexiconSet) -> None:
    record = {"$type": RECORD, "content": 5, "kind": None, "supersedes": ["x", AT_URI, "y"]}
    assert [e.path for e in shipped.errors(RECORD, record)] == [
        "$.createdAt",
        "$.content",
        "$.kind",
        "$.supersedes[0]",
        "$.supersedes[2]",
    ]


def test_extension_object_and_its_transcript(shipped: LexiconSet) -> None:
    ext = {"eventType": "episode", "id": "a" * 64, "proof": "b" * 64}
    transcript = {"userText": "hi", "assistantText": "yo"}
    shipped.validate_value(EXTENSION, ext | {"transcript": transcript})
    with pytest.raises(RecordInvalid) as raised:
        shipped.validate_value(EXTENSION, ext | {"transcript": {"userText": "hi"}})
    assert raised.value.path == "$.transcript.assistantText"
    with pytest.raises(RecordInvalid) as raised:
        shipped.validate_value(f"{EXTENSION}#main", {"eventType": "fact", "id": "a" * 64})
    assert (raised.value.path, raised.value.message) == ("$.proof", "is required but missing")


def test_record_key_type_is_checked(shipped: LexiconSet, catalog: LexiconSet) -> None:
    shipped.validate_record(RECORD, memory(), rkey="3kznmn7xqxl22")
    with pytest.raises(RecordInvalid, match="not a valid tid"):
        shipped.validate_record(RECORD, memory(), rkey="self")
    with pytest.raises(RecordInvalid, match="must be 'demo'"):
        catalog.validate_record(CATALOG_RECORD, {"$type": CATALOG_RECORD, "integer": 1}, rkey="x")


# --- documents, references and unions -----------------------------------------------------------


def test_malformed_document_error_names_document_and_path() -> None:
    doc = _record_doc({"text": {"type": "string", "maxLength": -1}})
    with pytest.raises(LexiconError) as raised:
        LexiconSet([doc])
    assert raised.value.path == "defs.main.record.properties.text.maxLength"
    assert "com.example.test" in raised.value.message


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "format": "colour"},
        {"type": "string", "minLength": 5, "maxLength": 2},
        {"type": "string", "const": "a", "default": "b"},
        {"type": "integer", "enum": [1, "2"]},
        {"type": "blob", "accept": ["ima*/png"]},
        {"type": "union", "refs": [], "closed": True},
        {"type": "array"},
        {"type": "token"},
        {"type": "params", "properties": {}},
        {"type": "object", "properties": {}, "required": ["missing"]},
        {"type": "ref", "ref": "not a ref"},
        {"type": "string", "description": ["a list, not a string"]},
        {"type": "string", "enum": []},
        {"type": "integer", "enum": []},
    ],
)
def test_malformed_field_schemas_are_rejected(schema: dict) -> None:
    with pytest.raises(LexiconError, match=r"\(lexicon com\.example\.test\)"):
        LexiconSet([_record_doc({"field": schema})])


def test_add_is_atomic_and_refuses_duplicates() -> None:
    lexset = LexiconSet()
    with pytest.raises(LexiconError):
        lexset.add(_doc({"main": {"type": "integer"}, "bad": {"type": "unknown"}}))
    assert "com.example.test" not in lexset
    lexset.add(_doc({"main": {"type": "integer"}}))
    lexset.validate_value("com.example.test", 3)
    with pytest.raises(LexiconError, match="already in this set"):
        lexset.add(_doc({"main": {"type": "integer"}}))


def test_references_resolve_lazily_and_fail_clearly() -> None:
    lexset = LexiconSet([_record_doc({"tag": {"type": "ref", "ref": "com.example.defs#tag"}})])
    assert lexset.unresolved_refs() == [
        "com.example.defs#tag (from com.example.test at defs.main.record.properties.tag.ref)"
    ]
    record = {"$type": "com.example.test", "tag": "x"}
    with pytest.raises(LexiconError, match="cannot be resolved") as raised:
        lexset.validate_record("com.example.test", record)
    assert raised.value.path == "defs.main.record.properties.tag.ref"
    lexset.add(_doc({"tag": {"type": "string", "maxLength": 3}}, "com.example.defs"))
    lexset.validate_record("com.example.test", record)
    assert only_error(lexset, "com.example.test", record | {"tag": "long"}).path == "$.tag"


def test_ref_to_a_token_is_a_lexicon_error() -> None:
    doc = _record_doc({"t": {"type": "ref", "ref": "#flag"}})
    doc["defs"]["flag"] = {"type": "token"}
    lexset = LexiconSet([doc])
    lexset.validate_value("com.example.test#flag", "com.example.test#flag")
    with pytest.raises(LexiconError, match="cannot point to the token"):
        lexset.validate_record("com.example.test", {"$type": "com.example.test", "t": "x"})


def test_recursive_definitions_and_deep_data_never_crash() -> None:
    child = {"type": "ref", "ref": "#main"}
    doc = _doc({"main": {"type": "object", "properties": {"child": child}}})
    lexset = LexiconSet([doc])
    value: dict = {}
    for _ in range(5):
        value = {"child": value}
    lexset.validate_value("com.example.test", value)
    for _ in range(5000):
        value = {"child": value}
    errors = lexset.errors("com.example.test", value)
    assert errors and all(isinstance(e, RecordInvalid) for e in errors)


def _nested_objects(levels: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A record lexicon whose document nests ``levels`` deep, and a record that fills it."""
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    value: dict[str, Any] = {}
    doc = _record_doc({"a": schema})  # $.defs.main.record.properties.a.properties: 7 levels
    record, depth = value, 7
    while depth + 2 <= levels:
        schema["properties"]["a"] = schema = {"type": "object", "properties": {}}
        record["a"] = record = {}
        depth += 2
    if depth < levels:
        schema["properties"]["b"] = {"type": "integer"}  # one level more
        record["b"] = 1
    return doc, {"$type": "com.example.test", "a": value}


def test_a_lexicon_nested_past_the_data_model_limit_is_refused_not_a_crash() -> None:
    deepest, record = _nested_objects(256)
    assert LexiconSet([deepest]).errors("com.example.test", record) == []
    for levels in (257, 600):  # 600 overflowed the stack while the document was copied
        with pytest.raises(LexiconError) as refused:
            LexiconSet([_nested_objects(levels)[0]])
        assert str(refused.value) == ("lexicon com.example.test nests objects and arrays deeper than 256 levels, "
                                      "the data model's limit")


def test_a_definition_that_is_not_a_record_is_named_with_its_article() -> None:
    lexset = LexiconSet([_doc({"main": {"type": "object", "properties": {}}}), _doc({"main": {"type": "query"}},
                                                                                     "com.example.ask")])
    with pytest.raises(LexiconError) as refused:
        lexset.validate_record("com.example.test", {})
    # it said "a object definition"
    assert str(refused.value) == "at defs.main: com.example.test is an object definition, not a record"
    with pytest.raises(LexiconError, match="com.example.ask is a query definition, not a data definition"):
        lexset.validate_value("com.example.ask", {})


def test_open_union_checks_known_types_and_accepts_unknown_ones() -> None:
    doc = _record_doc({"u": {"type": "union", "refs": ["#a"]}})
    doc["defs"] |= {
        "a": {"type": "object", "properties": {"n": {"type": "integer"}}},
        "b": {"type": "object", "required": ["s"], "properties": {"s": {"type": "string"}}},
    }
    lexset = LexiconSet([doc])

    def union_errors(value: dict) -> list[tuple[str, str]]:
        record = {"$type": "com.example.test", "u": value}
        return [(e.path, e.message) for e in lexset.errors("com.example.test", record)]

    assert union_errors({"$type": "com.example.test#a", "n": 1}) == []
    assert union_errors({"$type": "org.other.thing", "anything": [1]}) == []
    assert union_errors({"$type": "com.example.test#b"}) == [("$.u.s", "is required but missing")]
    assert union_errors({"$type": "org.other.thing#main"})[0][0] == "$.u.$type"
    assert union_errors({"$type": "not an nsid"})[0][0] == "$.u.$type"
    assert union_errors({"$type": "org.other.thing", "f": 1.5})[0][0] == "$.u.f"


def test_blob_accept_patterns() -> None:
    lexset = LexiconSet([_record_doc({"b": {"type": "blob", "accept": ["image/*", "text/plain"]}})])

    def blob(mime: str) -> dict:
        blob = {"$type": "blob", "ref": {"$link": CID}, "mimeType": mime, "size": 3}
        return {"$type": "com.example.test", "b": blob}

    for mime in ("image/png", "IMAGE/webp", "text/plain"):
        lexset.validate_record("com.example.test", blob(mime))
    assert only_error(lexset, "com.example.test", blob("text/html")).path == "$.b.mimeType"


def test_params_of_an_endpoint(catalog: LexiconSet) -> None:
    catalog.validate_params("example.lexicon.query", {"stringField": "x", "array": [1, 2]})
    with pytest.raises(RecordInvalid) as raised:
        catalog.validate_params("example.lexicon.query", {"stringField": "x", "handle": "nope"})
    assert raised.value.path == "$.handle"
    with pytest.raises(LexiconError, match="not a data definition"):
        catalog.validate_value("example.lexicon.query", {})


def test_unknown_definition_is_a_lexicon_error(shipped: LexiconSet) -> None:
    for ref in ("com.example.nothing", "#main", f"{RECORD}#nothing"):
        with pytest.raises(LexiconError, match="no lexicon definition"):
            shipped.validate_value(ref, {})


# --- properties ---------------------------------------------------------------------------------

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
_special = st.sampled_from(
    [
        {"$link": CID},
        {"$link": 12},
        {"$bytes": "aGk"},
        {"$bytes": "!!"},
        {"$type": "blob", "ref": {"$link": CID}, "mimeType": "image/png", "size": 1},
        {"$type": "blob", "mimeType": "image/png"},
        {"$type": RECORD},
        {"$type": ""},
        {"from": "2024-05-01T00:00:00Z"},
        AT_URI,
        "2024-05-01T00:00:00Z",
    ]
)
_json = st.recursive(
    _scalars | _special,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_record_keys = st.sampled_from(
    ["content", "createdAt", "updatedAt", "kind", "scope", "supersedes", "occurredAt", "provenance",
     "$type", EXTENSION, "other"]
)


@settings(max_examples=300, deadline=None)
@given(value=_json, patch=st.dictionaries(_record_keys, _json, max_size=4))
def test_validation_only_ever_reports_record_invalid(value: Any, patch: dict) -> None:
    lexset = _default()
    for candidate, ref in ((value, RECORD), (memory() | patch, RECORD), (value, EXTENSION)):
        before = copy.deepcopy(candidate)
        errors = lexset.errors(ref, candidate)
        assert all(isinstance(e, RecordInvalid) and e.path.startswith("$") for e in errors)
        try:
            lexset.validate_value(ref, candidate)
        except RecordInvalid as err:
            assert (err.path, err.message) == (errors[0].path, errors[0].message)
        else:
            assert errors == []
        assert candidate is before or candidate == before  # a bare NaN is copied as itself


_pieces = st.sampled_from(["a", "\r\n", "é", "e\u0301", "😀", FAMILY, "🇫🇷", "한", "क्षि"])


@settings(max_examples=200, deadline=None)
@given(runs=st.lists(st.tuples(_pieces, st.integers(0, 2600)), min_size=1, max_size=4))
def test_content_limits_agree_with_direct_counting(runs: list[tuple[str, int]]) -> None:
    content = "".join(piece * count for piece, count in runs)
    fits = len(content.encode()) <= 10000 and len(regex.findall(r"\X", content)) <= 2500
    assert (_default().errors(RECORD, memory(content=content)) == []) == fits


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_small_limits_agree_with_direct_counting(catalog: LexiconSet, text: str) -> None:
    size, graphemes = len(text.encode()), len(regex.findall(r"\X", text))
    for field, fits in (("lenString", 10 <= size <= 20), ("graphemeString", 10 <= graphemes <= 20)):
        record = {"$type": CATALOG_RECORD, "integer": 1, field: text}
        assert (catalog.errors(CATALOG_RECORD, record) == []) == fits


def test_a_property_name_must_be_valid_unicode(shipped: LexiconSet) -> None:
    """Regression (found in review): a key holding a lone surrogate passed validation, then failed
    DAG-CBOR encoding: a map key is text like any string."""
    record = memory(provenance={"agent": "a", "x\udfff": 1}) | {"\ud800": 1}
    assert [(e.path, e.message) for e in shipped.errors(RECORD, record)] == [
        ("$.provenance", "property name 'x\\udfff' must be valid Unicode (lone surrogate at index 1)"),
        ("$", "property name '\\ud800' must be valid Unicode (lone surrogate at index 0)"),
    ]
    with pytest.raises(RecordInvalid, match="lone surrogate"):
        shipped.validate_record(RECORD, memory() | {"\ud800": 1})

