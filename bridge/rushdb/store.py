"""RushDB through its official Python SDK (``rushdb`` 3.x, over the REST API): memories, the PDS
records they came from, their relationships, vector indexes and search, always in bulk.

Scope: connecting (``RushDBTarget``: RushDB Cloud or a self-hosted server by URL and API key,
or a standalone engine in the SDK's direct mode), and ``MemoryStore``, the few operations sync,
recall and export need, each one call per batch, never one per record: reads by id (``$in``),
creates (nested: a memory with its mirror and their relationship) and upserts (``records.import_json``,
``mergeBy`` for records already there), key-joined relationships
(``relationships.create_many``) and their removal (``delete_many``), transactions. And the calls the
server answers from its index of record ids, whatever the size of the project: reads of the records
related to one record (``find(..., related=id)``), relationships from one record to others by id
(``attach``, ``detach``). The layout of what is written is
``pdsmem.mapping.rushdb_rows``; docs/rushdb.md describes both.

Tricky bits:
- An upsert (``mergeBy``) looks each row up among all the project's records (the server has no
  index for it), so its cost grows with the project; a create does not. Callers that know which
  rows are new (sync reads them first) create those.
- Every ``where`` the server compiles reads every record of the label in the project, ``$id``
  included (``find_by_id`` of a list too); a search of the records related to one record starts
  from that record's id and reads only its neighbours.
- The SDK's requests have no timeout of their own; each call here runs under one (a socket
  default timeout, set for the call and put back after).
- SDK 3.0.0 raises ``RushDBError`` with ``status`` None for a connection failure: that becomes
  ``RushDBUnreachable`` (retryable); 401/403 ``RushDBRefused`` (the key); 5xx, and a 400 that
  says a transaction was ended and to retry (a deadlock, a lock timeout), ``RushDBServerError``
  (retryable); 408, the server's transaction time budget spent ("reduce the batch size"),
  ``RushDBTooLarge`` (sync splits the chunk); anything else ``RushDBError`` with the server's message.
- ``relationships.create_many`` joins source and target by key and MERGEs the relationship, so
  running it again adds nothing. It runs in transactions of the server's own (APOC), so it
  cannot join a transaction of ours: it is called after the records it joins are committed.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from pdsmem.errors import PdsmemError, RushDBError, RushDBRefused, TransientError

from .target import (  # named here too, where the store's callers look for them
    ENV_API_KEY,
    ENV_API_URL,
    ENV_ENGINE_SCOPE,
    ENV_ENGINE_TOKEN,
    ENV_ENGINE_URL,
    RushDBTarget,
)

__all__ = [
    "ENV_API_KEY", "ENV_API_URL", "ENV_ENGINE_SCOPE", "ENV_ENGINE_TOKEN", "ENV_ENGINE_URL", "MemoryStore",
    "RushDBError", "RushDBRefused", "RushDBServerError", "RushDBTarget", "RushDBTooLarge", "RushDBUnreachable",
]

log = logging.getLogger(__name__)

CALL_TIMEOUT = 120.0  # seconds for any one SDK call
PAGE = 1000  # the most records the server returns per page
IN_CHUNK = 500  # ids per ``$in`` filter
WRITE_CHUNK = 500  # rows per import call
# rows per ``rewrite`` import call: the server's rewrite query makes a row per old and new
# property of each record before collecting them, and fails ("Maximum call stack size
# exceeded") on 500 records of about 20 properties each.
REWRITE_CHUNK = 25
PROBE_ID = "00000000-0000-7000-8000-000000000000"  # read by id (no record has it) to check the key
CHECK = "read the server settings"
# What Neo4j says, through a 400, of a transaction it ended (a deadlock, a lock timeout): the
# server's own words are to try again, in a new transaction.
_TRY_AGAIN = ("Retry your operation in a new transaction", "DeadlockDetected", "LockClient",
              "dbms.memory.transaction.total.max")  # the memory of all open transactions is full
# How long the server keeps a transaction of ours (a chunk takes a second or two): a killed
# run's transaction holds its locks and memory until then.
TX_TTL_MS = 30_000
_T = TypeVar("_T")


class RushDBUnreachable(TransientError):
    """RushDB cannot be reached (connection refused, DNS, timeout)."""


class RushDBServerError(TransientError):
    """RushDB answered with a server error (5xx)."""


class RushDBTooLarge(RushDBError):
    """RushDB ran out of its transaction time budget on a request (HTTP 408) and asks for smaller
    ones: the caller splits what it sent (sync writes the chunk again in halves)."""


def _why_unreachable(err: BaseException) -> str:
    """Why RushDB cannot be reached, in the words the PDS messages use ('connection refused', 'host
    name not found', …), without the SDK's wrapping of an error it passes on as text."""
    from ..atproto.xrpc import describe_transport_error

    reason = describe_transport_error(err)
    return reason.removeprefix("Connection error: ").removeprefix("<urlopen error ").rstrip(">")


class MemoryStore:
    """The operations pdsmem needs on one RushDB project, in bulk, with clear errors."""

    def __init__(self, target: RushDBTarget, *, timeout: float = CALL_TIMEOUT) -> None:
        self.target = target
        self.timeout = timeout
        self.db = target.connect()
        self.remembered: dict[Any, str] = {}  # record ids a caller found once, kept for the process

    # --- calls ------------------------------------------------------------------------------

    def call(self, what: str, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn(*args, **kwargs)``, an SDK call, under a timeout; its errors as pdsmem's."""
        from rushdb import RushDBError as SdkError

        before = socket.getdefaulttimeout()
        socket.setdefaulttimeout(self.timeout)
        try:
            return fn(*args, **kwargs)
        except SdkError as err:
            raise self._error(what, err) from None
        except OSError as err:  # a reset connection or a timeout while reading the answer
            raise RushDBUnreachable(f"cannot reach {self.target.shown}: {_why_unreachable(err)} ({what})") from None
        finally:
            socket.setdefaulttimeout(before)

    def _error(self, what: str, err: Exception) -> PdsmemError:
        status, message = getattr(err, "status", None), str(err)
        where = self.target.shown
        if status is None:
            return RushDBUnreachable(f"cannot reach {where}: {_why_unreachable(err)}")
        if status in (401, 403):
            return RushDBRefused(
                f"{where} refused the API key (HTTP {status}: {message})",
                hint="check --rushdb-api-key or RUSHDB_API_KEY: a write key of the project to use",
            )
        said = f"HTTP {status}" if message in ("", f"HTTP {status}") else f"HTTP {status}: {message}"
        if status == 408:
            return RushDBTooLarge(f"{where} ran out of time to {what} ({said})",
                                  hint="pass a smaller --batch-size (pdsmem halves a chunk that fails so by itself)")
        if status >= 500 or any(mark in message for mark in _TRY_AGAIN):
            return RushDBServerError(f"{where} failed to {what} ({said})")
        if status == 404 and (what == CHECK or what.startswith("search")):  # a RushDB search finds none, never 404
            return RushDBError(f"{where} does not answer as a RushDB REST API does ({said})",
                               hint="check --rushdb-url or RUSHDB_API_URL: the address of the RushDB API")
        return RushDBError(f"{where} refused to {what} ({said})")

    def check(self) -> dict[str, Any]:
        """The server's settings (``embeddingEnabled``…), after one read that needs the key, so
        that a wrong key or a server that is down fails here, before anything else is done. The
        read asks for a record by an id no record has: the server looks it up in its index of
        ids, so it costs the same in any project (a search would read the whole project). A
        standalone engine (the SDK's direct mode) has no settings call, a RushDB Cloud one: its
        settings are empty, and the read alone checks it."""
        settings = None if self.target.engine_url else self.call(CHECK, self.db.settings.get)  # without a key
        self.call("read the project", self._probe)
        return settings if isinstance(settings, dict) else {}

    def _probe(self) -> None:
        from rushdb import RushDBError as SdkError

        try:
            self.db.records.find_by_id(PROBE_ID)
        except SdkError as err:
            if getattr(err, "status", None) != 404:  # no such record: the answer expected
                raise
        except ValueError:  # the SDK could not read the answer as a record's: another server answered
            raise RushDBError(f"{self.target.shown} does not answer as a RushDB REST API does (read the project)",
                              hint="check --rushdb-url or RUSHDB_API_URL: the address of the RushDB API") from None

    # --- reading ------------------------------------------------------------------------------

    def get(self, record_id: str) -> dict | None:
        """The record of this id, or None: a read the server answers from its index of ids."""
        from rushdb import RushDBError as SdkError

        def read() -> dict | None:
            try:
                return self.db.records.find_by_id(record_id).data
            except SdkError as err:
                if getattr(err, "status", None) == 404:
                    return None
                raise
        return self.call("read a record", read)

    def find(self, label: str, where: Mapping[str, Any], *, order_by: str, limit: int | None = None,
             related: str | None = None) -> Iterator[dict]:
        """Every record of ``label`` matching ``where``, page by page, ordered by ``order_by``; with
        ``related`` (a record id), only among the records related to that one: the server starts
        from its id (indexed) and reads its neighbours, not the project."""
        skip = 0
        what = f"search {label} records" + (" of the scope" if related else "")
        while True:
            size = PAGE if limit is None else min(PAGE, limit - skip)
            if size <= 0:
                return
            query = {"labels": [label], "where": dict(where), "orderBy": {order_by: "asc"}, "limit": size, "skip": skip}
            page = self.call(what, self.db.records.find, query, related) if related else \
                self.call(what, self.db.records.find, query)
            rows = [record.data for record in page.data]
            yield from rows
            skip += len(rows)
            if len(rows) < size:
                return

    def find_by(self, label: str, key: str, values: Iterable[str], where: Mapping[str, Any] | None = None, *,
                related: str | None = None) -> dict[str, dict]:
        """``value`` → record, for the records of ``label`` whose ``key`` is one of ``values`` (among
        those related to the record ``related``, when given)."""
        found: dict[str, dict] = {}
        wanted = sorted(set(values))
        for start in range(0, len(wanted), IN_CHUNK):
            chunk = wanted[start:start + IN_CHUNK]
            for row in self.find(label, {**(where or {}), key: {"$in": chunk}}, order_by=key, related=related):
                found[row[key]] = row
        return found

    # --- writing ------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """A RushDB transaction: committed when the block ends, rolled back when it raises."""
        tx = self.call("begin a transaction", self.db.tx.begin, ttl=TX_TTL_MS)
        try:
            yield tx
        except BaseException:
            try:
                self.call("roll back a transaction", tx.rollback)
            except PdsmemError as err:  # the server may be gone: it drops the transaction itself
                log.info("rollback failed: %s", err)
            raise
        self.call("commit a transaction", tx.commit)

    def create(self, label: str, rows: list[dict], *, tx: Any = None, relationship: str | None = None) -> list[dict]:
        """Create ``rows`` of ``label``, which the caller knows RushDB does not hold yet; in
        chunks, one call each. Much cheaper than ``upsert``: no lookup per row. A row may hold
        another under a label's name (``{..., "ATPROTO_RECORD": {...}}``): that one is created too,
        linked from it by ``relationship`` (by the ids the server gives them: no lookup either).
        Returns every record created, nested ones too, with the id the server gave it (``__id``)."""
        options = {"suggestTypes": True, "returnResult": True}
        if relationship:
            options["relationshipType"] = relationship
        made = self._import(label, rows, options, WRITE_CHUNK // 2 if relationship else WRITE_CHUNK, tx)
        sent = sum(1 + sum(isinstance(value, dict) for value in row.values()) for row in rows)
        if len(made) != sent:  # the server returns what it created when a call creates 1,000 or fewer
            raise RushDBError(f"{self.target.shown} created {sent} {label} records but returned {len(made)}")
        return made

    def upsert(self, label: str, rows: list[dict], merge_by: list[str], *, rewrite: bool = False,
               tx: Any = None) -> None:
        """Update (or create) ``rows`` of ``label``, matched on the properties ``merge_by``: merged
        into what is there (``append``), or replacing it whole (``rewrite``); in chunks."""
        options = {"mergeBy": list(merge_by), "mergeStrategy": "rewrite" if rewrite else "append",
                   "suggestTypes": True, "returnResult": False}
        self._import(label, rows, options, REWRITE_CHUNK if rewrite else WRITE_CHUNK, tx)

    def delete(self, label: str, where: Mapping[str, Any], *, tx: Any = None) -> None:
        """Delete the records of ``label`` matching ``where`` (whose ``$in`` lists must not be
        empty: nothing to delete is no call), with their relationships."""
        if any(isinstance(value, dict) and value.get("$in") == [] for value in where.values()):
            return
        self.call(f"delete {label} records", self.db.records.delete, {"labels": [label], "where": dict(where)},
                  transaction=tx)

    def _import(self, label: str, rows: list[dict], options: dict, size: int, tx: Any) -> list[dict]:
        made: list[dict] = []
        for start in range(0, len(rows), size):
            chunk = rows[start:start + size]
            answer = self.call(f"write {len(chunk)} {label} records", self.db.records.import_json, chunk, label,
                               options, transaction=tx)
            made += [record.data for record in getattr(answer, "data", None) or []]
        return made

    def attach(self, source: str, targets: Iterable[str], kind: str, *, direction: str = "out", tx: Any = None) -> None:
        """Relationships ``kind`` between the record ``source`` and each of ``targets`` (ids), from
        it (``out``) or to it (``in``); existing ones stay single. Both ends are found by id."""
        wanted = sorted(set(targets))
        for start in range(0, len(wanted), IN_CHUNK):
            self.call(f"link records ({kind})", self.db.records.attach, source, wanted[start:start + IN_CHUNK],
                      {"type": kind, "direction": direction}, transaction=tx)

    def detach(self, source: str, targets: Iterable[str], kind: str, *, direction: str = "out") -> None:
        """Remove the relationships ``kind`` between the record ``source`` and each of ``targets``
        (ids). Not inside a transaction: the server refuses that."""
        wanted = sorted(set(targets))
        for start in range(0, len(wanted), IN_CHUNK):
            self.call(f"unlink records ({kind})", self.db.records.detach, source, wanted[start:start + IN_CHUNK],
                      {"typeOrTypes": kind, "direction": direction})

    def link(self, source: Mapping[str, Any], target: Mapping[str, Any], kind: str) -> None:
        """Relationships ``kind`` from each ``source`` record to each ``target`` record whose keys
        match (``{"label", "key", "where"}`` each); existing ones stay single."""
        self.call(f"link {source['label']} to {target['label']} ({kind})", self.db.relationships.create_many,
                  source=dict(source), target=dict(target), type=kind, direction="out")

    def unlink(self, source: Mapping[str, Any], target: Mapping[str, Any], kind: str) -> None:
        """Remove every relationship ``kind`` from a ``source`` record to a ``target`` record
        (``{"label", "where"}`` each, both filters non-empty): one call, whatever the count."""
        self.call(f"unlink {source['label']} from {target['label']} ({kind})", self.db.relationships.delete_many,
                  source=dict(source), target=dict(target), type=kind, direction="out", many_to_many=True)

    # --- vectors --------------------------------------------------------------------------------

    def indexes(self) -> list[dict]:
        answer = self.call("list the embedding indexes", self.db.ai.indexes.find)
        return list(getattr(answer, "data", answer) or [])

    def create_index(self, spec: dict) -> dict:
        answer = self.call(f"create an embedding index on {spec['label']}.{spec['propertyName']}",
                           self.db.ai.indexes.create, spec)
        return getattr(answer, "data", answer) or {}

    def vector_search(self, params: dict) -> list[tuple[dict, float | None]]:
        """(record, similarity) pairs, best first."""
        answer = self.call(f"search {params['labels'][0]} by similarity", self.db.records.vector_search, params)
        return [(record.data, getattr(record, "score", None)) for record in answer.data]


def retrying(step: Callable[[], _T], *, attempts: int = 8, on_retry: Callable[[PdsmemError, float], None] | None = None,
             sleep: Callable[[float], None] = time.sleep) -> _T:
    """``step()``, tried again after a growing pause (0.5 s, doubling to 8 s: about 30 s in all,
    longer than a killed run's transaction can hold locks or memory) when RushDB is unreachable
    or fails with a 5xx (the writes are idempotent); the last failure is raised."""
    for attempt in range(1, attempts + 1):
        try:
            return step()
        except (RushDBUnreachable, RushDBServerError) as err:
            if attempt == attempts:
                err.message += f" (tried {attempts} times)"
                raise
            delay = min(0.5 * 2 ** (attempt - 1), 8.0)
            if on_retry:
                on_retry(err, delay)
            sleep(delay)
    raise AssertionError("unreachable")
