"""Hostile repository CAR files (``verify_repo``, ``Importer.from_car``, ``pdsmem verify`` and
``pdsmem import``): the repository they start from, the tools to break it, and the generated
cases.

Every CAR starts from a real signed repository of four memory records built by
``devkit.repo_builder`` (two MST nodes); then one thing is broken. Generated here: the CAR cut
at every section boundary and inside every section, a byte flipped in every block's CID and
data, every length prefix corrupted. Hand-made cases are in ``cars_handmade``. Each case says
what the whole CAR must be refused with, or which records must fail (and so which still come
through).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from devkit.repo_builder import COLLECTION, DID, Keypair, build_repo, car_bytes, memory_records, varint

from pdsmem.bridge.atproto.repo import build_mst, unsigned_commit_bytes
from pdsmem.mapping.datamodel import Cid, encode_dag_cbor, json_to_ipld

KEY = Keypair.from_private_bytes(hashlib.sha256(b"pdsmem hostile corpus").digest())
OTHER_KEY = Keypair.from_private_bytes(hashlib.sha256(b"someone else").digest())
RECORDS = memory_records(4)
PATHS = list(RECORDS)
REV = "3lbt4ilkfw22s"


@dataclass(frozen=True)
class CarCase:
    name: str
    car: bytes
    refused: str | None = None  # the whole CAR is refused with a VerificationError saying this
    broken_blocks: dict[str, str] = field(default_factory=dict)  # path -> why its block is unusable
    invalid_records: dict[str, str] = field(default_factory=dict)  # path -> why its value is refused
    entries: int = len(RECORDS)  # records in the tree (every collection)
    memory: int = len(RECORDS)  # memory records in the tree
    open_says: str | None = None  # what the importer says instead of ``refused`` (it reads the DID first)
    bug: str | None = None  # a known wrong behaviour (strict xfail)

    @property
    def created(self) -> int:
        """Memory records an import must still create."""
        failing = {p for p in {**self.broken_blocks, **self.invalid_records} if p.startswith(COLLECTION + "/")}
        return self.memory - len(failing)


def uri(path: str) -> str:
    return f"at://{DID}/{path}"


@dataclass(frozen=True)
class Section:
    start: int  # offset of the length prefix
    prefix: int  # bytes of the length prefix
    end: int
    kind: str  # header, commit, mst, record
    cid_size: int = 0
    path: str | None = None


def sections(car: bytes, kinds: dict[bytes, tuple[str, str | None]]) -> list[Section]:
    """Split a well-formed CAR into its sections; ``kinds`` names blocks by their CID bytes."""
    out, offset = [], 0
    while offset < len(car):
        length, shift, start = 0, 0, offset
        while True:
            byte = car[offset]
            offset += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        if not out:
            out.append(Section(start, offset - start, offset + length, "header"))
        else:
            cid, data_start = Cid.read(car[offset : offset + length], 0)
            kind, path = kinds[cid.to_bytes()]
            out.append(Section(start, offset - start, offset + length, kind, data_start, path))
        offset += length
    return out


BASE = build_repo(RECORDS, keypair=KEY, rev=REV)
KINDS = {BASE.commit_cid.to_bytes(): ("commit", None)}
KINDS.update({cid.to_bytes(): ("mst", None) for cid in BASE.mst_blocks})
KINDS.update({cid.to_bytes(): ("record", path) for path, cid in BASE.record_cids.items()})
SECTIONS = sections(BASE.car, KINDS)


def signed_commit(commit: dict, signer: Keypair = KEY) -> tuple[Cid, bytes]:
    """The CID and bytes of ``commit`` signed by ``signer``."""
    body = dict(commit, sig=signer.sign(unsigned_commit_bytes(commit)))
    data = encode_dag_cbor(body)
    return Cid.for_dag_cbor(data), data


def assemble(
    entries: dict[str, tuple[Cid, bytes | None]],
    *,
    commit: dict | None = None,
    signer: Keypair = KEY,
    sign: bool = True,
) -> bytes:
    """A repository whose MST maps each path to the given CID, with the given block (if any)."""
    data_cid, nodes = build_mst((path, cid) for path, (cid, _) in entries.items())
    fields = {"did": DID, "version": 3, "data": data_cid, "rev": REV, "prev": None}
    fields.update(commit or {})
    if sign:
        commit_cid, commit_data = signed_commit(fields, signer)
    else:
        commit_data = encode_dag_cbor(fields)
        commit_cid = Cid.for_dag_cbor(commit_data)
    blocks = [(commit_cid, commit_data), *nodes.items()]
    blocks += [(cid, data) for cid, data in entries.values() if data is not None]
    return car_bytes([commit_cid], blocks)


def encoded(value: dict) -> tuple[Cid, bytes]:
    data = encode_dag_cbor(json_to_ipld(value))
    return Cid.for_dag_cbor(data), data


def record_entries() -> dict[str, tuple[Cid, bytes | None]]:
    return {path: encoded(value) for path, value in RECORDS.items()}


# --- generated: truncation, bit flips, length prefixes ----------------------------------------


def _at_boundary(end: int) -> CarCase:
    present = [s for s in SECTIONS[1:] if s.end <= end]
    kinds = [s.kind for s in present]
    name = f"truncated-at-{end}-after-{len(present)}-blocks"
    car = BASE.car[:end]
    if "commit" not in kinds:
        return CarCase(name, car, refused="is not in the CAR")
    if kinds.count("mst") < len(BASE.mst_blocks):
        return CarCase(name, car, refused="MST node is missing")
    have = {s.path for s in present}
    return CarCase(name, car, broken_blocks={p: "missing from the CAR" for p in PATHS if p not in have})


def truncation_cases() -> list[CarCase]:
    cases = [CarCase("truncated-to-nothing", b"", refused="truncated CAR: header length varint is cut off")]
    cases += [_at_boundary(s.end) for s in SECTIONS[:-1]]
    for number, s in enumerate(SECTIONS):
        data_start = s.start + s.prefix + s.cid_size
        inside = {"in-length": s.start + 1 if s.prefix > 1 else None,
                  "after-length": s.start + s.prefix,
                  "in-cid": s.start + s.prefix + 3 if s.cid_size else None,
                  "in-data": (data_start + s.end) // 2,
                  "before-last-byte": s.end - 1}
        for where, offset in inside.items():
            if offset is not None and s.start < offset < s.end:
                cases.append(CarCase(f"truncated-section-{number}-{s.kind}-{where}-at-{offset}",
                                     BASE.car[:offset], refused="truncated CAR"))
    return cases


def _flip(car: bytes, offset: int, mask: int = 0x01) -> bytes:
    return car[:offset] + bytes([car[offset] ^ mask]) + car[offset + 1:]


def flip_cases() -> list[CarCase]:
    cases = []
    header = SECTIONS[0]
    head_bytes = BASE.car[header.start + header.prefix: header.end]
    root_at = header.start + header.prefix + head_bytes.index(BASE.commit_cid.to_bytes()) + 10
    cases.append(CarCase("flip-root-cid-in-header", _flip(BASE.car, root_at), refused="is not in the CAR"))
    version_at = header.start + header.prefix + head_bytes.index(b"version") + len(b"version")
    cases.append(CarCase("flip-header-version", _flip(BASE.car, version_at, 0x02), refused="CAR header 'version' is"))
    for number, s in enumerate(SECTIONS[1:], start=1):
        data_start = s.start + s.prefix + s.cid_size
        for where, offset in {"cid-digest-end": data_start - 1, "data-first": data_start,
                              "data-middle": (data_start + s.end) // 2, "data-last": s.end - 1}.items():
            cases.append(CarCase(f"flip-section-{number}-{s.kind}-{where}", _flip(BASE.car, offset),
                                 refused="do not match their CID"))
    return cases


def _replace_prefix(section: Section, prefix: bytes) -> bytes:
    return BASE.car[:section.start] + prefix + BASE.car[section.start + section.prefix:]


def length_prefix_cases() -> list[CarCase]:
    header, first = SECTIONS[0], SECTIONS[1]
    head_len = header.end - header.prefix - header.start
    first_len = first.end - first.prefix - first.start

    def non_minimal(n: int) -> bytes:
        raw = varint(n)
        return raw[:-1] + bytes([raw[-1] | 0x80, 0x00])

    return [
        CarCase("header-length-not-minimal", _replace_prefix(header, non_minimal(head_len)),
                refused="not minimally encoded"),
        CarCase("header-length-ten-byte-varint", b"\xff" * 9 + b"\x01" + BASE.car[header.prefix:],
                refused="longer than 9 bytes"),
        CarCase("header-length-zero", _replace_prefix(header, varint(0)), refused="is not within"),
        CarCase("header-length-65537", _replace_prefix(header, varint(65_537)), refused="is not within"),
        CarCase("header-length-one-terabyte", _replace_prefix(header, varint(1 << 40)), refused="is not within"),
        CarCase("header-length-past-the-end", varint(head_len + 5) + BASE.car[header.prefix:header.end],
                refused="truncated CAR"),
        CarCase("section-length-not-minimal", _replace_prefix(first, non_minimal(first_len)),
                refused="not minimally encoded"),
        CarCase("section-length-zero", _replace_prefix(first, varint(0)), refused="empty CAR section"),
        CarCase("section-length-2-to-the-62", _replace_prefix(first, varint(1 << 62)), refused="exceeds"),
        CarCase("section-length-one-byte-short", _replace_prefix(first, varint(first_len - 1)),
                refused="do not match their CID"),
        CarCase("section-length-past-the-end", BASE.car + varint(500) + b"\x01\x71",
                refused="truncated CAR"),
        CarCase("section-length-varint-cut-off", BASE.car + b"\x80", refused="varint is cut off"),
        CarCase("section-length-varint-endless", BASE.car + b"\xff" * 20, refused="longer than 9 bytes"),
    ]


def odd_cid(version: int, codec: int, hash_code: int, digest: bytes) -> Cid:
    """A CID of any version, codec and hash (version 0 is the bare multihash)."""
    raw = (bytes([hash_code, len(digest)]) + digest if version == 0
           else varint(version) + varint(codec) + varint(hash_code) + varint(len(digest)) + digest)
    return Cid.read(raw, 0)[0]


def with_header(header: object) -> bytes:
    """The base CAR's blocks under another header."""
    head = encode_dag_cbor(header)
    return varint(len(head)) + head + BASE.car[SECTIONS[0].end:]


def generated_cases() -> list[CarCase]:
    return truncation_cases() + flip_cases() + length_prefix_cases()


def chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start:start + size]
