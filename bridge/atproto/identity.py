"""Who an account is and where it lives: handle → DID → DID document → PDS and signing key.

Scope: resolving a handle (DNS TXT ``_atproto.<handle>``, then
``https://<handle>/.well-known/atproto-did``, then, as a fallback for handles without public
DNS, ``com.atproto.identity.resolveHandle`` at a PDS the caller names), fetching the DID
document (``did:plc`` from a PLC directory, ``did:web`` from ``/.well-known/did.json``), and
reading its ``#atproto_pds`` service and ``#atproto`` signing key. The handle and the DID must
point at each other: the DID document's first ``at://`` alias must be the handle.

The PLC directory is ``plc_url``, else ``ATP_PLC_HOST``, else https://plc.directory.

Tricky bits:
- Handles under reserved top-level domains (``.test``, ``.example``, ``.invalid``, ``.local``,
  ``.localhost``, ``.internal``, ``.arpa``, ``.onion``, ``.alt``) have no public DNS: with the
  system's DNS they are resolved only through the ``pds_hint`` PDS. DNS servers given with
  ``dns_nameservers`` (a development network's own) are asked about them too.
- Starting from a DID, the DID is authoritative: a claimed handle that does not point back makes
  ``Identity.handle`` None (atproto shows it as ``handle.invalid``) instead of failing.
- ``did:web`` with a path (``did:web:host:path``) is not allowed in atproto and is refused.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import dns.exception
import dns.resolver
import httpx

from pdsmem.errors import IdentityError, InvalidSyntax, PdsmemError, TransientError, VerificationError  # noqa: F401
from pdsmem.mapping.syntax import AtIdentifier, Did, Handle

from .repo import normalize_signing_key
from .xrpc import (
    AnswerTooLarge,
    XrpcClient,
    XrpcError,
    describe_transport_error,
    json_object,
    normalize_base_url,
    read_limited,
    tls_context,
)

__all__ = [
    "DEFAULT_PLC_URL", "ENV_PLC", "Identity", "IdentityError", "IdentityResolver",
    "did_handle", "pds_endpoint", "resolve", "signing_key",
]

log = logging.getLogger(__name__)

DEFAULT_PLC_URL = "https://plc.directory"
ENV_PLC = "ATP_PLC_HOST"

# The did:plc method's identifiers: 24 characters of base32, lowercase (the atproto DID spec).

_RESERVED_TLDS = frozenset(
    {"test", "example", "invalid", "local", "localhost", "internal", "arpa", "onion", "alt"}
)
_NO_SUCH_HANDLE = "Unable to resolve handle"  # the reference PDS's answer for a handle it does not host
_MAX_WELL_KNOWN = 2048  # bytes of /.well-known/atproto-did worth reading
_MAX_DOCUMENT = 1 << 20
_DOCUMENT_DEADLINE = 30.0  # seconds for a whole DID document or handle answer


@dataclass(frozen=True)
class Identity:
    """A resolved account: its DID, verified handle (or None), PDS URL and signing ``did:key``."""

    did: Did
    handle: str | None
    pds_url: str
    signing_key: str


def _entries(doc: dict[str, Any], field: str) -> list[dict[str, Any]]:
    value = doc.get(field)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _is_fragment(entry_id: Any, did: str, fragment: str) -> bool:
    return entry_id in (fragment, f"{did}{fragment}")


def pds_endpoint(doc: dict[str, Any]) -> str:
    """The ``#atproto_pds`` service endpoint of a DID document, as a normalized URL."""
    did = str(doc.get("id"))
    for service in _entries(doc, "service"):
        if _is_fragment(service.get("id"), did, "#atproto_pds"):
            endpoint = service.get("serviceEndpoint")
            if service.get("type") != "AtprotoPersonalDataServer" or not isinstance(endpoint, str):
                raise IdentityError(
                    "the #atproto_pds service must have type AtprotoPersonalDataServer and a URL "
                    "endpoint", did=did,
                )
            return normalize_base_url(endpoint, what="the #atproto_pds endpoint")
    raise IdentityError("the DID document has no #atproto_pds service: no PDS hosts it", did=did)


def signing_key(doc: dict[str, Any]) -> str:
    """The ``#atproto`` verification method of a DID document, as a ``did:key:`` string."""
    did = str(doc.get("id"))
    for method in _entries(doc, "verificationMethod"):
        if _is_fragment(method.get("id"), did, "#atproto"):
            multibase = method.get("publicKeyMultibase")
            if not isinstance(multibase, str):
                raise IdentityError("the #atproto key has no publicKeyMultibase", did=did)
            try:
                return normalize_signing_key(multibase, suite=str(method.get("type")))
            except VerificationError as exc:
                raise IdentityError(
                    f"the #atproto key is unusable: {exc.message}", did=did
                ) from None
    raise IdentityError("the DID document has no #atproto signing key", did=did)


def did_handle(doc: dict[str, Any]) -> str | None:
    """The handle a DID document claims: its first ``at://`` alias, lowercase, or None."""
    aliases = doc.get("alsoKnownAs")
    for alias in aliases if isinstance(aliases, list) else []:
        if isinstance(alias, str) and alias.startswith("at://"):
            try:
                return Handle.parse(alias[5:]).normalized
            except PdsmemError:
                return None
    return None


def did_web_base(did: Did) -> str:
    """The web address a ``did:web`` names (``https://host[:port]``), checked without a request:
    atproto allows no path, and the host and port must make a URL. ``IdentityError`` otherwise,
    which the command line reports as a usage error."""
    host = unquote(did[len("did:web:"):])
    if ":" in did[len("did:web:"):]:
        raise IdentityError("did:web with a path is not supported in atproto", did=did)
    if any(char in host for char in "/?#@\\") or host.count(":") > 1:
        raise IdentityError("a did:web names a host and an optional port (%3A), nothing else", did=did)
    try:
        return normalize_base_url(f"https://{host}", what="the web address it names")
    except InvalidSyntax as exc:  # a host name part empty or too long, a port not 1 to 65535
        raise IdentityError(
            exc.message, did=did, hint="check the DID: a did:web names a host, and an optional port in "
            "digits after %3A, as in did:web:example.com%3A8443",
        ) from None


class IdentityResolver:
    """Resolves handles and DIDs; holds one HTTP client and one DNS resolver.

    ``plc_url``: the PLC directory (default ``ATP_PLC_HOST``, then https://plc.directory).
    ``dns_nameservers``/``dns_port``: DNS servers to ask instead of the system's.
    ``transport``: the HTTP transport for PLC, well-known and PDS requests.
    """

    def __init__(
        self,
        *,
        plc_url: str | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 10.0,
        dns_nameservers: list[str] | None = None,
        dns_port: int = 53,
    ) -> None:
        plc = plc_url or os.environ.get(ENV_PLC) or DEFAULT_PLC_URL
        self.plc_url = normalize_base_url(plc, what="the PLC directory URL")
        self._transport, self._timeout = transport, timeout
        self._http = httpx.Client(
            transport=transport, timeout=timeout, follow_redirects=True, max_redirects=3, verify=tls_context()
        )
        self._private_dns = dns_nameservers is not None
        self._dns = dns.resolver.Resolver(configure=not self._private_dns)
        if dns_nameservers is not None:
            self._dns.nameservers = dns_nameservers
            self._dns.port = dns_port
        self._dns.lifetime = timeout

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> IdentityResolver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- the whole chain ------------------------------------------------------------------

    def resolve(self, identifier: str, *, pds_hint: str | None = None) -> Identity:
        """Resolve a handle or DID to its verified identity.

        ``pds_hint`` is a PDS URL asked with ``resolveHandle`` when DNS and HTTPS find no DID
        (handles such as ``alice.test`` on a local PDS have no public DNS).
        """
        ident = AtIdentifier.parse(identifier.strip().removeprefix("@"))
        if ident.is_did:
            did = Did.parse(str(ident))
            doc = self.resolve_did(did)
            handle = did_handle(doc)
            if handle is not None and not self._points_back(handle, did, pds_hint):
                handle = None
        else:
            handle = str(ident).lower()
            did = self.resolve_handle(handle, pds_hint=pds_hint)
            doc = self.resolve_did(did)
            claimed = did_handle(doc)
            if claimed != handle:
                raise IdentityError(
                    f"handle {handle} resolves to {did}, but that DID's document claims "
                    f"{'the handle ' + claimed if claimed else 'no handle'}: the handle and the "
                    "DID do not point at each other"
                )
        return Identity(
            did=did, handle=handle, pds_url=pds_endpoint(doc), signing_key=signing_key(doc)
        )

    def _points_back(self, handle: str, did: Did, pds_hint: str | None) -> bool:
        try:
            found = self.resolve_handle(handle, pds_hint=pds_hint)
        except (IdentityError, TransientError) as exc:
            log.warning("%s claims handle %s, which does not resolve: %s", did, handle, exc)
            return False
        if found != did:
            log.warning("%s claims handle %s, which resolves to %s", did, handle, found)
        return found == did

    # --- handle → DID ---------------------------------------------------------------------

    def resolve_handle(self, handle: str, *, pds_hint: str | None = None) -> Did:
        """The DID a handle names: DNS TXT, then HTTPS well-known, then ``pds_hint``'s answer."""
        name = Handle.parse(handle.strip().removeprefix("@")).normalized
        reasons: list[str] = []
        tld = name.rsplit(".", 1)[-1]
        if tld in _RESERVED_TLDS and not self._private_dns:
            reasons.append(f".{tld} is a reserved top-level domain with no public DNS")
        else:
            for attempt in (self._from_dns, self._from_well_known):
                did, reason = attempt(name)
                if did is not None:
                    return did
                reasons.append(reason)
        hint = None
        if pds_hint:
            try:
                did, reason = self._from_pds(name, pds_hint)
            except TransientError as exc:  # the PDS is away: that is what to fix, not the handle's spelling
                raise TransientError(f"{exc.message} (to resolve the handle {name})", hint=exc.hint) from None
            if did is not None:
                return did
            reasons.append(reason)
        else:
            hint = "pass the PDS that hosts the account to resolve the handle there"
        raise IdentityError(f"could not resolve handle {name}: {', and '.join(reasons)}", hint=hint)

    def _from_dns(self, name: str) -> tuple[Did | None, str]:
        where = f"_atproto.{name}"
        try:
            answer = self._dns.resolve(where, "TXT")
        except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
            return None, f"no DNS TXT record at {where}"
        except dns.exception.Timeout:
            return None, f"the DNS look-up of {where} timed out"
        except dns.exception.DNSException as exc:
            return None, f"the DNS look-up of {where} failed ({exc})"
        found = set()
        for rdata in answer:
            text = b"".join(rdata.strings).decode("utf-8", "replace")
            if text.startswith("did="):
                found.add(text[4:].strip())
        if not found:
            return None, f"no did= value in the DNS TXT records at {where}"
        if len(found) > 1:
            return None, f"several different DIDs in the DNS TXT records at {where}"
        raw = found.pop()
        try:
            return Did.parse(raw), ""
        except PdsmemError:
            return None, f"the DNS TXT record at {where} holds {raw[:80]!r}, not a DID"

    def _from_well_known(self, name: str) -> tuple[Did | None, str]:
        url = f"https://{name}/.well-known/atproto-did"
        try:
            with self._http.stream("GET", url) as response:
                if response.status_code != 200:
                    return None, f"{url} answered HTTP {response.status_code}"
                body = read_limited(response, _MAX_WELL_KNOWN, url, deadline=_DOCUMENT_DEADLINE)
        except AnswerTooLarge as exc:
            return None, exc.message
        except httpx.HTTPError as exc:
            return None, f"{url} could not be fetched ({describe_transport_error(exc)})"
        text = body.decode("utf-8", "replace").strip()
        try:
            return Did.parse(text), ""
        except PdsmemError:
            return None, f"{url} does not hold a DID (it starts with {text[:40]!r})"

    def _from_pds(self, name: str, pds_url: str) -> tuple[Did | None, str]:
        with XrpcClient(pds_url, transport=self._transport, timeout=self._timeout) as xrpc:
            try:
                answer = xrpc.query("com.atproto.identity.resolveHandle", {"handle": name})
            except XrpcError as exc:
                if exc.status == 400 and (exc.error == "HandleNotFound" or exc.server_message == _NO_SUCH_HANDLE):
                    return None, f"the PDS at {xrpc.base_url} has no account {name}"  # as a login says it
                why = exc.server_message or exc.error
                return None, f"the PDS at {xrpc.base_url} could not resolve it ({why})"
        raw = answer.get("did")
        try:
            return Did.parse(raw), ""
        except PdsmemError:
            return None, f"the PDS at {xrpc.base_url} answered {str(raw)[:80]!r}, not a DID"

    # --- DID → document -------------------------------------------------------------------

    def resolve_did(self, did: str) -> dict[str, Any]:
        """The DID document of a ``did:plc`` or ``did:web`` DID, checked to be about ``did``."""
        parsed = Did.parse(did)
        if problem := parsed.plc_problem():
            # (the did:plc method's own rule: no directory holds another, so it is not asked)
            raise IdentityError(problem, did=did, hint="check the DID's spelling")
        if parsed.method == "plc":
            url, where = f"{self.plc_url}/{parsed}", f"the PLC directory at {self.plc_url}"
        elif parsed.method == "web":
            base = did_web_base(parsed)
            url, where = f"{base}/.well-known/did.json", base
        else:
            raise IdentityError(
                f"DID method {parsed.method!r} is not supported (expected did:plc or did:web)",
                did=did,
            )
        doc = self._fetch_document(url, where, did)
        if doc.get("id") != did:
            raise IdentityError(f"{url} returned the document of {doc.get('id')!r}", did=did)
        return doc

    def _fetch_document(self, url: str, where: str, did: str) -> dict[str, Any]:
        try:
            with self._http.stream("GET", url) as response:
                if response.status_code == 404:
                    raise IdentityError(f"{where} does not know this DID (HTTP 404)", did=did,
                                        hint="check the DID's spelling, or give the account's handle; if the DID "
                                        "is right, pass --pds (or set ATP_PDS_HOST) with the URL of the account's PDS")
                if response.status_code == 410:
                    raise IdentityError(f"{where} says this DID is deactivated (HTTP 410)", did=did)
                if response.status_code >= 500:
                    raise TransientError(f"{where} failed: HTTP {response.status_code}", did=did)
                if response.status_code != 200:
                    raise IdentityError(
                        f"{url} answered HTTP {response.status_code}, expected a DID document", did=did
                    )
                body = read_limited(response, _MAX_DOCUMENT, where, deadline=_DOCUMENT_DEADLINE)
        except AnswerTooLarge as exc:
            raise IdentityError(f"{exc.message}, expected a DID document", did=did) from None
        except httpx.HTTPError as exc:
            raise TransientError(
                f"cannot reach {where}: {describe_transport_error(exc)}", did=did
            ) from None
        doc = json_object(body)
        if doc is None:
            raise IdentityError(f"{url} did not return a JSON DID document", did=did)
        return doc


def resolve(
    identifier: str,
    *,
    plc_url: str | None = None,
    pds_hint: str | None = None,
    transport: httpx.BaseTransport | None = None,
) -> Identity:
    """Resolve a handle or DID (see :meth:`IdentityResolver.resolve`)."""
    with IdentityResolver(plc_url=plc_url, transport=transport) as resolver:
        return resolver.resolve(identifier, pds_hint=pds_hint)
