"""A memory exported into another repository than its record's is a copy of that record.

``export --from rushdb`` into another account (a one-off migration, say) writes each memory that
came from a record of the first account as a copy of that record (docs/mapping.md, "A copy into
another repository"): the same record key, the other apps' fields, the provenance, and the
extension with the runtime and trust the record claimed, never made to hold for a scope they did
not hold for; ``supersedes`` moved to the copies; every text through the privacy gate. Pure tests
of the mapper, then the command against the real PDS and RushDB.
"""

from __future__ import annotations

import httpx
import pytest
from click.testing import CliRunner
from devkit.pds import LocalPds, Repo
from devkit.rushdb import Project

from pdsmem.cli import cli
from pdsmem.errors import PrivacyRefused, SensitiveContent
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import contract
from pdsmem.mapping.contract import participant_hash_for_did
from pdsmem.mapping.datamodel import cid_text_for_json
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import EXT_KEY, ImportScope, RecordView, written_unchanged
from pdsmem.mapping.syntax import AtUri
from pdsmem.mapping.to_record import copy_uri, map_prepared, prepare_item, to_record

A = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
B = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
ORIGINAL = {"$type": RECORD_NSID, "content": "The user drinks tea.", "createdAt": "2026-08-18T09:00:00.000Z",
            "kind": "preference", "provenance": {"agent": "hermes", "app.example.session": "s-1"},
            "app.example.extra": {"kept": True}}
HERMES = {"agentId": "coder", "profileId": "home", "privacyScope": "shared",
          "participantScopeHash": "b040845e9ef7d910054074e406e93ada3bcb428a80e23b8bb9904e3683a96042",
          "sandboxEligible": False}
SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _hermes_fact(text: str, **more) -> dict:
    """A fact of an agent runtime's scope, with trust of its own (not the importer's defaults)."""
    return contract.with_ids({"schemaVersion": 1, "eventType": "fact", "runtime": "hermes", **HERMES, "text": text,
                              "kind": "preference", "subjectKey": "user.drink", "confidence": 0.9, "active": True,
                              "sourceEventId": "turn-7", "validFrom": "2026-08-18T09:00:00Z", "visibility": "shared",
                              "trustClass": "mixed", "provenance": "hermes:sync_turn", **more})


def _written_by_hermes(did: str = A, **extra) -> RecordView:
    """The record pdsmem exported from the runtime's scope, then another app added a field to."""
    view = to_record(_hermes_fact("The user drinks green tea."), did)
    value = {**view.value, "app.example.extra": {"kept": True}, **extra}
    return RecordView(uri=view.uri, cid=cid_text_for_json(value), value=value)


def _view(did: str, rkey: str, value: dict) -> RecordView:
    return RecordView(uri=f"at://{did}/{RECORD_NSID}/{rkey}", cid=cid_text_for_json(value), value=value)


def _synced(views: list[RecordView]) -> list[tuple[dict, RecordView]]:
    """The records as a sync of account A makes them: (event, the record its mirror holds)."""
    imported, failed = from_records(views, ImportScope(did=A, agent_id="coder", profile_id="default", salt="salt"))
    assert not failed
    return [prepare_item({"event": one.event, "record": one.record.to_json()}) for one in imported]


def _copy(event: dict, template: RecordView, known: dict | None = None, moved: dict | None = None,
          **flags) -> RecordView:
    return map_prepared(event, None, B, publish_private=flags.get("publish_private", False),
                        include_transcript=flags.get("include_transcript", False), known_uris=known or {},
                        template=template, moved_uris=moved or {})


def test_a_copy_is_the_record_as_it_was_under_its_own_key_in_the_other_repository() -> None:
    original = _written_by_hermes()
    [(event, template)] = _synced([original])
    assert event["trustClass"] == "untrusted" and event["runtime"] == "custom"  # the import's, not the record's
    copy = _copy(event, template)
    assert copy.uri == f"at://{B}/{RECORD_NSID}/{AtUri.parse(original.uri).rkey}"
    assert copy.value == original.value  # regression: runtime "custom", trust "untrusted" and a new id
    assert copy.value[EXT_KEY]["runtime"] == "hermes" and copy.value[EXT_KEY]["trustClass"] == "mixed"
    assert copy.value["app.example.extra"] == {"kept": True}
    assert _copy(event, template) == copy  # the same record every run: a re-run writes nothing


def test_a_copy_never_makes_trust_hold_where_it_did_not() -> None:
    original = _written_by_hermes()
    [(event, template)] = _synced([original])
    copy = _copy(event, template)
    hermes_there = dict(agent_id="coder", profile_id="home", participant=HERMES["participantScopeHash"])
    [control], _ = from_records([original], ImportScope(did=A, **hermes_there))
    assert control.event["trustClass"] == "mixed"  # in A the runtime's own scope recognises it
    for scope in (ImportScope(did=B, **hermes_there), ImportScope(did=B, agent_id="coder", profile_id="default")):
        [imported], _ = from_records([copy], scope)
        assert imported.event["trustClass"] == "untrusted" and imported.event["runtime"] == "custom"


def test_a_copy_of_the_scopes_own_export_is_proved_for_its_new_at_uri() -> None:
    scope = ImportScope(did=A, agent_id="coder", profile_id="default", salt="salt")
    own = to_record(_hermes_fact("The user drinks oolong.", **scope.fields), A)
    [(event, template)] = _synced([own])
    assert event["trustClass"] == "mixed"  # recognised: the import restored the memory's own
    copy = _copy(event, template)
    assert written_unchanged(copy.uri, copy.value, event) == event["factId"]
    assert {name: copy.value[EXT_KEY][name] for name in ("runtime", "trustClass", "provenance")} == {
        "runtime": "hermes", "trustClass": "mixed", "provenance": "hermes:sync_turn"}


def test_supersedes_follows_the_copies_and_keeps_what_was_not_copied() -> None:
    old = _view(A, "3lbt4ilkfw22s", ORIGINAL)
    elsewhere = f"at://did:plc:cccccccccccccccccccccccc/{RECORD_NSID}/3lbt4ilkfw22t"
    new = _view(A, "3lbt5aaaaaa2s", {**ORIGINAL, "content": "The user drinks coffee now.",
                                     "createdAt": "2026-09-01T09:00:00.000Z", "supersedes": [old.uri, elsewhere],
                                     "app.example.mood": "calm"})
    (old_event, old_template), (new_event, new_template) = _synced([old, new])
    assert new_event["supersedesFactId"] == old_event["factId"]
    there = copy_uri(old.uri, B)
    copy = _copy(new_event, new_template, known={old_event["factId"]: there}, moved={old.uri: there})
    assert copy.value["supersedes"] == [there, elsewhere]  # regression: none, or the at-uri into A
    assert {k: v for k, v in copy.value.items() if k != "supersedes"} == {
        k: v for k, v in new.value.items() if k != "supersedes"}


def test_the_gate_refuses_a_copy_holding_a_secret_in_another_apps_field_without_quoting_it() -> None:
    [(event, template)] = _synced([_view(A, "3lbt4ilkfw22s", {**ORIGINAL, "app.example.note": f"deploy with {SECRET}"})])
    with pytest.raises(SensitiveContent) as refused:
        _copy(event, template)
    assert "app.example.note" in str(refused.value) and "GitHub token" in str(refused.value)
    assert SECRET not in str(refused.value) and "deploy" not in str(refused.value)
    [(event, template)] = _synced([_view(A, "3lbt4ilkfw22s", {**ORIGINAL, "app.example.x": {SECRET: 1}})])
    with pytest.raises(SensitiveContent) as named:  # a field's name is published too
        _copy(event, template)
    assert SECRET not in str(named.value)


def test_a_copy_drops_a_transcript_unless_asked_and_refuses_a_participant_only_record() -> None:
    transcript = {"userText": "I like tea.", "assistantText": "Noted."}
    original = _written_by_hermes()
    with_turns = {**original.value, EXT_KEY: {**original.value[EXT_KEY], "transcript": transcript}}
    [(event, template)] = _synced([_view(A, AtUri.parse(original.uri).rkey, with_turns)])
    assert "transcript" not in _copy(event, template).value[EXT_KEY]
    assert _copy(event, template, include_transcript=True).value[EXT_KEY]["transcript"] == transcript
    participant = {**original.value, EXT_KEY: {**original.value[EXT_KEY], "visibility": "participant"}}
    [(event, template)] = _synced([_view(A, AtUri.parse(original.uri).rkey, participant)])
    with pytest.raises(PrivacyRefused):
        _copy(event, template)
    assert _copy(event, template, publish_private=True).value[EXT_KEY]["visibility"] == "participant"


def _records(pds: LocalPds, did: str) -> dict[str, dict]:
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords", timeout=30,
                       params={"repo": did, "collection": RECORD_NSID}).json()
    return {AtUri.parse(record["uri"]).rkey: record for record in answer["records"]}


def _migrate(pds: LocalPds, rushdb: Project, alice, bob, *more: str):
    """Sync Alice's repository into a scope, then export the scope into Bob's: (sync, export)."""
    env = {**rushdb.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url, "MEMORY_SCOPE_SALT": "salt"}
    scope = ["--agent-id", "coder", "--profile-id", "default"]
    synced = CliRunner().invoke(cli, ["sync", alice.did, *scope], env=env)
    assert synced.exit_code == 0, synced.output
    into_bob = ["export", "--to", bob.did, "--from", "rushdb", *scope,
                "--participant-scope-hash", participant_hash_for_did(alice.did, "salt"), *more]
    return lambda: CliRunner().invoke(cli, into_bob, env={**env, "ATP_AUTH_PASSWORD": bob.password})


@pytest.mark.pds
@pytest.mark.rushdb
def test_export_from_rushdb_into_another_account_keeps_what_the_mirror_holds(
    pds: LocalPds, rushdb: Project
) -> None:
    """Regression: the copy dropped the other apps' fields and the extension's runtime and
    trust, took a new key, and lost its supersedes."""
    alice, bob = pds.create_account(), pds.create_account()
    repo = Repo(pds, alice)
    hermes = _written_by_hermes(alice.did)
    hermes_key = AtUri.parse(hermes.uri).rkey
    repo.put(RECORD_NSID, hermes_key, hermes.value)
    plain_uri = repo.create(RECORD_NSID, ORIGINAL)
    later = {**ORIGINAL, "content": "The user drinks coffee now.", "createdAt": "2026-09-01T09:00:00.000Z",
             "supersedes": [plain_uri]}
    later_uri = repo.create(RECORD_NSID, later)
    export = _migrate(pds, rushdb, alice, bob)
    exported = export()
    assert exported.exit_code == 0, exported.output
    assert exported.stdout.startswith("3 created, 0 unchanged"), exported.output
    held, theirs = _records(pds, bob.did), _records(pds, alice.did)
    assert set(held) == set(theirs)  # every record under its own key
    assert held[hermes_key]["value"] == hermes.value and held[hermes_key]["cid"] == hermes.cid
    assert held[hermes_key]["value"][EXT_KEY]["trustClass"] == "mixed"
    assert held[hermes_key]["value"][EXT_KEY]["runtime"] == "hermes"
    plain_key, later_key = AtUri.parse(plain_uri).rkey, AtUri.parse(later_uri).rkey
    assert held[plain_key]["value"] == ORIGINAL
    assert held[later_key]["value"]["supersedes"] == [f"at://{bob.did}/{RECORD_NSID}/{plain_key}"]
    again = export()
    assert again.exit_code == 0 and again.stdout.startswith("0 created, 3 unchanged"), again.output
    assert _records(pds, bob.did) == held


@pytest.mark.pds
@pytest.mark.rushdb
def test_export_from_rushdb_refuses_a_copy_whose_other_field_holds_a_secret(pds: LocalPds, rushdb: Project) -> None:
    alice, bob = pds.create_account(), pds.create_account()
    Repo(pds, alice).create(RECORD_NSID, {**ORIGINAL, "app.example.note": f"deploy with {SECRET}"})
    Repo(pds, alice).create(RECORD_NSID, {**ORIGINAL, "content": "The user drinks water."})
    exported = _migrate(pds, rushdb, alice, bob, "--json")()
    assert exported.exit_code == 3, exported.output
    assert SECRET not in exported.output and "deploy with" not in exported.output
    assert "app.example.note" in exported.output and "GitHub token" in exported.output
    [written] = _records(pds, bob.did).values()
    assert written["value"]["content"] == "The user drinks water."
