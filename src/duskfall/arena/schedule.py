"""A tournament's schedule: which entrant plays which seat of which deal, from its secret master.

Every game of a tournament is a *slot*: a variant block, a game seed and the entrant of each
seat. The schedule is a pure function of the config (entrants, blocks, games) and its secret
master (:mod:`duskfall.arena.deals`: the config's seed keyed with the operator's deal key, or a
secret drawn from the OS and kept sealed in the index), so the same config and master always
give the same games, ``resume`` knows which are missing, and nobody without the operator's key
can compute a deal or a seating from the config.

A *deal* is one game seed (the roles and every random stream of the rules): the games of a
deal are the same game of cards played by different entrants, so comparing them cancels the
luck of the deal.

* ``mixed``: every entrant sits at every game, each game its own deal. How many seats each
  entrant holds varies from game to game (every entrant at least one, the rest drawn from the
  seed): with the same number of seats at every table, an entrant's village seats would be
  fixed by its evil ones and the games would measure only one blend of its two skills, never
  overall skill (see :mod:`duskfall.rating.identified`). Seats are handed out so that each
  entrant plays every role about equally often (the entrant with the fewest plays of a seat's
  role gets it, ties broken by the seed).
* ``sides``: entrants meet in pairs; each deal is played twice, A holding every evil seat and B
  every village seat, then the other way round.
* ``duplicate``: each deal is played once per entrant, the entrants rotated through the two
  seat groups (the evil side, the village side) as the rows of a cyclic Latin rectangle: in
  the k games of a deal every entrant holds every evil role once and every village role once,
  against a different opponent each time (the offset cycles through 1..k-1 across deals, so
  every ordered pair meets equally often). With two entrants it is ``sides``.

A ``[[forks]]`` block (:mod:`duskfall.report.ablations`) adds a deal per source game: its forks,
one per entrant and repeat, each entrant in the same seats of the same moment.

In every schedule the display names are shuffled per game, and where the variant offers
``seat_order`` (:mod:`duskfall.core.seating`) the seats of every game of a deal are permuted,
so nothing remembered from one game of a deal maps onto another (which seat, which name, held
which role). The seed of a deal is revealed nowhere before all its games have ended
(:mod:`duskfall.arena.seed_release`).

With ``stop = "separated"`` the blocks' deals are interleaved, so that every planned look at a
prefix of the schedule sees each block in proportion.

By convention a variant's last team (``variant.teams[-1]``) is its evil, informed minority
(mafia, BLACK, werewolves), the first its village.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from duskfall.agents.specs import parse_spec, seats_of_key
from duskfall.arena.deals import unattached_master
from duskfall.arena.tournament_config import ForksBlock, TournamentConfig, VariantBlock
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.seating import SEAT_ORDER
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import State, Variant, parse_config
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import new_state_for

ATTEMPTS = 50  # draws of a game's seating before one that repeats an earlier game is kept


REST = "(rest)"  # the seats of a fork around the entrant (:mod:`duskfall.report.ablations`)


@dataclass(frozen=True)
class ForkOf:
    """What a slot of a ``[[forks]]`` block forks: the source game's log, the moment, the
    seats' seed (shared by the forks of one source and repeat) and the agents of the seats
    around the entrant (``rest[i]`` for a seat named :data:`REST`)."""

    source: str
    at: str
    seed: int
    rest: tuple[str, ...]
    change: tuple[str, str] | None = None  # an intervention: (ForkRequest field, its value)


@dataclass(frozen=True)
class Slot:
    """One scheduled game: ``seats[i]`` is the entrant at seat ``i``.

    ``deal`` numbers the deal across the whole tournament; ``deal_games`` is how many games it
    has (1 in ``mixed``). ``pairing`` is (evil entrant, village entrant) when one entrant holds
    each side. A slot of a ``[[forks]]`` block (``fork``) plays a fork of a logged game: its
    seed and config are the source game's (its deal), its other seats :data:`REST`."""

    index: int
    block: int
    variant: str
    seed: int
    config: dict[str, Any]
    seats: tuple[str, ...]
    pairing: tuple[str, str] | None = None
    deal: int = 0
    deal_games: int = 1
    fork: ForkOf | None = None

    def agents(self, entrants: dict[str, str]) -> str:
        """The per-seat agent list of this game (``heuristic,random,...``)."""
        if self.fork is not None:
            rest = self.fork.rest
            return ",".join(
                rest[seat] if name == REST else entrants[name]
                for seat, name in enumerate(self.seats)
            )
        return ",".join(entrants[name] for name in self.seats)


def deal_size(config: TournamentConfig) -> int:
    """Games per deal of the config's schedule."""
    return {"mixed": 1, "sides": 2}.get(config.schedule, len(config.entrants))


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


def deal_master(config: TournamentConfig) -> int:
    """The secret every seed and seating of ``config``'s schedule derives from: the one attached
    (:func:`duskfall.arena.deals.with_deals`), else the seed keyed with the process's operator
    key, else (no seed: nothing to reproduce) a secret of this process alone."""
    if config.deal_master is not None:
        return config.deal_master
    return unattached_master(config)


def build_schedule(config: TournamentConfig) -> list[Slot]:
    """Every slot of the tournament, in order (raises ConfigError for a bad block)."""
    config = config.dealt(deal_master(config))
    deals: list[list[list[Slot]]] = []
    for number, block in enumerate(config.variants):
        variant = get_variant(block.variant)
        maker = {"sides": _sides, "duplicate": _duplicate}.get(config.schedule, _mixed)
        deals.append(maker(config, variant, block, number, config.block_games(block)))
    if config.forks:
        for number, forks in enumerate(config.forks, len(config.variants)):
            deals.append(fork_deals(config, forks, number))
    order = _interleaved(deals) if config.stop == "separated" else _in_turn(deals)
    slots: list[Slot] = []
    for deal_number, deal in enumerate(order):
        for slot in deal:
            slots.append(replace(slot, index=len(slots), deal=deal_number, deal_games=len(deal)))
    return slots


def _in_turn(blocks: list[list[list[Slot]]]) -> list[list[Slot]]:
    return [deal for block in blocks for deal in block]


def _interleaved(blocks: list[list[list[Slot]]]) -> list[list[Slot]]:
    """The deals of all blocks, merged so that every prefix holds each block's share."""
    keyed = [
        ((i + 1) / len(block), number, deal)
        for number, block in enumerate(blocks)
        for i, deal in enumerate(block)
    ]
    return [deal for _, _, deal in sorted(keyed, key=lambda item: item[:2])]


def _deal(variant: Variant, game_config: dict[str, Any], seed: int) -> State:
    return variant.new_game(parse_config(variant, game_config), seed)


def _game_seed(master: int, block: int, deal: int) -> int:
    return derive_rng(master, f"tournament:{block}:{deal}").getrandbits(63)


def _game_config(
    variant: Variant, block: VariantBlock, rng: random.Random, permute: bool
) -> dict[str, Any]:
    """The block's config with its display names (if the variant has them) shuffled and, with
    ``permute``, the deal's seats permuted (if the variant can)."""
    game_config = block.game_config()
    fields = variant.config_model.model_fields
    parsed = parse_config(variant, game_config)
    seat_names = getattr(parsed, "seat_names", None)
    if "names" in fields and callable(seat_names):
        names = list(seat_names())
        rng.shuffle(names)
        game_config["names"] = names
    if permute and SEAT_ORDER in fields and SEAT_ORDER not in game_config:
        seats = variant.new_game(parsed, 0).num_seats
        order = list(range(seats))
        rng.shuffle(order)
        game_config[SEAT_ORDER] = order
    return game_config


def _mixed(
    config: TournamentConfig, variant: Variant, block: VariantBlock, number: int, games: int
) -> list[list[Slot]]:
    names = list(config.entrants)
    balance = _RoleBalance()
    out = []
    for game in range(games):
        seed = _game_seed(deal_master(config), number, game)
        rng = derive_rng(deal_master(config), f"tournament:{number}:{game}:seats")
        state = _deal(variant, block.game_config(), seed)
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
        game_config = _game_config(variant, block, rng, permute=False)
        out.append([Slot(0, number, variant.id, seed, game_config, _in_order(seats))])
    return out


def _quotas(names: Sequence[str], seats: int, rng: random.Random) -> Counter[str]:
    """Seats per entrant in one game: one each (while seats last), every other seat drawn
    uniformly among the entrants, so the shares vary across games (which identifies each
    entrant's deception apart from its detection, and so its overall skill)."""
    order = list(names)
    rng.shuffle(order)
    quota = Counter({name: int(i < seats) for i, name in enumerate(order)})
    for _ in range(max(0, seats - len(order))):
        quota[rng.choice(order)] += 1
    return quota


def _deal_games(
    config: TournamentConfig,
    variant: Variant,
    block: VariantBlock,
    number: int,
    deal: int,
    sides: Sequence[tuple[str, str]],
) -> list[Slot]:
    """The games of one deal: in game ``j``, ``sides[j][0]`` holds every evil seat and
    ``sides[j][1]`` every other. Each game's seats and names are drawn again until neither
    who sits where nor who is called what holds the same roles as in an earlier game of the
    deal (where the variant can permute seats and the roles allow it)."""
    seed = _game_seed(deal_master(config), number, deal)
    seen: set[tuple[Any, ...]] = set()
    out = []
    for game, (evil, village) in enumerate(sides):
        rng = derive_rng(deal_master(config), f"tournament:{number}:{deal}:{game}:seating")
        for _ in range(ATTEMPTS):
            game_config = _game_config(variant, block, rng, permute=True)
            state = _deal(variant, game_config, seed)
            roles = state.roles()
            layouts: set[tuple[Any, ...]] = {("seats", *(roles[s] for s in sorted(roles)))}
            if "names" in game_config:
                named = zip(game_config["names"], (roles[s] for s in sorted(roles)), strict=True)
                layouts.add(("names", *sorted(named)))
            if not layouts & seen:
                break
        seen |= layouts
        seats = {
            seat: evil if side_of(variant, state.team_of(seat)) == EVIL else village
            for seat in range(state.num_seats)
        }
        out.append(
            Slot(0, number, variant.id, seed, game_config, _in_order(seats), (evil, village))
        )
    return out


def _sides(
    config: TournamentConfig, variant: Variant, block: VariantBlock, number: int, games: int
) -> list[list[Slot]]:
    pairs = list(itertools.combinations(config.entrants, 2))
    out = []
    for deal in range(games // 2):
        a, b = pairs[deal % len(pairs)]
        out.append(_deal_games(config, variant, block, number, deal, [(a, b), (b, a)]))
    return out


def _duplicate(
    config: TournamentConfig, variant: Variant, block: VariantBlock, number: int, games: int
) -> list[list[Slot]]:
    names = list(config.entrants)
    k = len(names)
    offsets: list[int] = []
    out = []
    for deal in range(games // k):
        if not offsets:  # a new cycle through every offset, in a seeded order
            offsets = list(range(1, k))
            derive_rng(deal_master(config), f"tournament:{number}:{deal}:offsets").shuffle(offsets)
        offset = offsets.pop()
        sides = [(names[j], names[(j + offset) % k]) for j in range(k)]
        out.append(_deal_games(config, variant, block, number, deal, sides))
    return out


def _in_order(seats: dict[int, str]) -> tuple[str, ...]:
    return tuple(seats[s] for s in sorted(seats))


def fork_deals(config: TournamentConfig, block: ForksBlock, number: int) -> list[list[Slot]]:
    """The deals of a forks block (block ``number`` of the tournament): one per source game,
    its forks one per repeat and entrant."""
    if not block.logs:
        raise ConfigError(f"[[forks]] {block.source!r}: no source games (load the config file)")
    entrants = list(config.entrants)
    unknown = sorted(set(block.treated) - set(entrants))
    if unknown or (block.treated and block.intervention is None):
        what = f"{unknown[0]!r} is no entrant" if unknown else "there is no intervention"
        raise ConfigError(f"[[forks]] {block.label}: treated = {block.treated}, but {what}")
    deals = []
    for deal, source in enumerate(block.logs):
        where = f"[[forks]] {block.label}, source {Path(source).name}"
        try:
            log = read_log(source, strict=False)
            header = log.header
            variant, dealt = new_state_for(header)
            for spec in config.seat_agents().values():
                parse_spec(variant, spec, dealt.num_seats)
            chosen = chosen_seats(block, variant, dealt)
            at, change = intervention_in(block, log)
        except DuskfallError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        roster = {int(e["seat"]): str(e["agent"]) for e in header.roster}
        rest = tuple(
            "" if seat in chosen else (block.rest or roster.get(seat, "unknown"))
            for seat in range(dealt.num_seats)
        )
        try:
            parse_spec(variant, ",".join(a or "random" for a in rest), dealt.num_seats)
        except ConfigError as exc:
            raise ConfigError(
                f"{where}: the seats around the entrant cannot be played as in the source "
                f"game ({exc}); give them an agent with rest = ..."
            ) from None
        games = []
        for repeat in range(block.repeats):
            stream = f"forks:{number}:{deal}:{repeat}"
            for entrant in entrants:
                own = f"{stream}:{entrant}" if block.seeds == "per-entrant" else stream
                seed = derive_rng(deal_master(config), own).getrandbits(128)
                seats = tuple(entrant if s in chosen else REST for s in range(dealt.num_seats))
                treated = change if block.treats(entrant) else None
                fork = ForkOf(source, at, seed, rest, treated)
                games.append(
                    Slot(0, number, header.variant, header.seed, header.config, seats, fork=fork)
                )
        deals.append(games)
    return deals


def intervention_in(block: ForksBlock, log: GameLog) -> tuple[str, tuple[str, str] | None]:
    """Where the block's forks of ``log`` start, and its intervention found in ``log`` (the
    fork's option and value; None without one)."""
    if block.intervention is None:
        return block.at, None
    from duskfall.lab.intervention_rules import parse_rule, resolve_in  # the lab, when used

    found = resolve_in(parse_rule(block.intervention), log, block.at)
    return found.at, (found.option, found.value)


def chosen_seats(block: ForksBlock, variant: Variant, state: State) -> set[int]:
    """The seats the block gives the entrant in a game dealt as ``state``."""
    if isinstance(block.seats, list):
        chosen = set(block.seats)
        if not chosen or max(chosen) >= state.num_seats or min(chosen) < 0:
            raise ConfigError(f"seats {block.seats}: seats are 0-{state.num_seats - 1}")
        return chosen
    chosen = {s for key in block.seats.split("+") for s in seats_of_key(variant, key, state)}
    if not chosen:
        raise ConfigError(f"seats {block.seats!r} names no seat of this game")
    return chosen
