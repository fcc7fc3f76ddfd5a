"""The optional config file: defaults for options, never secrets.

The file is ``config.toml`` (or ``config.json``) in the platform's config directory
(``click.get_app_dir("pdsmem")``), or the file ``PDSMEM_CONFIG`` names. It holds flat
``key = "value"`` pairs, each the default of one option: ``pds``, ``plc``, ``handle``,
``agent-id``, ``profile-id``, ``state-dir``. A value given on the command line or in the
environment wins over the file.

A key that looks like a secret (password, token, salt, …) is refused, and the error never
repeats its value: the file is plain text, so secrets stay in the environment
(``ATP_AUTH_PASSWORD``, ``MEMORY_SCOPE_SALT``) or in the state directory (sessions, written
by ``pdsmem login`` with owner-only permissions). pdsmem never writes this file.
"""

from __future__ import annotations

import datetime
import json
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

from pdsmem.errors import UsageError, kind_of

if TYPE_CHECKING:  # pathlib is imported where a path is made: commands that read no file start without it
    from pathlib import Path

ENV_CONFIG = "PDSMEM_CONFIG"

KEYS: dict[str, str] = {
    "pds": "the PDS URL (--pds)",
    "plc": "the PLC directory URL (--plc)",
    "handle": "the account to log in as (--to, pdsmem login)",
    "agent-id": "the trusted agentId imports go to (--agent-id)",
    "profile-id": "the trusted profileId imports go to (--profile-id)",
    "state-dir": "where sessions and sync state live (--state-dir)",
}
"""Every key the config file may hold, with what it sets."""

# Where each kind of secret belongs instead of the config file.
_SECRET_HOMES = {
    "password": "set ATP_AUTH_PASSWORD in the environment instead, to an app password",
    "passwd": "set ATP_AUTH_PASSWORD in the environment instead, to an app password",
    "salt": "set MEMORY_SCOPE_SALT in the environment instead",
    "token": "run pdsmem login instead, which keeps the session in the state directory, owner-only",
    "jwt": "run pdsmem login instead, which keeps the session in the state directory, owner-only",
    "secret": "keep it in the environment instead",
    "apikey": "keep it in the environment instead",
    "privatekey": "keep it in the environment instead",
}


class ConfigError(UsageError):
    """The config file cannot be read, or holds a key pdsmem does not take (or a secret)."""


@dataclass(frozen=True)
class Settings:
    """The config file's location and, when it exists, its values (keys in ``KEYS``)."""

    path: Path
    exists: bool
    values: dict[str, str] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        return self.values.get(key)


def config_dir() -> Path:
    """The platform's config directory for pdsmem (it may not exist)."""
    from pathlib import Path

    return Path(click.get_app_dir("pdsmem"))


def config_path() -> Path:
    """The config file pdsmem reads: ``PDSMEM_CONFIG``, else config.toml or config.json."""
    from pathlib import Path

    override = os.environ.get(ENV_CONFIG)
    if override:
        return Path(override).expanduser()
    directory = config_dir()
    toml, json_file = directory / "config.toml", directory / "config.json"
    if json_file.is_file() and not toml.is_file():
        return json_file
    return toml


def load_settings() -> Settings:
    """Read and check the config file; a missing file is no error (unless PDSMEM_CONFIG names it)."""
    path = config_path()
    directory = path.parent
    if not os.environ.get(ENV_CONFIG) and (directory / "config.toml").is_file() \
            and (directory / "config.json").is_file():
        raise ConfigError(
            f"both config.toml and config.json exist in {directory}",
            hint="keep one of them; pdsmem will not guess which one you meant",
        )
    if not path.is_file():
        named = bool(os.environ.get(ENV_CONFIG))
        if path.exists():  # a directory, a FIFO (reading it would wait forever), a device
            what = "a directory" if path.is_dir() else "not a regular file"
            raise ConfigError(f"{path} is {what}, not a config file",
                              hint=f"{ENV_CONFIG} names it; fix or unset {ENV_CONFIG}" if named
                              else "pdsmem reads its config file there; move it aside")
        if named:
            raise ConfigError(
                f"no config file at {path}", hint=f"{ENV_CONFIG} names it; fix or unset {ENV_CONFIG}"
            )
        return Settings(path, exists=False)
    return Settings(path, exists=True, values=_check(_parse(path), path))


def _parse(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from None
    kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
    import tomllib  # here, not at the top: every command starts without it unless a TOML file is read
    try:
        return json.loads(raw) if kind == "JSON" else tomllib.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        reason = f" (line {exc.lineno}, column {exc.colno})"
    except tomllib.TOMLDecodeError as exc:
        reason = f": {exc}"
    except UnicodeDecodeError:
        reason = ": not UTF-8 text"
    except ValueError:  # an integer beyond the interpreter's limit on digits it converts
        reason = f": a number with more than {sys.get_int_max_str_digits()} digits"
    except RecursionError:
        reason = ": tables or arrays nested too deeply to read"
    raise ConfigError(f"the config file {path} is not valid {kind}{reason}; fix it there ('pdsmem config --help' shows "
                      f"one), or point {ENV_CONFIG} at another file")


def _secret_home(key: str) -> str | None:
    squashed = key.lower().replace("-", "").replace("_", "")
    for word, home in _SECRET_HOMES.items():
        if word in squashed:
            return home
    return None


def _secret_keys(data: Any) -> list[tuple[str, str]]:
    """Every (dotted key, where it belongs) that looks like a secret, nested tables included, in
    the file's order. Walked without recursion: TOML's dotted keys (``a.a.a… = 1``) nest a table
    per part without nesting the parser."""

    def entries(prefix: str, table: Any) -> list[tuple[str, Any, Any]]:
        return [(f"{prefix}{key}", key, value) for key, value in reversed(table.items())] \
            if isinstance(table, dict) else []

    found = []
    pending = entries("", data)
    while pending:
        dotted, key, value = pending.pop()
        home = _secret_home(str(key))
        if home:
            found.append((dotted, home))
        pending += entries(f"{dotted}.", value)
    return found


def _check(data: Any, path: Path) -> dict[str, str]:
    if not isinstance(data, dict):
        raise ConfigError(f"the config file {path} must hold key = value pairs (a table or JSON object)")
    secrets = _secret_keys(data)
    if secrets:
        key, home = secrets[0]
        raise ConfigError(
            f"{path}: the key {key!r} looks like a secret; pdsmem never reads secrets from its "
            "config file, which is plain text",
            hint=f"delete that line; {home}",
        )
    values: dict[str, str] = {}
    for key, value in data.items():
        name = key.replace("_", "-")
        if name not in KEYS:
            raise ConfigError(
                f"{path}: unknown key {key!r}", hint=f"the keys pdsmem reads are {', '.join(KEYS)}"
            )
        if not isinstance(value, str) or not value.strip():
            got = "an empty string" if isinstance(value, str) else "a date or time" \
                if isinstance(value, (datetime.date, datetime.time)) else kind_of(value)  # TOML has both
            raise ConfigError(f"{path}: {key!r} must be a non-empty string, got {got}")
        values[name] = value.strip()
    return values
