"""Fault injection at the transport boundary, and the exact end-state checks of the fault suite.

``Faulty`` stands between pdsmem and the real PDS for what a real server will not do on demand:
refused and reset connections, a body cut short, an expired token. The checks read the real
repository: it must hold exactly the expected records (uri → CID), and the ledger must agree.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from pdsmem.bridge.signin.session import Session
from pdsmem.bridge.pipelines.sources import SourceItem
from pdsmem.bridge.pipelines.state import State
from pdsmem.mapping.to_record import to_records

from devkit.pds import LocalPds
from devkit.repo_builder import COLLECTION


def items(events: list[dict]) -> list[SourceItem]:
    return [SourceItem(f"item {n}", e) for n, e in enumerate(events)]


def expected(events: list[dict], did: str) -> dict[str, str]:
    views, failed = to_records(events, did)
    assert not failed
    return {v.uri: v.cid for v in views}


def held(session: Session) -> dict[str, str]:
    """uri → CID of every memory record in the repository; a uri listed twice fails."""
    out: dict[str, str] = {}
    cursor = None
    while True:
        page = session.query(
            "com.atproto.repo.listRecords",
            {"repo": session.did, "collection": COLLECTION, "limit": 100, "cursor": cursor},
        )
        for record in page["records"]:
            assert record["uri"] not in out, f"{record['uri']} listed twice"
            out[record["uri"]] = record["cid"]
        cursor = page.get("cursor")
        if not cursor or not page["records"]:
            return out


def assert_exported_exactly(session: Session, state: State, events: list[dict]) -> None:
    want = expected(events, session.did)
    assert held(session) == want
    assert {r.rkey: r.cid for r in state.exported(session.did).values()} == {
        uri.rsplit("/", 1)[1]: cid for uri, cid in want.items()
    }


class Faulty(httpx.BaseTransport):
    """Fault injection at the transport boundary: request ``nth`` to ``nsid``, for each
    ``(nsid, nth)`` in ``faults``, fails ``before`` it reaches the PDS (connection refused),
    ``after`` the PDS answered (reset: the work was done, the answer is lost), or is ``cut``
    after ``cut_at`` bytes of its body; or it carries an ``expired`` copy of its access token,
    signed with ``secret`` (the PDS's own, or a wrong one), which the real PDS rejects. Other
    requests go to the real server unchanged. ``nsid`` ``plc`` is the DID document request."""

    def __init__(self, faults: dict[tuple[str, int], str], *, cut_at: int = 20_000,
                 secret: str = "not the secret") -> None:
        self.inner = httpx.HTTPTransport()
        self.faults, self.cut_at, self.secret = dict(faults), cut_at, secret
        self.seen: dict[str, int] = {}
        self.fired: list[tuple[str, int, str]] = []
        self.rejected: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        nsid = request.url.path.rsplit("/", 1)[-1]
        nsid = "plc" if nsid.startswith("did:") else nsid
        self.seen[nsid] = self.seen.get(nsid, 0) + 1
        how = self.faults.pop((nsid, self.seen[nsid]), None)
        if how is None:
            return self.inner.handle_request(request)
        self.fired.append((nsid, self.seen[nsid], how))
        if how == "before":
            raise httpx.ConnectError("connection refused (injected)", request=request)
        if how == "expired":
            token = request.headers["Authorization"].removeprefix("Bearer ")
            request.headers["Authorization"] = f"Bearer {expired_copy(token, self.secret)}"
            response = self.inner.handle_request(request)
            response.read()
            self.rejected.append(response.json()["error"])
            return response
        response = self.inner.handle_request(request)
        if how == "after":
            response.read()
            response.close()
            raise httpx.ReadError("connection reset by peer (injected)", request=request)
        return httpx.Response(
            response.status_code, headers=response.headers, request=request,
            content=_cut(response, self.cut_at),
        )


def _cut(response: httpx.Response, limit: int) -> Iterator[bytes]:
    """The first ``limit`` bytes of the body, then a reset connection."""
    sent = 0
    try:
        for chunk in response.stream:
            yield chunk[: limit - sent]
            sent += len(chunk[: limit - sent])
            if sent >= limit:
                raise httpx.ReadError("connection reset by peer mid-body (injected)")
        raise AssertionError(f"the body ended before byte {limit}; cut it earlier")
    finally:
        response.close()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def expired_copy(token: str, secret: str) -> str:
    """``token`` re-issued with an expiry an hour ago, signed with the PDS's own JWT secret."""
    header, payload, _ = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims.update(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)
    signed = f"{header}.{_b64(json.dumps(claims).encode())}"
    mac = hmac.new(secret.encode(), signed.encode(), hashlib.sha256).digest()
    return f"{signed}.{_b64(mac)}"


def login(server: LocalPds, account, where: Path, **kw) -> Session:
    return Session.login(server.url, account.did, account.password, state_dir=where, **kw)
