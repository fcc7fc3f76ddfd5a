"""The one rule of ``--json`` (README, "Using it"): every command that takes it prints JSON lines
on stdout and ends with one ``{"summary": …}`` line, or, when the run stops on an error or a usage
error, one ``{"error": …}``.

The commands are found by walking the click command tree, so a new command with ``--json`` and
no run here fails ``test_every_json_command_has_a_run_here``. Each run is against the real local
PDS and RushDB (one account with exported memories, one RushDB project, for the module).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from devkit.events import episode, fact
from devkit.pds import Account, LocalPds
from devkit.rushdb import LocalRushDB, Project
from support.rushdb_view import EmbeddingsServer

from pdsmem.cli import cli

SCOPE = ["--agent-id", "coder", "--profile-id", "default"]

# What each command with --json is run with here; {did}, {memories} and {authority} are filled in
# from the module's account, its exported memories file and the account pdsmem.dev.
RUNS: dict[str, list[str]] = {
    "import": ["import", "--from", "{did}", *SCOPE],
    "verify": ["verify", "{did}"],
    "sync": ["sync", "{did}", *SCOPE],
    "recall": ["recall", "tea", *SCOPE, "--did", "{did}"],
    "list": ["list", *SCOPE, "--did", "{did}"],
    "ensure-indexes": ["ensure-indexes", "--dry-run"],
    "export": ["export", "--to", "{did}", "--from", "{memories}"],
    "lexicon show": ["lexicon", "show"],
    "lexicon publish": ["lexicon", "publish", "--to", "{authority}", "--dry-run"],
    "status": ["status"],
    "config show": ["config", "show"],
}


def json_commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> Iterator[str]:
    """Every command (``"lexicon publish"``) in the tree that takes ``--json``."""
    for name, command in group.commands.items():
        path = (*prefix, name)
        if isinstance(command, click.Group):
            yield from json_commands(command, path)
        elif any("--json" in getattr(param, "opts", ()) for param in command.params):
            yield " ".join(path)


def test_every_json_command_has_a_run_here() -> None:
    assert sorted(json_commands()) == sorted(RUNS)


@pytest.fixture(scope="module")
def world(pds: LocalPds, rushdb_server: LocalRushDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """An account holding exported memories, a RushDB project, an embeddings endpoint, and the
    account whose handle speaks for pdsmem's own lexicon."""
    account: Account = pds.create_account()
    memories = tmp_path_factory.mktemp("json") / "memories.jsonl"
    memories.write_text("".join(json.dumps(m) + "\n" for m in (fact(1), fact(2), episode(3))))
    project: Project = rushdb_server.new_project()
    with EmbeddingsServer() as embeddings:
        env = {**project.env, **embeddings.env, "ATP_PDS_HOST": pds.url, "ATP_PLC_HOST": pds.plc_url,
               "MEMORY_SCOPE_SALT": "json-salt", "ATP_AUTH_PASSWORD": account.password}
        fill = {"did": account.did, "memories": str(memories), "authority": ""}
        first = CliRunner().invoke(cli, ["export", "--to", account.did, "--from", str(memories)], env=env)
        assert first.exit_code == 0, first.output
        yield {"env": env, "fill": fill, "pds": pds}


@pytest.mark.pds
@pytest.mark.rushdb
@pytest.mark.parametrize("command", sorted(RUNS))
def test_every_json_command_ends_with_one_summary_line(command: str, world: dict, pdsmem_dev: Account) -> None:
    env = dict(world["env"])
    fill = dict(world["fill"])
    if command == "lexicon publish":  # only the authority's own account can publish its lexicon
        fill["authority"] = pdsmem_dev.handle
        env["ATP_AUTH_PASSWORD"] = pdsmem_dev.password
    args = [part.format(**fill) for part in RUNS[command]] + ["--json"]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code in (0, 3), f"{args}: {result.output}"
    lines = [json.loads(line) for line in result.stdout.splitlines()]  # JSON lines only
    assert lines, f"{command} --json printed nothing"
    assert list(lines[-1]) == ["summary"] and isinstance(lines[-1]["summary"], dict), lines[-1]
    assert all("summary" not in line for line in lines[:-1])



# How each command that reaches a server is made to fail at once: a DID no PLC directory knows,
# or a RushDB key the server refuses. Commands that read only this machine cannot fail so.
NOBODY = "did:plc:" + "z" * 24
FAILING: dict[str, list[str]] = {
    "import": ["import", "--from", NOBODY, *SCOPE],
    "verify": ["verify", NOBODY],
    "sync": ["sync", "{did}", *SCOPE],
    "recall": ["recall", "tea", *SCOPE, "--did", "{did}"],
    "list": ["list", *SCOPE, "--did", "{did}"],
    "ensure-indexes": ["ensure-indexes", "--dry-run"],
    "export": ["export", "--to", NOBODY, "--from", "{memories}"],
    "lexicon publish": ["lexicon", "publish", "--to", NOBODY, "--dry-run"],
}


def test_every_json_command_that_reaches_a_server_has_a_failing_run_here() -> None:
    assert sorted(FAILING) == sorted(set(RUNS) - {"status", "config show", "lexicon show"})


@pytest.mark.pds
@pytest.mark.rushdb
@pytest.mark.parametrize("command", sorted(FAILING))
def test_a_failed_json_run_ends_with_one_error_line(command: str, world: dict) -> None:
    """A run that fails never prints its summary; a reader of the JSON lines gets how it ended
    instead, the same message as stderr's ``Error:`` line, and the exit code."""
    env = {**world["env"], "RUSHDB_API_KEY": "not-a-key-of-this-server"}
    args = [part.format(**world["fill"]) for part in FAILING[command]] + ["--json"]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 1, f"{args}: {result.output}"
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and list(lines[-1]) == ["error"], result.stdout
    assert all("summary" not in line and "error" not in line for line in lines[:-1])
    error = lines[-1]["error"]
    assert error["exitCode"] == 1 and error["kind"] == "error"
    assert f"Error: {error['message']}" in result.stderr.splitlines()


@pytest.mark.pds
def test_a_failed_run_without_json_prints_nothing_on_stdout(world: dict) -> None:
    args = [part.format(**world["fill"]) for part in FAILING["export"]]
    result = CliRunner().invoke(cli, args, env=world["env"])
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert result.stderr.startswith("Error: ")


@pytest.mark.parametrize("args", [
    ["export", "--to", NOBODY, "--from", "no-such-file.jsonl", "--json"],
    ["import", "--json", "--no-such-option"],
    ["lexicon", "publish", "--json", "--no-such-option"],
    ["status", "--json", "--state-dir", __file__],
])
def test_a_usage_error_with_json_ends_with_one_error_line(args: list[str]) -> None:
    """Regression: a bad option or argument (exit 2) printed nothing on stdout under --json, so a
    reader of the lines could not tell it from a run that found nothing."""
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    [line] = [json.loads(line) for line in result.stdout.splitlines()]
    assert line["error"]["kind"] == "usage" and line["error"]["exitCode"] == 2
    assert f"Error: {line['error']['message']}" in result.stderr


@pytest.mark.parametrize("args, json_line", [
    (["lexicon", "show", "--", "--json"], False),  # after "--", an argument: no JSON asked for
    (["lexicon", "show", "--json", "--", "--json"], True),
])
def test_json_after_a_double_dash_is_an_argument(args: list[str], json_line: bool) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert bool(result.stdout.strip()) is json_line, result.stdout


def test_a_bad_config_file_under_json_is_a_usage_error_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("not = [valid toml", encoding="utf-8")
    result = CliRunner().invoke(cli, ["status", "--json"], env={"PDSMEM_CONFIG": str(config)})
    assert result.exit_code == 2, result.output
    [line] = [json.loads(line) for line in result.stdout.splitlines()]
    assert line["error"]["kind"] == "usage" and line["error"]["exitCode"] == 2


@pytest.mark.parametrize("args, json_line", [
    (["status", "--json"], True),
    (["status"], False),
    (["lexicon", "show", "--", "--json"], False),
])
def test_a_bad_value_of_the_roots_own_option_under_json_is_a_usage_error_line(args: list[str], json_line: bool) -> None:
    """Regression: a bad PDSMEM_DEBUG (the root's --debug, read before the command's --json) left
    the reader of the lines with nothing on stdout."""
    result = CliRunner().invoke(cli, args, env={"PDSMEM_DEBUG": "maybe"})
    assert result.exit_code == 2, result.output
    assert "PDSMEM_DEBUG" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert bool(lines) is json_line, result.stdout
    if json_line:
        [line] = lines
        assert line["error"]["kind"] == "usage" and "PDSMEM_DEBUG" in line["error"]["message"]
