"""``pdsmem login`` with atproto OAuth: the local reference PDS is the authorization server, and a
real headless Chromium signs in through its own pages (docs/oauth.md)."""

from __future__ import annotations

import json
import logging
import re
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx
import pytest
from click.testing import CliRunner, Result
from devkit.events import fact
from devkit.pds import Account, LocalPds
from playwright.sync_api import Browser
from support.browser import approve, launched, session_files, start_login

from pdsmem.bridge.signin.oauth import DEFAULT_SCOPE, Dpop, OAuthError, OAuthSession, _post_form, discover
from pdsmem.bridge.signin.session import SessionError, SessionStore, StoredGrant
from pdsmem.cli import cli
from pdsmem.lexicons import RECORD_NSID

pytestmark = pytest.mark.pds


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as running:
        yield running


def env_for(pds: LocalPds, tmp_path: Path) -> dict[str, str]:
    # --pds is the PDS's public URL: the one its DID documents name and its tokens are bound to.
    return {"PDSMEM_STATE_DIR": str(tmp_path / "state"), "ATP_PLC_HOST": pds.plc_url,
            "ATP_PDS_HOST": pds.public_url}


def run(*args: str, env: dict[str, str]) -> Result:
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def signed_in(browser: Browser, pds: LocalPds, account: Account, tmp_path: Path) -> StoredGrant:
    """Sign ``account`` in through the browser; the grant pdsmem stored."""
    env = env_for(pds, tmp_path)
    login = start_login(account.handle, env=env)
    approve(browser, login, account.password)
    code, out, err = login.finish()
    assert code == 0, err
    [stored] = SessionStore(tmp_path / "state").sessions()
    assert isinstance(stored, StoredGrant)
    return stored


def records(pds: LocalPds, did: str, collection: str = RECORD_NSID) -> list[dict]:
    answer = httpx.get(f"{pds.url}/xrpc/com.atproto.repo.listRecords",
                       params={"repo": did, "collection": collection, "limit": 100})
    answer.raise_for_status()
    return answer.json()["records"]


def export(tmp_path: Path, env: dict[str, str], account: Account, *ids: int) -> Result:
    memories = tmp_path / "memories.jsonl"
    memories.write_text("".join(json.dumps(fact(i)) + "\n" for i in ids))
    return run("export", "--to", account.handle, "--from", str(memories), env=env)


def set_stored(tmp_path: Path, **changes: object) -> StoredGrant:
    store = SessionStore(tmp_path / "state")
    [stored] = store.sessions()
    assert isinstance(stored, StoredGrant)
    changed = replace(stored, **changes)
    store.save(changed)
    return changed


def refused_refresh(grant: StoredGrant) -> str | None:
    """The authorization server's error for a refresh with ``grant``'s refresh token, or None
    when it would accept it."""
    try:
        with httpx.Client() as http:
            _post_form(http, Dpop(grant.dpop_key), grant.token_endpoint, {
                "grant_type": "refresh_token", "refresh_token": grant.refresh_token,
                "client_id": grant.client_id}, "a refresh")
    except OAuthError as exc:
        return exc.error
    return None


def test_sign_in_in_the_browser_then_export_with_the_grant(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    env = env_for(pds, tmp_path)
    login = start_login(account.handle, env=env)
    page = approve(browser, login, account.password)
    assert "Signed in" in page.inner_text("body")
    code, out, err = login.finish()
    assert code == 0, err
    assert out == (f"Signed in as {account.handle} ({account.did}) at {pds.public_url}; granted: "
                   f"{DEFAULT_SCOPE}; session kept in {tmp_path}/state/sessions\n")

    [path] = session_files(tmp_path / "state")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kept = path.read_text()
    assert account.password not in kept and '"kind": "oauth"' in kept and '"d": ' in kept  # the DPoP key

    status = run("status", "--json", env=env)
    assert json.loads(status.stdout)["summary"]["sessions"] == [{
        "handle": account.handle, "did": account.did, "pds": pds.public_url, "auth": "oauth",
        "granted": DEFAULT_SCOPE, "issuer": pds.public_url,
    }]
    assert "Token" not in status.stdout and "dpop" not in status.stdout.lower()

    exported = export(tmp_path, env, account, 1, 2)
    assert exported.exit_code == 0, exported.output
    assert "2 created, 0 unchanged" in exported.stdout
    assert len(records(pds, account.did)) == 2


def test_a_write_outside_the_granted_collections_is_refused_by_the_pds(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    grant = signed_in(browser, pds, account, tmp_path)
    with OAuthSession(grant) as session, pytest.raises(SessionError) as refused:
        session.procedure("com.atproto.repo.createRecord", {
            "repo": account.did, "collection": "app.bsky.feed.post",
            "record": {"$type": "app.bsky.feed.post", "text": "not pdsmem's to write",
                       "createdAt": "2026-12-02T00:00:00.000Z"},
        })
    assert refused.value.message == (
        f"the PDS refused: the sign-in of {account.handle} does not allow this (Missing required "
        f'scope "repo:app.bsky.feed.post?action=create"); granted: {DEFAULT_SCOPE}'
    )
    assert records(pds, account.did, "app.bsky.feed.post") == []


def test_an_expired_access_token_is_refreshed_and_the_refresh_token_rotated(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    first = signed_in(browser, pds, account, tmp_path)
    set_stored(tmp_path, expires_at=time.time() - 1)
    exported = export(tmp_path, env_for(pds, tmp_path), account, 1)
    assert exported.exit_code == 0, exported.output
    [renewed] = SessionStore(tmp_path / "state").sessions()
    assert isinstance(renewed, StoredGrant)
    assert renewed.refresh_token != first.refresh_token and renewed.access_token != first.access_token
    assert renewed.expires_at > time.time() + 600
    assert refused_refresh(first) == "invalid_grant"  # single use: the old one is spent
    assert len(records(pds, account.did)) == 1


def test_processes_renewing_the_same_grant_at_once_spend_its_refresh_token_once(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """A refresh token is single use: four sessions (as four pdsmem processes would) finding the
    access token expired at the same moment renew it once and share the result."""
    signed_in(browser, pds, account, tmp_path)
    expired = set_stored(tmp_path, expires_at=time.time() - 1)
    store = SessionStore(tmp_path / "state")
    errors: list[BaseException] = []
    go = threading.Barrier(4)

    def write(rkey: str) -> None:
        with OAuthSession(expired, store=store) as session:
            go.wait()
            try:
                session.procedure("com.atproto.repo.createRecord", {
                    "repo": account.did, "collection": RECORD_NSID, "rkey": rkey,
                    "record": {"$type": RECORD_NSID, "probe": rkey},
                })
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

    threads = [threading.Thread(target=write, args=(f"3kq5zdhftq2{i}a",)) for i in range(2, 6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(records(pds, account.did)) == 4
    [renewed] = store.sessions()
    assert isinstance(renewed, StoredGrant) and refused_refresh(renewed) is None  # the grant lives on


def test_an_access_token_the_pds_refuses_is_renewed_once(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    first = signed_in(browser, pds, account, tmp_path)
    set_stored(tmp_path, access_token=first.access_token[:-4] + "AAAA")  # its signature broken
    exported = export(tmp_path, env_for(pds, tmp_path), account, 1)
    assert exported.exit_code == 0, exported.output
    [renewed] = SessionStore(tmp_path / "state").sessions()
    assert isinstance(renewed, StoredGrant) and renewed.refresh_token != first.refresh_token


def test_a_revoked_grant_says_how_to_sign_in_again_and_writes_nothing(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    grant = signed_in(browser, pds, account, tmp_path)
    with httpx.Client() as http:  # as the account's settings would, elsewhere
        _post_form(http, Dpop(grant.dpop_key), grant.revocation_endpoint or "", {
            "token": grant.refresh_token, "client_id": grant.client_id}, "revoking")
    exported = export(tmp_path, env_for(pds, tmp_path), account, 1)
    assert exported.exit_code == 1
    assert exported.stderr.splitlines()[-1] == (
        f"Error: {account.did}: the sign-in of {account.handle} at {pds.public_url} is no longer "
        "accepted: the authorization server refused renewing the sign-in: invalid_grant: Invalid "
        f"refresh token (it was revoked or has expired; run pdsmem login {account.handle} to sign in again)"
    )
    assert records(pds, account.did) == []
    # Regression: status listed the refused grant as a normal session, and the export as one to run again.
    shown = run("status", env=env_for(pds, tmp_path)).stdout.splitlines()
    assert any(line.endswith(f"OAuth, REFUSED by {pds.public_url} (the authorization server refused renewing the "
                             f"sign-in: invalid_grant: Invalid refresh token): sign in again with pdsmem login "
                             f"{account.handle}") for line in shown), shown
    assert any(line.endswith(f"(its sign-in was refused: sign in again first, pdsmem login {account.handle})")
               for line in shown), shown


def test_a_stale_dpop_nonce_is_replaced_by_the_servers_and_the_write_goes_through(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    grant = signed_in(browser, pds, account, tmp_path)
    with OAuthSession(grant) as session:
        session._dpop.nonces[pds.public_url] = "a-nonce-the-pds-rotated-away"
        with caplog.at_level(logging.INFO, logger="httpx"):
            session.procedure("com.atproto.repo.createRecord", {
                "repo": account.did, "collection": RECORD_NSID, "rkey": "3kq5zdhftq22a",
                "record": {"$type": RECORD_NSID, "probe": True},
            })
        answers = [r.getMessage() for r in caplog.records if "createRecord" in r.getMessage()]
        assert [re.search(r'HTTP/1.1 (\d+)', a).group(1) for a in answers] == ["401", "200"]
        assert session._dpop.nonces[pds.public_url] != "a-nonce-the-pds-rotated-away"
    assert [r["uri"].rsplit("/", 1)[1] for r in records(pds, account.did)] == ["3kq5zdhftq22a"]


def _rewrite(param: str, value: str):
    def rewrite(url: str) -> str:
        parts = urlsplit(url)
        query = [(k, value if k == param else v) for k, v in parse_qsl(parts.query)]
        return urlunsplit(parts._replace(query=urlencode(query)))
    return rewrite


def test_a_redirect_from_another_issuer_is_refused(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """A mix-up: this sign-in's state, but an answer naming another authorization server."""
    login = start_login(account.handle, env=env_for(pds, tmp_path))
    page = approve(browser, login, account.password, rewrite_redirect=_rewrite("iss", "https://evil.example.com"))
    code, out, err = login.finish()
    assert code == 1
    assert ("refused the sign-in: the redirect names the issuer 'https://evil.example.com', not "
            f"{pds.public_url}, the account's authorization server; nothing was stored") in err
    assert "pdsmem refused the sign-in" in page.inner_text("body")
    assert session_files(tmp_path / "state") == []


def test_a_redirect_with_another_state_is_ignored_and_the_sign_in_goes_on(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Another sign-in's (or a forged) answer is not taken: pdsmem says so and keeps waiting for
    its own, which a stray request cannot pre-empt either."""
    login = start_login(account.handle, env=env_for(pds, tmp_path))
    stray = httpx.get(login.redirect_uri)  # a local process calling the port first, no state at all
    assert stray.status_code == 400
    real: list[str] = []

    def tamper_once(url: str) -> str:
        if real:
            return url
        real.append(url)
        return _rewrite("state", "another-sign-ins-state")(url)

    page = approve(browser, login, account.password, rewrite_redirect=tamper_once)
    assert "not the answer pdsmem is waiting for" in page.inner_text("body")
    said = login.read_until("still waiting") + login.read_until("still waiting")
    assert said.count("Warning: ignored a request to the sign-in's loopback address without this "
                      "sign-in's state") == 2  # the stray request and the changed redirect
    assert login.process.poll() is None and session_files(tmp_path / "state") == []
    # The real answer comes after all: where the authorization server's 303 would have sent it.
    answer = dict(parse_qsl(urlsplit(real[0]).query))
    page.goto(login.redirect_uri + "?" + urlencode({k: answer[k] for k in ("state", "iss", "code")}))
    assert "Signed in to pdsmem as" in page.inner_text("body")
    code, out, err = login.finish()
    assert code == 0, err
    assert len(session_files(tmp_path / "state")) == 1


def test_denying_access_in_the_browser_stores_nothing(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    login = start_login(account.handle, env=env_for(pds, tmp_path))
    page = approve(browser, login, account.password, deny=True)
    assert "pdsmem refused the sign-in: the sign-in was not completed" in page.inner_text("body")
    code, out, err = login.finish()
    assert code == 1
    assert "the sign-in was not completed: " in err and "nothing was stored" in err
    assert session_files(tmp_path / "state") == []


def test_logout_revokes_the_grant_at_the_authorization_server(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    grant = signed_in(browser, pds, account, tmp_path)
    out = run("logout", account.handle, env=env_for(pds, tmp_path))
    assert out.exit_code == 0, out.output
    assert out.stdout == (f"Logged out {account.handle} ({account.did}) at {pds.public_url}; the "
                          f"sign-in was revoked at {pds.public_url}\n")
    assert session_files(tmp_path / "state") == []
    assert refused_refresh(grant) == "invalid_grant"  # (a refresh with it works: see above)


class _NoOAuth(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.send_error(404)

    def log_message(self, *args: object) -> None:
        pass


def test_a_pds_without_oauth_says_to_use_an_app_password() -> None:
    server = HTTPServer(("127.0.0.1", 0), _NoOAuth)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with pytest.raises(OAuthError) as refused:
            discover(url)
        assert str(refused.value) == (
            f"the PDS at {url} does not offer OAuth sign-in: the OAuth metadata of the PDS at {url} "
            f"does not exist ({url}/.well-known/oauth-protected-resource: 404) (sign in with an app "
            "password instead: pdsmem login --app-password)"
        )
    finally:
        server.shutdown()
        server.server_close()


def test_app_passwords_stay_for_scripts(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    env = {**env_for(pds, tmp_path), "ATP_PDS_HOST": pds.url, "ATP_AUTH_PASSWORD": account.password}
    logged_in = run("login", account.handle, env=env)
    assert logged_in.exit_code == 0, logged_in.output
    assert "with an app password" in logged_in.stdout
    [stored] = SessionStore(tmp_path / "state").sessions()
    assert not isinstance(stored, StoredGrant)


def test_a_grant_made_with_pds_spelled_as_an_ip_is_found_with_that_spelling(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Regression: the grant is stored under the DID document's address (localhost); commands
    given the address as scripts/pds/account prints it (127.0.0.1) found no session."""
    env = {**env_for(pds, tmp_path), "ATP_PDS_HOST": pds.url}
    login = start_login(account.handle, env=env)
    approve(browser, login, account.password)
    assert login.finish()[0] == 0
    exported = export(tmp_path, env, account, 1)
    assert exported.exit_code == 0, exported.output
    elsewhere = run("logout", account.handle, "--pds", "http://127.0.0.1:9", env=env)  # another server
    assert elsewhere.exit_code == 1, elsewhere.output
    assert f"no stored session for {account.handle} at http://127.0.0.1:9" in elsewhere.stderr
    assert len(session_files(tmp_path / "state")) == 1
    out = run("logout", account.handle, env=env)
    assert out.exit_code == 0, out.output
    assert session_files(tmp_path / "state") == []


def test_signing_in_replaces_and_ends_an_app_password_session(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    env = {**env_for(pds, tmp_path), "ATP_PDS_HOST": pds.url}
    assert run("login", account.handle, env={**env, "ATP_AUTH_PASSWORD": account.password}).exit_code == 0
    [before] = SessionStore(tmp_path / "state").sessions()
    signed_in(browser, pds, account, tmp_path)  # the only session stored now: a grant
    refreshed = httpx.post(f"{pds.url}/xrpc/com.atproto.server.refreshSession",
                           headers={"Authorization": f"Bearer {before.refresh_jwt}"})
    assert refreshed.status_code in (400, 401), refreshed.text  # ended at the PDS, not just forgotten


def test_logout_says_when_the_server_cannot_revoke(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    signed_in(browser, pds, account, tmp_path)
    set_stored(tmp_path, revocation_endpoint=None)
    out = run("logout", account.handle, env=env_for(pds, tmp_path))
    assert out.exit_code == 3
    assert out.stderr == (
        f"Warning: the authorization server {pds.public_url} offers no revocation; the session of "
        f"{account.handle} stays valid at its PDS until it expires (revoke pdsmem's access in the "
        "account's settings to end it now)\n"
    )
    assert out.stdout == f"Logged out {account.handle} ({account.did}) on this machine only\n"
    assert session_files(tmp_path / "state") == []


def test_a_session_file_with_a_damaged_key_is_ignored_not_a_traceback(
    browser: Browser, pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    signed_in(browser, pds, account, tmp_path)
    [path] = session_files(tmp_path / "state")
    kept = json.loads(path.read_text())
    kept["dpopKey"] = {"kty": "EC"}
    path.write_text(json.dumps(kept))
    exported = export(tmp_path, env_for(pds, tmp_path), account, 1)
    assert exported.exit_code == 1
    assert exported.stderr.splitlines()[-1] == (
        f"Error: no stored session for {account.handle} at {pds.public_url} (1 unreadable session "
        f"file in {tmp_path}/state/sessions ignored: damaged, or written by another version); set "
        "ATP_AUTH_PASSWORD or run pdsmem login"
    )
    assert "Traceback" not in exported.output


class _Metadata(BaseHTTPRequestHandler):
    """A PDS whose authorization server answers the metadata ``answers`` names."""

    answers: dict[str, object] = {}

    def do_GET(self) -> None:  # noqa: N802
        body = self.answers.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("change, said", [
    ({"code_challenge_methods_supported": 1}, "does not support S256 (code_challenge_methods_supported)"),
    ({"pushed_authorization_request_endpoint": "http://[x"}, "names a PAR endpoint that is not an absolute URL: 'http://[x'"),
    ({"token_endpoint": "/oauth/token"}, "names a token endpoint that is not an absolute URL: '/oauth/token'"),
    ({"authorization_endpoint": "http://as.example.com/oauth/authorize"},
     "names a authorization endpoint without https: http://as.example.com/oauth/authorize"),
    ({"issuer": "http://elsewhere.example"}, "calls itself 'http://elsewhere.example'"),
    ({"resource_servers": "ignored", "AS": "http://[::1"}, "names a authorization server that is not an absolute URL: 'http://[::1'"),
])
def test_junk_oauth_metadata_gets_a_message_not_a_traceback(change: dict, said: str) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Metadata)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    issuer = change.get("AS", url)
    meta = {
        "issuer": url, "pushed_authorization_request_endpoint": f"{url}/oauth/par",
        "authorization_endpoint": f"{url}/oauth/authorize", "token_endpoint": f"{url}/oauth/token",
        "code_challenge_methods_supported": ["S256"], "dpop_signing_alg_values_supported": ["ES256"],
    }
    meta.update({k: v for k, v in change.items() if k != "AS"})
    _Metadata.answers = {
        "/.well-known/oauth-protected-resource": {"resource": url, "authorization_servers": [issuer]},
        "/.well-known/oauth-authorization-server": meta,
    }
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(OAuthError) as refused:
            discover(url)
        assert said in refused.value.message
    finally:
        server.shutdown()
        server.server_close()
