"""The ``pdsmem`` command line: parses options, calls the library, prints results.

This module only builds the command tree; each command group lives in its own module and
attaches itself to ``cli`` when that module is imported, which happens when the command is run
(``COMMANDS``): ``pdsmem --help`` and a command load only what they use, so the command line
starts at once (docs/benchmarks.md, start-up). One place (``PdsmemGroup.invoke``) turns a ``PdsmemError`` into
``Error: …`` on stderr and an exit code (``reporting.py``); tracebacks only with ``--debug``.
The same place turns Ctrl-C into ``Interrupted: …`` (what the run left, whether running it again
resumes) and exit 130, and names the environment variable or config key a bad value came from.
"""

from __future__ import annotations

import errno
import gc
import importlib
import os
import sys

import click

from pdsmem.cli.reporting import (
    EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, JSON_REQUESTED, exit_code, explain, interrupted,
    shown_name,
)
from pdsmem.errors import PdsmemError

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_PARTIAL", "EXIT_USAGE", "cli", "main"]

EXIT_CODES_HELP = """\b
Exit codes:
  0  all done (a source with no memories too: a Note says so)
  1  failed (nothing, or nothing more, was done; the message says why)
  2  usage: a bad option, argument or config file
  3  partly done: some items were refused or failed, each named on stderr
  130  interrupted (Ctrl-C); export and sync resume when run again"""


# Each command: the module that attaches it, and the first sentence of its help (what
# ``pdsmem --help`` lists without importing the module; tests/test_cli_startup.py holds the two
# to each command's own help).
COMMANDS = {
    "cid": ("filters", "Print the CID of each record read (bare values or {uri, cid, value} views)."),
    "config": ("status", "See the config file: defaults for options, never secrets."),
    "convert": ("filters", "Convert between AgentMemoryEvent v1 and dev.bastienrobert.memory.record."),
    "ensure-indexes": ("memory", "Make the vector indexes recall needs on EPISODE.summary and MEMORY_FACT.text."),
    "export": ("exporting", "Export agent memory to a PDS as dev.bastienrobert.memory.record records."),
    "ids": ("filters", "Complete AgentMemoryEvent v1 inputs with their eventId / factId."),
    "import": ("importing", "Import dev.bastienrobert.memory.record records, verified, as JSON Lines."),
    "lexicon": ("lexicon", "Show or publish the lexicons pdsmem ships."),
    "list": ("listing", "List the memories RushDB holds for a scope, active and inactive, and where each came from."),
    "login": ("sessions", "Sign in to your PDS and keep the session for later commands."),
    "logout": ("sessions", "End an account's stored session: at its PDS, and on this machine."),
    "recall": ("memory", "Recall a scope's memories most like QUERY, as an agent receives them."),
    "schema": ("lexicon", "Print the JSON Schema of AgentMemoryEvent v1, the events pdsmem reads and writes."),
    "status": ("status", "Show what is configured, what was imported and exported, and the stored sessions."),
    "sync": ("memory", "Sync a repository's memory records into scoped RushDB memory."),
    "validate": ("filters", "Validate records (one JSON object per line) against lexicons."),
    "verify": ("importing", "Verify a repository: the commit's signature, the MST, every block; then every record."),
}


class _Commands(dict):
    """The root's commands: a command's module is imported when the command is asked for by name,
    and every module when the commands are walked (``docs/cli.md``, the tests)."""

    def _load(self, name: object) -> None:
        if name in COMMANDS and not dict.__contains__(self, name):
            importlib.import_module(f"pdsmem.cli.{COMMANDS[name][0]}")

    def _load_all(self) -> None:
        for name in COMMANDS:
            self._load(name)

    def __getitem__(self, name):
        self._load(name)
        return super().__getitem__(name)

    def __contains__(self, name) -> bool:
        self._load(name)
        return super().__contains__(name)

    def get(self, name, default=None):
        self._load(name)
        return super().get(name, default)

    def __iter__(self):
        self._load_all()
        return super().__iter__()

    def __len__(self) -> int:
        self._load_all()
        return super().__len__()

    def keys(self):
        self._load_all()
        return super().keys()

    def values(self):
        self._load_all()
        return super().values()

    def items(self):
        self._load_all()
        return super().items()


class PdsmemGroup(click.Group):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands(self.commands)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line help, from ``COMMANDS`` for a command not loaded."""
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = []
        for name in sorted(COMMANDS):
            command = dict.get(self.commands, name) or click.Command(name, help=COMMANDS[name][1])
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        given = _before_the_arguments(args)
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.BadParameter as exc:  # the root's own options (PDSMEM_DEBUG)
            from pdsmem.cli.options import name_the_source

            name_the_source(exc)
            if "--json" in given:  # the command's --json: its reader gets the line, as for any usage error
                _json_error(exc.ctx, "usage", exc.format_message(), EXIT_USAGE)
            raise

    def invoke(self, ctx: click.Context):
        if _keeps_patterns:  # a command runs (not ``pdsmem --help``): its patterns, compiled once a machine
            from pdsmem.api.startup import keep_compiled_patterns

            keep_compiled_patterns()
        # what follows the command's name, read before click takes it: a usage error comes before
        # --json's own callback has run, maybe before it is parsed
        given = _before_the_arguments([*(getattr(ctx, "_protected_args", None) or []), *ctx.args])
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's option, maybe from the environment or config
            if isinstance(exc, click.BadParameter):
                from pdsmem.cli.options import name_the_source

                name_the_source(exc)
            elif exc.message.startswith("Got unexpected extra argument") and exc.ctx is not None and any(
                    "--input" in param.opts for param in exc.ctx.command.params):
                # "pdsmem ids memories.jsonl": a newcomer's way of naming the file these commands read
                exc.message += "; this command reads stdin, or the file named with --input FILE"
            if ctx.meta.get(JSON_REQUESTED) or "--json" in given:
                _json_error(ctx, "usage", exc.format_message(), EXIT_USAGE)
            raise  # click prints the usage and "Error: …" on stderr, and exits 2
        except PdsmemError as err:
            if ctx.meta.get("pdsmem.debug"):
                raise
            _fail(ctx, "Error", explain(err), exit_code(err))
        except KeyboardInterrupt:  # Ctrl-C: say what it left behind, not click's bare "Aborted!"
            if ctx.meta.get("pdsmem.debug"):
                raise
            if sys.stderr.isatty():  # end the progress bar's line
                click.echo(err=True)
            _fail(ctx, "Interrupted", interrupted(ctx.invoked_subcommand), EXIT_INTERRUPTED)
        except BrokenPipeError:  # the reader of stdout stopped reading (``| head``): its choice
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
            ctx.exit(EXIT_OK)
        except OSError as err:  # a file or directory pdsmem was told to use
            if ctx.meta.get("pdsmem.debug"):
                raise
            where = f"{shown_name(err.filename)}: " if err.filename else ""
            # A name longer than the system allows names no file: the option or argument is wrong.
            _fail(ctx, "Error", f"{where}{err.strerror or err}",
                  EXIT_USAGE if err.errno == errno.ENAMETOOLONG else EXIT_FAILED)


def _before_the_arguments(args: list[str]) -> list[str]:
    """The words of a command line before "--": after it, "--json" is an argument."""
    return list(args[:args.index("--")] if "--" in args else args)


def _fail(ctx: click.Context, kind: str, message: str, code: int) -> None:
    """End the run: ``Error: …`` (or ``Interrupted: …``) on stderr, and with ``--json`` the same as
    the last line on stdout, ``{"error": {"kind", "message", "exitCode"}}``, where a reader of the
    JSON lines looks for how the run ended (its ``{"summary": …}`` line never came). A usage error
    (exit 2) gets the same line, kind ``usage``."""
    click.echo(f"{kind}: {message}", err=True)
    if ctx.meta.get(JSON_REQUESTED):  # a bad config file is a usage error too, whatever raised it
        _json_error(ctx, "usage" if code == EXIT_USAGE else kind.lower(), message, code)
    ctx.exit(code)


def _json_error(ctx: click.Context, kind: str, message: str, code: int) -> None:
    from pdsmem.cli import jsonl

    try:
        jsonl.write({"error": {"kind": kind, "message": message, "exitCode": code}})
    except BrokenPipeError:  # the reader of stdout is gone: stderr says it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@click.group(cls=PdsmemGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_CODES_HELP)
@click.version_option(package_name="pdsmem", prog_name="pdsmem")  # read when asked for
@click.option("--debug", is_flag=True, envvar="PDSMEM_DEBUG",
              help="Show tracebacks on errors. [env: PDSMEM_DEBUG]")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Move agent memory between RushDB and an atproto repository (PDS).

    Options fall back to environment variables, then to the config file (see
    `pdsmem config path`). Passwords come only from the environment (ATP_AUTH_PASSWORD) or a
    stored session (`pdsmem login`).

    \b
    Examples:
      pdsmem status
      ATP_AUTH_PASSWORD=app-password pdsmem export --to alice.example.com --from memories.jsonl
      pdsmem import --from alice.example.com --agent-id coder --profile-id default --out events.jsonl
      pdsmem convert to-record --did did:plc:abc < events.jsonl
    """
    ctx.meta["pdsmem.debug"] = debug


def main() -> None:
    global _keeps_patterns
    _keeps_patterns = True
    try:
        cli.main(prog_name="pdsmem")
    finally:
        # The run is over and what it wrote is closed (files are opened with ``with``, click closes
        # its context, the state database its connection). Python's last collection at exit would
        # walk every object the imports made, for nothing: about 15 ms of a short command's start
        # and end. Frozen, they are left to the process's end (docs/benchmarks.md, start-up).
        gc.freeze()


# Whether a command keeps the privacy gate's compiled patterns for the next run
# (``pdsmem.api.keep_compiled_patterns``): a run from the command line does (``main``); a run inside
# another program's process (click's test runner, a script calling ``cli``) does not.
_keeps_patterns = False
