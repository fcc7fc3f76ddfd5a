"""Identifier syntax: the atproto interop fixtures line by line, accessors, and properties."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pdsmem.errors import InvalidSyntax
from pdsmem.mapping.syntax import (
    FORMAT_PARSERS,
    AtIdentifier,
    AtUri,
    CidString,
    Datetime,
    Did,
    Handle,
    Language,
    Nsid,
    RecordKey,
    Tid,
    Uri,
)

FIXTURES = Path(__file__).parent / "fixtures" / "interop" / "syntax"

# fixture file prefix -> (type, Lexicon format name)
KINDS = {
    "did": (Did, "did"),
    "handle": (Handle, "handle"),
    "atidentifier": (AtIdentifier, "at-identifier"),
    "nsid": (Nsid, "nsid"),
    "aturi": (AtUri, "at-uri"),
    "recordkey": (RecordKey, "record-key"),
    "tid": (Tid, "tid"),
    "datetime": (Datetime, "datetime"),
    "cid": (CidString, "cid"),
    "language": (Language, "language"),
    "uri": (Uri, "uri"),
}
PARSERS = [*FORMAT_PARSERS.values(), Language.parse]  # every parser, the strict language one too


def fixture_lines(name: str) -> list[tuple[int, str]]:
    """(line number, value) of a fixture file: '#' lines are comments, empty lines are skipped,
    and nothing is trimmed (trailing whitespace makes several values invalid)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return [(n, line) for n, line in enumerate(text.split("\n"), 1) if line and not line.startswith("#")]


def cases(suffix: str, *kinds: str) -> list:
    """One pytest param per fixture line of ``<kind>_<suffix>.txt``, for the given kinds (or all)."""
    params = []
    for kind in kinds or KINDS:
        path = FIXTURES / f"{kind}_{suffix}.txt"
        if path.exists():
            params += [pytest.param(kind, v, id=f"{path.stem}:{n}") for n, v in fixture_lines(path.name)]
    return params


def test_every_fixture_file_is_used_and_not_empty() -> None:
    used = {f"{kind}_{suffix}.txt" for kind in KINDS for suffix in ("syntax_valid", "syntax_invalid")}
    used |= {"datetime_parse_invalid.txt", "language_parse_invalid.txt"}
    assert {p.name for p in FIXTURES.glob("*.txt")} == used
    assert all(fixture_lines(name) for name in used)


@pytest.mark.parametrize(("kind", "value"), cases("syntax_valid"))
def test_valid_fixture_parses(kind: str, value: str) -> None:
    cls, fmt = KINDS[kind]
    parsed = cls.parse(value)
    assert type(parsed) is cls and parsed == value
    assert FORMAT_PARSERS[fmt](value) == value


@pytest.mark.parametrize(("kind", "value"), cases("syntax_invalid"))
def test_invalid_fixture_is_rejected(kind: str, value: str) -> None:
    cls, fmt = KINDS[kind]
    with pytest.raises(InvalidSyntax):
        cls.parse(value)
    with pytest.raises(InvalidSyntax):
        FORMAT_PARSERS[fmt](value)


@pytest.mark.parametrize(("kind", "value"), cases("parse_invalid"))
def test_parse_invalid_fixture_is_rejected_by_the_type(kind: str, value: str) -> None:
    """Well-formed but meaningless (month 00, a repeated variant): pdsmem cannot use them."""
    cls, _ = KINDS[kind]
    with pytest.raises(InvalidSyntax):
        cls.parse(value)


@pytest.mark.parametrize(("_kind", "value"), cases("parse_invalid", "datetime"))
def test_datetime_format_rejects_unusable_dates(_kind: str, value: str) -> None:
    with pytest.raises(InvalidSyntax):
        FORMAT_PARSERS["datetime"](value)


@pytest.mark.parametrize(("_kind", "value"), cases("parse_invalid", "language"))
def test_language_format_accepts_repeated_subtags_like_the_reference(_kind: str, value: str) -> None:
    assert FORMAT_PARSERS["language"](value) == value
    assert Language.parse(value, allow_repeated_subtags=True) == value


# --- accessors ---------------------------------------------------------------------------------


def test_did_handle_identifier_accessors() -> None:
    assert Did.parse("did:plc:7iza6de2dwap2sbkpav7c6c6").method == "plc"
    assert Did.parse("did:web:localhost%3A1234").method == "web"
    assert Handle.parse("XX.LCS.MIT.EDU").normalized == "xx.lcs.mit.edu"
    assert AtIdentifier.parse("did:method:val").is_did
    assert not AtIdentifier.parse("john.test").is_did


def test_nsid_accessors() -> None:
    nsid = Nsid.parse("Com.Example.fooBar")
    assert (nsid.authority, nsid.name) == ("Example.Com", "fooBar")
    assert nsid.normalized == "com.example.fooBar"
    assert Nsid.parse("one.two.three.four-and.FiVe").authority == "four-and.three.two.one"


@pytest.mark.parametrize("value", [v for _, v in fixture_lines("aturi_syntax_valid.txt")])
def test_at_uri_accessors_reassemble_the_uri(value: str) -> None:
    uri = AtUri.parse(value)
    assert type(uri.authority) is AtIdentifier
    parts = [uri.authority, uri.collection, uri.rkey]
    assert "at://" + "/".join(p for p in parts if p is not None) == value
    assert uri.collection is None or type(uri.collection) is Nsid
    assert uri.rkey is None or (type(uri.rkey) is RecordKey and uri.collection is not None)


def test_at_uri_partial_accessors() -> None:
    assert AtUri.parse("at://did:plc:asdf123").collection is None
    uri = AtUri.parse("at://did:plc:asdf123/com.atproto.feed.post")
    assert uri.collection == "com.atproto.feed.post" and uri.rkey is None
    assert AtUri.parse("at://user.bsky.social").authority == "user.bsky.social"


def base32_sortable_value(text: str) -> int:
    value = 0
    for char in text:
        value = value * 32 + "234567abcdefghijklmnopqrstuvwxyz".index(char)
    return value


def test_tid_known_values() -> None:
    assert Tid.from_parts(0, 0) == "2222222222222"  # the spec's TID for integer zero
    assert Tid.from_parts(2**53 - 1, 1023) == "bzzzzzzzzzzzz"
    for raw in ("3jzfcijpj2z2a", "7777777777777", "3zzzzzzzzzzzz"):
        tid = Tid.parse(raw)
        value = base32_sortable_value(raw)
        assert (tid.timestamp_us, tid.clock_id) == (value >> 10, value & 1023)
        assert Tid.from_parts(tid.timestamp_us, tid.clock_id) == raw
    # a first character in c..j is valid syntax, though it sets the top bit: a 54-bit timestamp
    assert Tid.parse("c222222222222").timestamp_us == 1 << 53
    assert Tid.parse("bzzzzzzzzzzzz").timestamp_us == 2**53 - 1


@pytest.mark.parametrize(
    ("timestamp_us", "clock_id"), [(-1, 0), (2**53, 0), (0, -1), (0, 1024), (1.5, 0), (0, "1")]
)
def test_tid_from_parts_rejects_out_of_range(timestamp_us: object, clock_id: object) -> None:
    with pytest.raises(InvalidSyntax, match="TID (timestamp|clock id) must be an integer"):
        Tid.from_parts(timestamp_us, clock_id)  # type: ignore[arg-type]


def test_tid_now_is_strictly_increasing_and_keeps_the_clock_id() -> None:
    tids = [Tid.now() for _ in range(3000)] + [Tid.now(clock_id=7) for _ in range(3000)]
    assert all(a < b for a, b in zip(tids, tids[1:]))
    assert {t.clock_id for t in tids[3000:]} == {7}
    assert len({t.clock_id for t in tids[:3000]}) == 1
    assert abs(tids[-1].timestamp_us - datetime.now(UTC).timestamp() * 1e6) < 60e6


def test_tid_now_keeps_increasing_when_the_clock_stalls_or_goes_back(monkeypatch) -> None:
    """The wall clock is replaced (not the code under test): a stall, then a step back."""
    start = time.time_ns() + 10**9
    readings = iter([start, start, start - 10**9, start])
    monkeypatch.setattr(time, "time_ns", lambda: next(readings))
    stamps = [Tid.now().timestamp_us for _ in range(4)]
    assert stamps == [start // 1000 + i for i in range(4)]


# --- datetime ----------------------------------------------------------------------------------


def test_datetime_known_values() -> None:
    dt = Datetime.parse("1985-04-12T23:20:50.123Z")
    assert dt.epoch_micros() == 482196050123000
    assert dt.to_datetime() == datetime(1985, 4, 12, 23, 20, 50, 123000, tzinfo=UTC)
    west = Datetime.parse("1985-04-12T23:20:50.123-07:00").to_datetime()
    assert west.utcoffset() == timedelta(hours=-7)
    assert west == datetime(1985, 4, 13, 6, 20, 50, 123000, tzinfo=UTC)
    assert Datetime.parse("1985-04-12T23:20:50.1235678912345Z").epoch_micros() == 482196050123567
    assert Datetime.parse("1969-12-31T23:59:59.999999Z").epoch_micros() == -1
    assert Datetime.parse("0000-01-01T00:00:00.000Z").epoch_micros() == -62167219200 * 10**6
    assert Datetime.parse("2000-02-29T00:00:00Z").to_datetime().day == 29


@pytest.mark.parametrize("value", [v for _, v in fixture_lines("datetime_syntax_valid.txt")])
def test_datetime_accessors_agree_on_valid_fixtures(value: str) -> None:
    dt = Datetime.parse(value)
    if value.startswith("0000-"):
        with pytest.raises(InvalidSyntax, match="year 0000"):
            dt.to_datetime()
        return
    aware = dt.to_datetime()
    assert aware.tzinfo is not None
    assert dt.epoch_micros() == (aware - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1985-13-12T23:20:50.123Z", "month 13 is not in 01-12"),
        ("1985-02-29T00:00:00Z", "day 29 is not in 01-28 for 1985-02"),
        ("1985-04-12T23:20:60Z", "no leap seconds"),
        ("0000-01-01T00:00:00+01:00", "before 0000-01-01T00:00:00Z"),
        ("9999-12-31T23:00:00-01:00", "after year 9999"),
        ("1985-04-12T23:20:50.123-00:00", "not '-00:00'"),
        ("1985-04-12T23:20:50.123", "must end with a timezone"),
        ("1985-04-12T23:20:50.123Z ", "may not contain spaces"),
        ("1985-04-12_23:20:50.123Z", "must look like 1985-04-12T23:20:50.123Z"),
    ],
)
def test_datetime_error_messages(value: str, message: str) -> None:
    with pytest.raises(InvalidSyntax, match=message.replace("(", r"\(").replace(".", r"\.")):
        Datetime.parse(value)


def test_datetime_from_naive_datetime_is_refused() -> None:
    with pytest.raises(InvalidSyntax, match="needs a timezone"):
        Datetime.from_datetime(datetime(2024, 1, 1))
    assert Datetime.now().to_datetime().tzinfo is UTC


@given(st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=45))])))
@example(datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=5, minutes=45))))
def test_datetime_from_datetime_round_trips(value: datetime) -> None:
    if value.replace(tzinfo=None) - datetime.min < value.utcoffset():  # year 0 in UTC (found by Hypothesis)
        with pytest.raises(InvalidSyntax, match="before the year 1 in UTC"):
            Datetime.from_datetime(value)
        return
    dt = Datetime.from_datetime(value)
    assert dt.endswith("Z") and dt.to_datetime() == value
    assert Datetime.parse(str(dt)) == dt


# --- messages and non-string input -------------------------------------------------------------


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        (Nsid.parse, "com." + "middle." * 50 + "foo", "NSID is too long (357 chars, 317 max)"),
        (Nsid.parse, "com.example.fooBar.2", "NSID name (last part) must be"),
        (Nsid.parse, "1.0.0.127.record", "first part can not start with a digit"),
        (AtUri.parse, "http://did:plc:asdf123", "at-uri must start with 'at://'"),
        (AtUri.parse, "at://did:plc:asdf123/", "empty authority or path segment"),
        (AtUri.parse, "at://did:plc:asdf123#/frag", "query ('?') or fragment ('#')"),
        (AtUri.parse, "at://did:plc:a/com.atproto.feed.post/%23", "record key has '%' at position 0"),
        (AtUri.parse, "at://name", "at-uri authority is invalid"),
        (Did.parse, "did:METHOD:val", "DID method must be one or more lowercase letters"),
        (Did.parse, "did:method:val%", "DID can not end with ':' or '%'"),
        (Handle.parse, "john.0", "top-level domain can not start with a digit"),
        (Handle.parse, "jo_hn.test", "handle has '_' at position 2"),
        (RecordKey.parse, "..", "record key can not be '.' or '..'"),
        (Tid.parse, "kjzfcijpj2z2a", "TID must start with one of '234567abcdefghij'"),
        (Tid.parse, "222", "TID must be exactly 13 characters (got 3)"),
        (CidString.parse, "QmbWqxBEKC3P8tqsKc98xmWNzrzDtRLMiMPL8wBuTGsMnR", "CIDv0"),
        (Language.parse, "de-DE-1901-1901", "repeats a variant subtag"),
        (Language.parse, "en-a-foo-a-bar", "repeats an extension singleton subtag"),
        (Uri.parse, "12345", "URI must start with a scheme"),
    ],
)
def test_error_messages_say_what_was_expected(parse, value: str, message: str) -> None:
    with pytest.raises(InvalidSyntax) as err:
        parse(value)
    assert message in str(err.value)


@pytest.mark.parametrize("fmt", sorted(FORMAT_PARSERS))
@pytest.mark.parametrize("value", [None, 42, b"did:plc:abc", ["at://x"]])
def test_non_string_input_is_invalid_syntax(fmt: str, value: object) -> None:
    with pytest.raises(InvalidSyntax, match="as a string, got"):
        FORMAT_PARSERS[fmt](value)  # type: ignore[arg-type]


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("value", ["\ud800", "at://did:plc:\udfff", "https://x/" + "\ud83d" * 3000, ""])
def test_lone_surrogates_and_empty_strings_are_invalid_syntax(parse, value: str) -> None:
    with pytest.raises(InvalidSyntax):
        parse(value)


def test_at_uri_build_needs_a_did_and_a_collection_before_a_rkey() -> None:
    with pytest.raises(InvalidSyntax, match="needs a collection"):
        AtUri.build("did:plc:abc", None, "self")
    with pytest.raises(InvalidSyntax, match="DID must start with 'did:'"):
        AtUri.build("alice.test", "com.example.thing", "self")
    assert AtUri.build(Did.parse("did:plc:abc")) == "at://did:plc:abc"
    assert AtUri.build("did:plc:abc", "com.example.thing") == "at://did:plc:abc/com.example.thing"


def test_parsed_values_are_plain_strings_to_callers() -> None:
    did = Did.parse("did:plc:abc")
    assert did == "did:plc:abc" and hash(did) == hash("did:plc:abc") and isinstance(did, str)
    assert Did.parse(did) is did
    assert repr(did) == "Did('did:plc:abc')"


# --- properties --------------------------------------------------------------------------------

TIMESTAMPS = st.integers(min_value=0, max_value=2**53 - 1)
CLOCK_IDS = st.integers(min_value=0, max_value=1023)


@given(TIMESTAMPS, CLOCK_IDS)
def test_tid_from_parts_round_trips(timestamp_us: int, clock_id: int) -> None:
    tid = Tid.from_parts(timestamp_us, clock_id)
    assert Tid.parse(str(tid)) == tid
    assert (tid.timestamp_us, tid.clock_id) == (timestamp_us, clock_id)


@given(TIMESTAMPS, CLOCK_IDS, TIMESTAMPS, CLOCK_IDS)
def test_tid_order_is_timestamp_then_clock_order(t1: int, c1: int, t2: int, c2: int) -> None:
    a, b = Tid.from_parts(t1, c1), Tid.from_parts(t2, c2)
    assert (a < b) == ((t1, c1) < (t2, c2))
    assert (a == b) == ((t1, c1) == (t2, c2))


DIDS = st.from_regex(r"did:[a-z]{1,8}:[a-zA-Z0-9._:%-]{0,30}[a-zA-Z0-9._-]", fullmatch=True)
NSIDS = st.from_regex(
    r"[a-z][a-z0-9-]{0,8}[a-z0-9]\.[a-z0-9]{1,10}(\.[a-z0-9]{1,5}){0,2}\.[a-zA-Z][a-zA-Z0-9]{0,15}",
    fullmatch=True,
)
RKEYS = st.from_regex(r"[a-zA-Z0-9_~.:-]{1,40}", fullmatch=True).filter(lambda k: k not in (".", ".."))
DATETIME_LIKE = st.from_regex(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,12})?(Z|[+-][0-9]{2}:[0-9]{2})",
    fullmatch=True,
)
SYNTAX_ALPHABET = "at:/did.plc-_~%#?@ 0123456789xyzAZ+=TZ\n\t\u00e9"


@given(st.sampled_from(PARSERS), st.text() | st.text(alphabet=SYNTAX_ALPHABET) | DATETIME_LIKE)
def test_parsers_raise_only_invalid_syntax(parse, raw: str) -> None:
    try:
        parsed = parse(raw)
    except InvalidSyntax:
        return
    assert parsed == raw


@given(DATETIME_LIKE)
def test_datetime_accessors_never_fail_once_parsed(raw: str) -> None:
    try:
        value = Datetime.parse(raw)
    except InvalidSyntax:
        return
    micros = value.epoch_micros()
    if not value.startswith("0000-"):
        assert value.to_datetime() == datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=micros)


@given(DIDS, NSIDS, RKEYS)
def test_at_uri_build_then_parse_round_trips(did: str, collection: str, rkey: str) -> None:
    built = AtUri.build(did, collection, rkey)
    assert built == f"at://{did}/{collection}/{rkey}"
    parsed = AtUri.parse(str(built))
    assert (parsed.authority, parsed.collection, parsed.rkey) == (did, collection, rkey)
    assert parsed.authority.is_did and Did.parse(str(parsed.authority)).method == did.split(":")[1]
    assert (parsed.collection.name, parsed.collection.authority) == (
        collection.rsplit(".", 1)[1],
        ".".join(reversed(collection.split(".")[:-1])),
    )
    fast = AtUri.build(Did.parse(did), Nsid.parse(collection), RecordKey.parse(rkey))
    assert fast == built and type(fast) is AtUri


@given(DIDS, TIMESTAMPS, CLOCK_IDS)
def test_a_tid_is_a_record_key(did: str, timestamp_us: int, clock_id: int) -> None:
    tid = Tid.from_parts(timestamp_us, clock_id)
    assert RecordKey.parse(tid) is tid
    uri = AtUri.build(did, "dev.bastienrobert.memory.record", tid)
    assert uri.rkey == tid and Tid.parse(str(uri.rkey)).timestamp_us == timestamp_us
