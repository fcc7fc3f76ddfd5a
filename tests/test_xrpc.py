"""XrpcClient: calls, errors, rate limits and streaming, against the real local PDS.

Failures a real server will not produce on demand (a 429 storm without headers, a 5xx, an answer
lost after the write happened, a connection reset mid-body) are injected at the transport
boundary; each such test says so. Everything else talks to the real PDS or real sockets.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest
from devkit.pds import Account, LocalPds

from pdsmem.bridge.atproto.car import read_car
from pdsmem.bridge.atproto.xrpc import (
    RateLimit,
    XrpcClient,
    XrpcError,
    XrpcRateLimited,
    XrpcServerError,
    mask_url,
    mask_userinfo,
    normalize_base_url,
    parse_rate_limit,
)
from pdsmem.errors import InvalidSyntax, RateLimited, TransientError

COLLECTION = "dev.bastienrobert.memory.record"


def memory(content: str) -> dict[str, str]:
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return {"$type": COLLECTION, "content": content, "createdAt": now, "kind": "fact"}


def authed(pds: LocalPds, account: Account, **kw) -> XrpcClient:
    return XrpcClient(pds.url, auth=lambda: f"Bearer {account.access_jwt}", **kw)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- the real PDS ------------------------------------------------------------------------------


@pytest.mark.pds
def test_query_returns_the_json_object_and_names_xrpc_errors(
    pds: LocalPds, account: Account
) -> None:
    with XrpcClient(pds.url + "/") as client:
        assert client.base_url == pds.url
        assert client.query("com.atproto.identity.resolveHandle", {"handle": account.handle}) == {
            "did": account.did
        }
        params = {"repo": account.did, "collection": COLLECTION, "rkey": "nothere"}
        with pytest.raises(XrpcError) as caught:
            client.query("com.atproto.repo.getRecord", params)
    err = caught.value
    assert (err.status, err.error, err.retryable) == (400, "RecordNotFound", False)
    assert err.server_message and "Could not locate record" in err.server_message
    assert str(err).startswith(
        f"com.atproto.repo.getRecord failed at {pds.url}: 400 RecordNotFound: "
    )


@pytest.mark.pds
def test_procedure_sends_the_auth_hook_and_reports_invalid_swap(
    pds: LocalPds, account: Account
) -> None:
    calls = []

    def auth() -> str:
        calls.append(1)
        return f"Bearer {account.access_jwt}"

    with XrpcClient(pds.url, auth=auth) as client:
        created = client.procedure(
            "com.atproto.repo.createRecord",
            {"repo": account.did, "collection": COLLECTION, "record": memory("first")},
        )
        rkey = created["uri"].rsplit("/", 1)[1]
        stale = "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"
        with pytest.raises(XrpcError) as caught:
            client.procedure(
                "com.atproto.repo.putRecord",
                {"repo": account.did, "collection": COLLECTION, "rkey": rkey,
                 "record": memory("second"), "swapRecord": stale},
            )
    assert len(calls) == 2
    assert (caught.value.status, caught.value.error) == (400, "InvalidSwap")


@pytest.mark.pds
def test_explicit_authorization_header_wins_over_the_auth_hook(
    pds: LocalPds, account: Account
) -> None:
    with XrpcClient(pds.url, auth=lambda: "Bearer not-a-token") as client:
        with pytest.raises(XrpcError) as caught:
            client.query("com.atproto.server.getSession")
        assert caught.value.error == "InvalidToken"
        session = client.procedure(
            "com.atproto.server.refreshSession",
            headers={"Authorization": f"Bearer {account.refresh_jwt}"},
        )
    assert session["did"] == account.did


@pytest.mark.pds
def test_stream_yields_the_repository_car_in_chunks(pds: LocalPds, account: Account) -> None:
    with authed(pds, account) as client:
        for i in range(3):
            client.procedure(
                "com.atproto.repo.createRecord",
                {"repo": account.did, "collection": COLLECTION, "record": memory(f"m{i}")},
            )
        head = client.query("com.atproto.sync.getLatestCommit", {"did": account.did})
        with client.stream("com.atproto.sync.getRepo", {"did": account.did}) as chunks:
            assert isinstance(chunks, Iterator)
            root, store = read_car(chunks)
    with store:
        assert str(root) == head["cid"]
        assert len(store) >= 4  # commit, MST node, three records


@pytest.mark.pds
def test_stream_raises_the_xrpc_error_before_yielding(pds: LocalPds) -> None:
    missing = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
    with XrpcClient(pds.url) as client, pytest.raises(XrpcError) as caught:
        with client.stream("com.atproto.sync.getRepo", {"did": missing}):
            pytest.fail("the body of a failed call must not be entered")
    assert caught.value.status == 400
    assert caught.value.error == "RepoNotFound"


@pytest.mark.pds
def test_query_refuses_a_body_that_is_not_a_json_object(pds: LocalPds, account: Account) -> None:
    with XrpcClient(pds.url) as client, pytest.raises(XrpcError) as caught:
        client.query("com.atproto.sync.getRepo", {"did": account.did})
    assert "not a JSON object (application/vnd.ipld.car)" in str(caught.value)


@pytest.mark.pds
def test_rate_limit_headers_and_a_real_429() -> None:
    """A PDS with its own rate limiter on: headers on every answer, then a genuine 429."""
    with LocalPds(rate_limits=True) as limited:
        account = limited.create_account("limited")
        with authed(limited, account) as client:
            client.query("com.atproto.server.describeServer")
            first = client.last_rate_limit
            assert first is not None and first.limit and first.policy
            assert first.remaining is not None and first.remaining < first.limit
            assert first.reset is not None and first.reset > time.time()
            # updateHandle allows 10 calls per 5 minutes: the 11th is refused.
            with pytest.raises(XrpcRateLimited) as caught:
                for _ in range(11):
                    client.procedure(
                        "com.atproto.identity.updateHandle", {"handle": account.handle}
                    )
            limit = client.last_rate_limit
    err = caught.value
    assert isinstance(err, RateLimited) and err.retryable
    assert (err.status, err.error) == (429, "RateLimitExceeded")
    assert limit is not None and (limit.limit, limit.remaining) == (10, 0)
    assert err.reset_at == limit.reset and err.reset_at > time.time()


# --- real sockets, no PDS ----------------------------------------------------------------------


def test_an_unreachable_pds_is_a_transient_error_naming_the_host() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with XrpcClient(url) as client, pytest.raises(TransientError) as caught:
        client.query("com.atproto.server.describeServer")
    assert str(caught.value) == f"cannot reach the PDS at {url}: connection refused"
    assert caught.value.retryable


def test_a_silent_server_times_out_as_a_transient_error() -> None:
    with socket.socket() as server:  # accepts connections (kernel backlog), never answers
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        url = f"http://127.0.0.1:{server.getsockname()[1]}"
        with XrpcClient(url, timeout=0.3) as client, pytest.raises(TransientError) as caught:
            client.procedure("com.atproto.repo.createRecord", {"repo": "did:plc:x"})
    assert str(caught.value) == (
        f"lost the answer of the PDS at {url} to com.atproto.repo.createRecord: timed out "
        "waiting for the answer; the write may or may not have been applied"
    )


def test_base_url_must_be_an_http_url() -> None:
    assert normalize_base_url(" https://pds.example.com/ ") == "https://pds.example.com"
    for bad in ("pds.example.com", "ftp://pds.example.com", "http://"):
        with pytest.raises(InvalidSyntax, match="must look like https://host"):
            XrpcClient(bad)
    with pytest.raises(InvalidSyntax, match="NSID"):
        XrpcClient("http://127.0.0.1:1").query("not an nsid")


def test_a_host_or_port_no_connection_can_use_is_refused_before_connecting() -> None:
    # Both crashed inside the connection with a traceback (the host name's IDNA encoding).
    for url in ("https://pds..example.com", "http://" + "a" * 64 + ".example", "http://.example"):
        with pytest.raises(InvalidSyntax, match="has a host name with an empty part .two dots in a row. or a part "
                           "longer than 63 characters"):
            normalize_base_url(url, what="the PDS URL")
    for url, port in (("http://127.0.0.1:99999", 99999), ("http://127.0.0.1:0", 0)):
        with pytest.raises(InvalidSyntax, match=f"has port {port}; a port is 1 to 65535"):
            normalize_base_url(url)
    assert normalize_base_url("https://bücher.example:65535/") == "https://xn--bcher-kva.example:65535"


def test_a_url_with_a_password_is_refused_without_echoing_it() -> None:
    for url in ("http://user:SeCrEt@127.0.0.1:1", "HTTPS://admin:SeCrEt@pds.example.com/"):
        with pytest.raises(InvalidSyntax) as caught:
            XrpcClient(url)
        assert "SeCrEt" not in str(caught.value) and "carries a user name or password" in str(caught.value)
    with pytest.raises(InvalidSyntax) as caught:
        XrpcClient("ftp://user:SeCrEt@host")
    assert "SeCrEt" not in str(caught.value)


def test_a_password_is_masked_whatever_it_holds() -> None:
    for url in ("http://admin:p@ss@127.0.0.1:2583", "http://admin:pa ss@127.0.0.1:2583",
                "http://admin:pa/ss@127.0.0.1:2583"):
        assert mask_userinfo(url) == "http://***@127.0.0.1:2583"
    assert mask_userinfo("https://pds.example.com/xrpc") == "https://pds.example.com/xrpc"


def test_a_query_or_fragment_is_masked_and_a_base_url_holding_one_is_refused() -> None:
    assert mask_url("http://127.0.0.1:3000/?apiKey=SeCrEt") == "http://127.0.0.1:3000/?***"
    assert mask_url("https://u:SeCrEt@host/api#SeCrEt") == "https://***@host/api#***"
    assert mask_url("https://host/a?k=SeCrEt#f") == "https://host/a?***"
    assert mask_url("https://pds.example.com/xrpc") == "https://pds.example.com/xrpc"
    assert mask_url("localhost:3000/?apiKey=SeCrEt") == "localhost:3000/?***"  # no scheme: a key is masked too
    assert mask_url("127.0.0.1:3000?apiKey=SeCrEt") == "127.0.0.1:3000?***"
    assert mask_url("u:SeCrEt@localhost:3000") == "***@localhost:3000"
    assert mask_url("coder") == "coder"
    for url, part in (("http://127.0.0.1:3000/?apiKey=SeCrEt", "query"), ("http://127.0.0.1:3000#SeCrEt", "fragment"),
                      ("https://host/api?token=SeCrEt#x", "query")):
        with pytest.raises(InvalidSyntax, match=f"has a {part}") as caught:
            normalize_base_url(url, what="the RushDB URL")
        assert "SeCrEt" not in str(caught.value) and "RUSHDB_API_KEY" in (caught.value.hint or "")
    assert normalize_base_url("http://127.0.0.1:3000/?#") == "http://127.0.0.1:3000"  # nothing after them
    with pytest.raises(InvalidSyntax) as caught:  # the engine's URL, as the command line names it
        normalize_base_url("http://127.0.0.1:9/?token=SeCrEt", what="RUSHDB_ENGINE_URL")
    assert "RUSHDB_ENGINE_TOKEN" in (caught.value.hint or "") and "SeCrEt" not in str(caught.value)
    with pytest.raises(InvalidSyntax) as caught:
        normalize_base_url("localhost:3811/?apiKey=SeCrEt", what="the RushDB URL")
    assert "SeCrEt" not in str(caught.value)
    with pytest.raises(InvalidSyntax) as caught:
        normalize_base_url("https://u:SeCrEt@pds.example.com")
    assert "ATP_AUTH_PASSWORD" in (caught.value.hint or "")  # a PDS takes the app password


def test_rate_limit_reset_is_epoch_seconds_or_seconds_from_now() -> None:
    now = 1_800_000_000.0
    epoch = httpx.Headers({"RateLimit-Limit": "10", "RateLimit-Remaining": "3",
                           "RateLimit-Reset": "1800000300", "RateLimit-Policy": "10;w=300"})
    assert parse_rate_limit(epoch, now) == RateLimit(10, 3, 1_800_000_300.0, "10;w=300")
    delta = httpx.Headers({"RateLimit-Reset": "60"})
    assert parse_rate_limit(delta, now) == RateLimit(None, None, now + 60, None)
    assert parse_rate_limit(httpx.Headers({"RateLimit-Reset": "soon"}), now) is None
    assert parse_rate_limit(httpx.Headers({}), now) is None


# --- injected faults ---------------------------------------------------------------------------


def test_a_429_storm_without_headers_leaves_the_back_off_to_the_caller() -> None:
    """Injected: a 429 storm with no RateLimit or Retry-After header, which no real PDS sends."""
    seen = []

    def storm(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return httpx.Response(429)

    with XrpcClient("http://pds.invalid", transport=httpx.MockTransport(storm)) as client:
        for _ in range(5):
            with pytest.raises(XrpcRateLimited) as caught:
                client.query("com.atproto.repo.listRecords", {"repo": "did:plc:x"})
            assert caught.value.reset_at is None
            assert caught.value.error == "RateLimitExceeded"
            assert client.last_rate_limit is None
    assert len(seen) == 5  # no hidden retries


def test_retry_after_is_used_when_ratelimit_reset_is_missing() -> None:
    """Injected: a 429 carrying only Retry-After, as a proxy in front of a PDS may send."""
    transport = httpx.MockTransport(lambda r: httpx.Response(429, headers={"Retry-After": "30"}))
    with XrpcClient("http://pds.invalid", transport=transport) as client:
        with pytest.raises(RateLimited) as caught:
            client.query("com.atproto.server.describeServer")
    assert caught.value.reset_at is not None
    assert 25 < caught.value.reset_at - time.time() <= 30


def test_server_errors_are_transient_and_named() -> None:
    """Injected: 5xx answers (a real PDS fails this way only when broken)."""
    answers = iter([
        httpx.Response(503),
        httpx.Response(502, json={"error": "UpstreamFailure", "message": "appview down"}),
        httpx.Response(501, json={"error": "MethodNotImplemented", "message": "no such method"}),
    ])
    transport = httpx.MockTransport(lambda r: next(answers))
    with XrpcClient("http://pds.invalid", transport=transport) as client:
        errors = []
        for _ in range(3):
            with pytest.raises(XrpcError) as caught:
                client.query("com.atproto.server.describeServer")
            errors.append(caught.value)
    assert [type(e) for e in errors] == [XrpcServerError, XrpcServerError, XrpcError]
    assert [(e.status, e.error, e.retryable) for e in errors] == [
        (503, "NotEnoughResources", True), (502, "UpstreamFailure", True),
        (501, "MethodNotImplemented", False),
    ]
    assert isinstance(errors[0], TransientError)
    assert str(errors[1]).endswith("502 UpstreamFailure: appview down")


class LoseTheAnswer(httpx.BaseTransport):
    """Passes the request to the real PDS, then drops its answer as a broken connection would."""

    def __init__(self) -> None:
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.real.handle_request(request)
        response.read()
        response.close()
        raise httpx.RemoteProtocolError("Server disconnected without sending a response.")


@pytest.mark.pds
def test_a_lost_answer_to_a_write_says_the_write_may_have_happened(
    pds: LocalPds, account: Account
) -> None:
    """Injected: the answer is lost after the real PDS applied the write."""
    rkey = "3lostanswer22"
    body = {"repo": account.did, "collection": COLLECTION, "rkey": rkey, "record": memory("x")}
    with authed(pds, account, transport=LoseTheAnswer()) as client:
        with pytest.raises(TransientError) as caught:
            client.procedure("com.atproto.repo.createRecord", body)
    assert str(caught.value) == (
        f"lost the answer of the PDS at {pds.url} to com.atproto.repo.createRecord: Server "
        "disconnected without sending a response.; the write may or may not have been applied"
    )
    with XrpcClient(pds.url) as client:  # it was applied
        params = {"repo": account.did, "collection": COLLECTION, "rkey": rkey}
        assert client.query("com.atproto.repo.getRecord", params)["value"]["content"] == "x"


class ResetMidBody(httpx.BaseTransport):
    """Passes the request to the real PDS and cuts the body after its first bytes."""

    def __init__(self, keep: int) -> None:
        self.real = httpx.HTTPTransport()
        self.keep = keep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.real.handle_request(request)
        data = response.read()[: self.keep]
        response.close()

        def cut() -> Iterator[bytes]:
            yield data
            raise httpx.ReadError("[Errno 104] Connection reset by peer")

        headers = {"Content-Type": response.headers["Content-Type"]}
        return httpx.Response(response.status_code, headers=headers, stream=_Stream(cut()))


class _Stream(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks


@pytest.mark.pds
def test_a_connection_reset_mid_stream_is_transient(pds: LocalPds, account: Account) -> None:
    """Injected: the connection breaks after 20 bytes of a real getRepo body."""
    with XrpcClient(pds.url, transport=ResetMidBody(20)) as client:
        with client.stream("com.atproto.sync.getRepo", {"did": account.did}) as chunks:
            assert next(chunks) != b""
            with pytest.raises(TransientError) as caught:
                list(chunks)
    assert str(caught.value) == (
        f"lost the connection to the PDS at {pds.url} while reading com.atproto.sync.getRepo: "
        "[Errno 104] Connection reset by peer"
    )
