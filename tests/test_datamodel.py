"""The atproto data model: interop vectors, strict DAG-CBOR, CIDs, and agreement with libipld."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from pathlib import Path

import libipld
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdsmem.errors import DataModelError
from pdsmem.mapping import dagcbor, datamodel
from pdsmem.mapping.datamodel import (
    DAG_CBOR,
    RAW,
    SHA2_256,
    Cid,
    cid_for_json,
    decode_dag_cbor,
    encode_dag_cbor,
    ipld_to_json,
    json_to_ipld,
)

FIXTURES = Path(__file__).parent / "fixtures" / "interop" / "data-model"
VECTORS = json.loads((FIXTURES / "data-model-fixtures.json").read_text())
VALID = json.loads((FIXTURES / "data-model-valid.json").read_text())
INVALID = json.loads((FIXTURES / "data-model-invalid.json").read_text())

LINK = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"
BLOB_LINK = "bafkreiccldh766hwcnuxnf2wh6jgzepf2nlu2lvcllt63eww5p6chi4ity"
V0 = "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR"


def b64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


# --- interop fixtures --------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["cid"][-8:])
def test_vector_json_encodes_to_exact_bytes_and_cid(vector):
    cbor = b64(vector["cbor_base64"])
    ipld = json_to_ipld(vector["json"])
    assert encode_dag_cbor(ipld) == cbor
    assert str(Cid.for_dag_cbor(cbor)) == vector["cid"]
    assert str(cid_for_json(vector["json"])) == vector["cid"]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["cid"][-8:])
def test_vector_bytes_decode_back_to_the_same_json(vector):
    decoded = decode_dag_cbor(b64(vector["cbor_base64"]))
    assert decoded == json_to_ipld(vector["json"])
    assert ipld_to_json(decoded) == vector["json"]


@pytest.mark.parametrize("entry", VALID, ids=lambda e: e["note"])
def test_valid_data_is_accepted(entry):
    ipld = json_to_ipld(entry["json"])
    assert ipld_to_json(ipld) == entry["json"]
    assert cid_for_json(entry["json"]) == Cid.for_dag_cbor(encode_dag_cbor(ipld))


@pytest.mark.parametrize("entry", INVALID, ids=lambda e: e["note"])
def test_invalid_data_is_rejected_by_both_paths(entry):
    with pytest.raises(DataModelError):
        json_to_ipld(entry["json"])
    with pytest.raises(DataModelError):
        cid_for_json(entry["json"])


def test_integer_like_float_becomes_an_integer():
    assert json_to_ipld({"a": 123.0}) == {"a": 123}
    assert type(json_to_ipld({"a": 123.0})["a"]) is int
    assert cid_for_json({"a": 123.0}) == cid_for_json({"a": 123})


# --- JSON form <-> IPLD form -------------------------------------------------------------------


def test_special_objects_convert_both_ways():
    ipld = json_to_ipld({"l": {"$link": LINK}, "b": {"$bytes": "AQID"}, "s": {"$bytes": ""}})
    assert ipld == {"l": Cid.decode(LINK), "b": b"\x01\x02\x03", "s": b""}
    assert ipld_to_json({"b": b"\x01"}) == {"b": {"$bytes": "AQ"}}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"b": {"$bytes": "AQ=="}}, "base64 string without padding"),
        ({"b": {"$bytes": "-_8"}}, "base64 string without padding"),  # url-safe alphabet
        ({"b": {"$bytes": "A"}}, "base64 string without padding"),  # impossible length
        ({"l": {"$link": LINK.upper()}}, "unsupported CID string"),
        ({"l": {"$link": " " + LINK}}, "unsupported CID string"),
        ({"a": 1.5}, "not an integer"),
        ({"a": float("nan")}, "not an integer"),
        ({"a": float("inf")}, "not an integer"),
        ({"a": 2.0**63}, "not an integer"),
        ({"a": 2**63}, "outside the signed 64-bit range"),
        ({"a": -(2**63) - 1}, "outside the signed 64-bit range"),
        ({"a": "\ud800"}, "lone surrogate"),
        ({"\ud800": 1}, "a map key holds a lone surrogate"),  # passed until a review found it
        ({"a": {"é\udfff": 1}}, "a map key holds a lone surrogate"),
        ({"a": b"raw"}, "bytes is not a JSON value"),
        ({"a": Cid.decode(LINK)}, "a CID link is not a JSON value"),
        ({"a": (1, 2)}, "an array is not a JSON value"),
        ({1: "a"}, "a map key is an integer, expected a string"),
        ({"b": {"$type": "blob", "ref": LINK, "mimeType": "a/b", "size": 1}}, "ref must be"),
        (
            {"b": {"$type": "blob", "ref": {"$link": BLOB_LINK}, "mimeType": "a/b", "size": -1}},
            "non-negative integer",
        ),
        (
            {"b": {"$type": "blob", "ref": {"$link": BLOB_LINK}, "mimeType": 1, "size": 1}},
            "mimeType must be a string",
        ),
        (
            {
                "b": {
                    "$type": "blob",
                    "ref": {"$link": BLOB_LINK},
                    "mimeType": "a/b",
                    "size": 1,
                    "x": 1,
                }
            },
            "unexpected: x",
        ),
    ],
)
def test_json_form_rejections_say_what_was_expected(value, message):
    with pytest.raises(DataModelError, match=message):
        json_to_ipld(value)
    with pytest.raises(DataModelError):
        cid_for_json(value)


def test_error_path_points_at_the_offending_value():
    with pytest.raises(DataModelError) as caught:
        json_to_ipld({"a": [1, {"b": 1.5}]})
    assert caught.value.path == "a[1].b"
    assert str(caught.value).startswith("at a[1].b: ")
    with pytest.raises(DataModelError) as caught:
        cid_for_json({"a": [1, {"b": 1.5}]})
    assert caught.value.path == "a[1].b"
    with pytest.raises(DataModelError) as caught:
        encode_dag_cbor({"x": {"y": [[None, 1.5]]}})
    assert caught.value.path == "x.y[0][1]"


def test_blob_keeps_its_shape_with_ref_converted():
    blob = {"$type": "blob", "ref": {"$link": BLOB_LINK}, "mimeType": "image/png", "size": 3}
    ipld = json_to_ipld({"img": blob})
    assert ipld["img"] == {**blob, "ref": Cid.decode(BLOB_LINK)}
    assert ipld_to_json(ipld) == {"img": blob}
    assert json_to_ipld({"img": {**blob, "size": 3.0}}) == ipld


def test_legacy_blob_and_dollar_type_records_pass_as_plain_objects():
    legacy = {"cid": BLOB_LINK, "mimeType": "image/png"}
    assert json_to_ipld({"img": legacy}) == {"img": legacy}
    assert json_to_ipld({"$type": "com.example.x", "n": 1}) == {"$type": "com.example.x", "n": 1}


def test_top_level_must_be_an_object_unless_told_otherwise():
    with pytest.raises(DataModelError, match="top level"):
        json_to_ipld([1])
    with pytest.raises(DataModelError, match="top level"):
        ipld_to_json([1])
    assert json_to_ipld([{"$link": LINK}], top_level_object=False) == [Cid.decode(LINK)]
    assert ipld_to_json([b"\xff"], top_level_object=False) == [{"$bytes": "/w"}]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"m": {"$link": LINK}}, "JSON reserves them"),
        ({"m": {"$bytes": b"x", "other": 1}}, "JSON reserves them"),
        ({"f": 1.0}, "no floats"),
        ({"i": 2**63}, "64-bit"),
        ({"t": {"$type": ""}}, "non-empty string"),
        ({"b": {"$type": "blob", "ref": LINK, "mimeType": "x", "size": 1}}, "ref must"),
        ({"x": object()}, "is not an IPLD value"),
    ],
)
def test_ipld_values_json_cannot_represent_are_rejected(value, message):
    with pytest.raises(DataModelError, match=message):
        ipld_to_json(value)


# --- DAG-CBOR encoding -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected_hex"),
    [
        (0, "00"),
        (23, "17"),
        (24, "1818"),
        (255, "18ff"),
        (256, "190100"),
        (65535, "19ffff"),
        (65536, "1a00010000"),
        (2**32 - 1, "1affffffff"),
        (2**32, "1b0000000100000000"),
        (2**63 - 1, "1b7fffffffffffffff"),
        (-1, "20"),
        (-24, "37"),
        (-25, "3818"),
        (-(2**63), "3b7fffffffffffffff"),
        ("", "60"),
        (b"", "40"),
        ([], "80"),
        ({}, "a0"),
        (True, "f5"),
        (False, "f4"),
        (None, "f6"),
        ({"b": 1, "aa": 2, "a": 3}, "a3616103616201626161" + "02"),
        ({"é": 1, "z": 2}, "a2617a0262c3a901"),  # z (1 byte) sorts before é (2 bytes)
    ],
)
def test_canonical_encodings(value, expected_hex):
    assert encode_dag_cbor(value).hex() == expected_hex
    assert decode_dag_cbor(bytes.fromhex(expected_hex)) == value


def test_cid_link_is_tag_42_with_a_leading_zero_byte():
    cid = Cid.decode(LINK)
    assert encode_dag_cbor(cid) == b"\xd8\x2a\x58\x25\x00" + cid.to_bytes()
    v0 = Cid.decode(V0)
    assert encode_dag_cbor(v0) == b"\xd8\x2a\x58\x23\x00" + v0.to_bytes()
    assert decode_dag_cbor(encode_dag_cbor([cid, v0])) == [cid, v0]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.0, "no floats"),
        (2**63, "above the 64-bit maximum"),
        (-(2**63) - 1, "below the 64-bit minimum"),
        ({1: 2}, "a map key is an integer, expected a string"),
        ({"\udfff": 1}, "a map key holds a lone surrogate"),
        ((1,), "tuple cannot be encoded"),
        (bytearray(b"x"), "bytearray cannot be encoded"),
    ],
)
def test_encode_rejects_values_outside_the_data_model(value, message):
    with pytest.raises(DataModelError, match=message):
        encode_dag_cbor(value)


def test_plain_dag_cbor_has_no_json_rules():
    """$type, $link and $bytes rules belong to the JSON form; repo internals need none of them."""
    value = {"a": {"$type": 7}, "b": {"$link": "not a cid"}}
    assert decode_dag_cbor(encode_dag_cbor(value)) == value


@pytest.mark.parametrize("container", ["list", "map"])
def test_nesting_limit_is_an_error_not_a_crash(container):
    def nest(levels: int):
        value: object = {} if container == "map" else []
        for _ in range(levels - 1):
            value = {"a": value} if container == "map" else [value]
        return value

    too_deep = nest(datamodel.MAX_DEPTH + 1)
    for convert in (
        encode_dag_cbor,
        lambda v: json_to_ipld(v, top_level_object=False),
        lambda v: ipld_to_json(v, top_level_object=False),
    ):
        with pytest.raises(DataModelError, match="nested deeper"):
            convert(too_deep)
    if container == "map":
        with pytest.raises(DataModelError, match="nested deeper"):
            cid_for_json(too_deep)
    head = b"\xa1\x61a" if container == "map" else b"\x81"
    empty = b"\xa0" if container == "map" else b"\x80"
    with pytest.raises(DataModelError, match="nested deeper"):
        decode_dag_cbor(head * datamodel.MAX_DEPTH + empty)
    deepest = head * (datamodel.MAX_DEPTH - 1) + empty
    assert decode_dag_cbor(deepest) == nest(datamodel.MAX_DEPTH)
    assert encode_dag_cbor(nest(datamodel.MAX_DEPTH)) == deepest


def test_encode_is_not_pathological_on_wide_or_large_values():
    """Wide maps, long lists and big strings: linear work, same bytes as libipld.

    No timing here; scripts/bench_datamodel.py measures speed against libipld.
    """
    wide = {f"k{i}": i for i in range(20_000)}
    long_list = list(range(50_000))
    big = {"s": "x" * 1_000_000, "b": b"\x00" * 1_000_000}
    for value in (wide, long_list, big):
        assert encode_dag_cbor(value) == libipld.encode_dag_cbor(value)


def test_key_order_cache_stays_bounded_across_many_record_shapes():
    for i in range(dagcbor._PLANS_MAX + 100):
        encode_dag_cbor({f"field{i}": 1})
    assert 0 < len(dagcbor._PLANS) <= dagcbor._PLANS_MAX
    wide = {f"k{i}": i for i in range(dagcbor._PLAN_KEYS_MAX + 1)}
    encode_dag_cbor(wide)
    assert tuple(wide) not in dagcbor._PLANS


# --- strict DAG-CBOR decoding ------------------------------------------------------------------

CID_BYTES = Cid.decode(LINK).to_bytes()


@pytest.mark.parametrize(
    ("data_hex", "message"),
    [
        ("a2616201616102", "out of canonical order"),  # "b" before "a"
        ("a2626161016162", "out of canonical order"),  # "aa" before "b": length comes first
        ("a2616101616102", "duplicate"),
        ("a10102", "not a text string"),
        ("a1410102", "not a text string"),
        ("fb3ff0000000000000", "no floats"),
        ("fa3f800000", "no floats"),
        ("f93c00", "no floats"),
        ("f7", "undefined"),
        ("f0", "simple value"),
        ("f820", "simple value"),
        ("c11a00000000", "only tag 42"),
        ("d82b4100", "only tag 42"),
        ("d9002a5825" + "00" + CID_BYTES.hex(), "non-minimal"),
        ("d82a5824" + CID_BYTES.hex(), "leading 0x00"),
        ("d82a6161", "must wrap a byte string"),
        ("d82a4100", "invalid CID|truncated|CID"),
        ("d82a5826" + "00" + CID_BYTES.hex() + "00", "unexpected bytes after the binary CID"),
        ("9f01ff", "indefinite"),
        ("bf616101ff", "indefinite"),
        ("5f4101ff", "indefinite"),
        ("7f6161ff", "indefinite"),
        ("0100", "trailing"),
        ("a0a0", "trailing"),
        ("1817", "non-minimal"),
        ("1900ff", "non-minimal"),
        ("1a0000ffff", "non-minimal"),
        ("1b00000000ffffffff", "non-minimal"),
        ("3800", "non-minimal"),
        ("780161", "non-minimal"),
        ("9800", "non-minimal"),
        ("1b8000000000000000", "above the 64-bit maximum"),
        ("3b8000000000000000", "below the 64-bit minimum"),
        ("62c328", "not UTF-8"),
        ("62eda080", "not UTF-8"),  # an encoded surrogate
        ("1c", "reserved"),
        ("1e", "reserved"),
        ("", "truncated"),
        ("6261", "truncated"),
        ("a16161", "truncated"),
        ("1901", "truncated"),
        ("82", "truncated"),
        ("5bffffffffffffffff", "truncated"),  # a huge length is refused, not allocated
        ("9bffffffffffffffff", "truncated: array at byte 0"),
        ("bbffffffffffffffff", "truncated: map at byte 0"),
        ("a1", "truncated"),
        ("a26161f6", "truncated"),
    ],
)
def test_decode_rejects_non_canonical_or_foreign_cbor(data_hex, message):
    with pytest.raises(DataModelError, match=message):
        decode_dag_cbor(bytes.fromhex(data_hex))


def test_decode_accepts_memoryview_and_bytearray():
    data = encode_dag_cbor({"a": [1, b"x", Cid.decode(LINK)]})
    assert decode_dag_cbor(memoryview(data)) == decode_dag_cbor(bytearray(data))


# --- CID ---------------------------------------------------------------------------------------


def test_cid_string_and_bytes_round_trips():
    for text in [LINK, BLOB_LINK, V0] + [v["cid"] for v in VECTORS]:
        cid = Cid.decode(text)
        assert str(cid) == cid.encode() == text
        assert Cid.from_bytes(cid.to_bytes()) == cid
        assert libipld.encode_cid(cid.to_bytes()) == text


def test_cid_fields_match_libipld():
    cid = Cid.decode(BLOB_LINK)
    ref = libipld.decode_cid(BLOB_LINK)
    assert (cid.version, cid.codec, cid.hash_code, cid.digest) == (
        ref["version"],
        ref["codec"],
        ref["hash"]["code"],
        ref["hash"]["digest"],
    )
    assert cid.codec == RAW and cid.hash_code == SHA2_256 and cid.is_atproto_blessed
    v0 = Cid.decode(V0)
    assert (v0.version, v0.codec, v0.is_atproto_blessed) == (0, 0x70, False)
    assert repr(cid) == f"Cid({BLOB_LINK!r})"


def test_base58_multibase_cidv1_decodes_to_the_same_cid():
    text = "zdj7WWeQ43G6JJvLWQWZpyHuAMq6uYWRjkBXFad11vE2LHhQ7"
    cid = Cid.decode(text)
    assert cid.version == 1 and cid.codec == 0x70
    assert str(cid).startswith("b") and Cid.decode(str(cid)) == cid


def test_cid_for_data_and_matches():
    data = encode_dag_cbor({"hello": "world"})
    cid = Cid.for_dag_cbor(data)
    assert cid.digest == hashlib.sha256(data).digest() and cid.codec == DAG_CBOR
    assert cid.matches(data) and not cid.matches(data + b"\x00")
    assert str(cid) == libipld.encode_cid(b"\x01\x71\x12\x20" + cid.digest)
    blob = Cid.for_raw(b"image bytes")
    assert blob.codec == RAW and blob.is_atproto_blessed and blob.matches(b"image bytes")
    other_hash = Cid(1, DAG_CBOR, 0x13, bytes(64))
    assert not other_hash.is_atproto_blessed
    with pytest.raises(DataModelError, match="only sha2-256"):
        other_hash.matches(data)


def test_cid_is_immutable_and_hashable():
    a, b = Cid.decode(LINK), Cid.from_bytes(Cid.decode(LINK).to_bytes())
    assert a == b and hash(a) == hash(b) and len({a, b, Cid.decode(BLOB_LINK)}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.codec = RAW  # type: ignore[misc]


def test_cid_read_at_offsets():
    cids = [Cid.decode(LINK), Cid.decode(V0), Cid.decode(BLOB_LINK), Cid(1, RAW, 0x00, b"id")]
    buffer = b"junk" + b"".join(c.to_bytes() for c in cids) + b"tail"
    offset, seen = 4, []
    for view in (buffer, memoryview(buffer)):
        offset, seen = 4, []
        for _ in cids:
            cid, offset = Cid.read(view, offset)
            seen.append(cid)
        assert seen == cids and buffer[offset:] == b"tail"
    with pytest.raises(DataModelError, match="truncated"):
        Cid.read(buffer[:10], 4)
    with pytest.raises(DataModelError, match="truncated"):
        Cid.read(Cid.decode(V0).to_bytes()[:-1], 0)


@pytest.mark.parametrize(
    ("raw_hex", "message"),
    [
        ("02711220" + "00" * 32, "version 2, expected 1"),
        ("00711220" + "00" * 32, "version 0, expected 1"),
        ("01f1001220" + "00" * 32, "not a minimal varint"),
        ("01" + "ff" * 9 + "01", "longer than 9 bytes"),
        ("01711220" + "00" * 32 + "00", "unexpected bytes"),
        ("01711220" + "00" * 31, "truncated"),
        ("0171", "truncated"),
    ],
)
def test_binary_cid_rejections(raw_hex, message):
    with pytest.raises(DataModelError, match=message):
        Cid.from_bytes(bytes.fromhex(raw_hex))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a CID string"),
        (".", "expected a CID string"),
        (LINK.upper(), "unsupported"),
        ("mAXESIA", "unsupported"),
        (LINK + " ", "unsupported"),
        ("b" + LINK[1:-1] + "b", "not canonical"),  # non-zero padding bits
        (LINK[:-2], "invalid CID|invalid base32"),
        (V0[:-1], "unsupported|invalid CID"),
        ("z" + V0, "multibase-wrapped CIDv0"),
        ("Qm" + "0" * 44, "base58btc"),
        (123, "expected a CID string"),
    ],
)
def test_cid_string_rejections(text, message):
    with pytest.raises(DataModelError, match=message):
        Cid.decode(text)


def test_cid_constructor_checks_its_fields():
    with pytest.raises(DataModelError, match="version"):
        Cid(2, DAG_CBOR, SHA2_256, bytes(32))
    with pytest.raises(DataModelError, match="CIDv0"):
        Cid(0, DAG_CBOR, SHA2_256, bytes(32))
    with pytest.raises(DataModelError, match="digest must be bytes"):
        Cid(1, DAG_CBOR, SHA2_256, 32)  # type: ignore[arg-type]
    assert type(Cid(1, RAW, SHA2_256, bytearray(32)).digest) is bytes


# --- agreement with libipld on generated values ------------------------------------------------


def _not_cid_like(raw: bytes) -> bool:
    """libipld writes any byte string that parses as a CID as a link; keep such bytes out."""
    try:
        libipld.decode_cid(raw)
    except ValueError:
        return True
    return False


cids = st.builds(
    Cid,
    st.just(1),
    st.sampled_from([DAG_CBOR, RAW, 0x70, 0x300]),
    st.sampled_from([SHA2_256, 0x13, 0xB220]),
    st.binary(min_size=1, max_size=64),
) | st.builds(lambda d: Cid(0, 0x70, SHA2_256, d), st.binary(min_size=32, max_size=32))
texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=datamodel.INT_MIN, max_value=datamodel.INT_MAX)
    | st.sampled_from([0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, -24, -25, -257])
    | texts
    | st.binary(max_size=40).filter(_not_cid_like)
    | cids
    | st.builds(
        lambda ref, mime, size: {"$type": "blob", "ref": ref, "mimeType": mime, "size": size},
        cids,
        texts,
        st.integers(min_value=0, max_value=2**40),
    )
)
ipld_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(texts, inner, max_size=6),
    max_leaves=20,
)


def to_libipld(value):
    """Our IPLD form in libipld's: CIDs become their binary form."""
    if isinstance(value, Cid):
        return value.to_bytes()
    if isinstance(value, list):
        return [to_libipld(v) for v in value]
    if isinstance(value, dict):
        return {k: to_libipld(v) for k, v in value.items()}
    return value


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(ipld_values)
def test_encoding_matches_libipld_byte_for_byte(value):
    ours = encode_dag_cbor(value)
    assert ours == libipld.encode_dag_cbor(to_libipld(value))
    assert decode_dag_cbor(ours) == value
    assert to_libipld(decode_dag_cbor(ours)) == libipld.decode_dag_cbor(ours)
    assert Cid.for_dag_cbor(ours).encode() == libipld.encode_cid(Cid.for_dag_cbor(ours).to_bytes())


@FAST
@given(cids)
def test_cids_match_libipld(cid):
    text = cid.encode()
    assert libipld.encode_cid(cid.to_bytes()) == text
    parsed = libipld.decode_cid(text)
    assert (parsed["version"], parsed["codec"], parsed["hash"]["digest"]) == (
        cid.version,
        cid.codec,
        cid.digest,
    )
    assert Cid.decode(text) == cid


def _outcome(convert, value):
    try:
        return convert(value)
    except DataModelError:
        return "refused"


records = st.dictionaries(
    texts | st.sampled_from(["$type", "$link", "$bytes", "ref", "mimeType", "size"]),
    ipld_values | st.just("blob"),
    max_size=6,
)


@settings(FAST, max_examples=100)
@given(records)
def test_json_round_trip_and_single_pass_cid_agree(value):
    loose_json = ipld_to_json_unchecked(value)
    two_pass = _outcome(lambda v: Cid.for_dag_cbor(encode_dag_cbor(json_to_ipld(v))), loose_json)
    assert _outcome(cid_for_json, loose_json) == two_pass
    try:
        as_json = ipld_to_json(value)
    except DataModelError:
        return  # a reserved $link/$bytes key, or a $type breaking the rules
    assert as_json == loose_json and json.loads(json.dumps(as_json)) == as_json
    assert json_to_ipld(as_json) == value
    assert two_pass == Cid.for_dag_cbor(encode_dag_cbor(value))


def ipld_to_json_unchecked(value):
    """JSON form built without validation, to feed any data to both JSON paths."""
    if isinstance(value, Cid):
        return {"$link": value.encode()}
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode().rstrip("=")}
    if isinstance(value, list):
        return [ipld_to_json_unchecked(v) for v in value]
    if isinstance(value, dict):
        return {k: ipld_to_json_unchecked(v) for k, v in value.items()}
    return value


@FAST
@given(st.dictionaries(texts, scalars, min_size=2, max_size=8), st.randoms())
def test_key_order_does_not_change_the_cid(value, rnd):
    keys = list(value)
    rnd.shuffle(keys)
    shuffled = {k: value[k] for k in keys}
    assert encode_dag_cbor(shuffled) == encode_dag_cbor(value)


def _strict_decode(data: bytes):
    value, end = dagcbor._decode(data, 0, 0)
    if end != len(data):
        raise DataModelError("trailing bytes")
    return value


@FAST
@given(ipld_values)
def test_strict_decoder_reads_valid_data_like_the_fast_path(value):
    data = encode_dag_cbor(value)
    assert _strict_decode(data) == decode_dag_cbor(data) == value


@FAST
@given(
    ipld_values.map(encode_dag_cbor),
    st.integers(min_value=0, max_value=200),
    st.binary(max_size=3),
    st.integers(min_value=0, max_value=3),
)
def test_fast_path_accepts_nothing_the_strict_decoder_refuses(data, at, patch, cut):
    """Damaged encodings: the public decoder and the strict one agree on accept or refuse."""
    at = at % (len(data) + 1)
    damaged = data[:at] + patch + data[at + cut :]
    assert _outcome(decode_dag_cbor, damaged) == _outcome(_strict_decode, damaged)


class _Text(str):
    """A ``str`` subclass: the strict encoder refuses it, libipld would not."""


# JSON-form values meant to catch the compiled CID path out: everything libipld encodes
# differently from the strict encoder (or accepts where it refuses) mixed with ordinary data.
_awkward_scalars = (
    scalars.filter(lambda v: not isinstance(v, (bytes, Cid)))
    | st.sampled_from([1.0, -0.0, 1.5, float("nan"), 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1])
    | st.sampled_from([b"x", ("a",), _Text("a"), "\ud800", "a\udfffb", "", "blob"])
)
_awkward_json = st.recursive(
    _awkward_scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        texts | st.sampled_from(["$type", "$link", "$bytes", "\ud800"]) | st.integers(0, 3), inner, max_size=5
    )
    | st.builds(lambda link: {"$link": link}, st.sampled_from([LINK, "bad"]))
    | st.builds(lambda text: {"$bytes": text}, st.sampled_from(["AAE", "!"])),
    max_leaves=12,
)


def _strict_cid_text(value):
    """The reference: the strict encoder's bytes, the CID text written by ``Cid.encode``."""
    return str(Cid.for_dag_cbor(bytes(dagcbor._encode_json(value))))


def _cid_or_error(fn, value):
    """The CID text, or the refusal: a DataModelError and nothing else (any other exception
    fails the test)."""
    try:
        return fn(value)
    except DataModelError as exc:
        return ("refused", exc.message, exc.path)


@settings(FAST, max_examples=400)
@given(st.dictionaries(texts | st.sampled_from(["$type", "$link", "$bytes"]), _awkward_json, max_size=6))
def test_compiled_cid_path_equals_the_strict_encoder(value):
    """``cid_text_for_json`` (libipld for the usual shapes) gives the strict encoder's CID, or
    refuses with the same message at the same place."""
    assert _cid_or_error(datamodel.cid_text_for_json, value) == _cid_or_error(_strict_cid_text, value)


@settings(FAST, max_examples=200)
@given(st.integers(0, 40), st.data())
def test_compiled_cid_path_equals_the_strict_encoder_when_deep(depth, data):
    value = data.draw(_awkward_json)
    for _ in range(depth):
        value = {"a": [value]}
    record = {"$type": "x.y.z", "v": value}
    assert _cid_or_error(datamodel.cid_text_for_json, record) == _cid_or_error(_strict_cid_text, record)


@FAST
@given(st.binary(max_size=80))
def test_compiled_base32_matches_the_reference_writer(raw):
    """The CID text is libipld's multibase base32: RFC 4648, lower case, no padding."""
    assert libipld.encode_multibase("b", raw) == "b" + base64.b32encode(raw).decode().lower().rstrip("=")


@pytest.mark.parametrize("key", ["$link", "$bytes"])
def test_a_link_or_bytes_object_with_a_key_that_is_not_text_is_refused_as_data(key):
    """Regression: a non-text key beside $link or $bytes raised a TypeError while the message
    naming the keys was built."""
    value = {"v": {key: None, 0: None}}
    with pytest.raises(DataModelError, match=rf"a \{key} object must have no other keys, got \{key}, 0"):
        datamodel.cid_text_for_json(value)


def test_a_map_key_of_a_str_subclass_is_refused_even_after_plain_keys_filled_the_cache():
    """Regression: the key-order cache, looked up by equal keys, let a str subclass through once
    a plain map with the same keys had been encoded."""

    class Key(str):
        pass

    datamodel.cid_for_json({"zz": 2})
    with pytest.raises(DataModelError, match="a map key is a kind of string other than text, expected a string"):
        datamodel.cid_for_json({Key("zz"): 1})
