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

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pdsmem.errors import MappingError, PdsmemError, RecordInvalid
from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_for_json
from pdsmem.mapping.lexicon import LexiconSet
from pdsmem.mapping.privacy import check_publishable
from pdsmem.mapping.syntax import AtUri, Datetime, Did, Tid

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
        return cls(uri=uri, cid=cid or str(cid_for_json(value)), value=value)


@dataclass(frozen=True)
class ImportScope:
    """Trusted configuration for import: never read from records (PRODUCT.md decision 2)."""

    did: str
    agent_id: str
    profile_id: str
    salt: str = ""
    privacy_scope: str = "shared"
    sandbox_eligible: bool = False
    runtime: str = "custom"
    trust_class: str = "untrusted"

    def __post_init__(self) -> None:
        Did.parse(self.did)
        for name in ("agent_id", "profile_id"):
            if not getattr(self, name):
                raise MappingError(f"import scope needs a non-empty {name}")

    @property
    def fields(self) -> dict:
        return {
            "agentId": self.agent_id,
            "profileId": self.profile_id,
            "privacyScope": self.privacy_scope,
            "participantScopeHash": contract.participant_hash_for_did(self.did, self.salt),
            "sandboxEligible": self.sandbox_eligible,
        }


@dataclass
class Imported:
    """One record mapped to an event, with the untouched source record and its links."""

    event: dict
    record: RecordView
    supersedes: list[str] = field(default_factory=list)  # same-repository at-uris, in order
    supersedes_fact_ids: list[str] = field(default_factory=list)  # resolved within the batch
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        links: dict[str, Any] = {"supersedes": self.supersedes}
        if self.supersedes_fact_ids:
            links["supersedesFactIds"] = self.supersedes_fact_ids
        if self.notes:
            links["notes"] = self.notes
        return {"event": self.event, "record": self.record.to_json(), "links": links}


@dataclass(frozen=True)
class ItemFailure:
    position: int
    error: PdsmemError

    def to_json(self) -> dict:
        return {"position": self.position, "error": str(self.error), "type": type(self.error).__name__}


# --- shared helpers -------------------------------------------------------------------------


def record_key(created_at: str, memory_id: str, attempt: int = 0) -> Tid:
    """The deterministic TID record key of an exported memory (docs/mapping.md, "Record keys")."""
    micros = Datetime.parse(created_at).epoch_micros()
    if micros < 0:
        raise MappingError(f"createdAt {created_at} is before 1970; a TID cannot hold it")
    seed = memory_id if attempt == 0 else f"{memory_id}:{attempt}"
    h = hashlib.sha256(seed.encode()).digest()
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
    body = {
        "v": 1,
        "uri": uri,
        "scope": {k: scope[k] for k in SCOPE_FIELDS},
        "content": value.get("content"),
        "createdAt": value.get("createdAt"),
        "kind": value.get("kind"),
        "ext": {k: v for k, v in ext.items() if k != "proof"},
    }
    return hashlib.sha256(_canonical_bytes(body, body["ext"])).hexdigest()


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
    try:
        Datetime.parse(text).to_datetime()
    except (PdsmemError, TypeError, ValueError):
        return False
    return True


def _check_datetime(event: Mapping, name: str, mid: str) -> str:
    text = event[name]
    if not _valid_datetime(text):
        raise MappingError(
            f"memory {mid}: {name} {text!r} is not an atproto datetime "
            "(RFC 3339 with an upper-case 'T' and a time zone, e.g. 2026-08-18T00:00:00Z)",
            path=f"$.{name}",
        )
    return text


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
