"""Hostile memory record views for the import side (``from_records``, ``pdsmem convert
from-record``, ``pdsmem validate``): the shared parts, and the generated cases.

Each case is one item that a test places between two valid records, so that every case also
checks that the valid neighbours are still imported. Generated here: a wrong type for every
record field and for every property of the extension object, and every invalid datetime and
at-uri line of the interop syntax fixtures (as ``createdAt``, as a ``supersedes`` entry, as the
record's own uri). Hand-made cases are in ``handmade`` and ``forged``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.repo_builder import DID

from pdsmem.errors import DataModelError, InvalidSyntax, RecordInvalid
from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_for_json
from pdsmem.mapping.records import IMPORT_PROVENANCE, ImportScope, Imported

from .outcomes import Contained, Refused

SCOPE = ImportScope(did=DID, agent_id="coder", profile_id="default", salt="hostile-salt")
OTHER_DID = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
RKEY = "3lbt4ilkfw22s"  # the hostile item's record key
GOOD_RKEYS = ("3lbt4ilkfw222", "3lbt4ilkfw2zz")  # its two valid neighbours
CID = "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"
SYNTAX = Path(__file__).resolve().parent.parent / "fixtures" / "interop" / "syntax"
DEEP = 5_000  # levels of nesting in the "thousands of levels" cases


def uri(rkey: str = RKEY, did: str = DID, collection: str = RECORD_NSID) -> str:
    return f"at://{did}/{collection}/{rkey}"


def record(**fields: Any) -> dict:
    """A valid memory record with every optional field set; ``fields`` override or add."""
    value = {
        "$type": RECORD_NSID,
        "content": "The user drinks green tea.",
        "createdAt": "2024-01-01T00:00:00.000Z",
        "kind": "preference",
        "scope": "kitchen",
        "updatedAt": "2024-02-01T00:00:00Z",
        "occurredAt": {"from": "2023-12-01T00:00:00Z", "to": "2023-12-02T00:00:00Z", "precision": "day"},
        "provenance": {"agent": "hermes", "client": "https://app.example", "sourceUri": "https://example.com/a"},
        "supersedes": [uri("3lbt4ilkfw2aa")],
    }
    value.update(fields)
    return value


def view(value: Any, rkey: str = RKEY) -> dict:
    """A record view as listRecords shows it, without ``cid`` (pdsmem computes it)."""
    return {"uri": uri(rkey), "value": value}


def good_views() -> list[dict]:
    return [view(record(content=f"valid neighbour {n}"), rkey) for n, rkey in enumerate(GOOD_RKEYS)]


def fixture_lines(name: str) -> list[str]:
    """Non-comment, non-empty lines of an interop syntax fixture, whitespace kept."""
    text = (SYNTAX / name).read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


@dataclass(frozen=True)
class RecordCase:
    name: str
    item: Any  # the hostile record view, or whatever stands in its place
    outcome: Refused | Contained
    validate: str | None = None  # what `pdsmem validate` says of the value; None: it is valid
    has_value: bool = True  # False when the view itself is broken (nothing to validate)
    cli_says: str | None = None  # from-record's message when it differs from the mapper's
    bug: str | None = None  # a known wrong behaviour of the mapper (strict xfail)
    validate_bug: str | None = None  # a known wrong behaviour of `pdsmem validate` (strict xfail)


def refused(name: str, value: Any, error: type, says: str, validate: str | None = None, **kw: Any) -> RecordCase:
    """A value the lexicon (or the data model) refuses: the mapper says ``says``, validate says
    ``validate`` (the same, unless given)."""
    return RecordCase(name, view(value), Refused(error, says), validate=validate or says, **kw)


def mapper_refused(name: str, value: Any, error: type, says: str, **kw: Any) -> RecordCase:
    """A lexicon-valid value that still cannot become a memory."""
    return RecordCase(name, view(value), Refused(error, says), **kw)


def contained(name: str, value: Any, says: str | None = None, check: Callable | None = None,
              **kw: Any) -> RecordCase:
    return RecordCase(name, view(value), Contained(says, check), **kw)


def broken_view(name: str, item: Any, error: type, says: str, **kw: Any) -> RecordCase:
    return RecordCase(name, item, Refused(error, says), has_value=False, **kw)


def nested(depth: int, leaf: Any = "leaf", kind: str = "map") -> Any:
    value = leaf
    for index in range(depth):
        value = {"a": value} if kind == "map" or (kind == "mixed" and index % 2) else [value]
    return value


# --- checks on what was imported ------------------------------------------------------------


def untrusted(item: Imported) -> str | None:
    """Scope, trust and ids all come from the configuration and the record's own uri."""
    event = item.event
    expected = {**SCOPE.fields, "trustClass": SCOPE.trust_class, "runtime": SCOPE.runtime,
                "provenance": IMPORT_PROVENANCE, "visibility": "shared",
                "sourceEventId": item.record.uri}
    wrong = {name: event.get(name) for name, want in expected.items() if event.get(name) != want}
    if wrong:
        return f"fields taken from the record instead of the configuration: {wrong}"
    if event["eventType"] == "fact" and event["factId"] != contract.fact_id(event):
        return f"factId {event['factId']} is not computed from trusted inputs"
    if event["eventType"] == "episode" and event["eventId"] != contract.event_id(event):
        return f"eventId {event['eventId']} is not computed from trusted inputs"
    return None


def text_kept(item: Imported) -> str | None:
    content = item.record.value["content"]
    text = item.event.get("text", item.event.get("summary"))
    return None if text == content else "the content was altered on its way to the event"


def links(*uris: str) -> Callable[[Imported], str | None]:
    def check(item: Imported) -> str | None:
        return None if item.supersedes == list(uris) else f"supersedes links {item.supersedes}"
    return check


def unknown_kept(name: str) -> Callable[[Imported], str | None]:
    def check(item: Imported) -> str | None:
        return None if name in item.record.value else f"unknown field {name!r} was dropped"
    return check


def same_cid_as(value: dict) -> Callable[[Imported], str | None]:
    def check(item: Imported) -> str | None:
        want = str(cid_for_json(value))
        return None if item.record.cid == want else f"CID {item.record.cid}, expected {want}"
    return check


def origin_is_import(item: Imported) -> str | None:
    origin = item.event.get("originClass")
    return None if origin == "atproto-import" else f"originClass {origin!r} came from the record"


# --- generated: a wrong type for every field ------------------------------------------------

WRONG_VALUES: dict[str, Any] = {
    "integer": 7, "boolean": True, "null": None, "float": 1.5, "string": "text", "array": ["x"],
    "object": {"x": "y"}, "bytes": {"$bytes": "aGk"}, "cid-link": {"$link": CID},
    "blob": {"$type": "blob", "ref": {"$link": CID}, "mimeType": "text/plain", "size": 3},
}
RECORD_FIELDS = {  # path -> the type the lexicon wants
    "$type": "string", "content": "string", "createdAt": "string", "kind": "string",
    "scope": "string", "updatedAt": "string", "supersedes": "array", "supersedes[0]": "string",
    "occurredAt": "object", "occurredAt.from": "string", "occurredAt.to": "string",
    "occurredAt.precision": "string", "provenance": "object", "provenance.agent": "string",
    "provenance.client": "string", "provenance.sourceUri": "string",
}


def _set(value: dict, path: str, new: Any) -> dict:
    if path.endswith("[0]"):
        value[path[:-3]] = [new]
        return value
    *parents, last = path.split(".")
    target = value
    for name in parents:
        target = target[name]
    target[last] = new
    return value


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def wrong_type_cases() -> list[RecordCase]:
    cases = []
    for path, want in RECORD_FIELDS.items():
        for got, bad in WRONG_VALUES.items():
            if got == want:
                continue
            name = f"field-{path}-as-{got}"
            value = _set(record(), path, bad)
            says = f"must be {_article(want)} {want} (got {got})"
            if path == "$type":  # the data model itself wants $type to be a string
                cases.append(refused(name, value, DataModelError, "must be a non-empty string"))
            elif got == "float":  # the data model has no floats; the lexicon says what it wanted
                cases.append(refused(name, value, DataModelError, "atproto data has no floats",
                                     validate=f"must be {_article(want)} {want} (got float 1.5)"))
            else:
                cases.append(refused(name, value, RecordInvalid, says))
    return cases


EXTENSION_FIELDS = {  # property -> the type its lexicon wants
    "eventType": "string", "id": "string", "proof": "string", "runtime": "string",
    "subjectKey": "string", "confidence": "string", "sourceEventId": "string",
    "validFrom": "string", "validUntil": "string", "visibility": "string", "trustClass": "string",
    "provenance": "string", "externalSessionId": "string", "turnIndex": "integer",
    "conversationKind": "string", "originClass": "string", "channelIdHash": "string",
    "transcript": "object",
}


def extension(**fields: Any) -> dict:
    """A well-formed but forged extension object (its proof is not a real one)."""
    ext = {"eventType": "fact", "id": "a" * 64, "proof": "b" * 64, "runtime": "hermes",
           "confidence": "0.9", "trustClass": "trusted"}
    ext.update(fields)
    return ext


def extension_type_cases() -> list[RecordCase]:
    cases = []
    for name, want in EXTENSION_FIELDS.items():
        for got in ("integer", "null", "array", "object", "float"):
            if got == want:
                continue
            value = record(**{EXTENSION_NSID: extension(**{name: WRONG_VALUES[got]})})
            case_name = f"extension-{name}-as-{got}"
            if got == "float":
                cases.append(refused(case_name, value, DataModelError, "atproto data has no floats"))
            else:
                # import ignores it; validate says so (the extension lexicon is checked, as import does)
                cases.append(contained(case_name, value, "extension ignored", untrusted,
                                       validate=f"extension does not validate against its lexicon: at $.{name}: must be"))
    return cases


# --- generated: the interop syntax fixtures -------------------------------------------------


def syntax_cases() -> list[RecordCase]:
    cases = []
    for source in ("datetime_syntax_invalid.txt", "datetime_parse_invalid.txt"):
        for index, line in enumerate(fixture_lines(source)):
            name = f"createdAt-{source.split('_')[1]}-invalid-{index}"
            cases.append(refused(name, record(createdAt=line), RecordInvalid, "must be a valid datetime"))
    for index, line in enumerate(fixture_lines("aturi_syntax_invalid.txt")):
        value = record(supersedes=[line])
        cases.append(refused(f"supersedes-aturi-invalid-{index}", value, RecordInvalid,
                             "must be a valid at-uri"))
        item = {"uri": line, "value": record()}
        cases.append(broken_view(f"view-uri-aturi-invalid-{index}", item, InvalidSyntax, "at-uri"))
    return cases


def generated_cases() -> list[RecordCase]:
    return wrong_type_cases() + extension_type_cases() + syntax_cases()
