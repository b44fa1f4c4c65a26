"""The one way the arena plays games: picklable jobs, played anywhere (this process, a worker
process, a Ray task) through :func:`duskfall.session.prepare_game`.

A :class:`GameJob` is one game: a tournament slot (logged, indexed, tagged with its tournament
and slot in the log header and the index) or one of ``simulate``'s games (logged only with
``--log-dir``; otherwise its index row comes back with the result, for the driver to write in
batches). Jobs travel in batches (:func:`play_batch`): a worker plays a batch one game after
another in one event loop and sends back only the small :class:`GameResult` of each game.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.usage import Usage, call_usage
from duskfall.runtime.record import GameRecord
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, new_game_id, prepare_game
from duskfall.store.index import GameRow, use_db
from duskfall.store.index import Usage as GameUsage
from duskfall.store.indexing import finished_row

if TYPE_CHECKING:
    from duskfall.arena.remote_spec import RemoteEntrant
    from duskfall.session import PreparedGame


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game.

    ``seats`` names the entrant of each seat (usage is reported per entrant); empty, every
    seat is the one entrant ``agents`` (``simulate``). ``log_dir``
    None plays the game unlogged and returns its index row instead. ``tournament`` None is a
    game of no tournament (``simulate``).
    """

    variant: str
    seed: int
    config: dict[str, Any]
    agents: str
    seats: tuple[str, ...]
    log_dir: str | None
    db: str | None
    settings: dict[str, Any]
    agent_options: dict[str, Any] = field(default_factory=dict)
    tournament: str | None = None
    slot: int = 0
    remote: dict[str, RemoteEntrant] = field(default_factory=dict)  # remote entrants' programs

    def remote_seats(self) -> dict[int, str]:
        """Seat -> entrant, for the seats remote entrants play."""
        return {seat: name for seat, name in enumerate(self.seats) if name in self.remote}

    def tag(self) -> dict[str, Any]:
        """The log header's ``extra``: the tournament tag, if the game belongs to one."""
        if self.tournament is None:
            return {}
        return {
            "tournament": {"name": self.tournament, "slot": self.slot, "seats": list(self.seats)}
        }


@dataclass(frozen=True)
class GameResult:
    """What the driver needs of a finished game: its result, size and spending per entrant."""

    slot: int
    game_id: str
    winner: str | None
    termination: str
    usage: dict[str, Usage]  # entrant -> model usage
    seed: int = 0
    days: int = 0
    decisions: int = 0
    fallbacks: int = 0
    row: GameRow | None = None  # the index row of an unlogged game

    @property
    def total(self) -> Usage:
        return sum(self.usage.values(), Usage())


class _Tally:
    """Observer: fallbacks, days and model usage (per seat and in total), folded from the
    events as they pass, so the game's record need keep none; the decisions and events are
    the record's own counts (:meth:`close`). It needs only the events recorded anyway (the
    runtime's: fallbacks, model calls, the end), so a game of bots nobody else follows builds
    no events for it."""

    needs_every_event = False

    def __init__(self) -> None:
        self.game = GameUsage()
        self.by_seat: defaultdict[int, Usage] = defaultdict(Usage)
        self.decisions = 0
        self.fallbacks = 0

    def on_event(self, event: Event) -> None:
        self.game.add(event)  # its count of events is replaced by the record's (close)
        kind = event.kind
        if kind == kinds.FALLBACK:
            self.fallbacks += 1
        elif kind == kinds.LLM_CALL:
            usage = call_usage(event)
            seat = event.payload.get("seat")
            if usage is not None and isinstance(seat, int):
                self.by_seat[seat] += usage

    def close(self, record: GameRecord) -> None:
        """Take the game's counts of events and decisions from its record."""
        self.game.events = record.recorded
        self.decisions = record.actions

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


def _setup(job: GameJob, settings: RuntimeSettings, tally: _Tally) -> GameSetup:
    setup = GameSetup(
        variant=job.variant,
        seed=job.seed,
        agents=job.agents,
        config=job.config,
        write_log=job.log_dir is not None,
        settings=settings,
        agent_options=job.agent_options,
        observers=[tally],
        header_extra=job.tag(),
    )
    if job.log_dir is not None:
        setup.game_id = new_game_id(job.variant)
        setup.log_path = Path(job.log_dir) / f"{setup.game_id}.jsonl"
    return setup


async def play_job(job: GameJob, settings: RuntimeSettings | None = None) -> GameResult:
    """Play one game to its end (logged in ``job.log_dir`` and indexed in ``job.db``, if any);
    the seats of remote entrants are played by their programs over TCP."""
    tally = _Tally()
    setup = _setup(job, settings or RuntimeSettings(**job.settings), tally)
    remote = job.remote_seats()
    if not remote:
        game = prepare_game(setup)
        if all(isinstance(p, Bot) for p in game.scheduler.participants.values()):
            game.record.keep_events = False  # no seat is shown the events back: keep none
        return _result(job, game, await game.run(), tally)
    from duskfall.arena.remote_entrants import RemoteSeats

    assert setup.game_id is not None and job.log_dir is not None
    async with RemoteSeats(
        variant=job.variant,
        game_id=setup.game_id,
        seed=job.seed,
        num_players=len(job.seats),
        seats=remote,
        entrants=job.remote,
        log_dir=Path(job.log_dir),
    ) as seats:
        setup.participants = seats.participants
        game = prepare_game(setup)
        seats.follow(game)
        return _result(job, game, await game.run(), tally)


def _result(job: GameJob, game: PreparedGame, outcome: Outcome, tally: _Tally) -> GameResult:
    tally.close(game.record)
    usage: defaultdict[str, Usage] = defaultdict(Usage)
    for seat, spent in tally.by_seat.items():
        usage[job.seats[seat] if job.seats else job.agents] += spent
    return GameResult(
        slot=job.slot,
        game_id=game.game_id,
        winner=outcome.winner,
        termination=outcome.termination.value,
        usage=dict(usage),
        seed=job.seed,
        days=game.state.day,
        decisions=tally.decisions,
        fallbacks=tally.fallbacks,
        row=finished_row(game.header, tally.game, outcome) if _row_wanted(job) else None,
    )


def _row_wanted(job: GameJob) -> bool:
    """An unlogged game with an index to go in: the driver writes its row."""
    return job.log_dir is None and job.db is not None


async def play_batch(jobs: Sequence[GameJob]) -> list[GameResult]:
    """Play ``jobs`` one after another (a batch shares its runtime settings and index)."""
    if not jobs:
        return []
    use_db(jobs[0].db)
    settings = RuntimeSettings(**jobs[0].settings)
    return [await play_job(job, settings) for job in jobs]


def play_batch_blocking(jobs: Sequence[GameJob]) -> list[GameResult]:
    """:func:`play_batch` in its own event loop (worker processes, Ray tasks)."""
    return asyncio.run(play_batch(jobs))
