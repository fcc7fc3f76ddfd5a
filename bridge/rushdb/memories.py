"""Reading a scope's memories back out of RushDB: as export items, and for recall (docs/rushdb.md).

Scope: every read starts from the five scope fields (``rushdb_rows.scope_where``), never from
anything a record or a query says.

- ``export_items``: the scope's facts and episodes as the exporter's source items. A memory whose
  mirror holds a record of the target repository comes with that record (``{event, record}``),
  so it is written back under the same record key with its unknown fields: a record nobody
  changed gets back its own CID. A memory whose record was deleted from the repository, or
  edited into another memory, is not exported again (a mirror of the scope lists it in
  ``retiredIds`` and no live mirror makes it: the user took it out).
- ``list_memories``: every memory of the scope, active or not, with the records it was synced
  from (their at-uris, deleted or not) and the runtime that wrote it: what ``pdsmem list`` shows.
- ``recall``: scoped search, active facts only, a session excludable; by vector similarity when
  an embedder and an index are there, otherwise by the words of the query, and the result says
  which. This server has no text search, so ranking by words happens here
  (``mapping.word_rank``: BM25, stop words, a floor) over the scope's memories as read: all of
  them when a label holds fewer than ``SAMPLE``, else a sample (for the words' frequencies) and
  those the server finds holding a query word (``$contains``).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.privacy import NO_SPACE_SCRIPTS, sensitive_reason
from pdsmem.mapping.word_rank import Words, rank

from .embeddings import Embedder
from .store import MemoryStore, RushDBError
from ..pipelines.sources import SourceItem

__all__ = ["Listed", "Recall", "export_items", "list_memories", "query_words", "recall"]

CANDIDATES = 200  # memories holding a query word a word search reads, of each label, beyond the sample
SAMPLE = 1000  # memories of each label read for the words' frequencies (the whole label when it holds fewer)


def export_items(store: MemoryStore, scope: Mapping[str, Any], did: str, notes: list[str]) -> Iterator[SourceItem]:
    """The scope's memories as export items; ``notes`` is told what was left out and why."""
    where = rows.scope_where(scope)
    mirrors: dict[str, list[dict]] = {}
    retired: set[str] = set()
    for mirror in store.find(rows.MIRROR, where, order_by="mirrorKey"):
        mirrors.setdefault(mirror.get("memoryId"), []).append(mirror)
        retired.update(mirror.get(rows.RETIRED_IDS) or [])
    deleted = found = 0
    for label in (rows.FACT, rows.EPISODE):
        key = rows.MERGE_KEY[label]
        for row in store.find(label, where, order_by=key):
            theirs = mirrors.get(row.get(key), [])
            live = [m for m in theirs if not m.get("deleted")]
            if row.get("retired") or (not live and (theirs or row.get(key) in retired)):  # "retired": earlier versions
                deleted += 1
                continue
            found += 1
            event = rows.event_from_row(row)
            here = [m for m in live if m.get("did") == did] or live  # another repository's: a copy keeps it
            where_ = f"rushdb:{label}:{row.get(key, '?')[:12]}"
            yield SourceItem(where_, {"event": event, "record": rows.view_from_mirror(here[0]).to_json()} if here else event,
                             row.get("__id"))
    if not found and not deleted:
        notes.append(empty_scope_note(store, scope))
    if deleted:
        notes.append(
            f"{deleted} memor{'y' if deleted == 1 else 'ies'} of this scope came from records since deleted from "
            "the repository or edited into other memories; not exported again"
        )


@dataclass
class Listed:
    """One memory of a scope as RushDB holds it, and where it came from."""

    label: str  # MEMORY_FACT | EPISODE
    id: str  # factId | eventId
    active: bool  # a fact's ``active``; an episode is inactive once pdsmem deactivated it
    retired: bool  # its record was deleted from the repository, or edited into another memory
    text: str  # the fact's text, the episode's summary: data, never for a message
    kind: str  # a fact's kind; "episode"
    at: str  # validFrom | observedAt
    runtime: str
    provenance: str
    records: list[dict] = field(default_factory=list)  # {"uri", "cid", "deleted"}: the PDS records it was synced from
    supersedes: list[str] = field(default_factory=list)  # factIds

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "id": self.id, "active": self.active, "retired": self.retired,
                "kind": self.kind, "at": self.at, "runtime": self.runtime, "provenance": self.provenance,
                "records": self.records, "supersedes": self.supersedes, "text": self.text}


def list_memories(store: MemoryStore, scope: Mapping[str, Any]) -> Iterator[Listed]:
    """Every memory of ``scope``, facts then episodes, each oldest first; then the episodes a
    deletion or an edit on the PDS retired, whose rows are gone and whose events their records'
    mirrors keep (docs/mapping.md, "Forgetting")."""
    where = rows.scope_where(scope)
    mirrors: dict[str, list[dict]] = {}
    links: dict[str, list[str]] = {}
    retired: set[str] = set()
    retired_by: dict[str, list[dict]] = {}
    gone: dict[str, tuple[dict, list[dict]]] = {}  # eventId -> (its event, the mirrors that kept it)
    for mirror in store.find(rows.MIRROR, where, order_by="uri"):
        seen = {"uri": mirror.get("uri"), "cid": mirror.get("cid"), "deleted": bool(mirror.get("deleted"))}
        mirrors.setdefault(mirror.get("memoryId"), []).append(seen)
        links.setdefault(mirror.get("memoryId"), []).extend(mirror.get(rows.LINKS) or [])
        for gone_id in mirror.get(rows.RETIRED_IDS) or []:
            retired.add(gone_id)
            retired_by.setdefault(gone_id, []).append(seen)  # the record that made it, edited or deleted since
        for event in json.loads(mirror.get(rows.RETIRED_EPISODES) or "[]"):
            gone.setdefault(event.get("eventId", ""), (event, []))[1].append(seen)
    listed: set[str] = set()
    for label, when in ((rows.FACT, "validFrom"), (rows.EPISODE, "observedAt")):
        key = rows.MERGE_KEY[label]
        for row in store.find(label, where, order_by=when):
            memory_id = str(row.get(key, ""))
            listed.add(memory_id)
            yield _listed(label, row, active=row.get("active") is not False,
                          retired=bool(row.get("retired")) or _retired(memory_id, retired, mirrors),
                          records=mirrors.get(memory_id) or retired_by.get(memory_id, []),
                          supersedes=_unique(row.get(rows.LINKS) or [], links.get(memory_id, []),
                                             [row.get("supersedesFactId")]))
    for event_id, (event, kept_by) in sorted(gone.items(), key=lambda item: str(item[1][0].get("observedAt", ""))):
        if event_id not in listed:
            yield _listed(rows.EPISODE, event, active=False, retired=True,
                          records=mirrors.get(event_id, kept_by), supersedes=[])


def _retired(memory_id: str, retired: set[str], mirrors: dict[str, list[dict]]) -> bool:
    """Whether a record that made ``memory_id`` makes it no more and no live record makes it now
    (another record of the same sync may make it instead): as ``export_items`` decides."""
    return memory_id in retired and not any(not seen["deleted"] for seen in mirrors.get(memory_id, []))


def _unique(*lists: list[Any]) -> list[str]:
    return [name for name in dict.fromkeys(name for names in lists for name in names) if name]


def _listed(label: str, row: Mapping[str, Any], *, active: bool, retired: bool, records: list[dict],
            supersedes: list[str]) -> Listed:
    fact = label == rows.FACT
    when = "validFrom" if fact else "observedAt"
    return Listed(
        label=label, id=str(row.get(rows.MERGE_KEY[label], "")), active=active, retired=retired,
        text=str(row.get(rows.TEXT_PROPERTY[label], "")), kind=str(row.get("kind", "")) if fact else "episode",
        at=str(row.get(when, "")), runtime=str(row.get("runtime", "")), provenance=str(row.get("provenance", "")),
        records=records, supersedes=supersedes,
    )


@dataclass
class Recall:
    hits: list[dict] = field(default_factory=list)  # {"label", "id", "text", "score", "event"}
    method: str = "vector"  # vector | words
    notes: list[str] = field(default_factory=list)


def recall(
    store: MemoryStore,
    scope: Mapping[str, Any],
    query: str,
    *,
    embedder: Embedder | None,
    limit: int = 8,
    exclude_session: str | None = None,
) -> Recall:
    """The scope's memories most like ``query``: episodes and active facts, best first."""
    filters = {label: _where(label, scope, exclude_session) for label in (rows.EPISODE, rows.FACT)}
    result = Recall()
    if embedder is not None:
        vector = embedder.embed([query])[0]
        try:
            for label, where in filters.items():
                found = store.vector_search({
                    "propertyName": rows.TEXT_PROPERTY[label], "labels": [label], "where": where, "limit": limit,
                    "queryVector": vector, "sourceType": "external",
                })
                result.hits += [_hit(label, row, score) for row, score in found]
        except RushDBError as err:  # no index of this embedder's size: words instead, said so
            result.hits = []
            result.notes.append(f"no vector search: {err.message}; run pdsmem ensure-indexes, then sync again")
        else:
            result.hits.sort(key=lambda hit: hit["score"] or 0.0, reverse=True)
            result.hits = _each_text_once(result.hits, limit, result.notes)
            if not result.hits and _holds_nothing(store, filters):  # a wrong salt or agent, as words say below
                result.notes.append(empty_scope_note(store, scope))
            return result
    else:
        result.notes.append(
            "no embeddings endpoint is configured (RUSHDB_EMBEDDING_*), and this server has no text "
            "search: memories are matched by the words of the query, ranked by BM25, without similarity"
        )
    result.method = "words"
    result.hits = _ranked_by_words(store, scope, filters, query, limit, result.notes)
    return result


def _holds_nothing(store: MemoryStore, filters: Mapping[str, dict[str, Any]]) -> bool:
    return not any(next(iter(store.find(label, where, order_by=rows.MERGE_KEY[label], limit=1)), None) is not None
                   for label, where in filters.items())


def empty_scope_note(store: MemoryStore, scope: Mapping[str, Any]) -> str:
    """The note for a scope that holds no memories: which options to check, and where the memories are
    when the store holds some otherwise (``_where_the_memories_are``)."""
    return _EMPTY_SCOPE.format(shown=store.target.shown) + _where_the_memories_are(store, scope)


def _where_the_memories_are(store: MemoryStore, scope: Mapping[str, Any]) -> str:
    """What to add to an empty scope's note: the first of its fields that holds memories otherwise, so that
    a new user sees which option is wrong. The other privacy (rushdb-hermes-memory writes every memory
    ``private``; the option's default is ``shared``); the other sandbox eligibility; then this agent and
    profile for another participant (its parts or the salt); then this agent's profiles for this participant;
    then the agents the project holds, the nearest to the one asked for first (rushdb-hermes-memory names the
    agent and the profile after Hermes's agent, "default" only when it has none). Each is one small read,
    made only when the scope is empty. A memory's text is never named, nor an id the privacy gate would
    refuse, nor another participant's profile (a Hermes profile is named after its home folder)."""
    other = "private" if scope.get("privacyScope") != "private" else "shared"
    if not _holds_nothing(store, _of_both_labels(rows.scope_where({**scope, "privacyScope": other}))):
        return f"; it holds memories with --privacy-scope {other}"
    sandbox = bool(scope.get("sandboxEligible"))
    if not _holds_nothing(store, _of_both_labels(rows.scope_where({**scope, "sandboxEligible": not sandbox}))):
        return f"; it holds memories {'without' if sandbox else 'with'} --sandbox-eligible"
    agent = {"agentId": scope.get("agentId")}
    if not _holds_nothing(store, _of_both_labels({**agent, "profileId": scope.get("profileId")})):
        return ("; it holds memories of this agent and profile for another participant: check the participant's "
                "parts and the salt (MEMORY_SCOPE_SALT or RUSHDB_MEMORY_SCOPE_SALT)")
    mine = {**agent, "participantScopeHash": scope.get("participantScopeHash")}
    profiles = _ids_held(store, mine, "profileId", near=str(scope.get("profileId", "")))
    if profiles:
        return f"; it holds memories of this agent with --profile-id {_some(profiles, ' or ')}"
    agents = _ids_held(store, {}, "agentId", near=str(scope.get("agentId", "")))
    return f"; it holds memories of --agent-id {_some(agents, ', ')}" if agents else ""


def _some(ids: list[str | None], joined_by: str, most: int = 3) -> str:
    """The first ``most`` of ``ids`` (``None`` stands for ids left unnamed), and "…" when there are more."""
    shown = [name for name in ids if name is not None][:most]
    return joined_by.join(shown + (["…"] if len(ids) > len(shown) else []))


def _of_both_labels(where: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {rows.FACT: where, rows.EPISODE: where}


def _ids_held(store: MemoryStore, where: Mapping[str, Any], field_name: str, *, near: str) -> list[str | None]:
    """The values of ``field_name`` among a few memories of each label that match ``where``, the nearest to
    ``near`` first; each as an option takes it (quoted when it holds a space), or ``None`` for one not to name:
    with a control character, or shaped like a secret ("AKIA…", "ghp_…")."""
    found: set[str] = set()
    for label in (rows.FACT, rows.EPISODE):
        for row in store.find(label, where, order_by=rows.MERGE_KEY[label], limit=50):
            value = row.get(field_name)
            if isinstance(value, str) and value:
                found.add(value)
    nearness = {value: difflib.SequenceMatcher(None, near.lower(), value.lower()).ratio() for value in found}
    ranked = sorted(found, key=lambda value: (-nearness[value], value))
    return [_as_an_option(value) for value in ranked]


def _as_an_option(value: str) -> str | None:
    if len(value) > 64 or any(not char.isprintable() for char in value) or sensitive_reason(value) is not None:
        return None
    return value if _A_PLAIN_ID.fullmatch(value) else json.dumps(value, ensure_ascii=False)


_A_PLAIN_ID = re.compile(r"[\w.@:+/-]+")


_EMPTY_SCOPE = ("{shown} holds no memories of this scope: check --agent-id, --profile-id, --privacy-scope, the "
                "participant (the repository's DID, --participant or --participant-scope-hash) and the salt")


def _ranked_by_words(store: MemoryStore, scope: Mapping[str, Any], filters: Mapping[str, dict[str, Any]], query: str,
                     limit: int, notes: list[str]) -> list[dict]:
    """The memories (of ``filters``, by label) that share enough of the query's words, best BM25
    score first; ``notes`` is told when none does, or some were left out for sharing too little."""
    words = Words.of(query)
    if not words.stems:
        notes.append(f"the query holds only common words ({', '.join(words.common)}), which say nothing of "
                     "what to recall: ask with a word the memories would hold")
        return []
    read: dict[tuple[str, str], tuple[str, dict]] = {}
    candidates: set[tuple[str, str]] = set()
    for label, where in filters.items():
        key = rows.MERGE_KEY[label]
        sample = list(store.find(label, where, order_by=key, limit=SAMPLE))
        read.update(((label, row[key]), (label, row)) for row in sample)
        held = sample if len(sample) < SAMPLE else _holding(store, label, where, words.search)
        for row in held:
            read.setdefault((label, row[key]), (label, row))
            candidates.add((label, row[key]))
    if not read:  # not a query that matches nothing: a scope that holds nothing, as list and export say
        notes.append(empty_scope_note(store, scope))
        return []
    order = list(read)
    texts = [str(row.get(rows.TEXT_PROPERTY[label], "")) for label, row in read.values()]
    ranked, below = rank(words, texts, among=[i for i, name in enumerate(order) if name in candidates])
    hits = _each_text_once((_hit(*read[order[hit.index]], None) for hit in ranked), limit, notes)  # BM25: no similarity
    memories = f"{below} memor{'y' if below == 1 else 'ies'}"
    if not hits:
        why = f"{memories} hold{'s' if below == 1 else ''} too little of it: few of its words, or only common " \
            "ones" if below else "none holds any of its words but common ones"
        notes.append(f"no memory of this scope matches the query well ({why}): ask with other words, or set "
                     "RUSHDB_EMBEDDING_* to recall by meaning")
    elif below:
        notes.append(f"left out {memories} holding too little of the query (below the score floor)")
    return hits


def _holding(store: MemoryStore, label: str, where: dict[str, Any], search: tuple[str, ...]) -> list[dict]:
    """Up to ``CANDIDATES`` memories of ``label`` holding the query's words as substrings: the
    server has no ranking, so it is asked first for those holding every word, then for any."""
    prop = rows.TEXT_PROPERTY[label]
    contains = [{prop: {"$contains": word}} for word in search]
    found: dict[str, dict] = {}
    for matching in (_all_of(where, contains), _and_any(where, contains)):
        for row in store.find(label, matching, order_by=rows.MERGE_KEY[label], limit=CANDIDATES - len(found)):
            found.setdefault(row[rows.MERGE_KEY[label]], row)
        if len(found) >= CANDIDATES:
            break
    return list(found.values())


def _where(label: str, scope: Mapping[str, Any], exclude_session: str | None) -> dict[str, Any]:
    if label == rows.FACT:
        return rows.scope_where(scope, active_only=True)
    where = {**rows.scope_where(scope), "$or": [{"active": True}, {"active": {"$exists": False}}]}
    if exclude_session:
        where["externalSessionId"] = {"$ne": exclude_session}
    return where


def _all_of(where: dict[str, Any], conditions: list[dict]) -> dict[str, Any]:
    """``where`` and every one of ``conditions`` (single-field objects), as one ``$and``."""
    plain = {name: value for name, value in where.items() if name != "$or"}
    either = [{"$or": where["$or"]}] if "$or" in where else []
    return {**plain, "$and": [*either, *conditions]}


def _and_any(where: dict[str, Any], alternatives: list[dict]) -> dict[str, Any]:
    """``where`` and one of ``alternatives``. RushDB takes a ``$or`` beside plain fields, and
    several as ``$and`` of single-``$or`` objects (an ``$and`` item mixing both is not honoured)."""
    plain = {name: value for name, value in where.items() if name != "$or"}
    if "$or" in where:
        return {**plain, "$and": [{"$or": where["$or"]}, {"$or": alternatives}]}
    return {**plain, "$or": alternatives}


def _each_text_once(hits: Iterable[dict[str, Any]], limit: int, notes: list[str]) -> list[dict[str, Any]]:
    """The first ``limit`` of ``hits``, best first, each text once: the same text synced from two records (two
    agents exported it to the repository) is one memory to the agent that recalls it; ``notes`` says how
    many were left out so."""
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    repeats = 0
    for hit in hits:
        if len(kept) == limit:
            break
        text = " ".join(str(hit["text"]).casefold().split()).rstrip(".!?。！？ ")  # not by case, spaces, a last stop
        if text in seen:
            repeats += 1
            continue
        seen.add(text)
        kept.append(hit)
    if repeats:
        notes.append(f"left out {repeats} memor{'y' if repeats == 1 else 'ies'} repeating the text of one above")
    return kept


def _hit(label: str, row: Mapping[str, Any], score: float | None) -> dict[str, Any]:
    return {"label": label, "id": row.get(rows.MERGE_KEY[label]), "text": row.get(rows.TEXT_PROPERTY[label], ""),
            "score": score, "event": rows.event_from_row(row)}


# A run of letters of a script written without spaces between words (Chinese, Japanese, Korean,
# Thai...), or a run of any other word characters: "TypeScriptが好き" is two runs.
_RUNS = re.compile(f"[{NO_SPACE_SCRIPTS}]+|[^\\W{NO_SPACE_SCRIPTS}]+")
_UNSPACED = re.compile(f"[{NO_SPACE_SCRIPTS}]")


def query_words(query: str) -> list[str]:
    """The query's words worth matching, at most 12, without repeats: each run of two letters or
    more, and in a script written without spaces, whose words a run does not tell, each pair of
    letters of a run (the letter itself, when it stands alone): 猫が好き gives 猫が, が好, 好き."""
    seen: dict[str, None] = {}
    for run in _RUNS.findall(query):
        if _UNSPACED.match(run):
            pairs = [run[i : i + 2] for i in range(len(run) - 1)] or [run]
        else:
            pairs = [run] if len(run) > 1 else []
        for word in pairs:
            seen.setdefault(word.casefold(), None)
    return list(seen)[:12]

