"""The input format as the README and docs/input.md show it: the example events are valid
AgentMemoryEvent v1 once pdsmem fills in their ids, go through ``ids`` and ``convert to-record``,
and the participant hash computed as docs/input.md says is pdsmem's; ``pdsmem schema`` prints the
contract's JSON Schema, shipped in the package unchanged from the one the tests check against."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from pdsmem.cli import cli
from pdsmem.lexicons import contract_schema_text
from pdsmem.mapping.contract import participant_hash_for_did

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "contract" / "agent-memory-event.v1.schema.json"


def block(markdown: str, after: str, language: str) -> str:
    """The first fenced block of ``language`` after the line ``after``."""
    rest = markdown[markdown.index(after):]
    return re.search(rf"```{language}\n(.*?)```", rest, re.S).group(1)


def readme_events() -> list[str]:
    lines = block((ROOT / "README.md").read_text(encoding="utf-8"), "## The input", "jsonl").splitlines()
    return [line for line in lines if line.strip()]


def run(*args: str, input: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(contract_schema_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_the_readme_shows_a_fact_and_an_episode_that_pdsmem_completes_into_valid_events() -> None:
    lines = readme_events()
    assert [json.loads(line)["eventType"] for line in lines] == ["fact", "episode"]
    code, out, err = run("ids", input="\n".join(lines) + "\n")
    assert (code, err) == (0, "")
    completed = [json.loads(line) for line in out.splitlines()]
    for given, event in zip(lines, completed):
        assert list(validator().iter_errors(event)) == []
        extra = set(event) - set(json.loads(given))
        assert extra == {"factId" if event["eventType"] == "fact" else "eventId"}  # what pdsmem filled in
    code, out, err = run("convert", "to-record", "--did", "did:plc:abc", input="\n".join(lines) + "\n")
    assert (code, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["value"]["content"] for r in records] == [json.loads(line).get("text") or json.loads(line)["summary"]
                                                        for line in lines]


def test_docs_input_shows_the_readme_events_and_a_participant_hash_a_shell_computes() -> None:
    docs = (ROOT / "docs" / "input.md").read_text(encoding="utf-8")
    shown = re.findall(r"```json\n(.*?)```", docs, re.S)
    assert [json.loads(text) for text in shown] == [json.loads(line) for line in readme_events()]
    shell = block(docs, "## `participantScopeHash`", "sh").splitlines()
    command, expected = shell[0], shell[1].lstrip("# ")
    printed = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=True).stdout.split()[0]
    assert printed == expected == participant_hash_for_did("did:plc:abc", "my-salt")


def test_pdsmem_schema_prints_the_shipped_contract_schema_as_published() -> None:
    assert contract_schema_text() == FIXTURE.read_text(encoding="utf-8")
    code, out, err = run("schema", input="")
    assert (code, out, err) == (0, contract_schema_text(), "")
    assert json.loads(out)["title"] == "RushDB AgentMemoryEvent v1"
