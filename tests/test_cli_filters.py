"""The offline JSON Lines filters through the real click entry point (CliRunner)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from click.testing import CliRunner

from pdsmem.cli import cli
from pdsmem.mapping import contract
from pdsmem.mapping.datamodel import cid_for_json
from devkit.events import episode, fact

DID = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
FIXTURE = "tests/fixtures/contract/conformance.v1.json"


def run(args, lines, **kw):
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    return CliRunner().invoke(cli, args, input=text, **kw)


def out_objects(result):
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def test_ids_completes_events_and_matches_the_conformance_fixture():
    with open(FIXTURE, encoding="utf-8") as handle:
        fixture = json.load(handle)
    result = run(["ids"], [{**fixture["episodeInput"], "eventType": "episode"}, fact(1)])
    assert result.exit_code == 0, result.output
    first, second = out_objects(result)
    assert first["eventId"] == fixture["expectedEventId"]
    assert second["factId"] == contract.fact_id(fact(1))


def test_ids_reports_bad_lines_with_their_number_and_exits_3():
    result = run(["ids"], [fact(1), "{broken", {"eventType": "fact"}])
    assert result.exit_code == 3
    assert len(out_objects(result)) == 1
    assert "Error: line 2: not valid JSON" in result.stderr
    assert "Error: line 3" in result.stderr and "$." in result.stderr


def test_ids_exits_1_when_nothing_succeeds():
    assert run(["ids"], ["[1, 2]"]).exit_code == 1


def test_to_record_writes_record_views_and_refuses_private_ones():
    result = run(["convert", "to-record", "--did", DID], [fact(1), episode(2), fact(3, privacyScope="private")])
    assert result.exit_code == 3
    views = out_objects(result)
    assert len(views) == 2
    for view in views:
        assert view["uri"].startswith(f"at://{DID}/dev.bastienrobert.memory.record/")
        assert view["cid"] == str(cid_for_json(view["value"]))
    assert "Error: line 3:" in result.stderr and "--publish-private" in result.stderr
    allowed = run(["convert", "to-record", "--did", DID, "--publish-private"], [fact(3, privacyScope="private")])
    assert allowed.exit_code == 0


@pytest.mark.parametrize(("field", "value", "secret"), [
    ("kind", "wifi-pw-sunflower1962", "sunflower1962"),
    ("subjectKey", "eth.wallet.privkey." + "e17964b8e0416e15a38a43d1aa749599e56fd25602e9367ee3fae97214c5e3d6", "e17964b8"),
])
def test_a_secret_in_a_kind_or_a_subject_key_is_refused_by_its_field_and_never_shown(field, value, secret):
    result = run(["convert", "to-record", "--did", DID], [fact(1, **{field: value}), fact(2)])
    assert result.exit_code == 3
    assert len(out_objects(result)) == 1
    assert f"Error: line 1, at $.{field}: memory " in result.stderr and "once the parts of a name" in result.stderr
    assert secret not in result.output


def _lines_named(stderr: str) -> list[int]:
    return [int(re.match(r"Error: line (\d+)[,:]", line)[1]) for line in stderr.splitlines() if line.startswith("Error:")]


def test_to_record_and_from_record_report_errors_in_the_order_of_their_lines():
    # Unreadable lines are found while reading, mapping failures only when the batch is mapped;
    # the report still reads top to bottom.
    mapped = run(["convert", "to-record", "--did", DID],
                 [fact(1, privacyScope="private"), "{broken", fact(3), {"eventType": "fact"}])
    assert mapped.exit_code == 3 and len(out_objects(mapped)) == 1
    assert _lines_named(mapped.stderr) == [1, 2, 4]
    # and the count last, so that a run of thousands says how many went wrong
    assert mapped.stderr.splitlines()[-1] == "3 of 4 lines refused or failed, each named above"
    read = run(["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p",
                "--accept-unsalted-scope"], [{"uri": "at://x"}, "[", {"value": {}}])
    assert read.exit_code == 1
    assert _lines_named(read.stderr) == [1, 2, 3]


def test_from_record_then_to_record_returns_the_records_unchanged():
    records = out_objects(run(["convert", "to-record", "--did", DID], [fact(n) for n in range(5)]))
    foreign = {"$type": "dev.bastienrobert.memory.record", "content": "Tea, not coffee.",
               "createdAt": "2026-09-01T10:00:00Z", "app.example.mood": {"$bytes": "AQID"},
               "supersedes": [records[0]["uri"]]}
    records.append({"uri": f"at://{DID}/dev.bastienrobert.memory.record/3l2uygzaf5s2k",
                    "cid": str(cid_for_json(foreign)), "value": foreign})
    imported = run(["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p", "--salt", "s"],
                   records)
    assert imported.exit_code == 0, imported.output
    objects = out_objects(imported)
    assert objects[-1]["event"]["supersedesFactId"] == objects[0]["event"]["factId"]
    assert objects[0]["event"]["active"] is False
    back = run(["convert", "to-record", "--did", DID], objects)
    assert back.exit_code == 0, back.output
    assert [(v["uri"], v["cid"]) for v in out_objects(back)] == [(r["uri"], r["cid"]) for r in records]


def test_validate_exit_codes_and_reasons(tmp_path):
    good = {"$type": "dev.bastienrobert.memory.record", "content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    assert run(["validate"], [good]).exit_code == 0
    bad = dict(good, createdAt="yesterday")
    result = run(["validate"], [good, bad])
    assert result.exit_code == 3
    assert "Error: line 2, at $.createdAt: must be a valid datetime" in result.stderr
    lexicon = {"lexicon": 1, "id": "com.example.thing", "defs": {"main": {"type": "record", "key": "any",
               "record": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "maximum": 3}}}}}}
    path = tmp_path / "thing.json"
    path.write_text(json.dumps(lexicon))
    result = run(["validate", "--lexicon", str(path)], [{"$type": "com.example.thing", "n": 4}])
    assert result.exit_code == 1 and "$.n" in result.stderr


def test_validate_refuses_a_lexicon_file_json_cannot_hold_with_a_reason_not_a_crash(tmp_path):
    good = {"$type": "dev.bastienrobert.memory.record", "content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    deep: dict = {"type": "object", "properties": {}}
    for _ in range(300):  # 600 levels: reading the lexicon overflowed the stack
        deep = {"type": "object", "properties": {"a": deep}}
    files = {
        "digits.json": '{"lexicon": ' + "1" * 5000 + "}",
        "arrays.json": "[" * 100_000,
        "latin1.json": b'{"description": "caf\xe9"}',
        "deep.json": json.dumps({"lexicon": 1, "id": "com.example.deep",
                                 "defs": {"main": {"type": "record", "key": "any", "record": deep}}}),
    }
    said = {}
    for name, text in files.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
        result = run(["validate", "--lexicon", str(tmp_path / name)], [good], catch_exceptions=False)
        assert result.exit_code == 1 and result.stdout == "", name
        said[name] = result.stderr
    assert said == {
        "digits.json": f"Error: {tmp_path}/digits.json: not valid atproto data: a number with too many digits "
                       "(more than 4300; an atproto integer has at most 19)\n",
        "arrays.json": f"Error: {tmp_path}/arrays.json: not valid atproto data: arrays or objects nested deeper "
                       "than 256 levels\n",
        "latin1.json": f"Error: {tmp_path}/latin1.json: not valid UTF-8 text (byte 0xe9 at column 21)\n",
        "deep.json": "Error: lexicon com.example.deep nests objects and arrays deeper than 256 levels, the data "
                     "model's limit\n",
    }


def test_cid_prints_the_cid_of_each_record():
    value = {"$type": "dev.bastienrobert.memory.record", "content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    result = run(["cid"], [value, {"uri": "at://x", "cid": "ignored", "value": value}])
    assert result.stdout.split() == [str(cid_for_json(value))] * 2


def test_every_command_has_help_with_an_example():
    def walk(group, prefix):
        for name, command in group.commands.items():
            yield [*prefix, name], command
            if hasattr(command, "commands"):
                yield from walk(command, [*prefix, name])

    for path, command in walk(cli, []):
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0
        assert "Example" in result.output, f"pdsmem {' '.join(path)} --help has no example"


def test_errors_are_one_line_without_traceback_unless_debug(tmp_path):
    missing = tmp_path / "nope.json"
    result = CliRunner().invoke(cli, ["validate", "--lexicon", str(missing)], input="")
    assert result.exit_code == 2 and "Traceback" not in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(cli, ["validate", "--lexicon", str(bad)], input="")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "bad.json: not valid JSON (Expecting property name" in result.stderr


def test_lines_json_cannot_hold_are_refused_by_number_and_the_rest_still_read():
    good = {"$type": "dev.bastienrobert.memory.record", "content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    line = json.dumps(good).encode()
    hostile = [b'{"uri": "\xff\xfe"}', b'{"n": ' + b"1" * 5000 + b"}", b"[" * 100_000]
    stdin = b"\n".join([line, *hostile, line]) + b"\n"
    result = CliRunner().invoke(cli, ["validate"], input=stdin)
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [
        "Error: line 2: not valid UTF-8 text (byte 0xff at column 10)",
        "Error: line 3: not valid atproto data: a number with too many digits (more than 4300; an atproto "
        "integer has at most 19)",
        "Error: line 4: not valid atproto data: arrays or objects nested deeper than 256 levels",
        "3 of 5 lines refused or failed, each named above",
    ]
    cids = CliRunner().invoke(cli, ["cid"], input=stdin)
    assert cids.exit_code == 3 and cids.stdout.split() == [str(cid_for_json(good))] * 2


def test_validate_nsid_names_the_type_of_records_without_one(tmp_path):
    lexicon = {"lexicon": 1, "id": "com.example.thing", "defs": {"main": {"type": "record", "key": "any",
               "record": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}
    path = tmp_path / "thing.json"
    path.write_text(json.dumps(lexicon))
    ok = run(["validate", "--lexicon", str(path), "--nsid", "com.example.thing"], [{"name": "abc"}])
    assert ok.exit_code == 0 and ok.stderr == "1 valid\n"
    wrong = run(["validate", "--lexicon", str(path), "--nsid", "com.example.thing"], [{"name": 5}])
    assert wrong.exit_code == 1 and "at $.name: must be a string" in wrong.stderr
    memory = {"content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    assert run(["validate", "--nsid", "dev.bastienrobert.memory.record"], [memory]).exit_code == 0
    assert "$.$type: is required" in run(["validate"], [memory]).stderr  # without --nsid: must name it
    for nsid in ("x", "#main", "com.example.thing#main"):  # were taken, with exit 0, by records naming a $type
        typed = run(["validate", "--nsid", nsid], [{"$type": "dev.bastienrobert.memory.record", **memory}])
        assert typed.exit_code == 2 and "Invalid value for '--nsid': NSID " in typed.stderr, nsid


def test_a_lone_surrogate_is_written_as_its_json_escape():
    event = fact(1, text="drinks \ud800 tea")
    result = run(["ids"], [event])
    assert result.exit_code == 0, result.output
    assert '"text":"drinks \\ud800 tea"' in result.stdout
    assert json.loads(result.stdout)["factId"] == contract.fact_id(event)


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    value = {"$type": "dev.bastienrobert.memory.record", "content": "x", "createdAt": "2026-09-01T10:00:00Z"}
    records = tmp_path / "records.jsonl"
    records.write_text((json.dumps(value) + "\n") * 200_000)
    with records.open("rb") as stdin:
        cid = subprocess.Popen([sys.executable, "-m", "pdsmem.cli", "cid"], stdin=stdin,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = cid.stdout.readline()
        cid.stdout.close()  # as `| head -1` does
        _, err = cid.communicate(timeout=120)
    assert first.strip() == str(cid_for_json(value)).encode()
    assert cid.returncode == 0 and err == b""


def _view(rkey: str, **fields) -> dict:
    value = {"$type": "dev.bastienrobert.memory.record", "content": "likes tea", "createdAt": "2024-01-01T00:00:00.000Z",
             **fields}
    return {"uri": f"at://{DID}/dev.bastienrobert.memory.record/{rkey}", "cid": str(cid_for_json(value)), "value": value}


def test_from_record_needs_the_salt_as_import_does():
    """Regression: convert from-record ran without a salt, so that a record anyone wrote with a
    guessed agent and profile id passed for one of the scope's own (recognised, its id kept)."""
    args = ["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p"]
    refused = run(args, [_view("3lbt4ilkfw22s")], env={"MEMORY_SCOPE_SALT": None})
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "no salt for the participant scope hash: set MEMORY_SCOPE_SALT (or pass --salt)" in refused.stderr
    assert "RUSHDB_MEMORY_SCOPE_SALT" in refused.stderr  # the name a Hermes user set
    for more, env in (([], {"MEMORY_SCOPE_SALT": "s"}), (["--accept-unsalted-scope"], {"MEMORY_SCOPE_SALT": None})):
        done = run(args + more, [_view("3lbt4ilkfw22s")], env=env)
        assert done.exit_code == 0 and len(out_objects(done)) == 1, done.output


def test_two_different_salts_in_the_environment_are_said_and_never_shown():
    """A new user set both MEMORY_SCOPE_SALT and rushdb-hermes-memory's RUSHDB_MEMORY_SCOPE_SALT: the
    first won without a word, and an export from Hermes's scope found nothing."""
    args = ["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p"]
    both = run(args, [_view("3lbt4ilkfw22s")], env={"MEMORY_SCOPE_SALT": "first-salt", "RUSHDB_MEMORY_SCOPE_SALT": "other-salt"})
    assert both.exit_code == 0, both.output
    assert "MEMORY_SCOPE_SALT and RUSHDB_MEMORY_SCOPE_SALT are both set and differ" in both.stderr
    assert "first-salt" not in both.output + both.stderr and "other-salt" not in both.output + both.stderr
    same = run(args, [_view("3lbt4ilkfw22s")], env={"MEMORY_SCOPE_SALT": "s", "RUSHDB_MEMORY_SCOPE_SALT": "s"})
    given = run(args + ["--salt", "s"], [_view("3lbt4ilkfw22s")],
                env={"MEMORY_SCOPE_SALT": "first-salt", "RUSHDB_MEMORY_SCOPE_SALT": "other-salt"})
    assert "differ" not in same.stderr and "differ" not in given.stderr


def test_one_rule_for_record_keys_from_the_lexicon_key_type():
    """Regression: rkey 'self' passed validate and convert from-record but failed verify and import."""
    says = "record key 'self' is not a valid tid"
    for args in (["validate"], ["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p",
                                "--accept-unsalted-scope"]):
        result = run(args, [_view("3lbt4ilkfw22s"), _view("self")])
        assert result.exit_code == 3, (args, result.output)
        assert says in result.stderr and "line 2" in result.stderr, (args, result.stderr)


def test_integers_beyond_2_53_are_refused_everywhere_with_one_message():
    """Regression: validate and cid accepted them; the reference PDS answers such a record with a 500."""
    says = "integer 9007199254740992 is beyond ±(2^53 - 1), the largest integer a record can carry everywhere"
    big = _view("3lbt4ilkfw22s", **{"app.example.n": 2**53})
    for args in (["validate"], ["cid"]):
        result = run(args, [big])
        assert result.exit_code == 1 and says in result.stderr, (args, result.stderr)
    assert run(["cid"], [_view("3lbt4ilkfw22s", **{"app.example.n": 2**53 - 1})]).exit_code == 0
    exported = run(["convert", "to-record", "--did", DID], [episode(1, turnIndex=2**53)])
    assert exported.exit_code == 1 and "turnIndex: " + says in exported.stderr


def test_validate_checks_the_extension_against_its_lexicon_as_import_does():
    bad = _view("3lbt4ilkfw22s", **{"dev.pdsmem.agentMemory": {"eventType": 3}})
    result = run(["validate"], [bad])
    assert result.exit_code == 1
    assert ("its dev.pdsmem.agentMemory extension does not validate against its lexicon: at $.id: is "
            "required but missing (import would ignore the extension)") in result.stderr


@pytest.mark.parametrize("args", [
    ["ids"], ["convert", "to-record", "--did", DID], ["validate"], ["cid"],
    ["convert", "from-record", "--did", DID, "--agent-id", "a", "--profile-id", "p", "--salt", "s" * 32],
])
@pytest.mark.parametrize("text", ["", "\n \n\t\n"])
def test_an_input_without_a_line_is_said_not_a_silent_success(args, text):
    result = CliRunner().invoke(cli, args, input=text)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "Note: the input holds no lines (only blank ones, or none): nothing was read" in result.stderr
