"""The state database: its schema migrations and the unfinished-export list."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from pdsmem.bridge.atproto.repo import NodeSummary
from pdsmem.bridge.signin.session import SessionStore
from pdsmem.bridge.pipelines.state import (
    _MIGRATIONS,
    SCHEMA_VERSION,
    ExportedRecord,
    RememberedFact,
    State,
    StateError,
)
from pdsmem.errors import PdsmemError
from pdsmem.mapping.cid import Cid

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"


def test_a_database_of_the_first_schema_is_brought_forward_with_its_data(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "state.sqlite3")
    db.executescript(_MIGRATIONS[1])
    db.execute("INSERT INTO export_record VALUES (?, '3lbt4ilkfw22s', 'bafyreione', 'm1')", (DID,))
    db.execute("INSERT INTO repo_cursor (did, reader, rev, commit_cid) VALUES (?, 'r', '3lbt4ilkfw22s', 'bafyc')", (DID,))
    db.execute("INSERT INTO repo_record VALUES (?, 'r', 'at://a/c/1', 'bafyr')", (DID,))
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with State(tmp_path) as state:
        assert state.exported(DID) == {"3lbt4ilkfw22s": ExportedRecord("3lbt4ilkfw22s", "bafyreione", "m1")}
        assert state.unfinished_exports() == []
        assert state.seen_records(DID, "r") == {"at://a/c/1": ""} and state.seen_facts(DID, "r") == {}
        assert state.cursor(DID, "r").failures == 1  # read it all once more, to learn the facts
        assert state.latest_revs() == {DID: "3lbt4ilkfw22s"}
        state.advance(DID, "3lbt4ilkfw33s", "bafyc2", {"at://a/c/1": "bafyr", "at://a/c/2": "bafyr2"}, reader="r",
                      facts={"at://a/c/2": RememberedFact("f2", ("at://a/c/1",))})
        assert state.seen_facts(DID, "r") == {"at://a/c/2": RememberedFact("f2", ("at://a/c/1",))}
        state.start_export(DID, "memories.jsonl")
        assert [run.source for run in state.unfinished_exports()] == ["memories.jsonl"]
        assert state.stream_cursor(DID, "r", "wss://pds") is None  # schema 4: never followed yet
        state.advance_stream(DID, "r", "wss://pds", 41, "2026-12-01T00:00:00Z")
        state.advance_stream(DID, "r", "wss://pds", 42, None)
        assert state.stream_cursor(DID, "r", "wss://pds") == 42 and state.stream_cursor(DID, "x", "wss://pds") is None
        # schema 7: the rev of the commit that wrote each record, kept when a write does not know it
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1", ("coder", "default"), "3lbt5aaaaaa22")])
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1", ("coder", "default"))])
        assert state.exported(DID)["3lbt4ilkfw22s"].rev == "3lbt5aaaaaa22"
        # schema 8: a hash of the memory's words, kept when a write does not know it
        assert state.exported(DID)["3lbt4ilkfw22s"].words is None
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1", words="ab12")])
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1")])
        assert state.exported(DID)["3lbt4ilkfw22s"].words == "ab12"
        # schema 9: the RushDB id of the row it was exported from, kept when a write does not know it
        assert state.exported(DID)["3lbt4ilkfw22s"].row is None
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1", row="0190a1b2")])
        state.record_writes(DID, [ExportedRecord("3lbt4ilkfw22s", "bafyretwo", "m1")])
        assert state.exported(DID)["3lbt4ilkfw22s"].row == "0190a1b2"
        # schema 10: the edits of deleted memories an export named
        assert state.withheld(DID) == set()
        state.note_withheld(DID, ["m2", "m2"])
        assert state.withheld(DID) == {"m2"} and state.withheld("did:plc:other") == set()
    with sqlite3.connect(tmp_path / "state.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 11


def test_a_database_from_a_newer_pdsmem_is_refused_untouched(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "state.sqlite3") as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(PdsmemError) as caught:
        State(tmp_path)
    assert str(caught.value) == (
        f"the state database at {tmp_path} is from a newer pdsmem (schema {SCHEMA_VERSION + 1}, "
        f"this one knows {SCHEMA_VERSION}) (upgrade pdsmem, or set PDSMEM_STATE_DIR to another "
        "directory)"
    )
    with sqlite3.connect(tmp_path / "state.sqlite3") as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == []


def test_a_run_is_listed_from_its_start_until_it_finishes_and_a_new_start_replaces_it(tmp_path: Path) -> None:
    with State(tmp_path) as state:
        state.start_export(DID, "a.jsonl")
        state.export_progress(DID, "a.jsonl", 200, 600)
        state.stop_export(DID, "a.jsonl", "rate-limited", paused_until=1_900_000_000.0)
        [paused] = state.unfinished_exports()
        assert (paused.written, paused.planned, paused.paused_until, paused.reason) == (
            200, 600, 1_900_000_000.0, "rate-limited")
        state.start_export(DID, "a.jsonl")  # the same export again: a fresh run
        state.start_export(DID, "b.jsonl")
        again, other = state.unfinished_exports()
        assert (again.source, again.written, again.paused_until, again.reason) == ("a.jsonl", 0, None, None)
        assert other.source == "b.jsonl"
        state.finish_export(DID, "a.jsonl")
        assert [run.source for run in state.unfinished_exports()] == ["b.jsonl"]


def test_a_tilde_means_the_home_directory_for_the_database_and_the_sessions_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    with State("~/pdsmem-state") as state:
        assert state.directory == tmp_path / "pdsmem-state"
    assert (tmp_path / "pdsmem-state" / "state.sqlite3").is_file()
    assert SessionStore("~/pdsmem-state").directory == tmp_path / "pdsmem-state" / "sessions"


def test_a_damaged_database_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "state.sqlite3").write_bytes(b"this is no database" * 100)
    with pytest.raises(StateError) as caught:
        State(tmp_path)
    assert str(caught.value) == (
        f"cannot use the state database {tmp_path / 'state.sqlite3'}: file is not a database (move "
        "that file aside: pdsmem starts a new one, and the next import delivers everything again)"
    )


def test_a_directory_that_cannot_be_made_is_an_error_that_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(StateError) as caught:
        State(tmp_path / "a-file" / "state")
    assert str(caught.value) == (
        f"cannot use the state database {tmp_path / 'a-file' / 'state' / 'state.sqlite3'}: Not a "
        "directory (check that the directory is writable, or pass --state-dir (or set "
        "PDSMEM_STATE_DIR) to another one)"
    )


def test_first_runs_at_the_same_moment_all_open_one_new_database(tmp_path: Path) -> None:
    """The schema version is read and migrated under one lock, and the switch to WAL waits for
    the other runs: no run migrates twice or gives up. (Before, most trials failed.)"""
    for trial in range(20):
        directory, errors = tmp_path / f"state-{trial}", []
        start = threading.Barrier(6)

        def first_run(n: int) -> None:
            start.wait()
            try:
                with State(directory) as state:
                    state.start_export("did:plc:x", f"run {n}")
            except Exception as err:  # noqa: BLE001 - collected for the assertion below
                errors.append(repr(err))

        runs = [threading.Thread(target=first_run, args=(n,)) for n in range(6)]
        for run in runs:
            run.start()
        for run in runs:
            run.join()
        assert errors == []
        with State(directory) as state:
            assert sorted(run.source for run in state.unfinished_exports()) == [f"run {n}" for n in range(6)]


def test_keeping_the_nodes_of_a_tree_writes_only_the_nodes_that_changed(tmp_path: Path) -> None:
    """Regression: every import deleted and wrote again every MST node kept for the repository,
    0.7 s for the 80,000 nodes of a large account when a diff changed a dozen."""
    blocks = [bytes([n]) * 40 for n in range(6)]
    nodes = [(Cid.for_dag_cbor(block), block, NodeSummary(0, b"a", bytes([97 + n]), 1, 1))
             for n, block in enumerate(blocks)]
    with State(tmp_path) as state:
        state.keep_nodes(DID, nodes[:4])
        state.keep_nodes("did:plc:another", nodes[:2])
        before = state._db.total_changes
        state.keep_nodes(DID, nodes[:4])  # the same tree: nothing to write
        assert state._db.total_changes == before
        state.keep_nodes(DID, nodes[2:])  # two nodes gone, two new
        assert state._db.total_changes == before + 4
        assert set(state.known_nodes(DID)) == {(cid, block) for cid, block, _ in nodes[2:]}
        assert set(state.known_nodes("did:plc:another")) == {(cid, block) for cid, block, _ in nodes[:2]}
        kept = state.known_nodes(DID)
        assert kept.summary(nodes[3][0].to_bytes()) == (nodes[3][2], blocks[3])
        assert kept.block(nodes[3][0].to_bytes()) == blocks[3]
        assert kept.summary(nodes[0][0].to_bytes()) is None and kept.block(nodes[0][0].to_bytes()) is None
        # a walk that placed the rest of a tree of 4 nodes by summaries: nothing goes
        state.keep_nodes(DID, nodes[:1], complete=False, tree=4)
        assert {cid for cid, _ in state.known_nodes(DID)} == {nodes[n][0] for n in (0, 2, 3, 4, 5)}


def test_a_node_kept_before_summaries_gets_its_summary_from_the_next_walk(tmp_path: Path) -> None:
    block = b"\x01" * 40
    cid = Cid.for_dag_cbor(block)
    with State(tmp_path) as state:
        state.keep_nodes(DID, [(cid, block, None)])  # as schema 4 kept it: no summary
        assert state.known_nodes(DID).summary(cid.to_bytes()) is None
        summary = NodeSummary(2, b"app.bsky.feed.like/1", b"app.bsky.feed.post/9", 40, 3)
        state.keep_nodes(DID, [(cid, block, summary)])
        assert state.known_nodes(DID).summary(cid.to_bytes()) == (summary, block)
        state.keep_nodes(DID, [(cid, block, NodeSummary(1, b"x", b"y", 1, 1))])  # a summary is never replaced
        assert state.known_nodes(DID).summary(cid.to_bytes()) == (summary, block)
        with state.transaction() as db:  # a damaged row: no summary, the node is walked
            db.execute("UPDATE mst_node SET first_key = 'text' WHERE cid = ?", (str(cid),))
        assert state.known_nodes(DID).summary(cid.to_bytes()) is None


def test_too_many_nodes_no_tree_uses_turn_the_summaries_off_until_a_complete_walk(tmp_path: Path) -> None:
    """Each diff's walk adds the new nodes of its paths and removes none: once the nodes kept
    outnumber twice the tree last imported (and a margin), the next walk takes every node, and
    keeps only its tree's."""
    blocks = [n.to_bytes(2, "big") * 20 for n in range(300)]
    nodes = [(Cid.for_dag_cbor(block), block, NodeSummary(0, b"a", b"b", 1, 1)) for block in blocks]
    first = nodes[0][0].to_bytes()
    with State(tmp_path) as state:
        assert state.known_nodes(DID).summary(first) is None  # nothing kept: a complete walk
        state.keep_nodes(DID, nodes[:60])  # a tree of 60 nodes
        assert state.known_nodes(DID).summary(first) is not None
        state.keep_nodes(DID, nodes[60:184], complete=False, tree=60)  # 184 kept <= 2 * 60 + 64
        assert state.known_nodes(DID).summary(first) is not None
        state.keep_nodes(DID, nodes[184:185], complete=False, tree=60)  # 185
        assert state.known_nodes(DID).summary(first) is None
        assert len(list(state.known_nodes(DID))) == 185
        state.keep_nodes(DID, nodes[100:160])  # the complete walk that follows: its tree only
        assert len(list(state.known_nodes(DID))) == 60
        assert state.known_nodes(DID).summary(nodes[100][0].to_bytes()) is not None
        with pytest.raises(ValueError, match="size of the tree"):
            state.keep_nodes(DID, nodes[:1], complete=False)


def test_a_second_holder_in_the_same_process_is_told_it_is_this_process(tmp_path: Path) -> None:
    """Regression: two syncs into one scope from one program (two threads, or a call not yet
    returned) were refused as "(pid N)", which reads as another process to look for."""
    with State(tmp_path) as state, state.exclusive("sync x", "another pdsmem sync into this scope"):
        with pytest.raises(StateError, match=r"already running \(pid [0-9]+: this very process"):
            with state.exclusive("sync x", "another pdsmem sync into this scope"):
                pass
