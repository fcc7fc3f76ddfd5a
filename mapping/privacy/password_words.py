"""The word for a password in the languages the gate's older lists lack.

The gate's checks each hold the words they were written for (``labelled._PASSWORD_LINE`` holds
the most). The words below close what a measure found missing: Django's translation catalog of
"Password", "New password" and "Old password" in 92 languages, put after a label's colon with
a value that is plainly a password, was let through in 39 of its languages (``Parolă:
Kx8#pq2m``, ``Palavra-passe: Hunter22!``, ``گذرواژه: …``), because the line read as about nothing.
``tests/fixtures/password_words/`` holds that catalog, django-allauth's (measured before any
change, then tuned on) and Home Assistant's labels (docs/reliability.md, "Labels from translation
catalogs"); a few words came from the last two, and say so.

Each is the word as its language writes it, lowercased, with the endings it takes where a label
carries one. Pure data: the checks that read it splice it into their patterns.
"""

from __future__ import annotations

# written in Latin letters: after these, an ordinary word of the language ("Salasõna: aegunud",
# expired) cannot be told from a made-up one, since the gate has no list of the language's words
LATIN = (
    r"salasõna\w{0,4}"  # Estonian
    r"|pasvort\w{0,3}"  # Esperanto
    r"|ger-tremen"  # Breton
    r"|fh?acal[\s-]++faire"  # Scottish Gaelic, also after a mutation ("an seann fhacal-faire")
    r"|contrasigno"  # Interlingua
    r"|awal\s++n\s++u[ɛe]eddi|awal\s++uffir"  # Kabyle
    r"|gronid[łl]\w{0,3}|hesł\w{0,3}"  # Lower and Upper Sorbian
    r"|nywila"  # Swahili ("nenosiri" is in the older lists)
    r"|modpas"  # Haitian Creole (from the second catalog)
    r"|pasw[ọo][ọo]d[ụu]|loyniorð\w{0,3}"  # Igbo, Faroese (from a writer's pool)
    r"|(?<![a-z])kalmar\s++sirri(?![a-z])"  # Hausa, "the word of a secret" (from a new user's break)
    r"|pakasqa\s++simi\w{0,4}|baatu\s++j[àa]ll|kupuhipa"  # Quechua ("the hidden word"), Wolof, Māori (from a writer's pool)
    # Uzbek and Turkmen, with the endings of "my", "our", "your"; only as a label, since "parol" is a
    # Filipino lantern, a painkiller and a lawyer's word too
    r"|(?<![a-z])parol(?:i|ni|im|imiz|ingiz|y|ym|yňyz)?(?=\s*+[:：=→])"
)

# written in Latin letters, in languages whose ordinary words the gate does list (``words``)
LISTED = (
    r"parolă"  # Romanian; "parola" is Italian's word too, and the older lists hold it
    r"|palavra[\s-]passe"  # European Portuguese
)

# written in other scripts: no ordinary word of theirs is ever read as a made-up one
OTHER_SCRIPTS = (
    r"گذرواژه|کلمه\s*+عبور"  # Persian, in its two words (the second from Home Assistant's translations)
    r"|الرقم\s*+السري"  # Arabic "the secret number" (Home Assistant's)
    r"|(?:ال)?باس\s*+و?ورد|پس\s*+و?ورد|پاس\s*+و?ورد(?!ڈ)"  # the English word as Arabic and Persian speakers write it
    r"|تێپەڕەوشە"  # Central Kurdish
    r"|پارول"  # Uyghur
    r"|لفظ\s*+اجازت"  # Urdu
    r"|कूटशब्द|शब्दकूट|गुप्तशब्द"  # Hindi (both orders), Marathi
    r"|ਪਾਸਵਰਡ"  # Punjabi
    r"|సంకేతపదం"  # Telugu
    r"|ಪ್ರವೇಶಪದ"  # Kannada
    r"|പാസ്സ്\u200c?വേഡ്|പാസ്\u200c?വേര്\u200d?ഡ്"  # Malayalam, with a double "ss" or a chillu "r"
    r"|ពាក្យ\s*+(?:សំងាត់|សម្ងាត់)"  # Khmer, in its two spellings
    r"|စကားဝှက်"  # Burmese
    r"|нууц\s*+үг"  # Mongolian
    r"|сырсөз\w*|серсүз\w*|купуя\w{0,3}"  # Kyrgyz (two words, the second from the second catalog), Tatar
    r"|(?<!\w)рамз(?:и|ро)?(?!\w)"  # Tajik (not the names Рамзан, Рамзес)
    r"|ፓስወርድ|የይለፍ\s*+ቃል"  # Amharic: the English word as it writes it, and its own ("the word to pass")
    r"|මුරපද"  # Sinhala (from a writer's pool)
    r"|ପାସୱାର୍ଡ"  # Odia, the English word as it writes it (from a writer's pool)
)

# the English word as Arabic and Persian speakers write it, in one word ("باسورد", "پسورد"; not Urdu's
# "پاسورڈ", which the older lists hold): the checks of a password's line and of a label's colon read it
ENGLISH_IN_ARABIC_SCRIPT = r"باسو?ورد|پسو?ورد|پاسو?ورد(?!ڈ)"

# all of them: one alternative of a pattern, under ``(?i)``
ALL = LATIN + "|" + LISTED + "|" + OTHER_SCRIPTS

# what every match of ``ALL`` holds, lowercased: the needles of the checks that are searched only
# where one of their words is
NEEDLES = ("salasõ", "pasvort", "ger-tremen", "facal", "acal-faire", "acal faire", "contrasigno", "eddi", "uffir", "gronid",
           "hesł", "nywila", "modpas", "paswọọdụ", "paswoodu", "loyniorð", "kalmar sirri", "pakasqa simi", "baatu j", "kupuhipa", "parol", "palavra-passe", "palavra passe", "शब्दकूट", "പാസ്", "گذرواژه", "عبور", "السري", "ورد", "تێپەڕەوشە", "پارول",
           "اجازت", "कूटशब्द", "गुप्तशब्द", "ਪਾਸਵਰਡ", "సంకేతపదం", "ಪ್ರವೇಶಪದ", "പാസ്സ്", "ងាត់", "စကားဝှက်", "нууц", "сырсөз",
           "серсүз", "купуя", "рамз", "ፓስወርድ", "የይለፍ", "මුරපද", "ପାସୱାର୍ଡ")
