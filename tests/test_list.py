"""``pdsmem list`` against the real local PDS and RushDB server: a scope's memories as RushDB holds
them, active and inactive, with the records they came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project
from support.rushdb_view import client
from support.terminal import run_on_terminal
from test_input_docs import readme_events
from test_sync import SALT, SCOPE_ARGS, put_memory, record, run, summary, sync

from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.contract import participant_hash_for_did, with_ids
from pdsmem.mapping.to_record import to_record

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

LONG = "The user keeps a long diary of every trip taken by train across the whole of Europe since 2019."


def by_text(lines: list[dict]) -> dict[str, dict]:
    return {line["text"]: line for line in lines if "summary" not in line}


def test_list_shows_every_memory_of_the_scope_with_its_state_and_origin(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    tea = put_memory(repo, record("The user drinks tea."))
    coffee = put_memory(repo, record("The user now drinks coffee.", supersedes=[tea]))
    gone = put_memory(repo, record("The user lived in Lyon."))
    long = put_memory(repo, record(LONG))
    turn = put_memory(repo, to_record(episode(3, summary="The user asked about trains."), account.did).value)
    summary(sync(pds, rushdb, account, "--json"))
    repo.delete(RECORD_NSID, gone.rsplit("/", 1)[1])
    summary(sync(pds, rushdb, account, "--json"))
    scope = {"agentId": "coder", "profileId": "default", "privacyScope": "shared", "sandboxEligible": False,
             "participantScopeHash": participant_hash_for_did(account.did, SALT)}
    direct = with_ids(fact(1, **scope, text="The user works from Lisbon.", provenance="hermes:sync_turn"))
    client(rushdb).records.import_json([direct], "MEMORY_FACT", {"suggestTypes": True, "returnResult": False})

    listed = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, "--json")
    assert listed.exit_code == 0 and listed.stderr == "", listed.output
    *lines, last = [json.loads(line) for line in listed.stdout.splitlines()]
    assert last["summary"] == {"memories": 6, "facts": 5, "episodes": 1, "active": 4, "inactive": 2, "removed": 1,
                               "fromRecords": 5, "rushdb": rushdb.url}
    *facts, trip = lines
    assert (trip["label"], trip["kind"], trip["active"], trip["text"]) == ("EPISODE", "episode", True,
                                                                          "The user asked about trains.")
    assert [r["uri"] for r in trip["records"]] == [turn] and trip["at"] == episode(3)["observedAt"]
    memories = by_text(facts)
    assert set(memories) == {"The user drinks tea.", "The user now drinks coffee.", "The user lived in Lyon.", LONG,
                             "The user works from Lisbon."}
    state = {text: (m["active"], m["retired"], [(r["uri"], r["deleted"]) for r in m["records"]])
             for text, m in memories.items()}
    assert state == {
        "The user drinks tea.": (False, False, [(tea, False)]),  # superseded
        "The user now drinks coffee.": (True, False, [(coffee, False)]),
        "The user lived in Lyon.": (False, True, [(gone, True)]),  # its record deleted
        LONG: (True, False, [(long, False)]),
        "The user works from Lisbon.": (True, False, []),  # written by the runtime, no record
    }
    assert memories["The user works from Lisbon."]["runtime"] == "hermes"
    assert memories["The user works from Lisbon."]["id"] == direct["factId"]
    assert memories["The user now drinks coffee."]["supersedes"] == [memories["The user drinks tea."]["id"]]

    table = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did)
    assert table.exit_code == 0 and table.stderr == "", table.output
    header, *rows, total = table.stdout.splitlines()
    assert header.split() == ["STATE", "TYPE", "ID", "FROM", "TEXT"]
    assert len(rows) == 6 and total.startswith("6 memories of this scope in RushDB at ")
    assert rows[-1].split()[:2] == ["active", "episode"] and turn in rows[-1]  # facts, then episodes
    row = {line.split()[-1]: line for line in rows if "Lisbon" in line or "coffee" in line}
    assert "written by hermes" in row["Lisbon."] and row["Lisbon."].startswith("active")
    assert coffee in row["coffee."]
    assert any(line.startswith("removed") and f"{gone} (deleted)" in line for line in rows)
    assert LONG not in table.stdout and any(line.endswith(LONG[:47] + "…") for line in rows)  # cut to a column


def test_list_of_a_scope_that_holds_nothing_says_so_without_failing(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    put_memory(Repo(pds, account), record("The user drinks tea."))
    summary(sync(pds, rushdb, account, "--json"))
    other = run(pds, rushdb, "list", "--agent-id", "coder", "--profile-id", "other", "--did", account.did, "--json")
    assert other.exit_code == 0
    assert json.loads(other.stdout)["summary"]["memories"] == 0
    assert other.stderr.startswith(f"Note: RushDB at {rushdb.url} holds no memories of this scope: check --agent-id")
    unsalted = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, MEMORY_SCOPE_SALT="")
    assert unsalted.exit_code == 2 and "salt" in unsalted.stderr



def test_list_withholds_in_its_table_a_text_the_privacy_gate_refuses(pds: LocalPds, account: Account,
                                                                     rushdb: Project) -> None:
    """A new user's try with Hermes: the table printed a wifi password, an access key and a card's
    number whole, which export refuses as secrets; a terminal is seen and logged. --json, the data
    a program asked for, holds the text."""
    scope = {"agentId": "coder", "profileId": "default", "privacyScope": "shared", "sandboxEligible": False,
             "participantScopeHash": participant_hash_for_did(account.did, SALT)}
    secret = with_ids(fact(1, **scope, text="The wifi password at home is Kestrel!Moon77."))
    plain = with_ids(fact(2, **scope, text="The user works from Lisbon."))
    client(rushdb).records.import_json([secret, plain], "MEMORY_FACT", {"suggestTypes": True, "returnResult": False})
    table = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did)
    assert table.exit_code == 0, table.output
    assert "Kestrel" not in table.output and "wifi" not in table.output
    assert any(secret["factId"][:12] in line and "(withheld: it looks like" in line for line in table.stdout.splitlines())
    assert "The user works from Lisbon." in table.stdout
    data = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, "--json")
    assert secret["text"] in {json.loads(line).get("text") for line in data.stdout.splitlines()}
    # recall: on a terminal, withheld too; piped to a program (an agent), whole
    query = ["recall", "Where does the user work, and the wifi password?", *SCOPE_ARGS, "--did", account.did]
    env = {**rushdb.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT}
    code, screen = run_on_terminal(query, env)
    assert code == 0, screen
    assert "Kestrel" not in screen and "(withheld: it looks like" in screen and "The user works from Lisbon." in screen
    piped = run(pds, rushdb, *query)
    assert piped.exit_code == 0 and secret["text"] in piped.stdout


def test_list_errors_say_what_to_fix(pds: LocalPds, account: Account, rushdb: Project) -> None:
    wrong_key = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, RUSHDB_API_KEY="not-the-key")
    assert wrong_key.exit_code == 1 and wrong_key.stdout == ""
    assert wrong_key.stderr.startswith(f"Error: RushDB at {rushdb.url} refused the API key")
    assert "not-the-key" not in wrong_key.stderr
    nobody = run(pds, rushdb, "list", *SCOPE_ARGS)
    assert nobody.exit_code == 2 and "pass --did (the participant's repository) or --participant-scope-hash" in \
        nobody.stderr
    bad_hash = run(pds, rushdb, "list", *SCOPE_ARGS, "--participant-scope-hash", "user-42")
    assert bad_hash.exit_code == 2 and "must be 64 lowercase hexadecimal digits" in bad_hash.stderr
    down = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, RUSHDB_API_URL="http://127.0.0.1:9")
    assert down.exit_code == 1 and down.stderr.startswith("Error: cannot reach RushDB at http://127.0.0.1:9")
    assert "Traceback" not in down.output + down.stderr


def test_the_readme_events_exported_synced_listed_and_recalled(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    """A newcomer's hour: the README's input lines, as a file, through the README's commands."""
    events = tmp_path / "memories.jsonl"
    events.write_text("\n".join(readme_events()) + "\n", encoding="utf-8")
    exported = run(pds, rushdb, "export", "--to", account.did, "--from", str(events), "--json",
                   ATP_AUTH_PASSWORD=account.password)
    assert exported.exit_code == 0, exported.output
    assert summary(sync(pds, rushdb, account, "--json"))["created"] == 2
    listed = run(pds, rushdb, "list", *SCOPE_ARGS, "--did", account.did, "--json")
    *lines, last = [json.loads(line) for line in listed.stdout.splitlines()]
    assert [(m["label"], m["active"], len(m["records"])) for m in lines] == [("MEMORY_FACT", True, 1),
                                                                             ("EPISODE", True, 1)]
    assert last["summary"]["memories"] == 2
    recalled = run(pds, rushdb, "recall", "Which language for the billing service?", *SCOPE_ARGS, "--did",
                   account.did, "--json")
    *hits, last = [json.loads(line) for line in recalled.stdout.splitlines()]
    assert {hit["text"] for hit in hits} == {"The user prefers TypeScript for the billing service.",
                                             "The user chose TypeScript for the billing service."}
