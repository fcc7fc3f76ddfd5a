"""The layers go one way: lexicons -> mapping (pure) -> bridge (I/O) -> api -> cli.

Checked on the source: every import statement of each layer, including function-local ones.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "lexicons": ROOT / "lexicons",
    "mapping": ROOT / "mapping",
    "bridge": ROOT / "bridge",
    "api": ROOT / "pdsmem" / "api",
    "cli": ROOT / "pdsmem" / "cli",
}
# What each layer may not import (modules of later layers, and for pure code, I/O libraries).
FORBIDDEN = {
    "lexicons": ("pdsmem.mapping", "pdsmem.bridge", "pdsmem.api", "pdsmem.cli", "httpx", "rushdb"),
    "mapping": ("pdsmem.bridge", "pdsmem.api", "pdsmem.cli", "httpx", "socket", "urllib.request", "sqlite3",
                "subprocess", "requests", "rushdb", "atproto_client", "dns", "click"),
    "bridge": ("pdsmem.api", "pdsmem.cli", "click"),
    "api": ("pdsmem.cli", "click"),
    "cli": (),
}


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:  # relative: resolve against the layer's package
                continue
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_imports_only_what_comes_before_it(layer):
    offenders = []
    for path in sorted(LAYERS[layer].rglob("*.py")):
        for name in imports_of(path):
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer]):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_mapping_modules_open_with_a_statement_of_scope():
    for layer in ("mapping", "bridge", "api"):
        for path in LAYERS[layer].rglob("*.py"):
            assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), f"{path.name} has no docstring"


# What the API may import when its module is loaded: ``import pdsmem`` and the command line's start
# stay cheap; the SDKs, the scanners and the pipelines are imported by the calls that need them.
API_TOP_LEVEL = ("__future__", "collections", "contextlib", "dataclasses", "io", "operator", "os", "pathlib", "queue",
                 "sys", "threading", "typing", "pdsmem.api", "pdsmem.errors")  # (io and operator: loaded at start-up)


def test_the_api_imports_its_heavy_modules_in_the_calls_that_need_them():
    offenders = []
    for path in sorted(LAYERS["api"].rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.If):  # ``if TYPE_CHECKING:`` imports only for the type checker
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            for name in names:
                if not any(name == ok or name.startswith(ok + ".") for ok in API_TOP_LEVEL):
                    offenders.append(f"{path.name} imports {name} at the top")
    assert offenders == []
