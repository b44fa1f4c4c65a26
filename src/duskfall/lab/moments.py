"""Naming a moment of a logged game: ``--at SEQ``, ``day:2``, ``night:1``, ``VOTE:2``.

A moment is always the start of a round (:mod:`duskfall.lab.rounds`): a fork there asks that
round's seats again and plays on.

* ``SEQ`` (an event number of the log, as ``duskfall replay`` and the god view number them):
  the round that event belongs to, so the event and everything after it are played again;
  an event of the deal (before the first decision) means the first round: the same deal,
  played from its start;
* ``day:N`` / ``night:N``: the first round of day N's day or night (a night is a phase whose
  name says NIGHT);
* ``NAME:N``: the first round on day N whose phase, or one of whose decisions, is NAME
  (``VOTE:2``, ``voting:1``; case does not matter).
"""

from __future__ import annotations

from collections.abc import Sequence

from duskfall.core.errors import ConfigError
from duskfall.lab.rounds import Round, is_night


def find_round(rounds: Sequence[Round], moment: str) -> Round:
    """The round ``moment`` names (module docstring); one ConfigError if there is none."""
    wanted = Moment(moment)
    found = next((round_ for round_ in rounds if wanted.is_at(round_)), None)
    if found is None:
        raise wanted.missing(rounds)
    return found


class Moment:
    """A moment as ``--at`` names it (a ConfigError at once for one that cannot be read),
    matched against the rounds as a replay finds them (:meth:`is_at`: the first that
    matches is the moment)."""

    def __init__(self, moment: str) -> None:
        self.given = moment
        text = moment.strip()
        self.seq: int | None = int(text) if text.isdigit() else None
        self.day, self.name = 0, ""
        if self.seq is None:
            name, sep, day_text = text.rpartition(":")
            if not sep or not name or not day_text.strip().isdigit():
                raise ConfigError(
                    f"--at {moment!r}: give an event number, day:N, night:N or a phase or "
                    "decision name with its day (e.g. VOTE:2)"
                )
            self.day, self.name = int(day_text), name.strip().lower()

    def is_at(self, round_: Round) -> bool:
        """Whether ``round_`` is the moment (asked of each round in order; its ``stop`` set)."""
        if self.seq is not None:  # an event of the deal, before the first round: the first
            return self.seq < round_.stop and (round_.start <= self.seq or round_.number == 0)
        return round_.day == self.day and _matches(round_, self.name)

    def missing(self, rounds: Sequence[Round]) -> ConfigError:
        """The error for a game (its ``rounds``) that has no such moment."""
        if not rounds:
            return ConfigError("the game has no decision to start from (its log has no action)")
        if self.seq is not None:
            return ConfigError(
                f"--at {self.seq}: event {self.seq} comes after the last decision of the game "
                f"(events 0-{rounds[-1].stop - 1} can be forked at)"
            )
        return ConfigError(
            f"--at {self.given}: the game has no such moment; it has {_summary(rounds)}"
        )


def _matches(round_: Round, wanted: str) -> bool:
    if wanted == "night":
        return is_night(round_.phase)
    if wanted == "day":
        return not is_night(round_.phase)
    return wanted == round_.phase.lower() or wanted in (kind.lower() for kind in round_.kinds)


def _summary(rounds: Sequence[Round]) -> str:
    """``night:1, day:1, night:2`` ... of a game's phases, and its decisions."""
    phases = [f"{'night' if is_night(r.phase) else 'day'}:{r.day}" for r in rounds if r.opens_phase]
    kinds = sorted({kind for r in rounds for kind in r.kinds})
    return f"{', '.join(dict.fromkeys(phases))} (decisions: {', '.join(kinds)})"
