"""Generated fast paths for lexicon validation: one Python function per definition.

Scope: ``fast_check(ref, lookup)`` writes the source of a function that answers, for a value,
only "certainly valid" (``True``) or "ask the reference checker" (``False``), then compiles it
once. ``LexiconSet`` (``pdsmem.mapping.lexicon``) calls it first and runs its checker closures
(``lexicon_checks``), which find and word every problem, only when it says ``False``. It never
decides that a value is invalid, so it never words an error.

The generated function does what the closures do, without their calls: each declared property
of an object is one inline expression (type, lengths, format, enum...), its nested objects and
arrays are functions of their own, and undeclared properties go through the data-model walk
``lexicon_checks._plain``. It also counts nesting from the value itself, as ``validate_record``'s
whole-record data check does, so ``True`` for a record settles that check too.

Tricky bits:
- The fast path may be stricter than the reference, never looser: ``tests/test_lexicon_fast.py``
  holds every ``True`` to the reference's verdict, and asserts that the usual records take the
  fast path at all. What it does not cover (unions, blobs, bytes, cid-links, a non-ASCII string
  whose graphemes need counting, a ``$``-named property, a ref to a record or to a definition
  this set lacks) it answers ``False``.
- Keys must be exactly ``str``: a ``str`` subclass equal to a declared name would be found by
  ``dict.get`` yet refused by the data model, so every object checks the types of its keys.
- Each function keeps its generated text: ``print(fast.source)`` shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdsmem.mapping.datamodel import SAFE_INTEGER
from pdsmem.mapping.lexicon_checks import _plain
from pdsmem.mapping.syntax import FORMAT_PARSERS

__all__ = ["fast_check"]

Fast = Callable[[Any], bool]
# (a reference as a schema writes it, the NSID of the document it is written in) -> (the full
# reference nsid#name, the definition's type, its schema JSON), or None when the set lacks it
Lookup = Callable[[str, str], "tuple[str, str, dict] | None"]

_MAX_PROPERTIES = 64  # an object declaring more is left to the reference (see _Writer.object)
_MAX_DEPTH = 32  # as lexicon_checks._plain: deeper values (the data model allows 256) go to the reference


def _format_test(fmt: str) -> Callable[[str], bool]:
    """Whether a string is valid in ``fmt``: the reference's parser, asked yes or no. A syntax
    type's own check is called without building the parsed value."""
    parse = FORMAT_PARSERS[fmt]
    run = getattr(getattr(parse, "__self__", None), "_check", parse)

    def test(text: str) -> bool:
        try:
            run(text)
        except Exception:  # the reference says why (InvalidSyntax), or raises the same
            return False
        return True

    return test


def _utf8_length(text: str) -> int:
    """The UTF-8 length of ``text``, or -1 when it holds a lone surrogate."""
    try:
        return len(text.encode())
    except UnicodeEncodeError:
        return -1


class _Writer:
    """Writes the source of one module of functions: a definition's, and those it refers to."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.names: dict[str, str] = {}  # full reference -> its function's name
        self.functions: list[str] = []
        self.constants: dict[str, Any] = {
            "_plain": _plain, "_utf8": _utf8_length, "_M": object(), "_STR": frozenset((str,)),
        }

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def definition(self, ref: str, base: str) -> str:
        """The name of the function ``name(x, d)`` for the definition ``ref``, as a schema of
        the document ``base`` writes it."""
        found = self.lookup(ref, base)
        key = found[0] if found else f"{base} {ref}"
        if key in self.names:
            return self.names[key]
        name = self.names[key] = f"def_{len(self.names)}"
        if found is None or found[1] in ("record", "token"):
            body = "return False"  # the reference resolves it, or says why it cannot
        else:
            full, _, schema = found
            body = f"return {self.value(schema, 'x', 'd', full)}"
        self.functions.append(f"def {name}(x, d):\n    {body}\n")
        return name

    def value(self, schema: dict, x: str, d: str, ref: str) -> str:
        """An expression: whether ``x`` (at depth ``d``) is certainly valid for ``schema``."""
        type_ = schema.get("type")
        if type_ == "string":
            return self.string(schema, x)
        if type_ == "integer":
            return self.integer(schema, x)
        if type_ == "boolean":
            const = schema.get("const")
            return f"type({x}) is bool" + ("" if const is None else f" and {x} is {const!r}")
        if type_ == "null":
            return f"{x} is None"
        if type_ == "object":
            return f"{self.object(schema, ref)}({x}, {d})"
        if type_ == "array":
            return f"{self.array(schema, ref)}({x}, {d})"
        if type_ == "ref":
            return f"{self.definition(schema['ref'], ref.partition('#')[0])}({x}, {d})"
        if type_ == "unknown":
            return f"type({x}) is dict and _plain({x}, {d})"
        return "False"  # union, blob, bytes, cid-link: the reference checks them

    def string(self, schema: dict, x: str) -> str:
        lo, hi = schema.get("minLength") or 0, schema.get("maxLength")
        min_g, max_g = schema.get("minGraphemes"), schema.get("maxGraphemes")
        tests = []
        for key in ("const", "enum"):
            if key in schema:
                allowed = frozenset([schema[key]] if key == "const" else schema[key])
                tests.append(f"{x} in {self.constant(allowed)}")
        if "format" in schema:
            tests.append(f"{self.constant(_format_test(schema['format']))}({x})")
        # ASCII: one byte per character, and one grapheme per character but for CR LF
        ascii_ = [f"{lo} <= len({x})" if lo else None, f"len({x}) <= {hi}" if hi is not None else None]
        if max_g is not None:
            ascii_.append(f"len({x}) <= {max_g}")  # graphemes <= characters
        if min_g:
            ascii_.append(f"len({x}) - {x}.count('\\r\\n') >= {min_g}")
        # otherwise: the UTF-8 length, exactly (-1 for a lone surrogate); graphemes need
        # counting only when the characters alone do not settle the bounds
        if hi is not None:
            other = [f"{lo} <= _utf8({x}) <= {hi}"]
        else:
            other = [f"{lo} <= _utf8({x})" if lo else f"_utf8({x}) >= 0"]
        if max_g is not None:
            other.append(f"len({x}) <= {max_g}")
        if min_g:
            other.append("False")
        ascii_text = " and ".join(t for t in ascii_ if t)
        if ascii_text:
            checks = f"(({ascii_text}) if {x}.isascii() else ({' and '.join(other)}))"
        else:
            checks = f"({x}.isascii() or ({' and '.join(other)}))"
        return " and ".join([f"type({x}) is str", checks, *tests])

    def integer(self, schema: dict, x: str) -> str:
        lo = max(schema.get("minimum", -SAFE_INTEGER), -SAFE_INTEGER)
        hi = min(schema.get("maximum", SAFE_INTEGER), SAFE_INTEGER)
        tests = [f"type({x}) is int", f"{lo} <= {x} <= {hi}"]
        if "const" in schema:
            tests.append(f"{x} == {schema['const']!r}")
        if "enum" in schema:
            tests.append(f"{x} in {self.constant(frozenset(schema['enum']))}")
        return " and ".join(tests)

    def array(self, schema: dict, ref: str) -> str:
        name = f"arr_{len(self.functions)}"
        self.functions.append("")  # its place, kept before the item's functions are written
        place = len(self.functions) - 1
        lo, hi = schema.get("minLength") or 0, schema.get("maxLength")
        bounds = f"{lo} <= len(x)" + (f" <= {hi}" if hi is not None else "")
        item = self.value(schema["items"], "y", "d + 1", ref)
        self.functions[place] = (
            f"def {name}(x, d):\n"
            f"    if type(x) is not list or d >= {_MAX_DEPTH} or not {bounds}:\n"
            "        return False\n"
            "    for y in x:\n"
            f"        if not ({item}):\n"
            "            return False\n"
            "    return True\n"
        )
        return name

    def object(self, schema: dict, ref: str) -> str:
        name = f"obj_{len(self.functions)}"
        self.functions.append("")
        place = len(self.functions) - 1
        properties: dict = schema["properties"]
        required = set(schema.get("required") or ())
        nullable = set(schema.get("nullable") or ())
        # Left to the reference: a declared $type (or another $ name), a name that is not exactly
        # a str (each name is written below as its repr, which for a str is a plain literal), and
        # a schema declaring so many properties that one get per declared name would cost more.
        plain_names = all(type(key) is str and not key.startswith("$") for key in properties)
        if not plain_names or len(properties) > _MAX_PROPERTIES:
            self.functions[place] = f"def {name}(x, d):\n    return False\n"
            return name
        lines = [
            f"def {name}(v, d):",
            f"    if type(v) is not dict or d >= {_MAX_DEPTH} or '$link' in v or '$bytes' in v:",
            "        return False",
            "    if not _STR.issuperset(map(type, v)):",
            "        return False",
            "    seen = 0",
        ]
        for key, prop in properties.items():
            test = self.value(prop, "x", "d + 1", ref)
            if key in nullable:
                test = f"x is None or ({test})"
            lines.append(f"    x = v.get({key!r}, _M)")
            if key in required:
                lines += ["    if x is _M or not (" + test + "):", "        return False", "    seen += 1"]
            else:
                lines += ["    if x is not _M:", "        seen += 1"]
                lines += [f"        if not ({test}):", "            return False"]
        declared = self.constant(frozenset(properties))
        lines += [
            "    if seen != len(v):",
            f"        for k in v.keys() - {declared}:",
            "            x = v[k]",
            "            if k == '$type':",
            "                if type(x) is not str or not x or x == 'blob' or not (x.isascii() or _utf8(x) >= 0):",
            "                    return False",
            "            elif not (k.isascii() or _utf8(k) >= 0) or not _plain(x, d + 1):",
            "                return False",
            "    return True",
        ]
        self.functions[place] = "\n".join(lines) + "\n"
        return name

    def record(self, ref: str, schema: dict) -> str:
        nsid = ref.partition("#")[0]
        inner = self.value(schema["record"], "v", "0", ref)
        self.functions.append(
            "def record(v):\n"
            f"    return type(v) is dict and type(v.get('$type')) is str and v['$type'] == {nsid!r} and {inner}\n"
        )
        return "record"


def fast_check(ref: str, lookup: Lookup) -> Fast:
    """The generated fast path of the definition ``ref`` (``nsid#name``, well-formed: its
    document passed ``LexiconSet.add``): a function of one value, ``True`` only when the value is
    certainly valid (for a record: its whole-record data check included). A definition the writer
    cannot handle (a schema nested too deeply to write, a bound of thousands of digits...) gets a
    fast path that always leaves the value to the reference."""
    writer = _Writer(lookup)
    try:
        found = lookup(ref, "")
        if found is not None and found[1] == "record":
            entry = writer.record(ref, found[2])
        else:
            entry = f"lambda v: {writer.definition(ref, '')}(v, 0)"
        source = "\n".join(writer.functions) + f"\nentry = {entry}\n"
        namespace = dict(writer.constants)
        exec(compile(source, f"<lexicon fast path {str(ref)!r}>", "exec"), namespace)
        fast = namespace["entry"]
    except (RecursionError, ValueError, SyntaxError, MemoryError):
        source = "the writer could not handle this definition: every value goes to the reference\n"
        fast = lambda v: False  # noqa: E731
    fast.source = source  # for reading and debugging
    return fast
