"""Hand-made hostile CAR files: a broken header or root; extra, duplicate and unsupported
blocks; invalid DAG-CBOR in one record among valid ones; odd record CIDs and repository paths;
a bad commit or signature; blocks past the size limit; and files that are not a CAR at all.
"""

from __future__ import annotations

import hashlib
import random
import struct

from devkit.repo_builder import COLLECTION, DID, Breakage, Keypair, build_repo, car_bytes, tid, varint

from pdsmem.bridge.atproto.car import DEFAULT_MAX_BLOCK_SIZE
from pdsmem.mapping.datamodel import Cid, encode_dag_cbor

from .cars import (
    BASE,
    KEY,
    OTHER_KEY,
    PATHS,
    RECORDS,
    REV,
    SECTIONS,
    CarCase,
    odd_cid,
    signed_commit,
    with_header,
    assemble,
    encoded,
    record_entries,
    uri,
)


def header_cases() -> list[CarCase]:
    root = BASE.commit_cid
    mst_root, record_cid = BASE.data_cid, BASE.record_cids[PATHS[0]]
    commit_bytes = BASE.car[SECTIONS[1].start + SECTIONS[1].prefix + SECTIONS[1].cid_size: SECTIONS[1].end]
    digest512 = hashlib.sha512(commit_bytes).digest()
    digest256 = hashlib.sha256(commit_bytes).digest()
    raw_block = b"not a commit"
    raw_cid = odd_cid(1, 0x55, 0x12, hashlib.sha256(raw_block).digest())
    cases = [
        CarCase("header-no-roots", with_header({"version": 1, "roots": []}), refused="exactly one root"),
        CarCase("header-two-roots", with_header({"version": 1, "roots": [root, root]}), refused="exactly one root"),
        CarCase("header-without-roots", with_header({"version": 1}), refused="'roots' must be a list"),
        CarCase("header-root-a-string", with_header({"version": 1, "roots": [str(root)]}),
                refused="'roots' must be a list of CID links"),
        CarCase("header-version-2", with_header({"version": 2, "roots": [root]}), refused="'version' is 2;"),
        CarCase("header-without-version", with_header({"roots": [root]}), refused="'version' is null;"),
        # True == 1 in Python, and a version of true passed once.
        CarCase("header-version-true", with_header({"version": True, "roots": [root]}),
                refused="'version' is a boolean;"),
        CarCase("header-version-a-map", with_header({"version": {"a": 1}, "roots": [root]}),
                refused="'version' is an object;"),
        CarCase("header-a-list", with_header([1, [root]]), refused="must be a map"),
        CarCase("header-an-integer", with_header(1), refused="must be a map"),
        CarCase("header-not-cbor", varint(4) + b"\xff\xfe\xfd\xfc" + BASE.car[SECTIONS[0].end:],
                refused="not valid DAG-CBOR"),
        CarCase("carv2-pragma", bytes.fromhex("0aa16776657273696f6e02") + b"\x00" * 40, refused="'version' is 2;"),
        CarCase("root-is-the-mst-root", with_header({"version": 1, "roots": [mst_root]}),
                refused="not a commit: missing", open_says="names no repository DID"),
        CarCase("root-is-a-record", with_header({"version": 1, "roots": [record_cid]}),
                refused="not a commit: missing", open_says="names no repository DID"),
        CarCase("root-is-a-raw-block", car_bytes([raw_cid], [(raw_cid, raw_block)]), refused="not valid DAG-CBOR"),
        CarCase("root-absent", with_header({"version": 1, "roots": [Cid.for_dag_cbor(b"\xa0")]}),
                refused="is not in the CAR"),
        CarCase("root-cid-sha-512", with_header({"version": 1, "roots": [odd_cid(1, 0x71, 0x13, digest512)]}),
                refused="is not a CIDv1 with dag-cbor/raw and sha-256"),
        CarCase("root-cid-dag-pb", with_header({"version": 1, "roots": [odd_cid(1, 0x70, 0x12, digest256)]}),
                refused="is not a CIDv1 with dag-cbor/raw and sha-256"),
        CarCase("root-cid-v0", with_header({"version": 1, "roots": [odd_cid(0, 0, 0x12, digest256)]}),
                refused="is not a CIDv1 with dag-cbor/raw and sha-256"),
        CarCase("header-only", BASE.car[:SECTIONS[0].end], refused="is not in the CAR"),
        CarCase("car-twice", BASE.car + BASE.car, refused="bad CID in CAR section"),
    ]
    return cases


# --- blocks ---------------------------------------------------------------------------------


def broken(**knobs: object) -> bytes:
    """The four-record repository with ``devkit.repo_builder.Breakage(**knobs)`` applied."""
    return build_repo(RECORDS, keypair=KEY, breakage=Breakage(**knobs)).car  # type: ignore[arg-type]


def _blocks_of(car: bytes) -> list[tuple[Cid, bytes]]:
    out = []
    for s in SECTIONS[1:]:
        data_start = s.start + s.prefix + s.cid_size
        out.append((Cid.read(car[s.start + s.prefix: data_start], 0)[0], car[data_start:s.end]))
    return out


def block_cases() -> list[CarCase]:
    blocks = _blocks_of(BASE.car)
    extra = [encode_dag_cbor({"unrelated": n}) for n in range(3)]
    raw = b"some raw bytes"
    raw_cid = odd_cid(1, 0x55, 0x12, hashlib.sha256(raw).digest())
    junk = b"\xff\xff not cbor"
    junk_cid = Cid.for_dag_cbor(junk)
    many = [(Cid.for_dag_cbor(d), d) for d in (encode_dag_cbor(n) for n in range(1000))]
    record_block = blocks[-1]
    tampered = (record_block[0], record_block[1][:-1] + bytes([record_block[1][-1] ^ 1]))
    digest = hashlib.sha256(raw).digest()
    odd = {
        "sha-512": odd_cid(1, 0x71, 0x13, hashlib.sha512(raw).digest()),
        "dag-pb": odd_cid(1, 0x70, 0x12, digest),
        "v0": odd_cid(0, 0, 0x12, digest),
        "identity-hash": odd_cid(1, 0x71, 0x00, raw),
        "sha-256-truncated-digest": odd_cid(1, 0x71, 0x12, digest[:16]),
    }
    cases = [
        CarCase("extra-unreferenced-blocks", broken(extra_blocks=extra)),
        CarCase("every-block-twice", broken(duplicate_blocks=True)),
        CarCase("extra-raw-codec-block", car_bytes([BASE.commit_cid], [*blocks, (raw_cid, raw)])),
        CarCase("extra-block-of-invalid-cbor", car_bytes([BASE.commit_cid], [*blocks, (junk_cid, junk)])),
        CarCase("blocks-in-reverse-order", car_bytes([BASE.commit_cid], blocks[::-1])),
        CarCase("a-thousand-extra-blocks", car_bytes([BASE.commit_cid], [*blocks, *many])),
        CarCase("duplicate-block-with-other-bytes", car_bytes([BASE.commit_cid], [*blocks, tampered]),
                refused="do not match their CID"),
        CarCase("record-byte-flipped-after-hashing",
                broken(flip_byte_in=PATHS[2]),
                refused="do not match their CID"),
        CarCase("block-cid-v2",
                car_bytes([BASE.commit_cid], blocks) + varint(40) + b"\x02\x71\x12\x20" + digest + b"\x00" * 4,
                refused="has version 2"),
        CarCase("block-cid-garbage", car_bytes([BASE.commit_cid], blocks) + varint(20) + b"\xff" * 20,
                refused="bad CID in CAR section"),
    ]
    cases += [CarCase(f"block-cid-{name}", car_bytes([BASE.commit_cid], [*blocks, (cid.to_bytes(), raw)]),
                      refused="unsupported CID") for name, cid in odd.items()]
    return cases


BAD_CBOR = {
    "empty": b"",
    "truncated-map": b"\xa1",
    "float": b"\xa1\x61a\xfb" + struct.pack(">d", 1.5),
    "half-float": b"\xa1\x61a\xf9\x3c\x00",
    "indefinite-length-map": b"\xbf\x61a\x01\xff",
    "integer-key": b"\xa1\x01\x02",
    "duplicate-keys": b"\xa2\x61a\x01\x61a\x02",
    "unsorted-keys": b"\xa2\x62bb\x01\x61a\x02",
    "tag-0-datetime": b"\xa1\x61a\xc0\x61x",
    "undefined": b"\xa1\x61a\xf7",
    "trailing-bytes": b"\xa1\x61a\x01\x00",
    "non-minimal-integer": b"\xa1\x61a\x18\x01",
    "deep-nesting-5000": b"\xa1\x61a" * 5000 + b"\x01",
    "string-claims-2-to-the-64-bytes": b"\xa1\x61a\x7b" + b"\xff" * 8,
    "array-claims-2-to-the-63-items": b"\xa1\x61a\x9b\x7f" + b"\xff" * 7,
    "link-tag-with-bad-cid": b"\xa1\x61a\xd8\x2a\x45\x00\x01\x02\x03\x04",
    "invalid-utf8-text": b"\xa1\x61a\x62\xff\xfe",
    "bignum-tag": b"\xa1\x61a\xc2\x41\x01",
}


def record_block_cases() -> list[CarCase]:
    target = PATHS[1]  # the one record broken; the three others stay valid
    cases = []
    for name, data in BAD_CBOR.items():
        car = broken(raw_records={target: data})
        cases.append(CarCase(f"record-cbor-{name}", car, broken_blocks={target: "not valid DAG-CBOR"}))
    shapes = {
        "a-list": (encode_dag_cbor([1, 2]), "record is not a map"),
        "without-type": (encode_dag_cbor({"content": "x"}), "no '$type' string"),
        "type-an-integer": (encode_dag_cbor({"$type": 5, "content": "x"}), "no '$type' string"),
        "a-bare-integer": (encode_dag_cbor(7), "record is not a map"),
    }
    for name, (data, says) in shapes.items():
        car = broken(raw_records={target: data})
        cases.append(CarCase(f"record-{name}", car, broken_blocks={target: says}))
    cases.append(CarCase("record-block-missing", broken(drop_records={PATHS[0], PATHS[3]}),
                         broken_blocks={PATHS[0]: "missing from the CAR", PATHS[3]: "missing from the CAR"}))
    cases.append(CarCase("mst-node-missing", broken(drop_mst_node=True), refused="MST node is missing"))
    invalid = {
        "content-an-integer": ({"content": 42}, "must be a string"),
        "content-10001-bytes": ({"content": "x" * 10_001}, "at most 10000 bytes"),
        "created-yesterday": ({"createdAt": "yesterday"}, "must be a valid datetime"),
        "supersedes-21": ({"supersedes": [uri(PATHS[0])] * 21}, "at most 20 items"),
        "type-of-another-collection": ({"$type": "app.bsky.feed.post"}, "$type"),
    }
    for name, (change, says) in invalid.items():
        records = dict(RECORDS, **{target: dict(RECORDS[target], **change)})
        cases.append(CarCase(f"record-invalid-{name}", build_repo(records, keypair=KEY).car,
                             invalid_records={target: says}))
    return cases


def cid_and_path_cases() -> list[CarCase]:
    entries = record_entries()
    raw = b"raw bytes posing as a record"
    as_raw = dict(entries, **{PATHS[2]: (odd_cid(1, 0x55, 0x12, hashlib.sha256(raw).digest()), raw)})
    as_512 = dict(entries, **{PATHS[2]: (odd_cid(1, 0x71, 0x13, hashlib.sha512(raw).digest()), None)})
    as_pb = dict(entries, **{PATHS[2]: (odd_cid(1, 0x70, 0x12, hashlib.sha256(raw).digest()), None)})
    other_collection = dict(entries, **{"com.example.note/3lbt4ilkfw22s": (Cid.for_dag_cbor(b"\xa1"), b"\xa1")})
    bad_paths = {
        "two-slashes": (f"{COLLECTION}/{tid(1)}/more", "bad repository path"),
        "rkey-dot-dot": (f"{COLLECTION}/..", "bad repository path"),
    }
    cases = [
        CarCase("record-cid-raw-codec", assemble(as_raw), broken_blocks={PATHS[2]: "is not a dag-cbor sha-256 CIDv1"}),
        CarCase("record-cid-sha-512", assemble(as_512), broken_blocks={PATHS[2]: "is not a dag-cbor sha-256 CIDv1"}),
        CarCase("record-cid-dag-pb", assemble(as_pb), broken_blocks={PATHS[2]: "is not a dag-cbor sha-256 CIDv1"}),
        CarCase("broken-record-in-another-collection", assemble(other_collection), entries=5,
                broken_blocks={"com.example.note/3lbt4ilkfw22s": "not valid DAG-CBOR"}),
        CarCase("path-without-collection", assemble(dict(entries, noslash=encoded(RECORDS[PATHS[0]]))), entries=5,
                broken_blocks={"noslash": "bad repository path"}),
    ]
    for name, (path, says) in bad_paths.items():
        cases.append(CarCase(f"path-{name}", assemble(dict(entries, **{path: encoded(RECORDS[PATHS[0]])})),
                             entries=5, memory=5, broken_blocks={path: says}))
    for name, rkey in {"self": "self", "twelve-characters": REV[:12], "upper-case": REV.upper()}.items():
        path = f"{COLLECTION}/{rkey}"
        cases.append(CarCase(f"memory-record-key-not-a-tid-{name}",
                             assemble(dict(entries, **{path: encoded(RECORDS[PATHS[0]])})),
                             entries=5, memory=5, invalid_records={path: f"record key '{rkey}' is not a valid tid"}))
    cases.append(CarCase("mst-key-not-utf8", _non_utf8_key_car(), refused="MST key is not UTF-8"))
    return cases


def _non_utf8_key_car() -> bytes:
    cid, data = encoded(RECORDS[PATHS[0]])
    node = encode_dag_cbor({"e": [{"p": 0, "k": COLLECTION.encode() + b"/\xff\xfe", "v": cid, "t": None}], "l": None})
    node_cid = Cid.for_dag_cbor(node)
    commit_cid, commit = signed_commit({"did": DID, "version": 3, "data": node_cid, "rev": REV, "prev": None})
    return car_bytes([commit_cid], [(commit_cid, commit), (node_cid, node), (cid, data)])


# --- the commit and its signature ------------------------------------------------------------


def commit_cases() -> list[CarCase]:
    entries = record_entries()
    sig = "signature does not verify"

    def with_sig(value: object) -> bytes:
        return assemble(entries, commit={"sig": value}, sign=False)

    signature = KEY.sign(b"unrelated bytes")
    p256 = Keypair.from_private_bytes(hashlib.sha256(b"p256").digest(), alg="ES256")
    return [
        CarCase("signed-by-another-key", broken(signer=OTHER_KEY),
                refused=sig),
        CarCase("signed-by-a-p256-key", assemble(entries, signer=p256), refused=sig),
        CarCase("signature-high-s", broken(high_s=True), refused=sig),
        CarCase("signature-of-other-bytes", with_sig(signature), refused=sig),
        CarCase("signature-truncated", with_sig(signature[:63]), refused=sig),
        CarCase("signature-empty", with_sig(b""), refused=sig),
        CarCase("signature-der-length", with_sig(b"\x30\x44" + signature + b"\x00\x00\x00\x00\x00\x00"), refused=sig),
        CarCase("signature-a-string", with_sig("sig"), refused="'sig' must be a byte string"),
        CarCase("signature-missing", assemble(entries, sign=False), refused="missing sig"),
        CarCase("commit-names-another-did",
                broken(commit_did="did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"),
                refused="commit names"),
        CarCase("commit-did-an-integer", assemble(entries, commit={"did": 5}), refused="commit names 5",
                open_says="names no repository DID"),
        CarCase("commit-version-2", assemble(entries, commit={"version": 2}), refused="commit version 2"),
        CarCase("commit-version-a-string", assemble(entries, commit={"version": "3"}), refused="commit version '3'"),
        CarCase("commit-rev-not-a-tid", assemble(entries, commit={"rev": "yesterday"}), refused="is not a TID"),
        CarCase("commit-rev-an-integer", assemble(entries, commit={"rev": 5}), refused="is not a TID"),
        CarCase("commit-data-a-string", assemble(entries, commit={"data": "bafy"}), refused="commit 'data' must be"),
        CarCase("commit-data-absent-node", assemble(entries, commit={"data": Cid.for_dag_cbor(b"\xa0")}),
                refused="MST node is missing"),
        CarCase("commit-prev-garbage", assemble(entries, commit={"prev": "x"}), refused="commit 'prev' must be"),
        CarCase("commit-a-list", _root_block(encode_dag_cbor([1, 2])), refused="not a commit object",
                open_says="names no repository DID"),
        CarCase("commit-deep-nesting", _root_block(b"\xa1\x61a" * 5000 + b"\x01"), refused="not valid DAG-CBOR"),
        CarCase("commit-float", _root_block(b"\xa1\x61a\xfb" + struct.pack(">d", 0.5)), refused="not valid DAG-CBOR"),
    ]


def _root_block(data: bytes) -> bytes:
    cid = Cid.for_dag_cbor(data)
    return car_bytes([cid], [(cid, data)])


# --- size, and not a CAR at all ------------------------------------------------------------


def size_cases() -> list[CarCase]:
    over = dict(RECORDS, **{PATHS[1]: dict(RECORDS[PATHS[1]], pad="x" * (DEFAULT_MAX_BLOCK_SIZE + 1))})
    under = dict(RECORDS, **{PATHS[1]: dict(RECORDS[PATHS[1]], pad="x" * (DEFAULT_MAX_BLOCK_SIZE - 1000))})
    return [
        CarCase("record-block-over-the-size-limit", build_repo(over, keypair=KEY).car, refused="exceeds"),
        CarCase("record-block-just-under-the-size-limit", build_repo(under, keypair=KEY).car),
    ]


def not_a_car_cases() -> list[CarCase]:
    cases = [
        CarCase("zeros", b"\x00" * 1024, refused="is not within"),
        CarCase("all-ff", b"\xff" * 1024, refused="longer than 9 bytes"),
        CarCase("json-text", b'{"version":1,"roots":[]}\n', refused="(it looks like JSON text, not a CAR file"),
        CarCase("gzip-magic", b"\x1f\x8b\x08\x00" + b"\x00" * 60, refused="at byte"),
        CarCase("pdf-header", b"%PDF-1.7\n" + b"x" * 100, refused="at byte"),
    ]
    for seed in range(12):
        rng = random.Random(seed)
        data = rng.randbytes(rng.choice([1, 7, 64, 1000, 70_000]))
        cases.append(CarCase(f"random-bytes-seed-{seed}-{len(data)}-bytes", data, refused="at byte"))
    for seed in range(4):  # a plausible header, then noise
        rng = random.Random(100 + seed)
        cases.append(CarCase(f"header-then-random-bytes-seed-{seed}",
                             BASE.car[:SECTIONS[0].end] + rng.randbytes(500), refused="at byte"))
    return cases


def all_cases() -> list[CarCase]:
    return (header_cases() + block_cases() + record_block_cases() + cid_and_path_cases()
            + commit_cases() + size_cases() + not_a_car_cases())
