"""Local sync state: what pdsmem has read from and written to each repository.

One SQLite database (``state.sqlite3`` in the state directory, owner-only permissions) holds:

- ``repo_cursor`` / ``repo_record``: per repository and reader (the import scope that consumes
  it), the last imported ``rev`` and the CID of every memory record seen at that rev; for a
  fact, also the fact id it was imported as and the uris it supersedes, so that a later import
  links supersession across runs (``RememberedFact``). Import
  advances both in one transaction, after the data it describes has been handed over, so a
  crash never skips records; two scopes importing one repository keep separate cursors.
- ``export_record``: per repository, every record pdsmem itself wrote (rkey, CID, memory id, the
  agent and profile the memory came from, the rev of the commit that wrote it, and a hash of the
  memory's words, by which export knows them again when an agent writes them once more). The exporter records each ``applyWrites`` batch
  right after the PDS confirms it; ``--prune`` only ever deletes records listed here, of the
  scope of the run's source (a record written before schema 3 has no scope and is never pruned
  until an export of its memory records one).
- ``repo_failure``: per repository and reader, the records that failed at the cursor's rev, with
  their CID and why: a later ``since`` diff reports an unchanged one again without its block.
- ``repo_secret``: per repository and reader, the records whose text looked like a secret when
  read, with their CID and why: each later run reminds the person of those still unchanged, until
  they delete or change them (a scheduled sync's first note is easily missed).
- ``repo_pending``: per repository and reader, the records a delivery has started to hand over
  but not finished (the cursor did not move): the next import treats them as seen at an unknown
  CID, so one deleted in between is reported deleted, never left behind by a half-done run.
- ``rev_floor``: per repository, the newest rev ever imported, only rising; an older commit is a
  rollback. A rev read through a key the user gave (not the DID document's) is kept apart: it
  bounds only imports checked with that key.
- ``mst_node``: per repository, the MST node blocks of the tree last imported, so that the next
  import can use a ``since`` diff, which leaves out the nodes that did not change (a cache:
  blocks are checked against their CIDs when used), each with what the walk that checked it
  found below it (``repo.NodeSummary``), so that the next walk can place an unchanged sub-tree
  without walking it.
- ``stream_cursor``: per repository, reader and event stream (a PDS or a relay), the sequence
  number of the last event whose changes ``sync --follow`` has written; a follow resumes there.
- ``export_withheld``: per repository, the agents' edits of memories the person deleted that an
  export named and did not publish (later runs report them as known).
- ``export_run``: per repository and source, an export that has not finished: started, then
  paused by a rate limit, stopped by an error, or killed (its process is gone). A run that
  finishes removes its row; ``pdsmem status`` lists the rest as exports waiting to resume.

The schema is versioned (``PRAGMA user_version``); ``SCHEMA_VERSION`` and ``_MIGRATIONS`` say how an
older database is brought forward. The state directory is ``$PDSMEM_STATE_DIR`` or the platform's
user state directory.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pdsmem.errors import StateError

if TYPE_CHECKING:
    from pdsmem.mapping.datamodel import Cid

    from ..atproto.repo import NodeSummary

SCHEMA_VERSION = 11

# Schema 2 remembers what each imported record became (fact id, supersedes); a cursor of schema 1
# has none of it, so the next import reads everything and maps each record again (an empty CID
# never matches; a cursor with failures is never "unchanged"), writing each as an update once.
_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE repo_cursor (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        rev TEXT NOT NULL,
        commit_cid TEXT NOT NULL,
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        PRIMARY KEY (did, reader)
    );
    CREATE TABLE repo_record (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        uri TEXT NOT NULL,
        cid TEXT NOT NULL,
        PRIMARY KEY (did, reader, uri)
    );
    CREATE TABLE export_record (
        did TEXT NOT NULL,
        rkey TEXT NOT NULL,
        cid TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        PRIMARY KEY (did, rkey)
    );
    CREATE INDEX export_record_memory ON export_record (did, memory_id);
    """,
    2: """
    ALTER TABLE repo_cursor ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE rev_floor (
        did TEXT NOT NULL,
        given_key TEXT NOT NULL,
        rev TEXT NOT NULL,
        PRIMARY KEY (did, given_key)
    );
    INSERT INTO rev_floor (did, given_key, rev) SELECT did, '', max(rev) FROM repo_cursor GROUP BY did;
    UPDATE repo_record SET cid = '';
    UPDATE repo_cursor SET failures = 1;
    ALTER TABLE repo_record ADD COLUMN fact_id TEXT;
    ALTER TABLE repo_record ADD COLUMN supersedes TEXT;
    CREATE TABLE mst_node (
        did TEXT NOT NULL,
        cid TEXT NOT NULL,
        block BLOB NOT NULL,
        PRIMARY KEY (did, cid)
    );
    CREATE TABLE export_run (
        did TEXT NOT NULL,
        source TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        planned INTEGER NOT NULL DEFAULT 0,
        written INTEGER NOT NULL DEFAULT 0,
        paused_until REAL,
        reason TEXT,
        PRIMARY KEY (did, source)
    );
    """,
    # Schema 3: the scope (agent, profile) of each exported memory, so that a prune deletes only
    # records of its own source's scope. Rows written before have none (NULL): never pruned.
    # A cursor also says whether its scope was hashed without a salt (status shows it).
    3: """
    ALTER TABLE export_record ADD COLUMN agent_id TEXT;
    ALTER TABLE export_record ADD COLUMN profile_id TEXT;
    ALTER TABLE repo_cursor ADD COLUMN unsalted INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE repo_failure (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        uri TEXT NOT NULL,
        cid TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (did, reader, uri)
    );
    CREATE TABLE repo_pending (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        uri TEXT NOT NULL,
        PRIMARY KEY (did, reader, uri)
    );
    """,
    # Schema 4: where following a repository's event stream got to (``sync --follow``), per
    # repository, reader and stream: the sequence number of the last event whose changes are in.
    4: """
    CREATE TABLE stream_cursor (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        stream TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event_time TEXT,
        updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        PRIMARY KEY (did, reader, stream)
    );
    """,
    # Schema 5: the summary of each kept MST node's sub-tree (repo.NodeSummary); NULL in the rows
    # kept before, which the next import that walks them fills in. Per repository, the nodes of
    # the tree last imported and of all kept: when those no tree uses outnumber the tree, the next
    # import walks every node and keeps only its tree's (``KeptNodes``).
    5: """
    ALTER TABLE mst_node ADD COLUMN layer INTEGER;
    ALTER TABLE mst_node ADD COLUMN first_key BLOB;
    ALTER TABLE mst_node ADD COLUMN last_key BLOB;
    ALTER TABLE mst_node ADD COLUMN entries INTEGER;
    ALTER TABLE mst_node ADD COLUMN nodes INTEGER;
    CREATE TABLE mst_tree (
        did TEXT PRIMARY KEY,
        nodes INTEGER NOT NULL,
        kept INTEGER NOT NULL
    );
    """,
    6: """
    ALTER TABLE export_record ADD COLUMN deleted_at TEXT;
    """,
    # Schema 7: the rev of the commit that wrote each exported record, so that a sync that reads
    # the repository at a later rev, without the record, knows the person deleted it (rows written
    # before have none: a sync leaves them to their mirrors).
    7: """
    ALTER TABLE export_record ADD COLUMN rev TEXT;
    """,
    # Schema 8: a hash of each exported memory's words (``exporter.words_of``), so that an export
    # does not publish again the words of a record the person deleted when an agent learns them
    # again, in another session (a new fact id). Rows written before have none.
    8: """
    ALTER TABLE export_record ADD COLUMN words TEXT;
    """,
    # Schema 9: the RushDB id of the row each record was exported from, so that a sync finds that
    # memory by its id, not by a search of the project (docs/rushdb.md, "Cost in a large project").
    9: """
    ALTER TABLE export_record ADD COLUMN row_id TEXT;
    """,
    # Schema 10: the agents' edits of memories the person deleted that an export named and left
    # unpublished, so that later runs report them as known (no failure: a scheduled export goes on).
    10: """
    CREATE TABLE export_withheld (
        did TEXT NOT NULL,
        memory_id TEXT NOT NULL,
        noted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        PRIMARY KEY (did, memory_id)
    );
    """,
    # Schema 11: the records of the person's repository whose text looked like a secret when a run
    # read them, so that later runs remind of those still there. Cursors of earlier versions noted
    # none: a run with --full notes them all.
    11: """
    CREATE TABLE repo_secret (
        did TEXT NOT NULL,
        reader TEXT NOT NULL,
        uri TEXT NOT NULL,
        cid TEXT NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (did, reader, uri)
    );
    """,
}


_MOVE_FILE = "move that file aside: pdsmem starts a new one, and the next import delivers everything again"
_MOVE_DIRECTORY = ("move that directory aside: pdsmem then starts a new database, and the next import delivers "
                   "everything again")


def resolve_state_dir(directory: Path | str | None = None) -> Path:
    """``directory`` with ``~`` expanded, else ``default_state_dir()``."""
    return Path(directory).expanduser() if directory else default_state_dir()


def default_state_dir() -> Path:
    """``PDSMEM_STATE_DIR``, else the platform's user state folder for pdsmem."""
    env = os.environ.get("PDSMEM_STATE_DIR")
    if env:
        return Path(env).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_STATE_HOME") or home / ".local" / "state")
    return base / "pdsmem"


@dataclass(frozen=True)
class RepoCursor:
    did: str
    rev: str
    commit_cid: str
    reader: str = ""
    failures: int = 0  # records that failed at that rev: an import at the same rev reports them again
    unsalted: bool = False  # its scope's participant hash was made without a salt


@dataclass(frozen=True)
class RememberedFact:
    """What an imported memory record became: its fact id, and the uris its record supersedes."""

    fact_id: str
    supersedes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExportedRecord:
    rkey: str
    cid: str
    memory_id: str
    scope: tuple[str, str] | None = None  # (agentId, profileId) of the memory; None: not known
    rev: str | None = None  # the rev of the commit that wrote it; None: not known
    deleted_at: str | None = None  # when a run found it deleted from the repository; None: not found so
    words: str | None = None  # a hash of the memory's words (``exporter.words_of``); None: not known
    row: str | None = None  # the RushDB id of the memory's row it was exported from; None: not known


@dataclass(frozen=True)
class ExportRun:
    """An export of ``source`` to ``did`` that has not finished (see ``State.start_export``)."""

    did: str
    source: str
    pid: int  # the process that ran it
    started_at: str
    planned: int  # writes in the current plan
    written: int  # of them, confirmed by the PDS
    paused_until: float | None  # epoch seconds: when the rate limit that paused it resets
    reason: str | None  # why it stopped; None while running, or when it was killed


class State:
    """The state database. Use as a context manager, or call ``close()``."""

    def __init__(self, directory: Path | str | None = None, *, read_only: bool = False) -> None:
        """Open the state database of ``directory``, made (with the directory) when there is none,
        and brought forward from an older schema. With ``read_only``, open one that exists, for
        reading only (``pdsmem status``): nothing is made or changed, not even an older schema
        (that is brought forward in a copy in memory). Either way, what is not a pdsmem state
        database is refused, untouched, with a ``StateError`` that says why and what to do."""
        self.directory = resolve_state_dir(directory)
        path = self.directory / "state.sqlite3"
        self._db: sqlite3.Connection | None = None
        try:
            if path.is_dir():
                raise StateError(f"cannot use the state database {path}: it is a directory", hint=_MOVE_DIRECTORY)
            if path.exists() and not path.is_file():  # a FIFO, a device: never opened
                raise StateError(f"cannot use the state database {path}: it is not a regular file", hint=_MOVE_FILE)
            if read_only:
                self._db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True,  # rw: made by no one
                                           isolation_level=None, timeout=30)
                self._db.execute("PRAGMA query_only = ON")  # (read-only mode would leave its WAL files behind)
                if self._checked_version() < SCHEMA_VERSION:  # an older schema, or none yet (an empty file)
                    copy = sqlite3.connect(":memory:", isolation_level=None)
                    self._db.backup(copy)
                    self._db.close()
                    self._db = copy
                    self._migrate()
                return
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fresh = not path.exists()
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30)
            if fresh:
                os.chmod(path, 0o600)
            self._checked_version()  # before the switch to WAL, which would change another's file
            self._write_ahead_log()
            self._db.execute("PRAGMA synchronous=FULL")
            self._migrate()
        except (OSError, sqlite3.Error) as err:
            if self._db is not None:
                self._db.close()
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            if "not a database" in reason:
                hint = _MOVE_FILE
            else:
                hint = "check that the directory is writable, or pass --state-dir (or set PDSMEM_STATE_DIR) to another one"
            raise StateError(f"cannot use the state database {path}: {reason}", hint=hint) from None
        except StateError:
            if self._db is not None:
                self._db.close()
            raise

    @contextmanager
    def exclusive(self, name: str, what: str) -> Iterator[None]:
        """Held while the block runs: a second holder of the same ``name`` on this machine (any
        process using this state directory) is refused with a message about ``what``. The lock
        goes with the process, however it ends."""
        import fcntl
        import hashlib

        locks = self.directory / "locks"
        locks.mkdir(exist_ok=True, mode=0o700)
        path = locks / (hashlib.sha256(name.encode()).hexdigest()[:24] + ".lock")
        with open(path, "a+") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                if holder == f"pid {os.getpid()}":
                    holder += ": this very process, in another thread or a call not yet returned"
                raise StateError(f"{what} is already running ({holder})",
                                 hint="wait for it to finish, then run this again if it is still needed") from None
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()}")
            handle.flush()
            yield

    def _write_ahead_log(self) -> None:
        """Switch the database to WAL (kept in the file). The switch answers "locked" at once,
        without waiting, while another first run makes the same switch: wait up to 10 s."""
        for attempt in range(200):
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or attempt == 199:
                    raise
                time.sleep(0.05)

    def _checked_version(self) -> int:
        """The schema version of the open database; a database from a newer pdsmem, or one of
        another program (tables, and no version), is refused."""
        version, tables = self._db.execute(  # one statement: one snapshot, when another run is migrating
            "SELECT (SELECT user_version FROM pragma_user_version), EXISTS (SELECT 1 FROM sqlite_master)"
        ).fetchone()
        if version > SCHEMA_VERSION:
            raise StateError(
                f"the state database at {self.directory} is from a newer pdsmem (schema {version}, "
                f"this one knows {SCHEMA_VERSION})",
                hint="upgrade pdsmem, or set PDSMEM_STATE_DIR to another directory",
            )
        if version == 0 and tables:
            raise StateError(f"cannot use the state database {self.directory / 'state.sqlite3'}: it is not a "
                             "pdsmem state database", hint=_MOVE_FILE)
        return version

    def _migrate(self) -> None:
        with self.transaction():  # read and migrate under one lock: two first runs may race
            version = self._checked_version()
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[target].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {target}")

    @contextmanager
    def transaction(self):
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- import cursor ---------------------------------------------------------------------

    def cursor(self, did: str, reader: str | None = None) -> RepoCursor | None:
        """The cursor of ``did`` for ``reader``; with no reader, the one advanced last."""
        columns = "SELECT rev, commit_cid, reader, failures, unsalted FROM repo_cursor WHERE did = ?"
        if reader is None:
            row = self._db.execute(f"{columns} ORDER BY updated_at DESC LIMIT 1", (did,)).fetchone()
        else:
            row = self._db.execute(f"{columns} AND reader = ?", (did, reader)).fetchone()
        return RepoCursor(did, *row[:4], bool(row[4])) if row else None

    def seen_records(self, did: str, reader: str | None = None) -> dict[str, str]:
        """uri → CID of the memory records at the cursor's rev (with no reader: the last advanced)."""
        if reader is None:
            cursor = self.cursor(did)
            if cursor is None:
                return {}
            reader = cursor.reader
        return dict(self._db.execute("SELECT uri, cid FROM repo_record WHERE did = ? AND reader = ?", (did, reader)))

    def seen_secrets(self, did: str, reader: str) -> dict[str, tuple[str, str]]:
        """uri → (CID, reason) of the records noted as looking like a secret, as the cursor has them."""
        rows = self._db.execute("SELECT uri, cid, reason FROM repo_secret WHERE did = ? AND reader = ?", (did, reader))
        return {uri: (cid, reason) for uri, cid, reason in rows}

    def seen_failures(self, did: str, reader: str) -> dict[str, tuple[str, str]]:
        """uri → (CID, reason) of the records that failed at the cursor's rev."""
        rows = self._db.execute("SELECT uri, cid, reason FROM repo_failure WHERE did = ? AND reader = ?", (did, reader))
        return {uri: (cid, reason) for uri, cid, reason in rows}

    def stream_cursor(self, did: str, reader: str, stream: str) -> int | None:
        """The sequence number following ``stream`` into ``reader`` got to for ``did``."""
        row = self._db.execute("SELECT seq FROM stream_cursor WHERE did = ? AND reader = ? AND stream = ?",
                               (did, reader, stream)).fetchone()
        return row[0] if row else None

    def advance_stream(self, did: str, reader: str, stream: str, seq: int, event_time: str | None) -> None:
        """After the changes of every event up to ``seq`` are written: the next follow starts there."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO stream_cursor (did, reader, stream, seq, event_time) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (did, reader, stream) DO UPDATE SET seq = excluded.seq, event_time = "
                "excluded.event_time, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (did, reader, stream, seq, event_time),
            )

    def streams(self) -> list[tuple[str, str, str, int, str | None, str]]:
        """Every followed stream: (did, reader, stream, seq, last event time, saved at)."""
        return list(self._db.execute(
            "SELECT did, reader, stream, seq, event_time, updated_at FROM stream_cursor ORDER BY did, reader"))

    def pending(self, did: str, reader: str) -> set[str]:
        """The records a delivery started to hand over and did not finish (see ``note_pending``)."""
        rows = self._db.execute("SELECT uri FROM repo_pending WHERE did = ? AND reader = ?", (did, reader))
        return {uri for (uri,) in rows}

    def note_pending(self, did: str, reader: str, uris: Iterable[str]) -> set[str]:
        """Before handing records over: if the run stops before ``advance``, the next import
        treats these as seen at an unknown CID (mapped again if present, deleted if gone).
        Returns those that were not pending yet, for ``forget_pending``."""
        with self.transaction() as db:
            added = set(uris) - self.pending(did, reader)
            db.executemany(
                "INSERT INTO repo_pending (did, reader, uri) VALUES (?, ?, ?)", ((did, reader, uri) for uri in added)
            )
        return added

    def forget_pending(self, did: str, reader: str, uris: Iterable[str]) -> None:
        """Take back what ``note_pending`` noted, when none of it was handed over after all."""
        with self.transaction() as db:
            db.executemany(
                "DELETE FROM repo_pending WHERE did = ? AND reader = ? AND uri = ?",
                ((did, reader, uri) for uri in uris),
            )

    def seen_facts(self, did: str, reader: str) -> dict[str, RememberedFact]:
        """uri → the fact each memory record at the cursor's rev was imported as (facts only)."""
        rows = self._db.execute(
            "SELECT uri, fact_id, supersedes FROM repo_record WHERE did = ? AND reader = ? AND fact_id IS NOT NULL",
            (did, reader),
        )
        return {
            uri: RememberedFact(fact_id, tuple(json.loads(links)) if links else ())
            for uri, fact_id, links in rows
        }

    def advance(
        self,
        did: str,
        rev: str,
        commit_cid: str,
        records: Mapping[str, str],
        reader: str = "",
        facts: Mapping[str, RememberedFact] | None = None,
        failures: int = 0,
        given_key: str = "",
        unsalted: bool = False,
        failed: Mapping[str, tuple[str, str]] | None = None,
        secrets: Mapping[str, tuple[str, str]] | None = None,
    ) -> None:
        """Move the cursor to ``rev`` with exactly ``records`` (uri → CID), ``facts`` for those
        that are facts and ``failed`` (uri → (CID, reason)) for those that failed, in one
        transaction; no record is pending any more. ``failures`` counts the records that failed at
        that rev; ``given_key`` is the key the commit was checked against when the user gave one
        instead of the DID document's: that rev then bounds only imports with the same key.
        ``secrets`` (uri → (CID, reason)): the records read now that look like a secret; those
        noted before stay noted while their record is there unchanged."""
        facts = facts or {}

        def row(uri: str, cid: str) -> tuple:
            fact = facts.get(uri)
            if fact is None:
                return did, reader, uri, cid, None, None
            return did, reader, uri, cid, fact.fact_id, json.dumps(fact.supersedes) if fact.supersedes else None

        with self.transaction() as db:
            db.execute("DELETE FROM repo_record WHERE did = ? AND reader = ?", (did, reader))
            db.execute("DELETE FROM repo_failure WHERE did = ? AND reader = ?", (did, reader))
            db.execute("DELETE FROM repo_pending WHERE did = ? AND reader = ?", (did, reader))
            db.executemany(
                "INSERT INTO repo_failure (did, reader, uri, cid, reason) VALUES (?, ?, ?, ?, ?)",
                ((did, reader, uri, cid, reason) for uri, (cid, reason) in (failed or {}).items() if cid),
            )
            db.executemany(
                "INSERT INTO repo_record (did, reader, uri, cid, fact_id, supersedes) VALUES (?, ?, ?, ?, ?, ?)",
                (row(uri, cid) for uri, cid in records.items()),
            )
            db.execute(  # a noted record deleted or changed since: the person acted on it (or read it again below)
                "DELETE FROM repo_secret WHERE did = ? AND reader = ? AND NOT EXISTS (SELECT 1 FROM repo_record r "
                "WHERE r.did = repo_secret.did AND r.reader = repo_secret.reader AND r.uri = repo_secret.uri "
                "AND r.cid = repo_secret.cid) AND NOT EXISTS (SELECT 1 FROM repo_failure f WHERE f.did = repo_secret.did "
                "AND f.reader = repo_secret.reader AND f.uri = repo_secret.uri AND f.cid = repo_secret.cid)", (did, reader))
            db.executemany(
                "INSERT OR REPLACE INTO repo_secret (did, reader, uri, cid, reason) VALUES (?, ?, ?, ?, ?)",
                ((did, reader, uri, cid, reason) for uri, (cid, reason) in (secrets or {}).items() if cid),
            )
            db.execute(
                "INSERT INTO repo_cursor (did, reader, rev, commit_cid, failures, unsalted) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (did, reader) DO UPDATE SET rev = excluded.rev, commit_cid = excluded.commit_cid, "
                "failures = excluded.failures, unsalted = excluded.unsalted, "
                "updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (did, reader, rev, commit_cid, failures, int(unsalted)),
            )
            db.execute(
                "INSERT INTO rev_floor (did, given_key, rev) VALUES (?, ?, ?) "
                "ON CONFLICT (did, given_key) DO UPDATE SET rev = max(rev, excluded.rev)",
                (did, given_key, rev),
            )

    def cursors(self) -> list[RepoCursor]:
        rows = self._db.execute(
            "SELECT did, rev, commit_cid, reader, failures, unsalted FROM repo_cursor ORDER BY did, reader"
        )
        return [RepoCursor(*row[:5], bool(row[5])) for row in rows]

    def latest_revs(self, given_key: str = "") -> dict[str, str]:
        """did → the newest rev any reader has imported from a commit signed by the DID
        document's key, or by ``given_key`` (older ones are rollbacks)."""
        return dict(self._db.execute(
            "SELECT did, max(rev) FROM rev_floor WHERE given_key IN ('', ?) GROUP BY did", (given_key,)
        ))

    def known_nodes(self, did: str) -> KeptNodes:
        """The MST nodes kept for ``did`` (see ``keep_nodes``), looked up one at a time."""
        return KeptNodes(self._db, did)

    def keep_nodes(
        self,
        did: str,
        nodes: Iterable[tuple[Cid, bytes, NodeSummary | None]],
        *,
        complete: bool = True,
        tree: int | None = None,
    ) -> None:
        """Keep the nodes of the tree just imported for ``did``, each with its summary. Only what
        changed is written: a node kept already is the same block (its CID says so), and a diff
        changes a few nodes of a tree that can hold a hundred thousand.

        ``complete``: ``nodes`` is the whole tree, and every other node kept goes. Otherwise
        ``nodes`` are those a walk met, the rest of the ``tree`` nodes having been placed by kept
        summaries: they are added, and nothing goes; once what no tree uses outnumbers the tree,
        ``KeptNodes`` has the next walk take every node, and its complete keeping clears it."""
        if not complete and tree is None:
            raise ValueError("keeping the nodes of a partial walk needs the size of the tree")
        with self.transaction() as db:
            # complete: every node kept, and whether it has its summary; what the tree does not use goes
            gone = dict(db.execute("SELECT cid, layer IS NOT NULL FROM mst_node WHERE did = ?", (did,))) \
                if complete else {}
            given = 0

            def rows() -> Iterator[tuple[object, ...]]:
                nonlocal given
                for cid, block, summary in nodes:
                    given += 1
                    text = str(cid)
                    if not gone.pop(text, False):  # not kept yet, or kept without its summary
                        yield (did, text, block, *(summary or (None,) * 5))

            before = db.total_changes
            db.executemany(  # a node kept before summaries were (schema 4) gets its summary
                "INSERT INTO mst_node (did, cid, block, layer, first_key, last_key, entries, nodes) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (did, cid) DO UPDATE SET layer = excluded.layer, "
                "first_key = excluded.first_key, last_key = excluded.last_key, entries = excluded.entries, "
                "nodes = excluded.nodes WHERE mst_node.layer IS NULL", rows())
            if complete:
                db.executemany("DELETE FROM mst_node WHERE did = ? AND cid = ?", ((did, cid) for cid in gone))
                kept = given
            else:  # what was kept, and what this walk added (a summary filled in counts too: a bound)
                row = db.execute("SELECT kept FROM mst_tree WHERE did = ?", (did,)).fetchone()
                kept = row[0] + db.total_changes - before if row is not None else \
                    db.execute("SELECT count(*) FROM mst_node WHERE did = ?", (did,)).fetchone()[0]
            db.execute("INSERT INTO mst_tree (did, nodes, kept) VALUES (?, ?, ?) ON CONFLICT (did) DO UPDATE "
                       "SET nodes = excluded.nodes, kept = excluded.kept "
                       "WHERE (nodes, kept) != (excluded.nodes, excluded.kept)", (did, given if complete else tree, kept))

    # --- export ledger ---------------------------------------------------------------------

    def exported(self, did: str) -> dict[str, ExportedRecord]:
        """rkey → what pdsmem wrote there."""
        rows = self._db.execute(
            "SELECT rkey, cid, memory_id, agent_id, profile_id, rev, deleted_at, words, row_id FROM export_record "
            "WHERE did = ?", (did,),
        )
        return {
            rkey: ExportedRecord(rkey, cid, mid, (agent, profile) if agent is not None else None, rev, deleted_at, words,
                                 row)
            for rkey, cid, mid, agent, profile, rev, deleted_at, words, row in rows
        }

    def record_writes(self, did: str, written: Iterable[ExportedRecord], deleted: Iterable[str] = ()) -> None:
        """Record one confirmed batch of writes (and deletions), in one transaction."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO export_record (did, rkey, cid, memory_id, agent_id, profile_id, rev, words, row_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (did, rkey) DO UPDATE SET cid = excluded.cid, "
                "memory_id = excluded.memory_id, agent_id = coalesce(excluded.agent_id, agent_id), "
                "profile_id = coalesce(excluded.profile_id, profile_id), rev = coalesce(excluded.rev, rev), "
                "words = coalesce(excluded.words, words), row_id = coalesce(excluded.row_id, row_id), deleted_at = NULL",
                ((did, r.rkey, r.cid, r.memory_id, *(r.scope or (None, None)), r.rev, r.words, r.row) for r in written),
            )
            db.executemany("DELETE FROM export_record WHERE did = ? AND rkey = ?", ((did, rkey) for rkey in deleted))

    def export_summary(self) -> list[tuple[str, int]]:
        return list(self._db.execute("SELECT did, count(*) FROM export_record GROUP BY did ORDER BY did"))

    def note_deleted_on_pds(self, did: str, rkeys: Iterable[str]) -> None:
        """Note records pdsmem wrote that someone deleted from the repository since: an export does
        not write them again unless asked (``deleted_on_pds`` lists them, as ``status`` does)."""
        with self.transaction() as db:
            db.executemany(
                "UPDATE export_record SET deleted_at = coalesce(deleted_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) "
                "WHERE did = ? AND rkey = ?", ((did, rkey) for rkey in rkeys))

    def note_withheld(self, did: str, memory_ids: Iterable[str]) -> None:
        """Note memories an export named and did not publish: edits of memories the person deleted
        (``withheld`` lists them; a later run reports them as known)."""
        with self.transaction() as db:
            db.executemany("INSERT OR IGNORE INTO export_withheld (did, memory_id) VALUES (?, ?)",
                           ((did, memory_id) for memory_id in memory_ids))

    def withheld(self, did: str) -> set[str]:
        """The memory ids ``note_withheld`` noted for ``did``."""
        return {mid for (mid,) in self._db.execute("SELECT memory_id FROM export_withheld WHERE did = ?", (did,))}

    def deleted_on_pds(self) -> list[tuple[str, str, str]]:
        """(did, rkey, when noted) of each record pdsmem wrote that was deleted from its repository."""
        return list(self._db.execute(
            "SELECT did, rkey, deleted_at FROM export_record WHERE deleted_at IS NOT NULL ORDER BY did, rkey"))

    # --- unfinished exports ----------------------------------------------------------------

    def start_export(self, did: str, source: str) -> None:
        """Note that this process starts exporting ``source`` to ``did`` (replacing an older run)."""
        self._db.execute(
            "INSERT OR REPLACE INTO export_run (did, source, pid) VALUES (?, ?, ?)", (did, source, os.getpid())
        )

    def export_progress(self, did: str, source: str, written: int, planned: int) -> None:
        self._db.execute(
            "UPDATE export_run SET written = ?, planned = ? WHERE did = ? AND source = ?",
            (written, planned, did, source),
        )

    def stop_export(self, did: str, source: str, reason: str, paused_until: float | None = None) -> None:
        """Note why the export stopped before finishing; it stays listed until a run finishes."""
        self._db.execute(
            "UPDATE export_run SET reason = ?, paused_until = ? WHERE did = ? AND source = ?",
            (reason, paused_until, did, source),
        )

    def finish_export(self, did: str, source: str) -> None:
        self._db.execute("DELETE FROM export_run WHERE did = ? AND source = ?", (did, source))

    def unfinished_exports(self) -> list[ExportRun]:
        rows = self._db.execute(
            "SELECT did, source, pid, started_at, planned, written, paused_until, reason "
            "FROM export_run ORDER BY rowid"  # the order they started in
        )
        return [ExportRun(*row) for row in rows]


class KeptNodes:
    """The MST nodes kept for one repository, as ``repo.KnownNodes``: each block and summary read
    when the walk asks for it, so that a diff's walk reads the few nodes it needs, not all.

    When the nodes kept outnumber twice the tree last imported (each diff's walk adds the new
    nodes of its changed paths and removes nothing), no summary is given: the walk takes every
    node, and its ``State.keep_nodes(complete=True)`` keeps only that tree's. Summaries are the
    state database's, as trusted as the rest of it (owner-only); each is checked against its
    node as far as the node alone can tell (``repo._summary_fits``)."""

    def __init__(self, db: sqlite3.Connection, did: str) -> None:
        self._db, self._did = db, did
        row = db.execute("SELECT nodes, kept FROM mst_tree WHERE did = ?", (did,)).fetchone()
        self.summarized = row is not None and row[1] <= 2 * row[0] + 64

    def block(self, cid: bytes) -> bytes | None:
        row = self._db.execute(
            "SELECT block FROM mst_node WHERE did = ? AND cid = ?", (self._did, _cid_text(cid))).fetchone()
        return bytes(row[0]) if row is not None else None

    def summary(self, cid: bytes) -> tuple[NodeSummary, bytes] | None:
        if not self.summarized:
            return None
        row = self._db.execute(
            "SELECT layer, first_key, last_key, entries, nodes, block FROM mst_node WHERE did = ? AND cid = ?",
            (self._did, _cid_text(cid))).fetchone()
        if row is None or not (type(row[0]) is type(row[3]) is type(row[4]) is int
                               and type(row[1]) is type(row[2]) is type(row[5]) is bytes):
            return None  # not kept, kept before summaries were, or damaged: walked
        from ..atproto.repo import NodeSummary  # here: reading the state (status) needs no repository code

        return NodeSummary(*row[:5]), row[5]

    def __iter__(self) -> Iterator[tuple[Cid, bytes]]:
        """Every node kept: its CID and block."""
        for cid, block in self._db.execute("SELECT cid, block FROM mst_node WHERE did = ?", (self._did,)):
            yield _cid(cid), bytes(block)


def _cid_text(cid: bytes) -> str:
    from pdsmem.mapping.datamodel import Cid  # the DAG-CBOR code loads where nodes are kept, not with the state

    return str(Cid.from_bytes(cid))


def _cid(text: str) -> Cid:
    from pdsmem.mapping.datamodel import Cid

    return Cid.decode(text)
