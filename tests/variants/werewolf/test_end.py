"""How games end: side-kill, all-kill, the village's win, the day limit; and bad configs."""

from __future__ import annotations

import pytest

from duskfall.core.errors import ConfigError, IllegalAction
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.variant import parse_config
from duskfall.variants.werewolf import VARIANT

from .table import batch, find, game, kinds, one, settle

# seats: 0 wolf, 1-2 villagers, 3 seer, 4 witch
SMALL = ["Werewolf", "Villager", "Villager", "Seer", "Witch"]
NIGHT = {"WOLF_KILL": None, "WITCH": "pass", "SEER": 0}
DAY = {"SPEECH": "", "LAST_WORDS": ""}


def exile(state, seat: int) -> list:
    """Everybody votes ``seat`` out (``seat`` votes for another living player)."""
    settle(state, **DAY)
    other = next(s for s in state.legal(seat).targets)
    return batch(state, {seat: other, "*": seat})


def test_wolves_win_when_all_gods_are_dead() -> None:
    state = game(SMALL, badge=False)
    settle(state, **{**NIGHT, "WOLF_KILL": 3})
    assert state.outcome() is None
    settle(state, LAST_WORDS="")
    events = exile(state, 4)
    assert state.outcome() == Outcome("werewolf", Termination.WIN, "all gods are dead")
    end = one(events, "game_end")
    assert end["roles"] == SMALL and end["winner"] == "werewolf"
    assert state.pending() == [] and find(events, "speech") == []  # no last words after the end
    with pytest.raises(IllegalAction):
        state.apply(1, "hello")


def test_wolves_win_when_all_villagers_are_dead() -> None:
    state = game(SMALL, badge=False)
    settle(state, **{**NIGHT, "WOLF_KILL": 1})
    settle(state, LAST_WORDS="")
    exile(state, 2)
    assert state.outcome() == Outcome("werewolf", Termination.WIN, "all villagers are dead")


def test_all_kill_needs_every_non_wolf_dead() -> None:
    state = game(SMALL, badge=False, win_condition="all-kill")
    settle(state, **{**NIGHT, "WOLF_KILL": 1})
    settle(state, LAST_WORDS="")
    exile(state, 2)
    assert state.outcome() is None
    settle(state, LAST_WORDS="", **{**NIGHT, "WOLF_KILL": 3})
    settle(state, SPEECH="")
    batch(state, {0: 4, 4: 0})  # a tie between the last two
    assert state.outcome() is None
    settle(state, **{**NIGHT, "WOLF_KILL": 4})
    assert state.outcome() == Outcome("werewolf", Termination.WIN, "every villager and god is dead")


def test_the_village_wins_when_every_wolf_is_dead() -> None:
    state = game(SMALL, badge=False)
    settle(state, **NIGHT)
    exile(state, 0)
    assert state.outcome() == Outcome("village", Termination.WIN, "all werewolves are dead")


def test_when_both_sides_fall_in_one_night_the_village_wins() -> None:
    state = game(["Werewolf", "Villager", "Villager", "Witch"], badge=False)
    events = settle(state, WOLF_KILL=3, WITCH="poison 0")
    assert one(events, "deaths")["seats"] == [0, 3]
    assert state.outcome() is not None and state.outcome().winner == "village"


def test_an_exiled_hunter_can_end_the_game_with_the_shot() -> None:
    roles = ["Werewolf", "Villager", "Villager", "Villager", "Hunter", "Seer"]
    state = game(roles, badge=False)
    settle(state, WOLF_KILL=None, SEER=0, SPEECH="")
    batch(state, {4: 1, "*": 4})
    settle(state, LAST_WORDS="")
    events = batch(state, 0)
    assert one(events, "hunter_shot")["target"] == 0
    assert state.outcome() is not None and state.outcome().winner == "village"


def test_the_day_limit_ends_in_a_draw() -> None:
    state = game(SMALL, badge=False, day_limit=2)
    for _ in range(2):
        settle(state, **NIGHT, **DAY, VOTE=None)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.DAY_LIMIT
    assert state.day == 2


def test_presets_and_custom_roles() -> None:
    for preset, seats in (("werewolf-12", 12), ("werewolf-9", 9), ("werewolf-6", 6)):
        state = VARIANT.new_game(parse_config(VARIANT, {"preset": preset}), 3)
        assert state.num_seats == seats
    default = VARIANT.new_game(parse_config(VARIANT, {}), 3)
    assert sorted(default.roles().values()) == sorted(
        ["Werewolf"] * 4 + ["Villager"] * 4 + ["Seer", "Witch", "Hunter", "Guard"]
    )
    custom = parse_config(
        VARIANT, {"roles": ["werewolves", "werewolf", "seer", "villager"] * 1 + ["Villager"] * 2}
    )
    assert VARIANT.new_game(custom, 0).num_seats == 6


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"preset": "werewolf-99"}, "unknown preset 'werewolf-99'; presets are werewolf-12"),
        (
            {"preset": "werewolf-9", "roles": ["Werewolf"] + ["Villager"] * 3},
            "either a preset or a custom roles",
        ),
        ({"roles": ["Villager"] * 5}, "at least one Werewolf"),
        ({"roles": ["Werewolf"] * 3 + ["Villager"] * 3}, "fewer than half"),
        ({"roles": ["Werewolf", "Seer", "Seer", "Villager", "Villager"]}, "at most one Seer"),
        ({"roles": ["Werewolf", "Mayor", "Villager", "Villager"]}, "unknown role 'Mayor'"),
        ({"preset": "werewolf-6", "names": ["A", "B"]}, "names has 2 entries"),
        ({"guarded_and_saved": "maybe"}, "guarded_and_saved"),
        ({"day_limit": 0}, "day_limit"),
        ({"hunter": True}, "unknown key 'hunter' (valid keys: badge,"),
    ],
)
def test_bad_configs_say_what_is_wrong(config: dict, message: str) -> None:
    with pytest.raises(ConfigError, match="invalid werewolf config") as info:
        parse_config(VARIANT, config)
    assert message in str(info.value)


def test_names_are_used_in_views_and_parsing() -> None:
    names = ["Wolf", "Ann", "Bob", "Cy", "Di"]
    state = game(SMALL, badge=False, names=names)
    settle(state, **NIGHT, **DAY)
    assert kinds(state)[1] == "VOTE"
    assert state.legal(1).parse("bob").target == 2
    assert state.legal(1).parse("I vote Di, clearly").target == 4
    assert state.observe(1)["players"][3]["name"] == "Cy"
