"""Ranking memories by the words of a query: recall without an embeddings endpoint (docs/rushdb.md,
"Recall"). Pure: texts in, positions and scores out.

Scope: ``Words.of(query)`` (the query's words worth searching for: stop words of the query's
language out, each word stemmed), ``tokens`` (a text as the same kind of words) and ``rank``
(BM25 from ``bm25s``, over the texts given, with a floor: a memory that shares only little of the
query is left out rather than returned as padding).

Tricky bits:
- The language is guessed from the query alone: the one whose stop words it holds most, two
  at least (English when fewer, or a tie: "dog" alone is a Danish stop word). Its stop words
  leave the query and its stemmer folds the query and every text ("drinks" and "drink" meet).
  Stop words of all languages at once would take content words out ("son" is a French one).
- Scripts written without spaces (Chinese, Japanese, Korean, Thai...) have no word boundaries to
  split on: a run of their letters gives each pair of letters (a letter standing alone gives
  itself), and a text also gives each letter, so that a one-letter query word is found
  anywhere in it. They are neither stemmed nor stopped.
- The floor is on the share of the query's weight a memory holds: the inverse document
  frequencies of the query words it holds over those of all the query's words. A word most
  memories hold weighs little, so a memory sharing only that one falls below; a word no memory
  holds still weighs, so a query about something absent matches nothing well. The score BM25
  gives then orders what passes.
- The weights count ``PRIOR`` memories more than the texts given, holding none of the words: in
  a scope of three memories, a word all three hold says little of whether it is common, and the
  weights stay near even (each word counts); in a scope of thousands the prior is lost in the
  count. "user" (and "assistant") are stop words in every language: the contract's memories
  speak of the user, nearly all of them.
- IDF is only as good as the texts it is computed over: callers pass the scope's memories
  (or a sample of them, with the ones that hold a query word), not only the matches.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pdsmem.mapping.privacy import NO_SPACE_SCRIPTS

__all__ = ["FLOOR", "Ranked", "Words", "guess_language", "rank", "tokens"]

FLOOR = 0.3  # the least share of the query's weight a memory must hold to be returned
PRIOR = 20  # memories holding none of the query's words, counted in every word's weight
# Stop words of every language: what nearly every AgentMemoryEvent speaks of.
MEMORY_STOP_WORDS = frozenset({"user", "users", "assistant"})
MAX_WORDS = 12  # query words kept (as recall's search sends each to the server)

# A run of letters of a script written without spaces, or a run of any other word characters.
_RUNS = re.compile(f"[{NO_SPACE_SCRIPTS}]+|[^\\W{NO_SPACE_SCRIPTS}]+")
_UNSPACED = re.compile(f"[{NO_SPACE_SCRIPTS}]")

# Snowball stemmer name → bm25s's stop word list of that language; English first (ties go to it).
_LANGUAGES = {
    "english": "STOPWORDS_EN_PLUS", "german": "STOPWORDS_GERMAN", "french": "STOPWORDS_FRENCH",
    "spanish": "STOPWORDS_SPANISH", "portuguese": "STOPWORDS_PORTUGUESE", "italian": "STOPWORDS_ITALIAN",
    "dutch": "STOPWORDS_DUTCH", "russian": "STOPWORDS_RUSSIAN", "swedish": "STOPWORDS_SWEDISH",
    "norwegian": "STOPWORDS_NORWEGIAN", "danish": "STOPWORDS_DANISH", "turkish": "STOPWORDS_TURKISH",
}  # fmt: skip


@cache
def _stop_words(language: str) -> frozenset[str]:
    from bm25s import stopwords

    return frozenset(getattr(stopwords, _LANGUAGES[language]))


@cache
def _stemmer(language: str):
    import Stemmer  # PyStemmer: Snowball's stemmers

    return Stemmer.Stemmer(language)


def _split(text: str) -> list[tuple[str, bool]]:
    """(word, unspaced) for each run of ``text``, case-folded."""
    return [(run.casefold(), bool(_UNSPACED.match(run))) for run in _RUNS.findall(text)]


def _pairs(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def guess_language(query: str) -> str:
    """The language whose stop words ``query`` holds most, if it holds two or more of them;
    English otherwise, and on a tie (one word says little: "dog" is a Danish stop word)."""
    words = [word for word, unspaced in _split(query) if not unspaced]
    best, hits = "english", max(1, sum(word in _stop_words("english") for word in words))
    for language in _LANGUAGES:
        found = sum(word in _stop_words(language) for word in words)
        if found > hits:
            best, hits = language, found
    return best


@dataclass(frozen=True)
class Words:
    """What a query is searched by: its words (stemmed; as the server is asked for them,
    ``search``), the stop words it held (``common``) and its language."""

    stems: tuple[str, ...]
    search: tuple[str, ...]  # the same words as a server's substring search finds them
    common: tuple[str, ...]
    language: str

    @classmethod
    def of(cls, query: str) -> Words:
        language = guess_language(query)
        stops, stem = _stop_words(language), _stemmer(language).stemWord
        stems: dict[str, str] = {}
        common: dict[str, None] = {}
        for run, unspaced in _split(query):
            if unspaced:
                for pair in _pairs(run):
                    stems.setdefault(pair, pair)
            elif run in stops or run in MEMORY_STOP_WORDS or len(run) < 2:
                common.setdefault(run, None)
            else:
                # A stem need not be a prefix of its word (happy → happi): searched by what they share.
                stemmed = stem(run)
                shared = _common_prefix(run, stemmed)
                stems.setdefault(stemmed, shared if len(shared) >= 2 else run)
        kept = list(stems)[:MAX_WORDS]
        return cls(tuple(kept), tuple(dict.fromkeys(stems[s] for s in kept)), tuple(common), language)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def tokens(text: str, language: str = "english") -> list[str]:
    """``text`` as the words a query is matched against: words stemmed in ``language``, and
    for a script without spaces, each pair of letters and each letter."""
    stem = _stemmer(language).stemWords
    out: list[str] = []
    plain: list[str] = []
    for run, unspaced in _split(text):
        if unspaced:
            out += _pairs(run) + (list(run) if len(run) > 1 else [])
        else:
            plain.append(run)
    return out + list(stem(plain))


@dataclass(frozen=True)
class Ranked:
    index: int  # the text's position in what was ranked
    score: float  # BM25
    share: float  # of the query's weight the text holds, 0 to 1


def rank(words: Words, texts: Sequence[str], *, among: Sequence[int] | None = None,
         floor: float = FLOOR) -> tuple[list[Ranked], int]:
    """The texts (of positions ``among``, default all) that hold at least ``floor`` of the
    query's weight, best BM25 score first; and how many held some query word but too little.
    Every text of ``texts`` counts for the words' document frequencies."""
    if not words.stems or not texts:
        return [], 0
    import bm25s

    corpus = [tokens(text, words.language) for text in texts]
    held = [set(doc) for doc in corpus]
    if not any(word in doc for doc in held for word in words.stems):
        return [], 0  # (and bm25s cannot index texts that hold no word at all)
    n = len(corpus)
    weight = {}
    for word in words.stems:
        df = sum(word in doc for doc in held)
        weight[word] = math.log(1 + (n + PRIOR - df + 0.5) / (df + 0.5))  # BM25's (Lucene's) IDF, with the prior
    total = sum(weight.values())
    retriever = bm25s.BM25(method="lucene")
    retriever.index(corpus, show_progress=False)
    scores = retriever.get_scores(list(words.stems))
    ranked, below = [], 0
    for index in range(n) if among is None else among:
        share = sum(weight[word] for word in words.stems if word in held[index]) / total
        if share >= floor:
            ranked.append(Ranked(index, float(scores[index]), share))
        elif share > 0:
            below += 1
    ranked.sort(key=lambda hit: (-hit.score, hit.index))
    return ranked, below
