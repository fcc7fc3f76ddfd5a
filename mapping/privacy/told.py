"""Checks of the labelled layer for a value told by what is said around it, with no label before it.

People tell an assistant a password, a PIN or an answer the way they would tell a relative:

- in two parts and how to join them (``first Bigos, then Krakow2019, together``);
- as a sentence, saying it has spaces (``a sentence with spaces: the cat sleeps on the stove``);
- a digit at a time (``gym locker 1 5 5 3``, ``bike lock: 1-8-5-4``) or in words (``девять пять два
  шесть``), and a dial's numbers (``combination 24 . 11 . 36``);
- as a relative's year of birth (``Papa's card PIN is grandad's year of birth, 1953``);
- by the letters' case (``Rangoli2024, the R a capital``), or set on a child's tablet (``put
  chebur4shka on the tablet``);
- as a token that only a password is: a word, a sign and more (``Feta#Kalamata``, ``Tahdig#99``),
  or words joined by ``_`` and a number after what it opens (``grandma's wifi: Hummus_Haifa8``);
- after the question it answers and where it was given (``favourite teacher, what I told the bank:
  Mrs Kmita``).

The labelled layer runs them after its own (``labelled._CHECKS``), each only where one of its
needles is. Pure functions, no I/O.
"""

from __future__ import annotations

import re

from pdsmem.mapping.privacy.plain import lazy, lowered_search

# A lock, a safe, a locker, a padlock, in the languages people write in (a dial needs one).
_LOCKS = (r"lock|padlock|locker|\bsafe\b|schloss|spind|tresor|schließfach|cadenas|casier|coffre|candado|taquilla"
          r"|caja\s++fuerte|lucchetto|armadietto|cassaforte|\bslot\b|kluis|hangslot|kłódk|szafk|sejf|замок|шкафчик|сейф"
          r"|kilit|dolap|\bkasa\b|kasası|zámek|zámok|skříňk|skrinka|trezor|lakat|szekrény|lås|skåp|dulap|lacăt|seif|θυρίδα"
          r"|λουκέτο|χρηματοκιβώτιο|לוקר|מנעול|כספת|قفل|خزنة|خزانة|تجوری|ताला|लॉकर|তালা|লকার|锁|鎖|储物柜|保险箱|ロック|ロッカー"
          r"|金庫|자물쇠|사물함|금고|ตู้ล็อกเกอร์|กุญแจ|ตู้เซฟ|khóa|két\s++sắt|brankas|gembok|loker|kufuli|பூட்டு"
          # a padlock in Bulgarian (and in Latin letters), a key box in Romanian and in Sinhala, a lock in Nepali, an
          # unlocking number in Amharic (not "መክፈቻ" alone, an opening match)
          r"|катинар|katinar|cutia\s++cu\s++chei(?!\s++imbus)|යතුරු\s*+පෙට්ටි|ताल्चा|መክፈቻ\s*+ቁጥር"
          # a lock in Faroese and Icelandic ("hangilásið", a padlock), in Igbo
          r"|\w*lás|mkpọchi|mkpochi"
          # a safe in Welsh ("sêff")
          r"|\bs[êe]ff\b")
# The words for a password (a passphrase told as a sentence needs one unless it reads as an exercise).
_PASSWORD_WORDS = (r"password|passphrase|pass\s*+phrase|passwort|kennwort|contrase|senha|wachtwoord|hasł|mot\s++de\s++passe|kata\s++laluan"
                   r"|phrase\s++secr|пароль|парол|şifre|parola|jelsz|jelmondat|heslo|lozink|κωδικ|συνθηματικ|סיסמ|كلمة\s*+(?:ال)?سر|پاس"
                   r"|पासवर्ड|密码|パスワード|パスフレーズ|비밀번호|비번|รหัส|mật\s++khẩu|sandi|passord|lösenord|adgangskode|salasana")

# What a secret opens or is, in the languages people write in: a network, a device, an account, a
# service, a lock, a code; the words for a password. Most checks below fire only on a text that
# names one (a fresh-eyes review's recipes, counting rhymes, formations, sheet names and car models
# had the shapes of these values and nothing of the sort).
_CONTEXT = lowered_search(
    # (each word where a word starts: "tili" is in "utilisateur", "lock" in "block", "line" in "online")
    r"(?i)(?<![a-zà-ÿ])(?:wi-?fi|wlan|ওয়াইফাই|ওয়াই-ফাই|וויפיי|ויפי|وائی\s*+فائی|وای\s*+فای|واي\s*+فاي|वाईफाई|वाई-फाई|ไวไฟ|와이파이"
    r"|无线|無線|נטפליקס|نتفليكس|نتفلیکس|넷플릭스|ネットフリックス|router|roteador|routeru|routerul|рутер|роутер|ראוטר|راوتر|روٹر|مودم|modem|공유기|ルーター|路由器"
    r"|routeur|reititin|reitittim|fritz|hotspot|laptop|notebook|computer|compu|ordenador|computador|ordinateur|rechner|komputer|ноутбук|компьютер"
    r"|tablet|ipad|планшет|τάμπλετ|تبلت|تابلت|ট্যাবলেট|टैबलेट|平板|タブレット|태블릿|แท็บเล็ต|máy\s++tính|phone|handy\b|telefon"
    r"|телефон|nas\b|vpn|printer|drucker|imprimante|kindle|chromebook|playstation|xbox|nintendo|console\b|steam\b"
    r"|account|konto|compte|cuenta|conta\b|tài\s++khoản|akun|akaun|hesab|hesap|аккаунт|акаунт|login|log\s++in|inlog"
    r"|logowani|connexion|anmeld|sign\s++in|लॉगिन|লগইন|ログイン|로그인|登录|登入|mail|ईमेल|ইমেইল|ایمیل|إيميل|メール|이메일|邮箱"
    r"|netflix|disney|hulu|spotify|youtube|prime\s++video|hbo|megogo|amazon|paypal|icloud|gmail|outlook|facebook|ফেসবুক|insta|ไอจี"
    r"|tiktok|whatsapp|telegram|zalo|line\b|bank|banco|banca|banque|bancă|банк|בנק|بنك|بانک|बैंक|ব্যাংক|银行|銀行|은행"
    r"|ธนาคาร|ngân\s++hàng|app\b|appen|portal|e-devlet|bpjs|lazada|taxisnet|skatteverket|ziggo|telekom"
    # a PIN's and a code's words in Finnish, Swedish, Danish and Amharic ("tunnusluku", "pinkod", "በር ኮድ", a door's
    # code), a house's alarm switched off in Swahili ("kengele ya nyumba inazimwa kwa …")
    r"|tunnuslu\w*|pinkod\w*|በር\s*+ኮድ|kengele\s++ya\s++(?:nyumba|usalama|mlango|wizi)[^\n.]{0,20}?(?:inazimwa|kuzima|kuzimwa)"
    # short forms and the words for a code
    r"|passw|\bpass\b|\bpw\b|\bpwd\b|haslo|mdp|sifre|كلمة\s*+المرور|رمز|পাসওয়ার্ড|密碼|パス|\bmk\b|nenosiri|\bpin\b|atm\b|пин|пін|پن|পিন|पिन|ਪਿੰਨ(?!\s*+ਕੋਡ)|ピン|\bcode|codice|código|codigo|\bkod|kód|код|קוד"
    r"|door|gate|garage|alarm|keypad|combination|combo|entsperr|unlock|débloqu|desbloque|sblocc|ontgrendel|odblok"
    r"|разблок|" + _LOCKS + "|" + _PASSWORD_WORDS +
    # an account, a login, an e-mail, a phone, a computer, in the languages people write in
    r"|účet|fiók|contul|λογαριασμ|חשבון|حساب|अकाउंट|অ্যাকাউন্ট|账号|帐号|账户|帳號|帳戶|アカウント|계정|บัญชี|kontoen|kontot|tili"
    r"|вход|логин|вхід|přihláš|prihlás|bejelentkez|kirjaud|kirjautu|autentific|σύνδεση|התחבר|تسجيل\s*+الدخول|ورود|लॉग\s*+इन|লগ\s*+ইন|登錄"
    r"|เข้าสู่ระบบ|đăng\s++nhập|masuk|giriş|inloggen|anmeldung|accesso|acceso|acesso"
    r"|почт|пошт|e-?posta|correo|courriel|メール|邮件|이메일|อีเมล|البريد|דוא\"ל|אימייל|surel|barua\s++pepe"
    r"|τηλέφωνο|טלפון|هاتف|گوشی|موبائل|फ़ोन|फोन|ফোন|手机|手機|スマホ|携帯|휴대폰|핸드폰|โทรศัพท์|điện\s++thoại|ponsel|simu\b"
    r"|celular|móvil|movil|cellulare|telefoon|komórk|mobile\s++phone|вай-?фай|واي\s*+فاي|ワイファイ|无线网|無線網路"
    r"|компьютер|комп.ютер|bilgisayar|počítač|számítógép|υπολογιστ|מחשב|كمبيوتر|حاسوب|کامپیوتر|कंप्यूटर"
    r"|কম্পিউটার|电脑|電腦|パソコン|컴퓨터|คอมพิวเตอร์|kompyuta"
    # services people name, beyond the ones above
    r"|shopee|tokopedia|gojek|gcash|m-pesa|mpesa|paytm|phonepe|upi\b|bkash|nagad|jazzcash|easypaisa"
    r"|kaspi|sber|gosuslugi|госуслуг|yandex|яндекс|vk\b|wechat|微信|alipay|支付宝|taobao|淘宝|naver|kakao|rakuten"
    r"|mercado\s++(?:libre|pago)|nubank|itaú|itau|bradesco|revolut|n26|sparkasse|swish|vipps|mobilepay|allegro|olx|blik"
    r"|monobank|privat24|diia|дія|trendyol|hepsiburada|turkcell|hotmail|yahoo|proton|skype|discord"
    r"|twitch|epic\s++games|fortnite|minecraft|roblox|xfinity|comcast|vodafone|movistar|telcel|airtel|jio\b)")

# --- a value in two parts, and how to join them ---------------------------------------------------

# "together", "no space", "joined" where a value is told in parts, in the languages people write in
_JOINED_WORDS = (
    r"(?i)(?<!\w)(?:together|joined|no\s++spaces?|without\s++(?:a\s++)?spaces?|one\s++word|run\s++together"
    r"|coll[ée]s?|attach[ée]s?|zusammen(?:geschrieben)?|ohne\s++leerzeichen|am\s++st[üu]ck|razem|[łl][aą]cznie"
    r"|junts?|junt[oa]s?|todo\s++junto|pegad[oa]s?|colad[oa]s?|insieme|attaccat[oi]|tutto\s++attaccato|samen|aan\s++elkaar"
    r"|vast\s++aan\s++elkaar|ihop|tillsammans|sammen|i\s++ett\s++ord|bitişik|birleşik|dikit|magkadikit|viết\s++liền"
    r"|liền\s++nhau|digabung|disambung|tanpa\s++spasi|слитно|вместе|разом|злито|împreună|lipit[eă]?|dohromady"
    r"|dokopy|spolu|együtt|egybe|μαζί|κολλητά|ביחד|צמוד(?:ים)?|ملزوق(?:ين|ة)?|مع\s*+بعض|چسبیده|چسبیده\s*+بنویس"
    r"|saath\s++(?:mein|me)|एक\s*+साथ|মিলিয়ে|একসাথে|ติดกัน|连在一起|連在一起|连着|連著|つなげて|続けて|붙여서|붙여|붙여\s*+써)"
    r"(?!\w)"
)
_JOINED = lazy(_JOINED_WORDS)
# a part a value is made of: a word of four letters or more, a word with digits, or digits
_PART_WITH_DIGITS = lazy(r"(?<![\w#@$%&*!])(?=[\w#@$%&*!]{0,30}?[0-9])(?=(?:[^\W\d_]|[0-9#@$%&*!_]){0,30}?"
                         r"(?:[^\W\d_][0-9#@$%&*!_]{0,8}){3})[\w#@$%&*!]{3,30}"
                         r"(?![\w#@$%&*!])")
# what says the parts come in an order: "first … then", "vorne … hinten", "前面 … 后面"
_ORDER = lazy(
    r"(?i)(?<!\w)(?:first|then|second\s++half|first\s++half|d['’]abord|puis|zuerst|erst|dann|danach|vorne|hinten"
    r"|najpierw|potem|primero|luego|despu[ée]s|primer|despr[ée]s|primeiro|depois|prima|poi|eerst|daarna|f[öo]rst"
    r"|sedan|önce|sonra|pehle|phir|muna|tapos|đầu\s++là|sau\s++là|сначала|потом|спочатку|потім|mai\s++[îi]nt[âa]i"
    r"|apoi|nejd[řr]ív|pak|először|aztán|πρώτα|μετά|קודם|ואז|أولاً|أولا|بعدها|ثم|اول|بعد|pertama|lalu|kemudian)(?!\w)"
    r"|前面|后面|後面|前半|後半|앞은|뒤는|먼저|다음"
)


def _told_in_parts(text: str) -> bool:
    """A value told in parts to be joined: a word that says so, an order, and a part with digits
    ("najpierw Bigos, potem Krakow2019, razem"); or a password's words, then a word that says they are
    written together ("Ons Netflix-wachtwoord is frietjes met mayo, aan elkaar geschreven")."""
    if not _JOINED.search(text):
        return False
    if _ORDER.search(text) and _PART_WITH_DIGITS.search(text) and _CONTEXT(text):
        return True
    for match in _WORDS_THEN_JOINED.finditer(text):
        words = set(match["words"].lower().split())
        if not words & _NO_VALUES_WORDS and not _A_RULE.search(text, max(0, match.start() - 40), match.start("words")):
            return True  # (not a rule's: "the password must be three random words, no spaces")
    return False


_IS = r"(?:is|was|ist|est|es|er|är|é|è|jest|je|on|to|c['’]est)"
# a password's word, its first "is" or a colon, two to five words, then a comma (or "with") and a word that says they are
# written together ("Het wachtwoord is frietjes met mayo, aan elkaar geschreven", "… purple monkey dishwasher
# with no spaces"; not "the password is something we decided together")
_WORDS_THEN_JOINED = lazy(
    r"(?i)(?:" + _PASSWORD_WORDS + r")(?:(?!\s" + _IS + r"\s)[^\n.:：,]){0,25}?(?:\s" + _IS + r"\s|[:：])"
    r"\s*+[\"'“„«]?(?P<words>[^\W\d_]++(?:\s++[^\W\d_]++){1,4})[\"'”»]?"
    r"(?:\s*+[,(–—-]\s*+(?:all\s++|alles\s++|tout\s++|todo\s++|tutto\s++|helemaal\s++)?|\s++with\s++(?=no\s))"
    + _JOINED_WORDS.removeprefix("(?i)"))
# words that tell what a password is made of or like, not what it is: "the password is three random words, no
# spaces", "dog name and birth year, together", "Vorname und Geburtsjahr, zusammen"
_NO_VALUES_WORDS = frozenset(
    "words word characters letters digits numbers random long short strong weak easy hard simple secure safe "
    "two three four five six seven eight several some same different something what usual before name names "
    "year birth birthday date number address street surname plus "
    "woorden wörter mots palabras parole palavras słowa слова ord zeichen caractères caracteres vorname nachname "
    "geburtsjahr geburtstag postcode huisnummer hausnummer straße strasse nombre apellido nom prénom".split())


# a code told in two or three parts of digits, in order ("Key box: first 36, then 90", "המפתחות בקופסה ליד
# הדלת: קודם 36, ואחר כך 90"); the last part ends its clause or another "then" follows (not "first 10, then 20
# minutes")
_FIRST = (r"(?:first|erst|zuerst|d['’]abord|primero|primeiro|prima|eerst|f[öo]rst|najpierw|сначала|спочатку|önce|pehle"
          r"|קודם|أولاً|أولا|اول|पहले|আগে|まず|먼저|dulu|pertama|πρώτα|snachala|spochatku|awwalan|awalan|avval|aval"
          # Greek in Latin letters, Malay's "first of all"
          r"|prwta|prota|mula-?mula|mula2)")
_THEN = (r"(?:then|and\s++then|after\s++that|dann|danach|und\s++dann|puis|ensuite|et\s++puis|luego|despu[ée]s|y\s++luego"
         r"|depois|e\s++depois|poi|e\s++poi|daarna|sedan|potem|a\s++potem|потом|потім|а\s++потім|sonra|phir|ואז"
         r"|ו?אחר\s*+כך|ثم|بعدها|بعد\s*+ذلك|फिर|তারপর|然后|次に|그다음|lalu|kemudian|(?:και\s++)?μετά|έπειτα|potom|zatem|thumma|thomma|ba3dain|ba3deen"
         # Persian in Latin letters ("code-e dar-e parking: avval 52, baad 81")
         r"|baad|ba['’]d|ba3d|meta)")
# (each part together or a digit at a time: "prima 35 poi 91", "prima 3 5 poi 9 1")
_PART = r"\s*+[:,]?\s*+(?<![0-9])(?:[0-9]{2,4}|[0-9](?: [0-9]){1,3})(?![0-9])"
# the first part, "then" and the second, maybe "then" and a third, the last ending its clause or before another "then"
_AFTER_THE_FIRST_PART = (r"\s*+[,;،]?\s*+" + _THEN + _PART + r"(?:\s*+[,;،]?\s*+" + _THEN + _PART + r")?"
                         r"(?=\s*+(?:이야|야|이에요|예요|입니다)?\s*+(?:[.,;!)。،]|$)|\s*+[,;،]?\s*+" + _THEN + r"(?!\w))")
_PARTS_IN_ORDER = _PART + _AFTER_THE_FIRST_PART
# (maybe with what keys the first part in, and where: "first press 62 on the keypad, then 18")
_CODE_IN_ORDER = lazy(r"(?i)(?<!\w)" + _FIRST + r"(?:\s++(?:press|enter|type|key\s++in|punch\s++in|tap))?" + _PART
                      + r"(?:\s++on\s++the\s++(?:keypad|panel|pad|keys))?" + _AFTER_THE_FIRST_PART)
# (a lock's, a door's, a key box's code, a PIN: not an exit, an HTTP, a version's or an area code, "the area code
# is 020, then 7946", nor a gate's at an airport)
_CODE_IS_THEN = lazy(r"(?i)(?<!\w)(?:(?:door|lock|safe|keypad|key\s*+box|lockbox|alarm|garage|entry|access|building|flat"
                     r"|apartment|shed)\s*+code|pin|passcode|combination)\s*+"
                     r"(?:is|was|:|est|ist|es|è|é|er|är)" + _PARTS_IN_ORDER
                     # a Korean password or door lock's number, then "first" ("현관 비밀번호는 먼저 12, 그다음 78이야";
                     # not "비번", also a day off duty)
                     + r"|(?:비밀번호|도어락\s*+번호)(?:는|은)\s*+먼저" + _PARTS_IN_ORDER)
# what such a code opens, named on its line: a code's own word, a lock, a safe, a keypad or a key box, each a
# whole word (not "doctor", "navigate", "indoor", nor "first" in Hebrew, "קודם", which holds "קוד", code); or
# keys and a box (not a door or a gate alone: "Buses to the school gate: first 36, then 90")
_A_CODES_OR_LOCKS_WORD = lazy(
    r"(?i)(?<![^\W\d_])(?<!-)(?:codes?|kod[eu]?|koden|koodi|c[óo]digo|codice|codi|pin|passcode|combination|combo|keypad"
    # a lock or a safe as a thing, not "safe driving", "lock-in rates", "keep it safe"
    r"|key\s*+box|lock\s*+box|key\s*+safe|padlock|(?:the|a|my|our|his|her|their|hotel|room|office|wall|gun|floor|home|bike"
    r"|combination|gym|shed|front|back|door|gate|garage)\s++(?:safe|lock)(?![\w-])|(?:safe|lock)\s*+code"
    r"|alarm\s*+(?:code|panel|pad)|schlüssel(?:kasten|box|safe|tresor)"
    r"|zahlenschloss|schloss|tresor|bo[îi]te\s++[àa]\s++cl[ée]s|cadenas|coffre|candado|caja\s++fuerte|cofre|cadeado"
    r"|lucchetto|cassaforte|sleutelkluis|kluis|nyckelbox|kodlås|sejf|szyfr|kłódk\w*|замок|сейф|код\w*|kilit\w*|şifre\w*"
    r"|ה?קוד|ה?כספת|ה?מנעול|(?:ال)?كود|(?:ال)?رمز|(?:ال)?قفل|(?:ال)?خزنة|কোড|তালা|कोड|ताला|暗証|密码|暗码|도어락|ramz"
    r"|k[wo]dik\w*"  # (Greek's "code" in Latin letters)
    # a door's, a lock's or an alarm's code in Greek (not a course's, a postcode); what opens so, right before
    # its parts: "To open the garden gate: first 47, then 19", "The garage opens with first 83 then 51" (not "The
    # recipe opens with a hot oven: first 220, then 180", "… the garden gate for the craft fair stalls: first 0800")
    r"|κωδικ\w*\s++(?:της|του)\s++(?:πόρτας|εξώπορτας|κλειδαριάς|συναγερμού|χρηματοκιβωτίου|γκαράζ|θυροτηλεφώνου"
    r"|αποθήκης|πολυκατοικίας)|(?:gate|door|garage|safe|lock)\s++opens\s++with"
    r"|open\s++the\s++(?:[^\W\d_]++\s++)?(?:gate|door|garage|shed|safe|lock)\s*+[:：])"
    r"(?![^\W\d_])")
# Persian's "first" in Latin letters, and what such a code opens (a door, a parking, a lock, a safe, a locker)
_FIRST_IN_FINGLISH = lazy(r"(?i)avv?al(?![a-z])")
_A_LOCK_IN_FINGLISH = lazy(r"(?i)(?<![a-z])(?:dar(?:-?e)?|darb|parking|ghofl\w*|gavsandogh|kamad)(?![a-z])")
# the way into a building, and a pad the first part is keyed in on ("… first press 62 on the keypad, then 18")
_A_WAY_IN = lazy(r"(?i)(?<![^\W\d_])(?:get(?:ting)?\s++in(?:to)?|building|door|gate|entrance|entry|lobby)(?![^\W\d_])")
_A_PAD = lazy(r"(?i)\s++on\s++the\s++(?:keypad|panel|pad|keys)(?![^\W\d_])")
_KEYS_WORD = lazy(r"(?i)(?<![^\W\d_])(?:keys|schlüssel|clés|llaves|chiavi|sleutels|nycklar|klucze|ключи|anahtar\w*|ה?מפתחות"
                  r"|(?:ال)?مفاتيح|চাবি\w*)(?![^\W\d_])")
_BOX_WORD = lazy(r"(?i)(?<![^\W\d_])(?:box|kasten|bo[îi]te|caja|scatola|doos|låda|pudeł\w*|коробк\w*|kutu\w*|ב?קופס\w*"
                 r"|תיבת|(?:ال)?صندوق|বাক্স\w*)(?![^\W\d_])")


def _code_in_ordered_parts(text: str) -> bool:
    """A code in ordered parts, the name of what it opens in its sentence before it ("Keys are back in the
    box by the door; bins go out first 07, then 19" is no code); or right after a code's name and "is"
    ("Shared flat door code is 48 then 27, press the key symbol after")."""
    if _CODE_IS_THEN.search(text):
        return True
    for match in _CODE_IN_ORDER.finditer(text):
        before = text[_sentence_start(text, match.start()):match.start()]
        if _FIRST_IN_FINGLISH.match(match[0]) and not _A_LOCK_IN_FINGLISH.search(before):
            continue  # Persian's "first" in Latin letters, of a door, a parking, a lock or a safe only (not "code-e
            # takhfif-e Digikala: avval 15, baad 25", a discount's)
        if (_A_CODES_OR_LOCKS_WORD.search(before) or _KEYS_WORD.search(before) and _BOX_WORD.search(before)
                or _A_WAY_IN.search(before) and _A_PAD.search(match[0])):
            return True  # (or keyed in on a pad, the way into a building: "To get into the office building: first
            # press 62 on the keypad, then 18"; not a microwave's or a vending machine's keypad)
    return False


def _sentence_start(text: str, at: int, reach: int | None = None) -> int:
    """Where the sentence holding ``at`` starts: after its line's start or the last full stop or semicolon
    (``reach`` characters back at most, if given)."""
    start = text.rfind("\n", 0, at) + 1
    if reach is not None:
        start = max(start, at - reach)
    for stop in (". ", "; ", "! ", "? ", "。"):
        found = text.rfind(stop, start, at)
        while stop == ". " and found >= 0 and _AN_ABBREVIATION.search(text, max(start, found - 6), found + 1):
            found = text.rfind(stop, start, found)  # (not after "Str.", "Dr.", "Nr.": "… (Str. Observatorului) …")
        if found >= 0:
            start = found + len(stop)
    return start


# a short word a full stop ends that ends no sentence: a street's, a doctor's, a number's, a saint's
_AN_ABBREVIATION = lazy(r"(?<![^\W\d_])(?:str|dr|nr|no|st|bd|ave|rd|mr|mrs|ms|prof|sv|ul|pl)\.$", re.IGNORECASE)


# --- a passphrase told as a sentence with spaces --------------------------------------------------

_SPACES = (
    r"(?:spaces|spaties|spazi|espaces|espacios|espaços|espais|leerzeichen|spacjami|spacjach|пробелами|пробілами"
    r"|razmacima|razmakom|spații|spatii|κενά|רווחים|مسافات|بمسافات|فاصله|اسپیس|boşluklarla|boşluklu|mezerami"
    r"|medzerami|mellomrom|mellanslag|mellemrum|szóközökkel|szóközzel|เว้นวรรค|スペース|띄어쓰기|空格|dấu\s++cách"
    r"|spasi|nafasi|интервали|välilyön\w*|स्पेस|স্পেস)"
)
_SENTENCE = (
    r"(?:sentence|phrase|passphrase|words|wörter|mots|palabras|palavras|woorden|słowa|слова|zin|frase|satz|zdanie|фраза|фразой|предложение|речення|rečenica|propoziți[ea]"
    r"|propozitie|πρόταση|φράση|משפט|جملة|العبارة|عبارة|جملہ|جمله|پاس\s*+فریز|cümle|věta|veta|setning|mening"
    r"|sætning|mondat|jelmondat|ประโยค|文章|문장|句子|câu|kalimat|sentensi|sentència|изречение|вираз)"
)
# the sentence, then its words after a colon or "is": three words or more to the end of the text
_PASSPHRASE_TOLD = lazy(
    r"(?i)(?:" + _SENTENCE + r"[^\n]{0,80}?" + _SPACES + r"|" + _SPACES + r"[^\n]{0,80}?" + _SENTENCE + r")"
    r"[^\n:：]{0,40}?(?:[:：]|\s(?:c['’]est|is|ist|é|è|es|est|jest|je|er|är|to)\s)\s*+[\"'“„«]?"
    r"(?:[^\W\d_][^\n:：]{2,80}?(?:\s++[^\W\d_][\w'’-]*+){2,12}|[\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{6,40})"
    r"\s*+[\"'”»]?[.!]?\s*+(?:,[^\n]{0,60})?$"
    # or the words first and then the sentence: "la phrase secrète c'est le chat …, avec les espaces"
    r"|(?i:(?:" + _SENTENCE + r")[^\n,:]{0,30}?\s(?:c['’]est|é|è|is|ist|es)\s++[^\W\d_][^\n,:]{2,80}?,\s*+"
    r"(?:with|avec|com|con|mit|met|z|с|з)\s++(?:the\s++|les\s++|gli\s++|os\s++|los\s++)?" + _SPACES + r")"
    r"|(?:" + _SENTENCE + r")[^\n]{0,40}?(?:スペースなし|without\s++spaces|sans\s++espaces|sin\s++espacios|sem\s++espaços"
    r"|senza\s++spazi|ohne\s++leerzeichen|zonder\s++spaties|bez\s++spacji|без\s++пробелов|без\s++пробілів)"
    r"[^\n:：]{0,20}?[:：]\s*+\S{6,}"
)
# a rule for passphrases, not one: "can", "must", "allowed", "should"
_A_RULE = lazy(r"(?i)(?<!\w)(?:can|may|must|should|allowed|allow|kann|darf|muss|peut|doit|puede|debe|pode|deve|può"
               r"|mag|moet|może|musi|может|должн|může|musí|kan|må|bisa|harus|boleh|phải|có\s++thể|不能|可以|必须"
               r"|できる|해야|가능|policy|rule|rules|regel|règle|regla|regola|requirement|example|e\.g\.)(?!\w)")


# a typing exercise, a poster, a quote: a sentence with spaces that is no one's passphrase
_AN_EXERCISE = lowered_search(r"(?i)typing|exercise|practi[cs]|poster|lesson|class|übung|ejercicio|exercice|esercizio"
                              r"|oefening|ćwiczeni|упражнени|mecanograf|dactylo|dictation|diktat|dictée|quote|proverb"
                              r"|motto|song|lyric|banner|headline|title|slogan|reads|zitat|cita|citation|sprichwort")
_A_PASSWORDS_WORD = lowered_search("(?i)" + _PASSWORD_WORDS)


def _passphrase_told(text: str) -> bool:
    if not _PASSPHRASE_TOLD.search(text):
        return False
    before_value = re.split(r"[:：]", text, maxsplit=1)[0]  # ("can" inside the passphrase is no rule)
    return not _A_RULE.search(before_value) and (_A_PASSWORDS_WORD(text) or not _AN_EXERCISE(text))


# --- a code a digit at a time, in digits or in words ---------------------------------------------

# four to eight single digits apart, the same way each time ("1 5 5 3", "1-8-5-4", "2 0 4 8")
_DIGITS_APART = lazy(r"(?<![\w.,/-])[0-9](?:(?: [0-9]){3,7}|(?:-[0-9]){3,7}|(?: - [0-9]){3,7}|(?:–[0-9]){3,7}"
                     r"|(?: – [0-9]){3,7}|(?:·[0-9]){3,7}|(?:/[0-9]){3,7}|(?: ?、 ?[0-9]){3,7}"
                     # or "then" between them: "Door code: 1 then 9 then 7 then 3."
                     r"|(?:,? then [0-9]){3,7}"
                     # a comma between, right after a code's name and "is" or a colon ("PIN is 4, 7, 1, 9", "Door code: 8, 3,
                     # 0, 5"), or after "digit by digit" and a colon ("podyktowany cyfra po cyfrze: 8, 3, 0, 5")
                     r"|(?<=[:：] [0-9])(?:, [0-9]){3,7}|(?<=\s[0-9])(?:, [0-9]){3,7})"
                     r"(?![\w:/–·-]|,\s*+[0-9]|,[^\s0-9]|\.[0-9]|\s[0-9](?![0-9])|\s[-–]\s[0-9])")  # (a comma and a word may follow)
# a dial's numbers: "24 . 11 . 36", "24-11-36" after the word for a combination
_DIAL = lazy(r"(?i)(?<!\w)(?:combination|combo|combinaison|combinazione|combinaci[óo]n|combina[çc][ãa]o|kombination"
             r"|kombinacja|szyfr|комбинаци\w*|şifre|kombinace|kombinasi|kombination\w*|combinaison\w*|cyfuniad|konbinazio\w*)"
             r"(?!\w)[^\n]{0,40}?"
             r"(?<![0-9])[0-9]{1,2}(?:\s*+([.-])\s*+[0-9]{1,2}){2,3}(?![0-9])"
             r"|(?i:(?<![0-9])[0-9]{2}\.[0-9]{2}\.[0-9]{2}(?![0-9])[^\n]{0,60}?"
             r"(?:combinaison|combination|combinazione|combinación|kombination))")
# a lock a dial opens ("combination" alone is also of spices, of training sets), or a cabinet in Danish and
# Norwegian ("Narkoskabet på apoteket: kombinationen er 28-05-61"; a cabinet alone is no lock: "Skapet på badet …")
_A_LOCK = lowered_search("(?i)" + _LOCKS)
_A_DIALS_LOCK = lowered_search("(?i)" + _LOCKS + "|skabet|skapet")


def _dial(text: str) -> bool:
    return bool(_DIAL.search(text)) and _A_DIALS_LOCK(text)


# a dial's moves: "Closet safe: turn to 18, then 33, then 06", "left to 12, right to 38, left to 4"
_DIAL_MOVES = lazy(r"(?i)(?<!\w)(?:safe|lock|locker|padlock|combination|combo|dial|tresor|coffre|caja\s++fuerte|cassaforte"
                   r"|candado|cadenas|lucchetto|kluis|hänglås|kłódk\w*|сейф|сеф|замок|sef|సేఫ్|ሳንዱቕ)(?!\w)[^\n]{0,60}?"
                   # (and "left to" and "right to" in Ukrainian, Russian and Serbian: "Сейф у канцелярії: вліво до 18,
                   # вправо до 44, вліво до 9"; not directions, "вліво 2 зали")
                   r"(?<!\w)(?:turn|spin|rotate|left|right|links|rechts|gauche|droite|izquierda|derecha|sinistra|destra"
                   r"|(?:вліво|вправо|влево|лево|десно)\s++до"
                   # (Slovene's and Croatian's "desno na", Kyrgyz's "оңго", Telugu's "కుడికి", Tigrinya's "ናብ የማን",
                   # right before its number, not a way's: "desno od vrat 2 metra", "desno na 2. rampu", "కుడికి 2 కి.మీ")
                   r"|(?:(?:desno|levo|lijevo)(?:\s++na)?|оңго|солго|కుడికి|ఎడమకు|የማን|ጸጋም)"
                   r"(?=\s*+[0-9]{1,2}(?![0-9.])(?!\s*+(?:m|km|kilomet\w*|metr\w*|metar\w*|mjest\w*|mest\w*|ulic\w*|కి)(?![^\W\d_]))))"
                   r"(?!\w)[^\n0-9]{0,12}?(?<![0-9])[0-9]{1,2}(?![0-9])(?:[^\n0-9]{1,24}?(?<![0-9])[0-9]{1,2}(?![0-9])){2,3}"
                   # or in Japanese, a safe's or a padlock's, each direction with its particle: "金庫の番号：右に36、左に12、右に48"
                   r"|(?:金庫|南京錠|ダイヤル)[^\n]{0,20}?(?:[右左]に?\s*+[0-9]{1,2}[、,\s]*+){3,4}"
                   # or each number before its direction: "Safe combination is 12 left, 34 right, 56 left"
                   r"|(?i:(?<!\w)(?:safe|lock|locker|padlock|combination|combo|dial)(?!\w)[^\n0-9]{0,40}?"
                   r"(?:(?<![0-9])[0-9]{1,2}\s++(?:left|right|links|rechts|gauche|droite|izquierda|derecha)(?!\w)[,;\s]*+){3,4})")


# what a run of single digits also is: a score, an example, a date's parts, a rating
_NOT_A_CODE_APART = lazy(r"(?i)(?<!\w)(?:score|scored|won|lost|rating|rated|stars|sterne|étoiles|vote|votes|example"
                         r"|e\.g\.|such\s++as|like|sequence|countdown|steps|step|level|levels|version|ver\.|v\."
                         # a phone's extension: "the extension for the pharmacy is 2-3-0-1"
                         r"|extension|ext\.?|durchwahl|poste|interno|phone|tel\.?|telefon\w*|number|nummer|numéro|número"
                         r"|numero"
                         # a team's formation: "a 4-2-3-1 formation", "the lineup: 4-4-2"
                         r"|formation|line-?up|aufstellung|formación|alineación|formazione|opstelling|formação)(?!\w)")


# what names another number, right before the digits with no colon between (a code is told after its
# name and a colon, "storage room: 4 1 2 7")
_ANOTHER_NUMBERS_NAME = lazy(
    r"(?i)(?<!\w)(?:rooms?|zimmer|chambre|habitaci[óo]n|stanza|kamer|errors?|fehler|erreur|product|produkt|produit|model"
    r"|modell|modèle|modelo|port|invoice|rechnung|facture|factura|items?|article|artikel|order|bestellung|commande"
    r"|pedido|ticket|flat|apartment|apt\.?|house|seat|page|chapter|aisle|platform)(?:\s++(?:no\.?|nr\.?|number|nummer))?"
    r"[^\S\n]++$"
    # an order's number and a date in Bulgarian and Russian ("поръчка номер 4 1 7 2 8", "дата 1 4 0 2")
    r"|(?<!\w)(?:(?:поръчка|заказ)\s++)?(?:номер|дата|date|datum)[^\S\n]++$"
    r"|(?:ቤት|ክፍል|ስልክ)\s*+ቁጥር\s*+$")  # a house's, a room's, a phone's number in Amharic


# what opens with digits told one at a time, right before them ("La tablette de mamie s'ouvre avec 1 9 4 6, …",
# "bommen åbner på 6 1 9 0 når …", "Amma opnar spjaldtölvuna með 2 2 0 6"), the thing it opens named before in
# its sentence; and a key box, a few words before them in the same clause ("Cajetín de llaves del piso: 3-3-8-0",
# "kutija za kljuceve u stanu 2-2-1-6, …"); each time the digits end their clause (not "Le concert s'ouvre avec
# 4 7 1 6, une grille d'accords", "Butikken åbner på 1 3 5 7 etage", "kutija za ključeve u Pevexu, police 2 4 6 8")
_OPENS = (r"opens\s++with|opens\s++on|s['’]ouvre\s++avec|öffnet\s++(?:sich\s++)?mit|si\s++apre\s++con|se\s++abre\s++con"
          r"|abre\s++con|abre\s++com|åbner\s++(?:på|med)|åbnes\s++med|öppnas\s++med|öppnar\s++med|åpnes\s++med|åpner\s++med"
          r"|opnar\s++[^\W\d_]++\s++með|opnast\s++með|otwiera\s++się|aukeaa|avautuu"
          # the imperative ("key drop box: open with 9-1-6-2"), Greek and Greeklish, Swahili ("inafunguka kwa")
          r"|open\s++with|ανοίγει\s++με|ανοιγει\s++με|anoigei\s++me|(?:ina|hu)fungu(?:ka|liwa)\s++kwa"
          # Belarusian's "opens so:" ("Гараж адчыняецца так: восем, два, восем, два")
          r"|адчыняецца\s++так\s*+[:：]?")
_KEY_BOXES = r"cajet[íi]n\s++de\s++llaves|caja\s++de\s++llaves|kutij\w*\s++za\s++klju[čc]\w*"
_OPENS_WITH_DIGITS = lowered_search(r"(?i)(?<![a-zà-ÿ])(?:" + _OPENS + "|" + _KEY_BOXES + ")")
_OPENER_BEFORE = lazy(r"(?i)(?<![^\W\d_])(?:(?P<verb>" + _OPENS + r")|(?:" + _KEY_BOXES + r")[^\n,.;:0-9]{0,40}?[:：]?)\s*+$")
_ENDS_ITS_CLAUSE = lazy(r"\s*+(?:[,.;!)]|$|(?i:(?:when|if|når|när|wenn|quand|cuando|quando|kun|jos|kiedy|als)(?!\w)))")
# what such a verb opens: a door, a gate, a barrier, a tablet, a phone (besides the words of ``_CONTEXT``)
_OPENED_THING = lowered_search(
    r"(?i)(?<![a-zà-ÿ])(?:door|gate|barrier|porte|portail|puerta|port[óo]n|porta|port[ãa]o|tür|tor|schranke|deur|poort"
    r"|slagboom|d[øo]r(?:en)?|dörr(?:en)?|port(?:en)?|bom(?:men)?|bommen|hurð\w*|hlið\w*|drzwi|brama|szlaban|ovi|portti"
    r"|puomi|grind\w*|skur\w*|shed|schlüssel\w*|key\s*+(?:drop\s*+)?box|lock\s*+box|πόρτα|κουτί\s++με\s++τα\s++κλειδιά|κλειδ\w*|simu(?![a-z])"
    r"|tablet\w*|tablette|spjaldtölv\w*|tölv\w*|sím\w*|phone|téléphone|telefon\w*|handy|laptop"
    r"|ordinateur|computer|garage|гараж\w*)")


def _opened_right_before(text: str, match: re.Match[str]) -> bool:
    found = _OPENER_BEFORE.search(text, max(0, match.start() - 60), match.start())
    if found is None or not _ENDS_ITS_CLAUSE.match(text, match.end()):
        return False
    before = text[_sentence_start(text, found.start()):match.start()]  # (the verb's own words too: "opnar spjaldtölvuna með")
    if found["verb"] and found["verb"].lower().startswith("open "):  # the imperative, of a box or a lock only:
        return _TOLD_FOR.search(before) is not None  # not "Band practice at the Gate pub: open with 1 5 6 4, …"
    return not found["verb"] or bool(_CONTEXT(before) or _OPENED_THING(before))


# a code's name right before its digits, then "is" or a colon ("PIN is ", "Door code: ", "Kod: ")
_A_CODE_IS_TOLD = lazy(r"(?i)(?<!\w)(?:code|pin|passcode|pincode|combination|kod|kode|koodi|código|codice|код)"
                       r"\s*+(?:is|was|ist|est|es|er|är|on|je|jest|è|é|:|：|=)\s*+$"
                       # "goes", only of a lock's code: "The key safe code goes like 4, 7, 1, 9" (not a zip code's)
                       r"|(?i:(?<!\w)(?:door|gate|lock|safe|keypad|alarm|garage|entry|key\s*+box|lockbox)\s*+code\s++goes"
                       r"(?:\s++like)?\s*+[:：]?\s*+$)")
_ONE_BY_ONE = (r"(?:digit\s++by\s++digit|one\s++digit\s++at\s++a\s++time|cyfra\s++po\s++cyfrze|ziffer\s++für\s++ziffer"
               r"|chiffre\s++par\s++chiffre|d[íi]gito\s++(?:a|por)\s++d[íi]gito|cifra\s++per\s++cifra|cijfer\s++voor\s++cijfer)")
_DIGIT_BY_DIGIT = lazy(r"(?i)" + _ONE_BY_ONE + r"[^\n0-9]{0,12}?[:：]\s*+$")
# four to eight digits each alone among words after "digit by digit", on a PIN's, a code's or a lock's line: "My phone
# unlock PIN, digit by digit: first 7, then 3, then 9, and the last one is 1"
_DIGITS_ONE_BY_ONE = lazy(r"(?i)" + _ONE_BY_ONE + r"(?:[^\n0-9]{1,25}?(?<![0-9])[0-9](?![0-9]|[.,:/][0-9])){4,8}"
                          r"(?![^\n0-9]{0,25}?[0-9])")


def _digits_one_by_one(text: str) -> bool:
    return any(_DIGITS_ONE_BY_ONE.search(line) and _TOLD_FOR.search(line) for line in text.splitlines())


# the words for a password beside digits (not Persian's "پاس" of "پاسخ", an answer, and "پاسپورت", nor "Sandi", a
# name, nor Brazil's "senha da fila", a queue's ticket)
_PASSWORD_NAMES = (_PASSWORD_WORDS.replace("|پاس", "|پاسورد|پسورد").replace("|sandi", "|kata\\s++sandi")
                   .replace("|senha", "|senha(?!\\s++(?:da|de)\\s++(?:fila|atendimento))"))
# on the line of digit names ("फ़ोन का पासवर्ड सात तीन नौ एक")
_A_PASSWORD_NAMED = lazy("(?i)" + _PASSWORD_NAMES)
# right before digits told one at a time, maybe with whose it is ("senha de supervisor 3 3 7 1 0, só pra estorno",
# "비번 0 9 1 7 3, 환불할 때만 씀"; not "A senha da fila era 4 7 3 9, …")
_A_PASSWORD_RIGHT_BEFORE = lazy(
    r"(?i)(?<![^\W\d_])(?:" + _PASSWORD_NAMES + r")\w*"
    r"(?:\s++(?:de|do|du|da|of|for|für|pro|para|del)\s++(?!fila|atendimento)[^\W\d_]++)?\s*+[:：]?\s*+$"
    # or of a door, a gate, a lock, a safe or an alarm, maybe of a room, then "now is": "A senha da porta do raio-x
    # agora é 3 7 2 9, …" (not a queue's ticket, "A senha do laboratório agora é 4 0 7 1", which Brazil calls so)
    r"|(?<![^\W\d_])(?:" + _PASSWORD_NAMES + r")\w*(?:\s++(?:de|do|da|of|for|to|the)){1,2}\s++"
    r"(?:porta|port[ãa]o|portaria|door|gate|cadeado|cofre|alarme|alarm|garagem|garage|lock|safe|padlock)(?![^\W\d_])"
    r"(?:\s++(?:de|do|da|of|the)\s++[^\W\d_][\w-]*+)?\s++(?:agora\s++|now\s++)?(?:é|is)\s*+[:：]?\s*+$")
_A_DIGIT_RUN = lazy(r"[0-9](?: [-–] |, |[ /·–-]|,? then )[0-9](?: [-–] |, |[ /·–-]|,? then )[0-9](?: [-–] |, |[ /·–-]|,? then )[0-9]").search  # what every match holds, found at C speed


# a keypad's key pressed right after the digits ("5 2 8 1, then star", "4 4 1 7 і зірочка", "2 0 8 8 pis le
# piton vert", "4、0、7、3 の順に押す", "įvedi 3 9 0 5 ir spaudi OFF", "กด 9 2 2 6 แล้วกด OFF"): what one keys in, on a
# line that names a keypad, an alarm, a door or a gate (``_A_PANEL``; not a remote's, an oven's or a school
# report's: "… enter 1 0 6 0 and press OK", "Noten 2 1 3 2 und ein Stern im Heft")
_STAR_OR_HASH = (r"(?:star|hash|pound|asterisk|зірочк\w*|звёздочк\w*|звездочк\w*|решітк\w*|решётк\w*|étoile|dièse|carré"
                 r"|stern\w*|raute|asterisco|estrela|cuadrado|almohadilla|asteraki|αστεράκι|csillag\w*|kettőskereszt"
                 r"|hvězdičk\w*|mřížk\w*|жылдызча\w*|[#*])")  # (Kyrgyz's star)
_A_BUTTON = r"(?:button|кнопк\w*|bouton|piton|taste|botón|botão|κουμπί|gomb\w*|tlačítk\w*|тугма\w*)"  # (Tajik's)
_A_KEYS_WORD = lowered_search("(?i)" + _STAR_OR_HASH + "|" + _A_BUTTON + "|押|off|enter|ok")  # (found at C speed first)
_AND_THEN = (r"(?:and\s++then|and|then|і|и|та|a\s++pak|et|puis|pis|und|dann|danach|nachher|y|luego|e\s++depois|e|kai\s++meta|kai|και\s++μετά"
             r"|και|utána|majd|és|ir|og|och|en|i|a|dan|lalu|terus"
             # Kyrgyz's "and", Tajik's "after", Malagasy's "then"
             r"|жана|баъд|avy\s++eo)")
_PRESS = r"(?:press\s++|push\s++|hit\s++|drücke?n?\s++|appuie[rz]?\s++sur\s++|pulsa\s++|aperta\s++|nyomd?\s++meg\s++)?"
_A_KEY_AFTER = lazy(
    # a star or a hash, with no word before it ("then star", not "and a gold star")
    r"(?i)[^\S\n]*+,?[^\S\n]*+" + _AND_THEN + r"\s++" + _PRESS + r"(?:the\s++)?" + _STAR_OR_HASH + r"(?![^\W\d_])"
    # a button, maybe with its colour ("pis le piton vert", "then the green button")
    r"|(?i:[^\S\n]*+,?[^\S\n]*+" + _AND_THEN + r"\s++" + _PRESS + r"(?:the\s++|le\s++|la\s++|el\s++|o\s++|die\s++|den\s++)?"
    r"(?:[^\W\d_]++\s++)?" + _A_BUTTON + r"(?![^\W\d_]))"
    r"|[^\S\n]*+の?順番?(?:に|で)押"
    # or the key that ends a panel's entry, after a word to press it: "… ir spaudi OFF", "… แล้วกด OFF"
    r"|(?i:[^\S\n]*+,?[^\S\n]*+(?:" + _AND_THEN + r"\s++)?"
    r"(?:press|push|hit|spaudi|spausk|paspausk|tekan|pencet|bas|nyomd\s++meg|stiskni|zmáčkni|naciśnij|wciśnij"
    r"|drücke?|appuie\s++sur|pulsa|aperta|druk\s++op|tryck\s++på|trykk\s++på|нажми\w*|натисни\w*)"
    r"\s++(?:the\s++)?(?:off|ok|enter|on|disarm)(?![^\W\d_]))"
    r"|(?i:[^\S\n]*+,?[^\S\n]*+(?:then|and\s++then)\s++(?:ok|enter)(?![^\W\d_]))"
    r"|[^\S\n]*+แล้ว[^\S\n]*+กด[^\S\n]*+(?i:off|ok|enter)(?![^\W\d_])")


# single digits a space apart ending a sentence, right after a label that names a code or a lock and a colon:
# "Шифра кутије са кључевима за салу поред цркве: 2 5 8 0.", "Nyckelboxen vid morfars dörr för hemtjänsten: 9 1 4
# 0.", "Kóòdù àpótí kọ́kọ́rọ́ …: 4 4 7 2." (not "Bus lines this week: 7 3 1 9.", "버스 번호: 7 3 1 9.")
_A_LABELS_COLON = lazy(r"[^\n0-9:：]{3,80}[:：][^\S\n]*+$")
_ENDS_ITS_SENTENCE = lazy(r"[^\S\n]*+(?:[.!。।](?:\s|$)|$)")
_SPACED = lazy(r"[0-9](?: [0-9]){3,7}")  # (a space apart: not a list, "…, die noch frei sind: 2, 5, 7, 9")


def _told_after_a_colon(text: str, match: re.Match[str]) -> bool:
    if _SPACED.fullmatch(match[0]) is None or _ENDS_ITS_SENTENCE.match(text, match.end()) is None:
        return False
    label = _A_LABELS_COLON.search(text, _sentence_start(text, match.start()), match.start())
    return label is not None and any(word[0] != "번호" for word in _TOLD_FOR.finditer(label[0]))  # (Korean's "number")


# or a keypad's key after the verb that keys the digits in and a comma: "Am Tor … die 5 8 1 2 eintippen, danach
# Raute", "… goht mit 6 6 4 0 uf, nachher Raute", "… mit 6 2 9 1 auf, Stern drücken"
_A_KEY_SOON_AFTER = lazy(r"(?i)(?:[^\S\n]++[^\W\d_]{1,15}+){1,2}?[^\S\n]*+,[^\S\n]*+(?:" + _AND_THEN
                         + r"\s++)?" + _PRESS + r"(?:the\s++|die\s++)?" + _STAR_OR_HASH + r"(?![^\W\d_])")
# what has a keypad: a keypad, an alarm, a door, a gate, in the languages people write in
_A_PANEL = lowered_search(
    r"(?i)keypad|key\s*+pad|clavier|tastatur|teclado|tastiera|klawiatur|клавиатур|клавіатур|klávesnic|billentyűzet"
    r"|näppäimistö|tangentbord|πληκτρολόγιο|signaliz|сигнализ|сигналіз|alarm|larm|hälytys|riasztó|poplach|กันขโมย|สัญญาณ"
    r"|(?<![a-z])(?:door|gate|porta|porte|puerta|port[ãa]o|port[óo]n|portail|cancello|tür|tor|brama|vrata|kapı|dörr"
    r"|dør|deur|poort|ovi|portti)(?![a-z])|(?<![a-z])kapu|ворот|двер|πόρτα|πύλη|cửa|pintu|gerbang|ประตู|門|门|扉|문"
    r"|オートロック|disarm"
    r"|эши[кг]|vavahady")  # (each a whole word, not "outdoor"; Hungarian's with its endings, "kapuja"; Kyrgyz's door,
# "эшиги", Malagasy's gate)


def digits_apart_in_its_script(read: str) -> bool:
    """Whether a text whose digits are another script's (``read``: the text with its digits written 0
    to 9) tells a code a digit at a time right after a code's name in its script, maybe with what it
    opens between ("ताल्चा कोड ४ ० ६ ६", "رمز در پشتی مطب دندانپزشکی ۳ ۸ ۲ ۷", "ایڈمن پن ۳ ۰ ۶ ۹ ۱"): not after a
    lock's name alone ("नयाँ ताल्चा २ ० ८ १ सालमा", a year), nor a postal code's ("کد پستی …: ۴ ۸ ۱ ۳ …")."""
    for match in _DIGITS_APART.finditer(read):
        if not _A_CODES_NAME_IN_ITS_SCRIPT.search(read, max(0, match.start() - 60), match.start()):
            continue
        if not _a_count_or_a_stand_in(match[0]):  # ("١ ٢ ٣ ٤")
            return True
    return False


def _a_count_or_a_stand_in(told: str) -> bool:
    """Whether the digits of ``told`` go up or down one at a time, or repeat one: "1 2 3 4", "0 0 0 0"."""
    digits = re.sub(r"[^0-9]", "", told)
    steps = {int(second) - int(first) for first, second in zip(digits, digits[1:])}
    return len(steps) == 1 and steps <= {-1, 0, 1}


# a code's name in the scripts with digits of their own, then at most four words and maybe a colon (and Odia's and
# Assamese's "code" after a door's, a lock's or a key's word, maybe a box's between: "ଲ୍ୟାବ କବାଟର କୋଡ୍: ୫ ୯ ୩ ୧ ୭",
# "চাবি বাকচৰ ক'ড: ৮ ২ ৪ ৬"; not a postal, a subject's or a product's code)
_A_CODES_NAME_IN_ITS_SCRIPT = lazy(
    r"(?<!\w)(?:(?:ال)?رمز|کد|(?:ال)?كود|پن|پین|कोड|पिन|পিন|কোড|รหัส|(?i:pin)"
    r"|(?:କବାଟ|ଦୁଆର|ତାଲା|ଲକ)[^\s0-9]*+\s++କୋଡ୍?|(?:দুৱাৰ|চাবি|লক|তলা)[^\s0-9]*+(?:\s++[^\s0-9]++)?\s++ক['’]ড)(?!\w)(?!\s*+(?:(?:ال)?بريد|پستی|कोड|ক['’]ড))"
    r"(?:\s++[^\W\d_][^\s0-9:：៖]*+){0,4}\s*+[:：៖]?\s*+$"  # (a word's marks are no "\w": Khmer's, Devanagari's virama)
    # Khmer's "code" ("លេខកូដទ្វារឃ្លាំង៖ ៨ ៥ ២ ០"), written with no space before what it opens (not a postal or a
    # product's code, "លេខកូដប្រៃសណីយ៍", "លេខកូដផលិតផល")
    r"|លេខកូដ(?:ទ្វារ|សោ|ឃ្លាំង|ទូ|សម្ងាត់)[^\s0-9:：៖]{0,30}[:：៖]?\s*+$")  # (a door's, a lock's, a store's, a cabinet's, a secret)


def _digits_apart(text: str) -> bool:
    if not _A_DIGIT_RUN(text) and "、" not in text:
        return False
    context = _CONTEXT(text)
    if not context and not _OPENS_WITH_DIGITS(text) and not _A_KEYS_WORD(text) and ":" not in text and "：" not in text:
        return False  # (a formation "4-2-3-1", a chord progression, a lottery draw: nothing opened)
    for match in _DIGITS_APART.finditer(text):
        keyed = ((_A_KEY_AFTER.match(text, match.end()) or _A_KEY_SOON_AFTER.match(text, match.end())) and _A_PANEL(text)
                 or _told_after_a_colon(text, match))
        opened = keyed or _opened_right_before(text, match)
        if not context and not opened:
            continue
        if "then" in match[0] and not (_A_PANEL(text) or _TOLD_FOR.search(text, _sentence_start(text, match.start()),
                                                                          match.start())):
            continue  # digits joined by "then" only for a code, a lock or a panel: not "choose 3 then 1 then 2 …" in an app
        if _a_count_or_a_stand_in(match[0]):
            continue  # "1 2 3 4", "0 0 0 0": counting, or a stand-in
        if (_NOT_A_CODE_APART.search(text[max(0, match.start() - 60):match.start()])
                or _NOT_A_CODE_APART.match(text, match.end() + 1)):
            continue  # (or right after it: "a 4-2-3-1 formation")
        if _ANOTHER_NUMBERS_NAME.search(text, max(0, match.start() - 30), match.start()):
            continue  # another number's, named right before it: "room 4 1 2 7", "error 4 0 1 2", "port 8 4 4 3"
        if ("," in match[0] or "、" in match[0]) and not keyed and not (
                _A_CODE_IS_TOLD.search(text, max(0, match.start() - 40), match.start())
                or _DIGIT_BY_DIGIT.search(text, max(0, match.start() - 40), match.start())):
            continue  # digits a comma apart are a code's only right after its name: not "Dress code days this month:
            # 3, 7, 8, 4", "Safe deposit boxes still free: 2, 5, 7, 9"
        if (text.startswith(",", match.end()) and not opened
                and not _TOLD_FOR.search(text, _sentence_start(text, match.start(), reach=80), match.start())
                and not _A_PASSWORD_RIGHT_BEFORE.search(text, max(0, match.start() - 60), match.start())):
            continue  # then a comma and words, only in the sentence of a code's or a lock's name: not "my ticket was
            # 7 1 4 0 2, counter three called it", on a line about a bank
        return True
    return False


# an intercom's code with a letter in it, as buildings give them ("kod do domofonu na Kazimierzu 4021K",
# "Intercom code: 3579B"): its digits and one capital, in the clause of the intercom's name and a code's word
# (not "The intercom model is Comelit 2738W", "Intercom: flat 120B")
_INTERCOM = r"(?:domofon\w*|interfon\w*|intercom|citofono|portero(?:\s++el[ée]ctrico)?|interphone|digicode)"
_A_CODES_WORD_HERE = r"(?:kod\w*|code|c[óo]digo|codice|codul|k[óo]d\w*)"
_A_LETTERED_CODE = r"(?<![\w-])(?-i:[0-9]{3,6}[A-Z]|[A-Z][0-9]{3,6}|[0-9]{1,4}[A-Z][0-9]{1,4})(?![\w-])"
_AN_INTERCOMS_CODE = lazy(
    r"(?i)(?<!\w)(?:" + _A_CODES_WORD_HERE + r"(?!\w)[^\n0-9.;!?]{0,20}?(?<!\w)" + _INTERCOM
    + r"|" + _INTERCOM + r"(?!\w)[^\n0-9.;!?]{0,20}?(?<!\w)" + _A_CODES_WORD_HERE + r")(?!\w)"
    r"(?:(?!\b(?:model\w*|type|typ|series|serie)\b)[^\n0-9.;!?]){0,30}?" + _A_LETTERED_CODE)


# a locker's or a safe's PIN or number in Japanese, its digits split by "、", ending its sentence or pressed in
# that order ("ジムのロッカーの番号は6、0、4、2の順に押す", "金庫の番号は3、8、2、7。"; not "ロッカーの番号は3、5、7、9が空いています",
# the lockers free)
_A_LOCKERS_DIGITS_IN_JAPANESE = lazy(
    r"(?:ロッカー|金庫)[^\n。]{0,12}?(?:暗証番号|番号|PIN|パスコード)[^\n。0-9]{0,4}?(?<![0-9])[0-9](?:\s?、\s?[0-9]){3,7}(?![0-9])"
    r"(?=\s*+(?:の?順番?(?:に|で)押|です|だ|。|$))")


# "its code" in Persian written in Latin letters, right before its digits, of a card, a phone, a door, a Wi-Fi or an
# account named before it ("kart banki Alice …, ramzesh 4417"; not "ramze gooshi ro too 1402 avaz kardam", the year a
# phone's code was changed, nor a film's or a game's "ramzesh 2048")
_ITS_CODE_IN_FINGLISH = lazy(r"(?i)(?<![a-z])(?:kart|card|bank|gooshi|mobile|dar|wifi|hesab|laptop)(?![a-z])[^\n.]{0,60}?"
                             r"(?<![a-z])ramz(?:esh|ash)\s*+[:=]?\s*+(?<![0-9])[0-9]{4,8}(?![0-9])")


# a PIN or a code in Amharic, then "is" or a colon before it: "የባንክ ካርዴ ፒን 7302 ነው", "የኤቲኤም ፒን ቁጥሬ 6194 ነው",
# "ፒኔ 7302 ነው", "የበሩ ቁልፍ ኮድ 4719 ነው", "ፒን: 7302 (…)" (not "ፒን ያለው …", with a pin, "ፒን ያደረግኩት መልዕክት", a pinned
# message, nor the year a pinned message is from, "ፒን 2024 ነው ያለው", nor a postal code, "የፖስታ ኮድ 1000 ነው")
_AMHARIC_PIN = lazy(r"(?:ፒን|ፒኔ|(?<!ፖስታ )(?<!ፖስታ)ኮድ)(?:\s*+ቁጥር\w*)?\s*+[:：]?\s*+(?!(?:19|20)[0-9]{2}\s*+ነው\s*+ያለው)"
                    r"(?:[0-9]{4,8}|[0-9](?: [0-9]){3,7})"
                    r"(?:\s*+ነው|\s*+\(|\s*+$)")


# the digits in words, in the languages the gate reads that ``labelled`` has no words of
_DIGIT_NAMES = {
    "ru": "ноль нуль один одна два две три четыре пять шесть семь восемь девять",
    "uk": "нуль один одна два дві три чотири п'ять п’ять шість сім вісім дев'ять дев’ять",
    "bg": "нула едно две три четири пет шест седем осем девет",
    "el": "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά εφτά οχτώ οκτώ εννιά εννέα",
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
    "cs": "nula jedna dva tři čtyři pět šest sedm osm devět",
    "ro": "zero unu doi trei patru cinci șase sase șapte sapte opt nouă noua",
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz",
    # Russian in Latin letters, as chat writes it ("dva sem shest chetyre", "pyat' odin sem' nol'")
    "ru-Latn": "nol nol' nul nul' odin dva tri chetyre pyat pyat' shest shest' sem sem' vosem vosem' devyat devyat'",
    "sv": "noll ett två tre fyra fem sex sju åtta nio",
    "fr": "zéro un deux trois quatre cinq six sept huit neuf",
    "id": "nol kosong satu dua tiga empat lima enam tujuh delapan sembilan",
    "ms": "kosong satu dua tiga empat lima enam tujuh lapan sembilan",  # Malay: "lapan", eight
    "vi": "không một hai ba bốn năm sáu bảy tám chín",
    "ar": "صفر واحد اثنان اثنين ثلاثة أربعة اربعة خمسة ستة سبعة ثمانية تسعة",
    "fa": "صفر یک دو سه چهار پنج شش هفت هشت نه",
    "ur": "صفر ایک دو تین چار پانچ چھ چھے سات آٹھ نو",
    "hi": "शून्य एक दो तीन चार पांच पाँच छह छः सात आठ नौ",
    "bn": "শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়",
    "ko": "영 공 일 이 삼 사 오 육 칠 팔 구",
    "he": "אפס אחת אחד שתיים שניים שלוש ארבע חמש שש שבע שמונה תשע",
    "th": "ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า",
    "ja": "ゼロ れい いち に さん よん し ご ろく なな しち はち きゅう",
    "zh": "零 〇 一 二 三 四 五 六 七 八 九 洞 幺",
    "fi": "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän",
    "et": "üks kaks kolm neli viis kuus seitse kaheksa üheksa",
    "hu": "nulla egy kettő három négy öt hat hét nyolc kilenc",
    # (without the names that are common words of other languages, English above all: "set", "en",
    # "et", "to", "ni", "null", "dim": "set to null to disable" is no code)
    "ca": "zero u una dos tres quatre cinc sis vuit nou",
    "da": "nul tre fire fem seks syv otte",
    "nb": "tre fire fem seks sju syv åtte",
    "hr": "nula jedan jedna dva dvije tri četiri pet šest sedam osam devet",
    "sr": "нула један једна два три четири пет шест седам осам девет",
    "sk": "nula jeden jedna dva tri štyri päť šesť sedem osem deväť",
    "sl": "nič ena dve tri štiri pet šest sedem osem devet",
    "lt": "nulis vienas du trys keturi penki šeši septyni aštuoni devyni",
    "lv": "nulle viens divi trīs četri pieci seši septiņi astoņi deviņi",
    "is": "núll einn tveir þrír fjórir fimm sex sjö átta níu",
    "sq": "zero një dy tre katër pesë gjashtë shtatë tetë nëntë",
    "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa",
    "tl": "sero isa dalawa tatlo apat lima anim pito walo siyam",
    "eu": "zero bat bi hiru lau bost sei zazpi zortzi bederatzi",
    "ga": "náid haon dó trí ceathair cúig sé seacht hocht naoi",
    "cy": "dau tri pedwar pump chwech saith wyth naw",
    "af": "nul een twee drie vier vyf ses sewe agt nege",
    "ta": "பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது",
    "te": "సున్నా ఒకటి రెండు మూడు నాలుగు ఐదు ఆరు ఏడు ఎనిమిది తొమ్మిది",
    "mk": "нула еден една два три четири пет шест седум осум девет",
    # Persian in Latin letters, as chat writes it ("yek haft noh hasht"; not "do" and "se", words of other languages)
    "fa-Latn": "sefr yek chahar panj shesh shish haft hasht noh",
    "be": "нуль адзін адна два дзве тры чатыры пяць шэсць сем восем дзевяць",
    "ne": "शून्य एक दुई तीन चार पाँच पांच छ सात आठ नौ",
    # Scottish Gaelic ("a h-aon", one, is read as "aon"), Malagasy
    "gd": "neoni aon dhà trì ceithir còig coig seachd ochd naoi",
    "mg": "aotra iray roa telo efatra dimy enina fito valo sivy",
}
_DIGIT_NAME_SET = frozenset(name for names in _DIGIT_NAMES.values() for name in names.split())
_DIGIT_TOKENS = lazy(r"[^\s,、・،-]++").finditer  # (and Arabic's comma: "خمسة، تسعة، صفر، اثنان")
_SEPARATORS = str.maketrans(",、・،-", "     ")
# what a run of digit names is told for: a colon right before it, or a lock's or a code's name on its line
_TOLD_FOR = lazy(r"(?i)(?<!\w)(?:code|\w*kod(?:e|en|er|et|s|as|i|ea|a|u)?|kód|код\w*|\w*kood\w*|codi|pin|пин|пін|lock|padlock"
                 r"|locker|atm|sejf(?:u|ie)?|ramz(?:e|esh|et|am)?|lås"
                 r"|zámek|zámok"
                 r"|замок|замка|сейф|cadenas"
                 r"|candado|lucchetto|kłódk\w*|kasa|kasası|safe|tresor|coffre|caja\s++fuerte|cassaforte|brankas|hänglås\w*"
                 r"|\w*lås(?:et)?|förråd\w*"
                 # "code" in the languages whose digit names are above: kóðinn, kods, kodas, kood, kodi,
                 # kodea, cod, cód, koda, kódja, šifra, tunnusluku, namba ya siri, kandado
                 r"|kóð\w*|cod|cód|còd|kódj\w*|šifr\w*|шифр\w*|tunnusluku\w*"
                 # Czech's "switched off / unlocked / opened by the code" ("Alarm … se vypíná kódem devět jedna čtyři
                 # šest"; not "kódem" alone: a postal code's, a product's, an order's)
                 r"|(?:vyp[íi]n[áa]|vypne|odemyk[áa]|odemkne|otev[íi]r[áa]|otevře)\s++(?:se\s++)?k[óo]dem"
                 r"|namba\s++ya\s++siri|kandado|katanac\w*|катанац\w*|katinar\w*|катинар\w*"
                 # and a gate's, a door's, a lock's or a safe's code in Hungarian, a lock's code in Swahili:
                 # kapukód, ajtókód, zárkód, széfkód; msimbo wa kufuli (not "forráskód", a program's)
                 r"|\w*(?:kapu|ajtó|zár|széf|riasztó)kód\w*|msimbo\s++wa\s++(?:kufuli|mlango|geti|lango)|kufuli"
                 # a key box: "La boîte à clés : cinq, neuf, zéro, deux", "চাবির বাক্স খোলে আট-চার-দুই-ছয় দিয়ে"
                 r"|key\s*+(?:drop\s*+)?box|lock\s*+box|bo[îi]te\s++[àa]\s++cl[ée]s|schlüssel(?:kasten|box|tresor)|sleutelkluis"
                 r"|cutia\s++cu\s++chei|schr[áa]nk\w*\s++na\s++kl[íi][čc]e|v[õo]tmekarp\w*)(?!\w)"
                 r"|চাবির\s*+বাক্স|صندوق\s*+(?:ال)?مفاتيح|תיבת\s*+ה?מפתחות"
                 # (not India's postal code, "पिन कोड", "அஞ்சல் குறியீடு")
                 r"|κωδικ|코드|번호|暗証|密码|رمز|کوڈ|کد|كود|קוד|ताल्चा|ਪਿੰਨ(?!\s*+ਕੋਡ)|पिन(?!\s*+कोड)|(?<!पिन )(?<!पिन)कोड|पासकोड|(?<!அஞ்சல் )குறியீடு|ரகசிய\s*+எண்|(?<![^\W\d_])mã\s*+[:：]?\s*+$|(?:দরজা|গেট|লকার|তালা)\w*\s*+কোড|χρηματοκιβώτιο|금고|خزنة|تجوری|گاوصندوق|כספת|két\s++sắt|ตู้เซฟ|तिजोरी"
                 # Romanian's code of a door, a gate, an alarm, a padlock, a safe ("codul de la usa din spate: doi-sapte-
                 # sapte-unu"; not "Codul rutier", the highway code), an alarm in Chinese, "code" in Yoruba
                 r"|(?<![^\W\d_])codul\s++(?:de\s++la\s++)?(?:u[șs][ăaiie]\w*|poart\w*|alarm\w*|lac[ăa]t\w*|seif\w*|interfon\w*"
                 r"|cutie\w*)|警報|警报|kóòdù|koodu|(?<!\w)nyckelbox\w*"
                 # and Romanian's "has the code" right before it, of a key box, a door, a gate, a padlock, a safe or an
                 # intercom ("Cutia cu chei … are codul 2 7 0 4"; not "Cursul de luni are codul …", a course's)
                 r"|(?<![^\W\d_])(?:cutia|u[șs]a|poarta|lac[ăa]tul|seiful|interfonul)(?![^\W\d_])[^\n.;]{0,60}?"
                 r"(?<![^\W\d_])(?:are|avea|au)\s++codul\s*+[:：]?\s*+$")


# four to eight digits of Chinese or Japanese, or Korean syllables that name digits, written
# together, not a year's or an amount's: "银行卡密码是三七九一", "도어락 번호는 칠삼일구"
_DIGITS_TOGETHER = lazy(r"[零〇一二三四五六七八九洞幺]{4,8}(?![年月日号號時时点點分个個位人元块塊円万千百十届屆版期回次条條章节節页頁])"
                        r"|(?<![가-힣])[영공일이삼사오육칠팔구]{4,8}(?![가-힣])")


_GAELIC_A_H = lazy(r"(?i)(?<![^\W\d_])a h-(?=aon|ochd)")


def _digit_names(text: str) -> bool:
    """Four to eight digit names in a row, not one name repeated and not a count that goes on, told
    for a code or a lock (its name on their line): "förrådets hänglås: två åtta noll fem"; those
    written together in Chinese, Japanese and Korean are read one by one."""
    if not text.isascii():
        text = _DIGITS_TOGETHER.sub(lambda together: " " + " ".join(together[0]) + " "
                                    if len(set(together[0])) > 2 else together[0], text)  # not "사이사이", "七七八八"
    if len(_DIGIT_NAME_SET.intersection(text.lower().translate(_SEPARATORS).split())) < 2:
        return False  # (two names at least: a set's intersection, before any token is looked at)
    if "h-" in text:
        text = _GAELIC_A_H.sub(lambda said: " " * len(said[0]), text)  # "naoi, a h-aon": Gaelic's "one" after "a h-"
    tokens = list(_DIGIT_TOKENS(text))
    run: list[re.Match[str]] = []
    for index, token in enumerate([*tokens, None]):
        if token is not None and _named(token) in _DIGIT_NAME_SET and (not run or "\n" not in text[run[-1].end():token.start()]):
            run.append(token)
            continue
        if (4 <= len(run) <= 8 and len({_named(t) for t in run}) > 1 and not _a_list_goes_on(tokens[index:index + 2])
                and not _counting([_named(t) for t in run])):
            start, end = run[0].start(), run[-1].end()
            told = text[text.rfind("\n", 0, start) + 1:start]
            if (_TOLD_FOR.search(told) and not _ANOTHER_KINDS_CODE.search(told)
                    or _A_PASSWORD_NAMED.search(told)  # "फ़ोन का पासवर्ड सात तीन नौ एक"
                    or _TO_OPEN_AFTER.match(text, end)  # "Elle tape quatre-huit-un-deux pour déverrouiller …"
                    # right after what opens with them: "Simu ya mtumiaji inafunguka kwa tisa-tano-sifuri-…"
                    or _OPENER_BEFORE.search(told) and (_CONTEXT(told) or _OPENED_THING(told))
                    or _OPENS_WITH_THEM.search(told) and _KEYS_WORD.search(told) and _BOX_WORD.search(told)):
                return True  # (what opens with them, keys in a box: "… المفاتيح … في الصندوق …، ويُفتح بالأرقام: …")
        run = [token] if token is not None and _named(token) in _DIGIT_NAME_SET else []
    return False


# a code of another kind than a lock's, named before digit names: an area's, a city's, a region's, an error's, a
# post, a product's, a course's code ("Ankara'nın alan kodu sıfır üç bir iki", "Kod goroda dlya Pitera: vosem …")
_ANOTHER_KINDS_CODE = lazy(
    r"(?i)(?<!\w)(?:(?:alan|hata|posta|ürün|ders|ülke|şehir|vergi|indirim|kupon|takip|sipariş)\s++kodu"
    r"|(?:kod|код)\s++(?:regiona|goroda|oshibki|avtobusa|strany|tovara|региона|города|ошибки|страны|товара|автобуса)"
    r"|(?:area|zip|postal|post|error|product|country|city|dress|discount|promo|colou?r|course|tracking|order)\s*+code"
    # and in Malay and Indonesian: "Kod pos …", "Kod kursus …", "kod laluan …", "Kode produk …"
    r"|kode?\s++(?:pos|kursus|laluan|produk|diskaun|diskon|promosi|promo|bilik|kawasan|negara|warna|area|kelas|mata\s++kuliah"
    r"|negeri|bandar|kota|ralat|pesanan|barang|voucher|baucar))(?!\w)")


# what opens with the digits named after it (a box of keys, on its line; a show, a season, a shop open so too)
_OPENS_WITH_THEM = lazy(r"(?i)opens\s++with|s['’]ouvre\s++avec|öffnet\s++(?:sich\s++)?mit|se\s++abre\s++con|si\s++apre\s++con"
                        r"|খোলে|يُ?فتح|تُ?فتح|נפתח")


# each digit's name, by language, at its place in the language's list (a count goes up it)
_PLACES = [{name: place for place, name in enumerate(names.split())} for names in _DIGIT_NAMES.values()]


def _counting(names: list[str]) -> bool:
    """Whether the names go up one language's list, as a count does ("un deux trois quatre", "cinq six
    sept huit"), or down it a step at a time, as a countdown does ("cinq, quatre, trois, deux, un"), not as a
    code's digits do ("quatre huit un deux")."""
    return any(all(name in places for name in names) and (all(places[a] < places[b] for a, b in zip(names, names[1:]))
                                                          or all(_step_down(places, a, b) for a, b in zip(names, names[1:])))
               for places in _PLACES)


def _step_down(places: dict[str, int], name: str, next_name: str) -> bool:
    """Whether ``next_name`` is the digit one below ``name``: one place before it in the language's list, or
    two where the list names a digit twice (Arabic's "اثنان" and "اثنين")."""
    return 1 <= places[name] - places[next_name] <= 2


def _named(token: re.Match[str]) -> str:
    """A token as a digit's name: in lower case, without the stop after it ("девять.", "শূন্য।")."""
    return token[0].lower().rstrip(".!?;:।。")


# what a run of digit names opens, right after it
# (to unlock, not to open: a show, a dance, a discussion "opens" with a count)
_TO_OPEN_AFTER = lazy(r"(?i)[\s,]*+(?:pour\s++(?:déverrouiller|débloquer)|afin\s++de\s++(?:déverrouiller|débloquer)|to\s++unlock"
                      r"|zum\s++entsperren|um\s++\S+\s++zu\s++entsperren|para\s++desbloquear|per\s++sbloccare"
                      r"|om\s++(?:te\s++)?ontgrendelen|żeby\s++odblokować|aby\s++odblokować|чтобы\s++разблокировать"
                      r"|щоб\s++розблокувати)")


_AND = frozenset("and or och og und et y e en ja ve и или і або și i a oraz και ή ו و و و और এবং và dan 和 と 그리고".split())


def _a_list_goes_on(after: list[re.Match[str]]) -> bool:
    """A conjunction and a digit name after a run: a count or a list ("ett, två, fyra, fem och sju")."""
    return len(after) == 2 and after[0][0].lower() in _AND and after[1][0].lower() in _DIGIT_NAME_SET


# --- a PIN that is a relative's year of birth ----------------------------------------------------

_A_CARD = r"(?:carte|card|karte|tarjeta|cartão|karty|kart[ıi]\w*|картк\w*|карты|carta|kaart)"
_A_CODE = r"(?:code|codice|código|kod|kód|код)"
_A_PINS_NAME = (r"(?:pin|pin-?code|pin-ul|pinpas|пин|пін|پن|পিন|पिन|ピン|핀|şifre\w*|senha|mã\s++pin"
                # a card's code, either way round ("la carte de papa : le code est …", "el código de la tarjeta")
                r"|" + _A_CARD + r"[^\n]{0,30}?" + _A_CODE + r"|" + _A_CODE + r"[^\n]{0,30}?" + _A_CARD + r")")
_BIRTH_YEAR = (r"(?:(?:year|ann[ée]e|año|ano|anno|jahr|jaar|rok|год|рік|anul|yıl)\s++(?:\S+\s++){0,5}?"
               r"(?:was\s++)?(?:born|est\s++n[ée]e?|n[ée]e?|naci[óo]|nasceu|[èe]\s++nat[oa]|nat[oa]|geboren|urodził\w*"
               r"|родил\w*|народив\w*|născut|doğdu)|year\s++(?:\w+\s++){0,4}?(?:was\s++)?born|birth\s*+year|year\s++of\s++birth|geburtsjahr|jahrgang"
               r"|anno\s++di\s++nascita|año\s++(?:de\s++nacimiento|en\s++que\s++naci[óo])|ano\s++(?:de\s++nascimento|que\s++\w+"
               r"(?:\s++\w+){0,3}?\s++nasceu|em\s++que\s++\w+\s++nasceu)|ann[ée]e\s++de\s++naissance|geboortejaar"
               r"|год\s++рождения|рік\s++народження|anul\s++na[șs]terii|rok\s++(?:narození|urodzenia)|doğum\s++yılı"
               r"|năm\s++sinh|سال\s*+تولد|שנת\s++הלידה|سنِ?\s*+پیدائش|জন্মসাল|জন্ম\s*+সাল|जन्म\s*+वर्ष|जन्म\s*+साल"
               r"|生まれ年|出生年|出生年份|태어난\s*+해|출생\s*+연도|tahun\s++lahir|födelseår|fødselsår|syntymävuo\w*"
               r"|születési\s++év\w*|έτος\s++γέννησης|χρονιά\s++(?:που\s++)?γεννήθηκε)")
_YEAR_PIN = lazy(r"(?i)(?:(?<!\w)" + _A_PINS_NAME + r"(?!\w)|קוד|رمز)[^\n]{0,80}?" + _BIRTH_YEAR + r"[^\n]{0,40}?"
                 r"(?<![0-9۰-۹])(?:1[89][0-9]{2}|20[0-2][0-9]|1[34][0-9]{2}|[۱][۳۴][۰-۹]{2})(?![0-9۰-۹])")


# --- the letters' case, and a child's tablet ------------------------------------------------------

# a letter and what its case is, either way round: "the R a capital", "büyük L", "HとNが大文字"
_CASE = (r"(?:capital|upper\s*+-?case|uppercase|majuscule|mayúscula|maiúscula|maiuscola|gro(?:ß|ss)\w*|hoofdletter"
         r"|wielk\w*|заглавн\w*|большая|велика|велику|büyük|大文字|大写|大寫|ใหญ่|कैपिटल|বড়\s*+হাতের|বড়|besar|kapital"
         r"|κεφαλαίο|גדולה|بزرگ|کیپیٹل|대문자)")
_LETTERS_CASE = lazy(r"(?<![\w])(?P<a>[A-Z])(?:\s++(?:is|es|è|é|ist|est|a|an|e|la|el|il|das|der|die|de|je|to)){0,3}"
                     r"(?:\s*+[,:]?\s*+)(?i:" + _CASE + r")"
                     r"|(?i:" + _CASE + r")(?:\s++(?:letter|letra|lettre|buchstabe|lettera|harf|huruf|písmeno|litera))?"
                     r"\s++(?P<b>[A-Z])(?![\w])"
                     r"|(?P<c>[A-Z])(?:\s*+(?:と|和|и|i|and|e|y|und|et|আর|और)\s*+(?P<d>[A-Z]))?\s*+(?:が|は)?\s*+(?:大文字|大写|বড়)"
                     # "la c es mayúscula", "the r is a capital": a letter after an article
                     r"|(?i:(?<!\w)(?:la|el|the|die|der|das|le|il|lo|o|a)\s++(?P<e>[a-z])\s++(?:es|is|ist|est|è|é)\s++(?:una?\s++|a\s++)?"
                     + _CASE + r")")
# a value: letters with a digit, a sign or "_", or two capitals ("Hanabi-Natsu"), after any script
_CASED_TOKEN = lazy(r"(?<![A-Za-z0-9@/.])(?:(?=[A-Za-z0-9#@$%&*!_-]{0,30}?[0-9#@$%&*!_])|(?=[A-Za-z0-9_-]{0,30}?[A-Z][a-z]+-[A-Z]))"
                    r"(?=[A-Za-z0-9#@$%&*!_-]{0,30}?[a-z])[A-Za-z][A-Za-z0-9#@$%&*!_-]{3,30}")


def _case_told(text: str) -> bool:
    """A value with a letter the text says the case of ("Rangoli2024, R a capital")."""
    if not _CONTEXT(text):
        return False  # ("Hanna-Lena, with a capital L, is Anna's niece")
    letters = set()
    for match in _LETTERS_CASE.finditer(text):
        letters.update(group.upper() for group in match.groups() if group)
    if not letters:
        return False
    return any(letter in token for token in _CASED_TOKEN.findall(text) for letter in letters)


_TABLET = (r"(?:(?<!\w)(?:tablet\w*|tablec\w*|tableta|tabletă|tablette|tabletin|τάμπλετ|планшет\w*|ট্যাবলেট\w*|टैबलेट"
           r"|compu|ipad|chromebook)(?!\w)|平板|タブレット|태블릿|แท็บเล็ต|máy\s++tính\s++bảng|تبلت|تابلت)")  # (with "ل" or "ب" before them)
# what one does with a value on a device: put it, use it, type it ("поставь chebur4shka на планшет")
_PUT_ON = lowered_search(r"(?i)(?<!\w)(?:put|use|type|enter|set|usa|usar|utiliza|pon|poner|mets|mettre|metti|usa"
                         r"|nimm|gib|tipp|zet|gebruik|wpisz|użyj|поставь|поставить|введи|βάλε|pune|folosește|kullan|yaz"
                         r"|pakai|gunakan|masukkan|daal|dalo|likho|দাও|দিন|লিখ|بزن|بذار|استعمل|استخدم|ضع|用|入れて|입력|넣어)(?!\w)"
                         r"|用|入力|입력|ใส่|ใช้|nhập|dùng|بزن|بذار|دلو|دو\b")
_A_NAME_TOLD = lowered_search(r"(?i)user\s*+name|username|nickname|handle|file\s*+name|filename|dateiname|nom\s++du\s++fichier"
                              r"|nombre\s++de\s++archivo|gamer\s*+tag|e-?mail\s++address")
_LOWER_TOLD = (r"(?:all\s++lower\s*+case|lower\s*+case|todo\s++en\s++min[úu]sculas|min[úu]sculas|hepsi\s++küçük\s++harf"
               r"|küçük\s++harf|全小写|全小寫|すべて小文字|كله\s++حروف\s++صغيرة|حروف\s++صغيرة|alles\s++klein|kleingeschrieben)")
# a word with digits put on a child's device, or said to be all lower case
_WORD_AND_DIGITS = r"(?<![\w@/.#-])(?=[a-z_]{0,20}[0-9])[a-z][a-z_]{2,20}[0-9]{1,6}[a-z]{0,8}(?![\w@/.-])"
_ON_A_TABLET = lazy(r"(?i)" + _TABLET + r"[^\n]{0,60}?(?-i:" + _WORD_AND_DIGITS + r")"
                    r"|(?-i:" + _WORD_AND_DIGITS + r")[^\n]{0,60}?" + _TABLET)
_LOWER_CASE_TOLD = lazy(r"(?-i:" + _WORD_AND_DIGITS + r")[^\n]{0,30}?(?i:" + _LOWER_TOLD + r")")
# "version", "model", "build": a product's name, not a value ("the kids' tablet runs android13")
_A_PRODUCT = lazy(r"(?i)(?<!\w)(?:version|model|build|runs|running|android|ios|firmware|update|os)(?!\w)")


_A_WORD_AND_DIGITS = lazy(_WORD_AND_DIGITS).search


def _tablet_value(text: str) -> bool:
    """A word and digits put on a child's device ("поставь chebur4shka на планшет"), or said to be all
    lower case where something is opened ("Steam hesabı galatasaray1905x, hepsi küçük harf"); not a
    user's or a file's name, nor an app on an iPad ("the covid19 certificate")."""
    if not _A_WORD_AND_DIGITS(text) or _A_PRODUCT.search(text) or _A_NAME_TOLD(text):
        return False
    if _ON_A_TABLET.search(text) and _PUT_ON(text):
        return True
    return bool(_LOWER_CASE_TOLD.search(text) and (_CONTEXT(text) or _PUT_ON(text)))


# --- a token only a password is -------------------------------------------------------------------

# a word, a sign and more: "Feta#Kalamata", "Tahdig#99", "Kanelbulle!34", "Rendang#Padang8"; not
# "C#", "F#", "Sheet1!A1", "#general", an address or a URL's anchor
_SIGNED = lazy(r"(?<![\w@/.#&!$%*-])(?=[A-Za-z][A-Za-z_]{2})(?![A-Z]{2,}[#$%*!&@])(?!\w+%[0-9A-Fa-f]{2})"
               r"[A-Za-z][A-Za-z_]{2,20}[0-9]{0,4}"
               # "#", "$", "%", "*" as they are; "!" and "&" with a digit ("Fritz!Box", "Marks&Spencer" are
               # names, and so is a word in capitals before them: "FRITZ!Box7590", "AT&T5G"); "@" before a
               # capital ("deploy@web01" is a user at a host)
               r"(?:[#$%*][A-Za-z0-9_]{2,20}|[!&](?=[A-Za-z_]{0,20}[0-9])[A-Za-z0-9_]{2,20}|@(?-i:[A-Z])[A-Za-z0-9_]{1,20})"
               r"(?:[#$%*!&][A-Za-z0-9_]{2,20}){0,2}"
               r"[#!$%&*]?(?![\w@/.#&$%*:(-])")
# words joined by "_" with a number, or capitalised words joined by "_": "Ilish_Padma77", "Sill_och_Potatis"
_UNDERSCORED = lazy(r"(?<![\w@/.#-])(?:[A-Z][a-z]{2,15}(?:_[A-Za-z][a-z]{1,15}){1,3}[0-9]{1,4}"
                    r"|[A-Z][a-z]{2,15}(?:_[a-z]{1,4}){0,2}_[A-Z][a-z]{2,15}|[A-Z][a-z]{2,15}(?:_[a-z]{2,15}){2,3})"
                    r"(?![\w@/.-])")
# what it is told for: a colon or an arrow after something that opens, or "changed to", "is"
_TOLD_AFTER = lazy(r"[:：→]\s*+[\"'“„«]?$|(?i:(?<!\w)(?:is|es|est|ist|è|é|är|er|là|jadi|thành|ni|sasa\s++ni"
                   r"|گذاشتم|to|na|på|on)\s*+[\"'“„«]?$)")
# what a code line has ("=", "(", "def ", "import"): a name in code, not a value
_CODE_LINE = lazy(r"(?i)[=(){};]|(?<!\w)(?:def|class|import|return|function|const|var|let|select|from|where|folder"
                  r"|enum|config|constant|setting|settings|option|type|struct|property|key|keys|env|parameter"
                  r"|directory|file|branch|table|column|field|variable|module|tag|label|channel|hashtag)(?!\w)")


# the "_" said to be there: "glöm inte understrecken", "usisahau underscore"
_UNDERSCORES_TOLD = lazy(r"(?i)underscore|understreck|unterstrich|tiret\s++bas|guion\s++bajo|trattino\s++basso"
                         r"|underline|podkreśl|alt\s++çizgi|подч[её]ркив|підкреслен|garis\s++bawah|下划线|アンダースコア|언더바")
# a long word and a number, the whole value at a line's end after a colon or an arrow ("für die
# Fritzbox im Keller: Zitronenfalter77", "сімейний Megogo → Borshch2020"); not a product's version
_WORD_NUMBER_AT_END = lazy(r"(?m)(?:[:：]|→|->)\s*+[\"'“„«]?(?!(?i:python|ubuntu|debian|windows|android|postgres|mysql|version"
                           r"|iphone|galaxy|pixel|office|java|node|fedora|centos|macos|ios)[0-9])"
                           r"[A-Z][a-z]{4,20}[0-9]{2,4}[!#$%&*]?[\"'”»]?[.!]?\s*+$")


# what names a project, a release or a campaign by such a word ("Parola chiave del progetto: Aurora2025")
_A_NAMES_LINE = lazy(r"(?i)(?<!\w)(?:project|projekt|projet|progetto|proyecto|projeto|codename|code\s++name|sprint|release"
                     r"|campaign|kampagne|campagne|campaña|campagna|theme|motto|keyword|chiave|hashtag|event|edition|team"
                     r"|name|nom|nombre|nome|naam|called|named|heißt|s['’]appelle|se\s++llama|si\s++chiama)(?!\w)")


def _line_of(text: str, match: re.Match[str]) -> str:
    return text[text.rfind("\n", 0, match.start()) + 1:(text.find("\n", match.end()) + 1 or len(text) + 1) - 1]


_A_SIGN_INSIDE = lazy(r"[A-Za-z][#$%*!&@][A-Za-z0-9]").search  # what _SIGNED's matches hold
_AN_UNDERSCORE_INSIDE = lazy(r"[a-z]_[A-Za-z]").search  # and _UNDERSCORED's


_SIGNS = frozenset("#$%*!&@")
# what names a thing by a word joined with "_": a network, a sheet, a room, a group
_A_THINGS_NAME = lowered_search(r"(?i)network|ssid|sheet|tab|room|channel|group|team|folder|file|workbook|server|host"
                                r"|bucket|project|branch|label|tag|board|playlist|album")


def _only_a_password(text: str) -> bool:
    """A token only a password is: a word, a sign and more, capitalised ("Feta#Kalamata", "Tahdig#99";
    not "pandas#51234" or "order#40312"), where the text names what it opens or has two signs in it
    ("Walnut#Drift#33"); words joined by "_" with a number ("Ilish_Padma77") where the text names what
    it opens, told after a colon or a verb, or with its "_" told."""
    context = None
    for match in _SIGNED.finditer(text) if _A_SIGN_INSIDE(text) else ():
        token = match[0]
        if not token[0].isupper() or _CODE_LINE.search(_line_of(text, match)):
            continue
        if sum(char in _SIGNS for char in token) >= 2 or (context := _CONTEXT(text) if context is None else context):
            return True
    for match in _UNDERSCORED.finditer(text) if _AN_UNDERSCORE_INSIDE(text) else ():
        line = _line_of(text, match)
        start = match.start() - (text.rfind("\n", 0, match.start()) + 1)
        if _CODE_LINE.search(line) or _A_THINGS_NAME(line):
            continue
        if _UNDERSCORES_TOLD.search(line) or (any(char.isdigit() for char in match[0]) and _CONTEXT(line)
                                              and _TOLD_AFTER.search(line, max(0, start - 12), start)):
            return True
    return False


def _a_word_and_number_told(text: str) -> bool:
    if ":" not in text and "：" not in text and "→" not in text and "->" not in text:
        return False
    for match in _WORD_NUMBER_AT_END.finditer(text):
        line = _line_of(text, match)
        if _CODE_LINE.search(line) or _A_NAMES_LINE.search(line):
            continue
        # after an arrow ("Megogo → Borshch2020"); after a colon, where the label names what it opens
        # ("für die Fritzbox im Keller: Zitronenfalter77"; not "Car: Peugeot208", "Verein: Bayer04")
        label = line[:match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1]
        if match[0].lstrip().startswith(("→", "->")) or _CONTEXT(label):
            return True
    return False


# a door's, a gate's or a keypad's code with letters in it: "Door code: A7C9", "The garage code is B4-77"
_LETTERED_CODE = lazy(r"(?i)(?<!\w)(?:door|gate|garage|front\s++door|alarm|keypad|lockbox|safe|locker|padlock|entry|building)"
                      r"[\s_-]?(?:code|combination|pin)(?:\s*+[:：]|\s++(?:is|was))\s*+[\"'“]?"
                      r"(?-i:(?=[A-Z0-9-]{0,8}?[0-9])(?=[A-Z0-9-]{0,8}?[A-Z])[A-Z0-9][A-Z0-9-]{2,7}[A-Z0-9])(?![\w-])")


# --- a value that starts as a stand-in ------------------------------------------------------------

# "<placeholder-Hm71$>", "[MOTDEPASSE-v8Rw]": a stand-in's word and a random part (a digit, both cases)
_STAND_IN_AND_MORE = lazy(
    r"(?i)(?<![\w-])[<\[(]?(?:placeholder|changeme|change-me|motdepasse|mot-de-passe|password|passwort|contrase[ñn]a"
    r"|senha|wachtwoord|has[łl]o|parola|token|secret|template|default|example)[-_]"
    r"(?=[A-Za-z0-9!@#$%^&*]{0,20}?[0-9])(?=[A-Za-z0-9!@#$%^&*]{0,20}?(?-i:[A-Z]))(?=[A-Za-z0-9!@#$%^&*]{0,20}?(?-i:[a-z]))"
    # random: a sign, or a capital after a small letter or a digit ("Hm71$", "v8Rw"; not "Santa2024", "Reset2")
    r"(?=[A-Za-z0-9]{0,20}?[!@#$%^&*]|[A-Za-z0-9]{0,20}?(?-i:[a-z0-9])(?-i:[A-Z]))"
    r"[A-Za-z0-9!@#$%^&*]{4,20}[>\])]?(?![\w.-])"
)



def _stand_in_and_more(text: str) -> bool:
    return ("-" in text or "_" in text) and _STAND_IN_AND_MORE.search(text) is not None


# --- a value spelled a character at a time, with dashes -------------------------------------------

_SPELLED_WITH_DASHES = lazy(r"(?<![\w-])(?=(?:\w-){0,20}?[^\W\d_])\w(?:-\w){5,30}(?![\w-])")


def _spelled_with_dashes(text: str) -> bool:
    """"P-u-t-r-a-j-a-y-a-8": six or more single characters, letters among them, not all of one case
    of a word spelled for a reader ("S-P-E-L-L" in a lesson is one too: both cases or a digit)."""
    if text.count("-") < 5:
        return False
    for match in _SPELLED_WITH_DASHES.finditer(text):
        chars = match[0].replace("-", "")
        # "P-u-t-r-a-j-a-y-a-8", "x-Q-7-m-p-L"; not a name spelled ("K-o-w-a-l-s-k-i") or "A-B-C-1-2-3"
        if (any(c.isdigit() for c in chars) and any(c.islower() for c in chars)
                or any(c.isupper() for c in chars[1:]) and any(c.islower() for c in chars)):
            return True
    return False


# --- a value in a key's path ------------------------------------------------------------------------

_VALUE_IN_A_PATH = lazy(
    # a lock's code or a PIN: "home.garage.code.4719", "user.pin.4821" (not "error.code.4041")
    r"(?i)(?:(?<![\w-])pin|(?:garage|door|gate|alarm|safe|lock|locker|keypad|bike|phone|atm|card)[._-]?"
    r"(?:code|combination|pin))[.:/][0-9]{4,8}(?![\w./:])"
    # an answer or a password: "security.answer.Schneewittchen", "wifi.password.fietsbel2020"
    r"|(?<![\w-])(?:answer|question|password|passwd|pwd|passcode|pin)[.:/]"
    r"(?:(?-i:[A-Z])[a-zäöüßàáâãçèéêëìíîïñòóôõùúûý]{3,30}|(?=[\w!#$%&*-]{0,30}?[0-9])(?=[\w!#$%&*-]{0,30}?[A-Za-z])"
    r"[\w!#$%&*-]{4,30})(?![\w./:])")


# --- an answer, after its question and where it was given ------------------------------------------

_FAVOURITE_TEACHER = (
    r"(?:favou?rite\s++teacher|teacher\s++(?:I|you)\s++liked\s++most|lieblingslehrer\w*|professeur\s++pr[ée]f[ée]r[ée]e?"
    r"|profesora?\s++favorit[oa]|maestr[ao]\s++(?:favorit[ao]|preferid[ao]|preferit[ao])|professora?\s++favorit[oa]|professore(?:ssa)?\s++preferit[oa]|insegnante\s++preferit[oa]"
    r"|maestra\s++preferita|favoriete\s++(?:leraar|lerares|juf|meester)|ulubion[ya]\s++nauczyciel\w*"
    r"|oblíben[áý]\s++učitel\w*|obľúben[áý]\s++učiteľ\w*|profesoar[aă]\s++preferat[aă]|profesorul\s++preferat"
    r"|favoritlärare|yndlingslærer\w*|favorittlærer\w*|en\s++sevdiğim\s++öğretmen\w*|sevdiğim\s++öğretmen"
    r"|любим\w*\s++учител\w*|улюблен\w*\s++вчител\w*|αγαπημέν\w*\s++δάσκαλ\w*|המורה\s++האהוב\w*|المعلم\s++المفضل"
    r"|معلم\s++محبوب|پسندیدہ\s++استاد|पसंदीदा\s++(?:टीचर|शिक्षक)|প্রিয়\s++শিক্ষক|最喜欢的老师|最喜歡的老師|好きだった先生"
    r"|좋아하던\s++선생님|ครูคนโปรด|giáo\s++viên\s++yêu\s++thích|guru\s++favorit|mwalimu\s+(?:ninayempenda|kipenzi))"
)
# where an answer is given: a bank, an insurer, an account's login, "I wrote", "I put"
_GIVEN_TO = (
    r"(?:bank|banca|banque|banco|banku|banky|bancă|banca|banken|bankaya|банк\w*|בנק|بنک|بانک|بنك|للبنك|बैंक|ব্যাংক\w*"
    r"|银行|銀行|은행|ธนาคาร|ngân\s++hàng|paypal|insurer|insurance|versicherung|assurance|seguro|login|account|konto"
    r"|puse|pus|wrote|put|gave|angegeben|eingetragen|écrit|mis|escribí|escrevi|scritto|messo|ingevuld"
    r"|wpisał\w*|napsal\w*|dala|scris|yazdım|lưu|tulis|nulis|כתבתי|كتبته|نوشتم|لکھا|लिखा|লিখেছি|填的|書いた|적었)"
)
_TEACHER_ANSWER = lazy(r"(?i)" + _FAVOURITE_TEACHER + r"[^\n]{0,80}?" + _GIVEN_TO + r"[^\n]{0,40}?(?:[:：—–→]|\s(?:puse|pus))"
                       r"\s*+[\"'“„«]?\S"
                       r"|(?i:" + _FAVOURITE_TEACHER + r")\s*+(?:[—–]|,)\s*+[^\n,]{2,40}?,\s*+[^\n]{0,30}?"
                       r"(?:puse|wrote|put|gave|angegeben|eingetragen|écrit|mis|escribí|escrevi|scritto|messo|ingevuld"
                       r"|wpisał\w*|napsal\w*|dala|scris|yazdım|כתבתי|كتبته|نوشتم|لکھا|लिखा|লিখেছি|填的|書いた|적었)"
                       + r"|(?i:" + _FAVOURITE_TEACHER + r")\s*+[?？]\s*+[^\n]{0,30}?" + _GIVEN_TO + r"\s++\S")
# a security question in more languages, and its answer after a colon or "the answer is"
_SECURITY_QUESTION_MORE = lazy(
    r"(?i)(?:pregunta\s++de\s++seguretat|bezpečnostn[áa]\s++otázk\w*|таен\s++въпрос|таен\w*\s++въпрос|حفاظتی\s++سوال"
    r"|سوال\s++امنیتی|pertanyaan\s++keamanan|swali\s++la\s++usalama|安全問題|보안\s*+질문|sikkerhetsspørsmål)"
    r"[^\n]{0,80}?(?:[:：]|jawabnya|jawaban(?:nya)?|odpoveď|отговор|جواب|answer)\s*+[\"'“„«]?\S"
    # an answer after the question in quotes, told to a bank or a login: '"in what city did your
    # parents meet" → I told the bank Tromsø', 'first holiday you remember, for the energy company login: Skegness'
    r"|[\"“][^\"”\n]{8,60}[\"”]\s*+(?:→|->|:)\s*+[^\n]{0,30}?(?:told|gave|put|wrote)\s++(?:the\s++|my\s++)?"
    r"(?:bank|insurer|insurance|site|website|app|portal|support|form)\b[^\n]{0,30}?\s(?-i:[A-Z])"
    r"|(?:first|favou?rite|childhood|oldest)\s++[\w ]{2,40}?,\s*+for\s++(?:the\s++)?[\w ]{2,40}?login\s*+[:：]\s*+(?-i:[A-Z])"
    r"|answer\s++I\s++gave\s++(?:the\s++)?(?:insurer|bank|insurance|site|website|app|portal)[^\n]{2,60}?\s++is\s++\S"
)


# --- a memory tool's fields, with a value among them ----------------------------------------------

# 'service: "Dad's bank app", pass: "Lamyai@Pa"': quoted fields, and one that is a value
_FIELDS = lazy(r"[\w\u0080-\uffff]{1,20}\s*+[:：]\s*+[\"“][^\"”\n]{1,60}[\"”]")
_FIELD_VALUE = lazy(r"(?i)(?:pass\w*|pw|pwd|mk|mật\s*+khẩu|รหัส\w*|پاس\w*|value|värde|valor|valeur|wert|waarde|valore"
                    r"|secret|pin|code|kod|kode|код|contraseña|senha|parola|şifre|hasło|heslo|wachtwoord|passwort|lösenord"
                    r"|passord|sandi|密码|パスワード|비밀번호)\s*+[:：]\s*+[\"“](?=[^\"”\s]{0,30}?[_@#!$%&*0-9])(?=[^\"”\s]{0,30}?[^\W\d_])(?=[^\"”\s]{0,30}?(?-i:[A-Z]))"
                    r"[^\"”\s]{5,30}[\"”]")
_A_SERVICE_FIELD = lazy(r"(?i)(?:service|tjänst|dịch\s++vụ|سروس|บริการ|servicio|serviço|servizio|dienst|usługa|сервис"
                        r"|servis|layanan|huduma|サービス|服务|서비스|שירות|خدمة|سرویس|सेवा|সেবা)\s*+[:：]")


def _fields_with_a_value(text: str) -> bool:
    return bool(_A_SERVICE_FIELD.search(text)) and len(_FIELDS.findall(text)) >= 2 and bool(_FIELD_VALUE.search(text))


# A credential told in its two halves, each after "is" or a colon: "The first half of my bank login is Orchid and the
# second half is 5529!" (not a match's or a term's halves, "The first half of the match was 2-1 and the second half
# 0-0": the first half is of a login, a password, a passcode, a PIN or a code; nor what they are like, "The first
# half of my password is easy to remember and the second half is harder")
_IN_TWO_HALVES = lazy(
    r"(?i)(?<!\w)first\s++half\s++of\s++(?:my|the|his|her|our|their|your)\s++(?:[^\W\d_]++\s++){0,2}?"
    r"(?:login|password|passcode|passphrase|pin|code|wi-?fi\s++key)\s++(?:is|=|[:：])\s*+[\"'“‘]?"
    # (each half a value: a capital, a digit or a sign in it, not "easy" and "harder")
    r"(?=[^\s\"'”’,;]{0,39}(?-i:[A-Z0-9!@#$%&*?+=_]))[^\s\"'”’,;]{2,40}"
    r"[^\n]{0,40}?(?<!\w)second\s++(?:half|part)\s++(?:is|=|[:：])\s*+[\"'“‘]?(?=[^\s\"'”’;]{0,39}(?-i:[A-Z0-9!@#$%&*?+=_]))"
    r"[^\s\"'”’;]{2,40}")


# (reason, check, needles in lower case): ``labelled._CHECKS`` runs them after its own
CHECKS = (
    ("looks like a password told in parts", _IN_TWO_HALVES.search, ("first half",)),
    ("looks like a password told in parts", _told_in_parts,
     ("together", "joined", "space", "one word", "coll", "attach", "zusammen", "leerzeichen", "stück", "razem", "łącznie",
      "lacznie", "junt", "pegad", "colad", "insieme", "attaccat", "samen", "elkaar", "ihop", "tillsammans", "sammen",
      "ett ord", "bitişik", "birleşik", "dikit", "liền", "digabung", "disambung", "spasi", "слитно", "вместе", "разом",
      "злито", "împreună", "lipit", "dohromady", "dokopy", "spolu", "együtt", "egybe", "μαζί", "κολλητά", "ביחד", "צמוד",
      "ملزوق", "مع بعض", "چسبیده", "saath", "साथ", "মিলিয়ে", "একসাথে", "ติดกัน", "连在一起", "連在一起", "连着", "連著",
      "つなげて", "続けて", "붙여")),
    ("looks like a code told in parts", _code_in_ordered_parts,
     ("first", "erst", "abord", "primer", "prima", "eerst", "först", "forst", "najpierw", "сначала", "спочатку", "önce",
      "pehle", "קודם", "أول", "اول", "पहले", "আগে", "まず", "먼저", "dulu", "pertama", "then", "πρώτα", "snachala",
      "spochatku", "awwalan", "awalan", "avval", "aval", "prwta", "prota", "mula")),  # ("code is 48 then 27")
    ("looks like a passphrase told as a sentence", _passphrase_told,
     ("space", "spatie", "spazi", "espace", "espacio", "espaço", "espais", "leerzeichen", "spacj", "пробел", "пробіл",
      "razmak", "razmac", "spați", "spati", "κενά", "רווחים", "مسافات", "فاصله", "اسپیس", "boşluk", "mezer", "medzer", "mellom",
      "mellan", "mellem", "szóköz", "เว้นวรรค", "スペース", "띄어쓰기", "空格", "dấu cách", "spasi", "nafasi", "интервал",
      "välilyön", "स्पेस", "স্পেস")),
    # (no needles: a needle for each pair of digits made the needle search of every text slower
    # than the search for the digits themselves)
    ("looks like a code told a digit at a time", _digits_apart, ()),
    ("looks like a PIN or a lock's code", _AMHARIC_PIN.search, ("ፒን", "ፒኔ", "ኮድ")),
    ("looks like a PIN or a lock's code", _ITS_CODE_IN_FINGLISH.search, ("ramzesh", "ramzash")),
    ("looks like a code told a digit at a time", _A_LOCKERS_DIGITS_IN_JAPANESE.search, ("ロッカー", "金庫")),
    ("looks like a PIN or a lock's code", _AN_INTERCOMS_CODE.search,
     ("domofon", "interfon", "intercom", "citofono", "portero", "interphone", "digicode")),
    ("looks like a lock's combination", _DIAL_MOVES.search,
     ("turn", "spin", "rotate", "left", "right", "links", "rechts", "gauche", "droite", "izquierda", "derecha",
      "sinistra", "destra", "右に", "左に", "вліво", "вправо", "влево", "лево", "десно", "desno", "levo", "lijevo", "оңго",
      "солго", "కుడికి", "ఎడమకు", "የማን", "ጸጋም")),
    ("looks like a lock's combination", _dial,
     ("combination", "combo", "combinaison", "combinazione", "combinaci", "combinação", "combinacao", "kombination",
      "kombinacja", "szyfr", "комбинаци", "şifre", "kombinace", "kombinasi", "cyfuniad", "konbinazio")),
    # (told for a code or a lock, by its name; the digit names themselves,
    # words of every language, made the needle search of every text twice as slow)
    ("looks like a code told a digit at a time", _digits_one_by_one,
     ("digit", "cyfra", "ziffer", "chiffre", "gito", "cifra", "cijfer")),
    ("looks like a code told a digit at a time", _digit_names,
     ("code", "kod", "kód", "код", "koodi", "codi", "kóð", "kood", "cod", "cód", "còd", "ताल्चा", "адчыняецца", "ਪਿੰਨ", "šifr", "шифр", "tunnusluku",
      "namba ya siri", "kandado", "katanac", "катанац", "msimbo", "kufuli", "কোড", "κωδικ", "코드", "번호", "暗証", "密码", "رمز", "کوڈ", "کد", "كود", "קוד", "pin", "förråd",
      "пин", "пін", "lock", "lås", "zámek", "zámok", "замок", "замка", "сейф", "χρηματοκιβώτιο", "금고", "خزنة", "تجوری",
      "گاوصندوق", "כספת", "cadenas", "candado", "lucchetto", "kłódk", "kasa", "safe", "tresor", "coffre", "caja",
      "cassaforte", "brankas", "két sắt", "ตู้เซฟ", "तिजोरी", "déverrouill", "débloqu", "unlock", "entsperr", "desbloque",
      "sblocc", "ontgrendel", "odblok", "разблок", "розблок", "key box", "keybox", "lock box", "lockbox", "boîte à cl",
      "boite a cl", "schlüssel", "sleutelkluis", "nyckelbox", "opens with", "ouvre avec", "öffnet", "abre con", "apre con",
      "খোলে", "فتح", "مفاتيح", "נפתח", "תיבת", "पिन", "कोड", "पासकोड", "குறியீடு", "பூட்டு", "sejf", "atm", "ரகசிய",
      "ramz", "chìa", "警報", "警报", "fungu", "ανοίγει", "ανοιγει", "anoigei", "open with", "codul", "kóòdù", "koodu",
      # (the words for a password, ``_A_PASSWORD_NAMED``)
      "password", "passphrase", "pass phrase", "passwort", "kennwort", "contrase", "senha", "wachtwoord", "hasł",
      "mot de passe", "phrase secr", "пароль", "парол", "şifre", "parola", "jelsz", "jelmondat", "heslo", "lozink",
      "συνθηματικ", "סיסמ", "كلمة", "پاسورد", "پسورد", "पासवर्ड", "パスワード", "パスフレーズ", "비밀번호", "비번", "รหัส",
      "mật khẩu", "kata sandi", "passord", "lösenord", "adgangskode", "salasana")),
    ("looks like a PIN that is a year of birth", _YEAR_PIN.search,
     ("born", "birth", "geburtsjahr", "jahrgang", "nascita", "nacimiento", "naci", "nasceu", "nascimento", "naissance",
      "geboortejaar", "рождения", "народження", "nașterii", "nasterii", "narození", "urodzenia", "doğum", "năm sinh",
      "تولد", "הלידה", "پیدائش", "জন্ম", "जन्म", "生まれ年", "出生年", "태어난", "출생", "tahun lahir", "födelseår",
      "fødselsår", "syntymävuo", "születési", "γέννησης", "γεννήθηκε")),
    ("looks like a password told by its letters' case", _case_told,
     ("capital", "upper", "majuscul", "mayúscul", "maiúscul", "maiuscol", "groß", "gross", "hoofdletter", "wielk",
      "заглавн", "больш", "велик", "büyük", "大文字", "大写", "大寫", "ใหญ่", "कैपिटल", "বড়", "besar", "kapital",
      "κεφαλαίο", "גדולה", "بزرگ", "کیپیٹل", "대문자")),
    ("looks like a password told for a device", _tablet_value,
     ("tablet", "tablette", "τάμπλετ", "планшет", "تبلت", "تابلت", "ট্যাবলেট", "टैबलेट", "平板", "タブレット", "태블릿",
      "แท็บเล็ต", "máy tính bảng", "tab ", "compu ", "ipad", "chromebook",
      "lower", "minúscul", "minuscul", "küçük harf", "小写", "小寫", "小文字", "حروف صغيرة", "klein")),
    ("looks like a password (a word, a sign and more)", _only_a_password, ("#", "!", "$", "%", "&", "*", "@", "_")),
    ("looks like a password (a word, a sign and more)", _a_word_and_number_told, ()),
    ("looks like a password (a stand-in's word and a random part)", _stand_in_and_more,
     ("placeholder", "change", "motdepasse", "mot-de-passe", "password", "passwort", "contrase", "senha", "wachtwoord",
      "hasło", "haslo", "parola", "token", "secret", "template", "default", "example")),
    ("looks like a password spelled a character at a time", _spelled_with_dashes, ()),
    ("looks like a PIN or a lock's code", _LETTERED_CODE.search, ("door", "gate", "garage", "alarm", "keypad", "lockbox",
                                                                 "safe", "locker", "padlock", "entry", "building")),
    # G: a value in a key's path ("security.answer.Schneewittchen", "wifi.password.Kestrel77")
    ("looks like a value in a key's path", _VALUE_IN_A_PATH.search,
     ("answer", "question", "password", "passwd", "pwd", "passcode", "pin", "code", "combination")),
    ("looks like the answer to a security question", _TEACHER_ANSWER.search,
     ("teacher", "lehrer", "professeur", "profesor", "professor", "insegnante", "maestra", "leraar", "lerares", "juf",
      "meester", "nauczyciel", "učitel", "učiteľ", "profesoar", "favoritlärare", "lærer", "öğretmen", "учител",
      "вчител", "δάσκαλ", "המורה", "المعلم", "معلم", "استاد", "टीचर", "शिक्षक", "শিক্ষক", "老师", "老師", "先生",
      "선생님", "ครู", "giáo viên", "guru", "mwalimu")),
    ("looks like the answer to a security question", _SECURITY_QUESTION_MORE.search,
     ("seguretat", "bezpečnostn", "въпрос", "حفاظتی", "امنیتی", "keamanan", "usalama", "安全問題", "보안", "sikkerhets",
      "told", "gave", "wrote", "login")),
    ("looks like a labelled credential", _fields_with_a_value,
     ("service", "tjänst", "dịch vụ", "سروس", "บริการ", "servicio", "serviço", "servizio", "dienst", "usługa", "сервис",
      "servis", "layanan", "huduma", "サービス", "服务", "서비스", "שירות", "خدمة", "سرویس", "सेवा", "সেবা")),
)
