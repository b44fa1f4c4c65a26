"""The suspicion model: per player suspicion and trust in [0, 1], and role hypotheses.

Investigation sessions report deltas (``suspicion_updates``); the model adds them, clamped.
Hard facts the seat knows (its own check results, its team mates) pin values instead. The
model is persisted in the seat's private records and published to the god view as an
``admin`` ``suspicion`` event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import ADMIN, Event

NEUTRAL = 0.5
HYPOTHESIS_TAGS = (
    "likely_detective_candidates",
    "likely_doctor_candidates",
    "likely_easy_mislynches",
    "likely_strong_town",
)


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    return max(low, min(high, value))


@dataclass
class Belief:
    """What the seat thinks of one player."""

    suspicion: float = NEUTRAL
    trust: float = NEUTRAL
    notes: list[str] = field(default_factory=list)
    pinned: str | None = None  # why the values are known facts, not guesses

    def to_dict(self) -> dict[str, float]:
        return {"suspicion": round(self.suspicion, 3), "trust": round(self.trust, 3)}


@dataclass(frozen=True)
class SuspicionUpdate:
    """One delta from an investigation session."""

    player: int
    delta_suspicion: float
    delta_trust: float
    notes: str = ""


class SuspicionModel:
    """One seat's beliefs about the other players."""

    def __init__(self, seat: int, players: Iterable[int] = (), max_notes: int = 4) -> None:
        self.seat = seat
        self.beliefs: dict[int, Belief] = {}
        self.hypotheses: dict[str, list[int]] = {tag: [] for tag in HYPOTHESIS_TAGS}
        self.max_notes = max_notes
        self.add_players(players)

    def add_players(self, players: Iterable[int]) -> None:
        for player in players:
            if player != self.seat:
                self.beliefs.setdefault(player, Belief())

    def apply(self, updates: Iterable[SuspicionUpdate]) -> int:
        """Add the deltas (clamped); facts stay pinned. Returns how many were applied."""
        applied = 0
        for update in updates:
            belief = self.beliefs.get(update.player)
            if belief is None or belief.pinned:
                continue
            belief.suspicion = clamp(belief.suspicion + update.delta_suspicion)
            belief.trust = clamp(belief.trust + update.delta_trust)
            if update.notes:
                belief.notes = [*belief.notes, update.notes][-self.max_notes :]
            applied += 1
        return applied

    def pin(self, player: int, *, evil: bool, reason: str) -> None:
        """Set what the seat knows for certain (its own check result, a team mate)."""
        belief = self.beliefs.get(player)
        if belief is None:
            return
        belief.suspicion, belief.trust = (1.0, 0.0) if evil else (0.0, 1.0)
        belief.pinned = reason

    def merge_hypotheses(self, hypotheses: Mapping[str, Sequence[int]]) -> None:
        """Newer non-empty lists replace older ones, tag by tag."""
        for tag, players in hypotheses.items():
            valid = [p for p in dict.fromkeys(players) if p in self.beliefs]
            if valid:
                self.hypotheses[tag] = valid

    def ranked(self, candidates: Iterable[int] | None = None) -> list[int]:
        """Players from most to least suspicious (suspicion minus trust; ties by seat)."""
        pool = self.beliefs if candidates is None else [c for c in candidates if c in self.beliefs]
        return sorted(pool, key=lambda p: (-self.score(p), p))

    def score(self, player: int) -> float:
        belief = self.beliefs[player]
        return belief.suspicion - belief.trust

    def to_payload(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": {str(p): b.to_dict() for p, b in sorted(self.beliefs.items())},
            "hypotheses": {tag: list(ps) for tag, ps in self.hypotheses.items()},
        }

    def to_record(self) -> dict[str, Any]:
        """The payload plus notes and pinned facts (for the seat's private records)."""
        payload = self.to_payload()
        for p, belief in self.beliefs.items():
            entry = payload["players"][str(p)]
            if belief.notes:
                entry["notes"] = list(belief.notes)
            if belief.pinned:
                entry["known"] = belief.pinned
        return payload

    def event(self, day: int, phase: str) -> Event:
        """The ``admin`` event the god view renders."""
        return Event(kinds.SUSPICION, self.to_payload(), ADMIN, day, phase, source="agent")

    def summary(self, names: Mapping[int, str] | None = None, limit: int = 8) -> str:
        """A few lines for prompts: the most and least suspicious players, and hypotheses."""
        if not self.beliefs:
            return "(no players)"
        lines = []
        for p in self.ranked()[:limit]:
            b = self.beliefs[p]
            label = player_label(p, names)
            extra = f" [known: {b.pinned}]" if b.pinned else ""
            lines.append(f"{label}: suspicion {b.suspicion:.2f}, trust {b.trust:.2f}{extra}")
        for tag, players in self.hypotheses.items():
            if players:
                lines.append(f"{tag}: {', '.join(player_label(p, names) for p in players)}")
        return "\n".join(lines)


def player_label(player: int, names: Mapping[int, str] | None = None) -> str:
    """``p3 (Ada)`` or ``p3``: how players are named to the model."""
    name = (names or {}).get(player)
    return f"p{player} ({name})" if name else f"p{player}"
