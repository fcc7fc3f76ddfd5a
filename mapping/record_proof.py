"""A record block proven valid by compiled code and byte searches, without the strict decoder.

Scope: ``proven_record(raw)``, used where a repository's records of other collections are only
checked, not mapped (``pdsmem verify``, ``bridge/atproto/repo.py``'s ``_other_record``). It answers
libipld's reading of the block when the block is certainly what the strict path (the strict
decoder, then the JSON form, ``datamodel.ipld_to_json``) accepts, and ``None`` otherwise; it
never words an error: the strict path then decides and says what is wrong. Pure code.

What the strict path accepts, and how each point is proven here:
- canonical DAG-CBOR in atproto's data model (no float, 64-bit integers, nesting at most 256):
  ``dagcbor.proven_reading``;
- a map: the reading's type;
- no ``$link`` or ``$bytes`` key anywhere: neither word anywhere in the bytes;
- every ``$type`` a non-empty string: in canonical bytes each ``$type`` key is written
  ``0x65 "$type"`` and its value follows it, so a search of every occurrence of those bytes
  finds each value that is not a non-empty text;
- every link a CID: each link is written ``0xd8 0x2a`` (tag 42) then its byte string; a search
  of every occurrence finds each link not of the one form atproto writes (CIDv1, dag-cbor or
  raw, sha-256: ``0x58 0x25 0x00`` then its 36 bytes), which the strict decoder then reads;
- every ``"$type": "blob"`` map exactly a blob (``ref`` a link, ``mimeType`` a string, ``size``
  a non-negative integer): such a map is written ``0x65 "$type" 0x64 "blob"``; where those bytes
  occur, the reading is searched for every such map and each is checked (``_blobs_fit``).

Tricky bits:
- An occurrence of a pattern inside a text or a digest (``"the$type"``, a digest holding
  ``0xd8 0x2a``) is searched too: at worst one more record sent to the strict path.
- The searches run on every record: plain ``in`` and ``find`` (compiled) where a regular
  expression would try its pattern at every byte; the one pattern left (``_ODD_LINK``) runs
  only where a tag 42 is written.
- libipld gives a link as plain bytes, and encodes back as a link any bytes that read as a CID,
  so once the reading encodes back to the same bytes, bytes of a CID's form in it were a link
  (a byte string holding a CID would have come back as a link, and different bytes).
- ``tests/test_repo_fast.py`` holds every answer to the strict path's verdict, on valid,
  mutated and hostile records of the shapes real accounts have.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pdsmem.mapping.cid import DAG_CBOR, RAW, SHA2_256
from pdsmem.mapping.dagcbor import proven_reading

__all__ = ["proven_record"]

_TYPE_KEY = b"\x65$type"
_ODD_LINK = re.compile(rb"\xd8\x2a(?!\x58\x25\x00\x01[\x71\x55]\x12\x20)")  # a tag 42 of another form
_BLOB_TYPE = b"\x65$type\x64blob"
_LINK_HEADS = (bytes((1, DAG_CBOR, SHA2_256, 32)), bytes((1, RAW, SHA2_256, 32)))
_BLOB_KEYS = frozenset(("$type", "ref", "mimeType", "size"))


def proven_record(raw: bytes) -> dict[str, Any] | None:
    """libipld's reading of the record block ``raw`` when it is proven to be what the strict path
    accepts (see the module's docstring), else ``None``. Its links are bytes, not ``Cid``."""
    if b"$link" in raw or b"$bytes" in raw or _odd_type(raw) \
            or (b"\xd8\x2a" in raw and _ODD_LINK.search(raw) is not None):
        return None
    value = proven_reading(raw)
    if type(value) is not dict or (_BLOB_TYPE in raw and not _blobs_fit(value)):
        return None
    return value


def _odd_type(raw: bytes) -> bool:
    """Whether some ``0x65 "$type"`` in ``raw`` is not followed by the head of a non-empty text
    (0x61 to 0x7b); each is found with ``find`` (compiled), which is quicker than a pattern."""
    at = raw.find(_TYPE_KEY)
    while at >= 0:
        after = at + len(_TYPE_KEY)
        if after >= len(raw) or not 0x61 <= raw[after] <= 0x7B:
            return True
        at = raw.find(_TYPE_KEY, at + 1)
    return False


def _blobs_fit(value: dict[str, Any]) -> bool:
    """Whether every map in ``value`` (a proven reading) whose ``$type`` is ``"blob"`` has exactly
    ``$type``, ``ref`` (a link of atproto's form), ``mimeType`` (a string) and ``size`` (a
    non-negative integer)."""
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        items: Iterable[Any] = node
        if type(node) is dict:
            if node.get("$type") == "blob":
                ref, size = node.get("ref"), node.get("size")
                if (node.keys() != _BLOB_KEYS or type(ref) is not bytes or len(ref) != 36
                        or ref[:4] not in _LINK_HEADS or type(node["mimeType"]) is not str
                        or type(size) is not int or size < 0):
                    return False
            items = node.values()
        stack.extend(item for item in items if type(item) is dict or type(item) is list)
    return True
