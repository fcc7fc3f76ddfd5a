"""The atproto data model: the JSON form of records, and the one import for all of it.

Scope: converting between the two forms of atproto data, validating on the way, and re-exporting
``cid`` (``Cid``, codec and hash codes) and ``dagcbor`` (``encode_dag_cbor``, ``decode_dag_cbor``,
``cid_for_json``), so that callers import the data model from here.

- *JSON form*: what XRPC returns and what records look like in JSON. Links are
  ``{"$link": "b…"}``, byte strings are ``{"$bytes": "<base64, no padding>"}``.
- *IPLD form*: plain Python values (``dict`` with ``str`` keys, ``list``, ``str``, ``int`` in the
  signed 64-bit range, ``bool``, ``None``) plus ``bytes`` and ``Cid``. No floats.
- *DAG-CBOR*: the canonical bytes a record's CID is computed from (``dagcbor``).

Pure code: no I/O. Every failure raises ``DataModelError`` saying what was expected and where.

Tricky bits:
- A JSON number like ``123.0`` is an integer in the data model (JavaScript cannot tell them apart);
  ``123.5``, NaN and infinities are rejected.
- A JSON object is a link or bytes only when ``$link``/``$bytes`` is its single key; any other
  object holding one of those keys is invalid, in both directions.
- ``$type``, when present, must be a non-empty string; ``"$type": "blob"`` objects must have
  exactly ``ref`` (a link), ``mimeType`` (a string) and ``size`` (a non-negative integer).
"""

from __future__ import annotations

import base64
from typing import Any, Union

from pdsmem.errors import DataModelError, kind_of
from pdsmem.mapping.cid import DAG_CBOR, DAG_PB, RAW, SHA2_256, Cid
from pdsmem.mapping.dagcbor import (
    INT_MAX,
    INT_MIN,
    MAX_DEPTH,
    IpldValue,
    bytes_from_json,
    check_typed,
    cid_for_json,
    cid_text_for_json,
    decode_dag_cbor,
    encode_dag_cbor,
    link_from_json,
    key_utf8,
    utf8,
    with_segment,
    within_depth,
)

__all__ = ["DAG_CBOR", "DAG_PB", "INT_MAX", "INT_MIN", "MAX_DEPTH", "RAW", "SHA2_256", "Cid", "IpldValue"]
__all__ += ["JsonValue", "cid_for_json", "cid_text_for_json", "decode_dag_cbor", "encode_dag_cbor"]
__all__ += ["SAFE_INTEGER", "ipld_to_json", "json_to_ipld", "unsafe_integer", "within_depth"]

SAFE_INTEGER = 2**53 - 1  # the largest integer every atproto implementation carries exactly


def unsafe_integer(value: Any, depth: int = 0) -> tuple[str, str] | None:
    """(path, message) for the first integer in ``value`` beyond ±(2^53 - 1), or None.

    The data model allows 64 bits, but a PDS refuses a record holding such an integer (the
    reference PDS answers 500), so pdsmem refuses it wherever it takes a record.
    """
    kind = type(value)
    if kind is int:
        if -SAFE_INTEGER <= value <= SAFE_INTEGER:
            return None
        return "", (
            f"integer {value} is beyond ±(2^53 - 1), the largest integer a record can carry "
            "everywhere (a PDS refuses it)"
        )
    if depth > MAX_DEPTH:
        return None
    items = value.items() if kind is dict else enumerate(value) if kind is list else ()
    for key, item in items:
        found = unsafe_integer(item, depth + 1)
        if found is not None:
            step = f"[{key}]" if kind is list else (f".{key}" if str(key).isidentifier() else f"[{key!r}]")
            return step + found[0], found[1]
    return None

JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]


def _convert(value: Any, depth: int, to_json: bool) -> Any:
    """Validate ``value`` and convert it from JSON form to IPLD form, or back with ``to_json``."""
    kind = type(value)
    if kind is str:
        if not value.isascii():
            utf8(value)
        return value
    if kind is dict:
        if depth >= MAX_DEPTH:
            raise DataModelError(f"data nested deeper than {MAX_DEPTH} levels")
        if "$link" in value or "$bytes" in value:
            if to_json:
                raise DataModelError("a map may not have a $link or $bytes key: JSON reserves them")
            return link_from_json(value) if "$link" in value else bytes_from_json(value)
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise DataModelError(f"a map key is {kind_of(key)}, expected a string")
            if not key.isascii():
                key_utf8(key)
            try:
                out[key] = _convert(item, depth + 1, to_json)
            except DataModelError as exc:
                raise with_segment(exc, key) from None
        if "$type" in out:
            check_typed(value if to_json else out, json=False)
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
                raise with_segment(exc, f"[{index}]") from None
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
    raise DataModelError(f"{kind_of(value)} is not {'an IPLD' if to_json else 'a JSON'} value")


def json_to_ipld(value: Any, *, top_level_object: bool = True) -> IpldValue:
    """Convert atproto JSON to IPLD form, validating it against the data model.

    By default the top level must be an object, as records and XRPC bodies are.
    """
    if top_level_object and type(value) is not dict:
        raise DataModelError(f"expected an object at the top level, got {kind_of(value)}")
    return _convert(value, 0, False)


def ipld_to_json(value: IpldValue, *, top_level_object: bool = True) -> JsonValue:
    """Convert IPLD form to atproto JSON (``$link``/``$bytes``), validating it on the way."""
    if top_level_object and type(value) is not dict:
        raise DataModelError(f"expected a map at the top level, got {kind_of(value)}")
    return _convert(value, 0, True)
