"""Streaming, verifying reader for CAR v1 files (repository exports and ``getRepo`` bodies).

Scope: parse the framing of a CAR v1 archive from an iterator of byte chunks or a binary
file, check every block against its CID, and keep the block bytes in a temporary file so
that memory grows with the number of blocks (a small index entry each), not with their size.
What the blocks mean (commit, MST nodes, records) is ``repo.py``'s business.

Checked here, each failure raising ``VerificationError`` with the byte offset where it was
found: the header (DAG-CBOR ``{version: 1, roots: [cid]}``, exactly one root), every varint
(minimal, at most 9 bytes, not cut off), every section (no empty or oversized section, no
truncation), every CID (v1, dag-cbor or raw, sha-256) and every block's bytes against the
hash in its CID, and that the root block is present.

Tricky bits:
- Duplicate blocks are allowed by the CAR format; since each copy is re-hashed against its
  CID, two copies with the same CID and different bytes cannot both pass, so the second
  copy of a block is checked and then dropped.
- Blocks nothing links to are kept and ignored; the MST walk decides what is reachable.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, BinaryIO

from pdsmem.errors import DataModelError, VerificationError, kind_of
from pdsmem.mapping.cid import DAG_CBOR, RAW, SHA2_256
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor

DEFAULT_MAX_BLOCK_SIZE = 2 * 1024 * 1024
# A repository of a million memory records is about 1 GiB of CAR; a stream that goes on past
# the limits below is refused rather than filling the disk or spinning forever.
DEFAULT_MAX_TOTAL_BYTES = 4 * 1024**3
DEFAULT_MAX_BLOCKS = 10_000_000
MAX_HEADER_SIZE = 64 * 1024
MAX_CID_SIZE = 128
_READ_SIZE = 64 * 1024
_MAX_VARINT_BYTES = 9

CarSource = bytes | Iterable[bytes] | BinaryIO | IO[bytes]


class BlockStore:
    """Verified blocks by CID; bytes live in a temporary file, only the index in memory.

    The index is keyed by the binary CID: the form CIDs have inside blocks and CAR sections, so
    a walk can look blocks up without building ``Cid`` objects. Every method takes either form.
    """

    def __init__(self) -> None:
        self._file: IO[bytes] | None = tempfile.TemporaryFile(prefix="pdsmem-car-")
        self._index: dict[bytes, tuple[int, int]] = {}
        self._end = 0
        self._writing = True  # the file position is at _end (no read since the last write)

    def add(self, cid: Cid | bytes, data: bytes | memoryview) -> None:
        """Store ``data`` under ``cid``; the caller has already checked that they match."""
        key = _key(cid)
        if key in self._index:
            return
        file = self._open_file()
        if not self._writing:
            file.seek(self._end)
            self._writing = True
        file.write(data)
        self._index[key] = (self._end, len(data))
        self._end += len(data)

    def get(self, cid: Cid | bytes) -> bytes:
        """The bytes of block ``cid``; ``KeyError`` if the CAR did not contain it."""
        offset, length = self._index[_key(cid)]
        file = self._open_file()
        file.seek(offset)
        self._writing = False
        return file.read(length)

    def __contains__(self, cid: object) -> bool:
        return isinstance(cid, (Cid, bytes)) and _key(cid) in self._index

    def __len__(self) -> int:
        return len(self._index)

    def __iter__(self) -> Iterator[Cid]:
        return (Cid.from_bytes(key) for key in self._index)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> BlockStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open_file(self) -> IO[bytes]:
        if self._file is None:
            raise ValueError("the block store is closed")
        return self._file


def _key(cid: Cid | bytes) -> bytes:
    return cid if type(cid) is bytes else cid.to_bytes()  # type: ignore[union-attr]


class _Stream:
    """Pulls exact byte counts out of a chunk iterator, tracking the absolute offset."""

    def __init__(self, source: CarSource) -> None:
        self._chunks = _chunks_of(source)
        self._buffer = bytearray()
        self._start = 0  # read position inside _buffer
        self.offset = 0  # absolute position in the CAR

    def at_end(self) -> bool:
        return not self._fill(1)

    def read(self, size: int, what: str) -> bytes:
        if not self._fill(size):
            got = len(self._buffer) - self._start
            raise _error(f"truncated CAR: {what} needs {size} bytes, only {got} left", self.offset)
        with memoryview(self._buffer) as view:
            data = bytes(view[self._start : self._start + size])
        self._start += size
        self.offset += size
        return data

    def peek(self, size: int) -> bytes:
        """The next ``size`` bytes (fewer at the end), left unread."""
        self._fill(size)
        return bytes(self._buffer[self._start : self._start + size])

    def read_varint(self, what: str) -> int:
        start = self.offset
        value = 0
        for index in range(_MAX_VARINT_BYTES):
            if not self._fill(1):
                raise _error(f"truncated CAR: {what} varint is cut off", start)
            byte = self._buffer[self._start]
            self._start += 1
            self.offset += 1
            value |= (byte & 0x7F) << (7 * index)
            if not byte & 0x80:
                if byte == 0 and index > 0:
                    raise _error(f"bad varint for {what}: not minimally encoded", start)
                return value
        raise _error(f"bad varint for {what}: longer than {_MAX_VARINT_BYTES} bytes", start)

    def _fill(self, size: int) -> bool:
        while len(self._buffer) - self._start < size:
            chunk = next(self._chunks, None)
            if chunk is None:
                return False
            if self._start:
                del self._buffer[: self._start]
                self._start = 0
            self._buffer += chunk
        return True


def _chunks_of(source: CarSource) -> Iterator[bytes]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield bytes(source)  # already in memory: nothing to stream
        return
    read = getattr(source, "read", None)
    if read is not None:
        while chunk := read(_READ_SIZE):
            yield bytes(chunk)
        return
    for chunk in source:  # type: ignore[union-attr]
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"CAR chunks must be bytes, got {type(chunk).__name__}")
        if chunk:
            yield bytes(chunk)


def _error(message: str, offset: int) -> VerificationError:
    return VerificationError(message, path=f"byte {offset}")


def _read_header(stream: _Stream) -> Cid:
    """The root CID the header names; a file of JSON text is said to be one (it is a common slip:
    its first character reads as a header length, so it fails as a truncated or invalid CAR)."""
    json_text = stream.peek(1) in (b"{", b"[")
    try:
        return _header_root(stream)
    except VerificationError as exc:
        if json_text:
            exc.hint = ("it looks like JSON text, not a CAR file: this takes a repository as "
                        "com.atproto.sync.getRepo exports it")
        raise


def _header_root(stream: _Stream) -> Cid:
    length = stream.read_varint("header length")
    if length == 0 or length > MAX_HEADER_SIZE:
        raise _error(f"CAR header length {length} is not within 1..{MAX_HEADER_SIZE} bytes", 0)
    start = stream.offset
    raw = stream.read(length, "header")
    try:
        header = decode_dag_cbor(raw)
    except DataModelError as exc:
        raise _error(f"CAR header is not valid DAG-CBOR: {exc.message}", start) from exc
    if not isinstance(header, dict):
        raise _error("CAR header must be a map with 'version' and 'roots'", start)
    version = header.get("version")
    if type(version) is not int or version != 1:  # True == 1 in Python: the type is checked too
        got = version if type(version) is int else kind_of(version)
        error = _error(f"CAR header 'version' is {got}; pdsmem reads version 1", start)
        error.hint = "the version atproto repositories are exported in (com.atproto.sync.getRepo)"
        raise error
    roots = header.get("roots")
    if not isinstance(roots, list) or not all(isinstance(root, Cid) for root in roots):
        raise _error("CAR header 'roots' must be a list of CID links", start)
    if len(roots) != 1:
        found = len(roots)
        raise _error(f"CAR header must name exactly one root (the commit), found {found}", start)
    root = roots[0]
    if not root.is_atproto_blessed:
        raise _error(f"CAR root {root} is not a CIDv1 with dag-cbor/raw and sha-256", start)
    return root


_BLESSED_HEADS = (bytes((1, DAG_CBOR, SHA2_256, 32)), bytes((1, RAW, SHA2_256, 32)))
_CID_SIZE = 36  # a CIDv1 with a one-byte codec and a 32-byte sha2-256 digest


def _read_block(stream: _Stream, max_block_size: int) -> tuple[bytes, memoryview]:
    """The next section's binary CID and block bytes, checked against each other."""
    start = stream.offset
    length = stream.read_varint("section length")
    if length == 0:
        raise _error("empty CAR section (length 0)", start)
    if length > max_block_size + MAX_CID_SIZE:
        raise _error(
            f"CAR section of {length} bytes exceeds the {max_block_size}-byte block limit", start
        )
    section_start = stream.offset
    section = stream.read(length, "block section")
    if section[:4] in _BLESSED_HEADS:  # the only form atproto writes: no varints to read
        cid_bytes, data = section[:_CID_SIZE], memoryview(section)[_CID_SIZE:]
        if len(cid_bytes) < _CID_SIZE:
            raise _error("bad CID in CAR section: its digest is truncated", section_start)
        digest = cid_bytes[4:]
    else:
        cid, data_start = _read_cid(section, section_start)
        cid_bytes, data, digest = cid.to_bytes(), memoryview(section)[data_start:], cid.digest
    if len(data) > max_block_size:
        raise _error(
            f"block {Cid.from_bytes(cid_bytes)} of {len(data)} bytes exceeds the "
            f"{max_block_size}-byte limit", start
        )
    if hashlib.sha256(data).digest() != digest:
        raise _error(
            f"block bytes do not match their CID {Cid.from_bytes(cid_bytes)}",
            section_start + len(cid_bytes),
        )
    return cid_bytes, data


def _read_cid(section: bytes, section_start: int) -> tuple[Cid, int]:
    """A section's CID in any other form: read in full, then refused unless atproto writes it."""
    try:
        cid, data_start = Cid.read(section, 0)
    except DataModelError as exc:
        raise _error(f"bad CID in CAR section: {exc.message}", section_start) from exc
    if not cid.is_atproto_blessed:
        raise _error(
            f"unsupported CID {cid}: expected CIDv1 with dag-cbor or raw codec and sha-256",
            section_start,
        )
    return cid, data_start


def read_car(
    source: CarSource,
    *,
    max_block_size: int = DEFAULT_MAX_BLOCK_SIZE,
    max_total_bytes: int = DEFAULT_MAX_TOTAL_BYTES,
    max_blocks: int = DEFAULT_MAX_BLOCKS,
) -> tuple[Cid, BlockStore]:
    """Read and verify a whole CAR v1 archive; return its single root and the verified blocks.

    ``source`` is an iterator of byte chunks (an HTTP body being streamed), a binary file,
    or bytes already in memory. A CAR with more than ``max_blocks`` sections or more than
    ``max_total_bytes`` of block data (duplicates included) is refused.
    The caller closes the returned store (it is a context manager).
    """
    stream = _Stream(source)
    store = BlockStore()
    sections = total = 0
    try:
        root = _read_header(stream)
        while not stream.at_end():
            cid, data = _read_block(stream, max_block_size)
            sections += 1
            total += len(data)
            if sections > max_blocks or total > max_total_bytes:
                raise VerificationError(
                    f"the CAR goes on past {min(sections, max_blocks):,} blocks / {total:,} bytes, "
                    f"over the limit ({max_blocks:,} blocks, {max_total_bytes:,} bytes)",
                    hint="a repository this large is not a memory repository; check the source",
                )
            store.add(cid, data)
        if root not in store:
            raise VerificationError(
                f"the CAR's root block {root} is not in the CAR", hint="the export is incomplete"
            )
    except BaseException:
        store.close()
        raise
    return root, store
