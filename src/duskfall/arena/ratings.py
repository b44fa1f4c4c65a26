"""OpenSkill ratings of tournament entrants, with bootstrap intervals.

Each game is one Plackett-Luce match between two teams, the evil side and the village side.
A team's members are the entrants holding its seats (each once, however many seats it held,
so a 3-seat side and a 7-seat side are matched evenly and a ``sides`` game is a one-on-one),
rated as the entrant (overall), as the entrant on that side, or as the entrant in that role.
When entrants share a side (``mixed``), each member is weighted by its share of the side's
seats (OpenSkill's partial-play weights), so the result counts more for who held more seats.
An entrant on both sides of a game (``mixed`` schedules) gets the sum of its two updates to
``mu`` and the smaller ``sigma``. Draws rank both sides
equal; aborted games are not rated.

The 95% interval of a rating comes from resampling the games with replacement
(``bootstrap`` times, seeded, so the same games give the same intervals) and rating each
resample in slot order: the 2.5th and 97.5th percentiles of the entrant's ``mu``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from duskfall.arena.results import PlayedGame, PlayedSeat
from duskfall.arena.schedule import EVIL
from duskfall.core.errors import ConfigError

MIN_ROLE_PLAYS = 30

Key = Callable[[PlayedSeat], Hashable]


def _model() -> Any:
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
    low: float = float("nan")  # bootstrap 95% interval of mu
    high: float = float("nan")
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative estimate: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, float | int]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "games": self.games,
        }


def _rate(games: Sequence[PlayedGame], key: Key, model: Any) -> dict[Hashable, tuple[float, float]]:
    table: dict[Hashable, tuple[float, float]] = {}
    for game in games:
        teams: list[Counter[Hashable]] = [
            Counter(key(s) for s in game.seats if s.side == EVIL),
            Counter(key(s) for s in game.seats if s.side != EVIL),
        ]
        start = {k: table.get(k, (model.mu, model.sigma)) for team in teams for k in team}
        ratings = [
            [model.rating(mu=start[k][0], sigma=start[k][1]) for k in team] for team in teams
        ]
        if game.winner_side is None:
            ranks = [1, 1]
        else:
            ranks = [1, 2] if game.winner_side == EVIL else [2, 1]
        if any(len(team) > 1 for team in teams):  # shared sides: weigh by seats held
            weights = [[n / team.total() for n in team.values()] for team in teams]
            rated = model.rate(ratings, ranks=ranks, weights=weights)
        else:
            rated = model.rate(ratings, ranks=ranks)
        updates: defaultdict[Hashable, list[tuple[float, float]]] = defaultdict(list)
        for team, new in zip(teams, rated, strict=True):
            for k, rating in zip(team, new, strict=True):
                updates[k].append((rating.mu, rating.sigma))
        for k, values in updates.items():
            mu = start[k][0] + sum(v[0] - start[k][0] for v in values)
            sigma = min(v[1] for v in values)
            table[k] = (mu, sigma)
    return table


def rate(
    games: Sequence[PlayedGame], key: Key, *, bootstrap: int = 200, seed: int = 0
) -> dict[Hashable, Rating]:
    """Ratings of every key over ``games`` (in slot order), with bootstrap intervals."""
    model = _model()
    played = sorted((g for g in games if g.rated), key=lambda g: g.slot)
    point = _rate(played, key, model)
    counts: defaultdict[Hashable, int] = defaultdict(int)
    for game in played:
        for k in {key(seat) for seat in game.seats}:
            counts[k] += 1
    samples: defaultdict[Hashable, list[float]] = defaultdict(list)
    rng = random.Random(seed)
    for _ in range(bootstrap if played else 0):
        resample = sorted(rng.choices(played, k=len(played)), key=lambda g: g.slot)
        for k, (mu, _sigma) in _rate(resample, key, model).items():
            samples[k].append(mu)
    out = {}
    for k, (mu, sigma) in point.items():
        low, high = _percentiles(samples.get(k, []))
        out[k] = Rating(mu, sigma, low, high, counts[k])
    return out


def _percentiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return (float("nan"), float("nan"))
    ordered = sorted(values)
    last = len(ordered) - 1
    return ordered[round(0.025 * last)], ordered[round(0.975 * last)]


def by_entrant(seat: PlayedSeat) -> Hashable:
    return seat.entrant


def by_side(seat: PlayedSeat) -> Hashable:
    return (seat.entrant, seat.side)


def by_role(seat: PlayedSeat) -> Hashable:
    return (seat.entrant, seat.role)


def role_ratings(
    games: Sequence[PlayedGame], *, bootstrap: int, seed: int
) -> dict[Hashable, Rating]:
    """Ratings per (entrant, role), kept for roles an entrant played at least
    :data:`MIN_ROLE_PLAYS` times."""
    ratings = rate(games, by_role, bootstrap=bootstrap, seed=seed)
    plays: defaultdict[Hashable, int] = defaultdict(int)
    for game in games:
        if game.rated:
            for seat in game.seats:
                plays[by_role(seat)] += 1
    return {k: r for k, r in ratings.items() if plays[k] >= MIN_ROLE_PLAYS}
