"""What makes a program that maps a few memories in each new process start faster: the privacy
gate's compiled patterns, kept between runs (``keep_compiled_patterns``). Imports nothing else
until it is called, as the command line calls it for every command.
"""

from __future__ import annotations

import os

__all__ = ["keep_compiled_patterns"]


def keep_compiled_patterns(cache_dir: str | os.PathLike[str] | None = None) -> None:
    """Keep the privacy gate's compiled patterns between runs of a program: read them from
    ``cache_dir`` (else ``PDSMEM_CACHE_DIR``, else the platform's user cache directory) as the gate
    first uses them, and write there, when the process ends, those this run compiled anew. A
    program that checks a few memories in each new process (a command, an agent's hook) starts
    faster from its second run (docs/benchmarks.md, start-up); a long-running one gains little.
    Only patterns are kept, never a memory's text, and a directory that cannot be read or written
    costs time only. The command line calls it for every command; in a process, the first call
    decides the directory and later ones change nothing."""
    from pdsmem.bridge.pattern_cache import keep_compiled_patterns as keep

    keep(None if cache_dir is None else os.fspath(cache_dir))
