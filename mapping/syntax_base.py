"""The base of pdsmem's identifier types, shared by the ``syntax*`` modules.

Scope: ``SyntaxStr``, a ``str`` subclass built only through ``Type.parse(raw)``, and the helpers
that word a syntax error the same way for every type. The types themselves are in
``syntax`` (identifiers), ``syntax_datetime`` and ``syntax_formats``; import them from ``syntax``.
"""

from __future__ import annotations

import re
from typing import Self, TypeVar

from pdsmem.errors import InvalidSyntax, kind_of

__all__ = ["SyntaxStr", "bad_char", "invalid", "trusted"]


class SyntaxStr(str):
    """A string whose syntax was checked by ``parse``; subclasses define ``_check``."""

    __slots__ = ()
    _what = "a value"

    @classmethod
    def parse(cls, raw: str) -> Self:
        """Return ``raw`` as this type, or raise ``InvalidSyntax`` saying what was expected."""
        if isinstance(raw, cls):
            return raw
        if not isinstance(raw, str):
            raise InvalidSyntax(f"expected {cls._what} as a string, got {kind_of(raw)}")
        cls._check(raw)
        return str.__new__(cls, raw)

    @classmethod
    def _check(cls, raw: str) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str.__repr__(self)})"


_S = TypeVar("_S", bound=SyntaxStr)


def trusted(cls: type[_S], value: str) -> _S:
    """Wrap a value known to be valid (a part of a parsed value) without checking it again."""
    return str.__new__(cls, value)


def invalid(why: str, raw: str) -> InvalidSyntax:
    """The error for ``raw``: why it is invalid, then the value as ``shown`` shows it."""
    error = InvalidSyntax(f"{why}: {shown(raw)}")
    error.why = why
    return error


def sensitive(value: str) -> bool:
    """Whether the privacy gate refuses ``value``: a message must not quote it."""
    from pdsmem.mapping.privacy import sensitive_reason  # when a message needs it, not at start-up

    return sensitive_reason(value) is not None


def shown(raw: object) -> str:
    """A bad value as a message may quote it: itself (shortened past 64 characters) when it holds
    no space and the privacy gate lets it through, else only its length. A bad identifier with
    spaces in it is more often a memory's words than a typo, and no message quotes those
    (docs/mapping.md, "Privacy gate")."""
    if not isinstance(raw, str):
        return kind_of(raw)
    if any(char.isspace() for char in raw) or sensitive(raw):
        return f"(a value of {len(raw):,} characters)"
    return repr(raw if len(raw) <= 64 else raw[:61] + "...")


def bad_char(raw: str, allowed: re.Pattern[str], kind: str, allowed_text: str) -> str | None:
    """Describe the first character of ``raw`` outside ``allowed`` (a one-character pattern)."""
    for pos, char in enumerate(raw):
        if not allowed.fullmatch(char):
            return f"{kind} has {char!r} at position {pos} (only {allowed_text} allowed)"
    return None


def mask_userinfo(text: str) -> str:
    """``text`` (a URL, or a message holding one) with everything between ``://`` and the last
    ``@`` replaced by ``***``: a user and password, even one holding ``@``, ``/`` or spaces."""
    head, sep, rest = text.partition("://")
    if not sep or "@" not in rest:
        return text
    return f"{head}{sep}***@{rest.rsplit('@', 1)[1]}"


def mask_url(url: str) -> str:
    """A server's URL as a setting holds it, for showing: its user and password masked
    (``mask_userinfo``), and its query and fragment too (``https://host/?***``), where an API key
    pasted into the URL would be (``RUSHDB_API_URL=https://host/?apiKey=…``); with or without its
    scheme (``localhost:3000/?***``, ``***@localhost:3000``)."""
    head, sep, rest = mask_userinfo(url).partition("://")
    if not sep:  # no scheme: all of it is the rest
        head, rest = "", head
        if "@" in rest.split("/", 1)[0].split("?", 1)[0]:
            rest = "***@" + rest.rsplit("@", 1)[1]
    cut = min((at for at in (rest.find("?"), rest.find("#")) if at >= 0), default=-1)
    return f"{head}{sep}{rest if cut < 0 else rest[:cut + 1] + '***'}"
