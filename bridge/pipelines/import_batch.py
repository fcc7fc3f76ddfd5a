"""What one import found in a verified repository, read in two passes so that memory stays small.

Scope: ``ImportBatch.scan`` walks a verified repository's memory records and sorts each one
(unchanged since the last import, created, updated, failed, or deleted); ``ImportBatch.changes``
then yields the created, updated and deleted ones as JSON lines, in order. The importer
(``importer.Importer``) picks the source, hands the verified repository over, and delivers.

Tricky bits:
- Memory holds small per-record facts, never the records. The repository's blocks wait in a
  temporary file (``car.BlockStore``). The first pass maps each changed record, spools its JSON
  line to a second temporary file, and keeps its uri, CID, fact id and ``supersedes`` links.
  Then every supersession inside the batch is known: the superseded fact turns inactive and the
  superseding one gets ``supersedesFactIds``, exactly as ``from_records`` does for a batch held
  in memory. The second pass copies the spooled lines, mapping again from the verified blocks
  only the records such a supersession touched. So a batch holds both files until closed.
- Supersession across imports: the state remembers, per record, the fact it was imported as and
  the uris it supersedes (``RememberedFact``). A record superseding a fact imported before gets
  that fact's id in ``supersedesFactIds``. A fact whose ``active`` changes because a link to it
  appeared or went away (its superseding record was created, edited or deleted) is written again
  as an update, although its record did not change: applied in order, the lines always give what
  a full import of the repository gives. A record edited into another fact, or deleted, names the
  fact it made before (``retiresFactIds``), so that a reader deactivates it: one truth.
- In a ``since`` diff, a new or changed record whose block is absent raises ``DiffGap`` (read
  everything instead); an unchanged one is recognised by its CID and never read.
- Records that fail are not remembered as imported (``records``); one imported before keeps its
  old CID, so its later deletion is still reported. The state remembers each failure with its CID
  and reason (``known_bad``): in a diff, a record that failed before and has not changed since is
  reported again without its block, so a known-bad record never forces a full read.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any, Literal, NamedTuple

from pdsmem.errors import PdsmemError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor, ipld_to_json
from pdsmem.mapping.from_record import from_record, resolve_supersession
from pdsmem.mapping.privacy import names_a_credential, sensitive_reason, sensitive_reason_once
from pdsmem.mapping.records import ImportScope, Imported, RecordView

from ..atproto.repo import NodeSummary, RecordFailure, VerifiedRepo
from .state import RememberedFact

__all__ = ["Change", "DiffGap", "ImportBatch", "RecordProblem"]

COLLECTION = RECORD_NSID
MAX_WANTED = 100  # blocks a diff lacks that are fetched one by one; past that, a full read


class DiffGap(Exception):
    """A ``since`` diff cannot be used as it is; read the whole repository instead."""


@dataclass(frozen=True)
class RecordProblem:
    """A record that was skipped, and why; the other records were processed."""

    uri: str
    reason: str
    cid: str = field(default="", compare=False)  # the CID of the record that failed, if the tree names one

    @classmethod
    def of(cls, uri: str, err: PdsmemError, cid: str = "") -> RecordProblem:
        """The problem ``err`` describes, without its uri/item prefix (``uri`` names the record)."""
        text = f"{err.path}: {err.message}" if err.path else err.message
        return cls(uri, text + (f" ({err.hint})" if err.hint else ""), cid)


@dataclass(frozen=True)
class Change:
    """One memory record created, updated or deleted since the last import, as its JSON line."""

    op: Literal["create", "update", "delete"]
    uri: str
    line: str  # {"op", "event", "record", "links"}, or {"op", "uri"} for a deletion; no newline

    def to_json(self) -> dict[str, Any]:
        return json.loads(self.line)


def _dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _line(op: str, imported: Imported, retires: str | None = None) -> str:
    """A change's JSON line; ``retires``: the fact the record made before, which it no longer makes
    (``links.retiresFactIds``: a reader applying the lines deactivates it)."""
    line = {"op": op, **imported.to_json()}
    if retires is not None:
        line["links"]["retiresFactIds"] = [retires]
    return _dumps(line)


# How much of each text of a record the gate reads for a note: a field the lexicon does not declare
# has no length limit, and the gate's time grows faster than a text's length (a 400 KB field took a
# sync 15 s); a secret is in the first 10,000 characters of a text as a memory's content is.
_READ_FOR_A_NOTE = 10_000
# a field's name as a note shows it: a plain identifier; any other name (a line break, a token) is
# named by its place, and looked at as a text itself
_SHOWN_NAME = re.compile(r"[A-Za-z$][A-Za-z0-9_$-]{0,39}")


def _secret_in(value: Any, path: str = "") -> str | None:
    """What the privacy gate finds in any text of a record, its fields' names included (``its
    content looks like a card number``, ``its provenance.sourceUri looks like …``), or None: the
    record is public already, and the person is told (``secret_notes``). A note never shows a
    name that is no plain identifier: a name may be a secret, or a line of its own."""
    if isinstance(value, str):
        why = sensitive_reason_once(value[:_READ_FOR_A_NOTE]) if len(value) >= 4 else None
        return f"its {path} {why}" if why else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "$type" and not path:
                continue  # the record's own type
            key = str(key)
            # (a field's name is checked once a run: the same few names come in every record)
            why = sensitive_reason(key[:_READ_FOR_A_NOTE]) if len(key) >= 4 else None
            if why:
                return f"the name of one of its fields{f' (in {path})' if path else ''} {why}"
            name = f"{path}.{key}" if _SHOWN_NAME.fullmatch(key) else f"{path}.(a field)" if path else "(a field)"
            name = name.removeprefix(".")
            if found := _secret_in(item, name):
                return found
            # a field whose name names a credential, and its value, read as a line says them:
            # {"wifi password": "Tr0ub4dor&3x"}
            if (isinstance(item, str) and len(key) <= 40 and key.isprintable() and names_a_credential(key)
                    and (why := sensitive_reason_once(f"{key}: {item[:_READ_FOR_A_NOTE]}"))):
                return f"its {name} {why}"
        return None
    if isinstance(value, list):
        return next((found for index, item in enumerate(value) if (found := _secret_in(item, f"{path}[{index}]"))), None)
    return None


SECRETS_NAMED = 3  # records named with the reason; the others by their at-uris, on one line
URIS_SHOWN = 10


def secret_notes(secrets: list[tuple[str, str]]) -> list[str]:
    """A note for each record read (new or changed) whose text looks like a secret, by its at-uri
    and why, never its words: it is public in the repository, and relays copy it, whatever pdsmem
    does; it is imported as written, since it is the person's own record."""
    notes = [f"{uri}: {why}. The record is public in the repository and in every relay's copy; pdsmem reads "
             "it as it is (if it is a secret, delete the record on the PDS and change the secret)"
             for uri, why in secrets[:SECRETS_NAMED]]
    if rest := secrets[SECRETS_NAMED:]:
        records = "record looks like it holds" if len(rest) == 1 else "records look like they hold"
        notes.append(f"{len(rest)} more {records} a secret, and are public: {_listed([uri for uri, _ in rest])}")
    return notes


def _listed(uris: list[str]) -> str:
    """The first ``URIS_SHOWN`` of ``uris``, and how many more."""
    more = f" and {len(uris) - URIS_SHOWN} more" if len(uris) > URIS_SHOWN else ""
    return ", ".join(uris[:URIS_SHOWN]) + more


def secret_reminder(uris: list[str]) -> list[str]:
    """A note naming the records an earlier run noted (``secret_notes``) that are still there
    unchanged: the first note of a scheduled sync is easily missed, and they are still public."""
    if not uris:
        return []
    if len(uris) == 1:
        return [f"1 record noted before still looks like it holds a secret and is public: {uris[0]} (delete it on the "
                "PDS and change the secret)"]
    return [f"{len(uris)} records noted before still look like they hold a secret and are public: {_listed(uris)} "
            "(delete them on the PDS and change the secrets)"]


def _links(facts: Mapping[str, RememberedFact], uri: str) -> list[str]:
    """The fact ids the record at ``uri`` links to, among ``facts``."""
    return [facts[target].fact_id for target in facts[uri].supersedes if target in facts]


class _Pending(NamedTuple):
    """A created or updated record that mapped, and the size of its spooled line."""

    op: Literal["create", "update"]
    uri: str
    cid: str
    size: int  # bytes


class ImportBatch:
    """What one import found: counts, ``failures`` and, through ``changes()``, the changes.

    ``records`` (uri → CID) and ``facts`` (uri → ``RememberedFact``, for the records that are
    facts) are what the cursor will remember. A batch from ``scan`` holds the
    verified blocks and the spooled lines (temporary files) until closed: use it as a context
    manager, and deliver it before closing it.
    """

    def __init__(
        self,
        did: str,
        rev: str,
        commit_cid: str,
        read: str,  # "unchanged", "diff", "full", "full after diff", "car"
        *,
        unchanged: int = 0,
        records: Mapping[str, str] | None = None,
    ) -> None:
        self.did, self.rev, self.commit_cid, self.read = did, rev, commit_cid, read
        self.data_cid: Cid | None = None  # the MST root of the commit read (None: nothing was read)
        self.unchanged = unchanged
        self.records: dict[str, str] = dict(records or {})
        self.given_key = ""  # the key the user gave to check the commit, if not the DID document's
        self.wanted: list[tuple[str, Cid]] = []  # blocks a diff left out that the batch needs (uri, CID)
        self.facts: dict[str, RememberedFact] = {}
        self.failures: list[RecordProblem] = []  # by uri
        self.deleted: list[str] = []  # by uri
        self.secrets: list[tuple[str, str]] = []  # (uri, why) of each record read whose text looks like a secret
        self._repo: VerifiedRepo | None = None
        self._scope: ImportScope | None = None
        self._spool: IO[bytes] | None = None
        self._pending: list[_Pending] = []  # in repository order
        self._mapped: set[str] = set()  # facts mapped in this batch, by uri
        self._superseded: set[str] = set()  # facts that a fact of the repository supersedes, by uri
        self._touched: set[str] = set()  # records whose line a supersession changes
        self._links_to: dict[str, str] = {}  # uri → fact id of each fact a touched record links to
        self._retires: dict[str, str] = {}  # uri → the fact its record made before and makes no more

    def still_noted(self, noted: Mapping[str, tuple[str, str]]) -> list[str]:
        """The uris of ``noted`` (uri → (CID, reason), as ``State.seen_secrets`` keeps them) whose
        record is in this batch's repository unchanged and not noted again by this read."""
        again, cids = {uri for uri, _ in self.secrets}, self.cids()
        return sorted(uri for uri, (cid, _) in noted.items() if cid and cids.get(uri) == cid and uri not in again)

    def cids(self) -> dict[str, str]:
        """uri → CID of every record in this batch's repository: a record that fails now is at its
        failure's CID (``records`` keeps the one it last mapped at)."""
        return {**self.records, **{problem.uri: problem.cid for problem in self.failures if problem.cid}}

    @classmethod
    def scan(
        cls,
        repo: VerifiedRepo,
        seen: Mapping[str, str],
        scope: ImportScope,
        *,
        read: str,
        diff: bool = False,
        full: bool = False,
        remembered: Mapping[str, RememberedFact] | None = None,
        known_bad: Mapping[str, tuple[str, str]] | None = None,
    ) -> ImportBatch:
        """The first pass over ``repo``'s memory records against ``seen`` (uri → CID remembered)
        and ``remembered`` (uri → the fact each remembered fact record was imported as).

        The batch owns ``repo`` from here on (it is closed if this fails). ``full`` treats every
        record as new; ``diff`` raises ``DiffGap`` for a changed record whose block is absent.
        """
        commit = repo.commit
        batch = cls(str(commit.did), str(commit.rev), str(commit.cid), read)
        batch.data_cid = commit.data
        batch._repo, batch._scope = repo, scope
        try:
            batch._first_pass(seen, remembered or {}, known_bad or {}, diff=diff, full=full)
        except BaseException:
            batch.close()
            raise
        return batch

    def count(self, op: str) -> int:
        if op == "delete":
            return len(self.deleted)
        return sum(1 for pending in self._pending if pending.op == op)

    @property
    def summary(self) -> dict[str, int]:
        return {
            "created": self.count("create"), "updated": self.count("update"),
            "unchanged": self.unchanged, "deleted": self.count("delete"),
            "failed": len(self.failures),
        }

    def changes(self) -> Iterator[Change]:
        """Each created or updated record in repository order, then each deletion by uri."""
        if self._pending and self._repo is None:  # closed (the spool may never have been needed)
            raise ValueError("the import batch is closed; deliver its changes before closing it")
        offset = 0
        for pending in self._pending:
            if pending.uri in self._touched:
                line = self._remapped(pending)
            else:
                line = self._spooled(offset, pending.size)
            offset += pending.size
            yield Change(pending.op, pending.uri, line)
        for uri in self.deleted:
            retires = {"retiresFactIds": [self._retires[uri]]} if uri in self._retires else {}
            yield Change("delete", uri, _dumps({"op": "delete", "uri": uri, **retires}))

    def pending_changes(self) -> list[_Pending]:
        """The created and updated records ``changes`` yields (uri, op, CID), without reading them."""
        return list(self._pending)

    def add_block(self, cid: Cid, data: bytes) -> None:
        """A block the diff left out, fetched by the importer (its bytes match ``cid``)."""
        assert self._repo is not None and cid.matches(data)
        self._repo.store.add(cid, data)

    def tree_nodes(self) -> Iterator[tuple[Cid, bytes, NodeSummary | None]]:
        """The MST nodes the read walked, with their summaries (the batch must still be open):
        every node of the tree when ``tree_complete``."""
        if self._repo is None:
            raise ValueError("the import batch is closed")
        return self._repo.mst_nodes()

    @property
    def tree_size(self) -> int:
        """The nodes of the repository's tree, walked or placed by a kept summary."""
        if self._repo is None:
            raise ValueError("the import batch is closed")
        return self._repo.tree_nodes

    @property
    def tree_complete(self) -> bool:
        """Whether the read walked every node of the tree (none placed by a kept summary)."""
        if self._repo is None:
            raise ValueError("the import batch is closed")
        return self._repo.complete

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
            self._spool = None
        if self._repo is not None:
            self._repo.close()
            self._repo = None

    def __enter__(self) -> ImportBatch:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # --- first pass ---------------------------------------------------------------------------

    def _first_pass(
        self, seen: Mapping[str, str], remembered: Mapping[str, RememberedFact],
        known_bad: Mapping[str, tuple[str, str]], *, diff: bool, full: bool,
    ) -> None:
        assert self._repo is not None and self._scope is not None
        known = {} if full else seen
        missing = set(seen)  # remembered records not in the tree (so far): deletions
        for item in self._repo.records(collection=COLLECTION):
            uri, cid = str(item.uri), str(item.cid) if item.cid is not None else ""
            missing.discard(uri)
            if uri in seen:  # remembered as it was, unless it maps again below
                self.records[uri] = seen[uri]
                if uri in remembered:
                    self.facts[uri] = remembered[uri]
            if cid and known.get(uri) == cid:
                self.unchanged += 1  # its block may be absent from a diff: it is not needed
                continue
            if isinstance(item, RecordFailure):
                if diff and item.cid is not None and item.cid not in self._repo.store:
                    bad = known_bad.get(uri)
                    if bad is None or bad[0] != cid:
                        raise DiffGap(f"the diff lacks the block of {uri}")
                    self.failures.append(RecordProblem(uri, bad[1], cid))  # failed before, unchanged since
                    continue
                self.failures.append(RecordProblem(uri, item.reason, cid))
                continue
            # said once: for a record new or changed since the last read (or failure), and for every
            # one on a read the person asked to be full (records read before these notes existed)
            if (full or cid not in (seen.get(uri), known_bad.get(uri, ("",))[0])) and (why := _secret_in(item.value)):
                self.secrets.append((uri, why))
            try:
                imported = from_record(RecordView(uri=uri, cid=cid, value=item.value), self._scope)
            except PdsmemError as err:
                self.failures.append(RecordProblem.of(uri, err, cid))
                continue
            self._add("update" if uri in known else "create", imported)
        self.deleted = sorted(missing)
        self._retires |= {uri: remembered[uri].fact_id for uri in self.deleted if uri in remembered}
        self._settle(remembered, diff=diff)
        self.failures.sort(key=lambda problem: problem.uri)

    def _add(self, op: Literal["create", "update"], imported: Imported) -> None:
        uri, cid = imported.record.uri, imported.record.cid
        before = self.facts.pop(uri, None)
        if before is not None and before.fact_id != imported.event.get("factId"):
            self._retires[uri] = before.fact_id  # edited into another memory: its old fact is gone
        data = _line(op, imported, self._retires.get(uri)).encode()
        if self._spool is None:
            self._spool = tempfile.TemporaryFile(prefix="pdsmem-import-")
        self._spool.write(data)
        self._pending.append(_Pending(op, uri, cid, len(data)))
        self.records[uri] = cid
        if imported.event["eventType"] == "fact":
            self._mapped.add(uri)
            self.facts[uri] = RememberedFact(imported.event["factId"], tuple(imported.supersedes))

    def _settle(self, remembered: Mapping[str, RememberedFact], *, diff: bool) -> None:
        """Find the lines a supersession changes: records of the batch that link to a fact
        (``supersedesFactIds``), facts of the batch that are superseded (``active: false``),
        and unchanged facts written again because their ``active`` or the fact ids they link
        to differ from their last import."""
        facts = self.facts  # every fact record of the repository now, mapped or remembered
        self._superseded = {target for fact in facts.values() for target in fact.supersedes if target in facts}
        before = {target for fact in remembered.values() for target in fact.supersedes if target in remembered}
        failed = {problem.uri for problem in self.failures}
        changed = (self._superseded ^ before) & facts.keys()
        changed |= {  # an unchanged record whose targets were created, edited or deleted
            uri for uri, fact in facts.items()
            if fact.supersedes and uri in remembered and _links(facts, uri) != _links(remembered, uri)
        }
        for uri in sorted(changed - self._mapped - failed):
            cid = self.records[uri]
            if Cid.decode(cid) not in self._repo.store:
                if not diff:
                    self.failures.append(RecordProblem(
                        uri, f"its record block {cid} is missing from the repository, so its changed "
                        "active state cannot be written (its last import stands)",
                    ))
                    continue
                self.wanted.append((uri, Cid.decode(cid)))  # unchanged since: the importer fetches it
                if len(self.wanted) > MAX_WANTED:
                    raise DiffGap(f"the diff lacks the blocks of over {MAX_WANTED} records to map again")
            self._pending.append(_Pending("update", uri, cid, 0))  # mapped again in the second pass
            self._touched.add(uri)
        self._touched |= {uri for uri in self._mapped if any(t in facts for t in facts[uri].supersedes)}
        self._touched |= self._superseded & self._mapped
        for uri in self._touched:
            self._links_to.update(
                (target, facts[target].fact_id) for target in facts[uri].supersedes if target in facts
            )

    # --- second pass --------------------------------------------------------------------------

    def _spooled(self, offset: int, size: int) -> str:
        assert self._spool is not None
        try:
            self._spool.seek(offset)
            data = self._spool.read(size)
        except OSError as exc:
            raise PdsmemError(
                f"cannot read back the mapped records from their temporary file: {exc.strerror or exc}",
                did=self.did, hint="the stored cursor did not move; import again",
            ) from exc
        if len(data) != size:
            raise PdsmemError(
                f"the temporary file of mapped records ends at byte {offset + len(data)}, "
                f"expected {offset + size}", did=self.did,
                hint="the stored cursor did not move; import again",
            )
        return data.decode()

    def _remapped(self, pending: _Pending) -> str:
        """The record mapped again from its verified block, with the batch's supersession."""
        assert self._repo is not None and self._scope is not None
        value = ipld_to_json(decode_dag_cbor(self._repo.store.get(Cid.decode(pending.cid))))
        item = from_record(RecordView(uri=pending.uri, cid=pending.cid, value=value), self._scope)
        resolve_supersession([item], known=self._links_to)
        if pending.uri in self._superseded:
            item.event["active"] = False
        return _line(pending.op, item, self._retires.get(pending.uri))
