"""Building each seat's participant from its agent string, and following seats' own records."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from duskfall.agents.specs import AgentContext, check_agent_options, make_participant
from duskfall.core.errors import ConfigError
from duskfall.core.variant import State, Variant
from duskfall.runtime.participant import Participant
from duskfall.runtime.record import GameRecord, SeatFeed


class SeatAgentError(ConfigError):
    """The agent of one seat cannot be made here (the message is the underlying error's)."""

    def __init__(self, seat: int, agent: str, error: ConfigError) -> None:
        super().__init__(str(error))
        self.seat = seat
        self.agent = agent


def describe_participant(participant: Participant, fallback: str) -> str:
    """How a participant given from outside is named in the roster."""
    describe = getattr(participant, "describe", None)
    return str(describe()) if callable(describe) else fallback


def build_participants(
    variant: Variant,
    agents: Sequence[str],
    seed: int,
    given: Mapping[int, Participant],
    options: Mapping[str, Any],
) -> dict[int, Participant]:
    """One participant per seat: ``given`` ones as they are, the others made from ``agents``.

    Raises :class:`SeatAgentError` when an agent cannot be made here, ConfigError for a bad
    option value.
    """
    check_agent_options(options)
    participants: dict[int, Participant] = {}
    for seat, agent in enumerate(agents):
        if seat in given:
            participants[seat] = given[seat]
        else:
            context = AgentContext(variant, seat, seed, "", dict(options))
            try:
                participants[seat] = make_participant(agent, context)
            except ConfigError as exc:
                raise SeatAgentError(seat, agent, exc) from exc
    return participants


def attach_seat_feeds(
    record: GameRecord,
    participants: Mapping[int, Participant],
    state: State,
    log_path: Path | None,
) -> None:
    """Feed participants that follow the game (``watch_game(game_id, log_path)`` returns an
    observer) the events their seat may see, from now on."""
    for seat, participant in participants.items():
        watch = getattr(participant, "watch_game", None)
        observer = watch(record.game_id, log_path) if callable(watch) else None
        if observer is not None:
            channels = functools.partial(state.channels, seat)
            feed = SeatFeed(seat, channels, observer, functools.partial(state.observe, seat))
            record.observers.append(feed)
