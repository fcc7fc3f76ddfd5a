"""The config file: where it is, how its values become option defaults, and secrets refused.

Offline. The config directory is a temporary XDG_CONFIG_HOME, so a real config file on the
machine never changes what these tests see.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from devkit.repo_builder import COLLECTION, Keypair, build_repo, tid

from pdsmem.cli import cli

KEY = Keypair.generate()
CLEARED = (
    "PDSMEM_CONFIG", "ATP_AUTH_HANDLE", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST", "ATP_PLC_HOST",
    "PDSMEM_AGENT_ID", "PDSMEM_PROFILE_ID", "MEMORY_SCOPE_SALT", "PDSMEM_STATE_DIR",
)


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in CLEARED:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("ATP_PLC_HOST", "http://127.0.0.1:9")  # offline: any look-up fails


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def config_file(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / "xdg" / "pdsmem" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def one_record_car(tmp_path: Path) -> str:
    path = tmp_path / "repo.car"
    record = {"$type": COLLECTION, "content": "likes tea", "createdAt": "2024-01-01T00:00:00.000Z"}
    path.write_bytes(build_repo({f"{COLLECTION}/{tid(1_700_000_000_000_000)}": record}, keypair=KEY).car)
    return str(path)


def test_config_path_is_in_the_platform_config_directory(tmp_path: Path) -> None:
    result = run("config", "path")
    assert result.exit_code == 0
    assert result.stdout == f"{tmp_path}/xdg/pdsmem/config.toml\n"
    assert result.stderr == "(no file there yet; pdsmem works without one)\n"
    json_only = config_file(tmp_path, "{}", "config.json")
    assert run("config", "path").stdout == f"{json_only}\n"
    elsewhere = tmp_path / "elsewhere.toml"
    assert run("config", "path", env={"PDSMEM_CONFIG": str(elsewhere)}).stdout == f"{elsewhere}\n"


def test_config_show_prints_the_checked_values(tmp_path: Path) -> None:
    assert run("config", "show").stderr == (
        f"No config file at {tmp_path}/xdg/pdsmem/config.toml; pdsmem works without one.\n"
    )
    path = config_file(tmp_path, 'profile-id = "default"\npds = "https://pds.example.com"\n'
                                 'agent_id = "coder"\n')
    result = run("config", "show")
    assert result.exit_code == 0
    assert result.stdout == (
        f'# {path}\npds = "https://pds.example.com"\nagent-id = "coder"\nprofile-id = "default"\n'
    )
    as_json = json.loads(run("config", "show", "--json").stdout)["summary"]
    assert as_json == {"path": str(path), "exists": True, "values": {
        "profile-id": "default", "pds": "https://pds.example.com", "agent-id": "coder"}}


def test_a_json_config_file_works_the_same(tmp_path: Path) -> None:
    config_file(tmp_path, json.dumps({"agent-id": "coder", "profile-id": "p"}), "config.json")
    assert json.loads(run("config", "show", "--json").stdout)["summary"]["values"] == {
        "agent-id": "coder", "profile-id": "p"}


def test_config_values_are_defaults_that_the_environment_and_flags_override(tmp_path: Path) -> None:
    config_file(tmp_path, f'agent-id = "from-config"\nprofile-id = "p"\nstate-dir = "{tmp_path}/c"\n')
    car = one_record_car(tmp_path)
    imported = run("import", "--from", car, "--signing-key", KEY.did_key, "--accept-unsalted-scope")
    assert imported.exit_code == 0, imported.stderr
    assert json.loads(imported.stdout)["event"]["agentId"] == "from-config"
    assert (tmp_path / "c" / "state.sqlite3").is_file()

    def state_dir(*args: str, env: dict[str, str] | None = None) -> str:
        return json.loads(run("status", "--json", *args, env=env).stdout)["summary"]["stateDir"]

    assert state_dir() == f"{tmp_path}/c"
    assert state_dir(env={"PDSMEM_STATE_DIR": f"{tmp_path}/e"}) == f"{tmp_path}/e"
    assert state_dir("--state-dir", f"{tmp_path}/f", env={"PDSMEM_STATE_DIR": f"{tmp_path}/e"}) == f"{tmp_path}/f"
    again = run("import", "--from", car, "--signing-key", KEY.did_key, "--full", "--accept-unsalted-scope",
                env={"PDSMEM_AGENT_ID": "from-env"})
    assert json.loads(again.stdout)["event"]["agentId"] == "from-env"


def test_a_missing_required_option_says_every_way_to_give_it(tmp_path: Path) -> None:
    result = run("import", "--from", one_record_car(tmp_path), "--signing-key", KEY.did_key,
                 "--profile-id", "p")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Missing option '--agent-id'. Pass --agent-id, set PDSMEM_AGENT_ID, or add "
        'agent-id = "…" to the config file (pdsmem config path)'
    )


@pytest.mark.parametrize(
    ("line", "key", "remedy"),
    [
        ('password = "hunter2-secret-value"', "password",
         "set ATP_AUTH_PASSWORD in the environment instead, to an app password"),
        ('app_password = "hunter2-secret-value"', "app_password",
         "set ATP_AUTH_PASSWORD in the environment instead, to an app password"),
        ('salt = "hunter2-secret-value"', "salt", "set MEMORY_SCOPE_SALT in the environment instead"),
        ('refreshJwt = "hunter2-secret-value"', "refreshJwt",
         "run pdsmem login instead, which keeps the session in the state directory, owner-only"),
        ('[account]\naccess-token = "hunter2-secret-value"', "account.access-token",
         "run pdsmem login instead, which keeps the session in the state directory, owner-only"),
    ],
)
def test_a_secret_in_the_config_file_is_refused_and_never_echoed(
    tmp_path: Path, line: str, key: str, remedy: str
) -> None:
    path = config_file(tmp_path, f'pds = "https://pds.example.com"\n{line}\n')
    expected = (
        f"Error: {path}: the key '{key}' looks like a secret; pdsmem never reads secrets from "
        f"its config file, which is plain text (delete that line; {remedy})\n"
    )
    for args in (["config", "show"], ["status"], ["export", "--to", "alice.test", "--from", str(path)]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stderr == expected
        assert "hunter2" not in result.output


def test_a_secret_in_a_json_config_file_is_refused_too(tmp_path: Path) -> None:
    path = config_file(tmp_path, json.dumps({"handle": "alice.test", "token": "hunter2"}), "config.json")
    result = run("config", "show")
    assert result.exit_code == 2 and "hunter2" not in result.output
    assert result.stderr.startswith(f"Error: {path}: the key 'token' looks like a secret")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('colour = "blue"\n', "unknown key 'colour' (the keys pdsmem reads are pds, plc, handle, "
         "agent-id, profile-id, state-dir)"),
        ("pds = 3\n", "'pds' must be a non-empty string, got an integer"),
        ("pds = 2026-12-02T10:00:00Z\n", "'pds' must be a non-empty string, got a date or time"),  # was "a value
        ("pds = 10:00:00\n", "'pds' must be a non-empty string, got a date or time"),  # outside the data model"
        ('pds = "https://x\n', "is not valid TOML: "),
    ],
    ids=["unknown-key", "not-a-string", "a-datetime", "a-time", "bad-toml"],
)
def test_a_config_file_pdsmem_cannot_use_is_a_usage_error(tmp_path: Path, text: str, message: str) -> None:
    config_file(tmp_path, text)
    result = run("config", "show")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ") and message in result.stderr
    if "TOML" in message:  # Regression: it said what, not what to do (a new user's try)
        assert "fix it there" in result.stderr


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("config.json", '{"pds": ' + "1" * 5000 + "}", "is not valid JSON: a number with more than 4300 digits"),
        ("config.toml", "pds = " + "1" * 5000, "is not valid TOML: a number with more than 4300 digits"),
        ("config.json", "[" * 100_000, "is not valid JSON: tables or arrays nested too deeply to read"),
        ("config.toml", "pds = " + "[" * 100_000, "is not valid TOML: tables or arrays nested too deeply to read"),
        ("config.toml", "pds = " + "{a = " * 3000 + "1" + "}" * 3000,
         "is not valid TOML: tables or arrays nested too deeply to read"),
    ],
    ids=["json-5000-digits", "toml-5000-digits", "json-deep-arrays", "toml-deep-arrays", "toml-deep-tables"],
)
def test_a_config_file_its_parser_cannot_read_is_a_usage_error_not_a_crash(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = config_file(tmp_path, text, name)
    for args in (["config", "show"], ["status"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stderr == (f"Error: the config file {path} {message}; fix it there ('pdsmem config --help' "
                                 "shows one), or point PDSMEM_CONFIG at another file\n")


def test_a_secret_behind_a_long_dotted_key_is_found_not_a_crash(tmp_path: Path) -> None:
    # TOML reads `a.a.a… = 1` as tables nested a thousand deep without nesting its parser; the
    # search for secret keys walked them by recursion and overflowed the stack.
    path = config_file(tmp_path, 'pds = "https://x.example"\n' + ".".join(["a"] * 1000 + ["token"]) + ' = "x"\n')
    result = run("config", "show")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}: the key '{'a.' * 1000}token' looks like a secret")
    config_file(tmp_path, ".".join(["pds"] * 1000) + " = 1\n")
    assert run("config", "show").stderr == f"Error: {path}: 'pds' must be a non-empty string, got an object\n"


def test_both_a_toml_and_a_json_config_file_is_ambiguous(tmp_path: Path) -> None:
    config_file(tmp_path, 'pds = "https://a.example"\n')
    config_file(tmp_path, '{"pds": "https://b.example"}', "config.json")
    result = run("config", "show")
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: both config.toml and config.json exist in {tmp_path}/xdg/pdsmem (keep one of "
        "them; pdsmem will not guess which one you meant)\n"
    )


def test_a_config_file_named_by_the_environment_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    result = run("config", "show", env={"PDSMEM_CONFIG": str(missing)})
    assert result.exit_code == 2
    assert result.stderr == (
        f"Error: no config file at {missing} (PDSMEM_CONFIG names it; fix or unset PDSMEM_CONFIG)\n"
    )


def test_a_config_path_that_is_a_directory_or_a_fifo_says_so(tmp_path: Path) -> None:
    (tmp_path / "dir.toml").mkdir()
    os.mkfifo(tmp_path / "fifo.toml")
    for name, what in (("dir.toml", "a directory"), ("fifo.toml", "not a regular file")):  # "no config file at"
        result = run("config", "show", env={"PDSMEM_CONFIG": str(tmp_path / name)})
        assert result.exit_code == 2
        assert result.stderr == (f"Error: {tmp_path / name} is {what}, not a config file (PDSMEM_CONFIG names it; "
                                 "fix or unset PDSMEM_CONFIG)\n")
    (tmp_path / "xdg" / "pdsmem" / "config.toml").mkdir(parents=True)  # was passed over as no file at all
    assert run("config", "show").stderr == (f"Error: {tmp_path}/xdg/pdsmem/config.toml is a directory, not a config "
                                            "file (pdsmem reads its config file there; move it aside)\n")


def test_help_works_even_with_a_broken_config_file(tmp_path: Path) -> None:
    config_file(tmp_path, 'password = "hunter2"\n')
    result = run("export", "--help")
    assert result.exit_code == 0
    assert "ATP_PDS_HOST; config: pds]" in " ".join(result.stdout.split())
