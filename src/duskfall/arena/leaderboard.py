"""A tournament's results in one object: ratings, win rates, head-to-head, behaviour, spending.

:func:`build_report` reads the finished games of a tournament (index + logs) and computes
everything the terminal table, the JSON and CSV exports and the HTML report show.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.arena.calibration import Calibration, calibration_of
from duskfall.arena.metrics import SeatMetrics, total
from duskfall.arena.ratings import Rating, by_entrant, by_side, rate, role_ratings
from duskfall.arena.results import PlayedGame, played_game
from duskfall.arena.stats import Proportion
from duskfall.arena.tournament import TournamentProgress


@dataclass
class EntrantResult:
    name: str
    spec: str
    rating: Rating
    side_ratings: dict[str, Rating] = field(default_factory=dict)
    role_ratings: dict[str, Rating] = field(default_factory=dict)
    win_rates: dict[str, Proportion] = field(default_factory=dict)  # "all", side, role
    metrics: SeatMetrics = field(default_factory=SeatMetrics)
    role_metrics: dict[str, SeatMetrics] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "agent": self.spec,
            "rating": self.rating.to_dict(),
            "side_ratings": {k: r.to_dict() for k, r in self.side_ratings.items()},
            "role_ratings": {k: r.to_dict() for k, r in self.role_ratings.items()},
            "win_rates": {k: _proportion(p) for k, p in self.win_rates.items()},
            "metrics": self.metrics.summary(),
            "role_metrics": {k: m.summary() for k, m in self.role_metrics.items()},
        }


def _proportion(p: Proportion) -> dict[str, Any]:
    low, high = p.interval()
    return {"wins": p.successes, "games": p.trials, "rate": p.rate, "low": low, "high": high}


@dataclass
class TournamentReport:
    name: str
    schedule: str
    games_scheduled: int
    games_played: int
    games_aborted: int
    entrants: list[EntrantResult]
    head_to_head: dict[str, dict[str, Proportion]]
    games: list[PlayedGame]
    calibration: Calibration
    total_tokens: int = 0
    total_cost_usd: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "schedule": self.schedule,
            "games_scheduled": self.games_scheduled,
            "games_played": self.games_played,
            "games_aborted": self.games_aborted,
            "total_tokens": self.total_tokens,
            "total_cost_usd": round(self.total_cost_usd, 6),
            "leaderboard": [e.to_dict() for e in self.entrants],
            "head_to_head": {
                a: {b: _proportion(p) for b, p in row.items()}
                for a, row in self.head_to_head.items()
            },
            "calibration": self.calibration.to_dict(),
            "games": [
                {
                    "id": g.game_id,
                    "slot": g.slot,
                    "variant": g.variant,
                    "winner_side": g.winner_side,
                    "termination": g.termination,
                    "log": g.log_path,
                }
                for g in self.games
            ],
        }

    def csv(self) -> str:
        """One row per entrant: rating with interval, win rates, main behaviour metrics."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        columns = [
            "rank", "entrant", "agent", "mu", "sigma", "low", "high", "ordinal", "games",
            "win_rate", "win_low", "win_high", "evil_mu", "village_mu",
            *SeatMetrics().summary(),
        ]  # fmt: skip
        writer.writerow(columns)
        for rank, e in enumerate(self.entrants, 1):
            overall = e.win_rates.get("all", Proportion(0, 0))
            low, high = overall.interval()
            evil, village = e.side_ratings.get("evil"), e.side_ratings.get("village")
            writer.writerow(
                [
                    rank, e.name, e.spec, *_fmt(e.rating.mu, e.rating.sigma, e.rating.low),
                    *_fmt(e.rating.high, e.rating.ordinal), e.rating.games,
                    *_fmt(overall.rate, low, high),
                    *_fmt(evil.mu if evil else None, village.mu if village else None),
                    *e.metrics.summary().values(),
                ]
            )  # fmt: skip
        return buffer.getvalue()


def _fmt(*values: float | None) -> list[str]:
    return ["" if v is None else f"{v:.4f}" for v in values]


def _win_rates(games: Sequence[PlayedGame]) -> dict[str, dict[str, Proportion]]:
    """Per entrant, overall, per side and per role: games in which the entrant held such a
    seat, won by that seat's side (in a ``mixed`` game an entrant on both sides has one win
    and one loss under "all")."""
    wins: defaultdict[str, defaultdict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    for game in games:
        if not game.rated:
            continue
        counted: set[tuple[str, str, bool]] = set()
        for seat in game.seats:
            won = seat.side == game.winner_side
            for key in ("all", seat.side, seat.role):
                counted.add((seat.entrant, key, won))
        for entrant, key, won in counted:
            wins[entrant][key][0] += int(won)
            wins[entrant][key][1] += 1
    return {
        name: {key: Proportion(w, n) for key, (w, n) in rows.items()} for name, rows in wins.items()
    }


def _head_to_head(games: Sequence[PlayedGame]) -> dict[str, dict[str, Proportion]]:
    """For ``sides`` games: row entrant's wins against the column entrant (both sides)."""
    counts: defaultdict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for game in games:
        if game.pairing is None or not game.rated:
            continue
        evil, village = game.pairing
        for me, them, side in ((evil, village, "evil"), (village, evil, "village")):
            counts[me, them][0] += int(game.winner_side == side)
            counts[me, them][1] += 1
    out: dict[str, dict[str, Proportion]] = defaultdict(dict)
    for (me, them), (w, n) in counts.items():
        out[me][them] = Proportion(w, n)
    return dict(out)


def build_report(progress: TournamentProgress, *, bootstrap: int = 200) -> TournamentReport:
    """Everything the reports show, from the finished games of a tournament."""
    config = progress.config
    games = [played_game(row) for _, row in sorted(progress.done.items())]
    seed = config.seed % 2**32
    overall = rate(games, by_entrant, bootstrap=bootstrap, seed=seed)
    sides = rate(games, by_side, bootstrap=bootstrap, seed=seed)
    roles = role_ratings(games, bootstrap=bootstrap, seed=seed)
    win_rates = _win_rates(games)
    seat_metrics: defaultdict[Hashable, list[SeatMetrics]] = defaultdict(list)
    for game in games:
        for seat in game.seats:
            seat_metrics[seat.entrant].append(seat.metrics)
            seat_metrics[seat.entrant, seat.role].append(seat.metrics)
    entrants = []
    for name, spec in config.entrants.items():
        entrants.append(
            EntrantResult(
                name,
                spec,
                overall.get(name, Rating(25.0, 25 / 3)),
                {side: r for (n, side), r in _pairs(sides) if n == name},
                {role: r for (n, role), r in _pairs(roles) if n == name},
                win_rates.get(name, {}),
                total(seat_metrics.get(name, [])),
                {
                    str(key[1]): total(values)
                    for key, values in seat_metrics.items()
                    if isinstance(key, tuple) and key[0] == name
                },
            )
        )
    entrants.sort(key=lambda e: e.rating.mu, reverse=True)
    spent = [s.metrics for g in games for s in g.seats]
    return TournamentReport(
        name=config.name,
        schedule=config.schedule,
        games_scheduled=len(progress.schedule),
        games_played=len(games),
        games_aborted=sum(not g.rated for g in games),
        entrants=entrants,
        head_to_head=_head_to_head(games),
        games=games,
        calibration=calibration_of(progress.done.values(), config.entrants),
        total_tokens=sum(m.prompt_tokens + m.completion_tokens for m in spent),
        total_cost_usd=sum(m.cost_usd for m in spent),
    )


def _pairs(ratings: dict[Hashable, Rating]) -> list[tuple[tuple[str, str], Rating]]:
    return [(k, r) for k, r in ratings.items() if isinstance(k, tuple)]
