"""Vectors for memories from any OpenAI-compatible embeddings endpoint, configured as RushDB's own
agent-memory integrations configure it (``RUSHDB_EMBEDDING_*``).

Scope: ``POST <base>/embeddings`` with ``{"model", "input", "dimensions"}``, in batches, and the
answer checked (one vector per text, of the configured length). A RushDB server without an
embedding provider of its own (a self-hosted one, or a standalone engine) stores these as
external vectors; recall embeds its query the same way.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import httpx

from pdsmem.errors import PdsmemError, TransientError

from ..atproto.xrpc import describe_transport_error, mask_userinfo, normalize_base_url, tls_context

ENV_KEY = "RUSHDB_EMBEDDING_API_KEY"
ENV_MODEL = "RUSHDB_EMBEDDING_MODEL"
ENV_DIMENSIONS = "RUSHDB_EMBEDDING_DIMENSIONS"
ENV_BASE_URL = "RUSHDB_EMBEDDING_BASE_URL"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
BATCH = 64  # texts per request
MAX_TEXT = 4000  # characters of a text sent to be embedded (as the integrations bound it)


class EmbeddingError(PdsmemError):
    """The embeddings endpoint refused a request, or answered it with something else than vectors."""


class EmbeddingUnavailable(TransientError):
    """The embeddings endpoint cannot be reached, or failed (5xx)."""


@dataclass(frozen=True)
class Embedder:
    api_key: str = field(repr=False)
    model: str
    dimensions: int
    base_url: str = DEFAULT_BASE_URL
    similarity: str = "cosine"
    timeout: float = 60.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Embedder | None:
        """The embedder the ``RUSHDB_EMBEDDING_*`` variables configure; None when none is set."""
        env = os.environ if env is None else env
        key, model, dimensions = env.get(ENV_KEY, ""), env.get(ENV_MODEL, ""), env.get(ENV_DIMENSIONS, "")
        if not (key or model or dimensions):
            return None
        if not (key and model and dimensions):
            raise EmbeddingError(
                f"the embeddings endpoint is configured only in part: {ENV_KEY}, {ENV_MODEL} and "
                f"{ENV_DIMENSIONS} (an integer from 1 to 4096) go together",
                hint=f"set all three (and {ENV_BASE_URL} for an endpoint other than OpenAI's), or none",
            )
        # ASCII digits only: str.isdigit() also takes '²', which int() refuses
        if not (dimensions.isascii() and dimensions.isdigit() and 0 < int(dimensions) <= 4096):
            raise EmbeddingError(f"{ENV_DIMENSIONS} must be an integer from 1 to 4096, the length of the "
                                 f"model's vectors; got {dimensions!r}")
        base = env.get(ENV_BASE_URL) or DEFAULT_BASE_URL
        try:
            base = normalize_base_url(base, what=ENV_BASE_URL)
        except PdsmemError as err:
            raise EmbeddingError(err.message) from None  # it names the variable
        return cls(key, model, int(dimensions), base)

    @property
    def shown(self) -> str:
        return f"the embeddings endpoint {mask_userinfo(self.base_url)} (model {self.model})"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        vectors: list[list[float]] = []
        with httpx.Client(timeout=self.timeout, verify=tls_context()) as http:
            for start in range(0, len(texts), BATCH):
                vectors += self._batch(http, [text[:MAX_TEXT] for text in texts[start:start + BATCH]])
        return vectors

    def _batch(self, http: httpx.Client, texts: list[str]) -> list[list[float]]:
        try:
            answer = http.post(
                f"{self.base_url}/embeddings",
                headers={"Authorization": f"Bearer {self.api_key}"},
                json={"model": self.model, "input": texts, "dimensions": self.dimensions},
            )
        except httpx.TransportError as err:
            raise EmbeddingUnavailable(f"cannot reach {self.shown}: {describe_transport_error(err)}") from None
        if answer.status_code >= 500:
            raise EmbeddingUnavailable(f"{self.shown} failed (HTTP {answer.status_code})")
        if answer.status_code in (404, 405) or answer.status_code >= 400 and not _json_answer(answer):
            raise EmbeddingError(  # a page that is no embeddings API: its text says nothing to the operator
                f"{self.shown} has no embeddings API there (HTTP {answer.status_code})",
                hint=f"check {ENV_BASE_URL}: the base URL of an OpenAI-compatible API, to which /embeddings is added",
            )
        if answer.status_code >= 400:
            said = " ".join(answer.text.split())[:200]  # one line, whatever the server sent
            raise EmbeddingError(
                f"{self.shown} refused the request (HTTP {answer.status_code}: {said})",
                hint=f"check {ENV_KEY} and {ENV_MODEL}",
            )
        try:
            rows = sorted(answer.json().get("data") or [], key=lambda row: row.get("index", 0))
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (ValueError, TypeError, KeyError, AttributeError):
            raise EmbeddingError(f"{self.shown} answered without a list of embeddings") from None
        if len(vectors) != len(texts) or any(len(v) != self.dimensions for v in vectors):
            raise EmbeddingError(
                f"{self.shown} answered {len(vectors)} vectors for {len(texts)} texts; expected "
                f"{self.dimensions} dimensions each",
                hint=f"{ENV_DIMENSIONS} must be a length the model gives",
            )
        return vectors


def _json_answer(answer: httpx.Response) -> bool:
    return "json" in answer.headers.get("content-type", "")
