"""Belief calibration: how well stated probabilities that a player is evil match the deal.

Beliefs are read from a game's log:

* ``beliefs`` events (admin; agents asked with the option ``beliefs=daily``): payload
  ``{"seat": s, "beliefs": {"<player>": P(evil), ...}}``;
* sports mafia ``DECLARATION`` events: each player's -3..3 declaration about every other
  player (+3 sure red, -3 sure black), read as P(evil) = (3 - value) / 6;
* the cognitive agent's ``suspicion`` events: its suspicion (0..1) of each player.

A seat's last statement of a day counts (the cognitive agent updates its suspicion several
times a day), about the players alive when it was made (a dead player's side may be known).
Beliefs the seat was asked for outrank its suspicion read the same day.

Each belief about another player is scored against that player's true side: the Brier score
(mean squared error, lower is better; 0.25 is a coin's) and the log loss (probabilities are
clipped to [0.01, 0.99]), per entrant and per day, with a reliability table (ten bins of
stated probability: mean stated vs. share actually evil). Answers to the beliefs question that
could not be scored (unreadable, or a probability outside [0, 1]) are counted per entrant as
``refused``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import LogCorrupt
from duskfall.core.sides import EVIL, side_of
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import new_state_for
from duskfall.store.rows import GameRow

BELIEFS = kinds.BELIEFS
CLIP = 0.01
BINS = 10


@dataclass
class Score:
    """Brier and log loss sums over ``n`` beliefs."""

    n: int = 0
    brier_sum: float = 0.0
    log_loss_sum: float = 0.0

    def add(self, p: float, evil: bool) -> None:
        truth = 1.0 if evil else 0.0
        clipped = min(1 - CLIP, max(CLIP, p))
        self.n += 1
        self.brier_sum += (p - truth) ** 2
        self.log_loss_sum -= math.log(clipped if evil else 1 - clipped)

    @property
    def brier(self) -> float | None:
        return self.brier_sum / self.n if self.n else None

    @property
    def log_loss(self) -> float | None:
        return self.log_loss_sum / self.n if self.n else None

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "brier": self.brier, "log_loss": self.log_loss}


@dataclass
class Calibration:
    """Scores per entrant, per (entrant, day), and reliability bins per entrant."""

    overall: dict[str, Score] = field(default_factory=dict)
    by_day: dict[str, dict[int, Score]] = field(default_factory=dict)
    bins: dict[str, list[list[float]]] = field(default_factory=dict)  # [sum p, evil, n]
    refused: dict[str, int] = field(default_factory=dict)

    def add(self, entrant: str, day: int, p: float, evil: bool) -> None:
        self.overall.setdefault(entrant, Score()).add(p, evil)
        self.by_day.setdefault(entrant, {}).setdefault(day, Score()).add(p, evil)
        bins = self.bins.setdefault(entrant, [[0.0, 0.0, 0.0] for _ in range(BINS)])
        slot = bins[min(BINS - 1, int(p * BINS))]
        slot[0] += p
        slot[1] += float(evil)
        slot[2] += 1

    def reliability(self, entrant: str) -> list[tuple[float, float, int]]:
        """(mean stated P(evil), share evil, count) of each non-empty bin."""
        return [(s / n, e / n, int(n)) for s, e, n in self.bins.get(entrant, []) if n]

    def to_dict(self) -> dict[str, Any]:
        return {
            name: {
                **score.to_dict(),
                "refused": self.refused.get(name, 0),
                "by_day": {str(d): s.to_dict() for d, s in sorted(self.by_day[name].items())},
                "reliability": self.reliability(name),
            }
            for name, score in self.overall.items()
        }


def _stated(event_kind: str, payload: Mapping[str, Any]) -> tuple[int, dict[int, float]] | None:
    """(holder seat, {player: P(evil)}) stated by one event, or None."""
    if event_kind == BELIEFS:
        seat, beliefs = payload.get("seat"), payload.get("beliefs")
        if isinstance(seat, int) and isinstance(beliefs, Mapping):
            return seat, {int(k): float(v) for k, v in beliefs.items()}
    if event_kind == kinds.SUSPICION:
        seat, players = payload.get("seat"), payload.get("players")
        if isinstance(seat, int) and isinstance(players, Mapping):
            return seat, {
                int(k): float(v["suspicion"])
                for k, v in players.items()
                if isinstance(v, Mapping) and "suspicion" in v
            }
    if event_kind == "DECLARATION":
        seat, values = payload.get("player_id"), payload.get("declaration")
        if isinstance(seat, int) and isinstance(values, list):
            return seat, {i: (3 - int(v)) / 6 for i, v in enumerate(values) if i != seat}
    return None


def calibration_of(rows: Iterable[GameRow], entrants: Mapping[str, str]) -> Calibration:
    """Scores of every stated belief in the logs of ``rows`` (tournament games)."""
    calibration = Calibration()
    for row in rows:
        if row.log_path is None:
            continue
        try:
            log = read_log(row.log_path, strict=False)
        except LogCorrupt:
            continue
        seats = list((log.header.extra.get("tournament") or {}).get("seats") or [])
        add_log(calibration, log, seats)
    return calibration


def add_log(calibration: Calibration, log: GameLog, seats: Sequence[str]) -> None:
    """Score the beliefs stated in ``log``, each under the name ``seats[holder]`` (seats past
    the end of ``seats`` are not scored)."""
    variant, state = new_state_for(log)
    evil = {s: side_of(variant, state.team_of(s)) == EVIL for s in range(state.num_seats)}
    last: dict[tuple[int, int], tuple[bool, dict[int, float]]] = {}
    for event in log.events:
        if event.kind == kinds.ACTION:
            state.apply(event.payload["seat"], event.payload["action"])
            continue
        if event.kind == BELIEFS and "refused" in event.payload:
            holder = event.payload.get("seat")
            if isinstance(holder, int) and holder < len(seats):
                name = seats[holder]
                calibration.refused[name] = calibration.refused.get(name, 0) + 1
            continue
        stated = _stated(event.kind, event.payload)
        if stated is not None and stated[0] < len(seats):
            alive = set(state.alive())
            holder, beliefs = stated
            asked = event.kind != kinds.SUSPICION
            earlier = last.get((holder, event.day))
            if earlier is None or asked or not earlier[0]:
                living = {p: v for p, v in beliefs.items() if p in alive}
                last[holder, event.day] = (asked, living)
    for (holder, day), (_, beliefs) in last.items():
        for player, p in beliefs.items():
            if player != holder and player in evil and 0.0 <= p <= 1.0:
                calibration.add(seats[holder], day, p, evil[player])
