"""Strict DAG-CBOR: the canonical bytes a record's CID is computed from.

Scope: ``encode_dag_cbor`` and ``decode_dag_cbor`` for IPLD-form values (``dict`` with ``str``
keys, ``list``, ``str``, 64-bit ``int``, ``bool``, ``None``, ``bytes``, ``Cid``; no floats), and
``cid_for_json``, which encodes a value in JSON form (``$link``, ``$bytes``) directly, in one pass.
The JSON-form readers it shares with ``datamodel`` (links, bytes, ``$type`` rules) live here too.
Re-exported by ``datamodel``. Pure code; every failure raises ``DataModelError`` saying what was
expected and where.

Tricky bits:
- Map keys sort by UTF-8 byte length first, then bytewise (not by code point); the order of each
  key sequence is computed once and cached (bounded).
- Decoding tries compiled code first: cbor2 builds the value, and libipld proves the bytes
  canonical by encoding its own reading back to the same bytes (canonical DAG-CBOR is unique);
  anything not proven goes through the strict decoder, which says exactly what is wrong.
- Nesting deeper than ``MAX_DEPTH`` is refused, never a ``RecursionError``.
"""

from __future__ import annotations

import base64
import re
import struct
from typing import Any, Union

import cbor2
import libipld

from pdsmem.errors import DataModelError, kind_of
from pdsmem.mapping.cid import Cid

__all__ = ["INT_MAX", "INT_MIN", "MAX_DEPTH", "IpldValue", "cid_for_json", "cid_text_for_json", "decode_dag_cbor"]
__all__ += ["decode_dag_cbor_frame", "encode_dag_cbor"]

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
MAX_DEPTH = 256  # nesting of maps and lists; deeper data is refused, never a RecursionError

IpldValue = Union[None, bool, int, str, bytes, "Cid", list["IpldValue"], dict[str, "IpldValue"]]
_B64_TEXT = re.compile(r"[A-Za-z0-9+/]*")


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


def utf8(text: str) -> bytes:
    """The UTF-8 bytes of ``text``; a lone surrogate is a ``DataModelError``."""
    try:
        return text.encode()
    except UnicodeEncodeError as exc:
        raise _surrogate(exc) from None


def key_utf8(key: str) -> bytes:
    """The UTF-8 bytes of a map key; a lone surrogate is a ``DataModelError`` naming the key."""
    try:
        return key.encode()
    except UnicodeEncodeError as exc:
        raise DataModelError(f"a map key {_surrogate(exc).message.removeprefix('string ')}") from None


_AN_INDEX = re.compile(r"\[[0-9]+\]")


def with_segment(error: DataModelError, segment: str) -> DataModelError:
    """Prepend a path segment (a map's key, or ``[index]``) to an error raised deeper in a value; a
    key the privacy gate refuses ("AKIA…" as a field's name) is named by its length, never shown."""
    from pdsmem.mapping.syntax_base import sensitive

    if not _AN_INDEX.fullmatch(segment) and sensitive(segment):
        segment = f"[a key of {len(segment):,} characters]"
    rest = error.path or ""
    error.path = segment + ("" if not rest or rest.startswith("[") else ".") + rest
    return error


_PLAIN_KEYS = {str}


def _plan(mapping: dict[Any, Any]) -> list[tuple[str, bytes]]:
    """The map's keys in canonical order (UTF-8 length, then bytes), each with its encoding.

    Cached by key sequence: records of one kind share their keys, so sorting happens once.
    """
    shape = tuple(mapping)
    plan = _PLANS.get(shape)
    # A str subclass equals (and hashes as) the plain key it spells: a cache hit alone does not
    # prove the keys plain, so their types are checked on every call.
    if plan is None or set(map(type, shape)) != _PLAIN_KEYS:
        entries = []
        for key in shape:
            if type(key) is not str:
                what = "a kind of string other than text" if isinstance(key, str) else kind_of(key)
                raise DataModelError(f"a map key is {what}, expected a string")
            raw = key_utf8(key)
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
        raw = utf8(value)
        out += _head(3, len(raw))
        out += raw
    elif kind is dict:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        if json and ("$link" in value or "$bytes" in value):
            special = link_from_json(value) if "$link" in value else bytes_from_json(value)
            return _encode(special, out, depth, False)
        if json and "$type" in value:
            check_typed(value, json=True)
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
                raise with_segment(exc, key) from None
            except UnicodeEncodeError as exc:
                raise with_segment(_surrogate(exc), key) from None
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
                raise with_segment(exc, f"[{index}]") from None
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


# Once libipld has proven bytes canonical by encoding them back to the same bytes, every float in
# them is written 0xfb + 8 bytes and every integer beyond 64-bit signed range 0x1b or 0x3b with a
# high first byte: bytes with neither pattern anywhere (UTF-8 never has 0xfb) hold neither. Bytes
# with the pattern (often inside a link's digest) have libipld's reading searched instead.


def maybe_outside_model(data: bytes) -> bool:
    """False when canonical DAG-CBOR ``data`` surely has no float and no integer beyond 64-bit
    signed range: no 0xfb byte, and no 0x1b or 0x3b followed by a byte of 0x80 or more. Each byte
    is looked for with ``find`` (compiled), not a pattern: a 0x3b is common (the length byte of
    every 59-character text, as a CID string is), and a regular expression's scan is slower."""
    if b"\xfb" in data:
        return True
    for head in (0x1B, 0x3B):
        at = data.find(head)
        while at >= 0:
            if at + 1 < len(data) and data[at + 1] >= 0x80:
                return True
            at = data.find(head, at + 1)
    return False


NOT_PROVEN = object()


def proven_reading(data: bytes) -> Any:
    """libipld's reading of ``data`` when compiled code proves it canonical DAG-CBOR inside
    atproto's data model, else ``NOT_PROVEN`` (the strict decoder then decides).

    The proof: libipld reads it and encodes that back to the same bytes (canonical DAG-CBOR is
    unique; libipld refuses non-42 tags, non-string and unsorted keys), it holds no float and no
    out-of-range integer (no byte pattern of one, else none in libipld's reading, which gives a
    float as a ``float`` and any integer as an ``int``), and it nests at most ``MAX_DEPTH``
    levels. libipld gives links as plain
    ``bytes`` (and encodes back as a link any bytes that read as one, so the equality also proves
    which were links); use the value only where that does not matter.
    """
    try:
        value = libipld.decode_dag_cbor(data)
        # Each level of nesting takes a byte at least: bytes no longer than MAX_DEPTH nest no deeper.
        if libipld.encode_dag_cbor(value) == data and (len(data) <= MAX_DEPTH or within_depth(value)) and (
                not maybe_outside_model(data) or numbers_in_model(value)):
            return value
    except (ValueError, RecursionError):
        pass
    return NOT_PROVEN


def numbers_in_model(value: Any) -> bool:
    """Whether ``value`` (libipld's reading, nesting already bounded) holds no float and no integer
    beyond 64-bit signed range."""
    stack: list[Any] = [[value]]
    while stack:
        node = stack.pop()
        for item in node.values() if type(node) is dict else node:
            kind = type(item)
            if kind is dict or kind is list:
                stack.append(item)
            elif kind is float or (kind is int and not INT_MIN <= item <= INT_MAX):
                return False
    return True


def within_depth(value: Any) -> bool:
    """Whether maps and lists nest at most ``MAX_DEPTH`` levels in ``value``."""
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return False
        level = [item for node in level
                 for item in (node.values() if type(node) is dict else node if type(node) is list else ())
                 if type(item) is dict or type(item) is list]
    return True


def decode_dag_cbor(data: bytes | bytearray | memoryview) -> IpldValue:
    """Decode one DAG-CBOR value strictly, refusing anything a canonical encoder would not write."""
    data = bytes(data)
    try:
        # Fast path: compiled code proves the bytes canonical (``proven_reading``), then cbor2
        # builds the value, with links as ``Cid``.
        if proven_reading(data) is not NOT_PROVEN:
            return cbor2.loads(data, tag_hook=_cid_tag)
    except Exception:  # noqa: BLE001 - any refusal falls through to the strict decoder
        pass
    # Strict path: refuses what the fast path could not prove canonical, saying exactly why.
    value, pos = _decode(data, 0, 0)
    if pos != len(data):
        raise DataModelError(f"DAG-CBOR has {len(data) - pos} trailing bytes after byte {pos}")
    return value


def decode_dag_cbor_frame(data: bytes | bytearray | memoryview) -> tuple[IpldValue, IpldValue]:
    """An event-stream frame: two DAG-CBOR values back to back, a header then a body, each read
    as strictly as ``decode_dag_cbor`` reads one value."""
    data = bytes(data)
    header, pos = _decode(data, 0, 0)
    return header, decode_dag_cbor(data[pos:])


# --- reading the JSON form (for cid_for_json and datamodel) ---------------------------------------

_BLOB_KEYS = frozenset(("$type", "ref", "mimeType", "size"))


def check_typed(obj: dict[str, Any], json: bool) -> None:
    """Rules for ``$type``, shared by both directions; ``json`` says which form ``obj`` is in."""
    kind = obj["$type"]
    if type(kind) is not str or not kind:
        raise DataModelError(f"$type must be a non-empty string, got {kind_of(kind) if kind != '' else 'an empty string'}")
    if kind != "blob":
        return
    if obj.keys() != _BLOB_KEYS:
        missing = ", ".join(sorted(map(str, _BLOB_KEYS - obj.keys()))) or "none"
        extra = ", ".join(sorted(map(str, obj.keys() - _BLOB_KEYS))) or "none"
        raise DataModelError(
            f"blob must have exactly $type, ref, mimeType and size (missing: {missing}; "
            f"unexpected: {extra})"
        )
    ref = obj["ref"]
    if not (type(ref) is dict and "$link" in ref if json else type(ref) is Cid):
        raise DataModelError(f"blob ref must be a CID link, got {kind_of(ref)}")
    if type(obj["mimeType"]) is not str:
        raise DataModelError(f"blob mimeType must be a string, got {kind_of(obj['mimeType'])}")
    size = obj["size"]
    if json and type(size) is float and size.is_integer():
        size = int(size)
    if type(size) is not int or size < 0:
        raise DataModelError(f"blob size must be a non-negative integer, got {size if type(size) is int else kind_of(size)}")


def link_from_json(obj: dict[str, Any]) -> Cid:
    """The ``Cid`` of a JSON-form link ``{"$link": "b…"}``."""
    if len(obj) != 1:
        raise DataModelError("a $link object must have no other keys, got " + ", ".join(map(str, obj)))
    text = obj["$link"]
    if type(text) is not str:
        raise DataModelError(f"$link must be a CID string, got {kind_of(text)}")
    return Cid.decode(text)


def bytes_from_json(obj: dict[str, Any]) -> bytes:
    """The bytes of a JSON-form ``{"$bytes": "<base64, no padding>"}``."""
    if len(obj) != 1:
        raise DataModelError("a $bytes object must have no other keys, got " + ", ".join(map(str, obj)))
    text = obj["$bytes"]
    if type(text) is not str or not _B64_TEXT.fullmatch(text) or len(text) % 4 == 1:
        raise DataModelError(f"$bytes must be a base64 string without padding, got {text!r:.60}")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def cid_for_json(value: Any) -> Cid:
    """The CID a PDS gives a record supplied in JSON form.

    Same CID as ``Cid.for_dag_cbor(encode_dag_cbor(json_to_ipld(value)))``, and refuses the same
    values, in one pass over the value instead of two.
    """
    return Cid.for_dag_cbor(_encode_json(value))


def cid_text_for_json(value: Any) -> str:
    """``str(cid_for_json(value))``, without building the ``Cid``.

    Values of the usual shape (``_compiled_encodes``) are encoded by libipld's compiled encoder,
    which writes the same canonical bytes as ``_encode`` for them (a property test holds the two
    equal); every other value, and every invalid one, goes through the strict encoder, which
    decides and words the error.
    """
    if type(value) is dict and _compiled_encodes(value, 0):
        try:
            return Cid.text_for_dag_cbor(libipld.encode_dag_cbor(value))
        except (ValueError, OverflowError):  # a lone surrogate: the strict encoder says where
            pass
    return Cid.text_for_dag_cbor(_encode_json(value))


_COMPILED_DEPTH = 32  # deeper values take the strict path (a record rarely nests past 4)


def _compiled_encodes(value: dict, depth: int) -> bool:
    """Whether libipld encodes the JSON-form map ``value`` exactly as ``_encode`` would: maps
    (exact ``dict``, string keys, no ``$link``/``$bytes`` key, any ``$type`` a non-empty string
    other than ``"blob"``), lists, ``str``, ``bool``, ``None`` and 64-bit ``int``, by exact type.

    libipld would also accept what the strict encoder refuses or reads differently: floats
    (``1.0`` is the integer 1 here), ``bytes``, ``str`` subclasses, 64-bit unsigned integers,
    links written as ``$link`` maps; none of them passes.
    """
    if depth >= _COMPILED_DEPTH or "$link" in value or "$bytes" in value:
        return False
    if "$type" in value:
        name = value["$type"]
        if type(name) is not str or not name or name == "blob":
            return False
    for key, item in value.items():
        kind = type(item)
        if type(key) is not str:
            return False
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not INT_MIN <= item <= INT_MAX:
                return False
        elif kind is dict:
            if not _compiled_encodes(item, depth + 1):
                return False
        elif kind is not list or not _compiled_encodes_list(item, depth + 1):
            return False
    return True


def _compiled_encodes_list(value: list, depth: int) -> bool:
    """``_compiled_encodes`` for a list."""
    if depth >= _COMPILED_DEPTH:
        return False
    for item in value:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not INT_MIN <= item <= INT_MAX:
                return False
        elif kind is dict:
            if not _compiled_encodes(item, depth + 1):
                return False
        elif kind is not list or not _compiled_encodes_list(item, depth + 1):
            return False
    return True


def _encode_json(value: Any) -> bytearray:
    if type(value) is not dict:
        raise DataModelError(f"expected an object at the top level, got {kind_of(value)}")
    out = bytearray()
    _encode(value, out, 0, True)
    return out
