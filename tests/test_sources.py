"""Export sources: a JSON Lines file or pipe, or an outbox directory, read item by item.

A bad item is an error for that item only, named by its position; the items after it are read.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from pdsmem.bridge.pipelines.sources import SourceError, UnreadableFile, read_source


def described(path: Path) -> list[tuple[str, object]]:
    return [(item.where, item.value.message if isinstance(item.value, SourceError) else item.value)
            for item in read_source(path)]


def test_each_bad_line_is_refused_alone_and_the_rest_is_read(tmp_path: Path) -> None:
    source = tmp_path / "memories.jsonl"
    source.write_bytes(b"\n".join([
        b'\xff\xfe{"x": 1}',
        b'{"n": ' + b"9" * 5000 + b"}",
        b"[" * 100_000,
        b"[1, 2]",
        b"",
        b'{"text": "caf\xc3\xa9"}',
        b'{"cut": ',
    ]) + b"\n")
    found = described(source)
    assert [where for where, _ in found] == [f"memories.jsonl:{n}" for n in (1, 2, 3, 4, 6, 7)]
    assert found[0][1] == "not valid UTF-8 text (byte 0xff at column 1)"
    assert found[1][1].startswith("not valid atproto data: a number with too many digits")
    assert found[2][1] == "not valid atproto data: arrays or objects nested deeper than 256 levels"
    assert found[3][1] == "expected a JSON object on each line"
    assert found[4][1] == {"text": "café"}
    assert found[5][1] == "not valid JSON (Expecting value at column 9)"


@pytest.mark.parametrize("content, shape", [
    (json.dumps({"eventType": "fact", "text": "one"}, indent=2), "a JSON object written over several lines"),
    (json.dumps([{"eventType": "fact"}, {"eventType": "fact"}], indent=2), "a JSON array"),
    (json.dumps([{"eventType": "fact"}]), "a JSON array"),
])
def test_one_json_document_is_one_error_that_says_how_to_make_json_lines(tmp_path: Path, content: str,
                                                                          shape: str) -> None:
    """Found by a new user: a pretty-printed event gave an error for each of its 20 lines, and an
    array "expected a JSON object on each line", neither saying what to do."""
    source = tmp_path / "memories.jsonl"
    source.write_text("\n" + content + "\n")
    [item] = list(read_source(source))
    assert isinstance(item.value, SourceError) and item.where == "memories.jsonl:2"
    assert str(item.value) == (
        f"memories.jsonl:2: the input is {shape}, not JSON Lines (put each event on a line of its own: "
        "jq -c '.[]' FILE for an array, jq -c . FILE for pretty-printed objects)")


def test_a_pipe_is_read_as_json_lines(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)

    def feed() -> None:
        with pipe.open("w") as writer:
            writer.write(json.dumps({"a": 1}) + "\n" + json.dumps({"b": 2}) + "\n")

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        assert described(pipe) == [("pipe:1", {"a": 1}), ("pipe:2", {"b": 2})]
    finally:
        writer.join()


def test_a_directory_reports_each_unreadable_file_by_name(tmp_path: Path) -> None:
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "a.json").write_text('{\n  "text": ,\n}')
    (outbox / "b.json").write_bytes(b'{"text": "\xff"}')
    (outbox / "c.json").write_text('{"text": "ok"}')
    (outbox / "notes.txt").write_text("not an event")
    found = described(outbox)
    assert found[0] == ("outbox/a.json", "not valid JSON (Expecting value at line 2 column 11)")
    assert found[1] == ("outbox/b.json", "not valid UTF-8 text (byte 0xff at column 11)")
    assert found[2] == ("outbox/c.json", {"text": "ok"})
    assert len(found) == 3


def test_a_directory_says_why_a_file_is_unreadable_in_words_not_python_internals(tmp_path: Path) -> None:
    """Regression: these read "cannot read the file: 'utf-8' codec can't decode byte 0xe9 in position
    16: invalid continuation byte", "[Errno 2] No such file or directory: '…/gone.json'" and
    "[Errno 21] Is a directory: '…/sub.json'"."""
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "a.json").write_bytes(b'{\n  "text": "caf\xe9"\n}')  # Latin-1, not UTF-8
    (outbox / "gone.json").symlink_to(tmp_path / "nowhere.json")
    (outbox / "sub.json").mkdir()
    assert described(outbox) == [
        ("outbox/a.json", "not valid UTF-8 text (byte 0xe9 at line 2 column 15)"),
        ("outbox/gone.json", "cannot read the file: it is a link to a file that does not exist"),
        ("outbox/sub.json", "cannot read the file: it is a directory"),
    ]


def test_only_a_file_that_cannot_be_read_at_all_is_unreadable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An export tells the person to fix the memory of a bad item, but to make an unreadable
    file readable or remove it: the two are told apart by ``UnreadableFile``."""
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "a.json").write_text("[1]")
    (outbox / "b.json").write_text("{")
    (outbox / "gone.json").symlink_to(tmp_path / "nowhere.json")
    (outbox / "sub.json").mkdir()
    (outbox / "vanished.json").write_text("{}")
    read_bytes = Path.read_bytes

    def vanishing(self: Path) -> bytes:  # removed between the listing and the reading
        if self.name == "vanished.json":
            raise FileNotFoundError(2, "No such file or directory")
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", vanishing)
    found = {item.where: item.value for item in read_source(outbox)}
    assert {where: type(value) for where, value in found.items()} == {
        "outbox/a.json": SourceError, "outbox/b.json": SourceError, "outbox/gone.json": UnreadableFile,
        "outbox/sub.json": UnreadableFile, "outbox/vanished.json": UnreadableFile,
    }
    assert found["outbox/vanished.json"].message == "cannot read the file: it no longer exists"


def test_a_missing_source_says_what_from_takes(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as caught:
        list(read_source(tmp_path / "nowhere.jsonl"))
    assert str(caught.value) == (
        f"cannot read {tmp_path / 'nowhere.jsonl'}: No such file or directory (--from takes a JSON "
        "Lines file of AgentMemoryEvent v1 or a directory of *.json events (and *.jsonl files))"
    )


def test_a_byte_order_mark_at_a_files_start_is_skipped(tmp_path: Path) -> None:
    """Regression: a file an editor saved with a byte order mark failed with Python's own words
    ("Unexpected UTF-8 BOM (decode using utf-8-sig)")."""
    lines = tmp_path / "memories.jsonl"
    lines.write_bytes(b'\xef\xbb\xbf{"text": "a"}\n{"text": "b"}\n')
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "one.json").write_bytes(b'\xef\xbb\xbf{"text": "c"}')
    assert described(lines) == [("memories.jsonl:1", {"text": "a"}), ("memories.jsonl:2", {"text": "b"})]
    assert described(outbox) == [("outbox/one.json", {"text": "c"})]


def test_a_directorys_json_lines_files_are_read_too(tmp_path: Path) -> None:
    """Regression: a folder holding events.jsonl was read as holding no memory, with no word of the
    file it skipped."""
    outbox = tmp_path / "outbox"
    outbox.mkdir()
    (outbox / "a.json").write_text('{"text": "one"}')
    (outbox / "events.jsonl").write_text('{"text": "two"}\nnot json\n{"text": "three"}\n')
    found = described(outbox)
    assert found[0] == ("outbox/a.json", {"text": "one"})
    assert found[1] == ("outbox/events.jsonl:1", {"text": "two"})
    assert found[2][0] == "outbox/events.jsonl:2" and isinstance(found[2][1], str)
    assert found[3] == ("outbox/events.jsonl:3", {"text": "three"})
