"""AgentMemoryEvent v1 models: validation agrees with the published JSON Schema, errors are clear.

The reference is the published JSON Schema run through ``jsonschema`` with format assertion on,
compared on random near-valid events and on hand-written cases. Ids and canonical JSON are tested
in test_contract_ids.py.
"""

from __future__ import annotations

import calendar
import json
import math
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from pydantic import ValidationError as PydanticValidationError

from pdsmem.errors import ContractError, InvalidSyntax
from pdsmem.mapping.contract import (
    EpisodeEvent,
    FactEvent,
    Scope,
    _is_rfc3339,
    event_errors,
    event_id,
    fact_id,
    is_date_time,
    parse_event,
    with_ids,
)
from pdsmem.mapping.syntax import Datetime
from pdsmem.mapping.syntax_datetime import parsed_before

FIXTURES = Path(__file__).parent / "fixtures" / "contract"
SCHEMA = json.loads((FIXTURES / "agent-memory-event.v1.schema.json").read_text())
CONFORMANCE = json.loads((FIXTURES / "conformance.v1.json").read_text())


# ----------------------------------------------------------------------------- the schema side

_DT = re.compile(
    r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[Tt](?P<h>\d{2}):(?P<mi>\d{2}):(?P<s>\d{2})(?:\.\d+)?"
    r"(?P<zone>[Zz]|(?P<sign>[+-])(?P<oh>\d{2}):(?P<om>\d{2}))",
    re.ASCII,
)


def rfc3339_date_time(instance: object) -> bool:
    """A test-only RFC 3339 ``date-time`` check, written independently of the one under test.

    jsonschema asserts ``date-time`` only when an optional package is installed, and it is not
    here; this pins RFC 3339's ABNF so the comparison does not depend on what is installed.
    """
    if not isinstance(instance, str):
        return True
    match = _DT.fullmatch(instance)
    if not match:
        return False
    year, month, day = int(match["y"]), int(match["mo"]), int(match["d"])
    hour, minute, second = int(match["h"]), int(match["mi"]), int(match["s"])
    if not (1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]):
        return False
    if hour >= 24 or minute >= 60 or second >= 61:
        return False
    offset = timedelta(0)
    if match["sign"]:
        if int(match["oh"]) >= 24 or int(match["om"]) >= 60:
            return False
        offset = timedelta(hours=int(match["oh"]), minutes=int(match["om"]))
        offset = offset if match["sign"] == "+" else -offset
    if second == 60:
        utc = datetime(2000, 1, 2, hour, minute, tzinfo=timezone(offset)).astimezone(timezone.utc)
        return (utc.hour, utc.minute) == (23, 59)
    return True


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    # ECMA-262 without the m flag: "$" matches only at the end of the input. Python's "$" also
    # matches before a final newline, so the stock keyword would accept "<64 hex digits>\n".
    if validator.is_type(instance, "string") and not re.search(pattern.replace("$", r"\Z"), instance, re.ASCII):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


FORMATS = FormatChecker(formats=())
FORMATS.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)
FORMATS.checks("date-time")(rfc3339_date_time)
SchemaValidator = jsonschema.validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})
VALIDATOR = SchemaValidator(SCHEMA, format_checker=FORMATS)


def schema_accepts(obj: object) -> bool:
    return VALIDATOR.is_valid(obj)


def _branch(kind: str) -> dict[str, Any]:
    return SCHEMA["$defs"][kind]["allOf"][1]


def test_schema_patterns_only_anchor_with_a_final_dollar() -> None:
    # What makes the "$" -> "\Z" translation in _ecma_pattern exact.
    patterns = re.findall(r'"pattern": "([^"]*)"', json.dumps(SCHEMA))
    assert patterns and all(p.count("$") == 1 and p.endswith("$") for p in patterns)


def test_stock_jsonschema_accepts_a_hash_with_a_final_newline_but_the_contract_does_not() -> None:
    event = dict(valid_episode(), channelIdHash="a" * 64 + "\n")
    assert Draft202012Validator(SCHEMA).is_valid(event)
    assert not schema_accepts(event)
    with pytest.raises(ContractError) as err:
        parse_event(event)
    assert err.value.path == "$.channelIdHash"


def test_a_missing_property_is_named_first_in_the_message() -> None:
    """Found by a new user: "failed: is required in a fact (at $.validFrom)" read as a sentence
    without its subject; the place now comes first, as in the other messages."""
    event = valid_fact()
    del event["validFrom"]
    with pytest.raises(ContractError) as err:
        parse_event(event)
    assert err.value.detail() == "at $.validFrom: is required in a fact"


def test_date_time_format_is_asserted_on_both_sides() -> None:
    event = dict(valid_episode(), observedAt="yesterday")
    assert not schema_accepts(event)
    assert event_errors(event)[0].path == "$.observedAt"


def test_model_properties_are_the_schema_properties() -> None:
    scope_required = set(SCHEMA["$defs"]["scope"]["required"])
    for kind, model in (("episode", EpisodeEvent), ("fact", FactEvent)):
        aliases = {field.alias: field for field in model.model_fields.values()}
        assert set(aliases) == set(_branch(kind)["properties"])
        required = {alias for alias, field in aliases.items() if field.is_required()}
        assert required == set(_branch(kind)["required"]) | scope_required
    assert {f.alias for f in Scope.model_fields.values()} == scope_required


# ----------------------------------------------------------------------------- valid events


def valid_episode(**changes: Any) -> dict[str, Any]:
    return with_ids({**CONFORMANCE["episodeInput"], **changes}, event_type="episode")


def valid_fact(**changes: Any) -> dict[str, Any]:
    fact = {
        "runtime": "hermes",
        "agentId": "coder",
        "profileId": "default",
        "privacyScope": "shared",
        "participantScopeHash": "70d7d3055a5516bf40e00201f44b962aad2c964ab7877b7a314e3ee6f1c673a8",
        "sandboxEligible": True,
        "text": "The user prefers TypeScript for this service.",
        "kind": "preference",
        "subjectKey": "user.language",
        "confidence": 0.9,
        "active": True,
        "sourceEventId": "turn-7",
        "validFrom": "2026-08-18T00:00:00Z",
        "visibility": "shared",
        "trustClass": "trusted",
        "provenance": "hermes:fact",
    }
    return with_ids({**fact, **changes}, event_type="fact")


# ----------------------------------------------------------------------------- ids through the models


def test_conformance_fixture_event_id_through_with_ids_and_the_model() -> None:
    expected = CONFORMANCE["expectedEventId"]
    assert valid_episode()["eventId"] == expected
    assert event_id(parse_event(valid_episode())) == expected
    fact = valid_fact()
    assert fact_id(parse_event(fact)) == fact_id(fact) == fact["factId"]


# ----------------------------------------------------------------------------- date-time

DATE_TIMES = [
    ("1963-06-19T08:30:06.283185Z", True), ("1963-06-19T08:30:06Z", True), ("1937-01-01T12:00:27.87+00:20", True),
    ("1990-12-31T15:59:50.123-08:00", True), ("1998-12-31T23:59:60Z", True), ("1998-12-31T15:59:60.123-08:00", True),
    ("1963-06-19t08:30:06.283185z", True), ("2000-02-29T00:00:00Z", True), ("0000-02-29T00:00:00Z", True),
    ("2026-08-18T00:00:00.123456789012+23:59", True),
    ("1998-12-31T23:59:61Z", False), ("1998-12-31T23:58:60Z", False), ("1998-12-31T22:59:60Z", False),
    ("1990-02-31T15:59:59.123-08:00", False), ("1990-12-31T15:59:59-24:00", False), ("1900-02-29T00:00:00Z", False),
    ("1963-06-19T08:30:06.28123+01:00Z", False), ("06/19/1963 08:30:06 PST", False), ("2013-350T01:01:01", False),
    ("1963-6-19T08:30:06.283185Z", False), ("1963-06-1T08:30:06.283185Z", False), ("1963-06-1৪T00:00:00Z", False),
    ("1963-06-11T0৪:00:00Z", False), ("2026-08-18 00:00:00Z", False), ("2026-08-18T00:00:00", False),
    ("2026-08-18T24:00:00Z", False), ("2026-08-18T00:60:00Z", False), ("2026-08-18T00:00:00.Z", False),
    ("2026-08-18T00:00:00+0000", False), ("2026-08-18", False), ("2026-08-18T00:00:00Z\n", False),
    ("2026-13-01T00:00:00Z", False), ("2026-00-01T00:00:00Z", False), ("2026-01-00T00:00:00Z", False),
]


@pytest.mark.parametrize(("text", "valid"), DATE_TIMES)
def test_date_time_follows_rfc3339(text: str, valid: bool) -> None:
    assert is_date_time(text) is valid
    assert rfc3339_date_time(text) is valid


# Date-times near the edges of both syntaxes: every field at and past its bounds, T/t, Z/z, offsets
# (-00:00 included), fractions, leap seconds at and off the end of a UTC day, years 0000 and 9999.
near_date_times = st.builds(
    "{}-{}-{}{}{}:{}:{}{}{}".format,
    st.sampled_from(["0000", "0001", "1969", "1970", "2000", "2024", "2100", "9999", "999"]),
    st.sampled_from(["00", "01", "02", "12", "13", "1"]),
    st.sampled_from(["00", "01", "28", "29", "30", "31", "32"]),
    st.sampled_from(["T", "t", " "]),
    st.sampled_from(["00", "23", "24"]),
    st.sampled_from(["00", "59", "60"]),
    st.sampled_from(["00", "59", "60", "61"]),
    st.sampled_from(["", ".0", ".123456789", "."]),
    st.sampled_from(["Z", "z", "+00:00", "-00:00", "+23:59", "-23:59", "+24:00", "+01:60", "", "+0100"]),
)


@settings(max_examples=3000, deadline=None)
@given(near_date_times)
def test_the_atproto_shortcut_changes_no_date_time_verdict(text: str) -> None:
    """``is_date_time`` takes a datetime atproto's parser has just parsed as valid: every atproto
    datetime must be an RFC 3339 date-time, so the verdict stays the RFC 3339 check's."""
    try:
        Datetime.parse(text)  # kept among the datetimes parsed last
    except InvalidSyntax:
        assert not parsed_before(text)
    else:
        assert parsed_before(text) and _is_rfc3339(text)
    assert is_date_time(text) is rfc3339_date_time(text)


# ----------------------------------------------------------------------------- parsing and errors


def test_valid_events_parse_and_dump_back_unchanged() -> None:
    episode = valid_episode(channelIdHash="b" * 64)
    fact = valid_fact(validUntil="2027-01-01T00:00:00Z", supersedesFactId="x")
    for event in (episode, fact):
        assert schema_accepts(event)
        assert parse_event(event).to_dict() == event
    without_source = {k: v for k, v in episode.items() if k != "sourceEventId"}
    assert parse_event(without_source).to_dict() == without_source


def test_models_are_built_by_python_names_and_frozen() -> None:
    event = valid_fact()
    model = FactEvent(**{name: event[field.alias] for name, field in FactEvent.model_fields.items()
                         if field.alias in event})
    assert model.to_dict() == event
    with pytest.raises(PydanticValidationError):
        model.text = "changed"  # type: ignore[misc]
    with pytest.raises(ContractError, match=r"\$\.agent_id"):
        parse_event({**event, "agent_id": "coder"})


def test_json_schema_numbers_are_normalized() -> None:
    event = parse_event(valid_episode(turnIndex=7.0, schemaVersion=1.0))
    assert isinstance(event, EpisodeEvent) and event.turn_index == 7 and type(event.turn_index) is int
    assert event.to_dict()["schemaVersion"] == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turnIndex": True}, "at $.turnIndex: expected an integer, got true"),
        ({"turnIndex": "7"}, "at $.turnIndex: expected an integer, got the string '7'"),
        ({"turnIndex": -1}, "at $.turnIndex: must be at least 0, got -1"),
        ({"turnIndex": 7.5}, "at $.turnIndex: expected an integer, got 7.5"),
        ({"schemaVersion": True}, "at $.schemaVersion: must be 1, got true"),
        ({"summary": ""}, "at $.summary: must not be empty"),
        ({"sandboxEligible": 0}, "at $.sandboxEligible: expected true or false, got 0"),
        ({"userText": 5}, "at $.userText: expected a string, got 5"),
        ({"sourceEventId": None}, "at $.sourceEventId: must not be null: omit an optional property instead"),
        ({"privacyScope": "Private"},
         'at $.privacyScope: must be one of "private", "shared", got a string of 7 characters'),
        ({"agent_id": "coder"}, "at $.agent_id: is not a property of an episode (the v1 contract allows no others)"),
        ({"\ud800": 1}, 'at $["\\ud800"]: is not a property of an episode (the v1 contract allows no others)'),
        ({"turnIndex": -(10**30)}, "at $.turnIndex: must be at least 0, got -1000000000000000000000000000000"),
        ({"observedAt": "2026-08-18"},
         "at $.observedAt: must be an RFC 3339 date-time such as 2026-08-18T00:00:00Z, got the string '2026-08-18'"),
    ],
)
def test_episode_errors_name_the_property_and_what_was_expected(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ContractError) as err:
        parse_event({**valid_episode(), **change})
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"confidence": True}, "at $.confidence: expected a number, got true"),
        ({"confidence": 1.5}, "at $.confidence: must be between 0 and 1, got 1.5"),
        ({"confidence": math.nan}, "at $.confidence: expected a number, got nan, which has no JSON form"),
        ({"factId": "A" * 64}, "at $.factId: must be 64 lowercase hexadecimal digits, got a string of 64 characters"),
        ({"text": "x" * 100}, None),
        ({"summary": "x"}, "at $.summary: is not a property of a fact (the v1 contract allows no others)"),
    ],
)
def test_fact_errors_name_the_property_and_what_was_expected(change: dict[str, Any], message: str | None) -> None:
    if message is None:
        assert parse_event({**valid_fact(), **change})
        return
    with pytest.raises(ContractError) as err:
        parse_event({**valid_fact(), **change})
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("obj", "path", "message"),
    [
        ([], "$", 'expected an event object with eventType "episode" or "fact", got an array'),
        ({}, "$.eventType", 'is required: "episode" or "fact"'),
        ({"eventType": "EPISODE"}, "$.eventType", "must be \"episode\" or \"fact\", got a string of 7 characters"),
    ],
)
def test_what_is_not_an_event_at_all(obj: Any, path: str, message: str) -> None:
    with pytest.raises(ContractError) as err:
        parse_event(obj)
    assert (err.value.path, err.value.message) == (path, message)


def test_event_errors_lists_every_problem() -> None:
    event = {k: v for k, v in {**valid_episode(), "turnIndex": -1, "extra": 1}.items() if k != "summary"}
    assert [e.path for e in event_errors(event)] == ["$.turnIndex", "$.summary", "$.extra"]
    assert event_errors(valid_episode()) == []


def test_with_ids_completes_and_checks_the_id() -> None:
    done = with_ids(CONFORMANCE["episodeInput"], event_type="episode")
    assert (done["schemaVersion"], done["eventType"]) == (1, "episode")
    assert done["eventId"] == CONFORMANCE["expectedEventId"]
    assert with_ids(done) == done
    wrong = {**done, "eventId": "0" * 64}
    with pytest.raises(ContractError) as err:
        with_ids(wrong)
    assert err.value.path == "$.eventId"
    assert CONFORMANCE["expectedEventId"] in err.value.message and "does not match" in err.value.message
    with pytest.raises(ContractError, match="is required"):
        with_ids(CONFORMANCE["episodeInput"])
    with pytest.raises(ContractError, match="event_type='fact'"):
        with_ids(done, event_type="fact")
    with pytest.raises(ContractError, match=r"\$\.summary"):
        with_ids({**done, "summary": ""})
    assert with_ids({**done, "summary": ""}, validate=False)["eventId"] == CONFORMANCE["expectedEventId"]


# ----------------------------------------------------------------------------- agreement with the schema

HEX64 = st.text("0123456789abcdef", min_size=64, max_size=64)
# Short strings: what the schema checks in a string is its emptiness and, for hashes, its pattern.
SHORT = st.text(st.characters(exclude_categories=()), max_size=3)
NON_EMPTY = st.text(st.characters(exclude_categories=()), min_size=1, max_size=3)


DATE_TIMES_BY_HAND = [text for text, valid in DATE_TIMES if valid]
date_times = st.one_of(
    st.sampled_from(DATE_TIMES_BY_HAND),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)).map(lambda m: m.isoformat() + "Z"),
)


FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "agentId": NON_EMPTY, "profileId": NON_EMPTY, "privacyScope": st.sampled_from(["private", "shared"]),
    "participantScopeHash": HEX64, "sandboxEligible": st.booleans(), "schemaVersion": st.sampled_from([1, 1.0]),
    "eventId": HEX64, "factId": HEX64, "channelIdHash": HEX64,
    "runtime": st.sampled_from(["openclaw", "hermes", "custom"]),
    "externalSessionId": NON_EMPTY, "turnIndex": st.integers(0, 2**70) | st.sampled_from([0.0, 7.0, 1e300]),
    "userText": SHORT, "assistantText": SHORT, "summary": NON_EMPTY,
    "conversationKind": st.sampled_from(["direct", "local", "shared"]),
    "visibility": st.sampled_from(["participant", "profile", "shared"]),
    "trustClass": st.sampled_from(["trusted", "mixed", "untrusted"]), "originClass": SHORT,
    "observedAt": date_times, "provenance": SHORT, "text": NON_EMPTY, "kind": NON_EMPTY, "subjectKey": NON_EMPTY,
    "confidence": st.floats(0, 1) | st.sampled_from([0, 1]), "active": st.booleans(), "supersedesFactId": SHORT,
    "validFrom": date_times, "validUntil": date_times,
}


@st.composite
def valid_events(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["episode", "fact"]))
    branch = _branch(kind)
    required = set(branch["required"]) | set(SCHEMA["$defs"]["scope"]["required"])
    event: dict[str, Any] = {"eventType": kind}
    for name in sorted(branch["properties"]):
        if name != "eventType" and (name in required or draw(st.booleans())):
            value = SHORT if kind == "episode" and name == "sourceEventId" else FIELD_VALUES.get(name, NON_EMPTY)
            event[name] = draw(value)
    return event


ODD_VALUES = st.one_of(
    st.sampled_from([None, True, False, 0, 1, -1, 7.0, 7.5, -0.0, 1e300, 2**64, "", "1", "true", "\ud800", [], {},
                     ["x"], {"k": "v"}]),
    st.text(st.characters(exclude_categories=()), max_size=4),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
)
NEAR_MISSES: dict[str, list[Any]] = {
    "hash": ["a" * 64 + "\n", "\n" + "a" * 64, "A" * 64, "a" * 63, "a" * 65, "g" * 64, "０" * 64, "a" * 63 + "\ud800",
             "f" * 64],
    "date-time": [text for text, _ in DATE_TIMES],
    "integer": [-1, 0, 7.0, 7.5, -0.0, True, False, "7", 1e300, 2**70, -(2**70), None],
    "number": [0, 1, 1.0, 0.5, -0.0, 1.0000000000000002, -5e-324, True, "0.5", 2**1100, None],
    "boolean": [True, False, 0, 1, "true", None],
    "string": ["", "\ud800", "\u0301", " ", 0, None, ["x"]],
}


def _near_misses(name: str) -> list[Any]:
    """Values close to what the schema wants for ``name``, on both sides of the line."""
    definitions = [_branch(kind)["properties"].get(name, {}) for kind in ("episode", "fact")]
    definitions.append(SCHEMA["$defs"]["scope"]["properties"].get(name, {}))
    misses: list[Any] = []
    for definition in definitions:
        if "pattern" in definition:
            misses += NEAR_MISSES["hash"]
        if definition.get("format") == "date-time":
            misses += NEAR_MISSES["date-time"]
        for option in definition.get("enum", []) + ([definition["const"]] if "const" in definition else []):
            misses += [option, 1.0, True, 2, "1"] if option == 1 else [
                option, option.upper(), option.title(), option + " ", option[:-1], option + "\ud800"]
        misses += NEAR_MISSES.get(definition.get("type", ""), [])
    return misses


EVERY_PROPERTY = sorted(set(_branch("episode")["properties"]) | set(_branch("fact")["properties"]))
EXTRA_KEYS = st.sampled_from(["agent_id", "eventid", "extra", "", "$type", "id", "\ud800"]) | SHORT


def _bases() -> list[dict[str, Any]]:
    episode = valid_episode()
    no_source = {k: v for k, v in episode.items() if k != "sourceEventId"}
    return [
        episode, no_source, {**episode, "channelIdHash": "c" * 64, "turnIndex": 7.0, "schemaVersion": 1.0},
        {**episode, "agentId": "\ud800", "userText": "", "observedAt": "1998-12-31t15:59:60.5-08:00"},
        valid_fact(),
        {**valid_fact(), "validUntil": "2027-01-01T00:00:00+01:00", "supersedesFactId": "", "confidence": 1},
        {**valid_fact(), "text": "👩‍👩‍👧‍👦", "confidence": 0, "active": False, "privacyScope": "private"},
    ]


# Random valid events are costly to draw (test_generated_valid_events_are_valid_on_both_sides draws
# them); the agreement test mutates varied fixed ones, which is several times faster.
BASES = _bases()


@st.composite
def near_valid_events(draw: st.DrawFn) -> Any:
    """A valid event with (mostly) one property changed: usually one of its own kind, to a near miss."""
    event = dict(draw(st.sampled_from(BASES)))
    own = sorted(_branch(event["eventType"])["properties"])
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 1, 1, 2, 2]))):
        operation = draw(st.sampled_from(["set"] * 6 + ["delete", "extra", "swap"]))
        if operation == "set":
            name = draw(st.sampled_from(own * 3 + EVERY_PROPERTY))
            near = st.sampled_from(_near_misses(name))
            event[name] = draw(near | near | ODD_VALUES)
        elif operation == "delete" and event:
            del event[draw(st.sampled_from(sorted(event)))]
        elif operation == "extra":
            event[draw(EXTRA_KEYS)] = draw(ODD_VALUES)
        elif operation == "swap":
            event["eventType"] = "fact" if event.get("eventType") == "episode" else "episode"
    if draw(st.integers(0, 40)) == 0:
        return draw(st.sampled_from([[event], "event", None, 1, True]))
    return event


@settings(max_examples=200, deadline=None)
@given(valid_events())
def test_generated_valid_events_are_valid_on_both_sides(event: dict[str, Any]) -> None:
    assert schema_accepts(event), list(VALIDATOR.iter_errors(event))[:2]
    assert parse_event(event).to_dict() == event


@settings(max_examples=1000, deadline=None)
@given(near_valid_events())
def test_models_accept_exactly_what_the_schema_accepts(obj: Any) -> None:
    errors = event_errors(obj)
    assert (not errors) == schema_accepts(obj), (errors, [e.message for e in VALIDATOR.iter_errors(obj)][:3])


@pytest.mark.parametrize(
    ("change", "valid"),
    [
        ({"turnIndex": 7.0}, True), ({"turnIndex": 2**70}, True), ({"turnIndex": True}, False),
        ({"turnIndex": -0.0}, True), ({"turnIndex": "7"}, False), ({"schemaVersion": 1.0}, True),
        ({"schemaVersion": True}, False), ({"agentId": "\ud800"}, True), ({"agentId": ""}, False),
        ({"summary": "\u0301"}, True), ({"channelIdHash": "a" * 64 + "\n"}, False),
        ({"channelIdHash": "０" * 64}, False),
        ({"observedAt": "1998-12-31T23:59:60Z"}, True), ({"observedAt": "1998-12-31T23:59:60+01:00"}, False),
        ({"sourceEventId": ""}, True), ({"sourceEventId": None}, False), ({"privacyScope": "private\ud800"}, False),
        ({"sandboxEligible": 1}, False), ({"originClass": ""}, True), ({"eventType": "fact"}, False),
        ({"x\ud800": "extra"}, False), ({"": "extra"}, False),
    ],
)
def test_hand_written_episode_cases_agree_with_the_schema(change: dict[str, Any], valid: bool) -> None:
    event = {**valid_episode(), **change}
    assert schema_accepts(event) is valid
    assert (not event_errors(event)) is valid


@pytest.mark.parametrize(
    ("change", "valid"),
    [
        ({"confidence": 1}, True), ({"confidence": 0}, True), ({"confidence": 1.0000000000000002}, False),
        ({"confidence": -0.0}, True), ({"confidence": True}, False), ({"confidence": "0.5"}, False),
        ({"confidence": 2**1100}, False), ({"sourceEventId": ""}, False), ({"validUntil": None}, False),
        ({"supersedesFactId": "not-a-hash"}, True), ({"validFrom": "2026-08-18T00:00:00.5+05:30"}, True),
        ({"kind": ""}, False), ({"text": "\ud83d"}, True),
    ],
)
def test_hand_written_fact_cases_agree_with_the_schema(change: dict[str, Any], valid: bool) -> None:
    event = {**valid_fact(), **change}
    assert schema_accepts(event) is valid
    assert (not event_errors(event)) is valid


def test_non_json_numbers_are_refused_although_jsonschema_would_pass_nan() -> None:
    # NaN compares false with both bounds, so the schema check lets it through; it is not JSON.
    event = {**valid_fact(), "confidence": math.nan}
    assert schema_accepts(event)
    assert event_errors(event)[0].path == "$.confidence"


def test_a_valid_event_is_checked_without_importing_pydantic() -> None:
    # `pdsmem ids` and a library caller checking valid events do not pay for pydantic's import
    # (docs/benchmarks.md, start-up); an invalid one loads the models, which word the error.
    code = (
        "import sys, json\n"
        "from pdsmem.mapping import contract\n"
        f"event = json.loads({json.dumps(json.dumps(valid_fact()))})\n"
        "contract.check_event(contract.with_ids({k: v for k, v in event.items() if k != 'factId'}))\n"
        "assert 'pydantic' not in sys.modules, 'pydantic was imported for a valid event'\n"
        "try:\n"
        "    contract.check_event({**event, 'confidence': 2})\n"
        "except Exception as err:\n"
        "    assert type(err).__name__ == 'ContractError' and 'pydantic' in sys.modules\n"
        "else:\n"
        "    raise AssertionError('an invalid event passed')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_the_plain_rules_name_what_the_models_require() -> None:
    from pdsmem.mapping import contract as plain
    from pdsmem.mapping import contract_models

    for kind, model in contract_models._MODELS.items():
        assert set(plain._RULES[kind]) == {field.alias for field in model.model_fields.values()}
        assert plain._REQUIRED[kind] == {field.alias for field in model.model_fields.values() if field.is_required()}
