"""JSON Lines in and out, for the filter commands.

Input positions are 1-based line numbers, so a message can point at the line to fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import click

from pdsmem.errors import PdsmemError
from pdsmem.mapping.datamodel import MAX_DEPTH


class BadLine(PdsmemError):
    """A line of the input is not a JSON object."""


def read_objects(stream: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` or ``(line_number, BadLine)`` for each non-blank line.

    Lines are read as bytes and decoded one at a time, so that bad bytes, a number too long to
    convert or nesting too deep to parse refuse that line only, by number, and the next line is
    read as usual.
    """
    for number, raw in enumerate(stream, start=1):
        where = f"line {number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            yield number, BadLine(
                f"not valid UTF-8 text (byte 0x{raw[err.start]:02x} at column {err.start + 1})", item=where
            )
            continue
        if line.strip():
            yield number, _parse(line, where)


def _parse(line: str, where: str) -> Any:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return BadLine(f"not valid JSON ({err.msg} at column {err.colno})", item=where)
    except ValueError as err:  # an integer beyond Python's conversion limit
        return BadLine(f"not valid atproto data: a number with too many digits ({err})", item=where)
    except RecursionError:  # far deeper than the data model allows
        return BadLine(
            f"not valid atproto data: arrays or objects nested deeper than {MAX_DEPTH} levels", item=where
        )
    if not isinstance(obj, dict):
        return BadLine("expected a JSON object on each line", item=where)
    return obj


def write(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def report(err: PdsmemError, line: int) -> None:
    """Report one failed item on stderr with its position."""
    if err.item is None or isinstance(err.item, int):
        err.item = f"line {line}"
    click.echo(f"Error: {err}", err=True)


def finish(ok: int, failed: int) -> None:
    """Exit 0 when everything succeeded, 3 when part did, 1 when nothing did."""
    from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL

    if failed:
        click.get_current_context().exit(EXIT_PARTIAL if ok else EXIT_FAILED)
