"""JSON Lines text for the command line: how a record view is written (even 50,000 levels
deep), and lines that no record view turns into (broken JSON, bad bytes, huge numbers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pdsmem.lexicons import RECORD_NSID

from .records import record, uri, view


class _Raw(str):
    """JSON text already written (a bracket, a separator, a key)."""


def json_text(value: Any) -> str:
    """The JSON text of ``value``, written without recursion (some cases nest 50,000 levels,
    deeper than ``json.dumps`` goes). NaN and infinities are written as Python's JSON does."""
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Raw):
            out.append(item)
        elif isinstance(item, dict):
            parts: list[Any] = [_Raw("{")]
            for index, (key, inner) in enumerate(item.items()):
                parts += [_Raw(("," if index else "") + json.dumps(key) + ":"), inner]
            stack.extend(reversed([*parts, _Raw("}")]))
        elif isinstance(item, list):
            parts = [_Raw("[")]
            for index, inner in enumerate(item):
                parts += [_Raw(",")] * bool(index) + [inner]
            stack.extend(reversed([*parts, _Raw("]")]))
        else:
            out.append(json.dumps(item))
    return "".join(out)


@dataclass(frozen=True)
class TextCase:
    """A line of JSON Lines input that no record view turns into: broken JSON, bad bytes."""

    name: str
    line: bytes
    from_record: str | None  # what `convert from-record` says of it; None: nothing wrong
    validate: str | None  # what `validate` says of it
    bug: str | None = None


def text_cases() -> list[TextCase]:
    digits = ('{"uri":"%s","value":{"$type":"%s","content":"x","createdAt":"2024-01-01T00:00:00Z","n":%s}}'
              % (uri(), RECORD_NSID, "1" * 5000)).encode()
    bad_json = "not valid JSON"
    return [
        TextCase("json-cut-off", b'{"uri": "at://', bad_json, bad_json),
        TextCase("json-trailing-garbage", b'{"uri": 1} x', bad_json, bad_json),
        TextCase("json-byte-order-mark", b"\xef\xbb\xbf" + json_text(view(record())).encode(), bad_json, bad_json),
        TextCase("json-raw-control-character", b'{"a": "x\x01y"}', bad_json, bad_json),
        TextCase("json-nul-byte", b"\x00", bad_json, bad_json),
        TextCase("json-single-quotes", b"{'uri': 'x'}", bad_json, bad_json),
        TextCase("json-empty-object", b"{}", "no 'uri' string", "is required"),
        TextCase("json-blank-line", b"   \t  ", None, None),
        TextCase("json-ten-megabyte-content", json_text(view(record(content="x" * 10_000_000))).encode(),
                 "at most 10000 bytes", "at most 10000 bytes"),
        TextCase("json-integer-of-5000-digits", digits, "too many digits", "too many digits"),
        TextCase("json-100000-open-brackets", b"[" * 100_000, "nested deeper", "nested deeper"),
        TextCase("json-invalid-utf8", b'{"uri": "\xff\xfe"}', "not valid UTF-8", "not valid UTF-8"),
    ]
