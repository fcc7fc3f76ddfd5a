"""``pdsmem lexicon show|publish``: the shipped documents, published to the real local PDS."""

from __future__ import annotations

import json

import httpx
import pytest
from click.testing import CliRunner, Result
from devkit.pds import Account, LocalPds

from pdsmem.cli import cli
from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID, load
from pdsmem.mapping.datamodel import cid_for_json

SCHEMA = "com.atproto.lexicon.schema"


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_show_prints_the_shipped_documents() -> None:
    one = run("lexicon", "show", EXTENSION_NSID)
    assert one.exit_code == 0 and json.loads(one.stdout) == load(EXTENSION_NSID)
    every = run("lexicon", "show", "--json")
    assert [json.loads(line) for line in every.stdout.splitlines()] == [
        load(RECORD_NSID), load(EXTENSION_NSID), {"summary": {"lexicons": 2}}]
    unknown = run("lexicon", "show", "com.example.nope")
    assert unknown.exit_code == 2
    assert unknown.stderr.splitlines()[-1] == (
        f"Error: Invalid value for NSID: pdsmem ships no lexicon com.example.nope; it ships "
        f"{RECORD_NSID}, {EXTENSION_NSID}"
    )


def stored(pds: LocalPds, account: Account, nsid: str) -> httpx.Response:
    return httpx.get(f"{pds.url}/xrpc/com.atproto.repo.getRecord", timeout=30,
                     params={"repo": account.did, "collection": SCHEMA, "rkey": nsid})


@pytest.mark.pds
def test_publish_writes_schema_records_once_and_prints_the_dns_records(pds: LocalPds, pdsmem_dev: Account) -> None:
    account = pdsmem_dev
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    uri = f"at://{account.did}/{SCHEMA}"
    dns = [
        "Resolvers find these schemas once each authority's DNS has this TXT record:",
        f'  _lexicon.pdsmem.dev  TXT  "did={account.did}"',
    ]
    skipped = (f"Note: skipped {RECORD_NSID}: its authority memory.bastienrobert.dev is not under pdsmem.dev, whose "
               "DNS is the only one this account controls\n")
    dry = run("lexicon", "publish", "--to", account.handle, "--dry-run", env=env)
    assert dry.exit_code == 0
    assert dry.stderr == skipped  # regression: it published a lexicon of a domain not the account's
    assert dry.stdout.splitlines() == [  # regression: a dry run said "created" for writes it did not do
        f"would create  {uri}/{EXTENSION_NSID}",
        f"Dry run, nothing written: would publish to {account.handle} ({account.did}): 1 would create, "
        "0 would update, 0 unchanged",
        *dns,
    ]
    assert stored(pds, account, EXTENSION_NSID).json()["error"] == "RecordNotFound"

    first = run("lexicon", "publish", "--to", account.handle, env=env)
    assert first.exit_code == 0
    assert first.stdout.splitlines()[:2] == [
        f"created       {uri}/{EXTENSION_NSID}",
        f"Published to {account.handle} ({account.did}): 1 created, 0 updated, 0 unchanged",
    ]
    answer = stored(pds, account, EXTENSION_NSID).json()
    assert answer["value"] == {"$type": SCHEMA, **load(EXTENSION_NSID)}
    assert answer["cid"] == str(cid_for_json(answer["value"]))
    assert stored(pds, account, RECORD_NSID).json()["error"] == "RecordNotFound"

    again = run("lexicon", "publish", "--to", account.did, env=env)
    assert again.stdout.splitlines()[:2] == [
        f"unchanged     {uri}/{EXTENSION_NSID}",
        f"Published to {account.handle} ({account.did}): 0 created, 0 updated, 1 unchanged",
    ]

    edited = {"$type": SCHEMA, **load(EXTENSION_NSID), "description": "edited by hand"}
    put = httpx.post(f"{pds.url}/xrpc/com.atproto.repo.putRecord", headers=account.auth_headers, timeout=30,
                     json={"repo": account.did, "collection": SCHEMA, "rkey": EXTENSION_NSID, "record": edited})
    assert put.status_code == 200, put.text
    repaired = run("lexicon", "publish", "--to", account.handle, EXTENSION_NSID, "--json", env=env)
    assert repaired.exit_code == 0
    line, last = [json.loads(text) for text in repaired.stdout.splitlines()]
    assert last == {"summary": {"did": account.did, "dryRun": False, "updated": 1}}
    assert line == {
        "nsid": EXTENSION_NSID, "status": "updated", "uri": f"{uri}/{EXTENSION_NSID}",
        "cid": str(cid_for_json({"$type": SCHEMA, **load(EXTENSION_NSID)})), "dryRun": False,
        "dns": {"name": "_lexicon.pdsmem.dev", "type": "TXT", "value": f"did={account.did}"},
    }
    assert stored(pds, account, EXTENSION_NSID).json()["value"] == {"$type": SCHEMA, **load(EXTENSION_NSID)}


@pytest.mark.pds
def test_an_account_publishes_nothing_of_a_domain_it_does_not_control(pds: LocalPds, account: Account) -> None:
    env = {"ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "ATP_AUTH_PASSWORD": account.password}
    for args in ([], [EXTENSION_NSID]):
        result = run("lexicon", "publish", "--to", account.handle, *args, env=env)
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr.startswith(f"Error: {account.handle} does not speak for ")
        assert "(authority pdsmem.dev)" in result.stderr
    assert stored(pds, account, EXTENSION_NSID).json()["error"] == "RecordNotFound"
