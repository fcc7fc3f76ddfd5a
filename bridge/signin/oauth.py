"""Sign in with atproto OAuth as a native (loopback) client, and make DPoP-bound calls.

Scope: finding the account's authorization server, the sign-in (pushed authorization request
with PKCE and DPoP, the browser, the redirect to a loopback port, the code exchange), the calls
made with the grant (``OAuthSession``: same interface as ``bridge.signin.session.Session``), refreshing
and rotating its tokens, and revoking it. ``docs/oauth.md`` says what is asked for and why.

What comes from libraries and what is written here:
- JOSE (the DPoP key as a JWK, ES256 proofs as signed JWTs): ``joserfc``;
- PKCE (the S256 challenge) and random tokens (state, verifier): ``authlib``;
- written here, because they are atproto's and no maintained Python library has them: the
  discovery from the account's PDS to its authorization server, the loopback ``client_id``
  (``http://localhost?redirect_uri=…&scope=…``), the checks atproto requires of the answers
  (``iss`` in the redirect, ``sub`` is the account that was asked for, ``atproto`` in the granted
  scope), DPoP nonce handling for both servers, and the loopback redirect listener.

Tricky bits:
- DPoP nonces: each server hands out its own (``DPoP-Nonce``) and changes it over time; a proof
  with none or an old one is refused with ``use_dpop_nonce`` (400 from the authorization
  server, 401 ``WWW-Authenticate: DPoP error="use_dpop_nonce"`` from the PDS). The latest nonce
  of each origin is kept and a refused request is signed again and sent once more.
- The proof's ``htu`` is the URL the server calls itself: the PDS URL of the DID document and
  the endpoints of the server's metadata are used as they are, never a URL the user typed.
- Refresh tokens are single use. The new pair is saved before anything else; before refreshing,
  the session file is read again, since another pdsmem process may have refreshed already.
- Tokens and keys never reach a log line, an exception message or a ``repr``.
"""

from __future__ import annotations

import hashlib
import html
import http.server
import logging
import math
import queue
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
from authlib.common.security import generate_token
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from joserfc import jwt
from joserfc.jwk import ECKey
from joserfc.util import urlsafe_b64encode

from pdsmem.errors import PdsmemError, TransientError
from pdsmem.lexicons import RECORD_NSID

from .authed import AuthedCalls
from .session_store import SessionError, SessionStore, StoredGrant
from ..atproto.xrpc import (
    DEFAULT_TIMEOUT,
    XrpcClient,
    XrpcError,
    describe_transport_error,
    json_object,
    normalize_base_url,
    read_limited,
    tls_context,
)

__all__ = [
    "DEFAULT_SCOPE", "AuthServer", "OAuthError", "OAuthSession", "discover", "sign_in",
]

log = logging.getLogger(__name__)

LEXICON_SCHEMA_NSID = "com.atproto.lexicon.schema"
DEFAULT_SCOPE = f"atproto repo:{RECORD_NSID} repo:{LEXICON_SCHEMA_NSID}"
"""What ``pdsmem login`` asks for: the two collections pdsmem writes (memory records, and the
lexicon it publishes), nothing else. Reading public records needs no grant."""

_MAX_ANSWER = 1 << 20
_REFRESH_MARGIN = 60.0  # refresh this many seconds before the access token expires
_RENEW_ON = frozenset({"ExpiredToken", "InvalidToken", "invalid_token"})
_T = TypeVar("_T")


class OAuthError(PdsmemError):
    """The sign-in failed or was refused; nothing was stored. ``error`` is the server's error
    code (RFC 6749), when it gave one."""

    def __init__(self, message: str, *, error: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.error = error


# --- discovery ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AuthServer:
    """The parts of an authorization server's metadata (RFC 8414) that pdsmem uses."""

    issuer: str
    par_endpoint: str
    authorization_endpoint: str
    token_endpoint: str
    revocation_endpoint: str | None


def _get_json(http: httpx.Client, url: str, what: str) -> dict[str, Any]:
    try:
        with http.stream("GET", url) as response:
            body = read_limited(response, _MAX_ANSWER, what)
    except httpx.TransportError as exc:
        raise TransientError(f"cannot read {what} ({url}): {describe_transport_error(exc)}") from None
    data = json_object(body)
    if response.status_code == 404:
        raise OAuthError(f"{what} does not exist ({url}: 404)")
    if response.status_code >= 400 or data is None:
        raise OAuthError(f"{what} is not readable: {url} answered {response.status_code}")
    return data


_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def _server_url(value: Any, what: str, where: str) -> str:
    """``value`` if it is an absolute URL an authorization server may use: https, or http on
    this machine (a local development server, as atproto allows); else ``OAuthError``."""
    if not isinstance(value, str):
        raise OAuthError(f"{where} names no {what}")
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").lower()
    except ValueError:
        parts, host = None, ""
    if parts is None or not host or parts.scheme not in ("https", "http") or parts.fragment:
        raise OAuthError(f"{where} names a {what} that is not an absolute URL: {value!r:.100}")
    if parts.scheme == "http" and host not in _LOOPBACK_HOSTS:
        raise OAuthError(f"{where} names a {what} without https: {value:.100}")
    return value


def _names(meta: Mapping[str, Any], field: str) -> list[Any]:
    value = meta.get(field)
    return value if isinstance(value, list) else []


def discover(pds_url: str, *, transport: httpx.BaseTransport | None = None) -> AuthServer:
    """The authorization server of the PDS at ``pds_url``, from the PDS's protected-resource
    metadata and then the server's own metadata; checked for what atproto OAuth requires."""
    pds_url = normalize_base_url(pds_url)
    where = f"the OAuth metadata of the PDS at {pds_url}"
    with httpx.Client(transport=transport, timeout=DEFAULT_TIMEOUT, verify=tls_context()) as http:
        try:
            resource = _get_json(http, f"{pds_url}/.well-known/oauth-protected-resource", where)
        except OAuthError as exc:
            raise OAuthError(
                f"the PDS at {pds_url} does not offer OAuth sign-in: {exc.message}",
                hint="sign in with an app password instead: pdsmem login --app-password",
            ) from None
        named = resource.get("resource")
        if isinstance(named, str) and named.rstrip("/") != pds_url:
            raise OAuthError(f"{where} is for another server: {named:.100}")
        servers = _names(resource, "authorization_servers")
        issuer = _server_url(servers[0] if servers else None, "authorization server", where)
        where = f"the metadata of the authorization server {issuer}"
        meta = _get_json(http, f"{issuer.rstrip('/')}/.well-known/oauth-authorization-server", where)
    if meta.get("issuer") != issuer:
        raise OAuthError(f"the authorization server at {issuer} calls itself {meta.get('issuer')!r:.100}")
    for field, wanted in (("code_challenge_methods_supported", "S256"),
                          ("dpop_signing_alg_values_supported", "ES256")):
        if wanted not in _names(meta, field):
            raise OAuthError(f"the authorization server at {issuer} does not support {wanted} ({field})")
    revocation = meta.get("revocation_endpoint")
    return AuthServer(
        issuer,
        _server_url(meta.get("pushed_authorization_request_endpoint"), "PAR endpoint", where),
        _server_url(meta.get("authorization_endpoint"), "authorization endpoint", where),
        _server_url(meta.get("token_endpoint"), "token endpoint", where),
        None if revocation is None else _server_url(revocation, "revocation endpoint", where),
    )


# --- DPoP ---------------------------------------------------------------------------------


def _origin(url: httpx.URL | str) -> str:
    parts = urlsplit(str(url))
    return f"{parts.scheme}://{parts.netloc}".lower()


class Dpop:
    """A DPoP key (ES256) and the latest nonce of each server it talks to (RFC 9449)."""

    def __init__(self, jwk: Mapping[str, Any] | None = None) -> None:
        self._key = ECKey.generate_key("P-256") if jwk is None else ECKey.import_key(dict(jwk))
        public = self._key.as_dict(private=False)
        self._header = {"typ": "dpop+jwt", "alg": "ES256",
                        "jwk": {name: public[name] for name in ("kty", "crv", "x", "y")}}
        self.nonces: dict[str, str] = {}

    def __repr__(self) -> str:
        return "Dpop(<key>)"

    @property
    def private_jwk(self) -> dict[str, Any]:
        return dict(self._key.as_dict(private=True))

    def proof(self, method: str, url: httpx.URL | str, access_token: str | None = None) -> str:
        """The ``DPoP`` header for a request: ``htu`` is the URL without query or fragment."""
        parts = urlsplit(str(url))
        claims: dict[str, Any] = {
            "jti": uuid.uuid4().hex, "htm": method, "htu": f"{parts.scheme}://{parts.netloc}{parts.path}",
            "iat": int(time.time()),
        }
        nonce = self.nonces.get(_origin(url))
        if nonce:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = urlsafe_b64encode(hashlib.sha256(access_token.encode()).digest()).decode()
        return jwt.encode(self._header, claims, self._key)

    def note(self, response: httpx.Response) -> None:
        """Keep the nonce a server sent with ``response``, if any."""
        nonce = response.headers.get("dpop-nonce")
        if nonce:
            self.nonces[_origin(response.request.url)] = nonce


def _asks_for_nonce(response: httpx.Response, body: Mapping[str, Any] | None = None) -> bool:
    """True when a server refused a proof for its nonce (the AS in its body, the PDS in the
    ``WWW-Authenticate`` header)."""
    if response.status_code not in (400, 401):
        return False
    if "use_dpop_nonce" in response.headers.get("www-authenticate", ""):
        return True
    return body is not None and body.get("error") == "use_dpop_nonce"


def _post_form(http: httpx.Client, dpop: Dpop, url: str, form: Mapping[str, str], what: str) -> dict[str, Any]:
    """POST ``form`` to an endpoint of the authorization server with a DPoP proof; sent again
    once when the server asks for a (new) nonce. Raises ``OAuthError`` with the server's error."""

    def send() -> tuple[httpx.Response, dict[str, Any] | None]:
        try:
            response = http.post(url, data=dict(form), headers={"DPoP": dpop.proof("POST", url)})
        except httpx.TransportError as exc:
            raise TransientError(
                f"cannot reach the authorization server for {what} ({url}): {describe_transport_error(exc)}"
            ) from None
        dpop.note(response)
        return response, json_object(response.content)

    response, body = send()
    if _asks_for_nonce(response, body):
        response, body = send()
    if response.status_code >= 500:
        raise TransientError(f"the authorization server failed {what}: {url} answered {response.status_code}")
    if response.status_code >= 400 or body is None:
        error = body.get("error") if body else None
        description = body.get("error_description") if body else None
        raise OAuthError(
            f"the authorization server refused {what}: {error or response.status_code}"
            + (f": {description}" if isinstance(description, str) else ""),
            error=error if isinstance(error, str) else None,
        )
    return body


# --- the sign-in --------------------------------------------------------------------------


def loopback_client_id(redirect_uri: str, scope: str) -> str:
    """atproto's client id for a native app without a metadata document: ``http://localhost``
    with its redirect URI and scope as query parameters."""
    return "http://localhost?" + urlencode({"redirect_uri": redirect_uri, "scope": scope})


class _Redirect:
    """The loopback listener the authorization server's redirect comes back to.

    Only a request carrying this sign-in's ``state`` is taken as the answer. Anything else (a
    stray request, another sign-in's redirect, a forged one) is answered 400, told to
    ``on_ignored``, and the wait goes on: a local process cannot end a sign-in by calling the
    port first. Each request is served in its own thread, so an idle connection holds nothing
    up. The answer's browser tab shows how the sign-in ended once pdsmem knows (``finish``).
    """

    PATH = "/callback"

    def __init__(self, state: str, on_ignored: Callable[[str], None]) -> None:
        answers: queue.Queue[dict[str, str]] = queue.Queue()
        outcome: queue.Queue[str] = queue.Queue()
        taken, shown = threading.Event(), threading.Event()

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = 30  # seconds an idle connection may hold its own thread

            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                parts = urlsplit(self.path)
                if parts.path != _Redirect.PATH:
                    self.send_error(404)
                    return
                params = dict(parse_qsl(parts.query))
                if params.get("state") != state:
                    on_ignored("ignored a request to the sign-in's loopback address without this "
                               "sign-in's state (another sign-in's redirect, or a forged one); still waiting")
                    self._page(400, "This is not the answer pdsmem is waiting for (its state does "
                                    "not match this sign-in's); pdsmem ignored it.")
                    return
                if taken.is_set():
                    self._page(409, "pdsmem already has this sign-in's answer; see the terminal.")
                    return
                taken.set()
                answers.put(params)
                try:
                    text = outcome.get(timeout=60)
                except queue.Empty:
                    text = "pdsmem has not said how the sign-in ended; see the terminal."
                try:
                    self._page(200, text)
                finally:
                    shown.set()

            def _page(self, status: int, text: str) -> None:
                body = f"<!doctype html><title>pdsmem</title><p>{html.escape(text)}</p>".encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:  # the query holds the code: never log it
                pass

        self._answers, self._outcome, self._shown = answers, outcome, shown
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.uri = f"http://127.0.0.1:{self._server.server_address[1]}{self.PATH}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def wait(self, timeout: float) -> dict[str, str]:
        """The query parameters of this sign-in's redirect, waiting up to ``timeout`` seconds."""
        try:
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            raise OAuthError(
                f"no sign-in came back within {timeout:.0f} seconds; nothing was stored",
                hint="run pdsmem login again and finish the sign-in in the browser",
            ) from None

    def finish(self, text: str) -> None:
        """Show ``text`` in the browser tab of the answer (waiting a little for the page to go
        out: the process may end right after)."""
        self._outcome.put(text)
        self._shown.wait(timeout=5)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def sign_in(
    *,
    did: str,
    handle: str,
    pds_url: str,
    open_url: Callable[[str], None],
    on_ignored: Callable[[str], None] = lambda _: None,
    scope: str = DEFAULT_SCOPE,
    timeout: float = 300.0,
    transport: httpx.BaseTransport | None = None,
) -> StoredGrant:
    """Sign ``did`` (whose DID document names ``pds_url``) in through its authorization server.

    ``open_url`` is handed the authorization page's URL (to open a browser, or print it); the
    redirect is then awaited on a loopback port for up to ``timeout`` seconds, and requests that
    are not its answer are told to ``on_ignored``. Returns the grant, not yet stored.
    """
    server = discover(pds_url, transport=transport)
    dpop = Dpop()
    verifier, state = generate_token(64), generate_token(32)
    with ExitStack() as stack:
        http = stack.enter_context(
            httpx.Client(transport=transport, timeout=DEFAULT_TIMEOUT, verify=tls_context())
        )
        redirect = _Redirect(state, on_ignored)
        stack.callback(redirect.close)
        client_id = loopback_client_id(redirect.uri, scope)
        pushed = _post_form(http, dpop, server.par_endpoint, {
            "client_id": client_id, "response_type": "code", "redirect_uri": redirect.uri,
            "scope": scope, "state": state, "login_hint": handle,
            "code_challenge": create_s256_code_challenge(verifier), "code_challenge_method": "S256",
        }, "the sign-in request")
        request_uri = pushed.get("request_uri")
        if not isinstance(request_uri, str):
            raise OAuthError(f"the authorization server at {server.issuer} answered no request_uri")
        open_url(f"{server.authorization_endpoint}?"
                 + urlencode({"client_id": client_id, "request_uri": request_uri}))
        answer = redirect.wait(timeout)
        try:
            _check_redirect(answer, state, server.issuer)
            token = _post_form(http, dpop, server.token_endpoint, {
                "grant_type": "authorization_code", "code": answer["code"], "redirect_uri": redirect.uri,
                "client_id": client_id, "code_verifier": verifier,
            }, "the sign-in's code")
            access, refresh, expires_at, granted = _check_token(token, did, server.issuer)
        except PdsmemError as exc:
            redirect.finish(f"pdsmem refused the sign-in: {exc.message}")
            raise
        redirect.finish(f"Signed in to pdsmem as {handle}. You can close this tab.")
    log.info("signed in to %s as %s with OAuth (%s)", pds_url, did, granted)
    return StoredGrant(
        normalize_base_url(pds_url), did, handle, server.issuer, client_id, server.token_endpoint,
        server.revocation_endpoint, granted, expires_at, access, refresh, dpop.private_jwk,
    )


def _check_redirect(answer: Mapping[str, str], state: str, issuer: str) -> None:
    """Refuse a redirect that is not the answer to this sign-in, or that carries an error."""
    if answer.get("state") != state:  # the listener takes only this state's: kept as a guard
        raise OAuthError("refused the sign-in: the redirect's state is not this sign-in's; nothing was stored",
                         hint="run pdsmem login again")
    if answer.get("iss") != issuer:
        raise OAuthError(
            f"refused the sign-in: the redirect names the issuer {answer.get('iss')!r:.100}, not "
            f"{issuer}, the account's authorization server; nothing was stored",
            hint="run pdsmem login again",
        )
    if "error" in answer or not answer.get("code"):
        reason = answer.get("error_description") or answer.get("error") or "no code"
        raise OAuthError(f"the sign-in was not completed: {reason:.200}; nothing was stored",
                         hint="run pdsmem login again to retry")


def _check_token(token: Mapping[str, Any], did: str, issuer: str) -> tuple[str, str, float, str]:
    """The access token, refresh token, expiry and granted scope of a token answer, after the
    checks atproto requires: a DPoP token for the account that was asked for, scope ``atproto``."""
    access, refresh, scope = token.get("access_token"), token.get("refresh_token"), token.get("scope")
    if not (isinstance(access, str) and isinstance(refresh, str) and isinstance(scope, str)):
        raise OAuthError(f"the token answer of {issuer} lacks an access token, refresh token or scope")
    if str(token.get("token_type", "")).lower() != "dpop":
        raise OAuthError(f"{issuer} answered a {token.get('token_type')!r} token, not a DPoP-bound one")
    if token.get("sub") != did:
        raise OAuthError(
            f"{issuer} signed in {token.get('sub')!r}, not {did}, the account asked for; nothing was stored",
            hint="sign in with the account you named",
        )
    if "atproto" not in scope.split():
        raise OAuthError(f"{issuer} granted no atproto access (scope {scope!r})")
    return access, refresh, time.time() + _lifetime(token.get("expires_in")), scope


def _lifetime(expires_in: Any) -> float:
    """The access token's lifetime in seconds: ``expires_in`` kept between 2 minutes and 1 day
    (a missing or odd value counts as 5 minutes), so it is renewed neither never nor always."""
    if isinstance(expires_in, bool) or not isinstance(expires_in, (int, float)) or not math.isfinite(expires_in):
        return 300.0
    return min(max(float(expires_in), 120.0), 86_400.0)


# --- calls with the grant -----------------------------------------------------------------


class OAuthSession(AuthedCalls):
    """Authenticated XRPC calls with an OAuth grant: DPoP-bound, refreshed before or when the
    access token expires. Same interface as :class:`~pdsmem.bridge.signin.session.Session`."""

    def __init__(
        self,
        stored: StoredGrant,
        *,
        store: SessionStore | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
    ) -> None:
        self._stored = stored
        self._store = store
        self._dpop = Dpop(stored.dpop_key)
        self._transport, self._timeout = transport, timeout
        self.xrpc = XrpcClient(stored.pds_url, transport=transport, timeout=timeout, signer=self)

    @property
    def scope(self) -> str:
        """What the authorization server granted."""
        return self._stored.scope

    # --- RequestSigner (bridge.atproto.xrpc) ------------------------------------------------------

    def sign(self, request: httpx.Request) -> None:
        token = self._stored.access_token
        request.headers["Authorization"] = f"DPoP {token}"
        request.headers["DPoP"] = self._dpop.proof(request.method, request.url, token)

    def wants_retry(self, response: httpx.Response) -> bool:
        self._dpop.note(response)
        return _asks_for_nonce(response)

    # --- the grant ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Trade the refresh token for a new pair at the authorization server and save it at once.

        Raises ``SessionError`` when the grant was revoked or has expired. Another pdsmem process
        renewing the same grant is waited for, and its tokens taken (``_adopt_newer``).
        """
        with self._store.renewing(self.pds_url, self.did) if self._store else nullcontext():
            self._refresh()

    def _refresh(self) -> None:
        if self._adopt_newer() and self._stored.expires_at - _REFRESH_MARGIN > time.time():
            return
        old = self._stored
        try:
            with self._http() as http:
                token = _post_form(http, self._dpop, old.token_endpoint, {
                    "grant_type": "refresh_token", "refresh_token": old.refresh_token,
                    "client_id": old.client_id,
                }, "renewing the sign-in")
        except OAuthError as exc:
            if self._store is not None:  # remembered, so that status says so without asking the server
                self._stored = replace(old, refused=exc.message)
                self._store.save(self._stored)
            raise SessionError(
                f"the sign-in of {old.handle} at {old.issuer} is no longer accepted: "
                f"{exc.message}",
                did=old.did,
                hint=f"it was revoked or has expired; run pdsmem login {old.handle} to sign in again",
            ) from None
        access, refresh, expires_at, granted = _check_token(token, old.did, old.issuer)
        self._stored = replace(old, access_token=access, refresh_token=refresh,
                               expires_at=expires_at, scope=granted, refused=None)
        if self._store is not None:
            self._store.save(self._stored)
        log.info("renewed the OAuth sign-in of %s at %s", old.did, old.issuer)

    def logout(self) -> None:
        """Revoke the grant at the authorization server and remove its session file.

        The file goes in any case. Raises ``OAuthError`` when the server refused to revoke or
        offers no revocation, ``TransientError`` when it cannot be reached: the grant then stays
        valid until it expires.
        """
        try:
            endpoint = self._stored.revocation_endpoint
            if endpoint is None:
                raise OAuthError(f"the authorization server {self._stored.issuer} offers no revocation")
            with self._http() as http:  # RFC 7009: a token it no longer knows is answered 200 too
                _post_form(http, self._dpop, endpoint, {
                    "token": self._stored.refresh_token, "client_id": self._stored.client_id,
                }, "revoking the sign-in")
        finally:
            if self._store is not None:
                self._store.delete(self.pds_url, self.did)

    # --- internals ------------------------------------------------------------------------

    def _http(self) -> httpx.Client:
        return httpx.Client(transport=self._transport, timeout=self._timeout, verify=tls_context())

    def _adopt_newer(self) -> bool:
        """Take the session file's grant when it changed since this session read it: another
        process renewed it (a refresh token is single use), or a new ``pdsmem login`` replaced
        it (with a key of its own). True when that happened."""
        if self._store is None:
            return False
        current = self._store.load(self.pds_url, self.did)
        if not isinstance(current, StoredGrant) or current.refresh_token == self._stored.refresh_token:
            return False
        if current.dpop_key != self._stored.dpop_key:
            self._dpop = Dpop(current.dpop_key)
        self._stored = current
        return True

    def _renewing(self, call: Callable[[], _T]) -> _T:
        if self._stored.expires_at - _REFRESH_MARGIN < time.time():
            log.info("the OAuth access token of %s expires; renewing it", self.did)
            self.refresh()
        try:
            return call()
        except XrpcError as exc:
            if exc.status == 403 and exc.error == "ScopeMissingError":
                raise SessionError(
                    f"the PDS refused: the sign-in of {self.handle} does not allow this "
                    f"({exc.server_message or exc.error}); granted: {self.scope}",
                    did=self.did,
                    hint=f"run pdsmem login {self.handle} again to grant what pdsmem needs",
                ) from None
            if exc.status != 401 or exc.error not in _RENEW_ON:
                raise
            log.info("the PDS answered %s; renewing the OAuth sign-in of %s", exc.error, self.did)
        self.refresh()
        return call()

