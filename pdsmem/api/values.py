"""The values the public API takes and returns: plain frozen dataclasses and protocols.

Nothing here does I/O or imports more than the standard library and ``pdsmem.errors``, so that
``import pdsmem`` stays cheap. The API converts the bridge's own objects into these values; what
the bridge returns otherwise is private and may change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from pdsmem.errors import EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, PdsmemError, UsageError

__all__ = [
    "PRUNE_SHARE", "SYNC_BATCH_SIZE", "Failure", "FollowStatus", "Hit", "Mapped", "Memory", "Outcome", "Problem", "Prune", "Recall", "Record", "Refusal",
    "Report", "RushDB", "Scope", "Session", "Verification",
]

@dataclass(frozen=True)
class Scope:
    """The trusted scope memories are read into and recalled from: configuration, never read
    from records (docs/decisions.md, decision 2).

    ``participant_hash`` is the participant scope hash as an agent runtime wrote it;
    ``participant_parts`` are the parts it hashes (hashed here with ``salt``, as the contract's
    ``hashScope`` does); with neither, the participant is the repository owner, the hash of
    ``["atproto", did]`` with ``salt``. An empty ``salt`` is refused there unless
    ``accept_unsalted`` says that anyone who guesses the ids may then forge this scope's records.
    """

    agent_id: str
    profile_id: str
    privacy_scope: Literal["shared", "private"] = "shared"
    participant_hash: str | None = None
    participant_parts: tuple[str, ...] | None = None
    sandbox_eligible: bool = False
    salt: str = field(default="", repr=False)
    accept_unsalted: bool = False

    def __post_init__(self) -> None:
        if not self.agent_id or not self.profile_id:
            raise UsageError("a scope needs a non-empty agent_id and profile_id")
        if self.privacy_scope not in ("shared", "private"):
            raise UsageError(f'privacy_scope must be "shared" or "private", not {self.privacy_scope!r}')
        if self.participant_hash is not None and self.participant_parts is not None:
            raise UsageError("give participant_hash or participant_parts, not both")
        if self.participant_hash is not None and not _is_hex64(self.participant_hash):
            raise UsageError("participant_hash must be 64 lowercase hexadecimal digits, as agent runtimes "
                             "write the hash")

    @property
    def participant(self) -> str | None:
        """The participant hash the scope names by itself (given, or hashed from its parts);
        None when it is the repository owner's, known only with a DID."""
        if self.participant_parts is not None:
            return _hash_scope(self.participant_parts, self.salt)
        return self.participant_hash

    def participant_for(self, did: str) -> str:
        """The participant hash for the repository of ``did``. Raises ``UsageError`` when it is
        the DID's hash and the scope has no salt and did not ``accept_unsalted``."""
        own = self.participant
        if own is not None:
            return own
        if not self.salt and not self.accept_unsalted:
            raise UsageError(
                "no salt for the participant scope hash",
                hint="give the scope the salt your agents use (MEMORY_SCOPE_SALT), or accept_unsalted=True to "
                "accept that anyone who guesses the agent and profile ids can forge a record of this scope",
            )
        return _hash_scope(("atproto", did), self.salt)

    def fields(self, did: str | None = None) -> dict[str, Any]:
        """The five scope fields of an AgentMemoryEvent of this scope (``did``: the participant's
        repository, needed when the scope names no participant of its own)."""
        if did is None and self.participant is None:
            raise UsageError("this scope's participant is a repository owner: give the DID")
        participant = self.participant if did is None else self.participant_for(did)
        return {"agentId": self.agent_id, "profileId": self.profile_id, "privacyScope": self.privacy_scope,
                "participantScopeHash": participant, "sandboxEligible": self.sandbox_eligible}


def _is_hex64(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def _hash_scope(parts: tuple[str, ...], salt: str) -> str:
    """The contract's ``hashScope`` of ``parts`` with ``salt``."""
    from pdsmem.mapping.contract_ids import hash_scope

    return hash_scope(parts, salt)


@dataclass(frozen=True)
class Record:
    """A record as ``com.atproto.repo.listRecords`` shows it: its at-uri, CID and value."""

    uri: str
    cid: str
    value: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """``{"uri", "cid", "value"}``."""
        return {"uri": self.uri, "cid": self.cid, "value": self.value}


@dataclass(frozen=True)
class Mapped:
    """A record mapped to an AgentMemoryEvent, with the record itself and its links."""

    event: dict[str, Any]
    record: Record
    supersedes: list[str] = field(default_factory=list)
    supersedes_fact_ids: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """``{"event", "record", "links"}``, as ``pdsmem convert from-record`` prints it;
        ``to_record`` takes it back and returns the record unchanged."""
        from pdsmem.mapping.records import imported_json

        return imported_json(self)


@dataclass(frozen=True)
class Failure:
    """An item of a batch that could not be mapped: its position in the input, and why."""

    position: int
    error: PdsmemError


@dataclass(frozen=True)
class Refusal:
    """Why the privacy gate refuses a memory: named by its id and field, never by its words."""

    memory_id: str
    reason: str
    field: str | None = None
    hint: str | None = None
    sensitive: bool = False  # the text looks like a secret, a personal number, output or a path


@dataclass(frozen=True)
class Outcome:
    """What happened to one memory or record in a run.

    ``status``: created, updated, unchanged, duplicate, deleted, refused, failed or conflict.
    ``where`` names the item in its source (``memories.jsonl:3``, ``outbox/a.json``, an at-uri);
    ``reason`` never quotes a memory's text. ``known``: a failure an earlier run named already
    (the record is unchanged since).
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
        """Refused, failed and conflicting items, in input order."""
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

    ``broken``: record blocks missing or not matching their CID (the repository fails);
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
    skipped that no earlier sync named."""

    state: str
    seq: int | None = None
    event_time: str | None = None
    behind: int = 0
    note: str = ""
    synced: Mapping[str, int] = field(default_factory=dict)
    skipped: tuple[Outcome, ...] = ()


class Session(Protocol):
    """A signed-in account (``sign_in``): its DID, handle and PDS. Close it, or use it in a
    ``with`` block; the tokens it renews are stored in the state directory."""

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


class RushDB(Protocol):
    """A RushDB project (``rushdb``): where scoped memories live."""

    def check(self) -> dict[str, Any]: ...

    def indexes(self) -> list[dict[str, Any]]: ...

    @property
    def target(self) -> Any: ...
