"""Faults in the middle of an import: reset connections and a body cut short while reading from
the PDS, and SIGKILL of ``pdsmem import`` while it delivers.

After each fault: every record was delivered at least once, the import cursor never names an
undelivered record, and a run after completion delivers nothing. SIGKILL is real; connection
faults are injected at the transport boundary (``support.faults.Faulty``). docs/reliability.md
lists everything.
"""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from devkit.events import fact
from support.faults import Faulty, held, items, login
from devkit.pds import LocalPds
from devkit.repo_builder import COLLECTION, DID, Keypair, build_repo

from pdsmem.bridge.pipelines.exporter import Exporter
from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.pipelines.state import State
from pdsmem.errors import TransientError
from pdsmem.mapping.to_record import to_records

pytestmark = pytest.mark.pds

SCOPE = ["--agent-id", "coder", "--profile-id", "default", "--accept-unsalted-scope"]


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
    # the run that was killed noted what it started to hand over: the re-run writes those records
    # as updates (the consumer may have them), and would report one deleted in between as deleted
    assert ops.count("delete") == 100 and ops.count("update") == 400 and ops.count("create") == 0
    assert finish_import(car2, cars["key"], tmp_path / "last.jsonl", state_dir) == []
