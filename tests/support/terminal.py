"""Run ``pdsmem`` on a real pseudo-terminal, as a person would, and answer its prompt.

Scope: test support for what only happens on a terminal (a prompt, a question before a large
prune). The command runs in a child process whose stdin, stdout and stderr are the terminal;
every wait has a deadline.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

PROMPT_MARKS = ("[y/N]", "[Y/n]", ": ")


def run_on_terminal(
    args: list[str], env: dict[str, str], *, answer: str | None = None, timeout: float = 120.0
) -> tuple[int, str]:
    """Run ``pdsmem ARGS`` on a terminal; type ``answer`` (and Enter) at its first prompt.

    Returns the exit code and everything the terminal showed.
    """
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pdsmem", *args], stdin=follower, stdout=follower, stderr=follower,
        env={**os.environ, **env, "COLUMNS": "200"}, close_fds=True,
    )
    os.close(follower)
    screen = b""
    deadline = time.monotonic() + timeout
    answered = answer is None
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                screen += chunk
            if not answered and screen.rstrip().endswith(tuple(m.strip().encode() for m in PROMPT_MARKS)):
                os.write(leader, answer.encode() + b"\n")
                answered = True
            if process.poll() is not None and not ready:
                break
        else:
            process.kill()
            raise AssertionError(f"pdsmem {' '.join(args)} did not finish within {timeout} s:\n{screen.decode()}")
        code = process.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(leader)
        if process.poll() is None:
            process.kill()
            process.wait()
    return code, screen.decode(errors="replace").replace("\r\n", "\n")
