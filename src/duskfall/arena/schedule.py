"""A tournament's schedule: which entrant plays which seat of which deal, from the master seed.

Every game of a tournament is a *slot*: a variant block, a game seed and the entrant of each
seat. The schedule is a pure function of the config (entrants, blocks, games, master seed),
so the same config always gives the same games, and ``resume`` knows which are missing.

* ``mixed``: every entrant sits at every game; seats are handed out so that each entrant plays
  every role about equally often (the entrant with the fewest plays of a seat's role gets it,
  ties broken by the seed), and display names are shuffled per game, so no model can learn
  that a seat or a name belongs to one entrant.
* ``sides``: entrants meet in pairs; in one game A holds every evil seat and B every village
  seat, in the next the same deal (same seed) with the sides swapped, so the luck of the deal
  cancels out.

By convention a variant's last team (``variant.teams[-1]``) is its evil, informed minority
(mafia, BLACK, werewolves), the first its village.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.arena.tournament_config import TournamentConfig, VariantBlock
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.sides import EVIL, VILLAGE, side_of
from duskfall.core.variant import State, Variant, parse_config

__all__ = ["EVIL", "VILLAGE", "Slot", "build_schedule", "side_of"]


@dataclass(frozen=True)
class Slot:
    """One scheduled game: ``seats[i]`` is the entrant at seat ``i``."""

    index: int
    block: int
    variant: str
    seed: int
    config: dict[str, Any]
    seats: tuple[str, ...]
    pairing: tuple[str, str] | None = None  # sides: (evil entrant, village entrant)

    def agents(self, entrants: dict[str, str]) -> str:
        """The per-seat agent list of this game (``heuristic,random,...``)."""
        return ",".join(entrants[name] for name in self.seats)


@dataclass
class _RoleBalance:
    """Plays of each role (and side) by each entrant so far, across the whole tournament."""

    roles: Counter[tuple[str, str]] = field(default_factory=Counter)
    seats: Counter[str] = field(default_factory=Counter)

    def pick(self, candidates: Sequence[str], role: str, rng: random.Random) -> str:
        order = list(candidates)
        rng.shuffle(order)
        return min(order, key=lambda name: (self.roles[name, role], self.seats[name]))

    def count(self, name: str, role: str) -> None:
        self.roles[name, role] += 1
        self.seats[name] += 1


def build_schedule(config: TournamentConfig) -> list[Slot]:
    """Every slot of the tournament, in order (raises ConfigError for a bad block)."""
    slots: list[Slot] = []
    for number, block in enumerate(config.variants):
        variant = get_variant(block.variant)
        games = config.block_games(block)
        if config.schedule == "sides":
            slots.extend(_sides(config, variant, block, number, games, len(slots)))
        else:
            slots.extend(_mixed(config, variant, block, number, games, len(slots)))
    return slots


def _deal(variant: Variant, block: VariantBlock, seed: int) -> State:
    return variant.new_game(parse_config(variant, block.game_config()), seed)


def _game_seed(master: int, block: int, deal: int) -> int:
    return derive_rng(master, f"tournament:{block}:{deal}").getrandbits(63)


def _shuffled_names(variant: Variant, block: VariantBlock, rng: random.Random) -> dict[str, Any]:
    """The block's config with its display names (if the variant has them) shuffled."""
    game_config = block.game_config()
    parsed = parse_config(variant, game_config)
    seat_names = getattr(parsed, "seat_names", None)
    if "names" in variant.config_model.model_fields and callable(seat_names):
        names = list(seat_names())
        rng.shuffle(names)
        game_config["names"] = names
    return game_config


def _mixed(
    config: TournamentConfig,
    variant: Variant,
    block: VariantBlock,
    number: int,
    games: int,
    first: int,
) -> list[Slot]:
    names = list(config.entrants)
    balance = _RoleBalance()
    out = []
    for game in range(games):
        seed = _game_seed(config.seed, number, game)
        rng = derive_rng(config.seed, f"tournament:{number}:{game}:seats")
        state = _deal(variant, block, seed)
        roles = state.roles()
        quota = _quotas(names, state.num_seats, rng)
        rarest_first = sorted(
            range(state.num_seats), key=lambda s: Counter(roles.values())[roles[s]]
        )
        seats: dict[int, str] = {}
        for seat in rarest_first:
            open_names = [n for n in names if quota[n] > 0]
            chosen = balance.pick(open_names, roles[seat], rng)
            quota[chosen] -= 1
            balance.count(chosen, roles[seat])
            seats[seat] = chosen
        game_config = _shuffled_names(variant, block, rng)
        out.append(Slot(first + game, number, variant.id, seed, game_config, _in_order(seats)))
    return out


def _quotas(names: Sequence[str], seats: int, rng: random.Random) -> Counter[str]:
    """Seats per entrant in one game: as even as possible, the extra ones drawn."""
    base, extra = divmod(seats, len(names))
    lucky = set(rng.sample(list(names), extra))
    return Counter({name: base + (name in lucky) for name in names})


def _sides(
    config: TournamentConfig,
    variant: Variant,
    block: VariantBlock,
    number: int,
    games: int,
    first: int,
) -> list[Slot]:
    pairs = list(itertools.combinations(config.entrants, 2))
    out = []
    for game in range(games):
        deal, swapped = divmod(game, 2)
        a, b = pairs[deal % len(pairs)]
        evil, village = (b, a) if swapped else (a, b)
        seed = _game_seed(config.seed, number, deal)
        rng = derive_rng(config.seed, f"tournament:{number}:{deal}:names")
        state = _deal(variant, block, seed)
        seats = {
            seat: evil if side_of(variant, state.team_of(seat)) == EVIL else village
            for seat in range(state.num_seats)
        }
        game_config = _shuffled_names(variant, block, rng)
        out.append(
            Slot(
                first + game,
                number,
                variant.id,
                seed,
                game_config,
                _in_order(seats),
                pairing=(evil, village),
            )
        )
    return out


def _in_order(seats: dict[int, str]) -> tuple[str, ...]:
    return tuple(seats[s] for s in sorted(seats))
