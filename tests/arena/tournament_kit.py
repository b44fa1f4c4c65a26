"""Helpers of the tournament tests: small bot configs, runs in a throwaway index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from duskfall.arena.progress import tournament_progress
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_config import TournamentConfig, parse_tournament
from duskfall.arena.tournament_run import RunSummary
from duskfall.report.leaderboard import TournamentReport, build_report
from duskfall.store.index import GameIndex

BLOCKS = [{"variant": "sports-mafia"}, {"variant": "werewolf", "preset": "werewolf-6"}]


def bot_config(schedule: str = "mixed", games: int = 4, **overrides: Any) -> TournamentConfig:
    data: dict[str, Any] = {
        "name": f"bots-{schedule}",
        "entrants": {"smart": "heuristic", "naive": "random"},
        "variants": BLOCKS,
        "games": games,
        "seed": 11,
        "schedule": schedule,
        "parallel_games": 2,
        "log_dir": "games",
    }
    data.update(overrides)
    return parse_tournament(data)


def run(config: TournamentConfig, where: Path, **options: Any) -> RunSummary:
    where.mkdir(parents=True, exist_ok=True)
    return run_tournament(config, base_dir=where, db=where / "index.db", **options)


def report(config: TournamentConfig, where: Path, bootstrap: int = 20) -> TournamentReport:
    with GameIndex(where / "index.db") as index:
        return build_report(tournament_progress(config, index), bootstrap=bootstrap)


def outcomes(report: TournamentReport) -> list[tuple[int, str, str | None, tuple[str, ...]]]:
    """What must not change between equal runs: slot, variant, winner, who sat where."""
    return [
        (g.slot, g.variant, g.winner_side, tuple(s.entrant for s in g.seats)) for g in report.games
    ]
