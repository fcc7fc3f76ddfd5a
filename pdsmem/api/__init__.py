"""pdsmem as a library: the public API, for agent runtimes and services that call it in-process.

Everything named here (and importable from ``pdsmem`` itself) is public and follows semantic
versioning: a minor release only adds, a major release may change or remove (CHANGELOG.md says
what each release changed). Everything else (``pdsmem.bridge``, ``pdsmem.mapping``,
``pdsmem.lexicons``, ``pdsmem.cli``, and any name starting with ``_``) is private and may change
in any release. The error classes are public too: ``pdsmem.errors``.

- **Mappers**, offline: ``to_record``, ``to_records``, ``from_record``, ``from_records``,
  ``with_ids``, ``memory_id``, ``record_cid``, and the privacy gate, ``check_privacy`` (of an event)
  and ``sensitive_reason`` (of a text).
- **Runs**: ``export`` (to a person's repository); ``import_repository``, ``sync`` and
  ``follow`` (from a repository, into events or a RushDB scope, incrementally); ``rushdb``,
  ``recall`` and ``list_memories``; ``verify``.
- **Accounts**: ``sign_in`` (the kept session, else a login), ``log_in``,
  ``log_in_with_oauth``, ``log_out``, ``kept_sessions``; and what this machine keeps:
  ``status`` (``rushdb_target`` names a RushDB project as it does).
- **Lexicons**: ``shipped_lexicons``, ``event_schema``, ``publish_lexicon``, ``RecordValidator``.
- **Inputs**, checked as pdsmem checks them: ``base_url``, ``check_did``,
  ``check_handle_or_did``, ``check_nsid``, ``signing_key``, ``hash_scope``, ``parse_json``,
  ``json_lines``.
- **Values**: ``Scope`` (the trusted scope, one value), ``Report`` (every run's outcome, with
  ``Outcome``s), ``Record``, ``Mapped``, ``Refusal``, ``Recall``, ``Verification``,
  ``KeptSession``, ``Status``, ``Published``.

Importing this module is cheap: a name is loaded when it is first asked for, and each call
imports the code it needs (the atproto and RushDB SDKs, the privacy gate's scanners) when it is
first made. docs/library.md shows it at work.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs more than the rest of this module
if TYPE_CHECKING:  # what type checkers and editors see; at run time, __getattr__ loads them
    from typing import Any

    from pdsmem.api.accounts import KeptSession as KeptSession
    from pdsmem.api.accounts import LoggedOut as LoggedOut
    from pdsmem.api.accounts import check_pds as check_pds
    from pdsmem.api.accounts import kept_sessions as kept_sessions
    from pdsmem.api.accounts import log_in as log_in
    from pdsmem.api.accounts import log_in_with_oauth as log_in_with_oauth
    from pdsmem.api.accounts import log_out as log_out
    from pdsmem.api.accounts import sessions_directory as sessions_directory
    from pdsmem.api.accounts import sign_in as sign_in
    from pdsmem.api.inputs import base_url as base_url
    from pdsmem.api.inputs import check_did as check_did
    from pdsmem.api.inputs import check_handle_or_did as check_handle_or_did
    from pdsmem.api.inputs import check_nsid as check_nsid
    from pdsmem.api.inputs import hash_scope as hash_scope
    from pdsmem.api.inputs import json_lines as json_lines
    from pdsmem.api.inputs import masked_url as masked_url
    from pdsmem.api.inputs import parse_json as parse_json
    from pdsmem.api.inputs import signing_key as signing_key
    from pdsmem.api.lexicon import Published as Published
    from pdsmem.api.lexicon import RecordValidator as RecordValidator
    from pdsmem.api.lexicon import event_schema as event_schema
    from pdsmem.api.lexicon import lexicon_authority as lexicon_authority
    from pdsmem.api.lexicon import publish_lexicon as publish_lexicon
    from pdsmem.api.lexicon import shipped_lexicons as shipped_lexicons
    from pdsmem.api.local import RushDBTarget as RushDBTarget
    from pdsmem.api.local import Status as Status
    from pdsmem.api.local import rushdb_target as rushdb_target
    from pdsmem.api.local import state_directory as state_directory
    from pdsmem.api.local import status as status
    from pdsmem.api.mappers import check_privacy as check_privacy
    from pdsmem.api.mappers import from_record as from_record
    from pdsmem.api.mappers import from_records as from_records
    from pdsmem.api.mappers import memory_id as memory_id
    from pdsmem.api.mappers import record_cid as record_cid
    from pdsmem.api.mappers import sensitive_reason as sensitive_reason
    from pdsmem.api.mappers import to_record as to_record
    from pdsmem.api.mappers import to_records as to_records
    from pdsmem.api.mappers import with_ids as with_ids
    from pdsmem.api.results import PRUNE_SHARE as PRUNE_SHARE
    from pdsmem.api.results import SYNC_BATCH_SIZE as SYNC_BATCH_SIZE
    from pdsmem.api.results import FollowStatus as FollowStatus
    from pdsmem.api.results import Hit as Hit
    from pdsmem.api.results import Memory as Memory
    from pdsmem.api.results import Outcome as Outcome
    from pdsmem.api.results import Problem as Problem
    from pdsmem.api.results import Prune as Prune
    from pdsmem.api.results import Recall as Recall
    from pdsmem.api.results import Report as Report
    from pdsmem.api.results import RushDB as RushDB
    from pdsmem.api.results import Session as Session
    from pdsmem.api.results import Verification as Verification
    from pdsmem.api.runs import Follow as Follow
    from pdsmem.api.runs import FromRushDB as FromRushDB
    from pdsmem.api.runs import Memories as Memories
    from pdsmem.api.runs import Repository as Repository
    from pdsmem.api.runs import check_account as check_account
    from pdsmem.api.runs import embedder_from_env as embedder_from_env
    from pdsmem.api.runs import empty_scope_note as empty_scope_note
    from pdsmem.api.runs import ensure_indexes as ensure_indexes
    from pdsmem.api.runs import export as export
    from pdsmem.api.runs import follow as follow
    from pdsmem.api.runs import has_search_words as has_search_words
    from pdsmem.api.runs import import_repository as import_repository
    from pdsmem.api.runs import list_memories as list_memories
    from pdsmem.api.runs import recall as recall
    from pdsmem.api.runs import rushdb as rushdb
    from pdsmem.api.runs import sync as sync
    from pdsmem.api.runs import verify as verify
    from pdsmem.api.startup import keep_compiled_patterns as keep_compiled_patterns
    from pdsmem.api.values import Failure as Failure
    from pdsmem.api.values import Mapped as Mapped
    from pdsmem.api.values import Record as Record
    from pdsmem.api.values import Refusal as Refusal
    from pdsmem.api.values import Scope as Scope

# Each public name and the module that defines it (tests/test_api_surface.py holds this table to
# the imports above).
_PUBLIC = {
    "accounts": ("KeptSession", "LoggedOut", "check_pds", "kept_sessions", "log_in", "log_in_with_oauth", "log_out",
                 "sessions_directory", "sign_in"),
    "inputs": ("base_url", "check_did", "check_handle_or_did", "check_nsid", "hash_scope", "json_lines", "masked_url",
               "parse_json", "signing_key"),
    "lexicon": ("Published", "RecordValidator", "event_schema", "lexicon_authority", "publish_lexicon", "shipped_lexicons"),
    "local": ("RushDBTarget", "Status", "rushdb_target", "state_directory", "status"),
    "mappers": ("check_privacy", "from_record", "from_records", "memory_id", "record_cid", "sensitive_reason", "to_record",
                "to_records", "with_ids"),
    "runs": ("Follow", "FromRushDB", "Memories", "Repository", "check_account", "embedder_from_env", "empty_scope_note",
             "ensure_indexes", "export", "follow", "has_search_words", "import_repository", "list_memories", "recall",
             "rushdb", "sync", "verify"),
    "results": ("PRUNE_SHARE", "SYNC_BATCH_SIZE", "FollowStatus", "Hit", "Memory", "Outcome", "Problem", "Prune",
                "Recall", "Report", "RushDB", "Session", "Verification"),
    "startup": ("keep_compiled_patterns",),
    "values": ("Failure", "Mapped", "Record", "Refusal", "Scope"),
}
_MODULE_OF = {name: module for module, names in _PUBLIC.items() for name in names}


def __getattr__(name: str) -> Any:
    from importlib import import_module

    if name == "__all__":  # every public name, loaded (``from pdsmem.api import *``, the reference)
        for public in _MODULE_OF:
            __getattr__(public)
        globals()["__all__"] = names = sorted(_MODULE_OF)
        return names
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'pdsmem.api' has no attribute {name!r}")
    value = getattr(import_module(f"pdsmem.api.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])
