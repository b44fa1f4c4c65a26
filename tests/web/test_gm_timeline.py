"""A GM game on the page follows the card's days and nights, puts the players the GM
announced out out, and names each speech's speaker (issue 30: GM games stayed on "Day 0",
nobody was ever out and speeches had no speaker)."""

from __future__ import annotations

import asyncio
import json

from duskfall.llm import Request
from duskfall.store.log import LogHeader
from duskfall.testing.gm_games import build_game
from duskfall.web.timeline import Timeline


def gm_putting_one_out(request: Request) -> str:
    """A structured GM that picks the first player offered and, at the first day's
    discussion, announces that player out."""
    assert request.schema is not None
    props = request.schema["properties"]
    offered = props["next"]["properties"]["player"]["enum"]
    private = props["next"]["properties"]["private"]["enum"][0]
    turn = {"narration": "The game goes on.", "secrets": [],
            "next": {"player": offered[0], "private": private}, "game_over": False,
            "result": None}  # fmt: skip
    if "out" in props:
        day_one = "Phase: Day 1: discussion" in request.last_user
        turn["out"] = [offered[-1]] if day_one and "is out" not in request.last_user else []
    return json.dumps(turn)


def test_days_nights_outs_and_speakers_of_a_gm_game() -> None:
    game, events = build_game(gm_putting_one_out, gm_format="structured", max_steps=30, seed=1)
    asyncio.run(asyncio.wait_for(game.run(), 30))
    timeline = Timeline(LogHeader("gm-test", "gm", {}, 1, [{}] * len(game.names)))
    views = [timeline.add(event).view for event in events]
    phases = [(v["day"], v["phase"]) for v in views if v["kind"] == "phase"]
    assert phases[0] == (1, "Night 1: the werewolves")
    assert (1, "Day 1: discussion") in phases
    [out] = [v for v in views if v["kind"] == "out"]
    seat = game.names.index(out["payload"]["player"])
    assert out["marks"] == [{"seat": seat, "mark": "dead", "text": f"{game.names[seat]} is out"}]
    assert seat not in views[-1]["alive"] and len(views[-1]["alive"]) == len(game.names) - 1
    speeches = [v for v in views if v["kind"] == "chat" and v["payload"]["role"] == "player"]
    assert speeches and all(
        v["actor"] == game.names.index(v["payload"]["speaker"]) for v in speeches
    )
    assert all(v["day"] >= 1 for v in views if v["kind"] == "chat" and v["seq"] > out["seq"])
