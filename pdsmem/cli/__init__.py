"""The ``pdsmem`` command line: parses options, calls the library, prints results.

This module only builds the command tree; each command group lives in its own module and
attaches itself to ``cli``. One place (``PdsmemGroup.invoke``) turns a ``PdsmemError`` into
``Error: …`` on stderr and an exit code (``reporting.py``); tracebacks only with ``--debug``.
The same place turns Ctrl-C into ``Interrupted: …`` (what the run left, whether running it again
resumes) and exit 130, and names the environment variable or config key a bad value came from.
"""

from __future__ import annotations

import errno
import os
import sys

import click

from pdsmem.cli.options import name_the_source
from pdsmem.cli.reporting import (
    EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_PARTIAL, EXIT_USAGE, exit_code, explain, interrupted, shown_name,
)
from pdsmem.errors import PdsmemError

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_PARTIAL", "EXIT_USAGE", "cli", "main"]

EXIT_CODES_HELP = """\b
Exit codes:
  0  all done
  1  failed (nothing, or nothing more, was done; the message says why)
  2  usage: a bad option, argument or config file
  3  partly done: some items were refused or failed, each named on stderr
  130  interrupted (Ctrl-C); export and sync resume when run again"""


class PdsmemGroup(click.Group):
    def make_context(self, *args, **kwargs) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.BadParameter as exc:  # the root's own options (PDSMEM_DEBUG)
            name_the_source(exc)
            raise

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.BadParameter as exc:  # a command's option, maybe from the environment or config
            name_the_source(exc)
            raise
        except PdsmemError as err:
            if ctx.meta.get("pdsmem.debug"):
                raise
            click.echo(f"Error: {explain(err)}", err=True)
            ctx.exit(exit_code(err))
        except KeyboardInterrupt:  # Ctrl-C: say what it left behind, not click's bare "Aborted!"
            if ctx.meta.get("pdsmem.debug"):
                raise
            if sys.stderr.isatty():  # end the progress bar's line
                click.echo(err=True)
            click.echo(f"Interrupted: {interrupted(ctx.invoked_subcommand)}", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:  # the reader of stdout stopped reading (``| head``): its choice
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
            ctx.exit(EXIT_OK)
        except OSError as err:  # a file or directory pdsmem was told to use
            if ctx.meta.get("pdsmem.debug"):
                raise
            where = f"{shown_name(err.filename)}: " if err.filename else ""
            click.echo(f"Error: {where}{err.strerror or err}", err=True)
            # A name longer than the system allows names no file: the option or argument is wrong.
            ctx.exit(EXIT_USAGE if err.errno == errno.ENAMETOOLONG else EXIT_FAILED)


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
    cli.main(prog_name="pdsmem")


def _register() -> None:
    # Each module attaches its commands to `cli`.
    from pdsmem.cli import (  # noqa: F401
        exporting, filters, importing, lexicon, listing, memory, sessions, status,
    )


_register()
