"""The lexicon documents pdsmem ships: the memory record and pdsmem's extension object; and the
JSON Schema of the AgentMemoryEvent v1 contract (``contract/``, with its license).

Data only. ``load(nsid)`` returns one parsed document; ``all_documents()`` returns them all;
``contract_schema_text()`` the contract's schema as published.
"""

from __future__ import annotations

import json
from functools import cache

RECORD_NSID = "dev.bastienrobert.memory.record"
EXTENSION_NSID = "dev.pdsmem.agentMemory"


def _path_for(nsid: str):
    from importlib import resources  # loaded where a document is read: naming an NSID needs none

    *dirs, name = nsid.split(".")
    node = resources.files(__name__)
    for part in dirs:
        node = node / part
    return node / f"{name}.json"


@cache
def _load_text(nsid: str) -> str:
    return _path_for(nsid).read_text(encoding="utf-8")


def load(nsid: str) -> dict:
    """The lexicon document for ``nsid`` (a fresh copy each call)."""
    return json.loads(_load_text(nsid))


def all_documents() -> list[dict]:
    return [load(RECORD_NSID), load(EXTENSION_NSID)]


CONTRACT_SCHEMA = "agent-memory-event.v1.schema.json"


def contract_schema_text() -> str:
    """The AgentMemoryEvent v1 JSON Schema, as RushDB publishes it (Apache License 2.0)."""
    from importlib import resources

    return (resources.files(__name__) / "contract" / CONTRACT_SCHEMA).read_text(encoding="utf-8")
