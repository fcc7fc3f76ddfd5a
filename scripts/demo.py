"""The pdsmem demo, end to end against a real local PDS and a real local RushDB server, through
the real command line. Both halves:

1. start the local reference PDS and PLC directory (scripts/pds), create an account;
2. write sample agent memory (facts, an episode, a superseded fact, a private memory, one
   holding a local path) as AgentMemoryEvent v1 JSON Lines;
3. ``pdsmem export`` it: shared memories are written, the private one and the path are refused;
4. ``pdsmem export`` again: nothing changes (the repository's rev stays);
5. ``pdsmem verify`` the repository (signature, every block, the MST);
6. ``pdsmem import`` it into a second profile, and print the memories side by side;
7. start the local RushDB server (scripts/rushdb) with a fresh project, ``pdsmem sync`` the
   repository into it, and again (nothing changes); print the facts RushDB holds, the
   superseded one inactive, and the SUPERSEDES relationship (from the superseding fact's record);
8. ``pdsmem recall`` from RushDB, as an agent would;
9. ``pdsmem export --from rushdb`` back to the repository: every record is unchanged (same CIDs);
10. stop both servers and remove the run's files.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from devkit.pds import LocalPds
from devkit.rushdb import LocalRushDB, Project
from rushdb import RushDB

from pdsmem.mapping.contract import participant_hash_for_did, with_ids


def sample_memory(did: str) -> list[dict]:
    scope = {
        "agentId": "coder",
        "profileId": "default",
        "privacyScope": "shared",
        "participantScopeHash": participant_hash_for_did(did, "demo-salt"),
        "sandboxEligible": False,
    }
    base = {"schemaVersion": 1, "eventType": "fact", "runtime": "hermes", **scope, "confidence": 0.9,
            "active": True, "visibility": "shared", "trustClass": "trusted", "provenance": "hermes:curate"}

    def fact(n, text, subject, kind="preference", **extra):
        return with_ids({**base, "text": text, "kind": kind, "subjectKey": subject, "sourceEventId": f"turn-{n}",
                         "validFrom": f"2026-08-{10 + n:02d}T09:00:00Z", **extra})

    tea = fact(1, "The user drinks tea in the morning.", "user.drink")
    return [
        tea,
        fact(2, "The user now drinks coffee in the morning, not tea.", "user.drink", supersedesFactId=tea["factId"]),
        fact(3, "The user prefers TypeScript for web services.", "user.language"),
        fact(4, "Deploys happen on Tuesdays.", "team.deploys", kind="decision", confidence=0.75),
        fact(5, "The user's diary is private.", "user.diary", privacyScope="private"),
        fact(6, "The user keeps notes in /home/alice/notes.md", "user.notes"),
        with_ids({"schemaVersion": 1, "eventType": "episode", "runtime": "hermes", **scope,
                  "externalSessionId": "session-42", "sourceEventId": "turn-7", "turnIndex": 7,
                  "userText": "Prefer TypeScript for this service.", "assistantText": "I will use TypeScript.",
                  "summary": "The user asked for TypeScript for the billing service.", "conversationKind": "direct",
                  "visibility": "shared", "trustClass": "mixed", "originClass": "conversation",
                  "observedAt": "2026-08-18T10:00:00Z", "provenance": "hermes:sync_turn"}),
    ]


SALT = "demo-salt"


def pdsmem(*args: str, env: dict, check_codes=(0,)) -> subprocess.CompletedProcess:
    """Run and print a command as one could copy it: a command of a scope (--agent-id) shows the
    salt it runs with, which it refuses to run without."""
    salt = f"MEMORY_SCOPE_SALT={SALT} " if "--agent-id" in args else ""
    print(f"\n$ {salt}pdsmem {shlex.join(args)}")
    result = subprocess.run([sys.executable, "-m", "pdsmem", *args], env=env, capture_output=True, text=True)
    for line in (result.stdout + result.stderr).splitlines()[:20]:
        print(f"  {line}")
    print(f"  (exit {result.returncode})")
    if result.returncode not in check_codes:
        raise SystemExit(f"demo: pdsmem {args[0]} exited {result.returncode}")
    return result


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pdsmem-demo-") as work:
        run(Path(work))
    print("Stopped the local PDS and RushDB servers, and removed the run's files.")


def run(work: Path) -> None:
    print("Starting the local reference PDS and PLC directory …")
    with LocalPds() as pds:
        account = pds.create_account("alice")
        print(f"PDS {pds.url}, account {account.handle} ({account.did})")
        memories = sample_memory(account.did)
        source = work / "memories.jsonl"
        source.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in memories))
        env = dict(os.environ, ATP_AUTH_PASSWORD=account.password, ATP_PDS_HOST=pds.url, ATP_PLC_HOST=pds.plc_url,
                   PDSMEM_STATE_DIR=str(work / "state"), MEMORY_SCOPE_SALT=SALT)
        print(f"The commands below run with ATP_PDS_HOST={pds.url} ATP_PLC_HOST={pds.plc_url} and the "
              "account's password in ATP_AUTH_PASSWORD")

        print("\n== PDS half: agent memory → the user's repository, and back ==")
        pdsmem("export", "--to", account.did, "--from", str(source), env=env, check_codes=(3,))
        pdsmem("export", "--to", account.did, "--from", str(source), env=env, check_codes=(3,))
        pdsmem("verify", account.did, "--pds", pds.url, env=env)
        out = work / "imported.jsonl"
        pdsmem("import", "--from", account.did, "--pds", pds.url, "--agent-id", "coder",
               "--profile-id", "second-profile", "--out", str(out), env=env)
        side_by_side(memories, out)

        print("\n== RushDB half: the user's repository → scoped RushDB memory, recall, and back ==")
        print("Starting the local RushDB server (Neo4j and the RushDB core) …")
        with LocalRushDB(data_dir=work / "rushdb") as server:
            project = server.new_project("demo")
            env.update(project.env)
            print(f"The commands below also run with RUSHDB_API_URL={project.url} and the project's key in RUSHDB_API_KEY")
            scope = ["--agent-id", "coder", "--profile-id", "default"]
            pdsmem("sync", account.did, *scope, env=env)
            pdsmem("sync", account.did, *scope, env=env)
            show_rushdb(project)
            pdsmem("recall", "What does the user drink in the morning?", *scope, "--did", account.did, env=env)
            pdsmem("export", "--to", account.did, "--from", "rushdb", *scope, env=env)
            print("\nEvery record came back from RushDB unchanged: the same record keys, the same CIDs.")


def side_by_side(memories: list[dict], out: Path) -> None:
    imported = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    by_text = {obj["event"].get("text") or obj["event"].get("summary"): obj for obj in imported}
    print("\nSide by side (RushDB-side memory → PDS record → imported into profile 'second-profile'):")
    print(f"  {'memory':<54} {'record key':<15} {'imported as':<12} {'active'}")
    for memory in memories:
        text = memory.get("text") or memory.get("summary")
        obj = by_text.get(text)
        if obj is None:
            status = "refused (private)" if memory.get("privacyScope") == "private" else "refused (local path)"
            print(f"  {textwrap.shorten(text, 54):<54} {'—':<15} {status}")
            continue
        event = obj["event"]
        ident = (event.get("factId") or event.get("eventId"))[:10]
        print(f"  {textwrap.shorten(text, 54):<54} {obj['record']['uri'].rsplit('/', 1)[1]:<15} "
              f"{event['eventType'] + ' ' + ident:<12} {event.get('active', '—')}")
    print("\nThe superseded fact stays as history (active: False); the private memory and the one")
    print("holding a local path never left; the re-run wrote nothing.")


def show_rushdb(project: Project) -> None:
    """What RushDB holds now, read with its own SDK: facts, their records, supersession."""
    db = RushDB(project.api_key, url=project.url)
    facts = [r.data for r in db.records.find({"labels": ["MEMORY_FACT"], "orderBy": {"validFrom": "asc"}}).data]
    mirrors = {r.data["memoryId"]: r.data for r in db.records.find({"labels": ["ATPROTO_RECORD"]}).data}
    print("\nIn RushDB (MEMORY_FACT by factId, each linked RECORDED_AS to its ATPROTO_RECORD mirror):")
    print(f"  {'fact':<54} {'factId':<11} {'record key':<15} {'active'}")
    for row in facts:
        rkey = mirrors.get(row["factId"], {}).get("rkey", "—")
        print(f"  {textwrap.shorten(row['text'], 54):<54} {row['factId'][:10]:<11} {rkey:<15} {row['active']}")
    names = {row["__id"]: textwrap.shorten(row["text"], 40) for row in facts}
    # The superseding record's mirror holds the link: named by the fact its record makes.
    names |= {mirror["__id"]: names.get(by_id["__id"], "?") for mirror in mirrors.values()
              for by_id in facts if by_id["factId"] == mirror["memoryId"]}
    for link in db.relationships.find({"where": {}}).data:
        if link["type"] == "SUPERSEDES":
            print(f"  ({names[link['sourceId']]!r})-[:SUPERSEDES]->({names[link['targetId']]!r})")


if __name__ == "__main__":
    main()
