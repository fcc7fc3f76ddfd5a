"""Option groups shared by commands, each with its environment-variable fallback.

- ``pds_options``: ``--pds`` (ATP_PDS_HOST), ``--plc`` (ATP_PLC_HOST), ``--state-dir``
  (PDSMEM_STATE_DIR). Passwords are never options (they would show in process lists): they come
  from ``ATP_AUTH_PASSWORD``, or a stored session.
- ``output_options``: ``--json`` for JSON lines instead of a human summary.
"""

from __future__ import annotations

import functools

import click


def pds_options(command):
    @click.option("--pds", "pds_url", envvar="ATP_PDS_HOST", metavar="URL",
                  help="PDS URL (default: from the account's DID document). [env: ATP_PDS_HOST]")
    @click.option("--plc", "plc_url", envvar="ATP_PLC_HOST", metavar="URL",
                  help="PLC directory URL. [env: ATP_PLC_HOST; default: https://plc.directory]")
    @click.option("--state-dir", envvar="PDSMEM_STATE_DIR", type=click.Path(file_okay=False), metavar="DIR",
                  help="Where sessions and sync state live. [env: PDSMEM_STATE_DIR]")
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        return command(*args, **kwargs)

    return wrapper


def output_options(command):
    @click.option("--json", "as_json", is_flag=True, help="Print JSON lines instead of a summary.")
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        return command(*args, **kwargs)

    return wrapper
