"""The runs: export, import, sync, follow, recall, verify; each wraps the bridge's own
pipelines (``pdsmem.bridge.pipelines``), which it imports when first called.

Every run that reads a repository verifies it first (the commit's signature, every block, the
MST): a repository that fails is not used at all (``VerificationError``). Runs that remember
where they got to (export's ledger, import and sync cursors, a follow's stream cursor) keep it
in ``state_dir`` (default: the platform's user state directory; ``PDSMEM_STATE_DIR``).
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from pdsmem.api.arguments import (
    a_count, a_did, a_directory, a_repository, a_scope, a_session, a_store, a_string, a_url, an_embedder, an_output,
)
from pdsmem.api.results import (
    FollowStatus, Hit, Memory, Outcome, Problem, Prune, Recall, Report, RushDB, Session, Verification,
)
from pdsmem.api.values import Scope
from pdsmem.errors import PdsmemError, TransientError, UsageError, VerificationError, kind_of

if TYPE_CHECKING:
    from pdsmem.bridge.pipelines.exporter import ExportReport, PrunePlan
    from pdsmem.bridge.pipelines.import_batch import ImportBatch, RecordProblem
    from pdsmem.bridge.pipelines.importer import Importer
    from pdsmem.bridge.pipelines.sources import SourceItem
    from pdsmem.bridge.pipelines.state import State
    from pdsmem.bridge.pipelines.syncer import SyncReport
    from pdsmem.bridge.rushdb.embeddings import Embedder

__all__ = [
    "Follow", "FromRushDB", "Memories", "Repository", "check_account", "embedder_from_env", "empty_scope_note",
    "ensure_indexes", "export", "follow", "has_search_words", "import_repository", "list_memories", "recall", "rushdb",
    "sync", "verify",
]

Repository = str | os.PathLike[str] | BinaryIO | IO[bytes]
"""A repository to read: a handle or DID (read from its PDS), or a CAR file (a path or a binary
stream; a string with a slash in it, "./repo.car", is a path)."""


def _directory(path: str | os.PathLike[str] | None) -> Path | None:
    return None if a_directory(path) is None else Path(path)  # type: ignore[arg-type]


# --- connections ----------------------------------------------------------------------------


def check_account(account: str) -> None:
    """Check that ``account`` is a handle or DID pdsmem can read (a ``did:web`` whose host and port
    make a URL, a ``did:plc`` of the method's shape). Raises ``InvalidSyntax`` saying what is wrong;
    never makes a request."""
    from pdsmem.bridge.atproto.identity import did_web_base
    from pdsmem.mapping.syntax import AtIdentifier, Did

    from pdsmem.mapping.syntax_base import invalid

    identifier = AtIdentifier.parse(account)
    if identifier.is_did:
        did = Did.parse(identifier)
        if problem := did.plc_problem():
            raise invalid(problem, account)
        if did.method == "web":
            did_web_base(did)


def rushdb(api_key: str, url: str | None = None, *, engine_url: str | None = None,
           engine_scope: str | None = None) -> RushDB:
    """A RushDB project: the REST API at ``url`` (RushDB Cloud when None) with a write
    ``api_key``, or a standalone engine in the SDK's direct mode (``engine_url``, the engine's
    token as ``api_key``, ``engine_scope``). Connects on first use; ``check()`` asks the server
    now. Never writes the key anywhere (the sync state holds a hash of it)."""
    from pdsmem.bridge.rushdb.store import MemoryStore, RushDBTarget

    a_string(api_key, "the RushDB API key" if engine_url is None else "the RushDB engine's token",
             hint="a write API key of the project, as RUSHDB_API_KEY holds it", one_line=True)
    hint = "the RushDB API's base URL, as RUSHDB_API_URL holds it: http://localhost:3000"
    # the URLs as checked go to the SDK: "http://host:3000/?" would reach the server's web page
    url, engine_url = a_url(url, "the RushDB URL", hint=hint), a_url(engine_url, "the RushDB engine URL", hint=hint)
    return MemoryStore(RushDBTarget(api_key, url=url, engine_url=engine_url, engine_scope=engine_scope))


def embedder_from_env() -> Embedder | None:
    """The embeddings endpoint ``RUSHDB_EMBEDDING_*`` configure (as rushdb-hermes-memory names
    them), or None. Raises ``EmbeddingError`` (a ``PdsmemError``) when it is half configured."""
    from pdsmem.bridge.rushdb.embeddings import Embedder as Bridged

    return Bridged.from_env()


def ensure_indexes(store: RushDB, embedder: Embedder | None = None, *, dry_run: bool = False) -> list[dict[str, Any]]:
    """Make the vector indexes recall needs (EPISODE.summary, MEMORY_FACT.text): external ones of
    the embedder's size, else the server's managed ones. Returns those made (or, with
    ``dry_run``, those it would make); existing indexes stay."""
    from pdsmem.bridge.pipelines.syncer import ensure_indexes as make

    return make(a_store(store), embedder, dry_run=dry_run)


# --- export ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FromRushDB:
    """An export source: the memories of ``scope`` in the RushDB project ``store`` (the
    participant: the exporting account's DID, unless the scope names its own)."""

    store: RushDB
    scope: Scope

    def __post_init__(self) -> None:
        a_scope(self.scope)
        a_store(self.store)


Memories = Iterable[Mapping[str, Any]] | str | os.PathLike[str] | BinaryIO | FromRushDB
"""What ``export`` reads: AgentMemoryEvents (dicts, or ``from_record`` objects), a JSON Lines file
or a directory of one-event-per-file JSON (a Hermes outbox), a binary stream of JSON Lines, or
``FromRushDB``."""


def _items(memories: Memories, did: str, name: str | None, notes: list[str]) -> tuple[Iterable[SourceItem], str]:
    from pdsmem.bridge.pipelines.sources import SourceItem, read_source, read_stream

    if isinstance(memories, FromRushDB):
        from pdsmem.bridge.rushdb.memories import export_items

        scope = memories.scope
        fields = scope.fields(did)
        store: Any = memories.store
        items = list(export_items(store, fields, did, notes))
        return items, name or f"rushdb:{store.target.key}/{scope.agent_id}/{scope.profile_id}"
    if isinstance(memories, (bytes, bytearray)):
        raise UsageError("memories is bytes, not a list of events or a path",
                         hint="pass a list of events (dicts), a JSON Lines file's path, or a binary stream (io.BytesIO)")
    if isinstance(memories, str) and (memories.lstrip()[:1] in ("{", "[") or "\n" in memories):
        # JSON given where a path goes: never shown, since it holds memories' words
        raise UsageError("memories is a string of JSON, not a path",
                         hint="pass the events themselves: export(session, [json.loads(line) for line in text.splitlines()])")
    if isinstance(memories, (str, os.PathLike)):
        path = Path(memories)
        try:
            found = path.exists()
        except OSError:  # a name too long for the system
            found = False
        if not found:
            shown = str(path) if len(str(path)) <= 200 else f"(a path of {len(str(path))} characters)"
            raise UsageError(f"no such file or directory: {shown}")
        return read_source(path, notes), name or str(path.resolve())
    if hasattr(memories, "read"):
        stream: Any = memories
        shown = name or "stream"
        return read_stream(stream, shown), shown
    if isinstance(memories, Mapping):
        raise UsageError("memories is one event, not a list of them",
                         hint="pass a list (or any iterable) of events: export(session, [event])")
    if not isinstance(memories, Iterable):
        raise UsageError(f"memories is {kind_of(memories)}, not a list of events",
                         hint="pass a list of events (dicts), a JSON Lines file's path, a binary stream or "
                              "FromRushDB(store, scope)")
    shown = name or "memories"
    return (SourceItem(f"{shown}:{n}", _event(event, f"{shown}:{n}")) for n, event in enumerate(memories, start=1)), shown


def _event(event: Any, where: str) -> dict[str, Any] | PdsmemError:
    """A copy of one event of a list, or the error that names why it is none (an item that fails,
    as a line of JSON Lines that is no object does; the rest are exported)."""
    from pdsmem.bridge.pipelines.sources import SourceError

    if isinstance(event, Mapping):
        return dict(event)
    return SourceError(f"is {kind_of(event)}, not an event (an object)", item=where,
                       hint="each item of the list is one AgentMemoryEvent v1 object")


def _outcome(outcome: Any) -> Outcome:
    return Outcome(status=outcome.status, where=outcome.where, uri=outcome.uri, memory_id=outcome.memory_id,
                   reason=outcome.reason, unreadable=outcome.unreadable, known=outcome.known)


def _export_report(report: ExportReport) -> Report:
    return Report(kind="export", did=report.did, dry_run=report.dry_run, counts=dict(report.counts),
                  outcomes=[_outcome(o) for o in report.outcomes], notes=list(report.notes),
                  batches=report.batches, prune_refused=report.prune_refused)


def _prune(plan: PrunePlan) -> Prune:
    return Prune([(c.uri, c.memory_id) for c in plan.candidates], plan.scope_records)


def export(session: Session, memories: Memories, *, dry_run: bool = False, publish_private: bool = False,
           include_transcript: bool = False, prune: bool = False, confirm_prune: Callable[[Prune], bool] | None = None,
           overwrite: Iterable[str] = (), recreate_deleted: bool = False, max_wait: float = 0.0,
           state_dir: str | os.PathLike[str] | None = None, source_name: str | None = None,
           on_progress: Callable[[int, int], None] | None = None,
           on_retry: Callable[[TransientError, float], None] | None = None,
           on_wait: Callable[[float], None] | None = None) -> Report:
    """Export ``memories`` to the repository of ``session`` as ``dev.bastienrobert.memory.record``
    records, and return the report (created, unchanged, refused with reasons, conflicts).

    What is already there, unchanged, is not written again (run it after every turn: only new
    and changed memories cost a write); an interrupted export resumes where it stopped. Each
    memory passes the privacy gate first (``check_privacy``): a refused one is reported, never
    written. ``dry_run`` plans and writes nothing. ``prune`` deletes the records pdsmem wrote for
    memories of the source's agent and profile that are gone from it (never others; a prune of
    more than 10% asks ``confirm_prune``, and without it deletes nothing; an empty source, one
    part of which cannot be read, or an agent runtime's outbox, which holds only the memories not
    yet sent, prunes nothing, with a note that says why). ``overwrite``: at-uris
    of records changed on the PDS to write anyway. ``on_progress(done, total)`` after each write
    batch; ``on_retry(error, delay)`` before a retry; ``on_wait(seconds)`` while waiting up to
    ``max_wait`` for a rate limit.

    Raises ``ExportPaused`` when a rate limit stopped it (run it again later),
    ``UsageError`` for a source that does not exist, ``PdsmemError`` for a repository that
    answers unexpectedly. Never writes a refused memory, never quotes a memory's text in a reason,
    and never deletes a record another app or person wrote. The session stays open."""
    from pdsmem.bridge.pipelines.exporter import Exporter
    from pdsmem.bridge.pipelines.sources import is_outbox
    from pdsmem.bridge.pipelines.state import State

    a_session(session)
    notes: list[str] = []
    items, name = _items(memories, session.did, source_name, notes)
    if prune and isinstance(memories, (str, os.PathLike)) and is_outbox(path := Path(memories).resolve()):
        prune = False
        what = f"{path.name}/ is an agent runtime's outbox" if path.is_dir() else f"{path.name} is a file of an agent runtime's outbox"
        notes.append(
            f"nothing was pruned: {what} (event files named by their event's id), which holds only the memories "
            "not yet sent to RushDB, so a prune would delete the records of every memory sent since (prune from "
            "RushDB, which holds them all: --from rushdb)")
    with State(_directory(state_dir)) as state:
        exporter = Exporter(
            session, state, publish_private=publish_private, include_transcript=include_transcript,
            max_wait=max_wait, on_progress=on_progress, on_wait=on_wait, on_retry=on_retry,
            confirm_prune=(lambda plan: confirm_prune(_prune(plan))) if confirm_prune else None,
            overwrite=overwrite, recreate_deleted=recreate_deleted,
        )
        report = exporter.run(items, dry_run=dry_run, prune=prune, source_name=name, source_notes=notes)
    return _export_report(report)


# --- import and sync ------------------------------------------------------------------------


def _importer(state: State, scope: Scope, *, pds_url: str | None, plc_url: str | None, target: str = "") -> Importer:
    from pdsmem.bridge.pipelines.importer import Importer

    a_url(pds_url, "pds_url"), a_url(plc_url, "plc_url")
    if scope.participant is None and not scope.salt and not scope.accept_unsalted:
        scope.participant_for("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")  # raises the UsageError
    return Importer(state, agent_id=scope.agent_id, profile_id=scope.profile_id, salt=scope.salt,
                    privacy_scope=scope.privacy_scope, sandbox_eligible=scope.sandbox_eligible, plc_url=plc_url,
                    pds_hint=pds_url, target=target, participant=scope.participant)


def _read(importer: Importer, source: Repository, *, full: bool, did: str | None, signing_key: str | None,
          on_read: Callable[[int], None] | None) -> ImportBatch:
    if isinstance(source, str):
        if did or signing_key:
            raise UsageError("did and signing_key apply to CAR files only; a PDS read takes the DID and its "
                             "signing key from the account's DID document")
        return importer.from_pds(source, full=full, on_read=on_read)
    return importer.from_car(source, did=did, signing_key=signing_key, full=full)


def _problem(problem: RecordProblem, known: bool = False) -> Outcome:
    return Outcome(status="failed", where=problem.uri, uri=problem.uri, reason=problem.reason,
                   cid=problem.cid or None, known=known)


def _open_out(out: str | os.PathLike[str]) -> IO[str]:
    """``out`` opened for appending on a fresh line (a cut-off last line stays cut)."""
    path = Path(out)
    ends_cleanly = True
    if path.is_file() and path.stat().st_size:
        with path.open("rb") as existing:
            existing.seek(-1, os.SEEK_END)
            ends_cleanly = existing.read(1) == b"\n"
    handle = path.open("a", encoding="utf-8")
    if not ends_cleanly:
        handle.write("\n")
    return handle


def _deliver(importer: Importer, batch: ImportBatch, out: IO[str] | str | os.PathLike[str]) -> None:
    """Write the batch to ``out``; the cursor moves only if that worked."""
    where = (str(out) if isinstance(out, (str, os.PathLike))
             else "stdout" if out is sys.stdout else str(getattr(out, "name", "the output")))
    try:
        stream = out if not isinstance(out, (str, os.PathLike)) else _open_out(out)
        try:
            importer.deliver(batch, stream)
        finally:
            if stream is not out:
                stream.close()
    except OSError as exc:
        raise PdsmemError(
            f"cannot write the output to {where}: {exc.strerror or exc}", did=batch.did,
            hint="the stored cursor did not move; the next run writes these changes again",
        ) from exc


class _Collect:
    """A text stream that keeps the JSON lines written to it."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def import_repository(source: Repository, scope: Scope, *, out: IO[str] | str | os.PathLike[str] | None = None,
                      dry_run: bool = False, full: bool = False, did: str | None = None,
                      signing_key: str | None = None, pds_url: str | None = None, plc_url: str | None = None,
                      state_dir: str | os.PathLike[str] | None = None,
                      on_read: Callable[[int], None] | None = None) -> Report:
    """Import the memory records of a repository (a handle or DID read from its PDS, or a CAR
    file) as AgentMemoryEvents of ``scope``: what changed since the last import into this scope.

    The changes are ``{"op": "create"|"update", "event", "record", "links"}`` and
    ``{"op": "delete", "uri"}``: appended to ``out`` as JSON Lines (a text stream or a file
    path), or, without ``out``, returned in ``Report.changes``; then the stored cursor moves, so
    the next import returns only what changed since. ``full`` reads everything again. CAR files:
    ``did`` is the owner it must have, ``signing_key`` (a ``did:key``) verifies it offline.
    ``dry_run`` reads, verifies and counts, and moves nothing. ``on_read(n)`` gets the bytes of
    each chunk read from the PDS.

    Raises ``VerificationError`` (nothing imported, the cursor unmoved), ``IdentityError``,
    ``UsageError`` (an unsalted scope not accepted) or ``TransientError``. Records that fail to map
    are skipped and listed in ``Report.outcomes``. Never trusts a record's own scope fields."""
    from pdsmem.bridge.pipelines.state import State

    source, scope, did, out = a_repository(source), a_scope(scope), a_did(did), an_output(out)

    with State(_directory(state_dir)) as state:
        importer = _importer(state, scope, pds_url=pds_url, plc_url=plc_url)
        batch = _read(importer, source, full=full, did=did, signing_key=signing_key, on_read=on_read)
        reminder = importer.secret_reminder(batch)  # before the cursor moves
        collected = _Collect()
        with batch:
            if not dry_run:
                _deliver(importer, batch, out if out is not None else collected)  # type: ignore[arg-type]
    import json

    changes = [json.loads(line) for line in collected.lines if line.strip()]
    from pdsmem.bridge.pipelines.import_batch import secret_notes

    return Report(kind="import", did=batch.did, dry_run=dry_run, rev=batch.rev, read=batch.read,
                  counts=dict(batch.summary), outcomes=[_problem(p) for p in batch.failures], changes=changes,
                  notes=secret_notes(batch.secrets) + reminder)


def _reported_failures(state: State, did: str, reader: str) -> set[tuple[str, str]]:
    """(uri, CID) of the records the last sync into this scope skipped: each was named then."""
    return {(uri, cid) for uri, (cid, _) in state.seen_failures(did, reader).items() if cid}


def _sync_report(report: SyncReport, known: set[tuple[str, str]], reminder: list[str]) -> Report:
    return Report(kind="sync", did=report.did, dry_run=report.dry_run, rev=report.rev, read=report.read,
                  counts=dict(report.counts), written=dict(report.written), notes=list(report.notes) + reminder,
                  outcomes=[_problem(p, (p.uri, p.cid) in known) for p in report.failures])


def sync(source: Repository, scope: Scope, store: RushDB, *, dry_run: bool = False, full: bool = False,
         recreate_deleted: bool = False, batch_size: int | None = None, embedder: Embedder | None = None, did: str | None = None,
         signing_key: str | None = None, pds_url: str | None = None, plc_url: str | None = None,
         state_dir: str | os.PathLike[str] | None = None, on_read: Callable[[int], None] | None = None,
         on_progress: Callable[[int, int], None] | None = None,
         on_retry: Callable[[PdsmemError, float], None] | None = None) -> Report:
    """Sync a repository's memory records into ``scope`` in the RushDB project ``store``: read as
    ``import_repository`` reads (verified, only what changed since the last sync into this
    project and scope), written as RushDB's agent-memory integrations store memories, with a
    mirror of each record; nothing changed, nothing written.

    ``embedder`` (``embedder_from_env``) writes each memory with its vector. ``batch_size``:
    records per RushDB transaction. ``dry_run`` reads and counts, writes nothing. A memory deleted
    in RushDB after a sync wrote it stays deleted while its record is unchanged (counted as
    ``keptDeleted``), unless ``recreate_deleted`` (which only a full read can act on). One sync into a
    scope at a time: a second raises ``StateError`` while the first runs. Records that fail are
    skipped and listed in ``Report.outcomes`` (``known``: named by an earlier sync, unchanged).

    Raises ``VerificationError`` (nothing written, the cursor unmoved), ``RushDBError``,
    ``IdentityError``, ``UsageError`` or ``TransientError``. Never blanks a row another writer
    made, and never reads the scope from the records."""
    from pdsmem.bridge.pipelines.state import State
    from pdsmem.bridge.pipelines.syncer import CHUNK, Syncer

    source, scope, did, bridged = a_repository(source), a_scope(scope), a_did(did), a_store(store)
    if batch_size is not None:
        a_count(batch_size, "batch_size")
    with State(_directory(state_dir)) as state:
        importer = _importer(state, scope, pds_url=pds_url, plc_url=plc_url, target=bridged.target.key)
        with state.exclusive(f"sync {importer.scope_key}", "another pdsmem sync into this scope"):
            batch = _read(importer, source, full=full, did=did, signing_key=signing_key, on_read=on_read)
            known = _reported_failures(state, batch.did, importer.reader)  # before this sync moves the cursor
            reminder = importer.secret_reminder(batch)
            with batch:
                syncer = Syncer(importer, bridged, embedder=embedder, on_progress=on_progress,
                                batch_size=batch_size or CHUNK, on_retry=on_retry, recreate_deleted=recreate_deleted)
                report = syncer.sync(batch, dry_run=dry_run)
    return _sync_report(report, known, reminder)


# --- follow ---------------------------------------------------------------------------------


class Follow:
    """A sync that keeps going: ``run()`` syncs, then follows the repository's event stream and
    syncs each change as it comes (only the diff, every commit verified), until ``stop()``.
    Iterating over it runs it in a thread and yields each ``FollowStatus``; leaving the loop
    stops it. Built by ``follow``."""

    def __init__(self, source: str, scope: Scope, store: RushDB, *, relay_url: str | None,
                 embedder: Embedder | None, pds_url: str | None, plc_url: str | None,
                 state_dir: str | os.PathLike[str] | None,
                 on_status: Callable[[FollowStatus], None] | None) -> None:
        self.source, self.scope, self.store = source, scope, store
        self.relay_url, self.embedder = relay_url, embedder
        self.pds_url, self.plc_url, self.state_dir = pds_url, plc_url, state_dir
        self.on_status = on_status
        self.url: str | None = None  # the event stream, once connected
        self.did: str | None = None  # the repository's DID, once resolved
        self._follower: Any = None
        self._stop = False
        self._stopped = threading.Event()  # wakes a sync waiting to try RushDB again

    @property
    def stopping(self) -> bool:
        """Whether ``stop()`` was called and the run it stops has not returned yet."""
        return self._stop

    def stop(self) -> None:
        """End the follow within a second: a sync under way finishes first. Safe to call from a
        signal handler or another thread."""
        self._stop = True
        self._stopped.set()
        if self._follower is not None:
            self._follower.stop()

    def run(self) -> None:
        """Sync, then follow until ``stop()``; reconnects after the PDS, the stream or RushDB
        fail. A ``stop()`` made before ``run()`` ends that run at once; once it has returned,
        ``run()`` follows again. Raises ``VerificationError`` for a first sync of a repository that fails,
        ``FollowError`` for a stream URL that serves no event stream, ``StateError`` while another
        sync into the scope runs."""
        try:
            if not self._stop:
                self._run()
        finally:  # it ended (stopped, or failed): a later run() follows again
            self._follower, self._stop = None, False
            self._stopped.clear()

    def _pause(self, seconds: float) -> None:
        """A sync's wait before it tries RushDB again, cut short by ``stop()``: a follow stopped
        while RushDB is away ends within a second, not after the sync's eight tries."""
        if self._stopped.wait(seconds):
            raise TransientError("the follow was stopped while the sync waited to try RushDB again")

    def _run(self) -> None:
        from pdsmem.bridge.atproto.identity import Identity, IdentityResolver, pds_endpoint
        from pdsmem.bridge.atproto.identity import signing_key as document_signing_key
        from pdsmem.bridge.pipelines.follower import Follower, stream_url
        from pdsmem.bridge.pipelines.state import State
        from pdsmem.bridge.pipelines.syncer import Syncer

        store: Any = self.store
        with ExitStack() as stack:
            state = stack.enter_context(State(_directory(self.state_dir)))
            importer = _importer(state, self.scope, pds_url=self.pds_url, plc_url=self.plc_url,
                                 target=store.target.key)
            stack.enter_context(state.exclusive(f"sync {importer.scope_key}", "another pdsmem sync into this scope"))
            resolver = stack.enter_context(IdentityResolver(plc_url=importer.plc_url))
            account = [resolver.resolve(self.source, pds_hint=importer.pds_hint)]  # read again on #identity
            did = self.did = str(account[0].did)
            url = self.url = stream_url(self.relay_url or account[0].pds_url)
            reported = _reported_failures(state, did, importer.reader)  # told once, then only counted
            skipped: list[Outcome] = []
            noted: list[str] = []
            reminded = [False]  # the records noted by earlier runs: told once a follow, when it starts

            def sync_once() -> tuple[dict[str, int], str, Any]:
                try:
                    batch = importer.from_pds(did, identity=account[0])
                except VerificationError as exc:
                    done = "nothing was written to RushDB and the stored cursor did not move"
                    exc.hint = f"{exc.hint}; {done}" if exc.hint else done
                    raise
                reminder = importer.secret_reminder(batch) if not reminded[0] else []
                with batch:
                    report = Syncer(importer, store, embedder=self.embedder, sleep=self._pause,
                                    on_retry=lambda err, delay: follower.waiting(
                                        f"{err.message}; trying again in {delay:g} s")).sync(batch)
                for problem in report.failures:
                    if (problem.uri, problem.cid) not in reported:
                        skipped.append(_problem(problem))
                        reported.add((problem.uri, problem.cid))
                noted.extend(report.notes + reminder)
                reminded[0] = True  # (not before: a first sync that fails, RushDB not up yet, reminds on the next)
                return ({**report.counts, **{f"wrote {name}": n for name, n in report.written.items()}},
                        report.rev, batch.data_cid)

            def current() -> tuple[str, str]:
                doc = resolver.resolve_did(did)
                account[0] = Identity(did=account[0].did, handle=account[0].handle, pds_url=pds_endpoint(doc),
                                      signing_key=document_signing_key(doc))
                return account[0].signing_key, account[0].pds_url

            def tell(status: Any) -> None:
                self.url = follower.url
                news, notes = tuple(skipped), tuple(noted)
                skipped.clear()
                noted.clear()
                if self.on_status is not None:
                    self.on_status(FollowStatus(status.state, status.seq, status.event_time, status.behind,
                                                status.note, dict(status.synced), news, notes))

            follower = Follower(
                did, url, sync=sync_once, resolve=current, follow_pds=self.relay_url is None,
                load_cursor=lambda: state.stream_cursor(did, importer.reader, follower.url),
                save_cursor=lambda seq, when: state.advance_stream(did, importer.reader, follower.url, seq, when),
                on_status=tell,
            )
            self._follower = follower
            if self._stop:
                follower.stop()
            follower.run()

    def __iter__(self) -> Iterator[FollowStatus]:
        statuses: queue.Queue[FollowStatus | BaseException | None] = queue.Queue()
        told = self.on_status

        def tell(status: FollowStatus) -> None:
            if told is not None:
                told(status)
            statuses.put(status)

        def work() -> None:
            try:
                self.run()
            except BaseException as err:  # handed to the iterating thread
                statuses.put(err)
            else:
                statuses.put(None)

        self.on_status = tell
        thread = threading.Thread(target=work, name="pdsmem-follow", daemon=True)
        thread.start()
        try:
            while True:
                item = statuses.get()
                if item is None:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            self.stop()
            thread.join()
            self.on_status, self._stop = told, False
            self._stopped.clear()


def follow(source: str, scope: Scope, store: RushDB, *, relay_url: str | None = None,
           embedder: Embedder | None = None, pds_url: str | None = None, plc_url: str | None = None,
           state_dir: str | os.PathLike[str] | None = None,
           on_status: Callable[[FollowStatus], None] | None = None) -> Follow:
    """A ``Follow`` of the repository of ``source`` (a handle or DID) into ``scope`` in
    ``store``: call ``run()`` (blocks; ``on_status`` is told each change of state) or iterate
    over it. The stream comes from the account's PDS (it moves with the PDS), or ``relay_url``.
    Where it got to is kept with the sync state: run again, it resumes there. Builds only; nothing
    is read until it runs."""
    from pdsmem.bridge.pipelines.follower import stream_url

    a_string(source, "the account to follow", hint="its handle or DID")
    if relay_url is not None:
        try:
            stream_url(a_string(relay_url, "relay_url", hint="the relay as https://host"))
        except PdsmemError as err:
            raise UsageError(err.message, hint=err.hint) from None
    return Follow(source, a_scope(scope), a_store(store), relay_url=relay_url, embedder=embedder, pds_url=pds_url, plc_url=plc_url,
                  state_dir=state_dir, on_status=on_status)


# --- recall and verify ----------------------------------------------------------------------


def recall(store: RushDB, scope: Scope, query: str, *, did: str | None = None, embedder: Embedder | None = None,
           limit: int = 8, exclude_session: str | None = None) -> Recall:
    """The memories of ``scope`` most like ``query``, best first: episodes and active facts, by
    vector similarity with an ``embedder`` (and the indexes, ``ensure_indexes``), else by the
    query's words ranked with BM25 (``Recall.notes`` says so). ``did``: the participant's
    repository, when the scope names no participant of its own. ``Recall.as_context()`` is the
    text to give an agent. Raises ``UsageError`` for an empty query, ``RushDBError`` or
    ``TransientError``. Never writes."""
    from pdsmem.bridge.rushdb.memories import recall as find

    if not isinstance(query, str) or not query.strip():
        raise UsageError("the query must hold some text to search for")
    found = find(a_store(store), a_scope(scope).fields(a_did(did)), query, embedder=an_embedder(embedder),
                 limit=a_count(limit, "limit"),
                 exclude_session=exclude_session)
    hits = [Hit(label=h["label"], id=h["id"], text=h["text"], score=h["score"], event=h.get("event") or {})
            for h in found.hits]
    return Recall(hits=hits, method=found.method, notes=list(found.notes))


def list_memories(store: RushDB, scope: Scope, *, did: str | None = None) -> Iterator[Memory]:
    """Every memory RushDB holds for ``scope``, active and inactive: facts then episodes, each
    oldest first, then the episodes a deletion or an edit on the PDS retired (their records'
    mirrors keep them; docs/mapping.md, "Forgetting"); each with the PDS records it was synced
    from. ``did``: the participant's repository, when the scope names no participant of its own.
    Raises ``RushDBError`` or ``TransientError``. Never writes."""
    from pdsmem.bridge.rushdb.memories import list_memories as listed

    for memory in listed(a_store(store), a_scope(scope).fields(a_did(did))):
        yield Memory(**vars(memory))


def empty_scope_note(store: RushDB, scope: Scope, *, did: str | None = None) -> str:
    """What to tell someone whose ``scope`` holds no memories (``list_memories`` gave none): the options
    to check, and, when RushDB holds memories otherwise, the first option that differs (the other
    privacy; another participant or salt; this agent's profile; the agents it holds). Names ids, never a
    memory's text. Raises ``RushDBError`` or ``TransientError``. Never writes."""
    from pdsmem.bridge.rushdb.memories import empty_scope_note as note

    return note(a_store(store), a_scope(scope).fields(a_did(did)))


def has_search_words(query: str) -> bool:
    """Whether ``query`` holds a word a recall without embeddings can match: two letters or more
    (or one letter of Chinese, Japanese, Korean, Thai, Lao, Khmer or Myanmar), stop words aside."""
    from pdsmem.bridge.rushdb.memories import query_words

    return bool(query_words(query))


def verify(source: Repository, *, did: str | None = None, signing_key: str | None = None,
           pds_url: str | None = None, plc_url: str | None = None, state_dir: str | os.PathLike[str] | None = None,
           on_read: Callable[[int], None] | None = None) -> Verification:
    """Verify a repository (a handle or DID read from its PDS, or a CAR file): the commit's
    signature by the DID's key, the MST, every block; a repository older than the last imported
    rev (a rollback); then every record (its ``$type``, memory records against their lexicon).

    Raises ``VerificationError`` when the commit, signature, MST or rev fails; a record block
    missing or not valid (not DAG-CBOR in atproto's data model, not a map, no ``$type``) is listed
    in ``Verification.broken``, a record not valid for
    its type in ``invalid``. Never writes (the state is only read, when it exists)."""
    from pdsmem.bridge.pipelines.importer import verify_source
    from pdsmem.bridge.pipelines.state import State, resolve_state_dir

    directory = resolve_state_dir(_directory(state_dir))
    state = State(directory) if (directory / "state.sqlite3").exists() else None
    try:
        source = a_repository(source)
        a_url(pds_url, "pds_url"), a_url(plc_url, "plc_url")
        report = verify_source(source, car=not isinstance(source, str), did=did, signing_key=signing_key,
                               plc_url=plc_url, pds_hint=pds_url, state=state, on_read=on_read)
    finally:
        if state is not None:
            state.close()
    commit = report.commit
    return Verification(did=str(commit.did), rev=str(commit.rev), commit=str(commit.cid),
                        records=report.record_count, memory_records=report.memory_records,
                        broken=[Problem(p.uri, p.reason) for p in report.broken],
                        invalid=[Problem(p.uri, p.reason) for p in report.invalid])
