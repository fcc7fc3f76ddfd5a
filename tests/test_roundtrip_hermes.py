"""The round trip with a real agent runtime: ``rushdb-hermes-memory``'s provider, driven as Hermes
drives it, writes its memories into RushDB; pdsmem exports them to the person's repository and
syncs the repository back, into Hermes's own scope, against the real local PDS and RushDB.

What is checked: every row Hermes wrote stays as Hermes wrote it (its transcript kept, its id the
contract id of its content), every memory row pdsmem writes is valid against the published
AgentMemoryEvent v1 schema, and what the person deletes or edits away on the PDS is forgotten by
Hermes's own recall filters."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import jsonschema
import pytest
from click.testing import CliRunner, Result
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project
from support.rushdb_view import client, records, snapshot

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

SALT = "hermes-salt"
CONTRACT = jsonschema.Draft202012Validator(json.loads(
    (Path(__file__).parent / "fixtures/contract/agent-memory-event.v1.schema.json").read_text()))


def run(pds: LocalPds, project: Project, *args: str, **env: str) -> Result:
    environment = {**project.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                   **env}
    return CliRunner().invoke(cli, list(args), env=environment, catch_exceptions=False)


def summary(result: Result) -> dict:
    assert result.exit_code in (0, 3), result.output
    return json.loads(result.stdout.splitlines()[-1])["summary"]


def scope_args(scope: dict) -> list[str]:
    return ["--agent-id", scope["agentId"], "--profile-id", scope["profileId"], "--participant-scope-hash",
            scope["participantScopeHash"], "--privacy-scope", scope["privacyScope"]]


def id_matches_content(row: dict) -> bool:
    """The row's id is the contract's id of what it holds, as the runtime's own code computes it."""
    from rushdb_hermes_memory.contract import episode_event_id, fact_event_id

    if row["eventType"] == "episode":
        return row["eventId"] == episode_event_id(row)
    return row["factId"] == fact_event_id(row)


def hermes_session(project: Project, home: Path, monkeypatch: pytest.MonkeyPatch, session: str):
    """Hermes's provider for ``session``, as Hermes starts it, writing into ``project``."""
    from rushdb_hermes_memory.provider import RushDBMemoryProvider

    for name, value in project.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("RUSHDB_MEMORY_SCOPE_SALT", "hermes-own-salt")
    provider = RushDBMemoryProvider()
    provider.initialize(session, hermes_home=str(home), agent_identity="coder", user_id="user-42", platform="discord")
    return provider


def hermes_writes(project: Project, home: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """Hermes's provider, as Hermes calls it: two facts through ``on_memory_write``, two turns
    through ``sync_turn`` and one through ``on_pre_compress``; returns its scope."""
    provider = hermes_session(project, home, monkeypatch, "session-1")
    try:
        provider.on_memory_write("add", "user", "The user prefers Rust for command line tools.")
        provider.on_memory_write("add", "user", "Le café de l'utilisateur: noir, sans sucre ☕")
        provider.sync_turn("Which editor should I use?", "Helix suits a Rust workflow.")
        provider.sync_turn("Plan the release?", "Tag on Tuesday, publish on Wednesday.")
        provider.on_pre_compress([{"role": "user", "content": "Summarise the trip plans"},
                                  {"role": "assistant", "content": "Lyon in May, by train."}])
        provider._flush(timeout_seconds=30)
        return provider._scope_where()
    finally:
        provider.shutdown()


def hermes_learns_again(project: Project, home: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Hermes's provider in a new session writes ``text`` again (a new fact id: it holds the turn)."""
    provider = hermes_session(project, home, monkeypatch, "session-2")
    try:
        provider.on_memory_write("add", "user", text)
        provider._flush(timeout_seconds=30)
    finally:
        provider.shutdown()


def get_record(pds: LocalPds, uri: str) -> dict:
    did, collection, rkey = uri.removeprefix("at://").split("/")
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.getRecord",
                       params={"repo": did, "collection": collection, "rkey": rkey})
    answer.raise_for_status()
    return answer.json()["value"]


def held_rows(project: Project, label: str) -> dict[str, dict]:
    return {row[rows.MERGE_KEY[label]]: rows.plain(row) for row in records(project, label)}


def wait_for(project: Project, facts: int, episodes: int) -> None:
    for _ in range(100):
        if len(records(project, rows.FACT)) >= facts and len(records(project, rows.EPISODE)) >= episodes:
            return
        time.sleep(0.1)
    raise AssertionError("the provider did not write its memories")


def test_sync_back_into_hermes_scope_leaves_every_hermes_row_as_hermes_wrote_it(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hermes = hermes_writes(rushdb, tmp_path / "hermes", monkeypatch)
    wait_for(rushdb, 2, 3)
    before = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE)}
    for held in before.values():
        for row in held.values():
            CONTRACT.validate(row)
            assert id_matches_content(row)
    assert all(row["userText"] and row["assistantText"] for row in before[rows.EPISODE].values())

    # Hermes's memories are private, and it writes every episode's summary as its turn ("User: …
    # Assistant: …"), a transcript: both published only when the person says so.
    exported = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *scope_args(hermes),
                   "--publish-private", "--include-transcript", "--json", ATP_AUTH_PASSWORD=account.password)
    assert summary(exported)["created"] == 5, exported.output

    # a dry run of the scope's first sync counts what the sync then does (it counted every record as created)
    would = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--dry-run", "--json"))
    synced = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert (synced["created"], synced["merged"], synced["failed"]) == (0, 5, 0)  # into the rows Hermes wrote
    counted = ("created", "merged", "updated", "unchanged", "keptDeleted", "retired", "deleted", "failed")
    assert [would[name] for name in counted] == [synced[name] for name in counted]
    after = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE)}
    assert after == before  # the transcript kept, nothing added, each id the contract id of its content
    mirrors = records(rushdb, rows.MIRROR)
    assert sorted(m["memoryId"] for m in mirrors) == sorted([*before[rows.FACT], *before[rows.EPISODE]])

    # The person deletes an episode's record and edits a fact's on their PDS.
    repo = Repo(pds, account)
    by_memory = {m["memoryId"]: m for m in mirrors}
    trip = next(i for i, r in before[rows.EPISODE].items() if "Lyon" in r["summary"])
    rust = next(i for i, r in before[rows.FACT].items() if "Rust" in r["text"])
    repo.delete(RECORD_NSID, by_memory[trip]["rkey"])
    value = json.loads(by_memory[rust]["raw"])
    repo.put(RECORD_NSID, by_memory[rust]["rkey"], {**value, "content": "The user prefers Go for command line tools."})
    again = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert (again["created"], again["updated"], again["retired"], again["deleted"]) == (1, 0, 2, 1)

    facts, episodes = held_rows(rushdb, rows.FACT), held_rows(rushdb, rows.EPISODE)
    for row in [*facts.values(), *episodes.values()]:
        CONTRACT.validate(row)
    # What Hermes's recall searches: its scope's episodes, its scope's active facts.
    assert trip not in episodes and set(episodes) == set(before[rows.EPISODE]) - {trip}
    assert all(episodes[i] == before[rows.EPISODE][i] for i in episodes)
    active = sorted(row["text"] for row in facts.values() if row["active"])
    assert active == ["Le café de l'utilisateur: noir, sans sucre ☕", "The user prefers Go for command line tools."]
    held_mirrors = {m["uri"]: m for m in records(rushdb, rows.MIRROR)}
    gone = held_mirrors[by_memory[trip]["uri"]]
    assert gone["deleted"] is True and trip in gone["retiredIds"]
    assert [e["eventId"] for e in json.loads(gone["retiredEpisodes"])] == [trip]  # its history, on the mirror
    assert rust in held_mirrors[by_memory[rust]["uri"]]["retiredIds"]


def test_rows_an_earlier_version_wrote_are_repaired_by_the_next_sync_with_nothing_lost(
    pds: LocalPds, account: Account, rushdb: Project
) -> None:
    from devkit.events import episode

    from pdsmem.mapping.to_record import to_record

    repo = Repo(pds, account)
    value = {"$type": RECORD_NSID, "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference"}
    tea = repo.create(RECORD_NSID, {**value, "content": "The user drinks tea."})
    repo.create(RECORD_NSID, {**value, "content": "The user now drinks coffee.", "supersedes": [tea]})
    repo.create(RECORD_NSID, to_record(episode(3), account.did).value)
    gone = repo.create(RECORD_NSID, to_record(episode(4, summary="A turn the user deletes."), account.did).value)
    scope = ["--agent-id", "coder", "--profile-id", "default"]
    summary(run(pds, rushdb, "sync", account.did, *scope, "--json"))
    expected = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE, rows.MIRROR)}
    repo.delete(RECORD_NSID, gone.rsplit("/", 1)[1])
    summary(run(pds, rushdb, "sync", account.did, *scope, "--json"))

    # As an earlier version left them: pdsmem's properties on the memory rows, a deleted record's
    # episode kept inactive and retired, the fact to fact supersession, nothing on the mirrors; and
    # no PDSMEM_SCOPE or PDSMEM_PROJECT row, which earlier versions did not write.
    db = client(rushdb)
    db.records.delete({"labels": [rows.SCOPE], "where": {}})
    db.records.delete({"labels": [rows.PROJECT], "where": {}})
    assert snapshot(rushdb)["scopes"] == {}
    facts, episodes = expected[rows.FACT], expected[rows.EPISODE]
    mirror_of = {m["memoryId"]: m for m in expected[rows.MIRROR].values()}
    coffee = next(i for i, r in facts.items() if "coffee" in r["text"])
    tea_id = next(i for i in facts if i != coffee)
    legacy_facts = [{**r, "retired": False, "supersedesFactIds": [tea_id] if i == coffee else []} for i, r in facts.items()]
    [deleted] = [i for i, r in episodes.items() if r["summary"] == "A turn the user deletes."]
    legacy_episodes = [{**r, "retired": i == deleted, "active": i != deleted} for i, r in episodes.items()]
    bare = [{"mirrorKey": m["mirrorKey"], "supersedesFactIds": [], "retiredIds": [], "retiredEpisodes": "[]",
             **({"deleted": True} if m["uri"] == gone else {})} for m in expected[rows.MIRROR].values()]
    for label, part in ((rows.FACT, legacy_facts), (rows.EPISODE, legacy_episodes), (rows.MIRROR, bare)):
        db.records.import_json(part, label, {"mergeBy": [rows.MERGE_KEY[label]], "mergeStrategy": "append",
                                             "suggestTypes": True, "returnResult": False})
    db.relationships.create_many(source={"label": rows.FACT, "key": "supersedesFactIds", "where": {"factId": coffee}},
                                 target={"label": rows.FACT, "key": "factId", "where": {}}, type="SUPERSEDES",
                                 direction="out")

    again = summary(run(pds, rushdb, "sync", account.did, *scope, "--json"))
    assert again["read"] == "unchanged" and again["written"]["repaired"] == 4  # 2 facts, 1 episode rewritten, 1 deleted
    repaired = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE, rows.MIRROR)}
    assert repaired[rows.FACT] == facts
    assert repaired[rows.EPISODE] == {i: r for i, r in episodes.items() if i != deleted}
    for row in [*repaired[rows.FACT].values(), *repaired[rows.EPISODE].values()]:
        CONTRACT.validate(row)
    mirrors = {m["memoryId"]: m for m in repaired[rows.MIRROR].values()}
    assert mirrors[coffee]["supersedesFactIds"] == [tea_id]
    assert mirrors[deleted]["deleted"] is True and mirrors[deleted]["retiredIds"] == [deleted]
    assert json.loads(mirrors[deleted]["retiredEpisodes"]) == [episodes[deleted]]
    assert mirror_of[deleted]["uri"] == gone
    supersedes = [(r["sourceId"], r["targetId"]) for r in db.relationships.find({"where": {}}).data
                  if r["type"] == "SUPERSEDES"]
    ids = {r["__id"]: k for label in (rows.FACT, rows.MIRROR) for k, r in
           ((row[rows.MERGE_KEY[label]], row) for row in records(rushdb, label))}
    assert [(ids[s], ids[t]) for s, t in supersedes] == [(mirrors[coffee]["mirrorKey"], tea_id)]
    # The scope's row is made again, linked to every row the earlier version wrote (one retired
    # episode deleted): the next syncs read them through it.
    held = snapshot(rushdb)
    [linked] = held["scopes"].values()
    assert linked == sorted(f"{label}:{key}" for label in (rows.FACT, rows.EPISODE, rows.MIRROR) for key in held[label])


def test_a_record_edited_before_its_first_sync_leaves_one_truth_in_the_scope_it_was_exported_from(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hermes = hermes_writes(rushdb, tmp_path / "hermes", monkeypatch)
    wait_for(rushdb, 2, 3)
    lines = export_all(pds, rushdb, hermes, account)[1]
    rust = next(line["uri"] for line in lines if line["where"].startswith("rushdb:MEMORY_FACT")
                and "Rust" in get_record(pds, line["uri"])["content"])
    value = get_record(pds, rust)
    Repo(pds, account).put(RECORD_NSID, rust.rsplit("/", 1)[1], {**value, "content": "The user prefers Go now."})

    synced = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert synced["written"]["deactivated"] == 1
    facts = held_rows(rushdb, rows.FACT)
    assert sorted(r["text"] for r in facts.values() if r["active"]) == [
        "Le café de l'utilisateur: noir, sans sucre ☕", "The user prefers Go now."]
    [mirror] = [m for m in records(rushdb, rows.MIRROR) if m["uri"] == rust]
    assert [facts[i]["text"] for i in mirror["retiredIds"]] == ["The user prefers Rust for command line tools."]
    for row in facts.values():
        CONTRACT.validate(row)


def test_a_record_deleted_before_its_first_sync_deactivates_the_memory_it_was_exported_from(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export ledger names the record and the rev that wrote it; the first sync reads the
    repository at a later rev without it: the person deleted it, and the agent's fact goes
    inactive (every other row as Hermes wrote it; a second sync changes nothing)."""
    hermes = hermes_writes(rushdb, tmp_path / "hermes", monkeypatch)
    wait_for(rushdb, 2, 3)
    before = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE)}
    delete_the_rust_record(pds, account, export_all(pds, rushdb, hermes, account)[1])

    previewed = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--dry-run", "--json"))
    assert previewed["retired"] == 1 and held_rows(rushdb, rows.FACT) == before[rows.FACT]  # said, not done
    synced = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert synced["written"]["deactivated"] == 1
    facts = held_rows(rushdb, rows.FACT)
    rust_id = next(i for i, r in before[rows.FACT].items() if "Rust" in r["text"])
    assert facts == {**before[rows.FACT], rust_id: {**before[rows.FACT][rust_id], "active": False}}
    assert held_rows(rushdb, rows.EPISODE) == before[rows.EPISODE]
    for row in facts.values():
        CONTRACT.validate(row)
    again = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert again["written"]["deactivated"] == 0 and held_rows(rushdb, rows.FACT) == facts


def test_a_record_exported_and_deleted_between_two_syncs_deactivates_its_fact(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first sync reads the repository (empty here), then an export writes records and the person
    deletes one before the next sync: that sync reads a diff that never holds the record, and the
    ledger's rev, after the last read, tells it was written and deleted in between."""
    hermes = hermes_writes(rushdb, tmp_path / "hermes", monkeypatch)
    wait_for(rushdb, 2, 3)
    first = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert first["created"] == 0
    before = held_rows(rushdb, rows.FACT)
    delete_the_rust_record(pds, account, export_all(pds, rushdb, hermes, account)[1])

    synced = summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))
    assert synced["written"]["deactivated"] == 1
    rust_id = next(i for i, r in before.items() if "Rust" in r["text"])
    assert held_rows(rushdb, rows.FACT) == {**before, rust_id: {**before[rust_id], "active": False}}

    # Hermes learns the deleted words again in a new session (a new fact id): not published again,
    # here or in another account
    hermes_learns_again(rushdb, tmp_path / "hermes", monkeypatch, before[rust_id]["text"])
    wait_for(rushdb, len(before) + 1, 0)
    [relearned] = set(held_rows(rushdb, rows.FACT)) - set(before)
    assert {line["id"]: line["status"] for line in export_all(pds, rushdb, hermes, account)[1]}[relearned] == "conflict"

    # the scope exported into another account: the deleted memory is not published there, where
    # nothing would tell it is inactive (a record has no ``active``) and a sync would revive it
    other = pds.create_account()
    copied, lines = export_all(pds, rushdb, hermes, other)
    outcomes = {line["id"]: line["status"] for line in lines}
    assert outcomes[rust_id] == outcomes[relearned] == "inactive" and copied.exit_code == 0, copied.output
    assert all(status == "created" for mid, status in outcomes.items() if mid not in (rust_id, relearned))
    listed = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", timeout=30,
                       params={"repo": other.did, "collection": RECORD_NSID, "limit": 100}).json()["records"]
    assert len(listed) == len(outcomes) - 2
    assert before[rust_id]["text"] not in [r["value"]["content"] for r in listed]
    synced_there = summary(run(pds, rushdb, "sync", other.did, *scope_args(hermes), "--json"))
    assert synced_there["failed"] == 0
    assert held_rows(rushdb, rows.FACT)[rust_id]["active"] is False


def test_a_record_a_sync_read_then_the_person_deleted_fails_one_export_not_every_one(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (a new user's try): once a sync had read the records an export wrote, the memories
    came from those records, and a record the person then deleted made every export exit 3, with
    nothing noted, until a sync ran."""
    hermes = hermes_writes(rushdb, tmp_path / "hermes", monkeypatch)
    wait_for(rushdb, 2, 3)

    lines = export_all(pds, rushdb, hermes, account)[1]
    summary(run(pds, rushdb, "sync", account.did, *scope_args(hermes), "--json"))  # the memories now come from records
    rust = delete_the_rust_record(pds, account, lines)
    (first, _), (later, later_lines) = export_all(pds, rushdb, hermes, account), export_all(pds, rushdb, hermes, account)
    assert first.exit_code == 3 and f"{rust} was deleted on the PDS after pdsmem wrote it" in first.stderr
    assert later.exit_code == 0, later.output
    assert [line.get("known") for line in later_lines if line["status"] == "conflict"] == [True]


def export_all(pds: LocalPds, project: Project, hermes: dict, account: Account) -> tuple[Result, list[dict]]:
    """``export --from rushdb`` of Hermes's scope into ``account``, private memories and transcripts
    acknowledged: the run, and its JSON lines (the summary left out)."""
    result = run(pds, project, "export", "--to", account.did, "--from", "rushdb", *scope_args(hermes),
                 "--publish-private", "--include-transcript", "--json", ATP_AUTH_PASSWORD=account.password)
    return result, [json.loads(line) for line in result.stdout.splitlines()[:-1]]


def delete_the_rust_record(pds: LocalPds, account: Account, lines: list[dict]) -> str:
    """As the person: delete the record of the fact about Rust that an export wrote; its at-uri."""
    rust = next(line["uri"] for line in lines if line["where"].startswith("rushdb:MEMORY_FACT")
                and "Rust" in get_record(pds, line["uri"])["content"])
    Repo(pds, account).delete(RECORD_NSID, rust.rsplit("/", 1)[1])
    return rust


def external_search(factory):
    """The RushDB SDK as Hermes's provider gets it, with one change: its vector searches say
    ``"sourceType": "external"``, which this self-hosted server needs to search the external
    vectors the provider writes (RushDB Cloud does not). Nothing else is touched."""
    def make(*args, **kwargs):
        db = factory(*args, **kwargs)
        search = db.records.vector_search
        db.records.vector_search = lambda params, *more, **named: search({**params, "sourceType": "external"},
                                                                         *more, **named)
        return db
    return make


def hermes(home: Path, identity: str, platform: str, **more: str):
    from rushdb import RushDB
    from rushdb_hermes_memory.provider import RushDBMemoryProvider

    provider = RushDBMemoryProvider(db_factory=external_search(RushDB))
    provider.initialize("session-1", hermes_home=str(home), agent_identity=identity, user_id="user-42",
                        platform=platform, **more)
    return provider


def recalled(provider, query: str) -> list[str]:
    """What the provider's recall finds in RushDB (its prefetch, without the 0.3 s deadline)."""
    return [memory["text"] for memory in provider._remote_recall(query, 20)]


def test_a_round_trip_with_hermes_loses_nothing_damages_nothing_and_forgets_what_the_person_deletes(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from support.rushdb_view import EmbeddingsServer

    second = rushdb_server.new_project("second-agent")
    with EmbeddingsServer() as embeddings:
        for name, value in {**embeddings.env, **rushdb.env, "RUSHDB_MEMORY_SCOPE_SALT": "hermes-salt"}.items():
            monkeypatch.setenv(name, value)
        agent = hermes(tmp_path / "coder", "coder", "discord")
        try:
            agent.on_memory_write("add", "user", "The user prefers Rust for command line tools.")
            agent.on_memory_write("add", "user", "The user's wifi password is hunter22")  # a secret
            agent.on_memory_write("add", "memory", "The project lives in /home/alice/src/app")  # a path
            agent.on_memory_write("add", "user", "Le café de l'utilisateur: noir, sans sucre ☕")
            agent.on_memory_write("add", "user", "The user lives in Lyon.")
            agent.sync_turn("Which editor should I use?", "Helix suits a Rust workflow.")
            agent.on_pre_compress([{"role": "user", "content": "Summarise the trip plans"},
                                   {"role": "assistant", "content": "Lyon in May, by train."}])
            agent._flush(timeout_seconds=30)
            wait_for(rushdb, 5, 2)
            written = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE)}
            for row in [*written[rows.FACT].values(), *written[rows.EPISODE].values()]:
                CONTRACT.validate(row)
                assert id_matches_content(row)

            # The recipe of docs/rushdb.md: the scope Hermes reads, by its parts and its salt.
            own = ["--agent-id", "coder", "--profile-id", "coder", "--privacy-scope", "private",
                   "--participant", "discord", "--participant", "coder", "--participant", "user-42"]
            env = {**embeddings.env, "RUSHDB_MEMORY_SCOPE_SALT": "hermes-salt"}
            exported = run(pds, rushdb, "export", "--to", account.did, "--from", "rushdb", *own, "--publish-private",
                           "--include-transcript", "--json", ATP_AUTH_PASSWORD=account.password, MEMORY_SCOPE_SALT="", **env)
            outcome = summary(exported)
            assert (outcome["created"], outcome["refused"]) == (5, 2)  # the secret and the path stay home
            lines = [json.loads(line) for line in exported.stdout.splitlines()[:-1]]
            uri_of = {get_record(pds, line["uri"])["content"]: line["uri"] for line in lines if line["uri"]
                      and line["status"] == "created"}

            # The person, on their PDS: a record superseding one, from another app.
            repo = Repo(pds, account)
            repo.create(RECORD_NSID, {"$type": RECORD_NSID, "content": "The user moved to Paris.",
                                      "createdAt": "2026-09-01T09:00:00.000Z", "kind": "user",
                                      "supersedes": [uri_of["The user lives in Lyon."]]})

            back = summary(run(pds, rushdb, "sync", account.did, *own, "--json", MEMORY_SCOPE_SALT="", **env))
            assert (back["created"], back["merged"], back["failed"]) == (1, 5, 0)  # Paris new; Hermes's rows
            now = {label: held_rows(rushdb, label) for label in (rows.FACT, rows.EPISODE)}
            lyon = next(i for i, r in written[rows.FACT].items() if r["text"] == "The user lives in Lyon.")
            assert now[rows.EPISODE] == written[rows.EPISODE]  # transcripts and ids as Hermes wrote them
            assert {i: r for i, r in now[rows.FACT].items() if i in written[rows.FACT]} == {
                **written[rows.FACT], lyon: {**written[rows.FACT][lyon], "active": False}}  # superseded, by the person
            for row in [*now[rows.FACT].values(), *now[rows.EPISODE].values()]:
                CONTRACT.validate(row)
            assert "The user lives in Lyon." not in recalled(agent, "Where does the user live?")

            # A second agent, on a fresh project, reads the person's memories from their repository.
            for name, value in second.env.items():
                monkeypatch.setenv(name, value)
            other = hermes(tmp_path / "scribe", "scribe", "telegram")
            theirs = ["--agent-id", "scribe", "--profile-id", "scribe", "--privacy-scope", "private",
                      "--participant", "telegram", "--participant", "scribe", "--participant", "user-42"]
            into = summary(run(pds, second, "sync", account.did, *theirs, "--json", MEMORY_SCOPE_SALT="", **env))
            assert (into["created"], into["failed"]) == (6, 0)
            found = recalled(other, "Which language for command line tools? Where does the user live?")
            assert "The user prefers Rust for command line tools." in found and "The user moved to Paris." in found
            assert "The user lives in Lyon." not in found
            for label in (rows.FACT, rows.EPISODE):
                for row in held_rows(second, label).values():
                    CONTRACT.validate(row)

            # The person deletes a fact's and an episode's records and edits another's.
            repo.delete(RECORD_NSID, uri_of["The user prefers Rust for command line tools."].rsplit("/", 1)[1])
            trip = next(u for c, u in uri_of.items() if c.startswith("User: Summarise the trip plans"))
            repo.delete(RECORD_NSID, trip.rsplit("/", 1)[1])
            cafe = uri_of["Le café de l'utilisateur: noir, sans sucre ☕"]
            repo.put(RECORD_NSID, cafe.rsplit("/", 1)[1], {**get_record(pds, cafe), "content": "Le thé, vert."})
            for project, scope, provider in ((rushdb, own, agent), (second, theirs, other)):
                monkeypatch.setenv("RUSHDB_API_URL", project.url)
                summary(run(pds, project, "sync", account.did, *scope, "--json", MEMORY_SCOPE_SALT="", **env))
                gone = ("The user prefers Rust for command line tools.", "Le café de l'utilisateur: noir, sans sucre ☕",
                        "User: Summarise the trip plans\nAssistant: Lyon in May, by train.")
                found = recalled(provider, "Rust command line tools café trip plans Lyon thé")
                assert not set(gone) & set(found) and "Le thé, vert." in found
                asked = run(pds, project, "recall", "Rust command line tools café trip plans", *scope, **env,
                            MEMORY_SCOPE_SALT="")
                assert asked.exit_code == 0, asked.output
                assert not any(json.dumps(text, ensure_ascii=False) in asked.stdout for text in gone)
                for label in (rows.FACT, rows.EPISODE):
                    for row in held_rows(project, label).values():
                        CONTRACT.validate(row)
            left = held_rows(rushdb, rows.EPISODE)
            assert left == {i: r for i, r in written[rows.EPISODE].items() if "trip" not in r["userText"]}

            # The agent writes the deleted fact again (the same words, the same factId: the row made
            # active again, as a new user's try saw Hermes do it); a full sync retires it again, and
            # only it. Regression: it was recalled for good, as no sync retired it a second time.
            monkeypatch.setenv("RUSHDB_API_URL", rushdb.url)
            [rust] = [r for r in held_rows(rushdb, rows.FACT).values() if r["text"].startswith("The user prefers Rust")]
            client(rushdb).records.import_json([{**rust, "active": True}], rows.FACT, {
                "mergeBy": [rows.MERGE_KEY[rows.FACT]], "mergeStrategy": "append", "suggestTypes": True})
            agent.on_memory_write("add", "user", "The user walks to work.")  # a new one, nothing to do with it
            assert {r["text"]: r["active"] for r in held_rows(rushdb, rows.FACT).values()}[rust["text"]] is True
            full = summary(run(pds, rushdb, "sync", account.did, *own, "--full", "--json", MEMORY_SCOPE_SALT="", **env))
            assert full["retired"] == 1, full
            facts = {r["text"]: r for r in held_rows(rushdb, rows.FACT).values()}
            assert facts["The user prefers Rust for command line tools."]["active"] is False
            assert facts["The user walks to work."]["active"] is True
            assert "The user prefers Rust" not in "\n".join(recalled(agent, "Rust command line tools"))
            for row in facts.values():
                CONTRACT.validate(row)
            other.shutdown()
        finally:
            agent.shutdown()
