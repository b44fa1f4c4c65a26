"""One tournament game as a picklable job: played anywhere (this process, a worker process, a
Ray task) through :func:`duskfall.session.prepare_game`, so it is an ordinary logged, indexed
game, tagged with its tournament and slot in the log header and the index.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.usage import Usage, call_usage
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, new_game_id, prepare_game
from duskfall.store.index import use_db


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one scheduled game."""

    tournament: str
    slot: int
    variant: str
    seed: int
    config: dict[str, Any]
    agents: str
    seats: tuple[str, ...]  # entrant of each seat
    log_dir: str
    db: str | None
    settings: dict[str, Any]
    agent_options: dict[str, Any] = field(default_factory=dict)

    def tag(self) -> dict[str, Any]:
        """The tournament tag of the game's log header (``extra["tournament"]``)."""
        return {"name": self.tournament, "slot": self.slot, "seats": list(self.seats)}


@dataclass(frozen=True)
class GameResult:
    """What the driver needs of a finished game: its id, result and spending per entrant."""

    slot: int
    game_id: str
    winner: str | None
    termination: str
    usage: dict[str, Usage]  # entrant -> model usage

    @property
    def total(self) -> Usage:
        return sum(self.usage.values(), Usage())


class _SeatUsage:
    """Observer: model usage per seat, folded from ``llm_call`` events as they pass."""

    def __init__(self) -> None:
        self.by_seat: defaultdict[int, Usage] = defaultdict(Usage)

    def on_event(self, event: Event) -> None:
        if event.kind == kinds.LLM_CALL:
            usage = call_usage(event)
            seat = event.payload.get("seat")
            if usage is not None and isinstance(seat, int):
                self.by_seat[seat] += usage

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


async def play_job(job: GameJob) -> GameResult:
    """Play one game to its end (logged in ``job.log_dir``, indexed in ``job.db``)."""
    use_db(job.db)
    game_id = new_game_id(job.variant)
    tally = _SeatUsage()
    setup = GameSetup(
        variant=job.variant,
        seed=job.seed,
        agents=job.agents,
        config=job.config,
        game_id=game_id,
        log_path=Path(job.log_dir) / f"{game_id}.jsonl",
        settings=RuntimeSettings(**job.settings),
        agent_options=job.agent_options,
        observers=[tally],
        header_extra={"tournament": job.tag()},
    )
    game = prepare_game(setup)
    if all(isinstance(p, Bot) for p in game.scheduler.participants.values()):
        game.record.keep_events = False  # no seat is shown the events back: keep none
    outcome = await game.run()
    usage: defaultdict[str, Usage] = defaultdict(Usage)
    for seat, spent in tally.by_seat.items():
        usage[job.seats[seat]] += spent
    return GameResult(job.slot, game_id, outcome.winner, outcome.termination.value, dict(usage))


def play_job_blocking(job: GameJob) -> GameResult:
    """:func:`play_job` in its own event loop (worker processes, Ray tasks)."""
    return asyncio.run(play_job(job))
