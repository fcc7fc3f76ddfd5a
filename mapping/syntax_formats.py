"""Lexicon string formats that are not atproto identifiers: ``cid``, ``language`` and ``uri``.

Scope: ``CidString`` (shape only; ``cid.Cid.decode`` decodes), ``Language`` (BCP 47) and ``Uri``
(generic RFC 3986 URIs), as Lexicon validation accepts them. Re-exported by ``syntax``; ``parse``
raises :class:`~pdsmem.errors.InvalidSyntax` saying what was expected.

Tricky bits:
- ``Language.parse`` is strict and refuses a repeated variant or extension singleton
  (``de-DE-1901-1901``, RFC 5646 section 4.1). The Lexicon ``language`` format accepts those, like
  the reference validator, so that pdsmem never refuses a record the network accepts.
- A URI may hold any non-ASCII character but no whitespace, control character or lone surrogate.
"""

from __future__ import annotations

import functools
import re
from typing import Self

from pdsmem.mapping.syntax_base import SyntaxStr, invalid

__all__ = ["CidString", "Language", "Uri"]

_CID_RE = re.compile(r"[a-zA-Z0-9+=]{8,256}")


class CidString(SyntaxStr):
    """A CIDv1 in string (multibase) form, checked for shape only; decoding happens elsewhere."""

    __slots__ = ()
    _what = "a CID"

    @classmethod
    def _check(cls, raw: str) -> None:
        if raw.startswith("Qm"):
            raise invalid("CIDv0 ('Qm...') is not used in atproto; expected CIDv1, like 'bafy...'", raw)
        if not 8 <= len(raw) <= 256:
            raise invalid(f"CID string must be 8-256 characters (got {len(raw)})", raw)
        if not _CID_RE.fullmatch(raw):
            raise invalid("CID string may only contain ASCII letters, digits, '+' and '='", raw)


_GRANDFATHERED = (
    "en-GB-oed i-ami i-bnn i-default i-enochian i-hak i-klingon i-lux i-mingo i-navajo i-pwn i-tao "
    "i-tay i-tsu sgn-BE-FR sgn-BE-NL sgn-CH-DE art-lojban cel-gaulish no-bok no-nyn zh-guoyu "
    "zh-hakka zh-min-nan zh-min zh-xiang"
).split()
_PRIVATE_USE = r"[xX](?:-[A-Za-z0-9]{1,8})+"


@functools.cache  # compiled when a language is first checked: most runs check none
def _language_re() -> re.Pattern[str]:
    return re.compile(
        "|".join(re.escape(tag) for tag in _GRANDFATHERED)
        + "|" + _PRIVATE_USE
        + r"|[a-z]{2,3}(?:-[A-Za-z]{3}){0,3}"  # primary language (lowercase), extended language
        + r"(?:-[A-Za-z]{4})?"  # script
        + r"(?:-(?:[A-Za-z]{2}|[0-9]{3}))?"  # region
        + r"(?P<variants>(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*)"
        + r"(?P<extensions>(?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*)"
        + "(?:-" + _PRIVATE_USE + ")?"
    )


class Language(SyntaxStr):
    """A BCP 47 language tag (``en``, ``pt-BR``, ``zh-Hant``, ``x-private``) as atproto checks it:
    well-formed per RFC 5646 section 2.1, with a lowercase primary language subtag."""

    __slots__ = ()
    _what = "a language tag"

    @classmethod
    def parse(cls, raw: str, *, allow_repeated_subtags: bool = False) -> Self:
        """Strict by default: a repeated variant or extension singleton is refused (RFC 5646
        section 4.1). ``allow_repeated_subtags=True`` is the Lexicon ``language`` format check."""
        if allow_repeated_subtags and isinstance(raw, str) and _language_re().fullmatch(raw):
            return str.__new__(cls, raw)
        return super().parse(str(raw) if isinstance(raw, cls) else raw)

    @classmethod
    def _check(cls, raw: str) -> None:
        match = _language_re().fullmatch(raw)
        if match is None:
            raise invalid(
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
                raise invalid(f"language tag repeats {kind} subtag (RFC 5646 section 4.1)", raw)


_URI_MAX_BYTES = 8192
_URI_SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
_URI_BAD = r"\s\x00-\x1f\x7f\ud800-\udfff"  # whitespace, control characters, lone surrogates


@functools.cache  # compiled when a URI is first checked (its classes of surrogates cost a millisecond)
def _uri_re() -> re.Pattern[str]:
    return re.compile(rf"[a-zA-Z][a-zA-Z0-9+.-]*:(?://)?[^{_URI_BAD}/][^{_URI_BAD}]*")


class Uri(SyntaxStr):
    """A generic URI as the Lexicon ``uri`` format checks it: an RFC 3986 scheme, ``:``, then a
    non-empty rest without whitespace, control characters or lone surrogates; at most 8 KB of UTF-8."""

    __slots__ = ()
    _what = "a URI"

    @classmethod
    def _check(cls, raw: str) -> None:
        if len(raw) > _URI_MAX_BYTES // 4 and len(raw.encode("utf-8", "surrogatepass")) > _URI_MAX_BYTES:
            raise invalid(f"URI is too long (over {_URI_MAX_BYTES} bytes of UTF-8)", raw)
        if _uri_re().fullmatch(raw):
            return
        if not _URI_SCHEME.match(raw):
            raise invalid("URI must start with a scheme and ':', like 'https:'", raw)
        raise invalid("URI needs a non-empty part after the scheme, without spaces or controls", raw)
