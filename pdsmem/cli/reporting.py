"""How errors read on the command line: ``Error: <what>, <where> (<what to do>)``.

``explain`` renders any ``PdsmemError`` and adds, where the library could not know it, what the
person at the terminal can do: which option or variable to check for an unreachable server,
and when a rate limit lifts. ``exit_code`` says which exit code an error means.
"""

from __future__ import annotations

import os
import time

from pdsmem.cli.progress import format_clock, format_duration
from pdsmem.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, PdsmemError
from pdsmem.errors import IdentityError, RateLimited, TransientError

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_PARTIAL", "EXIT_USAGE", "JSON_REQUESTED", "exit_code",
           "explain", "interrupted", "resume_hint", "shown_name", "withheld"]

JSON_REQUESTED = "pdsmem.json"
"""``ctx.meta`` key, set by ``--json``: a run that fails then ends its JSON lines with an
``{"error": …}`` line (``pdsmem.cli.PdsmemGroup``)."""

_UNREACHABLE_HINTS = {
    "cannot reach the PDS at ": "is the server running? check --pds or ATP_PDS_HOST",
    "cannot reach the PLC directory at ": "is it running? check --plc or ATP_PLC_HOST",
    "cannot reach RushDB at ": "is the server running? check --rushdb-url or RUSHDB_API_URL",
}
_AGAIN = "running the same command again is safe"


def resume_hint(reset_at: float | None, now: float | None = None) -> str:
    """``the limit resets at 14:03:12 CEST (in 58 min)``, or what to do when the PDS did not say."""
    if reset_at is None:
        return "the PDS did not say when its limit resets: wait a few minutes"
    now = time.time() if now is None else now
    return f"the limit resets at {format_clock(reset_at)} (in {format_duration(reset_at - now)})"


def explain(err: PdsmemError) -> str:
    """The error as one line, without the ``Error: `` prefix, with a remedy where one is known."""
    if err.hint is None:
        if isinstance(err, RateLimited):
            err.hint = f"{resume_hint(err.reset_at)}; run the same command again then"
        elif isinstance(err, TransientError):
            for start, hint in _UNREACHABLE_HINTS.items():
                if err.message.startswith(start):
                    err.hint = f"{hint}; {_AGAIN}"
        elif isinstance(err, IdentityError) and err.message.startswith("could not resolve handle"):
            err.hint = (
                "check the handle's spelling, and that --pds or ATP_PDS_HOST names the PDS that "
                "hosts the account"
            )
    elif isinstance(err, TransientError):  # a hint of the command's own: the check comes first
        for start, hint in _UNREACHABLE_HINTS.items():
            if err.message.startswith(start) and not err.hint.startswith(hint):
                err.hint = f"{hint}; {err.hint}"
    return str(err)


_RESUMES = {
    "export": "the export stopped before finishing; what it wrote stays, and running the same command "
              "again resumes where it stopped (nothing is written twice)",
    "sync": "the sync stopped before finishing; what it wrote stays, and running the same command again "
            "resumes where it stopped (nothing is written twice)",
}


def interrupted(command: str | None) -> str:
    """What a Ctrl-C left behind, without the ``Interrupted: `` prefix."""
    return _RESUMES.get(command or "", "stopped before finishing")


def exit_code(err: PdsmemError) -> int:
    """The exit code the error's class states (``pdsmem.errors``: 2 for a usage error, else 1)."""
    return err.exit_code


def shown_name(name: object, limit: int = 100) -> str:
    """A file name as a message shows it: whole up to ``limit`` characters; a longer one (a name
    the system refuses as too long, say) by its start and end, with its length."""
    text = os.fsdecode(name) if isinstance(name, (str, bytes)) else str(name)
    if len(text) <= limit:
        return text
    return f"{text[:60]}…{text[-20:]} ({len(text):,} characters)"


def withheld(text: str) -> str | None:
    """What a person's terminal shows in place of a memory's text that the privacy gate would
    refuse (a password, a key, a card's number: a terminal is seen and logged; ``list``'s table,
    ``recall`` on a terminal), or None."""
    from pdsmem import api

    reason = api.sensitive_reason(text)
    return None if reason is None else f"(withheld: it {reason}; --json prints it)"
