"""OpenSkill ratings of tournament entrants: the board's comparison column.

Each game is one Plackett-Luce match between two teams, the evil side and the village side.
A team's members are the entrants holding its seats (each once, however many seats it held,
so a 3-seat side and a 7-seat side are matched evenly and a ``sides`` game is a one-on-one).
When entrants share a side (``mixed``), each member is weighted by its share of the side's
seats (OpenSkill's partial-play weights). An entrant on both sides of a game gets the sum of
its two updates to ``mu`` and the smaller ``sigma``. Draws rank both sides equal.

OpenSkill updates game by game, so its numbers depend on the order of the games and drift
when an entrant sits on both sides; the board's own model (:mod:`duskfall.rating.bradley_terry`)
is fitted to all games at once. The interval of ``mu`` comes from the same deal bootstrap as
the board's: the deals are resampled with replacement (seeded), each resample rated in order,
and the interval is ``mu`` plus or minus the t quantile times the spread of the resampled
``mu`` (so it always holds its own point).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from duskfall.core.errors import ConfigError
from duskfall.core.sides import EVIL
from duskfall.rating.bradley_terry import RatedGame
from duskfall.rating.intervals import DealResampler, symmetric_interval
from duskfall.rating.openskill_batch import TwoTeamGames, rate_sequences


def openskill_model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise ConfigError(
            "tournament ratings need openskill: pip install 'duskfall[arena]'"
        ) from None
    return PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    low: float = float("nan")  # 95% interval of mu
    high: float = float("nan")
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative estimate: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float | int | None]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "low": None if math.isnan(self.low) else round(self.low, 4),
            "high": None if math.isnan(self.high) else round(self.high, 4),
            "games": self.games,
        }


Order = Sequence[int] | NDArray[np.int64]  # game numbers, in the order they are rated
RANKS = {1.0: [1, 2], 0.0: [2, 1], 0.5: [1, 1]}  # result -> ranks of (evil, village)


def _teams(game: RatedGame) -> list[Counter[str]]:
    return [
        Counter(s.entrant for s in game.seats if s.side == EVIL),
        Counter(s.entrant for s in game.seats if s.side != EVIL),
    ]


def openskill_table(games: Sequence[RatedGame], model: Any) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of every entrant after rating ``games`` in order."""
    table: dict[str, tuple[float, float]] = {}
    for game in games:
        teams = _teams(game)
        start = {k: table.get(k, (model.mu, model.sigma)) for team in teams for k in team}
        ratings = [
            [model.rating(mu=start[k][0], sigma=start[k][1]) for k in team] for team in teams
        ]
        ranks = RANKS[game.result]
        if any(len(team) > 1 for team in teams):  # shared sides: weigh by seats held
            weights = [[n / team.total() for n in team.values()] for team in teams]
            rated = model.rate(ratings, ranks=ranks, weights=weights)
        else:
            rated = model.rate(ratings, ranks=ranks)
        updates: defaultdict[str, list[tuple[float, float]]] = defaultdict(list)
        for team, new in zip(teams, rated, strict=True):
            for k, rating in zip(team, new, strict=True):
                updates[k].append((rating.mu, rating.sigma))
        for k, values in updates.items():
            mu = start[k][0] + sum(v[0] - start[k][0] for v in values)
            table[k] = (mu, min(v[1] for v in values))
    return table


def openskill_predict(
    table: dict[str, tuple[float, float]], games: Sequence[RatedGame], model: Any
) -> list[float]:
    """P(evil wins) of each game from OpenSkill's own win prediction."""
    out = []
    for game in games:
        teams = [
            [model.rating(*table.get(k, (model.mu, model.sigma))) for k in team]
            for team in _teams(game)
        ]
        out.append(float(model.predict_win(teams)[0]))
    return out


def openskill_ratings(
    games: Sequence[RatedGame],
    *,
    bootstrap: int,
    seed: int,
    level: float = 0.95,
    teams: TwoTeamGames | None = None,
    extra: Sequence[Order] = (),
) -> tuple[dict[str, Rating], tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Every entrant's OpenSkill rating over ``games`` (in schedule order) with its deal
    bootstrap interval. The games and every resample are rated together, step by step
    (:mod:`duskfall.rating.openskill_batch`: OpenSkill's updates, vectorised), and in the
    same pass the ``extra`` orders of the games, whose (mu, sigma) per entrant of ``teams``
    come back beside the ratings (the held-out prediction's folds)."""
    if teams is None:
        teams = TwoTeamGames(games, list(dict.fromkeys(s.entrant for g in games for s in g.seats)))
    counts = Counter(name for game in games for name in {s.entrant for s in game.seats})
    resampler = DealResampler([g.deal for g in games], seed)
    orders: list[Order] = [list(range(len(games)))]
    orders += [resampler.draw_array() for _ in range(bootstrap if resampler.deals > 1 else 0)]
    mu, sigma, seen = rate_sequences(teams, padded([*orders, *extra]))
    out = {}
    for i, name in enumerate(teams.entrants):
        if not seen[0, i]:
            continue
        samples = [float(mu[r, i]) for r in range(1, len(orders)) if seen[r, i]]
        low, high = symmetric_interval(float(mu[0, i]), samples, resampler.deals, level)
        out[name] = Rating(float(mu[0, i]), float(sigma[0, i]), low, high, counts[name])
    return out, (mu[len(orders) :], sigma[len(orders) :])


def openskill_tables(
    games: Sequence[RatedGame], orders: Sequence[Sequence[int]]
) -> list[dict[str, tuple[float, float]]]:
    """(mu, sigma) of every entrant after rating each order of ``games`` (as
    :func:`openskill_table` does for one, all orders at once)."""
    names = list(dict.fromkeys(s.entrant for game in games for s in game.seats))
    mu, sigma, seen = rate_sequences(TwoTeamGames(games, names), padded(orders))
    return [
        {n: (float(mu[r, i]), float(sigma[r, i])) for i, n in enumerate(names) if seen[r, i]}
        for r in range(len(orders))
    ]


def padded(orders: Sequence[Order]) -> NDArray[np.int64]:
    """Sequences of game numbers as one array, the shorter ones padded with -1."""
    longest = max((len(o) for o in orders), default=0)
    out = np.full((len(orders), longest), -1, dtype=np.int64)
    for r, order in enumerate(orders):
        out[r, : len(order)] = order
    return out
