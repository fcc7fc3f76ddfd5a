"""The privacy gate on what people told an agent, stored by the Hermes agent's own memory provider
(docs/reliability.md, "Four trials with the Hermes agent's provider").

The first trial (tests/fixtures/hermes_trial.json) is tuned on: every secret refused, every ordinary
memory kept. The second and the third (hermes_trial2.json, hermes_trial3.json) were held out for one
release, then tuned on: what they found that the rules could read in general was mended, and the
secrets they still pass and the ordinary memories they still refuse are listed. The fourth
(hermes_trial4.json), the fifth (hermes_trial5.json), the sixth (hermes_trial6.json), the seventh
(hermes_trial7.json), the eighth to the thirteenth (hermes_trial8.json to hermes_trial13.json) were held
out for a release or more too, then tuned on in the same way. The fourteenth to the sixteenth
(hermes_trial14_held.json to hermes_trial16_held.json) are held out:
the rules were not changed for them, and what they found is listed, so that a change sees it move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdsmem.mapping import privacy

TRIAL = json.loads((Path(__file__).parent / "fixtures" / "hermes_trial.json").read_text(encoding="utf-8"))
# the later trials, and what of each the gate still publishes or refuses (docs/reliability.md says why)
LISTED = {
    "hermes_trial2.json": ({  # tuned on
        "Wnuczek założył mi Facebooka. Login to mój e-mail, a hasło dał mi takie: krowka.Milka44",  # a word between
    }, set()),
    "hermes_trial3.json": (set(), set()),  # tuned on
    "hermes_trial4.json": ({  # tuned on
        "Fui no RU hoje, tinha strogonoff. A Carol pediu pra eu guardar a senha do email da atlética caso ela esqueça: "
        "fflch.atletica123",  # a value of dotted words, a clause after the word for a password
        "Hôm nay bán được 3 triệu, khách đông vì gần Tết. Zalo shop mới đổi thành Tet2025vui nhé",  # "changed to", no name
        "grabfood merchant đăng nhập bằng sđt, mk GrabLan2023@",  # "mk", Vietnamese's short "mật khẩu" (and "mình", I)
        "ghar ka wifi (ACT fibernet) chai_sutta_404",  # a wifi's password with no verb, in Hinglish
    }, set()),
    "hermes_trial5.json": ({  # tuned on
        "باسورد الراوتر في البيت 40719263",  # a password of digits a few words after its word, with no colon or verb
    }, set()),
    "hermes_trial6.json": ({  # tuned on
        "BVN security question (mother maiden name) answer na Okonkwo",  # a security answer, in Nigerian Pidgin
        "Moje hasło do Allegro to wiosna w Krakowie 1968",  # a password of words and a year after "to" (is)
        "the ssh key passphrase is 'colectivo 152 a Olivos' lol",  # a passphrase of words and a number, quoted
        "Kontoen min for oppgjør fra Råfisklaget: NO07 1503 38 22140",  # a Norwegian account, its check off
        "javab soal amniati bank: esme madarbozorgam Touran",  # a security answer, in Finglish
    }, {
        "GIG waybill for the last lace bale: GIG-LOS-4471829, expected Friday",  # a courier's waybill number
    }),
    "hermes_trial7.json": (set(), {  # tuned on
        "Shopee order #SHP-2207-556193, navy blue scrubs size M",  # an order's number (the learned layer)
    }),
    "hermes_trial8.json": (set(), set()),  # tuned on
    "hermes_trial9.json": (set(), set()),  # tuned on
    "hermes_trial10.json": ({  # tuned on
        'a senha do email pessoal é "sardinhas no S. João 1987"',  # a quoted passphrase, a saint's abbreviated name inside
        "كود باب العمارة ١٩٧٤ وبعدين اضغط الجرس",  # a building door's code that reads as a year, in Arabic-Indic digits
    }, set()),
    "hermes_trial11.json": (set(), set()),  # tuned on
    "hermes_trial12.json": (set(), set()),  # tuned on
    "hermes_trial13.json": ({  # tuned on
        "la contra del mail es gonza.bondi121 bo",  # "la contra", the River Plate's password ("contra" is "against")
    }, set()),
    "hermes_trial14_held.json": ({  # held out
        "o kwdikos gia to email tou grafeiou einai nikos_pir@83 , mh ton peis se kanena",  # a password, in Greeklish
        "Ο ΑΦΜ μου είναι 128053713, για την εφορία",  # a Greek tax number, its check holding
        "Το ντουλάπι μου στα αποδυτήρια του λιμανιού ανοίγει με 2-5-8-1",  # a locker that opens with, in Greek
        "o synagermos sto spiti ths manas mou sth Nikaia: 9 0 4 4 kai meta #",  # an alarm's code, in Greeklish
        "To prwto miso tou kwdikou gia to Taxisnet einai Mpouzouki",  # a password's first half, in Greeklish
        "Ο κωδικός εισόδου της πολυκατοικίας στην Καστέλλα είναι 1973Β",  # a building's entry code with a letter
        "Dukaan ke galle wali tijori ka code: teen saat nau do",  # a safe's code in number words, in Roman Urdu
        "دکان کے شٹر کے الارم کا کوڈ ۴۶۱۸ ہے",  # an alarm's code in the script's digits, in Urdu
        "Dulapul meu din vestiar are cifrul șapte-zero-doi-opt",  # a locker's code in number words, in Romanian
        "Mã cửa căn hộ ở quận 7: bốn bảy không hai",  # a flat's door code in number words, in Vietnamese
        "Ma du phong Facebook: 71829 40263 55170",  # backup codes, in Vietnamese without its accents
        "mk shopee la ngminh199O (chu O o cuoi, khong phai so 0)",  # a password after "mk", in Vietnamese
    }, set()),
    "hermes_trial15_held.json": ({  # held out
        "Akaunti ya NMB ya biashara ni 22510038471, jina Juma Samaki Traders, kwa malipo ya wateja wa hoteli.",  # an account
        "Namba yangu ya NIDA ni 19780415-71203-00002-18, niliiandika kwenye daftari lakini daftari limelowa.",  # a Tanzanian id
        "Kitambulisho changu cha Mzanzibari (ZAN ID) ni 040512873, kama wakiuliza bandarini.",  # a Zanzibari id
        "Paswedi ya Facebook nilibadilisha kuwa kigumbwe_Mkokotoni88 ila nadhani niliandika vibaya.",  # "paswedi"
        "API key ya Africa's Talking kwa SMS za wateja: atsk_7d5f82bcebc4d2504ff270e58c28d6f1f24762d3106ddfffcbcac5b7c3385356",
        "Piradi nomeri chemi aris 01024056789, sabutebistvis.",  # a Georgian personal number, in Latin letters
        "ავტოფარეხის კარის კოდი: ოთხი შვიდი ერთი ნული.",  # a garage door's code in Georgian number words
        "სადარბაზოს დომოფონის კოდია 27K1946.",  # an intercom's code with a letter, in Georgian
        "Telefonis ekranis paroli 081193, chemi dabadebis dghea, ar gamoikeno.",  # a phone's code, Georgian in Latin letters
        "Seifi saxlshi: 6-14-28, marjvniv-marcxniv-marjvniv.",  # a safe's dial, Georgian in Latin letters
        "Número do Cartão de Cidadão: 13829477 4 ZX9",  # a Portuguese citizen card's number, in its groups
        "Códigos de recuperação do Gmail: 8461 9023, 3370 5148, 6629 0015.",  # three backup codes, in Portuguese
        "Porta das traseiras: teclado 4 4 1 9 e depois o visto verde.",  # a keypad's digits, then a key, in Portuguese
        "Менің ЖСН (ИИН): 030514501239.",  # a Kazakh IIN, in Kazakh
        "Jataqhananyń esik kody: bes tórt jeti bir.",  # a door's code in Kazakh number words, in Latin letters
        "Telefonnyń PIN-kody: tórt segiz nól bir eki.",  # a phone's PIN in Kazakh number words
        "Пароль от вайфая в общаге: первая половина Shanyrak, вторая _A7b9.",  # a password in halves, in Russian
        "ਮੇਰਾ ATM ਪਿੰਨ 6294 ਹੈ, ਕਿਸੇ ਨੂੰ ਨਾ ਦੱਸੀਂ।",  # an ATM PIN, in Punjabi
        "SBI khata number 38104567219, IFSC SBIN0001234, Ajnala branch.",  # an account, in Punjabi in Latin letters
        "ਟਿਊਬਵੈੱਲ ਵਾਲੇ ਕਮਰੇ ਦੇ ਤਾਲੇ ਦਾ ਕੋਡ: ਤਿੰਨ ਨੌਂ ਦੋ ਪੰਜ।",  # a lock's code in Punjabi number words
        "PhonePe UPI pin da pehla adha 27, duja adha 95.",  # a UPI PIN in halves, in Punjabi in Latin letters
        "ਮੋਬਾਈਲ ਦਾ ਲਾਕ ਪਿੰਨ 250719, ਨਹੀਂ ਗਲਤੀ ਹੋ ਗਈ, 250791।",  # a phone's PIN corrected, in Punjabi
        "ਘਰ ਦੇ ਅਲਾਰਮ ਦਾ ਕੋਡ 8 3 3 0, ਫਿਰ ਹਰਾ ਬਟਨ।",  # an alarm's code a digit at a time, in Punjabi
    }, set()),
    "hermes_trial16_held.json": ({  # held out
        "SSS number ko ay 34-5821907-3 kung kailangan sa loan form",  # a Philippine social security number, in Tagalog
        "PhilHealth ID ko 12-025836147-9, kailangan sa admission ni Lola",  # a PhilHealth number
        "Narcotics cabinet code sa 4th floor med room: 51862, palitan daw next month",  # a cabinet's code, in Taglish
        "im Idram-i PIN-@ 7391 a, voch mekin chasem",  # a PIN with Armenian's article, in Latin letters
        "Դպրոցի դարպասի կոդը 2-5-8-0 է, հետո # սեղմել",  # a gate's code, in Armenian
        "Socialakan qarti hamars 3107852416 e, petq e lini pensiayi hamar",  # an Armenian social card's number
        "Ameriabank-i hashvehamars 1570 0332 1487 0100, ayntex poxancen ashxatavardz@",  # an Armenian bank account
        "Gmail-i pahestayin kodery՝ 4920-1183 ev 7765-0032",  # two backup codes, in Armenian in Latin letters
        "Տան ազդանշանի կոդը՝ յոթ, երեք, ինը, մեկ",  # an alarm's code in Armenian number words
        "Wi-Fi-i gaxtnabari arajin kes@ Yerevan2800 e, mnacac@ kasem heto",  # a password's first half, in Armenian
        "Իմ անձնագրի համարը AR0658213 է",  # an Armenian passport's number
        "Մարզադահլիճի պահարանի կոդը 4417 է",  # a locker's code, in Armenian
        "El RIB mta3i fel BIAT: 08 006 0123456789012 45",  # a Tunisian RIB, in Arabizi
        "Mot de passe mta3 el wifi fel 7anout: khobza_s5ouna",  # a password, in Arabizi
        "Numéro CNSS mte3i 0048213-52, lel retraite",  # a Tunisian social security number
        "Code el casier fel salle de sport: zouz tes3a setta wa7ed",  # a locker's code in Arabizi number words
        "Humo kartam 9860 4577 1270 7704, muddati 05/29",  # an Uzbek Humo card (an issuer the gate does not know)
        "Uzcard: 8600 7179 1702 3653, amal qilish muddati 10/27",  # an Uzcard
        "JSHSHIR raqamim 31505853120047, soliq uchun kerak",  # an Uzbek personal number
        "Kapitalbankdagi hisob raqamim: 2020 8000 9051 2345 6001",  # an Uzbek bank account
        "Seyf kodi — to'qqiz, ikki, nol, yetti, besh",  # a safe's code in Uzbek number words
        "Pasport seriyam va raqamim AD 4127759",  # an Uzbek passport's series and number
        "Gmail zaxira kodlari: 3318 0572, 9904 6621",  # two backup codes, in Uzbek
        "Birja kabineti parolining birinchi yarmi: Oltin_Ola, qolganini keyin aytaman",  # a password's first half
        "Миний регистрийн дугаар УБ89061512",  # a Mongolian register number
        "Хаан банкны дансны дугаар 5012 3456 78, тэтгэмж тэнд ордог",  # a Mongolian bank account
        "Гэрийн сейфний код: долоо, нэг, тэг, гурав",  # a safe's code in Mongolian number words
        "Хадгаламжийн дансны дугаар: нэг нэг тэг тав, тэг тэг ес найм долоо зургаа",  # an account in number words
    }, {
        "Numéro mta3 el fournisseur mta3 el farine (Les Grands Moulins): 71 234 567",  # a supplier's phone (learned layer)
    }),
}


def _trial(name: str) -> dict:
    return json.loads((Path(__file__).parent / "fixtures" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("index", range(len(TRIAL["secrets"])))
def test_every_secret_of_the_trial_is_refused(index):
    assert privacy.sensitive_reason(TRIAL["secrets"][index]) is not None, f"secret {index} would be published"


@pytest.mark.parametrize("index", range(len(TRIAL["ordinary"])))
def test_every_ordinary_memory_of_the_trial_is_kept(index):
    assert privacy.sensitive_reason(TRIAL["ordinary"][index]) is None, f"ordinary memory {index} refused"


@pytest.mark.parametrize("turn", TRIAL["turns"] + _trial("hermes_trial4.json")["turns"]
                         + _trial("hermes_trial5.json")["turns"]
                         + _trial("hermes_trial6.json")["turns"] + _trial("hermes_trial7.json")["turns"]
                         + _trial("hermes_trial8.json")["turns"] + _trial("hermes_trial9.json")["turns"]
                         + _trial("hermes_trial10.json")["turns"]
                         + _trial("hermes_trial11.json")["turns"]
                         + _trial("hermes_trial12.json")["turns"]
                         + _trial("hermes_trial13.json")["turns"] + _trial("hermes_trial14_held.json")["turns"]
                         + _trial("hermes_trial15_held.json")["turns"] + _trial("hermes_trial16_held.json")["turns"],
                         ids=lambda turn: "with a secret" if turn["secret"] else "without")
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


@pytest.mark.parametrize("name", sorted(LISTED))
def test_a_later_trials_secrets_are_refused_but_those_listed(name):
    missed = {text for text in _trial(name)["secrets"] if privacy.sensitive_reason(text) is None}
    assert missed == LISTED[name][0]


@pytest.mark.parametrize("name", sorted(LISTED))
def test_a_later_trials_ordinary_memories_are_kept_but_those_listed(name):
    assert {text for text in _trial(name)["ordinary"] if privacy.sensitive_reason(text)} == LISTED[name][1]


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


# What the second and third trials and a review of `convert` found, read in general (docs/reliability.md,
# "Four trials with the Hermes agent's provider"): each with the reason it is refused by.
@pytest.mark.parametrize(("text", "why"), [
    ("El NIP de mi tarjeta de BBVA es 2719, no se lo digas a nadie", "NIP, a PIN in Mexico and Quebec"),
    ("Namba ya siri ya kadi ya klabu ni 5813.", "Swahili's secret number, then 'ni' (is)"),
    ("엄마 카드로 게임 결제함 ㅠ 번호 9410 3384 8780 0467 유효기간 08/28", "a card of a national issuer, with its expiry"),
    ("Kreditkarte der Firma: 37825 18064 57787, gültig bis 03/28", "an Amex in three groups of five"),
    ("Mi CLABE para que me depositen la pensión: 012180015602398479", "a CLABE whose check digit holds, a clause on"),
    ("Google app password for Thunderbird: hjkw nqzp trvb lmxe", "four groups of four letters that are no words"),
    ("ETH wallet pk=430e494f5bdbd8d5fe9763ad75d7fcc574a6a44f8e468b36b0df1901cdb74c54", "64 hex after 'pk', of a wallet"),
    ("Hot wallet (Rabby): 0xACAE05D0352E2315131DE8AB31C81340A52CC63C24B7B9EE88340C2CB51EE298", "a wallet's 64 hex"),
    ("MetaMask key 0x0df77e6559825a57175176ddf9971c155909bcda18f8061b931090835500b6ad", "a wallet's key"),
    ("user root Tr0ub4dor", "a user and a password, a space between"),
    ("The FTP account is user ftpuser, bluebird88", "a user and a word and a number, a comma between"),
    ("Old Ubuntu box in the shop backroom: root, toor_Mooca2019", "root, then a password"),
    ("log into github with ocean–breeze–mango–lantern", "words joined by en dashes"),
    ("Il se connecte au serveur avec cheval-correct-pile-agrafe.", "French: se connecte … avec"),
    ("Accede al correo con la frase mesa-nube-tigre-verde.", "Spanish: con la frase"),
    ("Fürs Heim-NAS nehme ich die Passphrase pferd batterie heftklammer richtig", "a passphrase's plain words"),
    ("Hab den Vault-Unseal-Key notiert: 4tQ7m+Lx9Vz2Wk8Rp1Bn3Yc6Hd0Js5Fg7Ae2Ku4Mi=", "an unseal key, dashed"),
    ("Apartmanın kapı kodu 1907, Fenerbahçe'nin kuruluş yılı", "a door's code that is a year, right after its name"),
    ("La contraseña de mi celular es la fecha de mi boda, 150672", "a password that is a date, told so"),
    ("Kız kardeşimin laptopunun giriş parolası annemin doğum günü: 12031968", "the same in Turkish"),
    ("문화상품권 핀번호 4185-2290-6631-0744 아직 안 씀", "a gift card's PIN in groups"),
    ("que no se lo diera a nadie: 774921", "a number told to be shared with no one"),
    ("The code is 48213, don't tell anyone.", "the same, the other way round"),
    ("Den Zugang zum Hausflur-Tastenfeld hat der Vermieter geändert: jetzt 5520", "a keypad, in German"),
    ("namba yangu ya siri ni 7731", "Swahili's secret number, 'my' between"),
    ("Contraseña de aplicación: HJKW NQZP TRVB LMXE", "an app password in capitals"),
    ("Nº 9410 3384 8780 0467 vence 08/28", "a national issuer's card, its expiry said in Spanish"),
    ("Exodus key 0xef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d", "another wallet's key"),
    ("wifi-pw-sunflower1962", "a name's parts read as words (a memory's kind)"),
    ("session-PIN-6124", "the same, a PIN's digits (an external session's id, a new user's try)"),
    ("eth.wallet.privkey.e17964b8e0416e15a38a43d1aa749599e56fd25602e9367ee3fae97214c5e3d6", "the same (a subject key)"),
])
def test_what_the_later_trials_found(text, why):
    assert privacy.sensitive_reason(text) is not None, why


@pytest.mark.parametrize("text", [
    "Login formunda password alanı type=password, autocomplete=current-password olmalı",  # a form's attributes
    "Monitoring: Zabbix 6.4.12 auf monitor01, Grafana 10.4",  # a numbered machine
    "Order 1234 5678 9012 3452 shipped 03/12",  # 16 digits and a date, no card
    "Just a nip of whisky at 2100 before bed",
    "Namba ya siri lazima iwe na tarakimu 4; usitumie 1234 wala 0000.",  # advice about a PIN
    "Google app password example from the help page: abcd efgh ijkl mnop.",
    "The password manager says have been very good",
    "row pk=430e494f5bdbd8d5fe9763ad75d7fcc574a6a44f8e468b36b0df1901cdb74c54 in the events table",  # no wallet
    "wallet tx: 0xACAE05D0352E2315131DE8AB31C81340A52CC63C24B7B9EE88340C2CB51EE298",
    "User ran 3x800m intervals at 3:45/km pace.",
    "The user paid R$63.401,52 for the lamp on 2014-10-30.",
    "Roles: admin, Editor2 and Viewer",
    "sign in with the oauth-device-code-flow",
    "the passphrase should be long and easy to remember",
    "I set the passphrase policy minimum length words four",
    "The house was built in 1907 and the door code changed last week",
    "My birthday is 12031968 and the password reset is due",
    "Password rotated on the wedding anniversary; ticket 150672",
    "Room 4821, don't tell anyone I moved",
    "user.preference.editor-theme",
    "project:pdsmem/auth/password-hashing",
    "pw-reset-token-ttl",
    # a review's ordinary texts the first form of these mends refused (review41)
    "wifi-password-on-fridge", "user.alice.smith1990", "pin-code-reminder-dentist-0930",
    "Postcard from Lisbon arrived; tracking 0034 0434 1122 3340 delivered 04/25",
    "Opal card 3085 2200 1234 5670 topped up, next auto-reload 07/25",
    "Kredi kartı ekstresi 0034 0434 1122 3340 numaralı dekont, son ödeme 05/25",
    "Delivery zones for the Nashville shop: 37201 37202 37208",
    "Ejemplo de CLABE de la documentación de Banxico: 032180000118359719 (no es real)",
    "Nostr pk 4e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce (public, share freely) — crypto profile",
    "Crypto trades table row pk=d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35 duplicated",
    "wallet (Rabby): 5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9 is the tx hash of the failed swap",
    "User prefers python311.", "User runs ubuntu2204.", "Deleted user alice, ticket4521.",
    "GitHub username octocat, joined2011.", "Accounts to migrate: guest, alice2024, bob", "File owned by root, perms0600.",
    "The orders service connects with payments-ledger-events-stream over Kafka.",
    "Swapped the header logo with acme-mark-white-horizontal.svg",
    "SEO phrase: best-running-shoes-women ranks 4th", "Der Satz: ohne-fleiß-kein-preis-eben",
    "SSH key passphrase entropy estimates vary widely.", "la phrase de passe protège votre clé privée.",
    "Private key fingerprint SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
    "Changed the router password on our wedding anniversary 20230612, as we do every year.",
    "Passwort läuft am Geburtstag ab, Termin 20240612",
    "Amazon gift card: 1000 3000 5000 yen, buy at the konbini", "Pin 2019 2020 2021 collection from Disneyland complete",
    "El presupuesto equivale 1500 2300 4100 euros por fase",
    "She's pregnant, due in 2025, don't tell anyone.", "Salary offer was 85000, don't tell anyone.",
    "No se lo digas a nadie: 2026 nos mudamos a Oaxaca", "Türcode 2024 geändert, neuer Code liegt beim Hausmeister.",
])
def test_and_what_the_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None


# What the fourth trial found, read in general (docs/reliability.md, "The round on tune28").
@pytest.mark.parametrize("text", [
    "my BVN is 22187465530",  # Nigeria's bank verification number
    "sim puk code 48213907 in case the phone locks again",  # "in case" is no inch
    "máy pos của quán, mã quản lý là 9021",  # a till's manager code, in Vietnamese
    "mã dự phòng tiktok shop: 38201947 55120836 90473318 12860459",  # backup codes, in Vietnamese
    "btw kubeadmin for the openshift test cluster is qTz7P-Lm2Kx-Ra9Wv-Bn4Hc",  # OpenShift's kubeadmin password
    "sendgrid key SG.xY7kP2mQ9rT4vB1nC6dF8g.h3Jk5Lm7Np9Qr2St4Vw6Xy8Za0Bc2De4Fg6Hi8Jk0L",  # a character short
    "per entrare nel registro elettronico uso Manzoni1827 come sempre",  # "I use" in Italian
    # and what a try through the Hermes provider after it found (no digit in the password; "Zahlencode")
    "OpenShift lab cluster: kubeadmin / aBcDe-FgHiJ-kLmNo-PqRsT",
    "Für die Gartenpforte gilt der Zahlencode 58120, sagt Ilse.",
])
def test_what_the_fourth_trial_found(text):
    assert privacy.sensitive_reason(text) is not None


@pytest.mark.parametrize("text", [
    "The shelf is 24 in wide and 12 in deep.",
    "Nine Inch Nails (NIN) tickets: order 4411223344",
    "kubeadmin login disabled after htpasswd provider added, ticket OPS-12345-ABCDE",
    "En el portal hago uso de Python3 para todo",
    "per entrare in palestra uso il badge 4417 del comune",
])
def test_and_what_it_still_passes_after_the_fourth(text):
    assert privacy.sensitive_reason(text) is None


# What the sixth trial found, in the general forms mended (after one release held out).
@pytest.mark.parametrize("text", [
    "Numer naszego konta: 61 1090 1014 0000 0712 1981 2874",  # an account named "of our account"
    "Mi CBU: 2850590940090418135201, Banco Macro",  # an Argentine CBU (its two check digits hold)
    "Caja de seguridad del banco, combinación 27-14-33",  # a safe deposit box's combination
    "Koden til safen er 4-22-17.",  # a safe, by its Norwegian article
    "PUK for the old phone: 83920174",  # a PUK's eight digits
    "Roller shutter code 4471 for the garage",  # a shutter's code
    "کارت بانکی ۶۰۳۷ ۹۹۷۵ ۱۲۳۴ ۵۶۷۰",  # a card (its Luhn check holds) in Persian digits
    "کد قفل دوچرخه ۷۳۱۹",  # a lock's code in Persian digits
    "ramz-e kart 5531",  # a card's code in Finglish
])
def test_what_the_sixth_trial_found(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "Numer mojego konta się nie zmienił.", "CBU: lo mando por WhatsApp mañana.",
    "Caja de seguridad abierta el 12-04-23 en presencia del notario.", "Safen ble levert 12. mars.",
    "The PUK letter came with the new SIM.", "Shutter count 24531 on the old body.",
    "سفارش ۴۵۸۷۲۱ فردا تحویل داده می‌شود.", "ramz-e kart ro avaz kardam.",
])
def test_and_what_its_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# What the seventh trial found, in the general forms mended (after one release held out).
@pytest.mark.parametrize("text", [
    "số tài khoản 19033344455566 ngân hàng Techcombank",  # a Vietnamese account, after its name
    "so tai khoan Vietcombank: 0011004123456",  # the same without its accents
    "STK Vietcombank: 0011 0041 23456",  # "STK", its short name, and a bank's
    "KiotViet admin, mat khau ThuyTien#2023",  # "mật khẩu" without its accents
    "mk: lan.hanoi@1987",  # "mk", its short form, before a colon
    "mk shopee: Hoa.Sen#2021",  # and after the app it opens
    "Booking.com extranet şifrem Sultan.Ahmet_1453",  # two words joined by a stop, a number after "_"
    "Mã báo động cửa hàng: 1357",  # a shop alarm's code, in Vietnamese
    "mã két sắt là 4012",  # a safe's code, "là" (is)
    "Mã cổng: 2580",  # a gate's code
    "The alarm master code is 4471",  # a master code
    "kelmet el ser bta3t el facebook Nour.Alex#88",  # a password in Egyptian Arabic's Latin spelling
    "el code bta3 bab el 3omara #2214",  # a building door's code, likewise
    "Kortin tunnusluku on 4471",  # a card's PIN in Finnish
    "backup codes: 52918 77302 10484 66931",  # codes of five digits, named codes
    "cau hoi bi mat tai khoan gmail: ten con cho dau tien = Mực",  # a security answer without its accents
    "Câu hỏi bảo mật: tên thú cưng đầu tiên là Mực",  # and with them
])
def test_what_the_seventh_trial_found(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "số tài khoản của shop sẽ gửi sau, mã đơn 1234567890",  # an order's number in the next clause
    "Bestellung: 5 Stk. 4006381333931",  # German's "Stk." of pieces, and a barcode
    "MK: Milton Keynes 2019",  # "MK", a town
    "Hay que cambiar la contraseña de Sala-Reuniones-3 antes del lunes.",  # a room's name
    "mã báo động phải đổi 3 tháng một lần",  # the alarm code must change every 3 months
    "merged the master code into release 2024",
    "kelmet el ser lazem tkoun 8 7roof",  # the password must be 8 letters
    "el code bta3 el bab 4417 da raqam el far3",  # a branch's number
    "Tunnusluvun pituus on 4 numeroa",  # a PIN has 4 digits
    "backup jobs 10234, 10235, 10236 and 10237 failed",  # job ids
])
def test_and_what_the_seventh_trials_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# What the eighth and the ninth trials found, read in general: in English too, and in the other languages
# of each list the mends extended
@pytest.mark.parametrize("text", [
    "GPG passphrase: 'old locomotive goes to Pilsen 1972'",  # a quoted phrase with a short word, a colon after the name
    "home alarm code 1966",  # a code that reads as a year, right after an alarm's code
    "alarm code at home 1966",
    "Key box code at home 1972",
    "Kód od dveří do domu v Dejvicích 1948*0",  # a year that a key follows is a code
    "Grab driver API key gb_live_0a9f3c2e8d7b6a5f4e3d2c1b0a9f8e7d",  # a live-mode key of Stripe's form
    "acc no. at my bank 1450293844715",  # "acc no." of one's own
    "transit 30215, institution 815, compte 0482913",  # a Canadian account in French
    "สัญญาณกันขโมย: รหัสประตูที่ร้าน 1975",  # a shop door's code that reads as a year, in Thai
    "দরজার কোড 5521",  # a door's code in Bengali
    "სეიფის კოდი 8817",  # a safe's code in Georgian
    "보관함 암호 4471",  # a locker's passcode in Korean
    "భద్రతా ప్రశ్న: మొదటి పాఠశాల — జెడ్పీ హైస్కూల్",  # a security answer in Telugu
])
def test_what_the_eighth_and_ninth_trials_found(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "the password is 'on the fridge'",  # where it is, quoted
    "the password was 'the same as the old one'",
    "password: 'written on a sticky note'",
    "Alarm code 2019 changed by the installer",  # a year that does not end its clause
    "the alarm code was set up in 2019.",
    "암호화 키 256비트, 2048",  # encryption, not a passcode
    "acc no. 5 of 12 in the ledger",
    "is_live_environment_configuration_flag_enabled",  # a name in code
    "নিরাপত্তা প্রশ্ন নতুন অ্যাপে, দায়িত্বে: রাহুল",  # who owns the feature (a review's text)
    # what a review of these mends wrote (review62), which their first forms refused
    "Guest wifi at the cafe: password: 'ask staff at the counter' is what the sign says.",
    "Avviso sulla porta del B&B, password per il wifi: 'chiedere alla signora Rosa al piano terra'.",
    "Fire inspection notes: the building follows the fire alarm code 2019.",
    "Our HOA board voted to adopt the alarm code 2022, which requires monitored panels.",
    "Renovation checklist - smoke detectors, alarm code 2018, sprinklers.",
    "Got a quote from Honeywell for the alarm, installed 2019* (*warranty runs five years).",
    "A riasztókód: 2018, akkor szereltük be, a kódot Péter tudja.",
    "საფოსტო კოდი 0179, ვაკე, თბილისი — ამანათი იქ უნდა მივიდეს.",
    "შეცდომის კოდი 5021 ამოდის სარეცხ მანქანაზე, ხელოსანს დავურეკე.",
    "ლოკერი 214 სპორტდარბაზში — ჩემი ნომერი, გასაღები რეცეფციაზეა.",
    "암호 화폐 시세가 너무 떨어졌다, 비트코인 8500만원.",
    "암호학 수업 3학점, 화요일 10시 302호.",
    "암호 모듈 검증(KCMVP) 신청 2024년 3월, 수수료 500만원.",
    "আলমারির কোড তালা মডেল ৭০৮, গোদরেজের।",
    "Our test names in the Go repo look like func test_live_StreamReconnectsAfter30SecondsTimeout, weird style but Karim likes it.",
    "Stripe checkout link we sent the customer: https://checkout.stripe.com/c/pay/cs_live_a1Kx9QwErTy7UiOp3AsDfGhJkL2ZxCvB",
    "Library book: Acc. No. 104523, call number 823.914 ROW, due 12 May.",
    "บิลค่าไฟ PEA เลขที่บัญชีแสดงสัญญา 020012345678 ยอด 1,240 บาท จ่ายภายใน 25 นี้",
    "Montreal trip: STM transit pass 10452 loaded, hotel folio 8834521 for the expense report.",
    "DHL parcel in transit 4821093375, customs folio 2024071234 from the SAT office in Mexico.",
    "নিরাপত্তা প্রশ্ন পেজ লোড হচ্ছে না, অগ্রাধিকার: উচ্চ",
    "பாதுகாப்பு கேள்வி பக்கம் திறக்கவில்லை, நிலை: திறந்துள்ளது",
    "భద్రతా ప్రశ్న పేజీ లోపం, ప్రాధాన్యత: ఎక్కువ",
])
def test_and_what_the_eighth_and_ninth_trials_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text


# what the twelfth trial found, read in general: the same forms in other words than the trial's
@pytest.mark.parametrize("text", [
    "the key cupboard code is 4471",  # a cupboard's code, as a door's
    "Drug cupboard code: 1987",  # even one that reads as a year, right after its name
    "gym locker in the staff changing room - 5830",  # a locker's code after the room it is in and a dash
    "otvet na kontrol'nyj vopros (gorod rozhdeniya): Kostanay",  # a security answer, Russian in Latin letters
    "router u babushki, parol' 77015556622",  # a Wi-Fi's password of a phone's digits after "parol'"
    "wifi password 87015554433",  # and after "password", with no verb
    "ormarić na bazenu, kombinacija 12-05-91",  # a locker's combination that reads as a date, in Croatian
    "clé API Mailjet pr la newsletter: 7e0a1c94bd3f2286e1a4c9",  # an API key of 22 hex digits after its colon
    "norek Mandiri aku 1370012345678",  # an Indonesian bank account after "norek"
    "WLAN u bake, mreža Zagreb_Net, ključ dubrava77sunce",  # a Wi-Fi's key after "ključ", no verb
    "WiFi na poslu: mreža Ured_5G, ključ jadran2024more",  # the network's name with a digit before it
    "l'alarme du dépôt c 1991 puis OK",  # an alarm's code that reads as a year, a key pressed after it
])
def test_what_the_twelfth_trial_found(text):
    assert privacy.sensitive_reason(text) is not None, text


@pytest.mark.parametrize("text", [
    "kod goroda Astana 7172, iz-za granicy +7",  # a city's dialling code, Russian in Latin letters
    "код страны Казахстан 7, потом номер",  # a country's, in Cyrillic
    "Trening boks w środę: kombinacja 1-2-3-2, potem worek.",  # a boxing combination
    "kombinacija boja 30-12-58 iz kataloga",  # a colour combination's catalogue number
    "rezervacija za 4 osobe: 4821 9930, 1177 2046",  # a reservation, not spare codes
    "password 12345678 characters long is the minimum",  # a count after "password"
    "wifi key WPA2-PSK on the old router",  # the key's kind
    "the mongo _id of the key doc: 5e551305fd2d2490ca4c616e",  # a document's id, no credential named
    "l'alarme installée en 1984 puis OK au contrôle",  # the year an alarm was fitted
    "locker in the changing room - 112",  # a locker's own number
    "la taille du coffre 350 litres",  # a car boot's size
])
def test_and_what_the_twelfth_trials_mends_still_pass(text):
    assert privacy.sensitive_reason(text) is None, text
