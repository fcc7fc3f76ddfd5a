"""A one-line progress display on stderr (counts, rate, ETA), and time wording for people.

``Progress`` draws only when stderr is a terminal, so pipes, logs and tests see no control
characters; off a terminal it prints the same line once a minute instead (``LOG_EVERY``), so that a
long run in a cron job or a service's log shows it is alive. ``note`` prints a line (a rate-limit
wait, say) whether or not it draws, without tearing the bar. ``render_line`` is the pure formatter
behind it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import IO

import click

BAR_WIDTH = 24
LOG_EVERY = 60.0  # seconds between progress lines off a terminal


def format_count(value: float, unit: str) -> str:
    """``1,234 writes``, or for ``unit="bytes"`` a size such as ``3.4 MB``."""
    if unit != "bytes":
        return f"{value:,.0f} {unit}"
    for suffix in ("B", "kB", "MB", "GB"):
        if value < 1000 or suffix == "GB":
            return f"{value:.0f} {suffix}" if suffix == "B" else f"{value:.1f} {suffix}"
        value /= 1000
    raise AssertionError("unreachable")


def format_duration(seconds: float) -> str:
    """``45 s``, ``3 min 20 s``, ``1 h 05 min``: rounded up to the second."""
    total = max(0, int(seconds + 0.999))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {secs:02d} s"
    return f"{secs} s"


def format_clock(epoch: float) -> str:
    """A moment as local wall-clock time with its zone, such as ``14:03:12 CEST``; the date too
    when it is not today."""
    moment = datetime.fromtimestamp(epoch, tz=timezone.utc).astimezone()
    now = datetime.now(tz=moment.tzinfo)
    text = moment.strftime("%H:%M:%S %Z").strip()
    return text if moment.date() == now.date() else f"{moment:%Y-%m-%d} {text}"


def render_line(label: str, done: int, total: int | None, rate: float | None, unit: str) -> str:
    """``Exporting [#####---]  400/3,000 writes  13%  1,150 writes/s  ETA 2 s``; ``rate`` is
    units per second, None while unknown."""
    rate_text = f"{format_count(rate, unit)}/s" if rate else f"— {'B' if unit == 'bytes' else unit}/s"
    if total:
        filled = min(BAR_WIDTH, BAR_WIDTH * done // total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        amount = (
            f"{format_count(done, unit).split()[0]}/{format_count(total, unit)}"
            if unit != "bytes" else f"{format_count(done, unit)} of {format_count(total, unit)}"
        )
        percent = min(100, 100 * done // total)
        left = max(0, total - done)
        eta = f"ETA {format_duration(left / rate)}" if rate else "ETA 0 s" if not left else "ETA —"
        return f"{label} [{bar}] {amount}  {percent}%  {rate_text}  {eta}"
    return f"{label}  {format_count(done, unit)}  {rate_text}"


class Progress:
    """Progress of one phase, drawn in place on stderr when stderr is a terminal."""

    def __init__(
        self,
        label: str,
        *,
        unit: str,
        total: int | None = None,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
        min_interval: float = 0.1,
        log_every: float = LOG_EVERY,
    ) -> None:
        self.label, self.unit, self.total = label, unit, total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.clock, self.min_interval, self.log_every = clock, min_interval, log_every
        self.done = 0
        self._base: tuple[float, int] | None = None  # (time, done) of the first update
        self._last_draw: float | None = None
        self._width = 0

    def update(self, done: int, total: int | None = None) -> None:
        if done == self.done and total in (None, self.total) and self._last_draw is not None:
            return  # nothing new to show
        self.done = done
        if total is not None:
            self.total = total
        now = self.clock()
        if self._base is None:
            self._base = (now, done)  # the rate counts from here: setting up is not progress
        if not self.enabled:
            self._log(now, self._base[0])
            return
        finished = self.total is not None and done >= self.total
        if self._last_draw is None or now - self._last_draw >= self.min_interval or finished:
            self._draw(now)

    def advance(self, amount: int) -> None:
        self.update(self.done + amount)

    def note(self, text: str) -> None:
        """Print ``text`` on its own line (always), then redraw the bar below it."""
        self._clear()
        click.echo(text, file=self.stream)
        if self._last_draw is not None:
            self._draw(self.clock())

    def close(self) -> None:
        self._clear()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _log(self, now: float, since: float) -> None:
        """Off a terminal: the line once every ``log_every`` seconds after ``since`` (the first update)."""
        if now - (self._last_draw if self._last_draw is not None else since) >= self.log_every:
            click.echo(render_line(self.label, self.done, self.total, self.rate(now), self.unit), file=self.stream)
            self._last_draw = now

    def _draw(self, now: float) -> None:
        if not self.enabled:
            return
        line = render_line(self.label, self.done, self.total, self.rate(now), self.unit)
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()
        self._width, self._last_draw = len(line), now

    def rate(self, now: float) -> float | None:
        """Units per second since the first update; None until there is something to measure."""
        if self._base is None:
            return None
        elapsed, gained = now - self._base[0], self.done - self._base[1]
        return gained / elapsed if elapsed > 0.2 and gained > 0 else None

    def _clear(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def retrying(err: Exception, delay: float) -> str:
    """The line shown before a retry: what failed, and when the next try is."""
    what = getattr(err, "message", None) or str(err)
    return f"Retrying: {what}; next try in {delay:.1f} s."


def on_terminal(text: str) -> None:
    """Say ``text`` on stderr when it is a terminal (what is going on during a long wait)."""
    if _is_terminal(sys.stderr):
        click.echo(text, file=sys.stderr)


class CountingReader:
    """A binary file that reports how many bytes were read to a ``Progress``."""

    def __init__(self, raw: IO[bytes], progress: Progress) -> None:
        self._raw, self._progress = raw, progress

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self._progress.advance(len(data))
        return data
