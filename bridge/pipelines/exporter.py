"""Export: AgentMemoryEvents → ``dev.bastienrobert.memory.record`` records in a repository.

The run, each step safe to repeat:

1. map every input with the pure mappers (refusals and failures are reported, never fatal);
2. read what the repository holds (``listRecords``) and plan, per record: create, update, or
   skip when the repository already has the same CID;
3. send the plan with ``applyWrites`` in batches (≤ 200 writes, < 1 MB), each guarded by
   ``swapCommit``; after each confirmed batch, record it in the local ledger (``State``).

A few memories the ledger has never seen (``FAST_CREATES``: an agent exporting after a turn) skip
step 2: they are created in one ``applyWrites`` with no ``swapCommit``, since the server refuses a
create wherever a record already is, and the whole batch with it. Anything but success (such a
record, a lost response, a 429) falls back to the run above, which reads and plans.

Any surprise (another writer: ``InvalidSwap``; a lost response; a reset connection) leads back to
step 2: the plan is rebuilt from what the repository holds, so a write that did land is never
sent again and a create can never make a second record. A 429 waits for the reset when
``max_wait`` allows, otherwise stops with ``ExportPaused`` saying when to resume; re-running
the same command resumes. Transient failures (refused or reset connections, 5xx), while reading
or writing, are retried with a growing back-off (0.2 s doubling to 5 s, ``MAX_TRANSIENT`` in a
row, about 20 s: a PDS restart fits); any confirmed batch resets the count.

Tricky bits:
- Record keys are derived from the memory (``record_key``). On the rare collision with a
  different record at that key, the next ``attempt`` is used: deterministic for a repository.
- A record the ledger says pdsmem wrote, and the repository no longer holds, was deleted by the
  person (or an app of theirs): it is not created again unless ``recreate_deleted``, nor is its
  memory at another key (an agent that writes the same memory again, later, gives it a new
  ``createdAt`` and so a new key), nor a memory of the same words in the same scope (an agent
  that learns them again in another session gives them a new id: ``words_of``), nor a fact that
  replaces it at any remove (an agent's edit: ``_deleted_prior``, up to a version the person kept);
  reported as a conflict and noted in the state (``status`` lists it), then, on every later run, as
  a conflict already ``known`` (no failure: a scheduled export goes on). An edit's words are new:
  it is named as a failure on the first run that finds it (noted in the state, ``export_withheld``),
  known on later runs, and only ``--overwrite-conflict`` with its at-uri publishes it
  (``--recreate-deleted`` brings back the deleted records, not the edits).
- An inactive fact that no memory of the source supersedes (an agent forgot it, or a sync
  deactivated it because the person deleted its record, perhaps in another repository) is not
  created: a record has no ``active``, so it would read as a current memory, and a sync would
  make the fact active again (docs/mapping.md, "Supersession"). A record it already has is
  updated as any other.
- pdsmem updates a record only when it can tell the repository still holds its own unedited
  write (the extension's proof holds, or the ledger has that CID) or the version the item was
  read from; a record edited on the PDS since is reported as a conflict and left alone, unless
  its at-uri is in ``overwrite`` (the user named it: ``export --overwrite-conflict``).
- ``prune`` deletes only records the ledger says pdsmem wrote, still unedited, of a memory of the
  source's scope (the agent and profile of its memories) that is no longer in the source. A
  source with no memories, or with an item that could not be read, prunes nothing; a prune of
  more than ``PRUNE_SHARE`` of the scope's records needs ``confirm_prune`` to say yes (docs/mapping.md,
  "Prune").
- An item whose record is in another repository (``export --from rushdb`` into another account)
  is a copy of that record here, under the same record key (``to_record.copy_uri``), its
  ``supersedes`` moved to the copies of this run; never an update of the record it copies
  (docs/mapping.md, "A copy into another repository").
- The run is listed in the state (``export_run``) from its start until it finishes, so that
  ``pdsmem status`` can show an export a rate limit paused, an error stopped or a kill ended.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pdsmem.bridge.pipelines.sources import SourceItem, UnreadableFile
from pdsmem.bridge.pipelines.state import ExportedRecord, State
from pdsmem.errors import ExportPaused, MappingError, PdsmemError, PrivacyRefused, RateLimited, TransientError  # noqa: F401 (ExportPaused: named here too)
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.records import RecordView, memory_id, record_key, written_unchanged
from pdsmem.mapping.syntax import AtUri, Datetime
from pdsmem.mapping.to_record import copy_uri, in_supersession_order, map_prepared, prepare_item

MAX_WRITES = 200
MAX_BODY_BYTES = 900_000  # the PDS takes 1 MB; leave room for the envelope
FAST_CREATES = 25  # new memories created without reading the repository first (``_create_directly``)
MAX_REPLANS = 20  # re-plans forced by another writer (InvalidSwap)
MAX_TRANSIENT = 8  # transient failures in a row before giving up
WRITE_POINTS = {"create": 3, "update": 2, "delete": 1}
PRUNE_SHARE = 0.10  # a prune deleting more than this share of its scope's records must be confirmed
# how a memory is tied to a record pdsmem wrote and the person deleted, as its conflict says it
_TIED = {"its record": "", "its words": ", a record of the same words,", "an edit": ", the record of a fact it replaces,"}


class ExportError(PdsmemError):
    """The export could not go on (the repository kept changing, or answered unexpectedly)."""


@dataclass
class Outcome:
    where: str
    status: str  # created | updated | unchanged | duplicate | inactive | refused | failed | conflict | deleted
    uri: str | None = None
    reason: str | None = None
    memory_id: str | None = None  # factId or eventId, when the item was read as a memory
    unreadable: bool = False  # a file of the source that could not be read at all: no memory is at fault
    known: bool = False  # a conflict an earlier run named already (a deletion it noted): no failure now

    @classmethod
    def of(cls, item: _Item, status: str, uri: str | None = None, reason: str | None = None) -> Outcome:
        """The outcome of ``item``, named by its place and its memory's id: never by its words,
        which may be the very secret the gate refused (docs/mapping.md, "Privacy")."""
        return cls(item.where, status, uri, reason, memory_id(item.event))


@dataclass
class ExportReport:
    did: str
    outcomes: list[Outcome] = field(default_factory=list)
    batches: int = 0
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)  # what the run chose not to do, and why
    prune: PrunePlan | None = None  # what a prune found to delete (None: no prune planned)
    prune_refused: bool = False  # a large prune was not confirmed: nothing was deleted

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def counts(self) -> dict[str, int]:
        names = ("created", "updated", "unchanged", "duplicate", "deleted", "inactive", "refused", "failed", "conflict")
        return {name: self.count(name) for name in names}

    @property
    def problems(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.status in ("refused", "failed", "conflict")]


@dataclass(frozen=True)
class PruneCandidate:
    """A record a prune would delete: pdsmem wrote it, nobody edited it, its memory is gone."""

    uri: str
    memory_id: str

    def describe(self) -> str:
        """``memory 1a2b3c4d5e6f…`` (its id; the uri is said beside it)"""
        return f"memory {self.memory_id}"


@dataclass(frozen=True)
class PrunePlan:
    """What a prune would delete, out of ``scope_records`` records pdsmem wrote for the scope."""

    candidates: list[PruneCandidate]
    scope_records: int

    @property
    def large(self) -> bool:
        """More than ``PRUNE_SHARE`` of the scope's records (and more than one): confirm first."""
        return len(self.candidates) > max(1, PRUNE_SHARE * self.scope_records)


@dataclass
class _Item:
    where: str
    event: dict
    source: RecordView | None
    attempt: int = 0
    view: RecordView | None = None
    template: RecordView | None = None  # the memory's record in another repository, copied here
    key_taken: bool = False  # a copy whose record key another memory of the run takes
    row: str | None = None  # the RushDB id of the memory's row, when read from RushDB


@dataclass
class _Write:
    op: str
    rkey: str
    item: _Item | None
    value: dict | None = None
    cid: str | None = None
    gone: PruneCandidate | None = None  # for a delete: what it removes

    def as_json(self) -> dict:
        body: dict[str, Any] = {"$type": f"com.atproto.repo.applyWrites#{self.op}", "collection": RECORD_NSID, "rkey": self.rkey}
        if self.value is not None:
            body["value"] = self.value
        return body


class Exporter:
    """Exports to the repository of ``session`` (a logged-in ``Session``)."""

    def __init__(
        self,
        session,
        state: State,
        *,
        publish_private: bool = False,
        include_transcript: bool = False,
        max_wait: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        on_progress: Callable[[int, int], None] | None = None,
        on_wait: Callable[[float], None] | None = None,
        confirm_prune: Callable[[PrunePlan], bool] | None = None,
        on_retry: Callable[[TransientError, float], None] | None = None,
        overwrite: Iterable[str] = (),
        recreate_deleted: bool = False,
    ) -> None:
        """``confirm_prune`` is asked before a large prune (``PrunePlan.large``); without it, or
        when it answers no, nothing is pruned and the report says why. ``on_retry`` is told each
        transient failure and the seconds until the next try. ``overwrite``: at-uris of records
        changed (or deleted) on the PDS that this run writes anyway, instead of a conflict."""
        self.session = session
        self.state = state
        self.did = session.did
        self.publish_private = publish_private
        self.include_transcript = include_transcript
        self.max_wait = max_wait
        self.sleep = sleep
        self.on_progress = on_progress
        self.on_wait = on_wait
        self.confirm_prune = confirm_prune
        self.on_retry = on_retry
        self.overwrite = frozenset(overwrite)
        self.recreate_deleted = recreate_deleted  # write again records pdsmem wrote and someone deleted
        self.deleted_on_pds: list[str] = []  # rkeys of such records the last plan left alone
        self.withheld_now: list[str] = []  # memory ids of the edits of such records it left alone
        self.withheld: set[str] = set()  # those earlier runs named (read by each plan)
        self._prune_answer: bool | None = None  # asked once per run, whatever the re-plans
        self._failures = 0  # transient failures in a row
        self._dry_run = False  # the run in progress writes nothing (its retries say so)
        self._wrote = False  # the run in progress has written to the repository (what a stop's hint says)
        self._run_name: str | None = None  # the source of the run in progress (see ``run``)

    # --- reading the repository -------------------------------------------------------------

    def holdings(self) -> dict[str, dict]:
        """rkey → {cid, value} of every memory record in the repository."""
        held: dict[str, dict] = {}
        cursor = None
        while True:
            page = self.session.query(
                "com.atproto.repo.listRecords",
                {"repo": self.did, "collection": RECORD_NSID, "limit": 100, "cursor": cursor},
            )
            for record in page.get("records", []):
                held[AtUri.parse(record["uri"]).rkey] = {"cid": record["cid"], "value": record["value"]}
            cursor = page.get("cursor")
            if not cursor or not page.get("records"):
                return held

    def head(self) -> str:
        return self.session.query("com.atproto.sync.getLatestCommit", {"did": self.did})["cid"]

    # --- planning ---------------------------------------------------------------------------

    def _prepare(self, items: Iterable[SourceItem], report: ExportReport) -> tuple[list[_Item], int]:
        """The source's memories, once each, and how many items could not be read as one.

        A repeat of an earlier item is reported, not sent: two writes to one record key would
        fail the whole batch.
        """
        prepared: dict[str, _Item] = {}  # memory id → its first item
        unread = 0
        for entry in items:
            try:
                if isinstance(entry.value, PdsmemError):
                    raise entry.value
                event, source = prepare_item(entry.value)
                template = None
                if source is not None and AtUri.parse(source.uri).authority != self.did:  # a copy: a new record here
                    template, source = source, None
            except PdsmemError as err:
                report.outcomes.append(Outcome(
                    entry.where, "failed", reason=err.detail(), unreadable=isinstance(err, UnreadableFile)))
                unread += 1
                continue
            first = prepared.setdefault(memory_id(event), _Item(entry.where, event, source, template=template,
                                                                row=entry.row))
            if first.event is event:
                continue
            kind = "factId" if event["eventType"] == "fact" else "eventId"
            repeat = _Item(entry.where, event, source)
            if first.event == event and first.source == source:
                report.outcomes.append(Outcome.of(repeat, "duplicate", reason=f"the same memory as {first.where}"))
            else:
                report.outcomes.append(Outcome.of(
                    repeat, "failed",
                    reason=f"has the {kind} of {first.where} ({memory_id(event)}) but other values; "
                    f"only {first.where} is exported",
                ))
        return list(prepared.values()), unread

    def _uri(self, rkey: str) -> str:
        return str(AtUri.build(self.did, RECORD_NSID, rkey))

    def _assign_keys(self, items: list[_Item], held: Mapping[str, dict]) -> dict[str, str]:
        """Choose each new memory's record key, probing past collisions; return factId → uri."""
        taken: dict[str, str] = {}  # rkey -> memory id, within this run
        known: dict[str, str] = {
            r.memory_id: self._uri(r.rkey) for r in self.state.exported(self.did).values()
        }
        for item in sorted(items, key=lambda i: memory_id(i.event)):
            mid = memory_id(item.event)
            if item.source is not None:
                known[mid] = item.source.uri
                continue
            if item.template is not None:  # a copy keeps its record's key
                rkey = _rkey(copy_uri(item.template.uri, self.did))
                item.key_taken = taken.setdefault(rkey, mid) != mid
                if item.key_taken:
                    known.pop(mid, None)
                else:
                    known[mid] = self._uri(rkey)
                continue
            created = item.event["validFrom" if item.event["eventType"] == "fact" else "observedAt"]
            try:
                Datetime.parse(created)
            except PdsmemError:
                continue  # mapping reports it
            while True:
                rkey = str(record_key(created, mid, item.attempt))
                other = held.get(rkey)
                other_id = _memory_in(other)
                if taken.get(rkey, mid) == mid and (other is None or other_id == mid):
                    break
                item.attempt += 1
            taken[rkey] = mid
            known[mid] = self._uri(rkey)
        return known

    def _came_from(self, event: Mapping) -> str | None:
        """The record key of the record of this repository an event was imported from, when the
        event says so: an event ``import`` made of a record another app wrote carries that
        record's at-uri as its ``sourceEventId`` (docs/mapping.md, "Record → event")."""
        said = event.get("sourceEventId")
        if not isinstance(said, str) or not said.startswith("at://"):
            return None
        try:
            uri = AtUri.parse(said)
        except PdsmemError:
            return None
        if uri.authority != self.did or str(uri.collection) != RECORD_NSID or uri.rkey is None:
            return None
        return str(uri.rkey)

    def _adopt_sources(self, items: list[_Item], held: Mapping[str, dict]) -> None:
        """An event with no record beside it whose own ``sourceEventId`` names a record of this
        repository is exported onto that record, as its import line would be: never a second
        record of one memory. A record two events claim is given to neither."""
        claims: dict[str, list[_Item]] = {}
        for item in items:
            if item.source is None and item.template is None and (rkey := self._came_from(item.event)) in held:
                claims.setdefault(rkey, []).append(item)
        for rkey, claimed in claims.items():
            if len(claimed) == 1:
                record = held[rkey]
                claimed[0].source = RecordView(self._uri(rkey), record["cid"], record["value"])

    def plan(self, items: list[_Item], held: Mapping[str, dict], report: ExportReport) -> list[_Write]:
        """The writes for ``items``: each fact after the fact it supersedes, and a fact that
        fails gives up its planned at-uri, so that no record points to one never written."""
        self._adopt_sources(items, held)
        known = self._assign_keys(items, held)
        moved = {item.template.uri: known[memory_id(item.event)] for item in items
                 if item.template is not None and memory_id(item.event) in known}  # copied: where to
        ledger = self.state.exported(self.did)
        self.withheld = self.state.withheld(self.did)
        # the memories pdsmem wrote whose records someone deleted since, by memory id: found once a plan
        gone = {mine.memory_id: mine.rkey for mine in ledger.values() if mine.rkey not in held}
        # and by their words in their scope: an agent that learns them again, in another session,
        # gives them a new id (the contract's id holds the turn they came from)
        gone.update({(mine.scope, mine.words): mine.rkey for mine in ledger.values()
                     if mine.rkey not in held and mine.words and mine.scope})
        live = {mine.memory_id for mine in ledger.values() if mine.rkey in held}  # its records still there
        superseded = _superseded_by_a_live_fact(items)
        replaces = {memory_id(item.event): item.event.get("supersedesFactId") for item in items}
        # the words of the source's forgotten facts (inactive, superseded by none): an agent that
        # learns them again, in another session, gives them a new id
        forgotten = {(_scope_of(item.event), words_of(item.event)) for item in items
                     if item.event.get("active") is False and memory_id(item.event) not in superseded}
        writes: list[_Write] = []
        for index in in_supersession_order([item.event for item in items]):
            item = items[index]
            try:
                if item.key_taken:
                    raise MappingError(
                        f"memory {memory_id(item.event)} comes from {item.template.uri}, whose record key another "
                        "memory of this run takes in this repository",
                        hint="export the two memories into different repositories",
                    )
                item.view = map_prepared(
                    item.event,
                    item.source,
                    self.did,
                    publish_private=self.publish_private,
                    include_transcript=self.include_transcript,
                    known_uris=known,
                    attempt=item.attempt,
                    template=item.template,
                    moved_uris=moved,
                )
            except PdsmemError as err:
                status = "refused" if isinstance(err, PrivacyRefused) else "failed"
                report.outcomes.append(Outcome.of(item, status, reason=str(err)))
                if item.source is None and _rkey(known.get(memory_id(item.event))) not in held:
                    known.pop(memory_id(item.event), None)  # its record does not exist: link nothing to it
                    if item.template is not None:
                        moved.pop(item.template.uri, None)
                continue
            write = self._decide(item, held, ledger, gone, live, replaces, superseded, forgotten, report)
            if write is not None:
                writes.append(write)
        return writes

    def _decide(self, item: _Item, held: Mapping[str, dict], ledger, gone: Mapping[Any, str], live: set[str],
                replaces: Mapping[str, Any], superseded: set, forgotten: set,
                report: ExportReport) -> _Write | None:
        view = item.view
        rkey = AtUri.parse(view.uri).rkey
        current = held.get(rkey)
        if current is not None and current["cid"] == view.cid:
            report.outcomes.append(Outcome.of(item, "unchanged", view.uri))
            return None
        if view.uri in self.overwrite:  # the user chose this memory over the PDS's version
            return _Write("create" if current is None else "update", rkey, item, view.value, view.cid)
        if item.source is not None:
            if current is None and rkey in ledger and not self.recreate_deleted:
                return self._deleted(item, rkey, ledger, tie="its record", report=report)
            if current is None:
                report.outcomes.append(Outcome.of(
                    item, "conflict", view.uri, "deleted on the PDS since it was read: the person's word, not "
                    "re-created (a sync of the repository takes the memory out of the source; to write it again, run "
                    f"the export again with --overwrite-conflict {view.uri})",
                ))
                return None
            if current["cid"] != item.source.cid:
                return self._conflict(item, report)
            return _Write("update", rkey, item, view.value, view.cid)
        if current is None:
            # pdsmem wrote it, or wrote this memory at another key (an agent wrote it again, later: a
            # new createdAt, so a new key), and someone deleted it since
            words = (_scope_of(item.event), words_of(item.event))
            tie, deleted = "its record", rkey if rkey in ledger else gone.get(memory_id(item.event))
            if deleted is None and (deleted := gone.get(words)) is not None:
                tie = "its words"
            if deleted is None and (deleted := _deleted_prior(item.event, replaces, gone, live)) is not None:
                tie = "an edit"  # of the memory the person deleted
            # an edit has words the person never saw: only --overwrite-conflict publishes it
            if deleted is not None and (tie == "an edit" or not self.recreate_deleted):
                return self._deleted(item, deleted, ledger, tie=tie, report=report)
            if item.event.get("eventType") == "fact" and (
                    item.event.get("active") is False and memory_id(item.event) not in superseded or words in forgotten):
                what = ("an inactive fact that no memory of the source supersedes" if item.event.get("active") is False
                        else "the words of an inactive fact that no memory of the source supersedes")
                report.outcomes.append(Outcome.of(
                    item, "inactive", view.uri, f"{what} (forgotten, or its record deleted by the person, perhaps in "
                    "another repository): not created, as a record would show it as current (to write it all the "
                    f"same, run the export again with --overwrite-conflict {view.uri})"))
                return None
            return _Write("create", rkey, item, view.value, view.cid)
        ours = ledger.get(rkey)
        if (ours and ours.cid == current["cid"]) or written_unchanged(view.uri, current["value"], item.event):
            return _Write("update", rkey, item, view.value, view.cid)
        return self._conflict(item, report)

    def _deleted(self, item: _Item, deleted: str, ledger, *, tie: str, report: ExportReport) -> None:
        """The conflict of a memory whose record (at key ``deleted``), or a record of its words or
        of a fact it replaces (``tie``, a key of ``_TIED``), pdsmem wrote and the person deleted: noted in
        the state; once a run has noted the deletion, known (a scheduled export does not fail on it
        every run after)."""
        self.deleted_on_pds.append(deleted)
        written = self._uri(deleted) + _TIED[tie]  # (the record, at the key it was written at)
        edit = tie == "an edit"
        # an edit has words the person never saw: --recreate-deleted would bring back the deleted record too
        remedy = "" if edit else ", or --recreate-deleted for every such record"
        outcome = Outcome.of(
            item, "conflict", item.view.uri, f"{written} was deleted on the PDS after pdsmem wrote it: the "
            f"person's word, not re-created (to write it all the same, run the export again with --overwrite-conflict "
            f"{item.view.uri}{remedy})")
        # an edit is the agent's news, not the deletion an earlier run noted: known once a run has named it
        if edit:
            outcome.known = memory_id(item.event) in self.withheld
            self.withheld_now.append(memory_id(item.event))
        else:
            outcome.known = ledger[deleted].deleted_at is not None
        report.outcomes.append(outcome)
        return None

    @staticmethod
    def _conflict(item: _Item, report: ExportReport) -> None:
        report.outcomes.append(
            Outcome.of(
                item,
                "conflict",
                item.view.uri,
                "the record was changed on the PDS since pdsmem wrote or read it; left alone (to keep the "
                "PDS's version, import or sync it and change or remove the memory in the source to match; "
                f"to replace it with this memory, run the export again with --overwrite-conflict {item.view.uri})",
            )
        )
        return None

    def plan_prune(self, items: list[_Item], held: Mapping[str, dict]) -> tuple[list[_Write], PrunePlan]:
        """Deletions of records pdsmem wrote for a memory of the source's scope (its items'
        agents and profiles) that is gone from the source, unedited since. A record an item of
        the source came from stays, whatever its id now (an edited fact's id follows its text)."""
        scopes = {_scope_of(i.event) for i in items}
        wanted = {memory_id(i.event) for i in items}
        kept = {_rkey(i.source.uri) for i in items if i.source is not None}
        kept |= {_rkey(i.view.uri) for i in items if i.view is not None}
        in_scope = [mine for mine in self.state.exported(self.did).values() if mine.scope in scopes]
        deletes, candidates = [], []
        for mine in in_scope:
            current = held.get(mine.rkey)
            if mine.rkey in kept or mine.memory_id in wanted:
                continue
            if current is not None and current["cid"] == mine.cid:
                gone = PruneCandidate(self._uri(mine.rkey), mine.memory_id)
                deletes.append(_Write("delete", mine.rkey, None, gone=gone))
                candidates.append(gone)
        return deletes, PrunePlan(candidates, len(in_scope))

    def _prune(self, items: list[_Item], held: Mapping[str, dict], report: ExportReport) -> list[_Write]:
        """The deletions this run makes: none when the prune is large and not confirmed."""
        deletes, plan = self.plan_prune(items, held)
        report.prune = plan
        if not plan.large:
            return deletes
        if self._prune_answer is None:
            self._prune_answer = bool(self.confirm_prune and self.confirm_prune(plan))
        if self._prune_answer:
            return deletes
        if not report.prune_refused:  # once, whatever the re-plans
            report.prune_refused = True
            scopes = ", ".join(sorted({f"{agent}/{profile}" for agent, profile in {_scope_of(i.event) for i in items}}))
            report.notes.append(
                f"nothing was pruned: the prune would delete {len(deletes)} of the {plan.scope_records} records "
                f"pdsmem wrote for {scopes} (agent/profile), more than {PRUNE_SHARE:.0%}, and that was not confirmed"
            )
        return []

    # --- writing ----------------------------------------------------------------------------

    def run(
        self,
        source: Iterable[SourceItem],
        *,
        dry_run: bool = False,
        prune: bool = False,
        source_name: str = "memories",
        source_notes: Iterable[str] = (),
    ) -> ExportReport:
        """Export ``source``: plan against the repository, then write what differs.

        Unless ``dry_run``, the run is listed in the state under ``source_name`` until it
        finishes (``State.unfinished_exports``), with why it stopped if it does not.
        ``source_notes``, what the source said about itself (why it is empty, say), head the
        report's notes.
        """
        if dry_run:
            return self._run(source, dry_run=True, prune=prune, notes=source_notes)
        self._run_name = source_name
        self.state.start_export(self.did, source_name)
        try:
            report = self._run(source, dry_run=False, prune=prune, notes=source_notes)
        except ExportPaused as err:
            self.state.stop_export(self.did, source_name, err.message, paused_until=err.reset_at)
            raise
        except PdsmemError as err:
            self.state.stop_export(self.did, source_name, err.message)
            raise
        except BaseException as err:  # Ctrl-C, or a bug: say so, then let it through
            why = "interrupted" if isinstance(err, KeyboardInterrupt) else f"{type(err).__name__}: {err}"
            self.state.stop_export(self.did, source_name, why)
            raise
        finally:
            self._run_name = None
        self.state.finish_export(self.did, source_name)
        return report

    def _run(self, source: Iterable[SourceItem], *, dry_run: bool, prune: bool, notes: Iterable[str]) -> ExportReport:
        report = ExportReport(self.did, dry_run=dry_run)
        self._dry_run = dry_run
        self._wrote = False
        items, unread = self._prepare(source, report)
        source_notes = list(notes)  # read after the source: a source notes what it found as it is read
        report.notes += source_notes
        settled = len(report.outcomes)
        if prune and unread:
            prune = False
            report.notes.append(
                f"nothing was pruned: {unread} item{'' if unread == 1 else 's'} of the source could not be "
                "read, and their records must not be taken for memories gone from it (fix them, then "
                "run the export with --prune again)"
            )
        elif prune and not items:
            prune = False
            report.notes.append(
                "nothing was pruned: the source holds no memories, and an empty source never deletes "
                "anything (a prune deletes only the records of memories of the source's agent and "
                "profile that are gone from it)"
            )
        elif not items and not report.outcomes and not source_notes:  # (a source's note says why)
            report.notes.append("the source holds no memories: nothing was exported")
        if not items and not prune:  # nothing to write or delete: the repository is not even read
            return report
        self._failures = 0  # (the direct create's transient failure counts toward the run's)
        if not dry_run and not prune and self._create_directly(items, report):
            return report
        del report.outcomes[settled:]
        replans = 0
        while replans < MAX_REPLANS:
            del report.outcomes[settled:]
            head, held = self._read()
            self.deleted_on_pds, self.withheld_now = [], []
            writes = self.plan(items, held, report)
            if self.deleted_on_pds and not dry_run:
                self.state.note_deleted_on_pds(self.did, self.deleted_on_pds)
            if self.withheld_now and not dry_run:
                self.state.note_withheld(self.did, self.withheld_now)
            if prune:
                writes += self._prune(items, held, report)
            if dry_run:  # writes nothing: not to the PDS, nor to the ledger
                report.outcomes += [_planned_outcome(w, self._uri(w.rkey)) for w in writes]
                return report
            self._adopt_unrecorded(items, held)
            try:
                self._send_all(writes, head, report)
                return report
            except _Replan as replan:
                replans += replan.counted
        raise ExportError(
            f"the repository {self.did} kept changing during the export ({MAX_REPLANS} re-plans)",
            hint="stop other writers to this repository and run the export again",
        )

    def _create_directly(self, items: list[_Item], report: ExportReport) -> bool:
        """Create a few memories the ledger has never seen in one ``applyWrites``, without reading
        the repository first; whether it did. Never an update, a copy or a delete, and never more
        than one batch: the server's refusal of a create where a record is (another machine, a
        lost ledger, someone's record at the derived key) undoes the batch, and the caller's run
        then reads the repository and plans."""
        known = {record.memory_id for record in self.state.exported(self.did).values()}
        if len(items) > FAST_CREATES or any(item.source is not None or item.template is not None
                                            or memory_id(item.event) in known or self._came_from(item.event)
                                            for item in items):
            return False
        writes = self.plan(items, {}, report)
        batches = list(_batches(writes))
        if len(batches) != 1 or any(write.op != "create" for write in writes):
            return False
        try:
            response = self.session.procedure("com.atproto.repo.applyWrites",
                                              {"repo": self.did, "writes": [write.as_json() for write in writes]})
        except RateLimited as err:
            self._wait_for(err)  # as any write: wait when allowed, else stop saying when to resume
            return False
        except TransientError as err:
            self._back_off(err)  # it may have landed: the run reads the repository and sees
            return False
        except PdsmemError:
            return False  # a record where one was to be created: the run reads and plans
        self._record(writes, response, report)
        report.batches += 1
        self._progress(len(writes), len(writes))
        return True

    def _adopt_unrecorded(self, items: list[_Item], held: Mapping[str, dict]) -> None:
        """Ledger entries for our writes that landed but were not recorded (a crash or a lost
        answer in between): a create the ledger lacks, or an update it has at the older CID; and
        the scope of a record the ledger has without one (written before it kept scopes)."""
        ledger = self.state.exported(self.did)
        missing = []
        for item in items:
            if item.view is None or item.source is not None:
                continue
            rkey = AtUri.parse(item.view.uri).rkey
            current, mine = held.get(rkey), ledger.get(rkey)
            scope = _scope_of(item.event)
            if current and current["cid"] == item.view.cid and (
                mine is None or mine.cid != current["cid"] or mine.scope != scope
            ):
                missing.append(ExportedRecord(rkey, item.view.cid, memory_id(item.event), scope,
                                              words=words_of(item.event), row=item.row))
        if missing:
            self.state.record_writes(self.did, missing)

    def _read(self) -> tuple[str, dict[str, dict]]:
        """The head commit, then the holdings (a write in between makes swapCommit fail)."""
        while True:
            try:
                return self.head(), self.holdings()
            except RateLimited as err:
                self._wait_for(err)
            except TransientError as err:
                self._back_off(err)

    def _send_all(self, writes: list[_Write], head: str, report: ExportReport) -> None:
        """Send every write; raises ``_Replan`` when the plan must be rebuilt."""
        total, done = len(writes), 0
        self._progress(done, total)
        for batch in _batches(writes):
            response = self._apply(batch, head)
            self._failures = 0
            head = response["commit"]["cid"]
            self._record(batch, response, report)
            report.batches += 1
            done += len(batch)
            self._progress(done, total)

    def _progress(self, done: int, total: int) -> None:
        if self._run_name is not None:
            self.state.export_progress(self.did, self._run_name, done, total)
        if self.on_progress and done:  # told after each confirmed batch
            self.on_progress(done, total)

    def _apply(self, batch: list[_Write], head: str) -> dict:
        body = {"repo": self.did, "writes": [w.as_json() for w in batch], "swapCommit": head}
        while True:
            try:
                return self.session.procedure("com.atproto.repo.applyWrites", body)
            except RateLimited as err:
                self._wait_for(err)  # a 429 applied nothing: the same batch goes again
            except TransientError as err:
                # A lost response may have landed: rebuild the plan from the repository.
                self._back_off(err)
                raise _Replan(counted=False) from err
            except PdsmemError as err:
                if getattr(err, "error", None) in ("InvalidSwap",):
                    raise _Replan(counted=True) from err
                raise

    def _back_off(self, err: TransientError) -> None:
        """Wait before retrying after a transient failure; re-raise ``err`` after too many."""
        self._failures += 1
        if self._failures > MAX_TRANSIENT:
            err.message += f" (tried {MAX_TRANSIENT + 1} times)"
            resume = ("a dry run writes nothing: run the same command again when the PDS answers" if self._dry_run
                      else self._resume_hint("run the same command again to resume", "when the PDS answers"))
            err.hint = f"{err.hint}; {resume}" if err.hint else resume
            raise err
        delay = min(0.1 * 2**self._failures, 5.0)
        if self.on_retry:
            self.on_retry(err, delay)
        self.sleep(delay)

    def _wait_for(self, err: RateLimited) -> None:
        now = time.time()
        wait = (err.reset_at - now) if err.reset_at else None
        if wait is not None and wait <= self.max_wait:
            if self.on_wait:
                self.on_wait(max(wait, 0))
            self.sleep(max(wait, 0) + 0.5)
            return
        if wait is None and self.max_wait > 0:
            backoff = min(self.max_wait, 60.0)
            if self.on_wait:
                self.on_wait(backoff)
            self.sleep(backoff)
            return
        when = (
            time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(err.reset_at))
            if err.reset_at
            else "a few minutes from now (the PDS did not say when)"
        )
        raise ExportPaused(
            f"the PDS rate-limited the export of {self.did}; its limit resets at {when}",
            reset_at=err.reset_at,
            hint=self._resume_hint("run the same command again after that time", "after that time")
            + ", or pass --max-wait SECONDS to wait for the reset",
        ) from err

    def _record(self, batch: list[_Write], response: dict, report: ExportReport) -> None:
        results = response.get("results") or []
        rev = (response.get("commit") or {}).get("rev")  # a sync that reads a later rev without the record knows it deleted
        written, deleted = [], []
        for write, result in zip(batch, results):
            uri = self._uri(write.rkey)
            if write.op == "delete":
                deleted.append(write.rkey)
                report.outcomes.append(
                    Outcome(f"pruned {write.rkey}", "deleted", uri, write.gone.describe(), write.gone.memory_id)
                )
                continue
            if result.get("cid") != write.cid:
                raise ExportError(
                    f"the PDS stored {uri} with CID {result.get('cid')}, but pdsmem computed {write.cid}",
                    hint="this is a bug in pdsmem's encoding; please report it with the memory",
                )
            written.append(ExportedRecord(write.rkey, write.cid, memory_id(write.item.event), _scope_of(write.item.event),
                                          rev if isinstance(rev, str) else None, words=words_of(write.item.event),
                                          row=write.item.row))
            report.outcomes.append(Outcome.of(write.item, "created" if write.op == "create" else "updated", uri))
        self.state.record_writes(self.did, written, deleted)
        self._wrote = self._wrote or bool(written or deleted)

    def _resume_hint(self, resume: str, when: str) -> str:
        """What a stopped run tells: that what it wrote is recorded, or that it wrote nothing yet."""
        if self._wrote:
            return f"everything written so far is recorded: {resume}"
        return f"nothing was written: run the same command again {when}"


class _Replan(Exception):
    """Internal: the plan must be rebuilt from the repository.

    ``counted``: forced by another writer (counts toward ``MAX_REPLANS``), not by a transient
    failure (those count toward ``MAX_TRANSIENT``).
    """

    def __init__(self, *, counted: bool) -> None:
        super().__init__()
        self.counted = counted


def _rkey(uri: str | None) -> str | None:
    """The record key of an at-uri; None for none, or for a uri that is not one (a bad item)."""
    try:
        return AtUri.parse(uri).rkey if uri is not None else None
    except PdsmemError:
        return None


def _deleted_prior(event: Mapping, replaces: Mapping[str, Any], gone: Mapping[Any, str],
                   live: Collection[str]) -> str | None:
    """The key of a record the person deleted of a fact ``event`` replaces, at any remove (its
    ``supersedesFactId``, the one that fact supersedes, …, as ``replaces`` maps them), or None:
    an agent's edit of a memory is a new fact that supersedes it, and would publish it again.
    The walk stops at a fact whose record is still in the repository (``live``): the person kept
    that version, and deleting only an older one is no word on its edits."""
    prior, seen = event.get("supersedesFactId"), set()
    while isinstance(prior, str) and prior not in seen:
        if prior in gone:
            return gone[prior]
        if prior in live:
            return None
        seen.add(prior)
        prior = replaces.get(prior)
    return None


def _superseded_by_a_live_fact(items: list[_Item]) -> set[str]:
    """The ids of the facts that a fact of ``items`` supersedes, that one active, or itself so
    superseded: history behind a current memory. A fact superseded only by forgotten ones (all
    inactive) is forgotten too: written, it would read as current."""
    prior = {memory_id(item.event): item.event.get("supersedesFactId") for item in items}
    found: set[str] = set()
    todo = [memory_id(item.event) for item in items if item.event.get("active") is not False]
    while todo:
        before = prior.get(todo.pop())
        if before and before not in found:
            found.add(before)
            todo.append(before)
    return found


def words_of(event: Mapping) -> str:
    """A hash of a memory's words (a fact's kind and text, an episode's summary), in lower case
    and with their spaces made one: what export knows a memory the person deleted by, when an agent
    writes it again with a new id. The state keeps the hash, never the words."""
    words = [event.get("kind"), event.get("text")] if event.get("eventType") == "fact" else [event.get("summary")]
    plain = [" ".join(str(part).casefold().split()) for part in words]
    return hashlib.sha256(json.dumps([event.get("eventType"), *plain]).encode()).hexdigest()


def _scope_of(event: Mapping) -> tuple[str, str]:
    """The scope a prune works in: the memory's agent and profile."""
    return event["agentId"], event["profileId"]


def _memory_in(held: dict | None) -> str | None:
    if held is None:
        return None
    ext = held["value"].get("dev.pdsmem.agentMemory")
    return ext.get("id") if isinstance(ext, dict) else None


def _planned_outcome(write: _Write, uri: str) -> Outcome:
    status = {"create": "created", "update": "updated", "delete": "deleted"}[write.op]
    if write.gone is not None:
        return Outcome(f"pruned {write.rkey}", status, uri, f"dry run: {write.gone.describe()}", write.gone.memory_id)
    return Outcome.of(write.item, status, uri, "dry run")


def _batches(writes: list[_Write]) -> Iterable[list[_Write]]:
    batch: list[_Write] = []
    size = 0
    for write in writes:
        cost = len(json.dumps(write.as_json(), ensure_ascii=False).encode()) + 1
        if batch and (len(batch) == MAX_WRITES or size + cost > MAX_BODY_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(write)
        size += cost
    if batch:
        yield batch
