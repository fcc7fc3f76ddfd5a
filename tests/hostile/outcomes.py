"""What a hostile case must come to, and a bound on how long it may take to get there.

Two outcomes only: ``Refused`` (a specific ``PdsmemError`` subclass whose message holds a given
fragment) or ``Contained`` (the input is processed and its hostile part neutralised: a forged
extension ignored, a link to another repository dropped with a note). Anything else is a crash.

``deadline`` turns a hang into a failure: it interrupts the case with ``Hang`` (a
``BaseException``, so no ``except Exception`` in the code under test can swallow it). The limit
is generous on purpose; it is a guard, not a speed test.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pdsmem.errors import PdsmemError

CASE_TIME_LIMIT = 20.0  # seconds; the slowest case takes well under one


class Hang(BaseException):
    """A case ran past ``CASE_TIME_LIMIT``."""


@contextmanager
def deadline(seconds: float = CASE_TIME_LIMIT) -> Iterator[None]:
    """Raise ``Hang`` in the main thread if the block runs longer than ``seconds``."""

    def interrupt(signum: int, frame: Any) -> None:
        raise Hang(f"the case was still running after {seconds:.0f} s")

    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, interrupt)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # an enclosing deadline keeps running, less the time spent here
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 0.001))


@dataclass(frozen=True)
class Refused:
    """The item is refused with ``error`` (exactly that class, or one of those) saying ``says``."""

    error: type[PdsmemError] | tuple[type[PdsmemError], ...]
    says: str

    def problem(self, err: BaseException) -> str | None:
        """Why ``err`` is not this outcome, or None when it is."""
        allowed = self.error if isinstance(self.error, tuple) else (self.error,)
        if type(err) not in allowed:
            names = " or ".join(kind.__name__ for kind in allowed)
            return f"expected {names}, got {type(err).__name__}: {err}"
        if self.says not in str(err):
            return f"expected the message to say {self.says!r}, got: {err}"
        return None


@dataclass(frozen=True)
class Contained:
    """The item is processed; ``says`` (if given) is in one of its notes, ``check`` holds."""

    says: str | None = None
    check: Callable[[Any], str | None] | None = None  # returns a problem, or None
