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

from pdsmem.mapping.privacy.plain import lazy, lowered_search
from pdsmem.mapping.privacy.told import _CONTEXT, _JOINED_WORDS, _LOCKS

# --- a lock's code that looks like a year -----------------------------------------------------------

# a bike lock, a padlock, a locker, a safe by a name no castle, rock song or course has ("Schloss" is
# also a castle, "замок" one too, "ロック" rock, "khóa" a course)
_A_LOCKS_NAME = (
    r"(?:bike\s*+lock|padlock|combination\s++lock|locker|\w+schloss|spind|\w*slot\b|cykellås\w*|hänglås\w*|sykkellås\w*"
    r"|hengelås\w*|lås(?:et|en)?|велозам\w*|кодов\w*\s++замок|замок\s++(?:от|на|для)|lucchetto|cadeado|candado|cadenas"
    r"|kłódk\w*|zámek|zámok|lakat\w*|lacăt\w*|kilid\w*|kilit\w*|khóa\s++xe(?:\s++đạp)?|ổ\s++khóa|gembok|kufuli|λουκέτο"
    r"|מנעול\w*|قفل|তালা|ताला|锁|鎖|自転車の鍵|ダイヤル錠|자물쇠|กุญแจ\w*|ormarić\w*|ormar\w*|szafk\w*|θυρίδα|loker|armadietto"
    r"|taquilla|casier|skåp\w*|skříňk\w*|safe|tresor|coffre|cofre|caja\s++fuerte|cassaforte|kluis|sejf|сейф|seif\w*"
    r"|kasası|trezor|χρηματοκιβώτιο|כספת|خزنة|تجوری|金庫|保险箱|금고|két\s++sắt|brankas)"
)
# the lock's name, a few words (whose lock), a colon and the number, the last thing said: the number
# at a line's end after a colon is found first, then the lock's name in the 60 characters before it
_NUMBER_AFTER_A_COLON = lazy(r"[:：]\s*+[0-9]{3,8}\s*+[.!]?\s*+$", re.M)
_LOCKS_NAME_BEFORE = lazy(r"(?i)(?<!\w)" + _A_LOCKS_NAME + r"[^\n:：0-9]{0,40}$")


def _lock_then_number(text: str) -> bool:
    return any(_LOCKS_NAME_BEFORE.search(text, max(0, colon.start() - 60), colon.start())
               for colon in _NUMBER_AFTER_A_COLON.finditer(text))
# "šifra za ormarić na bazenu 2094": the word for a code, what it is for, the number at the end
_CODE_FOR_A_LOCK = lazy(r"(?i)(?<!\w)(?:šifra|šifru|шифр\w*|kód|kod|code|код)\s++(?:za|na|for|für|pour|para|per|voor|do|dla"
                        r"|для|від|от)\s++(?:\S+\s++){0,3}?" + _A_LOCKS_NAME + r"(?:\s++\S+){0,3}?\s++[0-9]{4,8}\s*+[.!]?\s*+$",
                        re.M)

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
    r"|(?<![〇零一二三四五六七八九十])[一二][〇零一二三四五六七八九]{3}(?![〇零一二三四五六七八九十])|천구백\S*|이천\S+)"
)
# what such a year is the code of: a PIN, a card's or a lock's code
_A_PIN_OR_LOCK = (r"(?:(?<!\w)(?:pin|pin-?code|pinpas|bancomat|pincode|pin-kod\w*|пин|пін|código|codice|kode|kod|kód"
                  r"|код\w*|ה?קוד|كود|رمز|الرقم\s++السري|رقم\s++\S+(?:\s++\S+)?\s++السري|密码|暗証番号|비밀번호)(?!\w)|"
                  + _A_LOCKS_NAME + r")")
_YEAR_IN_WORDS_TOLD = lazy(r"(?i)" + _A_PIN_OR_LOCK + r"[^\n]{0,60}?(?<![\w-])" + _YEAR_IN_WORDS)

# --- an alarm's code with stars and hashes ----------------------------------------------------------

_STARRED_CODE = lazy(r"(?<![A-Za-z0-9_*#])(?:\*[0-9]{4,8}#?|[0-9](?:#[0-9]){3,7}#?|[0-9]{4,8}#)(?![A-Za-z0-9_*#])")
_AN_ALARM = lowered_search(
    r"(?i)alarm|alarme|alarma|allarme|antifurto|larm|hälyt|riasztó|συναγερμ|сигнализ|сигналіз|报警|報警|警報|警报|경보"
    r"|دزدگیر|إنذار|אזעקה|báo\s++động|กันขโมย|अलार्म|এলার্ম|poplach|撤防|解除|disarm|entschärf|désactiv|desactiv"
    r"|disinserisc|vypíná|вимика|выключа|خاموش|keypad|panel")


def _starred_code(text: str) -> bool:
    return ("*" in text or "#" in text) and _STARRED_CODE.search(text) is not None and (_AN_ALARM(text) or _CONTEXT(text))


# --- a code in two halves, a password in two parts --------------------------------------------------

_FIRST = (r"(?:first\s++half|first|vorne|zuerst|erst|depan|앞자리|najpierw|começa\s++(?:com|por)|comienza\s++(?:con|por)"
          r"|empieza\s++(?:con|por)|(?:mai\s++)?[îi]nt[âa]i|önce|đầu|trước|d['’]abord|primero|primeiro|prima|eerst|först"
          r"|først|ensin|előbb|először|πρώτα|сначала|спочатку|pehle|पहले|أولاً|أولا|kwanza|먼저|前面|前半)")
_THEN = (r"(?:second\s++half|then|hinten|dann|danach|belakang|뒷자리|potem|termina\s++(?:com|em|en)|acaba\s++en|apoi|sonra"
         r"|cuối|sau|ensuite|puis|luego|despu[ée]s|depois|poi|daarna|sedan|deretter|sitten|aztán|μετά|потом|потім|phir"
         r"|फिर|ثم|بعدها|kisha|다음|后面|後面|後半)")
_AND = r"(?:(?:and|und|et|y|e|i|ve|và|dan|en|og|och|ja|és|a|и|і|و)\s++)?"
# two numbers of two to four digits, each after its half's word: "vorne 27, hinten 84", "앞자리 08, 뒷자리 39"
_HALVES = lazy(r"(?i)(?<!\w)" + _FIRST + r"\s*+[:=]?\s*+[0-9]{2,4}\s*+[,;、，]?\s*+" + _AND + _THEN
               + r"\s*+[:=]?\s*+[0-9]{2,4}(?![0-9]|[.,][0-9]|\s*+(?:g|kg|ml|cl|l|min|km|m|cm|mm|%|°|€|\$)(?!\w))")
# a word, then a number or a word with one: "first Harbour then 1974", "najpierw Wawel, potem 88zl"
_PARTS = lazy(r"(?<!\w)" + _FIRST.replace("(?:", "(?i:", 1) + r"\s++(?:[A-Z\u00c0-\u024f\u0400-\u042f\u0391-\u03a9][^\W\d_]{2,20}"
              r"|[^\W\d_\u0000-\u024f]{2,20})(?:\s*+[,;]\s*+|\s++)" + _AND.replace("(?:", "(?i:", 1) + _THEN.replace("(?:", "(?i:", 1)
              + r"\s++[0-9]{2,4}[a-z!#$%&*]{0,3}(?![\w./:-]|,[0-9]|\s*+(?:g|kg|ml|min|km|%)(?!\w))")
_A_JOIN = lazy(_JOINED_WORDS + r"|(?i:glued|stuck\s++together|two\s++bits|deux\s++morceaux|dwóch\s++kawałkach|بدون\s*+مسافة"
               r"|बिना\s*+स्पेस|zonder\s++spatie|bila\s++nafasi|sans\s++espace|sin\s++espacio|senza\s++spazi|sem\s++espaço"
               r"|bez\s++spacji|boşluksuz|без\s++пробел\w*|без\s++пробіл\w*|viết\s++liền)")


def _halves(text: str) -> bool:
    return _HALVES.search(text) is not None and (_CONTEXT(text) or _A_DOOR(text) or _A_LOCK(text) is not None)


def _parts(text: str) -> bool:
    return _PARTS.search(text) is not None and (_CONTEXT(text) or _A_MAILBOX(text)) and (
        _A_JOIN.search(text) is not None or _CONTEXT(text))


# a door, an intercom, a building's entrance: what a halved code opens beside the locks
_A_DOOR = lowered_search(r"(?i)domofon|interfon|intercom|citofono|interphone|gegensprechanlage|домофон|kapi"
                         r"|portão|portail|cancello|brama|furtka|pagar")
_A_LOCK = lazy(r"(?i)(?<!\w)" + _A_LOCKS_NAME).search
# e-mail and bank in the words told.py's context does not hold
_A_MAILBOX = lowered_search(r"(?i)e-?mail|poczt|mejl|meil|e-post|benki|banki|e-banking|netbank|banking")

# --- a code before what it opens --------------------------------------------------------------------

_OPENS = (r"(?:opens?|unlocks?|öffnet|ouvre|abre|apre|opent|åpner|öppnar|åbner|avaa|otwiera|otvára|otevírá|odpre|otvara"
          r"|открывает|відкриває|açıyor|açar|mở|เปิด|buka|membuka|bukas|nyitja|deschide|ανοίγει|פותח|يفتح|باز\s++می|کھلتا"
          r"|کھولتا|खुलता|खोलता|খোলে|打开|打開|開く|開け|열리|연다)")
# the number first, then at most a few words and the verb: "4407 buka pagar automatik", "8842 ang bukas ng vault"
_NUMBER_OPENS = lazy(r"(?i)(?:^|(?<=[:：])|(?<=\n))\s*+(?P<code>[0-9]{4,8})\s++(?:\S+\s++){0,4}?" + _OPENS + r"(?!\w)", re.M)
# "8316 für den Schlüsselkasten": a number for a key box
_NUMBER_FOR_A_KEY_BOX = lazy(
    r"(?i)(?<![\w.,/-])(?P<code>[0-9]{4,8})\s++(?:für|for|pour|para|per|voor|för|til|dla|для|do)\s++(?:\S+\s++){0,2}?"
    r"(?:schlüsselkast\w*|schlüsselbox|schlüsseltresor|key\s*+box|keybox|lockbox|key\s*+safe|boîte\s++à\s++clés"
    r"|caja\s++de\s++llaves|sleutelkast\w*|nyckelskåp|nøkkelboks|avainkaap\w*|" + _A_LOCKS_NAME + r")")
_A_YEAR = lazy(r"(?:19|20)[0-9]{2}")


def _number_before_what_it_opens(text: str) -> bool:
    if not _FOUR_DIGITS(text):
        return False
    for pattern in (_NUMBER_OPENS, _NUMBER_FOR_A_KEY_BOX):
        for match in pattern.finditer(text):
            if not _A_YEAR.fullmatch(match["code"]) or re.search(r"(?i)" + _LOCKS, text):
                return True  # (a year opens much: "2024 opens with a bang"; a lock is opened by a code)
    return False


# --- a sentence told as a device's passphrase -------------------------------------------------------

# (a word of an alphabet where a word starts and ends: "zin" is in "Lozinka")
_SENTENCE = (r"(?:(?<!\w)(?:sentence|phrase|passphrase|satz|zin|zdanie|věta|veta|фраза|речення|frase|câu|cümle|mondat"
             r"|جملہ|جملة|جمله|משפט|φράση|kalimat)\w{0,3}(?!\w)|ประโยค|合言葉|口令短语|口令短語|短语|短語|口令|문장)")
# the label (a sentence's word and what it opens), a colon or "is", and three words or more to the end
_TOLD_AS_A_SENTENCE = lazy(
    r"(?im)^(?P<label>[^\n:：]{0,80}?)(?:[:：]|\s(?:is|é|è|es|est|ist|je|jest|это)\s|是|は)\s*+[\"'“„«「]?"
    r"(?P<value>[^\W\d_][^\W\d_'’-]*+(?:\s++[^\W\d_][^\W\d_'’-]*+){2,9}"
    r"|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af][\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\s]{5,30})"
    r"\s*+[\"'”»」]?[.!]?\s*+(?:[,，、][^\n]{0,40})?$")
_A_SENTENCES_WORD = lazy(r"(?i)" + _SENTENCE)
# where a sentence is no one's passphrase: a rule, a lesson, a saying, a title
_NOT_A_PASSPHRASE = lazy(r"(?i)(?<!\w)(?:can|may|must|should|example|e\.g\.|rule|policy|sticker|poster|slogan|motto|quote"
                         r"|proverb|saying|song|lyric|title|book|film|movie|lesson|exercise|typing|of\s++the\s++day"
                         r"|wallpaper|screensaver|engraved|inscription)(?!\w)")
# a laptop, a PC and a notebook in the words told.py's context does not hold
_A_DEVICE = lowered_search(r"(?i)노트북|ノートpc|ノートパソコン|لیپ\s*+ٹاپ|لپ\s*+تاپ|لابتوب|bitwarden|1password|keepass\w*|lastpass"
                           r"|vault|cofre|kasa|notebook")


def _told_as_a_sentence(text: str) -> bool:
    for match in _TOLD_AS_A_SENTENCE.finditer(text):
        label = match["label"]
        named = _A_SENTENCES_WORD.sub(" ", label)  # what it opens, beside the sentence's own word
        if (named != label and (_CONTEXT(named) or _A_DEVICE(named))
                and not _NOT_A_PASSPHRASE.search(match[0])):
            return True
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
    r"(?:(?=[A-Za-z._-]{0,60}?[0-9!#@$%&*])[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?(?:[._!#$%&*][A-Z]?[a-z]{1,20}|-[A-Z][a-z]{1,20}){1,3}[0-9]{0,4}[!#$%&*]?"
    # (words joined by "_" with a number, or with a short word between: "Accounts_Views" is a name in code)
    r"|[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?_(?:[A-Z][a-z]{1,20}[0-9]{1,4}|[a-z]{1,3}_[A-Z][a-z]{1,20}[0-9]{0,4})"
    r"|[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?[._!#$%&*_][A-Z]?[0-9]{1,4}[!#$%&*]?"
    # ("@" before a capital or a digit: "deploy@web01" is a user at a host, "NasiLemak@88" a password)
    r"|[A-Za-z][a-z]{2,}(?:[A-Z][a-z]{2,})?[0-9]{0,4}(?:[!#$%&*][A-Za-z0-9]{1,12}|@[A-Z0-9][A-Za-z0-9]{0,11})"
    r"|[a-z][A-Z0-9][A-Za-z0-9]{1,6}[!#$%&*][a-z0-9]{2,8})"
)
_WORD_AND_DIGITS = r"[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?[0-9]{2,4}[a-z!#$%&*]{0,2}"
_PASSWORD_TOKEN = (r"(?<![\w@/.:#&!$%*+=-])(?:" + _JOINED_TOKEN + r"|" + _WORD_AND_DIGITS + r")(?![\w@/:#&$%*+=-]|\.\w)")
_NETWORK_AND_PASSWORD = lazy(
    r"(?<![\w@/.:-])" + _NETWORK + r"(?:\s*+[/|·•]\s*+|\s++(?:e|and|und|et|y|i|og|och|en|và|و|وبعدها|then|dann)\s++)"
    + _PASSWORD_TOKEN)
# either, in one search: "joined" names the first
_A_TOKEN = lazy(r"(?<![\w@/.:#&!$%*+=-])(?:(?P<joined>" + _JOINED_TOKEN + r")|" + _WORD_AND_DIGITS + r")(?![\w@/:#&$%*+=-]|\.\w)")
# names that have those shapes and no password is: products, a chat's app, a versioned tool
_A_PRODUCTS_NAME = lazy(r"(?i)(?:fritz!box|yahoo!|e\*trade|marks&spencer|procter&gamble|at&t|c#|f#|python|ubuntu|debian"
                        r"|windows|android|postgres|mysql|galaxy|pixel|iphone|office|java|node|fedora|centos|macos|xbox"
                        r"|playstation|nintendo|model|version|route|area|covid|league|euro|expo|world)")
# what a site or a device is, beside told.py's context: a site that asks, a portal, a printer, a camera
_A_SITE = lowered_search(
    r"(?i)site|seite|sitio|sito|stránk|stranic|страниц|сайт|موقع|سایت|situs|trang\s++web|sayfa|strona|oldal|साइट|サイト|网站"
    r"|網站|사이트|เว็บ|moodle|portal|portál|portail|portale|портал|پورتال|पोर्टल|พอร์ทัล|cổng|printer|drucker|imprimante"
    r"|stampante|impresora|impressora|yazici|tiskárn|tiskal|drukark|принтер|پرینتر|プリンター|打印机|打印機|프린터"
    r"|เครื่องพิมพ์|máy\s++in|प्रिंटर|camera|kamera|câmera|cámara|камер|监控|監控|カメラ|카메라|controller|unifi|zertifikat"
    r"|certificat|nas-|freebox|livebox|e-banking|netbank|banking")
# a verb for typing a value in or for what a site wants: "gib Maulwurf!3 ein", "اكتب Zaatar!41", "… will Zugspitze#2962"
_TYPE_OR_WANTS = lazy(
    r"(?i)(?<!\w)(?:type|enter|gib|tippe|eingeben|tape|tapez|saisis|escribe|digita|digite|introduce|inserisci|scrivi|typ"
    r"|voer|wpisz|zadej|zadaj|napiš|въведи|вводи|введи|введіть|ketik|masukkan|isi|yaz|gõ|nhập|اكتب|أدخل|بنویس|وارد\s++کن"
    r"|entrar|entrer|accedi|acceder|acessar|einloggen|anmelden|log\s++in(?:to)?|sign\s++in(?:to)?|הקלד|לחץ|लिखो|डालो|入力|输入|輸入|입력|พิมพ์|wants|will|vuole|quiere|pide|veut|demande|quer|pede|wil|chce|хочет"
    r"|иска|istiyor|ister|minta|يطلب|می\s*+خواهد|要|求め|원해|asks\s++for|fragt|vraagt|kéri|cere|ζητάει|מבקש)(?!\w)")
_A_CODE_LINE = lazy(r"(?i)[={};]|\w\(|(?<!\w)(?:def|class|import|return|function|const|var|let|select|from|where|enum|struct"
                    r"|module|component|variable|rename\w*|refactor\w*|branch|commit|merge|test|spec|api|endpoint"
                    r"|column|field|table|schema|hashtag|channel|sheet|tab|folder|file|repo|dossier|carpeta|cartella"
                    r"|ordner|katalog|map|group|groupe|grupo|gruppe|grupa|view|screen|panel|button|menu|page|section"
                    r"|settings|setting|theme|template)(?!\w)")


def _network_and_password(text: str) -> bool:
    for match in _NETWORK_AND_PASSWORD.finditer(text):
        if not _A_PRODUCTS_NAME.search(match[0]) and not _A_CODE_LINE.search(_line(text, match.start())):
            return True
    return False


def _token_beside_what_it_opens(text: str) -> bool:
    """A token only a password is (``Calcots_Valls7``, ``Zaatar!41``) on a line that names what it
    opens, or on a line that says to type it or that a site wants it; a word and a number
    (``Hagelslag2023``) only on a line that says it opens something, wants it or to type it."""
    for match in _A_TOKEN.finditer(text):
        line = _line(text, match.start())
        if _A_PRODUCTS_NAME.search(match[0]) or _A_CODE_LINE.search(line) or _NAMED(line):
            continue
        if (_TYPE_OR_WANTS.search(line) or _AN_OPENING.search(line)
                or match["joined"] and (_CONTEXT(line) or _A_SITE(line) or _A_MAILBOX(line))):
            return True
    return False


_AN_OPENING = lazy(r"(?i)" + _OPENS + r"(?!\w)")


# what a line names by such a token: a network, a team, a project, a file, a sheet
_NAMED = lowered_search(r"(?i)ssid|network\s++name|netzwerkname|heißt|heisst|heet|se\s++llama|si\s++chiama|nazywa\s++się"
                        r"|s['’]appelle|se\s++chama|chama-se|heter|hedder|hedde|называется|називається|adi|jmenuje\s++se|volá\s++sa"
                        r"|nevű|ονομάζεται|נקרא|اسمها|اسمه|名前は|名字|叫做|이름은|called|named|team|project|network|netzwerk"
                        r"|réseau|rete\b|sieć|netwerk|nätverk|netværk|nettverk|сеть|мережа|group|gruppe|grupo|groupe|projekt|projet|proyecto|codename|sprint"
                        r"|release|campaign|hashtag|username|user\s++name|nickname|handle|gamertag|login\s++name|nutzername"
                        r"|benutzername|brugernavn|användarnamn|nom\s++d['’]utilisateur|usuario|utente|kullanici\s++adi")


def _line(text: str, at: int) -> str:
    return text[text.rfind("\n", 0, at) + 1:(text.find("\n", at) + 1 or len(text) + 1) - 1]


# --- security answers as a list, or after the question is asked -------------------------------------

_ANSWERS = (r"(?:answers|antworten|risposte|odpowiedzi|respostas|respuestas|réponses|reponses|răspunsuri|raspunsuri|svar"
            r"|antwoorden|vastaukset|odpovědi|válaszok|cevaplar|ответы|відповіді|jawaban|jawapan|απαντήσεις|תשובות|إجابات"
            r"|جواب\s*+ها|答案|回答|답변)")
# what a security question asks about, as a list's item starts: "first pet", "Haustier", "primo animale"
_TOPIC = (r"(?:(?:first|erste[rsn]?|primo|prima|primeir[oa]|primer[oa]?|pierwsz[aey]|primul|prima|första|første|premier"
          r"|première|eerste|ensimmäinen|első|první|první|ilk|перв\w+|перш\w+|първ\w+)\s++)?"
          r"(?:pet|dog|cat|animal|car|school|street|teacher|city|town|friend|nickname|maiden\s++name|mother['’]s\s++maiden"
          r"|haustier\w*|tier|hund|katze|auto|schule|grundschule|straße|strasse|lehrer\w*|stadt|freund\w*|spitzname"
          r"|animale|cane|gatto|macchina|scuola|via\s++dell['’]infanzia|maestr\w*|città|amic\w*|kot|pies|zwierz\w*|samoch\w*"
          r"|szkoł\w*|ulica|nauczyciel\w*|miasto|escola|cão|cachorro|gato|carro|rua|professor\w*|cidade|câine|caine|pisic\w*"
          r"|mașin\w*|masin\w*|școal\w*|scoal\w*|strad\w*|husdjur\w*|katt\w*|bil\w*|skola\w*|lärare|mascota|perro|coche"
          r"|escuela|calle|ciudad|chien|chat|voiture|école|rue|ville|huisdier|hond|kat|school|straat|lemmikki|koira|auto"
          r"|háziállat|kutya|mazlíček|pes|evcil\w*|köpek|okul|питом\w*|собак\w*|кошк\w*|школ\w*|машин\w*|улиц\w*|тварин\w*)")
_ANSWERS_LISTED = lazy(r"(?i)(?<!\w)" + _ANSWERS + r"[^\n:：]{0,60}[:：]\s*+(?P<items>[^\n]+)")
_AN_ITEM = lazy(r"(?i)\s*+" + _TOPIC + r"(?!\w)\s*+[:=—–-]?\s*+\S")


def _answers_listed(text: str) -> bool:
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
    r"[^\n:：]{0,40}(?:[:：]|\s(?:est|ist|es|é|è|is|jest|je|är|er|—|–)\s)\s*+"
    r"(?-i:(?=[A-Z0-9]{0,7}[0-9])(?=[A-Z0-9]{0,7}[A-Z])[A-Z0-9]{4,8})(?![\w-])")

# an access code that is a word and a number, in any script: "Код доступа к личному кабинету: Зима2024"
_ACCESS_CODE_VALUE = lazy(
    r"(?i)(?<!\w)(?:код\w*\s++доступа|access\s++code|zugangscode|zugriffscode|code\s++d['’]accès|código\s++de\s++acceso"
    r"|código\s++de\s++acesso|codice\s++(?:di\s++)?accesso|kod\s++dostępu|toegangscode|erişim\s++kodu|přístupový\s++kód"
    r"|κωδικός\s++πρόσβασης|קוד\s++גישה|رمز\s++الدخول)[^\n:：]{0,40}(?:[:：]|\s(?:is|ist|est|es|é|è|jest|—|–|это|—)\s)\s*+"
    r"[\"'«“„]?(?=[^\W\d_]{0,30}[0-9])(?=[0-9]{0,8}[^\W\d_])[^\W_]{4,40}[!?#$%&*]?[\"'»”]?\s*+(?:[.,;!]|$)", re.M)

# a Wi-Fi's key told as digits, grouped or not: "The wifi key is 8472 9910 3381 4467 9921", "WLAN-Schlüssel: 8472…"
_WIFI_KEY_DIGITS = lazy(
    r"(?i)(?<!\w)(?:wi-?fi|wlan|wpa2?|network|netzwerk|réseau|red|rete|netwerk)[\s-]*+(?:key|schlüssel|clé|cle|clave"
    r"|chiave|sleutel|nyckel|nøgle|nøkkel|ключ|klucz)[^\n:：0-9]{0,20}(?:[:：=]|\s(?:is|ist|est|es|é|è|är|er|jest)\s)\s*+"
    r"[0-9]{4}(?:[ -]?[0-9]{2,8}){1,8}(?![\w-])")

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
        if not any(word in _TALK_WORDS or re.search(r"(?:ed|ing|ly|able|ible|ful|less|ous|ive)$", word) for word in said):
            return True
    return False


# the needles of _FIRST: a halved code and a password in parts start with one
_FIRST_NEEDLES = ("first", "vorne", "zuerst", "erst", "depan", "앞자리", "najpierw", "começa", "comienza", "empieza", "întâi",
      "intai", "önce", "đầu", "trước", "abord", "primero", "primeiro", "prima", "eerst", "först", "først", "ensin",
      "előbb", "először", "πρώτα", "сначала", "спочатку", "pehle", "पहले", "أولا", "kwanza", "먼저", "前面", "前半")
_ANSWERS_NEEDLES = ("answers", "antworten", "risposte", "odpowiedzi", "respostas", "respuestas", "réponses", "reponses",
                    "răspunsuri", "raspunsuri", "svar", "antwoorden", "vastaukset", "odpovědi", "válaszok", "cevaplar",
                    "ответы", "відповіді", "jawaban", "jawapan", "απαντήσεις", "תשובות", "إجابات", "جواب", "答案", "回答", "답변")
_ASKED_ABOUT_NEEDLES = ("maiden", "first", "childhood", "parents", "grew up", "první", "перш", "перв", "първ", "حیوان",
                        "haiwan", "pierwsz", "primo", "premier", "erste", "primera", "primeiro")
_FOUR_DIGITS = re.compile(r"[0-9]{4}").search


# (reason, check, needles in lower case): ``labelled._CHECKS`` runs them after its own
CHECKS = (
    ("looks like a PIN or a lock's code", _lock_then_number, (":", "：")),
    ("looks like a PIN or a lock's code", _CODE_FOR_A_LOCK.search, ("šifr", "шифр", "kód", "kod", "code", "код")),
    ("looks like a PIN that is a year told in words", _YEAR_IN_WORDS_TOLD.search,
     ("nineteen", "thousand", "mil ", "millenovecento", "duemila", "mille", "dix-neuf", "neunzehnhundert", "zweitausend",
      "negentienhonderd", "tweeduizend", "tysiąc", "tysiac", "tysiące", "тысяча", "тысячи", "тисяча", "тисячі",
      "bin dokuz", "iki bin", "אלף", "אלפיים", "ألف", "一九", "一八", "二〇", "二零", "천구백", "이천")),
    ("looks like a PIN or a lock's code", _starred_code, ("*", "#")),
    ("looks like a code told in two halves", _halves, _FIRST_NEEDLES),
    ("looks like a password told in parts", _parts, _FIRST_NEEDLES),
    ("looks like a PIN or a lock's code", _number_before_what_it_opens, ()),
    ("looks like a passphrase told as a sentence", _told_as_a_sentence, (":", "：", " is ", " é ", " è ", " es ", " est ",
                                                                         " ist ", " je ", " jest ", " это ", "是", "は")),
    ("looks like a network's name and its password", _network_and_password, ("/", "|", "·", "•", " ")),
    ("looks like a password (a word, a sign and more)", _token_beside_what_it_opens, ()),
    ("looks like a PIN or a lock's code", _LETTERED_DOOR_CODE.search,
     ("digicode", "code", "código", "codice", "kod", "kód", "код")),
    ("looks like a credential stated in a sentence", _ACCESS_CODE_VALUE.search,
     ("код", "access", "zugangscode", "zugriffscode", "accès", "acceso", "acesso", "accesso", "dostępu", "toegangscode",
      "erişim", "přístupový", "πρόσβασης", "קוד", "رمز")),
    ("looks like a credential stated in a sentence", _WIFI_KEY_DIGITS.search,
     ("key", "schlüssel", "clé", "cle", "clave", "chiave", "sleutel", "nyckel", "nøgle", "nøkkel", "ключ", "klucz")),
    ("looks like a credential stated in a sentence", _ACCENTED_VALUE.search,
     ("passwort", "password", "kennwort", "mot de passe", "contraseña", "senha", "wachtwoord", "hasło", "lösenord", "passord",
      "salasana", "jelszó", "heslo", "parola")),
    ("looks like a passphrase told as a sentence", _plain_words_after_is,
     ("password", "passphrase", "passwort", "mot de passe", "contraseña", "senha", "wachtwoord")),
    ("looks like the answer to a security question", _answers_listed, _ANSWERS_NEEDLES),
    ("looks like the answer to a security question", _ANSWER_AFTER_ASKED.search, _ASKED_ABOUT_NEEDLES),
)
