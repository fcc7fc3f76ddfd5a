"""The atproto data model: CIDs, strict DAG-CBOR, and the JSON form of records.

Scope: three representations of the same data and the conversions between them.

- *JSON form*: what XRPC returns and what records look like in JSON. Links are
  ``{"$link": "b…"}``, byte strings are ``{"$bytes": "<base64, no padding>"}``.
- *IPLD form*: plain Python values (``dict`` with ``str`` keys, ``list``, ``str``, ``int`` in the
  signed 64-bit range, ``bool``, ``None``) plus ``bytes`` and ``Cid``. No floats.
- *DAG-CBOR*: the canonical bytes a record's CID is computed from.

Pure code: no I/O. Every failure raises ``DataModelError`` saying what was expected and where.

Tricky bits:
- Map keys sort by UTF-8 byte length first, then bytewise (not by code point).
- A JSON number like ``123.0`` is an integer in the data model (JavaScript cannot tell them apart);
  ``123.5``, NaN and infinities are rejected.
- A JSON object is a link or bytes only when ``$link``/``$bytes`` is its single key; any other
  object holding one of those keys is invalid, in both directions.
- ``$type``, when present, must be a non-empty string; ``"$type": "blob"`` objects must have
  exactly ``ref`` (a link), ``mimeType`` (a string) and ``size`` (a non-negative integer).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import struct
from dataclasses import dataclass
from typing import Any, Union

import cbor2

from pdsmem.errors import DataModelError

DAG_CBOR = 0x71
RAW = 0x55
DAG_PB = 0x70
SHA2_256 = 0x12

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
MAX_DEPTH = 256  # nesting of maps and lists; deeper data is refused, never a RecursionError

IpldValue = Union[None, bool, int, str, bytes, "Cid", list["IpldValue"], dict[str, "IpldValue"]]
JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]

_V0_SHAPE = (DAG_PB, SHA2_256, 32)
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_B58)}
_B32_TEXT = re.compile(r"[a-z2-7]+")
_B64_TEXT = re.compile(r"[A-Za-z0-9+/]*")


# --- CID ---------------------------------------------------------------------------------------


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
            raise DataModelError(f"invalid base58btc character {c!r} in CID {text!r}")
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
        return cls(1, DAG_CBOR, SHA2_256, hashlib.sha256(data).digest())

    @classmethod
    def for_raw(cls, data: bytes) -> Cid:
        """The CIDv1 (raw, sha2-256) of arbitrary bytes: how blobs are named."""
        return cls(1, RAW, SHA2_256, hashlib.sha256(data).digest())

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
            raise DataModelError(f"expected a CID string, got {text!r}")
        prefix, body = text[0], text[1:]
        if len(text) == 46 and text.startswith("Qm"):
            raw = _b58decode(text)
        elif prefix == "b" and _B32_TEXT.fullmatch(body):
            try:
                raw = base64.b32decode(body.upper() + "=" * (-len(body) % 8))
            except binascii.Error as exc:
                raise DataModelError(f"invalid base32 in CID {text!r}: {exc}") from None
        elif prefix == "z":
            raw = _b58decode(body)
        else:
            raise DataModelError(
                f"unsupported CID string {text!r}: expected base32 'b…', base58btc 'z…' or 'Qm…'"
            )
        if raw[:1] == b"\x12" and prefix != "Q":
            raise DataModelError(f"CID string {text!r} is a multibase-wrapped CIDv0")
        try:
            cid = cls.from_bytes(raw)
        except DataModelError as exc:
            raise DataModelError(f"invalid CID {text!r}: {exc.message}") from None
        canonical = "z" + _b58encode(raw) if prefix == "z" else cid.encode()
        if canonical != text:
            raise DataModelError(f"CID string {text!r} is not canonical (expected {canonical!r})")
        return cid

    def to_bytes(self) -> bytes:
        """The binary CID (for CIDv0, the bare multihash)."""
        multihash = _varint(self.hash_code) + _varint(len(self.digest)) + self.digest
        if self.version == 0:
            return multihash
        return _varint(1) + _varint(self.codec) + multihash

    def encode(self) -> str:
        """The string form: base32 lower ``b…`` for CIDv1, base58btc ``Qm…`` for CIDv0."""
        if self.version == 0:
            return _b58encode(self.to_bytes())
        return "b" + base64.b32encode(self.to_bytes()).decode("ascii").rstrip("=").lower()

    def matches(self, data: bytes) -> bool:
        """Whether ``data`` hashes to this CID's digest (only sha2-256 can be checked)."""
        if self.hash_code != SHA2_256:
            raise DataModelError(
                f"cannot verify a CID with hash code 0x{self.hash_code:x}: only sha2-256 (0x12)"
            )
        return hashlib.sha256(data).digest() == self.digest

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


# --- DAG-CBOR encoding -------------------------------------------------------------------------

_HEAD_1 = [bytes((b,)) for b in range(256)]
_PACK_2 = struct.Struct(">BH").pack
_PACK_4 = struct.Struct(">BI").pack
_PACK_8 = struct.Struct(">BQ").pack
_PLANS: dict[tuple[str, ...], list[tuple[str, bytes]]] = {}
_PLANS_MAX = 2048  # cached key orders; the cache is emptied when full
_PLAN_KEYS_MAX = 64  # wider maps are sorted every time rather than cached


def _head(major: int, n: int) -> bytes:
    """A CBOR head with the shortest argument encoding for ``n``."""
    mt = major << 5
    if n < 24:
        return _HEAD_1[mt | n]
    if n < 0x100:
        return bytes((mt | 24, n))
    if n < 0x10000:
        return _PACK_2(mt | 25, n)
    if n < 0x100000000:
        return _PACK_4(mt | 26, n)
    return _PACK_8(mt | 27, n)


_TEXT_HEAD = [_head(3, n) for n in range(256)]


def _surrogate(exc: UnicodeEncodeError) -> DataModelError:
    return DataModelError(
        f"string holds a lone surrogate at index {exc.start}, which is not valid Unicode"
    )


def _utf8(text: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError as exc:
        raise _surrogate(exc) from None


def _at(error: DataModelError, segment: str) -> DataModelError:
    """Prepend a path segment to an error raised deeper in a value."""
    rest = error.path or ""
    error.path = segment + ("" if not rest or rest.startswith("[") else ".") + rest
    return error


def _plan(mapping: dict[Any, Any]) -> list[tuple[str, bytes]]:
    """The map's keys in canonical order (UTF-8 length, then bytes), each with its encoding.

    Cached by key sequence: records of one kind share their keys, so sorting happens once.
    """
    shape = tuple(mapping)
    plan = _PLANS.get(shape)
    if plan is None:
        entries = []
        for key in shape:
            if type(key) is not str:
                raise DataModelError(f"map key {key!r} is a {type(key).__name__}, expected str")
            raw = _utf8(key)
            entries.append(((len(raw), raw), key, _head(3, len(raw)) + raw))
        entries.sort()
        plan = [(key, encoded) for _, key, encoded in entries]
        if len(shape) <= _PLAN_KEYS_MAX:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            _PLANS[shape] = plan
    return plan


def _encode(value: Any, out: bytearray, depth: int, json: bool) -> None:
    """Append the DAG-CBOR of ``value``; with ``json``, read it in JSON form ($link, $bytes)."""
    kind = type(value)
    if kind is str:
        raw = _utf8(value)
        out += _head(3, len(raw))
        out += raw
    elif kind is dict:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        if json and ("$link" in value or "$bytes" in value):
            special = _link_from_json(value) if "$link" in value else _bytes_from_json(value)
            return _encode(special, out, depth, False)
        if json and "$type" in value:
            _check_typed(value, json=True)
        plan = _plan(value)
        out += _head(5, len(plan))
        for key, encoded_key in plan:
            out += encoded_key
            item = value[key]
            try:
                if type(item) is str:  # inline the commonest case
                    raw = item.encode()
                    size = len(raw)
                    out += _TEXT_HEAD[size] if size < 256 else _head(3, size)
                    out += raw
                else:
                    _encode(item, out, depth + 1, json)
            except DataModelError as exc:
                raise _at(exc, key) from None
            except UnicodeEncodeError as exc:
                raise _at(_surrogate(exc), key) from None
    elif kind is int:
        if value >= 0:
            if value > INT_MAX:
                raise DataModelError(f"integer {value} is above the 64-bit maximum {INT_MAX}")
            out += _head(0, value)
        else:
            if value < INT_MIN:
                raise DataModelError(f"integer {value} is below the 64-bit minimum {INT_MIN}")
            out += _head(1, -1 - value)
    elif kind is list:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        out += _head(4, len(value))
        for index, item in enumerate(value):
            try:
                _encode(item, out, depth + 1, json)
            except DataModelError as exc:
                raise _at(exc, f"[{index}]") from None
    elif kind is bool:
        out += b"\xf5" if value else b"\xf4"
    elif value is None:
        out += b"\xf6"
    elif kind is Cid and not json:
        raw = value.to_bytes()
        out += b"\xd8\x2a"
        out += _head(2, len(raw) + 1)
        out += b"\x00"
        out += raw
    elif kind is bytes and not json:
        out += _head(2, len(value))
        out += value
    elif kind is float:
        if json and value.is_integer():
            return _encode(int(value), out, depth, json)
        raise DataModelError(f"number {value!r} is not an integer; atproto data has no floats")
    else:
        expected = "a JSON value" if json else "dict, list, str, int, bool, None, bytes or Cid"
        raise DataModelError(f"a {kind.__name__} cannot be encoded: expected {expected}")


def encode_dag_cbor(value: IpldValue) -> bytes:
    """Encode an IPLD-form value as canonical DAG-CBOR (the bytes a CID is computed from)."""
    out = bytearray()
    _encode(value, out, 0, False)
    return bytes(out)


# --- DAG-CBOR decoding (strict) ----------------------------------------------------------------

_MIN_FOR_WIDTH = {24: 24, 25: 0x100, 26: 0x10000, 27: 0x100000000}


def _decode(data: bytes, pos: int, depth: int) -> tuple[Any, int]:
    end = len(data)
    if pos >= end:
        raise DataModelError(f"DAG-CBOR truncated: expected a value at byte {pos}")
    initial = data[pos]
    major, info = initial >> 5, initial & 0x1F
    start = pos
    pos += 1
    if major == 7:
        if info == 20:
            return False, pos
        if info == 21:
            return True, pos
        if info == 22:
            return None, pos
        if info in (25, 26, 27):
            raise DataModelError(f"DAG-CBOR float at byte {start}: atproto data has no floats")
        if info == 23:
            raise DataModelError(f"DAG-CBOR 'undefined' at byte {start} is not allowed")
        raise DataModelError(f"DAG-CBOR simple value 0x{initial:02x} at byte {start} is not allowed")
    if info < 24:
        n = info
    elif info <= 27:
        width = 1 << (info - 24)
        if pos + width > end:
            raise DataModelError(f"DAG-CBOR truncated in the head at byte {start}")
        n = int.from_bytes(data[pos : pos + width], "big")
        pos += width
        if n < _MIN_FOR_WIDTH[info]:
            raise DataModelError(f"DAG-CBOR non-minimal length or integer at byte {start}")
    elif info == 31:
        raise DataModelError(f"DAG-CBOR indefinite-length item at byte {start} is not allowed")
    else:
        raise DataModelError(f"DAG-CBOR reserved additional info {info} at byte {start}")

    if major == 0:
        if n > INT_MAX:
            raise DataModelError(f"integer at byte {start} is above the 64-bit maximum")
        return n, pos
    if major == 1:
        if n > INT_MAX:
            raise DataModelError(f"integer at byte {start} is below the 64-bit minimum")
        return -1 - n, pos
    if major == 2 or major == 3:
        if pos + n > end:
            raise DataModelError(f"DAG-CBOR truncated: string at byte {start} needs {n} bytes")
        chunk = data[pos : pos + n]
        if major == 2:
            return chunk, pos + n
        try:
            return chunk.decode("utf-8"), pos + n
        except UnicodeDecodeError:
            raise DataModelError(f"DAG-CBOR text string at byte {start} is not UTF-8") from None
    if major == 4:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"DAG-CBOR nested deeper than {MAX_DEPTH} levels at byte {start}")
        if n > end - pos:
            raise DataModelError(f"DAG-CBOR truncated: array at byte {start} of {n} items")
        items = []
        for _ in range(n):
            item, pos = _decode(data, pos, depth + 1)
            items.append(item)
        return items, pos
    if major == 5:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"DAG-CBOR nested deeper than {MAX_DEPTH} levels at byte {start}")
        if 2 * n > end - pos:
            raise DataModelError(f"DAG-CBOR truncated: map at byte {start} of {n} entries")
        result: dict[str, Any] = {}
        previous: tuple[int, bytes] | None = None
        for _ in range(n):
            if pos < end and data[pos] >> 5 != 3:
                raise DataModelError(f"DAG-CBOR map key at byte {pos} is not a text string")
            key_at = pos
            key, pos = _decode(data, pos, depth + 1)
            raw = data[key_at:pos]  # same head width for the same length, so order is preserved
            order = (len(raw), raw)
            if previous is not None and order <= previous:
                problem = "duplicate" if order == previous else "out of canonical order"
                raise DataModelError(f"DAG-CBOR map key {key!r} at byte {key_at} is {problem}")
            previous = order
            result[key], pos = _decode(data, pos, depth + 1)
        return result, pos
    # major 6: tags; only 42 (CID link) exists in DAG-CBOR
    if n != 42:
        raise DataModelError(f"DAG-CBOR tag {n} at byte {start}: only tag 42 (CID) is allowed")
    if pos >= end or data[pos] >> 5 != 2:
        raise DataModelError(f"DAG-CBOR tag 42 at byte {start} must wrap a byte string")
    raw, pos = _decode(data, pos, depth + 1)
    if raw[:1] != b"\x00":
        raise DataModelError(f"CID link at byte {start} lacks the leading 0x00 multibase byte")
    try:
        return Cid.from_bytes(raw[1:]), pos
    except DataModelError as exc:
        raise DataModelError(f"CID link at byte {start}: {exc.message}") from None


def _cid_tag(*args: Any) -> Cid:
    """Tag hook for the fast path; any tag but a well-formed 42 aborts it."""
    tag = next(arg for arg in args if isinstance(arg, cbor2.CBORTag))
    if tag.tag != 42 or type(tag.value) is not bytes or tag.value[:1] != b"\x00":
        raise ValueError("not a DAG-CBOR CID link")
    return Cid.from_bytes(tag.value[1:])


def decode_dag_cbor(data: bytes | bytearray | memoryview) -> IpldValue:
    """Decode one DAG-CBOR value strictly, refusing anything a canonical encoder would not write."""
    data = bytes(data)
    try:
        # Fast path: a compiled decoder, then proof of canonical form, since canonical DAG-CBOR
        # is unique: the value must encode back to exactly these bytes.
        value = cbor2.loads(data, tag_hook=_cid_tag)
        if encode_dag_cbor(value) == data:
            return value
    except Exception:  # noqa: BLE001 - any refusal falls through to the strict decoder
        pass
    # Strict path: refuses what the fast path could not prove canonical, saying exactly why.
    value, pos = _decode(data, 0, 0)
    if pos != len(data):
        raise DataModelError(f"DAG-CBOR has {len(data) - pos} trailing bytes after byte {pos}")
    return value


# --- JSON form <-> IPLD form -------------------------------------------------------------------


_BLOB_KEYS = frozenset(("$type", "ref", "mimeType", "size"))


def _check_typed(obj: dict[str, Any], json: bool) -> None:
    """Rules for ``$type``, shared by both directions; ``json`` says which form ``obj`` is in."""
    kind = obj["$type"]
    if type(kind) is not str or not kind:
        raise DataModelError(f"$type must be a non-empty string, got {kind!r}")
    if kind != "blob":
        return
    if obj.keys() != _BLOB_KEYS:
        missing = ", ".join(sorted(_BLOB_KEYS - obj.keys())) or "none"
        extra = ", ".join(sorted(obj.keys() - _BLOB_KEYS)) or "none"
        raise DataModelError(
            f"blob must have exactly $type, ref, mimeType and size (missing: {missing}; "
            f"unexpected: {extra})"
        )
    ref = obj["ref"]
    if not (type(ref) is dict and "$link" in ref if json else type(ref) is Cid):
        raise DataModelError(f"blob ref must be a CID link, got {ref!r:.80}")
    if type(obj["mimeType"]) is not str:
        raise DataModelError(f"blob mimeType must be a string, got {obj['mimeType']!r}")
    size = obj["size"]
    if json and type(size) is float and size.is_integer():
        size = int(size)
    if type(size) is not int or size < 0:
        raise DataModelError(f"blob size must be a non-negative integer, got {size!r}")


def _link_from_json(obj: dict[str, Any]) -> Cid:
    if len(obj) != 1:
        raise DataModelError("a $link object must have no other keys, got " + ", ".join(obj))
    text = obj["$link"]
    if type(text) is not str:
        raise DataModelError(f"$link must be a CID string, got {text!r}")
    return Cid.decode(text)


def _bytes_from_json(obj: dict[str, Any]) -> bytes:
    if len(obj) != 1:
        raise DataModelError("a $bytes object must have no other keys, got " + ", ".join(obj))
    text = obj["$bytes"]
    if type(text) is not str or not _B64_TEXT.fullmatch(text) or len(text) % 4 == 1:
        raise DataModelError(f"$bytes must be a base64 string without padding, got {text!r:.60}")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def _convert(value: Any, depth: int, to_json: bool) -> Any:
    """Validate ``value`` and convert it from JSON form to IPLD form, or back with ``to_json``."""
    kind = type(value)
    if kind is str:
        if not value.isascii():
            _utf8(value)
        return value
    if kind is dict:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        if "$link" in value or "$bytes" in value:
            if to_json:
                raise DataModelError("a map may not have a $link or $bytes key: JSON reserves them")
            return _link_from_json(value) if "$link" in value else _bytes_from_json(value)
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise DataModelError(f"map key {key!r} is a {type(key).__name__}, expected str")
            try:
                out[key] = _convert(item, depth + 1, to_json)
            except DataModelError as exc:
                raise _at(exc, key) from None
        if "$type" in out:
            _check_typed(value if to_json else out, json=False)
        return out
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:
            raise DataModelError(f"integer {value} is outside the signed 64-bit range")
        return value
    if kind is list:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        items = []
        for index, item in enumerate(value):
            try:
                items.append(_convert(item, depth + 1, to_json))
            except DataModelError as exc:
                raise _at(exc, f"[{index}]") from None
        return items
    if kind is bool or value is None:
        return value
    if kind is float:
        if not to_json and value.is_integer() and INT_MIN <= value <= INT_MAX:
            return int(value)
        raise DataModelError(f"number {value!r} is not an integer; atproto data has no floats")
    if to_json and kind is Cid:
        return {"$link": value.encode()}
    if to_json and kind is bytes:
        return {"$bytes": base64.b64encode(value).decode("ascii").rstrip("=")}
    raise DataModelError(f"a {kind.__name__} is not {'an IPLD' if to_json else 'a JSON'} value")


def json_to_ipld(value: Any, *, top_level_object: bool = True) -> IpldValue:
    """Convert atproto JSON to IPLD form, validating it against the data model.

    By default the top level must be an object, as records and XRPC bodies are.
    """
    if top_level_object and type(value) is not dict:
        raise DataModelError(f"expected an object at the top level, got {type(value).__name__}")
    return _convert(value, 0, False)


def ipld_to_json(value: IpldValue, *, top_level_object: bool = True) -> JsonValue:
    """Convert IPLD form to atproto JSON (``$link``/``$bytes``), validating it on the way."""
    if top_level_object and type(value) is not dict:
        raise DataModelError(f"expected a map at the top level, got {type(value).__name__}")
    return _convert(value, 0, True)


def cid_for_json(value: Any) -> Cid:
    """The CID a PDS gives a record supplied in JSON form.

    Same CID as ``Cid.for_dag_cbor(encode_dag_cbor(json_to_ipld(value)))``, and refuses the same
    values, in one pass over the value instead of two.
    """
    if type(value) is not dict:
        raise DataModelError(f"expected an object at the top level, got {type(value).__name__}")
    out = bytearray()
    _encode(value, out, 0, True)
    return Cid.for_dag_cbor(out)
