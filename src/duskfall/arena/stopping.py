"""The sequential analysis of a ``stop = "separated"`` tournament, look by look.

The same function decides during the run (at each planned look, before any game past it
starts) and explains afterwards in the report: it is a deterministic function of the games of
each look's prefix of the schedule (seeded bootstrap), so the report recomputes exactly the
decision the run took. The rule is :mod:`duskfall.rating.sequential`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from duskfall.arena.progress import tournament_progress
from duskfall.arena.rated import block_labels, rated_game
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.arena.tournament_run import Looks
from duskfall.rating.bradley_terry import RatedGame
from duskfall.rating.fit import Fit, fit_games, pair_differences
from duskfall.rating.sequential import LookPlan, PairLook, PairState, judge, plan_looks, t_boundary
from duskfall.store.index import GameIndex

SEPARATED_ALL = "every pair separated"


def schedule_looks(slots: Sequence[Slot], looks: int) -> LookPlan:
    """The planned looks of a schedule: ends of deals, evenly up to the cap."""
    sizes: list[int] = []
    last = None
    for slot in slots:
        if slot.deal != last:
            sizes.append(0)
            last = slot.deal
        sizes[-1] += 1
    return plan_looks(sizes, looks)


@dataclass
class Analysis:
    """The looks taken so far and what they decided."""

    plan: LookPlan
    taken: int = 0  # looks evaluated
    states: dict[tuple[str, str], PairState] = field(default_factory=dict)
    stop_reason: str | None = None
    last_fit: Fit | None = None

    @property
    def stopped(self) -> bool:
        return self.stop_reason is not None

    def boundary(self, deals: int) -> float:
        """The last look's boundary on t (the repeated confidence interval's multiplier)."""
        look = max(self.taken - 1, 0)
        return t_boundary(self.plan.boundaries[look], deals)


def look(
    analysis: Analysis,
    number: int,
    games: Sequence[RatedGame],
    entrants: Sequence[str],
    *,
    reference: str | None,
    bootstrap: int,
    seed: int,
) -> Analysis:
    """Take look ``number`` (0-based) on the games of its prefix; may set ``stop_reason``."""
    fit = fit_games(games, entrants, reference=reference, bootstrap=bootstrap, seed=seed)
    plan = analysis.plan
    for pair, (difference, se) in pair_differences(fit).items():
        boundary = t_boundary(plan.boundaries[number], fit.deals)
        state = analysis.states.get(pair, PairState())
        if math.isnan(difference):  # not measured by these games yet: no verdict, no stop
            analysis.states[pair] = state
            continue
        analysis.states[pair] = judge(
            state, number, PairLook(difference, se if se == se else 0.0, fit.deals, boundary), plan
        )
    analysis.taken = number + 1
    analysis.last_fit = fit
    states = analysis.states.values()
    if states and all(s.resolved for s in states):
        separated = sum(s.separated_at is not None for s in states)
        if separated == len(analysis.states):
            analysis.stop_reason = SEPARATED_ALL
        elif number == len(plan.games) - 1:
            analysis.stop_reason = f"the cap: {separated} of {len(analysis.states)} pairs separated"
        else:
            analysis.stop_reason = (
                f"{separated} of {len(analysis.states)} pairs separated, the others cannot be "
                "within the cap"
            )
    return analysis


def analyse(
    plan: LookPlan,
    games_by_prefix: Callable[[int], Sequence[RatedGame] | None],
    entrants: Sequence[str],
    *,
    reference: str | None,
    bootstrap: int,
    seed: int,
) -> Analysis:
    """Every look whose prefix is complete, in order, until one stops the tournament.

    ``games_by_prefix(n)`` gives the rated games of the schedule's first ``n`` slots, or None
    when some of them have not been played."""
    analysis = Analysis(plan)
    for number, games_at in enumerate(plan.games):
        games = games_by_prefix(games_at)
        if games is None:
            break
        look(analysis, number, games, entrants, reference=reference, bootstrap=bootstrap, seed=seed)
        if analysis.stopped:
            break
    return analysis


def pair_verdicts(analysis: Analysis) -> Mapping[frozenset[str], int | None]:
    """Each pair's look (1-based) of separation, or None."""
    return {
        frozenset(pair): None if s.separated_at is None else s.separated_at + 1
        for pair, s in analysis.states.items()
    }


def separation_looks(config: TournamentConfig, db: Path) -> Looks:
    """The run's looks for ``stop = "separated"``: at each, the games of the prefix are read
    back from the index (results, and the deal from the schedule) and the rule decides."""
    schedule = build_schedule(config)
    plan = schedule_looks(schedule, config.looks)
    labels = block_labels(config)
    by_index = {slot.index: slot for slot in schedule}

    def decide(prefix: int) -> str | None:
        with GameIndex(db) as index:
            done = tournament_progress(config, index).done
        rated: dict[int, RatedGame | None] = {
            i: rated_game(by_index[i], labels, row.winner, row.termination or "")
            for i, row in done.items()
            if i in by_index
        }

        def games_of(n: int) -> list[RatedGame] | None:
            if n > prefix or any(i not in rated for i in range(n)):
                return None
            return [g for i in range(n) if (g := rated[i]) is not None]

        analysis = analyse(
            plan,
            games_of,
            list(config.entrants),
            reference=config.board.reference,
            bootstrap=config.board.bootstrap,
            seed=config.stats_seed,
        )
        return analysis.stop_reason if analysis.stopped else None

    return Looks(plan.games[:-1], decide)
