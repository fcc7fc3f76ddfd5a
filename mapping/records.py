"""The bidirectional mappers: AgentMemoryEvent v1 ⇄ ``dev.bastienrobert.memory.record``.

``docs/mapping.md`` is the specification, field by field; this module implements it. Pure: no
network, no clock, no files. Callers pass the repository DID, the trusted import scope and the
at-uris of memories exported earlier.

- ``to_record(item, did, …)``: an event (or a ``from_record`` result) → ``RecordView``.
- ``from_record(view, scope)``: a ``{uri, cid, value}`` record view → ``Imported``.
- ``to_records`` / ``from_records``: batches; they resolve supersession inside the batch and
  return ``(ok, failed)``: one bad item never aborts the others.

Tricky bits:
- A record that came from a PDS is patched, never rebuilt: unchanged events give back the same
  bytes and so the same CID, unknown fields included.
- ``active`` is never written to a record: in a repository a memory is inactive exactly when a
  later record supersedes it (or it is deleted).
- The extension's ids and trust fields are honoured on import only with a valid ``proof``
  (see ``docs/mapping.md``, "Recognising a memory").
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pdsmem.errors import MappingError, PdsmemError, RecordInvalid, kind_of
from pdsmem.lexicons import EXTENSION_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_text_for_json
from pdsmem.mapping.lexicon import LexiconSet
from pdsmem.mapping.sha256 import sha256
from pdsmem.mapping.syntax import Datetime, Did, Tid
from pdsmem.mapping.syntax_base import shown

EXT_KEY = EXTENSION_NSID
SCOPE_FIELDS = ("agentId", "profileId", "privacyScope", "participantScopeHash", "sandboxEligible")
IMPORT_PROVENANCE = "pdsmem:import"
DEFAULT_CONFIDENCE = 0.5

_lexicons: LexiconSet | None = None


def default_lexicons() -> LexiconSet:
    global _lexicons
    if _lexicons is None:
        _lexicons = LexiconSet.default()
    return _lexicons


@dataclass(frozen=True)
class RecordView:
    """A record as ``com.atproto.repo.listRecords`` shows it."""

    uri: str
    cid: str
    value: dict

    def to_json(self) -> dict:
        return {"uri": self.uri, "cid": self.cid, "value": self.value}

    @classmethod
    def from_json(cls, obj: Any) -> RecordView:
        if not isinstance(obj, Mapping):
            raise MappingError("a record view must be an object {uri, cid, value}")
        uri, value = obj.get("uri"), obj.get("value")
        if not isinstance(uri, str):
            raise MappingError("record view has no 'uri' string", path="$.uri")
        if not isinstance(value, dict):
            raise MappingError("record view has no 'value' object", path="$.value", uri=uri)
        cid = obj.get("cid")
        if cid is not None and not isinstance(cid, str):
            raise MappingError("record view 'cid' must be a string", path="$.cid", uri=uri)
        computed = cid_text_for_json(value)
        if cid is not None and cid != computed:
            raise MappingError(
                f"the view's cid {cid!r:.80} is not the CID of its value ({computed})",
                path="$.cid",
                uri=uri,
                hint="the record view was altered or truncated; read it again from the PDS",
            )
        return cls(uri=uri, cid=computed, value=value)


@dataclass(frozen=True)
class ImportScope:
    """Trusted configuration for import: never read from records (decision 2, docs/decisions.md)."""

    did: str
    agent_id: str
    profile_id: str
    salt: str = ""
    privacy_scope: str = "shared"
    sandbox_eligible: bool = False
    runtime: str = "custom"
    trust_class: str = "untrusted"
    participant: str | None = None  # a participant hash given as it is (an agent runtime's), else the DID's

    def __post_init__(self) -> None:
        Did.parse(self.did)
        for name in ("agent_id", "profile_id"):
            if not getattr(self, name):
                raise MappingError(f"import scope needs a non-empty {name}")

    @property
    def fields(self) -> dict:
        """The five scope fields of every event imported with this scope (a new dict each time)."""
        return {
            "agentId": self.agent_id,
            "profileId": self.profile_id,
            "privacyScope": self.privacy_scope,
            "participantScopeHash": self.participant_hash,
            "sandboxEligible": self.sandbox_eligible,
        }

    @functools.cached_property
    def participant_hash(self) -> str:
        """``participant`` when given, else ``hashScope(["atproto", did], salt)``, computed once."""
        return self.participant or contract.participant_hash_for_did(self.did, self.salt)


@dataclass
class Imported:
    """One record mapped to an event, with the untouched source record and its links."""

    event: dict
    record: RecordView
    supersedes: list[str] = field(default_factory=list)  # same-repository at-uris, in order
    supersedes_fact_ids: list[str] = field(default_factory=list)  # resolved within the batch
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return imported_json(self)


def imported_json(item: Any) -> dict[str, Any]:
    """``{"event", "record", "links"}`` of a record mapped to an event (``Imported``, or the public
    API's ``Mapped``), as ``pdsmem convert from-record`` prints it."""
    links: dict[str, Any] = {"supersedes": item.supersedes}
    if item.supersedes_fact_ids:
        links["supersedesFactIds"] = item.supersedes_fact_ids
    if item.notes:
        links["notes"] = item.notes
    return {"event": item.event, "record": item.record.to_json(), "links": links}


@dataclass(frozen=True)
class ItemFailure:
    position: int
    error: PdsmemError

    def to_json(self) -> dict:
        return {"position": self.position, "error": str(self.error), "type": type(self.error).__name__}


# --- shared helpers -------------------------------------------------------------------------


_LAST_TID_SECOND = (1 << 53) // 1_000_000 - 1  # a key takes any microsecond of its second: all must fit 53 bits


def record_key(created_at: str, memory_id: str, attempt: int = 0) -> Tid:
    """The deterministic TID record key of an exported memory (docs/mapping.md, "Record keys")."""
    micros = Datetime.parse(created_at).epoch_micros()
    if micros < 0:
        raise MappingError(f"createdAt {created_at} is before 1970; a TID cannot hold it")
    if micros // 1_000_000 > _LAST_TID_SECOND:
        raise MappingError(f"createdAt {created_at} is after 2255-06-05T23:47:33Z; a TID cannot hold it")
    seed = memory_id if attempt == 0 else f"{memory_id}:{attempt}"
    h = sha256(seed.encode()).digest()
    jitter = (int.from_bytes(h[:3], "big") >> 4) % 1_000_000
    clock_id = ((h[2] & 0x0F) << 6) | (h[3] >> 2)
    return Tid.from_parts(micros - micros % 1_000_000 + jitter, clock_id)


def confidence_to_string(value: float | int) -> str:
    """Exact text of a confidence in [0, 1]: the shortest decimal that round-trips the double.

    The atproto data model has no floats. Tiny values keep an exponent (``6.35e-207``), so the
    text stays short (a double needs at most 24 characters).
    """
    return repr(float(value))


_CONFIDENCE = re.compile(r"\d(?:\.\d+)?(?:e-\d{1,3})?")


def confidence_from_string(text: Any) -> float | None:
    """The confidence a string holds, or None when it is not a decimal in [0, 1]."""
    if not isinstance(text, str) or len(text) > 32 or not _CONFIDENCE.fullmatch(text):
        return None
    number = float(text)
    return number if 0.0 <= number <= 1.0 else None


def memory_id(event: Mapping) -> str:
    return event["factId"] if event["eventType"] == "fact" else event["eventId"]


def _proof(uri: str, scope: Mapping, value: Mapping, ext: Mapping) -> str:
    text = _plain_proof_json(uri, scope, value, ext)
    if text is not None:
        try:
            return sha256(text.encode()).hexdigest()
        except UnicodeEncodeError:  # a lone surrogate: the canonical writer escapes it
            pass
    body = {
        "v": 1,
        "uri": uri,
        "scope": {k: scope[k] for k in SCOPE_FIELDS},
        "content": value.get("content"),
        "createdAt": value.get("createdAt"),
        "kind": value.get("kind"),
        "ext": {k: v for k, v in ext.items() if k != "proof"},
    }
    return sha256(_canonical_bytes(body, body["ext"])).hexdigest()


_encode_str: Callable[[str], str] = json.encoder.encode_basestring  # type: ignore[attr-defined]


def _plain_json(item: Any) -> str | None:
    """The JSON text of a string, integer, boolean or null; None for anything else."""
    kind = type(item)
    if kind is str:
        return _encode_str(item)
    if kind is bool:
        return "true" if item else "false"
    if kind is int:
        return int.__repr__(item)
    return "null" if item is None else None


_EXT_KEYS = ("eventType", "id", "runtime", "subjectKey", "confidence", "sourceEventId", "validFrom", "validUntil")
_EXT_KEYS += ("visibility", "trustClass", "provenance", "externalSessionId", "turnIndex", "conversationKind")
_EXT_KEYS += ("originClass", "channelIdHash")
_KEY_JSON = {key: f'"{key}":' for key in _EXT_KEYS}  # what pdsmem writes, written once
_SCOPE_VALUES = operator.itemgetter(*SCOPE_FIELDS)


def _plain_proof_json(uri: str, scope: Mapping, value: Mapping, ext: Mapping) -> str | None:
    """The proof body's JSON text, written directly for the usual shape: plain ASCII keys and
    plain values (``_plain_json``) in the extension. Byte-identical to ``_canonical_bytes``
    there; None for any other shape."""
    try:
        items = sorted(ext.items())  # keys differ, so values are never compared
    except TypeError:  # keys that are not all strings
        return None
    fields = []
    for key, item in items:
        if key == "proof":
            continue
        prefix = _KEY_JSON.get(key)
        if prefix is None:
            if type(key) is not str or not key.isascii() or key[:1].isdigit():
                return None
            prefix = _encode_str(key) + ":"
        text = _encode_str(item) if type(item) is str else _plain_json(item)
        if text is None:
            return None
        fields.append(prefix + text)
    scope_text = _scope_json(_SCOPE_VALUES(scope))
    parts = [_plain_json(value.get("content")), _plain_json(value.get("createdAt")), _plain_json(value.get("kind"))]
    uri_text = _plain_json(uri)
    if scope_text is None or uri_text is None or None in parts:
        return None
    content, created_at, kind = parts
    ext_text = ",".join(fields)
    return (
        f'{{"content":{content},"createdAt":{created_at},"ext":{{{ext_text}}},"kind":{kind},'
        f'"scope":{scope_text},"uri":{uri_text},"v":1}}'
    )


_SCOPE_JSON: dict[tuple, str] = {}  # a batch has one scope, or a few: each is written once


def _scope_json(values: tuple) -> str | None:
    """The proof body's ``scope`` object for (agentId, profileId, privacyScope,
    participantScopeHash, sandboxEligible) of exact types ``str`` and ``bool`` (so that equal
    tuples have equal JSON), or None."""
    agent, profile, privacy, participant, sandbox = values
    if type(sandbox) is not bool or not type(agent) is type(profile) is type(privacy) is type(participant) is str:
        return None
    text = _SCOPE_JSON.get(values)
    if text is None:
        text = (
            f'{{"agentId":{_encode_str(agent)},"participantScopeHash":{_encode_str(participant)},'
            f'"privacyScope":{_encode_str(privacy)},"profileId":{_encode_str(profile)},'
            f'"sandboxEligible":{"true" if sandbox else "false"}}}'
        )
        if len(_SCOPE_JSON) >= 64:
            _SCOPE_JSON.clear()
        _SCOPE_JSON[values] = text
    return text


def _canonical_bytes(body: dict, ext: Mapping) -> bytes:
    """Canonical JSON bytes of a proof body.

    json.dumps(sort_keys=True) is byte-identical to the canonical form when every key is a plain
    ASCII name and no string holds a lone surrogate (the usual case, and a fast one); anything
    else goes through the general canonical writer.
    """
    simple = all(
        key.isascii() and not key[:1].isdigit() and (not isinstance(v, (dict, list)) or key == "transcript")
        for key, v in ext.items()
    )
    if simple:
        try:
            return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
        except (UnicodeEncodeError, ValueError, TypeError):
            pass
    return contract.canonical_json(body).encode()


def _valid_datetime(text: Any) -> bool:
    """Whether ``text`` is an atproto datetime that a Python ``datetime`` can hold (not year 0)."""
    if not isinstance(text, str):  # absent, usually: no error to build
        return False
    try:
        return Datetime.parse(text).year != 0
    except PdsmemError:
        return False


def _check_datetime(event: Mapping, name: str, mid: str) -> str:
    text = event[name]
    if not _valid_datetime(text):
        raise MappingError(
            f"memory {mid}: {name} {shown(text) if isinstance(text, str) else kind_of(text)} is not an atproto datetime "
            "(RFC 3339 with an upper-case 'T' and a time zone, e.g. 2026-08-18T00:00:00Z)",
            path=f"$.{name}",
        )
    return text


def checked_extension(value: Mapping) -> tuple[dict, RecordInvalid | None]:
    """The record's extension as import reads it: ``{}`` when there is none, and ``({}, why)``
    when it does not validate against its lexicon (it is then ignored)."""
    ext = value.get(EXT_KEY)
    if ext is None:
        return {}, None
    try:
        if not isinstance(ext, Mapping):
            raise RecordInvalid("must be an object", path=f"$.{EXT_KEY}")
        default_lexicons().validate_value(EXTENSION_NSID, ext)
    except RecordInvalid as err:
        return {}, err
    return dict(ext), None


def recognised(uri: str, value: Mapping, ext: Mapping, scope: Mapping) -> bool:
    """True when ``ext`` (the checked extension of ``value``) is pdsmem's own, written from
    ``scope`` (the five scope fields) and unedited since: its ids and trust fields then hold."""
    return bool(ext) and written_unchanged(uri, value, scope) == ext.get("id")


def written_unchanged(uri: str, value: Mapping, scope: Mapping) -> str | None:
    """The memory id of a record pdsmem wrote from ``scope`` and nobody has edited since, else None.

    True exactly when the extension's proof holds for this uri, content and scope.
    """
    ext = value.get(EXT_KEY)
    if not isinstance(ext, Mapping) or not isinstance(ext.get("id"), str):
        return None
    try:
        return ext["id"] if ext.get("proof") == _proof(uri, scope, value, ext) else None
    except PdsmemError:  # a value without a canonical JSON form cannot carry a valid proof
        return None
