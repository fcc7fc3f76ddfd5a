"""Content identifiers (CIDs) and the multibase text forms atproto uses.

Scope: ``Cid`` (version, codec, hash code, digest), its binary form (varints), its text forms
(base32 lower ``b…`` for CIDv1, base58btc ``z…`` and ``Qm…`` for CIDv0), and hashing data into
one. Re-exported by ``datamodel``. Pure code; every failure raises ``DataModelError`` saying what
was expected.

Tricky bits:
- Decoding insists on the canonical text: a CID string that decodes but would encode differently
  (upper case, padding, a multibase-wrapped CIDv0) is refused.
- Varints are minimal and at most 9 bytes, as multiformats require.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

import libipld

from pdsmem.errors import DataModelError
from pdsmem.mapping.sha256 import sha256
from pdsmem.mapping.syntax_base import shown

__all__ = ["DAG_CBOR", "DAG_PB", "RAW", "SHA2_256", "Cid"]

DAG_CBOR = 0x71
RAW = 0x55
DAG_PB = 0x70
SHA2_256 = 0x12

_V0_SHAPE = (DAG_PB, SHA2_256, 32)
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_B58)}
_B32_TEXT = re.compile(r"[a-z2-7]+")
_DAG_CBOR_SHA256 = bytes((1, DAG_CBOR, SHA2_256, 32))  # the binary CID's head before the digest

def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _read_varint(buf: bytes | memoryview, pos: int, what: str) -> tuple[int, int]:
    """Read a minimal unsigned LEB128 varint (at most 9 bytes, as multiformats require)."""
    value = shift = 0
    start = pos
    while True:
        if pos >= len(buf):
            raise DataModelError(f"CID truncated while reading its {what} at byte {start}")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            if byte == 0 and pos - start > 1:
                raise DataModelError(f"CID {what} at byte {start} is not a minimal varint")
            return value, pos
        shift += 7
        if pos - start >= 9:
            raise DataModelError(f"CID {what} at byte {start} is longer than 9 bytes")


def _b58encode(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    out = []
    while n:
        n, r = divmod(n, 58)
        out.append(_B58[r])
    zeros = len(raw) - len(raw.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(out))


def _b58decode(text: str) -> bytes:
    n = 0
    for c in text:
        digit = _B58_INDEX.get(c)
        if digit is None:
            raise DataModelError(f"invalid base58btc character {c!r} in CID {shown(text)}")
        n = n * 58 + digit
    zeros = len(text) - len(text.lstrip("1"))
    return b"\0" * zeros + n.to_bytes((n.bit_length() + 7) // 8, "big")


@dataclass(frozen=True, slots=True)
class Cid:
    """A content identifier. Build one with ``Cid.decode``, ``Cid.from_bytes`` or ``Cid.for_*``."""

    version: int
    codec: int
    hash_code: int
    digest: bytes

    def __post_init__(self) -> None:
        codec, hash_code = self.codec, self.hash_code
        if type(codec) is not int or type(hash_code) is not int or codec < 0 or hash_code < 0:
            raise DataModelError("CID codec and hash code must be non-negative integers")
        if type(self.digest) is not bytes:
            if not isinstance(self.digest, (bytearray, memoryview)):
                raise DataModelError(f"CID digest must be bytes, got {type(self.digest).__name__}")
            object.__setattr__(self, "digest", bytes(self.digest))
        if type(self.version) is not int or self.version not in (0, 1):
            raise DataModelError(f"CID version must be 0 or 1, got {self.version}")
        if self.version == 0 and (self.codec, self.hash_code, len(self.digest)) != _V0_SHAPE:
            raise DataModelError("a CIDv0 must be dag-pb with a 32-byte sha2-256 digest")

    @classmethod
    def for_dag_cbor(cls, data: bytes) -> Cid:
        """The CIDv1 (dag-cbor, sha2-256) of DAG-CBOR bytes: how records and repo nodes are named."""
        return cls(1, DAG_CBOR, SHA2_256, sha256(data).digest())

    @staticmethod
    def text_for_dag_cbor(data: bytes) -> str:
        """``str(Cid.for_dag_cbor(data))``, without building the ``Cid``."""
        return libipld.encode_multibase("b", _DAG_CBOR_SHA256 + sha256(data).digest())

    @classmethod
    def for_raw(cls, data: bytes) -> Cid:
        """The CIDv1 (raw, sha2-256) of arbitrary bytes: how blobs are named."""
        return cls(1, RAW, SHA2_256, sha256(data).digest())

    @classmethod
    def read(cls, buf: bytes | memoryview, offset: int = 0) -> tuple[Cid, int]:
        """Parse a binary CID starting at ``offset``; return it and the offset just after it."""
        if buf[offset : offset + 2] == b"\x12\x20":  # CIDv0: a bare sha2-256 multihash
            end = offset + 34
            if end > len(buf):
                raise DataModelError(f"CIDv0 at byte {offset} is truncated (34 bytes expected)")
            return cls(0, DAG_PB, SHA2_256, bytes(buf[offset + 2 : end])), end
        version, pos = _read_varint(buf, offset, "version")
        if version != 1:
            raise DataModelError(f"CID at byte {offset} has version {version}, expected 1")
        codec, pos = _read_varint(buf, pos, "codec")
        hash_code, pos = _read_varint(buf, pos, "hash code")
        size, pos = _read_varint(buf, pos, "digest length")
        end = pos + size
        if end > len(buf):
            raise DataModelError(
                f"CID at byte {offset} is truncated: digest of {size} bytes, "
                f"{len(buf) - pos} available"
            )
        return cls(1, codec, hash_code, bytes(buf[pos:end])), end

    @classmethod
    def from_bytes(cls, raw: bytes | memoryview) -> Cid:
        """Parse a binary CID that must fill ``raw`` exactly."""
        cid, end = cls.read(raw, 0)
        if end != len(raw):
            raise DataModelError(f"{len(raw) - end} unexpected bytes after the binary CID")
        return cid

    @classmethod
    def decode(cls, text: str) -> Cid:
        """Parse a CID string: base32 ``b…`` or base58btc ``z…`` (v1), or ``Qm…`` (v0)."""
        if not isinstance(text, str) or len(text) < 2:
            raise DataModelError(f"expected a CID string, got {shown(text)}")
        prefix, body = text[0], text[1:]
        if len(text) == 46 and text.startswith("Qm"):
            raw = _b58decode(text)
        elif prefix == "b" and _B32_TEXT.fullmatch(body):
            try:
                raw = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
            except binascii.Error as exc:
                raise DataModelError(f"invalid base32 in CID {shown(text)}: {exc}") from None
        elif prefix == "z":
            raw = _b58decode(body)
        else:
            raise DataModelError(
                f"unsupported CID string {shown(text)}: expected base32 'b…', base58btc 'z…' or 'Qm…'"
            )
        if raw[:1] == b"\x12" and prefix != "Q":
            raise DataModelError(f"CID string {shown(text)} is a multibase-wrapped CIDv0")
        try:
            cid = cls.from_bytes(raw)
        except DataModelError as exc:
            raise DataModelError(f"invalid CID {shown(text)}: {exc.message}") from None
        canonical = "z" + _b58encode(raw) if prefix == "z" else cid.encode()
        if canonical != text:
            raise DataModelError(f"CID string {shown(text)} is not canonical (expected {canonical!r})")
        return cid

    def to_bytes(self) -> bytes:
        """The binary CID (for CIDv0, the bare multihash)."""
        if self.version == 1 and self.codec < 0x80 and self.hash_code < 0x80 and len(self.digest) < 0x80:
            return bytes((1, self.codec, self.hash_code, len(self.digest))) + self.digest  # one-byte varints
        multihash = _varint(self.hash_code) + _varint(len(self.digest)) + self.digest
        if self.version == 0:
            return multihash
        return _varint(1) + _varint(self.codec) + multihash

    def encode(self) -> str:
        """The string form: base32 lower ``b…`` for CIDv1, base58btc ``Qm…`` for CIDv0."""
        if self.version == 0:
            return _b58encode(self.to_bytes())
        return libipld.encode_multibase("b", self.to_bytes())  # RFC 4648 base32, lower, no padding

    def matches(self, data: bytes) -> bool:
        """Whether ``data`` hashes to this CID's digest (only sha2-256 can be checked)."""
        if self.hash_code != SHA2_256:
            raise DataModelError(
                f"cannot verify a CID with hash code 0x{self.hash_code:x}: only sha2-256 (0x12)"
            )
        return sha256(data).digest() == self.digest

    @property
    def is_atproto_blessed(self) -> bool:
        """CIDv1, dag-cbor or raw codec, 32-byte sha2-256: the only form atproto writes."""
        return (
            self.version == 1
            and self.codec in (DAG_CBOR, RAW)
            and self.hash_code == SHA2_256
            and len(self.digest) == 32
        )

    def __str__(self) -> str:
        return self.encode()

    def __repr__(self) -> str:
        return f"Cid({self.encode()!r})"
