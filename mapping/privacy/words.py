"""Whether a word is a word: the gate's test for a made-up value (``tigerbella``, ``qzmptrhv``).

A password said in a sentence is often one lowercase word with no digit or sign in it (``Das
WLAN-Passwort lautet tigerbella``). What tells it from a word that describes the password (``the
password is expired``, ``Das Passwort ist abgelaufen``) is that nobody writes it anywhere else: it
is in no language's list of words. The lists are ``wordfreq``'s: the small ones of each language
(the words with a frequency of at least one in a million; each loads in about ten milliseconds),
and English's large one (a tenth of a second), since memories are written in English most and
what an English note calls a password ("parsed", "rotated") is often a rarer word. Each list loads
on first use. Pure lookups, no I/O beyond reading the package's own data.
"""

from __future__ import annotations

import functools

# the languages written in Latin letters that the gate reads passwords in (docs/reliability.md,
# "The privacy gate"); a made-up value is in Latin letters whatever the sentence's language
LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "nb", "fi", "cs", "tr", "hu", "ro", "id")


# where a common word is looked up, in this order: each language's small list, then English's large one
_LISTS = tuple((language, "small") for language in LANGUAGES) + (("en", "large"),)
_LOADED: list[dict[str, float]] = []  # those of ``_LISTS`` loaded so far, in its order


@functools.lru_cache(maxsize=4096)
def is_common(word: str) -> bool:
    """Whether ``word`` (letters only) is a common word of one of ``LANGUAGES``: in one of their
    lists, with a frequency above zero."""
    word = word.lower()
    if not (word.isascii() and word.isalpha()):
        from wordfreq import zipf_frequency  # its lists load on first use

        return (any(zipf_frequency(word, language, wordlist="small") > 0 for language in LANGUAGES)
                or zipf_frequency(word, "en", wordlist="large") > 0)
    # a word of ASCII letters is its own token in every one of these languages, so it is common
    # when a list holds it: looked up directly, six times faster than ``zipf_frequency``, which
    # tokenises it first (tests/test_privacy_words.py holds the two to the same answers)
    for index, listed in enumerate(_LISTS):
        if index == len(_LOADED):
            from wordfreq import get_frequency_dict

            _LOADED.append(get_frequency_dict(*listed))
        if word in _LOADED[index]:
            return True
    return False


def made_up(value: str) -> bool:
    """Whether ``value`` is one lowercase run of 6 to 30 letters that is no common word in any of
    ``LANGUAGES``: ``tigerbella``, ``otterbruno``, ``qzmptrhv``; not ``expired``, ``abgelaufen``,
    ``Lincoln`` (a capital), ``bitwarden`` when it follows no password word (callers check that)."""
    return 6 <= len(value) <= 30 and value.isalpha() and value.isascii() and value.islower() and not is_common(value)


@functools.lru_cache(maxsize=4096)
def everyday(word: str) -> bool:
    """Whether ``word`` is one of the most frequent words of one of ``LANGUAGES`` (a Zipf frequency
    of 5.5 or more: "than", "before", "dans", "mon", "never"): what a sentence about a password
    holds and a passphrase of plain words ("correct horse battery staple") does not."""
    from wordfreq import zipf_frequency

    word = word.lower()
    return any(zipf_frequency(word, language, wordlist="small") >= 5.5 for language in LANGUAGES)
