"""The values the public API's mappers take and return: plain frozen dataclasses. What its runs
return is in ``pdsmem.api.results``.

Nothing here does I/O or imports more than the standard library and ``pdsmem.errors``, so that
``import pdsmem`` stays cheap. The API converts the bridge's own objects into these values; what
the bridge returns otherwise is private and may change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pdsmem.errors import PdsmemError, UsageError, kind_of

__all__ = ["Failure", "Mapped", "Record", "Refusal", "Scope"]


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
        for name in ("agent_id", "profile_id"):
            value = getattr(self, name)
            if not isinstance(value, str):
                raise UsageError(f"{name} must be a string, not {kind_of(value)}")
            if value != value.strip() or not value.isprintable():
                raise UsageError(f"{name} {value!r} starts or ends with a space, or holds a line break or another "
                                 f"control character", hint="give the id as the agent runtime writes it, trimmed")
        if not self.agent_id or not self.profile_id:
            raise UsageError("a scope needs a non-empty agent_id and profile_id")
        if not isinstance(self.salt, str):
            raise UsageError(f"salt must be a string, not {kind_of(self.salt)}")
        if not isinstance(self.sandbox_eligible, bool):
            raise UsageError(f"sandbox_eligible must be True or False, not {kind_of(self.sandbox_eligible)}")
        if self.participant_parts is not None:
            if isinstance(self.participant_parts, str) or not all(isinstance(part, str) for part in self.participant_parts):
                raise UsageError("participant_parts must be a sequence of strings, not a single string",
                                 hint='participant_parts=("user-77",) for one part')
            object.__setattr__(self, "participant_parts", tuple(self.participant_parts))
        if self.privacy_scope not in ("shared", "private"):
            raise UsageError(f'privacy_scope must be "shared" or "private", not {self.privacy_scope!r}')
        if self.participant_hash is not None and self.participant_parts is not None:
            raise UsageError("give participant_hash or participant_parts, not both")
        if self.participant_parts is not None and not self.salt and not self.accept_unsalted:
            raise UsageError("participant_parts are hashed with the salt: give a salt, or accept_unsalted=True to "
                             "accept that anyone who knows the parts can compute the hash")
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
