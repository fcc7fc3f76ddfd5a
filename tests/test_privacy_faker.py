"""The privacy gate on memory texts around values Faker makes in 48 locales (scripts/devkit/
faker_texts.py; docs/reliability.md, "Values from Faker"): an IBAN, a card, a national identity
number, a bank account and a password are refused; an address, a phone number, a bank's SWIFT
code, a barcode, a checksum and the rest are not. Only the half of the locales the gate was mended
from is asserted; the other half is measured by scripts/bench_privacy.py."""

from __future__ import annotations

import pytest
from devkit.faker_texts import texts

from pdsmem.mapping import privacy
from pdsmem.mapping.privacy import learned

_TUNE = [text for text in texts() if text.half == "tune"]

# what the tuned half still gets through: an identity number named only "ID number" whose country's
# check fails or that no check knows (Hungarian, Russian, Bangladeshi, and a US-shaped one in
# Slovak). (A password after a user that reads as a variable, "$EaZDApn89", or holds a sign the
# rules stop at, "71+K+0Go^p", "j(On0JusTS", is caught by the learned layer.)
_STILL_MISSED = {"hu_HU-id_number-1", "hu_HU-id_number-2", "hu_HU-id_number-3", "ru_RU-id_number-1", "ru_RU-id_number-2",
                 "ru_RU-id_number-3", "sk_SK-id_number-2", "bn_BD-id_number-3"}
# the ordinary texts of the tuned half the learned layer refuses (mapping/privacy/learned.py; the
# rules pass them): a colour told in hexadecimal after a colon, an address's line of digits and
# letters, a bank's SWIFT code after "is". Its price for the leaks it catches (docs/reliability.md,
# "The learned layer"): 3 of the 2,400.
_LEARNED_REFUSES = {"fr_FR-colour-1", "en_IN-address-2", "uk_UA-swift-1"}


def test_no_ordinary_text_around_fakers_values_is_refused():
    refused = {text.id: privacy.sensitive_reason(text.text) for text in _TUNE if not text.leak
               and privacy.sensitive_reason(text.text) is not None}
    # (ids and reasons only: the texts are made up, but the habit holds)
    assert set(refused) == _LEARNED_REFUSES
    assert all(reason.startswith(learned.REASON) for reason in refused.values())


def test_every_leak_around_fakers_values_is_caught_but_those_listed():
    missed = {text.id for text in _TUNE if text.leak and privacy.sensitive_reason(text.text) is None}
    assert missed == _STILL_MISSED


def test_the_texts_are_the_same_on_any_day():
    # Faker draws times, dates, birthdays and expiries up to "now": drawn without a fixed "now", 151
    # texts changed between two runs a second apart, and more from one day to the next
    from freezegun import freeze_time

    with freeze_time("2031-07-15 03:04:05"):
        later = texts()
    assert later == texts()


def test_the_tuned_half_holds_every_kind_of_value():
    # the half is large enough to mean something: all 48 locales' kinds are drawn in each half
    assert len({text.locale for text in _TUNE}) == 24
    assert {text.aim for text in _TUNE if text.leak} == {"iban", "iban_paid", "card", "card_named", "national_id",
                                                         "id_number", "password", "login", "account"}


@pytest.mark.parametrize("text", [
    "The bank's SWIFT code is DEUTDEFF500.",  # a BIC is printed on every statement
    "BIC: BNPAFRPP, for the transfer to the landlord",
    "Barcode on the filter cartridge: 4016661116956",  # 13 digits whose Luhn check holds
    "EAN 4006381333931 for the replacement lamp",
])
def test_a_banks_code_and_a_products_number_pass(text):
    assert privacy.sensitive_reason(text) is None


@pytest.mark.parametrize("text", [
    "The user's Maestro card number is 502093114671.",  # twelve digits, a Maestro's shortest
    "The user's JCB card number is 213117053278383.",  # JCB's old 15-digit range
    "The user's national ID number: 187025313066604",  # a French NIR, named only "national ID"
    "Personal identity number 13003216315 for the clinic form",
    "Bank account number (own): 52916443724882528052120",  # 23 digits
    "Login for the router: admin / $q18)Fs1rf",  # a sign after "$name": no reference
    "Login for the NAS: admin / %ai%DPmn4o",
])
def test_a_value_named_for_what_it_is_is_refused(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    "The password comes from $DB_PASS in the compose file.",
    "The token is read from ${API_TOKEN} at start-up.",
    "password: %DB_PASSWORD% in the Windows service's settings",
    "The order number for the desk is 123456789012.",  # no card named
])
def test_a_reference_and_an_unnamed_number_still_pass(text):
    assert privacy.sensitive_reason(text) is None
