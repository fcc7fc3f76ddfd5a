"""The privacy gate: what may be written to a public atproto repository.

A PDS repository is public and copied by relays, so export refuses (decision 1, docs/decisions.md):

- memories whose scope is private (``privacyScope: "private"`` or ``visibility: "participant"``)
  unless the operator acknowledges the repository is public (``publish_private=True``);
- content that looks like a secret or credential, command output or a local filesystem path,
  whatever the flags: no acknowledgement publishes a secret.

The detectors are conservative pattern checks; each refusal names the detector, so the operator
knows what to rewrite. A detector's pattern runs only when the text holds one of its needles,
substrings without which it cannot match: ordinary text costs a few substring searches. A text
that could hide a secret from the patterns (a zero-width space inside a key, a full-width
``ｐａｓｓｗｏｒｄ``, a control character) is checked a second time as a reader sees it: its
compatibility forms made plain (NFKC) and its invisible characters taken out. Pure functions, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from pdsmem.errors import PrivacyRefused

# (reason, pattern, needles). A detector can fire only where one of its needles occurs: in the
# text itself, or for a case-insensitive pattern (needles in lower case) in the ``_folded`` text.
# The needles let ordinary text skip every pattern at the cost of a few substring searches.
_DETECTORS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    (
        "looks like a private key",
        re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"),  # PEM, OpenSSH, PGP
        ("PRIVATE KEY",),
    ),
    ("looks like an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), ("AKIA", "ASIA")),
    (
        "looks like a GitHub token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b"),
        ("gh", "github_pat_"),
    ),
    ("looks like a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), ("xox",)),
    (
        "looks like an API secret key",
        re.compile(r"\b(?:sk|rk)-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}"),
        ("sk-", "rk-"),
    ),
    (
        "looks like a JSON Web Token",
        re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        ("eyJ",),
    ),
    ("looks like a bearer credential", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{16,}"), ("bearer",)),
    (
        "looks like a credential assignment",
        re.compile(  # also as the end of a name (DB_PASSWORD=, AWS_SECRET_ACCESS_KEY=) and quoted
            r"(?i)(?<![a-z0-9])(?:password|passwd|pwd|secret|token|"
            r"(?:api|access|secret|private)[_-]?key)[\"']?\s*[:=]\s*[\"']?[^\s\"']{4,}"
        ),
        ("passw", "pwd", "secret", "token", "key"),
    ),
    (
        "looks like a credential assignment",  # camelCase, PascalCase: accessToken=, ClientSecret:
        re.compile(
            r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:Password|Passwd|Pwd|Secret|Token|ApiKey|APIKey|AccessKey|"
            r"SecretKey|PrivateKey)[\"']?\s*[:=]\s*[\"']?[^\s\"']{4,}"
        ),
        ("Passw", "Pwd", "Secret", "Token", "Key"),
    ),
    (
        "looks like a URL with embedded credentials",
        re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@"),
        ("://",),
    ),
    (
        "looks like command output (a traceback)",
        re.compile(r"Traceback \(most recent call last\)"),
        ("Traceback (most recent call last)",),
    ),
    (
        "looks like command output (a shell prompt)",
        re.compile(r"(?m)^\s*(?:\$|[\w.-]+@[\w.-]+:[^\n$#]*[$#])\s+\S+.*\n\S"),
        ("\n",),
    ),
    (
        "looks like command output (an exit status)",
        re.compile(r"(?i)\b(?:exit (?:code|status)|exited with code)\s*:?\s*-?\d+"),
        ("exit",),
    ),
    (
        "looks like a local filesystem path",
        re.compile(
            r"(?:(?<![\w/.-])(?:/home|/Users|/root|/etc|/var|/tmp|/opt|/usr|/srv|/mnt|/private)/[\w.-]"
            r"|(?<![\w.-])~/[\w.-]"
            r"|\b[A-Za-z]:\\[\w .-]"
            r"|\bfile://)"
        ),
        ("/", "\\"),
    ),
)


def _folded(text: str) -> str:
    """``text`` in lower case, folded further so that an ASCII letter a case-insensitive pattern
    matches at some place is that very letter here: besides upper case, ``re`` equates 'ſ' with
    's', 'ı' and 'İ' (which lowers to 'i' and U+0307) with 'i', and 'K' (Kelvin) with 'k'."""
    low = text.lower()
    if low.isascii():
        return low
    return low.replace("\u017f", "s").replace("\u0131", "i").replace("\u0307", "")


# (reason, search, needles, whether the needles are looked for in the folded text)
_GATED = tuple(
    (reason, pattern.search, needles, bool(pattern.flags & re.IGNORECASE)) for reason, pattern, needles in _DETECTORS
)


# Every needle at once, as two alternations: one search of the text (case-sensitive needles) and
# one of the folded text (case-insensitive ones) tell that ordinary text holds none, so that no
# detector can fire, without a substring search per needle. Any needle found sends the text
# through the detectors one by one, as before.
_ANY_NEEDLE = re.compile("|".join(sorted({re.escape(n) for _, _, ns, f in _GATED if not f for n in ns}))).search
_ANY_FOLDED_NEEDLE = re.compile("|".join(sorted({re.escape(n) for _, _, ns, f in _GATED if f for n in ns}))).search


_is_normalized = unicodedata.is_normalized


def sensitive_reason(text: str) -> str | None:
    """The reason ``text`` must not be published, or None when no detector fires, on ``text`` or
    on its ``plain_form``."""
    reason = _needled_reason(text)
    # plain_form(text) can differ from text only when text holds a character that is not
    # printable (a control or format character, a line break, a tab, a space other than ' ') or
    # is not NFKC-normalized: two C-speed checks of the usual text, written inline.
    if reason is None and (not text.isprintable() or not (text.isascii() or _is_normalized("NFKC", text))):
        plain = plain_form(text)
        if plain != text:
            reason = _needled_reason(plain)
            if reason is not None:
                return f"{reason}, once its invisible, full-width or other compatibility characters are read plainly"
    return reason


def plain_form(text: str) -> str:
    """``text`` as a reader sees it: NFKC-normalized (full-width and other compatibility forms
    become their plain letters, digits and signs; a no-break space becomes a space), then without
    the characters that print nothing (zero-width spaces and joiners, the soft hyphen, bidi
    controls, the byte-order mark, control characters, unassigned and private-use code points).
    Whitespace stays: the patterns need it."""
    text = unicodedata.normalize("NFKC", text)
    if "".join(text.split()).isprintable():
        return text
    return "".join(char for char in text if char.isprintable() or char.isspace())


def _needled_reason(text: str) -> str | None:
    """``detector_reason`` of ``text``, skipped when the all-needles search finds no needle."""
    folded = None
    if _ANY_NEEDLE(text) is None:
        folded = _folded(text)
        if _ANY_FOLDED_NEEDLE(folded) is None:
            return None
    return detector_reason(text, folded)


def detector_reason(text: str, folded: str | None = None) -> str | None:
    """The first detector that fires on ``text`` itself (not its plain form), each tried only
    where its needle occurs. ``folded`` is ``_folded(text)`` when the caller has it already."""
    for reason, search, needles, in_folded in _GATED:
        if in_folded:
            if folded is None:
                folded = _folded(text)
            haystack = folded
        else:
            haystack = text
        for needle in needles:
            if needle in haystack:
                if search(text):
                    return reason
                break
    return None


def is_private(event: Mapping) -> bool:
    return event.get("privacyScope") == "private" or event.get("visibility") == "participant"


def check_publishable(
    event: Mapping,
    *,
    memory_id: str,
    publish_private: bool,
    texts: Mapping[str, str],
) -> None:
    """Raise ``PrivacyRefused`` if ``event`` may not be written to a public repository.

    ``texts`` maps a field name to each text that would be published (content, transcript).
    """
    if is_private(event) and not publish_private:
        which = (
            'privacyScope is "private"'
            if event.get("privacyScope") == "private"
            else 'visibility is "participant"'
        )
        raise PrivacyRefused(
            f"memory {memory_id} is private ({which}) and a PDS repository is public",
            hint="pass --publish-private to acknowledge that the target repository is public",
        )
    for field, text in texts.items():
        reason = sensitive_reason(text)
        if reason:
            raise PrivacyRefused(
                f"memory {memory_id}: its {field} {reason}",
                path=f"$.{field}",
                hint="remove it from the memory before exporting; no flag publishes secrets, "
                "command output or local paths",
            )
