"""Sync: a repository's memory records, read verified and incrementally as ``import`` reads them,
written into scoped RushDB memory (docs/rushdb.md).

Scope: ``Syncer.sync`` takes an ``ImportBatch`` (what changed in the repository since the last
sync into this RushDB project and scope) and writes it: each memory merged by its id, each
record's mirror, the ``RECORDED_AS`` and ``SUPERSEDES`` relationships; a deleted record
deactivates its memory and marks its mirror deleted. Then the sync state moves. The layout is
``pdsmem.mapping.rushdb_rows``; the RushDB calls are ``rushdb.MemoryStore``'s, one per chunk.

Tricky bits:
- Crash safety: every write is an upsert by a deterministic key, and relationships are merged,
  so a chunk written twice is written once. The cursor moves only after every chunk and every
  relationship is written; before the first write the batch's records are noted as pending
  (``Importer.begin``), so a run killed half way is finished by the next, and a record deleted
  in between still deactivates what the killed run wrote.
- Every row pdsmem writes or merges into is linked to the scope's ``PDSMEM_SCOPE`` row
  (``sync_scope``), in the transaction that writes it; each chunk reads what RushDB holds for it
  (its mirrors, and the memories they and the new rows name) as that row's neighbours, which
  the server finds from its id, whatever else the project holds. To know which memory a record
  made before (an edited fact gets a new id: the old one is deactivated and unlinked), which
  memories still exist (a deleted record never creates a stub), and which optional fields an
  edit dropped (that memory is written whole).
- A memory a record's extension names (the memory it was exported from) that the scope's rows
  do not hold may be a row an agent runtime wrote: only those are searched for in the project
  (``rushdb_rows.to_search``), and a row found so is linked to the scope when it is written.
  When this machine exported the record from RushDB, its export ledger keeps that row's id: up
  to ``ROW_READS`` of a chunk are read by it (the server's index), each checked to be that
  memory of the scope, and only the others searched for.
- A new memory and the one new mirror that names it are created together, with their
  ``RECORDED_AS``, in one nested import (the server links them by the ids it gives them, and
  returns them). Any other ``RECORDED_AS`` a chunk makes (a mirror that is new, or names another
  memory than before) is made by id in the chunk's transaction. ``SUPERSEDES`` is made after
  every chunk is in, so a fact can supersede one written by a later chunk, by id, for every
  mirror written that supersedes (made again, it stays single). The links an edit or a deletion
  removes go by id in the chunk that finds them, before that chunk's rows change (so a run
  killed in between finds the same links to remove again).
- An episode has no ``active`` in the contract, and the contract's recall of episodes filters on
  the scope alone: the row of an episode whose record is deleted or edited into another memory
  is deleted (in the chunk's transaction), its event kept on the mirror (``retiredEpisodes``).
- An update writes only what the record determines (``rushdb_rows.update_row``): a row that
  an agent runtime wrote keeps the transcript an episode record does not carry. A row that holds
  what the record determines already is not written at all (an upsert matches its rows by a
  search of the project): an agent's memories exported and synced back cost no write. Nor is a row
  whose record is as this machine exported it (its export ledger's CID): what differs is what the
  agent changed since (a fact it forgot, a confidence), which the record does not know of.
- A full read (``sync --full``, a CAR) also re-asserts the scope's retirements: a fact whose record
  the person deleted or edited away that an agent runtime wrote again (the same words: the same
  ``factId``, the same row) is deactivated again (``_retired_again``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pdsmem.errors import PdsmemError, VerificationError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.records import RecordView
from pdsmem.mapping.syntax import AtUri

from ..rushdb.embeddings import Embedder
from .import_batch import Change, ImportBatch, RecordProblem, secret_notes
from .importer import Importer
from ..rushdb.store import MemoryStore, RushDBTooLarge, retrying
from .state import ExportedRecord
from .sync_scope import Anchor, Scopes

__all__ = ["CHUNK", "SyncReport", "Syncer", "counted", "ensure_indexes"]

CHUNK = 500  # changes written per transaction
DETACH_EACH = 4  # sources whose relationships are removed by id, one call each; more: one call for all
ROW_READS = 32  # memories a chunk reads by the row id the export ledger keeps; more: one search of the project
FULL_READS = ("full", "full after diff", "car")  # the reads that see every record of the repository


@dataclass
class SyncReport:
    did: str
    rev: str
    read: str  # how the repository was read: unchanged, diff, full, full after diff, car
    dry_run: bool
    # What happened to the memory rows, each counted once: created (it did not exist), merged (a row
    # another writer made, now also this record's), updated, unchanged (records not read again
    # among them), retired; and the records deleted and failed. A dry run counts records, as
    # import does (created, updated, unchanged, deleted, failed): it reads no row.
    counts: dict[str, int]
    failures: list[RecordProblem]
    written: dict[str, int] = field(default_factory=lambda: {"memories": 0, "mirrors": 0, "deactivated": 0})
    notes: list[str] = field(default_factory=list)  # what a record asked that sync did not do, by uri

    @property
    def wrote_nothing(self) -> bool:
        return not any(self.written.values())


_SINGULAR = {"memories": "memory", "mirrors": "mirror", "records": "record"}  # of SyncReport.written's names


def counted(n: int, name: str) -> str:
    """``1 memory``, ``3 mirrors``: a count of ``SyncReport.written`` as a person reads it."""
    return f"{n} {_SINGULAR.get(name, name) if n == 1 else name}"


@dataclass
class _Written:
    """What the chunks of a sync wrote that the ``SUPERSEDES`` relationships are made from, at the end."""

    superseding: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # mirror key → (row id, fact ids)


@dataclass
class _Chunk:
    """What one chunk of changes writes, worked out before the writing starts."""

    create: dict[str, dict[str, dict]] = field(default_factory=lambda: {rows.FACT: {}, rows.EPISODE: {}})  # by id
    append: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    rewrite: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    deactivate: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    # Rows RushDB holds as the record says already: not written (an upsert reads the project), linked
    # to the scope's row when a search found them.
    kept: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    new_mirrors: list[dict] = field(default_factory=list)
    mirrors: list[dict] = field(default_factory=list)  # mirrors RushDB holds, written again
    same_mirrors: list[dict] = field(default_factory=list)  # mirrors RushDB holds as they are: not written
    gone: list[dict] = field(default_factory=list)  # deleted mirrors

    def memories(self, label: str) -> list[dict]:
        """Every memory row of ``label`` this chunk writes (not the deactivations)."""
        return [*self.create[label].values(), *self.append[label], *self.rewrite[label]]

    def paired(self) -> dict[str, dict[str, dict]]:
        """label → id → the new mirror, for each new memory that exactly one new mirror of the chunk
        names: those two are written together, with their ``RECORDED_AS``, in one import."""
        named: dict[str, list[dict]] = {}
        for mirror in self.new_mirrors:
            named.setdefault(mirror["memoryId"], []).append(mirror)
        return {label: {key: named[key][0] for key in self.create[label] if len(named.get(key, [])) == 1}
                for label in self.create}
    # Relationships to remove: facts from the mirrors they were retired from (RECORDED_AS: fact
    # id, mirror key); mirrors from facts their records no longer supersede (SUPERSEDES: mirror
    # key → fact ids).
    unrecord: set[tuple[str, str]] = field(default_factory=set)
    unsupersede: dict[str, set[str]] = field(default_factory=dict)
    legacy_links: set[str] = field(default_factory=set)  # facts linked to facts by an earlier version
    drop: set[str] = field(default_factory=set)  # ids of episodes whose rows are deleted
    tally: dict[str, int] = field(default_factory=lambda: {"merged": 0, "updated": 0, "unchanged": 0, "keptDeleted": 0})


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def ensure_indexes(store: MemoryStore, embedder: Embedder | None, *, dry_run: bool = False) -> list[dict]:
    """The vector indexes recall needs on ``EPISODE.summary`` and ``MEMORY_FACT.text``: external
    ones of the embedder's size when one is configured, else the server's managed ones (which
    need an embedding provider on the server). Returns those made (with ``dry_run``, the specs
    of those it would make); existing ones stay."""
    existing = store.indexes()
    made = []
    for label, prop in rows.TEXT_PROPERTY.items():
        if embedder is not None:
            spec = {"label": label, "propertyName": prop, "external": True, "dimensions": embedder.dimensions,
                    "similarityFunction": embedder.similarity}
            if any(_same_index(index, spec) for index in existing):
                continue
        else:
            spec = {"label": label, "propertyName": prop}
            if any(i.get("label") == label and i.get("propertyName") == prop and i.get("sourceType") == "managed"
                   for i in existing):
                continue
        made.append(spec if dry_run else store.create_index(spec))
    return made


def _same_index(index: dict, spec: dict) -> bool:
    return (index.get("label"), index.get("propertyName"), index.get("sourceType"), int(index.get("dimensions") or 0)) == (
        spec["label"], spec["propertyName"], "external", spec["dimensions"])


class Syncer:
    """Writes import batches of one scope into one RushDB project."""

    def __init__(
        self,
        importer: Importer,
        store: MemoryStore,
        *,
        embedder: Embedder | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        on_retry: Callable[[PdsmemError, float], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        batch_size: int = CHUNK,
        recreate_deleted: bool = False,
    ) -> None:
        self.importer, self.store, self.embedder = importer, store, embedder
        # whether a memory deleted in RushDB after a sync wrote it is written again by a read of its
        # unchanged record (a full read sees every record): not unless asked
        self.recreate_deleted = recreate_deleted
        self.batch_size = batch_size  # changes per transaction; halved when the server asks
        self.on_progress, self.on_retry, self.sleep = on_progress, on_retry, sleep
        self.scopes = Scopes(store, self._retrying)
        self.unsure = False  # whether a write of this run was tried again (``_leftovers`` then runs)

    def sync(self, batch: ImportBatch, *, dry_run: bool = False) -> SyncReport:
        """Write ``batch`` (which must be open) into RushDB, then move the sync state."""
        scope = self.importer.scope_for(batch.did).fields
        anchor = self.scopes.find(scope) if not dry_run or batch.read != "unchanged" else None
        if anchor is None and not dry_run:  # the first sync of this scope into the project by this version
            # (a scope this machine synced into the project before may hold an earlier version's rows)
            anchor = self.scopes.make(scope, synced_before=self.importer.state.cursor(
                batch.did, self.importer.reader) is not None)
        if batch.read in FULL_READS:
            self._retrying(lambda: self._reconcile(batch, scope, anchor))
        report = SyncReport(batch.did, batch.rev, batch.read, dry_run, dict(batch.summary), list(batch.failures),
                            notes=secret_notes(batch.secrets))
        if dry_run and batch.read != "unchanged":  # what the person deleted before a sync saw it, said first
            if would := self._retrying(lambda: self._deleted_before_a_sync(batch, scope, dry_run=True)):
                report.counts["retired"] = report.counts.get("retired", 0) + would
        records = batch.summary
        report.counts = {"created": 0, "merged": 0, "updated": 0, "unchanged": records["unchanged"], "keptDeleted": 0,
                         "retired": report.counts.get("retired", 0) if dry_run else 0,
                         "deleted": records["deleted"], "failed": records["failed"]}
        if dry_run and batch.read == "unchanged":
            return report
        if dry_run and anchor is None:  # a scope this version never synced: no row is linked to it yet
            anchor = Anchor("", written={})
        if dry_run:  # each chunk read and planned as a sync would, and counted: nothing written
            for chunk in _chunks(batch.changes(), lambda: self.batch_size):
                self._count(self._retrying(lambda: self._planned(chunk, batch.rev, scope, anchor, report))[0], report)
            self._note_kept_deleted(report)
            return report
        if anchor.repaired:
            report.written["repaired"] = anchor.repaired
        if batch.read == "unchanged":
            return report
        if self.embedder is not None:
            self._retrying(lambda: ensure_indexes(self.store, self.embedder))
        # A run that did not finish, or a write tried again after its commit, can leave episode rows.
        self.unsure = self.unsure or bool(self.importer.state.pending(batch.did, self.importer.reader))
        self.importer.begin(batch)
        total = sum(records[name] for name in ("created", "updated", "deleted"))
        done, written = 0, _Written()
        for chunk in _chunks(batch.changes(), lambda: self.batch_size):  # a 408 makes the rest smaller
            for part in self._sized(chunk, lambda part: self._write(part, batch.rev, scope, anchor, report, written)):
                done += len(part)
                if self.on_progress:
                    self.on_progress(done, total)
        self._link(written, scope, anchor)
        if gone := self._retrying(lambda: self._deleted_before_a_sync(batch, scope)):
            report.counts["retired"] += gone
            report.written["deactivated"] += gone
        if self.unsure and (left := self._retrying(lambda: self._leftovers(scope, anchor))):
            report.written["repaired"] = report.written.get("repaired", 0) + left
        # (a scope's row made by this run holds only this run's retirements: none can be undone yet)
        if (batch.read in FULL_READS and anchor.written is None
                and (again := self._retrying(lambda: self._retired_again(scope, anchor)))):
            report.counts["retired"] += again
            report.written["deactivated"] += again
        self._note_kept_deleted(report)
        self.importer.commit(batch)
        return report

    @staticmethod
    def _note_kept_deleted(report: SyncReport) -> None:
        kept = report.counts.get("keptDeleted", 0)
        if kept == 1:
            report.notes.append("1 memory deleted in RushDB after a sync wrote it stays deleted: its record is "
                                "unchanged since (sync --full --recreate-deleted writes it again)")
        elif kept:
            report.notes.append(f"{kept} memories deleted in RushDB after a sync wrote them stay deleted: their "
                                "records are unchanged since (sync --full --recreate-deleted writes them again)")

    def _link(self, written: _Written, scope: dict, anchor: Anchor) -> None:
        """Each mirror written of a fact record to the facts it supersedes (``SUPERSEDES``), by
        id, one call per mirror, in one transaction: after every chunk is in (a record can
        supersede a fact a later chunk writes). Made again for a mirror that has them already (a
        chunk written twice, a run finishing a killed one, a removal of several): a relationship
        stays single."""
        if not written.superseding:
            return
        wanted = {name for _, links in written.superseding.values() for name in links}
        facts = self._retrying(lambda: self.scopes.held(anchor, rows.FACT, wanted, scope))
        pairs = [(mirror_id, [facts[name]["__id"] for name in links if name in facts])
                 for mirror_id, links in written.superseding.values()]

        def attach() -> None:  # in one transaction: the server recomputes its schema once, at the commit
            with self.store.transaction() as tx:
                for mirror_id, targets in pairs:
                    if targets:
                        self.store.attach(mirror_id, targets, rows.SUPERSEDES, tx=tx)
        self._retrying(attach)

    def _deleted_before_a_sync(self, batch: ImportBatch, scope: dict, *, dry_run: bool = False) -> int:
        """Facts an export wrote to the repository (the export ledger names them, with the rev that
        wrote them) whose records the person deleted before a sync saw them, so that no mirror
        names them: a full read at a later rev without the record; a diff that deletes it; or a
        diff that does not hold a record written after the last read (written and deleted in
        between). Each one still active in the scope is deactivated (the person's deletion is
        their word; an episode, which has no ``active``, is left). Returns how many (with
        ``dry_run``, how many would be, and nothing is written)."""
        state = self.importer.state
        ledger = [record for record in state.exported(batch.did).values()
                  if record.scope == (scope["agentId"], scope["profileId"])]
        uri_of = {record.rkey: f"at://{batch.did}/{RECORD_NSID}/{record.rkey}" for record in ledger}
        failed = {problem.uri for problem in batch.failures}
        if batch.read in FULL_READS:
            present = set(batch.records) | failed
            gone = [record for record in ledger if record.rev is not None and record.rev <= batch.rev
                    and uri_of[record.rkey] not in present]
        else:
            cursor = state.cursor(batch.did, self.importer.reader)  # the last read, not yet moved
            last = cursor.rev if cursor is not None else ""
            deleted = set(batch.deleted)
            gone = [record for record in ledger if uri_of[record.rkey] in deleted]
            recent = [record for record in ledger if record.rev is not None and last < record.rev <= batch.rev
                      and uri_of[record.rkey] not in deleted]  # written after the last read
            if recent:
                held = set(state.seen_records(batch.did, self.importer.reader)) | failed | {
                    pending.uri for pending in batch.pending_changes()}
                gone += [record for record in recent if uri_of[record.rkey] not in held]
        if not gone:
            return 0
        facts = self.store.find_by(rows.FACT, rows.MERGE_KEY[rows.FACT], {record.memory_id for record in gone},
                                   rows.scope_where(scope))
        active = [row for row in facts.values() if row.get("active")]  # (the search asked for the scope)
        if dry_run:
            return len(active)
        if active:
            self.store.upsert(rows.FACT, [rows.deactivated(rows.FACT, row[rows.MERGE_KEY[rows.FACT]], row)
                                          for row in active], rows.MERGE_BY[rows.FACT])
        state.note_deleted_on_pds(batch.did, [record.rkey for record in gone])
        return len(active)

    def _leftovers(self, scope: dict, anchor: Anchor) -> int:
        """Episode rows a killed run left: retired (a mirror of the scope lists them) but not yet
        deleted, and made by no live mirror. Returns how many were deleted."""
        mirrors = self.scopes.neighbours(anchor, rows.MIRROR, {"memoryLabel": rows.EPISODE}, scope)
        made = {m.get("memoryId") for m in mirrors if not m.get("deleted")}
        left = {name for m in mirrors for name in m.get(rows.RETIRED_IDS) or []} - made
        if not left:
            return 0
        found = self.scopes.held(anchor, rows.EPISODE, left, scope)
        self.store.delete(rows.EPISODE, {**rows.scope_where(scope), "eventId": {"$in": sorted(found)}})
        return len(found)

    def _retired_again(self, scope: dict, anchor: Anchor) -> int:
        """On a full read: the facts a mirror of the scope retired (their record deleted or edited
        into another memory), made by no live mirror, that are active again (an agent runtime
        wrote the same words again, so the same ``factId``) are deactivated again: the person's
        deletion stands. Returns how many."""
        mirrors = self.scopes.neighbours(anchor, rows.MIRROR, {"memoryLabel": rows.FACT}, scope)
        made = {m.get("memoryId") for m in mirrors if not m.get("deleted")}
        retired = {name for m in mirrors for name in m.get(rows.RETIRED_IDS) or []} - made
        if not retired:
            return 0
        active = [row for row in self.scopes.held(anchor, rows.FACT, retired, scope).values() if row.get("active")]
        if active:
            self.store.upsert(rows.FACT, [rows.deactivated(rows.FACT, row[rows.MERGE_KEY[rows.FACT]], row)
                                          for row in active], rows.MERGE_BY[rows.FACT])
        return len(active)

    def _reconcile(self, batch: ImportBatch, scope: dict, anchor: Anchor | None) -> None:
        """A full read sees every record of the repository: a live mirror, written at an earlier
        rev, of a record it does not hold is a deletion this state never saw (a new machine, a
        new key or URL for the project, a sync state lost) and is added to ``batch``'s."""
        present = set(batch.records) | {problem.uri for problem in batch.failures} | set(batch.deleted)
        where = {**rows.scope_where(scope), "did": batch.did, "deleted": False}
        if anchor is not None and anchor.mirrors is not None:  # read when the scope's row was made
            mirrors = [m for m in anchor.mirrors.values() if m.get("did") == batch.did and m.get("deleted") is False]
        elif anchor is not None:
            mirrors = self.scopes.neighbours(anchor, rows.MIRROR, {"did": batch.did, "deleted": False}, scope)
        else:  # a dry run of a scope never synced by this version searches the project
            mirrors = list(self.store.find(rows.MIRROR, where, order_by="mirrorKey"))
        for mirror in sorted(mirrors, key=lambda m: m["mirrorKey"]):
            if mirror["uri"] not in present and str(mirror.get("rev", "")) < batch.rev:
                batch.deleted.append(mirror["uri"])
                present.add(mirror["uri"])

    def _retrying(self, step):
        return retrying(step, on_retry=self._retried, sleep=self.sleep)

    def _retried(self, err: PdsmemError, delay: float) -> None:
        self.unsure = True  # a write tried again may have been committed the first time
        if self.on_retry:
            self.on_retry(err, delay)

    def _sized(self, chunk: list[Change], write: Callable[[list[Change]], None]) -> Iterable[list[Change]]:
        """Write ``chunk``, yielding each part written: when the server runs out of its
        transaction time budget (HTTP 408, "reduce the batch size"), in halves, down to one
        change, and the chunks after it at the size that worked (each write is idempotent)."""
        try:
            self._retrying(lambda: write(chunk))
        except RushDBTooLarge as err:
            if len(chunk) == 1:
                raise
            half = (len(chunk) + 1) // 2
            self.batch_size = min(self.batch_size, half)
            if self.on_retry:
                self.on_retry(err, 0.0)
            yield from self._sized(chunk[:half], write)
            yield from self._sized(chunk[half:], write)
            return
        yield chunk

    # --- one chunk ------------------------------------------------------------------------------

    def _planned(self, chunk: list[Change], rev: str, scope: dict, anchor: Anchor, report: SyncReport
                 ) -> tuple[_Chunk, dict[str, dict], dict[str, dict[str, dict]], set[tuple[str, str]]]:
        """What writing one chunk would write (``_Chunk``), from what RushDB holds of it: the
        chunk's mirrors, its memories, and which of those a search of the project found."""
        lines = [change.to_json() for change in chunk]
        for note in (f"{line['record']['uri']}: {note} (only links within one repository are followed)"
                     for line in lines if line["op"] != "delete"
                     for note in line.get("links", {}).get("notes", []) if "in another repository" in note):
            if note not in report.notes:  # once, however often a retry or a smaller chunk writes it again
                report.notes.append(note)
        keys = {change.uri: rows.mirror_key(change.uri, scope) for change in chunk}
        held_mirrors = self.scopes.held(anchor, rows.MIRROR, keys.values(), scope)
        _refuse_a_rollback(held_mirrors.values(), rev)
        anchor.note(rows.MIRROR, keys.values())  # (after the lookup, before the write: a retry reads them back)
        upserts = [line for line in lines if line["op"] != "delete"]
        exported = self._exported(upserts)
        held, searched = self._held_memories(upserts, held_mirrors.values(), scope, anchor, exported)
        return self._plan(lines, keys, held_mirrors, held, rev, scope, exported), held_mirrors, held, searched

    def _write(self, chunk: list[Change], rev: str, scope: dict, anchor: Anchor, report: SyncReport,
               written: _Written) -> None:
        """Write one chunk, and note in ``written`` what to link once every chunk is in."""
        plan, held_mirrors, held, searched = self._planned(chunk, rev, scope, anchor, report)
        self._unlink(plan, held_mirrors, held, scope, anchor)  # before the rows change: a re-run finds them as they were
        paired = plan.paired()
        with self.store.transaction() as tx:
            made: list[dict] = []
            for label in (rows.FACT, rows.EPISODE):
                merge_by = rows.MERGE_BY[label]
                made += self.store.create(label, [{**plan.create[label][key], rows.MIRROR: mirror}
                                                  for key, mirror in paired[label].items()],
                                          tx=tx, relationship=rows.RECORDED_AS)
                made += self.store.create(label, [row for key, row in plan.create[label].items()
                                                  if key not in paired[label]], tx=tx)
                self.store.upsert(label, plan.append[label], merge_by, tx=tx)
                self.store.upsert(label, plan.rewrite[label], merge_by, rewrite=True, tx=tx)
                self.store.upsert(label, plan.deactivate[label], merge_by, tx=tx)
            nested = {id(mirror) for part in paired.values() for mirror in part.values()}
            made += self.store.create(rows.MIRROR, [mirror for mirror in plan.new_mirrors if id(mirror) not in nested],
                                      tx=tx)
            # A mirror row always has every property, so merging it is writing it whole.
            self.store.upsert(rows.MIRROR, plan.mirrors + plan.gone, rows.MERGE_BY[rows.MIRROR], tx=tx)
            ids = rows.keyed(made)
            ids.update(((label, name), row["__id"]) for label, part in held.items() for name, row in part.items())
            ids.update(((rows.MIRROR, name), row["__id"]) for name, row in held_mirrors.items())
            # Rows found by a search of the project (an agent runtime's) are linked once written.
            touched = {(label, row[rows.MERGE_KEY[label]]) for label in (rows.FACT, rows.EPISODE)
                       for row in [*plan.memories(label), *plan.deactivate[label], *plan.kept[label]]}
            scoped = set(rows.keyed(made).values()) | {ids[name] for name in touched & searched}
            if scoped:
                self.store.attach(anchor.id, scoped, rows.IN_SCOPE, direction="in", tx=tx)
            self._record(plan, paired, ids, held_mirrors, tx)
        # After the commit (the server does not delete inside a transaction of ours): the mirrors
        # hold the episodes' events now; a run killed before this deletes them (``_leftovers``).
        self.store.delete(rows.EPISODE, {**rows.scope_where(scope), "eventId": {"$in": sorted(plan.drop)}})
        for row in plan.new_mirrors + plan.mirrors + plan.same_mirrors:  # (links made again stay single)
            if row.get(rows.LINKS):
                written.superseding[row["mirrorKey"]] = (ids[(rows.MIRROR, row["mirrorKey"])], list(row[rows.LINKS]))
        report.written["memories"] += sum(len(plan.memories(label)) for label in (rows.FACT, rows.EPISODE))
        report.written["mirrors"] += len(plan.new_mirrors) + len(plan.mirrors) + len(plan.gone)
        report.written["deactivated"] += sum(len(plan.deactivate[lb]) for lb in plan.deactivate) + len(plan.drop)
        self._count(plan, report)

    @staticmethod
    def _count(plan: _Chunk, report: SyncReport) -> None:
        """Add what the chunk ``plan`` makes of its records to the report's counts."""
        for name, number in plan.tally.items():
            report.counts[name] += number
        report.counts["created"] += sum(len(plan.create[label]) for label in plan.create)
        report.counts["retired"] += len({row[rows.MERGE_KEY[label]] for label, part in plan.deactivate.items()
                                         for row in part}) + len(plan.drop)

    def _held_memories(self, lines: list[dict], mirrors: Iterable[dict], scope: dict,
                       anchor: Anchor, exported: dict[str, ExportedRecord]
                       ) -> tuple[dict[str, dict[str, dict]], set[tuple[str, str]]]:
        """label → id → the memory RushDB holds, for the chunk's new memories and those its
        records made before: the scope's, and those an agent runtime may have written that a
        record's extension names (searched for in the project); and which were found so."""
        wanted: dict[str, set[str]] = {rows.FACT: set(), rows.EPISODE: set()}
        named: dict[str, set[str]] = {rows.FACT: set(), rows.EPISODE: set()}
        for line in lines:
            label = rows.label_of(line["event"])
            wanted[label].add(rows.memory_key(line["event"]))
            if (name := rows.exported_from(RecordView.from_json(line["record"]))) is not None:
                wanted[label].add(name)  # the memory it was exported from
                named[label].add(name)
        for mirror in mirrors:
            if mirror.get("memoryLabel") in wanted and mirror.get("memoryId"):
                wanted[mirror["memoryLabel"]].add(mirror["memoryId"])
        where = rows.scope_where(scope)
        held = {label: self.scopes.held(anchor, label, ids, scope) for label, ids in wanted.items()}
        searched: set[tuple[str, str]] = set()
        for label, found in self._exported_rows(lines, exported, rows.to_search(named, held), scope).items():
            held[label].update(found)
            searched |= {(label, name) for name in found}
        for label, ids in rows.to_search(named, held).items():
            if ids:
                found = self.store.find_by(label, rows.MERGE_KEY[label], ids, where)
                held[label].update(found)
                searched |= {(label, name) for name in found}
        for label, ids in wanted.items():  # every memory the chunk may write or link to the scope
            anchor.note(label, ids)
        return held, searched

    def _exported(self, lines: list[dict]) -> dict[str, ExportedRecord]:
        """at-uri → what this machine's export ledger says it wrote there, for the chunk's records."""
        ledgers: dict[str, dict[str, ExportedRecord]] = {}
        found = {}
        for line in lines:
            uri = AtUri.parse(line["record"]["uri"])
            mine = ledgers.setdefault(uri.authority, self.importer.state.exported(uri.authority)).get(uri.rkey or "")
            if mine is not None:
                found[line["record"]["uri"]] = mine
        return found

    def _exported_rows(self, lines: list[dict], exported: dict[str, ExportedRecord], named: dict[str, set[str]],
                       scope: dict) -> dict[str, dict[str, dict]]:
        """label → id → row, for the memories ``named`` whose records this machine exported from
        RushDB rows whose ids its export ledger keeps: read by id, each checked to be that memory
        of the scope (an id of another project, or of a row since deleted, is not). None when
        the chunk names more than ``ROW_READS`` such memories: one search costs less then."""
        if not any(named.values()):
            return {}
        reads: dict[str, tuple[str, str]] = {}  # row id → (label, memory id)
        for line in lines:
            mine, label = exported.get(line["record"]["uri"]), rows.label_of(line["event"])
            if mine is not None and mine.row and mine.memory_id in named.get(label, ()):
                reads[mine.row] = (label, mine.memory_id)
        if not reads or len(reads) > ROW_READS:
            return {}
        found: dict[str, dict[str, dict]] = {}
        for row_id, (label, name) in reads.items():
            row = self.store.get(row_id)  # (the chunk's write is tried again as a whole)
            if row and row.get("__label") == label and row.get(rows.MERGE_KEY[label]) == name and rows.in_scope(row, scope):
                found.setdefault(label, {})[name] = row
        return found

    def _plan(self, lines: list[dict], keys: dict[str, str], held_mirrors: dict[str, dict],
              held: dict[str, dict[str, dict]], rev: str, scope: dict, exported: dict[str, ExportedRecord]) -> _Chunk:
        plan, synced_at = _Chunk(), now()
        upserts = [line for line in lines if line["op"] != "delete"]
        new_ids = {rows.memory_key(line["event"]) for line in upserts}
        vectors = self._vectors([line["event"] for line in upserts])
        for line, vector in zip(upserts, vectors):
            event, label = line["event"], rows.label_of(line["event"])
            view = RecordView.from_json(line["record"])
            before = held[label].get(rows.memory_key(event))
            previous = held_mirrors.get(keys[view.uri])
            if before is None and not self.recreate_deleted \
                    and rows.deleted_since_synced(previous, view, rows.memory_key(event)):
                plan.tally["keptDeleted"] += 1  # deleted in RushDB, the record unchanged since: left so
                plan.same_mirrors.append(previous)
                continue
            if before is None:  # new: created, once even when two records of the chunk make it
                row, rewrite = rows.memory_row(event), False
            else:  # only what the record determines, never emptying what it does not carry
                row, rewrite = rows.update_row(event, before, rows.undetermined(event, view.value))
            if vector is not None:
                row["$vectors"] = [{"propertyName": rows.TEXT_PROPERTY[label], "vector": vector,
                                    "similarityFunction": self.embedder.similarity}]
            if before is None:
                key = rows.memory_key(event)
                plan.create[label][key] = {**plan.create[label].get(key, {}), **row}
            else:
                # (a record as this machine exported it says nothing the row did not: what differs is
                # what the agent changed since, "active": false or a confidence, and stays)
                mine = exported.get(view.uri)  # (as exported: the ledger's CID, the record not deleted since)
                as_exported = mine is not None and mine.deleted_at is None and mine.cid == view.cid
                same = not rewrite and vector is None and (not rows.changes(before, row) or as_exported)
                (plan.kept if same else plan.rewrite if rewrite else plan.append)[label].append(row)
                if keys[view.uri] not in held_mirrors:  # a row another writer made (an agent runtime)
                    plan.tally["merged"] += 1
                else:
                    plan.tally["updated" if rows.changes(before, row) or rewrite else "unchanged"] += 1
                if label == rows.FACT and before.get(rows.LINKS):  # an earlier version's links, from the fact
                    plan.legacy_links.add(row["factId"])
            links = line.get("links", {}).get("supersedesFactIds") if label == rows.FACT else None
            mirror = rows.mirror_row(view, rev=rev, synced_at=synced_at, scope=scope, memory=event, links=links,
                                     previous=previous)
            (plan.new_mirrors if previous is None else plan.mirrors).append(mirror)
            if previous is not None:
                if dropped := set(previous.get(rows.LINKS) or []) - set(mirror[rows.LINKS]):
                    plan.unsupersede[mirror["mirrorKey"]] = dropped
                if previous.get("memoryId") != mirror["memoryId"]:
                    self._retire(plan, previous, mirror, held, new_ids)  # the record now makes another memory
            else:  # the first sync of a record exported from a memory, then edited: that memory is gone
                named = rows.exported_from(view)
                if named not in (None, mirror["memoryId"]) and (source := held[label].get(named)) is not None \
                        and rows.edited_from(view, scope, source):
                    self._retire(plan, {"memoryLabel": label, "memoryId": named, "mirrorKey": mirror["mirrorKey"]},
                                 mirror, held, new_ids)
        for line in lines:
            if line["op"] == "delete" and (previous := held_mirrors.get(keys[line["uri"]])) is not None:
                gone = rows.deleted_mirror(previous, rev=rev, synced_at=synced_at)
                plan.gone.append(gone)
                if previous.get(rows.LINKS):
                    plan.unsupersede[previous["mirrorKey"]] = set(previous[rows.LINKS])
                self._retire(plan, previous, gone, held, new_ids)
        # (after the retirements, which note on mirrors what their records no longer make)
        mirrors, plan.mirrors = plan.mirrors, []
        for mirror in mirrors:
            changed = rows.changes(held_mirrors[mirror["mirrorKey"]], mirror, ignored=rows.WHEN_WRITTEN)
            (plan.mirrors if changed else plan.same_mirrors).append(mirror)
        return plan

    def _retire(self, plan: _Chunk, previous: dict, mirror: dict, held: dict[str, dict[str, dict]],
                keep: set[str]) -> None:
        """Retire the memory the record of the mirror ``previous`` made (noted on ``mirror``, the
        row written in its place): a fact deactivated, an episode's row deleted; and plan the
        removal of its link to the mirror. Not when it is gone from RushDB or a record of this
        chunk makes it now."""
        label, memory_id = previous.get("memoryLabel"), previous.get("memoryId")
        memory = held.get(label, {}).get(memory_id)
        if memory is None or memory_id in keep:
            return
        rows.retire_on(mirror, label, memory)
        if label == rows.EPISODE:
            plan.drop.add(memory_id)
        else:
            plan.deactivate[label].append(rows.deactivated(label, memory_id, memory))
        if label == rows.FACT:  # an episode's row goes, and its relationships with it
            plan.unrecord.add((memory_id, previous["mirrorKey"]))
        if memory.get(rows.LINKS):  # an earlier version's links, from the fact itself
            plan.legacy_links.add(memory_id)

    def _record(self, plan: _Chunk, paired: dict[str, dict[str, dict]], ids: dict[tuple[str, str], str],
                held_mirrors: dict[str, dict], tx: Any) -> None:
        """``RECORDED_AS`` by id, in the chunk's transaction, from each memory to the mirrors of the
        chunk that name it and were not linked to it: a mirror that is new (and not created with
        it), names another memory than before, or names a memory created now. Made with the rows
        they join, these are never left behind by a killed run."""
        nested = {mirror["mirrorKey"] for part in paired.values() for mirror in part.values()}
        created = {(label, name) for label, part in plan.create.items() for name in part}
        targets: dict[str, set[str]] = {}
        for mirror in plan.new_mirrors + plan.mirrors + plan.same_mirrors:  # (a memory deleted in RushDB, made again)
            key, memory = mirror["mirrorKey"], (mirror["memoryLabel"], mirror["memoryId"])
            previous = held_mirrors.get(key)
            fresh = previous is None or previous.get("memoryId") != mirror["memoryId"] or memory in created
            if key in nested or memory not in ids or not fresh:
                continue
            targets.setdefault(ids[memory], set()).add(ids[(rows.MIRROR, key)])
        for source, mirrors in sorted(targets.items()):
            self.store.attach(source, mirrors, rows.RECORDED_AS, tx=tx)

    def _unlink(self, plan: _Chunk, held_mirrors: dict[str, dict], held: dict[str, dict[str, dict]], scope: dict,
                anchor: Anchor) -> None:
        """The chunk's relationships to remove, by id: each retired fact from the mirror it was
        retired from, each mirror from the facts it no longer supersedes."""
        where = rows.scope_where(scope)
        unrecord: dict[str, set[str]] = {}
        for memory_id, key in plan.unrecord:
            if (fact := held[rows.FACT].get(memory_id)) is not None and (mirror := held_mirrors.get(key)) is not None:
                unrecord.setdefault(fact["__id"], set()).add(mirror["__id"])
        self._detach(unrecord, rows.FACT, rows.MIRROR, rows.RECORDED_AS)
        if plan.unsupersede:
            wanted = {name for names in plan.unsupersede.values() for name in names}
            facts = {**self.scopes.held(anchor, rows.FACT, wanted - set(held[rows.FACT]), scope), **held[rows.FACT]}
            unsupersede = {held_mirrors[key]["__id"]: {facts[name]["__id"] for name in names if name in facts}
                           for key, names in plan.unsupersede.items() if key in held_mirrors}
            self._detach({source: targets for source, targets in unsupersede.items() if targets},
                         rows.MIRROR, rows.FACT, rows.SUPERSEDES)
        if plan.legacy_links:  # earlier versions linked fact to fact; the mirror links now
            self.store.unlink({"label": rows.FACT, "where": {**where, "factId": {"$in": sorted(plan.legacy_links)}}},
                              {"label": rows.FACT, "where": where}, rows.SUPERSEDES)

    def _detach(self, pairs: dict[str, set[str]], source: str, target: str, kind: str) -> None:
        """Remove the relationships ``kind`` from each source id to its target ids: by id, one call
        per source, for a few; else one call for them all, which removes those between any source
        and any target (each call makes the server walk the project again for its schema, so many
        calls cost more than one search). ``RECORDED_AS``: no retired fact is made by another
        mirror of the chunk; ``SUPERSEDES``: ``_link`` makes again those that must stay."""
        if len(pairs) <= DETACH_EACH:
            for one, many in sorted(pairs.items()):
                self.store.detach(one, many, kind)
            return
        self.store.unlink({"label": source, "where": {"$id": {"$in": sorted(pairs)}}},
                          {"label": target, "where": {"$id": {"$in": sorted(set().union(*pairs.values()))}}}, kind)

    def _vectors(self, events: list[dict]) -> list[list[float] | None]:
        if self.embedder is None:
            return [None] * len(events)
        texts = [event[rows.TEXT_PROPERTY[rows.label_of(event)]] for event in events]
        return list(self.embedder.embed(texts)) if texts else []


def _refuse_a_rollback(mirrors: Iterable[dict], rev: str) -> None:
    """Refuse a read older than one a sync wrote: a mirror read at a later rev (an older CAR, synced
    with no sync state, would make live again what the person deleted or edited since). The local
    state refuses it where it knows the repository; RushDB's mirrors where it does not."""
    newer = sorted(mirror["uri"] for mirror in mirrors if str(mirror.get("rev") or "") > rev)
    if newer:
        raise VerificationError(
            f"rollback: RushDB holds {counted(len(newer), 'records')} of this repository as read at a later "
            f"rev than this read's {rev} (first: {newer[0]})",
            hint="this is an older state of the repository than a sync wrote: sync from the PDS, or a newer CAR")


def _chunks(changes: Iterable[Change], size: Callable[[], int]) -> Iterable[list[Change]]:
    """``changes`` in chunks of ``size()``, asked again for each chunk: the size a server's time
    budget allowed (``Syncer._sized``) holds for the chunks after."""
    chunk: list[Change] = []
    for change in changes:
        chunk.append(change)
        if len(chunk) >= size():
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def describe(report: SyncReport) -> dict[str, Any]:
    """The report as the ``--json`` summary gives it."""
    return {"did": report.did, "rev": report.rev, "read": report.read, "dryRun": report.dry_run,
            **report.counts, "written": report.written, **({"notes": report.notes} if report.notes else {})}
