"""The privacy gate on what people told an agent, stored by the Hermes agent's own memory provider
(docs/reliability.md, "Three trials with the Hermes agent's provider").

The first trial (tests/fixtures/hermes_trial.json) is tuned on: every secret refused, every ordinary
memory kept. Three of its secrets were published before the rules read them: a door's code after
", it's", a passphrase of four dashed words and a number after "log into … with", and a private key
in hex right after its name. The second and the third (hermes_trial_held*.json) are held out: the
rules were not changed for them, and the secrets they still pass and the ordinary memories they
refuse are listed, so that a change sees them move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdsmem.mapping import privacy

TRIAL = json.loads((Path(__file__).parent / "fixtures" / "hermes_trial.json").read_text(encoding="utf-8"))
# the held-out trials, and what of each the gate still publishes or refuses (docs/reliability.md says why)
HELD = {
    "hermes_trial_held.json": ({
        "Wnuczek założył mi Facebooka. Login to mój e-mail, a hasło dał mi takie: krowka.Milka44",  # a word between
        "Old Ubuntu box in the shop backroom: root, toor_Mooca2019",  # a user and a password apart by a comma
        "Namba ya siri ya kadi yangu ya Equity ni 5508",  # Swahili's "secret number", a card's PIN
    }, set()),
    "hermes_trial_held2.json": ({
        "문화상품권 핀번호 4185-2290-6631-0744 아직 안 씀",  # a gift card's PIN in Korean
        "엄마 카드로 게임 결제함 ㅠ 번호 9410 3384 8780 0467 유효기간 08/28",  # a card of an issuer the gate lacks
        "Kreditkarte der Firma: 37825 18064 57787, gültig bis 03/28, Prüfziffer 1234",  # an Amex grouped 5-5-5
        "Mi CLABE para que me depositen la pensión: 012180015602398479",  # Mexico's account number: no check
        "El NIP de mi tarjeta de BBVA es 2719, no se lo digas a nadie",  # Mexico's word for a PIN
        "Lo que me dijo el señor del banco por teléfono que no se lo diera a nadie: 774921",  # no word for it
        "Apartmanın kapı kodu 1907, Fenerbahçe'nin kuruluş yılı, kolay hatırlanıyor",  # a code that is a year
        "Den Zugang zum Hausflur-Tastenfeld hat der Vermieter geändert: jetzt 5520 und dann Raute",
        "La contraseña de mi celular es la fecha de mi boda, 150672",  # words between the name and the value
        "Kız kardeşimin laptopunun giriş parolası annemin doğum günü: 12031968",
        "Gmail uygulama şifresi: qwhr lmzt vbxk pfse",  # an app password in four groups, in Turkish
        "Fürs Heim-NAS nehme ich die Passphrase pferd batterie heftklammer richtig",  # four plain words
        "Hab den Vault-Unseal-Key notiert: 4tQ7m+Lx9Vz2Wk8Rp1Bn3Yc6Hd0Js5Fg7Ae2Ku4Mi=",  # a key after a verb
    }, {
        "Login formunda password alanı type=password, autocomplete=current-password olmalı",  # a form's attributes
        "Monitoring: Zabbix 6.4.12 auf monitor01, Grafana 10.4",  # a host's name after "auf"
    }),
}


def _held(name: str) -> dict:
    return json.loads((Path(__file__).parent / "fixtures" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("index", range(len(TRIAL["secrets"])))
def test_every_secret_of_the_trial_is_refused(index):
    assert privacy.sensitive_reason(TRIAL["secrets"][index]) is not None, f"secret {index} would be published"


@pytest.mark.parametrize("index", range(len(TRIAL["ordinary"])))
def test_every_ordinary_memory_of_the_trial_is_kept(index):
    assert privacy.sensitive_reason(TRIAL["ordinary"][index]) is None, f"ordinary memory {index} refused"


@pytest.mark.parametrize("turn", TRIAL["turns"], ids=lambda turn: "with a secret" if turn["secret"] else "without")
def test_a_turn_is_a_transcript_and_its_secret_is_refused_even_when_transcripts_are_published(turn):
    summary = f"User: {turn['user']}\nAssistant: {turn['assistant']}"  # as the provider writes a turn
    event = {"eventType": "episode", "summary": summary, "privacyScope": "shared", "visibility": "shared"}
    with pytest.raises(privacy.PrivacyRefused, match="transcript"):
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary})
    if turn["secret"] is None:
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary},
                                  include_transcript=True)
        return
    with pytest.raises(privacy.SensitiveContent) as refused:
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary},
                                  include_transcript=True)
    assert turn["secret"] not in str(refused.value)


@pytest.mark.parametrize("name", sorted(HELD))
def test_a_held_out_trials_secrets_are_refused_but_those_listed(name):
    missed = {text for text in _held(name)["secrets"] if privacy.sensitive_reason(text) is None}
    assert missed == HELD[name][0]


@pytest.mark.parametrize("name", sorted(HELD))
def test_a_held_out_trials_ordinary_memories_are_kept_but_those_listed(name):
    assert {text for text in _held(name)["ordinary"] if privacy.sensitive_reason(text)} == HELD[name][1]


@pytest.mark.parametrize(("text", "why"), [
    ("The building on Rue Oberkampf has a door code, it's 5390", "a street's word no longer hides the code"),
    ("the wifi password, it's hunter22", "', it's' says what it is"),
    ("the wifi password, it's hunter22, don't share it", "the value ends its clause"),
    ("I log into my work laptop with correct-horse-battery-staple-9", "four dashed words and a number"),
    ("my metamask private key 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "hex after its name"),
    ("privkey 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "hex after its name"),
])
def test_what_the_trial_found(text, why):
    assert privacy.sensitive_reason(text) is not None, why


@pytest.mark.parametrize("text", [
    "The door code, it's on the fridge",
    "the PIN, it is 4 digits long",
    "Password manager rollout: pilot group is team-platform-infra-2, the rest in May.",
    "tx hash 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    "contract address 0x4c0883a69102937d6231471b5dbb6204fe512961",
    # a review's ordinary texts the first form of these rules refused
    "Rotated the staging DB password, it's 2026 and the old one dated from 2019.",
    "The pin on the map, it's 4821 Elm Street, the blue house.",
    "About the password, it's 8:30 already, do it tomorrow.",
    "The VPN profile I connect with is office-network-vienna-main-1.",
    "The email campaign template is spring-sale-newsletter-final-3.",
    "The USDC token contract is 0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 on mainnet.",
    "Lost the private key for 0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae, funds are gone.",
    "Signed with the private key; tx 0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060 confirmed.",
    "The session id 0x1f2e3d4c5b6a79881f2e3d4c5b6a7988 appeared in the crash log twice.",
])
def test_and_what_it_still_passes(text):
    assert privacy.sensitive_reason(text) is None
