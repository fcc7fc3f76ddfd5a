"""The privacy gate's layers, each on its own (mapping/privacy/, docs/reliability.md "The privacy
gate"), and the gate's figures on the corpora it was tuned on (tests/privacy_corpus/tune*): a
change that loses a caught leak or refuses a benign text there fails here. The held-out corpora
are measured by scripts/bench_privacy.py only, never asserted, so that nobody tunes on them."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import luhn

from pdsmem.mapping import privacy
from pdsmem.mapping.privacy import beside, labelled, output, personal, providers, rules, told, words

CORPORA = Path(__file__).parent / "privacy_corpus"


# -- providers: detect-secrets' plugins and pdsmem's own formats ---------------------------------

@pytest.mark.parametrize("text", [
    "SendGrid: SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
    "glpat-abcdefghij0123456789",
    "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx",
    "the AWS key AKIAQ8EG0RZ1WXYT9JH6",
])
def test_detect_secrets_plugins_find_provider_formats(text):
    assert any(list(plugin.analyze_string(text)) for plugin in providers.plugins())
    assert "provider" in providers.reason(text)


@pytest.mark.parametrize("text, named", [
    ("Slack webhook: https://hooks.slack.com/services/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",
     "looks like a secret (Slack webhook, a provider's format)"),
    ("the bot's token is xoxb-2948573019-1938475620-AbCdEfGhIjKlMnOpQrStUvWx",
     "looks like a Slack token"),
    ("Backup codes for Google: 8142-5531", "looks like 2FA backup or one-time codes"),
])
def test_a_refusal_names_what_was_found_as_the_person_knows_it(text, named):
    """Found by a new user: a webhook was called a "Slack Token", one code "a list of backup codes"."""
    assert privacy.sensitive_reason(text) == named


@pytest.mark.parametrize("text", [
    "sk_live_" + "a1B2c3D4" * 3,  # Stripe's documented prefix, longer than detect-secrets' 24
    "npm_" + "a1B2c3D4e5" * 3 + "a1B2c3",
    "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "https://discord.com/api/webhooks/123456789012345678/" + "aB3_-" * 13,
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",  # a key body, no BEGIN line
])
def test_pdsmems_own_provider_formats(text):
    assert providers.OWN.search(text)


def test_a_plugin_finding_inside_a_word_is_no_secret():
    """detect-secrets' AWS pattern has no word boundary: ASIA… in a Finnish word is no key."""
    assert any(list(plugin.analyze_string("ASIAKASPALVELUNUMEROÄ")) for plugin in providers.plugins())
    assert providers.reason("ASIAKASPALVELUNUMEROÄ ON 123") is None


# -- personal: validators ------------------------------------------------------------------------

@given(st.integers(min_value=10 ** 14, max_value=10 ** 15 - 1))
def test_a_card_number_is_refused_exactly_when_its_luhn_check_holds(body):
    number = "4" + str(body)  # a Visa number of 16 digits
    found = personal.reason(f"my card {number[:4]} {number[4:8]} {number[8:12]} {number[12:]}")
    assert (found is not None) == luhn.is_valid(number)


@pytest.mark.parametrize("text, found", [
    ("IBAN DE89 3704 0044 0532 0130 00 is mine", True),
    ("IBAN DE89 3704 0044 0532 0130 01", False),  # the check digits do not hold
    ("SSN 123-45-6789", True),
    ("SSN 666-45-6789", False),  # no area 666
    ("order 078-05-112", False),
    ("routing 021000021, account 12345678", True),
    ("otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP", True),
    ("TOTP seed JBSW Y3DP EHPK 3PXP", True),
    ("backup codes: 1234 5678, 2345 6789, 3456 7890, 4567 8901", True),
    ("legal winner thank year wave sausage worth useful legal winner thank yellow", True),
    # a page of the word list, in its order: a quiz's vocabulary, not a phrase (found by a review)
    ("Vocabulary for the quiz: abandon ability able about above absent absorb abstract absurd abuse access accident",
     False),
    ("The CVV of my card is 842", True),
    ("Shopping: apples, bread, milk, eggs, butter, cheese, rice, pasta, tomatoes, onions, garlic, oil", False),
    ("Order 4111 1111 1111 1112 shipped", False),  # a Visa-looking number whose Luhn check fails
])
def test_validators(text, found):
    assert (personal.reason(text) is not None) == found, text


# -- labelled values -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "SMTP_PASS=hunter22x", "docker run -e DB_PASSWORD=R0ck3t$87 mysql", "pw: pumpkin!",
    "login jsmith / Tr0ub4dor", "creds for the NAS: admin / tnmZJwBh47?bsk", "mysql -u root -pMuffinPumpkin901",
    "Sicherheitsfrage Geburtsname der Mutter: Fontaine", "voicemail PIN 727515", "Garage keypad: *9853",
    "use Daisy1971! to log in to the NAS", "Hasło do wifi: mango-maple-tiger",
    "Twilio auth token (prod) = 96534255b11102693aae4a2f4b55bea5",
    "Wifi QR: WIFI:T:WPA;S:HomeNet;P:blueberry2022;;", "redis://:r3disPassw0rd@cache.example.com:6379/0",
])
def test_labelled_values_are_refused(text):
    assert labelled.reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "token = request.headers.get('Authorization') is parsed in middleware.py",
    "password = getpass.getpass() prompts the user", "reads STRIPE_API_KEY from the environment",
    "SECRET_KEY=${SECRET_KEY} in the compose file", "The API key is 32-characters long.",
    "error code 4012 on the garage door", "the job exited with code 137", "the PIN must be 6 digits",
    "`if not user.check_password(form.password.data): abort(401)` is the login guard",
])
def test_code_notes_and_talk_about_credentials_pass(text):
    assert labelled.reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Das WLAN-Passwort lautet tigerbella", "Moje hasło do iCloud to mangokira", "p/w: thunderdaisy",
    "Retiens que le mdp de Gmail est otterbruno", "Ο κωδικός μου για το PayPal είναι harbordaisy",
    "Note: Jenkins acc -> olga@web.de pwd harbormilo", "Login Allegro: nils@web.de / senha nala_velvet#",
    "| service | user | password |\n|---|---|---|\n| my bank | root | 0rbit44 |",
])
def test_made_up_words_and_table_columns_are_refused(text):
    assert labelled.reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Das Passwort ist abgelaufen.", "the password is expired", "La contraseña es incorrecta",
    "Vaihdoin salasanan, se on salasanamanagerissa", "The user's password manager is bitwarden",
    "token = request.headers.get('Authorization') is parsed in src/routes/login.ts",
    "| service | user | password |\n|---|---|---|\n| bank | root | in 1Password |",
    "| service | password |\n|---|---|\n| NAS | *** |",
])
def test_words_that_describe_a_password_pass(text):
    assert labelled.reason(text) is None, text


@pytest.mark.parametrize("word, made_up", [
    ("tigerbella", True), ("qzmptrhv", True), ("expired", False), ("abgelaufen", False), ("parsed", False),
    ("Lincoln", False), ("velvet3387", False), ("incorrecta", False),
])
def test_a_made_up_word_is_in_no_languages_list(word, made_up):
    assert words.made_up(word) is made_up


def _common_by_frequency(word: str) -> bool:
    """``words.is_common`` as it was written first: through wordfreq's own ``zipf_frequency``."""
    from wordfreq import zipf_frequency

    return (any(zipf_frequency(word, language, wordlist="small") > 0 for language in words.LANGUAGES)
            or zipf_frequency(word, "en", wordlist="large") > 0)


def _listed_words() -> list[str]:
    from wordfreq import get_frequency_dict

    return sorted({word for language in ("en", "de", "tr", "fi") for word in list(get_frequency_dict(language, "small"))[:3000]
                   if word.isascii() and word.isalpha()})


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(alphabet="abcdefghijklmnopqrstuvwxyzIK", min_size=1, max_size=12),
                 st.sampled_from(_listed_words()),
                 st.sampled_from(_listed_words()).map(str.title),
                 st.text(alphabet="aeiouüößçğışłñé", min_size=1, max_size=8)))
def test_a_common_word_is_looked_up_as_wordfreq_finds_it(word):
    words.is_common.cache_clear()
    assert words.is_common(word) is _common_by_frequency(word.lower())


@pytest.mark.parametrize("text", [
    "the work laptop unlocks with cedar1979", "Set the Disney+ one to ducktales4ever so the kids stop asking",
    "Wi-Fi in the studio: mossgreen_teacup", "Der Laptop im Büro geht mit Fahrrad1986 auf.",
    "The Peloton account works with sweatyspin", "The school Chromebook opens with sparrow14.",
    "Garage keypad is 7316.", "Fahrradschloss: 6-2-0-4", "Gym locker combination 14 36 08",
    "The passphrase is orange tractor silent meadow.", "GPG key passphrase: thunder umbrella pickle marathon",
])
def test_passwords_told_by_what_they_open_and_lock_codes_are_refused(text):
    assert labelled.reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Wants to move all the NAS logins to passkeys", "The user's laptop is a ThinkPad X1 running Windows11",
    "The office WiFi is called Birchwood_5G", "switched the editor to neovim last week",
    "the gym locker number is 214", "the passphrase is stored in the vault", "The passphrase is long and random.",
    "The user logs in with Google and uses python3 for scripts", "La sua parola preferita è «meriggiare».",
    "Flight LH 4410 leaves at 14 35 from gate 22",
])
def test_talk_about_what_opens_what_passes(text):
    assert labelled.reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Hotel safe set to 1966", "Laptop odblokowuje się kodem 4471.", "PUK code for the SIM is 12345678",
    "Le code de la porte est 47B29", "De laptop gaat open met fietsbel88.", "O notebook abre com pipoca2020.",
    "diceware passphrase: correct staple orbit plunge velvet", "Both accounts use nugget2hamster now",
    "my Yahoo password was purplemonkeydishwasher",
])
def test_what_a_review_found_missed_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# A code after "with" at a sentence's end, its full stop after it, was let through until the end of
# the number was allowed to be a full stop (not a decimal part: "5183.5 seconden").
@pytest.mark.parametrize("text", [
    "Het hek gaat open met 5183.", "Con 2580 se abre.", "Der Tresor öffnet sich mit 1964.",
    "Het hek gaat open met 5183, zei ze.",
])
def test_a_code_that_opens_it_at_a_sentences_end_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Het hek gaat open met 5183.5 seconden vertraging.", "Con 2580,50 euros se abre la cuenta.",
    "La tienda se abre con 1500 clientes al día.",
])
def test_a_number_with_a_decimal_part_after_with_is_no_code(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "The garage sale made 340 dollars", "Set the lock screen timeout to 300 seconds",
    "docker build -t billing-api:1.4 .", "Passport renewal appointment: 2025-03-14",
    "my dungeon master is Kevin from work", "Use --password-stdin instead of --password in the CI job",
    "Cleanup job removed e83c5163316f89bfbde7d9ab23ca2e25604af290", "La frase preferita di Marco è carpe diem",
    "The garage is at Schlossstraße 128", "The master password is something only she knows.",
])
def test_what_a_review_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text, found", [
    ("BitLocker recovery key: 461912-258170-259479-427559-101079-336017-085316-273735", True),
    ("order 461913-258170-259479-427559-101079-336017-085316-273735", False),  # a group is no multiple of 11
    ("Recovery key (Apple ID) — 7MQF-27SM-Z6NW-NMAG-CUJK-8NBR-WTPM", True),
    ("My passport number is 358604086, expires 2031.", True),
    ("UK driving licence number: MORRI476482AB9VM", True),
    ("My passport expires in 2031, renew it in March", False),
    ("Wallet recovery phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
     True),  # in the list's order, but named as a wallet's phrase
    ("The BIP-39 list begins abandon ability able about above absent absorb abstract absurd abuse access accident",
     False),
])
def test_recovery_keys_and_identity_documents(text, found):
    assert (personal.reason(text) is not None) == found, text


# -- command output and paths --------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "> GET / HTTP/1.1\n> Host: example.com\n> Cookie: session=abcdef123456",
    'Exception in thread "main" java.lang.NullPointerException\n    at com.acme.App.run(App.java:42)',
    "goroutine 1 [running]:\nmain.main()", "PATH=/usr/bin\nHOME=/root\nUSER=root\n",
    r"see \\fileserver\share\hr", "%USERPROFILE%\\Documents", "$HOME/.ssh/config",
])
def test_output_and_paths(text):
    assert output.reason(text) is not None, text


# -- the gate on the corpora it was tuned on -----------------------------------------------------

def _corpus(name: str, kind: str) -> list[dict]:
    with open(CORPORA / name / f"{kind}.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _ids(prefix: str, *numbers: int, width: int = 3) -> list[str]:
    """Ids as the reviews number them: ``_ids("r57-leak", 5, 6)`` is ``["r57-leak-005", "r57-leak-006"]`` (the
    pools' ids have four digits: ``width=4``)."""
    return [f"{prefix}-{number:0{width}d}" for number in numbers]


def _wrong(name: str) -> tuple[list[str], list[str]]:
    """The ids of a corpus's ordinary texts the gate refuses, and of its secrets it passes, in its order."""
    return ([item["id"] for item in _corpus(name, "benign") if privacy.sensitive_reason(item["text"]) is not None],
            [item["id"] for item in _corpus(name, "leaks") if privacy.sensitive_reason(item["text"]) is None])


@pytest.mark.parametrize("name, floor", [("tune", 0.99), ("tune2", 0.97), ("tune3", 0.90), ("tune4", 0.96), ("tune5", 0.96),
                                         ("tune6", 0.97), ("tune7", 0.99), ("tune8", 0.98), ("tune9", 0.99),
                                         ("tune10", 0.98), ("tune11", 0.97), ("tune12", 0.97),
                                         ("tune13", 0.96), ("tune14", 0.97), ("tune15", 0.99),
                                         ("tune16", 0.99), ("tune17", 0.96), ("tune18", 0.95), ("tune21", 0.965), ("tune22", 0.93),
                                         ("tune23", 0.905), ("tune24", 0.92), ("tune25", 0.94), ("tune26", 0.92)])
def test_the_gate_holds_its_figures_on_the_tuning_corpora(name, floor):
    leaks, benign = _corpus(name, "leaks"), _corpus(name, "benign")
    caught = sum(privacy.sensitive_reason(item["text"]) is not None for item in leaks)
    refused = [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None]
    assert caught / len(leaks) >= floor, f"{name}: caught {caught} of {len(leaks)}"
    assert refused == [], f"{name}: benign texts refused: {refused}"


def test_every_corpus_row_has_what_the_benchmark_reads():
    """scripts/bench_privacy.py counts by group and family: a set without them stops the benchmark."""
    for folder in sorted(path for path in CORPORA.iterdir() if path.is_dir()):
        for kind in ("leaks", "benign"):
            for item in _corpus(folder.name, kind):
                assert {"id", "group", "family", "lang", "text"} <= set(item), (folder.name, item.get("id"))


def test_every_layer_reports_for_the_benchmark():
    found = privacy.layer_reasons("card 4111 1111 1111 1111 and AKIAQ8EG0RZ1WXYT9JH6")
    assert set(found) == {name for name, _ in privacy.LAYERS}
    assert found["personal"] and found["providers"] and found["rules"]


@pytest.mark.parametrize("text", [
    "sk_live_51HqLyjWDarjtT1zdp7dcXkT8",
    "The wifi key is hunter22",
    "legal winner thank year wave sausage worth useful legal winner thank yellow",
    "4111 1111 1111 1111, exp 12/28, CVV 123",
    "Das WLAN-Passwort ist Bella!",
    "Router admin pw is Snoopy2019!",
    # a second new user's try, with the Hermes provider
    "Ihr Entsperrcode fürs Tablet lautet 7 7 0 3.", "Il codice del lucchetto della bici è 3-8-1-5.",
    "Her PIN: the year her dad was born, 1958.", "Her answer for 'favourite teacher' is Mrs Pennywhistle.",
    "The config password field is set to <changeme-Zq81!pl>; that is the real one, not a template.",
    "pin-4821", "PIN4821",
    # a third new user's try, with the Hermes provider writing to RushDB
    "Closet safe: turn to 18, then 33, then 06.", "SIM PUK from the carrier letter: 84920371",
    "Her first car, for the security question, was a 'Lada Niva 1988'.", "Zahlenschloss am Fahrrad: 5 - 9 - 1 - 6",
    "hermes:memory_write:Walnut#Drift#33", "The user prefers walnut furniture. Walnut#Drift#33", "Walnut#Drift#33",
    "Ran `id` on the server and got uid=1000(alice) gid=1000(alice) groups=1000(alice),27(sudo),998(docker).",
    "security.answer.Schneewittchen", "Her card number is 4045.5006.4661.8072", "Door code: A7C9",
    "The garage code is B4-77", "Her first pet's name (security question) was Mr Whiskers.",
])
def test_what_a_new_user_published_is_refused(text):
    """Regression: each of these reached a public repository with no flag."""
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "PIN: changed at the bank, 2024.", "Door code: ask the landlord, 2024 lease.", "fixed PIN-1021 today",
    "gpio/pin_2001 drives the fan", "password: changeme", "The password is changeme.", "password=CHANGE_ME",
    "DATABASE_URL=mysql://root:CHANGE_ME@localhost:3306/dev", "the locker takes a 4-digit code",
    "Flight LH 4410 leaves at 14 35 from gate 22", "Sie hat den Entsperrcode fürs Tablet geändert.",
    "the security question was removed from the signup form", "`PIN_LENGTH = 6` is a constant in the auth module",
    "user.password.min_length is 12 in the settings", "uid=1000 is the first user on most Linux systems",
    "The door code is on the sticker, ask Sam", "IP 10.0.4.12 and the printer at 10.0.4.13",
    "turn left at the lock, then right after 200 m, then left again",
])
def test_the_neighbours_of_what_a_new_user_published_pass(text):
    """What the rules for the texts above must not take: a change told with a year, an issue's key,
    a pin of a board, the stand-in "changeme" alone."""
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", ["/" * 1999, "\n" * 1999, "DE89 " * 400, "GB29 NWBK " * 200, "a\n" * 1000])
def test_rows_of_one_thing_are_read_once(text):
    """Regression (a review): a row of slashes made a plugin's pattern backtrack, and a row of
    IBAN-like starts ran stdnum's check thousands of times (18 and 11 ms for 2,000 characters).
    Counted in calls, not timed: the IBAN check runs only where the cheap mod-97 walk passes."""
    calls = []
    iban = personal._validator("iban")
    real = iban.is_valid
    iban.is_valid = lambda number: calls.append(number) or real(number)
    try:
        assert privacy.sensitive_reason(text) is None
    finally:
        iban.is_valid = real
    assert len(calls) <= 5


_TOKENISH = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/=+@ '\"", max_size=120)


@given(st.one_of(_TOKENISH, st.text(max_size=80),
                 st.builds(lambda prefix, body: prefix + body,
                           st.sampled_from(["sk_live_", "xoxb-1-", "AKIA", "glpat-", "SG.", "eyJ", "ghp_", "npm_",
                                            "AccountKey=", "https://hooks.slack.com/services/T", "://u:", "AKC"]),
                           _TOKENISH)))
def test_the_plugins_prefilter_speaks_for_every_plugin_it_skips(line):
    """The one search that skips the plugins on a line finds something wherever a plugin would."""
    any_pattern, always = providers._prefilter()
    if any_pattern(line) is None:
        skipped = [plugin for plugin in providers.plugins() if plugin not in always]
        assert not any(list(plugin.analyze_string(line)) for plugin in skipped), line


_PREFIXES = ["sk_live_", "xoxb-1-", "xoxp-2-3-", "AKIA", "ABIA", "A3TX", "glpat-", "GR1348941", "SG.", "eyJ", "eyJa.b",
             "ghp_", "npm_", "AccountKey=", "accountkey ", "https://hooks.slack.com/services/T", "://u:", "AKC", "APB",
             "AP7", "dp.st.", "ya29.", "hvs.", "aws_secret_key = '", "//registry.npmjs.org/:_authToken=",
             "-----BEGIN RSA PRIVATE KEY-----", "PuTTY-User-Key-File-2", "12345678:", "MTk", "cloudant_api_key: ",
             "secret_access_key = ", "softlayer_api_key=", "AC", "SK", "sq0csp-"]


@given(st.one_of(_TOKENISH, st.text(max_size=80),
                 st.builds(lambda prefix, body: prefix + body, st.sampled_from(_PREFIXES), _TOKENISH),
                 st.builds(lambda head, prefix, body: head + " " + prefix + body,
                           st.text(max_size=20), st.sampled_from(_PREFIXES), _TOKENISH)))
def test_a_line_the_provider_layer_skips_holds_no_format(line):
    """Regression (a speed change): the lines the provider layer does not ask (``_WORTH_ASKING``)
    are lines on which no plugin at all, and none of pdsmem's own formats, finds anything."""
    if providers._WORTH_ASKING_PATTERN(line):  # (its substrings asked first: every line the pattern asks, at least)
        assert providers._WORTH_ASKING(line), line
    if not providers._WORTH_ASKING(line):
        assert not providers.OWN.search(line), line
        assert not any(list(plugin.analyze_string(line)) for plugin in providers.plugins()), line


def test_a_line_the_provider_layer_skips_holds_no_format_in_any_corpus():
    for name in ("tune", "tune2", "tune3", "review"):
        for kind in ("leaks", "benign"):
            for item in _corpus(name, kind):
                for line in item["text"].splitlines():
                    if not providers._WORTH_ASKING(line):
                        assert not providers.OWN.search(line), item["id"]
                        assert not any(list(plugin.analyze_string(line)) for plugin in providers.plugins()), item["id"]


_LOWERED = [("_KEY_WORDS", labelled._KEY_WORDS, labelled._ON_A_KEY_LINE),
            ("_PASSWORD_LINE", labelled._PASSWORD_LINE.pattern, labelled._ON_A_PASSWORD_LINE),
            ("_ACCESS", labelled._ACCESS.pattern, labelled._ABOUT_ACCESS),
            ("_PIN_LINE", labelled._PIN_LINE.pattern, labelled._ON_A_PIN_LINE),
            ("_PASSPHRASE_NAMES", "(?i)" + labelled._PASSPHRASE_NAMES, labelled._NAMES_A_PASSPHRASE),
            ("_THE_WORD_AND_DIGITS", labelled._THE_WORD_AND_DIGITS.pattern, labelled._HOLDS_THE_WORD_AND_DIGITS)]
_LETTERS = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_:/.!äöüßÄÖÜéÉçÇñÑşŞıİłŁåÅøØſ\u212aΣσςΚΩΔκωδικός"
                                            "ϰϑϐϵϖϱϕµ\u1fbeΘθΜμ"
                                            "пароль ПАРОЛЬ кодКОД パスワード密码비밀번호"), max_size=60)


@pytest.mark.parametrize("name, pattern, lowered", _LOWERED, ids=[name for name, _, _ in _LOWERED])
def test_a_line_search_in_lower_case_answers_as_the_case_insensitive_one(name, pattern, lowered):
    """The labelled layer searches some lines in their lower case instead of with ``(?i)``, which
    is three times faster: the two give the same answer on every line of the corpora."""
    import re
    search = re.compile(pattern).search
    for corpus in ("tune", "tune2", "tune3", "review"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                for line in item["text"].splitlines():
                    assert lowered(line) == (search(line) is not None), (item["id"], name)


def _password_word_starts_as_written(text: str) -> list[int]:
    return [match.start() for match in re.finditer("(?i)" + labelled._PASSWORD_WORD, text)]


def test_the_words_for_a_password_are_found_in_lower_case_where_the_case_insensitive_search_finds_them():
    """``_password_word_starts`` searches the lower case and keeps "mdp" but not "MDP" (a Markov
    decision process): the starts ``(?i)`` finds, on every line of the corpora."""
    for corpus in ("tune", "tune2", "tune5", "tune9", "tune11", "review"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                text = item["text"]
                assert labelled._password_word_starts(text) == _password_word_starts_as_written(text), item["id"]


@given(st.lists(st.sampled_from(["password", "PASSWORT", "mdp", "MDP", "Mdp", "pw", "PW", "Pw", "pWd", "PWD", "psw",
                                 "PSW", "İ", "ı", "hasło", "HASŁA", "şifre", "ŞİFRE", "пароль", "ПАРОЛЬ", "passordet",
                                 "kata  laluan", "mot de passe", "x", "1", " ", "-", ":", "\n"]), max_size=12))
def test_the_words_for_a_password_in_any_case_are_found_where_the_case_insensitive_search_finds_them(parts):
    text = "".join(parts)
    assert labelled._password_word_starts(text) == _password_word_starts_as_written(text)


_LINE_WORDS = ["pin", "alarm", "alarmı", "password", "passwort", "κωδικός", "wifi", "wi-fi", "login", "kod", "şifre",
               "lock", "code to get in", "token", "secret", "api key", "ключ", "пароль", "パスワード", "safe", "schloss",
               "laptop", "unlocks", "the old one", "set it", "kleinbuchstaben", "ノートpc", "auth", "sign in", "hasło"]


@given(st.one_of(_LETTERS, st.builds(lambda before, word, upper, after: before + (word.upper() if upper else word) + after,
                                     _LETTERS, st.sampled_from(_LINE_WORDS), st.booleans(), _LETTERS)),
       st.sampled_from(_LOWERED))
def test_a_line_search_in_lower_case_answers_as_the_case_insensitive_one_on_any_line(line, case):
    import re
    name, pattern, lowered = case
    assert lowered(line) == (re.compile(pattern).search(line) is not None), (line, name)


def _spans_as_written(line: str) -> list[tuple[int, int]]:
    return [match.span() for match in labelled._PASSWORD_LINE.finditer(line)]


def test_where_a_lines_words_for_a_password_are_is_found_in_lower_case_as_with_the_case_insensitive_search():
    """``_PASSWORD_WORDS_AT`` finds the spans in the line's lower case with the factored pattern
    (three times faster): the spans ``(?i)`` as written finds, on every line of the corpora."""
    for corpus in ("tune", "tune2", "tune3", "tune22", "review", "review24"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                for line in item["text"].splitlines():
                    assert labelled._PASSWORD_WORDS_AT(line) == _spans_as_written(line), item["id"]


@given(st.one_of(_LETTERS, st.builds(lambda before, word, upper, after: before + (word.upper() if upper else word) + after,
                                     _LETTERS, st.sampled_from(_LINE_WORDS), st.booleans(), _LETTERS)))
def test_where_a_lines_words_for_a_password_are_is_found_as_written_on_any_line(line):
    assert labelled._PASSWORD_WORDS_AT(line) == _spans_as_written(line), line


@pytest.mark.parametrize("text", ["ςυνθηματικό wifi pw-Tr0ub4dor&3x", "ϰωδικός wifi pw-Tr0ub4dor&3x",
                                  "Ο ϰωδικός μου: Tr0ub4dor&3x",
                                  "рамз\u0345: Tr0ub4dor&3x"])  # (a third review: a combining mark folded to a letter)
def test_the_greek_letters_case_insensitive_search_takes_as_one_are_one_in_lower_case(text):
    """A review's find: (?i) takes a final sigma for a sigma and "ϰ" for "κ"; the searches in a
    line's lower case did not, and these were refused before that change and passed after it."""
    assert labelled._PASSWORD_WORDS_AT(text) == _spans_as_written(text)
    assert labelled.reason(text) is not None, text


def test_a_text_asks_the_checks_its_needles_name_in_their_order():
    """``reason`` asks only the checks the text's needles name: the same answer as asking each
    check whose needles the text holds, in order, on every text of the corpora."""
    from pdsmem.mapping.privacy.plain import lowered as in_lower_case

    def asked_in_turn(text: str) -> str | None:
        found = labelled._NEEDLES.found(in_lower_case(text))
        return next((why for why, check, needles in labelled._NEEDLED
                     if (not needles or not needles.isdisjoint(found)) and check(text)), None)

    for corpus in ("tune", "tune5", "tune25", "review25"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                assert labelled.reason(item["text"]) == asked_in_turn(item["text"]), item["id"]


def test_the_plugins_prefilter_on_the_tuning_corpora():
    any_pattern, always = providers._prefilter()
    for name in ("tune", "tune2", "tune3"):
        for kind in ("leaks", "benign"):
            for item in _corpus(name, kind):
                for line in item["text"].splitlines():
                    if any_pattern(line) is None:
                        assert not any(list(plugin.analyze_string(line)) for plugin in providers.plugins()
                                       if plugin not in always), item["id"]


# -- the fourth tuning set's families (tests/privacy_corpus/tune4): each was missed before -------

@pytest.mark.parametrize("text", [
    "TC kimlik no: 43306864150",
    "EIN for the LLC: 94-6381262",
    "身份证号：330106199410041878",
    "Mi DNI: 45836420L",
    "Codice fiscale: GBCNMS63B07A319E",
    "Numéro de sécurité sociale : 2 61 12 55 002 897 93",
    "PESEL: 93031890595",
])
def test_a_national_number_whose_check_holds_is_refused(text):
    assert "national identity" in personal.reason(text)


@pytest.mark.parametrize("text", [
    "PESEL: 93031890596",  # its check digit is wrong
    "The DNI office opens at 9:00 on 12 May",
    "Our EIN application is pending, ref 2024-118",
])
def test_a_national_number_whose_check_fails_passes(text):
    assert personal.reason(text) is None


@pytest.mark.parametrize("text", [
    "One remaining backup code for the work Okta: 971fd-a961a",
    "Proton recovery code B2EO-2KJ5-GRTZ",
    "Emergency code for Steam Guard: TCP09-SVS8R",
    "One remaining backup code for the work Okta: 8932 1297. They use vim keybindings.",
    "Bitwarden recovery code: OL13ZY0SAXFRUCWO3DD5YWYN18UJNSKV",
    "only two backup codes left for the bank app: 50834156 and 92366279",
    "Clé de secours FileVault : FS5P-D6SY-LH25-JYIR-4HGS-KHN1",
    "Emergency Kit says Secret Key A3-KL3EA3-V6Y7NT-83VMQ-MZK0B-BIQOS-WBEWT",
    "Reservkoder för Microsoft-kontot: dcpu9h9myt3d, snk6swt0h6t1, 6qw6to231ai7, 7s3jb1gmzzk2",
    "recovery codes (npm):\nu2m4 nhj2\n9rag hv5o\n980w 3w69\n0ref u9s2",
    "TOTP secret for AWS root: YUSGFDAMBPLFAGAO",
    "助记词：舍 烘 阅 付 植 廷 偏 卡 拖 皆 货 追",
])
def test_codes_keys_and_phrases_of_more_shapes_are_refused(text):
    assert personal.reason(text) is not None


@pytest.mark.parametrize("text", [
    "Stored the recovery codes in 1Password, not in notes",
    "The backup code screen shows 10 codes; we printed them on 2024-03-01",
    "Disaster recovery drill on 2025-04-12 went fine",
])
def test_talk_about_codes_passes(text):
    assert privacy.sensitive_reason(text) is None


@pytest.mark.parametrize("text", [
    'The disk encryption passphrase is "candle.staple.purple.velvet"',
    "Passphrase di VeraCrypt: CanyonSaddleHorseVelvet",
    "Phrase de passe du coffre : marble_candle_ember_noodle_copper. Réunion déplacée à lundi.",
    "Wachtzin voor de kluis: battery orbit tundra tractor purple97",
    'The restic repo key is "WalrusMarbleRiver29" - backups won\'t restore without it.',
    "Bitwarden vault unlocks with HorseCanyonWindowQuartz",
    "pw ist sunflower",
    "Netflix password is tournesol (shared with sister)",
    "contra: summer",
    "Verizon account security word is winter",
    "Evdeki wifi şifresi snowman6",
    "Authorization: Basic c2tvd2Fsc2tpOnZsaW5kZXIx",
    "User prefers dark mode. u: svc_hana p: ZKZAOxNgvTQxx&#212",
    "PlayStation Network: ines.lopez@qq.com - Farfalla93@",
    "creds for the staging admin panel -> admin:vlinder",
    "Key box at the holiday flat: 1672",
    "The key safe by the back door has code 2019, the year we moved in.",
    "Cambié la contraseña del banco a girasol2019.",
    'Security question "first pet" -> Rex',
])
def test_passwords_told_in_more_ways_are_refused(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    "API_KEY=<your key here> is the placeholder line in README.md.",
    "Pydantic model `Credentials(username: str, password: SecretStr)` keeps the value out of repr.",
    '`if not api_key: raise RuntimeError("set ACME_API_KEY")` - added in PR #1242.',
    "`const token = await getAccessToken();` then pass it as Bearer.",
    "`def verify_token(token: str) -> Claims:` raises InvalidSignature on tampering.",
    'Stack: FastAPI + SQLAlchemy; auth via `OAuth2PasswordBearer(tokenUrl="token")`.',
    "package-lock integrity for lodash: sha512-ZH4R3JayIFJFeV2sLvNieCLyb6DMeXzfkS8RVm735K06jd9TegPoU9Loewe9tdmSqfVQjMlnfKWWWMd+ZxaEJA==",
    "A senha é validada com regex: mínimo 12 caracteres, um número e um símbolo.",
    "Hasło do wifi jest na naklejce pod routerem.",
    "La fonction `check_pin` lève une ValueError si le mot de passe est vide",
    "The wifi password is printed.",
    "The password is random.",
    "Das Schloss Neuschwanstein hat 360 Räume, sagt der Nutzer.",
    "Authorization: Basic realm=intranet is what the server answers",
])
def test_code_notes_and_talk_about_passwords_pass(text):
    assert privacy.sensitive_reason(text) is None


@pytest.mark.parametrize("label", [label for label, _ in personal._NATIONAL_IDS])
@given(data=st.data())
def test_the_national_id_needles_speak_for_every_name(label, data):
    """The names' search runs only where a needle is: every text a name's pattern finds holds one."""
    import re
    text = data.draw(st.from_regex(re.compile("(?i)" + label)))
    if personal._NAMES_A_NATIONAL_ID_SEARCH(text):
        assert personal._names_a_national_id(text), text


@given(data=st.data())
def test_the_identity_number_needles_speak_for_every_name(data):
    """The check of an identity number said to be one runs only where a needle is: every name holds one."""
    import re

    from pdsmem.mapping.privacy.plain import lowered
    text = data.draw(st.from_regex(re.compile("(?i)" + personal._IDENTITY_NAMES)))
    if re.search("(?i)" + personal._IDENTITY_NAMES, text):
        assert personal._NAMES_AN_IDENTITY(lowered(text)), text


# -- the fifth tuning set's families (tests/privacy_corpus/tune5): each was missed before --------

@pytest.mark.parametrize("text", [
    "My Canadian SIN is 796 001 139",
    "Meine Steuer-ID lautet 85 890 612 780",
    "我的身份证号是110101196712111329",
    "Мой ИНН 663127053589",
    "Aussie bank details: BSB 035-496, account 692862652",
    "Canadian direct deposit: transit 82120, institution 004, account 6416520",
    "Reisepassnummer: FGGWH8WPL",
    "Passnummer: 11612328",
])
def test_numbers_of_more_countries_are_refused(text):
    assert personal.reason(text) is not None


@pytest.mark.parametrize("text", [
    "노트북 로그인할 때 Rosalind2018 입력하면 돼",
    "Per entrare nel portatile digita Cornelius2018",
    "For the school portal, type Kiki@5326 when it asks — that gets you in.",
    "Para entrar no computador do escritório, digita 2BD%!zdUELc#vlH.",
    "admin/Cornelius1994 for the printer web UI",
    "Laptop login: lopez / pumpkin",
    "root on the old raspberry pi: harb0r",
    "Nog doen: vuilnis buiten zetten, belastingaangifte (DigiD ww stroopwafel), fiets naar de maker.",
    "Mitt mejllösenord är nu Midsommar",
    "Mật khẩu wifi là Greta?1316",
    "the password for the family netflix account is monk3y",
    "The guest network is Cafe_Pumpkin and the key is BiscuitSummer72",
    "redis-cli -h cache.example.net -p 6379 -a 9Gd5j0+YGBSkk5Vtqd --tls",
    "rabbitmqctl add_user pierren pB%J8QTPlvi3XDY@",
    "APP_KEY=base64:u01qdEkaNAPyY9V7CpPf2jfmVUYMmN2xzLZLhnD7EVM=",
    "Domanda segreta: nome del primo animale = Zorro",
])
def test_passwords_told_as_instructions_pairs_and_commands_are_refused(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    "注文番号 #944907、2023-11-26 配達予定。",
    "Connection string format documented as `postgres://USER:PASSWORD@HOST:5432/DB` (placeholders only).",
    "config.yaml uses `password: ${DB_PASSWORD}`, expanded at startup.",
    "`.env.example` lists STRIPE_SECRET_KEY= and SENDGRID_API_KEY= with empty values.",
    "Words the kid is learning to spell this week: forest; journey; science; kitchen; people; yellow; machine; window;"
    " enough; ocean; bridge; autumn; friend",
    "ユーザーはパスワード管理に1Passwordを使っている。",
    "Har byttet passord på ruteren, står i passordhåndteringen",
    "Urlaub packen: Pass, Ladekabel, Sonnencreme, Badehose, Handtuch, Buch, Kopfhörer, Zahnbürste, Sandalen, Hut.",
    "`hash_password(pw: bytes) -> bytes` uses argon2id with m=64MiB, t=3, p=4.",
    "La sua parola preferita è «meriggiare».",
    "Spotify playlist for the clean-up day: 37i9dQZF1DXcBWIGoYBM5M",
    "The password manager is 1Password.",
])
def test_more_ordinary_memories_pass(text):
    assert privacy.sensitive_reason(text) is None


# -- the round after tune5 (its misses, and tune2's and tune3's): each was missed before ----------

@pytest.mark.parametrize("text", [
    # passwords in languages and forms the line test did not know
    "Kata sandi bank aku ganti jadi Rendang_Pedas42",
    "Mật khẩu ngân hàng: tên đăng nhập linh, mật khẩu Hoasen.Bienxanh21",
    "Do počítače se přihlásíš heslem Kolac%5813",
    "銀行アプリ: ID kenji.sato / パス Fuji3742",
    "Wi-FiのパスワードはKitsuneです",
    "Das Passwort fürs Tablet ist Apfelbaum.Sommer77",
    "Jeg har skiftet koden til banken til Hunden2011",
    "Я змінила пароль до банку на Kvitka.Sonce55",
    "Logg inn på NAS-en med admin og Hq7tZ2wLmVx",
    "Het wachtwoord van de NAS is drop.molen.fietsbel",
    "The old laptop unlocks with marble.lantern.quietfox.harbor",
    "Skriv tulpan.kanel.vinter för att komma in på datorn.",
    "todo: pay the gas bill (portal 密码Huoguo.Mala88), buy rice",
    "passwd Grafana = Tq8rNvLs3kWpXz",
    # codes: letters alone, one after a fallback, a table, one used and the rest
    "Steam Guard backup code: QXRTW",
    "if i lose my phone the 2fa spare code is 4471 9036",
    "used one Dropbox code, the others: qwpd lkmz tyvr  bnxc plok hjsd  wqea zxrv tgby  mnlo",
    "| # | code |\n|---|---|\n| 1 | k3d9-p2x7 |\n| 2 | m81q-z0vt |\n| 3 | 4rta-9wqe |\n| 4 | h6yu-1lzc |",
    "Used a backup code at the hotel to sign in, so the next unused one is 80412297.",
    "npm recovery codes:\n" + "\n".join(("%064x" % (n * 0x9E3779B97F4A7C15 ** 3))[:64] for n in (3, 5, 7)),
    # keys named after their value, provider formats, Oracle's login, a PuTTY file, a zsh prompt
    "The CI bot uses 8e1f0c6d2b9a47f3e5d1c0b8a7f6e5d4c3b2a1f0 (Cloudflare Global API Key).",
    "Here's the Datadog application key: 4f9c2e1ab8d7c6f5e4d3c2b1a0f9e8d7c6b5a4f3.",
    "Entra client secret for the app: Xy71Q~aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV3w",
    "Azure 토큰 sv=2023-01-03&ss=b&srt=co&sp=rl&se=2027-01-01T00:00:00Z&sig=Qk3nB7s9Xc2VfL0pR5tW8yZ1aD4gJ6mN%3D",
    "grafana → glc_eyJvIjoiMTIzNDU2IiwibiI6InN0YWNrLTEyMyIsImsiOiJhYmNkZWYxMjM0NTY3ODkwIn0=",
    "doppler personal: dp.pt.Kq8ZtW3xLmN5vB7cR2yH4jF6gD9sA1pQeU0iO3kLm",
    "jdbc:oracle:thin:mkovac/Zt7_q9LmWx2@//db-7.internal.example.net:1521/ORCL",
    "ldapsearch -x -D \"cn=admin,dc=example,dc=org\" -w %QpTzLmWnRkVbXcYs -H ldaps://ldap.example.org",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ana@laptop",
    "Scans of the lease are in ~ingrid/private/flat/2025",
    "Para entrar no Netflix usa quokkabela",
    "ana@MacBook-Air ~ % git log --oneline\n3f2a1b9 fix",
    # personal numbers and codes
    "Henkilötunnukseni on 131052-308T",
    "Meine Führerscheinnummer ist K72PQRS4X9",
    "the car rental desk asked for my licence number, it's Q408271957731",
    "Die PIN vom Tablet meiner Mutter ist 1957, ihr Geburtsjahr.",
    "Xbox parental code is 4471.",
    "엄마 휴대폰 잠금 번호는 739104이야.",
    "Wallet-Wiederherstellung, Wörter: abandon ability able about above absent absorb abstract absurd abuse access"
    " accident",
])
def test_the_round_after_tune5_refuses_more_shapes(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Set spring.datasource.password in application.yml from the vault, never inline.",
    "The password hash column is stored as np.float64 by mistake; fix the dtype.",
    "Moved everything from LastPass to 1Password last week.",
    "Password: see 1Password, entry 'Home router'.",
    "backup code: NONE left, generate new ones in settings",
    "Wifi name: Vodafone-5G-Home.",
    "Wi-Fiのパスワードはルーターの裏に記載。",
    "The PIN was changed in 2019 and again in 2023.",
    "Garden to-do: rake leaves, plant bulbs, cover the roses, clean tools, mend fence, trim hedge, sow seeds, fill"
    " feed, sort shed",
    "Order codes for the office: A-1042, B-2210, C-3381, D-4410",
    "Python 3.12 removed distutils; the parser module is gone too.",
    "ssh into the box as deploy@build-01 and run make release",
])
def test_the_round_after_tune5_passes_what_is_no_secret(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the sixth tuning set's round (tests/privacy_corpus/tune6): each was missed or refused before --

@pytest.mark.parametrize("text", [
    # lock and card codes in more languages and words
    "A kapukód 4417, utána a csengő.",
    "Kód od branky je 5531.",
    "Koden til nøgleboksen ved hytten (6620) virker kun om dagen.",
    "Muista: mummon puhelimen pääsykoodi on 3386.",
    "O cofre do escritório abre com 9915.",
    "Codul de la interfon: 4412.",
    "De code van de sleutelkluis bij de achterdeur is 8810.",
    "Säkerhetskoden till appen är 558213.",
    "マンションのオートロックの番号は4471です。",
    "एटीएम पिन 8842 है, किसी को मत बताना।",
    "הקוד לדלת של המשרד הוא 7713.",
    "الرقم السري للبطاقة: 5523",
    "Mã cửa nhà kho là 6614.",
    "Alarm panel: type 1998 within 30 seconds of opening the door.",
    "Para entrar al portal marca 7291 y luego la llave.",
    # security answers in more languages
    "Biztonsági kérdés: első háziállat neve — Bodri.",
    "Turvakysymys: ensimmäisen lemmikin nimi → Musti.",
    "Pertanyaan keamanan, nama hewan pertama: Belang.",
    "秘密の質問「初めてのペット」の答えはポチ。",
    # passwords: in more shapes and with their letters told
    "A bank jelszava most már Cica_2011#.",
    "Пароль от почты теперь Vorobey22?.",
    "J'ai changé le mot de passe du Wi-Fi pour « Zoe.2019 ».",
    "Ik heb het wachtwoord van de NAS veranderd in OtterMapleHarborCandle.",
    "the password for the streaming account is juniper with a capital first letter",
    "Hasło do konta to Wiewiórka, małymi literami.",
    "Babacığım, bankanın şifresi kaplumbaga, küçük harflerle yaz.",
    "Pour le PC du salon, tape Grenouille (avec une majuscule au début).",
    "お父さんのパスワードは「ひまわり1988」です。",
    "Wifi şifresi: lemon tiger pillow.",
    "Hej far, koden til vores wifi er otter maple candle harbor.",
    "Password wifi kantor: rendang kucing pelangi mangga.",
    # codes, documents, cookies, commands
    "Codice di emergenza per il 2FA di GitHub: 55190472",
    "Código de backup da conta do Google: 4471 9935",
    "Kontonummeret mitt er 1503.35.42876.",
    "My Aadhaar: मेरा आधार नंबर 4991 1866 5246 है।",
    "Passport scan, bottom line: L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    "Driver's license (WA): WDLABCDE12FG",
    "Session cookie from the browser: JSESSIONID=7F3A9C2B41D8E6F0A1B2C3D4E5F60718",
    "smbclient //nas/backup -U maria%Tq7rLmWnZx2p",
])
def test_the_tune6_round_refuses_more_shapes(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "export SENDGRID_API_KEY=\"REPLACE_ME\"  # set it in the CI settings",
    "The sample file has `API_KEY=xxxxxxxx`; put the real one in the vault.",
    "docker-compose.yml only has POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?missing}; the value comes from the CI.",
    "Spelling words for this week: defy, ginger, surge, lemon, cat, ancient, fruit, tuition, chalk, denial, radio, pony.",
    "Palabras del dictado: feliz, envío, esposa, piojo, cubo, brinco, percha, lustro, gesto, tabla, islote, sangre.",
    "To do: renew the licence, change the bank password, pick up parcel 1ZU1VPMO9406296309 before Friday.",
    "Router firmware 10.23.11-beta.2 installed; the password manager audit found 7 weak entries.",
    "À faire : changer le code de la porte du garage, appeler le poste 1350.",
    "Wifi password: ask reception desk staff",
    "pw is fine, all lowercase letters required by the router",
    "The password must be all lowercase.",
    "Passport renewal appointment: line 12, counter 4",
])
def test_the_tune6_round_passes_what_is_no_secret(text):
    assert privacy.sensitive_reason(text) is None, text


# -- fewer wrong refusals of what looks like a secret (the review's aimed texts): each was refused --

@pytest.mark.parametrize("text", [
    "Password: updated.",
    "WLAN-Passwort: geändert.",
    "In the TypeScript types, password: string is optional on the Account model.",
    "Cookie: ginger snaps are their favourite, not shortbread.",
    "Authorization: Bearer plus the session token is required on /v3 calls.",
    "Trip reservations: hotel 58392014, rental car 10483712, museum 22014577.",
    "Noodcontacten als backup: mama 0611223344, papa 0655667788, buurvrouw 0203344556.",
    "The backup restore bugs are INFRA-2041, INFRA-2056 and INFRA-2102.",
    "Jira key for the checkout bug: SHOP-4417.",
    "Shortcut key for the colour picker: Ctrl+Shift+C.",
    "User's Xbox gamertag is NightOwl1994.",
    "Login screen froze after updating to ubuntu24 on the old laptop.",
    "User's password manager: bitwarden, self-hosted.",
    "User logs in to E*Trade every morning before work.",
    "User's childhood friend Paolo is getting married in June.",
    "User's first car, a Renault Clio, is now their son's.",
    "Kullanıcının posta kodu 34710, Kadıköy.",
    "ホテルの部屋番号：1412。",
    "Телефонный код Москвы 495.",
    "The garden shed is 240 by 180 and needs a new roof.",
    "User's bank is Commerzbank, bank code 37040044 for transfers.",
    "La palabra clave del proyecto es 'sostenibilidad'.",
    "Parola chiave del progetto: Aurora2025.",
])
def test_what_only_looks_like_a_secret_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Security question, first car: Corolla 2004",
    "If the bank asks 'favourite teacher', the answer is Mr Hughes",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
    "Cookie: sessionid=8f3a2c9d7e6b5a4f3e2d1c0b",
    "La contraseña del wifi es Girasol_2020",
    "Parola d'ordine del portale: Fenice88!",
    "the eBay seller account is retroshop_77",
    "building entry code changed to 481205",
])
def test_and_what_is_one_is_still_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the gate's patterns compile on first use ------------------------------------------------------

def test_a_lazy_pattern_answers_as_the_compiled_one():
    from pdsmem.mapping.privacy.plain import lazy

    pattern = lazy(r"(?i)pass(?P<rest>word)?", re.MULTILINE)
    search = pattern.search  # taken before it compiled, as `lazy(…).search` is
    assert "search" not in vars(pattern)
    assert search("my PASSWORD")["rest"] == "WORD"
    assert pattern.search("nothing") is None and pattern.findall("pass passw") == ["", ""]
    compiled = re.compile(r"(?i)pass(?P<rest>word)?", re.MULTILINE)
    assert pattern.flags == compiled.flags and pattern.groupindex == compiled.groupindex
    assert pattern.ignores_case


_NEEDLE_TEXT = st.text(alphabet=st.sampled_from("pasword:= -/(\nkeyİıпароль密码"), max_size=40)


@given(st.lists(st.text(alphabet=st.sampled_from("pasword:= -/(keyİıпароль密码"), min_size=1, max_size=6), min_size=1,
                max_size=12), _NEEDLE_TEXT)
def test_needles_finds_each_needle_a_text_holds_and_no_other(needles, text):
    """``Needles`` finds in one pass what a substring search per needle finds, a needle inside
    another and needles that overlap included."""
    from pdsmem.mapping.privacy.plain import Needles

    held = {needle for needle in needles if needle in text}
    found = Needles(needles)
    for _ in range(2):
        assert found.found(text) == held
        assert found.any(text) == bool(held)


def test_needles_finds_the_gates_needles_in_the_corpora():
    from pdsmem.mapping.privacy.plain import Needles

    everyone = sorted({needle for _, _, needles in labelled._CHECKS for needle in needles})
    found = Needles(everyone)
    assert found.found("my kennwort: x") >= {"wort", "kennwort", ":"}
    for corpus in ("tune", "tune4", "tune8", "tune10", "review"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                low = item["text"].lower()
                assert found.found(low) == {needle for needle in everyone if needle in low}, item["id"]


_WORDS = st.lists(st.text(alphabet="abp/-", min_size=1, max_size=4), min_size=1, max_size=8)


@given(_WORDS, st.sampled_from(["{}", "(?<![a-z])(?:{})(?![a-z])", "x(?:{})?", "(?:{})+b", "[ab]|(?:{})|\\b(?:a|ab)"]),
       st.text(alphabet="abp/- x", max_size=30))
def test_a_factored_alternation_matches_where_the_pattern_as_written_does(words, shape, text):
    """``factored`` takes shared first letters out of alternatives (and of ``(?:…)`` groups with no
    quantifier after them); whether a text matches does not change."""
    from pdsmem.mapping.privacy.plain import factored

    pattern = shape.format("|".join(re.escape(word) for word in words))
    assert (re.search(factored(pattern), text) is None) == (re.search(pattern, text) is None), factored(pattern)


@pytest.mark.parametrize("search, needles", [(beside._OPENS_WITH_WORDS, beside._OPENS_WITH_NEEDLES),
                                             (beside._A_MANAGER, beside._MANAGER_NEEDLES)])
def test_a_checks_needles_cover_every_match_of_what_it_needs(search, needles):
    """A check that runs only where its needles are, and needs a search to match first: each literal
    that every match of the search holds one of holds one of the needles."""
    from pdsmem.mapping.privacy.plain import folded_pattern, required_needles

    # (both in a text's lower case as (?i) reads it: "açıl" is "açil" there)
    folded = [folded_pattern(needle) for needle in needles]
    assert all(any(needle in required for needle in folded) for required in required_needles(search._pattern))


def test_the_needles_of_a_pattern_are_the_literals_every_match_holds():
    from pdsmem.mapping.privacy.plain import required_needles

    assert required_needles(r"(?:pin|pass)\s*+code") == {"code"}
    assert required_needles("pin|pass(?:word)?") == {"pin", "pass"}  # the parser takes "p" out of both
    assert required_needles(r"(?<![a-z])(?:k[óo]d|[şs]ifre)\w*") == {"kód", "kod", "şifre", "sifre"}
    assert required_needles(r"wi-?fi|wlan") == {"wi", "wlan"}
    assert required_needles("锁|lock") == {"锁", "lock"}  # one character of a script written without spaces
    assert required_needles("a|lock") is None  # one letter is in most lines
    assert required_needles(r"(?:secret)?\d+") is None  # a match may hold no literal
    assert required_needles("(?-i:Key)|code") is None  # a group with flags of its own gives none


_SHAPES = ["{}", "(?<![a-z])(?:{})(?![a-z])", "x(?:{})?y", "(?:{})+b", "[ab]c(?:{})", "(?:{})\\s*+z|q[xy]z",
           "a[bp]-(?:{})", "(?:{}){{2}}", "(?>{})-?p"]


@given(_WORDS, st.sampled_from(_SHAPES), st.text(alphabet="abp/- xyzq", max_size=30))
def test_every_match_holds_one_of_the_needles_read_from_its_pattern(words, shape, text):
    """``required_needles``: a text that holds none of them does not match (the cheap test that
    lets ``lowered_search`` skip its search)."""
    from pdsmem.mapping.privacy.plain import required_needles

    pattern = shape.format("|".join(re.escape(word) for word in words))
    needles = required_needles(pattern)
    match = re.search(pattern, text)
    if needles is not None and match:
        assert any(needle in match[0] for needle in needles), (pattern, needles, match[0])


def _lowered_searches():
    from pdsmem.mapping.privacy import plain

    for module in (rules, personal, labelled, told, beside, output, providers):
        for name, value in vars(module).items():
            if isinstance(value, plain._LoweredSearch):
                yield f"{module.__name__.rsplit('.', 1)[1]}.{name}", value


@pytest.mark.parametrize("name, search", list(_lowered_searches()), ids=[name for name, _ in _lowered_searches()])
def test_every_match_of_the_gates_line_searches_holds_one_of_their_needles(name, search):
    """What ``lowered_search`` skips by its needles (after its first lines) would not have matched:
    on every line of the tuning corpora, each match of the pattern holds one of them."""
    from pdsmem.mapping.privacy.plain import lowered, required_needles

    needles, pattern = required_needles(search._pattern), re.compile(search._pattern)
    for corpus in ("tune", "tune7", "tune13", "tune16", "review16"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                for line in item["text"].splitlines():
                    match = pattern.search(lowered(line))
                    if needles is not None and match:
                        assert any(needle in match[0] for needle in needles), (item["id"], name)


@functools.lru_cache(maxsize=256)
def _read_starts(pattern: str):
    from pdsmem.mapping.privacy import plain

    starts = plain.required_starts(pattern)
    if starts is None:
        return None
    return re.compile(pattern), plain.Needles(starts).ends, {start for start, word in starts.items() if word}


def _tried_where_it_starts(pattern: str, text: str) -> tuple[bool, list[tuple[int, int]]] | None:
    """Whether ``pattern`` matches ``text`` and where, found as ``lowered_search`` and ``lowered_spans``
    find them for a long pattern: tried only where one of its ``required_starts`` is (or None when it
    has none)."""
    from pdsmem.mapping.privacy import plain

    read = _read_starts(pattern)
    if read is None:
        return None
    compiled, ends, after_a_word = read
    places = plain._places(text, ends, after_a_word)
    spans, after = [], 0
    for at in places:
        if at >= after and (found := compiled.match(text, at)) is not None:
            spans.append(found.span())
            after = found.end()
    return any(compiled.match(text, at) for at in places), spans


_STARTS_SHAPES = ["{}", "(?<![a-z])(?:{})(?![a-z])", "x?(?:{})", "(?:{})+b", "(?:(?<!x)|(?<=y))(?:{})z?",
                  "\\w*(?:{})", "\\w+(?:{})|zz", "(?:ab|p-?)(?:{})", "(?>{})-?p", "(?:{}){{2}}", "\\b(?:{})\\b",
                  "ab(\\w*(?:{}))", "p(?:\\w*(?:{})|zz)"]


@given(_WORDS, st.sampled_from(_STARTS_SHAPES), st.text(alphabet="abp/- xyzq_", max_size=30))
def test_a_pattern_tried_where_it_can_start_finds_what_its_search_finds(words, shape, text):
    """``required_starts``: every match starts where one of them is (or in the word before one that a
    run of word characters may precede), so a search tried only there matches where the pattern's
    search does, and finds the same spans, left to right, as ``finditer``."""
    pattern = shape.format("|".join(re.escape(word) for word in words))
    tried = _tried_where_it_starts(pattern, text)
    if tried is not None:
        assert tried == (re.search(pattern, text) is not None,
                         [found.span() for found in re.finditer(pattern, text)]), pattern


@given(_WORDS, st.sampled_from(_STARTS_SHAPES), st.text(alphabet="abpABP/- xyzqXY_", max_size=30), st.booleans(),
       st.integers(0, 6))
def test_a_long_patterns_search_tried_where_it_can_start_finds_the_match_its_search_finds(words, shape, text, blind, pos):
    """``LazyPattern``'s search and finditer of a long pattern, after their first calls
    (``_TriedWhereItStarts``): the same matches as the pattern's own, case-blind or not, from any place on."""
    from pdsmem.mapping.privacy import plain

    pattern = ("(?i)" if blind else "") + shape.format("|".join(re.escape(word) for word in words))
    compiled = re.compile(pattern)
    tried = plain._TriedWhereItStarts(plain.lazy(pattern), compiled)
    tried._left = 1  # (tried where it starts from its first call)
    expected, found = compiled.search(text, pos), tried.search(text, pos)
    assert (found and found.span()) == (expected and expected.span()), pattern
    assert [found.span() for found in tried.finditer(text, pos)] == [found.span() for found in compiled.finditer(text, pos)]


def test_a_case_blind_patterns_search_finds_iota_written_as_a_ypogegrammeni():
    # (?i)'s "ι" matches U+0345, which the text's lower case keeps: such a text is searched as written
    from pdsmem.mapping.privacy import plain

    pattern = "(?i)(?:κωδικός|συνθηματικό)\\s*+[:：]\\s*+\\S+"
    assert plain.required_starts(pattern)  # (tried where it starts, but for this letter)
    tried = plain._TriedWhereItStarts(plain.lazy(pattern), re.compile(pattern))
    tried._left = 1
    text = "ο κωδ\u0345κός: Kx82pq"
    assert tried.search(text) is not None and tried.search(text).span() == re.search(pattern, text).span()
    assert [found.span() for found in tried.finditer(text)] == [found.span() for found in re.finditer(pattern, text)]


def test_a_case_blind_pattern_written_with_a_ypogegrammeni_is_searched_as_written():
    from pdsmem.mapping.privacy import plain

    pattern = "(?i)(?:\u0345x|yz)"
    tried = plain._TriedWhereItStarts(plain.lazy(pattern), re.compile(pattern))
    tried._left = 1
    assert tried.search("ιx") is not None and tried.search("ιx").span() == re.search(pattern, "ιx").span()


def test_a_word_that_repeats_a_start_is_walked_back_once():
    # "\\w*kod" over a word of "kod" repeated: each start walked back to the word's start made it
    # quadratic (minutes at 48,000 characters); each place is now reached once
    from pdsmem.mapping.privacy import plain

    text = "kod" * 1_000
    ends = plain.Needles({"kod": True}).ends
    places = plain._places(text, ends, {"kod"})
    assert places == list(range(len(text) - 2)), "every place of the word, once"
    calls, saved = [], plain._A_WORDS_CHARACTER

    def counted(line, at):
        calls.append(at)
        return saved(line, at)
    plain._A_WORDS_CHARACTER = counted
    try:
        plain._places(text, ends, {"kod"})
    finally:
        plain._A_WORDS_CHARACTER = saved
    assert len(calls) <= len(text)


def test_the_starts_of_a_pattern_are_the_literals_every_match_starts_with():
    from pdsmem.mapping.privacy.plain import required_starts

    assert required_starts(r"(?<![a-z])(?:pin|passcode)\w*") == {"pin": False, "passcode": False}
    assert required_starts("(?:ال)?باس") == {"الباس": False, "باس": False}  # a literal made optional
    assert required_starts(r"wi-?fi|wlan") == {"wi-fi": False, "wifi": False, "wlan": False}
    assert required_starts(r"(?:(?<!x)|(?<=y))লক") == {"লক": False}  # what takes no place is passed over
    assert required_starts(r"\w*kod|door") == {"kod": True, "door": False}  # a word's characters may come before
    assert required_starts(r"ab(\w*cd)") == {"ab": False}  # (not "abcd": a word's characters may come between)
    assert required_starts("a|lock") is None  # one letter starts most places
    assert required_starts(r"(?:secret)?\d+") is None  # a match may start with a digit
    assert required_starts("(?-i:Key)|code") == {"key": False, "code": False}  # in lower case, whatever the case


@pytest.mark.parametrize("name, search", list(_lowered_searches()), ids=[name for name, _ in _lowered_searches()])
def test_the_gates_line_searches_tried_where_they_can_start_find_what_they_find(name, search):
    """What ``lowered_search`` finds trying a long pattern only where a match can start is what its
    search finds, on every line of the tuning corpora."""
    from pdsmem.mapping.privacy.plain import lowered

    pattern = re.compile(search._pattern)
    for corpus in ("tune", "tune7", "tune13", "tune16", "tune31", "review16", "review52"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                for line in item["text"].splitlines():
                    line = lowered(line)
                    tried = _tried_where_it_starts(search._pattern, line)
                    if tried is not None:
                        assert tried[0] == (pattern.search(line) is not None), (item["id"], name)


def test_the_password_words_spans_tried_where_they_start_are_finditers():
    from pdsmem.mapping.privacy.plain import factored, folded_pattern, lowered

    written = folded_pattern(labelled._PASSWORD_LINE.pattern[4:])
    for corpus in ("tune", "tune16", "tune31"):
        for kind in ("leaks", "benign"):
            for item in _corpus(corpus, kind):
                line = item["text"]
                expected = [found.span() for found in re.finditer(factored(written), lowered(line))]
                assert labelled._PASSWORD_WORDS_AT(line) == expected, item["id"]


@given(st.lists(st.sampled_from(["x", "X", "xxxx", "XXXX", "_", "-", ".", "your", "my", "_test_", "4eC39", "TYooMQ",
                                 "a", " ", "Y"]), max_size=16).map("".join))
def test_the_substrings_asked_first_skip_no_stand_in(text):
    # ``_may_stand_in`` asks for substrings before its pattern: on any text, the pattern's answer
    assert privacy._may_stand_in(text) == (privacy._MAY_STAND_IN_AT(text) is not None)


def test_folding_a_pattern_leaves_ascii_as_it_is():
    from pdsmem.mapping.privacy import plain

    assert all(code > 127 for code in plain._FOLDED)  # (folded_pattern skips an ASCII pattern for that)
    assert plain.folded_pattern("κωδικός|pass") == "κωδικόσ|pass"


def test_a_factored_alternation_shares_first_letters_and_keeps_other_groups_whole():
    from pdsmem.mapping.privacy.plain import factored

    assert factored("pin|pass|door") == "p(?:in|ass)|door"
    assert factored(r"(?<![a-z])(?:pwd?|p/w|mdp)(?![a-z])") == r"(?<![a-z])(?:p(?:wd?|/w)|mdp)(?![a-z])"
    assert factored("(?:ab|ac)+|[ab]c|a?x|ay") == "(?:ab|ac)+|[ab]c|a?x|ay"  # quantified, a class, a letter made optional


def test_importing_the_gate_compiles_none_of_its_patterns():
    # docs/benchmarks.md, start-up: the patterns took about 90 ms of every mapping command's start
    code = (
        "import gc\n"
        "from pdsmem.mapping import privacy\n"
        "from pdsmem.mapping.privacy.plain import LazyPattern\n"
        "lazy = [o for o in gc.get_objects() if isinstance(o, LazyPattern)]\n"
        "assert len(lazy) > 100, len(lazy)\n"
        "compiled = [o.pattern[:30] for o in lazy if 'search' in vars(o)]\n"
        "assert not compiled, compiled\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


# -- the seventh tuning set's round (tests/privacy_corpus/tune7): each was missed or refused before ----

@pytest.mark.parametrize("text", [
    "Η ΑΜΚΑ μου: 13045624767",
    "เลขบัตรประชาชนของฉัน 1839544649833",
    "Мій РНОКПП 2170856980",
    "The verification code that just arrived is 482 913, read it out to me",
    "age key for the backups: AGE-SECRET-KEY-1QQQSYQCYQ5RQWZQFPG9SCRGWPUGPZYSNZS23V9CCRYDPK4GPG2QQQSYQCYQ5RQW",
    "Heslo k notebooku je kocicka, napsané malým písmem.",
    "Kochanie, hasło do laptopa to mango – wielkie litery ważne",
    "If the bank asks 'name of your first teacher', the answer I gave was Holloway.",
    "Mật khẩu máy tính là MeoconHoahongBienxanh, đừng nói ai",
    "wifi ở quán: rambutan_durian_mangcut",
    "Support chat: I told them my email password was \"seashell\" so they could reset the filter.",
    "My bank password is \"Copper Lantern Willow\" in case the app asks again.",
    "Lösenordet till surfplattan är hallon tiger sommar 41, säg det inte till någon",
    "Maple Harbor Violet 72 <- that's the passphrase for the old laptop",
    "Kr1stall! — that's what I set for the school portal",
])
def test_the_tune7_round_refuses_more_shapes(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "DB_PASSWORD=<your-password-here>",
    'password: "********"',
    "aws_secret_access_key = CHANGE_ME",
    "SESSION_SECRET=change-me",
    'secret: "••••••"',
    "Lösenordet på jobbet ska vara minst 14 tecken och får inte innehålla ditt namn.",
    "La password del portale scade ogni 90 giorni e non può essere uguale alle ultime tre.",
    "The password has to be 12 characters, with one capital and one digit.",
    'My password was "the same one as before", the agent said that was fine.',
    "UserProfileSettings handles the password form; see the settings page.",
    "Rename password_reset_token_table before the migration.",
])
def test_the_tune7_round_passes_what_is_no_secret(text):
    assert privacy.sensitive_reason(text) is None, text


# -- a review's texts aimed at the rules of this round: each was refused by them -------------------

@pytest.mark.parametrize("text", [
    "Commit 3b1f0e9c4d2a8b7e6f5a4c3d2e1f0a9b8c7d6e5f fixed the token refresh bug.",
    "Der Nutzer hat sein WLAN-Passwort geändert und möchte es nicht gespeichert haben.",
    "My login name is Nowak, with a capital N.",
    "Username on the forum is Sparrow, with a capital S; the password is in the manager.",
    "रमेश का पिन कोड 110001 है।",
    "รหัสไปรษณีย์ของที่ทำงานคือ 10330",
    "Codul poștal este 400001 în Cluj.",
    "The customer portal had 5120 signups last week.",
    "Il citofono al civico 1207 non funziona.",
    "Backup codes were regenerated on 14 March 2025.",
    "Verification code format is 000 000 in the mockup.",
    "Kindle Oasis — that's what I use for reading at night.",
    "Blue Ridge Parkway — that's what I picked for the trip.",
    "Helvetica Neue - that's what I picked for the logo.",
    "Mountain Bike Trail <- that's the code name for the project.",
    'In the old film the password was "Open Sesame".',
    "Watched the course module Password Security Basics Lesson 4.",
    "The password field validation lives in forms.signup.validators now.",
    "The password rules are in the wiki under security_guidelines_final.",
    "Password reset emails come from MicrosoftOnlineServices these days.",
    "Contraseña del wifi: pregunta luego arriba.",
    "Biztonsági kérdés: nem kötelező a banknál.",
    "The new password is tricky, all lowercase and no numbers.",
    "Wifi password: always changes monthly, annoyingly.",
    "My mailbox has 2300 unread emails.",
    "Next door neighbour paid 4500 for the new fence.",
    "Delivery pin codes covered: 560001, 560034, 560095, 560102.",
])
def test_what_the_review_aimed_at_the_new_rules_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "The key safe by the garage has code 2016, the year we moved in.",
    "The code for the bike shed is 3-1-0-7.",
    "Tată, parola de la tabletă e veverita, cu literă mică.",
    "QuickBooks, Ana's login: ledgerfox41",
])
def test_and_the_codes_and_passwords_near_them_are_still_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- a repository's own names are public -------------------------------------------------------------

_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"


@given(st.text(_BASE32, min_size=24, max_size=24), st.text("234567abcdefghijklmnopqrstuvwxyz", min_size=13, max_size=13))
def test_no_did_or_at_uri_is_taken_for_a_secret(suffix, rkey):
    """Regression: about one DID in 300 was refused ("did:plc:…72fajtzo" read as a TOTP seed, "…6pw3…"
    as a password), and with it every memory of that person naming a record: an export's test
    failed on such a random account."""
    did = f"did:plc:{suffix}"
    for text in (did, f"at://{did}/dev.bastienrobert.memory.record/{rkey}",
                 f"Imported from at://{did}/app.bsky.feed.post/{rkey} yesterday."):
        assert privacy.sensitive_reason(text) is None, text


def test_a_secret_beside_a_did_is_still_refused():
    assert privacy.sensitive_reason("my password is hunter22, my DID is did:plc:l3enad6siz7mrmxq72fajtzo") is not None
    assert privacy.sensitive_reason("did:plc:l3enad6siz7mrmxq72fajtzo") is None


# -- the rounds after tune7 (its misses, then tune8): the clause a lock's number is in, words of ------
# -- scripts without spaces, ordinary words that open a device, Latin passwords in other scripts, ----
# -- bare values, lists, chats, stand-ins, more countries' numbers --------------------------------------

@pytest.mark.parametrize("text", [
    # a word of a script written without spaces right before or after
    "実家のWi-Fiは kotatsuneko",
    "老家的wifi是 dahuang2020",
    "회사 노트북은 Hangang1993으로 열려.",
    # a Latin password in a sentence of another script
    "Пароль от вайфая nebulanala, никому не говори",
    "اسم المستخدم root وكلمة المرور crimsonsimba",
    # tune8: a password right after its word, a list of them, a chat that answers with one
    "Inloggen bij de webmail: gebruikersnaam jlpicard77, ww fiet652sbel",
    "Laptopun şifresi SIMIT28, unutmayayım diye buraya yazıyorum.",
    "Usuario bszabo y contraseña cobaltbanjokestrel para entrar en la banca online.",
    "Đăng nhập VPN công ty: tài khoản hyejin.park, mật khẩu MUADONG94.",
    "Passwords so far: modem kes261trel, NAS lighthouse7585, camera app snowdrop9184.",
    "me: what's the wifi password?\nSam: it's glimmerfox",
    "wifi password? glimmerfox",
    "creds for the Spotify family plan account are sofia.lind@yandex.ru:Copper54#",
    "smtp://s.dahl@icloud.com:hLeVfosTh4bGioHXRxhW@smtp.gmail.com:587",
    # tune8: numbers of more countries, a key box, security answers
    "O meu NIF é 191791873.",
    "NHS number for my son is 805 779 2329.",
    "NISS belge de l'utilisateur : 87.10.13-264.79",
    "NI number SL 73 84 71 B, put it on the HMRC form.",
    "De code van het sleutelkastje is 1208.",
    "安全问题「第一只宠物的名字」答案是Mango。",
    "User set the recovery question 'favorite childhood friend' to Aisha for their Microsoft account.",
])
def test_the_rounds_after_tune7_refuse_more_shapes(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Delivery pin codes covered: 560001, 560034, 560095, 560102.",
    "Flight 4412 lands at 9, gate code for the lounge is on the boarding pass.",
    # a review's texts aimed at this round's rules, each refused by its first form
    "The bonus level unlocks with patience.",
    "On my laptop the terminal opens with bash.",
    "Bilen låser upp med appen.",
    "Looked up the error on the alarm keypad. 4012 is a low-battery warning.",
    "The keypad error list, e.g. 4012 for a jammed bolt, is in the PDF.",
    "wifi密码用 keepassxc 保存。",
    "كلمة المرور محفوظة في bitwarden.",
    "Ο κωδικός σφάλματος στο log ήταν econnreset.",
    "安全问题的答案不要用真实信息。",
    "सिक्योरिटी सवाल का जवाब कभी सच मत लिखो।",
    "Set the recovery question 'first pet' to something random and stored it in Bitwarden.",
    "Microsoft's recovery question page is broken in Firefox.",
    "Passwords: kept in Bitwarden, collection team-infra-2024.",
    "Logins: staging via bastion01, prod via bastion02.",
    "Login is host:port, e.g. db.internal:5432.",
    "Credentials are key:value pairs in the secret.",
    "me: which ticket tracks the password reset bug?\nSam: AUTH-1432",
    "me: which version of the password hashing lib do we pin?\nSam: v2.4.1",
    "NI number lookup for payroll, batch PR202401B ran fine.",
    "노트북 CPU는 Ryzen7840U예요, 배터리는 오래가요.",
    "The .env.example has SMTP_URL=smtp://alerts@acme.io:APP_PASSWORD@smtp.sendgrid.net:587 as the template.",    "пароль от Wi-Fi на роутере",
    "пароль для Gmail сменил вчера",
    "密码管理器用的是 Bitwarden",
    "密码字段在数据库里用 argon2 哈希存储，明文从不落盘。",
    "Пароль хранится в Bitwarden",
    "パスワードは Dashlane に保存",
    # tune8: what documentation and tests write where a secret goes
    'export ANTHROPIC_API_KEY="YOUR_KEY_HERE"',
    'export GEMINI_API_KEY="your-api-key"',
    'dummy_secret = "test"',
    "//registry.npmjs.org/:_authToken=NPM_TOKEN_HERE",
    "SLACK_BOT_TOKEN=dummy  # placeholder, set the real one in CI",
    "export DB_PASSWORD=$(vault kv get -field=token secret/orders)",
    "STRIPE_SECRET_KEY=sk_live_xxx",
    "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "redis://:<password>@redis:6379/0",
    "postgresql://<user>:{password}@HOST:5432/DBNAME",
    "DATABASE_URL=mysql://root:CHANGE_ME@localhost:3306/dev",
    'user = UserFactory(email="test@example.com", password="changeme")',
    # tune8: a question mark is no password's sign; a count in Chinese is no code
    "Para recuperar la cuenta, usa el enlace «¿Olvidaste tu contraseña?».",
    "Passwort vergessen? Über „Passwort zurücksetzen“ eine neue Mail anfordern.",
    "密码至少8位，需包含字母和数字，每180天更换一次。",
    "I need a password reset.",
    "Wachtwoord vergeten, opnieuw instellen.",
    "Passwords: use a manager, never reuse them.",
    "The recovery question is optional.",
    "My national insurance number is QQ123456C",  # HMRC's own example, which no number may be
])
def test_the_rounds_after_tune7_pass_what_is_no_secret(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    # a stand-in is the whole value: one that starts a real secret hides nothing
    "password=Dummy!2024",
    "API_KEY=your-9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c",
    "DB_PASSWORD=placeholder99!Q",
    "postgres://app:your_Pa55w0rd@db.acme.io/prod",
    "redis://:{r3disPassw0rd}@cache:6379",
    # an example key beside a real one
    "Example:\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\nMine:\n"
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x2Zb9Q\n-----END RSA PRIVATE KEY-----",
])
def test_and_a_stand_in_word_inside_a_secret_hides_nothing(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the round on tune9: documented test values, placeholders in brackets, words of more languages, --
# -- codes in capitals, random cases, more providers and numbers ---------------------------------------

@pytest.mark.parametrize("text", [
    # words for a password in Danish, Lithuanian, Estonian, Slovenian, Croatian, Catalan, Polish cases
    "Netbanken bruger kodeord Smørrebrød1987.",
    "Mano Gmail slaptažodis yra Vilnius_1990.",
    "Ruuteri parool on Kadakas!44.",
    "Geslo za banko je Triglav_2864.",
    "Lozinka za e-mail je Jadran#1975.",
    "La contrasenya del correu és Montjuic_82.",
    "Po haśle Wawel%1364 widać, że to konto babci.",
    "Przy haśle koala-mango-tulip7 aplikacja się otwiera.",
    # capitals and small letters at random
    "La password del router è qHWtaPLeKu, detta dall'utente.",
    # a key after the word for Wi-Fi; the new one, in Finnish; a list named before its colon
    "Guest Wi-Fi at the studio: network StudioGuest, key lemonTree!58.",
    "Hän vaihtoi salasanan: uusi on Koivu!Järvi7.",
    "Passwords the user gave me today: Steam Gr4nite#19, bank otter-walnut-lamp5.",
    # security answers set to, in Norwegian
    "Mother's maiden name at the bank is set to Nowakowska.",
    "Sikkerhetssvaret (første kjæledyr) er satt til Pusur.",
    # codes: a lock's in Catalan; backup codes in capitals
    "El codi del garatge és 9031.",
    "Backup-Codes für Proton: YPENUFX2ET, IQ35EMF4TJ, KZR2CSDM6C, K47TM3EZNY",
    # a Supabase token, a PyPI token of any length, htpasswd with its options apart
    "sbp_0123456789abcdef0123456789abcdef01234567",
    "uploaded with pypi-AgEIcHlwaS5vcmcCJDk3ZjY3Yjc5LWEyOGItNDA2MC1iMzM0 last night",
    "htpasswd -b -c .htpasswd deploy walnut-amber-cove4",
    # a Belgian national number written with its stops after "registre national"; a South African id
    "Numéro de registre national : 85.07.30-033.28",
    "Her South African ID number is 8001015009087.",
])
def test_the_round_on_tune9_refuses_more_shapes(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_a_word_that_starts_like_a_hashing_scheme_is_no_description():
    """Regression: "sha" of SHA-256 took "Shakshuka77" for a description of a hashing scheme."""
    assert labelled._password_shaped("Shakshuka77") and not labelled._password_shaped("sha256")


@pytest.mark.parametrize("text", [
    # a published test number given as a real card is, with its expiry or CVV, or not named as a test
    "4111 1111 1111 1111, exp 12/28, CVV 123",
    "My card is 4242 4242 4242 4242.",
    "Test card 4000 0566 5566 5556, exp 09/27",
    # what the round's exemptions must not reach: a name with its own value, a real random key
    "PGPASSWORD=Xk9!fjw2Lq psql -h db.internal analytics",
    "User keeps the router password as bQRtaPLeKu in the notes.",
    "AWS_ACCESS_KEY_ID=AKIAJ5Q7R2XYZEXAMPLE",  # "EXAMPLE" at its end, but not AWS's own example
])
def test_and_the_round_on_tune9_exempts_no_real_secret(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # values providers and the IBAN registry publish for tests
    "Stripe test card 4242 4242 4242 4242 works in the sandbox.",
    "Braintree's docs list 3782 822463 10005 as the Amex test number.",
    "The IBAN example in the registry's docs is GB82 WEST 1234 5698 7654 32.",
    "AWS docs use AKIAIOSFODNN7EXAMPLE as the example access key id.",
    "TWILIO_ACCOUNT_SID=ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    # placeholders in brackets and elided values
    "PGPASSWORD=<secret> psql -h <host> analytics",
    "docker run -e MARIADB_PASSWORD=<pick-a-password> -p 3306:3306 mariadb:11",
    'En la guía aparece password: "<tu_contraseña>".',
    'export ANTHROPIC_API_KEY="sk-ant-..."  # paste yours',
    "Die Doku zeigt als Beispielpasswort „Passwort2024“, bitte nicht übernehmen.",
    # rules about PINs and passwords, with examples of what is not allowed
    "The bank PIN must be 4 digits and can't be a sequence like 1234.",
    "Requisiti password: almeno 12 caratteri e un simbolo.",
    "Passwort: mindestens 10 Zeichen, eine Ziffer.",
    # a documented default, Dutch "je" (you), a password manager's name, a hashing scheme's name
    "The default login for the Home Assistant demo is admin/admin per the docs.",
    "Hij vroeg hoe je een wachtwoord deelt met je collega.",
])
def test_the_round_on_tune9_passes_what_is_no_secret(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", ["User keeps every password in KeePassXC.", "The password NTLMv2 hash leaked in 2012.",
                                  "Password rules for the iPhoneXSMax app: 8 characters."])
def test_the_round_on_tune9_leaves_names_alone(text):
    """Guards for the round's rules: a name mixing cases is no random value, NTLMv2 is a scheme."""
    assert privacy.sensitive_reason(text) is None, text


# A fresh-eyes review of the round aimed 180 ordinary memories and 92 leaks at its rules: the first
# form refused 20 ordinary texts the gate had passed and passed 19 leaks it had refused, and a line
# of 40,000 characters in Estonian took 8 s (each token searched all that came before it). These
# are its texts, each failing on the first form; the timing is in the hostile benchmark.
@pytest.mark.parametrize("text", [
    "My phone PIN is like 4829 lol, don't judge.",  # "like" before a number that is no example
    "Changed my router from the default; the login is now admin/123456.",  # a default no longer
    "Server login root/root (standard setup), IP 10.0.4.22 on my home LAN.",
    "NAS login admin:1qaz2wsx",  # no image's tag
    "ftp creds backup:2bornot2be on the old server",
    "Sample of what I use: login pass4Bank!",  # more than the word itself
    "DB_PASSWORD=Kanel77...",  # a password, then dots
    'Kodeordet er "blå hest løber 17"',  # a quoted passphrase after the new words
    'La contrasenya és "gat verd mar 12"',
    # a client's own try: the Scandinavian words for a network's key, which a Wi-Fi password is
    "Netværksnøgle til sommerhuset er Strandvej42.",
    "Nätverksnyckeln hemma är Tallskog77!",
])
def test_the_review_of_the_round_on_tune9_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Password e PIN/OTP vanno sempre nel vault, mai in chiaro.",  # Italian "e" is "and"
    "Geslo je poteklo, jutri ga zamenjam.",  # an ordinary word of a language with no word list
    "Lozinka je prekratka, traži se najmanje 12 znakova.",
    "Test for the password reset view mocks getIdByUrl and toHexStr.",  # camelCase is no random case
    "Wi-Fi 6E test: the key result is 940Mbps on channel 37.",
    "Security question reminder is set to quarterly in the IAM policy.",
    "El codi del producte és 8841 i costa 35 euros.",  # a product's code, not a lock's
    "Codul de eroare 502B apare când gateway-ul nu răspunde.",
    "The password is hmacSHA256-signed before it leaves the client.",
])
def test_the_review_of_the_round_on_tune9_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# A client's try published a PIN spelled out in words; and "Türcode" named no lock.
@pytest.mark.parametrize("text", [
    "User's bank PIN is seven three zero five.",
    "Alarm code: nine, four, one, one",
    "Der Türcode ist sieben-drei-null-fünf.",
    "Der Türcode ist 7305.",
    "El código del portal es siete tres cero cinco.",
    "De code van de deur is zeven drie nul vijf.",
])
def test_a_code_spelled_out_in_words_is_refused(text):
    assert labelled.reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Count down: five four three two one, then open the door.",  # counting, not a code
    "The door code has one two three letters in it, said the manual.",  # three words: no code
    "The lock has four digits and the PIN six.",
])
def test_numbers_in_words_near_a_lock_that_are_no_code_pass(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text, refused", [
    ("The bank PIN must be 4 digits and can't be a sequence like 1234 or 0000.", False),
    ("PIN rules: no sequences like 1234, 1111 or 9999.", False),
    ("The PIN can't be something like 1234 or 4829", True),  # 4829 is no example of a run
    ("Door code 1234 or 0000", True),  # no word says these are examples
])
def test_a_pin_rule_may_give_several_examples(text, refused):
    """Regression: a rule's second example ("like 1234 or 0000") was read as a PIN."""
    assert (privacy.sensitive_reason(text) is not None) is refused, text


# -- the round on tune10: a writer who wrote most prose passwords by hand, as an agent's memory ---
# tool writes them, in 45 languages. Each text refused below passed the gate before the round; of
# those that pass, the last guards the round's own first form ("till … den 11.11.2024" read as a
# phrase and a number).

@pytest.mark.parametrize("text", [
    # the word for a password in eight more languages
    "Pasahitza: mendia88", "Lykilorðið á fartölvunni er Hekla1947.", "Nenosiri la simu ni tembo2021.",
    "Kata laluan e-mel pengguna: nasilemak77", "رمز عبور وای‌فای خانه: Golnar1401",
    "ব্যবহারকারীর ল্যাপটপের পাসওয়ার্ড হলো hilsa2002।", "Datora parole: saulespuke12.",
    # answers to security questions, named as answers
    "Sicherheitsantwort (Name der ersten Schule): Lindenhof",
    "Risposta di sicurezza di Marco (città natale): Bergamo",
    "Resposta de segurança (nome do avô): Joaquim",
    # password options of mongo's and rclone's command lines
    'mongosh "mongodb://db.example.internal" -u admin -p pebblemoonfern71',
    "rclone config create nas sftp host nas.lan user bob pass HKtd2PqoWm-xEz",
    # national numbers whose check holds
    "ITIN for the contractor: 947-71-8974", "ЕГН на клиента: 2744112455",
    # codes: groups before a comma, more words for a lock, an intercom's letter
    "Garagentor Code: 48 13 77, dann Enter.", "alarm panel at the studio: 4-0-7-1, then OFF",
    "Portkod till gården: 8 3 1 2", "Kod do domofonu: 23K7.", "Code für den Schlüsselkasten: 740261",
    # phrases with a number, quoted or after a colon or "is"
    "Wachtwoord van de NAS: otter lantern plum 58",
    "le mdp c'est « marée basse 33 », avec les espaces",
    'the backup password is "correct staple lamp 19" for now',  # "correct" describes a password, alone
    "Password for the shared drive is tulip anchor 64, with the spaces.",
    # whose password, then what for; a plain word after "einfach nur"
    "Hasło Marka do Allegro: kaktus", "הסיסמה של Dana ל-Gmail: pomelo",
    "Mein Passwort für den Verein ist einfach nur handball, bitte merken.",
])
def test_the_round_on_tune10_refuses(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Changed the Nextcloud password on 2024-11-02; the new one is 20 characters long.",
    "BitLocker key format in the wiki: 000000-000000-000000-000000-000000-000000-000000-000000.",
    'api_key: "IHR-SCHLUESSEL" steht als Platzhalter in der Vorlage.',
    "SECRET_KEY=changez-moi dans le modèle, à remplacer.",
    "テスト用カード番号 4242 4242 4242 4242 を使うこと。",
    "The keypad demo in Storybook uses 1234 as the example value.",
    "User asked about a luggage lock; a 3-digit lock only has 1000 combinations.",
    "Hasło do drukarki nadal jest fabryczne.",
    'Placeholder password in the fixture is "password123"; it only runs against a local database.',
    "Fritz!Box firmware updated; the Wi-Fi password was changed yesterday.",
    "Greta bytte lösenord till Instagram den 11.11.2024.",
])
def test_the_round_on_tune10_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text, refused", [
    ("API_KEY=TU_CLAVE_API in the example .env", False), ("token: LA_TUA_CHIAVE", False),
    ('api_key="SUA_CHAVE_AQUI"', False), ("DB_PASSWORD=A_REMPLACER dans le modèle", False),
    ("password: jouw-wachtwoord (template)", False),
    # a digit, or no word for a key: a value
    ("SECRET=tu-perro-2019", True), ("API_KEY=ta-da-Zx9Q2", True), ("password: su_casa", True),
])
def test_stand_ins_in_other_languages_are_whole_values_of_words(text, refused):
    """"Your key", "key here" and "to replace" in the languages the gate reads are stand-ins when
    the whole value is such words; a digit or words that name no key make it a value."""
    assert (privacy.sensitive_reason(text) is not None) is refused, text



# -- the round on tune11: a writer of hard ordinary memories (stand-ins, demo values, rules with
# examples, numbers near a lock's word) and of prose passwords in 54 languages; and a client's try
# with the Hermes provider. Each text below was judged the other way before the round.

@pytest.mark.parametrize("text", [
    "Verificatiecode die net binnenkwam: 448213",
    "보안 질문 '첫 학교'의 답은 '한빛'.",
    "Секретный вопрос банка: девичья фамилия матери — Petrova",
    "Säkerhetsfrågan 'första husdjuret' har svaret Smulan.",
    "Per la domanda di sicurezza 'primo insegnante' la risposta è Rossi.",
    'redis-cli -h cache -a "moon river walk" PING',
    "Fjalëkalimi i Wi-Fi është 'dardha44'.", "O contrasinal do correo é 'pemento88'.",
    "Šifra za ruter je 'bosanac2021'.", "psw gestionale magazzino = Ducati_916",
    "Lietotāja parole e-pastam ir 'Daugava77!'.",
    "The NAS password is orange kettle river 58 (with spaces).",
    "Das Passwort für den Laptop ist richtig Pferd Laterne 73 (mit Leerzeichen).",
    "Türcode 1987#", "הקוד לשער הוא 1987#",  # a year's digits, then the keypad's "#"
    "número do Cartão de Cidadão: 31939071 0 ZZ0",
])
def test_the_round_on_tune11_refuses(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "WLAN-Name ist 'Sonnenweg_5G', das Passwort hat nur der Vermieter.",
    'let secret = std::env::var("API_SECRET").unwrap();',
    "Kundennummer bei der Bahn: 48213377, nicht die PIN.",
    "Policy: PIN of 6 digits, 1234 같은 연속 숫자 금지.",
    "规则：PIN为6位数字，禁止1234这类连续数字。",
    "Le PIN doit avoir 6 chiffres, pas de suite comme 1234.",
    "Demo PIN 0000 appears in the onboarding video as the example value.",
    "The BIP-39 test vector 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon about' is what the wallet library's unit tests use.",
    "Stripe test card for Brazil 4000 0007 6000 0002, test mode only.",
    "Adyen test card 5555 3412 4444 1115, expiry 03/2030, CVC 737, from their docs.",
    "Exemple dans la doc : sk_live_xxxxxxxxxxxxxxxxxxxxxxxx (fictive).",
    "locker 2210 at the station; its code comes by SMS.",
    "In het voorbeeld staat DB_PASSWORD=vul_hier_in.",
    'User\'s security question answers are random strings — "never real ones".',
    "Question secrète : elle a choisi « premier animal », je ne connais pas la réponse.",
    "The Kubernetes docs example uses password: cGFzc3dvcmQ=.",
    "AWS docs example: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "The user's PIN rule: never use obvious PINs, not 1234 or 0000.",  # the client's try
    "Código de reserva KXQWPZ para el vuelo, asiento 14C.",
    "Vaihdoin salasanan; uusi on Proton Pass:ssa.",
])
def test_the_round_on_tune11_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# A fresh-eyes review aimed 75 ordinary memories and 83 leaks at the rounds on tune10 and tune11:
# their first form refused 28 ordinary texts the gate had passed and passed 22 leaks it had
# refused, and lines of 40,000 characters took up to 20 s (a stand-in's words repeated). These
# are its texts; each was judged the other way by the first form.
@pytest.mark.parametrize("text", [
    "WLAN-Passwort: dein-schluessel-zum-glueck", "DB_PASSWORD=tu-clave-de-mallorca",
    'api_secret = "ton-secret-bleu-marine"', "Mein Passwort lautet sonnen-key-hier.",
    "SMTP_PASSWORD=zmien-mnie-kotku", "My bank app password is changez-moi-jamais",
    "Alarm code is 1111 — I set it after the demo day at work.",
    "My bank card PIN is 1234; I know, the example they warn about.",
    "Garage keypad: 9999. Demo of the new opener went fine.",
    "The PIN is 0000 as the example says, and I kept it on my bank card",
    "Security question (first pet): Ella", 'Security answer for the bank: "Elle"',
    "Domanda di sicurezza, nome del nonno: Lui.", "Salasana on 14.03.1988",
    "Combination for my gym locker 4721", "Tresor im Zimmer: 4471",
    "Der Bestätigungscode ist 482913, gültig zehn Minuten.", "Bank just texted the OTP: 381 902.",
    "The BIP-39 test vector abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "about is for tests; my wallet seed: legal winner thank year wave sausage worth useful legal winner thank yellow",
])
def test_the_review_of_the_rounds_on_tune10_and_tune11_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    'Our MDP for the robot is "Cliff Walking Grid" from Sutton and Barto.',
    'The pw alias in my shell is "playwright test headed" for debugging.',
    'The password prompt in the installer is "Enter Disk Passphrase".',
    "PSW bits: CY AC F0 RS1 RS0 OV - P; test with MOV PSW,#18h to switch bank 3.",
    "The password field is trimmed before hashing, with spaces inside kept as typed.",
    "hasLeadingSpace is true for inputs like foo bar (with spaces in front), see the tokenizer test.",
    "Die Sicherheitsfrage ist Pflicht bei der Registrierung im Kundenportal.",
    "La domanda di sicurezza è Google che la chiede, non la banca.",
    "Sicherheitsantwort — muss man sich merken, sonst ist das Konto weg.",
    "Der Bestätigungscode (Beispiel aus der Doku): 123 456.",
    "The door sign at the kindergarten says: two four six eight, who do we appreciate!",
    "The keypad driver logs null, null, null, null when the bus is idle.",
    'mongodump --password="$(cat /run/secrets/mongo_pw)" reads the secret from a file.',
    "In axum, secret = State::<AppState>::from_ref(&state) compiles only with FromRef derived.",
    "let password = String::new();",
])
def test_the_review_of_the_rounds_on_tune10_and_tune11_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- what the review of the last rounds still found (docs/reliability.md, "What is still missed") ---

@pytest.mark.parametrize("text", [
    "psw: Lupo-Bianco-42", "Parole: Egle-Liepa-07",  # words and a number joined by hyphens
    "Master password: orange-tiger-naps-in-sun",
    'The safe password is "the copper heron sleeps 81"',  # a quoted phrase from a small word
    "Don't tell the kids the PIN, it is like 6203.",  # "is like": a PIN, not an example
    "Kundennummer 33417, Torcode 5820",  # a customer's number, then a code
    "Portkod: fyra två nio sju", "Alarm code is eight 1 zero 6",  # Swedish digits, words and digits mixed
    "Garage code is four three two one",  # a sequence, but named as the code
    "Coffre du bureau : 8152",  # a safe in French
])
def test_the_reviews_leftovers_are_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Never choose a PIN like 1470 (the left column) or 3179 (the corners).",  # a warning's examples
    "Avoid door codes such as 2589, 1397 or 7319.",
    "Sample PIN 6630 is shown in the bank's demo video, not a real PIN.",  # a demo's code said to be no real one
    "Vahvistuskoodi on kuusi numeroa, esim. 123 456.",  # the second half of an example in groups
    "Smoke alarm battery replaced on 4 11 23, per the invoice.",  # a date
    "The security question is Google's old recovery flow; it was retired.",  # a service's feature
    "The password policy is state-of-the-art.",  # a compound of four words is no passphrase
    "Countdown: five four three two one, liftoff",  # a count, not a code
    "Kundennummer beim Stromanbieter: 44810213, nicht die PIN.",
])
def test_the_reviews_leftovers_pass(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("value, expected", [
    ("${DB_PASSWORD}", True), ("%APPDATA%", True), ("<password>", True), ("os.environ['SMTP_PASS']", True),
    ("getpass.getpass()", True), ("changeme", True), ("updated.", True), ("YOUR_API_KEY", True),
    ("process.env.TOKEN", True), ("SecretStr)", True), ("settings.SECRET_KEY", True), ("xxxxxxxx", True),
    ("None", True), ("JIRA-1234", True), ("Vec::<u8>::new()", True), ("...", True), ("DEIN-SCHLUESSEL", True),
    ("harbor1027", False), ("Daisy1971!", False), ("Fm8wQ0VTWzx", False), ("purple-walrus-42", False),
    ("Xunta-365", False), ("h@rb0r20", False),
])
def test_a_value_kept_elsewhere_or_computed_is_told_from_one_given(value, expected):
    """``_not_a_value``: what a value starts with or is whole, asked at its start, and what it holds
    anywhere, searched in its lower case."""
    assert labelled._not_a_value(value) is expected


# -- the round on tune12 (a fourteenth writer; heldout11 held out): each refused or passed wrongly before --

@pytest.mark.parametrize("text", [
    "Die wagwoord van die skoolportaal is Koeksister!88.",  # Afrikaans
    "மின்னஞ்சல் கடவுச்சொல் Madurai1999#",  # Tamil
    "Лозинка за рутер је sarma_kupus.",  # Serbian, a Latin value
    "رمز وای‌فای dariush_kavir است.",  # Persian
    "Pregunta secreta del banco, ciudad natal de mi madre: Albacete",
    "Geheime vraag (naam eerste huisdier): Snuffie",
    "Code de récupération Dropbox : 7hkw2q9xv0ld4mze8rtu1cyb6pna3sfg",
    "The code for the shed padlock is four-one-eight.", "Koden til postkassen er syv-tre-fem.",
    "Facebook password ng pinsan ko: tinola_sarap",  # Tagalog "ng", words joined by "_"
    "A senha do roteiro é bacalhau_com_natas.",
    "redis-cli -h cache.example.net -a K4ng4r00s41 ping",  # a value that starts like a version ("K4…" no, "v3…")
    "redis-cli -a V8rdant221 info",
    "Användaren sa att tv-lösenordet i stugan är lingonsylt.",
    "הקוד של הכספת בחדר: 1987",  # a year's shape, told as the code
    "La contrasenya de la tauleta és BonDia!.",  # the value's sign, then the sentence's stop
    "Kullanıcının e-Devlet parolası Izmir.35.Izmir imiş.",
    "Moje hasło do Steama to po prostu zielony smok, ze spacją.",
    "Katanya password wifi rumah itu nasi goreng ayam, pakai spasi.",
])
def test_the_round_on_tune12_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Docs for Anthropic show the key as sk-ant-xxxxxxxxxxxxxxxxxxxxxxxx; a placeholder.",  # a body of x's
    "AWS_SECRET_ACCESS_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX  # from the template",
    "The Slack guide writes the token as xoxp-your-user-token.",  # words for what goes there
    "Stripe's docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc in every example.",  # Stripe's documented key
    "設定例では DB_PASSWORD が <your-value> のままだ。",  # a variable's name is no value
    "La plantilla deja API_TOKEN=TU_VALOR_AQUI sin rellenar.",  # "your value here" in Spanish
    "У шаблоні пароль позначено як CHANGE_ME.",
    "Ahmed changed the bank password on 2023/11/30; the new one is in his vault.",  # a date with slashes
    "Zij vroeg of ik haar wachtwoord kon bewaren; dat heb ik geweigerd.",  # "kon" is no "on"
    "Im Kurs stand passwort123 als Beispiel für ein schlechtes Passwort.",  # a lesson's example
    "Di contoh konfigurasi, kata sandi ditulis rahasia2024 dan harus diganti.",
    "Virhekoodi 503 tarkoittaa, että palvelu on alhaalla.", "Сервер відповідає кодом 502 під навантаженням.",
    "Przykładowy IBAN z rejestru: DK50 0040 0440 1162 43, do testów.",  # the registry's example
    "银行规定：密码不能太简单，例如 111111 不行。", "The PIN can't be a straight run like 4567.",
    "Reminder to print fresh backup codes for GitHub after 2026/01/15.",  # a date after a word
    "Renamed reset_password to send_reset_link in auth/views.py.",  # a rename in code
    'OpenAPI sample body: {"email": "string", "password": "string"}.',  # a schema's types
    "The password is case-sensitive and the user forgets the capital.",
    "The password field is trimmed before hashing, with spaces inside kept as typed.",
    # a client's try: a lesson's example of a kind of password
    "Taught the user that a password like 'password123' is cracked in seconds; suggested a passphrase.",
])
def test_the_round_on_tune12_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# A fresh-eyes review aimed 87 leaks and 88 ordinary memories at the leftovers' rules and the round's
# speed-ups (its texts). Their first forms passed 53 of the leaks and refused 41 of the ordinary ones
# that the gate had answered right before: the exemptions were too wide, and three rules too.

@pytest.mark.parametrize("text", [
    "Bike lock combo is set on 10-24-36.",  # a date's shape, but a lock is named in its clause
    "Storage unit padlock reset on 3-14-27 by Maria, that's the combo now.",
    "Le code du cadenas de Léa, c'est le 12-04-31.", "El código del candado de la bici de Pablo es el 3-15-27.",
    "Do not share codes like 4821 (our front door) with the cleaner.",  # no choosing verb: no warning's example
    "Brug ikke samme kode som 4821 på garagen, den er til hoveddøren.", "Använd aldrig samma kod som 6619 till förrådet.",
    "Never text door codes such as 3906 again, that is the actual code for Apt 4B.",
    "PW portal Kx82!mqLzP for the tax office.", "Senha do portal Jk8Lm2Qw9Xe da prefeitura",  # "portal" names no value
    "During the demo, Priya typed her real banking PIN 5830 instead of the fake one.",  # "fake" of another
    "En la demo Carlos usó su PIN real 4821 del banco, no el falso.",
    "In the demo video the safe's PIN 4408 is visible; it is not a real demo value, it's Tom's safe.",
    "First pet: Grandad's old collie Bess",  # a possessive answer, not a service's feature
    "Authorization: Basic cGllcnJlOnFDVkMzPUhjai1TMDU=",
    'password? пар\u1c82ль is "ласточка ветер гора 42"',  # a variant letter (?i) reads as "о"
])
def test_the_review_of_the_leftovers_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Le coffre de la 208 est trop petit pour la poussette.", "Coffre de toit Thule 420 monté sur la Golf.",  # a car's boot
    "PR for the login bug: fix-crash-on-back-button-in-settings",  # a branch's name, short words in it
    "Login outage hit Azure-West-2 and Azure-East-1 yesterday.",  # names with a number, told as no value
    "Password rotation done on every host except Debian-Bookworm-12 boxes.",
    "Contraseña cambiada en todas las máquinas del aula Sala-Norte-2 salvo una.",
    "Koden i kursen: vi räknade ett, två, fyra, fem och sju i loopen.",  # a list of numbers
    "Alarm company visits on Sept 2, Sept 9 and Sept 16.",  # "sept" is French for seven
    "Door sensor payload was [null, 1, null, 4] after the firmware update.",
    "For the wiring, the lock's connector is pin one two three four on the left header.",
    "Hardware for the shed door: one 3, one 4 inch hinge and screws.",
    "Kundennummer beim Garagentor-Service: 55120, Vertragsnummer 88213.",  # a customer's numbers
    "Membership number 20331 at the gym, locker 12 on the second floor, key deposit 3340.",
])
def test_the_review_of_the_leftovers_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_basic_authorization_with_a_letter_that_is_no_ascii_is_no_crash():
    """Regression: a Kelvin sign (K, U+212A) in the value matched the case-blind class, and decoding
    it raised ValueError out of the gate."""
    assert privacy.sensitive_reason("Authorization: Basic cGllcnJlOnFDV\u212aMzPUhjai1TMDU=") is not None


def test_needles_of_nothing_find_nothing():
    from pdsmem.mapping.privacy.plain import Needles

    assert not Needles(()).any("text") and Needles(()).found("text") == set()
    assert Needles(["", "ab"]).found("xab") == {"ab"}  # an empty needle is no needle
    assert Needles(["a" * 300]).found("b" + "a" * 301) == {"a" * 300}
    assert Needles(["ab"]).found("\ud800ab\udfff") == {"ab"}  # a lone surrogate, as JSON may hold


def test_a_pattern_that_refers_back_is_not_factored():
    from pdsmem.mapping.privacy.plain import factored

    assert factored(r"a(x)|b(y)\2|a(z)") == r"a(x)|b(y)\2|a(z)"


@pytest.mark.parametrize("text", [
    "Password is capital M, then a r s, then 2 0 2 4, then an exclamation mark.",  # a client's try
    "Das Passwort ist großes K, dann a t z e, dann 7 7.",
    "Le mot de passe : M majuscule, puis o n a, puis 9 9 et un point d'exclamation.",
    "wifi pw: lowercase q, uppercase R, then 5 5 1",
    "To log into the router, type admin and then Kestrel!Moon77 on the second field.",  # a client's try
    "Am Router: Benutzer root und dann Heidekraut#12 eingeben.",
])
def test_a_password_told_a_character_at_a_time_or_after_a_user_and_then_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Password must include an uppercase letter, a number and an exclamation mark.",
    "Password must contain an uppercase A-Z, a digit and an exclamation mark.",
    "Passwords need a capital letter and a small letter, then 2 digits.",
    "Das Passwort braucht einen großen Buchstaben und ein Ausrufezeichen.",
    "The password field rejects a capital I next to a lowercase l: they look alike in the font.",
    "To log into the router, type admin and then your usual password on the second field.",
    "Log in as admin then go to Settings > Network.",
])
def test_a_rule_for_passwords_or_a_login_told_without_its_value_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune13 (a fifteenth writer; heldout12 held out): each written apart from the corpus --


@pytest.mark.parametrize("text", [
    "Fy nghyfrinair i'r banc yw Bara!Brith7.",
    'Mənim bank şifrəm Qala_Baku8.',
    'Igama lokugqitha le-imeyile ngu isonka_samanzi.',
    'Okwuntughe email m bụ ofe_nsala.',
    'An focal faire don ríomhphost ná Bairin!Breac9.',
    'Ọ̀rọ̀ aṣínà imeeli mi ni Iyan_Egusi4.',
    "D'Passwuert fir de Mail ass Kachkeis_42.",
    'Iphasiwedi yami ye-wifi ngu Pap_Vleis22.',
    'Mening bank paroli Somsa_Buxoro3.',
    'Менің поштамның құпиясөзі Beshbarmak_77.',
    'મારો ઇમેઇલ પાસવર્ડ Dhokla!Vadodara છે.',
    'എന്റെ ഇമെയിൽ പാസ്\u200cവേഡ് appam_stew9 ആണ്.',
    'ರೂಟರ್ ಪಾಸ್\u200cವರ್ಡ್ dosa_chutney7.',
    'ລະຫັດຜ່ານ email ແມ່ນ khao_niao5.',
    'የባንክ የይለፍ ቃሌ Injera_Tibs3 ነው።',
    'Паролата за wifi-то в офиса е banitsa_sirene.',
    'Het wachtwoord van de router is Stroop_Wafel.',
    'Kodelåsen på garasjen: 5821',
    'Värava kood on 4417.',
    'আমার এটিএম পিন 9031।',
    'میرا اے ٹی ایم پن 2286 ہے۔',
    'El código de desbloqueo de mi tablet es 829104.',
    'The room safe was set to 640271 by Ana.',
    'Gizli soru (ilk evcil hayvan): Pamuk.',
    'Дівоче прізвище матері для банку: Коваленко.',
    'curl -u deploy:Tr0ub4dor7 https://ci.example.org/api',
    'unzip -P Sommer2019! rechnungen.zip',
    '7z x -pGeheim#55 backup.7z',
    "Wifi at the cabin is 'moose crossing ahead', all lowercase with spaces.",
    'Inloggen op de router: admin en dan kaasbroodje, alles klein.',
    'Emre spelled the router password: capital K, o, r, u, 1, 9.',
])
def test_the_round_on_tune13_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    'Heslo na wifi je napísané na chladničke.',
    'Hasło do routera jest na naklejce.',
    'Lozinka za mail je na papiriću u ladici.',
    'Zmieniłem hasło do wifi na nowe wczoraj.',
    'API_KEY=REPLACE_WITH_YOUR_KEY in the template',
    'TOKEN=please-change-me',
    'curl -H "Authorization: Bearer YOUR_TOKEN" https://api.example.com',
    'curl -H "X-Api-Key: $API_KEY" https://api.example.com',
    'NPM_TOKEN=npm_<token>',
    'db_password: !vault |',
    'AUTH=username:password in the sample config',
    'spring.datasource.password=${DB_PASSWORD}',
    'curl -u admin:$ADMIN_PASSWORD https://ci.example.org',
    'STRIPE_KEY=sk_live_...replace',
    "Our security guide shows 'letmein' as the classic bad password.",
    'Login tests: tests/e2e/login.spec.ts',
    'La guía usa el IBAN de muestra ES91 2100 0418 4502 0005 1332.',
    "Stripe's test card 4242 4242 4242 4242 with expiry 12/34, as in their docs.",
    'The safe is 450 by 300 mm inside.',
    'unzip -P "$ZIP_PASSWORD" archive.zip',
    'Wifi at the cabin is slow, the router sits in the attic.',
    'MYSQL_ROOT_PASSWORD=root is the default in the compose file of the tutorial.',  # the image's documented value
])
def test_the_round_on_tune13_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    'wifi pass:$HOLLYWOOD88',
    'router password=$PARIS2024',
    'pw:$MONEY',
    'pass=%Kitten99%',
    'API_KEY=$K9XW2PLM4QZ7',
    'password=hunter<b>2',
    'password=Oops...!',
])
def test_the_review_of_the_round_on_tune13_refuses_these(text):
    """A value of capitals after "$" or between "%" is no reference without "_" or a credential's word;
    a template's slot and an ellipsis stand in only as the whole value (each passed after the round)."""
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    'The password reset view lives in Accounts_Views, next to Login_Form.',
    'Password policy enum: Strong_Policy or Weak_Policy in the config.',
    'Renamed the password column from Old_Password to Pass_Hash.',
    'Password field label is Current_Password in the Django admin.',
    'Wifi password setting is under Network_Settings > Wireless_Security.',
    'The login button is in Header_Nav.',
    'Password manager folder: Family_Shared.',
    'To log in, click Accounts, then Admin_Panel.',
    'Login flow: Start, then Login_Screen, then Home_Screen.',
    'Kızlık soyadı: formda boş bıraktım.',
    'Gizli soru: hatırlamıyorum.',
    'Контрольне питання: не встановлено.',
    'Дівоче прізвище — це поле в анкеті.',
    'Wifi tip: pick three random words with spaces for the new router.',
    'The office wifi is called Blue Lagoon, with a space in the name.',
    'Wifi SSID: Hotel Guests (with spaces)',
    'The wifi name is Villa Sol with spaces, the password is on the card.',
    'Wifi password advice: use four random words with spaces.',
    'The password font makes a capital I, a small l and the exclamation mark look alike.',
    'Login screen has tabs A, B, C; the capital X closes the dialog.',
    'The safe was set to 0000 by default.',
    'The room safe was set to 0000 by the factory.',
])
def test_the_review_of_the_round_on_tune13_passes_these(text):
    """Names in code joined by "_", non-answers after a secret question in Turkish and Ukrainian, a
    network's name "with spaces", a font's letters, a safe "set to 0000 by default" (each refused
    after the round)."""
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune14 (a sixteenth writer; heldout13 held out): each written apart from the corpus --


@pytest.mark.parametrize("text", [
    'sigurnosno pitanje (ime prve škole): Pčelica',
    'resposta da pergunta "cidade onde nasceu": Itabuna',
    'întrebare de siguranță (numele bunicii): Veta',
    'รหัส wifi ที่บ้าน Kaprao_Gai7',
    'پسورد وای\u200cفای خونه Ghormeh_Sabzi9 هست',
    'باسورد الايميل Kunafa_2019',
    'code van de berging: 4417',
    'κωδικός γκαράζ 7 3 1 9',
    'пин от карты 8842, не забыть',
    'inlog van de NAS: onze mail en dan stroopwafel!88',
    '- name: FIGMA_TOKEN\n  value: figd_Xb3kQ9vLr7TzWm2Hn8Pj4Yc6Ds1Fa5Gu0Ke9Lq',
    'code admin de la caisse : Baguette_2023',
    'Sicherheitsfrage (erstes Haustier) – die Antwort ist Bello Graf.',
])
def test_the_round_on_tune14_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    'in het voorbeeld staat wachtwoord=geheim, dat vervangen we',
    'regola per il portale: niente «password1» né la data di nascita',
    'dans le modèle, le mot de passe est « motdepasse123 » à remplacer',
    'pin: 0000  # placeholder in the seed data',
    'IBAN placeholder in the signup form reads GB29 NWBK 6016 1331 9268 19',
    'Omar رح يغير كلمة سر portalx بكرا',
    'Linh sẽ đặt lại mật khẩu portalx vào thứ hai',
    "le mot de passe du compte Disney+ partagé, c'est Inès qui le gère",
    "security question answers should be fake — that's the advice",
    'bus 42 to the office; the back door code is on the badge',
    'DATABASE_URL=postgres://user:password@localhost:5432/app  # example from the README',
])
def test_the_round_on_tune14_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    'My Gmail password is password2024, never changed it since uni.',
    "Dad's bank card PIN: 1234. Avoid saying it out loud in the shop.",
    'Phone unlock PIN: 0000, I never bothered to set a real one.',
    'House rule: the alarm code: 1111, and the kids never get told.',
    "Lena's laptop: user lena, password: secret, never locks the screen.",
    'Filled in the deploy template for prod: DB_PASSWORD=Passwort2023 and pushed it.',
    'Mein Online-Banking-Passwort ist Passwort1!, das vergesse ich nie – never.',
    'La contraseña del correo de mamá es contraseña123, nunca la cambió.',
    "Le code de la carte bleue de papa : 1234, il ne l'a jamais changé.",
    'Regola di casa: PIN del bancomat di nonna: 1234, lo sa solo Marco.',
    'SIM card PIN: 123456 — never write it on the phone case again.',
    "Work VPN: username jkowalski, password: secret123 (rule: change it monthly, haven't yet).",
    'The garage keypad: 1234, never reprogrammed after we moved in.',
    "Grandma's tablet passcode: 1111, she'll never remember anything else.",
    'MYSQL_ROOT_PASSWORD=123456 on the prod box, never rotated',
    "wifi at the cabin (from Dad's template note): password: password1",
    "Security question (mother's maiden name) – Kowalska, same on the bank form.",
    'security answer — Biscuit, our first dog from Leeds',
    "Bank's secret question — first school — St Anne's Primary in Bolton",
    'Security question (favourite band): These New Puritans',
    'security answer: This Mortal Coil',
    'maiden name for the bank security question: That',
    'security answer: Which Witch',
    'Bike locker at the bus depot: bus code 4417',
    'Left-luggage locker at the train station, train code 8831, locker 12.',
    'Garage door code from metro 2468',
    'wifi password Tigers+',
])
def test_the_review_of_the_round_on_tune14_refuses_these(text):
    """A value is a rule's or a template's example only right after "not" or before "to be replaced", never for
    "never" or "rule" elsewhere on its line; a trivial PIN is one only beside "example" or "placeholder"; an
    answer after a dash or a capitalised "This"; a bus's line and a service with "+" only as such (each
    passed after the round)."""
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    'The password hashes live in column pwd_hash256 of the users table.',
    'Login tests use the fixture user_alice01 and user_bob02; no real passwords.',
    'password policy lives in auth_rules2024 branch, review pending',
    'The login page loads fonts from static_fonts2023 bucket.',
    'The admin code lives in src/backoffice, reviewed by Priya_2023 team.',
    'Le code admin est dans le dossier Gestion_2024 du dépôt.',
    'De code van de bestelling is 558812, levering donderdag.',
    'De code van de storing was 4031 volgens de monteur van de cv-ketel.',
    'κωδικός προϊόντος 44172 στο κατάστημα',
    'κωδικός παραγγελίας 88213, παράδοση την Τρίτη',
    'Ο κωδικός σφάλματος 5021 σημαίνει ότι ο εκτυπωτής δεν έχει χαρτί.',
    'Микроконтроллер в корпусе LQFP, 144 пин, шаг 0.5 мм.',
    'Светодиод подключен к пин 13, резистор 220 Ом.',
    'รหัสโปรโมชั่น SUMMER2024 ลด 10%',
    'รหัสข้อผิดพลาด ERR_TIMEOUT42 เกิดบ่อยตอนกลางคืน',
    'รหัสต้นฉบับอยู่บน GitHub ใน repo Django_Admin2',
    'Sigurnosna pitanja: treba ih ukloniti iz aplikacije do 2025.',
    'Întrebarea de siguranță: o scoatem din formularul de înscriere.',
])
def test_the_review_of_the_round_on_tune14_passes_these(text):
    """Names in code with a number, order and error codes beside the Greek, Dutch and Russian words, a promo
    code in Thai, non-answers in Croatian and Romanian (each refused after the round)."""
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "curl --user=backup:Zeppelin42x https://nas.local/api",  # the reviews' leftovers: curl's other forms
    'curl -u"admin:Tulip!Bloom9" http://192.168.1.1/cgi-bin/status',
    "curl --basic --user 'ops:Gr33nTea#Lake' https://x",
    "pass=%Kitten99%",  # a value between "%", no variable's name
])
def test_the_reviews_leftovers_of_this_round_are_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "curl -u admin:${ADMIN_PASS} http://localhost:8080",  # a user and a reference
    "GITHUB_TOKEN=ghp_<your token>",
    "password: %MYSQL_PWD% in the batch script",
])
def test_the_reviews_leftovers_of_this_round_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune15 (a seventeenth writer; heldout14, the other half of one pool, held out):
# each written apart from the corpus ----------------------------------------------------------------


@pytest.mark.parametrize("text", [
    # in parts, and how to join them
    "the printer at the office: first Gouda, then Leiden42, no space",
    "le Disney+ des enfants : d'abord Tarte, puis Tatin31, collés",
    # a sentence with spaces
    "for the NAS it's a whole sentence with spaces: the kettle sings at dawn",
    "la clave es una frase con espacios: el perro duerme bajo la mesa",
    # a digit at a time, in digits or in words, and a dial
    "Spind im Fitnessstudio 3 8 0 6", "candado de la bici: 7-2-9-4",
    "код от сейфа: шесть ноль три восемь", "kombinationslåset: tre nio noll sju",
    "Closet safe combination: 18 - 33 - 06",
    # a relative's year of birth
    "Opas Bankkarte, die PIN ist das Geburtsjahr von Oma, 1947",
    "la carte de papa : le code est l'année de naissance de mamie, 1952",
    # the letters' case, a child's tablet
    "for the garden camera use Tulipa2021, the T a capital",
    "put dinosaur77 on the little one's tablet",
    # a token only a password is, and words joined after what they open
    "cabin wifi → Pinecone#Lake", "the Hulu login: Mango&Kiwi19", "router in the shed: Kaffee_Kuchen8",
    # a stand-in's word and a random part, said to be the real one
    "{password-Vq83xT} is really the camera's, the installer never changed it",
    # spelled with dashes
    "spell it for the kiosk: B-r-i-o-c-h-e-9",
    # an answer, the question, and where it was given
    "favourite teacher, what I gave the bank: Mr Okafor",
    "pregunta de seguretat «carrer de la infància»: Carrer Major",
    # a memory tool's fields
    'remember: service: "mum\'s tablet Netflix", pass: "Lasagna_Sunday9"',
    # sqlcmd's password, a Korean resident number with its short name
    "sqlcmd -S reports.internal -U etl -P Vx82kLm0Qz7Tr -d ledger",
    "주민번호 850412-1234561",
])
def test_the_round_on_tune15_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "we put the two halves of the report together, first the intro then section 2",
    "passphrases can be a sentence with spaces: the longer the better",
    "the extension for the dentist is 4-1-2-2", "scored 3 1 2 0 in the four rounds",
    "Koden i kursen: vi räknade ett, två, fyra, fem och sju i loopen.",
    "Dad was born in 1958, the year of the big flood",
    "User's router is a Fritz!Box 7590 AX.", "Marks&Spencer order arrives Friday",
    "Passwort für Router FRITZ!Box7590 steht auf dem Aufkleber.",
    "Parola chiave del progetto: Aurora2025.", "Password policy enum: Strong_Policy or Weak_Policy in the config.",
    "the locker code resets to 0000 when you open it", "o voo LO 8183 sai do portão K24 às 15:55",
    "regra do app: PIN de 4 dígitos, sem sequências tipo 1234",
    "the sample config has password=example123 on purpose, it's a fixture",
    "サンプル設定ではパスワードが <PASSWORD> のまま",
    "grandma forgot her favourite teacher's name, so the bank reset the question",
    "a spelling bee word: s-p-e-l-l-i-n-g",
])
def test_the_round_on_tune15_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


_TOLD_PIECES = ["1", "5", "0", "9", " ", "-", "–", " – ", "·", "/", ".", ":", "：", ",", "#", "!", "$", "%", "&", "@", "_",
                "→", "Feta", "Lake", "wifi", "router", "lock", "safe", "PIN", "code", "born", "year of birth", "tablet",
                "put", "capital", "R", "first", "then", "together", "sentence", "with spaces", "två", "åtta", "девять",
                "пять", "四", "\n", '"', "service", "pass", "security question", "answer", "favourite teacher", "bank"]


@given(st.lists(st.sampled_from(_TOLD_PIECES) | st.text(max_size=3), max_size=24).map("".join))
def test_the_checks_of_a_value_told_answer_any_text(text):
    """Regression: a code told with en dashes ("5–9–1–6") raised ValueError out of the gate, which
    read each character between the digits as a digit."""
    for _, check, _ in told.CHECKS:
        check(text)
    privacy.sensitive_reason(text)



# -- the review of the round on tune15 (a fresh-eyes reviewer who read the rules, not the tests) --------


@pytest.mark.parametrize("text", [
    "WLAN-Passphrase, ein Satz mit Leerzeichen: der Hund schläft unter dem Tisch\nNicht vergessen!",
    "Passphrase of the old laptop (spaces between the words): my dog can fly to Paris",
    "La phrase de passe, avec des espaces : mon chat mange des croquettes\nÀ ne pas oublier",
    "Parola boşluklu bir cümle: kan kırmızı gül açtı",
    "Spind im Fitnessstudio: 1 5 5 3.",
    "Szafka na basenie:7 3 9 1",
    "Kłódka od roweru 4 – 8 – 2 – 6",
    "Sejf w hotelu otwiera się tak: 2·7·4·1",
    "ロッカーの暗証は ４ ７ ２ ９",
    "Cijferslot kluis: rechts 24, links 11, rechts 36",
    "Kombinationen till cykellåset är 12.30.08",
    "El PIN de la tarjeta de mamá es el año en que el abuelo nació, 1949",
    "A senha do cartão do vovô é o ano em que a vovó nasceu: 1944",
    "Laptop dziadka: changeme~Qz81",
    "En el banco, a la pregunta de mi maestra favorita puse: Doña Rosa",
])
def test_the_review_of_the_round_on_tune15_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "We had 4 7 2 9 visitors on the four open days, roughly.",
    "He works a 2-2-3-2-2-3 shift schedule at the hospital.",
    "Sudoku row she was stuck on: 5 3 9 1 7",
    "Kartenspiel-Abend mit Opa (Jahrgang 1938) jeden Donnerstag.",
    "Her PIN was blocked at the ATM in Lisbon, 2019.",
    "Hotel in Vancouver was CAD$189 a night.",
    "Fixed in react#28765, according to Tom.",
    "Hotel Wi-Fi network: Hotel_Guest",
    "First mix 200g flour with the butter, then add the eggs and stir together.",
    "Primero 2kg de patatas, luego la cebolla, todo junto en la sartén.",
    "D'abord 100g de sucre, puis le beurre, et on mélange le tout collé au fond? No — just mix together.",
    "Сначала 300г муки, потом яйца, всё вместе перемешать.",
    "The poster's phrase, with spaces between the words, reads: keep calm and carry on",
    "Ćwiczenie pisania, zdanie ze spacjami: Ala ma kota",
    "The username mika92 is all lowercase on the school portal.",
    "Na compu del abuelo tiene instalado zoom5 y nada más.",
    "The answer I gave in the quiz is wrong, Paris is not the capital of Australia.",
    "First job she remembers, for the insurer: Vienna office paperwork.",
    "Saymayı öğrendi: bir iki üç dört beş",
    "Zosia umie liczyć po polsku: jeden, dwa, trzy, cztery, pięć",
    "Comptine de Léa : un deux trois quatre cinq six",
    "Kombination aus 3-2-1 Training hat ihr geholfen.",
    "The kids sang A-B-C-1-2-3 in the car.",
    "Office Secret_Santa2024 group is on WhatsApp.",
    "Default_Theme3 looks nicer than the old one, says Ana.",
    "Car: Peugeot208",
    "Old car: Renault12",
    "She was 1 of 4 finalists; ranks 2 4 1 3 across the rounds.",
])
def test_the_review_of_the_round_on_tune15_passes_these(text):
    """Ordinary memories the round's first forms refused (85 of the reviewer's 150): recipes told
    "first … then … together", counting rhymes, a team's formation, a bug's number, a sheet's name,
    a car's model, a name spelled, a birthday card's year."""
    assert privacy.sensitive_reason(text) is None, text


@given(st.text(alphabet="aAbBzZ019_-", max_size=16))
def test_words_joined_answers_as_the_pattern_with_plain_quantifiers(token):
    """Regression: ``_WORDS_JOINED`` as written with plain quantifiers cut a run of 40 small letters
    before a sign into parts every way there is (minutes for "x" * 40 + "A1-password" on a line that
    names a key, found by fuzzing the gate); its possessive form must answer as that pattern did."""
    plain = re.compile(r"(?:[A-Z]{1,4}[a-z]{2,}|[a-z]{2,}|[0-9]{1,2})+")
    assert bool(labelled._WORDS_JOINED.fullmatch(token)) is bool(plain.fullmatch(token))


# -- a blind try after the round (a helper with texts of its own, offline) -------------------------


@pytest.mark.parametrize("text", [
    "Safe combination is 12 left, 34 right, 56 left.", "home.garage.code.4719", "ATM: 1-9-8-7",
])
def test_what_a_blind_try_after_the_round_published_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Le fils de l'utilisateur est né en 2012 et joue au foot en 4-2-3-1.",  # "tili" (Finnish) in "utilisateur"
    "L'équipe de l'utilisateur joue en 4-2-3-1.", "error.code.4041 in the logs", "status.code.2000",
    "the atmosphere was 1 2 3 4 stars", "the block clock showed 4 7 1 9 all night",
])
def test_what_a_blind_try_after_the_round_refused_passes(text):
    """A word for what a value opens counts where a word starts: "tili" was found in "utilisateur"."""
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune16 (an eighteenth writer; heldout15, the other half of one pool, held out):
# each written apart from the corpus ----------------------------------------------------------------


@pytest.mark.parametrize("text", [
    # a lock's code that looks like a year, after the lock's name; the word for a code and a locker
    "Zahlenschloss am Gartenhaus: 1968", "candado del trastero: 1987", "велозамок на даче: 1949",
    "šifra za ormarić u teretani 3391",
    # a PIN told as a year in words
    "Grandad's card PIN is nineteen eighty-one, the year he retired",
    "el PIN de la tarjeta del tío es mil novecientos sesenta y cinco",
    "pinpas van oma: negentienhonderdachtenvijftig", "车库的锁：一九六三",
    # an alarm's code with stars and hashes
    "the shop alarm goes off with *4417#", "l'allarme del magazzino si disinserisce con 5#0#8#2",
    # a code in two halves, a password in two parts
    "gym locker: first half 42, second half 17", "Tresor im Büro: vorne 61, hinten 09",
    "Dad's bank: first Lisbon then 1966, no space", "poczta babci: najpierw Kraków, potem 1945, razem",
    # a code before what it opens
    "7392 opens the bike shed at the allotment", "5521 avaa varaston oven",
    "Notiz: 6630 für die Schlüsselbox am Ferienhaus",
    # a sentence told as a device's passphrase
    "фраза для ноутбука дедушки: рыжий кот спит на печи", "kalimat laptop kantor: kopi hitam tanpa gula",
    # a network's name and its password; a token beside what it opens, a site that wants it
    "Vodafone-7C21 / Kartoffel.Salat4", "KPN_5G_771 e Stroopwafel!88",
    "voor de printer op zolder: Kaas.Boer7", "typ Appeltaart#42 als de site erom vraagt",
    "Hoppla!Zwerg opens the garage portal", "the school portal wants Lemonade77 every Monday",
    # a building's door code with letters
    "digicode de la résidence : 7B41C",
    # security answers as a list, and after the question is asked
    "Sicherheitsantworten für die Bank: erstes Haustier Bello, erstes Auto Golf",
    "answers for the insurer: first pet Rex, first school Oakfield Primary",
    "if the bank asks for the first pet, it's Nibbles",
    "якщо спитають про першого собаку — Рудий",
])
def test_the_round_on_tune16_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # what the round's shapes are in ordinary memories
    "Schloss Neuschwanstein: 1869", "bike lock bought at Decathlon for 25 euros",
    "the alarm company's number is *100# for balance", "the team won 52 to 48: first half 31, second half 21",
    "first 200 g of flour then 100 g of sugar", "2024 opens with the new office in Porto",
    "the phrase of the day on the laptop sticker: keep calm and code on",
    "Cargo.lock pins serde 1.16.6", "Booking.com sent the invoice to her email",
    "User deploys with ssh -t deploy@web01 and restarts the app",
    "the Wi-Fi network is called Casa_Rossi, the key is on the router",
    "Node-18 / Python3 for the build box", "email Maria@Example.com about the printer",
    # tune16's ordinary memories that the gate refused, written otherwise
    'db_password = "[REDACTED]" in the shared config', "secret = not-a-real-key in the sample ini",
    "API_TOKEN=example-token  # replaced in CI", "im Export steht nur passwort=[entfernt]",
    "сборка 812 упала с кодом 137", "helper verifyPassword uses argon2 with 3 iterations",
    "kubectl create secret generic db-creds --from-literal=user=app",
    "la password della banca di Marco è scaduta, la rifà lui", "Spotifyのパスワードは健太さんが管理している",
    "a senha do Netflix quem sabe é a Ana", "Disney+ şifresi annemde",
    "Grandma's maiden name came up in the family tree: the Ferreiras came from Braga",
    "rename resetAccessToken to token_store in the accounts module",
    "the example password in the tutorial is demo123",
])
def test_the_round_on_tune16_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune17 (a nineteenth writer; heldout16, the other half of one pool, held out):
# each written apart from the corpus ----------------------------------------------------------------


@pytest.mark.parametrize("text", [
    # a security question quoted, then its answer
    'Kredītkartes drošības jautājums "mātes dzimšanas pilsēta": Cēsis',
    'Sikkerhetsspørsmål i banken "navnet på første kjæledyr": Pusur',
    'la pregunta de seguridad del banco "nombre de tu primer perro" tiene como respuesta Canelo',
    '보안 질문 "첫 번째 애완동물 이름"에 바둑이라고 적음',
    '保険会社の秘密の質問「母の旧姓」は田中。',
    'Kontrolní otázka v bance „jméno prvního psa“ – odpověď Alík',
    # a dial's combination after a lock's name
    "Катинарът на мазето: 14-22-07", "the padlock on the shed is 09-31-18", "ロッカーのダイヤル錠は05-17-33",
    # a device that opens with a word, its letters told or in another script
    "планшет дедушки открывается словом lastochka, маленькими буквами", "tablet kakek dibuka dengan kenanga huruf kecil",
    "la tauleta del pare s'obre amb garrofer",
    # a password manager's passphrase of plain words
    "Фраза для менеджера паролей у мамы: «лес гриб река мост»", 'Frase segreta per 1Password: "vento sale pane luna".',
    # a code by a door, a gate, a keypad, in more languages
    "Etxeko atearen kodea 4417 da.", "Vartelių kodas 5810.", "3301 是车库的门禁码", "7742 でキーパッドが開く",
    # an account opened with a word and a number; a word used with an account
    "Kjellerboden hos Shurgard: kundekontoen åpnes med lagerbu1987.", "we use fluffcake with Mum's email for the family Netflix",
    # digit names before what they open, with a stop after the last
    "Il tape sept-trois-zéro-un pour déverrouiller le cadenas", "ПИН от сейфа: девять-один-четыре-шесть.",
    # a Dutch BSN named far before its number
    "Het BSN van mijn moeder voor het aanvraagformulier bij de gemeente is 111222333.",
    # what a new user's try published after the round: the answer after "has the answer"
    'The insurer\'s security question "first school" has the answer "Oakfield".',
])
def test_the_round_on_tune17_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # what the round's shapes are in ordinary memories
    'The quiz question "capital of Peru": Lima', 'Bank security question "first pet" was removed: none',
    "the padlock was bought on 12-08-23 at the hardware store", "ticket 14-22-07 for the lock repair",
    "the tablet opens with a splash screen", "la aplicación se abre con cuidado", "the laptop opens with patience",
    "Password manager tip: use four random words", "Frase segreta per Bitwarden: salvata nel vault",
    # tune17's ordinary memories that the gate refused, written otherwise
    "The Xbox gamer tag is RainFox_77; the kids call the team \"WaffleCrew\".",
    "The portal now needs passwords of 12+ characters with upper and lower case.",
    "ERROR 1045 (28000): Access denied for user 'web'@'10.0.0.5' (using password: NO)", "API_SECRET=TODO",
    "保姆便条模板：“门禁密码：____”", 'Formulário da babá: "Senha do alarme: ____".',
    'The help-desk guide shows "jane.roe / Passw0rd!" in its screenshots.',
    "Gym locker key tag reads 217; the deposit was 10.", "लॉकर 12 का किराया 450 रुपये महीना",
    "Tresor im Hotelzimmer 318 war zu klein für die Kamera.",
    "Each kid gets locker 200 plus their class number, so Noah has 206.",
    # the review's ordinary memories that the round's first forms refused, written otherwise
    'Pub quiz question "Where was Mozart born?": Salzburg', 'Examen de conducir, pregunta "¿Velocidad frente a un colegio?": 30',
    "Gym locker fee runs until 30-06-26", "Bookshelf next to the gym locker, shelves at 20-25-30",
    "Урок музыки открывается словом hello каждый день", "The kids' tablet opens with safemode after updates",
    "Password manager plan: Bitwarden Families, renews in March", "Pašto kodas 44280, Kaunas",
    "Il lucchetto Kryptonite Evolution 4000 è arrivato", "On compte un deux trois quatre pour ouvrir le bal",
    # and what it refused: a team's formation beside a locker
    "The coach sketched a 4-2-3-1 formation in the locker room",
])
def test_the_round_on_tune17_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


_BESIDE_PIECES = ["1", "9", "5", "0", "#", "*", " ", "-", "_", ".", "!", "@", "/", "·", ":", "：", ",", "，", "\n", "(",
                  "lock", "safe", "Fahrradschloss", "alarm", "first", "then", "vorne", "hinten", "opens", "avaa", "für",
                  "Schlüsselbox", "phrase", "laptop", "Telia-3F2A", "Kaas.Boer7", "Lemonade77", "wants", "typ",
                  "answers", "first pet", "if", "asks", "it's", "Rex", "PIN", "nineteen", "seventy", "一九", "五五",
                  "digicode", "7B41C", "Moodle", "portal", "router", "e-mail", "14-22-07", "padlock", "opens with",
                  "tablet", "kalyna", "lowercase", "question", '"', "「", "」は", "answer", "pet", "bank", "Фраза",
                  "password manager", "Bitwarden", "«", "»"]


@given(st.lists(st.sampled_from(_BESIDE_PIECES) | st.text(max_size=3), max_size=24).map("".join))
def test_the_checks_of_a_value_told_beside_answer_any_text(text):
    for _, check, _ in beside.CHECKS:
        check(text)
    privacy.sensitive_reason(text)


# -- a new user's try with the Hermes provider and files (offline, texts of its own) ---------------


@pytest.mark.parametrize("text", [
    "Le code de la porte d'entrée est 4B72A.",
    "Der Nutzer hat sein neues Passwort Maiglöckchen7 genannt, damit der Assistent es sich merkt.",
    "Код доступа к личному кабинету: Зима2024",
    "The wifi key is 8472 9910 3381 4467 9921.", "WLAN-Schlüssel: 84729910338144679921",
    "My email password is correct horse battery staple.",
    "Το συνθηματικό μου είναι Ηλιος2020.",
    "The session cookie is 9f8e7d6c5b4a39281706f5e4d3c2b1a0.",
])
def test_what_a_new_users_try_published_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "the password is stored in the password manager app", "the wifi password is printed under the router box",
    "My email password is different for every account.", "Passwort Änderung 2024 geplant",
    "the git commit is 9f8e7d6c5b4a39281706f5e4d3c2b1a0c3d4e5f6", "the access code arrives by text message",
])
def test_what_a_new_users_try_published_has_neighbours_that_pass(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_refusal_of_a_text_whose_accents_are_combining_marks_says_so():
    """Regression: a Spanish recovery phrase written with combining accents (as BIP-39's word list
    gives them) was refused "once its invisible characters are dropped and its full-width … forms
    read as plain text", naming no character: it holds none."""
    import unicodedata

    text = unicodedata.normalize("NFD", "frase de recuperación: pájaro rancho suplir toro prole arar semilla pipa "
                                        "barba trato susto verbo")
    reason = privacy.sensitive_reason(text)
    assert reason is not None and "accents" in reason and "invisible" not in reason


# -- the review of the round on tune16 (a fresh-eyes reviewer who read beside.py, not the tests) ----


def test_no_check_of_beside_refuses_an_ordinary_memory_of_the_review_of_its_round():
    """The first forms of the round's checks refused 164 of the review's 193 ordinary memories aimed
    at them (a castle's year, a USSD code, a recipe's halves, a router's model, a sticker's phrase,
    a landlord's answers); none does now. (25 of them are refused by older checks, as before.)"""
    refused = [item["id"] for item in _corpus("review16", "benign")
               if any(check(privacy._as_read(item["text"])) for _, check, _ in beside.CHECKS)]
    assert refused == []


def test_no_check_of_beside_refuses_an_ordinary_memory_of_the_review_of_the_round_on_tune17():
    """The round on tune17's first forms refused 76 of its review's 155 ordinary memories that the gate
    passed before (a quiz's question and answer, a team's formation beside a locker, a lesson that
    "opens with" a word, a password manager's plan, a postcode after "kodea"); no check of beside.py
    refuses one now, nor any new word of the labelled layer (16 are refused by older checks, as before)."""
    refused = [item["id"] for item in _corpus("review17", "benign")
               if any(check(privacy._as_read(item["text"])) for _, check, _ in beside.CHECKS)]
    assert refused == []
    older = {"r17-benign-035", "r17-benign-049", "r17-benign-063", "r17-benign-072", "r17-benign-073",
             "r17-benign-074", "r17-benign-075", "r17-benign-076", "r17-benign-102", "r17-benign-142", "r17-benign-143"}
    assert {item["id"] for item in _corpus("review17", "benign") if privacy.sensitive_reason(item["text"])} <= older
    leaks = _corpus("review17", "leaks")
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in leaks) >= 98


@pytest.mark.parametrize("text", [
    "Kickboxing tonight: the combination 2-3-2, then duck", "Best combination for deadlifts was 5-5-3 last month",
    "Bike locker lease expires 30-09-26, renew at the desk", "Locker del gimnasio, vaciarlo: fecha 15-07-26",
    "Tennis, then the locker room: final scores 7-5-6", "Las cadenas para las ruedas sirven para las tallas 8-9-11",
    "Casier du club, dossier du 03-11-22 archivé",
])
def test_a_number_in_dashes_beside_a_locker_that_is_a_date_a_score_a_size_or_a_move_passes(text):
    """The review of the round on tune17 found these refused by ``_pin_nearby``: a boxing
    combination, a rental's end date, a set's scores, sizes."""
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Bike lock combo is set on 10-24-36", "Le code du casier: 12-04-19", "Boxing gym locker combination 12-04-19",
    "Gym locker combination expires? no: it is 31-12-25", "Padlock on the dance studio locker: 14-06-25",
])
def test_a_lock_or_a_code_beside_those_numbers_keeps_them_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the round on tune18 (a twentieth writer, chat agents' memories; heldout17, the other half, held out)


def test_the_needles_of_a_named_answer_cover_every_word_for_an_answer():
    from pdsmem.mapping.privacy.plain import required_needles

    spelled = required_needles(beside._AN_ANSWERS_WORD)
    assert spelled and all(any(needle in word for needle in beside._ANSWERS_WORD_NEEDLES) for word in spelled)


@pytest.mark.parametrize("text", [
    # a PIN in the digits of its script
    "Reza wrote on Telegram: «رمز کارت بانکی ۷۱۳۹ است»", "Anil: \"ATM पिन ४९२७ है, याद रखना\"",
    "Mali ส่งมา: \"รหัส ATM คือ ๙๒๐๔\"",
    # digit names, in more languages, and written together in Chinese, Japanese and Korean
    "Liisan ovikoodi on viisi kaksi yksi nolla.", "El codi de la porta del garatge és vuit tres u nou.",
    "门禁密码是四八二六，别忘了", "暗証番号は九〇二一です", "현관 도어락 번호는 삼칠이오.", "Porten: koden är sju noll två fem.",
    # a passphrase named in the languages people write in
    "Rasa atsiuntė slaptafrazę: medis upė vėjas.", "Juma alisema kaulisiri ya simu: nyota bahari jua.",
    "משפט הסיסמה של המחשב: shemesh yam ruach.", "पासफ़्रेज़ aam neem pani है, उसने भेजा।",
    "Frasa laluan tablet Siti: bunga hujan pagi.", "Paroles frāze datoram: jūra priede vējš.",
    # a security question named, then its answer
    "güvenlik sorusu ilk okulum, cevabı Gazi İlkokulu", "pyetja e sigurisë është qyteti, përgjigja Berat i Ri",
    "swali la usalama ni mnyama wa kwanza, jibu ni Simba Mdogo", "a biztonsági kérdés az első tanár, a válasz Kovács Ilona",
    "odpoveď na bezpečnostnú otázku (rodné mesto matky): Banská Štiavnica.",
    # a PIN or a code in Tamil, Telugu, Irish and Serbian
    "ஜிம் லாக்கர் குறியீடு 4719", "ఏటీఎం పిన్ 7264, గుర్తుంచుకో", "is é 8152 UAP an chárta", "ПИН картице је 5027",
    "Bicikl, lokot: 17-42-08",
])
def test_the_round_on_tune18_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "قیمت ۴۵۰۰ تومان برای بلیت", "密码是二〇二六年改的", "మా ఇంటి పిన్ కోడ్ 500081, విజయవాడ.",
    "Güvenlik sorusu değişti, cevabı artık farklı.", "The security question was hard, answer took a minute.",
    "Reset the security question; the answer field was empty.", "Bank security question removed, answer deleted too.",
    "Sicherheitsfrage geändert, die Antwort kennt nur Anna.",
    'Telegram, Minh: "anh gửi mật khẩu wifi cho em chưa?" – Chưa.',
    "Lieber eine Passphrase aus vielen Wörtern – und sie niemandem schicken.",
    "The ski day pass is €42 this season.", "$ python3 --version\nPython 3.11.7",
    'Onboarding note: "Username: ____  Password: (chosen at first login)"',
    "Mia's locker at the gym is 214, key on a red band.", "Jonas' Spind ist Nummer 212, mit Schlüssel.",
    "La taquilla de Ana es la número 318, con llave.",
    "The master password was rotated today, the old one no longer works; nobody shared it.",
])
def test_the_round_on_tune18_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    # what the round's first mends let go, caught again
    "PIN-Nummer: 4821", "La combinación del candado es el número 4827.", "Bike lock 907, keys for the shed on the hook.",
    "Lockbox by the front door: 318, key for the flat inside.", 'Texted Sam "is the wifi password still Marigold?" – it is.',
    "Guest network pass is 4829€.", "NAS passphrase → river lantern mossy cobalt", "கதவு குறியீடு 4821.",
    "Ceist slándála: ainm an chéad mhadra, an freagra ná Bran.",
    # "code" in the languages of the digit names, passphrase names and connectors the review found missing
    "Lykill kóðinn á hurðinni er fjórir sjö núll tveir.", "Durvju kods ir seši divi nulle trīs.",
    "Kodesætningen til NAS: ugle fyrtårn kanel.", "Η φράση πρόσβασης είναι: θάλασσα βουνό ήλιος.",
    "Salasanalause on kissa pilvi omena.", "Parola ifadesi: deniz kedi bulut.",
    "Het wachtwoordzin luidt tulp molen kaas.",
])
def test_the_review_of_the_round_on_tune18_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # the round's first checks refused these (written otherwise than the review's)
    "Pin config: set to null to disable pinning.", "Olympialaisten tunnuslause: nopeammin, korkeammalle, vahvemmin.",
    "Cụm mật khẩu của ví nên dài ít nhất năm từ.",
    "قیمت بیت‌کوین در صرافی‌های رمزارز امروز حدود ۶۸۰۰۰ دلار بود", "کاربر گفت رمز عبور بانکش را در سال ۱۴۰۳ عوض کرده",
    "హైదరాబాద్ ఆఫీసు పిన్ కోడు ౫౦౦౦౩౨.", "Our spinner took 4 wickets for 120 runs", "The UAP report lists 510 cases",
    "La frase de acceso es lo primero que pide el gestor.", "Kupio sam lokot, koštao je 1500 dinara.",
    "सारांश: पासफ़्रेज़ ke baare mein user ne pucha tha.", "สินค้ารหัส ๔๔๘๒๐ หมดสต็อก",
    "Paroles frāze ir garāka par paroli.", "In lib/keys.ts, `passphrase` is read from the env var OAK_PASSPHRASE; only its length.",
])
def test_the_review_of_the_round_on_tune18_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_round_on_tune18_refuses_few_of_its_reviews_ordinary_memories():
    """A reviewer read the round's code, not its tests, and wrote 177 ordinary memories and 193 near
    misses aimed at it (``review18``): the first forms refused 91 more of the ordinary ones than the
    gate did before and let 15 leaks go; after the mends, 8 more, no leak lost, and 115 caught (54
    before the round)."""
    older = {"r18-benign-043", "r18-benign-093", "r18-benign-094", "r18-benign-095", "r18-benign-096",
             "r18-benign-099", "r18-benign-100", "r18-benign-102", "r18-benign-105", "r18-benign-106",
             "r18-benign-107", "r18-benign-109", "r18-benign-110", "r18-benign-111", "r18-benign-113",
             "r18-benign-116", "r18-benign-143", "r18-benign-144", "r18-benign-145", "r18-benign-147",
             "r18-benign-150", "r18-benign-153", "r18-benign-155", "r18-benign-158", "r18-benign-159",
             "r18-benign-166", "r18-benign-167", "r18-benign-168", "r18-benign-169", "r18-benign-170",
             "r18-benign-171", "r18-benign-172"}
    refused = {item["id"] for item in _corpus("review18", "benign") if privacy.sensitive_reason(item["text"])}
    assert len(refused - older) <= 8, sorted(refused - older)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review18", "leaks")) >= 115


def test_the_gate_catches_what_it_caught_of_the_reviews_near_misses():
    leaks = _corpus("review16", "leaks")
    caught = sum(privacy.sensitive_reason(item["text"]) is not None for item in leaks)
    assert caught >= 71, f"caught {caught} of {len(leaks)}"


@pytest.mark.parametrize("text", [
    "Thread-safe ring buffer in the ingest worker, default capacity: 1024",
    "Ausflugstipp Wasserschloss Mespelbrunn, erste Erwähnung: 1412",
    "Casier à vin de la cave, capacité en bouteilles : 120",
    "Cadenas de nieve que compramos para el Seat, talla: 090",
    "Код для сейфа Aiko по каталогу 40217",
    "Alarme incendie testée samedi, rapport classé sous la référence 2024#",
    "Bank app security question about mother's maiden name: Removed.",
    "The question about first pet in the new banking app: Skipped",
])
def test_what_older_checks_refused_of_the_reviews_ordinary_memories_passes(text):
    """The review of the round on tune16 found older checks refusing these: a capacity, a size, a
    catalogue's number or a reference beside a lock's or a safe's word, a castle, a thread-safe
    buffer, a security question with no answer."""
    assert privacy.sensitive_reason(text) is None, text


# -- a blind try after the review (its own texts; these are written apart from them) ---------------


@pytest.mark.parametrize("text", [
    "Cadenas de la trottinette : 2051. Ne pas oublier.",
    "Zahlenschloss am Keller: 1983 (sieht aus wie ein Geburtsjahr, ist aber die Kombination vom Schloss).",
    "Havuzdaki dolap kilidi: 1999.",
    "Cassaforte in ufficio: prima metà 44, seconda metà 17.",
    "De kluis in de kelder: eerste helft 52, tweede helft 09.",
    "Сейф на даче: первая половина кода 71, вторая 26.",
    "Le coffre-fort du bureau : les deux premiers chiffres sont 58, les deux derniers 13.",
    "5519 gets you into the storage room at work.",
    "Phrase secrète pour l'ordinateur portable : « la pluie tombe sur le toit rouge ».",
    "Фраза для входа в ноутбук: «синий кит поёт ночью».",
    "Domande di sicurezza della banca: primo animale Briciola, liceo Galilei.",
    "Preguntas de seguridad del banco: primera mascota Luna, colegio San José.",
    "Le code de la carte bleue, c'est mille neuf cent quatre-vingt-deux.",
])
def test_what_a_blind_try_after_the_review_published_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Le château de Chambord : 1519. On y va en mai.",
    "Match de basket : première mi-temps 44, seconde mi-temps 51.",
    "The bus gets you into town in 20 minutes.",
    "Phrase préférée du prof d'informatique : redémarre et ça ira mieux.",
])
def test_what_a_blind_try_after_the_review_checked_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune19 (a twenty-first writer: mail, documents, tickets and runbooks; heldout18 held out)

@pytest.mark.parametrize("text", [
    # a password after its word, with no verb or colon, in more languages, and compounds of the word
    "Mesaj de la proprietar: Wi-Fi Casa7, parola ciorba-bunica-4.", "Fjalëkalimi i rrjetit: fjalëkalimi lule-mali-8.",
    "Langkah 2: log masuk dengan kata laluan rendang-manis-3, kemudian mulakan semula.",
    "Skolas vēstule: portāla pagaidu parole Liepa#Gauja7.", "Willkommensbrief: Erstpasswort Mb4-Sonne-Ahorn, bitte ändern.",
    "Ostatni krok: geslo planina-sonce-6 za usmerjevalnik.",
    # the word in Armenian, Georgian, Bengali and Urdu, the value in Latin letters
    "Նամակ տանտիրոջից՝ գաղտնաբառ tolma-sevan-2։", "წერილი: Wi-Fi Saxli-3, პაროლი churchkhela-tbili-5.",
    "ইমেইল: পাসওয়ার্ড mishti-doi-7", "پیغام: پاس ورڈ nihari-garam-8",
    # Estonian "was"
    "Märkus: serveri parool oli sinine-meri-4 kuni eilseni.",
    # digit names after a gate's or a door's code in Hungarian, Macedonian, Swahili and Bengali
    "Garázskapukód a szomszédnál: kettő hét nyolc egy.", "Кодот за гаражата: девет два шест еден.",
    "Msimbo wa mlango wa nyuma: nane tatu moja tano.", "দরজার কোড: তিন সাত এক নয়।",
    # what its review found missing: the words' other forms, more names of a security question
    "Wi-Fi Casa7, parola pentru router: paroli-noi-5.", "Skolas portāls: parole Ozols#Rīga4.",
    "Admin: pasahitzarekin Txakoli2024! sartu.", "Slaptas klausimas banke, pirmojo šuns vardas: Reksas.",
    # a security question named, what it asks after a comma, then a colon and the answer
    "Sekuriteitsvraag op Ma se rekening, naam van eerste kat: Mieliepap.",
    "Turvaküsimus panga kontol, esimese õpetaja nimi: Laine Kask.",
    "Saugos klausimas pašte, pirmojo mokytojo vardas: Ona Rudytė.",
    "பாதுகாப்புக் கேள்வி, முதல் பள்ளியின் பெயர்: செந்தில் வித்யாலயா.",
    "سؤال امنیتی ایمیل مامان، نام اولین مدرسه: دبستان فردوسی.",
    "უსაფრთხოების კითხვა, პირველი მასწავლებლის სახელი: ნინო.",
    "Banka hesabının təhlükəsizlik sualı, ilk itin adı: Qaraqaş.",
    # a conference's PIN in Cyrillic right before its digits, a key box's combination in Afrikaans
    "Созвон в пятницу: +7 495 555-02-19, ПИН конференции 58 21 74.", "Састанак у уторак, ПИН учесника 3948.",
    "Strandhuis: sleutelkassie by die hek, kombinasie 4-8-1-7.",
    # words joined by dashes and a digit, after the word for a password or before "is" and one
    "Hotelbrief: la clave provisional Rt5-monte-lago.", "kiwi-pohutukawa-8 er nettverkspassordet.",
    # and with a capital first, as an outside try wrote them
    "Apartman u Splitu: lozinka Marjan-borovi-6.", "Tui-kowhai-3 is the wifi password at the bach.",
])
def test_the_round_on_tune19_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a YAML key with nothing on its line: a mapping follows, not a value
    "secrets:\n  api_token:\n    external: true\nservices:\n  web:\n    secrets: [api_token]",
    # a mask in full-width asterisks, a hex error code, an error's code in Hindi, a build's number in Japanese
    "通知テンプレート：「仮パスワード：＊＊＊＊＊＊＊＊」は自動で置き換わる。",
    "Outlook error 0x8004010F is a profile problem, not a wrong password.",
    "त्रुटि कोड 4417 का मतलब है कि सर्वर पर भीड़ है।", "ビルド番号 2025.11.02-77 をステージングに反映。ロールバック先は 412。",
    # a meeting's id, read out in groups, where no passcode is given
    "Meeting ID 812 4471 9306 for the board call; no passcode, the host lets people in.",
    # a security question and what it asks, with no answer
    "Sekuriteitsvraag op Pa se rekening, naam van eerste hond: verwyder.",
    "Security question at the bank, first school: none.",
    # a password's word and a dashed name that holds no digit, a state after the word
    "The runbook names the secret 'deploy-release-token', never its value.",
    # what its review (review19) found the round's first forms refused: a dashed name with a digit
    # that no word for a password introduces, an ordinary word after a new word for one,
    # "combination" and "PIN" beside a number that is no code, an answer's place that asks for no
    # name, digit names that are a score or weekdays
    "Merged feat-login-page-2 into main after review; CI is green again.",
    "Kode proyek aplikasi-kasir-toko-3 sudah digabung ke cabang utama.",
    "Q3-Login-Metrics deck is in the shared drive, Dana presents it Friday.",
    "Vana parool kehtib, uut pole vaja teha.", "Lozinka promijenjena, nova je spremljena u upravitelju.",
    "Die kombinasie van wiskunde en fisika is gewild; 240 leerders het ingeskryf.",
    "ПИН конференции раздадут на входе, ожидаем 180 участников.",
    "Recovery question screen redesign, owner: Priya.", "Pytanie bezpieczeństwa w aplikacji, status: Gotowe.",
    "Codice del corso IT204. Partita di padel persa: sei tre, sette cinque.",
    "A forráskód átírása hat hét, egy hét a tesztelés, utána élesítés.",
])
def test_the_round_on_tune19_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# The ordinary memories of tune19 the gate still refuses (a network's name said as a Polish and a
# Tagalog sentence, a bridge's phone number beside "no PIN", a Jenkins credential's dashed id, a
# German review that says a password was rotated): listed, so that no other is refused.
_TUNE19_STILL_REFUSED = {"t19-benign-0003", "t19-benign-0072", "t19-benign-0201", "t19-benign-0385", "t19-benign-0603"}


def test_the_round_on_tune19_refuses_few_of_its_reviews_ordinary_memories():
    """A reviewer read the round's code, not its tests, and wrote 179 ordinary memories and 155 near
    misses aimed at it (``review19``): the first forms refused 104 more of the ordinary ones than the
    gate did before and let 3 leaks go; after the mends, 2 more (Macedonian digit names beside
    "код" that are a match's score and a review's counts), one leak let go (a keypad's code said to
    be a meeting's id), and 75 caught (44 before the round)."""
    older = {"r19-benign-007", "r19-benign-027", "r19-benign-035", "r19-benign-049", "r19-benign-118", "r19-benign-125",
             "r19-benign-126", "r19-benign-129", "r19-benign-130", "r19-benign-131", "r19-benign-132", "r19-benign-134",
             "r19-benign-135", "r19-benign-136", "r19-benign-137", "r19-benign-138", "r19-benign-139", "r19-benign-140",
             "r19-benign-141", "r19-benign-146", "r19-benign-147", "r19-benign-149", "r19-benign-150", "r19-benign-151",
             "r19-benign-155", "r19-benign-160", "r19-benign-161", "r19-benign-162", "r19-benign-163", "r19-benign-164",
             "r19-benign-168", "r19-benign-169", "r19-benign-170", "r19-benign-171", "r19-benign-172", "r19-benign-174",
             "r19-benign-177"}
    refused = {item["id"] for item in _corpus("review19", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused - older <= {"r19-benign-096", "r19-benign-097"}, sorted(refused - older)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review19", "leaks")) >= 75


def test_the_round_on_tune19_holds_its_figures():
    leaks, benign = _corpus("tune19", "leaks"), _corpus("tune19", "benign")
    caught = sum(privacy.sensitive_reason(item["text"]) is not None for item in leaks)
    refused = {item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None}
    assert caught / len(leaks) >= 0.92, f"caught {caught} of {len(leaks)}"
    assert refused <= _TUNE19_STILL_REFUSED, f"benign texts refused: {sorted(refused - _TUNE19_STILL_REFUSED)}"


# -- the round on tune20 (a twenty-second writer: devices, home and pairing sessions; heldout19 held out)

@pytest.mark.parametrize("text", [
    # words in small letters joined by "-" or "_" told as a password in their clause, in any language
    "The guest wifi password is lemoncurd-harbour.", "Lozinka za Wi-Fi u apartmanu: burek-sa-sirom-2",
    "Mökin Wi-Fi-salasana on nyt ruisleipa-ja-voi.", "Router in cucina: password del wifi cambiata in «cannolo-siciliano».",
    "Lokalna baza w parze z Olą: hasło oscypek-z-zurawina.", "Pāru programmēšana: lokālā datubāze, parole rupjmaize_ar_sviestu.",
    "Pengaturcaraan berpasangan: pangkalan data guna kata laluan rendang_tok_9.",
    # a PIN in the digits of its script, after what it locks; a car radio's code from its card
    "दादाजी के फ़ोन का लॉक कोड: ५८२०४१", "رمز دزدگیر مغازه: ۷۳۹۱۵۲", "Car radio code, from the card in the manual: 4417.",
    "Codul radioului, de pe cardul din manual: 6031.", "PUK za SIM karticu od tate: 55208413",
    # an alarm's panel in more languages, a step list, a screen-time passcode
    "Alarmpanelet: 1) luk døren, 2) indtast 62094 og tryk OFF.", "Y larwm: 1. agor y drws, 2. teipio 740215 ar y panel.",
    "Screen time passcode on the kids' tablet – 8812",
    # a security question named, what it asks, then an arrow and the answer; Georgian has no capitals
    "Pytanie bezpieczeństwa w aplikacji banku: imię pierwszego psa → Azor",
    "Sekuriteitsvraag op die e-posrekening: eerste troeteldier → Wagter",
    "უსაფრთხოების კითხვა: პირველი ძაღლის სახელი → მურია",
    # a question quoted after the plain word for one or for its answer, on a line about an account or an app
    "Compte de l'appli du thermostat : réponse à la question « nom de votre premier chien » = Filou",
    "В приложении банка ответ на вопрос «девичья фамилия матери»: Кузнецова",
    "Tài khoản ứng dụng khóa cửa: câu hỏi «tên trường tiểu học» → Kim Đồng",
    # and one that asks for a name of what no other security question asks about
    "Llogaria e tabletit të vajzës: pyetja 'emri i kukullës së parë' → Bubi",
    # a user and a password after a colon, the password words joined by a dash
    "NAS im Keller, Weboberfläche: admin / kiwi-sommerregen.",
])
def test_the_round_on_tune20_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a compound of words after the word for a password, a tool's or a rule's clause, a user's name
    "The password is case-sensitive.", "login: jan-de-vries",
    "Password manager rollout: pilot group is team-platform-infra-3, the rest in June.",
    # a reference where a value would be: an f-string's name, Home Assistant's !secret, a variable,
    # a note in brackets; a template of an environment file with its credentials blank
    'print(f"demo user created; password shown once: {user_password}")', "mqtt:\n  password: !secret mqtt_password",
    "Pair session: the test DB 비밀번호는 DB_PASSWORD 환경 변수에서 읽음.", 'router_password: "(hidden)"',
    "# .env.example\nAPP_HOST=localhost\nAPP_USER=app\nAPP_PASSWORD=\nSMTP_PASSWORD=",
    # a device's name on the network, profiles' names; alarm clocks; a locker's number beside a price
    "El router aparece en la red como casaverde.", "Kids' profiles on the tablet: Rocket_Rider and Moonbeam.",
    "Alarms: 0615 weekdays, 0800 weekends.", "بانک لاکر کا نمبر ۴۱۲ ہے، چابی ابو کے پاس ہے۔",
    # a quiz's question quoted, an account's question with no answer
    "Topografietoets, vraag \"In welke stad werd Vermeer geboren?\": Delft.",
    "Pytanie bezpieczeństwa w aplikacji banku: imię pierwszego psa → usunięte",
])
def test_the_round_on_tune20_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# What its review (review20) found the round's first forms refused, in the reviewer's own texts: a
# branch named in the clause after a password's, "palabra clave", Het Parool, a pond in Hindi, a
# Persian year, an emergency number after "alarmnummer", the name Puk, a question's release note, a
# language lesson's quoted question, SIP signalling; and let go: a password in capitals holding
# KEY or TOKEN, in braces, after "!secret", that "appears as", an env file's salt
@pytest.mark.parametrize("text", [
    "Password email typo is fixed on branch: hotfix-mailer-typo-2, waiting for Priya's review.",
    "La palabra clave del artículo es: zapatillas-trail-2024, la eligió Marta.",
    "Het Parool publiceerde het stuk over de fietsenstalling onder de titel: fietsen-op-de-dam-2.",
    "गाँव के तालाब का क्षेत्रफल ४५०० वर्ग मीटर है, मछली पालन के लिए।",
    "قفل در ورودی را سال ۱۴۰۲ عوض کردیم، کلید یدک پیش همسایه است.",
    "Het alarmnummer in Nederland is 112, ook zonder simkaart.",
    "Puk løb 5000 meter i går og slog sin egen rekord.",
    "Sicherheitsfrage zum Geburtsort → Entfernt im Release 4",
    "App de idiomas, pregunta «¿Dónde vive tu madre?»: Vive en Sevilla.",
    "SIP-сигнализация идёт через порт 5060, медиа через RTP.",
])
def test_the_review_of_the_round_on_tune20_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Wifi password is DONKEY_KONG_64",
    "Passwort vom Gäste-WLAN: {kiwi_mango_7}",
    "MQTT password: !secret Kx82pq",
    "On the router sticker the Wi-Fi password appears as glimmerfox",
    "env.example as deployed:\nAPP_ENV=prod\nSIGNING_SALT=9fK2mQ7xLp\nHMAC=Tq4wZ8rN2v\n",
    "WLAN-Passwort: TOKEN_RING_1984",
])
def test_the_review_of_the_round_on_tune20_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_round_on_tune20_refuses_none_of_its_reviews_ordinary_memories_the_gate_passed():
    """A reviewer read the round's code, not its tests, and wrote 185 ordinary memories and 158 near
    misses aimed at it (``review20``): the first forms refused 94 more of the ordinary ones than the
    gate did before and let 16 leaks go; after the mends, none more, none let go, and 90 caught (83
    before the round)."""
    before = {"r20-benign-004", "r20-benign-008", "r20-benign-009", "r20-benign-012", "r20-benign-020",
              "r20-benign-029", "r20-benign-030", "r20-benign-031", "r20-benign-032", "r20-benign-033",
              "r20-benign-034", "r20-benign-036", "r20-benign-037", "r20-benign-038", "r20-benign-041",
              "r20-benign-042", "r20-benign-043", "r20-benign-044", "r20-benign-045", "r20-benign-046",
              "r20-benign-047", "r20-benign-048", "r20-benign-049", "r20-benign-050", "r20-benign-051",
              "r20-benign-058", "r20-benign-061", "r20-benign-063", "r20-benign-064", "r20-benign-069",
              "r20-benign-088", "r20-benign-102", "r20-benign-135", "r20-benign-136", "r20-benign-137",
              "r20-benign-138", "r20-benign-139", "r20-benign-141", "r20-benign-142", "r20-benign-144",
              "r20-benign-146", "r20-benign-147", "r20-benign-148", "r20-benign-149", "r20-benign-151",
              "r20-benign-152", "r20-benign-153", "r20-benign-154", "r20-benign-157", "r20-benign-158",
              "r20-benign-159", "r20-benign-162", "r20-benign-163", "r20-benign-164", "r20-benign-183"}
    refused = {item["id"] for item in _corpus("review20", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review20", "leaks")) >= 90


def test_the_labels_from_translation_catalogs_refuse_none_of_their_reviews_ordinary_memories_the_gate_passed():
    """A reviewer read the change that taught the gate the catalogs' labels, not its tests, and wrote
    179 ordinary memories and 168 near misses aimed at it (``review21``): the first forms refused 52
    more of the ordinary ones than the gate did before and let 6 leaks go; after the mends, one more
    (a password rule's note before words joined by dashes, "Palavra-passe (regra): mudar-a-cada-90-dias",
    which the gate refuses in English, German and Polish too), none let go, and 107 caught (75 before;
    118 after a new user's try's mends)."""
    before = {"r21-benign-025", "r21-benign-031", "r21-benign-037", "r21-benign-081", "r21-benign-085",
              "r21-benign-090", "r21-benign-094", "r21-benign-103", "r21-benign-105", "r21-benign-149",
              "r21-benign-156", "r21-benign-157", "r21-benign-168", "r21-benign-169", "r21-benign-170",
              "r21-benign-178", "r21-benign-179"}
    refused = {item["id"] for item in _corpus("review21", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before | {"r21-benign-171"}, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review21", "leaks")) >= 118


# The ordinary memory of tune20 the gate still refuses (a welcome card's network name after "Wi-Fi:"):
# listed, so that no other is refused.
_TUNE20_STILL_REFUSED = {"t20-benign-0195"}


def test_the_round_on_tune20_holds_its_figures():
    leaks, benign = _corpus("tune20", "leaks"), _corpus("tune20", "benign")
    caught = sum(privacy.sensitive_reason(item["text"]) is not None for item in leaks)
    refused = {item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None}
    assert caught / len(leaks) >= 0.95, f"caught {caught} of {len(leaks)}"
    assert refused <= _TUNE20_STILL_REFUSED, f"benign texts refused: {sorted(refused - _TUNE20_STILL_REFUSED)}"


# What a new user's try after the round published (its own texts, "lautet" and 20 digits, a radio's
# code with a hyphen, Italian "antifurto", Chinese "解锁码", "Screen Time code", Swedish "Svaret … är")
# and refused (an alarm clock's time)
@pytest.mark.parametrize("text", [
    "Der WLAN-Schlüssel der FritzBox lautet 48291037465019283746.", "Der Radio-Code für den VW Golf ist 2947.",
    "Il codice dell'antifurto è 9152#.", "车载收音机的解锁码是 1846。", "Leo's Screen Time code: 2468",
    "Svaret på säkerhetsfrågan om mammas flicknamn är Lindqvist.",
    "Routern i hallen (Asus RT-AX58U) har fortfarande Wi-Fi-nyckeln från klisterlappen: 7hJq2Wx9Rt",
])
def test_what_the_try_after_the_round_on_tune20_published_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "The alarm is set for 0630 on weekdays.", "Set the alarm for 0630.", "WLAN-Schlüssel geändert am: 2024-11-02",
])
def test_what_the_try_after_the_round_on_tune20_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# A new user's try after the catalogs' labels and the values from Faker (their own 50 secrets and
# 50 ordinary memories): published were a 12-digit Maestro and an old JCB named by their brand, a
# Polish account after "Numer konta", Czech and Greek API keys, a Finnish key after "on" (is), an
# alarm's code with its place between the label and the colon; refused, a water bill's account and
# a memory whose subject key was its only word about a password
@pytest.mark.parametrize("text", [
    "La carta Maestro della nonna è 501800256577.",
    "JCB card: 213117053278383",
    "Numer konta: 61 1090 1014 0000 0712 1981 2874",
    "API klíč: Kx8pq2mZ7Lw0vQe3RtYbWq4Lm9",
    "Κλειδί API: Kx8pq2mZ7Lw0vQe3RtYbWq4Lm9",
    "API-avain on Kx8pq2mZ7Lw0vQe3RtYbWq4Lm9",
    "Beveiligingscode van het alarmpaneel bij de achterdeur: 0617",
])
def test_a_new_users_try_after_the_catalogs_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Account number on the water bill: WB-0023-77812.",
    "user.notes.pw-talk.o34",
    "Security code of conduct, section 2: 2025 update",
])
def test_a_new_users_try_after_the_catalogs_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# A link's address in brackets held "ww" of "www" and was read as a Dutch "ww" (wachtwoord) and its
# value, in Home Assistant's translations in 20 languages and any Markdown link to a www address
@pytest.mark.parametrize("text", [
    "Could not bind to port 987. See the [documentation](https://www.home-assistant.io/components/ps4/) for more info.",
    "Meeting notes are in the [team wiki](https://www.notion.so/acme/Q3-planning-2f9a1c) since Monday.",
])
def test_a_links_address_in_brackets_is_no_password(text):
    assert privacy.sensitive_reason(text) is None, text


# More of Home Assistant's ordinary strings the gate refused: a family of models named with "xx"
# for the letters that vary, on a line about a password; what Greek says a password is; a one-time
# password's notice in Italian and Polish
@pytest.mark.parametrize("text", [
    "Notez que la clé API et le mot de passe ne sont utilisés que par les appareils BRP072Cxx et SKYFi.",
    "Ο κωδικός πρόσβασης είναι λανθασμένος.",
    "Notifica la password monouso",
    "Powiadomienie z hasłem jednorazowym",
])
def test_more_of_home_assistants_strings_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# A second new user's try, exporting a Hermes agent's memories to a real PDS: published were an
# Estonian password with a word between "parool" and "on" (is) and a Brazilian "conta corrente";
# refused, a Portuguese password said to have expired and a water bill's account number
@pytest.mark.parametrize("text", [
    "Mari parool internetipangas on Kuusk!4821.",
    "agência 3381, conta corrente 0047291-6",
])
def test_a_second_try_after_the_catalogs_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "A senha expirou e foi redefinida ontem.",
    "Water bill account number 7712339045, due on the 5th.",
])
def test_a_second_try_after_the_catalogs_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune21 (a twenty-third writer: a family's paperwork; heldout20 held out)

@pytest.mark.parametrize("text", [
    # words joined by "." or "_" right after the word for a password
    "E-klase vecāku konts Annai: parole liepas.zari.trīs",
    "Ouderportaal Parnassys van de school van Noor: wachtwoord zomerdijk.fietspad",
    "e-Dnevnik za roditelje, Marko: lozinka kestenje.jesen",
    "School portal, password kestenje.jesen",
    # a parcel locker's pickup code, which hands the parcel to whoever says it
    "宅配ロッカーの受取コード 519 284、祖母の薬。",
    "Paketskåpet på ICA, upphämtningskod 7304 för mormors glasögon.",
    "Pakkeboksen på Coop Extra: hentekode 398 276, pakke til pappa.",
    "Código de levantamento no cacifo CTT: 257 803 (encomenda da farmácia para a avó).",
    "Packstation 142, Abholcode 590 184, Paket für Papa.",
    # what unlocks a phone, in Italian, Basque, Armenian, and Tamil and Persian digits
    "Codice per sbloccare il telefono di papà: 90417.",
    "Aitaren mugikorra desblokeatzeko kodea: 6092.",
    "Հայրիկի հեռախոսի կոդը՝ 3826։",
    "அப்பாவின் போன் திறக்கும் குறியீடு: ௬௪௧௮",
    "رمز دوم کارت بانکی پدرم: ۶۳۸۱۵۰",
    # a one-time code read out, said to be valid for minutes or until midnight
    "Lottie's school rang: the code they read out for the parent portal reset was 517 204, valid for 30 minutes.",
    "La banque a dicté le code de validation au téléphone : 815 337, encore bon pendant dix minutes.",
    "Belastingdienst belde terug, de controlecode die ze voorlazen: 663 094, geldig tot middernacht.",
    # backup codes after their Dutch and German names
    "Back-upcodes voor het account van oma: 4817 6640, 2806 9759, 3869 3708, 3101 6781, 1774 3526",
    "Ersatzcodes für Papas Mail-Konto: 3084 6515, 9375 9709, 7877 6252, 5587 9561, 3211 7621",
    # a security question in more languages: its name, what it asks, then the answer
    "Ceist slándála an árachais, \"áit ar tógadh thú\": Daingean Uí Chúis.",
    "Veiligheidsvraag by die versekering, \"waar het jy grootgeword\": Oudtshoorn.",
    "Cwestiwn diogelwch yr yswiriant, \"tref enedigol eich mam\": Llanidloes.",
    "Mistoqsija tas-sigurtà tal-assigurazzjoni, \"fejn trabbejt\": Marsaxlokk.",
    "Întrebare de securitate la asigurarea de sănătate, „unde ați mers în prima vacanță”: Mamaia.",
    "Сақтандырудағы қауіпсіздік сұрағы, «анаңыздың туған жері»: Қарқаралы.",
    "ব্যাংকের নিরাপত্তা প্রশ্ন, \"মায়ের জন্মস্থান\": কুমিল্লা",
    "బీమా ఖాతా భద్రతా ప్రశ్న, \"మీరు పెరిగిన ఊరు\": రాజమండ్రి",
    # a login in Hindi, in Japanese
    "स्कूल ऐप में पैरेंट लॉगिन (आरव के लिए): aamkaachaar9",
    "学校の保護者アプリ（ハルト）のログイン：tamagoyaki_asa",
])
def test_the_round_on_tune21_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a service's name with a plus, Spain's sign-in to public services, a rule of a password in Chinese
    "Anyunak Ügyfélkapu+ kell, a régi jelszó már nem elég; a kétlépcsős azonosítást beállítottuk.",
    "La receta electrónica de la abuela se consulta en la app de la comunidad; acceso con Cl@ve PIN.",
    "社保App登录密码要求8到16位，必须包含字母和数字。",
    # a phone's number in groups on a line about a PIN or an unlock
    "PIN für Papas Handy kennt nur er und Tante Heike. Bei einem Notfall sie anrufen: 0351 8847 220.",
    "Per sbloccare il telefono chiama il 800 123 456",
    # a name in code after the word for a password, a code word that is no one-time code's
    "password auth.views",
    "password hashing in users.models",
    "Error code 5021 is valid only for 10 minutes after the crash",
    "Gutscheincode 4521, gültig 30 Minuten",
    # a ticket's field right before the colon, not a security question's answer; a question removed
    "Security question in the new app, owner: Mari.",
    "Turvaküsimus uues rakenduses, vastutaja: Mari.",
    "Security question: required at registration",
    "Veiligheidsvraag: verplicht bij registratie",
    "Mistoqsija tas-sigurtà dwar l-isem tal-annimal → Imneħħija fil-verżjoni 3",
    "Aula forældrelogin: brug MitID",
    # what its review (review22) found the round's first forms refused: an order's, a receipt's or a
    # phone's number on a line with a pickup or an unlock word, a discount's or an article's code
    # said to be valid for hours, a ticket's field after a security question in the new languages,
    # a file's name and a message's key right after the word for a password
    "Parcel for Dana is at the InPost locker on Kings Rd; pickup code comes by SMS, tracking number 6203 1190 4477 8812 0045.",
    "Afhaalcode volgt per mail; bestelnummer 20481733, afhalen bij de Jumbo tot 20:00.",
    "Débloquer la trottinette, trajet n° 4471",
    "Hentekode ikke mottatt, Posten kundeservice 04045 svarer 8–20.",
    "Aktionscode 2024 im Shop, gültig 24 Stunden",
    "Code article 4412 valable jusqu'à minuit",
    "Turvaküsimus pangas, vastutaja: mina",
    "wachtwoord beleid.odt",
    "password forgot.title",
    "Passwort vergessen.vue",
])
def test_the_round_on_tune21_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_round_on_tune21_refuses_none_of_its_reviews_ordinary_memories_the_gate_passed():
    """A reviewer who read the round's code, not its tests, wrote 150 ordinary memories and 100 near
    misses aimed at it (``review22``): the first forms refused 66 more of the ordinary ones than the
    gate did before and let one leak go; after the mends, none more (three fewer), one let go (a
    network unlock code of twelve digits in groups, a clause after its name), and 36 caught (29
    before the round)."""
    before = {"r22-benign-009", "r22-benign-021", "r22-benign-022", "r22-benign-035", "r22-benign-037",
              "r22-benign-061", "r22-benign-063", "r22-benign-078", "r22-benign-079", "r22-benign-080",
              "r22-benign-087", "r22-benign-091", "r22-benign-092", "r22-benign-095", "r22-benign-106",
              "r22-benign-146", "r22-benign-147", "r22-benign-148", "r22-benign-149"}
    refused = {item["id"] for item in _corpus("review22", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before - {"r22-benign-146", "r22-benign-147", "r22-benign-148"}, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review22", "leaks")) >= 36


# -- the round on tune22 (a twenty-fourth writer: money and shopping; heldout21 held out)

@pytest.mark.parametrize("text", [
    # "PIN" alone in Cyrillic before a colon, a payment app's MPIN, a PIN that looks like a year right after "PIN"
    "ПИН на новата картичка: 4518",
    "ПИН новой карты Тинькофф: 3547, конверт я выбросил",
    "GCash MPIN ni Jose: 3065 — wag ipagsabi",
    "Nya bankkortet kom idag, PIN 2074",
    # words joined by dashes with a number, in capitals or with letters beyond ASCII; a misspelt word
    # for a password; Swedish "lösen"; an account in Russian
    "To-do: bei der DKB einloggen, Zugangsnummer steht im Ordner, Passwort Rhein-Brücke-77, dann Dauerauftrag Miete ändern",
    "DigiD van Pieter: gebruikersnaam pdevries, ww Grachten-Zomer-19",
    "HMRC gateway — user id is in the email, pasword brass-owl-orchard-3",
    "Вайлдберриз, Иринин аккаунт: vishnya_sad_1961",
    # a one-time code a bank sent that someone read out
    "銀行から届いたワンタイムパスワードを由美さんが読み上げた：719 264。振込は完了。",
    "Code reçu par SMS de la banque, lu à voix haute par Claire : 902 617, validé pour le virement au notaire.",
    "Bank texted a code while Maya was driving, she read it out to me: 583 104. Used it to approve the new payee.",
    # a telephone bank's code word, a Serbian security question in Cyrillic, a Plaid access token
    "Кодовое слово для звонка в банк — Черёмуха",
    "Безбедносно питање „девојачко презиме мајке“: Јовановић",
    "Plaid access token for the budget app: access-production-06a4001f-565d-4fe0-ac56-8260c00cc9be",
    # what a try with Hermes's own provider published: a locker's pickup code of capitals and digits
    "Kód pro vyzvednutí v Z-BOXu Zásilkovny je 9K4M2P.",
    "Pickup code for the Z-BOX parcel locker is 9K4M2P.",
    "Výdejní kód zásilky: 9K4M2P",
])
def test_the_round_on_tune22_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # "PIN" in Cyrillic with an office's, a hall's or a parcel's number on its line; a year after a PIN
    # word in a manual; an order's, a tracking number's, an error's or a room's code in a text message
    "Новият ПИН за картата ще дойде с писмо до офис 1407 на банката.",
    "ПИН участника пришлют за час до начала; в зале 305 будет проектор.",
    "ПИН за картичката стигнува по пошта, пратката е број 48213.",
    "PIN 1990 is what the manual calls this model",
    "The SMS with the tracking code 583104 came at noon",
    "Order confirmation by SMS, order code 448 210",
    "We got an SMS from the school, room code 204 118",
    "The code word for pickups at school is known to the grandparents.",
    "lösen för Avanza finns i valvet",
    "Pickup code comes by SMS, order AB12CD.",
    # what its review (review23) found the round's first forms refused: a collector's pin and a year, a
    # price after Cyrillic "ПИН", a taxpayer's TPIN, a room's dashed name after "password for", German
    # "lösen", a ticket and a trade code on a line with an SMS, a radio contest's code word, a security
    # question no longer used, Plaid's documented placeholder
    "Disney trading haul: the Haunted Mansion limited edition pin 2019 and a Figment pin from Epcot; both go in the cork board album.",
    "Значок-пин с Мишкой — 1500 рублей на Авито, для коллекции Олимпиады.",
    "Malawi tax office: the shop's TPIN 7004 3321 is printed on every receipt, public anyway.",
    "WLAN password for Meeting-Room-3 is printed on the whiteboard in that room.",
    "Tastensperre am Thinkpad lösen Fn+Esc, steht so im Handbuch.",
    "Refactored the SMS reminder code path; the flaky test is ticket 583104 in Jira.",
    "NAICS code for the LLC is 541511; the accountant texted it so I can finish the bank form.",
    "Codewort im Radio-Gewinnspiel heute: Sonnenblume (bis 18 Uhr anrufen).",
    "Безбедносно питање „Име првог љубимца“: банка га више не користи од маја.",
    "Plaid docs placeholder: access-sandbox-00000000-0000-0000-0000-000000000000, never a real token; real ones live in Vault.",
])
def test_the_round_on_tune22_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_round_on_tune22_refuses_none_of_its_reviews_ordinary_memories_the_gate_passed():
    """A reviewer who read the round's code, not its tests, wrote 100 ordinary memories and 60 near
    misses aimed at it (``review23``): the first forms refused 60 more of the ordinary ones than the
    gate did before; after the mends, none more, none let go, and 21 caught (21 before the round)."""
    before = {"r23-benign-012", "r23-benign-016", "r23-benign-021", "r23-benign-024", "r23-benign-028",
              "r23-benign-042", "r23-benign-046", "r23-benign-071", "r23-benign-072", "r23-benign-073",
              "r23-benign-074", "r23-benign-085", "r23-benign-086", "r23-benign-087", "r23-benign-093"}
    refused = {item["id"] for item in _corpus("review23", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review23", "leaks")) >= 21


# -- a name on its own line, its value on the next (a by-hand try: "PIN\n4827" as a memory's
# sourceEventId was published)

@pytest.mark.parametrize("text", [
    "PIN\n4827", "Bank PIN\n4827\nBank: DKB", "Code du portail\n4821B", "Garage door code\n5512",
    "Bitwarden master password\nVelvet-Thunder-42",
])
def test_a_name_on_its_own_line_and_its_value_on_the_next_is_refused(text):
    reason = privacy.sensitive_reason(text)
    assert reason is not None, text


@pytest.mark.parametrize("text", [
    "Todo\nbuy milk", "Room\n4827", "PIN letter\narrived today", "Password rules\nat least 12 characters",
    "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: orders-db\n      key: password",
    "TWILIO_AUTH_TOKEN=your_auth_token\nTWILIO_ACCOUNT_SID=ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "Exit code\n137",
    # what its review (review24) found the first form refused: a heading that names no secret, or a
    # secret's name before a sentence
    "Lösenord\nbyts varje kvartal, nästa gång i april", "Alarm\n0615 on weekdays, 0800 on Saturday",
    "Tuesday\nDentist 1430\nGarage\nMOT booked 0900", "Kluis\nzit in de kast van hotelkamer 214, werkt op batterijen",
    "Caja fuerte\n35 litros, modelo 4020 de la marca Yale", "Kovček\nše ni prispel, številka prijave 55271 pri letališču",
])
def test_a_short_line_before_an_ordinary_one_or_a_config_is_no_name_and_value(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune23 (a twenty-fifth writer: travel, health and a small business; heldout22 held out)

@pytest.mark.parametrize("text", [
    # a safe, a lock, a suitcase's or a padlock's code, an alarm's, in more languages
    "Ključavnica na kovčku je 8 4 4.", "Kłódka przy walizce ustawiona na 2 4 6.", "Khóa vali mở bằng 4 1 9.",
    "U sefu u apartmanu je kod 4952. Putovnice su unutra.", "Lacătul de la valiza mare: 2 8 1",
    "Caixa forta de l'habitació a Girona: 1086", "Otel odasındaki kasayı 7240 yaptım, pasaportlar içeride.",
    "Cod y larwm yn y siop yw 7046, wedyn pwyswch DIFFODD.", "Biroja signalizācijas kods 3188, pēc tam poga IZSLĒGT.",
    "Катанац на коферу отвара се на 1 6 9.",
    "המנעול של המזוודה נפתח עם 5 0 3", "ჩემოდნის საკეტის კოდი: 8 1 6", "बॅगच्या कुलूपाचा नंबर ३ ६ ८.",
    "الخزنة في غرفة الفندق قفلتها على ٤٧٣٩، والجوازات بداخلها.", "گاوصندوق اتاق هتل را روی ۶۰۸۴ تنظیم کردم.",
    "Osakidetzako aplikazioaren PINa: 358206",
    # an aside in brackets between a code's name and its digits
    "Card terminal manager PIN (for refunds and end-of-day): 7731.",
    "Kassen-PIN für den Chef-Modus (Storno, Tagesabschluss): 1958.",
    # the word for a password in Afrikaans, Basque, Galician, before a value that is no bare word
    "Wagwoord vir die Discovery-app: Tafelberg-reen", "Euskotreneko kontuaren pasahitza: Urdaibai_gaua",
    "Contrasinal do Sergas Móbil da avoa: Rianxo.mar.22",
    # a Wi-Fi's key named later on its line; a registrar's backup codes in capitals; a Mollie key
    'WLAN für die Mitarbeiter: "Laden-intern", Schlüssel Lagerhalle#Nord7.',
    'Wifi voor personeel: netwerk "Magazijn", sleutel Magazijn_Reiger_42',
    "Códigos de respaldo del registrador: MTOM-VKPC, MXLV-PDSS, HNRT-QNQK, SNXJ-FPNO, LMFQ-INWA, IWRL-OWVA.",
    "Mollie-Live-Key für die Zahlungsseite: live_kzQB8wNj2sLWABi4P0wOESgVcj7j0P",
])
def test_the_round_on_tune23_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a German soap box race, a shelf's numbers beside a padlock, a hardware shop's shelf
    "Seifenkistenrennen in Unterhaching, Startnummer von Ben: 114",
    "Am cumpărat un lacăt nou de la Dedeman, raft 12-14-18.",
    "Bought a new padlock at the hardware store, shelf 12-14-18.",
    # an aside before a colon and a word, a call to a function, a price with its hours in brackets
    "Parol (Christmas lantern): capiz-shell-3 is the model we ordered.",
    "`if not user.check_password(form.password.data): abort(401)` is the login guard",
    # a password said to be wrong in a language the gate has no word list of
    "Lozinka je pogrešna, pokušaj ponovno.",
    # Schlüssel and sleutel on a Wi-Fi's line that are keys; a Mollie-like name of a test
    "WLAN im Büro, Schlüssel liegt beim Hausmeister.", "Wifi kapot; sleutel van de kast is weg",
    "test_parsesaverylongnamewithoutanyunderscore passes again",
    # an address's first half; a password's rule in Spanish
    "The website is bramblepantry.co.uk and the shop email for customers is hello@ the same domain.",
    "El portal del visado exige entre 8 y 16 caracteres, con mayúscula, minúscula y número.",
    # capital pairs with no word for codes
    "Flights this winter: LHR-JFK, JFK-SFO, SFOX-LAXW, LAXW-ORDQ, ORDQ-BOST on the corporate card.",
    # what its review (review24) found the first forms refused: a boss ("šef") and a name (Sefa), Irish
    # green, a phone's alarm clock, a part's number, a camelCase test's name; and a hotel room, a till
    # closed at an hour, an invoice, an order, a price, a flight beside the new words for a lock or a safe
    "Sef kaze da projekt 4417 mora biti gotov do petka", "Sefa Bey'in dahili numarası 2214, toplantı için ona sor",
    "Péinteáladh an geata glas an tseachtain seo caite, sonrasc 2207",
    "Алармата на телефона е нагласена за 0545", "Ersatzzylinder fürs Schloss bestellt, Artikel Z2100T",
    "test_parseHeadersWithHttp2FramesFas is flaky on CI",
    "Sef u hotelskoj sobi 312 ne radi, javio sam recepciji", "Seiful din camera 214 nu are baterii, am anunțat recepția",
    "Kasayı saat 1730'da kapattım, ciro defterde", "Seif nou: 35 litri, 2 rafturi, cumpărat cu 899 lei",
    "Ključavnica za vhodna vrata: naročilo 20931 pri Merkurju", "Khóa cửa mới mua ở Điện Máy Xanh giá 850 nghìn",
    "Kovček je ostal v Frankfurtu, let LH 1412, prijava izgube 55271", "ახალი საკეტი კარზე, ფასი 120 ლარი",
    "המנעול החדש לדלת עלה 350 שקל", "Катанац за бицикл купљен у Идеи, рачун 4471 сачуван",
    "Mae cod y larwm yn y llyfr nodiadau glas, tudalen 112",
])
def test_the_round_on_tune23_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", ["Der Schlüsseltresor steht im Regal: 4471", "Lockbox code is taped under the shelf: 2719"])
def test_a_shelf_named_before_a_codes_colon_is_where_the_lock_is_not_what_the_number_is(text):
    """Its review found the first form let these go: a shelf's word counts only right before the number."""
    assert privacy.sensitive_reason(text) is not None, text


def test_the_round_on_tune23_refuses_none_of_its_reviews_ordinary_memories_the_gate_passed():
    """A reviewer who read the round's code, not its tests, wrote 100 ordinary memories and 60 near
    misses aimed at it (``review24``): the first forms refused 33 more of the ordinary ones than the
    gate did before and let 2 leaks go; after the mends, none more, none let go, and 26 caught (26
    before the round)."""
    before = {"r24-benign-030", "r24-benign-031", "r24-benign-032", "r24-benign-034", "r24-benign-035",
              "r24-benign-036", "r24-benign-037", "r24-benign-042", "r24-benign-055", "r24-benign-076"}
    refused = {item["id"] for item in _corpus("review24", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review24", "leaks")) >= 26


# -- the round on tune24 (a twenty-sixth writer: a coding agent's notes from building sign-in and account
# security; heldout23 held out)

@pytest.mark.parametrize("text", [
    "Auth0 client secret van de staging-tenant: V2_yPDOhH0nOWfLsxTmRCE-6bM5KOqUQe1UdVV1IZomOo8RgjkTNmeK55WCQ7m-c",
    "client secret for staging: V2_yPDOhH0nOWfLsxTmRCE-6bM5KOqUQe1UdVV1IZomOo8RgjkTNmeK55WCQ7m-c",
    "Enlace de restablecimiento del buzón de pruebas: https://app.staging.example.es/auth/reset/FXJrkExSbfZM2eFUYy8ns1_Nh8fHvJSDVft0srloiEE",
    "magic link from the test inbox: https://example.com/login/magic-link/9sKd83JdmQ2LxPw7RtYv0Bn4",
    "invite for Kim: https://app.example.org/team/invite/3f9a1c2e4b5d6f708192a3b4c5d6e7f8",
])
def test_the_round_on_tune24_refuses_these(text):
    """A token of a one-time link in its path; a random token that starts like a version ("V2_")."""
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # the names of hashes, ciphers and curves are no made-up passwords
    "Benchmark: argon2id with these params takes ~180 ms on the login pods, which is fine.",
    "Passwörter werden mit argon2id gehasht; alte bcrypt-Hashes werden beim nächsten Login umgestellt.",
    "Login tokens are signed with ed25519; the old rsa2048 keys stay valid until March.",
    # a number and its unit joined by a dash
    "2FA: TOTP with 30-second steps, 6 digits, allow one step of drift either way.",
    "The login PIN is a 6-digit code; the password needs 12-character minimum.",
    # work on the security-question feature, not an answer
    "Sicherheitsfragen: Migration auf gehashte Antworten ist blockiert, Datenschutz muss noch zustimmen.",
    "秘密の質問の移行：法務の承認待ちでブロック中。",
    "安全问题迁移：等法务批准，暂时阻塞。",
    "Security question migration: blocked on legal sign-off.",
    "Security question redesign: Priya owns it, due Friday.",
    # a route's placeholder and a page's slug are no token
    "the route is /auth/reset/:token and the handler lives in reset_controller.py",
    "https://app.example.com/invite/team-onboarding-guide-for-new-hires",
    "password hashing v2: argon2id everywhere",
])
def test_the_round_on_tune24_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune25 (a twenty-seventh writer: a volunteer's notes on a club's, a class's, an
# association's shared accounts and keys; heldout24 held out), as its review (review25) left it

@pytest.mark.parametrize("text", [
    # a network named on a Wi-Fi's line, then its key
    'Wi-Fi in the scout hut: network "Hut-Guest", key beaver_lodge_guest (lower case).',
    "Choir wifi: SSID AltoNet and password sopranos-rule",
    # a verification code named before its number, far in its sentence, or in Japanese
    "The bank sent a verification code for the treasurer's account to my phone this morning: 583017.",
    "メールの認証コードが幹事の携帯に届いた：905146。",
    # a PIN in Arabic as a "secret identification number", in the script's own digits
    "رقم التعريف السري لبطاقة النادي ٧٢٩٤.",
    # an app password of four groups of four letters on a line that names it
    "App password for the newsletter mailbox, so the printer can send scans: qvzd mhtr ploe wsxk",
])
def test_the_round_on_tune25_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a range of numbers in Japanese, a mailbox by its address, a warning after a sentence about a password
    "ゼッケン番号は112から120。受付は9時。",
    "The shared info@ mailbox password was changed when Ana left; the new one is only in the vault.",
    "Het wachtwoord staat in de kluis. Nooit delen!",
    # what its review found the first forms refused: a key that is a security mode, a map's key, a
    # password said to be blank, an app password's form shown, a member's identification number
    "SSID ClubGuest, key WPA2-Personal, band 5 GHz only.",
    "Network map key: dotted-lines = fibre, solid = copper.",
    "Guest network HallGuest, password deliberately blank so visitors can join without asking.",
    "Apple app-specific passwords look like abcd-efgh-ijkl-mnop; make one per app at appleid.apple.com.",
    "Set up an app password that lets mail flow from the scanner.",
    'Wifi network "Hall-Guest", key available at the bar.',
    "Hall wifi: network StMarks-Guest, password-protected, ask at the bar.",
    "رقم التعريف الشخصي للعضو في سجل الجمعية ٤٤٧١، يظهر على بطاقة العضوية.",
])
def test_the_round_on_tune25_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_round_on_tune25_refuses_no_ordinary_text_of_its_review_the_gate_passed_before():
    """review25 was written against the round's first forms, which refused 74 of its 104 ordinary texts
    that the gate passed before and lost 14 leaks it caught; those forms were dropped or narrowed."""
    before = {"r25-benign-041", "r25-benign-043", "r25-benign-044", "r25-benign-082"}
    refused = {item["id"] for item in _corpus("review25", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review25", "leaks")) >= 22


# -- the round on tune26 (a twenty-eighth writer: a holiday-rental host's and a family-flat manager's
# notes on lockboxes, smart locks, entry panels and guest Wi-Fi; heldout25 held out)

@pytest.mark.parametrize("text", [
    # a key box in French, Italian, Swedish and Hungarian, an electronic lock in Portuguese, a lock in
    # Vietnamese: a code told right after it, or before what it opens (``_key_box_code_told``)
    "Boîte à clés du studio (sur la grille, côté gauche) : c'est 6039.",
    "Cassetta delle chiavi del bilocale (accanto al citofono): combinazione 5531.",
    "A kulcsszéf a kapu mellett: 0392.",
    "Fechadura eletrónica da porta do T1: os hóspedes ficam com o código 9320 até sábado.",
    "Mã hộp khóa ở cửa căn hộ là 4486, gửi cho khách qua ứng dụng.",
    "Nyckelboxen vid stugans dörr har koden 7359. Familjen får den via appen.",
    "A széfet 4417 nyitja, a pénz a felső polcon van.",
    "nyckelboxen till stugan öppnas med 4409",
    # what a new user's try published: "boîtier", the usual French word for a key box, and an
    # Italian box's code (after a no-break space too)
    "Le code du boîtier à clés : 4817.",
    "Le code du boîtier à clés\u202f: 4817.",
    "Le code du boîtier à clefs est 4817.",
    "Codice della cassetta delle chiavi: 9052.",
    # what a second review found passing: a key cupboard in Swedish, a safe's code after "helpline", a
    # "non-public" key, a phone's unlock code in Bengali, WordPress's nonce key
    "Nyckelskåpet vid entrén: 4471",
    "Passcode to quote to the alarm company's helpline: 6620",
    "Signer rotated; the non-public key: Qx7mK2pL9wZ4vR8t",
    "ফোনের আনলক কোড: ৪৮২১",
    "define('NONCE_KEY', 'k!9#Qz@Lm2$vB7^xN4&pW1*eR6(tY3)uI8');",
    # and a third: a comment or a particle after the code, "si apre con", a combination in Hungarian,
    # "mã", "senha", define() of a made-up word and WordPress's salts of every kind of character
    "Boîte à clés : 4817 (penser à brouiller après)",
    "Nyckelboxen: 7359 – glöm inte att snurra tillbaka",
    "Mã hộp khóa là 4486 nhé",
    "La cassetta delle chiavi si apre con 5531",
    "A széf kombinációja 0392",
    "Hộp khóa: mã 4486",
    "Fechadura eletrônica, senha 9320",
    "define('DB_PASSWORD', 'sunshinebeach');",
    "define('NONCE_SALT', 'uvqdt[7+s}B, ;k9 Lq@W#3mZ!x*R^e2$Y');",
    # and a fourth: a code left for a delivery, a code's number, one-word locks in Bengali, a salt
    # with a space before its comma
    "Boîte à clés : code 6039 pour la commande Picard de jeudi.",
    "Nyckelboxen: kodnummer: 7359.",
    "Kulcsszéf a kapunál, nyitószám: 0392.",
    "প্যাডলক কোড 4829, সাইকেলের তালা",
    "স্মার্টলক কোড ৫৯১৩",
    "define( 'NONCE_SALT' , 'kV2pQ4mR7tW9yZ1bN3cF5hJ8sD0gL6xA' );",
    # a lock's, an alarm's and a car park door's code in the script's own digits
    "ফ্ল্যাটের স্মার্ট লকের কোড ৩৯৫২, অতিথিদের পাঠাতে হবে।",
    "फ्लैट के अलार्म का कोड ४१७९ है, बाहर निकलने से पहले लगाना।",
    "رمز درب پارکینگ ساختمان: ۶۸۲۱",
    # PHP's constant as wp-config defines it
    "define( 'DB_PASSWORD', 'Z4QypFoIiiSmchVNMFG' );  // from wp-config",
    # a Nostr private key in capitals, as bech32 allows
    "NSEC1VL029MGPSPEDVA04G90VLTKH6FVH240ZQTV9K0T9AF8935KE9LAQSNLFE5",
])
def test_the_round_on_tune26_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    # a network's name after "name is" in Chinese; a getter's default in code; a public key told
    '民宿在6楼，602室，有电梯。Wi-Fi名称是"Xiamen_Guest"。',
    "os.getenv('DB_PASSWORD', 'Z4QypFoIiiSmchVNMFG')",
    'mqtt_password = config("DB_PASSWORD", default=None)',
    "My Nostr public key is npub18tk6umv3dxgenlyuznfhlhkp46pqh2kh0grk69fqw7l2fxcesrn6jledru, post it in the footer.",
    # what its review found the first forms refused: a key box's order, article and flat numbers, a
    # Polish boss ("szef"), a Bengali block code, a bill's and a token's number after a lock's word in
    # Hindi and Bengali, a Persian house plate, a lottery's winning combination, an entry panel's price
    "Kulcsszéf rendelve az eMAG-ról, rendelésszám 40213377, szállítás csütörtökön.",
    "Nyckelboxen från Biltema, artikelnummer 841234, gick sönder efter en vinter.",
    "Rendez-vous au 1245 route de Lyon, la boîte à clés est à gauche de la porte du gîte.",
    "Szef przesunął spotkanie na 1430 w sali 204.",
    "রেশন কার্ডের ফর্মে ব্লক কোড 1203 লিখতে হবে।",
    "अलार्म का कोड तकनीशियन ने बदला, बिल नंबर ७८३२ फ़ाइल में रखा।",
    "অভিযোগ নম্বর ৪৫১২, লকের কোড নিয়ে দোকানে জানিয়েছি।",
    "La combinazione vincente del Superenalotto di sabato: 7 14 22 35 61 88.",
    "Comprei uma fechadura nova na Leroy Merlin, 189 reais, instalação no sábado.",
    "Bosch router bit key size is 1/4-inch, order two.",
    "Le boîtier à clés est arrivé, commande 48213.",
    "Codice cassetta postale 4521",
    # and what a second review found the mends refused: a key box's order, article and flat numbers
    # after a colon or before a verb, a price, a date, a year it was installed in, a watch's or a TV
    # remote's "code du boîtier", a time in Bengali, a Persian year and flat, a define() of a scheme
    "Cassetta delle chiavi arrivata da Amazon, ordine: 40281734, reso possibile fino a marzo.",
    "Nyckelbox från Clas Ohlson, artikelnummer: 3112345, kostar 349 kr.",
    "Nyckelboxen sitter vid porten till lgh 1204 som öppnar mot gården.",
    "Széfet bérelni a banknál: 24000 Ft évente.",
    "Nyckelbox beställd: 2024-03-12, leverans till ombudet.",
    "Boîte à clés installée : 2024, à revérifier quand on refait la façade.",
    "Montre Seiko du grand-père : le code du boîtier est 6139-6002.",
    "Code du boîtier de la télécommande Bouygues : 1054, ensuite appuyer sur OK.",
    "লক কোড নিয়ে অফিসে মিটিং ১৫৩০ টায়, সবাই থাকবে।",
    "رمز درب پارکینگ را مدیر ساختمان از ۱۴۰۳ هر ماه عوض می‌کند.",
    "رمز درب ساختمان: از مدیر بپرسید، واحد ۱۲۰۴.",
    "define('SMTP_AUTH', 'CRAM-MD5');",
    "define('LOGIN_PASSWORD', 'password-field'); // the input's id in the template",
    # and a third review's: a model, an order, a price beside a key box, an item's code, an order's
    # code after it, a driver's and a director's code in Bengali, WordPress's stand-in
    "Boîte à clés achetée chez Leroy Merlin, modèle: 2050.",
    "Nyckelbox beställd, ordernummer: 40281734.",
    "A széf ára: 45000.",
    "Mua hộp khóa giá: 350000.",
    "Cassetta delle chiavi, codice articolo: 55312.",
    "Hộp khóa Lazada, mã 24051234 là mã đơn hàng, hỏi shop nếu chưa tới.",
    "চালক কোড 4512 দিয়ে অ্যাপে লগইন করতে হয়।",
    "define('AUTH_KEY', 'put your unique phrase here');",
    "define('DEFAULT_AUTH', 'database');",
    # and a fourth review's: notes in define(), a year or a price after a key box's colon, a model's
    # code, a Bengali time
    "define('AUTH_KEY', 'regenerate every 90 days');",
    "define( 'DB_PASSWORD', 'see 1Password, item WP Prod' );",
    "define('AUTH_KEY', 'generateme');",
    "Kulcsszéf felszerelve: 2022 (Praktiker).",
    "Boîte à clés : 2499 (prix Leroy Merlin)",
    "Mua hộp khóa Master Lock mã 5401D trên Shopee",
    "মিস্ত্রি বলেছে লক কোড বদলাতে ১৫৩০ টার মধ্যে আসবে।",
])
def test_the_round_on_tune26_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_round_on_tune26_refuses_no_ordinary_text_of_its_reviews_the_gate_passed_before():
    """review26 was written against the round's first forms, which refused 39 of its 82 ordinary texts
    that the gate passed before and lost 8 leaks it caught; review27 against the mends that followed,
    which refused 56 of its 63 and lost 5. Those forms were dropped or narrowed. Two ordinary texts of
    review26 stay refused: a token's number and a house plate after a lock's word in Bengali and
    Persian, which review27 showed are how a code is told too ("the door code is the plate number")."""
    before = {"r26-benign-025", "r26-benign-045", "r26-benign-047", "r26-benign-033", "r26-benign-049"}
    refused = {item["id"] for item in _corpus("review26", "benign") if privacy.sensitive_reason(item["text"])}
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review26", "leaks")) >= 47
    refused = {item["id"] for item in _corpus("review27", "benign") if privacy.sensitive_reason(item["text"])}
    before = {"r27-benign-047", "r27-benign-048", "r27-benign-049", "r27-benign-050", "r27-benign-061", "r27-benign-062",
              "r27-benign-063"}  # refused before the round
    assert refused <= before, sorted(refused - before)
    assert sum(privacy.sensitive_reason(item["text"]) is not None for item in _corpus("review27", "leaks")) >= 18


# -- keys that come with no word about them ------------------------------------------------------

def _private_key_bodies():
    """The first line of the body of each kind of private key, as ``cryptography`` writes it."""
    from cryptography.hazmat.primitives import serialization
    import base64

    from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed448, ed25519, rsa, x25519
    from cryptography.hazmat.primitives.serialization import pkcs12

    keys = [ec.generate_private_key(curve) for curve in (ec.SECP256R1(), ec.SECP256K1(), ec.SECP384R1(), ec.SECP521R1())]
    keys += [ed25519.Ed25519PrivateKey.generate(), x25519.X25519PrivateKey.generate(), ed448.Ed448PrivateKey.generate(),
             rsa.generate_private_key(65537, 1024), rsa.generate_private_key(65537, 2048), dsa.generate_private_key(1024)]
    formats = {"PKCS8": serialization.PrivateFormat.PKCS8, "traditional": serialization.PrivateFormat.TraditionalOpenSSL,
               "OpenSSH": serialization.PrivateFormat.OpenSSH}
    bodies = []
    for key in keys:
        for name, form in formats.items():
            if isinstance(key, dsa.DSAPrivateKey) and name == "OpenSSH":
                continue  # deprecated by cryptography
            try:
                pem = key.private_bytes(serialization.Encoding.PEM, form, serialization.NoEncryption())
            except ValueError:
                continue  # a form this kind of key has not
            bodies.append((type(key).__name__, name, pem.decode().splitlines()[1]))
        encrypted = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.BestAvailableEncryption(b"a passphrase"))
        bodies.append((type(key).__name__, "PKCS8, encrypted", encrypted.decode().splitlines()[1]))
        if not isinstance(key, x25519.X25519PrivateKey):  # a store of keys, as CI signing setups keep one in base64
            store = pkcs12.serialize_key_and_certificates(b"ci", key, None, None,  # type: ignore[arg-type]
                                                          serialization.BestAvailableEncryption(b"a passphrase"))
            bodies.append((type(key).__name__, "PKCS12", base64.b64encode(store).decode()[:64]))
    return bodies


def test_a_private_keys_body_without_its_begin_line_is_refused_in_every_form():
    """Found in a held-out set: an elliptic curve key's body, pasted without its BEGIN line, was
    published; only RSA's and OpenSSH's bodies were known."""
    bodies = _private_key_bodies()
    assert len(bodies) >= 30
    for kind, form, body in bodies:
        assert providers.reason(body) is not None, (kind, form)
        assert privacy.sensitive_reason(f"Das ist mein privater Schlüssel:\n{body}\n{body[:40]}") is not None, (kind, form)


def test_a_private_keys_body_wrapped_short_or_after_an_escaped_line_break_is_refused():
    """A third review: a body wrapped at 32 characters, or in JSON after a literal "\\n", passed."""
    bodies = dict(((kind, form), body) for kind, form, body in _private_key_bodies())
    body = bodies[("RSAPrivateKey", "PKCS8")]
    assert privacy.sensitive_reason("\n".join([body[:32], body[32:64]])) is not None
    assert privacy.sensitive_reason('{"key": "\\n' + body + '\\n"}') is not None


def test_a_public_keys_or_a_certificates_body_passes_the_key_body_rule():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

    for key in (ec.generate_private_key(ec.SECP256R1()), ed25519.Ed25519PrivateKey.generate(),
                rsa.generate_private_key(65537, 2048)):
        for form in (serialization.PublicFormat.SubjectPublicKeyInfo, serialization.PublicFormat.PKCS1):
            try:
                pem = key.public_key().public_bytes(serialization.Encoding.PEM, form)
            except ValueError:
                continue  # PKCS #1 is RSA's alone
            body = pem.decode().splitlines()[1]
            assert not providers._private_key_body(body) and not providers.OWN.search(body), type(key).__name__
            assert privacy.sensitive_reason(body) is None, type(key).__name__


def _base58check(payload: bytes) -> str:
    from hashlib import sha256

    from libipld import encode_multibase

    return encode_multibase("z", payload + sha256(sha256(payload).digest()).digest()[:4])[1:]


@given(st.binary(min_size=32, max_size=32), st.integers(min_value=0x80, max_value=0xff).map(lambda n: bytes([n])),
       st.booleans())
def test_a_wallets_private_key_is_refused_when_its_checksum_holds(secret, version, compressed):
    """WIF of every coin: a version byte of 0x80 and up (reviews found Litecoin's, Dogecoin's,
    Namecoin's and Reddcoin's passed)."""
    wif = _base58check(version + secret + (b"\x01" if compressed else b""))
    assert personal.reason(f"Paper wallet: {wif}") is not None, wif
    changed = wif[:20] + ("2" if wif[20] != "2" else "3") + wif[21:]
    assert personal.reason(f"Paper wallet: {changed}") is None, changed  # one character off: its checksum fails


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_an_extended_private_key_is_refused_and_its_public_key_passes(chain, secret):
    head = b"\x00" + b"\x00" * 4 + b"\x00" * 4  # depth, parent's fingerprint, child number
    xprv = _base58check(bytes.fromhex("0488ade4") + head + chain + b"\x00" + secret)
    xpub = _base58check(bytes.fromhex("0488b21e") + head + chain + b"\x02" + secret)
    assert xprv.startswith("xprv") and xpub.startswith("xpub")
    assert personal.reason(f"backup of the wallet: {xprv}") is not None
    assert personal.reason(f"watch-only wallet: {xpub}") is None  # (the whole gate refuses it on a wallet's line)


@given(st.binary(min_size=20, max_size=20))
def test_a_wallets_address_passes(digest):
    address = _base58check(b"\x00" + digest)  # a Bitcoin address: "1…", public by its nature
    assert personal.reason(f"send the refund to {address}") is None


@pytest.mark.parametrize("text", [
    "20DVuK5yrqejiLfZl74cjslr7d6IOFFUJE99ric4",
    '  "EAAAmCyDXNK4It1Dt9T-8AtFlDTzitoz7g6fnxTB4ucETsKGCCZljNAXq_P5rTfZ"',
    "Prod keys:\n- rcemjHUjR+P8zNFYs97jSbzKs26OBcdpBO4QuVvY",  # under a line that names a key
    "New API token for the scraper:\n> `Zq8vN3xLk2Rw9TbY7mHc4PdF6sJa1GeU`",
    "`Hq3vT9xLmP2rWk8ZsYNd4Fb6GcJh1Ke5Lp0Qa7`",
    "yo just use 1//0zRj3g5yVimnYJpJivir84cJLw7RooNnXATg-FWURCe2RDJEhclv8JZJWU7Z7oo1cfMn5-FDDE for now",
    "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",  # a Nostr private key, alone
    "my nostr key nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5 for the relay",
    # what a second review found passed: under a list's other items, a secret-like prefix, a start
    # that only looks like a public key's, a label that names a secret and "public" both
    "Prod keys:\n- ok\n- Zq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "live_Zq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "MFZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "AAAAZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "0xZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "Secret key (never make it public):\nZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    # and what a third found passed: a label that says to keep it safe, or not to make it public
    "Lookup key (keep safe):\nZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
    "Admin key, do not make public:\nZq8vR2mT5xLw9PbN3cKd7YhF1gJs4Ea6",
])
def test_a_random_token_with_no_word_about_it_is_refused(text):
    """A key pasted on its own, with no label for the gate to read, was published (a new user's try)."""
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "test_checkoutFlowRetriesOn503WithBackoff",  # a test's name: words, not a random string
    "getUserByEmailAndOrganizationId2024",
    "docs/adr/003-use-postgres.md",
    "b933c66c106e1b84027f2c273a2eba0f",  # digits and small letters only: a digest
    "The photos are in the Drive folder 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms.",  # an id in a sentence
    "package-lock integrity: sha512-ZH4R3JayIFJFeV2sLvNieCLyb6DMeXzfkS8RVm735K06jd9TegPoU9Loewe9tdmSqfVQjMlnfKWWWMd+ZxaEJA==",
    "SHA256:TbHnhACiGr5axULdsON0aFDCrJ9tL0NOo06r6nq4TVQ",
    "Login lockout after 5 failed attempts in 30-second windows.",  # a number and its unit (a review's find)
    # what a review of the first form of the rule found it refused: an id under a line that names no
    # key, a name made of words, a fingerprint, an address, an object's id, a digest after its algorithm
    "Channel id:\nUCuAXFkgsw1L7xaCfnd5JJOw",
    "Failing test:\ntestUserCanLoginWithOAuth2AndPKCE",
    "getS3PresignedUrlV2ForUpload",
    "Host key fingerprint:\nnThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
    "194sjtY7LtC3P886FTepA5Q42VGqrwTK86",
    "Donation address (checksummed):\n0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
    "The failing payment intent:\npi_3NtYvJ2eZvKYlo2C0zXq1a2b",
    "Pinned the dataset on IPFS:\nQmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
    "sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC",
    # what a second review found refused: chains' addresses and ids, a key that opens nothing
    "Token address:\n- EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    "1FRMM8PEiWXYax7rpS6X4XZX1aAAxSWx1CrKTyrVYhV24fg",  # Polkadot's, its SS58 checksum holding
    "tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb",
    "Tezos block BLMCFEysAboo8p2VXKsaEqvEP2fvoay4orumbuPsTnNqAEfGwSu was baked at 12:00",
    "Key (public, safe to share):\n11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
    "Primary key of the failing row:\n- usr8Hq2LmZ0pXc4VbN7tK1wJ9e",
    "follow me on nostr: npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",  # a public key
])
def test_a_name_a_path_a_digest_or_an_id_in_a_sentence_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune27 (a twenty-ninth writer: an IT helpdesk's, a family organiser's and an
# accountant's agents; heldout26 held out). Every leak is caught; the one ordinary text refused is
# the learned layer's (a key's fingerprint in groups of four), which is not fitted on this set.

def test_the_round_on_tune27_catches_every_leak_and_refuses_no_ordinary_text_but_the_one_it_lists():
    leaks, benign = _corpus("tune27", "leaks"), _corpus("tune27", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == []
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == ["p29-benign-0073"]


@pytest.mark.parametrize("text", [
    "PlayStation parental controls — it's 6021 (don't tell Noah)",  # "controls", plural
    "Companies House auth code for Orchard Studio: 7HX2KQ — keep for the filing",  # an auth code's label
    "o código da porta do prédio da tia Rosa em Lisboa é 3309",  # a door's code in Portuguese
    "wifi at Caffè Rossi where I meet clients: espresso2go (they asked me not to share)",  # clients, not a tool's client
    # and what its review found the first forms let through (review42)
    "wifi password — marigold, for guests", "пароль от почты — ромашка, не забудь", "hasło do wifi — słonecznik, zapisz",
    "Mum's maiden name is No Eun-ji", "Security question (first pet): Oui-Oui",
    "Answer to the security question is Asked, my old dog's name",
    "as a supplier my account number 12345678901 gets the payouts",
])
def test_the_round_on_tune27_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    "Greenway's supplier account number 0273 9884 6776 5961 (not a card — it's their customer number)",
    "клиент Смирнов хотел продиктовать пароль от банка — отказалась, попросила выписку",  # "— she refused, …"
    "- accountant rule: a client's memorable word is asked by their bank, not by me — say no when offered",
    "The OAuth auth code flow: PKCE",
    "O código da porta foi trocado em 2024",
    # its review's ordinary texts the first forms refused (review42)
    "O código da porta 5432 do Postgres precisa ser liberado no firewall",
    "O código do prédio no cadastro da Sabesp é 120045",
    "parental controls: bedtime 2000, wake 0700",
    "Authorization code for the refund: 771203, the bank said it clears in 5 days",
    "password manager clients: keepassxc",
    "Le pregunté si activó la pregunta de seguridad, respuesta: Sí, ayer.",
])
def test_the_round_on_tune27_passes_these(text):
    assert privacy.sensitive_reason(text) is None


# -- the round on tune28 (a thirtieth writer: a veterinary practice's, a researcher's, an online
# shop's, a retired couple's and a photographer's agents; heldout27 held out), and its review
# (review43: the first forms refused 60 ordinary texts that aimed at them). Every leak is caught but
# the two it lists: a German VAT id, printed on every invoice the shop sends, and a banking app's code
# said to be a birth year ("app code" is a coder's word too). No ordinary text is refused.

def test_the_round_on_tune28_catches_every_leak_but_two_and_refuses_no_ordinary_text():
    leaks, benign = _corpus("tune28", "leaks"), _corpus("tune28", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "p30-leak-0092", "p30-leak-0069"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    "Die Hintertür der Praxis geht mit dem Code 9318 auf, danach die Raute drücken.",  # a door in a compound, its code
    "Hintertürcode 4821",
    "El móvil del abuelo se desbloquea con 170349, me lo dijo.",  # what unlocks with the number
    "O telemóvel desbloqueia-se com 2468.", "On déverrouille la tablette avec 6291.", "Lo sblocchi con 4417.",
    "Ontgrendel de iPad met 5836.", "Das Handy wird mit 2719 entsperrt.",
    "Το κλειδοκούτι στο διαμέρισμα ανοίγει με 1-9-8-7.",  # a key box in Greek, then "opens with"
    "De vriezerruimte: code 1968, daarna het slot naar rechts draaien.",  # "code" as a label, a lock's line
    "code 1987 – dan het slot openen",
    "Mummon puhelimen avauskoodi on 1947 – hänen syntymävuotensa.",  # Finnish's code in a compound, "on"
    "Wi-Fi de l'appartement : réseau « Villa_Ocean », clé vaguesdu64.",  # guillemets with their spaces
    # a gift card's code called a discount's still is one
    "Konto bei Otto, Gutschein über 50 €, Rabattcode: gs7k2q9xp4m",
    "Compte Fnac : carte cadeau de 200 €, code promo : fnac8h2k9qzl",
])
def test_the_round_on_tune28_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    # a discount's, for anyone
    "Black Friday discount code is WOOLFRIDAY20 — 20% off, valid 28 Nov to 1 Dec. It's public, it goes in the newsletter.",
    "Code promo : PRINTEMPS15, valable jusqu'au 30 avril.",
    "Türcode 2024 geändert, neuer Code kommt per Brief.",  # a year, when it changed
    # what its review found the first forms refused (review43)
    "Die Kühlschranktür schließt nicht mehr richtig, Modell KG 3645 von Bosch.",
    "Ankara Kültür Merkezi'nde 2450 kişilik salon yenilendi.",
    "La bici eléctrica se desbloquea con la app; tarifa de 0,25 euros por minuto, recorrido de 1200 metros.",
    "Para desbloquear el móvil de papá hay que llamar al 1004, atención al cliente.",
    "Das Konto entsperrt man mit dem Brief der Bank, Vorgangsnummer 7731.",
    "Άλλαξα την κλειδαριά στην εξώπορτα, κόστισε 1250 ευρώ με την τοποθέτηση.",
    "Deadbolt lock on the back door installed to meet building code 2021.",
    "Cadenas de vélo livré à Anvers, code 2000.",
    "Grandpa's pension PIN letter arrived. The registry still lists 1931, his birth year, correctly.",
    "Wifi : réseau « Maison », mot de passe réinitialisé par le technicien Orange.",
    "WLAN: Netzwerk « Praxis_Gast », Passwort Empfangstresen fragen.",
    "Booking code 2024, slot 3 on Friday.",  # a time slot
])
def test_the_round_on_tune28_passes_these(text):
    assert privacy.sensitive_reason(text) is None


def test_the_review_of_the_tune28_round_is_held_to_what_the_forms_kept_give():
    """review43: of its 168 ordinary texts the gate refuses 10 of the 11 it refused before the round (14 then,
    60 with the round's first forms; the round on tune39 passes a Master Lock's model, 053), and of its 115
    secrets it misses these 36 (70 before the round; 37 before the round on tune31, which reads a Greek key
    box's code after a colon)."""
    leaks, benign = _corpus("review43", "leaks"), _corpus("review43", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r43-benign-020", "r43-benign-021", "r43-benign-045", "r43-benign-077", "r43-benign-102",
        "r43-benign-131", "r43-benign-139", "r43-benign-147", "r43-benign-148", "r43-benign-149"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r43-leak-001", "r43-leak-003", "r43-leak-006", "r43-leak-007", "r43-leak-008", "r43-leak-011", "r43-leak-012",
        "r43-leak-036", "r43-leak-041", "r43-leak-042", "r43-leak-045", "r43-leak-047", "r43-leak-049",
        "r43-leak-050", "r43-leak-051", "r43-leak-052", "r43-leak-054", "r43-leak-056", "r43-leak-057", "r43-leak-058",
        "r43-leak-059", "r43-leak-063", "r43-leak-072", "r43-leak-074", "r43-leak-075", "r43-leak-076", "r43-leak-077",
        "r43-leak-078", "r43-leak-080", "r43-leak-081", "r43-leak-082", "r43-leak-084", "r43-leak-089", "r43-leak-090",
        "r43-leak-091", "r43-leak-103"]


def test_the_review_of_the_mends_taken_back_is_held_to_the_gate_without_them():
    """review44: of its 82 ordinary texts the gate refuses these 7 (the mends it aimed at refused 58),
    and of its 40 secrets it catches these 6 (r44-leak-024 since a code's sentence may end with its full stop,
    r44-leak-006 since the round on tune31: a Greek key box's code after a colon)."""
    leaks, benign = _corpus("review44", "leaks"), _corpus("review44", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r44-benign-007", "r44-benign-033", "r44-benign-039", "r44-benign-043", "r44-benign-044", "r44-benign-045",
        "r44-benign-065"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is not None] == [
        "r44-leak-001", "r44-leak-005", "r44-leak-006", "r44-leak-010", "r44-leak-014", "r44-leak-024"]


# The fifth Hermes trial, tuned on: what its mends refuse, and the ordinary texts beside them they keep.
@pytest.mark.parametrize("text", [
    "كلمة المرور: 40719263", "باسورد: 40719263", "گذرواژه: 40719263", "پسورد: 1234 نذار",  # a password's word in Arabic script
    "kufuli ya mlango code ni 2580#",  # Swahili's "is"
    "porta da frente, código 6081", "storage room, code 6081",
    "a minha conta à ordem na CGD é a nº 0351 123456 789", "계좌번호 110-123-456789",
    "https://calendar.google.com/calendar/ical/abc%40gmail.com/private-0123456789abcdef0123456789abcdef/basic.ics",
])
def test_what_the_fifth_trial_found_is_refused_in_other_words_too(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "كلمة السر: الجديدة", "پسورد: عوضش کردم", "نسيت الباسورد بتاع الفيسبوك 3 مرات", "الباسورد لازم يكون 8 حروف",
    "رقم سري جديد وصلني في رسالة", "la porta 8080 è chiusa", "storage room 2 is full, 1500 boxes",
    "Ônibus 175 passa a cada 15 minutos na porta do prédio.", "a minha conta de luz veio 0351 123456 789",
    "minha conta do Netflix custa 55 reais",
    "https://calendar.google.com/calendar/ical/en.usa%23holiday%40group.v.calendar.google.com/public/basic.ics",
    "export the .ics file from Airbnb every week",
])
def test_what_the_fifth_trials_mends_leave_alone(text):
    assert privacy.sensitive_reason(text) is None, text


def _with_check_digits(country: str, bban: str) -> str:
    number = int("".join(str(int(char, 36)) for char in bban + country + "00"))
    return f"{country}{98 - number % 97:02d}{bban}"


@pytest.mark.parametrize("country, bban", [("IR", "017" + "0" * 7 + "365006641132"), ("MA", "0110" + "5" * 20),
                                           ("DZ", "0040" + "1" * 18), ("CM", "10003" + "0" * 18)])
def test_an_iban_of_a_country_outside_the_registry_is_refused_when_its_check_holds(country, bban):
    iban = _with_check_digits(country, bban)  # (not in stdnum's copy of the registry: Iran's "Sheba" and others)
    assert privacy.sensitive_reason(f"the rent goes to {iban}") is not None, iban
    wrong = iban[:2] + f"{(int(iban[2:4]) + 1) % 100:02d}" + iban[4:]
    assert privacy.sensitive_reason(f"the rent goes to {wrong}") is None, wrong


# -- the round on tune29 (a thirty-first writer: a truck driver's, a paralegal's, a property manager's,
# a home-care nurse's and a touring musician's agents, ten languages new to the corpora; heldout28 held
# out). Every leak is caught and no ordinary text is refused.

def test_the_round_on_tune29_catches_every_leak_and_refuses_no_ordinary_text():
    leaks, benign = _corpus("tune29", "leaks"), _corpus("tune29", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == []
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    "Key box by the back gate, code 1987. Ring twice.",  # a year after "code" and a comma, on a key box's line
    "Lango hufunguliwa kwa namba 4 1 0 9.", "Geti hufunguliwa kwa 5521 usiku.",  # Swahili's "is opened with"
    "Cod didoli 40-11-22, rhif cyfrif 31926500.",  # a sort code and an account, in Welsh
    "Välisukse uksekood on 8142.", "Il-kodiċi tal-bieb huwa 6620.",  # a door's code in Estonian and Maltese
    "Lykill fyrir auðkenningu: JBSWY3DPEHPK3PXP",  # a TOTP seed named in Icelandic
])
def test_the_round_on_tune29_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Cadenas de vélo livré à Anvers, code 2000.",  # a lock bought: after a comma, "code" and a year count on a key box's line only
    "Key box ordered from the hardware shop, model 2019.", "Lango hufunguliwa saa 1200 kila siku.",
    "Cod didoli yw'r enw am sort code yn Gymraeg.", "Uksekood muutus eile, uus on kirjas seifis.",
    "Il-kodiċi tal-kors huwa BIO-101.", "Lykilorðið var endurstillt í gær.",
])
def test_the_round_on_tune29_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_tenth_sessions_mends_is_held_to_what_the_narrowed_forms_give():
    """review45: the mends as first written refused 75 of its 139 ordinary texts (10 before them);
    narrowed, the gate refuses these 10 (all refused before them), and of its 83 secrets misses these
    26 (57 before them); 22 since the eleventh session's mends (a Korean account after its bank's name,
    a Swahili gate's and door's code, a Persian Wi-Fi's password in the script's digits); 21 since the sixteenth's
    account at a bank (043, "Minha conta Nubank nº …"). review46, written against the narrowed forms, is not in the repository: its
    ordinary texts are refused as before the session (13 of 131)."""
    leaks, benign = _corpus("review45", "leaks"), _corpus("review45", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r45-benign-022", "r45-benign-026", "r45-benign-099", "r45-benign-101", "r45-benign-102", "r45-benign-122",
        "r45-benign-123", "r45-benign-124", "r45-benign-126", "r45-benign-128"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r45-leak-007", "r45-leak-016", "r45-leak-025", "r45-leak-027", "r45-leak-030",
        "r45-leak-032", "r45-leak-033", "r45-leak-035", "r45-leak-040", "r45-leak-054",
        "r45-leak-056", "r45-leak-059", "r45-leak-060", "r45-leak-063", "r45-leak-066", "r45-leak-070", "r45-leak-075",
        "r45-leak-077", "r45-leak-079", "r45-leak-082", "r45-leak-083"]


# What review45 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "آخر تغيير لكلمة المرور: 2024/05/12 حسب رسالة البنك.", "الباسورد: 12-16 حرف، هذه قاعدة الشركة الجديدة.",
    "أمي في المستشفى، رقم السرير 1147 في الطابق الثالث.", "Kodi ya garage kwa mwezi ni 2000.",
    "Kufuli mpya ya baiskeli, bei yake ni 4500.", "Nilinunua funguo kwa 3500 shilingi sokoni.",
    "A porta da frente custou 1250 reais na loja de construção.", "Meu contato na empresa: 11 98765-4321, falar com a Renata.",
    "Minha conta no iFood, pedido 123456789, chegou frio.", "계좌 이체 주문번호 2024051812345 확인 완료.",
    "口座引き落としのお客様番号 0012345678 は電気料金のもの。",
    "League fixtures feed: https://ics.fixtur.es/v2/arsenal.ics?t=premier_league_2024_25",
    "Il-kodiċi postali huwa VLT 1117.", "Cod didoli'r swyddfa: 40-11-62, cyfeirnod anfoneb 20240518.",
    "Amazon order: Master Lock 5401D key safe, code 2023, arriving Tuesday.",
    "I voti di Giulia sono arrivati, la sua mail è giuliarossiinformatica23@gmail.com",
    "Suivi du colis Maroc (Amana): MA29202405180000123456789012, livraison jeudi.",
])
def test_what_the_review_of_the_tenth_session_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_second_review_of_the_tenth_sessions_mends_is_held_to_what_the_forms_kept_give():
    """review46: the forms narrowed after review45 refused 66 of its 131 ordinary texts (13 before the
    session); narrowed again, the gate refuses the same 13, and of its 65 secrets misses these 15 (43
    before the session); 13 since review47's mends (a Brazilian branch and "cc", an account's abbreviation)."""
    leaks, benign = _corpus("review46", "leaks"), _corpus("review46", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r46-benign-012", "r46-benign-013", "r46-benign-025", "r46-benign-035", "r46-benign-042", "r46-benign-046",
        "r46-benign-072", "r46-benign-078", "r46-benign-080", "r46-benign-089", "r46-benign-104", "r46-benign-125",
        "r46-benign-126"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r46-leak-015", "r46-leak-018", "r46-leak-021", "r46-leak-026", "r46-leak-027", "r46-leak-029", "r46-leak-040",
        "r46-leak-058", "r46-leak-060", "r46-leak-061", "r46-leak-062", "r46-leak-063", "r46-leak-065"]


def test_the_break_of_the_tenth_sessions_gate_is_mended_in_general_forms():
    """review47: 16 of its 56 secrets were published by the tenth session's gate, none of its 41
    ordinary memories refused; now one is (a code with no lock named, as in English), and none."""
    leaks, benign = _corpus("review47", "leaks"), _corpus("review47", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == ["r47-leak-049"]


@pytest.mark.parametrize("text", [
    # a Swahili code with what it opens, before or after it ("kwa", for), a box that opens with a number
    "Msimbo wa kabati ni 5521.", "Code ni 7730, ya geti la nyuma.", "Code ya stoo ni 1408 usiku.",
    "Sanduku la barua hufunguliwa kwa 4 4 0 9.",
    # a login's code, a gate's and a key box's in Arabic, in the script's own digits
    "رمز الدخول لحاسوب المكتب ٩٠٣٢٧٤", "رمز البوابة ٥٥١٨", "صندوق المفاتيح عند الجار، الرمز ٢٧٠٤",
    # a Persian password of digits with "is" and no colon
    "گذرواژه مودم ۸۸۱۲۴۰۶۷ هست", "پسورد لپ‌تاپ 55230917 است",
    # Brazilian accounts with "cc" and Caixa's operation; a Korean one after its bank's name
    "Itaú ag 4401 cc 22871-3 da empresa", "Caixa ag 1620 op 001 conta 30419-2",
    "우리은행 1002-871-204455 로 보내줘",
    # an Outlook calendar's published link, its token in the path; a Moroccan IBAN labelled in Arabic
    "https://outlook.live.com/owa/calendar/00000000-0000-0000-0000-000000000000@outlook.com/"
    "3f9a0c7e1b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a/calendar.ics",
    "ايبان الحساب MA64011519000001205000534921",
])
def test_the_break_of_the_tenth_sessions_gate_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Code ni 4718.",  # no lock named: as "Code is 4718." is no lock's in English either
    "Posta ya Kijitonyama, code ni 14112 kwa barua za kufuli la sanduku.",  # a post office's postcode
    "Kodi ya geti ni 2000 kwa mwezi.", "Sanduku la barua limevunjika, fundi anakuja saa 1400.",
    "رمز الدخول للموقع يتغير كل ٩٠ يوم", "صندوق المفاتيح اشتريته بسعر ٢٥٠ درهم",
    "پسورد وای‌فای ۸ رقم است", "پسورد جدید از ۱۴۰۳ فعال است",
    "Assunto: ag 15/03 às 10h, cc para a Ana.", "신한은행 02-1234-5678 로 전화해 보세요",
    "국민은행 고객센터 1588-9999",
    "Outlook help: https://outlook.office.com/owa/calendar/help/subscribe.html",
    "Asked what آيبان means: the Arabic for IBAN, MA and 26 digits.",
])
def test_the_break_of_the_tenth_sessions_gate_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text



# -- the round on tune30 (a thirty-second writer: a restaurant owner's, a primary school teacher's, a
# wedding photographer's, an NGO's volunteer sysadmin's and a family caregiver's agents); heldout29 held
# out. 87 of 100 caught before the session, 88 after review47's mends, 97 after the round.

def test_the_round_on_tune30_misses_three_leaks_and_refuses_no_ordinary_text():
    """Left: a bank's "security number" read out in pairs of digits ("… security number" is a card's
    code and a Social Security number too), a key box's code told as a year ("Boîte à clés chez papa :
    2019, l'année de sa retraite": a year after a key box's colon is when it was installed, in other
    notes), a password of digits after seven words of what it is for."""
    leaks, benign = _corpus("tune30", "leaks"), _corpus("tune30", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "p32-leak-0036", "p32-leak-0051", "p32-leak-0058"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    # a door's, a gate's, a freezer's, a safe's code in Latvian, Welsh, Albanian, Irish and Tagalog
    "Vārtu kods ir 4471.", "Cod y giât yw 9023.", "Kodi i kasafortës është 5510.", "Cód an gheata: 7732.",
    "Passcode sa gate ng bodega 6618",
    # a door opened "with the code" (even a number like a time), an alarm switched off "with" the number
    "Dera hapet me kodin 1745.", "Larmet slås av med 7391 innan klockan sju.",
    # a password called "the word", a Wi-Fi named in quotes and then its key
    "The shared folder is protected with the word sunflower2020.", 'Guest WiFi "Casa-Lu" - the key is lemon-tree-terrace.',
])
def test_the_round_on_tune30_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Kods ir jāievada divreiz.", "Pasta kods LV-1010.", "Cod y drws newydd yn costio £120.", "Kodi i ri është gati.",
    "Cód poist: D02 X285.", "Code ng pinto: binago kahapon.", "Dyqani hapet me 1 qershor.",
    "Larmet slås av automatiskt kl 0700.", "The letter was locked with the word count at 2000.",
    'Wi-Fi "Casa-Lu" is slow; the key is on the router sticker.',
])
def test_the_round_on_tune30_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_eleventh_sessions_mends_is_held_to_what_the_narrowed_forms_give():
    """review48: the mends as first written refused 44 of its 128 ordinary texts (7 before them);
    narrowed, the gate refuses these 7 (all refused before them), and of its 55 secrets misses these
    3 (35 before them): a key box opened "with" a number in Albanian, with no word for its code, a
    gate's code told as a year and not at its clause's end (narrowed after review49: a year there is
    when a code was changed, as often), and a Brazilian account whose check digit is a word apart."""
    leaks, benign = _corpus("review48", "leaks"), _corpus("review48", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r48-benign-004", "r48-benign-011", "r48-benign-012", "r48-benign-018", "r48-benign-038", "r48-benign-070",
        "r48-benign-071"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r48-leak-008", "r48-leak-024", "r48-leak-051"]


# What review48 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Vägen vid Slussen stängs av med 2500 meter omledning under helgen.",
    "Llogaria bankare hapet me 5000 lekë depozitë minimale në Raiffeisen.",
    "Sanduku la akiba la kikundi lilifunguliwa kwa 50000/- za michango ya mwezi.",
    "Sanduku la michango lilifunguliwa kwa 25 000 za wanachama, tukahesabu pesa.",
    "Code ya geti huwekwa na kampuni ya ulinzi, ofisi yao iko chumba namba 204, simu 0754 112 233.",
    "Code ni 255 kwa simu za Tanzania, mlango wa nyuma wa ofisi hufungwa saa 12 jioni.",
    "Noliktavas kods 4410 jānorāda katrā pavadzīmē, citādi krava netiek pieņemta.",
    "Cod y giât: gofynnwch i Gareth, mae o yn ystafell 204 tan 1700.",
    "Kodi i portës 8080 duhet hapur në firewall për serverin e zyrës.",
    "Cód an gheata páirceála le fáil ón bhfáiltiú, seomra 1204.",
    "Code sa gate ay nasa guard house, Building 3, Unit 1204.",
    "رمز الدخول للمؤتمر في القاعة ١٢٠٥ بالطابق الثاني عشر.", "رمز الباب تغيّر، اسأل الحارس في العمارة رقم ١٥، شقة ٢٠٤.",
    "رمز البوابة يتغير كل شهر، آخر تحديث كان في ١٤٤٥ هـ.",
    "پسورد وای‌فای پیش صاحبخونه‌ست، شماره‌ش ۰۹۱۲۴۵۶۷۸۹۰ است.", "پسورد اینستا عوض شد، فالوورها ۱۲۰۰۰ است.",
    "국민은행 2024-07-01부터 ATM 수수료가 인상된다고 함.", "농협은행 123-81-45678 사업자등록번호로 법인 계좌 개설 상담.",
    "Calendar link for the school term dates: https://outlook.office365.com/owa/calendar/StMarysPrimary@stmarys.org.uk/calendar.html",
])
def test_what_the_review_of_the_eleventh_session_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_second_review_of_the_eleventh_sessions_mends_is_held_to_what_the_forms_kept_give():
    """review49: the forms narrowed after review48 refused 59 of its 120 ordinary texts (9 before the
    session); narrowed again, the gate refuses these 8 (all refused before the session; 7 since the
    round on tune31, which reads "the quote was 1450" as a price), and of its 54 secrets misses these 5
    (42 before the session)."""
    leaks, benign = _corpus("review49", "leaks"), _corpus("review49", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r49-benign-030", "r49-benign-056", "r49-benign-085", "r49-benign-087", "r49-benign-093",
        "r49-benign-094", "r49-benign-116"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r49-leak-010", "r49-leak-017", "r49-leak-024", "r49-leak-027", "r49-leak-033"]


# What review49 found the narrowed forms refused, which the forms kept pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Sanduku la michango ya harusi lilifunguliwa kwa 85000 tu, wengine bado hawajatoa.",
    "Code ya sanduku la posta ni 00100, Nairobi GPO, nimeipata kwenye tovuti ya Posta.",
    "Code ya geti: 0712 345 678 ni namba ya mlinzi Juma, mpigie ukifika.",
    "Code ya mlango wa mbele ni 2019 ilipowekwa, sasa fundi ameibadilisha na hatujaambiwa bado.",
    "Faqja e regjistrimit hapet me kodin 2025 të konkursit, jo më parë.",
    "Kodi i portës së serverit është 8080, mos e ndrysho në firewall.",
    "Noliktavas kods ir 40721 un to norāda pavadzīmē katram sūtījumam.",
    "Saldētavas kods ir 92542 Electrolux katalogā, garantija līdz 2026.",
    "Cod y giât: 2019 oedd y tro olaf i'r cyngor ei newid, medd Gareth.",
    "Vägen vid larmcentralen stängs av med 2500 meter omledning under sommaren.",
    "كود البوابة تغيّر منذ ١٤٤٥ ولا أحد يعرف من غيّره.", "كود الباب موجود في رسالة المالك، الإيجار ٣٥٠٠ دينار شهريا.",
    "صندوق المفاتيح وصل اليوم، رمز التتبع ٤٥٨٢٣٧ من أرامكس.", "رمز الدخول في تذكرة رقم ٤٥٦٧٨٩ للحفل، البوابة ٣.",
    "کد قفل کمد باشگاه یادم رفت، پذیرش گفت هزینه باز کردنش ۲۰۰۰۰۰ تومن است.",
    "رقم الطلب من نون ٤٥٥٨١٢٩٠٣٧٤٦١٢١٢ وصل أمس.",  # an order's number whose Luhn check holds, in Arabic digits
    "The stem bolts are locked with Loctite-243, don't overtighten them to 5Nm+.",
    'Library Wi-Fi "BCPL-Public" — the password is case-sensitive, ask at the desk.',
    "Ring Puk på 41234567 om hesten skal ha ny sko.", "ramz dar 1403 avaz shod, modir sakhtemoon goft.",
    "신한은행 82-10-1234-5678 번호로 알림 받기로 했음.", "Reclamação na agência 0435 encaminhada, cc 2024-3 do processo interno.",
    "Numer naszego konta klienta w PGE: 3012456789, faktury co dwa miesiące.",
])
def test_what_the_second_review_of_the_eleventh_session_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_new_users_break_of_the_eleventh_sessions_gate_is_mended_in_general_forms():
    """review50: through the Hermes provider, 6 of the 47 secrets a new user stored were published
    (one more was the writer's own error, an Iranian IBAN two characters long, left out), and 13 of
    the 65 secrets with the probes sent from a file; none of the 46 ordinary texts was refused. Left:
    a Finglish code with "-e" (is) joined to its number, and an Irish code told before its name."""
    leaks, benign = _corpus("review50", "leaks"), _corpus("review50", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r50-leak-029", "r50-leak-050"]


@pytest.mark.parametrize("text", [
    "رمز لپ تاپ ۴۸۲۰۱۷۵۵ است", "رمز مودم: ۹۹۰۱۲۸۸۳",  # a laptop's and a modem's password in Persian digits
    "کد صندوق کلید ۲۶۰۸",  # a key box's code, in Persian
    "Alarmen slås av med 0815.",  # an alarm switched off with a number like a time, where its clause ends
    "Cód an dorais: is é 7302 é.",  # Irish "it is" after the colon
])
def test_a_new_users_break_of_the_eleventh_sessions_gate_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "رمز وای فای رو عوض کردم، ۸ رقمیه.", "رمز گوشی رو فراموش کردم، ساعت ۱۸۳۰ می‌رم نمایندگی.",
    "صندوق کلید رو از دیجی‌کالا خریدم، ۲۵۰ هزار تومان.",
    "Brandlarmet stängs av med 1500 kronor i avgift om det är falsklarm.",
])
def test_a_new_users_break_of_the_eleventh_sessions_gate_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text



# -- the round on tune31 (a thirty-third writer: a dental practice's front desk, a freelance translator,
# a gym's owner, an agritourism farm's host, a university lab's manager, in 21 languages and scripts);
# heldout30 held out. 84 of 100 caught before the round (1 ordinary text refused), 98 with its first
# forms, 94 as review51 left them.

def test_the_round_on_tune31_misses_three_leaks_and_refuses_no_ordinary_text():
    """Left: a till's manager code told as keys to press ("press 9, then 8826"), a Finglish Wi-Fi's
    password after "ramzesh" (its password); and, given back after review51 (plurals of a lock's name
    on a line make any number a code): two key safes' codes after their names in quotes. (The Digilock
    lockers' master code, given back then, is caught since the seventh trial's mends: a master code's
    name; a padlock's code after a locker's number and a Greek back door's code, each told a digit at a
    time and then a comma, since the thirteenth session's round on tune34.)"""
    leaks, benign = _corpus("tune31", "leaks"), _corpus("tune31", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "p33-leak-0030", "p33-leak-0033", "p33-leak-0198"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    "Tell the courier the back gate is 5518.",  # a house's back or side gate, told with "is"
    "Ingenico terminal manager PIN 6620 for refunds.",  # a card terminal's PIN (not an airport's terminal)
    "code el bawaba 7 3 0 9",  # a gate's code in Egyptian Arabic in Latin letters, where its clause ends
    "Κλειδοκούτι στην αυλή: 6 6 0 3.",  # a key box in Greek, its code after a colon where the sentence ends
    "CCCD của anh Minh cho hồ sơ visa: 001088012345",  # a Vietnamese citizen card's number
    "NIK Pak Budi untuk BPJS: 3201011505880007",  # an Indonesian NIK (its holder's day of birth in it)
    "کد ملی خانم دکتر: ۰۷۰۴۹۳۳۲۷۶",  # Iran's national code (its check digit holds), in Persian digits
    "Shared NAS: lab.admin@uni-example.org + Pipette2024!",  # an address, "+", a password
    "Marco's passport number for the conference registration form: X4RT7K29P",  # a clause after its name
    "ramz e dar e anbar e mazrae 5 1 9 2",  # a Finglish code, "e" between, its digits apart
])
def test_the_round_on_tune31_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "The quote was 1850 for lockers in the new changing room",  # a price
    "Tracking number for the new key safes: 1Z 999 AA1 01 2345 6784 (UPS), arriving Thursday.",
    "Κλειδοθήκη Master 5401, από το Πρακτικέρ.",  # a key box's model
    "Terminal 2 gate B22, flight at 1430.", "The back gate was repainted in 2019.",
    "In the API docs the example token is 'abc123', used only against the sandbox.",
    "Att göra: förnya körkortet, byta lösenord på banken, hämta paket 1ZU1VPMO9406296309 före 07.09.2023.",
    "CCCD mới làm xong, hẹn lấy ngày 12/05.",
])
def test_the_round_on_tune31_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_round_on_tune31_is_held_to_what_the_narrowed_forms_give():
    """review51: the round's first forms refused 41 of its 140 ordinary texts (7 before them); narrowed,
    the gate refuses these 4 (all refused before them), and of its 51 secrets misses these 13 (24 before
    them)."""
    leaks, benign = _corpus("review51", "leaks"), _corpus("review51", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r51-benign-052", "r51-benign-064", "r51-benign-086", "r51-benign-098"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r51-leak-005", "r51-leak-006", "r51-leak-010", "r51-leak-011", "r51-leak-017", "r51-leak-021", "r51-leak-022",
        "r51-leak-026", "r51-leak-027", "r51-leak-033", "r51-leak-037", "r51-leak-042", "r51-leak-043"]


# What review51 found the round's first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Got 6 padlocks for the lockers at the club, 1499 each", "The side gate is next to house 2245",
    "Garden gate hinge replaced, the handyman charged 4500", "Locker 22 at the gym, bought a padlock for 1299",
    "Κλειδοθήκη για τον διάδρομο — παραγγελία Skroutz: 482913", "Κωδικός της συρόμενης πόρτας στο ΙΚΕΑ: 40321567",
    "mafeesh code el bab, el sha2a raqam 1204 fel dor el 12", "NIK sudah didaftarkan, nomor HP 0812 3456 7890",
    "Larmet slås av med 1000 kronors böter", "تعمیرکار برای باز کردن رمز گوشی ۳۵۰۰۰۰ تومن گرفت",
    "صندوق کلید آپارتمان رو از دیجی کالا سفارش دادم کد سفارش ۸۷۲۳۱۴۵",
    "code el makhzan 4417 da raqam el far3 fel system bta3 el sherka", "Κλειδοθήκη: 2019",
    "Remember the passports; the Ryanair booking for Malaga is under reference QX77311",
    "Bring CCCD when picking up the parcel, tracking 8392 7741 0223",
    "Hyresvärden: inbrottslarmet slås av med 0800 varje morgon av vaktmästaren", "Estimate for the lockers: 1850",
    "Kontakt till mäklaren: anna.lind@fastighet.se + 0701234567", "Two accounts on the family plan: ola.n@gmail.com + ola2@gmail.com",
    "Key boxes for the Airbnb flats: bought 3 at Biltema, 349 kr each, receipt 228813",
])
def test_what_the_review_of_the_round_on_tune31_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text



def test_the_review_of_the_seventh_trials_mends_is_held_to_what_the_narrowed_forms_give():
    """review52: the mends' first forms refused 40 of its 120 ordinary texts (6 before them); narrowed,
    the gate refuses the same 6, and of its 52 secrets misses these 3 (28 before them): an account after
    "TK" alone, after "tài khoản" without "số", and after "chuyển khoản tới" (transfer to)."""
    leaks, benign = _corpus("review52", "leaks"), _corpus("review52", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r52-benign-020", "r52-benign-092", "r52-benign-093", "r52-benign-094", "r52-benign-104", "r52-benign-115"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r52-leak-006", "r52-leak-007", "r52-leak-011"]


# What review52 found the mends' first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Nhờ anh Tuấn gửi số tài khoản qua Zalo số 0912345678 nhé.",  # a phone's number
    "Số tài khoản doanh nghiệp đăng ký cùng mã số thuế 0312345678.",  # a tax code
    "Mã két sắt khách sạn phòng 1204 bị lỗi, lễ tân đã xử lý.",  # a room
    "Mã cổng mới sẽ gửi sau, nhà số 1152 đường Láng.",  # a house's number
    "Mua remote mã cổng tự động giá 450000 đồng, model BFT 433.",  # a price and a model
    "Ghayart kelmet el ser embare7 el sa3a 11, w el ta2reer raqam 2024 gahez.",  # words written with digits
    "Pankki lähettää uuden tunnusluvun kirjeenä, tilausnumero 20415.",  # an order's number
    "Recovery codes for the error: 40213, 40214, 40215, 40216 all mean the NAS is offline.",  # error codes
    "Two-factor support tickets 48213, 48214, 48215, 48216: codes not arriving by SMS.",  # tickets
    "Şifre sıfırlama: kullanıcı Mehmet.Yilmaz_1453 için talep açıldı.",  # a user's name
    "The password column is in table Users.Accounts_2023, hashed with bcrypt.",  # a table's name
    "Câu hỏi bí mật trong trò chơi đố vui tuần này: ai là người phát minh ra điện thoại?",  # a quiz's question
])
def test_what_the_review_of_the_seventh_trials_mends_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune32 (a thirty-fourth writer: a wedding planner, a long-distance truck driver, a
# veterinary clinic, a secondary-school teacher, a touring musician, in 22 languages); heldout31 held
# out. 89 of 100 caught before the round (1 ordinary text refused), as review53 left its forms 98.

def test_the_round_on_tune32_misses_two_leaks_and_refuses_the_one_ordinary_text_refused_before():
    """Left: a keypad's code with a letter first ("C-4-9-1-1"), and a keypad's code that reads as a year
    (given back after review53: "keypad" right before a year refused lists of install years); refused, as
    before the round: a truck's model beside "door" ("Volvo FH 500": review53 showed that a model in
    capitals read as a maker's lets an alarm's code through, "Office Alarm DSC 7391")."""
    leaks, benign = _corpus("tune32", "leaks"), _corpus("tune32", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "p34-leak-0028", "p34-leak-0002"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == ["p34-benign-0127"]


@pytest.mark.parametrize("text", [
    "Walk-in cooler code: 4 8 2 1, the florist changes it monthly",  # a cold room's code, after its name
    "Cold-room access 5183#",
    "سٹور کے دروازے کا کوڈ 4471 ہے",  # a door's code in Urdu, the number right after it
    "லாக்கரின் குறியீடு 7391",  # a locker's code in Tamil
    "The key safe in the back prep room: 6 2 4 8 0 1",  # a safe's code told a digit at a time after its room
    "Office Alarm DSC 7391 to disarm.",  # an alarm's code after its maker (review53: a first form lost it)
    "Code de ma CB : 7391",  # a bank card's PIN in French
    "Press 4821 on the gate pad to get in.",  # keyed on the pad of what it opens
    "Akaun CIMB saya untuk gaji: 7012345678",  # one's own bank account in Malay, its bank named
    "Akaunti yangu ya benki (KCB) kwa ada: 1234567890123",  # and in Swahili
    "የባንክ ሂሳቤ ቁጥር 1000234567891",  # a bank account's number in Amharic
])
def test_what_the_round_on_tune32_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_review_of_the_round_on_tune32_is_held_to_what_the_narrowed_forms_give():
    """review53: the round's first forms refused 93 of its 121 ordinary texts (10 before them); narrowed,
    the gate refuses these 2 (both refused before), and of its 52 secrets misses these 13 (41 before them; 19 until
    the sixteenth session read an account at a bank named before its number, whoever's it is; 14 until the
    seventeenth read Indonesian's "no. rek")."""
    leaks, benign = _corpus("review53", "leaks"), _corpus("review53", "benign")
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == [
        "r53-benign-053", "r53-benign-070"]
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "r53-leak-003", "r53-leak-004", "r53-leak-005", "r53-leak-006", "r53-leak-008", "r53-leak-023", "r53-leak-025",
        "r53-leak-028", "r53-leak-029", "r53-leak-030", "r53-leak-031", "r53-leak-038", "r53-leak-039"]


# What review53 found the round's first forms refused, which the narrowed ones pass (one of each kind), and
# what was refused before the round that is not (a number told a digit at a time after another number's name).
@pytest.mark.parametrize("text", [
    "The walk-in cooler holds 1200 litres, defrost on Mondays.", "Chambre froide : bon de livraison 48213 reçu.",
    "دروازے کا کوڈ بدلنا ہے، کمرہ نمبر 1204",  # a room's number on a door's code's line
    "பூட்டின் குறியீடு 2023 ஜனவரியில் மாற்றப்பட்டது என்று காவலர் சொன்னார்.",  # when it changed
    "The ticket number is 6 1 9 0 4, the order 5 5 8 2 1.", "Install years: boiler 2012, garage keypad 2016, roof 2019.",
    "carte de bibliothèque de Léa, code : 2025", "types 5000 into the note pad", "punches 0180 into the oven key pad",
    "Akaun saya untuk Grab: nombor telefon 012-345 6789", "Akaun TNB saya: 2200 1234 5678",
    "የባንክ ሂሳብ ቁጥር ለውጥ ማመልከቻ ቁጥር 3001234567 ተሰጠኝ።",  # an application's number
    "Voice note: the hotel room is room 4 1 2 7 on the fourth floor of the annex, door sticks.",
    "Set the home server to listen on port 8 4 4 3 so the door camera app can reach it.",
])
def test_what_the_review_of_the_round_on_tune32_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_word_that_repeats_tuer_is_tried_at_each_tuer_only():
    # "\w+tür" made the PIN line's search try a word from each of its letters: a word of 48,000
    # characters took over a minute. Read as "tür" after a word's letter, it is tried at each "tür".
    from pdsmem.mapping.privacy import plain

    starts = plain.required_starts(labelled._ON_A_PIN_LINE._pattern)
    line = "tür" * 1_000
    places = plain._places(line, plain.Needles(starts).ends, {start for start, word in starts.items() if word})
    assert places == list(range(0, len(line), 3))
    assert labelled._ON_A_PIN_LINE("Die Hintertür geht mit dem Code 9318 auf") and not labelled._ON_A_PIN_LINE("Kültür")


def test_a_new_users_break_of_the_twelfth_sessions_gate_is_mended_in_general_forms():
    """review55: through the Hermes provider, 3 of the 44 secrets a new user stored were published (a
    Finnish e-mail login told as "tunnuksella <user> ja <password>", a Swahili bank account's number, a
    Pakistani CNIC); none of the 42 ordinary texts was refused."""
    assert _wrong("review55") == ([], [])


@pytest.mark.parametrize("text", [
    "Kirjaudutaan tunnuksella matti.virtanen ja Kuikka#Lampi93.",  # a login told with no e-mail named
    "Namba ya akaunti yangu ni 3997001118697.", "Namba ya akaunti ya benki: 1234567890123",
    "CNIC: 3527433506901", "My CNIC number is 35274-3350690-1.",
    "میرا شناختی کارڈ نمبر ۳۵۲۷۴-۳۳۵۰۶۹۰-۱ ہے۔",  # in Urdu's own digits
])
def test_a_new_users_break_of_the_twelfth_sessions_gate_refuses_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Lipa kwa M-Pesa Paybill 247247, namba ya akaunti 0712345678.",  # a bill's account, paid by phone
    "Namba ya akaunti ya Paybill ni 1234567890.",
    "CNIC renewal fee is 1500 rupees, token 35274.", "شناختی کارڈ کی تجدید کی فیس 1500 روپے ہے۔",
    "CNIC copy sent, tracking number 3527433506901",  # a parcel's number a few words after the card
    "Kirjautuminen onnistui versiolla 2.4.1.", "Sähköposti: matti.virtanen@example.fi, Teams-kanava Myynti#2.",
])
def test_a_new_users_break_of_the_twelfth_sessions_gate_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune33 (a thirty-fifth writer: a landlord, a hospital nurse, a bakery's owner, a PhD
# student, a farmer, in 22 languages and scripts); heldout32 held out. 96 of 100 caught before the round,
# no ordinary text refused.

def test_the_round_on_tune33_catches_every_leak_and_refuses_no_ordinary_text():
    assert _wrong("tune33") == ([], [])


@pytest.mark.parametrize("text", [
    "La boîte à clés s’ouvre avec cinq, neuf, zéro, deux.",  # digit names after what opens with them
    "Key box: first 36, then 90.", "Der Schlüsselkasten an der Tür: erst 36, dann 90.",  # a code in ordered parts
    "The lockbox takes first 36 then 90 then 12.",
    "Code du garage : d'abord 48 puis 15.",
    "Ran wandb login --relogin 0764bbb9d36b8bdfbe4cea6a7a86f412bb1718e2",  # a Weights & Biases key given to its login
])
def test_what_the_round_on_tune33_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "The show opens with one, two, three, four.",  # a count
    "The lockbox has room for four, five or six keys.",
    "Door prize: first 50, then 100 minutes later.", "At the gate, first 10 cars then 20 more.",  # not a code's parts
    "wandb login worked after the upgrade, commit 0764bbb9d36b8bdfbe4cea6a7a86f412bb1718e2",  # a commit's id
])
def test_what_the_round_on_tune33_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_thirteenth_sessions_first_mends_is_held_to_what_the_narrowed_forms_give():
    """review56: the first forms refused 50 of its 125 ordinary texts (9 before them) and caught 28 of its 50
    secrets (16 before); narrowed, the gate refuses these 10 (the first, a key box's line that lists rooms in
    words, is the one more than before) and misses these 10 (010 too until the sixteenth session read an account at a
    bank named before its number)."""
    refused, missed = _wrong("review56")
    assert refused == _ids("r56-benign", 73, 82, 85, 88, 89, 90, 100, 103, 107, 116)
    assert missed == _ids("r56-leak", 11, 16, 25, 27, 29, 32, 37, 39, 43, 44)


# What review56 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Prednisone taper from the doctor: first 40, then 30, then 20.",  # "tor" inside a word
    "Buses to the school gate: first 36, then 90.",  # a gate alone names no code
    "Alarms on my phone: first 0615, then 0630, then 0645.",
    "הנקודות של הקבוצה: קודם 36, ואחר כך 90.",  # Hebrew's "first" holds "קוד", code
    "Le spectacle s'ouvre avec le public qui compte à rebours : cinq, quatre, trois, deux, un.",  # a countdown
    "দোকান খোলে সকালে, লাইনের টোকেন ছিল আট-চার-দুই-ছয়, তারপর নাম ডাকল।",  # a shop opens; a queue's token
    "Namba ya akaunti yangu ya DStv ni 7023456789, kifurushi kinaisha tarehe 30.",  # one's own with a utility
    "Kwa kulipa karo ya chuo tumia Paybill 522522, namba ya akaunti ya KCB ni namba ya usajili 2022101234.",
    "Uploaded cnic_front_1712345678901.jpg to the Daraz seller form.",  # a file's name
    "CNIC format on the form is 12345-1234567-1 (dashes included), our HR sheet checks it.",  # the form's example
    "شناختی کارڈ ٹریکنگ 1234567890123 — ڈاک سے آئے گا، امی کو بتا دیا۔",  # a parcel's tracking number
    "wandb login\nb6589fc6ab0dc82cf12099d1c2d40ab994e8410c — that's the dataset's sha1 we logged",  # the next line's id
    'Kirjauduttuani sain viestin: "Tervetuloa, Tiina-Maria!" — uusi profiili on valmis.',  # a name after a greeting
])
def test_what_the_review_of_the_thirteenth_sessions_first_mends_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Akaunti yangu ya KCB: 1234567890, jina Juma Mwangi.",  # one's own, "ya" before its bank
    "Nambari ya akaunti yangu ya benki ni 0123456789012, Equity Bank tawi la Nakuru.",
    "CNIC 35202 1234567 1 hai mera, form mein likh dena.", "CNIC no: 35202–1234567–1",  # spaced, en dashes
    "Ammi ka ID card number 42101-1234567-2 hai, bank walon ko dena.", "NIC 4210112345672 for the passport form.",
    "תיבת המפתחות: שבע, שלוש, אפס, תשע",  # "the keys' box", with Hebrew's article
    "صندوق المفاتيح عند الباب: أولاً 36، ثم 90.",  # Arabic's comma between the parts
    "Gate keypad: first 36 then 90 then the hash key",  # another "then" after the parts
    "wandb login --relogin --host=https://wandb.company.internal 3f9a7c2e1b8d4f6a0e5c9b7d2a1f8e3c6b4d0a97",
])
def test_what_the_review_of_the_thirteenth_sessions_first_mends_found_missed_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the round on tune34 (a thirty-sixth writer, weighted to prose passwords: an electrician, a hotel's night
# receptionist, a home-schooling parent, a yoga studio's owner, a beekeeper, in 24 language tags); heldout33
# held out. 92 of 100 caught before the round, no ordinary text refused.

def test_the_round_on_tune34_misses_two_leaks_and_refuses_no_ordinary_text():
    """Left: a Finglish combination that reads as a date ("29-11-05"), and a shared login's password after
    "with" beside a user's name."""
    leaks, benign = _corpus("tune34", "leaks"), _corpus("tune34", "benign")
    assert [item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None] == [
        "p36-leak-0104", "p36-leak-0039"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    "Mã két sắt: 7 1 4 0 2, chỉ ca đêm mới được dùng.",  # digits apart, then a comma and a word
    "The wifi password is purple monkey dishwasher, all one word.",  # words said to be written together
    "Das WLAN-Passwort ist Schwarzwald Kirsch Torte, zusammengeschrieben.",
    "wallet recovery, kif pool: border hard equal abstract guitar pledge denial magnet kiwi rabbit balance actor",
    "टैबलेट का पिन चार-चार-एक-आठ है।",  # digit names after "PIN" in Hindi
    "பூட்டுப் பெட்டியின் எண்: 9-0-3-3",  # a lock box's number, in Tamil
    "The PIN for the card terminal is 40 57.", "PIN: 12 34",  # a PIN told in two pairs
])
def test_what_the_round_on_tune34_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Scores 1 2 3 4, 5 6 7 8",  # digits apart, then a comma and more digits
    "The password must be three random words, no spaces.",  # a rule for it
    "The new password policy: long words, no spaces allowed.",
    "Password is the dog name plus year, together.",
    "பூட்டு வாங்கினேன், விலை 4 5 0 ரூபாய்",  # a lock bought, its price
    "The pin is 12 34 mm long.", "PIN reset at 14 30, call back.",  # pairs that are no PIN
])
def test_what_the_round_on_tune34_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_thirteenth_sessions_rounds_is_held_to_what_the_narrowed_forms_give():
    """review57: at the code it read the gate refused 84 of its 123 ordinary texts (29 at the session's start)
    and caught 43 of its 62 secrets (26 at the start); narrowed, it refuses these 32 (006, 073 and 110 more than
    at the start) and misses these 9 (031 too until the fourteenth session's round on tune37, 053 until the
    fifteenth's read parts told a digit at a time, 047 and 048 until the sixteenth's read an account at a bank)."""
    refused, missed = _wrong("review57")
    assert refused == _ids("r57-benign", 6, 8, 11, 17, 21, 38, 39, 40, 41, 42, 43, 44, 45, 47, 48, 51, 53, 55, 60,
        61, 73, 79, 92, 96, 98, 102, 103, 106, 110, 111, 113, 117)
    assert missed == _ids("r57-leak", 5, 6, 8, 17, 38, 39, 51, 52, 62)


# What review57 found refused, which the narrowed forms pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Bank queue this morning: my ticket was 7 1 4 0 2, counter three called it after 40 minutes.",
    "Dress code days at Mia's school this month: 3, 7, 8, 4", "Safe deposit boxes still free at the branch: 2, 5, 7, 9",
    "Shopping list: apple, banana, butter, cheese, bread, sugar, salt, pepper, lemon, orange, tomato, potato, onion, "
    "garlic, honey, coffee, rice, milk",  # a list of the word list's words, with commas
    "Das Passwort ist Vorname und Geburtsjahr zusammen, hat die IT als schlecht bezeichnet.",  # how it is made
    "The new wifi password is something we decided together",
    "हमारे गाँव का पिन कोड चार पाँच दो शून्य शून्य एक है",  # India's postal code
    "எங்கள் ஊரின் அஞ்சல் குறியீடு ஆறு இரண்டு ஐந்து ஒன்று, மதுரை அருகில்",
    "Namba ya akaunti yangu ni 7012345678 kwa KPLC, nalipa kupitia M-Pesa.",  # a power company's account
    "Safe driving course speeds: first 30, then 50.", "Keys are back in the box by the door; bins go out first 07, then 19.",
    "Lähetin sähköpostilla liitteen Budjetti_2025 Mikalle.", "Sent the attachment Budget_2025 to Mika by e-mail.",
])
def test_what_the_review_of_the_thirteenth_sessions_rounds_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "PIN is 4, 7, 1, 9 for the Revolut card.",  # single digits a comma apart after a code's name and "is"
    "The Netflix password is the blue door, all together", "Password is purple monkey dishwasher with no spaces",
    "Het wachtwoord van de printer-app is drop en kaas, aan elkaar.",  # "and" inside the words
    "ATM ரகசிய எண் 4 7 1 9, யாரிடமும் சொல்லாதே",  # an ATM's secret number, then a comma and words
    "NADRA ID 42101-7654321-8 for Baba's pension",
])
def test_what_the_review_of_the_thirteenth_sessions_rounds_found_missed_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the round on tune35 (a thirty-seventh writer, weighted to prose passwords: an airline pilot, a social
# worker, a flat-share's organiser, a photographer, a grandmother kept by her grandson, in 25 European
# language tags); heldout34 held out. 77 of 100 caught before the round, 1 ordinary text refused.

def test_the_round_on_tune35_misses_twelve_leaks_and_refuses_no_ordinary_text():
    """Left: a password after "new one:" and after "protected with", a user and a password with no word
    between ("edith.pearce at btinternet, roses4Edith"), one typed "in the chat", a Wi-Fi key after a
    network's name, a password told as a word "and then" a year, a shared inbox's after "the team name and",
    a password's parts quoted apart, a code in Belgian French numbers ("septante-deux"), a flight bag's lock
    of three digits, a dial's combination in words; and, given back after review58 (prose's "; " made names
    with signs passwords), a password before "; Ellie pays". (A UK bank's "memorable word" is read since the
    fourteenth session.)"""
    leaks, benign = _corpus("tune35", "leaks"), _corpus("tune35", "benign")
    assert sorted(item["id"] for item in leaks if privacy.sensitive_reason(item["text"]) is None) == [
        "p37-leak-0022", "p37-leak-0025", "p37-leak-0026", "p37-leak-0034", "p37-leak-0038", "p37-leak-0039",
        "p37-leak-0043", "p37-leak-0047", "p37-leak-0052", "p37-leak-0060", "p37-leak-0102", "p37-leak-0150"]
    assert [item["id"] for item in benign if privacy.sensitive_reason(item["text"]) is not None] == []


@pytest.mark.parametrize("text", [
    "La tablette de mamie s'ouvre avec 1 9 4 6, l'année de naissance de papi.",  # what opens with the digits
    "Amma opnar spjaldtölvuna með 2 2 0 6.", "Personaleparkeringen i Kastrup: bommen åbner på 6 1 9 0.",
    "Cajetín de llaves del piso compartido: 3-3-8-0.", "kutija za kljuceve u stanu 2-2-1-6, ne dijeliti",
    "Sejf na klucze: siedem jeden zero osiem.", "Pin do teléfono da avoa: catro, oito, cero, tres.",  # Polish, Galician
    "Mummon verkkopankin tunnusluku on 9 4 2 6 0 1 — Eetu kirjoitti sen muistiin.",
    "Tjänstemobilens pinkod är 774 201.",  # a PIN in two threes
    "Codurile de rezervă pentru contul de Google: 63590911, 46280095, 12649488, 32465866",  # Romanian backup codes
])
def test_what_the_round_on_tune35_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "IT says the new case system will use single sign-on from March, so one less password to remember.",
    "The show opens with 5 4 3 2 1 on the big screen.",  # a countdown
    "Rezervarea pentru hotel: 2 camere, 4 nopți.",  # a Romanian booking, no codes
])
def test_what_the_round_on_tune35_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_round_on_tune35_is_held_to_what_the_narrowed_forms_give():
    """review58: the round's first forms refused 87 of its 124 ordinary texts (23 before them, and at the
    session's start) and caught 59 of its 72 secrets (43 before them); narrowed, the gate refuses these 20 and
    misses these 11."""
    refused, missed = _wrong("review58")
    assert refused == _ids("r58-benign", 3, 13, 23, 24, 25, 27, 29, 31, 32, 61, 62, 65, 66, 68, 92, 93, 98, 99, 100,
        101)
    assert missed == _ids("r58-leak", 7, 20, 28, 29, 30, 35, 37, 50, 65, 67, 71)


# What review58 found the round's first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Quiz team this year is Brains#Trust again; Priya handles the music round, I bring the phone charger.",
    "La saison s'ouvre avec les épisodes 1 3 2 4 diffusés dans le désordre, bizarre.",  # "opens with", then a word
    "Le concert s'ouvre avec 4 7 1 6, une grille d'accords classique, puis les cuivres entrent.",  # nothing it opens
    "Butikken åbner på 1 3 5 7 etage først, resten efter ombygningen.",
    "El cajetín del buzón 3 2 5 4, de la escalera B, está roto desde enero.",  # "cajetín" alone
    "Kupila sam kutiju za ključeve u Pevexu, police 2 4 6 8, cijena 19 eura.",  # the key box in another clause
    "Sejfy w magazynie: trzy, osiem, dwa, pięć sztuk na półkach.",  # safes, counted
    "Pankkiautomaatti Prisman edessä on rikki, lähin on kauppakeskuksessa tasolla 2 4 6 8.",
    "Office moved to Koramangala, the PIN code is 560 034.",  # India's postcode
    "Am primit codurile de rezervare pentru hotel: 482913, 553201, 771045, câte unul pe cameră.",  # booking codes
])
def test_what_the_review_of_the_round_on_tune35_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Grinden öppnas med 9 0 5 2.", "Skuret åbner med 3 8 1 6, nøglen ligger indenfor.",  # a gate, a shed
    "Hliðið opnast með 7 3 1 9.", "La puerta de atrás abre con 8 4 1 7.",
    "Min pinkode er 9 4 1 8 2 6.",
])
def test_what_the_review_of_the_round_on_tune35_found_missed_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the round on tune36 (a thirty-eighth writer, weighted to prose passwords: a plumber, a doctoral candidate
# abroad, a market stall's holder, a retired teacher who volunteers, a teenager set up by a parent, in 22
# languages); heldout35 held out. 90 of 100 caught before the round, no ordinary text refused.

def test_the_round_on_tune36_misses_four_leaks_and_refuses_no_ordinary_text():
    """Left: a passcode in two-digit number words ("twenty-two sixty-one"), a card's PIN in Portuguese digit
    words that read as a year ("um nove oito três"); and, given back after review59, a Finglish PIN that ends
    in "do" (two, and a word of other languages) and an Amharic phone's PIN ("ፒን" alone is also a pin)."""
    refused, missed = _wrong("tune36")
    assert (refused, sorted(missed)) == ([], ["p38-leak-0032", "p38-leak-0104", "p38-leak-0144", "p38-leak-0197"])


@pytest.mark.parametrize("text", [
    "Mteja wa Kilimani: kengele ya nyumba inazimwa kwa 2 2 9 7 kisha OFF.",  # a house alarm, in Swahili
    "ramze karte bank ro goft: yek haft noh hasht",  # digit names in Finglish
    "Door code is 48 then 27, press the key symbol after.",  # in ordered parts, after its name and "is"
    "የጋራ አፓርታማው በር ኮድ 5 9 1 4 ነው",  # a door's code in Amharic
    "Nhà bác Hòa: hộp chìa khóa cạnh cửa sau, mã 3 8 1 6, bình nóng lạnh trên gác.",  # a key box in Vietnamese
    "رمز در آپارتمان ۴ ۱ ۸ ۸ هست",  # an apartment's door code in Persian digits
    "شماره پاسپورت برای تمدید ویزا: K29310832",  # a passport's number, in Persian
])
def test_what_the_round_on_tune36_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "The code is 48 then 27 minutes later.", "Kick-off is 15 then 17.",  # no code's parts
    "Kengele ya shule inalia saa 8 kisha saa 10.",  # a school's bell at 8 then at 10
])
def test_what_the_round_on_tune36_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_round_on_tune36_is_held_to_what_the_narrowed_forms_give():
    """review59: the round's first forms refused 63 of its 166 ordinary texts (5 before them, and at the
    session's start) and caught 40 of its 59 secrets (12 before them); narrowed, the gate refuses these 6 (155,
    "PIN was 12 then 14, the bowling pins …", one more than at the start) and misses these 26 (32 then; the
    round on tune39 reads a PIN and a code in Amharic before "is", "password" as Amharic writes it, and a
    Romanian intercom's code with a letter)."""
    refused, missed = _wrong("review59")
    assert refused == _ids("r59-benign", 84, 88, 89, 91, 155, 163)
    assert missed == _ids("r59-leak", 2, 4, 9, 10, 11, 12, 13, 15, 18, 20, 21, 22, 27, 33, 38, 41,
                          42, 46, 47, 48, 49, 51, 52, 53, 57, 59)


# What review59 found the round's first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Exit code is 137, then 139.", "The area code is 020, then 7946.",  # no lock's code
    "Radno vrijeme kod doktora: pon-pet osam do dva",  # Croatian "do" (until)
    "ፒን ያለው የሴቶች ልብስ በ 450 ብር",  # a pin on a dress, and its price
    "በር ኮድ ያለው ሕንፃ ብሎክ 7፣ ቤት ቁጥር 1 2 0 5፣ ሲኤምሲ።",  # a house's number told a digit at a time
    "Kengele ya nyumba ina mipangilio: 1 - 5 - 2 - 8 ni ratiba ya siku za juma",  # a bell's schedule
    "Hộp chìa khóa này xài hai ba năm không hỏng, mua ở Shopee.",  # "two or three years"
    "گذرنامه: شماره درخواست 1402345678، نوبت 15 مهر.",  # a passport's application number
    "Telefon-e khune-ye Ramzi: haft hasht do se, noh panj yek shesh",  # Ramzi's phone, in Finglish
])
def test_what_the_review_of_the_round_on_tune36_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_new_users_break_of_the_thirteenth_sessions_gate_is_mended():
    """review60: through the Hermes provider, 1 of the 46 secrets a new user stored was published (a door's
    keypad code told after the flat's street) and 1 of the 42 ordinary memories refused (a talk "about"
    recovery phrases), both as at the session's start."""
    assert _wrong("review60") == ([], [])


@pytest.mark.parametrize("text", [
    "Our address is 1420 Elm Street, the door code is on the sticky note.",  # a street's number, no code told
    "The gate code for 221 Baker Street is changing next week.",
    "The passphrase workshop was about password managers, not about memorising.",
])
def test_a_new_users_break_of_the_thirteenth_sessions_gate_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_second_new_users_break_of_the_thirteenth_sessions_gate_is_held_to_what_it_reads():
    """review61: 8 of its 40 secrets were published and none of its 35 ordinary memories refused; mended, a
    German key box that "öffnet mit" digits and an Indian PAN (four digits) are refused, and so, since the round
    on tune37, Japanese digits split by "、" and pressed in their order, and since the sixteenth session's last break
    an alarm's code in English words joined by "then", and since the seventeenth a Wi-Fi key after "uses the key";
    these 3 still pass (a German gate's and a Swahili door's code in ordered parts with no code's word, a Swahili
    Wi-Fi key after "ufunguo")."""
    assert _wrong("review61") == ([], _ids("r61-leak", 15, 39, 40))


@pytest.mark.parametrize("text", [
    "PAN: AFZPK7190K", "Der Schlüsselkasten am Ferienhaus öffnet mit 3-8-5-2.",
])
def test_a_second_new_users_break_reads_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Pan con tomate costs 4 euros, table 1234.", "The PAN is printed on the card, ABCD1234 is the order.",
])
def test_a_second_new_users_break_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune37 (a thirty-ninth writer, weighted to prose passwords: a fishing-boat owner, a night-shift
# security guard, a village pharmacist, a two-person garage's mechanic, a travelling remote developer, in 21
# languages); heldout36 held out. 83 of 100 caught before the round, 4 of 200 ordinary texts refused.

def test_the_round_on_tune37_misses_three_leaks_and_refuses_three_ordinary_texts():
    """Left: a duress code word ("code word … is HEATHERBELL", as a project's code name is told), a fuel card's PIN
    as "its number for the pump is nine one four two", a Wi-Fi key after "the long one on the router —"; refused, a
    documentation's example in Hungarian whose word for a password is written without its accent ('jelszo123'), a
    tablet's model and price read by the learned layer ("Tab A9+, 64 GB, R4,499") and a made-up login example."""
    refused, missed = _wrong("tune37")
    assert (refused, missed) == (["p39-benign-0268", "p39-benign-0128", "p39-benign-0019"],
                                 ["p39-leak-0013", "p39-leak-0004", "p39-leak-0041"])


@pytest.mark.parametrize("text", [
    "Harbour gate: 5 2 8 1, then star.",  # digits apart, then a keypad's key
    "Ворота відкриваються з клавіатури: 4 4 1 7 і зірочка.",
    "le clavier de la roulotte, c'est 2 0 8 8 pis le piton vert",
    "マンションのオートロックは 4、0、7、3 の順に押す。",  # digits split by "、", pressed in their order
    "senha de supervisor 3 3 7 1 0, só pra estorno",  # then a comma, in a password's sentence
    "Customers' key drop box out front: open with 9-1-6-2, reset monthly.",  # the imperative "open with"
    "Simu ya mtumiaji inafunguka kwa tisa-tano-sifuri-moja-tatu-saba.",  # digit names after what opens with them
    "codul de la usa din spate: doi-sapte-sapte-unu.",  # Romanian's "the code"
    "The user's own phone unlocks with 240581, he told me when the screen cracked.",  # whatever the line says after
    "Narkoskabet på apoteket: kombinationen er 28-05-61.",  # a cabinet's dial, in Danish
    "A felhasználó adóazonosító jele: 8176727725",  # a Hungarian person's tax number, its check holds
])
def test_what_the_round_on_tune37_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Harbour office phone: 01779 474020, open 8 till 4, closed Sundays.",  # a phone's number, a shop's hours
    "Rated the film 4 3 5 2, then star ratings were reset.",  # not a key pressed after them
    "adóazonosító jel: 8176727726",  # its check fails
    "Office opens 0900 daily, phone 01224 555123.",
])
def test_what_the_round_on_tune37_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_eighth_and_ninth_trials_mends_is_held_to_what_the_narrowed_forms_give():
    """review62: the first forms of the mends for the eighth and ninth trials refused 77 of its 126 ordinary texts
    (25 before them) and caught 18 of its 57 secrets (15 before them); narrowed, the gate refuses one more than
    before them (049, "The padlock code 1999. That's the name of a short story …") and catches one more (a Zoom
    "Kenncode"); 043, a salary's "A/C No", is caught since the sixteenth session, and 025, a Georgian safe's
    combination, since the eighteenth. tests/test_privacy_hermes_trial.py holds one text of each kind they refused."""
    refused, missed = _wrong("review62")
    assert len(refused) == 26 and "r62-benign-049" in refused
    assert len(missed) == 39 and not {"r62-leak-025", "r62-leak-030", "r62-leak-043"} & set(missed)



# What the misses left in older tuning sets taught in general (the fourteenth session): a PIN in groups then the
# key that ends it, a door's code keyed in with the hash key on an address's line, a bank's memorable word, the
# code of an alarm told "is" in French on a line that names a flight
@pytest.mark.parametrize("text", [
    "Calendar entry, Thu 10:00, quarterly review with Calder & Price. Dial-in +44 20 7946 0958, participant PIN "
    "640 112 then hash.",
    "Door code at 12 Harbour Street for October — 7720#",
    "Her online bank: passnumber 418 902, memorable word marigold.",
    "Pour les vacances : vol le 3, clés chez la voisine, et le code de l'alarme est 6142.",
])
def test_what_older_tuning_sets_misses_taught(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Alarme incendie testée samedi, rapport classé sous la référence 2024#",  # a year and a hash
    "memorable word updated.", "They asked for the memorable word again.", "memorable word reset, call back Monday",
    "Vol AF1234 le 3, le code de réservation est 4821.",  # a booking's code
])
def test_and_what_they_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune38 (a fortieth writer, weighted to prose passwords: a school caretaker, a faith community's
# volunteer treasurer, a care home's activities coordinator, a wedding videographer, an elderly man living alone,
# in 23 languages); heldout37 held out. 84 of 100 caught before the round, 3 of 200 ordinary texts refused.

def test_the_round_on_tune38_misses_nine_leaks_and_refuses_three_ordinary_texts():
    """Left: a keypad's code with letters around it ("C1942X"), digits apart in Finglish and Indonesian with no
    code's word the gate reads, Wi-Fi keys after "lösen" and "pass", a year a lock is set to told in a quote,
    a Persian medicine room's code "from today", digit names in Arabic and Punjabi; refused, Croatian "kod"
    (near) beside a report's number, a Slovak note that the Wi-Fi password was changed, and "your memorable
    word is case sensitive" (as at the session's start)."""
    refused, missed = _wrong("tune38")
    assert (refused, missed) == (["p40-benign-0345", "p40-benign-0322", "p40-benign-0113"],
                                 ["p40-leak-0027", "p40-leak-0098", "p40-leak-0131", "p40-leak-0150", "p40-leak-0109",
                                  "p40-leak-0004", "p40-leak-0097", "p40-leak-0087", "p40-leak-0115"])


@pytest.mark.parametrize("text", [
    "mokyklos signalizacija: įvedi 3 9 0 5 ir spaudi OFF, sakė ūkvedys Jonas",  # digits apart, then OFF pressed
    "กันขโมยห้องโถงวัด กด 9 2 2 6 แล้วกด OFF ลุงสมชายบอกไว้",
    "Dropbox recovery codes: aryn xxvt / ygup cksb / axqs ogou / mglc kgec / ckcp myik",  # letter groups, "/" apart
    "رمز جعبه کلید کنار در برای پرستار: ۳۸۱۵.",  # a key box in Persian
    "Шифра кутије са кључевима за салу: 2 5 8 0. Благајник је рекао само хору.",  # a code's word, a colon, digits
    "Nyckelboxen vid morfars dörr för hemtjänsten: 9 1 4 0. Biståndshandläggaren har den också.",  # a door
])
def test_what_the_round_on_tune38_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Bus lines this week: 7 3 1 9.", "Kids' shoe sizes: 2 4 6 8.",  # digits apart after a colon, no code or lock
    "Rated the four films 4 5 3 5 then off to bed.",  # "then off", no key pressed
    "Book club picks, in order: rose moth / lark dune / fern silk / reed",  # words, a few
])
def test_what_the_round_on_tune38_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_sessions_later_mends_is_held_to_what_the_narrowed_forms_give():
    """review63 (the round on tune37, the misses of older tuning sets, the round on tune38): at the code it read the
    gate refused 27 of its 140 ordinary texts (23 at the session's start) and caught 36 of its 60 secrets (22 at
    the start); the first forms refused 74 and caught 35; narrowed, it refuses these 22 and misses these 17 (18 until
    the seventeenth session read a quoted passphrase of words after its name and a colon)."""
    refused, missed = _wrong("review63")
    assert refused == _ids("r63-benign", 7, 23, 36, 38, 39, 41, 43, 47, 48, 49, 50, 51, 52, 55, 59, 60, 61, 62, 63, 64,
                           118, 138)
    assert missed == _ids("r63-leak", 5, 7, 8, 12, 13, 14, 15, 22, 23, 36, 42, 49, 50, 53, 57, 58, 60)


# What review63 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Universal remote setup for the Samsung TV: hold SETUP, enter 1 0 6 0 and press OK.",  # no keypad's panel
    "Notes de Léa ce trimestre : 4 3 5 2 et une étoile pour la lecture.",  # a school report's star
    "Mia's beer flight scores: 4 3 5 2, and a gold star for the stout.",
    "Simulation seeds we used: 4 7 1 9.", "버스 번호: 7 3 1 9.",  # digits after a colon, no code or lock
    "Band practice at the Gate pub: open with 1 5 6 4, then the bridge.",  # "open with", a song's chords
    "پاسخ سوالات تستی: سه یک چهار دو",  # the answers of a test, in Persian
    "A senha da fila era 4 7 3 9, chamaram logo.",  # a queue's ticket, in Brazil
    "Codul rutier nou, articolul opt doi cinci trei.",  # the highway code
    "Kyoto was our most memorable place overall.", "Barclays app update: memorable word removed.",
    "Adóazonosító jelet kért a könyvelő, a NAV ügyszám pedig 8512345675, határidő május 20.",  # another number
    "Arduino notes: LED on pin 12 13 then star topology for the sensors.",
    "ICAO codes from my logbook: egll / lfpg / eddf / ehma / lirf / lemd / lppt / ebbr / lszh.",
    "Skapet på badet: kombinasjon av hyller 4 3 2 6 fra toppen.",  # a cabinet's shelves
])
def test_what_the_review_of_the_sessions_later_mends_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_new_users_break_of_the_fourteenth_sessions_gate_is_held_to_what_it_reads():
    """review64: 3 of its first 33 secrets and 16 of its 60 variants were published, no ordinary memory refused;
    mended, these 5 still pass: a PIN told as its ends, a Kenyan national id (no check), Korean digit syllables
    that go up (a count), a Swahili cupboard's code in ordered parts with no code's word the gate reads, and,
    after review65, a Dutch alarm's code "eerst 19, dan 84" ("dan" is Indonesian's "and")."""
    assert _wrong("review64") == ([], _ids("r64-leak", 56, 58, 69, 73, 75))


@pytest.mark.parametrize("text", [
    "To open the garden gate: first 47, then 19, then press the bell.",
    "Kod ot domofona: snachala 27, potom 64.", "Ο κωδικός της πόρτας: πρώτα 35 και μετά 81.",
    "현관 비밀번호는 먼저 12, 그다음 78이야.", "Door code: 1 then 9 then 7 then 3.", "The door code goes 2, 8, 5, 9.",
    "To disarm: 6, 2, 9, 4, then OK.", "Apartman kapı kodu dört beş sıfır yedi.", "Kod ot domofona: dva sem shest chetyre.",
    "SNILS 112-233-445 95",
])
def test_a_new_users_break_of_the_fourteenth_sessions_gate_reads_these(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "SNILS 112-233-445 96",  # its check fails
    "Bus times: first 47, then 19 past the hour.",  # no code, no lock
    "Press 1 then 2 for the bookings line.",  # two digits, no code
])
def test_a_new_users_break_of_the_fourteenth_sessions_gate_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_mends_for_the_new_users_break_is_held_to_what_the_narrowed_forms_give():
    """review65: at the code it read the gate refused 23 of its 102 ordinary texts and caught 9 of its 41 secrets;
    the first forms of the mends refused 73 and caught 13; narrowed, it refuses the same 23 and misses these 25 (004,
    a key safe's digit words joined by "then", too until the sixteenth session's last break)."""
    refused, missed = _wrong("review65")
    assert refused == _ids("r65-benign", 2, 5, 6, 8, 10, 11, 12, 15, 28, 29, 30, 32, 33, 34, 36, 37, 59, 60, 67, 69, 70,
                           71, 89)
    assert missed == _ids("r65-leak", 1, 2, 3, 9, 12, 14, 15, 17, 18, 19, 22, 23, 24, 26, 27, 28, 29, 30, 31, 32, 33,
                          34, 35, 38, 39)


# What review65 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "The recipe opens with a hot oven for the crust: first 220, then 180.",
    "To open the garden gate for the craft fair stalls: first 0800, then 1000.",
    "Ο ταχυδρομικός κωδικός άλλαξε, πρώτα 546, μετά 552.", "Kode kelas di gedung pertama 12 dan 14.",
    "오늘 비번이라 버스 타고 가는데 먼저 740 그다음 152야.", "Dress-kod na svadbu byl strogiy, stoly snachala 12, potom 16.",
    "Airline app rebooking: choose 3 then 1 then 2 then 4 in the menu if the flight is cancelled.",
    "Freeview retune on the TV in the outdoor kitchen: menu, 8 1 9 4 then OK.",
    "Her new zip code goes 9, 0, 2, 1, 0 now that she moved to Beverly Hills.",
    "Ankara'nın alan kodu sıfır üç bir iki.", "Kod goroda dlya Pitera: vosem vosem odin dva.",
    "Для Госуслуг нужен СНИЛС, а телефон поликлиники 8 968 084 13 81.",
    "Red Roof Inn loyalty number 2859401870 for the road trip.",
])
def test_what_the_review_of_the_mends_for_the_new_users_break_found_refused_passes(text):
    assert privacy.sensitive_reason(text) is None, text



# What a new user's last break of the session (through the Hermes provider, on the final gate) published: a gate's
# code in ordered parts in Arabic written in Latin letters, and Nigeria's national identification number
@pytest.mark.parametrize("text", [
    "Ramz el bawwaba: awwalan 62 thumma 19",
    "Nọ́mbà NIN olùmúlò ni 48291037465",
])
def test_what_the_sessions_last_break_published_is_refused(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "NIN office phone: 08012345678",  # a Nigerian phone's eleven digits start with 0
    "Ramzi scored first 62 thumma 19",  # a name, not "ramz" (code)
])
def test_and_what_the_sessions_last_break_still_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune39 (a forty-first writer, weighted to prose passwords: a lorry driver, a dental practice's
# receptionist, a student in a shared flat, a landlord of four flats, a beekeeper with a market stall, in 24
# languages); heldout38 held out. 83 of 100 caught before the round, 0 of 200 ordinary texts refused.

def test_the_round_on_tune39_misses_two_leaks_and_refuses_no_ordinary_text():
    """Left: a Zulu gate's code keyed in with "#" ("livulwa ngo 4408#": "#" after a number alone is an
    extension's, a meeting's, an order's or a year's as often), and a German code in number words joined into
    compounds ("siebenundvierzig-zwölf")."""
    refused, missed = _wrong("tune39")
    assert (refused, missed) == ([], ["p41-leak-0124", "p41-leak-0179"])


@pytest.mark.parametrize("text", [
    "A senha do portão da garagem agora é 5 1 8 3, mudou ontem.",  # a password's word, what it opens, "now is"
    "Cutia cu chei are codul 5 9 1 3, pentru curățenie.",  # a Romanian key box "has the code"
    "katinarat na garaja e 7-3-0-4, ne go kazvai",  # a padlock, Bulgarian in Latin letters
    "मौरी घारको बारीको गेटको ताल्चा कोड ४ ० ६ ६ हो।",  # digits apart in Devanagari, a Nepali lock
    "የባንክ ካርዴ ፒን 7302 ነው።",  # a PIN in Amharic, then "is"
    "የቤቴ ዋይፋይ ፓስወርድ Selam@2015 ነው።",  # "password" as Amharic writes it
    "Ο κωδικός στο πληκτρολόγιο της πόρτας είναι 3819.",  # a Greek keypad
    "Nuki at the flat: the cleaner's code set to 550193.",  # a smart lock by its maker's name
    "Backup codes for Discord: 9fk2md0q, x8s0dk2m, qp3ls9dk, 0dk3ls8a",  # codes of letters and digits, few digits
    "Church Gmail: office@stmarys-hall.org then Lilies-2024.",  # an address, then, a password ending the sentence
    "大家登入都打 Bee2024hive，不用改。",  # what one types to log in, in Chinese
    "Kod pintu stor: lapan satu kosong sembilan.",  # Malay's digit names
    "My passport number for the embassy appointment: K12345678.",  # a passport's letter and digits
])
def test_what_the_round_on_tune39_reads(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Backup codes are listed under: security, privacy, account, devices",  # words after the colon
    "Admin contact: heather@glenhoney.co.uk then the shop phone.",  # an address, then words
    "reply to support@steam.com then FIFA23 refund should show",  # a value the sentence goes on from
    "Το πληκτρολόγιο του υπολογιστή κόστισε 45 ευρώ.",  # a computer's keyboard and its price
    "Passport number renewal appointment: 2031-04-02",  # a date
    "他晚上登入遊戲都打 NBA2K24。",  # playing a game
    "Meeting ID 55512#, no PIN needed.", "Office extension: dial 020 7946 0000, then 4021#.",  # "#" after a number
    "ፒን ያለው የሴቶች ልብስ በ 450 ብር፣ መጠን 38።",  # "with a pin", in Amharic
    "A senha da fila agora é 4 7 3 9, chamaram logo.",  # a queue's ticket
])
def test_what_the_round_on_tune39_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_review_of_the_round_on_tune39_is_held_to_what_the_narrowed_forms_give():
    """review66: at the code it read the gate refused 10 of its 116 ordinary texts and caught none of the 42
    secrets it kept; the round's first forms refused 68 and caught 12; narrowed, it refuses the same 10 and
    misses these 20 (22 until the seventeenth session read Nepali's digit names)."""
    refused, missed = _wrong("review66")
    assert refused == _ids("r66-benign", 22, 26, 47, 48, 49, 50, 51, 53, 77, 78)
    assert missed == _ids("r66-leak", 1, 2, 3, 5, 7, 14, 16, 17, 18, 19, 23, 24, 26, 29, 30, 31, 34, 35, 39, 41)


# What review66 found the round's first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "A senha do laboratório agora é 4 0 7 1, ainda tem umas vinte pessoas na frente",  # a queue's ticket
    "Nach dem Tor stellte der Trainer auf 3-4-2-1 um, danach lief es besser",  # a goal, a formation
    "Πήρα πληκτρολόγιο Logitech MX Keys, παραγγελία 4829105, έρχεται Πέμπτη",  # a keyboard, an order
    "Ultraloq U-Bolt Pro was $159, warranty card serial 83015527",  # a smart lock's serial
    "Катинарът на моста в Ловеч е с нашите инициали и дата 1 4 0 2",  # a love-lock's date
    "Cursul de luni are codul trei unu patru doi",  # a course's code
    "አሰልጣኙ 4-2-3-1 አሰላለፍ ተጠቅሟል፣ ቁልፍ ተጫዋቹ ሳላዲን ነበር",  # a formation and a key player
    "የቴሌግራም ግሩፑ ፒን 2024 ነው ያለው የዓመቱ መልዕክት",  # a pinned message
    "नयाँ ताल्चा २ ० ८ १ सालमा किनेको थियो",  # a year, in Devanagari digits
    "کد پستی خونه جدید: ۴ ۸ ۱ ۳ ۷ ۵ ۶ ۹",  # a postal code, in Persian digits
    "Booking codes for the backup hotel: h7kq2m, p9xz3r, t4wb8n, l2vc6d",  # bookings
    "email jobs@tesco.com then Store4412 manager for the interview time",  # an address, then words
    "登录后打 Zhang3 的电话问一下作业",  # phoning someone after logging in
    "Passport number for the renewal appointment: booking ref AB1234567",  # a booking's reference
    "Kod pos rumah nenek di Ipoh: tiga satu empat lapan kosong",  # a postcode in Malay digit names
    "Купих катинар Abus 4590 за колелото от Praktiker",  # a lock's maker and model
])
def test_what_review66_found_the_first_forms_refused(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune40 (a forty-second writer, weighted to prose passwords: a night-shift security guard, a
# home-care nurse, a hostel's owner, a church choir's director, a taxi and delivery driver, in 25 languages);
# heldout39 held out. 87 of 100 caught before the round, 1 of 200 ordinary texts refused.

def test_the_round_on_tune40_misses_eleven_leaks_and_refuses_no_ordinary_text():
    """Left, as its review (review67) narrowed the first forms: a user and a password after "types … and", a code
    in halves after a bare "alarm", Egyptian Arabic in Latin letters' gate that "opens with", a phone's number
    told as its code, key boxes in French and Czech beside digits apart (out of a line's context: letterboxes,
    orders and bus lines beside them), Spanish "abre con" (a season, a stadium, a museum open so too), a luggage
    room's code "now", a medicine cabinet that "opens on", Slovenian "in potem zvezdica" (a school's gold star),
    rooms' codes each after "Room N is"; the ordinary text refused before the round (a gate's repair ticket,
    "ticket d'intervention n° 48213") passes."""
    refused, missed = _wrong("tune40")
    assert (refused, missed) == ([], _ids("p42-leak", 45, 13, 96, 15, 66, 80, 55, 119, 19, 84, 28, width=4))


@pytest.mark.parametrize("text", [
    "යතුරු පෙට්ටියේ කේතය 8 1 6 0.",  # a key box in Sinhala, digits apart
    "Office door keypad: first press 62 on the keypad, then 18.",  # parts keyed in on a pad, into a building
    "code-e dar-e parking: avval 52, baad 81.",  # ordered parts in Persian in Latin letters, of a door
    "ジムのロッカーの番号は6、0、4、2の順に押す。", "金庫の番号は3、8、2、7。",  # a locker's, a safe's, split by "、"
    "Alarm na chatě se vypíná kódem devět jedna čtyři šest.",  # Czech "switched off by the code"
    "kart banki Alice, ramzesh 4417.",  # Finglish "its code", of a card
])
def test_what_the_round_on_tune40_and_the_break_read(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_review_of_the_round_on_tune40_is_held_to_what_the_narrowed_forms_give():
    """review67 (the round on tune40 and the mends for the session's break): at the code it read the gate refused
    18 of its 99 ordinary texts and caught 21 of its 53 secrets; the first forms refused 66 and caught 32;
    narrowed, it refuses these 17 (one fewer: a gate's repair ticket) and misses these 22."""
    refused, missed = _wrong("review67")
    assert refused == _ids("r67-benign", 1, 3, 6, 7, 9, 16, 17, 28, 33, 78, 79, 80, 88, 89, 91, 93, 97)
    assert missed == _ids("r67-leak", 2, 3, 4, 6, 7, 8, 11, 12, 17, 22, 25, 30, 31, 32, 37, 39, 43, 46, 47, 50, 51, 53)


# What review67 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Phone alarm for the early flight: first 0430, then 0445.",  # an alarm clock
    "Microwave: first press 30 on the keypad, then 2.",  # a microwave's keypad
    "code-e takhfif-e Digikala: avval 15, baad 25.",  # a discount's code, in Finglish
    "ロッカーの番号は3、5、7、9が空いています",  # the lockers free
    "Film-e ramzesh 2048 ro didam",  # a film's year
    "Le portail du parc a été réparé; ticket d'intervention n° 48213.",  # a repair's ticket
])
def test_what_review67_found_the_first_forms_refused(text):
    assert privacy.sensitive_reason(text) is None, text


# What the session's last new user's break published, read in general now (break68).
@pytest.mark.parametrize("text", [
    "o kwdikos gia to alarm sto magazi einai prwta 52 meta 07",  # ordered parts in Greek in Latin letters
    "Kod kunci loker di pejabat: mula-mula 40, kemudian 19.",  # ordered parts in Malay
    "A TAJ-száma 037 543 615.",  # a Hungarian social insurance number, its check holding
    "Nombor MyKad pengguna ialah 850315-14-5567.",  # a Malaysian identity card's number, its date and place holding
    "Su CURP es GOMR850315HDFRRN09; la necesita para el trámite del SAT.",  # a CURP of its shape, its check off
    "Il codice del portone è prima 3 5 poi 9 1, poi si spinge forte.",  # parts, each a digit at a time (break69)
])
def test_what_the_last_break_published_is_read(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Pagó 1850 pesos por la reparación del portón.",  # a price beside a gate
    "A TAJ-kártya megújítása 2026-ban esedékes.",  # a TAJ card to renew, no number
    "Meta first 12 then 30 minutes of ads",  # not a code's parts
    "Le lezioni: prima 3 5 poi 9 1 minuti",  # digits apart in parts, no code's word
])
def test_what_the_last_break_found_refused_or_near_it_passes(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune41 (a forty-third writer, weighted to money sent and kept: a migrant worker, a farm
# cooperative's bookkeeper, a pharmacist, a student abroad, a retired person, in 35 language tags); heldout40 held
# out. 83 of 100 caught before the round, 1 of 200 ordinary texts refused.

def test_the_round_on_tune41_misses_four_leaks_and_refuses_no_ordinary_text():
    """Left: a passphrase quoted after "we went with" a sentence after its name, a password as "the other field"
    after a user name, a till's login as "my staff number then 'Kerala77'", a cabinet's code as digits a comma
    apart after "Now" (a controlled drugs cabinet is no lock by its name); the ordinary text refused before the round
    (a security question told by what it asks, "…: the name of my first school. I answered, …") passes."""
    refused, missed = _wrong("tune41")
    assert (refused, missed) == ([], _ids("p43-leak", 22, 18, 35, 1, width=4))


@pytest.mark.parametrize("text", [
    "My own BPI account back home, where the agency deposits my salary: 8567672740.",  # an account at a bank, its
    "Asusun Access Bank na Baba inda nake tura kuɗi: 0917788257.",  # use between, in English and in Hausa
    "บัญชีกสิกรของฉันเอง เลขที่ 698-8-82027-9",  # a Thai account, "number" before it
    "Rekening BCA saya sendiri: 1246351051 a.n. Siti.",  # one's own, in Indonesian
    "Islami Bank a/c 20501770203456789",  # "a/c" after a bank
    "玉山銀行帳號 0979-968-123456",  # a bank account in Chinese
    "宿舍大門密碼 5207#", "提款卡密碼 7390 (郵局)",  # a door's and an ATM card's code in traditional Chinese
    "安全提問：我的國小叫什麼？答案：興隆國小",  # a security answer in traditional Chinese
    "o kwdikos tis kartas mou einai 6612",  # a card's PIN in Greeklish
    "kleidaria podilatou 7-7-1-3",  # a bike lock told a digit at a time, in Greeklish
    "Ο συνδυασμός του χρηματοκιβωτίου στο περίπτερο: 55193",  # a safe's combination in Greek
    "κωδικός ξεκλειδώματος κινητού 031178",  # a phone's unlock code in Greek
    "PIN tis Viva Wallet 2290",  # a PIN before a wallet's name
    "Lambar sirrin katin Baba ita ce 6 0 4 1",  # a card's "secret number" in Hausa
    "Makullin rumbun hatsi: 5-2-9-0",  # a lock in Hausa, told a digit at a time
    "寮の玄関は 5 8 3 0 を押してから＃",  # an entrance's keypad in Japanese
    "امی کا نیا فون 1 9 6 7 سے کھلتا ہے",  # what a phone opens with in Urdu
    "قفل خزانة الأدوية: ٧-١-٤-٦",  # a cabinet's lock in Arabic, in Arabic-Indic digits
    "Can you remember the keysafe code at Mrs Patel's for me? It's 7391",  # "keysafe" as one word
    "Security question for the bank: the name of my first pet. Biscuit.",  # the answer after what it asks
])
def test_what_the_round_on_tune41_and_the_eleventh_trial_read(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_review_of_the_round_on_tune41_is_held_to_what_the_narrowed_forms_give():
    """review68 (the round on tune41 and the eleventh trial's mends): before them the gate refused 13 of its 164
    ordinary texts and caught 15 of its 77 secrets; the first forms refused 104 and caught 44; narrowed, it refuses
    these 9 (all refused before: 4 fewer, each a security question told by what it asks) and misses these 30."""
    refused, missed = _wrong("review68")
    assert refused == _ids("r68-benign", 19, 32, 75, 76, 77, 101, 107, 158, 159, width=3)
    assert missed == _ids("r68-leak", 9, 11, 14, 15, 16, 17, 21, 22, 23, 24, 25, 27, 30, 35, 42, 43, 46, 47, 51, 54, 59,
                          60, 62, 63, 65, 66, 68, 69, 75, 77, width=3)


# What review68 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Wells Fargo account updated; the new phone's IMEI 356938035643809 is on file.",  # another number's word between
    "Opened a savings account at Equity Bank today, they took my fingerprints, next visit 12 06 2024 0930.",  # a date
    "Mum's savings account at Vietcombank matured today and she got back 120000000 đ in total.",  # an amount
    "A/C no longer cools: serial 1120045567.",  # an air conditioner
    "這學期選了密碼學，課程編號 5430",  # cryptography, a course's number
    "玄関で 0802 を押してから呼出",  # a room's number keyed at the entrance's intercom
    "kwdikos tis Portogalias 351",  # Portugal's calling code in Greeklish
    "PIN code of Punjab National Bank 110085",  # India's postal PIN code
    "Keysafe fitted by the council in 2023; their job ref was 44871.",  # a keysafe's job reference
    "Makullan dakunan baki: 1 2 3 4 duk suna ofis.",  # the guest rooms' keys in Hausa
    "Bank asked a security question when I called: the name of my first school. I answered, then changed it.",
])
def test_what_review68_found_the_first_forms_refused(text):
    assert privacy.sensitive_reason(text) is None, text


# Philippine numbers after their name, in their shape (the fifteenth session's last break published an SSS and a
# TIN number); and what stays ordinary beside those names.
@pytest.mark.parametrize("text, refused", [
    ("My SSS no. 34-1234567-8, for the loan application", True),
    ("TIN: 123-456-789-000 for the BIR form", True),
    ("PhilHealth 12-345678901-2", True),
    ("Pag-IBIG MID 1234-5678-9012", True),
    ("SSS branch hotline 8920-6446, open until 5", False),
    ("SSS contribution for May is ₱1,125", False),
    ("TIN 3 cans of paint for the fence", False),
])
def test_a_philippine_number_after_its_name(text, refused):
    assert (privacy.sensitive_reason(text) is not None) == refused, text


# -- the round on tune42 (a forty-fourth writer, weighted to prose passwords: a plumber, a school secretary, a
# nightclub manager, a refugee caseworker, a teenage streamer, in 25 languages the corpora held least); heldout41
# held out. 74 of 100 caught before the round, 1 of 200 ordinary texts refused.

def test_the_round_on_tune42_misses_nine_leaks_and_refuses_one_ordinary_text():
    """Left: a phone that opens with a number in Burmese, a till's code after Zulu "faka" (enter), a login in Burmese
    after an e-mail "and", a door's code in Galician number words after a room's name, backup codes in Somali, a
    password in two quoted halves, a password told as a name and a year ("Keshni2011") after "the rest is", a safe's
    turns in Marathi in its digits, a fuel card's PIN in Gujarati number words; and the ordinary text refused before
    the round (a club door's count "640 through the clicker")."""
    refused, missed = _wrong("tune42")
    assert refused == _ids("p44-benign", 85, width=4)
    assert missed == _ids("p44-leak", 22, 149, 24, 138, 5, 33, 76, 156, 162, width=4)


@pytest.mark.parametrize("text", [
    "Cash office safe: Marco spins it 22 – 68 – 41.",  # a dial's numbers an en dash apart, after a safe and its spin
    "Office key box by the fire exit: 3-3-0-8, then slide the cover right.",  # told apart, after "fire exit:"
    "Сеф у канцеларији за пазар: 31 – 07 – 62.",  # a safe in Serbian
    "Sanduuqa furayaasha xafiiska: 5-5-1-7, kadibna riix badhanka hoose.",  # a key box in Somali
    "Ponios Petrauskienės raktų dėžutė prie laiptinės: 2 7 7 5.",  # in Lithuanian
    "የቢሮው ቁልፍ ሳጥን፦ 3 9 0 8፣ ከዚያ ክዳኑን ወደ ቀኝ ግፋ።",  # in Amharic
    "ရုံးသော့သေတ္တာ — ၆ ၁ ၈ ၄၊ ပြီးရင် အဖုံးကို ညာဘက်တွန်းပါ။",  # in Burmese, in its digits
    "സൈക്കിൾ ലോക്ക്: 3 8 0 6.",  # a bike lock in Malayalam
    'Giorgi: "signalizacia 5 8 2 4, mere OFF"',  # an alarm in Georgian in Latin letters
    "Photocopier: 3 4 0 7 is the admin's number, for colour jobs.",  # a photocopier's code told apart
    "A caixa forte da secretaría ábrese con 44-19-07.",  # a safe in Galician
    "ઓફિસની તિજોરી ૩૬-૨૧-૫૮ થી ખૂલે છે",  # a safe in Gujarati, in its digits
    "स्टाफ रूमचे दार ४ ४ ० ९ ने उघडते",  # what a door opens with, in Marathi
    "Сейф у канцелярії: вліво до 18, вправо до 44, вліво до 9.",  # a dial's moves in Ukrainian
    "FNB, rekeningnommer 5153470788, takkode 250655.",  # an account in Afrikaans
    "Sy ID vir die SARS-vorm: 7608180212089.",  # someone's South African id number
])
def test_what_the_round_on_tune42_read(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_review_of_the_round_on_tune42_is_held_to_what_the_narrowed_forms_give():
    """review69: before the round the gate refused 4 of its 134 ordinary texts and caught 8 of its 64 secrets; the
    first forms refused 104 and caught 46; narrowed, it refuses the same 4 and catches 23 (24 since the seventeenth
    session read a Serbian safe's "levo" and "desno")."""
    refused, missed = _wrong("review69")
    assert refused == _ids("r69-benign", 13, 23, 72, 122)
    assert len(missed) == 40


# What review69 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Emergency exit drill times 9 – 11 – 14, door wardens briefed.",  # numbers a dash apart with no dial
    "Safe lifting module: read pages 12 – 18 – 24 before Thursday's session.",  # pages, not after a colon
    "Fire exit 104 next to the loading dock door must stay clear at all times.",  # a fire exit's number
    "Сефора: крем за 1450 денари.",  # Sephora, not a safe
    "Екскурсія в Олеський замок: вліво 2 зали, вправо 3 зали, разом 14 експонатів.",  # directions in a castle
    "Copier for Years 3 4 5 6 is the one in the library corridor.",  # year groups, a run
    "Copier service line: 0 8 0 0 6 5 4 3 2 1, quote the machine's serial.",  # a phone's number told apart
    "તિજોરીના ભાવ: 12-15-20 હજાર, મધ્યમ વાળી લઈશું.",  # safes' prices in thousands
    "Eskom rekeningnommer 4201 8876 55 — krag sny Dinsdag af.",  # a bill's account
    "Bestelling ID 6001273551095 vir die pype is gestuur.",  # an order's id
])
def test_what_review69_found_the_first_forms_refused(text):
    assert privacy.sensitive_reason(text) is None, text


def test_the_sixteenth_sessions_new_users_break_is_read_whole():
    """review70: a new user's break of the gate after the session's rounds published 3 of its 36 secrets (a login in
    two halves, digit words joined by "then" on a keypad's line, Slovak backup codes) and refused none of its 30
    ordinary memories; all three are read now, and the ordinary ones still pass."""
    assert _wrong("review70") == ([], [])


@pytest.mark.parametrize("text, refused", [
    ("The first half of my bank login is Orchid and the second half is 5529!, type them together.", True),
    ("The garage keypad: first digit is seven, then three, then eight, then one.", True),
    ("Záložné kódy pre GitHub: 4f7a-9c21, 8b3e-1d05, 6e92-a7f4", True),
    ("The first half of my password is easy to remember and the second half is harder.", False),
    ("The first half of the match was 2-1 and the second half 0-0.", False),
    ("Recipe: add two eggs, then three cups of flour, then one of sugar.", False),
    ("Zálohovanie fotiek: 2024-05-01, 2024-06-01, 2024-07-01", False),
])
def test_what_the_sixteenth_sessions_break_published_and_what_stays_ordinary_beside_it(text, refused):
    assert (privacy.sensitive_reason(text) is not None) == refused, text


def test_the_review_of_the_seventeenth_sessions_mends_is_held_to_what_the_narrowed_forms_give():
    """review71 (the twelfth trial's mends and the round on tune43): before them the gate refused 13 of its 175
    ordinary texts and caught 30 of its 99 secrets; the first forms refused 57 and caught 83; narrowed, it refuses
    these 10 (one, a Belarusian dialling code in digit words, newly) and misses these 18."""
    refused, missed = _wrong("review71")
    assert refused == _ids("r71-benign", 25, 43, 50, 85, 88, 114, 115, 116, 118, 138, width=3)
    assert missed == _ids("r71-leak", 7, 10, 14, 15, 17, 19, 38, 40, 41, 43, 44, 46, 59, 79, 80, 82, 92, 95, width=3)


# What review71 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Safe in the back office room - 2500 float counted at 3am, matches the till report.",  # an amount, not a code
    "Safe in room: 1204 (guest says the door is stuck; engineer called for 9am).",  # a room's number
    "Bank helpline for a forgotten password 08001234567, open till 8pm.",  # a helpline's free number
    "Loto, dobitna kombinacija 7-14-21-28-35-39, opet ništa nismo dobili.",  # a lottery's combination
    "Client a oublié le code du coffre dans la chambre 1207, réinitialisé avec la clé maître.",  # a room's number
    "Clé primaire du client dans Mongo: 6650a1b2c3d4e5f6a7b8c9d0, doublon supprimé.",  # a database's key
    "WiFi cabinet in the basement, key GB-7731-A.",  # a key's tag
    "Kontrol'nye voprosy k lekcii 3: otvety v uchebnike, str. 45.",  # an exam's questions
    "Alarm panel log: choose 2019 then OK to see that year's events.",  # a year keyed into a menu
    "Year 4 homework, the 20 words in order: regret canal saddle fence age urban empty mail frozen device width "
    "letter crouch whale board code slogan slim myth civil",  # a spelling list of BIP-39 words
    "Sef smjene kaže: desno na 2. rampu, lijevo 3 mjesta, desno 12 metara do vage.",  # directions, "šef" (boss)
    'Login test for the wrong password shows: "Too many attempts wait 30"',  # an error message
    "លេខកូដប្រៃសណីយ៍៖ ១ ២ ០ ០ ០",  # a Khmer postal code
    "ਸਾਡੇ ਪਿੰਡ ਦਾ ਪਿੰਨ ਕੋਡ 1 4 1 0 0 1 ਹੈ",  # India's postal PIN code, in Punjabi
])
def test_a_review_of_the_seventeenth_sessions_mends_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune43 (a forty-fifth writer, weighted to prose passwords: a truck driver, a hotel night auditor,
# a community radio volunteer, a retired couple, a freelance translator, in 23 languages the corpora held least or
# never); heldout42 held out. 66 of 100 caught before the round, 1 of 200 ordinary texts refused.

def test_the_round_on_tune43_misses_three_leaks_and_refuses_no_ordinary_text():
    """Left: two phones' codes told a digit at a time after a colon in Belarusian, a password vault that "opens
    with what Hemi read out" and quoted words, a studio door's digits then Tajik "баъд тугмаи сабз" (then the green
    button: "дар", door, is also a common word); and no ordinary text refused (a locksmith's phone number with its
    area code in brackets was, before the round)."""
    refused, missed = _wrong("tune43")
    assert refused == []
    assert missed == _ids("p45-leak", 101, 27, 116, width=4)


@pytest.mark.parametrize("text", [
    "Рамзҳои эҳтиётии Telegram: 4821 0937, 5530 1298, 7702 6614, 9014 3387",  # backup codes, Tajik's "spare"
    "ਫ਼ੇਸਬੁੱਕ ਦੇ ਬੈਕਅਪ ਕੋਡ: 2231 9087, 4410 5532, 8765 0021, 6643 1190",  # backup codes, "backup" in Gurmukhi
    "Hangilásið á skúrinum: 3-9-2-7.",  # a padlock in Faroese, its digits apart
    "Mkpọchi ọnụ ụzọ azụ: 7-2-0-4.",  # a lock in Igbo
    "PIN кашелька: ១ ៨ ៤ ៦",  # a PIN in Khmer digits, told apart
    "លេខកូដសោឃ្លាំង៖ ៣ ៩ ១ ៧",  # Khmer's code of a lock
    "Кеңседеги сейф: оңго 24, солго 8, оңго 51.",  # a safe's turns in Kyrgyz
    "Garaaž: sef v kleti, desno na 31, levo na 9, desno na 44.",  # in Slovene
    "Гараж адчыняецца так: тры, адзін, сем, дзевяць.",  # what a garage opens with, in Belarusian digit names
    "Còd a' gheata: seachd, trì, ochd, a h-aon.",  # a gate's code in Scottish Gaelic digit names
    "PIN ny finday: fito, telo, valo, roa.",  # a PIN in Malagasy digit names
    "ढोकाको ताल्चा: नौ, दुई, शून्य, पाँच।",  # a door's lock in Nepali digit names
    "Paswọọdụ Instagram nke ụlọ ahịa bụ Aba_Market_77",  # a password after Igbo's word for one
    "DeepL (Übersetzungen): 9a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d:fx",  # a DeepL API Free key
    "Inombolo kamazisi kaMama: 6502150123080",  # a South African id after Xhosa's word for an identity document
    "the 12 words, in order: expire civil blue birth auction tooth renew goddess dune argue gown crowd",  # a BIP-39 phrase after a word of its list
    "The gpg key's passphrase: \"kettle under the stairs\"",  # a quoted passphrase of words after its name
    "Hasło główne do KeePassa (żebyśmy nie zapomnieli): „kotek pod jabłonką w Sanoku 12”",  # a quoted phrase and a number on a password manager's line
    "క్యాంప్ వైఫై: నెట్‌వర్క్ Sunseeker_4G, కీ marmalade77sky",  # a Wi-Fi key after Telugu's "key"
])
def test_what_the_round_on_tune43_read(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_a_phone_number_with_its_area_code_in_brackets_is_no_code():
    assert privacy.sensitive_reason("Locksmith on call: Ace Lock & Key, (212) 555-0148.") is None


def test_the_seventeenth_sessions_new_users_break_is_read_whole():
    """review72: a new user's break of the gate after the session's round published 4 of its 36 secrets (a Japanese
    "合言葉" of two words and a number, a PIN told digit by digit among words, a Welsh safe's combination, a Basque
    door's code) and refused none of its 30 ordinary memories; all four are read now, and the ordinary ones still
    pass."""
    assert _wrong("review72") == ([], [])


@pytest.mark.parametrize("text", [
    "Yr hen sêff yn y garej: cyfuniad 07-41-23.",  # a safe's combination, in Welsh
    "Sarrerako ate-kodea 4719 da, ez ahaztu.",  # an entrance door's code, in Basque
    "The gate's PIN, digit by digit: it starts with 5, then 8, then 2 and ends with 6.",  # digits alone among words
    "家のWi-Fiの合言葉は「あおぞら-うみべ-42」です",  # a Japanese passphrase of two words and a number
])
def test_what_the_seventeenth_sessions_break_found_read_in_general(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Cyfuniad o liwiau 12-38-07 yn y catalog.",  # a colour combination's number, in Welsh
    "Read the serial digit by digit: 4 of 5, 2 of 5",  # no code's word on the line
    "合言葉は「山」と「川」",  # the classic password and answer, no value of their shape
])
def test_and_what_it_still_passes(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_new_users_break_of_the_seventeenth_sessions_final_gate_is_read_whole():
    """review73: a new user's break of the gate at the seventeenth session's end published 6 of its 36 secrets (a
    Hausa password and a Hausa door's code after "it is", a password spelled letter by letter, an Amex told in two
    halves, a social security number in words, a Romanian "cheia API" before 32 letters and digits) and refused
    none of its 30 ordinary memories; all six are read now, and the ordinary ones still pass."""
    assert _wrong("review73") == ([], [])


@pytest.mark.parametrize("text", [
    "Kalmar sirri ta banki ita ce Sokoto2019ruwa",  # Hausa's word for a password, then "it is"
    "Lambar bude kofar ofis 4410",  # the number that opens a door, in Hausa, its digits alone after it
    "lambar sirri ta ATM dina 5830",  # a card's secret number with no "it is"
    "The Wi-Fi password, letter by letter: k e s t r e l, then two two.",  # spelled a letter at a time
    "Her Visa: four five three nine, four one eight seven, nine two seven four, nine one seven four; exp 09/27",
    "The card number goes 4539 4187, then 9274 9174",  # a card in two halves
    "His SSN: five three six, two two, one zero four eight",  # a social security number in words
    "La clé API de Mailgun est 9fk2mx81qz0pl4ts7vb3nw6ye5rc0hja",  # a key beside "API" in French, small letters
    "API-Schlüssel für Postmark ist 7c1kq9zx2mw8lp4tr6vb0ny3he5sd1ga",
    "رقم التعريف الشخصي لبطاقتي 5830",  # Arabic's "personal identification number" of a card
])
def test_what_the_break_of_the_seventeenth_sessions_final_gate_found_read_in_general(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Lambar ƙofar gida ita ce 12",  # a house's number, in Hausa
    "Spell the surname letter by letter for the courier: K O W A L S K I",  # a name spelled, no password about
    "Card ending 4242 was charged 1299 on 15 March",  # two numbers, not one in parts
    "My card's PIN is not one two three four, it changed",
    "La clé API de Mailgun est dans le coffre 1Password",  # where the key is, not the key
    "La clé API est 2048 bits, rotation tous les 90 jours",
    "رقم التعريف الشخصي للموظف 10234",  # an employee's identification number
    "اتصل بخدمة العملاء على 8001 وقل إنك نسيت رقم التعريف الشخصي للبطاقة.",  # a forgotten PIN, a helpline's number
])
def test_and_what_the_mends_of_that_break_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# -- the round on tune44 (a forty-sixth writer, weighted to prose passwords: a vet clinic's practice manager, a
# sailing instructor, a PhD student, a small landlord, a teenage esports player's parent, in 24 languages no earlier
# pool named); heldout43 held out. 77 of 100 caught before the round, no ordinary text refused.

def test_the_round_on_tune44_misses_six_leaks_and_refuses_no_ordinary_text():
    """Left: a padlock's year-shaped code before it in Frisian ("1953 — dat iepenet it hangslot"), a Shona
    account at a bank named only by its initials, a Tok Pisin lock's digits in Tok Pisin number words, an
    Assamese smart lock's digits before "this opens it", a shed's code as a year in English words, a PIN with a
    Kurdish ending ("PINi"); and no ordinary text refused."""
    refused, missed = _wrong("tune44")
    assert refused == []
    assert missed == _ids("p46-leak", 90, 189, 127, 171, 19, 145, width=4)


@pytest.mark.parametrize("text", [
    "Kadena ya bicyclette: 7-3-9.",  # a padlock in Lingala, three digits apart
    "El candáu del trasteru abre col 5-1-4-8",  # in Asturian
    "די קאָמבינאַציע פֿון דער גאַראַזש: 4-9-1-6",  # a combination in Yiddish
    "Lok bilong haus kuk: 4 8 1 6",  # in Tok Pisin
    "De kaaikast giet iepen mei 3 8 2 6.",  # a key cabinet in Frisian, what it opens with
    "Wawa wasipa kandadon: 9-1-7",  # in Quechua
    "কাৰ্যালয়ৰ দুৱাৰৰ ক'ড: ৩ ৭ ১ ৯",  # a door's code in Assamese, in its digits
    "ଘରର ଦୁଆର କୋଡ୍: ୪ ୦ ୮ ୨",  # in Odia
    "Roditeljska kontrola na konzoli: 8 3 1 6",  # parental control in Bosnian
    "Baatu jàll bu logiciel bi: Sunu_Gaal25, jëfandikukat moussa.d",  # a password after Wolof's word for one
    "Kupuhipa o te īmēra: Kereru_Ngahere5",  # Māori's
    "Pakasqa siminqa: Qori_Inti24, usuario tika.q",  # Quechua's
    "ପାସୱାର୍ଡ: Chilika_Lake8",  # Odia's
    "Niverenn surentez sokial: 1 84 05 75 116 015 94",  # a French social security number, named in Breton
    "OBS: live_908123456_Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1",  # a Twitch stream key
    "kodakani backupi Instagram: 9kq2xmpa r8vw3nzq m2pq8xta w5nk7qzr",  # backup codes, their word first
    "ICICI a/c 003901234567, Powai",  # an account at an Indian bank
])
def test_what_the_round_on_tune44_read(text):
    assert privacy.sensitive_reason(text) is not None, text


def test_the_review_of_the_eighteenth_sessions_mends_is_held_to_what_the_narrowed_forms_give():
    """review74 (a new user's break mended, the thirteenth trial and the round on tune44): before them the gate
    refused 9 of its 169 ordinary texts and caught 21 of its 86 secrets; the first forms refused 45 and caught 66;
    narrowed, it refuses these 8 (each refused before the session too) and misses these 6."""
    refused, missed = _wrong("review74")
    assert refused == _ids("r74-benign", 62, 70, 126, 128, 129, 130, 147, 150, width=3)
    assert missed == _ids("r74-leak", 45, 46, 53, 76, 85, 86, width=3)


# What review74 found the first forms refused, which the narrowed ones pass (one of each kind).
@pytest.mark.parametrize("text", [
    "Visa helpline numbers for the sailing club: 415 555 0123 and 415 555 0199 (fraud team).",  # two phone numbers
    "Mastercard charges this week: 54, 120, 38, 260, 75, 19, 88, then 42 for fuel.",  # amounts
    "Social security office: desks 101, 102, 103 handle replacements, desk 104 handles appeals.",  # the office's desks
    "Vet portal login: the clinic ID spelled out is P A W S 0 1, the password is with the manager.",  # an id spelled
    "Passwort-Hotline angerufen, Nachname buchstabiert: S C H M I D T, Ticket bleibt offen.",  # a surname spelled
    "Boarding pass reissued; the agent spelled out the booking reference letter by letter: Q X 7 T R P.",
    "Empreinte de la clé API : 9f8e7d6c5b4a3f21 (la clé elle-même est dans le coffre).",  # a key's fingerprint
    "Clave API: MAPBOX_TOKEN_2024_PROD (variable de entorno, el valor en el gestor).",  # a variable's name
    "Cheia API pentru staging: build_20240611_rc2 a picat testele de integrare.",  # a build's name
    "رقم التعريف الشخصي لهاتف المكتب تحويلة 2150 للاستفسار.",  # an office phone's extension
    "דער אַלטער שלאָס איז געבויט געוואָרן אין 1 5 8 0, זאָגט דער פֿירער.",  # a castle, built in 1580
    "Kadena ya ndako: 3 4 5 6 7 bato bayei",  # a count of people
    "Roditeljska kontrola na tabletu: dijete smije 2 sata dnevno, od 1600 do 1800.",  # hours
    "Lambar buɗe ƙofa ɗakin 1204 ba ta aiki, an kira mai gyara.",  # a room's number
    "ପୋଷ୍ଟାଲ କୋଡ୍: ୭ ୫ ୧ ୦ ୦ ୨ (ଭୁବନେଶ୍ୱର ଅଫିସ)।",  # an Odia postal code
    "পাঠ্যক্ৰমৰ ক'ড: ২ ০ ৫ ৭, পৰীক্ষা সোমবাৰে।",  # an Assamese course's code
    "kodakani backupi Veeam: job4471 job4472 job4473 job4474 hemû serkeftî bûn.",  # a backup's job ids
])
def test_a_review_of_the_eighteenth_sessions_mends_passes_these(text):
    assert privacy.sensitive_reason(text) is None, text


@pytest.mark.parametrize("text", [
    "Password for the boat club laptop, one letter at a time: m a r l i n 4 2",  # what it opens between
    "My login password, spelled out so you don't mistype it: T. R. O. U. T. 8.",  # why, then a colon
    "Card number in two halves: 5222 3334 and 4455 5664",  # "and" where halves are said
    "Soc sec is five two three, four one, seven seven eight eight",
    "Visa card 4539-4187 then 9274-9174",  # the halves in dashed groups
    "Kandado wasipa: 3917",  # a padlock's code with no space
    "Roditeljska kontrola na TV-u: 4826",
    "لقد أعطيت رقم التعريف الشخصي لبطاقة الصراف لأخي وهو 4471",  # "and it is", four words after
])
def test_and_what_it_found_missed_is_read_now(text):
    assert privacy.sensitive_reason(text) is not None, text


# -- the thirteenth trial through the Hermes provider, tuned on (held out for three sessions): what it published,
# read in general form.
@pytest.mark.parametrize("text", [
    "Locker code at the pool's changing room is 8316",  # a code named, then where its lock is, then "is"
    "The flat's entrance, code 7720B, then the lift",  # a door's code with a letter
    "wifi pass คือ 0891234567",  # Thai's "is" after a password's label
    "კარადის სეიფი: 3-8-1-5",  # a safe in Georgian, its digits apart
    "usafrtxoebis kitxva, bebias sofeli: Sachkhere",  # a security question, Georgian in Latin letters
])
def test_what_the_thirteenth_trial_found_read_in_general(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Gate motor fault: code E1234 again",  # an error's code on a gate's line
    "Door model code 4411B from Hörmann",  # a product's
    "The locker code at the pool is on the sign by reception",
])
def test_and_what_its_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


def test_a_new_users_break_of_the_eighteenth_sessions_gate_is_read_whole():
    """review75: a new user's break of the gate after the session's round published 3 of its 36 secrets (a Malaysian
    IC number after "Nombor IC", an Amex whose second half is seven digits after "the rest is", a Persian GitHub
    recovery code) and refused 1 of its 30 ordinary memories (Ukraine's dialling code, "+380"); all are read now."""
    assert _wrong("review75") == ([], [])


@pytest.mark.parametrize("text", [
    "My Visa starts 4539 4187 and the rest is 92749174",  # a half of eight digits
    "No IC: 900101-10-1234",  # a Malaysian identity card's number after "IC"
    "کدهای پشتیبان اینستاگرام: 4821 0937, 5530 1298",  # backup codes, Persian's word for "backup" after "codes"
    "کد بازیابی دراپ‌باکس من b8x2-k4m7-91qa-z3p5 است",  # a recovery code, in Persian
    "i-PIN yocingo lwami ngu-9031, ungatsheli muntu",  # a PIN after Zulu's "is" joined by a dash
])
def test_what_the_break_of_the_eighteenth_sessions_gate_found_read_in_general(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Код міста Львів 032, не забудь",  # a city's dialling code, in Ukrainian
    "کد بازیابی را در سال 2023 گرفتم",  # a recovery code talked of, a year
])
def test_and_what_its_mends_keep(text):
    assert privacy.sensitive_reason(text) is None, text
