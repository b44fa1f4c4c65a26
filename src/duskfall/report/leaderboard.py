"""A tournament's results in one object: the board (ratings, pairs, predictions, the stopping
rule), behaviour metrics, self-exposure and leak metrics, the paired ablations of its forks
blocks, belief calibration, spending and the games.

:func:`build_report` reads the finished games of a tournament (index + logs) and computes
everything the terminal tables, the JSON and CSV exports, the HTML report and the web page
show; every rating number comes from its :class:`~duskfall.report.board.Board`.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.arena.progress import TournamentProgress
from duskfall.arena.rated import block_labels, result_of
from duskfall.arena.stopping import Analysis, analyse, pair_verdicts, schedule_looks
from duskfall.lab.leaks import LeakMetrics
from duskfall.rating.bradley_terry import RatedGame, RatedSeat
from duskfall.rating.fit import Estimate
from duskfall.report.ablations import PairedDifference, ablations
from duskfall.report.board import Board, Stopping, build_board
from duskfall.report.calibration import Calibration, calibration_of
from duskfall.report.metrics import SeatMetrics, total
from duskfall.report.results import PlayedGame, entrant_leaks, played_game


@dataclass
class EntrantResult:
    """An entrant's behaviour (its ratings are on the board), and what its seats gave away in
    public (:mod:`duskfall.lab.leaks`)."""

    name: str
    spec: str
    metrics: SeatMetrics = field(default_factory=SeatMetrics)
    role_metrics: dict[str, SeatMetrics] = field(default_factory=dict)
    leaks: LeakMetrics = field(default_factory=LeakMetrics)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "agent": self.spec,
            "metrics": self.metrics.summary(),
            "role_metrics": {k: m.summary() for k, m in self.role_metrics.items()},
            "leaks": self.leaks.summary(),
        }


@dataclass
class TournamentReport:
    name: str
    schedule: str
    games_scheduled: int
    games_played: int
    games_aborted: int
    board: Board
    entrants: list[EntrantResult]  # in the board's order
    games: list[PlayedGame]
    calibration: Calibration
    total_tokens: int = 0
    total_cost_usd: float = 0.0
    ablations: list[PairedDifference] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "schedule": self.schedule,
            "games_scheduled": self.games_scheduled,
            "games_played": self.games_played,
            "games_aborted": self.games_aborted,
            "total_tokens": self.total_tokens,
            "total_cost_usd": round(self.total_cost_usd, 6),
            "board": self.board.to_dict(),
            "behaviour": [e.to_dict() for e in self.entrants],
            "ablations": [d.to_dict() for d in self.ablations],
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
        """One row per entrant: the board's numbers (logits and Elo), OpenSkill, win rates,
        cost and the main behaviour metrics."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        behaviour = {e.name: e for e in self.entrants}
        writer.writerow(
            [
                "rank", "entrant", "agent", "games",
                *_estimate_columns("overall"), *_estimate_columns("elo"),
                *_estimate_columns("deception"), *_estimate_columns("detection"),
                "openskill_mu", "openskill_low", "openskill_high",
                "evil_win_rate", "village_win_rate", "cost_per_game", "frontier", "tier",
                "not_measured",
                *SeatMetrics().summary(),
            ]
        )  # fmt: skip
        for rank, e in enumerate(self.board.entrants, 1):
            os = e.openskill
            rates = [e.win_rates.get(side) for side in ("evil", "village")]
            writer.writerow(
                [
                    rank, e.name, e.agent, e.games,
                    *_estimate_cells(e.overall), *_estimate_cells(e.elo),
                    *_estimate_cells(e.deception), *_estimate_cells(e.detection),
                    *(_cells(os.mu, os.low, os.high) if os else ["", "", ""]),
                    *(_cells(r.wins / r.games)[0] if r and r.games else "" for r in rates),
                    f"{e.cost_per_game:.6f}", e.frontier, "" if e.tier is None else e.tier,
                    _reasons(e.overall, e.deception, e.detection),
                    *behaviour[e.name].metrics.summary().values(),
                ]
            )  # fmt: skip
        return buffer.getvalue()

    def pairs_csv(self) -> str:
        """One row per pair: the difference of overall skill (logits and Elo), its interval,
        the verdict, the model's chance that the first beats the second, their record."""
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(
            ["a", "b", *_estimate_columns("difference"), *_estimate_columns("elo_difference"),
             "verdict", "separated_at_look", "p_a_beats_b", "p_low", "p_high", "a_wins", "games",
             "not_measured"]
        )  # fmt: skip
        for p in self.board.pairs:
            writer.writerow(
                [
                    p.a, p.b, *_estimate_cells(p.overall), *_estimate_cells(p.elo), p.verdict,
                    p.separated_at or "", *_cells(p.a_beats_b.point, p.a_beats_b.low,
                    p.a_beats_b.high), p.record[0], p.record[1],
                    _reasons(p.overall, p.deception, p.detection, p.a_beats_b),
                ]
            )  # fmt: skip
        return buffer.getvalue()


def _reasons(*estimates: Estimate) -> str:
    """Why a row's empty cells are empty: the design does not measure them (or nothing)."""
    return next((e.reason for e in estimates if e.reason), "")


def _estimate_columns(name: str) -> list[str]:
    return [name, f"{name}_low", f"{name}_high", f"{name}_se"]


def _estimate_cells(e: Estimate) -> list[str]:
    return _cells(e.point, e.low, e.high, e.se)


def _cells(*values: float) -> list[str]:
    return ["" if v != v else f"{v:.4f}" for v in values]  # NaN: empty


def rated_by_slot(
    progress: TournamentProgress, games: Sequence[PlayedGame]
) -> dict[int, RatedGame | None]:
    """Each played game's slot -> the game as the board's model reads it (None: aborted)."""
    labels = block_labels(progress.config)
    slots = {slot.index: slot for slot in progress.schedule}
    out: dict[int, RatedGame | None] = {}
    for game in games:
        slot = slots.get(game.slot)
        if slot is None:
            continue
        result = result_of(game.winner_side, game.termination)
        seats = tuple(RatedSeat(s.entrant, s.role, s.side) for s in game.seats)
        out[slot.index] = (
            None if result is None else RatedGame(labels[slot.block], slot.deal, seats, result)
        )
    return out


def sequential_analysis(
    progress: TournamentProgress, rated: dict[int, RatedGame | None], bootstrap: int
) -> Analysis:
    """The looks of a ``stop = "separated"`` tournament over its played games (``rated``:
    slot -> its rated game, None for an aborted one)."""
    config = progress.config

    def prefix(n: int) -> list[RatedGame] | None:
        if any(i not in rated for i in range(n)):
            return None
        return [g for i in range(n) if (g := rated[i]) is not None]

    return analyse(
        schedule_looks(progress.schedule, config.looks),
        prefix,
        list(config.entrants),
        reference=config.board.reference,
        bootstrap=bootstrap,
        seed=config.stats_seed,
    )


def build_report(progress: TournamentProgress, *, bootstrap: int | None = None) -> TournamentReport:
    """Everything the reports show, from the finished games of a tournament."""
    config = progress.config
    resamples = config.board.bootstrap if bootstrap is None else bootstrap
    games = [played_game(row) for _, row in sorted(progress.done.items())]
    rated = rated_by_slot(progress, games)
    rated_list = [game for _, game in sorted(rated.items()) if game is not None]
    seat_metrics: defaultdict[Hashable, list[SeatMetrics]] = defaultdict(list)
    for game in games:
        for seat in game.seats:
            seat_metrics[seat.entrant].append(seat.metrics)
            seat_metrics[seat.entrant, seat.role].append(seat.metrics)
    metrics = {name: total(seat_metrics.get(name, [])) for name in config.entrants}
    leaks = entrant_leaks(games)
    spending = {n: (m.cost_usd, m.prompt_tokens + m.completion_tokens) for n, m in metrics.items()}
    analysis = None
    if config.stop == "separated":
        analysis = sequential_analysis(progress, rated, resamples)
    board = build_board(
        rated_list,
        config.entrants,
        reference=config.board.reference,
        role_effects=config.board.role_effects,
        bootstrap=resamples,
        seed=config.stats_seed,
        spending=spending,
        multiplier=analysis.boundary if analysis is not None and analysis.taken else None,
        verdicts=pair_verdicts(analysis) if analysis is not None else None,
    )
    if analysis is not None:
        board.stopping = _stopping(analysis, len(games))
    entrants = [
        EntrantResult(
            e.name,
            e.agent,
            metrics[e.name],
            {
                str(key[1]): total(values)
                for key, values in seat_metrics.items()
                if isinstance(key, tuple) and key[0] == e.name
            },
            leaks.get(e.name, LeakMetrics()),
        )
        for e in board.entrants
    ]
    spent = [s.metrics for g in games for s in g.seats]
    return TournamentReport(
        name=config.name,
        schedule=config.schedule,
        games_scheduled=len(progress.schedule),
        games_played=len(games),
        games_aborted=sum(not g.rated for g in games),
        board=board,
        entrants=entrants,
        games=games,
        calibration=calibration_of(progress.done.values(), config.entrants),
        total_tokens=sum(m.prompt_tokens + m.completion_tokens for m in spent),
        total_cost_usd=sum(m.cost_usd for m in spent),
        ablations=ablations(config, progress.schedule, games) if config.forks else [],
    )


def _stopping(analysis: Analysis, played: int) -> Stopping:
    plan = analysis.plan
    return Stopping(
        plan=plan.to_dict(),
        looks_taken=analysis.taken,
        stopped=analysis.stopped,
        reason=analysis.stop_reason or "running: no look has stopped it yet",
        games_played=played,
        games_saved=plan.cap - played if analysis.stopped else 0,
    )
