"""Where memories to export come from: a JSON Lines file, or a directory of one-event-per-file JSON.

The directory layout is a Hermes outbox: ``<64 hex id>.json`` files, each one AgentMemoryEvent;
any other ``*.json`` file in the directory is read too, in name order. Each item is yielded with a
position label (``file.jsonl:12`` or ``outbox/abc….json``) so that an error can name it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdsmem.errors import PdsmemError


class SourceError(PdsmemError):
    """An export source cannot be read, or one of its items is not a JSON object."""


@dataclass(frozen=True)
class SourceItem:
    where: str
    value: Any  # a dict, or a SourceError for an unreadable item


def read_source(path: str | Path) -> Iterator[SourceItem]:
    """Yield every item of a JSON Lines file or an outbox directory."""
    path = Path(path)
    if path.is_dir():
        yield from _read_directory(path)
    elif path.is_file():
        yield from _read_jsonl(path)
    else:
        raise SourceError(
            f"no such file or directory: {path}",
            hint="--from takes a JSON Lines file of AgentMemoryEvent v1 or a directory of *.json events",
        )


def _read_jsonl(path: Path) -> Iterator[SourceItem]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield SourceItem(f"{path.name}:{number}", _parse(line, f"{path.name}:{number}"))


def _read_directory(path: Path) -> Iterator[SourceItem]:
    for file in sorted(path.glob("*.json")):
        where = f"{path.name}/{file.name}"
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            yield SourceItem(where, SourceError(f"cannot read the file: {err}", item=where))
            continue
        yield SourceItem(where, _parse(text, where))


def _parse(text: str, where: str) -> Any:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        return SourceError(f"not valid JSON ({err.msg}, line {err.lineno} column {err.colno})", item=where)
    if not isinstance(value, dict):
        return SourceError("expected one JSON object (an AgentMemoryEvent)", item=where)
    return value
