"""The rounds of a logged game: the moments a fork can start from.

A *round* is one settling of pending decisions: the seats the rules asked together from one
state (every voter of a vote, or the one speaker of a speech). In the log a round is the
runtime's records of asking (thoughts, model calls, refusals), then each seat's ``action``
event followed by the rules events it produced. A round *starts* right after the previous
round's last rules event: cutting a log there leaves a game whose next step is to ask that
round's seats again, which is what a fork does.

:class:`RoundFinder` names each round as a replay of the log reaches its start (its seats from
the state there; its actions and end read ahead in the log), so the walk that rebuilds a game
(:func:`duskfall.lab.rebuild.rebuild`) finds the rounds on its own deal; :func:`rounds_of`
is that walk over the whole log (so it also verifies it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError
from duskfall.core.events import Event
from duskfall.core.variant import State
from duskfall.store.log import GameLog
from duskfall.store.replay import Replayer, recorded_action


@dataclass
class Round:
    """One round of a logged game (see the module docstring).

    ``start`` is the index of its first event (where a fork cut there begins its own events),
    ``actions`` the indexes of its ``action`` events, ``stop`` the index after its last
    event (the next round's ``start``, or the end of the decisions). ``day``, ``phase``,
    ``kinds`` and ``seats`` describe the state at its start; ``opens_phase`` says it is the
    first round of its day and phase (a phase boundary).
    """

    number: int
    start: int
    day: int
    phase: str
    kinds: tuple[str, ...]
    seats: tuple[int, ...]
    opens_phase: bool
    actions: list[int] = field(default_factory=list)
    stop: int = 0

    @property
    def label(self) -> str:
        return f"{self.phase.lower()} {self.day}"


def is_night(phase: str) -> bool:
    """Whether a phase is a night (``NIGHT``, ``NIGHT_KILL``...), by its name."""
    return "NIGHT" in phase.upper()


class RoundFinder:
    """The rounds of a log, named as a replay goes through it: :meth:`at` is told the state
    before each event and returns the round that starts there, if one does."""

    def __init__(self, events: Sequence[Event]) -> None:
        self.events = events
        self.rounds: list[Round] = []
        self._first, self._start = self._next_round(0, set())  # the next round's first action

    @property
    def end(self) -> int | None:
        """The index after the last round's last event, once the last round is found (0 for a
        log without an action)."""
        if self._first is not None:
            return None
        return self.rounds[-1].stop if self.rounds else 0

    def at(self, index: int, state: State) -> Round | None:
        """The round that starts at event ``index`` (``state``: the game before it), or None."""
        if self._first is None or index != self._start:
            return None
        pending = state.pending()
        left = {decision.seat for decision in pending}
        previous = (self.rounds[-1].day, self.rounds[-1].phase) if self.rounds else None
        found = Round(
            len(self.rounds),
            index,
            state.day,
            state.phase,
            tuple(dict.fromkeys(decision.kind for decision in pending)),
            tuple(sorted(left)),
            previous != (state.day, state.phase),
        )
        self.rounds.append(found)
        first, found.stop = self._next_round(self._first, left, found.actions)
        self._first, self._start = first, found.stop
        return found

    def _next_round(
        self, first: int, left: set[int], actions: list[int] | None = None
    ) -> tuple[int | None, int]:
        """From the action at ``first`` on (the seats ``left`` to act in its round): the
        next round's first action (None: no more) and the index after the last action or
        rules event before it; ``actions`` gathers the round's actions."""
        settled = first
        for index in range(first, len(self.events)):
            event = self.events[index]
            if event.kind == kinds.ACTION:
                seat, _ = recorded_action(event)
                if seat not in left and (actions is None or actions):
                    return index, settled
                left.discard(seat)
                if actions is not None:
                    actions.append(index)
            if event.source == "rules" or event.kind == kinds.ACTION:
                settled = index + 1
        return None, settled


def check_rebuildable(log: GameLog) -> None:
    """One ConfigError for a game without a rules engine to re-apply it to (a GM game)."""
    if log.header.variant == "gm":
        raise ConfigError(
            f"game {log.header.game_id} was refereed by a game master: it has no rules engine "
            "to rebuild it from"
        )


def rounds_of(log: GameLog) -> list[Round]:
    """The rounds of ``log``, found by re-applying it (a mismatch raises ReplayMismatch)."""
    check_rebuildable(log)
    replayer = Replayer(log.header)
    finder = RoundFinder(log.events)
    for index, event in enumerate(log.events):
        finder.at(index, replayer.state)
        replayer.take(event)
    return finder.rounds
