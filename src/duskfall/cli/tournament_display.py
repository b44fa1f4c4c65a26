"""The terminal leaderboard of a tournament: rich tables."""

from __future__ import annotations

import math

from rich.table import Table

from duskfall.arena.leaderboard import TournamentReport
from duskfall.arena.ratings import Rating


def _rating(r: Rating | None) -> str:
    if r is None:
        return "-"
    if math.isnan(r.low):
        return f"{r.mu:.1f}"
    return f"{r.mu:.1f} [{r.low:.1f}, {r.high:.1f}]"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def leaderboard_table(report: TournamentReport) -> list[Table]:
    """The leaderboard, the behaviour table and (``sides``) the head-to-head matrix."""
    board = Table(
        title=f"{report.name}: {report.games_played}/{report.games_scheduled} games "
        f"({report.schedule}), {report.total_tokens:,} tokens, ${report.total_cost_usd:.4f}"
    )
    for column in ("#", "entrant", "agent", "rating [95%]", "evil", "village", "win rate [95%]"):
        board.add_column(column)
    for rank, e in enumerate(report.entrants, 1):
        overall = e.win_rates.get("all")
        board.add_row(
            str(rank),
            e.name,
            e.spec,
            _rating(e.rating),
            _rating(e.side_ratings.get("evil")),
            _rating(e.side_ratings.get("village")),
            str(overall) if overall else "-",
        )
    behaviour = Table(title="behaviour (all seats)")
    columns = (
        "entrant", "vote acc.", "votes on evil", "survival", "power kills", "bussing",
        "claims true", "legal 1st", "fallbacks", "tokens (cached)", "cost", "latency",
    )  # fmt: skip
    for column in columns:
        behaviour.add_column(column)
    for e in report.entrants:
        m = e.metrics
        votes = m.votes_received_when_evil
        latency = m.mean_latency_s
        behaviour.add_row(
            e.name,
            _rate(m.vote_accuracy),
            "-" if votes is None else f"{votes:.2f}",
            _rate(m.survival),
            _rate(m.power_role_kill_rate),
            _rate(m.teammate_vote_rate),
            _rate(m.claim_truthfulness),
            _rate(m.legal_first_try),
            str(m.fallbacks),
            f"{m.prompt_tokens + m.completion_tokens:,} ({m.cached_tokens:,})",
            f"${m.cost_usd:.4f}",
            "-" if latency is None else f"{latency:.2f}s",
        )
    tables = [board, behaviour]
    if report.head_to_head:
        names = [e.name for e in report.entrants]
        matrix = Table(title="head to head (row's win rate against column, both sides)")
        matrix.add_column("")
        for name in names:
            matrix.add_column(name)
        for me in names:
            row = report.head_to_head.get(me, {})
            matrix.add_row(me, *(str(row[t]) if t in row else "-" for t in names))
        tables.append(matrix)
    if report.calibration.overall:
        calibration = Table(title="belief calibration (P(evil) of other players)")
        for column in ("entrant", "beliefs", "Brier", "log loss"):
            calibration.add_column(column)
        for name, score in report.calibration.overall.items():
            calibration.add_row(
                name, str(score.n), f"{score.brier or 0:.3f}", f"{score.log_loss or 0:.3f}"
            )
        tables.append(calibration)
    return tables
