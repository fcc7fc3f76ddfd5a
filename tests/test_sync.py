"""``pdsmem sync``, ``recall``, ``ensure-indexes`` and ``export --from rushdb`` against the real
local PDS and the real local RushDB server (each test in a project of its own)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import jsonschema
import pytest
from click.testing import CliRunner, Result
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds, Repo
from devkit.repo_builder import COLLECTION, Breakage, Keypair, build_repo, tid
from devkit.rushdb import LocalRushDB, Project
from support.rushdb_view import EmbeddingsServer, client, records, snapshot

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.contract import participant_hash_for_did
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import ImportScope, RecordView
from pdsmem.mapping.to_record import to_record

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

SALT = "sync-salt"
CONTRACT = jsonschema.Draft202012Validator(json.loads(
    (Path(__file__).parent / "fixtures/contract/agent-memory-event.v1.schema.json").read_text()))
SCOPE_ARGS = ["--agent-id", "coder", "--profile-id", "default"]


def run(pds: LocalPds, project: Project, *args: str, **env: str) -> Result:
    environment = {**project.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                   **env}
    return CliRunner().invoke(cli, list(args), env=environment, catch_exceptions=False)


def sync(pds: LocalPds, project: Project, account: Account, *more: str, **env: str) -> Result:
    return run(pds, project, "sync", account.did, *SCOPE_ARGS, *more, **env)


def summary(result: Result) -> dict:
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout.splitlines()[-1])["summary"]


def assert_contract_rows(*held: dict) -> None:
    """Each memory row valid against the published AgentMemoryEvent v1 schema, as it is."""
    for row in held:
        CONTRACT.validate(rows.plain(row))


def put_memory(repo: Repo, value: dict) -> str:
    return repo.create(RECORD_NSID, value)


def record(content: str, **fields) -> dict:
    return {"$type": RECORD_NSID, "content": content, "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference",
            **fields}


def imported(account: Account, repo_records: dict[str, dict], profile: str = "default") -> dict[str, dict]:
    """uri → the event pdsmem's mapper makes of each record in this scope (the reference)."""
    views = [RecordView.from_json({"uri": uri, "value": value}) for uri, value in repo_records.items()]
    ok, failed = from_records(views, ImportScope(did=account.did, agent_id="coder", profile_id=profile, salt=SALT))
    assert not failed
    return {item.record.uri: item for item in ok}


def test_sync_writes_each_memory_its_mirror_and_links_and_a_second_sync_writes_nothing(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    repo.create("app.example.note", {"$type": "app.example.note", "text": "not a memory"})
    tea = record("The user drinks tea.")
    tea_uri = put_memory(repo, tea)
    coffee = record("The user now drinks coffee.", supersedes=[tea_uri], **{"app.example.extra": {"kept": True}})
    coffee_uri = put_memory(repo, coffee)
    turn = to_record(episode(3), account.did).value  # as pdsmem exports an episode
    turn_uri = put_memory(repo, turn)

    first = summary(sync(pds, rushdb, account, "--json"))
    assert (first["created"], first["updated"], first["deleted"], first["failed"]) == (3, 0, 0, 0)
    assert first["written"] == {"memories": 3, "mirrors": 3, "deactivated": 0}

    expected = imported(account, {tea_uri: tea, coffee_uri: coffee, turn_uri: turn})
    held = snapshot(rushdb)
    facts = {e.event["factId"]: e for e in expected.values() if e.event["eventType"] == "fact"}
    assert set(held["MEMORY_FACT"]) == set(facts)
    for fact_id, item in facts.items():
        assert held["MEMORY_FACT"][fact_id] == rows.memory_row(item.event)
        assert_contract_rows(held["MEMORY_FACT"][fact_id])
    tea_id, coffee_id = expected[tea_uri].event["factId"], expected[coffee_uri].event["factId"]
    assert held["MEMORY_FACT"][tea_id]["active"] is False  # superseded, kept as history
    assert held["MEMORY_FACT"][coffee_id]["supersedesFactId"] == tea_id
    episode_id = expected[turn_uri].event["eventId"]
    assert held["EPISODE"] == {episode_id: rows.memory_row(expected[turn_uri].event)}

    mirrors = {m["uri"]: m for m in held["ATPROTO_RECORD"].values()}
    assert set(mirrors) == {tea_uri, coffee_uri, turn_uri}
    assert json.loads(mirrors[coffee_uri]["raw"]) == coffee  # the record whole, unknown fields kept
    assert mirrors[coffee_uri]["memoryId"] == coffee_id and mirrors[coffee_uri]["deleted"] is False
    assert mirrors[coffee_uri]["supersedesFactIds"] == [tea_id] and mirrors[tea_uri]["supersedesFactIds"] == []
    assert {mirrors[coffee_uri][name] for name in ("agentId", "profileId")} == {"coder", "default"}
    keys = {uri: f"ATPROTO_RECORD:{rows.mirror_key(uri, expected[uri].event)}" for uri in mirrors}
    assert held["relationships"] == sorted([
        ("RECORDED_AS", f"MEMORY_FACT:{tea_id}", keys[tea_uri]),
        ("RECORDED_AS", f"MEMORY_FACT:{coffee_id}", keys[coffee_uri]),
        ("RECORDED_AS", f"EPISODE:{episode_id}", keys[turn_uri]),
        ("SUPERSEDES", keys[coffee_uri], f"MEMORY_FACT:{tea_id}"),
    ])

    again = sync(pds, rushdb, account)
    assert again.exit_code == 0
    assert again.stdout.endswith("(nothing changed since the last sync) into RushDB at "
                                 f"{rushdb.url}: 0 created, 0 merged, 0 updated, 3 unchanged, 0 kept deleted, 0 retired, "
                                 "0 deleted, 0 failed; wrote 0 memories, 0 mirrors, 0 deactivated\n")
    assert snapshot(rushdb) == held
    full = summary(sync(pds, rushdb, account, "--full", "--json"))  # every record read again
    assert (full["created"], full["merged"], full["updated"], full["unchanged"], full["retired"]) == (0, 0, 0, 3, 0)
    assert full["written"] == {"memories": 0, "mirrors": 0, "deactivated": 0}  # nothing changed: nothing written


def test_a_memory_deleted_in_rushdb_stays_deleted_until_asked_and_a_dry_run_counts_what_a_sync_does(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    # An agent's "forget", or its operator, deletes a memory row a sync wrote. Its record, unchanged,
    # is read again by every full read: that is no reason to bring the memory back.
    repo = Repo(pds, account)
    tea = put_memory(repo, record("The user drinks tea."))
    lyon_uri = put_memory(repo, record("The user lives in Lyon."))
    summary(sync(pds, rushdb, account, "--json"))
    held = snapshot(rushdb)
    [lyon] = [row for row in records(rushdb, "MEMORY_FACT") if "Lyon" in row["text"]]
    client(rushdb).records.delete_by_id(lyon["__id"])
    without = snapshot(rushdb)

    would = summary(sync(pds, rushdb, account, "--full", "--dry-run", "--json"))
    full = summary(sync(pds, rushdb, account, "--full", "--json"))
    counted = ("created", "merged", "updated", "unchanged", "keptDeleted", "retired", "deleted", "failed")
    assert [would[name] for name in counted] == [full[name] for name in counted] == [0, 0, 0, 1, 1, 0, 0, 0]
    assert full["written"] == {"memories": 0, "mirrors": 0, "deactivated": 0}
    assert "stays deleted" in full["notes"][0] and "Lyon" not in json.dumps(full)
    assert snapshot(rushdb) == without

    refused = sync(pds, rushdb, account, "--recreate-deleted")  # a diff read never sees the record
    assert refused.exit_code == 2 and "pass --full" in refused.output
    again = summary(sync(pds, rushdb, account, "--full", "--recreate-deleted", "--json"))
    assert (again["created"], again["keptDeleted"], again["written"]["memories"]) == (1, 0, 1)
    assert snapshot(rushdb) == held  # the memory as it was, linked to its mirror and its scope

    # a dry run of a diff counts as the sync then does: a new record, an edited one, a deleted one
    put_memory(repo, record("The user reads at night."))
    repo.put(RECORD_NSID, tea.rsplit("/", 1)[1], record("The user drinks green tea."))
    repo.delete(RECORD_NSID, lyon_uri.rsplit("/", 1)[1])
    would = summary(sync(pds, rushdb, account, "--dry-run", "--json"))
    assert snapshot(rushdb) == held
    done = summary(sync(pds, rushdb, account, "--json"))
    assert [would[name] for name in counted] == [done[name] for name in counted]
    assert (done["created"], done["retired"], done["deleted"]) == (2, 2, 1)


def test_supersession_chains_several_links_edits_and_deletions_end_with_the_right_facts_active(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    a = put_memory(repo, record("A: the first"))
    b = put_memory(repo, record("B: replaces A", supersedes=[a]))
    c = put_memory(repo, record("C: replaces B", supersedes=[b]))
    x = put_memory(repo, record("X: on its own"))
    y = put_memory(repo, record("Y: on its own too"))
    summary(sync(pds, rushdb, account, "--json"))

    def active() -> dict[str, bool]:
        return {f["text"].split(":")[0]: f["active"] for f in records(rushdb, "MEMORY_FACT")}

    assert active() == {"A": False, "B": False, "C": True, "X": True, "Y": True}
    z = put_memory(repo, record("Z: replaces X and Y", supersedes=[x, y]))  # several at once
    summary(sync(pds, rushdb, account, "--json"))
    assert active() == {"A": False, "B": False, "C": True, "X": False, "Y": False, "Z": True}
    z_fact = next(f for f in records(rushdb, "MEMORY_FACT") if f["text"].startswith("Z"))
    z_mirror = next(m for m in records(rushdb, "ATPROTO_RECORD") if m["uri"] == z)
    assert len(z_mirror["supersedesFactIds"]) == 2 and "supersedesFactIds" not in z_fact  # the record's, not the fact's
    assert_contract_rows(*records(rushdb, "MEMORY_FACT"))

    repo.delete(RECORD_NSID, c.rsplit("/", 1)[1])  # deleted on the PDS: C inactive, B active again
    repo.put(RECORD_NSID, z.rsplit("/", 1)[1], record("Z: replaces X and Y", supersedes=[x]))  # one link dropped
    done = summary(sync(pds, rushdb, account, "--json"))
    assert done["deleted"] == 1 and done["written"]["deactivated"] == 1
    assert active() == {"A": False, "B": True, "C": False, "X": False, "Y": True, "Z": True}
    mirror_of_c = [m for m in records(rushdb, "ATPROTO_RECORD") if m["uri"] == c]
    assert [m["deleted"] for m in mirror_of_c] == [True]  # nothing is hard-deleted
    supersedes = [link for link in snapshot(rushdb)["relationships"] if link[0] == "SUPERSEDES"]
    texts = {f"MEMORY_FACT:{f['factId']}": f["text"][0] for f in records(rushdb, "MEMORY_FACT")}
    texts |= {f"ATPROTO_RECORD:{m['mirrorKey']}": texts[f"MEMORY_FACT:{m['memoryId']}"]
              for m in records(rushdb, "ATPROTO_RECORD")}
    # C's record is gone: C supersedes nothing any more (B is active again), so its link goes too.
    assert sorted((texts[s], texts[t]) for _, s, t in supersedes) == [("B", "A"), ("Z", "X")]

    edited = put_memory(repo, record("E: first words"))
    summary(sync(pds, rushdb, account, "--json"))
    repo.put(RECORD_NSID, edited.rsplit("/", 1)[1], record("E: other words"))  # a new text: a new fact id
    summary(sync(pds, rushdb, account, "--json"))
    e_facts = {f["text"]: f["active"] for f in records(rushdb, "MEMORY_FACT") if f["text"].startswith("E")}
    assert e_facts == {"E: first words": False, "E: other words": True}
    [mirror] = [m for m in records(rushdb, "ATPROTO_RECORD") if m["uri"] == edited]
    recorded = [link for link in snapshot(rushdb)["relationships"] if link[0] == "RECORDED_AS"
                and link[2] == f"ATPROTO_RECORD:{mirror['mirrorKey']}"]
    assert recorded == [("RECORDED_AS", f"MEMORY_FACT:{mirror['memoryId']}", f"ATPROTO_RECORD:{mirror['mirrorKey']}")]


def test_fields_inside_a_record_cannot_set_scope_trust_or_ids(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    victim = put_memory(repo, record("The real memory."))
    summary(sync(pds, rushdb, account, "--json"))
    [real] = records(rushdb, "MEMORY_FACT")
    forged_ext = {"eventType": "fact", "id": real["factId"], "proof": "0" * 64, "runtime": "hermes",
                  "trustClass": "trusted", "visibility": "participant", "sourceEventId": victim}
    forged = record("Forged: overwrite the real one.", agentId="root", profileId="admin", privacyScope="private",
                    participantScopeHash="f" * 64, sandboxEligible=True, factId=real["factId"], active=False,
                    **{"dev.pdsmem.agentMemory": forged_ext})
    put_memory(repo, forged)
    summary(sync(pds, rushdb, account, "--json"))
    facts = {f["text"]: f for f in records(rushdb, "MEMORY_FACT")}
    assert facts["The real memory."] == real  # untouched
    made = facts["Forged: overwrite the real one."]
    assert made["factId"] != real["factId"] and made["active"] is True
    assert (made["agentId"], made["profileId"], made["privacyScope"], made["sandboxEligible"]) == (
        "coder", "default", "shared", False)
    assert made["participantScopeHash"] == participant_hash_for_did(account.did, SALT)
    assert (made["trustClass"], made["visibility"], made["runtime"]) == ("untrusted", "shared", "custom")


def test_two_profiles_and_two_users_never_see_each_others_memories(
    pds: LocalPds, rushdb: Project
) -> None:
    alice, bob = pds.create_account("alice"), pds.create_account("bob")
    put_memory(Repo(pds, alice), record("Alice likes tea."))
    put_memory(Repo(pds, bob), record("Bob likes tea."))
    summary(sync(pds, rushdb, alice, "--json"))
    summary(run(pds, rushdb, "sync", alice.did, "--agent-id", "coder", "--profile-id", "work", "--json"))
    summary(sync(pds, rushdb, bob, "--json"))
    assert len(records(rushdb, "MEMORY_FACT")) == 3 and len(records(rushdb, "ATPROTO_RECORD")) == 3

    def recalled(did: str, profile: str) -> list[tuple[str, str]]:
        result = run(pds, rushdb, "recall", "who likes tea", "--agent-id", "coder", "--profile-id", profile,
                     "--did", did, "--json")
        assert result.exit_code == 0, result.output
        *hits, last = [json.loads(line) for line in result.stdout.splitlines()]
        assert last["summary"]["hits"] == len(hits)
        return [(hit["label"], hit["text"]) for hit in hits]

    assert recalled(alice.did, "default") == [("MEMORY_FACT", "Alice likes tea.")]
    assert recalled(alice.did, "work") == [("MEMORY_FACT", "Alice likes tea.")]
    assert recalled(bob.did, "default") == [("MEMORY_FACT", "Bob likes tea.")]
    assert recalled(bob.did, "work") == []
    other_salt = run(pds, rushdb, "recall", "tea", *SCOPE_ARGS, "--did", alice.did, "--json", MEMORY_SCOPE_SALT="x")
    assert json.loads(other_salt.stdout.splitlines()[-1])["summary"]["hits"] == 0


def test_pds_to_rushdb_to_pds_gives_back_the_same_cids(pds: LocalPds, account: Account, rushdb: Project) -> None:
    repo = Repo(pds, account)
    odd = record("Odd fields survive.", **{
        "app.example.nested": {"list": [1, "two", {"three": None}], "link": {"$link": "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"},
                               "bytes": {"$bytes": "AQID"}},
        "app.example.when": "2026-08-18T09:00:00.000Z"})
    uris = [put_memory(repo, odd), put_memory(repo, to_record(fact(1), account.did).value),
            put_memory(repo, to_record(episode(2), account.did).value)]
    synced = sync(pds, rushdb, account, "--json")
    assert summary(synced)["created"] == 3, synced.output
    back = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *SCOPE_ARGS, "--json",
               ATP_AUTH_PASSWORD=account.password)
    assert back.exit_code == 0, back.output
    *lines, last = [json.loads(line) for line in back.stdout.splitlines()]
    assert sorted((line["uri"], line["status"]) for line in lines) == sorted((uri, "unchanged") for uri in uris)
    assert last["summary"]["created"] == last["summary"]["updated"] == 0


def test_a_deleted_record_is_not_exported_again_from_rushdb(pds: LocalPds, account: Account, rushdb: Project) -> None:
    repo = Repo(pds, account)
    keep, gone = put_memory(repo, record("Kept.")), put_memory(repo, record("Deleted by the user."))
    summary(sync(pds, rushdb, account, "--json"))
    repo.delete(RECORD_NSID, gone.rsplit("/", 1)[1])
    summary(sync(pds, rushdb, account, "--json"))
    back = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *SCOPE_ARGS,
               ATP_AUTH_PASSWORD=account.password)
    assert back.exit_code == 0, back.output
    assert back.stdout.startswith("0 created, 1 unchanged")
    assert ("Note: 1 memory of this scope came from records since deleted from the repository or edited into "
            "other memories; not exported again") in back.stderr
    empty = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", "--agent-id", "nobody",
                "--profile-id", "x", "--prune", ATP_AUTH_PASSWORD=account.password)
    assert empty.exit_code == 0 and "Note: nothing was pruned: the source holds no memories" in empty.stderr
    assert f"Note: RushDB at {rushdb.url} holds no memories of this scope: check --agent-id" in empty.stderr
    plain = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", "--agent-id", "nobody",
                "--profile-id", "x", ATP_AUTH_PASSWORD=account.password)
    assert plain.exit_code == 0 and plain.stderr == (  # the source's own note, and not a second one
        f"Note: RushDB at {rushdb.url} holds no memories of this scope: check --agent-id, --profile-id, "
        "--privacy-scope, the participant (the repository's DID, --participant or --participant-scope-hash) and the salt; "
        "it holds memories of --agent-id coder\n"
    )
    assert keep.rsplit("/", 1)[1] in json.dumps(records(rushdb, "ATPROTO_RECORD"))


def test_an_empty_scope_says_when_the_other_privacy_holds_memories(pds: LocalPds, account: Account, rushdb: Project) -> None:
    """A new user exported a Hermes agent's memory with the default --privacy-scope shared (the provider
    writes every memory private), and the run said only that the scope was empty: it says where they are."""
    put_memory(Repo(pds, account), record("Kept."))
    summary(sync(pds, rushdb, account, "--json"))  # the scope's memories, shared
    other = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *SCOPE_ARGS, "--privacy-scope",
                "private", "--publish-private", "--dry-run", ATP_AUTH_PASSWORD=account.password)
    assert other.exit_code == 0 and other.stderr.endswith(
        "and the salt; it holds memories with --privacy-scope shared\n"), other.stderr
    nobody = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", "--agent-id", "nobody",
                 "--profile-id", "x", "--privacy-scope", "private", "--publish-private", "--dry-run",
                 ATP_AUTH_PASSWORD=account.password)
    assert nobody.exit_code == 0 and nobody.stderr.endswith(  # not this agent: the agents the project holds
        "and the salt; it holds memories of --agent-id coder\n"), nobody.stderr


def test_an_empty_scope_names_the_first_option_that_differs(pds: LocalPds, account: Account, rushdb: Project,
                                                           rushdb_server: LocalRushDB) -> None:
    """A new user exported a named Hermes agent's memory with the README's `--agent-id default --profile-id
    default` (the provider names the agent and the profile after Hermes's agent) and was told only to check five
    options: the note names the agent the project holds, then this agent's profile, then says the participant
    or the salt differs. It names ids, never a memory's text."""
    put_memory(Repo(pds, account), record("Kept, and never quoted."))
    summary(sync(pds, rushdb, account, "--json"))  # agent coder, profile default, shared, the account's participant

    def note(*args: str) -> str:
        result = run(pds, rushdb, *args, ATP_AUTH_PASSWORD=account.password)
        assert result.exit_code == 0, result.output
        assert "never quoted" not in result.output
        return result.stderr

    export = ("export", "--to", account.did, "--from", "rushdb", "--dry-run")
    assert note(*export, "--agent-id", "default", "--profile-id", "default").endswith(
        "and the salt; it holds memories of --agent-id coder\n")
    assert note(*export, *SCOPE_ARGS, "--sandbox-eligible").endswith(
        "and the salt; it holds memories without --sandbox-eligible\n")  # not blamed on the participant
    assert note(*export, "--agent-id", "coder", "--profile-id", "work").endswith(
        "and the salt; it holds memories of this agent with --profile-id default\n")
    assert note(*export, *SCOPE_ARGS, "--participant-scope-hash", "ab" * 32).endswith(
        "; it holds memories of this agent and profile for another participant: check the participant's parts and "
        "the salt (MEMORY_SCOPE_SALT or RUSHDB_MEMORY_SCOPE_SALT)\n")
    assert note("list", "--agent-id", "default", "--profile-id", "default", "--did", account.did).endswith(
        "; it holds memories of --agent-id coder\n")
    empty = run(pds, rushdb_server.new_project(), *export, "--agent-id", "default", "--profile-id", "default",
                ATP_AUTH_PASSWORD=account.password)
    assert empty.exit_code == 0 and empty.stderr.endswith("and the salt\n"), empty.stderr  # none anywhere: no hint


def test_a_memory_edited_away_is_not_exported_again_nor_brought_back(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    uri = put_memory(repo, record("The user prefers Python."))
    summary(sync(pds, rushdb, account, "--json"))
    repo.put(RECORD_NSID, uri.rsplit("/", 1)[1], record("The user prefers Python 3.12."))
    edited = sync(pds, rushdb, account)
    assert edited.exit_code == 0, edited.output
    # A new row for the new text, the old one retired: each counted once, as RushDB holds them.
    assert edited.stdout.endswith("1 created, 0 merged, 0 updated, 0 unchanged, 0 kept deleted, 1 retired, 0 deleted, 0 failed; "
                                  "wrote 1 memory, 1 mirror, 1 deactivated\n")

    back = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *SCOPE_ARGS, "--json",
               ATP_AUTH_PASSWORD=account.password)
    assert back.exit_code == 0, back.output
    *lines, last = [json.loads(line) for line in back.stdout.splitlines()]
    assert [(line["uri"], line["status"]) for line in lines] == [(uri, "unchanged")]
    assert summary(sync(pds, rushdb, account, "--json"))["read"] == "unchanged"
    active = [row["text"] for row in records(rushdb, "MEMORY_FACT") if row["active"]]
    assert active == ["The user prefers Python 3.12."]


def test_an_older_car_synced_with_no_state_is_refused_where_rushdb_holds_a_later_read(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    # A new user's try: a CAR saved before a deletion, synced on a machine with no sync state, made
    # the deleted memory active again (its mirror went back to the older read).
    from pdsmem.bridge.atproto.identity import resolve

    repo = Repo(pds, account)
    gone = put_memory(repo, record("The user plays the cello."))
    put_memory(repo, record("The user lives in Ghent."))
    summary(sync(pds, rushdb, account, "--json"))
    car = tmp_path / "before.car"
    car.write_bytes(httpx.get(f"{pds.url}/xrpc/com.atproto.sync.getRepo", params={"did": account.did}, timeout=30).content)
    repo.delete(RECORD_NSID, gone.rsplit("/", 1)[1])
    assert summary(sync(pds, rushdb, account, "--json"))["retired"] == 1
    held = snapshot(rushdb)

    key = resolve(account.did, plc_url=pds.plc_url, pds_hint=pds.url).signing_key
    for more in (["--dry-run"], []):
        older = run(pds, rushdb, "sync", str(car), "--signing-key", key, *SCOPE_ARGS, *more,
                    PDSMEM_STATE_DIR=str(tmp_path / "no-state"))
        assert older.exit_code == 1 and "rollback: RushDB holds 1 record of this repository as read at a later rev" \
            in older.stderr, older.output
        assert "cello" not in older.output + older.stderr
    assert snapshot(rushdb) == held
    assert [row["active"] for row in records(rushdb, "MEMORY_FACT") if "cello" in row["text"]] == [False]


def test_deletions_this_state_never_saw_are_found_by_a_full_read(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    # A new machine (or a new key or URL for the same project) has no cursor: its first sync
    # reads the whole repository, and a mirror of a record no longer there is a deletion.
    repo = Repo(pds, account)
    gone = put_memory(repo, record("Deleted while nobody synced."))
    put_memory(repo, record("Kept."))
    summary(sync(pds, rushdb, account, "--json"))
    repo.delete(RECORD_NSID, gone.rsplit("/", 1)[1])

    elsewhere = summary(sync(pds, rushdb, account, "--json", PDSMEM_STATE_DIR=str(tmp_path / "new-machine")))
    assert (elsewhere["read"], elsewhere["deleted"]) == ("full", 1)
    by_text = {row["text"]: row for row in records(rushdb, "MEMORY_FACT")}
    assert by_text["Deleted while nobody synced."]["active"] is False and by_text["Kept."]["active"] is True
    mirrors = {row["uri"]: row["deleted"] for row in records(rushdb, "ATPROTO_RECORD")}
    assert mirrors[gone] is True and list(mirrors.values()).count(False) == 1
    assert summary(sync(pds, rushdb, account, "--json", PDSMEM_STATE_DIR=str(tmp_path / "new-machine"),
                        RUSHDB_API_URL=rushdb.url.replace("127.0.0.1", "localhost")))["deleted"] == 0


def test_deleting_a_superseding_record_removes_its_supersedes_links(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    python = put_memory(repo, record("The user prefers Python."))
    go = put_memory(repo, record("The user prefers Go.", supersedes=[python]))
    summary(sync(pds, rushdb, account, "--json"))
    assert [link[0] for link in snapshot(rushdb)["relationships"]].count("SUPERSEDES") == 1
    repo.delete(RECORD_NSID, go.rsplit("/", 1)[1])
    summary(sync(pds, rushdb, account, "--json"))
    held = snapshot(rushdb)
    assert [link for link in held["relationships"] if link[0] == "SUPERSEDES"] == []
    active = {row["text"]: row["active"] for row in held["MEMORY_FACT"].values()}
    assert active == {"The user prefers Python.": True, "The user prefers Go.": False}


def test_word_recall_finds_the_memory_holding_every_word_among_many_holding_one(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    keys = [tid(1_770_000_000_000_000 + i) for i in range(260)]
    for start in range(0, 260, 130):
        repo.apply([{"$type": "com.atproto.repo.applyWrites#create", "collection": RECORD_NSID, "rkey": key,
                     "value": record(f"Filler user note number {key}.")} for key in keys[start:start + 130]])
    put_memory(repo, record("The user likes zebra crossings."))
    put_memory(repo, record("Memory of a holiday."))
    put_memory(repo, record("ユーザーは猫が好きです。"))
    put_memory(repo, record("ユーザーはTypeScriptが好き。"))
    summary(sync(pds, rushdb, account, "--json"))
    args = [*SCOPE_ARGS, "--did", account.did, "--json", "--limit", "3"]
    found = [json.loads(line) for line in run(pds, rushdb, "recall", "zebra user", *args).stdout.splitlines()]
    assert found[0]["text"] == "The user likes zebra crossings."
    for query, text in (("猫", "ユーザーは猫が好きです。"), ("猫が好き", "ユーザーは猫が好きです。"),
                        ("typescript", "ユーザーはTypeScriptが好き。")):  # regression: no hit, or exit 2
        found = [json.loads(line) for line in run(pds, rushdb, "recall", query, *args).stdout.splitlines()]
        assert found[0]["text"] == text, query
    odd = [json.loads(line) for line in run(pds, rushdb, "recall", "' OR 1=1 --", *args).stdout.splitlines()]
    assert odd == [{"summary": {"method": "words", "hits": 0}}]  # "or" is inside "memory": not a word of it
    for wordless in ("q", "x y ?"):  # said "No memory of this scope matches", exit 0, without asking RushDB
        refused = run(pds, rushdb, "recall", wordless, *args)
        assert refused.exit_code == 2 and "holds no word of two letters or more (or one letter of Chinese" in refused.stderr


def test_hermes_finds_what_pdsmem_synced_and_pdsmem_reads_what_hermes_wrote(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rushdb-hermes-memory, the contract's Python integration, against pdsmem's data: its own
    scope, its labels, property and where; this server also needs sourceType external."""
    from rushdb_hermes_memory.provider import RushDBMemoryProvider

    with EmbeddingsServer() as embeddings:
        for name, value in {**embeddings.env, **rushdb.env}.items():
            monkeypatch.setenv(name, value)
        provider = RushDBMemoryProvider()
        provider.initialize("session-1", hermes_home=str(tmp_path / "hermes"), agent_identity="coder",
                            user_id="user-42", platform="discord")
        try:
            hermes = provider._scope_where()  # the scope hermes recalls in, from its own configuration
            put_memory(Repo(pds, account), record("The user prefers Rust for command line tools."))
            synced = sync_into(pds, rushdb, account, hermes)
            assert synced["created"] == 1
            search = {"propertyName": "text", "labels": ["MEMORY_FACT"], "where": provider._scope_where(active_only=True),
                      "limit": 8, "queryVector": provider._embedder.embed(["which language for command line tools"])[0]}
            found = client(rushdb).records.vector_search({**search, "sourceType": "external"})
            assert [r.data["text"] for r in found.data] == ["The user prefers Rust for command line tools."]

            provider.on_memory_write("add", "user", "The user keeps a diary.")
            provider._flush(timeout_seconds=30)
        finally:
            provider.shutdown()
        scope = ["--agent-id", hermes["agentId"], "--profile-id", hermes["profileId"], "--participant-scope-hash",
                 hermes["participantScopeHash"], "--privacy-scope", hermes["privacyScope"]]
        read = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *scope, "--dry-run", "--json",
                   ATP_AUTH_PASSWORD=account.password)
        *lines, _ = [json.loads(line) for line in read.stdout.splitlines()]
        by_status = sorted((line["status"], line["where"].split(":")[1]) for line in lines)
        assert by_status == [("refused", "MEMORY_FACT")] * 2  # hermes's scope is private: a PDS is public
        assert all("is private" in line["reason"] for line in lines)
        recalled = run(pds, rushdb, "recall", "diary", *scope)
        assert recalled.exit_code == 0 and '"The user keeps a diary."' in recalled.stdout


def sync_into(pds: LocalPds, project: Project, account: Account, scope: dict) -> dict:
    return summary(run(pds, project, "sync", account.did, "--agent-id", scope["agentId"], "--profile-id",
                       scope["profileId"], "--participant-scope-hash", scope["participantScopeHash"],
                       "--privacy-scope", scope["privacyScope"], "--json"))


def test_recall_ranks_by_similarity_with_an_embedder_and_says_when_it_cannot(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    repo = Repo(pds, account)
    for text in ("The user prefers TypeScript for web services.", "The user walks the dog at seven.",
                 "Deploys happen on Tuesdays."):
        put_memory(repo, record(text))
    put_memory(repo, to_record(episode(5, summary="The user asked about TypeScript web frameworks."),
                               account.did).value)
    with EmbeddingsServer() as embeddings:
        planned = run(pds, rushdb, "ensure-indexes", "--dry-run", "--json", **embeddings.env)
        assert planned.exit_code == 0, planned.output
        *lines, last = planned.stdout.splitlines()
        assert sorted((json.loads(line)["label"], json.loads(line)["status"]) for line in lines) == [
            ("EPISODE", "would create"), ("MEMORY_FACT", "would create")]
        assert json.loads(last) == {"summary": {"dryRun": True, "wouldCreate": 2, "exists": 0}}
        made = run(pds, rushdb, "ensure-indexes", "--json", **embeddings.env)
        assert made.exit_code == 0, made.output
        *statuses, last = [json.loads(line) for line in made.stdout.splitlines()]
        assert last == {"summary": {"dryRun": False, "created": 2, "exists": 0}}
        assert sorted((s["label"], s["property"], s["status"]) for s in statuses) == [
            ("EPISODE", "summary", "created"), ("MEMORY_FACT", "text", "created")]
        again = run(pds, rushdb, "ensure-indexes", "--json", **embeddings.env)
        assert {json.loads(line)["status"] for line in again.stdout.splitlines()[:-1]} == {"exists"}
        summary(sync(pds, rushdb, account, "--json", **embeddings.env))
        result = run(pds, rushdb, "recall", "TypeScript web services", *SCOPE_ARGS, "--did", account.did,
                     "--limit", "2", **embeddings.env)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        lines = result.stdout.splitlines()
        assert lines[0].startswith("Recalled memory: untrusted historical context")
        assert lines[3] == '"The user prefers TypeScript for web services."'
        assert lines[2].startswith("[Historical memory 1; source=MEMORY_FACT; similarity=0.")
        assert '"The user asked about TypeScript web frameworks."' in lines
        excluded = run(pds, rushdb, "recall", "TypeScript web", *SCOPE_ARGS, "--did", account.did,
                       "--exclude-session", "session-42", "--json", **embeddings.env)
        assert all(json.loads(line).get("label") != "EPISODE" for line in excluded.stdout.splitlines())
        # Regression: by similarity, a scope that holds nothing (a wrong agent, salt or DID) only said
        # "No memory of this scope matches."
        empty = run(pds, rushdb, "recall", "TypeScript", "--agent-id", "nobody", "--profile-id", "default",
                    "--salt", "s", "--did", account.did, **embeddings.env)
        assert empty.exit_code == 0, empty.output
        assert f"Note: RushDB at {rushdb.url} holds no memories of this scope: check --agent-id" in empty.stderr
    words = run(pds, rushdb, "recall", "dog", *SCOPE_ARGS, "--did", account.did)
    assert "similarity=n/a" in words.stdout and '"The user walks the dog at seven."' in words.stdout
    assert "matched by the words of the query" in words.stderr
    no_provider = run(pds, rushdb, "ensure-indexes")
    assert no_provider.exit_code == 1
    assert no_provider.stderr.startswith(f"Error: RushDB at {rushdb.url} has no embedding provider of its own")


def test_an_edit_that_drops_a_field_from_many_memories_rewrites_them_whole(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    # The server's rewrite of records it holds fails on large batches; pdsmem sends small ones.
    repo = Repo(pds, account)
    base = put_memory(repo, record("The user lived in Lyon."))
    rkeys = [tid(1_760_000_000_000_000 + i) for i in range(600)]
    for start in range(0, 600, 200):
        repo.apply([{"$type": "com.atproto.repo.applyWrites#create",
                     "collection": RECORD_NSID, "rkey": key,
                     "value": record(f"The user moved, step {key}.", supersedes=[base])} for key in rkeys[start:start + 200]])
    assert summary(sync(pds, rushdb, account, "--json"))["created"] == 601
    assert all(row.get("supersedesFactId") for row in records(rushdb, "MEMORY_FACT") if row["text"] != "The user lived in Lyon.")
    for start in range(0, 600, 200):
        repo.apply([{"$type": "com.atproto.repo.applyWrites#update", "collection": RECORD_NSID, "rkey": key,
                     "value": record(f"The user moved, step {key}.")} for key in rkeys[start:start + 200]])

    again = summary(sync(pds, rushdb, account, "--json"))
    assert again["updated"] == 601  # and Lyon's record: the facts superseding it changed
    facts = records(rushdb, "MEMORY_FACT")
    assert len(facts) == 601
    assert not any("supersedesFactId" in row for row in facts)
    assert all(row["active"] is True for row in facts)  # Lyon is superseded by nobody now
    assert not [link for link in snapshot(rushdb)["relationships"] if link[0] == "SUPERSEDES"]


def test_status_shows_the_rushdb_target_and_each_sync_never_its_key(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    put_memory(Repo(pds, account), record("The user drinks tea."))
    assert sync(pds, rushdb, account).exit_code == 0
    shown = run(pds, rushdb, "status")
    assert shown.exit_code == 0, shown.output
    assert f"RushDB: RushDB at {rushdb.url} (key from RUSHDB_API_KEY)" in shown.stdout
    assert "RUSHDB_API_KEY (set, not shown)" in shown.stdout
    synced = shown.stdout.split("Synced into RushDB")[1].splitlines()[1]
    assert synced.startswith(f"  {account.did}  scope coder/default/") and synced.endswith("(the RushDB above)")
    as_json = json.loads(run(pds, rushdb, "status", "--json").stdout)["summary"]
    assert [s["did"] for s in as_json["syncs"]] == [account.did] and as_json["imports"] == []
    other = run(pds, rushdb, "status", RUSHDB_API_KEY="another-project")
    assert "(the RushDB above)" not in other.stdout
    for result in (shown, other):
        assert rushdb.api_key not in result.output and "another-project" not in result.output


def test_a_repository_that_fails_verification_writes_nothing_to_rushdb_and_says_so(
    rushdb: Project, tmp_path: Path
) -> None:
    key = Keypair.generate()
    good = {f"{COLLECTION}/{tid(1_700_000_000_000_000 + i)}": {"$type": COLLECTION, "content": f"Fact {i}.",
                                                              "createdAt": "2024-01-01T00:00:00.000Z"}
            for i in range(3)}
    (tmp_path / "bad.car").write_bytes(build_repo(good, keypair=key, breakage=Breakage(drop_mst_node=True)).car)
    result = CliRunner().invoke(
        cli, ["sync", str(tmp_path / "bad.car"), "--signing-key", key.did_key, *SCOPE_ARGS],
        env={**rushdb.env, "MEMORY_SCOPE_SALT": SALT, "PDSMEM_STATE_DIR": str(tmp_path / "state")},
        catch_exceptions=False,
    )
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.endswith("MST node is missing from the CAR; the repository is incomplete (nothing was "
                                  "written to RushDB and the stored cursor did not move)\n")
    assert all(records(rushdb, label) == [] for label in ("MEMORY_FACT", "EPISODE", "ATPROTO_RECORD"))


def test_a_supersedes_into_another_repository_is_named_in_a_note_not_dropped_without_a_word(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    elsewhere = f"at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/{RECORD_NSID}/3k2akxyz4oo2a"
    uri = put_memory(Repo(pds, account), record("The user now drinks coffee.", supersedes=[elsewhere]))
    done = sync(pds, rushdb, account, "--json")
    assert done.exit_code == 0, done.output
    assert done.stderr == (f"Note: {uri}: supersedes {elsewhere} in another repository; ignored (only links "
                           "within one repository are followed)\n")
    assert summary(done)["notes"] == [done.stderr.removeprefix("Note: ").rstrip("\n")]


def test_a_record_whose_text_looks_like_a_secret_is_synced_and_named_by_its_uri_never_quoted(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    """A new user's try: secrets the person wrote into their own repository were synced and
    recalled without a word. The record is theirs and public already, so it is synced as
    written, and the person is told which record looks like it holds one (never its words):
    whichever of its fields holds it, even when the record fails to map, and once."""
    repo = Repo(pds, account)
    secret = "Wifi at the cabin: network Birch, password Kq7-hunter22!"
    put_memory(repo, record("The user drinks tea."))
    wifi_uri = put_memory(repo, record(secret))
    elsewhere_uri = put_memory(repo, record("Deploys go through the staging box first.",
                                            scope="ops: the staging root password is Sunflower-Rain-88"))
    failing_uri = put_memory(repo, record("The vault master password is Gr33n-Lantern-77!", createdAt="yesterday"))
    dry = sync(pds, rushdb, account, "--dry-run")
    first = sync(pds, rushdb, account, "--json")
    for result in (dry, first):
        assert result.exit_code == 3, result.output  # the record that fails to map
        notes = sorted(line for line in result.stderr.splitlines() if line.startswith("Note: "))
        assert [note.split(": its ")[0] for note in notes] == sorted(
            f"Note: {uri}" for uri in (wifi_uri, elsewhere_uri, failing_uri)), notes
        assert f"Note: {wifi_uri}: its content looks like a" in result.stderr
        assert f"Note: {elsewhere_uri}: its scope looks like a" in result.stderr
        assert "delete the record on the PDS and change the secret" in notes[0]
        for words in ("hunter22", "Birch", "Sunflower", "Lantern"):
            assert words not in result.output
    assert sorted(summary(first)["notes"]) == [note.removeprefix("Note: ") for note in notes]
    assert secret in {row["text"] for row in snapshot(rushdb)["MEMORY_FACT"].values()}  # the person's own record
    again = sync(pds, rushdb, account)
    assert "looks like" not in again.stderr  # told once in full: the records are unchanged since
    assert [line for line in again.stderr.splitlines() if "noted before" in line] == [  # then named again
        f"Note: 3 records noted before still look like they hold a secret and are public: "
        f"{', '.join(sorted((wifi_uri, elsewhere_uri, failing_uri)))} (delete them on the PDS and change the secrets)"]
    full = sync(pds, rushdb, account, "--full")  # a full read, asked for, tells them all again
    assert sorted(line for line in full.stderr.splitlines() if line.startswith("Note: at://")) == notes
