"""A memory record another app wrote that fails its lexicon: ``sync`` names it once, then counts it.

Against the real local PDS and RushDB. The record stays in the repository as it is (it is not
pdsmem's to fix), so every later sync skips it again; only the first names it and exits 3, the
later ones count it in a note and exit 0, until the record changes (a new CID) or another fails.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]


def sync(pds: LocalPds, project: Project, account: Account, *more: str) -> Result:
    env = {**project.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt"}
    return CliRunner().invoke(cli, ["sync", account.did, "--agent-id", "coder", "--profile-id", "default", *more],
                              env=env, catch_exceptions=False)


def memory(content: object) -> dict:
    return {"$type": RECORD_NSID, "content": content, "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference"}


def test_a_record_that_fails_its_lexicon_is_named_once_then_counted(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    """Regression: one invalid record written by another app made every sync exit 3 and repeat its
    error, forever."""
    repo = Repo(pds, account)
    repo.create(RECORD_NSID, memory("The user drinks tea."))
    bad = repo.create(RECORD_NSID, memory(42))  # content must be a string
    first = sync(pds, rushdb, account)
    assert first.exit_code == 3, first.output
    assert [line.split(": ")[1] for line in first.stderr.splitlines() if line.startswith("Error: ")] == [bad]

    repo.create(RECORD_NSID, memory("The user walks the dog."))  # a change: the sync reads a diff
    again = sync(pds, rushdb, account, "--json")
    assert again.exit_code == 0, again.output
    assert "Error:" not in again.stderr
    assert ("Note: 1 record named by an earlier sync, unchanged since, is still skipped (pdsmem verify lists it; "
            "fix or delete in the repository)") in again.stderr
    summary = json.loads(again.stdout.splitlines()[-1])["summary"]
    assert summary["failed"] == 1 and summary["knownFailed"] == 1
    unchanged = sync(pds, rushdb, account)
    assert unchanged.exit_code == 0 and "Error:" not in unchanged.stderr

    other = repo.create(RECORD_NSID, memory(["not", "text"]))  # a new bad record is named, the old one counted
    third = sync(pds, rushdb, account)
    assert third.exit_code == 3
    assert [line.split(": ")[1] for line in third.stderr.splitlines() if line.startswith("Error: ")] == [other]
    assert "Note: 1 record named by an earlier sync" in third.stderr
