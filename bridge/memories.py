"""Reading a scope's memories back out of RushDB: as export items, and for recall (docs/rushdb.md).

Scope: every read starts from the five scope fields (``rushdb_rows.scope_where``), never from
anything a record or a query says.

- ``export_items``: the scope's facts and episodes as the exporter's source items. A memory whose
  mirror holds a record of the target repository comes with that record (``{event, record}``),
  so it is written back under the same record key with its unknown fields: a record nobody
  changed gets back its own CID. A memory whose record was deleted from the repository, or
  edited into another memory, is not exported again (a mirror of the scope lists it in
  ``retiredIds`` and no live mirror makes it: the user took it out).
- ``recall``: scoped search, active facts only, a session excludable; by vector similarity when
  an embedder and an index are there, otherwise by the words of the query (``$contains``; this
  server has no BM25 text search), and the result says which.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.privacy import NO_SPACE_SCRIPTS, WORD_END, WORD_START

from .embeddings import Embedder
from .rushdb import MemoryStore, RushDBError
from .sources import SourceItem

__all__ = ["Recall", "export_items", "query_words", "recall"]

CANDIDATES = 200  # memories a word search reads before ranking them


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
            here = [m for m in live if m.get("did") == did]
            where_ = f"rushdb:{label}:{row.get(key, '?')[:12]}"
            yield SourceItem(where_, {"event": event, "record": rows.view_from_mirror(here[0]).to_json()} if here else event)
    if not found and not deleted:
        notes.append(
            f"{store.target.shown} holds no memories of this scope: check --agent-id, --profile-id, "
            "--privacy-scope and the salt (or --participant-scope-hash)"
        )
    if deleted:
        notes.append(
            f"{deleted} memor{'y' if deleted == 1 else 'ies'} of this scope came from records since deleted from "
            "the repository or edited into other memories; not exported again"
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
            result.hits = result.hits[:limit]
            return result
    else:
        result.notes.append(
            "no embeddings endpoint is configured (RUSHDB_EMBEDDING_*), and this server has no text "
            "search: memories are matched by the words of the query, without similarity"
        )
    result.method = "words"
    words = query_words(query)
    for label, where in filters.items() if words else ():
        result.hits += _word_hits(store, label, where, words)
    result.hits.sort(key=lambda hit: hit["score"], reverse=True)
    result.hits = result.hits[:limit]
    for hit in result.hits:
        hit["score"] = None  # a word overlap is not a similarity: never shown as one
    return result


def _word_hits(store: MemoryStore, label: str, where: dict[str, Any], words: list[str]) -> list[dict]:
    """Memories of ``label`` holding the query's words, scored by the share of them each holds as
    whole words (none: left out). The server matches substrings and has no ranking, so it is
    asked first for the memories holding every word, then for those holding any."""
    prop = rows.TEXT_PROPERTY[label]
    contains = [{prop: {"$contains": word}} for word in words]
    candidates: dict[str, dict] = {}
    for matching in (_all_of(where, contains), _and_any(where, contains)):
        for row in store.find(label, matching, order_by=rows.MERGE_KEY[label], limit=CANDIDATES - len(candidates)):
            candidates.setdefault(row[rows.MERGE_KEY[label]], row)
        if len(candidates) >= CANDIDATES:
            break
    hits = []
    for row in candidates.values():
        text = str(row.get(prop, "")).casefold()
        score = sum(_holds(text, word) for word in words) / len(words)
        if score:
            hits.append(_hit(label, row, score))
    return hits


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


def _holds(text: str, word: str) -> bool:
    """Whether ``text`` (case-folded) holds ``word`` as ``query_words`` made it: letters of a script
    written without spaces anywhere; any other word whole, where a letter of such a script ends it
    as a space does ("typescript" in "typescriptが好き")."""
    if _UNSPACED.match(word):
        return word in text
    return re.search(WORD_START + re.escape(word) + WORD_END, text) is not None
