"""Property tests of the pure parts of the RushDB layout that sync reads by (``rushdb_rows``): which
memories must be searched for in the project, which rows belong to a scope, the ids an import
returns, and the scope's filter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.records import SCOPE_FIELDS

_ids = st.text(alphabet="0123456789abcdef", min_size=1, max_size=6)
_labels = st.sampled_from([rows.FACT, rows.EPISODE])
_scopes = st.fixed_dictionaries({
    "agentId": st.sampled_from(["coder", "scribe"]), "profileId": st.sampled_from(["default", "work"]),
    "privacyScope": st.sampled_from(["shared", "private"]), "participantScopeHash": st.sampled_from(["a" * 64, "b" * 64]),
    "sandboxEligible": st.booleans(),
})


@given(st.dictionaries(_labels, st.sets(_ids, max_size=6)), st.dictionaries(_labels, st.sets(_ids, max_size=6)))
def test_only_named_memories_the_scope_does_not_hold_are_searched_for(named, held_ids) -> None:
    held = {label: {name: {"__id": f"row-{name}"} for name in ids} for label, ids in held_ids.items()}
    searched = rows.to_search(named, held)
    assert set(searched) == set(named)
    for label, ids in named.items():
        assert searched[label] == ids - held_ids.get(label, set())  # nothing held, nothing left out


@given(_scopes, _scopes, st.booleans())
def test_a_row_is_in_a_scope_exactly_when_it_carries_all_five_fields(scope, other, extra) -> None:
    row = {**other, **({"factId": "x", "__id": "y"} if extra else {})}
    assert rows.in_scope(row, scope) == all(other[name] == scope[name] for name in SCOPE_FIELDS)
    assert rows.in_scope({**scope, "text": "t"}, scope)
    for name in SCOPE_FIELDS:  # a row missing any one field is in no scope
        assert not rows.in_scope({k: v for k, v in scope.items() if k != name}, scope)


@given(_scopes)
def test_the_scope_filter_and_row_hold_the_five_fields_the_participant_first(scope) -> None:
    where = rows.scope_where(scope)
    assert where == rows.scope_row(scope) == {name: scope[name] for name in SCOPE_FIELDS}
    assert next(iter(where)) == "participantScopeHash"
    assert rows.scope_where(scope, active_only=True) == {**where, "active": True}


@given(st.lists(st.tuples(st.sampled_from([rows.FACT, rows.EPISODE, rows.MIRROR, rows.SCOPE, None]), _ids,
                          st.one_of(st.none(), _ids)), max_size=8))
def test_ids_an_import_returns_are_keyed_by_label_and_merge_key(made) -> None:
    returned = []
    for label, key, record_id in made:
        row = {"__label": label, "__id": record_id} if label else {"__id": record_id}
        if label in rows.MERGE_KEY:
            row[rows.MERGE_KEY[label]] = key
        returned.append(row)
    keyed = rows.keyed(returned)
    expected = {(label, key): record_id for label, key, record_id in made
                if label in rows.MERGE_KEY and record_id is not None}
    assert keyed == expected  # the last of a repeated key wins, as in a dict
