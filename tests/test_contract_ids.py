"""Canonical JSON, eventId/factId and scope hashes of AgentMemoryEvent v1.

References: the conformance fixture's expected id, the independent Python implementation in
``rushdb_hermes_memory.contract`` (on random inputs; it uses Python's json.dumps, so where it and
JavaScript differ, tests say so and follow JavaScript), and hand-computed JavaScript outputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rushdb_hermes_memory import contract as peer

from pdsmem.errors import ContractError
from pdsmem.mapping.contract_ids import (
    ABSENT,
    canonical_json,
    event_id,
    fact_id,
    hash_scope,
    js_trim,
    participant_hash_for_did,
)

CONFORMANCE = json.loads((Path(__file__).parent / "fixtures" / "contract" / "conformance.v1.json").read_text())

# The identity fields of each id (mapping/contract_ids.py) (schemaVersion and eventType are constants).
EPISODE_ID_FIELDS = ("runtime", "agentId", "profileId", "externalSessionId", "sourceEventId", "turnIndex",
                     "userText", "assistantText")
FACT_ID_FIELDS = ("runtime", "agentId", "profileId", "participantScopeHash", "subjectKey", "kind", "sourceEventId",
                  "text")
FACT = {
    "runtime": "hermes", "agentId": "coder", "profileId": "default",
    "participantScopeHash": "70d7d3055a5516bf40e00201f44b962aad2c964ab7877b7a314e3ee6f1c673a8",
    "subjectKey": "user.language", "kind": "preference", "sourceEventId": "turn-7",
    "text": "The user prefers TypeScript for this service.",
}


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ----------------------------------------------------------------------------- ids


def test_conformance_fixture_event_id() -> None:
    inputs = CONFORMANCE["episodeInput"]
    expected = CONFORMANCE["expectedEventId"]
    assert event_id(inputs) == expected
    assert event_id(
        runtime="hermes", agent_id="coder", profile_id="default", external_session_id="session-42",
        source_event_id="turn-7", turn_index=7, user_text=inputs["userText"], assistant_text=inputs["assistantText"],
    ) == expected


def test_ids_are_the_hash_of_the_canonical_json_of_exactly_their_fields() -> None:
    fact = {**FACT, "confidence": 0.9, "validFrom": "2026-08-18T00:00:00Z", "privacyScope": "shared"}
    body = {k: FACT[k] for k in FACT_ID_FIELDS} | {"schemaVersion": 1, "eventType": "fact"}
    assert fact_id(fact) == sha256(canonical_json(body))
    assert fact_id(
        runtime="hermes", agent_id="coder", profile_id="default", participant_scope_hash=FACT["participantScopeHash"],
        subject_key="user.language", kind="preference", source_event_id="turn-7", text=FACT["text"],
    ) == fact_id(fact)
    episode = CONFORMANCE["episodeInput"]
    body = {k: episode[k] for k in EPISODE_ID_FIELDS} | {"schemaVersion": 1, "eventType": "episode"}
    assert event_id(episode) == sha256(canonical_json(body))


def test_an_absent_episode_source_event_id_counts_as_empty() -> None:
    without = {k: v for k, v in CONFORMANCE["episodeInput"].items() if k != "sourceEventId"}
    assert event_id(without) == event_id({**without, "sourceEventId": ""})
    assert event_id(without) == event_id({**without, "sourceEventId": None})


def test_an_integral_float_turn_index_is_the_same_javascript_number() -> None:
    inputs = CONFORMANCE["episodeInput"]
    assert event_id({**inputs, "turnIndex": 7.0}) == CONFORMANCE["expectedEventId"]
    # The peer writes 7.0 as "7.0", which JSON.stringify never does.
    assert peer.episode_event_id({**inputs, "turnIndex": 7.0}) != CONFORMANCE["expectedEventId"]


def test_a_turn_index_beyond_2_53_is_rounded_as_javascript_rounds_it() -> None:
    inputs = {**CONFORMANCE["episodeInput"], "turnIndex": 2**53 + 1}
    body = {"schemaVersion": 1, "eventType": "episode", **{k: inputs[k] for k in EPISODE_ID_FIELDS}}
    body["turnIndex"] = 2**53
    assert event_id(inputs) == sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


@pytest.mark.parametrize(
    ("call", "path", "message"),
    [
        (lambda: fact_id({"runtime": "hermes"}), "$.agentId", "is required to compute the factId"),
        (lambda: fact_id({**FACT, "kind": None}), "$.kind", "expected a string to compute the factId, got null"),
        # a number where a text goes is named by its kind, never by its value (it may be a PIN)
        (lambda: fact_id({**FACT, "text": 4827}), "$.text", "expected a string to compute the factId, got an integer"),
        (lambda: event_id({**CONFORMANCE["episodeInput"], "turnIndex": True}), "$.turnIndex",
         "expected an integer to compute the eventId, got true"),
        (lambda: event_id(runtime="hermes"), "$.agentId", "is required to compute the eventId"),
        (lambda: event_id(42), None,  # type: ignore[arg-type]
         "expected an event or an object to compute the eventId, got 42"),
    ],
)
def test_id_inputs_are_checked(call: Any, path: str | None, message: str) -> None:
    with pytest.raises(ContractError) as err:
        call()
    assert (err.value.path, err.value.message) == (path, message)


def test_an_event_and_keywords_together_are_refused() -> None:
    with pytest.raises(TypeError):
        fact_id(FACT, text="other")


# ----------------------------------------------------------------------------- agreement with the peer

SPECIAL_STRINGS = st.sampled_from([
    "", '"', "\\", '\\"', "\b\f\n\r\t", "👩‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "e\u0301", "日本語", "</script>", "null", " ",
])
SPECIAL_CHARS = st.sampled_from(list('"\\\x00\x08\x1f\x7f\x85\u2028\u2029\u200d\ufe0f\ufeff\U0010ffff👩é'))
# The peer hashes with Python's json.dumps, which cannot encode lone surrogates: no category Cs here.
TEXT = st.text(st.characters(exclude_categories=("Cs",)) | SPECIAL_CHARS, max_size=16) | SPECIAL_STRINGS


@settings(max_examples=1000, deadline=None)
@given(texts=st.tuples(*[TEXT] * 8), source=st.none() | TEXT, turn=st.integers(0, 2**53))
def test_event_id_and_fact_id_agree_with_the_peer(texts: tuple[str, ...], source: str | None, turn: int) -> None:
    runtime, agent, profile, session, user, assistant, subject, kind = texts
    episode = {"runtime": runtime, "agentId": agent, "profileId": profile, "externalSessionId": session,
               "turnIndex": turn, "userText": user, "assistantText": assistant}
    if source is not None:
        episode["sourceEventId"] = source
    assert event_id(episode) == peer.episode_event_id(episode)
    fact = {"runtime": runtime, "agentId": agent, "profileId": profile, "participantScopeHash": session,
            "subjectKey": subject, "kind": kind, "sourceEventId": source or user, "text": assistant}
    assert fact_id(fact) == peer.fact_event_id(fact)


ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=12)  # lone surrogates included


@settings(max_examples=300, deadline=None)
@given(fields=st.fixed_dictionaries({name: ANY_TEXT for name in EPISODE_ID_FIELDS if name != "turnIndex"}),
       turn=st.integers(0, 2**80) | st.integers(0, 2**40).map(float))
def test_event_id_is_the_generic_canonical_json_hash_even_for_surrogates(fields: dict[str, Any], turn: Any) -> None:
    body = {"schemaVersion": 1, "eventType": "episode", **fields, "turnIndex": turn}
    assert event_id({**fields, "turnIndex": turn}) == sha256(canonical_json(body))


def test_lone_surrogates_are_escaped_as_javascript_escapes_them() -> None:
    # JSON.stringify("x\ud800y") === '"x\\ud800y"' (well-formed JSON.stringify, ES2019).
    expected = (
        '{"agentId":"a","assistantText":"b","eventType":"episode","externalSessionId":"s","profileId":"p",'
        '"runtime":"hermes","schemaVersion":1,"sourceEventId":"","turnIndex":0,"userText":"x\\ud800y"}'
    )
    assert event_id(runtime="hermes", agent_id="a", profile_id="p", external_session_id="s", turn_index=0,
                    user_text="x\ud800y", assistant_text="b") == sha256(expected)
    assert canonical_json(["\udc00\ud800", "\ud83d\ude00"]) == '["\\udc00\\ud800","😀"]'


# ----------------------------------------------------------------------------- hash_scope

PART_CHARS = st.one_of(st.sampled_from(list(" \t\n\x0b\x0c\r\xa0\u2028\u3000\x1f\x85\ufeff")),
                       st.characters(exclude_categories=("Cs",)))


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.text(PART_CHARS, max_size=8), max_size=5), salt=TEXT)
def test_hash_scope_agrees_with_the_peer_where_trims_agree(parts: list[str], salt: str) -> None:
    assume(all(part.strip() == js_trim(part) for part in parts))
    assert hash_scope(parts, salt) == peer.hash_scope(*parts, salt=salt)


@pytest.mark.parametrize(
    ("part", "javascript_trim"),
    [("\x1f", "\x1f"), ("id\x1f", "id\x1f"), ("\x1cid", "\x1cid"), ("id\x85", "id\x85"), ("\ufeffid", "id"),
     ("id\ufeff", "id")],
)
def test_hash_scope_trims_like_javascript_not_like_python(part: str, javascript_trim: str) -> None:
    assert hash_scope(["discord", part], "salt") == sha256(f"salt\x1ediscord\x1f{javascript_trim}")
    assert hash_scope(["discord", part], "salt") != peer.hash_scope("discord", part, salt="salt")


def test_js_trim_removes_exactly_javascript_whitespace() -> None:
    expected = {c for c in map(chr, range(0x110000)) if unicodedata.category(c) == "Zs"}
    expected |= set("\t\n\x0b\x0c\r\u2028\u2029\ufeff")
    assert {c for c in map(chr, range(0x110000)) if not js_trim(c)} == expected


def test_hash_scope_shape() -> None:
    assert hash_scope([" discord ", "account-1", None]) == sha256("\x1ediscord\x1faccount-1\x1f")
    assert hash_scope([]) == sha256("\x1e")
    # Node.js hashes a lone surrogate as U+FFFD.
    assert hash_scope(["\ud800"]) == hashlib.sha256(b"\x1e\xef\xbf\xbd").hexdigest()
    with pytest.raises(TypeError):
        hash_scope("discord")


def test_participant_hash_for_did() -> None:
    did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    assert participant_hash_for_did(did, "pepper") == sha256(f"pepper\x1eatproto\x1f{did}")
    assert participant_hash_for_did(did) == hash_scope(["atproto", did])


# ----------------------------------------------------------------------------- canonical JSON


@pytest.mark.parametrize(
    ("value", "javascript"),
    [
        ({"b": 2, "a": {"d": 4, "c": 3}}, '{"a":{"c":3,"d":4},"b":2}'),
        # A JavaScript object lists array-index keys first, in numeric order; 2**32-1 is no index.
        ({"b": 1, "10": 2, "9": 3, "01": 4, "1x": 5, "4294967295": 6, "4294967294": 7},
         '{"9":3,"10":2,"4294967294":7,"01":4,"1x":5,"4294967295":6,"b":1}'),
        # UTF-16 code unit order: U+1F600 is D83D DE00, before U+E000.
        ({"\ue000": 1, "😀": 2, "é": 3}, '{"é":3,"😀":2,"\ue000":1}'),
        ('"\\\b\f\n\r\t\x00\x1f\x7f\u2028\u2029é😀', '"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f\x7f\u2028\u2029é😀"'),
        ({"a": ABSENT, "b": None, "c": [ABSENT, None, True, False], "d": ()},
         '{"b":null,"c":[null,null,true,false],"d":[]}'),
        ([], "[]"),
        ({}, "{}"),
    ],
)
def test_canonical_json_matches_javascript(value: Any, javascript: str) -> None:
    assert canonical_json(value) == javascript


@pytest.mark.parametrize(
    ("number", "javascript"),
    [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (7.0, "7"), (-1.5, "-1.5"), (0.1, "0.1"),
        (0.1 + 0.2, "0.30000000000000004"), (100.0, "100"), (1e16, "10000000000000000"),
        (1e20, "100000000000000000000"), (123456789012345680000.0, "123456789012345680000"),
        (1e21, "1e+21"), (1.5e21, "1.5e+21"), (0.000123, "0.000123"), (1e-6, "0.000001"), (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"), (123e-20, "1.23e-18"), (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (float(2**60), "1152921504606847000"),
        (2**53, "9007199254740992"), (2**53 + 1, "9007199254740992"), (-(2**60), "-1152921504606847000"),
        (12, "12"), (-3, "-3"),
    ],
)
def test_numbers_are_written_as_javascript_writes_them(number: float, javascript: str) -> None:
    assert canonical_json(number) == javascript


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_javascript_numbers_read_back_as_the_same_double(number: float) -> None:
    text = canonical_json(number)
    assert float(text) == number
    assert re.fullmatch(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?(e[+-][1-9][0-9]*)?", text)


@settings(max_examples=150, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
))
def test_canonical_json_parses_back_to_the_same_value(value: Any) -> None:
    text = canonical_json(value)
    assert json.loads(text) == value
    assert canonical_json(json.loads(text)) == text
    if _sorted_alike(value):
        assert text == peer.stable_json(value)


def _sorted_alike(value: Any) -> bool:
    """Whether Python's key sort gives JavaScript's key order for every object in ``value``.

    They differ for array-index keys ("9" before "10") and for keys outside the BMP (UTF-16 code
    units against code points).
    """
    if isinstance(value, dict):
        return all(not (key.isascii() and key.isdigit()) and max(key, default=" ") < "\U00010000"
                   and _sorted_alike(item) for key, item in value.items())
    if isinstance(value, list):
        return all(map(_sorted_alike, value))
    return True


@pytest.mark.parametrize(
    ("value", "path"),
    [({"a": [1, math.nan]}, "$.a[1]"), ({"x y": math.inf}, '$["x y"]'), ({1: "one"}, "$"),
     ([{"k": {1, 2}}], "$[0].k"), (b"bytes", "$"), (10**400, "$"), (ABSENT, "$")],
)
def test_values_without_a_json_form_are_refused(value: Any, path: str) -> None:
    with pytest.raises(ContractError) as err:
        canonical_json(value)
    assert err.value.path == path


def test_a_key_shaped_like_a_password_is_named_by_its_length_in_a_path() -> None:
    """Regression: an unknown property named like a password was quoted whole in the error's path
    (`at $["Tr0ub4dor&3horse"]`): a key may be a secret pasted in the wrong place."""
    from pdsmem.mapping.contract_ids import json_path

    assert json_path(["extra", "Tr0ub4dor&3horse"]) == "$.extra[a key of 16 characters]"
    assert json_path(["p@ss1"]) == "$[a key of 5 characters]"
    assert json_path(["odd key", "x-1", "user.name-2", 0]) == '$["odd key"]["x-1"]["user.name-2"][0]'


def test_a_key_shaped_as_an_identifier_that_is_a_secret_is_named_by_its_length() -> None:
    """A new user's try: a token used as a field's name ("ghp_…", "AKIA…") was shown in an error's
    path, since it is shaped as an identifier; a password-like one was hidden already."""
    from pdsmem.mapping.contract_ids import json_path
    from pdsmem.mapping.datamodel import json_to_ipld
    from pdsmem.errors import DataModelError

    token = "ghp_OWLxxabcdefghijklmnopqrstuvwxyz0123456"
    assert json_path([token, 1, "turnIndex"]) == "$[a key of 42 characters][1].turnIndex"
    with pytest.raises(DataModelError) as caught:
        json_to_ipld({"content": "x", "AKIAJ7QK2ZPVXEAGLE4T": {"$link": 5}})
    assert "AKIA" not in str(caught.value) and "[a key of 20 characters]" in str(caught.value)
