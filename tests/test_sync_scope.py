"""Sync reads its scope through the scope's ``PDSMEM_SCOPE`` row, against the real local PDS and the
real local RushDB server (docs/rushdb.md, "Cost in a large project"): after the first sync of a
scope, a sync searches the project only for a memory an agent runtime may hold; rows an earlier
version wrote (no such row) are found, linked and never written twice; an agent's row written
after the scope's row exists is merged into, not duplicated; two rows for one scope become one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import LocalRushDB, Project
from support.rushdb_view import MEMORY_LABELS, client, records, snapshot

from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.pipelines.state import State
from pdsmem.bridge.pipelines.syncer import Syncer
from pdsmem.bridge.rushdb.store import MemoryStore, RushDBTarget
from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import rushdb_rows as rows
from pdsmem.mapping.contract_ids import fact_id
from pdsmem.mapping.records import SCOPE_FIELDS, ImportScope
from pdsmem.mapping.to_record import to_record

pytestmark = [pytest.mark.pds, pytest.mark.rushdb]

SALT = "scope-salt"
SCOPE = {"agent_id": "coder", "profile_id": "default", "salt": SALT}


def sync(pds: LocalPds, project: Project, account: Account, state: Path, profile: str = "default") -> dict:
    environment = {**project.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                   "PDSMEM_STATE_DIR": str(state)}
    result: Result = CliRunner().invoke(cli, ["sync", account.did, "--agent-id", "coder", "--profile-id", profile,
                                              "--json"], env=environment, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout.splitlines()[-1])["summary"]


def plain(content: str) -> dict:
    """A record another app wrote: no extension of pdsmem's."""
    return {"$type": RECORD_NSID, "content": content, "createdAt": "2026-08-18T09:00:00.000Z", "kind": "preference"}


def assert_each_row_once_and_in_its_scope(project: Project) -> dict:
    held = snapshot(project)
    for label in MEMORY_LABELS:  # nothing written twice
        assert len(records(project, label)) == len(held[label]), label
    [linked] = held["scopes"].values()  # one row for the scope, linked to every row of it
    assert linked == sorted(f"{label}:{key}" for label in MEMORY_LABELS for key in held[label])
    return held


class Spy(MemoryStore):
    """A MemoryStore that notes each search: its label, its filter, and whether it read the
    records related to one record (the scope's row) or searched the project."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.searches: list[tuple[str, dict, bool]] = []
        self.upserted: list[str] = []  # the labels of the rows written by an upsert

    def find(self, label, where, *, order_by, limit=None, related=None):
        self.searches.append((label, dict(where), related is not None))
        return super().find(label, where, order_by=order_by, limit=limit, related=related)

    def upsert(self, label, rows, merge_by, **kwargs):
        self.upserted += [label] * len(rows)
        return super().upsert(label, rows, merge_by, **kwargs)

    def project_wide(self) -> list[tuple[str, dict]]:
        found = [(label, where) for label, where, related in self.searches if not related]
        self.searches.clear()
        return found


def test_after_the_first_sync_only_a_memory_an_agent_may_hold_is_searched_for_in_the_project(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    for n in range(3):
        repo.create(RECORD_NSID, plain(f"The user likes item {n}."))
    store = Spy(RushDBTarget(rushdb.api_key, url=rushdb.url))

    def synced():
        store.check()
        importer = Importer(state, **SCOPE, plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)
        with importer.from_pds(account.did) as batch:
            return Syncer(importer, store).sync(batch)

    with State(tmp_path / "state") as state:
        assert synced().counts["created"] == 3  # the first: the scope is read once, its row made
        store.project_wide()

        repo.create(RECORD_NSID, plain("The user likes item 3."))  # another app's record
        assert synced().counts["created"] == 1
        assert store.project_wide() == []  # its mirror and memory: by the scope's row

        exported = to_record(fact(7), account.did)  # a record exported from a memory (it names one)
        repo.put(RECORD_NSID, exported.uri.rsplit("/", 1)[1], exported.value)
        assert synced().counts["created"] == 1
        [(label, where)] = store.project_wide()  # that memory may be an agent's row of the scope
        scope = ImportScope(did=account.did, **SCOPE).fields
        assert label == rows.FACT and where == {**rows.scope_where(scope), "factId": {"$in": [rows.exported_from(exported)]}}

        assert synced().wrote_nothing  # nothing changed: no search at all
        assert store.searches == []
    assert_each_row_once_and_in_its_scope(rushdb)


def test_a_scopes_first_sync_reads_back_only_what_it_wrote_itself(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    """The scope's row is made by the first sync with nothing to link: its chunks look up no row of
    the scope but one an earlier chunk of the same run wrote (here: one memory exported to two
    records), and every row is written once and linked."""
    repo = Repo(pds, account)
    exported = to_record(fact(7), account.did)
    repo.put(RECORD_NSID, exported.uri.rsplit("/", 1)[1], exported.value)
    for n in range(4):
        repo.create(RECORD_NSID, plain(f"The user likes item {n}."))
    repo.create(RECORD_NSID, exported.value)  # the same memory again, under a new key
    store = Spy(RushDBTarget(rushdb.api_key, url=rushdb.url))
    with State(tmp_path / "state") as state:
        store.check()
        importer = Importer(state, **SCOPE, plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)
        with importer.from_pds(account.did) as batch:
            syncer = Syncer(importer, store)
            syncer.batch_size = 2
            report = syncer.sync(batch)
    assert not report.failures, report.failures
    by_the_scope = [(label, where) for label, where, related in store.searches if related]
    # at most one lookup: the exported memory, when its two records fall in two chunks
    assert by_the_scope in ([], [(rows.FACT, {"factId": {"$in": [rows.exported_from(exported)]}})]), by_the_scope
    held = assert_each_row_once_and_in_its_scope(rushdb)
    assert len(held[rows.FACT]) == 6 and len(held[rows.MIRROR]) == 6  # (a record copied under a new key is a memory of its own)


def test_rows_an_earlier_version_wrote_are_found_linked_to_the_scope_and_never_written_twice(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    tea = repo.create(RECORD_NSID, plain("The user drinks tea."))
    repo.create(RECORD_NSID, {**plain("The user now drinks coffee."), "supersedes": [tea]})
    repo.create(RECORD_NSID, to_record(episode(3), account.did).value)
    assert sync(pds, rushdb, account, tmp_path / "one")["created"] == 3

    # As an earlier version left the project: the same rows, no row for the scope nor the project.
    client(rushdb).records.delete({"labels": [rows.SCOPE], "where": {}})
    client(rushdb).records.delete({"labels": [rows.PROJECT], "where": {}})
    assert snapshot(rushdb)["scopes"] == {}
    repo.create(RECORD_NSID, plain("The user likes green tea."))

    again = sync(pds, rushdb, account, tmp_path / "another machine")  # a full read, with a state of its own
    assert (again["created"], again["updated"], again["unchanged"], again["merged"]) == (1, 0, 3, 0)
    held = assert_each_row_once_and_in_its_scope(rushdb)
    fresh = rushdb_server.new_project("fresh")
    assert sync(pds, fresh, account, tmp_path / "fresh")["created"] == 4
    assert held == snapshot(fresh)  # as a fresh sync leaves a project of its own

    repo.create(RECORD_NSID, plain("The user likes jasmine tea."))  # and the next sync reads it by the scope's row
    assert sync(pds, rushdb, account, tmp_path / "another machine")["created"] == 1
    assert_each_row_once_and_in_its_scope(rushdb)


def test_a_scopes_first_sync_searches_the_project_only_where_an_earlier_version_may_have_written(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    """The first scope's row of a project that holds nothing of pdsmem's comes with the project's
    row: a later scope's first sync there reads no mirror of the project. In a project an earlier
    version wrote (scope's rows but no project's row), each scope's first sync still reads them."""
    Repo(pds, account).create(RECORD_NSID, plain("The user likes item 1."))
    store = Spy(RushDBTarget(rushdb.api_key, url=rushdb.url))

    def first_sync(profile: str, records: int = 1) -> list[str]:
        importer = Importer(state, agent_id="coder", profile_id=profile, salt=SALT, plc_url=pds.plc_url,
                            pds_hint=pds.url, target=store.target.key)
        with importer.from_pds(account.did) as batch:
            assert Syncer(importer, store).sync(batch).counts["created"] == records
        return [label for label, _ in store.project_wide()]

    with State(tmp_path / "state") as state:
        assert rows.MIRROR in first_sync("default")  # (an empty project: it looks whether pdsmem wrote there)
        [made] = records(rushdb, rows.PROJECT)
        store.remembered.clear()  # as a new process would
        assert rows.MIRROR not in first_sync("work")
        assert records(rushdb, rows.PROJECT) == [made]

        # A machine that synced a scope with an earlier version (no scope's row) after the project's
        # row was made, then upgraded: its state knows the scope, so its rows are read, not written twice.
        [work] = [row for row in records(rushdb, rows.SCOPE) if row["profileId"] == "work"]
        client(rushdb).records.delete({"labels": [rows.SCOPE], "where": {"profileId": "work"}})
        store.remembered.clear()
        Repo(pds, account).create(RECORD_NSID, plain("The user likes item 2."))
        importer = Importer(state, agent_id="coder", profile_id="work", salt=SALT, plc_url=pds.plc_url,
                            pds_hint=pds.url, target=store.target.key)
        with importer.from_pds(account.did) as batch:
            report = Syncer(importer, store).sync(batch)
        assert report.counts["created"] == 1, (batch.read, report.counts, report.written)
        assert rows.MIRROR in [label for label, _ in store.project_wide()]
        assert work["__id"] not in {row["__id"] for row in records(rushdb, rows.SCOPE)}

        client(rushdb).records.delete({"labels": [rows.PROJECT], "where": {}})  # as an earlier version left it
        store.remembered.clear()
        assert rows.MIRROR in first_sync("home", records=2)
        assert records(rushdb, rows.PROJECT) == []  # not made where an earlier version may have written
    assert len(snapshot(rushdb)["scopes"]) == 3
    for profile in ("default", "work", "home"):  # each scope's rows once, each linked to its scope's row
        held = {label: [row for row in records(rushdb, label) if row["profileId"] == profile] for label in MEMORY_LABELS}
        assert len({row[rows.MERGE_KEY[label]] for label in MEMORY_LABELS for row in held[label]}) == sum(
            len(part) for part in held.values())


def test_an_agents_memory_this_machine_exported_is_read_by_its_row_id_in_that_project_only(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    """The agent's rows of a scope, exported to the person's repository: the first sync on the
    machine that exported them reads each by the RushDB id its export ledger keeps, with no search
    of the project for them; in another project holding the same memories (rows of other ids)
    the ledger's ids find nothing there, and the search does. The rows hold what the records say:
    none is written again (an upsert reads the project too)."""
    scope = ImportScope(did=account.did, **SCOPE).fields
    events = []
    for n in (5, 6):
        event = {**fact(n), **scope}
        event["factId"] = fact_id(event)
        events.append(event)
    other = rushdb_server.new_project("other")
    for project in (rushdb, other):  # as an agent runtime writes them (Hermes: an upsert by id)
        for event in events:
            client(project).records.upsert(event, rows.FACT, {"mergeBy": ["factId"], "mergeStrategy": "append"})
    environment = {**rushdb.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                   "PDSMEM_STATE_DIR": str(tmp_path / "state"), "ATP_AUTH_PASSWORD": account.password}
    exported = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", "rushdb", "--agent-id", "coder",
                                        "--profile-id", "default", "--json"], env=environment, catch_exceptions=False)
    assert exported.exit_code == 0, exported.output

    for project, searched in ((rushdb, False), (other, True)):
        before = {row["factId"]: row for row in records(project, rows.FACT)}
        store = Spy(RushDBTarget(project.api_key, url=project.url))
        with State(tmp_path / "state") as state:
            importer = Importer(state, **SCOPE, plc_url=pds.plc_url, pds_hint=pds.url, target=store.target.key)
            with importer.from_pds(account.did) as batch:
                report = Syncer(importer, store).sync(batch)
        assert (report.counts["created"], report.counts["merged"]) == (0, 2)
        assert any(label == rows.FACT for label, _ in store.project_wide()) is searched
        assert rows.FACT not in store.upserted
        assert {row["factId"]: row for row in records(project, rows.FACT)} == before  # the agent's rows, as written
        assert_each_row_once_and_in_its_scope(project)


def test_what_an_agent_changed_after_the_export_stays_when_the_record_comes_back_unchanged(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    """The agent's facts, exported; then the agent forgets one (``active``: false) and is surer of
    another. The records come back as this machine exported them: the sync links the rows and
    leaves them as the agent left them (before, it wrote the exported values back)."""
    scope = ImportScope(did=account.did, **SCOPE).fields
    db = client(rushdb)
    for n in (5, 6):
        event = {**fact(n), **scope}
        db.records.upsert({**event, "factId": fact_id(event)}, rows.FACT, {"mergeBy": ["factId"], "mergeStrategy": "append"})
    environment = {**rushdb.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": SALT,
                   "PDSMEM_STATE_DIR": str(tmp_path / "state"), "ATP_AUTH_PASSWORD": account.password}
    exported = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", "rushdb", "--agent-id", "coder",
                                        "--profile-id", "default", "--json"], env=environment, catch_exceptions=False)
    assert exported.exit_code == 0, exported.output
    forgotten, surer = sorted(records(rushdb, rows.FACT), key=lambda row: row["factId"])
    db.records.upsert({**rows.plain(forgotten), "active": False}, rows.FACT, {"mergeBy": ["factId"], "mergeStrategy": "append"})
    db.records.upsert({**rows.plain(surer), "confidence": 0.99}, rows.FACT, {"mergeBy": ["factId"], "mergeStrategy": "append"})
    left = {row["factId"]: row for row in records(rushdb, rows.FACT)}

    merged = sync(pds, rushdb, account, tmp_path / "state")
    assert (merged["created"], merged["merged"]) == (0, 2)
    assert {row["factId"]: row for row in records(rushdb, rows.FACT)} == left
    sync(pds, rushdb, account, tmp_path / "state")  # and on the next sync
    assert {row["factId"]: row for row in records(rushdb, rows.FACT)} == left
    assert_each_row_once_and_in_its_scope(rushdb)


def test_an_agent_row_written_after_the_scope_row_is_merged_into_not_duplicated(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    repo.create(RECORD_NSID, plain("The user likes item 1."))
    assert sync(pds, rushdb, account, tmp_path / "state")["created"] == 1

    # An agent runtime of the scope writes a memory as Hermes does (an upsert by its id); it is
    # exported to the person's repository as pdsmem's export writes it, and synced back.
    scope = ImportScope(did=account.did, **SCOPE).fields
    event = {**fact(5), **scope}
    event["factId"] = fact_id(event)
    db = client(rushdb)
    db.records.upsert(event, rows.FACT, {"mergeBy": ["factId"], "mergeStrategy": "append"})
    [written] = records(rushdb, rows.FACT, {"factId": event["factId"]})
    exported = to_record(event, account.did)
    repo.put(RECORD_NSID, exported.uri.rsplit("/", 1)[1], exported.value)

    back = sync(pds, rushdb, account, tmp_path / "state")
    assert (back["created"], back["merged"]) == (0, 1)
    [row] = records(rushdb, rows.FACT, {"factId": event["factId"]})
    assert row == written  # the agent's row, as it wrote it, and only that one
    assert_each_row_once_and_in_its_scope(rushdb)  # now linked to the scope's row


def test_two_rows_for_one_scope_become_one_with_every_link(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    for n in range(4):
        repo.create(RECORD_NSID, plain(f"The user likes item {n}."))
    assert sync(pds, rushdb, account, tmp_path / "state")["created"] == 4

    # A second machine made a second row for the scope and linked two mirrors to it instead.
    db = client(rushdb)
    [first] = records(rushdb, rows.SCOPE)
    second = db.records.import_json([{name: first[name] for name in SCOPE_FIELDS}], rows.SCOPE,
                                    {"returnResult": True, "suggestTypes": True}).data[0].data["__id"]
    moved = [m["__id"] for m in records(rushdb, rows.MIRROR)[:2]]
    db.records.detach(first["__id"], moved, {"typeOrTypes": rows.IN_SCOPE, "direction": "in"})
    db.records.attach(second, moved, {"type": rows.IN_SCOPE, "direction": "in"})
    assert len(snapshot(rushdb)["relationships"]) == 4 and len(records(rushdb, rows.SCOPE)) == 2

    repo.create(RECORD_NSID, plain("The user likes item 4."))
    assert sync(pds, rushdb, account, tmp_path / "state")["created"] == 1  # not one of the moved records again
    assert [row["__id"] for row in records(rushdb, rows.SCOPE)] == [first["__id"]]  # the oldest kept
    held = assert_each_row_once_and_in_its_scope(rushdb)
    fresh = rushdb_server.new_project("fresh")
    sync(pds, fresh, account, tmp_path / "fresh")
    assert held == snapshot(fresh)


def test_each_scope_of_a_project_has_its_own_row_and_reads_only_its_own(
    pds: LocalPds, account: Account, rushdb: Project, tmp_path: Path
) -> None:
    Repo(pds, account).create(RECORD_NSID, plain("The user likes item 1."))
    sync(pds, rushdb, account, tmp_path / "state")
    sync(pds, rushdb, account, tmp_path / "state", profile="work")
    held = snapshot(rushdb)
    assert len(held["scopes"]) == 2
    default, work = (held["scopes"][name] for name in sorted(held["scopes"]))
    assert len(default) == len(work) == 2 and not set(default) & set(work)  # a mirror and a fact each
    assert sorted(default + work) == sorted(f"{label}:{key}" for label in MEMORY_LABELS for key in held[label])


def test_many_links_removed_at_once_leave_exactly_the_links_the_records_say(
    pds: LocalPds, account: Account, rushdb: Project, rushdb_server: LocalRushDB, tmp_path: Path
) -> None:
    repo = Repo(pds, account)
    liked = [repo.create(RECORD_NSID, plain(f"The user likes item {n}.")) for n in range(5)]
    later = [repo.create(RECORD_NSID, {**plain(f"The user likes item {n} less."), "supersedes": [uri]})
             for n, uri in enumerate(liked)]
    edited = [repo.create(RECORD_NSID, plain(f"The user drinks tea number {n}.")) for n in range(6)]
    assert sync(pds, rushdb, account, tmp_path / "state")["created"] == 16

    # More than a few of each kind in one chunk: six facts edited into others (their RECORDED_AS
    # go), five records that supersede no more (their SUPERSEDES go).
    for n, uri in enumerate(edited):
        repo.put(RECORD_NSID, uri.rsplit("/", 1)[1], plain(f"The user drinks coffee number {n}."))
    for n, uri in enumerate(later):
        repo.put(RECORD_NSID, uri.rsplit("/", 1)[1], plain(f"The user likes item {n} less."))
    again = sync(pds, rushdb, account, tmp_path / "state")
    assert (again["created"], again["retired"]) == (6, 6)

    held = snapshot(rushdb)
    fresh = rushdb_server.new_project("fresh")
    sync(pds, fresh, account, tmp_path / "fresh")
    assert held["relationships"] == snapshot(fresh)["relationships"]  # the retired facts keep none
    assert all(row["active"] for row in held[rows.FACT].values() if "tea" not in row["text"])
    assert not any(row["active"] for row in held[rows.FACT].values() if "tea" in row["text"])
    for label in MEMORY_LABELS:
        assert len(records(rushdb, label)) == len(held[label]), label
