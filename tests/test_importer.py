"""Import of memory records: from real signed CARs (offline) and from the real local PDS.

CARs come from ``devkit.repo_builder`` (real DAG-CBOR, MST and signatures, with one thing broken
on request). PDS tests talk to the reference PDS; requests are observed by a transport that
forwards each one to it unchanged (observation, not a mock), so that a test can say which
XRPC calls an import made.
"""

from __future__ import annotations

import io
import json
import os
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx
import pytest
from devkit.account import account_records
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds, Repo
from devkit.repo_builder import COLLECTION, DID, Breakage, Keypair, build_repo, tid

from pdsmem.bridge.pipelines.importer import ImportBatch, Importer, RecordProblem, verify_source
from pdsmem.bridge.atproto.repo import key_depth
from pdsmem.bridge.pipelines.state import State
from pdsmem.errors import VerificationError
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import RecordView
from pdsmem.mapping.to_record import to_records

KEY = Keypair.generate()
OTHER_KEY = Keypair.generate()
NOTE = "com.example.note"
SCOPE = {"agent_id": "coder", "profile_id": "default", "salt": "s"}
T0 = 1_700_000_000_000_000


def memory(content: Any = "likes green tea", created: Any = "2024-01-01T00:00:00.000Z") -> dict:
    return {"$type": COLLECTION, "content": content, "createdAt": created, "kind": "fact"}


def path(index: int) -> str:
    return f"{COLLECTION}/{tid(T0 + index * 1_000_000)}"


def uri(record_path: str, did: str = DID) -> str:
    return f"at://{did}/{record_path}"


def rev(index: int) -> str:
    return tid(1_710_000_000_000_000 + index * 1_000_000)


INVALID = {
    path(10): (memory(content="x" * 10_001), "content"),
    path(11): (memory(created="yesterday"), "createdAt"),
    path(12): (memory(content=42), "content"),
}


@pytest.fixture
def state(tmp_path: Path) -> State:
    with State(tmp_path / "state") as opened:
        yield opened


def importer(state: State, **kw: Any) -> Importer:
    return Importer(state, **SCOPE, **kw)


def car_file(tmp_path: Path, records: dict, name: str = "repo.car", **kw: Any) -> Path:
    target = tmp_path / name
    target.write_bytes(build_repo(records, keypair=KEY, **kw).car)
    return target


def ops(batch: ImportBatch) -> list[tuple[str, str]]:
    return [(change.op, change.uri) for change in batch.changes()]


def objects(batch: ImportBatch) -> list[dict]:
    """The JSON object of each change, as delivered."""
    return [change.to_json() for change in batch.changes()]


def deliver(imp: Importer, batch: ImportBatch) -> list[str]:
    out = io.StringIO()
    imp.deliver(batch, out)
    return out.getvalue().splitlines()


# --- offline: CAR files ---------------------------------------------------------------------


def test_only_valid_memory_records_are_imported_and_each_invalid_one_is_reported(
    tmp_path: Path, state: State
) -> None:
    records = {path(1): memory("one"), path(2): memory("two"),
               f"{NOTE}/{tid(T0)}": {"$type": NOTE, "text": "not a memory"}}
    records.update({p: value for p, (value, _) in INVALID.items()})
    with importer(state).from_car(car_file(tmp_path, records), signing_key=KEY.did_key) as batch:
        assert ops(batch) == [("create", uri(path(1))), ("create", uri(path(2)))]
        assert [obj["event"]["text"] for obj in objects(batch)] == ["one", "two"]
    assert [problem.uri for problem in batch.failures] == [uri(p) for p in INVALID]
    reasons = [problem.reason for problem in batch.failures]
    assert reasons[0] == "$.content: must be at most 10000 bytes long (got 10001)"
    assert reasons[1].startswith("$.createdAt: must be a valid datetime") and "'yesterday'" in reasons[1]
    assert reasons[2] == "$.content: must be a string (got integer)"
    assert batch.summary == {"created": 2, "updated": 0, "unchanged": 0, "deleted": 0, "failed": 3}


def test_scope_comes_from_configuration_and_the_verified_did(tmp_path: Path, state: State) -> None:
    hostile = dict(memory(), agentId="attacker", profileId="admin", sandboxEligible=True)
    with importer(state).from_car(car_file(tmp_path, {path(1): hostile}), signing_key=KEY.did_key) as batch:
        [change] = objects(batch)
    event = change["event"]
    assert (event["agentId"], event["profileId"], event["sandboxEligible"]) == ("coder", "default", False)
    assert change["record"]["uri"] == uri(path(1))


def test_delivered_lines_and_cursor(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    with imp.from_car(car_file(tmp_path, {path(1): memory()}, rev=rev(1)), signing_key=KEY.did_key) as batch:
        assert state.cursor(DID) is None
        lines = deliver(imp, batch)
    assert len(lines) == 1 and lines[0].startswith('{"op":"create","event":{')
    assert state.cursor(DID).rev == rev(1)
    assert state.seen_records(DID) == {uri(path(1)): json.loads(lines[0])["record"]["cid"]}


def test_same_repository_again_gives_nothing(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    car = car_file(tmp_path, {path(1): memory(), path(2): memory("b")})
    with imp.from_car(car, signing_key=KEY.did_key) as first:
        deliver(imp, first)
    with imp.from_car(car, signing_key=KEY.did_key) as again:
        assert list(again.changes()) == [] and again.summary["unchanged"] == 2
        assert deliver(imp, again) == []


def test_created_updated_deleted_between_two_exports(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    before = {path(1): memory("keep"), path(2): memory("edit me"), path(3): memory("drop me")}
    with imp.from_car(car_file(tmp_path, before, rev=rev(1)), signing_key=KEY.did_key) as first:
        was = {json.loads(line)["event"]["text"]: json.loads(line)["event"]["factId"] for line in deliver(imp, first)}
    after = {path(1): memory("keep"), path(2): memory("edited"), path(4): memory("new")}
    with imp.from_car(car_file(tmp_path, after, "v2.car", rev=rev(2)), signing_key=KEY.did_key) as batch:
        assert ops(batch) == [("update", uri(path(2))), ("create", uri(path(4))), ("delete", uri(path(3)))]
        assert batch.summary["unchanged"] == 1
        lines = [json.loads(line) for line in deliver(imp, batch)]
    # The facts the edited and the deleted records made before are named, for a reader to retire.
    assert lines[0]["links"]["retiresFactIds"] == [was["edit me"]] and "retiresFactIds" not in lines[1]["links"]
    assert lines[-1] == {"op": "delete", "uri": uri(path(3)), "retiresFactIds": [was["drop me"]]}
    assert set(state.seen_records(DID)) == {uri(path(1)), uri(path(2)), uri(path(4))}


def test_a_record_that_turns_invalid_keeps_its_last_import_so_its_deletion_is_reported(
    tmp_path: Path, state: State
) -> None:
    imp = importer(state)
    with imp.from_car(car_file(tmp_path, {path(1): memory()}, rev=rev(1)), signing_key=KEY.did_key) as batch:
        deliver(imp, batch)
    first = state.seen_records(DID)
    with imp.from_car(
        car_file(tmp_path, {path(1): memory(created="soon")}, "v2.car", rev=rev(2)), signing_key=KEY.did_key
    ) as broken:
        assert list(broken.changes()) == [] and [p.uri for p in broken.failures] == [uri(path(1))]
        deliver(imp, broken)
    assert state.seen_records(DID) == first
    with imp.from_car(car_file(tmp_path, {}, "v3.car", rev=rev(3)), signing_key=KEY.did_key) as gone:
        assert ops(gone) == [("delete", uri(path(1)))]


def test_full_writes_every_record_again(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    car = car_file(tmp_path, {path(1): memory(), path(2): memory("b")})
    with imp.from_car(car, signing_key=KEY.did_key) as first:
        deliver(imp, first)
    with imp.from_car(car, signing_key=KEY.did_key, full=True) as batch:
        assert ops(batch) == [("create", uri(path(1))), ("create", uri(path(2)))]


class FailingOut(io.StringIO):
    """An output that fails like a full disk after ``lines`` lines."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.left = lines

    def write(self, text: str) -> int:
        if text == "\n":
            self.left -= 1
        if self.left < 0:
            raise OSError(28, "No space left on device")
        return super().write(text)


def test_cursor_does_not_move_when_the_output_cannot_be_written(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    car = car_file(tmp_path, {path(1): memory("a"), path(2): memory("b")})
    with imp.from_car(car, signing_key=KEY.did_key) as batch, pytest.raises(OSError, match="No space left"):
        imp.deliver(batch, FailingOut(lines=1))
    assert state.cursor(DID) is None and state.seen_records(DID) == {}
    with imp.from_car(car, signing_key=KEY.did_key) as again:
        assert len(deliver(imp, again)) == 2


def test_output_file_is_on_disk_before_the_cursor_moves(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    target = tmp_path / "out.jsonl"
    with imp.from_car(car_file(tmp_path, {path(1): memory()}), signing_key=KEY.did_key) as batch, \
            target.open("w", encoding="utf-8") as out:
        imp.deliver(batch, out)
        assert len(target.read_text().splitlines()) == 1  # flushed, not only buffered
    assert state.cursor(DID) is not None


# --- supersession and memory: the batch is read in two passes ------------------------------

FOREIGN = "at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/dev.bastienrobert.memory.record/3l2uygzaf5s2k"


def superseding(content: str, *targets: str) -> dict:
    return dict(memory(content), supersedes=list(targets))


def as_one_batch(imp: Importer, records: dict, cids: dict, op: str = "create") -> list[dict]:
    """The objects ``from_records`` gives for ``records`` mapped as one batch held in memory."""
    views = [RecordView(uri=uri(p), cid=str(cids[p]), value=value) for p, value in sorted(records.items())]
    ok, _ = from_records(views, imp.scope_for(DID))
    return json.loads(json.dumps([{"op": op, **item.to_json()} for item in ok]))


def test_supersession_inside_a_batch_is_what_mapping_the_batch_at_once_gives(
    tmp_path: Path, state: State
) -> None:
    episode_value = to_records([episode(1)], DID)[0][0].value
    records = {
        path(1): memory("Tea."),
        path(2): superseding("Coffee.", uri(path(1))),  # supersedes an earlier record
        path(3): superseding("Water.", uri(path(4)), uri(path(2))),  # a later one, and a chain
        path(4): memory("Juice."),
        path(5): superseding("Milk.", uri(path(9)), FOREIGN, uri(path(5)), uri(path(8))),  # none resolves
        path(6): episode_value,
        path(7): superseding("Soda.", uri(path(6))),  # an episode is not a fact
        path(8): memory(content=42),  # fails, so it is not in the batch
    }
    imp = importer(state)
    built = build_repo(records, keypair=KEY, rev=rev(1))
    (tmp_path / "repo.car").write_bytes(built.car)
    with imp.from_car(tmp_path / "repo.car", signing_key=KEY.did_key) as batch:
        streamed = objects(batch)
        lines = deliver(imp, batch)
    assert [json.loads(line) for line in lines] == streamed
    valid = {p: value for p, value in records.items() if p != path(8)}
    assert streamed == as_one_batch(imp, valid, built.record_cids)
    events = {obj["event"].get("text") or obj["event"]["summary"]: obj for obj in streamed}
    assert [text for text, obj in events.items() if obj["event"].get("active") is False] == [
        "Tea.", "Coffee.", "Juice."
    ]
    fact_id = {text: obj["event"].get("factId") for text, obj in events.items()}
    assert events["Water."]["links"]["supersedesFactIds"] == [fact_id["Juice."], fact_id["Coffee."]]
    assert events["Coffee."]["event"]["supersedesFactId"] == fact_id["Tea."]
    for unresolved in ("Milk.", "Soda."):
        assert "supersedesFactIds" not in events[unresolved]["links"]
        assert "supersedesFactId" not in events[unresolved]["event"]

    # next import: only the changed records form the batch. A link to a fact imported before
    # resolves through what the cursor remembers, and a remembered record's links still hold.
    assert state.seen_facts(DID, imp.reader)[uri(path(3))].supersedes == (uri(path(4)), uri(path(2)))
    later = dict(records)
    later[path(4)] = memory("Juice, fresh.")  # "Water." (unchanged) supersedes it
    later[path(10)] = superseding("Tonic.", uri(path(1)), uri(path(11)))  # "Tea." (unchanged), nothing
    built = build_repo(later, keypair=KEY, rev=rev(2))
    (tmp_path / "v2.car").write_bytes(built.car)
    with imp.from_car(tmp_path / "v2.car", signing_key=KEY.did_key) as batch:
        second = objects(batch)
        deliver(imp, batch)
    expected = as_one_batch(imp, {p: later[p] for p in (path(4), path(10))}, built.record_cids)
    expected[0]["op"] = "update"
    expected[0]["event"]["active"] = False
    expected[0]["links"]["retiresFactIds"] = [fact_id["Juice."]]  # edited into another fact
    expected[1]["links"]["supersedesFactIds"] = [fact_id["Tea."]]
    expected[1]["event"]["supersedesFactId"] = fact_id["Tea."]
    assert second[:2] == expected
    assert [obj["event"]["text"] for obj in second] == ["Juice, fresh.", "Tonic.", "Water."]
    assert second[1]["event"]["active"] is True
    # "Water." did not change, but the fact it links to did: written again with the new id
    water = second[2]
    assert water["op"] == "update" and water["record"]["uri"] == uri(path(3))
    assert water["links"]["supersedesFactIds"] == [second[0]["event"]["factId"], fact_id["Coffee."]]
    remembered = state.seen_facts(DID, imp.reader)
    assert remembered[uri(path(4))].fact_id == second[0]["event"]["factId"] != fact_id["Juice."]
    assert remembered[uri(path(10))].supersedes == (uri(path(1)), uri(path(11)))
    assert uri(path(6)) not in remembered  # an episode


def test_incremental_imports_applied_in_order_give_what_a_full_import_gives(tmp_path: Path, state: State) -> None:
    """Links that appear and go away between imports: each fact whose ``active`` changes is
    written again, so a consumer applying the lines holds the same events as a fresh import."""
    versions = [
        {path(1): memory("Tea."), path(2): memory("Juice."), path(3): memory("Milk.")},
        {path(1): memory("Tea."), path(2): memory("Juice."), path(3): memory("Milk."),
         path(4): superseding("Coffee.", uri(path(1)), uri(path(2)))},  # new: supersedes 1 and 2
        {path(1): memory("Tea."), path(2): memory("Juice."), path(3): memory("Milk."),
         path(4): superseding("Coffee.", uri(path(1))),  # edited: no longer supersedes 2
         path(5): superseding("Water.", uri(path(3)))},  # new: supersedes 3
        {path(1): memory("Tea."), path(2): memory("Juice."), path(3): memory("Milk, cold.")},  # 4, 5 deleted
        {path(1): memory("Tea."), path(6): superseding("Soda.", uri(path(7)))},  # links to nothing yet
        {path(1): memory("Tea."), path(6): superseding("Soda.", uri(path(7))), path(7): memory("Cola.")},
        {path(1): memory("Tea."), path(6): superseding("Soda.", uri(path(7))), path(7): memory("Cola, diet.")},
        {path(1): memory("Tea."), path(6): superseding("Soda.", uri(path(7)))},  # its target deleted
    ]
    imp = importer(state)
    held: dict[str, dict] = {}  # what a consumer applying the lines holds: uri → event
    for number, records in enumerate(versions):
        built = build_repo(records, keypair=KEY, rev=rev(number + 1))
        (tmp_path / f"v{number}.car").write_bytes(built.car)
        with imp.from_car(tmp_path / f"v{number}.car", signing_key=KEY.did_key) as batch:
            for obj in objects(batch):
                if obj["op"] == "delete":
                    held.pop(obj["uri"])
                else:
                    held[obj["record"]["uri"]] = obj["event"]
                for fact_id in obj.get("retiresFactIds") or obj.get("links", {}).get("retiresFactIds") or []:
                    assert fact_id not in {e.get("factId") for e in held.values()}  # one truth: the old fact is gone
            deliver(imp, batch)
        with State(tmp_path / f"fresh-{number}") as fresh_state:
            with importer(fresh_state).from_car(tmp_path / f"v{number}.car", signing_key=KEY.did_key) as fresh:
                expected = {obj["record"]["uri"]: obj["event"] for obj in objects(fresh)}
        assert held == expected, f"after version {number}"
    assert {event["text"]: event["active"] for event in held.values()} == {"Tea.": True, "Soda.": True}
    assert "supersedesFactId" not in held[uri(path(6))]


def test_a_closed_batch_cannot_be_delivered_and_the_cursor_stays(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    with imp.from_car(car_file(tmp_path, GOOD), signing_key=KEY.did_key) as batch:
        pass
    assert batch.summary["created"] == len(GOOD)  # the counts outlive the files
    with pytest.raises(ValueError, match="the import batch is closed; deliver its changes before closing it"):
        imp.deliver(batch, io.StringIO())
    assert state.cursor(DID) is None


def test_import_memory_grows_by_small_facts_per_record_not_by_the_records(
    tmp_path: Path, state: State
) -> None:
    """Holding every changed record until the batch is mapped at once peaked near 4.8 KB per record
    here; the two-pass import keeps under 1 KB (its indexes and the block store's). Measured as
    the peak's growth from 500 records to 1,500, so that what is made once (a pattern of the
    privacy gate compiled on first use, for the notes of secrets) is not counted per record."""
    imp = importer(state)
    with imp.from_car(car_file(tmp_path, GOOD, "warm-up.car"), signing_key=KEY.did_key) as batch:
        objects(batch)  # loads the lexicons and every module first; the cursor stays

    def peak_of(count: int) -> int:
        views, _ = to_records([fact(n) for n in range(count)], DID)
        records = {f"{COLLECTION}/{view.uri.rsplit('/', 1)[1]}": view.value for view in views}
        car = car_file(tmp_path, records, f"{count}.car")
        tracemalloc.start()
        try:
            with imp.from_car(car, signing_key=KEY.did_key, full=True) as batch:
                imp.deliver(batch, Discard())
                assert batch.summary["created"] + batch.summary["updated"] + batch.summary["unchanged"] == count
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak_of(500)  # (the gate's patterns, compiled once)
    grown = (peak_of(1_500) - peak_of(500)) / 1_000
    assert grown < 2_048, f"{grown:.0f} bytes per record"


class Discard(io.TextIOBase):
    """An output that keeps nothing."""

    def write(self, text: str) -> int:
        return len(text)


# --- offline refusals -----------------------------------------------------------------------

GOOD = {path(i): memory(f"memory {i}") for i in range(1, 9)}


def refused(tmp_path: Path, state: State, **kw: Any) -> VerificationError:
    did = kw.pop("did", None)
    car = car_file(tmp_path, GOOD, **kw)
    with pytest.raises(VerificationError) as caught:
        importer(state).from_car(car, did=did, signing_key=KEY.did_key)
    assert state.cursor(DID) is None
    return caught.value


def test_one_byte_changed_in_a_record_block_refuses_the_car(tmp_path: Path, state: State) -> None:
    err = refused(tmp_path, state, breakage=Breakage(flip_byte_in=path(3)))
    cid = build_repo(GOOD, keypair=KEY).record_cids[path(3)]
    assert err.message == f"block bytes do not match their CID {cid}"
    assert err.path.startswith("byte ")


def test_missing_record_block_fails_that_record_only(tmp_path: Path, state: State) -> None:
    built = build_repo(GOOD, keypair=KEY, breakage=Breakage(drop_records={path(3)}))
    (tmp_path / "repo.car").write_bytes(built.car)
    with importer(state).from_car(tmp_path / "repo.car", signing_key=KEY.did_key) as batch:
        assert batch.failures == [RecordProblem(
            uri(path(3)), f"record block {built.record_cids[path(3)]} is missing from the CAR"
        )]
        assert len(list(batch.changes())) == len(GOOD) - 1


def test_missing_mst_node_refuses_the_car(tmp_path: Path, state: State) -> None:
    err = refused(tmp_path, state, breakage=Breakage(drop_mst_node=True))
    assert err.message == "MST node is missing from the CAR; the repository is incomplete"
    assert err.did == DID


def test_commit_signed_by_another_key(tmp_path: Path, state: State) -> None:
    err = refused(tmp_path, state, breakage=Breakage(signer=OTHER_KEY))
    assert err.message == f"commit signature does not verify against signing key {KEY.did_key}"


def test_commit_naming_another_did(tmp_path: Path, state: State) -> None:
    other = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
    err = refused(tmp_path, state, did=DID, breakage=Breakage(commit_did=other))
    assert err.message == f"commit names {other!r}, expected {DID}"


def test_older_repository_after_a_newer_one_is_a_rollback(tmp_path: Path, state: State) -> None:
    imp = importer(state)
    with imp.from_car(car_file(tmp_path, GOOD, "new.car", rev=rev(5)), signing_key=KEY.did_key) as batch:
        deliver(imp, batch)
    older = car_file(tmp_path, {path(1): memory()}, "old.car", rev=rev(4))
    with pytest.raises(VerificationError) as caught:
        imp.from_car(older, signing_key=KEY.did_key)
    assert caught.value.message == (
        f"rollback: commit rev {rev(4)} is older than the already synced rev {rev(5)}"
    )
    assert state.cursor(DID).rev == rev(5) and len(state.seen_records(DID)) == len(GOOD)


def test_a_file_that_is_not_a_car(tmp_path: Path, state: State) -> None:
    junk = tmp_path / "notes.car"
    junk.write_text("hello")
    with pytest.raises(VerificationError, match="truncated CAR: header needs 104 bytes"):
        importer(state).from_car(junk, signing_key=KEY.did_key)


# --- against the real PDS -------------------------------------------------------------------


class Observed(httpx.BaseTransport):
    """Forwards every request to the real server unchanged and records what was asked."""

    def __init__(self) -> None:
        self.real = httpx.HTTPTransport()
        self.calls: list[tuple[str, dict[str, str]]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.calls.append((request.url.path.rsplit("/", 1)[-1], dict(request.url.params)))
        return self.real.handle_request(request)

    def close(self) -> None:  # shared by several clients in turn; closed by the test
        pass

    def get_repo_calls(self) -> list[dict[str, str]]:
        return [params for name, params in self.calls if name == "com.atproto.sync.getRepo"]


def rkeys_at(depth: int, count: int, start: int) -> list[str]:
    """``count`` TID record keys whose memory-record paths sit at MST ``depth``."""
    found, micros = [], start
    while len(found) < count:
        if key_depth(f"{COLLECTION}/{tid(micros)}") == depth:
            found.append(tid(micros))
        micros += 1_000
    return found


@pytest.fixture
def observed() -> Observed:
    transport = Observed()
    yield transport
    transport.real.close()


def pds_importer(state: State, pds: LocalPds, observed: Observed) -> Importer:
    return importer(state, plc_url=pds.plc_url, pds_hint=pds.url, transport=observed)


@pytest.mark.pds
def test_pds_import_then_nothing_then_exactly_what_changed(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    repo = Repo(pds, account)
    repo.create(NOTE, {"$type": NOTE, "text": "a note, not a memory"})
    valid = [repo.create(COLLECTION, memory(f"memory {i}")) for i in range(3)]
    invalid = {repo.create(COLLECTION, value): field for value, field in INVALID.values()}
    imp = pds_importer(state, pds, observed)

    with imp.from_pds(account.handle) as first:
        assert first.read == "full" and first.did == account.did
        assert sorted(ops(first)) == sorted(("create", u) for u in valid)
        assert {p.uri: p.reason.split(":")[0] for p in first.failures} == {
            u: f"$.{field}" for u, field in invalid.items()
        }
        assert len(deliver(imp, first)) == 3
    cursor = state.cursor(account.did)

    observed.calls.clear()
    with imp.from_pds(account.did) as second:  # nothing changed, but the invalid records are told again
        assert observed.get_repo_calls() == []  # the failures are told again from the state
        assert second.read == "unchanged" and list(second.changes()) == []
        assert [p.uri for p in second.failures] == [p.uri for p in first.failures]
        assert deliver(imp, second) == []
    assert state.cursor(account.did) == cursor

    added = repo.create(COLLECTION, memory("a new memory"))
    edited = repo.put(COLLECTION, valid[0].rsplit("/", 1)[1], memory("memory 0, revised"))
    repo.delete(COLLECTION, valid[1].rsplit("/", 1)[1])
    observed.calls.clear()
    with imp.from_pds(account.handle) as third:
        assert sorted(ops(third)) == sorted([("create", added), ("update", edited), ("delete", valid[1])])
        texts = {obj["record"]["uri"]: obj["event"]["text"] for obj in objects(third) if obj["op"] != "delete"}
        assert texts == {added: "a new memory", edited: "memory 0, revised"}
        assert observed.get_repo_calls()[0] == {"did": account.did, "since": cursor.rev}
        # regression: the invalid records, unchanged, forced a full read on every later import;
        # they are remembered as failed with their CID, and told again from the diff
        assert third.read == "diff" and len(third.failures) == 3
        assert {p.uri: p.reason.split(":")[0] for p in third.failures} == {u: f"$.{f}" for u, f in invalid.items()}
        deliver(imp, third)
    assert state.cursor(account.did).rev > cursor.rev


@pytest.mark.pds
def test_pds_diff_is_used_when_it_holds_everything_that_changed(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    repo = Repo(pds, account)
    keys = rkeys_at(0, 5, T0)  # one MST node: every commit rewrites all of the tree
    for index, rkey in enumerate(keys[:3]):
        repo.put(COLLECTION, rkey, memory(f"memory {index}"))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        deliver(imp, first)
    cursor = state.cursor(account.did)

    repo.put(COLLECTION, keys[3], memory("new"))
    repo.put(COLLECTION, keys[0], memory("memory 0, revised"))
    repo.delete(COLLECTION, keys[1])
    observed.calls.clear()
    with imp.from_pds(account.did) as batch:
        base = f"at://{account.did}/{COLLECTION}/"
        assert ops(batch) == [("update", base + keys[0]), ("create", base + keys[3]),
                              ("delete", base + keys[1])]
    assert batch.read == "diff" and batch.summary["unchanged"] == 1
    assert observed.get_repo_calls() == [{"did": account.did, "since": cursor.rev}]


@pytest.mark.pds
def test_pds_diff_missing_an_mst_node_falls_back_to_a_full_read(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    repo = Repo(pds, account)
    top = rkeys_at(1, 1, T0 + 50_000_000)[0]
    low = rkeys_at(0, 1, T0)[0]  # before `top`: in the left sub-tree
    high = rkeys_at(0, 2, T0 + 100_000_000)  # after `top`: in the right sub-tree
    for rkey in (low, top, high[0]):
        repo.put(COLLECTION, rkey, memory(f"memory {rkey}"))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        deliver(imp, first)
    state.keep_nodes(account.did, [])  # as a state directory from before nodes were kept

    repo.put(COLLECTION, high[1], memory("new, on the right"))  # the left node stays as it was
    observed.calls.clear()
    with imp.from_pds(account.did) as batch:
        assert ops(batch) == [("create", f"at://{account.did}/{COLLECTION}/{high[1]}")]
    assert batch.read == "full after diff" and batch.summary["unchanged"] == 3
    since = state.cursor(account.did).rev
    assert observed.get_repo_calls() == [{"did": account.did, "since": since}, {"did": account.did}]


@pytest.mark.pds
def test_pds_older_than_the_cursor_is_a_rollback(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    Repo(pds, account).create(COLLECTION, memory())
    future = tid(int(time.time() * 1_000_000) + 86_400_000_000)  # as if a later rev was synced
    state.advance(account.did, future, "bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy", {})
    with pytest.raises(VerificationError) as caught:
        pds_importer(state, pds, observed).from_pds(account.did)
    assert caught.value.message.startswith("rollback: the PDS reports rev ")
    assert caught.value.message.endswith(f", older than the already synced rev {future}")
    assert observed.get_repo_calls() == []
    assert state.cursor(account.did).rev == future


@pytest.mark.pds
def test_two_scopes_importing_one_repository_keep_separate_cursors(pds, account, tmp_path):
    """Each import scope has its own cursor: the second scope gets everything, not nothing."""
    from pdsmem.bridge.pipelines.importer import Importer
    from pdsmem.bridge.pipelines.state import State

    value = {"$type": "dev.bastienrobert.memory.record", "content": "Tea.", "createdAt": "2026-09-01T10:00:00Z"}
    httpx.post(f"{pds.url}/xrpc/com.atproto.repo.createRecord", headers=account.auth_headers,
               json={"repo": account.did, "collection": "dev.bastienrobert.memory.record", "record": value}).raise_for_status()
    with State(tmp_path / "state") as state:
        first = Importer(state, agent_id="coder", profile_id="one", plc_url=pds.plc_url, pds_hint=pds.url)
        second = Importer(state, agent_id="coder", profile_id="two", plc_url=pds.plc_url, pds_hint=pds.url)
        for importer in (first, second):
            with importer.from_pds(account.did) as batch:
                assert batch.count("create") == 1
                importer.deliver(batch, io.StringIO())
        for importer in (first, second):
            with importer.from_pds(account.did) as batch:
                assert batch.read == "unchanged"
        assert {c.reader.split("/")[1] for c in state.cursors()} == {"one", "two"}


@pytest.mark.pds
def test_pds_reads_report_every_byte_that_arrives(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    """The progress hook of a PDS read sees the whole repository, chunk by chunk, for an import
    and for a verification alike."""
    repo = Repo(pds, account)
    for index in range(100):  # random text: the answer stays large when compressed
        repo.create(COLLECTION, memory(f"memory {index} " + os.urandom(1_000).hex()))
    car = httpx.get(f"{pds.url}/xrpc/com.atproto.sync.getRepo", params={"did": account.did})
    car.raise_for_status()

    chunks: list[int] = []
    with pds_importer(state, pds, observed).from_pds(account.did, on_read=chunks.append) as batch:
        assert batch.count("create") == 100
    assert sum(chunks) == len(car.content) > 200_000

    verified: list[int] = []
    report = verify_source(account.did, car=False, plc_url=pds.plc_url, pds_hint=pds.url,
                           on_read=verified.append)
    assert report.record_count == 100 and sum(verified) == len(car.content)
    assert len(verified) > 1  # as it arrives, not once at the end (the test transport above buffers)


@pytest.mark.pds
def test_pds_import_writes_a_fact_again_when_a_later_record_supersedes_it(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    """The superseded record is unchanged, so a ``since`` diff lacks its block: the import fetches
    that one record, and writes the fact again as inactive."""
    repo = Repo(pds, account)
    keys = rkeys_at(0, 2, T0)
    tea = repo.put(COLLECTION, keys[0], memory("Tea."))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        [line] = objects(first)
        tea_id = line["event"]["factId"]
        deliver(imp, first)

    coffee = repo.put(COLLECTION, keys[1], superseding("Coffee.", tea))
    observed.calls.clear()
    with imp.from_pds(account.did) as second:
        lines = objects(second)
        deliver(imp, second)
    assert [(obj["op"], obj["record"]["uri"], obj["event"]["active"]) for obj in lines] == [
        ("create", coffee, True), ("update", tea, False)]
    assert lines[0]["links"]["supersedesFactIds"] == [tea_id] and lines[1]["event"]["factId"] == tea_id
    assert second.read == "diff"  # the unchanged record's block came from getRecord
    assert [name for name, _ in observed.calls if name.startswith("com.atproto.sync.get")] == [
        "com.atproto.sync.getLatestCommit", "com.atproto.sync.getRepo", "com.atproto.sync.getRecord"]

    repo.delete(COLLECTION, keys[1])
    with imp.from_pds(account.did) as third:
        assert [(obj["op"], obj.get("uri") or obj["record"]["uri"]) for obj in objects(third)] == [
            ("update", tea), ("delete", coffee)]
        assert objects(third)[0]["event"]["active"] is True


def test_a_fact_whose_active_state_changes_but_whose_block_is_missing_is_reported(
    tmp_path: Path, state: State
) -> None:
    imp = importer(state)
    first = {path(1): memory("Tea.")}
    (tmp_path / "v1.car").write_bytes(build_repo(first, keypair=KEY, rev=rev(1)).car)
    with imp.from_car(tmp_path / "v1.car", signing_key=KEY.did_key) as batch:
        deliver(imp, batch)
    later = {**first, path(2): superseding("Coffee.", uri(path(1)))}
    built = build_repo(later, keypair=KEY, rev=rev(2), breakage=Breakage(drop_records={path(1)}))
    (tmp_path / "v2.car").write_bytes(built.car)
    with imp.from_car(tmp_path / "v2.car", signing_key=KEY.did_key) as batch:
        assert ops(batch) == [("create", uri(path(2)))]
        assert [(p.uri, p.reason.split(",")[0]) for p in batch.failures] == [
            (uri(path(1)), f"its record block {built.record_cids[path(1)]} is missing from the repository")]
        deliver(imp, batch)


@pytest.mark.pds
def test_a_car_checked_against_a_given_key_does_not_raise_the_rollback_floor(
    pds: LocalPds, account: Account, state: State, observed: Observed, tmp_path: Path
) -> None:
    """Anyone can sign a CAR that names someone's DID with a key of their own; importing it with
    --did/--signing-key must not make the real repository look like a rollback."""
    repo = Repo(pds, account)
    repo.create(COLLECTION, memory("the real one"))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as batch:
        deliver(imp, batch)
    real = state.latest_revs()
    mallory = Keypair.generate()
    later = tid(int(time.time() * 1_000_000) + 60_000_000)  # a minute ahead: within the clock skew
    forged = build_repo({path(1): memory("forged")}, keypair=mallory, did=account.did, rev=later)
    (tmp_path / "forged.car").write_bytes(forged.car)
    with imp.from_car(tmp_path / "forged.car", did=account.did, signing_key=mallory.did_key) as batch:
        deliver(imp, batch)  # the same scope: its cursor now names the forged rev
    assert state.latest_revs() == real  # the DID's own floor neither moved nor went away
    assert state.latest_revs(mallory.did_key) == {account.did: later}
    repo.create(COLLECTION, memory("a later real one"))
    with imp.from_pds(account.did) as batch:
        texts = sorted(obj["event"]["text"] for obj in objects(batch) if obj["op"] != "delete")
        assert texts == ["a later real one", "the real one"]


def test_a_commit_from_the_future_is_refused(tmp_path: Path, state: State) -> None:
    future = tid(int(time.time() * 1_000_000) + 86_400_000_000 * 365 * 70)
    (tmp_path / "future.car").write_bytes(build_repo(GOOD, keypair=KEY, rev=future).car)
    with pytest.raises(VerificationError, match=rf"commit rev {future} is dated 2\d\d\d-.* in the future"):
        importer(state).from_car(tmp_path / "future.car", signing_key=KEY.did_key)
    assert state.latest_revs() == {}


@pytest.mark.pds
def test_pds_diff_is_used_on_a_deep_tree_through_the_nodes_kept_from_the_last_import(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    """A since-diff holds only the MST nodes that changed; the nodes kept from the last import
    fill in the rest, so the import reads the diff, not the whole repository."""
    repo = Repo(pds, account)
    keys = rkeys_at(0, 30, T0) + rkeys_at(1, 3, T0 + 7_000_000) + rkeys_at(2, 1, T0 + 50_000_000)
    for index, rkey in enumerate(keys):
        repo.put(COLLECTION, rkey, memory(f"memory {index}"))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        deliver(imp, first)
    assert len(list(state.known_nodes(account.did))) >= 3  # a tree of three layers

    added = repo.put(COLLECTION, rkeys_at(0, 1, T0 + 90_000_000)[0], memory("a new one"))
    observed.calls.clear()
    with imp.from_pds(account.did) as second:
        assert [(obj["op"], obj["record"]["uri"]) for obj in objects(second)] == [("create", added)]
        assert second.read == "diff" and second.summary["unchanged"] == len(keys)
        deliver(imp, second)
    assert len(observed.get_repo_calls()) == 1 and "since" in observed.get_repo_calls()[0]


@pytest.mark.pds
def test_a_diff_of_a_large_account_walks_the_changed_paths_and_the_memory_records_not_the_whole_tree(
    pds: LocalPds, state: State, observed: Observed
) -> None:
    """Regression: an import after one change walked every MST node of the account (3.3 s for
    300,000 records). Unchanged sub-trees of other collections are now placed by the summaries
    the import before kept."""
    account = pds.create_account()
    signer = Keypair.from_private_bytes(pds.signing_key(account.did))
    records = account_records(3000, 30, did=account.did)
    pds.import_repo(account, build_repo(records, keypair=signer, did=account.did,
                                       rev=tid(time.time_ns() // 1000)).car)
    repo, imp = Repo(pds, account), pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        deliver(imp, first)
        assert first.tree_complete
    tree = len(list(state.known_nodes(account.did)))
    # The first diff after importRepo holds every block (the PDS dates them at a rev of its own).
    repo.create(COLLECTION, memory("first"))
    with imp.from_pds(account.did) as batch:
        deliver(imp, batch)
    added = repo.create(COLLECTION, memory("second"))
    with imp.from_pds(account.did) as second:
        assert second.read == "diff"
        assert [(obj["op"], obj["record"]["uri"]) for obj in objects(second)] == [("create", added)]
        assert second.summary["unchanged"] == 31
        walked = len(list(second.tree_nodes()))
        assert not second.tree_complete and walked < tree / 4, (walked, tree)
        deliver(imp, second)
    third = repo.create(COLLECTION, memory("third"))
    with imp.from_pds(account.did) as batch:  # the nodes the diff's walk kept serve the next one
        assert [(obj["op"], obj["record"]["uri"]) for obj in objects(batch)] == [("create", third)]
        assert not batch.tree_complete


def test_the_first_import_after_an_upgrade_maps_every_record_again(tmp_path: Path, state: State) -> None:
    """A schema-1 state knows no fact ids: its migration makes the next import map every record
    again, so a new record superseding an old fact still links to it and deactivates it."""
    imp = importer(state)
    first = {path(1): memory("Tea."), path(2): memory("Juice.")}
    (tmp_path / "v1.car").write_bytes(build_repo(first, keypair=KEY, rev=rev(1)).car)
    with imp.from_car(tmp_path / "v1.car", signing_key=KEY.did_key) as batch:
        tea_id = {obj["event"]["text"]: obj["event"]["factId"] for obj in objects(batch)}["Tea."]
        deliver(imp, batch)
    with state.transaction() as db:  # what migration 2 leaves of a schema-1 state
        db.execute("UPDATE repo_record SET cid = '', fact_id = NULL, supersedes = NULL")
        db.execute("UPDATE repo_cursor SET failures = 1")
    later = {**first, path(3): superseding("Coffee.", uri(path(1)))}
    (tmp_path / "v2.car").write_bytes(build_repo(later, keypair=KEY, rev=rev(2)).car)
    with imp.from_car(tmp_path / "v2.car", signing_key=KEY.did_key) as batch:
        lines = {obj["event"]["text"]: (obj["op"], obj["event"]["active"]) for obj in objects(batch)}
        coffee = [obj for obj in objects(batch) if obj["event"]["text"] == "Coffee."][0]
    assert lines == {"Tea.": ("update", False), "Juice.": ("update", True), "Coffee.": ("create", True)}
    assert coffee["links"]["supersedesFactIds"] == [tea_id]


@pytest.mark.pds
def test_a_record_deleted_after_a_delivery_stopped_half_way_is_reported_deleted(
    pds: LocalPds, account: Account, state: State, observed: Observed
) -> None:
    """A run that handed records over but stopped before moving the cursor (a kill): one of those
    records deleted before the next run must come out deleted, not stay behind in the consumer."""
    repo = Repo(pds, account)
    kept = repo.create(COLLECTION, memory("kept"))
    imp = pds_importer(state, pds, observed)
    with imp.from_pds(account.did) as first:
        deliver(imp, first)
    doomed = repo.create(COLLECTION, memory("handed over, then deleted"))
    with imp.from_pds(account.did) as second:
        assert ops(second) == [("create", doomed)]
        imp.begin(second)  # handed over, then killed: the cursor never moves
        list(second.changes())
    repo.delete(COLLECTION, doomed.rsplit("/", 1)[1])
    with imp.from_pds(account.did) as third:
        assert ops(third) == [("delete", doomed)]
        deliver(imp, third)
    assert state.pending(account.did, imp.reader) == set()
    assert set(state.seen_records(account.did, imp.reader)) == {kept}
