"""A memory exported into another repository than its record's keeps what that record held.

``export --from rushdb`` into another account (a one-off migration, say): the record is new in
that repository, written by pdsmem, and keeps the other apps' fields and the provenance the
original record had. A pure test of the mapper, then the command against the real PDS and RushDB.
"""

from __future__ import annotations

import httpx
import pytest
from click.testing import CliRunner
from devkit.pds import Account, LocalPds, Repo
from devkit.rushdb import Project

from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping.contract import participant_hash_for_did
from pdsmem.mapping.datamodel import cid_text_for_json
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import EXT_KEY, ImportScope, RecordView, written_unchanged
from pdsmem.mapping.to_record import map_prepared, prepare_item

A = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
B = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
ORIGINAL = {"$type": RECORD_NSID, "content": "The user drinks tea.", "createdAt": "2026-08-18T09:00:00.000Z",
            "kind": "preference", "provenance": {"agent": "hermes", "app.example.session": "s-1"},
            "app.example.extra": {"kept": True}}


def test_a_copy_keeps_the_other_fields_and_provenance_and_stays_pdsmems_own_write() -> None:
    view = RecordView(uri=f"at://{A}/{RECORD_NSID}/3lbt4ilkfw22s", cid=cid_text_for_json(ORIGINAL), value=ORIGINAL)
    scope = ImportScope(did=A, agent_id="coder", profile_id="other", salt="salt")
    (imported,), failed = from_records([view], scope)
    assert not failed
    event, source = prepare_item({"event": imported.event, "record": view.to_json()})
    copy = map_prepared(event, None, B, publish_private=False, include_transcript=False, known_uris={},
                        template=source)
    assert copy.uri.startswith(f"at://{B}/{RECORD_NSID}/")
    assert copy.value["app.example.extra"] == {"kept": True}
    assert copy.value["provenance"] == ORIGINAL["provenance"]  # regression: the agent became the importer
    assert written_unchanged(copy.uri, copy.value, event) == copy.value[EXT_KEY]["id"]  # its proof holds
    again = map_prepared(event, None, B, publish_private=False, include_transcript=False, known_uris={},
                         template=source)
    assert again == copy  # the same record every run: a re-run writes nothing


@pytest.mark.pds
@pytest.mark.rushdb
def test_export_from_rushdb_into_another_account_keeps_what_the_mirror_holds(
    pds: LocalPds, rushdb: Project
) -> None:
    """Regression: the copy dropped the other apps' fields and named the importer as its agent."""
    alice, bob = pds.create_account(), pds.create_account()
    Repo(pds, alice).create(RECORD_NSID, ORIGINAL)
    env = {**rushdb.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt"}
    scope = ["--agent-id", "coder", "--profile-id", "default"]
    synced = CliRunner().invoke(cli, ["sync", alice.did, *scope], env=env)
    assert synced.exit_code == 0, synced.output
    into_bob = ["export", "--to", bob.did, "--from", "rushdb", *scope,
                "--participant-scope-hash", participant_hash_for_did(alice.did, "salt")]
    exported = CliRunner().invoke(cli, into_bob, env={**env, "ATP_AUTH_PASSWORD": bob.password})
    assert exported.exit_code == 0, exported.output
    assert exported.stdout.startswith("1 created, 0 unchanged")
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", timeout=30,
                       params={"repo": bob.did, "collection": RECORD_NSID}).json()
    [record] = answer["records"]
    assert record["value"]["app.example.extra"] == {"kept": True}
    assert record["value"]["provenance"] == ORIGINAL["provenance"]
    assert record["value"]["content"] == ORIGINAL["content"]
    again = CliRunner().invoke(cli, into_bob, env={**env, "ATP_AUTH_PASSWORD": bob.password})
    assert again.exit_code == 0 and again.stdout.startswith("0 created, 1 unchanged"), again.output
