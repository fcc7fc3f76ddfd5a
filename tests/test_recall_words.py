"""How recall without an embeddings endpoint picks a query's words and finds them in a memory's text
(``bridge.memories``). Pure; the same words against the real RushDB are in test_sync."""

from __future__ import annotations

import pytest

from pdsmem.bridge.memories import _holds, query_words


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
    ("the user likes zebras.", "zebra", False),
    ("memory of a holiday.", "or", False),
    ("ユーザーは猫が好きです。", "猫", True),  # regression: \b猫\b found no boundary between letters
    ("ユーザーは猫が好きです。", "好き", True),
    ("ユーザーはtypescriptが好き", "typescript", True),  # regression: が joined the word as a letter would
    ("ユーザーはtypescriptsが好き", "typescript", False),
])
def test_a_word_held_by_a_text(text: str, word: str, held: bool) -> None:
    assert _holds(text, word) is held
