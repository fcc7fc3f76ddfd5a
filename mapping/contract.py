"""AgentMemoryEvent v1, the RushDB side of pdsmem: the event models and their validation.

Scope: the ``Scope``, ``EpisodeEvent`` and ``FactEvent`` models, whose validation agrees with the
published JSON Schema (draft 2020-12) on every JSON input, ``parse_event``/``event_errors``,
``check_event`` (the same verdict without building a model) and ``with_ids``. Canonical JSON and
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
  the models, which decide and word the errors.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from pdsmem.errors import ContractError
from pdsmem.mapping.contract_ids import (
    ABSENT,
    canonical_json,
    describe,
    event_id,
    fact_id,
    hash_scope,
    js_trim,
    json_path,
    participant_hash_for_did,
)
from pdsmem.mapping.syntax_datetime import parsed_before

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


def _fail(reason: str) -> PydanticCustomError:
    return PydanticCustomError("contract", "{reason}", {"reason": reason})


def _is_whole(value: int | float) -> bool:
    return isinstance(value, int) or (math.isfinite(value) and value.is_integer())


def _json_integer(minimum: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not _is_whole(value):
            raise _fail(f"expected an integer, got {describe(value)}")
        if value < minimum:
            raise _fail(f"must be at least {minimum}, got {describe(value)}")
        return int(value)

    return check


def _json_number(minimum: float, maximum: float) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(f"expected a number, got {describe(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise _fail(f"expected a number, got {value!r}, which has no JSON form")
        if not minimum <= value <= maximum:
            raise _fail(f"must be between {minimum:g} and {maximum:g}, got {describe(value)}")
        return float(value)

    return check


def _schema_version(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != SCHEMA_VERSION:
        raise _fail(f"must be {SCHEMA_VERSION}, got {describe(value)}")
    return SCHEMA_VERSION


def _one_of(options: tuple[str, ...]) -> Callable[[Any], Any]:
    allowed = ", ".join(f'"{option}"' for option in options)

    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in options:
            raise _fail(f"must be {'one of ' if len(options) > 1 else ''}{allowed}, got {describe(value)}")
        return value

    return check


def _min_length_1(value: str) -> str:
    if not value:
        raise _fail("must not be empty")
    return value


def is_fact_id(value: str) -> bool:
    """Whether ``value`` has the form of a contract id (64 lowercase hexadecimal digits)."""
    return _HEX64.fullmatch(value) is not None


def _hex64(value: str) -> str:
    if not _HEX64.fullmatch(value):
        raise _fail(f"must be 64 lowercase hexadecimal digits, got {describe(value)}")
    return value


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


def _date_time(value: str) -> str:
    if not is_date_time(value):
        raise _fail(f"must be an RFC 3339 date-time such as 2026-08-18T00:00:00Z, got {describe(value)}")
    return value


def _present(value: Any) -> Any:
    if value is None:
        raise _fail("must not be null: omit an optional property instead")
    return value


def _enum(literal: Any) -> Any:
    return Annotated[literal, BeforeValidator(_one_of(get_args(literal)))]


Runtime = Literal["openclaw", "hermes", "custom"]
PrivacyScope = Literal["private", "shared"]
ConversationKind = Literal["direct", "local", "shared"]
Visibility = Literal["participant", "profile", "shared"]
TrustClass = Literal["trusted", "mixed", "untrusted"]

_Runtime = _enum(Runtime)
_PrivacyScope = _enum(PrivacyScope)
_ConversationKind = _enum(ConversationKind)
_Visibility = _enum(Visibility)
_TrustClass = _enum(TrustClass)
_Episode = _enum(Literal["episode"])
_Fact = _enum(Literal["fact"])
_NonEmpty = Annotated[str, AfterValidator(_min_length_1)]
_Hash = Annotated[str, AfterValidator(_hex64)]
_DateTime = Annotated[str, AfterValidator(_date_time)]
_SchemaVersion = Annotated[Literal[1], BeforeValidator(_schema_version)]
_TurnIndex = Annotated[int, BeforeValidator(_json_integer(0))]
_Confidence = Annotated[float, BeforeValidator(_json_number(0, 1))]
_OptionalStr = Annotated[str | None, BeforeValidator(_present)]
_OptionalHash = Annotated[_Hash | None, BeforeValidator(_present)]
_OptionalDateTime = Annotated[_DateTime | None, BeforeValidator(_present)]


# ----------------------------------------------------------------------------- models


class Scope(BaseModel):
    """The five authorization fields every event carries."""

    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, alias_generator=to_camel,
        validate_by_alias=True, validate_by_name=True,
    )

    agent_id: _NonEmpty
    profile_id: _NonEmpty
    privacy_scope: _PrivacyScope
    participant_scope_hash: _Hash
    sandbox_eligible: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON object, camelCase keys as in the schema, absent optional properties left out."""
        # No property of the contract may be null, so None always means absent.
        return self.model_dump(by_alias=True, exclude_none=True)


class EpisodeEvent(Scope):
    """An ``EPISODE``: a completed user/assistant turn with its ``summary``."""

    schema_version: _SchemaVersion
    event_type: _Episode
    event_id: _Hash
    runtime: _Runtime
    external_session_id: _NonEmpty
    source_event_id: _OptionalStr = None
    turn_index: _TurnIndex
    user_text: str
    assistant_text: str
    summary: _NonEmpty
    conversation_kind: _ConversationKind
    channel_id_hash: _OptionalHash = None
    visibility: _Visibility
    trust_class: _TrustClass
    origin_class: str
    observed_at: _DateTime
    provenance: str


class FactEvent(Scope):
    """A ``MEMORY_FACT``: a curated fact, preference or rule."""

    schema_version: _SchemaVersion
    event_type: _Fact
    fact_id: _Hash
    runtime: _Runtime
    text: _NonEmpty
    kind: _NonEmpty
    subject_key: _NonEmpty
    confidence: _Confidence
    active: bool
    source_event_id: _NonEmpty
    supersedes_fact_id: _OptionalStr = None
    valid_from: _DateTime
    valid_until: _OptionalDateTime = None
    visibility: _Visibility
    trust_class: _TrustClass
    provenance: str


Event = EpisodeEvent | FactEvent

_MODELS: dict[str, type[EpisodeEvent] | type[FactEvent]] = {"episode": EpisodeEvent, "fact": FactEvent}
_ALIASES = {kind: frozenset(field.alias for field in model.model_fields.values()) for kind, model in _MODELS.items()}
_KIND_NAME = {"episode": "an episode", "fact": "a fact"}


# ----------------------------------------------------------------------------- the fast path
#
# Building a pydantic model costs more than everything else an export does to a memory. An event
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
_REQUIRED = {
    kind: frozenset(field.alias for field in model.model_fields.values() if field.is_required())
    for kind, model in _MODELS.items()
}
for _kind, _model in _MODELS.items():  # the fast path knows every property, and only those
    if set(_RULES[_kind]) != {field.alias for field in _model.model_fields.values()}:
        raise RuntimeError(f"the fast rules of {_kind} events disagree with the {_model.__name__} model")


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


def _translate(error: Mapping[str, Any], kind: str) -> ContractError:
    """One pydantic error as a ContractError with a JSON path and a plain reason."""
    kind_name = _KIND_NAME[kind]
    reasons = {
        "contract": lambda: error["ctx"]["reason"],
        "missing": lambda: f"is required in {kind_name}",
        "extra_forbidden": lambda: f"is not a property of {kind_name} (the v1 contract allows no others)",
        "string_type": lambda: f"expected a string, got {describe(error['input'])}",
        "bool_type": lambda: f"expected true or false, got {describe(error['input'])}",
    }
    reason = reasons.get(error["type"], lambda: str(error["msg"]))()
    return ContractError(reason, path=json_path(error["loc"]))


def _dispatch(obj: Any) -> tuple[str, type[EpisodeEvent] | type[FactEvent]] | ContractError:
    if not isinstance(obj, Mapping):
        return ContractError(f'expected an event object with eventType "episode" or "fact", got {describe(obj)}',
                             path="$")
    kind = obj.get("eventType")
    if "eventType" not in obj:
        return ContractError('is required: "episode" or "fact"', path="$.eventType")
    if not isinstance(kind, str) or kind not in _MODELS:
        return ContractError(f'must be "episode" or "fact", got {describe(kind)}', path="$.eventType")
    return kind, _MODELS[kind]


def _validate(obj: Any) -> Event | list[ContractError]:
    dispatched = _dispatch(obj)
    if isinstance(dispatched, ContractError):
        return [dispatched]
    kind, model = dispatched
    # Unknown keys are reported here: pydantic cannot even read a key holding a lone surrogate.
    known = _ALIASES[kind]
    extras = [key for key in obj if key not in known]
    errors = [
        ContractError(f"is not a property of {_KIND_NAME[kind]} (the v1 contract allows no others)",
                      path=json_path([key if isinstance(key, str) else repr(key)]))
        for key in extras
    ]
    try:
        event = model.model_validate({key: obj[key] for key in obj if key in known}, by_alias=True, by_name=False)
    except ValidationError as exc:
        return [_translate(error, kind) for error in exc.errors()] + errors
    return errors or event


def parse_event(obj: Mapping[str, Any]) -> Event:
    """Validate a JSON object as an AgentMemoryEvent v1; raise ``ContractError`` for the first problem."""
    result = _validate(obj)
    if isinstance(result, list):
        raise result[0]
    return result


def check_event(obj: Any) -> None:
    """Raise ``ContractError`` for the first problem ``parse_event`` would see in ``obj``; build no
    model when there is none."""
    if not _plainly_valid(obj):
        parse_event(obj)


def event_errors(obj: Any) -> list[ContractError]:
    """Every problem ``parse_event`` would see in ``obj`` (empty when it is a valid event)."""
    if _plainly_valid(obj):
        return []
    result = _validate(obj)
    return result if isinstance(result, list) else []


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
