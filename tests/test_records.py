"""The mappers against docs/mapping.md: export, import, privacy, keys, supersession, round trips."""

from __future__ import annotations

import base64
import json
import random
import re
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pdsmem.errors import MappingError, PrivacyRefused, RecordInvalid
from pdsmem.lexicons import RECORD_NSID
from pdsmem.mapping import contract, privacy
from pdsmem.mapping.datamodel import Cid, cid_for_json
from pdsmem.mapping.privacy import learned
from pdsmem.mapping.from_record import from_record, from_records
from pdsmem.mapping.records import (
    EXT_KEY,
    ImportScope,
    confidence_from_string,
    confidence_to_string,
    record_key,
)
from pdsmem.mapping.syntax import AtUri, Datetime, Tid
from pdsmem.mapping.to_record import to_record, to_records
from devkit.events import SCOPE, episode, fact

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
OTHER_DID = "did:plc:44ybard66vv44zksje25o7dz"
SALT = "pepper"


def home_scope(**overrides) -> ImportScope:
    return ImportScope(did=DID, agent_id="coder", profile_id="default", salt=SALT, **overrides)


def home_fact(n: int = 0, **overrides) -> dict:
    """A fact whose scope is the repository owner's participant scope (so it can come back)."""
    scope = {**home_scope().fields}
    return fact(n, **scope, **overrides)


def _all_strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_all_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _all_strings(v)]
    return [value] if isinstance(value, str) else []


# --- event -> record ------------------------------------------------------------------------


def test_fact_maps_field_by_field():
    event = contract.with_ids(fact(1))
    view = to_record(event, DID)
    value = view.value
    assert value["$type"] == RECORD_NSID
    assert value["content"] == event["text"]
    assert value["createdAt"] == event["validFrom"]
    assert value["kind"] == "preference"
    assert value["provenance"] == {"agent": "hermes"}
    assert "supersedes" not in value
    ext = value[EXT_KEY]
    assert ext["eventType"] == "fact" and ext["id"] == event["factId"]
    assert ext["confidence"] == "0.85"
    assert ext["subjectKey"] == event["subjectKey"] and ext["sourceEventId"] == "turn-1"
    assert len(ext["proof"]) == 64
    assert view.cid == str(cid_for_json(value))
    uri = AtUri.parse(view.uri)
    assert (uri.authority, uri.collection, uri.rkey) == (DID, RECORD_NSID, str(record_key(event["validFrom"], event["factId"])))


def test_scope_fields_never_leave():
    event = contract.with_ids(fact(2, privacyScope="shared", sandboxEligible=True))
    value = to_record(event, DID).value
    strings = _all_strings(value)
    for name in ("agentId", "profileId", "privacyScope", "participantScopeHash", "sandboxEligible", "active"):
        assert name not in strings
    assert SCOPE["participantScopeHash"] not in strings
    assert "coder" not in strings  # the agentId value


def test_episode_maps_without_transcript_unless_asked():
    event = contract.with_ids(episode(3))
    value = to_record(event, DID).value
    assert value["content"] == event["summary"] and value["kind"] == "context"
    assert value["createdAt"] == event["observedAt"]
    assert event["userText"] not in _all_strings(value) and event["assistantText"] not in _all_strings(value)
    assert value[EXT_KEY]["eventType"] == "episode" and value[EXT_KEY]["id"] == event["eventId"]
    with_transcript = to_record(event, DID, include_transcript=True).value
    assert with_transcript[EXT_KEY]["transcript"] == {
        "userText": event["userText"],
        "assistantText": event["assistantText"],
    }


def test_ids_are_computed_when_absent_and_checked_when_present():
    raw = fact(4)
    assert to_record(raw, DID).value[EXT_KEY]["id"] == contract.fact_id(raw)
    with pytest.raises(Exception, match="does not match"):
        to_record({**raw, "factId": "0" * 64}, DID)


def test_turn_index_is_written_as_an_integer_a_pds_accepts():
    assert to_record(episode(12, turnIndex=7.0), DID).value[EXT_KEY]["turnIndex"] == 7
    assert to_record(episode(12, turnIndex=2**53 - 1), DID).value[EXT_KEY]["turnIndex"] == 2**53 - 1
    with pytest.raises(MappingError, match=r"turnIndex: integer 9007199254740992 is beyond ±\(2\^53 - 1\)") as caught:
        to_record(episode(12, turnIndex=2**53), DID)
    assert caught.value.path == "$.turnIndex"
    # regression: the number was formatted through a float and printed as …568
    with pytest.raises(MappingError, match=r": turnIndex: integer 12345678901234567 is beyond"):
        to_record(episode(12, turnIndex=12345678901234567), DID)


def test_record_keys_are_deterministic_tids_near_created_at():
    event = contract.with_ids(fact(5))
    assert to_record(event, DID).uri == to_record(dict(event), DID).uri
    key = record_key(event["validFrom"], event["factId"])
    created = Datetime.parse(event["validFrom"]).epoch_micros()
    assert 0 <= Tid.parse(str(key)).timestamp_us - created < 1_000_000
    assert record_key(event["validFrom"], event["factId"], attempt=1) != key


def test_record_keys_do_not_collide_within_one_second():
    same_second = [contract.with_ids(fact(n, validFrom="2026-08-18T00:00:00Z")) for n in range(2000)]
    keys = {str(record_key(e["validFrom"], e["factId"])) for e in same_second}
    assert len(keys) == 2000


def test_over_long_content_is_refused_with_the_lexicon_reason():
    with pytest.raises(RecordInvalid, match="10000") as bytes_err:
        to_record(fact(6, text="é" * 5001), DID)
    assert bytes_err.value.path == "$.content"
    with pytest.raises(RecordInvalid, match="2500"):
        to_record(fact(6, text="a" * 2501), DID)
    to_record(fact(6, text="a" * 2500), DID)
    to_record(fact(6, text="👍🏽" * 1250), DID)  # 10000 bytes, 1250 graphemes: fine


def test_bad_datetime_is_refused_naming_the_field():
    with pytest.raises(Exception) as err:
        to_record(fact(7, validFrom="2026-08-18 00:00:00"), DID)
    assert "validFrom" in str(err.value)


# --- privacy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("override", [{"privacyScope": "private"}, {"visibility": "participant"}])
def test_private_memories_need_the_acknowledgement(override):
    event = fact(8, **override)
    with pytest.raises(PrivacyRefused, match="private") as err:
        to_record(event, DID)
    assert "--publish-private" in str(err.value)
    assert contract.fact_id(event) in str(err.value)
    to_record(event, DID, publish_private=True)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("My key is -----BEGIN OPENSSH PRIVATE KEY----- abc", "private key"),
        ("Use AKIAQ8EG0RZ1WXYT9JH6 for S3.", "AWS"),
        ("token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", "GitHub"),
        ("Slack xoxb-1234567890-abcdefghij", "Slack"),
        ("The key is sk-proj-abcdefghijklmnopqrstuvwx", "API secret"),
        ("password = hunter22", "credential"),
        ("POSTGRES_PASSWORD=correct-horse-battery", "credential"),
        ("export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "credential"),
        ("OPENAI_API_KEY: abcd1234efgh", "credential"),
        ('{"password": "hunter22"}', "credential"),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----", "private key"),
        ("HTTPS://admin:hunter2@db.example.com", "embedded credentials"),
        ("accessToken=ghx7Kq2mZp9", "credential"),
        ("authToken: ghx7Kq2mZp9", "credential"),
        ("clientSecret=Zq8xw2PLm4", "credential"),
        ("appPassword='hunter22'", "credential"),
        ("ClientSecret: Zq8xw2PLm4", "credential"),
        ("AccessToken=ghx7Kq2mZp9", "credential"),
        ("dbPwd=hunter22", "credential"),
        ('{"AuthToken": "ghx7Kq2mZp9"}', "credential"),
        ("openaiAPIKey=sk4abcd1234", "credential"),
        ("Authorization: Bearer abcdefghijklmnop1234", "bearer"),
        ("connect to postgres://admin:s3cret@db.example/app", "embedded credentials"),
        ("The user's wifi password is hunter22.", "credential stated in a sentence"),
        ("Her PIN is 4821", "credential stated in a sentence"),
        ("The password was changed to Tr0ub4dor&3", "credential stated in a sentence"),
        ("my passphrase is: s3cr3t-words", "credential stated in a sentence"),
        ("My password's hunter22.", "credential stated in a sentence"),
        ("Her bank PIN: 4821", "credential stated in a sentence"),
        ("The password to the router is hunter22.", "credential stated in a sentence"),
        ("The wifi password for guests is Guest2024!", "credential stated in a sentence"),
        ("pwd is hunter22", "credential stated in a sentence"),
        ("The door code is 4821.", "credential stated in a sentence"),
        ("The access code for the building is 0912.", "credential stated in a sentence"),
        ("The API key is 9f8e7d6c5b4a3f2e1d0c", "credential stated in a sentence"),
        ("the auth token was ghx7Kq2mZp9abcdef12", "credential stated in a sentence"),
        ("The API key is `3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c`.", "credential stated in a sentence"),
        ("my pin is `4821`", "credential stated in a sentence"),
        ("Password for Gmail: Hunter22!", "credential stated in a sentence"),
        ("The password for the office wifi is Tr0ub4dor&3", "credential stated in a sentence"),
        ("He changed his password to Hunter2024!", "credential stated in a sentence"),
        ("OpenWeather API key: 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "credential stated in a sentence"),
        ("Stripe secret key: sk_live_51HabcDEF123ghiJKL456mno", "credential stated in a sentence"),
        ("The gate code is #4821", "credential stated in a sentence"),
        ("the SIM PUK is 12345678", "credential stated in a sentence"),
        ("La contrase\u00f1a del wifi es Hunter2024", "credential stated in a sentence"),
        ("\u041f\u0430\u0440\u043e\u043b\u044c \u043e\u0442 wifi: Hunter2024", "credential stated in a sentence"),
        ("Her PIN number is 4821.", "credential stated in a sentence"),
        ("password hunter22", "credential stated in a sentence"),  # no verb
        ("her gmail password Hunter2024!", "credential stated in a sentence"),
        ("the password for gmail Hunter2024!", "credential stated in a sentence"),  # "for", no verb
        # a PIN or a lock's code in other languages
        ("Der T\u00fcrcode ist 4821", "credential stated in a sentence"),
        ("Haust\u00fcrcode: 4821", "credential stated in a sentence"),
        ("Meine Geheimzahl ist 4821", "credential stated in a sentence"),
        ("Le code de la porte est 4821", "credential stated in a sentence"),
        ("Le digicode est 4821B", "credential stated in a sentence"),
        ("El c\u00f3digo de la puerta es 4821", "credential stated in a sentence"),
        ("O c\u00f3digo do port\u00e3o \u00e9 4821", "credential stated in a sentence"),
        ("Il codice del bancomat \u00e8 4821", "credential stated in a sentence"),
        ("De pincode van mijn pas is 4821", "credential stated in a sentence"),
        ("Kod do drzwi to 4821", "credential stated in a sentence"),
        ("Koden till d\u00f6rren \u00e4r 4821", "credential stated in a sentence"),
        ("\u041a\u043e\u0434 \u043e\u0442 \u0434\u0432\u0435\u0440\u0438 4821", "credential stated in a sentence"),  # Код от двери
        ("\u041c\u043e\u0439 \u043f\u0438\u043d-\u043a\u043e\u0434 4821", "credential stated in a sentence"),  # Мой пин-код
        ("Le code de la porte, c'est 4821.", "credential stated in a sentence"),
        ("Le code du portail est \u00ab 4821 \u00bb.", "credential stated in a sentence"),
        ("El c\u00f3digo de la puerta es el 4821.", "credential stated in a sentence"),
        ("La combinazione della cassaforte \u00e8 4821.", "credential stated in a sentence"),
        ("Der Eingangst\u00fcrcode ist jetzt 4821.", "credential stated in a sentence"),
        ("A senha do cart\u00e3o \u00e9 4821.", "credential stated in a sentence"),  # "do" (of the)
        ("El c\u00f3digo de mi tarjeta es 4821.", "credential stated in a sentence"),
        ("\u041a\u043e\u0434 \u043e\u0442 \u043c\u043e\u0435\u0439 \u0434\u0432\u0435\u0440\u0438 \u2014 4821",
         "credential stated in a sentence"),  # Код от моей двери — 4821
        ("Password for the office wifi Tr0ub4dor&3", "credential stated in a sentence"),
        ("Passwort f\u00fcr das WLAN Sommer2024!", "credential stated in a sentence"),
        ("Passwort f\u00fcrs Netflix-Konto Kino!Abend22", "credential stated in a sentence"),
        ("L\u00f6senordet till wifi Sommar#Sol24", "credential stated in a sentence"),  # the definite form
        ("Password per Gmail Mare#Sole2024", "credential stated in a sentence"),
        ("mot de passe pour la box \u00abSoleil2024!\u00bb", "credential stated in a sentence"),
        ("Passwort f\u00fcr das WLAN \u201eSommer2024!\u201c", "credential stated in a sentence"),
        ("\u043f\u0430\u0440\u043e\u043b\u044c \u0434\u043b\u044f \u043f\u043e\u0447\u0442\u044b Hunter#2024",
         "credential stated in a sentence"),  # пароль для почты
        ("The password, hunter22, is on the fridge.", "credential stated in a sentence"),
        ("my wifi password (hunter22) is on the fridge", "credential stated in a sentence"),
        ("WLAN-Passwort Sommer2024", "credential stated in a sentence"),
        ("my debit card PIN 4821", "credential stated in a sentence"),
        ("the code for the front door is 4821", "credential stated in a sentence"),
        ("The code to the safe is 0000.", "credential stated in a sentence"),
        ("wifi\u5bc6\u7801 Hunter2024", "credential stated in a sentence"),  # wifi密码, no verb
        ("wifi\u5bc6\u7801\uff1ahunter22", "credential assignment"),  # wifi密码：, after a Latin word
        ("Telegram bot 110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "Telegram bot token"),
        ("https://api.telegram.org/bot110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe", "Telegram bot token"),
        ("wifi password - hunter22", "credential stated in a sentence"),
        ("iPhone passcode 482915", "credential stated in a sentence"),
        ("Visa PIN 4821", "credential stated in a sentence"),
        ("phone unlock PIN 4821", "credential stated in a sentence"),
        ("\u6697\u8a3c\u756a\u53f74821", "credential stated in a sentence"),  # 暗証番号4821
        ("\u94f6\u884c\u5361\u5bc6\u7801 482915", "credential stated in a sentence"),  # 银行卡密码, digits only
        ("\u30d1\u30b9\u30ef\u30fc\u30c9hunter22", "credential stated in a sentence"),  # パスワード, no verb
        ("the wifi password is just hunter22", "credential stated in a sentence"),
        ("wifi\u5bc6\u7801hunter22", "credential stated in a sentence"),  # wifi密码, no space, no verb
        ("changed her PIN to 4821", "credential stated in a sentence"),
        ("she set a PIN of 4821", "credential stated in a sentence"),
        ("PIN for the debit card: 4821", "credential stated in a sentence"),
        ("the front door code 4821", "credential stated in a sentence"),
        ("the door code - 4821", "credential stated in a sentence"),
        ("the safe combination is 4821", "credential stated in a sentence"),
        ("the code for the gym locker is 4821", "credential stated in a sentence"),
        ("the code on the front door is 4821", "credential stated in a sentence"),
        ("\u043f\u0430\u0440\u1c82\u043b\u044c: hunter22", "credential assignment"),  # a narrow o, which re folds
        ("Das Passwort ist Sommer2024!", "credential stated in a sentence"),
        ("La contraseña es Hunter22", "credential stated in a sentence"),
        ("Le mot de passe est azerty123", "credential stated in a sentence"),
        ("Passwort: hunter22", "credential assignment"),
        ("Contraseña = hunter22", "credential assignment"),
        ("mot de passe : azerty123", "credential assignment"),
        ("senha: hunter22", "credential assignment"),
        ("Hasło: hunter22", "credential assignment"),
        ("Пароль: hunter22", "credential assignment"),
        ("\u5bc6\u7801\uff1aabc123", "credential assignment"),  # 密码：, a full-width colon as written
        ("\u5bc6\u7801\u662fabc123", "credential stated in a sentence"),  # 密码是
        ("\u30d1\u30b9\u30ef\u30fc\u30c9\u306fabc123\u3067\u3059", "credential stated in a sentence"),  # パスワードは…です
        ("\ube44\ubc00\ubc88\ud638\ub294 abc123", "credential stated in a sentence"),  # 비밀번호는
        ("Traceback (most recent call last):\n  File x", "traceback"),
        ("$ ls -la\ntotal 48", "shell prompt"),
        ("The config lives in /home/alice/.config/app.toml", "filesystem path"),
        ("It is in ~/projects/secret", "filesystem path"),
        ("See C:\\Users\\alice\\notes.txt", "filesystem path"),
    ],
)
def test_sensitive_content_is_refused_even_with_the_flag(text, reason):
    with pytest.raises(PrivacyRefused, match=reason):
        to_record(fact(9, text=text), DID, publish_private=True)


@pytest.mark.parametrize(
    "text",
    [
        "The user prefers TypeScript over JavaScript.",
        "Costs $5 a month; the user pays yearly.",
        "The user writes C# and F# at work.",
        "Meetings are on Monday/Wednesday at 10:00.",
        "# Heading\nThe user likes markdown.",
        "The user's password manager is 1Password.",
        "Use the token bucket algorithm for rate limits.",
        "The user's secretary: Jane Doe.",
        "Password rules: at least twelve characters.",
        "The API key rotation happens monthly.",
        "The sortKey: name keeps the list stable.",
        "The password is required on every login.",
        "The secret is patience.",
        "The PIN is four digits long.",
        "The key is 42.",
        "Das Passwort ist abgelaufen.",
        "Shipping is 10 days; the user's opinion is 42abc.",
        "Spin is 1/2 for this particle.",
        "The user has: two cats.",
        "The user stores every API key on 1Password.",
        "The user's SSH private key is 4096-bit RSA.",
        "Max token is 4096 for this model.",
        "The hinge pin is 12mm steel.",
        "The secret is 100% butter, says the user.",
        "The user dropped a pin on 42nd Street for the meetup.",
        "The password's length is 12.",
        "The access token is OAuth2-based.",
        "The API key is 32-characters long.",
        "Their private key is ed25519, not RSA.",
        "The user writes code in Rust 2021.",
        "The error code is 4041.",
        "The password for 2FA is sent by SMS.",
        "The local building code is 2018 IBC, so the deck needs 36-inch railings.",
        "User passwords are SHA256-hashed with a per-user salt.",
        "The refresh token is base64url-encoded, so decode it before logging.",
        "The client secret is AES-256-GCM-encrypted at rest.",
        "Recipe: the secret is 2tbsp-of-brown-butter in the sauce.",
        "API key: rotate it monthly.",
        "The password is 20-characters long.",
        "The vault password is AES-256 encrypted.",
        "The password SHA256-hashed in the database is never logged.",
        "The max current per pin is 2000 uA.",
        "The password manager 1Password is fine.",
        "The password 2FA setting is on.",
        "Reset the password every 90 days.",
        "GPIO pin 13 drives the LED.",
        "The code for the front door is written on the card.",
        "The code to the safe changed in 2019.",
        "Meetings at 10:00 and 11:30:AAA.",
        # no verb (found by a review of the forms with none)
        "Last changed her bank password 2024-03-12.",
        "## Password\n2024-03-12 rotated, next due in June.",
        "She enabled a strong password, 2FA, and passkeys.",
        "The password 2FA. setting is on.",
        "Her password (12+ chars) must include a symbol.",
        "Wants a password 8+chars with a symbol.",
        "Rotate the password 2x/year.",
        "Migrated to the password v2.0 schema.",
        "Her password 2-factor setup is on the phone.",
        "The password Argon2id hash is stored server-side.",
        "The password NTLMv2 hash leaked in 2012.",
        "The password 1Password-generated for her is long.",
        "Reset the password for my Windows10 laptop.",  # "for", no verb: a name, not a value
        "Reset the password for user JDoe2024 yesterday.",
        "The password for host db-prod-01 rotated.",
        "The password for admin@example.com expired.",
        "Le code postal est 75011.",  # a code, in other languages, that opens nothing
        "Le code de la porte a chang\u00e9 en 2023.",
        "El c\u00f3digo de barras es 7501234.",
        "Der Code f\u00fcr die Garage wurde 2024 ge\u00e4ndert.",
        "Le digicode a chang\u00e9 le 12/03/2024.",
        "\u041a\u043e\u0434 \u043e\u0448\u0438\u0431\u043a\u0438 4012.",  # Код ошибки (an error code)
        "Kod pocztowy 00-950.",
        "T\u00fcrcode 2024 ge\u00e4ndert, neuer Code liegt beim Hausmeister.",
        "Pincode 560034, Koramangala, Bangalore.",  # India's postal code
        "El c\u00f3digo de error de acceso 1045 en MySQL.",
        "Il codice della porta 8080 va aggiornato nel firewall.",  # a network port
        "Le code de la carte IGN est 2431OT pour la randonn\u00e9e.",  # a map
        "Code d'alarme 1102 sur la machine, voir la notice.",
        "\u041a\u043e\u0434 \u043e\u0442 \u0432\u043e\u0440\u043e\u0442 2019 \u0433\u043e\u0434\u0430.",  # Код от ворот 2019 года
        "C\u00f3digo de la tarjeta regalo: 5000 pesos de saldo.",
        "TODO\n- neuen Code f\u00fcr die Garage anfragen\n- 1500 Flyer drucken",  # a list's dash is no verb
        "\u00c0 faire :\n- changer le code de la porte\n- 1200 flyers \u00e0 imprimer",
        "## Zugangscode\n\n1500 Teilnehmer haben sich angemeldet.",
        "Kod do drzwi to 2019r. wymieniony.",
        "Das Passwort f\u00fcr das iPhone15! Sie fragt st\u00e4ndig danach.",
        "Reset the password for user MMueller1@contoso.com on Monday.",
        "The password for the computer account WS-Finance01$ is rotated by AD.",
        "The password for the Excel file Budget2024!.xlsx was sent by SMS.",
        "The password for the printer HP-LaserJet4+ web UI is the serial number.",
        "The password for Grafana at https://Grafana2.corp.io/?orgId=1 is in Vault.",
        "Reset the password for the user @Alice2024 on GitLab.",
        "Reset the password for account Sales&Marketing2.",
        "Passwort f\u00fcr Router FRITZ!Box7590 steht auf dem Aufkleber.",
        "Run pwd 2>&1 to see it.",
        "\u7f51\u7ad9\u8981\u6c42\u5bc6\u7801 8-16\u4f4d\uff0c\u5305\u542b\u5b57\u6bcd\u548c\u6570\u5b57",  # 8-16位
        "\u30d1\u30b9\u30ef\u30fc\u30c9 8\u6587\u5b57\u4ee5\u4e0a\u304c\u5fc5\u8981",  # パスワード 8文字以上
        "Address: 12 MG Road, Indiranagar, Bangalore, PIN 560001.",
        "Her parents live in Kochi, PIN code 682001.",
        "Remember to pin 2025 goals on the board.",
        "Let's pin #1234 to the top of the repo.",
        "Pin numpy at 1.26; pin 2024.1.0 of the SDK.",
        "The PIN 0000 default on Bluetooth speakers is common.",
        "Hold the reset pin 3000 ms to factory reset.",
        "Max current per pin 2000 nA.",
        "The zip code for the house is 94107.",
        "Postal code for the flat: 10115 Berlin.",
        "The area code for the building is 0212.",
        "SNS topic arn:aws:sns:us-east-1:123456789012:AlertsTopicForProductionMonitoring",
        "Redis key cache:1234567:AccountPreferencesNotificationSettings",
        # found by a second review
        "Password for user deploy01 expired last week; reminded him to rotate it in Vault.",
        "Passphrase for GPG key 3AA5C34371567BD2 is kept in KeePassXC.",
        "Passwort f\u00fcr das Konto user2024 wird \u00fcber Keycloak zur\u00fcckgesetzt.",
        "Router: set Wi-Fi password, WPA3-SAE only, on the AX3000.",
        "Mapping in the migration: username -> user_name, password -> pass_hash.",
        "In the Django form, password => user_input is validated by validate_password().",
        "wifi\u5bc6\u7801\u5728\u8def\u7531\u5668\u80cc\u9762\uff0c\u578b\u53f7AX3000\u3002",  # wifi密码在路由器背面，型号AX3000。
        "\u5bc6\u7801\u7ba1\u7406\u5668\u7528\u7684\u662fBitwarden\uff0c2024\u5e74\u5f00\u59cb\u3002",  # 密码管理器用的是Bitwarden
        "\u30d1\u30b9\u30ef\u30fc\u30c9\u7ba1\u7406\u306fBitwarden\u30012024\u5e74\u304b\u3089\u3002",  # パスワード管理はBitwarden
        "\u30d1\u30b9\u30ef\u30fc\u30c9\u306f12\u6587\u5b57\u4ee5\u4e0a\u3001\u82f1\u6570\u5b57\u6df7\u5728\u304c\u793e\u5185\u30eb\u30fc\u30eb\u3002",
        "Wi-Fi\u306e\u30d1\u30b9\u30ef\u30fc\u30c9\u306f\u30eb\u30fc\u30bf\u30fcWXR-5700AX7S\u306e\u88cf\u306b\u8a18\u8f09\u3002",
        "The error code on the garage door is 4012 according to the Chamberlain manual.",
        "The HS code for padlocks is 830110 on the customs form.",
        "The SKU code for the safe is 7390 at Hornbach.",
        "Alarm code 1102 on the Ajax hub means low battery in a detector.",
        "My pin 1234 on the map is the hotel, 5678 the conference venue.",
        # what a coding agent remembers about its runs and its code (they were refused)
        "The build failed with exit code 137",
        "The job exited with code 137 after the OOM killer stepped in.",
        "token = request.headers.get('Authorization') is parsed in middleware.py",
        "password = getpass.getpass() prompts the user without echo",
    ],
)
def test_ordinary_content_passes_the_gate(text):
    to_record(fact(10, text=text), DID)


# Fragments of every detector's needles and patterns, and the characters ``re`` folds to ASCII
# letters in case-insensitive patterns: random text built from them reaches every detector.
_GATE_PIECES = [
    "PRIVATE KEY", "-----BEGIN ", "-----", "AKIA", "ASIA", "ghp_", "gh", "github_pat_", "xoxb-", "sk-", "rk-",
    "proj-", "eyJ", "eyJhbGciOiJIUzI1NiJ9", ".", "bearer ", "BEARER", "Bearer", "password", "PASSWD", "pwd", "secret",
    "token", "key", "api_key", "accessToken", "ClientSecret", "ApiKey", "=", ": ", '"', "'", "://", "postgres://a:b@",
    "Traceback (most recent call last)", "\n", "\n$ ", "$ ", "user@host:~$ ", "exit code ", "exited with code", "137",
    "/home/", "/tmp/x", "~/", "C:\\", "file://", "/", "\\", "\u017f", "\u0131", "\u0130", "\u212a", "\u0307",
    "a", "Z", "0123456789abcdefghijklmnop", " ", "\t", "ü",
    " is ", " was ", " set to ", "pin", "PIN", "passphrase", "Passwort", " ist ", "contraseña", "CONTRASENA",
    "mot de passe", "HASŁO", "ŞİFRE", "\u0131", "\u043f\u0430\u0440\u043e\u043b\u044c",
    "\u041f\u0410\u0420\u041e\u041b\u042c", "\u5bc6\u7801", "\u662f", "\u30d1\u30b9\u30ef\u30fc\u30c9", "\u306f",
    "\ube44\ubc00\ubc88\ud638", "\ub294", "\uff1a", "1", "\u1c82", "pin: ", "4821", "'s ", " for the router", " to ",
    "door code", "ACCESS_CODE", "api key", "Auth-Key", "token", "abcdef1234567890XYZ", "pwd",
    "puk", "lockbox", "`", "(", "#", " del wifi", " \u043e\u0442 ", ":A", "110201543", "code for the safe ", " - ", "=>", "bot",
    "debit card ", "my ", "combination", " locker", ", ", "2FA", "v2", "12+",
    "T\u00fcrcode", "code de la porte", " est ", "c\u00f3digo", " del ", "\u043a\u043e\u0434", " \u0434\u0432\u0435\u0440\u0438 ",
    "pincode", " van ", "geheimzahl", "kod", " do ", "drzwi", " to ", ": ",
]
# One text each detector fires on, mixed in whole so that every detector is reached often.
_GATE_HITS = [
    "-----BEGIN RSA PRIVATE KEY-----", "AKIAABCDEFGHIJKLMNOP", "ghp_" + "a" * 36, "xoxb-1234567890ab",
    "sk-" + "a" * 24, "eyJabcdefghij.eyJabcdefghij.abcdefghij", "Bearer abcdefghijklmnop1234", "password: hunter22",
    "clientSecret=abcd", "https://u:p@example.org", "Traceback (most recent call last)", "$ ls -la\ntotal 48",
    "exit code 137", "EXIT STATUS: 2", "/home/alice/x", "~/notes", "C:\\Users", "file://x",
    "password is hunter2", "PIN IS 4821", "Passwort: hunter22", "Passwort ist x2yz", "\u5bc6\u7801\u662fabc123",
    "password hunter22", "PIN 4821", "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    "Le code de la porte est 4821", "Haust\u00fcrcode: 4821", "the password for gmail Hunter2024!",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_GATE_PIECES) | st.sampled_from(_GATE_HITS) | st.text(max_size=4), max_size=12)
       .map("".join))
@example("=password is hunter2https://u:p@example.org")  # a lesson's example password, read as one
@example("secretAKIAABCDEFGHIJKLMNOPPasswort ist x2yz\u212aAKIAABCDEFGHIJKLMNOP")  # a Kelvin sign: K in NFC
def test_the_all_needles_search_changes_no_verdict(text):
    """The gate's first search (every needle at once) only skips texts no detector fires on; the
    plain form only adds a verdict where the text itself has none, and so does the learned layer.
    (The text as the gate reads it: a lesson's example password and a stand-in for a key read as
    what they are, ``_as_read``.)"""
    read = privacy._as_read(text)
    reason, plain = privacy.detector_reason(read), privacy.plain_form(read)
    if reason is None and plain != read and privacy.detector_reason(plain) is not None:
        # (the form NFC gives is named as such: "x2yz\u212a…", a Kelvin sign, is a K in NFC already)
        said = JOINED if unicodedata.normalize("NFC", read) == plain else HIDDEN
        assert privacy.sensitive_reason(text).startswith(privacy.detector_reason(plain) + said)
    else:
        assert privacy.sensitive_reason(text) == (reason or learned.reason(read))


HIDDEN = " once its invisible characters are dropped and its full-width or other compatibility forms read as plain text"
JOINED = " once its accents are read with their letters (combining marks, as NFC joins them)"


@pytest.mark.parametrize(
    "text, reason, first",
    [
        ("Use AKIA\u200bQ8EG0RZ1WXYT9JH6 for S3.", "an AWS access key", "U+200B ZERO WIDTH SPACE, at position 8"),
        ("Use AKIA\x00Q8EG0RZ1WXYT9JH6 for S3.", "an AWS access key", "U+0000, at position 8"),  # a control character
        # a control character Python calls a space
        ("Use AKIA\x1fQ8EG0RZ1WXYT9JH6 for S3.", "an AWS access key", "U+001F, at position 8"),
        ("The key is s\u00adk-proj-abcdefghijklmnopqrstuvwx", "an API secret key",
         "U+00AD SOFT HYPHEN, at position 12"),
        ("\ufeffgh\u2060p_abcdefghijklmnopqrstuvwxyz0123456789AB", "a GitHub token",
         "U+FEFF ZERO WIDTH NO-BREAK SPACE, at position 0"),
        ("\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44\uff1dhunter22", "a credential assignment",
         "U+FF50 FULLWIDTH LATIN SMALL LETTER P, at position 0"),
        ("\U0001d400\U0001d40a\U0001d408\U0001d400Q8EG0RZ1WXYT9JH6", "an AWS access key",
         "U+1D400 MATHEMATICAL BOLD CAPITAL A, at position 0"),
        ("The config is in /\u200dhome/alice/.config", "a local filesystem path",
         "U+200D ZERO WIDTH JOINER, at position 18"),
        ("Traceback (most\u200c recent call last):", "command output (a traceback)",
         "U+200C ZERO WIDTH NON-JOINER, at position 15"),
        # Printable to Python, yet nothing shows: a grapheme joiner, a Hangul filler, a variation selector
        ("AKIA\u034fQ8EG0RZ1WXYT9JH6", "an AWS access key", "U+034F COMBINING GRAPHEME JOINER, at position 4"),
        ("AKIA\u3164Q8EG0RZ1WXYT9JH6", "an AWS access key", "U+3164 HANGUL FILLER, at position 4"),
        ("AKIA\ufe0fQ8EG0RZ1WXYT9JH6", "an AWS access key", "U+FE0F VARIATION SELECTOR-16, at position 4"),
        # A right-to-left override shows the key the right way round
        ("\u202e6HJ9TYXW1ZR0GE8QAIKA\u202c", "an AWS access key", "U+202E RIGHT-TO-LEFT OVERRIDE, at position 0"),
        ("$ cat notes.txt\u2028hello world", "command output (a shell prompt)",
         "U+2028 LINE SEPARATOR, at position 15"),
    ],
)
def test_a_secret_hidden_by_invisible_or_full_width_characters_is_refused(text, reason, first):
    assert privacy.detector_reason(text) is None  # the patterns alone miss it
    with pytest.raises(PrivacyRefused) as err:
        to_record(fact(9, text=text), DID, publish_private=True)
    assert err.value.args[0].endswith(f"its text looks like {reason}{HIDDEN} (the first such character: {first})")


def test_every_invisible_character_python_calls_printable_sends_a_text_to_its_plain_form():
    """The gate looks for a plain form only in a text that is not printable, not NFKC-normalized,
    or holds one of ``_PRINTABLE_INVISIBLE``: every other invisible character is not printable."""
    for code in range(0x110000):
        char = chr(code)
        if privacy._INVISIBLE.match(char) and char.isprintable():
            assert privacy._PRINTABLE_INVISIBLE.match(char), f"U+{code:04X}"
            assert privacy.sensitive_reason(f"AKIA{char}Q8EG0RZ1WXYT9JH6") is not None, f"U+{code:04X}"


@pytest.mark.parametrize("text", ["api_key\u00a0=\u00a0abcd1234efgh", "\u202eAKIAQ8EG0RZ1WXYT9JH6\u202c"])
def test_a_secret_the_patterns_find_as_written_is_refused_without_the_plain_form_note(text):
    with pytest.raises(PrivacyRefused) as err:
        to_record(fact(9, text=text), DID, publish_private=True)
    assert "looks like" in str(err.value) and HIDDEN not in str(err.value)


@pytest.mark.parametrize(
    "text",
    [
        "The family trip: \U0001f468\u200d\U0001f469\u200d\U0001f467 in June.",  # joiners in an emoji
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 is Persian, written with a zero-width non-joiner.",
        "The plan costs 100\u00a0\u20ac a month.",  # a no-break space
        "\uff21\uff22\uff23 Corp is the user's employer.",  # full-width letters, nothing secret
        "Lines\nand\ttabs\r\nare fine.",
        "The user's key\u200b fob is blue.",
        "I \u2764\ufe0f my team \U0001fa77.",  # a variation selector, an emoji newer than some Pythons
        "\u05d4\u05e1\u05d9\u05e1\u05de\u05d4 \u200fis the Hebrew word for it.",  # a right-to-left mark
    ],
)
def test_ordinary_text_with_invisible_or_full_width_characters_passes(text):
    to_record(fact(10, text=text), DID)


# The three detectors written to scan each run of characters once, as their plain patterns.
_PLAIN_PATTERNS = {
    "looks like a JSON Web Token":
        privacy.WORD_START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    "looks like a URL with embedded credentials":
        r"(?i)" + privacy.WORD_START + r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@",
    "looks like command output (a shell prompt)": r"(?m)^\s*(?:\$|[\w.-]+@[\w.-]+:[^\n$#]*[$#])\s+\S+.*\n\S",
}
_RUN_PIECES = ["eyJ", "eyJabcdefg", "eyJabcdefgh", "eyJabcdefgh.eyJabcdefgh.", "abcdefg", "abcdefgh", ".", "-", "_",
               "eyJabcdefgh.eyJabcdefgh.abcdefg", "eyJabcdefgh.eyJabcdefgh.abcdefgh", "eyJabcdefg.eyJabcdefgh.abcdefgh",
               "http://u:p@", "1.http://u:p@", "a+b.c-d://user:pw@",
               "a", "Z", "1", "+", "a.", "1.", "http", "://", "u:p@", "x@h", ":", "@", "/", "$", "#", " ", "\t", "\n",
               "\n\n", "user@host:~$ ", "ls", "\u212a", "\u017f", "é", "\u0131"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES) | st.text(max_size=2), max_size=16).map("".join))
def test_the_detectors_written_for_speed_fire_as_their_plain_patterns(text):
    for reason, plain in _PLAIN_PATTERNS.items():
        (gated,) = [pattern for why, pattern, *_ in privacy._GATED if why == reason]
        assert (gated.search(text) is None) is (re.search(plain, text) is None), reason


_CREDENTIAL_PIECES = [
    "password", "PASSWORD", "Passwort", "pin", "PIN", "secret", "token", "api", "Access", "private", "key", "kennwort",
    "contraseña", "mot de passe", "senha", "wachtwoord", "hasło", "HASLO", "heslo", "lösenord", "passord",
    "adgangskode", "salasana", "şifre", "ŞİFRE", "sifre", "jelszó", "пароль", "ПАРОЛЬ", "密码", "密碼", "パスワード",
    "暗証番号", "비밀번호", " is ", " ist ", "是", "は", "는", ":", "=", "：", " ", "'", '"', "hunter22", "x1",
    " for the router", " to ", "door code", "ACCESS_CODE", "api key", "Auth-Key", "abcdef1234567890XYZ", "pwd", "4821",
    "'s", "PIN number", "\u1c82", "puk", "lockbox", "`", "(", "#", " del wifi", " \u043e\u0442 ",
    " for the office wifi", ",", "code", "bank", "BANK", "debit card ", "Combination", " - ", "=>", "2FA", "Argon2id",
    "her ", "\n", "Visa ", "UNLOCK ", "girocard", "passcode ", "\u6697\u8a3c\u756a\u53f7", "482915", "error ",
    "sku ", "WPA3", " for the front door", " door", "wifi", "2000 uA", "20-characters",
    "AES-256", " \u5bc6\u7801", "\u017f", "\u212a", "\u0130", "\u0131", "a", "Z", "1",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_CREDENTIAL_PIECES) | st.text(max_size=2), max_size=12).map("".join))
def test_the_credential_detectors_fire_as_without_their_first_letter_lookahead(text):
    """Their lookahead of first letters only lets ``re`` skip a position sooner: it must hold the first
    letter of every word the detectors look for, in any case ``re`` equates with it."""
    written = [pattern for _, pattern, _ in privacy._DETECTORS if privacy._CREDENTIAL_START in pattern.pattern]
    assert len(written) == 4  # the assignment, and the three sentences: a password, a PIN or code, a key
    for pattern in written:
        plain = re.compile(pattern.pattern.replace(privacy._CREDENTIAL_START, ""))
        assert (pattern.search(text) is None) is (plain.search(text) is None), pattern.pattern


@pytest.mark.parametrize(
    "text, reason",
    [
        ("\u30ad\u30fc\u306fAKIAQ8EG0RZ1WXYT9JH6\u3067\u3059", "an AWS access key"),
        ("\u30c8\u30fc\u30af\u30f3\u306fghp_" + "a1B2" * 9 + "\u3067\u3059", "a GitHub token"),
        ("\u30b9\u30e9\u30c3\u30afxoxb-1234567890abc", "a Slack token"),
        ("\u9375sk-proj-abcdefghijklmnopqrstuvwx\u3067\u3059", "an API secret key"),
        ("\u5024\u306feyJabcdefghij.eyJabcdefghij.abcdefghij", "a JSON Web Token"),
        ("\u30d8\u30c3\u30c0\u306fBearer abcdefghijklmnop1234", "a bearer credential"),
        ("URL\u306fpostgres://admin:hunter22@db.example", "a URL with embedded credentials"),
        ("\u8a2d\u5b9a\u306f/home/alice/.config", "a local filesystem path"),
        ("\u30db\u30fc\u30e0~/notes\u306b\u3042\u308b", "a local filesystem path"),
        ("\u30d5\u30a1\u30a4\u30eb\u306fC:\\Users\\alice", "a local filesystem path"),
        ("\u5834\u6240\u306ffile:///etc/app.toml", "a local filesystem path"),
        ("\ud0a4\ub294AKIAQ8EG0RZ1WXYT9JH6\uc785\ub2c8\ub2e4", "an AWS access key"),  # Korean
        ("\u0e01\u0e38\u0e0d\u0e41\u0e08AKIAQ8EG0RZ1WXYT9JH6", "an AWS access key"),  # Thai
    ],
)
def test_a_secret_written_against_letters_of_a_script_without_spaces_is_refused(text, reason):
    """Regression: \\b counts a CJK letter as a word character, so no boundary came before a key
    written right after one, and the gate passed it."""
    with pytest.raises(PrivacyRefused) as err:
        to_record(fact(9, text=text), DID, publish_private=True)
    assert err.value.args[0].endswith(f"its text looks like {reason}")


@pytest.mark.parametrize(
    "text",
    [
        "Poci\u0105g relacji Gda\u0144sk-Gdynia-Sopot-Wejherowo odje\u017cd\u017ca o 8:15.",  # not an "sk-" key
        "T\u00fcrk-Amerikan-Dostluk-Derne\u011fi yar\u0131n toplan\u0131yor.",
        "Siehe https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/home/news f\u00fcr Details.",  # not a path
        "Voir https://exemple.caf\u00e9/etc/notes",
        "ASIAKASPALVELUNUMERO\u00c4 ON 123",
    ],
)
def test_a_token_joined_to_a_letter_of_a_spaced_script_is_not_a_secret(text):
    """Only scripts written without spaces set a token apart: an accented or Cyrillic letter joins
    it, as \\b has it."""
    to_record(fact(10, text=text), DID)


_ASCII_PIECES = [piece for piece in _GATE_PIECES + _GATE_HITS if piece.isascii()]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_ASCII_PIECES) | st.text(st.characters(max_codepoint=127), max_size=3), max_size=12)
       .map("".join))
def test_on_ascii_text_the_token_boundaries_are_the_plain_ones(text):
    """Only letters of scripts written without spaces tell the detectors' boundaries from \\b."""
    for reason, gated, *_ in privacy._GATED:
        search = gated.search
        pattern = next(p for why, p, _ in privacy._DETECTORS if why == reason and p is gated).pattern
        plain = (pattern.replace(privacy.WORD_START + "(?<![/.-])", r"(?<![\w/.-])")
                 .replace(privacy.WORD_START + "(?<![.-])", r"(?<![\w.-])")
                 .replace(privacy.WORD_START, r"\b").replace(privacy.WORD_END, r"\b"))
        assert plain != pattern or "\\b" not in pattern
        assert (search(text) is None) is (re.search(plain, text) is None), reason


def test_transcript_is_checked_when_included():
    event = episode(11, userText="my password: hunter22")
    to_record(event, DID)  # not published, not checked
    with pytest.raises(PrivacyRefused, match="userText"):
        to_record(event, DID, include_transcript=True)


# --- supersession on export -----------------------------------------------------------------


def test_supersedes_fact_id_becomes_the_at_uri_of_the_prior_record():
    old = contract.with_ids(fact(12))
    new = contract.with_ids(fact(13, supersedesFactId=old["factId"]))
    (old_view, new_view), failed = to_records([old, new], DID)
    assert not failed
    assert new_view.value["supersedes"] == [old_view.uri]


def test_unknown_superseded_fact_is_refused_not_dropped():
    orphan = fact(14, supersedesFactId="a" * 64)
    ok, failed = to_records([fact(15), orphan, fact(16)], DID)
    assert len(ok) == 2
    assert [f.position for f in failed] == [1]
    assert "export the superseded fact" in str(failed[0].error)
    ok, failed = to_records([orphan], DID, known_uris={"a" * 64: f"at://{DID}/{RECORD_NSID}/3l2uygzaf5s2k"})
    assert not failed and ok[0].value["supersedes"] == [f"at://{DID}/{RECORD_NSID}/3l2uygzaf5s2k"]


def test_a_fact_superseding_one_that_fails_fails_too_in_any_order():
    refused = contract.with_ids(fact(1, text="Staging DB password=hunter22 for now"))
    successor = contract.with_ids(fact(2, supersedesFactId=refused["factId"]))
    chain = [successor, contract.with_ids(fact(3, supersedesFactId=successor["factId"]))]
    ok_fact = contract.with_ids(fact(4))
    cycle = [contract.with_ids(fact(5)), contract.with_ids(fact(6))]
    cycle[0]["supersedesFactId"], cycle[1]["supersedesFactId"] = cycle[1]["factId"], cycle[0]["factId"]
    for batch in ([*chain, refused, ok_fact, *cycle], [refused, *reversed(chain), *cycle, ok_fact]):
        views, failed = to_records(batch, DID)
        assert sorted(f.error.item for f in failed) == sorted(batch.index(e) for e in [refused, *chain])
        written = {view.value[EXT_KEY]["id"]: view for view in views}
        assert set(written) == {ok_fact["factId"], cycle[0]["factId"], cycle[1]["factId"]}
        assert written[cycle[0]["factId"]].value["supersedes"] == [written[cycle[1]["factId"]].uri]
        assert [view.value[EXT_KEY]["id"] for view in views] == [  # input order
            e["factId"] for e in batch if e["factId"] in written]


def test_a_bad_item_never_aborts_the_batch():
    items = [fact(17), {"eventType": "fact"}, "not an object", fact(18, validFrom="yesterday"), episode(19)]
    ok, failed = to_records(items, DID)
    assert len(ok) == 2
    assert [f.position for f in failed] == [1, 2, 3]
    assert all(f.error.item == f.position for f in failed)


# --- record -> event ------------------------------------------------------------------------


def plain_record(rkey: str, content: str = "The user likes tea.", **extra) -> dict:
    value = {"$type": RECORD_NSID, "content": content, "createdAt": "2026-09-01T10:00:00Z", **extra}
    return {"uri": f"at://{DID}/{RECORD_NSID}/{rkey}", "cid": str(cid_for_json(value)), "value": value}


def test_foreign_record_becomes_an_untrusted_fact_in_the_trusted_scope():
    view = plain_record("3l2uygzaf5s2k", kind="preference")
    event = from_record(view, home_scope()).event
    assert event["eventType"] == "fact"
    for name, value in home_scope().fields.items():
        assert event[name] == value
    assert event["participantScopeHash"] == contract.participant_hash_for_did(DID, SALT)
    assert event["text"] == "The user likes tea." and event["kind"] == "preference"
    assert event["sourceEventId"] == view["uri"] and event["subjectKey"] == view["uri"]
    assert event["trustClass"] == "untrusted" and event["active"] is True
    assert event["factId"] == contract.fact_id(event)
    assert contract.event_errors(event) == []


def test_fields_inside_a_record_cannot_set_scope_trust_or_ids():
    forged_ext = {
        "eventType": "fact",
        "id": "f" * 64,
        "proof": "0" * 64,
        "trustClass": "trusted",
        "runtime": "openclaw",
        "sourceEventId": "turn-1",
    }
    view = plain_record(
        "3l2uygzaf5s2k",
        agentId="evil",
        profileId="evil",
        privacyScope="private",
        participantScopeHash="e" * 64,
        sandboxEligible=True,
        factId="d" * 64,
        **{EXT_KEY: forged_ext},
    )
    imported = from_record(view, home_scope())
    event = imported.event
    for name, value in home_scope().fields.items():
        assert event[name] == value
    assert event["factId"] not in ("f" * 64, "d" * 64)
    assert event["trustClass"] == "untrusted" and event["runtime"] == "custom"
    assert event["sourceEventId"] == view["uri"]
    assert any("ignored" in note for note in imported.notes)


def test_record_from_another_repository_is_refused():
    view = plain_record("3l2uygzaf5s2k")
    view["uri"] = view["uri"].replace(DID, OTHER_DID)
    with pytest.raises(MappingError, match="not to the repository"):
        from_record(view, home_scope())


def test_exported_memory_is_recognised_in_its_own_scope():
    original = contract.with_ids(home_fact(20, trustClass="trusted", validUntil="2027-01-01T00:00:00Z"))
    view = to_record(original, DID)
    back = from_record(view.to_json(), home_scope()).event
    assert back == original


def test_exported_episode_is_recognised_in_its_own_scope():
    original = contract.with_ids(episode(21, **home_scope().fields))
    view = to_record(original, DID, include_transcript=True)
    assert from_record(view.to_json(), home_scope()).event == original


@pytest.mark.parametrize(
    "scope",
    [
        dict(agent_id="other-agent"),
        dict(profile_id="other-profile"),
        dict(salt="other-salt"),
        dict(sandbox_eligible=True),
    ],
)
def test_another_scope_does_not_recognise_it(scope):
    original = contract.with_ids(home_fact(22, trustClass="trusted"))
    view = to_record(original, DID)
    args = dict(agent_id="coder", profile_id="default", salt=SALT) | scope
    event = from_record(view.to_json(), ImportScope(did=DID, **args)).event
    assert event["factId"] != original["factId"]
    assert event["trustClass"] == "untrusted"


def test_an_edited_record_is_not_recognised():
    original = contract.with_ids(home_fact(23, trustClass="trusted"))
    value = dict(to_record(original, DID).value, content="The user now prefers Rust.")
    view = {"uri": to_record(original, DID).uri, "cid": str(cid_for_json(value)), "value": value}
    event = from_record(view, home_scope()).event
    assert event["factId"] != original["factId"] and event["trustClass"] == "untrusted"
    assert event["text"] == "The user now prefers Rust."


def test_episode_record_comes_back_as_an_episode_even_from_another_scope():
    view = to_record(contract.with_ids(episode(24)), DID).to_json()
    event = from_record(view, home_scope()).event
    assert event["eventType"] == "episode"
    assert event["summary"] == view["value"]["content"]
    assert event["eventId"] == contract.event_id(event)


def test_invalid_record_is_refused_with_its_path():
    view = plain_record("3l2uygzaf5s2k", supersedes=["not-an-at-uri"])
    with pytest.raises(RecordInvalid) as err:
        from_record(view, home_scope())
    assert err.value.path == "$.supersedes[0]"


# --- supersession on import -----------------------------------------------------------------


def _uri(rkey: str) -> str:
    return f"at://{DID}/{RECORD_NSID}/{rkey}"


def test_supersession_chain_leaves_only_the_newest_active():
    a = plain_record("3l2uygzaf5s2a", "Tea.")
    b = plain_record("3l2uygzaf5s2b", "Coffee.", supersedes=[_uri("3l2uygzaf5s2a")])
    c = plain_record("3l2uygzaf5s2c", "Water.", supersedes=[_uri("3l2uygzaf5s2b")])
    ok, failed = from_records([c, a, b], home_scope())
    assert not failed
    by_text = {item.event["text"]: item.event for item in ok}
    assert [t for t, e in by_text.items() if e["active"]] == ["Water."]
    assert by_text["Water."]["supersedesFactId"] == by_text["Coffee."]["factId"]
    assert by_text["Coffee."]["supersedesFactId"] == by_text["Tea."]["factId"]
    assert len(ok) == 3  # history stays


def test_merge_supersedes_several_and_ignores_other_repositories_and_itself():
    a = plain_record("3l2uygzaf5s2a", "Tea.")
    b = plain_record("3l2uygzaf5s2b", "Coffee.")
    foreign = f"at://{OTHER_DID}/{RECORD_NSID}/3l2uygzaf5s2a"
    m = plain_record(
        "3l2uygzaf5s2m", "Tea and coffee.", supersedes=[_uri("3l2uygzaf5s2a"), foreign, _uri("3l2uygzaf5s2b"), _uri("3l2uygzaf5s2m")]
    )
    ok, _ = from_records([a, b, m], home_scope())
    events = {item.event["text"]: item for item in ok}
    merged = events["Tea and coffee."]
    assert merged.event["active"] and not events["Tea."].event["active"] and not events["Coffee."].event["active"]
    assert merged.supersedes_fact_ids == [events["Tea."].event["factId"], events["Coffee."].event["factId"]]
    assert merged.event["supersedesFactId"] == events["Tea."].event["factId"]
    assert any("another repository" in n for n in merged.notes)
    assert any("itself" in n for n in merged.notes)


def test_supersession_round_trip_through_both_mappers():
    old = contract.with_ids(home_fact(30))
    new = contract.with_ids(home_fact(31, supersedesFactId=old["factId"]))
    views, _ = to_records([old, new], DID)
    back, _ = from_records([v.to_json() for v in views], home_scope())
    old_back, new_back = (item.event for item in back)
    assert new_back["supersedesFactId"] == old["factId"]
    assert old_back["active"] is False and new_back["active"] is True


# --- unknown fields and CIDs ----------------------------------------------------------------

LINK = {"$link": "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvxvprdxrqylrm3kgy"}
BLOB = {"$type": "blob", "ref": {"$link": "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"}, "mimeType": "image/png", "size": 1234}

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**53 - 1), 2**53 - 1), st.text(max_size=20),
    st.just(LINK), st.just(BLOB),
    st.binary(max_size=16).map(lambda b: {"$bytes": base64.b64encode(b).decode().rstrip("=")}),
)
json_values = st.recursive(
    json_leaf,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(min_size=1, max_size=8).filter(lambda k: not k.startswith("$")), children, max_size=4),
    max_leaves=12,
)
unknown_fields = st.dictionaries(
    st.sampled_from(["app.example.tags", "mood", "nested", "attachments", "zz", "émoji👍"]), json_values, max_size=4
)


def _shuffled(value):
    if isinstance(value, dict):
        items = list(value.items())
        random.Random(len(items)).shuffle(items)
        return {k: _shuffled(v) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v) for v in value]
    return value


@settings(max_examples=150, deadline=None)
@given(extra=unknown_fields, with_ext=st.booleans(), kind=st.sampled_from([None, "fact", "decision", "x-new-kind"]))
def test_record_to_event_and_back_keeps_the_cid(extra, with_ext, kind):
    if with_ext:
        value = dict(to_record(home_fact(40), DID).value)
    else:
        value = {"$type": RECORD_NSID, "content": "The user likes tea.", "createdAt": "2026-09-01T10:00:00Z"}
    if kind is not None:
        value["kind"] = kind
    value.update(extra)
    value["occurredAt"] = {"from": "2026-09-01T00:00:00Z", "precision": "day", "x-unknown": LINK}
    original_cid = str(cid_for_json(value))
    view = {"uri": _uri("3l2uygzaf5s2k"), "cid": original_cid, "value": _shuffled(value)}
    imported, failed = from_records([view], home_scope())
    assert not failed
    as_json = json.loads(json.dumps(imported[0].to_json()))  # through text, as the CLI does
    (back,), failed = to_records([as_json], DID)
    assert not failed
    assert back.uri == view["uri"]
    assert back.cid == original_cid == str(cid_for_json(back.value))


def test_changed_event_patches_only_what_changed():
    view = plain_record("3l2uygzaf5s2k", kind="preference", mood={"nested": [1, 2, LINK]})
    imported = from_record(view, home_scope()).to_json()
    imported["event"]["text"] = "The user likes green tea."
    imported["event"] = {k: v for k, v in imported["event"].items() if k != "factId"}
    back = to_record(imported, DID)
    assert back.uri == view["uri"]
    assert back.value["content"] == "The user likes green tea."
    assert back.value["mood"] == view["value"]["mood"] and back.value["kind"] == "preference"
    assert back.cid != view["cid"]


FORGED = "a" * 64


@pytest.mark.parametrize("extension", [
    {"eventType": "fact", "id": FORGED, "trustClass": "trusted", "confidence": "0.9"},  # invalid
    {"eventType": "fact", "id": FORGED, "runtime": "hermes", "trustClass": "trusted",
     "confidence": "0.9", "proof": "b" * 64},  # valid, with a proof that does not hold
    "another-scope",  # pdsmem's own, proved for another scope
])
def test_a_round_trip_never_makes_a_foreign_extension_hold_in_this_scope(extension):
    """Importing, editing and exporting a record must not re-prove an extension pdsmem did not
    write from this scope: its ids and trust fields would hold on the next import."""
    if extension == "another-scope":
        view = to_record(contract.with_ids(fact(30, trustClass="trusted")), DID).to_json()
    else:
        value = {"$type": RECORD_NSID, "content": "Ops no longer rotate deploy keys.",
                 "createdAt": "2026-08-18T00:00:00.000Z", EXT_KEY: extension}
        view = {"uri": f"at://{DID}/{RECORD_NSID}/3mtcvvx2vey5i", "cid": str(cid_for_json(value)), "value": value}
    imported = from_record(view, home_scope()).to_json()
    assert imported["event"]["trustClass"] == "untrusted"
    assert to_record(imported, DID).cid == view["cid"]  # unchanged: untouched

    for edit in ({"confidence": 0.7}, {"text": "Ops rotate deploy keys monthly."}):
        imported["event"].update(edit)
        written = to_record(imported, DID)
        back = from_record(written.to_json(), home_scope()).event
        assert back["trustClass"] == "untrusted" and back["factId"] != FORGED
        assert back["factId"] == contract.fact_id(back)
        assert (back["confidence"], back["text"]) == (imported["event"]["confidence"], imported["event"]["text"])


def test_an_edited_fact_gets_the_id_of_its_new_text_and_is_recognised_with_it():
    original = contract.with_ids(home_fact(31, trustClass="trusted"))
    imported = from_record(to_record(original, DID).to_json(), home_scope()).to_json()
    assert imported["event"] == original
    imported["event"]["text"] = "The user now prefers Rust."
    written = to_record(imported, DID)
    back = from_record(written.to_json(), home_scope()).event
    assert back["trustClass"] == "trusted"  # still pdsmem's own, from this scope
    assert back["factId"] == contract.fact_id(back) != original["factId"]
    assert back == {**original, "text": "The user now prefers Rust.", "factId": back["factId"]}


# --- small encodings ------------------------------------------------------------------------


@given(st.floats(min_value=0.0, max_value=1.0))
def test_confidence_string_is_exact(x):
    text = confidence_to_string(x)
    assert len(text) <= 32 and confidence_from_string(text) == x


@pytest.mark.parametrize("text", ["", "1.5", "-0.1", "0.1e3", ".5", "0..1", "nan", "inf", "0x1", "1" * 40, "0.5 "])
def test_bad_confidence_strings_are_rejected(text):
    assert confidence_from_string(text) is None


def test_cid_of_record_is_independent_of_key_order():
    value = to_record(fact(50), DID).value
    assert cid_for_json(_shuffled(value)) == cid_for_json(value)
    assert isinstance(Cid.decode(str(cid_for_json(value))), Cid)


@settings(max_examples=300, deadline=None)
@given(content=st.text(), key=st.text(min_size=1, max_size=4), extra=json_values)
def test_proof_fast_path_is_the_canonical_json(content, key, extra):
    from pdsmem.mapping.records import _canonical_bytes

    for ext in ({"id": "x", "turnIndex": 3, "transcript": {"userText": content, "assistantText": ""}}, {key: extra}):
        body = {"v": 1, "uri": "at://x", "content": content, "ext": ext}
        try:
            expected = contract.canonical_json(body).encode("utf-8", "surrogatepass")
        except Exception:
            continue
        assert _canonical_bytes(body, ext) == expected


def _supersession_order_reference(events):
    """``in_supersession_order`` as first written, one chain walk per event: the reference."""
    first = {}
    for index, event in enumerate(events):
        if event.get("eventType") == "fact":
            first.setdefault(event["factId"], index)
    order, done = [], set()
    for index in range(len(events)):
        chain, on_chain, current = [], set(), index
        while current is not None and current not in done and current not in on_chain:
            chain.append(current)
            on_chain.add(current)
            event = events[current]
            prior = event.get("supersedesFactId") if event.get("eventType") == "fact" else None
            current = first.get(prior) if prior else None
        for placed in reversed(chain):
            order.append(placed)
            done.add(placed)
    return order


_batch_event = st.builds(
    lambda kind, fid, prior: {"eventType": kind, "factId": fid, **({"supersedesFactId": prior} if prior else {})},
    st.sampled_from(["fact", "fact", "episode"]),
    st.sampled_from("abcdefg"),
    st.none() | st.sampled_from("abcdefgz"),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_batch_event, max_size=12))
def test_supersession_order_matches_the_chain_walk(events):
    from pdsmem.mapping.to_record import in_supersession_order

    assert in_supersession_order(events) == _supersession_order_reference(events)


def _to_records_reference(items, did, *, known_uris=None):
    """``to_records`` as it was before it planned only the superseded facts' at-uris: every fact
    of the batch got its at-uri before any was mapped. The reference."""
    from pdsmem.errors import PdsmemError
    from pdsmem.mapping.records import ItemFailure
    from pdsmem.mapping.syntax import Did
    from pdsmem.mapping.to_record import _at, _map, _planned_uri, in_supersession_order, prepare_item

    did = Did.parse(did)
    uris = dict(known_uris or {})
    options = {"publish_private": False, "include_transcript": False, "known_uris": uris}
    failed, prepared, planned = [], [], set()
    for position, item in enumerate(items):
        try:
            event, source = prepare_item(item)
        except PdsmemError as err:
            failed.append(ItemFailure(position, _at(err, position)))
            continue
        uri = None if source is not None else _planned_uri(event, did)
        fact_id = event.get("factId")
        if fact_id is not None and fact_id not in uris and (source is not None or uri is not None):
            uris[fact_id] = source.uri if source is not None else uri
            planned.add(fact_id)
        prepared.append((position, event, source, uri))
    mapped = {}
    for index in in_supersession_order([event for _, event, _, _ in prepared]):
        position, event, source, uri = prepared[index]
        try:
            mapped[position] = _map(event, source, did, uri=uri, **options)
        except PdsmemError as err:
            failed.append(ItemFailure(position, _at(err, position)))
            if event.get("factId") in planned:
                planned.discard(event["factId"])
                del uris[event["factId"]]
    failed.sort(key=lambda f: f.position)
    return [mapped[position] for position in sorted(mapped)], failed


_TIMES = ("2026-08-18T00:00:01Z", "2026-08-18T00:00:01Z", "1969-12-31T23:59:59Z", "0000-01-01T00:00:00Z",
          "2026-13-01T00:00:00Z", "1970-01-01T00:00:00+01:00")
_batch_fact = st.builds(
    lambda text, time, prior, source: (text, time, prior, source),
    st.integers(0, 4),  # which text: equal texts give equal ids (duplicates)
    st.sampled_from(_TIMES),
    st.none() | st.integers(0, 6),  # supersedes the fact of that text (5: one known before, 6: unknown)
    st.integers(0, 5),  # 0: comes from its record (patched), else new
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_batch_fact | st.just("episode") | st.just("junk"), max_size=10))
def test_to_records_plans_only_the_superseded_and_maps_as_the_reference(batch):
    ids = [contract.fact_id(fact(n)) for n in range(5)] + ["f" * 64, "e" * 64]
    known = {"f" * 64: f"at://{DID}/{RECORD_NSID}/3lbdoxxnfkc2c"}
    items = []
    for entry in batch:
        if entry == "episode":
            items.append(episode(len(items)))
        elif entry == "junk":
            items.append(["not an event"])
        else:
            text, time, prior, source = entry
            event = fact(text, validFrom=time, **({"supersedesFactId": ids[prior]} if prior is not None else {}))
            if source == 0:
                try:
                    record = to_record(fact(text), DID)
                except MappingError:
                    continue
                event = {"event": event, "record": record.to_json()}
            items.append(event)

    def outcome(result):
        records, failed = result
        return [r.to_json() for r in records], [(f.position, type(f.error), str(f.error)) for f in failed]

    assert outcome(to_records(items, DID, known_uris=known)) == outcome(
        _to_records_reference(items, DID, known_uris=known))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_CREDENTIAL_PIECES) | st.text(max_size=2), max_size=12).map("".join))
def test_the_pin_detector_is_skipped_only_where_it_cannot_fire(text):
    """The gate does not search a text without four ASCII digits for a PIN or a code: no match is
    lost by that."""
    assert privacy._PIN_OR_CODE in privacy._REQUIRED
    for pattern, required in privacy._REQUIRED.items():
        if pattern.search(text):
            assert required(text)
