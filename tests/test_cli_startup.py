"""The command line loads a command's module only when the command runs (``pdsmem.cli.COMMANDS``):
the table ``pdsmem --help`` lists is the commands' own, and starting it loads no layer below.

How fast that is, is measured by scripts/bench_startup.py (docs/benchmarks.md), not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import click

from pdsmem.cli import COMMANDS, cli


def test_the_table_names_every_command_with_its_module_and_its_help():
    attached = dict(cli.commands.items())  # walking the commands loads every module
    assert sorted(attached) == sorted(COMMANDS)
    for name, (module, first_sentence) in COMMANDS.items():
        command = attached[name]
        callback = command.callback if command.callback else next(iter(command.commands.values())).callback
        assert callback.__module__ == f"pdsmem.cli.{module}", name
        assert click.Command(name, help=first_sentence).get_short_help_str(10**4) == \
            command.get_short_help_str(10**4), name


def _loaded_after(*argv: str, stdin: str | None = None, env: dict[str, str] | None = None) -> list[str]:
    code = ("import sys, runpy; sys.argv = ['pdsmem', *%r]\n"
            "try:\n    runpy.run_module('pdsmem', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "import json; print(json.dumps(sorted(sys.modules)), file=sys.stderr)") % (list(argv),)
    run = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True, check=True, env=env)
    return json.loads(run.stderr.strip().splitlines()[-1])


def test_help_loads_no_command_module_no_layer_and_no_sdk():
    loaded = _loaded_after("--help")
    heavy = [name for name in loaded if name.startswith(("pdsmem.bridge.", "pdsmem.mapping.", "pdsmem.api.", "httpx",
                                                          "rushdb", "atproto", "pydantic", "detect_secrets", "wordfreq"))]
    commands = [name for name in loaded if name.startswith("pdsmem.cli.") and name.split(".")[-1] in
                {module for module, _ in COMMANDS.values()}]
    assert heavy == [] and commands == []


def test_a_command_loads_its_own_module_only():
    loaded = _loaded_after("schema")
    assert "pdsmem.cli.lexicon" in loaded
    assert not {"pdsmem.cli.exporting", "pdsmem.cli.memory", "pdsmem.cli.importing"} & set(loaded)


def test_a_filter_reading_standard_input_loads_no_path_or_config_parser(tmp_path):
    """Regression (start-up): ``convert`` reading standard input, with no config file, loaded
    pathlib (and urllib and ipaddress with it) and tomllib, a tenth of its start (docs/benchmarks.md)."""
    event = {"schemaVersion": 1, "eventType": "fact", "runtime": "hermes", "agentId": "coder", "profileId": "p",
             "privacyScope": "shared", "participantScopeHash": "0" * 64, "sandboxEligible": False,
             "text": "The user prefers tabs.", "subjectKey": "user.indent", "validFrom": "2026-01-01T00:00:00Z",
             "sourceEventId": "turn-1", "trustClass": "user_asserted", "provenance": "hermes:sync_turn"}
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)}
    loaded = _loaded_after("convert", "to-record", "--did", "did:plc:abc", stdin=json.dumps(event) + "\n", env=env)
    assert "pdsmem.mapping.to_record" in loaded  # the command ran
    assert not {"pathlib", "tomllib"} & set(loaded)
