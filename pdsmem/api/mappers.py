"""The mappers, offline: an AgentMemoryEvent to the record pdsmem writes for it and back, the
ids and CIDs, and the privacy gate (docs/mapping.md is the field-by-field specification).

Each call maps in memory: none reads or writes a file, a PDS or RushDB. The mapping code is
imported when first called, so that importing the API costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pdsmem.api.arguments import described
from pdsmem.api.values import Failure, Mapped, Record, Refusal, Scope
from pdsmem.errors import PrivacyRefused, SensitiveContent, UsageError

if TYPE_CHECKING:
    from pdsmem.mapping.records import Imported, ImportScope, RecordView

__all__ = [
    "check_privacy", "from_record", "from_records", "memory_id", "record_cid", "sensitive_reason", "to_record",
    "to_records", "with_ids",
]

_GATE_DID = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"  # any DID: the gate's verdict does not depend on it



def _record(view: RecordView) -> Record:
    return Record(uri=view.uri, cid=view.cid, value=view.value)


def _mapped(item: Imported) -> Mapped:
    return Mapped(event=item.event, record=_record(item.record), supersedes=item.supersedes,
                  supersedes_fact_ids=item.supersedes_fact_ids, notes=item.notes)


def _plain(item: Any) -> Any:
    """A ``Mapped`` or ``Record`` as the JSON the mapping reads; anything else as it is."""
    if isinstance(item, (Mapped, Record)):
        return item.to_json()
    return item


def with_ids(event: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``event`` completed with ``schemaVersion``, ``eventType`` and its ``eventId``
    or ``factId``, checked against the AgentMemoryEvent v1 contract.

    Raises ``ContractError`` when the event does not match the contract or an id it holds is not
    the computed one. Never changes ``event``."""
    from pdsmem.mapping.contract import with_ids as complete

    return complete(event)


def memory_id(event: Mapping[str, Any]) -> str:
    """The memory's id: the ``factId`` of a fact, the ``eventId`` of an episode (computed when
    absent). Raises ``ContractError`` as ``with_ids`` does."""
    completed = with_ids(event)
    return str(completed["factId"] if completed["eventType"] == "fact" else completed["eventId"])


def record_cid(value: Mapping[str, Any]) -> str:
    """The CID a PDS gives a record with this value (DAG-CBOR, SHA-256). Raises
    ``DataModelError`` for a value outside the atproto data model."""
    from pdsmem.errors import DataModelError
    from pdsmem.mapping.datamodel import cid_text_for_json, unsafe_integer

    unsafe = unsafe_integer(value)
    if unsafe is not None:  # a PDS refuses the record, so it never has this CID
        raise DataModelError(unsafe[1], path="$" + unsafe[0])
    return str(cid_text_for_json(value))


def to_record(event: Mapping[str, Any] | Mapped, did: str, *, publish_private: bool = False,
              include_transcript: bool = False, known_uris: Mapping[str, str] | None = None) -> Record:
    """The record pdsmem writes for ``event`` in the repository of ``did``: its at-uri, CID and
    value, as an export would write it.

    ``event`` is an AgentMemoryEvent (its ids may be left out), or what ``from_record`` returned:
    then the record is patched, not rebuilt, and a record read and mapped back unchanged keeps its
    CID. ``known_uris`` maps fact ids to the at-uris of their records (for ``supersedesFactId``).
    Raises ``ContractError`` (not a valid event), ``PrivacyRefused`` (the privacy gate: a private
    memory without ``publish_private``, a transcript without ``include_transcript``,
    ``SensitiveContent`` whatever the flags), ``RecordInvalid`` (a record its lexicon refuses: a text
    over 10,000 bytes) or ``MappingError``; the message names the memory by its id, never by its
    words. Never writes anything."""
    from pdsmem.mapping.to_record import to_record as map_one

    return _record(map_one(_plain(event), did, publish_private=publish_private,
                           include_transcript=include_transcript, known_uris=known_uris))


def to_records(events: Iterable[Mapping[str, Any] | Mapped], did: str, *, publish_private: bool = False,
               include_transcript: bool = False, known_uris: Mapping[str, str] | None = None,
               ) -> tuple[list[Record], list[Failure]]:
    """Map a batch as ``to_record`` maps one; a fact's ``supersedesFactId`` resolves against the
    batch's own facts first. Returns the records in input order and the items that failed (their
    positions and errors); raises nothing for a bad item."""
    from pdsmem.mapping.to_record import to_records as map_all

    records, failures = map_all([_plain(event) for event in events], did, publish_private=publish_private,
                                include_transcript=include_transcript, known_uris=known_uris)
    return [_record(view) for view in records], [Failure(f.position, f.error) for f in failures]


def _import_scope(did: str, scope: Scope) -> ImportScope:
    from pdsmem.mapping.records import ImportScope

    participant = scope.participant
    if participant is None:
        scope.participant_for(did)  # refuses an unsalted scope the caller did not accept
    return ImportScope(did=did, agent_id=scope.agent_id, profile_id=scope.profile_id, salt=scope.salt,
                       privacy_scope=scope.privacy_scope, sandbox_eligible=scope.sandbox_eligible,
                       participant=participant)


def from_record(record: Record | Mapping[str, Any], did: str, scope: Scope) -> Mapped:
    """Map one record of ``did``'s repository (``{uri, cid, value}``, as ``listRecords`` returns
    it) to an AgentMemoryEvent of ``scope``.

    The scope fields, trust and ids come from ``scope`` and the record's at-uri, never from the
    record's own fields (the ids of an extension pdsmem wrote for this very scope are kept). Raises
    ``MappingError`` (another repository's record, a record of another type, a CID that is not its
    value's), ``RecordInvalid`` (not valid for its lexicon) or ``UsageError`` (an unsalted scope
    not accepted). Never reads the network."""
    from pdsmem.mapping.from_record import from_record as map_back

    return _mapped(map_back(_plain(record), _import_scope(did, scope)))


def from_records(records: Iterable[Record | Mapping[str, Any]], did: str, scope: Scope,
                 ) -> tuple[list[Mapped], list[Failure]]:
    """Map a batch as ``from_record`` maps one; supersession inside the batch deactivates the
    superseded facts. Returns the events and the records that failed; raises only ``UsageError``
    for the scope."""
    from pdsmem.mapping.from_record import from_records as map_all

    mapped, failures = map_all([_plain(record) for record in records], _import_scope(did, scope))
    return [_mapped(item) for item in mapped], [Failure(f.position, f.error) for f in failures]


def check_privacy(event: Mapping[str, Any] | Mapped, *, publish_private: bool = False,
                  include_transcript: bool = False) -> Refusal | None:
    """Whether the privacy gate refuses ``event`` for a public repository, and why: None when an
    export would write it, else a ``Refusal`` naming the memory by its id and the field at fault.

    The gate is export's own (docs/reliability.md, "The privacy gate"): a private memory (unless
    ``publish_private``), an episode whose summary repeats its turn (unless
    ``include_transcript``), and any text that looks like a secret, a credential, a personal
    number, command output or a local path (whatever the flags). A fact that supersedes another
    is checked as any other (where the superseded fact's record is, the gate does not ask). Raises
    ``ContractError`` when ``event`` is not a valid AgentMemoryEvent, ``RecordInvalid`` when the gate
    lets it pass but its record would not be valid (a text over 10,000 bytes: export fails it),
    ``UsageError`` for what is no event at all (a text: ``sensitive_reason`` takes one). Never quotes
    the memory's text."""
    from pdsmem.errors import RecordInvalid

    if isinstance(event, Mapped):  # what from_record returned: its event
        event = event.event
    if not isinstance(event, Mapping):
        raise UsageError(f"the event is {described(event)}, not an AgentMemoryEvent (a dict)",
                         hint="check_privacy takes one event; sensitive_reason(text) takes a text")
    try:
        from pdsmem.lexicons import RECORD_NSID

        prior = event.get("supersedesFactId")
        known = {prior: f"at://{_GATE_DID}/{RECORD_NSID}/3jzfcijpj2z2a"} if isinstance(prior, str) else None
        to_record(event, _GATE_DID, publish_private=publish_private, include_transcript=include_transcript,
                  known_uris=known)
    except PrivacyRefused as err:
        return Refusal(memory_id=memory_id(event), reason=err.message, field=err.path, hint=err.hint,
                       sensitive=isinstance(err, SensitiveContent))
    except RecordInvalid as err:  # named by the memory's id, not by the stand-in repository's at-uri
        raise RecordInvalid(err.message, path=err.path, item=f"memory {memory_id(event)}", hint=err.hint) from None
    return None


def sensitive_reason(text: str) -> str | None:
    """Why the privacy gate would keep ``text`` off a public repository, whatever the flags (it
    looks like a secret, a credential, a personal number, command output or a local path: "looks
    like a PIN or a lock's code"), or None. The reason never quotes the text. ``check_privacy``
    asks it of each text an event would publish; a tool that shows a memory's words where others
    may see them (``pdsmem list``'s table) can withhold the ones it names."""
    from pdsmem.mapping import privacy

    if not isinstance(text, str):
        raise UsageError(f"the text is {described(text)}, not a string",
                         hint="sensitive_reason takes one text; check_privacy(event) takes an event")
    return privacy.sensitive_reason(text)
