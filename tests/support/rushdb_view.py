"""What a RushDB project holds, read back for tests; and a small embeddings server of the tests' own.

Scope: test support. ``snapshot`` reads every memory, mirror and relationship of a project
through the SDK, in a form two projects can be compared by (RushDB's own ids, and the time and
rev of a sync, left out): the rows linked to each scope's ``PDSMEM_SCOPE`` row apart, under
``scopes``, the other relationships under ``relationships``. ``EmbeddingsServer`` answers ``POST /embeddings`` as an
OpenAI-compatible endpoint does, on loopback, with deterministic bag-of-words vectors: texts
that share words are near. No model is downloaded.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rushdb import RushDB

from devkit.rushdb import Project

LABELS = {"MEMORY_FACT": "factId", "EPISODE": "eventId", "ATPROTO_RECORD": "mirrorKey", "PDSMEM_SCOPE": "agentId",
          "PDSMEM_PROJECT": "scopeRowsSince"}
MEMORY_LABELS = ("MEMORY_FACT", "EPISODE", "ATPROTO_RECORD")  # the rows a snapshot holds by key
VOLATILE = {"syncedAt", "rev"}  # when and at which rev a mirror was written


def client(project: Project) -> RushDB:
    return RushDB(project.api_key, url=project.url)


def records(project: Project, label: str, where: dict | None = None) -> list[dict]:
    db, out, skip = client(project), [], 0
    key = LABELS[label]
    while True:
        page = db.records.find({"labels": [label], "where": where or {}, "orderBy": {key: "asc"}, "limit": 1000,
                                "skip": skip}).data
        out += [record.data for record in page]
        skip += len(page)
        if len(page) < 1000:
            return out


def snapshot(project: Project) -> dict[str, Any]:
    """{label: {key: properties}}, and the relationships as (type, source key, target key)."""
    by_id: dict[str, str] = {}
    held: dict[str, Any] = {}
    for label in MEMORY_LABELS:
        key = LABELS[label]
        rows = {}
        for row in records(project, label):
            by_id[row["__id"]] = f"{label}:{row[key]}"
            rows[row[key]] = {k: v for k, v in row.items() if not k.startswith("__") and k not in VOLATILE}
        held[label] = rows
    links, skip, db = [], 0, client(project)
    while True:
        page = db.relationships.find({"where": {}}, pagination={"limit": 1000, "skip": skip}).data
        links += [(r["type"], by_id.get(r["sourceId"], "?"), by_id.get(r["targetId"], "?"), r["targetId"])
                  for r in page]
        skip += len(page)
        if len(page) < 1000:
            break
    anchors = {row["__id"]: scope_name(row) for row in records(project, "PDSMEM_SCOPE")}
    scopes: dict[str, list[str]] = {name: [] for name in anchors.values()}
    for kind, source, target, target_id in links:
        if kind == "IN_SCOPE" and target_id in anchors:
            scopes[anchors[target_id]].append(source)
    held["relationships"] = sorted((kind, source, target) for kind, source, target, _ in links if kind != "IN_SCOPE")
    held["scopes"] = {name: sorted(rows) for name, rows in scopes.items()}
    return held


def scope_name(row: dict) -> str:
    """A ``PDSMEM_SCOPE`` row by its five fields."""
    return "/".join(str(row.get(name)) for name in
                    ("agentId", "profileId", "privacyScope", "participantScopeHash", "sandboxEligible"))


def embed(text: str, dimensions: int) -> list[float]:
    """A unit vector with one axis per word (hashed): the more words two texts share, the nearer."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.casefold()):
        vector[int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % dimensions] += 1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class EmbeddingsServer:
    """``POST /v1/embeddings`` on loopback; ``calls`` counts requests, ``fail`` makes them answer 500."""

    def __init__(self, dimensions: int = 32) -> None:
        self.dimensions = dimensions
        self.calls = 0
        self.fail = False
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the handler's API)
                outer.calls += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if outer.fail or self.path != "/v1/embeddings":
                    self.send_response(500 if outer.fail else 404)
                    self.end_headers()
                    return
                data = [{"index": i, "embedding": embed(text, body.get("dimensions", outer.dimensions))}
                        for i, text in enumerate(body["input"])]
                answer = json.dumps({"data": data, "model": body["model"]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def env(self) -> dict[str, str]:
        return {"RUSHDB_EMBEDDING_API_KEY": "test-key", "RUSHDB_EMBEDDING_MODEL": "bag-of-words",
                "RUSHDB_EMBEDDING_DIMENSIONS": str(self.dimensions), "RUSHDB_EMBEDDING_BASE_URL": self.url}

    def __enter__(self) -> EmbeddingsServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
