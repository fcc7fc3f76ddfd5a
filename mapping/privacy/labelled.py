"""The gate's layer for labelled values: a value a label calls a credential, whatever its format.

- an assignment to a credential-named variable (``SMTP_PASS=…``, ``export GH_TOKEN=…``,
  ``docker run -e DB_PASSWORD=…``, ``"client_secret": "…"``), unless the value is a reference
  (``${VAR}``, ``$VAR``, ``<your key>``, ``os.environ[…]``) or code (``getpass.getpass()``,
  ``request.headers.get(…)``);
- a value after a credential label and a colon, ``is`` or a dash (``key for the VPN: V``,
  ``secret: V``, ``pw: V``, ``pass - V``, ``creds: admin / V``, ``login jsmith / V``), when the
  value has the shape of one (``_shaped``): no space, letters mixed with digits or signs, and
  not a description (``4096-bit``, ``AES-256``), an address or a name in code;
- a password on a command line (``mysql -pSecret1``, ``sshpass -p '…'``);
- a one-word password at the end of its sentence (``the guest password is summer!``);
- a password-shaped token on a line that says "password" in one of 25 languages, or "log in",
  "creds", "p/w", "wifi key" (``use Daisy1971! to log in to the NAS``, ``Revolut şifrem …``);
- a PIN or a lock's code: 3 to 8 digits on a line that names one (``Garage keypad: *9853``), or
  4 to 8 spelled out (``seven three zero five``);
- the answer to a security question, and a ``.pgpass`` line;
- a random-looking token (20+ characters mixing cases and digits; hex after a key's name) on a
  line that names a secret, a token or a key in any of a dozen languages.

Each check runs only where one of its needles is (``_CHECKS``). Pure functions, no I/O.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from pdsmem.mapping.privacy import beside, password_words, personal, told, words
from pdsmem.mapping.privacy.plain import (
    LazyPattern, Needles, der_inside, folded_pattern, lazy, lowered, lowered_search, lowered_spans)
from pdsmem.mapping.privacy.rules import (
    _DESCRIPTION, AT_LEAST, BRACKETED_SLOT, CHANGE_ME, KEYS_WORD_ELSEWHERE, NO_SPACE_SCRIPTS, STAND_IN, TRIVIAL_CODE,
    URL_STAND_IN, a_demos_code,
)

# what names a credential in a variable: the end of its name (DB_PASSWORD, AUTH_TOKEN, db_pw),
# within 48 characters of its start (unbounded, a run of "a.a.a…" was scanned from every dot)
_NAME_ENDS = (r"pass(?:word|wd|phrase|code)?|pwd|pw|secret|token|api_?key|access_?key|secret_?key|private_?key"
              r"|app_?key|master_?key|encryption_?key|jwt_?key|session_?key|crypto_?key"
              r"|auth(?:_?key)?|credentials?|creds|client_?secret|signing_?key|webhook_?secret|passwort|senha|motdepasse")
_ASSIGNED = lazy(
    r"(?i)(?<![A-Za-z0-9])[A-Za-z0-9_.-]{0,48}?(?:" + _NAME_ENDS + r")[\"'\]]?\s*+(?::=|=>|==?|:)[^\S\n]*+[\"']?"
    r"(?P<value>[^\s\"',;]{4,})"
)
# A reference to a value kept elsewhere, or code that computes one: what such a value starts with or
# is whole, asked at its start alone, and what it holds anywhere, one search of its lower case (the
# two in one search took 15 µs over a ten-letter token: every alternative at every position).
_NOT_A_VALUE_START = lazy(
    # a reference, whole or before a path ("$HOME/.ssh", "%APPDATA%\\x"; not "$q18)Fs1rf", "%ai%DPmn4o")
    r"(?i)\$\{?\w[\w}]*+(?:[/\\.:@-]\S*)?$|\$\{|%\w+%(?:[/\\.]\S*)?$|<[^>]*>?|" + BRACKETED_SLOT + r"[.,;]?$|\([a-z]{3,20}\)[.,;]?$|\{[a-z_][\w.]*?(?:pass(?:word|wd)?|pwd|secret|token|key)\}|!secret$|(?-i:[A-Z][A-Z0-9]{1,9}-[0-9]{1,6})[.,;:!?]?$"
    # what a password's state is: "Password: updated.", "WLAN-Passwort: geändert."
    r"|(?:updated|changed|reset|expired|rotated|n/a|geändert|modifiée?|cambiad[ao]|alterad[ao]|gewijzigd|zmienione"
    r"|ändrat|endret|ændret|cambiat[ao]|mudad[ao])[.!]?$"
    # a rule, not a value: "Passwort: mindestens 10 Zeichen"
    r"|(?:" + AT_LEAST + r")$"
    # the values documentation shows: Kubernetes' base64 of "password" and "admin"
    r"|(?-i:cGFzc3dvcmQ=|YWRtaW4=)[.,;]?$"
    # "your key", "key here", "change me" in other languages, as the whole value: "DEIN-SCHLUESSEL", "changez-moi"
    r"|(?:" + STAND_IN + r")[.,;:!?]?$"
    # a call, a path in code (possessive: what follows a name is never a letter of it)
    # (a call's bracket closes: "getpass()", "os.environ['X']"; not "j(On0JusTS")
    r"|[A-Za-z_]\w*+(?:(?:\.|::)[A-Za-z_]\w*+)*+(?:(?:::)?<[\w:<>, ]{1,60}>)?(?:::[A-Za-z_]\w*+)*+\s*+[(\[]"
    r"|[A-Za-z_]\w*+\.[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)*+$|\$\("
    r"|(?-i:[A-Z][A-Z0-9_]*|[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]+)+)$"
    # a type in a signature ("password: SecretStr)", "token: str"), a keyword ("raise", "await")
    r"|(?-i:str|int|bytes|bool|float|string|number|Optional|SecretStr|SecretBytes)\b|(?-i:[A-Z][A-Za-z]*[)\]]`?)$"
    r"|(?-i:raise|return|await|yield|lambda|not|new|typeof)$"
)
_NOT_A_VALUE_ANYWHERE = lowered_search(
    r"(?i)\{\{|os\.|process\.|env\b|environ|getenv|config\.|settings\.|request\.|req\."
    r"|self\.|this\.|params|args|kwargs|input\(|getpass|prompt|secrets\.|vault|none$|null$|nil$|undefined$|true$"
    r"|(?:ctrl|alt|shift|cmd|option|super)\+"
    r"|false$|[*＊]{3,}|•{3,}|_{3,}|x{4,}(?![a-z0-9])|\.{3}|…|redacted|" + CHANGE_ME + r"|replace[_-]?me|your[_-]|example|placeholder|dummy|todo"
    # a template's slot and words: "npm_<token>", "username:password"
    r"|<[a-z_ -]{2,30}>$|<your$|^user(?:name)?:pass(?:word)?$"
)


def _not_a_value(value: str) -> bool:
    """Whether ``value`` refers to one kept elsewhere or is code that computes one (``os.environ[…]``,
    ``${DB_PASSWORD}``, ``getpass()``), a stand-in (``changeme``, ``<password>``) or a state
    ("updated")."""
    return _NOT_A_VALUE_START.match(value) is not None or _NOT_A_VALUE_ANYWHERE(value)


# a label, then up to four words (what for), then a colon, an "is" or a dash, then the value
_LABEL = (r"(?:pass(?:word|wd|phrase|code)?|pw|pwd|secret|token|auth(?:entication)?[\s_-]?code|authentifizierungscode"
          r"|(?:api|access|secret|private|license|auth|"
          r"encryption|signing|master|vpn)[\s_-]?key|(?<!(?<!non-)public\s)(?<!(?<!non-)public[_-])key|creds|credentials|login|passwort|kennwort|mot\s+de\s+passe"
          r"|contraseña|senha|wachtwoord|hasło|lösenord|пароль|şifre)")
_LABELLED = lazy(  # (not documentation's example: "the example token is 'abc123'")
    r"(?i)(?<![\w-])(?<!example\s)(?<!sample\s)(?<!dummy\s)(?<!placeholder\s)" + _LABEL + r"(?:\s++(?:for|to|of|at|on|für|zum|vom|von|di|per|van|de|del|pour|do|da|для|от)"
    r"(?:\s++[^\s:=]{1,30}?){1,3}?|\s++(?-i:[A-Z])[\w-]{1,30})?(?:\s*+[:=：]|\s++(?:is|was|ist|est|c['’]est|es|è|é|är|er|to|jest|это|คือ|-|–|—)(?:\s*+:)?)"
    r"\s*+[\"'`“‘«„(\[]?(?P<value>[^\s\"'`”’»)\],;]{4,100})"
)
# a user and a password: "login jsmith / Tr0ub4dor", "creds: admin / hunter22", "admin:hunter22 for the NAS"
_PAIR = lazy(
    r"(?i)(?<![\w-])(?:login|creds|credentials|user(?:name)?|benutzer|utilisateur|usuario|account)\s*+[:=]?\s*+"
    r"[\w.@+-]{2,40}\s*+(?:/|\||,\s*+(?:pass(?:word)?|pw|pwd)\s*+[:=]?)\s*+(?P<value>[^\s\"',;]{4,100})"
    # or after a user's word, a system's account and a value apart by a space ("user root Tr0ub4dor"), or
    # any user and a value apart by a comma ("username admin, 1234abcd", "user ftpuser, bluebird88"),
    # the value ending its clause (not "User prefers python311", "Deleted user alice, ticket4521": the
    # comma's pair needs a word for an account or what one opens, ``_AN_ACCOUNTS_PLACE``)
    r"|(?<![\w-])(?:user(?:name)?|benutzer|utilisateur|usuario)\s*+[:=]?\s*+"
    r"(?:(?:root|admin|administrator|pi|ubuntu|guest|postgres|oracle|sa|ftp\w*)\s++|[\w.@+-]{2,40},\s*+(?P<comma>))"
    r"(?P<value2>[^\s\"',;]{4,100})(?=[.!?]*+(?:$|\n)|[.,;!?]\s)"
)
_AN_ACCOUNTS_PLACE = lazy(r"(?i)(?<![^\W\d_])(?:account|accounts|login|log\s*+in|creds|credentials|ftp|sftp|ssh|vpn|router"
                          r"|printer|nas|server|panel|portal|wifi|wi-fi|konto|compte|cuenta|conta|zugang|acceso|accesso)"
                          r"(?![^\W\d_])")
# what describes a value rather than states it: a length, a scheme, an encoding ("4096-bit",
# "AES-256-GCM-encrypted", "OAuth2-based", "base64url-encoded"), an address, or words joined by
# hyphens ("2tbsp-of-brown-butter")
_DESCRIBED = lazy(r"(?i)(?:" + _DESCRIPTION + r"|.*://|//|[^-]*+(?:-[a-z]{2,}+){2,}$"
                        r"|.*-(?:bit|based|long|encoded|encrypted|hashed|signed|protected|only|style|like|free|safe)$)")


_CAMEL_WORDS = lazy(r"(?:[A-Z][a-z]{2,}){3,8}[0-9]{0,4}|(?:[A-Z][a-z]{2,}){2,8}[0-9]{1,4}[!?#$%&*@+]?")


def _shaped(value: str) -> bool:
    """Whether ``value`` has the shape of a password, key or token rather than a word or a number."""
    value = value.rstrip(".!?:") if value[-1:] in ".?:" else value
    if len(value) < 5 or value.isalpha():
        return False  # (a word: no regex needed to say so)
    if _not_a_value(value) or _DESCRIBED.match(value):
        return False
    letters = sum(char.isalpha() for char in value)
    digits = sum(char.isdigit() for char in value)
    signs = len(value) - letters - digits
    if letters and digits:
        return not value.isdigit() and not re.fullmatch(r"(?i)v?[0-9.]+[a-z]{0,3}|[a-z]+-?[0-9]{1,2}", value) or bool(
            _CAMEL_WORDS.fullmatch(value))  # "python3" is a name, "WalrusMarbleRiver29" a passphrase
    if letters and signs:
        return bool(re.search(r"[a-zA-Z][!@#$%^&*+=~?]", value)) and not re.fullmatch(r"[\w-]+[.!?]", value)
    return digits >= 6 and not letters


# a password given on a command line: "mysql -pSecret1", "sshpass -p 'x'", "--password x", "-u sk_…:"
_FLAG = lazy(
    r"(?<![\w-])(?:-p|--pass(?:word)?|--token|--auth-token|--api-key|--secret|--account-key|--client-secret|-u)"
    r"(?:=|[^\S\n]++|(?=[A-Za-z]))[\"']?(?P<value>[^\s\"']{6,200})"
)
# a password a command is given in its own way: "redis-cli … -a PASS", "ldapsearch … -w PASS",
# "mysql -u x -p.PASS", "rabbitmqctl add_user USER PASS", "htpasswd -b FILE USER PASS"
_COMMAND_SECRET = lazy(
    r"(?i)(?:redis-cli\b[^\n]*?\s-a|ldap\w*\b[^\n]*?\s-w|(?:mysql|mariadb|mysqldump|mysqladmin)\b[^\n]*?\s-p(?=\S)"
    r"|rabbitmqctl\s++(?:add_user|change_password)\s++\S+|htpasswd(?:\s++-\w+)*?\s++-\w*b\w*(?:\s++-\w+)*+\s++\S+\s++\S+|net\s++user\s++\S+"
    r"|sshpass\s++-p|smbclient\b[^\n]*?\s-U\s*+[^\s%]{1,40}%"
    r"|(?:mongosh|mongo|mongodump|mongorestore|mongoimport|mongoexport)\b[^\n]*?\s(?:-p|--password[=\s])"
    r"|rclone\b[^\n]*?\spass(?:word)?\s"
    # a user and password to curl, an archive's password to unzip, zip and 7-Zip
    r"|curl\b[^\n]*?\s(?:-u|--user)(?:\s++|=)?[\"']?[^\s:\"'=]{1,40}:|(?:unzip|zip|funzip|sqlcmd|bcp)\b[^\n]*?\s-P|7za?\b[^\n]*?\s-p(?=\S))\s*+(?:[\"'](?P<quoted>[^\"'\n]{4,200})[\"']|(?P<value>[^\s\"']{4,200}))")
# what a password is said to be, in one word at the end of its sentence: "the guest network password
# is summer!", "pass orange?", "Mein Passwort ist waffles."; not a word that describes it
# what is said of a password's letters: "all lowercase", "with a capital first letter", "małymi
# literami", "küçük harflerle", "avec une majuscule": said right after a word, the word is a password
_CASE_TOLD = (
    r"(?i:(?:all\s++|in\s++|with\s++|avec\s++|con\s++|com\s++|mit\s++|met\s++|cu\s++|z\s++|ze\s++)?"
    r"(?:a\s++|an\s++|une?\s++|einem?\s++|una?\s++|um\s++|een\s++)?"
    r"(?:capital|lower\s*+case|upper\s*+case|small\s++letters|majuscule|minuscule|mayúscula|minúscula|maiuscol\w*"
    r"|minuscol\w*|gro(?:ß|ss)(?:em|en)?\s*+(?:anfangs)?buchstab\w*|gro(?:ß|ss)buchstab\w*|kleinbuchstab\w*|hoofdletter"
    r"|kleine\s++letters|wielk\w*\s++liter\w*|mał\w*\s++liter\w*|nagy\s++kezdőbetű\w*|kis\s++betű\w*|liter[ăa]\s++mic[ăa]"
    r"|liter[ăa]\s++mare|küçük\s++harf\w*|büyük\s++harf\w*|små\s++bokstäver|stor\s++bokstav|маленьк\w*\s++букв\w*"
    r"|больш\w*\s++букв\w*|строчн\w*|заглавн\w*|velk\w*\s++písm\w*|mal\w*\s++písm\w*|wielkie\s++litery"
    r"|małe\s++litery|小写|大写|소문자|대문자|小文字|大文字))")
_CASE_AFTER = lazy(r"[\"'”’»」]?\s*+[,(–—-]?\s*+(?:\w+\s++){0,3}?" + _CASE_TOLD)
# the words that start what ``_CASE_TOLD`` finds (more than it takes): one search of a line's lower
# case, before ``_CASE_AFTER`` is tried at each of its words (a few µs each)
_CASE_WORDS = lowered_search(r"(?i)capital|lower|upper|small|majuscul|minuscul|may[uú]scul|min[uú]scul|maiuscol|minuscol|gro[ßs]"
                             r"|klein|hoofdletter|wielk|mał|kezdőbet|betű|liter|harf|bokst|маленьк|больш|строчн|заглавн"
                             r"|písm|小写|大写|소문자|대문자|小文字|大文字")
_ONE_WORD = lazy(
    r"(?i)(?:(?<!\w)|(?<=(?-i:[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af])))(?:pass(?:word)?|pw|pwd|p/w|passcode|passwort|kennwort|mot\s++de\s++passe|mdp|contraseña|(?<!palabra\s)clave|senha"
    r"|wachtwoord|hasło|lösenord(?:et)?|passord(?:et)?|adgangskode(?:n)?|salasana(?:ni)?|heslo|jelszó|parola|κωδικός|συνθηματικό"
    r"|şifre(?:si)?|пароль|password\s++di\s++\w+|(?<!palabra\s)clave\s++del\s++\w+|wifi\s++şifresi|ww|contra|lösen|пасс|security\s++word"
    r"|\w{2,12}-?(?:lösenord(?:et)?|wachtwoord|passwort|kennwort|kodeord(?:et)?|passord(?:et)?)|kodeord(?:et)?"
    r"|parola\s++d['’]ordine|mật\s++khẩu|kata\s++sandi|jelszav\w*|salis|verbal\s++password|パスワード|ה?סיסמ[הא]"
    # Afrikaans, Basque, Galician, Catalan, Slovene, Lithuanian; Serbian, Croatian and Bosnian in both scripts
    r"|wagwoord|pasahitz(?:a|ak)?|contrasinal|contrasenya|geslo|slapta[žz]od\w{1,3}|лозинк[аеу]|lozink[aeu]|κωδικό)"
    r"(?:\s++(?:my|mein|mon|mi|mio|meu|mijn|moje|min|mitt|μου|мой))?"
    # whose, then what for: "Hasło Greta do Netflix:", "הסיסמה של Hanna ל-Proxmox:"
    r"(?:(?:\s++(?:של\s++)?(?P<owner>(?-i:[A-Z])[\w-]{1,30}))?"
    r"\s++(?:for|of|to|für|von|vom|zum|zur|de|del|di|per|van|voor|till|til|för|do|od|na|dla|para|pour|palveluun"
    r"|tilille|για|от|для|של|sa|vir|kwa|за|per\s++a)(?:\s++[^\s:=\"'„“«]{1,30}?){1,5}?"
    r"|\s++(?-i:[A-Z])[\w-]{1,30}|(?P<middle>(?:\s++[^\s:=]{1,20}){1,2}?))?"
    r"(?:\s++(?P<verb>(?:is|was|ist|est|c['’]est|es|è|é|är|er|je|jest|lautet|on|oli|to|είναι|là|jadi)(?!\w)|—|–|-)"
    r"|\s*+(?P<colon>[:：])|\s*+(?P<comma>,)"
    r"|\s++(?:after\s+the\s+reset|hint[^:]{0,30}):|(?<=パスワード)は)"
    r"(?P<plainly>(?:\s++(?:literally|just|simply|now|still|it['’]s|wohl|toujours|nu|jetzt|maintenant|ahora|agora|adesso"
    r"|einfach|nur|simplement|juste|simplemente|solo|gewoon|bara|bare|vain|tylko"
    r"|teraz|nyt|most|şimdi|сейчас|тепер|là|jadi))*)\s*+(?P<quote>[\"'“‘«„「]?)"
    r"(?P<value>[^\s\"'”’»」]{3,40}?)[\"'”’»」]?"
    r"\s*+(?P<end>\.(?![^\W_])|[!?;,)(]|$|(?<=」)|(?<=[\"”’»]\s)|(?<=[\"”’»])|(?=" + _CASE_TOLD + r"))"
)
_DESCRIBING = lazy(
    r"(?i)(?:required|incorrect|wrong|stored|saved|managed|expired|ok|okay|fine|strong|weak|long|short|set|changed|reset"
    r"|hashed|encrypted|secret|unknown|missing|empty|blank|correct|valid|invalid|shared|same|different|easy|hard|simple"
    r"|complex|rotated|needed|protected|forgotten|lost|new|old|default|temporary|private|public|hidden|visible|good|bad"
    r"|case-sensitive|mandatory|optional|enough|there|here|it|this|that|none|nothing|fixed|working|broken|locked|in|on"
    r"|manager|policy|field|prompt|reset|change|login|auth|the|a|an|his|her|their|my|our|your|too|not|also|only"
    # what a rule says of its letters: "8+ characters with upper and lower case"
    r"|upper|lower|capital|capitals|small|big|mixed|both|letters|characters|digits|numbers|symbols"
    # and in the languages whose words for a letter's case ``_CASE_WORDS`` reads
    r"|caracteres|car[áa]cteres|caract[èe]res|caratteri|zeichen|tekens|znak[óo]w|znaků|karakter\w*|tecken|tegn|merkki[äa]"
    r"|символ\w*|letras|lettres|lettere|buchstaben|letters|litery|písmen|d[íi]gitos|chiffres|cifre|ziffern|cijfers|cyfr"
    r"|may[uú]scul\w*|min[uú]scul\w*|majuscul\w*|minuscul\w*|maiuscol\w*|minuscol\w*|gro[ßs]buchstaben|kleinbuchstaben"
    r"|hoofdletters?|wielkie|wielkich|ma[łl]e|ma[łl]ych)[.!?]?")
# a security question's answer: "Sicherheitsfrage Geburtsname der Mutter: Fontaine"
_SECURITY_ANSWER = lazy(
    r"(?i)(?:security\s++(?:question|answer|q)|secret\s++question|memorable\s++word|verification\s++phrase"
    r"|maiden\s++name|first\s++pet|sicherheitsfrage|geburtsname|domanda\s++di\s++sicurezza"
    r"|pergunta\s++de\s++seguran[çc]a|pregunta\s++de\s++seguridad|question\s++secr[èe]te|beveiligingsvraag"
    r"|контрольн\w*\s++вопрос|秘密の質問|보안\s*+질문|güvenlik\s++sorusu|pytanie\s++pomocnicze|answer\s++to\s++['‘\"]"
    # an answer "for" a question a security question asks ("for 'favourite teacher'"; not "for 'best pizza in town'")
    r"|answer\s++for\s++['‘\"](?=[^'’\"\n]{0,40}?(?:teacher|pet|street|city|town\s++(?:of|where)|school|mother|maiden"
    r"|car|friend|born|nickname|first|childhood|grandm|grandf|hero|book|food|sport))"
    r"|answer\s++to\s++the\s++[\w-]+\s++question|secret\s++answer|sikkerhedssp[øo]rgsm[åa]l"
    r"|s[äa]kerhetsfr[åa]ga|resposta\s++secreta|respuesta\s++secreta|r[ée]ponse\s++secr[èe]te|geheime\s++antwort"
    r"|pregunta\s++secreta|pergunta\s++secreta|geheime\s++vraag|geheimfrage"
    r"|respuesta\s++de\s++seguridad|domanda\s++segreta|childhood\s++nickname|verbal\s++password|reset\s++question"
    r"|секретн\w*\s++питання|密保|if\s++they\s++ask\s++(?:for|about)\s++my|street\s++i\s++grew\s++up\s++on"
    r"|city\s++where\s++my\s++parents\s++met"
    r"|biztons[áa]gi\s++k[ée]rd[ée]s|bezpe[čc]nostn[íi]\s++ot[áa]zk\w*|שאלת\s*+אבטחה|turvakysymy\w*|คำถามความปลอดภัย"
    r"|سؤال\s*+الأمان|ερώτηση\s++ασφαλείας|c[âa]u\s++h[ỏo]i\s++(?:b[ảa]o\s++m[ậa]t|b[íi]\s++m[ậa]t(?=[^\n:]{0,40}?(?:t[àa]i\s++kho[ảa]n|ng[âa]n\s++h[àa]ng|email|gmail|facebook|zalo|icloud|apple)))|pertanyaan\s++keamanan|[îi]ntrebarea\s++de\s++securitate"
    r"|sikkerhetssp[øo]rsm[åa]l|sikkerhe[dt]ssvar\w*|s[äa]kerhetssvar\w*|सुरक्षा\s*+प्रश्न|leánykori\s++nev\w*|nome\s++de\s++solteira|apellido\s++de\s++soltera"
    r"|nom\s++de\s++jeune\s++fille|mädchenname|旧姓|安全问题|安全問題|安全提[問问]|密保問題|सिक्योरिटी\s*+सवाल"
    r"|sicherheitsantwort|risposta\s++di\s++sicurezza|resposta\s++de\s++seguran[çc]a|r[ée]ponse\s++de\s++s[ée]curit[ée]"
    r"|antwoord\s++op\s++(?:de\s++)?beveiligingsvraag|odpowied[źz]\w*\s++(?:na\s++pytanie\s++)?(?:bezpiecze[ńn]stwa|pomocnicze)"
    r"|секретн\w*\s++вопрос"
    # the same in Latin letters, as Russian and Ukrainian are typed without their keyboard ("sekretnyj vopros")
    # (a control question in the singular only: "kontrol'nye voprosy k lekcii 3" are an exam's)
    r"|sekretn\w*\s++(?:vopros|pytann)\w*|kontrol['’]?n\w*\s++vopros(?![^\W\d_])"
    # Georgian's "security question" in Latin letters ("usafrtxoebis kitxva, pirveli …: …"; in its script, a line
    # that says who answers for a feature has it too: "უსაფრთხოების კითხვა აპში, პასუხისმგებელი: ნინო")
    r"|usafrtxoebis\s++kitxv\w*"
    # Turkish "secret question", "maiden name"; Ukrainian "control question", "maiden surname"
    r"|gizli\s++soru\w*|k[ıi]zl[ıi]k\s++soyad[ıi]\w*|контрольн\w*\s++питання|дівоч\w*\s++прізвищ\w*"
    r"|sigurnosn\w*\s++pitanj\w*|resposta\s++da\s++pergunta|[îi]ntrebare\w*\s++de\s++sigur\w*|risposta\s++segreta"
    # a telephone bank's code word: "Кодовое слово для звонка в банк — Черёмуха" (not a radio's, a shop's)
    r"|кодов\w*\s++слов\w*(?=[^\n]{0,40}?банк)"
    r")"
    r"[^\n]{0,80}?(?:[:=：→]|[—–](?=\s*+(?:(?-i:[A-Z\u00c0-\u00de])|[^\s.!?]++(?:\s++[^\s.!?]++){0,2}\s*+(?:[.!;)]|$)))|->|\bis\b|\bis\s++(?:set|changed)\s++to(?=\s++(?-i:[A-Z\u00c0-\u00de]))|\b(?:er|är)\s++satt\s++till?(?=\s++(?-i:[A-Z\u00c0-\u00de]))|\bA:|\bsay\b|\bwas\s++(?:called|named)\b|\bhette\b|\bhie(?:ß|ss)\b|答えは"
    r"|答案是|答案為|答案：|का\s++जवाब|답은|답:|\bhar\s++svaret\b|\bsvaret\s++är\b|\bsvaret\s++er\b"
    # "è", "es", "ist", "est" before a name: "la risposta … è Briciola"; not "è obbligatoria"
    r"|\s(?:è|é|es|est|ist|era|fue|était|was|är|var)(?=\s++[\"'“„«]?(?-i:[A-Z\u00c0-\u00de])[\w'’-]*+[\"'”“»]?"
    r"(?:\s++(?-i:[A-Z\u00c0-\u00de])[\w'’-]*+){0,2}\s*+(?:[.,;!?)—–]|$))"
    r"|s['’]appelait|se\s++llamaba|\bwas\s++an?(?=\s++[\"'‘“]))\s*+"
    r"(?![\"'“«„]?\s*+(?:chose|choose|use|used|using|set|enabled|disabled|stored|none|n/a|not|fake|random|made\s+up|they|refuse\w*"
    r"|never|(?:all|il|elle|on|er|sie|he|she|we|el|ella|lui|lei|ele|ela|hij|zij)\s++(?-i:[a-z])"
    r"|muss|must|should|soll|doit|debe|deve|[àa]\s++d[ée]finir|to\s++be|устаревш\w*|obsolete|outdated|veraltet"
    r"|pflicht|obligatori\w*|optionnel\w*|required|verplicht\w*|vereist|requis\w*|requerid\w*|richiest\w*"
    r"|unknown|forgot\w*|भूल\w*|don['’]t|won['’]t|nem|nincs|nie|non|nicht|kein\w*|optional\w*|opcional|facultati\w*"
    r"|something|anything|whatever|broken|page|flow|removed|skipped|gone|deleted|disabled|entfernt|supprim\w*|eliminad\w*"
    r"|(?-i:asked|gefragt|demandée?s?|preguntad[oa]s?|chiest[oa]|perguntad[oa]s?)"  # "… is asked by their bank"
    # a yes or a no the sentence goes on from: "— say no when offered", "respuesta: Sí, ayer" (not "maiden
    # name: No Eun-ji", "first pet: Oui-Oui")
    r"|(?:no|yes|sí|ja|não|oui)(?=[,.;!]|\s++(?-i:[a-z]))"
    r"|rimoss\w*|verwijderd|usunięt\w*|borttag\w*|fjernet|poistettu|odstraněn\w*|eltávolít\w*|kaldırıl\w*|удален\w*"
    r"|видален\w*|removid\w*|eliminat\w*|imneħħ\w*|հեռացված\w*"
    r"|yok|boş|bos|değil|hatırla\w*|değiştir\w*|sorma\w*|sorul\w*|formda|не|немає|необов\w*|поле|є|це|это|bu"
    r"|(?-i:that['’]?s?|this|which|what|those|these)|treba|ukloni\w*|trebuie|nu|nema|o\s++(?:scoatem|elimin\w*|[șs]tergem|mut[aă]m)"
    # a service's feature, not an answer: "The security question is Netflix's old recovery feature"
    r"|[\w-]+['’]s\s++(?:old\s++|new\s++|former\s++)?(?:recovery|security|login|sign-in|account|reset)\s++(?:feature|flow|page"
    r"|option|setting|questions?|system|process|form)"
    r")\b|कभी|मत|नहीं|不要|别|不"
    # what the question asks, its sentence ending there and the text too or another sentence going on from it: "Bank
    # asked a security question when I called: the name of my first school. I answered, then …" (not "…: the name of
    # my first school, St Anne's", nor "…: the name of my first pet. Biscuit.")
    r"|the\s++name\s++of\s++(?:my|his|her|their|our|your)\s++[^\n.;:,!?\"'”]{2,40}[.;!?]"
    r"(?:\s*+$|\s++(?-i:I|I['’]ll|I['’]d|We|They|She|He|It|Still|Need|But|So|Then)\s))\S"
    # a question set to its answer: "set the recovery question 'favorite childhood friend' to Aisha"
    r"|(?i:(?:recovery|security)\s++question\s++['‘\"][^'’\"\n]{1,60}['’\"]\s++to\s++"
    r"(?!(?:something|anything|random|a\s|an\s|the\s)\b)(?-i:[A-Z])\w)"
    # names that ordinary talk uses too ("User's first car, a Fiat Punto, is now…"): only with a colon
    r"|(?i:favou?rite\s++teacher|childhood\s++(?:best\s++)?friend|first\s++car|asks\s++['‘\"][^'’\"\n]{1,60}['’\"])"
    r"[^\S\n]*+\)?(?:[:=：→]|[^\n]{0,20}?answer\s++(?:I\s++(?:gave|use|used)\s++)?(?:is|was)\b)\s*+\S")
# A security question's name in more languages (Romanian, Irish, Afrikaans and Dutch, Welsh, Maltese,
# Latvian, Lithuanian, Estonian, Slovenian, Slovak, Bulgarian, Macedonian, Georgian, Armenian,
# Azerbaijani, Uzbek, Kazakh, Swahili, Malay, Tagalog, Basque, Catalan, Galician, Icelandic, Albanian,
# Persian, Urdu, Bengali, Tamil, Telugu), then the question it asks, quoted, then its answer after a
# colon or an arrow ("Ceist slándála an árachais, "áit ar tógadh thú": Daingean Uí Chúis"): only in
# that form, since after the name alone a colon as often gives a ticket's field ("vastutaja: Mari")
_SECURITY_QUESTION_QUOTED = lazy(
    r"(?i)(?:[îi]ntrebare\w*\s++de\s++securitate|ceist\s++sl[áa]nd[áa]la|veiligheidsvra\w*|cwestiwn\s++diogelwch"
    r"|mistoqsij\w*\s++tas-sigurt[àa]|droš[īi]bas\s++jaut[āa]jum\w*|saugumo\s++klausim\w*|turvak[üu]simus\w*"
    r"|varnostn\w*\s++vpra[šs]anj\w*|bezpe[čc]nostn\w*\s++ot[áa]zk\w*|(?:таен|защитен)\s++въпрос\w*"
    r"|безбедносн\w*\s++прашањ\w*|(?:безбедносн|сигурносн)\w*\s++питањ\w*|უსაფრთხოების\s*+კითხვ\w*|անվտանգության\s*+հարց\w*|t[əe]hl[üu]k[əe]sizlik\s++sual\w*"
    r"|xavfsizlik\s++savol\w*|қауіпсіздік\s++сұра\w*|swali\s++la\s++usalama|soalan\s++keselamatan"
    r"|tanong\s++pang-?seguridad|segurtasun\s++galder\w*|pregunta\s++de\s++seguretat|pregunta\s++de\s++seguridade"
    r"|[öo]ryggisspurning\w*|pyetj\w*\s++sigurie|سوال\s*+امنیتی|(?:سیکیورٹی|حفاظتی)\s*+سوال|নিরাপত্তা\s*+প্রশ্ন"
    r"|பாதுகாப்பு\s*+கேள்வி|భద్రతా\s*+ప్రశ్న)"
    r"[^\n\"“„«「:：]{0,60}?[\"“„«「][^\"”“»」\n]{3,80}[\"”“»」]\s*+(?:[:：=]|→|->)\s*+"
    # (not what says it is gone or unused: "… : више се не користи")
    r"(?![^\n.!?]{0,60}?(?<!\w)(?:више|не|нема|уклоњ\w*|укинут\w*|избрис\w*|није|više|ne|nema|uklonj\w*|ukinut\w*"
    r"|obrisan\w*|nije|removed|deleted|none|n/a|no\s++longer)(?!\w))"
    r"[^\s\d]")


# a bank's memorable word told right after its name at a clause's start, one word ending its clause: "…
# passnumber 418 902, memorable word marigold.", "Memorable name: Biscuit (the old dog)." (not what is said of it,
# "Barclays app update: memorable word removed", nor "Kyoto was our most memorable place overall")
_MEMORABLE_WORD_TOLD = lazy(r"(?:^|[,;:(]\s*+|[.!?]\s++)(?:(?-i:[A-Z][\w'’]+)\s++)?(?i:(?:the|her|his|my|our|their)\s++)?"
                            r"(?i:memorable\s++(?:word|name|place|info(?:rmation)?))\s*+(?:[:=]|is)?\s*+"
                            r"(?P<value>[^\W\d_]{3,20})(?=\s*+(?:[.,;!)(]|$))", re.MULTILINE)


# what is said of a memorable word rather than told as one ("memorable word removed", "… the memorable word twice")
_SAID_OF_A_MEMORABLE_WORD = frozenset(
    "updated question questions field box prompt hint please removed deleted disabled enabled twice first online either "
    "again quickly too also instead anymore wins needed required".split())


def _said_of_a_memorable_word(word: str) -> bool:
    low = word.lower()
    return (low in _SMALL_WORDS or low in _STATES or _DESCRIBING.fullmatch(low) is not None
            or low in _SAID_OF_A_MEMORABLE_WORD)


# a security question in Bengali, Tamil and Telugu, a colon, the question, then its answer after a dash or
# the word for an answer: "নিরাপত্তা প্রশ্ন: মায়ের জন্মস্থান — কুমিল্লা" (not a ticket's fields after a colon,
# "…, অগ্রাধিকার: উচ্চ")
_SECURITY_ANSWER_MARKED = lazy(r"(?:নিরাপত্তা\s*+প্রশ্ন|பாதுகாப்பு\s*+கேள்வி|భద్రతా\s*+ప్రశ్న)\s*+[:：][^\n:：—–]{1,60}?"
                               r"(?:\s[—–]\s*+|(?:উত্তর|பதில்|సమాధానం)\s*+[:：]\s*+)[^\W\d_]"
                               # or the question's word in its genitive, then the word for its answer and a colon
                               # ("নিরাপত্তা প্রশ্নের উত্তর: কুমিল্লা", "భద్రతా ప్రశ్నకు సమాధానం: విజయవాడ")
                               # (each word's endings in its own script: a vowel sign is no "\w")
                               r"|(?:নিরাপত্তা\s*+প্রশ্ন[\u0980-\u09ff]*|பாதுகாப்பு\s*+கேள்வி[\u0b80-\u0bff]*"
                               r"|భద్రతా\s*+ప్రశ్న[\u0c00-\u0c7f]*)\s*+(?:উত্তর[\u0980-\u09ff]*(?:\s*+হলো)?|பதில்[\u0b80-\u0bff]*"
                               r"|సమాధానం[\u0c00-\u0c7f]*)\s*+[:：]\s*+[^\W\d_]")


# a family tree, where a maiden name is a line of research, not an answer ("Mum's maiden name came up
# while doing the family tree: the Whitfields were from Cornwall")
_GENEALOGY = lowered_search(r"(?i)family\s++tree|genealog|ancestry|stammbaum|ahnenforschung|árbol\s++genealógico"
                            r"|arbre\s++généalogique|albero\s++genealogico|árvore\s++genealógica|stamboom|drzew\w*\s++genealogiczn"
                            r"|родослов|генеалог|soy\s*+ağac|släktträd|slektstre|stamtræ|家系図|族谱|家譜|가계도")


def _security_answer(text: str) -> bool:
    if _GENEALOGY(text) or beside._A_QUIZ(text):
        return False
    if _SECURITY_QUESTION_QUOTED.search(text) or _SECURITY_ANSWER_MARKED.search(text):
        return True
    if any(not _said_of_a_memorable_word(match["value"]) for match in _MEMORABLE_WORD_TOLD.finditer(text)):
        return True
    return any(not _A_FIELDS_NAME.search(text, max(0, match.end() - 41), match.end() - 1)
               and not _A_PROJECTS_WORD(text[match.start():match.end() + 30])
               for match in _SECURITY_ANSWER.finditer(text))


# work on the feature, not an answer: "Security question migration: blocked", "Sicherheitsfragen: Migration auf
# gehashte Antworten…", "秘密の質問の移行：…" (a coding agent's ticket and status lines)
_A_PROJECTS_WORD = lowered_search(
    r"(?i)(?<![\w-])(?:migrat\w*|rollout|redesign\w*|refactor\w*|deprecat\w*|cleanup|clean-up|backlog|epic|ticket"
    r"|refonte|migración|migração|migrazione|migratie|migracj\w*|umstellung|überarbeitung|wdrożeni\w*)(?![\w-])"
    r"|移行|迁移|遷移|改修|重构|重構|废弃|廃止|移転")


# a ticket's or a plan's field right before the colon: what follows is its value, not an answer
# ("Security question in the new app, owner: Mari", "Turvaküsimus uues rakenduses, vastutaja: Mari")
_A_FIELDS_NAME = lazy(
    r"(?i)(?<![\w-])(?:owner|status|state|assignee|assigned\s++to|responsible|reviewer|priority|due|eta|sprint|ticket"
    r"|verantwortlich|zuständig|eigenaar|verantwoordelijke|propriétaire|responsable|responsável|responsabile"
    r"|odpowiedzialn\w*|ansvarig|ansvarlig|vastuuhenkilö|vastutaja|atbildīgais|responsabil|одговорен|məsul|pegawai"
    r"|úinéir|arduraduna|ábyrgð|tila|estado|stato|stan|állapot|durum|статус|состояние|სტატუსი|অবস্থা|స్థితి"
    r"|状态|狀態|ステータス|상태)\s*+[:：=]\s*+$")


# a user and a password after a colon: "Steam: deploy / Sn00py$71"; a .pgpass line
_AFTER_COLON_PAIR = lazy(
    r"(?i)[:—–]\s*+[\w.@+-]{2,40}\s++/\s++(?P<value>[^\s\"',;]{4,100})")
# a random-looking token on a line that names a credential, in any of the languages above: 20 to
# 200 characters mixing lower case, upper case and digits; or hex digits and UUIDs right after one
_KEY_WORDS = (r"(?i)(?:secret|token|api[\s_-]?key|access[\s_-]?key|(?<![a-z])auth(?![a-z])|credential|password|clave"
              r"|chiave|(?<![a-z])cl[ée](?![a-z])"
              r"|schlüssel|sleutel|klucz|nyckel|nøgle|anahtar|ключ|токен|키|密钥|密鑰|秘密鍵|キー|トークン|chave"
              r"|(?:application|app|global\s++api|license|licence|signing|master|encryption|webhook)\s++key"
              # a vault's unseal key, a recovery or a root key, however joined ("Vault-Unseal-Key")
              r"|(?:unseal|recovery|root|private)[\s_-]*+keys?(?![a-z])(?![\s_-]*+(?:fingerprint|id|path|file))"
              r"|(?:session\s*+)?cookie|session\s*+(?:id|token))")
_ON_A_KEY_LINE = lowered_search(_KEY_WORDS)
# A random key or token right after a label that names one in another language, as Home Assistant's
# translations do (docs/reliability.md, "Labels from translation catalogs"): "API-Schlüssel:",
# "Clau API:", "Juurdepääsutõend:", "Asiakassalaisuus:", "Geheimnis:", "存取權杖:". A word that is
# a door's key or a keyword too ("avain", "cheie", "khóa", ``KEYS_WORD_ELSEWHERE``) counts only beside "API"
# or "client"; a value only right after the label's colon (a line's ids elsewhere are no key of its).
_KEY_LABEL_ELSEWHERE = lazy(
    r"(?i)(?:(?<![^\W\d_])(?:"
    r"(?:api|client|klient|kliendi|asiakas)[\s-]*+(?:" + KEYS_WORD_ELSEWHERE + r")|(?:" + KEYS_WORD_ELSEWHERE + r")[\s-]*+(?:api|client|klient)"
    r"|juurdepääsu\s*+(?:tõend|luba)|juurdepääsutõend|(?:käyttöoikeus|todennus)tunnus|api-?tunnu[sk]|api-?tunniste"
    r"|jeton(?:\s++(?:d['’]acc[èe]s|d['’]api|api))?|(?:api|acc[èe]s)\s++jeton|אסימון|belirte[çc]i?"
    r"|mã\s++(?:truy\s++cập|thông\s++báo)|(?:api-?|client-?|kunden)?geheimnis|geheim|segret[oa]|(?:api-|asiakas)?salaisuus"
    r"|titok|gizli|סוד|секрет|bí\s++mật|rahasia|سر\s*+api|jelsz\w{0,4}|διακριτικ\w{0,2}(?:\s++πρόσβασης)?"
    r"|" + password_words.ALL + r")(?![^\W\d_])"
    # in the scripts that write words with no space between, wherever they are: "存取權杖", "クライアントシークレット"
    r"|私鑰|權杖|令牌|토큰|シークレット|(?:api|client|客戶端|客户端|クライアント)\s*+(?:金鑰|密钥|密鑰|키|鍵|キー))"
    # then a colon, or "is" ("API-avain on …")
    r"[^\n:=：]{0,30}?(?:[:=：]|\s(?:is|on|ist|est|es|è|é|är|er|je|jest|είναι|lautet|это)(?=\s))\s*+[\"'`]?"
    r"(?P<value>[A-Za-z0-9_+/=.-]{16,200})(?![\w+/=.-])")
_KEY_LABEL_NEEDLES = ("võti", "võtme", "avai", "clau", "chei", "kulcs", "ključ", "nøkkel", "nøgle", "schlëssel", "kunci", "khóa",
                      "金鑰", "私鑰", "密钥", "密鑰", "מפתח", "키", "鍵", "キー", "juurdepääs", "tunnus", "tunniste", "jeton",
                      "אסימון", "權杖", "令牌", "토큰", "belirte", "mã ", "geheim", "segret", "salaisuus", "titok", "gizli", "סוד",
                      "секрет", "シークレット", "bí mật", "rahasia", "سر", "jelsz", "klíč", "κλειδ", "διακριτικ",
                      *password_words.NEEDLES)
_A_HEX_KEY = lazy(r"(?=[a-f]{0,63}[0-9])[0-9a-fA-F]{32,64}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")


def _key_labelled_elsewhere(text: str) -> bool:
    return any(_RANDOM_TOKEN.fullmatch(value := match["value"].rstrip(".,;")) or _A_HEX_KEY.fullmatch(value)
               for match in _KEY_LABEL_ELSEWHERE.finditer(text))
_RANDOM_TOKEN = lazy(
    r"(?<![\w+/=.-])(?=[A-Za-z0-9_+/=.-]{0,199}?[a-z])(?=[A-Za-z0-9_+/=.-]{0,199}?[A-Z])(?=[A-Za-z0-9_+/=.-]{0,199}?[0-9])"
    r"[A-Za-z0-9_+/=.-]{20,200}(?![\w+/=.-])")
_HEX_AFTER_KEY = lazy(
    _KEY_WORDS + r"[^\n]{0,40}?(?<![\w-])(?:[0-9a-f]{32,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])"
    # or before it: "uses c569f14268… (Cloudflare Global API Key)"
    r"|(?<![\w-])(?=[a-f]{0,63}[0-9])[0-9a-f]{32,64}(?![\w-])[^\n]{0,40}?" + _KEY_WORDS[4:]
    # or shorter, 20 hex digits or more right after the line's colon, after an API's key or a token ("clé API
    # Interflora pr les cmd: 5e5513…", 24); not an id's, a row's or a database's key ("_id: 64a1…", a Mongo id, "clé
    # primaire du client: 6650…")
    + r"|(?:(?<![a-z])(?:api|secret|access|private|auth)[\s_-]*+(?:key|token)|(?:cl[ée]|chiave|clave|chave|schlüssel|ключ)[\s_-]++api"
    r"|api[\s_-]*+(?:cl[ée]|chiave|clave|chave|schlüssel|sleutel|ключ|klíč|kulcs)|(?<![a-z])token)"
    r"(?:(?!_?id\b|\brow|record|request|primar|первичн|mongo|document|object)[^\n:：=]){0,40}?[:：=]\s*+"
    r"(?=[0-9]{0,30}[a-f])(?=[a-f]{0,30}[0-9])[0-9a-f]{20,31}(?![\w-])")
# a PIN or a lock's code with no verb, in a few more forms than the first rules know: "voicemail PIN
# 727515", "phone unlock code 6413", "Safe combination: 56-19-56", "Kapı şifresi 670421", "Code
# portail : 8621A", "- door: 801928"
_PIN = lazy(
    r"(?i)(?<![\w-])(?:(?:voicemail|phone|unlock|sim|card|atm)\s++(?:unlock\s++)?(?:pin|code|passcode)|bank\s++pin"
    r"|(?:safe|lock|locker|padlock)\s++combination|pin\s++kodu|kapı\s++şifresi|şifresi|code\s++(?:portail|porte|immeuble)"
    r"|c[óo]digo\s++(?:del|de\s++la|do|da)\s++(?:portal|alarma|puerta|port[ãa]o|alarme)"
    r"|^[^\S\n]*+[-*•]?[^\S\n]*+(?:door|gate|alarm|safe|garage|lockbox|keypad))"
    r"[^\S\n]*+[:=]?[^\S\n]*+(?P<value>[0-9]{4,8}[A-Z]?|[0-9]{1,2}-[0-9]{1,2}-[0-9]{1,2})(?![\w-])"
    # an alarm's or a keypad's security code as a label, before a colon: what Home Assistant's
    # translations call it (docs/reliability.md, "Labels from translation catalogs"); not a "user
    # code", which is a customer's number on a bill as often, nor a year ("Security code: 2025 audit")
    r"|(?i:(?<!\w)(?:security|alarm|keypad)\s*+code|sicherheits-?code|c[óo]digo\s++de\s++seguridad|codi\s++de\s++seguretat"
    r"|codice\s++di\s++sicurezza|beveiligingscode|sikkerh\w{0,3}skode|säkerhetskod|turvakood\w{0,2}|cod\s++de\s++securitate"
    r"|mã\s++bảo\s++mật|sécherheets\s*+code|安全碼|セキュリティコード)"
    # (what it opens may come between: "Beveiligingscode van het alarmpaneel bij de achterdeur: 0617")
    r"[^\n:=：.!?]{0,60}?[:=：][^\S\n]*+"
    r"(?!(?:19|20)[0-9]{2}(?![0-9]))(?P<labelled>[0-9]{4,8})(?![\w-])"
    # a bank card's PIN in French, "the code of the (blue, bank, Visa, business) card" or "of my CB", a few words
    # on, then four digits ("Nouveau code de la carte pro de la clinique : 7352", "Code de ma CB : 7391"; not
    # a library's, a loyalty, a transport or a boarding card's)
    r"|(?i:(?<!\w)code\s++(?:secret\s++)?(?:de\s++|du\s++)?(?:la\s++|ma\s++|sa\s++|ta\s++|notre\s++|votre\s++)?"
    r"(?:carte\s++(?:bleue|bancaire|visa|mastercard|pro|de\s++cr[ée]dit|de\s++d[ée]bit)|cb)(?![\w-])[^\n:=：.!?0-9]{0,30}?"
    r"(?:[:=：]|\s(?:est|c['’]est))?[^\S\n]*+(?P<card>[0-9]{4})(?![\w-]|[.,][0-9]))", re.MULTILINE)
# a URL's password holding a slash or a question mark, which the first rules stop at
# ("mysql://mara:I8NP6V/bXJzh@host", "redis://:F4lc0n?85@host"); not a port ("host:8080/x@y")
# Oracle's own form, user/password@: "jdbc:oracle:thin:pjensen/uFZ_03emgw@//db:1521/X", "sqlplus scott/Tig3r@db"
_ORACLE_LOGIN = lazy(r"(?i)(?:jdbc:oracle:\w+:|sqlplus\s++)[^\s/@:]{1,40}/(?P<value>[^\s/@]{4,100})@")
_URL_PASSWORD = lazy(
    r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*+://[^\s:@/]*+:(?![0-9]++(?:/|$))[^\s@/]*+[/?][^\s@]{0,80}?@[a-z0-9-]+\.[a-z0-9.-]+")
# a password after a login or a user: "Login bram, hasło tiger.", "user svc_backup, pass orange?",
# "Login for the school portal: x@y — hunter22", "use muffin83 as the password"
_AFTER_LOGIN = lazy(
    r"(?i)(?:(?<![a-z])(?:login|user|benutzer)|登录)[^\n]{0,60}?(?:[,—–]\s*+(?:pass(?:word)?|pw|pwd|hasło|passwort|senha|mot\s++de\s++passe|"
    r"contraseña|密码)\s*+[:=]?|—|–|密码)\s*+"
    # (not what a rule asks of it: "密码要求8到16位", a password must have 8 to 16 places)
    r"(?!要求|必须|需要|至少|长度|应该|不能|可以|包含|由|不少于|不超过)(?P<value>[^\s,;，；。、]{4,60})")
_USED_AS = lazy(
    r"(?i)(?:use|try)\s++(?P<value>[^\s,;]{5,40})\s++as\s++(?:the|my|her|his|its)?\s*+(?:password|passphrase|pin|passcode)")
_AFTER_LOGIN_SIGNS = (",", "—", "–", "密码")
_AS = lazy(r"\sas\s").search
# A password-shaped token on a line that says "password" in some language (or "log in", "creds",
# "p/w"): how people tell an assistant a password is endless ("use Daisy1971! to log in to the NAS",
# "Revolut şifrem EQGA5367hkh-", "Hasło do wifi: mango-maple-tiger"), what such a line says around
# it is not. The token must look like a password and like nothing else a memory names.
# Egyptian Arabic's word for a password in Latin letters, which writes some letters as digits: on its line,
# a word so written is no value ("embare7", yesterday; "sa3a", the hour)
_KELMET_EL_SER_WORDS = r"(?<![a-z])k[ei]lm[ei]t\s++(?:el\s*+|l-?)?s[ei]r(?![a-z])"
_KELMET_EL_SER = lazy("(?i)" + _KELMET_EL_SER_WORDS)
_A_FRANCO_ARABIC_WORD = lazy(r"(?=[a-z]*+[235679])[235679]?[a-z]++(?:[235679][a-z]++)*+[235679]?")
# the word for a password in scripts the other lists lack (an Indic word may hold a zero-width non-joiner)
_WORDS_OF_OTHER_SCRIPTS = (r"құпия\s*+сөз\w*|પાસવર્ડ|പാസ്\u200c?വേഡ്|పాస్\u200c?వర్డ్|ಪಾಸ್\u200c?ವರ್ಡ್|ລະຫັດຜ່ານ"
                           # Thai "code" alone, only before what a password opens
                           # Armenian, Georgian, Bengali, Urdu
                           r"|գաղտնաբառ\w*|ծածկագ\w*|პაროლ\w*|পাসওয়ার্ড|پاس\s*+ورڈ|پاسورڈ"
                           r"|የይለፍ\s*+ቃ\w*|پسورد|باسورد|باسوورد|รหัส(?=\s*+(?:wi-?fi|ไวไฟ|เน็ต|netflix|อีเมล|เข้า|atm|บัตร|ประตู|ล็อก))")
# what every match of ``_WORDS_OF_OTHER_SCRIPTS`` holds: the needles of the checks that read it
_OTHER_SCRIPTS_NEEDLES = ("գաղտնաբառ", "ծածկագ", "პაროლ", "পাসওয়ার্ড", "پاس ورڈ", "پاسورڈ", "құпия", "પાસવર્ડ", "പാസ്",
                          "పాస్", "ಪಾಸ್", "ລະຫັດຜ່ານ", "የይለፍ", "پسورد", "باسورد", "باسوورد", "รหัส")
_PASSWORD_LINE = lazy(
    r"(?i)pass(?:word|wd|phrase|code)?(?![a-z])|(?<![a-z])(?:pwd?|p/w|mdp|creds|credentials|log\s*+in|login|sign\s*+in"
    r"|unlock\s++phrase|code\s++to\s++get\s++in|code\s++wi-?fi|wi-?fi\s++code|senha|heslo|parola(?!\s++(?:preferit|favorit|del\s++giorno|chiave))|(?<!parola\s)chiave|(?<!palabra\s)clave|koden?"
    r"|(?:wi-?fi|wlan|wpa2?|network|router|hotspot)\s++key|wi-?fi[^\n]{0,60}?(?:[,;:]\s*+|\sand\s++)key)(?![a-z])"
    # a Wi-Fi network's key in German, the Nordic languages, French, Spanish and Italian
    r"|(?:wlan|wi-?fi|netzwerk|router)-?schlüssel|(?:wlan|wi-?fi)-?(?:nyckel|nøgle|nøkkel)\w*|(?:cl[ée]|clave|chiave)\s++(?:wpa2?|wi-?fi|wlan)"
    # and the key named later on the Wi-Fi's line ("WLAN für die Mitarbeiter: …, Schlüssel …"), in German and Dutch
    r"|(?:wlan|wi-?fi)[^\n]{0,60}?[,;:]\s*+(?:schlüssel|sleutel)(?![a-z])"
    # words that take endings ("salasanani", "şifrem", "lösenordet", "hasłem"): their start is enough
    r"|passwort|kennwort|mot\s++de\s++passe|contrase[ñn]a|wachtwoord|has[łl]|haśl|l[öo]senord|passord|adgangskode|salasan"
    r"|kodeord|slaptažod|parool|geslo|gesla|lozink|contrasenya|netværksnøgl|nettverksnøkk|nätverksnyck"
    r"|[şs]ifre|jelsz|brukernavn|inloggning|přihlášení|парол|логін|логин|κωδικ|συνθηματικ|brugernavn|parolas[ıi]|parolam"
    r"|パスワード|密码|密碼|비밀번호|비번|كلمة\s*+(?:المرور|السر|سر)|암호"
    # Egyptian Arabic's "kelmet el ser" in Latin letters ("kelmet el ser bta3t el email …")
    r"|" + _KELMET_EL_SER_WORDS +
    # Vietnamese also without its accents, and "mk", its short form, before a colon or after the app
    # it opens ("mk zalo: …"; "MK" is a town and a game too)
    r"|(?<![a-z])mat\s++khau(?![a-z])|(?<![a-z])mk(?=\s*+[:：]|\s++[a-z]{3,12}\s*+[:：])"
    r"|kata\s++sandi|(?<![a-z])sandi(?![a-z])|mật\s++khẩu|hesl(?:o|em|a)|пасс?(?![a-zа-я])|パス(?![a-zタポ])|סיסמ|पासवर्ड|รหัสผ่าน"
    # Irish, Basque, Icelandic, Swahili, Malay, Persian (and the English word as Arabic and Persian
    # speakers write it: "باسورد", "پسورد"), Bengali, Serbian; Latvian's "parole" (also
    # an English and a French word) only before a colon
    r"|pasfhocal|pasahitz|lykilor[ðd]|nenosiri|kata\s++laluan|رمز\s*+عبور|" + password_words.ENGLISH_IN_ARABIC_SCRIPT + r"|পাসওয়ার্ড|лозинк|parole(?=\s*+[:：=→])"
    # Welsh, Albanian, Georgian, Armenian, Galician, Bosnian and Croatian "šifra", Urdu, Arabic
    # without its article, Italian "psw", Latvian "parole" before "ir" (is)
    r"|cyfrinair|fjal[ëe]kalim|პაროლ|գաղտնաբառ|contrasinal|(?<![a-z])[šs]ifr[aeu](?![a-z])|پاس\s*+ورڈ|كلمة\s*+مرور"
    r"|(?<![a-z])psw(?![a-z])|parol[ei](?=[^\n]{0,40}?\sir\s)"
    # Afrikaans, Tamil
    r"|wagwoord|கடவுச்சொல்"
    # Welsh after a mutation, Azerbaijani, Xhosa, Igbo, Irish, Yoruba, Luxembourgish, Zulu, Uzbek
    r"|(?<![a-z])(?:g|ch|ngh)yfrinair|[şs]ifr[əe]\w*|lokugqitha|okwuntughe|focal\s++faire|a[ṣs][íi]n[àa]|passwuert"
    r"|phasiwedi|(?<![a-z])paroli(?![a-z])"
    # and in the scripts of Kazakh, Gujarati, Malayalam, Telugu, Kannada, Lao, Amharic
    r"|" + _WORDS_OF_OTHER_SCRIPTS
    # and in the languages these lacked (``password_words``)
    + "|" + password_words.ALL)
_ON_A_PASSWORD_LINE = lowered_search(_PASSWORD_LINE.pattern)
_PASSWORD_WORDS_AT = lowered_spans(_PASSWORD_LINE.pattern)
_TOKEN = lazy(r"[^\s\"'`“”‘’«»()（）\[\]{}<>|,;，。、：।" + NO_SPACE_SCRIPTS + r"]{5,64}")
_NAME_BEFORE = lazy(
    r"(?i)(?:(?<!\w)(?:for|account|user(?:name)?|device|server|host|file|named|called|model|version|my|her|his|the|on|an?|von|für"
    r"|passwd|chpasswd|usermod|useradd|adduser|su|sudo"
    r"|fürs|pour|para|per|di|voor|dla|för|till|od|от|для|das|der|die|den|dem|le|la|les|el|los|il|lo|het|konto|router"
    r"|printer|drucker|laptop|phone|handy|device|gerät|modem|box|iPhone|Galaxy|Pixel"
    # a parcel or an order: "hämta paket 1ZU1VPMO9406296309"
    r"|paket|package|parcel|tracking|sendung|colis|paquete|pacco|pakket|przesyłk\w*|посылк\w*|order|bestellung"
    r"|commande|pedido|ordine)|\.|(?<!\w)(?:gamer\s*+tag|user\s*+name|login\s*+name|handle|ssid|network(?:\s++name)?"
    r"|nick(?:name)?|name"
    r"|username|id)\s*+(?:is|was|ist|est|es|:|=)\s*+|(?:名|名前|名称|名稱|名字|ネットワーク名)\s*+[はが:：是]\s*+)\s*+$"
    # a network's name in quotes: "WLAN-Name ist 'Müller_5G'", "is called \"Familie_Weber_5G\"", "Wi-Fi名は「…」"
    r"|(?i:(?<!\w)(?:named|called|ssid|(?:wlan|wi-?fi|network|netzwerk|réseau|red|rede|rete)[\s-]*+(?:name|nom|nombre|nome))"
    r"(?:\s*+(?:is|was|ist|est|es|:|=))?|(?:名|名前|名称|名稱|名字|ネットワーク名)\s*+[はが:：是]?)\s*+[\"'„“«「]$")


# words joined by stops, a passphrase ("cinnamon.rainbow.sunflower.dragon"), unless a part is what
# names in code and configuration are made of ("spring.datasource.password", "mail.example.com")
_DOTTED_WORDS = lazy(r"[^\W\d_]{3,}(?:\.[^\W\d_]{3,}){2,5}[0-9]{0,4}|[^\W\d_]{4,}(?:[_-][^\W\d_]{4,}){2,5}[0-9]{0,4}")
_CODE_PARTS = frozenset(
    "com org net edu gov dev app api www mail smtp imap auth config conf settings contrib datasource spring django"
    " java javax util utils internal local localhost example test tests main core http https server client host port"
    " user users name url uri sql jdbc json yaml toml xml html env prod staging default src lib org_ io ini cfg txt log"
    " logs data db cache model models views view admin static media root home tmp var etc usr bin id key hash token"
    " reset value field column table type count total date time status flag list item items file path dir size"
    " length max min new old get set update delete create read write send check handler service"
    # what ends a file's, a site's or a module's name, and a message's key ("password.forgot.title")
    " info biz page site htm php asp aspx yml pdf doc docx png jpg jpeg gif svg zip tar exe dmg apk bak sqlite lock"
    " rst tsx jsx perl bash zsh bat cmd forms form serializers handlers services controllers controller helpers helper"
    " schema schemas types hooks store odt ods odp pages numbers keynote xls xlsx ppt pptx rtf csv vue svelte"
    " title label text button click message hint placeholder description tooltip header footer link enabled disabled".split())
_WORDS_AND_DIGITS = lazy(r"(?=[^.]*+\.?[^.]*+$)(?=\w*[A-Z])[A-Z]?[a-z]{3,}(?:[._-][A-Z]?[a-z]{3,})+[0-9]{1,4}[!?#$%&*]?")
# two capitalised words joined by a stop, a number after an underscore: a password right after the word
# for one ("şifrem Sultan.Ahmet_1453"), a user's, a table's or a branch's name after any other word
# ("kullanıcı Mehmet.Yilmaz_1453", "table Users.Accounts_2023", "branch Feature.Login_1234")
_DOTTED_WORDS_AND_DIGITS = lazy(r"[A-Z][a-z]{2,}\.[A-Z][a-z]{2,}_[0-9]{1,4}[!?#$%&*]?")


_VARIABLE_SET = lazy(r"[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++[=:]")
# a version, with what follows its numbers ("10.23.11-beta.2", "2.0.0-rc1+build5"); a parcel's number
_NOT_A_PASSWORD = lazy(r"v?[0-9]++(?:\.[0-9]++)++(?:[-+][0-9A-Za-z.-]++)?|1Z[0-9A-Z]{16}|0x[0-9A-F]{8}"  # a hex error code: "0x800CCC0E"
                             r"|[a-z][a-z0-9._/-]*+:[0-9]++(?:\.[0-9]++)*+(?:-[a-z][a-z0-9.]*+)?"  # an image and its tag: "postgres:17", "node:20-alpine"
                             r"|[A-Z][a-z]++!|[A-Z]\*[A-Z][a-z]++|[A-Z][a-z]++&[A-Z][a-z]++|(?i:fritz!box)"  # "Yahoo!", "E*Trade"
                             r"|Cl@ve")  # Spain's sign-in to public services


def _joined_words(token: str) -> bool:
    """Words joined by stops, "_" or "-", or run together in capitals ("drop.molen.fietsbel",
    "Knedlik_Motylek_Krtecek", "MarbleVelvetHedgehogBlueberry"): a password only where one is
    told (after "is", a colon, "changed to"), since module paths and names in code look the same."""
    token = token.rstrip(".,;:!?")
    if _DOTTED_WORDS.fullmatch(token):
        parts = re.split(r"[._-]", token.rstrip("0123456789"))
        return not any(part.lower() in _CODE_PARTS or _PASSWORD_LINE.search(part) for part in parts)
    return bool(_FOUR_WORDS.fullmatch(token)) and not _PASSWORD_LINE.search(token) and not _A_CLASS.search(token)


def _plain_words_joined(value: str, text: str) -> bool:
    """Two to five words of letters joined by "." or "_" ("zomerdijk.fietspad", "gaivotas_do_tejo"),
    none a part of names in code or files and one at least no common word, on a line of ``text``
    with no code: a password right after the word for one (``_joined_words`` wants three,
    anywhere a password is told)."""
    token = value.rstrip(".!?")
    if not _TWO_TO_FIVE_WORDS.fullmatch(token) or _NOT_A_VALUE_ANYWHERE(token) or beside._A_CODE_LINE.search(text):
        return False
    parts = re.split(r"[._]", token)
    if any(part.lower() in _CODE_PARTS for part in parts):
        return False
    return not all(words.is_common(part) for part in parts)  # (not "rotation.enabled", "forgot.title")


# words of letters joined by "." or "_" (a short one between: "do", "og")
_TWO_TO_FIVE_WORDS = lazy(r"[^\W\d_]{3,}[._](?:[^\W\d_]{2,}[._]){0,3}[^\W\d_]{3,}")


def _random_case(word: str) -> bool:
    """Capitals and small letters mixed as no name mixes them: three or more runs of small letters,
    none longer than three, and capitals together before the end ("tDYriPTHeV"; "KeePassXC",
    "getIdByUrl", "JaCoCoXml" and "NaNoWriMo" are names)."""
    shape = "".join("A" if char.isupper() else char for char in word)
    small = re.findall(r"[^\W\d_A-Z]+", shape)
    return (len(small) >= 3 and max(map(len, small)) <= 3 and "AA" in shape.rstrip("A")
            and not _WORDS_JOINED.fullmatch(word))


# a family of a maker's models, named with "x" for the letters that vary: "BRP072Cxx", "KD-55XHxx"
_A_MODEL_FAMILY = lazy(r"[A-Z]{2,}[-]?[0-9]{2,}[A-Z0-9]*x{2,3}")


# a word and "@", and what follows it: a mailbox's name ("the info@ mailbox"), not "Regenbogen@"
_AN_ADDRESS_NAME = lazy(r"[^\W\d_]++@")
_A_MAILBOX = lazy(r"(?i)(?:mailbox|inbox|address|alias|account|postfach|adresse|boîte|buzón|casella|brevlåda|skrzynk\w*)[.,;:]?")
# a word and "!" at the end of a sentence that starts with "never": a warning, not a password
_A_WORD_EXCLAIMED = lazy(r"[^\W\d_]++!")
_NEVER_STARTS = lazy(r"(?i)\s*+(?:never|don['’]t|do\s++not|nooit|niet|nie|niemals|nicht|jamais|ne\s++jamais|nunca|no|mai|non"
                     r"|aldri|aldrig|ikke|inte|nigdy|nikdy|soha|asla|никогда|ніколи)(?!\w)")


def _password_shaped(token: str) -> bool:
    if token.isalpha() and sum(map(str.isupper, token)) < 2:
        return False  # a word, a capital first at most: every test below needs a digit, a sign or capitals
    if token.startswith("-"):
        return False  # an option: "--password-stdin"
    if _A_SERVICE_PLUS.fullmatch(token):
        return False  # a service's name: "Canal+", "Disney+"
    if _A_MODEL_FAMILY.fullmatch(token.rstrip(".,;:!?")):
        return False  # a family of models, its last letters a wildcard: "BRP072Cxx"
    named = _VARIABLE_SET.match(token)
    if named and (token[named.end():] in ("", "$") or token[named.end():].startswith(("${", "$(", "?", "+", "-", "<"))):
        return False  # a variable set to nothing or to a reference: "SENDGRID_API_KEY=", "POSTGRES_PASSWORD=${…}"
    if re.fullmatch(r"[a-z_][a-z0-9_]*+[=:]|[A-Z][A-Z0-9_]*+[=:]|[A-Za-z_]++[0-9]*+[=:]", token):
        return False  # a name being given a value: "password=", "PGPASSWORD=", "email=" in "UserFactory(email=…)"
    stop_stripped = token.rstrip(".,;:")
    if token[-1:] in ".:,;" and not re.search(r"[^\W_][!#$%&*]$", stop_stripped):
        token = token.strip(".:!?,;—–-")
    else:
        token = stop_stripped  # "PaAmbTomaquet!." ends with its sign, then the sentence's stop
    if re.fullmatch(r"[^\W\d_]++\?[»“”\"'‘’]*+", token):
        return False  # a word and the question mark after it: "¿Olvidaste tu contraseña?", "Passwort vergessen?"
    if token.islower() and _A_MEASURE.fullmatch(token):
        return False  # a number and its unit: "in 30-second windows", "a 12-character minimum" (not "1984-Times")
    if not 5 <= len(token) <= 64 or _NOT_A_PASSWORD.fullmatch(token) or _NOT_MADE_UP.fullmatch(token) or re.search(r"(?i)://|^www\.|@[a-z0-9-]+\.[a-z]{2,}|\.(?:[a-z]{2,4})$|^v?[0-9]+(?:[.-][0-9]+)+$"
                                           r"|^[0-9a-f]{7,}$|^[0-9]{1,3}(?:\.[0-9]{1,3}){3}|^[0-9:/.-]+$|/", token):
        return False
    letters = sum(char.isalpha() for char in token)
    digits = sum(char.isdigit() for char in token)
    signs = len(token) - letters - digits
    words = token.split("-")
    if signs and not digits and len(words) >= 3 and all(
            word.isalpha() and word.islower() and len(word) >= 3 for word in words if word) \
            and not _not_a_value(token) \
            and not any(_PASSWORD_LINE.search(word) for word in words):
        return True  # a passphrase of words: "pepper-quartz-meadow-falcon"
    if _WORDS_AND_DIGITS.fullmatch(token) and (token[0].isupper() or not _not_a_value(token)):
        return True  # "Salmiakki.Sauna68", "Gomdori.Kimchi12": words and a number, not a name in code
    if re.fullmatch(r"[A-Z][a-z]{2,}([._-])[0-9]{1,4}\1[A-Z]?[a-z]{2,}", token):
        return True  # "Ankara.06.Ankara": a word, a number, a word
    if (len(token) >= 8 and digits >= 2 and token.isalnum() and re.search(r"[a-z]", token) and re.search(r"[A-Z]", token[1:])
            and not _CAMEL_WORDS.fullmatch(token) and not _not_a_value(token) and not _CODE_WORD.fullmatch(token)
            and not _NOT_MADE_UP.fullmatch(token)):
        return True  # random letters and digits: "Fm8wQ0VTWzx", "Vaxko0c9Xxth"
    if token.isalpha() and 8 <= len(token) <= 40 and _random_case(token):
        return True  # random capitals and small letters, no word among them: "tDYriPTHeV"; not "KeePassXC"
    if letters < 3 or _not_a_value(token) or _DESCRIBED.match(token) or _CODE_WORD.fullmatch(token):
        return False
    if token.upper() == token and "-" in token:
        return False  # a model's number: "WXR-5700AX7S"
    if digits and signs and re.search(r"[!@#$%^&*?=+~_%]", token):
        return True  # "Daisy1971!", "h@rb0r20", "Mango?69"
    if signs and re.search(r"[!@#$%^&*?=+~]", token[1:]):
        return True  # "lola_tiger%", "coco_crimson$"
    if digits >= 3 and letters >= 4:
        return True  # "harbor1027", "NQRV2670xwg"
    if digits == 1 and letters >= 5 and token[-1].isdigit() and token[:-1].isalpha() and token.islower():
        return not _NOT_MADE_UP.fullmatch(token)  # "snowman6", "raspberry5"; not "python3"
    if _NAME_AND_NUMBER.fullmatch(token) and not _NOT_MADE_UP.fullmatch(token):
        return True  # "Monkey65", "Lastochka10", "Lea.2018"
    return digits >= 2 and letters >= 5 and not token[:1].isupper()  # "velvet3387"-like; not "Pixel8a"


# the words for a password in the languages whose ordinary words ``words.made_up`` has no list of
# (Latvian, Estonian, Slovenian, Croatian and Serbian, Lithuanian, Albanian, Malay, Icelandic, Basque,
# Galician, Irish, Welsh)
_UNLISTED_PASSWORD_WORDS = (r"parole|paroli|parool|geslo(?:m)?|lozink(?:[aeiu]|om)|slaptažod\w{1,4}|fjal[ëe]kalim\w{0,2}"
                            r"|kata\s*+laluan|lykilorð\w{0,3}|pasahitz\w{0,8}|contrasinal|pasfhocal|cyfrinair")
_WORD_WITHOUT_A_LIST = lazy(r"(?i)" + _UNLISTED_PASSWORD_WORDS)
# a word for a password, whole (not "code", "key", nor a compound about one: "jelszó-visszaállítás")
_A_PASSWORDS_WORD = lazy(
    r"(?i)(?:password|passwort|kennwort|contraseña|clave|senha|wachtwoord|hasło|lösenord(?:et)?|passord(?:et)?|salasana"
    r"|heslo|jelszó|jelszava|parola|şifre(?:si)?|" + _UNLISTED_PASSWORD_WORDS
    + r"|mdp|pw|pwd|\w{2,12}(?:passwort|passord(?:et)?|wachtwoord|lösenord(?:et)?)|" + password_words.ALL + ")"
    r"[:,.;!]?")
# "is" and "was", between a value and the word for a password after it
_A_VERB = lazy(r"(?i)is|was|ist|war|est|es|è|é|era|är|var|er|je|jest|on|oli|van|este|lautet")
_DASHED_WORDS_AND_DIGITS = lazy(r"[A-Za-z][a-z]{2,}(?:-[a-z]{2,}){1,3}-[0-9]{1,4}|[A-Z][a-z]?[0-9]{1,3}(?:-[A-Za-z][a-z]{2,}){2,3}")
# the same in capitals and in any letters, which only right after the word for a password is a password
# ("Passwort Rhein-Brücke-77", "ww Grachten-Zomer-19"; not "the password for Build-Server-02")
_DASHED_WORDS_ANY_CASE = lazy(r"[^\W\d_][^\W\d_A-Z]{2,}(?:-[^\W\d_]{2,}){1,3}-[0-9]{1,4}")
_NAME_AND_NUMBER = lazy(r"[A-Z][a-z]{2,}[._!@#-]?[0-9]{2,4}[!?#$%&*]?")
_A_SERVICE_PLUS = lazy(r"(?:Canal|Disney|Paramount|Discovery|Peacock|ESPN|AMC|BritBox|Starz|Joyn|Molotov|Crunchyroll|Max|Hulu"
                       r"|Dazn|DAZN|Rakuten|Apple\s?TV|Ügyfélkapu)\+[.,;:!?]?")  # (Hungary's sign-in to public services)
_FOUR_WORDS = lazy(r"(?=\w{15})(?:[A-Z][a-z]{2,}){3,8}[0-9]{0,4}")
_A_CLASS = lazy(r"(?:Factory|Manager|Service|Handler|Controller|Provider|Builder|Exception|Error|Helper|Config"
                      r"|Client|Adapter|Repository|Component|Module|Test|Spec|View|Model|Settings|Options|Request"
                      r"|Response|Store|Context|Type|Schema|Field|Form|Page|Screen|Dialog|Button|Input|Validator"
                      r"|Policy|Generator|Hasher|Encoder|Decoder|Parser|Reader|Writer|Stream|Event|Listener)[0-9]*$")


# what code is made of: a dotted or snake_case name, a key=value setting, a call
_CODE_WORD = lazy(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|[a-z]+(?:_[a-z0-9]+)+|[A-Za-z_]+=[\w.]+"
                        r"|[A-Za-z_][\w.]*\(.*")


# what introduces a value rather than names a thing: a colon, an arrow, a slash, "is", "use", a
# password word itself ("pwd harbormilo")
_VALUE_BEFORE = lazy(
    r"(?i)(?:[:=→>/]|คือ|(?<!\w)(?:is|ist|lautet|est|es|è|é|är|er|on|to|jest|je|là|adalah|είναι|это|yra|este|és|usa|use|uses|try|pass|pw|pwd|p/w"
    r"|mdp|senha|passwort|kennwort|hasło|haśle|hasłem|heslo|parola|password|contraseña|wachtwoord|lösenord|passord|şifre|пароль"
    r"|kodeord|slaptažodis|parool|geslo|lozinka|contrasenya"
    # "is" in Xhosa and Zulu, Igbo, Irish, Luxembourgish, Welsh, Yoruba, Hausa ("it is", of a feminine and a masculine word)
    r"|ngu|yi|bụ|ná|ass|yw|ni|ita\s++ce|shi\s++ne))"
    r"\s*+[\"'“‘«„]?$")

# a verb's past tense in Russian, Ukrainian or Polish, as a dash then what someone did has it
# ("— отказалась, …", "— odmówiła, …"; not a password of a word, "— ромашка, не забудь")
_A_SLAVIC_PAST_TENSE = lazy(r"(?:[ая]л|[аеиоуыя]ла|[аеиоуыя]ло|[аеиоуыя]ли|лся|лась|лось|лись|[aeiouy]ł|[aeiouy]ła|[aeiouy]ło|[aeiouy]li|[aeiouy]ły)$")


# what names a tool, whose name is no password: "the password manager is bitwarden" (a tool's
# "client", not people's "clients": "wifi at the cafe where I meet clients: espresso2go")
_A_TOOL_IS = lazy(
    r"(?i)(?:manager|app|vault|tool|provider|generator|keeper|extension|plugin|client(?!s(?!\w))|(?<=manager\s)clients|(?<=password\s)clients|program|software|service"
    r"|verwaltung|gestionnaire|gestor|gerenciador|beheerder|menedżer|hanterare|manageri?)\w{0,6}(?:\s++(?:\w+\s++)?"
    r"(?:is|ist|est|es|è|é|är|er|on|to|jest|je)|\s*+:)\s*+$")


# what ends the clause a one-word value is told in: a stop, a bracket, the line's end, "and"
_CLAUSE_ENDS = lazy(
    r"(?i)\s*+(?:[.!?,;:)(\]\"'”’»—–/-]|$|(?:and|und|et|y|e|en|och|og|ja|ve|i|и|но|but|aber|mais|pero|ma|or|oder|ou|o"
    # or what is said after a value was set: "made it lemonsherbet so the kids…", "auf … gesetzt"
    r"|so|because|since|for|now|today|too|instead|again|gesetzt|geändert|eingestellt|gemacht|jetzt|heute|damit|weil"
    r"|denn|maintenant|ahora|hoy|agora|hoje|nu|teraz|oggi|ora)\b)").match


# a password changed or set to what follows: "Cambié la contraseña del banco a …", "bytte lösenordet till …"
_CHANGED_TO = lazy(
    r"(?i)(?:cambi\w*|mud\w*|chang\w*|bytte|set|satte|puse|puso|geändert|gesetzt|ustawi\w*|zmieni\w*|veranderd"
    r"|switched|swapped|updated|troquei|troco|trocou|ganti|mengganti|diganti|đổi|skiftet|skiftede|endret|ændret"
    r"|змінил\w*|змінив|поменял\w*|сменил\w*|изменил\w*|vaihdoin|vaihdettu|změnil\w*|megváltoztatt\w*"
    r"|değiştirdi\w*|wijzigde|gewijzigd|modifié|modificato|ho\s++messo|поменять|сменить|изменить|змінити|cambiar"
    r"|changer|ändern|wijzigen|zmienić|trocar|mudar|ganti)\b"
    r"[^\n]{0,60}?(?<!\w)(?:a|para|till|to|auf|en|in|zu|naar|na|pour|per|på|em|jadi|menjadi|thành|til|на|in|into|ke)\s*+$"
    r"|(?<!\w)uusi(?:\s++salasana)?\s++on\s*+$")  # Finnish: "uusi on …", the new one is


_A_PASSWORDS_NAME = lazy(r"(?i)pass(?:word)?|pw|passwort|kennwort|mot\s++de\s++passe|contraseña|senha|wachtwoord"
                         r"|has[łl]|hesl|lösenord|passord|salasan|[şs]ifre|jelsz|parola|парол|mật\s++khẩu|sandi")
_A_USERS_NAME = lazy(r"(?i)user\s*+name|login|handle|nick|gamer\s*+tag|benutzername|identifiant|usuario|brukernavn")
_PASSWORD_OR_IS = lazy(
    r"(?i)(?:pass(?:word)?|pw|passwort|kennwort|mot\s++de\s++passe|contraseña|senha|wachtwoord|has[łl]\w*|hesl\w*"
    r"|lösenord\w*|passord\w*|salasan\w*|[şs]ifre\w*|jelsz\w*|parola|парол\w*|mật\s++khẩu|kata\s++sandi|sandi)\s*+$"
    r"|(?<!\w)(?:is|ist|est|es|è|é|e|este|är|er|on|to|je|jest|là|adalah"
    r"|это|-|:)\s*+$")


# a chat where a password is asked for and the next line answers with it alone:
# "[14:02] me: what's the staging DB password again?\n[14:03] Sam: LANTERN.9758"
_SPEAKER = lazy(r"^\s*+(?:\[[^\]\n]{1,20}\]\s*+)?(?:[\w .'-]{1,24}:\s*+)?(?:it['’]s\s++)?(?P<answer>[^\s\U0001F300-\U0001FAFF]+)"
                r"[\s\U0001F300-\U0001FAFF]*+$")


def _answered(lines: list[str]) -> bool:
    pairs = list(zip(lines, lines[1:]))
    pairs += [(question + "?", reply) for line in lines if "? " in line  # "wifi password? glimmerfox"
              for question, reply in [line.rsplit("? ", 1)]]
    for question, reply in pairs:
        if question.rstrip().endswith("?") and _ON_A_PASSWORD_LINE(question):
            answer = _SPEAKER.match(reply)
            if answer and (_password_shaped(value := answer["answer"]) or _made_up(value.rstrip(".!"))):
                return True
    return False


def _the_word_itself(token: str) -> bool:
    """Whether ``token``, its quotes and stops aside, is the word for a password and a few digits
    ("passwort123"): what documentation shows as its example, when the line says it is one."""
    bare = token.strip("\"'„“”«»‚‘’.,;:")
    return (_THE_WORD_ITSELF.fullmatch(bare) is not None or bare.lower() in _NOTORIOUS
            or bare[-1:] == "!" and bare[:-1].lower() in _NOTORIOUS)  # "Passw0rd!"


# the passwords every list of the worst ones starts with: a lesson's examples of a bad password
_NOTORIOUS = frozenset("123456 1234567 12345678 123456789 qwerty qwerty123 letmein hunter2 iloveyou admin admin123"
                       " welcome welcome1 monkey dragon abc123 p@ssw0rd passw0rd trustno1 111111 sunshine princess"
                       " football 000000 azerty qwertz 654321 1q2w3e4r".split())


_AN_EXAMPLE = lowered_search(r"(?i)example|e\.\s*+g\.|sample|beispiel|z\.\s*+b\.|ejemplo|exemple|esempio|voorbeeld|przykład"
                             r"|exemplo|örnek|пример|placeholder|platzhalter|fixture|dummy|seed\s++(?:script|data)"
                             # what documentation shows: "the portal's guide uses … in its screenshots"
                             r"|screenshot|tutorial|guide|manual|documentation"
                             r"|contoh|esimerk|példa|(?<![a-z])mint[aá](?=j|k|\s|$)|příklad|exempel|eksempel|ví\s++dụ|приклад|例|예시|مثال|דוגמ|उदाहरण"
                             # a kind of password shown by one of its kind: "a password like 'password123'"
                             r"|(?:a|any)\s++password\s++(?:like|such\s++as)"
                             )
# what a rule forbids, right before the value ("niente «password1»", "inte «lösenord1»", "not 'password1'"), and
# what a template says right after its value ("« motdepasse123 » à remplacer", "geheim, dat vervangen we")
_FORBIDDEN_BEFORE = lazy(r"(?i)(?<!\w)(?:not|no|never\s++use|avoid|niente|né|inte|eller|nunca|jamais|pas\s++de|kein\w*|nie"
                         r"|geen|ni|nem|ikke)\s*+[«\"'“„‘]?\s*+$")
_TO_BE_REPLACED = lazy(r"(?i)\s*+[»\"'”“’]?\s*+,?\s*+(?:[àa]\s++remplacer|to\s++be\s++replaced|(?:zu|wird)\s++ersetz\w*"
                       r"|da\s++sostituire|a\s++reemplazar|(?:te|dat)\s++vervangen|dat\s++vervangen\s++we)")
# the word for a password or a secret and a few digits, as a whole word: "Passwort123", "senha123",
# "geheim123"
_THE_WORD = (r"pass(?:word|wort)?|kennwort|parola|senha|contraseña|hasło|wachtwoord|salasana|lösenord|passord|heslo"
             r"|şifre|motdepasse")
_THE_WORD_AND_DIGITS = lazy(r"(?i)(?<![\w-])(?:" + _THE_WORD + r"|geheim|rahasia|segreto|secreto|secret|sekret|hemlig)"
                            r"[0-9!]{1,6}(?![\w-])")
_HOLDS_THE_WORD_AND_DIGITS = lowered_search(_THE_WORD_AND_DIGITS.pattern)  # whether: in half the time


# a password that its own name says is an example's, and its value: "the example password is demo123",
# "la contraseña de ejemplo es demo123", "Beispielpasswort: demo123" (what documentation shows)
_EXAMPLE_PASSWORD = lazy(
    r"(?i)((?<!\w)(?:(?:example|sample|demo)\s++password|password\s++(?:de|di|d['’])\s*+(?:ejemplo|exemplo|esempio|exemple)"
    r"|contraseña\s++de\s++(?:ejemplo|demostración)|senha\s++de\s++(?:exemplo|demonstração)|beispiel-?passwort"
    r"|demo-?passwort|voorbeeldwachtwoord|mot\s++de\s++passe\s++d['’]exemple|przykładowe\s++hasło|hasło\s++przykładowe)"
    r"(?:\s++(?:in|from|of|im|in\s++der|del|de|du|da|aus|nel|na|no)\s++(?:the\s++|la\s++|le\s++|el\s++|il\s++)?[^\W\d_]+){0,2}"
    r"\s*+(?:is|es|est|ist|è|é|era|was|lautet|:|=)?\s*+[\"'«“„]?)[^\s\"'»”“,;]{3,40}")


def examples_masked(text: str) -> str:
    """``text`` with the word for a password and a few digits ("Passwort123") read as "placeholder"
    on each line that says it shows an example: what documentation and a lesson show, never
    someone's password ("Im Tutorial steht passwort: geheim123 als Beispielwert")."""
    if _A_DEFAULT_SAID(text):  # "POSTGRES_PASSWORD=postgres, the image's documented default"
        text = "\n".join(_IMAGES_DEFAULT.sub(r"\1placeholder", line) if _A_DEFAULT_SAID(line) else line
                         for line in text.split("\n"))
    if _AN_EXAMPLE(text) and _EXAMPLE_PASSWORD.search(text):  # "la contraseña de ejemplo es demo123"
        text = _EXAMPLE_PASSWORD.sub(r"\1placeholder", text)
    if not _HOLDS_THE_WORD_AND_DIGITS(text) and not _A_STAND_IN_VALUE.search(text):
        return text
    return "\n".join(_A_STAND_IN_VALUE.sub(r"\1placeholder", _THE_WORD_AND_DIGITS.sub("placeholder", line))
                     if _AN_EXAMPLE(line) else _A_STAND_IN_REPLACED.sub(r"\1placeholder", line) for line in text.split("\n"))


# what a template or seed data puts where a value goes, as a whole value: the word for a password or
# a secret ("wachtwoord=geheim"), a PIN of one digit or a run ("pin: 0000  # placeholder")
_A_STAND_IN_VALUE = lazy(r"(?i)([=:]\s*+[\"'«“]?\s*+)(?:" + _THE_WORD + r"|geheim|secret|secreto|segreto|sekret"
                         r"|0000|1111|1234|12345|123456|000000)(?![\w@-])")  # (a URL's, "user:password@host", is read as one)
_A_STAND_IN_REPLACED = lazy(_A_STAND_IN_VALUE.pattern + r"(?=" + _TO_BE_REPLACED.pattern.removeprefix("(?i)") + ")")


# A database's or a broker's password set to the value its image's documentation gives, on a line
# that says it is that default: a value every copy of the documentation holds
_IMAGES_DEFAULT = lazy(r"(?i)((?<![\w-])(?:postgres(?:ql)?|mysql|mariadb|rabbitmq|mongo|redis)_(?:root_|default_|initdb_root_)?"
                       r"(?:password|pass)\s*+[=:]\s*+[\"']?)(?:postgres|mysql|mariadb|root|guest|mongo|redis|example)(?![\w-])")
_A_DEFAULT_SAID = lowered_search(r"(?i)default|standard|voreinstell|par\s++d[ée]faut|por\s++defecto|predefinit")


# "on" is "is" after the Finnish and Estonian words for a password: "Ruuteri parool on …"
_IS_IN_FINNISH = lazy(r"(?i)(?:parool|salasana\w*|salasõna\w*)(?:\s++[^\W\d_]++){0,2}?\s++on\s*+$")  # ("parool internetipangas on …")
_BEFORE = 200
# the words for a password in languages whose words the gate has no list of (``words``): after
# them an ordinary word ("Geslo je poteklo", expired) cannot be told from a made-up one
_WORDS_WITHOUT_A_LIST = lowered_search(r"(?i)kodeord|slaptažod|parool|geslo|gesla|lozink|contrasenya|haśl|" + password_words.LATIN)
# the word for a password itself, with digits or a sign: what documentation shows as an example
_THE_WORD_ITSELF = lazy(r"(?i)(?:" + _THE_WORD + r")[0-9!]{0,6}")


# a reference to a value kept elsewhere, as a whole: "${DB_PASSWORD}", "$DB_PASSWORD", "%DB_PASSWORD%"
# (a name with "_" or a credential's word in it: "$PARIS2024" is a value)
_A_VARIABLES_NAME = r"(?:[A-Za-z][A-Za-z0-9]*+_\w++|(?=[A-Z0-9]*(?:PASS|PWD|TOKEN|SECRET|KEY|AUTH|CRED))[A-Z][A-Z0-9]*+)"
_A_REFERENCE = lazy(r"\$\{[^}]*+\}?|[$%]" + _A_VARIABLES_NAME + r"%?")


# the name of an HTML form field's attribute, set: "type=", "autocomplete=" (its value a word, no secret)
_A_FORMS_ATTRIBUTE = lazy(r"(?i)(?:type|autocomplete|inputmode|name|id|for|class|role|aria-[a-z]++|data-[a-z-]++)=[\"']?")


def _password_nearby(text: str) -> bool:
    if ("?\n" in text or "? " in text) and _answered(text.splitlines()):
        return True
    for line in text.splitlines():
        if "`" in line or not _ON_A_PASSWORD_LINE(line):
            continue
        unlisted, an_example, cased = _WORDS_WITHOUT_A_LIST(line), None, _CASE_WORDS(line)
        kelmet = "lm" in line and _KELMET_EL_SER.search(line) is not None
        words_at: list[tuple[int, int]] | None = None
        for match in _TOKEN.finditer(line):
            token = match[0]
            if _said_of_a_password(token, line) and not _TOLD_AS_A_VALUE.search(line, max(0, match.start() - 3), match.start()):
                continue  # "Password reimpostata", "Contul … nu are o parola setata": how it is (not "lautet: gesperrt")
            if ":" not in token and "=" not in token:
                if words_at is None:  # where the line's words for a password are: found once a line
                    words_at = _PASSWORD_WORDS_AT(line)
                if words_at and all(match.start() <= start and end <= match.end() for start, end in words_at):
                    continue  # the only word about a password is in the token: a name ("user.notes.pw-talk.o34")
            assigned = token.partition("=")[2] if "=" in token else token.rpartition(":")[2] if ":" in token else None
            if assigned is not None and (_A_REFERENCE.fullmatch(assigned) or _NOT_A_VALUE_ANYWHERE(assigned)
                                         or len(assigned) < 2 and token.endswith(("=", "=$", ":", ":$"))):
                continue  # "spring.datasource.password=${DB_PASSWORD}", "admin:$PASSWORD": a name and a reference
            if assigned is not None and _A_FORMS_ATTRIBUTE.match(token) and re.fullmatch(r"[a-z]++(?:-[a-z]++)*+", assigned.strip("\"',.;")):
                continue  # a form field's attribute: "type=password, autocomplete=current-password"
            if _the_word_itself(match[0]):
                if (_FORBIDDEN_BEFORE.search(line, max(0, match.start() - 30), match.start())
                        or _TO_BE_REPLACED.match(line, match.end())):
                    continue  # "niente «password1» né il nome del cane", "« motdepasse123 » à remplacer"
                if an_example is None:  # searched once a line: a line of 40,000 characters is thousands of tokens
                    an_example = _AN_EXAMPLE(line)
                if an_example:
                    continue  # "als Beispielpasswort nur „passwort123“": the word itself, as documentation shows it
            # what is said before a token, as far back as a clause reaches (from the line's start, a
            # line of 40,000 characters took seconds: each token searched all that came before it)
            before = line[max(0, match.start() - _BEFORE):match.start()]
            after = line[match.end():match.end() + 60].split()
            if _DASHED_WORDS_AND_DIGITS.fullmatch(token.rstrip(".,;:!?")) and (
                    any(_A_PASSWORDS_WORD.fullmatch(word) for word in before.split()[-2:]) or _A_PASSWORDS_LABEL.search(before)
                    or after and _A_VERB.fullmatch(after[0]) and any(_A_PASSWORDS_WORD.fullmatch(word) for word in after[1:4])):
                return True  # "la clave provisional Pq4-lago-nube", "galeb-rivijera-5 je lozinka za wifi"; not
                # "Merged feat-login-page-2 into main": words joined by dashes and a digit, beside the word for a password
            if (_DOTTED_WORDS_AND_DIGITS.fullmatch(token.rstrip(".,;:!?")) and before.split()
                    and _ON_A_PASSWORD_LINE(before.split()[-1])):
                return True  # "extranet şifrem Sultan.Ahmet_1453", right after the word for a password
            if kelmet and _A_FRANCO_ARABIC_WORD.fullmatch(token.rstrip(".,;:!?")):
                continue  # a word written with a digit for a letter: "kelmet el ser embare7 el sa3a 11"
            if _password_shaped(match[0]) and (_CHANGED_TO.search(before) or _IS_IN_FINNISH.search(before)
                                               or not _NAME_BEFORE.search(before)):
                if _AN_ADDRESS_NAME.fullmatch(token) and after and _A_MAILBOX.fullmatch(after[0]):
                    continue  # a mailbox named by its address: "the shared info@ mailbox password"
                if _A_WORD_EXCLAIMED.fullmatch(token) and _NEVER_STARTS.match(re.split(r"[.!?]\s", before)[-1]):
                    continue  # the next sentence's warning: "Wachtwoord staat in de kluis. Nooit delen!"
                return True  # "Cambié la contraseña del banco a girasol2019": "a" is "to" here, no article
            if (not unlisted and _made_up(match[0].rstrip(".!?")) and _VALUE_BEFORE.search(before)
                    and not _A_TOOL_IS.search(before)
                    and not _NAME_BEFORE.search(before) and _CLAUSE_ENDS(line[match.end():])):
                return True  # "p/w: thunderdaisy", "pwd harbormilo"; not "the password manager is bitwarden"
            if (_joined_words(match[0]) and (_VALUE_BEFORE.search(before) or _CHANGED_TO.search(before))
                    and not _NAME_BEFORE.search(before)
                    and (_CLAUSE_ENDS(line[match.end():]) or not line[match.end():].strip()[:1].isascii()
                         or match[0][-1].isdigit() and _ON_A_PASSWORD_LINE(before.split()[-1]))):
                return True  # "Het wachtwoord van de NAS is drop.molen.fietsbel", "Przy haśle rocket-cricket-toffee4 logowanie"
            joined = match[0].rstrip(".!?")
            if (not unlisted and _TWO_OR_THREE_WORDS.fullmatch(joined) and _VALUE_BEFORE.search(before)
                    and not _NAME_BEFORE.search(before) and _CLAUSE_ENDS(line[match.end():])
                    and _words_joined_as_a_password(joined, line)):
                return True  # "jelszó a routerhez: paprikas_csirke", "O contrasinal do correo é polbo_a_feira."
            if (_NAMES_AND_A_NUMBER.fullmatch(joined) and _VALUE_BEFORE.search(before) and not _NAME_BEFORE.search(before)
                    and _CLAUSE_ENDS(line[match.end():])):
                return True  # "psw: Gatto-Nero-77" where a value is told; not "except Debian-Bookworm-12 boxes"
            if (_NAMES_JOINED.fullmatch(joined) and _VALUE_BEFORE.search(before) and not _NAME_BEFORE.search(before)
                    and not _A_TOOL_IS.search(before) and not _TO_OR_IN.search(before) and not _ABOUT_CODE.search(line)
                    and not _IN_AN_APP.search(line) and _CLAUSE_ENDS(line[match.end():])):
                return True  # "Mật khẩu email … là ComTam_Saigon"; not "next to Login_Form", "folder: Family_Shared"
            if (not unlisted and match[0].isalpha() and cased and _CASE_AFTER.match(line, match.end())
                    and not _DESCRIBING.fullmatch(match[0])
                    and match[0].lower() not in _STATES and match[0].lower() not in _RULE_VERBS
                    and _PASSWORD_OR_IS.search(before) and not _NAME_BEFORE.search(before)
                    and _A_PASSWORDS_NAME.search(before) and not _A_USERS_NAME.search(before)):
                return True  # "şifresi sincap, küçük harflerle", "parola … e veverita, cu literă mică"
    return False


# A password told a character at a time: "capital M, then a r s, then 2 0 2 4, then an exclamation
# mark". Its parts: a letter named by its case, a run of single characters, a sign named. A rule
# for passwords names a case or a sign, never a letter of it ("an uppercase letter and a digit").
_TOLD_CASE = lazy(r"(?i)(?<!\w)(?:capital|upper\s*+-?\s*+case|lower\s*+-?\s*+case|small|big|gro(?:ß|ss)es?|kleines?)"
                  r"\s++(?:letter\s++)?(?-i:[A-Za-z])(?![\w-])"
                  r"|(?<![\w-])(?-i:[A-Za-z])\s++(?:majuscule|minuscule|may[uú]scula|min[uú]scula|mai[uú]scul[ao]"
                  r"|minuscola|groot|klein)(?!\w)")
_SINGLES_NEXT = lazy(r"\s*+[,;:]?\s*+(?:(?:then|dann|puis|luego|después|poi|dan|daarna|and|und|et|y|e)\s++)?"
                     r"[A-Za-z0-9](?:(?: |, ?)[A-Za-z0-9]){1,}(?![\w-])")
# or right after a password's word and words that say it is told so, four characters or more each alone: "Router
# admin login, letter by letter: p e l i c a n", "The password, spelled: h u n t e r 2 2" (the password is what is
# spelled: not a name, a reference or an id spelled for a support line, "Vet portal login: the clinic ID spelled
# out is P A W S 0 1", "Passwort-Hotline angerufen, Nachname buchstabiert: S C H M I D T")
_LETTER_BY_LETTER = lazy(
    r"(?i)(?<![\w-])(?:pass(?:word|wort|phrase|code)|pw|pwd|login|pin|kennwort|contrase[ñn]a|mot\s++de\s++passe|senha"
    r"|wachtwoord|has[łl]o|heslo|l[öo]senord|passord|parola|salasana)"
    r"(?:\s++(?:for|of|to|on|at|für|pour|para|per|voor)(?:\s++[^\W\d_]{1,20}){1,4})?"  # what it opens ("for the boat club laptop")
    r"(?:\s++(?!(?:name|surname|username|user|id|reference|ref|number|code|nom|nombre|apellido|nachname|cognome"
    r"|achternaam|naam)(?![\w-]))[^\W\d_]{1,20}){0,2}\s*+[,?]?\s*+(?:is\s++|was\s++)?"
    r"(?:letter\s++by\s++letter|one\s++letter\s++at\s++a\s++time|spel(?:led|t|ling)(?:\s++out)?|spell\s++it|buchstabiert"
    r"|lettre\s++par\s++lettre|letra\s++por\s++letra|lettera\s++per\s++lettera|letter\s++voor\s++letter)"
    # (then, maybe, why, and a colon: "spelled out so you don't mistype it: …", "letter by letter, is: …")
    r"(?:[^\n:.;?!]{1,40}?:)?\s*+[,:;–—-]?\s*+(?:(?:it['’]s|it\s++is|is|ist|es|est|è)\s*+:?\s*+)?[\"'“‘]?"
    r"(?-i:[A-Za-z])(?:(?: |, ?|-|\. ?)(?-i:[A-Za-z0-9])){3,}(?![\w-])")
_SPELLED_NEEDLES = ("capital", "upper", "lower", "small ", "big ", "großes", "grosses", "kleines", "majuscul",
                    "minuscul", "mayúscul", "mayuscul", "minúscul", "maiúscul", "maiuscul", "groot", "klein",
                    "letter by", "letter at", "spell", "spelt", "buchstabiert", "lettre par", "letra por",
                    "lettera per", "letter voor")


def _spelled_out(text: str) -> bool:
    for line in text.splitlines():
        told = list(_TOLD_CASE.finditer(line))
        if not _ON_A_PASSWORD_LINE(line):
            continue
        if _LETTER_BY_LETTER.search(line):
            return True
        if not told:
            continue
        # single characters right after a letter named by its case ("capital M, then a r s"), or three
        # letters named so; not talk of a font or a screen ("a capital I, a small l and the
        # exclamation mark look alike", "tabs A, B, C; the capital X closes it")
        if len(told) >= 3 or any(_SINGLES_NEXT.match(line, case.end()) for case in told):
            return True
    return False


# capitalised words and a number of two to four digits joined by "-": "Lupo-Bianco-42" (a host's name
# has that shape too: only where a value is told)
_NAMES_AND_A_NUMBER = lazy(r"[A-Z][a-z]{2,}(?:-[A-Z]?[a-z]{2,}){1,3}-[0-9]{2,4}[!?#$%&*]?")
# two names joined by "_": "Kazy_Almaty", "ComTam_Saigon" (a name in code has that shape too: only
# where a value is told, "Mật khẩu … là ComTam_Saigon"; not "the login button is in Header_Nav.")
_NAMES_JOINED = lazy(r"[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,})?_[A-Z][a-z]{2,}|[a-z]{3,}_[a-z]{3,}[0-9]{2,4}")
_TO_OR_IN = lazy(r"(?i)(?<!\w)(?:to|from|in|into|under|next\s++to)\s*+$")
_IN_AN_APP = lazy(r"(?i)(?<!\w)(?:folder|enum|view|setting|settings|screen|page|button|tab|menu|section|group|label"
                  r"|policy|class|column|field|module|component)(?!\w)")
# two or three words in small letters joined by "_" (or "-" beside one), the middle one maybe short:
# "polbo_a_feira" (a name in code looks the same: only where a password is told, and no code is about)
_TWO_OR_THREE_WORDS = lazy(r"(?-i:[^\W\d_A-Z]{3,}(?:[_-][^\W\d_A-Z]{1,12}){0,1}[_-][^\W\d_A-Z]{3,})")


# Words in small letters joined by "-" or "_", maybe a number last: "pastafrolla-ventosa",
# "fritule-i-kava-5", "teh_tarik_kurang_manis" (a part of one or two letters only between two)
_JOINED_LOWER = lazy(r"(?-i:[^\W\d_A-Z]{2,}(?:[_-][^\W\d_A-Z]{1,20}){0,4}[_-](?:[^\W\d_A-Z]{3,}|[0-9]{1,4}))")
# one whole on its line, as ``_TOKEN`` reads tokens (a stop or a sign of the clause's end after it)
_JOINED_TOKEN = lazy(r"(?<![^\s\"'`“”‘’«»(\[{<|,;，。、：])" + _JOINED_LOWER.pattern
                     + r"(?=[.!?]*+(?:[\s\"'`“”‘’«»)\]}>|,;，。、：]|$))")
# The words for a password (not a login's, a user's or a code's), wherever the clause has them:
# "Lozinka za Wi-Fi u vikendici:", "Die Wi-Fi-wagwoord by die strandhuis:", "le mot de passe"
_PASSWORDS_WORDS = (
    r"(?i)pass(?:word|wort|phrase)|passwd|kennwort|contrase[ñn]a|contrasenya|contrasinal|mot\s++de\s++passe|senha"
    r"|wachtwoord|wagwoord|has[łl](?!o\s++(?:reklamow|przewodni|kampanii|dnia))|haśl|hesl[oae]|l[öo]senord|passord"
    r"|adgangskode|kodeord|salasan|[şs]ifre|jelsz|парол|лозинк|(?<!het\s)parool|geslo|gesla|lozink|slaptažod"
    r"|fjal[ëe]kalim|kata\s++laluan|kata\s++sandi|lykilor[ðd]|pasahitz|pasfhocal|cyfrinair|nenosiri"
    # Latvian "parole" (a French and an Italian word too) before a colon or "ir"; Spanish "clave" not as
    # a keyword or "the key to"; Greek "κωδικός" as a password's ("πρόσβασης"), not a course's code
    r"|(?<!la\s)(?<!una\s)parola(?!\s++(?:chiave|d['’]ordine|per\s++parola))(?![a-z])"
    r"|(?<!le\s)(?<!les\s)(?<!la\s)(?<!de\s)(?<!sa\s)(?<!ma\s)parole(?![a-z])"
    r"|(?<![a-z])(?<!palabra\s)clave(?!\s++(?:para|del\s++éxito))"
    r"|mật\s++khẩu|κωδικ\w*\s++πρόσβασης|συνθηματικ|كلمة\s*+(?:ال)?مرور|סיסמ|पासवर्ड|密码|密碼|パスワード|비밀번호|รหัสผ่าน|รหัส"
    # Azerbaijani, Indonesian, Welsh after a mutation, Irish, and those of ``_WORDS_OF_OTHER_SCRIPTS``
    r"|[şs]ifr[əe]\w*|(?<![a-z])sandi(?![a-z])|(?:g|ch|ngh)?yfrinair|focal\s++faire|கடவுச்சொல்|رمز\s*+عبور|passwuert|"
    + _WORDS_OF_OTHER_SCRIPTS
    + "|" + password_words.ALL)
_A_PASSWORD_IN_THE_CLAUSE = lowered_search(_PASSWORDS_WORDS)
# a word for a password right before the value: "guna kata laluan …", "med lösenordet …", "ใช้รหัส …"
_ENDS_WITH_A_PASSWORDS_WORD = lazy(r"(?i)(?:" + _PASSWORDS_WORDS.removeprefix("(?i)") + r")\w*+\s*+$")
# what a note in brackets says when a rule follows, not a value: "Palavra-passe (regra): mudar-a-cada-90-dias"
_A_RULES_NOTE = (r"(?i:rule|regra|regla|règle|regel|regola|reguła|policy|pol[íi]tica|politique|richtlinie|beleid|reminder"
                 r"|lembrete|recordatorio|rappel|erinnerung|promemoria|tip|hint|format|formato)")
# a label that is a word for a password, right before its value, with a note in brackets or not:
# "Құпия сөз: …", "Hen gyfrinair = …", "Passwort (Wiederholung) = …"
_A_PASSWORDS_LABEL = lazy(r"(?i)(?:" + _PASSWORDS_WORDS.removeprefix("(?i)")
                          + r")\w{0,3}(?:\s*+[(（](?!\s*+" + _A_RULES_NOTE + r")[^()（）\n]{1,30}[)）])?\s*+[:：=→]\s*+$")
_JOINED_NEEDLES = (
    "pass", "kennwort", "contrase", "contrasinal", "mot de passe", "senha", "wachtwoord", "wagwoord", "hasł", "hasl", "haśl",
    "hesl", "lösenord", "losenord", "passord", "adgangskode", "kodeord", "salasan", "şifre", "sifre", "jelsz", "парол",
    "лозинк", "parool", "geslo", "gesla", "lozink", "slaptažod", "fjalëkalim", "fjalekalim", "kata laluan", "kata sandi",
    "lykilor", "pasahitz", "pasfhocal", "cyfrinair", "nenosiri", "parola", "parole", "clave", "mật khẩu", "κωδικ", "συνθηματικ", "كلمة",
    "סיסמ", "पासवर्ड", "密码", "密碼", "パスワード", "비밀번호", "รหัส", "ifrə", "sandi", "yfrinair", "focal faire",
    "கடவுச்சொல்", "رمز", "passwuert", *_OTHER_SCRIPTS_NEEDLES, *password_words.NEEDLES)
# a clause about a tool or a rule for passwords, where what is told is not one: "Password manager
# rollout: pilot group is team-platform-infra-2"
_PASSWORDS_TOOL = lazy(r"(?i)pass(?:word|wort)[\s-]*+(?:manager|policy|policies|rules?|reset|rollout|generator|vault"
                       r"|expiry|strength|requirements?|hash\w*|richtlinie|regeln?)(?!\w)")
# a verb of use, which names a tool after it ("the passphrase prompt uses pinentry-curses")
_USES = lazy(r"(?i)(?<!\w)(?:uses?|usa|try|pass)\s*+[\"'“‘«„]?$")
_A_PASSWORDS_WORD_IN = lazy(r"(?i)(?:" + _PASSWORDS_WORDS.removeprefix("(?i)") + r")\w*+")
# a clause after the one about the password: a comma, "and", "but"
_ANOTHER_CLAUSE = lazy(r"(?i)[,;(]|(?<!\w)(?:and|und|et|e|och|og|ja|oraz|és|ve|и|та|і|και|but|aber|mais|pero|ma|men)(?!\w)")
# what names a thing right before a value: a branch, a channel, a sender, a course, a file, a queue…
_ANOTHER_THINGS_NAME = lazy(
    r"(?i)(?<!\w)(?:branch|rama|zweig|gałąź|větev|channel|kanaal|kanal|canal|sender|absender|expéditeur|remitente"
    r"|from|to|von|vom|de|queue|ticket|incident|world|title|titel|titre|título|file|fichier|datei|archivo|slug|\w*kurs"
    r"|course|curso|cours|host(?:name)?|server|serveur|servidor|repo(?:sitory)?|project|projet|projekt|folder|ordner"
    r"|carpeta|dossier|playlist|\w*listan?|recipe|ricetta|receta|piatto|dish|name|nom|nombre|heet|jmenuje|heißt"
    r"|appelle|llama|chiama|printer|drucker|tiskárna|site|page|url|link|tag|label|flag|job|pipeline|bucket|namespace)"
    r"(?:\s++(?:is|ist|est|es|è|é|är|er|je|jest))?\s*+[:：]?$")
_SENTENCE_ENDS = lazy(r"[.!?;。]\s|\n")
_NOW = lazy(r"(?i)\s++(?:now|nyt|jetzt|teraz|ahora|maintenant|ora|nu|agora|sada|сейчас|тепер|zdaj|acum|most|şimdi)\s*+$")


def _joined_value_told(joined: str, before: str, line: str, end: int) -> bool:
    """Whether ``joined`` (``_JOINED_LOWER``) is a password told in its clause: after a word for a
    password in the same clause, where a value is told (a colon, "is", "changed to", the word
    itself), ending the clause, and made up (a number last, or a part no language's list holds).
    Not a name ("for user jan-de-vries", "network name: haus-am-see"), a tool ("password manager:
    …"), an example or a stand-in, nor a compound of words ("case-sensitive", "on-the-fridge")."""
    clause = _SENTENCE_ENDS.split(before)[-1][-120:]
    told = _NOW.sub("", before.rstrip("\"'“‘«„ "))  # "… on nyt", "cambiata in «"
    if not (_A_PASSWORD_IN_THE_CLAUSE(clause) and (_VALUE_BEFORE.search(told) and not _USES.search(told)
                                                   or _CHANGED_TO.search(told)
                                                   or _ENDS_WITH_A_PASSWORDS_WORD.search(told[-40:]))):
        return False
    last = None
    for last in _A_PASSWORDS_WORD_IN.finditer(clause):
        pass
    after_the_word = clause[last.end():] if last else clause  # what the clause says after its word for a password
    if _ANOTHER_CLAUSE.search(after_the_word) or _ANOTHER_THINGS_NAME.search(told):
        return False  # "… is on the fridge, and the printer queue is: mono-2", "… fixed on branch: hotfix-2"
    if (_NAME_BEFORE.search(before) or _A_TOOL_IS.search(before) or _IN_AN_APP.search(clause)
            or _PASSWORDS_TOOL.search(clause) or not _CLAUSE_ENDS(line, end)
            or _AN_EXAMPLE(line) or _A_STAND_IN_ELSEWHERE(joined) or _A_STAND_IN.search(joined)):
        return False
    return _joined_made_up(joined)


def _joined_made_up(joined: str) -> bool:
    """Whether words joined by "-" or "_" (``_JOINED_LOWER``) are made up: no part a name in code or
    the word for a password, and a number last or a part no language's list holds ("case-sensitive"
    and "on-the-fridge" are compounds of words)."""
    parts = re.split(r"[_-]", joined)
    if any(part in _CODE_PARTS or _PASSWORD_LINE.search(part) for part in parts):
        return False
    return parts[-1].isdigit() or not all(words.is_common(part) for part in parts if len(part) >= 3)


def _joined_value(text: str) -> bool:
    """Words joined by "-" or "_" told as a password in their clause (``_joined_value_told``)."""
    for line in text.splitlines():
        if "`" in line or not _A_PASSWORD_IN_THE_CLAUSE(line):
            continue
        for match in _JOINED_TOKEN.finditer(line):
            if _joined_value_told(match[0], line[max(0, match.start() - _BEFORE):match.start()], line, match.end()):
                return True
    return False


def _pair_of_joined_words(text: str) -> bool:
    """A user and a password after a colon, the password words joined by dashes or underscores
    (``Weboberfläche: admin / tintenfass-uhu``): made up, as ``_joined_value_told`` asks, on no line
    about code or an example."""
    for match in _AFTER_COLON_PAIR.finditer(text):
        value = match["value"].rstrip(".,;!?")
        if (_JOINED_LOWER.fullmatch(value) and not _ABOUT_CODE.search(told._line_of(text, match))
                and not _AN_EXAMPLE(text) and _joined_made_up(value)):
            return True
    return False


def _words_joined_as_a_password(joined: str, line: str) -> bool:
    """Whether words joined by "_" where a password is told are one: not on a line about code or
    showing an example, not a stand-in ("wijzig_mij"), no part a name in code or the word for a
    password, and not every part a common word ("doi_mat_khau"; by "-" alone they are a compound
    of a language, "case-sensitive")."""
    parts = re.split(r"[_-]", joined)
    if (_ABOUT_CODE.search(line) or _AN_EXAMPLE(line) or _A_STAND_IN_ELSEWHERE(joined) or _A_STAND_IN.search(joined)
            or any(part.lower() in _CODE_PARTS or _PASSWORD_LINE.search(part) for part in parts)):
        return False
    return "_" in joined and not all(words.is_common(part) for part in parts if len(part) >= 3)


# A password told by what it opens, with no word for "password": "the work laptop unlocks with
# cedar1979", "Set the Disney+ one to ducktales4ever", "Wi-Fi in the studio: mossgreen_teacup",
# "Der Laptop im Büro geht mit Fahrrad1986 auf", "Mi hermana la puso como tortuguita". The line
# must say what is opened or that a password was set, the value must come where a value is told
# (after "is", "with", "to", "as", a colon, an arrow…), and it must look made up: a word no language
# has, a word and a number ("robin1959", "Vespa1972"), or words joined by a sign ("nasbox_owl").
# (Two patterns: a line in ASCII, most lines, is never searched with the first, whose class of
# 40,000 letters takes milliseconds to compile.)
_ACCESS_AFTER_SCRIPT = (
    # a few words right after a word of a script written without spaces: "実家のWi-Fiは", "老家的wifi是"
    # (only these: the alternation below starts where a word does, or a run of such a script would
    # make every one of its letters a start, each scanned to the run's end by "\w*laptop")
    r"(?i)(?<=(?-i:[" + NO_SPACE_SCRIPTS + r"]))(?:wi-?fi|wlan|router|modem|hotspot|laptop|notebook|pc|ipad|tablet|kindle"
    r"|netflix|gmail|icloud|outlook|vpn|nas|zip|usb)(?![a-z0-9_\u00c0-\u024f\u0400-\u04ff-])"
    r"|와이파이|노트북|ノートpc|电脑|電腦|设成|設定|설정|会員ページ|マイページ|で入れる|로그인")  # words of those scripts, wherever they are in a run
_ACCESS_WORDS = (
    r"(?i)(?<![\w-])(?:wi-?fi|wlan|router|modem|hotspot|login|log(?:s|ging|ged)?\s*+in(?:to)?|sign(?:s|ed|ing)?\s*+in"
    r"|accounts?|everything|everywhere|admin|unlock\w*|opens?|gets?\s++(?:you\s++)?in(?:to)?|goes\s++in|works\s++with|takes|laptop|computer|pc"
    r"|(?:locked|protected|secured)\s++with\s++the\s++(?:(?:pass|code|secret|magic)\s*+)?word"
    r"|desktop|chromebook|tablet|ipad|kindle|xbox|playstation|console|netflix|hulu|disney\+?|spotify|amazon|paypal"
    r"|gmail|icloud|outlook|facebook|instagram|linkedin|steam|dropbox|roblox|nintendo|plex|synology|nas|printer|portal"
    r"|drive|bank|email|peloton|the\s++(?:new|old|family|shared|temporary|guest|same)\s++one|(?:the|my|her|his)\s++\S+"
    r"\s++one|(?:set|changed|switched|reset|made|make|updated|picked|chose|put)\s++it\b|went\s++with"
    # a customer's account, a school's portal: "kundkontot öppnas med …", "het klantaccount gaat met …"
    r"|\w*kontot|\w*kontoen|klantaccount|portail"
    # a login in a compound and in other scripts: "forældrelogin", "पैरेंट लॉगिन", "логин"
    r"|\w+login|लॉगिन|логин|kirjautum\w*|аккаунт\w*|акаунт\w*"
    r"|type|typed|typing|compu|computadora|ordinateur|portatile|portátil|rechner|\w*laptop|jobbdator\w*|bilgisayar\w*"
    r"|ordenador|computador|komputer\w*|notebook\w*|läppär\w*|datorn|pc-en|ноутбук\w*|компьютер\w*|počítač\w*|ruteren"
    r"|máy\s++tính|laptopa|entrar|entrare|entrer|войти|увійти|wejść|masuk|đăng\s++nhập|intri|girmek|komme\s++inn"
    r"|logga\s++in|logg\s++inn|přihlásíš|belépni|kirjaudu\w*|portal|nas|zip|usb|vpn|outlook|prompts?"
    r"|box\s++internet|konto|compte|cuenta|conta|abre|apre|ouvre|öffnet|auf|gaat\s++open|låses|låser|açılıyor|puso|messa"
    r"|mise|gesetzt|ingesteld|ustawi\w*|colocou|поставил\w*|satte|yaptı|changé|cambi[ée]|mudei|veranderd|bytte"
    r"|değiştirdi\w*|vaihdoin|zmieni\w*|вайфа\w*|роутер\w*|와이파이|노트북|ノートpc|电脑|设成|設定|설정|で開く|열려|开机"
    r"|(?:ال)?وا[يى]\s*+فا[يى]|inlog(?:gen)?|entrar\s++no\s++sistema|acesso|acceso|accesso"
    # what is said of a password's letters: "all lowercase", "without a digit", "12 characters"
    r"|lowercase|uppercase|capital|digits?|numbers|characters|symbol|exclamation|minúsculas?|minuscules?|kleinbuchstaben"
    r"|cijfers|bokstäver|chiffres|numeri|harf|小写|소문자|маленькими)"
    # a word then a word of a script written without spaces: "Wi-Fiは", "wifi是"
    r"(?![a-z0-9_\u00c0-\u024f\u0400-\u04ff-])|(?:开机|で開く|열려|设成|に設定|으로|ログイン|로그인|登录|登入)")
_ACCESS = lazy(_ACCESS_AFTER_SCRIPT + "|" + _ACCESS_WORDS.removeprefix("(?i)"))  # the two in one, as tests check them
_ACCESS_IN_WORDS = lowered_search(_ACCESS_WORDS)
_ACCESS_AFTER_A_SCRIPT = lowered_search(_ACCESS_AFTER_SCRIPT)


def _ABOUT_ACCESS(line: str) -> bool:
    """Whether ``line`` names something a password opens, or says that one was set."""
    return _ACCESS_IN_WORDS(line) or not line.isascii() and _ACCESS_AFTER_A_SCRIPT(line)


_THEN = r"(?:then|dann|puis|luego|después|depois|poi|dan|daarna|sedan|deretter|derefter|potem|потом|затем|a[íi]\s++vem)"
_INTRODUCED = lazy(
    r"(?i)(?:(?<![\w-])(?:is|was|are|be|now|it['’]s|to|as|with|with\s++the\s++password|use[sd]?|using|uses|did|type[sd]?"
    # a password called "the word": "the gallery is locked with the word marigold1987"
    r"|with\s++the\s++(?:(?:pass|code|secret|magic)\s*+)?word"
    r"|usa|usá|usar|uso|utiliza|utilizo|utilizza|utilizzo|utilise|utilisez|benutze|benutz|nimm|gebruik|użyj|använd|bruk|brug"
    r"|käytä|kullan"
    r"|ma[dk]e\s++it|for|picked|tried|typed|still|mis|met|com|eingestellt"
    r"|went\s++with|picked|chose|takes|just|es|est|è|é|ist|er|är|on|je|jest|como|come|als|jako|pour|para|per|med|mit"
    r"|con|avec|till|op|på|auf|à|a|em|este|это|как|ile|в|na|naar|för|för|über|so|lautet|c['’]est|here['’]?s"
    # what one types: "enter MarigoldHarbor59", "escribe …", "введи …", "wpisz …", "ketik …"
    r"|enter|type\s++in|escribe|escriba|digita|digite|tape|tapez|saisis|saisissez|entrez|inserisci|scrivi|введи|введите"
    r"|введіть|введи|wpisz|ketik|gõ|nhập|scrie|yaz|skriv|tippe|tipp|eingeben|gib|voer|typ|kirjoita|írd\s++be|zadej"
    r"|输入|入力|입력"
    # a user, "and" or "then", then the password: "med admin og Hq7tZ2wLmVx", "type admin and then …"
    r"|(?:admin|root|administrator|user|guest|e-?mail|mail)\s++(?:(?:og|and|und|et|y|e|en|och|ja|ve|и|i|a)(?:\s++" + _THEN + r")?"
    r"|" + _THEN + r")|\w,\s++(?:og|and|und|et|y|e|en|och|ja|ve|и|i|a)\s++" + _THEN + r")"
    r"|[:=→>—–/：]|->|\s-|(?:は|是|는|은|为|為)"
    # what one types to log in, in Chinese ("大家登入都打 Honey2025tw"; not "打 NBA2K24", playing a game)
    r"|(?:登入|登录|登錄|登陆|登陸|進後台|进后台)[^\n，。,.后後]{0,6}?(?:打|输|輸)(?:一次|一下)?)\s*+[\"'«“„‘「]?$")
_FOLLOWED = lazy(r"(?i)^[\"'»”’]?\s*+(?:gets\s++you\s++in|will\s++get\s++you\s++in|and\s++you['’]re\s++in|opens\s++it"
                       r"|で開く|으로|로|에|に|で|开机|ile|입력|就行|yaz|eintippen|eingeben|för\s++att|for\s++å|to\s++log|to\s++get"
                       r"|when\s++it\s++asks|jelszóval|heslem|salasanalla"
                       # the account it goes with: "we use lemonpie with Dad's email"
                       r"|with\s++(?:(?:the|my|her|his|their|our|\w+['’]s)\s++)?(?:work\s++)?(?:e-?mail|g?mail|login|user\s*+name|account))")
_WORD_AND_NUMBER = lazy(r"(?:[^\W\d_]{4,}|[^\W\d_]{2,}[_-][^\W\d_]{2,})[_-]?[0-9]{1,4}[!?#$%&*]?|[^\W\d_]{3,}[!?#$%&*]"
                              r"|[^\W\d_]{4,}[0-9]{1,2}[^\W\d_]{2,}")
_JOINED = lazy(r"[^\W\d_]{3,}(?:[_][^\W\d_0-9]{2,}[0-9]*)+|[^\W\d_]{3,}(?:-[^\W\d_]{3,}){1,2}(?=,|\s++with)")
# what names a thing rather than a password: a product and its model ("Windows11", "PS5", "gpt4o"),
# a version, a network's name
_NOT_MADE_UP = lazy(
    r"(?i)(?:python|ubuntu|debian|fedora|windows|win|office|iphone|ipad|pixel|galaxy|android|ios|macos|java|node|postgres"
    r"|mysql|redis|sha|md|base|utf|http|https|ipv|oauth|gpt|claude|llama|gemini|mp|arm|amd|intel|ps|xbox|iso|es|rfc"
    r"|covid|version|python|php|html|css|h|x|log|year|top|best|web|wifi|level|tier|plan|room|zoom|teams|nixos|lineageos"
    r"|mint|manjaro|arch|centos|rhel|opensuse|pop_?os|kubuntu|xubuntu|sonoma|ventura|monterey|bigsur"
    r"|ryzen|xeon|core|rtx|gtx|radeon|snapdragon|exynos|thinkpad|ideapad|zenbook|galaxy)[_-]?[0-9]+[a-z]{0,4}")
# a number and its unit joined by a dash: "30-second steps", "6-digit codes", "12-character passwords"
_A_MEASURE = lazy(r"(?i)[0-9]+(?:[.,][0-9]+)?-(?:second|sec|minute|min|hour|day|week|month|year|digit|char(?:acter)?"
                        r"|letter|bit|byte|step|round|attempt|try|tries|time|fold|word|factor|node|core|thread)s?")
# the name of a hash, a cipher or a curve: "argon2id", "pbkdf2", "ed25519", "chacha20", "blake2b"
_A_CIPHERS_NAME = lazy(
    r"(?i)argon2(?:id|i|d)?|pbkdf2|bcrypt|scrypt|ed25519|ed448|x25519|x448|curve25519|poly1305|x?chacha20"
    r"|aes-?(?:128|192|256)(?:-?(?:gcm|cbc|ctr|siv))?|rsa-?(?:1024|2048|3072|4096)|sha-?(?:1|224|256|384|512)"
    r"|sha3-?(?:224|256|384|512)|blake(?:2b|2s|3)|secp256[kr]1|p-?(?:256|384|521)|crc32c?|hmac-?sha-?(?:1|256|384|512)"
    r"|md5|tls-?1\.?[0-3]")
# a line about code, where words joined by "_" are names: "the login handler calls auth_login"
_ABOUT_CODE = lazy(r"(?i)(?<![\w-])(?:function|variable|method|module|class|column|field|table|env|handler|def"
                         r"|config|setting|parameter|param|argument|endpoint|route|schema|key\s++name|called|named)(?![\w-])")


_A_STAND_IN = lazy(r"(?i)replace[_-]?me|" + CHANGE_ME + r"|placeholder|example|dummy|your[_-]|x{4,}|redacted")
_A_STAND_IN_ELSEWHERE = lazy(STAND_IN).fullmatch


# a variable named for a credential, in capitals: "SMTP_PASS", "GITHUB_TOKEN", "SESSION_SECRET"
_A_CREDENTIALS_NAME = lazy(r"(?=[A-Z0-9_]*(?:PASS|PWD|TOKEN|SECRET|KEY|AUTH|CRED))[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++")


# a bank's BIC after its name: public, printed on every statement ("The bank's SWIFT code is DEUTDEFF")
_A_BIC = lazy(r"[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?")
_NAMES_A_BIC = lazy(r"(?i)(?<![\w-])(?:swift|bic)(?![\w-])").search


# a passphrase of four words or more joined by "-" and a number, right after "log into … with": "I log
# into my work laptop with correct-horse-battery-staple-9" (the same shape names a profile, a template
# or a branch as often: "The VPN profile I connect with is office-network-vienna-main-1")
_FOUR_WORDS_DASHED = lazy(r"[^\W\d_]{4,}(?:-[^\W\d_]{4,}){3,6}-[0-9]{1,4}")
# a verb of signing in, in English (``_SIGNS_IN_WITH`` adds other languages')
_SIGNING_IN = r"log(?:s|ged|ging)?\s*+(?:in|into|on(?:to)?)|sign(?:s|ed|ing)?\s*+in(?:to)?|unlock(?:s|ed)?"
_LOGS_IN_WITH = lazy(r"(?i)(?<!\w)(?:" + _SIGNING_IN + r")"
                     r"(?!\w)[^\n]{0,40}?\s(?:with|using)\s++$")


def _made_up_value(token: str, line: str) -> str | None:
    """``token`` without its closing stop if it looks made up (the cheap test, on the token alone)."""
    value = token.rstrip(".,;:!?") if not re.search(r"[^\W\d_][!?#$%&*]$", token) else token.rstrip(".,;:")
    if (not value or _NOT_MADE_UP.fullmatch(value) or _ABOUT_ACCESS(value) or value[0].isdigit() and value.isalnum()
            or _A_MEASURE.fullmatch(value) or _A_CIPHERS_NAME.fullmatch(value)
            or _A_STAND_IN.search(value) or _A_CREDENTIALS_NAME.fullmatch(value)
            or _A_BIC.fullmatch(value) and _NAMES_A_BIC(line)):
        return None  # a product's name, the thing opened itself ("ruteren": the router), an id ("37i9dQZF1DX…"),
        # a variable's name ("SMTP_PASS")
    if _CAMEL_WORDS.fullmatch(value):
        return value  # words run together: "HorseCanyonWindowQuartz"
    if value.isalpha():
        return value if _made_up(value) else None
    if _WORD_AND_NUMBER.fullmatch(value) or _password_shaped(value) or _joined_words(value):
        return None if re.fullmatch(r"(?:19|20)[0-9]{2}s?", value) else value
    if _JOINED.fullmatch(value) and not _ABOUT_CODE.search(line):
        return value
    return None


def _told_where_a_value_is(before: str, after: str) -> bool:
    """Whether the words around a value tell it ("… unlocks with V", "V gets you in"), rather than
    name it ("called V", "the password manager is V")."""
    before = before[-60:]
    return (not _NAME_BEFORE.search(before) and not _A_TOOL_IS.search(before) and not _KEPT_ON.search(before)
            and not (_NAMED_AS.search(before) and not _PASSWORD_LINE.search(before[-50:]))  # (not "its password shows up as …")
            and bool(_INTRODUCED.search(before) or _FOLLOWED.search(after[:20])))


# what names a device or a profile by what follows: "El NAS aparece en la red como …", "Kids'
# console profiles: Max is '…'"
_NAMED_AS = lazy(r"(?i)(?:appears?|shows?\s++up|aparece|appara[iî]t|erscheint|verschijnt|compare|figura)[^\n]{0,30}?"
                 r"(?<!\w)(?:as|como|comme|als|come)\s*+$|(?<!\w)(?:profiles|perfiles|profils|profili|profilen|profiler)(?!\w)[^\n.]{0,40}$")


# "na" says "to" after a change ("zmieniłem hasło na …") and "on" after "is": "Heslo na wifi je
# nalepené na routri", "Lozinka za wifi je na hladnjaku" tell where it is kept
_KEPT_ON = lazy(r"(?i)(?<!\w)(?:je|jest|są|sú|su|jsou|je\s++to|leży|lezi|leží|visí|wisi|stoi|stojí|stoji)"
                r"(?:\s++[^\W\d_]+)?\s++na\s*+$")


_VALUE_TOKEN = lazy(r"(?<![\w@./:#+-])(?:[^\W\d_]{3,}(?:\.[^\W\d_]{3,}){2,5}[0-9]{0,4}(?![\w@/:+=-]|\.\w)"
                          r"|(?:[^\W\d_" + NO_SPACE_SCRIPTS + r"]|[0-9!?#$%&*+=~-](?=[^\s]{0,40}?[A-Za-z]))"
                          r"(?:[^\W" + NO_SPACE_SCRIPTS + r"]|[!?#$%&*+=~@-]){3,40}"
                          # a particle of a script written without spaces may follow: "Hangang1993으로"
                          r"(?![^\W" + NO_SPACE_SCRIPTS + r"]|[@/:+=-]|\.\w))")


# a change to code: "rename refreshAccessToken to encrypt_field in the accounts module"
_A_RENAME = lazy(r"(?i)(?<!\w)(?:renam\w*|refactor\w*|umbenenn\w*|umbenann\w*|renomm\w*|renombr\w*|rinomin\w*|hernoem\w*"
                 r"|переименова\w*|перейменува\w*|zmie[nń]\w*\s++nazw\w*)(?!\w)")


# an app password as Google and others give one: four groups of four small letters ("qwhr lmzt vbxk
# pfse"); three groups at least that are no word, since "have been very good" is four groups too
_FOUR_GROUPS_OF_FOUR = lazy(r"(?<![^\W\d_])(?:[a-z]{4}(?: [a-z]{4}){3}|[A-Z]{4}(?: [A-Z]{4}){3})(?![^\W\d_]| [A-Za-z])")


def _app_password(text: str) -> bool:
    for match in _FOUR_GROUPS_OF_FOUR.finditer(text):
        if sum(not words.is_common(group.lower()) for group in match[0].split()) < 3:
            continue
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start:end if end >= 0 else len(text)]
        if _ON_A_PASSWORD_LINE(line) and not _AN_EXAMPLE(line):  # (not "app password example: abcd efgh …")
            return True
    return False


# a passphrase of four to seven words joined by dashes (en and em dashes too), after a verb of signing
# in and "with" or a word for a phrase, in the languages the gate reads: "log into github with
# ocean–breeze–mango–lantern", "Il se connecte au serveur avec cheval-correct-pile-agrafe", "Accede al
# correo con la frase mesa-nube-tigre-verde" (a slug of a tool's words is a name: "sign in with the
# oauth-device-code-flow")
_DASHED_WORDS = lazy(r"(?<![\w-])[^\W\d_]{4,}(?:[-–—][^\W\d_]{4,}){3,6}(?:[-–—][0-9]{1,4})?(?![\w-])")
_SIGNS_IN_WITH = lazy(
    r"(?i)(?<!\w)(?:" + _SIGNING_IN +
    r"|(?:se|me|te|nous|vous)\s++connect\w*|acced\w*|inici\w*\s++sesi[óo]n|anmeld\w*|einlogg\w*|meld\w*\s++mich)"
    r"(?!\w)[^\n.;!?]{0,40}?\s(?:with|using|avec|con|com|mit|usando|utilisant)"
    r"(?:\s++(?:la|le|a|o|el|der|die|the|my|mi|ma|mon|minha|meiner?))?(?:\s++(?:frase|phrase|passphrase|fras[ea]|satz))?\s++$"
    # a passphrase's own name: "passphrase:", "frase de contraseña", "phrase de passe" (not "SEO phrase:")
    r"|(?<!\w)(?:pass-?phrase|passwortsatz|wachtzin|phrase\s++de\s++passe|frase\s++(?:de\s++)?(?:contraseña|paso|acceso)"
    r"|frase\s++secreta|frase-senha)\s*+[:=]?\s++$")
_SINGLE_SIGN_ON = lazy(r"(?i)(?<![a-z])(?:sso|saml|oauth|oidc|single\s*+sign)")
_A_TOOLS_WORD = frozenset(("oauth", "auth", "saml", "sign", "code", "flow", "device", "token", "proxy", "config", "server",
                           "client", "host", "cert", "file", "role", "user", "account", "admin", "azure", "google", "github",
                           "okta", "keycloak", "ldap", "kerberos", "single", "session", "cluster", "profile", "default"))


def _dashed_passphrase(text: str) -> bool:
    if _SINGLE_SIGN_ON.search(text):
        return False
    for match in _DASHED_WORDS.finditer(text):
        if any(part in _A_TOOLS_WORD for part in re.split(r"[-–—]", match[0].lower())):
            continue
        if _SIGNS_IN_WITH.search(text[max(0, match.start() - 80):match.start()]):
            return True
    return False


# a machine's name with its number ("monitor01", "web-02", "db_03"), after a word for "on" or "at"
_A_NUMBERED_HOST = lazy(r"[a-z]{2,}[-_]?0[0-9]")
_ON_A_HOST = lazy(r"(?i)(?<![^\W\d_])(?:on|auf|sur|en|su|op|på|na|at|an|bei|from|von|de|da)\s++$")


# What unlocks with a number, said by the verb, the number right after "with" (and an article or a
# code's word): "el móvil se desbloquea con 170349", "desbloqueia-se com 2468", "la tablette se
# déverrouille avec 6291", "lo sblocchi con 4417", "ontgrendel de iPad met 5836", or right before the
# verb at a sentence's end: "das Handy wird mit 2719 entsperrt", "wordt met 5836 ontgrendeld"; and a
# key box, a lock or a safe in Greek, then "opens with", a code's or a combination's word and the number
# ("Το κλειδοκούτι … ανοίγει με 1-9-8-7"). Not "se desbloquea con la app; … 1200 metros", nor "para
# desbloquear el móvil, llamar al 1004": the number is what it unlocks with, or nothing.
_A_CODES_DIGITS = r"[0-9](?:[ -]?[0-9]){3,7}(?![0-9]|[.,][0-9]|\s*+(?:€|\$|%|eur|euros?|metr\w*|meter|km|min\w*))"
_UNLOCKS_WITH_A_NUMBER = lazy(
    r"(?i)(?<![\w-])(?:desbloque\w*|déverrouill\w*|deverrouill\w*|sblocc\w*|ontgrendel\w*|entsperr\w*)(?:-se)?"
    r"[^\n.;:!?]{0,30}?(?<![\w-])(?:con|col|com|avec|met|mit)\s++(?:(?:el|o|a|le|la|il|lo|de|het|dem|der|den)\s++)?"
    r"(?:(?:c[óo]digo|code|codice|pin|pincode|kode|pin-?code)\s++)?" + _A_CODES_DIGITS +
    r"|(?<![\w-])(?:mit|met)\s++" + _A_CODES_DIGITS +
    r"\s++(?:entsperr\w*|ontgrendel\w*)"
    r"|(?:κλειδοκούτ|κλειδοκουτ|κλειδαρι|κλειδαριά|χρηματοκιβώτι|χρηματοκιβωτι|κλειδοθήκ|κλειδοθηκ)\w*[^\n.;!?]{0,60}?"
    r"(?:ανοίγει\s++με|ανοιγει\s++με|κωδικ\w*|συνδυασμ\w*)\s*+[:：]?\s*+"
    + _A_CODES_DIGITS)


# a discount's or a promotion's code right before a value (not a gift card's or a voucher's, worth money)
_A_DISCOUNT_CODE_BEFORE = lazy(
    r"(?i)(?<![\w-])(?:discount|promo(?:tion(?:al)?)?|coupon|rabatt|réduction|remise|descuento|cupón|cupom|sconto"
    r"|korting|rabat|indirim)[\s-]*+(?:code|kode|kod|c[óo]digo|codice|kodu)?\s*+(?:is|ist|est|es|è|é|är|er|:|=)?\s*+"
    r"[\"'«“„]?$|(?<![\w-])(?:code|c[óo]digo|codice)\s++(?:promo|de\s++(?:réduction|descuento|desconto)|sconto)\s*+"
    r"(?:est|es|é|è|:)?\s*+[\"'«“„]?$")


# OpenShift's kubeadmin password, as its installer makes one: four groups of five letters and digits
# (small and capital letters both, a digit or not), after the user's name ("kubeadmin for the openshift
# test cluster is qTz7P-Lm2Kx-Ra9Wv-Bn4Hc", "kubeadmin / aBcDe-FgHiJ-kLmNo-PqRsT")
_KUBEADMIN = lazy(r"(?i)(?<![\w-])kubeadmin(?![\w-])[^\n]{0,80}?(?<![\w-])(?-i:(?=[A-Za-z0-9-]*[A-Z])"
                  r"(?=[A-Za-z0-9-]*[a-z])[A-Za-z0-9]{5}(?:-[A-Za-z0-9]{5}){3})(?![\w-])")


_A_DISCOUNTS_WORD = lowered_search(
    r"(?i)discount|promo|coupon|rabatt|réduction|remise|descuento|desconto|cupón|cupom|sconto|korting|rabat|indirim")
# a gift card's, a voucher's or a one-time code, worth money or one's own, even called a discount code
# ("Gutschein über 50 €, Rabattcode: gs7k2q9xp4m", "carte cadeau de 200 €, code promo : …")
_WORTH_MONEY = lazy(r"(?i)gift|cadeau|regalo|geschenk|gutschein|voucher|bon\s++d['’]achat|presentkort|cadeaukaart|buono"
                    r"|vale\s++(?:de\s++)?compra|[0-9]\s*+(?:€|\$|£|eur|usd|gbp|dollars?|euros?)(?!\w)|(?:€|\$|£)\s*+[0-9]|worth"
                    r"|wert|einmalig|one[\s-]*+time|single[\s-]*+use|personal|persönlich|nicht\s++teilen|don['’]t\s++share")


# an account's address, then "then" and its password, ending its sentence ("Shopify admin for the honey shop:
# heather@glenhoney.co.uk then HeatherHoney-1978."; not "email jobs@tesco.com then Store4412 manager for the
# interview time", "reply to support@steam.com then FIFA23 refund should show")
_ADDRESS_THEN_A_VALUE = lazy(r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)++\s++(?:and\s++)?then\s++"
                             r"(?P<value>[^\s,;]{6,40}?)[.!]?(?=\s*+$|[,;]\s|\.\s)")


def _address_then_a_password(text: str) -> bool:
    return any(_made_up_value(match["value"], text) is not None and not match["value"].isalpha()
               and not match["value"].isdigit() for match in _ADDRESS_THEN_A_VALUE.finditer(text))


def _access_value(text: str) -> bool:
    for line in text.splitlines():
        if "`" in line or not _ABOUT_ACCESS(line) or _A_RENAME.search(line):
            continue  # (one search in the line's lower case: most lines are about no access)
        cased, an_example = _CASE_WORDS(line), None
        discounts = _A_DISCOUNTS_WORD(line) and not _WORTH_MONEY.search(line)  # (once a line: most lines have none)
        for match in _VALUE_TOKEN.finditer(line):
            token = match[0]
            if token.endswith("@") and token[:-1].isalpha() and token[:-1].islower():
                continue  # an address's first half: "the shop email is hello@ the same domain"
            if token.endswith("?") and token[:-1].lower() in _QUESTION_PARTICLES:
                continue  # a question's own last word: '"anh gửi mật khẩu laptop cho em chưa?"'
            if (not cased and token.isalpha() and (len(token) < 6 or not token.islower() or not words.made_up(token))
                    and not _CAMEL_WORDS.fullmatch(token)):
                continue  # a word, where no letter's case is told: the test below, first (most tokens are words)
            if _the_word_itself(token):
                if an_example is None:  # once a line: "admin" is a word itself, and a line may hold thousands
                    an_example = _AN_EXAMPLE(line)
                if an_example:
                    continue  # "the staging seed uses 'password123' for every fixture account"
            # what is said around a token, as far as a clause reaches (the whole line before each
            # token made a line of 40,000 characters take seconds)
            after, before = line[match.end():match.end() + _BEFORE], line[max(0, match.start() - _BEFORE):match.start()]
            if (token.isalpha() and cased and _CASE_AFTER.match(after) and not _DESCRIBING.fullmatch(token)
                    and token.lower() not in _STATES and not _A_USERS_NAME.search(before)
                    and _told_where_a_value_is(before, after)):
                return True  # "tape Moustache (avec une majuscule au début)": its letters are told
            if token.isalpha() and (len(token) < 6 or not token.islower()) and not _CAMEL_WORDS.fullmatch(token):
                continue  # no made-up word: too short, or with a capital (but words run together)
            if discounts and _A_DISCOUNT_CODE_BEFORE.search(before):
                continue  # a discount's code, there for anyone: "Black Friday discount code is WOOLFRIDAY20"
            if _FOUR_WORDS_DASHED.fullmatch(token.rstrip(".,;:!?")) and _LOGS_IN_WITH.search(before):
                return True  # "I log into my work laptop with correct-horse-battery-staple-9"
            if _A_NUMBERED_HOST.fullmatch(token.rstrip(".,;:")) and _ON_A_HOST.search(before):
                continue  # a machine numbered so, where something runs: "Zabbix 6.4.12 auf monitor01"
            if _made_up_value(token, line) is None:
                continue
            if token.isalpha() and not _CLAUSE_ENDS(line, match.end()) and not _FOLLOWED.search(after[:20]):
                continue  # a made-up word the sentence goes on from is a word: "jest na naklejce pod routerem"
            if _told_where_a_value_is(before, after):
                return True
    return False


# A password in Latin letters told in a sentence of another script, with no word between: "Пароль от
# вайфая nebulanala, никому не говори", "اسم المستخدم root وكلمة المرور crimsonsimba", "密码 lighthouse".
# Those languages say "is" with no word, or none at all; the first Latin word after the word for a
# password, in the same sentence, is its value when it looks made up (``_made_up_value``: not a
# product, a device or a word of any language: "пароль от Wi-Fi", "密码 manager" pass).
_PASSWORD_OF_ANOTHER_SCRIPT = lazy(
    r"(?i)пароль\w*|паролем|парол[аіяю]\w*|كلمة\s*+(?:ال)?مرور|كلمة\s*+(?:ال)?سر|密码|密碼|口令|パスワード|비밀번호|비번"
    r"|암호|סיסמ\w*|รหัสผ่าน|पासवर्ड|лозинк\w*|رمز(?:\s*+(?:عبور|ورود))?\w*|கடவுச்சொல்\w*|" + _WORDS_OF_OTHER_SCRIPTS)
_LATIN_WORD = lazy(r"(?<![\w@./:#+-])[A-Za-z][A-Za-z0-9_!?#$%&*+=~@.-]{3,40}(?![A-Za-z0-9_@/:+=-])")


# a change or a reset right before the word for a password, and the word for "to" that would give the
# new one: "يغير كلمة سر ledgerline" (will change the ledgerline password), not "غيرت كلمة السر إلى …"
_CHANGED_BEFORE = lazy(r"(?:يغير|يغيّر|غير|غيّر|تغيير|بدل|يبدل|đặt\s++lại|đổi|сменить|сменит|поменя\w*|изменит\w*"
                       r"|змінит\w*|更改|修改|重置|変更|リセット|변경|재설정|बदल\w*)\s*+$")
_TO_AFTER = lazy(r"(?:إلى|الى|ل\s|thành|sang|на\s|为|為|に|으로|로\s|को\s)")


# what is said of passwords rather than of one, in those scripts: their field, manager, hash, reset…
_META_OF_ANOTHER_SCRIPT = lazy(
    r"(?i)字段|管理|策略|重置|规则|規則|长度|長度|哈希|加密|存储|存儲|提示|强度|強度|过期|過期|マネージャ|リセット|ポリシー|ハッシュ"
    r"|暗号化|変更|관리|재설정|정책|변경|해시|менеджер|сброс|полити|хэш|хеш|хран|поле|длин|сложн|требова|истек|шифр"
    r"|مدير|إعادة|سياسة|מנהל|איפוס|ผู้จัดการ|รีเซ็ต|मैनेजर|रीसेट"
    # where it is kept: "wifi密码用 keepassxc 保存", "كلمة المرور محفوظة في bitwarden"
    r"|保存|保管|存进|存在|里|裡|に保存|저장|محفوظ|хран|сохран|записан|שמור|सेव"
    r"|bitwarden|vaultwarden|keepass\w*|1password|lastpass|dashlane|nordpass|proton\s*+pass|enpass|keychain")


def _latin_value_in_another_script(text: str) -> bool:
    for line in text.splitlines():
        for match in _PASSWORD_OF_ANOTHER_SCRIPT.finditer(line):
            if _CHANGED_BEFORE.search(line, max(0, match.start() - 20), match.start()) and not _TO_AFTER.search(
                    line, match.end(), match.end() + 40):
                continue  # "رح يغير كلمة سر ledgerline", "đặt lại mật khẩu ledgerline": a service's password is changed
            sentence = re.split(r"[.!?。！？]\s|[。！？]", line[match.end():match.end() + 40])[0]
            if _META_OF_ANOTHER_SCRIPT.search(sentence):
                continue  # "密码字段在数据库里用 argon2 哈希存储"
            for word in itertools.islice(_LATIN_WORD.finditer(sentence), 3):  # "κωδικό του email από FPgq2NrzGhrU"
                if _made_up_value(word[0], sentence) is not None:
                    return True
                if not _ABOUT_ACCESS(word[0].rstrip("-.")):
                    break  # only what it opens may come between ("wifi-то": an ending in the sentence's script)
    return False


# A passphrase of ordinary words after its name: "The passphrase is orange tractor silent meadow.",
# "GPG key passphrase: thunder umbrella pickle marathon", "Lösenfrasen till disken är röd räv äter
# glass". Three to seven words to the end of the sentence, most of them no small word ("in", "the"),
# and not words that say where it is or what it is like ("stored in the vault", "long and random").
_PASSPHRASE_NAMES = (
    r"pass\s*+phrase|(?:vault|master|unlock|recovery|disk|volume|encryption|secret)\s++(?:pass)?phrase|master"
    r"\s++password|phrase\s++secrète|phrase\s++de\s++passe|frase(?:-senha|\s++de\s++paso|\s++secreta)|passphrase"
    r"|wachtzin|fraza\s++(?:do|hasła)|lösenfras\w*|parola\s++cümlesi|кодовая\s++фраза|парольн\w*\s++фраз\w*|パスフレーズ"
    r"|암호\s*+문구|密码短语|口令|phrase\s++we\s++use|passwd|(?:vpn\s++)?creds(?:\s++are)?|credentials"
    # and in the other languages people write in: "prístupová fráza", "jelmondat", "fraza de acces",
    # "عبارة المرور", "cụm mật khẩu", "frasa laluan", "kaulisiri", "משפט הסיסמה", "cyfrinymadrodd"…
    r"|prístupov\w*\s++fráz\w*|fráz\w*\s++(?:hesla|prístupu)|jelszómondat\w*|fraz\w*\s++de\s++acces|pasaesaldi\w*"
    r"|cụm\s++mật\s++khẩu|frasa\s++laluan|slaptafraz\w*|фраз\w*-парол\w*|парольн\w*\s++фраз\w*|kaulisiri"
    r"|fraz\w*\s++e\s++kalimit\w*|lykilfras\w*|gesel\w*\s++fraz\w*|paroles\s++frāz\w*|\w?\w?yfrinymadrodd|sala(?:sana)?lause\w*"
    r"|adgangsfras\w*|passfras\w*|wachtwoordzin\w*|frase\s++d['’]accés|frase\s++de\s++acceso"
    r"|पासफ़्रेज़|पासफ्रेज़?|పాస్‌ఫ్రేజ్|పాస్ఫ్రేజ్|پاس\s*+فریز|عبارة\s*+(?:ال)?مرور|משפט\s++(?:ה)?סיסמה"
    r"|fraz\w*\s++secret\w*|frase\s++segreta|frase\s++de\s++pas|kodesætning\w*|passordfrase\w*|paroolifraas\w*"
    r"|φράση\s++πρόσβασης|кодов\w*\s++фраз\w*|паролн\w*\s++фраз\w*|عبارت\s*+عبور|ביטוי\s++(?:ה)?סיסמה"
    r"|عبارة\s*+السر|frasa\s++sandi|kauli\s*+siri|密碼短語|패스프레이즈|cụm\s++từ\s++mật\s++khẩu|parola\s++ifadesi"
    r"|pasfhrása|přístupov\w*\s++fráz\w*|fraz\w*\s++lozink\w*|pass-phrase|合言葉")
_PASSPHRASE = lazy(
    r"(?i)(?:" + _PASSPHRASE_NAMES + r")"
    r"[^\n.:=—–→\"'«“]{0,60}?(?:\s++(?:(?:is|was|lautet|luidt|est|es|è|é|är|er|je|jest|to|on|ir)(?![^\W\d_])"
    r"|это|は|是|هي|هو|הוא|היא)"
    r"|[:=—–→]|->|\s++(?=[\"'«“])"
    # (Latin words right after a name in a script with no Latin letters: "पासफ़्रेज़ neem peepal barish है")
    r"|(?<=[\u0590-\u06ff\u0900-\u0dff])\s++(?=[a-z]))\s*+"
    # (not a clause that goes on: "eine Passphrase aus mehreren Wörtern – und sie nicht mir schicken")
    r"(?!(?:und|and|et|y|e|en|og|och|oraz|ja|és|ve|и|і)\s)"
    r"[\"'«“「]?(?P<words>[^\W\d_]{2,}(?:[\s,]++[^\W\d_]{2,}){2,6})[\"'»”」]?\s*+(?:[.!?,;،۔]|$|\s*+[—–(-]"
    r"|(?:है|हैं|ہے)(?!\w))")
_SMALL_WORDS = frozenset(
    "the a an in on at of to is it and or my our your his her its with for from by as be are was not no yes this that"
    " stored saved kept written somewhere same long short random secure strong weak safe hidden printed paper there here"
    " shown"
    " words word letters characters chosen managed generated something nothing only knows".split())


# A passphrase's words joined into one value, after its name: "candle.staple.purple.velvet",
# "marble_candle_ember_noodle_copper", "CanyonSaddleHorseVelvet", "battery orbit tundra tractor purple97",
# "oxbow-lantern-quietly-Tbilisi-88", two words and a number ("やまざくら-みずうみ-88")
_JOINED_WORDS = (r"[^\W\d_]{3,}(?:[._-][^\W\d_]{3,}){2,7}(?:[._-]?[0-9]{1,4})?|[^\W\d_]{3,}[._-][^\W\d_]{3,}[._-][0-9]{2,4}|(?-i:(?:[A-Z][a-z]{2,}){3,8})[0-9]{0,4}"
                 r"|[^\W\d_]{3,}(?:\s[^\W\d_]{3,}){2,6}[0-9]{1,4}")
_PASSPHRASE_JOINED = lazy(
    r"(?i)(?:" + _PASSPHRASE_NAMES + r")[^\n.:=—–\"'«“]{0,60}?(?:\s++(?:is|was|lautet|est|es|è|é|är|er|je|jest|to|это|は|是)"
    r"|[:=：—–]|(?<!-)-(?!-)|\s++(?=[\"'«“])|(?<=[^\x00-\x7f]))\s*+[\"'«“「]?(?:" + _JOINED_WORDS + r")(?![\w-]|\.\w)")


_PASSWORD_WORD = (r"(?:pass(?:word|phrase)|passwort|kennwort|mot\s++de\s++passe|(?<![a-z])(?-i:mdp|pw|pwd|psw|PW|PWD)(?![a-z])"
                  r"|contraseña|senha|wachtwoord|has[łl](?:o|a|em|u|om|ach|ami)(?![a-z])|ha[śs]le(?![a-z])|hase[łl](?![a-z])"
                  r"|heslo|lösenord\w*+|passord\w*+|salasana\w*+|şifre\w*+|jelsz\w*+|parola|пароль|парол\w*+|password"
                  r"|kodeord\w*+|adgangskode\w*+|slaptažod\w*+|parool|geslo|lozink\w*+|лозинк\w*+|contrasenya"
                  r"|pasahitz\w*+|pasfhocal|lykilor[ðd]\w*+|nenosiri|kata\s++laluan)")
# a quoted phrase after a password's name: 'my account password was "Lighthouse Marmalade Falcon"', "GPG
# passphrase: 'old locomotive goes to Pilsen 1972'" (a word of one or two letters inside it, quoted with a
# single quote, and a colon right after the name; with small words inside, only with a number after them,
# below: not "password: 'ask staff at the counter'")
_QUOTED_PHRASE = lazy(r"(?i)" + _PASSWORD_WORD + r"(?:\s++(?:for|für|fürs|zum|zur|de|del|du|des|di|per|van|voor|do|dla|för"
                      r"|till|til|para|pour|of|to|on|na|od|vom|pro|za)(?:\s++[^\s\"“«„'.:=!?]{1,30}){1,4}?)?"
                      r"(?:\s++(?:is|was|ist|war|est|était|c['’]est|es|era|är|var|er|je|jest|to|yra|on|és|este)|\s*+:)"
                      r"\s*+[\"“«„']\s?([^\W\d_]{3,}(?:\s++[^\W\d_]+){1,7}?(?:\s?[0-9]{1,4})?)\s?[\"”»“']")
# words and a number after a password's name: "Lösenordet till familjedatorn är lingon ekorre karamell 26"
_WORDS_AND_NUMBER = lazy(r"(?i)" + _PASSWORD_WORD + r"\w*+(?:[^\n.:=!?]{0,40}?(?:\s(?:is|är|er|es|est|ist|je|jest|e|è|to"
                         r"|lautet|on|là|adalah)|\s*+[:=]))?\s++(?P<words>[^\W\d_]{3,}(?:\s++[^\W\d_]{3,}){1,5})"
                         r"\s++[0-9]{1,4}\s*+(?:[,;!)]|\.(?![0-9])|$)")
# a phrase said to hold its spaces: "the laptop password is correct horse lantern 73 (with spaces)"
_SPACES_TOLD = (r"(?:with(?:\s++(?:the|a))?\s++spaces?|avec\s++(?:les\s++|un\s++)?espaces?|mit\s++(?:den\s++)?leerzeichen?"
                r"|con\s++(?:los\s++|un\s++|el\s++)?espacios?|con\s++(?:gli\s++|uno\s++)?spazi[o]?|com\s++(?:os\s++)?espa[çc]os?"
                r"|met\s++(?:de\s++|een\s++)?spaties?|ze\s++spacj[ąa]|ze\s++spacjami|z\s++spacjami|(?:pakai|dengan)\s++spasi"
                r"|s\s++mezer(?:ou|ami)|med\s++mellanrum|med\s++mellemrum|med\s++mellomrom|välilyönn\w*|boşluklu"
                r"|szóközzel|cu\s++spa[țt]ii?|с\s++пробел\w*|з\s++пробіл\w*)")
_PHRASE_WITH_SPACES = lazy(r"(?i)" + _PASSWORD_WORD + r"[^\n.:=!?]{0,60}?(?:\s(?:is|ist|est|es|è|é|är|er|lautet|je|jest|to|was"
                           r"|war|era|était)|\s*+[:=])\s*+[\"'“«„]?(?:[^\s\"”»]+\s++){1,5}[^\s\"”»(,]*[0-9][^\s\"”»(,]*"
                           r"[\"'”»“]?\s*+[(,]?\s*+"
                           + _SPACES_TOLD)
# words, no digit, said to keep their spaces: "Moje hasło do Discorda to po prostu smok wawelski, ze spacją"
_WORDS_WITH_SPACES = lazy(r"(?i)" + _PASSWORD_WORD + r"\w*+[^\n.:=!?]{0,60}?(?:\s(?:is|ist|est|es|è|é|är|er|lautet|je|jest"
                          r"|to|itu|adalah|was|war|era|était)|\s*+[:=])\s*+(?:(?:po\s++prostu|just|simply|einfach|simplement"
                          r"|simplemente|gewoon|gewoon|bara|vain|hanya)\s++)?[\"'“«„]?(?P<words>[^\W\d_]{2,}(?:\s++[^\W\d_]{2,}){1,4})"
                          r"[\"'”»“]?\s*+[(,]?\s*+" + _SPACES_TOLD)
# what says a phrase is not one's own password: a film, a book, a translation, a lesson's title
_NOT_TOLD = lazy(r"(?i)\b(?:film|movie|book|novel|song|game|show|series|word\s++for|translat\w*|means|lesson|chapter"
                 r"|episode|module|course|workshop|room|title[sd]?|called|named|example|e\.g\.)\b")
# a value pointed at, then its name: "PumpkinMeadowLighthouse <- that's the passphrase", "Dr4gon — that's what I set"
_POINTED_AT = lazy(r"(?im)^\s*+(?P<value>[^\s<>—–-]{4,40}(?:\s++[^\s<>—–-]{2,20}){0,4})\s*+(?:<-+|←|—|–|-)\s*+"
                   r"(?:that['’]s|this\s++is|it['’]s)\s++(?:the\s++|my\s++|our\s++)?(?:[\w-]+\s++)?"
                   r"(?P<name>password|passphrase|passcode|pin|code|what\s++I\s++(?:set|use|chose|picked|typed))(?![\w-])")


# Each search below starts at a passphrase's or a password's name: a text that names neither is not
# scanned with them (a search of the lower case is a third of their cost).
_NAMES_A_PASSPHRASE = lowered_search("(?i)" + _PASSPHRASE_NAMES)
# the same in any case, for the first search: "MDP" and "PSW" (a Markov decision process, a
# processor's status word) are told apart from "mdp" and "psw" after it
_PASSWORD_WORD_ANY_CASE = _PASSWORD_WORD.replace("(?-i:mdp|pw|pwd|psw|PW|PWD)", "(?:mdp|pw|pwd|psw)")
_PASSWORD_WORD_LOWERED = lazy(folded_pattern(_PASSWORD_WORD_ANY_CASE))
_CASED = {"mdp": ("mdp",), "pw": ("pw", "PW"), "pwd": ("pwd", "PWD"), "psw": ("psw",)}


def _password_word_starts(text: str) -> list[int]:
    """Where the words for a password (``_PASSWORD_WORD``) start in ``text``: found in its lower
    case (a third of the time of ``(?i)``, at the same positions), the short ones kept only as
    ``_PASSWORD_WORD`` takes them ("mdp", not "MDP")."""
    return [match.start() for match in _PASSWORD_WORD_LOWERED.finditer(lowered(text))
            if match[0] not in _CASED or text[match.start():match.end()] in _CASED[match[0]]]


# the word for "than": what a passphrase is compared with ("Paroles frāze ir garāka par paroli")
_THAN = frozenset("than als dan que che kuin än enn end par nei niż než mint mult decât".split())
# the small words of Hindi, Urdu and Telugu written in Latin letters
_ROMANIZED_SMALL = frozenset("ke ki ka ko ne se mein hai hain tha thi kya aur nahi gurinchi chesanu adigaru hota".split())


def _a_content_word(word: str) -> bool:
    return word not in _SMALL_WORDS and word not in _STATES and not _DESCRIBING.fullmatch(word)


def _from_each(pattern: re.Pattern[str], text: str, starts: list[int]) -> Iterator[re.Match[str]]:
    """``pattern``'s matches that start where a word for a password does: the three searches that
    start with one are tried there alone, after one search for those words."""
    for start in starts:
        if (match := pattern.match(text, start)) is not None:
            yield match


# the word for a passphrase after "the" or "my", then four to six plain words in small letters that end
# the sentence, none everyday but the last: "Fürs Heim-NAS nehme ich die Passphrase pferd batterie
# heftklammer richtig" (not "the passphrase should be long and easy to remember", "la phrase de passe
# protège votre clé privée", "SSH key passphrase entropy estimates vary widely")
_PASSPHRASE_THEN_WORDS = lazy(
    r"(?i)(?<![^\W\d_])(?:die|the|my|mi|ma|mon|meine?|la|le|el|een|de|min|mitt|mijn)\s++"
    r"(?:pass-?phrase|passphrasen?|wachtzin|lösenfras\w*|phrase\s++de\s++passe|frase\s++(?:de\s++)?contraseña)"
    r"\s++(?P<words>(?-i:[^\W\d_A-Z]{3,}(?:\s++[^\W\d_A-Z]{3,}){3,5}))\s*+(?:[.!]?\s*+$|[.;!]\s)")


def _passphrase_then_words(text: str) -> bool:
    for match in _PASSPHRASE_THEN_WORDS.finditer(text):
        said = match["words"].split()
        if _NOT_TOLD.search(text) or any(word in _SMALL_WORDS or _DESCRIBING.fullmatch(word)
                                         or _META.search(word) for word in said):
            continue
        if not any(map(words.everyday, said[:-1])):  # (the last may be everyday: "richtig", correct)
            return True
    return False


# a password or a PIN that is a day of one's life, told so: "La contraseña de mi celular es la fecha de
# mi boda, 150672", "giriş parolası annemin doğum günü: 12031968" (a date of six or eight digits)
_A_DAYS_WORD = lazy(r"(?i)(?<![^\W\d_])(?:birthday|birth\s*+date|date\s++of\s++birth|wedding|anniversary|born|geburtstag"
                    r"|geburtsdatum|hochzeit\w*|jahrestag|anniversaire|mariage|date\s++de\s++naissance|cumpleaños|fecha|boda"
                    r"|aniversario|compleanno|matrimonio|anniversario|aniversário|casamento|nascimento|doğum\s++günü|doğum"
                    r"|düğün\w*|evlilik|urodzin\w*|ślubu|verjaardag|bruiloft|trouwdag|födelsedag|bröllop\w*|fødselsdag)"
                    r"(?![^\W\d_])")
# (the date ends its sentence, and it is no day the password changes or expires on: "Changed the router
# password on our wedding anniversary 20230612, as we do", "Passwort läuft am Geburtstag ab, Termin 20240612")
_ENDS_ITS_SENTENCE = lazy(r"[^\S\n]*+(?:[.!)]|$)", re.MULTILINE)
_A_DAY_FOR_A_CHANGE = lazy(r"(?i)(?<![^\W\d_])(?:chang\w*|rotat\w*|reset\w*|remind\w*|expir\w*|renew\w*|läuft|ab|termin"
                           r"|appointment|vence|caduc\w*|cambi\w*|set\s++for|due|scad\w*|yenile\w*|tarihi|ändern|geändert)"
                           r"(?![^\W\d_])")
_SIX_OR_EIGHT_DIGITS = lazy(r"(?<![0-9./-])(?:[0-9]{6}|[0-9]{8})(?![0-9./-])")


def _a_date(number: str) -> bool:
    """Whether six or eight digits are a day: DDMMYY(YY), MMDDYY(YY) or YYYYMMDD."""
    first, second = int(number[0:2]), int(number[2:4])
    if 1 <= first <= 31 and 1 <= second <= 12 or 1 <= first <= 12 and 1 <= second <= 31:
        return True
    return len(number) == 8 and number[:2] in ("19", "20") and 1 <= int(number[4:6]) <= 12 and 1 <= int(number[6:8]) <= 31


def _a_days_password(text: str) -> bool:
    for line in text.splitlines():
        if not _A_DAYS_WORD.search(line) or not (_ON_A_PASSWORD_LINE(line) or _ON_A_PIN_LINE(line)):
            continue
        for match in _SIX_OR_EIGHT_DIGITS.finditer(line):
            clause = re.split(r"[.;!?](?:\s|$)", line[:match.start()])[-1]  # the password, the day, then the date
            day = _A_DAYS_WORD.search(clause, max(0, len(clause) - 40))
            if (_a_date(match[0]) and day and _ENDS_ITS_SENTENCE.match(line, match.end())
                    and not _A_DAY_FOR_A_CHANGE.search(clause)
                    and (_ON_A_PASSWORD_LINE(clause[:day.start()]) or _ON_A_PIN_LINE(clause[:day.start()]))):
                return True
    return False


# a gift card's or a voucher's PIN or code: digits in three groups of four or more, right after the word
# ("문화상품권 핀번호 4185-2290-6631-0744", "Steam gift card code 4185 2290 6631")
_A_VOUCHERS_PIN = lazy(
    r"(?i)(?<![^\W\d_])(?:(?:pin|nip)(?:[\s-]*+(?:code|number|no\.?|nummer|numéro|número))?|핀\s*+번호|핀|pin\s*+번호"
    r"|(?:gift\s*+card|voucher|gutschein|carte\s++cadeau|tarjeta\s++regalo|buono\s++regalo|vale\s++regalo|상품권|기프트\s*+카드)"
    r"(?:\s*+(?:code|pin|코드))?)"
    r"[^\S\n]*+[:=]?[^\S\n]*+(?P<groups>[0-9]{4}(?:([ -])[0-9]{4})(?:\2[0-9]{4}){1,3})(?![0-9])"
    r"(?![^\S\n]*+(?:yen|euros?|dollars?|usd|eur|won|원|円|€|\$))")


def _a_vouchers_pin(text: str) -> bool:
    for match in _A_VOUCHERS_PIN.finditer(text):
        groups = re.split("[ -]", match["groups"])
        if len(groups) < 4 and match[2] != "-" or all(re.fullmatch("(?:19|20)[0-9]{2}|[0-9]{2}00", group) for group in groups):
            continue  # three groups, dashed only ("4185-2290-6631"); not years or round sums ("Pin 2019 2020 2021")
        if len(set("".join(groups))) > 2:
            return True
    return False


# a number told with the words that say to share it with no one, right before it and a colon, or right
# after it: "… que no se lo diera a nadie: 774921", "48213, don't tell anyone"
_NO_ONE = (r"(?:a\s++nadie|to\s++anyone|with\s++anyone|to\s++anybody|with\s++anybody|to\s++no\s*+one|niemandem|à\s++personne"
           r"|a\s++nessuno|a\s++ningu[ée]m|kimseye|nikomu|никому|아무에게도|誰にも|不要告诉任何人)")
_TOLD_TO_NO_ONE = lazy(
    r"(?i)" + _NO_ONE + r"[^\S\n]*+[:：][^\S\n]*+(?P<before>[0-9]{4,8})(?![0-9.,:/-])(?=[^\S\n]*+(?:[.!,;)]|$))"
    r"|(?<![0-9.,:/-])(?P<after>[0-9]{4,8})[^\S\n]*+[,;(—–-][^\S\n]*+(?:don['’]t|do\s++not|never|no\s++(?:se\s++)?(?:lo|la)|nie|ne\s++le|non\s++(?:lo|la))"
    r"\s++(?:\w+\s++){0,2}?(?:tell|give|share|show|digas|des|diga|compartas|sagen|verraten|dis|dire|dirlo|dare|condividere|mówić)"
    r"(?:\s++(?:it|this|them))?\s++(?:" + _NO_ONE + r"|anyone|anybody)(?=[^\S\n]*+(?:[.!;,]|$))", re.MULTILINE)
# (a code, not a year or a sum: "She's pregnant, due in 2025, don't tell anyone", "Salary offer was 85000, …")
_A_CODES_WORD_IN_ITS_CLAUSE = lazy(r"(?i)(?<![^\W\d_])(?:code|codes|pin|nip|passcode|password|passwort|combo|combination|código"
                                   r"|clave|contraseña|codice|kod|kodu|mã|senha|otp)(?![^\W\d_])")


def _told_to_no_one(text: str) -> bool:
    for match in _TOLD_TO_NO_ONE.finditer(text):
        number = match["before"] or match["after"]
        if re.fullmatch(r"(?:19|20)[0-9]{2}", number):
            continue
        if match["after"] is not None and not _A_CODES_WORD_IN_ITS_CLAUSE.search(
                re.split(r"[.;!?]\s", text[max(0, match.start() - 80):match.start()])[-1]):
            continue
        return True
    return False


# A quoted phrase of words and a number ending its line after a colon, on a line that names a password or a
# password manager before it, whatever stands between (an aside, the manager's name, words of a language the
# gate has no list of): "Hasło główne do Bitwardena (Ania prosiła …): „pierogi z wiśniami pod Wawelem 7”",
# "Interuro nyamukuru ya password manager: "ikawa ya Huye mu gitondo 31"". Not a hint's, a rule's or an
# example's ("password hint: "our first flat on Elm Street 12""), nor small words alone.
_QUOTED_WORDS_AND_A_NUMBER = lazy(r"(?m)[:：][^\S\n]*+[\"“„«'][^\S\n]?(?P<words>[^\W\d_]{2,}(?:[^\S\n]++[^\W\d_]++){2,7})"
                                  r"[^\S\n]++[0-9]{1,4}[^\S\n]?[\"”»“'][^\S\n]*+[.!]?[^\S\n]*+$")
_A_PASSWORDS_OR_MANAGERS_NAME = lazy(r"(?i)" + _PASSWORD_WORD + r"|(?<![^\W\d_])(?:" + password_words.ALL
                                     + r"|password\s*+manager|bitwarden|1password|keepass\w*|lastpass|dashlane|enpass)(?![^\W\d_])")
_A_HINT_OR_A_RULE = lazy(r"(?i)(?<![^\W\d_])(?:hint|hints|clue|reminder|example|e\.g|like|such\s++as|rule|rules|policy|format"
                         r"|pattern|prompt|question|tip|tips|sample|never|don['’]t|not|avoid"
                         # what a program or a page shows, a name, a translation ('… shows: "Too many attempts wait 30"',
                         # 'winning team name: "Three Old Crows 4"', 'Glossaire EN-FR, master password: "mot de passe …"')
                         r"|shows?|says|said|returns?|message|messages|log|logs|crash\w*|title|name|team|round|quiz"
                         r"|gloss\w*|translat\w*|tradu\w*|übersetz\w*)(?![^\W\d_])")


# Or, right after a passphrase's name and a colon, a quoted phrase of three to seven words, with no number and
# small words among them: 'The SSH key … has a passphrase: "wattle and the wombat"' (not an instruction, 'the
# passphrase: "use four random words"', nor what it is like, "long and random")
_QUOTED_AFTER_A_PASSPHRASES_NAME = lazy(r"(?i)(?:" + _PASSPHRASE_NAMES + r")[^\S\n]*+[:：][^\S\n]*+[\"“„«'][^\S\n]?"
                                        r"(?P<words>[^\W\d_]{2,}(?:[^\S\n]++[^\W\d_]++){2,6})[^\S\n]?[\"”»“']"
                                        r"(?=[^\S\n]*+(?:[.!,;)]|$))")  # (ending its clause: not "… 'Bad decrypt error …' in the log")
_AN_ERRORS_WORD = lazy(r"(?i)(?<![^\W\d_])(?:error|errors|failed|failure|fail|warning|invalid|denied|wrong|incorrect"
                       r"|exception|timeout|expired|bad|decrypt|mismatch|attempts?|retry|wait|fault|segmentation|module"
                       r"|request|link)(?![^\W\d_])")
_TOLD_TO_DO = frozenset("use pick choose make type enter add keep change remember write try see ask check set any your".split())


def _quoted_words_and_a_number(text: str) -> bool:
    for match in _QUOTED_WORDS_AND_A_NUMBER.finditer(text):
        before = text[text.rfind("\n", 0, match.start()) + 1:match.start()]
        words = match["words"].lower().split()
        if (_A_PASSWORDS_OR_MANAGERS_NAME.search(before) and not _A_HINT_OR_A_RULE.search(before)
                and not _NOT_TOLD.search(before) and not _AN_ERRORS_WORD.search(match["words"])
                and sum(word[0].isupper() for word in match["words"].split()) <= 1  # (not a title: "Three Old Crows 4")
                and sum(_a_content_word(word) for word in words) >= 2):
            return True
    return False


def _quoted_after_a_passphrases_name(text: str) -> bool:
    for match in _QUOTED_AFTER_A_PASSPHRASES_NAME.finditer(text):
        line = text[text.rfind("\n", 0, match.start()) + 1:match.end()]
        words = match["words"].lower().split()
        if (words[0] not in _TOLD_TO_DO and words[0] not in _SMALL_WORDS
                and sum(_a_content_word(word) for word in words) >= 2 and not _AN_ERRORS_WORD.search(line)
                and not _A_PASSWORDS_OR_MANAGERS_NAME.search(match["words"])  # (a word's translation: "mot de passe …")
                and not _A_HINT_OR_A_RULE.search(line) and not _NOT_TOLD.search(line)):
            return True
    return False


def _passphrase(text: str) -> bool:
    names_a_passphrase, starts = _NAMES_A_PASSPHRASE(text), _password_word_starts(text)
    if names_a_passphrase and _quoted_after_a_passphrases_name(text):
        return True
    # not a word inside a name in code: "hashPassword", "resetPasswort" (a compound's "routerpasswort" is a word)
    starts = [start for start in starts if not (start and text[start].isupper() and text[start - 1].islower())]
    if any(_from_each(_PHRASE_WITH_SPACES, text, starts)):
        return True
    for match in _from_each(_WORDS_WITH_SPACES, text, starts):
        said = match["words"].lower().split()
        if not _NOT_TOLD.search(text) and not any(
                word in _SMALL_WORDS or word in _STATES or _DESCRIBING.fullmatch(word) or _STATE_ENDING.search(word)
                for word in said):
            return True  # "… to po prostu smok wawelski, ze spacją"; not "is trimmed before hashing, with spaces"
    if names_a_passphrase and _PASSPHRASE_JOINED.search(text):
        return True
    for match in _from_each(_QUOTED_PHRASE, text, starts):
        said = match[1].lower().split()
        if len(said) >= 4 and said[-1].isdigit():  # "correct horse lamp 41": words a description has too, and a number
            if (said[0] not in _SMALL_WORDS or sum(_a_content_word(word) for word in said[1:-1]) >= 3) \
                    and not _NOT_TOLD.search(text):
                return True  # and "the purple walrus dances 42"; not "the one from 2019"
            continue
        if (len(said) >= 3 or any(char.isdigit() for char in match[1])) and not _NOT_TOLD.search(text) and not any(
                word in _SMALL_WORDS or word in _STATES or _DESCRIBING.fullmatch(word) or len(word) < 3 and word.isalpha() for word in said):
            return True  # not 'the password was "the same one"', not 'in the film the password was "Open Sesame"'
    for match in _from_each(_WORDS_AND_NUMBER, text, starts):
        said = match["words"].lower().split()
        if sum(word[0].isupper() for word in match["words"].split()) > 1 or _NOT_TOLD.search(text):
            continue  # "Password Security Basics Lesson 3": a title; not "Maple tornado 212"
        if len(said) == 2 and any(_META.search(word) or word in _TOLD_ELSEWHERE for word in said):
            continue  # "Password: minimum length 12", "pw: see note 3"
        if not any(word in _SMALL_WORDS or word in _STATES or word in _TOLD_ELSEWHERE or _DESCRIBING.fullmatch(word)
                   or _STATE_ENDING.search(word) for word in said):
            return True
    for match in _POINTED_AT.finditer(text):
        value, name = match["value"], match["name"].lower()
        if _not_a_value(value) or _NOT_TOLD.search(text):
            continue
        if " " not in value and (_password_shaped(value) or _leet(value)
                                 or name in ("password", "passphrase") and _joined_words(value)):
            return True  # "Dr4gon — that's what I set for the work laptop", "PumpkinMeadowLighthouse <- that's the passphrase"
        if name in ("password", "passphrase") and " " in value and any(char.isdigit() for char in value) and not any(
                word.lower() in _SMALL_WORDS for word in value.split()):
            return True  # "Falcon Blueberry Thunder 50 <- that's the passphrase"
    for match in _PASSPHRASE.finditer(text) if names_a_passphrase else ():
        said = [word.lower() for word in re.findall(r"[^\W\d_]+", match["words"])]
        if (said[0] in _SMALL_WORDS or _DESCRIBING.fullmatch(said[0])) and any(
                word in _SMALL_WORDS or _DESCRIBING.fullmatch(word) for word in said[1:]):
            continue  # "stored in the vault", "long and random"; not "correct staple orbit plunge"
        if (said[0] in _STATES or _STATE_ENDING.search(said[0])) and any(
                word in _SMALL_WORDS or words.everyday(word) for word in said[1:]):
            continue  # where it is: "salvata nel vault", "saved in the vault"
        if any(word in _ROMANIZED_SMALL or word in _THAN for word in said):
            continue  # Hindi, Urdu or Telugu in Latin letters: "पासफ़्रेज़ ke baare mein user ne pucha tha"; a comparison
        if said[0] in ("about", "über", "sur", "sobre"):
            continue  # what a talk or a text was about: "The recovery phrase talk … was about hardware wallets"
        if match[0].rstrip()[-1] in ",;،" and any(word in _STATES or _STATE_ENDING.search(word) for word in said):
            continue  # a clause that goes on: "was changed today, the old one no longer works;"
        if sum(word in _SMALL_WORDS or words.everyday(word) for word in said) <= len(said) // 3:
            return True
    return False


# A Wi-Fi password of ordinary words, after the network's password is named: "Wifi şifresi: orange
# dragon pepper.", "koden til vores wifi er monkey pepper velvet falcon". Three words or more (four
# in a sentence all in ASCII, where English talk about a network's password is common) to the
# sentence's end, none a small word, a word that says how or where a password is.
# (a word's ending is bounded: "wi-?fi\w*" ran across a whole run of Chinese from each "wifi" in it)
_WIFI_PASSWORD_WORDS = (r"password|passwort|pw|key|şifre\w{0,12}|koden?|пароль|รหัส\w{0,12}|kata\s++sandi|sandi|hasło|heslo"
                        r"|salasana\w{0,12}|lösenord\w{0,12}|passord\w{0,12}|contraseña|clave|senha|mot\s++de\s++passe"
                        r"|wachtwoord|jelsz\w{0,12}|parola")
_WIFI_NAMES = r"wi-?fi\w{0,12}|wlan|вайфа\w{0,12}|вай-фай\w{0,12}|ไวไฟ|와이파이"
_WIFI_PHRASE = lazy(
    r"(?i)(?:(?:" + _WIFI_NAMES + r")[^\n:.!?]{0,30}?(?:" + _WIFI_PASSWORD_WORDS + r")|(?:" + _WIFI_PASSWORD_WORDS
    + r")[^\n:.!?]{0,30}?(?:" + _WIFI_NAMES + r"))[^\n:.!?]{0,30}?"
    r"(?:\s(?:is|er|är|est|ist|je|jest|è|é|on|to|это|là|adalah|lautet)|\s*+[:：=—–])\s*+"
    r"(?P<words>(?-i:[a-z]{3,}(?:[\s,]++[a-z]{3,}){2,5}[0-9]{0,4}))\s*+(?:[.!]|$)")


# words that send one to where a password is, or say what to do: "Wifi password: ask reception desk staff"
_TOLD_ELSEWHERE = frozenset(
    "ask see check call look find use try get text email message contact read scan under behind inside near back"
    " front desk reception host staff sticker label card router box note fridge wall door bottom top side buy"
    " please first later always changes monthly weekly daily pregunta luego arriba steht hinten drauf frag fragen"
    " demande demander chiedi chiedere pergunte vraag kysy spørg fråga zapytaj sor".split())


# a wifi network's password of several words, said to keep its spaces: 'The guest wifi at the café is
# "two flat whites please", lowercase with spaces', "Para el wifi escribe paella valenciana con el espacio"
_WIFI_WITH_SPACES = lazy(
    r"(?i)(?:" + _WIFI_NAMES + r")(?:(?!name|ssid|called|named|hei(?:ß|ss)t|se\s++llama|s['’]appelle|si\s++chiama)[^\n:.!?]){0,40}?"
    r"(?:(?:\s(?:is|er|är|est|ist|je|jest|è|é|es|on|lautet)|\s*+[:：=—–])\s*+[\"'“«„][^\W\d_]{2,}(?:\s++[^\W\d_]{2,}){1,5}[\"'”»“]"
    r"|\s(?:escribe|escriba|type|enter|tape|tapez|gib|digita|digite|scrivi)\s++[^\W\d_]{2,}(?:\s++[^\W\d_]{2,}){1,5})"
    r"\s*+[(,]?\s*+(?:(?:all\s++)?(?:lower\s*+case|in\s++lowercase|small|klein\w*|min[uú]scul\w*|minuscules?),?\s++)?"
    + _SPACES_TOLD + r"\s*+\)?\s*+(?:[.;!]|$)")


def _wifi_phrase(text: str) -> bool:
    if _WIFI_WITH_SPACES.search(text):
        return True
    for match in _WIFI_PHRASE.finditer(text):
        said = re.findall(r"[a-z]+", match["words"])
        if len(said) < (4 if text.isascii() else 3):
            continue
        if not _STATE_ENDING.search(said[0]) and not any(
                word in _SMALL_WORDS or word in _STATES or word in _TOLD_ELSEWHERE or _DESCRIBING.fullmatch(word)
                for word in said):  # "taped inside kitchen cabinet door" says where it is
            return True
    return False


# a table with a password column: every cell of that column in a row below is one
_TABLE_HEADER = lazy(r"(?m)^[^\S\n]*+\|(?P<cells>.*\|)[^\S\n]*+$")


def _password_column(text: str) -> bool:
    rows = [[cell.strip() for cell in match["cells"].split("|")[:-1]] for match in _TABLE_HEADER.finditer(text)]
    for number, header in enumerate(rows):
        columns = [index for index, cell in enumerate(header) if _PASSWORD_LINE.fullmatch(cell.lower())
                   or re.fullmatch(r"(?i)pass(?:word|wd|code)?|pin|secret|token|api[ _-]?key", cell)]
        for row in rows[number + 1:]:
            for index in columns:
                cell = row[index] if index < len(row) else ""
                if len(cell) >= 4 and not re.fullmatch(r"[-:\s]+|\*+|(?i:n/?a|none|—|–|-|\?|redacted|hidden|see .*|in .*)", cell):
                    return True
    return False


# What must follow a lock's word that is also an ordinary word's part or a room's, a price's or an order's name, within
# its clause: a code told a digit at a time (four to six digits, not a run such as "1 2 3 4") or a dial's three
# numbers (not a date's, "12-03-25")
_A_RUN = "(?:" + "|".join(rf"{digit}[-\s]{digit + 1}[-\s]{digit + 2}" for digit in range(8)) + ")"  # "0 1 2" … "7 8 9"
_A_CODE_TOLD_AHEAD = (r"(?=[^\n0-9]{0,30}(?<![0-9])(?!" + _A_RUN + r")(?:[0-9](?:[-\s][0-9]){3,5}(?![-\s]?[0-9])"
                      r"|(?!(?:0?[1-9]|[12][0-9]|3[01])-(?:0?[1-9]|1[0-2])-)[0-9]{2}(?:\s?[-–—]\s?[0-9]{2}){2}(?![-–—\s]?[0-9])"
                      # (not a price in thousands or lakhs: "તિજોરીના ભાવ: 12-15-20 હજાર")
                      r"(?!\s*+(?:હજાર|हजार|हज़ार|लाख|hazar|lakh|thousand|тыс\w*|хиљ\w*|k(?![a-z])))))")

# A PIN or a lock's code: a number of 3 to 8 digits on a line with a word for one ("Garage keypad:
# *9853", "Dørkode 2133", "the code to get in is 966391", "银行卡PIN是880084", "رمز الباب: 3507")
_PIN_LINE = lazy(
    r"(?i)(?<![a-z])(?:pin|passcode|parental\s*+(?:control|code|lock)|parental\s*+controls\s*+(?:code|pin|passcode|[—–-]\s*+it['’]s)|keypad|key\s*+box|key\s++safe|keysafe(?=\s*+code)|lockbox|lock|locks|unlocks?|padlock|locker|combo|combination"
    r"|safe|alarm(?:anlage|panel\w*|code|kode|kod|zentrale|centrale)?|disarm|duress|digicode|mailbox|door|garage|shed|entrance|opens\s++with|punch\s++in|zahlenschloss|zahlencode"
    r"|code\s++de\s++la\s++porte|porte\s++d['’]entrée|portail|tür|haustür|deur|portone"
    # a door in Portuguese and Italian by what it opens (not "porta 8080", a port), a room for luggage or
    # storage, each with its code's word after it and the number right after that ("porta da frente,
    # código 6081", "sala das malas, código 6081"; not "A porta da frente custou 1250 reais", "storage
    # room 2 is full", "código de cor RAL 7016", "Code der Reservierung 58231")
    r"|(?:porta\s++(?:da\s++(?:frente|rua|entrada|casa|garagem|cozinha)|principal|de\s++entrada|d['’]ingresso|di\s++casa"
    r"|del\s++palazzo|blindata|d[oa]\s++pr[ée]dio)|sala\s++das\s++malas|guarda-?volumes|(?:luggage|storage|bag(?:gage)?)\s++room"
    r"|store\s*+room|gepäckraum|abstellraum)[^\n0-9]{0,12}?(?:code|c[óo]digo|codice|pin|senha)(?=\s*+[:：]?\s*+[0-9])"
    r"|(?:haus)?t[üu]r(?:code|kode)|torcode|garagen(?:tor)?(?:code)?|tresorcode|alarmcode|zugangscode"
    r"|schlüssel(?:kasten|box|safe|tresor)|portkod\w*|dörrkod\w*|larmkod\w*|συναγερμ\w*"
    r"|entry\s++code|door\s*+code|gate\s++code|access\s++code|master\s++(?:key\s++)?code"
    r"|unlock\s++code|code\s++to\s++get\s++in|ovikoodi|koodi|d[øo]rkode|kode|kod(?:em|u|y)?|код\w*|pin-?kód\w*|pincode"
    r"|tresor|schloss|cadenas|candado|cadeado|caja\s++fuerte|cassaforte|allarme|alarme|alarma|casier|kluis"
    r"|fietsslot|cijferslot|hangslot|codeslot|deurslot|het\s++slot"
    r"|cykellås\w*|låses|sejf\w*|szyfr|сейф\w*|замок|разблокировки|kilidi|sblocco|déverrouillage"
    r"|(?:al|el|del)\s++portal|port[ãa]o|portón|cancello|brána|kapuk[óo]d\w*|k[óo]dja|k[óo]d(?:u|em|y|a|om|ot)?|koden|kodu"
    r"|c[óo]digo\s++(?:de\s++(?:la|el)\s++|del\s++)(?:puerta|port[óo]n|garaje|alarma|caja\s++fuerte|candado|taquilla|casillero"
    r"|trastero|buz[óo]n)"  # a door's, a gate's, an alarm's, a safe's code in Spanish ("El código de la puerta es …")
    # a smart lock by its maker's name ("Nuki at flat 4 - guest code … set to 402915"); a locker in Portugal's
    # Portuguese ("cacifo 34 no ginásio, código 0909"), a padlock in Japanese, a card's "secret number" in Yoruba
    r"|(?:nuki|igloohome|ultraloq|lockly)(?=[^\n]{0,40}?(?<![a-z])(?:code|pin|passcode|kode|código))|cacifos?|"
    # a padlock in Bulgarian and a key box in Romanian ("Шифърът на катинара … е 3819", "Cutia cu chei …: 2704")
    r"катинар\w*|katinar\w*|cutia\s++cu\s++chei(?!\s++imbus)|南京錠|n[ọo]\u0301?mb[àa]\s++[àa]\u0323?[ṣs][íi]r[íi]"
    r"|kodun|codul|codi\s++(?:de\s++la\s++porta|del\s++(?:garatge|pàrquing|portal)|de\s++l['’]alarma|d['’]accés)|interfon\w*|codice\s++(?:del\s++)?citofono|interphone|cofre|coffre-fort|coffre\s++(?:de\s++la\s++chambre|de\s++l['’]h[ôo]tel|du\s++bureau)|kasa|nøgleboks\w*|nøkkelboks\w*|garasjeport\w*|sleutelkluis|sleutelkast\w*|gembok"
    r")(?![a-z])"
    # a door in a German compound, then its code: "Die Hintertür … geht mit dem Code 9318 auf", "Hintertürcode"
    # (not the fridge's door and its model, "Kühlschranktür …, Modell KG 3645", nor Turkish "Kültür"); found from
    # "tür" with a word's letter before it, not from the word's start ("\w+tür", tried from each letter of a word
    # of 48,000 characters, took a minute)
    r"|(?<=\w)tür(?:e?(?=[^\n.]{0,40}?code)|code)(?![a-z])"
    r"|koodi|(?<=\w)kluis|(?<=\w)koden|पिन|कोड|κωδικ\w*\s++(?:στο|του)\s++πληκτρολ\w*|(?:(?<![\u0980-\u09ff])|(?<=আন)|(?<=প্যাড)|(?<=স্ক্রিন)|(?<=ডোর)|(?<=স্মার্ট))লক(?:ের)?\s*+কোড|(?:তালা|গেট|দরজা|সিন্দুক|লকার|অ্যালার্ম)(?:ের|র)?\s*+কোড|लॉकर|קוד|הקוד|รหัส|mã\s++(?:cửa|pin|khóa|số|mở|quản\s++lý)|mật\s++mã|الرقم\s*+السري|قفل|الرمز"
    r"|schloss(?!\w)|[şs]ifre|ロック番号|暗証番号|番号|パスコード|オートロック|暗码|密码|(?<=[門门鎖锁卡箱櫃柜庫库])[密暗]碼|解锁码|解鎖碼|رمز|비밀번호|금고|도어락|잠금"
    # a code lock in Norwegian and Danish, "code" in Estonian, an unlock code in Spanish, "PIN" in Bengali and Urdu
    r"|kodel[åa]s\w*|(?<![a-z])kood\w*|desbloqueo|পিন|(?<![\u0600-\u06ff])پن(?![\u0600-\u06ff])"
    # a door's, an entrance's, a gate's, a safe's, a locker's, a padlock's, an alarm's or an intercom's code in
    # Georgian (not a postal, a product's, an error's or an order's "კოდი"); a passcode in Korean (not cryptography:
    # "암호화", "암호 화폐", "암호학", "암호 모듈") and in German (Zoom's "Kenncode")
    r"|(?:კარის|სადარბაზოს|ჭიშკრის|სეიფის|ლოკერის|ბოქლომის|სიგნალიზაციის|დომოფონის)\s*+კოდ\w*|ლოკერ\w*[^\n.]{0,20}?კოდ\w*"
    r"|(?<![가-힣])암호(?:는|가|를|:)?(?![가-힣])(?!\s*+(?:화폐|학|모듈|화|알고리즘|키))|kenncode\w*"
    # "code" in Basque and Lithuanian, in Croatian and Serbian, in Telugu; a door's code in Chinese, a keypad in Japanese
    r"|(?<![a-z])(?:ate\w*|atari\w*|sarrera\w*|giltz\w*)\s++kode\w*|(?<![a-z])kodearekin|(?<![a-z])(?:vart\w*|dur\w*|spyn\w*)\s++kod\w*"
    r"|(?<![a-z])[šш]ifr\w*\s++(?:(?:na|od|za|do)\s++)?(?:\w+\s++)?(?:vrat|ulaz|kapij|ormarić|lokot|sef|alarm|garaž|bicikl|brav"
    r"|врат|улаз|капиј|ормарић|локот|сеф|аларм|гараж|бицикл|брав)\w*"
    r"|(?:లాకర్|తలుపు|గేట్)\s*+కోడ్|门禁码|門禁碼|密码锁|密碼鎖|暗証"
    r"|キーパッド|lucchetto|schlüsselkästchen|κωδικ\w*\s++(?:στην|της|για\s++την)\s++(?:πόρτα|είσοδο|αυλόπορτα)"
    r"|(?<![a-z])code\s++(?:van|voor)\s++(?:de|het)\s++(?:deur|voordeur|poort|fietsenhok|fietsenstalling|berging|schuur|garage"
    r"|kluis|alarm|hek|brievenbus|sleutelkast)|κωδικ\w*\s++(?:εξώπορτας|πόρτας|συναγερμού|γκαράζ|θυροτηλεφώνου|κλειδαριάς"
    r"|χρηματοκιβωτίου)"
    # in Greek, a safe's, a padlock's or a lock's combination and a phone's unlock code, and a safe, a padlock or a lock
    # told a digit at a time, in Greek letters or in Latin ones (Greeklish), and in Greeklish the code of a card, a
    # door, a car park, an alarm or a phone ("Ο συνδυασμός του χρηματοκιβωτίου …: 55193", "kleidaria podilatou
    # 7-7-1-3", "o kwdikos tis kartas mou einai 6612"; not a lock's price, order, model or weight, "Κλειδαριά
    # ασφαλείας Cisa, τιμή: 1250", nor a product's or a postal "kwdikos")
    r"|συνδυασμ\w*\s++(?:του|της|για\s++το|για\s++την)\s++(?:χρηματοκιβ|λουκ|κλειδαρ|ντουλαπ)\w*"
    r"|κωδικ\w*\s++ξεκλειδ[ωώ]ματος"
    r"|(?:χρηματοκιβ[ωώ]τ\w*|λουκ[εέ]τ\w*|κλειδαρι[άα]\w*|(?<![a-z])(?:kl[ei]idari\w*|louket\w*|xrimatokivwt\w*))"
    r"(?=[^\n0-9]{0,30}(?<![0-9])[0-9](?:[-\s][0-9]){3,7}(?![0-9]))"
    # a safe in Serbian, Macedonian and Bulgarian Cyrillic, a key box in Somali, Lithuanian, Amharic and Burmese, a lock
    # in Malayalam, an alarm in Georgian, Serbian or Russian written in Latin letters, a photocopier, a safe in Galician
    # and Portuguese, a safe in Gujarati and Hindi: each only before a code told a digit at a time or a dial's three
    # numbers ("signalizacia 5 8 2 4", "Photocopier: 3 4 0 7 is the admin's number", "Сеф …: 31 – 07 – 62"; not
    # their rooms, prices, orders or dates: "Copier for Years 3 4 5 6", "Сефора", "ബ്ലോക്ക്", "ലോക്ക്ഡൗൺ")
    r"|(?:(?<![а-я])сеф(?:у|а|ом|от|ът)?(?![а-яё])|(?<![a-z])sanduuqa\s++furayaasha|(?<![a-z])rakt[ųu]\s++d[ėe]žut\w*"
    r"|ቁልፍ\s*+ሳጥን|သော့သေတ္တာ|სეიფ\w*|(?<![\u0d00-\u0d7f])ലോക്ക്(?!ഡ)|(?<![a-z])signaliza[ct]\w*|(?<![a-z])(?:photo)?copier"
    r"|fotocopiadora|fotocopiatrice|(?<![a-z])caixa[\s-]++forte|તિજોરી|तिजोरी)" + _A_CODE_TOLD_AHEAD +
    # a padlock, a lock, a combination or a key cabinet in Yiddish, Lingala, Asturian, Quechua, Tok Pisin and
    # Frisian, each only before three to eight digits told apart in its clause, what it opens maybe between, or
    # right after a colon or "is" ("Kadena ya congélateur: 1-5-8", "El candáu de la taquilla … abre col 2-8-6", "De
    # kaaikast by it flat … giet iepen mei 4 7 1 9", "Kandado wasipa: 3917"; not a count, "3 4 5 6 7 bato",
    # nor Yiddish's "שלאָס" alone, a castle too: "… געבויט אין 1 5 8 0")
    r"|(?:ק(?:אָ|א)מבינ(?:אַ|א)צי(?:ע|ה)|(?<![a-z])(?:kadena|cand[áa]u|kandado\w*|lok|kaaikast\w*|hangslot\w*)(?![a-z]))"
    r"(?=[^\n0-9.;!?]{0,60}(?<![0-9])(?:(?!0.1.2|1.2.3|2.3.4|3.4.5|4.5.6|5.6.7|6.7.8|7.8.9)[0-9](?:(?:-|\s|,\s?)[0-9]){2,7}"
    r"(?![-\s]?[0-9])|(?:(?<=[:：] )|(?<=em )|(?<=is ))[0-9]{3,8}(?![0-9])))"
    # parental control in Bosnian, Croatian and Serbian, before four to six digits told apart ("šifra od roditeljske
    # kontrole na ps4 je 1 9 0 3"), or after a colon, ending the clause ("… na TV-u: 4826"; not its hours, "od 1600
    # do 1800", nor its age ratings, "PEGI 3 7 12 16 18")
    r"|roditeljsk\w*\s++(?:kontrol|zaštit|zastit|nadzor)\w*(?=[^\n.;!?]{0,40}?(?:(?<![0-9\w])[0-9](?:\s[0-9]){3,5}(?![\s-]?[0-9])"
    r"|[:：]\s*+[0-9]{4,6}\s*+(?:[.,;!]|$)))"
    # what a door opens with in Marathi and Gujarati, four digits told apart before it ("दार ४ ४ ० ९ ने उघडते")
    r"|(?<=[0-9] [0-9] [0-9] [0-9] )(?:ने\s*+उघड(?:ते|तो|ता)|થી\s*+ખૂલ(?:ે|ી))"
    # a card's "secret number" in Hausa and the number that opens a door (not "lambar ƙofa", a house's number),
    # after "it is", a colon, or alone before its four to eight digits ending the clause (not "… ɗakin 1204 ba ta
    # aiki", a room's, "… 1234 misali ne", an example), a lock told a digit at a time in Hausa ("Lambar sirrin katin
    # Baba ita ce 6 0 4 1", "Lambar buɗe ƙofar gida ita ce 7391", "Makullin rumbun hatsi: 5-2-9-0"), an entrance's
    # keypad in Japanese, its digits then "press" or "#"
    # ("寮の玄関は 5 8 3 0 を押してから＃"; not a room's number keyed to call it, "玄関で 0802 を押してから呼出"), and what a
    # phone or a door opens with in Urdu, told a digit at a time ("… 1 9 6 7 سے کھلتا ہے"; not "opens at 9")
    r"|(?<![a-z])lambar\s++(?:sirri\w*|bu[ɗd]e\s++[ƙk]ofa\w*)(?=(?:\s++[^\W\d_]++){0,3}?"
    r"(?:(?:\s++(?:ita\s++ce|shi\s*+ne)|\s*+[:：])\s*+[0-9]|\s++[0-9]{4,8}(?![0-9,.:/-])\s*+(?:[.,;!]|$)))"
    r"|(?<![a-z])makullin(?=[^\n0-9]{0,30}(?<![0-9])[0-9](?:-[0-9]){3,7}(?![0-9]))"
    # Arabic's "personal identification number" of a card or an ATM, its digits within four words ("رقم التعريف
    # الشخصي لبطاقتي 5830"; not an employee's, "… للموظف 10234", an office phone's extension, nor a new card's PIN
    # that "arrives by post within 7 days")
    r"|(?:ال)?رقم\s*+التعريف\s*+الشخصي(?=\s*+(?:ل|ال|لل)?(?:بطاق|صراف))"
    r"(?=(?:\s++[^\W\d_]++){0,4}?(?:\s++و?هو|\s*+[:：])?\s*+[0-9]{4,8}(?![0-9]))"
    r"|(?:玄関|入口|エントランス|ドア|門)(?=[^\n0-9]{0,12}(?<![0-9])[0-9](?:\s[0-9]){3,7}\s*+(?:を押|[#＃]))"
    r"|(?<=[0-9] [0-9] [0-9] [0-9] )سے\s*+کھل(?:تا|تی|تے)"
    # Greeklish "kwdikos" of a card that is someone's or a bank's, of a door, a car park, an alarm or a phone (not
    # Portugal's calling code, "tis Portogalias", an engine's, "tou kinitira", nor a member's card, "kartas melous")
    r"|(?<![a-z])(?:k[wo]dik\w*\s++(?:(?:tis|tou|tin|ti|gia)\s++){1,2}"
    r"(?:kart(?:as|a)\s++(?:mou|sou|tou|tis|mas|trapez\w*|visa|mastercard|atm)|port(?:a|as)|parking|garaz\w*|synagerm\w*"
    r"|alarm\w*|kinitou|thyrotilef\w*)(?![a-z])|k[wo]dik\w*\s++[x3]ekleidwmat\w*)"
    r"|(?<![а-я])пин(?:-код\w*|\s++(?:от|к|карты|картице|для))(?![а-я])"
    # a payment app's MPIN, a UPI PIN
    r"|(?<![a-z])(?:m-?pin|upi\s++pin)(?![a-z])|(?<![a-z])pina(?=\s*+[:：])"  # (and Basque's "PINa:")
    # a keypad and a code lock in German, a PIN in Mexico's and Quebec's words (NIP), Swahili's "secret number"
    # a door's, a gate's, an alarm's code in Portuguese and Italian ("o código da porta do prédio … é 3309",
    # "il codice del portone è 4471")
    # (a building's door, not a network's port, "o código da porta 5432 do Postgres", nor a register's code,
    # "o código do prédio no cadastro")
    r"|(?<![a-z])c[óo]digo\s++d[aoe]\s++(?:port[ãa]o|garagem|alarme|cofre|cadeado)"
    r"|(?<![a-z])c[óo]digo\s++da\s++porta\s++d[aeo]s?\s++(?:pr[ée]dio|casa|apartamento|frente|entrada|rua|edif[íi]cio|condom[íi]nio)"
    # (not Italian "porta", a network's port too: "Il codice della porta 8080 va aggiornato nel firewall")
    r"|(?<![a-z])codice\s++(?:della\s++|del\s++|dell['’]\s*+)?(?:portone|cancello|garage|allarme|cassaforte|lucchetto)"
    r"|(?<![a-z])(?:tastenfeld\w*|codeschloss\w*)|(?<![a-z])nip(?![a-z])|(?<![a-z])namba\s++(?:yangu\s++|yake\s++|yetu\s++)?ya\s++siri(?=[^\n.;]{0,50}?(?:\sni\s|:))"  # ("… ni 5508", is 5508)
    # a PIN in Telugu (not a postal PIN code, "పిన్ కోడ్ 500032"), a code and a locker in Tamil, a PIN in
    # Irish (UAP), a padlock in Croatian and Serbian
    r"|(?<![\u0c00-\u0c7f])పిన్(?![\u0c00-\u0c7f\u200c]|\s*+కోడ)|(?:லாக்கர்|பூட்டு|ரகசிய|கதவு)\s*+குறியீடு"
    r"|(?<![a-z])uap\s++(?:an\s++)?(?:ch?árta|bainc|bhainc)|(?<![a-z])lokot\w*|(?<![а-я])локот\w*"
    # a car radio's code (it unlocks the radio), a keypad in Catalan, an access code in Dutch, a
    # combination in Finnish and Basque, an alarm in Russian, Persian and Nepali's lock and
    # combination, Armenian's code and lock
    r"|(?<![a-z])(?:radio[\s-]*+code|radiocode|antifurto|screen[\s-]*+time[\s-]*+(?:pass)?code|bildschirmzeit-?code|radijo\s++kod\w*|c[óo]d\s++raidi[óo]|c[óo]digo\s++d[aoe]\s++(?:la\s++)?radio"
    r"|codi\s++del\s++teclat|\w*toegangscode|yhdistelm\w*|giltzarrapo\w*)(?![a-z])"
    # a SIM's PUK (not the name Puk, nor "puk puk"), an alarm told in steps ("Y larwm: 1. agor y drws,
    # 2. teipio 358160 ar y panel"), Albanian's alarm before a colon
    r"|sim\w*[^\n]{0,40}?(?<![a-z])puk(?![a-z])|(?<![a-z])puk(?![a-z])[^\n]{0,40}?(?<![a-z])sim"
    # (or a PUK and its eight digits after it, "PUK til mobilen: 49172635"; not a phone's number to ask
    # for it or to call, "PUK: ring Telia på 92405050", "Ring Puk på 41234567"), a roller shutter's code, a code
    # of a door, a phone, a card or a lock in Finglish with its number a word or two after it ("ramz
    # dar-e sakhtemoon: 7410"; not "ramz dar 1403 avaz shod", a year it was changed in)
    r"|(?<![a-z])puk(?![a-z])(?=(?:(?!ring|call|tlf|tel|nummer|number|(?<![a-z])p[åa](?![a-z]))[^\n0-9]){0,30}?"
    r"(?<![0-9])[0-9]{8}(?![0-9]))"
    r"|shutter\s*+(?:remote\s*+)?(?:code|pin|lock)"
    r"|(?<![a-z])ramz(?:\s*+-?e)?\s++(?:dar|darb|gooshi|goshi|kart|cart|ghofl|wifi|wi-fi|vaifai)(?:\s*+-?e)?(?![a-z])"
    r"(?=(?:\s++[a-z]+){0,4}?\s*+[:：]?\s*+[0-9](?: ?[0-9]){3,7}(?![0-9])(?!\s++(?:avaz|taghir|sal)))"
    r"|كود\s*+(?:ال)?(?:باب|بوابة|خزنة|عمارة|شقة)|رمز\s*+(?:ال)?مدخل|صندوق\s*+کلید"  # (Arabic's everyday word for a code,
    # of a door, a gate, a safe, a building, the code of an entrance, and a key box in Persian)
    r"|(?:alarm\w*|larwm|signalizācij\w*|сигнализац\w*)(?=(?:[^\n]*?(?<![\w.])[1-9][.)][^\S\n]){2})|alarmi(?=\s*+[:：])"
    # a safe in Croatian ("u sefu"), Romanian, Catalan and Turkish, a lock in Slovene, Vietnamese,
    # Georgian, Marathi, Romanian and Hebrew, a suitcase's in Slovene, a padlock in Polish and Serbian, a
    # shop's alarm in Welsh, an office's in Latvian, a safe in Persian (not "sef", a boss's "šef" typed
    # plainly, nor Irish "glas", green too, nor Bulgarian "аларма", a phone's alarm clock too)
    r"|(?<![a-z])(?:sefu|seif(?:ul|uri|ului)?|caixa\s++forta|kasay[ıi]|kasas[ıi]|klju[čc]avnic\w*|kov[čc]e\w*|k[łl][óo]dk\w*"
    r"|kh[óo]a\s++(?:vali|t[úu]i|c[ửu]a)|lac[ăa]t\w*|cod\s++y\s++larwm|signaliz[āa]cijas\s++kod\w*)(?![a-z])"
    r"|საკეტ\w*|कुलूप\w*|(?<![а-я])катанац\w*|מנעול|המנעול|گاوصندوق"
    r"|رمز\s*+دزدگیر|دزدگیر\s*+(?:خانه|منزل|مغازه)|तालाको\s*+(?:कम्बिनेसन|कोड)|ताले\s*+का\s*+कोड|կողպեք\w*|ரேடியோ\s*+குறியீடு")
_ON_A_PIN_LINE = lowered_search(_PIN_LINE.pattern)
# what follows a quantity: "5518 mm" is a length, "5518 and" is no unit
_UNIT = (r"(?i:mm|cm|km|m|kg|g|mg|ml|l|s|ms|h|hrs?|min|mins|gb|mb|kb|tb|px|pt|hz|khz|mhz|ghz|kw|w|v|mah|rpm|usd|eur|gbp|k|x"
         r"|deelnemers|participants|participantes|teilnehmer\w*|uczestników|status|codes"
         r"|unread|e-?mails?|messages?|calories|kcal|damage|points|followers|views|likes|signups?|rupiah|yen|won"
         r"|rupees?|rs\.?|रुपये|रुपए|रु\.?|টাকা|روپے|pesos?|soles|reales|reais"
         # (inches, not "in case", "in the": "sim puk code 48213907 in case the phone locks again")
         r"|sq|ft|in(?!\s++(?:case|the|a|an|my|his|her|our|their|your|this|that|there|here)\b)|lb|lbs|oz|mph|kmh|dpi|fps|°|zł|kr"
         r"|yen|euros?|dollars?|pounds?|degrees?|seconds?|minutes?|hours?"
         r"|dinara|динара|komada|комада|kuna|eura|евра"
         r"|litros|litri|litr[óo]w|lei|lira\w*|nghìn|ngàn|đồng|ლარი|שקל|ש״ח|sztuk|stück|pezzi|piezas|pièces|kusů|kom|kpl|лв\.?"
         r"|days?|by(?=\s*+[0-9])|x|rooms?|räume|zimmer|years?|jahre|people|personen|steps?|stufen|pages?|seiten|ua|µa|ma|a|mw|nm|ns"
         r"|us|µs|ohms?|ω|ом|lm|lux|db|dba|bpm|kcal|cal|psi|bar|nits?|combinations?|possibilities|attempts?|tries|guesses)")
# a count in Chinese, Japanese or Korean: "每180天" (every 180 days), "8位" (8 places), "3개월"
_CJK_UNIT = (r"(?:天|日|个月|個月|ヶ月|か月|年|位|次|小时|小時|時間|分钟|分鐘|分|秒|人|元|円|块|個|个|岁|歳|일|개월|년|시간|분|초|명|원|회"
             r"|번|자리|桁|文字|字)")
# a code: 3 to 8 digits ("7316.", "*2741", "55108#", "4B927"), or a combination's numbers in groups
# ("6-2-0-4", "27-09-41", "14 36 08", "9 2 6 3")
# (and after Zulu's and Xhosa's "is" joined by a dash: "i-PIN yami ngu-5830")
_PIN_DIGITS = lazy(r"(?:(?<![A-Za-z0-9_.,/:¥₹₩€$£-])|(?<=(?<![A-Za-z])ngu-)|(?<=(?<![A-Za-z])yi-))"
                         r"[*#]?([0-9]{3,8}|[0-9]{1,2}[A-Z][0-9]{1,3}|[A-Z][0-9]{4})"
                         r"(?!(?![\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff\u0e00-\u0e7f])[\w/:%-]|[.,][0-9]|\s*+(?:" + _UNIT
                         + r")\b|\s*+(?:€|\$|£)|\s*+" + _CJK_UNIT + ")"
                         # (digits apart, a letter of a script without spaces right before: "物置の南京錠は7-3-9"; a dial's
                         # numbers an en or an em dash apart: "Cash office safe: 22 – 68 – 41")
                         r"|(?<![A-Za-z0-9_.,/:-])([0-9]{1,2}(?:-[0-9]{1,2}){2,5}|[0-9]{1,2}(?: [0-9]{1,2}){2,5}"
                         r"|[0-9]{1,2}(?: ?[–—] ?[0-9]{1,2}){2,5}(?!\s*+(?:" + _UNIT + r")\b))(?![\w/:%–—-]|,\S|\.[0-9])")
# a number told a digit at a time, and a safe named by the room it is in, a colon after the room
_ONE_AT_A_TIME = lazy(r"[0-9](?: [0-9]){3,7}")
# a code told a digit at a time after the fire exit a box is by ("Office key box by the fire exit: 3-3-0-8"; not the
# exit's own number, "Fire exit 104 next to the loading dock door")
_TOLD_APART = lazy(r"[0-9](?:[- ][0-9]){3,7}")
_A_DIALS_NUMBERS = lazy(r"[0-9]{2}(?: ?[–—] ?[0-9]{2}){2,3}")
_A_DIALS_NUMBERS_TOLD = lazy(r"(?i)(?:[:：]|(?<!\w)(?:spins?|turns?|dials?)\s++it|(?<!\w)(?:is|are))\s*+$")
# what turns a dial: a safe, a combination, a padlock, a dial itself, its spin
_A_DIALS_WORD = lazy(r"(?i)(?<!\w)(?:safe|сейф\w*|сеф\w*|combination|combo|dial|padlock|spins?|turns?|tresor|coffre|kasa)(?!\w)")
_BY_THE_FIRE_EXIT = lazy(r"(?i)(?:fire|emergency)\s++exit\s*+[:：]\s*+$")
def _a_safe_in_a_room(between: str) -> LazyPattern:
    """A safe, a locker or a key box in a room, ``between`` "in" and "room", then a colon or a dash."""
    return lazy(r"(?i)(?<!\w)(?:safe|locker|lockbox|key\s*+box|cabinet)\s++(?:in|at|by)\s++" + between
                + r"room(?:\s*+[:：]|\s++[-–—])\s*+$")


_A_SAFE_IN_A_ROOM = _a_safe_in_a_room(r"(?:the\s++)?(?:[^\W\d_]++\s++){0,3}?")
# the same with "the" and the room's name between (not "Safe in room: 1204", a room's number; "the manager's room")
_A_SAFE_IN_A_NAMED_ROOM = _a_safe_in_a_room(r"the\s++(?:[^\W\d_]++(?:['’]s?)?\s++){1,3}?")
# a lock's code named first, then where the lock is, then "is": "Locker code at the staff changin room is 4471" (the
# room before "is" is where the locker is, not a room's number)
_A_CODE_THEN_ITS_PLACE = lazy(r"(?i)(?<![^\W\d_])(?:locker|door|gate|safe|keypad|alarm|padlock|lock)\s++code\s++(?:at|in|on|of)"
                              r"\s++[^\n.;:,0-9]{1,60}?\s++(?:is|was)\s*+$")
_NOT_A_PIN = lazy(r"(?i)(?<!\w)(?:error|status|exit|http|port|room|zip|postal|area|product|sku|model|item|order|invoice"
                        r"|spent|paid|pays?|does|did|costs?|saved|earned|over|about|around|only|nearly|almost"
                        r"|than|burned|burnt|lost|gained|diskon|promo|scored|sold|bought|raised|donated"
                        r"|poste|extension|ext\.?|durchwahl|interno|toestel|anknytning|lokalnummer|内線"
                        r"|b[łl][ęe]du|fehler|erreur|de\s++error|hata|ошибки"
                        r"|tracking|flight|ticket|version|line|ending|step|page|página|pagina|seite|section|sección|sezione"
                        r"|abschnitt|kapitel|issue|pr|build|release|year|number|no|nr"
                        r"|sizes?|tallas?|tailles?|größen?|floor|platform|gate\s++[a-z]?|seat|scores?|won|lost|at|from|until"
                        r"|košta|кошта|stoji|стоји|cijena|цена|cena"
                        r"|between|since|by|x|(?:meeting|webinar)\s++id(?:\W{1,3}[0-9]{3,4}){0,3}"
                        r"|στις|um|kl\.?|klo|saat"
                        # an invoice's, an order's, a bill's, a receipt's, a claim's, a warranty's, a flight's, a
                        # page's number and a price, in the languages whose words for a lock or a safe the gate reads
                        r"|factura|facture|fattura|fatura|faktura|rachunek|ra[čc]un|рачун|сметка|sonrasc|bil|बिल(?:\s++क्रमांक)?"
                        r"|naro[čc]il\w*|zam[óo]wienie|pedido|commande|ordine|sipari[şs]|narud[žz]b\w*|нарачк\w*"
                        r"|cena|cijena|cenu|ціна|pre[țt]|pre[çc]o|precio|prix|prezzo|preis|fiyat|giá|ფასი|מחיר|kosztuje|stane|costa|coûte|kostet"
                        r"|prijava(?:\s++izgube)?|chamado|reclama[çc][ãa]o|preventivo|presupuesto|devis|angebot"
                        r"|phi[ếe]u(?:\s++b[ảa]o\s++h[àa]nh)?(?:\s++s[ốo])?|garancij\w*|gwarancj\w*|garanti\w*|let|vuelo|vol|volo|flug|lot|u[çc]u[şs]"
                        r"|tudalen|strona|stran|stránka|oldal|modelo|modello|modell|artikel|article|articolo|art[íi]culo"
                        r"|dahili(?:\s++numaras[ıi])?|interni|lokal"
                        r"|quote|quoted|estimate"  # a price: "The quote was 1850 for lockers …"
                        # a city's or a country's dialling code, its name between ("kod goroda Almaty 727"), in
                        # Russian and Ukrainian ("Код країни для України +380")
                        r"|(?:kod|код)\s++(?:goroda|strany|oblasti|города|страны|области|региона|країни|міста|області)"
                        r"(?:\s++[^\W\d_]++){0,2}"
                        r"|intervention|дата|date|datum"  # an intervention's ticket ("ticket d'intervention n° 48213"), a date: "Катинарът на моста … с нашите инициали и дата 1 4 0 2"
                        # a lock's maker and model: "Купих катинар Abus 4590", "a padlock Abus 4590"
                        r"|abus|master\s*+lock|kryptonite|burg[\s-]*+w[äa]chter|squire|onguard|hiplok|litelok|trelock"
                        r")"
                        r"(?:\s++(?:code|number|no|nr|n[°º]))?(?:\s++(?:is|was|are))?\W{0,3}$"
                        # a room by its number, with nothing between: "(Zimmer 412)"; not "Tresor im Zimmer: 4471"
                        r"|(?<!\w)(?:(?:hotel)?zimmer|chambre|habitaci[óo]n?|stanza|kamer|pok[óo]j|huone|quarto|oda|комната|номер"
                        r"|camera|sob[ie]|soba|szob[aá]|s[oó]ba|odas[ıi]"
                        r"|shelf|shelves|aisle|raft|rafturi|regal|regał|półka|polica|estante|scaffale|rayon|regál|hylde|hylla|hylle"
                        # a flight by its airline's code: "let LH 1412"
                        r"|(?:flight|flug|vol|vuelo|volo|voo|vlucht|let|lot|uçuş|рейс)\s++(?-i:[A-Z][A-Z0-9]|[A-Z0-9][A-Z]))\s++$"
                        # a price paid, a phone's number, a model's: in other languages, and in those written without spaces
                        r"|(?<!\w)(?:pagat[oa]|pagad[oa]|payée?|bezahlt|κοστίζει|κόστος|πλάτος|ύψος|kostet|costa|cuesta|coûte)\s++$"
                        r"|(?:电话|電話|型番|型号|型號|価格|价格|價格)\s*+[:：]?\s*+(?:は|是)?\s*+$"
                        # an error's code in Hindi: "त्रुटि कोड 1042"
                        r"|त्रुटि\s*+(?:कोड|संख्या)?\s*+[:：]?\s*+$"
                        # a bill's, a complaint's, a token's, a receipt's number in Hindi and Bengali, a house's
                        # plate in Persian ("बिल नंबर ७८३२", "টোকেন নম্বর 4512", "پلاک ۱۴۵"; not "कुलूपाचा नंबर", a
                        # lock's number, its combination)
                        r"|(?:बिल|शिकायत|रसीद|ऑर्डर)\s*+(?:नंबर|नम्बर|नं\.?|संख्या|क्रमांक)\s*+[:：]?\s*+$"
                        r"|(?:রসিদ|বিল|অর্ডার|অভিযোগ)\s*+(?:নম্বর|নং\.?)\s*+[:：]?\s*+$"
                        r"|(?:شماره\s*+(?:سفارش|فاکتور|قبض|پیگیری)|کد\s*+پیگیری)\s*+[:：]?\s*+$"
                        # a line, an issue, a commit in a programmer's note ("মিউটেক্স লক কোডে বাগ, লাইন ১২৩৪")
                        r"|(?:লাইন|ইস্যু|কমিট|लाइन|इश्यू|कमिट)\s*+[:：]?\s*+$"
                        # a helpline in Hindi: "कस्टमर केयर १८००४१९ पर"
                        r"|(?:केयर|हेल्पलाइन|टोल\s*+फ्री)\s*+[:：]?\s*+$")


# a door's, a gate's, a keypad's code, then what it opens, then "is" and the code ending its clause: "Front door
# keypad code for the flat on Elm Street is 7391#." (a street named on the line makes it no address's number)
_A_DOORS_CODE_IS = lazy(r"(?i)(?<![\w-])(?:door|gate|keypad|lock|safe|alarm|garage|entry|entrance|building)\s++code(?![\w-])"
                        r"[^\n0-9.;]{0,50}?\s(?:is|was)\s++[0-9]{4,8}#?(?=\s*+(?:[.,;!)]|$))")
# the code of a door, an alarm, a gate, a safe or a padlock, then "is" and the code ending its clause, in the
# Romance languages and German: "… vol le 3, clés chez la voisine, et le code de l'alarme est 6142." (a flight
# named on the line, "vol", made it a flight's number)
_A_LOCKS_CODE_IS = lazy(
    r"(?i)(?<![\w-])(?:code|c[óo]digo|codice)\s++(?:(?:de\s++la|de\s++l['’]|du|de|del|della|dell['’]|da|do|dos|das)\s*+)?"
    r"(?:porte|alarme|portail|coffre|cadenas|garage|digicode|puerta|alarma|port[óo]n|caja\s++fuerte|candado|porta|allarme"
    r"|cancello|cassaforte|lucchetto|port[ãa]o|cofre|cadeado)\s++(?:est|c['’]est|es|è|é)\s++[0-9]{4,8}#?(?=\s*+(?:[.,;!)]|$))"
    r"|(?<![\w-])(?:alarm|tür|haustür|tor|tresor|garagen)code\s++(?:ist|lautet)\s++[0-9]{4,8}#?(?=\s*+(?:[.,;!)]|$))")
# a code keyed in with the hash key after it, ending its clause: "Entry panel at Harbour Street for October — 7720#"
# (not a year: "… rapport classé sous la référence 2024#")
_KEYED_IN_WITH_A_HASH = lazy(r"(?<![0-9A-Za-z#-])(?!(?:19|20)[0-9]{2}#)[0-9]{4,8}#(?=\s*+(?:[.,;!)]|$))")
# what unlocks or opens with a code, the code ending its clause: "The user's own phone unlocks with 240581, he told me …"
_UNLOCKS_WITH_A_CODE = lazy(r"(?i)(?<![\w-])(?:unlocks?|opens?)\s++with\s++[0-9]{4,8}#?(?=\s*+(?:[.,;!)]|$))")
# a code told so, whatever else its line says (a street, a flight, a screen): these, and a car radio's code,
# which comes on a card in its manual (``_A_RADIOS_CODE``)
_A_CODE_WHATEVER_THE_LINE_SAYS = (_A_DOORS_CODE_IS, _A_LOCKS_CODE_IS, _KEYED_IN_WITH_A_HASH, _UNLOCKS_WITH_A_CODE)
# a line where a number near a lock's word is something else: an error or a part's number, a
# place (an Indian PIN code is a postcode), a pinned issue
_NOT_A_CODE_LINE = lazy(
    r"(?i)(?<![\w-])(?:error|fehler|erreur|fault|sku|part|means|meaning|manual|notice|map|address|road|street|lives?"
    # an error's code in other languages, a server's answer: "Virhekoodi 429", "відповідає кодом 404"
    r"|virhe\w*|помилк\w*|ошибк\w*|hata\w*|chyb\w*|błęd\w*|hib[aá]\w*|fout\w*|felkod\w*|fejl\w*|feil\w*|errore|erro"
    r"|responds?\s++with|відповіда\w*|отвеча\w*"
    # a castle by its name, a German "Schloss" that is no lock: "Schloss Neuschwanstein: 1869"
    r"|(?-i:Schloss\s++[A-ZÄÖÜ][a-zäöüß]{3,})|\w+schloss\s++(?-i:[A-ZÄÖÜ])"
    # what a number beside a lock's or a safe's word also is: a capacity, a size, seconds, a catalogue's
    # number, a reference, a first mention ("Thread-safe ring buffer, capacity: 1024", "talla: 090"; not
    # seconds: an alarm's code is typed "within 30 seconds")
    r"|(?:thread|type|memory|null|fail|crash)-safe|capacity|capacité|kapazität|capacidad|capacità|pojemność"
    r"|talla|taille|größe|catalog(?:ue)?|katalog\w*|каталог\w*"
    r"|r[ée]f[ée]rence|referencia|riferimento|referenz|erste\s++erwähnung|gegründet|founded|erbaut"
    # a program that ended with a code: "упала с кодом 126", "exited with code 137", "Exit-Code 2"
    r"|exit(?:ed)?\s++(?:with\s++)?(?:code|status)|exit-?code|упал[аио]?|вылетел\w*|завершил\w*\s++с|с\s++кодом\s++(?:выхода|возврата)"
    r"|впал[аио]?|з\s++кодом\s++виходу|código\s++de\s++salida|code\s++de\s++sortie|kodem\s++wyj\w*|çıkış\s++kodu"
    r"|\w*stra(?:ß|ss)e|str\.|weg|platz|rue|calle|via|ulica|avenue|sale|fee|price|costs?|timeout|screen(?![\s-]*+time)|oven|timer"
    # (an airport's terminal; not a card terminal's admin or manager PIN, "SumUp terminal admin PIN 3142")
    r"|flight|vuelo|vol|volo|flug|boarding|embarque|terminal(?!\s++(?:admin|manager|supervisor|pin))"
    r"|located|postal|post\s*+code|zip|repo|issue|pull\s++request|koramangala|bangalore|bengaluru|mumbai|delhi|kochi"
    r"|chennai|pune|hyderabad|kolkata|posta\s++kodu|ürün\w*|товар\w*|телефонн\w*|bwv|opus|gamer\s*+tag|civico"
    r"|postcode|postleitzahl|plz|code\s++postal|c[óo]digo\s++postal|codul\s++po[șs]tal|kode\s++pos|zákaznick\w*|signups?"
    r"|customers?|users|visitors|đơn\s++hàng|pin\s*+codes|vorwahl)(?![\w-])"
    r"|รหัสไปรษณีย์|पिन\s*+कोड|الرمز\s*+البريدي|mã\s++số\s++đơn"
    r"|注文|配達|追跡|予約|便名|座席|订单|快递|航班|주문|배송|部屋番号|会員番号|商品番号|郵便番号|ビルド番号"
    r"|الخطأ|خطأ|エラー|错误|錯誤|오류|에러")


# what says a lock opens with the number that follows, even one that looks like a year
# (Swahili's "is" right after "code": "kufuli ya mlango code ni 2580#"; not "Kodi ya garage … ni 2000", a rent)
_SET_TO = lazy(r"(?i)(?:opens?\s++with|unlocks?\s++with|upp\s++med|set\s++(?:it\s++)?to|changed\s++(?:it\s++)?to|habe\s++ich"
                     r"|(?<![\w-])(?:code|pin|passcode|combination|код\w*|kod\w*|pin-?kod\w*|ה?קוד|κωδικ\w*)"
                     r"(?:[^\n0-9:—–]{0,40}?(?:\s++(?:is|ist|est|es|är|er|je|jest))|[^\n0-9:—–]{0,40}?\s*+[:—–])|has\s++(?:the\s++)?code"
                     r"|(?<![\w-])(?:code|msimbo)\s++ni"
                     # Finnish's code in a compound, then "is": "Mummon puhelimen avauskoodi on 1947"
                     r"|(?<![\w-])\w*koodi\w*\s++on"
                     # what one keys in: "Alarm panel: type 2009 within 30 seconds"
                     r"|(?<![\w-])(?:type|enter|key\s++in|punch\s++in|marca|digita|tape|tapez|tippe|gib)\s*+$)\s*+$")


# a code's digits spelled out, four to eight of them ("seven three zero five", "sieben-drei-null-fünf"),
# in English, German, French, Spanish, Italian, Portuguese, Galician and Dutch
_DIGIT_WORDS = {
    **dict.fromkeys(("zero", "oh", "null", "zéro", "cero", "nul"), "0"),
    **dict.fromkeys(("one", "eins", "un", "une", "uno", "um", "een", "één", "unha"), "1"),
    **dict.fromkeys(("two", "zwei", "deux", "dos", "due", "dois", "twee", "dous"), "2"),
    **dict.fromkeys(("three", "drei", "trois", "tres", "tre", "três", "drie"), "3"),
    **dict.fromkeys(("four", "vier", "quatre", "cuatro", "quattro", "quatro", "catro"), "4"),
    **dict.fromkeys(("five", "fünf", "fuenf", "cinq", "cinco", "cinque", "vijf"), "5"),
    **dict.fromkeys(("six", "sechs", "seis", "sei", "zes"), "6"),
    **dict.fromkeys(("seven", "sieben", "sept", "siete", "sette", "sete", "zeven"), "7"),
    **dict.fromkeys(("eight", "acht", "huit", "ocho", "otto", "oito"), "8"),
    **dict.fromkeys(("nine", "neun", "neuf", "nueve", "nove", "negen"), "9"),
}
# and in Swedish, Danish and Norwegian, less the words that are other words in English ("to", "fire", "sex", "en")
_DIGIT_WORDS.update({"noll": "0", "ett": "1", "två": "2", "fyra": "4", "fem": "5", "seks": "6", "sju": "7", "syv": "7",
                     "åtta": "8", "otte": "8", "åtte": "8", "nio": "9", "ni": "9"})
# a digit word, or one digit among them: "seven 3 zero 5"
_DIGIT_WORD = "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True)) + r"|[0-9](?![0-9])"
# (a "then" may come between the words: "first digit is seven, then three, then eight, then one")
_THEN_WORDS = ("then", "dann", "puis", "luego", "depois", "poi")
_SPELLED_DIGITS = lazy(r"(?i)(?<![\w-])((?:" + _DIGIT_WORD + r")(?:(?:\s*+[,-]\s*+|\s++)(?:(?:" + "|".join(_THEN_WORDS)
                       + r")\s++)?(?:" + _DIGIT_WORD + r")){2,7})(?!\w)")
# what a code of three words needs right before it: a verb or a colon ("the bike lock is six-one-nine")
_TOLD_RIGHT_BEFORE = lazy(r"(?i)(?:(?<!\w)(?:is|was|er|är|ist|est|es|è|é|on|to|je|jest)|[:：=])\s*+[\"'“„«]?$")
# a code's name right before it: "Door code is ", "PIN: " (then even "nine eight seven six" is one)
_CODES_NAME = r"(?:code|pin|passcode|pincode|combination|kombination|kod|kode|koden|koodi|código|codice)"
_A_CODE_IS = lazy(r"(?i)(?<!\w)" + _CODES_NAME + r"\s*+"
                  r"(?:is|was|:|=|är|er|est|es|ist|è|é|on)\s*+[\"'“„«]?$")
# a conjunction and a digit word after a run: a list of numbers, not a code
_A_LIST_GOES_ON = lazy(r"(?i)\s*+,?\s*+(?:and|och|og|und|et|y|e|en|ja|ve|и|or|oder|ou|o|eller)\s++(?:" + _DIGIT_WORD + r")(?!\w)")


def _codes_on(line: str) -> list[tuple[str, int, int]]:
    """Each code of ``line``: (its digits, where it starts, where it ends), in digits or spelled out."""
    found = [(match[1] or match[2], match.start(), match.end()) for match in _PIN_DIGITS.finditer(line)]
    if _DIGIT_WORDS.keys() & set(re.findall(r"\w+", line.lower())):
        for match in _SPELLED_DIGITS.finditer(line):
            words = [word for word in re.findall(r"\w+", match[1]) if word.lower() not in _THEN_WORDS]
            if sum(not word.isdigit() for word in words) < 2:
                continue  # digits, which the search above reads
            if _A_LIST_GOES_ON.match(line, match.end()):
                continue  # a count or a list: "ett, två, fyra, fem och sju"
            told = _A_CODE_IS.search(line, max(0, match.start() - 40), match.start())
            if any(word.isdigit() for word in words) and not (told and "," not in match[1]):
                continue  # digits among the words only as a code is told: "Gate code is seven 3 zero 5",
                # not "visits on Sept 2, Sept 9" ("sept" is French) or "[null, 1, null, 4]"
            if len(words) == 3 and not _TOLD_RIGHT_BEFORE.search(line, max(0, match.start() - 40), match.start()):
                continue  # three words are a code only where one is told: not "one, two, three"
            digits = "".join(_DIGIT_WORDS.get(word.lower(), word) for word in words)
            steps = {int(second) - int(first) for first, second in zip(digits, digits[1:])}
            if len(steps) > 1 or told:
                # not "five four three two one", "two four six eight", "null, null, null, null"; but
                # "Door code is nine eight seven six"
                found.append((digits, match.start(), match.end()))
    return found




# a bus's, a tram's line right before the number: "bus 175"
_A_LINES_NUMBER = lazy(r"(?i)(?<!\w)(?:bus|tram|train|route|metro|u-bahn|s-bahn|[ôo]nibus|autocarro|autob[úu]s|linha|l[íi]nea"
                       # a flight's: "o voo LO 8183 sai do portão K24"
                       r"|flight|flug|vol|vuelo|voo|volo|vlucht|lot|рейс|uçuş|sefer)(?:\s++[A-Z0-9]{2,3})?\s++$")


# a locker's own number: "locker 1310 at Tesco", "Schließfach Nr. 22" (its code is "locker code 1310")
_A_LOCKERS_NUMBER = lazy(r"(?i)(?<!\w)(?:locker|lockers|schließfach|schliessfach|casier|taquilla|armadietto|kluisje|skåp"
                         r"|szafka|gym\s++locker|cacifo)\s*+(?:no\.?|nr\.?|#|number|nummer|n[º°])?\s*+$")


# a customer's or a member's number: the numbers of its line are such numbers, but one right after a
# code's name ("Kundennummer 55120, Alarmcode 8264")
_A_CUSTOMERS_NUMBER = lazy(r"(?i)(?<![\w-])(?:kundennummer|customer\s++number|membership\s++number|mitgliedsnummer"
                           r"|num[ée]ro\s++(?:de\s++)?client|n[úu]mero\s++de\s++(?:cliente|socio)|klantnummer|lidnummer"
                           r"|zákaznick\w*)(?![\w-])")
_A_CODES_NAME_BEFORE = lazy(r"(?i)" + _CODES_NAME + r"\s*+"
                            r"(?:is|ist|est|es|er|är|:|=)?\s*+$")


# a locker's number said before, in the line: the numbers after it are lockers' too, but one named a code
_A_LOCKERS_NUMBER_SAID = lazy(r"(?i)(?<!\w)(?:locker|lockers|schließfach|schliessfach|casier|taquilla|armadietto|kluisje"
                              r"|szafka)\s*+(?:no\.?|nr\.?|#|number|nummer|n[º°])?\s*+[0-9]{1,5}(?![0-9])")
# a team's formation ("4-3-3", "4-2-3-1") and the words of a line about one
_A_FORMATION = lazy(r"[1-5](?:\s?-\s?[1-5]){2,3}")
_A_TEAMS_WORD = lazy(r"(?i)(?<!\w)(?:formation|line-?up|team|plays?|playing|coach\w*|football|soccer|tactic\w*|aufstellung"
                     r"|formación|alineación|formazione|schieramento|opstelling|formação|escalação|système|schema)(?!\w)")
_A_BRAND_AND_MODEL = lazy(r"(?<![\w-])[A-Z][a-z]{2,}\s++[A-Z][a-z]{2,}\s++$")
# what a brand's name says it keeps money in, and a PIN's own word (not a PIN pad's)
_A_WALLETS_NAME = lazy(r"\s(?:Wallet|Pay|Bank|Money|Cash)\s++$")
_A_PIN_ITSELF = lazy(r"(?i)(?<![a-z])(?:pin|m-?pin|passcode)(?![a-z])(?!\s*+(?:pad|code))")  # (India's "PIN code" is postal)
# a number said as one, right before it: "es la número 127", "ist Nummer 156"
_A_NUMBER_SAID = lazy(r"(?i)(?<!\w)(?:número|nummer|numero|numéro|numer|номер|numara|numurs|numeris|number|no\.?|nr\.?)"
                      r"\s*+$")
# a locker, and a lock or a box whose number would be its code
_A_LOCKERS_WORD = lazy(r"(?i)locker|taquilla|spind|casier|armadietto|kluisje|skåp|szafk|шкафчик|dolap|cacifo")
_A_LOCK_OR_BOX = lazy(r"(?i)(?<!\w)(?:lock|locks|padlock|lockbox|key\s*+box|keybox|key\s*+safe|schlüsselbox|schloss"
                      r"|zahlenschloss|suitcase|koffer|cadenas|candado|lucchetto|kłódk\w*|safe|tresor|caja|vault)(?!\w)")
# a key, or the band it hangs on: what opens a locker that has a number and no code
_OPENS_WITH_A_KEY = lazy(r"(?i)(?<!\w)(?:key|keys|llave|schlüssel|clé|chiave|sleutel|nyckel|nøgle|nøkkel|klucz|ключ"
                         r"|chave|pulseira|wristband|armband|pulsera|bracelet)(?!\w)")
_A_KEY_TAG = lazy(r"(?i)(?<!\w)tag\s++(?:says|reads|shows)\s++$")
_OPENS_IN = lazy(r"(?i)(?<!\w)(?:opens?|unlocks?|öffnet|ouvre|abre|apre|opent|set\s++to)(?!\w)")
_A_CODES_WORD = lazy(r"(?i)combination|combo|code|pin|kombination|combinaison|combinaci[óo]n|combina[çc][ãa]o|codice|c[óo]digo"
                     r"|dial|numbers|digits|punch")
# the same as a word of its own (not "pin" inside "Spind")
_A_CODES_WORD_ALONE = lazy(r"(?i)(?<![^\W\d_])(?:" + _A_CODES_WORD.pattern[4:] + r")(?![^\W\d_])")


# an alarm set for a time, not a code: "The alarm is set for 0630", "Wecker auf 0545" (a time: hours
# and minutes, "0630")
_AN_ALARM_CLOCK = lazy(r"(?i)(?:alarm\w*|wecker|réveil|despertador|sveglia|wekker|väckarklocka|vekkerklokke)[^\n]{0,30}?"
                       r"(?<!\w)(?:for|at|um|auf|à|a\s++las|alle|på|kl\.?|om|op|para)\s*+$")
_A_CLOCKS_TIME = lazy(r"(?:[01][0-9]|2[0-3])[0-5][0-9]")
_A_RADIOS_CODE = lazy(r"(?i)radio[\s-]*+code|radiocode|radijo\s++kod|c[óo]d\s++raidi|c[óo]digo\s++d[aoe]\s++(?:la\s++)?radio"
                      r"|codul\s++radio|ரேடியோ\s*+குறியீடு")


# A Wi-Fi network's key by its word for a key, told after a colon or "is": "Der WLAN-Schlüssel der
# FritzBox lautet 48291037465019283746", "Wi-Fi-nyckeln från klisterlappen: 7hJq2Wx9Rt" (8 to 63
# characters with a digit; not its length, "20-stellig")
_WIFI_KEY_TOLD = lazy(
    r"(?i)(?:(?:wlan|wi-?fi|netzwerk|router)-?schlüssel|(?:wlan|wi-?fi)-?(?:nyckel|nøgle|nøkkel)\w*"
    r"|(?:wi-?fi|wlan|wpa2?|network)[\s-]++key|(?:cl[ée]|clave|chiave)\s++(?:wpa2?|wi-?fi|wlan))"
    r"[^\n.;:]{0,40}?(?:[:=：]|\s(?:lautet|ist|is|är|er|est|es|è|é|var|was|war))\s*+[\"'„“«]?"
    r"(?![0-9]{1,2}[\s-]*+(?:stellig|digits?|chars?|characters?|zeichen|siffror|tecken|tegn|caract)"
    r"|[0-9]{4}-[0-9]{2}-[0-9]{2}(?![!-~])|[0-9]{1,2}[./][0-9]{1,2}[./][0-9]{2,4}(?![!-~]))"  # (nor a date it was changed on)
    r"(?=[!-~]*?[0-9])[!-~]{8,63}(?![!-~])"
    # or with no verb, a word for a key after the Wi-Fi's on its line, then letters and digits ending the clause
    # ("WiFi doma: mreža TP-LINK_5G_Ante, ključ kvarnerska7bura", "wifi key kvarnerska7bura"; not its kind, "key WPA2-PSK",
    # nor a key's tag, capitals and digits: "WiFi cabinet in the basement, key GB-7731-A")
    r"|(?<![^\W\d_])(?:wi-?fi|wlan|wifi-?n\w*|వైఫై)(?![^\W\d_])[^\n.;!?]{0,60}?(?<![^\W\d_])(?:key|ključ|klíč|kľúč|klucz|ключ|кључ|కీ"
    r"|raktas|atslēga|võti|avain|kulcs|cheie|schlüssel|nyckel|nøgle|nøkkel|clé|cle|clave|chiave|chave|anahtar|kunci)"
    r"[^\S\n]++(?!wpa|wep|psk|aes|tkip|sae)(?=[!-~]*?[0-9])(?=(?:[!-~]*?(?-i:[a-z])){3})[!-~]{8,63}(?![!-~])[^\S\n]*+(?:[.,;!)]|$)")


# A key box's or a lock's code in the languages whose words for a key box the PIN line above does
# not read (nor their numbers of orders, receipts and flats): told after a word for its code or for
# entering it ("Nyckelboxen … har koden 7359", "Fechadura eletrónica: … o código 9320", "öppnas med
# 4409"), after a colon or "is" when it ends the clause ("A kulcsszéf a kapu mellett: 0392.",
# "Boîte à clés … : c'est 6039."), or before what it opens ("A széfet 4417 nyitja"). Not a number
# with a unit, a currency or more digits after it (a price, a date, a model: "24000 Ft", "2024-03-12",
# "6139-6002"), nor a year but after a word for its code.
_KEY_BOX_WORDS = (r"bo[iî](?:te|tier)\s++(?:à|a|aux)\s++cl(?:[ée]s?|efs?)"
                  r"|cassett[ae]\s++(?:delle\s++|per\s++le\s++)?chiavi|nyckelbox\w*|nyckelskåp\w*|kulcssz[ée]f\w*|széf\w*"
                  r"|fechadura\w*|hộp\s++kh(?:óa|oá)")
_A_CODE_NOT_A_QUANTITY = (r"(?<![0-9])([0-9]{4,8})(?![0-9]|[^\W\d_]|[.,/:-][0-9]|\s*+(?:€|\$|£|%|ft\b|huf|kr\b|sek|eur|euro|đồng"
                          r"|đ\b|vnd|reais|r\$|cm\b|mm\b|m\b|kg\b|g\b|w\b|års|år\b|évi|évente|tal|ano|anni|année|ans\b))")
_KEY_BOX_CODE_TOLDS = lazy(
    r"(?i)(?<!\w)(?:" + _KEY_BOX_WORDS + r")(?!\w)[^\n.;!?]{0,60}?"
    r"(?:(?<!\w)(?:code|codice|combinazione|combinaison|código|koden|kod|kód(?:ja)?|kombináció\w*|kombination|senha|mã"
    r"|öppnas\s++med|åpnes\s++med|abre\s++com|abre\s++con|s['’]ouvre\s++avec|ouvre\s++avec|si\s++apre\s++con|apre\s++con"
    r"|on\s++fait|on\s++compose|bấm|nhập|tape[rz]?|digit[ae])(?!\w)\s*+[:：]?\s*+(?:(?:é|est|è|är|là|is)\s++)?[\"'«“„]?"
    + _A_CODE_NOT_A_QUANTITY
    # after a colon or "is": where the clause ends, or a comment or a particle follows ("4817 (penser à
    # brouiller après)", "7359 – glöm inte", "4486 nhé")
    + r"|(?:[:：]|(?<!\w)(?:c['’]est|est|è|é|är|là)(?!\w))\s*+[\"'«“„]?(?!(?:19|20)[0-9]{2}(?![0-9]))" + _A_CODE_NOT_A_QUANTITY
    + r"[\"'»”]?\s*+(?:[.;,!?)(\[–—]|-\s|$|(?:nhé|nha|ạ)(?!\w))"
    r"|" + _A_CODE_NOT_A_QUANTITY + r"(?<!(?<![0-9])(?:19|20)[0-9]{2})#?\s++(?:\S+\s++)?(?:nyitja|nyílik|là\s++mở|öppnar|åpner|apre|abre|ouvre)(?!\w))",
    re.M)


# what a number told beside a key box's word also is, in those languages: an order's, an article's,
# a reference's, a flat's number ("ordine: 40281734", "artikelnummer: 3112345", "lgh 1204 som öppnar"),
# a year it was installed in or is guaranteed until
_A_KEY_BOX_NUMBERS_WORD = lazy(r"(?i)(?<!\w)(?:ordine|ordinazione|commande|order|pedido|encomenda|artikel\w*|article|référence"
                               r"|ref\.?|riferimento|referência|rendelés\w*|cikkszám|lgh|lägenhet\w*|appartement|apartamento"
                               r"|appartamento|lakás|căn\s++hộ|phòng|đơn\s++hàng|n[°º]|nr\.?|numéro|numero|número|szám"
                               r"|ordernummer|artikelnummer|beställningsnummer|rendelésszám|cikkszám\w*|articolo|modèle|modell?|modelo"
                               r"|modello|típus|prix|preço|precio|prezzo"
                               r"|pris|ára|giá|poids|peso|vikt|súly|facture|fattura|factura|fatura|faktura|számla|ean|sku"
                               # or a date's: "Boîte à clés installée : 2024", "garantia: 2027"
                               r"|install\w*|instalad[ao]|telepítve|garanti[ae]?|garanzia|jótállás|bảo\s++hành|depuis|desde"
                               r"|sedan|since|année|ano|anno|år|év)\s*+[:：]?\s*+$")


# or right after it: said to be an order's ("mã 24051234 là mã đơn hàng", not "code 6039 pour la
# commande": a code left for a delivery), or a price's or a warranty's ("2499 (prix Leroy Merlin)")
_AN_ORDERS_NUMBER_AFTER = lazy(r"(?i)^\W{0,3}(?:(?:là|is|est|è|é|är)\s++(?:(?:mã|le|the|il|o|el)\s++)?(?:số\s++)?(?:đơn\s++hàng"
                               r"|order|numéro\s++de\s++commande|ordine|pedido|encomenda|beställning|rendelés\w*)"
                               r"|(?:prix|preço|precio|prezzo|pris|ára|giá|price|garantia|garantie|garanzia|garanti|€|eur))(?!\w)")


def _key_box_code_told(text: str) -> bool:
    for match in _KEY_BOX_CODE_TOLDS.finditer(text):
        group = next(group for group in range(1, (match.re.groups or 0) + 1)
                     if match.start(group) >= 0 and match[group].isdigit())
        start, end = match.span(group)
        if (not _A_KEY_BOX_NUMBERS_WORD.search(text, max(0, start - 30), start)
                and not _AN_ORDERS_NUMBER_AFTER.search(text[end:end + 40])):
            return True
    return False


# A door's, a keypad's or an intercom's code of four to six digits and a letter or two, right after the code's word
# (maybe "is", "now" or a colon): "Porters' lodge keypad is C4419X noo", "sadarbazos karis kodi K2741", "portero
# eléctrico del edificio, código 3579B"; on a line that names a door, a keypad, an intercom or a building, and no
# error's, offer's, post's, flight's, booking's, product's or order's code, nor a building code ("error code E1234 on
# the gate motor", "Building code A1234 applies to the new door")
_A_LETTERED_CODE = lazy(
    r"(?i)(?<![^\W\d_])(?:keypad|code|kodi|c[óo]digo|codice|kod|kode|koodi|digicode)(?:\s++(?:is|es|est|ist|è|é|ni|now|noo))?"
    r"(?:\s*+[:：]\s*+|\s++)(?-i:[A-Z]{1,2}[0-9]{4,6}[A-Z]?|[0-9]{4,6}[A-Z]{1,2})(?![\w-])")
_A_DOORS_LINE = lazy(r"(?i)keypad|door|gate|entrance|intercom|portero|porter|lodge|edificio|building|karis|sadarbazo"
                     r"|porta|puerta|portail|port[ãa]o|tür|deur|garage|domofon|домофон").search
_NOT_A_DOORS_CODE = lazy(r"(?i)error|fehler|erreur|fault|promo|discount|voucher|coupon|postal|zip|post\s*+code|flight|booking"
                         r"|product|model|course|tracking|order|ticket|building\s++code|regulation|standard").search


def _lettered_code(text: str) -> bool:
    return any(_A_LETTERED_CODE.search(line) and _A_DOORS_LINE(line) and not _NOT_A_DOORS_CODE(line)
               for line in text.splitlines())


def _pin_nearby(text: str) -> bool:
    for line in text.splitlines():
        if not _ON_A_PIN_LINE(line) or (_NOT_A_CODE_LINE.search(line)
                                         and not _A_RADIOS_CODE.search(line)
                                         and not any(code.search(line) for code in _A_CODE_WHATEVER_THE_LINE_SAYS)):
            continue
        customers, workout = _A_CUSTOMERS_NUMBER.search(line) is not None, None
        phones = [run.span() for run in _DIGIT_GROUPS.finditer(line) if sum(map(str.isdigit, run[0])) >= 9]
        phones += [parcel.span() for parcel in _A_UPS_PARCEL.finditer(line)] if "1Z" in line else []
        for number, start, end in _codes_on(line):
            if _FACTORY.match(line, end) or _AS_AN_EXAMPLE.match(line, end) and _TRIVIAL.fullmatch(number):
                continue  # "the PIN 0000 default on Bluetooth speakers", "uses 1234 as the example value"
            if _IN_GROUPS_OF_FOUR.search(line[max(0, start - 15):end + 15]):
                continue  # one group of a card's or an account's number: "カード番号 4242 4242 4242 4242"
            if any(first <= start and end <= last for first, last in phones):
                continue  # one group of a phone's number: "chiama il 800 123 456" (a code has eight digits at most)
            before = line[max(0, start - _LOOK_BACK):start]  # what the two searches below can need
            if customers and not _A_CODES_NAME_BEFORE.search(before):
                continue  # "Kundennummer 55120, Vertragsnummer 88213"; not "…, Alarmcode 8264"
            line_of = _A_LINES_NUMBER.search(before)
            if line_of and not _A_CODES_WORD.search(before[:line_of.start()]):
                continue  # "bus 175 to the office, then the side door code is …"; not "door code from metro 2468"
            clause = re.split(r"[.;!?—–]", before)[-1]
            if ("–" in number or "—" in number) and not (_A_DIALS_WORD.search(clause) and _A_DIALS_NUMBERS.fullmatch(number)
                                                          and _A_DIALS_NUMBERS_TOLD.search(before)):
                continue  # numbers a dash apart are a dial's only after a safe's or a dial's word, two digits each, right
                # after a colon or the dial's spin ("Cash office safe: Marco spins it 22 – 68 – 41"; not "Emergency exit
                # drill times 9 – 11 – 14", "Safe lifting module: read pages 12 – 18 – 24", "… squad: 12 – 15 – 9 kills")
            if _A_FORMATION.fullmatch(line[start:end].strip("*# ")) and _A_TEAMS_WORD.search(line):
                continue  # "Coach pinned the lineup on the locker door: 4-4-2": a team's formation
            brand = _A_BRAND_AND_MODEL.search(before)
            if (brand and not _A_CODES_WORD.search(brand[0]) and not _A_LOCKS_WORD.search(brand[0])
                    and not (_A_WALLETS_NAME.search(brand[0]) and _A_PIN_ITSELF.search(before, 0, brand.start()))):
                continue  # "Il lucchetto Abus Bordo 6000 è arrivato": a maker's model; not "Door Code 4821", nor a
                # wallet's or a bank's name after its PIN ("PIN tis Viva Wallet 2290")
            if len(number) <= 3 and _A_KEY_TAG.search(before):
                continue  # "Locker room key tag says 113": the locker's number (a code has four digits or more)
            if len(number) <= 3 and _A_NUMBER_SAID.search(before) and not _A_CODES_WORD_ALONE.search(clause):
                continue  # "La taquilla de Javi es la número 127"; not "el código es el número 482", "PIN-Nummer: 4821"
            if (len(number) <= 3 and _OPENS_WITH_A_KEY.search(line, end) and _A_LOCKERS_WORD.search(line)
                    and not _A_LOCK_OR_BOX.search(line) and not _A_CODES_WORD_ALONE.search(line)):
                continue  # "Owen's locker at the pool is 112, key on a green wristband"; not "Bike lock 907, keys…"
            said = _A_LOCKERS_NUMBER_SAID.search(before)
            if ((_A_LOCKERS_NUMBER.search(before) or said and not _OPENS_IN.search(clause)
                 and not _A_CODES_WORD.search(before, said.end()))
                    and not _A_CODES_WORD.search(clause)):
                continue  # "locker 1310 at Tesco", "gets locker 100 plus her class, so Emma has 104"; not
                # "combination for my gym locker 4721"
            if (re.fullmatch(r"(?:19|20)[0-9]{2}", number) and not line.startswith(("*", "#"), start)
                    and not line.startswith("#", end) and not re.match(r"\*[0-9]", line[end:end + 2]) and not _SET_TO.search(before)
                    and not ((pressed := _A_KEY_PRESSED_AFTER.match(line, end)) and _ENDS_A_CODES_CLAUSE.match(line, pressed.end())
                             and _IS_RIGHT_BEFORE.search(before) and not _A_YEARS_LINE.search(line))
                    and not _PIN_RIGHT_BEFORE.search(before)
                    and not (_DOOR_CODE_RIGHT_BEFORE.search(before) and _ENDS_ITS_CLAUSE.match(line, end))
                    and not (_LOCKS_CODE_STARTS_THE_SENTENCE.search(before) and _ENDS_ITS_SENTENCE.match(line, end))
                    and not (_ENDS_A_LABELS_CLAUSE.match(line, end)
                             and (_CODE_AS_A_LABEL.search(before) and _A_LOCK_ITSELF.search(line)
                                  or _CODE_AFTER_A_COMMA.search(before) and _A_KEY_BOX_ITSELF.search(line)
                                  and not _A_SHOPS_LINE.search(line)))):
                continue  # a year, unless a key and a digit follow it ("1948*0"; not a footnote's "fitted 2017*") or a key
                # pressed then ("l'alarme de la boutik c 1984 puis OK"), a lock is said to open with it ("the safe is set to 1966"), it
                # comes right after "PIN" ("Nya bankkortet kom idag, PIN 2074") or right after "code" as a
                # label on a lock's line ("…: code 1968, daarna het slot naar rechts draaien"; not "building
                # code 2021", "kassabon met code 2023")
            if _TRIVIAL.fullmatch(number) and (_an_example(before) or _EXAMPLE_AFTER.match(line, end)
                                               or a_demos_code(line, start, end) or _RESETS_TO.search(before)):
                continue  # "can't be a sequence like 1234": an example of what a PIN may not be; not "is like 4829"
            if (_A_DATE_AFTER_ON.search(before) and _date_shaped(number)
                    and (not _A_LOCKS_WORD.search(re.split(r"[.;:!?\n]", before)[-1]) or _BOUGHT_ON.search(before))):
                continue  # "battery swapped on 3 14 22"; not "Bike lock combo is set on 10-24-36"
            if _A_DATES_WORD.search(before) and _date_shaped(number) and not _A_CODES_WORD.search(clause):
                continue  # "Gym locker rental expires 31-12-25", "dossier du 12-04-19"; not "code du casier 12-04-19"
            if workout is None:  # once a line: a line of many numbers searched it whole for each
                workout = bool(_A_WORKOUT.search(line)) and not _A_LOCKS_THING.search(line)
            if workout:
                continue  # "Boxing drill: the combination 1-2-3, then slip and roll": a sport's, with no lock
            group = _GROUP_BEFORE.search(before)
            if group and _TRIVIAL.fullmatch(group[1] + number) and _an_example(before[:group.start()]):
                continue  # the second half of an example shown in groups: "esim. 123 456"
            if _SAID_UNREAL.search(re.split(r"[.;!?]\s", line[end:end + 120])[0]) and a_demos_code(line, start, end):
                continue  # "Demo PIN 4821 appears in the vendor's screenshots, not a real PIN"
            if _A_RANGE_AFTER.match(line, end) or _A_RANGE_BEFORE.search(before):
                continue  # a range of numbers: "ゼッケン番号は245から250" (bibs 245 to 250)
            if _warned_against(before):
                continue  # "Never pick a PIN like 2580 (the middle column) or 1379": any number, in a warning
            if _AN_ALARM_CLOCK.search(before) and _A_CLOCKS_TIME.fullmatch(number):
                continue  # "The alarm is set for 0630 on weekdays": a time to wake at
            if (not _NOT_A_PIN.search(before)
                    or _ONE_AT_A_TIME.fullmatch(number) and _A_SAFE_IN_A_ROOM.search(before)
                    or len(number) >= 4 and number.isdigit() and _A_SAFE_IN_A_NAMED_ROOM.search(before)
                    and _ENDS_A_CODES_CLAUSE.match(line, end)
                    or _TOLD_APART.fullmatch(number) and _BY_THE_FIRE_EXIT.search(before)
                    or _A_CODE_THEN_ITS_PLACE.search(before) and _ENDS_A_CODES_CLAUSE.match(line, end)):
                return True  # (a safe's code told after the room it is in, four digits or more or a digit at a time:
                # "Controlled drugs safe in the back prep room: 6 2 4 8 0 1", "locker in the nurses changing room -
                # 2241", ending its clause; not "order 5 5 8 2 1", "the flat number is 1 4 0 2", "locker in the changing
                # room: 12", "Safe in the back office room - 2500 float counted"), or after its name and place
                # ("Locker code at the staff changin room is 4471")
    return False


# what ends a code's clause: its end, a stop, a comma or a bracket's end
_ENDS_A_CODES_CLAUSE = lazy(r"[^\S\n]*+(?:[.,;!)]|$)")
# a key pressed after a code: "… 1984 puis OK", "… 1966 then enter", "… 1958 dann Taste #"
_A_KEY_PRESSED_AFTER = lazy(r"(?i)[^\S\n]*+,?[^\S\n]*+(?:then|puis|et|dann|und|luego|y|depois|e|poi|daarna|en|och|og|potem)"
                            r"[^\S\n]++(?:press[^\S\n]++|appuyer[^\S\n]++sur[^\S\n]++|(?:die[^\S\n]++)?taste[^\S\n]++)?"
                            r"(?:ok|enter|entr[ée]e|valider|#|\*|hash|star)(?![^\W\d_])")
# "is" right before a code, as SMS French writes "c'est" too: "l'alarme de la boutik c 1984 puis OK"
_IS_RIGHT_BEFORE = lazy(r"(?i)(?<![^\W\d_])(?:is|c|c['’]est|est|ist|es|è|é|je|jest|är|er)[^\S\n]++$")
# a line about years, a log or a distance, where a year is what is keyed ("choose 2019 then OK to see that year's events")
_A_YEARS_LINE = lazy(r"(?i)(?<![^\W\d_])(?:year\w*|ann[ée]e\w*|jahr\w*|años?|anno|log|journal|historique|history|histor\w*"
                     r"|events?|mileage|odometer|km|miles?|since|depuis|seit|desde|installed|installée?|fitted)(?![^\W\d_])")
# a number that starts or ends a range in Japanese or Chinese ("245から250", "245〜250", "245至250")
_A_RANGE_AFTER = lazy(r"\s*+(?:から|〜|～|至)\s*+[0-9]")
_A_RANGE_BEFORE = lazy(r"[0-9]\s*+(?:から|〜|～|至)\s*+$")
# the word "PIN", in capitals, right before a number: the number is the PIN, whatever it looks like
_PIN_RIGHT_BEFORE = lazy(r"(?<![A-Za-z-])PIN(?:-?[Cc]ode|-?[Kk]oden?|-?[Kk]od)?\s*+[:=]?\s*+$")  # (not a collector's "pin 2019")
# a door's or a gate's code, named so right before a year that ends its clause: "kapı kodu 1907, …", "the door
# code: 1984.", "ajtókódja: 2019, utána #" (not "Türcode 2024 geändert", when it changed)
_DOOR_CODE_RIGHT_BEFORE = lazy(r"(?i:(?<![^\W\d_])(?:door|gate|front\s++door|entry|kapı|kapi|tür|haustür|porte|portail|puerta|portón|porta"
                         r"|portão|portone|cancello|deur)\s*+(?:code|kodu?|kode|código|codice|c[óo]d)\s*+[:=]?\s*+$"
                         r"|(?<![^\W\d_])(?:ajtó|kapu)k[óo]d\w*\s*+[:=]?\s*+$)")
# an alarm's, a safe's, a locker's, a padlock's, a keypad's or a key box's code, named so at its sentence's start
# right before a year that ends the sentence: "home alarm code 1966", "Alarm code at home 1966", Thai's
# "รหัสสัญญาณกันขโมยที่บ้าน 1966" (not a fire code's edition, "the building follows the fire alarm code 2019.",
# "smoke detectors, alarm code 2018, sprinklers", nor "A riasztókód: 2018, akkor szereltük be", when it was fitted)
_LOCKS_CODE_STARTS_THE_SENTENCE = lazy(
    r"(?i:(?:^|[.!?;]\s)[^\S\n]*+(?:(?:the|my|our|his|her|home|house|burglar|mum['’]s|mom['’]s)\s++){0,2}"
    r"(?:alarm|safe|locker|padlock|keypad|key\s*+box|key\s*+safe)\s*+code(?:\s++at\s++(?:the\s++|my\s++|our\s++)?home)?"
    r"\s*+[:=]?\s*+$|(?:^|\s)riasztók[óo]d\w*\s*+[:=]?\s*+$)"
    r"|(?:^|\s)รหัส(?:สัญญาณกันขโมย|ประตู|ตู้เซฟ)(?:ที่(?:บ้าน|ร้าน|ทำงาน))?\s*+[:=]?\s*+$")
_ENDS_ITS_CLAUSE = lazy(r"[^\S\n]*+(?:[,.;!]|$)", re.MULTILINE)
# "code" as a label right before a number (at the line's start or after a colon), the number ending
# its clause, and a lock itself on the line (not a time "slot", nor "Schlosspark"); or after a comma, on
# a key box's line ("key box under the porch light, code 1948 — …"; not "Cadenas de vélo livré, code
# 2000.", a lock bought, whose product code it may be: a key box is not sold by its code)
_CODE_AS_A_LABEL = lazy(r"(?i)(?:^|[:：])\s*+(?:code|kode|kod|koodi|c[óo]digo|codice)\s*+[:=]?\s*+$")
_ENDS_A_LABELS_CLAUSE = lazy(r"[^\S\n]*+(?:[,.;!–—-]|$)", re.MULTILINE)
_A_LOCK_ITSELF = lazy(r"(?i)(?<![\w-])(?:lock|padlock|(?:het|een)\s++slot|fietsslot|cijferslot|hangslot|codeslot|deurslot"
                      r"|schloss|cadenas|candado|lucchetto"
                      r"|cadeado|kłódk\w*|lås|låset|lukko|zámek|zámku)(?![\w-])")
# a key box sold, stocked or delivered: its "code 2023" is the product's ("Amazon order: … key safe, code 2023")
_A_SHOPS_LINE = lazy(r"(?i)(?<!\w)(?:order\w*|inventory|stock|units?|arriving|arrives|delivered|delivery|bought|purchased"
                     r"|model|sku|price|shop|store|amazon|ebay)(?!\w)")
_CODE_AFTER_A_COMMA = lazy(r"(?i),\s*+(?:code|kode|kod|koodi|c[óo]digo|codice)\s*+[:=]?\s*+$")
_A_KEY_BOX_ITSELF = lazy(r"(?i)(?<![\w-])(?:key[\s-]*+box|lockbox|key[\s-]*+safe|schlüssel(?:kasten|box|tresor|safe)|boîte\s++à\s++clés"
                         r"|caja\s++de\s++llaves|sleutelkast|sleutelkluis|nyckelbox|nyckelskåp|avainkaap\w*|n[øo]kkelboks\w*"
                         r"|nøgleboks\w*)(?![\w-])")


# digits in groups, as a phone's number is written: "800 123 456", "+39 06 1234 5678"
# a UPS parcel's tracking number, its groups of digits no code: "1Z 999 AA1 01 2345 6784"
_A_UPS_PARCEL = lazy(r"(?<![A-Za-z0-9])1Z(?: ?[0-9A-Z]){16}(?![A-Za-z0-9])")
_DIGIT_GROUPS = lazy(r"(?<![\w+(])\+?(?:\([0-9]{2,4}\)|[0-9]{2,4})(?:[ .-][0-9]{2,4}){2,4}(?!\w)")  # (an area code in brackets too: "(212) 555-0148")


# a call's PIN in Cyrillic right before its digits ("ПИН конференции 44 17 90", "ПИН учесника 6927",
# "ПИН за разговора в понеделник: 55 19 03"), a combination in Afrikaans as dashed digits right after
# its word ("kombinasie 6-2-9-0"): the words alone say nothing of the numbers elsewhere on the line
_A_CALLS_PIN = lazy(
    r"(?i)(?<![а-яіa-z])(?:пин|пін)\s++(?:учесника|участника|учасника|конференци\w*|ведущего|за\s++[^\n:：0-9]{1,40}?[:：])"
    r"\s*+[:：]?\s*+[0-9](?:[ -]?[0-9]){3,7}(?![0-9])"
    r"|(?<![a-z])kombinasie\s*+[:：]?\s*+[0-9]{1,2}(?:-[0-9]{1,2}){2,5}(?![0-9-])")
_A_SLAVIC_COMBINATION = lazy(r"(?i)(?<![^\W\d_])(?:kombinacij[aeuo]|kombinac[eií]|kombinácia|kombinacj[aeęi]"
                             r"|комбинаци[яюие]|комбинациј[аеу]|комбінаці[яюї])\s*+[:：]?\s*+[0-9]{1,2}(?:-[0-9]{1,2}){2,5}(?![0-9-])")
# what a combination opens in those languages: a safe, a padlock, a lock, a locker, a cupboard (a lottery's, a chord's,
# a formation's, a bet's, a colour's or a chess opening's combination has none)
_A_SLAVIC_LOCK = lazy(r"(?i)(?<![^\W\d_])(?:sef\w*|sejf\w*|trezor\w*|kas[ae]|katanac\w*|lokot\w*|kłódk\w*|klodk\w*|szafk\w*"
                      r"|ormar\w*|omaric\w*|skříňk\w*|skrinka\w*|zámek|zámk\w*|zámok|ključavnic\w*|brav\w*|сейф\w*|сеф\w*"
                      r"|замок|замка|замк\w*|катанац\w*|шафк\w*|шкафчик\w*|шкафч\w*|ормар\w*)(?![^\W\d_])")


def _a_combination_told(text: str) -> bool:
    """A combination's digits right after its word (``_A_CALLS_PIN``'s Afrikaans, here in the Slavic languages),
    even when they read as a date, on a line that names what it opens ("kapetanov sef na brodu, kombinacija
    30-12-58"; not "Loto, dobitna kombinacija 7-14-21-28-35-39", "Trening boks: kombinacja 1-2-3-2")."""
    return any(_A_SLAVIC_COMBINATION.search(line) and _A_SLAVIC_LOCK.search(line) for line in text.splitlines())


# a PIN told in two pairs, then its clause ends ("Le NIP du terminal … est 40 57, faut pas …", "PIN is 40 57."), or
# in two threes right after its name and "is" ("Tjänstemobilens pinkod är 774 201."; not India's "PIN code is
# 560 034", a postcode)
_A_PIN_IN_GROUPS = lazy(
    r"(?i)(?<![a-z])(?:pin|nip|pin-?code|pin-?kode?|code\s++pin)(?![a-z])[^\n0-9.;]{0,60}?(?:\s(?:is|est|ist|es|è|é|er|är)|[:：=])"
    r"\s*+[0-9]{2}\s[0-9]{2}(?![0-9])(?=\s*+(?:[,.;!)]|$))"
    r"|(?<![a-z])(?:pin|nip|pin-?kode?n?)\s++(?:is|est|ist|er|är|:)\s*+[0-9]{3}\s[0-9]{3}(?![0-9])(?=\s*+(?:[,.;!)]|$))"
    # or in groups right after its name, then the key that ends it: "participant PIN 640 112 then hash"
    r"|(?<![a-z])(?:pin|nip|pin-?code|pin-?kode?n?)\s*+[:：]?\s*+[0-9]{2,4}(?:\s[0-9]{2,4}){1,3}(?![0-9])"
    r"\s*+(?:,\s*+)?(?:(?:and\s++)?then\s++(?:press\s++)?(?:the\s++)?(?:hash|pound|star|#)|#)(?:\s++key)?"
    r"(?=\s*+(?:[.,;!)]|$))")  # (the key ends its clause: not "LED on pin 12 13 then star topology")


# A parcel locker's pickup code, which hands the parcel to whoever says it, or what unlocks a phone,
# right before its number ("Abholcode 590 184", "受取コード 519 284", "Código de levantamento no
# cacifo CTT: 257 803", "Codice per sbloccare il telefono di papà: 90417", "desblokeatzeko kodea:
# 6092"): only the number its name comes right before, in the same clause (an order's, a receipt's
# or a phone's number elsewhere on the line is none: "pickup code comes by SMS; tracking number …")
_PICKUP_CODE = (r"(?<![a-z])(?:pick-?up|collection|abhol(?:ungs)?|afhaal|ophaal|upphämtnings|uthämtnings|hämt|hente"
                r"|afhentnings|nouto)[\s-]*+(?:code|kode|kod|koodi)|kod\s++odbioru|kód\s++(?:pro|k)\s++vyzvednutí|výdejní\s++kód"
                r"|code\s++de\s++retrait|codice\s++(?:di\s++)?ritiro|código\s++de\s++(?:levantamento|retirada|recogida)"
                r"|teslim\s++alma\s++kodu|受取コード|受け取りコード|取件码|取货码|取件碼|수령\s*+코드|픽업\s*+코드")
_UNLOCK_CODE = (r"(?<![a-z])(?:codice|código|codi|code|kod|kode|kód|koodi)\s++(?:per|para|pour|to|zum|om\s++te|do|för|for|til"
                r"|pentru|za|na)\s++(?:sbloccar\w*|desbloque\w*|débloquer|déverrouiller|unlock|entsperren|ontgrendelen"
                r"|odblokow\w*|låsa\s++upp|låse\s++opp|deblocare|odemknout|desbloquejar)"
                r"|(?<![a-z])(?:codice|código|codi|code|kod|kód)\s++(?:di|de|do|da|del|pentru)\s++(?:sblocco|desbloqueo"
                r"|desbloqueio|déverrouillage|desbloqueig|deblocare|odblokowania)"
                r"|(?<![a-z])(?:sblocco|desbloqueo|desbloqueio|desbloqueig|déverrouillage|unlock|entsperr|ontgrendel"
                r"|odblokowania|upplåsnings|opplåsings|odemykací|atrakinimo|atbloķēšanas|deblocare|feloldó|kilit\s++açma"
                r"|разблокировки|розблокування|ξεκλειδώματος|desblokeatzeko)[\s-]*+(?:code|codice|código|codi|kod\w*|kód\w*"
                r"|koodi|kodea|kodas|kods|kodu|код\w*|κωδικ\w*)|(?:ロック)?解除コード|잠금\s*+해제\s*+코드|հեռախոսի\s*+կոդ\w*"
                r"|திறக்கும்\s*+குறியீடு")
_CODE_RIGHT_AFTER_ITS_NAME = lazy(
    r"(?i)(?:" + _PICKUP_CODE + "|" + _UNLOCK_CODE + r")(?![a-z])[^\n0-9:：՝;,.，；。、]{0,40}?"
    r"(?:[:：՝]|\s(?:is|ist|er|är|es|est|è|é|on|je|jest|era|was|lautet))?\s*+"
    r"(?<![0-9])(?:[0-9]{2,4}(?:[ -][0-9]{2,4}){1,3}|[0-9]{4,16})(?![0-9]|[.,][0-9]|\s*+(?:€|\$|£|" + _UNIT + r"\b))"
    # or of capitals and two digits at least, as lockers print them ("Kód pro vyzvednutí … je 9K4M2P")
    r"|(?:" + _PICKUP_CODE + r")(?![a-z])[^\n0-9:：;,.，；。、]{0,40}?(?:[:：]|\s(?:is|ist|er|är|es|est|è|é|on|je|jest|era|was))?\s*+"
    r"(?<![\w-])(?-i:(?=[A-Z]*[0-9][A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]{5,10})(?![\w-])"
    # "PIN" alone in Cyrillic capitals, then a colon or a dash and the number ("ПИН на новата карта: 3186",
    # "ПИН новой карты Тинькофф: 3547"; not "ПИН … до офис 1407", a price, a default, a "пин-ап")
    r"|(?-i:(?<![А-Яа-яЁё-])ПИН(?![А-Яа-яЁё-]))(?![^\n0-9]{0,40}?(?:умолчани|заводск|фабрич|подразбиран|стандард))"
    r"[^\n0-9:：;,.]{0,40}?(?:[:：]|\s[—–-])\s*+(?<![0-9])[0-9]{4,8}(?![0-9]|[.,][0-9]|\s*+(?:руб|р\.|₽|динар|денар|лв|грн|тенге|сом))")


# what a lock goes back to by itself: "the locker code resets to 0000 when you open it"
_RESETS_TO = lazy(r"(?i)(?<!\w)(?:resets?|defaults?|goes\s++back|springt|zurück)\s++(?:to|auf|à|a)\s*+$")
# said after an example, in Korean, Chinese and Japanese: "1234 같은 연속 숫자", "1234这类", "1234のような"
_EXAMPLE_AFTER = lazy(r"\s*+(?:같은|등의|这类|這類|这样的|之类|之類|のような|などの)")


def _an_example(before: str) -> bool:
    """Whether what comes before a number says it is an example ("a sequence like "), maybe after
    other examples of the kind ("like 1234, 1111 or "), up to four."""
    for _ in range(4):
        if _FOR_EXAMPLE.search(before):
            return True
        other = _ANOTHER_EXAMPLE.search(before)
        if other is None or not _TRIVIAL.fullmatch(other[1]):
            return False
        before = before[:other.start()]
    return False


# a thing's date, whatever it is: "the padlock was bought on 12-08-23"
_BOUGHT_ON = lazy(r"(?i)(?<!\w)(?:bought|purchased|installed|replaced|fitted|delivered|ordered|gekauft|eingebaut|acheté"
                  r"|installé|comprado|instalado|comprato|installato)\s++on\s++$")
# what only a date follows: "expires ", "scheduled for ", "dossier du "
_A_DATES_WORD = lazy(r"(?i)(?<!\w)(?:expires?|expired|expiry|expiring|scheduled\s++for|due(?:\s++(?:on|by))?|dated|renew\s++by"
                     r"|valid\s++(?:until|till|through)|du|vom|del|fecha|datum|data)\s*+[:：]?\s*+$")
# a sport or a workout, whose combinations and sets are moves and counts: "boxing", "squats", "reps"
_A_WORKOUT = lazy(r"(?i)(?<!\w)(?:boxing|kickboxing|sparring|jab|uppercut|squats?|reps|deadlifts?|workout|drills?|kata|dance"
                  r"|choreo\w*|combo\s++class|tennis|set\s++scores?|boxe|boxen|entrenamiento|allenamento|training)(?!\w)")
# a thing a code opens: where one is named, a combination is its code whatever else the line says
_A_LOCKS_THING = lazy(r"(?i)lock|safe|padlock|vault|door|gate|suitcase|cadenas|candado|tresor|kluis|schloss|casier|lucchetto"
                      r"|k[łl][óo]dk|coffre|caja\s++fuerte|cassaforte")
# what a date follows: "swapped on ", "am ", "le ", "since "
_A_DATE_AFTER_ON = lazy(r"(?i)(?<!\w)(?:on|since|from|until|seit|depuis|desde|sinds)\s++$")
# what names a lock or its code in a clause: then a date's shape is its combination ("padlock reset on 3-14-27")
_A_LOCKS_WORD = lazy(r"(?i)lock|safe|combo|combination|code|pin|dial|padlock|kod|cadenas|candado|tresor|kluis|schloss|casier")


def _date_shaped(number: str) -> bool:
    """Whether ``number`` is a date written in three groups: "3 14 22", "14.3.2022"."""
    groups = re.split(r"[ ./-]", number)
    if len(groups) != 3 or not all(group.isdigit() for group in groups) or len(groups[2]) not in (2, 4):
        return False
    first, second = int(groups[0]), int(groups[1])
    return 1 <= min(first, second) <= 12 and 1 <= max(first, second) <= 31 and len(groups[0]) <= 2 >= len(groups[1])


# the group of digits right before a number, a space between: "123 " of "123 456"
_GROUP_BEFORE = lazy(r"(?<![\w.,])([0-9]{3})\s$")
# said of a code that it is none: "not a real PIN", "a made-up code"
_SAID_UNREAL = lazy(r"(?i)(?<!\w)(?:not\s++(?:a\s++)?real\s++(?:pin|code|number|one)|kein\w*\s++echte\w*\s++(?:pin|code)"
                    r"|pas\s++un\s++vrai\s++(?:code|pin)|no\s++es\s++(?:un\s++)?(?:pin|c[óo]digo)\s++real)(?!\w)")
# a warning, then "like" and maybe other numbers before: "Never pick a PIN like 2580 (the middle
# column) or ", "avoid codes such as "
_WARNING_LIKE = lazy(r"(?i)(?:(?<!\w)(?:never|don['’]t|do\s++not|nie|nicht|niemals|jamais|nunca|niet|nooit|aldrig|ikke)"
                     r"(?:\s++\w+){0,2}?\s++(?:pick|choose|use|select|set|create|wähle?n?|verwende\w*|benutze\w*"
                     r"|choisi\w*|utilise\w*|elij\w*|elegir|us[ae]s?|usar|escoj\w*|kies|gebruik\w*|välj|vælg|velg)"
                     r"|(?<!\w)avoid)(?!\w)(?![^.;!?,\n]{0,40}?(?<!\w)(?:same|samma|samme|gleiche\w*|même|mismo|stesso|zelfde))"
                     r"[^.;!?,\n]{0,40}?(?<!\w)(?<!\bis\s)(?<!\bwas\s)(?<!\bit['’]s\s)"
                     r"(?:like|such\s++as|comme|wie|como|come|zoals|jak)\s*+[\"'“„«]?$")
_A_WARNED_NUMBER = lazy(r"(?<![\w.,])[\"'“„«]?[0-9]{3,8}[\"'”“»]?(?:\s*+\([^()\n]{0,40}\))?\s*+(?:,|/|or|oder|ou|o|of|eller)?\s*+$")


def _warned_against(before: str) -> bool:
    """Whether what comes before a number is a warning against codes like it ("never pick a PIN
    like "), maybe after other numbers of the warning, up to four."""
    for _ in range(4):
        if _WARNING_LIKE.search(before):
            return True
        other = _A_WARNED_NUMBER.search(before)
        if other is None:
            return False
        before = before[:other.start()]
    return False


_FACTORY = lazy(r"(?i)\s*+(?:\(?default|factory|by\s++(?:default|the\s++factory)|ab\s++werk|par\s++d[ée]faut|por\s++defecto)")
_AS_AN_EXAMPLE = lazy(r"(?i)\s++as\s++(?:an?|the)\s++(?:example|sample|demo|placeholder)(?:\s++(?:value|pin|code))?\s*+(?:[.,;)]|$)")
_IN_GROUPS_OF_FOUR = lazy(r"(?<![0-9])[0-9]{4}(?:[ -][0-9]{4}){2,}(?![0-9])")
_FOR_EXAMPLE = lazy(r"(?i)(?:(?<!\w)(?:sequences?|patterns?|pins?|codes?|numbers?|ones|digits|something|anything|suites?|runs?"
                    r"|folgen?|sequenz\w*|secuencias?|sequ[êe]ncias?|sequenze|reeks\w*|ci[ąa]g\w*|följd\w*)\s++"
                    r"(?:like|such\s++as|comme|wie|como|come|zoals|jak|som|kuten|tipo)|(?<!\w)(?:e\.\s*+g\.,?|for\s++(?:example|instance)|z\.\s*+b\.|zum\s++beispiel"
                    r"|par\s++exemple|por\s++ejemplo|ad\s++esempio|bijvoorbeeld|np\.|örneğin|например|esim\.|t\.\s*+ex\.|p\.\s*+ex\.|f\.\s*+eks\."
                    r"|bv\.|bspw\.|pl\.|napr\.|např\.|π\.χ\.|fx\.|例如|比如|譬如|例えば|예를\s*+들어"
                    # what a code must not be: "never use obvious PINs, not 1234 or 0000"
                    r"|not|never|avoid|nicht|kein\w*|pas|jamais|nunca|mai|niet|nie))\s*+[\"'“„«]?$")
# a number no one keeps as a secret example of: one digit repeated, or digits in a row ("1234", "0000", "9876")
_TRIVIAL = lazy(TRIVIAL_CODE)
_LOOK_BACK = 120
# a number, then "or", "and" or a comma, before the next: "like 1234 or ", "z. B. 1111, "
_ANOTHER_EXAMPLE = lazy(r"(?i)(?<![\w.,])[\"'“„«]?([0-9]{3,8})[\"'”“»]?\s*+(?:,|/|or|and|oder|und|ou|et|o|y|e|of|en|или|и)?\s*+$")


# a Wi-Fi network's QR code (WIFI:T:WPA;S:…;P:password;;), and a URL's password with no user
# ("redis://:r3disPassw0rd@cache:6379")
_WIFI_QR = lazy(r"(?i)WIFI:(?:[^;\n]*;)*?P:[^;\n]{4,}")
_URL_WITHOUT_USER = lazy(r"(?i)[a-z][a-z0-9+.-]*+://:(?!" + URL_STAND_IN + r")[^\s@/]{4,}@")
_PGPASS = lazy(r"(?m)^[\w.-]+:[0-9]{2,5}:[\w*-]+:[\w*-]+:\S{4,}$")


# an account's address and its password: "PlayStation Network: ines.lopez@qq.com - Farfalla93@"
_ADDRESS_AND_PASSWORD = lazy(
    r"[:—–]\s*+[\w.+-]+@[\w-]+\.[\w.-]+\s++(?:[-–—/|]|\+(?=\s++(?![^\s\"',;]*@)[^\s\"',;]*[A-Za-z]))\s++(?P<value>[^\s\"',;]{4,100})")
# credentials as user:password after their name: "creds for the staging admin panel -> admin:vlinder"
_CREDS_PAIR = lazy(r"(?i)(?<![\w-])(?:creds|credentials|login)\b[^\n]{0,60}?(?:->|→|[:=—–])\s*+[\w.@-]{2,40}:(?P<value>[^\s\"',;]{4,100})"
                   # "creds for the family plan are sofia.lind@yandex.ru:Copper54#": with "are", an address
                   r"|(?<![\w-])(?:creds|credentials)\b[^\n]{0,60}?\s(?:are|is|sind|sont|son|são|zijn)\s++[\w.+-]+@[\w-]+\.[\w.-]+:"
                   r"(?P<value2>[^\s\"',;]{4,100})")


def _creds_pair(text: str) -> bool:
    return any(_shaped(value := (match["value"] or match["value2"]).rstrip(".")) or _made_up(value) or _a_thing(value)
               for match in _CREDS_PAIR.finditer(text))


# a known account and its password: "admin/Cornelius1994 for the printer", "root on the old pi: harb0r",
# "Laptop login: lopez / pumpkin", "admin / Anneliese", "met admin og Fm8wQ0VTWzx"
_ACCOUNT_PAIR = lazy(
    r"(?i)(?<![\w/.-])(?:admin|root|administrator|ubuntu|guest|postgres)\s*+(?:/|\s++(?:og|and|und|et|y|e|en|och)\s++)"
    r"\s*+(?P<value>[^\s\"',;/]{4,60})"
    # and after a comma, a clause of its own, of a password's shape only ("backroom: root, toor_Mooca2019"; not
    # "admin, Editor and Viewer", "File owned by root, perms0600.", "migrate: guest, alice2024, bob")
    r"|(?:^|[:：]\s*+)(?:admin|root|administrator|ubuntu|guest|postgres),\s*+(?P<comma>[^\s\"',;/]{4,60})(?=[.!]?\s*+$|[.;]\s)"
    r"|(?i:(?<![\w-])root\b[^\n:]{0,40}:\s*+(?P<root>[^\s\"',;]{4,60})\s*+$)"
    r"|(?i:(?:login|creds|credentials|údaje|accesso|zugang)[^\n:]{0,40}:\s*+[\w.@+-]{2,40}\s*+/\s*+(?P<told>[^\s\"',;/]{4,60})(?![/\w]))",
    re.MULTILINE)


# a product's default login, as its documentation gives it: "the default Grafana login is admin/admin"
_DEFAULT_LOGIN = lazy(r"(?i)default|factory|par\s++défaut|por\s++defecto|predefinit|padrão|standard|werks")
_DEFAULT_PASSWORDS = frozenset("admin password root guest changeme raspberry ubnt cisco 1234 12345 123456".split())
_DOCUMENTED = lazy(r"(?i)(?<!\w)(?:docs?|documentation|manual|guide|readme|quickstart|tutorial|handbook|anleitung|handbuch"
                   r"|documentación|documentação|documentazione)(?!\w)")
_CHANGED_OR_OWN = lazy(r"(?i)(?<!\w)(?:changed|now|new|picked|chose|set|my|our|mine|own|reachable|open|exposed|lan|ip)(?!\w)")


def _account_pair(text: str) -> bool:
    for match in _ACCOUNT_PAIR.finditer(text):
        if match["comma"] is not None:
            if _shaped(match["comma"].rstrip(".!?")) or _leet(match["comma"].rstrip(".!?")):
                return True
            continue
        value = (match["value"] or match["root"] or match["told"]).rstrip(".!?")
        if value.lower() in _DEFAULT_PASSWORDS and _DEFAULT_LOGIN.search(text) and _DOCUMENTED.search(text) \
                and not _CHANGED_OR_OWN.search(text):
            continue  # a default every copy of the product has, as its docs give it; not "my NAS: admin/admin"
        if _shaped(value) or _leet(value) or _made_up(value) or _a_thing(value) or value[:1].isupper() and value[1:].isalpha():
            return True
    return False


def _leet(value: str) -> bool:
    """A word with digits or signs for some of its letters: "harb0r", "monk3y", "Somm3rfugl", "fa1c0n"."""
    return 5 <= len(value) <= 40 and bool(re.fullmatch(r"[A-Za-z]*[a-z][0134578@$][a-z][A-Za-z0134578@$]*", value))


# a password in brackets in a list of things to do: "(DigiD ww stroopwafel)", "(pw cinnamon)",
# "(网上营业厅密码Xingxing.Kuaile79)", "(아파트 앱 비번 Gomdori.Kimchi12)"
# (a word in Latin letters is followed by a space or a colon: "(https://www.example.org/…)" holds
# "ww" and no password)
_IN_BRACKETS = lazy(
    r"[(（][^()（）\n]{0,40}?(?<![\w-])(?:(?:pw|pwd|ww|pass(?:word)?|passwort|wachtwoord|lösen(?:ord)?|hasło|senha)"
    r"(?:\s*+[:=：]\s*+|\s++)|(?:密码|密碼|비번|비밀번호|パスワード|パス)\s*+[:=：]?\s*+)"
    r"(?P<value>[^\s()（）,，;；]{3,40})\s*+[)）]", re.IGNORECASE)


def _in_brackets(text: str) -> bool:
    return any(not _not_a_value(v := match["value"]) and (
        _shaped(v) or _leet(v) or _made_up(v) or _a_thing(v) or _password_shaped(v)) for match in _IN_BRACKETS.finditer(text))


# HTTP basic authentication: "Authorization: Basic c2tvd2Fsc2tp…", a user and a password in base64
_BASIC_AUTH = lazy(r"(?i)(?<![\w-])basic\s++(?P<value>(?-i:[A-Za-z0-9+/]){8,}={0,2})(?![\w+/=])")
# "u: svc_hana p: ZKZAOxNgvTQxx&#212", "user: bob pw: …"
_U_AND_P = lazy(r"(?i)(?<![\w-])(?:u|user)\s*+[:=]\s*+\S{2,40}\s++(?:p|pw)\s*+[:=]\s*+(?P<value>\S{4,100})")


def _mixed(value: str) -> bool:
    """Ten or more characters with capitals and small letters, no placeholder: "%UfbLtaZWMVAFJNfkJ"."""
    return (len(value) >= 10 and any(c.isupper() for c in value) and any(c.islower() for c in value)
            and not _not_a_value(value) and value[:1] not in "$<{")


def _basic_auth(text: str) -> bool:
    import base64

    for match in _BASIC_AUTH.finditer(text):
        value = match["value"]
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
        except ValueError:  # not base64 (binascii.Error), or not UTF-8 (UnicodeDecodeError)
            continue
        user, colon, password = decoded.partition(":")
        if colon and password and decoded.isprintable():
            return True
    return False


_NAME_NEEDLES = ("pass", "pw", "secret", "token", "key", "auth", "cred", "senha", "passwort", "motdepasse")


def _assigned(text: str) -> bool:
    low = text.lower()
    if "define" in low and any(_a_defined_secret(match["value"]) for match in _DEFINED.finditer(text)):
        return True  # (WordPress's salts too, which name no credential the needles below know)
    if not any(needle in low for needle in _NAME_NEEDLES):
        return False
    return any(not _not_a_value(match["value"]) and (len(match["value"]) >= 8 or _shaped(match["value"]))
               for match in _ASSIGNED.finditer(text))


def _a_defined_secret(value: str) -> bool:
    """Whether a constant's value in ``define()`` is a secret: a secret's shape (``_shaped``: WordPress's
    keys, "X7K9-P2QM-R4TZ") or a made-up word ("sunshinebeach"), not a stand-in ("put your unique
    phrase here"), a scheme's name ("CRAM-MD5") or a word ("database", "required")."""
    if _A_CONSTANTS_VALUE.fullmatch(value) or _A_STAND_IN.search(value) or _A_DEFINES_STAND_IN.search(value):
        return False
    if (len(value) >= 20 and all(any(test(char) for char in value) for test in _CHARACTER_KINDS)
            and sum(_CHARACTER_KINDS[3](char) for char in value) >= 4 and value.count(" ") * 8 <= len(value)):
        return True  # WordPress's generated keys: 64 characters of every kind, a few spaces and commas among them
    if " " in value:
        return False  # words: "regenerate every 90 days", "see 1Password, item WP Prod"
    return _shaped(value) or not _not_a_value(value) and _made_up(value.strip(".!?"))


# what WordPress's and Bedrock's samples put where a key goes: "put your unique phrase here", "generateme"
_A_DEFINES_STAND_IN = lazy(r"(?i)here|generate|paste|replace|tbd|todo")


_CHARACTER_KINDS = (str.isupper, str.islower, str.isdigit, lambda char: not char.isalnum() and not char.isspace())


# PHP's constant, as wp-config defines one: "define( 'DB_PASSWORD', '…' );" (not a getter's default,
# "os.getenv('DB_PASSWORD', 'dev')", which ordinary code notes hold)
_A_CONSTANTS_VALUE = lazy(r"[A-Z]{2,}+(?:-[A-Z0-9]{1,6}){1,2}")  # "CRAM-MD5", "AES-256": a scheme, not a key
_DEFINED = lazy(r"(?i)(?<![\w>$.])define\s*+\(\s*+[\"'](?:[A-Za-z0-9_.-]{0,48}?(?:" + _NAME_ENDS + r")"
                r"|(?:secure_)?(?:auth|logged_in|nonce)_(?:key|salt))[\"']\s*+,\s*+(?P<quote>[\"'])"
                r"(?P<value>(?:(?!(?P=quote))[^\n]){4,200})(?P=quote)")


def _shaped_value(pattern: re.Pattern[str]):
    return lambda text: any(_shaped(match["value"]) for match in pattern.finditer(text))


def _pair(text: str) -> bool:
    """A user and a password (``_PAIR``): the value of a password's shape, or a word and a number
    ("user ftpuser, bluebird88"), which a user's name beside it makes a password."""
    for match in _PAIR.finditer(text):
        if match["value"] is not None:
            if _shaped(match["value"]):
                return True
            continue
        value = match["value2"].rstrip(".!?")
        if match["comma"] is None and _shaped(value):
            return True
        if match["comma"] is not None and (_shaped(value) or _A_WORD_AND_NUMBER.fullmatch(value)) \
                and _AN_ACCOUNTS_PLACE.search(text):
            return True
    return False


_A_WORD_AND_NUMBER = lazy(r"[a-z]{4,}[0-9]{2,4}")


def _flag(text: str) -> bool:
    return any(_shaped(value := match["value"].rstrip(":")) and any(char.isalpha() for char in value)
               for match in _FLAG.finditer(text))


def _made_up(value: str) -> bool:
    """A word no language has (``words.made_up``) that is not a compound about passwords
    ("salasanamanagerissa": in the password manager) or a stand-in for one ("changeme")."""
    return (words.made_up(value) and not _PASSWORD_LINE.search(value) and not _ABOUT_PASSWORDS.search(value)
            and not _A_STAND_IN.search(value) and value not in _STATES  # "changeme", "fabryczne" (the factory one)
            and not _A_STAND_IN_ELSEWHERE(value))  # "zmenit", "wijzig_mij"


# words about passwords that no word list has yet: "passkeys", "yubikeys"
_ABOUT_PASSWORDS = lazy(r"(?i)^(?:pass|key|login|token|auth|otp|2fa)|(?:pass|keys?|logins?|tokens?|auth|otp)$")


# what is said of passwords rather than of one: their manager, policy, field, reset…
_META = lazy(r"(?i)manager|app|vault|polic|field|reset|rule|requirement|hint|prompt|screen|page|form|length|strength"
                   r"|change|expir|histor|generator|list|file|store|safe|hash|salt|protect|login|storage|verwaltung|gestion"
                   r"|gestor|gerenciador|beheer|menedżer|hanterare|richtlinie|regel|feld|länge|must|should|needs|has|have"
                   r"|preferit|favorit|favourite|lieblings|préféré|preferid")


_LATIN_START = lazy(r"[^" + NO_SPACE_SCRIPTS + r"]*")


_DUTCH_BEFORE_JE = lazy(r"(?i)(?<!\w)(?:met|voor|van|aan|op|dat|hoe|als|wat|kun|kan|moet|wil|heb|hebt|deelt|geef|stuur)\s*+$")


_A_DATE = lazy(r"[0-9]{4}([-/.])[0-9]{2}\1[0-9]{2}|[0-9]{1,2}[./][0-9]{1,2}[./](?:[0-9]{2}){1,2}")


# A PIN or a card's code told in the digits of a script other than Latin ("ATM पिन ७३०५", "رمز کارت
# بانکی ۵۲۸۱", "รหัส ATM คือ ๘๒๗๓"), read in ``pin_in_other_digits`` after ``plain.ascii_digits``:
# those digits count only after a word for a PIN (a login's code of six digits or more in Arabic too,
# "رمز الدخول للابتوب ٤٥٨٢٩١٣٦"), not for a year, a price or a postal code.
_PIN_IN_OTHER_DIGITS = lazy(
    r"(?i)(?:(?<!\w)(?:pin|atm|code|kod|код)(?!\w)|پن(?!\s*+بجلی)|پین|पिन|পিন|పిన్|பின்|اے\s*+ٹی\s*+ایم|এটিএম|ఏటీఎం"
    r"|ஏடிஎம்|(?<!สินค้า)รหัส(?!ไปรษณีย์|สินค้า|วิชา)|رمز\s*+(?:کارت|عبور|ورود|ال?سري|الصراف|البطاقة|دوم|اول)|کد\s*+(?:کارت|ورود|امنیتی)"
    # (a login's code of six digits or more: not a hall's, a meeting's or an hour's number, "رمز الدخول
    # للمؤتمر في القاعة ١٢٠٥", nor a number said to be one, a ticket's or a student's, "تذكرة رقم …")
    r"|رمز\s*+الدخول(?=(?:(?!رقم)[^\n.!?]){0,25}?(?<![0-9])[0-9]{6,8}(?![0-9]))"
    # (a phone's, a laptop's, a modem's or a Wi-Fi's password in Persian, its number in its clause: "رمز
    # گوشیم ۵۹۳۱۰۷ است", "رمز وای فای خونه ۸۸۱۲۴۵۹۰ است"; not "رمز گوشی رو فراموش کردم، ساعت ۱۸۳۰ …")
    r"|رمز\s*+(?:وای\s*+فای|وای‌فای|وایفای|گوشی\w*|موبایل\w*|لپ\s*+تاپ\w*|لپ‌تاپ\w*|کامپیوتر\w*|مودم\w*|تبلت\w*)"
    r"(?=[^\n.!?،,؛]{0,25}?(?<![0-9])[0-9]{4,8}(?![0-9]))"
    r"|(?:ال)?رقم\s*+(?:ال)?سري(?![\u0600-\u06ff])|رقم\s*+(?:ال)?تعريف\s*+(?:ال)?سري|كلمة\s*+(?:السر|المرور)|暗証番号|密码|密碼|비밀번호|திறக்கும்\s*+குறியீடு)"
    r"(?!\s*+(?:کوڈ|কোড|కోడ|कोड|پستی|ไปรษณีย์))"
    r"[^\n.!?。]{0,25}?(?<![0-9])(?P<digits>[0-9]{4,8})(?![0-9])"
    r"(?!\s*+(?:دلار|تومان|تومن|ریال|روپے|रुपये|रुपए|টাকা|บาท|円|元|원|صفحه|متر|मीटर|میگاواٹ|مگاوات|%))")
_A_YEARS_WORD = lazy(r"(?:سال|عام|سنة|ปี|พ\.ศ\.|वर्ष|साल|সাল|বছর|年|년)\s*+$")


def pin_in_other_digits(text: str, read: str) -> bool:
    """Whether ``text`` holds a PIN written in another script's digits (read in ``read``, ``text``
    with its digits written 0 to 9 by ``plain.ascii_digits``, position for position): after a word for
    one; or after what it locks, as ``_pin_nearby`` finds one in digits 0 to 9 ("दादी के नए फ़ोन का
    लॉक कोड: ४७०९१३", "رمز دزدگیر خانه: ۵۹۱۳۸۲"), years, quantities and postal codes of that script
    read first as none."""
    for match in _PIN_IN_OTHER_DIGITS.finditer(read):
        start, end = match.span("digits")
        if not text[start:end].isascii() and not _A_YEARS_WORD.search(read, 0, start):
            return True
    return _A_LOCK_IN_ITS_SCRIPT.search(read) is not None and _pin_nearby(_NO_CODE_IN_ITS_SCRIPT.sub(" ", read))


# What a code opens, in the scripts whose digits ``pin_in_other_digits`` reads: a screen's, a
# door's, a safe's or a bicycle's lock, an alarm, a combination, a parental lock, a car radio, a door's
# code and a key box in Arabic ("رمز الباب ٣٨٢٧", "كود الباب ٧٧٣٠", "صندوق المفاتيح … رمزه ٣٨٢٧"), a lock's
# and a door's code in Persian ("کد قفل کمد: ۵۵۸۲"). (Not a
# word for a code alone, "رمز", "कोड", "รหัส": a share's, a course's, a postal or a country's code too.)
_A_LOCK_IN_ITS_SCRIPT = lazy(
    r"(?:ال)?خزنة|گاوصندوق|رمز\s*+(?:قفل|دزدگیر|الإنذار|درب|(?:ال)?باب|(?:ال)?بوابة)|صندوق\s*+(?:ال)?مفاتيح|کد\s*+(?:قفل|درب)|كود\s*+(?:ال)?(?:باب|بوابة|عمارة|شقة)|رمز\s*+(?:ال)?مدخل"
    r"|(?:رمز|کد)\s*+درب?\s*+(?:ورودی|خانه|ساختمان|حیاط|آپارتمان|اتاق)|صندوق\s*+کلید|جعبه\s*+(?:ی\s*+)?کلید"
    r"|قفل\s*+(?:ال)?(?:شاشة|خزنة|خزانة|دراجة|هاتف)|قفل\s*+(?:صفحه|گوشی|دوچرخه)"
    # and a card's PIN in Arabic, "the secret number" ("الرقم السري بتاع الفيزا بتاعة البنك الأهلي ٨٣٤٦")
    r"|الرقم\s*+السري"
    r"|دزدگیر\s*+(?:خانه|منزل|مغازه)|लॉक\s*+कोड|ताल(?:ा|्चा)को\s*+(?:कम्बिनेसन|कोड|नम्बर)|ताले\s*+का\s*+कोड|तिजोरी\w*\s*+(?:का\s*+)?कोड"
    # and a safe in Hindi and Gujarati, a key box in Burmese, what opens in Marathi and Gujarati (the PIN line then asks
    # for the code's shape beside them: "ઓફિસની તિજોરી ૩૬-૨૧-૫૮ થી ખૂલે છે", "ရုံးသော့သေတ္တာ — ၆ ၁ ၈ ၄")
    r"|तिजोरी|તિજોરી|သော့သေတ္တာ|ने\s*+उघड(?:ते|तो|ता)|થી\s*+ખૂલ(?:ે|ી)"
    r"|अलार्म\s*+(?:का\s*+)?कोड|รหัสผู้ปกครอง|รหัส\s*+(?:ล็อก|ตู้เซฟ|ประตู)|ล็อกหน้าจอ|สัญญาณกันขโมย|ரேடியோ\s*+குறியீடு|பூட்டு"
    r"|তালার\s*+কম্বিনেশন|(?:(?<![\u0980-\u09ff])|(?<=আন)|(?<=প্যাড)|(?<=স্ক্রিন)|(?<=ডোর)|(?<=স্মার্ট))লক(?:ের)?\s*+কোড|(?:তালা|গেট|দরজা|সিন্দুক|লকার|অ্যালার্ম)(?:ের|র)?\s*+কোড|లాక్|తాళం|कुलूप")
# a number in those scripts that is no code: a year after its word (Persian and Hijri ones too), a
# quantity before its unit, a postal, a product's or a course's code
_NO_CODE_IN_ITS_SCRIPT = lazy(
    r"(?:سال|عام|سنة|ปี|साल|वर्ष|বছর|সাল)\s*+[0-9]++|[0-9]++\s*+(?:هزار|تومان|ریال|دلار|کیلو|گیگ|گرم|متر|مللي|ملي|أمبير"
    r"|ريال|جنيه|درهم|طالب\w*|रुपये|रुपए|मीटर|वर्ग|रन|पैकेट|টাকা|বছর|บาท|กิโล|คน)"
    r"|(?:پیش\s*+شماره|کد\s*+پستی|الرمز\s*+البريدي|पिन\s*+कोड|পিন\s*+কোড|রহস্য|รหัส(?:สินค้า|วิชา|ไปรษณีย์))\s*+[0-9]++"
    # a time of day ("১৫৩০ টায়", "1530 बजे"), a Persian year after "from" or "until" ("از ۱۴۰۳"), a flat ("واحد ۱۲۰۴")
    r"|[0-9]++\s*+(?:টায়|টায়|টার|বাজে|बजे)|(?:از|تا)\s*+1[34][0-9]{2}(?![0-9])|واحد\s*+[0-9]++"
    # an Arabic flat's, a room's, a hall's or a floor's number, a number said to be one, an hour, a Hijri year ("شقة ٢٠٤", "١٤٤٥ هـ",
    # "منذ ١٤٤٥"), a request's, a ticket's or a parcel's number ("طلب الصيانة ٤٥٢١٨", "رمز التتبع ٤٥٨٢٣٧"),
    # sums in dinars, pounds, dollars, euros and tomans as said, and a Persian order's number ("کد سفارش ۸۷۲۳۱۴۵")
    r"|(?<!كود\s)(?<!كود\sال)(?:شقة|الشقة|غرفة|الغرفة|قاعة|القاعة|الطابق|الساعة|رقم|منذ)\s*+[0-9]++|[0-9]++\s*+هـ"
    r"|طلب(?:\s*+\S+)?\s*+[0-9]++|(?:رمز\s*+)?(?:ال)?تتبع\s*+[0-9]++|تذكرة(?:\s*+رقم)?\s*+[0-9]++"
    r"|[0-9]++\s*+(?:دينار|ليرة|دولار|يورو|تومن)|(?:کد\s*+)?سفارش\s*+[0-9]++")


_A_PRICE = lazy(r"[£$€¥₹]\s?[0-9][0-9.,]*")
# the words that end a question in the languages that have them: "… cho em chưa?", "… không?"
_QUESTION_PARTICLES = frozenset("chưa không chứ hả à nhé nhỉ mi mı mu mü ne".split())


# the words for a password that ``_ONE_WORD`` took from languages ``words`` has no list of (Afrikaans,
# Basque, Galician, Slovene, Lithuanian, Serbian, Croatian, Bosnian): after them, a word alone may be
# what the password is ("pogrešna", wrong), and only a value with a digit, a sign or a joiner is one
_WORD_OF_AN_UNLISTED_LANGUAGE = lazy(r"(?i)wagwoord|pasahitz|contrasinal|geslo|slapta|лозинк|lozink")


def _one_word(text: str) -> bool:
    """A one-word password at the end of its sentence: with a digit or a sign in it, said plainly
    ("it's literally maple", quoted), or a word no language has (``words.made_up``); a common word
    may be what the password is ("abgelaufen")."""
    for match in _ONE_WORD.finditer(text):
        value = match["value"] if match["quote"] else _LATIN_START.match(match["value"])[0]  # "Tanukiです": the value
        if len(value) < 3:
            continue  # "ルーターWXR-5700AX7Sの裏に記載": where it is written, not what it is
        if not match["quote"] and not match["colon"] and _said_of_a_password(value, text):
            continue  # "Passordet ditt er satt", "Het wachtwoord is onjuist": how it is (not "is 'fout'")
        if _A_PRICE.fullmatch(value.rstrip(".,;!?")):
            continue  # "day pass is £14": a price
        if (match["value"][len(value):].startswith(_HONORIFIC)
                or _WHO_KNOWS.search(text, max(0, match.start("value") - 40), match.start("value"))):
            continue  # "パスワードはAishaさんが管理", "a senha quem sabe é Sven": who keeps it
        if match["middle"] and _META.search(match["middle"]) or match["owner"] and _META.search(match["owner"]):
            continue  # "the password manager is 1Password", "password reset is done"
        if match["colon"] and text[match.end("colon"):match.end("colon") + 1].isalpha() and value.islower() and len(value) <= 5:
            continue  # a Finnish or Swedish ending after a name and a colon: "uusi on Proton Pass:ssa"
        if match["verb"] == "on" and _A_DATE.fullmatch(value) and match[0][:2].lower() in ("pa", "pw"):
            continue  # "changed the Jellyfin password on 2024-09-28": English "on", a day (Estonian "on" is "is")
        if match["verb"] == "to" and value.lower().rstrip(".!?,;") in _VERBS_AFTER_TO:
            continue  # English "to" before a verb: "one less password to remember" (Polish "to" is "is")
        if match["verb"] == "je" and _DUTCH_BEFORE_JE.search(match["middle"] or ""):
            continue  # Dutch "je" is "you": "een wachtwoord deelt met je partner"; Czech "heslo k wifi je …" is "is"
        if (_DESCRIBING.fullmatch(value) or _DESCRIBED.match(value) or _not_a_value(value) and not (
                value[0].isupper() and _WORDS_AND_DIGITS.fullmatch(value))) and not _DASHED_WORDS_AND_DIGITS.fullmatch(
                value.rstrip(".!?")):
            continue  # (not "Tz8-ulivo-faro": words joined by dashes after a mixed start are no description)
        if value.isalpha() and _WORD_OF_AN_UNLISTED_LANGUAGE.match(match[0]):
            continue  # "Lozinka je pogrešna": no list of the language's words tells a made-up one from "wrong"
        if re.search(r"[0-9!@#$%^&*?+=~]|[a-z][_-]$", value) or match["plainly"].strip() or match["quote"] or match["colon"]:
            return True
        if _made_up(value.rstrip(".!?")):
            return True  # "Das WLAN-Passwort lautet tigerbella": no language has that word
        if (value.isalpha() and len(value) >= 4 and not match["comma"] and value.lower() not in _SMALL_WORDS
                and value.lower() not in _STATES and _CASE_AFTER.match(text, match.end("value"))
                and not _DESCRIBING.fullmatch(value)):
            return True  # "pw is autumn all lowercase", "to Autumn, małymi literami": its letters are told
        if (match["verb"] in ("—", "–", "-") and value.islower() and _A_SLAVIC_PAST_TENSE.search(value)
                and text.startswith(",", match.end("value"))):
            continue  # after a dash, a word the sentence goes on from is what was done: "пароль от банка —
            # отказалась, попросила выписку" (the password for the bank — she refused, asked for a statement)
        if not match["comma"] and (match["verb"] not in ("on", "to") or value.islower()) and _a_thing(value.rstrip(".!?")):
            return True  # "pw ist sunflower", "Netflix password is tournesol (shared with sister)"
    return False


# what English says a password is for, after "to" ("one less password to remember", "a password to type")
_VERBS_AFTER_TO = frozenset("remember recall memorize memorise type enter use change reset share write keep forget get set "
                            "make give send store save create choose pick guess crack update rotate manage know learn "
                            "protect unlock open access".split())


# A list of passwords after their plural name: "Passwords so far: modem kes261trel, NAS
# lighthouse7585, camera app snowdrop9184." Each item ends with its value; one that looks like a
# password is enough ("Passwords: use a manager, never reuse them" has none).
_PASSWORDS_LISTED = lazy(
    r"(?i)(?<!\w)(?:passwords|passwörter|kennwörter|contraseñas|senhas|mots\s++de\s++passe|wachtwoorden|hasła|lösenord"
    r"|passord|password\s++list)(?:\s++(?:so\s++far|for\s++now|list|below))?(?:\s++[\w'’]++){0,6}?\s*+[:：]\s*+(?P<items>[^\n]+)")
_WHERE_WORDS = frozenset("via in at on by from for to under collection entry vault item folder the a an".split())


def _passwords_listed(text: str) -> bool:
    for match in _PASSWORDS_LISTED.finditer(text):
        for item in re.split(r"[,;]\s*+|\s++(?:and|und|et|y|e|en)\s++", match["items"]):
            words = item.split()
            if len(words) < 2 or words[-2].lower() in _WHERE_WORDS:
                continue  # "kept in Bitwarden, collection team-infra-2024" says where they are
            if _password_shaped(value := words[-1].rstrip(".!")) or _joined_words(value) or (
                    _made_up(value) and value.islower()):
                return True
    return False


# A password right after the word for one, with nothing between: "ww fiet652sbel", "şifresi
# SIMIT28, unutmayayım…", "contraseña cobaltbanjokestrel para entrar". With no verb or colon to say
# a value follows, it must look like one (digits or signs, capitals and digits, a word no language
# has) and end its clause: "password reset", "wachtwoord vergeten" and "password bcrypt hashing" pass.
_BARE_VALUE = lazy(
    r"(?i)(?<!\w)(?P<word>ww|pw|pwd|password|pasword|passwrd|passowrd|passwort|kennwort|contraseña|senha|wachtwoord|hasło"
    r"|lösenord|passord|salasana|heslo"
    r"|jelszó|parola|şifresi|şifre|mdp|mật\s++khẩu|kata\s++sandi"
    # the languages whose words the gate has no list of, and a compound: "Erstpasswort", "nettverkspassordet"
    r"|" + _UNLISTED_PASSWORD_WORDS + r"|\w{2,12}(?:passwort|passord(?:et)?|wachtwoord|lösenord(?:et)?|kodeord(?:et)?))"
    r"\s++(?P<value>[^\s\"'”’»,;()]{5,40}?)[.!]?"
    r"(?=\s*+(?:[,;)]|$)|\s++(?:para|for|pour|per|für|voor|til|do|diye|to\s)\b)")


def _bare_value(text: str) -> bool:
    for match in _BARE_VALUE.finditer(text):
        value = match["value"]
        if _CHANGED_BEFORE.search(text, max(0, match.start() - 20), match.start()):
            continue  # "Keanu sẽ tự đặt lại mật khẩu ledgerline": the password of a service is reset
        if re.fullmatch(r"[A-Z]{4,}[0-9]{2,4}[!?#$%&*]?", value) and not _NOT_MADE_UP.fullmatch(value):
            return True  # a word in capitals and a number ("SIMIT28"), which a name in code is not
        if _plain_words_joined(value, text):
            return True  # "wachtwoord zomerdijk.fietspad", "senha gaivotas_do_tejo"
        if (_not_a_value(value) or _DESCRIBING.fullmatch(value) or _META.search(value) or value.lower() in _STATES
                or _AT_A_RELATIVE.fullmatch(value) or _said_of_a_password(value, text)):
            continue
        if _password_shaped(value) or _DASHED_WORDS_ANY_CASE.fullmatch(value.rstrip(".!")):
            return True  # (words joined by dashes and a number last, right after the word: "sarmale-bunica-3")
        if value.isalpha() and value.islower() and _made_up(value) and not _WORD_WITHOUT_A_LIST.fullmatch(match["word"]):
            return True  # (a made-up word is told only in the languages whose words the gate has)
    return False




# What says how a password is rather than what it is: a participle or an adjective by its ending
# in the languages the gate reads ("printed", "expiring", "guessable", "abgelaufen", "cambiada",
# "changé"), and a few such words no ending shows.
_STATE_ENDING = lazy(
    r"(?:ed|ing|able|ible|ful|less|ive|ous|ic|ent|ant|ary|ory|ly|ish|al|ated|iert|ado|ada|ido|ida|ato|ata|ito|ita"
    r"|é|ée|és|ées|at|ad|ig|isch|lich|bar|los|sam)$"
    r"|^(?:ab|an|auf|aus|ein|um|zu|ver|be|er|vor|nach|zurück)?ge[a-zäöüß]{3,}(?:t|en)$")
_STATES = frozenset(
    "random unique secure insecure compromised leaked known gone sent ready done active inactive blank trivial obvious"
    " memorable personal shared same short long weak strong simple easy hard cool nice great fine best worst bad good"
    " real fake true false yes no off up down away back out over under upstairs downstairs inside outside somewhere"
    " everywhere nowhere anywhere everything something anything nothing ours yours mine theirs hers his its whose"
    " what which who why how when where unchanged unset still again already else there here then now later soon"
    " today tomorrow yesterday tonight tricky complicated weird strange funny annoying silly stupid boring awful"
    # the same in the other languages the gate reads
    " vide vides vazia vazio vacía vacío vuota vuoto leer leeg tomt pusty puste boş пустой пустая falsch richtig"
    # "still the factory one": "nadal jest fabryczne", "ist noch werkseitig"
    " fabryczne fabryczny fabryczna domyślne domyślny domyślna werkseitig standardowe predeterminada predeterminado"
    " predefinita predefinito standaard"
    " juste faux court courte longue corto corta larga largo lungo lunga trop debole faible schwach sicher sûr seguro"
    " segura sicuro kurz lang nuevo nueva nouveau nouvelle neu nieuw nowe novo nova vecchio ancien alt oud viejo vieja"
    " igual même gleich hetzelfde ainda encore noch todavía ancora"
    # expired: "la password … è scaduta"
    " scaduta scaduto scadute scaduti vencida vencido caducada caducado expirada expirado expiré expirée verlopen"
    " wygasło wygasła wygasłe istekla isteklo utgått udløbet utløpt vanhentunut lejárt".split())


# What a password is said to be, in the languages of the translation catalogs of Django and Home
# Assistant ("Passordet er feil", "Lösenordet är felaktigt", "Je wachtwoord is ingesteld": wrong,
# set…; docs/reliability.md, "Labels from translation catalogs"): each language's words, read only
# where that language's word for a password is, and whole (not "sette", seven, for Norwegian "sett")
_SAID_OF_A_PASSWORD = tuple((lowered_search("(?i)" + word), frozenset(said.split())) for word, said in (
    (r"passord|adgangskode|kodeord",
     "feil forkert galt ugyldig ugyldigt gyldig gyldigt riktig riktigt rigtig rigtigt korrekt satt sett endret endra ændret"
     " byttet tilbakestilt nullstilt nulstillet påkrevd påkrævet sendt lagret gemt låst blokkert blokeret sperret spærret"),
    (r"l[öo]senord",
     "fel felaktigt felaktig ogiltigt ogiltig giltigt giltig rätt riktigt korrekt satt ändrat ändrad bytt återställt"
     " återställd nollställt krävs obligatoriskt skickat sparat låst spärrat blockerat"),
    (r"wachtwoord",
     "onjuist juist fout verkeerd ongeldig geldig correct ingesteld gewijzigd veranderd gereset hersteld vereist"
     " verplicht verstuurd verzonden opgeslagen vergrendeld geblokkeerd vergeten"),
    (r"has[łl]|haśl",
     "nieprawidłowe nieprawidłowy prawidłowe prawidłowy niepoprawne niepoprawny poprawne poprawny błędne błędny"
     " nieważne zmienione ustawione zresetowane wymagane wysłane zapisane zablokowane"),
    (r"salasan|salasõn",
     "väärä väärin virheellinen oikea oikein vaihdettu asetettu nollattu pakollinen lähetetty tallennettu lukittu estetty"),
    (r"hesl",
     "nesprávné nesprávne správné správne neplatné platné změněno zmenené nastaveno nastavené nenastaveno nenastavené"
     " resetováno povinné odesláno uloženo zamčeno blokováno zablokované špatně"),
    (r"jelsz", "hibás helytelen helyes érvénytelen érvényes megváltozott beállítva kötelező elküldve mentve zárolva"),
    (r"[şs]ifre|parola",
     "yanlış hatalı doğru geçersiz geçerli değiştirildi ayarlandı sıfırlandı gerekli gönderildi kaydedildi kilitli"),
    (r"parol",
     "greșită greșit gresita incorectă corectă invalidă validă schimbată setată setata resetată obligatorie trimisă"
     " salvată blocată"),
    (r"sandi|laluan", "salah benar diubah diatur disetel wajib dikirim disimpan terkunci diblokir"),
    (r"password|parola",
     "sbagliata sbagliato errata errato corretta corretto valida impostata cambiata modificata reimpostata obbligatoria"
     " inviata salvata bloccata"),
    (r"senha|palavra[\s-]++passe",
     "errada errado incorreta incorreto correta correto inválida válida alterada definida redefinida configurada"
     " obrigatória enviada guardada bloqueada incorretos incorretas expirou expirada trocada mudou"),
    (r"contrase[ñn]a",
     "incorrecta correcta equivocada errónea inválida válida cambiada establecida restablecida configurada obligatoria"
     " enviada guardada bloqueada incorrectos incorrectas"),
    (r"mot\s++de\s++passe|(?<![a-z])mdp(?![a-z])",
     "erroné erronée invalide valide modifié modifiée changé changée défini définie réinitialisé réinitialisée"
     " obligatoire requis envoyé envoyée enregistré enregistrée bloqué bloquée verrouillé verrouillée incorrects"
     " incorrectes"),
    (r"passwort|kennwort",
     "falsch ungültig gültig geändert gesetzt zurückgesetzt erforderlich gesendet gespeichert gesperrt blockiert"),
    (r"κωδικ|συνθηματικ", "λανθασμένος λανθασμένο λάθος σωστός σωστό άκυρος άκυρο έγκυρος έγκυρο"),
    # one-time, as a notice of one says ("Notifica la password monouso", "z hasłem jednorazowym")
    (r"password", "monouso"),
    (r"has[łl]", "jednorazowe jednorazowym jednorazowy jednorazowego"),
))


# what tells a value rather than a state, right before it: a colon, a quote
_TOLD_AS_A_VALUE = lazy(r"[:：\"'«“„‘]\s*+$")


_ANY_SAID = frozenset(word for _, said in _SAID_OF_A_PASSWORD for word in said)


def _said_of_a_password(value: str, text: str) -> bool:
    """Whether ``value`` is what ``text``'s language says a password is ("feil" beside "passord")."""
    value = value.rstrip(".,;:!?»\"'”").lower()
    return value in _ANY_SAID and any(value in said and names(text) for names, said in _SAID_OF_A_PASSWORD)


# who keeps it, not what it is: a relative with the Turkish "at" ("Netflix şifresi ablada": with her
# sister), a person named with an honorific ("Aishaさんが管理"), or after "who knows it is" ("quem sabe é Sven")
_AT_A_RELATIVE = lazy(r"(?i)(?:abla|anne|baba|abi|ağabey|kardeş|eş|teyze|hala|dayı|amca|dede|nine|babaanne|anneanne"
                      r"|kuzen|oğl|kız)\w{0,4}?(?:da|de|ta|te)")
_HONORIFIC = ("さん", "くん", "ちゃん", "様", "さま", "氏", "씨", "님", "先生")
_WHO_KNOWS = lazy(r"(?i)(?<!\w)(?:quem|qui[ée]n|wer|qui|chi|who|kto|кто|хто|wie|vem|hvem|kuka|kim|ki)\s++(?:sabe|wei(?:ß|ss)"
                  r"|sait|conna[iî]t|conosce|sa|knows|zna|знает|знає|weet|vet|ved|tiet[äa][äa]|bilir|tudja)\s++\S+\s*+$")


# what a rule for passwords says a password does: "Das Passwort braucht einen großen Buchstaben"
_RULE_VERBS = frozenset(
    "needs need must should contains contain requires require has have takes uses braucht benötigt muss soll"
    " enthält hat heeft moet bevat vereist necesita debe contiene requiere lleva precisa deve contém exige doit"
    " contient nécessite richiede contiene serve".split())


def _a_thing(value: str) -> bool:
    """Whether ``value``, told as a password with nothing else in its clause, is a word that names
    a thing (``sunflower``, ``tournesol``, ``Midsommar``) rather than one that says how the
    password is (``printed``, ``expiring``, ``random``): people make passwords of common words."""
    if value[:1].isupper() and value[1:].islower():
        value = value.lower()  # "Zonnebloem", "Limone"
    stem = re.sub(r"(?:as|os|es|a|o|e|s)$", "", value)  # "incorrecta", "corretto": what "incorrect" says
    return (value.isalpha() and value.islower() and 4 <= len(value) <= 20 and value not in _STATES
            and stem not in _STATES and value not in _SMALL_WORDS and not _DESCRIBING.fullmatch(value)
            and not _DESCRIBING.fullmatch(stem) and not _STATE_ENDING.search(value))


def _on_a_command_line(value: str) -> bool:
    """A password option's value: one that looks like a password, or a quoted phrase of words
    (``redis-cli -a 'the garden gnome'``)."""
    if " " in value.strip():
        return not re.match(r"\s*+(?:\$[({]|<|%\w+%)", value)  # "$(pass show infra/redis)" is a reference
    return _shaped(value) or _leet(value) or _password_shaped(value) or _mixed(value)


def _after_login(text: str) -> bool:
    told = (_AFTER_LOGIN.finditer(text) if any(sign in text for sign in _AFTER_LOGIN_SIGNS) else (),
            _USED_AS.finditer(text) if _AS(text) else ())
    for match in itertools.chain(*told):
        value = match["value"]
        if value and not value.isalpha() and (
                _shaped(value) or re.search(r"[0-9!#?.]", value) and not _DESCRIBING.fullmatch(value)):
            return True
    return False


# a name in code made of words ("OAuth2PasswordBearer", "SQLAlchemyEngineFactory"): no random token
# (possessive: each part starts with a kind of character the one before cannot end with, so no part
# gives back what it took; as written with plain quantifiers, a run of 40 small letters before a sign
# was cut into parts every way there is, minutes for one token)
_WORDS_JOINED = lazy(r"(?:[A-Z]{1,4}[a-z]{2,}+|[a-z]{2,}+|[0-9]{1,2}+)++")


_A_COMMIT = lazy(r"(?i)\b(?:commit|sha(?:-?1|-?256)?|revision|rev|fixed\s++in|merged|hash|digest|checksum|fingerprint)\b")


# what every match of ``_HEX_AFTER_KEY`` holds: 32 hexadecimal digits, a UUID's first groups, or 20 after a colon
_HEX_RUN = lazy(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-)|[:：=]\s*+[0-9a-fA-F]{20}")


# what every random token and every hex run or UUID ``_random_on_a_key_line`` looks for holds
_A_LONG_RUN = lazy(r"[A-Za-z0-9_+/=.-]{20}").search


def _random_on_a_key_line(text: str) -> bool:
    if not _A_LONG_RUN(text):
        return False
    return any(_ON_A_KEY_LINE(line) and (_HEX_RUN.search(line) and _HEX_AFTER_KEY.search(line)
                                         and not _A_COMMIT.search(line) or any(
        not _DESCRIBED.match(token) and not _not_a_value(token) and not _WORDS_JOINED.fullmatch(token)
        for token in _RANDOM_TOKEN.findall(line)))
        for line in text.splitlines())


# A random token with nothing said about it: the whole text, or a line of its own (a list's dash or
# number, a quote's ">", quotes, backticks or stars around it) under a line that names a key, a
# token, a secret or a password ("Prod keys:\n- Zq8v…"). Under any other line it is an id a note
# keeps ("Channel id:\nUCuAX…", "Failing test:\ntestUserCan…"), and passes.
_LONE_LINE = lazy(r"(?m)^[^\S\n]*+(?:[-*•>][^\S\n]++|[0-9]{1,2}[.)][^\S\n]++)?[\"'`*(]{0,2}"
                  r"([A-Za-z0-9_+/-]{24,200}={0,2})[\"'`*).,;]{0,3}[^\S\n]*+$")
_NAMES_A_KEY_ABOVE = lowered_search(_KEY_WORDS + r"|(?<![a-z])keys?(?![a-z])|" + _PASSWORDS_WORDS.removeprefix("(?i)"))
# what is public of a key, or a key that opens nothing ("Host key fingerprint:", "Public key:",
# "Wallet address:", "Primary key of the row:", "Cache key:"), when the line names no secret too
# ("Secret key (never make it public):" names one)
_PUBLIC_ABOVE = lowered_search(
    r"(?i)fingerprint|(?<![a-z])public(?![a-z])|(?<![a-z])pub\s*+key|host\s*+key|checksum|address|issuer|(?<![a-z])mint(?![a-z])"
    r"|contract|program\s*+id|recipient"
    r"|(?:primary|foreign|cache|sort|partition|idempotency|row|lookup|object|s3|map|dict|index)\s*+keys?(?![a-z])")
_A_SECRET_ABOVE = lowered_search(r"(?i)secret|private|password|passwort|api\s*+key|credential|(?<![a-z])auth(?![a-z])"
                                  r"|keep\s++(?:it\s++)?safe|do\s++not|don['’]t|never|admin|signing")
# what is public, or an id, though it looks random: a digest after its algorithm ("sha512-…"), an
# object's id after its kind ("pi_3NtY…", "cus_…"; not "key_", "live_", "api_"), an address in hex
# ("0x71C7…", 40 digits), an extended public key ("xpub…"), an IPFS CID ("Qm…"); a file in base64
# (PNG, JPEG, GIF, PDF, ZIP). A public key's, a certificate's or an SSH key's body is told by its
# structure (``_a_public_body``); a private key's is found before this (``providers``).
_PUBLIC_SHAPE = lazy(
    r"sha(?:1|224|256|384|512)-"
    r"|(?!(?:key|keys|api|live|test|prod|secret|token|tok|pat|auth|pass|pwd|access|private|priv|sk|rk|whsec|session|sess)_)[a-z]{2,8}_"
    r"|0x[0-9a-fA-F]{40}$|[xyztuvYZUV]pub|Qm[1-9A-HJ-NP-Za-km-z]{44}$|iVBORw0KGgo|/9j/|R0lGOD|JVBERi0|UEsDB")
_BASE58_ONLY = lazy(r"[1-9A-HJ-NP-Za-km-z]+")
_CAMEL_PARTS = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])").findall


def _kind(char: str) -> str:
    return "A" if char.isupper() else "a" if char.islower() else "0" if char.isdigit() else "."


def _random_kinds(token: str) -> bool:
    """Whether capitals, small letters and digits follow one another as in a random string: the
    kind changes at two characters in five or more. It does so in 19 random strings of 24 letters
    and digits in 20 (six in ten at the median), and at about one in three in a test's or a
    function's name ("test_parseISO8601DurationWithFractionalSeconds": 0.27)."""
    changes = sum(_kind(first) != _kind(second) for first, second in zip(token, token[1:]))
    return changes >= 0.4 * (len(token) - 1)


def _named_in_words(token: str) -> bool:
    """Whether words of three letters or more (the token split where its case changes) make half
    its letters or more: a name made of words ("getS3PresignedUrlV2ForUpload",
    "testUserCanLoginWithOAuth2AndPKCE"). One random string of letters and digits in a hundred
    has as many."""
    letters = sum(char.isalpha() for char in token)
    named = sum(len(part) for part in _CAMEL_PARTS(token) if len(part) >= 3 and words.is_common(part))
    return named * 2 >= letters


def _a_public_body(token: str) -> bool:
    """Whether ``token`` starts as a public key's, a certificate's or a request's body does (DER: a
    SEQUENCE whose first element is a SEQUENCE: "MFkwEwYH…", "MIIBIjAN…", "MIIC…CCA"; or RSA's
    modulus in PKCS #1: "MIIBCgKCAQEA…") or as an SSH
    public key's ("AAAAC3NzaC1lZDI1NTE5…": a length, then "ssh-" or "ecdsa-"). A private key's
    body holds a version number there, and is found by ``providers``."""
    import base64
    import binascii

    first = der_inside(token)
    if first is not None:
        # a SEQUENCE; or an INTEGER longer than a version's byte, an RSA public key's modulus in PKCS #1
        # ("MIIBCgKCAQEA…", "MEgCQQC7…")
        return first[:1] == b"\x30" or first[:1] == b"\x02" and first[1:2] not in (b"", b"\x01")
    try:
        data = base64.b64decode(token[:12].replace("-", "+").replace("_", "/"))
    except (binascii.Error, ValueError):
        return False
    return data[4:8] in (b"ssh-", b"ecds", b"sk-s", b"sk-e")


def _public_by_its_checksum(token: str) -> bool:
    """An address whose base58 checksum holds: Bitcoin's, Litecoin's, Dogecoin's (21 bytes), Tezos's
    (23 bytes); or Polkadot's and Kusama's (SS58: a network, 32 bytes, two bytes of BLAKE2b)."""
    if len(personal.base58check(token) or b"") in (21, 22, 23):
        return True
    if not 46 <= len(token) <= 48 or not _BASE58_ONLY.fullmatch(token):
        return False
    from hashlib import blake2b

    from libipld import decode_multibase

    data = decode_multibase("z" + token)[1]
    return len(data) == 35 and blake2b(b"SS58PRE" + data[:-2], digest_size=64).digest()[:2] == data[-2:]


def _above(text: str, start: int) -> str:
    """The line a list's item is under: the nearest line above ``start`` (a line's start) that is
    no item of the same list ("Prod keys:" above "- ok" and "- Zq8v…"), at most ten lines up; read
    back from ``start``, not from the text's start (a text of many such lines took seconds)."""
    end = start - 1  # the line break that ends the line above
    for _ in range(10):
        if end < 0:
            return ""
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end]
        if line.strip() and not _AN_ITEM.match(line):
            return line
        end = begin - 1
    return ""


_AN_ITEM = lazy(r"[^\S\n]*+(?:[-*•>]|[0-9]{1,2}[.)])[^\S\n]")


def _a_lone_token(text: str) -> bool:
    if not _A_LONG_RUN(text):
        return False
    whole = text.strip()
    for match in _LONE_LINE.finditer(text):
        token = match[1]
        alone = match[0].strip() == whole
        if not alone:  # a line of a longer text: only under a line that names a key
            above = _above(text, match.start())
            if not above or not _NAMES_A_KEY_ABOVE(above) or _PUBLIC_ABOVE(above) and not _A_SECRET_ABOVE(above):
                continue
        if (_RANDOM_TOKEN.fullmatch(token) and _random_kinds(token) and not _WORDS_JOINED.fullmatch(token)
                and not _PUBLIC_SHAPE.match(token) and not _named_in_words(token) and not _a_public_body(token)
                and not _public_by_its_checksum(token)
                # 43 or 44 of base58's letters, with nothing said: a Solana address or program's id
                and not (alone and len(token) in (43, 44) and _BASE58_ONLY.fullmatch(token))):
            return True
    return False


# a one-time link's token in its path: a password reset's, a magic sign-in link's, an invitation's
# ("https://app.example/auth/reset/FXJrkExSbfZM2eFUYy8ns1_Nh8fH…"), as "?token=…" is in its query
_ONE_TIME_LINK = lazy(
    r"(?i)://[^\s/]++(?:/[^\s/?#]*+)*?/(?:reset|reset[_-]?password|password[_-]?reset|magic(?:[_-]?link)?|verify|verification"
    r"|confirm|invite|invitation|activate|activation|token|login[_-]?link|sign[_-]?in[_-]?link|passwordless)"
    r"/(?P<token>[A-Za-z0-9_-]{20,200})(?![A-Za-z0-9_-])")
_ONE_TIME_LINK_NEEDLES = ("reset", "magic", "verif", "confirm", "invit", "activat", "token", "login", "sign", "passwordless")


def _one_time_link(text: str) -> bool:
    """A random token (letters of both cases and digits, or 32 hexadecimal digits and more) in a
    one-time link's path."""
    for match in _ONE_TIME_LINK.finditer(text):
        token = match["token"]
        if _RANDOM_TOKEN.fullmatch(token) or re.fullmatch(r"[0-9a-fA-F]{32,}", token) and re.search("[a-f]", token.lower()):
            return True
    return False


_PASSWORD_NEEDLES = ("pass", "pw", "kennwort", "mot de passe", "mdp", "contraseña", "clave", "senha", "wachtwoord",
                     "hasło", "lösenord", "passord", "adgangskode", "salasana", "heslo", "jelszó", "parola", "κωδικός",
                     "συνθηματικό", "şifre", "пароль")
_KEY_NEEDLES = ("secret", "token", "key", "auth", "cred", "clave", "chiave", "clé", "cle", "schlüssel", "sleutel",
                "klucz", "nyckel", "nøgle", "anahtar", "ключ", "токен", "키", "密钥", "密鑰", "秘密鍵", "キー", "トークン", "chave", "cookie", "session")
# (reason, check, needles): a check runs only where one of its needles is, in the text in lower case
_CHECKS = (
    ("looks like a credential assignment", _assigned, ("=", ":", "',", '",', "define")),
    ("looks like a labelled credential", _shaped_value(_LABELLED), _PASSWORD_NEEDLES + _KEY_NEEDLES + ("login",)),
    ("looks like a labelled credential", _pair,
     ("login", "cred", "user", "benutzer", "utilisateur", "usuario", "account")),
    ("looks like a labelled credential", _shaped_value(_AFTER_COLON_PAIR), (" / ",)),
    ("looks like a labelled credential", _pair_of_joined_words, (" / ",)),
    ("looks like a credential on a command line", _flag, ("-p", "--", "-t", "-u")),
    ("looks like a labelled credential", _one_word, _PASSWORD_NEEDLES + (
        "contra", "security word", "ww", "lösen", "пасс", "mật khẩu", "kata sandi", "jelsza", "salis", "verbal password",
        "parola d", "kodeord", "パスワード", "סיסמ", "wagwoord", "pasahitz", "contrasinal", "contrasenya", "geslo", "slaptažod",
        "slaptazod", "лозинк", "lozink", "κωδικό")),
    ("looks like a labelled credential", _PIN.search, ("pin", "code", "combination", "şifre", "kod", "código", "codigo",
                                                       "door", "gate", "alarm", "safe", "garage", "lockbox", "keypad",
                                                       "codi", "codice", "turvakood", "cod de", "mã bảo", "安全碼", "コード")),
    ("looks like a labelled credential", _URL_PASSWORD.search, ("://",)),
    ("looks like a labelled credential", _passwords_listed,
     ("passwords", "passwörter", "kennwörter", "contraseñas", "senhas", "mots de passe", "wachtwoorden", "hasła",
      "lösenord", "passord", "password list")),
    ("looks like a labelled credential", _bare_value, ("ww", "pw", "pwd", "passw", "kennwort", "contraseña", "senha",
                                                       "mật khẩu", "kata sandi", "parole", "paroli", "parool", "geslo", "lozink",
                                                       "slaptažod", "fjalëkalim", "fjalekalim", "laluan", "lykilorð", "pasahitz",
                                                       "contrasinal", "pasfhocal", "cyfrinair", "kodeord",
                                                       "wachtwoord", "hasło", "lösenord", "passord", "salasana", "heslo",
                                                       "jelszó", "parola", "şifre", "mdp", "pasw", "passo")),
    ("looks like a labelled credential", _latin_value_in_another_script,
     ("пароль", "паролем", "парол", "كلمة", "密码", "密碼", "口令", "パスワード", "비밀번호", "비번", "암호", "סיסמ",
      "รหัสผ่าน", "पासवर्ड", "лозинк", "رمز", "கடவுச்சொல்") + _OTHER_SCRIPTS_NEEDLES),
    ("looks like a labelled credential", _shaped_value(_ORACLE_LOGIN), ("jdbc:oracle", "sqlplus")),
    ("looks like a labelled credential (HTTP basic authentication)", _basic_auth, ("basic",)),
    ("looks like a labelled credential", _shaped_value(_ADDRESS_AND_PASSWORD), ("@",)),
    ("looks like a labelled credential", _creds_pair, ("cred", "login")),
    ("looks like a labelled credential", _account_pair, ("admin", "root", "ubuntu", "guest", "postgres", "login",
                                                         "cred", "údaje", "accesso", "zugang")),
    ("looks like a labelled credential", _in_brackets, ("(", "（")),
    ("looks like OpenShift's kubeadmin password", _KUBEADMIN.search, ("kubeadmin",)),
    ("looks like a PIN or a lock's code", _UNLOCKS_WITH_A_NUMBER.search,
     ("desbloque", "déverrouill", "deverrouill", "sblocc", "ontgrendel", "entsperr", "κλειδ", "χρηματοκιβ")),
    ("looks like a credential on a command line", lambda t: any(_on_a_command_line(m["quoted"] or m["value"])
                                                               for m in _COMMAND_SECRET.finditer(t)),
     ("redis-cli", "ldap", "mysql", "mariadb", "rabbitmqctl", "htpasswd", "net user", "sshpass", "smbclient", "mongo",
      "rclone", "curl", "zip", "7z", "sqlcmd", "bcp")),
    ("looks like a labelled credential", _shaped_value(_U_AND_P), ("p:", "pw:", "p=", "pw=")),
    ("looks like a labelled credential", _after_login, ("login", "user", "benutzer", "登录", " as ")),
    ("looks like the answer to a security question", _security_answer,
     ("security", "secret question", "memorable", "verification", "vopros", "pytann", "kitxv", "maiden", "first pet", "first car", "sicherheitsfrage",
      "sicherheitsantwort", "risposta di sicurezza", "resposta de seguran", "réponse de sécurité", "reponse de securite",
      "antwoord op", "odpowied",
      "geburtsname", "domanda", "pergunta", "pregunta", "question secr", "beveiligingsvraag", "контрольн", "秘密の質問",
      "보안", "güvenlik", "pytanie", "answer to", "answer for", "asks", "secret answer", "sikkerhed", "секретн", "密保", "安全问题", "安全問題", "安全提問", "安全提问", "密保問題", "सिक्योरिटी",
      "recovery question", "they ask", "sikkerhetssvar", "sikkerhedssvar", "säkerhetssvar",
      "grew up", "parents met", "teacher", "childhood", "säkerhetsfråga", "sakerhetsfraga", "resposta secreta",
      "respuesta secreta", "réponse secr", "reponse secr", "geheime antwort", "respuesta de seguridad", "domanda segreta",
      "nickname", "verbal password", "reset question", "biztons", "geheime vraag", "geheimfrage", "bezpečnost", "bezpecnost", "אבטחה", "turvakysym",
      "ความปลอดภัย", "الأمان", "ασφαλείας", "bảo mật", "bao mat", "bi mat", "bí mật", "keamanan", "securitate", "sikkerhetssp", "सुरक्षा", "leánykori",
      "solteira", "soltera", "jeune fille", "mädchenname", "旧姓", "gizli soru", "kızlık", "kizlik", "питання",
      "sigurnosn", "resposta da pergunta", "de siguran",
      "дівоч", "risposta segreta", "кодов", "securitate", "slándála", "slandala", "veiligheidsvra", "diogelwch", "sigurt", "drošības",
      "drosibas", "saugumo", "turvaküsimus", "turvakusimus", "varnostn", "таен", "защитен", "безбедносн", "сигурносн",
      "უსაფრთხოების", "անվտանգության", "sizlik", "xavfsizlik", "қауіпсіздік",
      "usalama", "keselamatan", "pangseguridad", "pang-seguridad", "segurtasun", "öryggisspurning", "oryggisspurning",
      "sigurie", "امنیتی", "سیکیورٹی", "حفاظتی", "নিরাপত্তা", "பாதுகாப்பு", "భద్రతా")),
    ("looks like a credential assignment", _PGPASS.search, (":",)),
    ("looks like a Wi-Fi network's password (its QR code)", _WIFI_QR.search, ("wifi:",)),
    ("looks like a URL with embedded credentials", _URL_WITHOUT_USER.search, ("://:",)),
    ("looks like a code told to be shared with no one", _told_to_no_one,
     ("nadie", "anyone", "anybody", "no one", "noone", "niemandem", "personne", "nessuno", "ningu", "kimseye", "nikomu",
      "никому", "아무에게도", "誰にも", "任何人")),
    ("looks like a gift card's or a voucher's PIN", _a_vouchers_pin,
     ("pin", "nip", "핀", "gift", "voucher", "gutschein", "cadeau", "regalo", "vale", "상품권", "기프트")),
    ("looks like a password or a PIN that is a date, told so", _a_days_password,
     ("birth", "wedding", "anniversary", "born", "geburt", "hochzeit", "jahrestag", "anniversaire", "mariage", "naissance",
      "cumpleaños", "fecha", "boda", "aniversario", "compleanno", "matrimonio", "aniversário", "casamento", "nascimento",
      "doğum", "düğün", "evlilik", "urodzin", "ślubu", "verjaardag", "bruiloft", "trouwdag", "födelsedag", "bröllop",
      "fødselsdag")),
    ("looks like a passphrase", _passphrase_then_words, ("phrase", "wachtzin", "lösenfras", "frase")),
    ("looks like a passphrase", _dashed_passphrase, ("log", "sign", "unlock", "connect", "acced", "inici", "anmeld",
                                                    "einlogg", "melde", "phrase", "passwortsatz", "wachtzin", "frase")),
    ("looks like an app password (four groups of four letters) on a line about a password", _app_password,
     ("pass", "pw", "wort", "mot de", "contra", "senha", "parol", "ifre", "has", "wacht", "senord", "passord", "heslo",
      "jelsz", "mật khẩu", "sandi", "app")),
    ("looks like a password on a line about one", _password_nearby,
     ("pass", "pw", "p/w", "mdp", "cred", "log", "sign", "unlock", "code", "wort", "mot de", "contra", "clave", "senha",
      "wacht", "has", "senord", "passord", "adgang", "salasana", "ifre", "jelsz", "heslo", "parola", "chiave", "bruker",
      " key",
      "inlogg", "přihl", "парол", "логі", "логи", "κωδικ", "συνθηματικ", "bruger", "パスワード", "密码", "密碼", "비밀번호", "비번", "كلمة",
      "암호", "kata sandi", "sandi", "mật khẩu", "mat khau", "mk", "lmet", "lmit", "hesl", "пас", "パス", "סיסמ", "पासवर्ड", "รหัสผ่าน", "kode", "haś",
      "slaptaž", "parool", "gesl", "lozink", "netværksnøgl", "nettverksnøkk", "nätverksnyck", "pasfhocal", "pasahitz",
      "lykilor", "nenosiri", "laluan", "رمز", "পাসওয়ার্ড", "лозинк", "parole", "cyfrinair", "fjalëkalim", "fjalekalim",
      "პაროლ", "գաղտնաբառ", "contrasinal", "ifra", "ifre", "ifru", "پاس", "كلمة", "psw", "paroli", "wagwoord", "கடவுச்சொல்",
      "yfrinair", "ifrə", "lokugqitha", "okwuntughe", "focal faire", "aṣínà", "asina", "passwuert", "phasiwedi", "schlüssel",
      "sleutel")
     + _OTHER_SCRIPTS_NEEDLES + password_words.NEEDLES),
    ("looks like a password in a table's password column", _password_column, ("|",)),
    ("looks like a password told a character at a time", _spelled_out, _SPELLED_NEEDLES),
    ("looks like a Wi-Fi network's password", _wifi_phrase, ("wifi", "wi-fi", "wlan", "вайфа", "вай-фай", "ไวไฟ", "와이파이")),
    ("looks like a password told by what it opens", _access_value, ()),
    ("looks like a passphrase", _quoted_words_and_a_number, ('"', "“", "„", "«", "'")),
    ("looks like a passphrase", _passphrase, ("phrase", "master", "frase", "wachtzin", "fraza", "lösenfras", "cümlesi",
                                             "kodeord", "slaptaž", "parool", "geslo", "lozink", "contrasenya",
                                             "passwd", "creds", "credentials", "pass", "wort", "contraseña",
                                             "senha", "hasło", "heslo", "lösenord", "passord", "salasana", "şifre",
                                             "jelsz", "parola", "парол", "<-", "←", "that's", "that’s",
                                             "фраз", "パスフレーズ", "문구", "密码短语", "口令", "wachtwoord", "mdp",
                                             "adgangskode", "haśl", "hasl", "лозинк", "pasahitz", "pasfhocal", "lykilor",
                                             "nenosiri", "laluan", "pw", "psw", "fráz", "fraz", "frāz", "fras",
                                             "jelszómondat", "pasaesaldi", "mật khẩu", "kaulisiri", "lause",
                                             "yfrinymadrodd", "पासफ़्रेज़", "पासफ्रेज", "పాస్", "پاس", "عبارة",
                                             "משפט", "kodesætning", "φράση", "عبارت", "ביטוי", "kauli",
                                             "密碼短語", "패스프레이즈", "ifadesi", "pasfhrása", "pass-phrase", "合言葉")),
    ("looks like a PIN or a lock's code", _A_CALLS_PIN.search, ("пин", "пін", "kombinasie")),
    ("looks like a PIN or a lock's code", _a_combination_told, ("kombina", "комбинаци", "комбінаці")),
    ("looks like a PIN or a lock's code", _A_PIN_IN_GROUPS.search, ("pin", "nip")),  # ("pinkod" holds "pin")
    ("looks like a PIN or a lock's code", _CODE_RIGHT_AFTER_ITS_NAME.search,
     ("pickup", "pick-up", "collection", "abhol", "afhaal", "ophaal", "upphämtning", "uthämtning", "hämtkod", "hente",
      "afhentning", "nouto", "odbioru", "vyzvednut", "retrait", "ritiro", "levantamento", "retirada", "recogida",
      "teslim alma", "受取", "受け取り", "取件", "取货", "수령", "픽업", "výdejní", "sbloc", "desbloque", "déverrouill", "débloquer",
      "unlock", "entsperr", "ontgrendel", "odblokow", "låsa upp", "låse opp", "upplåsning", "opplåsing", "odemk", "odemyk",
      "atrakinim", "atbloķēšan", "deblocare", "feloldó", "kilit açma", "разблок", "розблок", "ξεκλειδώματ", "desblokeat",
      "解除コード", "해제", "հեռախոսի", "திறக்கும்", "пин")),
    ("looks like a password on a line about one", _joined_value, _JOINED_NEEDLES),
    ("looks like a Wi-Fi network's password", _WIFI_KEY_TOLD.search,
     ("schlüssel", "nyckel", "nøgle", "nøkkel", " key", "-key", "clé", "cle ", "clave", "chiave", "ključ", "klíč", "kľúč",
      "klucz", "ключ", "кључ", "raktas", "atslēga", "võti", "avain", "kulcs", "cheie", "chave", "anahtar", "kunci", "కీ")),
    ("looks like a PIN or a lock's code", _pin_nearby,
     ("pin", "nip", "πληκτρολ", "катинар", "katinar", "cutia cu chei", "nuki", "cacifo", "南京錠", "mbà àṣírí", "mba asiri", "mbà àsírí", "igloohome", "ultraloq", "lockly", "namba", "tastenfeld", "codeschloss", "passcode", "keypad", "lock", "combination", "combo", "safe", "alarm", "disarm", "duress", "locker", "box",
      "kodelås", "kodelas", "kood", "desbloqueo", "পিন", "پن", "code van", "code voor", "κωδικ", "пин",
      "పిన్", "குறியீடு", "uap", "lokot", "локот",
      "door", "garage", "shed", "entrance", "opens with", "porta ", "sala das", "volumes", " room", "storeroom", "raum", "punch in", "parental", "porte", "portail", "tür", "deur", "portone",
      "digicode", "schloss", "tresor", "cadenas", "candado", "cadeado", "caja fuerte", "cassaforte", "allarme", "alarme",
      "alarma", "casier", "kluis", "slot", "lås", "sejf", "szyfr", "сейф", "замок", "разблок", "kilid", "sblocco",
      "déverrouillage", "code", "codi", "codice", "código", "koodi", "kode", "kod", "код", "ifre", "ロック番号", "暗証番号", "番号",
      "パスコード", "オートロック", "暗码", "暗碼", "密码", "密碼", "رمز", "비밀번호", "금고", "도어락", "잠금", "portal", "portão", "portao",
      "portón", "cancello", "brána", "kapuk", "kód", "codul", "interfon", "citofono", "interphone", "cofre", "coffre-fort", "coffre de", "coffre du", "kasa",
      "nøgleboks", "nøkkelboks", "garasjeport", "gembok", "पिन", "कोड", "लॉकर", "קוד", "รหัส", "mã ", "mật mã", "الرقم", "رقم التعريف",
      "šifr", "шифр", "కోడ్", "门禁", "門禁", "密码锁", "密碼鎖", "暗証", "キーパッド", "lucchetto",
      "قفل", "الرمز", "συναγερμ", "puk", "radio", "radijo", "raidi", "teclat", "toegangscode", "yhdistelm", "giltzarrapo",
      "сигнализац", "signalizācij", "larwm", "دزدگیر", "ताला", "կողպեք", "antifurto", "解锁码", "解鎖碼", "screen time",
      "screen-time", "bildschirmzeit", "sefu", "seif", "caixa forta", "kasay", "kasas", "ključavnic", "kljucavnic", "kovč",
      "kovc", "kłódk", "klodk", "khóa", "lacăt", "lacat", "cod y larwm", "საკეტ", "कुलूप", "катанац",
      "מנעול", "گاوصندوق", "خزنة", "কোড", "ramz", "shutter", "كود", "صندوق", "კოდ", "암호",
      "χρηματοκιβ", "λουκέτ", "λουκετ", "κλειδαρ", "συνδυασμ", "kleidari", "klidari", "louket", "xrimatokivwt", "kwdik", "kodik",
      "roditeljsk", "lambar sirri", "lambar bu", "kadena", "candáu", "candau", "kandado", "lok", "kaaikast", "hangslot",
      "קאָמבינאַצי", "קאמבינאצי", "makull", "玄関", "入口", "エントランス", "ドア", "門", "کھلت", "сеф", "სეიფ", "sanduuqa", "rakt", "ቁልፍ",
      "ലോക്ക്", "signaliza", "copier", "fotocopia", "caixa forte", "તિજોરી", "तिजोरी", "သော့သေတ္တာ", "उघड", "ખૂલ")),
    ("looks like a PIN or a lock's code", _lettered_code, ("keypad", "code", "kodi", "digo", "codice", "kod")),
    ("looks like a PIN or a lock's code", _key_box_code_told,
     ("boîte", "boite", "boîtier", "boitier", "cassett", "nyckelbox", "nyckelskåp", "kulcssz", "széf", "fechadura",
      "hộp khóa", "hộp khoá")),
    ("looks like a random token on a line that names a credential", _random_on_a_key_line,
     _KEY_NEEDLES + ("api", "access", "password")),
    ("looks like a labelled credential", _key_labelled_elsewhere, _KEY_LABEL_NEEDLES),
    ("looks like a one-time link's token", _one_time_link, _ONE_TIME_LINK_NEEDLES),
    ("looks like a labelled credential", _address_then_a_password, ("@",)),
    ("looks like a random token on a line of its own", _a_lone_token, ()),
)


# and a value told by what is said around it, with no label (``told``)
_CHECKS += told.CHECKS
# and one told beside what it opens or answers, with no word for a password (``beside``)
_CHECKS += beside.CHECKS

# every needle, looked for once in a text (the checks share many)
# (in a text's lower case as ``(?i)`` reads it: "ϰωδικός" holds the needle "κωδικ")
_NEEDLED = tuple((why, check, frozenset(folded_pattern(needle) for needle in needles)) for why, check, needles in _CHECKS)
_NEEDLES = Needles({needle for _, _, needles in _NEEDLED for needle in needles})
# which checks each needle asks for (by their place in ``_CHECKS``), and those that need none: a
# text asks only the checks its needles name, in their order (not 85 set tests a text)
_ASKED_BY: dict[str, set[int]] = {}
for _index, (_, _, _needles) in enumerate(_NEEDLED):
    for _needle in _needles:
        _ASKED_BY.setdefault(_needle, set()).add(_index)
_ALWAYS_ASKED = frozenset(index for index, (_, _, needles) in enumerate(_NEEDLED) if not needles)


def reason(text: str) -> str | None:
    """The first check that fires on ``text`` (``looks like a labelled credential``, ``… a
    credential assignment``…), or None."""
    found = _NEEDLES.found(lowered(text))
    for index in sorted(_ALWAYS_ASKED.union(*(_ASKED_BY[needle] for needle in found))):
        why, check, _ = _NEEDLED[index]
        if check(text):
            return why
    return None
