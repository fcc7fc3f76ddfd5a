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

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidProxy, InvalidStatus, InvalidURI
from websockets.sync.client import ClientConnection, connect

from pdsmem.errors import DataModelError, FollowError, InvalidSyntax, PdsmemError, VerificationError
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.datamodel import Cid
from pdsmem.mapping.dagcbor import decode_dag_cbor_frame

from ..atproto.commit_proof import verify_commit_event
from ..atproto.xrpc import describe_transport_error, mask_url, normalize_base_url
from .syncer import counted

__all__ = ["FollowError", "FollowStatus", "Follower", "stream_url"]

SUBSCRIBE = "com.atproto.sync.subscribeRepos"
MAX_FRAME = 16 * 1024 * 1024  # a commit event carries its blocks; the PDS caps them far lower
GATHER_SECONDS = 0.02  # events that arrive this close together share one sync
GATHER_MAX = 500  # events one sync covers at most while a burst goes on
SAVE_EVERY = 1.0  # seconds between cursor saves while only other repositories' events arrive
BACKOFF = (0.5, 1, 2, 5, 10, 30)  # seconds before each reconnection attempt, the last repeated


def stream_url(base: str) -> str:
    """The ``subscribeRepos`` WebSocket URL of a PDS or relay given by its HTTP(S) or WS(S) URL,
    checked as every server's base URL is (``normalize_base_url``: no user and password, query or
    fragment, never echoed)."""
    scheme, sep, rest = base.strip().partition("://")
    as_http = {"ws": "http", "wss": "https"}.get(scheme.lower(), scheme) + sep + rest
    try:
        checked = normalize_base_url(as_http, what="the relay URL")
    except InvalidSyntax as err:  # (the URL as given, not as checked: "wss://…", not "https://…")
        raise FollowError(err.message.replace(mask_url(as_http), mask_url(base.strip())),
                          hint="give the relay as https://host") from None
    secure, _, address = checked.partition("://")
    return f"{'wss' if secure == 'https' else 'ws'}://{address}/xrpc/{SUBSCRIBE}"


class _Reconnect(Exception):
    """Leave this connection and make a new one: after the back-off's delay, or at once."""

    def __init__(self, why: str, *, backoff: bool = True) -> None:
        super().__init__(why)
        self.backoff = backoff


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
    data CID of the commit it read (None when it read nothing); ``resolve`` reads the account's
    DID document and returns its signing key (``did:key``) and PDS URL; with ``follow_pds`` the
    stream moves with the PDS. ``load_cursor`` and ``save_cursor`` keep the stream cursor.
    """

    def __init__(
        self,
        did: str,
        url: str,
        *,
        sync: Callable[[], tuple[dict[str, int], str, Cid | None]],
        resolve: Callable[[], tuple[str, str]],
        load_cursor: Callable[[], int | None],
        save_cursor: Callable[[int, str | None], None],
        on_status: Callable[[FollowStatus], None] = lambda status: None,
        follow_pds: bool = False,
    ) -> None:
        self.did, self.url, self.follow_pds = did, url, follow_pds
        self._sync, self._resolve = sync, resolve
        self._load_cursor, self._save_cursor = load_cursor, save_cursor
        self._on_status = on_status
        self.status = FollowStatus()
        self._chain = _Chain()
        self._key = ""
        self._pds = ""
        self._stopping = False
        self._paused = False
        self._use_cursor = True  # False after the stream said the stored cursor is in its future
        self._failures = 0  # connections in a row that ended before a frame came

    # --- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        """Sync, then follow until ``stop()``; reconnects after failures of the connection, of a
        sync that may succeed later (the PDS or RushDB away), and when the account moves."""
        self._refresh_identity()
        why = "first sync"
        while not self._stopping:
            try:
                self._tell("connecting")
                with self._connect() as socket:
                    self._tell("connected", note="")
                    # Connected first, so that nothing written during the sync is missed; after a
                    # reconnection too, since what happened while apart may be past the cursor.
                    if not self._paused:
                        self._run_sync(why)
                    why = "reconnected"
                    self._read(socket)
            except InvalidStatus as err:
                status = err.response.status_code
                if 400 <= status < 500 and status != 429:  # the URL is wrong: trying again will not help
                    raise FollowError(f"{self.url} answered HTTP {status}: it does not serve the event stream",
                                      hint="give the PDS or relay by its base URL, such as https://host") from None
                self._retry_later(_reason(err))
            except _Reconnect as err:
                if err.backoff:
                    self._retry_later(str(err))
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake) as err:
                if self._stopping:
                    break
                if isinstance(err, ConnectionClosed) and err.rcvd is not None and err.rcvd.code == 1009:
                    raise FollowError(f"{self.url} sent an event over {MAX_FRAME:,} bytes") from None
                self._retry_later(_reason(err))
        self._tell("stopped", note="")

    def _retry_later(self, why: str) -> None:
        """Wait before the next connection: longer each time no frame came in between (not when
        stopping: the loop ends)."""
        if self._stopping:
            return
        delay = BACKOFF[min(self._failures, len(BACKOFF) - 1)]
        self._failures += 1
        self._tell("reconnecting", note=f"{why}; again in {delay:g} s")
        self._sleep(delay)

    def stop(self) -> None:
        """End the loop within a second: the event being handled finishes (a sync under way ends
        first), nothing else starts. Safe to call from a signal handler."""
        self._stopping = True

    @property
    def stopping(self) -> bool:
        return self._stopping

    def waiting(self, why: str) -> None:
        """Tell, in the state it is in, why the work under way waits ("RushDB: … trying again in 2 s")."""
        self._tell(self.status.state, note=why)

    def _connect(self) -> ClientConnection:
        cursor = self._load_cursor() if self._use_cursor else None
        url = self.url if cursor is None else f"{self.url}?cursor={cursor}"
        try:
            return connect(url, max_size=MAX_FRAME, open_timeout=10, close_timeout=2)
        except (InvalidURI, InvalidProxy, ValueError) as err:
            raise FollowError(f"cannot follow {self.url}: {err}") from None

    def _read(self, socket: ClientConnection) -> None:
        """Handle frames until ``stop()``. Events that need a sync are gathered while more keep
        coming (up to ``GATHER_MAX``), then one sync covers them all; then the cursor is saved."""
        seq: int | None = None  # the last event handled whose cursor is not saved yet
        when: str | None = None
        wanted: list[str] = []  # why a sync is due
        last_save = time.monotonic()
        while not self._stopping:
            quiet = False
            busy = (wanted or seq is not None) and not self._paused
            try:
                frame = socket.recv(timeout=GATHER_SECONDS if busy else 1.0)
            except TimeoutError:
                frame, quiet = None, True
            if isinstance(frame, bytes):
                self._failures = 0
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
                if self._paused:
                    continue  # nothing saved past a sync that is due: it runs when the account is back
                reasons = "; ".join(dict.fromkeys(wanted))  # each reason once, in order
                self._run_sync(reasons + (f" ({len(wanted)} events)" if len(wanted) > 1 else ""), seq=seq, when=when)
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
            self._stream_error(body)
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
            moved = self._refresh_identity()
            if moved:
                raise _Reconnect(f"the account moved to {self._pds}", backoff=False)
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

    def _stream_error(self, body: dict[str, Any]) -> None:
        """An error frame: the stream ends. Some errors go away with a new connection."""
        name, message = body.get("error"), body.get("message") or ""
        if name == "FutureCursor":  # the stream was reset: what the cursor names is not there
            self._use_cursor = False
            raise _Reconnect("the stream does not know the stored cursor (FutureCursor); reading it live",
                             backoff=False)
        if name == "ConsumerTooSlow":
            raise _Reconnect("the stream dropped this connection (ConsumerTooSlow)")
        raise FollowError(f"the stream ended: {name}: {message}".rstrip(": "))

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
            self._chain = _Chain(str(event.commit.rev), event.commit.data)
            # prevData and since are not signed: only the chain of trees seen makes them true.
            if chain.data is None:
                return "a commit after a tree not known here"
            if body.get("prevData") != chain.data or body.get("since") != chain.rev:
                return "a gap in the repository's commits"
            if any(op.path.startswith(RECORD_NSID + "/") for op in event.ops):
                return "memory records changed"
        return None

    def _run_sync(self, why: str, *, seq: int | None = None, when: str | None = None) -> None:
        """Sync for ``why``; the events up to ``seq`` (at ``when``) are then handled, and the line
        that says so names it."""
        self._tell("syncing", note=why)
        try:
            counts, rev, data = self._sync()
        except PdsmemError as err:
            if getattr(err, "retryable", False):  # the PDS or RushDB away: again after reconnecting
                raise _Reconnect(f"the sync failed: {err.message}") from None
            raise
        chain = self._chain
        if data is not None and (chain.rev is None or rev >= chain.rev):
            self._chain = _Chain(rev, data)
        elif chain.rev is None or rev > chain.rev:
            self._chain = _Chain(rev, None)
        self.status.synced = counts
        if seq is not None:  # the events up to seq are handled: none is behind
            self.status.seq, self.status.event_time, self.status.behind = seq, when, 0
        shown = ", ".join(_counted(name, n) for name, n in counts.items() if n)
        self._tell("connected", note=f"synced ({why}): {shown or 'nothing changed'}")

    def _refresh_identity(self) -> bool:
        """Read the DID document again; True when the stream to follow has moved with the PDS."""
        try:
            self._key, pds = self._resolve()
        except PdsmemError as err:
            if getattr(err, "retryable", False):
                raise _Reconnect(f"cannot read the DID document: {err.message}") from None
            raise
        moved = self.follow_pds and bool(self._pds) and pds != self._pds
        self._pds = pds
        if moved:
            self.url = stream_url(pds)
        return moved

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
    """Why a connection ended, in words: "host name not found", "connection refused", never
    Python's "[Errno -2] Name or service not known"."""
    if isinstance(err, ConnectionClosed):
        return "the stream closed" + (f" ({err.rcvd.reason})" if err.rcvd is not None and err.rcvd.reason else "")
    if isinstance(err, TimeoutError):
        return "timed out"
    if isinstance(err, OSError):
        return describe_transport_error(err)
    return str(err) or "the connection failed"


def _counted(name: str, n: int) -> str:
    """``3 created``, ``wrote 1 memory``: a count as the line reads it (the counts of what was written
    are named ``wrote memories``)."""
    if name.startswith("wrote "):
        return f"wrote {counted(n, name.removeprefix('wrote '))}"
    return f"{n} {name}"
