"""atproto identifier syntax: one ``str`` subclass per identifier, built only by ``Type.parse(raw)``.

Scope: the *string* syntax of DIDs, handles, at-identifiers, NSIDs, record keys, TIDs, at-uris,
datetimes, CIDs, language tags and generic URIs, as atproto Lexicon validation accepts them
(atproto.com/specs: did, handle, nsid, record-key, tid, at-uri-scheme, lexicon#string-formats).
Syntax only: a well-formed DID may not resolve, and a CID string is not decoded here.
``parse`` raises :class:`~pdsmem.errors.InvalidSyntax` saying what was expected; accessors on a
parsed value never fail, except ``Datetime.to_datetime`` for year 0000 (below).
``FORMAT_PARSERS`` maps each Lexicon string ``format`` name to its parser.

Tricky bits:
- Nothing is trimmed: ``" did:plc:x"`` and ``"at://did:plc:x/ "`` are invalid, as the interop
  fixtures require. Patterns use ``fullmatch`` and ASCII classes (``$`` accepts a final newline,
  ``\\d`` accepts non-ASCII digits).
- at-uri is the Lexicon ``at-uri`` format, ``at://AUTHORITY[/COLLECTION[/RKEY]]``: no query,
  fragment, trailing slash, or percent-encoding in the collection or record key.
- Datetime folds the calendar check into parsing (month 13, hour 25, a time that normalizes before
  year 0000), as the reference validator does. Year 0000 is valid atproto syntax but outside
  Python's ``datetime`` (years 1-9999): ``epoch_micros()`` works for it, ``to_datetime()`` raises.
- ``Language.parse`` is strict and refuses a repeated variant or extension singleton
  (``de-DE-1901-1901``, RFC 5646 section 4.1). The Lexicon ``language`` format accepts those, like
  the reference validator, so that pdsmem never refuses a record the network accepts.
- TID syntax allows a first character in ``234567abcdefghij``; ``c``-``j`` set the top bit the spec
  says is 0, yet parse (as in the reference), and their ``timestamp_us`` needs 54 bits.
"""

from __future__ import annotations

import functools
import re
import secrets
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import NamedTuple, Self, TypeVar

from pdsmem.errors import InvalidSyntax

__all__ = ["FORMAT_PARSERS", "AtIdentifier", "AtUri", "CidString", "Datetime", "Did", "Handle"]
__all__ += ["Language", "Nsid", "RecordKey", "Tid", "Uri"]


class _Syntax(str):
    """A string whose syntax was checked by ``parse``; subclasses define ``_check``."""

    __slots__ = ()
    _what = "a value"

    @classmethod
    def parse(cls, raw: str) -> Self:
        """Return ``raw`` as this type, or raise ``InvalidSyntax`` saying what was expected."""
        if isinstance(raw, cls):
            return raw
        if not isinstance(raw, str):
            raise InvalidSyntax(f"expected {cls._what} as a string, got {type(raw).__name__}")
        cls._check(raw)
        return str.__new__(cls, raw)

    @classmethod
    def _check(cls, raw: str) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str.__repr__(self)})"


_S = TypeVar("_S", bound=_Syntax)


def _trusted(cls: type[_S], value: str) -> _S:
    """Wrap a value known to be valid (a part of a parsed value) without checking it again."""
    return str.__new__(cls, value)


def _invalid(why: str, raw: str) -> InvalidSyntax:
    return InvalidSyntax(f"{why}: {raw if len(raw) <= 64 else raw[:61] + '...'!r}")


def _bad_char(raw: str, allowed: re.Pattern[str], kind: str, allowed_text: str) -> str | None:
    """Describe the first character of ``raw`` outside ``allowed`` (a one-character pattern)."""
    for pos, char in enumerate(raw):
        if not allowed.fullmatch(char):
            return f"{kind} has {char!r} at position {pos} (only {allowed_text} allowed)"
    return None


# --- DID, handle, at-identifier -----------------------------------------------------------------

_DID_MAX = 2048
_DID_RE = re.compile(r"did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]")
_DID_CHAR = re.compile(r"[a-zA-Z0-9._:%-]")
_LOWER = re.compile(r"[a-z]+")


class Did(_Syntax):
    """A DID, ``did:<method>:<identifier>``, of any method; at most 2048 characters."""

    __slots__ = ()
    _what = "a DID"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) <= _DID_MAX and _DID_RE.fullmatch(raw):
            return
        method, sep, ident = raw[4:].partition(":")
        if len(raw) > _DID_MAX:
            why = f"DID is too long ({len(raw)} chars, {_DID_MAX} max)"
        elif not raw.startswith("did:"):
            why = "DID must start with 'did:' (lowercase)"
        elif not sep:
            why = "DID must have the form did:<method>:<identifier>"
        elif not _LOWER.fullmatch(method):
            why = "DID method must be one or more lowercase letters a-z"
        elif not ident:
            why = "DID identifier after the method is empty"
        else:
            why = _bad_char(ident, _DID_CHAR, "DID identifier", "letters, digits and . _ : % -")
            why = why or "DID can not end with ':' or '%'"
        raise _invalid(why, raw)

    @property
    def method(self) -> str:
        """The DID method, such as ``plc`` or ``web``."""
        return self.split(":", 2)[1]


_HANDLE_MAX = 253
_LABEL = r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
_HANDLE_RE = re.compile(rf"(?:{_LABEL}\.)+[a-zA-Z](?:[a-zA-Z0-9-]{{0,61}}[a-zA-Z0-9])?")
_HOST_CHAR = re.compile(r"[a-zA-Z0-9.-]")
_HOST_CHARS_TEXT = "ASCII letters, digits, '.' and '-'"


def _explain_hostname(raw: str, kind: str, max_len: int) -> str:
    """Why ``raw`` is not hostname-shaped: a handle, or an NSID's domain authority."""
    if len(raw) > max_len:
        return f"{kind} is too long ({len(raw)} chars, {max_len} max)"
    labels = raw.split(".")
    if bad := _bad_char(raw, _HOST_CHAR, kind, _HOST_CHARS_TEXT):
        return bad
    if len(labels) < 2:
        return f"{kind} needs at least two dot-separated parts, like 'alice.example.com'"
    for label in labels:
        if not label:
            return f"{kind} has an empty part (leading, trailing or double dot)"
        if len(label) > 63:
            return f"{kind} part is too long ({len(label)} chars, 63 max)"
        if label[0] == "-" or label[-1] == "-":
            return f"{kind} part {label!r} starts or ends with '-'"
    return f"{kind} top-level domain can not start with a digit"


class Handle(_Syntax):
    """A handle: a DNS hostname of two or more labels whose last label starts with a letter."""

    __slots__ = ()
    _what = "a handle"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) > _HANDLE_MAX or not _HANDLE_RE.fullmatch(raw):
            raise _invalid(_explain_hostname(raw, "handle", _HANDLE_MAX), raw)

    @property
    def normalized(self) -> str:
        """The handle in lowercase, its canonical form (handles are case-insensitive)."""
        return self.lower()


class AtIdentifier(_Syntax):
    """A DID or a handle, as in the authority of an at-uri."""

    __slots__ = ()
    _what = "a DID or handle"

    @classmethod
    def _check(cls, raw: str) -> None:
        if raw.startswith("did:"):
            Did.parse(raw)
            return
        try:
            Handle.parse(raw)
        except InvalidSyntax as err:
            raise InvalidSyntax(f"expected a DID ('did:...') or a handle; {err.message}") from None

    @property
    def is_did(self) -> bool:
        return self.startswith("did:")


# --- NSID, record key, TID ----------------------------------------------------------------------

_NSID_MAX = 253 + 1 + 63
_NSID_RE = re.compile(
    rf"[a-zA-Z](?:[a-zA-Z0-9-]{{0,61}}[a-zA-Z0-9])?(?:\.{_LABEL})+\.[a-zA-Z][a-zA-Z0-9]{{0,62}}"
)
_NAME_RE = re.compile(r"[a-zA-Z][a-zA-Z0-9]{0,62}")


class Nsid(_Syntax):
    """A namespaced identifier: a reversed domain authority then a name, ``com.example.fooBar``."""

    __slots__ = ()
    _what = "an NSID"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) <= _NSID_MAX and _NSID_RE.fullmatch(raw):
            return
        segments = raw.split(".")
        if len(raw) > _NSID_MAX:
            why = f"NSID is too long ({len(raw)} chars, {_NSID_MAX} max)"
        elif bad := _bad_char(raw, _HOST_CHAR, "NSID", _HOST_CHARS_TEXT):
            why = bad
        elif len(segments) < 3:
            why = "NSID needs at least three dot-separated parts, like 'com.example.thing'"
        elif not _NAME_RE.fullmatch(segments[-1]):
            why = "NSID name (last part) must be 1-63 ASCII letters and digits, starting with a letter"
        else:
            head = ".".join(reversed(segments[:-1]))
            why = _explain_hostname(head, "NSID domain authority", len(head))
            why = why.replace("top-level domain", "first part")
        raise _invalid(why, raw)

    @property
    def authority(self) -> str:
        """The domain authority in DNS order: ``example.com`` for ``com.example.fooBar``."""
        return ".".join(reversed(self.split(".")[:-1]))

    @property
    def name(self) -> str:
        """The last part, case-sensitive: ``fooBar`` for ``com.example.fooBar``."""
        return self.rsplit(".", 1)[1]

    @property
    def normalized(self) -> str:
        """The NSID with its authority lowercased and its name kept as is."""
        head, name = self.rsplit(".", 1)
        return f"{head.lower()}.{name}"


_RKEY_RE = re.compile(r"[a-zA-Z0-9_~.:-]{1,512}")
_RKEY_CHAR = re.compile(r"[a-zA-Z0-9_~.:-]")


class RecordKey(_Syntax):
    """A record key: 1-512 characters from ``A-Za-z0-9 . - _ : ~``, except ``.`` and ``..``."""

    __slots__ = ()
    _what = "a record key"

    @classmethod
    def _check(cls, raw: str) -> None:
        if _RKEY_RE.fullmatch(raw) and raw != "." and raw != "..":
            return
        if not raw:
            why = "record key is empty"
        elif len(raw) > 512:
            why = f"record key is too long ({len(raw)} chars, 512 max)"
        else:
            why = _bad_char(raw, _RKEY_CHAR, "record key", "ASCII letters, digits and . - _ : ~")
            why = why or "record key can not be '.' or '..'"
        raise _invalid(why, raw)


_TID_ALPHABET = "234567abcdefghijklmnopqrstuvwxyz"
_TID_RE = re.compile(r"[2-7a-j][2-7a-z]{12}")
_TID_PAIRS = [a + b for a in _TID_ALPHABET for b in _TID_ALPHABET]  # index: a 10-bit value
_TID_TO_BASE32_DIGITS = str.maketrans(_TID_ALPHABET, "0123456789abcdefghijklmnopqrstuv")
_PROCESS_CLOCK_ID = secrets.randbelow(1024)
_now_lock = threading.Lock()
_last_now_us = -1


class Tid(RecordKey):
    """A timestamp identifier: 13 base32-sortable characters encoding a 53-bit microsecond timestamp
    and a 10-bit clock id. String order is (timestamp, clock id) order. Every TID is a record key."""

    __slots__ = ()
    _what = "a TID"

    @classmethod
    def _check(cls, raw: str) -> None:
        if _TID_RE.fullmatch(raw):
            return
        if len(raw) != 13:
            why = f"TID must be exactly 13 characters (got {len(raw)})"
        elif any(c not in _TID_ALPHABET for c in raw):
            why = f"TID may only use the lowercase base32-sortable characters {_TID_ALPHABET!r}"
        else:
            why = "TID must start with one of '234567abcdefghij' (its top bit is 0)"
        raise _invalid(why, raw)

    @classmethod
    def from_parts(cls, timestamp_us: int, clock_id: int) -> Self:
        """The TID for microseconds since the UNIX epoch (0..2**53-1) and a clock id (0..1023)."""
        if not isinstance(timestamp_us, int) or not 0 <= timestamp_us < 1 << 53:
            raise InvalidSyntax(f"TID timestamp must be an integer in 0..2**53-1, got {timestamp_us!r}")
        if not isinstance(clock_id, int) or not 0 <= clock_id < 1024:
            raise InvalidSyntax(f"TID clock id must be an integer in 0..1023, got {clock_id!r}")
        v, p = timestamp_us << 10 | clock_id, _TID_PAIRS
        text = _TID_ALPHABET[v >> 60] + p[v >> 50 & 1023] + p[v >> 40 & 1023] + p[v >> 30 & 1023]
        return str.__new__(cls, text + p[v >> 20 & 1023] + p[v >> 10 & 1023] + p[v & 1023])

    @classmethod
    def now(cls, clock_id: int | None = None) -> Self:
        """A TID for the current time, greater than every TID ``now`` returned before in this
        process: when the clock stalls or goes back, the timestamp advances by 1 µs instead."""
        global _last_now_us
        with _now_lock:
            _last_now_us = now_us = max(time.time_ns() // 1000, _last_now_us + 1)
        return cls.from_parts(now_us, _PROCESS_CLOCK_ID if clock_id is None else clock_id)

    @property
    def timestamp_us(self) -> int:
        """Microseconds since the UNIX epoch."""
        return int(self.translate(_TID_TO_BASE32_DIGITS), 32) >> 10

    @property
    def clock_id(self) -> int:
        return int(self.translate(_TID_TO_BASE32_DIGITS), 32) & 1023


# --- at-uri --------------------------------------------------------------------------------------

_AT_URI_MAX = 8192


class AtUri(_Syntax):
    """An at-uri as the Lexicon ``at-uri`` format allows: ``at://AUTHORITY[/COLLECTION[/RKEY]]``."""

    __slots__ = ()
    _what = "an at-uri"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) > _AT_URI_MAX:
            raise _invalid(f"at-uri is too long ({len(raw)} chars, {_AT_URI_MAX} max)", raw)
        if not raw.startswith("at://"):
            raise _invalid("at-uri must start with 'at://'", raw)
        if "?" in raw or "#" in raw:
            raise _invalid("at-uri in a record may not have a query ('?') or fragment ('#')", raw)
        parts = raw[5:].split("/")
        if len(parts) > 3:
            raise _invalid("at-uri path may only be /COLLECTION/RKEY (no trailing slash)", raw)
        if "" in parts:
            raise _invalid("at-uri has an empty authority or path segment (check the slashes)", raw)
        for part, parser, what in zip(parts, (AtIdentifier, Nsid, RecordKey), _AT_URI_PARTS):
            try:
                parser.parse(part)
            except InvalidSyntax as err:
                raise InvalidSyntax(f"at-uri {what} is invalid: {err.message}") from None

    @classmethod
    def build(
        cls, did: Did | str, collection: Nsid | str | None = None, rkey: RecordKey | str | None = None
    ) -> Self:
        """``at://did[/collection[/rkey]]``. Parsed arguments are trusted, plain strings parsed.
        The authority is a DID: pdsmem writes durable at-uris, never handle-based ones."""
        if not isinstance(did, Did):
            did = Did.parse(did)
        if collection is None:
            if rkey is not None:
                raise InvalidSyntax("an at-uri with a record key needs a collection")
            return str.__new__(cls, "at://" + did)
        if not isinstance(collection, Nsid):
            collection = Nsid.parse(collection)
        if rkey is None:
            return str.__new__(cls, "at://" + did + "/" + collection)
        if not isinstance(rkey, RecordKey):
            rkey = RecordKey.parse(rkey)
        return str.__new__(cls, "at://" + did + "/" + collection + "/" + rkey)

    @property
    def authority(self) -> AtIdentifier:
        """The DID or handle after ``at://``; an ``AtIdentifier`` is a ``str``."""
        return _trusted(AtIdentifier, self[5:].split("/", 1)[0])

    @property
    def collection(self) -> Nsid | None:
        parts = self[5:].split("/")
        return _trusted(Nsid, parts[1]) if len(parts) > 1 else None

    @property
    def rkey(self) -> RecordKey | None:
        parts = self[5:].split("/")
        return _trusted(RecordKey, parts[2]) if len(parts) > 2 else None


_AT_URI_PARTS = ("authority", "collection", "record key")


# --- datetime ------------------------------------------------------------------------------------

_DATETIME_MAX = 64
_DATETIME_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"(?:Z|([+-])([0-9]{2}):([0-9]{2}))"
)
_TIMEZONE = re.compile(r"(?:Z|[+-][0-9]{2}:[0-9]{2})\Z")
_DAYS_IN_MONTH = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_DAY = 86_400


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date; valid for year 0 (a leap year)."""
    year -= month <= 2
    era, year_of_era = divmod(year, 400)
    day_of_year = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


_MIN_SECONDS = _days_from_civil(0, 1, 1) * _DAY
_END_SECONDS = _days_from_civil(10_000, 1, 1) * _DAY


class _DatetimeFields(NamedTuple):
    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    micros: int  # digits beyond microseconds truncated
    offset: int  # minutes east of UTC
    utc_seconds: int  # seconds since 1970-01-01T00:00:00Z


@functools.lru_cache(maxsize=1024)  # parse() then epoch_micros() on the same string is common
def _datetime_fields(raw: str) -> _DatetimeFields:
    """The fields of ``raw``, or ``InvalidSyntax`` saying why it is not an atproto datetime."""
    match = _DATETIME_RE.fullmatch(raw) if len(raw) <= _DATETIME_MAX else None
    if match is None:
        if len(raw) > _DATETIME_MAX:
            raise _invalid(f"datetime is too long ({len(raw)} chars, {_DATETIME_MAX} max)", raw)
        if raw != "".join(raw.split()):
            raise _invalid("datetime may not contain spaces or other whitespace", raw)
        if not _TIMEZONE.search(raw):
            raise _invalid("datetime must end with a timezone: uppercase 'Z' or ±hh:mm", raw)
        raise _invalid(
            "datetime must look like 1985-04-12T23:20:50.123Z: 4-digit year, 2-digit fields, "
            "uppercase 'T', seconds, an optional fraction, then 'Z' or ±hh:mm",
            raw,
        )
    year, month, day, hour, minute, second = map(int, match.groups()[:6])
    frac, sign, off_h, off_m = match.groups()[6:]
    if sign == "-" and off_h == "00" and off_m == "00":
        raise _invalid("datetime must write UTC as 'Z' or '+00:00', not '-00:00' (ISO 8601)", raw)
    if not 1 <= month <= 12:
        raise _invalid(f"datetime month {month:02d} is not in 01-12", raw)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    last_day = 29 if month == 2 and leap else _DAYS_IN_MONTH[month]
    if not 1 <= day <= last_day:
        raise _invalid(f"datetime day {day:02d} is not in 01-{last_day} for {year:04d}-{month:02d}", raw)
    if hour > 23 or minute > 59 or second > 59:
        raise _invalid("datetime time must be within 00:00:00 and 23:59:59 (no leap seconds)", raw)
    offset = 0
    if sign:
        if int(off_h) > 23 or int(off_m) > 59:
            raise _invalid("datetime offset must be within ±23:59", raw)
        offset = (int(off_h) * 60 + int(off_m)) * (-1 if sign == "-" else 1)
    utc = _days_from_civil(year, month, day) * _DAY + hour * 3600 + minute * 60 + second - offset * 60
    if utc < _MIN_SECONDS:
        raise _invalid("datetime normalizes to before 0000-01-01T00:00:00Z (a negative year)", raw)
    if utc >= _END_SECONDS:
        raise _invalid("datetime normalizes to after year 9999", raw)
    micros = int(frac[:6].ljust(6, "0")) if frac else 0
    return _DatetimeFields(year, month, day, hour, minute, second, micros, offset, utc)


class Datetime(_Syntax):
    """A datetime in atproto's strict syntax (both RFC 3339 and ISO 8601, with a timezone), also
    checked to be a real calendar time within years 0000-9999 once normalized to UTC."""

    __slots__ = ()
    _what = "a datetime"

    @classmethod
    def _check(cls, raw: str) -> None:
        _datetime_fields(raw)

    @classmethod
    def from_datetime(cls, value: datetime) -> Self:
        """The preferred form of an aware datetime: UTC with ``Z`` and milliseconds, or
        microseconds when the value has sub-millisecond precision."""
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidSyntax("datetime needs a timezone; pass an aware datetime (e.g. tz=UTC)")
        u = value.astimezone(UTC)
        frac = f"{u.microsecond // 1000:03d}" if u.microsecond % 1000 == 0 else f"{u.microsecond:06d}"
        text = f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}"
        return cls.parse(f"{text}.{frac}Z")

    @classmethod
    def now(cls) -> Self:
        return cls.from_datetime(datetime.now(UTC))

    def epoch_micros(self) -> int:
        """Microseconds since 1970-01-01T00:00:00Z, negative before it; digits beyond
        microseconds are truncated."""
        fields = _datetime_fields(self)
        return fields.utc_seconds * 1_000_000 + fields.micros

    def to_datetime(self) -> datetime:
        """An aware ``datetime`` in the value's own offset (``Z`` gives UTC); digits beyond
        microseconds are truncated. Raises ``InvalidSyntax`` for year 0000, which Python's
        ``datetime`` cannot hold (``epoch_micros()`` can)."""
        year, month, day, hour, minute, second, micros, offset, _ = _datetime_fields(self)
        if year == 0:
            raise InvalidSyntax(
                f"datetime {str(self)!r} is in year 0000: valid atproto syntax, but outside "
                "the years 0001-9999 a Python datetime can hold",
                hint="use epoch_micros() for such values",
            )
        tz = UTC if offset == 0 else timezone(timedelta(minutes=offset))
        return datetime(year, month, day, hour, minute, second, micros, tzinfo=tz)


# --- CID string, language, URI -------------------------------------------------------------------

_CID_RE = re.compile(r"[a-zA-Z0-9+=]{8,256}")


class CidString(_Syntax):
    """A CIDv1 in string (multibase) form, checked for shape only; decoding happens elsewhere."""

    __slots__ = ()
    _what = "a CID"

    @classmethod
    def _check(cls, raw: str) -> None:
        if raw.startswith("Qm"):
            raise _invalid("CIDv0 ('Qm...') is not used in atproto; expected CIDv1, like 'bafy...'", raw)
        if not 8 <= len(raw) <= 256:
            raise _invalid(f"CID string must be 8-256 characters (got {len(raw)})", raw)
        if not _CID_RE.fullmatch(raw):
            raise _invalid("CID string may only contain ASCII letters, digits, '+' and '='", raw)


_GRANDFATHERED = (
    "en-GB-oed i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo i-navajo i-pwn i-tao "
    "i-tay i-tsu sgn-BE-FR sgn-BE-NL sgn-CH-DE art-lojban cel-gaulish no-bok no-nyn zh-guoyu "
    "zh-hakka zh-min-nan zh-min zh-xiang"
).split()
_PRIVATE_USE = r"[xX](?:-[A-Za-z0-9]{1,8})+"
_LANGUAGE_RE = re.compile(
    "|".join(re.escape(tag) for tag in _GRANDFATHERED)
    + "|" + _PRIVATE_USE
    + r"|[a-z]{2,3}(?:-[A-Za-z]{3}){0,3}"  # primary language (lowercase), extended language
    + r"(?:-[A-Za-z]{4})?"  # script
    + r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"  # region
    + r"(?P<variants>(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*)"
    + r"(?P<extensions>(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*)"
    + "(?:-" + _PRIVATE_USE + ")?"
)


class Language(_Syntax):
    """A BCP 47 language tag (``en``, ``pt-BR``, ``zh-Hant``, ``x-private``) as atproto checks it:
    well-formed per RFC 5646 section 2.1, with a lowercase primary language subtag."""

    __slots__ = ()
    _what = "a language tag"

    @classmethod
    def parse(cls, raw: str, *, allow_repeated_subtags: bool = False) -> Self:
        """Strict by default: a repeated variant or extension singleton is refused (RFC 5646
        section 4.1). ``allow_repeated_subtags=True`` is the Lexicon ``language`` format check."""
        if allow_repeated_subtags and isinstance(raw, str) and _LANGUAGE_RE.fullmatch(raw):
            return str.__new__(cls, raw)
        return super().parse(str(raw) if isinstance(raw, cls) else raw)

    @classmethod
    def _check(cls, raw: str) -> None:
        match = _LANGUAGE_RE.fullmatch(raw)
        if match is None:
            raise _invalid(
                "language must be a BCP 47 tag such as 'en', 'pt-BR' or 'zh-Hant' "
                "(a lowercase 2-3 letter language first, '-' between subtags)",
                raw,
            )
        if match["variants"] is None:  # a grandfathered or private-use tag
            return
        variants = match["variants"].lower().split("-")[1:]
        singletons = [s for s in match["extensions"].lower().split("-")[1:] if len(s) == 1]
        for kind, subtags in (("a variant", variants), ("an extension singleton", singletons)):
            if len(set(subtags)) != len(subtags):
                raise _invalid(f"language tag repeats {kind} subtag (RFC 5646 section 4.1)", raw)


_URI_MAX_BYTES = 8192
_URI_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
_URI_BAD = r"\s\x00-\x1f\x7f\ud800-\udfff"  # whitespace, control characters, lone surrogates
_URI_RE = re.compile(rf"[a-zA-Z][a-zA-Z0-9+.-]*:(?://)?[^{_URI_BAD}/][^{_URI_BAD}]*")


class Uri(_Syntax):
    """A generic URI as the Lexicon ``uri`` format checks it: an RFC 3986 scheme, ``:``, then a
    non-empty rest without whitespace, control characters or lone surrogates; at most 8 KB of UTF-8."""

    __slots__ = ()
    _what = "a URI"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) > _URI_MAX_BYTES // 4 and len(raw.encode("utf-8", "surrogatepass")) > _URI_MAX_BYTES:
            raise _invalid(f"URI is too long (over {_URI_MAX_BYTES} bytes of UTF-8)", raw)
        if _URI_RE.fullmatch(raw):
            return
        if not _URI_SCHEME.match(raw):
            raise _invalid("URI must start with a scheme and ':', like 'https:'", raw)
        raise _invalid("URI needs a non-empty part after the scheme, without spaces or controls", raw)


def _lexicon_language(raw: str) -> Language:
    return Language.parse(raw, allow_repeated_subtags=True)


FORMAT_PARSERS: dict[str, Callable[[str], str]] = {
    "did": Did.parse, "handle": Handle.parse, "at-identifier": AtIdentifier.parse,
    "nsid": Nsid.parse, "at-uri": AtUri.parse, "record-key": RecordKey.parse, "tid": Tid.parse,
    "datetime": Datetime.parse, "cid": CidString.parse, "language": _lexicon_language,
    "uri": Uri.parse,
}  # fmt: skip
"""Lexicon string ``format`` name -> parser that raises ``InvalidSyntax`` (the lexicon validator's)."""
