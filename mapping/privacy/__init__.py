"""The privacy gate: what may be written to a public atproto repository.

A PDS repository is public and copied by relays, so export refuses (decision 1, docs/decisions.md):

- memories whose scope is private (``privacyScope: "private"`` or ``visibility: "participant"``)
  unless the operator acknowledges the repository is public (``publish_private=True``);
- content that looks like a secret or credential, structured personal data (a card, an IBAN, a
  social security number, 2FA codes, a recovery phrase), command output or a local filesystem
  path, whatever the flags: no acknowledgement publishes a secret.

The gate is layered; each layer is a module with its own tests and its own figures in
``scripts/bench_privacy.py`` (docs/reliability.md, "The privacy gate"):

========== ==================================================================================
layer      what it finds
========== ==================================================================================
rules      pdsmem's own rules: credentials in prose in fourteen languages, PINs and lock codes,
           credential assignments, the provider formats it has always known, tracebacks,
           shell sessions, paths under the usual prefixes
providers  the provider formats of a maintained scanner (``detect-secrets``), line by line
personal   validators: Luhn, mod-97, ABA, SSN rules, 2FA codes, TOTP seeds, BIP-39 word lists
labelled   a value a label calls a credential (``X_PASS=…``, ``key for X: V``, ``login u / p``)
output     command output with no prompt line, stack traces, Windows and ``$HOME`` paths
learned    asked last, of a text no rule refuses: a model's score of its words and its values'
           shapes, where it is a sentence holding a value a password could be (``learned``)
========== ==================================================================================

A text that could hide a secret from the layers (a zero-width space inside a key, a full-width
``ｐａｓｓｗｏｒｄ``) is checked a second time as a reader sees it (``plain.plain_form``). Every
refusal names the memory by its id and the layer's reason, never by its words: the words may be
the very secret. Pure functions: no I/O but reading the package's own data (word lists, the learned
layer's model).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Mapping

from pdsmem.errors import PrivacyRefused, SensitiveContent
from pdsmem.mapping.privacy import labelled, learned, output, personal, plain, providers, rules, told
from pdsmem.mapping.privacy.plain import first_hidden, may_hide, plain_form
from pdsmem.mapping.privacy.rules import (  # noqa: F401  (the rules' parts, for the tests that hold them)
    _CREDENTIAL_START,
    _DETECTORS,
    _GATED,
    _PIN_OR_CODE,
    _REQUIRED,
    NO_SPACE_SCRIPTS,
    WORD_END,
    WORD_START,
)
from pdsmem.mapping.privacy.plain import _INVISIBLE, _PRINTABLE_INVISIBLE  # noqa: F401

# The rule layers, in the order they are asked: the cheap needle-gated rules first.
RULE_LAYERS: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    ("rules", rules.reason),
    ("personal", personal.reason),
    ("labelled", labelled.reason),
    ("output", output.reason),
    ("providers", providers.reason),
)
# and the learned layer, asked last, once, of a text no rule refuses (``learned``)
LAYERS = RULE_LAYERS + (("learned", learned.reason),)


def detector_reason(text: str) -> str | None:
    """The first rule layer's reason that ``text`` as written (not its plain form) must not be
    published, or None."""
    for _, layer in RULE_LAYERS:
        reason = layer(text)
        if reason is not None:
            return reason
    return None


# What the repository names itself by, public wherever its records are: a DID (did:plc's 24 base32
# letters, did:web's host) and an at-uri. Their random letters looked like a TOTP seed or a
# password to the layers: about one DID in 300 ("did:plc:…72fajtzo" holds "2fa"), which kept a
# person whose DID it was from exporting any memory that names a record (docs/reliability.md).
_PUBLIC_NAMES = plain.lazy(
    r"(?<![\w:/.-])(?:at://)?did:(?:plc:[a-z2-7]{24}|web:[A-Za-z0-9.%-]+(?::[A-Za-z0-9.%-]+)*)"
    r"(?:/[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~:-]{1,512})?)?(?![\w:.-])"
    r"|(?<![\w:/.-])at://[A-Za-z0-9.-]+(?:/[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~:-]{1,512})?)?(?![\w:.-])")

# Documentation's stand-in for a key: a provider's prefix and a body of x's ("sk-proj-xxxxxxxx…",
# "AKIAXXXXXXXXXXXXXXXX", "SG.xxxx….xxxx") or of words saying what goes there ("xoxb-your-token").
# No key's body is that (a key's body is random); read as a plain word before the layers, as a DID is.
# And the keys Stripe's documentation shows in every example, public since.
_STAND_IN_KEYS = plain.lazy(
    r"(?<![\w.-])(?:(?:[A-Za-z0-9]{1,12}[_.-]){0,3}[A-Za-z0-9]{0,6}?[xX]{8,}(?:[_.-][xX]{4,})*"
    r"|(?:[A-Za-z0-9]{1,12}[_.-]){1,3}(?:your|my)[_-][A-Za-z]{2,20}(?:[_-][A-Za-z]{2,20}){0,3}"
    r"|sk_test_4eC39HqLyjWDarjtT1zdp7dc|pk_test_TYooMQauvdEDq54NiTphI7jx)(?![\w-])(?!\.\w)")
_MAY_STAND_IN_AT = plain.lazy(r"[xX]{8}|[_.-](?:your|my)[_-]|_test_(?:4eC39|TYooMQ)").search


def _may_stand_in(text: str) -> bool:
    """Whether ``text`` may hold a stand-in (``_STAND_IN_KEYS``): substrings first, at C speed (the
    pattern alone, tried at every position, cost about 2.5 µs a text; these, 0.7)."""
    return (("xxxx" in text or "XX" in text or "xX" in text or "Xx" in text or "your" in text or "my_" in text
             or "my-" in text or "_test_" in text) and _MAY_STAND_IN_AT(text) is not None)


def sensitive_reason(text: str) -> str | None:
    """The reason ``text`` must not be published, or None when no layer fires, on ``text`` or on
    its ``plain_form``; DIDs and at-uris are read as the public names they are. A short text is
    looked up among the last ones checked first: a memory's kind, provenance and session ids
    repeat from one memory to the next. A stand-in for a key (``_STAND_IN_KEYS``) and a lesson's
    example password (``labelled.examples_masked``) are read as what they are."""
    text = _as_read(text)
    if len(text) <= _REMEMBERED_LENGTH:
        return _remembered_reason(text)
    return _sensitive_reason(text)


_REMEMBERED_LENGTH = 200


def names_a_credential(text: str) -> bool:
    """Whether ``text`` names a password, a key, a token or a PIN, in the words the gate reads them
    by: a field's name worth reading with its value ({"wifi password": "…"})."""
    return labelled._ON_A_PASSWORD_LINE(text) or labelled._ON_A_KEY_LINE(text) or labelled._ON_A_PIN_LINE(text)


def sensitive_reason_once(text: str) -> str | None:
    """``sensitive_reason`` of a text checked once, in bulk (each field of each record an import
    reads): not kept among the last ones checked, whose memory would grow with the records."""
    return _sensitive_reason(_as_read(text))


def _as_read(text: str) -> str:
    """``text`` with what is public or no secret by its form read as a plain word: DIDs and
    at-uris, documentation's stand-ins for keys, a lesson's example passwords."""
    if "did:" in text or "at://" in text:
        text = _PUBLIC_NAMES.sub("did", text)
    if _may_stand_in(text):
        text = _STAND_IN_KEYS.sub("placeholder", text)
    return labelled.examples_masked(text)


@functools.lru_cache(maxsize=8192)
def _remembered_reason(text: str) -> str | None:
    return _sensitive_reason(text)


def _sensitive_reason(text: str) -> str | None:
    return _rules_reason(text) or learned.reason(text)


def _rules_reason(text: str) -> str | None:
    """The rule layers' reason, on ``text`` and on the forms a secret may hide in."""
    reason = detector_reason(text)
    if reason is None and may_hide(text):
        as_seen = plain_form(text)
        if as_seen != text:
            reason = detector_reason(as_seen)
            if reason is not None and unicodedata.normalize("NFC", text) == as_seen:
                return f"{reason} once its accents are read with their letters (combining marks, as NFC joins them)"
            if reason is not None:
                return f"{reason} once its invisible characters are dropped and its full-width or other " \
                       f"compatibility forms read as plain text{first_hidden(text)}"
    if reason is None and not text.isascii() and (read := plain.ascii_digits(text)) != text:
        # a number in the digits of its script (read once, written 0 to 9): a PIN, and a card, an IBAN or
        # an account ("شماره کارت ۶۰۳۷ ۹۹۶۱ …"), which the checks that hold a number to its check digits
        # (Luhn, mod-97) read as they read 0 to 9
        if labelled.pin_in_other_digits(text, read):
            return "looks like a PIN or a lock's code (in the digits of its script: ٣, ३, ๓…)"
        if (reason := personal.check_digits_reason(read)) is not None:
            return f"{reason} (in the digits of its script: ٣, ३, ๓…)"
        if told.digits_apart_in_its_script(read):  # a code told a digit at a time: "ताल्चा कोड ४ ० ६ ६"
            return "looks like a code told a digit at a time (in the digits of its script: ٣, ३, ๓…)"
    if reason is None and "\n" in text:
        joined = _labels_joined(text)
        if joined != text and (reason := detector_reason(joined)) is not None:
            return f"{reason}, its name on one line and the value on the next"
    if reason is None and _ONE_NAME.fullmatch(text) is not None and _A_VALUE_AFTER_ITS_NAME.search(text):
        read = _NAMES_PARTS.sub(" ", text)
        if (reason := detector_reason(read)) is not None:
            return f"{reason}, once the parts of a name are read as words (its dots, dashes and underscores)"
    if reason is None and "(" in text:
        read = _ASIDE.sub("", text)
        if read != text and (reason := detector_reason(read)) is not None:
            return f"{reason}, once what is said in brackets between is left out"
    return reason


# One name with no space, of parts joined by dots, dashes, underscores, colons or slashes, as a
# memory's kind or subject key is ("wifi-pw-sunflower1962", "eth.wallet.privkey.e179…"): the layers
# read words, and a name's parts are its words. (Not an address: "https://…" keeps its own form.)
_ONE_NAME = plain.lazy(r"(?!\S*+://)[^\W_]++(?:[._:/-]++[^\W_]++){2,}+")
_NAMES_PARTS = plain.lazy(r"[._:/-]++")
# and only where a part names a credential and the next is a value (letters and digits, a long run of
# hex or base64, or a PIN's digits): "wifi-pw-sunflower1962", "eth.wallet.privkey.e179…",
# "session-PIN-6124" (not "wifi-password-on-fridge", "user.alice.smith1990", "pin-code-reminder-0930")
_A_VALUE_AFTER_ITS_NAME = plain.lazy(
    r"(?i)(?<![^\W\d_])(?:pw|pwd|pass|passwd|password|passwort|passcode|pin|privkey|priv|private-?key|secret|token|apikey"
    r"|api-?key|key|mdp|senha|clave|contraseña|hasło|haslo|şifre|sifre|parola|wachtwoord|lösenord)[._:/-]++"
    r"(?=[^\W_]*[0-9])(?=[^\W_]*[^\W\d_])[^\W_]{6,}(?:[._:/-]|$)|(?<![^\W\d_])(?:pw|pwd|pass|password|pin|privkey|priv|secret"
    r"|token|key|apikey)[._:/-]++(?:0x)?[A-Za-z0-9+/=]{32,}"
    # or a PIN's digits after its name: "session-PIN-6124"
    r"|(?<![^\W\d_])(?:pin|passcode|pincode)[._:/-]++[0-9]{4,8}(?:[._:/-]|$)")


# An aside in brackets, as a note puts one between a code's name and the code's digits ("Kassen-PIN
# für den Chef-Modus (Storno, Tagesabschluss): 1958"), or a passphrase's name and its words joined
# ("Bitwarden master phrase (she asked me to keep a copy …): oxbow-lantern-quietly-Tbilisi-88"), where the
# layers read a value beside its name. (Before digits, or words joined by dashes with a number: a word's
# meaning told in brackets, "Parol (Christmas lantern): capiz-shell-3", stays what it is.)
_WORDS_DASHED_AND_A_NUMBER = r"[^\W\d_]{3,}(?:-[^\W\d_]{3,}){3,}-[0-9]{1,4}(?![\w-])"
_ASIDE = plain.lazy(r"[^\S\n]++\([^()\n]{1,60}\)(?=[^\S\n]*+[:：=][^\S\n]*+(?:[0-9]|" + _WORDS_DASHED_AND_A_NUMBER + "))"
                    r"|(?<=phrase)[^\S\n]++\([^()\n]{1,90}\)(?=[^\S\n]*+[:：=][^\S\n]*+" + _WORDS_DASHED_AND_A_NUMBER + ")")


# A line that is a secret's name alone ("PIN", "WLAN-Passwort", "Code du portail"), then a line that
# is one value: the name is up to four words of letters and digits from the line's start, one of them
# a word for a password, a PIN or a code (a config's or a list's line has "_", "=", ":", "- " or an
# indent; a heading, "Garage", "Alarm", "Kluis", is no such name). A note often puts the value on the
# next line, where the layers, which read a value beside its name, did not see it
# (docs/reliability.md, "A name on its own line").
_NAME_THEN_A_VALUE = plain.lazy(r"(?m)^([^\W_][^\n]{0,39})\n(?=[^\S\n]*+[^\s]++[^\S\n]*+(?:\n|$))")
_A_SECRETS_NAME = plain.lazy(
    r"(?i)(?<![^\W\d_])(?:pin\w{0,4}|pass\w*|code\w{0,2}|kod\w{0,3}|kód\w{0,3}|c[óo]digo|codice|koodi\w*|kode\w*|код\w*"
    r"|пин\w*|combination|combo)(?![^\W\d_])|" + labelled._PASSWORD_LINE.pattern.removeprefix("(?i)"))


def _labels_joined(text: str) -> str:
    """``text`` with each line that is a secret's name alone joined to the next, one value, as
    ``name: value``."""
    def joined(line: re.Match) -> str:
        name = line.group(1).rstrip()
        if (len(name.split()) > 4 or not all(c.isalnum() or c in " -'’" for c in name)
                or not _A_SECRETS_NAME.search(name)):
            return line.group(0)
        return f"{name}: "
    return _NAME_THEN_A_VALUE.sub(joined, text)


def layer_reasons(text: str) -> dict[str, str | None]:
    """What each layer alone says of ``text`` (and of its plain form): for the benchmark's
    figures per layer), read as ``sensitive_reason`` reads it."""
    text = _as_read(text)
    forms = (text, plain_form(text)) if may_hide(text) else (text,)
    found: dict[str, str | None] = {}
    for name, layer in RULE_LAYERS:
        found[name] = next((reason for form in forms if (reason := layer(form)) is not None), None)
    found["learned"] = learned.reason(text)
    return found


def is_private(event: Mapping) -> bool:
    return event.get("privacyScope") == "private" or event.get("visibility") == "participant"


def repeats_its_turn(event: Mapping) -> bool:
    """Whether an episode's summary is its raw turn rather than a summary of it: Hermes writes
    ``User: …\nAssistant: …``, and a summary may also copy either side of the turn whole."""
    summary = event.get("summary")
    if event.get("eventType") != "episode" or not isinstance(summary, str):
        return False
    if summary.lstrip().startswith("User:") and "\nAssistant:" in summary:
        return True
    for side in ("userText", "assistantText"):
        said = event.get(side)
        if isinstance(said, str) and len(said.strip()) >= 24 and said.strip()[:400] in summary:
            return True
    return False


def check_publishable(
    event: Mapping,
    *,
    memory_id: str,
    publish_private: bool,
    texts: Mapping[str, str],
    include_transcript: bool = False,
) -> None:
    """Raise ``PrivacyRefused`` if ``event`` may not be written to a public repository.

    ``texts`` maps a field name to each text that would be published (content, transcript). An
    episode whose summary repeats its turn is a transcript, published only with
    ``include_transcript``. The error names the memory by ``memory_id`` and the field, never by
    its words.
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
    if not include_transcript and repeats_its_turn(event):
        raise PrivacyRefused(
            f"memory {memory_id}: its summary repeats its turn, a raw transcript", path="$.summary",
            hint="pass --include-transcript to publish transcripts (a secret in one is still refused), or give the "
                 "episode a summary of its own",
        )
    for field, text in texts.items():
        reason = sensitive_reason(text)
        if reason:
            raise SensitiveContent(
                f"memory {memory_id}: its {field} {reason}",
                path=f"$.{field}",
                hint="remove it from the memory where it is kept (its file, or its row in RushDB) before exporting, "
                "or pass --allow-refused to export the rest and note it; no flag publishes secrets, "
                "personal numbers, command output or local paths",
            )
