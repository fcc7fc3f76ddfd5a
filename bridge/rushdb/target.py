"""Which RushDB project pdsmem talks to, named without connecting to it: the store's target, kept
apart from the store (``store.py``) so that what only names a project (``pdsmem status``) loads
neither the SDK nor the store's code."""

from __future__ import annotations

from dataclasses import dataclass, field

from pdsmem.mapping.syntax_base import mask_url

__all__ = ["CLOUD_URL", "ENV_API_KEY", "ENV_API_URL", "ENV_ENGINE_SCOPE", "ENV_ENGINE_TOKEN", "ENV_ENGINE_URL",
           "RushDBTarget"]

ENV_API_KEY = "RUSHDB_API_KEY"
ENV_API_URL = "RUSHDB_API_URL"
ENV_ENGINE_URL = "RUSHDB_ENGINE_URL"
ENV_ENGINE_TOKEN = "RUSHDB_ENGINE_TOKEN"
ENV_ENGINE_SCOPE = "RUSHDB_ENGINE_SCOPE"
CLOUD_URL = "https://api.rushdb.com"


@dataclass(frozen=True)
class RushDBTarget:
    """Where memories live: a RushDB REST API (Cloud, or self-hosted) with an API key, or a
    standalone engine reached in the SDK's direct mode (``engine_url``)."""

    api_key: str = field(repr=False)
    url: str | None = None  # the REST API; None: RushDB Cloud
    engine_url: str | None = None
    engine_scope: str | None = None

    def __post_init__(self) -> None:  # a URL as an environment file may hold it: " http://host:3000 "
        for name in ("url", "engine_url"):
            if isinstance(value := getattr(self, name), str):
                object.__setattr__(self, name, value.strip() or None)

    @property
    def shown(self) -> str:
        """Where, as messages and status show it (never the key)."""
        if self.engine_url:
            return f"the RushDB engine at {mask_url(self.engine_url)}"
        return f"RushDB at {mask_url(self.url or CLOUD_URL)}"

    @property
    def key(self) -> str:
        """Names this target in the sync state (a hash: the API key never reaches the state)."""
        import hashlib

        from ..atproto.xrpc import normalize_base_url  # httpx: loaded where a project is named by its key

        where = self.engine_url or normalize_base_url(self.url or CLOUD_URL)
        parts = "\n".join([where, self.engine_scope or "", self.api_key])
        return hashlib.sha256(parts.encode()).hexdigest()[:16]

    def connect(self):
        """The SDK client. Imported here: commands that never touch RushDB do not load it."""
        from rushdb import RushDB

        if self.engine_url:
            return RushDB(self.api_key, direct=True, engine_url=self.engine_url, scope=self.engine_scope)
        return RushDB(self.api_key, url=self.url) if self.url else RushDB(self.api_key)
