"""Scripted night tables: the wolves' kill, witch, guard, seer and how they resolve."""

from __future__ import annotations

import pytest

from duskfall.core.errors import IllegalAction

from .table import (
    GUARD,
    HUNTER,
    NO_BADGE,
    QUIET_DAY,
    QUIET_NIGHT,
    SEER,
    WITCH,
    batch,
    find,
    game,
    kinds,
    one,
    settle,
)


def night_one(state, **overrides):
    return settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 4, **overrides})


def dawn(state):
    """Play to the dawn announcement (no badge) and return its dead."""
    events = settle(state, **NO_BADGE)
    return one(events, "deaths")["seats"]


def test_night_order_wolves_then_witch_then_guard_and_seer_together() -> None:
    state = game()
    order = []
    for _ in range(4):
        order.append(kinds(state))
        batch(state, "")
    assert order == [{0: "WOLF_CHAT"}, {1: "WOLF_CHAT"}, {2: "WOLF_CHAT"}, {3: "WOLF_CHAT"}]
    assert kinds(state) == {0: "WOLF_KILL", 1: "WOLF_KILL", 2: "WOLF_KILL", 3: "WOLF_KILL"}
    settle(state, WOLF_KILL=4)
    assert kinds(state) == {WITCH: "WITCH"}
    settle(state, WITCH="pass")
    assert kinds(state) == {SEER: "SEER", GUARD: "GUARD"}


def test_wolf_chat_and_kill_are_private_to_the_wolves() -> None:
    state = game()
    events = settle(state, WOLF_CHAT="kill seat 4", WOLF_KILL=4)
    chat = [e for e in events if e.kind == "speech"]
    assert [e.visibility for e in chat] == ["team:werewolf"] * 4
    assert [e.visibility for e in events if e.kind == "werewolf_kill"] == ["team:werewolf"]
    villager_view = state.observe(5)["history"]
    assert not [h for h in villager_view if h["kind"] in ("speech", "werewolf_kill")]
    assert [h["text"] for h in state.observe(2)["history"] if h["kind"] == "speech"] == [
        "kill seat 4"
    ] * 4


def test_wolves_who_disagree_talk_again_then_the_plurality_kills() -> None:
    state = game()
    settle(state, WOLF_CHAT="")
    events = batch(state, {0: 4, 1: 5, 2: 5, 3: 4})
    assert one(events, "wolf_votes")["round"] == 1
    assert kinds(state) == {0: "WOLF_CHAT"}  # a second round of talk
    events = settle(state, WOLF_CHAT="", WOLF_KILL={0: 6, 1: 5, 2: 5, 3: 4})
    kill = one(events, "werewolf_kill")
    assert kill["target"] == 5  # two votes beat one each
    assert kill["votes"] == [
        {"seat": 0, "target": 6},
        {"seat": 1, "target": 5},
        {"seat": 2, "target": 5},
        {"seat": 3, "target": 4},
    ]


def test_a_tied_final_wolf_vote_goes_to_the_lowest_seated_wolfs_choice() -> None:
    state = game(wolf_rounds=1)
    events = settle(state, WOLF_CHAT="", WOLF_KILL={0: 7, 1: 5, 2: 5, 3: 7})
    assert one(events, "werewolf_kill")["target"] == 7


def test_wolves_may_choose_no_kill() -> None:
    state = game()
    events = night_one(state, WOLF_KILL=None)
    assert one(events, "werewolf_kill")["target"] is None
    assert one(events, "witch_told")["target"] is None
    assert dawn(state) == []


def test_witch_learns_the_target_privately_and_saves() -> None:
    state = game()
    events = night_one(state, WITCH="save")
    told = [e for e in events if e.kind == "witch_told"]
    assert [(e.visibility, e.payload["target"]) for e in told] == [(f"seats:{WITCH}", 4)]
    assert state.observe(WITCH)["antidote"] is False
    assert dawn(state) == []


@pytest.mark.parametrize(
    ("rule", "witch", "guard", "dead"),
    [
        ("survives", "pass", None, [4]),
        ("survives", "save", None, []),  # saved
        ("survives", "pass", 4, []),  # guarded
        ("survives", "save", 4, []),  # double protection: survives by default
        ("dies", "save", 4, [4]),  # ...or dies at tables that say so
        ("survives", "poison 5", 5, [4, 5]),  # poison goes through the guard
    ],
)
def test_protection_table(rule: str, witch: str, guard: int | None, dead: list[int]) -> None:
    state = game(guarded_and_saved=rule)
    events = night_one(state, WITCH=witch, GUARD=guard)
    resolved = one(events, "night_resolved")
    assert [d["seat"] for d in resolved["deaths"]] == dead
    assert dawn(state) == dead


def test_the_witch_cannot_save_herself() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=WITCH)
    with pytest.raises(IllegalAction, match="antidote"):
        state.legal(WITCH).parse("save")
    assert "save" not in state.legal(WITCH).describe()


def test_each_potion_once_per_game_and_one_per_night() -> None:
    state = game()
    night_one(state, WITCH="save")
    settle(state, **NO_BADGE, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=5)
    legal = state.legal(WITCH)
    with pytest.raises(IllegalAction):
        legal.parse("save")
    assert legal.parse("poison 6").target == 6  # poison still there
    with pytest.raises(IllegalAction):
        legal.parse({"type": "WITCH", "potion": "ANTIDOTE", "target": 5})
    events = settle(state, WITCH="poison 6", GUARD=None, SEER=0)
    state_view = state.observe(WITCH)
    assert (state_view["antidote"], state_view["poison"]) == (False, False)
    assert one(events, "deaths")["seats"] == [5, 6]
    settle(state, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=7)
    assert WITCH not in kinds(state)  # no potion left: the witch is not woken


def test_the_guard_cannot_protect_the_same_player_two_nights_running() -> None:
    state = game()
    night_one(state, GUARD=GUARD)
    settle(state, **NO_BADGE, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=5, WITCH="pass")
    legal = state.legal(GUARD)
    assert GUARD not in legal.targets
    with pytest.raises(IllegalAction, match="not a legal choice"):
        legal.parse(GUARD)
    assert state.observe(GUARD)["last_guarded"] == GUARD


def test_the_seer_learns_good_or_werewolf_privately() -> None:
    state = game()
    events = night_one(state, SEER=2)
    seer = [e for e in events if e.kind == "seer_action"]
    assert [(e.visibility, e.payload["target"], e.payload["result"]) for e in seer] == [
        (f"seats:{SEER}", 2, "Werewolf")
    ]
    settle(state, **NO_BADGE, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=5, WITCH="pass", GUARD=None, SEER=HUNTER)
    assert state.observe(SEER)["checks"] == [
        {"night": 1, "target": 2, "result": "Werewolf"},
        {"night": 2, "target": HUNTER, "result": "Good"},
    ]
    assert "checks" not in state.observe(4)


def test_a_dead_seer_and_guard_are_not_woken() -> None:
    state = game()
    night_one(state, WOLF_KILL=SEER)
    settle(state, **NO_BADGE, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=GUARD, WITCH="pass", GUARD=4)
    settle(state, **QUIET_DAY)
    events = settle(state, WOLF_CHAT="", WOLF_KILL=5, WITCH="pass")
    assert find(events, "seer_action") == [] and find(events, "guard_action") == []
    assert kinds(state) == {0: "SPEECH"}  # straight to the day
