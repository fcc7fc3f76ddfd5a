"""pdsmem as a library: the public API, for agent runtimes and services that call it in-process.

Everything named here (and importable from ``pdsmem`` itself) is public and follows semantic
versioning: a minor release only adds, a major release may change or remove (CHANGELOG.md says
what each release changed). Everything else (``pdsmem.bridge``, ``pdsmem.mapping``,
``pdsmem.lexicons``, ``pdsmem.cli``, and any name starting with ``_``) is private and may change
in any release. The error classes are public too: ``pdsmem.errors``.

- **Mappers**, offline: ``to_record``, ``to_records``, ``from_record``, ``from_records``,
  ``with_ids``, ``memory_id``, ``record_cid``, and the privacy gate, ``check_privacy``.
- **Runs**: ``sign_in`` and ``export`` (to a person's repository); ``import_repository``,
  ``sync`` and ``follow`` (from a repository, into events or a RushDB scope, incrementally);
  ``rushdb``, ``recall`` and ``list_memories``; ``verify``.
- **Values**: ``Scope`` (the trusted scope, one value), ``Report`` (every run's outcome, with
  ``Outcome``s), ``Record``, ``Mapped``, ``Refusal``, ``Recall``, ``Verification``.

Importing this module is cheap: each call imports the code it needs (the atproto and RushDB
SDKs, the privacy gate's scanners) when it is first made. docs/library.md shows it at work.
"""

from __future__ import annotations

from pdsmem.api.mappers import (
    check_privacy, from_record, from_records, memory_id, record_cid, to_record, to_records, with_ids,
)
from pdsmem.api.runs import (
    Follow, FromRushDB, Memories, Repository, check_account, embedder_from_env, ensure_indexes, export, follow, has_search_words,
    import_repository, list_memories, recall, rushdb, sign_in, sync, verify,
)
from pdsmem.api.values import (
    PRUNE_SHARE, SYNC_BATCH_SIZE, Failure, FollowStatus, Hit, Mapped, Memory, Outcome, Problem, Prune, Recall, Record, Refusal, Report, RushDB, Scope,
    Session, Verification,
)

__all__ = [
    "PRUNE_SHARE", "SYNC_BATCH_SIZE", "Failure", "Follow", "FollowStatus", "FromRushDB", "Hit", "Mapped", "Memories", "Memory", "Outcome", "Problem", "Prune",
    "Recall", "Record", "Refusal", "Report", "Repository", "RushDB", "Scope", "Session", "Verification",
    "check_account", "check_privacy", "embedder_from_env", "ensure_indexes", "export", "follow", "has_search_words", "from_record", "from_records",
    "import_repository", "list_memories", "memory_id", "recall", "record_cid", "rushdb", "sign_in", "sync", "to_record",
    "to_records", "verify", "with_ids",
]
