"""The gate's validators of structured personal data: numbers and phrases a pattern alone cannot
tell from ordinary ones, proven by their own check digits or word lists.

- a payment card number (13 to 19 digits, whole or in groups) of a known issuer whose Luhn check
  holds (``stdnum.luhn``), with or without its expiry and CVV;
- an IBAN whose length fits its country and whose mod-97 check holds (``stdnum.iban``); a US
  routing number whose ABA check holds (``stdnum.us.rtn``) beside an account number; a UK sort
  code beside an account number; an account number stated as one's own;
- a US social security number (``stdnum.us.ssn``: no 000, 666 or 9xx area, no 00 group, no
  0000 serial), written 123-45-6789 or 123 45 6789, or as nine digits after a word for it;
- 2FA backup code lists, TOTP seeds (``otpauth://`` URIs, and base32 keys) and runs of 12 to 24
  words of one BIP-39 word list (the ``mnemonic`` package's lists of nine languages written with
  spaces between words), unless they follow the list's order (a page of the list is no phrase);
- a card's CVV stated as such.

Each check runs only where its cheap precondition holds (enough digits, enough words), so an
ordinary memory costs a few C-speed scans. Pure functions, no I/O.
"""

from __future__ import annotations

import collections
import itertools
import re
import unicodedata
from collections.abc import Iterator
from functools import cache


from pdsmem.mapping.privacy import words
from pdsmem.mapping.privacy.plain import Needles, lazy, lowered_search
from pdsmem.mapping.sha256 import sha256

_DIGITS = lazy(r"[0-9]").findall

# 13 to 19 digits, plain or in groups joined by single spaces or dashes (4-4-4-4, 4-6-5)
# (or in four groups of four with dots between: "4045.5006.4661.8072"; an Amex may be given in
# three groups of five: "37825 18064 57787")
_CARD = lazy(r"(?<![0-9A-Za-z.,/-])(?:[0-9]{4,5}(?:[ -]?[0-9]{2,6}){2,4}(?:[ -]?[0-9]{1,4})?|[0-9]{4}(?:\.[0-9]{4}){3})"
             r"(?![0-9A-Za-z]|[.,/-][0-9])")


# the first six digits of the cards of Iran's banks that no list above holds (Melli, Keshavarzi,
# Saderat, Mellat, Ayandeh, Hekmat, Sina, Sarmayeh, Mehr Eghtesad, Ghavamin, Mehr Iran, Melal)
_SHETAB_BANKS = frozenset(("603799", "603770", "603769", "610433", "636214", "636949", "639346", "639607", "639370",
                           "639599", "606373", "606256"))


def _card_issuer(digits: str) -> bool:
    """Whether a known card issuer uses ``digits``' first digits and length."""
    length, two, four = len(digits), int(digits[:2]), int(digits[:4])
    if digits[0] == "4":  # Visa
        return length in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:  # Mastercard
        return length == 16
    if two in (34, 37):  # American Express
        return length == 15
    if digits.startswith("6011") or two == 65 or 644 <= int(digits[:3]) <= 649:  # Discover
        return 16 <= length <= 19
    if 3528 <= four <= 3589:  # JCB
        return 16 <= length <= 19
    if two in (36, 38) or 300 <= int(digits[:3]) <= 305:  # Diners Club
        return 14 <= length <= 19
    if two == 62:  # UnionPay
        return 16 <= length <= 19
    if two in (50, 56, 57, 58, 67, 63):  # Maestro
        return 12 <= length <= 19
    if digits[:6] in _SHETAB_BANKS:  # Iran's banks (their cards' network, Shetab)
        return length == 16
    return False


# Numbers that payment providers and the IBAN registry publish for tests and documentation (Stripe's,
# Braintree's and Adyen's test cards; the registry's example IBANs): no one's card or account, and
# quoted in memories about testing a checkout. One passes only in a text that says it is a test
# or an example and gives no expiry date or security code with it: "4111 1111 1111 1111, exp
# 12/28, CVV 123" is written as a real card is.
_PUBLISHED_TEST_CARDS = frozenset((
    "4242424242424242 4000056655665556 5555555555554444 2223003122003222 5200828282828210 5105105105105100"
    " 378282246310005 371449635398431 6011111111111117 6011000990139424 3056930009020004 36227206271667"
    " 3566002020360505 6200000000000005 4111111111111111 4012888888881881 4222222222222 3530111333300000"
    " 5431111111111111 4005519200000004 4009348888881881 4012000033330026 4012000077777777"
    " 4217651111111119 4500600000000061 370000000000002 6011601160116611 4000000000009995 4000002500003155"
    " 4000000000000002 4000000000000069 4000000000000127 4000000000000119 4000002760003184 4000000000000259"
    " 4000000000003220 4000000000000341"
    # Stripe's cards of a country (Brazil, Mexico, India, …) and Adyen's
    " 4000000760000002 4000004840008001 4000003560000008 4000000360000006 4000001240000000 4000000400000008"
    " 5555341244441115 4111111145551142 5454545454545454 2222400070000005 4166676667666746 6771798021000008"
).split())
# Adyen's test cards are documented with one expiry date and one security code: those two are no card's
_ADYEN_EXPIRY, _ADYEN_CVC = "03/2030", ("737", "7373")
# Stripe's testing guide gives one: "Use a valid future date, such as 12/34"
_STRIPE_EXPIRY = "12/34"
_PUBLISHED_TEST_IBANS = frozenset(
    "DE89370400440532013000 GB82WEST12345698765432 GB29NWBK60161331926819 FR1420041010050500013M02606"
    " NL91ABNA0417164300 ES9121000418450200051332 IT60X0542811101000000123456"
    " CH9300762011623852957 AT611904300234573201"
    # the registry's examples of other countries (each passes its national check too)
    " PL61109010140000071219812874 DK5000400440116243 FI2112345600000785 NO9386011117947 SE4550000000058398257466"
    " PT50000201231234567890154 IE29AIBK93115212345678 LU280019400644750000 CZ6508000000192000145399"
    " HU42117730161111101800000000 SK3112000000198742637541 SI56263300012039086 GR1601101250000000012300695"
    " RO49AAAA1B31007593840000 BG80BNBG96611020345678 HR1210010051863000160 LT121000011101001000"
    " LV80BANK0000435195001 EE382200221020145685 IS140159260076545510730339 LI21088100002324013AA"
    " MT84MALT011000012345MTLCAST001S CY17002001280000001200527600 TR330006100519786457841326"
    " SA0380000000608010167519 AE070331234567890123456 IL620108000000099999999 BR1800360305000010009795493C1"
    " MC5811222000010123456789030 SM86U0322509800000000270100 AD1200012030200359100100 GI75NWBK000000007099453"
    " FO6264600001631634 GL8964710001000206 BA391290079401028494 RS35260005601001611379 ME25505000012345678951"
    " MK07250120000058984 AL47212110090000000235698741 XK051212012345678906 MD24AG000225100013104168"
    " UA213223130000026007233566001 GE29NB0000000101904917 AZ21NABZ00000000137010001944 KZ86125KZT5004100100"
    " QA58DOHB00001234567890ABCDEFG BH67BMAG00001299123456 KW81CBKU0000000000001234560101"
    " JO94CBJO0010000000000131000302 LB62099900000001001901229114 PK36SCBL0000001123456702"
    " PS92PALS000000000400123456702 TN5910006035183598478831 MU17BOMM0101101030300200000MUR"
    " CR05015202001026284066 DO28BAGR00000001212453611324 GT82TRAJ01020000001210029690 VG96VPVG0000012345678901"
    " TL380080012345678910157 EG380019000500000000263180002 BY13NBRB3600900000002Z00AB00"
    " SV62CENR00000000000000700025 VA59001123000012345678 LY83002048000020100120361".split()
)
_NAMED_A_TEST = lowered_search(
    r"(?i)test|sandbox|staging|example|sample|docs|documentation|dummy|fake|demo|beispiel|ejemplo|exemple|esempio"
    r"|voorbeeld|przykład|exemplo|prueba|prova|teste|テスト|测试|테스트|тест|δοκιμ|próbn|testow"
    # "sample" in other languages: "el IBAN de muestra", "Muster-IBAN"
    r"|muestra|amostra|muster|campione|échantillon|echantillon|próbk|probk|exempel|eksempel|esimerk"
    r"|placeholder|platzhalter"
    # a number given to check a validator with, or said to be made up: "CLABE validator unit test vector …",
    # "(no es real)"
    r"|documentaci|validator|validador|vector|fictici|no\s++es\s++real|not\s++real")
# a card's expiry date as a card gives it ("12/28", "09/2027"): "any future expiry date" gives none
_EXPIRY = lazy(r"(?<![0-9/])(?:0[1-9]|1[0-2])\s*+/\s*+(?:20)?[0-9]{2}(?![0-9/])").search


def _published_example(value: str, text: str, published: frozenset[str]) -> bool:
    """Whether ``value`` is one of the ``published`` test numbers, in a text that names it so and
    gives no expiry date or security code with it."""
    if value not in published or not _NAMED_A_TEST(text):
        return False
    cvv = _CVV.search(text)
    if _ADYEN_EXPIRY in text and (cvv is None or cvv[0].endswith(_ADYEN_CVC)):
        return not _EXPIRY(text.replace(_ADYEN_EXPIRY, ""))  # Adyen's documented "03/2030" and "737"
    if _STRIPE_EXPIRY in text and cvv is None:
        return not _EXPIRY(text.replace(_STRIPE_EXPIRY, ""))  # Stripe's "a valid future date, such as 12/34"
    return not _EXPIRY(text) and cvv is None


def _adyens_documented_card(text: str) -> bool:
    """A test card with the expiry and security code Adyen documents for every test card, named a test."""
    return _ADYEN_EXPIRY in text and any(
        _published_example(re.sub("[ .-]", "", match[0]), text, _PUBLISHED_TEST_CARDS)
        for match in _CARD.finditer(text))


# what a product's number is called, right before it: a barcode's 13 digits pass Luhn's check one
# time in ten ("Barcode on the filter cartridge: 4016661116956")
_A_PRODUCTS_NUMBER = lazy(r"(?i)(?<![\w-])(?:barcode|bar\s++code|ean(?:-?1[38])?|gtin(?:-?1[234])?|upc|isbn(?:-?1[03])?)"
                          r"(?![\w-])[^0-9\n]{0,30}$")


# a card's number named right before it, or its brand: then any issuer, and 12 digits (a Maestro's
# shortest): "card number 213117053278383", "La carta Maestro della nonna è 501800256577" (and a bank card
# in Persian and Arabic, whose national issuers the list above has not: "کارت بانکی ۶۰۳۷ ۹۹۷۵ …")
_A_CARDS_NUMBER = lazy(r"(?i)(?:card\s*+(?:number|no\b\.?|nr\b\.?|#)|num[ée]ro\s++de\s++(?:la\s++)?(?:carte|tarjeta|cart[ãa]o)"
                       r"|kartennummer|numero\s++(?:della\s++|di\s++)?carta|kaartnummer|kortnummer|numer\s++karty|номер\s++карты"
                       r"|شماره\s*+کارت|کارت\s*+(?:بانکی|عابر\s*+بانک)|رقم\s*+(?:ال)?بطاقة)"
                       r"[^0-9\n]{0,20}$"
                       r"|(?<![\w-])(?:visa|master\s*+card|maestro|amex|american\s++express|discover|diners(?:\s++club)?|jcb|unionpay"
                       r"|mir|мир|carte\s++bleue|cartes?\s++bancaires?)(?![\w-])[^0-9\n]{0,40}$")


# a word for a payment card, anywhere in the text
_A_CARD_WORD = lazy(r"(?i)(?<![^\W\d_])(?:card|karte|kreditkarte|tarjeta|carte|carta|cart[ãa]o|kart[ıi]?|karta|karty|kaart|کارت|(?:ال)?بطاق\w*"
                    r"|карт\w*|thẻ)(?![^\W\d_])|카드|卡|カード").search
# an expiry date said so: its word, then the month and the year ("exp 11-27", "gültig bis 03/28",
# "유효기간 08/28", "vence 08/28")
_EXPIRY_TOLD = lazy(
    r"(?i)(?:(?<![^\W\d_])(?:exp|expiry|expires?|expiration|valid\s++(?:thru|through|until|till)|good\s++thru|gültig\s++bis"
    r"|ablaufdatum|vence|vencimiento|caducidad|caduca|válid[ao]\s++hasta|expire|valable\s++jusqu['’]au|scadenza|scade"
    r"|validade|válido\s++até|geldig\s++tot|ważna\s++do|son\s++kullanma(?:\s++tarihi)?|hết\s++hạn|годна\s++до"
    r"|срок\s++действия)(?![^\W\d_])|유효\s*+기간|有効期限|有效期)"
    r"[^0-9\n]{0,12}(?<![0-9])(?:0[1-9]|1[0-2])\s*+[/.-]\s*+(?:20)?[0-9]{2}(?![0-9])")


def _card(text: str) -> bool:
    expiry_told: bool | None = None
    for match in _CARD.finditer(text):
        digits = re.sub("[ .-]", "", match[0])
        if not 12 <= len(digits) <= 19 or not _validator('luhn').is_valid(digits):
            continue
        before = text[max(0, match.start() - 60):match.start()]
        named = _A_CARDS_NUMBER.search(before) is not None
        if expiry_told is None:  # (once a text, and only for a number that passes Luhn's check)
            expiry_told = _EXPIRY_TOLD.search(text) is not None
        if not (13 <= len(digits) and _card_issuer(digits) or named or len(digits) == 16 and expiry_told):
            continue  # an issuer's number, or a card's, said so, or 16 digits with an expiry said so (a
            # national issuer's card: "번호 9410 3384 8780 0467 유효기간 08/28", "Nº 9410 … vence 08/28")
        if len(match[0]) - len(digits) == 2 and match[0][5:6] in " -" and not (
                expiry_told or named or _A_CARD_WORD(text)):
            continue  # three groups of five are an Amex's only where a card is said: not ZIP codes "37201 37202 37208"
        if not _published_example(digits, text, _PUBLISHED_TEST_CARDS) and not _A_PRODUCTS_NUMBER.search(before):
            return True
    return False


def _mod97_ends(body: str, country: str) -> list[int]:
    """The lengths of ``body``'s prefixes that pass ISO 13616's check with ``country`` (its first
    four characters) moved behind them, letters read as 10 to 35: a pass in one walk, cheap enough
    to try before stdnum's full check."""
    tail = "".join(str(int(char, 36)) for char in country)
    shift, rest, ends = 10 ** len(tail), int(tail), []
    remainder = 0
    for at, char in enumerate(body, start=1):
        for digit in str(int(char, 36)):
            remainder = (remainder * 10 + int(digit)) % 97
        if at > 10 and (remainder * shift + rest) % 97 == 1:
            ends.append(at)
    return ends


_IBAN_START = lazy(r"(?<![A-Za-z0-9])([A-Z]{2}[0-9]{2})((?:[ ]?[A-Z0-9]){11,30})")


# Countries whose banks number accounts as IBANs that the IBAN registry (and stdnum's copy of it)
# does not list, each with its length, every character after the country's two letters a digit:
# Iran's "Sheba", Algeria, Angola, Cape Verde, Mozambique, Morocco, Madagascar and the Central
# African states. Their mod-97 check holds as any IBAN's does (docs/mapping.md: "an IBAN whose
# mod-97 check holds").
_IBANS_OUTSIDE_THE_REGISTRY = {"IR": 26, "DZ": 26, "AO": 25, "CV": 25, "MZ": 25, "MA": 28, "MG": 27,
                               "CM": 27, "CF": 27, "TD": 27, "CG": 27, "GA": 27, "GQ": 27}


def _an_iban(iban: str, text: str) -> bool:
    if iban[:2] in _IBANS_OUTSIDE_THE_REGISTRY:  # (checked by _mod97_ends already; with no format to hold
        # to, a bank's or an account's word on the line too: not a parcel's or an order's number that holds)
        return (len(iban) == _IBANS_OUTSIDE_THE_REGISTRY[iban[:2]] and iban[2:].isdigit()
                and _A_BANKS_WORD.search(text) is not None and not _NAMED_A_TEST(text) and not _AN_EXAMPLES_WORD(text))
    return _validator('iban').is_valid(iban)


# "example", "format", "sample" in Persian and Arabic ("مثال بانک مرکزی IR06…", "مثال RIB …", "نموذج")
_AN_EXAMPLES_WORD = lowered_search(r"(?i)مثال|نمونه|نموذج|فرمت|format")
_A_BANKS_WORD = lazy(r"(?i)iban|[آا]يبان|(?<![a-z])rib(?![a-z])|sheba|shaba|شبا|حساب|بانک|بنك|banque|bank|banco|compte|account|konto"
                     r"|conta|cuenta|virement|transfer|(?<![a-z])(?:salary|salaire|loyer|rent)(?![a-z])")


def _iban_found(text: str) -> bool:
    for match in itertools.islice(_IBAN_START.finditer(text), 50):  # a row of IBAN-like starts is no list of IBANs
        body = match[2].replace(" ", "")
        for end in reversed(_mod97_ends(body, match[1])):  # the longest valid one: a word may follow
            iban = match[1] + body[:end]
            if _an_iban(iban, text) and not _published_example(iban, text, _PUBLISHED_TEST_IBANS):
                return True
    return False


_ROUTING = lazy(r"(?i)(?:routing|aba|rtn|transit)[^0-9\n]{0,24}?(?<![0-9])([0-9]{9})(?![0-9])")
# (not a bill's or a shop's account: "Account number on the water bill: WB-0023-77812" is a customer's)
# the banks of Malaysia, Indonesia and East Africa an own account is named by (not a utility's or a shop's)
_MALAY_AND_SWAHILI_BANKS = (r"(?:maybank|cimb(?:\s++niaga)?|public\s++bank|rhb|hong\s++leong|ambank|bank\s++islam|bsn|bca|bri|bni"
                            r"|mandiri|danamon|permata|btn|bsi|jenius|equity|kcb|nmb|crdb|ncba|co-?op|stanbic|absa|dtb"
                            r"|family\s++bank)")
_ACCOUNT = lazy(
    r"(?i)(?:(?:my|our|his|her|their|mein|meine|mon|ma|mi|mio|mijn|min)\s++(?:\w+\s++){0,2}?"
    r"(?:account|acct|konto|compte|cuenta|conto|rekening|a/c)|checking|savings|acct|account\s*+(?:number|no\.?|#)"
    # "a/c" for an account at a bank, or with its number's word ("Islami Bank a/c 2050…", "A/C No: …"; not an air
    # conditioner's, "the a/c unit 24000 BTU")
    r"|(?:(?<![a-z])bank\s++a/c|(?<![a-z/])a/c\s*+(?:number|no\.?|#))(?=\s*+(?:no\.?|number|#)?\s*+[:：.#-]?\s*+[0-9])"
    # "acc no." of one's own or at a bank (not an accession number: "Acc. No. 104523" of a library)
    r"|(?<![a-z])acc\.?\s*+(?:number|no\.?|#)(?=[^0-9\n]{0,24}?(?:my|mine|yangu|bank|benki))"
    # a current account in Portuguese and Spanish, a Mexican CLABE: "conta corrente 0047291-6"
    r"|conta\s++corrente|cuenta\s++corriente|clabe)"
    r"(?![^0-9\n]{0,24}?(?:bill|invoice|customer|utility|shop|store|loyalty|member))"
    r"[^0-9\n]{0,24}?(?<![0-9A-Za-z]-)(?<![0-9])[0-9](?:[ -]?[0-9]){5,29}(?![0-9])"
    # an account's number named so in other languages, ten digits or more: "Numer konta: 61 1090 1014 …",
    # a Korean or a Japanese bank account ("국민은행 계좌: 942802-00-118830", "口座番号 1234567890")
    r"|(?:numer\s++konta|kontonummer|num[ée]ro\s++de\s++compte|n[úu]mero\s++de\s++(?:la\s++)?(?:cuenta|conta)"
    r"|numero\s++di\s++conto|rekeningnummer|[čc][íi]slo\s++[úu][čc]tu|tilinumero|sz[áa]mlasz[áa]m|hesap\s++numaras[ıi]"
    r"|номер\s++сч[её]та|bankrekening|bankkonto|rekeningnommer|rekening\s++nommer"
    # a bank's or a post office's account in Chinese ("玉山銀行帳號 0979-968-123456"; not a game's or a site's
    # "帳號", a user name)
    r"|(?:銀行|银行|郵局|邮局)[^\n0-9]{0,10}?(?:帳號|账号|帳戶|账户|戶頭|户头)(?=\s*+(?:[:：]|是|為|为)?\s*+[0-9])"
    # an account's number in Arabic written in Latin letters, and one's own in Arabic ("rakam el 7esab fel bank
    # el ahly 1903040506070", "رقم حسابي")
    r"|ra[kq]am\s++[ea]l[\s-]?[7h][ei]sab|رقم\s*+حسابي"
    # a Thai account's number, its bank named right after (not a utility's or a ledger's "เลขที่บัญชี")
    r"|เลข(?:ที่)?บัญชี(?=\s*+(?:ธนาคาร|กรุงเทพ|กสิกร|ไทยพาณิชย์|กรุงไทย|กรุงศรี|ทหารไทย|ออมสิน|ttb|scb|kbank|bbl))"
    # and in Swahili, a bank's or one's own with nothing between ("Namba ya akaunti ya benki ni …", "Nambari ya
    # akaunti yangu ya benki …", "Namba ya akaunti yangu ni …"; not a bill's account paid through a bank's M-Pesa
    # Paybill, "namba ya akaunti ya KCB ni namba ya usajili …", nor one's own with a utility, "namba ya akaunti
    # yangu ya DStv …")
    r"|namba(?:ri)?\s++ya\s++akaunti\s++(?:(?:yangu\s++)?ya\s++benki|yangu(?=\s*+(?:ni(?![^\W\d_])|[:：]))))"
    r"[^0-9\n]{0,24}?(?<![0-9A-Za-z]-)(?<![0-9])[0-9](?:[ -]?[0-9]){9,29}(?![0-9])"
    # one's own account in Polish, its 26 digits (not a customer's account with a utility or a shop,
    # "Numer naszego konta klienta w PGE: 3012456789")
    r"|numer\s++(?:mojego|naszego)\s++konta[^0-9\n]{0,24}?(?<![0-9])[0-9](?:[ -]?[0-9]){19,29}(?![0-9])"
    # a Korean or a Japanese bank account, its number right after the word and a colon or a particle
    # ("국민은행 계좌: 942802-00-118830"; not "계좌 이체 주문번호 …", an order's, "口座振替の受付番号 …")
    # (not a Korean mobile's number, "계좌는 010-1234-5678 번호로", nor a one-off virtual account, "가상계좌")
    r"|(?<!가상)(?:계좌(?:\s*+번호)?|口座番号)\s*+(?:[:：]|는|은|は)?\s*+(?<![0-9])(?!01[016789]-?[0-9]{3,4}-?[0-9]{4}(?![0-9]))"
    r"[0-9](?:-?[0-9]){9,19}(?![0-9-])"
    # or right after its bank's name, eleven digits or more dashed in groups as Korean banks write them
    # ("신한은행 110-123-456789", "카카오뱅크 3333-01-2345678"; not a phone's number, "신한은행 02-1234-5678", a
    # call centre's, "1588-9999", a date, "2024-07-01", a business's registration, "123-81-45678", nor a
    # phone's with Korea's code, "82-10-1234-5678", nor a number said to be an order's or a queue ticket's)
    r"|(?<!가상)(?:은행|뱅크)\s*+(?!0[0-9]{1,2}-[0-9]{3,4}-[0-9]{4}(?![0-9])|82-)(?=(?:[0-9]-?){11,16}(?![0-9-]))"
    r"[0-9]{2,6}-[0-9]{2,7}-[0-9]{2,7}(?:-[0-9]{1,6})?(?![0-9-])(?![^\n]{0,30}?(?:주문|번호표))"
    # one's own current or savings account in Portuguese, its number after a few words ("a minha
    # conta à ordem na CGD é a nº 0351 123456 789"; not "Minha conta no iFood, pedido …", nor a bill's,
    # "Minha conta de luz número …", which "conta" is too)
    r"|(?:minha|meu|nossa|nuestra|mi)\s++conta\s++(?:à\s++ordem|corrente|poupança)[^0-9\n]{0,30}?"
    r"(?<![0-9])[0-9](?:[ -]?[0-9]){9,29}(?![0-9])(?!\s*+(?:reais|euros?|kwanzas|€))"
    # a Brazilian branch and account, each with its check digit ("agência 1234-5, conta 67890-1", "ag. 0912
    # c/c 45678-9", "ag 2856 cc 0012345-7", Caixa's with its operation between, "ag. 0987, op. 013, conta
    # 00045678-9"), and a Japanese ordinary deposit's seven digits after its bank's branch ("新宿支店
    # 普通預金 7654321"; not a balance, "当座預金 1200000 を月末に確認")
    r"|(?:ag[êe]ncia|(?<![a-z])ag\.?)\s*+[0-9]{3,5}(?:-[0-9xX])?[^0-9\n]{1,20}?(?:op\.?\s*+[0-9]{3}[^0-9\n]{1,10}?)?"
    r"(?:(?:conta|c/c)\s*+[0-9]{4,12}|(?<![a-z])cc\s*+[0-9]{5,12})-[0-9xX](?![0-9])"
    r"|(?:支店|銀行)[^\n]{0,20}?(?:普通預金|普通口座|当座預金|普通|当座)\s*+[0-9]{7}(?![0-9]|\s*+(?:円|万|yen))"
    # a Vietnamese account, nine digits or more after its name ("số tài khoản", "số TK", "STK"), with or
    # without its accents, and only what may stand between: its bank, whose it is, a colon or "là" (is)
    # ("Số tài khoản Vietcombank của chị: 0011004123456", "STK của mẹ là 0451000234567", "STK MB Bank
    # 0968123456789"; not "gửi số tài khoản qua Zalo số 0912345678", a phone's, "số tài khoản … mã số
    # thuế 0312345678", a tax code, nor German's "Stk." of pieces, "5 Stk. 4006381333931")
    r"|(?<![^\W\d_])(?:s[ốo]\s++(?:t[àa]i\s++kho[ảa]n|tk)|(?-i:STK|stk))(?![^\W\d_])"
    r"(?:\s++(?:ngân\s++hàng|ngan\s++hang|nh))?"
    r"(?:\s++(?:vietcombank|vcb|techcombank|tcb|mb\s*+bank|mb|bidv|agribank|vpbank|acb|sacombank|tpbank|vib|hdbank|shb"
    r"|ocb|seabank|msb|eximbank|vietinbank|momo|timo|cake|lpbank|scb|abbank|bac\s*+a\s*+bank|nam\s*+a\s*+bank|kienlongbank"
    r"|pvcombank|vietbank)(?![^\W\d_]))?"
    r"(?:\s++(?:của|cua)\s++[^\W\d_]++(?:\s++[^\W\d_]++)?)?"
    r"(?:\s*+[:：]|\s++l[àa](?![^\W\d_]))?\s*+(?<![0-9])[0-9](?:[ .-]?[0-9]){8,18}(?![0-9])"
    # one's own bank account in Malay, Indonesian and Swahili, its bank named, then what it is for and a colon
    # at most ("Akaun Maybank saya untuk bayaran deposit: …", "Akaunti yangu ya benki (Equity) kwa malipo ya
    # harusi: …", "Akaunti yangu ya KCB: …"; not "Akaun TNB saya: …", a utility's, nor "Akaun saya untuk Grab: nombor telefon …")
    r"|(?<![^\W\d_])(?:akaun|akaunti|rekening|no\.?\s*+rek|norek)(?:\s++(?:bank|benki))?(?:\s++" + _MALAY_AND_SWAHILI_BANKS + r")?"
    r"\s++(?:saya|yangu|aku|gue|gw)(?![^\W\d_])(?:\s++ya\s++(?:bank|benki))?(?:\s++(?:ya\s++)?" + _MALAY_AND_SWAHILI_BANKS
    + r"|\s*+\(\s*+" + _MALAY_AND_SWAHILI_BANKS + r"\s*+\))?(?:\s++(?:untuk|kwa|buat)(?:\s++[^\W\d_]++){1,4}\s*+[:：])?"
    r"\s*+[:：]?\s*+(?<![0-9])[0-9](?:[ -]?[0-9]){8,19}(?![0-9])"
    # and a bank account's number in Amharic, right after its name or what it is for ("የራሴ የንግድ ባንክ ሂሳብ ቁጥር
    # ለሠርግ ክፍያ: …", "የሂሳብ ቁጥሬ …"; not a mobile's number, "09…", nor an application's, "የባንክ ሂሳብ ቁጥር ለውጥ
    # ማመልከቻ ቁጥር …", for a change of the account's number)
    r"|(?:ባንክ\s*+ሂሳ(?:ብ|ቤ)\s*+ቁጥ(?:ር|ሬ)|የሂሳብ\s*+ቁጥሬ|አካውንት\s*+ቁጥ(?:ር|ሬ))(?:\s++ለ(?!ውጥ)\S++(?:\s++[^\s:：፦0-9]++){0,2}\s*+[:：፦])?"
    r"\s*+[:：፦]?\s*+(?!09[0-9]{8}(?![0-9]))(?<![0-9])[0-9]{10,16}(?![0-9])"
)
_A_BILLS = lazy(r"(?i)(?:bill|invoice|utility|customer|shop|store|loyalty|member(?:ship)?)\s*+$"
                # a supplier's number for its customer, right before "account" (not "as a supplier my account …")
                r"|(?:supplier|vendor|wholesaler|lieferanten|fournisseur|proveedor|fornitore|leverancier)(?:['’]s)?\s++$")
# a bill's account in Swahili, paid by phone: a Paybill's or a till's, a meter's, a phone's number, a TV's or a
# power company's ("Namba ya akaunti yangu ni 7012345678 kwa KPLC", "… ndiyo namba ya simu pia")
_A_SWAHILI_BILL = lazy(r"(?i)paybill|(?<![a-z])till|m-?pesa|kplc|dstv|gotv|zuku|startimes|(?<![a-z])mita(?![a-z])"
                       r"|(?<![a-z])bili(?![a-z])|namba\s++ya\s++simu|tokeni|luku|ankara")
# a bill's account in Afrikaans: the municipality's, Eskom's, school fees', a reference to quote ("Eskom
# rekeningnommer …", "verwysing is jou rekeningnommer …")
_AN_AFRIKAANS_BILL = lazy(r"(?i)munisipal\w*|eskom|skoolfooie|skoolgeld|verwysing|faktuur|rekening\s++vir\s++(?:water|krag|lig)")
_OWN = lazy(r"(?i)(?:my|our|mein|meine|mon|ma|mi|mio|mijn|min|minha|meu|nossa|nuestra)\s")  # "as a supplier my account number …": one's own
_ACCOUNT_NEEDLES = ("clabe", "account", "acct", "konto", "compte", "cuenta", "conto", "rekening", "checking", "savings", "konta",
                    "conta", "účtu", "uctu", "tilinumero", "számlaszám", "szamlaszam", "hesap", "счёта", "счета", "계좌", "口座",
                    "預金", "支店", "은행", "뱅크", " cc ", "tài khoản", "tai khoan", "stk", "số tk", "so tk", "akaun", "ሂሳብ", "ሂሳቤ", "አካውንት", "acc",
                    "บัญชี", "7esab", "hesab", "hisab", "حسابي", "rekeningnommer", "rekening nommer", "a/c", "帳號", "账号", "帳戶", "账户", "戶頭", "户头", "rek")
# (and in Welsh, "cod didoli")
_SORT_CODE = lazy(r"(?i)(?:sort\s*+code|cod\s++didoli)[^0-9\n]{0,12}[0-9]{2}-?[0-9]{2}-?[0-9]{2}"
                  r"(?:(?!(?<![a-z])(?:invoice|ref|anfoneb|cyfeirnod|order|archeb))[^0-9\n]){1,40}(?<![0-9])[0-9]{8}(?![0-9])"
                        r"|(?<![0-9-])[0-9]{2}-[0-9]{2}-[0-9]{2}\s*+[,/]?\s*+[0-9]{8}(?![0-9])")


_NAMES_A_ROUTING_NUMBER = lowered_search(r"(?i)routing|aba|rtn|transit")
_SORT_CODE_SHAPE = lazy(r"[0-9]{2}-[0-9]{2}-[0-9]{2}").search


# Australian BSB and account, Canadian transit, institution and account numbers (with its institution, the
# account called a "folio" at Desjardins, a "compte" in French: not a hotel's folio, a parcel in transit)
_BSB_OR_TRANSIT = lazy(
    r"(?i)\bbsb\b[^0-9\n]{0,12}[0-9]{3}-?[0-9]{3}[^\n]{0,40}?\baccount\b[^0-9\n]{0,12}[0-9]{5,10}"
    r"|\btransit\b[^0-9\n]{0,12}[0-9]{5}[^\n]{0,60}?\baccount\b[^0-9\n]{0,12}[0-9]{5,12}"
    r"|\btransit\b[^0-9\n]{0,12}[0-9]{5}[^\n]{0,30}?\binstitution\b[^0-9\n]{0,12}[0-9]{3}[^\n]{0,30}?\b(?:compte|folio)\b"
    r"[^0-9\n]{0,12}[0-9]{5,12}")


# a Mexican CLABE: 18 digits whose last is a check digit (weights 3, 7, 1), a clause or so after its
# name ("Mi CLABE para que me depositen la pensión: 012180015602398479")
_CLABE = lazy(r"(?i)(?<![^\W\d_])clabe(?![^\W\d_])[^0-9\n]{0,60}?(?<![0-9])([0-9]{18})(?![0-9])")


def _clabe_holds(digits: str) -> bool:
    total = sum(int(digit) * (3, 7, 1)[index % 3] % 10 for index, digit in enumerate(digits[:17]))
    return (10 - total % 10) % 10 == int(digits[17])


# an Argentine CBU (or a virtual account's CVU, in the same form): 22 digits, maybe in groups, whose
# two blocks each end in a check digit, after its name or an account's ("CBU para que me paguen: 0070 9990 2000
# 0012 3456 78", "Transferime a la cuenta 0170 0992 …")
_CBU = lazy(r"(?i)(?<![^\W\d_])(?:cbu|cvu|cuenta)(?![^\W\d_])[^0-9\n]{0,60}?(?<![0-9])([0-9](?:[ -]?[0-9]){21})(?![0-9])")


# An account at a bank, its number later in the same sentence: an account's word and a bank's word (or a bank's
# name) before the number, whatever stands between (what the account is for, whose it is), and right before the
# number a colon, a word for "is", or the account's or its bank's word ("My own BPI account back home, where the
# agency deposits my salary: 8567672740", "Asusun Access Bank na Baba inda nake tura kuɗi: 0917788257",
# "บัญชีกสิกรของฉันเอง เลขที่ 698-8-82027-9", "Access Bank account 0692817453"). Not when another number's word
# stands between the account's word and the number (a reference's, a queue's, a phone's, a serial's: "BDO savings,
# queue number 202406120045", "Wells Fargo account, IMEI 356938035643809"), nor in a phone's or a bill's sentence,
# nor beside an amount's unit.
_AN_ACCOUNTS_WORD = lazy(
    r"(?i)(?<![^\W\d_])(?:account|acct|a/c|akaun|akaunti|rekening|no\.?\s*+rek|norek|asusun|cuenta|conta|compte(?!\s++rendu)|konto|conto"
    r"|savings)(?![^\W\d_])|บัญชี|অ্যাকাউন্ট|একাউন্ট|হিসাব|اکاؤنٹ|اکاونٹ|کھاتہ|حساب|账户|帳戶|账号|帳號|口座|계좌")
_A_BANK = lazy(
    r"(?i)(?<![^\W\d_])(?:(?<!food\s)(?<!seed\s)(?<!blood\s)(?<!data\s)(?<!power\s)(?<!memory\s)(?<!river\s)(?<!milk\s)"
    r"(?<!question\s)(?<!word\s)(?<!test\s)bank(?!\s++holiday)s?|banco|banque|benki|" + _MALAY_AND_SWAHILI_BANKS[3:-1] +
    r"|bdo|bpi|landbank|pnb|rcbc|gtb|gtbank|uba|opay|kuda|moniepoint|palmpay|kasikorn|kbank|krungthai|krungsri|brou"
    r"|ita[úu]|santander|nubank|bradesco|hsbc|barclays|wells\s++fargo|citi(?:bank)?|monzo|revolut|n26|sonali|janata|meezan"
    r"|hbl|ubl|vietcombank|techcombank|bidv|(?:access|sterling|fidelity|polaris|first|wema|zenith|security)\s++bank"
    # India's largest banks, by their names as accounts are written ("SBI A/C 3838…")
    r"|sbi|hdfc|icici|kotak|canara|axis\s++bank|idfc(?:\s++first)?|indusind|bank\s++of\s++baroda)(?![^\W\d_])"
    r"|ব্যাংক|ব্যাঙ্ক|بینک|بنک|بنك|ธนาคาร|กสิกร|ไทยพาณิชย์|กรุงเทพ|กรุงไทย|กรุงศรี|ออมสิน|銀行|银行|은행|ngân\s++hàng")
# what another number is called, between an account's word and the number
_ANOTHER_NUMBERS_WORD = lazy(
    r"(?i)(?<![^\W\d_])(?:ref\w*|transaction|txn|trx|transfer\s++(?:id|no|number)|receipt|recibo|order|invoice|factura"
    r"|tracking|control|mtcn|confirmation|ticket|case|customer|member|policy|loan|card|cart[ãa]o|tarjeta|kad|kartu"
    r"|phone|mobile|cell|tel|hotline|helpline|support|call|whatsapp|wa|sms|otp|pin|swift|bic|ifsc|routing|sort"
    r"|branch\s++code|paybill|till|bill|meter|statement|balance|saldo|amount|total\w*|jumlah|kwitansi|price|kiasi|comprobante|operaci[óo]n"
    r"|folio|nomor\s++(?:hp|telepon)|telepon|simu|waya|ids?|cursor|offsets?|row|isbn|imei|vin|serial|lot|batch|build"
    r"|unit|waybill|awb|resi|claim|queue|pass|appointment|meeting|project|channel|webhook|timestamp|barcode|parcel|job"
    r"|sheet|form|file|dossier|protocol|protocolo|installation|instala[çc][ãa]o|procedure|tr[áa]mite|servicio|registration"
    r"|cnpj|cpf|application|employee|adviser|advisor|asesor|gerente|manager|meneja|manaj\w*|contact|token|sim|iccid|foleni"
    r"|antre\w*|antri\w*|pila|model|version|certificate|request|ext|extension|fax|zoom|teams|code)(?![^\W\d_])"
    r"|อ้างอิง|โทร|ติดต่อ|คิว|พร้อมเพย์|ফোন|বিকাশ|নগদ|রেফারেন্স|ট্রানজেকশন|টোকেন|সিরিয়াল|ফর্ম|ম্যানেজার|فون|موبائل"
    r"|منیجر|مینیجر|ٹوکن|فارم|سیریل|طلب|موظف|هاتف|موبايل|جوال|参考|流水|訂單|订单|電話|电话|客服|證明|证明|編號|编号|受理"
    r"|手機|手机|工單|工单")
# a phone's or a bill's sentence (a mobile wallet's number is a phone's), and an amount's unit beside a number
_A_PHONES_OR_BILLS_SENTENCE = lazy(
    r"(?i)(?<![^\W\d_])(?:phone|mobile|cell|whatsapp|gcash|maya|m-?pesa|bkash|nagad|easypaisa|jazzcash|momo|airtel|mtn"
    r"|safaricom|paybill|till|bill|invoice|utility|meter|loyalty|membership|promptpay|simu|piga|huduma|wateja|risiti|bili"
    r"|ankara|hp|telepon|surat|bukti|luz|agua|água|gas|gás|energia|electricity|water|internet|tel[ée]fono|telefone|celular)"
    r"(?![^\W\d_])|พร้อมเพย์|বিকাশ|নগদ")
_AN_AMOUNTS_UNIT = lazy(
    r"(?i)\s*+(?:pesos?|php|naira|ngn|baht|thb|satang|shillings?|ksh|kes|tsh|tzs|taka|bdt|rupees?|rs|pkr|inr|usd|eur|gbp"
    r"|rp|rupiah|idr|yen|jpy|won|krw|dong|vnd|đ|reais|euros?|dollars?|\$|€|£|¥|₱|₦|฿|৳|₹|₩|₫|円|元|원|บาท|สตางค์|টাকা"
    r"|روپے)(?![^\W\d_])")
_A_CURRENCY_BEFORE = lazy(r"(?i)(?:[$€£¥₱₦฿৳₹₩₫]|(?<![^\W\d_])(?:php|ngn|ksh|kes|tsh|tzs|ugx|ghs|rs|rp|usd|eur|gbp|inr"
                          r"|pkr|bdt|idr|thb|vnd|n))\s*+$")
# right before the number: a colon or a word for "is" (in English, Swahili, Indonesian and Malay, Tagalog, Spanish,
# Portuguese, French, German, Vietnamese, Hausa, Thai, Bengali, Urdu), or "number" in Thai
_RIGHT_BEFORE_ITS_NUMBER = lazy(
    r"(?i)(?:[:：]|(?<![^\W\d_])(?:is|ni|ndiyo|adalah|ialah|ay|es|é|est|ist|là|ce|ne)|เลขที่|คือ|হল|ہے)\s*+$")
_AN_ACCOUNTS_NUMBER = lazy(r"(?<![0-9+#/.,:-])(?<![0-9][ -])[0-9](?:[ -]?[0-9]){8,17}(?![0-9]|[ -][0-9])")
_SENTENCE_ENDS = lazy(r"[.!?।。！？](?:\s|$)|\n")
_A_FEW_WORDS = lazy(r"[^0-9\n]{0,30}")


def _account_at_a_bank(text: str) -> bool:
    if not _AN_ACCOUNTS_WORD.search(text):
        return False  # (most texts of nine digits or more name no account: their numbers are not read one by one)
    for number in _AN_ACCOUNTS_NUMBER.finditer(text):
        start, end = number.span()
        ends = [stop.end() for stop in _SENTENCE_ENDS.finditer(text, max(0, start - 160), start)]
        before = text[ends[-1] if ends else max(0, start - 160):start]
        accounts = list(_AN_ACCOUNTS_WORD.finditer(before))
        if not accounts or not (banks := list(_A_BANK.finditer(before))):
            continue
        last = max(accounts[-1].end(), banks[-1].end())  # the account's or the bank's word right before it
        if not (_RIGHT_BEFORE_ITS_NUMBER.search(before)
                or last >= len(before) - 30 and _A_FEW_WORDS.fullmatch(before, last) and len(before[last:].split()) <= 4):
            continue
        after = _SENTENCE_ENDS.search(text, end)
        sentence = before + text[start:after.start() if after else len(text)]
        if (_ANOTHER_NUMBERS_WORD.search(before, accounts[-1].end()) or _A_PHONES_OR_BILLS_SENTENCE.search(sentence)
                or _AN_AMOUNTS_UNIT.match(text, end) or _A_CURRENCY_BEFORE.search(before)
                or _NAMED_A_TEST(sentence) or _AN_EXAMPLES_WORD(sentence)):
            continue
        return True
    return False


def _bank_account(text: str) -> bool:
    if _BSB_OR_TRANSIT.search(text):
        return True
    low = text.lower()
    if "clabe" in low and not _NAMED_A_TEST(text) and any(
            _clabe_holds(match[1]) for match in _CLABE.finditer(text)):
        return True  # (not a documented example: "Ejemplo de CLABE de la documentación de Banxico: …")
    if ("cbu" in low or "cvu" in low or "cuenta" in low) and not _NAMED_A_TEST(text) and any(
            _validator('ar.cbu').is_valid(re.sub(r"[ -]", "", match[1])) for match in _CBU.finditer(text)):
        return True
    for match in _ROUTING.finditer(text) if _NAMES_A_ROUTING_NUMBER(text) else ():
        if _validator('us.rtn').is_valid(match[1]) and re.search(r"(?i)account|acct|checking|savings|konto|cuenta|compte|conto|conta|rekening", text):
            return True
    if any(word in low for word in _ACCOUNT_NEEDLES) and any(
            (_OWN.match(match[0]) or not _A_BILLS.search(text, max(0, match.start() - 30), match.start()))
            and not ("akaunti" in match[0].lower() and _A_SWAHILI_BILL.search(text))
            and not ("rekening" in match[0].lower() and _AN_AFRIKAANS_BILL.search(text))
            for match in _ACCOUNT.finditer(text)):
        return True  # (not a bill's: "Water bill account number 7712339045")
    if ("sort" in low or _SORT_CODE_SHAPE(text) is not None) and _SORT_CODE.search(text) is not None:
        return True
    return _account_at_a_bank(text)


# A card's or a social security number's digits told in parts or in words: "My Amex starts 3782 3175, and
# after that it goes 4230 345", "four five three nine, four one eight seven, …", "SSN 412-77 then 9021", "four one
# two, seven seven, nine zero two one". A part is groups of two to eight digits joined by dashes, or two digit words
# or more in English; the parts of one number follow each other on a line with only separators between, or words
# that carry on ("then", "after that it goes", "the rest is"; "and" alone is a list's: "415 555 0123 and 415 555
# 0199" are two phone numbers, "54, 120, 38, … then 42" charges).
_SPOKEN_DIGITS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                  "eight": "8", "nine": "9"}
_DIGIT_WORD = "|".join(_SPOKEN_DIGITS)
# (searched in every text with fewer digits than a card's: in its lower case, ``lowered_search``, five times faster)
_SPOKEN_NEEDLES = lowered_search(r"(?i)(?<![^\W\d_])(?:" + _DIGIT_WORD + r")[\s-]++(?:" + _DIGIT_WORD + r")(?![^\W\d_])")
_A_PART = lazy(r"(?i)(?<![\w.,/:-])(?:[0-9]{2,8}(?:-[0-9]{2,8})*+|(?:" + _DIGIT_WORD + r")(?:[\s-]++(?:" + _DIGIT_WORD + r")){1,5})"
               r"(?![\w]|[.,/:-][0-9])")
_A_SEPARATOR = lazy(r"[\s,;:–—-]*+")
_CARRIES_ON = lazy(r"(?i)[\s,;:–—-]*+(?:(?:and\s++)?(?:then|after\s++that|followed\s++by|next|continues|the\s++rest(?:\s++is)?"
                   r"|second\s++half|last\s++part|ends?\s++(?:with|in))(?:\s++it\s++goes|\s++it['’]s|\s++comes)?"
                   r"|(?:and\s++)?(?:after\s++that\s++)?it\s++goes)[\s,;:–—-]*+")


# a line that says the number is told in parts, where "and" joins them: "Card number in two halves: 5222 3334 and …"
_IN_PARTS_SAID = lazy(r"(?i)(?<![^\W\d_])(?:halves|half|in\s++(?:two|three|four)\s++(?:parts|pieces|goes)|split)(?![^\W\d_])").search
_AND = lazy(r"(?i)[\s,;]*+and[\s,;]++")


def _numbers_in_parts(line: str) -> Iterator[list[list[str]]]:
    """Each run of two parts or more (``_A_PART``) one number may be told in: each part as its groups' digits."""
    run: list[list[str]] = []
    end = None
    halves = None
    for match in _A_PART.finditer(line):
        if run and halves is None:
            halves = _IN_PARTS_SAID(line) is not None
        if run and (match.start() - end > 40 or not (_A_SEPARATOR.fullmatch(line, end, match.start())
                                                     or _CARRIES_ON.fullmatch(line, end, match.start())
                                                     or halves and _AND.fullmatch(line, end, match.start()))):
            if len(run) > 1:
                yield run
            run = []
        if match[0][0].isdigit():
            run.append(match[0].split("-"))
        else:
            run.append(["".join(_SPOKEN_DIGITS[word] for word in re.findall(r"\w+", match[0].lower()))])
        end = match.end()
    if len(run) > 1:
        yield run


def _wholes_told_in_parts(text: str) -> Iterator[list[str]]:
    """The groups of each number a line of ``text`` may tell in parts (``_numbers_in_parts``): from each part
    on, it and those after it, one more each time, up to a card's 19 digits."""
    for line in text.splitlines():
        for parts in _numbers_in_parts(line):
            for first in range(len(parts)):
                groups: list[str] = []
                for part in parts[first:]:
                    groups += part
                    if sum(map(len, groups)) > 19:
                        break
                    if len(groups) > 1:
                        yield groups


# a card's brand, anywhere in the text
_A_CARDS_BRAND = lazy(r"(?i)(?<![\w-])(?:visa|master\s*+card|maestro|amex|american\s++express|discover|diners|jcb"
                      r"|unionpay)(?![\w-])").search
# a social security number named as a number (not the agency's office, its checks or its deposits)
_AN_SSN_NAMED = lazy(r"(?i)\b(?:ssn|ss#|ss\s*+no|social\s++security\s++(?:number|no\b|#)|soc\.?\s*+sec\.?\s*+(?:no\b|number|#|is\b|:)"
                     r"|sozialversicherungsnummer)").search


def _card_in_parts(text: str) -> bool:
    """A card's number told in parts or in words, each group of three digits or more, on a text that names a card
    or its brand: an issuer's, Luhn's check holding."""
    if (_A_CARD_WORD(text) or _A_CARDS_BRAND(text)) is None:
        return False
    for groups in _wholes_told_in_parts(text):
        digits = "".join(groups)
        if (13 <= len(digits) <= 19 and min(map(len, groups)) >= 3 and _card_issuer(digits)
                and _validator('luhn').is_valid(digits) and not _published_example(digits, text, _PUBLISHED_TEST_CARDS)):
            return True
    return False


def _ssn_in_parts(text: str) -> bool:
    """A social security number told in parts or in words, in its groups of three, two and four digits, on a text
    that names one."""
    return _AN_SSN_NAMED(text) is not None and any(
        list(map(len, groups)) == [3, 2, 4] and _validator('us.ssn').is_valid("".join(groups))
        for groups in _wholes_told_in_parts(text))


_SSN_WRITTEN = lazy(r"(?<![0-9A-Za-z-])([0-9]{3})([- ])([0-9]{2})\2([0-9]{4})(?![0-9A-Za-z]|-[0-9])")
_SSN_PLAIN = lazy(r"(?<![0-9])[0-9]{9}(?![0-9])")
_SSN_WORDS = lazy(r"(?i)\b(?:ssn|ss#|ss\s*+no|social\s++security|soc\.?\s*+sec|sozialversicherungsnummer|tax\s++id|itin)")


def _ssn_found(text: str) -> bool:
    for match in _SSN_WRITTEN.finditer(text):
        if _validator('us.ssn').is_valid(match[1] + match[3] + match[4]):
            return True
    numbers = _SSN_PLAIN.findall(text)
    return bool(numbers) and _SSN_WORDS.search(text) is not None and any(_validator('us.ssn').is_valid(number) for number in numbers)


# 2FA: what a list of backup codes, or a TOTP seed, is called
_TWO_FACTOR_WORDS = lazy(
    r"(?i)back-?up|recovery|scratch|2fa|two[- ]factor|mfa|multi[- ]factor|one[- ]time|otp|totp|authenticator"
    r"|ersatzcode|reservecode|noodcode"  # "Back-upcodes voor …", "Ersatzcodes für …"
    r"|2-step|two[- ]step|secours|récupération|respaldo|recuperaci[oó]n|ripristino|recupero|herstel|wiederherstellung"
    r"|zapasow|reserv(?!at|ier|aci|aç|ed|e\s)|coduri(?:le)?\s++de\s++rezerv[ăa](?![a-zăâîșț])|резервн|восстановлени|バックアップ|リカバリ|备用|恢复|백업|복구|yedek|kurtarma|εφεδρικ|ανάκτησ"
    r"|احتياطي|رموز|验证码|varakoodi|tartalék|záložní|záložn[ée]|zálohov|mã\s++dự\s++phòng"  # (Vietnamese's backup codes; Slovak's)
    # "backup" as the Indic scripts write the English word (Hindi and Marathi, Bengali, Punjabi, Gujarati, Telugu,
    # Kannada, Malayalam, Tamil), Tajik's "spare" ("рамзҳои эҳтиётӣ")
    r"|बैकअप|ব্যাকআপ|ਬੈਕਅੱਪ|ਬੈਕਅਪ|બેકઅપ|బ్యాకప్|ಬ್ಯಾಕಪ್|ബാക്കപ്പ്|பேக்கப்|эҳтиёт"
    r"|rezervn[iíeay](?![^\W\d_])"  # Croatian's, Serbian's, Bosnian's, Slovene's and Czech's spare ("rezervni kodovi", not "rezervacija")
)
_CODE = lazy(r"(?<![\w-])(?:[0-9]{4}[ -]?[0-9]{4}|[0-9]{6}|[0-9]{10}|(?=[a-f]{0,63}[0-9])[0-9a-f]{32,64}|[a-z0-9]{4,5}-[a-z0-9]{4,5}"
                   r"|[A-Z0-9]{4,5}(?:-[A-Z0-9]{4,5}){1,3}|(?=[a-z0-9]{0,15}[0-9])(?=[a-z0-9]{0,15}[a-z])[a-z0-9]{8,16}"
                   r"|(?=[A-Z0-9]{0,15}[0-9])(?=[A-Z0-9]{0,15}[A-Z])[A-Z0-9]{8,16}"  # "YPENUFX1ET", "853PPWY0TA"
                   # two groups of four with a digit between them ("u2m4 nhj2", "13gs 4oz9")
                   r"|(?=[a-z0-9 ]{0,8}[0-9])[a-z0-9]{4} [a-z0-9]{4})(?![\w-])")


# One backup or recovery code after its name: "One remaining backup code for the work Okta:
# 971fd-a961a", "Proton recovery code B2EO-2KJ5-GRTZ", "Emergency code for Steam Guard: TCP09-SVS8R"
_ONE_CODE = lazy(
    r"(?i)(?:(?:c[óo]di(?:go|ce)|code|kod|kode)\s++(?:de|di|du|da|do|d['’])?\s*+(?:emergenza|emergencia|emergência|backup"
    r"|secours|recupero|recuperação|recuperación|respaldo|zapasowy|nødstilfelde|r[ée]cup[ée]ration|sauvegarde|recupera[çc][ãa]o"
    r"|recuperare|odzyskiwania|obnovení|helyreállító)"
    # Persian's recovery and backup code, the code's word first ("کد بازیابی حساب گیت‌هاب من a7f3-91kd-22xq-m0p8 است")
    r"|کد(?:\u200c?های)?\s*+(?:بازیابی|پشتیبان)"
    r"|(?:backup|recovery|emergency|scratch|rescue|one[- ]time|2fa|mfa|herstel|wiederherstellungs|secours"
    r"|récupération|respaldo|recuperaci[óo]n|recupero|reserv\w*|резервн\w*|восстановлени\w*)"
    # a word may come between: "the 2fa fallback code is 1560 7166"
    r"[-\s]*+(?:(?:fallback|spare|backup|login|sign-in|account)[-\s]++)?(?:code|key|kod|kode"
    r"|código|codice|clé|schlüssel|sleutel|ключ|код)\w*)"
    r"[^\n:：]{0,80}?[:：]?[^\S\n]*+(?P<code>(?=[A-Za-z0-9]{0,6}[ -]?[A-Za-z0-9]{0,6}[0-9])(?-i:[A-Za-z0-9]{3,6}(?:[ -][A-Za-z0-9]{3,6}){1,7}|[A-Za-z0-9]{8,40}))(?![\w-])")


_A_MONTH = lazy(r"(?i)jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mär|mai|okt|dez|janv|févr|avr|juil|août|déc"
                r"|ene|abr|ago|dic|gen|giu|lug|ott|set")


def _one_code(text: str) -> bool:
    for match in _ONE_CODE.finditer(text):
        code = match["code"]
        if any(_A_MONTH.match(part) for part in re.split(r"[ -]", code) if part.isalpha()):
            continue  # "Backup codes were regenerated on 12 March 2024": a date
        if re.match(r"[/.][0-9]", text[match.end():]):
            continue  # "print new backup codes after 2025/03/20": a date goes on after it
        if not code.strip("0 -"):
            continue  # zeros: a format shown ("000000-000000-…")
        digits = sum(char.isdigit() for char in code)
        letters = sum(char.isalpha() for char in code)
        grouped = " " in code or "-" in code
        if (digits >= 2 or grouped and digits) and (letters or grouped or digits >= 8) and digits + letters >= 8 \
                and not _A_DATE.fullmatch(code):  # not "1Password", not a date
            return True
    if _OTP_NOW.search(text):
        return True
    return any(not words.is_common(match["code"]) for match in _ONE_LETTERS_CODE.finditer(text))


# a code said to be valid for minutes or hours, or until midnight, or to expire in minutes: a
# one-time code read out or sent ("the code they read out … was 517 204, valid for 30 minutes",
# "controlecode …: 663 094, geldig tot middernacht", "code de validation : 815 337, encore bon pendant
# dix minutes"); not a code of another kind (``_NOT_A_ONE_TIME_CODE``) nor a year
_CODES_WORD = r"code|kode|kod|koodi|código|codice"  # a code's word, in the Latin scripts
_VALID_BRIEFLY = lazy(
    r"(?i)(?<![\w-])\w*(?:" + _CODES_WORD + r"|код)\w*[^\n0-9]{0,60}?(?<![0-9])"
    r"(?P<code>[0-9]{3}[ -]?[0-9]{3}|[0-9]{4,8})(?![0-9])[^\n0-9]{0,30}?(?<![\w-])"
    r"(?:(?:valid|good|gültig|geldig|valable|bon|válido|valido|ważny|giltig|gyldig|voimassa|platn[ýáé]|действител\w*)"
    r"(?!\w)[^\n.;]{0,25}?|(?:expires?\s++in|scade\s++(?:tra|fra)|expira\s++(?:em|en)|caduca\s++en|vence\s++en"
    r"|udløber\s++om|utløper\s++om|går\s++ut\s++om|läuft\s++in|vervalt\s++(?:over|na)|wygasa\s++za|expire\s++dans"
    r"|lejár)[^\n.;]{0,15}?)(?<![\w-])(?:min\w*|hours?|hrs?|heures?|stunden?|uur|horas?|ore|timm?e|tunni\w*|godzin\w*"
    r"|hodin\w*|час\w*|midnight|middernacht|minuit|mitternacht|medianoche|mezzanotte|meia-noite)(?!\w)")
# what names a code that is no one-time code, before its number: an error's, a status's, a discount's,
# an article's or an order's ("fault code 5021", "Código de descuento 2025", "Kod rabatowy 2024")
_NOT_A_ONE_TIME_CODE = lazy(
    r"(?i)(?<![a-z])(?:error|fehler|erreur|errore|fault|status|exit|http|promo|aktion|rabat|rabatt|discount|descuento"
    r"|desconto|sconto"
    r"|remise|réduction|korting|gutschein|voucher|coupon|cupón|cupom|article|artikel|artículo|articolo|product|produkt"
    r"|producto|prodotto|order|bestell|pedido|ordine|commande|booking|buchung|reserv|tracking|post(?:code|al|leitzahl)|zip"
    r"|bar-?code|area|country|qr|naics|hsn?|sic|nace|ateco|cnae|siret|siren|tariff|customs|zoll|douane|aduana|dogana"
    r"|room|raum|salle|sala|aula|class|klasse|classe|course|kurs|cours|meeting|besprechung|réunion|reunión|riunione|parcel"
    r"|paket|colis|paquete|pacco)")


# a code of six digits a bank or a service sent to verify someone, which someone read out or forwarded ("Bank texted a code
# while Maya was driving, she read it out to me: 583 104", "ワンタイムパスワードを由美さんが読み上げた：719
# 264", "قرأ أحمد رمز التحقق من رسالة البنك: ٧٢٠٩١٤"): the code's word, then, in its sentence, the number
_A_CODE_SENT = lazy(
    r"(?i)(?:(?<![a-z0-9_-])(?:" + _CODES_WORD + r")|(?<![а-яё])код|رمز|コード|パスワード|验证码|인증번호)\w*"
    r"[^\n.!?。\d#]{0,60}?"
    r"(?<![\d#-])(?P<code>\d{3} ?\d{3})(?![\d-]|[a-fA-F]\b)")
# and what says a bank or a service sent it to verify someone: the code is no order's, product's or
# customer's code, which a text message names too
_A_BANK_OR_VERIFICATION = lazy(
    r"(?i)(?<![a-z])(?:bank\w*|banque|banca|banco|bancaria|verification|vérification|verificación|verificação|verifica"
    r"|verifizierung|verificatie|weryfikac\w*|one[- ]time|otp|2fa)(?![a-z])|банк\w*|銀行|银行|은행|بنك|البنك|ワンタイム"
    r"|التحقق|验证码|인증")
# what says the code was sent or read out, on its line
_SENT_OR_READ_OUT = lazy(
    r"(?i)(?<![a-z])(?:sms|texted|text\s++message|read\s++(?:it\s++)?out|reçu\s++par\s++sms|par\s++sms|per\s++sms|por\s++sms"
    r"|via\s++sms|lu\s++à\s++voix\s++haute|vorgelesen|voorgelezen|letto\s++ad\s++alta\s++voce|en\s++voz\s++alta"
    r"|em\s++voz\s++alta)(?![a-z])|読み上げ|رسالة|短信|문자")


def _code_sent(text: str) -> bool:
    return (_SENT_OR_READ_OUT.search(text) is not None and _A_BANK_OR_VERIFICATION.search(text) is not None
            and _a_one_time_code(text, _A_CODE_SENT.finditer(text)))


def _valid_briefly(text: str) -> bool:
    return _a_one_time_code(text, _VALID_BRIEFLY.finditer(text))


def _a_one_time_code(text: str, matches: Iterator[re.Match[str]]) -> bool:
    """Whether one of ``matches`` (each with its ``code``) is a one-time code: not a year ("Aktionscode
    2024, gültig 24 Stunden"), nor named an order's, a tracking number's or an error's code."""
    return any(not _A_YEAR.fullmatch(match["code"])
               and not _NOT_A_ONE_TIME_CODE.search(text, max(0, match.start() - 25), match.start("code"))
               for match in matches)


_A_YEAR = lazy(r"(?:19|20)[0-9]{2}")


def _one_time_code_told(text: str) -> bool:
    """A one-time code said to be valid for minutes or to expire, or one a bank sent that someone read out."""
    return _valid_briefly(text) or _code_sent(text)


# what such a code is told with: how long it is valid, that it was sent or read out
_TOLD_CODE_NEEDLES = ("valid", "good for", "gültig", "geldig", "valable", "bon pendant", "encore bon", "válid", "ważn",
                      "giltig", "gyldig", "voimassa", "platn", "действител", "expire", "scade", "expira", "caduca",
                      "vence en", "udløber", "utløper", "går ut om", "läuft in", "vervalt", "wygasa", "lejár",
                      "sms", "texted", "text message", "read out", "read it out", "voix haute", "vorgelesen",
                      "voorgelezen", "alta voce", "voz alta", "読み上げ", "رسالة", "短信", "문자")
_TELLS_A_CODE = Needles(_TOLD_CODE_NEEDLES).any


# a one-time code told as it arrives: "The 2FA code that just came in is 947731"
# (its name in Japanese, Chinese and Korean too, "認証コードが会長のスマホに届いた：409615"; and what is
# said between the name and the number within its sentence, "…a verification code for the club account
# to the secretary's phone: 736150": a stop ends the reach, not a domain's "acme.com")
_OTP_REACH = r"(?:[^\n0-9.!?。！？]|\.(?=\w)){0,60}?"
_OTP_NOW = lazy(r"(?i)(?:(?:2fa|mfa|otp|one[- ]time|verification|security|login|sign-in|sms|authenticator)\s++code"
                r"|verificatiecode|verifizierungscode|bestätigungscode|code\s++de\s++v[ée]rification"
                r"|c[óo]digo\s++de\s++verificaci[óo]n|c[óo]digo\s++de\s++verifica[çc][ãa]o|codice\s++di\s++verifica"
                r"|kod\s++weryfikacyjny|engangskode|engångskod|vahvistuskoodi|код\s++подтверждения"
                r"|認証コード|認証番号|验证码|驗證碼|인증\s*+번호|인증\s*+코드"
                r"|(?<![a-z])otp(?![a-z]))"
                r"(?!" + _OTP_REACH + r"(?:format|example|looks\s++like|such\s++as|e\.g\.|beispiel|ejemplo|exemple|esempio"
                r"|voorbeeld|przykład|exemplo|esim\.|eksempel|exempel|пример|例))"
                + _OTP_REACH + r"(?:\bis\b|[:：]|\b(?:ist|es|est|è|é|är|er|je|jest|says)\b|[—–])\s*+"
                r"(?!([0-9])\1{2}[ -]?\1{3}|123[ -]?456)[0-9]{3}[ -]?[0-9]{3}(?![0-9])")


# a code of capitals alone, as Steam Guard's are, after a colon or "is": "Steam Guard backup code: TYNYV";
# not a word ("backup code: NONE")
_ONE_LETTERS_CODE = lazy(
    r"(?i)(?:backup|recovery|emergency|scratch|rescue)[-\s]*+code\s*+(?::|is)\s*+(?P<code>(?-i:[A-Z]{5,8}))(?![\w-])")


_A_DATE = lazy(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{2}-[0-9]{2}-[0-9]{4}")
# codes of five digits, as some services print them, four or more listed right after their name and a colon
# ("Haka-tunnuksen varakoodit:\n- 52918\n- 77302 …", "backup codes: 52918 77302 …"; not "Backup jobs 10234,
# 10235 …", "Recovery codes for the error: 40213, 40214 …", error codes, orders, tickets)
_FIVE_DIGIT_CODES = lazy(
    r"(?i)(?<![^\W\d_])(?:back-?up|recovery|scratch|2fa|varakoodi\w*|reservekod\w*|ersatzcod\w*|yedek|kurtarma)[\s-]*+"
    r"(?:codes?|kod(?:y|er|ok|lar[ıi]?)?|koodi\w*)?\s*+[:：]\s*+(?:[-•*]\s*+)?[0-9]{5}"
    r"(?:\s*+[,;]?\s*+(?:[-•*]\s*+)?[0-9]{5}){3,}(?![0-9])")


def _backup_codes(text: str) -> bool:
    if _names_one_code(text) and _one_code(text):
        return True
    if (listed := _CODES_AFTER_THEIR_NAME.search(text)) and _made_up_codes(listed["codes"]):
        return True
    if len(_DIGITS(text)) < 9:
        return _letter_codes(text)
    codes = [code for code in _CODE.findall(text) if not _NOT_A_CODE.fullmatch(code)]
    if len(codes) < 3 and _FIVE_DIGIT_CODES.search(text):
        return True
    if len(codes) < 3:
        return False
    if _TWO_FACTOR_WORDS.search(text):
        return True
    if len(codes) >= 6 and max(collections.Counter(map(len, codes)).values()) >= 6 and len(codes) * 12 >= len(text) * 0.5:
        return True  # one code used, the rest listed: "Used ciw5 udsr today; the rest: 414bd-5711c, …"
    if len(codes) >= 4 and len({len(code) for code in codes}) == 1 and _CODES_NAMED(text) and not _NOT_CODES(text):
        return True  # "| # | code |" over a column of "f76m-y9ml"
    return len(codes) >= 6 and len({len(code) for code in codes}) == 1 and len(codes) * 12 >= len(text) * 0.5


# four or more codes of one length, of lower-case letters and digits, listed after a colon that follows
# their name ("Backup codes ng Facebook page ng honey shop: 0oqjwozo, snebdcrs, 8myv3xy0, qd00jo9j"): few
# digits, so not the codes of digits above (not "Recovery room codes …", "Booking codes for the backup hotel: …")
_CODES_AFTER_THEIR_NAME = lazy(
    r"(?i)(?<![\w-])(?:(?:back-?up|recovery|2fa|mfa|scratch|emergency|yedek|reserve)[\s-]*+(?:codes?|kod(?:y|er|ok|lar[ıi]?)?)"
    # (or their word first, as Kurdish puts it in Latin letters: "kodakani backupi Discordi …")
    r"|(?:códigos?|codici|codes|kod\w{0,6})\s++(?:de\s++|di\s++)?(?:respaldo|recuperaci[óo]n|secours|récupération|backup\w{0,2}"
    r"|riserva|recupero))"
    r"(?![\w-])[^\n:：]{0,60}[:：]\s*+"
    r"(?P<codes>(?-i:[a-z0-9]{6,10}(?:\s*+[,;]\s*+|\s++)(?:[a-z0-9]{6,10}(?:\s*+[,;]\s*+|\s++)){2,}[a-z0-9]{6,10}))"
    r"(?![\w-])")


def _made_up_codes(listed: str) -> bool:
    """Whether the codes ``_CODES_AFTER_THEIR_NAME`` lists are of one length, and most of them no word; not ids that
    share their first three characters ("job4471 job4472 …", "lto00123 lto00124 …": a backup's jobs and tapes)."""
    codes = re.split(r"[\s,;]+", listed)
    return (len({len(code) for code in codes}) == 1 and any(any(c.isdigit() for c in code) for code in codes)
            and len({code[:3] for code in codes}) > 1
            and sum(not words.is_common(code) for code in codes) * 4 >= len(codes) * 3)


# a phone number ("0612345678") or an issue's key ("PLAT-1021") among codes
_NOT_A_CODE = lazy(r"0[1-9][0-9]{8}|[A-Z]{2,10}-[0-9]{1,6}|0+")  # a code of zeros: a format shown
# codes that are no one's secret: delivery areas, postcodes, numbers to dial
_NOT_CODES = lazy(r"(?i)deliver|postal|post\s*+codes?|zip|pin\s*+codes?|area\s++codes?|\bdial\b|extension").search
_CODES_NAMED = lazy(r"(?i)(?<![\w-])(?:codes?|kod(?:y|er)?|codici|códigos?|コード|代码|코드)(?![\w-])").search


# codes of letters alone, in groups of four, as Dropbox and others print them ("rzre zgbf petq", "aryn xxvt /
# ygup cksb / …"): a run of nine or more (or of four pairs), most of them no word of any language the gate reads
_LETTER_GROUPS = lazy(r"(?<![\w-])[a-z]{4}(?:[^\S\n]{1,2}[a-z]{4}|\n[a-z]{4}){8,}(?![\w-])"
                      # (pairs of them, "/" apart: not a list of single ones, "egll / lfpg / eddf / …", airports)
                      r"|(?<![\w-])[a-z]{4} [a-z]{4}(?:[^\S\n]*+/[^\S\n]*+[a-z]{4} [a-z]{4}){3,}(?![\w-])")


def _may_hold_letter_groups(text: str) -> bool:
    """Whether ``text`` may hold ``_LETTER_GROUPS``: the groups between the first and the last of a
    run are words of four characters between spaces, seven at least (a cheaper test than the search,
    which most texts fail)."""
    return len(text) >= 44 and sum(len(word) == 4 for word in text.split()) >= 7


# or in capitals, two groups joined by a dash, five or more after a word for codes ("Códigos de respaldo:
# MTOM-VKPC, MXLV-PDSS, …")
_DASHED_CAPITALS = lazy(r"(?<![\w-])[A-Z]{4,5}-[A-Z]{4,5}(?:[,;]?[^\S\n]{1,2}[A-Z]{4,5}-[A-Z]{4,5}){4,}(?![\w-])")


def _letter_codes(text: str) -> bool:
    if "-" in text and _CODES_NAMED(text) and _DASHED_CAPITALS.search(text):
        return True
    if not _may_hold_letter_groups(text):
        return False
    for match in _LETTER_GROUPS.finditer(text):
        groups = match[0].split()
        if sum(not words.is_common(group) for group in groups) * 4 >= len(groups) * 3:
            return True
    return False


_ONE_CODE_NEEDLES = ("verification", "otp", "security code", "login code", "sign-in code", "sms", "authenticator",
                     "backup", "recovery", "emergency", "emergenza", "emergencia", "emergência", "scratch", "rescue", "one-time", "one time", "2fa", "mfa",
                     "herstel", "wiederherstellungs", "secours", "récupération", "respaldo", "recuperaci", "recupero",
                     "reserv", "резервн", "восстановлени", "verificatie", "verifizierung", "bestätigungs", "vérification",
                     "verificaci", "verificaç", "di verifica", "weryfikac", "engangs", "engångs", "vahvistus", "подтвержд",
                     "認証", "验证码", "驗證碼", "인증", "بازیابی", "پشتیبان")


_NAMES_ONE_CODE = Needles(_ONE_CODE_NEEDLES).any


def _names_one_code(text: str) -> bool:
    return _NAMES_ONE_CODE(text.lower())
_OTPAUTH = lazy(r"(?i)otpauth(?:-migration)?://")
# a base32 key: 16 or more of A-Z and 2-7, maybe in groups of four
_BASE32 = lazy(  # in one case, in groups of four or whole (a seed is shown either way)
    r"(?<![A-Za-z0-9])(?:[A-Z2-7]{4}(?: ?[A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?: ?[a-z2-7]{4}){3,15}|[A-Z2-7]{16,64}|[a-z2-7]{16,64})"
    r"(?![A-Za-z0-9])")
_SEED_WORDS = lazy(r"(?i)totp|2fa|mfa|otp|authenticator|autentica|autentifi|two[- ]factor|2-step|key|seed|secret|schlüssel|clé|clave"
                         r"|chiave|sleutel|klucz|nyckel|nøgle|anahtar|ключ|キー|密钥|doğrulama|verification|setup|semilla"
                         r"|tvåstegs|kétlépcsős|titkos|kulcs|avain|二段階|認証|シークレット|المفتاح|المصادقة|验证|两步|2단계|인증"
                         )
# a key or authentication in Icelandic, Welsh, Maltese, Basque, Estonian, Latvian, Albanian, Irish,
# Swahili, Croatian and Romanian: they name a seed in capitals with a digit before its end only
# ("Leynilykill fyrir auðkenningarappið: OXFV…X3T…E2"; not "Ufunguo wa nyumba …, Instagram yake ni
# kijanamwerevu2345", nor "… hashtag ya harusi ni HARUSIYAJUMAANAAMINA25", a handle or a tag)
_MORE_SEED_WORDS = lazy(r"(?i)lykil|auðkenn|allwedd|ċavett|(?<!\w)gako|võti|atslēg|çelës|eochair|ufunguo|ključ|kljuc|cheia")


_TOTP_NAMED = lowered_search(r"(?i)totp|otp\s++(?:secret|seed|key)|authenticator|2fa\s++(?:secret|seed|key)")


def _totp_seed(text: str) -> bool:
    if "otpauth" in text.lower() and _OTPAUTH.search(text):
        return True
    for match in _BASE32.finditer(text):
        key = match[0].replace(" ", "")
        digits = sum(char in "234567" for char in key)
        if digits == len(key) or sum(group.isdigit() for group in match[0].split()) >= 3 or "EXAMPLE" in key:
            continue  # a number in groups of four ("test card 4242 4242 4242 4242"): a seed's groups have letters
        if not digits:  # a run of capitals is a word, unless a TOTP secret is named: "TOTP secret: YUSGFDAMBPLFAGAO"
            if len(key) >= 16 and key.isupper() and _TOTP_NAMED(text):
                return True
            continue
        if key.isupper() and digits >= 3 and len(key) >= 16 or match[0].count(" ") >= 5:
            return True
        if (digits >= 2 or key.isupper() and digits) and (_SEED_WORDS.search(text) or key.isupper() and any(
                char in "234567" for char in key[:-2]) and _MORE_SEED_WORDS.search(text)):
            return True
    return False


_BIP39_LANGUAGES = ("english", "spanish", "french", "italian", "portuguese", "czech", "turkish", "japanese", "korean",
                    "chinese_simplified", "chinese_traditional")
# what names a wallet's phrase itself, not any list of words
_WALLET_WORDS = lazy(r"(?i)seed|recovery|mnemonic|wallet|semilla|助记词|助記詞|シード|recuperação|récupération|wiederherstellung"
                           r"|peněženk|obnovovac|portafoglio|portefeuille|monedero|cartera|carteira|cüzdan|지갑|ウォレット|钱包|錢包"
                           r"|ledger|trezor|metamask|electrum|exodus|phantom|trust\s++wallet|keystone|coldcard")
_PHRASE_WORDS = lazy(
    r"(?i)seed|recovery|mnemonic|phrase|wallet|backup|secret|semilla|frase|phrase"
    r"|fraza|фраза|シード|助记词|fráze|frasi|복구|니모닉|ニーモニック|kurtarma"
)
# what names any list of words ("Spelling words for this week: defy, ginger, …"): a phrase only
# when written as one (spaces, no commas) or when its checksum holds
_LIST_WORDS = lazy(r"(?i)words|wörter|palabras|mots|parole|woorden|słowa|слова|kelime|slova")


def _unaccented(word: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", word) if not unicodedata.combining(char))


@cache
def _wordlists() -> tuple[frozenset[str], ...]:
    """The BIP-39 word lists, accents dropped (as people often type them)."""
    from mnemonic import Mnemonic

    return tuple(frozenset(_unaccented(word) for word in Mnemonic(language).wordlist)
                 for language in _BIP39_LANGUAGES)


@cache
def _any_wordlist() -> frozenset[str]:
    return frozenset().union(*_wordlists())


def _longest_run(words: list[str], wordlist: frozenset[str]) -> int:
    run = best = 0
    for word in words:
        run = run + 1 if word in wordlist else 0
        best = max(best, run)
    return best


_WORDS = lazy(r"[^\W\d_]+").findall


_A_LIST = lazy(r";|\n\s*+[-*•]|\n\s*+[^\W\d_]+\s*+\n")


def _spaced_only(text: str) -> bool:
    """Whether words are written as a phrase, a space or a comma apart, not as a list (one a line,
    or after ";" or "- ")."""
    return _A_LIST.search(text) is None


# the phrases of zero entropy, BIP-39's first test vectors: every wallet library's unit tests use them
_ZERO_PHRASES = (("abandon",) * 11 + ("about",), ("abandon",) * 17 + ("agent",), ("abandon",) * 23 + ("art",))


def _without_zero_phrases(words: list[str]) -> list[str]:
    """``words`` with each zero phrase in it blanked out ("" breaks a run): the rest still counts."""
    words = list(words)
    for phrase in _ZERO_PHRASES:
        for at in range(len(words) - len(phrase) + 1):
            if words[at] == "abandon" and tuple(words[at:at + len(phrase)]) == phrase:
                words[at:at + len(phrase)] = [""] * len(phrase)
    return words


def _recovery_phrase(text: str) -> bool:
    words = [word if word.isascii() else _unaccented(word) for word in _WORDS(text.lower())]
    if "abandon" in words and _NAMED_A_TEST(text):
        words = _without_zero_phrases(words)  # "the BIP-39 test vector 'abandon … about' is what the unit tests use"
    if len(words) < 12 or _longest_run(words, _any_wordlist()) < 12:
        return False  # no 12 words in a row of any list: most texts, found in one walk
    labelled = None
    for wordlist in _wordlists():
        run = best = 0
        for at, word in enumerate(words):
            run = run + 1 if word in wordlist else 0
            if run > best:
                best, end = run, at + 1
        if best >= 12 and (_descents(words[end - best:end]) < 3 or len(set(words[end - best:end])) < 6) and \
                not _WALLET_WORDS.search(text):
            continue  # in the list's own order (a quiz, a spelling list), or a few words over and over,
            # unless a wallet's phrase is named: a phrase that happens to be in order is still one
        if best < 12:
            continue
        if labelled is None:  # a wallet's phrase named, or "phrase"/"words" with a checksum that holds
            # (or the run's last words, when no comma follows its label's colon: "the 12 words, in order: expire civil …")
            spaced_after = "," not in text[text.rfind(":") + 1:]
            labelled = _WALLET_WORDS.search(text) is not None or (
                _PHRASE_WORDS.search(text) is not None and (_spaced_only(text) or _checksum_holds(
                    words[end - best:end], or_last=spaced_after))
            ) or (_LIST_WORDS.search(text) is not None and (
                "," not in text and _spaced_only(text) or _checksum_holds(words[end - best:end], or_last=spaced_after)))
        if labelled or best >= 0.8 * len(words) and ("," not in text or _checksum_holds(words)):
            return True
        if _checksum_holds(words[end - best:end], anywhere="," not in text):
            return True  # 12 to 24 words of the list whose checksum holds, whatever is said around them
    return False


def _descents(words: list[str]) -> int:
    """How often a word comes after one later in the alphabet: about half the time in a phrase
    drawn at random (two or fewer in 12 words: one phrase in a thousand), almost never in a page of
    the word list, which is in alphabetical order."""
    return sum(first > second for first, second in zip(words, words[1:]))


@cache
def _english():
    from mnemonic import Mnemonic

    return Mnemonic("english")


def _checksum_holds(words: list[str], anywhere: bool = False, or_last: bool = False) -> bool:
    """Whether the first 12 to 24 of ``words`` (a multiple of three) are an English BIP-39 phrase whose
    checksum holds; ``anywhere``, any 12 to 24 of them in a row: a word of the list may come before the
    phrase ("kalamat-e bazyabi-e kif pool: border hard …", a wallet's "pool"). (A checksum holds by chance
    once in 16 tries: only a phrase written with spaces, not a list with commas, is tried at each place.)
    ``or_last``, the last 12 to 24 too when one or two words of the list come before them ("the 12 words, in order:
    expire civil …", whose "order" is one)."""
    for n in (24, 21, 18, 15, 12):
        places = range(len(words) - n + 1) if anywhere else range(min(1, len(words) - n + 1))  # (the first place only)
        if or_last and not anywhere and 0 < len(words) - n <= 2:
            places = (*places, len(words) - n)
        if any(_english().check(" ".join(words[at:at + n])) for at in places):
            return True
    return False


# A wallet's private key as wallets export it, in base58 with a checksum that holds: WIF (a coin's
# version byte, 32 bytes, and 0x01 for a compressed key: Bitcoin's "5…", "K…", "L…", testnet's
# "9…", "c…", Litecoin's "T…", Dogecoin's "Q…", Dash's "X…") and a BIP-32 extended private key ("xprv…",
# "tprv…", "zprv…": 78 bytes whose key data starts with 0). A random string of the same shape
# fails the checksum 4,294,967,295 times in 4,294,967,296; an address ("1…", "3…": 21 bytes) or an
# extended public key ("xpub…") is no secret.
_BASE58 = "[1-9A-HJ-NP-Za-km-z]"

_WALLET_KEY = lazy(rf"(?<!{_BASE58})(?:{_BASE58}{{50,52}}|[xtyzuvYZUV]prv{_BASE58}{{107,108}})(?!{_BASE58})")


def base58check(token: str) -> bytes | None:
    """What ``token`` encodes in base58 (Bitcoin's alphabet) when its four-byte checksum (the
    double SHA-256 of the rest) holds; else None."""
    from libipld import decode_multibase

    try:
        raw = decode_multibase("z" + token)[1]  # "z": base58btc, as multibase names it
    except ValueError:
        return None
    payload, checksum = raw[:-4], raw[-4:]
    return payload if len(raw) > 4 and sha256(sha256(payload).digest()).digest()[:4] == checksum else None


def _wallet_key(text: str) -> bool:
    for match in _WALLET_KEY.finditer(text):
        payload = base58check(match[0])
        if payload is None:
            continue
        if payload[0] >= 0x80 and (len(payload) == 33 or len(payload) == 34 and payload[-1] == 1):
            # a coin's version byte (0x80 and up for every coin's WIF: Bitcoin's 0x80, Litecoin's 0xb0,
            # Namecoin's 0xb4…; not another chain's hash of a two-byte prefix and 32 bytes, Tezos's
            # blocks' below it), the key's 32 bytes (and 0x01)
            return True
        if len(payload) == 78 and payload[45] == 0:
            return True
    return False


# A wallet's private key in hex, right after its name: 64 hexadecimal digits ("my metamask private key
# 0x4c08…"), a secp256k1 or an ed25519 seed. Right after it only: an address (40 digits), a transaction's
# hash or a public key a few words on is no secret ("Lost the private key for 0xde0b…", "Signed with the
# private key; tx 0x5c50…").
_HEX_PRIVATE_KEY = lazy(r"(?i)(?<![a-z])(?:priv(?:ate)?[\s_-]?key|私钥|私鑰|秘密鍵)(?:\s*+(?:[:=：]|is|was|是|は))?\s*+[\"'`]?"
                        r"(?:0x)?[0-9a-f]{64}(?![0-9a-z])")
# and right after a wallet's name and "key" or "pk", or a wallet and a colon ("MetaMask key 0x0df7…",
# "ETH wallet pk=430e…", "Hot wallet (Rabby): 0xACAE…"): a wallet is named by its address, of 40 digits;
# its 64 are its key. Not in a sentence about what is public or a table's ("Nostr pk … (public)", "the
# x-only public key", "row pk=…", "… is the tx hash of the failed swap").
_HEX_WALLET_KEY = lazy(r"(?i)(?<![a-z])(?:(?:metamask|rabby|phantom|trezor|exodus|trust\s*+wallet|wallet|eth|ethereum|btc|bitcoin"
                       r"|sol|solana)(?:\s++wallet)?\s*+(?:pk|key|private\s*+key)|wallet(?:\s*+\([^()\n]{1,30}\))?(?=\s*+[:=：]))"
                       r"(?:\s*+[:=：])?\s*+[\"'`]?(?:0x)?[0-9a-f]{64}(?![0-9a-z])")
_PUBLIC_OR_A_TABLES = lazy(r"(?i)(?<![a-z])(?:public|pub|npub|x-only|address|tx|txid|hash|transaction|primary|row|table|contract"
                           r"|nostr|taproot)(?![a-z])")


def _hex_private_key(text: str) -> bool:
    return _HEX_PRIVATE_KEY.search(text) is not None or (
        _HEX_WALLET_KEY.search(text) is not None and _PUBLIC_OR_A_TABLES.search(text) is None)


_NAMES_A_CVV = lowered_search(r"(?i)cvv|cvc|card\s++security\s++code")
_CVV = lazy(r"(?i)\b(?:cvv2?|cvc2?|card\s++security\s++code)\b[^0-9\n]{0,24}(?<![0-9])[0-9]{3,4}(?![0-9])")

# (reason, check, precondition): the check runs only where its precondition holds
# A disk's or an account's recovery key: BitLocker's 48 digits in 8 groups of 6, each group a
# multiple of 11 below 720896 (what BitLocker checks before it tries a key); Apple's 28 characters
# in 7 groups of 4; Microsoft's account recovery code, 25 characters in 5 groups of 5.
_BITLOCKER = lazy(r"(?<![0-9-])[0-9]{6}(?:-[0-9]{6}){7}(?![0-9-])")
_GROUPED_KEY = lazy(r"(?<![A-Za-z0-9-])(?:[A-Z0-9]{4}(?:-[A-Z0-9]{4}){5,7}|[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}"
                          r"|A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4})(?![A-Za-z0-9-])")


def _recovery_key(text: str) -> bool:
    for match in _BITLOCKER.finditer(text):
        groups = match[0].split("-")
        if len(set(groups)) > 1 and all(int(group) % 11 == 0 and int(group) < 720896 for group in groups):
            return True  # not one group eight times: "000000-000000-…", the format shown in a wiki
    # a key mixes letters and digits; a run of one kind is a serial or a list of numbers
    return any(re.search(r"[A-Z]", key) and re.search(r"[0-9]", key) for key in _GROUPED_KEY.findall(text))


# An identity document's number stated with its name: a passport, a driving licence (with 5+ digits
# and nothing but letters, digits, spaces and dashes: "K0231411", "M508-697-32-885-8", "135 482 122")
_ID_DOCUMENT = lazy(
    r"(?i)(?:(?:passport|pasaporte|passaporto|passeport|reisepass\w*|paspoort|paszport|pass\s*+nr|passnummer|パスポート|여권|护照"
    r"|паспорт)[^\n0-9]{0,60}?"  # (a passport's number, a clause after its name: "… passport number for the … badge: C88FNV085")
    r"|(?:driver['’]?s?\s++licen[cs]e|driving\s++licen[cs]e|licen[cs]e\s++(?:number|no\b|nr\b|#)|\bDL\b|führerschein\w*|permis\s++de\s++conduire|licencia\s++de"
    r"\s++conducir|patente|rijbewijs|körkort|prawo\s++jazdy|運転免許)[^\n0-9]{0,40}?)"
    r"(?<![\w-])(?P<value>(?-i:(?=[A-Z0-9 -]{6,20}(?![\w-]))(?=[A-Z0-9 -]*?[0-9])[A-Z0-9]+(?:[ -][A-Z0-9]+){0,5}))"
    r"(?![\w-])"
    # a passport's number after its Persian, Urdu or Arabic name, its letters first as those countries print
    # it ("شماره پاسپورت برای تمدید ویزا: K29310832"; not an application's, a visa file's or a tracking number)
    r"|(?:پاسپورت|گذرنامه|پاسپورٹ|جواز\s*+(?:ال)?سفر)[^\n0-9A-Za-z]{0,40}?(?<![\w-])(?P<lettered>[A-Z]{1,2}[0-9]{6,8})(?![\w-])")


# the names above, looked for first in the text's lower case (a tenth of the search's time)
_NAMES_A_DOCUMENT = lowered_search(
    r"(?i)pass|pasaporte|paspo|paszp|licen|\bdl\b|führerschein|permis|patente|rijbewijs|körkort|prawo|パスポート|여권"
    r"|护照|паспорт|運転免許|پاسپورت|گذرنامه|پاسپورٹ|جواز\s*+(?:ال)?سفر")


_A_PASSPORT = lazy(r"(?i)pass|pasaporte|paspo|paszp|パスポート|여권|护照|паспорт")


def _id_document(text: str) -> bool:
    if not _NAMES_A_DOCUMENT(text):
        return False
    for match in _ID_DOCUMENT.finditer(text):
        if match["lettered"]:
            return True
        value = match["value"].strip()
        label = match[0][:match.start("value") - match.start()]
        numbered = re.match(r"(?i)\w+\s*+(?:number|no\b|nr\b|#|nummer|numéro|número)", label) is not None
        if re.search(r"(?i)appointment|expir|office|helpline|renew|phone|call", label) and not (
                numbered and re.fullmatch(r"[A-Z]{1,2}[0-9]{6,9}|[0-9]{9}", value)
                and not re.search(r"(?i)booking|ref\b|reference|order|ticket|application", label)) or (
                re.search(r"(?i)booking|reference|tracking|application|order|visa|courier|ticket", label)
                and not numbered):
            continue  # "Passport renewal appointment: 2025-03-14", "Passport office helpline is 0300 222 0000", "… the
            # Ryanair booking … is under reference QX77311" (not "passport # for my daughter's booking: …", nor
            # "passport number for the visa appointment: A09947400", a passport's letter and digits)
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{2}-[0-9]{2}-[0-9]{4}", value):
            continue  # a date
        digits = len(re.findall(r"[0-9]", value))
        if digits >= 5 and not re.fullmatch(r"(?:19|20)[0-9]{2}", value):
            return True
        if re.fullmatch(r"WDL[A-Z0-9]{9}", value):
            return True  # Washington's licence: "WDL" and nine letters or digits
        if digits >= 3 and re.fullmatch(r"(?=(?:[0-9]*[A-Z]){3})[A-Z0-9]{8,16}", value):
            return True  # "B380ROGQ2T": letters and digits mixed as a licence's number is
        if digits and re.fullmatch(r"[A-Z0-9]{8,10}", value) and _A_PASSPORT.search(match[0]):
            return True  # a passport's number of letters and digits: "Reisepassnummer: FGGWH8WPL"
    return False


# A national identity or tax number stated with its name, whose own check holds (python-stdnum's
# validators): a Turkish TC kimlik, a US EIN, a Chinese resident id, a Spanish DNI or NIE, an
# Italian codice fiscale, a French NIR, a Polish PESEL, a Dutch BSN, a Swedish or Norwegian
# personal number, a German tax id, a Danish CPR, a Finnish HETU, a Belgian national number, a
# Brazilian CPF, a Mexican CURP, an Indian Aadhaar or PAN, a UK NHS number, a Canadian SIN, an
# Australian TFN, a Korean RRN, a Swiss AHV, an Irish PPS, a Romanian CNP, a Czech birth number,
# a Greek AMKA, an Israeli id, a Japanese My Number, a Chilean RUT, a South African id, a US ITIN,
# a Bulgarian EGN, an Estonian isikukood, a Lithuanian asmens kodas, a Latvian personas kods, a
# Croatian OIB, a Slovenian EMŠO, an Icelandic kennitala, an Austrian social insurance number, a
# Hungarian person's tax number (``_HungarianTaxNumber``: python-stdnum has none).
_NATIONAL_IDS = (
    (r"tc\s*+kimlik|kimlik\s*+no|t\.c\.\s*+kimlik", ("tr.tckimlik",)),
    (r"\bein\b|employer\s++identification", ("us.ein",)),
    (r"身份证|身分證|resident\s++id", ("cn.ric",)),
    (r"\bdni\b|\bnie\b|\bnif\b|documento\s++nacional", ("es.dni", "es.nie", "pt.nif")),
    (r"codice\s++fiscale|cod\.\s*+fisc", ("it.codicefiscale",)),
    # (and Breton's "niverenn surentez sokial")
    (r"s[ée]curit[ée]\s++sociale|num[ée]ro\s++de\s++s[ée]cu|\bnir\b|carte\s++vitale|surentez\s++sokial", ("fr.nir",)),
    (r"\bpesel\b", ("pl.pesel",)),
    (r"\bbsn\b|burgerservicenummer|sofinummer", ("nl.bsn",)),
    (r"personnummer|fødselsnummer|f[øo]dselsnummer", ("se.personnummer", "no.fodselsnummer")),
    (r"steuer-?id|steueridentifikationsnummer|identifikationsnummer|\bidnr\b", ("de.idnr",)),
    (r"\bcpr\b", ("dk.cpr",)),
    (r"henkilötunnu\w*|\bhetu\b", ("fi.hetu",)),
    (r"rijksregisternummer|num[ée]ro\s++national|registre\s++national|national\s++number|\bniss\b|\binsz\b", ("be.nn",)),
    # (and someone's "ID" right before a number of its thirteen digits: "Sy ID vir die SARS-vorm: 7608180212089"; not an
    # order's, "Bestelling ID 6001273551095", "Order ID 2406220278078")
    (r"south\s++african\s++id|identiteitsnommer|(?:(?<![^\W\d_])(?:my|his|her|their|your|sy|haar|hul|se|jou|ons)|['’]s)"
     r"\s++id\b(?=[^\n0-9]{0,30}?(?<![0-9])[0-9]{13}(?![0-9]))"
     # and the identity document's word in Xhosa and Zulu, its number soon after ("Inombolo yesazisi … : 82052…")
     r"|(?<![^\W\d_])(?:\w{0,3}sazisi|\w{0,3}mazisi)(?![^\W\d_])(?=[^\n0-9]{0,40}?(?<![0-9])[0-9]{13}(?![0-9]))", ("za.idnr",)),
    (r"\bcpf\b", ("br.cpf",)),
    (r"\bcurp\b", ("mx.curp",)),
    # a Hungarian social insurance number, a Malaysian identity card's (MyKad: python-stdnum checks its date and
    # its place of birth)
    (r"\btaj\b|taj-?sz[áa]m\w*|társadalombiztosítási\s++azonosító", ("hu.taj",)),
    (r"mykad|\bnric\b|kad\s++pengenalan|no\.?\s*+k/?p\b|(?:nombor|no\.?) ?ic\b", ("my.nric",)),  # ("Nombor IC saya …")
    (r"aadhaa?r|आधार", ("in_.aadhaar",)),
    (r"\bpan\b", ("in_.pan",)),
    (r"\bnhs\b", ("gb.nhs",)),
    (r"\bsin\b|social\s++insurance", ("ca.sin",)),
    (r"\btfn\b|tax\s++file\s++number", ("au.tfn",)),
    (r"주민(?:등록)?번호|resident\s++registration", ("kr.rrn",)),
    (r"\bahv\b|\bavs\b", ("ch.ssn",)),
    (r"\bppsn?\b", ("ie.pps",)),
    (r"\bcnp\b", ("ro.cnp",)),
    (r"rodné\s++číslo", ("cz.rc",)),
    (r"\bamka\b|αμκα", ("gr.amka",)),
    (r"เลขบัตรประชาชน|เลขประจำตัวประชาชน|thai\s++(?:national\s++)?id", ("th.pin",)),
    (r"рнокпп|іпн|ідентифікаційн\w*\s++код", ("ua.rntrc",)),
    (r"teudat\s++zehut|תעודת\s*+ה?זהות|israeli\s++id", ("il.idnr",)),
    (r"kontonummer\w*", ("no.kontonr",)),
    (r"マイナンバー|個人番号|my\s++number", ("jp.in_",)),
    (r"\brut\b", ("cl.rut",)),
    (r"инн", ("ru.inn",)),
    # (its number right after the name, in its groups: not a phone's that a hundredth of numbers pass, "СНИЛС …,
    # а телефон поликлиники 8 968 084 13 81")
    (r"(?:снилс|\bsnils)\w*(?=[^\n0-9]{0,30}?[0-9]{3}[- .]?[0-9]{3}[- .]?[0-9]{3}[- .]?[0-9]{2}(?![0-9]))", ("ru.snils",)),
    (r"\bni\s++(?:number|no)|national\s++insurance", ("gb.nhs",)),
    (r"\bitin\b|individual\s++taxpayer", ("us.itin",)),
    (r"cart[ãa]o\s++de\s++cidad[ãa]o", ("pt.cc",)),
    (r"\bегн\b|\begn\b|единен\s++граждански", ("bg.egn",)),
    (r"isikukood\w*", ("ee.ik",)),
    (r"asmens\s++kod\w*", ("lt.asmens",)),
    (r"personas\s++kod\w*", ("lv.pvn",)),
    (r"\boib\b", ("hr.oib",)),
    (r"\bemšo\b|\bemso\b|\bјмбг\b|\bjmbg\b", ("si.emso",)),
    (r"kennitala|kennitölu", ("is_.kennitala",)),
    (r"sozialversicherungsnummer|\bsvnr\b", ("at.vnr",)),
    # (its number right after the name, a few words at most between: not "Adóazonosító jelet kért a könyvelő, a
    # NAV ügyszám pedig 8512345675")
    (r"(?:adóazonosító|adoazonosito)(?=[^\n0-9;.]{0,30}?[0-9]{10}(?![0-9]))", ("hu.adoazonosito",)),
)
# a name that says a number is a person's identity or tax number without saying whose country's:
# each country's check above is tried ("national ID number: 187025313066604", a French NIR)
_ANY_COUNTRYS_ID = (r"national\s++id(?:entity|entification)?(?:\s++(?:card\s++)?(?:number|no\b|#))?|identity\s++(?:card\s++)?number"
                    r"|(?:personal|citizen|citizen['’]?s)\s++(?:identity\s++|identification\s++|id\s++)?(?:number|code)"
                    r"|\bid\s++(?:card\s++)?number|identification\s++number|tax\s++(?:id(?:entification)?|number|code)"
                    r"|social\s++security\s++number")
_NATIONAL_IDS += ((_ANY_COUNTRYS_ID, tuple(dict.fromkeys(module for _, modules in _NATIONAL_IDS for module in modules))),)
_NATIONAL_ID_NEEDLES = (
    "kimlik", "ein", "身份证", "身分證", "resident", "dni", "nie", "nif", "documento", "codice", "fisc", "curit", "sécu", "surentez",
    "secu", "nir", "vitale", "pesel", "bsn", "burgerservice", "sofinummer", "nummer", "steuer", "idnr", "cpr", "henkil",
    "hetu", "national", "cpf", "curp", "aadha", "pan", "nhs", "sin", "insurance", "tfn", "number", "employer", "주민등록번호", "주민번호",
    "registration", "ahv", "avs", "pps", "cnp", "rodné", "amka", "teudat", "זהות", "israeli", "マイナンバー", "個人番号",
    "my number", "rut", "инн", "снилс", "ni", "आधार", "niss", "insz", "kontonummer", "αμκα", "เลข", "thai", "рнокпп", "іпн",
    "ідентифікаційн", "registre", "african", "itin", "taxpayer", "егн", "egn", "граждански", "isikukood", "asmens",
    "personas", "oib", "emšo", "emso", "јмбг", "jmbg", "kennit", "sozialversicherung", "svnr", "cidad", "personal",
    "adóazonosító", "adoazonosito", "snils", "taj", "társadalombiztosítási", "mykad", "nric", "pengenalan", "k/p", "kp", "nombor ic", "nomboric", "no ic", "noic", "no. ic", "no.ic",
    "citizen", "tax", "id", "identiteit", "sazisi", "mazisi")
_A_NATIONAL_ID_NEEDLE = Needles(_NATIONAL_ID_NEEDLES).any
_NAMES_A_NATIONAL_ID_SEARCH = lowered_search("(?i)" + "|".join(label for label, _ in _NATIONAL_IDS))


def _names_a_national_id(text: str) -> bool:
    """The names' search (20 µs over a line: its words start with word boundaries) runs only where
    one of their cheap needles is."""
    return _A_NATIONAL_ID_NEEDLE(text.lower()) and _NAMES_A_NATIONAL_ID_SEARCH(text)
_NATIONAL_ID_LABELS = tuple((lazy("(?i)" + label), modules) for label, modules in _NATIONAL_IDS)
# a number after the name: letters and digits in groups, the first with a digit ("is 805 779 2329":
# the words before it are no part of it)
_ID_VALUE = lazy(r"(?<![A-Za-z0-9-])(?=[A-Za-z]*[0-9])[A-Za-z0-9]+(?:[ .\-/][A-Za-z0-9]+){0,6}")


class _RussianInsuranceNumber:
    """A Russian insurance number (СНИЛС), which python-stdnum lacks: eleven digits, the last two the sum of the
    first nine each times its place from the end (9 to 1), that sum as it is under 100, 0 at 100 or 101, else its
    remainder by 101 (0 for 100); from 001-001-999 on."""

    @staticmethod
    def is_valid(number: str) -> bool:
        digits = number.replace("-", "").replace(" ", "").replace(".", "")
        if not (len(digits) == 11 and digits.isascii() and digits.isdigit()) or int(digits[:9]) <= 1001998:
            return False
        total = sum(int(digit) * weight for digit, weight in zip(digits[:9], range(9, 0, -1)))
        check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
        return check == int(digits[9:])


class _HungarianTaxNumber:
    """A Hungarian person's tax number (adóazonosító jel), as python-stdnum's modules check theirs: ten
    digits, the first 8, the last the sum of the first nine each times its place, modulo 11 (never 10)."""

    @staticmethod
    def is_valid(number: str) -> bool:
        if not (len(number) == 10 and number.isascii() and number.isdigit() and number[0] == "8"):
            return False
        return sum(int(digit) * place for place, digit in enumerate(number[:9], start=1)) % 11 == int(number[9])


class _HungarianInsuranceNumber:
    """A Hungarian social insurance number (TAJ szám), which python-stdnum lacks: nine digits, the last the sum
    of the first eight, those in odd places times 3 and in even places times 7, modulo 10."""

    @staticmethod
    def is_valid(number: str) -> bool:
        digits = number.replace("-", "").replace(" ", "")
        if not (len(digits) == 9 and digits.isascii() and digits.isdigit()):
            return False
        return sum(int(digit) * (3 if place % 2 else 7) for place, digit in enumerate(digits[:8], start=1)) % 10 \
            == int(digits[8])


# the checks python-stdnum lacks, under the names its modules would have
_OWN_CHECKS = {"hu.adoazonosito": _HungarianTaxNumber, "hu.taj": _HungarianInsuranceNumber,
               "ru.snils": _RussianInsuranceNumber}


@cache
def _validator(name: str):
    if name in _OWN_CHECKS:
        return _OWN_CHECKS[name]
    import importlib

    return importlib.import_module(f"stdnum.{name}")


# a person's identity number said to be one, right before it: nine digits or more are one, whatever
# its country's check ("The user's national ID number: 13003216315"); a tax number is a company's too,
# and counts only when a check holds (above)
_IDENTITY_NAMES = (r"national\s++id(?:entity|entification)?|identity\s++(?:card\s++)?number"
                   r"|(?:personal|citizen|citizen['’]?s)\s++(?:identity\s++|identification\s++|id\s++)?number"
                   r"|social\s++security\s++number"
                   # Nigeria's bank verification number ("my BVN na 22187465530", in Pidgin)
                   r"|(?<![a-z])bvn(?![a-z])|bank\s++verification\s++number")
_AN_IDENTITY_NUMBER = lazy(
    r"(?i)(?:" + _IDENTITY_NAMES + r")"
    r"[^0-9\n]{0,30}?(?<![\w-])(?P<value>[0-9](?:[ .\-/]?[0-9]){8,19})(?![\w-])"
    # Nigeria's national identification number, its eleven digits after "NIN" in capitals ("Nọ́mbà NIN olùmúlò ni
    # 48291037465"; it has no check digit to ask)
    r"|(?-i:(?<![A-Za-z])NIN(?![A-Za-z]))[^0-9\n]{0,30}?(?<![\w-])(?!0)[0-9]{11}(?![\w-])")  # (not a phone's, "080…")


# what every name ``_AN_IDENTITY_NUMBER`` knows holds (one pass over the text, not the names' search)
_NAMES_AN_IDENTITY = Needles(("national", "identity", "personal", "citizen", "social", "bvn", "verification", "nin")).any


# a national card's number after its name, at its own length, its digits in a row: Vietnam's citizen
# card (CCCD, 12 digits; the older CMND, 9), Indonesia's NIK (16, its holder's birth date in the middle),
# Iran's national code (10, its last a check digit): "CCCD của chị Lan để khai bảo hiểm: 033966804945",
# "NIK Bu Sari buat klaim asuransi: 3174005413461195" (not a file's number in groups, "… mã hồ sơ 0001
# 2345 6789", nor a complaint's, "NIK …, tiket pengaduan 202406130012345")
_A_NATIONAL_CARDS_NUMBER = lazy(
    r"(?<![A-Za-z])(?:CCCD|CMND|(?i:căn\s++cước))[^0-9\n]{0,40}?(?<![0-9])(?P<vn>[0-9]{12}|[0-9]{9})(?![0-9])"
    r"|(?<![A-Za-z])NIK(?![A-Za-z])[^0-9\n]{0,40}?(?<![0-9])(?P<nik>[0-9]{16})(?![0-9])"
    r"|(?:(?:کد|شماره)\s*+ملی|(?i:(?<![a-z])kode?\s*+mel+i))[^0-9\n]{0,40}?(?<![0-9])(?P<ir>[0-9]{10})(?![0-9])"
    # Pakistan's CNIC (13 digits, 5-7-1, its first the province's, 1 to 7): in its groups as the card prints them
    # (a dash, a space or an en dash between) a few words after its name, or in a row after its name and "number"
    # at most ("میرا شناختی کارڈ نمبر 35274-3350690-1 ہے", "CNIC: 3527433506901"; not a file's name,
    # "cnic_front_1712345678901.jpg", nor a parcel's number, "شناختی کارڈ ٹریکنگ 1234567890123")
    r"|(?:(?i:(?<![a-z_])(?:cnic|nicop|nic|b-?form|(?:id|identity)\s++card|shanakhti\s++card|nadra\s++id)(?![a-z_]))|شناختی\s*+کارڈ)"
    r"(?:[^0-9\n]{0,40}?(?<![0-9])(?P<pk>[1-7][0-9]{4}(?P<sep>[-–‑ ])[0-9]{7}(?P=sep)[0-9])"
    r"|(?i:[\s:：#.]*+(?:(?:number|no|nr|نمبر)[\s:：#.]*+)?(?:(?:is|hai|ہے)\s++)?)(?<![0-9])(?P<pk2>[1-7][0-9]{12}))(?![0-9-])")


def _national_card(text: str) -> bool:
    for match in _A_NATIONAL_CARDS_NUMBER.finditer(text):
        if match["vn"]:
            return True
        if (match["pk"] or match["pk2"]) and not _NAMED_A_TEST(text) and not _AN_EXAMPLES_WORD(text):
            return True  # (not the form's own example: "CNIC format on the form is 12345-1234567-1")
        if match["nik"]:
            day = int(match["nik"][6:8])  # (a woman's day of birth plus 40)
            if 1 <= day <= 31 or 41 <= day <= 71:
                return True
        elif match["ir"]:
            digits = [int(digit) for digit in match["ir"]]
            rest = sum(digit * (10 - place) for place, digit in enumerate(digits[:9])) % 11
            if digits[9] == (rest if rest < 2 else 11 - rest):
                return True
    return False


def _fewest_digits(modules: tuple[str, ...]) -> int:
    """The digits a number needs before its check is asked: six, or four for an Indian PAN alone (five letters,
    four digits and a letter: "PAN card number AFZPK7190K")."""
    return 4 if modules == ("in_.pan",) else 6


def _national_id(text: str) -> bool:
    if not _names_a_national_id(text):
        return False
    tried: set[tuple[str, tuple[str, ...]]] = set()  # a number is checked once, however often it is named
    for label, modules in _NATIONAL_ID_LABELS:
        for named in label.finditer(text):
            for value in _ID_VALUE.finditer(text, named.end(), min(len(text), named.end() + 100)):
                parts = re.split(r"(?<=[A-Za-z0-9])(?=[ ])", value[0])
                for start in range(len(parts)):  # any run of groups: "is 796 001 139", "lautet 85 890 612 780"
                    for end in range(len(parts), start, -1):
                        number = "".join(parts[start:end]).strip()
                        if (number, modules) in tried or sum(char.isdigit() for char in number) < _fewest_digits(modules):
                            continue
                        tried.add((number, modules))
                        if any(_validator(module).is_valid(number) for module in modules):
                            return True
    return False


# A passport's machine-readable line (ICAO 9303, TD3's second line): the document number, birth and
# expiry dates and the whole line each end in a check digit (weights 7, 3, 1; letters count 10 to
# 35, "<" nought); all four holding is no accident.
_MRZ_LINE = lazy(r"(?<![A-Z0-9<])[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{6}[0-9][MFX<][0-9]{6}[0-9][A-Z0-9<]{14}[0-9<][0-9]"
                       r"(?![A-Z0-9<])")


def _mrz_check(field: str) -> int:
    values = [int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55 for c in field]
    return sum(value * (7, 3, 1)[at % 3] for at, value in enumerate(values)) % 10


def _mrz_line(text: str) -> bool:
    for match in _MRZ_LINE.finditer(text):
        line = match[0]
        if (_mrz_check(line[0:9]) == int(line[9]) and _mrz_check(line[13:19]) == int(line[19])
                and _mrz_check(line[21:27]) == int(line[27])
                and _mrz_check(line[0:10] + line[13:20] + line[21:43]) == int(line[43])):
            return True
    return False


# A UK National Insurance number after its name: two letters (HMRC's: not D, F, I, Q, U or V, not O
# second, never BG, GB, KN, NK, NT, TN or ZZ), six digits, A to D. It has no check digit.
_NINO = lazy(r"(?i)(?:\bni\s++(?:number|no)|national\s++insurance(?:\s++(?:number|no))?)\b"
             r"(?:\s*+[:=#]?\s*+|[^\n0-9]{0,20}?(?:\s(?:is|was)\s++|[:=]\s*+))(?<![A-Za-z])"
             r"(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z](?:\s?[0-9]{2}){3}\s?[A-D](?![A-Za-z0-9])")


# A Mexican CURP after its name, of its shape (four letters, a birth date, H or M, the state and three consonants,
# a character and a check digit), whatever its check digit: a person's, mistyped or not
_A_CURP = lazy(r"(?i)\bcurp\b[^\n]{0,24}?(?<![A-Za-z0-9])(?-i:[A-Z]{4}[0-9]{6}[HMX][A-Z]{5}[0-9A-Z][0-9])(?![A-Za-z0-9])")
# Philippine numbers right after their name, in their shape (python-stdnum checks none of them): an SSS number
# ("SSS no. 34-1234567-8"), a TIN ("TIN: 123-456-789-000"), a PhilHealth number ("12-345678901-2"), a Pag-IBIG
# MID ("1234-5678-9012"), a UMID's CRN ("0111-1234567-8"); written with their dashes, or as many digits in a row
# after the name and a colon or "no." at most (not "SSS branch hotline 8920-6446", "TIN 3 cans")
_A_PHILIPPINE_NUMBER = lazy(
    r"(?i)(?<![a-z])(?:sss|tin|philhealth|pag-?ibig(?:\s++mid)?|umid(?:\s++crn)?)(?![a-z])"
    r"(?:\s*+(?:no\.?|number|#|id))?\s*+[:：]?\s*+(?<![0-9])"
    r"(?:[0-9]{2}-[0-9]{7}-[0-9]|[0-9]{3}-[0-9]{3}-[0-9]{3}(?:-[0-9]{3,5})?|[0-9]{2}-[0-9]{9}-[0-9]|[0-9]{4}-[0-9]{4}-[0-9]{4}"
    r"|[0-9]{4}-[0-9]{7}-[0-9]|[0-9]{9,12})(?![0-9-])")


_CHECKS = (
    ("looks like a recovery key (BitLocker, Apple, Microsoft)", _recovery_key, lambda t, d: t.count("-") >= 4),
    ("looks like a national identity number (said to be one)", lambda t: _A_CURP.search(t) is not None,
     lambda t, d: d >= 7 and "curp" in t.lower()),
    ("looks like a national identity or tax number (said to be one)", lambda t: _A_PHILIPPINE_NUMBER.search(t) is not None,
     lambda t, d: d >= 9 and any(word in t.lower() for word in ("sss", "tin", "philhealth", "pag", "umid"))),
    ("looks like a passport's machine-readable line (its check digits hold)", _mrz_line,
     lambda t, d: d >= 14 and "<" in t),
    ("looks like an identity document's number", _id_document, lambda t, d: d >= 1 or "WDL" in t),
    ("looks like a national identity or tax number (its check holds)", _national_id, lambda t, d: d >= 4),  # (a PAN's 4)
    ("looks like a national identity number (said to be one)", lambda t: _AN_IDENTITY_NUMBER.search(t) is not None,
     lambda t, d: d >= 9 and _NAMES_AN_IDENTITY(t.lower())),
    ("looks like a UK National Insurance number", lambda t: _NINO.search(t) is not None, lambda t, d: d >= 6),
    ("looks like a national identity number (said to be one)", _national_card,
     lambda t, d: d >= 9 and ("CCCD" in t or "CMND" in t or "NIK" in t or "ملی" in t or "cước" in t or "شناختی" in t
                           or any(word in t.lower() for word in ("mel", "nic", "bform", "b-form", "card", "nadra")))),
    ("looks like a payment card number (its Luhn check holds)", _card, lambda t, d: d >= 12),
    ("looks like an IBAN (its mod-97 check holds)", _iban_found, lambda t, d: d >= 2),
    ("looks like a bank account number", _bank_account, lambda t, d: d >= 6),
    ("looks like a US social security number", _ssn_found, lambda t, d: d >= 9),
    ("looks like a payment card number (its Luhn check holds)", _card_in_parts,
     lambda t, d: d >= 12 or _SPOKEN_NEEDLES(t)),
    ("looks like a US social security number", _ssn_in_parts, lambda t, d: d >= 9 or _SPOKEN_NEEDLES(t)),
    ("looks like a card's security code (CVV)", lambda t: _CVV.search(t) is not None and not _adyens_documented_card(t),
     lambda t, d: d >= 3 and _NAMES_A_CVV(t)),
    ("looks like 2FA backup or one-time codes", _backup_codes,
     lambda t, d: d >= 9 or _names_one_code(t) and (d >= 2 or "code" in t.lower() or _CODES_NAMED(t) is not None)
     or _may_hold_letter_groups(t)
     and _LETTER_GROUPS.search(t) is not None),
    ("looks like 2FA backup or one-time codes", _one_time_code_told, lambda t, d: d >= 4 and _TELLS_A_CODE(t.lower())),
    ("looks like a TOTP seed", _totp_seed, lambda t, d: d >= 2 or "otpauth" in t.lower() or _TOTP_NAMED(t)),
    ("looks like a wallet's private key (its checksum holds)", _wallet_key, lambda t, d: len(t) >= 51),
    ("looks like a wallet's private key (64 hex digits after its name)", _hex_private_key,
     lambda t, d: d >= 8 and len(t) >= 66),
    ("looks like a wallet recovery phrase (BIP-39 words)", _recovery_phrase, lambda t, d: t.count(" ") + t.count("\n") >= 11),
)


def check_digits_reason(text: str) -> str | None:
    """The reason ``text`` holds a card, an IBAN or a bank account, read by the checks that hold a
    number to its check digits or to a bank's words (a card only with a card's word beside it): what
    ``reason`` asks of a text whose digits were another script's ("کارت بانکی ۶۰۳۷ ۹۹۷۵ …"), where
    an order's, a bill's or a seat's numbers are written in those digits too (not a list of numbers
    read as backup codes, nor an id)."""
    digits = len(_DIGITS(text))
    for why, check, precondition in _CHECK_DIGITS_CHECKS:
        if precondition(text, digits) and (check is not _card or _A_CARD_WORD(text)) and check(text):
            return why
    return None


_CHECK_DIGITS_CHECKS = tuple(entry for entry in _CHECKS if entry[1] in (_card, _iban_found, _bank_account, _national_card))


def reason(text: str) -> str | None:
    """The first validator that holds on ``text``, or None."""
    digits = len(_DIGITS(text))
    for why, check, precondition in _CHECKS:
        if precondition(text, digits) and check(text):
            return why
    return None
