"""The labels of three translation catalogs (tests/fixtures/password_words/), and the values and
stand-ins put after them: what the tests assert and ``scripts/bench_privacy.py`` measures
(docs/reliability.md, "Labels from translation catalogs")."""

from __future__ import annotations

import json
from pathlib import Path

CATALOGS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "password_words"

# values plainly of a label's kind: passwords in four shapes the gate tells apart, a PIN's or a
# code's digits, a random key and a hex one
VALUES = {"password": ("Kx8#pq2m", "sunflower77", "tiger-lamp-sofa-4", "Hunter22!"), "pin": ("4829", "739104"),
          "code": ("4829", "739104"), "key": ("Kx8pq2mZ7Lw0vQe3RtYb", "a3f9c2e17b4d8e6f0a1b5c7d9e2f4a6b"),
          "token": ("Kx8pq2mZ7Lw0vQe3RtYb", "a3f9c2e17b4d8e6f0a1b5c7d9e2f4a6b")}
# what stands where a value goes in a template, a note or a redacted log
STAND_INS = ("••••••••", "••••", "[REDACTED]", "${DB_PASSWORD}", "<your password>", "12", "(see vault)",
             "(see the panel)", "in the vault", "not set")


def translations(catalog: str) -> list[tuple[str, str, str]]:
    """(language, msgid, label) for every translation in ``catalog`` ("django", "allauth"), English's
    left out."""
    forms = json.loads((CATALOGS / f"{catalog}.json").read_text(encoding="utf-8"))
    return [(language, msgid, label) for language, labels in sorted(forms.items()) if not language.startswith("en")
            for msgid, label in sorted(labels.items())]


def home_assistant(half: str) -> list[tuple[str, str, str]]:
    """(language, kind, label) of Home Assistant's labels in ``half`` ("tune", "held"), without those
    that name something else (``not_its_name``)."""
    home = json.loads((CATALOGS / "home_assistant.json").read_text(encoding="utf-8"))
    return [(language, kind, label) for language in home[half] for kind, labels in sorted(home["labels"][language].items())
            for label in labels if not any(other in label for other in home["not_its_name"])]
