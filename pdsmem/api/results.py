"""What the public API's runs return: reports, outcomes, recalls, statuses, and the protocols of
the objects it hands out. Plain dataclasses and protocols, as in ``pdsmem.api.values``; apart from
it so that mapping a memory (``convert``, ``ids``) does not build the classes of a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pdsmem.errors import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL

__all__ = [
    "PRUNE_SHARE", "SYNC_BATCH_SIZE", "FollowStatus", "Hit", "Memory", "Outcome", "Problem", "Prune", "Recall", "Report",
    "RushDB", "Session", "Verification",
]


@dataclass(frozen=True)
class Outcome:
    """What happened to one memory or record in a run.

    ``status``: created, updated, unchanged, duplicate, deleted, inactive, refused, failed or conflict.
    ``where`` names the item in its source (``memories.jsonl:3``, ``outbox/a.json``, an at-uri);
    ``reason`` never quotes a memory's text. ``known``: a failure an earlier run named already
    (the record is unchanged since), or a record pdsmem wrote whose deletion by the person an earlier
    run noted (it stays deleted: the run does not fail on it again).
    """

    status: str
    where: str
    uri: str | None = None
    memory_id: str | None = None
    reason: str | None = None
    cid: str | None = None
    unreadable: bool = False
    known: bool = False


SYNC_BATCH_SIZE = 500
"""Records ``sync`` writes per RushDB transaction unless told otherwise (halved for a batch the
server runs out of time on)."""

PRUNE_SHARE = 0.10
"""A prune deleting more than this share of its scope's records asks ``confirm_prune`` first."""


@dataclass(frozen=True)
class Prune:
    """What a prune would delete: ``candidates`` (at-uri, memory id) out of ``scope_records``."""

    candidates: list[tuple[str, str]]
    scope_records: int


@dataclass
class Report:
    """The outcome of an export, an import or a sync: the same object for each.

    ``counts`` by status; ``outcomes`` one per memory for an export, and the records that failed
    for an import or a sync; ``changes`` the import's JSON Lines objects when it returned them
    (``{"op", "event", "record", "links"}`` or ``{"op": "delete", "uri"}``); ``written`` what a
    sync wrote to RushDB; ``notes`` what the run chose not to do, and why.
    """

    kind: Literal["export", "import", "sync"]
    did: str
    dry_run: bool = False
    rev: str | None = None
    read: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    written: dict[str, int] = field(default_factory=dict)
    batches: int = 0
    prune_refused: bool = False

    def _with(self, status: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == status]

    @property
    def created(self) -> int:
        """How many memories (or records) were created."""
        return self.counts.get("created", 0)

    @property
    def unchanged(self) -> int:
        """How many were already as the source has them."""
        return self.counts.get("unchanged", 0)

    @property
    def refused(self) -> list[Outcome]:
        """The memories the privacy gate refused, each with its reason."""
        return self._with("refused")

    @property
    def conflicts(self) -> list[Outcome]:
        """The records changed or deleted on the PDS since pdsmem wrote them: left alone."""
        return self._with("conflict")

    @property
    def failed(self) -> list[Outcome]:
        """The memories or records that failed, each with its reason."""
        return self._with("failed")

    @property
    def problems(self) -> list[Outcome]:
        """Refused, failed and conflicting items, in the order of ``outcomes`` (as the run met them:
        an export meets a memory that fails to map before those the gate refuses)."""
        return [o for o in self.outcomes if o.status in ("refused", "failed", "conflict")]

    def exit_code(self, *, allow_refused: bool = False) -> int:
        """The command line's exit code for this report: 0 all done, 3 partly done, 1 nothing
        done. ``allow_refused``: refusals alone are no problem. Failures an earlier run named
        (``Outcome.known``) are none either."""
        problems = [o for o in self.problems if not (allow_refused and o.status == "refused") and not o.known]
        if not problems and not self.prune_refused:
            return EXIT_OK
        if self.kind == "export":
            done = len(self.outcomes) - len(self.problems)
            return EXIT_PARTIAL if done or self.prune_refused else EXIT_FAILED
        done = any(n for name, n in self.counts.items() if name != "failed")
        return EXIT_PARTIAL if done else EXIT_FAILED


@dataclass(frozen=True)
class Problem:
    """A record a verification found at fault: its at-uri and why."""

    uri: str
    reason: str


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: the commit (signature, MST, blocks verified) and the records.

    ``broken``: record blocks missing or not valid (not DAG-CBOR in atproto's data model, not a
    map, no ``$type``): the repository fails;
    ``invalid``: records not valid for their type (the repository itself is sound)."""

    did: str
    rev: str
    commit: str
    records: int
    memory_records: int
    broken: list[Problem]
    invalid: list[Problem]

    @property
    def verified(self) -> bool:
        """Whether the repository verifies: no broken record block."""
        return not self.broken


@dataclass(frozen=True)
class Hit:
    """One recalled memory: its label (EPISODE or MEMORY_FACT), id, text and similarity."""

    label: str
    id: str
    text: str
    score: float | None
    event: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"label", "id", "text", "score"}``."""
        return {"label": self.label, "id": self.id, "text": self.text, "score": self.score}


@dataclass(frozen=True)
class Recall:
    """What ``recall`` found, best first; ``method`` is ``vector`` or ``words``."""

    hits: list[Hit]
    method: str
    notes: list[str]

    def as_context(self) -> str:
        """The memories as an agent receives them: under a notice that they are untrusted
        historical context, not instructions, each text quoted. An empty string when nothing was
        found: never the notice alone."""
        if not self.hits:
            return ""
        from pdsmem.mapping.rushdb_rows import format_recall

        return format_recall([hit.to_json() for hit in self.hits])


@dataclass(frozen=True)
class FollowStatus:
    """What a follow tells: ``state`` (connecting, connected, syncing, paused, reconnecting,
    stopped), the last event handled (``seq``, ``event_time``), events waiting (``behind``),
    why (``note``), and the last sync's counts (``synced``); ``skipped``: records the last sync
    skipped that no earlier sync named; ``notes``: what the last sync noted (a record whose text
    looks like a secret, by its at-uri), told once."""

    state: str
    seq: int | None = None
    event_time: str | None = None
    behind: int = 0
    note: str = ""
    synced: Mapping[str, int] = field(default_factory=dict)
    skipped: tuple[Outcome, ...] = ()
    notes: tuple[str, ...] = ()


@runtime_checkable
class Session(Protocol):
    """A signed-in account (``sign_in``): its DID, handle and PDS. Close it, or use it in a
    ``with`` block; the tokens it renews are stored in the state directory. ``isinstance(x,
    Session)`` tells whether ``x`` has its attributes."""

    @property
    def did(self) -> str: ...

    @property
    def handle(self) -> str: ...

    @property
    def pds_url(self) -> str: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> Any: ...


@dataclass(frozen=True)
class Memory:
    """One memory of a scope as RushDB holds it (``list_memories``), and where it came from."""

    label: str  # MEMORY_FACT | EPISODE
    id: str  # factId | eventId
    active: bool  # a fact's ``active``; an episode is inactive once pdsmem deactivated it
    retired: bool  # its record was deleted from the repository, or edited into another memory
    kind: str  # a fact's kind; "episode"
    at: str  # validFrom | observedAt
    runtime: str
    provenance: str
    records: list[dict[str, Any]] = field(default_factory=list)  # {"uri", "cid", "deleted"} it was synced from
    supersedes: list[str] = field(default_factory=list)  # the factIds a fact supersedes
    text: str = ""  # the fact's text, the episode's summary: data, never for a message

    def to_json(self) -> dict[str, Any]:
        """The memory as ``pdsmem list --json`` prints it, its fields in order."""
        return asdict(self)


@runtime_checkable
class RushDB(Protocol):
    """A RushDB project (``rushdb``): where scoped memories live. ``isinstance(x, RushDB)`` tells
    whether ``x`` has its methods."""

    def check(self) -> dict[str, Any]: ...

    def indexes(self) -> list[dict[str, Any]]: ...

    @property
    def target(self) -> Any: ...
