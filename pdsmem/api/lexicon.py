"""The lexicons pdsmem ships and the schema of its input: reading them (``shipped_lexicons``,
``event_schema``), publishing them (``publish_lexicon``), and validating records against them
(``RecordValidator``).

Publication follows the atproto Lexicon spec ("Lexicon Publication and Resolution"): each schema
is a ``com.atproto.lexicon.schema`` record whose record key is its NSID, in the repository of the
account that speaks for the NSID's authority domain (``lexicon_authority``); a DNS TXT record
``_lexicon.<authority domain>`` holding ``did=<that account's DID>`` links the two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdsmem.errors import PdsmemError, UsageError

if TYPE_CHECKING:
    from pdsmem.api.results import Session

__all__ = ["Published", "RecordValidator", "event_schema", "lexicon_authority", "publish_lexicon", "shipped_lexicons"]

SCHEMA_NSID = "com.atproto.lexicon.schema"


def shipped_lexicons() -> dict[str, dict[str, Any]]:
    """The lexicon documents pdsmem ships, by NSID: the memory record
    (``dev.bastienrobert.memory.record``) and pdsmem's extension (``dev.pdsmem.agentMemory``).
    A fresh copy each call."""
    from pdsmem.lexicons import all_documents

    return {doc["id"]: doc for doc in all_documents()}


def event_schema() -> str:
    """The JSON Schema of AgentMemoryEvent v1, the events pdsmem reads and writes, as RushDB
    publishes it (draft 2020-12; Apache License 2.0), as text."""
    from pdsmem.lexicons import contract_schema_text

    return contract_schema_text()


def lexicon_authority(nsid: str) -> str:
    """The domain that speaks for ``nsid``: the NSID without its last part, reversed
    (``dev.pdsmem.agentMemory`` → ``pdsmem.dev``). Raises ``InvalidSyntax`` for a malformed NSID."""
    from pdsmem.mapping.syntax import Nsid

    return Nsid.parse(nsid).authority.lower()


@dataclass(frozen=True)
class Published:
    """A schema ``publish_lexicon`` made sure of: its NSID, the record's at-uri and CID, and
    ``status``: created, updated or unchanged (``would create``, ``would update`` in a dry run).

    ``dns_name`` and ``dns_value`` are the DNS TXT record that makes the repository's owner the
    NSID's authority, so that resolvers find the schema."""

    nsid: str
    uri: str
    cid: str
    status: str
    dns_name: str
    dns_value: str


def publish_lexicon(session: Session, nsid: str, *, dry_run: bool = False) -> Published:
    """Make the repository of ``session`` hold the shipped lexicon ``nsid`` as its
    ``com.atproto.lexicon.schema`` record (record key: the NSID).

    A record already holding the same schema (same CID) is left alone; a changed one is replaced
    with ``putRecord``, guarded by ``swapRecord``. Publish only the NSIDs whose authority domain
    (``lexicon_authority``) is the account's handle or under it: resolvers look for the schema in
    the repository that domain's DNS names. ``dry_run`` reads and writes nothing. Raises
    ``UsageError`` for an NSID pdsmem does not ship, and a ``PdsmemError`` for a PDS that refuses
    or answers otherwise than it should. Never touches another record."""
    from pdsmem.bridge.atproto.xrpc import XrpcError
    from pdsmem.mapping.datamodel import cid_text_for_json
    from pdsmem.mapping.syntax import AtUri

    from pdsmem.api.arguments import a_session

    documents = shipped_lexicons()
    if nsid not in documents:
        raise UsageError(f"pdsmem ships no lexicon {nsid}; it ships {', '.join(documents)}")
    calls: Any = a_session(session)
    record = {"$type": SCHEMA_NSID, **documents[nsid]}
    cid = cid_text_for_json(record)
    uri = str(AtUri.build(session.did, SCHEMA_NSID, nsid))
    dns = (f"_lexicon.{lexicon_authority(nsid)}", f"did={session.did}")

    def published(status: str) -> Published:
        return Published(nsid, uri, cid, status, *dns)

    try:
        held = calls.query("com.atproto.repo.getRecord", {"repo": session.did, "collection": SCHEMA_NSID, "rkey": nsid})
    except XrpcError as exc:
        if exc.error != "RecordNotFound":
            raise
        held = None
    if held is not None and held.get("cid") == cid:
        return published("unchanged")
    status = "created" if held is None else "updated"
    if dry_run:
        return published(f"would {status.removesuffix('d')}")
    body: dict[str, Any] = {"repo": session.did, "collection": SCHEMA_NSID, "rkey": nsid, "record": record}
    if held is not None:
        body["swapRecord"] = held.get("cid")
    answer = calls.procedure("com.atproto.repo.putRecord", body)
    if answer.get("cid") != cid:
        raise PdsmemError(
            f"the PDS stored the schema with CID {answer.get('cid')}, but pdsmem computed {cid}",
            uri=uri, hint="this is a bug in pdsmem's encoding; please report it",
        )
    return published(status)


class RecordValidator:
    """Validates records against lexicons: the ones pdsmem ships, and the lexicon ``documents``
    given (parsed JSON). Build one once and reuse it: building checks and compiles every
    definition. Raises ``LexiconError`` for a malformed document, or one whose NSID is there
    already."""

    def __init__(self, documents: Iterable[Any] = ()) -> None:
        from pdsmem.mapping.lexicon import LexiconSet

        self._lexicons = LexiconSet.default()
        for document in documents:
            self.add(document)

    def add(self, document: Any) -> None:
        """Check the lexicon ``document`` and add its definitions; ``LexiconError``, adding
        nothing, when it is malformed or its NSID is there already."""
        self._lexicons.add(document)

    def validate(self, record: Mapping[str, Any], *, nsid: str | None = None) -> None:
        """Check ``record``: a record value, or a ``{uri, cid, value}`` view as ``listRecords``
        returns it (then its record key is checked against its lexicon's key type too).

        Its ``$type`` names its lexicon; without one, it is checked as a record of ``nsid``, else
        of ``dev.bastienrobert.memory.record``. A memory record's extension is checked as import
        reads it. Raises ``RecordInvalid`` for the first problem found (its ``path`` says
        where), ``LexiconError`` for a type no lexicon here defines as a record, ``InvalidSyntax``
        for a view's malformed at-uri. Never changes ``record``."""
        from pdsmem.lexicons import RECORD_NSID
        from pdsmem.mapping.records import EXT_KEY, checked_extension
        from pdsmem.errors import RecordInvalid

        value = _record_value(record)
        if nsid and "$type" not in value:  # checked as the record of that type it would be
            value = {"$type": nsid, **value}
        declared = value.get("$type")
        record_type: str = declared if isinstance(declared, str) else nsid or RECORD_NSID
        self._lexicons.validate_record(record_type, value, rkey=_record_key(record))
        if record_type == RECORD_NSID:  # the extension too, as import reads it
            _, invalid = checked_extension(value)
            if invalid is not None:
                raise RecordInvalid(
                    f"its {EXT_KEY} extension does not validate against its lexicon: {invalid.detail()}",
                    hint="import would ignore the extension",
                )


def _is_view(obj: Mapping[str, Any]) -> bool:
    return isinstance(obj.get("value"), dict) and "uri" in obj


def _record_value(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """A record value, whether given bare or as a {uri, cid, value} view."""
    value: Mapping[str, Any] = obj["value"] if _is_view(obj) else obj
    return value


def _record_key(obj: Mapping[str, Any]) -> str | None:
    """The record key of a {uri, cid, value} view; None for a bare value (its key is not known)."""
    if not _is_view(obj):
        return None
    from pdsmem.mapping.syntax import AtUri

    return str(AtUri.parse(obj["uri"]).rkey or "")
