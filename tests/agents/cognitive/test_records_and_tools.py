"""Record folders and the history tools: a seat reads only what it may see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duskfall.agents.cognitive.records import HISTORY, THOUGHTS
from duskfall.agents.cognitive.tools import Toolbox, ToolRequest, parse_player
from duskfall.core.events import visible_to

from .helpers import CHANNELS, context, fed_records, game_events


def toolbox(tmp_path: Path, seat: int, max_chars: int = 4000) -> Toolbox:
    records = fed_records(tmp_path, seat)
    return Toolbox(records, context(seat), max_chars=max_chars)


def run(box: Toolbox, tool: str, **args: object) -> str:
    result = box.run(ToolRequest(tool, **args))  # type: ignore[arg-type]
    return result.render()


def test_history_holds_exactly_the_seats_visible_events(tmp_path: Path) -> None:
    for seat in range(6):
        records = fed_records(tmp_path, seat)
        lines = records.read_lines(HISTORY)
        expected = [
            e for e in game_events() if visible_to(e, seat, CHANNELS.get(seat, frozenset()))
        ]
        assert [line["kind"] for line in lines] == [e.kind for e in expected]
        assert [line["seq"] for line in lines] == list(range(len(expected)))  # its own numbers


def test_layout_per_player(tmp_path: Path) -> None:
    records = fed_records(tmp_path, 5)
    root = records.root
    speech = json.loads((root / "players/3/speech.jsonl").read_text().splitlines()[0])
    assert "I suspect Bram." in speech["text"] and speech["seq"] == 2  # the 3rd event seat 5 saw
    lines = (root / "players/3/votes.jsonl").read_text().splitlines()
    votes = [json.loads(x)["vote"] for x in lines]
    assert votes == [1]
    info = (root / "players/1/info.jsonl").read_text()
    assert "exiled" in info and "votes" in info  # exiled, and the target of a vote
    assert not (root / "players/1/speech.jsonl").exists()  # its wolf chat is not public


def test_public_tools(tmp_path: Path) -> None:
    box = toolbox(tmp_path, 5)
    history = run(box, "read_public_history")
    assert "I suspect Bram" in history and "Let us bite" not in history
    assert "I suspect Bram" in run(box, "read_public_speech", player_id="p3")
    assert "votes for seat 1" in run(box, "read_player_votes", player_id="Dax")
    assert "p1 (Bram): alive" in run(box, "read_player_info", player_id=1)
    metrics = run(box, "read_metrics")
    assert "p3 (Dax): 1 speeches; votes cast 1" in metrics
    assert "D1 DAY" in run(box, "read_public_history", time_scope="day 1")
    assert "no public events" in run(box, "read_public_history", time_scope="day 7")


def test_private_info_is_the_seats_own(tmp_path: Path) -> None:
    wolf, seer, villager = toolbox(tmp_path, 0), toolbox(tmp_path, 2), toolbox(tmp_path, 5)
    assert "Let us bite Cleo" in run(wolf, "read_private_info")
    assert "checks" in run(seer, "read_private_info") and "Werewolf" in run(
        seer, "read_private_info"
    )
    assert "Let us bite" not in run(seer, "read_private_info")
    assert "no private information" in run(villager, "read_private_info")


def test_other_seats_private_records_are_refused(tmp_path: Path) -> None:
    seer = toolbox(tmp_path, 2)
    seer.records.note_thought(1, "day", "plan", "SEER-SECRET")
    wolf = toolbox(tmp_path, 0)
    wolf.records.note_thought(1, "night", "plan", "WOLF-SECRET")
    refused = [
        run(wolf, "read_private_thoughts", player_id="p2"),
        run(wolf, "read_file", path="../seat-2/private/thoughts.jsonl"),
        run(wolf, "read_file", path=str(seer.records.root / THOUGHTS)),
        run(wolf, "search_file", query="SECRET", path="../seat-2"),
        run(wolf, "search_file", query="SECRET", path=".."),
        run(wolf, "read_file", path="players/9/secret.jsonl"),
    ]
    for output in refused:
        assert "ERROR" in output and "SEER-SECRET" not in output
    assert "WOLF-SECRET" in run(wolf, "read_private_thoughts")
    assert "WOLF-SECRET" in run(wolf, "read_private_thoughts", player_id="p0")
    assert "WOLF-SECRET" in run(wolf, "search_file", query="secret", path=".")
    # the seer's own folder never held the wolves' chat in the first place
    assert "Let us bite" not in run(seer, "search_file", query="bite", path=".")


def test_read_file_lists_and_reads(tmp_path: Path) -> None:
    box = toolbox(tmp_path, 3)
    listing = run(box, "read_file", path=".")
    assert "history.jsonl" in listing and "players/3/speech.jsonl" in listing
    assert "I suspect Bram" in run(box, "read_file", path="players/3/speech.jsonl")
    assert "no line matches" in run(box, "search_file", query="zebra")


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        (ToolRequest("read_minds"), "unknown tool"),
        (ToolRequest("read_public_speech"), "needs a valid player_id"),
        (ToolRequest("read_public_speech", player_id="p42"), "needs a valid player_id"),
        (ToolRequest("search_file", query=""), "non-empty query"),
    ],
)
def test_bad_requests_get_specific_errors(
    tmp_path: Path, request_: ToolRequest, error: str
) -> None:
    result = toolbox(tmp_path, 3).run(request_)
    assert not result.ok and error in (result.error or "")


def test_output_is_clipped_to_the_latest_lines(tmp_path: Path) -> None:
    box = toolbox(tmp_path, 3, max_chars=120)
    output = box.run(ToolRequest("read_public_history")).output
    assert output.startswith("(") and "earlier lines omitted" in output
    assert "exiled" in output  # the latest event is kept
    assert len(output) < 200


def test_parse_player_forms() -> None:
    ctx = context()
    assert [parse_player(v, ctx) for v in (3, "p3", "P3", "seat 3", "3", "Dax", "dax")] == [3] * 7
    assert [parse_player(v, ctx) for v in (None, "", "p9", True, "nobody")] == [None] * 5
