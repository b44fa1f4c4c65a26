"""SessionContext: what one decision is about, read from the seat's observation.

Every variant says in its facts (``VariantInfo.facts``, :mod:`duskfall.core.facts`) what a
seat's observation holds in a common form (role, team, side, day, living players, names) and
what its decision kinds are in a common vocabulary, the ``mode`` (``discussion``, ``vote``,
``kill``, ``inspect``, ``protect``...); nothing here knows a variant. :class:`Knowledge` holds
the hard facts the seat's own private records prove (team mates, its check results), as the
variant's facts read them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core.events import PUBLIC
from duskfall.core.facts import NIGHT_MODES, GameFacts


@dataclass(frozen=True)
class SessionContext:
    """One decision of one seat, as the planner, the sessions and the writer see it."""

    seat: int
    variant: str
    decision: str
    role: str
    team: str
    phase: str  # "day" or "night"
    mode: str
    day: int
    alive: tuple[int, ...]
    players: tuple[int, ...]
    names: Mapping[int, str] = field(default_factory=dict)
    records: Path | None = None
    evil: bool = False
    evil_words: tuple[str, ...] = ()
    good_words: tuple[str, ...] = ()

    @property
    def others_alive(self) -> list[int]:
        return [p for p in self.alive if p != self.seat]

    @property
    def is_evil(self) -> bool:
        return self.evil

    def label(self, player: int) -> str:
        name = self.names.get(player)
        return f"p{player} ({name})" if name else f"p{player}"

    def describe(self) -> str:
        """A compact paragraph for prompts."""
        alive = ", ".join(self.label(p) for p in self.alive)
        when = f"{'Night' if self.phase == 'night' else 'Day'} {self.day}"
        return (
            f"You are {self.label(self.seat)}, role {self.role} (team {self.team}). {when}, "
            f"decision {self.decision} (mode: {self.mode}). Alive: {alive}."
        )


def session_context(
    seat: int,
    variant: str,
    decision_kind: str,
    observation: Mapping[str, Any],
    facts: GameFacts,
    records: Path | None = None,
) -> SessionContext:
    """A :class:`SessionContext` from the seat's observation, read by the variant's ``facts``."""
    mode = facts.mode(decision_kind)
    standing = facts.seat(observation)
    raw_phase = standing.phase.upper()
    night = "NIGHT" in raw_phase or "NIGHT" in decision_kind.upper() or mode in NIGHT_MODES
    return SessionContext(
        seat=seat,
        variant=variant,
        decision=decision_kind,
        role=standing.role,
        team=standing.team,
        phase="night" if night else "day",
        mode=mode,
        day=standing.day,
        alive=standing.alive,
        players=standing.players,
        names=dict(standing.names),
        records=records,
        evil=standing.evil,
        evil_words=facts.evil_words,
        good_words=facts.good_words,
    )


@dataclass
class Knowledge:
    """Facts the seat's own private records prove: its team mates and its check results."""

    allies: set[int] = field(default_factory=set)
    checks: dict[int, bool] = field(default_factory=dict)  # player -> evil?

    @classmethod
    def from_history(
        cls, seat: int, lines: Iterable[Mapping[str, Any]], facts: GameFacts
    ) -> Knowledge:
        """What the seat's private records (``lines`` of its history) teach, as ``facts``
        read them: team mates besides the seat itself, and its checks."""
        known = cls()
        for line in lines:
            if line.get("visibility") == PUBLIC:
                continue
            learnt = facts.learnt(str(line.get("kind", "")), line.get("payload") or {})
            if learnt is not None:
                known.allies.update(m for m in learnt.allies if m != seat)
                known.checks.update(learnt.checks)
        return known
