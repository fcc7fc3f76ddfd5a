"""``pdsmem sync``, ``pdsmem recall`` and ``pdsmem ensure-indexes``: the RushDB half.

``sync`` reads a repository as ``import`` does (verified, incremental) and writes what changed
into scoped RushDB memory; ``recall`` searches a scope's memories as an agent would and prints
them labelled as untrusted historical context; ``ensure-indexes`` makes the vector indexes recall
needs. The RushDB connection (``open_store``) comes from --rushdb-url and --rushdb-api-key (or
RUSHDB_API_URL, RUSHDB_API_KEY, a prompt for the key on a terminal), or, for a standalone engine
in the SDK's direct mode, from RUSHDB_ENGINE_URL, RUSHDB_ENGINE_TOKEN and RUSHDB_ENGINE_SCOPE.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import click

from pdsmem import api
from pdsmem.cli import cli
from pdsmem.cli.accounts import pds_hint
from pdsmem.cli.importing import _car_options, _check_car_options, _naming_the_car, _reading
from pdsmem.cli.importing import _refused_repository, _source
from pdsmem.cli.jsonl import write, write_summary
from pdsmem.cli.options import dry_run_option, is_account_did, is_base_url, output_options, pds_options, require_salt
from pdsmem.cli.options import WholeNumber, participant_option, rushdb_options, scope_options
from pdsmem.cli.progress import Progress, retrying
from pdsmem.cli.reporting import explain, withheld
from pdsmem.errors import InvalidSyntax, PdsmemError

ENV_ENGINE_URL, ENV_ENGINE_TOKEN, ENV_ENGINE_SCOPE = "RUSHDB_ENGINE_URL", "RUSHDB_ENGINE_TOKEN", "RUSHDB_ENGINE_SCOPE"
CHUNK = api.SYNC_BATCH_SIZE
NOTHING_SYNCED = "nothing was written to RushDB"  # what a repository that fails verification did


def open_store(rushdb_url: str | None, rushdb_api_key: str | None) -> api.RushDB:
    """The RushDB project to use: the standalone engine RUSHDB_ENGINE_URL names (direct mode,
    the same SDK calls), else the REST API at --rushdb-url (RushDB Cloud by default)."""
    engine_url = os.environ.get(ENV_ENGINE_URL)
    if engine_url:
        try:
            engine_url = is_base_url(engine_url, what=ENV_ENGINE_URL)
        except InvalidSyntax as err:
            raise click.UsageError(explain(err)) from None
        token = os.environ.get(ENV_ENGINE_TOKEN) or rushdb_api_key
        if not token:
            raise click.UsageError(f"{ENV_ENGINE_URL} is set: set {ENV_ENGINE_TOKEN} to the engine's token too")
        scope = os.environ.get(ENV_ENGINE_SCOPE)
        token = _one_line(token, f"{ENV_ENGINE_TOKEN} (or the API key)")
        scope = _one_line(scope, ENV_ENGINE_SCOPE) if scope else None
        return api.rushdb(token, engine_url=engine_url, engine_scope=scope)
    key = rushdb_api_key
    if not key and sys.stdin.isatty():
        key = click.prompt("RushDB API key", hide_input=True, err=True)
    if not key:
        raise click.UsageError(
            "no RushDB API key: set RUSHDB_API_KEY (or pass --rushdb-api-key) to a write key of the "
            "project, or run the command in a terminal to be asked for it"
        )
    return api.rushdb(_one_line(key, "the RushDB API key"), rushdb_url)


def _one_line(secret: str, what: str) -> str:
    """``secret`` without surrounding blanks; a usage error, which never shows it, when what is left
    holds a line break or another character an HTTP header cannot carry."""
    secret = secret.strip()
    if not secret or not secret.isascii() or not secret.isprintable():
        raise click.UsageError(f"{what} is empty or holds a line break, a control character or a non-ASCII "
                               "character (it is not shown here); set it again, on one line")
    return secret


def configured_embedder() -> Any:
    """The embedder RUSHDB_EMBEDDING_* configure, if any; a half-set configuration is a usage
    error (exit 2), as any bad environment value is."""
    try:
        return api.embedder_from_env()
    except PdsmemError as err:
        raise click.UsageError(explain(err)) from None


def trusted_scope(did: str | None, participant: str | None, *, agent_id: str, profile_id: str, salt: str,
                  accept_unsalted_scope: bool, privacy_scope: str, sandbox_eligible: bool) -> api.Scope:
    """The scope, all from configuration: the participant is the hash of the repository DID
    (with the salt; the DID is given to the call that needs it), or a participant hash given as
    it is."""
    if participant is None:
        if did is None:
            raise click.UsageError("pass --did (the participant's repository) or --participant-scope-hash")
        require_salt(salt, accept_unsalted_scope)
    return scope_of(agent_id, profile_id, salt, accept_unsalted_scope, privacy_scope, sandbox_eligible, participant)


def scope_of(agent_id: str, profile_id: str, salt: str, accept_unsalted_scope: bool, privacy_scope: str,
             sandbox_eligible: bool, participant: str | None) -> api.Scope:
    """The options' scope as the library takes it."""
    return api.Scope(agent_id, profile_id, privacy_scope=privacy_scope,  # type: ignore[arg-type]
                     participant_hash=participant, sandbox_eligible=sandbox_eligible, salt=salt,
                     accept_unsalted=accept_unsalted_scope)


@cli.command()
@click.argument("source", metavar="HANDLE|DID|CAR")
@scope_options
@participant_option("Write the memories into this participant scope hash, as an agent runtime computes it "
                    "for the person, instead of the hash of the repository's DID (then no salt is needed).")
@click.option("--full", is_flag=True,
              help="Read the whole repository, not only what changed since the last sync: finds deletions a "
                   "lost sync state never saw, and writes what RushDB does not hold as its records say.")
@click.option("--recreate-deleted", is_flag=True,
              help="With --full or a CAR: write again the memories deleted in RushDB after a sync wrote them, "
                   "whose records are unchanged since (left deleted otherwise, and counted as keptDeleted).")
@click.option("--follow", is_flag=True,
              help="After the sync, follow the repository's event stream and sync each change as it comes, "
                   "until Ctrl-C or SIGTERM.")
@click.option("--relay", "relay_url", metavar="URL",
              help="With --follow: read the event stream from this relay instead of the account's PDS.")
@click.option("--batch-size", type=WholeNumber(1, 5000), metavar="N", default=CHUNK, show_default=True,
              help="Records written per RushDB transaction. A batch the server runs out of time on "
              "(HTTP 408, \"reduce the batch size\") is written again in halves, and the rest at that size.")
@dry_run_option
@_car_options
@pds_options
@rushdb_options
@output_options
def sync(source: str, agent_id: str, profile_id: str, salt: str, accept_unsalted_scope: bool, privacy_scope: str,
         sandbox_eligible: bool, participant: str | None, full: bool, recreate_deleted: bool, follow: bool,
         relay_url: str | None,
         batch_size: int, dry_run: bool, signing_key: str | None, did: str | None, pds_url: str | None,
         plc_url: str | None, state_dir: str | None, rushdb_url: str | None, rushdb_api_key: str | None, as_json: bool) -> None:
    """Sync a repository's memory records into scoped RushDB memory.

    Reads the repository as import does (every block, the signature and the MST verified; only
    what changed since the last sync into this RushDB project and scope) and writes it as
    RushDB's agent-memory integrations store memories: MEMORY_FACT by factId, EPISODE by
    eventId, the scope from these options and the repository's DID, never from the records.
    Beside each memory, a mirror of its record (ATPROTO_RECORD); supersession as SUPERSEDES
    relationships and inactive facts; a deleted record deactivates its memory. Nothing changed:
    nothing written. A run that stops half way is finished by the next. With
    RUSHDB_EMBEDDING_* set, each memory is written with its vector. Exit 3 when some records
    were skipped (each named on stderr); one an earlier sync named, unchanged since, is only
    counted in a note.

    With --follow it keeps going: it reads the account's event stream (com.atproto.sync.subscribeRepos,
    from its PDS or --relay), verifies every commit of the repository (signature, rev, its
    operations proven against the previous tree), and when memory records changed, syncs again
    (only the diff); a refused or missing event means a sync too, never trusting the event.
    Where it got to is kept with the sync state: run again, it resumes there. One line per
    change on stderr (--json: one JSON line on stdout), until Ctrl-C or SIGTERM (exit 0).

    \b
    Examples:
      pdsmem sync alice.example.com --agent-id coder --profile-id default
      pdsmem sync repo.car --signing-key did:key:zQ3sh... --agent-id coder --profile-id default --dry-run
      pdsmem sync alice.example.com --agent-id coder --profile-id default --follow
    """
    origin = _source(source, "SOURCE")
    _check_car_options(origin, did, signing_key)
    if follow and not isinstance(origin, str):
        raise click.UsageError("--follow follows a repository on its PDS: give a handle or DID, not a CAR file")
    if follow and (dry_run or full):
        raise click.UsageError("--follow writes as it goes: it cannot be a --dry-run, and has no --full")
    if recreate_deleted and follow:
        raise click.UsageError("--follow reads only what changes, and --recreate-deleted needs a full read: run "
                               "pdsmem sync --full --recreate-deleted first, then --follow")
    if recreate_deleted and isinstance(origin, str) and not full:
        raise click.UsageError("--recreate-deleted writes again the memories deleted in RushDB whose records are "
                               "unchanged, and only a full read sees those: pass --full (or sync a CAR file)")
    if relay_url and not follow:
        raise click.UsageError("--relay is where --follow reads events from: pass --follow too")
    if participant is None:
        require_salt(salt, accept_unsalted_scope)
    if isinstance(origin, str):
        pds_url = pds_hint(origin, pds_url, state_dir)
    store = open_store(rushdb_url, rushdb_api_key)
    embedder = configured_embedder()
    store.check()  # a wrong key or a server that is down says so before anything is read
    scope = scope_of(agent_id, profile_id, salt, accept_unsalted_scope, privacy_scope, sandbox_eligible, participant)
    if follow:
        _follow(api.follow(origin, scope, store, relay_url=relay_url, embedder=embedder, pds_url=pds_url,
                           plc_url=plc_url, state_dir=state_dir), as_json=as_json)
        return
    with _refused_repository(NOTHING_SYNCED), _naming_the_car(origin), _reading(origin) as (repo, reading):
        syncing: list[Progress] = []

        def progress(done: int, total: int) -> None:
            if not syncing:  # the repository is read: its bar ends, the sync's begins
                reading.close()
                syncing.append(Progress("Syncing", unit="records").__enter__())
            syncing[0].update(done, total)

        def note_retry(err: PdsmemError, delay: float) -> None:
            (syncing[0] if syncing else reading).note(retrying(err, delay))

        try:
            report = api.sync(repo, scope, store, dry_run=dry_run, full=full, recreate_deleted=recreate_deleted,
                              batch_size=batch_size,
                              embedder=embedder, did=did, signing_key=signing_key, pds_url=pds_url, plc_url=plc_url,
                              state_dir=state_dir, on_read=reading.advance if isinstance(repo, str) else None,
                              on_progress=progress, on_retry=note_retry)
        finally:
            for bar in syncing:
                bar.close()
    _finish_sync(report, store, as_json)


def _follow(following: api.Follow, *, as_json: bool) -> None:
    """``sync --follow``: the first sync, then the event stream, until Ctrl-C or SIGTERM."""
    show = _status_printer(lambda: following.did or following.source, lambda: following.url or "", as_json)

    last: list[api.FollowStatus] = []  # the last status told, for the summary

    def tell(status: api.FollowStatus) -> None:
        last[:] = [status]
        for problem in status.skipped:
            click.echo(f"Error: {problem.uri}: {problem.reason} (skipped; fix or delete the record in the "
                       "repository; the next change syncs it again)", err=True)
        for note in status.notes:  # (with --json, the status line holds them too)
            click.echo(f"Note: {note}", err=True)
        show(status)

    following.on_status = tell

    def stop(signum: int, frame: Any) -> None:
        if following.stopping:  # asked twice: stop now, even in the middle of a sync
            raise KeyboardInterrupt
        following.stop()

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        following.run()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if as_json:  # the last line of --json is a summary, as for every command
        status = last[-1] if last else None
        write({"summary": {"did": following.did or following.source, "state": "stopped",
                           "seq": status.seq if status else None, "eventTime": status.event_time if status else None}})


def _status_printer(account: Callable[[], str], stream: Callable[[], str],
                    as_json: bool) -> Callable[[api.FollowStatus], None]:
    """Tell each change of the follow's state once: a line on stderr, or a JSON line on stdout."""
    last: list[tuple[str, str]] = []

    def show(status: api.FollowStatus) -> None:
        if last and last[0] == (status.state, status.note) and not status.notes:
            return
        url, did = stream(), account()
        last[:] = [(status.state, status.note)]
        if as_json:
            write({"follow": {"did": did, "stream": url, "state": status.state, "seq": status.seq,
                              "eventTime": status.event_time, "behind": status.behind, "note": status.note,
                              **({"notes": list(status.notes)} if status.notes else {}),
                              "at": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}})
            return
        where = f" (at seq {status.seq})" if status.seq is not None else ""
        behind = f" ({status.behind} event{'' if status.behind == 1 else 's'} behind)" if status.behind else ""
        lines = {
            "connecting": f"connecting to {url}",
            "connected": status.note + where if status.note else f"connected to {url}{where}",
            "syncing": f"syncing: {status.note}{behind}",
            "reconnecting": f"reconnecting: {status.note}",
            "paused": f"paused: {status.note}",
            "stopped": f"stopped following {did}{where}",
        }
        click.echo(f"{datetime.now().strftime('%H:%M:%S')} {lines.get(status.state, status.state)}", err=True)

    return show


_SINGULAR = {"memories": "memory", "mirrors": "mirror"}  # of Report.written's names
_SHOWN = {"keptDeleted": "kept deleted"}  # of Report.counts' names


def _finish_sync(report: api.Report, store: api.RushDB, as_json: bool) -> None:
    for note in report.notes:
        click.echo(f"Note: {note}", err=True)
    new = [problem for problem in report.failed if not problem.known]
    for problem in new:
        click.echo(f"Error: {problem.uri}: {problem.reason} (skipped; fix or delete the record in the "
                   "repository, then sync again)", err=True)
    known = len(report.failed) - len(new)
    if known:
        click.echo(f"Note: {known} record{'s' if known > 1 else ''} named by an earlier sync, unchanged since, "
                   f"{'are' if known > 1 else 'is'} still skipped (pdsmem verify lists {'them' if known > 1 else 'it'}; "
                   "fix or delete in the repository)", err=True)
    if as_json:
        described = {"did": report.did, "rev": report.rev, "read": report.read, "dryRun": report.dry_run,
                     **report.counts, "written": report.written, **({"notes": report.notes} if report.notes else {})}
        write({"summary": {**described, "knownFailed": known}})
    else:
        counts = ", ".join(f"{n} {_SHOWN.get(name, name)}" for name, n in report.counts.items())
        how = "nothing changed since the last sync" if report.read == "unchanged" else f"{report.read} read"
        into = f"{report.did} at rev {report.rev} ({how}) into {store.target.shown}: {counts}"
        if report.dry_run:
            click.echo(f"Dry run, nothing written: would sync {into}")
        else:
            written = ", ".join(f"{n} {_SINGULAR.get(name, name) if n == 1 else name}"
                                for name, n in report.written.items())
            click.echo(f"Synced {into}; wrote {written}")
    code = report.exit_code()  # records already named only: a repository another app keeps so is no failure of this run
    if code:
        click.get_current_context().exit(code)


@cli.command()
@click.argument("query")
@scope_options
@click.option("--did", callback=is_account_did, metavar="DID",
              help="The participant: the repository whose memories these are (hashed with the salt).")
@participant_option("The participant scope hash as an agent runtime wrote it, instead of --did.")
@click.option("--exclude-session", metavar="SESSION_ID", help="Leave out the episodes of this session.")
@click.option("--limit", type=WholeNumber(1, 50), metavar="N", default=8, show_default=True, help="Memories to return.")
@rushdb_options
@output_options
def recall(query: str, agent_id: str, profile_id: str, salt: str, accept_unsalted_scope: bool, privacy_scope: str,
           sandbox_eligible: bool, did: str | None, participant: str | None, exclude_session: str | None, limit: int,
           rushdb_url: str | None, rushdb_api_key: str | None, as_json: bool) -> None:
    """Recall a scope's memories most like QUERY, as an agent receives them.

    Searches with all five scope fields, active facts only, and the episodes of
    --exclude-session left out; prints the memories quoted, under a notice that they are
    untrusted historical context, not instructions. By vector similarity when RUSHDB_EMBEDDING_*
    is set and the indexes exist (pdsmem ensure-indexes); otherwise by the words of the query,
    and it says so: ranked with BM25, stop words left out, and only the memories that hold
    enough of the query's less common words (fewer than --limit rather than unrelated ones; a
    note says when nothing matches well). --json prints one line per memory, then a summary line.
    On a terminal, a text the privacy gate would refuse (a password, a key, a card's number) is
    withheld, as list's table withholds it; piped to a program (an agent) and with --json, every
    text is printed whole.

    \b
    Examples:
      pdsmem recall "Which language does the user prefer?" --agent-id coder --profile-id default \\
        --did did:plc:ewvi7nxzyoun6zhxrhs64oiz
    """
    if not query.strip():
        raise click.BadParameter("must hold some text to search for", param_hint="QUERY")
    scope = trusted_scope(did, participant, agent_id=agent_id, profile_id=profile_id, salt=salt,
                          accept_unsalted_scope=accept_unsalted_scope, privacy_scope=privacy_scope,
                          sandbox_eligible=sandbox_eligible)
    embedder = configured_embedder()
    if embedder is None and not api.has_search_words(query):
        raise click.BadParameter("holds no word of two letters or more (or one letter of Chinese, Japanese, Korean, "
                                 "Thai, Lao, Khmer or Myanmar), and without an embeddings endpoint "
                                 "(RUSHDB_EMBEDDING_*) memories are matched by the words of the query",
                                 param_hint="QUERY")
    store = open_store(rushdb_url, rushdb_api_key)
    found = api.recall(store, scope, query, did=did, embedder=embedder, limit=limit, exclude_session=exclude_session)
    for note in found.notes:
        click.echo(f"Note: {note}", err=True)
    if as_json:
        for hit in found.hits:
            write(hit.to_json())
        write({"summary": {"method": found.method, "hits": len(found.hits)}})
    elif found.hits:
        if sys.stdout.isatty():  # a person reads it, not an agent: withheld as list's table withholds
            found = replace(found, hits=[replace(hit, text=withheld(hit.text) or hit.text) for hit in found.hits])
        click.echo(found.as_context())
    else:
        click.echo("No memory of this scope matches.", err=True)


@cli.command("ensure-indexes")
@dry_run_option
@rushdb_options
@output_options
def ensure_indexes_cmd(dry_run: bool, rushdb_url: str | None, rushdb_api_key: str | None, as_json: bool) -> None:
    """Make the vector indexes recall needs on EPISODE.summary and MEMORY_FACT.text.

    With RUSHDB_EMBEDDING_API_KEY, _MODEL and _DIMENSIONS set (and _BASE_URL for an endpoint
    other than OpenAI's): external indexes of that size, filled by sync. Without them: the
    server's managed indexes, which need an embedding provider on the server. Existing indexes
    stay; running it again makes nothing.

    \b
    Example:
      RUSHDB_EMBEDDING_API_KEY=... RUSHDB_EMBEDDING_MODEL=text-embedding-3-small \\
        RUSHDB_EMBEDDING_DIMENSIONS=1536 pdsmem ensure-indexes
    """
    store = open_store(rushdb_url, rushdb_api_key)
    embedder = configured_embedder()
    if embedder is None and not store.check().get("embeddingEnabled"):
        raise PdsmemError(
            f"{store.target.shown} has no embedding provider of its own, and no embeddings endpoint is "
            "configured for external vectors",
            hint="set RUSHDB_EMBEDDING_API_KEY, RUSHDB_EMBEDDING_MODEL and RUSHDB_EMBEDDING_DIMENSIONS "
            "(and RUSHDB_EMBEDDING_BASE_URL), then run it again; until then recall matches words",
        )
    made = api.ensure_indexes(store, embedder, dry_run=dry_run)
    made_keys = {(index.get("label"), index.get("propertyName")) for index in made}
    shown = store.indexes() + ([{**spec, "sourceType": "external" if spec.get("external") else "managed"}
                                for spec in made] if dry_run else [])
    counts = {"would create" if dry_run else "created": 0, "exists": 0}
    for index in shown:
        key = (index.get("label"), index.get("propertyName"))
        if key[0] not in ("EPISODE", "MEMORY_FACT"):
            continue
        status = ("would create" if dry_run else "created") if key in made_keys else "exists"
        counts[status] += 1
        line = {"label": key[0], "property": key[1], "sourceType": index.get("sourceType"),
                "dimensions": index.get("dimensions"), "status": status}
        if as_json:
            write(line)
        else:
            click.echo(f"{status:<12} {key[0]}.{key[1]}  {index.get('sourceType')}, "
                       f"{index.get('dimensions') or 'the server’s'} dimensions")
    if as_json:
        write_summary({"dryRun": dry_run, **{status.replace("would c", "wouldC"): number
                                             for status, number in counts.items()}})
