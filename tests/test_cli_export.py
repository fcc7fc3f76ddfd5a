"""``pdsmem export`` output: the human summary, --json, --dry-run and exit codes (real PDS)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds
from support.terminal import run_on_terminal

from pdsmem.cli import cli
from pdsmem.mapping.contract import with_ids
from pdsmem.mapping.to_record import to_records


def with_ids_all(events: list[dict]) -> list[dict]:
    return [with_ids(event) for event in events]


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
    *lines, last = [json.loads(line) for line in again.stdout.splitlines()]
    assert [(line["where"], line["status"]) for line in lines] == [
        ("memories.jsonl:1", "unchanged"), ("memories.jsonl:2", "unchanged"), ("memories.jsonl:3", "refused")]
    assert lines[0]["uri"] == expected[0].uri and lines[2]["uri"] is None
    assert [line["id"] for line in lines] == [e["factId"] if "factId" in e else e["eventId"] for e in with_ids_all(events)]
    assert last == {"summary": {
        "did": account.did, "dryRun": False, "batches": 0, "created": 0, "updated": 0, "unchanged": 2,
        "duplicate": 0, "deleted": 0, "inactive": 0, "refused": 1, "failed": 0, "conflict": 0,
        "pruneRefused": False}}
    assert again.stderr.startswith(
        'Error: memories.jsonl:3: refused: memory ')
    assert "The user prefers" not in again.stderr  # named by its place and id, never by its words

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


def _export(pds: LocalPds, account: Account, source: Path, *more: str) -> Result:
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    return CliRunner().invoke(cli, ["export", "--to", account.did, "--from", str(source), *more], env=env)


def _jsonl(path: Path, events: list[dict]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


@pytest.mark.pds
@pytest.mark.parametrize("empty", ["directory", "blank file", "whitespace lines"])
def test_an_empty_source_never_prunes(pds: LocalPds, account: Account, tmp_path: Path, empty: str) -> None:
    """Regression: an empty directory or a blank file with --prune deleted every record pdsmem wrote."""
    assert _export(pds, account, _jsonl(tmp_path / "m.jsonl", [fact(n) for n in range(5)])).exit_code == 0
    if empty == "directory":
        source = tmp_path / "empty"
        source.mkdir()
    else:
        source = tmp_path / "blank.jsonl"
        source.write_text("" if empty == "blank file" else "\n  \n\n")
    pruned = _export(pds, account, source, "--prune", "--confirm-prune")
    assert pruned.exit_code == 0, pruned.output
    assert pruned.stdout == f"0 created, 0 unchanged ({account.did}, 0 applyWrites batches)\n"
    assert "Note: nothing was pruned: the source holds no memories" in pruned.stderr
    assert len(held(pds, account)) == 5
    plain = _export(pds, account, source)  # without --prune, the note says why nothing happened
    assert plain.exit_code == 0, plain.output
    assert plain.stderr == "Note: the source holds no memories: nothing was exported\n"


@pytest.mark.pds
def test_a_prune_from_an_agents_outbox_deletes_nothing(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Regression: a new user's export --from a Hermes outbox --prune would have deleted the records
    of 6 of their 8 memories (stopped only by the 10% confirmation): the runtime deletes each file
    of its outbox once RushDB has it, so the outbox holds only what it has not sent yet."""
    import hashlib

    events = with_ids_all([fact(n) for n in range(8)])
    assert _export(pds, account, _jsonl(tmp_path / "all.jsonl", events)).exit_code == 0
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    for event in events[6:]:  # two not sent yet, named by their hash as the runtime names them
        name = hashlib.sha256(json.dumps(event, sort_keys=True).encode()).hexdigest()
        (outbox / f"{name}.json").write_text(json.dumps(event))
    pruned = _export(pds, account, outbox, "--prune", "--confirm-prune")
    assert pruned.exit_code == 0, pruned.output
    assert "Note: nothing was pruned: outbox/ is an agent runtime's outbox" in pruned.stderr
    assert "Deleted" not in pruned.stderr and len(held(pds, account)) == 8
    assert pruned.stdout.startswith("0 created, 2 unchanged")
    one = next(outbox.iterdir())  # a file of it, given alone
    alone = _export(pds, account, one, "--prune", "--confirm-prune")
    assert alone.exit_code == 0 and "Deleted" not in alone.stderr and len(held(pds, account)) == 8
    assert f"Note: nothing was pruned: {one.name} is a file of an agent runtime's outbox" in alone.stderr


@pytest.mark.pds
def test_prune_keeps_the_records_of_another_agents_memories(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Regression: after exporting big.jsonl, exporting small.jsonl --prune deleted big.jsonl's records,
    so two agents exporting to one repository deleted each other's memories."""
    big = _jsonl(tmp_path / "big.jsonl", [fact(n, agentId="planner") for n in range(6)])
    small = _jsonl(tmp_path / "small.jsonl", [fact(n, agentId="coder") for n in range(10, 12)])
    assert _export(pds, account, big).exit_code == 0
    assert _export(pds, account, small).exit_code == 0
    pruned = _export(pds, account, _jsonl(small, [fact(10, agentId="coder")]), "--prune")
    assert pruned.exit_code == 0, pruned.output
    assert pruned.stdout == f"0 created, 1 unchanged, 1 deleted ({account.did}, 1 applyWrites batch)\n"
    contents = sorted(record.split("/")[-1] for record in held(pds, account))
    assert len(contents) == 7  # the planner's six and the coder's one left in its source
    other_profile = _export(pds, account, _jsonl(tmp_path / "p.jsonl", [fact(10, agentId="coder", profileId="work")]),
                            "--prune", "--confirm-prune")
    assert other_profile.exit_code == 0 and "deleted" not in other_profile.stdout
    assert len(held(pds, account)) == 8


@pytest.mark.pds
def test_a_large_prune_is_refused_without_a_terminal_or_flag_and_listed_by_dry_run(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    source = _jsonl(tmp_path / "m.jsonl", [fact(n) for n in range(10)])
    assert _export(pds, account, source).exit_code == 0
    _jsonl(source, [fact(n) for n in range(7)])  # 3 of 10 gone: more than 10%

    dry = _export(pds, account, source, "--prune", "--dry-run", "--confirm-prune")
    assert dry.exit_code == 0, dry.output
    assert dry.stdout == f"dry run, would have: 0 created, 7 unchanged, 3 deleted ({account.did}, 0 applyWrites batches)\n"
    would = [line for line in dry.stderr.splitlines() if line.startswith("Would delete at://")]
    assert sorted(line.rsplit(" ", 1)[1] for line in would) == sorted(with_ids(fact(n))["factId"] for n in (7, 8, 9))
    assert "The user prefers" not in dry.stderr
    assert len(held(pds, account)) == 10

    # Regression: a dry run past the limit listed nothing and said to list them "with --dry-run"
    unconfirmed = _export(pds, account, source, "--prune", "--dry-run")
    assert "Would delete" not in unconfirmed.stderr
    assert "pass --confirm-prune with --dry-run" in unconfirmed.stderr, unconfirmed.stderr

    refused = _export(pds, account, source, "--prune")
    assert refused.exit_code == 3
    assert refused.stdout == f"0 created, 7 unchanged ({account.did}, 0 applyWrites batches)\n"
    assert ("Note: nothing was pruned: the prune would delete 3 of the 10 records pdsmem wrote for "
            "coder/default (agent/profile), more than 10%, and that was not confirmed") in refused.stderr
    assert "pass --confirm-prune" in refused.stderr
    assert len(held(pds, account)) == 10

    confirmed = _export(pds, account, source, "--prune", "--confirm-prune", "--json")
    assert confirmed.exit_code == 0, confirmed.output
    *lines, last = [json.loads(line) for line in confirmed.stdout.splitlines()]
    assert last["summary"]["deleted"] == 3 and last["summary"]["pruneRefused"] is False
    assert sorted(line["id"] for line in lines if line["status"] == "deleted") == sorted(
        with_ids(fact(n))["factId"] for n in (7, 8, 9))
    assert confirmed.stderr.count("Deleted at://") == 3
    assert len(held(pds, account)) == 7


@pytest.mark.pds
def test_a_large_prune_asks_on_a_terminal(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """On a terminal the prune lists the records it would delete and asks; "n" keeps them."""
    source = _jsonl(tmp_path / "m.jsonl", [fact(n) for n in range(4)])
    assert _export(pds, account, source).exit_code == 0
    _jsonl(source, [fact(0)])
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password,
           "PDSMEM_STATE_DIR": os.environ["PDSMEM_STATE_DIR"]}
    args = ["export", "--to", account.did, "--from", str(source), "--prune"]
    code, screen = run_on_terminal(args, env, answer="n")
    assert "The prune would delete 3 of the 4 records pdsmem wrote for this scope" in screen
    assert with_ids(fact(3))["factId"] in screen and "Delete them? [y/N]" in screen
    assert fact(3)["text"] not in screen
    assert code == 3 and len(held(pds, account)) == 4
    # Regression: the note after "n" told the person at the terminal to run the export on a terminal.
    assert "run the export on a terminal" not in screen
    assert "Note: the records stay, as answered; run the same export again to be asked again" in screen
    code, screen = run_on_terminal(args, env, answer="y")
    assert code == 0 and len(held(pds, account)) == 1


@pytest.mark.pds
def test_allow_refused_lets_known_refusals_exit_0_and_still_lists_them(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: every re-run of an export with refused memories exited 3, breaking cron. And
    a refusal it allows is a note, not an "Error:" in every cron mail (a new user's try)."""
    source = _jsonl(tmp_path / "m.jsonl", [fact(1), fact(2, privacyScope="private")])
    refused = _export(pds, account, source)
    assert refused.exit_code == 3 and refused.stderr.startswith("Error: m.jsonl:2: refused: ")
    allowed = _export(pds, account, source, "--allow-refused")
    assert allowed.exit_code == 0
    assert allowed.stderr.startswith("Note: m.jsonl:2: refused: ") and "Error:" not in allowed.stderr
    failing = _jsonl(tmp_path / "bad.jsonl", [fact(1), {"eventType": "fact"}, fact(3, privacyScope="private")])
    mixed = _export(pds, account, failing, "--allow-refused")
    assert mixed.exit_code == 3  # a failure is not a refusal
    assert "Error: bad.jsonl:2: failed: " in mixed.stderr and "Note: bad.jsonl:3: refused: " in mixed.stderr


@pytest.mark.pds
def test_refusals_alike_are_named_in_full_three_times_then_by_their_places(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: a first dry run of an agent whose memories are all private printed one line per
    memory, alike but for its id (39 in a new user's try), and the line that differed was lost
    among them. Each reason is named in full for three memories; the others of that reason by
    their places, on one line; --json still names every memory."""
    private = [fact(n, privacyScope="private") for n in range(1, 8)]
    source = _jsonl(tmp_path / "m.jsonl", [*private[:4], {"eventType": "fact"}, *private[4:]])
    result = _export(pds, account, source, "--dry-run")
    assert result.exit_code == 1  # nothing would be written
    lines = result.stderr.splitlines()
    assert [line.split(": refused: ")[0] for line in lines if ": refused: memory " in line] == [
        "Error: m.jsonl:1", "Error: m.jsonl:2", "Error: m.jsonl:3"]
    assert ("Error: 4 more refused for the same reason as m.jsonl:1: m.jsonl:4, m.jsonl:6, m.jsonl:7, m.jsonl:8 "
            "(--json names each with its memory's id)") in lines
    assert any(line.startswith("Error: m.jsonl:5: failed: ") for line in lines)  # the one that differs
    listed = _export(pds, account, source, "--dry-run", "--json")
    assert sorted(json.loads(line).get("where") for line in listed.stdout.splitlines()[:-1]) == sorted(
        f"m.jsonl:{n}" for n in range(1, 9))


@pytest.mark.pds
def test_export_reads_standard_input(pds: LocalPds, account: Account) -> None:
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    stdin = "".join(json.dumps(fact(n)) + "\n" for n in range(3)) + "{broken\n"
    result = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", "-"], env=env, input=stdin)
    assert result.exit_code == 3
    assert result.stdout == f"3 created, 0 unchanged, 1 failed ({account.did}, 1 applyWrites batch)\n"
    assert result.stderr.startswith("Error: stdin:4: failed: not valid JSON (")  # named once, by line


@pytest.mark.pds
def test_a_file_of_a_directory_that_cannot_be_read_is_not_told_to_fix_its_memory(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: a sub-directory or a link to nothing in the outbox ended "fix the memory in the
    source", though no memory was read from it; a memory that fails its checks still says so."""
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "bad.json").write_text(json.dumps({"eventType": "fact"}))
    (outbox / "gone.json").symlink_to(tmp_path / "nowhere.json")
    (outbox / "sub.json").mkdir()
    result = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", str(outbox)], env=env)
    assert result.exit_code == 1, result.output
    assert result.stdout == f"0 created, 0 unchanged, 3 failed ({account.did}, 0 applyWrites batches)\n"
    unreadable = "make it a readable JSON file or remove it from the directory, then run the export again"
    assert result.stderr.splitlines() == [
        "Error: outbox/bad.json: failed: at $.runtime: is required to compute the factId; fix the memory "
        "in the source, then run the export again",
        f"Error: outbox/gone.json: failed: cannot read the file: it is a link to a file that does not exist; "
        f"{unreadable}",
        f"Error: outbox/sub.json: failed: cannot read the file: it is a directory; {unreadable}",
    ]


@pytest.mark.pds
def test_what_a_directory_holds_that_is_not_read_is_named(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    """Found by a new user: a folder of memories as ``.txt`` files exported nothing and said only
    that the source holds no memories; a ``.JSON`` file was passed over as well."""
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "one.JSON").write_text(json.dumps(fact(1)))
    (outbox / "two.txt").write_text(json.dumps(fact(2)))
    (outbox / "archive").mkdir()
    (outbox / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
    result = _export(pds, account, outbox)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"1 created, 0 unchanged ({account.did}, 1 applyWrites batch)\n"
    assert result.stderr == (
        "Note: 2 entries of outbox/ not read: archive/, two.txt (a directory source reads its *.json and "
        "*.jsonl files, not the folders in it)\n"
    )


@pytest.mark.parametrize("option, what", [("--pds", "the PDS URL"), ("--plc", "the PLC directory URL")])
def test_a_url_option_whose_port_is_not_a_number_is_refused_in_words(option: str, what: str) -> None:
    """Regression: this read "Invalid value for '--pds': the PDS URL 'http://localhost:x' is not a
    URL: Invalid port: 'x'", httpx's words."""
    result = CliRunner().invoke(cli, ["export", "--to", "did:plc:abcdefghijklmnopqrstuvwx", "--from", "-", option,
                                      "http://localhost:x"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: Invalid value for '{option}': {what} 'http://localhost:x' has port 'x'; a port is a number "
        "from 1 to 65535 (write it in digits, as in https://host:8443, or leave it out for the scheme's default)"
    )


@pytest.mark.pds
def test_a_conflict_says_how_to_resolve_it_either_way_and_overwrite_conflict_does_one(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: the advice "import it first to keep both versions" led nowhere: importing does not
    change the source, and nothing could write the memory over the edit."""
    source = _jsonl(tmp_path / "m.jsonl", [fact(1), fact(2)])
    assert _export(pds, account, source).exit_code == 0
    first = to_records([with_ids(fact(1))], account.did)[0][0].uri
    rkey = first.rsplit("/", 1)[1]
    got = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.getRecord", timeout=30, params={
        "repo": account.did, "collection": "dev.bastienrobert.memory.record", "rkey": rkey}).json()
    put = httpx.post(f"{pds.url}/xrpc/com.atproto.repo.putRecord", headers=account.auth_headers, timeout=30, json={
        "repo": account.did, "collection": "dev.bastienrobert.memory.record", "rkey": rkey,
        "record": dict(got["value"], content="Edited on another app.")})
    assert put.status_code == 200, put.text
    _jsonl(source, [fact(1, confidence=0.5), fact(2, confidence=0.5)])  # both memories changed

    conflict = _export(pds, account, source)
    assert conflict.exit_code == 3
    assert (f": conflict: the record was changed on the PDS since pdsmem wrote or read it; left alone (to keep "
            "the PDS's version, import or sync it and change or remove the memory in the source to match; to "
            f"replace it with this memory, run the export again with --overwrite-conflict {first})") in conflict.stderr
    assert "import it first" not in conflict.stderr

    overwritten = _export(pds, account, source, "--overwrite-conflict", first)
    assert overwritten.exit_code == 0, overwritten.output
    assert overwritten.stdout.startswith("0 created, 1 updated, 1 unchanged (")
    now = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.getRecord", timeout=30, params={
        "repo": account.did, "collection": "dev.bastienrobert.memory.record", "rkey": rkey}).json()
    assert now["value"]["content"] == fact(1)["text"]
    assert _export(pds, account, source).stdout.startswith("0 created, 2 unchanged")


@pytest.mark.pds
def test_a_file_export_after_a_deletion_on_the_pds_leaves_it_deleted_and_status_lists_it(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    memories = tmp_path / "memories.jsonl"
    memories.write_text("".join(json.dumps(e) + "\n" for e in (fact(1), fact(2))))
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}

    def invoke(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)

    assert invoke("export", "--to", account.handle, "--from", str(memories)).exit_code == 0
    gone = held(pds, account)[0]
    login = httpx.post(f"{pds.url}/xrpc/com.atproto.server.createSession", timeout=30,
                       json={"identifier": account.did, "password": account.password}).json()
    httpx.post(f"{pds.url}/xrpc/com.atproto.repo.deleteRecord", timeout=30,
               headers={"Authorization": f"Bearer {login['accessJwt']}"},
               json={"repo": account.did, "collection": "dev.bastienrobert.memory.record",
                     "rkey": gone.rsplit("/", 1)[1]}).raise_for_status()

    again = invoke("export", "--to", account.handle, "--from", str(memories))
    assert again.exit_code == 3  # like a conflict: named on stderr, the rest done
    assert again.stdout.startswith("0 created, 1 unchanged") and "1 conflict" in again.stdout
    assert f"{gone} was deleted on the PDS after pdsmem wrote it" in again.stderr
    assert "--recreate-deleted" in again.stderr and gone not in held(pds, account)
    # named once: a scheduled export does not exit 3 on it every run after (it stays deleted)
    later = invoke("export", "--to", account.handle, "--from", str(memories))
    assert later.exit_code == 0, later.output
    assert "1 conflict" in later.stdout and "Error" not in later.stderr and gone not in held(pds, account)
    assert ("Note: 1 memory whose record (or a record of the same words, or of a fact it edits) the person "
            "deleted on the PDS, as an earlier run found, stays off it") in later.stderr
    as_json = [json.loads(line) for line in
               invoke("export", "--to", account.handle, "--from", str(memories), "--json").stdout.splitlines()]
    assert [line.get("known") for line in as_json if line.get("status") == "conflict"] == [True]
    status = invoke("status")
    assert "Records pdsmem wrote and someone deleted on the PDS" in status.stdout and gone in status.stdout
    assert invoke("export", "--to", account.handle, "--from", str(memories), "--recreate-deleted").exit_code == 0
    assert gone in held(pds, account) and gone not in invoke("status").stdout


@pytest.mark.pds
def test_the_bare_events_of_an_import_go_back_onto_their_records(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression (an outside try with the atproto SDK): exporting the events ``import`` printed,
    without their records, into the same account made a second record of each memory, which the
    next import listed as new memories. An event whose sourceEventId is the at-uri of a record of
    this repository now goes onto that record, as its whole import line does."""
    collection = "dev.bastienrobert.memory.record"
    written = []
    for text in ("likes green tea", "works from Lyon on Fridays"):
        response = httpx.post(
            f"{pds.url}/xrpc/com.atproto.repo.createRecord", headers=account.auth_headers, timeout=30,
            json={"repo": account.did, "collection": collection, "validate": False, "record": {
                "$type": collection, "content": text, "createdAt": "2026-01-02T03:04:05.000Z",
                "com.example.mood": "calm"}})
        assert response.status_code == 200, response.text
        written.append(response.json()["uri"])
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password,
           "PDSMEM_STATE_DIR": str(tmp_path / "state")}
    scope = ["--agent-id", "coder", "--profile-id", "default", "--accept-unsalted-scope"]

    def invoke(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)

    imported = invoke("import", "--from", account.handle, *scope)
    assert imported.exit_code == 0, imported.stderr
    events = [json.loads(line)["event"] for line in imported.stdout.splitlines()]
    assert len(events) == 2
    bare = tmp_path / "events.jsonl"
    bare.write_text("".join(json.dumps(event) + "\n" for event in events))

    exported = invoke("export", "--to", account.handle, "--from", str(bare))
    assert exported.exit_code == 0, exported.stderr
    assert held(pds, account) == sorted(written)  # no second record of either memory
    assert "0 created" in exported.stdout
    again = invoke("export", "--to", account.handle, "--from", str(bare))
    assert again.stdout.startswith("0 created, 2 unchanged"), again.stdout
    for uri in written:  # the other app's field is kept
        record = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.getRecord", timeout=30, params={
            "repo": account.did, "collection": collection, "rkey": uri.rsplit("/", 1)[1]}).json()["value"]
        assert record["com.example.mood"] == "calm"
    reimported = invoke("import", "--from", account.handle, *scope)
    created = [json.loads(line) for line in reimported.stdout.splitlines() if json.loads(line)["op"] == "create"]
    assert created == []
