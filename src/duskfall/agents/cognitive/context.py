"""SessionContext: what one decision is about, parsed from the seat's observation.

Observations differ by variant; this module reads the few fields every variant has in some
form (role, day, phase, living players, names) and classifies the decision into a ``mode``
(``discussion``, ``vote``, ``kill``, ``inspect``, ``protect``...). :class:`Knowledge` holds the
hard facts the seat's own records prove (team mates, its check results).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core.events import PUBLIC

# decision kind keywords -> mode, first match wins
_MODES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("team_chat", ("WOLF_CHAT", "MAFIA_CHAT", "TEAM_CHAT")),
    ("kill", ("KILL", "MAFIA_VOTE", "VIGILANTE", "SHOOT", "HUNTER")),
    ("inspect", ("SEER", "SHERIFF_ACTION", "NIGHT_SHERIFF", "NIGHT_DON", "CHECK", "INSPECT")),
    ("protect", ("GUARD", "DOCTOR", "PROTECT")),
    ("potion", ("WITCH",)),
    ("badge", ("BADGE_RUN", "BADGE_WITHDRAW", "BADGE_PASS")),
    ("discussion", ("SPEECH", "DISCUSSION", "DECLARATION", "LAST_WORDS", "SAY", "CHAT")),
    ("vote", ("VOTE", "VOTING", "ELIMINATE")),
)
NIGHT_MODES = frozenset({"team_chat", "kill", "inspect", "protect", "potion"})
_EVIL_RESULTS = frozenset({"werewolf", "wolf", "mafia", "black", "evil", "bad", "don"})
_EVIL_TEAMS = frozenset({"werewolf", "werewolves", "mafia", "black", "wolves"})


def mode_of(decision_kind: str) -> str:
    """The decision's mode, from its kind (``WOLF_KILL`` -> ``kill``)."""
    kind = decision_kind.upper()
    for mode, words in _MODES:
        if any(word in kind for word in words):
            return mode
    return "other"


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

    @property
    def others_alive(self) -> list[int]:
        return [p for p in self.alive if p != self.seat]

    @property
    def is_evil(self) -> bool:
        return self.team.lower() in _EVIL_TEAMS or "mafia" in self.role.lower().split("+")

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
    records: Path | None = None,
) -> SessionContext:
    """Parse a :class:`SessionContext` from any variant's observation."""
    mode = mode_of(decision_kind)
    raw_phase = str(observation.get("phase", "")).upper()
    night = "NIGHT" in raw_phase or "NIGHT" in decision_kind.upper() or mode in NIGHT_MODES
    players, alive, names = _players(observation)
    return SessionContext(
        seat=seat,
        variant=variant,
        decision=decision_kind,
        role=_role(observation),
        team=str(observation.get("team") or _sports_team(observation) or "unknown"),
        phase="night" if night else "day",
        mode=mode,
        day=_day(observation),
        alive=tuple(alive),
        players=tuple(players),
        names=names,
        records=records,
    )


def _role(observation: Mapping[str, Any]) -> str:
    roles = observation.get("roles")
    if isinstance(roles, list) and roles:
        return "+".join(str(r) for r in roles)
    return str(observation.get("role") or "unknown")


def _sports_team(observation: Mapping[str, Any]) -> str | None:
    role = str(observation.get("role", "")).upper()
    if role in ("MAFIA", "DON"):
        return "BLACK"
    if role in ("CITIZEN", "SHERIFF"):
        return "RED"
    return None


def _day(observation: Mapping[str, Any]) -> int:
    day = observation.get("day")
    if isinstance(day, int):
        return day
    turn = observation.get("turn")
    return turn + 1 if isinstance(turn, int) else 0


def _players(observation: Mapping[str, Any]) -> tuple[list[int], list[int], dict[int, str]]:
    players: list[int] = []
    alive: list[int] = []
    names: dict[int, str] = {}
    for entry in observation.get("players") or ():
        if not isinstance(entry, Mapping):
            continue
        seat = entry.get("seat", entry.get("player_id"))
        if not isinstance(seat, int):
            continue
        players.append(seat)
        if entry.get("alive", True):
            alive.append(seat)
        if isinstance(entry.get("name"), str):
            names[seat] = entry["name"]
    listed = observation.get("alive_players")
    if isinstance(listed, list):
        alive = [p for p in listed if isinstance(p, int)]
        players = players or list(alive)
    return players, alive, names


@dataclass
class Knowledge:
    """Facts the seat's own private records prove: its team mates and its check results."""

    allies: set[int] = field(default_factory=set)
    checks: dict[int, bool] = field(default_factory=dict)  # player -> evil?

    @classmethod
    def from_history(cls, seat: int, lines: Iterable[Mapping[str, Any]]) -> Knowledge:
        known = cls()
        for line in lines:
            if line.get("visibility") == PUBLIC:
                continue
            payload = line.get("payload") or {}
            for key in ("wolves", "members", "mafia_team"):
                members = payload.get(key)
                if isinstance(members, list):
                    known.allies.update(m for m in members if isinstance(m, int) and m != seat)
            verdict = _check_verdict(payload)
            target = payload.get("target")
            if verdict is not None and isinstance(target, int):
                known.checks[target] = verdict
        return known


def _check_verdict(payload: Mapping[str, Any]) -> bool | None:
    """Evil (True), good (False) or not a check result (None)."""
    if "result" in payload:
        return str(payload["result"]).lower() in _EVIL_RESULTS
    if isinstance(payload.get("roles"), list) and "name" in payload:
        return any(str(r).lower() in _EVIL_RESULTS for r in payload["roles"])
    if "team" in payload and "target" in payload:
        return str(payload["team"]).lower() in _EVIL_RESULTS
    return None
