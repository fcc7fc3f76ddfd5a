"""The atproto ``datetime`` string format: ``Datetime``, re-exported by ``syntax``.

Scope: parsing the Lexicon ``datetime`` format strictly (atproto.com/specs/lexicon#datetime),
with the calendar check folded in, and converting a parsed value to epoch microseconds or an
aware ``datetime``. ``parse`` raises :class:`~pdsmem.errors.InvalidSyntax` saying what was
expected.

Tricky bits:
- Datetime folds the calendar check into parsing (month 13, hour 25, a time that normalizes before
  year 0000), as the reference validator does. Year 0000 is valid atproto syntax but outside
  Python's ``datetime`` (years 1-9999): ``epoch_micros()`` works for it, ``to_datetime()`` raises.
- Nothing is trimmed and patterns use ``fullmatch`` with ASCII classes.
- The fields of the last 1,024 distinct strings parsed are kept: a memory's time is checked
  several times on its way to a record, and a ``Datetime`` finds the entry of its plain text.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from typing import NamedTuple, Self

from pdsmem.errors import InvalidSyntax
from pdsmem.mapping.syntax_base import SyntaxStr, invalid

__all__ = ["Datetime", "parsed_before"]

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


_FIELDS: dict[str, _DatetimeFields] = {}
_FIELDS_MAX = 1024  # parsed strings kept; the cache is emptied when full


def _datetime_fields(raw: str) -> _DatetimeFields:
    """The fields of ``raw``, or ``InvalidSyntax`` saying why it is not an atproto datetime.

    Memoized: one memory's datetime is checked several times on its way to a record (its
    contract, its record key, the lexicon), and a ``Datetime`` finds the entry of its plain text.
    """
    fields = _FIELDS.get(raw)
    if fields is None:
        fields = _parse_fields(raw)
        if len(_FIELDS) >= _FIELDS_MAX:
            _FIELDS.clear()
        _FIELDS[raw] = fields
    return fields


def parsed_before(raw: str) -> bool:
    """Whether ``raw`` is among the datetimes parsed last (kept above): it is then a valid one."""
    return raw in _FIELDS


def _parse_fields(raw: str) -> _DatetimeFields:
    match = _DATETIME_RE.fullmatch(raw) if len(raw) <= _DATETIME_MAX else None
    if match is None:
        if len(raw) > _DATETIME_MAX:
            raise invalid(f"datetime is too long ({len(raw)} chars, {_DATETIME_MAX} max)", raw)
        if raw != "".join(raw.split()):
            raise invalid("datetime may not contain spaces or other whitespace", raw)
        if not _TIMEZONE.search(raw):
            raise invalid("datetime must end with a timezone: uppercase 'Z' or ±hh:mm", raw)
        raise invalid(
            "datetime must look like 1985-04-12T23:20:50.123Z: 4-digit year, 2-digit fields, "
            "uppercase 'T', seconds, an optional fraction, then 'Z' or ±hh:mm",
            raw,
        )
    year, month, day, hour, minute, second = map(int, match.group(1, 2, 3, 4, 5, 6))
    frac, sign, off_h, off_m = match.group(7, 8, 9, 10)
    if sign == "-" and off_h == "00" and off_m == "00":
        raise invalid("datetime must write UTC as 'Z' or '+00:00', not '-00:00' (ISO 8601)", raw)
    if not 1 <= month <= 12:
        raise invalid(f"datetime month {month:02d} is not in 01-12", raw)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    last_day = 29 if month == 2 and leap else _DAYS_IN_MONTH[month]
    if not 1 <= day <= last_day:
        raise invalid(f"datetime day {day:02d} is not in 01-{last_day} for {year:04d}-{month:02d}", raw)
    if hour > 23 or minute > 59 or second > 59:
        raise invalid("datetime time must be within 00:00:00 and 23:59:59 (no leap seconds)", raw)
    offset = 0
    if sign:
        if int(off_h) > 23 or int(off_m) > 59:
            raise invalid("datetime offset must be within ±23:59", raw)
        offset = (int(off_h) * 60 + int(off_m)) * (-1 if sign == "-" else 1)
    utc = _days_from_civil(year, month, day) * _DAY + hour * 3600 + minute * 60 + second - offset * 60
    if utc < _MIN_SECONDS:
        raise invalid("datetime normalizes to before 0000-01-01T00:00:00Z (a negative year)", raw)
    if utc >= _END_SECONDS:
        raise invalid("datetime normalizes to after year 9999", raw)
    micros = int(frac[:6].ljust(6, "0")) if frac else 0
    return _DatetimeFields(year, month, day, hour, minute, second, micros, offset, utc)


class Datetime(SyntaxStr):
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
        try:
            u = value.astimezone(UTC)
        except OverflowError:  # 0001-01-01 in an offset east of UTC is in year 0 in UTC
            raise InvalidSyntax(
                f"datetime {value.isoformat()} falls before the year 1 in UTC, which Python cannot represent"
            ) from None
        frac = f"{u.microsecond // 1000:03d}" if u.microsecond % 1000 == 0 else f"{u.microsecond:06d}"
        text = f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}"
        return cls.parse(f"{text}.{frac}Z")

    @classmethod
    def now(cls) -> Self:
        return cls.from_datetime(datetime.now(UTC))

    @property
    def year(self) -> int:
        """The year as written, in the value's own offset: 0 to 9999."""
        return _datetime_fields(self).year

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
