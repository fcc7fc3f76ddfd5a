"""``pdsmem import`` and ``pdsmem verify``: output, messages and exit codes.

Against the real local PDS, and with real signed CARs from ``devkit.repo_builder``. The offline
runs point the PLC directory at a closed port: any look-up would fail the run.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from devkit.pds import Account, LocalPds
from devkit.repo_builder import COLLECTION, DID, Breakage, Keypair, build_repo, tid

from pdsmem.bridge.atproto.identity import resolve
from pdsmem.cli import cli

KEY = Keypair.generate()
OTHER_KEY = Keypair.generate()
NOTE = "com.example.note"
NOWHERE = "http://127.0.0.1:9"  # nothing listens there
SCOPE = ["--agent-id", "coder", "--profile-id", "default", "--accept-unsalted-scope"]
T0 = 1_700_000_000_000_000


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("ATP_PDS_HOST", "PDSMEM_AGENT_ID", "PDSMEM_PROFILE_ID", "MEMORY_SCOPE_SALT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ATP_PLC_HOST", NOWHERE)
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path / "state"))


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def memory(content: Any = "likes green tea", created: str = "2024-01-01T00:00:00.000Z") -> dict:
    return {"$type": COLLECTION, "content": content, "createdAt": created}


def path(index: int) -> str:
    return f"{COLLECTION}/{tid(T0 + index * 1_000_000)}"


def uri(index: int) -> str:
    return f"at://{DID}/{path(index)}"


def lines(result: Result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def car(tmp_path: Path, records: dict, name: str = "repo.car", **kw: Any) -> str:
    target = tmp_path / name
    target.write_bytes(build_repo(records, keypair=KEY, **kw).car)
    return str(target)


GOOD = {path(i): memory(f"memory {i}") for i in range(1, 9)}


def import_car(file: str, *more: str) -> Result:
    return run("import", "--from", file, "--signing-key", KEY.did_key, *SCOPE, *more)


# --- CAR files, offline ---------------------------------------------------------------------


def test_import_a_car_file(tmp_path: Path) -> None:
    records = {path(1): memory("one"), path(2): memory(content=42)}
    result = import_car(car(tmp_path, records))
    assert result.exit_code == 3
    assert [(obj["op"], obj["record"]["uri"]) for obj in lines(result)] == [("create", uri(1))]
    assert lines(result)[0]["event"]["text"] == "one"
    assert result.stderr.splitlines() == [
        f"Error: {uri(2)}: $.content: must be a string (got integer) (skipped; fix or delete "
        "the record in the repository, then import again)",
        f"Imported {DID} at rev 3lbt4ilkfw22s (car read): 1 created, 0 updated, 0 unchanged, "
        "0 deleted, 1 failed",
    ]


def test_second_import_writes_nothing_and_out_appends(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    first = import_car(car(tmp_path, GOOD, rev=tid(T0)), "--out", str(out))
    assert first.exit_code == 0 and first.stdout == ""
    assert len(out.read_text().splitlines()) == len(GOOD)
    again = import_car(car(tmp_path, GOOD, rev=tid(T0)), "--out", str(out))
    assert again.exit_code == 0 and "0 created, 0 updated, 8 unchanged" in again.stderr
    changed = dict(GOOD)
    del changed[path(1)]
    third = import_car(car(tmp_path, changed, "v2.car", rev=tid(T0 + 1)), "--out", str(out))
    assert third.exit_code == 0
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(written) == len(GOOD) + 1 and written[-1] == {"op": "delete", "uri": uri(1), **(
        {"retiresFactIds": [written[0]["event"]["factId"]]} if written[0]["event"]["eventType"] == "fact" else {})}


def test_out_dash_is_stdout_not_a_file_named_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (a new user's try): `--out -` appended the memories to a file named "-" in the
    working directory, and the cursor moved, so a second run printed nothing."""
    monkeypatch.chdir(tmp_path)
    result = import_car(car(tmp_path, GOOD, rev=tid(T0)), "--out", "-")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == len(GOOD)
    assert not (tmp_path / "-").exists()
    named = import_car(car(tmp_path, GOOD, "v2.car", rev=tid(T0 + 1)), "--full", "--out", "./-")  # a file named "-"
    assert named.exit_code == 0 and named.stdout == "" and len((tmp_path / "-").read_text().splitlines()) == len(GOOD)


def test_out_file_with_a_cut_off_last_line_gets_a_fresh_line(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"op":"cre')
    assert import_car(car(tmp_path, {path(1): memory()}), "--out", str(out)).exit_code == 0
    assert json.loads(out.read_text().splitlines()[1])["op"] == "create"


def test_import_from_stdin(tmp_path: Path) -> None:
    data = build_repo({path(1): memory()}, keypair=KEY).car
    result = run("import", "--from", "-", "--signing-key", KEY.did_key, *SCOPE, stdin=data)
    assert result.exit_code == 0 and len(lines(result)) == 1


NOTHING_DONE = "nothing was imported and the stored cursor did not move"


def test_missing_mst_node(tmp_path: Path) -> None:
    built = build_repo(GOOD, keypair=KEY, breakage=Breakage(drop_mst_node=True))
    dropped = next(cid for cid in built.mst_blocks if cid != built.data_cid)  # as build_repo does
    (tmp_path / "bad.car").write_bytes(built.car)
    result = import_car(str(tmp_path / "bad.car"))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"Error: bad.car, {DID}, at MST node {dropped} (under bafy")
    assert result.stderr.endswith(
        f"): MST node is missing from the CAR; the repository is incomplete ({NOTHING_DONE})\n"
    )


@pytest.mark.parametrize(
    ("breakage", "pin", "expected"),
    [
        (Breakage(signer=OTHER_KEY), None,
         f"commit signature does not verify against signing key {KEY.did_key} (the commit was "
         f"signed by another key, or the DID document is out of date; {NOTHING_DONE})"),
        (Breakage(commit_did="did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"), DID,
         f"commit names 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', expected {DID} (the CAR belongs to "
         f"another repository; {NOTHING_DONE})"),
    ],
    ids=["another-key", "another-did"],
)
def test_refused_commits(tmp_path: Path, breakage: Breakage, pin: str | None, expected: str) -> None:
    built = build_repo(GOOD, keypair=KEY, breakage=breakage)
    (tmp_path / "bad.car").write_bytes(built.car)
    result = import_car(str(tmp_path / "bad.car"), *(["--did", pin] if pin else []))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"Error: bad.car, {DID}, at commit {built.commit_cid}: {expected}\n"


def test_one_byte_changed_in_a_record_block(tmp_path: Path) -> None:
    result = import_car(car(tmp_path, GOOD, breakage=Breakage(flip_byte_in=path(3))))
    cid = build_repo(GOOD, keypair=KEY).record_cids[path(3)]
    assert result.exit_code == 1
    assert f": block bytes do not match their CID {cid} (the file is cut short or damaged: download the " \
        "repository again; nothing was imported" in result.stderr


def test_missing_record_block_is_reported_and_the_rest_imported(tmp_path: Path) -> None:
    built = build_repo(GOOD, keypair=KEY, breakage=Breakage(drop_records={path(3)}))
    (tmp_path / "repo.car").write_bytes(built.car)
    result = import_car(str(tmp_path / "repo.car"))
    assert result.exit_code == 3 and len(lines(result)) == len(GOOD) - 1
    assert result.stderr.startswith(
        f"Error: {uri(3)}: record block {built.record_cids[path(3)]} is missing from the CAR"
    )


def test_rollback(tmp_path: Path) -> None:
    newer, older = tid(T0 + 10), tid(T0 + 5)
    assert import_car(car(tmp_path, GOOD, "new.car", rev=newer)).exit_code == 0
    result = import_car(car(tmp_path, GOOD, "old.car", rev=older))
    assert result.exit_code == 1 and result.stdout == ""
    assert f"rollback: commit rev {older} is older than the already synced rev {newer}" in result.stderr
    check = run("verify", str(tmp_path / "old.car"), "--signing-key", KEY.did_key)
    assert check.exit_code == 1 and "rollback" in check.stderr
    for refused in (result, check):  # regression: a file on disk was said to come from "the server"
        assert "server" not in refused.stderr
        assert "(this CAR file is an older export of the repository than the one already synced; use a newer " \
               "export, or read the repository from its PDS" in refused.stderr


def test_usage_errors(tmp_path: Path) -> None:
    missing = run("import", "--from", str(tmp_path / "nope.car"), *SCOPE)
    assert missing.exit_code == 2 and "no such CAR file" in missing.stderr
    key_for_handle = run("import", "--from", "alice.test", "--signing-key", KEY.did_key, *SCOPE)
    assert key_for_handle.exit_code == 2
    assert "--signing-key applies to CAR files only" in key_for_handle.stderr


@pytest.mark.parametrize("did, why", [
    ("did:web:example.com%3Ax", "has port 'x'; a port is a number from 1 to 65535"),
    ("did:web:example.com%3A99999", "has port 99999"),
    ("did:web:example.com:users:alice", "did:web with a path is not supported"),
    ("did:web:me%40example.com", "names a host and an optional port (%3A), nothing else"),
])
def test_a_did_web_that_names_no_web_address_is_a_usage_error(did: str, why: str) -> None:
    """Regression: such a DID passed the command line's check and failed at resolution, exit 1,
    as if the network or the identity were at fault."""
    for args in (["verify", did], ["import", "--from", did, *SCOPE]):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert "Invalid value for" in result.stderr and why in result.stderr


def test_verify_a_car(tmp_path: Path) -> None:
    records = dict(GOOD, **{f"{NOTE}/{tid(T0)}": {"$type": NOTE, "text": "hi"}})
    built = build_repo(records, keypair=KEY, rev=tid(T0))
    (tmp_path / "repo.car").write_bytes(built.car)
    result = run("verify", str(tmp_path / "repo.car"), "--signing-key", KEY.did_key)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "repository\tverified", f"did\t{DID}", f"rev\t{tid(T0)}", f"commit\t{built.commit_cid}", "records\t9",
        "memoryRecords\t8", "invalidRecords\t0",
    ]


def test_a_damaged_car_is_named_with_what_to_do(tmp_path: Path) -> None:
    whole = build_repo(GOOD, keypair=KEY, rev=tid(T0)).car
    (tmp_path / "cut.car").write_bytes(whole[: len(whole) - 100])
    for command in (["verify", str(tmp_path / "cut.car")],
                    ["import", "--from", str(tmp_path / "cut.car"), "--agent-id", "a", "--profile-id", "p",
                     "--accept-unsalted-scope"]):
        result = run(*command, "--signing-key", KEY.did_key)
        assert result.exit_code == 1
        assert re.fullmatch(
            r"Error: cut\.car, at byte \d+: truncated CAR: .*\(the file is cut short or damaged: "
            r"download the repository again.*\)\n", result.stderr,
        ), result.stderr


def test_verify_reports_each_bad_record(tmp_path: Path) -> None:
    records = dict(GOOD, **{path(20): memory(created="yesterday"),
                            f"{NOTE}/{tid(T0)}": {"$type": "com.example.other", "text": "hi"}})
    """Regression: verify exited 1 for a sound repository when records other tools wrote failed
    their lexicon. The repository verdict and the record validity report are kept apart."""
    repo = car(tmp_path, records)
    result = run("verify", repo, "--signing-key", KEY.did_key, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["summary"] == {
        "repository": "verified", "did": DID, "rev": "3lbt4ilkfw22s",
        "commit": json.loads(result.stdout)["summary"]["commit"],
        "records": 10, "memoryRecords": 9, "invalidRecords": 2}
    invalid = result.stderr.splitlines()
    assert invalid[0] == (
        f'Invalid: at://{DID}/{NOTE}/{tid(T0)}: record $type "com.example.other" does not match its '
        f"collection {NOTE}"
    )
    assert invalid[1].startswith(f"Invalid: {uri(20)}: $.createdAt: must be a valid datetime")
    assert len(invalid) == 2
    strict = run("verify", repo, "--signing-key", KEY.did_key, "--strict")
    assert strict.exit_code == 3 and "invalidRecords\t2" in strict.stdout


def test_verify_names_a_record_outside_the_data_model_as_not_valid(tmp_path: Path) -> None:
    """Regression: the verdict said "missing or not matching their CID" of a record whose block
    hashes to its CID and holds a float; the Error: line said why, the verdict contradicted it."""
    post = {"$type": "app.bsky.feed.post", "text": "hi"}
    at = f"app.bsky.feed.post/{tid(T0)}"
    raw = {at: b"\xa2" + b"\x64text\xfb\x3f\xf8" + b"\x00" * 6 + b"\x65$type\x72app.bsky.feed.post"}
    repo = car(tmp_path, dict(GOOD, **{at: post}), breakage=Breakage(raw_records=raw))
    result = run("verify", repo, "--signing-key", KEY.did_key, "--json")
    assert result.exit_code == 1, result.stderr
    assert json.loads(result.stdout)["summary"]["repository"] == "failed: 1 record block missing or not valid"
    [error] = result.stderr.splitlines()
    assert error.startswith(f"Error: at://{DID}/{at}: ") and "float" in error


# --- against the real PDS -------------------------------------------------------------------


def write(pds: LocalPds, account: Account, collection: str, record: dict) -> str:
    response = httpx.post(
        f"{pds.url}/xrpc/com.atproto.repo.createRecord", headers=account.auth_headers, timeout=30,
        json={"repo": account.did, "collection": collection, "record": record, "validate": False},
    )
    assert response.status_code == 200, response.text
    return response.json()["uri"]


@pytest.mark.pds
def test_online_import_equals_offline_import_of_the_export(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    write(pds, account, NOTE, {"$type": NOTE, "text": "not a memory"})
    good = [write(pds, account, COLLECTION, memory(f"memory {i}")) for i in range(3)]
    bad = write(pds, account, COLLECTION, memory(content="x" * 10_001))
    online_args = ["--plc", pds.plc_url, "--pds", pds.url, "--state-dir", str(tmp_path / "a")]
    online = run("import", "--from", account.handle, *SCOPE, *online_args)
    assert online.exit_code == 3
    assert sorted(obj["record"]["uri"] for obj in lines(online)) == sorted(good)
    assert online.stderr.startswith(f"Error: {bad}: $.content: must be at most 10000 bytes")
    assert "(full read): 3 created, 0 updated, 0 unchanged, 0 deleted, 1 failed" in online.stderr

    again = run("import", "--from", account.did, *SCOPE, *online_args)  # the invalid one is told again
    assert again.exit_code == 3 and again.stdout == ""
    assert again.stderr.startswith(f"Error: {bad}: $.content: must be at most 10000 bytes")
    assert "(nothing changed since the last import): 0 created, 0 updated, 3 unchanged, 0 deleted, 1 failed" in again.stderr

    export = tmp_path / "export.car"
    export.write_bytes(httpx.get(
        f"{pds.url}/xrpc/com.atproto.sync.getRepo", params={"did": account.did}, timeout=30
    ).content)
    key = resolve(account.did, plc_url=pds.plc_url, pds_hint=pds.url).signing_key
    offline = run("import", "--from", str(export), "--signing-key", key, *SCOPE,
                  "--state-dir", str(tmp_path / "b"))
    assert offline.exit_code == 3
    assert lines(offline) == lines(online)

    check = run("verify", account.handle, "--plc", pds.plc_url, "--pds", pds.url)
    assert check.exit_code == 0 and check.stderr.startswith(f"Invalid: {bad}: $.content")
    assert "repository\tverified" in check.stdout and "invalidRecords\t1" in check.stdout

    added = write(pds, account, COLLECTION, memory("later"))
    newer = run("import", "--from", account.did, *SCOPE, *online_args)
    assert [(obj["op"], obj["record"]["uri"]) for obj in lines(newer)] == [("create", added)]
    stale = run("import", "--from", str(export), "--signing-key", key, *SCOPE,
                "--state-dir", str(tmp_path / "a"))
    assert stale.exit_code == 1 and stale.stdout == ""
    assert ": rollback: commit rev " in stale.stderr


@pytest.mark.pds
def test_a_car_naming_a_real_account_but_signed_by_another_key(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    forged = car(tmp_path, {path(1): memory()}, did=account.did)
    result = run("import", "--from", forged, *SCOPE, "--plc", pds.plc_url)
    key = resolve(account.did, plc_url=pds.plc_url, pds_hint=pds.url).signing_key
    assert result.exit_code == 1
    assert f"commit signature does not verify against signing key {key}" in result.stderr
    check = run("verify", account.did, "--plc", pds.plc_url, "--pds", pds.url, "--json")
    assert check.exit_code == 0
    assert json.loads(check.stdout)["summary"]["did"] == account.did


def test_output_that_cannot_be_written_leaves_the_cursor(tmp_path: Path) -> None:
    repo = car(tmp_path, GOOD)
    full_disk = import_car(repo, "--out", "/dev/full")  # every write: No space left on device
    assert full_disk.exit_code == 1
    assert full_disk.stderr == (
        f"Error: {DID}: cannot write the output to /dev/full: No space left on device (the "
        "stored cursor did not move; the next run writes these changes again)\n"
    )
    assert len(lines(import_car(repo))) == len(GOOD)


def stored_rows(tmp_path: Path) -> dict[str, list]:
    """Every row of the state database, by table (none before the first run)."""
    path = tmp_path / "state" / "state.sqlite3"
    if not path.exists():
        return {}
    with closing(sqlite3.connect(path)) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: rows for table in tables if (rows := db.execute(f"SELECT * FROM {table}").fetchall())}


def test_output_that_cannot_be_written_leaves_the_whole_state_as_it_was(tmp_path: Path) -> None:
    """Regression: a run whose output failed had noted its records as pending, so the next run
    wrote them as updates instead of what a clean run writes. An output that cannot be opened or
    written, first or incremental import: the stored state stays exactly as before the run."""
    changed = {**GOOD, path(2): memory("edited"), path(9): memory("new")}
    del changed[path(1)]
    runs = [
        (car(tmp_path, GOOD, rev=tid(T0)), [("create", uri(i)) for i in range(1, 9)]),
        (car(tmp_path, changed, "v2.car", rev=tid(T0 + 1)),
         [("update", uri(2)), ("create", uri(9)), ("delete", uri(1))]),
    ]
    for repo, expected in runs:
        for out in ("/dev/full", str(tmp_path / "no" / "such" / "dir.jsonl")):
            before = stored_rows(tmp_path)
            failed = import_car(repo, "--out", out)
            assert failed.exit_code == 1 and "the stored cursor did not move" in failed.stderr
            assert stored_rows(tmp_path) == before, f"the failed run to {out} changed the state"
        again = [(obj["op"], obj.get("record", obj)["uri"]) for obj in lines(import_car(repo))]
        assert again == expected


def test_dry_run_reads_and_verifies_but_writes_no_output_and_keeps_the_cursor(tmp_path: Path) -> None:
    repo = car(tmp_path, GOOD, rev=tid(T0))
    out = tmp_path / "out.jsonl"
    dry = import_car(repo, "--out", str(out), "--dry-run")
    assert dry.exit_code == 0 and dry.stdout == ""
    assert not out.exists()
    assert dry.stderr == (
        f"Dry run, nothing written: would import {DID} at rev {tid(T0)} (car read): 8 created, "
        "0 updated, 0 unchanged, 0 deleted, 0 failed\n"
    )
    as_json = import_car(repo, "--dry-run", "--json")  # regression: the summary went to stderr
    assert as_json.stderr == ""
    assert json.loads(as_json.stdout) == {"summary": {
        "did": DID, "rev": tid(T0), "read": "car", "dryRun": True, "created": 8, "updated": 0,
        "unchanged": 0, "deleted": 0, "failed": 0,
    }}
    real = import_car(repo, "--out", str(out))  # the cursor did not move: all 8 are new
    assert real.exit_code == 0 and len(out.read_text().splitlines()) == len(GOOD)
    data = import_car(repo, "--json", "--full")  # the changes, then the summary, on stdout
    *changes, last = [json.loads(line) for line in data.stdout.splitlines()]
    assert [change["op"] for change in changes] == ["create"] * 8 and last["summary"]["created"] == 8


def test_dry_run_still_refuses_a_repository_that_fails_verification(tmp_path: Path) -> None:
    result = import_car(car(tmp_path, GOOD, breakage=Breakage(flip_byte_in=path(3))), "--dry-run")
    assert result.exit_code == 1 and result.stdout == ""
    assert "block bytes do not match their CID" in result.stderr


def test_import_where_every_record_fails_exits_1(tmp_path: Path) -> None:
    result = import_car(car(tmp_path, {path(1): memory(content=1), path(2): memory(created="x")}))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.splitlines()[-1].endswith("0 created, 0 updated, 0 unchanged, 0 deleted, 2 failed")


def test_import_refuses_an_unsalted_scope_unless_accepted(tmp_path: Path) -> None:
    """Regression: without MEMORY_SCOPE_SALT, import silently hashed the scope with an empty salt,
    so anyone guessing the agent and profile ids could forge a record the scope recognises."""
    repo = car(tmp_path, GOOD)
    args = ["import", "--from", repo, "--signing-key", KEY.did_key, "--agent-id", "coder", "--profile-id", "default"]
    refused = run(*args)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.splitlines()[-1].startswith(
        "Error: no salt for the participant scope hash: set MEMORY_SCOPE_SALT (or pass --salt)")
    salted = CliRunner().invoke(cli, args + ["--dry-run"], env={"MEMORY_SCOPE_SALT": "s3cret"})
    assert salted.exit_code == 0, salted.output
    accepted = run(*args, "--accept-unsalted-scope", "--dry-run")
    assert accepted.exit_code == 0, accepted.output


def test_verify_takes_the_signing_key_in_the_legacy_form_a_did_document_prints(tmp_path: Path) -> None:
    """Regression: `verify --signing-key did:key:zRMB…` (the #atproto publicKeyMultibase the PLC's DID
    document prints, after did:key:) was refused as no P-256 or K-256 key."""
    from atproto_crypto.multibase import bytes_to_multibase
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    legacy = bytes_to_multibase("z", KEY.private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    repo = car(tmp_path, GOOD)
    for key in (f"did:key:{legacy}", legacy):
        result = run("verify", repo, "--signing-key", key)
        assert result.exit_code == 0, result.output
        assert "repository\tverified" in result.stdout


def test_import_reaches_an_agent_runtimes_scope_by_its_parts_and_salt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rushdb_hermes_memory.contract import hash_scope

    file = car(tmp_path, {path(1): memory("one")})
    scope = ["--agent-id", "coder", "--profile-id", "coder", "--privacy-scope", "private"]
    parts = ["--participant", "discord", "--participant", "coder", "--participant", " user-42 "]

    def participant(*env: tuple[str, str]) -> str:
        for name in ("MEMORY_SCOPE_SALT", "RUSHDB_MEMORY_SCOPE_SALT"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env:
            monkeypatch.setenv(name, value)
        done = run("import", "--from", file, "--signing-key", KEY.did_key, *scope, *parts, "--dry-run", "--full",
                   "--json")
        assert done.exit_code == 0, done.output
        state = tmp_path / "state" / "state.sqlite3"
        state.unlink(missing_ok=True)
        real = run("import", "--from", file, "--signing-key", KEY.did_key, *scope, *parts, "--full")
        [line] = lines(real)
        assert line["event"]["privacyScope"] == "private"
        return line["event"]["participantScopeHash"]

    # Hermes's salt under its own name; pdsmem's name wins when both are set.
    assert participant(("RUSHDB_MEMORY_SCOPE_SALT", "hermes")) == hash_scope("discord", "coder", "user-42", salt="hermes")
    assert participant(("RUSHDB_MEMORY_SCOPE_SALT", "hermes"), ("MEMORY_SCOPE_SALT", "mine")) == hash_scope(
        "discord", "coder", "user-42", salt="mine")
    for name in ("MEMORY_SCOPE_SALT", "RUSHDB_MEMORY_SCOPE_SALT"):
        monkeypatch.delenv(name, raising=False)
    unsalted = run("import", "--from", file, "--signing-key", KEY.did_key, *scope, *parts, "--dry-run")
    assert unsalted.exit_code == 2 and "no salt for the participant scope hash" in unsalted.stderr  # help: "Required"
    parts += ["--accept-unsalted-scope"]
    assert participant() == hash_scope("discord", "coder", "user-42")  # no salt, acknowledged: Hermes's default too
    both = run("import", "--from", file, "--signing-key", KEY.did_key, *scope, *parts,
               "--participant-scope-hash", "a" * 64)
    assert both.exit_code == 2 and "not both" in both.stderr


def test_a_record_whose_text_looks_like_a_secret_is_imported_and_named_by_its_uri_never_quoted(tmp_path: Path) -> None:
    """The person's own record is public already: imported as written, named by its at-uri only."""
    card = "Card for the club: 4111 1111 1111 1111 exp 12/29"
    records = {path(1): memory("likes green tea"), path(2): memory(card)}
    result = import_car(car(tmp_path, records), "--json")
    assert result.exit_code == 0
    assert [obj["event"]["text"] for obj in lines(result)[:-1]] == ["likes green tea", card]
    note = (f"Note: {uri(2)}: its content looks like a payment card number (its Luhn check holds). The record is "
            "public in the repository and in every relay's copy; pdsmem reads it as it is (if it is a secret, "
            "delete the record on the PDS and change the secret)")
    assert result.stderr.splitlines()[0] == note
    assert lines(result)[-1]["summary"]["notes"] == [note.removeprefix("Note: ")]
    assert "4111" not in result.stderr


def test_a_record_noted_before_is_named_again_by_each_run_until_it_is_changed(tmp_path: Path) -> None:
    """Regression (a new user's try): a secret in the person's own record was noted on the first
    run only; a scheduled sync's stderr is easily missed, and the record stays public."""
    card = "Card for the club: 4111 1111 1111 1111 exp 12/29"
    records = {path(1): memory("likes green tea"), path(2): memory(card)}
    first = import_car(car(tmp_path, records, rev=tid(T0)))
    assert [line for line in first.stderr.splitlines() if line.startswith("Note: ")][0].startswith(f"Note: {uri(2)}: ")
    again = import_car(car(tmp_path, records, rev=tid(T0)), "--json")
    reminder = (f"1 record noted before still looks like it holds a secret and is public: {uri(2)} (delete it on "
                "the PDS and change the secret)")
    assert [line for line in again.stderr.splitlines() if line.startswith("Note: ")] == [f"Note: {reminder}"]
    assert lines(again)[-1]["summary"]["notes"] == [reminder]
    changed = import_car(car(tmp_path, {**records, path(2): memory("likes cocoa")}, "v2.car", rev=tid(T0 + 1)))
    assert changed.exit_code == 0 and "Note: " not in changed.stderr  # the person changed it: nothing to remind
    assert "4111" not in first.stderr + again.stderr + changed.stderr
    # a record that fails to map is at its own CID, not the one it last mapped at (a review's find: a
    # record changed to a secret that failed, then to no secret that failed too, was named for ever)
    failing = {**records, path(2): memory("likes cocoa") | {"content": 42, "note": card}}
    assert "Note: " in import_car(car(tmp_path, failing, "v3.car", rev=tid(T0 + 2))).stderr
    harmless = import_car(car(tmp_path, {**records, path(2): memory("likes cocoa") | {"content": 43}}, "v4.car",
                              rev=tid(T0 + 3)))
    assert "noted before" not in harmless.stderr, harmless.stderr


def test_a_records_field_names_are_never_shown_unless_plain_and_a_secret_name_is_noted(tmp_path: Path) -> None:
    """A review's find: a note named the field a secret was in by the record's own key, so a key
    that was itself a token was printed, and a key holding a line break printed a line of its own."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    records = {
        path(1): memory("likes green tea") | {"env": {token: "password: Tr0ub4dor&3xQ"}},
        path(2): memory("likes coffee") | {"a\nError: a line the record wrote": {"pw": "password: Tr0ub4dor&3xQ-Kq7!"}},
        path(3): memory("likes cocoa") | {"bad": {"a": {token: True}}},
        path(4): memory("likes mint") | {"meta": {"wifi password": "Tr0ub4dor&3x"}},  # a name and its value
        path(5): memory("likes chai") | {"meta": {"$type": "password: Tr0ub4dor&3xQ"}},
    }
    result = import_car(car(tmp_path, records), "--json")
    assert result.exit_code == 0
    notes = [line for line in result.stderr.splitlines() if line.startswith("Note: ")]
    assert [note.split(": ")[1] for note in notes[:3]] == [uri(1), uri(2), uri(3)]
    assert notes[3] == f"Note: 2 more records look like they hold a secret, and are public: {uri(4)}, {uri(5)}"
    assert notes[2].startswith(f"Note: {uri(3)}: the name of one of its fields (in bad.a) looks like")
    assert token not in result.stderr and "Tr0ub4dor" not in result.stderr
    assert not any(line.startswith("Error: a line") for line in result.stderr.splitlines())
