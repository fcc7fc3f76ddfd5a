"""Value checkers for lexicon validation: the run-time half of ``pdsmem.mapping.lexicon``.

Scope: small factories that take constraints already read from a checked lexicon document and
return a ``Check``, a function from a value (atproto JSON form) to ``None`` when it is valid or to
the list of ``Problem``s found. Checkers never change the value. ``pdsmem.mapping.lexicon``
reads the documents and assembles these; use its ``LexiconSet``, not this module, to validate.

Tricky bits:
- Paths are built only when something fails: a ``Problem`` collects its path segments
  innermost first on the way out, so valid data pays nothing for them.
- Byte and grapheme limits use graphemes <= code points <= UTF-8 bytes <= 4 * code points to
  decide most strings without encoding them or segmenting them into grapheme clusters.
- ``integer`` refuses every Python float, ``1.0`` included. Undeclared data follows
  ``datamodel.json_to_ipld`` instead, where a JSON ``1.0`` is the integer 1.
- A string checker without format, enum or const carries ``plain_bounds``: the lengths within
  which an ASCII ``str`` passes. ``object_check`` settles such properties inline, without the call.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from typing import Any, Callable, Iterable

from pdsmem.errors import DataModelError, InvalidSyntax, RecordInvalid, kind_of
from pdsmem.mapping.datamodel import SAFE_INTEGER, json_to_ipld, unsafe_integer
from pdsmem.mapping.syntax import FORMAT_PARSERS


class Problem:
    """One failure; ``segments`` is its path inside the value, innermost segment first."""

    __slots__ = ("message", "segments")

    def __init__(self, message: str, segments: list[str]) -> None:
        self.message, self.segments = message, segments

    def error(self) -> RecordInvalid:
        return RecordInvalid(self.message, path="$" + "".join(reversed(self.segments)))


Problems = list[Problem]
Check = Callable[[Any], "Problems | None"]
Test = Callable[[str], "str | None"]  # a check on a string already known to be valid text

MISSING = object()
_PLAIN_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")
_KINDS = ((bool, "boolean"), (int, "integer"), (str, "string"), (list, "array"))


def fail(message: str, segment: str | None = None) -> Problems:
    return [Problem(message, [segment] if segment else [])]


def within(problems: Problems, segment: str) -> Problems:
    for problem in problems:
        problem.segments.append(segment)
    return problems


def segment(key: Any) -> str:
    """The path segment for an object key: ``.name``, or ``['odd key']``."""
    return "." + key if isinstance(key, str) and _PLAIN_KEY.fullmatch(key) else f"[{key!r}]"


def kind(value: Any) -> str:
    """The data-model name of a value's type, for messages."""
    if value is None:
        return "null"
    for python_type, name in _KINDS:
        if isinstance(value, python_type):
            return name
    if isinstance(value, dict):
        if "$link" in value or "$bytes" in value:
            return "cid-link" if "$link" in value else "bytes"
        return "blob" if value.get("$type") == "blob" else "object"
    return f"float {value!r}" if isinstance(value, float) else kind_of(value)


def is_object(value: Any) -> bool:
    """A JSON object that is not a link, bytes or blob."""
    return (
        isinstance(value, dict)
        and "$link" not in value
        and "$bytes" not in value
        and value.get("$type") != "blob"
    )


def listing(values: Iterable[Any]) -> str:
    return ", ".join(repr(v) for v in values)


def syntax_problem(fmt: str, text: str) -> str | None:
    """Why ``text`` is not valid in the string format ``fmt``, or ``None``."""
    try:
        FORMAT_PARSERS[fmt](text)
    except InvalidSyntax as exc:
        return exc.message
    return None


def _out_of_range(n: int, lo: int | None, hi: int | None, unit: str = "") -> str | None:
    if lo is not None and n < lo:
        return f"must be at least {lo}{unit} (got {n})"
    if hi is not None and n > hi:
        return f"must be at most {hi}{unit} (got {n})"
    return None


def _unicode_problem(text: str) -> str | None:
    try:
        text.encode()
    except UnicodeEncodeError as exc:
        return f"must be valid Unicode (lone surrogate at index {exc.start})"
    return None


def _data(value: Any) -> tuple[Any, Problems | None]:
    """``value`` in IPLD form if it is valid atproto data, else what is wrong with it."""
    try:
        converted = json_to_ipld(value, top_level_object=False)
    except DataModelError as exc:
        path = exc.path or ""
        return None, fail(exc.message, path if path[:1] in ("", "[") else "." + path)
    unsafe = unsafe_integer(value)
    return (converted, None) if unsafe is None else (None, fail(unsafe[1], unsafe[0] or None))


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is certainly valid data holding no link, bytes, blob or float: the
    fast path, which leaves every other value to ``json_to_ipld``."""
    kind_ = type(value)
    if kind_ is str:
        return value.isascii() or not _unicode_problem(value)
    if kind_ is int:
        return -SAFE_INTEGER <= value <= SAFE_INTEGER
    if value is None or kind_ is bool:
        return True
    if depth >= 32:
        return False
    if kind_ is list:
        for item in value:
            if not _plain(item, depth + 1):
                return False
        return True
    if kind_ is not dict or "$link" in value or "$bytes" in value:
        return False
    name = value.get("$type", "-")
    if type(name) is not str or not name or name == "blob":
        return False
    for key, item in value.items():
        if type(key) is not str or not key.isascii() and _unicode_problem(key):
            return False
        if type(item) is str:  # the usual case, without the call
            if not item.isascii() and _unicode_problem(item):
                return False
        elif not _plain(item, depth + 1):
            return False
    return True


def data_problems(value: Any) -> Problems | None:
    """What makes ``value`` invalid atproto data, whatever its schema."""
    return None if _plain(value) else _data(value)[1]


def _extra_problems(key: Any, value: Any) -> Problems | None:
    """What is wrong with a property no schema declares: it only has to be valid data."""
    if not isinstance(key, str):
        return fail(f"property names must be strings (got {kind_of(key)})")
    if not key.isascii() and (message := _unicode_problem(key)):
        return fail(f"property name {key!r:.80} {message}")
    if key == "$type" and (not isinstance(value, str) or not value):
        return fail(f"must be a non-empty string (got {kind(value)})", ".$type")
    problems = data_problems(value)
    return within(problems, segment(key)) if problems else None


def _graphemes(text: str) -> int:
    if text.isascii():  # every ASCII character is a cluster of its own, except CR LF
        return len(text) - text.count("\r\n")
    return len(_grapheme_pattern().findall(text))


@cache
def _grapheme_pattern():
    """Unicode's extended grapheme clusters (``regex``'s ``\\X``), loaded for the first text
    that is not ASCII: the module costs a command's start-up more than any other check."""
    import regex

    return regex.compile(r"\X")


# --- string tests -------------------------------------------------------------------------------


def byte_length_test(lo: int | None, hi: int | None) -> Test:
    low = lo or 0

    def test(v: str) -> str | None:
        n = len(v)  # code points: at most the UTF-8 length, at least a quarter of it
        if n >= low and (hi is None or 4 * n <= hi):
            return None
        return _out_of_range(n if v.isascii() else len(v.encode()), lo, hi, " bytes long")

    return test


def grapheme_test(lo: int | None, hi: int | None) -> Test:
    def test(v: str) -> str | None:
        if not lo and (hi is None or len(v) <= hi):  # code points: at least the grapheme count
            return None
        return _out_of_range(_graphemes(v), lo, hi, " graphemes long")

    return test


def format_test(fmt: str) -> Test:
    parse = FORMAT_PARSERS[fmt]

    def test(v: str) -> str | None:
        try:
            parse(v)
        except InvalidSyntax as exc:
            return f"must be a valid {fmt}: {exc.message}"
        return None

    return test


def choice_test(choices: list[str]) -> Test:
    allowed = frozenset(choices)
    wanted = f"must be one of {listing(choices)}" if len(choices) > 1 else f"must be {choices[0]!r}"
    return lambda v: None if v in allowed else f"{wanted} (got {v!r:.80})"


# --- checkers -----------------------------------------------------------------------------------


def null_check() -> Check:
    return lambda v: None if v is None else fail(f"must be null (got {kind(v)})")


def boolean_check(const: bool | None) -> Check:
    def check(v: Any) -> Problems | None:
        if not isinstance(v, bool):
            return fail(f"must be a boolean (got {kind(v)})")
        return None if const is None or v is const else fail(f"must be {str(const).lower()}")

    return check


def integer_check(
    lo: int | None, hi: int | None, const: int | None, enum: list[int] | None
) -> Check:
    choices = None if enum is None else frozenset(enum)

    def check(v: Any) -> Problems | None:
        if type(v) is not int:
            return fail(f"must be an integer (got {kind(v)})")
        if const is not None and v != const:
            return fail(f"must be {const} (got {v})")
        if choices is not None and v not in choices:
            return fail(f"must be one of {listing(enum or ())} (got {v})")
        unsafe = unsafe_integer(v)
        message = unsafe[1] if unsafe else _out_of_range(v, lo, hi)
        return fail(message) if message else None

    return check


def string_check(tests: list[Test], plain: tuple[int, int | None] | None = None) -> Check:
    """``plain``: (min, max) lengths within which an ASCII ``str`` passes every test (ASCII has
    one byte and at most one grapheme per character); None when the tests must always run."""
    low, high = plain if plain is not None else (1, 0)
    high = sys.maxsize if high is None else high

    def check(v: Any) -> Problems | None:
        if type(v) is str and low <= len(v) <= high and v.isascii():
            return None
        if not isinstance(v, str):
            return fail(f"must be a string (got {kind(v)})")
        if not v.isascii():
            message = _unicode_problem(v)
            if message:
                return fail(message)
        for test in tests:
            message = test(v)
            if message:
                return fail(message)
        return None

    check.plain_bounds = (low, high)  # type: ignore[attr-defined]  # for object_check to inline
    return check


def bytes_check(lo: int | None, hi: int | None) -> Check:
    def check(v: Any) -> Problems | None:
        if not isinstance(v, dict) or "$bytes" not in v:
            return fail(f'must be bytes, {{"$bytes": "<base64>"}} (got {kind(v)})')
        raw, problems = _data(v)
        message = problems is None and _out_of_range(len(raw), lo, hi, " bytes long")
        return fail(message) if message else problems

    return check


def cid_link_check() -> Check:
    def check(v: Any) -> Problems | None:
        if not isinstance(v, dict) or "$link" not in v:
            return fail(f'must be a cid-link, {{"$link": "<cid>"}} (got {kind(v)})')
        return _data(v)[1]

    return check


def blob_check(accept: list[str] | None, max_size: int | None) -> Check:
    """``accept`` holds checked MIME patterns: ``type/subtype``, ``type/*`` or ``*/*``."""
    exact = frozenset(p.lower() for p in accept or () if not p.endswith("/*"))
    prefixes = tuple(p[:-1].lower() for p in accept or () if p.endswith("/*"))
    anything = accept is None or "*/*" in accept

    def check(v: Any) -> Problems | None:
        if not isinstance(v, dict) or v.get("$type") != "blob":
            return fail(f"must be a blob (got {kind(v)})")
        problems = _data(v)[1]
        if problems:
            return problems
        mime = v["mimeType"].lower()
        if not anything and mime not in exact and not mime.startswith(prefixes):
            got = v["mimeType"]
            return fail(f"must be one of {listing(accept or ())} (got {got!r})", ".mimeType")
        message = _out_of_range(v["size"], None, max_size, " bytes")
        return fail(message, ".size") if message else None

    return check


def array_check(check_item: Check, lo: int | None, hi: int | None) -> Check:
    def check(v: Any) -> Problems | None:
        if not isinstance(v, list):
            return fail(f"must be an array (got {kind(v)})")
        message = _out_of_range(len(v), lo, hi, " items long")
        if message:
            return fail(message)
        found = None
        for index, item in enumerate(v):
            problems = check_item(item)
            if problems:
                found = (found or []) + within(problems, f"[{index}]")
        return found

    return check


def object_check(fields: dict[str, Check], required: list[str], nullable: frozenset[str]) -> Check:
    """Declared properties are checked; undeclared ones only have to be valid data."""
    # name -> (path segment, checker, nullable, (low, high) lengths settling an ASCII str, see
    # string_check; (1, 0) settles none)
    table = {
        name: (segment(name), check, name in nullable, *getattr(check, "plain_bounds", (1, 0)))
        for name, check in fields.items()
    }
    must = [(name, segment(name)) for name in required]
    must_names = frozenset(required)

    def check(v: Any) -> Problems | None:
        if not is_object(v):
            return fail(f"must be an object (got {kind(v)})")
        found = None
        if not must_names <= v.keys():
            for name, at in must:
                if name not in v:
                    found = (found or []) + fail("is required but missing", at)
        for key, item in v.items():
            entry = table.get(key)
            if entry is None:
                if key == "$type" and type(item) is str and item and item.isascii():
                    continue  # the usual case, settled without the data-model walk
                problems = _extra_problems(key, item)
                if problems:
                    found = (found or []) + problems
                continue
            at, check_item, may_be_null, low, high = entry
            if type(item) is str and low <= len(item) <= high and item.isascii():
                continue  # what check_item would say, without the call
            if item is not None or not may_be_null:
                problems = check_item(item)
                if problems:
                    found = (found or []) + within(problems, at)
        return found

    return check


def union_check(
    variants: dict[str, Check],
    closed: bool,
    type_problem: Callable[[str], str | None],
    open_variant: Callable[[str], Check],
) -> Check:
    """``variants`` maps a ``$type`` to its checker; an open union hands other (well-formed)
    types to ``open_variant``."""

    def check(v: Any) -> Problems | None:
        if not is_object(v):
            return fail(f"must be an object with a $type (got {kind(v)})")
        name = v.get("$type", MISSING)
        if not isinstance(name, str):
            got = "nothing" if name is MISSING else kind(name)
            return fail(f"must name the variant's type (got {got})", ".$type")
        variant = variants.get(name)
        if variant is not None:
            return variant(v)
        if closed:
            return fail(f"must be one of {listing(variants)} (got {name!r:.80})", ".$type")
        reason = type_problem(name)
        return fail(reason, ".$type") if reason else open_variant(name)(v)

    return check


def unknown_check() -> Check:
    def check(v: Any) -> Problems | None:
        if not is_object(v):
            return fail(f"must be an object (got {kind(v)})")
        return data_problems(v)

    return check


def record_check(nsid: str, check_object: Check) -> Check:
    """A record is its object plus a ``$type`` naming ``nsid``."""

    def check(value: Any) -> Problems | None:
        if not isinstance(value, dict):
            return fail(f"must be a {nsid} record object (got {kind(value)})")
        found = check_object(value) or []  # which refuses a link, bytes or blob
        if found and not found[0].segments:
            return found
        name = value.get("$type", MISSING)
        if name is MISSING:
            return fail(f"is required: a record names its type, {nsid!r}", ".$type") + found
        if isinstance(name, str) and name != nsid:
            return fail(f"must be {nsid!r} (got {name!r:.80})", ".$type") + found
        return found or None

    return check


def token_check(token: str) -> Check:
    return lambda v: None if v == token else fail(f"must be the token {token!r}")
