"""How recall without an embeddings endpoint picks a query's words (``bridge.rushdb.memories``) and ranks
memories by them (``mapping.word_rank``: BM25, stop words, a floor). Pure, but for the last test,
which recalls from the real RushDB (more word recall against it is in test_sync)."""

from __future__ import annotations

import pytest

import json

from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project
from hypothesis import given
from hypothesis import strategies as st
from test_sync import SCOPE_ARGS, put_memory, record, run, summary, sync

from pdsmem.bridge.rushdb.memories import query_words
from pdsmem.mapping.word_rank import FLOOR, Words, guess_language, rank, tokens


@pytest.mark.parametrize(("query", "words"), [
    ("zebra user", ["zebra", "user"]),
    ("User's tea, coffee; TEA", ["user", "tea", "coffee"]),
    ("q", []),
    ("x y ?", []),
    ("猫", ["猫"]),  # regression: a letter of a script without spaces is a word of its own
    ("猫が好き", ["猫が", "が好", "好き"]),  # regression: one run was one word, found only whole
    ("TypeScriptが好き", ["typescript", "が好", "好き"]),
    ("고양이를 좋아함", ["고양", "양이", "이를", "좋아", "아함"]),
    (" ".join(f"w{i}" for i in range(20)), [f"w{i}" for i in range(12)]),
])
def test_the_words_of_a_query(query: str, words: list[str]) -> None:
    assert query_words(query) == words


@pytest.mark.parametrize(("text", "word", "held"), [
    ("the user likes zebra crossings.", "zebra", True),
    ("the user likes zebras.", "zebra", True),  # stemmed: a plural is the word
    ("The user drinks tea.", "drink", True),
    ("ユーザーは猫が好きです。", "猫", True),  # regression: \b猫\b found no boundary between letters
    ("ユーザーは猫が好きです。", "好き", True),
    ("ユーザーはtypescriptが好き", "typescript", True),  # regression: が joined the word as a letter would
    ("ユーザーはtypescriptが好き", "python", False),
    ("The user likes zebras.", "bra", False),  # a word, not a substring
])
def test_a_word_held_by_a_text(text: str, word: str, held: bool) -> None:
    (stem,) = Words.of(word).stems
    assert (stem in tokens(text)) is held


MEMORIES = [
    "The user asked for TypeScript for the billing service.",
    "The user drinks green tea every morning.",
    "The user walks the dog in the evening.",
    "The user lives in Lyon.",
    "ユーザーは猫が好きです。",
]


def ranked(query: str, texts: list[str] = MEMORIES) -> list[str]:
    return [texts[hit.index] for hit in rank(Words.of(query), texts)[0]]


def test_word_recall_returns_what_matches_well_and_nothing_that_shares_only_common_words() -> None:
    # regression: every memory holds "the" and "user", so every memory was returned
    assert ranked("What does the user drink in the morning?") == ["The user drinks green tea every morning."]
    assert ranked("Which dog?") == ["The user walks the dog in the evening."]
    assert ranked("typescript billing") == ["The user asked for TypeScript for the billing service."]
    assert ranked("What is the user's favourite zebra?") == []  # held only "user": below the floor
    assert ranked("猫が好き") == ["ユーザーは猫が好きです。"]
    assert ranked("猫") == ["ユーザーは猫が好きです。"]
    hits, below = rank(Words.of("What does the user drink in the evening with friends?"), MEMORIES)
    assert (hits, below) == ([], 2)  # each holds one word of three: said, not returned


def test_a_word_most_memories_hold_weighs_little() -> None:
    texts = [f"The user likes TypeScript, note {i}." for i in range(30)] + ["The billing service runs on TypeScript."]
    hits, below = rank(Words.of("typescript billing"), texts)
    assert ([texts[hit.index] for hit in hits], below) == (["The billing service runs on TypeScript."], 30)
    two = ["The user prefers TypeScript for the billing service.", "The user chose TypeScript for the billing service."]
    assert sorted(ranked("Which language for the billing service?", two)) == sorted(two)  # a tiny scope: all count


def test_more_of_the_query_ranks_first() -> None:
    texts = ["The user drinks coffee.", "The user drinks green tea every morning.", "Mornings are cold."]
    assert ranked("What does the user drink in the morning?", texts)[0] == "The user drinks green tea every morning."


def test_stop_words_are_the_query_language_s_only() -> None:
    assert Words.of("What is it?").stems == () and Words.of("What is it?").common == ("what", "is", "it")
    assert Words.of("What does the user drink?").stems == ("drink",)  # nearly every memory speaks of the user
    assert "son" in Words.of("Where does the user's son go to school?").stems  # a French stop word
    french = Words.of("Que boit l'utilisateur le matin ?")
    assert french.language == "french" and "que" in french.common and "matin" in french.stems
    assert guess_language("zebra") == "english"
    assert Words.of("dog").stems == ("dog",)  # regression: a Danish stop word, and the query lost its only word
    assert guess_language("Wo ist der Hund?") == "german" and guess_language("Der Hund") == "english"


def test_a_stem_is_searched_by_what_it_shares_with_its_word() -> None:
    words = Words.of("happy mornings")
    assert words.stems == ("happi", "morn") and words.search == ("happ", "morn")


@given(st.lists(st.text(max_size=40), max_size=8), st.text(max_size=30))
def test_ranking_keeps_only_texts_above_the_floor_best_first(texts: list[str], query: str) -> None:
    words = Words.of(query)
    hits, below = rank(words, texts)
    assert len({hit.index for hit in hits}) == len(hits) and len(hits) + below <= len(texts)
    assert all(FLOOR <= hit.share <= 1 + 1e-9 for hit in hits)
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    if words.stems:  # the query itself, among the texts, matches it whole
        hits, _ = rank(words, [*texts, query])
        assert len(texts) in {hit.index for hit in hits}


@pytest.mark.pds
@pytest.mark.rushdb
def test_word_recall_ranks_and_returns_nothing_rather_than_noise(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    for text in ("The user asked for TypeScript for the billing service.", "The user drinks green tea every morning.",
                 "The user walks the dog in the evening."):
        put_memory(repo, record(text))
    summary(sync(pds, rushdb, account, "--json"))
    args = [*SCOPE_ARGS, "--did", account.did, "--json"]

    morning = run(pds, rushdb, "recall", "What does the user drink in the morning?", *args)
    assert morning.exit_code == 0, morning.output
    *hits, last = [json.loads(line) for line in morning.stdout.splitlines()]
    # regression: every memory holds "the" and "user", and all three were returned
    assert [hit["text"] for hit in hits] == ["The user drinks green tea every morning."]
    assert last == {"summary": {"method": "words", "hits": 1}}

    nothing = run(pds, rushdb, "recall", "What is the user's favourite zebra?", *args)
    assert nothing.exit_code == 0 and nothing.stdout.splitlines() == ['{"summary":{"method":"words","hits":0}}']
    assert "Note: no memory of this scope matches the query well (none holds any of its words but common ones)" \
        in nothing.stderr
    little = run(pds, rushdb, "recall", "What does the user drink in the evening with friends?", *args)
    assert little.stdout.splitlines() == ['{"summary":{"method":"words","hits":0}}']
    assert "(2 memories hold too little of it: few of its words, or only common ones)" in little.stderr
    some = run(pds, rushdb, "recall", "drink tea morning evening", *args)
    assert [json.loads(line).get("text") for line in some.stdout.splitlines()][:-1] == [
        "The user drinks green tea every morning."]
    assert "Note: left out 1 memory holding too little of the query (below the score floor)" in some.stderr
    for text in ("TypeScript", "green tea", "dog"):  # never a memory's text in a message
        assert text not in nothing.stderr + morning.stderr + little.stderr + some.stderr
    # found by a new user: with a wrong --agent-id, recall said to ask with other words
    elsewhere = [arg if arg != SCOPE_ARGS[SCOPE_ARGS.index("--agent-id") + 1] else "nobody" for arg in args]
    empty = run(pds, rushdb, "recall", "What does the user drink in the morning?", *elsewhere)
    assert empty.exit_code == 0 and empty.stdout.splitlines() == ['{"summary":{"method":"words","hits":0}}']
    assert "holds no memories of this scope: check --agent-id, --profile-id" in empty.stderr
    assert "ask with other words" not in empty.stderr


@pytest.mark.pds
@pytest.mark.rushdb
def test_a_text_synced_from_two_records_is_recalled_once(pds: LocalPds, account: Account, rushdb: Project) -> None:
    """A new user exported the same memories from a file and from a Hermes agent (two agents, two records each),
    synced the repository into one scope, and recall gave every hit twice: it gives each text once, and says so."""
    repo = Repo(pds, account)
    for text in ("The user drinks green tea every morning.", "The user drinks green tea every morning.",
                 "the user drinks  green tea every morning"):  # as agents export it: the same text, or but for case,
        put_memory(repo, record(text))  # spaces and a last stop

    put_memory(repo, record("The user walks the dog in the evening."))
    summary(sync(pds, rushdb, account, "--json"))
    tea = run(pds, rushdb, "recall", "green tea in the morning", *SCOPE_ARGS, "--did", account.did, "--json")
    assert tea.exit_code == 0, tea.output
    *hits, last = [json.loads(line) for line in tea.stdout.splitlines()]
    # (the three rank alike: which one is kept is the server's order)
    assert [" ".join(hit["text"].casefold().rstrip(".").split()) for hit in hits] == [
        "the user drinks green tea every morning"]
    assert last == {"summary": {"method": "words", "hits": 1}}
    assert "Note: left out 2 memories repeating the text of one above" in tea.stderr
    assert "green tea" not in tea.stderr
