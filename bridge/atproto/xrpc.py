"""A small synchronous XRPC client over ``httpx``: queries, procedures and streamed downloads.

Scope: building ``/xrpc/<nsid>`` requests, an ``auth`` hook for the ``Authorization`` header,
and turning every failure into one of pdsmem's errors. No retries, no sessions (see
``session.py``), no lexicon validation.

Errors:
- an XRPC error answer (4xx) is an :class:`XrpcError` with ``status``, ``error`` (the XRPC error
  name, such as ``InvalidSwap`` or ``RecordNotFound``) and ``message``;
- a 5xx answer other than 501 is an :class:`XrpcServerError`, also a ``TransientError`` (retryable);
- HTTP 429 is an :class:`XrpcRateLimited`, also a ``RateLimited``, with ``reset_at``;
- a refused connection, a timeout or a connection lost mid-answer is a ``TransientError``
  whose message names the host.

Tricky bits:
- ``RateLimit-Reset`` is Unix epoch seconds on the reference PDS; the IETF draft uses seconds
  from now. A value below one billion is read as seconds from now. Without it, ``Retry-After``
  (seconds) is used; with neither, ``reset_at`` is None and the caller picks its own back-off.
- A lost answer to a procedure does not say whether the write happened; the message says so.
  Retrying is safe only for idempotent writes (deterministic record keys with swap checks).
- ``stream`` never reads the whole body: the CAR of ``com.atproto.sync.getRepo`` can be large.
"""

from __future__ import annotations

import errno
import functools
import json
import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from pdsmem.errors import InvalidSyntax, PdsmemError, RateLimited, TransientError, UsageError
from pdsmem.mapping.syntax import Nsid
from pdsmem.mapping.syntax_base import mask_url, mask_userinfo  # noqa: F401 (named here too: URLs' masking)

__all__ = [
    "AuthHook", "DEFAULT_TIMEOUT", "RateLimit", "RequestSigner", "XrpcClient", "XrpcError", "XrpcRateLimited", "tls_context",
    "XrpcServerError", "describe_transport_error", "normalize_base_url", "parse_rate_limit",
]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)
MAX_JSON_ANSWER = 64 * 1024 * 1024  # a JSON answer larger than this is refused, not read
ANSWER_DEADLINE = 120.0  # seconds for a whole JSON answer, however slowly its bytes come


class AnswerTooLarge(TransientError):
    """An answer was cut off at its size limit or its deadline (it may be an attack)."""


def read_limited(response: httpx.Response, limit: int, what: str, deadline: float | None = None) -> bytes:
    """The body of a streamed ``response``, refused past ``limit`` bytes or ``deadline`` seconds
    (default ``ANSWER_DEADLINE``): a hostile server cannot fill memory or hold the run with an
    endless or trickling body."""
    deadline = ANSWER_DEADLINE if deadline is None else deadline
    chunks, size, stop = [], 0, time.monotonic() + deadline
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limit:
            raise AnswerTooLarge(f"{what} sent more than {limit:,} bytes; stopped reading")
        if time.monotonic() > stop:
            raise AnswerTooLarge(f"{what} took more than {deadline:.0f} s to answer; stopped reading")
        chunks.append(chunk)
    return b"".join(chunks)


def json_object(data: bytes) -> dict[str, Any] | None:
    """``data`` as a JSON object, or None when it is not one (nesting too deep included)."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None

AuthHook = Callable[[], "str | None"]
"""Returns the ``Authorization`` header value for the next request, or None for none."""


class RequestSigner(Protocol):
    """Authenticates each request on its own, for schemes that bind a proof to the method and
    URL (atproto OAuth's DPoP: ``bridge.signin.oauth.OAuthSession``)."""

    def sign(self, request: httpx.Request) -> None:
        """Set the request's ``Authorization`` header and any proof header."""

    def wants_retry(self, response: httpx.Response) -> bool:
        """Note what ``response`` tells the signer (a new DPoP nonce); True when the request
        should be signed again and sent once more (the server asked for that nonce)."""

# Error names the XRPC spec gives to statuses whose answer has no ``error`` field.
_STATUS_NAMES = {
    400: "InvalidRequest", 401: "AuthenticationRequired", 403: "Forbidden",
    404: "XRPCNotSupported", 406: "NotAcceptable", 413: "PayloadTooLarge",
    415: "UnsupportedMediaType", 429: "RateLimitExceeded", 500: "InternalServerError",
    501: "MethodNotImplemented", 502: "UpstreamFailure", 503: "NotEnoughResources",
    504: "UpstreamTimeout",
}
_EPOCH_THRESHOLD = 1_000_000_000  # below this, a reset value counts seconds from now


class XrpcError(PdsmemError):
    """The server answered an XRPC call with an error (status, XRPC error name, message)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        error: str | None = None,
        nsid: str | None = None,
        host: str | None = None,
        server_message: str | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(message, **kw)
        self.status = status
        self.error = error
        self.nsid = nsid
        self.host = host
        self.server_message = server_message


class XrpcServerError(TransientError, XrpcError):
    """The server failed (HTTP 5xx); the same call may succeed later."""


class XrpcRateLimited(RateLimited, XrpcError):
    """The server refused the call for now (HTTP 429); ``reset_at`` says until when, if known."""


@dataclass(frozen=True)
class RateLimit:
    """The ``RateLimit-*`` headers of one answer; ``reset`` is Unix epoch seconds."""

    limit: int | None
    remaining: int | None
    reset: float | None
    policy: str | None


def _int_header(headers: httpx.Headers, name: str) -> int | None:
    value = headers.get(name)
    if value is None:
        return None
    try:
        return int(value.strip())
    except ValueError:
        return None


def _reset_epoch(value: int | None, now: float) -> float | None:
    if value is None or value < 0:
        return None
    return float(value) if value >= _EPOCH_THRESHOLD else now + value


def parse_rate_limit(headers: httpx.Headers, now: float | None = None) -> RateLimit | None:
    """The rate-limit headers of an answer, or None when it has none of them."""
    now = time.time() if now is None else now
    limit = _int_header(headers, "ratelimit-limit")
    remaining = _int_header(headers, "ratelimit-remaining")
    reset = _reset_epoch(_int_header(headers, "ratelimit-reset"), now)
    policy = headers.get("ratelimit-policy")
    if limit is None and remaining is None and reset is None and policy is None:
        return None
    return RateLimit(limit=limit, remaining=remaining, reset=reset, policy=policy)


def describe_transport_error(exc: BaseException) -> str:
    """A short human reason for a network failure: 'connection refused', 'timed out', …"""
    if isinstance(exc, httpx.TimeoutException):
        phase = {
            httpx.ConnectTimeout: "connecting", httpx.ReadTimeout: "waiting for the answer",
            httpx.WriteTimeout: "sending the request",
            httpx.PoolTimeout: "waiting for a connection",
        }.get(type(exc), "")
        return f"timed out {phase}".strip()
    cause: BaseException | None = exc
    system = None  # the system's words for the first system error below, without its number
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, ConnectionResetError):
            return "connection reset by the server"
        if isinstance(cause, socket.gaierror):
            return "host name not found"
        if isinstance(cause, OSError) and cause.errno == errno.ECONNREFUSED:
            return "connection refused"
        if isinstance(cause, OSError) and cause.strerror and system is None:
            system = cause.strerror[:1].lower() + cause.strerror[1:]
        cause = cause.__cause__ or cause.__context__
    if system:
        return system
    text = str(exc).strip()
    if "refused" in text.lower():
        return "connection refused"
    return text or type(exc).__name__


# Where the secret a server takes comes from, for a URL that carries one (a user and password, a
# query): the RushDB API key, else the account's app password.
_SECRET_FROM = {"rushdb engine": "the engine's token comes from RUSHDB_ENGINE_TOKEN",
                "rushdb": "the API key comes from RUSHDB_API_KEY or --rushdb-api-key",
                "plc": "a PLC directory is read without a key or password",
                "relay": "a relay's stream is read without a key or password"}
_APP_PASSWORD_FROM = "the app password comes from ATP_AUTH_PASSWORD or pdsmem login"


def closed_error(base_url: str) -> UsageError:
    """What a request on a closed client (or a session closed by ``close()``) is."""
    return UsageError(f"the connection to {base_url} was closed (session.close(), or the end of its with block)",
                      hint="sign in again for more work: session = pdsmem.sign_in(account)")


def normalize_base_url(base_url: str, *, what: str = "the PDS URL") -> str:
    """``base_url`` as ``scheme://host[:port][/path]``, no trailing slash; else InvalidSyntax.
    A URL carrying a user or password, a query or a fragment is refused (a server's base URL
    has none, and a key pasted there would be sent and shown), and never echoed with them."""
    shown = mask_url(str(base_url))
    named = what.lower().replace("_", " ")  # "the RushDB engine URL", "RUSHDB_ENGINE_URL"
    secret_from = next((hint for server, hint in _SECRET_FROM.items() if server in named), _APP_PASSWORD_FROM)
    try:
        url = httpx.URL(base_url.strip())
    except (httpx.InvalidURL, TypeError) as exc:
        port = _written_port(base_url.strip()) if isinstance(base_url, str) else None
        if port is not None and not (port.isascii() and port.isdigit()):  # httpx: "Invalid port: 'x'"
            raise InvalidSyntax(
                f"{what} {shown!r} has port {port!r}; a port is a number from 1 to 65535",
                hint="write it in digits, as in https://host:8443, or leave it out for the scheme's default",
            ) from None
        raise InvalidSyntax(f"{what} {shown!r} is not a URL: {mask_userinfo(str(exc))}") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise InvalidSyntax(f"{what} must look like https://host[:port], got {shown!r}")
    if url.userinfo:
        raise InvalidSyntax(
            f"{what} {shown!r} carries a user name or password; pdsmem sends none in URLs",
            hint=f"drop it from the URL: {secret_from}",
        )
    if url.query or url.fragment:
        raise InvalidSyntax(
            f"{what} {shown!r} has a {'query' if url.query else 'fragment'}; a server's base URL "
            "is scheme://host[:port][/path], with nothing after a ? or a #",
            hint=f"drop it from the URL: {secret_from}",
        )
    try:
        url.raw_host.decode("ascii").encode("idna")  # as connecting does: it fails on such a name
    except UnicodeError:
        raise InvalidSyntax(f"{what} {shown!r} has a host name with an empty part (two dots in a row) or a part "
                            "longer than 63 characters") from None
    if url.port is not None and not 0 < url.port < 65536:
        raise InvalidSyntax(f"{what} {shown!r} has port {url.port}; a port is 1 to 65535")
    return str(url.copy_with(query=None, fragment=None)).rstrip("/")


def _written_port(url: str) -> str | None:
    """The port as ``url`` writes it (what follows the host and its ``:``), or None without one."""
    authority = url.partition("://")[2]
    for end in "/?#":
        authority = authority.partition(end)[0]
    authority = authority.rpartition("@")[2]
    if authority.startswith("["):  # an IPv6 address: [::1]:8443
        authority = authority.partition("]")[2]
    _, colon, port = authority.partition(":")
    return port if colon else None


@functools.lru_cache(maxsize=1)
def tls_context() -> ssl.SSLContext:
    """The TLS settings every HTTP client of pdsmem shares (httpx's defaults, which honour
    SSL_CERT_FILE and SSL_CERT_DIR): loading the CA certificates costs about 20 ms, once, not
    once per client."""
    return httpx.create_ssl_context(trust_env=True)


class XrpcClient:
    """XRPC calls to one service (a PDS) at ``base_url``, such as ``https://pds.example.com``."""

    def __init__(
        self,
        base_url: str,
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        auth: AuthHook | None = None,
        signer: RequestSigner | None = None,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.auth = auth
        self.signer = signer
        self.last_rate_limit: RateLimit | None = None
        self._http = httpx.Client(transport=transport, timeout=timeout, verify=tls_context())

    def __repr__(self) -> str:
        return f"XrpcClient({self.base_url!r})"

    def close(self) -> None:
        self._http.close()

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called: no request can be made after it."""
        return self._http.is_closed

    def __enter__(self) -> XrpcClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- calls ----------------------------------------------------------------------------

    def query(self, nsid: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """GET ``/xrpc/<nsid>`` and return its JSON object."""
        request = self._request("GET", nsid, params=params)
        return self._json(self._send(request, nsid, write=False), nsid)

    def procedure(
        self,
        nsid: str,
        body: Mapping[str, Any] | bytes | None = None,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """POST ``/xrpc/<nsid>`` with a JSON body (or raw bytes) and return its JSON object.

        ``headers`` win over the auth hook: pass ``Authorization`` to use another token (a
        ``signer`` signs last, and sets its own).
        """
        request = self._request("POST", nsid, body=body, headers=headers)
        return self._json(self._send(request, nsid, write=True), nsid)

    @contextmanager
    def stream(
        self,
        nsid: str,
        params: Mapping[str, Any] | None = None,
        *,
        on_read: Callable[[int], None] | None = None,
    ) -> Iterator[Iterator[bytes]]:
        """GET ``/xrpc/<nsid>`` and yield an iterator over the body's byte chunks; ``on_read``
        is told the size of each chunk as it arrives (a progress display, say)."""
        request = self._request("GET", nsid, params=params)
        response = self._send(request, nsid, write=False, stream=True)
        try:
            yield self._chunks(response, nsid, on_read)
        finally:
            response.close()

    # --- internals ------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        nsid: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Mapping[str, Any] | bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Request:
        if self.closed:  # httpx would raise RuntimeError
            raise closed_error(self.base_url)
        name = Nsid.parse(nsid)
        merged: dict[str, str] = {}
        token = self.auth() if self.auth else None
        if token:
            merged["Authorization"] = token
        content: bytes | None = None
        if isinstance(body, (bytes, bytearray)):
            content = bytes(body)
            merged["Content-Type"] = "application/octet-stream"
        elif body is not None:
            content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            merged["Content-Type"] = "application/json"
        merged.update(headers or {})
        query = {k: v for k, v in (params or {}).items() if v is not None}
        return self._http.build_request(
            method, f"{self.base_url}/xrpc/{name}", params=query, content=content, headers=merged
        )

    def _send(
        self, request: httpx.Request, nsid: str, *, write: bool, stream: bool = False
    ) -> httpx.Response:
        try:
            response = self._http.send(self._signed(request), stream=True)
            if self.signer is not None and self.signer.wants_retry(response):
                response.close()
                response = self._http.send(self._signed(request), stream=True)
                self.signer.wants_retry(response)  # keep what this answer says too; no third try
        except httpx.TransportError as exc:
            raise self._unreachable(exc, nsid, write=write) from None
        self.last_rate_limit = parse_rate_limit(response.headers)
        log.debug("%s %s -> %s", request.method, nsid, response.status_code)
        if stream and response.status_code < 400:
            return response  # a CAR: its reader sets its own limits
        try:
            body = read_limited(response, MAX_JSON_ANSWER, f"the PDS at {self.base_url} ({nsid})")
        except httpx.TransportError as exc:
            raise self._unreachable(exc, nsid, write=write) from None
        finally:
            response.close()
        kept = [(k, v) for k, v in response.headers.multi_items() if k not in ("content-encoding", "content-length")]
        response = httpx.Response(response.status_code, headers=kept, content=body, request=request)
        if response.status_code >= 400:
            raise self._error(response, nsid)
        return response

    def _signed(self, request: httpx.Request) -> httpx.Request:
        if self.signer is not None:
            self.signer.sign(request)
        return request

    def _json(self, response: httpx.Response, nsid: str) -> dict[str, Any]:
        if not response.content:
            return {}
        data = json_object(response.content)
        if data is None:
            kind = response.headers.get("content-type", "no content type")
            raise XrpcError(
                f"{nsid} at {self.base_url} answered {response.status_code} with a body that is "
                f"not a JSON object ({kind})",
                status=response.status_code, nsid=nsid, host=self.base_url,
            )
        return data

    def _chunks(
        self, response: httpx.Response, nsid: str, on_read: Callable[[int], None] | None
    ) -> Iterator[bytes]:
        try:
            for chunk in response.iter_bytes():
                if on_read is not None:
                    on_read(len(chunk))
                yield chunk
        except httpx.TransportError as exc:
            reason = describe_transport_error(exc)
            raise TransientError(
                f"lost the connection to the PDS at {self.base_url} while reading {nsid}: {reason}"
            ) from None

    def _unreachable(self, exc: httpx.TransportError, nsid: str, *, write: bool) -> TransientError:
        reason = describe_transport_error(exc)
        sent = not isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout))
        if not sent:
            return TransientError(f"cannot reach the PDS at {self.base_url}: {reason}")
        message = f"lost the answer of the PDS at {self.base_url} to {nsid}: {reason}"
        if write:
            message += "; the write may or may not have been applied"
        return TransientError(message)

    def _error(self, response: httpx.Response, nsid: str) -> XrpcError:
        status = response.status_code
        name: str | None = None
        server_message: str | None = None
        body = json_object(response.content)
        if body is not None:
            name = body.get("error") if isinstance(body.get("error"), str) else None
            msg = body.get("message")
            server_message = msg if isinstance(msg, str) else None
        name = name or _STATUS_NAMES.get(status, f"HTTP{status}")
        text = f"{nsid} failed at {self.base_url}: {status} {name}"
        if server_message:
            text += f": {server_message}"
        common: dict[str, Any] = dict(
            status=status, error=name, nsid=nsid, host=self.base_url, server_message=server_message
        )
        if status == 429:
            reset = self.last_rate_limit.reset if self.last_rate_limit else None
            if reset is None:
                reset = _reset_epoch(_int_header(response.headers, "retry-after"), time.time())
            return XrpcRateLimited(text, reset_at=reset, **common)
        if status >= 500 and status != 501:  # 501: the method does not exist; retrying won't help
            return XrpcServerError(text, **common)
        return XrpcError(text, **common)
