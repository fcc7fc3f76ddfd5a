"""pdsmem: agent memory between RushDB and a person's atproto repository.

Layers, each importing only those before it:
``pdsmem.lexicons`` (data) -> ``pdsmem.mapping`` (pure) -> ``pdsmem.bridge`` (I/O) -> ``pdsmem.cli``.
"""

__version__ = "0.1.0"
