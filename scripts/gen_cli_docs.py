"""Generate docs/cli.md, the command-line reference, from the click commands' own help.

    python scripts/gen_cli_docs.py          # rewrite docs/cli.md
    python scripts/gen_cli_docs.py --check  # exit 1 if docs/cli.md is out of date

The help is rendered at a fixed width, without reading the config file or the environment,
so the output depends only on the code. ``tests/test_cli_docs.py`` checks the file is current.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "cli.md"
WIDTH = 96

HEADER = """\
# pdsmem command line

Generated from the commands' own `--help` by `scripts/gen_cli_docs.py`; do not edit by hand
(`tests/test_cli_docs.py` fails when this file is out of date). For what to do about the errors
these commands print, see [troubleshooting.md](troubleshooting.md).

Every option that names an environment variable (`[env: …]`) or a config key (`[config: …]`)
takes its value from the command line first, then the environment, then the config file
(`pdsmem config path`), then the built-in default. Passwords never come from options or the
config file: `ATP_AUTH_PASSWORD`, or a session stored by `pdsmem login`.
"""


def _walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[click.Context, click.Command]]:
    yield ctx, command
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            sub = command.commands[name]
            sub_ctx = click.Context(sub, info_name=name, parent=ctx, terminal_width=WIDTH,
                                    max_content_width=WIDTH)
            yield from _walk(sub, sub_ctx)


def render() -> str:
    """The whole of docs/cli.md."""
    from pdsmem.cli import cli

    root = click.Context(cli, info_name="pdsmem", terminal_width=WIDTH, max_content_width=WIDTH,
                         **cli.context_settings)
    parts = [HEADER]
    commands = list(_walk(cli, root))
    parts.append("## Commands\n")
    for ctx, _ in commands[1:]:
        path = ctx.command_path
        anchor = path.replace(" ", "-")
        parts.append(f"- [`{path}`](#{anchor})")
    parts.append("")
    for ctx, command in commands:
        parts.append(f"## {ctx.command_path}\n")
        parts.append("```text")
        parts.append(command.get_help(ctx).rstrip())
        parts.append("```\n")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.is_file() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python scripts/gen_cli_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
