"""Valid AgentMemoryEvent v1 inputs for tests and benchmarks (ids left for pdsmem to compute)."""

from __future__ import annotations

from pdsmem.mapping.contract import hash_scope

SCOPE = {
    "agentId": "coder",
    "profileId": "default",
    "privacyScope": "shared",
    "participantScopeHash": hash_scope(["discord", "account-1", "user-42"], "salt"),
    "sandboxEligible": False,
}


def fact(n: int = 0, **overrides) -> dict:
    event = {
        "schemaVersion": 1,
        "eventType": "fact",
        "runtime": "hermes",
        **SCOPE,
        "text": f"The user prefers TypeScript for service {n}.",
        "kind": "preference",
        "subjectKey": f"user.language.service-{n}",
        "confidence": 0.85,
        "active": True,
        "sourceEventId": f"turn-{n}",
        "validFrom": f"2026-08-18T00:{n // 60 % 60:02d}:{n % 60:02d}Z",
        "visibility": "shared",
        "trustClass": "mixed",
        "provenance": "hermes:sync_turn",
    }
    event.update(overrides)
    return event


def episode(n: int = 0, **overrides) -> dict:
    event = {
        "schemaVersion": 1,
        "eventType": "episode",
        "runtime": "hermes",
        **SCOPE,
        "externalSessionId": "session-42",
        "sourceEventId": f"turn-{n}",
        "turnIndex": n,
        "userText": "Prefer TypeScript for this service.",
        "assistantText": "I will use TypeScript.",
        "summary": f"The user prefers TypeScript for service {n}.",
        "conversationKind": "direct",
        "visibility": "shared",
        "trustClass": "mixed",
        "originClass": "conversation",
        "observedAt": f"2026-08-18T01:{n // 60 % 60:02d}:{n % 60:02d}Z",
        "provenance": "hermes:sync_turn",
    }
    event.update(overrides)
    return event
