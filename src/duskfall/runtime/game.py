"""Run one game: variant + config + seed + agents -> a finished, logged game.

This is the one entry point the CLI, the server, the web app and the arena use, so that every
game is built, logged and indexed the same way.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.specs import AgentContext, make_participant, parse_spec
from duskfall.core.outcome import Outcome
from duskfall.core.registry import get_variant
from duskfall.core.variant import State, Variant, parse_config
from duskfall.runtime.participant import Participant
from duskfall.runtime.record import GameRecord, Observer, SeatFeed
from duskfall.runtime.scheduler import Scheduler
from duskfall.runtime.settings import RuntimeSettings
from duskfall.store.indexing import index_observer
from duskfall.store.log import LogHeader, LogWriter

DEFAULT_LOG_DIR = Path("games")

# Factories of extra observers every logged game gets (e.g. the SQLite index); each receives
# the game's header and its log path and returns an observer, or None.
OBSERVER_FACTORIES: list[Callable[[LogHeader, Path | None], Observer | None]] = [index_observer]


def new_game_id(variant_id: str, seed: int) -> str:
    return f"{variant_id}-{seed}-{uuid.uuid4().hex[:8]}"


@dataclass
class GameSetup:
    """Everything that defines a game. ``participants`` overrides the agent spec per seat."""

    variant: str
    seed: int = 0
    agents: str = "random"
    config: Mapping[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    log_path: Path | None = None
    write_log: bool = True
    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    participants: Mapping[int, Participant] = field(default_factory=dict)
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    observers: Sequence[Observer] = ()


@dataclass
class PreparedGame:
    """A game ready to run: its scheduler, record, header and log path."""

    setup: GameSetup
    variant: Variant
    state: State
    scheduler: Scheduler
    record: GameRecord
    header: LogHeader
    log_path: Path | None
    agents: list[str]

    @property
    def game_id(self) -> str:
        return self.record.game_id

    async def run(self) -> Outcome:
        return await self.scheduler.run()


def describe_participant(participant: Participant, fallback: str) -> str:
    describe = getattr(participant, "describe", None)
    return str(describe()) if callable(describe) else fallback


def prepare_game(setup: GameSetup) -> PreparedGame:
    """Build state, participants, record and log writer for ``setup`` (raises ConfigError)."""
    variant = get_variant(setup.variant)
    config = parse_config(variant, setup.config)
    state = variant.new_game(config, setup.seed)
    resolve = parse_spec(variant, setup.agents, state.num_seats)
    agents = resolve(state)
    participants: dict[int, Participant] = {}
    for seat in range(state.num_seats):
        if seat in setup.participants:
            participants[seat] = setup.participants[seat]
            agents[seat] = describe_participant(setup.participants[seat], "external")
        else:
            ctx = AgentContext(variant, seat, setup.seed, "", dict(setup.agent_options))
            participants[seat] = make_participant(agents[seat], ctx)
    game_id = setup.game_id or new_game_id(variant.id, setup.seed)
    header = LogHeader(
        game_id=game_id,
        variant=variant.id,
        config=config.model_dump(mode="json"),
        seed=setup.seed,
        roster=[{"seat": s, "agent": agents[s]} for s in range(state.num_seats)],
    )
    observers: list[Observer] = []
    log_path: Path | None = None
    if setup.write_log:
        log_path = setup.log_path or DEFAULT_LOG_DIR / f"{game_id}.jsonl"
        observers.append(LogWriter(log_path, header))
    for factory in OBSERVER_FACTORIES:
        extra = factory(header, log_path)
        if extra is not None:
            observers.append(extra)
    observers.extend(setup.observers)
    observers.extend(_seat_feeds(participants, state, game_id, log_path))
    record = GameRecord(game_id, observers)
    scheduler = Scheduler(
        variant, state, participants, record, seed=setup.seed, settings=setup.settings
    )
    return PreparedGame(setup, variant, state, scheduler, record, header, log_path, agents)


def _seat_feeds(
    participants: Mapping[int, Participant], state: State, game_id: str, log_path: Path | None
) -> list[Observer]:
    """Feeds for participants that follow the game (``watch_game(game_id, log_path)`` returns an
    observer): each receives only the events its seat may see."""
    feeds: list[Observer] = []
    for seat, participant in participants.items():
        watch = getattr(participant, "watch_game", None)
        observer = watch(game_id, log_path) if callable(watch) else None
        if observer is not None:
            feeds.append(SeatFeed(seat, functools.partial(state.channels, seat), observer))
    return feeds


async def run_game(setup: GameSetup) -> PreparedGame:
    """Prepare and play a game to its end; returns the finished :class:`PreparedGame`."""
    game = prepare_game(setup)
    await game.run()
    return game
