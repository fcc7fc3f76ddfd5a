"""The command line calls the library (``pdsmem.api``) for its work, so that the two cannot drift.

Checked on the source: every import statement of ``pdsmem/cli`` that names the layers under the
API (``pdsmem.bridge``, ``pdsmem.mapping``, ``pdsmem.lexicons``). What is left is listed below,
module by module and name by name: the commands not moved yet (sign-in, sessions, status,
lexicon publishing, validate) and option parsing. The list only shrinks: a new import of a
lower layer fails here; move the call behind the API instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "pdsmem" / "cli"
LOWER = ("pdsmem.bridge", "pdsmem.mapping", "pdsmem.lexicons")

# (module file, imported module, name): the imports not behind the API yet.
NOT_YET_MOVED = {
    # pdsmem login / logout and the session every export opens (the API's sign_in does not prompt)
    "accounts.py": {
        "pdsmem.bridge.atproto.identity": {"IdentityError", "resolve"},
        "pdsmem.bridge.signin.oauth": {"OAuthSession", "sign_in"},
        "pdsmem.bridge.signin.session": {"ENV_PASSWORD", "Session", "SessionError", "SessionStore", "StoredGrant",
                                         "keep_only"},
        "pdsmem.bridge.atproto.xrpc": {"XrpcClient", "XrpcError", "normalize_base_url"},
    },
    # pdsmem validate (lexicons) and the JSON Lines reading the filters share
    "filters.py": {
        "pdsmem.bridge.pipelines.sources": {"SourceError", "json_lines", "json_value"},
        "pdsmem.lexicons": {"RECORD_NSID"},
        "pdsmem.mapping.lexicon": {"LexiconSet"},
        "pdsmem.mapping.records": {"EXT_KEY", "checked_extension"},
        "pdsmem.mapping.syntax": {"AtUri"},
    },
    # pdsmem lexicon show / publish, pdsmem schema
    "lexicon.py": {
        "pdsmem.bridge.signin.session": {"Session"},
        "pdsmem.bridge.atproto.xrpc": {"XrpcError"},
        "pdsmem.lexicons": {"all_documents", "contract_schema_text"},
        "pdsmem.mapping.datamodel": {"cid_text_for_json"},
        "pdsmem.mapping.syntax": {"AtUri", "Nsid"},
    },
    # the options' checks, shared by every command
    "options.py": {
        "pdsmem.bridge.atproto.repo": {"normalize_signing_key"},
        "pdsmem.bridge.signin.env": {"ENV_HANDLES"},
        "pdsmem.bridge.atproto.xrpc": {"normalize_base_url"},
        "pdsmem.mapping.contract_ids": {"hash_scope"},
        "pdsmem.mapping": {"syntax"},
    },
    "sessions.py": {  # pdsmem login, logout, sessions
        "pdsmem.bridge.signin.session": {"ENV_HANDLES", "ENV_PASSWORD", "SessionStore", "StoredGrant", "env_account",
                                         "open_stored"},
        "pdsmem.bridge.signin.oauth": {"OAuthError"},
    },
    "status.py": {  # pdsmem status
        "pdsmem.bridge.rushdb.store": {"ENV_API_KEY", "ENV_API_URL", "ENV_ENGINE_SCOPE", "ENV_ENGINE_TOKEN",
                                       "ENV_ENGINE_URL", "RushDBTarget"},
        "pdsmem.bridge.signin.session_store": {"SessionStore", "Stored", "StoredGrant"},
        "pdsmem.bridge.pipelines.state": {"ExportRun", "State", "resolve_state_dir"},
        "pdsmem.bridge.atproto.xrpc": {"mask_userinfo"},
        "pdsmem.lexicons": {"RECORD_NSID"},
    },
}
# The commands the library examples use go through the API alone.
THROUGH_THE_API = ("exporting.py", "importing.py", "listing.py", "memory.py")


def lower_imports(path: Path) -> dict[str, set[str]]:
    """Imported module → names, for each import of a layer under the API (function-local ones too)."""
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(LOWER):
            found.setdefault(node.module, set()).update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(LOWER):
                    found.setdefault(alias.name, set()).add("*")
    return found


def test_the_command_line_reaches_lower_layers_only_where_listed():
    offenders = []
    for path in sorted(CLI.glob("*.py")):
        allowed = NOT_YET_MOVED.get(path.name, {})
        for module, names in lower_imports(path).items():
            extra = names - allowed.get(module, set())
            if extra:
                offenders.append(f"pdsmem/cli/{path.name} imports {sorted(extra)} from {module}")
    assert offenders == [], "call these through pdsmem.api instead"


def test_the_list_of_imports_not_yet_moved_holds_no_stale_entry():
    """An entry no module needs any more is taken off, so the list only shrinks."""
    stale = []
    for name, modules in NOT_YET_MOVED.items():
        used = lower_imports(CLI / name)
        for module, names in modules.items():
            stale += [f"{name}: {module}.{n}" for n in sorted(names - used.get(module, set()))]
    assert stale == []


def test_the_commands_of_the_library_examples_use_the_api_alone():
    for name in THROUGH_THE_API:
        assert lower_imports(CLI / name) == {}, name
        assert "from pdsmem import api" in (CLI / name).read_text(encoding="utf-8")
