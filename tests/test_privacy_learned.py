"""The privacy gate's learned layer (mapping/privacy/learned.py; docs/reliability.md, "The learned
layer"): its features, what it may refuse, its model file, and how the gate asks it."""

from __future__ import annotations

import gzip
import json
import unicodedata
from importlib import resources

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from devkit.events import fact

from pdsmem.cli import cli
from pdsmem.mapping import privacy
from pdsmem.mapping.privacy import learned


def test_a_tokens_shape_names_its_classes_and_shortens_long_runs():
    assert learned.shapes("Snoopy2019! is x") == ["Aa+0+!", "aa", "a"]
    assert learned.shapes("ÉCOLE été ٣٤٥٦٧") == ["A+", "aaa", "0+"]  # capitals, letters and digits of any script


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_shapes_are_the_shapes_of_any_script(text):
    # the fast path (bytes.translate) and the one for any script give the same shapes
    slow = text.translate(learned._CLASSES)
    for shortened, run in learned._LONG_RUNS:
        slow = shortened(run, slow)
    assert learned.shapes(text) == slow.split()


def test_the_features_of_a_text():
    assert learned.features("pw is Tr0mbone!") == [
        "w:pw", "w:is", "w:tr0mbone", "w:!",
        "s:aa", "s:aa", "s:Aa0a+!",
        "ws:pw aa", "ws:is Aa0a+!",
        "sw:aa is", "sw:aa tr0mbone!",
        "c: tr", "c:tr0", "c:r0m", "c:0mb", "c:mbo", "c:bon", "c:one", "c:ne!", "c:e! ",
    ]


@pytest.mark.parametrize("text", ["hunter22 is it", "the key is Snoopy2019!", "p#ss for the shed", "it is pump~kin"])
def test_a_value_a_password_could_be(text):
    assert learned.holds_a_value(text)


@pytest.mark.parametrize("text", [
    "Avoid door codes such as 2589, 1397 or 7319.",  # numbers alone are the rules' to read
    "Disney+ şifresi annemde",  # about a password, with none
    "Forecast.Solar API 密钥（可选）: (see the panel)",  # a dot between words, another script's signs
    "പുതിയ പാസ്‌വേര്‍ഡ്: (see the panel)",  # a joiner inside a word
    "Token d'API: (see the panel)",  # a capital inside a word is a name's
    "we won the volleyball match!",  # an exclamation mark ends a sentence
    "mail jdoe@example.com or see docs/setup about it",  # an address, a path
    "sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC is the digest",  # too long
    "The private key is 4096-bit RSA",  # a number and its unit (the layer refused it)
    "My GitHub username is jdoe2",  # a user's name (the layer refused it)
    "the CI user: deploy2 runs the nightly job",
    "Passwords need 12-characters and a 2-digit suffix",
])
def test_no_value_a_password_could_be(text):
    assert not learned.holds_a_value(text)


@pytest.mark.parametrize("text", [
    # a review's secrets the first form of the two exclusions (a unit, a user's name) let through
    "The wifi password at the cabin is 64-bits! with the exclamation mark.",
    "My bank login password is 4096-Bits, capital B.",
    "Het wachtwoord van mijn mail is 52-Weeks",
    "Guest Wi-Fi is HomeNet, key 256-Bit! (case matters)",
    "Login for the router: user admin:R0uter!99",
    "ssh in as user root:Toor#2024 on the staging box",
    "The password is the same as the username: Pa55w0rd!x",
])
def test_a_password_shaped_as_a_unit_or_after_a_word_for_a_user_is_still_refused(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", ["My GitHub username is jdoe2", "user: alice42 on the staging box",
                                  "Mijn gebruikersnaam is pieter77 op het forum.", "The private key is 4096-bit RSA"])
def test_a_users_name_and_a_keys_size_are_no_secret(text):
    assert privacy.sensitive_reason(text) is None


def _holds_a_value_read_plainly(text):
    # holds_a_value without its shortcuts: every token, every character asked
    tokens = text.split()
    for at, token in enumerate(tokens):
        value = token.strip(learned._AROUND)
        value = "".join(char for char in value if not unicodedata.category(char).startswith("M")
                        and char not in learned._JOINERS)
        if 4 <= len(value) <= learned._LONGEST and any(char.isalpha() for char in value) and not (
                learned._A_MEASURE.fullmatch(value)) and not learned._named_a_users(tokens, at) and (
                any(char.isdigit() for char in value)
                or learned._A_SIGN_INSIDE.search(value) and not learned._WORDS_JOINED.fullmatch(value)):
            return True
    return False


@given(st.lists(st.sampled_from(["pass", "word", "Kumquat_77", "a-b", "x²y", "पासवर्ड", "٣٤٥", "Ⅻ", "!", " ", "\n",
                                 "d'API", "q#rs", "\u200d", "1", "é"]) | st.text(max_size=6), max_size=10).map("".join))
def test_the_value_test_reads_as_it_would_without_its_shortcuts(text):
    assert learned.holds_a_value(text) == _holds_a_value_read_plainly(text)


@pytest.mark.parametrize("text", ["DE89 " * 300, "GB29 NWBK " * 100, "hunter22", "user.notes hunter22"])
def test_a_name_an_id_or_a_row_of_one_thing_is_no_sentence_the_layer_refuses(text):
    assert not learned.may_refuse(text)
    assert learned.reason(text) is None


def test_the_model_is_fitted_on_no_held_out_set():
    import train_privacy_model as train  # (scripts/ is on the tests' path)

    read = train.sets("tune") + train.sets("review")
    assert len(read) > 30 and not any(name.startswith("heldout") for name in read)


def test_the_model_was_fitted_beside_the_rules_and_the_value_test_of_now():
    """The threshold was set on what the rules and the value test said of each tuning text: a change
    that moves either leaves a threshold set for other rules, until the layer is fitted again."""
    import train_privacy_model as train  # (scripts/ is on the tests' path)

    data = json.loads(gzip.decompress(resources.files("pdsmem.mapping.privacy").joinpath(learned.MODEL_FILE).read_bytes()))
    assert data["fitted_beside"] == train.fitted_beside(train.sets("tune")), (
        "the rules or the value test now say otherwise of a tuning text than when the learned layer was "
        "fitted: fit it again (pip install -e '.[train]'; scripts/train_privacy_model.py)")


def test_the_model_file_is_the_packages_data_and_whole():
    data = json.loads(gzip.decompress(resources.files("pdsmem.mapping.privacy").joinpath(learned.MODEL_FILE).read_bytes()))
    assert 0.5 < data["threshold"] < 1
    assert data["features"] == sorted(set(data["features"]))
    assert len(data["features"]) == len(data["idf"]) == len(data["weight"]) > 1000
    assert all(idf >= 1 for idf in data["idf"])  # scikit-learn's smoothed idf is at least 1
    model = learned.model()
    assert model.threshold == data["threshold"] and len(model.known) == len(data["features"])


@given(st.text())
def test_a_score_is_a_probability_for_any_text(text):
    model = learned.model()
    score = model.score(text)
    assert 0.0 <= score <= 1.0
    assert model.refuses(text) == (score >= model.threshold) or abs(score - model.threshold) < 1e-9


# leaks the rules miss and the layer catches (from the tuning corpora, which it learned from)
CAUGHT = [
    "tolong ingetin, tab nenek pakai sayangmama99 ya",
    "j'utilise le même partout : mirabelle54",
    "Save this: Hulu - fa1c0n",
    "eBay pw is Tr0mbone.Sunday btw, she keeps forgetting it",
    "Sumarbústaður við Þingvallavatn: lyklabox við pallinn, netið opnast með hraun1966.",
]


# ordinary texts the test suite held as passing that the layer refuses: its price for the leaks it
# catches (docs/reliability.md, "The learned layer"), written down so that a change sees them move
REFUSED = [
    "her tablet runs android13 and needs an update",
    'service: "Backup", schedule: "Daily_03h"',
    # a device or a user named with its number right after a word for a password
    "sudo passwd deploy2",
    "She reset the password for Windows10!",
    "She reset the password for her iPhone15!",
]


@pytest.mark.parametrize("text", CAUGHT + REFUSED)
def test_the_layer_refuses_these_and_no_rule_does(text):
    assert privacy._rules_reason(text) is None
    assert privacy.sensitive_reason(text).startswith(learned.REASON)


@pytest.mark.parametrize("hidden", ["\u200b", "\u00ad", "\u2060", "\u200c", "\u202e"])
def test_an_invisible_character_inside_a_value_hides_it_from_no_layer(hidden):
    # (a review's find: the layer read the text as written; then, in its plain form, a right-to-left
    # override's text reversed, where it is stored as typed)
    text = f"j'utilise le même partout : mira{hidden}belle54 depuis des années"
    assert privacy._rules_reason(text) is None
    assert privacy.sensitive_reason(text).startswith(learned.REASON)


@pytest.mark.parametrize("text", [
    "wifi password is hunter22", "card 4111 1111 1111 1111 exp 12/28", "AKIAQ8EG0RZ1WXYT9JH6 is the key",
])
def test_the_layer_never_changes_what_a_rule_says(text):
    # asked only of a text no rule refuses: it adds refusals, never takes one away or renames it
    assert privacy.sensitive_reason(text) == privacy._rules_reason(text) is not None


@pytest.mark.parametrize("text, place", [
    ("j'utilise le même partout : mirabelle54 depuis des années", "word 6 of 9"),
    ("eBay pw is Tr0mbone.Sunday btw, she keeps forgetting it", "word 4 of 9"),
])
def test_the_layers_reason_names_the_values_place_never_its_words(text, place):
    assert privacy.sensitive_reason(text) == f"{learned.REASON}; the value is {place})"


def test_a_refusal_by_the_layer_names_the_memory_never_its_text():
    secret = "sayangmama99"
    event = fact(31, text=f"tolong ingetin, tab nenek pakai {secret} ya")
    result = CliRunner().invoke(cli, ["convert", "to-record", "--did", "did:plc:ewvi7nxzyoun6zhxrhs64oiz"],
                                input=json.dumps(event) + "\n")
    assert result.exit_code != 0, result.output
    assert learned.REASON in result.stderr
    assert secret not in result.output + result.stderr and "nenek" not in result.stderr
