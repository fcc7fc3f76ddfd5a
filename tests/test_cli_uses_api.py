"""The command line calls the library (``pdsmem.api``) for its work, so that the two cannot drift.

Checked on the source: no import statement of ``pdsmem/cli`` names a layer under the API
(``pdsmem.bridge``, ``pdsmem.mapping``, ``pdsmem.lexicons``), function-local ones included; a
command that needs one of them needs a call of the API instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "pdsmem" / "cli"
LOWER = ("pdsmem.bridge", "pdsmem.mapping", "pdsmem.lexicons")


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


def test_the_command_line_reaches_no_lower_layer():
    offenders = []
    for path in sorted(CLI.glob("*.py")):
        for module, names in lower_imports(path).items():
            offenders.append(f"pdsmem/cli/{path.name} imports {sorted(names)} from {module}")
    assert offenders == [], "call these through pdsmem.api instead"


def test_every_command_module_calls_the_api():
    from pdsmem.cli import COMMANDS

    for module in sorted({module for module, _ in COMMANDS.values()}):
        assert "from pdsmem import api" in (CLI / f"{module}.py").read_text(encoding="utf-8"), module


def test_the_environment_variables_the_command_line_names_are_the_librarys():
    """The command line names the account's variables without loading the sign-in code; they are
    the ones the library reads."""
    from pdsmem.bridge.rushdb import store
    from pdsmem.bridge.signin import env
    from pdsmem.cli import memory, options, status

    assert (options.ENV_HANDLES, options.ENV_PASSWORD) == (env.ENV_HANDLES, env.ENV_PASSWORD)
    rushdb = (store.ENV_API_KEY, store.ENV_API_URL, store.ENV_ENGINE_URL, store.ENV_ENGINE_TOKEN, store.ENV_ENGINE_SCOPE)
    assert (status.ENV_API_KEY, status.ENV_API_URL, status.ENV_ENGINE_URL, status.ENV_ENGINE_TOKEN,
            status.ENV_ENGINE_SCOPE) == rushdb
    assert (memory.ENV_ENGINE_URL, memory.ENV_ENGINE_TOKEN, memory.ENV_ENGINE_SCOPE) == rushdb[2:]
