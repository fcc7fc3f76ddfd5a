"""The gate's first layer, pdsmem's own rules: credentials stated in prose (in English and
thirteen other languages), credential assignments, PINs and the codes of locks, the provider
formats pdsmem knew before it used a maintained rule set (AWS, GitHub, Slack, Telegram, JWTs,
bearer tokens, ``sk-`` keys, private key headers), URLs with credentials, tracebacks and shell
sessions, and local paths under the usual prefixes.

A detector's pattern runs only when the text holds one of its needles, substrings without which
it cannot match: ordinary text costs a few substring searches (``reason``). Pure functions, no I/O.
"""

from __future__ import annotations

import re

from pdsmem.mapping.privacy import password_words
from pdsmem.mapping.privacy.plain import Needles, folded_pattern, lazy, lowered

# Where a token starts and ends, a letter of a script written without spaces between words
# (Chinese, Japanese, Korean, Thai, Lao, Khmer, Myanmar) counts as a boundary, as a space does:
# ``\b`` counts it as a word character, and missed the key in キーはAKIA…です. Any other letter
# still joins the token, as with \b (Gdańsk-Gdynia-… is no "sk-" key), and (?-i:…) keeps the class
# as written inside the case-insensitive patterns. (Recall by words splits and bounds its words
# the same way: ``bridge.rushdb.memories``.)
# Inside a case-blind pattern, write a class of these letters as "(?-i:[...])": they have no case,
# and Python's compiler would otherwise fold each of their 40,000 code points, twice the time of
# the class (milliseconds a pattern, paid by the first check of every process).
NO_SPACE_SCRIPTS = (
    "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\uff66-\uff9f"
)
_WORD = f"(?-i:[^\\W{NO_SPACE_SCRIPTS}])"  # a word character that is not one of those letters
WORD_START = f"(?<!{_WORD})"  # where a token starts and ends (recall matches words the same way)
WORD_END = f"(?!{_WORD})"

# The word for a password in other languages (German, Spanish, French, Portuguese, Dutch, Polish,
# Czech, Swedish, Norwegian, Danish, Finnish, Turkish, Hungarian, Russian; then Chinese, Japanese
# and Korean, which need no boundary before them: "wifi密码：…"), as the credential detectors look
# for them after English's; and their needles, in lower case, each held by every spelling of the
# words it stands for (accents written or not). English's own needles ("passw", "pass") hold passwort.
_PASSWORD_WORDS = (
    r"passwort|kennwort|contrase[ñn]a|mot\s+de\s+passe|senha|wachtwoord|has[łl]o|heslo|l[öo]senord(?:et)?|passord(?:et)?|"
    r"adgangskoden?|salasana|[şs]ifre|jelsz[óo]|пароль|"
    # Danish, Lithuanian, Estonian, Slovenian, Croatian, Catalan; Polish in its cases ("haśle", "hasłem");
    # Russian in Latin letters with its soft sign ("parol'": bare "parol" is also a lantern and a painkiller)
    r"kodeord(?:et)?|slaptažod\w{0,4}|parool|geslo|lozink[aeiu]|contrasenya|ha[sś][łl](?:a|em|e)|parol['’ʹ]"
)
_PASSWORD_WORDS_UNSPACED = "密码|密碼|パスワード|暗証番号|비밀번호"
# The parts of "a credential stated in a sentence". _FOR: what a credential is for, before its verb,
# in up to three words ("for the office wifi", "to her bank account", "del wifi"). _IS: the verb, in
# the languages of _PASSWORD_WORDS ("is", "was set to", "ist", "est :"). The values: _HAS_A_SIGN,
# one with a digit or a sign among its first 32 characters ("hunter22"; "the password is required"
# is no value; a passphrase of plain words passes); _RANDOM, 16 token characters mixing letters and
# digits: a key, a token or a secret is described in prose far more often than stated ("the private
# key is 4096-bit RSA", "max token is 4096", "the refresh token is base64url-encoded"). Every
# look-ahead is bounded: in a script written without spaces a run has no end before the text's,
# and an unbounded one made such a text quadratic. _NO_VALUE: what starts a description, not a
# value ("the password is 20-characters long", "AES-256 encrypted", "SHA256-hashed").
_CONNECTS = r"for|to|of|at|on|from|für|von|del|de|do|da|du|от|для"  # "password for", "Passwort für", "пароль для"
_FOR = r"(?:\s++(?:" + _CONNECTS + r")(?:\s++\S{1,40}?){1,3}?)?"
# what a key is for in the other languages the gate reads: "pentru Mailgun", "pour la prod", "für das Konto"
_FOR_ELSEWHERE = (r"(?:\s++(?:" + _CONNECTS + r"|pentru|pour|para|per|voor|för|dla|pro|za|na|van|des|di|della|til|için"
                  r"|untuk|cho)(?:\s++\S{1,40}?){1,3}?)?")
# the word for a key in other languages (Estonian, Finnish, Catalan, Romanian, Hungarian, the South Slavic
# ones, Norwegian, Danish, Luxembourgish, Indonesian, Vietnamese, Hebrew, Czech, Greek); many are a door's
# key or a keyword too ("avain", "cheie", "khóa"): a check counts one only beside "API" or "client"
KEYS_WORD_ELSEWHERE = (r"võti|võtme|avaim\w{0,3}|avain|clau|chei[ae]|kulcs\w{0,3}|ključ\w{0,2}|nøkkel|nøgle|schlëssel|kunci"
                       r"|khóa|מפתח"
                       # Czech and Greek, from a new user's try
                       r"|klíč\w{0,2}|κλειδ\w{0,2}")
# and, beside "API", the words for a key of the languages whose word the checks of English read alone too
_API_KEYS_WORD = (KEYS_WORD_ELSEWHERE + r"|cheia\s++de|cl[ée]|clave|chiave|chave|klucz|ключ|kľúč|anahtar\w{0,3}|nyckeln?|n[øo]glen?"
                  r"|n[øo]kkelen?|sleutel|schl[üu]ssel|atslēga|raktas")
_IS = (r"(?:,[^\S\n]*+(?:it['’]s|it\s++(?:is|was)|that['’]s)"  # "the door code, it's 5390": the value last in its
       # clause ("the password, it's 2026 and…", "the pin on the map, it's 4821 Elm Street" are none)
       r"(?=[^\S\n]*+[\"'“‘«]?\S+?[\"'”’»]?(?:[.,;!?)]++(?:\s|$)|[^\S\n]*+(?:\n|$)))"
       r"|\s++(?:is|was|are|were|ist|war|lautet|es|era|est|était|é|è|jest|är|var|er|je|yra|este|és))"
       r"(?:\s++(?:now|still|also|just|probably|simply|set\s++to|changed\s++to|jetzt|noch))?(?:\s*+[:：])?")
_OPENING = "[\"'`“‘«„「(<\\[]?"  # a quote or bracket before a value
_DESCRIPTION = (  # a length, a version, a rate, a count of factors, a hashing, encryption or wifi scheme
    r"(?:[0-9]++[\s-]?(?:char(?:acter)?|digit|letter|symbol|word|day|week|month|year|hour|minute|bit|byte)s?(?![a-z])"
    r"|[0-9]++(?:\+|x(?![a-z0-9])|-?(?:fa|factor|step)(?![a-z]))|v[0-9]++(?![a-z_])|[2m]fa(?![a-z])|1password"
    r"|[0-9]++(?:文字|桁|字|位)|(?:aes|sha|rsa|md5|bcrypt|argon|pbkdf|scrypt|hmac(?:-?sha)?|ed25519|ntlm|wpa|wep)(?![a-uw-z]|v(?![0-9])))"  # "NTLMv2", "hmacSHA256"; not "Shakshuka77"
)
# A stand-in that documentation and templates put where a key goes, in the languages the gate
# reads, as a whole value and nothing more: "your" and a word for a key ("DEIN-SCHLUESSEL",
# "TU_CLAVE_API", "LA_TUA_CHIAVE"), a word for a key and "here" ("SUA_CHAVE_AQUI", "API_KEY_HERE"),
# "change me" or "fill in here" ("changez-moi", "A_REMPLACER", "vul_hier_in"). A word more makes a
# value ("dein-schluessel-zum-glueck", "changez-moi-jamais"); so does a digit. Each part is bounded
# (a run of "key-key-…" took seconds to try from each start).
_STAND_IN_KEY = (r"(?:api[_-]?)?(?:key|token|secret|password|pass|pwd|clave|contrase[ñn]a|chiave|segreto|chave|senha|cl[ée]"
                 r"|mot[_-]de[_-]passe|mdp|schl(?:ü|ue)ssel|passwort|geheimnis|sleutel|wachtwoord|klucz|has(?:ł|l)o"
                 r"|nyckel|l[öo]senord|n[øo]gle|adgangskode|avain|salasana|api"
                 # what goes there: "TU_VALOR_AQUI", "your-value"
                 r"|value|valor|valeur|wert|waarde|valore|warto[śs][ćc]|v[äa]rde|verdi|v[æa]rdi|arvo)(?:[_-]?(?:api|key|token))?")
_STAND_IN_YOUR = (r"(?:your|dein[e]?|ihre?|votre|vos|ton|ta|tu|tus|su|sus|tuo|tua|il[_-]tuo|la[_-]tua|seu|sua|o[_-]seu"
                  r"|a[_-]sua|jouw|uw|tw[óo]j|twoja|din|ditt|dina|sinun|jeres?)")
_STAND_IN_HERE = r"(?:here|hier|ici|aqu[ií]|qui|tutaj|h[äa]r|her|t[äa]h[äa]n)"
_STAND_IN_REPLACE = (r"(?:replace[_-]?me|change[_-]?me|changez[_-]?moi|[àa][_-]?remplacer|a[_-]?cambiar|c[áa]mbia(?:me|mi)"
                     r"|da[_-]?cambiare|da[_-]?sostituire|(?:zu[_-]?)?ersetzen|[äa]ndere?[_-]?mich|(?:zu[_-]?)?[äa]ndern"
                     r"|vervangen|wijzigen|verander[_-]?mij|substituir|alterar|altere[_-]?me|mude[_-]?me|zmie[ńn](?:[_-]?mnie)?"
                     r"|zast[aą]p|byt[_-]?ut|[äa]ndra[_-]?mig|ersta[_-]?tt|erstat|vaihda|wijzig[_-]?mij|zm[eě]nit|zm[eě][ňn][_-]?m[eě]"
                     r"|vul[_-]?(?:hier[_-]?)?in|hier[_-]?eintragen|[àa][_-]?compl[ée]ter|rellenar|inserisci|preencher"
                     r"|uzupe[łl]nij|fyll[_-]?i|(?:change|replace)[_-]?this|troque[_-]?isto|troca[_-]?isto|mude[_-]?isto"
                     r"|cambia[_-]?esto|cambiar[_-]?esto|(?:[äa]ndere|ersetze)[_-]?das)")
# a value that says it is none: "not-a-real-key", "example-token", "fake_secret", "token-example"
_STAND_IN_FAKE = (r"(?:not[_-]a[_-]real|no[_-]real|fake|dummy|example|sample|test|demo|placeholder|beispiel|exemplo|ejemplo"
                  r"|exemple|esempio|voorbeeld)[_-]" + _STAND_IN_KEY + r"|" + _STAND_IN_KEY
                  + r"[_-](?:example|sample|dummy|placeholder|fake)")
STAND_IN = (r"(?i:" + _STAND_IN_YOUR + r"[_-](?:[a-zäöü]{2,12}[_-])?" + _STAND_IN_KEY + r"(?:[_-]" + _STAND_IN_HERE + r")?"
            r"|" + _STAND_IN_KEY + r"[_-]" + _STAND_IN_HERE
            + r"|" + _STAND_IN_REPLACE + r"(?:[_-]" + _STAND_IN_HERE + r")?|" + _STAND_IN_FAKE + ")")
# a slot in brackets, letters alone: "[REDACTED]", "[entfernt]", "[removed]"
BRACKETED_SLOT = r"\[[^\W\d_][^\W\d]{0,29}(?:[ _-][^\W\d]{1,29}){0,3}\]"
# "changeme" as a stand-in, not the start of a value made from it ("changeme-Zq81!pl", "changeme2024")
CHANGE_ME = r"change[_-]?me(?![-_.]?[a-z!#%^&*+=~_.-]{0,40}?[0-9!#%^&*])"
# a reference to a value kept elsewhere, named for a credential: a name in an f-string
# ("{admin_password}", not "{kiwi_mango_7}"), Home Assistant's "!secret mqtt_password" (not "!secret
# Kx82pq"), a variable whose last part is a credential's word ("DB_PASSWORD"; not "TOKEN_RING_1984",
# "DONKEY_KONG_64")
_CREDENTIALS_WORD = r"(?:pass(?:word|wd)?|pwd|secret|token|key|auth|cred(?:ential)?s?)"
_REFERENCE = (r"(?i:\{[a-z_][\w.]*?" + _CREDENTIALS_WORD + r"\}(?![\w}])|!secret\s++[a-z0-9]*+_[a-z0-9_]++(?![^\s\"',;]))"
              r"|(?-i:[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)*?_(?:PASSWORD|PASSWD|PASS|PWD|TOKEN|SECRET|KEY|AUTH|CREDENTIALS?))(?![\w-])")
_NO_VALUE = ("(?!" + _DESCRIPTION + r"|\$\{|\{\{|" + _REFERENCE + r"|%[A-Za-z_]+%|<[^\W\d][\w -]{1,30}>|" + BRACKETED_SLOT + r"|[*＊]{3,}|•{3,}|_{3,}|" + CHANGE_ME + r"|replace[_-]?me"
             r"|" + STAND_IN + r"(?=[\"'”’»\s.,;)]|$)|cGFzc3dvcmQ=|YWRtaW4=)")  # nor a reference: "${DB_PASSWORD}", "<your key>"
# (_NO_VALUE before the opening too: "<PASSWORD>" is a stand-in whole, not "<" and a value)
_HAS_A_SIGN = r"\s*+" + _NO_VALUE + _OPENING + _NO_VALUE + r"(?=[^\s\"'”’»」]{0,31}?[0-9@#$%^&*_+=~<>|\\/])[^\s\"'”’»」]{4}"
_ASCII_HAS_A_SIGN = (  # after a word of a script written without spaces, a value in ASCII: "パスワードはabc123です",
    # not "パスワードはルーターWXR-5700の裏に記載"
    r"\s*+" + _NO_VALUE + _OPENING + _NO_VALUE + r"(?=[!-~]{0,31}?[0-9@#$%^&*_+=~<>|\\/])[!-~]{4}")
# A password stated with no verb ("her gmail password Hunter2024!", "the password, hunter22, is…"):
# the value must mix letters and digits in 6 to 64 ASCII characters on the same line, and end there
# or at a sign; "password 2024-03-12", "password (12+ chars)", "WPA3-Personal" and "密码管理器用的是
# Bitwarden" are no values. Or digits alone, 8 to 16 of them ending the clause, as a Wi-Fi's password
# often is a phone's number ("wifi doma, parol' 87015554433"); not a count ("password 12345678 characters"), nor a
# helpline's free number ("Bank helpline for a forgotten password 08001234567").
_BARE = (r"[^\S\n]*+" + _OPENING + _NO_VALUE + r"(?:(?=[!-~]{0,31}?[0-9])(?=[!-~]{0,31}?[a-z])"
         r"[!-~]{6,64}+(?![^\s.,;:!?)\]\"'”’»」。、，])"
         r"|(?!0800|0808|0300|0345|0845|0870|1800|1300|800)[0-9]{8,16}+[^\S\n]*+(?:[.,;!)]|$))")
# A password for something, with no verb ("the password for gmail Hunter2024!"). What follows "for"
# is more often a name ("for user jdoe2024", "for my iPhone15!", "for host db-prod-01"), so the
# value must look like nothing else: 8 to 64 ASCII characters mixing lower case, upper case, a
# digit and a sign that no name or version holds ("+" does: "HP-LaserJet4+"); not an address
# ("MMueller1@contoso.com", "https://…"), a Windows account ("WS-Finance01$"), a file name
# ("Budget2024!.xlsx") or a handle ("@Alice2024", "#Team2024"); and
# not after a word that opens a name ("for my iPhone15!", "für das iPhone15!", "pour mon…", "for
# account Sales&Marketing2").
_FOR_WHAT = r"(?:" + _CONNECTS + r"|fürs|zum|pour|para|per|di|voor|van|dla|för|till|til|k|pro|к)"
_OPENS_A_NAME = (
    r"the|a|an|my|her|his|our|their|your|its|all|every|this|that|these|those|with|set|using|via|new|old"
    r"|der|die|das|den|dem|des|ein|eine|einen|mein|meine|meinen|ihr|ihre|ihren|sein|seinen|unser|mit"
    r"|le|la|les|un|une|mon|ma|mes|son|sa|ton|avec|el|los|las|mi|mis|su|tu|con|het|een|mijn|zijn|haar|met"
    r"|mojego|mojej|moje|mój|jego|jej|z|min|mitt|mina|sin|det|med|o|os|as|meu|minha|seu|sua|com"
    r"|моего|моей|мой|мою|его|её|с"
    # and a word for the kind of thing a name follows ("for account Sales&Marketing2", "für Router
    # FRITZ!Box7590", "for share R&D-Lab2")
    r"|account|konto|cuenta|conta|konta|kontot|аккаунта|user|benutzer|utilisateur|usuario|utente|gebruiker"
    r"|użytkownika|användare|пользователя|server|serveur|servidor|site|share|workspace|project|projekt|projet"
    r"|router|host|device|gerät|team|group|gruppe|groupe|channel|repo|repository|database|tenant|domain|mailbox"
)
_STRONG = (r"(?:[^\S\n]++\S{1,40}+){0,2}?[^\S\n]++(?!(?:" + _OPENS_A_NAME + r")[^\S\n])\S{1,40}+[^\S\n]++"
           + _OPENING + r"(?=[!-~]{0,63}?[0-9])(?=[!-~]{0,63}?[!@#$%^&*=~])"
           r"(?=[!-~]{0,63}?(?-i:[a-z]))(?=[!-~]{0,63}?(?-i:[A-Z]))"
           r"(?![!-~]{0,63}?(?:@[a-z0-9-]++\.[a-z]|://)|[!-~]{0,63}?(?:[$]|\.[a-z]{2,4})(?![!-~])|[@#$*~\\])"
           r"[!-~]{8,64}+(?![!-~\w])")
# "at least", which starts a password rule rather than a password, in the languages the gate reads
AT_LEAST = (r"at\s++least|minimum|min\.|almeno|mindestens|au\s++moins|al\s++menos|pelo\s++menos|minimaal|minst"
            r"|vähintään|mínimo|minimo|co\s++najmniej|en\s++az|минимум|не\s++менее")
# Code, not a value, after a credential's name and "=": a call, an attribute of a module or a
# request, an index ("token = request.headers.get(…)", "password = getpass.getpass()",
# "secret = os.environ['X']"): a coding agent's notes name variables all the time.
_CODE_VALUE = (r"(?![A-Za-z_][A-Za-z0-9_]*+(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*+)*+(?:(?:::)?<[\w:<>, ]{1,60}>(?:::[A-Za-z_]\w*+)*+)?\s*+[(\[]"
               r"|(?:os|sys|process|request|req|self|this|settings|config|env|getpass|secrets)\."
               # a placeholder or a reference ("<your key here>", "${TOKEN}", "%API_KEY%"), a keyword
               # ("if not api_key: raise …", "const token = await …"), a type ("password: SecretStr)")
               r"|<|\$\{|%[A-Za-z_]+%|\{\{|" + _REFERENCE + r""
               # a note in brackets ("Password: (set on first login)", "(hidden)")
               r"|\((?=[A-Za-z][a-z]*+(?:[^\S\n]|\)))"
               # a slot in brackets ("[REDACTED]")
               r"|" + BRACKETED_SLOT + r"(?=[\"'`\s,;)]|\.?$)"
               # a shell default or error inside "${VAR:?missing}", a stand-in ("sk-...", "REPLACE_ME", "xxxxxxxx")
               r"|(?<=:)[?+=-]|(?:[A-Za-z]{2,5}[_-](?:[A-Za-z]{2,8}[_-])?)?(?:\.{3}|…)(?![A-Za-z0-9])"
               r"|[A-Za-z]{2,5}[_-]?(?:\.{3}|…)(?i:replace|here)(?![a-z0-9])"
               r"|(?i:replace[_-]?(?:me|with(?:[_-][a-z]+){1,4})|(?:please[_-])?" + CHANGE_ME + r")(?![a-z0-9])|x{4,}(?![a-z0-9])|[*＊]{3,}|•{3,}"
               # a blank to fill in, a note for later, a yes or a no ("密码：____", "SECRET=TODO", MySQL's
               # "Access denied … (using password: YES)")
               r"|_{3,}|(?i:todo|tbd|fixme|yes|no)(?=[\"'`\s,;)”」]|\.?$)"
               # a variable of the shell, a tag, an ansible vault, a template's words: "$API_KEY", "npm_<token>",
               # "!vault |", "username:password"
               r"|(?-i:\$(?:[A-Z][A-Z0-9]*+_[A-Z0-9_]++|(?=[A-Z0-9]*(?:PASS|PWD|TOKEN|SECRET|KEY|AUTH|CRED))[A-Z][A-Z0-9]*+))(?![A-Za-z0-9!#$%&*@^~+=-])"
               r"|[A-Za-z0-9_-]{0,12}<[A-Za-z_ -]{2,30}>(?=[\"'`\s,;)]|\.?$)|!vault(?![a-z])"
               r"|(?i:user(?:name)?:pass(?:word)?)(?![a-z0-9])"
               # a stand-in in documentation and tests ("YOUR_KEY_HERE", "your-api-key", "NPM_TOKEN_HERE",
               # "dummy", "test", "sk_live_xxx"), a command's output ("$(vault kv get …)")
               # (the whole value: "Dummy!2024", "your-9f8a7b…" and "placeholder99!Q" are real)
               r"|(?i:(?:your[_-](?:[a-z]+[_-])*[a-z]+|[a-z0-9_]*_here|dummy|fake|placeholder|test(?:ing)?|example[0-9]{0,4}"
               r"|(?:[a-z0-9]+_)+x{3,})(?=[\"'`\s,;)”」』]|\.?$))"
               # the values documentation shows: Kubernetes' base64 of "password" and "admin", AWS's example key
               r"|(?:cGFzc3dvcmQ=|YWRtaW4=|MWYyZDFlMmU2N2Rm|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY)(?=[\"'`\s,;)]|\.?$)"
               # "your key", "key here", "change me" in other languages: "DEIN-SCHLUESSEL", "changez-moi"
               r"|" + STAND_IN + r"(?=[\"'`\s,;)]|\.?$)|\$\("
               # what a password's state is, not what it is: "Password: updated.", "Contraseña: cambiada."
               r"|(?:updated|changed|reset|expired|rotated|n/a|geändert|geaendert|modifiée?|cambiad[ao]|alterad[ao]"
               r"|gewijzigd|zmienione|ändrat|endret|ændret|cambiata|cambiato|mudad[ao])(?![\w-])"
               r"|(?:raise|return|await|yield|lambda|not|None|True|False|null|undefined|new|typeof)(?!\w)"
               r"|(?:and|or|with|without|for|to|is|are|was|the|empty|blank|unset|always|never|usually|often|sometimes"
               r"|still|same|see|check|ask|stored|saved|kept|written|printed|taped|changes|in|on|at|under"
               # a rule, not a value: "Requisiti password: almeno 9 caratteri", "Passwort: mindestens 12 Zeichen"
               r"|" + AT_LEAST + r")(?!\w)"
               # a type as a schema's example gives it: {"password": "string"}
               r"|(?:string|number|integer|boolean)[\"'](?=\s*+[,}\]])"
               r"|(?:str|int|bytes|bool|float|string|number|Optional|SecretStr|SecretBytes)(?!\w)"
               r"(?![^\S\n]*+(?!(?:is|are|and|or|on|in)(?!\w))[\w\"']))")
# What a code opens ("the code for the front door", "the code to the gym locker")
_LOCKED = r"door|gate|garage|alarm|safe|lock|lockbox|keypad|padlock|locker|mailbox|storage\s++unit|elevator|cupboard"
_RANDOM = r"\s*+" + _OPENING + r"(?=[a-z0-9_+/=]{0,15}?[0-9])(?=[a-z0-9_+/=]{0,15}?[a-z])[a-z0-9_+/=]{16}"
# The first letters of every word the credential detectors below look for, in a lookahead they
# start with: where the letter is none of these, ``re`` moves on at once instead of trying each
# word (a text of spaces after "password" took four times as long). The test suite holds the
# detectors to their forms without it.
_CREDENTIAL_START = "(?=[abcdeghjklmpstuvw\u015f\u043f\u5bc6\u30d1\u6697\ube44])"
_PASSWORD_NEEDLES = (
    "kennwort", "contrase", "passe", "senha", "wachtwoord", "hasł", "haslo", "heslo", "senord", "passord",
    "adgangskode", "salasana", "ifre", "jelsz", "пароль", "密码", "密碼", "パスワード", "暗証番号", "비밀번호",
    "parol'", "parol’", "parolʹ",
)
_ARABIC_SCRIPTS_NEEDLES = ("كلمة", "كلمه", "کلمه", "ورد", "گذرواژه", "عبور")
# A password's word in Arabic script (Arabic's "كلمة المرور", "كلمة سر", the English word as Arabic and
# Persian speakers write it, "باسورد", "پسورد", Persian's "گذرواژه", "رمز عبور"), a colon, and a value
# of Latin letters and signs with a letter in it, or of digits alone ending there: not a date
# ("2024/05/12", "1402/05/12"), a rule ("12-16 حرف"), a link, or a word of the script ("الجديدة")
_ARABIC_SCRIPTS_PASSWORD = (r"(?:(?<![\u0600-\u06ff])(?:كلمة\s*+(?:ال)?(?:مرور|سر)|(?:ال)?باس و?ورد|(?:ال)?(?:"
                            + password_words.ENGLISH_IN_ARABIC_SCRIPT + r")|گذرواژه|(?:رمز|کلمه|كلمه)\s*+عبور))"
                            r"(?![\u0600-\u06ff])"
                            # what it is for, in a few words ("كلمة مرور الواي فاي: …"), then a colon (not "هي",
                            # is: "كلمة السر في الأداء هي caching", the key to it)
                            r"(?:\s++[^\s:：=0-9]{1,15}){0,3}?\s*+[:=：]\s*+[\"']?" + _CODE_VALUE +
                            # (digits of any script: "پسورد: ۹۸۷۶۵۴۳۲"); Latin letters with a digit or a sign
                            # in them, or a word that ends its clause (not "Settings ثم Security", a menu's path)
                            r"(?:\d{4,}(?!\d|[-/.:]\d)|(?!https?:|www\.)(?=[!-~]*?[A-Za-z])"
                            r"(?:(?=[A-Za-z]*+[^A-Za-z\s])[!-~]{4,}(?![!-~])|[A-Za-z]{4,}(?=[.!،,]?\s*+$)))"
                            # or, in Persian, with no colon: what it is for, then five digits or more, then
                            # "is" ending the clause ("پسورد وای‌فای خونه ۹۴۷۲۶۱۸۳ است"; not "… ۸ رقم است", a rule,
                            # nor in another clause, "پسورد اینستا عوض شد، فالوورها ۱۲۰۰۰ است", or a phone's 11 digits)
                            r"|(?<![\u0600-\u06ff])(?:" + password_words.ENGLISH_IN_ARABIC_SCRIPT + r"|گذرواژه|رمز\s*+عبور)"
                            r"(?:\s++[^\s:：=0-9،,؛]{1,15}){0,4}?\s++\d{5,10}(?!\d)\s*+(?:است|هست|ـه)(?![\u0600-\u06ff])")

# The digits of a PIN or a code: 4 to 12, not a date, a version, a reading or an amount ("2000 uA",
# "50 Hz", "5000 pesos")
# or its digits one at a time, apart ("7 7 0 3", "3-8-1-5", "4.8.2.1"), as a code is said aloud
_SPACED_DIGITS = r"[0-9](?:(?: [0-9]){3,7}|(?:-[0-9]){3,7}|(?: - [0-9]){3,7}|(?:\.[0-9]){3,7})(?![0-9]|[-. ]?[0-9]| - [0-9])"
_CODE_DIGITS = (r"\s*+" + _OPENING + r"\s*+[#*]?(?:[0-9]{4,12}(?![0-9]|[-./][0-9])"
                r"(?!\s*+(?:[kmµunp]?[avwfs]|k?(?:ohms?|[ωΩ])|[kmg]?hz|mm|cm|pesos?|euros?|eur|usd|dollars?|€|руб)(?![a-z]))"
                r"|" + _SPACED_DIGITS + ")")
# A PIN or a code: "bank PIN: 4821", "the door code is 4821", "debit card PIN 4821", "the code for
# the front door is 4821"; not a reading ("the max current per pin is 2000 uA").
_PIN_OR_CODE = lazy(
    r"(?i)" + _CREDENTIAL_START + r"(?<![a-z0-9])(?:(?:pin(?:[\s_-]?(?:code|number))?|puk|"
    r"(?:door|gate|garage|alarm|safe|lock|lockbox|entry|access|keypad|cupboard)[\s_-]?(?:code|combination)"
    r"|(?<!error )(?<!hs )(?<!sku )(?<!product )(?<!part )(?<!model )(?<!tariff )(?<!status )"
    r"(?<!fault )(?<!item )(?:code|combination)\s++(?:for|to|of|on|at|into)(?:\s++\S{1,40}?){0,3}?\s++"
    r"(?:" + _LOCKED + r")s?)"
    r"(?:" + _FOR + r"(?:" + _IS + r"|\s*+[:=：])|['’]s|\s++(?:to|of)|\s++[-–—](?=\s))"
    # with no verb: a passcode, a door's code, or a PIN after a word that says what for
    # ("debit card PIN 4821"): a PIN is also India's postal code ("Kochi, PIN code 682001"),
    # a chip's leg ("pin 2000") and a pin on a map ("my pin 1234 on the map")
    r"|(?:passcode|(?:door|gate|garage|safe|lockbox|keypad)[\s_-]?code"
    r"|(?:card|bank|atm|debit|credit|visa|mastercard|amex|girocard|ec|sim|phone|mobile|unlock)(?:['’]s)?"
    r"[^\S\n]++pin(?:[\s_-]?(?:code|number))?)(?=\s)"
    # a PIN joined to its digits, as a field's value or a name ("pin-4821", "pin_4821", "PIN4821"), not
    # an issue's key ("PIN-1021") or a part of a path or a name ("gpio/pin_2001", "spin4821")
    r"|(?<![\w/.#-])(?:pin_|(?-i:pin)-|pin(?=[0-9]))(?=[0-9]{4,8}(?![\w/-]))"
    # in Japanese and Chinese: a PIN (暗証番号), and a password of digits (银行卡密码 482915)
    r"|暗証番号\s*+[はが:：]?|(?:密码|密碼)\s*+(?:是|为|為|[:：])?(?=\s*+[0-9]{6}))" + _CODE_DIGITS
)
# A PIN or a lock's code told after what it is ("Her PIN: the year her dad was born, 1958", "the
# garage code is her birthday — 0412"); not a change told with a year ("PIN: changed at the bank, 2024").
_PIN_DESCRIBED = lazy(
    r"(?i)(?<![a-z0-9])(?:pin(?:[\s_-]?code)?|passcode|(?:door|gate|garage|alarm|safe|lock|locker|padlock|keypad|cupboard)"
    r"[\s_-]?(?:code|combination))(?:[^\S\n]*+[:：]|[^\S\n]++(?:is|was))[^\S\n]++"
    # what it is, named: "the year …", "her birthday …", "the same as …" (not "was blocked at the ATM, 2019")
    r"(?=(?:the|her|his|my|our|their|its|a|an|same|just)\s)"
    r"(?![^\n]{0,60}?(?:chang|reset|updat|renew|expir|since|until|rotat|requir|must|should|need))"
    r"[^\d\n.;!?:]{3,60}?[,—–][^\S\n]*+[0-9]{4,8}(?![0-9]|[-./][0-9])[^\S\n]*+(?:[.!;)]|(?=\n)|$)")
# The same in German, French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish and Russian.
# With no verb, only a word that names a PIN or a lock's code by itself ("Haustürcode: 4821",
# "digicode 4821B", "Код от двери 4821", "пин-код 4821"), and never before a year ("Türcode 2024
# geändert"). With a verb or a colon, also a code of a door, gate, safe or card ("le code de la
# porte est 4821", "el código de la puerta es 4821") and a PIN code, which is also India's postal
# code ("De pincode is 4821", not "Pincode 560034"). A door is also a network port in some of them
# ("o código da porta 8080"), a card a map ("la carte IGN"), and an alarm's code an error's, so
# "alarm" is no lock here, a French card is a bank's, and the code's word comes straight before
# what it opens ("el código de error de acceso 1045" passes).
_CODE_WORDS_ELSEWHERE = (
    r"(?:(?:haus|wohnungs|eingangs)?tür|(?:garagen|hof)?tor|tresor|briefkasten|schließfach)-?code|zugangscode"
    r"|(?:ent)?sperr-?code|geheimzahl|zahlenschloss|digicode|deurcode|toegangscode|code\s++(?:confidentiel|secret)"
    r"|(?:n[úu]mero|c[óo]digo)\s++secreto|codice\s++segreto"
    r"|pin-?kod(?:en)?|portkod(?:en)?|kod\s++dostępu|pin-?код|пин-?код|код\s++доступа"
    r"|(?:пин|pin)(?:-?код)?\s++карты"
    r"|код\s++(?:(?:от|к)\s++)?(?:двери|домофона|подъезда|сейфа|сейфу|калитки|ворот|гаража|замка|замку)"
    r"|code\s++d['’]\s*+(?:accès|entrée)|c[óo]digo\s++de\s++(?:acceso|acesso|entrada)"
    r"|codice\s++(?:d['’]\s*+(?:accesso|ingresso)|portone|cancello)"
    # Basque's code of a door, an entrance, a garage, an alarm ("Atariko ate-kodea 7315 da")
    r"|(?:ate|atari|sarrera|garaje|alarma)-?kode(?:a|ak)?"
)
# a room's word and its number: the number after a safe's code and "in the room" may be the room's ("le code du
# coffre dans la chambre 1207")
_A_ROOMS_WORD = (r"(?i:chambre|habitaci[óo]n|camera|stanza|zimmer|quarto|room|номер\w*|комнат\w*|pok[óo]j\w*|sob[aie]"
                 r"|kamer|suite)[^\S\n]*+(?:n[°º.]?|nr\.?|no\.?|#)?[^\S\n]*+[0-9]")
_SAFES_ELSEWHERE = (  # a safe, a padlock, a locker (the rest of _LOCKS_ELSEWHERE: a door, a gate, a card…)
    r"tresor|safe|schließfach|coffre(?:-fort)?|cadenas|casier|caja\s++fuerte|candado|taquilla|cofre|cadeado|cassaforte"
    r"|сейфа|замка"
)
_OF_A_LOCK = (  # "de la" (porte), "für die" (Haustür), "till" (dörren)
    r"de\s++la|de\s++l['’]\s*+|du|des|d['’]\s*+|de|del|della|dell['’]\s*+|di|do|da|dos|das"
    r"|für\s++(?:die|das|den)|fürs|der|vom|am|zur|zum"
    r"|pour(?:\s++(?:la|le|l['’]\s*+))?|para(?:\s++(?:la|el|o|a))?"
    r"|van\s++(?:de|het)|van|voor\s++(?:de|het)|per(?:\s++(?:il|la|lo|l['’]\s*+))?"
    r"|till|för|od|от|для|к"
)
_POSSESSIVE = (  # "de mi tarjeta", "für meine Haustür", "от моей двери"
    r"(?:mi|ma|mon|notre|nuestro|nuestra|mio|mia|meu|minha|nosso|nossa|mein|meine|meiner|meinen|unser|unsere"
    r"|unserer|unseren|mijn|onze|mojej|mojego|naszej|naszego|min|mitt|vår|vårt|моей|моего|нашей|нашего)\s++"
)
_LOCKS_ELSEWHERE = (
    _SAFES_ELSEWHERE + r"|(?:haus|wohnungs)?tür|tor|garage|schloss|briefkasten|karte"
    r"|porte|portail|carte\s++(?:bleue|bancaire|de\s++crédit)|immeuble"
    r"|puerta|portal|garaje|tarjeta"
    r"|porta|portão|garagem|cartão|cancello"
    r"|lucchetto|carta|bancomat|portone|deur|voordeur|poort|hek|kluis|hangslot|pas|kaart"
    r"|drzwi|bramy|furtki|klatki|sejfu|kłódki|garażu|karty|domofonu|(?:ytter)?dörren|porten|kassaskåpet"
    r"|hänglåset|garaget|kortet|двери|домофона|подъезда|калитки|ворот|гаража|карты"
)
_IS_ELSEWHERE = (  # a verb, then maybe "now" or "still", then maybe an article ("est le 4821", "es el 4821")
    r",?[^\S\n]++(?:ist|lautet|est|c['’]est|es|é|è|is|är|er|jest|je|to|wynosi|это|[-–—])(?:[^\S\n]*+[:：])?"
    r"(?:\s++(?:jetzt|noch|nun|nu|toujours|maintenant|ahora|agora|ora|adesso|teraz|сейчас|теперь))?"
    r"(?:\s++(?:le|el|o|il))?"
)
_YEAR = r"(?:19|20)[0-9]{2}"
_CODE_ELSEWHERE = lazy(
    # a word that names a lock's code, with no verb: a colon or nothing, on the same line, and no year
    r"(?i)(?=[abcdeghknpstwzкп])(?<!\w)(?:(?:" + _CODE_WORDS_ELSEWHERE + r")(?!\w)"
    r"(?:[^\S\n]*+[:：=]|(?![^\S\n]*+\n))(?!\s*+" + _YEAR + r"(?![0-9]))"
    # such a word, a PIN code, or a code of a lock or card; then up to four words and a verb or a
    # colon on the same line, and not a year followed by a word ("ist 2023 geändert", "2019r.")
    r"|(?:" + _CODE_WORDS_ELSEWHERE + r"|pincode|(?:code|codice|c[óo]digo|kod(?:en)?|код|pin|combinazione"
    r"|combinaci[óo]n|combinaison|combina[çc][ãa]o|kombination)\s++(?:"
    + _OF_A_LOCK + r")\s*+(?:" + _POSSESSIVE + r")?(?:" + _LOCKS_ELSEWHERE + r"))(?!\w)"
    r"(?:[^\S\n]++[^\s:：,]{1,30}+){0,4}?(?:" + _IS_ELSEWHERE + r"|[^\S\n]*+[:：=])"
    r"(?!\s*+" + _YEAR + r"(?:[^\S\n]*+[-–:]|[^\S\n]*+[^\W\d_]))"
    # a safe's, a padlock's or a locker's code with no verb, the place it is in between at most ("code du
    # coffre dans l'arrière-boutique 350912"); not a door's or a card's, whose numbers are also a port's or a map's,
    # nor a hotel room's number after the room's word ("le code du coffre dans la chambre 1207")
    r"|(?:code|codice|c[óo]digo|kod(?:en)?|код|combinaison|combinaci[óo]n|combinazione|kombination)\s++(?:"
    + _OF_A_LOCK + r")\s*+(?:" + _POSSESSIVE + r")?(?:" + _SAFES_ELSEWHERE + r")(?!\w)"
    r"(?:[^\S\n]++(?:dans|in|en|im|no|na|nel|nella|au|à|в|во)(?:[^\S\n]++(?!" + _A_ROOMS_WORD + r")[^\s:：,;.0-9]{1,25}+){1,3}?)?"
    r"(?![^\S\n]*+" + _YEAR + r"(?![0-9])))" + _CODE_DIGITS
)
_FOUR_DIGITS = lazy("[0-9]{4}|[0-9](?: - |[-. ])[0-9](?: - |[-. ])[0-9](?: - |[-. ])[0-9]").search
# What every match of a detector holds besides its needles, looked for before its pattern runs: a
# text that says "code" or "pin" seldom holds four digits.
# what documentation writes for a URL's password: "<password>", "{password}", "${REDIS_PASSWORD}",
# "CHANGE_ME", "APP_PASSWORD" (the labelled layer's URL rule says the same)
URL_STAND_IN = (r"<[^>@]*>@|\{[A-Za-z_]+\}@|\$\{?\w+\}?@|change[_-]?me@|replace[_-]?me@|your[_-][A-Za-z_-]*@|x{3,}@|\*{3,}@"
                r"|(?-i:[A-Z_]*(?:PASSWORD|PASS|SECRET|TOKEN))@")
_PRIVATE_KEY = lazy(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-[0-9]++:")  # PEM, OpenSSH, PGP, PuTTY
# a key's header and footer around what documentation writes for its body ("...", "(omitted)",
# "<key>"): no key. A header alone is refused (a key pasted in part).
_ELIDED_KEY = lazy(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----\s*+(?:\.{3,}|…|\(?(?:omitted|redacted|snip|snipped"
                   r"|truncated|elided|key\s++here)\)?|<[^>\n]{1,40}>|\[[^\]\n]{1,40}\])\s*+-----END [A-Z0-9 ]*PRIVATE KEY")


def keys_elided(text: str) -> bool:
    """Whether every private key's header in ``text`` is one around an elided body (an example
    beside a real key hides nothing)."""
    return len(_ELIDED_KEY.findall(text)) >= len(_PRIVATE_KEY.findall(text))


def _a_key_may_be_there(text: str) -> bool:
    return not keys_elided(text)


# a code no one keeps secret ("1234", "0000") in a text that says it is a demo's or an example's: one
# digit repeated, or four or more digits in a row up or down ("4567", "9876", "3210")
_IN_A_ROW = sorted({run[start:start + length] for run in ("0123456789", "9876543210")
                    for length in range(4, 11) for start in range(0, 11 - length)}, key=len, reverse=True)
TRIVIAL_CODE = r"([0-9])\1{2,7}|0?123|876|" + "|".join(_IN_A_ROW)
_CODES = lazy(r"(?<![0-9])(?:[0-9]{4,12}(?![0-9])|" + _SPACED_DIGITS + ")").finditer
_TRIVIAL = lazy(TRIVIAL_CODE).fullmatch
_A_DEMO = lazy(r"(?i)demo|d[ée]monstra|example|exemple|ejemplo|beispiel|esempio|voorbeeld|przyk[łl]ad|sample|exemplo"
               r"|placeholder|platzhalter").search
# said right after a code that it is an example's value: "0000 est la valeur d'exemple", "1234 — valor de ejemplo"
_AN_EXAMPLES_VALUE = lazy(r"(?i)\W{0,4}(?:is|est|es|ist|è|é|was)?\s*+(?:the|la|el|il|der|die|das|o|a)?\s*+"
                          r"(?:(?:example|sample|demo|placeholder)\s++(?:value|pin|code)|valeur\s++d['’]exemple"
                          r"|valeur\s++de\s++d[ée]monstration|valor\s++de\s++ejemplo|valor\s++de\s++exemplo|valore\s++di\s++esempio"
                          r"|beispielwert|voorbeeldwaarde|demo-?wert)")
_CLAUSE_START = lazy(r"[.;!?\n—–]")


def a_demos_code(text: str, start: int, end: int) -> bool:
    """Whether the code at ``text[start:end]`` is said to be a demo's or an example's: a word for one
    earlier in its clause ("Demo PIN 0000", "En la demo, el PIN es 1234"), or "the example value"
    right after it; not a demo in another sentence ("Garage keypad: 9999. Demo of the opener…")."""
    # (its clause looked for in the 200 characters before it: a line of many codes read each from its start)
    window = max(0, start - 200)
    clause_start = max((match.end() for match in _CLAUSE_START.finditer(text, window, start)), default=window)
    return bool(_A_DEMO(text[clause_start:start])) or _AN_EXAMPLES_VALUE.match(text, end) is not None


def _a_code_may_be_there(text: str) -> bool:
    """Four digits or more, not all of them a trivial code a demo or an example shows ("Demo PIN
    0000 is the example value from the docs")."""
    codes = list(_CODES(text))
    return bool(codes) and not all(_TRIVIAL(re.sub("[-. ]", "", code[0])) and a_demos_code(text, code.start(), code.end())
                                   for code in codes)


# A key beside "API" in another language, as the key's sentence below reads English: "Cheia API pentru Mailgun este
# …", "la clé API de Mailgun est …", "API-Schlüssel für … ist …", "Klucz API do Mailguna to …", "API-avain: …"; not
# a variable's name in capitals ("Clave API: MAPBOX_TOKEN_2024_PROD"), a build's name ("build_20240611_rc2"), nor on a
# line about the key's fingerprint, its id, a request's or an error's ("Empreinte de la clé API : 9f8e7d6c5b4a3f21",
# "ID de la clé API : …")
_API_KEY_ELSEWHERE = lazy(
    r"(?i)(?:(?<![^\W_])(?:" + _API_KEYS_WORD + r")[\s_-]++api(?![a-z])|(?<![a-z])api[\s_-]*+(?:" + _API_KEYS_WORD + r"))"
    r"" + _FOR_ELSEWHERE + r"(?:(?:" + _IS + r"|\s++(?:to|on|je|ir|da|e))\s|\s*+[:：])"
    r"(?!\s*+" + _OPENING + r"(?:(?-i:[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++)(?![\w])|(?:build|release|version|ver|test|rc|v[0-9])[_.-]))"
    + _RANDOM)
_ABOUT_THE_KEY = lazy(r"(?i)empreinte|fingerprint|(?<![^\W\d_])(?:id|ids)(?![^\W\d_])|identifi\w*|erreur|error|fehler|request"
                      r"|req_|version\w*|hash\w*|kennung").search


def _the_key_itself(text: str) -> bool:
    return _ABOUT_THE_KEY(text) is None


_REQUIRED = {_API_KEY_ELSEWHERE: _the_key_itself, _PIN_OR_CODE: _a_code_may_be_there, _PIN_DESCRIBED: _a_code_may_be_there, _CODE_ELSEWHERE: _FOUR_DIGITS, _PRIVATE_KEY: _a_key_may_be_there}

# (reason, pattern, needles). A detector can fire only where one of its needles occurs: in the
# text itself, or for a case-insensitive pattern (needles in lower case) in its ``plain.lowered`` form.
# The needles let ordinary text skip every pattern at the cost of a few substring searches.
_DETECTORS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("looks like a private key", _PRIVATE_KEY, ("PRIVATE KEY", "PuTTY-User-Key-File")),
    (
        "looks like an AWS access key",
        # not the documentation's example, AKIAIOSFODNN7EXAMPLE
        lazy(WORD_START + r"(?:AKIA|ASIA)(?!IOSFODNN7EXAMPLE)[0-9A-Z]{16}" + WORD_END),
        ("AKIA", "ASIA"),
    ),
    (
        "looks like a GitHub token",
        lazy(WORD_START + r"(?:gh[pousr]_(?!x{36})[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})" + WORD_END),  # not ghp_xxxx…
        ("gh", "github_pat_"),
    ),
    (
        "looks like a Telegram bot token",
        # the bot's id (after "bot" in its API's URLs), a colon, then 34 characters, starting with A
        # and holding a digit (not an ARN's name: "…:123456789012:AlertsTopicForProduction")
        lazy(r"(?:(?<=bot)|" + WORD_START + r")(?<!:)[0-9]{5,16}:A(?=[A-Za-z0-9_-]{0,32}[0-9])"
                   r"[A-Za-z0-9_-]{33}"),
        (":A",),
    ),
    ("looks like a Slack token", lazy(WORD_START + r"xox[abposr]-[A-Za-z0-9-]{10,}"), ("xox",)),
    (
        "looks like a private calendar link's token",
        # a calendar's feed whose address is its key: Airbnb's and other hosts' ".ics?s=<token>", a feed's
        # "?token=", "?key=", the token 24 or more letters and digits, both, or a UUID (not a public feed's
        # name, "?t=premier_league_2024_25", "?t=term-dates-2024-2025-autumn"); Google Calendar's
        # "private-<32 hex>/basic.ics"
        lazy(r"(?i)(?:/ical/|\.ics(?![a-z0-9_]))[^\s\"'<>]{0,200}?[?&](?:s|t|k|token|key|secret|auth)="
             r"(?:(?=[a-z]*[0-9])(?=[0-9]*[a-z])[a-z0-9]{24,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
             r"(?![\w.-])"
             r"|/private-[0-9a-f]{20,}/basic\.ics"
             # VRBO's, Booking.com's, Outlook's and iCloud's shared calendars
             r"|/icalendar/[0-9a-f]{24,}\.ics|/ical\.html\?t=[0-9a-f-]{24,}|/owa/calendar/[0-9a-f]{24,}@"
             # (Outlook's published calendar: its token in the path, 16 hex digits or more, "…/owa/calendar/<id>@
             # contoso.com/<token>/calendar.ics", "…/owa/calendar/<guid>/<guid>/cid-…/calendar.ics"; not a
             # calendar named with no token, "…/owa/calendar/StMarysPrimary@stmarys.org.uk/calendar.html")
             r"|/owa/calendar/[^\s\"'<>]{0,200}?/[0-9a-fA-F-]{16,}/(?:[^\s\"'<>/]{1,40}/)?(?:reach)?calendar\.(?:ics|html)"
             r"|webcal://[^\s/]*icloud\.com/published/[0-9]/[A-Za-z0-9_-]{24,}"),
        ("ical", ".ics", "/owa/calendar/", "/published/"),
    ),
    (
        "looks like an API secret key",
        lazy(WORD_START + r"(?:sk|rk)-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}"),
        ("sk-", "rk-"),
    ),
    (
        "looks like a JSON Web Token",
        # As WORD_START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", written to start
        # only where a run of token characters starts and to take that run's first "eyJ" (the one
        # with the most after it) for good: the plain pattern scans a run again from each "eyJ" in it.
        lazy(
            r"(?<![A-Za-z0-9_-])(?>[A-Za-z0-9_-]*?" + WORD_START + r"eyJ)[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\."
            r"[A-Za-z0-9_-]{8}"
        ),
        ("eyJ",),
    ),
    (
        "looks like a bearer credential",
        lazy(r"(?i)" + WORD_START + r"bearer\s+(?!your[_-]|replace[_-]with[_-]|" + STAND_IN + r"(?![A-Za-z0-9]))"
             r"[A-Za-z0-9._~+/=-]{16,}"),
        ("bearer",),
    ),
    (
        "looks like a credential assignment",
        lazy(  # also as the end of a name (DB_PASSWORD=, AWS_SECRET_ACCESS_KEY=), quoted, and in
            # the words for a password of other languages (_PASSWORD_WORDS)
            r"(?i)" + _CREDENTIAL_START + r"(?:(?<![a-z0-9])(?:password|passwd|pwd|secret|token|"
            r"(?:api|access|secret|private)[_-]?key|" + _PASSWORD_WORDS + r")|" + _PASSWORD_WORDS_UNSPACED + r")"
            r"[\"']?\s*[:=：][^\S\n]*[\"']?" + _CODE_VALUE + r"[^\s\"']{4,}|" + _ARABIC_SCRIPTS_PASSWORD
        ),
        ("passw", "pwd", "secret", "token", "key") + _PASSWORD_NEEDLES + _ARABIC_SCRIPTS_NEEDLES,
    ),
    # A credential stated in a sentence: a word for it, what it is for ("for the router", optional),
    # a verb ("is", "was set to", "ist", "est :") or a colon, then a value that looks like one
    # (_HAS_A_SIGN, _RANDOM). Three detectors, each run only where its own words are.
    (
        "looks like a credential stated in a sentence",  # a password: "the wifi password is hunter22",
        # "password for Gmail: …", "changed his password to …", "Passwort ist …", with no verb
        # ("her gmail password Hunter2024!", "the password, hunter22, is…"), and where the verb is a
        # particle, "パスワードはabc123です". The plural is left out: "passwords are bcrypt-hashed".
        lazy(
            r"(?i)" + _CREDENTIAL_START + r"(?:"
            r"(?:(?<![a-z0-9])(?:password|passwd|passphrase|passcode|pwd|" + _PASSWORD_WORDS + r")"
            r"|" + _PASSWORD_WORDS_UNSPACED + r")"
            # "to" after a name in code is a rename: "Renamed hash_password to build_session"
            r"(?:['’]s|" + _FOR + r"(?:" + _IS + r"|\s*+[:：])|(?<!_password)(?<!_passwd)(?<!_pwd)\s++to|\s*+[-–—?])\s"
            + _HAS_A_SIGN
            + r"|(?:(?:密码|密碼)\s*+(?:是|为|為)|(?:パスワード|暗証番号)\s*+[はが]|비밀번호(?:\s*+[는은가])?)"
            + _ASCII_HAS_A_SIGN
            # with no verb; not "passwd" or "pwd", which are also commands ("sudo passwd deploy2")
            + r"|(?:(?<![a-z0-9])(?:password|passphrase|passcode|" + _PASSWORD_WORDS + r"),?[^\S\n]"
            r"|" + _PASSWORD_WORDS_UNSPACED + r")" + _BARE
            + r"|(?<![a-z0-9])(?:password|passphrase|passcode|" + _PASSWORD_WORDS + r")[^\S\n]++"
            + _FOR_WHAT + _STRONG + ")"
        ),
        ("pass", "pwd") + _PASSWORD_NEEDLES,
    ),
    ("looks like a credential stated in a sentence", _PIN_OR_CODE, ("pin", "puk", "code", "combination", "passcode",
                                                                    "暗証番号", "密码", "密碼")),
    ("looks like a PIN or a lock's code", _PIN_DESCRIBED, ("pin", "code", "combination", "passcode")),
    ("looks like a credential stated in a sentence", _CODE_ELSEWHERE, ("code", "codice", "código", "codigo", "kod",
                                                                       "код", "pin", "пин", "geheimzahl", "combina",
                                                                       "kombination", "zahlenschloss", "secreto",
                                                                       "segreto")),
    (
        "looks like a credential stated in a sentence",  # a key: "the API key is 9f8e7d6c5b4a3f2e1d0c",
        # "Stripe secret key: sk_live_51Habc…"
        lazy(
            r"(?i)" + _CREDENTIAL_START
            + r"(?<![a-z0-9])(?:secret|token|(?:api|access|secret|private|auth)[\s_-]?key)s?"
            r"(?:" + _FOR + _IS + r"\s|\s*+[:：])" + _RANDOM
        ),
        ("secret", "token", "key"),
    ),
    ("looks like a credential stated in a sentence", _API_KEY_ELSEWHERE, ("api",)),
    (
        "looks like a credential assignment",  # camelCase, PascalCase: accessToken=, ClientSecret:
        lazy(
            r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:Password|Passwd|Pwd|Secret|Token|ApiKey|APIKey|AccessKey|"
            r"SecretKey|PrivateKey)[\"']?\s*[:=]\s*[\"']?" + _CODE_VALUE + r"[^\s\"']{4,}"
        ),
        ("Passw", "Pwd", "Secret", "Token", "Key"),
    ),
    (
        "looks like a URL with embedded credentials",
        # As r"(?i)" + WORD_START + r"[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@", written to start only where
        # a run of scheme characters starts (the plain pattern scans a run again from each letter in it).
        lazy(r"(?i)(?<![a-z0-9+.-])(?=[a-z0-9+.-]*?" + WORD_START + r"[a-z])[a-z0-9+.-]*+://"
                   r"(?:[^/\s:@]+@[a-z0-9-]+\.[a-z0-9.-]+|[^/\s:@]+):"  # the user may be an address: smtp://me@mail.com:pw@host
                   # not a placeholder: "postgres://USER:PASSWORD@HOST", "<password>", "${DB_PASS}"
                   r"(?!(?-i:PWD)@|(?:password|pass|pwd|secret)@|" + URL_STAND_IN + r")"
                   r"[^/\s@]+@"),
        ("://",),
    ),
    (
        "looks like command output (a traceback)",
        lazy(r"Traceback \(most recent call last\)"),
        ("Traceback (most recent call last)",),
    ),
    (
        "looks like command output (a shell prompt)",
        # A line's leading blanks stop at its end: ^\s* would run on through every blank line below,
        # from each line start.
        # Not a tool's version asked for and told: "$ node --version" then "v20.11.1".
        lazy(r"(?m)^[^\S\n]*(?:\$|[\w.-]+@[\w.-]+:[^\n$#]*[$#]|[\w.-]+@[\w.-]+ [^\n%]{1,40} %)\s+"
             r"(?!\S+[^\S\n]++(?:--version|-[vV]|-version|version(?:[^\S\n]++--[a-z-]+)?)[^\S\n]*+\n[^\n]{0,60}?[0-9]+\.[0-9]+)"
             r"\S+.*\n\S"),
        ("\n",),
    ),
    (
        "looks like a local filesystem path",
        lazy(
            r"(?:" + WORD_START + r"(?<![/.-])(?:/home|/Users|/root|/etc|/var|/tmp|/opt|/usr|/srv|/mnt|/private)/[\w.-]"
            r"|" + WORD_START + r"(?<![.-])~(?:[a-z_][a-z0-9._-]{0,31})?/[\w.-]"
            r"|" + WORD_START + r"[A-Za-z]:\\[\w .-]"
            r"|" + WORD_START + r"file://)"
        ),
        ("/", "\\"),
    ),
)


# (reason, search, needles, whether the needles are looked for in the folded text, the search
# for what its matches also hold, if any: ``_REQUIRED``)
_GATED = tuple(
    (reason, pattern, frozenset(needles), pattern.ignores_case, _REQUIRED.get(pattern))
    for reason, pattern, needles in _DETECTORS
)


# Every needle at once: one search of the text (case-sensitive needles) and one of the folded text
# (case-insensitive ones) tell which needles a text holds; ordinary text holds none, so that no
# detector can fire, and the rest is sent only through the detectors whose needles it holds.
_NEEDLES = Needles({n for _, _, needles, folded, _ in _GATED if not folded for n in needles})
_FOLDED_NEEDLES = Needles({folded_pattern(n) for _, _, needles, folded, _ in _GATED if folded for n in needles})


def reason(text: str) -> str | None:
    """The first of these rules that fires on ``text`` as written (not its plain form), or None;
    each detector is tried only where one of its needles occurs."""
    found = _NEEDLES.found(text)
    found_folded = _FOLDED_NEEDLES.found(lowered(text))
    if not found and not found_folded:
        return None
    for why, pattern, needles, in_folded, required in _GATED:
        if (not needles.isdisjoint(found_folded if in_folded else found)
                and (required is None or required(text)) and pattern.search(text)):
            return why
    return None
