"""The ``pdsmem`` command line: parses options, calls the library, prints results.

One place (``PdsmemGroup.invoke``) turns a ``PdsmemError`` into ``Error: …`` on stderr and an exit
code; tracebacks only with ``--debug``. Exit codes: 0 all done, 1 failed, 2 usage, 3 partly done
(some items refused or failed).
"""

from __future__ import annotations

import click

from pdsmem import __version__
from pdsmem.errors import PdsmemError

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PARTIAL = 3


class PdsmemGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PdsmemError as err:
            if ctx.meta.get("pdsmem.debug"):
                raise
            click.echo(f"Error: {err}", err=True)
            ctx.exit(EXIT_FAILED)


@click.group(cls=PdsmemGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pdsmem")
@click.option("--debug", is_flag=True, envvar="PDSMEM_DEBUG", help="Show tracebacks on errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Move agent memory between RushDB and an atproto repository (PDS).

    \b
    Examples:
      pdsmem ids < events.jsonl
      pdsmem convert to-record --did did:plc:abc < events.jsonl
      pdsmem validate < records.jsonl
    """
    ctx.meta["pdsmem.debug"] = debug


def main() -> None:
    cli.main(prog_name="pdsmem")


def _register() -> None:
    from pdsmem.cli import exporting, filters, importing  # noqa: F401  (commands attach themselves to `cli`)


_register()
