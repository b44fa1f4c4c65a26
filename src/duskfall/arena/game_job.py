"""The one way the arena plays games: picklable jobs, played anywhere (this process, a worker
process, a Ray task on another machine) through :func:`duskfall.session.prepare_game`.

A worker writes nothing where the record lives: the driver alone writes logs and the index.
A :class:`GameJob` is one game, keyed by its ``slot`` (a tournament's schedule slot, or a
simulated game's number); it comes back as a :class:`GameResult`: the outcome, what the game
cost per entrant and, as the job asks, its index row, its log (built in memory, compressed:
:class:`~duskfall.store.packed.LogBuffer`) and its side files (a cognitive seat's records, a
remote entrant's error output), for the driver to write. A game that cannot be played comes
back as a :class:`SlotFailure`: one line saying why, never an exception that the transport
would have to carry. Jobs travel in batches (:func:`play_batch`), played one after another in
one event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duskfall.core import event_kinds as kinds
from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.usage import Usage, call_usage
from duskfall.runtime.record import GameRecord
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, prepare_game
from duskfall.store.indexing import finished_row
from duskfall.store.packed import LogBuffer, Packed, pack_folder
from duskfall.store.rows import GameRow
from duskfall.store.rows import Usage as GameUsage

if TYPE_CHECKING:
    from duskfall.arena.remote_spec import RemoteEntrant
    from duskfall.session import PreparedGame

NODE = socket.gethostname()  # where this process plays its games


@dataclass(frozen=True)
class ForkJob:
    """A fork to play (a ``[[forks]]`` slot): the source game's log packed to travel (a worker
    on another machine has no access to the driver's disk), its file name, the moment and the
    seats' seed."""

    source: Packed
    name: str
    at: str
    seed: int
    change: tuple[str, str] | None = None  # an intervention: (ForkRequest field, its value)


@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game.

    ``seats`` names the entrant of each seat (usage is reported per entrant); empty, every
    seat is the one entrant ``agents`` (``simulate``). ``game_id`` None draws a new id.
    ``keep_log``: send the game's log (and side files) back; ``keep_row``: send its index
    row back. ``tournament`` None is a game of no tournament (``simulate``).
    """

    variant: str
    seed: int
    config: dict[str, Any]
    agents: str
    seats: tuple[str, ...]
    settings: dict[str, Any]
    agent_options: dict[str, Any] = field(default_factory=dict)
    tournament: str | None = None
    slot: int = 0
    game_id: str | None = None
    keep_log: bool = False
    keep_row: bool = False
    remote: dict[str, RemoteEntrant] = field(default_factory=dict)  # remote entrants' programs
    fork: ForkJob | None = None  # a fork of a logged game, not a new deal

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

    @property
    def leaves_files(self) -> bool:
        """Whether the game may leave side files: remote entrants' error output, the record
        folders of seats that keep their own (model-backed agents)."""
        return self.keep_log and (bool(self.remote) or ":" in self.agents)


@dataclass(frozen=True)
class GameResult:
    """A played game: its result, size and spending per entrant, where it was played, and
    what of its record the job asked for."""

    slot: int
    game_id: str
    winner: str | None
    termination: str
    usage: dict[str, Usage]  # entrant -> model usage
    seed: int = 0
    days: int = 0
    decisions: int = 0
    fallbacks: int = 0
    node: str = ""
    unreached: str | None = None  # why a model endpoint could not be reached, if one was not
    row: GameRow | None = None
    log: Packed | None = None
    files: Packed | None = None

    @property
    def total(self) -> Usage:
        return sum(self.usage.values(), Usage())


@dataclass(frozen=True)
class SlotFailure:
    """A game that could not be played: its slot, one line saying why, where, what the try
    still cost, and the side files it left (a remote entrant's error output says why)."""

    slot: int
    reason: str
    node: str = ""
    usage: Usage = field(default_factory=Usage)
    files: Packed | None = None

    def __str__(self) -> str:
        return self.reason


Played = GameResult | SlotFailure


class _Tally:
    """Observer: fallbacks, days and model usage (per seat and in total), folded from the
    events as they pass, so the game's record need keep none; the decisions and events are
    the record's own counts (:meth:`close`). It needs only the events recorded anyway (the
    runtime's: fallbacks, errors, model calls, the end), so a game of bots nobody else
    follows builds no events for it.

    It also notes whether decisions fell back because a model endpoint never answered (a
    seat's every attempt raised, and a model call failed with no reply and nothing billed):
    such a game says nothing about the seat and is played again (:attr:`unreached`)."""

    needs_every_event = False

    def __init__(self) -> None:
        self.game = GameUsage()
        self.by_seat: defaultdict[int, Usage] = defaultdict(Usage)
        self.decisions = 0
        self.fallbacks = 0
        self.errors = 0
        self.unanswered: str | None = None

    def on_event(self, event: Event) -> None:
        self.game.add(event)  # its count of events is replaced by the record's (close)
        kind = event.kind
        if kind == kinds.FALLBACK:
            self.fallbacks += 1
        elif kind == kinds.PARTICIPANT_ERROR:
            self.errors += 1
        elif kind == kinds.LLM_CALL:
            usage = call_usage(event)
            seat = event.payload.get("seat")
            if usage is not None and isinstance(seat, int):
                self.by_seat[seat] += usage
            error = event.payload.get("error")
            if error and self.unanswered is None and (usage is None or not usage.total_tokens):
                self.unanswered = str(error)

    @property
    def unreached(self) -> str | None:
        if self.fallbacks and self.errors and self.unanswered is not None:
            return self.unanswered
        return None

    def close(self, record: GameRecord) -> None:
        """Take the game's counts of events and decisions from its record."""
        self.game.events = record.recorded
        self.decisions = record.actions

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass


@contextlib.contextmanager
def _side_dir(job: GameJob) -> Iterator[Path | None]:
    """A scratch folder for the game's side files, if it may leave any (removed after)."""
    if not job.leaves_files:
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="duskfall-game-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def play_job(
    job: GameJob, settings: RuntimeSettings | None = None, *, compress: bool = True
) -> GameResult:
    """Play one game to its end; its log and side files come back packed if the job asks
    (compressed, unless ``compress`` is False: the driver's own process). Seats of remote
    entrants are played by their programs over TCP."""
    with _side_dir(job) as side:
        return await _play(job, settings, compress, side)


async def _play(
    job: GameJob, settings: RuntimeSettings | None, compress: bool, side: Path | None
) -> GameResult:
    tally = _Tally()
    setup = GameSetup(
        variant=job.variant,
        seed=job.seed,
        agents=job.agents,
        config=job.config,
        game_id=job.game_id,
        write_log=False,
        settings=settings or RuntimeSettings(**job.settings),
        agent_options=job.agent_options,
        observers=[tally],
        header_extra=job.tag(),
        side_dir=side,
    )
    remote = job.remote_seats()
    if job.fork is not None:
        if remote:
            raise ConfigError("remote entrants cannot play the forks of a [[forks]] block yet")
        game, buffer, outcome = await _play_fork(job, job.fork, setup, compress)
    elif not remote:
        game = prepare_game(setup)
        if all(isinstance(p, Bot) for p in game.scheduler.participants.values()):
            game.record.keep_events = False  # no seat is shown the events back: keep none
        buffer = _buffer(job, game, compress)
        outcome = await game.run()
    else:
        game, buffer, outcome = await _play_with_remote_seats(job, setup, remote, side, compress)
    files = pack_folder(side, compress=compress) if side is not None else None
    return _result(job, game, outcome, tally, buffer, files)


async def _play_with_remote_seats(
    job: GameJob,
    setup: GameSetup,
    remote: dict[int, str],
    side: Path | None,
    compress: bool,
) -> tuple[PreparedGame, LogBuffer | None, Outcome]:
    from duskfall.arena.remote_entrants import RemoteSeats
    from duskfall.session import new_game_id

    setup.game_id = setup.game_id or new_game_id(job.variant)
    async with RemoteSeats(
        variant=job.variant,
        game_id=setup.game_id,
        seed=job.seed,
        num_players=len(job.seats),
        seats=remote,
        entrants=job.remote,
        log_dir=side or Path(tempfile.gettempdir()),
    ) as seats:
        setup.participants = seats.participants
        game = prepare_game(setup)
        buffer = _buffer(job, game, compress)
        seats.follow(game)
        return game, buffer, await game.run()


async def _play_fork(
    job: GameJob, fork: ForkJob, setup: GameSetup, compress: bool
) -> tuple[PreparedGame, LogBuffer | None, Outcome]:
    """Play a fork of the job's source game (:mod:`duskfall.lab.fork`); its log begins with
    the source's events up to the fork (the record counts them; their model usage is the
    source game's, so the tally, which follows the game from the fork on, does not)."""
    from duskfall.lab.fork import ForkRequest, plan_fork

    with tempfile.TemporaryDirectory(prefix="duskfall-fork-") as folder:
        source = Path(folder) / Path(fork.name).name
        source.write_bytes(fork.source.raw())
        request = ForkRequest(
            source,
            at=fork.at,
            agents=job.agents,
            seed=fork.seed,
            write_log=False,
            game_id=job.game_id,
            settings=setup.settings,
            agent_options=job.agent_options,
            observers=list(setup.observers),
            header_extra=job.tag(),
        )
        if fork.change is not None:  # (field, value): lab.intervention_rules resolved it
            option, value = fork.change
            request.replace = value if option == "replace" else None
            request.set_result = value if option == "set_result" else None
        game = plan_fork(request).start()
    buffer = _buffer(job, game, compress)
    if buffer is not None:
        for event in game.record.events:  # the prefix: recorded before any observer
            buffer.on_event(event)
    return game, buffer, await game.run()


def _buffer(job: GameJob, game: PreparedGame, compress: bool) -> LogBuffer | None:
    """The in-memory log of the game, first of its observers, if the job wants it back."""
    if not job.keep_log:
        return None
    buffer = LogBuffer(game.header, compress=compress)
    game.record.observers.insert(0, buffer)
    return buffer


def _result(
    job: GameJob,
    game: PreparedGame,
    outcome: Outcome,
    tally: _Tally,
    buffer: LogBuffer | None,
    files: Packed | None,
) -> GameResult:
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
        node=NODE,
        unreached=tally.unreached,
        row=finished_row(game.header, tally.game, outcome) if job.keep_row else None,
        log=buffer.packed() if buffer is not None else None,
        files=files,
    )


def one_line(exc: BaseException) -> str:
    """``Kind: first line of the message``: how a failure travels and is shown."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")


async def play_guarded(
    job: GameJob, settings: RuntimeSettings | None = None, *, compress: bool = True
) -> Played:
    """:func:`play_job`, with any failure of the game as a :class:`SlotFailure` (with the
    side files the game left)."""
    with _side_dir(job) as side:
        try:
            return await _play(job, settings, compress, side)
        except Exception as exc:
            files = pack_folder(side, compress=compress) if side is not None else None
            return SlotFailure(job.slot, one_line(exc), NODE, files=files)


async def play_batch(jobs: Sequence[GameJob], *, compress: bool = True) -> list[Played]:
    """Play ``jobs`` one after another (a batch shares its runtime settings)."""
    if not jobs:
        return []
    settings = RuntimeSettings(**jobs[0].settings)
    return [await play_guarded(job, settings, compress=compress) for job in jobs]


def play_batch_blocking(jobs: Sequence[GameJob]) -> list[Played]:
    """:func:`play_batch` in its own event loop (worker processes, Ray tasks)."""
    return asyncio.run(play_batch(jobs))
