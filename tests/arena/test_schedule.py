"""Schedules derive from the master seed alone; mixed balances roles; sides and duplicate give
every entrant every role of the same deals, with seats and names permuted between the games."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from arena.tournament_kit import bot_config
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.tournament_config import parse_tournament
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import parse_config

LADDER = {f"p{i}": f"mix:heuristic@{i / 4:g}/random" for i in range(5)}
ALL_VARIANTS = [
    {"variant": "sports-mafia"},
    {"variant": "werewolf", "preset": "werewolf-9"},
    {"variant": "mafia"},
]


def _roles(slot: Slot) -> dict[int, str]:
    variant = get_variant(slot.variant)
    return variant.new_game(parse_config(variant, slot.config), slot.seed).roles()


def _deals(slots: list[Slot]) -> dict[int, list[Slot]]:
    out: defaultdict[int, list[Slot]] = defaultdict(list)
    for slot in slots:
        out[slot.deal].append(slot)
    return dict(out)


def test_the_same_config_gives_the_same_schedule_and_another_seed_another() -> None:
    config = bot_config(games=6)
    assert build_schedule(config) == build_schedule(bot_config(games=6))
    other = build_schedule(bot_config(games=6, seed=12))
    assert [s.seed for s in other] != [s.seed for s in build_schedule(config)]


def test_mixed_varies_seat_shares_and_rotates_every_entrant_through_every_role() -> None:
    config = bot_config(games=40, variants=[{"variant": "sports-mafia"}])
    plays: Counter[tuple[str, str]] = Counter()
    shares = Counter()
    for slot in build_schedule(config):
        roles = _roles(slot)
        held = Counter(slot.seats)
        assert set(held) == {"smart", "naive"} and held.total() == 10
        shares[held["smart"]] += 1
        assert slot.deal_games == 1
        for seat, name in enumerate(slot.seats):
            plays[name, roles[seat]] += 1
    assert len(shares) >= 4, shares  # the shares vary (so overall skill is measured)
    for role in ("SHERIFF", "DON", "MAFIA", "CITIZEN"):
        total = plays["smart", role] + plays["naive", role]
        assert abs(plays["smart", role] - plays["naive", role]) <= max(3, 0.25 * total), plays


def test_mixed_shuffles_display_names_per_game() -> None:
    config = bot_config(games=6, variants=[{"variant": "werewolf", "preset": "werewolf-6"}])
    names = [tuple(slot.config["names"]) for slot in build_schedule(config)]
    assert len(set(names)) > 1 and all(len(set(n)) == 6 for n in names)


@pytest.mark.parametrize("schedule", ["sides", "duplicate"])
def test_every_entrant_plays_every_role_of_the_same_deals(schedule: str) -> None:
    entrants = LADDER if schedule == "duplicate" else {"a": "heuristic", "b": "random"}
    size = len(entrants) if schedule == "duplicate" else 2
    config = bot_config(schedule, games=size * 8, entrants=entrants, variants=ALL_VARIANTS)
    slots = build_schedule(config)
    assert [s.index for s in slots] == list(range(len(slots)))
    for deal in _deals(slots).values():
        assert len(deal) == size == deal[0].deal_games
        assert len({s.seed for s in deal}) == 1 and len({s.block for s in deal}) == 1
        seated = {name for slot in deal for name in slot.seats}
        assert seated == set(entrants) if schedule == "duplicate" else len(seated) == 2
        held: Counter[tuple[str, str]] = Counter()
        for slot in deal:
            variant = get_variant(slot.variant)
            state = variant.new_game(parse_config(variant, slot.config), slot.seed)
            evil = {slot.seats[s] for s in range(state.num_seats) if _evil(variant, state, s)}
            village = {
                slot.seats[s] for s in range(state.num_seats) if not _evil(variant, state, s)
            }
            assert len(evil) == len(village) == 1 and evil != village  # one entrant a side
            assert slot.pairing == (*evil, *village)
            for seat, role in state.roles().items():
                held[slot.seats[seat], role] += 1
        deal_roles = Counter(_roles(deal[0]).values())
        players = {name for slot in deal for name in slot.seats}
        for name in players:  # each entrant of the deal held each of its roles once per seat
            assert {role: held[name, role] for role in deal_roles} == dict(deal_roles)


def _evil(variant: object, state: object, seat: int) -> bool:
    return side_of(variant, state.team_of(seat)) == EVIL  # type: ignore[arg-type, attr-defined]


def test_duplicate_meets_every_ordered_pair_equally_often() -> None:
    config = bot_config("duplicate", games=5 * 8, entrants=LADDER, variants=ALL_VARIANTS[:1])
    met = Counter(slot.pairing for slot in build_schedule(config))
    assert len(met) == 5 * 4 and set(met.values()) == {2}


@pytest.mark.parametrize("schedule", ["sides", "duplicate"])
def test_paired_games_of_a_deal_differ_in_seats_and_names(schedule: str) -> None:
    config = bot_config(schedule, games=20, variants=ALL_VARIANTS)
    for deal in _deals(build_schedule(config)).values():
        seat_roles = [tuple(_roles(slot).values()) for slot in deal]
        assert len(set(seat_roles)) == len(deal), "a seat keeps its role across the deal"
        if deal[0].variant != "sports-mafia":  # sports mafia has numbers, not names
            named = [
                tuple(sorted(zip(slot.config["names"], _roles(slot).values(), strict=True)))
                for slot in deal
            ]
            assert len(set(named)) == len(deal), "a name keeps its role across the deal"
        orders = [tuple(slot.config["seat_order"]) for slot in deal]
        assert len(set(orders)) == len(deal)


def test_stop_separated_interleaves_the_blocks_deal_by_deal() -> None:
    config = bot_config("sides", games=8, stop="separated")
    blocks = [slot.block for slot in build_schedule(config)]
    assert blocks[:4] == [0, 0, 1, 1] and Counter(blocks[:8]) == {0: 4, 1: 4}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"schedule": "duplicate", "games": 7}, "multiple of 2"),
        ({"schedule": "duplicate", "games": 7, "entrants": LADDER}, "multiple of 5"),
        ({"board": {"reference": "nobody"}}, "not an entrant"),
        ({"schedule": "round-robin"}, "schedule"),
        ({"stop": "early"}, "stop"),
    ],
)
def test_bad_schedule_options_are_one_line(change: dict[str, object], needle: str) -> None:
    data = bot_config().model_dump(mode="json") | change
    with pytest.raises(ConfigError, match=needle):
        parse_tournament(data)
