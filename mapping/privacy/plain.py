"""A text as a reader sees it, so that no invisible or look-alike character hides a secret from
the gate's layers: a zero-width space inside a key, a full-width ``ｐａｓｓｗｏｒｄ``, a control
character, a right-to-left override. Pure functions, no I/O."""

from __future__ import annotations

import re
import sys
import re._constants as _constants  # the parser's own reading of a pattern (required_needles)
import re._parser as _parser
import unicodedata
from collections.abc import Callable, Iterable, Iterator

import ahocorasick

from pdsmem.mapping import compiled_patterns

_is_normalized = unicodedata.is_normalized

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """A regular expression compiled the first time it is used, written as ``re.compile`` is.

    The gate's layers hold about 150 patterns, and compiling them took about 90 ms of the start of
    every command that maps a memory, though ordinary text asks few of them (most checks run only
    where their needles are); those it asks are built from an earlier run's table when one is kept
    (``pdsmem.mapping.compiled_patterns``). ``pattern`` is there at once, so that patterns can be built from
    others; ``search`` and the other methods, once compiled, are the compiled pattern's own (no
    call in between); a method taken before that (``lazy(…).search``) compiles on its first call.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    @property
    def ignores_case(self) -> bool:
        """Whether the pattern is case-insensitive, told without compiling it."""
        return bool(self._flags & re.IGNORECASE) or self.pattern.startswith("(?i)")

    def compiled(self) -> re.Pattern[str]:
        compiled = compiled_patterns.compile(self.pattern, self._flags)  # (from an earlier run's table, when kept)
        for name in _METHODS:
            setattr(self, name, getattr(compiled, name))
        self.flags, self.groups, self.groupindex = compiled.flags, compiled.groups, compiled.groupindex
        if len(self.pattern) > _LONG:  # (a long pattern: see there)
            tried = _TriedWhereItStarts(self, compiled)
            self.search, self.finditer = tried.search, tried.finditer
        return compiled

    def __getattr__(self, name: str):  # only for what is not set yet
        if name in _METHODS:
            return lambda *args, **kwargs: getattr(self.compiled() if name not in self.__dict__ else self, name)(
                *args, **kwargs)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern[:40]!r}…)"


class _TriedWhereItStarts:
    """A long pattern's ``search`` and ``finditer``, which after their first ``WARM_UP`` calls try
    the pattern only where a match can start (``required_starts``: the literals every match starts
    with, found in one pass of an automaton in the text's lower case, which keeps each character
    where it was), not at every place of the text: the same matches, left to right, for an
    alternation of many words in a fraction of the time. A pattern whose matches may start
    otherwise is searched as written."""

    def __init__(self, owner: LazyPattern, compiled: re.Pattern[str]) -> None:
        self._owner, self._compiled, self._left = owner, compiled, WARM_UP
        self._starts: Callable[[str], Iterator[tuple[int, str]]] | None = None
        self._after_a_word: set[str] = set()

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        if self._starts is None and not self._ready() or _NOT_LOWERED in text:
            return self._compiled.search(text, pos, endpos)
        return next(self._matches(text, pos, endpos), None)

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        if self._starts is None and not self._ready() or _NOT_LOWERED in text:
            return self._compiled.finditer(text, pos, endpos)
        return self._matches(text, pos, endpos)

    def _matches(self, text: str, pos: int, endpos: int) -> Iterator[re.Match[str]]:
        """The matches left to right, as ``finditer`` finds them: at the first place at or after the
        last one's end where the pattern matches (every match holds its start: none is empty)."""
        after, match = pos, self._compiled.match
        for at in _places(lowered(text), self._starts, self._after_a_word):  # type: ignore[arg-type]
            if at >= after and (found := match(text, at, endpos)) is not None:
                yield found
                after = found.end()

    def _ready(self) -> bool:
        """Whether the first calls are over and where a match can start is read (once: a pattern whose
        matches may start anywhere is searched as written from then on)."""
        self._left -= 1
        if self._left > 0:
            return False
        starts = required_starts(self._owner.pattern, self._compiled.flags & re.VERBOSE)
        if starts is None or any(_NOT_LOWERED in start for start in starts):
            self._owner.search, self._owner.finditer = self._compiled.search, self._compiled.finditer
            self._left = sys.maxsize  # (and never read again)
            return False
        self._starts, self._after_a_word = _finder(starts)
        return True


# the one letter a case-blind pattern's "ι" matches that ``lowered`` leaves as it is (the combining
# ypogegrammeni, U+0345, which "\w" reads otherwise: ``_FOLDED``): a text that holds it is searched as written,
# and so is a pattern whose starts hold it
_NOT_LOWERED = "\u0345"


def lazy(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, compiled on first use (``LazyPattern``)."""
    return LazyPattern(pattern, flags)

# What prints nothing, or nothing a reader sees inside a word: Unicode's Default_Ignorable_Code_Point
# set (zero-width spaces and joiners, the soft hyphen, bidi marks and controls, variation
# selectors, Hangul fillers, tags...), the blank Braille pattern, and every control character
# but the tab and the line breaks.
_INVISIBLE = lazy(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# Those of them that Python calls printable: what ``str.isprintable`` cannot tell in a text.
_PRINTABLE_INVISIBLE = lazy(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
_LINE_BREAKS = str.maketrans({"\x85": "\n", "\u2028": "\n", "\u2029": "\n"})  # which NFKC keeps
# A right-to-left override shows what follows it in reverse, up to the next bidi control or line.
_OVERRIDDEN = lazy("\u202e([^\u202a-\u202e\u2066-\u2069\n]*)")


# How many lines a process searches with a pattern as written before it builds the faster, factored
# one (``lowered_search``): a factored alternation takes milliseconds to compile, more than a command
# that checks a few texts (``convert`` of one memory) saves.
WARM_UP = 64


class Needles:
    """Which of many substrings ("needles") a text holds: the layers' checks run only where one of
    their needles is.

    The needles are searched at once by an Aho-Corasick automaton (``pyahocorasick``), which reads
    the text once whatever their number: the labelled layer's 750 needles cost about 2.5 µs a text
    that way, a tenth of a regular expression of their shared starts, which ``re`` tries at each
    position. ``any`` tells whether the text holds one; ``found`` which ones, a needle inside
    another (``wort`` in ``kennwort``) and needles that overlap included. The automaton takes
    under a millisecond to build, on first use."""

    def __init__(self, needles: Iterable[str]) -> None:
        self._needles = tuple(dict.fromkeys(needle for needle in needles if needle))  # "" is no needle
        self._iter: Callable[[str], Iterator[tuple[int, str]]] | None = None

    def any(self, text: str) -> bool:
        return bool(self._needles) and next(self._searcher()(text), None) is not None

    def found(self, text: str) -> set[str]:
        if not self._needles:
            return set()
        return {needle for _, needle in self._searcher()(text)}

    def ends(self, text: str) -> Iterator[tuple[int, str]]:
        """Each place a needle ends in ``text`` and the needle (where it starts: the end, less its
        length, plus one)."""
        return self._searcher()(text) if self._needles else iter(())

    def _searcher(self) -> Callable[[str], Iterator[tuple[int, str]]]:
        if self._iter is None:
            automaton = ahocorasick.Automaton()
            for needle in self._needles:
                automaton.add_word(needle, needle)
            automaton.make_automaton()
            self._iter = automaton.iter
        return self._iter


def plain_form(text: str) -> str:
    """``text`` as a reader sees it: NFKC-normalized (full-width and other compatibility forms
    become their plain letters, digits and signs; a no-break space becomes a space), its line
    separators made line breaks, what a right-to-left override shows reversed, and the invisible
    characters (``_INVISIBLE``) dropped. Whitespace stays: the patterns need it."""
    text = unicodedata.normalize("NFKC", text).translate(_LINE_BREAKS)
    if "\u202e" in text:
        text = _OVERRIDDEN.sub(lambda shown: shown[1][::-1], text)
    return without_invisible(text)


def without_invisible(text: str) -> str:
    """``text`` with its invisible characters dropped and nothing else changed: what a right-to-left
    override shows reversed stays as it is stored, where ``plain_form`` reverses it."""
    return _INVISIBLE.sub("", text)


# a decimal digit of another script: Arabic-Indic, Persian, Devanagari, Bengali, Thai, Telugu… (a
# PIN said in the script's own digits, "رمز کارت ۵۲۸۱", which NFKC leaves as they are)
_OTHER_DIGIT = lazy(r"(?![0-9])\d")


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit written 0 to 9 (``۵۲۸۱`` becomes ``5281``)."""
    return _OTHER_DIGIT.sub(lambda digit: str(unicodedata.decimal(digit[0])), text)


def first_hidden(text: str) -> str:
    """`` (the first such character: U+200B ZERO WIDTH SPACE, at position 4)``, naming the first
    character that ``plain_form`` drops or reads otherwise, which the operator may not see."""
    for position, char in enumerate(text):
        if _INVISIBLE.match(char) or ord(char) in _LINE_BREAKS or unicodedata.normalize("NFKC", char) != char:
            name = unicodedata.name(char, "")
            return f" (the first such character: U+{ord(char):04X}{' ' + name if name else ''}, at position {position})"
    return ""



def may_hide(text: str) -> bool:
    """Whether ``plain_form(text)`` can differ from ``text``: it holds a character that is not
    printable (a control or format character, a line break, a tab, a space other than ' '), is
    not NFKC-normalized, or holds one of the invisible characters Python calls printable. C-speed
    checks of the usual text."""
    return not text.isprintable() or not text.isascii() and (
        not _is_normalized("NFKC", text) or _PRINTABLE_INVISIBLE.search(text) is not None)


def lowered_search(pattern: str) -> Callable[[str], bool]:
    """Whether a line holds ``pattern`` (case-insensitive, written in lower case): searched in the
    line's lower case without ``(?i)``, since Python's ``re`` tries a case-insensitive
    alternation of many words at every position of a line, three times slower
    (tests/test_privacy_layers.py holds the two to the same answers)."""
    if not pattern.startswith("(?i)") or re.search(r"(?<!\\)[A-Z]", pattern[4:]):
        raise ValueError(f"not a case-insensitive pattern in lower case: {pattern[:40]}")
    return _LoweredSearch(folded_pattern(pattern[4:]))


class _LoweredSearch:
    """``lowered_search``'s search: the pattern as written for the first ``WARM_UP`` lines, then
    ``factored`` (a third faster, and a few milliseconds more to compile)."""

    def __init__(self, pattern: str) -> None:
        self._pattern = pattern
        self._as_written = LazyPattern(pattern)
        self._factored: Callable[[str], re.Match[str] | None] | None = None
        self._match: Callable[[str, int], re.Match[str] | None] | None = None
        self._holds_a_needle: Callable[[str], bool] | None = None
        self._starts: Callable[[str], Iterator[tuple[int, str]]] | None = None
        self._after_a_word: set[str] = set()
        self._left = WARM_UP

    def __call__(self, line: str) -> bool:
        if self._factored is None:
            if self._left > 0:
                self._left -= 1
                return self._as_written.search(lowered(line)) is not None
            compiled = compiled_patterns.compile(factored(self._pattern))
            self._factored, self._match = compiled.search, compiled.match
            starts = required_starts(self._pattern) if len(self._pattern) > _LONG else None
            if starts is not None:  # where a match can start: tried there only
                self._starts, self._after_a_word = _finder(starts)
            else:
                needles = required_needles(self._pattern)
                self._holds_a_needle = Needles(needles).any if needles else None
        line = lowered(line)
        if self._starts is not None:
            # a match starts where one of the literals every match starts with is (or in the word before
            # it): tried at those places only, not at every place of the line (where an alternation of
            # hundreds of words took 20 µs)
            match = self._match
            return any(match(line, at) for at in _places(line, self._starts, self._after_a_word))
        if self._holds_a_needle is not None and not self._holds_a_needle(line):
            return False  # (most lines hold none of the words: one pass of the automaton, not the search)
        return self._factored(line) is not None


# how long a pattern is before its search tries only the places where a match can start: a short
# one's search costs less than finding them
_LONG = 400


def _finder(starts: dict[str, bool]) -> tuple[Callable[[str], Iterator[tuple[int, str]]], set[str]]:
    """What ``_places`` needs of a pattern's ``required_starts``: where they end in a line, and those a
    word's letters may come before."""
    return Needles(starts).ends, {start for start, word in starts.items() if word}


def _places(line: str, starts: Callable[[str], Iterator[tuple[int, str]]], after_a_word: set[str]) -> list[int]:
    """Where in ``line`` a match can start, in order: where one of the literals every match starts
    with is (``required_starts``, found by ``starts``), and in the word before those that
    ``after_a_word`` holds."""
    found = list(starts(line))
    if not found:
        return []
    if len(found) == 1 and found[0][1] not in after_a_word:
        return [found[0][0] - len(found[0][1]) + 1]
    places, walked = set(), set()
    for end, start in found:
        at = end - len(start) + 1
        places.add(at)
        if start in after_a_word:  # back to its word's start, or to where an earlier walk reached (a word of
            # 48,000 characters that repeats the literal took minutes, walked back from each)
            while at > 0 and at - 1 not in walked and _A_WORDS_CHARACTER(line, at - 1):
                at -= 1
                walked.add(at)
                places.add(at)
    return sorted(places)


def lowered_spans(pattern: str) -> Callable[[str], list[tuple[int, int]]]:
    """Where a line holds ``pattern`` (case-insensitive, written in lower case, as for
    ``lowered_search``): the spans of its matches, found in the line's lower case (which keeps each
    character where it was) by the factored pattern, three times faster than ``(?i)`` as written
    (tests/test_privacy_layers.py holds the two to the same spans)."""
    if not pattern.startswith("(?i)") or re.search(r"(?<!\\)[A-Z]", pattern[4:]):
        raise ValueError(f"not a case-insensitive pattern in lower case: {pattern[:40]}")
    compiled: list[re.Pattern[str]] = []
    starts: list[tuple[Callable[[str], Iterator[tuple[int, str]]], set[str]] | None] = []

    def spans(line: str) -> list[tuple[int, int]]:
        if not compiled:
            written = folded_pattern(pattern[4:])
            compiled.append(compiled_patterns.compile(factored(written)))
            found = required_starts(written) if len(written) > _LONG else None
            starts.append(_finder(found) if found else None)
        line = lowered(line)
        if starts[0] is None:
            return [match.span() for match in compiled[0].finditer(line)]
        # the matches left to right, each tried only where a match can start (``_places``), as finditer
        # finds them: the first place at or after the last match's end where the pattern matches
        spanned, after, match = [], 0, compiled[0].match
        for at in _places(line, *starts[0]):
            if at >= after and (found_here := match(line, at)) is not None:
                spanned.append(found_here.span())
                after = found_here.end()
        return spanned
    return spans


def required_needles(pattern: str) -> frozenset[str] | None:
    """Substrings of which every match of ``pattern`` holds one, read from the pattern (``(?:pin|
    pass)\\s*+code`` gives ``code``; ``pin|pass(?:word)?`` gives ``pin`` and ``pass``), or None when
    some match may hold none (or only one ASCII character). A line that holds none of them cannot
    match: the cheap test before the search (``Needles``). The literals are taken as written, so
    for a pattern matched as it is written, with no case folded (``lowered_search``'s)."""
    try:
        parsed = _parser.parse(pattern)
    except re.error:
        return None
    needles = _required(parsed)
    if not needles or any(len(needle) < 2 and needle.isascii() for needle in needles):
        return None  # (one letter or sign is in most lines; one character of another script, "锁", is not)
    return frozenset(needles)


def required_starts(pattern: str, flags: int = 0) -> dict[str, bool] | None:
    """Literals of which every match of ``pattern`` starts with one, read from the pattern after
    what takes no place (lookarounds, anchors), each with whether a run of word characters may come
    before it (``\\w*kod``): ``(?<![a-z])(?:pin|pass)\\w*`` gives ``pin`` and ``pass``; ``(?:ال)?باس``
    gives ``ال`` and ``باس``; ``m-?pin`` gives ``mpin`` and ``m-pin``. None when a match may start
    otherwise, or with one ASCII character (in most lines). They are in lower case, as ``lowered``
    reads a text (which keeps each character where it was): in a text's lower case, a match can start
    only where one of them is (or in the word before it), whatever the pattern's case."""
    try:
        parsed = _parser.parse(pattern, flags)
    except re.error:
        return None
    starts = _starts(list(parsed))
    if not starts:
        return None
    read: dict[str, bool] = {}
    for start, word in starts.items():  # in lower case, as ``lowered`` reads a text: what a case-blind part
        start = lowered(start)  # of the pattern matches, and more (the pattern, tried there, tells)
        read[start] = read.get(start, False) or word
    if any(len(start) < 2 and start.isascii() for start in read):
        return None
    return read


def _starts(items: list[tuple[object, object]]) -> dict[str, bool] | None:
    """The literals every match of a sequence starts with one of, and whether word characters may
    come before each (``required_starts``), or None."""
    run: set[str] = {""}
    for at, (op, argument) in enumerate(items):
        if run == {""} and _takes_no_place(op, argument):
            continue
        spelled = _literals(op, argument)
        if spelled is not None and len(run) * len(spelled) <= _MOST_STARTS:
            run = {start + more for start in run for more in spelled}
            continue
        if run != {""}:
            # the literals so far start every match, and those an alternation after them starts with
            # (the parser takes the start that alternatives share out of them: "pin|pass" is "p(?:in|ass)")
            # (not when a word's characters may come between them: "ab(\w*cd)" starts with "ab", not "abcd")
            after = _starts([(op, argument)]) if op in (_constants.SUBPATTERN, _constants.BRANCH) else None
            if after and not any(after.values()) and len(run) * len(after) <= _MOST_STARTS:
                return {start + more: False for start in run for more in after}
            break
        if op is _constants.SUBPATTERN:  # (its flags too: the starts are looked for in lower case)
            return _starts(list(argument[3]))  # type: ignore[index]
        if op is _constants.ATOMIC_GROUP:
            return _starts(list(argument))  # type: ignore[arg-type]
        if op is _constants.BRANCH:
            alternatives = [_starts(list(alternative)) for alternative in argument[1]]  # type: ignore[index]
            if not all(alternatives):
                return None
            merged: dict[str, bool] = {}
            for alternative in alternatives:
                for start, word in alternative.items():  # type: ignore[union-attr]
                    merged[start] = merged.get(start, False) or word
            return merged
        if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
            least, _most, inner = argument  # type: ignore[misc]
            if list(inner) == _A_WORD_CHARACTER:  # "\w*kod", "\w+tür": a word's characters, then the literals
                after = _starts(items[at + 1:])
                return {start: True for start in after} if after else None
            first = _starts(list(inner))
            if least >= 1 or first is None:
                return first
            rest = _starts(items[at + 1:])  # (a repeat that may not be there: a match starts either way)
            return {start: first.get(start, False) or rest.get(start, False) for start in {*first, *rest}} if rest else None
        return None
    return {start: False for start in run} if "" not in run else None


def _literals(op: object, argument: object) -> list[str] | None:
    """The strings an item matches when it is literals alone: a literal, a small class of them, a
    group or an alternation of literal sequences, or one of them made optional (``-?``)."""
    spelled = _spelled(op, argument)
    if spelled is not None:
        return spelled
    if op is _constants.SUBPATTERN:
        return _sequence_literals(list(argument[3]))  # type: ignore[index]
    if op is _constants.BRANCH:
        strings: list[str] = []
        for alternative in argument[1]:  # type: ignore[index]
            spelled_out = _sequence_literals(list(alternative))
            if spelled_out is None:
                return None
            strings += spelled_out
        return strings if len(strings) <= _MOST_SPELLINGS else None
    if op in (_constants.MAX_REPEAT, _constants.POSSESSIVE_REPEAT, _constants.MIN_REPEAT) and argument[:2] == (0, 1):  # type: ignore[index]
        inner = _sequence_literals(list(argument[2]))  # type: ignore[index]
        return None if inner is None else ["", *inner]
    return None


def _sequence_literals(items: list[tuple[object, object]]) -> list[str] | None:
    strings = [""]
    for op, argument in items:
        spelled = _literals(op, argument)
        if spelled is None or len(strings) * len(spelled) > _MOST_SPELLINGS:
            return None
        strings = [start + more for start in strings for more in spelled]
    return strings


_A_WORD_CHARACTER = list(_parser.parse(r"[\w]"))  # how the parser reads "\w" alone
_A_WORDS_CHARACTER = re.compile(r"\w").match


def _takes_no_place(op: object, argument: object) -> bool:
    """Whether an item of a pattern matches only the empty string: a lookaround, an anchor, a group
    or an alternation of them."""
    if op in (_constants.ASSERT, _constants.ASSERT_NOT, _constants.AT):
        return True
    if op is _constants.SUBPATTERN:
        return all(_takes_no_place(*item) for item in argument[3])  # type: ignore[index]
    if op is _constants.BRANCH:
        return all(alternative and all(_takes_no_place(*item) for item in alternative)
                   for alternative in argument[1])  # type: ignore[index]
    return False


# how many literals a pattern's starts may be spelled as before they are cut at a shorter start
_MOST_STARTS = 4096


def _leading(items: Iterable[tuple[object, object]]) -> set[str]:
    """The literal strings a sequence starts with (one of them), or none."""
    starts: set[str] = {""}
    for op, argument in items:
        spelled = _spelled(op, argument)
        if spelled is None or len(starts) * len(spelled) > _MOST_SPELLINGS:
            break
        starts = {start + char for start in starts for char in spelled}
    return starts if "" not in starts else set()


# how many spellings a run of literals may have before it is cut ("k[óo]d" has two)
_MOST_SPELLINGS = 16


def _spelled(op: object, argument: object) -> list[str] | None:
    """The characters a literal or a small class of literals ("[óo]") matches, or None."""
    if op is _constants.LITERAL:
        return [chr(argument)]  # type: ignore[arg-type]
    if op is _constants.IN and all(member is _constants.LITERAL for member, _ in argument) and len(argument) <= 4:  # type: ignore[attr-defined]
        return [chr(char) for _, char in argument]  # type: ignore[attr-defined]
    return None


def _required(items: Iterable[tuple[object, object]]) -> set[str] | None:
    """The needles of a sequence: those of its item whose shortest needle is longest, where a run of
    literal characters (a small class of them spells it more ways) is one item, and a group, an
    alternation (if every alternative has needles) and a repeat of at least once give theirs;
    other classes, anchors and lookarounds give none."""
    candidates: list[set[str]] = []
    run: set[str] = {""}
    for op, argument in items:
        spelled = _spelled(op, argument)
        if spelled is not None and len(run) * len(spelled) <= _MOST_SPELLINGS:
            run = {start + char for start in run for char in spelled}
            continue
        before = run if "" not in run else set()
        if before:
            candidates.append(before)
        run = {""}
        if spelled is not None:  # a class that would spell the run too many ways starts a new one
            run = set(spelled)
            continue
        found: set[str] | None = None
        if op is _constants.SUBPATTERN:
            _group, add_flags, del_flags, inner = argument  # type: ignore[misc]
            found = None if add_flags or del_flags else _required(inner)
        elif op is _constants.BRANCH:
            alternatives = [_required(alternative) for alternative in argument[1]]  # type: ignore[index]
            found = set().union(*alternatives) if all(alternatives) else None  # type: ignore[arg-type]
            starts = [_leading(alternative) for alternative in argument[1]]  # type: ignore[index]
            if before and all(starts) and len(before) * sum(map(len, starts)) <= _MOST_SPELLINGS * 8:
                # the literals before it and each alternative's first ones, as one: the parser takes
                # the start the alternatives share out of them ("pin|pass" is "p(?:in|ass)")
                candidates.append({first + start for first in before for each in starts for start in each})
        elif op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT):
            least, _most, inner = argument  # type: ignore[misc]
            found = _required(inner) if least >= 1 else None
        elif op is _constants.ATOMIC_GROUP:
            found = _required(argument)  # type: ignore[arg-type]
        if found:
            candidates.append(found)
    if "" not in run:
        candidates.append(run)
    return max(candidates, key=lambda needles: (min(map(len, needles)), -len(needles))) if candidates else None


def factored(pattern: str) -> str:
    """``pattern`` with the first letter of its alternatives taken out where they share it
    (``pin|pass|door`` becomes ``p(?:in|ass)|door``), in the pattern itself and in each ``(?:…)``
    group with no quantifier after it: ``re`` tries every alternative at every position of a
    line, so an alternation of many words costs a third less this way. The alternatives' order
    changes, so this is only for a search whose answer is whether it matches (``lowered_search``;
    tests/test_privacy_layers.py holds those to the pattern as written). Other groups (lookarounds,
    captures, flags) are kept as written; a pattern that refers back to a group is returned as it
    is (taking a letter out of an alternative that holds a capture would renumber the groups)."""
    if re.search(r"\\[1-9]|\(\?P=", pattern):
        return pattern
    text, end = _alternation(pattern, 0)
    if end != len(pattern):
        raise ValueError(f"unbalanced pattern: {pattern[:40]}")
    return text


def _alternation(pattern: str, at: int) -> tuple[str, int]:
    """The alternation from ``at`` to the ``)`` that closes it (or the end), factored, and where it
    ends."""
    alternatives: list[list[str]] = [[]]
    while at < len(pattern) and pattern[at] != ")":
        if pattern[at] == "|":
            alternatives.append([])
            at += 1
        elif pattern.startswith("(?:", at):
            inner, close = _alternation(pattern, at + 3)
            quantified = pattern[close + 1:close + 2] in ("?", "*", "+", "{")
            alternatives[-1].append("(?:" + (pattern[at + 3:close] if quantified else inner) + ")")
            at = close + 1
        else:
            end = _atom_end(pattern, at)
            alternatives[-1].append(pattern[at:end])
            at = end
    return _joined(alternatives), at


def _atom_end(pattern: str, at: int) -> int:
    """Where the atom at ``at`` ends: an escape, a class, a group kept whole, or one character."""
    char = pattern[at]
    if char == "\\":
        return at + 2
    if char == "[":
        at += 2 if pattern.startswith("[^", at) else 1
        at += 1 if pattern[at] == "]" else 0  # a "]" first is a member
        while pattern[at] != "]":
            at += 2 if pattern[at] == "\\" else 1
        return at + 1
    if char == "(":
        depth = 0
        while True:
            if pattern[at] in "\\[":
                at = _atom_end(pattern, at)
                continue
            depth += {"(": 1, ")": -1}.get(pattern[at], 0)
            at += 1
            if depth == 0:
                return at
    return at + 1


def _joined(alternatives: list[list[str]]) -> str:
    by_first: dict[object, list[list[str]]] = {}
    for number, atoms in enumerate(alternatives):
        shared = (atoms and len(atoms[0]) == 1 and atoms[0] not in ".^$()[]{}|?*+\\"
                  and (len(atoms) == 1 or atoms[1][0] not in "?*+{"))
        by_first.setdefault(atoms[0] if shared else number, []).append(atoms[1:] if shared else atoms)
    parts = []
    for first, rests in by_first.items():
        if isinstance(first, int):
            parts.append("".join(rests[0]))
        elif len(rests) == 1:
            parts.append(first + "".join(rests[0]))
        else:
            parts.append(first + "(?:" + _joined(rests) + ")")
    return "|".join(parts)


def der_inside(body: str) -> bytes | None:
    """What a DER structure's outer SEQUENCE holds, from the first characters of its body in base64
    (or base64url) as a PEM file or a note has it: the bytes after the SEQUENCE's tag and length,
    or None when the body is no SEQUENCE. Enough to tell a private key's body (a version number
    first) from a public key's or a certificate's (a SEQUENCE or a modulus first)."""
    import base64
    import binascii

    head = body[:32].replace("-", "+").replace("_", "/")
    try:
        data = base64.b64decode(head[:len(head) - len(head) % 4])
    except (binascii.Error, ValueError):
        return None
    if data[:1] != b"\x30" or len(data) < 4:
        return None
    return data[2 + (data[1] - 0x80 if data[1] > 0x80 else 0):]  # (a long form's length bytes skipped)


def lowered(text: str) -> str:
    """``text`` in lower case as ``(?i)`` reads it, each character where it was (the one letter
    that ``str.lower`` makes two, 'İ', is folded first, and the letters ``(?i)`` takes as one are
    made one after: ``_folded``). A pattern searched in it is folded alike (``folded_pattern``).
    The last text lowered is kept: a text's checks ask for it a dozen times."""
    global _last_lowered
    last = _last_lowered
    if text == last[0]:
        return last[1]
    low = _folded(_folded(text).lower())
    _last_lowered = (text, low)  # (one tuple, swapped whole: a thread reads a text and its own lower case)
    return low


_last_lowered = ("", "")


def folded_pattern(pattern: str) -> str:
    """``pattern`` (in lower case) with the letters ``(?i)`` takes as one made one, as ``lowered``
    makes them in a text: "κωδικός" holds a final sigma, which ``(?i)`` takes for "σ"."""
    # (every letter it folds is not ASCII, and few patterns hold one: translating every non-ASCII
    # pattern and needle through the table cost about 1.5 ms of importing the gate, 4% of it)
    return pattern if pattern.isascii() or not _FOLDABLE(pattern) else pattern.translate(_FOLDED)


# the letters ``(?i)`` takes for a Latin one that ``str.lower`` keeps apart (Turkish dotted and
# dotless i, the long s, the Kelvin sign)
_FOLDED = str.maketrans({"İ": "i", "ı": "i", "ſ": "s", "\u212a": "k",
                         # and the Cyrillic letters' variant forms (U+1C80 to U+1C88), which (?i) reads as the letters
                         "\u1c80": "в", "\u1c81": "д", "\u1c82": "о", "\u1c83": "с", "\u1c84": "т", "\u1c85": "т",
                         "\u1c86": "ъ", "\u1c87": "ѣ", "\u1c88": "ꙋ",
                         # and the Greek letters' variant forms, the final sigma and the micro sign (the rest of
                         # Python's own table of such letters, re._casefix): "ϰωδικός", "ςυνθηματικό"
                         "ς": "σ", "ϐ": "β", "ϵ": "ε", "ϑ": "θ", "\u1fbe": "ι", "ϰ": "κ", "µ": "μ",
                         "ϖ": "π", "ϱ": "ρ", "ϕ": "φ", "ẛ": "ṡ", "\u1fd3": "\u0390", "\u1fe3": "\u03b0",
                         "\ufb05": "\ufb06"})
# (not the combining ypogegrammeni, U+0345: "\w" takes "ι" and not it, so that folding it changes
# where a word ends)
_FOLDABLE = re.compile("[İıſ\u212a\u1c80-\u1c88ςϐϵϑ\u1fbeϰµϖϱϕẛ\u1fd3\u1fe3\ufb05]").search


def _folded(line: str) -> str:
    return line if line.isascii() or not _FOLDABLE(line) else line.translate(_FOLDED)
