"""atproto identifier syntax: one ``str`` subclass per identifier, built only by ``Type.parse(raw)``.

Scope: the *string* syntax of DIDs, handles, at-identifiers, NSIDs, record keys, TIDs and at-uris,
as atproto Lexicon validation accepts them (atproto.com/specs: did, handle, nsid, record-key, tid,
at-uri-scheme), and ``FORMAT_PARSERS``, which maps each Lexicon string ``format`` name to its
parser. The other formats live in sibling modules and are re-exported here, so every syntax type
imports from this module: ``Datetime`` (``syntax_datetime``), and ``CidString``, ``Language``,
``Uri`` (``syntax_formats``). Syntax only: a well-formed DID may not resolve, and a CID string is
not decoded here. ``parse`` raises :class:`~pdsmem.errors.InvalidSyntax` saying what was expected;
accessors on a parsed value never fail, except ``Datetime.to_datetime`` for year 0000.

Tricky bits:
- Nothing is trimmed: ``" did:plc:x"`` and ``"at://did:plc:x/ "`` are invalid, as the interop
  fixtures require. Patterns use ``fullmatch`` and ASCII classes (``$`` accepts a final newline,
  ``\\d`` accepts non-ASCII digits).
- at-uri is the Lexicon ``at-uri`` format, ``at://AUTHORITY[/COLLECTION[/RKEY]]``: no query,
  fragment, trailing slash, or percent-encoding in the collection or record key.
- TID syntax allows a first character in ``234567abcdefghij``; ``c``-``j`` set the top bit the spec
  says is 0, yet parse (as in the reference), and their ``timestamp_us`` needs 54 bits.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Self

from pdsmem.errors import InvalidSyntax
from pdsmem.mapping.syntax_base import SyntaxStr, bad_char, invalid, trusted
from pdsmem.mapping.syntax_datetime import Datetime
from pdsmem.mapping.syntax_formats import CidString, Language, Uri

__all__ = ["FORMAT_PARSERS", "AtIdentifier", "AtUri", "CidString", "Datetime", "Did", "Handle"]
__all__ += ["Language", "Nsid", "RecordKey", "Tid", "Uri"]


# --- DID, handle, at-identifier -----------------------------------------------------------------

_DID_MAX = 2048
_DID_RE = re.compile(r"did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]")
_DID_CHAR = re.compile(r"[a-zA-Z0-9._:%-]")
_LOWER = re.compile(r"[a-z]+")
_PLC_IDENT = re.compile(r"[a-z2-7]{24}")


class Did(SyntaxStr):
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
            why = bad_char(ident, _DID_CHAR, "DID identifier", "letters, digits and . _ : % -")
            why = why or "DID can not end with ':' or '%'"
        raise invalid(why, raw)

    @property
    def method(self) -> str:
        """The DID method, such as ``plc`` or ``web``."""
        return self.split(":", 2)[1]

    def plc_problem(self) -> str | None:
        """Why this ``did:plc`` can name no account, or None (and None for other methods): the
        did:plc method's identifier is 24 characters of base32, so no directory or PDS holds
        another and none need be asked."""
        if self.method != "plc":
            return None
        ident = self[len("did:plc:"):]
        if _PLC_IDENT.fullmatch(ident):
            return None
        has = f"this one has {len(ident)}" if len(ident) != 24 else "this one has others"
        return (f"not a valid did:plc: one has 24 characters after 'did:plc:', letters a-z and digits 2-7 "
                f"({has})")


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
    if bad := bad_char(raw, _HOST_CHAR, kind, _HOST_CHARS_TEXT):
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


class Handle(SyntaxStr):
    """A handle: a DNS hostname of two or more labels whose last label starts with a letter."""

    __slots__ = ()
    _what = "a handle"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) > _HANDLE_MAX or not _HANDLE_RE.fullmatch(raw):
            raise invalid(_explain_hostname(raw, "handle", _HANDLE_MAX), raw)

    @property
    def normalized(self) -> str:
        """The handle in lowercase, its canonical form (handles are case-insensitive)."""
        return self.lower()


class AtIdentifier(SyntaxStr):
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
            raise invalid(f"expected a DID ('did:...') or a handle; {err.why}", raw) from None

    @property
    def is_did(self) -> bool:
        return self.startswith("did:")


# --- NSID, record key, TID ----------------------------------------------------------------------

_NSID_MAX = 253 + 1 + 63
_NSID_RE = re.compile(
    rf"[a-zA-Z](?:[a-zA-Z0-9-]{{0,61}}[a-zA-Z0-9])?(?:\.{_LABEL})+\.[a-zA-Z][a-zA-Z0-9]{{0,62}}"
)
_NAME_RE = re.compile(r"[a-zA-Z][a-zA-Z0-9]{0,62}")


class Nsid(SyntaxStr):
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
        elif bad := bad_char(raw, _HOST_CHAR, "NSID", _HOST_CHARS_TEXT):
            why = bad
        elif len(segments) < 3:
            why = "NSID needs at least three dot-separated parts, like 'com.example.thing'"
        elif not _NAME_RE.fullmatch(segments[-1]):
            why = "NSID name (last part) must be 1-63 ASCII letters and digits, starting with a letter"
        else:
            head = ".".join(reversed(segments[:-1]))
            why = _explain_hostname(head, "NSID domain authority", len(head))
            why = why.replace("top-level domain", "first part")
        raise invalid(why, raw)

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


class RecordKey(SyntaxStr):
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
            why = bad_char(raw, _RKEY_CHAR, "record key", "ASCII letters, digits and . - _ : ~")
            why = why or "record key can not be '.' or '..'"
        raise invalid(why, raw)


_TID_ALPHABET = "234567abcdefghijklmnopqrstuvwxyz"
_TID_RE = re.compile(r"[2-7a-j][2-7a-z]{12}")
_TID_PAIRS = [a + b for a in _TID_ALPHABET for b in _TID_ALPHABET]  # index: a 10-bit value
_TID_TO_BASE32_DIGITS = str.maketrans(_TID_ALPHABET, "0123456789abcdefghijklmnopqrstuv")
_PROCESS_CLOCK_ID = int.from_bytes(os.urandom(2), "big") % 1024  # uniform: 1024 divides 65536
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
        raise invalid(why, raw)

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


@cache
def _at_uri_did_re() -> re.Pattern[str]:
    """A DID authority, then an optional collection and record key: no group can hold a "/".
    Compiled when an at-uri is first checked (4 ms: a command that checks none does not pay it)."""
    return re.compile(rf"at://({_DID_RE.pattern})(?:/({_NSID_RE.pattern})(?:/({_RKEY_RE.pattern}))?)?")


class AtUri(SyntaxStr):
    """An at-uri as the Lexicon ``at-uri`` format allows: ``at://AUTHORITY[/COLLECTION[/RKEY]]``."""

    __slots__ = ()
    _what = "an at-uri"

    @classmethod
    def _check(cls, raw: str) -> None:
        match = _at_uri_did_re().fullmatch(raw) if len(raw) <= _AT_URI_MAX else None
        if match is not None:  # the usual at-uri, in one match; the checks below say what is wrong
            did, collection, rkey = match.groups()
            short = len(did) <= _DID_MAX and (collection is None or len(collection) <= _NSID_MAX)
            if short and rkey not in (".", ".."):
                return
        if len(raw) > _AT_URI_MAX:
            raise invalid(f"at-uri is too long ({len(raw)} chars, {_AT_URI_MAX} max)", raw)
        if not raw.startswith("at://"):
            raise invalid("at-uri must start with 'at://'", raw)
        if "?" in raw or "#" in raw:
            raise invalid("at-uri in a record may not have a query ('?') or fragment ('#')", raw)
        parts = raw[5:].split("/")
        if len(parts) > 3:
            raise invalid("at-uri path may only be /COLLECTION/RKEY (no trailing slash)", raw)
        if "" in parts:
            raise invalid("at-uri has an empty authority or path segment (check the slashes)", raw)
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
        return trusted(AtIdentifier, self[5:].split("/", 1)[0])

    @property
    def collection(self) -> Nsid | None:
        parts = self[5:].split("/")
        return trusted(Nsid, parts[1]) if len(parts) > 1 else None

    @property
    def rkey(self) -> RecordKey | None:
        parts = self[5:].split("/")
        return trusted(RecordKey, parts[2]) if len(parts) > 2 else None


_AT_URI_PARTS = ("authority", "collection", "record key")


def _lexicon_language(raw: str) -> Language:
    return Language.parse(raw, allow_repeated_subtags=True)


FORMAT_PARSERS: dict[str, Callable[[str], str]] = {
    "did": Did.parse, "handle": Handle.parse, "at-identifier": AtIdentifier.parse,
    "nsid": Nsid.parse, "at-uri": AtUri.parse, "record-key": RecordKey.parse, "tid": Tid.parse,
    "datetime": Datetime.parse, "cid": CidString.parse, "language": _lexicon_language,
    "uri": Uri.parse,
}  # fmt: skip
"""Lexicon string ``format`` name -> parser that raises ``InvalidSyntax`` (the lexicon validator's)."""
