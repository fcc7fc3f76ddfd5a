"""Where memories to export come from: a JSON Lines file, or a directory of one-event-per-file JSON.

The directory layout is a Hermes outbox: ``<64 hex id>.json`` files, each one AgentMemoryEvent;
any other ``*.json`` file in the directory is read too, in name order. Each item is yielded with a
position label (``file.jsonl:12`` or ``outbox/abc….json``) so that an error can name it.

``json_lines`` is the one JSON Lines reader (the filter commands use it too): lines are read as
bytes and decoded one at a time, so that bad bytes, a number too long to convert or nesting too
deep to parse refuse that line only, by number, and the next line is read as usual.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from pdsmem.errors import PdsmemError

if TYPE_CHECKING:
    from pathlib import Path


class SourceError(PdsmemError):
    """A source cannot be read, or one of its items is not a JSON object."""


class UnreadableFile(SourceError):
    """A file of a directory source cannot be read at all (a directory, a link to nothing, gone,
    refused): the file is at fault, not a memory in it."""


@dataclass(frozen=True)
class SourceItem:
    where: str
    value: Any  # a dict, or a SourceError for an unreadable item
    row: str | None = None  # the RushDB id of the memory's row, when read from RushDB


def read_source(path: str | Path, notes: list[str] | None = None) -> Iterator[SourceItem]:
    """Yield every item of a JSON Lines file (or pipe) or an outbox directory; what a directory
    holds that is not read (a ``notes.txt``, a folder) is named in ``notes``."""
    from pathlib import Path  # here: the filters that read standard input start without it

    path = Path(path)
    if path.is_dir():
        yield from _read_directory(path, notes if notes is not None else [])
        return
    try:
        handle = path.open("rb")
    except OSError as err:
        raise SourceError(
            f"cannot read {path}: {err.strerror or err}",
            hint="--from takes a JSON Lines file of AgentMemoryEvent v1 or a directory of *.json events"
                 " (and *.jsonl files)",
        ) from None
    with handle:
        yield from read_stream(handle, path.name)


def read_stream(stream: IO[bytes], name: str) -> Iterator[SourceItem]:
    """Yield every item of JSON Lines read from ``stream`` (standard input), named ``name:N``."""
    for number, value in json_lines(stream, name):
        yield SourceItem(f"{name}:{number}", value)


def json_lines(stream: IO[bytes], name: str | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, object)`` for each non-blank line, or ``(line number, SourceError)`` for a
    line that is not one JSON object; errors name ``name:N``, or ``line N`` without a name."""
    first = True
    for number, raw in enumerate(stream, start=1):
        where = f"{name}:{number}" if name else f"line {number}"
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")  # a byte order mark an editor wrote
        except UnicodeDecodeError as err:
            yield number, SourceError(_not_utf8(raw, err), item=where)
            continue
        if not line.strip():
            continue
        if first and (shape := _one_document(line)):
            # one error for the file, not one for each of its lines
            yield number, SourceError(
                f"the input is {shape}, not JSON Lines", item=where,
                hint="put each event on a line of its own: jq -c '.[]' FILE for an array, jq -c . FILE for "
                     "pretty-printed objects")
            return
        first = False
        yield number, _parse(line.rstrip("\r\n"), where, line=True)


def _one_document(line: str) -> str | None:
    """What a first line says the input is when it is one JSON document rather than JSON Lines: an
    array (``[``), or an object written over several lines (``{`` alone)."""
    shape = line.strip()
    if shape.startswith("["):
        return "a JSON array"
    if shape == "{":
        return "a JSON object written over several lines"
    return None


_READ = (".json", ".jsonl")
_SHOWN = 5  # the names of skipped entries a note lists
_HEX = frozenset("0123456789abcdef")


def is_outbox(path: str | Path) -> bool:
    """Whether ``path`` is an agent runtime's outbox, or a file of one: a directory holding an
    event file named by its event's id (64 hexadecimal digits and ``.json``, as rushdb-hermes-memory
    writes them), or such a file. An outbox is a queue: the runtime deletes each file once RushDB
    has it, so it holds only the memories not yet sent, never all of them (docs/cli.md, export's
    ``--prune``)."""
    from pathlib import Path

    path = Path(path)
    try:
        if path.is_dir():
            return any(_an_outbox_file(entry.name) for entry in path.iterdir())
        return _an_outbox_file(path.name)
    except OSError:  # unreadable: reading it says why
        return False


def _an_outbox_file(name: str) -> bool:
    return len(name) == 69 and name.endswith(".json") and _HEX.issuperset(name[:64])


def _read_directory(path: Path, notes: list[str]) -> Iterator[SourceItem]:
    """Each ``*.json`` file of ``path`` (one event each, a Hermes outbox), and each event of its
    ``*.jsonl`` files (JSON Lines, as ``--from FILE`` reads them), in the order of their names, the
    suffix in any case. Hidden entries (``.DS_Store``) are passed over; anything else not read
    (``notes.txt``, a folder: the directory is read one level deep) is named in ``notes``, as
    a person who put it there expects it read."""
    try:
        entries = sorted(path.iterdir())
    except OSError as err:
        raise SourceError(f"cannot read the directory {path}: {err.strerror or err}") from None
    shown = [entry for entry in entries if not entry.name.startswith(".")]
    read = [entry for entry in shown if entry.suffix.lower() in _READ]
    skipped = [entry for entry in shown if entry.suffix.lower() not in _READ]
    if skipped:
        names = ", ".join(entry.name + ("/" if entry.is_dir() else "") for entry in skipped[:_SHOWN])
        more = f" and {len(skipped) - _SHOWN} more" if len(skipped) > _SHOWN else ""
        notes.append(
            f"{len(skipped)} entr{'y' if len(skipped) == 1 else 'ies'} of {path.name}/ not read: {names}{more} "
            "(a directory source reads its *.json and *.jsonl files, not the folders in it)"
        )
    for file in read:
        where = f"{path.name}/{file.name}"
        if file.suffix.lower() == ".jsonl" and file.is_file():
            try:
                with file.open("rb") as handle:
                    yield from read_stream(handle, where)
            except OSError as err:
                yield SourceItem(where, UnreadableFile(f"cannot read the file: {err.strerror or err}", item=where))
            continue
        try:
            raw = file.read_bytes()
        except IsADirectoryError:
            yield SourceItem(where, UnreadableFile("cannot read the file: it is a directory", item=where))
            continue
        except FileNotFoundError:  # removed since the directory was listed, or a link to nothing
            gone = "it is a link to a file that does not exist" if file.is_symlink() else "it no longer exists"
            yield SourceItem(where, UnreadableFile(f"cannot read the file: {gone}", item=where))
            continue
        except OSError as err:
            reason = err.strerror or "the system refused to read it"
            yield SourceItem(where, UnreadableFile(f"cannot read the file: {reason}", item=where))
            continue
        yield SourceItem(where, _parse(raw, where))


def _not_utf8(raw: bytes, err: UnicodeDecodeError) -> str:
    """Where ``raw`` stops being UTF-8, as a person finds it in an editor."""
    line = raw.count(b"\n", 0, err.start) + 1
    column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
    at = f"line {line} column {column}" if line > 1 else f"column {column}"
    return f"not valid UTF-8 text (byte 0x{raw[err.start]:02x} at {at})"


def json_value(data: str | bytes) -> Any:
    """The JSON value ``data`` holds, or ``SourceError`` saying in words why it holds none: not
    UTF-8 text, not JSON, or past what the interpreter reads (a number of thousands of digits,
    nesting about a thousand levels deep)."""
    if isinstance(data, bytes):
        data = data.removeprefix(b"\xef\xbb\xbf")  # a byte order mark an editor wrote
    try:
        return json.loads(data)
    except json.JSONDecodeError as err:
        at = f"line {err.lineno} column {err.colno}" if err.lineno > 1 else f"column {err.colno}"
        msg = err.msg.removesuffix(" at")  # "Unterminated string starting at" names no place itself
        raise SourceError(f"not valid JSON ({msg} at {at})") from None
    except UnicodeDecodeError as err:  # bytes only
        raise SourceError(_not_utf8(data, err)) from None  # type: ignore[arg-type]
    except ValueError:  # an integer beyond the interpreter's limit on digits it converts
        raise SourceError(f"not valid atproto data: a number with too many digits (more than "
                          f"{sys.get_int_max_str_digits()}; an atproto integer has at most 19)") from None
    except RecursionError:  # far deeper than the data model allows
        from pdsmem.mapping.datamodel import MAX_DEPTH  # the DAG-CBOR code loads where it is needed

        raise SourceError(f"not valid atproto data: arrays or objects nested deeper than {MAX_DEPTH} levels") from None


def _parse(data: str | bytes, where: str, *, line: bool = False) -> Any:
    """The JSON object ``data`` holds, or a ``SourceError`` saying why it holds none."""
    try:
        value = json_value(data)
    except SourceError as err:
        err.item = where
        return err
    if not isinstance(value, dict):
        what = "a JSON object on each line" if line else "one JSON object (an AgentMemoryEvent)"
        return SourceError(f"expected {what}", item=where)
    return value
