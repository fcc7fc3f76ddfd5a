"""Event → record (export side); see docs/mapping.md, "Event → record".

``to_record`` maps one AgentMemoryEvent (or a ``from_record`` result, which is patched in place of
being rebuilt) to a ``RecordView``; ``to_records`` maps a batch and resolves ``supersedesFactId``
against the batch itself plus ``known_uris``.

Every new record goes through the same checks, in order: the event against the contract (with its
id), the privacy gate, the record against the lexicons, then its CID. Each value is computed once
per memory (the record key and at-uri, the parsed time) and handed on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pdsmem.errors import MappingError, PdsmemError, PrivacyRefused, RecordInvalid, SensitiveContent
from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_text_for_json, unsafe_integer
from pdsmem.mapping.privacy import check_publishable, sensitive_reason
from pdsmem.mapping.records import (
    EXT_KEY,
    ItemFailure,
    RecordView,
    _check_datetime,
    _proof,
    checked_extension,
    confidence_from_string,
    confidence_to_string,
    default_lexicons,
    memory_id,
    recognised,
    record_key,
)
from pdsmem.mapping.syntax import AtUri, Datetime, Did, Tid

_FACT_EXT = ("subjectKey", "sourceEventId", "validFrom", "validUntil", "visibility", "trustClass", "provenance")
_EPISODE_EXT = (
    "sourceEventId",
    "visibility",
    "trustClass",
    "provenance",
    "externalSessionId",
    "turnIndex",
    "conversationKind",
    "originClass",
    "channelIdHash",
)


def prepare_item(item: Any) -> tuple[dict, RecordView | None]:
    """Split an input into (validated event with ids, source record or None)."""
    if not isinstance(item, Mapping):
        raise MappingError("expected an AgentMemoryEvent object or a from-record object {event, record}")
    source = None
    if "event" in item and "record" in item:
        source = RecordView.from_json(item["record"])
        item = item["event"]
        if not isinstance(item, Mapping):
            raise MappingError("'event' must be an object", path="$.event")
    key = "factId" if item.get("eventType") == "fact" else "eventId"
    if source is not None and item.get(key):
        # An episode that came from a record keeps the id it was imported with: a recognised
        # episode's id covers a transcript the record may not carry. A fact's id is all in the
        # record, so it follows an edit of its text, kind or subject.
        event = dict(item)
        contract.check_event(event)
        if key == "factId":
            event["factId"] = contract.fact_id(event)
        return event, source
    return contract.with_ids(item), source  # a copy


def _extension(event: Mapping, *, include_transcript: bool) -> dict:
    fact = event["eventType"] == "fact"
    ext: dict[str, Any] = {"eventType": event["eventType"], "id": memory_id(event), "runtime": event["runtime"]}
    for name in _FACT_EXT if fact else _EPISODE_EXT:
        if event.get(name) is not None:
            ext[name] = event[name]
    if fact:
        ext["confidence"] = confidence_to_string(event["confidence"])
    else:
        ext["turnIndex"] = _turn_index(event["turnIndex"])
        if include_transcript:
            ext["transcript"] = {"userText": event["userText"], "assistantText": event["assistantText"]}
    return ext


def _turn_index(value: int | float) -> int:
    """The contract's turn index (7 or 7.0) as the integer the record holds."""
    unsafe = unsafe_integer(int(value))
    if unsafe is not None:
        raise MappingError(f"turnIndex: {unsafe[1]}", path="$.turnIndex", hint="number the turns of a session from 0")
    return int(value)


# Every text an exported record publishes, besides the content: each goes through the gate too.
_PUBLISHED = {
    "fact": ("text", "subjectKey", "sourceEventId", "provenance", "kind"),
    "episode": ("summary", "sourceEventId", "provenance", "externalSessionId", "originClass"),
}


def publishable_texts(event: Mapping, *, include_transcript: bool) -> dict[str, str]:
    """Each text of ``event`` that its record holds, by field: what the gate checks before an export,
    and what an import notes a secret in (the record is public already)."""
    names = _PUBLISHED[event["eventType"]]
    if include_transcript and event["eventType"] == "episode":
        names += ("userText", "assistantText")
    return {name: event[name] for name in names if isinstance(event.get(name), str)}


def _named(fact_id: object) -> str:
    """A fact id as a message may show it: itself when it is one (64 hex digits), else only its
    length, since a message never quotes what may be a memory's words."""
    if isinstance(fact_id, str) and contract.is_fact_id(fact_id):
        return fact_id
    return f"(an id of {len(fact_id) if isinstance(fact_id, str) else 0} characters that is no fact id)"


def _supersedes_uri(event: Mapping, known_uris: Mapping[str, str]) -> list[str]:
    prior = event.get("supersedesFactId")
    if not prior or event["eventType"] != "fact":
        return []
    if prior == event["factId"]:
        raise MappingError(
            f"memory {prior} supersedes itself", path="$.supersedesFactId",
            hint="a fact can only supersede an earlier, different fact",
        )
    uri = known_uris.get(prior)
    if uri is None:
        raise MappingError(
            f"memory {event['factId']} supersedes fact {_named(prior)}, whose record is unknown",
            path="$.supersedesFactId",
            hint="export the superseded fact in the same run, or from a source that has it",
        )
    return [uri]


def _validate(value: dict, uri: str) -> None:
    lexicons = default_lexicons()
    try:
        lexicons.validate_record(RECORD_NSID, value)
        ext = value.get(EXT_KEY)
        if ext is not None:
            lexicons.validate_value(EXTENSION_NSID, ext)
    except RecordInvalid as err:
        err.uri = uri
        raise


def _record_uri(did: Did, key: Tid) -> str:
    """``at://did/<record collection>/key``: every part is already valid, nothing to re-check."""
    return f"at://{did}/{RECORD_NSID}/{key}"


def _planned_uri(event: Mapping, did: Did) -> str | None:
    """The at-uri a new memory gets (attempt 0), or None when its time cannot make a record key
    (mapping it then reports why)."""
    try:
        created_at = Datetime.parse(event["validFrom" if event["eventType"] == "fact" else "observedAt"])
        if created_at.year == 0:  # _check_datetime refuses it
            return None
        return _record_uri(did, record_key(created_at, memory_id(event)))
    except PdsmemError:  # not a datetime, or before 1970
        return None


def _record_value(event: Mapping, created_at: str, known_uris: Mapping[str, str]) -> dict[str, Any]:
    """A new record's value, without its extension."""
    fact = event["eventType"] == "fact"
    value: dict[str, Any] = {
        "$type": RECORD_NSID,
        "content": event["text"] if fact else event["summary"],
        "createdAt": created_at,
        "kind": event["kind"] if fact else "context",
        "provenance": {"agent": event["runtime"]},
    }
    supersedes = _supersedes_uri(event, known_uris)
    if supersedes:
        value["supersedes"] = supersedes
    return value


def _new_record(
    event: dict,
    did: Did,
    *,
    include_transcript: bool,
    known_uris: Mapping[str, str],
    attempt: int,
    uri: str | None = None,
) -> RecordView:
    """A new record; ``uri``, when given, is ``_planned_uri`` of the event (its time is valid)."""
    fact = event["eventType"] == "fact"
    mid = memory_id(event)
    if uri is None:
        created_at = _check_datetime(event, "validFrom" if fact else "observedAt", mid)
        uri = _record_uri(did, record_key(created_at, mid, attempt))
    else:
        created_at = event["validFrom" if fact else "observedAt"]
    if fact and event.get("validUntil") is not None:
        _check_datetime(event, "validUntil", mid)
    value = _record_value(event, created_at, known_uris)
    ext = _extension(event, include_transcript=include_transcript)
    ext["proof"] = _proof(uri, event, value, ext)
    value[EXT_KEY] = ext
    _validate(value, uri)
    return RecordView(uri=uri, cid=cid_text_for_json(value), value=value)


def _derived_fields(value: Mapping, ext: Mapping) -> dict:
    """The scope-free fields ``from_record`` derives from a record value and its checked
    extension (to detect changes)."""
    kind = value.get("kind") if isinstance(value.get("kind"), str) and value.get("kind") else "fact"
    return {
        "content": value.get("content"),
        "kind": kind,
        "subjectKey": ext.get("subjectKey"),
        "confidence": confidence_from_string(ext.get("confidence")),
        "validUntil": ext.get("validUntil"),
    }


def _patched_record(
    event: dict, source: RecordView, *, known_uris: Mapping[str, str], uri: str | None = None,
    value: Mapping[str, Any] | None = None,
) -> RecordView:
    """Apply to ``source`` only what ``event`` changed; unchanged events keep the same CID.

    Only pdsmem's own extension, written from the event's scope and unedited, is patched and
    proved again. Any other (another scope's, edited, forged, invalid) is left as it is, or
    replaced by the event's own when an extension field changes: re-proving it would make its
    ids and trust fields hold for this scope. ``uri`` and ``value``, for a copy (``_copied``):
    where the record goes and what it starts from, when not the source's own.
    """
    uri = uri or source.uri
    moved = uri != source.uri
    copied = value is not None
    value = dict(source.value if value is None else value)
    ext_in, _ = checked_extension(value)
    old = _derived_fields(source.value, ext_in)
    fact = event["eventType"] == "fact"
    content = event["text"] if fact else event["summary"]
    changed = False
    if content != old["content"]:
        value["content"], changed = content, True
    if fact and event["kind"] != old["kind"]:
        value["kind"], changed = event["kind"], True
    own = checked_extension(source.value)[0] if copied else ext_in
    ext = dict(ext_in) if recognised(source.uri, source.value, own, event) else None
    if ext is not None and ext["id"] != memory_id(event):  # the text, kind or subject changed
        ext["id"], changed = memory_id(event), True
    if fact:
        wanted = {
            "subjectKey": event["subjectKey"] if event["subjectKey"] != source.uri else old["subjectKey"],
            "confidence": event["confidence"],
            "validUntil": event.get("validUntil"),
        }
        for name, new in wanted.items():
            if new != old[name] and not (name == "confidence" and old[name] is None and new == 0.5):
                ext = ext if ext is not None else _extension(event, include_transcript=False)
                ext[name] = confidence_to_string(new) if name == "confidence" else new
                if new is None:
                    ext.pop(name)
                changed = True
        for link in _supersedes_uri(event, known_uris) if event.get("supersedesFactId") else []:
            current = list(value.get("supersedes") or [])
            if link not in current:
                value["supersedes"], changed = current + [link], True
    if not changed and not moved:
        return source
    if ext is not None:
        ext["proof"] = _proof(uri, event, value, ext)
        value[EXT_KEY] = ext
    _validate(value, uri)
    return RecordView(uri=uri, cid=cid_text_for_json(value), value=value)


def to_record(
    item: Any,
    did: str,
    *,
    publish_private: bool = False,
    include_transcript: bool = False,
    known_uris: Mapping[str, str] | None = None,
    attempt: int = 0,
) -> RecordView:
    """Map one event (or ``from_record`` object) to the record pdsmem writes for it."""
    Did.parse(did)
    event, source = prepare_item(item)
    return map_prepared(
        event,
        source,
        did,
        publish_private=publish_private,
        include_transcript=include_transcript,
        known_uris=known_uris or {},
        attempt=attempt,
    )


def map_prepared(
    event: dict,
    source: RecordView | None,
    did: str,
    *,
    publish_private: bool,
    include_transcript: bool,
    known_uris: Mapping[str, str],
    attempt: int = 0,
    template: RecordView | None = None,
    moved_uris: Mapping[str, str] | None = None,
) -> RecordView:
    """``to_record`` for an input already split by ``prepare_item``. ``template``: the record of
    another repository the memory came from, when it goes to this one as a copy (``copy_uri``,
    ``_copied``); ``moved_uris`` maps the at-uris of that repository's records copied here to
    their copies' at-uris."""
    if source is None and template is not None:
        return _copied(event, template, Did.parse(did), publish_private=publish_private,
                       include_transcript=include_transcript, known_uris=known_uris, moved_uris=moved_uris or {})
    return _map(
        event,
        source,
        Did.parse(did),
        publish_private=publish_private,
        include_transcript=include_transcript,
        known_uris=known_uris,
        attempt=attempt,
    )


def copy_uri(template_uri: str, did: str) -> str:
    """The at-uri of the copy, in the repository ``did``, of the record at ``template_uri``: the
    same collection and record key (docs/mapping.md, "A copy into another repository")."""
    return _record_uri(Did.parse(did), AtUri.parse(template_uri).rkey)


def _copied(
    event: dict,
    template: RecordView,
    did: Did,
    *,
    publish_private: bool,
    include_transcript: bool,
    known_uris: Mapping[str, str],
    moved_uris: Mapping[str, str],
) -> RecordView:
    """The copy in ``did`` of ``template``, the record of another repository ``event`` came
    from: the record as it was (other apps' fields, provenance, its extension with the runtime
    and trust it claims), with what the memory changed since patched in, its ``supersedes``
    moved to the copies here, and no transcript unless ``include_transcript``. pdsmem's own
    extension from the event's scope is proved again for the new at-uri; any other keeps its
    old proof, which holds nowhere now, so its ids and trust stay advisory. Every text the copy
    holds goes through the privacy gate, field names included."""
    mid = _checked(event, publish_private=publish_private, include_transcript=include_transcript)
    value = dict(template.value)
    links = value.get("supersedes")
    if isinstance(links, list):
        value["supersedes"] = [moved_uris.get(link, link) if isinstance(link, str) else link for link in links]
    ext = value.get(EXT_KEY)
    if isinstance(ext, Mapping):
        if ext.get("visibility") == "participant" and not publish_private:
            raise PrivacyRefused(
                f'memory {mid} is private (the record it copies says visibility "participant") and a PDS '
                "repository is public",
                hint="pass --publish-private to acknowledge that the target repository is public",
            )
        if "transcript" in ext and not include_transcript:
            value[EXT_KEY] = {name: part for name, part in ext.items() if name != "transcript"}
    view = _patched_record(event, template, known_uris=known_uris, uri=copy_uri(template.uri, did), value=value)
    _gate_copy(view.value, mid)
    return view


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_$.:#-]{1,100}")
_NOT_TEXT = frozenset({"$link", "$bytes"})  # a CID, bytes: no words to check


def _gate_copy(value: Mapping[str, Any], mid: str) -> None:
    """Refuse a copy of which a text, or a field's name, looks like a secret, personal data,
    command output or a local path; the message names the field, never its words."""
    for path, text, name in _texts(value, "$"):
        reason = sensitive_reason(text)
        if reason:
            where = "the record" if path == "$" else path[2:]
            what = f"a field name in {where}" if name else f"its field {where}"
            raise SensitiveContent(
                f"memory {mid}: {what} {reason}", path=path,
                hint="remove it from the record before exporting; no flag publishes secrets, personal "
                "numbers, command output or local paths",
            )


def _texts(value: Any, path: str) -> Iterator[tuple[str, str, bool]]:
    """``(path, text, is_a_field_name)`` for every string in ``value``, a field's name before
    its value; a name the path may not show (not a plain identifier) is shown as ``*``."""
    if isinstance(value, str):
        yield path, value, False
    elif isinstance(value, Mapping):
        for name, part in value.items():
            yield path, name, True
            if name not in _NOT_TEXT:
                shown = name if _PLAIN_NAME.fullmatch(name) else "*"
                yield from _texts(part, f"{path}.{shown}")
    elif isinstance(value, list):
        for index, part in enumerate(value):
            yield from _texts(part, f"{path}[{index}]")


def _checked(event: dict, *, publish_private: bool, include_transcript: bool) -> str:
    """The memory's id, once the privacy gate lets every text of the event through."""
    mid = memory_id(event)
    check_publishable(
        event,
        memory_id=mid,
        publish_private=publish_private,
        texts=publishable_texts(event, include_transcript=include_transcript),
        include_transcript=include_transcript,
    )
    return mid


def _map(
    event: dict,
    source: RecordView | None,
    did: Did,
    *,
    publish_private: bool,
    include_transcript: bool,
    known_uris: Mapping[str, str],
    attempt: int = 0,
    uri: str | None = None,
) -> RecordView:
    mid = _checked(event, publish_private=publish_private, include_transcript=include_transcript)
    if source is None:
        return _new_record(
            event, did, include_transcript=include_transcript, known_uris=known_uris, attempt=attempt, uri=uri
        )
    if AtUri.parse(source.uri).authority != did:
        raise MappingError(
            f"memory {mid} came from {source.uri}, another repository than {did}",
            hint="a record keeps its own at-uri; export it to the repository it came from",
        )
    return _patched_record(event, source, known_uris=known_uris)


def to_records(
    items: Iterable[Any],
    did: str,
    *,
    publish_private: bool = False,
    include_transcript: bool = False,
    known_uris: Mapping[str, str] | None = None,
) -> tuple[list[RecordView], list[ItemFailure]]:
    """Map a batch. Supersession resolves against the batch's own facts first.

    Every fact of the batch that another fact of it supersedes gets its at-uri before any is
    mapped; a fact is mapped after the fact it supersedes, and a fact that fails gives its at-uri
    up, so that no record points to one that is never written. The records come back in input
    order.
    """
    did = Did.parse(did)
    uris = dict(known_uris or {})
    options = {"publish_private": publish_private, "include_transcript": include_transcript, "known_uris": uris}
    failed: list[ItemFailure] = []
    split: list[tuple[int, dict, RecordView | None]] = []  # position, event, source
    for position, item in enumerate(items):
        try:
            event, source = prepare_item(item)
        except PdsmemError as err:
            failed.append(ItemFailure(position, _at(err, position)))
            continue
        split.append((position, event, source))
    # Only the at-uris of superseded facts are looked up (by _supersedes_uri) before their own
    # record is made. Every other memory gets its at-uri as it is mapped: planning it here too
    # would parse its time once more, the datetime cache having forgotten it by then.
    superseded = {_prior(event) for _, event, _ in split}
    superseded.discard(None)
    prepared: list[tuple[int, dict, RecordView | None, str | None]] = []  # position, event, source, uri
    planned: set[str] = set()  # fact ids whose at-uri this batch gave (not known before)
    for position, event, source in split:
        fact_id = event.get("factId")
        uri = None
        if fact_id in superseded:
            uri = None if source is not None else _planned_uri(event, did)
            if fact_id not in uris and (source is not None or uri is not None):
                uris[fact_id] = source.uri if source is not None else uri
                planned.add(fact_id)
        prepared.append((position, event, source, uri))
    mapped: dict[int, RecordView] = {}
    for index in in_supersession_order([event for _, event, _, _ in prepared]):
        position, event, source, uri = prepared[index]
        try:
            mapped[position] = _map(event, source, did, uri=uri, **options)
        except PdsmemError as err:
            failed.append(ItemFailure(position, _at(err, position)))
            if event.get("factId") in planned:
                planned.discard(event["factId"])
                del uris[event["factId"]]
    failed.sort(key=lambda f: f.position)
    return [mapped[position] for position in sorted(mapped)], failed


def _prior(event: Mapping[str, Any]) -> Any:
    """The factId a fact supersedes (None for an episode, or a fact that supersedes nothing)."""
    return event.get("supersedesFactId") if event.get("eventType") == "fact" else None


def in_supersession_order(events: Sequence[Mapping]) -> list[int]:
    """The indexes of ``events`` in an order where a fact comes after the fact of ``events`` it
    supersedes (the first with that id); otherwise, and inside a cycle, in input order."""
    first: dict[str, int] = {}
    for index, event in enumerate(events):
        if event.get("eventType") == "fact":
            first.setdefault(event["factId"], index)
    order: list[int] = []
    done: set[int] = set()
    for index, event in enumerate(events):
        if index in done:
            continue
        prior = _prior(event)
        if not prior or prior not in first:  # the usual case: it follows nothing of the batch
            order.append(index)
            done.add(index)
            continue
        chain: list[int] = []  # index, then what it supersedes, and so on, until one is placed
        on_chain: set[int] = set()
        current: int | None = index
        while current is not None and current not in done and current not in on_chain:
            chain.append(current)
            on_chain.add(current)
            event = events[current]
            prior = _prior(event)
            current = first.get(prior) if prior else None
        for placed in reversed(chain):
            order.append(placed)
            done.add(placed)
    return order


def _at(err: PdsmemError, position: int) -> PdsmemError:
    if err.item is None:
        err.item = position
    return err
