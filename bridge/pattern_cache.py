"""The folder that keeps the privacy gate's compiled patterns from one run of pdsmem to the next
(``pdsmem.mapping.compiled_patterns``): a pattern's file is read when the pattern is first used,
and the patterns a run compiled anew are written when the process ends.

It lives in ``$PDSMEM_CACHE_DIR``, else the platform's user cache folder for pdsmem
(``~/.cache/pdsmem`` on Linux), one folder for each Python (``patterns-<KEPT_FOR>``), and holds
patterns only, never a memory's text. It is a cache: a folder that cannot be written, or a file
that cannot be read, costs the next run its time and nothing else, and deleting it is always
safe. Each file is written beside its place and then renamed, so that two runs ending at once
leave one whole file or the other; past ``MAX_FILES`` (patterns of older versions of pdsmem), a
run removes the files it did not use.
"""

from __future__ import annotations

import atexit
import os
import sys

from pdsmem.mapping import compiled_patterns

ENV_CACHE_DIR = "PDSMEM_CACHE_DIR"
# several times the patterns one version of pdsmem has (about 720)
MAX_FILES = 4000


def default_cache_dir() -> str:
    """``PDSMEM_CACHE_DIR``, else the platform's user cache folder for pdsmem."""
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return os.path.expanduser(env)
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local"), "pdsmem", "Cache")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Caches", "pdsmem")
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "pdsmem")


def keep_compiled_patterns(directory: str | None = None) -> None:
    """Read kept patterns from ``directory`` (``default_cache_dir()``) as they are first used, and
    write there, when the process ends, those this run compiled anew. Once a process: a second call
    changes nothing."""
    global _folder
    if _folder is not None:
        return
    _folder = os.path.join(directory or default_cache_dir(), f"patterns-{compiled_patterns.KEPT_FOR}")
    compiled_patterns.keep_with(_read)
    atexit.register(_write)


_folder: str | None = None  # the folder this process reads and writes


def _read(name: str) -> bytes | None:
    try:
        with open(os.path.join(_folder, name), "rb") as kept:
            return kept.read()
    except OSError:  # none yet, or not readable: the pattern is compiled as usual
        return None


def _write() -> None:
    made = compiled_patterns.to_keep()
    if not made:
        return
    try:
        os.makedirs(_folder, exist_ok=True)
        for name, kept in made.items():
            _replace(os.path.join(_folder, name), kept)
        names = os.listdir(_folder)
        if len(names) > MAX_FILES:
            used = compiled_patterns.used()
            for name in names:
                if name not in used and not name.startswith("."):
                    os.remove(os.path.join(_folder, name))
    except OSError:  # a folder that cannot be written: the next run compiles again
        pass


def _replace(path: str, data: bytes) -> None:
    partial = f"{os.path.dirname(path)}{os.sep}.{os.path.basename(path)}.{os.getpid()}"
    try:
        with open(partial, "wb") as out:
            out.write(data)
        os.replace(partial, path)
    except OSError:
        try:
            os.remove(partial)
        except OSError:
            pass
        raise
