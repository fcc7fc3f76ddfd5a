"""``pdsmem export``: AgentMemoryEvents from a file or outbox → the user's repository.

Human output by default: one ``Error:`` line per refused or failed memory on stderr, then a
summary on stdout; ``--json`` prints one JSON line per memory instead of the summary. On a
terminal, a progress bar shows the writes; a rate-limit wait says when it resumes.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from pdsmem.bridge.exporter import ExportPaused, Exporter, ExportReport
from pdsmem.bridge.sources import read_source
from pdsmem.bridge.state import State
from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL, cli
from pdsmem.cli.accounts import open_session
from pdsmem.cli.jsonl import write
from pdsmem.cli.options import account_option, dry_run_option, output_options, pds_options
from pdsmem.cli.progress import Progress, format_clock, format_duration, on_terminal
from pdsmem.cli.reporting import explain, resume_hint


@cli.command()
@account_option("--to", "The repository (account) to export to. Its app password comes from "
                "ATP_AUTH_PASSWORD, or a stored session (pdsmem login).")
@click.option("--from", "source", required=True, type=click.Path(exists=True, path_type=Path),
              metavar="FILE_OR_DIR",
              help="JSON Lines of AgentMemoryEvent v1, or a directory of one-event-per-file JSON "
              "(a Hermes outbox).")
@dry_run_option
@click.option("--publish-private", is_flag=True,
              help="Acknowledge that the repository is PUBLIC and export private-scope memories anyway.")
@click.option("--include-transcript", is_flag=True, help="Also publish episodes' raw userText/assistantText.")
@click.option("--prune", is_flag=True,
              help="Delete records pdsmem wrote whose memory is no longer in the source (never others; "
              "nothing when part of the source cannot be read).")
@click.option("--max-wait", type=click.FloatRange(min=0), default=0, show_default=True, metavar="SECONDS",
              help="On a rate limit, wait up to this long for the reset instead of stopping.")
@pds_options
@output_options
def export(account: str, source: Path, dry_run: bool, publish_private: bool,
           include_transcript: bool, prune: bool, max_wait: float, pds_url: str | None,
           plc_url: str | None, state_dir: Path | None, as_json: bool) -> None:
    """Export agent memory to a PDS as dev.bastienrobert.memory.record records.

    Re-running with nothing changed writes nothing; an interrupted export resumes where it
    stopped, without duplicates. Private memories are refused unless --publish-private says
    you know the repository is public. Exit 3 when some memories were refused or failed (each
    is named on stderr), or when a rate limit paused the export (run it again to finish).

    \b
    Examples:
      ATP_AUTH_PASSWORD=app-password pdsmem export --to alice.example.com --from memories.jsonl
      pdsmem export --to alice.example.com --from outbox/ --dry-run
    """
    session = open_session(account, pds_url=pds_url, plc_url=plc_url, state_dir=state_dir)
    with session, State(state_dir) as state, Progress("Exporting", unit="writes") as progress:
        exporter = Exporter(
            session, state, publish_private=publish_private,
            include_transcript=include_transcript, max_wait=max_wait,
            on_progress=progress.update, on_wait=lambda seconds: progress.note(waiting(seconds)),
        )
        on_terminal(f"Reading what the repository of {session.handle} holds…")
        try:
            report = exporter.run(
                read_source(source), dry_run=dry_run, prune=prune, source_name=str(source.resolve())
            )
        except ExportPaused as err:
            progress.close()
            click.echo(f"Error: {explain(err)}", err=True)
            done, total = progress.done, progress.total
            so_far = f"{done} of {total} writes done" if done else "no write done yet"
            click.echo(f"Paused: {so_far} for {session.did}; {resume_hint(err.reset_at)}.", err=True)
            click.get_current_context().exit(EXIT_PARTIAL if done else EXIT_FAILED)
    print_report(report, as_json)
    if report.problems:
        done = len(report.outcomes) - len(report.problems)
        click.get_current_context().exit(EXIT_PARTIAL if done else EXIT_FAILED)


def waiting(seconds: float) -> str:
    """The line shown while an export waits for a rate limit to reset."""
    return (
        f"Rate-limited by the PDS: waiting {format_duration(seconds)}, resuming at "
        f"{format_clock(time.time() + seconds)}."
    )


def summary(report: ExportReport) -> str:
    """``5 created, 0 unchanged, 2 refused (did:plc:…, 1 applyWrites batch)``."""
    counts = report.counts
    shown = ", ".join(
        f"{n} {name}" for name, n in counts.items() if n or name in ("created", "unchanged")
    )
    batches = f"{report.batches} applyWrites batch{'' if report.batches == 1 else 'es'}"
    prefix = "dry run, would have: " if report.dry_run else ""
    return f"{prefix}{shown} ({report.did}, {batches})"


def print_report(report: ExportReport, as_json: bool) -> None:
    for outcome in report.problems:
        remedy = "; fix the memory in the source, then run the export again" if outcome.status == "failed" else ""
        click.echo(f"Error: {outcome.where}: {outcome.status}: {outcome.reason}{remedy}", err=True)
    for note in report.notes:
        click.echo(f"Note: {note}", err=True)
    if as_json:
        for o in report.outcomes:
            write({"where": o.where, "status": o.status, "uri": o.uri, "reason": o.reason})
        return
    click.echo(summary(report))
