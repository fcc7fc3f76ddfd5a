"""Sessions against the real local PDS: login, the session file, reuse, renewal, secrecy.

Requests are observed (counted) by a transport that forwards each one to the real PDS. The only
injected fault is an ``ExpiredToken`` answer, which a real PDS gives only after its access
tokens' two hours; those tests say so. Invalid tokens are real: the PDS itself refuses them.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import httpx
import pytest
from devkit.pds import Account, LocalPds

from pdsmem.bridge.signin.session import (
    Session,
    SessionError,
    SessionStore,
    StoredSession,
    default_state_dir,
)
from pdsmem.bridge.atproto.xrpc import XrpcError

GET_SESSION = "com.atproto.server.getSession"
pytestmark = pytest.mark.pds


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ATP_AUTH_HANDLE", "ATP_AUTH_PASSWORD", "ATP_PDS_HOST", "ATP_PLC_HOST",
                 "PDSMEM_STATE_DIR"):
        monkeypatch.delenv(name, raising=False)


class Observed(httpx.BaseTransport):
    """Forwards every request to the real PDS and records which XRPC method it called."""

    def __init__(self, expire: set[str] | None = None, times: int = 1) -> None:
        self.real = httpx.HTTPTransport()
        self.calls: list[str] = []
        self.expire = expire or set()
        self.times = times

    def count(self, nsid: str) -> int:
        return self.calls.count(nsid)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        nsid = request.url.path.rsplit("/", 1)[1]
        self.calls.append(nsid)
        if nsid in self.expire and self.times > 0:
            self.times -= 1
            expired = {"error": "ExpiredToken", "message": "Token has expired"}
            return httpx.Response(400, json=expired)
        return self.real.handle_request(request)


def broken(jwt: str) -> str:
    """The same token with a wrong signature: well formed, refused by the PDS."""
    head, _, sig = jwt.rpartition(".")
    return f"{head}.{sig[::-1]}"


def seed(pds: LocalPds, account: Account, state_dir: Path) -> tuple[SessionStore, StoredSession]:
    """Store the session the PDS gave with ``createAccount``, as a login would have."""
    store = SessionStore(state_dir)
    stored = StoredSession(pds.url, account.did, account.handle, account.access_jwt,
                           account.refresh_jwt)
    store.save(stored)
    return store, stored


def tamper(store: SessionStore, stored: StoredSession, *, refresh: bool = False) -> None:
    store.save(StoredSession(
        stored.pds_url, stored.did, stored.handle, broken(stored.access_jwt),
        broken(stored.refresh_jwt) if refresh else stored.refresh_jwt,
    ))


def test_login_by_handle_and_by_did(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    for identifier in (account.handle, account.did, "@" + account.handle.upper()):
        with Session.login(pds.url, identifier, account.password, state_dir=tmp_path) as session:
            assert (session.did, session.handle) == (account.did, account.handle)
            assert session.pds_url == pds.url
            assert session.query(GET_SESSION)["did"] == account.did


def test_a_second_load_reuses_the_stored_session(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    seen = Observed()
    first = Session.load_or_login(
        account.handle, account.password, pds_url=pds.url, state_dir=tmp_path, transport=seen
    )
    first.close()
    again = Session.load_or_login(account.did, pds_url=pds.url, state_dir=tmp_path, transport=seen)
    with again:
        assert again.query(GET_SESSION)["handle"] == account.handle
    assert seen.count("com.atproto.server.createSession") == 1
    assert seen.count("com.atproto.server.refreshSession") == 0


def test_the_session_file_is_private_and_holds_no_password(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    Session.login(pds.url, account.handle, account.password, state_dir=state).close()
    store = SessionStore(state)
    files = list(store.directory.iterdir())
    assert files == [store.path_for(pds.url, account.did)]
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    data = json.loads(files[0].read_text())
    assert (data["did"], data["handle"], data["pdsUrl"]) == (account.did, account.handle, pds.url)
    assert account.password not in files[0].read_text()
    # One file per (PDS URL, DID): another PDS has no session for this account.
    assert store.load(pds.url, account.handle.upper()) is not None
    assert store.load("http://127.0.0.1:9", account.did) is None
    # A temporary file left by a crash mid-write is never taken for a session.
    (store.directory / ".tmp-left.json").write_text(files[0].read_text().replace(pds.url, "http://x.invalid"))
    assert store.load("http://x.invalid", account.did) is None


def test_a_token_the_pds_refuses_is_renewed_once_and_the_call_succeeds(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    store, before = seed(pds, account, tmp_path)
    tamper(store, before)
    seen = Observed()
    with Session.load_or_login(
        account.handle, pds_url=pds.url, state_dir=tmp_path, transport=seen
    ) as session:
        assert session.query(GET_SESSION)["did"] == account.did
        with session.stream("com.atproto.sync.getRepo", {"did": account.did}) as chunks:
            assert b"".join(chunks)
    assert seen.calls[:3] == [GET_SESSION, "com.atproto.server.refreshSession", GET_SESSION]
    assert seen.count("com.atproto.server.refreshSession") == 1
    assert seen.count("com.atproto.server.createSession") == 0
    after = store.load(pds.url, account.did)
    assert after is not None and after.refresh_jwt != before.refresh_jwt  # rotated and saved
    assert list(store.directory.iterdir()) == [store.path_for(pds.url, account.did)]


def test_an_expired_token_is_refreshed_once_then_the_call_is_retried_once(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    """Injected: ExpiredToken answers to getSession (real tokens expire only after hours)."""
    seed(pds, account, tmp_path)
    seen = Observed(expire={GET_SESSION}, times=1)
    session = Session.load_or_login(
        account.handle, pds_url=pds.url, state_dir=tmp_path, transport=seen
    )
    assert session.query(GET_SESSION)["did"] == account.did
    assert seen.calls == [GET_SESSION, "com.atproto.server.refreshSession", GET_SESSION]

    seen.calls.clear()
    seen.times = 5  # still expired after the refresh: the error surfaces, no loop
    with pytest.raises(XrpcError) as caught:
        session.query(GET_SESSION)
    assert caught.value.error == "ExpiredToken"
    assert seen.calls == [GET_SESSION, "com.atproto.server.refreshSession", GET_SESSION]
    session.close()


def test_a_refused_refresh_without_password_says_how_to_log_in(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    tamper(*seed(pds, account, tmp_path), refresh=True)
    with Session.load_or_login(account.handle, pds_url=pds.url, state_dir=tmp_path) as session:
        with pytest.raises(SessionError) as caught:
            session.query(GET_SESSION)
    assert str(caught.value).startswith(
        f"{account.did}: session expired; set ATP_AUTH_PASSWORD or run pdsmem login ("
    )


def test_a_refused_refresh_with_a_password_logs_in_again(
    pds: LocalPds, account: Account, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tamper(*seed(pds, account, tmp_path), refresh=True)
    monkeypatch.setenv("ATP_AUTH_PASSWORD", account.password)
    seen = Observed()
    with Session.load_or_login(
        account.handle, pds_url=pds.url, state_dir=tmp_path, transport=seen
    ) as session:
        assert session.query(GET_SESSION)["did"] == account.did
    assert seen.calls == [
        GET_SESSION, "com.atproto.server.refreshSession", "com.atproto.server.createSession",
        GET_SESSION,
    ]
    with Session.load_or_login(account.handle, pds_url=pds.url, state_dir=tmp_path) as session:
        assert session.query(GET_SESSION)["did"] == account.did  # the new login was saved


def test_a_bad_password_is_named_as_such(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    with pytest.raises(SessionError) as caught:
        Session.login(pds.url, account.handle, "wrong-password", state_dir=tmp_path)
    assert str(caught.value) == (
        f"the PDS refused the app password for {account.handle}: Invalid identifier or "
        "password; check ATP_AUTH_PASSWORD"
    )
    assert not (tmp_path / "sessions").exists() or not list((tmp_path / "sessions").iterdir())


def test_no_stored_session_and_no_password(pds: LocalPds, account: Account, tmp_path: Path) -> None:
    with pytest.raises(SessionError) as caught:
        Session.load_or_login(account.handle, pds_url=pds.url, state_dir=tmp_path)
    assert str(caught.value) == (
        f"no stored session for {account.handle} at {pds.url}; set ATP_AUTH_PASSWORD or run "
        "pdsmem login"
    )
    with pytest.raises(SessionError, match="no account given; set ATP_AUTH_HANDLE"):
        Session.load_or_login(pds_url=pds.url, state_dir=tmp_path)


def test_environment_variables(
    pds: LocalPds, account: Account, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ATP_AUTH_HANDLE", account.handle)
    monkeypatch.setenv("ATP_AUTH_PASSWORD", account.password)
    monkeypatch.setenv("ATP_PDS_HOST", pds.url)
    monkeypatch.setenv("PDSMEM_STATE_DIR", str(tmp_path))
    assert default_state_dir() == tmp_path
    with Session.load_or_login() as session:
        assert session.did == account.did
    assert SessionStore().path_for(pds.url, account.did).is_file()


def test_without_a_pds_url_the_did_document_names_the_pds(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    with Session.load_or_login(
        account.did, account.password, plc_url=pds.plc_url, state_dir=tmp_path
    ) as session:
        assert session.pds_url == pds.public_url
        assert session.query(GET_SESSION)["did"] == account.did


@pytest.mark.pds
def test_a_did_no_directory_knows_is_named_once_with_what_to_check(pds: LocalPds, tmp_path: Path) -> None:
    missing = "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"
    with pytest.raises(SessionError) as caught:
        Session.load_or_login(missing, "pw", plc_url=pds.plc_url, state_dir=tmp_path)
    assert str(caught.value) == (
        f"cannot find the PDS of {missing}: the PLC directory at {pds.plc_url} does not know this DID "
        "(HTTP 404) (check the DID's spelling, or give the account's handle; if the DID is right, pass --pds (or set "
        "ATP_PDS_HOST) with the URL of the account's PDS)"
    )


def test_default_state_dir_follows_the_platform(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_state_dir() == tmp_path / "pdsmem"
    monkeypatch.setenv("PDSMEM_STATE_DIR", "~/elsewhere")
    assert default_state_dir() == Path(os.path.expanduser("~/elsewhere"))


def test_logout_ends_the_session_and_removes_its_file(
    pds: LocalPds, account: Account, tmp_path: Path
) -> None:
    session = Session.login(pds.url, account.handle, account.password, state_dir=tmp_path)
    path = SessionStore(tmp_path).path_for(pds.url, account.did)
    assert path.is_file()
    session.logout()
    assert not path.exists()
    with pytest.raises(SessionError, match="refused to renew the session"):
        session.refresh()
    session.close()


def test_secrets_never_reach_logs_reprs_or_errors(
    pds: LocalPds, account: Account, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []
    store = SessionStore(tmp_path)
    session = Session.login(pds.url, account.handle, account.password, store=store)
    stored = store.load(pds.url, account.did)
    assert stored is not None
    secrets = {account.password, stored.access_jwt, stored.refresh_jwt}
    texts += [repr(session), repr(stored), str(stored), repr(store), repr(session.xrpc)]
    tamper(store, stored, refresh=True)
    reloaded = Session.load_or_login(account.handle, pds_url=pds.url, state_dir=tmp_path)
    wrong = account.password + "x"
    for call in (lambda: reloaded.query(GET_SESSION),
                 lambda: Session.login(pds.url, account.handle, wrong, store=store)):
        with pytest.raises(SessionError) as caught:
            call()
        texts += [str(caught.value), repr(caught.value), str(caught.value.__cause__)]
    secrets |= {broken(stored.access_jwt), broken(stored.refresh_jwt), wrong}
    texts.append(caplog.text)
    assert "logged in to" in caplog.text  # the log was captured
    for text in texts:
        for secret in secrets:
            assert secret not in text
    session.close()
    reloaded.close()


def test_the_store_lists_every_readable_session_and_skips_broken_files(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SessionStore(tmp_path)
    alice = StoredSession("http://127.0.0.1:2583", "did:plc:ewvi7nxzyoun6zhxrhs64oiz", "Alice.test", "a1", "r1")
    bob = StoredSession("https://pds.example.com", "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", "bob.example.com", "a2", "r2")
    assert store.sessions() == []  # no directory yet
    paths = [store.save(alice), store.save(bob)]
    (store.directory / "broken.json").write_text("{not json")
    (store.directory / "wrong-shape.json").write_text('{"did": 1}')
    (store.directory / ".tmp-half-written.json").write_text("{")
    with caplog.at_level("WARNING"):
        found = store.sessions()
    assert found == [s for _, s in sorted(zip(paths, [alice, bob]))]
    assert sorted(r.getMessage() for r in caplog.records) == [
        f"ignoring the session file {store.directory / 'broken.json'}: it is damaged: not JSON (move it aside "
        "and sign in again; 'pdsmem status' lists such files)",
        f"ignoring the session file {store.directory / 'wrong-shape.json'}: it is damaged, or written by another "
        "version (move it aside and sign in again; 'pdsmem status' lists such files)",
    ]
    with caplog.at_level("WARNING"):
        caplog.clear()
        store.sessions()  # regression: a command that reads the sessions twice warned twice
    assert caplog.records == []
    assert store.load("http://127.0.0.1:2583/", "alice.TEST") == alice
    assert store.load("https://pds.example.com", alice.did) is None  # another PDS
