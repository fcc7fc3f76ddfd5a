"""``pdsmem sync --follow`` against the real PDS and real RushDB: changes made through the PDS
while following reach RushDB; the follow survives SIGKILL mid-burst and a PDS restart; tampered
events are refused. Each ends compared with a fresh full sync of the same repository into a
project of its own: the live memories, mirrors and relationships must be the same.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from devkit.pds import Account, LocalPds, Repo
from devkit.repo_builder import tid
from devkit.rushdb import LocalRushDB, Project
from support.rushdb_view import client, snapshot
from websockets.sync.client import connect
from websockets.sync.server import serve

from pdsmem.bridge.atproto.commit_proof import verify_commit_event
from pdsmem.bridge.pipelines.follower import Follower, FollowError, _Chain, _Reconnect, stream_url
from pdsmem.bridge.atproto.identity import IdentityResolver
from pdsmem.errors import VerificationError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.datamodel import Cid, decode_dag_cbor, encode_dag_cbor
from pdsmem.mapping.dagcbor import decode_dag_cbor_frame

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

SCOPE = ["--agent-id", "coder", "--profile-id", "default"]
REPO_ROOT = Path(__file__).resolve().parents[1]


def rkey(i: int) -> str:
    return tid(1_770_000_000_000_000 + i * 1000)


def memory(did: str, i: int, **extra) -> dict:
    return {"$type": RECORD_NSID, "content": f"Followed memory {i}: the user likes item {i}.", "kind": "preference",
            "createdAt": "2026-09-01T09:00:00.000Z", **extra}


def environment(pds: LocalPds, project: Project, state: Path) -> dict[str, str]:
    return {**os.environ, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "follow-salt",
            "PDSMEM_STATE_DIR": str(state), **project.env}


class Following:
    """``pdsmem sync DID --follow --json`` as a process of its own; its JSON lines as they come."""

    def __init__(self, pds: LocalPds, project: Project, account: Account, state: Path, *extra: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pdsmem", "sync", account.did, *SCOPE, "--follow", "--json", *extra],
            env=environment(pds, project, state), cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[dict] = []
        self.summary: dict | None = None
        # Its status lines are read as they come, always: a pipe nobody reads fills and stops it.
        self._queue: queue.Queue[dict | None] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            parsed = json.loads(line)
            if "summary" in parsed:  # the last line, once the follow stopped
                self.summary = parsed["summary"]
                continue
            self._queue.put(parsed["follow"])
        self._queue.put(None)

    def wait_for(self, test, what: str, timeout: float = 90) -> dict:
        """The first status line (from now on) ``test`` accepts."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                status = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if status is None:
                self.process.wait()
                pytest.fail(f"the follow ended (exit {self.process.returncode}) before {what}: "
                            f"{self.process.stderr.read() if self.process.stderr else ''}")
            self.lines.append(status)
            if test(status):
                return status
        self.process.kill()
        pytest.fail(f"timed out waiting for {what}; the last status lines: {self.lines[-5:]}")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        while (status := self._queue.get(timeout=10)) is not None:
            self.lines.append(status)
        return self.process.returncode


def wait_until(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def live(held: dict) -> dict:
    """The part of a snapshot a fresh sync also has: active memories, records not deleted."""
    out = {label: {key: _unretired(row) for key, row in rows.items()
                   if row.get("active") is not False and not row.get("deleted")}
           for label, rows in held.items() if label not in ("relationships", "scopes")}
    out["relationships"] = held["relationships"]
    kept = {f"{label}:{key}" for label, rows in out.items() if label != "relationships" for key in rows}
    out["scopes"] = {name: [row for row in linked if row in kept] for name, linked in held["scopes"].items()}
    return out


def _unretired(row: dict) -> dict:
    """A row without a mirror's record of the memories its record made before (a fresh sync never saw them)."""
    return {name: value for name, value in row.items() if name not in ("retiredIds", "retiredEpisodes")}


def fresh_sync(pds: LocalPds, server: LocalRushDB, account: Account, state: Path) -> dict:
    project = server.new_project("fresh")
    done = subprocess.run([sys.executable, "-m", "pdsmem", "sync", account.did, *SCOPE],
                          env=environment(pds, project, state), cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return snapshot(project)


def facts(project: Project) -> int:
    return client(project).records.find({"labels": ["MEMORY_FACT"], "limit": 1}).total or 0


def test_changes_through_the_pds_reach_rushdb_while_following(
    pds: LocalPds, account: Account, rushdb_server: LocalRushDB, rushdb: Project, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    repo.put(RECORD_NSID, rkey(0), memory(account.did, 0))  # there before the follow starts
    follow = Following(pds, rushdb, account, tmp_path / "state")
    follow.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
    assert facts(rushdb) == 1

    repo.put(RECORD_NSID, rkey(1), memory(account.did, 1))  # created
    repo.put(RECORD_NSID, rkey(2), memory(account.did, 2))
    wait_until(lambda: facts(rushdb) == 3, "two new memories")
    repo.put(RECORD_NSID, rkey(1), memory(account.did, 1) | {"content": "The user now likes item one best."})
    repo.delete(RECORD_NSID, rkey(2))  # deleted
    superseding = memory(account.did, 3, supersedes=[f"at://{account.did}/{RECORD_NSID}/{rkey(0)}"])
    repo.put(RECORD_NSID, rkey(3), superseding)
    repo.create("app.bsky.feed.like", {"$type": "app.bsky.feed.like", "createdAt": "2026-09-01T09:00:00.000Z",
                                       "subject": {"uri": f"at://{account.did}/app.bsky.feed.post/3k2a",
                                                   "cid": str(Cid.for_dag_cbor(b"x"))}})
    expected = fresh_sync(pds, rushdb_server, account, tmp_path / "fresh-state")
    wait_until(lambda: live(snapshot(rushdb)) == live(expected), "RushDB to match a fresh sync", timeout=60)
    held = snapshot(rushdb)
    assert sum(1 for row in held["MEMORY_FACT"].values() if row["active"] is False) == 3  # edited, deleted, superseded
    assert follow.stop() == 0
    assert follow.lines[-1]["state"] == "stopped"
    # found by a new user: --json did not end with a summary, and no "synced" line named its event
    synced = [line for line in follow.lines if line["note"].startswith("synced (memory records changed")]
    assert synced and all(isinstance(line["seq"], int) for line in synced)
    assert follow.summary == {"did": account.did, "state": "stopped", "seq": follow.lines[-1]["seq"],
                              "eventTime": follow.lines[-1]["eventTime"]}
    status = subprocess.run([sys.executable, "-m", "pdsmem", "status", "--json"], capture_output=True, text=True,
                            env=environment(pds, rushdb, tmp_path / "state"), cwd=REPO_ROOT)
    (followed,) = json.loads(status.stdout)["summary"]["follows"]
    assert followed["did"] == account.did and followed["seq"] == follow.lines[-1]["seq"] and followed["lastEventTime"]
    assert any("memory records changed" in line["note"] for line in follow.lines)


def test_a_follow_killed_mid_burst_resumes_where_it_was_and_loses_nothing(
    pds: LocalPds, account: Account, rushdb_server: LocalRushDB, rushdb: Project, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    state = tmp_path / "state"
    follow = Following(pds, rushdb, account, state)
    follow.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
    for start in range(0, 1000, 10):  # a burst of 1,000 writes: 100 commits of 10 records
        repo.apply([{"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID, "rkey": rkey(i),
                     "value": memory(account.did, i)} for i in range(start, start + 10)])
        if start == 100:
            wait_until(lambda: facts(rushdb) >= 10, "the first writes")
            follow.process.send_signal(signal.SIGKILL)
            follow.process.wait()
    follow = Following(pds, rushdb, account, state)  # resumes from the saved cursor
    expected = fresh_sync(pds, rushdb_server, account, tmp_path / "fresh-state")
    wait_until(lambda: snapshot(rushdb) == expected, "RushDB to match a fresh sync", timeout=90)
    assert facts(rushdb) == 1000
    assert follow.stop() == 0


def test_the_pds_restarted_while_following_is_ridden_out(
    account: Account, pds: LocalPds, rushdb_server: LocalRushDB, rushdb: Project, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    follow = Following(pds, rushdb, account, tmp_path / "state")
    follow.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
    pds.stop()
    follow.wait_for(lambda s: s["state"] == "reconnecting", "the follow to notice")
    pds.start()
    follow.wait_for(lambda s: s["state"] == "connected", "the follow to reconnect", timeout=120)
    repo.put(RECORD_NSID, rkey(7), memory(account.did, 7))
    wait_until(lambda: facts(rushdb) == 1, "the memory written after the restart")
    assert follow.stop() == 0


# --- events refused ----------------------------------------------------------------------------


class TamperingRelay:
    """A relay that passes the PDS's stream on, but rewrites every commit of ``did`` that writes
    memory records to claim it wrote nothing (its operations emptied): trusted, such an event
    would hide the memory; verified, it is refused, and the follower reads the repository."""

    def __init__(self, pds: LocalPds, did: str) -> None:
        self.upstream, self.did, self.tampered = pds.url.replace("http://", "ws://"), did, 0
        self.open: list = []
        self.connected = threading.Event()  # the relay reads the PDS's stream: writes from now on pass
        self.server = serve(self._relay, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self.server.socket.getsockname()[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def _relay(self, client) -> None:
        with connect(self.upstream + client.request.path, open_timeout=10) as upstream:
            self.open.append(upstream)
            self.connected.set()
            for frame in upstream:
                header, body = decode_dag_cbor_frame(frame)
                ops = body.get("ops") or []
                if header.get("t") == "#commit" and body.get("repo") == self.did and any(
                        op["path"].startswith(RECORD_NSID) for op in ops):
                    frame = encode_dag_cbor(header) + encode_dag_cbor(dict(body, ops=[]))
                    self.tampered += 1
                client.send(frame)

    def close(self) -> None:
        for upstream in self.open:
            upstream.close()
        self.server.shutdown()


def test_a_tampered_stream_cannot_hide_a_change(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    relay = TamperingRelay(pds, account.did)
    try:
        follow = Following(pds, rushdb, account, tmp_path / "state", "--relay", relay.url)
        follow.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
        assert relay.connected.wait(30)
        Repo(pds, account).put(RECORD_NSID, rkey(5), memory(account.did, 5))
        refused = follow.wait_for(lambda s: "refused event" in s["note"], "the tampered event to be refused")
        assert "do not account for every change" in refused["note"]
        wait_until(lambda: facts(rushdb) == 1, "the memory the tampered event hid")
        assert relay.tampered == 1
        assert follow.stop() == 0
    finally:
        relay.close()


def _commit_events(pds: LocalPds, did: str, count: int) -> list[dict]:
    """The first ``count`` commit events of ``did`` on the PDS's stream, decoded."""
    found = []
    with connect(stream_url(pds.url) + "?cursor=0", open_timeout=10) as socket:
        while len(found) < count:
            header, body = decode_dag_cbor_frame(socket.recv(timeout=10))
            if header.get("t") == "#commit" and body.get("repo") == did:
                found.append(body)
    return found


def test_tampered_events_are_refused_and_a_resync_is_asked_for(pds: LocalPds, account: Account) -> None:
    repo = Repo(pds, account)
    repo.put(RECORD_NSID, rkey(0), memory(account.did, 0))
    repo.put(RECORD_NSID, rkey(1), memory(account.did, 1))
    events = _commit_events(pds, account.did, 3)  # the account's first commit, then the two writes
    with IdentityResolver(plc_url=pds.plc_url) as resolver:
        key = resolver.resolve(account.did).signing_key
    first, event = events[1], events[2]
    verified = verify_commit_event(event, did=account.did, signing_key=key, after_rev=first["rev"])
    verified.blocks.close()
    assert [op.action for op in verified.ops] == ["create"]

    cases = {
        "signature": dict(event, **_resigned(event)),
        "an operation left out": dict(event, ops=[]),
        "prevData": dict(event, prevData=first["prevData"] or Cid.for_dag_cbor(b"other")),
        "rev going back": event,
    }
    reasons = {
        "signature": "signature does not verify",
        "an operation left out": "do not account for every change",
        "prevData": "do not account for every change",
        "rev going back": "does not come after",
    }
    for name, body in cases.items():
        after = event["rev"] if name == "rev going back" else first["rev"]
        with pytest.raises(VerificationError, match=reasons[name]):
            verify_commit_event(body, did=account.did, signing_key=key, after_rev=after)

    # The follower takes a refused event as a reason to read the repository, never as data; and
    # prevData and since, which nothing signs, count only when they continue the chain it has seen.
    follower = Follower(account.did, stream_url(pds.url), sync=lambda: ({}, "", None),
                        resolve=lambda: (key, pds.url), load_cursor=lambda: None, save_cursor=lambda seq, when: None)
    follower._key = key
    before = verify_commit_event(first, did=account.did, signing_key=key, after_rev=None)
    before.blocks.close()

    def handle(body: dict, chain: _Chain) -> str | None:
        follower._chain = chain
        return follower._handle(encode_dag_cbor({"op": 1, "t": "#commit"}) + encode_dag_cbor(body))[2]

    known = _Chain(first["rev"], before.commit.data)
    assert handle(cases["an operation left out"], known).startswith("a refused event")
    assert handle(event, known) == "memory records changed"
    assert handle(event, _Chain(first["rev"], None)) == "a commit after a tree not known here"
    assert handle(event, _Chain(first["rev"], Cid.for_dag_cbor(b"another tree"))) == "a gap in the repository's commits"
    assert handle(event, _Chain(event["rev"], before.commit.data)) is None  # already read


def _resigned(event: dict) -> dict:
    """The event's CAR with its commit signed by another key, and the event naming that commit,
    as a forger would send it."""
    from devkit.repo_builder import Keypair, car_bytes

    from pdsmem.bridge.atproto.car import read_car
    from pdsmem.bridge.atproto.repo import unsigned_commit_bytes

    root, store = read_car(event["blocks"])
    with store:
        commit = decode_dag_cbor(store.get(root))
        commit["sig"] = Keypair.generate().sign(unsigned_commit_bytes(commit))
        data = encode_dag_cbor(commit)
        blocks = [(Cid.for_dag_cbor(data), data)] + [(cid, store.get(cid)) for cid in store if cid != root]
    return {"commit": blocks[0][0], "blocks": car_bytes([blocks[0][0]], blocks)}


@pytest.mark.parametrize("args, message", [
    (["repo.car", "--follow"], "not a CAR file"),
    (["did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--follow", "--dry-run"], "cannot be a --dry-run"),
    (["did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--relay", "https://relay.example.com"], "pass --follow too"),
    (["did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--follow", "--recreate-deleted"], "run pdsmem sync --full --recreate-deleted first"),
    (["did:plc:ewvi7nxzyoun6zhxrhs64oiz", "--recreate-deleted"], "pass --full"),
])
def test_follow_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "repo.car").write_bytes(b"")
    done = subprocess.run([sys.executable, "-m", "pdsmem", "sync", *args, *SCOPE], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "MEMORY_SCOPE_SALT": "s"})
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_what_each_kind_of_event_asks_for() -> None:
    """The follower's policy, frame by frame (a commit's is tested above against the real PDS)."""
    did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    identities = iter([("did:key:first", "http://pds"), ("did:key:second", "http://pds"),
                       ("did:key:third", "https://new-pds.example")])
    follower = Follower(did, "ws://pds", sync=lambda: ({}, "", None), resolve=lambda: next(identities),
                        load_cursor=lambda: None, save_cursor=lambda seq, when: None, follow_pds=True)
    follower._refresh_identity()

    def handle(kind: str, **body) -> tuple:
        return follower._handle(encode_dag_cbor({"op": 1, "t": kind}) + encode_dag_cbor({"seq": 7, **body}))

    assert handle("#sync", did=did, rev="3k2a") == (7, None, "a #sync event")
    assert handle("#sync", did="did:plc:someoneelse", rev="3k2a") == (7, None, None)
    assert handle("#info", name="OutdatedCursor")[2] == "the stream says OutdatedCursor"
    assert handle("#identity", did=did)[2] is None and follower._key == "did:key:second"
    with pytest.raises(_Reconnect, match="moved to https://new-pds.example"):  # the stream moves with the PDS
        handle("#identity", did=did)
    assert follower.url == "wss://new-pds.example/xrpc/com.atproto.sync.subscribeRepos"
    assert handle("#account", did=did, active=False, status="takendown")[2] is None and follower._paused
    assert follower.status.state == "paused" and "takendown" in follower.status.note
    assert handle("#account", did=did, active=True)[2] == "the account is active again" and not follower._paused
    assert handle("#commit", repo=did, tooBig=True, rev="3k2b")[2].startswith("a refused event")
    assert follower._handle(b"\xff")[2].startswith("an unreadable event")
    with pytest.raises(_Reconnect, match="FutureCursor"):  # read live from now on, after a sync
        follower._handle(encode_dag_cbor({"op": -1}) + encode_dag_cbor({"error": "FutureCursor"}))
    assert follower._use_cursor is False
    with pytest.raises(FollowError, match="the stream ended: AuthRequired: no"):
        follower._handle(encode_dag_cbor({"op": -1}) + encode_dag_cbor({"error": "AuthRequired", "message": "no"}))


@pytest.mark.parametrize("url", ["https://host:99999", "https://[::1", "ftp://host", "https://",
                                 "https://u:SeCrEt@relay.example", "https://relay.example/?token=SeCrEt",
                                 "wss://relay.example#SeCrEt"])
def test_a_relay_url_that_cannot_be_followed_is_refused_with_a_message(url: str) -> None:
    """(Regression, for a user and password, a query, a fragment: the first was printed on every
    connection, "connecting to wss://u:…@…"; the others were dropped unsaid.)"""
    with pytest.raises(FollowError) as caught:
        stream_url(url)
    assert "SeCrEt" not in str(caught.value)


def test_the_synced_line_reads_its_counts_as_a_person_would() -> None:
    """Regression: a follow printed "1 created, 10 wrote memories, 1 wrote mirrors"."""
    from pdsmem.bridge.pipelines.follower import _counted

    assert [_counted(name, n) for name, n in (("created", 1), ("wrote memories", 10), ("wrote mirrors", 1))] == [
        "1 created", "wrote 10 memories", "wrote 1 mirror"]


def test_a_follow_stopped_while_rushdb_is_away_ends_at_once_not_after_the_syncs_tries(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: stop() came while the first sync was trying an unreachable RushDB again, and run()
    returned after all eight tries (27 s): docs/library.md says a follow ends within a second."""
    import socket

    from pdsmem import api

    with socket.socket() as probe:  # a port nothing listens on: RushDB away
        probe.bind(("127.0.0.1", 0))
        nowhere = f"http://127.0.0.1:{probe.getsockname()[1]}"
    told: list[tuple[str, str]] = []
    following = api.follow(account.did, api.Scope("coder", "default", salt="s"),
                           api.rushdb("key", nowhere), pds_url=pds.url, plc_url=pds.plc_url, state_dir=tmp_path,
                           on_status=lambda status: told.append((status.state, status.note)))
    stopper = threading.Thread(target=lambda: (time.sleep(2), following.stop()))
    stopper.start()
    following.run()
    stopper.join()
    notes = [note for _, note in told]
    # each wait is told as it comes (before, nothing was told for the eight tries' 30 s)
    assert any(note.startswith("cannot reach RushDB at") and "trying again in" in note for note in notes), notes
    assert not any("tried 8 times" in note for note in notes), notes  # it did not wait for the last try
    assert told[-1] == ("stopped", "") and not any(state == "reconnecting" for state, _ in told), told


def test_why_a_connection_ended_is_said_in_words_not_as_pythons_errno() -> None:
    """Regression: a follow printed "reconnecting: [Errno -2] Name or service not known"."""
    import socket

    from pdsmem.bridge.pipelines.follower import _reason

    try:
        socket.getaddrinfo("relay.nowhere.invalid", 443)
    except OSError as err:
        assert _reason(err) == "host name not found"
    assert _reason(ConnectionRefusedError(111, "Connection refused")) == "connection refused"
    assert _reason(TimeoutError()) == "timed out"
    assert "Errno" not in _reason(OSError(101, "Network is unreachable"))


def test_the_status_that_says_a_sync_covered_the_events_counts_none_behind() -> None:
    """Regression: the "synced" status still said 1 event behind; only the next one said 0."""
    told: list[tuple[str, int]] = []
    follower = Follower("did:plc:ewvi7nxzyoun6zhxrhs64oiz", "ws://pds", sync=lambda: ({"created": 1}, "3k2a", None),
                        resolve=lambda: ("did:key:k", "http://pds"), load_cursor=lambda: None,
                        save_cursor=lambda seq, when: None,
                        on_status=lambda status: told.append((status.note, status.behind)))
    follower.status.behind = 3
    follower._run_sync("memory records changed", seq=7, when="2026-12-06T05:00:00Z")
    assert told[-1] == ("synced (memory records changed): 1 created", 0)


def test_a_followed_record_whose_text_looks_like_a_secret_is_named_once_by_its_uri(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    """The person's own record is synced as written (it is public already); the follow names it
    by its at-uri, once, and never quotes it."""
    repo = Repo(pds, account)
    repo.put(RECORD_NSID, rkey(0), memory(account.did, 0))
    follow = Following(pds, rushdb, account, tmp_path / "state")
    follow.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
    secret = "Card for the club: 4111 1111 1111 1111 exp 12/29"
    repo.put(RECORD_NSID, rkey(1), memory(account.did, 1) | {"content": secret})
    wait_until(lambda: facts(rushdb) == 2, "the new memory")
    repo.put(RECORD_NSID, rkey(2), memory(account.did, 2))  # another change: the note is not said again
    wait_until(lambda: facts(rushdb) == 3, "another memory")
    assert follow.stop() == 0
    assert follow.process.stderr is not None
    told = follow.process.stderr.read()
    uri = f"at://{account.did}/{RECORD_NSID}/{rkey(1)}"
    assert told.count("Note: ") == 1 and f"Note: {uri}: its content looks like a payment card number" in told, told
    shown = told + json.dumps(follow.lines)  # (not "4111" alone: a random id or a time may hold those digits)
    assert "4111 1111" not in shown and "41111111" not in shown and "Card for the club" not in shown
    (note,) = [line.removeprefix("Note: ") for line in told.splitlines() if line.startswith("Note: ")]
    assert [line["notes"] for line in follow.lines if "notes" in line] == [[note]]  # in --json's lines too
    # a later follow names it again when it starts, by its at-uri alone, once
    again = Following(pds, rushdb, account, tmp_path / "state")
    again.wait_for(lambda s: "first sync" in s["note"] and s["state"] == "connected", "the first sync")
    repo.put(RECORD_NSID, rkey(3), memory(account.did, 3))
    wait_until(lambda: facts(rushdb) == 4, "a fourth memory")
    assert again.stop() == 0
    assert again.process.stderr is not None
    reminded = again.process.stderr.read()
    assert [line for line in reminded.splitlines() if line.startswith("Note: ")] == [
        f"Note: 1 record noted before still looks like it holds a secret and is public: {uri} (delete it on the PDS "
        "and change the secret)"], reminded
