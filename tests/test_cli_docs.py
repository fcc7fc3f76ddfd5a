"""Docs that match the code: docs/cli.md is current, and the README's commands exist as written."""

from __future__ import annotations

import importlib.util
import shlex
from pathlib import Path

import click

from pdsmem.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_cli_docs", ROOT / "scripts" / "gen_cli_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_current() -> None:
    generated = load_generator().render()
    current = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert current == generated, "docs/cli.md is out of date: run python scripts/gen_cli_docs.py"


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Using it", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == "pdsmem":
            commands.append(words[1:])
    return commands


def test_every_readme_command_and_option_exists() -> None:
    commands = readme_commands()
    assert len(commands) >= 12
    for words in commands:
        command: click.Command = cli
        rest = list(words)
        while isinstance(command, click.Group):
            name = rest.pop(0)
            assert name in command.commands, f"pdsmem {' '.join(words)}: no command {name!r}"
            command = command.commands[name]
        known = {opt for param in command.params for opt in getattr(param, "opts", [])}
        used = [word for word in rest if word.startswith("-") and word not in ("<", ">")]
        assert set(used) <= known, f"pdsmem {' '.join(words)}: unknown {set(used) - known}"


def test_lexicon_publish_is_shown_only_for_an_account_that_can_publish() -> None:
    """Regression: the README showed `lexicon publish --to alice.example.com`, which fails for every
    user: only the account of a lexicon's authority domain may publish it."""
    from pdsmem.cli.lexicon import covers, shipped

    shown = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if "lexicon publish --to " in line:
                words = shlex.split(line.split("pdsmem lexicon publish", 1)[1].split("#", 1)[0].strip("` "))
                account = words[words.index("--to") + 1]
                shown.append((path.name, account))
                assert any(covers(account, nsid) for nsid in shipped()), (
                    f"{path.name}: lexicon publish --to {account}: that account is no shipped lexicon's authority")
    assert shown
