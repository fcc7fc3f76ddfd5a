"""JSON Lines in and out, for the filter commands.

Input positions are 1-based line numbers, so a message can point at the line to fix.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import click

from pdsmem.errors import PdsmemError


class BadLine(PdsmemError):
    """A line of the input is not a JSON object."""


def read_objects(stream: IO[str]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` or ``(line_number, BadLine)`` for each non-blank line."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            yield number, BadLine(f"not valid JSON ({err.msg} at column {err.colno})", item=f"line {number}")
            continue
        if not isinstance(obj, dict):
            yield number, BadLine("expected a JSON object on each line", item=f"line {number}")
            continue
        yield number, obj


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
