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
  Each rate is printed with its exact (Clopper-Pearson) 95% interval: over 50 tournaments a
  rate of 5% is known only to within about +-6 points, so ``--copies-reps`` raises the count
  for these figures alone (``--copies-first`` starts at a later seed, to split one long
  measurement over several processes: their counts add up).

    python benchmarks/board_calibration.py                     # the full run (about an hour)
    python benchmarks/board_calibration.py --quick             # a smoke run (minutes)
    python benchmarks/board_calibration.py --variants werewolf-9 --reps 10
    python benchmarks/board_calibration.py --variants sports-mafia --skip-needed \
        --honesty copies --copies-reps 400                    # only the two copies, 400 times
    python benchmarks/board_calibration.py --variants sports-mafia --skip-ladder \
        --skip-honesty --pairs 'p050>p025,p075>p050'            # only these pairs' games needed

Part 3, only what the games determine (issue 41), sections of their own (``--sections``; the
default runs every section, ``--quick`` at small sizes):

* ``mixed-copies``: two copies of ``heuristic`` beside ``random`` at ``mixed`` tables, with
  today's equal seat shares and with the varied ones: how often the copies are declared
  separated, how many numbers the board printed, and how many printed numbers the games do
  not fix (found without the board's own check: two refits whose priors favour deception and
  detection in turn move such a number beyond its interval);
* ``sided``: three ``sided:`` entrants whose deception order and detection order are planted
  and differ: the orders a run 20 times larger finds, how many tournaments put each skill in
  order, and the coverage of the pairs' 95% intervals of each skill;
* ``planner``: ``tournament plan``'s games for the gap between p050 and p075 (as a long run
  measures it), then tournaments of that size: the share separating it, beside the 80%
  promised, per schedule;
* ``clone``: the ladder with a copy of p050 added: how far the other rungs' skills move, in
  half-widths of their intervals, beside how far another master seed moves them;
* ``speed``: the whole report of synthetic tournaments (1,000 games of 3 entrants, 10,000 of
  6), one core, on this tree and on the commit before (``--speed-baseline``).

    python benchmarks/board_calibration.py --sections mixed-copies,sided,planner,clone,speed
    python benchmarks/board_calibration.py --sections speed --quick
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import os
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scipy import stats

from baseline import baseline_src, current_src, run_python
from duskfall.arena.plan import make_plan
from duskfall.arena.quick_games import play_schedule
from duskfall.arena.schedule import build_schedule
from duskfall.arena.stopping import analyse, pair_verdicts, schedule_looks
from duskfall.arena.tournament_config import TournamentConfig, parse_tournament
from duskfall.core.sides import EVIL
from duskfall.rating import bradley_terry as skill_model
from duskfall.rating.bradley_terry import ELO_PER_LOGIT, RatedGame, anchored
from duskfall.rating.fit import Estimate, Fit, fit_games, pair_differences
from duskfall.rating.intervals import critical
from duskfall.report.board import SEPARATED, Board, build_board

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
        first_seed: int, **extra: Any,
    ) -> None:  # fmt: skip
        self.config = config_of(entrants, schedule, games, first_seed, variant, **extra)
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
    """The ``duskfall.rating.openskill`` module of commit ``ref`` (OpenSkill, game bootstrap)."""
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


def _prefixes(run: list[RatedGame]) -> Callable[[int], Sequence[RatedGame]]:
    return lambda n: run[:n]


def rate(hits: int, trials: int) -> str:
    """``hits`` of ``trials`` as a share with its exact (Clopper-Pearson) 95% interval."""
    low, high = stats.binomtest(hits, trials).proportion_ci(0.95, method="exact")
    return f"{hits / trials:.1%} ({hits} of {trials}; 95% CI {low:.1%}-{high:.1%})"


def false_separation(
    played: Sequence[list[RatedGame]],
    names: list[str],
    copies: tuple[str, str],
    config: TournamentConfig,
    bootstrap: int,
) -> tuple[int, int, float]:
    """(tournaments separated at the fixed size, tournaments separated under stop="separated",
    mean games the sequential rule played)."""
    fixed = sequential = 0
    used = []
    plan = schedule_looks(build_schedule(config), config.looks)
    for seed in range(len(played)):
        run = played[seed]
        fit = fit_games(run, names, bootstrap=bootstrap, seed=seed)
        d, se = pair_differences(fit)[copies]
        fixed += abs(d) > critical(0.95, fit.deals) * se
        analysis = analyse(
            plan, _prefixes(run), names, reference=None, bootstrap=bootstrap, seed=seed
        )
        sequential += pair_verdicts(analysis).get(frozenset(copies)) is not None
        used.append(plan.games[analysis.taken - 1])
    return fixed, sequential, statistics.mean(used)


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
    for stronger, weaker in _pairs(args):
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


def _pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [] if args.skip_pairs else args.pairs


def chosen_pairs(text: str) -> list[tuple[str, str]]:
    """``--pairs``: "stronger>weaker,..." (adjacent pairs of the ladder; empty: all of them)."""
    if not text:
        return ADJACENT
    chosen = [tuple(p.strip().split(">", 1)) for p in text.split(",") if p.strip()]
    unknown = [">".join(p) for p in chosen if p not in ADJACENT]
    if unknown:
        adjacent = ", ".join(f"{a}>{b}" for a, b in ADJACENT)
        raise ValueError(
            f"not an adjacent pair of the ladder: {', '.join(unknown)} (of {adjacent})"
        )
    return [(a, b) for a, b in chosen]


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


HONESTY = ("coverage", "copies", "ladder-copies")


def part_two(variant: str, args: argparse.Namespace) -> None:
    print(f"\n== {variant}: honesty (repeated tournaments per setting) ==")
    started = time.perf_counter()
    if "coverage" in args.honesty:
        _coverage(variant, args)
    if "copies" in args.honesty:
        copies = {"copy-a": LADDER["p050"], "copy-b": LADDER["p050"]}
        _copies(variant, args, copies, ("copy-a", "copy-b"), "sides", args.copies_games, 7000)
    if "ladder-copies" in args.honesty:
        six = {**LADDER, "p050-copy": LADDER["p050"]}
        _copies(
            variant, args, six, ("p050", "p050-copy"), "duplicate", args.copies_ladder_games, 8000
        )
    print(f"  ({time.perf_counter() - started:.0f}s, {load_average()})")


def _coverage(variant: str, args: argparse.Namespace) -> None:
    reps, boot = args.honesty_reps, args.bootstrap
    n = args.honesty_ladder_games
    ladder_runs = Runs(LADDER, "duplicate", n, reps, variant, 5000)
    big = play(config_of(LADDER, "duplicate", 20 * n, 99, variant))
    share, count = coverage(ladder_runs, big, ORDER, boot)
    print(
        f"  coverage, ladder (duplicate, {n} games, 10 pairs, {reps} tournaments; truth: "
        f"{20 * n} games): {share:.1%} of {count} intervals"
    )
    pair_names = ["p050", "p075"]
    pair = {k: LADDER[k] for k in pair_names}
    m = args.honesty_pair_games
    pair_runs = Runs(pair, "sides", m, reps, variant, 6000)
    big = play(config_of(pair, "sides", 20 * m, 98, variant))
    share, count = coverage(pair_runs, big, pair_names, boot)
    print(
        f"  coverage, p075 vs p050 (sides, {m} games, {reps} tournaments; truth: {20 * m} "
        f"games): {share:.1%} of {count} intervals"
    )


def _copies(
    variant: str,
    args: argparse.Namespace,
    entrants: dict[str, str],
    copies: tuple[str, str],
    schedule: str,
    cap: int,
    first_seed: int,
) -> None:
    """Two copies of one agent: how often the board declares them apart."""
    reps = args.copies_reps or args.honesty_reps
    first_seed += args.copies_first
    config = config_of(entrants, schedule, cap, 0, variant, stop="separated")
    runs = Runs(entrants, schedule, cap, reps, variant, first_seed, stop="separated")
    fixed, sequential, used = false_separation(runs, list(entrants), copies, config, args.bootstrap)
    where = "" if len(entrants) == 2 else f" inside the ladder ({len(entrants)} entrants)"
    seeds = f"seeds {first_seed}-{first_seed + reps - 1}"
    print(
        f"  two copies{where}, {schedule}, {cap} games, {reps} tournaments ({seeds}): separated in"
    )
    print(f"    {rate(fixed, reps)} at the fixed size;")
    print(f"    {rate(sequential, reps)} with stop=separated (8 looks, mean {used:.0f} games)")


# -- round two: only what the games determine ----------------------------------------------

COPIES_MIXED = {"copy-a": "heuristic", "copy-b": "heuristic", "naive": "random"}
# two-sided strengths: (deception, detection) of each entrant, as the share of heuristic decisions
SIDED = {
    "wolf": "sided:heuristic/random",  # (1, 0)
    "even": "sided:mix:heuristic@0.5/random/heuristic",  # (0.5, 1)
    "sheep": "sided:random/mix:heuristic@0.5/random",  # (0, 0.5)
}
PLANTED = {"deception": ["wolf", "even", "sheep"], "detection": ["even", "sheep", "wolf"]}
PLANNED = {"p050": LADDER["p050"], "p075": LADDER["p075"]}


@contextmanager
def equal_shares() -> Iterator[None]:
    """Today's ``mixed``: every entrant the same number of seats at every table (the quotas of
    the commit before the shares varied), for the tournaments played inside."""
    import duskfall.arena.schedule as schedule

    def even(names: Sequence[str], seats: int, rng: random.Random) -> Counter[str]:
        base, extra = divmod(seats, len(names))
        lucky = set(rng.sample(list(names), extra))
        return Counter({name: base + (name in lucky) for name in names})

    saved = schedule._quotas
    schedule._quotas = even
    try:
        yield
    finally:
        schedule._quotas = saved


@contextmanager
def wide_prior(kind: str, factor: float = 10.0) -> Iterator[None]:
    """The board's fit with the prior of one skill (``deception`` or ``detection``) ``factor``
    times wider than the other's: along a direction the games leave free, the fit goes where
    the ratio of the priors sends it."""
    saved = skill_model.Parameters.prior_precision

    def widened(self: skill_model.Parameters) -> skill_model.Vector:
        precision = saved(self)
        columns = slice(0, self.k) if kind == "deception" else slice(self.k, 2 * self.k)
        precision[columns] /= factor**2
        return precision

    skill_model.Parameters.prior_precision = widened  # type: ignore[method-assign]
    try:
        yield
    finally:
        skill_model.Parameters.prior_precision = saved  # type: ignore[method-assign]


def wandering(board: Board, games: Sequence[RatedGame]) -> int:
    """Numbers the board printed that the games do not fix, found without the board's own
    check: refitted once with the deception prior ten times wider than detection's and once
    the other way round, a quantity the games determine moves less than its interval's
    half-width; one only the priors held goes wherever their ratio sends it."""
    names = [e.name for e in board.entrants]
    fits = []
    for kind in ("deception", "detection"):
        with wide_prior(kind):
            fit = fit_games(games, names, bootstrap=0)
        fits.append(anchored(fit.params, fit.theta))
    moved = 0
    for e in board.entrants:
        for kind, shown in (("deception", e.deception), ("detection", e.detection)):
            if shown.measured:
                apart = abs(getattr(fits[0], kind)[e.name] - getattr(fits[1], kind)[e.name])
                moved += apart > (shown.high - shown.low) / 2
        if e.overall.measured:
            apart = abs(fits[0].overall(e.name) - fits[1].overall(e.name))
            moved += apart > (e.overall.high - e.overall.low) / 2
    return moved


def mixed_copies(variant: str, args: argparse.Namespace) -> None:
    """Two copies of ``heuristic`` beside ``random`` at ``mixed`` tables: today's equal
    shares against the varied shares, over ``--mixed-reps`` tournaments."""
    n, reps = args.mixed_games, args.mixed_reps
    print(f"  two copies of heuristic and random, mixed, {n} games, {reps} tournaments:")
    for label, design in (
        ("equal shares (today's mixed)", equal_shares),
        ("varied shares", _as_is),
    ):
        separated = numbers = unmeasured = wandered = 0
        with design():
            runs = Runs(COPIES_MIXED, "mixed", n, reps, variant, 9000)
            for rep in range(reps):
                games = runs[rep]
                board = build_board(
                    games, COPIES_MIXED, bootstrap=args.bootstrap, seed=rep, holdout=False
                )
                pair = board.pair("copy-a", "copy-b")
                separated += pair.verdict == SEPARATED
                unmeasured += not pair.overall.measured
                numbers += sum(e.overall.measured for e in board.entrants)
                wandered += wandering(board, games)
        print(
            f"    {label}: copies separated in {rate(separated, reps)}; overall printed for "
            f"{numbers} of {3 * reps} entrants ({unmeasured} pairs 'not measured by this "
            f"design'); printed numbers the games do not fix: {wandered}"
        )


@contextmanager
def _as_is() -> Iterator[None]:
    yield


def _skill_difference(fit: Fit, kind: str, a: str, b: str) -> Estimate:
    design = fit.design
    return fit.linear(design.skill_contrast(kind, a, None) - design.skill_contrast(kind, b, None))


def sided_ladder(variant: str, args: argparse.Namespace) -> None:
    """Entrants of known two-sided strength: do deception and detection come out in their
    planted (different) orders, and do the pairs' intervals cover the truth?"""
    n, reps = args.sided_games, args.sided_reps
    names = list(SIDED)
    truth_run = play(config_of(SIDED, "duplicate", 20 * n, 97, variant))
    truth_fit = fit_games(truth_run, names, bootstrap=0)
    truth = anchored(truth_fit.params, truth_fit.theta)
    runs = Runs(SIDED, "duplicate", n, reps, variant, 9500)
    ordered: Counter[str] = Counter()
    hits: defaultdict[str, list[bool]] = defaultdict(list)
    for rep in range(reps):
        fit = fit_games(runs[rep], names, bootstrap=args.bootstrap, seed=rep)
        skills = anchored(fit.params, fit.theta)
        for kind, order in PLANTED.items():
            values = getattr(skills, kind)
            ordered[kind] += all(values[a] > values[b] for a, b in itertools.pairwise(order))
            for a, b in itertools.combinations(names, 2):
                shown = _skill_difference(fit, kind, a, b)
                true = getattr(truth, kind)[a] - getattr(truth, kind)[b]
                hits[kind].append(shown.low <= true <= shown.high)
    print(f"  sided ladder ({', '.join(f'{k} = {v}' for k, v in SIDED.items())}):")
    for kind, order in PLANTED.items():
        values = getattr(truth, kind)
        found = sorted(names, key=lambda name: -values[name])
        print(
            f"    {kind}: planted {' > '.join(order)}; a {20 * n}-game run finds "
            f"{' > '.join(f'{x} {values[x]:+.2f}' for x in found)}"
            f" ({'in order' if found == order else 'OUT OF ORDER'}); {n}-game tournaments in "
            f"order: {ordered[kind]} of {reps}; coverage of the pairs' 95% intervals: "
            f"{sum(hits[kind]) / len(hits[kind]):.1%} of {len(hits[kind])}"
        )


def planner(variant: str, args: argparse.Namespace) -> None:
    """The planner's promise: tournaments of the size ``plan`` gives for the pair's true gap
    separate it (in the right direction) in about 80% of runs?"""
    names = list(PLANNED)
    truth_run = play(config_of(PLANNED, "duplicate", args.planner_truth_games, 96, variant))
    fit = fit_games(truth_run, names, bootstrap=0)
    skills = anchored(fit.params, fit.theta)
    gap = (skills.overall("p075") - skills.overall("p050")) * ELO_PER_LOGIT
    plan = make_plan(config_of(PLANNED, "duplicate", 2, 0, variant), gap, None, args.proxy_games)
    print(
        f"  planner: p075 against p050, gap {gap:.0f} rating points (a {len(truth_run)}-game "
        f"run); plan from {plan.source}, variance x{plan.inflation:.2f}; reached power of "
        f"{args.planner_reps} tournaments of the planned size:"
    )
    for need in plan.schedules:
        if need.games is None:
            print(f"    {need.schedule}: plan says not measured ({need.reason})")
            continue
        if need.schedule == "sides":
            print(f"    sides: {need.games} games planned (with two entrants, duplicate's design)")
            continue
        if need.schedule not in args.planner_schedules:
            print(f"    {need.schedule}: {need.games} games planned (not played here)")
            continue
        runs = Runs(PLANNED, need.schedule, need.games, args.planner_reps, variant, 9700)
        separated = 0
        errors = []
        for rep in range(args.planner_reps):
            fitted = fit_games(runs[rep], names, bootstrap=args.bootstrap, seed=rep)
            d, se = pair_differences(fitted)[("p050", "p075")]
            separated += -d - critical(0.95, fitted.deals) * se > 0
            errors.append(se)
        planned_se = need.se_per_game / math.sqrt(need.games)
        print(
            f"    {need.schedule}: {need.games} games planned; separated in "
            f"{rate(separated, args.planner_reps)} (promised 80%); the runs' standard error "
            f"{statistics.mean(errors):.3f} against the plan's {planned_se:.3f}"
        )


def clone(variant: str, args: argparse.Namespace) -> None:
    """Adding a copy of p050 to the ladder: how far the other rungs' skills (relative to
    p000) move, in units of their 95% half-widths, beside how far they move between two
    tournaments that differ only in their master seed."""
    deals, reps = args.clone_deals, args.clone_reps
    cloned = {**LADDER, "p050-copy": LADDER["p050"]}
    others = [name for name in ORDER if name not in ("p000", "p050")] + ["p050"]
    shifts: list[float] = []
    noise: list[float] = []

    def overall(fit: Fit, name: str) -> Estimate:
        d = fit.design
        return fit.linear(
            (
                d.skill_contrast("deception", name, "p000")
                + d.skill_contrast("detection", name, "p000")
            )
            / 2
        )

    for rep in range(reps):
        seed = 9900 + rep
        plain = play(config_of(LADDER, "duplicate", deals * len(LADDER), seed, variant))
        copied = play(config_of(cloned, "duplicate", deals * len(cloned), seed, variant))
        again = play(config_of(LADDER, "duplicate", deals * len(LADDER), seed + 500, variant))
        fits = [
            fit_games(g, list(e), reference="p000", bootstrap=args.bootstrap, seed=rep)
            for g, e in ((plain, LADDER), (copied, cloned), (again, LADDER))
        ]
        for name in others:
            base = overall(fits[0], name)
            half = (base.high - base.low) / 2
            shifts.append(abs(overall(fits[1], name).point - base.point) / half)
            noise.append(abs(overall(fits[2], name).point - base.point) / half)
    print(
        f"  clone: a copy of p050 added to the ladder ({deals} deals, {reps} tournaments): the "
        f"other rungs' overall skill moved {statistics.mean(shifts):.2f} of its 95% half-width "
        f"on average (largest {max(shifts):.2f}; beyond the interval: "
        f"{sum(x > 1 for x in shifts)} of {len(shifts)}); between two seeds without a copy: "
        f"{statistics.mean(noise):.2f} (largest {max(noise):.2f})"
    )


def speed(args: argparse.Namespace) -> None:
    """The whole report's time (board with every interval, and each format) on synthetic
    tournaments, one core, on this tree and on the baseline."""
    os.environ.update(
        {v: "1" for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    )
    script = str(Path(__file__).with_name("board_report_speed.py"))
    sizes = [(1000, 3), (10_000, 6)] if not args.quick else [(1000, 3), (4000, 6)]
    print(f"\n== the report's time, one core ({load_average()}) ==")
    for games, k in sizes:
        now = json.loads(run_python(current_src(), script, str(games), str(k)))
        line = (
            f"  {games:,} games, {k} entrants: {now['cpu']:.2f}s CPU, {now['total']:.2f}s wall "
            f"(board {now['board']:.2f}s, terminal {now['terminal']:.2f}s, JSON "
            f"{now['json']:.2f}s, CSV {now['csv']:.2f}s, HTML {now['html']:.2f}s)"
        )
        if games <= args.speed_baseline_max:
            before = json.loads(
                run_python(baseline_src(args.speed_baseline), script, str(games), str(k))
            )
            cpu = before.get("cpu", before["total"])
            line += (
                f"; baseline {args.speed_baseline}: {cpu:.2f}s CPU, {before['total']:.2f}s "
                f"wall, {cpu / now['cpu']:.1f}x the CPU time"
            )
        print(line)


ROUND_TWO: dict[str, Callable[[str, argparse.Namespace], None]] = {
    "mixed-copies": mixed_copies,
    "sided": sided_ladder,
    "planner": planner,
    "clone": clone,
}
SECTIONS = ("needed", "honesty", *ROUND_TWO, "speed")
SPEED_REPORT_BASELINE = "8859672"  # main before the board's second round (issue 41)


def part_three(variant: str, args: argparse.Namespace) -> None:
    chosen = [name for name in ROUND_TWO if name in args.sections]
    if not chosen:
        return
    print(f"\n== {variant}: only what the games determine ==")
    for name in chosen:
        started = time.perf_counter()
        ROUND_TWO[name](variant, args)
        print(f"    ({time.perf_counter() - started:.0f}s, {load_average()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--baseline", default=BOARD_BASELINE, help="today's board: this commit")
    parser.add_argument("--reps", type=int, default=10, help="tournaments per games-needed figure")
    parser.add_argument("--honesty-reps", type=int, default=50)
    parser.add_argument(
        "--honesty",
        default=",".join(HONESTY),
        help=f"which honesty figures (of {','.join(HONESTY)})",
    )
    parser.add_argument(
        "--copies-reps",
        type=int,
        default=0,
        help="tournaments per two-copies figure (default: --honesty-reps)",
    )
    parser.add_argument(
        "--copies-first",
        type=int,
        default=0,
        help="two copies: skip this many tournaments' seeds (to split a long run over processes)",
    )
    parser.add_argument(
        "--pairs", default="", help="games needed: only these pairs (e.g. p050>p025,p075>p050)"
    )
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
    parser.add_argument(
        "--sections",
        default=",".join(SECTIONS),
        help=f"which sections to run (of {','.join(SECTIONS)})",
    )
    parser.add_argument("--mixed-games", type=int, default=300)
    parser.add_argument("--mixed-reps", type=int, default=50)
    parser.add_argument("--sided-games", type=int, default=300, help="a multiple of 3")
    parser.add_argument("--sided-reps", type=int, default=50)
    parser.add_argument("--planner-reps", type=int, default=50)
    parser.add_argument("--planner-truth-games", type=int, default=4000)
    parser.add_argument(
        "--planner-schedules", default="duplicate,mixed", help="schedules whose plan is played"
    )
    parser.add_argument("--proxy-games", type=int, default=200)
    parser.add_argument("--clone-deals", type=int, default=60)
    parser.add_argument("--clone-reps", type=int, default=10)
    parser.add_argument("--speed-baseline", default=SPEED_REPORT_BASELINE)
    parser.add_argument(
        "--speed-baseline-max", type=int, default=1000, help="baseline: only up to these games"
    )
    args = parser.parse_args()
    args.sections = [x for x in args.sections.split(",") if x]
    args.planner_schedules = [x for x in args.planner_schedules.split(",") if x]
    unknown_sections = [x for x in args.sections if x not in SECTIONS]
    if unknown_sections:
        parser.error(
            f"--sections: unknown {', '.join(unknown_sections)} (of {', '.join(SECTIONS)})"
        )
    try:
        args.pairs = chosen_pairs(args.pairs)
    except ValueError as error:
        parser.error(f"--pairs: {error}")
    args.honesty = [h for h in args.honesty.split(",") if h]
    unknown = [h for h in args.honesty if h not in HONESTY]
    if unknown:
        parser.error(f"--honesty: unknown {', '.join(unknown)} (of {', '.join(HONESTY)})")
    if args.quick:
        args.reps, args.honesty_reps, args.bootstrap, args.today_bootstrap = 3, 5, 50, 30
        args.ladder_new_max, args.ladder_old_max = 400, 600
        args.pair_new_max, args.pair_old_max = 200, 300
        args.honesty_ladder_games, args.copies_ladder_games = 100, 120
        args.mixed_games, args.mixed_reps, args.sided_games, args.sided_reps = 150, 10, 150, 10
        args.planner_reps, args.planner_truth_games, args.proxy_games = 10, 1000, 60
        args.clone_deals, args.clone_reps = 30, 3
    print(f"board calibration: ladder {', '.join(LADDER.values())}; {load_average()}")
    today = today_ratings(args.baseline) if "needed" in args.sections else None
    started = time.perf_counter()
    for variant in args.variants.split(","):
        if "needed" in args.sections and not args.skip_needed:
            part_one(variant, args, today)
        if "honesty" in args.sections and not args.skip_honesty:
            part_two(variant, args)
        part_three(variant, args)
    if "speed" in args.sections:
        speed(args)
    print(
        f"\n{GAMES_PLAYED[0]:,} games in runs of the ladder and pairs, "
        f"{time.perf_counter() - started:.0f}s in all; {load_average()}"
    )


if __name__ == "__main__":
    main()
