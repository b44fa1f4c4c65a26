"""Schedules derive from the master seed alone, balance roles (mixed) and swap sides (sides)."""

from __future__ import annotations

from collections import Counter

from arena.tournament_kit import bot_config
from duskfall.arena.schedule import EVIL, build_schedule, side_of
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config


def test_the_same_config_gives_the_same_schedule_and_another_seed_another() -> None:
    config = bot_config(games=6)
    assert build_schedule(config) == build_schedule(bot_config(games=6))
    other = build_schedule(bot_config(games=6, seed=12))
    assert [s.seed for s in other] != [s.seed for s in build_schedule(config)]


def test_mixed_rotates_every_entrant_through_every_role_about_equally() -> None:
    config = bot_config(games=40, variants=[{"variant": "sports-mafia"}])
    plays: Counter[tuple[str, str]] = Counter()
    variant = get_variant("sports-mafia")
    for slot in build_schedule(config):
        roles = variant.new_game(parse_config(variant, slot.config), slot.seed).roles()
        assert Counter(slot.seats) == {"smart": 5, "naive": 5}
        for seat, name in enumerate(slot.seats):
            plays[name, roles[seat]] += 1
    for role in ("SHERIFF", "DON", "MAFIA", "CITIZEN"):
        assert abs(plays["smart", role] - plays["naive", role]) <= 1, (role, plays)


def test_mixed_shuffles_display_names_per_game() -> None:
    config = bot_config(games=6, variants=[{"variant": "werewolf", "preset": "werewolf-6"}])
    names = [tuple(slot.config["names"]) for slot in build_schedule(config)]
    assert len(set(names)) > 1 and all(len(set(n)) == 6 for n in names)


def test_sides_plays_each_deal_twice_with_the_sides_swapped() -> None:
    config = bot_config("sides", games=6)
    slots = build_schedule(config)
    for first, second in zip(slots[::2], slots[1::2], strict=True):
        assert first.seed == second.seed and first.config == second.config
        assert first.pairing == tuple(reversed(second.pairing or ()))
        variant = get_variant(first.variant)
        state = variant.new_game(parse_config(variant, first.config), first.seed)
        for seat, name in enumerate(first.seats):
            evil = side_of(variant, state.team_of(seat)) == EVIL
            assert name == (first.pairing or ("", ""))[0 if evil else 1]
