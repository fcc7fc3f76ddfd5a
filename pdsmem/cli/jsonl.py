"""JSON Lines out, and item errors, for the filter commands (they read with
``bridge.pipelines.sources.json_lines``); the ``{"summary": …}`` line that ends every ``--json`` run.

Input positions are 1-based line numbers, so a message can point at the line to fix.
"""

from __future__ import annotations

import json
from typing import Any

import click

from pdsmem.errors import PdsmemError


def write(obj: Any) -> None:
    """One JSON line on stdout; a string holding a lone surrogate, which UTF-8 cannot carry, is
    written as its JSON escape instead (lossless)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj, separators=(",", ":"))
    click.echo(text)


def write_summary(fields: dict[str, Any]) -> None:
    """The last line of every ``--json`` run: ``{"summary": {…}}`` (the one rule of docs/cli.md).
    A command whose whole result is one object prints it as its summary."""
    write({"summary": fields})


def report(err: PdsmemError, line: int) -> None:
    """Report one failed item on stderr with its position."""
    if err.item is None or isinstance(err.item, int):
        err.item = f"line {line}"
    click.echo(f"Error: {err}", err=True)


def finish(ok: int, failed: int) -> None:
    """Exit 0 when everything succeeded, 3 when part did, 1 when nothing did; a run with failures
    ends with their count on stderr ("4 of 6 lines refused or failed, each named above"), a clean
    one says nothing more, as a filter in a pipe should. An input without a line (an empty file, a
    pipe whose writer wrote nothing) is no failure, but it says so: a silent run on the wrong file
    would look like a run that had nothing to refuse."""
    from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL

    if not ok and not failed:
        click.echo("Note: the input holds no lines (only blank ones, or none): nothing was read", err=True)
    if failed:
        click.echo(f"{failed} of {ok + failed} lines refused or failed, each named above", err=True)
        click.get_current_context().exit(EXIT_PARTIAL if ok else EXIT_FAILED)
