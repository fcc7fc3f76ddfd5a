"""Timing helpers the benchmarks share: run and time a step, print a rate line."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def clock(fn: Callable[[], T]) -> tuple[float, T]:
    """(seconds, result) of ``fn()``."""
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def line(label: str, n: int, seconds: float) -> float:
    """Print ``label``, the count, the time and the rate; return the rate (records/s)."""
    rate = n / seconds
    print(f"{label:<52} {n:>6} in {seconds:7.2f} s  {rate:>9,.0f} records/s")
    return rate
