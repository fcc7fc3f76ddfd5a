"""The library's calls that the command line's sign-in, status, lexicon and validate commands make,
called as a library (docs/library.md), without a server: the command line's own tests run them
against a real PDS."""

from __future__ import annotations

import io
import json
import socket
from pathlib import Path

import pytest
from devkit.events import fact

from pdsmem import api
from pdsmem.bridge.signin.session_store import SessionStore, StoredSession
from pdsmem.errors import (
    EXIT_FAILED, InvalidSyntax, LexiconError, PdsmemError, RecordInvalid, SessionError, StateError, UsageError,
)

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_sign_in_without_a_password_names_the_variable_before_any_request(tmp_path: Path) -> None:
    """Regression: without a password or a kept session, sign_in first looked the account's PDS up,
    and failed with that lookup's error (a .test handle has no DNS, a PLC directory away is a
    TransientError) instead of saying that there is no password."""
    nowhere = f"http://127.0.0.1:{closed_port()}"  # any request would fail as unreachable
    SessionStore(tmp_path).save(StoredSession(nowhere, "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa", "bob.test", "a", "r"))
    for account, password in (("alice.test", None), ("@Alice.test", ""), (DID, None)):
        with pytest.raises(SessionError) as caught:
            api.sign_in(account, password, plc_url=nowhere, state_dir=tmp_path)
        name = account.removeprefix("@").lower()
        assert str(caught.value) == (
            f"no stored session for {name} and no app password to log in with (set ATP_AUTH_PASSWORD to an "
            "app password, or sign in once with pdsmem login)"
        )
        assert caught.value.exit_code == EXIT_FAILED


def test_sign_in_checks_the_name_before_saying_there_is_no_password(tmp_path: Path) -> None:
    with pytest.raises(InvalidSyntax):
        api.sign_in("not a handle", state_dir=tmp_path)


def test_an_empty_recall_gives_no_context() -> None:
    """Regression: ``as_context()`` of a recall that found nothing was the untrusted-context
    notice alone, which an agent given it would read as a memory block."""
    assert api.Recall(hits=[], method="words", notes=[]).as_context() == ""
    found = api.Recall(hits=[api.Hit("MEMORY_FACT", "f1", "The user drinks oat milk.", 0.5)], method="vector", notes=[])
    context = found.as_context()
    assert context.startswith("Recalled memory: untrusted historical context")
    assert '"The user drinks oat milk."' in context


def test_kept_sessions_are_listed_and_logged_out_without_their_tokens(tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{closed_port()}"
    store = SessionStore(tmp_path)
    store.save(StoredSession(nowhere, DID, "alice.test", "access-token", "refresh-token"))
    kept = api.kept_sessions(state_dir=tmp_path)
    assert kept == [api.KeptSession("alice.test", DID, nowhere)]
    assert "token" not in repr(kept)
    assert api.kept_sessions("@ALICE.test", state_dir=tmp_path) == kept
    assert api.kept_sessions("alice.test", pds_url="http://127.0.0.1:9", state_dir=tmp_path) == []
    assert api.sessions_directory(tmp_path) == tmp_path / "sessions"

    with pytest.raises(PdsmemError, match=f"no stored session for alice.test at http://127.0.0.1:9 in "):
        api.log_out("alice.test", pds_url="http://127.0.0.1:9", state_dir=tmp_path)  # kept for another PDS
    [ended] = api.log_out("alice.test", state_dir=tmp_path)
    assert (ended.handle, ended.did, ended.oauth) == ("alice.test", DID, False)
    assert ended.problem == f"cannot reach the PDS at {nowhere}: connection refused"
    assert api.kept_sessions(state_dir=tmp_path) == [] and list(store.directory.iterdir()) == []
    assert api.log_out("alice.test", state_dir=tmp_path) == []  # nothing kept: nothing to end


def test_the_status_of_an_empty_state_directory_is_empty_and_creates_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    found = api.status(state)
    assert found == api.Status(state_dir=state)
    assert not state.exists()
    assert api.state_directory(state) == state


def test_a_rushdb_project_is_named_without_connecting() -> None:
    target = api.rushdb_target("key", "http://user:secret@127.0.0.1:9")
    assert target.shown == "RushDB at http://***@127.0.0.1:9"
    with pytest.raises(InvalidSyntax, match="carries a user name or password"):
        target.key
    assert api.rushdb_target("key").key != api.rushdb_target("other key").key


def test_records_are_validated_against_the_shipped_lexicons_and_those_given() -> None:
    record = api.to_record(fact(1), DID)
    validator = api.RecordValidator()
    validator.validate(record.value)
    validator.validate(record.to_json())  # a view: its record key is checked too
    with pytest.raises(RecordInvalid):
        validator.validate({**record.value, "content": 7})
    with pytest.raises(InvalidSyntax):
        validator.validate({**record.to_json(), "uri": "not an at-uri"})
    thing = {"lexicon": 1, "id": "com.example.thing", "defs": {"main": {
        "type": "record", "key": "any", "record": {"type": "object", "required": ["n"],
                                                   "properties": {"n": {"type": "integer"}}}}}}
    validator.add(thing)
    validator.validate({"n": 1}, nsid="com.example.thing")
    with pytest.raises(RecordInvalid):
        validator.validate({"$type": "com.example.thing", "n": "one"})
    with pytest.raises(LexiconError):
        api.RecordValidator([thing, thing])  # the same NSID twice


def test_inputs_are_checked_as_the_command_line_checks_them() -> None:
    assert api.check_did(DID) == DID
    assert api.check_handle_or_did(" @alice.test") == "alice.test"
    assert api.check_nsid("dev.pdsmem.agentMemory") == "dev.pdsmem.agentMemory"
    for check, bad in ((api.check_did, "did:nope"), (api.check_nsid, "nsid"), (api.check_handle_or_did, "a b")):
        with pytest.raises(InvalidSyntax):
            check(bad)
    assert api.base_url("https://pds.example.com/") == "https://pds.example.com"
    with pytest.raises(InvalidSyntax, match="the RushDB URL"):
        api.base_url("ftp://x", what="the RushDB URL")
    assert api.masked_url("https://me:pw@pds.example.com") == "https://***@pds.example.com"
    parts = ("discord", "coder", "user-42")
    assert api.hash_scope(parts, "s") == api.Scope("a", "p", participant_parts=parts, salt="s").participant
    with pytest.raises(PdsmemError, match="not valid JSON"):
        api.parse_json(b"{")
    lines = list(api.json_lines(io.BytesIO(b'{"a": 1}\n\n[1]\n\xff\n')))
    assert [number for number, _ in lines] == [1, 3, 4]
    assert lines[0][1] == {"a": 1}
    assert [str(error) for _, error in lines[1:]] == [
        "line 3: expected a JSON object on each line", "line 4: not valid UTF-8 text (byte 0xff at column 1)"]


def test_the_shipped_lexicons_and_their_authorities() -> None:
    shipped = api.shipped_lexicons()
    assert sorted(shipped) == ["dev.bastienrobert.memory.record", "dev.pdsmem.agentMemory"]
    assert api.lexicon_authority("dev.pdsmem.agentMemory") == "pdsmem.dev"
    assert api.event_schema().lstrip().startswith("{")


# -- what a new developer handed the library by mistake (a try from the docs alone): each is a
# UsageError that says what to pass, before anything is read or written

def test_a_scope_that_is_no_scope_is_named_before_anything_is_read(tmp_path: Path) -> None:
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    scope = {"agentId": "coder", "profileId": "default"}
    for call in (lambda: api.sync("alice.test", scope, store, state_dir=tmp_path),  # type: ignore[arg-type]
                 lambda: api.import_repository("alice.test", scope, state_dir=tmp_path),  # type: ignore[arg-type]
                 lambda: api.recall(store, scope, "tea"),  # type: ignore[arg-type]
                 lambda: list(api.list_memories(store, scope)),  # type: ignore[arg-type]
                 lambda: api.follow("alice.test", scope, store),  # type: ignore[arg-type]
                 lambda: api.FromRushDB(store, scope)):  # type: ignore[arg-type]
        with pytest.raises(UsageError, match="not a pdsmem.Scope"):
            call()


def test_a_scope_checks_its_own_fields() -> None:
    with pytest.raises(UsageError, match="line break"):
        api.Scope("plan ner\n", "default", salt="s")
    with pytest.raises(UsageError, match="must be a string"):
        api.Scope(5, "default", salt="s")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="not a single string"):
        api.Scope("coder", "default", participant_parts="user-77", salt="s")  # type: ignore[arg-type]
    assert api.Scope("coder", "default", participant_parts=["user", "77"], salt="s").participant_parts == ("user", "77")


def test_a_malformed_did_and_a_url_without_its_scheme_are_refused_before_any_request() -> None:
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    scope = api.Scope("coder", "default", salt="s")
    with pytest.raises(UsageError, match="did:plc"):
        api.recall(store, scope, "tea", did="did:plc:zz")
    with pytest.raises(UsageError, match="did:"):
        list(api.list_memories(store, scope, did="alice"))
    with pytest.raises(UsageError, match="RushDB URL must look like https://host"):
        api.rushdb("key", "127.0.0.1:14996")


def test_rushdb_and_state_errors_are_public_names() -> None:
    from pdsmem.bridge.pipelines.state import StateError as Inner
    from pdsmem.bridge.rushdb.store import RushDBError as Bridged
    from pdsmem.errors import RushDBError, RushDBRefused, StateError

    assert Bridged is RushDBError and Inner is StateError and issubclass(RushDBRefused, RushDBError)


def test_check_privacy_checks_a_fact_that_supersedes_another() -> None:
    """Regression: a fact with supersedesFactId raised MappingError (its record unknown), so a
    runtime that checked each memory before exporting it stopped on every edit."""
    def event(n: int, **fields: object) -> dict:
        plain = {key: value for key, value in fact(n).items() if key != "factId"}
        return api.with_ids({**plain, **fields})

    first = event(1)
    assert api.check_privacy(event(2, supersedesFactId=first["factId"])) is None
    refusal = api.check_privacy(event(2, supersedesFactId=first["factId"], text="The wifi password is hunter22"))
    assert refusal is not None and refusal.field == "$.text" and "hunter22" not in repr(refusal)


def test_export_takes_a_list_and_names_an_item_that_is_no_event(pds, account, tmp_path: Path) -> None:
    session = api.sign_in(account.did, account.password, pds_url=pds.url, state_dir=tmp_path)
    try:
        with pytest.raises(UsageError, match="one event, not a list"):
            api.export(session, fact(1), state_dir=tmp_path)  # type: ignore[arg-type]
        report = api.export(session, [42, fact(1)], state_dir=tmp_path, dry_run=True)  # type: ignore[list-item]
        assert report.created == 1
        assert [(o.where, o.status) for o in report.failed] == [("memories:1", "failed")]
        assert "an integer, not an event" in report.failed[0].reason
    finally:
        session.close()


def test_what_is_no_list_of_events_is_named_without_quoting_it(pds, account, tmp_path: Path) -> None:
    """Regression (a try with Hermes's own provider): a string of JSON where a path goes was quoted in
    "no such file or directory: {…}", or raised Python's OSError (a name too long) with the memory in
    it; bytes were read as integers; no session raised AttributeError."""
    session = api.sign_in(account.did, account.password, pds_url=pds.url, state_dir=tmp_path)
    secret = "Mein eBay-Passwort lautet Hafenkran!73"
    try:
        for memories in ('{"text": "%s"}' % secret, json.dumps({**fact(1), "text": secret * 20})):
            with pytest.raises(UsageError, match="a string of JSON, not a path") as caught:
                api.export(session, memories, state_dir=tmp_path)
            assert "Hafenkran" not in str(caught.value)
        with pytest.raises(UsageError, match="no such file or directory: \\(a path of 300 characters\\)"):
            api.export(session, "x" * 300, state_dir=tmp_path)
        with pytest.raises(UsageError, match="bytes"):
            api.export(session, b"{}", state_dir=tmp_path)  # type: ignore[arg-type]
    finally:
        session.close()
    with pytest.raises(UsageError, match="not a signed-in session"):
        api.export(None, [fact(1)], state_dir=tmp_path)  # type: ignore[arg-type]


# -- what a new developer handed the library by mistake (a try of pdsmem as a library, with the
# real servers: each of these escaped `except PdsmemError` as Python's AttributeError, TypeError or
# RuntimeError, or failed later than it had to)

def _scope() -> api.Scope:
    return api.Scope("coder", "default", salt="s")


def test_a_store_that_pdsmem_rushdb_did_not_make_is_a_usage_error_before_any_request(tmp_path: Path) -> None:
    """Regression: sync(…, "http://…") raised AttributeError ('str' object has no attribute 'target')."""
    for store in ("http://127.0.0.1:3000", None, {"url": "x"}):
        for call in (lambda: api.sync(DID, _scope(), store, state_dir=tmp_path),
                     lambda: api.recall(store, _scope(), "tea", did=DID),
                     lambda: list(api.list_memories(store, _scope(), did=DID)),
                     lambda: api.follow(DID, _scope(), store),
                     lambda: api.ensure_indexes(store),
                     lambda: api.FromRushDB(store, _scope())):
            with pytest.raises(UsageError, match="the store is .*, not a RushDB project"):
                call()


def test_a_session_or_nothing_where_a_repository_goes_is_a_usage_error(tmp_path: Path) -> None:
    """Regression: sync(None or a session, …) raised TypeError ('…' object is not iterable)."""
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    session_like = type("Session", (), {"did": DID})()  # what a session is to this check: it has a DID
    for source, hint in ((None, "a handle or DID"), (session_like, "session.did"), (42, "a handle or DID")):
        for call in (lambda: api.sync(source, _scope(), store, state_dir=tmp_path),
                     lambda: api.import_repository(source, _scope(), state_dir=tmp_path),
                     lambda: api.verify(source, state_dir=tmp_path)):
            with pytest.raises(UsageError, match="the repository is .*, not a handle, a DID or a CAR file") as caught:
                call()
            assert hint in (caught.value.hint or "")


def test_counts_strings_events_and_texts_of_the_wrong_kind_are_usage_errors(tmp_path: Path) -> None:
    """Regression: recall(limit="3") raised TypeError, limit=0 returned nothing, batch_size=0 ran,
    rushdb(None) raised TypeError and rushdb("") failed at its first request, sign_in(None) raised
    AttributeError, check_privacy(None) and check_privacy("a text") AttributeError,
    sensitive_reason(None) TypeError, import_repository(out=123) AttributeError."""
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    for limit in ("3", 0, -1, True, 2.5):
        with pytest.raises(UsageError, match="limit is .*; it must be a whole number of 1 or more"):
            api.recall(store, _scope(), "tea", did=DID, limit=limit)  # type: ignore[arg-type]
    for size in (0, -3):
        with pytest.raises(UsageError, match=f"batch_size is {size}"):
            api.sync(DID, _scope(), store, batch_size=size, state_dir=tmp_path)
    for key in (None, "", "  "):
        with pytest.raises(UsageError, match="the RushDB API key"):
            api.rushdb(key, "http://127.0.0.1:3000")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="the account is null, not a string"):
        api.sign_in(None, "pw", state_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="the password is bytes, not a string") as caught:
        api.sign_in("alice.test", b"SeCrEt-pw", state_dir=tmp_path)  # type: ignore[arg-type]
    assert "SeCrEt" not in str(caught.value)
    for event in (None, "The user prefers tea."):
        with pytest.raises(UsageError, match="the event is .*, not an AgentMemoryEvent") as caught:
            api.check_privacy(event)  # type: ignore[arg-type]
        assert "prefers tea" not in str(caught.value)
    with pytest.raises(UsageError, match="the text is null, not a string"):
        api.sensitive_reason(None)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="out is an integer, not a file path or a text stream"):
        api.import_repository(DID, _scope(), out=123, state_dir=tmp_path)  # type: ignore[arg-type]


def test_a_did_plc_of_another_shape_is_refused_by_check_pds_before_any_request() -> None:
    """Regression: check_pds asked the PDS about did:plc:xyz (UnknownAccount). (to_record takes any DID
    of the DID syntax: it maps, and names no account.)"""
    with pytest.raises(UsageError, match="did:"):
        api.check_pds(f"http://127.0.0.1:{closed_port()}", "did:plc:xyz")


def test_a_text_too_long_for_its_record_is_named_by_the_memory_not_a_stand_in_repository() -> None:
    """Regression: check_privacy named 'at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaa/…', a repository of no one."""
    event = api.with_ids(fact(1, text="a" * 10_001))
    with pytest.raises(RecordInvalid) as caught:
        api.check_privacy(event)
    assert str(caught.value).startswith(f"memory {event['factId']}, at $.content: must be at most 10000 bytes")
    assert "did:plc:aaaa" not in str(caught.value)


def test_sign_in_says_the_state_directory_cannot_be_written_before_it_logs_in(tmp_path: Path) -> None:
    """Regression: a state directory that could not be made raised FileNotFoundError after the PDS had
    opened a session, which was neither kept nor returned. Nothing listens at the PDS URL: a request
    would fail as unreachable, so the StateError shows that none was made."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(StateError, match="cannot keep sessions in .*a-file/state/sessions") as caught:
        api.sign_in("alice.test", "pw", pds_url=f"http://127.0.0.1:{closed_port()}", state_dir=blocked / "state")
    assert "PDSMEM_STATE_DIR" in (caught.value.hint or "")


def test_a_closed_session_is_a_usage_error_not_an_http_clients_runtime_error(tmp_path: Path) -> None:
    """Regression: export on a closed session raised httpx's RuntimeError ('the client has been closed')."""
    from pdsmem.bridge.signin.session import Session as Bridged

    session = Bridged(StoredSession(f"http://127.0.0.1:{closed_port()}", DID, "alice.test", "a", "r"))
    session.close()
    with pytest.raises(UsageError, match="was closed") as caught:
        api.export(session, [fact(1)], state_dir=tmp_path)
    assert "sign_in" in (caught.value.hint or "")
    assert api.status(tmp_path).unfinished_exports == []  # refused before the export's state noted a run


def test_a_relay_url_that_is_no_url_is_refused_by_follow_and_follow_error_is_public() -> None:
    """Regression: follow() took 'notaurl' and run() raised a FollowError only pdsmem.bridge named."""
    from pdsmem.errors import FollowError

    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    for relay in ("notaurl", "ftp://relay.example.com", "https://relay.example.com:99999"):
        with pytest.raises(UsageError, match="URL"):
            api.follow(DID, _scope(), store, relay_url=relay)
    assert issubclass(FollowError, PdsmemError)


def test_a_follow_stopped_before_it_runs_ends_that_run_and_the_next_run_follows_again(tmp_path: Path) -> None:
    """Regression: once stopped, every later run() returned at once, doing nothing and saying nothing."""
    nowhere = f"http://127.0.0.1:{closed_port()}"
    following = api.follow(DID, _scope(), api.rushdb("key", nowhere), pds_url=nowhere, plc_url=nowhere,
                           state_dir=tmp_path)
    following.stop()
    following.run()  # stopped before it ran: returns at once
    with pytest.raises(PdsmemError):  # this run tries: nothing answers at the PDS or the directory
        following.run()


def test_the_public_types_can_be_checked_with_isinstance(tmp_path: Path) -> None:
    """Regression: isinstance(x, pdsmem.Session) and isinstance(x, pdsmem.RushDB) raised TypeError."""
    from pdsmem.bridge.signin.session import Session as Bridged

    store = api.rushdb("key", "http://127.0.0.1:3000")
    session = Bridged(StoredSession("http://127.0.0.1:3000", DID, "alice.test", "a", "r"))
    with session:
        assert isinstance(session, api.Session) and not isinstance("alice.test", api.Session)
    assert isinstance(store, api.RushDB) and not isinstance("http://127.0.0.1:3000", api.RushDB)


def test_a_string_with_a_slash_is_a_car_files_path_not_a_malformed_handle(tmp_path: Path) -> None:
    """Regression: import_repository("./repo.car") said "expected a DID or a handle"."""
    for call in (lambda: api.import_repository("./nope/repo.car", _scope(), state_dir=tmp_path),
                 lambda: api.verify(f"{tmp_path}/repo.car", state_dir=tmp_path)):
        with pytest.raises(PdsmemError, match="cannot open the CAR file .*repo.car: No such file or directory"):
            call()


def test_what_a_review_of_the_checks_found_they_refused_or_let_through(tmp_path: Path) -> None:
    """Regressions of the checks' first form: bytes of a CAR and a NumPy-like integer were refused
    (they worked before); a CAR opened as text, a binary out, a URL of another type and a key with a
    line break escaped as TypeError, AttributeError or ValueError; check_privacy refused what
    from_record returns."""

    class Count:  # an integer type of another library, as NumPy's int64 is
        def __index__(self) -> int:
            return 3

    with pytest.raises(PdsmemError) as caught:
        api.verify(b"\x00not a car", state_dir=tmp_path)
    assert not isinstance(caught.value, UsageError)  # read as a CAR: it is no CAR
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(PdsmemError) as caught:
        api.recall(store, _scope(), "tea", did=DID, limit=Count())  # type: ignore[arg-type]
    assert not isinstance(caught.value, UsageError)  # the limit taken: RushDB is what is not there
    car = tmp_path / "repo.car"
    car.write_bytes(b"")
    with car.open("r") as text, pytest.raises(UsageError, match="opened as text"):
        api.verify(text, state_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="out is a BytesIO"):
        api.import_repository(DID, _scope(), out=io.BytesIO(), state_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="the RushDB URL is a PosixPath, not a URL"):
        api.rushdb("key", tmp_path)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="pds_url is an integer, not a URL"):
        api.sync(DID, _scope(), store, pds_url=5, state_dir=tmp_path)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="holds a line break"):
        api.rushdb("a\nb", "http://127.0.0.1:3000")
    mapped = api.from_record(api.to_record(fact(1), DID), DID, _scope())
    assert api.check_privacy(mapped) is None


def test_oauth_says_the_state_directory_cannot_be_written_before_the_sign_in_page(tmp_path: Path) -> None:
    """Regression: with a state directory it could not write, the OAuth login showed the sign-in page
    and failed only after the person signed in, the grant neither kept nor revoked."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    shown: list[str] = []
    with pytest.raises(StateError, match="cannot keep sessions"):
        api.log_in_with_oauth("alice.test", shown.append, state_dir=blocked / "state")
    assert shown == []


def test_a_state_directory_a_session_and_an_embedder_of_the_wrong_kind_are_usage_errors() -> None:
    """Regression: status(5) raised TypeError, publish_lexicon(None, …) and recall(embedder="x")
    AttributeError."""
    with pytest.raises(UsageError, match="state_dir is an integer, not a directory's path"):
        api.status(5)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="the session is null, not a signed-in session"):
        api.publish_lexicon(None, "dev.bastienrobert.memory.record")  # type: ignore[arg-type]
    store = api.rushdb("key", f"http://127.0.0.1:{closed_port()}")
    with pytest.raises(UsageError, match="the embedder is a string, not an embeddings endpoint"):
        api.recall(store, _scope(), "tea", did=DID, embedder="x")  # type: ignore[arg-type]


def test_a_password_or_a_query_in_any_servers_url_is_the_same_usage_error(tmp_path: Path) -> None:
    """Found by a new developer: a PDS URL with a password raised InvalidSyntax, while a RushDB or
    a relay URL with one raised UsageError; each is the caller's bad value, refused before any
    request and never echoed."""
    nowhere = f"127.0.0.1:{closed_port()}"
    store = api.rushdb("key", f"http://{nowhere}")
    for bad in (f"http://me:hunter22@{nowhere}", f"http://{nowhere}/?apiKey=hunter22"):
        calls = {
            "sign_in": lambda: api.sign_in("alice.test", "pw", pds_url=bad, state_dir=tmp_path),
            "sign_in plc_url": lambda: api.sign_in("alice.test", "pw", plc_url=bad, state_dir=tmp_path),
            "check_pds": lambda: api.check_pds(bad, DID),
            "sync": lambda: api.sync(DID, _scope(), store, pds_url=bad, state_dir=tmp_path),
            "rushdb": lambda: api.rushdb("key", bad),
            "follow": lambda: api.follow(DID, _scope(), store, relay_url=bad.replace("http", "ws")),
        }
        for name, call in calls.items():
            with pytest.raises(UsageError) as caught:
                call()
            assert "hunter22" not in str(caught.value), name
            assert "***" in str(caught.value), name
    for name, call in {  # a blank URL too (it raised InvalidSyntax)
        "sign_in": lambda: api.sign_in("alice.test", "pw", pds_url="  ", state_dir=tmp_path),
        "import_repository": lambda: api.import_repository(DID, _scope(), pds_url=" ", state_dir=tmp_path),
        "verify": lambda: api.verify(DID, pds_url="\t"),
        "rushdb": lambda: api.rushdb("key", "  "),  # (it went to RushDB Cloud)
    }.items():
        with pytest.raises(UsageError, match="is blank"):
            call()
