"""Repairing what earlier versions of pdsmem wrote into a scope, and what a killed sync left: run
once per scope and project, before the scope's ``PDSMEM_SCOPE`` row is made (``sync_scope``;
docs/rushdb.md, "What lands in RushDB"). Episode rows a killed run of this version leaves are
deleted by the sync that finishes it (``Syncer``).

Scope: memory rows of one scope that hold what the AgentMemoryEvent v1 schema forbids
(``retired``, ``supersedesFactIds``, an episode's ``active``) are written whole again without it,
nothing else lost: a retired memory's id goes to the mirror of the record that made it
(``retiredIds``), a fact's links to that mirror (``supersedesFactIds``, ``SUPERSEDES`` from the
mirror); a retired episode's row is deleted, its event kept on that mirror. And an episode row a
mirror lists as retired, which a sync killed between its commit and the deletion left, is deleted.

Tricky bits:
- The mirror of a retired memory is the one naming it (``memoryId``; a deleted record's), else
  the one whose at-uri is the memory's ``sourceEventId`` (a record imported as new data; an
  edit gave its mirror another memory). A retired episode with neither keeps its row (without
  ``active``: no history would be left of it).
- Each step is a write keyed by a deterministic id, then the deletion: a run killed half way is
  finished by the next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pdsmem.mapping import rushdb_rows as rows

from ..rushdb.store import MemoryStore

__all__ = ["repair"]


def repair(store: MemoryStore, scope: Mapping[str, Any], retrying: Callable[[Callable[[], Any]], Any], *,
           leftovers: bool = True) -> int:
    """Repair the scope's rows; returns how many memory rows were written again or deleted.
    Without ``leftovers`` (a sync that writes nothing else), only when some row holds what the
    schema forbids are the mirrors read."""
    where = rows.scope_where(scope)
    legacy = {
        rows.FACT: list(retrying(lambda: list(store.find(rows.FACT, {**where, "$or": [
            {"retired": {"$exists": True}}, {rows.LINKS: {"$exists": True}}]}, order_by="factId")))),
        rows.EPISODE: list(retrying(lambda: list(store.find(rows.EPISODE, {**where, "$or": [
            {"retired": {"$exists": True}}, {"active": {"$exists": True}}]}, order_by="eventId")))),
    }
    if not leftovers and not any(legacy.values()):
        return 0
    mirrors = list(retrying(lambda: list(store.find(rows.MIRROR, where, order_by="mirrorKey"))))
    made = {m.get("memoryId") for m in mirrors if not m.get("deleted")}
    left = sorted({i for m in mirrors if m.get("memoryLabel") == rows.EPISODE
                   for i in m.get(rows.RETIRED_IDS) or []} - made)
    if not any(legacy.values()) and not left:
        return 0
    by_memory = {m.get("memoryId"): m for m in mirrors}
    by_uri = {m.get("uri"): m for m in mirrors}
    changed: dict[str, dict] = {}  # mirrorKey → the mirror row to write
    rewrite: dict[str, list[dict]] = {rows.FACT: [], rows.EPISODE: []}
    drop: list[str] = []
    links: list[str] = []
    for label, found in legacy.items():
        for held in found:
            memory_id = held[rows.MERGE_KEY[label]]
            mirror = by_memory.get(memory_id) or by_uri.get(held.get("sourceEventId"))
            retired = held.get("retired") is True or (label == rows.EPISODE and held.get("active") is False)
            if mirror is not None:
                row = changed.setdefault(mirror["mirrorKey"], {
                    "mirrorKey": mirror["mirrorKey"], rows.LINKS: list(mirror.get(rows.LINKS) or []),
                    rows.RETIRED_IDS: list(mirror.get(rows.RETIRED_IDS) or []),
                    rows.RETIRED_EPISODES: mirror.get(rows.RETIRED_EPISODES) or "[]"})
                if retired and memory_id not in made:
                    rows.retire_on(row, label, held)
                if held.get(rows.LINKS) and mirror.get("memoryId") == memory_id and not mirror.get("deleted"):
                    row[rows.LINKS] = list(dict.fromkeys([*row[rows.LINKS], *held[rows.LINKS]]))
                    links.append(mirror["mirrorKey"])
            if label == rows.EPISODE and retired and mirror is not None and memory_id not in made:
                drop.append(memory_id)
            else:
                rewrite[label].append(rows.contract_part(label, held))
    retrying(lambda: _write(store, where, changed, rewrite, links, [f["factId"] for f in legacy[rows.FACT]
                                                                     if f.get(rows.LINKS)]))
    gone = sorted({*drop, *left})
    retrying(lambda: store.delete(rows.EPISODE, {**where, "eventId": {"$in": gone}}))
    return sum(len(part) for part in rewrite.values()) + len(gone)


def _write(store: MemoryStore, where: dict, mirrors: dict[str, dict], rewrite: dict[str, list[dict]],
           links: list[str], legacy_links: list[str]) -> None:
    with store.transaction() as tx:
        store.upsert(rows.MIRROR, list(mirrors.values()), rows.MERGE_BY[rows.MIRROR], tx=tx)
        for label, part in rewrite.items():
            store.upsert(label, part, rows.MERGE_BY[label], rewrite=True, tx=tx)
    if legacy_links:  # earlier versions linked fact to fact; the record's mirror links now
        store.unlink({"label": rows.FACT, "where": {**where, "factId": {"$in": sorted(legacy_links)}}},
                     {"label": rows.FACT, "where": where}, rows.SUPERSEDES)
    if links:
        store.link({"label": rows.MIRROR, "key": rows.LINKS, "where": {"mirrorKey": {"$in": sorted(links)}}},
                   {"label": rows.FACT, "key": "factId", "where": where}, rows.SUPERSEDES)
