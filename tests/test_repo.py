"""Repository verification: signatures, keys, the MST (built and walked), commits and records."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from atproto_crypto.multibase import bytes_to_multibase, multibase_to_bytes
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from devkit.repo_builder import (
    COLLECTION, DID, Breakage, Keypair, build_repo, car_bytes, memory_records, tid,
)

from pdsmem.bridge.atproto.car import BlockStore, read_car
from pdsmem.bridge.atproto.repo import (
    Commit, RecordFailure, RepoRecord, build_mst, common_prefix_len, iter_records, key_depth,
    normalize_signing_key, verify_commit, verify_repo, verify_signature, walk_mst,
)
from pdsmem.errors import VerificationError
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor, encode_dag_cbor
from pdsmem.mapping.syntax import Did, Tid

FIXTURES = Path(__file__).parent / "fixtures" / "interop"
KEY = Keypair.generate()
OTHER_KEY = Keypair.generate()
LEAF = Cid.decode("bafyreie5cvv4h45feadgeuwhbcutmh6t2ceseocckahdoe6uat64zmz454")


def load(relative: str) -> Any:
    return json.loads((FIXTURES / relative).read_text())


def b64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def store_of(*blocks: bytes) -> BlockStore:
    store = BlockStore()
    for data in blocks:
        store.add(Cid.for_dag_cbor(data), data)
    return store


def node(entries: list[tuple[str, int, Cid | None]], left: Cid | None = None) -> bytes:
    """An MST node holding ``(key, prefix length, subtree)`` entries, all pointing at LEAF."""
    out = [{"p": p, "k": key.encode()[p:], "v": LEAF, "t": tree} for key, p, tree in entries]
    return encode_dag_cbor({"e": out, "l": left})


def keys_at(depth: int, count: int, prefix: str = f"{COLLECTION}/") -> list[str]:
    found = []
    micros = 1_700_000_000_000_000
    while len(found) < count:
        key = prefix + tid(micros)
        if key_depth(key) == depth:
            found.append(key)
        micros += 1_000_003
    return sorted(found)


# --- keys and signatures -----------------------------------------------------------------


@pytest.mark.parametrize("case", load("crypto/signature-fixtures.json"), ids=lambda c: c["comment"])
def test_signature_fixtures_are_all_judged_right(case: dict[str, Any]) -> None:
    message, signature = b64(case["messageBase64"]), b64(case["signatureBase64"])
    did_key = normalize_signing_key(case["publicKeyMultibase"], suite=case["didDocSuite"])
    assert did_key == case["publicKeyDid"]
    assert verify_signature(did_key, message, signature) is case["validSignature"]


def _w3c_cases() -> Iterator[Any]:
    for case in load("crypto/w3c_didkey_K256.json"):
        raw = bytes.fromhex(case["privateKeyBytesHex"])
        yield pytest.param(Keypair.from_private_bytes(raw), case["publicDidKey"], id="K-256")
    for case in load("crypto/w3c_didkey_P256.json"):
        raw = multibase_to_bytes("z" + case["privateKeyBytesBase58"])
        keypair = Keypair.from_private_bytes(raw, "ES256")
        yield pytest.param(keypair, case["publicDidKey"], id="P-256")


@pytest.mark.parametrize(("keypair", "did_key"), list(_w3c_cases()))
def test_w3c_did_keys_parse_and_verify(keypair: Keypair, did_key: str) -> None:
    assert keypair.did_key == did_key
    assert normalize_signing_key(did_key) == did_key
    message = b"an unsigned commit"
    assert verify_signature(did_key, message, keypair.sign(message))
    assert not verify_signature(did_key, message, keypair.sign(message, high_s=True))
    assert not verify_signature(did_key, b"another message", keypair.sign(message))
    padded = keypair.sign(message)
    padded = padded[:32] + b"\x00" + padded[32:]  # same r and s as integers, but 65 bytes
    assert not verify_signature(did_key, message, padded)


@pytest.mark.parametrize(
    ("key", "suite", "expected"),
    [
        ("did:key:zQ3shBAD", "Multikey", "is not a P-256 or K-256 public key"),
        ("did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", "Multikey", "not a P-256"),
        ("zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme", "JsonWebKey2020", "unsupported"),
        ("", "Multikey", "is not a P-256 or K-256 public key"),
    ],
)
def test_bad_signing_keys_are_refused(key: str, suite: str, expected: str) -> None:
    with pytest.raises(VerificationError, match=expected):
        normalize_signing_key(key, suite=suite)


def test_multikey_form_is_the_did_key_without_its_prefix() -> None:
    assert normalize_signing_key(KEY.did_key.removeprefix("did:key:")) == KEY.did_key


# --- MST: building -----------------------------------------------------------------------


@pytest.mark.parametrize("case", load("mst/key_heights.json"), ids=lambda c: c["key"] or "empty")
def test_key_heights(case: dict[str, Any]) -> None:
    assert key_depth(case["key"]) == case["height"]


@pytest.mark.parametrize("case", load("mst/common_prefix.json"), ids=repr)
def test_common_prefix(case: dict[str, Any]) -> None:
    assert common_prefix_len(case["left"], case["right"]) == case["len"]


@pytest.mark.parametrize(
    "case", load("firehose/commit-proof-fixtures.json"), ids=lambda c: c["comment"]
)
def test_build_mst_reproduces_commit_proof_roots(case: dict[str, Any]) -> None:
    leaf = Cid.decode(case["leafValue"])
    before = set(case["keys"])
    after = (before | set(case["adds"])) - set(case["dels"])
    root_before, _ = build_mst((key, leaf) for key in before)
    root_after, blocks = build_mst((key, leaf) for key in after)
    assert str(root_before) == case["rootBeforeCommit"]
    assert str(root_after) == case["rootAfterCommit"]
    assert {str(cid) for cid in blocks} >= set(case["blocksInProof"])


# Root CIDs published with the reference implementations' shared MST interop tests.
_SUFFIXES = "com.example.record/3jqfcqzm"
KNOWN_ROOTS = [
    ("bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm", []),
    ("bafyreibj4lsc3aqnrvphp5xmrnfoorvru4wynt6lwidqbm2623a6tatzdu", ["3fo2j"]),
    ("bafyreih7wfei65pxzhauoibu3ls7jgmkju4bspy4t2ha2qdjnzqvoy33ai", ["3fx2j"]),
    ("bafyreicmahysq4n6wfuxo522m6dpiy7z7qzym3dzs756t5n7nfdgccwq7m",
     ["3fp2j", "3fr2j", "3fs2j", "3ft2j", "4fc2j"]),
    ("bafyreifnqrwbk6ffmyaz5qtujqrzf5qmxf7cbxvgzktl4e3gabuxbtatv4",
     ["3fn2j", "3fo2j", "3fp2j", "3fs2j", "3ft2j", "3fu2j"]),
    ("bafyreid2x5eqs4w4qxvc5jiwda4cien3gw2q6cshofxwnvv7iucrmfohpm",
     ["3fo2j", "3fp2j", "3fr2j", "3fs2j", "3ft2j", "3fx2j", "3fz2j", "4fc2j", "4fd2j", "4ff2j",
      "4fg2j", "4fh2j"]),
    ("bafyreig4jv3vuajbsybhyvb7gggvpwh2zszwfyttjrj6qwvcsp24h6popu",
     ["3ft2j", "3fx2j", "3fz2j", "4fd2j"]),
]


@pytest.mark.parametrize(("root", "suffixes"), KNOWN_ROOTS, ids=lambda v: str(v)[:16])
def test_build_mst_reproduces_known_roots(root: str, suffixes: list[str]) -> None:
    built, blocks = build_mst((_SUFFIXES + suffix, LEAF) for suffix in suffixes)
    assert str(built) == root
    with store_of(*blocks.values()) as store:
        assert list(walk_mst(store, built)) == [(_SUFFIXES + s, LEAF) for s in sorted(suffixes)]


def test_example_keys_round_trip_through_build_and_walk() -> None:
    keys = (FIXTURES / "mst" / "example_keys.txt").read_text().split()
    values = {key: Cid.for_dag_cbor(encode_dag_cbor({"k": key})) for key in keys}
    root, blocks = build_mst(values.items())
    assert {key_depth(key) for key in keys} == set(range(6))
    with store_of(*blocks.values()) as store:
        assert list(walk_mst(store, root)) == sorted(values.items())
    assert build_mst(reversed(list(values.items())))[0] == root  # order of input is irrelevant


def test_build_mst_refuses_duplicate_and_empty_keys() -> None:
    with pytest.raises(ValueError, match="distinct"):
        build_mst([("a/b", LEAF), ("a/b", Cid.for_raw(b"other"))])
    with pytest.raises(ValueError, match="non-empty"):
        build_mst([("", LEAF)])


# --- MST: walking malformed trees ---------------------------------------------------------


def walk_error(root_block: bytes, *others: bytes) -> str:
    with store_of(root_block, *others) as store:
        with pytest.raises(VerificationError) as caught:
            list(walk_mst(store, Cid.for_dag_cbor(root_block)))
    return str(caught.value)


@pytest.mark.parametrize("pick", [lambda a, b: (b, a), lambda a, b: (a, a)], ids=["swap", "dup"])
def test_keys_out_of_order_or_repeated(pick: Any) -> None:
    first, second = pick(*keys_at(0, 2))
    bad = node([(first, 0, None), (second, common_prefix_len(first, second), None)])
    assert "keys out of order" in walk_error(bad)


def test_key_at_the_wrong_depth() -> None:
    low, high = keys_at(0, 1)[0], keys_at(1, 1)[0]
    pair = sorted([low, high])
    bad = node([(pair[0], 0, None), (pair[1], common_prefix_len(*pair), None)])
    assert "but sits in a node of depth" in walk_error(bad)


def test_prefix_compression_must_be_exact() -> None:
    first, second = keys_at(0, 2)
    bad = node([(first, 0, None), (second, 0, None)])
    assert "is not the shared prefix" in walk_error(bad)


def test_prefix_longer_than_previous_key() -> None:
    key = keys_at(0, 1)[0]
    bad = encode_dag_cbor({"e": [{"p": 5, "k": key.encode(), "v": LEAF, "t": None}], "l": None})
    assert "prefix 5 is longer than the previous key" in walk_error(bad)


def test_a_key_longer_than_any_repository_path_is_refused_before_it_is_built() -> None:
    long_key = b"a/" + b"b" * 1_000_000
    entries = [{"p": 0, "k": long_key, "v": LEAF, "t": None}]
    entries += [{"p": 1_000_000, "k": bytes([n % 200 + 50]), "v": LEAF, "t": None} for n in range(1_000)]
    bad = encode_dag_cbor({"e": entries, "l": None})
    assert "entry 0: a key of 1,000,002 bytes; a repository path (collection/record key) has at most 1,024" \
        in walk_error(bad)


def test_leaf_node_may_not_link_down() -> None:
    key = keys_at(0, 1)[0]
    child = node([(keys_at(0, 2)[1], 0, None)])
    bad = node([(key, 0, Cid.for_dag_cbor(child))])
    assert "depth 0 links to a sub-tree" in walk_error(bad, child)


def test_root_may_not_be_an_empty_node_pointing_down() -> None:
    child = node([(keys_at(0, 1)[0], 0, None)])
    bad = node([], left=Cid.for_dag_cbor(child))
    assert "MST root is an empty node that only points to a sub-tree" in walk_error(bad, child)


def test_empty_node_below_the_root() -> None:
    empty = node([])
    key = keys_at(1, 1)[0]
    bad = node([(key, 0, None)], left=Cid.for_dag_cbor(empty))
    assert "empty MST node below the root" in walk_error(bad, empty)


def test_subtree_link_must_be_dag_cbor() -> None:
    raw_link = Cid.for_raw(b"x")
    bad = node([(keys_at(1, 1)[0], 0, None)], left=raw_link)
    assert "'l' must be null or a dag-cbor" in walk_error(bad)


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        (encode_dag_cbor([1, 2]), "must be a map with an 'e' list"),
        (encode_dag_cbor({"e": [7], "l": None}), "entry 0 must be a map"),
        (encode_dag_cbor({"e": [{"p": 0, "k": "text", "v": LEAF, "t": None}], "l": None}),
         "'k' must be bytes"),
        (encode_dag_cbor({"e": [{"p": -1, "k": b"a", "v": LEAF, "t": None}], "l": None}),
         "'p' must be a non-negative integer"),
        (encode_dag_cbor({"e": [{"p": 0, "k": b"", "v": LEAF, "t": None}]}), "empty key"),
        (b"\xa1\x61e\x9f\xff", "not valid DAG-CBOR"),
    ],
)
def test_malformed_nodes(block: bytes, expected: str) -> None:
    assert expected in walk_error(block)


def test_missing_mst_node_is_an_error_not_fewer_records() -> None:
    repo = build_repo(memory_records(40), keypair=KEY, breakage=Breakage(drop_mst_node=True))
    _, store = read_car([repo.car])
    with store, pytest.raises(VerificationError, match="MST node is missing from the CAR"):
        list(walk_mst(store, repo.data_cid))


# --- commits -----------------------------------------------------------------------------


def commit_error(repo_car: bytes, **options: Any) -> VerificationError:
    root, store = read_car([repo_car])
    with store, pytest.raises(VerificationError) as caught:
        verify_commit(store, root, **{"did": DID, "signing_key_did_key": KEY.did_key, **options})
    return caught.value


def test_good_commit() -> None:
    repo = build_repo(memory_records(5), keypair=KEY, rev="3lbt4ilkfw22s")
    root, store = read_car([repo.car])
    with store:
        commit = verify_commit(store, root, did=DID, signing_key_did_key=KEY.did_key)
    assert (commit.did, commit.rev, commit.data) == (DID, "3lbt4ilkfw22s", repo.data_cid)
    assert commit.prev is None and len(commit.sig) == 64


def test_p256_signed_commit() -> None:
    key = Keypair.generate("ES256")
    repo = build_repo(memory_records(2), keypair=key)
    root, store = read_car([repo.car])
    with store:
        assert verify_commit(store, root, did=DID, signing_key_did_key=key.did_key).did == DID


def test_commit_signed_by_another_key() -> None:
    repo = build_repo(memory_records(3), keypair=KEY, breakage=Breakage(signer=OTHER_KEY))
    error = commit_error(repo.car)
    assert "commit signature does not verify against signing key" in str(error)
    assert error.did == DID


def test_high_s_commit_signature() -> None:
    repo = build_repo(memory_records(3), keypair=KEY, breakage=Breakage(high_s=True))
    assert "signature does not verify" in str(commit_error(repo.car))


def test_commit_naming_another_did() -> None:
    breakage = Breakage(commit_did="did:plc:someoneelse")
    repo = build_repo(memory_records(3), keypair=KEY, breakage=breakage)
    assert f"commit names 'did:plc:someoneelse', expected {DID}" in str(commit_error(repo.car))


def test_rollback_is_refused_and_same_rev_is_not() -> None:
    repo = build_repo(memory_records(3), keypair=KEY, rev="3lbt4ilkfw22s")
    error = str(commit_error(repo.car, min_rev="3lbt4ilkfw23a"))
    assert "rollback: commit rev 3lbt4ilkfw22s is older than the already synced rev" in error
    root, store = read_car([repo.car])
    with store:
        verify_commit(store, root, did=DID, signing_key_did_key=KEY.did_key, min_rev=repo.rev)


def test_root_that_is_not_a_commit() -> None:
    record = encode_dag_cbor({"$type": COLLECTION, "content": "x"})
    car = car_bytes([Cid.for_dag_cbor(record)], [(Cid.for_dag_cbor(record), record)])
    expected = "the root block is not a commit: missing did, version, data, rev, sig"
    assert expected in str(commit_error(car))


def _resigned(change: dict[str, Any], sign: Any = KEY.sign) -> bytes:
    """A one-record repo whose commit has ``change`` applied, then signed with ``sign``."""
    repo = build_repo(memory_records(1), keypair=KEY)
    root, store = read_car([repo.car])
    with store:
        commit = decode_dag_cbor(store.get(root))
        blocks = [(cid, store.get(cid)) for cid in store if cid != root]
    assert isinstance(commit, dict)
    commit.pop("sig")
    commit.update(change)
    commit["sig"] = sign(encode_dag_cbor(commit))
    data = encode_dag_cbor(commit)
    return car_bytes([Cid.for_dag_cbor(data)], [(Cid.for_dag_cbor(data), data), *blocks])


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"version": 2}, "commit version 2 is not supported (expected 3)"),
        ({"rev": "not-a-tid"}, "commit 'rev' 'not-a-tid' is not a TID"),
        ({"data": Cid.for_raw(b"x")}, "'data' must be a dag-cbor sha-256 CIDv1 link"),
        ({"prev": "nope"}, "'prev' must be null or a dag-cbor"),
    ],
)
def test_malformed_commits(change: dict[str, Any], expected: str) -> None:
    assert expected in str(commit_error(_resigned(change)))


def test_der_encoded_commit_signature() -> None:
    def der(data: bytes) -> bytes:
        return KEY.private.sign(data, ec.ECDSA(hashes.SHA256()))

    assert "signature does not verify" in str(commit_error(_resigned({}, sign=der)))


# --- records -----------------------------------------------------------------------------


def records_of(car: bytes, **options: Any) -> list[RepoRecord | RecordFailure]:
    with verify_repo([car], did=DID, signing_key=KEY.did_key) as repo:
        return list(repo.records(**options))


def test_records_come_back_verified_in_key_order() -> None:
    records = memory_records(25)
    repo = build_repo(records, keypair=KEY)
    items = records_of(repo.car)
    assert all(isinstance(item, RepoRecord) for item in items)
    assert [item.uri for item in items] == [f"at://{DID}/{path}" for path in sorted(records)]
    for item in items:
        assert isinstance(item, RepoRecord)
        path = f"{item.collection}/{item.rkey}"
        assert item.value == records[path] and item.cid == repo.record_cids[path]
        assert Cid.for_dag_cbor(item.raw) == item.cid


def test_json_form_of_links_and_bytes() -> None:
    value = {"$type": COLLECTION, "ref": {"$link": str(LEAF)}, "blob": {"$bytes": "aGVsbG8"}}
    repo = build_repo({f"{COLLECTION}/{tid(1)}": value}, keypair=KEY)
    (item,) = records_of(repo.car)
    assert isinstance(item, RepoRecord) and item.value == value


def test_collection_filter() -> None:
    records = memory_records(4)
    records["app.bsky.feed.post/3lbt4ilkfw22s"] = {"$type": "app.bsky.feed.post", "text": "hi"}
    repo = build_repo(records, keypair=KEY)
    assert len(records_of(repo.car)) == 5
    only = records_of(repo.car, collection=COLLECTION)
    assert [item.uri.split("/")[3] for item in only] == [COLLECTION] * 4
    with verify_repo([repo.car], did=DID, signing_key=KEY.did_key, collection=COLLECTION) as v:
        assert v.record_count == 5 and len(list(v.records())) == 4


def _one_bad(breakage_for: Any) -> tuple[list[RepoRecord | RecordFailure], str]:
    records = memory_records(5)
    bad_path = sorted(records)[2]
    repo = build_repo(records, keypair=KEY, breakage=breakage_for(bad_path))
    return records_of(repo.car), f"at://{DID}/{bad_path}"


def _failure_and_others(items: list[RepoRecord | RecordFailure], bad_uri: str) -> RecordFailure:
    failures = [item for item in items if isinstance(item, RecordFailure)]
    assert [failure.uri for failure in failures] == [bad_uri]
    assert sum(isinstance(item, RepoRecord) for item in items) == 4
    return failures[0]


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        (b"\xa1\x61a\xff", "record block is not valid DAG-CBOR"),
        (encode_dag_cbor([1]), "record is not a map"),
        (encode_dag_cbor({"a": 1}), "record has no '$type' string"),
        (encode_dag_cbor({"$type": COLLECTION, "$link": "x"}), "record is outside the data model"),
    ],
)
def test_bad_record_block_fails_only_that_record(block: bytes, reason: str) -> None:
    items, bad_uri = _one_bad(lambda path: Breakage(raw_records={path: block}))
    assert _failure_and_others(items, bad_uri).reason.startswith(reason)


def test_missing_record_block_fails_only_that_record() -> None:
    items, bad_uri = _one_bad(lambda path: Breakage(drop_records={path}))
    failure = _failure_and_others(items, bad_uri)
    assert failure.reason == f"record block {failure.cid} is missing from the CAR"


def test_record_link_that_is_not_dag_cbor() -> None:
    values = {f"{COLLECTION}/{tid(1)}": Cid.for_raw(b"blob"), f"{COLLECTION}/{tid(2)}": LEAF}
    root, blocks = build_mst(values.items())
    with store_of(*blocks.values()) as store:
        commit = Commit(Cid.for_raw(b""), Did.parse(DID), 3, root, Tid.parse(tid(3)), None, b"")
        first, second = iter_records(store, commit)
    assert isinstance(first, RecordFailure) and "is not a dag-cbor sha-256 CIDv1" in first.reason
    assert isinstance(second, RecordFailure) and "is missing from the CAR" in second.reason


def test_bad_repository_path() -> None:
    records = {f"{COLLECTION}/{tid(5)}": {"$type": COLLECTION}, "notansid/x": {"$type": COLLECTION}}
    repo = build_repo(records, keypair=KEY)
    items = records_of(repo.car)
    failures = [item for item in items if isinstance(item, RecordFailure)]
    assert [(f.uri, f.reason.split(":")[0]) for f in failures] == [
        (f"at://{DID}/notansid/x", "bad repository path")
    ]


# --- one call ----------------------------------------------------------------------------


def test_verify_repo_from_a_file_on_disk(tmp_path: Path) -> None:
    repo = build_repo(memory_records(12), keypair=KEY)
    path = tmp_path / "repo.car"
    path.write_bytes(repo.car)
    with path.open("rb") as file, verify_repo(file, did=DID, signing_key=KEY.did_key) as verified:
        assert verified.record_count == 12 and verified.commit.cid == repo.commit_cid
        assert sum(isinstance(item, RepoRecord) for item in verified.records()) == 12


def test_verify_repo_checks_the_whole_tree_before_any_record() -> None:
    repo = build_repo(memory_records(40), keypair=KEY, breakage=Breakage(drop_mst_node=True))
    with pytest.raises(VerificationError, match="MST node is missing") as caught:
        verify_repo([repo.car], did=DID, signing_key=KEY.did_key)
    assert caught.value.did == DID


def test_verify_repo_refuses_a_rollback() -> None:
    repo = build_repo(memory_records(1), keypair=KEY, rev="3lbt4ilkfw22s")
    with pytest.raises(VerificationError, match="rollback"):
        verify_repo([repo.car], did=DID, signing_key=KEY.did_key, min_rev="3lbt4ilkfx22s")


def test_empty_repository() -> None:
    repo = build_repo({}, keypair=KEY)
    with verify_repo([repo.car], did=DID, signing_key=KEY.did_key) as verified:
        assert verified.record_count == 0 and list(verified.records()) == []


PLC_LEGACY = "zRMBwno3Us3eyZMowfc2SAYsSAV6yQQmoCsNNDUaTZs5BG8hwp1xbpoy9jZuoosvDS8y94pQ2Eg2y29YQjc71YSLZ"
PLC_DID_KEY = "did:key:zQ3shaTNdPBCWjLnidqK5yMpXEZmotbrrvgy5sNDBbFq5wV8E"  # the same key, as the PLC's /data prints it


@pytest.mark.parametrize("alg", ["ES256K", "ES256"])
def test_the_legacy_form_a_did_document_prints_is_taken_with_or_without_did_key(alg: str) -> None:
    """Regression: verify --signing-key did:key:zRMB… (the #atproto publicKeyMultibase of the local
    PLC's DID document, an EcdsaSecp256k1VerificationKey2019 method, after did:key:) was refused."""
    assert normalize_signing_key(PLC_LEGACY) == PLC_DID_KEY
    assert normalize_signing_key(f"did:key:{PLC_LEGACY}") == PLC_DID_KEY
    keypair = Keypair.generate(alg)
    point = keypair.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    legacy = bytes_to_multibase("z", point)  # base58btc of the uncompressed point, as the 2019 suites print it
    assert normalize_signing_key(f"did:key:{legacy}") == normalize_signing_key(legacy) == keypair.did_key
    with pytest.raises(VerificationError, match="is not a P-256 or K-256 public key"):
        normalize_signing_key(f"did:key:{legacy}", suite="Multikey")  # a document's did:key is taken as written
