"""AgentMemoryEvent v1, the RushDB side of pdsmem: the event models and their validation.

Scope: the ``Scope``, ``EpisodeEvent`` and ``FactEvent`` models (defined in ``contract_models``,
loaded when first needed), whose validation agrees with the published JSON Schema (draft 2020-12)
on every JSON input, ``parse_event``/``event_errors``, ``check_event`` (the same verdict without
building a model) and ``with_ids``. Canonical JSON and
the ids live in ``contract_ids`` and are re-exported here. Pure code, no I/O.

Tricky bits:

- JSON Schema types, not Python's: ``true`` is neither an integer nor a number, strings are never
  coerced, and ``7.0`` *is* an integer (stored as ``7``; JavaScript cannot tell them apart).
  NaN and infinities are refused: they have no JSON form.
- ``minLength`` counts code points, lone surrogates included (a JSON text may carry ``"\\ud800"``);
  pydantic's own string constraints refuse lone surrogates, so lengths, patterns and enums are
  checked here instead.
- Patterns follow ECMA-262, where ``$`` matches only at the very end: a hash followed by a newline
  is refused (Python's ``re.search`` would accept it).
- ``date-time`` is RFC 3339's ABNF: ``T``/``Z`` in either case, any number of fraction digits, a
  real calendar day, and second ``60`` only where the time is 23:59 in UTC (a leap second).
- No property may be ``null``: an optional property is either a value or absent.
- Speed: ``check_event`` and ``event_errors`` first try a plain-Python check that can only say
  "valid" (for events whose every property has the plain JSON type wanted); anything else goes to
  the models, which decide and word the errors. pydantic is imported only then.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, get_args

from pdsmem.errors import ContractError
from pdsmem.mapping.contract_ids import (
    ABSENT,
    canonical_json,
    describe,
    event_id,
    fact_id,
    hash_scope,
    js_trim,
    participant_hash_for_did,
)
from pdsmem.mapping.syntax_datetime import parsed_before

if TYPE_CHECKING:
    from pdsmem.mapping.contract_models import EpisodeEvent, Event, FactEvent, Scope

__all__ = [
    "ABSENT",
    "SCHEMA_VERSION",
    "EpisodeEvent",
    "Event",
    "FactEvent",
    "Scope",
    "canonical_json",
    "check_event",
    "event_errors",
    "event_id",
    "fact_id",
    "hash_scope",
    "is_date_time",
    "js_trim",
    "parse_event",
    "participant_hash_for_did",
    "with_ids",
]

SCHEMA_VERSION = 1

_HEX64 = re.compile(r"[a-f0-9]{64}")
_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


# ----------------------------------------------------------------------------- field checks


def is_fact_id(value: str) -> bool:
    """Whether ``value`` has the form of a contract id (64 lowercase hexadecimal digits)."""
    return _HEX64.fullmatch(value) is not None


def is_date_time(text: str) -> bool:
    """Whether ``text`` is an RFC 3339 ``date-time`` (JSON Schema's ``format: date-time``)."""
    # An atproto datetime is one (its syntax is stricter: upper-case T and Z, no leap second, no
    # -00:00, a year 0000-9999 once in UTC): on import, the record's lexicon has just parsed it.
    return parsed_before(text) or _is_rfc3339(text)


def _is_rfc3339(text: str) -> bool:
    match = _DATE_TIME.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = map(int, match.group(1, 2, 3, 4, 5, 6))
    if not 1 <= month <= 12:
        return False
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= day <= _DAYS_IN_MONTH[month - 1] + leap:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    offset = 0
    if match[7]:
        offset_hour, offset_minute = int(match[8]), int(match[9])
        if offset_hour > 23 or offset_minute > 59:
            return False
        offset = (offset_hour * 60 + offset_minute) * (1 if match[7] == "+" else -1)
    # A leap second is the last second of a UTC day.
    return second < 60 or (hour * 60 + minute - offset) % 1440 == 23 * 60 + 59


Runtime = Literal["openclaw", "hermes", "custom"]
PrivacyScope = Literal["private", "shared"]
ConversationKind = Literal["direct", "local", "shared"]
Visibility = Literal["participant", "profile", "shared"]
TrustClass = Literal["trusted", "mixed", "untrusted"]

_KIND_NAME = {"episode": "an episode", "fact": "a fact"}


def __getattr__(name: str) -> Any:
    """The models, loaded with pydantic the first time one is asked for (``contract.FactEvent``)."""
    if name in ("Scope", "EpisodeEvent", "FactEvent", "Event"):
        from pdsmem.mapping import contract_models

        return getattr(contract_models, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ----------------------------------------------------------------------------- the fast path
#
# Building a pydantic model (and importing pydantic) costs more than everything else an export does to a memory. An event
# whose every property has the plain JSON type the schema wants (an exact ``str``, ``int``,
# ``float`` or ``bool``) and passes the same field checks is valid without it; anything else, valid
# or not, goes to the models, which decide and word the errors. So the fast path can only say
# "valid", for a subset of what the models accept.


# A rule is a frozenset (one of these strings) or one of these names.
_IS_TEXT, _IS_NON_EMPTY, _IS_HASH, _IS_DATE_TIME = "text", "non-empty text", "hash", "date-time"
_IS_FLAG, _IS_VERSION, _IS_TURN_INDEX = "boolean", "schema version", "turn index"
_IS_CONFIDENCE = "confidence"


def _options_of(literal: Any) -> frozenset[str]:
    return frozenset(get_args(literal))


_SCOPE_RULES = {
    "agentId": _IS_NON_EMPTY, "profileId": _IS_NON_EMPTY, "privacyScope": _options_of(PrivacyScope),
    "participantScopeHash": _IS_HASH, "sandboxEligible": _IS_FLAG,
}  # fmt: skip
_COMMON_RULES = {
    **_SCOPE_RULES, "schemaVersion": _IS_VERSION, "runtime": _options_of(Runtime),
    "visibility": _options_of(Visibility), "trustClass": _options_of(TrustClass), "provenance": _IS_TEXT,
}  # fmt: skip
_RULES: dict[str, dict[str, str | frozenset[str]]] = {
    "episode": {
        **_COMMON_RULES, "eventType": frozenset(["episode"]), "eventId": _IS_HASH,
        "externalSessionId": _IS_NON_EMPTY, "sourceEventId": _IS_TEXT, "turnIndex": _IS_TURN_INDEX,
        "userText": _IS_TEXT, "assistantText": _IS_TEXT, "summary": _IS_NON_EMPTY,
        "conversationKind": _options_of(ConversationKind), "channelIdHash": _IS_HASH, "originClass": _IS_TEXT,
        "observedAt": _IS_DATE_TIME,
    },
    "fact": {
        **_COMMON_RULES, "eventType": frozenset(["fact"]), "factId": _IS_HASH, "text": _IS_NON_EMPTY,
        "kind": _IS_NON_EMPTY, "subjectKey": _IS_NON_EMPTY, "confidence": _IS_CONFIDENCE, "active": _IS_FLAG,
        "sourceEventId": _IS_NON_EMPTY, "supersedesFactId": _IS_TEXT, "validFrom": _IS_DATE_TIME,
        "validUntil": _IS_DATE_TIME,
    },
}  # fmt: skip
# what each kind of event must hold (``contract_models`` checks these against its models on import)
_REQUIRED = {
    "episode": frozenset(_RULES["episode"]) - {"sourceEventId", "channelIdHash"},
    "fact": frozenset(_RULES["fact"]) - {"supersedesFactId", "validUntil"},
}


def _plainly_valid(obj: Any) -> bool:
    """True only for a valid event (see above); False means "ask the models"."""
    if type(obj) is not dict:
        return False
    kind = obj.get("eventType")
    rules = _RULES.get(kind) if type(kind) is str else None
    if rules is None:
        return False
    for key, value in obj.items():
        rule = rules.get(key)
        if type(value) is str:
            if rule is _IS_TEXT:
                continue
            if rule is _IS_NON_EMPTY:
                valid = value != ""
            elif type(rule) is frozenset:
                valid = value in rule
            elif rule is _IS_HASH:
                valid = _HEX64.fullmatch(value) is not None
            else:
                valid = rule is _IS_DATE_TIME and is_date_time(value)
        elif rule is _IS_FLAG:
            valid = type(value) is bool
        elif rule is _IS_TURN_INDEX:
            valid = type(value) is int and value >= 0
        elif rule is _IS_CONFIDENCE:
            valid = (type(value) is float or type(value) is int) and 0 <= value <= 1  # NaN fails both
        else:
            valid = rule is _IS_VERSION and type(value) is int and value == SCHEMA_VERSION
        if not valid:
            return False
    return _REQUIRED[kind] <= obj.keys()


# ----------------------------------------------------------------------------- parsing


def parse_event(obj: Mapping[str, Any]) -> Event:
    """Validate a JSON object as an AgentMemoryEvent v1; raise ``ContractError`` for the first problem."""
    from pdsmem.mapping import contract_models

    return contract_models.parse_event(obj)


def check_event(obj: Any) -> None:
    """Raise ``ContractError`` for the first problem ``parse_event`` would see in ``obj``; build no
    model when there is none."""
    if not _plainly_valid(obj):
        parse_event(obj)  # raises, or finds a valid event the plain check leaves to the models


def event_errors(obj: Any) -> list[ContractError]:
    """Every problem ``parse_event`` would see in ``obj`` (empty when it is a valid event)."""
    if _plainly_valid(obj):
        return []
    from pdsmem.mapping import contract_models

    return contract_models.event_errors(obj)


def with_ids(
    obj: Mapping[str, Any],
    *,
    event_type: Literal["episode", "fact"] | None = None,
    validate: bool = True,
) -> dict[str, Any]:
    """A copy of ``obj`` completed with ``schemaVersion``, ``eventType`` and its computed id.

    The kind comes from ``obj["eventType"]``, else from ``event_type``. An id already present must
    equal the computed one. With ``validate`` (the default) the result is checked against the
    contract, so a returned dict is a valid event.
    """
    kind = obj.get("eventType", event_type)
    if event_type is not None and kind != event_type:
        raise ContractError(f"is {describe(kind)}, but event_type={event_type!r} was asked for", path="$.eventType")
    if kind == "episode":
        key, computed = "eventId", event_id(obj)
    elif kind == "fact":
        key, computed = "factId", fact_id(obj)
    elif "eventType" in obj:
        raise ContractError(f'must be "episode" or "fact", got {describe(kind)}', path="$.eventType")
    else:
        raise ContractError('is required: "episode" or "fact"', path="$.eventType")
    given = obj.get(key)
    if given is not None and given != computed:
        raise ContractError(
            f"{describe(given)} does not match the {kind}'s content: the computed {key} is {computed}",
            path=f"$.{key}",
        )
    out = dict(obj)
    out.setdefault("schemaVersion", SCHEMA_VERSION)
    out.setdefault("eventType", kind)
    out[key] = computed
    if validate:
        check_event(out)
    return out
