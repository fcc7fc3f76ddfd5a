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
- Each chunk reads what RushDB holds for it first (its mirrors, and the memories they and the
  new rows name), to know which memory a record made before (an edited fact gets a new id: the
  old one is deactivated and unlinked), which memories still exist (a deleted record never
  creates a stub), and which optional fields an edit dropped (that memory is written whole).
- A new memory and the one new mirror that names it are created together, with their
  ``RECORDED_AS``, in one nested import (the server links them by the ids it gives them: no
  lookup, and nothing left to link after). The other relationships are linked after every chunk
  is in, so a fact can supersede one written by a later chunk, in key-joined calls of
  ``LINK_CHUNK`` ids (the server's join copies a map of the label's keys into each row, so a
  large call runs out of transaction memory in a large project). ``RECORDED_AS`` joins each
  other memory written to every live mirror of the scope that names it. The links an edit or a deletion removes go in the
  chunk that finds them, in one ``delete_many`` per kind, before that chunk's rows change (so a
  run killed in between finds the same links to remove again).
- An episode has no ``active`` in the contract, and the contract's recall of episodes filters on
  the scope alone: the row of an episode whose record is deleted or edited into another memory
  is deleted (in the chunk's transaction), its event kept on the mirror (``retiredEpisodes``).
- An update writes only what the record determines (``rushdb_rows.update_row``): a row that
  an agent runtime wrote keeps the transcript an episode record does not carry.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pdsmem.errors import PdsmemError
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.records import RecordView

from ..rushdb.embeddings import Embedder
from .import_batch import Change, ImportBatch, RecordProblem
from .importer import Importer
from ..rushdb.store import MemoryStore, RushDBTooLarge, retrying
from .sync_repair import repair

__all__ = ["CHUNK", "SyncReport", "Syncer", "ensure_indexes"]

CHUNK = 500  # changes written per transaction
LINK_CHUNK = 100  # ids per key-joined relationship call: the server copies its join map into each
# row, and a call of a few thousand ids runs out of Neo4j's transaction memory (docs/rushdb.md)
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


@dataclass
class _Written:
    """What the chunks of a sync wrote that the relationships are made from, at the end."""

    memories: dict[str, list[str]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})  # ids
    superseding: list[str] = field(default_factory=list)  # ids of facts that supersede others


@dataclass
class _Chunk:
    """What one chunk of changes writes, worked out before the writing starts."""

    create: dict[str, dict[str, dict]] = field(default_factory=lambda: {rows.FACT: {}, rows.EPISODE: {}})  # by id
    append: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    rewrite: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    deactivate: dict[str, list[dict]] = field(default_factory=lambda: {rows.FACT: [], rows.EPISODE: []})
    new_mirrors: list[dict] = field(default_factory=list)
    mirrors: list[dict] = field(default_factory=list)  # mirrors RushDB holds, written again
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
    # Relationships to remove, by id: facts from the mirrors they were retired from
    # (RECORDED_AS); mirrors from facts their records no longer supersede (SUPERSEDES).
    unrecord: dict[str, set[str]] = field(default_factory=lambda: {rows.FACT: set(), rows.EPISODE: set()})
    unrecord_mirrors: set[str] = field(default_factory=set)
    unsupersede: set[str] = field(default_factory=set)  # mirror keys
    unsuperseded: set[str] = field(default_factory=set)  # fact ids
    legacy_links: set[str] = field(default_factory=set)  # facts linked to facts by an earlier version
    drop: set[str] = field(default_factory=set)  # ids of episodes whose rows are deleted
    tally: dict[str, int] = field(default_factory=lambda: {"merged": 0, "updated": 0, "unchanged": 0})


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
    ) -> None:
        self.importer, self.store, self.embedder = importer, store, embedder
        self.batch_size = batch_size  # changes per transaction; halved when the server asks
        self.on_progress, self.on_retry, self.sleep = on_progress, on_retry, sleep

    def sync(self, batch: ImportBatch, *, dry_run: bool = False) -> SyncReport:
        """Write ``batch`` (which must be open) into RushDB, then move the sync state."""
        scope = self.importer.scope_for(batch.did).fields
        if batch.read in FULL_READS:
            self._retrying(lambda: self._reconcile(batch, scope))
        report = SyncReport(batch.did, batch.rev, batch.read, dry_run, dict(batch.summary), list(batch.failures))
        if dry_run:
            return report
        records = batch.summary
        report.counts = {"created": 0, "merged": 0, "updated": 0, "unchanged": records["unchanged"], "retired": 0,
                         "deleted": records["deleted"], "failed": records["failed"]}
        if batch.read == "unchanged":
            self._repair(report, scope, leftovers=False)
            return report
        if self.embedder is not None:
            self._retrying(lambda: ensure_indexes(self.store, self.embedder))
        self.importer.begin(batch)
        total = sum(records[name] for name in ("created", "updated", "deleted"))
        done, written = 0, _Written()
        for chunk in _chunks(batch.changes(), lambda: self.batch_size):  # a 408 makes the rest smaller
            for part in self._sized(chunk, lambda part: self._write(part, batch.rev, scope, report, written)):
                done += len(part)
                if self.on_progress:
                    self.on_progress(done, total)
        self._link(written, scope)
        self._repair(report, scope)
        self.importer.commit(batch)
        return report

    def _repair(self, report: SyncReport, scope: dict, *, leftovers: bool = True) -> None:
        """Rows earlier versions or a killed run left (``sync_repair``), counted when there were some."""
        if repaired := repair(self.store, scope, self._retrying, leftovers=leftovers):
            report.written["repaired"] = repaired

    def _link(self, written: _Written, scope: dict) -> None:
        """Each memory written, but not with its mirror, to its record's mirror (``RECORDED_AS``),
        each mirror of a fact record to the facts it supersedes (``SUPERSEDES``): after every
        chunk is in (a record can supersede a fact a later chunk writes), in key-joined calls of
        ``LINK_CHUNK`` ids."""
        where = rows.scope_where(scope)
        for label, ids in written.memories.items():
            for start in range(0, len(ids), LINK_CHUNK):
                part = ids[start:start + LINK_CHUNK]
                self._retrying(lambda label=label, part=part: self.store.link(
                    {"label": label, "key": rows.MERGE_KEY[label], "where": {**where, rows.MERGE_KEY[label]: {"$in": part}}},
                    {"label": rows.MIRROR, "key": "memoryId", "where": {**where, "deleted": False, "memoryId": {"$in": part}}},
                    rows.RECORDED_AS,
                ))
        for start in range(0, len(written.superseding), LINK_CHUNK):
            part = written.superseding[start:start + LINK_CHUNK]
            self._retrying(lambda part=part: self.store.link(
                {"label": rows.MIRROR, "key": rows.LINKS, "where": {"mirrorKey": {"$in": part}}},
                {"label": rows.FACT, "key": "factId", "where": where},
                rows.SUPERSEDES,
            ))

    def _reconcile(self, batch: ImportBatch, scope: dict) -> None:
        """A full read sees every record of the repository: a live mirror, written at an earlier
        rev, of a record it does not hold is a deletion this state never saw (a new machine, a
        new key or URL for the project, a sync state lost) and is added to ``batch``'s."""
        present = set(batch.records) | {problem.uri for problem in batch.failures} | set(batch.deleted)
        where = {**rows.scope_where(scope), "did": batch.did, "deleted": False}
        for mirror in self.store.find(rows.MIRROR, where, order_by="mirrorKey"):
            if mirror["uri"] not in present and str(mirror.get("rev", "")) < batch.rev:
                batch.deleted.append(mirror["uri"])
                present.add(mirror["uri"])

    def _retrying(self, step):
        return retrying(step, on_retry=self.on_retry, sleep=self.sleep)

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

    def _write(self, chunk: list[Change], rev: str, scope: dict, report: SyncReport, written: _Written) -> None:
        """Write one chunk, and note in ``written`` what to link once every chunk is in."""
        lines = [change.to_json() for change in chunk]
        for note in (f"{line['record']['uri']}: {note} (only links within one repository are followed)"
                     for line in lines if line["op"] != "delete"
                     for note in line.get("links", {}).get("notes", []) if "in another repository" in note):
            if note not in report.notes:  # once, however often a retry or a smaller chunk writes it again
                report.notes.append(note)
        keys = {change.uri: rows.mirror_key(change.uri, scope) for change in chunk}
        held_mirrors = self.store.find_by(rows.MIRROR, "mirrorKey", keys.values())
        held = self._held_memories([line for line in lines if line["op"] != "delete"], held_mirrors.values(), scope)
        plan = self._plan(lines, keys, held_mirrors, held, rev, scope)
        self._unlink(plan, scope)  # before the rows change: a re-run after a kill finds them as they were
        paired = plan.paired()
        with self.store.transaction() as tx:
            for label in (rows.FACT, rows.EPISODE):
                merge_by = rows.MERGE_BY[label]
                self.store.create(label, [{**plan.create[label][key], rows.MIRROR: mirror}
                                          for key, mirror in paired[label].items()], tx=tx, relationship=rows.RECORDED_AS)
                self.store.create(label, [row for key, row in plan.create[label].items() if key not in paired[label]],
                                  tx=tx)
                self.store.upsert(label, plan.append[label], merge_by, tx=tx)
                self.store.upsert(label, plan.rewrite[label], merge_by, rewrite=True, tx=tx)
                self.store.upsert(label, plan.deactivate[label], merge_by, tx=tx)
            nested = {id(mirror) for part in paired.values() for mirror in part.values()}
            self.store.create(rows.MIRROR, [mirror for mirror in plan.new_mirrors if id(mirror) not in nested], tx=tx)
            # A mirror row always has every property, so merging it is writing it whole.
            self.store.upsert(rows.MIRROR, plan.mirrors + plan.gone, rows.MERGE_BY[rows.MIRROR], tx=tx)
        # After the commit (the server does not delete inside a transaction of ours): the mirrors
        # hold the episodes' events now; a run killed before this deletes them (``_repair``).
        self.store.delete(rows.EPISODE, {**rows.scope_where(scope), "eventId": {"$in": sorted(plan.drop)}})
        for label in (rows.FACT, rows.EPISODE):  # a memory written with its only mirror is linked already
            written.memories[label] += [row[rows.MERGE_KEY[label]] for row in plan.memories(label)
                                        if row[rows.MERGE_KEY[label]] not in paired[label]]
        written.superseding += [row["mirrorKey"] for row in plan.new_mirrors + plan.mirrors if row.get(rows.LINKS)]
        report.written["memories"] += sum(len(plan.memories(label)) for label in (rows.FACT, rows.EPISODE))
        report.written["mirrors"] += len(plan.new_mirrors) + len(plan.mirrors) + len(plan.gone)
        report.written["deactivated"] += sum(len(plan.deactivate[lb]) for lb in plan.deactivate) + len(plan.drop)
        for name, number in plan.tally.items():
            report.counts[name] += number
        report.counts["created"] += sum(len(plan.create[label]) for label in plan.create)
        report.counts["retired"] += len({row[rows.MERGE_KEY[label]] for label, part in plan.deactivate.items()
                                         for row in part}) + len(plan.drop)

    def _held_memories(self, lines: list[dict], mirrors: Iterable[dict], scope: dict) -> dict[str, dict[str, dict]]:
        """label → id → the memory RushDB holds, for the chunk's new memories and those its
        records made before."""
        wanted: dict[str, set[str]] = {rows.FACT: set(), rows.EPISODE: set()}
        for line in lines:
            wanted[rows.label_of(line["event"])].add(rows.memory_key(line["event"]))
            if (named := rows.exported_from(RecordView.from_json(line["record"]))) is not None:
                wanted[rows.label_of(line["event"])].add(named)  # the memory it was exported from
        for mirror in mirrors:
            if mirror.get("memoryLabel") in wanted and mirror.get("memoryId"):
                wanted[mirror["memoryLabel"]].add(mirror["memoryId"])
        where = rows.scope_where(scope)
        return {label: self.store.find_by(label, rows.MERGE_KEY[label], ids, where) for label, ids in wanted.items()}

    def _plan(self, lines: list[dict], keys: dict[str, str], held_mirrors: dict[str, dict],
              held: dict[str, dict[str, dict]], rev: str, scope: dict) -> _Chunk:
        plan, synced_at = _Chunk(), now()
        upserts = [line for line in lines if line["op"] != "delete"]
        new_ids = {rows.memory_key(line["event"]) for line in upserts}
        vectors = self._vectors([line["event"] for line in upserts])
        for line, vector in zip(upserts, vectors):
            event, label = line["event"], rows.label_of(line["event"])
            view = RecordView.from_json(line["record"])
            before = held[label].get(rows.memory_key(event))
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
                (plan.rewrite if rewrite else plan.append)[label].append(row)
                if keys[view.uri] not in held_mirrors:  # a row another writer made (an agent runtime)
                    plan.tally["merged"] += 1
                else:
                    plan.tally["updated" if rows.changes(before, row) or rewrite else "unchanged"] += 1
                if label == rows.FACT and before.get(rows.LINKS):  # an earlier version's links, from the fact
                    plan.legacy_links.add(row["factId"])
            links = line.get("links", {}).get("supersedesFactIds") if label == rows.FACT else None
            previous = held_mirrors.get(keys[view.uri])
            mirror = rows.mirror_row(view, rev=rev, synced_at=synced_at, scope=scope, memory=event, links=links,
                                     previous=previous)
            (plan.new_mirrors if previous is None else plan.mirrors).append(mirror)
            if previous is not None:
                dropped = set(previous.get(rows.LINKS) or []) - set(mirror[rows.LINKS])
                if dropped:
                    plan.unsupersede.add(mirror["mirrorKey"])
                    plan.unsuperseded |= dropped
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
                    plan.unsupersede.add(previous["mirrorKey"])
                    plan.unsuperseded |= set(previous[rows.LINKS])
                self._retire(plan, previous, gone, held, new_ids)
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
        plan.unrecord[label].add(memory_id)
        plan.unrecord_mirrors.add(previous["mirrorKey"])
        if memory.get(rows.LINKS):  # an earlier version's links, from the fact itself
            plan.legacy_links.add(memory_id)

    def _unlink(self, plan: _Chunk, scope: dict) -> None:
        """The chunk's relationships to remove, one call per kind and label. Each call removes
        those between any of its sources and any of its targets: a link that must stay between
        two of them (a record that still supersedes another's dropped target) is made again by
        ``_link``, which links every mirror the sync writes."""
        where = rows.scope_where(scope)
        for label, ids in plan.unrecord.items():
            if ids and label == rows.FACT:  # an episode's row goes, and its relationships with it
                self.store.unlink({"label": label, "where": {**where, rows.MERGE_KEY[label]: {"$in": sorted(ids)}}},
                                  {"label": rows.MIRROR, "where": {"mirrorKey": {"$in": sorted(plan.unrecord_mirrors)}}},
                                  rows.RECORDED_AS)
        if plan.unsupersede:
            self.store.unlink({"label": rows.MIRROR, "where": {"mirrorKey": {"$in": sorted(plan.unsupersede)}}},
                              {"label": rows.FACT, "where": {**where, "factId": {"$in": sorted(plan.unsuperseded)}}},
                              rows.SUPERSEDES)
        if plan.legacy_links:  # earlier versions linked fact to fact; the mirror links now
            self.store.unlink({"label": rows.FACT, "where": {**where, "factId": {"$in": sorted(plan.legacy_links)}}},
                              {"label": rows.FACT, "where": where}, rows.SUPERSEDES)

    def _vectors(self, events: list[dict]) -> list[list[float] | None]:
        if self.embedder is None:
            return [None] * len(events)
        texts = [event[rows.TEXT_PROPERTY[rows.label_of(event)]] for event in events]
        return list(self.embedder.embed(texts)) if texts else []


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
