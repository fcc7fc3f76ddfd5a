"""What pdsmem keeps on this machine, read without changing it: the state directory's import and
sync cursors, export ledger, unfinished exports, followed event streams, and the kept sessions
(``status``, as ``pdsmem status`` shows them); and how a RushDB project is named there
(``rushdb_target``). Each call imports the state code when first made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pdsmem.api.accounts import KeptSession, _kept

if TYPE_CHECKING:
    from pdsmem.bridge.pipelines.state import ExportRun
    from pdsmem.bridge.signin.session_store import SessionStore

__all__ = ["RushDBTarget", "Status", "rushdb_target", "state_directory", "status"]


@dataclass(frozen=True)
class Status:
    """What a state directory holds (``status``), each entry as ``pdsmem status --json`` shows it.

    - ``imports``: one cursor per repository and import scope: ``{"did", "scope", "rev",
      "commit", "unsalted"}``;
    - ``syncs``: one cursor per repository, scope and RushDB project: the same, and ``"rushdb"``
      (a hash that names the project without its key);
    - ``follows``: where each followed event stream got to: ``{"did", "scope", "rushdb",
      "stream", "seq", "lastEventTime", "savedAt"}``;
    - ``exports``: per repository, ``{"did", "records", "deletedOnPds"}``: the records pdsmem
      wrote, and those it wrote that someone deleted on the PDS (``{"uri", "noted"}``; export
      leaves them deleted);
    - ``unfinished_exports``: ``{"did", "source", "startedAt", "state", "written", "planned",
      "pausedUntil", "reason"}``, ``state`` being ``paused`` (by a rate limit), ``stopped`` (by
      an error, or Ctrl-C), ``running`` or ``killed``;
    - ``sessions``: the kept sessions; ``unreadable_sessions``: the session files no call can
      read, ``{"file", "reason"}`` (the file under the state directory, and why; never what it
      holds).
    """

    state_dir: Path
    imports: list[dict[str, Any]] = field(default_factory=list)
    syncs: list[dict[str, Any]] = field(default_factory=list)
    follows: list[dict[str, Any]] = field(default_factory=list)
    exports: list[dict[str, Any]] = field(default_factory=list)
    unfinished_exports: list[dict[str, Any]] = field(default_factory=list)
    sessions: list[KeptSession] = field(default_factory=list)
    unreadable_sessions: list[dict[str, str]] = field(default_factory=list)


class RushDBTarget(Protocol):
    """A RushDB project as pdsmem names it, without connecting to it (``rushdb_target``)."""

    @property
    def shown(self) -> str:
        """Where it is, as messages show it: never its key."""

    @property
    def key(self) -> str:
        """The hash that names it in the sync state (``Status.syncs``' ``rushdb``): its key
        never reaches the state. Raises ``InvalidSyntax`` for a malformed URL."""


def rushdb_target(api_key: str, url: str | None = None, *, engine_url: str | None = None,
                  engine_scope: str | None = None) -> RushDBTarget:
    """The RushDB project ``rushdb`` would connect to with the same arguments, named without
    connecting (and without loading the RushDB SDK): where it is, and its key in the sync state."""
    from pdsmem.bridge.rushdb.target import RushDBTarget as Bridged

    return Bridged(api_key, url=url, engine_url=engine_url, engine_scope=engine_scope)


def state_directory(state_dir: str | os.PathLike[str] | None = None) -> Path:
    """The state directory pdsmem uses: ``state_dir``, else ``PDSMEM_STATE_DIR``, else the
    platform's user state directory. Creates nothing."""
    from pdsmem.api.arguments import a_directory
    from pdsmem.bridge.pipelines.state import resolve_state_dir

    return resolve_state_dir(None if a_directory(state_dir) is None else Path(state_dir))  # type: ignore[arg-type]


def status(state_dir: str | os.PathLike[str] | None = None) -> Status:
    """What the state directory (``state_directory``) holds: cursors, exports, followed streams
    and kept sessions (``Status``). Reads only: creates and changes nothing, and an empty or
    missing directory is an empty ``Status``. Raises ``StateError`` (a ``PdsmemError``) when its
    state database cannot be read, saying why. Never shows a token or a key."""
    from pdsmem.bridge.signin.session_store import SessionStore

    directory = state_directory(state_dir)
    imports, exports, unfinished, follows = _stored(directory)
    store = SessionStore(directory)
    sessions = [_kept(stored) for stored in store.sessions(log_unreadable=False)]  # listed, with why
    return Status(
        state_dir=directory,
        imports=[{k: v for k, v in i.items() if k != "rushdb"} for i in imports if not i["rushdb"]],
        syncs=[i for i in imports if i["rushdb"]], follows=follows, exports=exports,
        unfinished_exports=unfinished, sessions=sessions, unreadable_sessions=_unreadable(store),
    )


def _unreadable(store: SessionStore) -> list[dict[str, str]]:
    """The session files ``store.sessions()`` could not read, as status shows them: the file (under
    the state directory) and why."""
    shown = []
    for path, why in store.unreadable.items():
        name = str(path.relative_to(store.state_dir))
        shown.append({"file": name if name.isprintable() else name.encode("unicode_escape").decode("ascii"),
                      "reason": why})
    return shown


def _stored(directory: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]],
                                       list[dict[str, Any]]]:
    """(import cursors, export counts, unfinished exports, followed streams) of the state
    database, if there is one. A database that cannot be read is an error; nothing is changed."""
    from pdsmem.bridge.pipelines.state import State
    from pdsmem.lexicons import RECORD_NSID

    if not (directory / "state.sqlite3").exists():
        return [], [], [], []
    with State(directory, read_only=True) as state:
        imports: list[dict[str, Any]] = [
            {"did": c.did, "scope": c.reader, "rev": c.rev, "commit": c.commit_cid, "unsalted": c.unsalted}
            for c in state.cursors()
        ]
        for cursor in imports:  # a sync's cursor: the scope, then @ and the RushDB project's key
            cursor["scope"], _, cursor["rushdb"] = cursor["scope"].partition("@")
        exports: list[dict[str, Any]] = [{"did": did, "records": count, "deletedOnPds": []}
                                         for did, count in state.export_summary()]
        for did, rkey, when in state.deleted_on_pds():  # the person's word: export leaves them deleted
            for entry in exports:
                if entry["did"] == did:
                    entry["deletedOnPds"].append({"uri": f"at://{did}/{RECORD_NSID}/{rkey}", "noted": when})
        unfinished = [_unfinished(run) for run in state.unfinished_exports()]
        follows: list[dict[str, Any]] = [
            {"did": did, "scope": reader.partition("@")[0], "rushdb": reader.partition("@")[2], "stream": stream,
             "seq": seq, "lastEventTime": when, "savedAt": saved}
            for did, reader, stream, seq, when, saved in state.streams()
        ]
    return imports, exports, unfinished, follows


def _unfinished(run: ExportRun) -> dict[str, Any]:
    """An unfinished export as status reports it; ``state`` says what became of it."""
    if run.paused_until is not None:
        state = "paused"  # by a rate limit
    elif run.reason is not None:
        state = "stopped"  # by an error, or Ctrl-C
    else:
        state = "running" if _alive(run.pid) else "killed"
    return {
        "did": run.did, "source": run.source, "startedAt": run.started_at, "state": state,
        "written": run.written, "planned": run.planned, "pausedUntil": run.paused_until,
        "reason": run.reason,
    }


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True
