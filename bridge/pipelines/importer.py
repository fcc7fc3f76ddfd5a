"""Import memory records from a verified repository (a PDS or a CAR file), incrementally.

Scope: read a repository (``com.atproto.sync.getRepo`` as a streamed CAR, or a CAR export on
disk), verify it before any use (``repo.verify_repo``: every block against its CID, the
commit's signature against the DID document's signing key, the whole MST, no rollback below
the stored cursor), work out which ``dev.bastienrobert.memory.record`` records were created,
updated and deleted since the last import (``state.State``), and map the created and updated
ones to events (``pdsmem.mapping.from_record``; ``import_batch`` holds what one import found).
``Importer.deliver`` writes the changes as JSON Lines, flushes them to disk, and only then
moves the cursor. ``verify_source`` runs every check on a repository and reports what failed.
Other collections are never looked at.

Tricky bits:
- When ``getLatestCommit`` reports the stored rev and commit, nothing is downloaded: records that
  failed at that rev are reported again from the state (``State.seen_failures``). Only a
  delivery that stopped half way (``State.pending``) reads the repository again.
- A ``getRepo?since=<rev>`` diff holds only the blocks written after ``rev``; unchanged records
  are recognised by their CID in the MST, and unchanged MST nodes come from the ones kept at
  the last import (``State.keep_nodes``; checked against their CIDs). An unchanged sub-tree that
  holds no memory record is placed by its kept summary instead of walked (``repo.check_mst``):
  a diff's walk follows the changed paths and the memory records, not the whole tree of an
  account with posts, likes and follows by the hundred thousand. Any gap a diff cannot
  explain (a node neither there nor kept, a new or changed record whose block is absent, any
  failed check) means a full read: partial data is never imported. An unchanged record that a
  supersession makes the batch map again is fetched alone (``getRecord``; its block must match
  the CID the verified tree names). Records that failed are not
  remembered, so while a repository keeps invalid memory records, each change is read in full
  and they are reported again.
- Deletions never appear in a diff: they are the remembered records missing from the new tree.
  A record that now fails but was imported before keeps its old CID in the state, so its later
  deletion is still reported.
- From a CAR file the DID is the one its commit names (``did=`` pins it). With ``signing_key``
  nothing is fetched, and the key alone vouches for that DID; a DID document resolved from
  the PLC directory (or ``did=``) is what ties the repository to an account. So a rev read
  through a given key bounds only later imports with that key, never the DID's own.
- Delivery is at least once: output cut short by a failure is written again by the next run
  (ids are deterministic, so consumers can upsert).
- Memory holds a few small facts per record, never the records: the CAR's blocks wait in a
  temporary file, and a batch is read in two passes, its mapped lines spooled to another
  (``import_batch``). The batch owns the verified repository until closed, so callers deliver
  it inside ``with``.
- The cursor is per repository and import scope (``reader_key``): one repository imported
  into two scopes keeps two cursors. A rollback is judged against the newest rev any scope saw.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

import httpx

from pdsmem.errors import DataModelError, InvalidSyntax, MappingError, PdsmemError, RecordInvalid
from pdsmem.errors import VerificationError, kind_of
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor
from pdsmem.mapping.records import ImportScope, default_lexicons
from pdsmem.mapping.syntax import AtUri, Did

from ..atproto.car import BlockStore, read_car
from ..atproto.identity import Identity, IdentityResolver
from ..atproto.identity import signing_key as document_signing_key
from .import_batch import Change, DiffGap, ImportBatch, RecordProblem, secret_reminder
from ..atproto.repo import Commit, OtherRecord, RecordFailure, RepoRecord, VerifiedRepo, verify_commit, verify_repo
from .state import RepoCursor, State
from ..atproto.xrpc import XrpcClient, XrpcError

__all__ = [
    "COLLECTION", "Change", "ImportBatch", "Importer", "RecordProblem", "VerifyReport",
    "open_car", "verify_source",
]

log = logging.getLogger(__name__)

COLLECTION = RECORD_NSID
CarFile = str | os.PathLike[str] | BinaryIO | IO[bytes]


@dataclass
class VerifyReport:
    """The outcome of ``verify_source``: the commit, signature and MST verified; then the
    records whose block is missing or does not hash to its CID (``broken``: the repository
    fails verification), and the records whose value is not valid for its type (``invalid``:
    the repository itself is sound; import skips such memory records)."""

    commit: Commit
    record_count: int
    memory_records: int
    broken: list[RecordProblem]
    invalid: list[RecordProblem]


# --- reading CAR files ----------------------------------------------------------------------


def _read_car_file(source: CarFile) -> tuple[Cid, BlockStore]:
    if not isinstance(source, (str, os.PathLike)):
        return read_car(source)
    path = Path(source)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise PdsmemError(f"cannot open the CAR file {path}: {exc.strerror or exc}") from exc
    with handle:
        return read_car(handle)


def _claimed_did(store: BlockStore, root: Cid) -> Did:
    """The DID the root commit names, before anything about it is verified."""
    try:
        obj = decode_dag_cbor(store.get(root))
    except DataModelError as exc:
        raise VerificationError(
            f"the commit block is not valid DAG-CBOR: {exc.message}", path=f"commit {root}"
        ) from exc
    raw = obj.get("did") if isinstance(obj, dict) else None
    try:
        return Did.parse(raw)  # type: ignore[arg-type]
    except InvalidSyntax as exc:
        raise VerificationError(
            f"the root block names no repository DID ({exc.message})", path=f"commit {root}",
            hint="this CAR is not a repository export",
        ) from exc


def _resolve_key(did: str, plc_url: str | None, transport: httpx.BaseTransport | None) -> str:
    with IdentityResolver(plc_url=plc_url, transport=transport) as resolver:
        return document_signing_key(resolver.resolve_did(did))


def open_car(
    source: CarFile,
    *,
    did: str | None = None,
    signing_key: str | None = None,
    min_rev: Mapping[str, str] | None = None,
    plc_url: str | None = None,
    transport: httpx.BaseTransport | None = None,
    collection: str | None = None,
    summarize: bool = False,
) -> VerifiedRepo:
    """Read and verify a repository CAR (a path or a binary file); close the result when done.

    The DID is the one the commit names and must equal ``did`` when given. The signing key is
    ``signing_key`` (a ``did:key``, fully offline), else the DID document's (resolved at
    ``plc_url``). ``min_rev`` maps DIDs to their last synced rev: an older commit is refused.
    ``summarize``: keep the MST nodes' summaries, for ``State.keep_nodes``.
    """
    root, store = _read_car_file(source)
    claimed: Did | None = None
    try:
        claimed = _claimed_did(store, root)
        owner = Did.parse(did) if did else claimed
        key = signing_key or _resolve_key(owner, plc_url, transport)
        commit = verify_commit(
            store, root, did=owner, signing_key_did_key=key,
            min_rev=(min_rev or {}).get(str(owner)),
        )
        return VerifiedRepo(store, commit, collection, summarize=summarize)
    except BaseException as exc:
        store.close()
        if isinstance(exc, VerificationError) and exc.did is None and not exc.uri:
            exc.did = did or claimed
        if isinstance(exc, VerificationError) and exc.message.startswith("rollback:"):  # a file, no server
            exc.hint = ("this CAR file is an older export of the repository than the one already synced; "
                        "use a newer export, or read the repository from its PDS")
        raise


# --- import ---------------------------------------------------------------------------------


def _refuse_older(rev: Any, did: str, newest: str) -> None:
    """Refuse early when the PDS itself says its repository is older than what was synced."""
    if isinstance(rev, str) and rev and rev < newest:  # TIDs sort as they were made
        raise VerificationError(
            f"rollback: the PDS reports rev {rev}, older than the already synced rev {newest}",
            did=did, hint="the server holds an older state of the repository",
        )


class Importer:
    """Imports memory records into one trusted scope, remembering where each repository was.

    The scope fields (``agent_id``, ``profile_id``, salt, privacy, sandbox) are configuration,
    never read from records; the participant is the verified repository DID.
    """

    def __init__(
        self,
        state: State,
        *,
        agent_id: str,
        profile_id: str,
        salt: str = "",
        privacy_scope: str = "shared",
        sandbox_eligible: bool = False,
        plc_url: str | None = None,
        pds_hint: str | None = None,
        transport: httpx.BaseTransport | None = None,
        target: str = "",
        participant: str | None = None,
    ) -> None:
        """``target`` names where the batches go when it is not a JSON Lines output (a RushDB
        project, for sync): each target keeps its own cursor."""
        if not agent_id or not profile_id:
            raise MappingError(
                "importing needs a non-empty agent id and profile id (the trusted target scope)"
            )
        self.state = state
        self.plc_url, self.pds_hint, self.transport = plc_url, pds_hint, transport
        self._scope = dict(
            agent_id=agent_id, profile_id=profile_id, salt=salt,
            privacy_scope=privacy_scope, sandbox_eligible=sandbox_eligible,
        )
        if participant:  # a participant hash given as it is, instead of the repository DID's
            self._scope["participant"] = participant
        self.scope_key = reader_key(**self._scope)  # the import scope, whatever the target
        self.reader = self.scope_key + (f"@{target}" if target else "")

    def scope_for(self, did: str) -> ImportScope:
        return ImportScope(did=did, **self._scope)  # type: ignore[arg-type]

    # --- sources ----------------------------------------------------------------------------

    def from_pds(
        self, identifier: str, *, full: bool = False, on_read: Callable[[int], None] | None = None,
        identity: Identity | None = None,
    ) -> ImportBatch:
        """Read the repository of a handle or DID from its PDS: nothing, a diff, or all of it.

        ``full`` reads everything and treats every memory record as new (deletions since the
        last import are still reported). ``on_read`` is told the size of each chunk of the
        repository as it arrives. ``identity``: the account, already resolved (a follow keeps it
        and reads its DID document again when the stream says it changed).
        """
        if identity is None:
            with IdentityResolver(plc_url=self.plc_url, transport=self.transport) as resolver:
                identity = resolver.resolve(identifier, pds_hint=self.pds_hint)
        did = str(identity.did)
        cursor, seen = self.state.cursor(did, self.reader), self._seen(did)
        newest = self.state.latest_revs().get(did)  # what any import scope has seen
        with XrpcClient(identity.pds_url, transport=self.transport) as xrpc:
            if newest is not None:  # imported before, by this scope or another: check for rollback
                latest = xrpc.query("com.atproto.sync.getLatestCommit", {"did": did})
                _refuse_older(latest.get("rev"), did, newest)
                unchanged = cursor is not None and (latest.get("rev"), latest.get("cid")) == (
                    cursor.rev, cursor.commit_cid)
                known_bad = self.state.seen_failures(did, self.reader)
                told_again = len(known_bad) == cursor.failures if cursor is not None else False
                if unchanged and not full and told_again and not self.state.pending(did, self.reader):
                    batch = ImportBatch(
                        did, cursor.rev, cursor.commit_cid, "unchanged", unchanged=len(seen), records=seen,
                    )
                    batch.failures = sorted(  # failed at this very rev: told again from the state
                        (RecordProblem(uri, reason, cid) for uri, (cid, reason) in known_bad.items()),
                        key=lambda problem: problem.uri,
                    )
                    return batch
                if cursor is not None and not full and not unchanged:
                    try:
                        return self._read_pds(
                            xrpc, did, identity.signing_key, cursor, seen, diff=True, on_read=on_read
                        )
                    except DiffGap as gap:
                        log.info("the diff of %s since %s is not usable (%s); reading it all",
                                 did, cursor.rev, gap)
                        batch = self._read_pds(xrpc, did, identity.signing_key, cursor, seen, on_read=on_read)
                        batch.read = "full after diff"
                        return batch
            return self._read_pds(xrpc, did, identity.signing_key, cursor, seen, full=full, on_read=on_read)

    def from_car(
        self,
        source: CarFile,
        *,
        did: str | None = None,
        signing_key: str | None = None,
        full: bool = False,
    ) -> ImportBatch:
        """Read a repository export; see :func:`open_car` for ``did`` and ``signing_key``."""
        repo = open_car(
            source, did=did, signing_key=signing_key, min_rev=self.state.latest_revs(signing_key or ""),
            plc_url=self.plc_url, transport=self.transport, collection=COLLECTION,
            summarize=not signing_key,  # its nodes are kept for since-diffs (``commit``)
        )
        batch = self._batch(repo, None, read="car", full=full)
        batch.given_key = signing_key or ""  # a key the user gave bounds only imports with that key
        return batch

    def _read_pds(
        self,
        xrpc: XrpcClient,
        did: str,
        key: str,
        cursor: RepoCursor | None,
        seen: dict[str, str],
        *,
        diff: bool = False,
        full: bool = False,
        on_read: Callable[[int], None] | None = None,
    ) -> ImportBatch:
        params = {"did": did, "since": cursor.rev if diff and cursor else None}
        try:
            with xrpc.stream("com.atproto.sync.getRepo", params, on_read=on_read) as chunks:
                repo = verify_repo(
                    chunks, did=did, signing_key=key, min_rev=self.state.latest_revs().get(did),
                    collection=COLLECTION, known_nodes=self.state.known_nodes(did) if diff else None,
                    summarize=True,
                )
        except (VerificationError, XrpcError) as exc:
            if diff and not getattr(exc, "retryable", False):
                raise DiffGap(str(exc)) from exc
            raise
        batch = self._batch(repo, seen, read="diff" if diff else "full", diff=diff, full=full)
        if batch.wanted:
            with _closed_on_error(batch):
                self._fetch_wanted(xrpc, did, batch)
        return batch

    @staticmethod
    def _fetch_wanted(xrpc: XrpcClient, did: str, batch: ImportBatch) -> None:
        """Fetch the blocks of unchanged records a diff left out but the batch must map again
        (a supersession changed their state): one ``getRecord`` each. A block is taken only
        when its bytes match the CID the verified tree names; anything else means a full read."""
        for uri, cid in batch.wanted:
            at = AtUri.parse(uri)
            params = {"did": did, "collection": str(at.collection), "rkey": str(at.rkey)}
            try:
                with xrpc.stream("com.atproto.sync.getRecord", params) as chunks:
                    _, store = read_car(chunks)
            except (VerificationError, XrpcError) as exc:
                if getattr(exc, "retryable", False):
                    raise
                raise DiffGap(f"cannot fetch the block of {uri}: {exc}") from exc
            with store:
                if cid not in store:
                    raise DiffGap(f"the PDS did not return the block {cid} of {uri}")
                batch.add_block(cid, store.get(cid))

    # --- what changed -----------------------------------------------------------------------

    def _batch(
        self,
        repo: VerifiedRepo,
        seen: dict[str, str] | None,
        *,
        read: str,
        diff: bool = False,
        full: bool = False,
    ) -> ImportBatch:
        """The batch of ``repo``, which owns it from here on; ``seen`` defaults to the state's."""
        try:
            did = str(repo.commit.did)
            scope = self.scope_for(did)
            if seen is None:
                seen = self._seen(did)
            remembered = self.state.seen_facts(did, self.reader)
            known_bad = self.state.seen_failures(did, self.reader)
        except BaseException:
            repo.close()
            raise
        return ImportBatch.scan(
            repo, seen, scope, read=read, diff=diff, full=full, remembered=remembered, known_bad=known_bad,
        )

    def _seen(self, did: str) -> dict[str, str]:
        """uri → CID of the records the cursor remembers, and of those a delivery that stopped
        half way may have handed over, at an unknown CID: mapped again when present, reported
        deleted when gone."""
        seen = {uri: "" for uri in self.state.pending(did, self.reader)}
        seen.update(self.state.seen_records(did, self.reader))
        return seen

    # --- hand over, then remember -----------------------------------------------------------

    def deliver(self, batch: ImportBatch, out: IO[str]) -> None:
        """Write the changes as JSON Lines to ``out``, flush them to disk, then move the cursor.

        ``batch`` must still be open. If writing fails, the cursor stays where it was and the
        next run writes them again; if it fails before the first line is out, the state is left
        exactly as it was.
        """
        noted = self.begin(batch)
        changes = batch.changes()
        try:
            # The first line goes out alone: a write that fails before it is out in full handed
            # nothing over, so the pending marks go too (else the next run writes "update"s).
            for change in itertools.islice(changes, 1):
                out.write(change.line)
                out.write("\n")
            out.flush()
        except OSError:
            self.state.forget_pending(batch.did, self.reader, noted)
            raise
        for change in changes:
            out.write(change.line)
            out.write("\n")
        out.flush()
        _sync_to_disk(out)
        self.commit(batch)

    def begin(self, batch: ImportBatch) -> set[str]:
        """Before handing ``batch`` over: note what it may deliver, so that a run that stops half
        way is finished by the next one, a record deleted in between included. Returns the uris
        newly noted (``State.forget_pending`` takes them back)."""
        if batch.read == "unchanged":
            return set()
        return self.state.note_pending(batch.did, self.reader, [change.uri for change in batch.pending_changes()])

    def secret_reminder(self, batch: ImportBatch) -> list[str]:
        """The note naming the records an earlier run noted as holding a secret that ``batch`` finds
        unchanged (asked before the batch is committed, which moves what the state keeps)."""
        return secret_reminder(batch.still_noted(self.state.seen_secrets(batch.did, self.reader)))

    def commit(self, batch: ImportBatch) -> None:
        """After ``batch`` was handed over in full: move the cursor (``batch`` must be open)."""
        if batch.read != "unchanged":
            cids = batch.cids()
            self.state.advance(
                batch.did, batch.rev, batch.commit_cid, batch.records, reader=self.reader, facts=batch.facts,
                failures=len(batch.failures), given_key=batch.given_key,
                unsalted=not self._scope["salt"] and not self._scope.get("participant"),
                failed={problem.uri: (problem.cid, problem.reason) for problem in batch.failures},
                secrets={uri: (cids.get(uri, ""), why) for uri, why in batch.secrets},
            )
            if not batch.given_key:  # the nodes a later since-diff of the PDS leaves out
                self.state.keep_nodes(
                    batch.did, batch.tree_nodes(), complete=batch.tree_complete, tree=batch.tree_size)


@contextmanager
def _closed_on_error(batch: ImportBatch) -> Iterator[None]:
    try:
        yield
    except BaseException:
        batch.close()
        raise


def reader_key(*, agent_id: str, profile_id: str, salt: str, privacy_scope: str, sandbox_eligible: bool,
               participant: str | None = None) -> str:
    """The state key of one import scope: readable ids, plus a hash of the rest (never the salt)."""
    scope = [agent_id, profile_id, salt, privacy_scope, sandbox_eligible] + ([participant] if participant else [])
    digest = hashlib.sha256(json.dumps(scope).encode()).hexdigest()[:12]
    return f"{agent_id}/{profile_id}/{digest}"


def _sync_to_disk(out: IO[str]) -> None:
    """fsync ``out`` when it is a regular file (a pipe or a terminal has nothing to sync)."""
    try:
        fileno = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    if stat.S_ISREG(os.fstat(fileno).st_mode):
        os.fsync(fileno)


# --- verify ---------------------------------------------------------------------------------


def verify_source(
    source: str | CarFile,
    *,
    car: bool,
    did: str | None = None,
    signing_key: str | None = None,
    plc_url: str | None = None,
    pds_hint: str | None = None,
    state: State | None = None,
    transport: httpx.BaseTransport | None = None,
    on_read: Callable[[int], None] | None = None,
) -> VerifyReport:
    """Run every check on a repository: a CAR (``car=True``) or a handle/DID read from its PDS.

    Structural failures (CAR, commit, signature, MST, rollback against ``state``'s cursor)
    raise ``VerificationError``; record failures are listed in the report. ``did`` and
    ``signing_key`` apply to CAR files (see :func:`open_car`); a PDS read uses the DID document
    and tells ``on_read`` the size of each chunk as it arrives.
    """
    cursors = state.latest_revs((signing_key or "") if car else "") if state is not None else {}
    if car:
        repo = open_car(
            source, did=did, signing_key=signing_key, min_rev=cursors, plc_url=plc_url,
            transport=transport,
        )
    else:
        with IdentityResolver(plc_url=plc_url, transport=transport) as resolver:
            identity = resolver.resolve(str(source), pds_hint=pds_hint)
        owner = str(identity.did)
        with XrpcClient(identity.pds_url, transport=transport) as xrpc:
            with xrpc.stream("com.atproto.sync.getRepo", {"did": owner}, on_read=on_read) as chunks:
                repo = verify_repo(
                    chunks, did=owner, signing_key=identity.signing_key,
                    min_rev=cursors.get(owner),
                )
    with repo:
        broken, invalid, memory = [], [], 0
        for item in repo.audit(COLLECTION):
            if isinstance(item, RecordFailure):
                broken.append(RecordProblem(str(item.uri), item.reason))
                continue
            kind = item.type if isinstance(item, OtherRecord) else item.value.get("$type")
            memory += item.collection == COLLECTION
            if kind != item.collection:
                shown = json.dumps(kind) if isinstance(kind, str) else kind_of(kind)
                reason = f"record $type {shown} does not match its collection {item.collection}"
                invalid.append(RecordProblem(str(item.uri), reason))
            elif isinstance(item, RepoRecord) and item.collection == COLLECTION:
                try:
                    default_lexicons().validate_record(COLLECTION, item.value, rkey=str(item.rkey))
                except RecordInvalid as err:
                    invalid.append(RecordProblem.of(str(item.uri), err))
        return VerifyReport(repo.commit, repo.record_count, memory, broken, invalid)
