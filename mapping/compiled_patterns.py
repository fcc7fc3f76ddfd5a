"""Regular expressions built from the compiled form an earlier run kept, not parsed again on every
start of a process.

Python compiles a pattern in two steps: its parser and code generator, written in Python, turn the
pattern into the engine's code (a list of small integers), and the engine (``_sre``, in C) takes
that list. For the privacy gate's long patterns the first step is nearly all of the cost: the
gate's 640 patterns take about half a second to compile, and the 30 an ordinary memory asks for
took about 15 ms of every ``pdsmem convert`` (docs/benchmarks.md, start-up). Given the code an
earlier run kept, the engine builds the same pattern in about 20 µs.

This module does no I/O: whoever runs pdsmem says where the kept forms are (``keep_with``; until then,
and for a library that never says, a pattern is compiled as ``re.compile`` does and nothing is held; the
command line keeps them in the user's cache folder, ``pdsmem.bridge.pattern_cache``, as Python
keeps a module's compiled form beside it). Each pattern is kept on its own, under a name made of
its text and flags (``kept_name``), so that a run reads only the patterns it uses, and a changed
pattern is compiled again; they are kept for one Python and one version of its engine's code
(``KEPT_FOR``). A kept form is read only once its format and its CRC-32 hold (``_opened``); one that
cannot be read, is of another pattern, or that the engine refuses, is passed over: the pattern is compiled as ``re.compile`` does (tests/test_compiled_patterns.py
builds every pattern of the gate both ways and holds them to the same matches).
"""

from __future__ import annotations

import array
import binascii
import marshal
import re
import sys
from collections.abc import Callable

from pdsmem.mapping.sha256 import sha256_without_openssl

try:  # the engine and the two steps before it, as ``re.compile`` runs them (CPython 3.11 and later)
    import _sre
    from re import _compiler, _parser
except ImportError:  # another Python: patterns are compiled as usual
    _sre = None

# whose compiled forms these are: one Python, one version of its engine's code
KEPT_FOR = f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{getattr(_sre, 'MAGIC', 0)}"
# (the engine's code units are kept as bytes, which marshal reads at once, not integer by integer)
_USABLE = (_sre is not None and sys.implementation.name == "cpython"
           and array.array("I").itemsize == getattr(_sre, "CODESIZE", 0))

_read: Callable[[str], bytes | None] | None = None
_made: dict[str, bytes] = {}  # what this run compiled and was not kept: its name, and what to keep
_used: set[str] = set()  # the names of every pattern this run compiled, kept or made


def keep_with(read: Callable[[str], bytes | None]) -> None:
    """Take a pattern's compiled form from ``read(kept_name(…))``: the bytes a run kept
    (``to_keep``), or None."""
    global _read
    _read = read


def kept_name(pattern: str, flags: int = 0) -> str:
    """The name a pattern's compiled form is kept under."""
    return sha256_without_openssl(f"{int(flags)}:{pattern}".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:  # noqa: A001 (as re.compile is called)
    """``re.compile(pattern, flags)``, built from its kept compiled form when there is one."""
    if not _USABLE or _read is None:  # (nobody keeps them: nothing to read, nothing to hold for writing)
        return re.compile(pattern, flags)
    name = kept_name(pattern, flags)
    _used.add(name)
    try:
        kept = _opened(_read(name))
        if kept is not None:
            kept_pattern, kept_flags, entry = marshal.loads(kept)
            if (kept_pattern, kept_flags) == (pattern, int(flags)):
                return _built(pattern, entry)
    except (OSError, EOFError, ValueError, TypeError, RuntimeError, OverflowError):
        pass  # unreadable, or refused by the engine: compiled below (as is one not kept)
    entry = _entry(pattern, flags)
    compiled = _built(pattern, entry)
    _made[name] = _sealed(marshal.dumps((pattern, int(flags), entry)))
    return compiled


def to_keep() -> dict[str, bytes]:
    """What to keep for the next run: each pattern this run compiled and was not kept, by name."""
    return dict(_made)


def used() -> set[str]:
    """The names of the patterns this run compiled, kept or not."""
    return set(_used)


def forget() -> None:
    """Stop reading kept forms, and forget what this run compiled (for tests)."""
    global _read
    _read = None
    _made.clear()
    _used.clear()


# What a kept form starts with: its format, then the CRC-32 of the rest, checked before the rest is read. marshal
# takes a tuple's or a list's length from its data and makes room for it first: a torn file or one of another
# program, of five bytes, held a command up for 40 s before it failed (tests/test_compiled_patterns.py).
_FORMAT = b"pdsmem compiled pattern 1\n"


def _sealed(payload: bytes) -> bytes:
    return _FORMAT + binascii.crc32(payload).to_bytes(4, "big") + payload


def _opened(kept: bytes | None) -> bytes | None:
    """The payload of a kept form whose format and CRC-32 hold, else None."""
    if not kept or not kept.startswith(_FORMAT):
        return None
    check, payload = kept[len(_FORMAT):len(_FORMAT) + 4], kept[len(_FORMAT) + 4:]
    return payload if binascii.crc32(payload).to_bytes(4, "big") == check else None


def _entry(pattern: str, flags: int) -> tuple:
    """What the engine is given for ``pattern``: its flags, its code (as bytes), the number of its
    groups, and its groups' names both ways, made by Python's own parser and code generator."""
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    names = dict(parsed.state.groupdict)
    by_index = [None] * parsed.state.groups
    for name, index in names.items():
        by_index[index] = name
    return (int(flags | parsed.state.flags), array.array("I", code).tobytes(), parsed.state.groups - 1, names,
            tuple(by_index))


def _built(pattern: str, entry: tuple) -> re.Pattern[str]:
    flags, code, groups, names, by_index = entry
    return _sre.compile(pattern, flags, array.array("I", code).tolist(), groups, names, by_index)
