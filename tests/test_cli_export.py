"""``pdsmem export`` output: the human summary, --json, --dry-run and exit codes (real PDS)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from support.events import episode, fact
from support.pds import Account, LocalPds

from pdsmem.cli import cli
from pdsmem.mapping.to_record import to_records


def held(pds: LocalPds, account: Account) -> list[str]:
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", timeout=30, params={
        "repo": account.did, "collection": "dev.bastienrobert.memory.record", "limit": 100})
    return sorted(record["uri"] for record in answer.json()["records"])


@pytest.mark.pds
def test_dry_run_then_export_then_a_rerun_that_writes_nothing(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    events = [fact(1), episode(2), fact(3, privacyScope="private")]
    memories = tmp_path / "memories.jsonl"
    memories.write_text("".join(json.dumps(e) + "\n" for e in events))
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}

    def export(*more: str) -> Result:
        return CliRunner().invoke(cli, ["export", "--to", account.handle, "--from", str(memories), *more],
                                  env=env, catch_exceptions=False)

    dry = export("--dry-run")
    assert dry.exit_code == 3
    assert dry.stdout == (
        f"dry run, would have: 2 created, 0 unchanged, 1 refused ({account.did}, 0 applyWrites batches)\n"
    )
    assert held(pds, account) == []

    first = export()
    assert first.stdout == f"2 created, 0 unchanged, 1 refused ({account.did}, 1 applyWrites batch)\n"
    expected, _ = to_records(events[:2], account.did)
    assert held(pds, account) == sorted(view.uri for view in expected)

    again = export("--json")
    assert again.exit_code == 3
    lines = [json.loads(line) for line in again.stdout.splitlines()]
    assert [(line["where"], line["status"]) for line in lines] == [
        ("memories.jsonl:1", "unchanged"), ("memories.jsonl:2", "unchanged"), ("memories.jsonl:3", "refused")]
    assert lines[0]["uri"] == expected[0].uri and lines[2]["uri"] is None
    assert again.stderr.startswith("Error: memories.jsonl:3: refused: memory ")

    memories.write_text(json.dumps(events[2]) + "\n")
    nothing = export()
    assert nothing.exit_code == 1  # nothing done: every memory refused
    assert nothing.stdout == f"0 created, 0 unchanged, 1 refused ({account.did}, 0 applyWrites batches)\n"


@pytest.mark.pds
def test_prune_with_an_unreadable_line_says_why_nothing_was_pruned(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """The wrong remedy would delete a wanted memory: the run exports, prunes nothing, says why."""
    memories = tmp_path / "memories.jsonl"
    lines = [json.dumps(fact(n)) for n in range(3)]
    memories.write_text("".join(line + "\n" for line in lines + [lines[0]]))
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    first = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", str(memories)], env=env)
    assert first.exit_code == 0, first.output  # a repeated memory is not a failure
    assert first.stdout == f"3 created, 0 unchanged, 1 duplicate ({account.did}, 1 applyWrites batch)\n"
    lines[1] = '{"eventType": "fact", "text": '  # cut off
    memories.write_text("".join(line + "\n" for line in lines))
    pruned = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", str(memories), "--prune"], env=env)
    assert pruned.exit_code == 3
    assert pruned.stdout == f"0 created, 2 unchanged, 1 failed ({account.did}, 0 applyWrites batches)\n"
    assert pruned.stderr.splitlines()[-1] == (
        "Note: nothing was pruned: 1 item of the source could not be read, and their records must "
        "not be taken for memories gone from it (fix them, then run the export with --prune again)"
    )
    assert len(held(pds, account)) == 3
