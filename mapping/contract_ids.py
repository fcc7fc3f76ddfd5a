"""Canonical JSON and the deterministic ids of AgentMemoryEvent v1 (``eventId``, ``factId``, scope hashes).

Scope: ``canonical_json`` (byte-identical to JavaScript's ``JSON.stringify`` of a key-sorted
object), ``event_id``/``fact_id`` and ``hash_scope``/``participant_hash_for_did``. Pure code, no
I/O, no pydantic: the ids are on the hot path of every export and import.

Tricky bits:

- Keys are sorted by UTF-16 code units, as JavaScript's ``<`` does, and then array-index keys
  (``"0"``, ``"12"``) come first in numeric order, as a JavaScript object enumerates them.
- Numbers are written as JavaScript writes them (``1e+21``, ``1e-7``, ``7.0`` as ``7``, integers
  beyond 2**53 rounded to the nearest double); NaN and infinities are refused.
- Lone surrogates (a JSON text may carry ``"\\ud800"``) are escaped as ``\\udxxx`` in canonical
  JSON, and hashed as U+FFFD where a raw string is hashed, as Node.js encodes them.
- ``None`` is JSON ``null``; the ``ABSENT`` marker is an absent value (JavaScript's
  ``undefined``), omitted from objects and ``null`` in arrays.
- ``hash_scope`` trims with JavaScript's ``String.prototype.trim``, whose whitespace set differs
  from Python's ``str.strip``: U+FEFF is trimmed; U+001C..U+001F and U+0085 are not.
"""

from __future__ import annotations

import bisect
import json.encoder
import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pdsmem.errors import ContractError, kind_of
from pdsmem.mapping.sha256 import sha256
from pdsmem.mapping.syntax_base import sensitive

if TYPE_CHECKING:
    from pdsmem.mapping.contract import EpisodeEvent, FactEvent

__all__ = [
    "ABSENT",
    "JS_WHITESPACE",
    "canonical_json",
    "describe",
    "event_id",
    "fact_id",
    "hash_scope",
    "js_trim",
    "json_path",
    "participant_hash_for_did",
]

# JavaScript's WhiteSpace and LineTerminator code points: what String.prototype.trim removes.
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

# The C string encoder behind json.dumps(ensure_ascii=False): it escapes exactly what
# JSON.stringify escapes ('"', '\\', U+0000..U+001F as \\b \\f \\n \\r \\t or lowercase \\u00xx),
# except lone surrogates, which are fixed afterwards.
_encode_str: Callable[[str], str] = json.encoder.encode_basestring  # type: ignore[attr-defined]
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_MAX_SAFE_INTEGER = 2**53
_MAX_ARRAY_INDEX = 2**32 - 2
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


class _Absent:
    """The type of ``ABSENT``."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
"""An absent value (JavaScript's ``undefined``): omitted from objects by ``canonical_json``."""


# ----------------------------------------------------------------------------- text helpers


def js_trim(text: str) -> str:
    """``text`` without leading and trailing whitespace, as JavaScript's ``trim()`` does."""
    return text.strip(JS_WHITESPACE)


def _combine_pair(match: re.Match[str]) -> str:
    high, low = match[0]
    return chr(0x10000 + ((ord(high) - 0xD800) << 10) + (ord(low) - 0xDC00))


def _escape_surrogates(text: str) -> str:
    """Join surrogate pairs into their character and escape lone surrogates as JSON does."""
    text = _SURROGATE_PAIR.sub(_combine_pair, text)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _utf8(text: str) -> bytes:
    """UTF-8 bytes of a JavaScript string: a lone surrogate becomes U+FFFD, as Node.js encodes it."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "replace").encode()


def _sha256_json(body: str) -> str:
    try:
        data = body.encode()
    except UnicodeEncodeError:
        data = _escape_surrogates(body).encode()
    return sha256(data).hexdigest()


def describe(value: Any) -> str:
    """A short JSON-flavoured description of a value for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 256:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _quoted_if_safe(value)
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return kind_of(value)


_DATE_OR_NUMBER = re.compile(r"[0-9:.+\-TZtz]{1,25}")  # a date, a time or a number, written without a space


def _quoted_if_safe(value: str) -> str:
    """``the string '2026-13-01'`` for a short value made of digits and a date's signs; any other string
    only by its length: a message never quotes what may be a memory's text or a secret
    (docs/mapping.md, "Privacy")."""
    if _DATE_OR_NUMBER.fullmatch(value) and not sensitive(value):  # not a card number written whole
        return f"the string {value!r}"
    return f"a string of {len(value):,} character{'' if len(value) == 1 else 's'}"


# a key with a digit and a sign beside letters, as a password has ("Tr0ub4dor&3horse"): not shown
_PASSWORD_LIKE = re.compile(r"(?=.*[0-9])(?=.*[^\w\s.:/-])(?=.*[^\W\d_])")


def json_path(parts: Sequence[str | int]) -> str:
    """A JSONPath such as ``$.turnIndex`` or ``$["odd key"][0]`` for a list of keys and indexes."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif sensitive(part) or _PASSWORD_LIKE.search(part) or len(part) > 24 and not _IDENTIFIER.fullmatch(part):
            out += f"[a key of {len(part):,} characters]"  # a key may be a memory's words, or a secret
            # (an identifier too: "ghp_…", "AKIA…" are one)
        elif _IDENTIFIER.fullmatch(part):
            out += f".{part}"
        else:
            # Readable, but printable: a lone surrogate cannot be written to a UTF-8 stream.
            out += f"[{json.dumps(part, ensure_ascii=bool(_SURROGATE.search(part)))}]"
    return out


# ----------------------------------------------------------------------------- canonical JSON


def _js_number(value: float) -> str:
    """``value`` as JavaScript's Number.prototype.toString writes it."""
    if not math.isfinite(value):
        raise ValueError(f"{value!r} has no JSON form")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    fraction = "" if fraction == "0" else fraction
    padded = whole + fraction
    digits = padded.lstrip("0")
    # value = 0.digits × 10**point
    point = len(whole) + int(exponent or 0) - (len(padded) - len(digits))
    digits = digits.rstrip("0")
    count = len(digits)
    if count <= point <= 21:
        text = digits + "0" * (point - count)
    elif 0 < point <= 21:
        text = f"{digits[:point]}.{digits[point:]}"
    elif -6 < point <= 0:
        text = f"0.{'0' * -point}{digits}"
    else:
        exp = point - 1
        head = digits if count == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{head}e{'+' if exp >= 0 else '-'}{abs(exp)}"
    return sign + text


def _js_integer(value: int) -> str:
    if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
        return str(value)
    try:
        return _js_number(float(value))
    except OverflowError:
        raise ValueError("is too large for a JSON number") from None


def _utf16_key(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _is_array_index(key: str) -> bool:
    return (
        key.isascii()
        and key.isdigit()
        and len(key) <= 10
        and (key == "0" or key[0] != "0")
        and int(key) <= _MAX_ARRAY_INDEX
    )


def _ordered_keys(value: Mapping[Any, Any]) -> list[str]:
    """The keys of ``value`` in the order JSON.stringify writes them for the key-sorted object."""
    keys = list(value)
    try:
        plain = "".join(keys).isascii()
    except TypeError:
        bad = next(key for key in keys if not isinstance(key, str))
        raise _Unencodable(f"object keys must be strings, got {describe(bad)}") from None
    if plain:
        keys.sort()
        # Sorted ASCII keys that start with a digit sit together from the first key >= "0".
        first = bisect.bisect_left(keys, "0")
        if first == len(keys) or not keys[first][:1].isdigit():
            return keys
    else:
        keys.sort(key=_utf16_key)
    indexes = [key for key in keys if _is_array_index(key)]
    if not indexes:
        return keys
    indexes.sort(key=int)
    return indexes + [key for key in keys if not _is_array_index(key)]


class _Unencodable(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.parts: list[str | int] = []


def _encode(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _encode_str(value)
    if kind is dict:
        return _encode_object(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        try:
            return _js_integer(value)
        except ValueError as exc:
            raise _Unencodable(str(exc)) from None
    if isinstance(value, float):
        try:
            return _js_number(value)
        except ValueError as exc:
            raise _Unencodable(str(exc)) from None
    if isinstance(value, str):
        return _encode_str(value)
    if isinstance(value, Mapping):
        return _encode_object(value)
    if isinstance(value, (list, tuple)):
        return _encode_array(value)
    raise _Unencodable(f"{describe(value)} has no JSON form")


def _encode_array(value: list[Any] | tuple[Any, ...]) -> str:
    parts = []
    for index, item in enumerate(value):
        try:
            parts.append("null" if item is ABSENT else _encode(item))
        except _Unencodable as exc:
            exc.parts.insert(0, index)
            raise
    return f"[{','.join(parts)}]"


def _encode_object(value: Mapping[Any, Any]) -> str:
    parts = []
    for key in _ordered_keys(value):
        item = value[key]
        if item is ABSENT:
            continue
        try:
            parts.append(f"{_encode_str(key)}:{_encode(item)}")
        except _Unencodable as exc:
            exc.parts.insert(0, key)
            raise
    return f"{{{','.join(parts)}}}"


def canonical_json(value: Any) -> str:
    """The canonical JSON text of a JSON value (dicts, lists, str, int, float, bool, None).

    Raises ``ContractError`` (with the ``path`` of the offending value) for anything without a
    JSON form: NaN, infinities, non-string keys, other Python objects.
    """
    if value is ABSENT:
        raise ContractError("an absent value has no JSON text", path="$")
    try:
        text = _encode(value)
    except _Unencodable as exc:
        raise ContractError(exc.reason, path=json_path(exc.parts)) from None
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _escape_surrogates(text)


# ----------------------------------------------------------------------------- hashes and ids


def hash_scope(parts: Sequence[str | None], salt: str = "") -> str:
    """SHA-256 hex of ``salt + U+001E + U+001F.join(trimmed parts)``; a ``None`` part counts as ""."""
    if isinstance(parts, str):
        raise TypeError("hash_scope takes a sequence of parts, not a single string")
    joined = "\x1f".join("" if part is None else part.strip(JS_WHITESPACE) for part in parts)
    return sha256(_utf8(f"{salt}\x1e{joined}")).hexdigest()


def participant_hash_for_did(did: str, salt: str = "") -> str:
    """The participant scope hash of a repository owner: ``hash_scope(["atproto", did], salt)``."""
    return hash_scope(["atproto", did], salt)


_EPISODE_ID_FIELDS = (
    "runtime",
    "agentId",
    "profileId",
    "externalSessionId",
    "sourceEventId",
    "turnIndex",
    "userText",
    "assistantText",
)
_FACT_ID_FIELDS = (
    "runtime",
    "agentId",
    "profileId",
    "participantScopeHash",
    "subjectKey",
    "kind",
    "sourceEventId",
    "text",
)
# The snake_case attribute of each field on the pydantic models.
_ATTRIBUTE = {
    name: re.sub("[A-Z]", lambda m: "_" + m[0].lower(), name) for name in _EPISODE_ID_FIELDS + _FACT_ID_FIELDS
}
_GETTER = {names: operator.itemgetter(*names) for names in (_EPISODE_ID_FIELDS, _FACT_ID_FIELDS)}


def _id_inputs(event: Any, keywords: tuple[Any, ...], names: tuple[str, ...], what: str) -> tuple[Any, ...]:
    """The id's input fields, in ``names`` order, from an event model, a camelCase mapping or keywords.

    An episode's ``sourceEventId`` may be absent (it then counts as ""); every other field is
    required.
    """
    optional = "sourceEventId" if what == "eventId" else None
    if event is None:
        for name, value in zip(names, keywords):
            if value is None and name != optional:
                raise ContractError(f"is required to compute the {what}", path=f"$.{name}")
        return keywords
    if keywords.count(None) != len(keywords):
        raise TypeError(f"pass either an event or keyword fields to compute the {what}, not both")
    try:
        if isinstance(event, Mapping):
            if optional is None or optional in event:
                return _GETTER[names](event)  # type: ignore[no-any-return]
            return tuple(None if name == optional else event[name] for name in names)
        return tuple(getattr(event, _ATTRIBUTE[name]) for name in names)
    except KeyError as exc:
        raise ContractError(f"is required to compute the {what}", path=f"$.{exc.args[0]}") from None
    except AttributeError:
        raise ContractError(f"expected an event or an object to compute the {what}, got {describe(event)}") from None


def _bad_id_input(names: tuple[str, ...], values: tuple[Any, ...], what: str) -> ContractError:
    for name, value in zip(names, values):
        if not isinstance(value, str) and name != "turnIndex":
            # (its kind, not its value: the field may be the memory's text, "text": 4827 a PIN)
            return ContractError(f"expected a string to compute the {what}, got {kind_of(value)}", path=f"$.{name}")
    return ContractError(f"cannot compute the {what}")


def _turn_index_text(value: Any) -> str:
    if type(value) is not int:
        whole = isinstance(value, float) and math.isfinite(value) and value.is_integer()
        if not (whole or isinstance(value, int)) or isinstance(value, bool):
            raise ContractError(f"expected an integer to compute the eventId, got {describe(value)}",
                                path="$.turnIndex")
        value = int(value)
    return _js_integer(value)


def event_id(
    event: EpisodeEvent | Mapping[str, Any] | None = None,
    /,
    *,
    runtime: str | None = None,
    agent_id: str | None = None,
    profile_id: str | None = None,
    external_session_id: str | None = None,
    source_event_id: str | None = None,
    turn_index: int | None = None,
    user_text: str | None = None,
    assistant_text: str | None = None,
) -> str:
    """The episode's ``eventId``: SHA-256 hex of the canonical JSON of its identity fields.

    Takes an ``EpisodeEvent``, a camelCase mapping, or the fields as keywords. An absent
    ``sourceEventId`` counts as "".
    """
    keywords = (runtime, agent_id, profile_id, external_session_id, source_event_id, turn_index, user_text,
                assistant_text)
    values = _id_inputs(event, keywords, _EPISODE_ID_FIELDS, "eventId")
    runtime_, agent, profile, session, source, turn, user, assistant = values
    turn_text = _turn_index_text(turn)
    try:
        body = (
            f'{{"agentId":{_encode_str(agent)},"assistantText":{_encode_str(assistant)},'
            f'"eventType":"episode","externalSessionId":{_encode_str(session)},'
            f'"profileId":{_encode_str(profile)},"runtime":{_encode_str(runtime_)},"schemaVersion":1,'
            f'"sourceEventId":{_encode_str("" if source is None else source)},"turnIndex":{turn_text},'
            f'"userText":{_encode_str(user)}}}'
        )
    except TypeError:
        raise _bad_id_input(_EPISODE_ID_FIELDS, values, "eventId") from None
    return _sha256_json(body)


def fact_id(
    event: FactEvent | Mapping[str, Any] | None = None,
    /,
    *,
    runtime: str | None = None,
    agent_id: str | None = None,
    profile_id: str | None = None,
    participant_scope_hash: str | None = None,
    subject_key: str | None = None,
    kind: str | None = None,
    source_event_id: str | None = None,
    text: str | None = None,
) -> str:
    """The fact's ``factId``: SHA-256 hex of the canonical JSON of its identity fields.

    Takes a ``FactEvent``, a camelCase mapping, or the fields as keywords.
    """
    keywords = (runtime, agent_id, profile_id, participant_scope_hash, subject_key, kind, source_event_id, text)
    values = _id_inputs(event, keywords, _FACT_ID_FIELDS, "factId")
    runtime_, agent, profile, participant, subject, kind_, source, text_ = values
    try:
        body = (
            f'{{"agentId":{_encode_str(agent)},"eventType":"fact","kind":{_encode_str(kind_)},'
            f'"participantScopeHash":{_encode_str(participant)},"profileId":{_encode_str(profile)},'
            f'"runtime":{_encode_str(runtime_)},"schemaVersion":1,"sourceEventId":{_encode_str(source)},'
            f'"subjectKey":{_encode_str(subject)},"text":{_encode_str(text_)}}}'
        )
    except TypeError:
        raise _bad_id_input(_FACT_ID_FIELDS, values, "factId") from None
    return _sha256_json(body)
