"""The werewolf audit flags each planted rule break of the GM, and nothing in a clean game."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable

import pytest

from duskfall.core.events import Event
from duskfall.gm.config import GMSettings, resolve_card
from duskfall.gm.game import GMGame
from duskfall.llm import Request
from duskfall.llm.schema import example

from .support import build_game, of_kind, scripted

Plan = Callable[[str, list[str], dict[str, str]], dict[str, object]]


def _scripted_gm(plan: Plan) -> Callable[[Request], str]:
    """A GM that follows the skeleton (first player offered, nobody out) unless ``plan``
    changes the turn; ``plan`` sees the phase line, the offered players and the roles."""

    def gm(request: Request) -> str:
        assert request.schema is not None
        props = request.schema["properties"]
        offered = props["next"]["properties"]["player"]["enum"]
        lines = request.last_user.splitlines()
        phase = next(line for line in lines if line.startswith("Phase: "))[7:]
        roles = dict(
            entry.split("=") for entry in lines[0].removeprefix("Roles (secret): ").split(", ")
        )
        turn: dict[str, object] = {
            "narration": "On we go.",
            "secrets": [],
            "next": {
                "player": offered[0],
                "private": props["next"]["properties"]["private"]["enum"][0],
            },
            "game_over": False,
            "result": None,
        }
        if "out" in props:
            turn["out"] = []
            turn.update(plan(phase, offered, roles))
        return json.dumps(turn)

    return gm


def _who(roles: dict[str, str], role: str, index: int = 0) -> str:
    return [name for name, r in roles.items() if r == role][index]


def _audit(
    plan: Plan, witch_says: str = "I pass.", steps: int = 40, wolves_name_a_villager: bool = False
) -> list[Event]:
    game, events = build_game(_scripted_gm(plan), gm_format="structured", seed=2, max_steps=steps)
    asyncio.run(asyncio.wait_for(_run_with(game, witch_says, wolves_name_a_villager), 30))
    assert events[-1].payload["reason"] == "round limit 2 reached"  # played through
    return of_kind(events, "gm_audit")


async def _run_with(game: GMGame, witch_says: str, wolves_name_a_villager: bool) -> None:
    """Run ``game`` with the witch (dealt at the start) saying ``witch_says``, and the wolves
    naming the first villager as their target if asked to."""
    game.start()
    deal = next(e for e in game.record.events if e.kind == "deal")
    roles: dict[str, str] = deal.payload["roles"]
    game.player_models[_who(roles, "Witch")] = scripted(lambda request: witch_says)
    if wolves_name_a_villager:
        target = f"We kill {_who(roles, 'Villager')}."
        for wolf in (n for n, r in roles.items() if r == "Werewolf"):
            game.player_models[wolf] = scripted(lambda request: target)
    await game.run()


def _clean(phase: str, offered: list[str], roles: dict[str, str]) -> dict[str, object]:
    """A clean game: one night kill announced at dawn, a werewolf exiled at nightfall."""
    villager = _who(roles, "Villager")
    if phase == "Day 1: discussion":
        return {
            "out": [villager],
            "next": {"player": next(p for p in offered if p != villager), "private": False},
        }
    if phase == "Night 2: the werewolves":
        return {"out": [_who(roles, "Werewolf")]}
    return {}


def test_a_clean_scripted_game_raises_no_flag() -> None:
    assert _audit(_clean) == []


def _rules(flags: list[Event]) -> set[str]:
    return {f.payload["rule"] for f in flags}


def test_two_night_kills_without_poison_are_flagged() -> None:
    def plan(phase: str, offered: list[str], roles: dict[str, str]) -> dict[str, object]:
        if phase == "Day 1: discussion":
            a, b = _who(roles, "Villager"), _who(roles, "Werewolf")
            return {"out": [a, b], "next": {"player": _who(roles, "Seer"), "private": False}}
        return {}

    assert _rules(_audit(plan)) == {"second_night_kill"}
    # with the witch's poison that night, two deaths are legal (her second poison is not)
    assert _rules(_audit(plan, witch_says="I use the poison on a wolf.")) == {"witch_potion_twice"}


def _saved(phase: str, offered: list[str], roles: dict[str, str]) -> dict[str, object]:
    """Nobody dies on night 1 (the witch saved the wolves' target); a werewolf is exiled."""
    if phase == "Night 2: the werewolves":
        return {"out": [_who(roles, "Werewolf")]}
    return {}


def test_witch_using_a_potion_twice_is_flagged() -> None:
    antidote = "I use the antidote to save them."
    flags = _audit(_saved, witch_says=antidote, steps=60, wolves_name_a_villager=True)
    assert _rules(flags) == {"witch_potion_twice"}
    assert "antidote again" in flags[0].payload["detail"]
    assert _rules(_audit(_clean, witch_says="Antidote, and poison on AI-Beta.")) >= {
        "witch_potion_twice"
    }


def test_a_saved_player_announced_dead_is_flagged() -> None:
    antidote = "I use the antidote to save them."
    [flag] = _audit(_clean, witch_says=antidote, wolves_name_a_villager=True)[:1]
    assert flag.payload["rule"] == "night_deaths_differ"
    assert "the rules kill nobody" in flag.payload["detail"]


def test_what_cannot_be_mapped_is_said_and_not_counted() -> None:
    """A save when the wolves named nobody: the engine cannot know whom the witch saved."""
    game, events = build_game(_scripted_gm(_saved), gm_format="structured", seed=2, max_steps=60)
    antidote = "I use the antidote to save them."
    asyncio.run(asyncio.wait_for(_run_with(game, antidote, False), 30))
    flags = of_kind(events, "gm_audit")
    assert _rules(flags) == {"unmapped"}
    assert "the wolves' target is not known" in flags[0].payload["detail"]
    assert game.state.audit_flags == 0


def test_a_dead_player_given_a_turn_is_flagged() -> None:
    from duskfall.gm.audit import WerewolfAudit

    card = resolve_card(GMSettings(card="werewolf6", language="en"))
    assert card.skeleton is not None
    audit = WerewolfAudit(card.skeleton)
    roles = ["Werewolf", "Werewolf", "Seer", "Witch", "Villager", "Villager"]
    names = ["A", "B", "C", "D", "E", "F"]
    feed = [
        Event("deal", {"roles": dict(zip(names, roles, strict=True))}, "admin"),
        Event("phase", {"round": 1, "phase": 0, "name": "n"}, "public"),
        Event("turn", {"player": "E", "private": True}, "public"),
        Event("phase", {"round": 1, "phase": 3, "name": "d"}, "public"),
        Event("out", {"player": "F"}, "public"),
        Event("turn", {"player": "F", "private": False}, "public"),  # last words: fine
        Event("turn", {"player": "F", "private": False}, "public"),
        Event("out", {"player": "C"}, "public"),
        Event("out", {"player": "D"}, "public"),
        Event("out", {"player": "E"}, "public"),
        Event("gm_instruction", {"game_over": False}, "admin"),
    ]
    rules = [flag.rule for event in feed for flag in audit.see(event)]
    assert rules == [
        "wrong_night_actor",
        "dead_player_acts",
        "second_exile",
        "second_exile",
        "no_game_over",
    ]


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_werewolf_cards_are_audited_and_avalon_is_not(language: str) -> None:
    for card_id, audited in (("werewolf6", True), ("avalon5", False)):
        game, _ = build_game(
            lambda r: "{}", card=card_id, language=language, gm_format="structured"
        )
        assert (game.audit is not None) is audited


def test_the_shadow_is_the_rules_engine_and_follows_the_deaths() -> None:
    game, _ = build_game(_scripted_gm(_clean), gm_format="structured", seed=2, max_steps=40)
    asyncio.run(asyncio.wait_for(_run_with(game, "I pass.", False), 30))
    assert game.audit is not None and game.audit.shadow is not None
    shadow = game.audit.shadow
    assert shadow.engine.variant_id == "werewolf"
    dead = {name for name in shadow.seat if shadow.is_out(name)}
    assert dead == set(game.state.out) and len(dead) == 2  # the night's kill, the exile


def _chaotic_gm(seed: int) -> Callable[[Request], str]:
    """Valid structured turns that put out players at random and sometimes end the game."""
    rng = random.Random(seed)

    def gm(request: Request) -> str:
        assert request.schema is not None
        props = request.schema["properties"]
        turn = example(request.schema, rng)
        if "out" in props:
            offered = props["out"]["items"]["enum"]
            turn["out"] = rng.sample(offered, rng.randint(0, min(len(offered), 2)))
        if props["game_over"].get("type") == "boolean":
            turn["game_over"] = rng.random() < 0.05
        return json.dumps(turn)

    return gm


def test_the_audit_follows_chaotic_games_to_the_end() -> None:
    """Random deaths and potions: every break is flagged, and the shadow never gives up."""
    said = ["antidote", "poison AI-Alpha", "poison 甲", "I pass", "kill AI-Beta", "save", ""]
    rules: set[str] = set()
    for seed in range(40):
        game, events = build_game(
            _chaotic_gm(seed), gm_format="structured", seed=seed, max_steps=80,
            language="en" if seed % 2 else "zh",
        )  # fmt: skip
        pick = random.Random(seed).choice
        for name in game.player_models:
            game.player_models[name] = scripted(lambda request, pick=pick: pick(said))
        asyncio.run(asyncio.wait_for(game.run(), 30))
        flags = of_kind(events, "gm_audit")
        assert not [f for f in flags if "the audit stopped" in f.payload["detail"]]
        rules |= _rules(flags)
    assert {"second_night_kill", "dead_player_acts", "no_game_over"} <= rules
