"""Building each seat's participant from its agent string, and following seats' own records."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from duskfall.agents.kinds import AgentContext, check_agent_options, make_participant
from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError, DuskfallError
from duskfall.core.events import Event
from duskfall.core.redaction import redact
from duskfall.core.variant import State, Variant
from duskfall.runtime.participant import Player
from duskfall.runtime.record import GameRecord, SeatFeed


def seats_named(seats: Sequence[int]) -> str:
    """``seat 3``, ``seats 0-9`` (a run) or ``seats 1, 4, 7``."""
    ordered = sorted(seats)
    if len(ordered) == 1:
        return f"seat {ordered[0]}"
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"seats {ordered[0]}-{ordered[-1]}"
    return "seats " + ", ".join(map(str, ordered))


def seats_cannot_play(seats: Sequence[int], agent: str, reason: str) -> str:
    """One line naming the seats, their agent and why they cannot play (with the fix)."""
    return f"{seats_named(seats)} ({redact(agent)}) cannot play: {reason}"


class SeatAgentError(ConfigError):
    """The agent of a seat cannot be made here: ``seats`` are every seat given that agent,
    ``reason`` the underlying error's message."""

    def __init__(self, seats: Sequence[int], agent: str, error: DuskfallError) -> None:
        super().__init__(seats_cannot_play(seats, agent, str(error)))
        self.seat = seats[0]
        self.seats = list(seats)
        self.agent = agent
        self.reason = str(error)


def build_participants(
    variant: Variant,
    agents: Sequence[str],
    seed: int,
    given: Mapping[int, Player],
    options: Mapping[str, Any],
) -> dict[int, Player]:
    """One participant per seat: ``given`` ones as they are, the others made from ``agents``.

    Raises :class:`SeatAgentError` when an agent cannot be made here (an unknown option
    value, a missing package or key), naming every seat given that agent; ConfigError for a
    bad option value.
    """
    check_agent_options(options)
    participants: dict[int, Player] = {}
    for seat, agent in enumerate(agents):
        if seat in given:
            participants[seat] = given[seat]
        else:
            context = AgentContext(variant, seat, seed, "", dict(options))
            try:
                participants[seat] = make_participant(agent, context)
            except DuskfallError as exc:
                same = [s for s, a in enumerate(agents) if a == agent and s not in given]
                raise SeatAgentError(same, agent, exc) from exc
    return participants


def attach_seat_feeds(
    record: GameRecord,
    participants: Mapping[int, Player],
    state: State,
    log_path: Path | None,
    history: Iterable[Event] = (),
) -> None:
    """Feed participants that follow the game (``watch_game(game_id, log_path)`` returns an
    observer) the events their seat may see: those of ``history`` first (a fork's prefix,
    which the seat lived through), then the game's from now on."""
    earlier = list(history)
    for seat, participant in participants.items():
        if isinstance(participant, Bot):
            continue  # a bot keeps no records of its own
        observer = participant.watch_game(record.game_id, log_path)
        if observer is not None:
            channels = functools.partial(state.channels, seat)
            feed = SeatFeed(seat, channels, observer, functools.partial(state.observe, seat))
            for event in earlier:
                feed.on_event(event)
            record.observers.append(feed)
