"""Faults in the middle of a run: crashes, PDS restarts, reset connections, expired sessions.

After each fault the end state is checked exactly: the repository holds exactly the expected
records (uri → CID) and the ledger agrees; or every record was delivered at least once, the
import cursor never names an undelivered record, and a run after completion delivers nothing.
Real faults: SIGKILL of ``pdsmem import``; the real PDS stopped, killed, or restarted with a
rotated JWT secret. Injected at the transport boundary (``Faulty``), because a real server will
not do it on demand: refused and reset connections, a body cut short, an expired token. 429
storms are in ``test_export.py``; docs/reliability.md lists everything.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.events import fact
from support.pds import LocalPds
from support.repo_builder import COLLECTION, DID, Keypair, build_repo

from pdsmem.bridge.exporter import MAX_TRANSIENT, Exporter
from pdsmem.bridge.importer import Importer
from pdsmem.bridge.session import Session, SessionError, SessionStore
from pdsmem.bridge.sources import SourceItem
from pdsmem.bridge.state import State
from pdsmem.errors import TransientError
from pdsmem.mapping.to_record import to_records

pytestmark = pytest.mark.pds

SCOPE = ["--agent-id", "coder", "--profile-id", "default"]


# --- helpers --------------------------------------------------------------------------------


def items(events: list[dict]) -> list[SourceItem]:
    return [SourceItem(f"item {n}", e) for n, e in enumerate(events)]


def expected(events: list[dict], did: str) -> dict[str, str]:
    views, failed = to_records(events, did)
    assert not failed
    return {v.uri: v.cid for v in views}


def held(session: Session) -> dict[str, str]:
    """uri → CID of every memory record in the repository; a uri listed twice fails."""
    out: dict[str, str] = {}
    cursor = None
    while True:
        page = session.query(
            "com.atproto.repo.listRecords",
            {"repo": session.did, "collection": COLLECTION, "limit": 100, "cursor": cursor},
        )
        for record in page["records"]:
            assert record["uri"] not in out, f"{record['uri']} listed twice"
            out[record["uri"]] = record["cid"]
        cursor = page.get("cursor")
        if not cursor or not page["records"]:
            return out


def assert_exported_exactly(session: Session, state: State, events: list[dict]) -> None:
    want = expected(events, session.did)
    assert held(session) == want
    assert {r.rkey: r.cid for r in state.exported(session.did).values()} == {
        uri.rsplit("/", 1)[1]: cid for uri, cid in want.items()
    }


class Faulty(httpx.BaseTransport):
    """Fault injection at the transport boundary: request ``nth`` to ``nsid``, for each
    ``(nsid, nth)`` in ``faults``, fails ``before`` it reaches the PDS (connection refused),
    ``after`` the PDS answered (reset: the work was done, the answer is lost), or is ``cut``
    after ``cut_at`` bytes of its body; or it carries an ``expired`` copy of its access token,
    signed with ``secret`` (the PDS's own, or a wrong one), which the real PDS rejects. Other
    requests go to the real server unchanged. ``nsid`` ``plc`` is the DID document request."""

    def __init__(self, faults: dict[tuple[str, int], str], *, cut_at: int = 20_000,
                 secret: str = "not the secret") -> None:
        self.inner = httpx.HTTPTransport()
        self.faults, self.cut_at, self.secret = dict(faults), cut_at, secret
        self.seen: dict[str, int] = {}
        self.fired: list[tuple[str, int, str]] = []
        self.rejected: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        nsid = request.url.path.rsplit("/", 1)[-1]
        nsid = "plc" if nsid.startswith("did:") else nsid
        self.seen[nsid] = self.seen.get(nsid, 0) + 1
        how = self.faults.pop((nsid, self.seen[nsid]), None)
        if how is None:
            return self.inner.handle_request(request)
        self.fired.append((nsid, self.seen[nsid], how))
        if how == "before":
            raise httpx.ConnectError("connection refused (injected)", request=request)
        if how == "expired":
            token = request.headers["Authorization"].removeprefix("Bearer ")
            request.headers["Authorization"] = f"Bearer {expired_copy(token, self.secret)}"
            response = self.inner.handle_request(request)
            response.read()
            self.rejected.append(response.json()["error"])
            return response
        response = self.inner.handle_request(request)
        if how == "after":
            response.read()
            response.close()
            raise httpx.ReadError("connection reset by peer (injected)", request=request)
        return httpx.Response(
            response.status_code, headers=response.headers, request=request,
            content=_cut(response, self.cut_at),
        )


def _cut(response: httpx.Response, limit: int) -> Iterator[bytes]:
    """The first ``limit`` bytes of the body, then a reset connection."""
    sent = 0
    try:
        for chunk in response.stream:
            yield chunk[: limit - sent]
            sent += len(chunk[: limit - sent])
            if sent >= limit:
                raise httpx.ReadError("connection reset by peer mid-body (injected)")
        raise AssertionError(f"the body ended before byte {limit}; cut it earlier")
    finally:
        response.close()


@pytest.fixture(scope="module")
def own_pds() -> Iterator[LocalPds]:
    """A PDS of this module's own, so that stopping, killing or re-keying it disturbs no one."""
    with LocalPds() as server:
        yield server


def login(server: LocalPds, account, where: Path, **kw) -> Session:
    return Session.login(server.url, account.did, account.password, state_dir=where, **kw)


# --- export: the PDS goes away --------------------------------------------------------------


@pytest.mark.parametrize("point", ["stop after batch 1", "stop after batch 2", "SIGKILL during batch 2"])
def test_export_rides_out_a_pds_restart(own_pds, tmp_path, point):
    """The real PDS goes down between batches (or is killed while a batch is in flight) and comes
    back about 2 s later; the same run retries, re-plans from the repository and finishes."""
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
        time.sleep(min(seconds, 1.0))

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
            with pytest.raises(TransientError, match="run the same command again to resume"):
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


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def expired_copy(token: str, secret: str) -> str:
    """``token`` re-issued with an expiry an hour ago, signed with the PDS's own JWT secret."""
    header, payload, _ = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims.update(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)
    signed = f"{header}.{_b64(json.dumps(claims).encode())}"
    mac = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{_b64(mac)}"


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


# --- import: reset connections --------------------------------------------------------------


def import_once(server: LocalPds, did: str, state: State, transport=None) -> list[dict]:
    """One import of ``did`` from ``server``; the JSON objects it delivered."""
    importer = Importer(
        state, agent_id="coder", profile_id="default", plc_url=server.plc_url,
        pds_hint=server.url, transport=transport,
    )
    out = io.StringIO()
    with importer.from_pds(did) as batch:
        importer.deliver(batch, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def applied(lines: list[dict]) -> dict[str, str]:
    """What a consumer holds after applying delivered lines in order: uri → CID."""
    view: dict[str, str] = {}
    for line in lines:
        if line["op"] == "delete":
            view.pop(line["uri"], None)
        else:
            view[line["record"]["uri"]] = line["record"]["cid"]
    return view


IMPORT_FAULTS = {
    "first read, identity refused": ("first", {("plc", 1): "before"}),
    "first read, refused": ("first", {("com.atproto.sync.getRepo", 1): "before"}),
    "first read, cut mid-CAR": ("first", {("com.atproto.sync.getRepo", 1): "cut"}),
    "next read, head reset": ("next", {("com.atproto.sync.getLatestCommit", 1): "after"}),
    "next read, diff cut mid-CAR": ("next", {("com.atproto.sync.getRepo", 1): "cut"}),
}


@pytest.mark.parametrize("point", list(IMPORT_FAULTS))
def test_import_through_reset_connections(pds, account, tmp_path, point):
    """Fault injection at the transport boundary (see ``Faulty``; ``plc`` is the DID document
    request). The import stops with a transient error before delivering anything, the cursor
    stays, and the next run delivers what is missing; a run after that delivers nothing."""
    when, faults = IMPORT_FAULTS[point]
    session = login(pds, account, tmp_path / "s")
    delivered: list[dict] = []
    with State(tmp_path / "ledger") as ledger, State(tmp_path / "state") as state:
        Exporter(session, ledger).run(items([fact(n) for n in range(300)]))
        if when == "next":
            delivered += import_once(pds, account.did, state)
            changed = [fact(n, confidence=0.5) if n < 30 else fact(n) for n in range(20, 400)]
            report = Exporter(session, ledger).run(items(changed), prune=True)
            assert report.counts == {**report.counts, "created": 100, "updated": 10, "deleted": 20}
        cursor = state.cursor(account.did)
        faulty = Faulty(faults)
        with pytest.raises(TransientError):
            import_once(pds, account.did, state, faulty)
        assert not faulty.faults, f"faults never fired: {faulty.faults}"
        assert state.cursor(account.did) == cursor
        delivered += import_once(pds, account.did, state)
        assert applied(delivered) == held(session)
        assert import_once(pds, account.did, state) == []


# --- import: SIGKILL ------------------------------------------------------------------------

CAR_SIZE = 2000
NOWHERE = "http://127.0.0.1:9"  # the PLC directory: nothing listens, nothing may be looked up


@pytest.fixture(scope="module")
def cars(tmp_path_factory) -> dict:
    """One repository in two versions, real signed CARs: 2,000 records as pdsmem maps them; then
    100 deleted, 100 changed, 300 added. ``revs`` maps each rev to its records (uri → CID)."""
    key, folder = Keypair.generate(), tmp_path_factory.mktemp("cars")
    out: dict = {"key": key.did_key, "revs": {}}
    later = [fact(n, confidence=0.5) if n < 200 else fact(n) for n in range(100, CAR_SIZE + 300)]
    for name, rev, events in [("v1", "3lbt4ilkfw22s", [fact(n) for n in range(CAR_SIZE)]),
                              ("v2", "3lbt4ilkfw33s", later)]:
        views, failed = to_records(events, DID)
        assert not failed
        records = {f"{COLLECTION}/{v.uri.rsplit('/', 1)[1]}": v.value for v in views}
        (folder / f"{name}.car").write_bytes(build_repo(records, keypair=key, rev=rev).car)
        out[name] = (folder / f"{name}.car", {v.uri: v.cid for v in views})
        out["revs"][rev] = out[name][1]
    return out


def start_import(car: Path, key: str, out: Path, state_dir: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATP_", "PDSMEM_"))}
    env.update(PDSMEM_STATE_DIR=str(state_dir), ATP_PLC_HOST=NOWHERE)
    args = ["import", "--from", str(car), "--signing-key", key, *SCOPE, "--out", str(out)]
    return subprocess.Popen(
        [sys.executable, "-m", "pdsmem.cli", *args], env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def finish_import(car: Path, key: str, out: Path, state_dir: Path, cut: int = 0) -> list[dict]:
    """Run the import to the end; every complete line of ``out`` (``cut`` lines cut off by a kill
    may be there: a consumer skips them)."""
    process = start_import(car, key, out, state_dir)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return read_lines(out, cut)


def read_lines(path: Path, cut: int = 0) -> list[dict]:
    lines, broken = [], 0
    for line in path.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            broken += 1
    assert broken <= cut, f"{broken} lines of {path} are not JSON"
    return lines


class Consumer:
    """The reading end of a named pipe given to ``--out``: what it has read was delivered.

    Opened read-write so that neither the writer's open nor a read ever waits for the other
    side; a cut-off last line is dropped, as a consumer of a file would drop it.
    """

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        self.pending = b""
        self.lines: list[dict] = []

    def read_until(self, count: int, process: subprocess.Popen) -> None:
        deadline = time.monotonic() + 120
        while len(self.lines) < count:
            if not select.select([self.fd], [], [], 0.1)[0]:
                assert process.poll() is None, process.communicate()[1]
                assert time.monotonic() < deadline, f"{len(self.lines)} of {count} lines in 120 s"
                continue
            self.take(os.read(self.fd, 1 << 16))

    def drain(self) -> list[dict]:
        try:
            while chunk := os.read(self.fd, 1 << 16):
                self.take(chunk)
        except BlockingIOError:
            pass
        os.close(self.fd)
        return self.lines

    def take(self, chunk: bytes) -> None:
        *complete, self.pending = (self.pending + chunk).split(b"\n")
        self.lines += [json.loads(line) for line in complete if line]


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate()


def assert_cursor_not_ahead(state_dir: Path, delivered: list[dict], versions: dict) -> None:
    """The stored cursor names a version (rev → uri → CID) the consumer has been given in full:
    each of its records, and a deletion for each record of an older version gone since."""
    with State(state_dir) as state:
        cursor, remembered = state.cursor(DID), state.seen_records(DID)
    if cursor is None:
        assert not remembered
        return
    repository = versions[cursor.rev]
    assert remembered == repository
    given = {(line["record"]["uri"], line["record"]["cid"]) for line in delivered if "record" in line}
    assert repository.items() <= given, "the cursor is ahead of the output"
    gone = {line["uri"] for line in delivered if line["op"] == "delete"}
    for rev, older in versions.items():
        assert rev >= cursor.rev or older.keys() - repository.keys() <= gone


KILL_POINTS = {  # lines the consumer has read when pdsmem is killed
    "before delivery": 0,
    "after the first line": 1,
    "half-way": CAR_SIZE // 2,
    "after the last line": CAR_SIZE,
}


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_import_killed_with_sigkill_delivers_everything_at_least_once(cars, tmp_path, point):
    """SIGKILL ``pdsmem import --out PIPE`` when the consumer has read some lines (``before
    delivery``: 0.4 s in, the pipe not yet opened for reading, so nothing can have been
    delivered), then run it again into a file. The cursor never names an undelivered record."""
    car, repository = cars["v1"]
    pipe, state_dir = tmp_path / "pipe", tmp_path / "state"
    os.mkfifo(pipe)
    lines = KILL_POINTS[point]
    process = start_import(car, cars["key"], pipe, state_dir)
    if lines:
        consumer = Consumer(pipe)
        consumer.read_until(lines, process)
        kill(process)
    else:
        time.sleep(0.4)
        kill(process)
        consumer = Consumer(pipe)
    delivered = consumer.drain()
    assert len(delivered) >= lines and (lines or not delivered)
    assert_cursor_not_ahead(state_dir, delivered, cars["revs"])

    again = finish_import(car, cars["key"], tmp_path / "out.jsonl", state_dir)
    assert applied(delivered + again) == repository
    assert finish_import(car, cars["key"], tmp_path / "last.jsonl", state_dir) == []


def test_import_killed_while_writing_a_regular_file(cars, tmp_path):
    """SIGKILL as soon as the output file has grown (the last line is usually cut off)."""
    car, repository = cars["v1"]
    out, state_dir = tmp_path / "out.jsonl", tmp_path / "state"
    process = start_import(car, cars["key"], out, state_dir)
    while process.poll() is None and not (out.exists() and out.stat().st_size):
        time.sleep(0.001)
    kill(process)
    assert_cursor_not_ahead(state_dir, read_lines(out, cut=1), cars["revs"])
    final = finish_import(car, cars["key"], out, state_dir, cut=1)  # appends on a fresh line
    assert applied(final) == repository
    assert finish_import(car, cars["key"], out, state_dir, cut=1) == final


@pytest.mark.parametrize("lines", [1, 250])
def test_incremental_import_killed_with_sigkill(cars, tmp_path, lines):
    """A complete import of v1, then v2 (100 deleted, 100 changed, 300 added) killed after the
    consumer read ``lines`` of its 500 changes; a re-run brings the consumer to v2 exactly."""
    (car1, _), (car2, repository) = cars["v1"], cars["v2"]
    state_dir = tmp_path / "state"
    delivered = finish_import(car1, cars["key"], tmp_path / "v1.jsonl", state_dir)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    consumer = Consumer(pipe)
    process = start_import(car2, cars["key"], pipe, state_dir)
    consumer.read_until(lines, process)
    kill(process)
    delivered += consumer.drain()
    assert_cursor_not_ahead(state_dir, delivered, cars["revs"])
    again = finish_import(car2, cars["key"], tmp_path / "v2.jsonl", state_dir)
    assert applied(delivered + again) == repository
    ops = [line["op"] for line in again]
    assert ops.count("delete") == 100 and ops.count("update") == 100 and ops.count("create") == 300
    assert finish_import(car2, cars["key"], tmp_path / "last.jsonl", state_dir) == []
