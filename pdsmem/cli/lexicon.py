"""``pdsmem lexicon show|publish``: the lexicon documents pdsmem ships, and their publication;
``pdsmem schema``: the JSON Schema of its input, AgentMemoryEvent v1.

Publication follows the atproto Lexicon spec ("Lexicon Publication and Resolution"): each
schema is a ``com.atproto.lexicon.schema`` record whose record key is its NSID, in the
repository of the account that speaks for the NSID's authority; a DNS TXT record
``_lexicon.<authority domain>`` holding ``did=<that account's DID>`` links the two. The authority
domain is the NSID without its last part, reversed: ``dev.pdsmem.agentMemory`` →
``pdsmem.dev``. Resolvers never walk up or down the DNS tree, so each authority needs its own
TXT record. Publishing is idempotent: a record already holding the same schema (same CID) is
left alone; a changed one is replaced with ``putRecord`` guarded by ``swapRecord`` (the library's
``publish_lexicon`` does it).
"""

from __future__ import annotations

import json
from typing import Any

import click

from pdsmem import api
from pdsmem.cli import EXIT_FAILED, EXIT_PARTIAL, cli
from pdsmem.cli.accounts import open_session
from pdsmem.cli.jsonl import write, write_summary
from pdsmem.cli.options import account_option, dry_run_option, output_options, pds_options
from pdsmem.cli.reporting import explain
from pdsmem.errors import PdsmemError


def shipped() -> dict[str, dict[str, Any]]:
    """NSID → lexicon document, for every lexicon pdsmem ships."""
    return api.shipped_lexicons()


def _select(nsids: tuple[str, ...], param: str) -> list[dict[str, Any]]:
    documents = shipped()
    unknown = [nsid for nsid in nsids if nsid not in documents]
    if unknown:
        raise click.BadParameter(
            f"pdsmem ships no lexicon {unknown[0]}; it ships {', '.join(documents)}",
            param_hint=param,
        )
    return [documents[nsid] for nsid in nsids] if nsids else list(documents.values())


def covers(handle: str, nsid: str) -> bool:
    """Whether the owner of ``handle`` controls the DNS of ``nsid``'s authority domain: the
    domain is the handle itself or under it (the handle's DNS is theirs)."""
    domain, owned = api.lexicon_authority(nsid), handle.lower()
    return domain == owned or domain.endswith("." + owned)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of AgentMemoryEvent v1, the events pdsmem reads and writes.

    As RushDB publishes it (draft 2020-12; Apache License 2.0). docs/input.md shows an event of
    each kind and which fields pdsmem fills in (eventId, factId, schemaVersion).

    \b
    Example:
      pdsmem schema > agent-memory-event.v1.schema.json
    """
    click.echo(api.event_schema(), nl=False)


@cli.group()
def lexicon() -> None:
    """Show or publish the lexicons pdsmem ships.

    \b
    Examples:
      pdsmem lexicon show dev.pdsmem.agentMemory
      ATP_AUTH_PASSWORD=app-password pdsmem lexicon publish --to pdsmem.dev --dry-run
    """


@lexicon.command("show")
@click.argument("nsid", required=False)
@output_options
def show(nsid: str | None, as_json: bool) -> None:
    """Print the shipped lexicon documents (all of them, or the one named).

    \b
    Examples:
      pdsmem lexicon show
      pdsmem lexicon show dev.bastienrobert.memory.record
    """
    documents = _select((nsid,) if nsid else (), "NSID")
    for document in documents:
        if as_json:
            write(document)
        else:
            click.echo(json.dumps(document, indent=2, ensure_ascii=False))
    if as_json:
        write_summary({"lexicons": len(documents)})


@lexicon.command("publish")
@click.argument("nsids", nargs=-1, metavar="[NSID]...")
@account_option("--to", "The account that speaks for the NSIDs' authority: the schemas are "
                "written to its repository. Its app password comes from ATP_AUTH_PASSWORD, or "
                "a stored session (pdsmem login).")
@dry_run_option
@pds_options
@output_options
def publish(nsids: tuple[str, ...], account: str, dry_run: bool, pds_url: str | None,
            plc_url: str | None, state_dir: str | None, as_json: bool) -> None:
    """Publish the shipped lexicons as com.atproto.lexicon.schema records.

    Each schema becomes the record at com.atproto.lexicon.schema/<NSID> in the repository of
    the account given with --to: only the NSIDs whose authority domain is the account's handle
    or under it (the domain whose DNS the account controls); the shipped lexicons of other
    authorities are skipped, with a note. Re-running writes nothing when they are already there.
    Then prints the DNS TXT record each NSID authority needs (_lexicon.<authority domain>, value
    did=<DID>) so that resolvers find them.

    \b
    Examples:
      pdsmem lexicon publish --to pdsmem.dev dev.pdsmem.agentMemory
      pdsmem lexicon publish --to pdsmem.dev --dry-run
    """
    documents = _select(nsids, "NSID")
    done: list[api.Published] = []
    failed = 0
    with open_session(account, pds_url=pds_url, plc_url=plc_url, state_dir=state_dir) as session:
        documents = _theirs(documents, session.handle, named=bool(nsids))
        for document in documents:
            try:
                done.append(api.publish_lexicon(session, document["id"], dry_run=dry_run))
            except PdsmemError as err:
                failed += 1
                err.item = err.item or document["id"]
                click.echo(f"Error: {explain(err)}", err=True)
        _print(done, session, dry_run=dry_run, as_json=as_json)
    if failed:
        click.get_current_context().exit(EXIT_PARTIAL if done else EXIT_FAILED)


def _theirs(documents: list[dict[str, Any]], handle: str, *, named: bool) -> list[dict[str, Any]]:
    """The documents whose NSID authority the account's handle covers; say which are left out.

    Publishing a schema for a domain one does not control would point resolvers at a DNS
    record nobody can set. A named NSID outside the handle's domain is an error; without
    names, the others are skipped with a note, and an error when none is left."""
    mine = [doc for doc in documents if covers(handle, doc["id"])]
    others = [doc["id"] for doc in documents if not covers(handle, doc["id"])]
    if others and (named or not mine):
        raise PdsmemError(
            f"{handle} does not speak for {', '.join(f'{nsid} (authority {api.lexicon_authority(nsid)})' for nsid in others)}: "
            "only the account whose handle is that domain, or a domain above it, can publish it",
            hint="log in as that domain's account; pdsmem's own schemas are published by pdsmem.dev, and "
            "dev.bastienrobert.memory.record by its author",
        )
    for nsid in others:
        click.echo(
            f"Note: skipped {nsid}: its authority {api.lexicon_authority(nsid)} is not under {handle}, whose "
            "DNS is the only one this account controls", err=True,
        )
    return mine


def _print(done: list[api.Published], session: api.Session, *, dry_run: bool, as_json: bool) -> None:
    if as_json:
        for item in done:
            write({"nsid": item.nsid, "status": item.status, "uri": item.uri, "cid": item.cid,
                   "dryRun": dry_run, "dns": {"name": item.dns_name, "type": "TXT", "value": item.dns_value}})
        counts: dict[str, int] = {}
        for item in done:  # "would create" counts as wouldCreate
            key = item.status.replace("would c", "wouldC").replace("would u", "wouldU")
            counts[key] = counts.get(key, 0) + 1
        write_summary({"did": session.did, "dryRun": dry_run, **counts})
        return
    for item in done:
        click.echo(f"{item.status:<12}  {item.uri}")
    shown = ("would create", "would update", "unchanged") if dry_run else ("created", "updated", "unchanged")
    counts = ", ".join(f"{sum(1 for i in done if i.status == s)} {s}" for s in shown)
    who = f"{session.handle} ({session.did})"
    if dry_run:
        click.echo(f"Dry run, nothing written: would publish to {who}: {counts}")
    else:
        click.echo(f"Published to {who}: {counts}")
    records = sorted({(item.dns_name, item.dns_value) for item in done})
    if records:
        click.echo("Resolvers find these schemas once each authority's DNS has this TXT record:")
        for name, value in records:
            click.echo(f'  {name}  TXT  "{value}"')
