"""``pdsmem export``: AgentMemoryEvents from a file or outbox → the user's repository."""

from __future__ import annotations

import click

from pdsmem.bridge.exporter import ExportPaused, Exporter, ExportReport
from pdsmem.bridge.session import Session
from pdsmem.bridge.sources import read_source
from pdsmem.bridge.state import State
from pdsmem.cli import EXIT_PARTIAL, cli
from pdsmem.cli.jsonl import write
from pdsmem.cli.options import output_options, pds_options
from pdsmem.errors import PdsmemError


@cli.command()
@click.option("--to", "target", required=True, metavar="HANDLE_OR_DID", envvar="ATP_AUTH_HANDLE",
              help="The repository (account) to export to; its app password comes from ATP_AUTH_PASSWORD.")
@click.option("--from", "source", required=True, type=click.Path(exists=True), metavar="FILE_OR_DIR",
              help="JSON Lines of AgentMemoryEvent v1, or a directory of one-event-per-file JSON (a Hermes outbox).")
@click.option("--dry-run", is_flag=True, help="Plan and report; write nothing.")
@click.option("--publish-private", is_flag=True,
              help="Acknowledge that the repository is PUBLIC and export private-scope memories anyway.")
@click.option("--include-transcript", is_flag=True, help="Also publish episodes' raw userText/assistantText.")
@click.option("--prune", is_flag=True,
              help="Delete records pdsmem wrote whose memory is no longer in the source (never others).")
@click.option("--max-wait", type=click.FloatRange(min=0), default=0, show_default=True, metavar="SECONDS",
              help="On a rate limit, wait up to this long for the reset instead of stopping.")
@pds_options
@output_options
def export(target, source, dry_run, publish_private, include_transcript, prune, max_wait,
           pds_url, plc_url, state_dir, as_json) -> None:
    """Export agent memory to a PDS as dev.bastienrobert.memory.record records.

    Re-running with nothing changed writes nothing; an interrupted export resumes where it
    stopped, without duplicates.

    \b
    Example:
      ATP_AUTH_PASSWORD=app-password pdsmem export --to alice.example.com --from memories.jsonl
    """
    session = Session.load_or_login(target, pds_url=pds_url, state_dir=state_dir, plc_url=plc_url)
    if target.startswith("did:") and session.did != target:
        raise PdsmemError(f"logged in as {session.did}, but asked to export to {target}")
    with session, State(state_dir) as state:
        exporter = Exporter(
            session,
            state,
            publish_private=publish_private,
            include_transcript=include_transcript,
            max_wait=max_wait,
            on_wait=lambda seconds: click.echo(f"rate-limited: waiting {seconds:.0f}s for the reset", err=True),
        )
        try:
            report = exporter.run(read_source(source), dry_run=dry_run, prune=prune)
        except ExportPaused as err:
            click.echo(f"Error: {err}", err=True)
            click.get_current_context().exit(EXIT_PARTIAL)
    _print(report, as_json)
    if report.problems:
        click.get_current_context().exit(EXIT_PARTIAL)


def _print(report: ExportReport, as_json: bool) -> None:
    for outcome in report.problems:
        click.echo(f"Error: {outcome.where}: {outcome.status}: {outcome.reason}", err=True)
    if as_json:
        for o in report.outcomes:
            write({"where": o.where, "status": o.status, "uri": o.uri, "reason": o.reason})
        return
    counts = report.counts
    prefix = "dry run, would have: " if report.dry_run else ""
    summary = ", ".join(f"{n} {name}" for name, n in counts.items() if n or name in ("created", "unchanged"))
    click.echo(f"{prefix}{summary} ({report.did}, {report.batches} applyWrites batches)")
