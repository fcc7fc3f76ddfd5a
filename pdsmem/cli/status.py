"""``pdsmem status`` and ``pdsmem config path|show``: what is configured and what is stored.

Shows the config file and its values, the environment variables pdsmem reads (secrets by name
only), the RushDB target, the state directory's import and sync cursors, export ledger and
unfinished exports, and the stored sessions (handle, DID and PDS only: never a token), with the
session files no command can read, by name and why. Reads only; creates and changes nothing: a
state database it cannot read is an error (exit 1) that says why, as it is for every command.
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from pdsmem import api
from pdsmem.cli import cli
from pdsmem.cli.jsonl import write_summary
from pdsmem.cli.options import output_options, settings, state_dir_option
from pdsmem.cli.progress import format_clock
from pdsmem.cli.reporting import explain
from pdsmem.cli.settings import ENV_CONFIG, KEYS, config_path
from pdsmem.errors import PdsmemError

ENV_API_KEY, ENV_API_URL = "RUSHDB_API_KEY", "RUSHDB_API_URL"
ENV_ENGINE_URL, ENV_ENGINE_TOKEN, ENV_ENGINE_SCOPE = "RUSHDB_ENGINE_URL", "RUSHDB_ENGINE_TOKEN", "RUSHDB_ENGINE_SCOPE"
ENV_SETTINGS = (
    "ATP_AUTH_HANDLE", "ATP_AUTH_USERNAME", "ATP_PDS_HOST", "ATP_PLC_HOST", "PDSMEM_STATE_DIR", "PDSMEM_AGENT_ID",
    "PDSMEM_PROFILE_ID", ENV_CONFIG, "PDSMEM_DEBUG", ENV_API_URL, ENV_ENGINE_URL, ENV_ENGINE_SCOPE,
    "RUSHDB_EMBEDDING_MODEL", "RUSHDB_EMBEDDING_DIMENSIONS", "RUSHDB_EMBEDDING_BASE_URL",
)
ENV_SECRETS = ("ATP_AUTH_PASSWORD", "MEMORY_SCOPE_SALT", "RUSHDB_MEMORY_SCOPE_SALT", ENV_API_KEY, ENV_ENGINE_TOKEN,
               "RUSHDB_EMBEDDING_API_KEY")
HIDDEN = "(set, not shown)"


def _shown(values: dict[str, Any]) -> dict[str, Any]:
    """Config values as they may be shown: a URL's user and password masked."""
    return {key: api.masked_url(value) if isinstance(value, str) else value for key, value in values.items()}


def _environment() -> dict[str, str]:
    found = {name: api.masked_url(os.environ[name]) for name in ENV_SETTINGS if os.environ.get(name)}
    found.update({name: HIDDEN for name in ENV_SECRETS if os.environ.get(name)})
    return found


def _session(kept: api.KeptSession) -> dict[str, Any]:
    """A stored session as status shows it: who, where, how, and for OAuth what was granted."""
    shown: dict[str, Any] = {"handle": kept.handle, "did": kept.did, "pds": kept.pds_url}
    if kept.oauth:
        grant = {**shown, "auth": "oauth", "granted": kept.granted, "issuer": kept.issuer}
        if kept.refused:  # revoked or expired: nothing runs with it until a new sign-in
            grant.update(refused=kept.refused, signInAgain=f"pdsmem login {kept.handle}")
        return grant
    return {**shown, "auth": "app password"}


def _rushdb() -> dict[str, Any]:
    """The RushDB that sync, recall and export --from rushdb would use now (no key shown), and
    its key in the sync state, or None when no key is set."""
    engine = os.environ.get(ENV_ENGINE_URL)
    # the engine's token, else the API key, as the commands take them (cli/memory.py, open_store)
    named = (ENV_ENGINE_TOKEN if os.environ.get(ENV_ENGINE_TOKEN) else ENV_API_KEY) if engine else ENV_API_KEY
    key = os.environ.get(named)
    target = api.rushdb_target(key or "", url=os.environ.get(ENV_API_URL) or None, engine_url=engine or None,
                               engine_scope=os.environ.get(ENV_ENGINE_SCOPE) or None)
    try:
        project = target.key if key else None
    except PdsmemError:  # a malformed RUSHDB_API_URL: sync says what is wrong with it
        project = None
    return {"target": target.shown, "key": project, "apiKey": named if key else None}


def _describe(run: dict[str, Any]) -> str:
    done = f"{run['written']} of {run['planned']} writes done" if run["planned"] else "no write done"
    if run["state"] == "paused":
        what = f"paused by the PDS's rate limit until {format_clock(run['pausedUntil'])}"
    elif run["state"] == "stopped":
        what = f"stopped: {run['reason']}"
    elif run["state"] == "killed":
        what = "ended before finishing (pdsmem was killed)"
    else:
        what = "running now"
    return f"{run['did']}  from {run['source']}  started {run['startedAt']}  {done}  {what}"


def _checks(rushdb: dict[str, Any], sessions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each server asked (``--check``): the RushDB target (it answers and takes the key, as sync
    checks it first) and each stored session's PDS (it answers and holds the account's
    repository). ``ok`` is None for what could not be asked, with why."""
    from pdsmem.cli.memory import open_store

    found = []
    check: dict[str, Any] = {"service": "RushDB", "target": rushdb["target"], "ok": None, "problem": None}
    if rushdb["apiKey"] is None:
        check["problem"] = f"not asked: no key set ({ENV_ENGINE_TOKEN if os.environ.get(ENV_ENGINE_URL) else ENV_API_KEY})"
    else:
        try:
            open_store(os.environ.get(ENV_API_URL) or None, os.environ.get(ENV_API_KEY)).check()
            check["ok"] = True
        except PdsmemError as err:
            check.update(ok=False, problem=explain(err))
        except click.UsageError as err:  # a malformed URL or key: the message names the variable, never the key
            check.update(ok=False, problem=err.format_message())
    found.append(check)
    for session in {(s["pds"], s["did"]): s for s in sessions}.values():
        check = {"service": "PDS", "target": session["pds"], "did": session["did"], "ok": True, "problem": None}
        try:
            api.check_pds(session["pds"], session["did"])
        except PdsmemError as err:
            check.update(ok=False, problem=explain(err))
        if check["ok"] and session.get("refused"):  # the PDS is there, but no run can use this grant
            check.update(ok=False, problem=f"answers, but it refused the kept sign-in ({session['refused']}): sign in "
                         f"again with {session['signInAgain']}")
        found.append(check)
    return found


def _check_line(check: dict[str, Any]) -> str:
    what = check["target"] if check["service"] == "RushDB" else f"PDS at {check['target']} ({check['did']})"
    if check["ok"]:
        said = "answers and takes the key" if check["service"] == "RushDB" else "answers and holds the repository"
        return f"{what}: {said}"
    return f"{what}: {'FAILED: ' if check['ok'] is False else ''}{check['problem']}"


@cli.command()
@state_dir_option
@click.option("--check", "ask", is_flag=True,
              help="Also ask the servers: whether the RushDB target answers and takes the key, and whether each "
              "stored session's PDS answers and holds its repository (exit 1 when one does not).")
@output_options
@click.pass_context
def status(ctx: click.Context, state_dir: str | None, ask: bool, as_json: bool) -> None:
    """Show what is configured, what was imported and exported, and the stored sessions.

    Exports that did not finish (paused by a rate limit, stopped by an error, or killed) are
    listed until a run of the same export finishes.

    Also the RushDB that sync, recall and export --from rushdb would use, each sync's
    cursor (repository, scope, RushDB project: a hash that names the project without its key),
    and where each sync --follow got to in its event stream.
    Secrets (ATP_AUTH_PASSWORD, MEMORY_SCOPE_SALT, RUSHDB_API_KEY, session tokens) are shown by
    name only. Session files no command can read (damaged, or written by another version) are
    listed by name, with why, never with what they hold.

    Reads only: changes nothing. A state database it cannot read (state.sqlite3 in the state
    directory) is an error, as for every command: it exits 1 and says why. Without --check it
    asks no server.

    \b
    Examples:
      pdsmem status
      pdsmem status --check
      pdsmem status --json
    """
    config = settings(ctx)
    stored = api.status(state_dir)
    directory = stored.state_dir
    sessions = [_session(kept) for kept in stored.sessions]
    unreadable = stored.unreadable_sessions
    follows, exports, unfinished = stored.follows, stored.exports, stored.unfinished_exports
    report = {
        "config": {"path": str(config.path), "exists": config.exists, "values": _shown(config.values)},
        "environment": _environment(),
        "stateDir": str(directory),
        "rushdb": _rushdb(),
        "imports": stored.imports,
        "syncs": stored.syncs,
        "follows": follows,
        "exports": exports,
        "unfinishedExports": unfinished,
        "sessions": sessions,
        "unreadableSessions": unreadable,
    }
    if ask:
        report["checks"] = _checks(report["rushdb"], sessions)
    failed = sum(1 for check in report.get("checks", ()) if check["ok"] is False)
    if as_json:
        write_summary(report)
    else:
        _print(report, config, directory)
    if failed:  # the run's end, as any command's: "Error: …", and with --json its {"error": …} line last
        raise PdsmemError(f"{failed} of the servers asked did not answer as they should (see the checks above)")


def _print(report: dict[str, Any], config: Any, directory: Any) -> None:
    sessions, unreadable = report["sessions"], report["unreadableSessions"]
    follows, exports, unfinished = report["follows"], report["exports"], report["unfinishedExports"]
    found = "" if config.exists else " (none)"
    click.echo(f"Config file: {config.path}{found}")
    for key, value in _shown(config.values).items():
        click.echo(f"  {key} = {value}")
    click.echo("Environment:" if report["environment"] else "Environment: nothing pdsmem reads is set")
    for name, value in report["environment"].items():
        click.echo(f"  {name} {value}" if value == HIDDEN else f"  {name}={value}")
    rushdb = report["rushdb"]
    how = f"key from {rushdb['apiKey']}" if rushdb["apiKey"] else f"no key set ({ENV_API_KEY}); sync would ask for one"
    click.echo(f"RushDB: {rushdb['target']} ({how})")
    click.echo(f"State directory: {directory}")
    unsalted = "  UNSALTED (--accept-unsalted-scope: its records can be forged)"
    _section("Imported repositories (cursor per repository and import scope)", [
        f"{i['did']}  scope {i['scope']}  rev {i['rev']}  commit {i['commit']}" + (unsalted if i["unsalted"] else "")
        for i in report["imports"]
    ])
    _section("Synced into RushDB (cursor per repository, scope and RushDB project)", [
        f"{i['did']}  scope {i['scope']}  rev {i['rev']}  project {i['rushdb']}"
        + (" (the RushDB above)" if i["rushdb"] == rushdb["key"] else "") + (unsalted if i["unsalted"] else "")
        for i in report["syncs"]
    ])
    _section("Following event streams (sync --follow: the last event whose changes are in RushDB)", [
        f"{f['did']}  scope {f['scope']}  project {f['rushdb']}  {f['stream']}  seq {f['seq']}"
        f"  event time {f['lastEventTime'] or 'unknown'}  saved {f['savedAt']}"
        for f in follows
    ])
    _section("Exports (records pdsmem wrote, per repository)", [
        f"{e['did']}  {e['records']} record{'' if e['records'] == 1 else 's'}" for e in exports
    ])
    if deleted := [f"{d['uri']}  noted {d['noted']}" for e in exports for d in e["deletedOnPds"]]:
        _section("Records pdsmem wrote and someone deleted on the PDS (export leaves them deleted; "
                 "--overwrite-conflict AT_URI or --recreate-deleted writes them again)", deleted)
    refused = {s["did"]: s["signInAgain"] for s in sessions if s.get("refused")}
    _section("Exports waiting to resume (run the same pdsmem export again)", [
        _describe(run) + (f"  (its sign-in was refused: sign in again first, {refused[run['did']]})"
                          if run["did"] in refused else "")
        for run in unfinished
    ])
    _section("Stored sessions", [
        f"{s['handle']}  {s['did']}  at {s['pds']}  "
        + (f"OAuth, REFUSED by {s['issuer']} ({s['refused']}): sign in again with {s['signInAgain']}"
           if s.get("refused") else f"OAuth, granted: {s['granted']}" if s["auth"] == "oauth" else "app password")
        for s in sessions
    ])
    if unreadable:
        click.echo("Unreadable session files (every command skips them, and logout does not remove them: "
                   "delete the file):")
        for file in unreadable:
            click.echo(f"  {file['file']}  {file['reason']}")
    if "checks" in report:
        _section("Checks (--check: the servers asked now)", [_check_line(check) for check in report["checks"]])


def _section(title: str, lines: list[str]) -> None:
    click.echo(f"{title}:" if lines else f"{title}: none")
    for line in lines:
        click.echo(f"  {line}")


@cli.group()
def config() -> None:
    """See the config file: defaults for options, never secrets.

    The file is TOML (config.toml) or JSON (config.json) in the platform's config directory,
    or the file PDSMEM_CONFIG names. A command-line option or an environment variable wins
    over it. A key that looks like a secret (password, token, salt, …) is refused.

    \b
    Example:
      pdsmem config show
      # config.toml:
      pds = "https://pds.example.com"
      handle = "alice.example.com"
      agent-id = "coder"
      profile-id = "default"
    """


@config.command("path")
def config_path_cmd() -> None:
    """Print the path of the config file pdsmem reads (it may not exist yet).

    \b
    Example:
      $EDITOR "$(pdsmem config path)"
    """
    path = config_path()
    click.echo(str(path))
    if not path.is_file():
        click.echo("(no file there yet; pdsmem works without one)", err=True)


@config.command("show")
@output_options
@click.pass_context
def config_show(ctx: click.Context, as_json: bool) -> None:
    """Print the config file's values, checked (an unknown or secret key is an error).

    \b
    Examples:
      pdsmem config show
      pdsmem config show --json
    """
    loaded = settings(ctx)
    if as_json:
        write_summary({"path": str(loaded.path), "exists": loaded.exists, "values": _shown(loaded.values)})
        return
    if not loaded.exists:
        click.echo(f"No config file at {loaded.path}; pdsmem works without one.", err=True)
        return
    click.echo(f"# {loaded.path}")
    for key in KEYS:
        if key in loaded.values:
            click.echo(f"{key} = {json.dumps(_shown(loaded.values)[key], ensure_ascii=False)}")
