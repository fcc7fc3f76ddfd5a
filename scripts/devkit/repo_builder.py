"""Builds real, signed atproto repository CARs offline, and breaks them on request.

Scope: test support. Records are encoded as DAG-CBOR, the MST is built by
``pdsmem.bridge.repo.build_mst`` (checked against the interop fixtures in ``test_repo``), the
commit is signed with a real K-256 or P-256 key, and the CAR is written byte by byte. Each knob
breaks exactly one thing, so a test can check that exactly that thing is refused.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from atproto_crypto.consts import (
    P256_CURVE_ORDER,
    P256_JWT_ALG,
    SECP256K1_CURVE_ORDER,
    SECP256K1_JWT_ALG,
)
from atproto_crypto.did import format_did_key
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from pdsmem.bridge.atproto.repo import build_mst, unsigned_commit_bytes
from pdsmem.mapping.datamodel import Cid, encode_dag_cbor, json_to_ipld
from pdsmem.mapping.syntax import Tid

COLLECTION = "dev.bastienrobert.memory.record"
DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
# curve and group order per JWT algorithm name
_ORDERS = {
    SECP256K1_JWT_ALG: (ec.SECP256K1(), SECP256K1_CURVE_ORDER),
    P256_JWT_ALG: (ec.SECP256R1(), P256_CURVE_ORDER),
}


def tid(micros: int, clock_id: int = 0) -> str:
    """The TID for a microsecond timestamp and a clock id (13 base32-sortable characters)."""
    return str(Tid.from_parts(micros, clock_id))


@dataclass
class Keypair:
    """An ECDSA keypair that signs the way atproto wants: compact ``r||s``, low S."""

    private: ec.EllipticCurvePrivateKey
    alg: str

    @classmethod
    def generate(cls, alg: str = SECP256K1_JWT_ALG) -> Keypair:
        return cls(ec.generate_private_key(_ORDERS[alg][0]), alg)

    @classmethod
    def from_private_bytes(cls, raw: bytes, alg: str = SECP256K1_JWT_ALG) -> Keypair:
        return cls(ec.derive_private_key(int.from_bytes(raw, "big"), _ORDERS[alg][0]), alg)

    @property
    def did_key(self) -> str:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return format_did_key(self.alg, point)

    def sign(self, data: bytes, *, high_s: bool = False) -> bytes:
        r, s = decode_dss_signature(self.private.sign(data, ec.ECDSA(hashes.SHA256())))
        order = _ORDERS[self.alg][1]
        if (s > order // 2) != high_s:
            s = order - s
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def car_bytes(
    roots: list[Cid] | None,
    blocks: Iterable[tuple[Cid | bytes, bytes]],
    *,
    header: Any = None,
) -> bytes:
    """A CAR v1: ``header`` (IPLD form) if given, else ``{version: 1, roots}``; then blocks.

    A block's CID may be given as raw bytes, to write CIDs the data model would not build.
    """
    head = encode_dag_cbor(header if header is not None else {"version": 1, "roots": roots})
    out = io.BytesIO()
    out.write(varint(len(head)) + head)
    for cid, data in blocks:
        raw_cid = cid.to_bytes() if isinstance(cid, Cid) else cid
        out.write(varint(len(raw_cid) + len(data)) + raw_cid + data)
    return out.getvalue()


def varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


@dataclass
class BuiltRepo:
    """A built repository: the CAR and what a test needs to know about its insides."""

    car: bytes
    commit_cid: Cid
    data_cid: Cid
    record_cids: dict[str, Cid]
    mst_blocks: dict[Cid, bytes]
    did: str
    rev: str
    keypair: Keypair


@dataclass
class Breakage:
    """One way to break a repository (all off by default)."""

    signer: Keypair | None = None  # sign the commit with this key instead
    commit_did: str | None = None  # name this DID in the commit
    raw_records: dict[str, bytes] = field(default_factory=dict)  # path -> block bytes as given
    flip_byte_in: str | None = None  # path whose block is altered after its CID was computed
    drop_records: set[str] = field(default_factory=set)  # paths whose blocks are left out
    drop_mst_node: bool = False  # leave out one MST node below the root
    extra_blocks: list[bytes] = field(default_factory=list)  # unreferenced dag-cbor blocks
    duplicate_blocks: bool = False  # write every block twice
    high_s: bool = False  # sign with the high-S twin of the signature


def build_repo(
    records: Mapping[str, Mapping[str, Any]],
    *,
    keypair: Keypair,
    did: str = DID,
    rev: str = "3lbt4ilkfw22s",
    breakage: Breakage | None = None,
) -> BuiltRepo:
    """A signed repository holding ``records`` (repo path -> record in JSON form) as a CAR."""
    broken = breakage or Breakage()
    record_blocks: dict[str, tuple[Cid, bytes]] = {}
    for path, value in records.items():
        data = broken.raw_records.get(path)
        if data is None:
            data = encode_dag_cbor(json_to_ipld(dict(value)))
        record_blocks[path] = (Cid.for_dag_cbor(data), data)
    data_cid, mst_blocks = build_mst((path, cid) for path, (cid, _) in record_blocks.items())
    unsigned = {"did": broken.commit_did or did, "version": 3, "data": data_cid, "rev": rev,
                "prev": None}
    signer = broken.signer or keypair
    commit = dict(unsigned, sig=signer.sign(unsigned_commit_bytes(unsigned), high_s=broken.high_s))
    commit_data = encode_dag_cbor(commit)
    commit_cid = Cid.for_dag_cbor(commit_data)

    blocks: list[tuple[Cid, bytes]] = [(commit_cid, commit_data)]
    nodes = [(cid, data) for cid, data in mst_blocks.items()]
    if broken.drop_mst_node:
        below_root = [item for item in nodes if item[0] != data_cid]
        if not below_root:
            raise ValueError("drop_mst_node needs a tree with more than one node")
        nodes.remove(below_root[0])
    blocks += nodes
    for path, (cid, data) in record_blocks.items():
        if path in broken.drop_records:
            continue
        if path == broken.flip_byte_in:
            data = data[:-1] + bytes([data[-1] ^ 0x01])
        blocks.append((cid, data))
    for data in broken.extra_blocks:
        blocks.append((Cid.for_dag_cbor(data), data))
    if broken.duplicate_blocks:
        blocks = [item for item in blocks for _ in range(2)]
    return BuiltRepo(
        car=car_bytes([commit_cid], blocks),
        commit_cid=commit_cid,
        data_cid=data_cid,
        record_cids={path: cid for path, (cid, _) in record_blocks.items()},
        mst_blocks=mst_blocks,
        did=did,
        rev=rev,
        keypair=keypair,
    )


def memory_records(count: int, *, start: int = 1_700_000_000_000_000) -> dict[str, dict[str, Any]]:
    """``count`` memory records under TID keys, one second apart."""
    records = {}
    for index in range(count):
        rkey = tid(start + index * 1_000_000)
        records[f"{COLLECTION}/{rkey}"] = {
            "$type": COLLECTION,
            "content": f"memory number {index}",
            "createdAt": "2024-01-01T00:00:00.000Z",
            "kind": "fact",
        }
    return records
