"""AgentMemoryEvent v1's models: ``Scope``, ``EpisodeEvent`` and ``FactEvent`` (pydantic), which
decide every event the plain check of ``contract`` cannot pass, and word the errors.

Loaded by ``contract`` the first time an event is not plainly valid, or a model is asked for
(``contract.FactEvent``): a command that only reads valid events does not import pydantic.
``contract``'s docstring says what the checks follow (JSON Schema types, ECMA-262 patterns, RFC
3339 date-times). Pure code, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from pdsmem.errors import ContractError
from pdsmem.mapping.contract import (
    _HEX64,
    _KIND_NAME,
    _REQUIRED,
    _RULES,
    SCHEMA_VERSION,
    ConversationKind,
    PrivacyScope,
    Runtime,
    TrustClass,
    Visibility,
    is_date_time,
)
from pdsmem.mapping.contract_ids import describe, json_path

__all__ = ["EpisodeEvent", "Event", "FactEvent", "Scope", "event_errors", "parse_event"]


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


def _hex64(value: str) -> str:
    if not _HEX64.fullmatch(value):
        raise _fail(f"must be 64 lowercase hexadecimal digits, got {describe(value)}")
    return value


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

for _kind, _model in _MODELS.items():  # the plain check knows every property, and only those
    _aliases = {field.alias for field in _model.model_fields.values()}
    _required = {field.alias for field in _model.model_fields.values() if field.is_required()}
    if set(_RULES[_kind]) != _aliases or _REQUIRED[_kind] != _required:
        raise RuntimeError(f"the plain rules of {_kind} events disagree with the {_model.__name__} model")


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


def event_errors(obj: Any) -> list[ContractError]:
    """Every problem ``parse_event`` finds in ``obj`` (empty when it is a valid event)."""
    result = _validate(obj)
    return result if isinstance(result, list) else []
