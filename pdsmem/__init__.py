"""pdsmem: agent memory between RushDB and a person's atproto repository.

Layers, each importing only those before it: ``pdsmem.lexicons`` (data) -> ``pdsmem.mapping``
(pure) -> ``pdsmem.bridge`` (I/O) -> ``pdsmem.api`` (the public API) -> ``pdsmem.cli``.

The public API (``pdsmem.api``, docs/library.md) is importable from here too:
``from pdsmem import Scope, export, sync``. It is loaded when a name of it is first asked for,
so ``import pdsmem`` stays cheap.

``pdsmem.__version__`` follows semantic versioning (CHANGELOG.md says what each release changed).
It is read from the installed package's metadata, so that ``pyproject.toml`` states it once, and
only when asked for: reading the metadata costs more than starting the command line.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs more than the rest of this module
if TYPE_CHECKING:  # what type checkers and editors see; at run time, __getattr__ loads them
    from typing import Any

    from pdsmem.api import (  # noqa: F401
        PRUNE_SHARE, SYNC_BATCH_SIZE, Failure, Follow, FollowStatus, FromRushDB, Hit, KeptSession, LoggedOut, Mapped,
        Memories, Memory, Outcome, Problem, Prune, Published, Recall, Record, RecordValidator, Refusal, Report,
        Repository, RushDB, RushDBTarget, Scope, Session, Status, Verification, base_url, check_account, check_did, check_pds,
        check_handle_or_did, check_nsid, check_privacy, embedder_from_env, empty_scope_note, ensure_indexes, event_schema,
        export, follow, from_record, from_records, has_search_words, hash_scope, import_repository, json_lines, keep_compiled_patterns,
        kept_sessions,
        lexicon_authority, list_memories, log_in, log_in_with_oauth, log_out, masked_url, memory_id, parse_json,
        publish_lexicon, recall, record_cid, rushdb, rushdb_target, sensitive_reason, sessions_directory, shipped_lexicons,
        sign_in,
        signing_key, state_directory, status, sync, to_record, to_records, verify, with_ids,
    )

    __version__: str


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("pdsmem")
        except PackageNotFoundError:  # a checkout used without installing it
            return "0.0.0+unknown"
    if not name.startswith("_"):
        from importlib import import_module

        api = import_module("pdsmem.api")
        if name in api._MODULE_OF:  # the public names, without loading them all
            return getattr(api, name)
    raise AttributeError(f"module 'pdsmem' has no attribute {name!r}")


def __dir__() -> list[str]:
    from importlib import import_module

    api = import_module("pdsmem.api")
    return sorted([*globals(), "__version__", *api._MODULE_OF])
