"""The hostile-input corpus (``tests/hostile/``) against the mappers, the repository reader and
the command line.

Every case must end in its declared outcome: refused with a specific ``PdsmemError`` subclass
whose message says what is wrong (the CLI: a non-zero exit and an ``Error: …`` line naming the
line or record), or contained (processed, its hostile part neutralised). Never another exception,
never a traceback, never a hang (each test runs under ``deadline``). Where a case sits among
valid items, the valid ones are counted on the way out. Cases that expose a known wrong
behaviour are strict xfails whose reason names it. ``docs/reliability.md`` counts the cases.
"""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hostile import cars, cars_handmade, events, forged, handmade, jsonl, records
from hostile.outcomes import CASE_TIME_LIMIT, Contained, Hang, Refused, deadline

from pdsmem.bridge.pipelines.importer import Importer
from pdsmem.bridge.atproto.repo import RecordFailure, verify_repo
from pdsmem.bridge.pipelines.state import State
from pdsmem.cli import cli
from pdsmem.errors import VerificationError
from pdsmem.mapping.from_record import from_records
from pdsmem.mapping.records import Imported, RecordView
from pdsmem.mapping.to_record import to_records

RECORD_CASES = records.generated_cases() + handmade.all_cases() + forged.forged_cases()
TEXT_CASES = jsonl.text_cases()
EVENT_CASES = events.all_cases()
CAR_CASES = cars.generated_cases() + cars_handmade.all_cases()
SCOPE = records.SCOPE
FROM_RECORD = ["convert", "from-record", "--did", SCOPE.did, "--agent-id", SCOPE.agent_id,
               "--profile-id", SCOPE.profile_id, "--salt", SCOPE.salt]
CAR_OPTIONS = ["--did", cars.DID, "--signing-key", cars.KEY.did_key]


def params(cases: Sequence[Any], bug: Callable[[Any], str | None] = lambda case: case.bug) -> list:
    out = []
    for case in cases:
        reason = bug(case)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


@pytest.fixture(autouse=True)
def bounded() -> Iterator[None]:
    with deadline():
        yield


def test_a_hang_is_interrupted_and_the_outer_bound_kept() -> None:
    with pytest.raises(Hang):
        with deadline(0.05):
            time.sleep(5)
    remaining, _ = signal.getitimer(signal.ITIMER_REAL)
    assert 0 < remaining <= CASE_TIME_LIMIT  # the per-test bound from `bounded` still runs


def test_the_corpus_is_large_and_its_names_unique() -> None:
    every = [case.name for group in (RECORD_CASES, TEXT_CASES, EVENT_CASES, CAR_CASES) for case in group]
    assert len(every) >= 200
    assert len(set(every)) == len(every), "two cases share a name"


def run(args: list[str], stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the command crashed: {result.exception!r}") from result.exception
    assert "Traceback" not in result.stderr
    assert not PYTHON_INTERNALS.search(result.stderr), result.stderr  # regression: key b'…', got NoneType
    return result


# What a message must never show: Python's names and reprs mean nothing to the person reading.
PYTHON_INTERNALS = re.compile(
    r"NoneType|bytearray|memoryview|<class |Cid\(|(?<![\w$])b'|\bgot (None|True|False)\b"
    r"|\b(is a|got) (int|str|dict|list|tuple)\b"
)


def error_lines(result: Result) -> list[str]:
    """The ``Error: …`` lines on stderr; anything else there must be a command's summary."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("Error: ")]
    others = [line for line in lines if line not in errors]
    assert all(re.fullmatch(r"\d+ valid|Imported .*|Invalid: .*|\d+ of \d+ lines refused or failed, each named above", line) for line in others), others
    return errors


def assert_refused_on_line_two(result: Result, says: str) -> None:
    assert result.exit_code == 3, result.stderr
    problems = error_lines(result)
    assert len(problems) == 1 and problems[0].startswith("Error: line 2"), problems
    assert says in problems[0], problems[0]


# --- records: the import mapper ---------------------------------------------------------------


@pytest.mark.parametrize("case", params(RECORD_CASES))
def test_record_import(case: records.RecordCase) -> None:
    good = records.good_views()
    ok, failed = from_records([good[0], case.item, good[1]], SCOPE)
    for item in ok:
        if item.record.uri in (view["uri"] for view in good):
            assert records.untrusted(item) is None
    if isinstance(case.outcome, Refused):
        assert [failure.position for failure in failed] == [1]
        problem = case.outcome.problem(failed[0].error)
        assert problem is None, problem
        assert failed[0].error.item == 1
        assert [item.record.uri for item in ok] == [view["uri"] for view in good]
        return
    assert failed == [], [str(failure.error) for failure in failed]
    assert [item.record.uri for item in ok] == [good[0]["uri"], case.item["uri"], good[1]["uri"]]
    _assert_contained(case.outcome, ok[1])


def _assert_contained(outcome: Contained, item: Any) -> None:
    if outcome.says is not None:
        assert any(outcome.says in note for note in item.notes), item.notes
    if outcome.check is not None:
        problem = outcome.check(item)
        assert problem is None, problem


@pytest.mark.parametrize("case", params(forged.supersession_batches(), lambda case: None))
def test_supersession_batch(case: forged.BatchCase) -> None:
    views = [records.view(value, rkey) for rkey, value in case.values.items()]
    ok, failed = from_records(views, SCOPE)
    assert failed == []
    by_rkey = {item.record.uri.rsplit("/", 1)[1]: item for item in ok}
    assert {rkey for rkey, item in by_rkey.items() if not item.event["active"]} == case.inactive
    for rkey, targets in case.links.items():
        assert by_rkey[rkey].supersedes == [records.uri(target) for target in targets]


# --- records: the command line ----------------------------------------------------------------


def _three_lines(item: Any) -> bytes:
    good = records.good_views()
    return "\n".join(jsonl.json_text(value) for value in (good[0], item, good[1])).encode() + b"\n"


@pytest.mark.parametrize("case", params(RECORD_CASES))
def test_record_cli_from_record(case: records.RecordCase) -> None:
    result = run(FROM_RECORD, _three_lines(case.item))
    written = [json.loads(line)["record"]["uri"] for line in result.stdout.splitlines()]
    good = [view["uri"] for view in records.good_views()]
    if isinstance(case.outcome, Refused):
        assert_refused_on_line_two(result, case.cli_says or case.outcome.says)
        assert written == good
    else:
        assert result.exit_code == 0, result.stderr
        assert written == [good[0], case.item["uri"], good[1]]
        _assert_contained(case.outcome, _imported(json.loads(result.stdout.splitlines()[1])))


def _imported(obj: dict) -> Imported:
    """An ``Imported`` back from the JSON object ``from-record`` writes."""
    links = obj["links"]
    return Imported(event=obj["event"], record=RecordView(**obj["record"]),
                    supersedes=links["supersedes"], notes=links.get("notes", []))


@pytest.mark.parametrize(
    "case", params([c for c in RECORD_CASES if c.has_value], lambda case: case.validate_bug)
)
def test_record_cli_validate(case: records.RecordCase) -> None:
    result = run(["validate"], _three_lines(case.item))
    if case.validate is None:
        assert result.exit_code == 0, result.stderr
        assert "3 valid" in result.stderr
    else:
        assert_refused_on_line_two(result, case.validate)


@pytest.mark.parametrize("case", params(TEXT_CASES))
@pytest.mark.parametrize("command", ["from-record", "validate"])
def test_text_line_cli(case: jsonl.TextCase, command: str) -> None:
    good = records.good_views()
    stdin = b"\n".join([jsonl.json_text(good[0]).encode(), case.line, jsonl.json_text(good[1]).encode()])
    says = case.from_record if command == "from-record" else case.validate
    result = run(FROM_RECORD if command == "from-record" else ["validate"], stdin + b"\n")
    if says is None:
        assert result.exit_code == 0, result.stderr
    else:
        assert_refused_on_line_two(result, says)
    if command == "from-record":
        assert [json.loads(line)["record"]["uri"] for line in result.stdout.splitlines()] == [v["uri"] for v in good]


# --- events: the export mapper ----------------------------------------------------------------


@pytest.mark.parametrize("case", params(EVENT_CASES))
def test_event_export(case: events.EventCase) -> None:
    good = events.neighbours()
    options = dict(publish_private=case.publish_private, include_transcript=case.include_transcript)
    expected, _ = to_records(good, records.DID, **options)
    ok, failed = to_records([good[0], case.item, good[1]], records.DID, **options)
    if isinstance(case.outcome, Refused):
        assert [failure.position for failure in failed] == [1]
        problem = case.outcome.problem(failed[0].error)
        assert problem is None, problem
        assert failed[0].error.item == 1
        assert [view.uri for view in ok] == [view.uri for view in expected]
    else:
        assert failed == [], [str(failure.error) for failure in failed]
        assert len(ok) == 3 and {view.uri for view in expected} <= {view.uri for view in ok}


# --- CARs: the repository reader, the importer, the command line ------------------------------


def _failing(case: cars.CarCase, memory_only: bool) -> dict[str, str]:
    failing = dict(case.broken_blocks)
    failing.update(case.invalid_records)
    prefix = cars.COLLECTION + "/"
    return {cars.uri(path): says for path, says in failing.items() if not memory_only or path.startswith(prefix)}


@pytest.mark.parametrize("case", params(CAR_CASES))
def test_car_verify_repo(case: cars.CarCase) -> None:
    stream = cars.chunks(case.car, 7)
    if case.refused is not None:
        with pytest.raises(VerificationError) as info:
            verify_repo(stream, did=cars.DID, signing_key=cars.KEY.did_key).close()
        assert case.refused in str(info.value)
        return
    with verify_repo(stream, did=cars.DID, signing_key=cars.KEY.did_key) as repo:
        items = list(repo.records())
        assert repo.record_count == case.entries
    failures = {str(item.uri): item.reason for item in items if isinstance(item, RecordFailure)}
    expected = {cars.uri(path): says for path, says in case.broken_blocks.items()}
    assert set(failures) == set(expected)
    for uri, says in expected.items():
        assert says in failures[uri], failures[uri]
    assert len(items) - len(failures) == case.entries - len(expected)


@pytest.mark.parametrize("case", params(CAR_CASES))
def test_car_import(case: cars.CarCase, tmp_path: Path) -> None:
    path = tmp_path / "repo.car"
    path.write_bytes(case.car)
    with State(tmp_path / "state") as state:
        importer = Importer(state, agent_id=SCOPE.agent_id, profile_id=SCOPE.profile_id, salt=SCOPE.salt)
        if case.refused is not None:
            with pytest.raises(VerificationError) as info:
                importer.from_car(path, did=cars.DID, signing_key=cars.KEY.did_key).close()
            assert (case.open_says or case.refused) in str(info.value)
            return
        batch = importer.from_car(path, did=cars.DID, signing_key=cars.KEY.did_key)
        batch.close()  # its counts and failures stay readable
    assert batch.count("create") == case.created
    expected = _failing(case, memory_only=True)
    reasons = {problem.uri: problem.reason for problem in batch.failures}
    assert set(reasons) == set(expected)
    for uri, says in expected.items():
        assert says in reasons[uri], reasons[uri]


@pytest.mark.parametrize("case", params(CAR_CASES))
def test_car_cli_verify(case: cars.CarCase, tmp_path: Path) -> None:
    path = tmp_path / "repo.car"
    path.write_bytes(case.car)
    result = run(["verify", str(path), *CAR_OPTIONS, "--state-dir", str(tmp_path / "state")])
    problems = error_lines(result)
    if case.refused is not None:
        assert result.exit_code == 1
        assert len(problems) == 1 and (case.open_says or case.refused) in problems[0], problems
    else:  # broken blocks fail the repository; invalid records are listed apart (exit 0)
        assert result.exit_code == (1 if case.broken_blocks else 0), result.stderr
        broken = {cars.uri(path): says for path, says in case.broken_blocks.items()}
        invalid = {cars.uri(path): says for path, says in case.invalid_records.items()}
        for uri, says in broken.items():
            assert any(line.startswith(f"Error: {uri}: ") and says in line for line in problems), (uri, problems)
        assert len(problems) == len(broken)
        listed = [line for line in result.stderr.splitlines() if line.startswith("Invalid: ")]
        for uri, says in invalid.items():
            assert any(line.startswith(f"Invalid: {uri}: ") and says in line for line in listed), (uri, listed)
        assert len(listed) == len(invalid)
        assert f"invalidRecords\t{len(invalid)}" in result.stdout
        assert f"records\t{case.entries}" in result.stdout


@pytest.mark.parametrize("case", params(CAR_CASES))
def test_car_cli_import(case: cars.CarCase, tmp_path: Path) -> None:
    path = tmp_path / "repo.car"
    path.write_bytes(case.car)
    result = run(["import", "--from", str(path), *CAR_OPTIONS, "--agent-id", SCOPE.agent_id,
                  "--profile-id", SCOPE.profile_id, "--accept-unsalted-scope", "--state-dir", str(tmp_path / "state")])
    problems = error_lines(result)
    if case.refused is not None:
        assert result.exit_code == 1
        assert len(problems) == 1 and (case.open_says or case.refused) in problems[0], problems
        assert result.stdout == ""
        return
    expected = _failing(case, memory_only=True)
    assert result.exit_code == (0 if not expected else 3 if case.created else 1), result.stderr
    assert len(result.stdout.splitlines()) == case.created
    for uri, says in expected.items():
        assert any(line.startswith(f"Error: {uri}: ") and says in line for line in problems), (uri, problems)
