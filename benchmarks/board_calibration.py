"""The board checked against known truth: entrants of known strength (``mix:heuristic@p/random``
for p = 0, .25, .5, .75, 1: a ladder whose order is known), in werewolf-9 and sports mafia.

Part 1, games needed to order every adjacent pair of the ladder with separated intervals, side
by side in one run:

* today's board (the code of ``--baseline``, the commit before this board): the ``mixed``
  schedule, OpenSkill with 95% intervals from a game-by-game percentile bootstrap; a pair is
  ordered when the two entrants' intervals do not overlap and the stronger is above;
* the new board with the ``duplicate`` schedule: the pair's difference of overall skill has a
  95% interval that excludes 0 on the right side;
* for each adjacent pair on its own (two entrants): today's board with ``mixed`` against the new
  board with ``sides``.

"Games needed" is the smallest size on a grid (steps of about 25%) at which at least 80% of
``--reps`` independent tournaments (other master seeds) order every pair: the size a planner
would pick for 80% power. Each tournament is played once at the largest size; its prefixes are
the smaller tournaments (a schedule's prefix is the schedule of the smaller tournament).
Today's board is too slow to bootstrap at every size, so a size is abandoned as soon as more
than 20% of the tournaments have failed at it.

Part 2, honesty over ``--honesty-reps`` (at least 50) repeated tournaments per setting:

* coverage: the share of 95% intervals of pairwise differences that hold the difference
  measured in one tournament 20 times larger (the ladder with ``duplicate``, and the pair
  p050/p075 with ``sides``); the goal is 90-98%;
* false separation: two copies of ``mix:heuristic@0.5/random`` declared separated, at a fixed
  size and under ``stop = "separated"`` (8 planned looks, the cap the fixed size), both on their
  own (``sides``) and inside the ladder (``duplicate``, six entrants); the goal is at most 5%.

    python benchmarks/board_calibration.py                     # the full run (about an hour)
    python benchmarks/board_calibration.py --quick             # a smoke run (minutes)
    python benchmarks/board_calibration.py --variants werewolf-9 --reps 10
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from baseline import baseline_src
from duskfall.arena.board import fit_games, pair_differences
from duskfall.arena.intervals import critical
from duskfall.arena.quick_games import play_schedule
from duskfall.arena.schedule import build_schedule
from duskfall.arena.skill_model import EVIL, RatedGame
from duskfall.arena.stopping import analyse, pair_verdicts, schedule_looks
from duskfall.arena.tournament_config import TournamentConfig, parse_tournament

BOARD_BASELINE = "283f9b6"  # main before the board (issue 28): OpenSkill, game bootstrap
VARIANTS = {
    "werewolf-9": {"variant": "werewolf", "preset": "werewolf-9"},
    "sports-mafia": {"variant": "sports-mafia"},
}
STRENGTHS = (0.0, 0.25, 0.5, 0.75, 1.0)
POWER = 0.8


def rung(p: float) -> str:
    return f"p{round(p * 100):03d}"


LADDER = {rung(p): f"mix:heuristic@{p:g}/random" for p in STRENGTHS}
ORDER = list(LADDER)  # weakest first
ADJACENT = [(ORDER[i + 1], ORDER[i]) for i in range(len(ORDER) - 1)]  # (stronger, weaker)


def load_average() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


# -- playing -----------------------------------------------------------------------------


def config_of(
    entrants: dict[str, str], schedule: str, games: int, seed: int, variant: str, **extra: Any
) -> TournamentConfig:
    return parse_tournament(
        {
            "name": "calibration",
            "entrants": entrants,
            "variants": [VARIANTS[variant]],
            "games": games,
            "seed": seed,
            "schedule": schedule,
            **extra,
        }
    )


def play(config: TournamentConfig) -> list[RatedGame]:
    """Every game of the schedule, unlogged, in this process (the arena's own game jobs)."""
    return play_schedule(config)


GAMES_PLAYED = [0]


class Runs(Sequence[list[RatedGame]]):
    """``reps`` tournaments (master seeds ``first_seed``, +1, ...), each played when first
    read: a board that fails early is never given the runs it would not have needed."""

    def __init__(
        self, entrants: dict[str, str], schedule: str, games: int, reps: int, variant: str,
        first_seed: int,
    ) -> None:  # fmt: skip
        self.config = config_of(entrants, schedule, games, first_seed, variant)
        self.reps, self.first_seed = reps, first_seed
        self.played: dict[int, list[RatedGame]] = {}

    def __len__(self) -> int:
        return self.reps

    def __getitem__(self, rep: int) -> list[RatedGame]:  # type: ignore[override]
        if rep not in self.played:
            config = self.config.model_copy(update={"seed": self.first_seed + rep})
            self.played[rep] = play(config)
            GAMES_PLAYED[0] += len(self.played[rep])
        return self.played[rep]


# -- today's board -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Seat:
    entrant: str
    role: str
    side: str


@dataclass(frozen=True)
class _Game:
    """What today's ``rate`` reads of a game."""

    slot: int
    seats: tuple[_Seat, ...]
    winner_side: str | None
    rated: bool = True


def today_ratings(ref: str) -> Any:
    """The ``duskfall.arena.ratings`` module of commit ``ref`` (OpenSkill, game bootstrap)."""
    path = baseline_src(ref) / "duskfall" / "arena" / "ratings.py"
    spec = importlib.util.spec_from_file_location("today_ratings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["today_ratings"] = module
    spec.loader.exec_module(module)
    return module


Ordered = Callable[[Sequence[RatedGame], list[tuple[str, str]]], bool]


def today_ordered(today: Any, bootstrap: int) -> Ordered:
    def ordered(games: Sequence[RatedGame], pairs: list[tuple[str, str]]) -> bool:
        old = [
            _Game(
                i,
                tuple(_Seat(s.entrant, s.role, s.side) for s in g.seats),
                None if g.result == 0.5 else (EVIL if g.result == 1.0 else "village"),
            )
            for i, g in enumerate(games)
        ]
        rated = today.rate(old, today.by_entrant, bootstrap=bootstrap, seed=0)
        return all(a in rated and b in rated and rated[a].low > rated[b].high for a, b in pairs)

    return ordered


def new_ordered(bootstrap: int) -> Ordered:
    def ordered(games: Sequence[RatedGame], pairs: list[tuple[str, str]]) -> bool:
        names = sorted({p for pair in pairs for p in pair})
        fit = fit_games(games, names, bootstrap=bootstrap, seed=0)
        q = critical(0.95, fit.deals)
        differences = pair_differences(fit)
        for a, b in pairs:
            d, se = differences[(a, b)] if (a, b) in differences else _flip(differences[(b, a)])
            if not d - q * se > 0:
                return False
        return True

    return ordered


def _flip(value: tuple[float, float]) -> tuple[float, float]:
    return (-value[0], value[1])


# -- games needed --------------------------------------------------------------------------


def grid(start: int, stop: int, per_deal: int, step: float = 1.25) -> list[int]:
    out: list[int] = []
    n = float(start)
    while n <= stop * 1.0001:
        games = max(per_deal, round(n / per_deal) * per_deal)
        if not out or games > out[-1]:
            out.append(games)
        n *= step
    return out


@dataclass
class Needed:
    games: int | None  # None: not reached by the largest size tried
    largest: int
    shares: list[tuple[int, float]]

    def text(self) -> str:
        return f"{self.games}" if self.games is not None else f">{self.largest}"


def games_needed(
    played: Sequence[list[RatedGame]],
    sizes: list[int],
    ordered: Ordered,
    pairs: list[tuple[str, str]],
) -> Needed:
    shares = []
    allowed_failures = math.floor((1 - POWER) * len(played) + 1e-9)
    for n in sizes:
        ok = failed = 0
        for rep in range(len(played)):
            if ordered(played[rep][:n], pairs):
                ok += 1
            else:
                failed += 1
                if failed > allowed_failures:
                    break
        share = ok / len(played) if failed <= allowed_failures else ok / (ok + failed)
        shares.append((n, share))
        if failed <= allowed_failures:
            return Needed(n, sizes[-1], shares)
    return Needed(None, sizes[-1], shares)


# -- honesty -------------------------------------------------------------------------------


def coverage(
    played: Sequence[list[RatedGame]], truth_run: list[RatedGame], names: list[str], bootstrap: int
) -> tuple[float, int]:
    truth = {k: v[0] for k, v in pair_differences(fit_games(truth_run, names, bootstrap=0)).items()}
    hits = []
    for seed in range(len(played)):
        fit = fit_games(played[seed], names, bootstrap=bootstrap, seed=seed)
        q = critical(0.95, fit.deals)
        for pair, (d, se) in pair_differences(fit).items():
            hits.append(abs(d - truth[pair]) <= q * se)
    return sum(hits) / len(hits), len(hits)


def false_separation(
    played: list[list[RatedGame]],
    names: list[str],
    copies: tuple[str, str],
    config: TournamentConfig,
    bootstrap: int,
) -> tuple[float, float, float]:
    """(share separated at the fixed size, share separated under stop="separated", mean games
    the sequential rule played)."""
    fixed = sequential = 0
    used = []
    plan = schedule_looks(build_schedule(config), config.looks)
    for seed, run in enumerate(played):
        fit = fit_games(run, names, bootstrap=bootstrap, seed=seed)
        d, se = pair_differences(fit)[copies]
        fixed += abs(d) > critical(0.95, fit.deals) * se
        analysis = analyse(
            plan, lambda n, run=run: run[:n], names, reference=None, bootstrap=bootstrap, seed=seed
        )
        sequential += pair_verdicts(analysis).get(frozenset(copies)) is not None
        used.append(plan.games[analysis.taken - 1])
    return fixed / len(played), sequential / len(played), statistics.mean(used)


# -- the run -------------------------------------------------------------------------------


def _ladder(variant: str, args: argparse.Namespace, new: Ordered, old: Ordered) -> None:
    reps, size = args.reps, len(LADDER)
    dup_runs = Runs(LADDER, "duplicate", args.ladder_new_max, reps, variant, 1000)
    dup = games_needed(dup_runs, grid(50, args.ladder_new_max, size), new, ADJACENT)
    print(f"  new board, duplicate: {dup.text()} games  (share ordered by size: {_shares(dup)})")
    mixed_runs = Runs(LADDER, "mixed", args.ladder_old_max, reps, variant, 2000)
    mix = games_needed(mixed_runs, grid(250, args.ladder_old_max, 1, step=2), old, ADJACENT)
    print(f"  today's board, mixed: {mix.text()} games  (share ordered by size: {_shares(mix)})")
    _ratio("ladder", dup, mix)


def part_one(variant: str, args: argparse.Namespace, today: Any) -> None:
    reps, boot = args.reps, args.bootstrap
    print(f"\n== {variant}: games needed to order every adjacent pair (80% of {reps} runs) ==")
    print("  (for each board, the share of runs ordering every pair at its last sizes tried)")
    started = time.perf_counter()
    new = new_ordered(boot)
    old = today_ordered(today, args.today_bootstrap)
    if not args.skip_ladder:
        _ladder(variant, args, new, old)
    for stronger, weaker in ADJACENT if not args.skip_pairs else []:
        pair = {weaker: LADDER[weaker], stronger: LADDER[stronger]}
        sides_runs = Runs(pair, "sides", args.pair_new_max, reps, variant, 3000)
        sides = games_needed(sides_runs, grid(20, args.pair_new_max, 2), new, [(stronger, weaker)])
        mixed_pair = Runs(pair, "mixed", args.pair_old_max, reps, variant, 4000)
        old_pair = games_needed(
            mixed_pair, grid(50, args.pair_old_max, 1, step=1.5), old, [(stronger, weaker)]
        )
        print(
            f"  pair {stronger}>{weaker}: new board, sides {sides.text()}; "
            f"today's board, mixed {old_pair.text()}"
        )
        _ratio(f"{stronger}>{weaker}", sides, old_pair)
    print(f"  ({time.perf_counter() - started:.0f}s, {load_average()})")


def _shares(needed: Needed) -> str:
    return ", ".join(f"{n}: {share:.0%}" for n, share in needed.shares[-4:])


def _ratio(what: str, new: Needed, old: Needed) -> None:
    if new.games is None:
        print(f"    {what}: the new board did not order it within {new.largest} games")
    elif old.games is None:
        print(
            f"    {what}: new/today < {new.games / old.largest:.2f} "
            f"(today's did not order it within {old.largest})"
        )
    else:
        print(f"    {what}: new/today = {new.games / old.games:.2f}")


def part_two(variant: str, args: argparse.Namespace) -> None:
    reps, boot = args.honesty_reps, args.bootstrap
    print(f"\n== {variant}: honesty over {reps} tournaments per setting ==")
    started = time.perf_counter()
    n = args.honesty_ladder_games
    ladder_runs = Runs(LADDER, "duplicate", n, reps, variant, 5000)
    big = play(config_of(LADDER, "duplicate", 20 * n, 99, variant))
    share, count = coverage(ladder_runs, big, ORDER, boot)
    print(f"  coverage, ladder (duplicate, {n} games, 10 pairs): {share:.1%} of {count} intervals")
    pair_names = ["p050", "p075"]
    pair = {k: LADDER[k] for k in pair_names}
    m = args.honesty_pair_games
    pair_runs = Runs(pair, "sides", m, reps, variant, 6000)
    big = play(config_of(pair, "sides", 20 * m, 98, variant))
    share, count = coverage(pair_runs, big, pair_names, boot)
    print(f"  coverage, p075 vs p050 (sides, {m} games): {share:.1%} of {count} intervals")
    copies = {"copy-a": LADDER["p050"], "copy-b": LADDER["p050"]}
    cap = args.copies_games
    config = config_of(copies, "sides", cap, 0, variant, stop="separated")
    copy_runs = [play(config.model_copy(update={"seed": 7000 + r})) for r in range(reps)]
    fixed, sequential, used = false_separation(
        copy_runs, ["copy-a", "copy-b"], ("copy-a", "copy-b"), config, boot
    )
    print(
        f"  two copies, sides: separated in {fixed:.1%} at {cap} games; "
        f"{sequential:.1%} with stop=separated (8 looks, mean {used:.0f} games)"
    )
    six = {**LADDER, "p050-copy": LADDER["p050"]}
    cap6 = args.copies_ladder_games
    config = config_of(six, "duplicate", cap6, 0, variant, stop="separated")
    six_runs = [play(config.model_copy(update={"seed": 8000 + r})) for r in range(reps)]
    fixed, sequential, used = false_separation(
        six_runs, list(six), ("p050", "p050-copy"), config, boot
    )
    print(
        f"  two copies inside the ladder (duplicate, 6 entrants): separated in {fixed:.1%} at "
        f"{cap6} games; {sequential:.1%} with stop=separated (mean {used:.0f} games)"
    )
    print(f"  ({time.perf_counter() - started:.0f}s, {load_average()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--baseline", default=BOARD_BASELINE, help="today's board: this commit")
    parser.add_argument("--reps", type=int, default=10, help="tournaments per games-needed figure")
    parser.add_argument("--honesty-reps", type=int, default=50)
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--today-bootstrap", type=int, default=200)
    parser.add_argument("--ladder-new-max", type=int, default=3000)
    parser.add_argument("--ladder-old-max", type=int, default=8000)
    parser.add_argument("--pair-new-max", type=int, default=1200)
    parser.add_argument("--pair-old-max", type=int, default=3000)
    parser.add_argument("--honesty-ladder-games", type=int, default=250)
    parser.add_argument("--honesty-pair-games", type=int, default=100)
    parser.add_argument("--copies-games", type=int, default=200)
    parser.add_argument("--copies-ladder-games", type=int, default=300)
    parser.add_argument("--skip-needed", action="store_true", help="only the honesty figures")
    parser.add_argument("--skip-honesty", action="store_true", help="only the games needed")
    parser.add_argument("--skip-ladder", action="store_true", help="games needed: pairs only")
    parser.add_argument("--skip-pairs", action="store_true", help="games needed: ladder only")
    parser.add_argument("--quick", action="store_true", help="a smoke run: few, small runs")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.honesty_reps, args.bootstrap, args.today_bootstrap = 3, 5, 50, 30
        args.ladder_new_max, args.ladder_old_max = 400, 600
        args.pair_new_max, args.pair_old_max = 200, 300
        args.honesty_ladder_games, args.copies_ladder_games = 100, 120
    print(f"board calibration: ladder {', '.join(LADDER.values())}; {load_average()}")
    today = today_ratings(args.baseline)
    started = time.perf_counter()
    for variant in args.variants.split(","):
        if not args.skip_needed:
            part_one(variant, args, today)
        if not args.skip_honesty:
            part_two(variant, args)
    print(
        f"\n{GAMES_PLAYED[0]:,} games in runs of the ladder and pairs, "
        f"{time.perf_counter() - started:.0f}s in all; {load_average()}"
    )


if __name__ == "__main__":
    main()
