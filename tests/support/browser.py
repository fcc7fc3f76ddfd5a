"""A real browser for the OAuth sign-in tests: headless Chromium (Debian's package, installed by
scripts/setup), driven by Playwright through the local PDS's own authorization pages."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright

# Flags for a browser inside a container, without a display or a GPU.
_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--no-first-run"]


def chromium_path() -> str:
    """Debian's Chromium (``PDSMEM_CHROMIUM`` names another); a failure, not a skip, without it."""
    found = os.environ.get("PDSMEM_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("the OAuth sign-in tests need Chromium: scripts/setup installs Debian's chromium "
                    "package (or set PDSMEM_CHROMIUM to a Chromium binary)")
    return found


@contextmanager
def launched() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Login:
    """A ``pdsmem login`` running in its own process, waiting for the browser."""

    process: subprocess.Popen[str]
    url: str  # the authorization page it printed

    @property
    def redirect_uri(self) -> str:
        """The loopback address pdsmem listens on, from the client id in the printed URL."""
        client_id = parse_qs(urlsplit(self.url).query)["client_id"][0]
        return parse_qs(urlsplit(client_id).query)["redirect_uri"][0]

    def read_until(self, text: str) -> str:
        """The lines pdsmem writes to stderr, read until one contains ``text``."""
        assert self.process.stderr is not None
        seen = ""
        for line in self.process.stderr:
            seen += line
            if text in line:
                return seen
        raise AssertionError(f"pdsmem login ended without saying {text!r}: {seen}")

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err


def start_login(*args: str, env: dict[str, str]) -> Login:
    """Run ``pdsmem login ARGS --no-browser`` and wait for the sign-in page's URL it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pdsmem", "login", *args, "--no-browser"],
        env={**os.environ, **env}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        found = re.search(r"(https?://\S+/oauth/authorize\?\S+)", line)
        if found:
            return Login(process, found.group(1))
    process.wait(timeout=30)
    raise AssertionError(f"pdsmem login printed no sign-in page: {''.join(seen)}{process.stdout.read() if process.stdout else ''}")


def approve(
    browser: Browser,
    login: Login,
    password: str,
    *,
    deny: bool = False,
    rewrite_redirect: Callable[[str], str] | None = None,
) -> Page:
    """Sign in on the PDS's authorization page with ``password`` and press Authorize (or Deny).

    ``rewrite_redirect`` changes the URL the browser is sent back to, as a tampering network
    or a malicious page could."""
    context = browser.new_context()
    page = context.new_page()
    if rewrite_redirect is not None:
        # After the consent, the page sends the browser to the authorization server's
        # /oauth/authorize/redirect with the answer's parameters (state, iss, code) in its query,
        # which answers a 303 to pdsmem's loopback address with them: change them on the way.
        def tamper(route: Route) -> None:
            route.continue_(url=rewrite_redirect(route.request.url))
        page.route(re.compile(r".*/oauth/authorize/redirect.*"), tamper)
    page.goto(login.url)
    page.fill("input[name=password]", password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Deny access" if deny else "Authorize").click()
    page.wait_for_url(re.compile(re.escape(login.redirect_uri) + r".*"))
    return page


def session_files(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "sessions").glob("*.json")) if (state_dir / "sessions").is_dir() else []
