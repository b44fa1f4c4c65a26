"""A new game: variant + config + seed + agents -> a scheduler ready to play, logged and indexed.

A game is first *planned* (:func:`plan_game`: rules, roster, participants; nothing written),
then *assembled* (:func:`assemble`: log, index row, scheduler). :func:`prepare_checked_game`
runs the pre-flight check of every model-backed seat in between, so a game that cannot be
played is refused before it leaves any trace.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.agents.specs import parse_spec
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact, redact_value
from duskfall.core.registry import get_variant
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.variant import State, Variant, parse_config
from duskfall.llm.preflight import Announce
from duskfall.runtime.participant import Player, describe_player
from duskfall.runtime.record import GameRecord, Observer
from duskfall.runtime.scheduler import Scheduler
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session.participants import (
    attach_seat_feeds,
    build_participants,
)
from duskfall.session.preflight import preflight
from duskfall.session.record import open_record
from duskfall.store.index import GameIndex
from duskfall.store.log import LogHeader
from duskfall.store.repair import check_new_log

DEFAULT_LOG_DIR = Path("games")
AGENT_OPTIONS_KEY = "agent_options"  # the header's ``extra`` entry of the seats' options


def logged_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The header's ``extra`` entry of a game's agent options (any secret masked; nothing
    when there are none, so a game without options logs as before)."""
    return {AGENT_OPTIONS_KEY: redact_value(dict(options))} if options else {}


def options_of(header: LogHeader) -> dict[str, Any]:
    """The agent options a game's header logged ({} for none, or a log older than them)."""
    logged = header.extra.get(AGENT_OPTIONS_KEY)
    return dict(logged) if isinstance(logged, Mapping) else {}


def new_game_id(variant_id: str) -> str:
    """``<variant>-<16 random hex>``: unique, and says nothing about the deal (not the seed)."""
    return f"{variant_id}-{secrets.token_hex(8)}"


@dataclass
class GameSetup:
    """Everything that defines a game. ``participants`` overrides the agent spec per seat.

    ``seed`` None draws a secret one from the OS (:func:`~duskfall.core.rng.new_seed`).
    ``header_extra`` goes in the log header's ``extra`` (a tournament's tag, for instance),
    beside ``agent_options`` (:func:`logged_options`: a fork or a resumed game takes them).
    ``keep_events`` False leaves ``record.events`` empty: the log and observers still get every
    event, and a game nobody follows (no log, no observer, every seat a bot) does not build
    the runtime's own records of its actions at all. ``side_dir``: where a game that writes no
    log of its own (one a worker plays for a tournament's driver) keeps the files it leaves
    beside a log (a cognitive seat's record folder), as if its log were there. A ``log_path``
    given that already holds a game (or any file) is refused unless ``overwrite``.
    """

    variant: str
    seed: int | None = None
    agents: str = "random"
    config: Mapping[str, Any] = field(default_factory=dict)
    game_id: str | None = None
    log_path: Path | None = None
    write_log: bool = True
    overwrite: bool = False
    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    participants: Mapping[int, Player] = field(default_factory=dict)
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    observers: Sequence[Observer] = ()
    header_extra: Mapping[str, Any] = field(default_factory=dict)
    keep_events: bool = True
    side_dir: Path | None = None

    @property
    def run_options(self) -> RunOptions:
        """How the game is run and followed (what :func:`assemble` reads of the setup)."""
        return RunOptions(self.settings, tuple(self.observers), self.keep_events, self.side_dir)


@dataclass(frozen=True)
class RunOptions:
    """How a planned game is run and followed, however it was made (new, resumed, forked):
    the runtime's settings, the caller's observers, whether the record keeps its events, and
    where a game without a log keeps the files beside one (see :class:`GameSetup`)."""

    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    observers: Sequence[Observer] = ()
    keep_events: bool = True
    side_dir: Path | None = None


@dataclass
class PreparedGame:
    """A game ready to run: its scheduler, record, header and log path."""

    run_options: RunOptions
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


@dataclass
class GamePlan:
    """A game put together but not yet recorded: nothing is written before :func:`assemble`.

    The ``header`` is the one place its variant, config and seeds are carried. ``events``
    are the events a resumed game's log already holds (None for a new game), or with
    ``inherited`` a fork's copy of its parent's events up to the moment it forked (its new
    log starts with them, and the seats that keep their own records are given them).
    ``index``: the game index already open where the planning looked at it (a fork checks
    its parent there); its row is kept there, and it is closed at the game's end.
    """

    run_options: RunOptions
    variant: Variant
    state: State
    header: LogHeader
    agents: list[str]
    participants: dict[int, Player]
    log_path: Path | None
    events: Sequence[Event] | None = None
    inherited: bool = False
    index: GameIndex | None = None

    async def preflight(self, announce: Announce | None = None) -> None:
        """Check every model-backed seat once (raises SeatNotReady naming seats and fix);
        ``announce`` is told what a slow check (loading a model) is doing."""
        await preflight(self.participants, self.agents, announce)


def assemble(plan: GamePlan) -> PreparedGame:
    """The record (log, index, observers, seat feeds) and scheduler of a planned game.

    New, resumed and forked games all come through here, so they are put together the same way.
    """
    options, state, header = plan.run_options, plan.state, plan.header
    record = open_record(
        header,
        plan.log_path,
        events=plan.events,
        observers=options.observers,
        keep_events=options.keep_events,
        inherited=plan.inherited,
        index=True if plan.index is None else plan.index,
    )
    beside = plan.log_path
    if beside is None and options.side_dir is not None:
        beside = options.side_dir / f"{header.game_id}.jsonl"
    history = plan.events if plan.inherited and plan.events else ()
    attach_seat_feeds(record, plan.participants, state, beside, history)
    scheduler = Scheduler(
        plan.variant,
        state,
        plan.participants,
        record,
        seed=header.seats_seed,
        settings=options.settings,
    )
    return PreparedGame(
        options, plan.variant, state, scheduler, record, header, plan.log_path, plan.agents
    )


def prepare_game(setup: GameSetup) -> PreparedGame:
    """Build state, participants, record and log writer for ``setup`` (raises ConfigError)."""
    return assemble(plan_game(setup))


async def prepare_checked_game(setup: GameSetup) -> PreparedGame:
    """:func:`prepare_game` after the pre-flight check of every model-backed seat: a seat
    that cannot play raises SeatNotReady, and nothing is logged or indexed."""
    plan = plan_game(setup)
    await plan.preflight()
    return assemble(plan)


def plan_game(setup: GameSetup) -> GamePlan:
    """State, roster and participants of a new game (raises ConfigError); nothing written."""
    variant = get_variant(setup.variant)
    seed = new_seed() if setup.seed is None else check_seed(setup.seed)
    config = parse_config(variant, setup.config)
    state = variant.new_game(config, seed)
    agents = parse_spec(variant, setup.agents, state.num_seats)(state)
    for seat, participant in setup.participants.items():
        agents[seat] = describe_player(participant)
    game_id = setup.game_id or new_game_id(variant.id)
    header = LogHeader(
        game_id=game_id,
        variant=variant.id,
        config=config.model_dump(mode="json"),
        seed=seed,
        roster=roster_of(agents),
        extra={**setup.header_extra, **logged_options(setup.agent_options)},
    )
    log_path = (setup.log_path or DEFAULT_LOG_DIR / f"{game_id}.jsonl") if setup.write_log else None
    if setup.log_path is not None and setup.write_log:  # a path given: it may hold a game
        check_new_log(setup.log_path, force=setup.overwrite)
    return plan_seats(
        variant,
        state,
        header,
        agents,
        log_path,
        setup.run_options,
        players=setup.participants,
        agent_options=setup.agent_options,
    )


def plan_seats(
    variant: Variant,
    state: State,
    header: LogHeader,
    agents: list[str],
    log_path: Path | None,
    run_options: RunOptions,
    *,
    players: Mapping[int, Player] | None = None,
    agent_options: Mapping[str, Any] | None = None,
    events: Sequence[Event] | None = None,
    inherited: bool = False,
) -> GamePlan:
    """The plan of a game whose header, state and seats' agents are known: its seats made
    from ``agents`` (``players`` in place of some) with the header's seats seed and the
    agents' options. New, resumed and forked games are all planned here (raises
    :class:`~duskfall.session.participants.SeatAgentError` for a seat that cannot be made)."""
    participants = build_participants(
        variant, agents, header.seats_seed, players or {}, agent_options or {}
    )
    return GamePlan(
        run_options, variant, state, header, agents, participants, log_path, events, inherited
    )


def roster_of(agents: list[str]) -> list[dict[str, Any]]:
    """The header's roster, agents redacted (each distinct agent once: most games have one)."""
    shown = {agent: redact(agent) for agent in set(agents)}
    return [{"seat": seat, "agent": shown[agent]} for seat, agent in enumerate(agents)]


async def run_game(setup: GameSetup) -> PreparedGame:
    """Prepare and play a game to its end; returns the finished :class:`PreparedGame`."""
    game = prepare_game(setup)
    await game.run()
    return game
