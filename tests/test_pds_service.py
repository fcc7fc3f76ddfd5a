"""Smoke tests of the local reference PDS that the other PDS tests run against.

Scope: what pdsmem relies on from a real PDS and PLC directory started by ``scripts/pds``:
health, accounts, DID resolution through the local PLC, record writes and reads, repository
export as a CAR, batched writes, restart with data kept, and the PDS's own rate limits.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cbor2
import httpx
import pytest
from devkit.pds import REPO_ROOT, Account, LocalPds, free_port

pytestmark = pytest.mark.pds

COLLECTION = "dev.bastienrobert.memory.record"


def memory(content: str) -> dict[str, Any]:
    return {
        "$type": COLLECTION,
        "content": content,
        "createdAt": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
        "kind": "fact",
    }


def xrpc_post(pds: LocalPds, account: Account, nsid: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{pds.url}/xrpc/{nsid}", json=body, headers=account.auth_headers, timeout=30
    )


def create_writes(count: int, label: str) -> list[dict[str, Any]]:
    return [
        {
            "$type": "com.atproto.repo.applyWrites#create",
            "collection": COLLECTION,
            "value": memory(f"{label} {i}"),
        }
        for i in range(count)
    ]


def count_records(pds: LocalPds, did: str) -> int:
    total, cursor = 0, None
    while True:
        params = {"repo": did, "collection": COLLECTION, "limit": "100"}
        if cursor:
            params["cursor"] = cursor
        page = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", params=params).json()
        total += len(page["records"])
        cursor = page.get("cursor")
        if not page["records"] or not cursor:
            return total


def test_health_reports_a_0_5_pds(pds: LocalPds) -> None:
    response = httpx.get(f"{pds.url}/xrpc/_health")
    assert response.status_code == 200
    assert response.json()["version"].startswith("0.5.")


def test_create_account_returns_a_working_session(pds: LocalPds, account: Account) -> None:
    assert account.did.startswith("did:plc:")
    assert account.handle.startswith("u") and account.handle.endswith(".test")
    session = httpx.get(
        f"{pds.url}/xrpc/com.atproto.server.getSession", headers=account.auth_headers
    )
    assert session.status_code == 200, session.text
    assert session.json()["did"] == account.did
    assert session.json()["handle"] == account.handle


def test_create_account_uses_the_prefix_and_refuses_bad_ones(pds: LocalPds) -> None:
    made = pds.create_account("mem")
    assert made.handle.startswith("mem") and made.handle.endswith(".test")
    for bad in ("", "Mem", "9lives", "much-too-long", "é"):
        with pytest.raises(ValueError, match="handle_prefix must be"):
            pds.create_account(bad)


def test_did_resolves_through_the_local_plc(pds: LocalPds, account: Account) -> None:
    response = httpx.get(f"{pds.plc_url}/{account.did}")
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc["id"] == account.did
    assert f"at://{account.handle}" in doc["alsoKnownAs"]
    # This PLC server writes fragment-only ids ("#atproto"); plc.directory writes full ones.
    keys = [m for m in doc["verificationMethod"] if m["id"].endswith("#atproto")]
    assert len(keys) == 1 and keys[0]["publicKeyMultibase"].startswith("z")
    services = [s for s in doc["service"] if s["id"].endswith("#atproto_pds")]
    assert len(services) == 1
    assert services[0]["type"] == "AtprotoPersonalDataServer"
    assert services[0]["serviceEndpoint"] == pds.public_url
    resolved = httpx.get(
        f"{pds.url}/xrpc/com.atproto.identity.resolveHandle", params={"handle": account.handle}
    )
    assert resolved.json() == {"did": account.did}


def test_create_record_then_get_record(pds: LocalPds, account: Account) -> None:
    record = memory("prefers tea over coffee")
    created = xrpc_post(
        pds, account, "com.atproto.repo.createRecord",
        {"repo": account.did, "collection": COLLECTION, "record": record},
    )  # fmt: skip
    assert created.status_code == 200, created.text
    # Rate limits are off unless asked for: no budget headers on writes.
    assert "ratelimit-limit" not in created.headers
    uri, cid = created.json()["uri"], created.json()["cid"]
    assert uri.startswith(f"at://{account.did}/{COLLECTION}/")
    rkey = uri.rsplit("/", 1)[1]
    got = httpx.get(
        f"{pds.url}/xrpc/com.atproto.repo.getRecord",
        params={"repo": account.did, "collection": COLLECTION, "rkey": rkey},
    )
    assert got.status_code == 200, got.text
    assert got.json() == {"uri": uri, "cid": cid, "value": record}
    assert cid.startswith("bafyrei")


def test_get_repo_returns_a_car(pds: LocalPds, account: Account) -> None:
    xrpc_post(
        pds, account, "com.atproto.repo.createRecord",
        {"repo": account.did, "collection": COLLECTION, "record": memory("in the CAR")},
    ).raise_for_status()  # fmt: skip
    response = httpx.get(f"{pds.url}/xrpc/com.atproto.sync.getRepo", params={"did": account.did})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.ipld.car"
    car = response.content
    header_length = car[0]  # a one-byte varint: the header is short
    assert header_length < 0x80
    header = cbor2.loads(car[1 : 1 + header_length])
    assert header["version"] == 1 and len(header["roots"]) == 1
    assert len(car) > 1 + header_length


def test_apply_writes_with_200_creates(pds: LocalPds, account: Account) -> None:
    response = xrpc_post(
        pds, account, "com.atproto.repo.applyWrites",
        {"repo": account.did, "writes": create_writes(200, "batched")},
    )  # fmt: skip
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert len(results) == 200
    assert all(r["$type"] == "com.atproto.repo.applyWrites#createResult" for r in results)
    assert len({r["uri"] for r in results}) == 200
    assert count_records(pds, account.did) == 200


@pytest.fixture(scope="module")
def limited_pds() -> Iterator[LocalPds]:
    """A second PDS with the PDS's own rate limiter on (in memory, no bypass).

    Each test here uses its own account, so they do not depend on each other's order.
    """
    with LocalPds(rate_limits=True) as server:
        yield server


def test_write_budget_runs_out_with_a_429(limited_pds: LocalPds) -> None:
    # 5,000 points an hour per account, 3 per create: eight batches of 200 creates spend
    # 4,800, and the ninth (600 more) is refused whole.
    account = limited_pds.create_account("budget")
    statuses = []
    for batch in range(9):
        response = xrpc_post(
            limited_pds, account, "com.atproto.repo.applyWrites",
            {"repo": account.did, "writes": create_writes(200, f"batch {batch}")},
        )  # fmt: skip
        statuses.append(response.status_code)
    assert statuses == [200] * 8 + [429]
    assert response.json()["error"] == "RateLimitExceeded"
    assert response.headers["ratelimit-limit"] == "5000"
    assert response.headers["ratelimit-policy"] == "5000;w=3600"
    reset_in = int(response.headers["ratelimit-reset"]) - datetime.now(UTC).timestamp()
    assert 0 < reset_in <= 3600 + 5  # epoch seconds, within the hour window
    assert count_records(limited_pds, account.did) == 1600


def test_restart_and_crash_keep_accounts_records_dids_and_sessions(limited_pds: LocalPds) -> None:
    pds = limited_pds
    account = pds.create_account("restart")
    for step in ("restart", "crash"):
        created = xrpc_post(
            pds, account, "com.atproto.repo.createRecord",
            {"repo": account.did, "collection": COLLECTION, "record": memory(f"before {step}")},
        )  # fmt: skip
        assert created.status_code == 200, created.text
        if step == "restart":
            pds.restart()
        else:
            pds.kill()
            assert not pds.running
            pds.start()
        assert pds.running
        assert httpx.get(f"{pds.plc_url}/{account.did}").json()["id"] == account.did, step
        session = httpx.get(
            f"{pds.url}/xrpc/com.atproto.server.getSession", headers=account.auth_headers
        )
        assert session.status_code == 200, f"the access token is refused after a {step}"
    assert count_records(pds, account.did) == 2


def test_describe_repo_resolves_the_did_through_the_local_plc(pds: LocalPds, account: Account) -> None:
    """Regression: the PDS was given its PLC directory as http://127.0.0.1:PORT and refused to
    resolve DIDs (describeRepo: 400 "Invalid hostname"), which broke goat and other clients."""
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.describeRepo", params={"repo": account.did}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.json()["handle"] == account.handle and answer.json()["handleIsCorrect"] is True


def test_the_scripts_start_a_pds_and_make_an_account_a_person_can_use(tmp_path: Path) -> None:
    """The README's way to try pdsmem by hand: scripts/pds/start, then scripts/pds/account."""
    name = f"test-{secrets.token_hex(4)}"
    ports = [str(free_port()), str(free_port())]
    scripts = REPO_ROOT / "scripts" / "pds"
    started = subprocess.run([scripts / "start", "--name", name, "--fresh", "--pds-port", ports[0], "--plc-port",
                              ports[1]], capture_output=True, text=True, timeout=120)
    try:
        assert started.returncode == 0, started.stderr
        made = subprocess.run([scripts / "account", "--name", name, "tryme.test"], capture_output=True, text=True,
                              timeout=60)
        assert made.returncode == 0, made.stderr
        fields = dict(line.split(None, 1) for line in made.stdout.splitlines()[1:4])
        assert fields["handle"] == "tryme.test" and fields["DID"].startswith("did:plc:")
        session = httpx.post(f"http://127.0.0.1:{ports[0]}/xrpc/com.atproto.server.createSession", timeout=30,
                             json={"identifier": "tryme.test", "password": fields["password"]})
        assert session.status_code == 200 and session.json()["did"] == fields["DID"]
        taken = subprocess.run([scripts / "account", "--name", name, "tryme.test"], capture_output=True, text=True,
                               timeout=60)
        assert taken.returncode == 1 and "Handle already taken" in taken.stderr
    finally:
        subprocess.run([scripts / "stop", "--name", name], capture_output=True, timeout=60)
        shutil.rmtree(REPO_ROOT / ".local" / "pds-run" / name, ignore_errors=True)
        for leftover in (f"{name}.log", f"{name}.pid"):
            (REPO_ROOT / ".local" / "pds-run" / leftover).unlink(missing_ok=True)
    gone = subprocess.run([scripts / "account", "--name", name], capture_output=True, text=True, timeout=60)
    assert gone.returncode == 1 and f"start it with scripts/pds/start --name {name}" in gone.stderr


def test_a_restart_without_port_options_keeps_the_ports_the_data_had(tmp_path: Path) -> None:
    """Regression: scripts/pds/start forgot custom ports on restart, and the accounts' DID
    documents then named a PDS port nothing listened on."""
    from devkit.pds import NODE, SERVER_SCRIPT

    ports = [free_port(), free_port()]
    while ports[0] == ports[1]:
        ports[1] = free_port()

    def start(*options: str) -> dict[str, Any]:
        process = subprocess.Popen([str(NODE), str(SERVER_SCRIPT), "--data-dir", str(tmp_path / "data"), *options,
                                    "--exit-with-parent"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = process.stdout.readline()  # the ready line, or nothing when it failed
            assert line.startswith('{"ready":true'), line
            return json.loads(line)
        finally:
            process.terminate()
            process.wait(timeout=30)

    first = start("--pds-port", str(ports[0]), "--plc-port", str(ports[1]))
    again = start()
    assert (again["pds"], again["plc"]) == (first["pds"], first["plc"]) == (
        f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}")
