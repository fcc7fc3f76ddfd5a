"""The command line loads a command's module only when the command runs (``pdsmem.cli.COMMANDS``):
the table ``pdsmem --help`` lists is the commands' own, and starting it loads no layer below.

How fast that is, is measured by scripts/bench_startup.py (docs/benchmarks.md), not here.
"""

from __future__ import annotations

import json
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


def _loaded_after(*argv: str) -> list[str]:
    code = ("import sys, runpy; sys.argv = ['pdsmem', *%r]\n"
            "try:\n    runpy.run_module('pdsmem', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "import json; print(json.dumps(sorted(sys.modules)), file=sys.stderr)") % (list(argv),)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
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
