"""Faults in the middle of an export: PDS restarts and outages, reset connections, expired
and revoked sessions.

After each fault the end state is checked exactly: the repository holds exactly the expected
records (uri → CID) and the ledger agrees. Real faults: the real PDS stopped, killed, or
restarted with a rotated JWT secret. Injected at the transport boundary (``support.faults.Faulty``),
because a real server will not do it on demand: refused and reset connections, an expired token.
SIGKILL of ``pdsmem export`` and 429 storms are in ``test_export.py``; docs/reliability.md lists
everything.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator

import pytest
from devkit.events import fact
from support.faults import Faulty, assert_exported_exactly, held, items, login
from devkit.pds import LocalPds

from pdsmem.bridge.pipelines.exporter import MAX_TRANSIENT, Exporter
from pdsmem.bridge.signin.session import Session, SessionError, SessionStore
from pdsmem.bridge.pipelines.state import State
from pdsmem.errors import TransientError

pytestmark = pytest.mark.pds


@pytest.fixture(scope="module")
def own_pds() -> Iterator[LocalPds]:
    """A PDS of this module's own, so that stopping, killing or re-keying it disturbs no one."""
    with LocalPds() as server:
        yield server


# --- export: the PDS goes away --------------------------------------------------------------


@pytest.mark.parametrize("point", ["stop after batch 1", "stop after batch 2", "SIGKILL during batch 2"])
def test_export_rides_out_a_pds_restart(own_pds, tmp_path, point):
    """The real PDS goes down between batches (or is killed while a batch is in flight) and comes
    back a few seconds later; the same run retries, re-plans from the repository and finishes."""
    account = own_pds.create_account()
    session = login(own_pds, account, tmp_path / "s")
    events = [fact(n) for n in range(600)]  # three batches of 200
    waits: list[float] = []
    workers: list[threading.Thread] = []

    def crash() -> None:
        time.sleep(0.05)  # the next batch is on the wire
        own_pds.kill()
        own_pds.start()

    def progress(done: int, total: int) -> None:
        if workers or done < (400 if point == "stop after batch 2" else 200):
            return
        if point.startswith("SIGKILL"):
            workers.append(threading.Thread(target=crash))
        else:
            own_pds.stop()
            workers.append(threading.Thread(target=own_pds.start))
        workers[0].start()

    def sleep(seconds: float) -> None:  # the schedule itself is checked by the next test
        waits.append(seconds)
        time.sleep(seconds)
        if len(waits) == MAX_TRANSIENT:
            # A loaded machine can take longer than the run's retries (about 21 s) to start the PDS
            # again; the last wait lasts until it answers, so that the test times the server, not pdsmem.
            workers[0].join()

    with State(tmp_path / "state") as state:
        try:
            report = Exporter(session, state, sleep=sleep, on_progress=progress).run(items(events))
        finally:
            workers[0].join()
        assert waits, "the run never met the outage"
        assert report.counts["created"] + report.counts["unchanged"] == 600
        assert_exported_exactly(session, state, events)


def test_an_outage_longer_than_the_retries_stops_and_a_second_run_finishes(own_pds, tmp_path):
    """The real PDS stops after the first batch and stays down through every retry."""
    account = own_pds.create_account()
    session = login(own_pds, account, tmp_path / "s")
    events = [fact(n) for n in range(600)]
    waits: list[float] = []
    with State(tmp_path / "state") as state:
        exporter = Exporter(session, state, sleep=waits.append)
        exporter.on_progress = lambda done, total: own_pds.stop() if own_pds.running else None
        try:
            with pytest.raises(TransientError, match="everything written so far is recorded: run the same command again to resume"):
                exporter.run(items(events))
        finally:
            own_pds.start()
        assert len(waits) == MAX_TRANSIENT and max(waits) == 5.0
        assert len(held(session)) == 200 == len(state.exported(session.did))
        [run] = state.unfinished_exports()
        assert (run.written, run.planned, run.paused_until) == (200, 600, None)
        assert run.reason.startswith(f"cannot reach the PDS at {own_pds.url}")
        report = Exporter(session, state).run(items(events))
        assert report.counts["created"] == 400 and report.counts["unchanged"] == 200
        assert state.unfinished_exports() == []
        assert_exported_exactly(session, state, events)


@pytest.fixture
def restarted(own_pds) -> Iterator[None]:
    """Whatever a test stops, the module's PDS runs again after it."""
    yield
    if not own_pds.running:
        own_pds.start()


def _a_session_then_the_pds_stopped(own_pds, tmp_path) -> tuple[Session, list[float]]:
    """A signed-in session of a new account, then the PDS stopped; and a list the retries' waits go to."""
    session = login(own_pds, own_pds.create_account(), tmp_path / "s")
    own_pds.stop()
    return session, []


def test_a_dry_run_that_cannot_reach_the_pds_does_not_speak_of_resuming(own_pds, restarted, tmp_path):
    """Found by a new user: a dry run with the PDS down ended with "everything written so far is
    recorded: run the same command again to resume", though a dry run writes nothing."""
    session, waits = _a_session_then_the_pds_stopped(own_pds, tmp_path)
    with State(tmp_path / "state") as state:
        with pytest.raises(TransientError) as caught:
            Exporter(session, state, sleep=waits.append).run(items([fact(1)]), dry_run=True)
        assert len(waits) == MAX_TRANSIENT
        assert caught.value.hint.endswith(
            "a dry run writes nothing: run the same command again when the PDS answers")
        assert "resume" not in str(caught.value) and state.unfinished_exports() == []


def test_a_run_that_wrote_nothing_before_the_pds_went_away_says_so(own_pds, restarted, tmp_path):
    """Found by a new user: a run that could not reach the PDS at all ended with "everything written so
    far is recorded", as if part of it had been written."""
    session, waits = _a_session_then_the_pds_stopped(own_pds, tmp_path)
    with State(tmp_path / "state") as state:
        with pytest.raises(TransientError) as caught:
            Exporter(session, state, sleep=waits.append).run(items([fact(n) for n in range(40)]))
        assert len(waits) == MAX_TRANSIENT
        assert caught.value.hint.endswith("nothing was written: run the same command again when the PDS answers")
        assert "written so far" not in str(caught.value)


def test_an_empty_source_does_not_need_the_pds(own_pds, restarted, tmp_path):
    """Found by hand: exporting an empty file to a PDS that was down retried for half a minute,
    then failed, though there was nothing to write or delete. The repository is not read now."""
    session, waits = _a_session_then_the_pds_stopped(own_pds, tmp_path)
    with State(tmp_path / "state") as state:
        for prune in (False, True):
            report = Exporter(session, state, sleep=waits.append).run([], prune=prune)
            assert report.outcomes == [] and report.batches == 0 and waits == []
            assert "the source holds no memories" in report.notes[0]
        assert state.unfinished_exports() == []


# --- export: reset connections --------------------------------------------------------------


EXPORT_FAULTS = {
    "head, refused": {("com.atproto.sync.getLatestCommit", 1): "before"},
    "listing page 2, reset": {("com.atproto.repo.listRecords", 2): "after"},
    "batch 1, refused": {("com.atproto.repo.applyWrites", 1): "before"},
    "batch 1, answer lost": {("com.atproto.repo.applyWrites", 1): "after"},
    "batch 2, answer lost": {("com.atproto.repo.applyWrites", 2): "after"},
    "every call for a while": {
        ("com.atproto.repo.applyWrites", 1): "after",
        ("com.atproto.sync.getLatestCommit", 2): "before",
        ("com.atproto.repo.listRecords", 4): "after",
        ("com.atproto.sync.getLatestCommit", 3): "before",
        ("com.atproto.repo.applyWrites", 2): "before",
    },
}


@pytest.mark.parametrize("point", list(EXPORT_FAULTS))
def test_export_through_reset_connections(pds, account, tmp_path, point):
    """Fault injection at the transport boundary (see ``Faulty``), on a run that creates 250
    records and updates 20 in a repository already holding 250."""
    first = [fact(n) for n in range(250)]
    final = [fact(n, confidence=0.5) if n < 20 else fact(n) for n in range(500)]
    with State(tmp_path / "state") as state:
        Exporter(login(pds, account, tmp_path / "s1"), state).run(items(first))
        faulty = Faulty(EXPORT_FAULTS[point])
        session = login(pds, account, tmp_path / "s2", transport=faulty)
        waits: list[float] = []
        report = Exporter(session, state, sleep=waits.append).run(items(final))
        assert not faulty.faults, f"faults never fired: {faulty.faults}"
        assert len(waits) == len(faulty.fired)
        counts = report.counts
        assert counts["created"] + counts["updated"] + counts["unchanged"] == 500
        assert counts["created"] <= 250 and counts["updated"] <= 20
        assert_exported_exactly(session, state, final)


# --- export: the session expires -----------------------------------------------------------


@pytest.mark.parametrize("batch, expired", [(1, True), (3, True), (2, False)])
def test_export_renews_a_session_that_expires_mid_run(pds, account, tmp_path, batch, expired):
    """Fault injection at the transport boundary (``Faulty``): the PDS answers ExpiredToken (or
    InvalidToken) to one batch; the session renews itself with refreshSession, saves the new pair,
    and the run goes on. (The exporter's reads, listRecords and getLatestCommit, are public: the
    PDS ignores the token there, so only writes can meet an expiry.)"""
    secret = json.loads((pds.data_dir / "secrets.json").read_text())["jwtSecret"]
    transport = Faulty({("com.atproto.repo.applyWrites", batch): "expired"},
                       **({"secret": secret} if expired else {}))
    session = login(pds, account, tmp_path / "s", transport=transport)
    before = SessionStore(tmp_path / "s").load(pds.url, account.did)
    events = [fact(n) for n in range(500)]
    with State(tmp_path / "state") as state:
        report = Exporter(session, state).run(items(events))
        assert transport.rejected == ["ExpiredToken" if expired else "InvalidToken"]
        assert report.counts["created"] == 500
        assert_exported_exactly(session, state, events)
    after = SessionStore(tmp_path / "s").load(pds.url, account.did)
    assert after.refresh_jwt != before.refresh_jwt  # rotated, and saved at once


@pytest.mark.parametrize("password", [True, False])
def test_export_after_every_token_was_revoked(own_pds, tmp_path, monkeypatch, password):
    """The real PDS restarts with a rotated JWT secret after the first batch. With the password at
    hand the session logs in again and the run finishes; without it the run stops, saying how to
    log in, and a run after logging in finishes the job."""
    monkeypatch.delenv("ATP_AUTH_PASSWORD", raising=False)
    account = own_pds.create_account()
    login(own_pds, account, tmp_path / "s").close()
    session = Session.load_or_login(
        account.did, account.password if password else None, pds_url=own_pds.url,
        state_dir=tmp_path / "s",
    )
    events = [fact(n) for n in range(500)]
    rotated: list[bool] = []
    secrets_file = own_pds.data_dir / "secrets.json"

    def progress(done: int, total: int) -> None:  # every token it issued becomes invalid
        if not rotated:
            own_pds.stop()
            secrets_file.write_text(json.dumps(
                {**json.loads(secrets_file.read_text()), "jwtSecret": os.urandom(32).hex()}))
            own_pds.start()
            rotated.append(True)

    with State(tmp_path / "state") as state:
        exporter = Exporter(session, state, on_progress=progress)
        if password:
            assert exporter.run(items(events)).counts["created"] == 500
        else:
            with pytest.raises(SessionError, match="session expired; set ATP_AUTH_PASSWORD"):
                exporter.run(items(events))
            session = login(own_pds, account, tmp_path / "s")
            report = Exporter(session, state).run(items(events))
            assert report.counts["created"] == 300 and report.counts["unchanged"] == 200
        assert_exported_exactly(session, state, events)
