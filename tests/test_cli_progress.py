"""The progress line (counts, rate, ETA), and how waits and times read.

``Progress`` is driven with a fake clock and a StringIO stream flagged as a terminal, so the
exact characters a terminal would get can be checked.
"""

from __future__ import annotations

import io
import time

from pdsmem.cli.exporting import waiting
from pdsmem.cli.progress import (
    CountingReader,
    Progress,
    format_clock,
    format_count,
    format_duration,
    render_line,
)
from pdsmem.cli.reporting import resume_hint


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_render_line_with_a_total_shows_bar_counts_rate_and_eta() -> None:
    assert render_line("Exporting", 400, 3000, 200.0, "writes") == (
        "Exporting [###---------------------] 400/3,000 writes  13%  200 writes/s  ETA 13 s"
    )
    assert render_line("Exporting", 3000, 3000, 1200.0, "writes") == (
        "Exporting [########################] 3,000/3,000 writes  100%  1,200 writes/s  ETA 0 s"
    )


def test_render_line_before_any_rate_is_known_and_without_a_total() -> None:
    assert render_line("Exporting", 0, 200, None, "writes") == (
        "Exporting [------------------------] 0/200 writes  0%  — writes/s  ETA —"
    )
    assert render_line("Reading", 2_500_000, None, 1_250_000.0, "bytes") == "Reading  2.5 MB  1.2 MB/s"
    assert render_line("Reading", 3_000, 3_000, None, "bytes") == (
        "Reading [########################] 3.0 kB of 3.0 kB  100%  — B/s  ETA 0 s"
    )
    assert render_line("Reading", 1_500, 3_000, 1_500.0, "bytes") == (
        "Reading [############------------] 1.5 kB of 3.0 kB  50%  1.5 kB/s  ETA 1 s"
    )


def test_durations_counts_and_clock_times_for_people() -> None:
    assert [format_duration(s) for s in (0, 0.2, 45, 200, 3599.5, 3900)] == [
        "0 s", "1 s", "45 s", "3 min 20 s", "1 h 00 min", "1 h 05 min"]
    assert format_count(999, "bytes") == "999 B" and format_count(12_345_678, "bytes") == "12.3 MB"
    now = time.time()
    assert format_clock(now) == time.strftime("%H:%M:%S %Z", time.localtime(now))
    assert format_clock(now + 3 * 86400).startswith(time.strftime("%Y-%m-%d ", time.localtime(now + 3 * 86400)))


def test_a_rate_limit_wait_says_how_long_and_when_it_resumes() -> None:
    line = waiting(90)
    resume = format_clock(time.time() + 90)
    assert line == f"Rate-limited by the PDS: waiting 1 min 30 s, resuming at {resume}."
    assert resume_hint(10_003_600.0, now=10_000_000.0).endswith("(in 1 h 00 min)")
    assert resume_hint(None) == "the PDS did not say when its limit resets: wait a few minutes"


def test_progress_draws_in_place_on_a_terminal_and_notes_do_not_tear_it() -> None:
    stream, clock = io.StringIO(), Clock()
    with Progress("Exporting", unit="writes", total=600, stream=stream, enabled=True, clock=clock) as bar:
        clock.now += 5  # setting up (reading the repository) is not progress
        bar.update(200)  # the rate counts from here
        clock.now += 1
        bar.update(400)
        clock.now += 0.01
        bar.update(401)  # too soon after the last draw: skipped
        bar.note("Rate-limited by the PDS: waiting 5 s, resuming at 12:00:05 UTC.")
        bar.update(401)  # nothing new: not drawn again
        clock.now += 1
        bar.update(600)
    lines = [
        "Exporting [########----------------] 200/600 writes  33%  — writes/s  ETA —",
        "Exporting [################--------] 400/600 writes  66%  200 writes/s  ETA 1 s",
        "Exporting [################--------] 401/600 writes  66%  199 writes/s  ETA 1 s",
        "Exporting [########################] 600/600 writes  100%  199 writes/s  ETA 0 s",
    ]
    note = "Rate-limited by the PDS: waiting 5 s, resuming at 12:00:05 UTC."
    assert stream.getvalue() == (
        f"\r{lines[0]}"
        f"\r{lines[1]}"
        f"\r{' ' * len(lines[1])}\r{note}\n"
        f"\r{lines[2]}"
        f"\r{lines[3]}"
        f"\r{' ' * len(lines[3])}\r"
    )


def test_progress_off_a_terminal_prints_only_notes() -> None:
    stream = io.StringIO()
    with Progress("Exporting", unit="writes", total=10, stream=stream) as bar:  # StringIO: no tty
        bar.update(5)
        bar.note("a note")
        bar.update(10)
    assert stream.getvalue() == "a note\n"


def test_counting_reader_reports_bytes_read() -> None:
    stream = io.StringIO()
    bar = Progress("Reading", unit="bytes", total=10, stream=stream, enabled=False)
    reader = CountingReader(io.BytesIO(b"0123456789"), bar)
    assert reader.read(4) == b"0123" and reader.read() == b"456789" and reader.read(1) == b""
    assert bar.done == 10


def test_progress_off_a_terminal_prints_its_line_once_a_minute() -> None:
    """A new user's sync of a large repository, run from a script, printed nothing for ten minutes:
    off a terminal the progress line comes once a minute, as a plain line a log can keep."""
    stream, clock = io.StringIO(), Clock()
    with Progress("Syncing", unit="records", total=1000, stream=stream, clock=clock) as bar:
        bar.update(0)
        clock.now += 30
        bar.update(300)
        assert stream.getvalue() == ""  # not yet a minute
        clock.now += 31
        bar.update(600)
        clock.now += 10
        bar.update(700)
    assert stream.getvalue() == render_line("Syncing", 600, 1000, 600 / 61, "records") + "\n"
    assert "\r" not in stream.getvalue()
