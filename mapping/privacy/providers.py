"""The gate's provider-format layer: the rules of a maintained secret scanner, Yelp's
``detect-secrets``, asked line by line.

``detect-secrets`` keeps one plugin per provider format (Stripe, GitLab, Slack webhooks,
SendGrid, PyPI, npm, Discord, Twilio, Azure storage keys, private keys…), updated as providers
change their formats. The gate asks each plugin's own patterns (``analyze_string``) about each
line of a text, so that pdsmem does not keep a copy of those lists by hand; pdsmem's own rules
(``rules``) and validators (``personal``) stand beside it, and ``scripts/bench_privacy.py``
measures that the union catches what each catches.

Left out, on purpose (docs/reliability.md, "The privacy gate"): the two high-entropy plugins,
which take every git commit, digest and UUID an agent remembers for a secret (pdsmem's own
``labelled`` layer asks for a label and a shape instead), the keyword plugin, which is written
for source files and takes code notes (``password = getpass.getpass()``) for secrets, and the
public IP plugin, since an address is no credential; and the IBM Cloud IAM plugin, whose
pattern makes every word's prefix optional and backtracks through runs of blanks (130 ms for a
2,000-character text of "password" and spaces: the ``labelled`` layer finds a key's value after
its name instead); and the JSON Web Token plugin, whose pattern scans a run of ``eyJ-eyJ-…`` to its
end from each ``eyJ`` (0.4 s for 40,000 characters): pdsmem's own rule finds tokens of that format
without going back.

Tricky bits:
- ``detect-secrets`` and what it imports cost a fifth of a second: it is imported the first time
  a text is checked, never when pdsmem starts.
- A plugin's pattern may need the line's start or end (``(?:\\s|"|^)AKC…``): a line is given as
  it is, without its line break.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pdsmem.mapping.privacy.plain import der_inside, lazy
from pdsmem.mapping.privacy.rules import keys_elided

# detect-secrets' plugins left out (their secret types), and why: see the module's docstring.
LEFT_OUT = frozenset({
    "Base64 High Entropy String", "Hex High Entropy String", "Secret Keyword", "Public IP (ipv4)",
    "IBM Cloud IAM Key", "JSON Web Token",
})


@cache
def plugins() -> tuple[Any, ...]:
    """An instance of every ``detect-secrets`` plugin the gate asks, in the scanner's order."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return tuple(
        plugin() for secret_type, plugin in get_mapping_from_secret_type_to_class().items()
        if secret_type not in LEFT_OUT
    )


# pdsmem's own provider formats, for what detect-secrets 1.5.0 lacks or writes too narrowly: a
# prefix the provider documents, then the token's characters (docs/reliability.md lists them).
OWN = lazy(
    r"(?<![A-Za-z0-9_-])(?:"
    r"(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{24,}"  # Stripe
    r"|npm_[0-9A-Za-z]{36}"  # npm
    r"|AIza[0-9A-Za-z_-]{35}|GOCSPX-[0-9A-Za-z_-]{20,}|ya29\.[0-9A-Za-z_-]{20,}"  # Google
    r"|dop_v1_[0-9a-f]{64}|hf_[0-9A-Za-z]{30,}|dp\.(?:st|ct|sa|pt|scim|audit)\.[0-9A-Za-z_.-]{20,}|PMAK-[0-9a-f]{24}-[0-9a-f]{34}"
    r"|hvs\.[0-9A-Za-z_-]{20,}|shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32}|secret_[0-9A-Za-z]{43}|ntn_[0-9A-Za-z]{40,}"
    r"|lin_api_[0-9A-Za-z]{40}|sq0(?:atp|csp|idp)-[0-9A-Za-z_-]{22,}|key-[0-9a-f]{32}|glpat-[0-9A-Za-z_-]{20}"
    r"|sk-ant-(?:api|admin)[0-9]{2}-[0-9A-Za-z_-]{20,}|xapp-[0-9]-[0-9A-Za-z-]{20,}|dapi[0-9a-f]{32}"
    r"|gsk_[0-9A-Za-z]{48,}|ATATT3[0-9A-Za-z_=-]{100,}|sk\.eyJ[0-9A-Za-z_-]{20,}\.[0-9A-Za-z_-]{10,}"
    r"|dckr_pat_[0-9A-Za-z_-]{20,}|[0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z_-]{60,}|pat[0-9A-Za-z]{14}\.[0-9a-f]{64}"
    r"|SK[0-9a-f]{32}|AC[0-9a-f]{32}"  # Twilio
    r"|NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_-]{32}"  # New Relic
    r"|AGE-SECRET-KEY-1[0-9A-Z]{58}"  # an age private key
    r"|nsec1[02-9ac-hj-np-z]{58}|NSEC1[02-9AC-HJ-NP-Z]{58}"  # a Nostr private key (NIP-19: bech32, in one case; its public twin is "npub1…")
    r"|sbp_[0-9a-f]{40}|pypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{20,}"  # Supabase; PyPI (its macaroon's fixed start, any length)
    r"|glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}"  # Grafana Cloud, a Grafana service account
    r"|figd_[0-9A-Za-z_-]{38,}"  # a Figma personal access token
    r"|live_(?=[a-z0-9]*+[A-Z])(?=[A-Za-z]*+[0-9])[0-9A-Za-z]{30}"  # a Mollie live API key (not its test keys: a test's name)
    r"|live_[0-9]{6,12}_[0-9A-Za-z]{30}"  # a Twitch stream key: the channel's id, then 30 letters and digits
    # a live-mode key of any provider that copies Stripe's form, a short prefix then "_live_" ("gb_live_" and 32
    # hex digits, Paystack's "sk_live_"): 24 characters or more, four digits among them (not a name in code,
    # "test_live_StreamReconnectsAfter30SecondsTimeout", nor a checkout session's id in its link's path)
    r"|(?<!/)[a-z]{2,4}_live_(?=(?:[A-Za-z]*+[0-9]){4})[0-9A-Za-z]{24,}"
    r"|access-(?:production|development|sandbox)-(?!0{8}-)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # Plaid
    r"|[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}"  # a Microsoft Entra (Azure AD) client secret
    r"|[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}"  # a Discord bot token
    # a SendGrid key a character or two off its length (detect-secrets takes only 22 and 43), as one
    # copied by hand: "sendgrid key SG.xY7kP2mQ9rT4vB1nC6dF8g.h3Jk…" (42; the plugin names one of its length)
    r"|SG\.(?![0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}(?![0-9A-Za-z_-]))[0-9A-Za-z_-]{20,24}\.[0-9A-Za-z_-]{40,46}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx"  # a DeepL API Free key (a UUID and ":fx")
    r")(?![A-Za-z0-9_-])"
    r"|https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,68}"
    # a Weights & Biases key given to its login, on the same line (a commit's id on the next is no key)
    r"|(?<![\w-])wandb[^\S\n]++login[^\S\n]++(?:--?[a-z-]+(?:=[^\s=]+)?[^\S\n]++)*[0-9a-f]{40}(?![0-9A-Za-z])"
    r"|https://[a-z0-9-]+\.(?:blob|file|queue|table|dfs)\.core\.windows\.net/[^\s\"']*[?&]sig=[A-Za-z0-9%+/=]{10,}"
    r"|(?<![\w-])sv=[0-9]{4}-[0-9]{2}-[0-9]{2}&[^\s\"']*?sig=[A-Za-z0-9%+/=]{10,}"  # a SAS token without its URL
    r"|(?i:accountkey|account-key|sharedaccesskey)[=\s\"']+[A-Za-z0-9+/]{30,}={0,3}"
    # a web session's cookie: "JSESSIONID=014D3E42…", "PHPSESSID=…", "connect.sid=s%3A…"
    r"|(?i:jsessionid|phpsessid|asp\.net_sessionid|connect\.sid|laravel_session|sessionid|session_id)=[A-Za-z0-9%._-]{16,}"
    r"|(?<![A-Za-z0-9+/])(?<!sha512-)[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])"  # an Azure storage key; not a SHA-512 digest
    r"|(?<![A-Za-z0-9_/-])1//0[0-9A-Za-z_-]{30,}(?![A-Za-z0-9_-])"  # a Google OAuth refresh token
    # an OpenSSH private key's body without its BEGIN line (the others, by their structure: ``_private_key_body``)
    r"|(?<![A-Za-z0-9+/])b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/]{20,}"
)


# What a line needs for any plugin's pattern (detect-secrets 1.5.0) to match: a token (a run of
# letters, digits and "_+/=-") of 20 characters, which every key's body is; or what the few
# shorter patterns start with (Artifactory's "AKC" and "AP", a JWT's "eyJ", Slack's "xox", "aws",
# npm's "_authToken", "://", a PEM header), and so is every format of pdsmem's own (``OWN``; a
# Doppler token's "dp."). Most lines of prose have none, and are not asked the plugins' one
# alternation (20 µs a text); tests/test_privacy_layers.py holds this to every plugin.
_WORTH_ASKING_PATTERN = lazy(
    r"[\w+/=-]{20}|://|PRIVATE|PuTTY|eyJ|AKC[a-zA-Z0-9]{10}|AP[\dA-F][a-zA-Z0-9]{8}|[xX][oO][xX]|[aA][wW][sS]"
    r"|_[aA][uU][tT][hH][tT][oO][kK][eE][nN]|dp\.|[0-9]Q~").search
_A_TOKEN_OF_20 = lazy(r"(?<![\w+/=-])[\w+/=-]{20}").search  # (from a token's start: not tried 20 times a token)
_A_SHORT_FORMAT = lazy(r"AKC[a-zA-Z0-9]{10}|AP[\dA-F][a-zA-Z0-9]{8}|[0-9]Q~").search


def _WORTH_ASKING(line: str) -> bool:
    """``_WORTH_ASKING_PATTERN``'s answer, its literals asked first as substrings (at C speed; the
    pattern, tried at every place of a line, cost 4 µs a text): a superset at most (a letter that
    lowers to one of theirs), which only asks the plugins of a line more."""
    low = line.lower()
    return ("://" in line or "PRIVATE" in line or "PuTTY" in line or "eyJ" in line or "xox" in low or "aws" in low
            or "_authtoken" in low or "dp." in line or ("AKC" in line or "AP" in line or "Q~" in line)
            and _A_SHORT_FORMAT(line) is not None or _A_TOKEN_OF_20(line) is not None)


def _whole(found: object, line: str) -> bool:
    """Whether a plugin's finding is a whole token of ``line``: its patterns have no word
    boundaries, and took the Finnish word ASIAKASPALVELUNUMERO for an AWS key (``ASIA…``)."""
    if not isinstance(found, str) or not found.strip():
        return True
    found = found.strip().strip("\"'=:")
    at = line.find(found)
    if at < 0:
        return True
    before = line[at - 1] if at else " "
    after = line[at + len(found)] if at + len(found) < len(line) else " "
    return not (before.isalnum() or after.isalnum())


def _token_at(found: str, line: str) -> str:
    """The whole token a plugin's finding starts: a plugin may give only a format's prefix (the
    GitHub plugin gives "ghp" of "ghp_xxxx…", documentation's stand-in)."""
    found = found.strip().strip("\"'=:")
    at = line.find(found)
    if at < 0 or not found:
        return found
    token = re.match(r"[\w-]*", line[at:])
    return token[0] if token and len(token[0]) > len(found) else found


# what documentation writes where a secret goes: "postgres://USER:PASSWORD@HOST", "<password>",
# "ACxxxxxxxx…", AWS's "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
_PLACEHOLDER = lazy(r"(?i)password|pass|pwd|secret|change[_-]?me|replace[_-]?me|your[_-](?:[a-z]+[_-])*[a-z]+"
                    r"|(?:[a-z0-9]+_)*x{3,}|[A-Za-z0-9]{1,4}[_-]?x{8,}|AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI|\*{3,}|<[^>]*>|\{[a-z_]+\}|\$\{?\w+\}?|[a-z_]*(?:password|pass|secret|token)")
_BACKREFERENCE = lazy(r"\\[1-9]|\(\?P=")
_XED_OUT = lazy(r"(?i)[_-]x{8,}$")


@cache
def _prefilter() -> tuple[Any, tuple[Any, ...]]:
    """One search for a line no plugin's pattern matches, and the plugins it cannot speak for.

    A plugin finds a secret only where one of its ``denylist`` patterns matches, so one
    alternation of every such pattern, each with its own flags, matches a line exactly when some
    plugin's pattern does: a line it finds nothing in needs no plugin (a C-speed search instead of
    a Python loop over the plugins). A plugin without a denylist, or with a pattern an alternation
    cannot hold as written (verbose, back-references), is always asked."""
    parts, always = [], []
    for plugin in plugins():
        patterns = list(getattr(plugin, "denylist", None) or ())
        if not patterns or any(p.flags & re.VERBOSE or _BACKREFERENCE.search(p.pattern) for p in patterns):
            always.append(plugin)
            continue
        for pattern in patterns:
            flags = "".join(letter for flag, letter in ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"))
                            if pattern.flags & flag)
            parts.append(f"(?{flags}:{pattern.pattern})" if flags else f"(?:{pattern.pattern})")
    return re.compile("|".join(parts)).search, tuple(always)


# a DER structure's body in base64, as a PEM file holds it: it starts with a SEQUENCE ("M…")
_DER_BODY = lazy(r"(?:(?<![A-Za-z0-9+/])|(?<=\\n))M[A-Za-z0-9+/]{23,}")  # (a line of a wrapped body; after "\n" in JSON)
# what follows a private key's outer SEQUENCE: a version number, then what that version holds (0:
# PKCS #1's modulus or DSA's p, an INTEGER, or PKCS #8's algorithm, a SEQUENCE; 1: SEC 1's elliptic
# curve key, an OCTET STRING; 3: PKCS #12's store, a SEQUENCE), or an encryption's algorithm (PKCS #8
# encrypted: PBES2, or one of PKCS #12's PBE schemes); a public key's, a certificate's or a
# request's body has a SEQUENCE or a modulus there
_PRIVATE_STARTS = (b"\x02\x01\x00\x02", b"\x02\x01\x00\x30", b"\x02\x01\x01\x04", b"\x02\x01\x03\x30")
_ENCRYPTED_OIDS = (b"\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x05", b"\x06\x0a\x2a\x86\x48\x86\xf7\x0d\x01\x0c\x01")


def _private_key_body(text: str) -> bool:
    """Whether ``text`` holds a private key's body without its BEGIN line, in any form a key is
    kept in (RSA, DSA, elliptic curves of every curve, Ed25519, X25519, Ed448; PKCS #1, SEC 1,
    PKCS #8 plain or encrypted, PKCS #12), told by its DER structure rather than a list of starts."""
    for match in _DER_BODY.finditer(text):
        inner = der_inside(match[0])
        if inner is None:
            continue
        if inner.startswith(_PRIVATE_STARTS):
            return True
        if inner[:1] == b"\x30" and len(inner) > 2:  # a SEQUENCE: an encryption's algorithm, or a public key's
            algorithm = inner[2 + (inner[1] - 0x80 if inner[1] > 0x80 else 0):]
            if algorithm.startswith(_ENCRYPTED_OIDS):
                return True
    return False


def _named(secret_type: str, found: str) -> str:
    """What a plugin found, as the person knows it: the Slack plugin's "Slack Token" is also its
    name for a webhook's URL."""
    return "Slack webhook" if secret_type == "Slack Token" and "hooks.slack.com" in found else secret_type


def reason(text: str) -> str | None:
    """``looks like a secret (Stripe Access Key, a provider's format)`` when a plugin finds one,
    as a whole token, on a line of ``text``; else None."""
    # a line with no token a format could match is not asked (``_WORTH_ASKING``), nor can it make
    # a plugin's pattern backtrack over a row of slashes
    lines = [line for line in dict.fromkeys(text.splitlines() or [text]) if _WORTH_ASKING(line)]
    if not lines:
        return None
    if any(not _XED_OUT.search(match[0]) for match in OWN.finditer(text)):
        return "looks like a secret (a provider's token format)"  # not "sk_live_xxxxxxxx…", a doc's stand-in
    if _private_key_body(text):
        return "looks like a secret (a private key's body, without its BEGIN line)"
    any_pattern, always = _prefilter()
    for line in lines:
        for plugin in plugins() if any_pattern(line) else always:
            for found in plugin.analyze_string(line):
                if plugin.secret_type == "Private Key" and keys_elided(text):
                    continue  # a header around "..." or "(omitted)": no key
                if _whole(found, line) and not _PLACEHOLDER.fullmatch(_token_at(str(found), line)):
                    return f"looks like a secret ({_named(plugin.secret_type, str(found))}, a provider's format)"
    return None
