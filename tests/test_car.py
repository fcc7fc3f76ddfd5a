"""The streaming CAR reader: framing, CID checks, bounded memory, and each malformed CAR refused."""

from __future__ import annotations

import hashlib
import io
import tracemalloc
from collections.abc import Iterator

import pytest
from devkit.repo_builder import Breakage, Keypair, build_repo, car_bytes, memory_records, varint

from pdsmem.bridge.atproto.car import BlockStore, read_car
from pdsmem.errors import VerificationError
from pdsmem.mapping.datamodel import DAG_CBOR, DAG_PB, SHA2_256, Cid, encode_dag_cbor

KEY = Keypair.generate()
RECORD = encode_dag_cbor({"$type": "dev.example.thing", "text": "hello"})
RECORD_CID = Cid.for_dag_cbor(RECORD)


def small_car(**header_override: object) -> bytes:
    header = {"version": 1, "roots": [RECORD_CID], **header_override}
    return car_bytes(None, [(RECORD_CID, RECORD)], header=header)


def chunked(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def refused(car: bytes, **options: int) -> str:
    with pytest.raises(VerificationError) as caught:
        read_car([car], **options)
    return str(caught.value)


# --- good CARs ---------------------------------------------------------------------------


@pytest.mark.parametrize("chunk_size", [1, 7, 4096, 10**9])
def test_every_block_comes_back_whatever_the_chunking(chunk_size: int) -> None:
    repo = build_repo(memory_records(30), keypair=KEY)
    root, store = read_car(chunked(repo.car, chunk_size))
    with store:
        assert root == repo.commit_cid
        expected = set(repo.record_cids.values()) | set(repo.mst_blocks) | {repo.commit_cid}
        assert set(store) == expected
        for cid in expected:
            assert cid.matches(store.get(cid))


def test_reads_a_file_on_disk(tmp_path) -> None:
    repo = build_repo(memory_records(3), keypair=KEY)
    path = tmp_path / "export.car"
    path.write_bytes(repo.car)
    with path.open("rb") as file:
        root, store = read_car(file)
    with store:
        assert root == repo.commit_cid and len(store) == 3 + len(repo.mst_blocks) + 1


def test_unreferenced_and_identical_duplicate_blocks_are_accepted() -> None:
    extra = encode_dag_cbor({"unrelated": True})
    breakage = Breakage(extra_blocks=[extra], duplicate_blocks=True)
    repo = build_repo(memory_records(3), keypair=KEY, breakage=breakage)
    root, store = read_car([repo.car])
    with store:
        assert Cid.for_dag_cbor(extra) in store
        assert len(store) == 3 + len(repo.mst_blocks) + 2


def test_raw_codec_blocks_are_accepted() -> None:
    blob = b"\x00not cbor at all"
    car = car_bytes([RECORD_CID], [(RECORD_CID, RECORD), (Cid.for_raw(blob), blob)])
    root, store = read_car([car])
    with store:
        assert store.get(Cid.for_raw(blob)) == blob


def test_memory_is_bounded_by_the_index_not_the_data() -> None:
    block_size, count = 512 * 1024, 40  # 20 MiB of blocks, streamed by a generator
    blocks = [hashlib.sha256(bytes([i])).digest() * (block_size // 32) for i in range(count)]
    first = Cid.for_raw(blocks[0])

    def body() -> Iterator[bytes]:
        yield car_bytes([first], [])
        for data in blocks:
            cid = Cid.for_raw(data).to_bytes()
            yield varint(len(cid) + len(data)) + cid
            yield from chunked(data, 65536)

    tracemalloc.start()
    try:
        root, store = read_car(body())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    with store:
        assert len(store) == count and store.get(Cid.for_raw(blocks[-1])) == blocks[-1]
    assert peak < 5 * block_size, f"peak {peak} bytes while reading {count * block_size} bytes"


def test_closed_store_refuses_reads() -> None:
    root, store = read_car([small_car()])
    store.close()
    with pytest.raises(ValueError, match="closed"):
        store.get(root)


# --- malformed CARs ----------------------------------------------------------------------


def test_truncated_anywhere_is_refused() -> None:
    car = small_car()
    for cut in (1, 5, len(car) - 40, len(car) - 1):
        message = refused(car[:cut])
        assert "truncated CAR" in message, (cut, message)


def test_truncated_inside_a_varint() -> None:
    assert "section length varint is cut off" in refused(small_car() + b"\x80")


def test_empty_input_is_refused() -> None:
    assert "header length varint is cut off" in refused(b"")


def test_varint_longer_than_nine_bytes() -> None:
    assert "longer than 9 bytes" in refused(b"\xff" * 10 + b"\x01")


def test_varint_not_minimal() -> None:
    head = encode_dag_cbor({"version": 1, "roots": [RECORD_CID]})
    car = bytes([0x80 | len(head), 0x00]) + head
    assert "not minimally encoded" in refused(car)


def test_block_bytes_not_matching_their_cid() -> None:
    records = memory_records(3)
    path = sorted(records)[1]
    repo = build_repo(records, keypair=KEY, breakage=Breakage(flip_byte_in=path))
    assert f"block bytes do not match their CID {repo.record_cids[path]}" in refused(repo.car)


def test_duplicated_block_with_different_bytes_is_refused() -> None:
    altered = RECORD[:-1] + b"!"
    car = car_bytes([RECORD_CID], [(RECORD_CID, RECORD), (RECORD_CID, altered)])
    assert f"block bytes do not match their CID {RECORD_CID}" in refused(car)


def test_missing_root_block() -> None:
    other = Cid.for_dag_cbor(b"\xa0")
    car = car_bytes([other], [(RECORD_CID, RECORD)])
    assert f"root block {other} is not in the CAR" in refused(car)


def test_two_roots() -> None:
    other = Cid.for_dag_cbor(b"\xa0")
    assert "exactly one root (the commit), found 2" in refused(small_car(roots=[RECORD_CID, other]))


def test_no_roots() -> None:
    assert "found 0" in refused(small_car(roots=[]))


def test_header_version_2() -> None:
    assert "CAR header 'version' is 2; pdsmem reads version 1 (the version atproto repositories are exported in " \
        "(com.atproto.sync.getRepo))" in refused(small_car(version=2))


def test_header_without_roots() -> None:
    car = car_bytes(None, [], header={"version": 1})
    assert "'roots' must be a list of CID links" in refused(car)


def test_header_not_cbor() -> None:
    assert "CAR header is not valid DAG-CBOR" in refused(b"\x02\xff\xff")


def test_header_not_a_map() -> None:
    assert "CAR header must be a map" in refused(car_bytes(None, [], header=[1]))


@pytest.mark.parametrize(
    ("codec", "hash_code", "digest"),
    [
        (DAG_CBOR, 0x13, hashlib.sha512(RECORD).digest()),  # sha-512
        (DAG_PB, SHA2_256, hashlib.sha256(RECORD).digest()),  # dag-pb
        (0x0129, SHA2_256, hashlib.sha256(RECORD).digest()),  # dag-json
    ],
)
def test_unsupported_cid_formats(codec: int, hash_code: int, digest: bytes) -> None:
    cid = Cid(1, codec, hash_code, digest)
    car = car_bytes([RECORD_CID], [(RECORD_CID, RECORD), (cid, RECORD)])
    assert f"unsupported CID {cid}" in refused(car)


def test_cid_v0_block() -> None:
    cid = Cid(0, DAG_PB, SHA2_256, hashlib.sha256(RECORD).digest())
    car = car_bytes([RECORD_CID], [(RECORD_CID, RECORD), (cid, RECORD)])
    assert "unsupported CID" in refused(car)


def test_unsupported_root_cid() -> None:
    root = Cid(1, DAG_PB, SHA2_256, hashlib.sha256(RECORD).digest())
    assert "is not a CIDv1 with dag-cbor/raw and sha-256" in refused(small_car(roots=[root]))


def test_garbage_cid() -> None:
    car = small_car() + varint(3) + b"\x01\x71\x12"
    assert "bad CID in CAR section" in refused(car)


def test_oversized_block() -> None:
    big = b"x" * 300
    car = car_bytes([RECORD_CID], [(RECORD_CID, RECORD), (Cid.for_raw(big), big)])
    assert "exceeds the 256-byte limit" in refused(car, max_block_size=256)


def test_oversized_section_refused_before_reading_it() -> None:
    car = small_car() + varint(10**9)
    assert "CAR section of 1000000000 bytes exceeds the 2097152-byte block limit" in refused(car)


def test_empty_section() -> None:
    assert "empty CAR section" in refused(small_car() + b"\x00")


def test_errors_say_where() -> None:
    car = small_car() + b"\x00"
    with pytest.raises(VerificationError) as caught:
        read_car([car])
    assert caught.value.path == f"byte {len(car) - 1}"


def test_reads_bytes_in_memory() -> None:
    root, store = read_car(small_car())
    with store:
        assert root == RECORD_CID


def test_non_bytes_chunks_are_a_caller_error() -> None:
    with pytest.raises(TypeError, match="CAR chunks must be bytes"):
        read_car(["text"])  # type: ignore[list-item]


def test_block_store_add_and_get() -> None:
    with BlockStore() as store:
        store.add(RECORD_CID, RECORD)
        store.add(RECORD_CID, RECORD)
        assert RECORD_CID in store and len(store) == 1 and store.get(RECORD_CID) == RECORD
        with pytest.raises(KeyError):
            store.get(Cid.for_raw(b""))


def test_reads_any_binary_file_object() -> None:
    root, store = read_car(io.BytesIO(small_car()))
    with store:
        assert root == RECORD_CID and store.get(RECORD_CID) == RECORD


def test_a_car_that_goes_on_forever_is_refused_at_the_limits():
    """An endless stream (repeating one block) stops at the block limit instead of spinning."""
    import itertools

    from pdsmem.bridge.atproto.car import read_car
    from pdsmem.errors import VerificationError
    from pdsmem.mapping.datamodel import Cid, encode_dag_cbor

    block = encode_dag_cbor({"x": 1})
    cid = Cid.for_dag_cbor(block)
    header = encode_dag_cbor({"version": 1, "roots": [cid]})
    section = cid.to_bytes() + block

    def endless():
        yield varint(len(header)) + header
        yield from itertools.repeat(varint(len(section)) + section)

    with pytest.raises(VerificationError, match="over the limit"):
        read_car(endless(), max_blocks=1000)
    with pytest.raises(VerificationError, match="over the limit"):
        read_car(endless(), max_total_bytes=10_000)
