"""A GM game on the page follows the card's days and nights, puts the players the GM
announced out out, and names each speech's speaker (issue 30: GM games stayed on "Day 0",
nobody was ever out and speeches had no speaker)."""

from __future__ import annotations

import asyncio
import json

from duskfall.gm.spectator import narration
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


def test_a_gm_game_shows_its_dealt_roles_names_its_speakers_and_hides_its_bookkeeping() -> None:
    """Issue 42: every role read "player", speeches were signed "seat 4", the GM's markers and
    notices showed, and the bar flipped back to day 0 at every model call."""
    game, events = build_game(gm_putting_one_out, gm_format="structured", max_steps=20, seed=2)
    asyncio.run(asyncio.wait_for(game.run(), 30))
    timeline = Timeline(LogHeader("gm-test", "gm", {}, 2, [{}] * len(game.names)))
    frames = [timeline.add(event) for event in events]
    [deal] = [e for e in events if e.kind == "deal"]
    dealt = {game.names.index(n): r for n, r in deal.payload["roles"].items()}
    assert timeline.roles() == dealt
    for frame in frames:
        for seat, role in frame.view["reveals"].items():
            assert dealt[int(seat)] == role, frame.view["text"]
    for seat in range(len(game.names)):  # each seat learns its own role at the deal
        known = {s for f in timeline.visible(seat) for s in f.view["reveals"]}
        assert str(seat) in known
    for frame in frames:
        view = frame.view
        if view["kind"] == "chat" and view["payload"]["role"] == "player":
            assert view["text"].startswith(f"{view['payload']['speaker']}: ")
        if view["kind"] == "chat" and view["payload"]["role"] == "gm":
            assert "[" not in view["text"] and "TURN" not in view["text"], view["text"]
    assert all(f.view["detail"] for f in frames if f.view["kind"] in ("step", "gm_instruction"))
    days = [f.view["day"] for f in frames]
    first = days.index(1)
    assert all(day >= 1 for day in days[first:])  # model calls keep the game's day


def test_the_gms_narration_is_read_without_its_markers_and_notices() -> None:
    said = "Night falls. [system sent a secret message to Cleo] [PRIVATE TURN: Ann]"
    assert narration(said) == "Night falls."
    assert narration("天黑了。[系统已向Bo发送秘密信息]【轮到：Bo】") == "天黑了。"
