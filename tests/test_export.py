"""The exporter against the real local PDS: what lands, idempotency, resumption, conflicts, faults.

Fault injection happens only at the transport boundary and only for what a real server will not
do on demand (a response lost after the write landed); each such test says so.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from pdsmem.bridge.pipelines.exporter import Exporter
from pdsmem.bridge.signin.session import Session
from pdsmem.bridge.pipelines.sources import SourceItem, read_source
from pdsmem.bridge.pipelines.state import State
from pdsmem.errors import ContractError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.from_record import from_record
from pdsmem.mapping.records import EXT_KEY, ImportScope
from pdsmem.mapping.to_record import to_records
from devkit.events import episode, fact
from support.faults import items

pytestmark = pytest.mark.pds


def list_records(session: Session) -> dict[str, dict]:
    out, cursor = {}, None
    while True:
        page = session.query(
            "com.atproto.repo.listRecords",
            {"repo": session.did, "collection": RECORD_NSID, "limit": 100, "cursor": cursor},
        )
        for r in page["records"]:
            assert r["uri"] not in out
            out[r["uri"]] = r
        cursor = page.get("cursor")
        if not cursor or not page["records"]:
            return out


def head_rev(session: Session) -> str:
    return session.query("com.atproto.sync.getLatestCommit", {"did": session.did})["rev"]


@pytest.fixture
def session(pds, account, tmp_path):
    s = Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "state")
    yield s
    s.close()


@pytest.fixture
def state(tmp_path):
    with State(tmp_path / "state") as st:
        yield st


def test_export_lands_exactly_the_mapped_records_and_rerun_writes_nothing(session, state):
    events = [fact(n) for n in range(250)] + [episode(n) for n in range(30)]
    expected, failed = to_records(events, session.did)
    assert not failed
    report = Exporter(session, state).run(items(events))
    assert report.counts["created"] == 280 and report.batches == 2
    held = list_records(session)
    assert {uri: r["cid"] for uri, r in held.items()} == {v.uri: v.cid for v in expected}
    assert all(held[v.uri]["value"] == v.value for v in expected)

    rev = head_rev(session)
    again = Exporter(session, state).run(items(events))
    assert again.counts["unchanged"] == 280 and again.batches == 0
    assert head_rev(session) == rev


def test_refusals_are_reported_and_the_rest_is_written(session, state):
    events = [fact(1), fact(2, privacyScope="private"), {"eventType": "fact"}, fact(3, text="see /home/bob/x")]
    report = Exporter(session, state).run(items(events))
    assert report.counts == {**report.counts, "created": 1, "refused": 2, "failed": 1}
    assert len(list_records(session)) == 1
    private = Exporter(session, state, publish_private=True).run(items(events))
    assert private.counts["created"] == 1 and private.counts["unchanged"] == 1


def test_changed_memory_updates_in_place(session, state):
    Exporter(session, state).run(items([fact(1)]))
    changed = fact(1, confidence=0.95)
    report = Exporter(session, state).run(items([changed]))
    assert report.counts["updated"] == 1
    (record,) = list_records(session).values()
    assert record["value"][EXT_KEY]["confidence"] == "0.95"


def test_a_record_edited_on_the_pds_is_left_alone(session, state):
    Exporter(session, state).run(items([fact(1)]))
    (record,) = list_records(session).values()
    rkey = record["uri"].rsplit("/", 1)[1]
    edited = dict(record["value"], content="Edited by the user on another app.")
    session.procedure(
        "com.atproto.repo.putRecord",
        {"repo": session.did, "collection": RECORD_NSID, "rkey": rkey, "record": edited},
    )
    report = Exporter(session, state).run(items([fact(1, confidence=0.5)]))
    assert report.counts["conflict"] == 1 and report.counts["updated"] == 0
    assert list_records(session)[record["uri"]]["value"]["content"] == "Edited by the user on another app."


def test_a_record_pdsmem_wrote_and_someone_deleted_is_not_created_again_unless_asked(session, state):
    Exporter(session, state).run(items([fact(1), fact(2)]))
    gone = next(uri for uri, r in list_records(session).items() if r["value"]["content"] == fact(2)["text"])
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": gone.rsplit("/", 1)[1]})
    again = Exporter(session, state).run(items([fact(1), fact(2)]))  # as a cron job re-publishing its file
    assert again.counts == {**again.counts, "unchanged": 1, "created": 0, "conflict": 1}
    [conflict] = again.problems
    assert conflict.uri == gone and f"{gone} was deleted on the PDS after pdsmem wrote it" in conflict.reason
    assert gone not in list_records(session)
    assert [(did, rkey) for did, rkey, _ in state.deleted_on_pds()] == [(session.did, gone.rsplit("/", 1)[1])]
    asked = Exporter(session, state, recreate_deleted=True).run(items([fact(1), fact(2)]))
    assert asked.counts["created"] == 1 and gone in list_records(session)
    assert state.deleted_on_pds() == []


def test_a_memory_whose_record_someone_deleted_is_not_created_again_when_an_agent_writes_it_again(session, state):
    """The agent writes the same memory again, later (the same id, a new validFrom: a new record key):
    the person's deletion of its record stands, as for the same key."""
    first = contract.with_ids(fact(2))
    Exporter(session, state).run(items([first]))
    [gone] = list_records(session)
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": gone.rsplit("/", 1)[1]})
    again = contract.with_ids({**fact(2), "validFrom": "2026-11-30T08:00:00Z"})
    assert again["factId"] == first["factId"]
    (view,), _ = to_records([again], session.did)
    assert view.uri != gone  # a new key
    report = Exporter(session, state).run(items([again]))
    assert report.counts["created"] == 0 and report.counts["conflict"] == 1
    assert f"{gone} was deleted on the PDS" in report.problems[0].reason  # the record written, at its own key
    assert list_records(session) == {}
    asked = Exporter(session, state, recreate_deleted=True).run(items([again]))
    assert asked.counts["created"] == 1


def test_the_words_of_a_record_someone_deleted_are_not_published_again_when_an_agent_learns_them_again(
        session, state):
    """An agent runtime learns the same words again in another session: the contract's id holds the
    turn they came from, so a new fact id, a new key. The person deleted those words: they stay
    off the repository, in that scope (another agent's same words are its own)."""
    first = contract.with_ids(fact(3))
    Exporter(session, state).run(items([first]))
    [gone] = list_records(session)
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": gone.rsplit("/", 1)[1]})
    relearned = contract.with_ids({**fact(3), "text": "The user  prefers typescript for service 3.",
                                   "sourceEventId": "turn-99", "validFrom": "2026-12-01T08:00:00Z"})
    assert relearned["factId"] != first["factId"]
    other_agent = contract.with_ids({**relearned, "agentId": "another-agent", "factId": None})
    report = Exporter(session, state).run(items([relearned, other_agent]))
    assert [(o.memory_id, o.status) for o in report.outcomes] == [
        (relearned["factId"], "conflict"), (other_agent["factId"], "created")]
    assert f"{gone}, a record of the same words, was deleted on the PDS" in report.problems[0].reason
    assert state.exported(session.did)[gone.rsplit("/", 1)[1]].words is not None  # a hash, never the words
    asked = Exporter(session, state, recreate_deleted=True).run(items([relearned]))
    assert asked.counts["created"] == 1


def test_an_edit_of_a_fact_whose_record_someone_deleted_is_not_published(session, state):
    """The agent edits a memory after the person deleted its record: the edit is a new fact that
    supersedes the old (a new id, new words, a new key), and at one more remove an edit of the
    edit. Either would publish again what the person took off the repository: not created unless
    asked, and named as the edit of that record. An edit of a memory nobody deleted is published."""
    first = contract.with_ids(fact(4))
    kept = contract.with_ids(fact(5))
    Exporter(session, state).run(items([first, kept]))
    gone = next(uri for uri, r in list_records(session).items() if r["value"]["content"] == first["text"])
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": gone.rsplit("/", 1)[1]})
    edited = contract.with_ids({**fact(4), "text": "The user prefers Go for service 4.", "sourceEventId": "turn-40",
                                "validFrom": "2026-12-01T08:00:00Z", "supersedesFactId": first["factId"]})
    again = contract.with_ids({**fact(4), "text": "The user prefers Rust for service 4.", "sourceEventId": "turn-41",
                               "validFrom": "2026-12-02T08:00:00Z", "supersedesFactId": edited["factId"]})
    other = contract.with_ids({**fact(5), "text": "The user prefers Go for service 5.", "sourceEventId": "turn-50",
                               "validFrom": "2026-12-01T08:00:00Z", "supersedesFactId": kept["factId"]})
    source = [{**first, "active": False}, {**edited, "active": False}, again,
              {**kept, "active": False}, other]
    report = Exporter(session, state).run(items(source))
    status = {o.memory_id: o.status for o in report.outcomes}
    assert status[edited["factId"]] == status[again["factId"]] == "conflict", report.outcomes
    assert status[other["factId"]] == "created"
    reasons = {o.memory_id: o.reason for o in report.problems}
    assert f"{gone}, the record of a fact it replaces, was deleted on the PDS" in reasons[again["factId"]]
    assert "--recreate-deleted" not in reasons[again["factId"]]  # it would bring back the deleted version too
    held = [r["value"]["content"] for r in list_records(session).values()]
    assert sorted(held) == sorted([kept["text"], other["text"]])
    assert not any(o.known for o in report.problems)  # the first run that finds an edit names it
    rerun = Exporter(session, state).run(items(source))
    assert rerun.counts["created"] == 0
    # known once a run has named them: a scheduled export goes on
    assert {o.memory_id: o.known for o in rerun.problems} == {
        first["factId"]: True, edited["factId"]: True, again["factId"]: True}
    restored = Exporter(session, state, recreate_deleted=True).run(items(source))
    restored_status = {o.memory_id: o.status for o in restored.outcomes}
    assert restored_status[first["factId"]] != "conflict"  # the record the person deleted: asked for again
    assert restored_status[edited["factId"]] == restored_status[again["factId"]] == "conflict"  # not the edits
    assert again["text"] not in [r["value"]["content"] for r in list_records(session).values()]
    again_uri = again_record_uri(rerun, again)
    asked = Exporter(session, state, overwrite=[again_uri]).run(items(source))
    assert {o.memory_id: o.status for o in asked.outcomes}[again["factId"]] == "created"
    assert again["text"] in [r["value"]["content"] for r in list_records(session).values()]
    assert again_uri in list_records(session)


def again_record_uri(report, event) -> str:
    """The at-uri a run's conflict names for ``event``: what --overwrite-conflict takes."""
    return next(o.uri for o in report.outcomes if o.memory_id == event["factId"])


def test_an_edit_of_a_version_the_person_kept_is_published_though_an_older_version_was_deleted(session, state):
    """The person deletes only an old version of a memory (its history) and keeps the current one:
    that is no word on the memory, and the agent's next edit of the current version is published."""
    first = contract.with_ids(fact(6))
    Exporter(session, state).run(items([first]))
    second = contract.with_ids({**fact(6), "text": "The user prefers Go for service 6.", "sourceEventId": "turn-60",
                                "validFrom": "2026-12-01T08:00:00Z", "supersedesFactId": first["factId"]})
    Exporter(session, state).run(items([{**first, "active": False}, second]))
    old = next(uri for uri, r in list_records(session).items() if r["value"]["content"] == first["text"])
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": old.rsplit("/", 1)[1]})
    third = contract.with_ids({**fact(6), "text": "The user prefers Rust for service 6.", "sourceEventId": "turn-61",
                               "validFrom": "2026-12-02T08:00:00Z", "supersedesFactId": second["factId"]})
    report = Exporter(session, state).run(items([{**first, "active": False}, {**second, "active": False}, third]))
    status = {o.memory_id: o.status for o in report.outcomes}
    assert status[third["factId"]] == "created" and status[first["factId"]] == "conflict", report.outcomes
    assert sorted(r["value"]["content"] for r in list_records(session).values()) == sorted(
        [second["text"], third["text"]])


def test_a_memory_read_with_its_record_whose_record_the_person_deleted_is_a_noted_conflict(session, state):
    """A memory that comes with its record (import's or sync's output), a record pdsmem wrote and the
    person deleted: a conflict, noted, known on the next run; never written again, and no crash."""
    Exporter(session, state).run(items([fact(7)]))
    [(uri, held)] = list_records(session).items()
    view = {"uri": uri, "cid": held["cid"], "value": held["value"]}
    imported = from_record(view, ImportScope(did=session.did, agent_id="coder", profile_id="default")).to_json()
    session.procedure("com.atproto.repo.deleteRecord",
                      {"repo": session.did, "collection": RECORD_NSID, "rkey": uri.rsplit("/", 1)[1]})
    report = Exporter(session, state).run(items([imported]))
    [outcome] = report.outcomes
    assert (outcome.status, outcome.known) == ("conflict", False)
    assert f"{uri} was deleted on the PDS after pdsmem wrote it" in outcome.reason
    again = Exporter(session, state).run(items([imported]))
    assert [(o.status, o.known) for o in again.outcomes] == [("conflict", True)] and not list_records(session)


def test_a_foreign_record_at_the_derived_key_is_not_overwritten(session, state):
    event = contract.with_ids(fact(7))
    (view,), _ = to_records([event], session.did)
    rkey = view.uri.rsplit("/", 1)[1]
    squatter = {"$type": RECORD_NSID, "content": "Someone else's memory.", "createdAt": "2026-01-01T00:00:00Z"}
    session.procedure(
        "com.atproto.repo.createRecord",
        {"repo": session.did, "collection": RECORD_NSID, "rkey": rkey, "record": squatter},
    )
    report = Exporter(session, state).run(items([event]))
    assert report.counts["created"] == 1
    held = list_records(session)
    assert held[view.uri]["value"] == squatter
    assert len(held) == 2
    # Deterministic: a re-run finds the same probed key.
    assert Exporter(session, state).run(items([event])).counts["unchanged"] == 1


def test_prune_deletes_only_what_pdsmem_wrote(session, state):
    Exporter(session, state).run(items([fact(1), fact(2)]))
    other = {"$type": RECORD_NSID, "content": "Written by another app.", "createdAt": "2026-01-01T00:00:00Z"}
    session.procedure("com.atproto.repo.createRecord", {"repo": session.did, "collection": RECORD_NSID, "record": other})
    kept = Exporter(session, state).run(items([fact(1)]))
    assert kept.counts["deleted"] == 0 and len(list_records(session)) == 3
    pruned = Exporter(session, state).run(items([fact(1)]), prune=True)
    assert pruned.counts["deleted"] == 1
    contents = sorted(r["value"]["content"] for r in list_records(session).values())
    assert contents == sorted([fact(1)["text"], "Written by another app."])


def test_prune_keeps_the_record_of_an_edited_memory_whose_id_changed(session, state):
    Exporter(session, state).run(items([fact(1)]))
    [(uri, held)] = list_records(session).items()
    view = {"uri": uri, "cid": held["cid"], "value": held["value"]}
    imported = from_record(view, ImportScope(did=session.did, agent_id="coder", profile_id="default")).to_json()
    imported["event"]["text"] = "The user now prefers Rust."
    report = Exporter(session, state).run(items([imported]), prune=True)
    assert report.counts == {**report.counts, "updated": 1, "deleted": 0}
    assert [r["value"]["content"] for r in list_records(session).values()] == ["The user now prefers Rust."]


def test_an_item_whose_record_uri_is_not_an_at_uri_fails_alone(session, state):
    value = {"$type": RECORD_NSID, "content": "x", "createdAt": "2024-01-01T00:00:00.000Z"}
    bad = {"event": fact(1), "record": {"uri": "not-an-at-uri", "value": value}}
    for prune in (False, True):
        report = Exporter(session, state).run(items([bad, fact(2)]), prune=prune)
        assert report.counts == {**report.counts, "failed": 1}
        assert report.counts["created"] + report.counts["unchanged"] == 1


def test_prune_is_skipped_when_part_of_the_source_cannot_be_read(session, state):
    """An unreadable item may be a memory still wanted: its record must not be taken for gone."""
    Exporter(session, state).run(items([fact(1), fact(2), fact(3)]))
    source = items([fact(1), fact(2), fact(3)])
    source[1] = SourceItem("memories.jsonl:2", ContractError("is required", path="$.text"))
    report = Exporter(session, state).run(source, prune=True)
    assert report.counts == {**report.counts, "unchanged": 2, "failed": 1, "deleted": 0}
    assert report.notes == [
        "nothing was pruned: 1 item of the source could not be read, and their records must not be "
        "taken for memories gone from it (fix them, then run the export with --prune again)"
    ]
    assert len(list_records(session)) == 3


def test_a_memory_repeated_in_the_source_is_written_once(session, state):
    changed = dict(fact(1), confidence=0.9)  # the same factId: confidence is not part of it
    report = Exporter(session, state).run(items([fact(1), fact(2), fact(1), changed]))
    assert report.counts == {**report.counts, "created": 2, "duplicate": 1, "failed": 1}
    assert [(o.where, o.status, o.reason) for o in report.outcomes if o.where in ("item 2", "item 3")] == [
        ("item 2", "duplicate", "the same memory as item 0"),
        ("item 3", "failed", f"has the factId of item 0 ({contract.fact_id(fact(1))}) but other values; "
                             "only item 0 is exported"),
    ]
    expected, _ = to_records([fact(1), fact(2)], session.did)
    assert {u: r["cid"] for u, r in list_records(session).items()} == {v.uri: v.cid for v in expected}


def test_dry_run_writes_nothing_and_leaves_no_export_to_resume(session, state, tmp_path):
    report = Exporter(session, state).run(items([fact(1), fact(2)]), dry_run=True)
    assert report.counts["created"] == 2
    assert list_records(session) == {} and state.unfinished_exports() == []
    # records already in the repository, unknown to this ledger: a real run adopts them, a dry one not
    with State(tmp_path / "other-machine") as other:
        Exporter(session, other).run(items([fact(1), fact(2)]))
    assert Exporter(session, state).run(items([fact(1), fact(2)]), dry_run=True).counts["unchanged"] == 2
    assert state.exported(session.did) == {}


def test_supersession_across_runs_uses_the_ledger(session, state):
    old = contract.with_ids(fact(1))
    Exporter(session, state).run(items([old]))
    new = fact(2, supersedesFactId=old["factId"])
    report = Exporter(session, state).run(items([new]))
    assert report.counts["created"] == 1
    held = list_records(session)
    (old_uri,) = [u for u, r in held.items() if r["value"][EXT_KEY]["id"] == old["factId"]]
    (new_record,) = [r for r in held.values() if r["value"][EXT_KEY]["id"] != old["factId"]]
    assert new_record["value"]["supersedes"] == [old_uri]


def test_an_inactive_fact_that_nothing_supersedes_is_not_created(session, state):
    """A record has no ``active``: a forgotten fact written as one would read as current (and a
    sync would make it active again). One a fact of the source supersedes is history, and goes."""
    forgotten = contract.with_ids(fact(1, active=False))
    old = contract.with_ids(fact(2, active=False))
    new = fact(3, supersedesFactId=old["factId"])
    report = Exporter(session, state).run(items([forgotten, old, new]))
    assert [(o.memory_id, o.status) for o in report.outcomes if o.status != "created"] == [
        (forgotten["factId"], "inactive")]
    assert report.counts["created"] == 2 and not report.problems
    assert {r["value"][EXT_KEY]["id"] for r in list_records(session).values()} == {
        old["factId"], contract.with_ids(new)["factId"]}
    asked = Exporter(session, state, overwrite={report.outcomes[0].uri}).run(items([forgotten]))
    assert asked.counts["created"] == 1  # the person named it


def test_an_inactive_fact_superseded_only_by_forgotten_ones_is_not_created(session, state):
    """Regression (an outside try): an inactive fact whose successor is inactive too, and superseded
    by none, was written, and read as a current memory."""
    first = contract.with_ids(fact(4, active=False))
    second = contract.with_ids(fact(5, active=False, supersedesFactId=first["factId"]))
    report = Exporter(session, state).run(items([first, second]))
    assert sorted(o.status for o in report.outcomes) == ["inactive", "inactive"] and not list_records(session)


def test_a_fact_superseding_a_refused_one_is_refused_too_never_left_dangling(session, state):
    """The successor comes first in the source, the refused fact after it, then a fact that
    supersedes the successor: each is mapped after the fact it supersedes."""
    refused = contract.with_ids(fact(1, text="Staging DB password=hunter22 for now"))
    successor = contract.with_ids(fact(2, text="Staging DB credentials moved to the vault.",
                                       supersedesFactId=refused["factId"]))
    third = fact(3, supersedesFactId=successor["factId"])
    report = Exporter(session, state).run(items([successor, refused, third]))
    assert [(o.where, o.status) for o in report.outcomes] == [
        ("item 1", "refused"), ("item 0", "failed"), ("item 2", "failed")]
    assert "whose record is unknown" in report.outcomes[1].reason
    assert list_records(session) == {}


class LoseResponses(httpx.BaseTransport):
    """Fault injection at the transport boundary: forwards each applyWrites to the real PDS, then
    drops the first ``count`` responses (the write landed; the client never hears so). A real PDS
    does not do this on demand."""

    def __init__(self, count: int) -> None:
        self.inner = httpx.HTTPTransport()
        self.count = count
        self.lost = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/com.atproto.repo.applyWrites") and self.lost < self.count:
            response.read()
            self.lost += 1
            raise httpx.ReadError("connection reset by peer (injected)", request=request)
        return response


def test_a_lost_response_is_reconciled_without_duplicates(pds, account, tmp_path, state):
    transport = LoseResponses(count=2)
    session = Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "s", transport=transport)
    events = [fact(n) for n in range(450)]
    report = Exporter(session, state, sleep=lambda s: None).run(items(events))
    assert transport.lost == 2
    expected, _ = to_records(events, session.did)
    held = list_records(session)
    assert {u: r["cid"] for u, r in held.items()} == {v.uri: v.cid for v in expected}
    assert report.counts["created"] + report.counts["unchanged"] == 450
    assert set(state.exported(session.did)) == {v.uri.rsplit("/", 1)[1] for v in expected}


def test_another_writer_between_plan_and_write_forces_a_replan(session, state):
    events = [fact(n) for n in range(400)]
    exporter = Exporter(session, state)
    written_by_other = []

    def other_writer(done, total):
        if not written_by_other:
            written_by_other.append(
                session.procedure(
                    "com.atproto.repo.createRecord",
                    {"repo": session.did, "collection": "com.example.note", "record": {"$type": "com.example.note", "text": "hi"}},
                )
            )

    exporter.on_progress = other_writer
    exporter.run(items(events))
    expected, _ = to_records(events, session.did)
    assert {u: r["cid"] for u, r in list_records(session).items()} == {v.uri: v.cid for v in expected}


def _run_cli(args, env, **kw):
    return subprocess.Popen(
        [sys.executable, "-m", "pdsmem.cli", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw
    )


@pytest.mark.parametrize("kill_after_commits", [1, 4, 9])
def test_export_killed_with_sigkill_resumes_exactly(pds, account, tmp_path, kill_after_commits):
    """SIGKILL the export process after some of its applyWrites commits, then run it again."""
    source = tmp_path / "memories.jsonl"
    events = [fact(n) for n in range(3000)]
    source.write_text("".join(json.dumps(e) + "\n" for e in events))
    env = dict(
        os.environ,
        ATP_AUTH_PASSWORD=account.password,
        ATP_PDS_HOST=pds.url,
        ATP_PLC_HOST=pds.plc_url,
        PDSMEM_STATE_DIR=str(tmp_path / "state"),
    )
    args = ["export", "--to", account.did, "--from", str(source)]
    session = Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "observer")
    revs = {head_rev(session)}
    process = _run_cli(args, env)
    deadline = time.time() + 120
    while time.time() < deadline and process.poll() is None and len(revs) <= kill_after_commits:
        revs.add(head_rev(session))
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    settled = head_rev(session)  # a batch already sent may still commit: wait until nothing moves
    quiet_by = time.time() + 60
    while time.sleep(1.0) or head_rev(session) != settled:
        assert time.time() < quiet_by, "the repository kept changing for a minute after the kill"
        settled = head_rev(session)
    partial = len(list_records(session))
    assert 0 < partial < 3000, f"killed after {partial} records; the kill point missed the export"
    status = subprocess.run([sys.executable, "-m", "pdsmem.cli", "status", "--json"], env=env,
                            capture_output=True, text=True, check=True)
    [run] = json.loads(status.stdout)["summary"]["unfinishedExports"]
    assert (run["did"], run["source"], run["state"]) == (account.did, str(source), "killed")
    assert run["written"] <= partial and run["planned"] == 3000  # a kill may land before it is noted

    finish = _run_cli(args, env)
    out, err = finish.communicate(timeout=300)
    assert finish.returncode == 0, err
    expected, _ = to_records(events, account.did)
    held = list_records(session)
    assert {u: r["cid"] for u, r in held.items()} == {v.uri: v.cid for v in expected}
    assert f"{3000 - partial} created" in out and f"{partial} unchanged" in out
    with State(tmp_path / "state") as state:
        assert state.unfinished_exports() == []


def test_outbox_directory_is_a_source(tmp_path, session, state):
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    for e in [contract.with_ids(fact(n)) for n in range(3)]:
        (outbox / f"{e['factId']}.json").write_text(json.dumps(e))
    (outbox / "broken.json").write_text("{not json")
    report = Exporter(session, state).run(read_source(outbox))
    assert report.counts["created"] == 3 and report.counts["failed"] == 1
    assert "broken.json" in report.problems[0].where


def test_export_over_the_hourly_budget_pauses_on_429_and_resumes_without_duplicates(tmp_path):
    """A PDS with its real rate limiter: 2,000 creates cost 6,000 points, over the 5,000/hour budget.

    The limiter keeps its counters in memory, so restarting the PDS stands in for "an hour later".
    """
    from devkit.pds import LocalPds

    with LocalPds(rate_limits=True) as limited:
        account = limited.create_account()
        events = [fact(n) for n in range(2000)]
        session = Session.login(limited.url, account.did, account.password, state_dir=tmp_path / "s")
        with State(tmp_path / "state") as state:
            with pytest.raises(Exception) as paused:
                Exporter(session, state).run(items(events))
            assert type(paused.value).__name__ == "ExportPaused"
            assert "resets at" in str(paused.value) and "run the same command again" in str(paused.value)
            assert paused.value.reset_at and paused.value.reset_at > time.time()
            first = list_records(session)
            assert 0 < len(first) < 2000
            assert len(state.exported(account.did)) == len(first)
            [run] = state.unfinished_exports()
            assert (run.did, run.source, run.written, run.planned) == (account.did, "memories", len(first), 2000)
            assert run.paused_until == paused.value.reset_at and "rate-limited" in run.reason

            limited.restart()
            session = Session.login(limited.url, account.did, account.password, state_dir=tmp_path / "s2")
            report = Exporter(session, state).run(items(events))
            assert report.counts["created"] == 2000 - len(first)
            assert report.counts["unchanged"] == len(first)
            assert state.unfinished_exports() == []
            expected, _ = to_records(events, account.did)
            assert {u: r["cid"] for u, r in list_records(session).items()} == {v.uri: v.cid for v in expected}


class RateLimitStorm(httpx.BaseTransport):
    """Fault injection at the transport boundary: answers the first ``count`` applyWrites with a
    429 (with or without RateLimit headers) without forwarding them; everything else reaches the
    real PDS. A real PDS will not produce a short 429 storm on demand."""

    def __init__(self, count: int, with_headers: bool) -> None:
        self.inner = httpx.HTTPTransport()
        self.count, self.with_headers, self.sent = count, with_headers, 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/com.atproto.repo.applyWrites") and self.sent < self.count:
            self.sent += 1
            headers = {}
            if self.with_headers:
                headers = {"RateLimit-Limit": "5000", "RateLimit-Remaining": "0",
                           "RateLimit-Reset": str(int(time.time()) + 1), "RateLimit-Policy": "5000;w=3600"}
            return httpx.Response(429, json={"error": "RateLimitExceeded", "message": "Rate Limit Exceeded"},
                                  headers=headers, request=request)
        return self.inner.handle_request(request)


@pytest.mark.parametrize("with_headers", [True, False])
def test_a_429_storm_is_waited_out_within_max_wait(pds, account, tmp_path, state, with_headers):
    storm = RateLimitStorm(count=3, with_headers=with_headers)
    session = Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "s", transport=storm)
    waits = []
    events = [fact(n) for n in range(300)]
    report = Exporter(session, state, max_wait=120, sleep=waits.append).run(items(events))
    assert storm.sent == 3 and len(waits) == 3
    assert report.counts["created"] == 300
    assert len(list_records(session)) == 300


def test_a_429_without_max_wait_stops_with_the_resume_time(pds, account, tmp_path, state):
    storm = RateLimitStorm(count=1, with_headers=False)
    session = Session.login(pds.url, account.did, account.password, state_dir=tmp_path / "s", transport=storm)
    with pytest.raises(Exception, match="did not say when"):
        Exporter(session, state).run(items([fact(1)]))
    assert Exporter(session, state).run(items([fact(1)])).counts["created"] == 1


def _calls(session, monkeypatch) -> list[str]:
    """The XRPC methods ``session`` calls from now on (each still goes to the real PDS)."""
    seen: list[str] = []
    for kind in ("query", "procedure"):
        real = getattr(session, kind)

        def counted(method, *args, _real=real, **kwargs):
            seen.append(method)
            return _real(method, *args, **kwargs)

        monkeypatch.setattr(session, kind, counted)
    return seen


def test_a_new_memory_after_a_turn_is_one_write_and_no_read(session, state, monkeypatch):
    Exporter(session, state).run(items([fact(n) for n in range(30)]))
    seen = _calls(session, monkeypatch)
    report = Exporter(session, state).run(items([fact(100)]))
    assert report.counts["created"] == 1 and seen == ["com.atproto.repo.applyWrites"]
    assert len(list_records(session)) == 31


def test_a_memory_whose_record_exists_but_the_ledger_lost_is_not_written_twice(session, state, tmp_path):
    Exporter(session, state).run(items([fact(1), fact(2)]))
    before = list_records(session)
    with State(tmp_path / "another machine") as fresh:  # no ledger: the direct create is refused
        report = Exporter(session, fresh).run(items([fact(1), fact(2)]))
    assert report.counts["unchanged"] == 2 and report.counts["created"] == 0
    assert list_records(session) == before
