"""Validate atproto data (JSON form) against lexicon documents.

Scope: checking lexicon documents themselves, and checking records and other values against
them. Documents arrive already parsed; nothing here reads files. ``LexiconSet`` checks each
document and compiles every definition once into checker closures (``lexicon_checks``), so
validating a value never walks the schema JSON again.

Validation never changes a value: ``default`` is not filled in, and properties a schema does not
declare are allowed and left in place. They, and ``unknown`` fields, must still be valid atproto
data, as ``datamodel.json_to_ipld`` decides.

Tricky bits:
- References resolve on first use, so a document may refer to one added later; a reference still
  unresolved when data reaches it raises ``LexiconError``, never ``RecordInvalid``.
  ``unresolved_refs()`` lists them up front.
- An open union checks a value whose ``$type`` is in the set but not among its ``refs`` against
  that definition; a ``$type`` unknown to the set only has to be valid data.
- ``$type`` names a ``main`` definition by its bare NSID; ``nsid#main`` is refused in data.
- A named definition may not be a ``ref``, ``union``, ``unknown``, ``params`` or ``permission``,
  and only ``main`` may be a record, query, procedure, subscription or permission set.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

from pdsmem.errors import LexiconError, RecordInvalid
from pdsmem.mapping import lexicon_checks as checks
from pdsmem.mapping.datamodel import MAX_DEPTH, within_depth
from pdsmem.mapping.lexicon_checks import Check, Problems, kind, syntax_problem
from pdsmem.mapping.lexicon_fast import Fast, fast_check
from pdsmem.mapping.syntax import FORMAT_PARSERS

__all__ = ["LexiconSet"]

_PRIMARY = frozenset(("record", "query", "procedure", "subscription", "permission-set"))
_NOT_NAMED = frozenset(("ref", "union", "unknown", "params", "permission"))
_DATA_TYPES = ("null", "boolean", "integer", "string", "bytes", "cid-link", "blob", "array")
_DATA_TYPES += ("object",)
_FIELD_TYPES = _DATA_TYPES + ("ref", "union", "unknown")
_PARAM_TYPES = ("boolean", "integer", "string", "unknown")
_ENDPOINTS = ("query", "procedure", "subscription")
_KEY_FORMATS = {"tid": "tid", "nsid": "nsid", "any": "record-key"}
# Values of a definition the reference checks before its fast path is written: writing and
# compiling one takes a few milliseconds, more than a command that checks one record (``convert``)
# spends on the reference, and a run of many records soon makes up for it.
FAST_WARM_UP = 16
_SCHEMA_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "bool": (lambda v: isinstance(v, bool), "a boolean"),
    "int": (lambda v: type(v) is int, "an integer"),
    "count": (lambda v: type(v) is int and v >= 0, "a non-negative integer"),
    "dict": (lambda v: isinstance(v, dict), "an object"),
}


def _array_of(name: str, noun: str) -> tuple[Callable[[Any], bool], str]:
    test = _SCHEMA_KINDS[name][0]
    return lambda v: isinstance(v, list) and all(map(test, v)), f"an array of {noun}"


# An array kind is named by its item kind and a trailing "s".
_SCHEMA_KINDS |= {
    "strs": _array_of("str", "strings"),
    "ints": _array_of("int", "integers"),
    "dicts": _array_of("dict", "objects"),
}


def _full_ref(ref: str, base: str) -> str:
    """``#name``, ``nsid`` or ``nsid#name`` as the canonical ``nsid#name``."""
    if ref.startswith("#"):
        return base + ref
    return ref if "#" in ref else ref + "#main"


def _type_name(full_ref: str) -> str:
    """How data names a definition in ``$type``: the bare NSID for ``main``."""
    return full_ref[: -len("#main")] if full_ref.endswith("#main") else full_ref


def _type_problem(type_name: str) -> str | None:
    """Why a ``$type`` in data is not ``nsid`` or ``nsid#name``, if it is not."""
    nsid, hash_sign, name = type_name.partition("#")
    reason = syntax_problem("nsid", nsid)
    if reason:
        return f"must be an NSID, optionally with #name: {reason}"
    if hash_sign and (not name or "#" in name):
        return f"must be an NSID, optionally with #name (got {type_name!r:.80})"
    if name == "main":
        return f"must name a main definition by its bare NSID {nsid!r}, without '#main'"
    return None


@dataclass(frozen=True)
class _Def:
    """A named definition: its type, where it is declared, and its compiled checkers."""

    type: str
    where: str
    check: Check | None
    record_key: str | None = None
    params: Check | None = None
    schema: dict | None = None  # a copy of its schema JSON, for the generated fast path


class _Compiler:
    """Checks one lexicon document's definitions and compiles them into checkers."""

    def __init__(self, lexicons: LexiconSet, nsid: str) -> None:
        self.lexicons, self.nsid = lexicons, nsid

    def error(self, where: str, message: str) -> LexiconError:
        return LexiconError(f"{message} (lexicon {self.nsid})", path=where)

    def get(self, schema: dict, key: str, want: str, where: str, required: bool = False) -> Any:
        value = schema.get(key, checks.MISSING)
        if value is checks.MISSING:
            if required:
                raise self.error(where, f"{key!r} is required")
            return None
        test, wanted = _SCHEMA_KINDS[want]
        if not test(value):
            got = kind(value)
            if isinstance(value, list) and want.endswith("s"):  # an array kind: say which item is wrong
                item_test = _SCHEMA_KINDS[want[:-1]][0]
                bad = [f"{kind(x)} at [{i}]" for i, x in enumerate(value) if not item_test(x)]
                got = bad[0] if bad else got
            raise self.error(f"{where}.{key}", f"must be {wanted} (got {got})")
        return value

    def enum(self, schema: dict, want: str, where: str) -> list | None:
        values = self.get(schema, "enum", want, where)
        if values == []:
            raise self.error(f"{where}.enum", "must list at least one value (an empty enum allows none)")
        return values

    def bounds(self, schema: dict, low: str, high: str, want: str, where: str) -> tuple[Any, Any]:
        lo, hi = self.get(schema, low, want, where), self.get(schema, high, want, where)
        if lo is not None and hi is not None and lo > hi:
            raise self.error(f"{where}.{low}", f"{low} {lo} is greater than {high} {hi}")
        return lo, hi

    def reference(self, ref: str, where: str) -> str:
        nsid, _, name = ref.partition("#")
        if (nsid and syntax_problem("nsid", nsid)) or not (nsid or name) or "#" in name:
            raise self.error(where, f"must be '#name', 'nsid' or 'nsid#name' (got {ref!r})")
        full = _full_ref(ref, self.nsid)
        self.lexicons._refs.append((full, where, self.nsid))
        return full

    def definition(self, name: str, schema: Any, where: str) -> _Def:
        if not isinstance(schema, dict):
            raise self.error(where, f"must be a schema object (got {kind(schema)})")
        type_ = self.get(schema, "type", "str", where, required=True)
        self.get(schema, "description", "str", where)
        if type_ in _NOT_NAMED:
            raise self.error(f"{where}.type", f"type {type_!r} cannot be a named definition")
        if type_ in _PRIMARY and name != "main":
            raise self.error(f"{where}.type", f"a {type_} definition must be named 'main'")
        if type_ == "record":
            key = self.get(schema, "key", "str", where, required=True)
            literal = key.startswith("literal:") and not syntax_problem("record-key", key[8:])
            if key not in _KEY_FORMATS and not literal:
                raise self.error(f"{where}.key", f"must be tid, nsid, any or literal:KEY ({key!r})")
            body = self.get(schema, "record", "dict", where, required=True)
            check = checks.record_check(self.nsid, self.field(body, f"{where}.record", ("object",)))
            return _Def(type_, where, check, record_key=key)
        if type_ in _ENDPOINTS:
            return _Def(type_, where, None, params=self.endpoint(type_, schema, where))
        if type_ == "permission-set":
            permissions = self.get(schema, "permissions", "dicts", where, required=True)
            for index, permission in enumerate(permissions):
                at = f"{where}.permissions[{index}]"
                if permission.get("type") != "permission":
                    raise self.error(f"{at}.type", "must be 'permission'")
                self.get(permission, "resource", "str", at, required=True)
            return _Def(type_, where, None)
        if type_ == "token":
            return _Def(type_, where, checks.token_check(_type_name(f"{self.nsid}#{name}")))
        return _Def(type_, where, self.field(schema, where, _DATA_TYPES))

    def endpoint(self, type_: str, schema: dict, where: str) -> Check | None:
        params = self.get(schema, "parameters", "dict", where)
        check_params = None if params is None else self.params(params, f"{where}.parameters")
        for key in {"query": ("output",), "procedure": ("input", "output")}.get(type_, ()):
            body = self.get(schema, key, "dict", where)
            if body is not None:
                self.get(body, "encoding", "str", f"{where}.{key}", required=True)
                inner = self.get(body, "schema", "dict", f"{where}.{key}")
                if inner is not None:
                    self.field(inner, f"{where}.{key}.schema", ("object", "ref", "union"))
        if type_ == "subscription":
            message = self.get(schema, "message", "dict", where, required=True)
            inner = self.get(message, "schema", "dict", f"{where}.message", required=True)
            self.field(inner, f"{where}.message.schema", ("union",))
        for index, error in enumerate(self.get(schema, "errors", "dicts", where) or ()):
            self.get(error, "name", "str", f"{where}.errors[{index}]", required=True)
        return check_params

    def params(self, schema: dict, where: str) -> Check:
        if schema.get("type") != "params" or "nullable" in schema:
            raise self.error(where, "must be a 'params' schema (which has no 'nullable')")
        for name, prop in self.get(schema, "properties", "dict", where, required=True).items():
            is_array = isinstance(prop, dict) and prop.get("type") == "array"
            inner = prop.get("items") if is_array else prop
            if not isinstance(inner, dict) or inner.get("type") not in _PARAM_TYPES:
                raise self.error(
                    f"{where}.properties.{name}",
                    f"a parameter must be one of {', '.join(_PARAM_TYPES)}, or an array of one",
                )
        return self.object(schema, where)

    def field(self, schema: Any, where: str, allowed: tuple[str, ...] = _FIELD_TYPES) -> Check:
        if not isinstance(schema, dict):
            raise self.error(where, f"must be a schema object (got {kind(schema)})")
        type_ = schema.get("type")
        if type_ not in allowed:
            wanted = repr(allowed[0]) if len(allowed) == 1 else f"one of {', '.join(allowed)}"
            got = "no type" if type_ is None else repr(type_)
            raise self.error(f"{where}.type", f"must be {wanted} (got {got})")
        self.get(schema, "description", "str", where)
        return getattr(self, type_.replace("-", "_"))(schema, where)

    def null(self, schema: dict, where: str) -> Check:
        return checks.null_check()

    def boolean(self, schema: dict, where: str) -> Check:
        self.get(schema, "default", "bool", where)
        return checks.boolean_check(self.get(schema, "const", "bool", where))

    def integer(self, schema: dict, where: str) -> Check:
        lo, hi = self.bounds(schema, "minimum", "maximum", "int", where)
        self.get(schema, "default", "int", where)
        const = self.get(schema, "const", "int", where)
        enum = self.enum(schema, "ints", where)
        return checks.integer_check(lo, hi, const, enum)

    def string(self, schema: dict, where: str) -> Check:
        fmt = self.get(schema, "format", "str", where)
        if fmt is not None and fmt not in FORMAT_PARSERS:
            raise self.error(f"{where}.format", f"must be one of {', '.join(FORMAT_PARSERS)}")
        min_bytes, max_bytes = self.bounds(schema, "minLength", "maxLength", "count", where)
        graphemes = self.bounds(schema, "minGraphemes", "maxGraphemes", "count", where)
        const = self.get(schema, "const", "str", where)
        enum = self.enum(schema, "strs", where)
        self.get(schema, "knownValues", "strs", where)  # open: any other value is legal too
        if self.get(schema, "default", "str", where) is not None and const is not None:
            raise self.error(f"{where}.default", "a string cannot have both const and default")
        tests: list[checks.Test] = []
        if const is not None:
            tests.append(checks.choice_test([const]))
        if enum is not None:
            tests.append(checks.choice_test(enum))
        if min_bytes is not None or max_bytes is not None:
            tests.append(checks.byte_length_test(min_bytes, max_bytes))
        if graphemes != (None, None):
            tests.append(checks.grapheme_test(*graphemes))
        if fmt is not None:
            tests.append(checks.format_test(fmt))
        plain = None  # length bounds that settle an ASCII string, when nothing else is asked
        if const is None and enum is None and fmt is None and graphemes[0] is None:
            highs = [bound for bound in (max_bytes, graphemes[1]) if bound is not None]
            plain = (min_bytes or 0, min(highs) if highs else None)
        return checks.string_check(tests, plain)

    def bytes(self, schema: dict, where: str) -> Check:
        return checks.bytes_check(*self.bounds(schema, "minLength", "maxLength", "count", where))

    def cid_link(self, schema: dict, where: str) -> Check:
        return checks.cid_link_check()

    def blob(self, schema: dict, where: str) -> Check:
        accept = self.get(schema, "accept", "strs", where)
        for index, pattern in enumerate(accept or ()):
            major, slash, minor = pattern.partition("/")
            plain_minor = minor == "*" or "*" not in minor
            wild = major == "*" == minor or ("*" not in major and plain_minor)
            if not (major and slash and minor and wild):
                raise self.error(f"{where}.accept[{index}]", f"{pattern!r} is not a MIME pattern")
        return checks.blob_check(accept, self.get(schema, "maxSize", "count", where))

    def array(self, schema: dict, where: str) -> Check:
        items = self.field(self.get(schema, "items", "dict", where, True), f"{where}.items")
        lo, hi = self.bounds(schema, "minLength", "maxLength", "count", where)
        return checks.array_check(items, lo, hi)

    def object(self, schema: dict, where: str) -> Check:
        properties = self.get(schema, "properties", "dict", where, required=True)
        required = self.get(schema, "required", "strs", where) or []
        nullable = frozenset(self.get(schema, "nullable", "strs", where) or ())
        for name in [*required, *nullable]:
            if name not in properties:
                raise self.error(where, f"required or nullable {name!r} is not a property")
        fields = {
            name: self.field(prop, f"{where}.properties.{name}")
            for name, prop in properties.items()
        }
        return checks.object_check(fields, required, nullable)

    def ref(self, schema: dict, where: str) -> Check:
        target = self.reference(self.get(schema, "ref", "str", where, True), f"{where}.ref")
        return self.lexicons._resolver(target, f"{where}.ref", self.nsid, union=False)

    def union(self, schema: dict, where: str) -> Check:
        refs = self.get(schema, "refs", "strs", where, required=True)
        closed = bool(self.get(schema, "closed", "bool", where))
        if closed and not refs:
            raise self.error(f"{where}.refs", "a closed union needs at least one ref")
        variants: dict[str, Check] = {}
        for index, ref in enumerate(refs):
            at = f"{where}.refs[{index}]"
            full = self.reference(ref, at)
            variants[_type_name(full)] = self.lexicons._resolver(full, at, self.nsid, union=True)
        return checks.union_check(variants, closed, _type_problem, self.lexicons._open_variant)

    def unknown(self, schema: dict, where: str) -> Check:
        return checks.unknown_check()


class LexiconSet:
    """Lexicon documents, checked and compiled, ready to validate data against.

    Build one once and reuse it: construction checks and compiles every definition.
    """

    def __init__(self, documents: Iterable[Any] = ()) -> None:
        self._defs: dict[str, _Def] = {}  # by canonical reference, nsid#name
        self._found: dict[str, _Def] = {}  # by reference as callers spell it
        self._nsids: set[str] = set()
        self._refs: list[tuple[str, str, str]] = []  # (target, where, lexicon) of each reference
        self._fast: dict[str, Fast] = {}  # generated fast paths, by reference as callers spell it
        self._uses: dict[str, int] = {}  # values checked by the reference before a fast path is written
        for document in documents:
            self.add(document)

    @classmethod
    def default(cls) -> LexiconSet:
        """A new set of the documents pdsmem ships: the memory record and pdsmem's extension."""
        from pdsmem.lexicons import all_documents

        return cls(all_documents())

    def add(self, document: Any) -> None:
        """Check ``document`` and add its definitions.

        Raises ``LexiconError``, adding nothing, if it is malformed or its NSID is already here.
        """
        if not isinstance(document, dict):
            raise LexiconError(f"a lexicon document must be an object (got {kind(document)})")
        nsid = document.get("id")
        label = f"lexicon {nsid}" if isinstance(nsid, str) else "lexicon without an id"
        version = document.get("lexicon")
        if version != 1 or type(version) is not int:
            got = kind(version) if not isinstance(version, int) else version
            message = f"must be 1, the language version (got {got}; {label})"
            raise LexiconError(message, path="lexicon")
        if not isinstance(nsid, str) or syntax_problem("nsid", nsid):
            reason = syntax_problem("nsid", nsid) if isinstance(nsid, str) else f"got {kind(nsid)}"
            raise LexiconError(f"must be an NSID: {reason} ({label})", path="id")
        if nsid in self._nsids:
            raise LexiconError(f"lexicon {nsid} is already in this set", path="id")
        if not within_depth(document):  # no lexicon comes near; deeper, reading it would overflow the stack
            raise LexiconError(f"{label} nests objects and arrays deeper than {MAX_DEPTH} levels, the data "
                               "model's limit")
        compiler = _Compiler(self, nsid)
        if not isinstance(document.get("description", ""), str):
            raise compiler.error("description", "must be a string")
        defs = document.get("defs")
        if not isinstance(defs, dict) or not defs:
            raise compiler.error("defs", "must be an object holding at least one definition")
        refs_before = len(self._refs)
        try:
            compiled = {}
            for name, schema in defs.items():
                if not name or "#" in name:
                    raise compiler.error("defs", f"definition name {name!r} is empty or has '#'")
                found = compiler.definition(name, schema, f"defs.{name}")
                compiled[f"{nsid}#{name}"] = replace(found, schema=copy.deepcopy(schema))
        except LexiconError:
            del self._refs[refs_before:]
            raise
        self._defs.update(compiled)
        self._nsids.add(nsid)
        self._fast.clear()  # a reference the fast paths could not resolve may resolve now
        self._uses.clear()

    def __contains__(self, ref: str) -> bool:
        return _full_ref(ref, "") in self._defs

    def unresolved_refs(self) -> list[str]:
        """References to definitions this set lacks, as ``target (from lexicon at path)``."""
        return [
            f"{_type_name(target)} (from {lexicon} at {where})"
            for target, where, lexicon in self._refs
            if target not in self._defs
        ]

    def errors(self, ref: str, value: Any) -> list[RecordInvalid]:
        """Everything wrong with ``value`` as data of the definition ``ref`` (``nsid`` or
        ``nsid#name``; a record definition checks a whole record, ``$type`` included)."""
        check = self._definition(ref).check
        assert check is not None  # _definition refuses definitions that describe no data
        return [problem.error() for problem in self._problems(check, value)]

    def validate_record(self, nsid: str, value: Any, *, rkey: str | None = None) -> None:
        """Raise ``RecordInvalid`` for the first problem of ``value`` as a record of ``nsid``,
        or for a record key ``rkey`` (when given) of the wrong type."""
        found = self._definition(nsid)
        if found.type != "record":
            message = f"{nsid} is {_a(found.type)} definition, not a record"
            raise LexiconError(message, path=found.where)
        key_type = found.record_key or "any"
        if rkey is not None:
            if key_type in _KEY_FORMATS:
                reason = syntax_problem(_KEY_FORMATS[key_type], rkey)
            else:
                reason = None if rkey == key_type[8:] else f"must be {key_type[8:]!r}"
            if reason:
                raise RecordInvalid(f"record key {rkey!r:.80} is not a valid {key_type}: {reason}")
        if self._fast_path(nsid)(value):  # the record and its whole-record data check
            return
        self._raise_first(found.check, value)
        # A record is one DAG-CBOR block: its nesting counts from the record itself, which the
        # per-property data checks (each counting from its own value) cannot see.
        problems = checks.data_problems(value)
        if problems:
            raise problems[0].error()

    def validate_value(self, ref: str, value: Any) -> None:
        """Raise ``RecordInvalid`` for the first problem of ``value`` as data of ``ref``
        (``nsid`` for a main definition, or ``nsid#name``)."""
        check = self._definition(ref).check
        assert check is not None  # _definition refuses definitions that describe no data
        if not self._fast_path(ref)(value):
            self._raise_first(check, value)

    def _raise_first(self, check: Check, value: Any) -> None:
        problems = self._problems(check, value)
        if problems:
            raise problems[0].error()

    def validate_params(self, nsid: str, params: dict[str, Any]) -> None:
        """Raise ``RecordInvalid`` if typed XRPC ``params`` do not fit the endpoint ``nsid``."""
        check = self._definition(nsid, endpoint=True).params
        self._raise_first(check or checks.object_check({}, [], frozenset()), params)

    @staticmethod
    def _problems(check: Check, value: Any) -> Problems:
        try:
            return check(value) or []
        except RecursionError:
            return checks.fail("is nested too deeply to validate")

    def _definition(self, ref: str, endpoint: bool = False) -> _Def:
        found = self._found.get(ref)
        if found is None and not ref.startswith("#"):
            found = self._defs.get(_full_ref(ref, ""))
        if found is None:
            raise LexiconError(f"no lexicon definition {ref!r} in this set")
        if endpoint != (found.type in _ENDPOINTS):
            wanted = "an endpoint" if endpoint else "a data"
            raise LexiconError(f"{ref} is {_a(found.type)} definition, not {wanted} definition")
        if not endpoint and found.check is None:
            raise LexiconError(f"{ref} is {_a(found.type)} definition, which describes no data")
        self._found[ref] = found
        return found

    def _fast_path(self, ref: str) -> Fast:
        """The generated "certainly valid" test of the (already found) definition ``ref``,
        written once the definition has checked ``FAST_WARM_UP`` values (``lexicon_fast``): until
        then the reference checks them, as it checks every value the fast path leaves to it."""
        fast = self._fast.get(ref)
        if fast is None:
            uses = self._uses[ref] = self._uses.get(ref, 0) + 1
            if uses <= FAST_WARM_UP:
                return _never_certain
            fast = self._fast[ref] = fast_check(_full_ref(ref, ""), self._lookup)
        return fast

    def _lookup(self, ref: str, base: str) -> tuple[str, str, dict] | None:
        """``lexicon_fast.Lookup``: the definition a schema of the document ``base`` refers to."""
        full = _full_ref(ref, base)
        found = self._defs.get(full)
        return None if found is None or found.schema is None else (full, found.type, found.schema)

    def _resolver(self, target: str, where: str, lexicon: str, union: bool) -> Check:
        """A checker that looks the definition ``target`` up the first time it is used."""
        resolved: list[Check] = []

        def check(value: Any) -> Problems | None:
            if not resolved:
                resolved.append(self._target(target, where, lexicon, union))
            return resolved[0](value)

        return check

    def _target(self, target: str, where: str, lexicon: str, union: bool) -> Check:
        found = self._defs.get(target)
        if found is None:
            raise LexiconError(
                f"reference {_type_name(target)!r} cannot be resolved: no such definition in "
                f"this set (lexicon {lexicon})",
                path=where,
            )
        usable = ("object", "record") if union else _DATA_TYPES + ("record",)
        if found.check is None or found.type not in usable:
            raise LexiconError(
                f"{'a union' if union else 'a ref'} cannot point to the {found.type} "
                f"{_type_name(target)!r} (lexicon {lexicon})",
                path=where,
            )
        return found.check

    def _open_variant(self, type_name: str) -> Check:
        """The checker for an open-union value whose ``$type`` is not among the union's refs."""
        found = self._defs.get(_full_ref(type_name, ""))
        if found is not None and found.type in ("object", "record") and found.check:
            return found.check
        return checks.data_problems


def _a(word: str) -> str:
    """``word`` with its indefinite article: "an object", "a record"."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _never_certain(value: Any) -> bool:
    """The fast path's answer before one is written (``LexiconSet._fast_path``): leave the value
    to the reference."""
    return False
