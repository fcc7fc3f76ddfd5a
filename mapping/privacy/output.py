"""The gate's layer for command output and local paths that pdsmem's first rules do not know:
output with no prompt line (``curl -v``, HTTP headers carrying cookies or credentials, ``env``
listings), stack traces of Java, Node, Go, .NET and Ruby, and local paths written the Windows way
(``\\\\server\\share``, ``C:/Users/…``, ``%USERPROFILE%``) or through the home directory
(``$HOME/``). A sentence about an exit code is no output: "the job exited with code 137" is what a
coding agent remembers. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from pdsmem.mapping.privacy.plain import Needles, lazy

# A template of an environment file, named as one, whose credentials are all left blank: what a
# project ships for others to fill in (".env.example": "DB_PASSWORD=" and "DB_HOST=localhost")
_A_TEMPLATES_NAME = lazy(r"(?i)\.env\.(?:example|sample|template|dist|defaults)|env\.(?:example|sample|template)")
_A_CREDENTIAL_SET = lazy(r"(?m)^[A-Z0-9_]*(?:PASS|PWD|TOKEN|SECRET|KEY|AUTH|CRED|SALT|HMAC|SIGN|PRIVATE|CERT|JWT|SESSION"
                         r"|COOKIE|DSN|WEBHOOK|URL|URI)[A-Z0-9_]*=[^\S\n]*[^\s#]")


_ENVIRONMENT_LISTING = lazy(r"(?m)(?:^[A-Z][A-Z0-9_]{1,40}=[^\n]*\n){3}")


def _environment_listing(text: str) -> bool:
    """Three lines or more of ``NAME=value``, not a template left blank."""
    if _ENVIRONMENT_LISTING.search(text) is None:
        return False
    return _A_TEMPLATES_NAME.search(text) is None or _A_CREDENTIAL_SET.search(text) is not None


# (reason, pattern or check, needles in lower case)
_CHECKS = (
    ("looks like command output (HTTP headers with credentials)", lazy(
        r"(?im)^[^\S\n]*+[<>]?[^\S\n]*+(?:(?:cookie|set-cookie)[^\S\n]*+:[^\S\n]*+[^\s=;]{1,64}=\S{4,}"  # a name=value
        r"|(?:authorization|proxy-authorization)[^\S\n]*+:[^\S\n]*+(?:\w++[^\S\n]++)?"
        r"(?:(?=[A-Za-z0-9._~+/=-]{0,200}?[0-9])[A-Za-z0-9._~+/=-]{12,}|[A-Za-z0-9._~+/=-]{20,})"  # a token, not words
        r"|(?:x-api-key|x-auth-token|x-csrf-token|x-amz-security-token)[^\S\n]*+:[^\S\n]*+\S{6,})"), ("cookie", "authorization", "-key", "-token")),
    ("looks like command output (a verbose HTTP exchange)", lazy(
        r"(?m)^[*<>] (?:Connected to|Trying |TLSv|SSL|HTTP/[0-9.]+ [0-9]{3}|GET |POST |PUT |DELETE |Host: )"),
        ("* ", "> ", "< ")),
    ("looks like command output (an environment listing)", _environment_listing, ("=",)),
    ("looks like command output (a stack trace)", lazy(
        r"(?m)^[^\S\n]+at [\w$.<>]+\([\w$.-]+\.(?:java|kt|scala|groovy):[0-9]+\)"  # Java and the JVM
        r"|^[^\S\n]+at (?:async )?[^\n()]{0,200}\((?:[^\n()]+):[0-9]+:[0-9]+\)"  # Node
        r"|^[^\S\n]+at [^\s()]+:[0-9]+:[0-9]+$"  # Node, an anonymous function
        r"|^goroutine [0-9]+ \[[a-z ]+\]:|^panic: "  # Go
        r"|^[^\S\n]+at [\w.<>`]+\([^\n)]*\) in [^\n]+:line [0-9]+"  # .NET
        r"|^[^\S\n]*+from [^\s:]+\.rb:[0-9]+:in "  # Ruby
        r"|Exception in thread \"[^\"\n]+\" [\w.$]+"),
        ("at ", "goroutine", "panic", "from ", "exception in thread")),
    ("looks like command output (id)", lazy(r"uid=[0-9]+\([^)\s]{1,40}\)\s++gid=[0-9]+\("), ("uid=",)),
    ("looks like a local filesystem path", lazy(
        r"(?i)(?<![\w\\])\\\\[\w.$-]+\\[\w.$ -]+"  # a UNC path
        r"|(?<![\w/])[a-z]:/(?:users|documents and settings|windows|program files|projects|dev|code|src|home|work)\b"
        r"|%(?:userprofile|appdata|localappdata|homepath|homedrive|temp|tmp|programdata)%"
        r"|(?<![\w$])\$\{?home\}?/[\w.-]|(?<![\w/.-])/(?:volumes|media)/[\w.-]+/"),
        ("\\\\", ":/", "%", "$", "/")),
)

_NEEDLED = tuple((why, check if callable(check) else check.search, Needles(needles).any) for why, check, needles in _CHECKS)


def reason(text: str) -> str | None:
    """The first of these checks that fires on ``text``, or None; each runs only where one of its
    needles (in lower case) is."""
    low = text.lower()
    for why, check, any_needle in _NEEDLED:
        if any_needle(low) and check(text):
            return why
    return None
