"""What a variant's events and views say, in a form common to every variant; declared by the
variant (``VariantInfo.facts``) so that metrics and agents read any variant the same way.

* :meth:`GameFacts.ballot`: the votes an event records (a :class:`~duskfall.core.spectator.Ballot`;
  ``exile`` ballots are the ones that can put a player out);
* :meth:`GameFacts.night_kills`: the seats an event says the evil side killed at night;
* :meth:`GameFacts.claims`: role claims an event makes in public (:class:`Claim`);
* :meth:`GameFacts.learnt`: what a private event teaches the seats that see it: team mates,
  and check results (evil or not) (:class:`Learnt`);
* :meth:`GameFacts.mode`: a decision kind in the common vocabulary :data:`MODES` (a night
  kill is ``kill`` whether it is ``WOLF_KILL`` or ``NIGHT_KILL``);
* :meth:`GameFacts.seat`: a seat's standing read from its own observation (:class:`SeatFacts`);
* ``evil_words`` and ``good_words``: words that, in a speech, call a player evil or good.

:class:`GameFacts` itself is a variant that declares nothing: no votes, kills, claims or
lessons, every decision ``other``, and the standing read from the common keys (``seat``,
``role``, ``team``, ``day``, ``phase``, ``players``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.events import Event
from duskfall.core.spectator import Ballot

MODES = (
    "team_chat",
    "kill",
    "inspect",
    "protect",
    "potion",
    "badge",
    "discussion",
    "vote",
    "other",
)
NIGHT_MODES = frozenset({"team_chat", "kill", "inspect", "protect", "potion"})


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claimed ``role`` (upper case) in public."""

    seat: int
    role: str


@dataclass(frozen=True, slots=True)
class Learnt:
    """What one private event teaches: team mates, and checks (seat -> evil?)."""

    allies: frozenset[int] = frozenset()
    checks: Mapping[int, bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """A seat's standing, from its observation: its role (roles joined by ``+``), team, side
    (``evil``), the day, the raw phase, every seat, the living ones and the players' names."""

    role: str
    team: str
    evil: bool
    day: int
    phase: str
    players: tuple[int, ...]
    alive: tuple[int, ...]
    names: Mapping[int, str] = field(default_factory=dict)


class GameFacts:
    """A variant's facts (see the module docstring); the defaults of one declaring nothing."""

    evil_words: tuple[str, ...] = ("is evil", "suspicious")
    good_words: tuple[str, ...] = ("innocent", "is good", "trust", "cleared")

    def ballot(self, event: Event) -> Ballot | None:
        return None

    def night_kills(self, event: Event) -> list[int]:
        return []

    def claims(self, event: Event) -> list[Claim]:
        return []

    def learnt(self, kind: str, payload: Mapping[str, Any]) -> Learnt | None:
        return None

    def mode(self, kind: str) -> str:
        return "other"

    def seat(self, observation: Mapping[str, Any]) -> SeatFacts:
        players, alive, names = players_of(observation)
        day = observation.get("day")
        return SeatFacts(
            role=roles_text(observation),
            team=str(observation.get("team") or "unknown"),
            evil=False,
            day=day if isinstance(day, int) else 0,
            phase=str(observation.get("phase", "")),
            players=tuple(players),
            alive=tuple(alive),
            names=names,
        )


def roles_text(observation: Mapping[str, Any]) -> str:
    """The seat's role: ``roles`` joined by ``+``, else ``role``, else ``unknown``."""
    roles = observation.get("roles")
    if isinstance(roles, list) and roles:
        return "+".join(str(r) for r in roles)
    return str(observation.get("role") or "unknown")


def players_of(
    observation: Mapping[str, Any], seat_key: str = "seat"
) -> tuple[list[int], list[int], dict[int, str]]:
    """Every seat, the living ones and their names, from ``players`` (``{seat_key, alive,
    name}`` entries)."""
    players: list[int] = []
    alive: list[int] = []
    names: dict[int, str] = {}
    for entry in observation.get("players") or ():
        if not isinstance(entry, Mapping):
            continue
        seat = entry.get(seat_key)
        if not isinstance(seat, int):
            continue
        players.append(seat)
        if entry.get("alive", True):
            alive.append(seat)
        if isinstance(entry.get("name"), str):
            names[seat] = entry["name"]
    return players, alive, names


DEFAULT = GameFacts()
