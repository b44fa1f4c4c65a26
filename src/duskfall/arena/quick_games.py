"""Games played here and now, unlogged: the plan's measurement of a variant and the board's
calibration runs (bots are fast; nothing is written). The games are the arena's own jobs, as a
tournament plays them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from duskfall.arena.game_job import GameJob, GameResult, SlotFailure, play_batch
from duskfall.arena.rated import block_labels, rated_game
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.errors import DuskfallError
from duskfall.rating.bradley_terry import RatedGame

SETTINGS: dict[str, Any] = {"retries": 2, "decision_timeout": 60.0, "on_seat_failure": "fallback"}


def job(
    variant: str,
    seed: int,
    config: dict[str, Any],
    agents: str,
    seats: tuple[str, ...] = (),
    slot: int = 0,
) -> GameJob:
    return GameJob(
        variant=variant, seed=seed, config=config, agents=agents, seats=seats,
        settings=SETTINGS, slot=slot,
    )  # fmt: skip


def play(jobs: Sequence[GameJob]) -> list[GameResult]:
    """Every job's game, in this process (one that cannot be played: a DuskfallError)."""
    out = []
    for played in asyncio.run(play_batch(jobs, compress=False)):
        if isinstance(played, SlotFailure):
            raise DuskfallError(f"game {played.slot} could not be played: {played.reason}")
        out.append(played)
    return out


def play_schedule(config: TournamentConfig, slots: Sequence[Slot] | None = None) -> list[RatedGame]:
    """The rated games of ``config``'s schedule (or of these slots of it), played here."""
    chosen = build_schedule(config) if slots is None else list(slots)
    agents = config.seat_agents()
    jobs = [job(s.variant, s.seed, s.config, s.agents(agents), s.seats, s.index) for s in chosen]
    labels = block_labels(config)
    out = []
    for slot, result in zip(chosen, play(jobs), strict=True):
        game = rated_game(slot, labels, result.winner, result.termination)
        if game is not None:
            out.append(game)
    return out
