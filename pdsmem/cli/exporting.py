"""``pdsmem export``: AgentMemoryEvents from a file, an outbox, stdin or RushDB → the user's repository.

The export itself is the library's (``pdsmem.api.export``). ``--from rushdb`` exports the memories of one scope (``pdsmem.api.FromRushDB``): a memory
whose record came from this repository goes back under its own record key with its unknown
fields, so a record nobody changed keeps its CID.

Output follows the one rule of docs/cli.md: the result on stdout (a summary line, or with
``--json`` one JSON line per memory and a last ``{"summary": …}`` line), messages on stderr
(one ``Error:`` line per refused or failed memory, those alike after the third together on one
line, ``Note:`` lines, the records a prune deletes).
On a terminal, a progress bar shows the writes, a retry says what failed and when the next try
is, and a large prune asks before it deletes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from pathlib import Path

import click

from pdsmem import api
from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL, cli
from pdsmem.cli.accounts import open_session
from pdsmem.cli.jsonl import write
from pdsmem.cli.memory import open_store, trusted_scope
from pdsmem.cli.options import account_option, dry_run_option, output_options, participant_option, pds_options
from pdsmem.cli.options import Seconds, rushdb_options, scope_option_stack
from pdsmem.cli.progress import Progress, format_clock, format_duration, on_terminal, retrying
from pdsmem.cli.reporting import explain, resume_hint
from pdsmem.errors import ExportPaused

SHOWN_DELETIONS = 20  # a prune's records listed before "… and N more"
PRUNE_SHARE = api.PRUNE_SHARE


def _a_source_that_is_there(ctx: click.Context, param: click.Parameter, source: str | None) -> str | None:
    """--from checked as it is read, before the account it defaults to is named on stderr."""
    if source is not None and source not in ("-", "rushdb") and not Path(source).exists():
        raise click.BadParameter(f"no such file or directory: {source}")
    return source


@cli.command()
@account_option("--to", "The repository (account) to export to. Its app password comes from a "
                "stored session (pdsmem login), ATP_AUTH_PASSWORD, or a prompt on a terminal.")
@click.option("--from", "source", required=True, metavar="FILE|DIR|-|rushdb", callback=_a_source_that_is_there,
              help="JSON Lines of AgentMemoryEvent v1 (- for stdin), a directory of one-event-per-file "
              "JSON (a Hermes outbox), or the word rushdb: the memories of the scope that --agent-id, "
              "--profile-id and the account's DID (or --participant-scope-hash) name, in RushDB (a file "
              "named rushdb is ./rushdb).")
@dry_run_option
@click.option("--publish-private", is_flag=True,
              help="Acknowledge that the repository is PUBLIC and export private-scope memories anyway.")
@click.option("--include-transcript", is_flag=True, help="Also publish episodes' raw userText/assistantText.")
@click.option("--prune", is_flag=True,
              help="Delete the records pdsmem wrote for memories of the source's agent and profile "
              "that are no longer in the source (never others; nothing when the source is empty, when "
              "part of it cannot be read, or from an agent's outbox, which holds only what it has not "
              "sent to RushDB yet: prune --from rushdb).")
@click.option("--confirm-prune", is_flag=True,
              help=f"Let --prune delete more than {PRUNE_SHARE:.0%} of the scope's records without "
              "asking (on a terminal it asks; elsewhere such a prune is refused without this flag).")
@click.option("--overwrite-conflict", "overwrite", multiple=True, metavar="AT_URI",
              help="Write this record even though it was changed or deleted on the PDS since pdsmem wrote "
              "or read it (a conflict the export named, with its at-uri); repeat for each. Without it, "
              "such records are left alone.")
@click.option("--allow-refused", is_flag=True,
              help="Exit 0 when the only problems are memories the privacy gate refused (they are "
              "still listed on stderr): for scheduled runs that know some memories stay private.")
@click.option("--recreate-deleted", is_flag=True,
              help="Write again the records pdsmem wrote and someone deleted on the PDS since (by default "
              "a deletion is the person's word: reported as a conflict, listed by status, not re-created).")
@click.option("--max-wait", type=Seconds(), default=0, show_default=True, metavar="SECONDS",
              help="On a rate limit, wait up to this long for the reset instead of stopping.")
@pds_options
@scope_option_stack(required=False, note="--from rushdb: ")
@participant_option("--from rushdb: the participant hash as an agent runtime wrote it, instead of the "
                    "hash of the account's DID.")
@rushdb_options
@output_options
def export(account: str, source: str, dry_run: bool, publish_private: bool,
           include_transcript: bool, prune: bool, confirm_prune: bool, overwrite: tuple[str, ...], allow_refused: bool,
           recreate_deleted: bool, max_wait: float, pds_url: str | None, plc_url: str | None, state_dir: str | None,
           agent_id: str | None, profile_id: str | None, salt: str, accept_unsalted_scope: bool,
           participant: str | None, privacy_scope: str, sandbox_eligible: bool, rushdb_url: str | None,
           rushdb_api_key: str | None, as_json: bool) -> None:
    """Export agent memory to a PDS as dev.bastienrobert.memory.record records.

    Re-running with nothing changed writes nothing; an interrupted export resumes where it
    stopped, without duplicates. Private memories are refused unless --publish-private says
    you know the repository is public. Exit 3 when some memories were refused or failed (each
    is named on stderr), 1 when every one was (nothing was written); --allow-refused makes
    privacy refusals alone exit 0, even when every memory was refused. Exit 3 also when a rate
    limit paused the export (run it again to finish), or when a large prune was not confirmed.

    \b
    Examples:
      pdsmem export --to alice.example.com --from memories.jsonl
      pdsmem export --to alice.example.com --from outbox/ --dry-run
      jq -c . memories/*.json | pdsmem export --to alice.example.com --from -
      pdsmem export --to alice.example.com --from all-memories.jsonl --prune
      pdsmem export --to alice.example.com --from rushdb --agent-id coder --profile-id default
    """
    if source == "rushdb":
        if not (agent_id and profile_id):
            raise click.UsageError("--from rushdb needs --agent-id and --profile-id (or PDSMEM_AGENT_ID, "
                                   "PDSMEM_PROFILE_ID, or agent-id and profile-id in the config file): the "
                                   "scope whose memories to export")
        store = open_store(rushdb_url, rushdb_api_key)
        store.check()
    session = open_session(account, pds_url=pds_url, plc_url=plc_url, state_dir=state_dir)
    if source == "rushdb":
        scope = trusted_scope(session.did, participant, agent_id=agent_id, profile_id=profile_id, salt=salt,
                              accept_unsalted_scope=accept_unsalted_scope, privacy_scope=privacy_scope,
                              sandbox_eligible=sandbox_eligible)
        memories: api.Memories = api.FromRushDB(store, scope)
        name = None
    else:
        memories, name = _items(source)
    report = run_export(
        session, memories, name, state_dir=state_dir, dry_run=dry_run, prune=prune,
        confirm_prune=confirm_prune, publish_private=publish_private,
        include_transcript=include_transcript, max_wait=max_wait, overwrite=overwrite,
        recreate_deleted=recreate_deleted,
    )
    finish(report, as_json=as_json, allow_refused=allow_refused)


def _items(source: str) -> tuple[api.Memories, str | None]:
    """The memories of ``--from`` (a file, a directory or stdin) and the name the state lists the run
    under (None: the file's or directory's full path)."""
    if source == "-":
        return sys.stdin.buffer, "stdin"
    return source, None


def run_export(session: api.Session, memories: api.Memories, name: str | None, *, state_dir: str | None,
               dry_run: bool, prune: bool, confirm_prune: bool, publish_private: bool, include_transcript: bool,
               max_wait: float, overwrite: Iterable[str] = (), recreate_deleted: bool = False) -> api.Report:
    """Run the export with the command line's progress, retries, prune question and pause message."""
    with session, Progress("Exporting", unit="writes") as progress:
        on_terminal(f"Reading what the repository of {session.handle} holds…")
        try:
            return api.export(
                session, memories, dry_run=dry_run, prune=prune, source_name=name, state_dir=state_dir,
                publish_private=publish_private, include_transcript=include_transcript, max_wait=max_wait,
                on_progress=progress.update, on_wait=lambda seconds: progress.note(waiting(seconds)),
                on_retry=lambda err, delay: progress.note(retrying(err, delay)),
                confirm_prune=(lambda plan: True) if confirm_prune else ask_prune, overwrite=overwrite,
                recreate_deleted=recreate_deleted,
            )
        except ExportPaused as err:
            progress.close()
            click.echo(f"Error: {explain(err)}", err=True)
            done, total = progress.done, progress.total
            so_far = f"{done} of {total} writes done" if done else "no write done yet"
            click.echo(f"Paused: {so_far} for {session.did}; {resume_hint(err.reset_at)}.", err=True)
            click.get_current_context().exit(EXIT_PARTIAL if done else EXIT_FAILED)


_PRUNE_ASKED = "pdsmem.prune_asked"  # ask_prune put the question to a person (the note after a "no" differs)


def ask_prune(plan: api.Prune) -> bool:
    """On a terminal, list what a large prune would delete and ask; elsewhere, answer no."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return False
    click.echo(
        f"The prune would delete {len(plan.candidates)} of the {plan.scope_records} records pdsmem wrote "
        f"for this scope (more than {PRUNE_SHARE:.0%}):", err=True,
    )
    click.get_current_context().meta[_PRUNE_ASKED] = True
    for uri, memory_id in plan.candidates[:SHOWN_DELETIONS]:
        click.echo(f"  {uri}  memory {memory_id}", err=True)
    if len(plan.candidates) > SHOWN_DELETIONS:
        click.echo(f"  … and {len(plan.candidates) - SHOWN_DELETIONS} more", err=True)
    return click.confirm("Delete them?", default=False, err=True)


def waiting(seconds: float) -> str:
    """The line shown while an export waits for a rate limit to reset."""
    return (
        f"Rate-limited by the PDS: waiting {format_duration(seconds)}, resuming at "
        f"{format_clock(time.time() + seconds)}."
    )


def counts_text(report: api.Report) -> str:
    """``5 created, 0 unchanged, 2 refused``: the counts a person reads."""
    return ", ".join(f"{n} {name}" for name, n in report.counts.items() if n or name in ("created", "unchanged"))


def summary(report: api.Report) -> str:
    """``5 created, 0 unchanged, 2 refused (did:plc:…, 1 applyWrites batch)``."""
    batches = f"{report.batches} applyWrites batch{'' if report.batches == 1 else 'es'}"
    prefix = "dry run, would have: " if report.dry_run else ""
    return f"{prefix}{counts_text(report)} ({report.did}, {batches})"


def _problem_line(outcome: api.Outcome, allow_refused: bool = False) -> str:
    remedy = ""
    if outcome.unreadable:  # a sub-directory, a link to nothing: there is no memory to fix
        remedy = "; make it a readable JSON file or remove it from the directory, then run the export again"
    elif outcome.status == "failed":
        remedy = "; fix the memory in the source, then run the export again"
    return f"{_prefix(outcome.status, allow_refused)} {outcome.where}: {outcome.status}: {outcome.reason}{remedy}"


def _prefix(status: str, allow_refused: bool) -> str:
    """``Error:`` for a problem that makes the run exit non-zero; ``Note:`` for a refusal that
    --allow-refused says is none."""
    return "Note:" if allow_refused and status == "refused" else "Error:"


SHOWN_ALIKE = 3  # problems with the same reason shown in full; the others by their places, on one line
PLACES_SHOWN = 10


def _problem_lines(problems: list[api.Outcome], allow_refused: bool = False) -> list[str]:
    """One ``Error:`` line per problem (``Note:`` for a refusal under --allow-refused), grouped by reason (the same status and words but for the
    memory's id), and of a group only the first few, then one line with the places of the others:
    forty lines that differ only in an id (an agent whose memories are all private, on its first
    dry run) would hide the one that differs."""
    alike: dict[tuple, list[api.Outcome]] = {}  # in the order of each reason's first problem
    for outcome in problems:
        reason = outcome.reason or ""
        alike.setdefault((outcome.status, reason.replace(outcome.memory_id or "\0", "")), []).append(outcome)
    lines: list[str] = []
    for group in alike.values():
        lines.extend(_problem_line(outcome, allow_refused) for outcome in group[:SHOWN_ALIKE])
        if rest := group[SHOWN_ALIKE:]:
            places = ", ".join(outcome.where for outcome in rest[:PLACES_SHOWN])
            if len(rest) > PLACES_SHOWN:
                places += f" and {len(rest) - PLACES_SHOWN} more"
            lines.append(f"{_prefix(group[0].status, allow_refused)} {len(rest)} more {group[0].status} for the same reason as {group[0].where}: "
                         f"{places} (--json names each with its memory's id)")
    return lines


def print_report(report: api.Report, as_json: bool, allow_refused: bool = False) -> None:
    """Problems, deletions and notes on stderr; the summary (or JSON lines) on stdout."""
    new = [outcome for outcome in report.problems if not outcome.known]
    for line in _problem_lines(new, allow_refused):
        click.echo(line, err=True)
    if known := len(report.problems) - len(new):  # deletions an earlier run named: the person's word stands
        click.echo(f"Note: {known} memor{'ies' if known > 1 else 'y'} whose record{'s' if known > 1 else ''} (or a record "
                   f"of the same words, or of a fact it edits) the person deleted on the PDS, as an earlier run found, "
                   f"{'stay' if known > 1 else 'stays'} off it (pdsmem status lists the records; --recreate-deleted "
                   "writes them again, --overwrite-conflict AT_URI one memory, an edit too; --json names each)", err=True)
    verb = "Would delete" if report.dry_run else "Deleted"
    for outcome in report.outcomes:
        if outcome.status == "deleted":
            click.echo(f"{verb} {outcome.uri}: {outcome.reason.removeprefix('dry run: ')}", err=True)
    for note in report.notes:
        click.echo(f"Note: {note}", err=True)
    if report.prune_refused:
        ctx = click.get_current_context(silent=True)
        if ctx is not None and ctx.meta.get(_PRUNE_ASKED):  # the person at the terminal said no
            click.echo("Note: the records stay, as answered; run the same export again to be asked again, "
                       "or pass --confirm-prune to delete them without a question", err=True)
        elif report.dry_run:  # a dry run of a prune past the limit lists nothing: its list needs the confirmation too
            click.echo(
                "Note: to list the records this prune would delete, pass --confirm-prune with --dry-run; "
                "then --confirm-prune alone deletes them", err=True,
            )
        else:
            click.echo(
                "Note: run the export on a terminal to see the records and be asked, or pass --confirm-prune "
                "(list them first with --confirm-prune --dry-run)", err=True,
            )
    if not as_json:
        click.echo(summary(report))
        return
    for o in report.outcomes:
        write({"where": o.where, "status": o.status, "id": o.memory_id, "uri": o.uri, "reason": o.reason,
               **({"known": True} if o.known else {})})
    write({"summary": {
        "did": report.did, "dryRun": report.dry_run, "batches": report.batches, **report.counts,
        "pruneRefused": report.prune_refused,
    }})


def finish(report: api.Report, *, as_json: bool, allow_refused: bool) -> None:
    """Print the report and exit: 0 all done, 3 partly (1 when nothing was done)."""
    print_report(report, as_json, allow_refused)
    code = report.exit_code(allow_refused=allow_refused)
    if code:
        click.get_current_context().exit(code)
