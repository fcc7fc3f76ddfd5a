"""Hostile AgentMemoryEvents for the export side (``to_records``).

Each case is one item that a test places between a valid fact and a valid episode, so that every
case also checks that its valid neighbours are still mapped. Generated families: a wrong type for
every field of a fact and of an episode, each required field left out, every invalid datetime
line of the interop syntax fixtures as ``validFrom``, a secret, credential, command output or
local path (one per detector) in every text that would be published, and each in a fact's text
behind zero-width spaces and in full-width forms. Hand-made: NaN and
infinite confidence, private scope, content at and past the limits, broken ``{event, record}``
objects, supersession that cannot be resolved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from devkit.events import episode, fact

from pdsmem.errors import ContractError, InvalidSyntax, MappingError, PrivacyRefused, RecordInvalid, SensitiveContent
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import contract

from .outcomes import Contained, Refused
from .handmade import FAMILY
from .records import CID, DID, OTHER_DID, fixture_lines, record

WRONG = {"integer": 7, "boolean": True, "null": None, "float": 1.5, "string": "text",
         "array": ["x"], "object": {"x": "y"}}
OPTIONAL = {"validUntil", "supersedesFactId", "channelIdHash", "sourceEventId"}
IDS = {"factId", "eventId"}


@dataclass(frozen=True)
class EventCase:
    name: str
    item: Any
    outcome: Refused | Contained
    publish_private: bool = False
    include_transcript: bool = False
    bug: str | None = None  # a known wrong behaviour of the export mapper (strict xfail)


def neighbours() -> list[dict]:
    """The valid fact and episode placed before and after each hostile item."""
    return [fact(900, text="A valid neighbour fact."), episode(901, summary="A valid neighbour episode.")]


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "float", str: "string", list: "array",
            dict: "object"}[type(value)]


def wrong_type_cases() -> list[EventCase]:
    cases = []
    for make in (fact, episode):
        base = make()
        for name in [*base, *sorted((OPTIONAL | IDS) - set(base))]:  # one order for every xdist worker
            if name == ("eventId" if make is fact else "factId") or (make is fact and name == "channelIdHash"):
                continue
            have = _type_name(base[name]) if name in base else "string"
            for got, bad in WRONG.items():
                if got == have or (got == "float" and have == "integer" and name == "schemaVersion"):
                    continue
                case = f"{make.__name__}-{name}-as-{got}"
                if got == "null" and name in IDS:
                    cases.append(EventCase(case, make(**{name: None}), Contained()))  # computed
                else:
                    cases.append(EventCase(case, make(**{name: bad}), Refused(ContractError, f"$.{name}")))
    return cases


def missing_field_cases() -> list[EventCase]:
    cases = []
    for make in (fact, episode):
        for name in make():
            event = {k: v for k, v in make().items() if k != name}
            case = f"{make.__name__}-without-{name}"
            if name in ("schemaVersion", "sourceEventId") and (name == "schemaVersion" or make is episode):
                cases.append(EventCase(case, event, Contained()))  # completed / optional
            else:
                cases.append(EventCase(case, event, Refused(ContractError, f"$.{name}")))
    return cases


def datetime_cases() -> list[EventCase]:
    cases = []
    lines = fixture_lines("datetime_syntax_invalid.txt") + fixture_lines("datetime_parse_invalid.txt")
    for index, line in enumerate(lines):
        # RFC 3339 (the contract) allows some forms atproto refuses; both errors name the field
        outcome = Refused((ContractError, MappingError), "validFrom")  # type: ignore[arg-type]
        cases.append(EventCase(f"validFrom-invalid-{index}", fact(validFrom=line), outcome))
    cases += [  # a TID holds no time before 1970
        EventCase("validFrom-1960", fact(validFrom="1960-01-01T00:00:00Z"), Refused(MappingError, "before 1970")),
        EventCase("validFrom-year-1", fact(validFrom="0001-01-01T00:00:00Z"), Refused(MappingError, "before 1970")),
        EventCase("observedAt-1960", episode(observedAt="1960-01-01T00:00:00Z"),
                  Refused(MappingError, "before 1970")),
        # nor one after 2255-06-05T23:47:33Z (2**53 microseconds); it was refused as an "integer in
        # 0..2**53-1" naming no field
        EventCase("validFrom-9999", fact(validFrom="9999-12-31T23:59:59Z"),
                  Refused(MappingError, "createdAt 9999-12-31T23:59:59Z is after 2255-06-05T23:47:33Z")),
        EventCase("observedAt-2255-past-the-last-second", episode(observedAt="2255-06-05T23:47:34Z"),
                  Refused(MappingError, "is after 2255-06-05T23:47:33Z")),
        EventCase("validUntil-not-a-datetime", fact(validUntil="next week"), Refused(ContractError, "$.validUntil")),
        EventCase("observedAt-lower-case-t", episode(observedAt="2024-01-01t00:00:00Z"),
                  Refused(MappingError, "observedAt")),
    ]
    return cases


SECRETS = {
    "private-key": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
    "aws-key": "the deploy key is AKIAQ8EG0RZ1WXYT9JH6",
    "github-token": "use ghp_" + "A1b2C3d4" * 5 + " for the API",
    "slack-token": "bot token xoxb-123456789012-abcdefghij",
    "openai-key": "OPENAI key sk-proj-abcdefghijklmnopqrstuvwx",
    "jwt": "session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpM",
    "bearer": "curl -H 'Authorization: Bearer abcdefghijklmnop1234'",
    "password-assignment": "db password=correct-horse-battery",
    "api-key-assignment": "API_KEY: 9f8e7d6c5b4a",
    "password-in-a-sentence": "the wifi password is Tr0ub4dor&3",
    "password-assignment-in-german": "WLAN-Passwort: hunter22",
    "password-without-a-verb": "her gmail password Hunter2024!",
    "pin-without-a-verb": "my debit card PIN 4821",
    "code-for-a-door": "the code for the front door is 4821",
    "telegram-bot-token": "bot 110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    "url-credentials": "postgres://admin:hunter22@db.internal/prod",
    "traceback": "Traceback (most recent call last):\n  File \"x.py\", line 1",
    "shell-prompt": "$ ls -la\ntotal 0",
    "card-number": "card 4111 1111 1111 1111, exp 12/28, CVV 123",
    "home-path": "notes are in /home/alice/notes.txt",
    "macos-path": "see /Users/bob/Desktop",
    "windows-path": "saved to C:\\Users\\carol\\secrets.docx",
    "tilde-path": "config in ~/.config/app.toml",
    "etc-path": "edit /etc/passwd",
    "file-url": "open file:///var/data/dump.sql",
}
FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)} | {0x20: 0x3000}  # ASCII as full-width forms
UNCHECKED_FIELDS = {  # published in the record or its extension, but not checked by the gate
    "fact": ("subjectKey", "sourceEventId", "provenance", "kind"),
    "episode": ("externalSessionId", "sourceEventId", "originClass"),
}


def privacy_cases() -> list[EventCase]:
    cases = [
        EventCase("private-fact", fact(privacyScope="private"), Refused(PrivacyRefused, 'privacyScope is "private"')),
        EventCase("participant-fact", fact(visibility="participant"), Refused(PrivacyRefused, "participant")),
        EventCase("private-episode", episode(privacyScope="private"), Refused(PrivacyRefused, "private")),
        EventCase("private-fact-acknowledged", fact(privacyScope="private"), Contained(), publish_private=True),
        EventCase("secret-in-transcript-not-published", episode(userText=SECRETS["aws-key"]), Contained()),
        EventCase("secret-in-private-fact-acknowledged", fact(privacyScope="private", text=SECRETS["jwt"]),
                  Refused(SensitiveContent, "JSON Web Token"), publish_private=True),
    ]
    for name, text in SECRETS.items():
        cases.append(EventCase(f"secret-{name}-in-fact-text", fact(text=text), Refused(SensitiveContent, "$.text")))
        cases.append(EventCase(f"secret-{name}-in-episode-summary", episode(summary=text),
                               Refused(SensitiveContent, "$.summary")))
        cases.append(EventCase(f"secret-{name}-in-published-transcript", episode(assistantText=text),
                               Refused(SensitiveContent, "$.assistantText"), include_transcript=True))
    for name, text in SECRETS.items():  # hidden from the patterns, seen in the text's plain form
        cases.append(EventCase(f"secret-{name}-behind-zero-width-spaces", fact(text="\u200b".join(text)),
                               Refused(SensitiveContent, "once its invisible characters are dropped")))
        cases.append(EventCase(f"secret-{name}-in-full-width", fact(text=text.translate(FULL_WIDTH)),
                               Refused(SensitiveContent, "once its invisible characters are dropped")))
    for kind, names in UNCHECKED_FIELDS.items():
        make = fact if kind == "fact" else episode
        for name in names:
            cases.append(EventCase(
                f"secret-in-{kind}-{name}", make(**{name: "key ghp_" + "A1b2C3d4" * 5 + " in /home/alice"}),
                Refused(SensitiveContent, f"$.{name}"),
            ))
    return cases


def value_cases() -> list[EventCase]:
    nan = float("nan")
    supersedes_self = contract.with_ids(fact(5))
    supersedes_self = {**{k: v for k, v in supersedes_self.items() if k != "factId"},
                       "supersedesFactId": supersedes_self["factId"]}
    view = {"uri": f"at://{DID}/{RECORD_NSID}/3lbt4ilkfw22s", "value": record(content="from a record")}
    return [
        EventCase("confidence-nan", fact(confidence=nan), Refused(ContractError, "$.confidence")),
        EventCase("confidence-infinity", fact(confidence=float("inf")), Refused(ContractError, "$.confidence")),
        EventCase("confidence-minus-infinity", fact(confidence=float("-inf")), Refused(ContractError, "$.confidence")),
        EventCase("confidence-above-one", fact(confidence=1.0000001), Refused(ContractError, "between 0 and 1")),
        EventCase("confidence-negative", fact(confidence=-0.1), Refused(ContractError, "between 0 and 1")),
        EventCase("confidence-a-string", fact(confidence="0.9"), Refused(ContractError, "$.confidence")),
        EventCase("confidence-underflows-to-zero", fact(confidence=1e-400), Contained()),
        EventCase("turnIndex-nan", episode(turnIndex=nan), Refused(ContractError, "$.turnIndex")),
        EventCase("turnIndex-negative", episode(turnIndex=-1), Refused(ContractError, "$.turnIndex")),
        EventCase("text-10001-bytes", fact(text="a" * 10001), Refused(RecordInvalid, "at most 10000 bytes")),
        EventCase("text-2501-graphemes", fact(text="e\u0301" * 2501), Refused(RecordInvalid, "at most 2500 graphemes")),
        EventCase("text-zwj-family-10000-bytes", fact(text=FAMILY * 400), Contained()),
        EventCase("summary-10001-bytes", episode(summary="\U0001F600" * 2500 + "a"),
                  Refused(RecordInvalid, "at most 10000 bytes")),
        EventCase("text-lone-surrogate", fact(text="ok \udfff"), Refused(RecordInvalid, "lone surrogate")),
        EventCase("text-empty", fact(text=""), Refused(ContractError, "$.text")),
        EventCase("unknown-property", fact(extra=1), Refused(ContractError, "not a property")),
        EventCase("scope-property-unknown", fact(scope="private"), Refused(ContractError, "not a property")),
        EventCase("event-type-unknown", fact(eventType="admin"), Refused(ContractError, "$.eventType")),
        EventCase("schema-version-2", fact(schemaVersion=2), Refused(ContractError, "$.schemaVersion")),
        EventCase("fact-id-of-another-memory", fact(factId=contract.fact_id(fact(1))),
                  Refused(ContractError, "$.factId")),
        EventCase("supersedes-unknown-fact", fact(supersedesFactId="f" * 64), Refused(MappingError, "supersedes fact")),
        EventCase("fact-supersedes-itself", supersedes_self, Refused(MappingError, "itself")),
        EventCase("item-a-list", [fact()], Refused(MappingError, "expected an AgentMemoryEvent object")),
        EventCase("item-a-string", "fact", Refused(MappingError, "expected an AgentMemoryEvent object")),
        EventCase("item-null", None, Refused(MappingError, "expected an AgentMemoryEvent object")),
        EventCase("item-empty-object", {}, Refused(ContractError, "$.eventType")),
        EventCase("from-record-event-a-list", {"event": [fact()], "record": view}, Refused(MappingError, "$.event")),
        EventCase("from-record-record-not-a-view", {"event": fact(), "record": "x"},
                  Refused(MappingError, "must be an object")),
        EventCase("from-record-record-bad-uri", {"event": fact(), "record": dict(view, uri="at://x")},
                  Refused(InvalidSyntax, "at-uri")),
        EventCase("from-record-other-repository",
                  {"event": fact(), "record": dict(view, uri=f"at://{OTHER_DID}/{RECORD_NSID}/3lbt4ilkfw22s")},
                  Refused(MappingError, "another repository")),
        EventCase("from-record-record-value-invalid",
                  {"event": fact(), "record": dict(view, value=record(createdAt="yesterday"))},
                  Refused(RecordInvalid, "must be a valid datetime")),
        EventCase("from-record-cid-not-a-string", {"event": fact(), "record": dict(view, cid=7)},
                  Refused(MappingError, "'cid' must be a string")),
        EventCase("from-record-value-link", {"event": fact(), "record": dict(view, value={"$link": CID})},
                  Refused(RecordInvalid, "must be an object")),
    ]


def all_cases() -> list[EventCase]:
    return wrong_type_cases() + missing_field_cases() + datetime_cases() + privacy_cases() + value_cases()
