"""The tools' sandbox: links planted in the seat folder, ``..``, NUL bytes, absolute paths,
FIFOs: each is an error result, never content, never an exception out of ``Toolbox.run``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from duskfall.agents.cognitive.paths import UnsafePath, resolve_inside
from duskfall.agents.cognitive.records import THOUGHTS
from duskfall.agents.cognitive.tools import TOOL_NAMES, Toolbox, ToolRequest

from .helpers import context, fed_records

OUTSIDE = "OUTSIDE-FILE-CONTENT"
OTHER = "OTHER-SEAT-THOUGHT"


@pytest.fixture
def planted(tmp_path: Path) -> Toolbox:
    """Seat 0's tools, with links to a file outside and to seat 2's thoughts planted in its
    folder (as files, as folders, and in place of a record the tools read themselves)."""
    outside = tmp_path / "outside.txt"
    outside.write_text(OUTSIDE + "\n")
    other = fed_records(tmp_path / "game", 2)
    other.note_thought(1, "day", "plan", OTHER)
    mine = fed_records(tmp_path / "game", 0)
    root = mine.root
    (root / "escape.txt").symlink_to(outside)
    (root / "other.jsonl").symlink_to(other.root / THOUGHTS)
    (root / "other-seat").symlink_to(other.root, target_is_directory=True)
    (root / "up").symlink_to(tmp_path, target_is_directory=True)
    speech = root / "players" / "3" / "speech.jsonl"
    speech.unlink()
    speech.symlink_to(other.root / THOUGHTS)  # a record the tools open by themselves
    os.mkfifo(root / "fifo.jsonl")
    return Toolbox(mine, context(0), max_chars=100_000)


BAD_PATHS = [
    "escape.txt",
    "other.jsonl",
    "other-seat/private/thoughts.jsonl",
    "other-seat",
    "up/outside.txt",
    "up",
    "../seat-2/private/thoughts.jsonl",
    "..",
    "players/../../seat-2",
    "history.jsonl\x00.txt",
    "\x00",
    "/etc/passwd",
    "~/x",
    "fifo.jsonl",
    "players/3/speech.jsonl",
]


@pytest.mark.parametrize("path", BAD_PATHS)
@pytest.mark.parametrize("tool", ["read_file", "search_file"])
def test_bad_paths_are_error_results(planted: Toolbox, tool: str, path: str) -> None:
    result = planted.run(ToolRequest(tool, path=path, query="e"))
    assert not result.ok, result.output
    assert OUTSIDE not in result.render() and OTHER not in result.render()


def test_absolute_path_of_the_other_seat(planted: Toolbox, tmp_path: Path) -> None:
    for path in (str(tmp_path / "outside.txt"), str(tmp_path / "game/seat-2" / THOUGHTS)):
        result = planted.run(ToolRequest("read_file", path=path))
        assert not result.ok and "outside your records" in (result.error or "")


def test_listing_and_searching_the_folder_skip_links(planted: Toolbox) -> None:
    listing = planted.run(ToolRequest("read_file", path="."))
    assert listing.ok and "history.jsonl" in listing.output
    for name in ("escape.txt", "other.jsonl", "other-seat", "up", "fifo.jsonl"):
        assert name not in listing.output
    found = planted.run(ToolRequest("search_file", path=".", query="-"))
    assert found.ok
    assert OUTSIDE not in found.output and OTHER not in found.output


def test_records_read_by_the_tools_themselves_refuse_links(planted: Toolbox) -> None:
    speech = planted.run(ToolRequest("read_public_speech", player_id="p3"))
    assert speech.ok and OTHER not in speech.output
    metrics = planted.run(ToolRequest("read_metrics"))
    assert OTHER not in metrics.render()


@pytest.mark.parametrize("tool", TOOL_NAMES)
@pytest.mark.parametrize("junk", ["\x00", "../" * 50, "a" * 5000, "/dev/zero", "é\udcff"])
def test_no_tool_raises(planted: Toolbox, tool: str, junk: str) -> None:
    result = planted.run(ToolRequest(tool, player_id=junk, time_scope=junk, path=junk, query=junk))
    assert OUTSIDE not in result.render() and OTHER not in result.render()


def test_resolve_inside_messages(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path)
    for path, message in [
        ("a\x00b", "NUL byte"),
        ("/abs", "outside your records"),
        ("../x", "'..' is not allowed"),
        ("link/x", "not followed"),
    ]:
        with pytest.raises(UnsafePath, match=message):
            resolve_inside(tmp_path, path)
    assert resolve_inside(tmp_path, "missing/file") == tmp_path.resolve() / "missing/file"
