"""Following a repository's event stream into RushDB (``pdsmem sync --follow``).

Scope: after a first sync, ``Follower`` reads ``com.atproto.sync.subscribeRepos`` from the
account's PDS (or a relay: the same protocol), keeps the events of the one repository, verifies
each ``#commit`` before anything is written (``commit_proof``: blocks, signature with the
account's key, rev after the last, operations proven against ``prevData`` by inversion, and
``prevData`` equal to the data of the last commit seen), and brings RushDB up to date with the
verified, incremental sync ``sync`` runs (a ``since`` diff of the repository, read and checked as
every read is). So what reaches RushDB is always a verified read of the repository itself; the
event decides when, and whether, to read.

- A verified commit touching memory records: a sync (events that arrive together share one).
- A commit that fails verification, a ``tooBig`` commit, a break in the chain of revs or data, a
  ``#sync`` event, an ``#info`` saying the cursor is too old: a sync too, which is the verified
  repair (the diff, or the whole repository when the diff cannot be used), never the event's word.
- ``#identity``: the DID document is read again (a new key or PDS); ``#account`` inactive pauses
  (and says so) until it is active again.
- The stream cursor (the sequence number of the last event handled) is stored with the sync
  state only after the sync covering it has written everything, so a crash or SIGKILL resumes
  from the right place: events are read again, nothing is lost, and a sync of nothing new writes
  nothing. Connection failures reconnect with back-off; ``stop()`` (Ctrl-C, SIGTERM) ends cleanly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from pdsmem.errors import DataModelError, PdsmemError, VerificationError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.datamodel import Cid
from pdsmem.mapping.dagcbor import decode_dag_cbor_frame

from .commit_proof import verify_commit_event

__all__ = ["FollowError", "FollowStatus", "Follower", "stream_url"]

SUBSCRIBE = "com.atproto.sync.subscribeRepos"
MAX_FRAME = 16 * 1024 * 1024  # a commit event carries its blocks; the PDS caps them far lower
GATHER_SECONDS = 0.02  # events that arrive this close together share one sync
GATHER_MAX = 500  # events one sync covers at most while a burst goes on
SAVE_EVERY = 1.0  # seconds between cursor saves while only other repositories' events arrive
BACKOFF = (0.5, 1, 2, 5, 10, 30)  # seconds before each reconnection attempt, the last repeated


class FollowError(PdsmemError):
    """The event stream cannot be followed (a bad URL, or the stream says why it ends)."""


def stream_url(base: str) -> str:
    """The ``subscribeRepos`` WebSocket URL of a PDS or relay given by its HTTP(S) or WS(S) URL."""
    scheme, sep, rest = base.partition("://")
    if not sep or scheme not in ("http", "https", "ws", "wss"):
        raise FollowError(f"{base!r} is not an http(s) or ws(s) URL", hint="give the relay as https://host")
    ws = {"http": "ws", "https": "wss"}.get(scheme, scheme)
    return f"{ws}://{rest.rstrip('/')}/xrpc/{SUBSCRIBE}"


@dataclass
class FollowStatus:
    """What a person watching the follow is told; ``on_status`` gets it after every change."""

    state: str = "starting"  # connecting, connected, syncing, paused, reconnecting, stopped
    seq: int | None = None  # the last event handled (its changes are in RushDB)
    event_time: str | None = None  # that event's time, as the stream gave it
    behind: int = 0  # events received and not yet handled
    note: str = ""  # why: the last sync's counts, a refused event, the reconnection's error
    synced: dict[str, int] = field(default_factory=dict)  # the last sync's counts


@dataclass
class _Chain:
    """The last commit of the repository seen: an event must follow it exactly."""

    rev: str | None = None
    data: Cid | None = None


class Follower:
    """Follow ``did``'s events from ``url`` (a ``stream_url``).

    ``sync`` runs one verified, incremental sync and returns its counts (a dict) and the rev and
    data CID of the commit it read; ``resolve_key`` returns the account's current signing key
    (``did:key``); ``load_cursor`` and ``save_cursor`` keep the stream cursor in the sync state.
    """

    def __init__(
        self,
        did: str,
        url: str,
        *,
        sync: Callable[[], tuple[dict[str, int], str, Cid | None]],
        resolve_key: Callable[[], str],
        load_cursor: Callable[[], int | None],
        save_cursor: Callable[[int, str | None], None],
        on_status: Callable[[FollowStatus], None] = lambda status: None,
    ) -> None:
        self.did, self.url = did, url
        self._sync, self._resolve_key = sync, resolve_key
        self._load_cursor, self._save_cursor = load_cursor, save_cursor
        self._on_status = on_status
        self.status = FollowStatus()
        self._chain = _Chain()
        self._key = ""
        self._stopping = False
        self._socket: ClientConnection | None = None
        self._paused = False

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        """Sync, then follow until ``stop()``; reconnects after failures of the connection."""
        self._key = self._resolve_key()
        why = "first sync"
        failures = 0
        while not self._stopping:
            try:
                self._tell("connecting")
                with self._connect() as socket:
                    failures = 0
                    self._tell("connected", note="")
                    # Connected first, so that nothing written during the sync is missed; after a
                    # reconnection too, since what happened while apart may be past the cursor.
                    self._run_sync(why)
                    why = "reconnected"
                    self._read(socket)
            except InvalidStatus as err:
                status = err.response.status_code
                if 400 <= status < 500 and status != 429:  # the URL is wrong: trying again will not help
                    raise FollowError(f"{self.url} answered HTTP {status}: it does not serve the event stream",
                                      hint="give the PDS or relay by its base URL, such as https://host") from None
                self._retry_later(err, failures)
                failures += 1
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake) as err:
                if self._stopping:
                    break
                self._retry_later(err, failures)
                failures += 1
        self._tell("stopped")

    def _retry_later(self, err: BaseException, failures: int) -> None:
        delay = BACKOFF[min(failures, len(BACKOFF) - 1)]
        self._tell("reconnecting", note=f"{_reason(err)}; again in {delay:g} s")
        self._sleep(delay)

    def stop(self) -> None:
        """End the loop: the event being handled finishes (its cursor saved), nothing else starts."""
        self._stopping = True
        socket = self._socket
        if socket is not None:
            socket.close()

    def _connect(self) -> ClientConnection:
        cursor = self._load_cursor()
        url = self.url if cursor is None else f"{self.url}?cursor={cursor}"
        try:
            socket = connect(url, max_size=MAX_FRAME, open_timeout=10, close_timeout=2)
        except InvalidURI as err:
            raise FollowError(f"cannot follow {self.url}: {err}") from None
        self._socket = socket
        return socket

    def _read(self, socket: ClientConnection) -> None:
        """Handle frames until ``stop()``. Events that need a sync are gathered while more keep
        coming (up to ``GATHER_MAX``), then one sync covers them all; then the cursor is saved."""
        seq: int | None = None  # the last event handled whose cursor is not saved yet
        when: str | None = None
        wanted: list[str] = []  # why a sync is due
        last_save = time.monotonic()
        while not self._stopping:
            quiet = False
            try:
                frame = socket.recv(timeout=GATHER_SECONDS if wanted or seq is not None else 1.0)
            except TimeoutError:
                frame, quiet = None, True
            if isinstance(frame, bytes):
                number, time_, why = self._handle(frame)
                if number is not None:
                    seq, when = number, time_
                    self.status.behind += 1
                if why:
                    wanted.append(why)
                if wanted and self.status.behind < GATHER_MAX:
                    continue  # more may be on the way: one sync for all of them
                if not wanted and time.monotonic() - last_save < SAVE_EVERY:
                    continue
            elif not quiet:
                continue  # a text frame: the protocol sends none
            if wanted:
                if not self._paused:
                    reasons = "; ".join(dict.fromkeys(wanted))  # each reason once, in order
                    self._run_sync(reasons + (f" ({len(wanted)} events)" if len(wanted) > 1 else ""))
                wanted.clear()
            if seq is not None:
                self._save_cursor(seq, when)  # only now: everything up to seq is written
                self.status.seq, self.status.event_time, self.status.behind = seq, when, 0
                seq = None
                self._tell("paused" if self._paused else "connected")
            last_save = time.monotonic()

    # --- events ---------------------------------------------------------------------------------

    def _handle(self, frame: bytes) -> tuple[int | None, str | None, str | None]:
        """One frame: its sequence number and time, and why a sync is due (None: not due)."""
        try:
            header, body = decode_dag_cbor_frame(frame)
        except DataModelError as err:
            return None, None, f"an unreadable event ({err.message})"
        if not isinstance(header, dict) or not isinstance(body, dict):
            return None, None, "an event that is not a header and a body"
        if header.get("op") == -1:
            raise FollowError(f"the stream ended: {body.get('error')}: {body.get('message') or ''}".rstrip(": "))
        kind = header.get("t")
        seq = body.get("seq") if isinstance(body.get("seq"), int) else None
        when = body.get("time") if isinstance(body.get("time"), str) else None
        if kind == "#info":
            return seq, when, f"the stream says {body.get('name')}" if body.get("name") == "OutdatedCursor" else None
        if body.get("repo", body.get("did")) != self.did:
            return seq, when, None
        if kind == "#commit":
            return seq, when, self._commit(body)
        if kind == "#sync":
            self._chain = _Chain()
            return seq, when, "a #sync event"
        if kind == "#identity":
            self._key = self._resolve_key()
            return seq, when, None
        if kind == "#account":
            active = body.get("active") is True
            if not active:
                self._paused = True
                self._tell("paused", note=f"the account is {body.get('status') or 'inactive'}; waiting")
                return seq, when, None
            if self._paused:
                self._paused = False
                return seq, when, "the account is active again"
        return seq, when, None

    def _commit(self, body: dict[str, Any]) -> str | None:
        chain = self._chain
        if chain.rev is not None and isinstance(body.get("rev"), str) and body["rev"] <= chain.rev:
            return None  # already read (the first sync, or a replay after a restart)
        try:
            event = verify_commit_event(body, did=self.did, signing_key=self._key, after_rev=chain.rev)
        except VerificationError as err:
            self._chain = _Chain()
            self._tell(self.status.state, note=f"event refused, reading the repository instead: {err.message}")
            return f"a refused event ({err.message})"
        with event.blocks:
            broken = chain.data is not None and body.get("prevData") != chain.data
            self._chain = _Chain(str(event.commit.rev), event.commit.data)
            if broken or (chain.rev is not None and body.get("since") != chain.rev):
                return "a gap in the repository's commits"
            if any(op.path.startswith(RECORD_NSID + "/") for op in event.ops):
                return "memory records changed"
        return None

    def _run_sync(self, why: str) -> None:
        self._tell("syncing", note=why)
        counts, rev, data = self._sync()
        if self._chain.rev is None or rev >= self._chain.rev:
            self._chain = _Chain(rev, data)
        self.status.synced = counts
        shown = ", ".join(f"{n} {name}" for name, n in counts.items() if n)
        self._tell("connected", note=f"synced ({why}): {shown or 'nothing changed'}")

    # --- telling --------------------------------------------------------------------------------

    def _tell(self, state: str, *, note: str | None = None) -> None:
        self.status.state = state
        if note is not None:
            self.status.note = note
        self._on_status(self.status)

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self._stopping and time.monotonic() < end:
            time.sleep(min(0.1, end - time.monotonic()))


def _reason(err: BaseException) -> str:
    if isinstance(err, ConnectionClosed):
        return "the stream closed" + (f" ({err.rcvd.reason})" if err.rcvd is not None and err.rcvd.reason else "")
    return str(err) or type(err).__name__
