"""``pdsmem list``: what RushDB holds for one scope, active and inactive, and where each memory
came from (the PDS records it was synced from, or the runtime that wrote it).

The texts are the data asked for: they are printed in the rows on stdout (cut to a column in the
table, whole with --json), never in a message.
"""

from __future__ import annotations

import unicodedata

import click

from pdsmem import api
from pdsmem.cli import cli
from pdsmem.cli.jsonl import write
from pdsmem.cli.memory import open_store, trusted_scope
from pdsmem.cli.options import is_account_did, output_options, participant_option, rushdb_options, scope_options
from pdsmem.cli.reporting import withheld

__all__ = ["cut", "list_cmd"]

TEXT_WIDTH = 48  # characters of a memory's text the table shows


@cli.command("list")
@scope_options
@click.option("--did", callback=is_account_did, metavar="DID",
              help="The participant: the repository whose memories these are (hashed with the salt).")
@participant_option("The participant scope hash as an agent runtime wrote it, instead of --did.")
@rushdb_options
@output_options
def list_cmd(agent_id: str, profile_id: str, salt: str, accept_unsalted_scope: bool, privacy_scope: str,
             sandbox_eligible: bool, did: str | None, participant: str | None, rushdb_url: str | None,
             rushdb_api_key: str | None, as_json: bool) -> None:
    """List the memories RushDB holds for a scope, active and inactive, and where each came from.

    The scope is recall's: all five fields, from these options and the participant (--did with
    the salt, or --participant-scope-hash). Facts, then episodes, oldest first; for each, its
    state (active; inactive: superseded or deactivated; removed: its record was deleted from the
    repository or edited into another memory), its id, where it came from (the at-uri of the PDS
    record it was synced from, else the runtime that wrote it: a memory exported to the PDS shows
    its record once a sync has read it) and the start of its text, withheld
    where the privacy gate would refuse it (a password, a key, a card's number...: a terminal is
    seen and logged). --json prints every field and the whole text, one memory a line, then a
    summary line.

    \b
    Examples:
      pdsmem list --agent-id coder --profile-id default --did did:plc:ewvi7nxzyoun6zhxrhs64oiz
      pdsmem list --agent-id coder --profile-id default --participant-scope-hash 70d7d3... --json
    """
    scope = trusted_scope(did, participant, agent_id=agent_id, profile_id=profile_id, salt=salt,
                          accept_unsalted_scope=accept_unsalted_scope, privacy_scope=privacy_scope,
                          sandbox_eligible=sandbox_eligible)
    store = open_store(rushdb_url, rushdb_api_key)
    counts = {"memories": 0, "facts": 0, "episodes": 0, "active": 0, "inactive": 0, "removed": 0,
              "fromRecords": 0}
    table: list[api.Memory] = []
    for memory in api.list_memories(store, scope, did=did):
        counts["memories"] += 1
        counts["facts" if memory.label == "MEMORY_FACT" else "episodes"] += 1
        counts["active" if memory.active else "inactive"] += 1
        counts["removed"] += memory.retired
        counts["fromRecords"] += bool(memory.records)
        if as_json:
            write(memory.to_json())
        else:
            table.append(memory)
    if not counts["memories"]:
        click.echo(f"Note: {api.empty_scope_note(store, scope, did=did)}", err=True)
    if as_json:
        write({"summary": {**counts, "rushdb": store.target.shown.removeprefix("RushDB at ")}})
        return
    if table:
        _print_table(table)
        click.echo(f"{counts['memories']} memor{'y' if counts['memories'] == 1 else 'ies'} of this scope in "
                   f"{store.target.shown}: {counts['active']} active, {counts['inactive']} inactive "
                   f"({counts['removed']} removed), {counts['fromRecords']} from PDS records")


def _state(memory: api.Memory) -> str:
    return "removed" if memory.retired else "active" if memory.active else "inactive"


def _origin(memory: api.Memory) -> str:
    """The record a memory was synced from (a live one first), else the runtime that wrote it."""
    if not memory.records:
        return f"written by {memory.runtime or 'an unnamed runtime'}"
    records = sorted(memory.records, key=lambda record: record["deleted"])
    first = records[0]["uri"] + (" (deleted)" if records[0]["deleted"] else "")
    return first + (f" +{len(records) - 1}" if len(records) > 1 else "")


def cut(text: str, width: int = TEXT_WIDTH) -> str:
    """``text`` on one line, its control characters as spaces, cut to ``width`` characters."""
    line = "".join(" " if unicodedata.category(c)[0] in "CZ" and c != " " else c for c in text)
    line = " ".join(line.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _shown(text: str) -> str:
    """The start of a memory's text as the table shows it; withheld where the privacy gate names
    what it looks like."""
    return withheld(text) or cut(text)


def _print_table(memories: list[api.Memory]) -> None:
    rows = [(_state(m), "fact" if m.label == "MEMORY_FACT" else "episode", m.id[:12], _origin(m), _shown(m.text))
            for m in memories]
    header = ("STATE", "TYPE", "ID", "FROM", "TEXT")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4])

