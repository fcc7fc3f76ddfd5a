"""Identity resolution against the real local PLC directory and PDS, and a real local DNS server.

Handles here have no public DNS, so DNS answers come from a small DNS server on 127.0.0.1 (real
UDP, real dnspython on both ends). A handle's own web server (``https://<handle>/.well-known/
atproto-did``) cannot be hosted on this machine under its name: where a test needs one, a
transport stands in for it, says so, and passes every other request to the real services.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import dns.message
import dns.rcode
import dns.rrset
import httpx
import pytest
from devkit.pds import Account, LocalPds

from pdsmem.bridge.atproto.car import read_car
from pdsmem.bridge.atproto.identity import (
    IdentityError,
    IdentityResolver,
    did_handle,
    pds_endpoint,
    resolve,
    signing_key,
)
from pdsmem.bridge.atproto.repo import normalize_signing_key, verify_commit
from pdsmem.bridge.atproto.xrpc import XrpcClient
from pdsmem.errors import InvalidSyntax, TransientError

MISSING_DID = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"


def a_closed_url() -> str:
    """A loopback URL whose port nothing listens on: a connection to it is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


class LocalDns:
    """A DNS server on 127.0.0.1 answering TXT questions from ``records``, NXDOMAIN otherwise."""

    def __init__(self, records: dict[str, list[str]]) -> None:
        self.records = records
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.port = int(self.sock.getsockname()[1])
        self.asked: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                wire, peer = self.sock.recvfrom(4096)
            except TimeoutError:
                continue
            query = dns.message.from_wire(wire)
            response = dns.message.make_response(query)
            name = query.question[0].name.to_text(omit_final_dot=True).lower()
            self.asked.append(name)
            if name in self.records:
                quoted = [f'"{value}"' for value in self.records[name]]
                response.answer.append(dns.rrset.from_text(name + ".", 60, "IN", "TXT", *quoted))
            else:
                response.set_rcode(dns.rcode.NXDOMAIN)
            self.sock.sendto(response.to_wire(), peer)

    def resolver(self, **kw) -> IdentityResolver:
        return IdentityResolver(dns_nameservers=["127.0.0.1"], dns_port=self.port, **kw)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def local_dns() -> Iterator[LocalDns]:
    server = LocalDns({})
    yield server
    server.close()


class WebStandIn(httpx.BaseTransport):
    """Stands in for handles' web servers (``pages``: URL → (status, body)); a handle host not
    listed refuses the connection. Loopback requests (the PLC, the PDS) go to the real service."""

    def __init__(self, pages: dict[str, tuple[int, str]] | None = None) -> None:
        self.pages = pages or {}
        self.real = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host in ("127.0.0.1", "localhost"):
            return self.real.handle_request(request)
        page = self.pages.get(str(request.url))
        if page is None:
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        return httpx.Response(page[0], text=page[1])


# --- the real PLC and PDS ----------------------------------------------------------------------


@pytest.mark.pds
def test_a_handle_resolves_through_the_pds_and_its_key_verifies_a_real_commit(
    pds: LocalPds, account: Account
) -> None:
    identity = resolve(account.handle, plc_url=pds.plc_url, pds_hint=pds.url)
    assert (identity.did, identity.handle, identity.pds_url) == (
        account.did, account.handle, pds.public_url,
    )
    assert identity.signing_key.startswith("did:key:z")
    with XrpcClient(pds.url) as client:
        with client.stream("com.atproto.sync.getRepo", {"did": account.did}) as chunks:
            root, store = read_car(chunks)
    with store:
        commit = verify_commit(
            store, root, did=account.did, signing_key_did_key=identity.signing_key
        )
    assert commit.did == account.did


@pytest.mark.pds
def test_a_did_resolves_with_its_handle_checked_both_ways(pds: LocalPds, account: Account) -> None:
    checked = resolve(account.did, plc_url=pds.plc_url, pds_hint=pds.url)
    assert (checked.did, checked.handle) == (account.did, account.handle)
    assert checked.pds_url == pds.public_url
    # Without a PDS to ask, the .test handle cannot be confirmed: the DID still resolves.
    unconfirmed = resolve(account.did, plc_url=pds.plc_url)
    assert unconfirmed.handle is None
    assert (unconfirmed.pds_url, unconfirmed.signing_key) == (checked.pds_url, checked.signing_key)


@pytest.mark.pds
def test_the_key_as_the_did_document_writes_it_is_a_signing_key_a_person_can_give(
    pds: LocalPds, account: Account
) -> None:
    """``--signing-key`` takes the #atproto method's publicKeyMultibase as the PLC serves it,
    whatever its verification method type, as well as the did:key."""
    document = httpx.get(f"{pds.plc_url}/{account.did}", timeout=30).json()
    [method] = [m for m in document["verificationMethod"] if m["id"].endswith("#atproto")]
    checked = resolve(account.did, plc_url=pds.plc_url)
    assert normalize_signing_key(method["publicKeyMultibase"]) == checked.signing_key
    assert normalize_signing_key(checked.signing_key) == checked.signing_key


@pytest.mark.pds
def test_the_plc_url_comes_from_the_environment(
    pds: LocalPds, account: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATP_PLC_HOST", pds.plc_url)
    assert resolve(account.did).pds_url == pds.public_url


@pytest.mark.pds
def test_a_reserved_tld_handle_needs_the_pds_fallback(pds: LocalPds) -> None:
    with pytest.raises(IdentityError) as caught:
        resolve("nobody.test", plc_url=pds.plc_url)
    assert str(caught.value) == (
        "could not resolve handle nobody.test: .test is a reserved top-level domain with no "
        "public DNS (pass the PDS that hosts the account to resolve the handle there)"
    )
    with pytest.raises(IdentityError) as caught:
        resolve("nobody.test", plc_url=pds.plc_url, pds_hint=pds.url)
    assert str(caught.value) == (
        "could not resolve handle nobody.test: .test is a reserved top-level domain with no "
        f"public DNS, and the PDS at {pds.url} has no account nobody.test"
    )


def test_a_handle_whose_pds_is_away_says_so_first() -> None:
    """Found by a new user: with the PDS stopped, ``sync alice.test`` said the handle could not be
    resolved and to check its spelling; the PDS that did not answer came second."""
    closed = a_closed_url()
    with pytest.raises(TransientError) as caught:
        resolve("alice.test", plc_url=closed, pds_hint=closed)
    assert str(caught.value) == f"cannot reach the PDS at {closed}: connection refused (to resolve the handle alice.test)"


@pytest.mark.pds
def test_an_unknown_did_and_an_unreachable_plc(pds: LocalPds) -> None:
    with pytest.raises(IdentityError) as caught:
        resolve(MISSING_DID, plc_url=pds.plc_url)
    assert str(caught.value) == (
        f"{MISSING_DID}: the PLC directory at {pds.plc_url} does not know this DID (HTTP 404) (check the DID's "
        "spelling, or give the account's handle; if the DID is right, pass --pds (or set ATP_PDS_HOST) with the URL "
        "of the account's PDS)"
    )
    closed = a_closed_url()
    with pytest.raises(TransientError) as caught:
        resolve(MISSING_DID, plc_url=closed)
    assert str(caught.value) == (
        f"{MISSING_DID}: cannot reach the PLC directory at {closed}: connection refused"
    )


@pytest.mark.parametrize("did, has", [("did:plc:xyz", "this one has 3"),
                                       ("did:plc:" + "a" * 23 + "1", "this one has others")])
def test_a_did_plc_of_another_shape_is_refused_before_the_directory_is_asked(did: str, has: str) -> None:
    with pytest.raises(IdentityError) as caught:  # a directory that would refuse the connection: never asked
        resolve(did, plc_url=a_closed_url())
    assert str(caught.value) == (
        f"{did}: not a valid did:plc: one has 24 characters after 'did:plc:', letters a-z and digits 2-7 "
        f"({has}) (check the DID's spelling)"
    )


# --- DNS ---------------------------------------------------------------------------------------


@pytest.mark.pds
def test_a_handle_resolves_through_dns(
    pds: LocalPds, account: Account, local_dns: LocalDns
) -> None:
    local_dns.records[f"_atproto.{account.handle}"] = [f"did={account.did}"]
    with local_dns.resolver(plc_url=pds.plc_url, transport=WebStandIn()) as resolver:
        identity = resolver.resolve(account.handle.upper())
    assert (identity.did, identity.handle) == (account.did, account.handle)
    assert local_dns.asked == [f"_atproto.{account.handle}"]


@pytest.mark.pds
def test_a_handle_the_did_does_not_claim_is_refused(
    pds: LocalPds, account: Account, local_dns: LocalDns
) -> None:
    local_dns.records["_atproto.mallory.test"] = [f"did={account.did}"]
    with local_dns.resolver(plc_url=pds.plc_url, transport=WebStandIn()) as resolver:
        with pytest.raises(IdentityError) as caught:
            resolver.resolve("mallory.test")
    assert str(caught.value) == (
        f"handle mallory.test resolves to {account.did}, but that DID's document "
        f"claims the handle {account.handle}: the handle and the DID do not point at each other"
    )


def test_an_unknown_handle_says_where_it_looked(local_dns: LocalDns) -> None:
    """The handle's web server is a stand-in that refuses the connection."""
    with local_dns.resolver(transport=WebStandIn()) as resolver:
        with pytest.raises(IdentityError) as caught:
            resolver.resolve_handle("nobody.pdsmem.dev")
    assert str(caught.value) == (
        "could not resolve handle nobody.pdsmem.dev: no DNS TXT record at "
        "_atproto.nobody.pdsmem.dev, and https://nobody.pdsmem.dev/.well-known/atproto-did could "
        "not be fetched (connection refused) (pass the PDS that hosts the account to resolve the "
        "handle there)"
    )


def test_dns_records_that_are_not_one_did(local_dns: LocalDns) -> None:
    local_dns.records.update({
        "_atproto.two.pdsmem.dev": ["did=did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", "did=did:plc:bbbb"],
        "_atproto.junk.pdsmem.dev": ["did=not a did"],
        "_atproto.other.pdsmem.dev": ["v=spf1 -all"],
        "_atproto.dup.pdsmem.dev": [f"did={MISSING_DID}", f"did={MISSING_DID}"],
    })
    with local_dns.resolver(transport=WebStandIn()) as resolver:
        assert resolver.resolve_handle("dup.pdsmem.dev") == MISSING_DID
        for name, reason in [
            ("two", "several different DIDs in the DNS TXT records at _atproto.two.pdsmem.dev"),
            ("junk", "the DNS TXT record at _atproto.junk.pdsmem.dev holds 'not a did', not a DID"),
            ("other", "no did= value in the DNS TXT records at _atproto.other.pdsmem.dev"),
        ]:
            with pytest.raises(IdentityError, match=reason):
                resolver.resolve_handle(f"{name}.pdsmem.dev")


def test_the_well_known_file_of_the_handle(local_dns: LocalDns) -> None:
    """The handle's web server is a stand-in serving the pages below."""
    pages = {
        "https://alice.pdsmem.dev/.well-known/atproto-did": (200, f"{MISSING_DID}\n"),
        "https://gone.pdsmem.dev/.well-known/atproto-did": (404, "not found"),
        "https://html.pdsmem.dev/.well-known/atproto-did": (200, "<html>hello</html>"),
    }
    with local_dns.resolver(transport=WebStandIn(pages)) as resolver:
        assert resolver.resolve_handle("@Alice.pdsmem.dev") == MISSING_DID
        with pytest.raises(IdentityError, match=r"atproto-did answered HTTP 404"):
            resolver.resolve_handle("gone.pdsmem.dev")
        with pytest.raises(IdentityError, match=r"does not hold a DID \(it starts with '<html>"):
            resolver.resolve_handle("html.pdsmem.dev")


# --- reading DID documents ---------------------------------------------------------------------


DOC = {
    "id": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
    "alsoKnownAs": ["https://example.com", "at://Alice.Example.com", "at://bob.example.com"],
    "verificationMethod": [
        {"id": "did:plc:ewvi7nxzyoun6zhxrhs64oiz#other", "type": "Multikey",
         "publicKeyMultibase": "zQ3shunBKsXixLxKtC5qeSG9E4J5RkGN57im31pcTzbNQnm5w"},
        {"id": "did:plc:ewvi7nxzyoun6zhxrhs64oiz#atproto", "type": "Multikey",
         "controller": "did:plc:ewvi7nxzyoun6zhxrhs64oiz",
         "publicKeyMultibase": "zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF"},
    ],
    "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer",
                 "serviceEndpoint": "https://pds.example.com/"}],
}


def test_reading_the_pds_the_key_and_the_handle_of_a_did_document() -> None:
    assert pds_endpoint(DOC) == "https://pds.example.com"
    assert signing_key(DOC) == "did:key:zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF"
    assert did_handle(DOC) == "alice.example.com"
    bare = {"id": DOC["id"]}
    assert did_handle(bare) is None
    with pytest.raises(IdentityError, match="has no #atproto_pds service: no PDS hosts it"):
        pds_endpoint(bare)
    with pytest.raises(IdentityError, match="has no #atproto signing key"):
        signing_key(bare)
    bad_key = {**DOC, "verificationMethod": [{"id": "#atproto", "type": "Multikey",
                                              "publicKeyMultibase": "zNotAKey"}]}
    with pytest.raises(IdentityError, match="the #atproto key is unusable"):
        signing_key(bad_key)


def test_unsupported_dids_are_refused_before_any_request() -> None:
    with IdentityResolver(plc_url="http://127.0.0.1:9", transport=WebStandIn()) as resolver:
        with pytest.raises(IdentityError, match="DID method 'key' is not supported"):
            resolver.resolve_did("did:key:zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF")
        with pytest.raises(IdentityError, match="did:web with a path is not supported"):
            resolver.resolve_did("did:web:example.com:users:alice")
        # Each crashed when it was connected to: an empty host name part, a port that is not a
        # number; a decoded '/' or '@' would have fetched another path or host.
        for did, says in [
            ("did:web:a..example.com", "did:web:a..example.com: the web address it names 'https://a..example.com' "
             "has a host name with an empty part (two dots in a row) or a part longer than 63 characters"),
            ("did:web:127.0.0.1%3Ax", "did:web:127.0.0.1%3Ax: the web address it names 'https://127.0.0.1:x' has "
             "port 'x'; a port is a number from 1 to 65535"),
            ("did:web:127.0.0.1%3A9%3A9", "names a host and an optional port (%3A), nothing else"),
            ("did:web:example.com%2Fusers", "names a host and an optional port (%3A), nothing else"),
            ("did:web:me%40example.com", "names a host and an optional port (%3A), nothing else"),
        ]:
            with pytest.raises(IdentityError) as refused:
                resolver.resolve_did(did)
            assert says in str(refused.value)


@pytest.mark.parametrize("port", ["x", "1x"])
def test_a_did_web_port_that_is_not_a_number_is_refused_in_words(port: str) -> None:
    """Regression: this read "did:web:example.com%3Ax: the web address it names
    'https://example.com:x' is not a URL: Invalid port: 'x'", httpx's words."""
    did = f"did:web:example.com%3A{port}"
    with IdentityResolver(plc_url="http://127.0.0.1:9", transport=WebStandIn()) as resolver:
        with pytest.raises(IdentityError) as refused:
            resolver.resolve_did(did)
    assert str(refused.value) == (
        f"{did}: the web address it names 'https://example.com:{port}' has port {port!r}; a port is a number "
        "from 1 to 65535 (check the DID: a did:web names a host, and an optional port in digits after %3A, as "
        "in did:web:example.com%3A8443)"
    )
    assert "Invalid port" not in str(refused.value)


def test_a_plc_url_whose_port_is_not_a_number_is_refused_in_words() -> None:
    """Regression: this read "the PLC directory URL 'http://localhost:x' is not a URL: Invalid port: 'x'"."""
    with pytest.raises(InvalidSyntax) as refused:
        IdentityResolver(plc_url="http://localhost:x")
    assert str(refused.value) == (
        "the PLC directory URL 'http://localhost:x' has port 'x'; a port is a number from 1 to 65535 "
        "(write it in digits, as in https://host:8443, or leave it out for the scheme's default)"
    )
