"""``pdsmem import`` and ``pdsmem verify``: read a repository from a PDS or a CAR file, verified.

``import`` writes one JSON object per memory record created, updated or deleted since the last
import, then remembers where it stopped (in the state directory); ``verify`` runs every check on
a repository and says what failed. Both parse options and call the library (``pdsmem.api``:
``import_repository``, ``verify``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import click

from pdsmem import api
from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL, cli
from pdsmem.cli.jsonl import write, write_summary
from pdsmem.cli.accounts import pds_hint
from pdsmem.cli.options import (
    dry_run_option, is_did, is_signing_key, output_options, participant_option, pds_options, require_salt,
    scope_options,
)
from pdsmem.cli.progress import CountingReader, Progress
from pdsmem.errors import PdsmemError, VerificationError

SOURCE_HELP = "A handle or DID (read from its PDS), or a repository CAR file (- for stdin)."


def _source(value: str, param: str) -> Path | IO[bytes] | str:
    """A CAR file (path or stdin) or, otherwise, the handle or DID as given."""
    if value == "-":
        return sys.stdin.buffer
    path = Path(value)
    if path.is_file():
        return path
    if path.exists():
        raise click.BadParameter(
            f"{value} is not a file (expected a CAR file, a handle or a DID)", param_hint=param
        )
    if value.lower().endswith(".car") or "/" in value or os.sep in value:
        raise click.BadParameter(f"no such CAR file: {value}", param_hint=param)
    try:
        api.check_account(value.strip().removeprefix("@"))
    except PdsmemError as err:  # a malformed handle or DID is a usage error (exit 2)
        hint = f"; {err.hint}" if err.hint else ""
        raise click.BadParameter(f"{err.message} (expected a handle, a DID or a CAR file{hint})",
                                 param_hint=param) from None
    return value


def _check_car_options(source: object, did: str | None, signing_key: str | None) -> None:
    if isinstance(source, str) and (did or signing_key):
        option = "--did" if did else "--signing-key"
        raise click.UsageError(
            f"{option} applies to CAR files only; a PDS read takes the DID and its signing key "
            "from the account's DID document"
        )


def _car_options(command):
    """--signing-key, --did: how the owner and key of a CAR file are checked."""
    for option in reversed([
        click.option("--signing-key", metavar="DID_KEY", callback=is_signing_key,
                     help="CAR files: verify the commit against this did:key (or the publicKeyMultibase "
                     "of the DID document's #atproto method), fully offline."),
        click.option("--did", metavar="DID", callback=is_did,
                     help="CAR files: the repository must belong to this DID."),
    ]):
        command = option(command)
    return command


def _report(problem: api.Outcome, what: str) -> None:
    click.echo(f"Error: {problem.uri}: {problem.reason} ({what})", err=True)


def _summary(report: api.Report) -> str:
    counts = ", ".join(f"{number} {name}" for name, number in report.counts.items())
    how = f"{report.read} read"
    if report.read == "unchanged":
        how = "nothing changed since the last import"
    return f"{report.did} at rev {report.rev} ({how}): {counts}"


@contextmanager
def _naming_the_car(origin: Path | IO[bytes] | str) -> Iterator[None]:
    """Name the CAR file in a verification failure, and say what to do about a damaged one."""
    try:
        yield
    except VerificationError as exc:
        if isinstance(origin, Path) and exc.item is None:
            exc.item = origin.name
        if not isinstance(origin, str) and (exc.path or "").startswith("byte ") and not exc.hint:
            exc.hint = "the file is cut short or damaged: download the repository again"
        raise


@contextmanager
def _refused_repository(nothing: str = "nothing was imported") -> Iterator[None]:
    """Add what happened to a verification failure: ``nothing`` (was imported, or written to
    RushDB), and the stored cursor did not move."""
    try:
        yield
    except VerificationError as exc:
        done = f"{nothing} and the stored cursor did not move"
        exc.hint = f"{exc.hint}; {done}" if exc.hint else done
        raise


@contextmanager
def _reading(origin: Path | IO[bytes] | str) -> Iterator[tuple[CountingReader | str, Progress]]:
    """The source with its progress bar: the handle or DID as is (the caller reports the bytes
    that arrive to the bar), or the CAR opened through a reader that does."""
    if isinstance(origin, str):
        with Progress(f"Reading {origin} from its PDS", unit="bytes") as progress:
            yield origin, progress
        return
    if isinstance(origin, Path):
        with Progress(f"Reading {origin.name}", unit="bytes", total=origin.stat().st_size) as progress, \
                origin.open("rb") as raw:
            yield CountingReader(raw, progress), progress
        return
    with Progress("Reading stdin", unit="bytes") as progress:
        yield CountingReader(origin, progress), progress  # stdin: not ours to close


@cli.command("import")
@click.option("--from", "source", required=True, metavar="HANDLE|DID|CAR", help=SOURCE_HELP)
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="Append the JSON Lines to FILE instead of writing them to stdout (- is stdout).")
@scope_options
@participant_option("Import into this participant scope hash, as an agent runtime computes it for the "
                    "person, instead of the hash of the repository's DID (then no salt is needed).")
@click.option("--full", is_flag=True,
              help="Read the whole repository and write every memory record again, as if never "
              "imported (deletions since the last import are still written).")
@dry_run_option
@_car_options
@pds_options
@output_options
def import_cmd(
    source: str, out_path: str | None, agent_id: str, profile_id: str, salt: str,
    accept_unsalted_scope: bool, privacy_scope: str, sandbox_eligible: bool, participant: str | None, full: bool,
    dry_run: bool, signing_key: str | None, did: str | None, pds_url: str | None, plc_url: str | None,
    state_dir: str | None, as_json: bool,
) -> None:
    """Import dev.bastienrobert.memory.record records, verified, as JSON Lines.

    Writes {"op": "create"|"update", "event", "record", "links"} for each memory record
    created or updated since the last import of that repository, and {"op": "delete", "uri"}
    for each one deleted; then remembers the repository's rev (only once the output is
    written). Records that fail validation are reported on stderr and skipped (exit 3); a
    repository that fails verification is not imported at all (exit 1). The summary goes to
    stderr, or with --json to stdout as a last line {"summary": {...}}. --dry-run reads and
    verifies, reports what would be imported, and writes nothing: no output, and the stored
    cursor stays.

    \b
    Examples:
      pdsmem import --from alice.example.com --agent-id coder --profile-id default > memories.jsonl
      pdsmem import --from repo.car --signing-key did:key:zQ3sh... \\
        --agent-id coder --profile-id default --out memories.jsonl
      pdsmem import --from alice.example.com --agent-id coder --profile-id default --dry-run
      pdsmem import --from alice.example.com --agent-id coder --profile-id coder --privacy-scope private \\
        --participant discord --participant coder --participant user-42 > memories.jsonl
    """
    origin = _source(source, "--from")
    _check_car_options(origin, did, signing_key)
    out = None if out_path in (None, "-") else Path(out_path)  # "-" is stdout, as it is stdin to export's --from;
    # a file named "-" is "./-" (it took the memories once, and the cursor moved)
    if participant is None:
        require_salt(salt, accept_unsalted_scope)
    if isinstance(origin, str):
        pds_url = pds_hint(origin, pds_url, state_dir)
    scope = api.Scope(agent_id, profile_id, privacy_scope=privacy_scope,  # type: ignore[arg-type]
                      participant_hash=participant, sandbox_eligible=sandbox_eligible, salt=salt,
                      accept_unsalted=accept_unsalted_scope)
    with _refused_repository(), _naming_the_car(origin), _reading(origin) as (repo, progress):
        report = api.import_repository(
            repo, scope, out=None if dry_run else (out if out is not None else sys.stdout),
            dry_run=dry_run, full=full, did=did, signing_key=signing_key, pds_url=pds_url, plc_url=plc_url,
            state_dir=state_dir, on_read=progress.advance if isinstance(repo, str) else None,
        )
    for problem in report.failed:
        _report(problem, "skipped; fix or delete the record in the repository, then import again")
    for note in report.notes:
        click.echo(f"Note: {note}", err=True)
    if as_json:  # the summary is data too: the last line on stdout, after the changes
        write({"summary": {
            "did": report.did, "rev": report.rev, "read": report.read, "dryRun": dry_run, **report.counts,
            **({"notes": report.notes} if report.notes else {}),
        }})
    elif dry_run:
        click.echo(f"Dry run, nothing written: would import {_summary(report)}", err=True)
    else:
        click.echo(f"Imported {_summary(report)}", err=True)
    code = report.exit_code()
    if code:
        click.get_current_context().exit(code)


@cli.command()
@click.argument("source", metavar="HANDLE|DID|CAR")
@click.option("--strict", is_flag=True,
              help="Exit 3 when the repository verifies but some records are not valid for their type.")
@_car_options
@pds_options
@output_options
def verify(
    source: str, strict: bool, signing_key: str | None, did: str | None, pds_url: str | None,
    plc_url: str | None, state_dir: str | None, as_json: bool,
) -> None:
    """Verify a repository: the commit's signature, the MST, every block; then every record.

    Two verdicts, each on its own line. The repository: the commit is signed by the DID's key,
    the MST is sound and every record block hashes to its CID; a repository older than the last
    imported rev is a rollback. Any of that failing is exit 1. The records: each one's $type
    matches its collection, and memory records are valid for their lexicon; records other tools
    wrote may fail that without the repository being any less sound, so they are listed
    (Invalid: on stderr) and exit 0, or exit 3 with --strict. Prints the commit and the counts.

    \b
    Examples:
      pdsmem verify alice.example.com
      pdsmem verify repo.car --signing-key did:key:zQ3sh... --strict
    """
    origin = _source(source, "SOURCE")
    _check_car_options(origin, did, signing_key)
    if isinstance(origin, str):
        pds_url = pds_hint(origin, pds_url, state_dir)
    with _naming_the_car(origin), _reading(origin) as (repo, progress):
        report = api.verify(repo, did=did, signing_key=signing_key, plc_url=plc_url, pds_url=pds_url,
                            state_dir=state_dir, on_read=progress.advance)
    for problem in report.broken:
        click.echo(f"Error: {problem.uri}: {problem.reason}", err=True)
    for problem in report.invalid:
        click.echo(f"Invalid: {problem.uri}: {problem.reason}", err=True)
    verdict = "verified" if not report.broken else (
        f"failed: {len(report.broken)} record block{'' if len(report.broken) == 1 else 's'} missing or not valid"
    )
    result = {
        "repository": verdict, "did": report.did, "rev": report.rev, "commit": report.commit,
        "records": report.records, "memoryRecords": report.memory_records,
        "invalidRecords": len(report.invalid),
    }
    if as_json:
        write_summary(result)
    else:
        for name, value in result.items():
            click.echo(f"{name}\t{value}")
    if report.broken:
        click.get_current_context().exit(EXIT_FAILED)
    if report.invalid and strict:
        click.get_current_context().exit(EXIT_PARTIAL)
