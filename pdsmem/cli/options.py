"""Option groups shared by commands, each with its environment-variable and config-file fallbacks.

A value comes from, in order: the command line, the environment variable, the config file
(``settings.py``), the built-in default.

- ``pds_options``: ``--pds`` (ATP_PDS_HOST, config ``pds``), ``--plc`` (ATP_PLC_HOST, ``plc``),
  ``--state-dir`` (PDSMEM_STATE_DIR, ``state-dir``).
- ``account_option(flag)``: the account to log in as (ATP_AUTH_HANDLE or ATP_AUTH_USERNAME,
  ``handle``), checked for syntax. Passwords are never options (they would show in process
  lists): they come from a stored session, ``ATP_AUTH_PASSWORD``, or a prompt on a terminal.
- ``scope_options``: the trusted import scope: ``--agent-id``, ``--profile-id``, ``--salt``
  (MEMORY_SCOPE_SALT, else rushdb-hermes-memory's RUSHDB_MEMORY_SCOPE_SALT: the first set wins;
  never from the config file), ``--privacy-scope``, ``--sandbox-eligible``;
  ``participant_option``: ``--participant-scope-hash`` or its parts (``--participant``).
- ``output_options``: ``--json`` for JSON lines instead of human text.
- ``dry_run_option``: ``--dry-run`` on every command that writes.
"""

from __future__ import annotations

import functools
import os
import re

from collections.abc import Callable
from typing import Any, TypeVar

import click

from pdsmem.cli.reporting import JSON_REQUESTED
from pdsmem.cli.settings import Settings, load_settings
from pdsmem.errors import PdsmemError

F = TypeVar("F", bound=Callable[..., Any])

_SETTINGS = "pdsmem.settings"

# The environment variables that name the account and its app password (goat's names; the library
# reads the same ones: tests/test_cli_uses_api.py holds the two to each other).
ENV_HANDLES = ("ATP_AUTH_HANDLE", "ATP_AUTH_USERNAME")  # goat reads the second; either names the account
ENV_PASSWORD = "ATP_AUTH_PASSWORD"


def settings(ctx: click.Context) -> Settings:
    """The config file's settings, read once per run (and never while rendering help)."""
    root = ctx.find_root()
    if _SETTINGS not in root.meta:
        root.meta[_SETTINGS] = load_settings()
    return root.meta[_SETTINGS]


class ConfiguredOption(click.Option):
    """An option whose default can come from the config file's ``config_key``."""

    def __init__(self, *args: Any, config_key: str | None = None, **kwargs: Any) -> None:
        self.config_key = config_key
        super().__init__(*args, **kwargs)

    def get_default(self, ctx: click.Context, call: bool = True) -> Any:
        if self.config_key and not ctx.resilient_parsing:  # help text never reads the file
            value = settings(ctx).get(self.config_key)
            if value is not None:
                return value
        return super().get_default(ctx, call=call)

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        try:
            return super().process_value(ctx, value)
        except click.MissingParameter as exc:
            if exc.message or not self.config_key:
                raise
            ways = [f"Pass {self.opts[-1]}"]
            if self.envvar:
                names = [self.envvar] if isinstance(self.envvar, str) else list(self.envvar)
                ways.append(f"set {' or '.join(names)}")
            ways.append(f'or add {self.config_key} = "…" to the config file (pdsmem config path)')
            raise click.MissingParameter(ctx=ctx, param=self, message=", ".join(ways)) from None


def name_the_source(exc: click.BadParameter) -> None:
    """Say where a bad value came from when it was not typed on the command line: the environment
    variable (``'--pds' (from ATP_PDS_HOST)``) or the config file's key. Only the option's name
    would send the user looking for a flag they never passed."""
    ctx, param = exc.ctx, exc.param
    if ctx is None or not isinstance(param, click.Option) or exc.param_hint is not None or param.name is None:
        return
    source = ctx.get_parameter_source(param.name)
    hint = param.get_error_hint(ctx)
    if source is click.core.ParameterSource.ENVIRONMENT and param.envvar:
        names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
        name = next((name for name in names if os.environ.get(name)), names[0])
        exc.param_hint = f"{hint} (from the environment variable {name}; fix or unset it)"
    elif (source is click.core.ParameterSource.DEFAULT and isinstance(param, ConfiguredOption) and param.config_key
          and settings(ctx).get(param.config_key) is not None):
        exc.param_hint = f"{hint} (from {param.config_key} in the config file {settings(ctx).path})"


def checked_by(check: Callable[[str], object]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback that runs ``check`` on the value: a bad one is a usage error (exit 2)."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None:
            try:
                check(value)
            except PdsmemError as err:
                raise click.BadParameter(err.message + (f" ({err.hint})" if err.hint else "")) from None
        return value

    return callback


class WholeNumber(click.IntRange):
    """A whole number from ``low`` to ``high``, refused in words (click's own says "'abc' is not a
    valid integer range" and "0 is not in the range 1<=x<=5000")."""

    name = "whole number"

    def __init__(self, low: int, high: int) -> None:
        super().__init__(low, high)

    def _describe_range(self) -> str:
        return f"{self.min} to {self.max}"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]{1,12}", text):
                self.fail(f"'{value}' is not a whole number: give one from {self._describe_range()}.", param, ctx)
            number = int(text)
        if not self.min <= number <= self.max:
            self.fail(f"{number} is out of range: give a whole number from {self._describe_range()}.", param, ctx)
        return number


class Seconds(click.FloatRange):
    """A number of seconds, 0 or more (``inf``: no limit), refused in words; never ``nan``, which
    click takes (it is below nothing) and a wait cannot use."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0)

    def _describe_range(self) -> str:
        return "0 or more"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = None
        if number is None or number != number:  # not a number, or nan
            self.fail(f"'{value}' is not a number of seconds: give 0 or more (0: do not wait).", param, ctx)
        if number < 0:
            self.fail(f"'{value}' is below 0: give a number of seconds, 0 or more (0: do not wait).", param, ctx)
        return number


# The checks are the library's (``pdsmem.api``, imported when a check runs: the command line starts
# at once).
def _check(name: str, **kwargs: Any) -> Callable[[str], object]:
    def check(value: str) -> object:
        from pdsmem import api

        return getattr(api, name)(value, **kwargs)

    return check


is_url = checked_by(_check("base_url"))
is_plc_url = checked_by(_check("base_url", what="the PLC directory URL"))
is_rushdb_url = checked_by(_check("base_url", what="the RushDB URL"))
is_did = checked_by(_check("check_did"))
# a DID that must name an account (a participant hashed into a scope): of its method's shape too
is_account_did = checked_by(lambda value: (_check("check_did")(value), _check("check_account")(value)))
is_nsid = checked_by(_check("check_nsid"))
is_account = checked_by(_check("check_handle_or_did"))


def is_base_url(value: str, *, what: str) -> str:
    """``value`` as a base URL (scheme, host, port; no path), else ``InvalidSyntax`` naming ``what``."""
    from pdsmem import api

    return api.base_url(value, what=what)


def is_signing_key(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A key as ``did:key:z…`` in its one form, whichever form was typed (the legacy form a DID
    document prints, with or without ``did:key:``): the same key always names the same cursor."""
    from pdsmem import api

    checked_by(api.signing_key)(ctx, param, value)
    return None if value is None else api.signing_key(value)


def _sources(envvar: str | list[str] | None, key: str | None) -> str:
    names = [envvar] if isinstance(envvar, str) else list(envvar or [])
    parts = ([f"env: {' or '.join(names)}"] if names else []) + ([f"config: {key}"] if key else [])
    return f" [{'; '.join(parts)}]" if parts else ""


def configured(*decls: str, envvar: str | list[str] | None = None, config_key: str | None = None,
               help: str, **kwargs: Any) -> Callable[[F], F]:
    """A ``click.option`` with env and config fallbacks, both named in its help."""
    return click.option(
        *decls, cls=ConfiguredOption, envvar=envvar, config_key=config_key,
        help=help + _sources(envvar, config_key), **kwargs,
    )


def _stack(*decorators: Callable[[F], F]) -> Callable[[F], F]:
    def apply(command: F) -> F:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


pds_option = configured(
    "--pds", "pds_url", envvar="ATP_PDS_HOST", config_key="pds", metavar="URL", callback=is_url,
    help="The account's PDS (default: from its DID document); also asked to resolve handles "
    "that have no DNS or HTTPS record, such as .test ones.",
)
plc_option = configured(
    "--plc", "plc_url", envvar="ATP_PLC_HOST", config_key="plc", metavar="URL", callback=is_plc_url,
    help="PLC directory for did:plc documents (default: https://plc.directory).",
)
state_dir_option = configured(
    "--state-dir", envvar="PDSMEM_STATE_DIR", config_key="state-dir", metavar="DIR",
    type=click.Path(file_okay=False),  # a str: the API takes one (pathlib costs every start)
    help="Where sessions, import cursors and the export ledger live (default: the user state "
    "directory).",
)
pds_options = _stack(pds_option, plc_option, state_dir_option)
"""--pds, --plc, --state-dir (parameters ``pds_url``, ``plc_url``, ``state_dir``)."""


class AccountOption(ConfiguredOption):
    """The account to log in as. Named nowhere (option, environment, config file), it is the one
    account signed in on this machine (``pdsmem login``), said on stderr; with several signed in,
    the error lists them."""

    def process_value(self, ctx: click.Context, value: Any) -> Any:
        try:
            return super().process_value(ctx, value)
        except click.MissingParameter as exc:
            if ctx.resilient_parsing:
                raise
            from pdsmem import api

            # --state-dir, when typed, was read first (click reads what was typed, then the rest)
            state_dir = ctx.params.get("state_dir") or settings(ctx).get("state-dir")
            kept = {session.did: session for session in api.kept_sessions(state_dir=state_dir)}
            if len(kept) != 1:
                if kept:
                    names = ", ".join(sorted(session.handle or did for did, session in kept.items()))
                    exc.message = f"{exc.message}; signed in on this machine: {names}"
                else:
                    exc.message = f"{exc.message}; or sign in once with pdsmem login (no account is signed in here)"
                raise
            [(did, session)] = kept.items()
            click.echo(f"Note: {self.opts[-1]} {session.handle} ({did}), the one account signed in on this machine; "
                       f"pass {self.opts[-1]} to name another", err=True)
            return did


def account_option(flag: str, help: str, *, required: bool = True) -> Callable[[F], F]:
    """The account to log in as, under ``flag`` (parameter ``account``)."""
    return click.option(flag, "account", cls=AccountOption, envvar=list(ENV_HANDLES), config_key="handle",
                        metavar="HANDLE_OR_DID", required=required, callback=is_account,
                        help=help + " Default: the one account signed in on this machine (pdsmem login)."
                        + _sources(list(ENV_HANDLES), "handle"))


def scope_option_stack(*, required: bool = True, note: str = "") -> Callable[[F], F]:
    """The trusted scope's options; ``required=False`` where a command needs them only in one mode
    (``note`` then says which, at the head of each help)."""
    return _stack(
        configured("--agent-id", envvar="PDSMEM_AGENT_ID", config_key="agent-id", required=required,
                   help=f"{note}Trusted agentId of the target scope."),
        configured("--profile-id", envvar="PDSMEM_PROFILE_ID", config_key="profile-id", required=required,
                   help=f"{note}Trusted profileId of the target scope."),
        click.option("--salt", default="", envvar=list(ENV_SALTS), show_default=False,
                     help=f"{note}Salt of the participant scope hash; a secret, so better set in the "
                     "environment. Required unless --accept-unsalted-scope. [env: MEMORY_SCOPE_SALT, else "
                     "RUSHDB_MEMORY_SCOPE_SALT, as rushdb-hermes-memory names it]"),
        click.option("--accept-unsalted-scope", is_flag=True,
                     help=f"{note}Run without a salt, accepting that anyone who guesses the agent and profile "
                     "ids can then forge a record this scope recognises as its own."),
        click.option("--privacy-scope", type=click.Choice(["shared", "private"]), default="shared",
                     show_default=True, help=f"{note}privacyScope of the scope's memories."),
        click.option("--sandbox-eligible", is_flag=True, help=f"{note}The scope's memories are sandbox-eligible."),
    )


def _is_participant_hash(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not re.fullmatch(r"[0-9a-f]{64}", value):
        raise click.BadParameter("must be 64 lowercase hexadecimal digits, as agent runtimes write the hash")
    return value


def participant_option(help: str) -> Callable[[F], F]:
    """--participant-scope-hash (parameter ``participant``): the participant of the scope as an
    agent runtime hashed it, instead of the hash of a repository's DID with the salt; or
    ``--participant PART``, repeated: the parts it hashes, hashed here as the contract's
    ``hashScope`` does with the salt (the command gets the hash in ``participant``)."""
    def decorate(command: F) -> F:
        @functools.wraps(command)
        def hashing(*args: Any, participant_parts: tuple[str, ...] = (), **kwargs: Any) -> Any:
            if participant_parts:
                if kwargs.get("participant"):
                    raise click.UsageError("pass --participant (the parts) or --participant-scope-hash (their "
                                           "hash), not both")
                from pdsmem import api

                # the parts are hashed with the salt: without one, the hash is anyone's to compute
                require_salt(kwargs.get("salt") or "", bool(kwargs.get("accept_unsalted_scope")))
                kwargs["participant"] = api.hash_scope(participant_parts, kwargs.get("salt") or "")
            return command(*args, **kwargs)

        hashing = click.option(
            "--participant", "participant_parts", multiple=True, metavar="PART",
            help="A part of the participant scope hash, as an agent runtime hashes it, in its order and "
            "repeated for each part (rushdb-hermes-memory: platform, profile, user id); hashed with the "
            "salt as the contract's hashScope does. Instead of --participant-scope-hash.")(hashing)
        return click.option("--participant-scope-hash", "participant", metavar="HASH",
                            callback=_is_participant_hash, help=help)(hashing)  # type: ignore[return-value]
    return decorate


ENV_SALTS = ("MEMORY_SCOPE_SALT", "RUSHDB_MEMORY_SCOPE_SALT")  # the first set wins

scope_options = scope_option_stack()
"""The trusted import scope (``agent_id``, ``profile_id``, ``salt``, ``accept_unsalted_scope``,
``privacy_scope``, ``sandbox_eligible``): never read from records. Call ``require_salt``."""


def require_salt(salt: str, accept_unsalted_scope: bool) -> None:
    """Refuse to build a scope without a salt unless the user accepted that (a usage error). Say so
    when the salt is the first of two environment variables that are set and differ (the first
    wins, and a scope rushdb-hermes-memory wrote is hashed with its own), never the salts."""
    first, second = (os.environ.get(name) for name in ENV_SALTS)
    if salt and salt == first and second and first != second:
        click.echo(f"Note: {ENV_SALTS[0]} and {ENV_SALTS[1]} are both set and differ; using {ENV_SALTS[0]} (a scope "
                   f"rushdb-hermes-memory wrote is hashed with {ENV_SALTS[1]}: pass --salt to choose)", err=True)
    if not salt and not accept_unsalted_scope:
        raise click.UsageError(
            "no salt for the participant scope hash: set MEMORY_SCOPE_SALT (or pass --salt) to the "
            "secret your agents use (a Hermes agent's rushdb-hermes-memory reads RUSHDB_MEMORY_SCOPE_SALT, "
            "which pdsmem reads too), or pass --accept-unsalted-scope to accept that, without one, "
            "anyone who guesses the agent and profile ids can forge a record this scope takes for "
            "its own"
        )

rushdb_options = _stack(
    click.option("--rushdb-url", envvar="RUSHDB_API_URL", metavar="URL", callback=is_rushdb_url,
                 help="The RushDB REST API: RushDB Cloud (the default) or a self-hosted server. "
                 "[env: RUSHDB_API_URL]"),
    click.option("--rushdb-api-key", envvar="RUSHDB_API_KEY", metavar="KEY",
                 help="A write API key of the RushDB project; better set in the environment, or "
                 "typed at the prompt on a terminal. Never read from the config file. [env: RUSHDB_API_KEY]"),
)
"""--rushdb-url, --rushdb-api-key (parameters ``rushdb_url``, ``rushdb_api_key``): from the
command line or the environment, the key also from a prompt; never the config file. The
standalone engine's direct mode is configured by RUSHDB_ENGINE_URL, RUSHDB_ENGINE_TOKEN and
RUSHDB_ENGINE_SCOPE (``cli.memory.open_store``)."""

def _note_json(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[JSON_REQUESTED] = True  # ``meta`` is shared with the root's context
    return value


output_options = click.option(
    "--json", "as_json", is_flag=True, callback=_note_json, help="Print JSON lines instead of human text."
)

dry_run_option = click.option(
    "--dry-run", is_flag=True, help="Do everything but write: read, check and report what would change."
)

__all__ = [
    "AccountOption", "ConfiguredOption", "account_option", "configured", "dry_run_option", "name_the_source",
    "output_options", "participant_option", "pds_option", "pds_options", "plc_option", "require_salt",
    "rushdb_options", "scope_option_stack", "scope_options", "settings",
    "state_dir_option",
]
