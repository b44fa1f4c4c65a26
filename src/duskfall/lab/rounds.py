"""The rounds of a logged game: the moments a fork can start from.

A *round* is one settling of pending decisions: the seats the rules asked together from one
state (every voter of a vote, or the one speaker of a speech). In the log a round is the
runtime's records of asking (thoughts, model calls, refusals), then each seat's ``action``
event followed by the rules events it produced. A round *starts* right after the previous
round's last rules event: cutting a log there leaves a game whose next step is to ask that
round's seats again, which is what a fork does.

:func:`rounds_of` finds the rounds by re-applying the log (so it also verifies it).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError
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


def rounds_of(log: GameLog) -> list[Round]:
    """The rounds of ``log``, found by re-applying it (a mismatch raises ReplayMismatch)."""
    if log.header.variant == "gm":
        raise ConfigError(
            f"game {log.header.game_id} was refereed by a game master: it has no rules engine "
            "to rebuild it from"
        )
    replayer = Replayer(log.header)
    state = replayer.state
    rounds: list[Round] = []
    settled = 0  # the index after the last action or rules event taken
    left: set[int] = set()  # seats of the current round that have not acted yet
    for index, event in enumerate(log.events):
        if event.kind == kinds.ACTION:
            seat, _ = recorded_action(event)
            if seat not in left:
                pending = state.pending()
                left = {decision.seat for decision in pending}
                previous = (rounds[-1].day, rounds[-1].phase) if rounds else None
                rounds.append(
                    Round(
                        len(rounds),
                        settled,
                        state.day,
                        state.phase,
                        tuple(dict.fromkeys(decision.kind for decision in pending)),
                        tuple(sorted(left)),
                        previous != (state.day, state.phase),
                    )
                )
            left.discard(seat)
            rounds[-1].actions.append(index)
        replayer.take(event)
        if event.source == "rules" or event.kind == kinds.ACTION:
            settled = index + 1
    for current, following in itertools.pairwise(rounds):
        current.stop = following.start
    if rounds:
        rounds[-1].stop = settled
    return rounds
