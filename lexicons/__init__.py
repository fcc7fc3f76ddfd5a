"""The lexicon documents pdsmem ships: the memory record and pdsmem's extension object; and the
JSON Schema of the AgentMemoryEvent v1 contract (``contract/``, with its license).

Data only. ``load(nsid)`` returns one parsed document; ``all_documents()`` returns them all;
``contract_schema_text()`` the contract's schema as published.
"""

from __future__ import annotations

import json
import os
from functools import cache

RECORD_NSID = "dev.bastienrobert.memory.record"
EXTENSION_NSID = "dev.pdsmem.agentMemory"


def _read(*parts: str) -> str:
    """A file shipped in this package: read from the package's directory, or through
    ``importlib.resources`` where the package is not one (a zipped install). That module costs
    a command's start-up more than the reading, so it is loaded only there."""
    try:
        with open(os.path.join(os.path.dirname(__file__), *parts), encoding="utf-8") as file:
            return file.read()
    except (FileNotFoundError, NotADirectoryError):
        from importlib import resources

        node = resources.files(__name__)
        for part in parts:
            node = node / part
        return node.read_text(encoding="utf-8")


@cache
def _load_text(nsid: str) -> str:
    *dirs, name = nsid.split(".")
    return _read(*dirs, f"{name}.json")


def load(nsid: str) -> dict:
    """The lexicon document for ``nsid`` (a fresh copy each call)."""
    return json.loads(_load_text(nsid))


def all_documents() -> list[dict]:
    return [load(RECORD_NSID), load(EXTENSION_NSID)]


CONTRACT_SCHEMA = "agent-memory-event.v1.schema.json"


def contract_schema_text() -> str:
    """The AgentMemoryEvent v1 JSON Schema, as RushDB publishes it (Apache License 2.0)."""
    return _read("contract", CONTRACT_SCHEMA)
