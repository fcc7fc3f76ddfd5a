"""The row a scope's rows hang from in RushDB, so that a sync reads its scope and not the project
(docs/rushdb.md, "Cost in a large project").

Scope: one ``PDSMEM_SCOPE`` row per scope and project (the five scope fields), and ``IN_SCOPE``
from every mirror of the scope and every memory row pdsmem wrote or merged into there. Finding
it (a search of its own label, which holds one row per scope: it reads few rows whatever the
project holds; then kept for the process), and making it the first time this version syncs a
scope into a project: what earlier versions wrote there (every mirror of the scope and the memory
rows they name) is read once, repaired (``sync_repair``), and linked to it in the transaction
that creates it. Reading the scope's rows is then a search of its neighbours, which the server
starts from its id (indexed).

That read searches the project. It is skipped in a project whose ``PDSMEM_PROJECT`` row says
that every pdsmem row there is linked to its scope's row, for a scope this machine never synced
into the project: the row is made with the first scope's row of a project that holds neither a
scope's row nor a mirror (an earlier version wrote mirrors and no scope's rows), and a search of
its own label, one row, finds it. A machine that synced the scope before (its state has a cursor)
may have done so with an earlier version after the project's row was made: it reads them.

Tricky bits:
- The row is made last, in one transaction with the links to everything found: a run killed
  before that leaves no row, and the next run reads the scope again. A row without its links
  never exists.
- Two rows for one scope (two machines made one at once, which docs/rushdb.md asks not to do)
  are merged: the other rows' links are made to the oldest (the smallest id: RushDB's ids are
  UUIDv7, time-ordered), then the others are deleted.
- Rows that an earlier version of pdsmem writes after this one made the row are not linked to it,
  nor found in a project with a ``PDSMEM_PROJECT`` row: do not sync a scope with both.
- A row made with nothing to link (a scope's first sync) keeps the keys of the rows the run
  links to it (``Anchor.written``, noted before each write, so a write tried again reads back what
  its first try may have made): a lookup of any other key needs no call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from pdsmem.mapping import rushdb_rows as rows

from ..rushdb.store import MemoryStore
from .sync_repair import repair

__all__ = ["Anchor", "Scopes"]


@dataclass
class Anchor:
    """The ``PDSMEM_SCOPE`` row of a scope (``id``), and what making it read: every mirror of the
    scope (``mirrors``, by key) and how many memory rows the repair wrote again or deleted."""

    id: str
    mirrors: dict[str, dict] | None = None  # only when made by this run
    repaired: int = 0
    # Made by this run with nothing of the scope to link: the keys of the rows linked to it since,
    # by label, noted by the sync before each write. Only those can be its neighbours, so a lookup
    # of others is answered without a call (a first sync reads nothing back: ``Scopes.held``).
    written: dict[str, set[str]] | None = None

    def note(self, label: str, keys: Iterable[str]) -> None:
        """Note that rows of ``label`` with these keys may be linked to the row from now on."""
        if self.written is not None:
            self.written.setdefault(label, set()).update(keys)


class Scopes:
    """Finds and makes the ``PDSMEM_SCOPE`` rows of one project, each found once per process."""

    def __init__(self, store: MemoryStore, retrying: Callable[[Callable[[], Any]], Any]) -> None:
        self.store, self.retrying = store, retrying

    def find(self, scope: Mapping[str, Any]) -> Anchor | None:
        """The scope's row, or None when this version has not synced the scope into the project.
        Found once per process (the store keeps its id), then read by id to be sure it is there."""
        name = _name(scope)
        known = self.store.remembered.get(name)
        if known is not None and self.retrying(lambda: self.store.get(known)) is not None:
            return Anchor(known)
        self.store.remembered.pop(name, None)
        found = sorted(self.retrying(lambda: list(self.store.find(rows.SCOPE, rows.scope_where(scope),
                                                                 order_by="agentId"))), key=lambda row: row["__id"])
        if not found:
            return None
        if len(found) > 1:
            self.retrying(lambda: self._merge(found[0]["__id"], [row["__id"] for row in found[1:]]))
        self.store.remembered[name] = found[0]["__id"]
        return Anchor(found[0]["__id"])

    def make(self, scope: Mapping[str, Any], *, synced_before: bool = False) -> Anchor:
        """Make the scope's row, after reading (and repairing) what earlier versions wrote there:
        unless the project's row says none did and this machine never synced the scope into the
        project (``synced_before``: an earlier version here may have, after the project's row was made)."""
        where = rows.scope_where(scope)

        def read() -> dict[str, dict]:
            return {m["mirrorKey"]: m for m in self.retrying(lambda: list(
                self.store.find(rows.MIRROR, where, order_by="mirrorKey")))}

        mirrors = {} if not synced_before and self._linked_from_the_start() else read()
        repaired, memories = 0, []
        if mirrors:  # every version wrote a mirror for each memory it wrote: no mirror, no row of pdsmem's
            if repaired := repair(self.store, scope, self.retrying):
                mirrors = read()  # the repair notes retired memories on the mirrors
            named: dict[str, set[str]] = {rows.FACT: set(), rows.EPISODE: set()}
            for mirror in mirrors.values():
                label = mirror.get("memoryLabel")
                if label in named:
                    named[label].update(name for name in [mirror.get("memoryId"), *(mirror.get(rows.RETIRED_IDS) or [])]
                                        if isinstance(name, str))
            for label, ids in named.items():
                if ids:
                    memories += list(self.retrying(lambda label=label, ids=ids: self.store.find_by(
                        label, rows.MERGE_KEY[label], ids, where)).values())
        linked = {row["__id"] for row in [*mirrors.values(), *memories]}
        anchor_id = self.retrying(lambda: self._create(scope, linked))
        self.store.remembered[_name(scope)] = anchor_id
        return Anchor(anchor_id, mirrors=mirrors, repaired=repaired, written=None if linked else {})

    def _linked_from_the_start(self) -> bool:
        """Whether every pdsmem row of the project is linked to its scope's row (the project's
        ``PDSMEM_PROJECT`` row says so): then no earlier version's rows are there to look for.
        The row is made here when the project holds no scope's row and no mirror: pdsmem never
        wrote there."""
        if self.store.remembered.get(rows.PROJECT):
            return True

        def holds(label: str, order_by: str) -> bool:
            return next(iter(self.store.find(label, {}, order_by=order_by, limit=1)), None) is not None

        def look() -> bool:
            if holds(rows.PROJECT, "scopeRowsSince"):
                return True
            if holds(rows.SCOPE, "agentId") or holds(rows.MIRROR, "mirrorKey"):
                return False  # rows of a version before the project's row: the scope's are read
            self.store.create(rows.PROJECT, [rows.project_row(datetime.now(timezone.utc).isoformat())])
            return True

        linked = bool(self.retrying(look))
        if linked:
            self.store.remembered[rows.PROJECT] = "yes"
        return linked

    def held(self, anchor: Anchor, label: str, values: Iterable[str], scope: Mapping[str, Any]) -> dict[str, dict]:
        """key → row, for the rows of ``label`` linked to the scope's row whose merge key is one of
        ``values``. The server filters on the key alone (each condition it compiles costs time
        whatever the data); the five scope fields are checked here."""
        key = rows.MERGE_KEY[label]
        if anchor.written is not None:  # only rows this run noted can be linked to it
            values = set(values) & anchor.written.get(label, set())
            if not values:
                return {}
        found = self.store.find_by(label, key, values, related=anchor.id)
        return {name: row for name, row in found.items() if rows.in_scope(row, scope)}

    def neighbours(self, anchor: Anchor, label: str, where: Mapping[str, Any], scope: Mapping[str, Any]) -> list[dict]:
        """Every row of ``label`` linked to the scope's row and matching ``where`` (and the scope)."""
        return [row for row in self.store.find(label, where, order_by=rows.MERGE_KEY[label], related=anchor.id)
                if rows.in_scope(row, scope)]

    def _create(self, scope: Mapping[str, Any], linked: set[str]) -> str:
        with self.store.transaction() as tx:
            [made] = self.store.create(rows.SCOPE, [rows.scope_row(scope)], tx=tx)
            if linked:
                self.store.attach(made["__id"], linked, rows.IN_SCOPE, direction="in", tx=tx)
        return made["__id"]

    def _merge(self, keep: str, others: list[str]) -> None:
        for other in others:
            held = {row["__id"] for label in rows.MERGE_KEY
                    for row in self.store.find(label, {}, order_by=rows.MERGE_KEY[label], related=other)}
            if held:
                self.store.attach(keep, held, rows.IN_SCOPE, direction="in")
        self.store.delete(rows.SCOPE, {"$id": {"$in": sorted(others)}})


def _name(scope: Mapping[str, Any]) -> tuple:
    return (rows.SCOPE, *rows.scope_row(scope).values())
