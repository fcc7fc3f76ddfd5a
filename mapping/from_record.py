"""Record → event (import side); see docs/mapping.md, "Record → event".

Scope, trust and ids come from the trusted ``ImportScope`` and the record's verified at-uri, never
from the record's own fields; the extension's ids and trust fields are honoured only with a valid
``proof`` (the memory is then recognised as one pdsmem exported from this very scope).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pdsmem.errors import MappingError, PdsmemError, RecordInvalid
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.records import (
    DEFAULT_CONFIDENCE,
    IMPORT_PROVENANCE,
    ImportScope,
    Imported,
    ItemFailure,
    RecordView,
    _valid_datetime,
    checked_extension,
    confidence_from_string,
    default_lexicons,
    recognised,
)
from pdsmem.mapping.syntax import AtUri


def _fact(value: Mapping, ext: Mapping, uri: str, scope: Mapping, cfg: ImportScope, trusted: bool) -> dict:
    kind = value.get("kind") or "fact"
    confidence = confidence_from_string(ext.get("confidence"))
    event: dict[str, Any] = {
        "schemaVersion": 1,
        "eventType": "fact",
        "runtime": ext["runtime"] if trusted and "runtime" in ext else cfg.runtime,
        **scope,
        "text": value["content"],
        "kind": kind,
        "subjectKey": ext.get("subjectKey") or uri,
        "confidence": DEFAULT_CONFIDENCE if confidence is None else confidence,
        "active": True,
        "sourceEventId": ext["sourceEventId"] if trusted and ext.get("sourceEventId") else uri,
        "validFrom": ext["validFrom"] if _valid_datetime(ext.get("validFrom")) else value["createdAt"],
        "visibility": ext.get("visibility", "shared") if trusted else "shared",
        "trustClass": ext.get("trustClass", cfg.trust_class) if trusted else cfg.trust_class,
        "provenance": ext.get("provenance", IMPORT_PROVENANCE) if trusted else IMPORT_PROVENANCE,
    }
    if _valid_datetime(ext.get("validUntil")):
        event["validUntil"] = ext["validUntil"]
    event["factId"] = ext["id"] if trusted else contract.fact_id(event)
    return event


def _episode(value: Mapping, ext: Mapping, uri: str, scope: Mapping, cfg: ImportScope, trusted: bool) -> dict:
    transcript = ext.get("transcript") or {}
    event: dict[str, Any] = {
        "schemaVersion": 1,
        "eventType": "episode",
        "runtime": ext["runtime"] if trusted and "runtime" in ext else cfg.runtime,
        **scope,
        "externalSessionId": ext.get("externalSessionId") or uri,
        "sourceEventId": ext["sourceEventId"] if trusted and "sourceEventId" in ext else uri,
        "turnIndex": ext.get("turnIndex", 0),
        "userText": transcript.get("userText", ""),
        "assistantText": transcript.get("assistantText", ""),
        "summary": value["content"],
        "conversationKind": ext.get("conversationKind", "direct"),
        "visibility": ext.get("visibility", "shared") if trusted else "shared",
        "trustClass": ext.get("trustClass", cfg.trust_class) if trusted else cfg.trust_class,
        "originClass": ext.get("originClass", "atproto-import") if trusted else "atproto-import",
        "observedAt": value["createdAt"],
        "provenance": ext.get("provenance", IMPORT_PROVENANCE) if trusted else IMPORT_PROVENANCE,
    }
    if trusted and ext.get("channelIdHash"):
        event["channelIdHash"] = ext["channelIdHash"]
    if event["conversationKind"] not in ("direct", "local", "shared"):
        event["conversationKind"] = "direct"
    event["eventId"] = ext["id"] if trusted else contract.event_id(event)
    return event


def from_record(view: RecordView | Mapping, scope: ImportScope) -> Imported:
    """Map one record view of ``scope.did``'s repository to an event (docs/mapping.md)."""
    if not isinstance(view, RecordView):
        view = RecordView.from_json(view)
    uri = AtUri.parse(view.uri)
    if uri.authority != scope.did:
        raise MappingError(f"record belongs to {uri.authority}, not to the repository {scope.did}", uri=view.uri)
    if str(uri.collection) != RECORD_NSID or uri.rkey is None:
        raise MappingError(f"not a {RECORD_NSID} record uri", uri=view.uri)
    value = view.value
    try:  # the record and its key, as the lexicon says (key type tid): the one rule everywhere
        default_lexicons().validate_record(RECORD_NSID, value, rkey=str(uri.rkey))
    except RecordInvalid as err:
        err.uri = view.uri
        raise
    notes: list[str] = []
    ext, invalid = checked_extension(value)
    if invalid is not None:
        notes.append(f"extension ignored: {invalid}")
    fields = scope.fields
    trusted = recognised(view.uri, value, ext, fields)
    if ext and not trusted:
        notes.append("extension not from this scope (or edited): its ids and trust fields were ignored")
    if not value["content"]:
        raise MappingError("content is empty; a memory needs text", path="$.content", uri=view.uri)
    make = _episode if ext.get("eventType") == "episode" else _fact
    event = make(value, ext, view.uri, fields, scope, trusted)
    try:
        contract.check_event(event)
    except PdsmemError as err:
        raise MappingError(f"record maps to an invalid event: {err}", uri=view.uri) from err
    imported = Imported(event=event, record=view, notes=notes)
    if event["eventType"] == "fact":
        for prior in value.get("supersedes") or []:
            target = AtUri.parse(prior)
            if prior == view.uri:
                notes.append("a record cannot supersede itself; link ignored")
            elif target.authority != scope.did:
                notes.append(f"supersedes {prior} in another repository; ignored")
            elif prior not in imported.supersedes:
                imported.supersedes.append(prior)
    return imported


def from_records(
    views: Iterable[RecordView | Mapping], scope: ImportScope
) -> tuple[list[Imported], list[ItemFailure]]:
    """Map a batch; supersession inside the batch deactivates the superseded facts."""
    ok: list[Imported] = []
    failed: list[ItemFailure] = []
    for position, view in enumerate(views):
        try:
            ok.append(from_record(view, scope))
        except PdsmemError as err:
            if err.item is None:
                err.item = position
            failed.append(ItemFailure(position, err))
    resolve_supersession(ok)
    return ok, failed


def resolve_supersession(items: list[Imported], known: Mapping[str, str] | None = None) -> list[str]:
    """Link facts to the facts their records supersede; return the uris left unresolved.

    ``known`` maps at-uris outside ``items`` to fact ids (e.g. from RushDB mirrors).
    """
    by_uri = {item.record.uri: item for item in items if item.event["eventType"] == "fact"}
    unresolved: list[str] = []
    for item in items:
        for uri in item.supersedes:
            prior = by_uri.get(uri)
            fact_id = prior.event["factId"] if prior else (known or {}).get(uri)
            if fact_id is None:
                unresolved.append(uri)
                continue
            if prior is not None:
                prior.event["active"] = False
            if fact_id not in item.supersedes_fact_ids:
                item.supersedes_fact_ids.append(fact_id)
        if item.supersedes_fact_ids:
            item.event["supersedesFactId"] = item.supersedes_fact_ids[0]
    return unresolved
