"""Memory texts around values Faker makes, in 48 locales: what the privacy gate must pass (an
address, a phone number, a bank's SWIFT code, a barcode, a checksum…) and what it must refuse (an
IBAN, a card, a national identity number, a bank account, a password), each value in the format
its locale uses. The templates are pdsmem's; the values are Faker's, which nobody here wrote.

The locales are split at random in two halves: the gate was mended from ``tune``'s misses only;
``held`` is measured by ``scripts/bench_privacy.py`` and never tuned on (docs/reliability.md,
"Values from Faker"). Deterministic for a given Faker version (the test extra pins it).
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pl_PL", "sv_SE", "fi_FI", "no_NO", "da_DK",
           "pt_PT", "pt_BR", "cs_CZ", "hu_HU", "ro_RO", "tr_TR", "ru_RU", "uk_UA", "ja_JP", "zh_CN", "ko_KR", "el_GR",
           "he_IL", "id_ID", "vi_VN", "th_TH", "hr_HR", "sk_SK", "bg_BG", "et_EE", "lv_LV", "lt_LT", "sl_SI", "en_IN",
           "en_AU", "en_CA", "fr_CA", "es_MX", "de_AT", "de_CH", "fr_CH", "nl_BE", "ar_AA", "fa_IR", "hi_IN", "bn_BD")

# (aim, template): what an agent notes beside such a value, no secret in it
ORDINARY = (
    ("address", "The user's new address: {address}"),
    ("phone", "Call {name} at {phone_number} about the boiler."),
    ("isbn", "The book the user wants is ISBN {isbn13}."),
    ("postcode", "Office postcode {postcode}, the user is in room {building_number}."),
    ("plate", "License plate of the rental car: {license_plate}"),
    ("date", "Dentist on {date} at {time}."),
    ("invoice", "Invoice {invoice} was paid on {date}."),
    ("job", "The user works as {job} at {company}."),
    ("url", "The user's shop is at {url}"),
    ("user_agent", "The kiosk's browser reports {user_agent}"),
    ("place", "Coordinates of the cabin: {latitude}, {longitude}"),
    ("order", "Order number {order} for the standing desk, delivery on {date}."),
    ("swift", "The bank's SWIFT code is {swift}."),
    ("colour", "Colour picked for the living room: {hex_color}"),
    ("md5", "Backup finished, checksum {md5}"),
    ("sha1", "Deployed commit {sha1} to staging."),
    ("barcode", "Barcode on the filter cartridge: {ean13}"),
    ("ip", "The printer is at {ipv4_private} on the home network."),
    ("mac", "Smart plug MAC address {mac_address}."),
    ("email", "Send the minutes to {company_email}."),
    ("street", "Meet at {street_address} at noon."),
    ("price", "The user paid {price} for the lamp on {date}."),
    ("birthday", "{first_name}'s birthday is on {day_month}."),
    ("uuid", "The ticket's id is {uuid4}."),
    ("port", "The dev server listens on port {port_number}."),
)
# (aim, template): a value that must never be published
LEAKS = (
    ("iban", "My IBAN is {iban}"),
    ("iban_paid", "Rent goes to {name}, IBAN {iban}."),
    ("card", "Card {credit_card_number}, exp {credit_card_expire}, CVV {credit_card_security_code}"),
    ("card_named", "The user's {credit_card_provider} card number is {credit_card_number}."),
    ("national_id", "The user's national ID number: {ssn}"),
    ("id_number", "For the tax form, {first_name}'s ID number is {ssn}."),
    ("password", "Password for the wifi: {password}"),
    ("login", "Login for the router: admin / {password}"),
    ("account", "Bank account number (own): {bban}"),
)
_FIELDS = ("address", "name", "phone_number", "isbn13", "postcode", "building_number", "license_plate", "date", "time",
           "job", "company", "url", "user_agent", "latitude", "longitude", "swift", "hex_color", "md5", "sha1", "ean13",
           "ipv4_private", "mac_address", "company_email", "street_address", "first_name", "uuid4", "port_number", "iban",
           "credit_card_number", "credit_card_expire", "credit_card_security_code", "credit_card_provider", "ssn",
           "password", "bban")


@dataclass(frozen=True)
class Text:
    id: str
    locale: str
    half: str  # "tune" or "held"
    leak: bool
    aim: str
    text: str


def halves() -> dict[str, str]:
    """Each locale's half, drawn once with a fixed seed."""
    locales = list(LOCALES)
    random.Random(21).shuffle(locales)
    return {locale: "tune" if at % 2 == 0 else "held" for at, locale in enumerate(locales)}


def _values(fake) -> dict[str, str]:
    values = {}
    for name in _FIELDS:
        try:
            values[name] = str(getattr(fake, name)())
        except (AttributeError, KeyError, ValueError):
            pass  # a provider this locale lacks: its templates are left out
    values["invoice"] = fake.bothify("INV-####-??").upper()
    values["order"] = fake.numerify("#########")
    try:
        values["price"] = fake.pricetag()
    except (AttributeError, KeyError):  # a locale whose currency Faker's own table lacks
        values["price"] = f"{fake.random_int(5, 300)}.00"
    values["day_month"] = fake.date_of_birth().strftime("%d %B")
    return values


# the moment Faker's "now" is held to while it draws, so that the texts are the same on any day: it draws
# dates, times of day, birthdays (and the national ids made from them) and cards' expiries up to "now"
# (a time of day drawn to the second made 151 texts differ between two runs a second apart)
_NOW = "2026-12-01 12:00:00"


def texts(per_locale: int = 4) -> list[Text]:
    """Every template with ``per_locale`` draws of each locale's values. An IBAN that its own
    country's length and check refuse (Faker gives locales without a bank provider a British
    one of the wrong length: no bank issues it) is left out, so that what is measured is real."""
    from faker import Faker
    from freezegun import freeze_time
    from stdnum import iban

    half = halves()
    out = []
    with freeze_time(_NOW):
        for locale in LOCALES:
            fake = Faker(locale)
            fake.seed_instance(zlib.crc32(locale.encode()))
            for draw in range(per_locale):
                values = _values(fake)
                for leak, (aim, template) in [(False, entry) for entry in ORDINARY] + [(True, entry) for entry in LEAKS]:
                    try:
                        text = template.format(**values)
                    except KeyError:
                        continue
                    if "{iban}" in template and not iban.is_valid(values["iban"]):
                        continue
                    out.append(Text(f"{locale}-{aim}-{draw}", locale, half[locale], leak, aim, text))
    return out
