"""Hand-made hostile record views: content at and past the byte and grapheme limits,
``supersedes`` abuse, wrong ``$type``, floats, deep nesting, huge unknown fields, ``$link``/
``$bytes``/blob misuse, and broken views. Each case is placed between two valid records.
"""

from __future__ import annotations

from devkit.repo_builder import tid

from pdsmem.errors import DataModelError, MappingError, RecordInvalid
from pdsmem.lexicons import EXTENSION_NSID, RECORD_NSID
from pdsmem.mapping.datamodel import MAX_DEPTH

from .outcomes import Contained
from .records import (
    CID,
    DEEP,
    DID,
    OTHER_DID,
    RecordCase,
    broken_view,
    contained,
    extension,
    links,
    mapper_refused,
    nested,
    record,
    refused,
    same_cid_as,
    text_kept,
    unknown_kept,
    untrusted,
    uri,
)

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"  # 25 bytes, 1 grapheme
FLAG = "\U0001F1EB\U0001F1F7"  # 8 bytes, 1 grapheme
JAMO = "\u1100\u1161\u11a8"  # 9 bytes, 1 grapheme


def content_cases() -> list[RecordCase]:
    at_limit = {
        "ascii-2500-graphemes": "a" * 2500,
        "emoji-10000-bytes-2500-graphemes": "\U0001F600" * 2500,
        "zwj-family-10000-bytes": FAMILY * 400,
        "flags-10000-bytes": FLAG * 1250,
        "crlf-2500-graphemes": "\r\n" * 2500,
        "one-grapheme-4999-combining-marks": "a" + "\u0301" * 4999,
        "jamo-9999-bytes": JAMO * 1111,
        "nul-bidi-and-bom": "a\x00b\u202e\ufeffc",
    }
    cases = [contained(f"content-at-limit-{name}", record(content=text), check=text_kept)
             for name, text in at_limit.items()]
    past = {
        "ascii-2501-graphemes": ("a" * 2501, "at most 2500 graphemes"),
        "ascii-10001-bytes": ("a" * 10001, "at most 10000 bytes"),
        "emoji-10004-bytes": ("\U0001F600" * 2501, "at most 10000 bytes"),
        "zwj-family-10025-bytes": (FAMILY * 401, "at most 10000 bytes"),
        "flags-10008-bytes": (FLAG * 1251, "at most 10000 bytes"),
        "crlf-2501-graphemes": ("\r\n" * 2501, "at most 2500 graphemes"),
        "combining-e-2501-graphemes": ("e\u0301" * 2501, "at most 2500 graphemes"),
        "one-grapheme-10001-bytes": ("a" + "\u0301" * 5000, "at most 10000 bytes"),
        "jamo-10008-bytes": (JAMO * 1112, "at most 10000 bytes"),
        "one-megabyte": ("x" * 1_000_000, "at most 10000 bytes"),
    }
    cases += [refused(f"content-past-limit-{name}", record(content=text), RecordInvalid, says)
              for name, (text, says) in past.items()]
    cases.append(refused("content-lone-surrogate", record(content="ok \ud800"), DataModelError,
                         "lone surrogate"))
    cases.append(mapper_refused("content-empty", record(content=""), MappingError, "content is empty"))
    cases.append(refused("content-missing", {k: v for k, v in record().items() if k != "content"},
                         RecordInvalid, "is required"))
    cases.append(refused("createdAt-missing", {k: v for k, v in record().items() if k != "createdAt"},
                         RecordInvalid, "is required"))
    cases.append(refused("createdAt-leap-second", record(createdAt="2016-12-31T23:59:60Z"),
                         RecordInvalid, "no leap seconds"))
    cases.append(refused("createdAt-february-29-non-leap", record(createdAt="2023-02-29T00:00:00Z"),
                         RecordInvalid, "must be a valid datetime"))
    hourly = {"from": "2024-01-01T00:00:00Z", "precision": "hour"}
    cases.append(refused("occurredAt-precision-not-in-enum", record(occurredAt=hourly),
                         RecordInvalid, "precision"))
    cases.append(refused("provenance-agent-too-long", record(provenance={"agent": "a" * 257}),
                         RecordInvalid, "at most 256"))
    cases.append(refused("scope-too-long", record(scope="s" * 513), RecordInvalid, "at most 512"))
    return cases


def supersedes_cases() -> list[RecordCase]:
    same = [uri(tid(1_700_000_000_000_000 + n)) for n in range(21)]
    foreign = uri("3lbt4ilkfw2ab", did=OTHER_DID)
    cases = [
        refused("supersedes-21-entries", record(supersedes=same[:21]), RecordInvalid, "at most 20 items"),
        refused("supersedes-5000-entries", record(supersedes=[same[0]] * 5000), RecordInvalid,
                "at most 20 items"),
        contained("supersedes-20-entries", record(supersedes=same[:20]), check=links(*same[:20])),
        contained("supersedes-itself", record(supersedes=[uri()]), "cannot supersede itself", links()),
        contained("supersedes-itself-and-another", record(supersedes=[uri(), same[3]]),
                  "cannot supersede itself", links(same[3])),
        contained("supersedes-other-repository", record(supersedes=[foreign]), "another repository", links()),
        contained("supersedes-handle-authority", record(supersedes=[uri(did="alice.example.com")]),
                  "another repository", links()),
        contained("supersedes-did-web", record(supersedes=[uri(did="did:web:evil.example.com")]),
                  "another repository", links()),
        contained("supersedes-same-uri-twice", record(supersedes=[same[1], same[1]]), check=links(same[1])),
        contained("supersedes-empty-list", record(supersedes=[]), check=links()),
        refused("supersedes-a-string", record(supersedes=same[0]), RecordInvalid, "must be an array"),
        refused("supersedes-nested-list", record(supersedes=[[same[0]]]), RecordInvalid, "must be a string"),
    ]
    return cases


def type_cases() -> list[RecordCase]:
    unknown = "no lexicon definition"  # validate checks a record against the lexicon its $type names
    wrong = {
        "bsky-post": ("app.bsky.feed.post", unknown), "suffixed": (RECORD_NSID + "x", unknown),
        "upper-case": (RECORD_NSID.upper(), unknown), "extension-nsid": (EXTENSION_NSID, "not a record"),
        "fragment": (RECORD_NSID + "#main", "$type"), "not-an-nsid": ("memory record", unknown),
    }
    cases = [refused(f"type-{name}", record(**{"$type": text}), RecordInvalid, "$type", validate=says)
             for name, (text, says) in wrong.items()]
    cases.append(refused("type-empty", record(**{"$type": ""}), DataModelError, "non-empty string",
                         validate=unknown))
    cases.append(refused("type-missing", {k: v for k, v in record().items() if k != "$type"},
                         RecordInvalid, "$type"))
    return cases


def float_cases() -> list[RecordCase]:
    nan = float("nan")
    floats = {
        "top-level": {"extra": 0.5}, "nan": {"extra": nan}, "infinity": {"extra": float("inf")},
        "nested-map": {"extra": {"a": {"b": 0.25}}}, "in-list": {"extra": [1, 2, 3.5]},
        "in-provenance": {"provenance": {"agent": "x", "weight": 0.1}},
        "in-occurredAt": {"occurredAt": {"from": "2024-01-01T00:00:00Z", "fuzz": 2.5}},
        "as-map-key-value-deep": {"extra": nested(50, 0.5)},
    }
    cases = [refused(f"float-{name}", record(**fields), DataModelError, "atproto data has no floats")
             for name, fields in floats.items()]
    # A JSON number with an integral value is that integer (as in JavaScript): same CID.
    cases += [contained(f"float-integral-{name}", record(extra=number), check=same_cid_as(record(extra=int(number))))
              for name, number in {"one": 1.0, "negative-zero": -0.0, "two-to-the-53": 2.0**53}.items()]
    cases.append(refused("float-integral-past-64-bits", record(extra=1e308), DataModelError, "64-bit maximum",
                         validate="atproto data has no floats"))
    return cases


def depth_cases() -> list[RecordCase]:
    too_deep = f"deeper than {MAX_DEPTH} levels"
    cases = [
        contained("nesting-at-the-limit", record(extra=nested(MAX_DEPTH - 1)), check=unknown_kept("extra")),
        refused("nesting-past-the-limit", record(extra=nested(MAX_DEPTH)), DataModelError, too_deep),
    ]
    for kind in ("map", "list", "mixed"):
        cases.append(refused(f"nesting-{DEEP}-levels-{kind}", record(extra=nested(DEEP, kind=kind)),
                             DataModelError, too_deep))
    cases.append(refused(f"nesting-{DEEP * 10}-levels-in-provenance",
                         record(provenance={"agent": "x", "more": nested(DEEP * 10)}),
                         DataModelError, too_deep))
    cases.append(refused(f"nesting-{DEEP}-levels-in-extension",
                         record(**{EXTENSION_NSID: extension(deep=nested(DEEP))}),
                         DataModelError, too_deep))
    return cases


def huge_cases() -> list[RecordCase]:
    return [
        contained("unknown-field-5-megabytes", record(extra="x" * 5_000_000), check=unknown_kept("extra")),
        contained("unknown-map-100000-keys", record(extra={f"k{n}": n for n in range(100_000)}),
                  check=unknown_kept("extra")),
        contained("unknown-list-200000-items", record(extra=list(range(200_000))), check=unknown_kept("extra")),
        contained("unknown-field-name-100000-chars", record(**{"k" * 100_000: 1}), check=unknown_kept("k" * 100_000)),
        contained("unknown-fields-5000", record(**{f"field{n}": "v" for n in range(5000)}),
                  check=unknown_kept("field4999")),
    ]


def ipld_cases() -> list[RecordCase]:
    blob = {"$type": "blob", "ref": {"$link": CID}, "mimeType": "text/plain", "size": 3}
    bad = {
        "link-not-a-cid": ({"$link": "not-a-cid"}, "unsupported CID string"),
        "link-not-a-string": ({"$link": 5}, "$link"),
        "link-with-another-key": ({"$link": CID, "x": 1}, "no other keys"),
        "link-empty": ({"$link": ""}, "CID string"),
        "bytes-not-base64": ({"$bytes": "!!!"}, "base64"),
        "bytes-with-padding": ({"$bytes": "aGk="}, "without padding"),
        "bytes-not-a-string": ({"$bytes": 5}, "$bytes"),
        "bytes-with-another-key": ({"$bytes": "aGk", "x": 1}, "$bytes"),
        "blob-without-ref": ({k: v for k, v in blob.items() if k != "ref"}, "ref"),
        "blob-negative-size": (dict(blob, size=-1), "size"),
        "blob-mime-not-a-string": (dict(blob, mimeType=5), "mimeType"),
        "blob-ref-not-a-link": (dict(blob, ref=CID), "ref"),
        "nested-type-not-a-string": ({"$type": 5}, "$type must be a non-empty string"),
    }
    cases = [refused(f"ipld-{name}", record(extra=value), DataModelError, says)
             for name, (value, says) in bad.items()]
    cases += [
        refused("ipld-record-is-a-link", {"$link": CID}, RecordInvalid, "must be an object (got cid-link)"),
        refused("ipld-record-is-bytes", {"$bytes": "aGk"}, RecordInvalid, "must be an object (got bytes)"),
        refused("ipld-bytes-key-beside-record-fields", record(**{"$bytes": "aGk"}), DataModelError, "$bytes",
                validate="must be an object (got bytes)"),
        contained("ipld-valid-link-bytes-blob-kept", record(extra={"l": {"$link": CID}, "b": {"$bytes": "aGk"},
                                                                   "blob": blob}), check=unknown_kept("extra")),
    ]
    return cases


def view_cases() -> list[RecordCase]:
    line_says = "expected a JSON object on each line"
    not_object = "a record view must be an object"
    cases = [
        broken_view(f"view-is-{name}", item, MappingError, not_object, cli_says=line_says)
        for name, item in {"a-list": [record()], "a-string": "record", "an-integer": 7,
                           "null": None, "a-boolean": True}.items()
    ]
    cases += [
        broken_view("view-without-uri", {"value": record()}, MappingError, "no 'uri' string"),
        broken_view("view-uri-not-a-string", {"uri": 7, "value": record()}, MappingError, "no 'uri' string"),
        broken_view("view-without-value", {"uri": uri()}, MappingError, "no 'value' object"),
        broken_view("view-value-a-list", {"uri": uri(), "value": [record()]}, MappingError, "no 'value' object"),
        broken_view("view-value-a-string", {"uri": uri(), "value": "record"}, MappingError, "no 'value' object"),
        broken_view("view-cid-not-a-string", {"uri": uri(), "cid": 7, "value": record()}, MappingError,
                    "'cid' must be a string"),
        broken_view("view-uri-other-repository", {"uri": uri(did=OTHER_DID), "value": record()},
                    MappingError, f"not to the repository {DID}"),
        broken_view("view-uri-handle-authority", {"uri": uri(did="alice.example.com"), "value": record()},
                    MappingError, "not to the repository"),
        broken_view("view-uri-other-collection", {"uri": uri(collection="app.bsky.feed.post"), "value": record()},
                    MappingError, f"not a {RECORD_NSID} record uri"),
        broken_view("view-uri-without-record-key", {"uri": f"at://{DID}/{RECORD_NSID}", "value": record()},
                    MappingError, "record uri"),
        broken_view("view-value-empty-object", {"uri": uri(), "value": {}}, RecordInvalid, "is required"),
        RecordCase("view-extra-keys-ignored", {"uri": uri(), "value": record(), "admin": True, "scope": "x"},
                   Contained(check=untrusted), has_value=False),
        broken_view("view-cid-not-a-cid", {"uri": uri(), "cid": "not-a-cid", "value": record()},
                    MappingError, "cid"),
        broken_view("view-cid-of-another-record", {"uri": uri(), "cid": CID, "value": record()},
                    MappingError, "cid"),
    ]
    return cases


def all_cases() -> list[RecordCase]:
    return (content_cases() + supersedes_cases() + type_cases() + float_cases() + depth_cases()
            + huge_cases() + ipld_cases() + view_cases())
