"""The public API (pdsmem.api, docs/library.md): it passes mypy in strict mode, its reference builds
from the docstrings without a warning, ``import pdsmem`` loads none of it, and the constants it
states are the bridge's."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pdsmem
from pdsmem import api

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = ["pdsmem/api", "pdsmem/__init__.py", "pdsmem/errors.py"]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_public_api_passes_mypy_strict():
    done = run("-m", "mypy", "--strict", "--follow-imports=silent", "--no-incremental", *PUBLIC)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_reference_builds_from_the_docstrings_without_a_warning(tmp_path):
    done = run("-W", "error", "-m", "pdoc", "pdsmem.api", "-o", str(tmp_path))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "pdsmem" / "api.html").is_file()


def test_importing_pdsmem_loads_no_layer_and_no_sdk():
    done = run("-c", "import sys, pdsmem; print(sorted(m for m in sys.modules if m.startswith("
               "('pdsmem.', 'atproto', 'rushdb', 'pydantic', 'detect_secrets', 'bm25s', 'httpx'))))")
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_every_public_name_is_reachable_from_pdsmem_and_documented():
    for name in api.__all__:
        assert getattr(pdsmem, name) is getattr(api, name)
        value = getattr(api, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert value.__doc__, f"{name} has no docstring"


def _type_checking_imports(path: Path) -> dict[str, set[str]]:
    """Module → names, of the ``if TYPE_CHECKING:`` block of ``path`` (what type checkers see)."""
    found: dict[str, set[str]] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module.startswith("pdsmem"):
                    found.setdefault(statement.module, set()).update(alias.name for alias in statement.names)
    return found


def test_the_names_type_checkers_see_are_the_ones_loaded_at_run_time():
    """``pdsmem.api`` loads each name when it is first asked for (``_PUBLIC``); type checkers read
    the imports of its ``TYPE_CHECKING`` block, and ``pdsmem``'s. The three say the same."""
    seen = _type_checking_imports(ROOT / "pdsmem" / "api" / "__init__.py")
    assert seen == {f"pdsmem.api.{module}": set(names) for module, names in api._PUBLIC.items()}
    assert _type_checking_imports(ROOT / "pdsmem" / "__init__.py") == {"pdsmem.api": set(api.__all__)}
    for module, names in api._PUBLIC.items():
        assert set(names) <= set(importlib.import_module(f"pdsmem.api.{module}").__all__), module
    submodules = {path.name.removesuffix(".py") for folder in ("pdsmem", "pdsmem/api") for path in (ROOT / folder).iterdir()}
    assert not set(api.__all__) & submodules, "a name of pdsmem's or pdsmem.api's modules hides a public name"


def test_the_constants_the_api_states_are_the_bridges():
    from pdsmem.bridge.pipelines.exporter import PRUNE_SHARE
    from pdsmem.bridge.pipelines.syncer import CHUNK

    assert (api.PRUNE_SHARE, api.SYNC_BATCH_SIZE) == (PRUNE_SHARE, CHUNK)


def test_the_scope_hashes_as_the_contract_does():
    from pdsmem.mapping.contract_ids import hash_scope, participant_hash_for_did

    scope = api.Scope("coder", "default", salt="s")
    assert scope.participant_for("did:plc:abc") == participant_hash_for_did("did:plc:abc", "s")
    parts = api.Scope("coder", "default", participant_parts=("discord", "coder", "user-42"), salt="s")
    assert parts.participant == hash_scope(["discord", "coder", "user-42"], "s")


def test_an_unsalted_scope_is_refused_unless_accepted():
    from pdsmem.errors import EXIT_USAGE, UsageError

    try:
        api.Scope("coder", "default").participant_for("did:plc:abc")
    except UsageError as err:
        assert err.exit_code == EXIT_USAGE
    else:
        raise AssertionError("an unsalted scope was taken")
    assert api.Scope("coder", "default", accept_unsalted=True).participant_for("did:plc:abc")
