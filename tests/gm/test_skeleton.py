"""Card skeletons with structured turns: duskfall deals, walks the phases and offers the GM
only the players still to act."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

from duskfall.gm import flow
from duskfall.gm.config import GMSettings, resolve_card
from duskfall.llm import Request

from .support import build_game, gm_calls, of_kind, player_calls, prompt_text


def _first_choice(request: Request) -> str:
    """A GM that always picks the first player it is offered and never ends the game."""
    assert request.schema is not None
    props = request.schema["properties"]
    nxt = props["next"]
    player = nxt["properties"]["player"]["enum"][0] if "properties" in nxt else None
    private = nxt["properties"]["private"]["enum"][0] if player else False
    turn = {
        "narration": "The game goes on.",
        "secrets": [],
        "next": {"player": player, "private": private} if player else None,
        "game_over": False,
        "result": None,
    }
    if "out" in props:
        turn = {"out": [], **turn}
    return json.dumps(turn)


def _play(gm: object, **settings: object) -> tuple[object, list]:
    game, events = build_game(gm, gm_format="structured", **settings)
    asyncio.run(asyncio.wait_for(game.run(), 30))
    return game, events


def test_roles_are_dealt_by_seed_and_each_player_told_only_its_own() -> None:
    game, events = _play(_first_choice, max_steps=2, seed=3)
    [deal] = of_kind(events, "deal")
    assert deal.visibility == "admin"
    roles = deal.payload["roles"]
    assert Counter(roles.values()) == {"Werewolf": 2, "Villager": 2, "Seer": 1, "Witch": 1}
    told = {e.payload["player"]: e for e in of_kind(events, "secret")}
    wolves = [n for n, r in roles.items() if r == "Werewolf"]
    for i, name in enumerate(game.names):
        assert told[name].visibility == f"seats:{i}"
        assert told[name].payload["text"].startswith(f"Your role: {roles[name]}.")
    assert wolves[1] in told[wolves[0]].payload["text"]
    _, again = _play(_first_choice, max_steps=2, seed=3)
    assert of_kind(again, "deal")[0].payload == deal.payload


def test_phases_ask_the_right_players_and_end_at_the_round_limit() -> None:
    game, events = _play(_first_choice, max_steps=200, seed=1)
    roles = of_kind(events, "deal")[0].payload["roles"]
    phases = [e.payload["name"] for e in of_kind(events, "phase")]
    assert phases[:5] == [
        "Night 1: the werewolves",
        "Night 1: the seer",
        "Night 1: the witch",
        "Day 1: discussion",
        "Day 1: vote",
    ]
    turns = of_kind(events, "turn")
    night = [t.payload for t in turns[:3]]
    assert [roles[t["player"]] for t in night] == ["Werewolf", "Seer", "Witch"]
    assert all(t["private"] for t in night)
    day = [t.payload for t in turns[3:9]]
    assert sorted(t["player"] for t in day) == sorted(game.names)
    assert not any(t["private"] for t in day)
    over = events[-1]
    assert over.payload["termination"] == "day_limit"
    assert over.payload["reason"] == "round limit 2 reached"
    asked = {c.payload["player"] for c in player_calls(events)}
    assert asked == set(game.names)
    wolf_call = player_calls(events)[0]
    assert "Night 1: the werewolves: name the player" in prompt_text(wolf_call)


def test_gm_prompt_states_phase_and_who_is_still_to_act() -> None:
    _, events = _play(_first_choice, max_steps=6, seed=1)
    prompt = prompt_text(gm_calls(events)[-1])
    assert "Phase: Day 1: discussion" in prompt
    assert "Still to act:" in prompt and "Roles (secret):" in prompt


def test_a_player_not_offered_is_refused_and_an_out_player_no_longer_acts() -> None:
    roles_holder: dict[str, str] = {}

    def gm(request: Request) -> str:
        props = request.schema["properties"]  # type: ignore[index]
        user = request.last_user
        offered = props["next"]["properties"]["player"]["enum"]
        if "Day 1: discussion" in user and "out" in props and not roles_holder:
            roles_holder["out"] = offered[0]
            return json.dumps(
                {
                    "narration": "Dawn.",
                    "out": [offered[0]],
                    "secrets": [],
                    "next": {"player": offered[-1], "private": False},
                    "game_over": False,
                    "result": None,
                }
            )
        return _first_choice(request)

    _, events = _play(gm, max_steps=40, seed=1)
    out = roles_holder["out"]
    assert [e.payload["player"] for e in of_kind(events, "out")] == [out]
    # the day phase gives last words: one more turn in that phase, none after it
    later = [
        t.payload["player"]
        for t in of_kind(events, "turn")
        if t.seq > of_kind(events, "out")[0].seq
    ]
    assert later.count(out) == 1
    vote = next(p for p in of_kind(events, "phase") if p.payload["name"] == "Day 1: vote")
    assert out not in {t.payload["player"] for t in of_kind(events, "turn") if t.seq > vote.seq}

    def wrong(request: Request) -> str:
        props = request.schema["properties"]  # type: ignore[index]
        offered = props["next"]["properties"]["player"]["enum"]
        other = next(n for n in ["AI-Alpha", "AI-Beta", "AI-Gamma"] if n not in offered)
        value = json.loads(_first_choice(request))
        value["next"]["player"] = other
        return json.dumps(value)

    _, events = _play(wrong, max_steps=5, seed=1)
    rejected = of_kind(events, "gm_rejected")
    assert rejected and "does not match the turn schema" in rejected[0].payload["reason"]


def test_a_roster_the_deal_does_not_fit_runs_free_form() -> None:
    game, events = _play(_first_choice, names=["Ann", "Bob"], max_steps=3)
    assert game.skeleton is None
    assert not of_kind(events, "deal") and not of_kind(events, "phase")


def test_markers_format_keeps_the_free_form_game() -> None:
    game, _ = build_game(["[TURN: AI-Alpha]"], gm_format="markers", max_steps=2)
    assert game.skeleton is None and not game.structured


def test_every_built_in_card_has_a_skeleton_that_fits_its_seats() -> None:
    for card_id in ("werewolf6", "avalon5"):
        for language in ("zh", "en"):
            card = resolve_card(GMSettings(card=card_id, language=language))
            assert card.skeleton is not None
            assert card.skeleton.seats == len(card.players)
            assert flow.next_phase(card.skeleton, _fresh(card)) == (1, 0)


def _fresh(card: object) -> object:
    from duskfall.gm.state import GMState

    return GMState([p.name for p in card.players])  # type: ignore[attr-defined]
