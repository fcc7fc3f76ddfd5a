"""No output of any command quotes a memory's text, whatever refuses it (a refusal printed a
secret). Each refusal path gets a memory holding a secret, and every line pdsmem prints for it,
on stdout and stderr, in human and ``--json`` form, is searched for the secret and for the
memory's first words."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds

from pdsmem.cli import cli
from pdsmem.mapping.contract import with_ids
from pdsmem.mapping.to_record import to_records

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
SECRET = "Hunter2024!xyz"
OPENING = "Remember for later"  # a memory's first words, which the old messages quoted

# One memory per refusal path, each holding SECRET in what it would publish or in its words.
CASES = {
    "private": fact(1, text=f"{OPENING}: the wifi password is {SECRET}", privacyScope="private"),
    "participant": fact(2, text=f"{OPENING}: the wifi password is {SECRET}", visibility="participant"),
    "secret": fact(3, text=f"{OPENING}: the wifi password is {SECRET}"),
    "card": fact(4, text=f"{OPENING}: {SECRET} card 4111 1111 1111 1111, exp 12/28, CVV 123"),
    "transcript": episode(5, userText=f"{OPENING}: my password is {SECRET}",
                          assistantText="Noted.", summary=f"{OPENING}, the user shared a password"),
    "summary-repeats-turn": episode(6, userText=f"{OPENING} {SECRET}", assistantText="ok",
                                    summary=f"User: {OPENING} {SECRET}\nAssistant: ok"),
    "lexicon": fact(7, text=f"{OPENING} {SECRET} " + "x" * 10_001),
    "contract": {**fact(8, text=f"{OPENING} {SECRET}"), "confidence": f"{OPENING} {SECRET}"},
    "bad-kind": {**fact(9, text=f"{OPENING} {SECRET}"), "kind": [f"{OPENING} {SECRET}"]},
    "bad-date": {**fact(10, text=f"{OPENING} {SECRET}"), "validFrom": f"{OPENING} {SECRET}"},
    # found by a review: an id that is no id, and a property's name, were quoted whole
    "supersedes": {**fact(11, text="The user likes tea."), "supersedesFactId": f"{OPENING} {SECRET}"},
    "unknown-key": {**fact(12, text="The user likes tea."), f"note {OPENING} {SECRET}": 1},
}


def lines_of(events: list[dict]) -> str:
    return "".join(json.dumps(event) + "\n" for event in events)


def assert_silent(result: Result, where: str) -> None:
    output = result.stdout + result.stderr
    assert SECRET not in output, f"{where}: the secret was printed:\n{output}"
    assert OPENING not in output, f"{where}: the memory's words were printed:\n{output}"


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("flags", [[], ["--include-transcript"], ["--publish-private"]])
def test_convert_to_record_names_a_refused_memory_by_its_place_and_id(name, flags):
    result = CliRunner().invoke(cli, ["convert", "to-record", "--did", DID, *flags], input=lines_of([CASES[name]]))
    if result.exit_code == 0:  # converted: its record on stdout is the data asked for, not a message
        asked = "--include-transcript" in flags
        assert (name, asked) in {("transcript", False), ("summary-repeats-turn", True)}, result.output
        return
    assert "line 1" in result.stderr
    assert_silent(result, f"convert to-record {name} {flags}")


def test_a_card_number_in_a_wrong_field_is_not_quoted():
    event = {**fact(13, text="The user likes tea."), "confidence": "4111 1111 1111 1111"}
    result = CliRunner().invoke(cli, ["convert", "to-record", "--did", DID], input=lines_of([event]))
    assert result.exit_code != 0 and "1111" not in result.stderr, result.stderr


def test_ids_names_a_bad_memory_by_its_place():
    result = CliRunner().invoke(cli, ["ids"], input=lines_of([CASES["contract"], CASES["bad-kind"]]))
    assert result.exit_code == 1
    assert_silent(result, "ids")


@pytest.mark.pds
def test_export_never_prints_a_refused_or_conflicting_memory(pds: LocalPds, account: Account, tmp_path: Path):
    """Every refusal of a real export (dry run, human and --json), and a conflict: a record the
    person edited on the PDS, which the next export leaves alone and reports."""
    memories = tmp_path / "memories.jsonl"
    kept = fact(20, text=f"{OPENING}: the user likes green tea")
    memories.write_text(lines_of([*CASES.values(), kept]))
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}

    def export(*more: str) -> Result:
        return CliRunner().invoke(cli, ["export", "--to", account.handle, "--from", str(memories), *more],
                                  env=env, catch_exceptions=False)

    for flags in ([], ["--dry-run"], ["--json"], ["--dry-run", "--json"], ["--include-transcript"]):
        result = export(*flags)
        assert result.exit_code == 3, result.output
        assert_silent(result, f"export {flags}")

    # someone edits the exported record on the PDS: the next export reports a conflict
    view = to_records([with_ids(kept)], account.did)[0][0]
    session = httpx.post(f"{pds.url}/xrpc/com.atproto.server.createSession", timeout=30,
                         json={"identifier": account.did, "password": account.password}).json()
    edited = {**view.value, "content": f"{OPENING}: edited elsewhere, {SECRET}"}
    answer = httpx.post(f"{pds.url}/xrpc/com.atproto.repo.putRecord", timeout=30,
                        headers={"Authorization": f"Bearer {session['accessJwt']}"},
                        json={"repo": account.did, "collection": view.uri.split("/")[3],
                              "rkey": view.uri.rsplit("/", 1)[1], "record": edited})
    assert answer.status_code == 200, answer.text
    memories.write_text(lines_of([{**kept, "confidence": 0.5}]))  # the same memory, changed: an update
    for flags in ([], ["--json"]):
        result = export(*flags)
        assert "conflict" in result.stdout + result.stderr
        assert_silent(result, f"export after an edit {flags}")


def test_a_record_whose_fields_hold_words_is_not_quoted():
    """Regression (a review): validate and from-record quoted a bad datetime, at-uri or CID whole."""
    view = to_records([with_ids(fact(30, text="The user likes tea."))], DID)[0][0]
    bad = {"uri": view.uri, "cid": view.cid, "value": {**view.value, "createdAt": f"{OPENING} {SECRET}"}}
    for args in (["validate"], ["convert", "from-record", "--did", DID, "--agent-id", "coder", "--profile-id",
                                "default", "--accept-unsalted-scope"]):
        result = CliRunner().invoke(cli, args, input=json.dumps(bad) + "\n")
        assert result.exit_code != 0, result.output
        assert_silent(result, " ".join(args))
    wrong_uri = {**bad, "value": view.value, "uri": f"{OPENING} {SECRET}"}
    result = CliRunner().invoke(cli, ["validate"], input=json.dumps(wrong_uri) + "\n")
    assert result.exit_code != 0 and SECRET not in result.output, result.output


def test_a_pin_in_a_source_event_id_on_two_lines_is_refused_and_not_quoted():
    """A by-hand try: a sourceEventId of "PIN", a line break and the PIN was published."""
    event = {**fact(14, text="The user likes tea."), "sourceEventId": "PIN\n4827"}
    result = CliRunner().invoke(cli, ["convert", "to-record", "--did", DID], input=lines_of([event]))
    assert result.exit_code != 0, result.output
    assert "sourceEventId" in result.stderr and "4827" not in result.stdout + result.stderr, result.stderr
