"""Checks of the labelled layer for a value told beside what it opens or answers, with no word for a
password, in the forms the eighteenth writer's pool (``tune16``) found the gate missing:

- a lock's code that looks like a year, after the lock's name (``bike lock: 1959``, ``cykellåset:
  1943``), or told as a year in words (``Nan's card PIN is nineteen seventy-two``);
- an alarm's code with stars and hashes (``*0693#``, ``2#7#0#9``);
- a code in two halves (``hotel safe: first half 31, second half 88``) and a password in two parts
  (``first Harbour then 1974``);
- a code before what it opens (``9264 avaa mökin avainkaapin``);
- a sentence told as a device's passphrase (``фраза для ноутбука бабушки: белый кот ест блины``);
- a network's name and its password with nothing between but a slash (``Telia-3F2A1C /
  Lingon.Sylt7``), and a token only a password is, beside what it opens, on a site that asks for
  it or after the word for typing it (``Calcots_Valls7``, ``Zaatar!41``, ``gib Maulwurf!3 ein``);
- security answers given as a list (``svar på säkerhetsfrågorna: första husdjuret Kurre, första
  bilen Volvo 240``) or after the question they answer is asked (``if HMRC asks for mother's maiden
  name it's Aldridge``).

Each needs what it opens or what is asked beside it: the shapes alone are also an order's halves, a
team's score, a recipe's steps and a name in code. The labelled layer runs them after its own
(``labelled._CHECKS``), each only where one of its needles is. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pdsmem.mapping.privacy import words
from pdsmem.mapping.privacy.plain import lazy, lowered_search
from pdsmem.mapping.privacy.told import _CONTEXT, _JOINED_WORDS, _line_of

# --- a lock's code that looks like a year -----------------------------------------------------------

# a bike lock, a padlock, a locker, a safe by a name no castle, rock song or course has ("Schloss" is
# also a castle, "замок" one too, "ロック" rock, "khóa" a course)
# (whole words, each where a word starts and ends: "Schloss", "zámek" and "zamek" are castles too, "slot"
# a deployment's, "skåpbil" a van, "Seife" soap, "safe" an adjective, "鎖国" a closed country, "block" no lock)
_A_LOCKS_NAME = (
    r"(?:(?<![^\W\d_])(?:bike\s*+lock|u-lock|padlock|combination\s++lock|locker(?!\s++room)|gym\s++locker|(?:fahrrad|zahlen|vorhänge|bügel"
    r"|ketten|spind|koffer|rad)schloss|spind|schließfach|(?:fiets|cijfer|hang|ketting)slot|cykellås\w*|hänglås\w*|sykkellås\w*"
    r"|hengelås\w*|kodlås\w*|velozamok|велозам\w*|кодов\w*\s++замок|замок\s++(?:от|на|для)\s++\w+|lucchetto|cadeado|candado"
    r"|cadenas|kłódk\w*|zamek\s++(?:szyfrowy|do\s++roweru|rowerowy)|kódový\s++zámek|visací\s++zámek|zámek\s++na\s++kolo"
    r"|(?:pyörän\s++)?lukko|lakat|lakatot|lacăt\w*|bisiklet\s++kilidi|kilit|dolap\s++kilidi|dolab[ıi]|khóa\s++xe(?:\s++đạp)?|ổ\s++khóa|gembok"
    r"|kufuli|λουκέτο|ה?מנעול\w*|ה?לוקר|قفل|তালা|ताला|ormarić\w*|szafk\w*|θυρίδα|loker|armadietto|taquilla|casier|skříň\w*"
    r"|катинар\w*|lakatj\w*|lukon|cadenat|kluisj\w*|লকার\w*"
    r"|(?:hotel|wall|floor|gun|home|office|room|fire|hotel\s++room)\s++safe|safe\s++(?:code|combination)|tresor|coffre-fort"
    r"|coffre\s++fort|cofre|caja\s++fuerte|cassaforte|kluis|sejf|сейф|seif|seiful|trezor|χρηματοκιβώτιο|כספת|خزنة|تجوری"
    # a safe in Norwegian and Danish, by its article ("safen i styrhuset"), a bank's safe deposit box
    r"|safen|pengeskap\w*|pengeskab\w*|caja\s++de\s++seguridad"
    r"|két\s++sắt|brankas)(?![^\W\d_])"
    r"|自行车锁|车锁|挂锁|密码锁|门锁|(?<=的)锁|自転車の鍵|ダイヤル錠|南京錠|자물쇠|กุญแจ\w*|(?<!信用)金庫|保险箱|금고)"
)
# what a number after a lock's name and a colon also is: its model, its year, its price, a race's number
_NOT_THE_CODE = lazy(r"(?i)(?<![^\W\d_])(?:model|modell|modèle|modelo|modello|year|jahr|année|año|anno|ano|årsmodell|built|baujahr"
                     r"|made|manufactured|bought|gekauft|acheté|comprado|price|preis|prix|precio|number|nummer|numéro"
                     r"|número|numero|port|size|größe|taille|capacity|kapazität|type|typ|sku|article|artikel|part"
                     r"|founded|gegründet|fondé|fundado|fondato|opened|eröffnet|width|breite|largeur|ancho|larghezza"
                     r"|szerokość|height|höhe|depth|tiefe|mm|cm|hour|uhr|heure|hora|ora|time|zeit|o['’]clock|الساعة|يقفل"
                     r"|expediente|reference|référence|referencia|riferimento|ticket|order|case|file|модел\w*|номер\w*"
                     # sold, a price ("bei yake", not German's "bei"), an order, in Swahili
                     r"|inauzwa|bei\s++(?:yake|ya)|oda)")
# the lock's name, a few words (whose lock), a colon and the number, the last thing said: the number
# at a line's end after a colon is found first, then the lock's name in the 60 characters before it
# (or Swahili's "is" right after "code", and a keypad's "#" after the number: "kufuli ya mlango code ni
# 2580#"; not "Kufuli mpya ya baiskeli, bei yake ni 4500", its price)
_NUMBER_AFTER_A_COLON = lazy(r"(?:[:：]|\s[—–-]|(?i:(?<![\w-])(?:code|msimbo))\sni)\s*+[0-9]{3,8}#?\s*+(?:\([^()\n]{0,80}\))?\s*+(?:[.!]\s|[.!]?\s*+$)",
                             re.M)
_LOCKS_NAME_BEFORE = lazy(r"(?i)" + _A_LOCKS_NAME + r"(?P<label>[^\n:：0-9]{0,40})$")


def _lock_then_number(text: str) -> bool:
    for colon in _NUMBER_AFTER_A_COLON.finditer(text):
        named = _LOCKS_NAME_BEFORE.search(text, max(0, colon.start() - 60), colon.start())
        if named and not _NOT_THE_CODE.search(named[0]):
            return True
    return False
# "šifra za ormarić na bazenu 2094": the word for a code, what it is for, the number at the end
_CODE_FOR_A_LOCK = lazy(r"(?i)(?<!\w)(?<!dress\s)(?<!zip\s)(?<!post\s)(?<!area\s)(?<!promo\s)(?:šifra|šifru|шифр\w*|kód|kod|code|код)\s++(?:za|na|for|für|pour|para|per|voor|do|dla"
                        r"|для|від|от)\s++(?:\S+\s++){0,3}?" + _A_LOCKS_NAME + r"(?:\s++\S+){0,3}?\s++[0-9]{4,6}\s*+[.!]?\s*+$",
                        re.M)

# a dial's combination, three or four numbers of one or two digits joined by dashes ("07-19-44", "5-31-19"),
# two of them of two digits ("4-4-2" is a team's formation, "1-2-3" a boxer's), where its clause ends
_COMBINATION = lazy(r"(?<![A-Za-z0-9_-])(?=(?:[0-9]-?)*?[0-9]{2}(?![0-9])(?:-?[0-9])*?-[0-9]{2}(?![0-9]))"
                    r"[0-9]{1,2}-[0-9]{1,2}-[0-9]{1,2}(?:-[0-9]{1,2})?(?![A-Za-z0-9_-]|[.,][0-9])"
                    r"(?=\s*+(?:[.,;!?)。、，।]|$)|\s++(?:and|und|et|y|e|en|och|og|i|a|и|і|then|dann|puis|ile)\s)")
# a locker's or a padlock's name, in more words than ``_A_LOCKS_NAME`` has for one (a gym's locker is a
# cabinet, a wardrobe or a box office in other talk, so these count only with the code told right after)
_LOCKERS_NAME = lazy(r"(?i)" + _A_LOCKS_NAME + r"|(?<![^\W\d_])(?:cijferslot|armário|casillero|шкафчик\w*|dolap\w*|dulap\w*"
                     r"|lukko\w*|skåp\w*)(?![^\W\d_])|자물쇠|사물함|ダイヤル錠|ロッカー|储物柜|儲物櫃")
# what comes right before the combination when it is the lock's: a colon, "is", "opens with", the lock's
# own name, "the combination is", "staat op", "は", "번호"
_TOLD_AS_ITS_CODE = lazy(
    r"(?i)(?:[:：=→]|(?<!\w)(?:is|are|ist|est|es|è|é|är|er|je|jest|staat\s++op|goes|with|com|con|mit|avec|cu|z|med"
    r"|abre\s++com|abre\s++con|opens\s++(?:with|on)|combo|combination|combinação|combinación|combinazione|combinaison"
    r"|combinația|kombinationen|yhdistelmä\w*|cifrul|szyfr|шифр|код|dial)|は|번호|의|密码是|का\s*+नंबर|[—–-])\s*+$")
# a number said of something else in the clause: a date, a size, a shelf, a team, a score, a rental
_NOT_A_COMBINATION = lazy(
    r"(?i)(?<!\w)(?:on|since|until|till|expires?|expiry|scheduled|bought|date|dated|datum|delivery|dostawa|gekauft|acheté"
    r"|comprado|desde|seit|depuis|до|від|с|од|born|geboren|né|nacido|rental|rent|warranty|size\w*|taill\w*|talla\w*"
    r"|shel(?:f|ves)|raft|regal|seats?|asientos|session|sesión|sala|lineup|formation|alineación|aufstellung|score\w*|set"
    r"|dates?|fechas?|termine?|team|sheet"
    r"|round|tanggal|dniach|dagen|výšek|model|price|preis|prix|precio)(?!\w)")


def _combination_beside_a_lock(text: str) -> bool:
    for match in _COMBINATION.finditer(text):
        sentence = re.split(r"[.;!?。！？।]\s|\n", text[max(0, match.start() - 100):match.start()])[-1]
        named = max(_LOCKERS_NAME.finditer(sentence), key=lambda found: found.start(), default=None)  # the last one
        if named is None or _NOT_A_COMBINATION.search(sentence, named.start()):
            continue
        between = sentence[named.end():]
        if not between.strip() or _TOLD_AS_ITS_CODE.search(between) and len(between) <= 60:
            return True  # "জিমের লকারের তালা 26-41-13", "Ổ khóa tủ đồ ở phòng gym: 18-33-47"
    return False


# --- a PIN told as a year in words ------------------------------------------------------------------

_TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
_TEENS = r"(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
# a year said in words in the languages people write in (the first words; the rest may follow), or a
# year in Chinese and Japanese digit names ("一九五五")
_YEAR_IN_WORDS = (
    r"(?:nineteen[\s-]++(?:hundred[\s-]++(?:and[\s-]++)?)?(?:" + _TENS + r"|" + _TEENS + r"|oh[\s-]++\w+)"
    r"|two\s++thousand(?:\s++and)?\s++\w+|mil\s++novecient[oa]s\s++\w+|mil\s++novecentos\s++(?:e\s++)?\w+"
    r"|dos\s++mil\s++\w+|dois\s++mil\s++e\s++\w+|millenovecento\w+|duemila\w+|mille\s++neuf\s++cents?[\s-]++\w+"
    r"|dix-neuf\s++cents?[\s-]++\w+|deux\s++mille[\s-]++\w+|neunzehnhundert\w*|zweitausend\w+|negentienhonderd\w*"
    r"|tweeduizend\w+|tysi[aą]c\s++dziewi[eę][cć]set\s++\w+|dwa\s++tysi[aą]ce\s++\w+|тысяча\s++девятьсот\s++\w+"
    r"|две\s++тысячи\s++\w+|тисяча\s++дев.ятсот\s++\w+|дві\s++тисячі\s++\w+|bin\s++dokuz\s++yüz\s++\w+|iki\s++bin\s++\w+"
    r"|אלף\s++תשע\s++מאות\s++\S+|אלפיים\s++ו?\S+|ألف\s*+و\s*+تسعمائة|ألفين\s++و\S+|ألفان\s++و\S+"
    r"|twenty[\s-]++(?:oh[\s-]++\w+|" + _TEENS + r"|twenty(?:[\s-]++\w+)?)|diecinueve\s++(?:veinte|treinta|cuarenta"
    r"|cincuenta|sesenta|setenta|ochenta|noventa)|千九百\S*|二千\S*"
    r"|(?<![〇零一二三四五六七八九十])[一二][〇零一二三四五六七八九]{3}(?![〇零一二三四五六七八九十])|천구백\S*|이천\S+)"
)
# what such a year is the code of: a PIN, a card's or a lock's code
_A_PIN_OR_LOCK = (r"(?:(?<!\w)(?:(?<!hat\s)(?<!hair\s)(?<!tie\s)(?<!safety\s)pin|pin-?code|pinpas|bancomat|pincode"
                  r"|pin-kod\w*|geheimzahl|alarm\s++code|code\s++(?:pin|de\s++la\s++carte|of\s++the\s++card)|пин|пін"
                  r"|ה?קוד\s++(?:של\s++)?ה?כרטיס|الرقم\s++السري|رقم\s++\S+(?:\s++\S+)?\s++السري|暗証番号|비밀번호)(?!\w)|"
                  + _A_LOCKS_NAME + r")")
# the year after what it is the code of and "is" or a colon, in one clause: "Nan's card PIN is nineteen seventy-two"
_YEAR_IN_WORDS_TOLD = lazy(r"(?i)" + _A_PIN_OR_LOCK + r"[^\n.;!?]{0,40}?(?:[:：=—–]|\s(?:is|was|es|era|est|ist|è|é|jest|je"
                           r"|är|er|lautet|это|c['’]est|—)\s|的|は|(?<=السري)\s)\s*+(?<![\w-])" + _YEAR_IN_WORDS)

# --- an alarm's code with stars and hashes ----------------------------------------------------------

# ("*2024 roadmap*" is markdown's italics: a star alone before digits is no code)
_STARRED_CODE = lazy(r"(?<![A-Za-z0-9_*#])(?:\*[0-9]{4,8}#|#[0-9]{4,8}\*|[0-9](?:#[0-9]){3,7}#?|[0-9](?:\*[0-9]){3,7}"
                     r"|[0-9]{2}#[0-9]{2}#)(?![A-Za-z0-9_*#])")
# an alarm, a keypad, a lock, a door, as a word: "Solarmodule" holds no alarm
_AN_ALARM = lowered_search(
    r"(?i)(?<![a-zà-ÿ])(?:alarm|alarme|alarma|allarme|antifurto|larm|hälyt\w*|riasztó|συναγερμ|сигнализ|сигналіз|verisure"
    r"|einbruchmelde\w*|keypad|disarm|entschärf|désactiv|desactiv|disinserisc|vypíná|вимика|выключа|code|porte|door|tür"
    r"|gate|garage|tresor|safe|kluis|cadenas)"
    r"|报警|報警|警報|警报|경보|دزدگیر|إنذار|אזעקה|báo\s++động|กันขโมย|अलार्म|এলার্ম|poplach|撤防|解除|خاموش")
# a phone's own codes: "dial *3282#", USSD, a balance
_A_PHONES_CODE = lowered_search(r"(?i)dial|call|ussd|balance|guthaben|saldo|solde|marque|wähle|wählen|llama|chiama|phone"
                                r"|telefon|handy|mobile|celular|cellulare|sim\b|carrier|operator")


def _starred_code(text: str) -> bool:
    return (("*" in text or "#" in text) and _STARRED_CODE.search(text) is not None and _AN_ALARM(text)
            and not _A_PHONES_CODE(text))


# --- a code in two halves, a password in two parts --------------------------------------------------

_FIRST = (r"(?:first\s++half|first\s++two|erste\s++hälfte|prima\s++metà|eerste\s++helft|primera\s++mitad"
          r"|primeira\s++metade|pierwsza\s++połowa|первая\s++половина(?:\s++кода)?|les\s++deux\s++premiers(?:\s++chiffres)?"
          r"(?:\s++sont)?|first|vorne|zuerst|erst|depan|앞자리|najpierw|começa\s++(?:com|por)|comienza\s++(?:con|por)"
          r"|empieza\s++(?:con|por)|(?:mai\s++)?[îi]nt[âa]i|önce|đầu|trước|d['’]abord|primero|primeiro|prima|eerst|först"
          r"|først|ensin|előbb|először|πρώτα|сначала|спочатку|pehle|पहले|أولاً|أولا|kwanza|먼저|前面|前半)")
_THEN = (r"(?:second\s++half|last\s++two|second\s++two|zweite\s++hälfte|seconda\s++metà|tweede\s++helft|segunda\s++mitad"
         r"|segunda\s++metade|druga\s++połowa|вторая(?:\s++половина)?|les\s++deux\s++derniers(?:\s++chiffres)?(?:\s++sont)?|then|hinten|dann|danach|belakang|뒷자리|potem|termina\s++(?:com|em|en)|acaba\s++en|apoi|sonra"
         r"|cuối|sau|ensuite|puis|luego|despu[ée]s|depois|poi|daarna|sedan|deretter|sitten|aztán|μετά|потом|потім|phir"
         r"|फिर|ثم|بعدها|kisha|다음|后面|後面|後半)")
_AND = r"(?:(?:and|und|et|y|e|i|ve|và|dan|en|og|och|ja|és|a|и|і|و)\s++)?"
# two numbers of two to four digits, each after its half's word: "vorne 27, hinten 84", "앞자리 08, 뒷자리 39"
_UNITS = (r"(?:g|gr|grams?|kg|ml|cl|l|min|mins|minutes?|minuten|minutos|minuti|minuter|dakika|minut\w*|h|hrs?|hours?|stunden"
          r"|horas|ore|timer|saat|sec|s|seconds?|sekunden|segundos|km|kms|miles?|m|cm|mm|meters?|metres?|%|°|€|\$|£|euros?|dollars?"
          r"|psi|bar|kpa|points?|pts|punkte|puntos|punti|goals?|tore|goles|runs?|laps?|reps?|sets?|pages?|seiten|páginas)")
_HALVES = lazy(r"(?i)(?<!\w)" + _FIRST + r"\s*+[:=]?\s*+[0-9]{2,4}\s*+[,;、，]?\s*+" + _AND + _THEN
               + r"\s*+[:=]?\s*+[0-9]{2,4}(?![0-9]|[.,][0-9]|\s*+" + _UNITS + r"(?!\w))")
# a word, then a number or a word with one: "first Harbour then 1974", "najpierw Wawel, potem 88zl"
# (the first part's word in any case, the words around it too: "first harbour, then 1974, no space")
_FIRST_PART = r"(?i:starts?\s++with|begins?\s++with|beginnt\s++mit|commence\s++par|empieza\s++por|" + _FIRST[3:]
_LAST_PART = (r"(?i:ends?\s++with|endet\s++mit|finit\s++par|termina\s++con|sist|last|zuletzt|enfin|por\s++último|infine|"
              + _THEN[3:])
_PARTS = lazy(r"(?<!\w)" + _FIRST_PART + r",?\s++(?:[A-Z\u00c0-\u024f\u0400-\u042f\u0391-\u03a9]?[^\W\d_]{2,20}"
              r"|[^\W\d_\u0000-\u024f]{2,20})(?:\s*+[,;]\s*+|\s++)" + "(?i:" + _AND[3:] + _LAST_PART
              + r",?\s++[0-9]{2,4}[a-z!#$%&*]{0,3}(?![\w./:-]|,[0-9]|\s*+(?:g|kg|ml|min|km|%)(?!\w))")
_A_JOIN = lazy(_JOINED_WORDS + r"|(?i:glued|stuck\s++together|two\s++bits|deux\s++morceaux|dwóch\s++kawałkach|بدون\s*+مسافة"
               r"|बिना\s*+स्पेस|zonder\s++spatie|bila\s++nafasi|sans\s++espace|sin\s++espacio|senza\s++spazi|sem\s++espaço"
               r"|bez\s++spacji|boşluksuz|без\s++пробел\w*|без\s++пробіл\w*|viết\s++liền)")


def _halves(text: str) -> bool:
    return _HALVES.search(text) is not None and (_A_CODES_NAME(text) or _A_DOOR(text) or _A_LOCK(text) is not None)


# a code's or a combination's name (what a halved code is told of, beside a lock's or a door's)
_A_CODES_NAME = lowered_search(r"(?i)(?<![a-zà-ÿ])(?:code|codes|combination|combo|combinaison|combinazione|combinación"
                               r"|combinação|kombination|kombinacja|szyfr|pin|digicode|kod|kód|kodu|código|codice|код)(?![a-zà-ÿ])"
                               r"|코드|번호|密码|暗証|รหัส|رمز|קוד")


def _parts(text: str) -> bool:
    return (_PARTS.search(text) is not None and _A_JOIN.search(text) is not None
            and (_CONTEXT(text) or _A_MAILBOX(text)))


# a door, an intercom, a building's entrance: what a halved code opens beside the locks
_A_DOOR = lowered_search(r"(?i)(?<![a-zà-ÿ])(?:domofon|interfon|intercom|citofono|interphone|gegensprechanlage|домофон"
                         r"|apartman\s++kapisi|kapisi|portão|portail|cancello|brama|furtka)(?![a-zà-ÿ])")
_A_LOCK = lazy(r"(?i)(?<!\w)" + _A_LOCKS_NAME).search
# e-mail and bank in the words told.py's context does not hold (Finnish's e-mail, "sähköposti", too)
_A_MAILBOX = lowered_search(r"(?i)e-?mail|poczt|mejl|meil|e-post|s[äa]hk[öo]post|benki|banki|e-banking|netbank|banking")

# --- a code before what it opens --------------------------------------------------------------------

_OPENS = (r"(?:opens?|unlocks?|gets\s++(?:you|me|us|them)\s++into|lets\s++(?:you|me|us)\s++into|öffnet|ouvre|abre|apre|opent|åpner|öppnar|åbner|avaa|otwiera|otvára|otevírá|odpre|otvara"
          r"|открывает|відкриває|açıyor|açar|mở|เปิด|buka|membuka|bukas|nyitja|deschide|ανοίγει|פותח|يفتح|باز\s++می|کھلتا"
          r"|کھولتا|खुलता|खोलता|খোলে|打开|打開|開く|開け|열리|연다)")
# the number first, then at most a few words and the verb: "4407 buka pagar automatik", "8842 ang bukas ng vault"
# (not a phone's number in groups, nor a shop's hours: "Harbour office phone: 01779 474020, open 8 till 4")
_NUMBER_OPENS = lazy(r"(?i)(?:^|(?<=[:：])|(?<=\n))\s*+(?P<code>[0-9]{4,8})(?!\s*+[0-9])\s++(?:\S+\s++){0,4}?" + _OPENS
                     + r"(?!\w)(?!\s++(?:[0-9]|from|till|until|daily|every|at\s++[0-9]))", re.M)
# "8316 für den Schlüsselkasten": a number for a key box
_NUMBER_FOR_A_KEY_BOX = lazy(
    r"(?i)(?:^|(?<=[:：])|(?<=\n))\s*+(?P<code>[0-9]{4,8})\s++(?:für|for|pour|para|per|voor|för|til|dla|для|do)\s++(?:\S+\s++){0,2}?"
    r"(?:schlüsselkast\w*|schlüsselbox|schlüsseltresor|key\s*+box|keybox|lockbox|key\s*+safe|bo[iî](?:te|tier)\s++(?:à|a)\s++cl(?:[ée]s|efs)"
    r"|caja\s++de\s++llaves|sleutelkast\w*|nyckelskåp|nøkkelboks|avainkaap\w*|" + _A_LOCKS_NAME + r")")
# the number after "with", before or after the verb: "Con 2580 se abre", "gaat open met 5183", "5529 ile açılıyor"
# (a sentence may end there, with its full stop; not a number with a decimal or a thousands part)
_OPENS_WITH_NUMBER = lazy(
    r"(?i)(?<!\w)(?:(?:con|com|mit|met|avec|with|z|ze|с|со|з)\s++(?P<code>[0-9]{4,8})\s++(?:\S+\s++){0,3}?" + _OPENS
    + r"|(?:gaat\s++open|se\s++abre|s['’]ouvre|si\s++apre|öffnet\s++sich|opens|abre-se|otwiera\s++się|otevírá\s++se)"
    r"\s++(?:\S+\s++){0,2}?(?:met|con|avec|mit|with|com|z|kodem)\s++(?P<code2>[0-9]{4,8})"
    # Albanian's "is opened with the code" or "by pressing" ("Dollapi … hapet me kodin 2244"; not "Llogaria
    # hapet me 5000 lekë", an account opened with a deposit), an alarm "switched off with" or "by
    # pressing" the number in Swedish and Norwegian ("Studiolarmet slås av med 7720"; not "Vägen … stängs
    # av med 2500 meter omledning": a road, nor "larmcentralen", an alarm centre; a number like a time only
    # where its clause ends, not "… slås av med 0800 varje morgon")
    r"|hapet\s++(?:me\s++kodin|duke\s++shtypur)\s++(?P<code5>[0-9]{4,8})"
    r"|\w*larm(?:et|en)?(?!\w)\s++(?:\S+\s++){0,3}?(?:slås|stängs|skrus)\s++av\s++(?:med|genom\s++att\s++(?:slå|trycka"
    r"|knappa\s++in)|ved\s++å\s++(?:taste|slå))\s++"
    r"(?P<code6>(?!(?:[01][0-9]|2[0-3])[0-5][0-9](?![0-9])(?!\s*+(?:[.,;!?]|$)))[0-9]{4,8})(?!\s*+(?:meter|m|km|kr|kronor|kronors|kroner|sek|nok)(?!\w))"
    r"|(?P<code3>[0-9]{4,8})\s++ile\s++açıl\w*"
    # Swahili's "is opened with (the number)", its digits maybe one by one: "hufunguliwa kwa namba 7 7 2 0"
    # (the verb, "fungua", "hufunguliwa", not "funguo", keys: "Nilinunua funguo kwa 3500 shilingi"; of a
    # door, a gate, a lock, a cupboard, a store or a box, named before it in its clause: a case, an
    # account, a shop or a file is opened too, "Kesi ilifunguliwa kwa namba 4512"; nor a sum, "Sanduku la
    # akiba lilifunguliwa kwa 50000/- za michango", its currency, "/-" or "/=", "za", of, "zilizochangwa",
    # given, or "tu", only, after it)
    r"|(?<!\w)(?:mlango|geti|lango|kufuli|kabati|sefu|seif|stoo|ghala|sanduku)(?!\w)[^\n.;!?]{0,40}?"
    r"(?<!\w)\w{0,4}fungu(?:a|ka|liwa|lia)(?!\w)\s++kwa\s++(?:(?:namba|nambari|msimbo|code|kodi|kubonyeza|kubofya)\s++)?"
    r"(?P<code4>[0-9](?:[ -]?[0-9]){3,7})(?!\s*+(?:shilingi|sh|ksh|kes|tsh|tzs|usd|dola|bob|za|zilizo\w*|tu)(?!\w)|\s*+/[=-]))"
    r"(?!\w|[.,][0-9])")
_FOUR_DIGITS_OR_SPACED = lazy(r"[0-9][ -]?[0-9][ -]?[0-9][ -]?[0-9]").search
# a time (0630, 0900, 2330), a year, a price: what a number before "opens" also is
_YEAR = r"(?:19|20)[0-9]{2}"
_A_TIME_OR_YEAR = lazy(r"(?:[01][0-9]|2[0-3])[0-5][0-9]|" + _YEAR)
_A_PRICE = lazy(r"(?i)(?<!\w)(?:paid|pay|cost|costs|price|kostet|bezahlt|payé|pagué|pagato|€|\$|£|euros?|dollars?)(?!\w)")
# the word for its code right before the number, or an alarm "switched off with" it where its clause
# ends: it opens with "the code 2244", "Larmet slås av med 0719.", no time of day (not "… slås av med 0800
# varje morgon")
_A_YEAR = lazy(_YEAR)
_ITS_CODES_WORD = lazy(r"(?i)(?<!\w)(?:kodin|koden|kodem|code|msimbo)\s++[0-9]|\sav\s++med\s++[0-9]{4}(?=\s*+(?:[.,;!?]|$))")


def _number_before_what_it_opens(text: str) -> bool:
    if not _FOUR_DIGITS_OR_SPACED(text) or _A_PRICE.search(text):
        return False
    for pattern in (_NUMBER_OPENS, _NUMBER_FOR_A_KEY_BOX, _OPENS_WITH_NUMBER):
        for match in pattern.finditer(text):
            code = match["code"] if pattern is not _OPENS_WITH_NUMBER else next(c for c in match.groups() if c)
            if (not _A_TIME_OR_YEAR.fullmatch(code) or _A_LOCK(text)
                    or _ITS_CODES_WORD.search(match[0]) and not _A_YEAR.fullmatch(code)):
                return True  # (a year or a time opens much: "2025 opens with …", "0900 abre"; a lock, a code
                # that looks like a time, "hapet me kodin 2244"; not "… hapet me kodin 2025 të konkursit")
    return False


# --- a sentence told as a device's passphrase -------------------------------------------------------

# (a word of an alphabet where a word starts and ends: "zin" is in "Lozinka")
_SENTENCE = (r"(?:(?<!\w)(?:sentence|phrase|passphrase|satz|zin|zdanie|věta|veta|фраза|речення|frase|câu|cümle|mondat"
             r"|جملہ|جملة|جمله|משפט|φράση|kalimat|words\s++that\s++(?:get\s++(?:me\s++|you\s++)?into|open|unlock)"
             r"|словами)\w{0,3}(?!\w)|ประโยค|合言葉|口令短语|口令短語|短语|短語|口令|문장)")
# the label (a sentence's word and what it opens), a colon or "is", and three words or more to the end
_TOLD_AS_A_SENTENCE = lazy(
    r"(?im)^(?P<label>[^\n:：]{0,80}?)(?:[:：]|\s(?:is|é|è|es|est|ist|je|jest|это)\s|是|は)\s*+[\"'“„«「]?\s*+"
    r"(?P<value>[^\W\d_][^\W\d_'’-]*+(?:\s++[^\W\d_][^\W\d_'’-]*+){2,9}"
    # (kana, CJK and Hangul have no case: read without (?i), which would fold each of their 50,000
    # characters when the pattern is compiled, 7 ms of a command's start)
    r"|(?-i:[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af][\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\s]{5,30}))"
    r"\s*+[\"'”»」]?[.!]?\s*+(?:[,，、][^\n]{0,40})?$")
# where a sentence is no one's passphrase: a rule, a lesson, a saying, a title
_NOT_A_PASSPHRASE = lazy(r"(?i)(?<!\w)(?:can|may|must|should|example|e\.g\.|rule|policy|sticker|poster|slogan|motto|quote"
                         r"|proverb|saying|says|said|song|lyric|title|book|film|movie|lesson|exercise|typing|of\s++the\s++day"
                         r"|wallpaper|screensaver|engraved|inscription|decal|lid|about|aufkleber|autocollant|pegatina"
                         r"|adesivo|naklejk\w*|nálepk\w*|наклейк\w*|hintergrund|fond\s++d['’]écran|fondo\s++de\s++pantalla"
                         r"|sfondo|tapet\w*|обо[ия]|sagt|dice|dit|говорит|mówi|říká|über|sobre|à\s++propos|про)(?!\w)"
                         r"|ステッカー|스티커|贴纸|貼紙|배경|壁纸|壁紙|待ち受け")


def _told_as_a_sentence(text: str) -> bool:
    if not _A_SENTENCE_WORD(text):
        return False  # (the label names a sentence: the word first, then the search for the label)
    for match in _TOLD_AS_A_SENTENCE.finditer(text):
        if (_SENTENCE_OF_A_DEVICE.search(match["label"]) and not _NOT_A_PASSPHRASE.search(match[0])
                and not _mostly_talk(match["value"].split())):
            return True
    return False


def _mostly_talk(said: list[str]) -> bool:
    """Whether half of the words or more are words of talk about a password or short everyday words
    ("in", "nel", "the"): "salvata nel vault" (kept in the vault) says where a phrase is, not what it is;
    "time people world water" is a passphrase of everyday words."""
    return sum(word.lower() in _TALK_WORDS or len(word) <= 3 and words.everyday(word) for word in said) * 2 >= len(said)


# what a passphrase opens, and the sentence's word linked to it: "фраза для ноутбука", "věta k notebooku",
# "frase do cofre", "câu mở laptop"; "母のノートPCの合言葉", "엄마 노트북 문장", "电脑的口令短语", "Mum's laptop phrase"
# (not a sentence of a device's sticker, a teacher's favourite or a lock screen's: linked by no word)
_DEVICE = (r"(?:laptop\w*|notebook\w*|computer|pc|ordinateur(?:\s++portable)?|portátil|portatile|ordenador|computador|rechner|komputer\w*|počítač\w*"
           r"|ноутбук\w*|компьютер\w*|комп.ютер\w*|телефон\w*|phone|tablet|ipad|cofre|vault|coffre|tresor|bitwarden"
           r"|keepass\w*|1password|nas|router|wi-?fi|wlan|account|konto|compte|cuenta|conta|e-?mail|bank\w*|máy\s++tính"
           r"|bilgisayar\w*|laptopa|لیپ\s*+ٹاپ|لپ\s*+تاپ|کمپیوٹر|کامپیوتر|حاسوب|لابتوب|ノートpc|ノートパソコン|パソコン|スマホ"
           r"|电脑|電腦|手机|手機|노트북|컴퓨터|휴대폰|คอมพิวเตอร์|โน้ตบุ๊ก)")
_A_SENTENCE_WORD = lowered_search(r"(?i)" + _SENTENCE)
_SENTENCE_OF_A_DEVICE = lazy(
    r"(?i)" + _SENTENCE + r"(?:\s++[^\W\d_]{3,12})?\s++(?:(?:for|für|pour|para|per|voor|för|til|k|ke|ku|к|для|до|do|dla|of|de|da|di|du|del|della"
    r"|des|mở|để\s++mở|to\s++(?:open|unlock))\s++(?:\S+\s++){0,2}?)?(?:the\s++|la\s++|le\s++|el\s++|il\s++|o\s++|a\s++|l['’])?"
    + _DEVICE + r"|" + _DEVICE + r"\s*+(?:['’]s\s++|の|的|کا\s++|کی\s++|کے\s++|\s)?\s*+" + _SENTENCE)


# --- a password manager's passphrase --------------------------------------------------------------

# a password manager, by its name or its kind's: "Фраза для менеджера паролей", "Frase segreta per Bitwarden"
_MANAGER_NAMES = (
    r"password\s++manager|passwort-?manager|gestionnaire\s++de\s++mots\s++de\s++passe|gestor\s++de\s++contraseñas"
    r"|gerenciador\s++de\s++senhas|gestore\s++(?:di|delle)\s++password|мениджър\w*\s++на\s++пароли|менеджер\w*\s++парол\w*"
    r"|správc\w*\s++hes\w*|managerul\s++de\s++parole|διαχειριστ\w*\s++κωδικ\w*|salasanamanager\w*|salasanojen\s++hallin\w*"
    r"|jelszókezelő\w*|şifre\s++yönetici\w*|מנהל\s++ה?סיסמאות|مدیر\s++رمز\w*|مدير\s++كلمات\s++المرور|โปรแกรมจัดการรหัส\w*"
    r"|密码管理器|密碼管理器|パスワードマネージャー|비밀번호\s*+관리자|menedżer\w*\s++haseł|wachtwoordmanager|lösenordshanterare"
    r"|bitwarden\w*|1password|keepass\w*|lastpass|dashlane|proton\s*+pass|enpass|vaultwarden")
_A_MANAGER = lowered_search(r"(?i)" + _MANAGER_NAMES)
_MANAGER_NAMED = lazy(r"(?i)" + _MANAGER_NAMES)
# its phrase, after a colon, "is" or a quote: three to six words and the sentence ends
_MANAGERS_PHRASE = lazy(
    r"(?im)^(?P<label>[^\n:：]{0,100}?)(?:[:：]|\s(?:is|е|e|è|é|es|est|ist|je|jest|on|er|är|to|είναι|הוא|คือ|это)\s|是"
    r"|\s(?=[\"“„«「]))\s*+[\"“„«「]?(?P<words>[^\W\d_][^\s\d\"”“»」.,!?:;]{0,15}(?:\s[^\W\d_][^\s\d\"”“»」.,!?:;]{0,15}){2,5})"
    r"[\"”“»」]?\s*+(?:[.!。，,]|$)")
# the phrase's own word, beside the manager's name: a phrase, a master password (a password's word alone is
# the manager's: "Password manager setup: …")
_PHRASE_WORD = lowered_search(
    r"(?i)phrase|fraz|fráz|фраз|φράση|tunnuslause|jelmondat|parola|şifre|משפט|عبارت|วลี|口令|主密码|master\s*+pass\w*"
    r"|frase|hlavní\s++heslo|hovedpassord|hasło\s++główne|мастер-?пароль|главный\s++пароль|mot\s++de\s++passe\s++principal"
    r"|contraseña\s++maestra|senha\s++mestra|password\s++principale|hoofdwachtwoord|huvudlösenord|pääsalasana|mesterjelszó"
    r"|ana\s++parola")


def _managers_phrase(text: str) -> bool:
    """A password manager's passphrase of plain words: 'Фраза для менеджера паролей: «берёза чай окно
    снег»', 'Şifre yöneticisinin parolası "deniz ekmek kedi yağmur"'; most of its words no words of
    talk about it ("stored in the vault" passes)."""
    if not _A_MANAGER(text):
        return False
    for match in _MANAGERS_PHRASE.finditer(text):
        if (not _A_MANAGER(match["label"]) or not _PHRASE_WORD(_MANAGER_NAMED.sub(" ", match["label"]))
                or _NOT_A_PASSPHRASE.search(match[0])):
            continue  # the phrase's own word, not the manager's ("Password manager setup: Vaultwarden …")
        said = match["words"].split()
        if not _mostly_talk(said) and sum(word[:1].isupper() for word in said) <= 1:
            return True  # (not a product's name: "Proton Pass with family sharing")
    return False


# --- a network's name and its password, a token only a password is ----------------------------------

# a network's name: letters with a digit, joined by "-" or "_" ("Telia-3F2A1C", "iptime_5G_203", "MOVISTAR_8F2A"),
# or a word run into digits and a letter ("Ziggo7731C")
_NETWORK = (r"(?=[\w!-]{0,30}?[0-9])(?:[A-Za-z][A-Za-z0-9!]*+(?:[-_][A-Za-z0-9]++){1,4}|[A-Z][A-Za-z]{2,}[0-9]{3,}[A-Z0-9]*+)")
# what only a password is: a capitalised word and another, or a number, joined by a stop, "_" or a sign
# ("Lingon.Sylt7", "Maqluba_2015", "Dropjes!Zout", "Zaatar!41"), or a word and two to four digits with
# perhaps a letter or a sign ("Girasol2019", "Lefse2019x", "Kalyna2022!")
_JOINED_TOKEN = (
    # (with a digit or a sign: "Booking.com" and "Cargo.lock" are names)
    r"(?:(?=[A-Za-z._-]{0,60}?[0-9!#@$%&*])[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?(?:[._!#$%*][A-Z]?[a-z]{1,20}|-[A-Z][a-z]{1,20}){1,3}[0-9]{0,4}[!#$%&*]?"
    # (words joined by "_" with a number, or with a short word between: "Accounts_Views" is a name in code)
    r"|[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?_(?:[A-Z][a-z]{1,20}[0-9]{1,4}|[a-z]{1,3}_[A-Z][a-z]{1,20}[0-9]{0,4})"
    r"|[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?[._!#$%&*_][A-Z]?[0-9]{1,4}[!#$%&*]?"
    # ("@" before a capital or a digit: "deploy@web01" is a user at a host, "NasiLemak@88" a password)
    # ("&" before a digit only: "Sales&Marketing2" and "Marks&Spencer" are names)
    r"|[A-Za-z][a-z]{2,}(?:[A-Z][a-z]{2,})?[0-9]{0,4}(?:[!#$%*][A-Za-z0-9]{1,12}|&[0-9][A-Za-z0-9]{0,11}|@[A-Z0-9][A-Za-z0-9]{0,11})"
    r"|[a-z][A-Z0-9][A-Za-z0-9]{1,6}[!#$%&*][a-z0-9]{2,8}"
    r"|[a-z]{3,}[A-Z][a-z]{2,}[_.][0-9]{1,4}|[A-Z][a-z]{2,}[0-9]{2,4}[A-Z][a-z]{2,}|[A-Z][a-z]{2,}~[A-Z]?[a-z]{2,}[0-9]{0,4})"
)
_WORD_AND_DIGITS = r"[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?[0-9]{2,4}[a-z!#$%&*]{0,2}"
_PASSWORD_TOKEN = (r"(?<![\w@/.:#&!$%*+=-])(?:" + _JOINED_TOKEN + r"|" + _WORD_AND_DIGITS + r")(?![\w@/:#&$%*+=-]|\.\w)")
_NETWORK_AND_PASSWORD = lazy(
    r"(?<![\w@/.:-])" + _NETWORK + r"(?:\s*+[/|·•]\s*+|\s++[-–—]\s++|\s++(?:e|and|und|et|y|i|og|och|en|và|و|وبعدها|then"
    r"|dann|и|і)\s++)"
    r"(?:" + _PASSWORD_TOKEN + r"|(?<![\w@/.:#&!$%*+=-])(?:[a-z]{6,20}[0-9]{2,4}|[А-ЯЁ][а-яё]{2,20}[0-9]{2,4})(?![\w@/:#&$%*+=-]|\.\w))")
# what each of them holds (found at C speed first), a digit or a sign, and a digit
_A_TOKENS_SIGN = lazy(r"[0-9_!#$%&*@~]").search
_A_DIGIT = lazy(r"[0-9]").search
# either, in one search: "joined" names the first
_A_TOKEN = lazy(r"(?<![\w@/.:#&!$%*+=-])(?:(?P<joined>" + _JOINED_TOKEN + r")|" + _WORD_AND_DIGITS + r")(?![\w@/:#&$%*+=-]|\.\w)")
# names that have those shapes and no password is: products, a chat's app, a versioned tool
_A_PRODUCTS_NAME = lazy(r"(?i)(?:\w*box[0-9]|fritz\w*|archer|experia\w*|nighthawk|orbi|deco[0-9]|speedport|homehub|hub[0-9]"
                        r"|ticket|order|issue|case|invoice|bug|incident|hall|room|gate|seat|aqua|avis|fritz!box|yahoo!|e\*trade|marks&spencer|procter&gamble|at&t|c#|f#|python|ubuntu|debian"
                        r"|windows|android|postgres|mysql|galaxy|pixel|iphone|office|java|node|fedora|centos|macos|xbox"
                        r"|playstation|nintendo|model|version|route|area|covid|league|euro|expo|world)")
# what a site or a device is, beside told.py's context: a site that asks, a portal, a printer, a camera
_A_SITE = lowered_search(
    r"(?i)site|seite|sitio|sito|stránk|stranic|страниц|сайт|موقع|سایت|situs|trang\s++web|sayfa|strona|oldal|साइट|サイト|网站"
    r"|網站|사이트|เว็บ|moodle|portal|portál|portail|portale|портал|پورتال|पोर्टल|พอร์ทัล|cổng|кабінет|кабинет|printer|drucker|imprimante"
    r"|stampante|impresora|impressora|yazici|tiskárn|tiskal|drukark|принтер|پرینتر|プリンター|打印机|打印機|프린터"
    r"|เครื่องพิมพ์|máy\s++in|प्रिंटर|camera|kamera|câmera|cámara|камер|监控|監控|カメラ|카메라|controller|unifi|zertifikat"
    r"|certificat|nas-|freebox|livebox|e-banking|netbank|banking")
# a verb for typing a value in or for what a site wants: "gib Maulwurf!3 ein", "اكتب Zaatar!41", "… will Zugspitze#2962"
_TYPE_OR_WANTS = lazy(
    r"(?i)(?<!\w)(?:type|enter|gib|tippe|eingeben|tape|tapez|saisis|escribe|digita|digite|introduce|inserisci|scrivi|typ"
    r"|voer|wpisz|zadej|zadaj|napiš|въведи|вводи|введи|введіть|ketik|masukkan|isi|yaz|gõ|nhập|اكتب|أدخل|بنویس|وارد\s++کن"
    r"|entrar|entrer|accedi|acceder|acessar|einloggen|anmelden|log\s++in(?:to)?|sign\s++in(?:to)?|הקלד|לחץ|लिखो|डालो|入力|输入|輸入|입력|พิมพ์)(?!\w)")
# what a site wants: only of a site, a portal, a page ("das Moodle der Uni will …", "the portal wants …";
# not "Leo wants Mario64", "we will watch Apollo13")
_A_SITE_WANTS = lazy(
    r"(?i)(?:site|seite|sitio|sito|stránk\w*|сайт\w*|موقع|سایت|situs|sayfa\w*|strona|oldal|moodle|portal\w*|portál\w*|portail"
    r"|portale|портал\w*|page|app|login)[^\n]{0,40}?(?<!\w)(?:wants|will|vuole|quiere|pide|veut|demande|quer|pede|wil|chce"
    r"|хочет|иска|istiyor|ister|minta|يطلب|می\s*+خواهد|asks\s++for|asks|fragt|vraagt|kéri|cere|ζητάει|מבקש|poiska|попросит)(?!\w)"
    r"|(?<!\w)(?:wants|will|vuole|quiere|pide|veut|demande|quer|pede|wil|chce|хочет|иска|istiyor|ister|minta|يطلب|asks|fragt"
    r"|vraagt|kéri|cere|ζητάει|מבקש|poiska|попросит)[^\n]{0,40}?(?:site|seite|sitio|sito|stránk\w*|сайт\w*|موقع|سایت|situs"
    r"|sayfa\w*|strona|oldal|moodle|portal\w*|portál\w*|portail|portale|портал\w*|page)")
_A_CODE_LINE = lazy(r"(?i)[={};]|\w\(|(?<!\w)(?:def|class|import|return|function|const|var|let|select|from|where|enum|struct"
                    r"|module|component|variable|rename\w*|refactor\w*|branch|commit|merge|test|spec|api|endpoint"
                    r"|column|field|table|schema|hashtag|channel|sheet|tab|folder|file|repo|dossier|carpeta|cartella"
                    r"|ordner|katalog|map|group|groupe|grupo|gruppe|grupa|view|screen|panel|button|menu|page|section"
                    r"|settings|setting|theme|template)(?!\w)")


def _network_and_password(text: str) -> bool:
    if not _A_DIGIT(text):
        return False  # (a network's name holds a digit: two texts in five have none)
    for match in _NETWORK_AND_PASSWORD.finditer(text):
        line = _line_of(text, match)
        if (not _A_PRODUCTS_NAME.search(match[0]) and not _A_CODE_LINE.search(line)
                and (_A_NETWORK_WORD(line) or _A_PROVIDER.match(match[0]))):
            return True
    return False


# what a network is called by in a line, and the names its provider or router gives it: "Telia-3F2A1C",
# "MOVISTAR_8F2A" (a model's number and a team's year have the shape of the name, not the company)
_A_NETWORK_WORD = lowered_search(
    r"(?i)wi-?fi|wlan|ssid|router|modem|hotspot|network|netzwerk|réseau|red\b|rete\b|sieć|netwerk|nätverk|netværk|nettverk"
    r"|сеть|мережа|ağ\b|internet|box\b|livebox|freebox|fritz|شبكة|شبکه|רשת|网络|網路|ネットワーク|네트워크|เครือข่าย|mạng"
    r"|वाईफाई|राउटर|jaringan|rangkaian")
_A_PROVIDER = lazy(
    r"(?i)(?:movistar|bezeq|jiofiber|jio|indihome|aterm|iptime|ziggo|telenor|orange|digi|telia|true|livebox|vivo|vivofibra"
    r"|fritz|tp-?link|netgear|asus|huawei|zte|xfinity|spectrum|bt|sky|virgin|vodafone|telekom|kpn|proximus|swisscom|freebox"
    r"|sfr|bbox|tim|fastweb|wind|o2|telstra|optus|airtel|bsnl|act|globe|pldt|unifi|maxis|singtel|ais|viettel|fpt|vnpt"
    r"|telkom|superonline|turknet|ttnet|rostelecom|beeline|mts|kyivstar|upc|vectra|netia|t-mobile|magenta|a1|telenet|eir"
    r"|etisalat|stc|zain|ooredoo|safaricom|mtn|vodacom|claro|nos|meo|telmex|izzi|totalplay|starlink|att|verizon|frontier"
    r"|centurylink|cox|rogers|bell|telus|shaw|dlink|d-link|linksys|tenda|mercusys|keenetic|zyxel|sagemcom|technicolor"
    r"|arcadyan|speedport|easybox|connectbox|hitron)[-_]?")


def _token_beside_what_it_opens(text: str) -> bool:
    """A token only a password is (``Calcots_Valls7``, ``Zaatar!41``) on a line that names what it
    opens, or on a line that says to type it or that a site wants it; a word and a number
    (``Hagelslag2023``) only on a line that says it opens something, wants it or to type it."""
    if not _A_TOKENS_SIGN(text):
        return False  # (every such token holds a digit or one of these signs: a third of texts have none)
    for match in _A_TOKEN.finditer(text):
        line = _line_of(text, match)
        if (_A_PRODUCTS_NAME.search(match[0]) or _A_CODE_LINE.search(line) or _NAMED(line)
                or _AS_A_NAME.search(text, max(0, match.start() - 12), match.start())
                or _GREETED.search(text, max(0, match.start() - 16), match.start())
                or _A_FILES_WORD_BEFORE.search(text, max(0, match.start() - 24), match.start())):
            continue
        if match["joined"] and (_TYPE_OR_WANTS.search(line) or _A_SITE_WANTS.search(line) or _AN_OPENING.search(line)
                                or _CONTEXT(line) or _A_SITE(line) or _A_MAILBOX(line)):
            return True
        if (not match["joined"] and (_TYPE_OR_WANTS.search(line) or _A_SITE_WANTS.search(line) or _AN_OPENING.search(line))
                and (_CONTEXT(line) or _A_SITE(line) or _A_MAILBOX(line))):
            return True  # a word and a number: typed where a site asks, or what opens it
    return False


_AN_OPENING = lazy(r"(?i)" + _OPENS + r"(?!\w)")


# what a line names by such a token: a network, a team, a project, a file, a sheet
_NAMED = lowered_search(r"(?i)ssid|network\s++name|netzwerkname|heißt|heisst|heet|se\s++llama|si\s++chiama|nazywa\s++się"
                        r"|s['’]appelle|se\s++chama|chama-se|heter|hedder|hedde|называется|називається|adi|jmenuje\s++se|volá\s++sa"
                        r"|nevű|ονομάζεται|נקרא|اسمها|اسمه|名前は|名字|叫做|이름은|called|named|shows\s++up\s++as|appears\s++as"
                        r"|listed\s++as|labell?ed|team|project|network|netzwerk"
                        r"|réseau|rete\b|sieć|netwerk|nätverk|netværk|nettverk|сеть|мережа|group|gruppe|grupo|groupe|projekt|projet|proyecto|codename|sprint"
                        r"|release|campaign|hashtag|username|user\s++name|nickname|handle|gamer\s*+tag|login\s++name|nutzername"
                        r"|benutzername|brugernavn|användarnamn|nom\s++d['’]utilisateur|usuario|utente|kullanici\s++adi")


# a file's word right before its name: "Sent the attachment Budget_2025 to Mika by e-mail", "liitteen Budjetti_2025"
_A_FILES_WORD_BEFORE = lazy(r"(?i)(?<!\w)(?:attachment|attached|file|document|spreadsheet|sheet|pdf|folder|liite\w*|tiedosto\w*"
                            r"|kansio\w*|anhang|datei|ordner|pi[èe]ce\s++jointe|fichier|dossier|adjunto|archivo|carpeta|allegato"
                            r"|cartella|bijlage|bestand|map|załącznik\w*|plik\w*|folder\w*|liit\w*)\s++[\"'«“„]?$")


# a greeting right before a name: "Tervetuloa, Tiina-Maria!" (welcome), "Hei Anna-Liisa!"
_GREETED = lazy(r"(?i)(?<!\w)(?:welcome|tervetuloa|bienvenue|willkommen|bienvenid[oa]|benvenut[oa]|welkom|välkommen|velkommen"
                r"|hi|hello|hey|hei|moi|hej|hallo|hola|ciao|salut|bonjour|olá|ola)[,!]?\s++[\"'«“„]?$")


# the word before a name: "shows up … as Kitchen_Printer2", "taucht … als Flur_Cam1 auf", "su Registro_Online2"
_AS_A_NAME = lazy(r"(?i)(?<!\w)(?:as|als|sous|su|under|unter|como|jako|olarak|kuten|som|sebagai|như)\s++[\"'«“„]?$")


# --- security answers as a list, or after the question is asked -------------------------------------

_ANSWERS = (r"(?:answers|antworten|risposte|odpowiedzi|respostas|respuestas|réponses|reponses|răspunsuri|raspunsuri|svar"
            r"|antwoorden|vastaukset|odpovědi|válaszok|cevaplar|ответы|відповіді|jawaban|jawapan|απαντήσεις|תשובות|إجابات"
            r"|جواب\s*+ها|答案|回答|답변)")
# what a security question asks about, as a list's item starts: "first pet", "Haustier", "primo animale"
_TOPIC = (r"(?:(?:name\s++of\s++(?:the\s++|my\s++)?|nom\s++d[ue]\s++|nombre\s++de\s++(?:la\s++|el\s++)?|nome\s++d[eo]l?\s++)?"
          r"(?:first|erste[rsn]?|primo|prima|primeir[oa]|primer[oa]?|pierwsz[aey]|primul|prima|första|første|premier"
          r"|première|eerste|ensimmäinen|első|první|první|ilk|перв\w+|перш\w+|първ\w+)\s++)?"
          r"(?:pet|dog|cat|animal|car|school|street|teacher|city|town|friend|nickname|maiden\s++name|mother['’]s\s++maiden"
          r"|ville\s++de\s++naissance|city\s++of\s++birth|ciudad\s++de\s++nacimiento|città\s++(?:di|natale)|colegio|collège|liceo"
          r"|haustier\w*|tier|hund|katze|auto|schule|grundschule|straße|strasse|lehrer\w*|stadt|freund\w*|spitzname"
          r"|animale|cane|gatto|macchina|scuola|via\s++dell['’]infanzia|maestr\w*|città|amic\w*|kot|pies|zwierz\w*|samoch\w*"
          r"|szkoł\w*|ulica|nauczyciel\w*|miasto|escola|cão|cachorro|gato|carro|rua|professor\w*|cidade|câine|caine|pisic\w*"
          r"|mașin\w*|masin\w*|școal\w*|scoal\w*|strad\w*|husdjur\w*|katt\w*|bil\w*|skola\w*|lärare|mascota|perro|coche"
          r"|escuela|calle|ciudad|chien|chat|voiture|école|rue|ville|huisdier|hond|kat|school|straat|lemmikki|koira|auto"
          r"|háziállat|kutya|mazlíček|pes|evcil\w*|köpek|okul|питом\w*|собак\w*|кошк\w*|школ\w*|машин\w*|улиц\w*|тварин\w*)")
_ANSWERS_LISTED = lazy(r"(?i)(?<!\w)(?:" + _ANSWERS + r"|säkerhetsfrågorna|sicherheitsfragen|security\s++questions"
                       r"|preguntas\s++de\s++seguridad|perguntas\s++de\s++segurança|questions\s++de\s++sécurité"
                       r"|domande\s++di\s++sicurezza|pytania\s++bezpieczeństwa)[^\n:：]{0,60}[:：]\s*+(?P<items>[^\n]+)")
_AN_ITEM = lazy(r"(?i)\s*+" + _TOPIC + r"(?!\w)\s*+[:=—–-]?\s*+\S")


# what says a list's answers are a security question's: its name, or a bank's, an account's, a service's
_SECURITY = lowered_search(
    r"(?i)secur|sicurezz|sicherheit|segret|secret|geheim|seguran|segurid|sécurit|securit|siguranț|sigurant|säkerhet|sikkerhed"
    r"|sikkerhet|zabezpiecz|bezpieczeń|безопасн|безпек|bezpečnost|biztonság|güvenlik|keamanan|keselamatan|turva|veilig"
    r"|recovery|wiederherstell|récupération|recuperación|recuperação|bank|banc|banque|банк|paypal|apple|google|microsoft"
    r"|amazon|insur|versicher|assuran|seguro|assicura|verzeker|ubezpiecz|account|konto|compte|cuenta|conta|login"
    r"|verification|verifizier|vérification|verificación|hmrc|\birs\b|asks|fragt"
    r"|pregunt|pergunt|demand|chied|vraag|pyta|ptal|спрос|спит|سؤال|پرس|שאל")


def _answers_listed(text: str) -> bool:
    if not _SECURITY(text):
        return False
    for match in _ANSWERS_LISTED.finditer(text):
        if sum(_AN_ITEM.match(item) is not None for item in re.split(r"[,;]", match["items"])) >= 2:
            return True  # "Antworten für Apple: Haustier Struppi, Grundschule am Weiher, erstes Auto Käfer"
    return False


# the question asked, what it asks about, then the answer to the line's end
_ASKED = (r"(?:(?:if|when|falls|wenn|si|se|als|om|jos|ha|eğer|якщо|если|اگر|kalau|jika|kdyby|gdyby|dacă|daca|εάν|אם)\b"
          r"[^\n]{0,40}?(?:asks?|asked|ptali|ptají|spytają|zapytają|спитають|спросят|پرسید|pyta|fragt|fragen|demande"
          r"|pregunta|pergunta|chiede|chiedono|vraagt|vragen|frågar|spør|kysyy|kysyvät|kérdez|sorarsa|sorulursa|hỏi"
          r"|tanya|întreabă|ρωτήσει|ישאל|يسأل|سأل)|question\s++about|the\s++question|soalan\s++keselamatan"
          r"|въпрос\s++за\s++сигурност|security\s++question|pytanie\s++o|otázka\s++na|питання\s++про|вопрос\s++о)")
_ASKED_ABOUT = (r"(?:mother['’]s\s++maiden\s++name|maiden\s++name|(?:first|childhood)\s++(?:pet|dog|cat|animal|car|school"
                r"|teacher|friend|street|nickname)|where\s++(?:her|his|my|their|your)?\s*+parents\s++met"
                r"|street\s++(?:she|he|I|they)\s++grew\s++up\s++on|první\s++(?:mazlíček|zvíře|pes|auto)"
                r"|перш\w+\s++(?:тварин\w*|собак\w*|машин\w*)|перв\w+\s++(?:питом\w*|животн\w*|собак\w*|машин\w*)"
                r"|първ\w+\s++(?:куче|котка|кола|училище)|اولین\s++حیوان\s++خانگی|حیوان\s++خانگی|haiwan\s++peliharaan\s++pertama"
                r"|pierwsz\w+\s++(?:zwierz\w*|pies|psa|kot\w*|samoch\w*)|primo\s++animale|premier\s++animal|erste[sn]?\s++haustier"
                r"|primera\s++mascota|primeiro\s++animal)")
_ANSWER_AFTER_ASKED = lazy(
    r"(?i)" + _ASKED + r"[^\n]{0,40}?" + _ASKED_ABOUT + r"(?:\s*+[:：—–،,]\s*+(?:(?:she|he|I|we|they)\s++(?:always\s++)?"
    r"(?:puts?|says?|writes?|uses?|gives?|typed?)\s++)?|,?\s++(?:(?:it['’]s|it\s++is|is|je\s++to|to\s++je|es|c['’]est"
    r"|ist|è|é|era)\s++|(?:(?:she|he|I|we|they)\s++(?:always\s++)?(?:puts?|says?|writes?|uses?|gives?|typed?)\s++)))"
    r"[\"'“„«]?(?P<answer>(?-i:[A-Z\u00c0-\u00de\u0400-\u042f])[\w'’-]*+(?:\s++(?-i:[A-Z\u00c0-\u00de\u0400-\u042f])[\w'’-]*+){0,3}"
    r"|[^\W\d_\u0000-\u024f\u0400-\u04ff][^\s,.;:!?]*+(?:\s++[^\W\d_\u0000-\u024f\u0400-\u04ff][^\s,.;:!?]*+){0,2})"
    r"[\"'”»]?\s*+[.!]?\s*+$", re.M)


# a building's door code with letters in it: "digicode de l'immeuble de Claire : 4C82B", "Le code de la
# porte d'entrée est 4B72A"
_LETTERED_DOOR_CODE = lazy(
    r"(?i)(?<!\w)(?:digicode|code\s++(?:de\s++(?:l['’]|la\s++))?(?:immeuble|entrée|porte|portail)|türcode|haustürcode"
    r"|(?:tür|haustür)-?code|código\s++(?:del\s++|do\s++|de\s++la\s++|da\s++)?(?:portal|portão|edificio|prédio|puerta|porta)"
    r"|codice\s++(?:del\s++|della\s++)?(?:portone|porta|citofono)|deurcode|dörrkod|kod\s++(?:do\s++)?(?:drzwi|bramy|domofonu)"
    r"|код\s++(?:от\s++)?(?:двери|домофона|подъезда|під.їзду|дверей))"
    r"(?P<label>[^\n:：]{0,40})(?:[:：]|\s(?:est|ist|es|é|è|is|jest|je|är|er|—|–)\s|(?<=digicode)\s)\s*+"
    r"(?=[A-Za-z0-9А-Я]{0,7}[0-9])(?=[0-9]{0,7}[A-Za-zА-Я])(?-i:[A-Z0-9А-Я]{4,8}|[a-z0-9]{4,8})(?![\w-])")


def _unless_its_label_says(pattern: Any, says: Any) -> Callable[[str], bool]:
    """Whether ``pattern`` matches where its label (the words before the value) does not say the
    value is something else: a model, a date, a reference."""
    def check(text: str) -> bool:
        return any(not says.search(match["label"]) for match in pattern.finditer(text))
    return check


_lettered_door_code = _unless_its_label_says(_LETTERED_DOOR_CODE, _NOT_THE_CODE)


# an access code that is a word and a number, in any script: "Код доступа к личному кабинету: Зима2024"
_ACCESS_CODE_VALUE = lazy(
    r"(?i)(?<!\w)(?:код\w*\s++доступа|access\s++code|zugangscode|zugriffscode|code\s++d['’]accès|código\s++de\s++acceso"
    r"|código\s++de\s++acesso|codice\s++(?:di\s++)?accesso|kod\s++dostępu|toegangscode|erişim\s++kodu|přístupový\s++kód"
    r"|κωδικός\s++πρόσβασης|קוד\s++גישה|رمز\s++الدخول)(?P<label>[^\n:：]{0,40})(?:[:：]|\s(?:is|ist|est|es|é|è|jest|—|–|это"
    r"|lautet)\s)\s*+[\"'«“„]?(?:(?=[^\W\d_]{0,30}[0-9])(?=[0-9]{0,8}[^\W\d_])[^\W_]{4,40}|[^\W\d_]{3,20}\s[0-9]{2,4})"
    r"[!?#$%&*]?[\"'»”]?\s*+(?:[.,;!]|$)", re.M)

_access_code_value = _unless_its_label_says(_ACCESS_CODE_VALUE, _NOT_THE_CODE)


# a Wi-Fi's key told as digits, grouped or not: "The wifi key is 8472 9910 3381 4467 9921", "WLAN-Schlüssel: 8472…"
_WIFI_KEY_DIGITS = lazy(
    r"(?i)(?<!\w)(?:(?:wi-?fi|wlan|wpa2?|network|netzwerk|réseau|red|rete|netwerk)[\s-]*+(?:key|schlüssel|clé|cle|clave"
    r"|chiave|sleutel|nyckel|nøgle|nøkkel|ключ|klucz)|(?:key|clé|cle|clave|chiave|schlüssel|sleutel|ключ|klucz)\s++(?:wpa2?|wi-?fi"
    r"|wlan|du\s++wi-?fi|de\s++la\s++wi-?fi))"
    r"(?P<label>[^\n:：0-9]{0,30})(?:[:：=]|\s(?:is|ist|est|es|é|è|är|er|jest)\s)\s*+"
    r"(?:[0-9]{8,64}|[0-9]{4}(?:[ -][0-9]{4}){2,7})(?![\w-])")

# a network named on a Wi-Fi's line, then its key: 'Wifi at the hall: network "StMarks-Hall", key
# parish_hall_guest' (a key of letters alone is a word unless long: not "key available at the bar"),
# or the Wi-Fi itself named in quotes, then "the key is": "Office Wi-Fi 'HopeHouse' — the key is …"
_NETWORK_THEN_KEY = lazy(
    r"(?i)(?<![\w-])(?:network|ssid|netzwerk|réseau|sieć|netwerk|nätverk|netværk|nettverk|сеть|мережа"
    r"|wi-?fi(?=\s*+[\"'“„«])|wlan(?=\s*+[\"'“„«]))\s*+[:=]?\s*+"
    # (in quotes, French guillemets with their spaces: "réseau « Villa_Ocean », clé …")
    r"(?:[\"'“„]|«\s?)?[^\s\"'«»“”„,;]{2,40}(?:[\"'”]|\s?»)?"
    r"(?:\s*+[,;/|·]|\s++(?:and|und|et|y|e|i|og|och|en|и|і)|\s++[-–—])?\s*+(?:the\s++|its\s++)?"
    r"(?:key|password|pass|pw|schlüssel|passwort|clé|mot\s++de\s++passe|clave|contraseña|chave|senha|chiave|sleutel"
    r"|wachtwoord|nyckel|lösenord|nøgle|nøkkel|klucz|hasło|ключ|пароль)(?![\w-])\s*+(?:[:=]|is\s)?\s*+"
    r"[\"'«“„]?(?P<value>\w[^\s\"'«»“”„,;()]{7,62})")


def _network_then_key(text: str) -> bool:
    for match in _NETWORK_THEN_KEY.finditer(text):
        value = match["value"].rstrip(".:")
        # (a long word no list holds only where it ends the clause: not "mot de passe réinitialisé par
        # le technicien", "Passwort Empfangstresen fragen")
        told = re.search(r"[\d_\W]", value) or (len(value) >= 12 and not words.is_common(value)
                                                 and _ENDS_THERE.match(text, match.end()) is not None)
        if (_TWO_WORDS_DASHED.fullmatch(value) and all(map(words.is_common, value.split("-")))
                and _IS_BEFORE.search(text, match.start(), match.start("value"))):
            continue  # what it is, two words joined after "is": "the password is case-sensitive", "… is not-needed"
            # (not "SSID AltoNet and password sopranos-rule": what it is)
        if len(value) >= 8 and told and not _A_SECURITY_MODE.match(value) and _A_WIFI_WORD(_line_of(text, match)):
            return True
    return False


_ENDS_THERE = lazy(r"[^\S\n]*+(?:[.,;!?)]|$)", re.MULTILINE)
_TWO_WORDS_DASHED = lazy(r"[a-z]+-[a-z]+")
_IS_BEFORE = lazy(r"\sis\s*+[\"'«“„]?$")
# a Wi-Fi's word on the line (not "network" alone: "Network map key: dotted-lines = fibre")
_A_WIFI_WORD = lowered_search(r"(?i)wi-?fi|wlan|ssid|hotspot|router|wpa|wifi|вайфай|وای‌فای|واي فاي")
# a security mode where a key's value would be: "SSID ClubGuest, key WPA2-Personal"
_A_SECURITY_MODE = lazy(r"(?i)wpa|wep|tkip|aes|psk|sae|open|none|personal|enterprise|personnel")


# an app password as Google and Apple give one, four groups of four small letters, on a line that names
# it: "Google app password for the shared orders@ mailbox …: ghlb vxoe rqtm kpsa" (not four words: "an
# app password that lets mail flow")
_APP_PASSWORDS_NAME = lowered_search(
    r"(?i)app[\s-]*+(?:specific\s++)?password|app-?passwort|mot\s++de\s++passe\s++d['’]application"
    r"|contraseña\s++de\s++aplicación|senha\s++de\s++app|password\s++(?:per\s++l['’]|dell['’])app|app-?wachtwoord"
    r"|applösenord|hasło\s++(?:do\s++)?aplikacji")
_FOUR_BY_FOUR = lazy(r"(?<![\w-])([a-z]{4})([ -])([a-z]{4})\2([a-z]{4})\2([a-z]{4})(?![\w-])")


# what shows a form rather than a value: "the help page's example: abcd efgh ijkl mnop"
_SHOWN_AS_AN_EXAMPLE = lazy(r"(?i)example|e\.\s*+g\.|such\s++as|for\s++instance|format|looks?\s++like|like\s++this|placeholder"
                            r"|beispiel|ejemplo|exemple|esempio|voorbeeld|przykład|exemplo|xxxx")


def _app_password(text: str) -> bool:
    for line in text.splitlines():
        if _APP_PASSWORDS_NAME(line) and not _SHOWN_AS_AN_EXAMPLE.search(line):
            for match in _FOUR_BY_FOUR.finditer(line):
                if sum(not words.is_common(match[group]) for group in (1, 3, 4, 5)) >= 2:
                    return True
    return False


# when something was done, not what a value is: "rotated on: 2024-03-15"
_WHEN = lazy(r"(?i)(?<!\w)(?:on|since|rotated|changed|updated|renewed|set|date|datum|le|el|il|am|seit)(?!\w)")
_wifi_key_digits = _unless_its_label_says(_WIFI_KEY_DIGITS, _WHEN)

# a plain word and a number with letters outside ASCII right after the word for a password: "sein neues
# Passwort Maiglöckchen7 genannt" (the rules' bare values are ASCII)
_ACCENTED_VALUE = lazy(
    r"(?i)(?<!\w)(?:passwort|password|kennwort|mot\s++de\s++passe|contraseña|senha|wachtwoord|hasło|lösenord|passord"
    r"|salasana|jelszó|heslo|parola)\s++[\"'«“„]?(?-i:(?=[A-Za-z]{0,20}[^\x00-\x7f])[A-ZÀ-Þ][^\W\d_]{2,20}[0-9]{1,4}[!?#$%&*]?)"
    r"(?![\w-])")

# a password of four to six plain words after "password is", none a word of talk about it: "My email
# password is correct horse battery staple." (not "is stored in the vault", "is long and random")
_PLAIN_WORDS_AFTER_IS = lazy(
    r"(?i)(?<!\w)(?:password|passphrase|passwort|mot\s++de\s++passe|contraseña|senha|wachtwoord)(?:\s++\w+){0,3}?"
    r"\s++(?:is|ist|est|es|é|is\s++now|lautet)\s++[\"'«“„]?(?P<words>(?-i:[a-zà-ÿ]{3,12})(?:\s++(?-i:[a-zà-ÿ]{3,12})){3,5})"
    r"[\"'»”]?\s*+(?:[.!]|$)", re.M)
_TALK_WORDS = frozenset(
    "the and for with from this that your our their its his her not now also still just only very too more less most"
    " same different long short random strong weak secure simple easy hard stored saved kept written printed shared"
    " changed reset expired required needed case sensitive different each every all any some none empty blank"
    " somewhere here there sticker router note paper back bottom side manager vault app phone laptop".split())


def _plain_words_after_is(text: str) -> bool:
    for match in _PLAIN_WORDS_AFTER_IS.finditer(text):
        said = match["words"].split()
        if not any(word in _TALK_WORDS or words.everyday(word) or re.search(r"(?:ed|ing|ly|able|ible|ful|less|ous|ive|é|ée)$", word)
                   for word in said):
            return True  # "correct horse battery staple"; not "much longer than before", "noté dans mon carnet rouge"
    return False


# a dictionary's entry, not a password: Czech "heslo" is both ("Ve slovníku je heslo Zámek1")
_A_DICTIONARY = lazy(r"(?i)slovník|slovnik|dictionary|wörterbuch|dictionnaire|diccionario|dizionario|słownik|stichwort"
                     r"|headword|lemma")


def _accented_value(text: str) -> bool:
    return _ACCENTED_VALUE.search(text) is not None and not _A_DICTIONARY.search(text)


# --- a device that opens with a word ---------------------------------------------------------------

# the verb before the word: "opens with", "відкривається словом", "dibuka dengan", "s'obre amb", "mở bằng"
_OPENS_WITH = (
    r"(?:opens\s++(?:with|using)|unlocks\s++(?:with|using)|(?:is\s++)?unlocked\s++with|open\s++it\s++with|geht\s++mit"
    r"|öffnet\s++sich\s++mit|entsperrt\s++mit|lässt\s++sich\s++mit"
    r"|відкривається(?:\s++(?:словом|паролем))?|открывается(?:\s++(?:словом|паролем))?|разблокируется(?:\s++(?:словом|паролем))?"
    r"|dibuka\s++dengan|dibuka\s++pakai"
    r"|يفتح\s++(?:بكلمة|ب)|aukeaa(?:\s++sanalla)?|se\s++otvara\s++(?:sa?|lozinkom)|se\s++odpre\s++z|s['’]obre\s++amb"
    r"|se\s++abre\s++con|abre\s++con|abre\s++com|si\s++apre\s++con|s['’]ouvre\s++avec|gaat\s++open\s++met|opent\s++met"
    r"|maak\s++oop\s++met|mở\s++bằng|avaneb(?:\s++sõnaga)?|öppnas\s++med|åbnes\s++med|åpnes\s++med|se\s++deschide\s++cu"
    r"|ανοίγει\s++με|otwiera\s++się(?:\s++hasłem)?|se\s++otevírá|odemyká\s++se)")
# the verb after it: "chameli से खुलता है", "با golab باز می‌شود", "malligai என்று திறக்கும்", "… jelszóval nyílik"
_OPENS_AFTER = (r"(?:से\s++खुल\w*|سے\s++کھل\w*|என்று\s++திற\w*|jelszóval\s++nyílik|-?(?:val|vel|al|el)\s++nyílik"
                r"|ile\s++açıl\w*|で開く|로\s*+열려|으로\s*+열려)")
_WORD_THAT_OPENS = lazy(
    r"(?i)(?<!\w)" + _OPENS_WITH + r"\s++[\"'«“„]?(?P<value>(?-i:[a-zà-ÿ][a-zà-ÿœ]{2,29}))[\"'»”]?(?P<after>[^\n.;!?]{0,60})"
    r"|(?:^|\s|با\s++)(?P<before>(?-i:[a-zà-ÿ][a-zà-ÿœ]{2,29}))\s++(?:باز\s++می\S*|" + _OPENS_AFTER + r")(?P<after2>[^\n.;!?]{0,60})"
    # a particle right after a Latin word, in a script written without spaces: "himawariで開く"
    r"|(?<![a-z])(?P<attached>(?-i:[a-z]{3,30}))(?:で開く|で開け|로\s*+열려|으로\s*+열려)(?P<after3>[^\n。.!?]{0,60})")
# a verb after the word that says it is the password: "… napraforgó jelszóval nyílik" (opens with the password)
_WITH_THE_PASSWORD = lazy(r"(?i)jelszóval\s++nyílik")
# how a device unlocks that is no value: a face, a finger, a mode, a pattern
_A_WAY_TO_UNLOCK = lazy(r"(?i)(?:face|touch|finger)\w*|\w*mode|pattern\w*|swipe|default|update|screen\w*|splash|menu|pin"
                        r"|passcode|biometri\w*")
# what is said of its letters, in the languages the labelled layer has no word of: "малими літерами",
# "huruf kecil", "بحروف صغيرة", "حروف کوچک", "pienillä kirjaimilla", "malim slovima", "chữ thường", "छोटे अक्षर"
_SMALL_LETTERS = lowered_search(
    r"(?i)lower\s*+case|small\s++letters|kleinbuchstab|kleine\s++buchstaben|minuscul|minúscul|letras\s++pequeñas"
    r"|малими\s++літер|маленькими\s++букв|строчными|huruf\s++kecil|حروف\s++صغيرة|بحروف\s++صغيرة|حروف\s++کوچک"
    r"|pienillä\s++kirjaimilla|pienin\s++kirjaimin|malim\s++slovima|malimi\s++črkami|chữ\s++thường|छोटे\s++अक्षर"
    r"|kisbetű|küçük\s++harf|små\s++bokstäver|små\s++bogstaver|kleine\s++letters|małymi\s++literami|malými\s++písmeny"
    r"|lletres\s++minúscules|kleinletters|väiketähtedega|چھوٹے\s++حروف|alles\s++klein|kleingeschrieben")
# a device a person unlocks: the grandmother's tablet, the laptop, the iPad
_A_DEVICE = lowered_search(
    r"(?i)tablet|tabletti|tabletje|tauleta|tahvel|tablični|планшет|تابلت|تبلت|ٹیبلٹ|टैबलेट|டேப்லெட்|máy\s++tính\s++bảng"
    r"|ipad|laptop|notebook|ordinateur|portátil|portatile|computer|rechner|pc\b|phone|handy|telefon|телефон|ноутбук|kindle"
    r"|chromebook|e-?reader|console|タブレット|パソコン|スマホ|平板|电脑|電腦|手机|手機|태블릿|노트북|휴대폰")


_OPENS_WITH_WORDS = lowered_search(r"(?i)" + _OPENS_WITH + r"|" + _OPENS_AFTER + r"|باز\s++می|で開け")


def _word_that_opens(text: str) -> bool:
    """A device that opens with a plain word: 'планшет бабусі відкривається словом kalyna, малими
    літерами', 'ouma se tablet maak oop met protea'. The word is told as a password is: its letters'
    case is said after it, it is in Latin letters in a sentence of another script, or a device opens
    with it and it is no word of the languages the gate reads ("opens with patience", "se abre con
    cuidado" pass)."""
    if not _OPENS_WITH_WORDS(text):
        return False  # (the verbs first: one pass of the automaton, not the search)
    for match in _WORD_THAT_OPENS.finditer(text):
        value, after = next((match[name], match[rest]) for name, rest in (("value", "after"), ("before", "after2"),
                                                                            ("attached", "after3")) if match[name])
        if value in _TALK_WORDS or words.everyday(value) or _A_WAY_TO_UNLOCK.fullmatch(value):
            continue
        line = _line_of(text, match)
        if not _A_DEVICE(line):
            continue  # a lesson, a concert, a menu "opens with" a word too
        other_script = value.isascii() and sum(not char.isascii() for char in line if char.isalpha()) > len(line) // 4
        if _SMALL_LETTERS(after) or other_script or words.made_up(value) or _WITH_THE_PASSWORD.search(match[0]):
            return True
    return False


# --- a security question quoted, then its answer ----------------------------------------------------

# a security question by its name, in the languages people write in (a question alone is a quiz's,
# an exam's or a course's too), or a bank or an insurer that asks
_A_SECURITY_QUESTION = (
    r"(?:(?:security|secret|recovery|verification|memorable|reset)\s++question|\w*sicherheitsfrage|geheimfrage"
    r"|question\s++(?:secrète|de\s++sécurité)|pregunta\s++(?:de\s++seguridad|secreta)|pergunta\s++(?:de\s++segurança|secreta)"
    r"|domanda\s++(?:di\s++sicurezza|segreta)|beveiligingsvraag|geheime\s++vraag|sekuriteitsvraag|säkerhetsfråga"
    r"|sikkerhedsspørgsmål|sikkerhetsspørsmål|öryggisspurning\w*|turvakysymy\w*|biztonsági\s++kérdés\w*"
    r"|bezpečnostní\s++otázk\w*|kontroln[íi]\s++ot[áa]zk\w*|pytani\w*\s++(?:bezpieczeństwa|pomocnicz\w*|zabezpieczając\w*)"
    r"|контрольн\w*\s++(?:вопрос|питання)\w*|секретн\w*\s++(?:вопрос|питання)\w*|вопрос\w*\s++безопасности"
    r"|въпрос\s++за\s++сигурност|drošības\s++jautājum\w*|saug(?:umo|os)\s++klausim\w*|turvaküsimus\w*|ceist\s++slándála"
    r"|segurtasun\s++galdera|pregunta\s++de\s++seguretat|[îi]ntrebare\w*\s++de\s++securitate|güvenlik\s++sorusu"
    r"|gizli\s++soru\w*|ερώτηση\s++ασφαλείας|שאלת\s*+ה?אבטחה|سؤال\s*+الأمان|س[وؤ]ال\s*+امنیتی|soalan\s++keselamatan"
    r"|pertanyaan\s++keamanan|c[âa]u\s++h[ỏo]i\s++(?:b[ảa]o\s++m[ậa]t|b[íi]\s++m[ậa]t(?=[^\n:]{0,40}?(?:t[àa]i\s++kho[ảa]n|ng[âa]n\s++h[àa]ng|email|gmail|facebook|zalo|icloud|apple)))|bezbednosn\w*\s++pitanj\w*|sigurnosn\w*\s++pitanj\w*"
    r"|varnostn\w*\s++vprašanj\w*|பாதுகாப்பு(?:க்)?\s*+கேள்வி|सुरक्षा\s*+प्रश्न|bezpečnostn\w*\s++otázk\w*|pyetj\w*\s++e\s++sigurisë"
    r"|swali\s++la\s++usalama|c(?:h)?eist\s++slándála|নিরাপত্তা\s*+প্রশ্ন\w*|భద్రతా\s*+ప్రశ్న\w*"
    r"|безбедносн\w*\s++прашањ\w*|təhlükəsizlik\s++sual\w*|უსაფრთხოების\s*+კითხვ\w*"
    # more names the review of the round on tune19 found missing
    r"|slaptas\w*\s++klausim\w*|gizli\s++sual\w*|t[əe]hl[üu]k[əe]sizlik\s++sual\w*|(?:тајн|сигурносн)\w*\s++прашањ\w*"
    r"|безбедносн\w*\s++питањ\w*|საიდუმლო\s*+კითხვ\w*|پرسش\s*+امنیتی|[îi]ntrebare\w*\s++secret\w*"
    r"|slepen\w*\s++jautājum\w*|salajan\w*\s++küsimus\w*|सिक्योरिटी\s*+क्वेश्चन"
    # Maltese, Armenian
    r"|mistoqsij\w*\s++tas-sigurt\w*|անվտանգության\s*+հարց\w*"
    r"|(?:bank|insurer|insurance|versicherung|banque"
    r"|banco|banca)\w*['’]?s?\s++asks?)")
# (in the scripts written without spaces, the name may follow another word with none between: "銀行の秘密の質問")
_A_SECURITY_QUESTION_UNSPACED = r"(?:秘密の質問|安全问题|安全問題|安全提[問问]|密保[问問]题|보안\s*+질문|คำถามความปลอดภัย)"
# what a security question asks about, inside the quoted question
_ASKED_ABOUT = lowered_search(
    r"(?i)pet|animal|dog|cat\b|teacher|school|street|road|city|town|born|birth|mother|father|mom|mum|dad|maiden|car\b"
    r"|friend|nickname|grew|childhood|haustier|tier|hund|katze|lehrer|schule|straße|strasse|stadt|geboren|geburt|mutter"
    r"|vater|mascota|perro|gato|maestr|profesor|escuela|colegio|calle|rua\b|ciudad|cidade|città|ville|madre|mãe|mère"
    r"|padre|pai\b|père|nacimiento|nascimento|nascita|naissance|coche|carro|voiture|macchina|amigo|amico|cresceu"
    r"|creciste|cane|gatto|scuola|via\b|rue\b|chien|chat\b|école|huisdier|hond|kat\b|leraar|juf\b|meester|straat|stad"
    r"|geboorte|moeder|vader|mazl|zvíř|pes\b|kočk|učitel|škol|ulic|měst|rodn|matk|otc|ojc|zwierz|pies|kot\b|nauczyciel"
    r"|szkoł|miasto|urodz|ljubljen|ljubimac|psa\b|šol|mest|grad|rojst|rođen|mājdzīvniek|suņ|skolotāj|skol|iela|pilsēt"
    r"|dzim|peata|pheata|madra|múinteoir|scoil|sráid|baile|maskota|txakur|irakasle|eskola|kale|hiri|jaio|troeteldier"
    r"|annimal|ডাকনাম|ছোটবেলা|onderwyser|skool|gebore|haiwan|peliharaan|anjing|kucing|guru|sekolah|jalan|bandar|kota|lahir|ibu|ayah|gæludýr"
    r"|kennar|skól|gata|borg|fædd|evcil|hayvan|köpek|kedi|öğretmen|okul|sokak|şehir|doğum|anne|baba|câine|pisic|școal"
    r"|strad|oraș|naștere|mamă|tată|háziállat|kutya|macska|tanár|iskola|utca|város|szület|anya|apa\b|lemmikki|koira"
    r"|kissa|opettaja|koulu|katu|kaupunki|synty|äiti|isä|домашн|любим|куче|котк|учител|училищ|улиц|град|родн|майк"
    r"|баща|питом|собак|кошк|школ|город|мат[ье]|отц|тварин|вчител|місто|вулиц|κατοικίδι|σκύλ|γάτα|δάσκαλ|σχολ|δρόμ"
    r"|πόλη|γενν|μητέρα|πατέρα|חיית|מחמד|כלב|חתול|מור[הה]|בית\s*+ספר|רחוב|עיר|נולד|אמא|אבא|حيوان|أليف|كلب|قط|معلم"
    r"|مدرس|شارع|مدينة|ولد|حیوان|خانگی|سگ|گربه|خیابان|شهر|تولد|مادر|پدر|สัตว์เลี้ยง|หมา|แมว|ครู|โรงเรียน|ถนน|เมือง"
    r"|เกิด|แม่|พ่อ|செல்லப்பிராணி|நாய்|பூனை|ஆசிரிய|பள்ளி|தெரு|நகர|பிறந்த|அம்மா|அப்பா|पालतू|कुत्त|बिल्ली|शिक्षक"
    r"|स्कूल|गली|शहर|जन्म|माँ|पिता|ペット|犬|猫|先生|学校|通り|生まれ|母|父|宠物|寵物|狗|老师|老師|街|城市|出生|애완"
    r"|반려|강아지|고양이|선생님|학교|거리|도시|태어난|어머니|아버지|thú\s++cưng|chó|mèo|giáo\s++viên|trường|đường"
    r"|thành\s++phố|mẹ|bố|rrug|shkoll|qen|qytet|shule|mtaa|bóthar|mhadra|zviera|lemmikloom|పెంపుడు|పాఠశాల|పోషা|পোষা|প্রাণী|স্কুল")
_A_CAPITAL = r"(?-i:[A-Z\u00c0-\u00deА-ЯЁΑ-Ω])"
# how the answer follows the quote: a colon, a dash before a capital, the word for an answer, a
# verb for giving it ("she uses", "hat … eingetragen", "tiene como respuesta", "填的是"), a particle
_ANSWERED = (
    r"[,;]?\s*+[—–-]?\s*+(?:[:：=→]|->|(?<=[—–-]\s)(?=" + _A_CAPITAL + r")|(?<=[—–-])(?=" + _A_CAPITAL + r")"
    r"|(?:and\s++|has\s++|with\s++)?(?:the\s++|its\s++|as\s++)?(?:answer|antwoord|antwort|odpověď|odpowied[źz]|resposta|respuesta|réponse|risposta"
    r"|svar(?:et)?|vastaus|válasz|cevab\w*|ответ|відповідь|jawapan|jawaban|คำตอบ(?:คือ)?|答え|答案|답)"
    r"(?:\s++(?:\w+\s++){0,3}?(?:is|was|ist|es|est|é|è|era|är|er|je|jest|on|là|adalah|da))?\s*+[:：]?"
    r"|tiene\s++como\s++respuesta|tem\s++como\s++resposta|ha\s++come\s++risposta"
    r"|[^\n\"“”„«»「」]{0,30}?(?<!\w)(?:user|she|he|they|i|we|die\s++nutzerin|der\s++nutzer|sie|er|elle|il|ella|él)"
    r"\s++(?:uses?|used|gave|put|wrote|typed|picked|chose|hat|gab|schrieb|nimmt|a\s++mis|puso|usa)"
    r"|は|是|에|に|[，,]?\s*+(?:用户|她|他)?(?:填的是|写的是|用的是|填了))\s*+")
_QUESTION_QUOTED = lazy(
    r"(?i)(?:(?<!\w)" + _A_SECURITY_QUESTION + r"|" + _A_SECURITY_QUESTION_UNSPACED + r")[^\n\"“„«「」»”'‘’]{0,50}?(?:[\"“„«「]|(?<!\w)['‘])(?P<asked>[^\"”“»」'’\n]{3,60})[\"”“»」'’]" + _ANSWERED
    + r"(?P<answer>[^\s.,;!?。！？、]{2,40}(?:\s++[^\s.,;!?。！？、]{2,40}){0,2})")
# where a question and its answer are a game's or a lesson's: a quiz, trivia, an exam, a course, a
# training, a podcast, a crossword, an advert
_A_QUIZ = lowered_search(
    r"(?i)(?<!\w)(?:quiz\w*|trivia|exam\w*|test|course|training|webinar|podcast|crossword|keynote|advert\w*|ad|lesson"
    r"|class|prüfung|kurs\w*|schulung|rätsel|examen|cours|formation|atelier|mots\s++croisés|prueba|curso|lección|concurso"
    r"|simulado|prova|aula|esame|corso|lezione|toets|cursus|sprawdzian|egzamin|sınav\w*|eğitim\w*|yarışma\w*|kuis|ujian"
    r"|kursus|tietovisa|koe|koulutus\w*|frågesport|utbildning\w*|kvíz|zkouška|audio\s++guide)(?!\w)"
    r"|викторин|экзамен|курс|урок|тест|חידון|מבחן|مسابقة|امتحان|آزمون|مسابقه|クイズ|試験|教室|测验|考试|课|퀴즈|시험|수업"
    r"|ทดสอบ|ข้อสอบ")


def _question_quoted_and_answered(text: str) -> bool:
    """A security question quoted and its answer after it: 'Bankas drošības jautājums "pirmā
    mājdzīvnieka vārds": Muris', 'vraag "geboorteplaats van je moeder", antwoord Zwolle',
    '秘密の質問「初めて飼ったペットの名前」はポチ'; the question asks what security questions ask, where
    a bank or an account asks it, and no quiz, form or teacher does."""
    for match in _QUESTION_QUOTED.finditer(text):
        line = _line_of(text, match)
        outside = line.replace(match["asked"], " ")
        if (_ASKED_ABOUT(match["asked"]) and not _NO_ANSWER.fullmatch(match["answer"].strip())
                and not _NOT_A_SECURITY_ASKER.search(outside) and not _A_QUIZ(outside)):
            return True
    return False


# the needles of _ANSWER_NAMED: each word for an answer (tests/test_privacy_layers.py holds that each of
# its matches holds one)
_ANSWERS_WORD_NEEDLES = ("answer", "antwoord", "antwort", "odpov", "odpowied", "resposta", "respuesta", "réponse",
                         "risposta", "svar", "vastaus", "vastus", "válasz", "cevab", "ответ", "відповідь", "jawapan",
                         "jawaban", "atbilde", "atsakymas", "përgjigj", "freagra", "jibu", "תשובה", "جواب", "پاسخ",
                         "उत्तर", "উত্তর", "జవాబు", "సమాధానం", "பதில்", "คำตอบ", "答え", "答案", "답")
# the needles of _FIRST: a halved code and a password in parts start with one
_FIRST_NEEDLES = ("premiers", "первая", "primera", "primeira", "pierwsza", "first", "vorne", "zuerst", "erst", "depan", "앞자리", "najpierw", "começa", "comienza", "empieza", "întâi",
      "intai", "önce", "đầu", "trước", "abord", "primero", "primeiro", "prima", "eerst", "först", "først", "ensin",
      "előbb", "először", "πρώτα", "сначала", "спочатку", "pehle", "पहले", "أولا", "kwanza", "먼저", "前面", "前半")
_ANSWERS_NEEDLES = ("säkerhetsfrågorna", "sicherheitsfragen", "security questions", "preguntas de seguridad",
                    "perguntas de segurança", "questions de sécurité", "domande di sicurezza", "pytania bezpieczeństwa",
                    "answers", "antworten", "risposte", "odpowiedzi", "respostas", "respuestas", "réponses", "reponses",
                    "răspunsuri", "raspunsuri", "svar", "antwoorden", "vastaukset", "odpovědi", "válaszok", "cevaplar",
                    "ответы", "відповіді", "jawaban", "jawapan", "απαντήσεις", "תשובות", "إجابات", "جواب", "答案", "回答", "답변")
_ASKED_ABOUT_NEEDLES = ("maiden", "first", "childhood", "parents", "grew up", "první", "перш", "перв", "първ", "حیوان",
                        "haiwan", "pierwsz", "primo", "premier", "erste", "primera", "primeiro")
# the needles of _OPENS_WITH_WORDS and _A_MANAGER (tests/test_privacy_layers.py holds that each of their
# matches holds one)
_OPENS_WITH_NEEDLES = ("abre", "apre", "aukeaa", "avaneb", "açıl", "bằng", "deschide", "dibuka", "entsperrt", "gaat",
                       "geht", "jelszóval", "lässt", "unlocked", "разблокируется", "で開け", "maak", "nyílik", "odemyká", "odpre", "open", "opent", "otevírá", "otvara",
                       "otwiera", "obre", "ouvre", "unlocks", "åbnes", "åpnes", "öffnet", "öppnas", "ανοίγει",
                       "відкривається", "открывается", "باز", "يفتح", "کھل", "खुल", "என்று", "で開く", "열려", "으로")
_MANAGER_NEEDLES = ("1password", "bitwarden", "contraseñas", "dashlane", "enpass", "gerenciador", "gestionnaire",
                    "jelszókezelő", "keepass", "lastpass", "lösenordshanterare", "managerul", "menedżer", "password",
                    "passwort", "proton", "salasanamanager", "salasanojen", "správc", "vaultwarden", "wachtwoordmanager",
                    "yönetici", "διαχειριστ", "менеджер", "мениджър", "סיסמאות", "المرور", "مدیر", "โปรแกรมจัดการรหัส",
                    "パスワードマネージャー", "主口令", "主密码", "密码管理器", "密碼管理器", "비밀번호", "gestore")


# who asks a question no security question is, and what says there is no answer
_NOT_A_SECURITY_ASKER = lazy(r"(?i)(?<!\w)(?:vet|census|form|formular|formulaire|formulario|quiz|survey|doctor|arzt|médecin"
                             r"|teacher|school|questionnaire|fragebogen|cuestionario)(?!\w)")
_NO_ANSWER = lazy(r"(?i)(?:removed|none|n/?a|not\s++applicable|optional|skipped|disabled|deleted|unknown|not\s++set|empty"
                  r"|keine\s++angabe|entfernt|leer|aucune?|supprimée?|ninguna|ninguno|vacío|nessuna|rimossa|zrušeno|pominięte"
                  r"|usunięte|отключ\w*|удален\w*|нет|немає|brak|geen|ingen|yok|boş)\.?")


# the word for an answer, and what may come between it and the answer ("the answer is", "jibu ni",
# "an freagra ná", "התשובה", "उत्तर")
_AN_ANSWERS_WORD = (
    r"(?:answer|antwoord|antwort|odpov[ěe]ď|odpoveď|odpowied[źz]|resposta|respuesta|réponse|risposta|svar(?:et)?"
    r"|vastaus|vastus|válasz|cevab\w*|ответ|відповідь|jawapan|jawaban|atbilde|atsakymas|përgjigj\w*|freagra|jibu"
    r"|התשובה|תשובה|جواب|پاسخ|उत्तर|উত্তর|జవాబు|సమాధానం|பதில்|คำตอบ|答え|答案|답)")
_TO_ITS_ANSWER = (r"(?:\s++(?:is|was|ist|es|est|é|è|era|är|er|je|jest|on|là|adalah|da|ni|ná|ir|është|hi|היא|הוא))?"
                  r"\s*+[:：=—–-]?\s*+")
_AN_ANSWER = (r"[\"'“„«]?(?P<{name}>[^\s.,;!?。！？、()\"”»]{2,40}(?:\s++[^\s.,;!?。！？、()\"”»]{1,40}){0,3})"
              r"(?=[\"'”»]?\s*+(?:[.,;!?。！？、()]|$|(?:है|ہے|است)(?!\w)))")
# a security question named, then, in the same sentence, the word for its answer and the answer:
# "güvenlik sorusu büyüdüğün sokak, cevabı Karaağaçlı Sokak", "swali la usalama ni …, jibu ni Shule
# ya Msingi Mwembeni"; or the word for an answer to a security question, then a colon and the answer:
# "odpoveď na bezpečnostnú otázku v banke (meno prvého zvieratka): Cmuľko Veľký"
_ANSWER_NAMED = lazy(
    r"(?i)(?:(?<!\w)" + _A_SECURITY_QUESTION + r"|" + _A_SECURITY_QUESTION_UNSPACED + r")[^\n.!?。！？]{0,100}?"
    r"(?<![\w-])" + _AN_ANSWERS_WORD + _TO_ITS_ANSWER + _AN_ANSWER.replace("{name}", "answer")
    + r"|(?<![\w-])" + _AN_ANSWERS_WORD + r"[^\n.!?。！？:：]{0,20}?(?:" + _A_SECURITY_QUESTION + r"|"
    + _A_SECURITY_QUESTION_UNSPACED + r")[^\n.!?。！？:：]{0,60}?[:：]\s*+" + _AN_ANSWER.replace("{name}", "after"))
# what is no answer, first: "in the vault", "stored", "the same as…"
_NOT_AN_ANSWER = lazy(r"(?i)(?:in|on|at|the|a|an|is|was|stored|saved|kept|written|changed|reset|removed|same|different|secret"
                      r"|private|here|there|elsewhere|somewhere|not|no|yes|see|ask|noted|forgotten|falsely|probably"
                      r"|bitwarden|1password|lastpass|keepass\w*|in\s++\w+"
                      # yes and no, and "I don't remember", in the languages of the words for an answer
                      r"|sí|si|nein|ja|não|nao|да|нет|так|ні|kyllä|ei|nej|ya|tidak|nee|oui|non|hayır|evet|tak|nie|igen"
                      r"|nem|hapana|ndiyo|jo|po|tá|níl|nie\s++pamiętam|keine|kein)(?!\w)")


def _answer_named(text: str) -> bool:
    """The question says what security questions ask about (a pet, a street, a school…), and the answer
    is a name: in a script with capitals, it starts with one ("cevabı Karaağaçlı Sokak"; not "cevabı
    artık farklı", "answer took a minute", "whose answer Google can't find")."""
    for match in _ANSWER_NAMED.finditer(text):
        answer, line = (match["answer"] or match["after"]).strip("\"'“„«”» "), _line_of(text, match)
        if answer[0].islower() or not _ASKED_ABOUT(match[0]):
            continue
        if (not _NO_ANSWER.fullmatch(answer) and not _NOT_AN_ANSWER.match(answer)
                and not _NOT_A_SECURITY_ASKER.search(line) and not _A_QUIZ(line)):
            return True
    return False


# a security question named, what it asks after a comma, then a colon and the answer: "Sekuriteitsvraag op
# Pa se bankrekening, naam van eerste hond: Vaalwors.", "Turvaküsimus isa kontol, esimese lemmiklooma nimi: Muki"
_ANSWER_AFTER_A_COLON = lazy(
    r"(?i)(?:(?<!\w)" + _A_SECURITY_QUESTION + r"|" + _A_SECURITY_QUESTION_UNSPACED + r")[^\n.!?。！？:：,，،]{0,60}?[,，،]"
    r"(?P<label>[^\n.!?。！？:：]{3,60}?)[:：]\s*+" + _AN_ANSWER.replace("{name}", "answer"))
# the word for a name, which says what a security question asks for ("naam van eerste hond", "esimese
# lemmiklooma nimi"), in the languages whose security questions are named above
_A_NAMES_WORD = lazy(
    r"(?i)(?<!\w)(?:name|naam|nama|nimi|vardas|ad[ıi]|emri|ainm|enw|izena|nom|nombre|nome|namn|navn|nafn|imię|imie|jméno"
    r"|meno|ime|име|имя|ім['’]я|името|името|όνομα|isim|ismi|jina|tên|vārds|nev[ei]|neve|isem)(?!\w)|անուն"
    r"|სახელ|பெயர்|নাম|نام|اسم|नाम|పేరు|שם|名前|名字|이름|ชื่อ")
QUESTION_NEEDLES = (
    "question", "frage", "pregunta", "pergunta", "domanda", "vraag", "fråga", "spørgsmål", "spørsmål", "spurning", "kysymy",
    "kérdés", "otázk", "pytani", "вопрос", "питання", "въпрос", "jautājum", "klausim", "küsimus", "ceist", "galdera",
    "ntrebare", "soru", "ερώτηση", "שאלת", "سؤال", "سوال", "soalan", "pertanyaan", "câu hỏi", "pitanj", "vprašanj", "கேள்வி",
    "प्रश्न", "pyetj", "swali", "প্রশ্ন", "ప్రశ్న", "質問", "问题", "問題", "질문", "คำถาม", "прашањ", "sual", "კითხვ",
    "پرسش", "küsimus", "क्वेश्चन", "mistoqsij", "հարց")


def _answer_after_a_colon(text: str) -> bool:
    """A name after the colon that ends a security question's line, the name of what it asks for
    before the colon: in a script with capitals, the answer starts with one; not "none", "yes", "in
    the vault", and not a quiz's or a form's question."""
    for match in _ANSWER_AFTER_A_COLON.finditer(text):
        answer, line = match["answer"].strip("\"'“„«”» "), _line_of(text, match)
        if not _A_NAMES_WORD.search(match["label"]):
            continue  # "Recovery question screen redesign, owner: Priya": no name is asked for
        if (answer[0].islower() and not "\u10d0" <= answer[0] <= "\u10ff") or _NO_ANSWER.fullmatch(answer) or _NOT_AN_ANSWER.match(answer):
            continue
        if not _NOT_A_SECURITY_ASKER.search(line) and not _A_QUIZ(line):
            return True
    return False


# a question by the plain word, or the word for an answer "to" a question, quoted (straight quotes too),
# then its answer: "câu hỏi «tên thú cưng đầu tiên» → Mực Đen", "réponse à la question « votre première
# voiture » = Twingo bleue", "ответ на вопрос «кличка первого питомца»: Бублик", "pyetja 'emri i lodrës' → Lulushi"
_A_QUESTIONS_WORD = (
    r"(?:question|pregunta|pergunta|domanda|frage|vraag|fråga|spørgsmål|spørsmål|kysymy\w*|kérdés\w*|otázk\w*|pytani\w*"
    r"|вопрос\w*|питання|въпрос|soru\w*|câu\s++hỏi|pyetj\w*|ceist|(?:an\s++)?freagra\s++ar|(?:answer|r[ée]ponse|respuesta"
    r"|resposta|risposta|antwort|antwoord|odpověď|odpowied[źz]|ответ|відповідь|svar(?:et)?|vastaus|válasz)\s++"
    r"(?:to|à|a|al|ao|auf|op|na|на|på|till)(?:\s++(?:la|the|die|de|der)\s++\w+)?)")
_QUESTION_WORD_QUOTED = lazy(
    r"(?i)(?<!\w)" + _A_QUESTIONS_WORD + r"\s*+[\"“„«「'‘](?P<asked>[^\"”“»」'’\n]{3,60})[\"”“»」'’]"
    r"\s*+(?:[:：=→]|->|(?<!\w)(?:ná|is|was|es|est|ist|è|é)(?!\w))\s*+" + _AN_ANSWER.replace("{name}", "answer"))


# the needles of _QUESTION_WORD_QUOTED: each word for a question or an answer it starts with
_QUESTIONS_WORD_NEEDLES = (
    "question", "pregunta", "pergunta", "domanda", "frage", "vraag", "fråga", "spørgsmål", "spørsmål", "kysymy", "kérdés",
    "otázk", "pytani", "вопрос", "питання", "въпрос", "soru", "câu hỏi", "pyetj", "ceist", "freagra", "answer", "réponse",
    "reponse", "respuesta", "resposta", "risposta", "antwort", "antwoord", "odpověď", "odpowied", "ответ", "відповідь",
    "svar", "vastaus", "válasz")
# what a security question guards: an account, an app, a login, a bank (a quiz's question names none)
_AN_ACCOUNT = lowered_search(
    r"(?i)account|konto|compte|cuenta|conta(?!ct)|cont\b|llogari|cuntas|kont[ao]|fiók|tili|účet|аккаунт|учётн|учетн|акаунт"
    r"|профил|hesab|app\b|appli|aplicaci|aplikac|applicazion|приложени|застосун|tài\s++khoản|ứng\s++dụng|login|sign[\s-]?in"
    r"|anmeld|inicio\s++de\s++sesión|bank|banque|banco|banca|operator|opérateur|operador|оператор|ródaire|router|ruteri"
    r"|streaming|aðgang")


def _question_word_quoted(text: str) -> bool:
    """A question that asks what security questions ask, quoted after the plain word for a question or
    for its answer, on a line about an account or an app, then a sign and a name: in a script with
    capitals, one that starts with one."""
    for match in _QUESTION_WORD_QUOTED.finditer(text):
        answer, line = match["answer"].strip("\"'“„«”» "), _line_of(text, match)
        if not (_ASKED_ABOUT(match["asked"]) or _A_NAMES_WORD.search(match["asked"])) or answer[0].islower() \
                or _NO_ANSWER.fullmatch(answer) or _NOT_AN_ANSWER.match(answer) or _A_STATUS.match(answer):
            continue
        if match["asked"].rstrip().endswith(("?", "？", "؟")):
            continue  # a question asked as one, a lesson's or a profile's ("„Wo ist deine Schule?“: Sie ist in Graz")
        outside = line.replace(match["asked"], " ")
        if _AN_ACCOUNT(outside) and not _NOT_A_SECURITY_ASKER.search(outside) and not _A_QUIZ(outside):
            return True
    return False


# a security question named, what it asks (a pet, a city, a name…), then an arrow or "=" and the
# answer: "Pytanie bezpieczeństwa w aplikacji do kamery: imię pierwszego zwierzaka → Pimpuś",
# "Sekuriteitsvraag by die selfoonrekening: eerste troeteldier → Bokkie Wagter"
_ANSWER_AFTER_AN_ARROW = lazy(
    r"(?i)(?:(?<!\w)" + _A_SECURITY_QUESTION + r"|" + _A_SECURITY_QUESTION_UNSPACED + r")"
    r"(?P<label>[^\n.!?。！？]{3,120}?)(?:→|->|=>|⇒|(?<![=!<>])=(?!=))\s*+" + _AN_ANSWER.replace("{name}", "answer"))


# the colon after which what a security question asks is told ("…kamery: imię pierwszego zwierzaka → …");
# a question's release note has none ("Question de sécurité sur la ville de naissance → Supprimée")
_A_COLON = lazy(r"[:：՝]").search
# an answer that is a state of a feature or a text: removed, moved, approved, a draft, done
_A_STATUS = lazy(r"(?i)(?:removed|entfernt|supprim\w*|eliminad\w*|rimoss\w*|usunięt\w*|przeniesion\w*|moved|verschoben"
                 r"|déplacé\w*|movid\w*|spostat\w*|approved|genehmigt|approuvé\w*|aprobad\w*|approvat\w*|draft|entwurf"
                 r"|brouillon|borrador|bozza|szkic|imneħħ\w*|done|fertig|gotowe|hotovo|klaar|listo|pronto|fatto|terminé\w*"
                 r"|deprecated|veraltet|obsolète|obsoleto|hidden|verborgen|masqué\w*|oculto|nascost\w*|ukryt\w*)(?!\w)")


def _answer_after_an_arrow(text: str) -> bool:
    """An answer after an arrow, what the question asks named before it; in a script with capitals,
    the answer starts with one (not "none", "yes", "in the vault"), and no quiz's or form's question."""
    for match in _ANSWER_AFTER_AN_ARROW.finditer(text):
        answer, line = match["answer"].strip("\"'“„«”» "), _line_of(text, match)
        if not (_ASKED_ABOUT(match["label"]) or _A_NAMES_WORD.search(match["label"])) or not _A_COLON(match["label"]):
            continue  # "Security question rollout → Q3", "Sicherheitsfrage zum Geburtsort → Entfernt im Release 4"
        if _A_STATUS.match(answer):
            continue  # "… → Removed", "… : Entwurf von Jonas"
        if (answer[0].islower() and not "\u10d0" <= answer[0] <= "\u10ff") or _NO_ANSWER.fullmatch(answer) \
                or _NOT_AN_ANSWER.match(answer):
            continue  # (Georgian has no capitals: its letters are small ones to Python)
        if not _NOT_A_SECURITY_ASKER.search(line) and not _A_QUIZ(line):
            return True
    return False


def _answer_after_asked(text: str) -> bool:
    for match in _ANSWER_AFTER_ASKED.finditer(text):
        if not _NO_ANSWER.fullmatch(match["answer"].strip()) and not _NOT_A_SECURITY_ASKER.search(_line_of(text, match)):
            return True
    return False


# --- a door's code in Estonian, Maltese and other languages, told with "is" or a colon ----------------

# an Estonian door's, gate's, alarm's or safe's code in one word, then "is" or a colon and the number
# ("Trepikoja uksekood Tartu mnt 19 majas on 3577"), and a Maltese key box or a door's, a box's, an
# alarm's or a garage's code ("Il-kaxxa taċ-ċwievet …: il-kodiċi huwa 5174"); not any number on such a
# line ("Välisuksekood muutub märtsis, ühistu telefon 5551 2345", "…, numru tal-ordni 558812")
# what a code opens in Swahili: a door, a gate, a lock, a cupboard, a safe, a store, a box (not "kodi
# ya geti", the gate's rent, nor a post office's box, "sanduku la posta")
_SWAHILIS_LOCK = r"(?:mlango|geti|lango|kufuli|kabati|sefu|stoo|ghala|sanduku(?!\s++la\s++(?:posta|barua)))"
_TOLD_AS_A_DOORS_CODE = lazy(
    r"(?i)(?:(?<!\w)\w{0,10}?(?:ukse|värava|alarmi|seifi|trepikoja)kood\w*|kodi[ċc]i\s++tal-(?:bieb|kaxxa|allarm|alarm"
    r"|garaxx|serratura)|kaxxa\s++ta[ċc]-[ċc]wievet)[^\n]{0,60}?(?:\s(?:on|oli|huwa|hu|hija|hi)|[:：])\s*+"
    r"[0-9]{4,8}(?![0-9]|[.,][0-9])"
    # a door's, an entrance's, a gate's, a lock's, a safe's, a freezer's or a box's code in Latvian,
    # Welsh, Albanian, Irish, Tagalog and Swahili, then in its clause (no digit, comma or colon between)
    # "is" or a colon and four to six digits (maybe one by one, maybe after "number"): "Restorāna
    # saldētavas kods ir 6275", "Cod y drws cefn … yw 3108", "Kodi i derës së studios është 6401", "Is é
    # cód an dorais chúil … ná 5419", "Code ng pinto sa likod: 8182", "Code ya geti ni 2291". The number
    # ends there: no more digits (a phone's, "Code ya geti: 0712 345 678"), no decimal part, no
    # brand's or town's name after it (a catalogue's number, "Saldētavas kods ir 92542 Electrolux
    # katalogā"), and a year only where its clause ends ("Code ya mlango … ni 2019, usimwambie mtu";
    # not "Cod y giât: 2019 oedd y tro olaf …", when it was changed). Not "Noliktavas kods 4410 …" (a
    # warehouse's, a product's), "Kodi i portës së serverit është 8080" (a port: a gate's otherwise), nor
    # a post office's box, "Code ya sanduku la posta ni 00100"
    r"|(?:(?<!\w)(?:durvju|vārtu|seifa|saldētavas|slēdzenes|ieejas|kāpņu\s++telpas)\s++kods"
    r"|(?<!\w)kods\s++(?:durvīm|vārtiem|seifam)"
    r"|(?<!\w)c[oóô]d\s++(?:(?:y|yr)\s++(?:drws|giât|gât|clo|sêff|bocs\s++allweddi)|mynediad)"
    r"|(?<!\w)kodi\s++(?:i|e)\s++(?:derës|dyerve|hyrjes|kasafortës|alarmit|kyçit|drynit|dollapit"
    r"|portës(?![^\n]{0,40}?(?:server|firewall|rrjet|ruter|router)))"
    r"|(?<!\w)c[óo]d\s++(?:an|na|don|do\s++an)\s++(?:dh?orais|doras|ndoirse|gh?eata|geata|ngeataí|aláraim|taisceadáin|gh?lais"
    r"|ch?ófra|sábháilte|bh?osca)"
    r"|(?<!\w)(?:code|passcode)\s++(?:ng|sa)\s++(?:pinto|pintuan|gate|gabinete|kandado|locker|alarma|kaha)"
    r"|(?<!\w)(?:code|msimbo)\s++(?:ya|wa|la)\s++" + _SWAHILIS_LOCK
    # (and a house's side, back or garden gate in English, told with "is": "tell the driver the side gate
    # is 3390")
    + r"|(?<!\w)(?:side|back|rear|garden|yard|driveway)\s++gate)(?!\w)"
    # (not an order's, a model's or a price's number: "… πόρτας γκαράζ (μοντέλο): 5503")
    r"(?:(?!order|model|μοντέλ|παραγγελ|τιμή|price)[^\n0-9,;.:：!?]){0,40}?"
    r"(?:\s(?:ir|yw|ydy|është|ishte|ná|ay|ni|is)\s|\s*+[:：](?:\s*+is\s++é(?=\s))?)\s*+"
    r"(?:(?:numurs|numri|rhif|uimhir|numero|namba)\s++)?"
    # (a year after "is" where the clause ends: after a colon, a year is when it was put in, "Κλειδοθήκη: 2019")
    r"(?:(?<![:：]\s)(?<![:：])(?:19|20)[0-9]{2}(?=\s*+(?:[,;!?#)]|\.(?!\s*+[a-zāčēģīķļņšūž])|$))"
    r"|(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9](?:[ -]?[0-9]){3,5}#?)"
    r"(?![0-9]|[ -][0-9]|[.,][0-9]|\s++(?-i:[A-ZÀ-ÞĀ-Ž]))"
    # a key box in Greek, its code after a colon where the sentence ends ("Κλειδοθήκη για το δωμάτιο
    # «Ελιά» …: 2 0 7 7."; not "Κλειδοθήκη … : 1450 από τα Jumbo", a price, nor an order's number)
    r"|(?<!\w)(?:κλειδοθ[ήη]κ|κλειδοκο[ύυ]τ)\w*(?:(?!παραγγελ|μοντέλ|τιμή)[^\n0-9,;.:：!?]){0,40}?[:：]\s*+"
    r"(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9](?:[ -]?[0-9]){3,5}(?=\s*+(?:[.;!]|$))"
    # a door's, a gate's, a building's, a store's or a safe's code in Egyptian Arabic in Latin letters,
    # a few words after it, where its clause ends ("code el bab el wara2ani lel 3iyade 4 1 9 6, w …", "el code
    # bta3 bab el 3omara #1985";
    # not "code el makhzan 4417 da raqam el far3", a branch's number, nor "mafeesh code el bab, el
    # sha2a raqam 1204")
    # a cold room's code ("chambre froide, code 0 6 2 9", "Cold-room access 5183#"; not "the walk-in cooler holds
    # 1200 litres", "Chambre froide : bon de livraison 48213")
    r"|(?<!\w)(?:chambre\s++froide|cold[\s-]*+room|walk-?in\s++(?:cooler|freezer|fridge)|kühlraum|kühlzelle|koelcel|kylrum)"
    r"[^\n0-9.!?]{0,30}?(?<!\w)(?:code|kode|kod|codice|c[óo]digo|access)\s*+[:=]?\s*+(?:est\s++|is\s++|ist\s++)?"
    r"[0-9](?: ?[0-9]){3,7}#?(?![0-9]|[.,][0-9])"
    # a door's, a gate's, a lock's, a locker's, a safe's, a garage's or an alarm's code in Urdu, and in Tamil,
    # the number right after it ("سٹاف روم کے دروازے کا کوڈ اب 7402 ہے", "பூட்டின் குறியீடு 3 0 6 9"; not
    # "دروازے کا کوڈ بدلنا ہے، کمرہ نمبر 1204", nor a year, when it changed)
    r"|(?:دروازے|دروازہ|گیٹ|تالے|تالا|لاکر|سیف|الارم|تجوری|گیراج|الماری)(?:\s*+(?:کا|کے|کی))?(?:\s*+لاک)?\s*+کوڈ"
    r"\s*+[:：]?\s*+(?:اب\s*+)?(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9]{4,8}(?![0-9])"
    r"|(?:லாக்கர்|லாக்கரின்|பூட்டு|பூட்டுக்|பூட்டின்|கதவு|கதவின்|பெட்டகத்தின்)\s*+குறியீடு\s*+[:：]?\s*+"
    r"(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9](?: ?[0-9]){3,7}(?![0-9])"
    r"|(?<!\w)code\s++(?:el|b[ie]?ta3(?:\s++el)?)\s++(?:bab|bawaba|3omara|makhzan|khazna|sha[2q]a)"
    r"(?:\s++(?!raqam)(?=[a-z0-9']*[a-z])[a-z0-9']+){0,4}?\s*+[:：]?\s*+#?[0-9](?: ?[0-9]){3,5}(?=\s*+(?:[,.;!?]|$))"
    # a shop's alarm, a safe's or a gate's code in Vietnamese, with or without its accents, then a colon or
    # "là" (is) and the number ("Mã báo động cửa hàng: 1357", "Mã két sắt ở cửa hàng là 40-12-88", "ma cong
    # khu B la 8642"; not "Mã két sắt khách sạn phòng 1204 bị lỗi", a room, "Mã cổng khu B: hỏi bảo vệ")
    r"|(?<!\w)m[ãa]\s++(?:báo\s++động|bao\s++dong|két(?:\s++sắt)?|ket(?:\s++sat)?|cổng|cong)(?!\w)"
    r"(?:\s++(?!l[àa](?!\w))[^\W\d]++){0,4}?(?:\s*+[:：]|\s++l[àa](?!\w))\s*+"
    r"(?:[0-9]{2}(?:-[0-9]{2}){2,3}|[0-9]{4,8})(?![0-9]|[.,][0-9]|\s*+(?:đồng|đ|k|vnđ|vnd|triệu|nghìn|tr)(?!\w))"
    # a card's or an online bank's PIN in Finnish, the number right after it ("OP-verkkopankin tunnusluku
    # 8842", "Kortin tunnusluku on 4471"; not "tilausnumero 20415" on its line)
    r"|(?<![^\W\d_])\w*tunnuslu(?:ku|kuni|kusi|kumme|vun)(?:\s++on|\s*+[:：])?\s*+[0-9]{4,6}(?![0-9]|[.,][0-9])"
    # or, in Swahili, "code is (the number) for" the door, the gate, the lock …: "Code ni 4718 kwa mlango
    # wa nyuma" (not "Code ni 4718." alone, as "Code is 4718." is no lock's; nor "code ni 14112 kwa barua
    # za kufuli la sanduku", a post office's postcode for its letters)
    r"|(?<!\w)(?:code|msimbo)\s++ni\s*+[0-9]{4,6}#?,?\s++(?:kwa|ya|wa|la)\s++(?:\w+\s++)?" + _SWAHILIS_LOCK + r"(?!\w)", re.M)

# a number keyed in on the pad of what it opens, a gate's, a door's, a barrier's: "driver punches 83164 on the
# barrier pad", "Press 4821 on the gate pad to get in" (not a touch pad's, a note pad's or an oven's key pad's)
_KEYED_ON_A_PAD = lazy(r"(?i)(?<!\w)(?:punch(?:es|ed|ing)?|key(?:s|ed|ing)?|tap(?:s|ped|ping)?|enter(?:s|ed|ing)?"
                       r"|type(?:s|d|ing)?|press(?:es|ed|ing)?|dial(?:s|led|ing)?|input(?:s|ted|ting)?)\s++(?:in\s++)?"
                       r"[0-9]{4,8}#?\s++(?:on|into|at)\s++(?:the\s++)?(?:[^\W\d_]++\s++)?"
                       r"(?:gate|door|barrier|entry|entrance|garage|alarm|lock|side|front|back)(?:['’]s)?\s++(?:key\s*+)?pad(?!\w)")

# (reason, check, needles in lower case): ``labelled._CHECKS`` runs them after its own
CHECKS = (
    ("looks like a PIN or a lock's code", _KEYED_ON_A_PAD.search, ("pad",)),
    ("looks like a PIN or a lock's code", _lock_then_number, (":", "：", " ni ")),
    ("looks like a PIN or a lock's code", _CODE_FOR_A_LOCK.search, ("šifr", "шифр", "kód", "kod", "code", "код")),
    ("looks like a PIN that is a year told in words", _YEAR_IN_WORDS_TOLD.search,
     ("nineteen", "thousand", "mil ", "millenovecento", "duemila", "mille", "dix-neuf", "neunzehnhundert", "zweitausend",
      "negentienhonderd", "tweeduizend", "tysiąc", "tysiac", "tysiące", "тысяча", "тысячи", "тисяча", "тисячі",
      "bin dokuz", "iki bin", "אלף", "אלפיים", "ألف", "一九", "一八", "二〇", "二零", "천구백", "이천")),
    ("looks like a PIN or a lock's code", _starred_code, ("*", "#")),
    ("looks like a PIN or a lock's code", _combination_beside_a_lock, ("-",)),
    ("looks like a password told by what it opens", _word_that_opens, _OPENS_WITH_NEEDLES),
    ("looks like a passphrase told as a sentence", _managers_phrase, _MANAGER_NEEDLES),
    ("looks like a code told in two halves", _halves, _FIRST_NEEDLES),
    ("looks like a password told in parts", _parts, _FIRST_NEEDLES),
    ("looks like a PIN or a lock's code", _number_before_what_it_opens, ()),
    ("looks like a PIN or a lock's code", _TOLD_AS_A_DOORS_CODE.search,
     ("kood", "kodiċi", "kodici", "kaxxa", "kods", "cod y", "cod yr", "côd y", "cod mynediad", "côd mynediad", "kodi i",
      "kodi e", "cód", "cod an", "cod na", "cod don", "κλειδοθ", "κλειδοκ", " gate", "code el", "code bta3", "code beta3", "code bita3", "mã báo", "ma bao", "mã két", "ma ket",
      "mã cổng", "ma cong", "tunnuslu", "froide", "cold", "walk-in", "walkin", "kühl", "koelcel", "kylrum", "کوڈ", "குறியீடு",
      "code ng", "code sa", "code ya", "code wa", "code la", "code ni", "msimbo")),
    ("looks like a passphrase told as a sentence", _told_as_a_sentence, (":", "：", " is ", " é ", " è ", " es ", " est ",
                                                                         " ist ", " je ", " jest ", " это ", "是", "は")),
    ("looks like a network's name and its password", _network_and_password, ()),
    ("looks like an app password (four groups of four letters)", _app_password,
     ("app", "mot de passe d", "contraseña de aplicación", "hasło")),
    ("looks like a network's name and its password", _network_then_key,
     ("network", "ssid", "netzwerk", "réseau", "sieć", "netwerk", "nätverk", "netværk", "nettverk", "сеть", "мережа",
      "wi-fi", "wifi", "wlan")),
    ("looks like a password (a word, a sign and more)", _token_beside_what_it_opens, ()),
    ("looks like a PIN or a lock's code", _lettered_door_code,
     ("digicode", "code", "código", "codice", "kod", "kód", "код")),
    ("looks like a credential stated in a sentence", _access_code_value,
     ("код", "access", "zugangscode", "zugriffscode", "accès", "acceso", "acesso", "accesso", "dostępu", "toegangscode",
      "erişim", "přístupový", "πρόσβασης", "קוד", "رمز")),
    ("looks like a credential stated in a sentence", _wifi_key_digits,
     ("key", "schlüssel", "clé", "cle", "clave", "chiave", "sleutel", "nyckel", "nøgle", "nøkkel", "ключ", "klucz")),
    ("looks like a credential stated in a sentence", _accented_value,
     ("passwort", "password", "kennwort", "mot de passe", "contraseña", "senha", "wachtwoord", "hasło", "lösenord", "passord",
      "salasana", "jelszó", "heslo", "parola")),
    ("looks like a passphrase told as a sentence", _plain_words_after_is,
     ("password", "passphrase", "passwort", "mot de passe", "contraseña", "senha", "wachtwoord")),
    ("looks like the answer to a security question", _answers_listed, _ANSWERS_NEEDLES),
    ("looks like the answer to a security question", _answer_after_asked, _ASKED_ABOUT_NEEDLES),
    ("looks like the answer to a security question", _answer_named, _ANSWERS_WORD_NEEDLES),
    ("looks like the answer to a security question", _answer_after_a_colon, QUESTION_NEEDLES),
    ("looks like the answer to a security question", _answer_after_an_arrow, QUESTION_NEEDLES),
    ("looks like the answer to a security question", _question_word_quoted, _QUESTIONS_WORD_NEEDLES),
    ("looks like the answer to a security question", _question_quoted_and_answered,
     ('"', "“", "„", "«", "「", "'", "‘")),
)
