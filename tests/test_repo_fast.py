"""The compiled fast paths of repository verification agree with the strict reference.

MST nodes and records of other collections are read by libipld and proven canonical by encoding
them back (``repo._fast_node``, ``repo._other_record``); the strict decoder stays the reference.
Property tests here feed both valid and broken bytes to both paths: the fast path may decline
(and the strict path then decides), but it never accepts what the strict path refuses, and when
it accepts, it reads the same thing.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Any

from devkit.repo_builder import COLLECTION, DID, Keypair, build_repo, memory_records, tid
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pdsmem.bridge.atproto.car import BlockStore
from pdsmem.bridge.pipelines.importer import verify_source
from pdsmem.bridge.atproto.repo import (
    OtherRecord, RecordFailure, RepoRecord, _fast_node, _other_record, _record, _strict_node,
)
from pdsmem.errors import VerificationError
from pdsmem.mapping.dagcbor import maybe_outside_model
from pdsmem.mapping.record_proof import _odd_type
from pdsmem.mapping.datamodel import Cid, encode_dag_cbor
from pdsmem.mapping.syntax import Did

KEY = Keypair.generate()
LINKS = [Cid.for_dag_cbor(bytes([n])) for n in range(4)] + [Cid.for_raw(b"raw")]
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _fail(message: str) -> VerificationError:
    return VerificationError(message)


def _strict(data: bytes) -> Any:
    try:
        return _strict_node(data, _fail)
    except VerificationError:
        return None


# --- MST nodes -------------------------------------------------------------------------------

keys = st.binary(min_size=0, max_size=12) | st.text("ab/", max_size=6).map(str.encode) | st.sampled_from(
    [b"app.bsky.feed.like/3k", b"\x01q\x12 " + bytes(32), LINKS[0].to_bytes(), b"", b"\x7f"]
)
values = st.sampled_from(LINKS) | st.binary(max_size=40) | st.none() | st.sampled_from(
    [LINKS[0].to_bytes(), 3, -1, True, "text"]
)
prefixes = st.integers(min_value=-3, max_value=20) | st.sampled_from([True, 2**63 - 1])


@st.composite
def nodes(draw: st.DrawFn) -> bytes:
    """Node-shaped values, mostly well formed, sometimes not (field types, names, prefixes)."""
    entries = []
    for _ in range(draw(st.integers(0, 4))):
        entry: dict[str, Any] = {"p": draw(prefixes), "k": draw(keys), "v": draw(values), "t": draw(values)}
        if draw(st.integers(0, 9)) == 0:
            entry["x"] = 1
        if draw(st.integers(0, 9)) == 0:
            del entry["t"]
        entries.append(entry)
    node: dict[str, Any] = {"e": entries, "l": draw(values)}
    if draw(st.integers(0, 9)) == 0:
        del node["l"]
    return encode_dag_cbor(node)


@SETTINGS
@given(nodes(), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=3))
@example(bytes.fromhex("a2616580616cf6"), [])  # the empty root
def test_fast_node_never_accepts_what_the_strict_reader_refuses(data: bytes, flips: list) -> None:
    mutated = bytearray(data)
    for position, value in flips:  # byte flips: non-canonical forms, floats, wrong heads
        mutated[position % len(mutated)] = value
    for candidate in (data, bytes(mutated)):
        fast = _fast_node(candidate)
        if fast is not None:
            assert _strict(candidate) == fast


def test_fast_node_reads_real_trees() -> None:
    repo = build_repo(memory_records(300), keypair=KEY)
    read = [_fast_node(block) for block in repo.mst_blocks.values()]
    assert None not in read and read == [_strict(block) for block in repo.mst_blocks.values()]


def test_a_float_a_cid_key_or_a_short_prefix_in_a_node_goes_to_the_strict_reader() -> None:
    good = {"p": 0, "k": b"app.bsky.feed.like/3k", "v": LINKS[0], "t": None}
    with_float = encode_dag_cbor({"e": [dict(good, p=0)], "l": None}).replace(b"ap\x00", b"ap\x00")
    as_float = with_float.replace(b"\x61p\x00", b"\x61p\xfb" + struct.pack(">d", 0.0))
    assert _fast_node(as_float) is None and _strict(as_float) is None
    cid_key = encode_dag_cbor({"e": [dict(good, k=LINKS[1])], "l": None})
    assert _fast_node(cid_key) is None and _strict(cid_key) is None
    short_prefix = encode_dag_cbor({"e": [dict(good, k=b"app.a"), dict(good, k=b"app.b")], "l": None})
    assert _fast_node(short_prefix) is None and _strict(short_prefix) is None  # p=0, 4 shared


# --- records of other collections --------------------------------------------------------------

leaves = (
    st.none() | st.booleans() | st.text(max_size=8) | st.binary(max_size=8) | st.sampled_from(LINKS)
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
)
ipld = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)
records = st.fixed_dictionaries({"$type": st.sampled_from(["app.bsky.feed.post", "app.bsky.feed.like", ""])},
                                optional={"a": ipld, "b": ipld}) | ipld
RAW_TAILS = [
    b"",
    b"\xfb\x3f\xf8\x00\x00\x00\x00\x00\x00",  # a float, as canonical DAG-CBOR writes it
    b"\xfa\x3f\xc0\x00\x00",  # a 32-bit float
    b"\x1b\x80\x00\x00\x00\x00\x00\x00\x00",  # 2**63: beyond 64-bit signed
    b"\x3b\xff\xff\xff\xff\xff\xff\xff\xff",  # -2**64
    b"\x18\x05",  # 5, not minimally encoded
]


def _with_raw_value(value: Any, tail: bytes) -> bytes:
    """``value`` (a map) with one more entry, last in canonical order, whose value is ``tail``,
    bytes as given."""
    body = encode_dag_cbor(value)
    if not tail or type(value) is not dict or len(value) >= 23:
        return body
    return bytes([0xA0 + len(value) + 1]) + body[1:] + b"\x6c" + b"z" * 12 + tail


def _both(data: bytes) -> tuple[Any, Any]:
    store = BlockStore()
    cid = Cid.for_dag_cbor(data)
    store.add(cid, data)
    key = b"app.bsky.feed.post/" + tid(1).encode()
    with store:
        return _other_record(store, Did.parse(DID), key, cid.to_bytes()), _record(store, Did.parse(DID), key, cid.to_bytes())


def _assert_same_verdict(data: bytes) -> None:
    """The fast path takes a record only when the strict reader accepts it, as the same record."""
    fast, strict = _both(data)
    if fast is None or isinstance(fast, OtherRecord):
        assert isinstance(strict, RepoRecord), strict
        kind = strict.value["$type"]
        assert (fast is None) == (kind == "app.bsky.feed.post")
        assert fast is None or fast.type == kind
    else:  # declined: the strict reading is the answer
        assert type(fast) is type(strict) and (fast.reason if isinstance(fast, RecordFailure) else fast.value) == (
            strict.reason if isinstance(strict, RecordFailure) else strict.value)



@SETTINGS
@given(records, st.sampled_from(RAW_TAILS), st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=2))
def test_other_records_are_accepted_fast_only_when_the_strict_reader_accepts_them(
    value: Any, tail: bytes, flips: list
) -> None:
    data = bytearray(_with_raw_value(value, tail))
    for position, byte in flips:
        data[position % len(data)] = byte
    _assert_same_verdict(bytes(data))


def test_floats_and_big_integers_in_other_records_are_still_refused() -> None:
    post = {"$type": "app.bsky.feed.post", "text": "hi"}
    for tail, why in [(RAW_TAILS[1], "float"), (RAW_TAILS[3], "above the 64-bit maximum"),
                      (RAW_TAILS[4], "below the 64-bit minimum"), (RAW_TAILS[5], "non-minimal")]:
        fast, strict = _both(_with_raw_value(post, tail))
        assert isinstance(fast, RecordFailure) and why in fast.reason, (tail, fast)


# --- the shapes real accounts have: nested $types, blobs, links ---------------------------------

# Links of forms atproto does not write: dag-pb, a sha-512 digest. The strict decoder reads them.
ODD_LINKS = [Cid.from_bytes(bytes((1, 0x70, 0x12, 0x20)) + bytes(range(32))),
             Cid.from_bytes(bytes((1, 0x71, 0x13, 0x40)) + bytes(64))]
# Digests holding the byte patterns of a float (0xfb) and of a large integer (0x1b 0x80): a link
# is not sent to the strict path for them (the reading is searched instead); and those of a
# link's tag (0xd8 0x2a) and of a "$type" key (0x65 "$type"), for which it is.
NUMBERS = Cid.from_bytes(bytes((1, 0x55, 0x12, 0x20)) + b"\xfb\x1b\x80\x3b\xff" + bytes(27))
PATTERNED = Cid.from_bytes(bytes((1, 0x55, 0x12, 0x20)) + b"\xfb\x1b\x80\xd8\x2a\x65$type" + bytes(21))


def _mostly(good: list[Any], odd: list[Any]) -> st.SearchStrategy[Any]:
    """One of ``good``, and now and then (one time in eight) one of ``odd``."""
    return st.integers(0, 7).flatmap(lambda roll: st.sampled_from(odd if roll == 0 else good))


links = _mostly(LINKS + [NUMBERS], ODD_LINKS + [PATTERNED, LINKS[0].to_bytes(), b"\x00" + LINKS[4].to_bytes()])
names = _mostly(["text", "facets", "a", "index", "features", "uri"],
                ["$type", "ref", "mimeType", "size", "$link", "$bytes", "$typ", "e$type"])
type_names = _mostly(["app.bsky.richtext.facet#link", "b", "x" * 30, "blob"],
                     ["", "e$type", -1, None, LINKS[0], b"", LINKS[0].to_bytes()])
blob_fields = {
    "ref": _mostly([*LINKS[:1], LINKS[4], NUMBERS], [*ODD_LINKS, PATTERNED, LINKS[0].to_bytes(), "bafkrei", None]),
    "mimeType": _mostly(["image/jpeg", ""], [0, None, b"a"]),
    "size": _mostly([0, 123_456, 2**63 - 1], [-1, True, "1", None]),
}


@st.composite
def blobs(draw: st.DrawFn) -> dict[str, Any]:
    """Blob-shaped maps, mostly well formed: a link, a type, a size, each sometimes wrong."""
    blob: dict[str, Any] = {"$type": "blob", **{name: draw(field) for name, field in blob_fields.items()}}
    if draw(st.integers(0, 7)) == 0:
        del blob[draw(st.sampled_from(sorted(blob)))]
    if draw(st.integers(0, 7)) == 0:
        blob[draw(names)] = draw(leaves)
    return blob


def _typed(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.builds(lambda kind, rest: {**rest, "$type": kind}, type_names, st.dictionaries(names, inner, max_size=3))


shaped = st.recursive(
    leaves | links | blobs(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3) | _typed(inner),
    max_leaves=10,
)
shaped_records = st.builds(
    lambda kind, rest: {**rest, "$type": kind},
    _mostly(["app.bsky.feed.post", "app.bsky.feed.like"], ["blob", "", 1]),
    st.dictionaries(_mostly(["text", "embed", "facets", "reply"], ["$link", "$bytes", "a"]), shaped, max_size=4),
)


@SETTINGS
@given(shaped_records, st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=2))
@example({"$type": "app.bsky.feed.post", "embed": {"$type": "blob", "ref": LINKS[4], "mimeType": "a", "size": True}}, [])
@example({"$type": "app.bsky.feed.post", "embed": {"$type": "blob", "ref": LINKS[0].to_bytes(), "mimeType": "a",
                                                     "size": 1}}, [])
@example({"$type": "app.bsky.feed.post", "a": {"$type": ""}}, [])
@example({"$type": "app.bsky.feed.post", "a": [{"$type": "blob"}]}, [])
@example({"$type": "app.bsky.feed.post", "a": ODD_LINKS[0]}, [])
@example({"$type": "app.bsky.feed.post", "a": {"b": {"$link": LINKS[0]}}}, [])
def test_records_of_real_shapes_are_accepted_fast_only_when_the_strict_reader_accepts_them(
    value: dict[str, Any], flips: list
) -> None:
    """Nested $types, blobs (well formed or not), links of every form, byte strings that read as
    CIDs, $link and $bytes keys, and the bytes of all of them mutated: the fast path's verdict is
    the strict path's."""
    data = bytearray(encode_dag_cbor(value))
    for position, byte in flips:
        data[position % len(data)] = byte
    _assert_same_verdict(bytes(data))


@SETTINGS
@given(st.lists(st.sampled_from([b"\x65$type", b"\x1b", b"\x3b", b"\xfb", b"\x60", b"\x61", b"\x7b", b"\x7c", b"\x80"])
                | st.binary(max_size=3), max_size=12).map(b"".join))
def test_the_byte_searches_find_what_their_patterns_say(data: bytes) -> None:
    """The searches written with ``find`` for speed answer as the patterns they stand for."""
    assert maybe_outside_model(data) == (re.search(rb"\xfb|[\x1b\x3b][\x80-\xff]", data) is not None)
    assert _odd_type(data) == (re.search(rb"\x65\$type(?![\x61-\x7b])", data) is not None)


def _ref(seed: str) -> dict[str, str]:
    return {"uri": f"at://{DID}/app.bsky.feed.post/{tid(5)}", "cid": str(Cid.for_dag_cbor(seed.encode()))}


def _image(seed: bytes) -> dict[str, Any]:
    return {"$type": "blob", "ref": Cid.for_raw(seed), "mimeType": "image/jpeg", "size": 123_456}


REAL_SHAPES = {
    "a post with a link facet": {
        "$type": "app.bsky.feed.post", "text": "see example.com/1", "createdAt": "2024-01-01T00:00:00.000Z",
        "langs": ["en"], "facets": [{"$type": "app.bsky.richtext.facet", "index": {"byteStart": 4, "byteEnd": 17},
                                     "features": [{"$type": "app.bsky.richtext.facet#link", "uri": "https://example.com/1"}]}]},
    "a post with images": {
        "$type": "app.bsky.feed.post", "text": "two", "createdAt": "2024-01-01T00:00:00.000Z",
        "embed": {"$type": "app.bsky.embed.images", "images": [
            {"alt": "", "image": _image(b"a"), "aspectRatio": {"width": 1200, "height": 800}},
            {"alt": "café", "image": _image(b"b")}]}},
    "a reply quoting a post": {
        "$type": "app.bsky.feed.post", "text": "yes", "createdAt": "2024-01-01T00:00:00.000Z",
        "reply": {"root": _ref("r"), "parent": _ref("p")}, "embed": {"$type": "app.bsky.embed.record", "record": _ref("q")}},
    "a link card with a thumbnail": {
        "$type": "app.bsky.feed.post", "text": "", "createdAt": "2024-01-01T00:00:00.000Z",
        "embed": {"$type": "app.bsky.embed.external", "external": {
            "uri": "https://example.com", "title": "t", "description": "d", "thumb": _image(b"t")}}},
    "a profile": {"$type": "app.bsky.feed.post", "displayName": "A", "avatar": _image(b"av"), "banner": _image(b"bn")},
    "a digest with a float's byte": {"$type": "app.bsky.feed.post", "x": NUMBERS, "y": [LINKS[0]]},
}


def test_the_records_real_accounts_have_take_the_fast_path(monkeypatch: Any) -> None:
    """Posts with facets, images, replies, quotes and link cards, and profiles, are proven by the
    fast path; the strict reader is not called (it was, for each of them, before)."""
    from pdsmem.bridge.atproto import repo

    def strict(*args: Any) -> Any:
        raise AssertionError("the strict path was taken")

    for name, value in REAL_SHAPES.items():
        data = encode_dag_cbor(value)
        store = BlockStore()
        cid = Cid.for_dag_cbor(data)
        store.add(cid, data)
        with store, monkeypatch.context() as patch:
            patch.setattr(repo, "_record", strict)
            key = b"app.bsky.feed.post/" + tid(1).encode()
            assert _other_record(store, Did.parse(DID), key, cid.to_bytes()) is None, name
        assert isinstance(_both(data)[1], RepoRecord), name


# --- pdsmem verify, end to end on a mixed repository ---------------------------------------------


def test_verify_reports_every_kind_of_bad_record_in_other_collections(tmp_path: Path) -> None:
    records = memory_records(3)
    post = {"$type": "app.bsky.feed.post", "text": "hi", "createdAt": "2024-01-01T00:00:00.000Z"}
    paths = {name: f"app.bsky.feed.post/{tid(10 + n)}" for n, name in enumerate(["ok", "float", "unsorted", "type"])}
    records[paths["ok"]] = post
    records[paths["type"]] = dict(post, **{"$type": "app.bsky.feed.like"})
    records[paths["float"]] = post
    records[paths["unsorted"]] = post
    raw = {
        paths["float"]: _with_raw_value(post, RAW_TAILS[1]),
        paths["unsorted"]: b"\xa2" + b"\x65$type\x72app.bsky.feed.post" + b"\x64text\x62hi",  # $type before text
    }
    from devkit.repo_builder import Breakage

    repo = build_repo(records, keypair=KEY, breakage=Breakage(raw_records=raw))
    car = tmp_path / "repo.car"
    car.write_bytes(repo.car)
    report = verify_source(str(car), car=True, signing_key=KEY.did_key)
    broken = {problem.uri.split("/", 3)[3]: problem.reason for problem in report.broken}
    assert set(broken) == {paths["float"], paths["unsorted"]}
    assert "float" in broken[paths["float"]] and "canonical order" in broken[paths["unsorted"]]
    assert [problem.uri.split("/", 3)[3] for problem in report.invalid] == [paths["type"]]
    assert "does not match its collection" in report.invalid[0].reason
    assert report.record_count == 7 and report.memory_records == 3
    assert COLLECTION in {uri.split("/")[0] for uri in records}


def test_records_the_data_model_refuses_are_refused_by_the_fast_path_too() -> None:
    """Canonical bytes are not enough: $link and $bytes keys, a $type of "blob", and links in
    any form but atproto's go to the strict path (found by review)."""
    post = {"$type": "app.bsky.feed.post"}
    raw = b"\x00\x01" + b"\x80" * 9 + b"\x01" + b"\x12\x20" + b"\x11" * 32  # a 10-byte codec varint
    odd_link = encode_dag_cbor(dict(post, x=b"PLACEHOLDER")).replace(
        b"\x4bPLACEHOLDER", b"\xd8\x2a\x58" + bytes([len(raw)]) + raw)
    for data in [encode_dag_cbor(dict(post, x={"$link": "not a cid"})), encode_dag_cbor(dict(post, **{"$bytes": 1})),
                 encode_dag_cbor({"$type": "blob"}), odd_link]:
        fast, strict = _both(data)
        assert isinstance(strict, RecordFailure) and isinstance(fast, RecordFailure), (fast, strict)
        assert fast.reason == strict.reason
