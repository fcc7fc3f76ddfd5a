"""pdsmem: agent memory between RushDB and a person's atproto repository.

Layers, each importing only those before it:
``pdsmem.lexicons`` (data) -> ``pdsmem.mapping`` (pure) -> ``pdsmem.bridge`` (I/O) -> ``pdsmem.cli``.

``pdsmem.__version__`` follows semantic versioning (CHANGELOG.md says what each release changed).
It is read from the installed package's metadata, so that ``pyproject.toml`` states it once, and
only when asked for: reading the metadata costs more than starting the command line.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("pdsmem")
        except PackageNotFoundError:  # a checkout used without installing it
            return "0.0.0+unknown"
    raise AttributeError(f"module 'pdsmem' has no attribute {name!r}")
