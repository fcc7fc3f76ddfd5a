"""A bad value that came from the environment or the config file names where it came from.

Offline. The options are found by walking the click command tree: every option with an
environment fallback whose value is checked when the command line is read (a URL, a handle, a
directory, a flag) is tried with a bad value in its variable, in every command that has it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pdsmem.cli import cli

PLACEHOLDER = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"  # for the other required arguments and options


def checked_env_options(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Option]]:
    """(command path, option) for every option with an environment variable whose value is checked."""
    commands = [((), group)] if not prefix else []
    commands += [((*prefix, name), command) for name, command in group.commands.items()]
    for path, command in commands:
        if isinstance(command, click.Group) and path:
            yield from checked_env_options(command, path)
            continue
        for param in command.params:
            if isinstance(param, click.Option) and param.envvar and (
                param.callback is not None or not isinstance(param.type, click.types.StringParamType)
            ):
                yield path, param


CASES = [(path, option) for path, option in checked_env_options()]


def test_the_walk_finds_the_options_that_read_the_environment() -> None:
    found = {(" ".join(path), option.opts[0]) for path, option in CASES}
    assert {("", "--debug"), ("verify", "--pds"), ("import", "--plc"), ("status", "--state-dir"),
            ("export", "--to"), ("sync", "--rushdb-url"), ("lexicon publish", "--to")} <= found


@pytest.mark.parametrize("path, option", CASES, ids=[f"{' '.join(p) or 'pdsmem'} {o.opts[0]}" for p, o in CASES])
def test_a_bad_environment_value_names_its_variable(path: tuple[str, ...], option: click.Option,
                                                    tmp_path: Path) -> None:
    """Regression: ATP_PDS_HOST=notaurl said only "Invalid value for '--pds'", an option never passed."""
    names = [option.envvar] if isinstance(option.envvar, str) else list(option.envvar)
    if isinstance(option.type, click.Path):
        bad = str(tmp_path / "a-file")
        Path(bad).write_text("")
    elif isinstance(option.type, click.types.BoolParamType):
        bad = "maybe"
    else:
        bad = "not a url!"
    command = cli
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    args = list(path)
    for param in command.params if path else []:
        if param.required and param is not option:
            value = "-" if param.opts[0] == "--from" else PLACEHOLDER  # a source that is there: standard input
            args += [PLACEHOLDER] if isinstance(param, click.Argument) else [param.opts[0], value]
    if not path:
        args = ["status"]
    for name in names:
        result = CliRunner().invoke(cli, args, env={name: bad}, input="")
        assert result.exit_code == 2, result.output
        assert (f"Error: Invalid value for '{option.opts[0]}' (from the environment variable {name}; "
                "fix or unset it): ") in result.stderr


def test_a_value_typed_on_the_command_line_is_named_as_before() -> None:
    result = CliRunner().invoke(cli, ["verify", "repo.car", "--pds", "notaurl"])
    assert result.exit_code == 2
    assert "Error: Invalid value for '--pds': the PDS URL must look like" in result.stderr


def test_a_bad_config_file_value_names_the_file_and_key(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('pds = "not a url"\n')
    result = CliRunner().invoke(cli, ["verify", PLACEHOLDER], env={"PDSMEM_CONFIG": str(config)})
    assert result.exit_code == 2
    assert f"Error: Invalid value for '--pds' (from pds in the config file {config}): " in result.stderr
