"""The learned layer: how likely a text is to tell a secret, by a logistic regression over its words,
their shapes and the letters of its values, learned from the gate's tuning corpora.

The rule layers read a secret by its label and its form. On the texts of a writer they were never
tuned on, what they miss is mostly a secret told in words no rule names ("j'utilise le même partout
: mirabelle54", I use the same one everywhere): each round of rules lifted its own corpus by ten
points and the held-out corpora by a tenth of one (docs/reliability.md, "The learned layer"). A
model of the words around a value and of the value's form reaches further. It is asked last, of a
text no rule refuses, and only adds refusals; it refuses only a sentence that holds a value a
password could be (``may_refuse``), and such a text is named by ``REASON`` alone.

What it reads (``features``):

- ``w:`` each word (``\\w+``) and each run of signs, in lower case;
- ``s:`` the shape of each whitespace-separated token: capitals ``A``, other letters ``a``, digits
  ``0``, signs as they are, a run of four or more capitals, letters or digits as one and ``+``
  (``Snoopy2019!`` is ``Aa+0+!``); ``ws:`` and ``sw:`` a token's shape with the word before it
  and after it (``is Aa+0+!``): a value's form where it is told;
- ``c:`` the three-letter pieces of each token that is not all letters (``sno``, ``y20``, ``19!``).

A text's score is ``1 / (1 + e^-z)``, ``z = intercept + Σ weight·idf / √(Σ idf²)`` over the
features of the text the model knows, each once (scikit-learn's ``TfidfVectorizer`` with
``binary`` and ``LogisticRegression``, which ``scripts/train_privacy_model.py`` fits and
checks this scorer against). The model is the package's data, ``learned_model.json.gz``: the
threshold, the intercept and each feature's idf and weight, loaded on first use. Pure: no I/O but
reading that file.
"""

from __future__ import annotations

import math
import os
import unicodedata
from typing import Any

from pdsmem.mapping.privacy.plain import lazy, may_hide, plain_form, without_invisible

REASON = "looks like a secret told in words (the learned layer's score"  # then where, and ")"
MODEL_FILE = "learned_model.json.gz"


class _Classes(dict[int, str]):
    """A character's class for a token's shape, for ``str.translate``: ``A`` a capital, ``a``
    another letter (of any script), ``0`` a digit (of any script), any other character itself.
    Filled as characters are seen."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        kind = "A" if char.isupper() else "0" if char.isdigit() else "a" if char.isalpha() or char.isnumeric() else char
        self[code] = kind
        return kind


_CLASSES = _Classes()
# the same classes for ASCII text, as bytes.translate takes them (twenty times faster)
_ASCII_CLASSES = bytes(ord(_CLASSES[code]) if code < 128 else code for code in range(256))
_WORD_OR_SIGNS = lazy(r"\w+|[^\w\s]+")
# a run of four or more of a class, as the class and "+" (three literal passes: a third of the time
# of one pattern with a backreference)
_LONG_RUNS = tuple((lazy(kind + "{4,}").sub, kind + "+") for kind in "aA0")


def shapes(text: str) -> list[str]:
    """The shape of each whitespace-separated token of ``text`` (``Snoopy2019!`` → ``Aa+0+!``)."""
    classes = text.encode().translate(_ASCII_CLASSES).decode() if text.isascii() else text.translate(_CLASSES)
    for shortened, run in _LONG_RUNS:
        classes = shortened(run, classes)
    return classes.split()


def features(text: str) -> list[str]:
    """The features of ``text``, each as often as it occurs (see the module's docstring)."""
    lowered = text.lower()
    found = ["w:" + word for word in _WORD_OR_SIGNS.findall(lowered)]
    tokens, forms = lowered.split(), shapes(text)
    found += ["s:" + form for form in forms]
    found += ["ws:" + token + " " + form for token, form in zip(tokens, forms[1:])]
    found += ["sw:" + form + " " + token for form, token in zip(forms, tokens[1:])]
    for token in tokens:
        if not token.isalpha():
            padded = " " + token + " "
            found += ["c:" + padded[at:at + 3] for at in range(len(padded) - 2)]
    return found


class Model:
    """A fitted model: ``threshold`` (a score at or above it refuses), ``intercept``, and each
    known feature's idf and weight. A text's ``x`` is its features' idf, each counted once however
    often it occurs (scikit-learn's ``binary=True``)."""

    def __init__(self, threshold: float, intercept: float, known: dict[str, tuple[float, float]]) -> None:
        self.threshold = threshold
        self.intercept = intercept
        self.known = known
        # what a feature found once adds to the sum and to the square of the norm
        self._weighed = {feature: idf * weight for feature, (idf, weight) in known.items()}
        self._squared = {feature: idf * idf for feature, (idf, _) in known.items()}
        self._z_threshold = math.log(threshold / (1 - threshold))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        names, idfs, weights = data["features"], data["idf"], data["weight"]
        return cls(data["threshold"], data["intercept"], dict(zip(names, zip(idfs, weights))))

    def logit(self, text: str) -> float:
        """``z``: the score's log-odds."""
        known = self._weighed.keys() & set(features(text))  # (the few of its features the model knows)
        squares = sum(map(self._squared.__getitem__, known))
        if not squares:
            return self.intercept
        return self.intercept + sum(map(self._weighed.__getitem__, known)) / math.sqrt(squares)

    def likeliest_value(self, tokens: list[str]) -> int:
        """The place in ``tokens`` of the one, among those a password could be, whose own
        features (its words, its shape beside the words around it, its pieces) weigh most."""
        lowered, forms = [token.lower() for token in tokens], shapes(" ".join(tokens))
        weighed = self._weighed

        def weight(at: int) -> float:
            own = features(tokens[at])
            if at > 0:
                own.append("ws:" + lowered[at - 1] + " " + forms[at])
            if at + 1 < len(tokens):
                own.append("sw:" + forms[at] + " " + lowered[at + 1])
            return sum(weighed.get(feature, 0.0) for feature in set(own))
        values = [at for at, token in enumerate(tokens) if holds_a_value(token)] or list(range(len(tokens)))
        return max(values, key=weight)

    def score(self, text: str) -> float:
        """How likely ``text`` is to tell a secret, from 0 to 1."""
        return 1.0 / (1.0 + math.exp(-self.logit(text)))

    def refuses(self, text: str) -> bool:
        return self.logit(text) >= self._z_threshold


_LOADED: list[Model] = []


def model() -> Model:
    """The package's model, loaded on first use."""
    if not _LOADED:
        import gzip  # (here: a command that maps no memory holding a value needs neither)
        import json

        # (beside this module; not importlib.resources, which imports pathlib into every command)
        with open(os.path.join(os.path.dirname(__file__), MODEL_FILE), "rb") as packed:
            raw = packed.read()
        _LOADED.append(Model.from_json(json.loads(gzip.decompress(raw))))
    return _LOADED[0]


def reason(text: str) -> str | None:
    """``REASON`` and the place of the value it weighs most ("…score; the value is word 7 of 12)"),
    when the layer may refuse ``text`` in one of its ``forms`` (``may_refuse``) and the model's
    score of that form reaches its threshold; or None. A place, never a word: the person finds what
    to remove, and no log holds it. The whole text is scored: an ordinary sentence beside a
    password weighs its words down (docs/reliability.md, "The learned layer", says what that costs
    and why its sentences are not scored apart)."""
    for form in refusable_forms(text):
        if model().refuses(form):
            tokens = form.split()
            return f"{REASON}; the value is word {model().likeliest_value(tokens) + 1} of {len(tokens)})"
    return None


def forms(text: str) -> list[str]:
    """``text`` as the layer reads it: as it is, or, where a character could hide a value from it
    (``plain.may_hide``), as a reader sees it (``plain.plain_form``) and as it is stored with its
    invisible characters dropped (a right-to-left override shows a value reversed, and stores it
    as typed)."""
    if not may_hide(text):
        return [text]
    return list(dict.fromkeys((plain_form(text), without_invisible(text))))


def refusable_forms(text: str) -> list[str]:
    """The ``forms`` of ``text`` the layer may refuse (``may_refuse``): those its score is asked of."""
    return [form for form in forms(text) if may_refuse(form)]


def may_refuse(text: str) -> bool:
    """Whether ``text`` is one the layer refuses when its score says so: a sentence (three
    different words or more: a name, an id, a key, a row of one thing are none, and the model
    learned from sentences) that holds a value a password could be (``holds_a_value``)."""
    return len(set(text.split())) >= 3 and holds_a_value(text)


# what is around a token, not of it
_AROUND = "\"'«»“”‘’()[]{}<>.,;:!?¡¿"
# a sign a password is typed with, between two Latin letters or digits: ASCII's, not a bracket of
# any kind, a dot or a comma ("Forecast.Solar", "a,b"), an "@" (an address's), a "/" (a path's,
# a date's) or a "_" (a name's: "Hotel_Guest", "Strong_Policy"); another script's words hold signs
# of their own ("密码（默认：背面的", password (default: the one on the back), whose full-width forms
# read as ASCII's in the gate's plain form)
_A_SIGN_INSIDE = lazy(r"[A-Za-z0-9][!-'*+\-:;=?\\^`|~]+[A-Za-z0-9]")
_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner: how Malayalam, Persian and others write a word
_LONGEST = 24  # a longer run is a key's, a hash's or an address's: the rules read those by their form
_WORDS_JOINED = lazy(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")  # "well-known", "l'accès"
_A_MEASURE = lazy(r"[0-9]+-(?:bit|byte|char|character|digit|letter|word|second|minute|hour|day|week|month|year)s?")
_OPENING, _CLOSING = "\"'«“‘([{<", "\"'»”’)]}>.,;:"  # (not "!" or "?": "64-bits!" is typed so)
_A_NAMES_SHAPE = lazy(r"[^\W_][\w.-]*")  # letters, digits, ".", "_" and "-": a user's name has no other sign


# what names a user, right before the name (and "is", a colon or "="): "username is jdoe2", "user: jdoe2"
_A_USERS_WORD = lazy(r"(?i)user(?:name|id)?|login-?name|handle|nick(?:name)?|benutzer(?:name)?|utilisateur|usuario|utente"
                     r"|gebruiker(?:snaam)?|användarnamn|brugernavn|brukernavn|käyttäjä(?:tunnus)?|użytkownik|kullanıcı")
_IS = frozenset(("is", "was", ":", "=", "ist", "est", "es", "è", "é", "är", "er", "jest", "on"))


def _named_a_users(tokens: list[str], at: int) -> bool:
    """Whether ``tokens[at]`` comes right after a word that names a user (and "is" or a colon)."""
    before = tokens[max(0, at - 2):at]
    if before and before[-1].lower() in _IS:
        before = before[:-1]
    return bool(before) and _A_USERS_WORD.fullmatch(before[-1].strip(_AROUND)) is not None


def holds_a_value(text: str) -> bool:
    """Whether a token of ``text`` could be a password: four to 24 characters, a letter among
    them, and a digit or a sign typed inside (an exclamation mark after a word ends a sentence:
    "we won the match!"). The model reads the words around a secret, and what it refuses must hold
    one: a number alone ("door codes such as 2589", a phone's) is the rules' to read, and a sentence about a password with none ("Disney+ şifresi
    annemde", the password is at mum's) tells none. A capital inside a word is a name's ("d'API",
    "GitHub"), and so is a word no list knows (the word for a password in a language the lists do
    not have: "Nuwe wagwoord: (see the panel)")."""
    tokens = text.split()
    for at, token in enumerate(tokens):
        if token.isalpha():
            continue  # (most are words: letters alone hold no digit and no sign)
        value = token.strip(_AROUND)
        if not value.isascii():  # a vowel sign, a virama, a joiner are of their word, no sign inside it ("पासवर्ड")
            value = "".join(char for char in value if unicodedata.category(char)[0] != "M" and char not in _JOINERS)
        if not 4 <= len(value) <= _LONGEST or not any(map(str.isalpha, value)):
            continue
        if not (any(map(str.isdigit, value)) or _A_SIGN_INSIDE.search(value) and not _WORDS_JOINED.fullmatch(value)):
            continue
        if _A_MEASURE.fullmatch(token.strip(_OPENING).rstrip(_CLOSING)):
            continue  # a number and its unit, as said of a key: "4096-bit" (not "4096-Bits", "64-bits!")
        if _A_NAMES_SHAPE.fullmatch(value) and _named_a_users(tokens, at):
            continue  # a user's name: "My GitHub username is jdoe2" (not "user admin:R0uter!99", a pair)
        return True
    return False
