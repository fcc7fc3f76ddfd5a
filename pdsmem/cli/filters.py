"""Offline JSON Lines filters: ``ids``, ``convert to-record|from-record``, ``validate``, ``cid``.

Each reads one JSON object per line on stdin and writes one per line on stdout; refusals and
failures go to stderr with their line number, and the exit code says whether anything failed.
"""

from __future__ import annotations


import click

from pdsmem import api
from pdsmem.cli import cli
from pdsmem.cli.jsonl import finish, report, write
from pdsmem.cli.options import is_did, is_nsid, require_salt, scope_options
from pdsmem.errors import LexiconError, PdsmemError

stdin_option = click.option(
    "--input", "-i", "stream", type=click.File("rb"), default="-", show_default="stdin",
    help="JSON Lines file to read.",
)


def _read_all(stream) -> tuple[list[int], list[dict], list[tuple[int, PdsmemError]]]:
    """Parse every line. Returns (line numbers, objects, (line number, error) of each bad line)."""
    lines, objects, bad = [], [], []
    for number, obj in api.json_lines(stream):
        if isinstance(obj, PdsmemError):
            bad.append((number, obj))
        else:
            lines.append(number)
            objects.append(obj)
    return lines, objects, bad


def _report_in_order(bad: list[tuple[int, PdsmemError]], failures, lines: list[int]) -> None:
    """Report the lines that could not be read and the items that could not be mapped, in the
    order of their lines (a mapping is a batch, so its failures are known only at its end)."""
    for failure in failures:
        failure.error.item = None  # the line number says where
    errors = bad + [(lines[failure.position], failure.error) for failure in failures]
    for number, error in sorted(errors, key=lambda found: found[0]):
        report(error, number)


@cli.command()
@stdin_option
def ids(stream) -> None:
    """Complete AgentMemoryEvent v1 inputs with their eventId / factId.

    An id already present is checked against the contract's definition.

    \b
    Example:
      echo '{"eventType":"fact", …}' | pdsmem ids
    """
    ok = failed = 0
    for number, obj in api.json_lines(stream):
        try:
            if isinstance(obj, PdsmemError):
                raise obj
            write(api.with_ids(obj))
            ok += 1
        except PdsmemError as err:
            report(err, number)
            failed += 1
    finish(ok, failed)


@cli.group()
def convert() -> None:
    """Convert between AgentMemoryEvent v1 and dev.bastienrobert.memory.record.

    \b
    Example (a round trip that returns the records unchanged, with their CIDs):
      pdsmem convert from-record --did did:plc:abc --agent-id a --profile-id p < records.jsonl \\
        | pdsmem convert to-record --did did:plc:abc
    """


@convert.command("to-record")
@click.option("--did", required=True, callback=is_did, help="DID of the repository the records are for.")
@click.option(
    "--publish-private",
    is_flag=True,
    help="Acknowledge that the repository is PUBLIC and publish private-scope memories anyway.",
)
@click.option("--include-transcript", is_flag=True, help="Also publish episodes' raw userText/assistantText.")
@stdin_option
def to_record_cmd(did: str, publish_private: bool, include_transcript: bool, stream) -> None:
    """Map events (or from-record objects) to {uri, cid, value} record views.

    \b
    Example:
      pdsmem convert to-record --did did:plc:abc < events.jsonl > records.jsonl
    """
    lines, objects, bad = _read_all(stream)
    records, failures = api.to_records(
        objects, did, publish_private=publish_private, include_transcript=include_transcript
    )
    for view in records:
        write(view.to_json())
    _report_in_order(bad, failures, lines)
    finish(len(records), len(failures) + len(bad))


@convert.command("from-record")
@click.option("--did", required=True, callback=is_did, help="DID of the repository the records come from (trusted).")
@scope_options
@stdin_option
def from_record_cmd(did, agent_id, profile_id, salt, accept_unsalted_scope, privacy_scope, sandbox_eligible,
                    stream) -> None:
    """Map record views ({uri, cid, value}, as listRecords returns them) to events.

    Writes one {event, record, links} object per record; to-record accepts them back. The salt
    is needed as import's is: without it, a record anyone wrote could pass for one of this scope's.

    \b
    Example (MEMORY_SCOPE_SALT set):
      pdsmem convert from-record --did did:plc:abc --agent-id coder --profile-id default < records.jsonl
    """
    require_salt(salt, accept_unsalted_scope)
    scope = api.Scope(agent_id, profile_id, privacy_scope=privacy_scope, sandbox_eligible=sandbox_eligible,
                      salt=salt, accept_unsalted=accept_unsalted_scope)
    lines, objects, bad = _read_all(stream)
    imported, failures = api.from_records(objects, did, scope)
    for item in imported:
        write(item.to_json())
    _report_in_order(bad, failures, lines)
    finish(len(imported), len(failures) + len(bad))


def _record_value(obj: dict) -> dict:
    """A record value, whether given bare or as a {uri, cid, value} view."""
    return obj["value"] if isinstance(obj.get("value"), dict) and "uri" in obj else obj


@cli.command()
@click.option(
    "--lexicon", "lexicon_files", multiple=True, type=click.File("rb"),
    help="Lexicon document to validate against (repeatable); default: the shipped lexicons.",
)
@click.option("--nsid", default=None, callback=is_nsid,
              help="Validate records without $type as records of this type (without --nsid, a record "
              "must name its $type).")
@stdin_option
def validate(lexicon_files, nsid, stream) -> None:
    """Validate records (one JSON object per line) against lexicons.

    Exit 0 when all are valid; otherwise one reason per invalid record on stderr.

    \b
    Examples:
      pdsmem validate < records.jsonl
      pdsmem validate --lexicon my.lexicon.json --nsid com.example.thing < things.jsonl
    """
    validator = api.RecordValidator()
    for handle in lexicon_files:
        try:
            document = api.parse_json(handle.read())
        except PdsmemError as err:
            raise LexiconError(f"{handle.name}: {err.message}") from None
        validator.add(document)
    ok = failed = 0
    for number, obj in api.json_lines(stream):
        try:
            if isinstance(obj, PdsmemError):
                raise obj
            validator.validate(obj, nsid=nsid)
            ok += 1
        except PdsmemError as err:
            report(err, number)
            failed += 1
    if failed == 0:
        click.echo(f"{ok} valid", err=True)
    finish(ok, failed)


@cli.command()
@stdin_option
def cid(stream) -> None:
    """Print the CID of each record read (bare values or {uri, cid, value} views).

    \b
    Example:
      pdsmem cid < records.jsonl
    """
    ok = failed = 0
    for number, obj in api.json_lines(stream):
        try:
            if isinstance(obj, PdsmemError):
                raise obj
            click.echo(api.record_cid(_record_value(obj)))
            ok += 1
        except PdsmemError as err:
            report(err, number)
            failed += 1
    finish(ok, failed)

