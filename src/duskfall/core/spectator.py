"""How a spectator sees a variant's game: its events in words, what they reveal and mark, its
ballots, and what a seat knows; declared by the variant (``VariantInfo.spectator``).

The web page (and anything else that shows a game) reads a :class:`Spectator`; it keeps no
table of its own about any variant. :class:`Spectator` itself is the behaviour of a variant
that declares nothing: no lines of its own (the variant's ``format_event`` then speaks), a
role revealed only by a ``{"seat": n, "role": r}`` payload, no marks, no ballots, and a seat
card naming the seat, its role and team. A variant subclasses it and overrides what it knows
better. Nothing here decides *who* may see an event: that is
:func:`duskfall.core.events.visible_to`.

* :meth:`Spectator.line`: the line of an event for the god view, or None to let the variant's
  ``format_event`` speak; with ``names`` (the players' names, when the game has them) a line
  may name the players as their prompts do (``seat 2 (Cleo)``);
* :meth:`Spectator.reveals`: the roles an event tells whoever sees it (``{seat: role}``);
* :meth:`Spectator.marks`: what it puts on players' cards (:class:`Mark`: ``dead``,
  ``exiled``, ``badge``, ``checked``, ``saved``, ``poisoned``, ``guarded``, ``protected``,
  ``channel``: a private channel the player is in, named by the mark's text; a player may
  be in several);
* :meth:`Spectator.ballot`: the votes it records, as a :class:`Ballot` (also the metrics'
  common form of a vote, :mod:`duskfall.core.facts`);
* :meth:`Spectator.names`: players' names an opening event announces;
* :meth:`Spectator.action_words`: an action in words, where the variant says it its own way;
* :meth:`Spectator.detail`: whether an event is bookkeeping, listed only on request;
* :meth:`Spectator.seat_card`: what a seat knows, in plain words, from its own observation
  only (its role, teammates, checks...): so nothing on the card can leak;
* :meth:`Spectator.question`: a decision's question in plain words, for a person (None: the
  legal view's ``describe()`` is plain enough).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from duskfall.core.events import Event

if TYPE_CHECKING:
    from duskfall.core.legal import LegalActions

Payload = Mapping[str, Any]
Namer = Callable[[Any], str]
"""Names a seat in a line: ``seat 3``, ``seat 3 (Cleo)``; anything not a seat is ``nobody``."""


def seat_or_none(value: Any) -> int | None:
    """``value`` as a seat number (ints, digit strings), None for anything else (or < 0)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return seat_or_none(int(value))
    return None


def mark(seat: Any, what: str, text: str) -> list[dict[str, Any]]:
    """One mark ``{"seat": n, "mark": what, "text": text}`` (none if ``seat`` is not a seat)."""
    number = seat_or_none(seat)
    return [] if number is None else [{"seat": number, "mark": what, "text": text}]


@dataclass(frozen=True, slots=True)
class Ballot:
    """The votes one event records: ``casts`` are ``(voter, target or None, weight)``; ``name``
    is the ballot as people call it (``exile vote``); ``exile`` says the ballot can put a
    player out (what the metrics count as votes)."""

    name: str
    casts: tuple[tuple[int, int | None, float], ...]
    exile: bool = False


@dataclass(frozen=True, slots=True)
class SeatCard:
    """A seat's card: ``You are Cleo (seat 2), the Hunter`` and its lines of facts; ``seat``
    and ``teammates`` say who the seat is and whom it knows on its side (the decision
    forms mark them ``(you)`` and ``(teammate)``)."""

    headline: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    seat: int | None = None
    teammates: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"headline": self.headline, "lines": list(self.lines)}


def seat_label(seat: int, names: Mapping[int, str]) -> str:
    """``Cleo (seat 2)`` where the seat has a name, else ``seat 2``."""
    name = names.get(seat)
    return f"{name} (seat {seat})" if name else f"seat {seat}"


def observed_names(observation: Payload) -> dict[int, str]:
    """Players' names from an observation's ``players`` list (``{seat|player_id, name}``)."""
    names: dict[int, str] = {}
    for entry in observation.get("players") or []:
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
            seat = entry.get("seat", entry.get("player_id"))
            if isinstance(seat, int):
                names[seat] = entry["name"]
    return names


MarkFinder = Callable[[Event], list[dict[str, Any]]]
"""The marks an event of one kind puts on players' cards."""


class Spectator:
    """A variant's presentation (see the module docstring); the defaults of a variant that
    declares nothing. ``mark_finders``: the marks of each event kind (by kind)."""

    mark_finders: Mapping[str, MarkFinder] = {}

    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        return None

    def reveals(self, event: Event) -> dict[int, str]:
        payload = event.payload
        role, seat = payload.get("role"), seat_or_none(payload.get("seat"))
        return {seat: role} if isinstance(role, str) and seat is not None else {}

    def marks(self, event: Event) -> list[dict[str, Any]]:
        finder = self.mark_finders.get(event.kind)
        return finder(event) if finder is not None else []

    def action_words(self, action: Payload) -> str | None:
        """An action in words where the variant words it its own way (else None)."""
        return None

    def detail(self, event: Event) -> bool:
        """Whether ``event`` is bookkeeping behind what people read (shown on request only)."""
        return False

    def ballot(self, event: Event) -> Ballot | None:
        return None

    def names(self, event: Event) -> dict[int, str]:
        """Players' names from ``players``: a list of names, or of ``{seat, name}``."""
        players = event.payload.get("players")
        if not isinstance(players, list):
            return {}
        found: dict[int, str] = {}
        for i, entry in enumerate(players):
            if isinstance(entry, str):
                found[i] = entry
            elif isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
                seat = seat_or_none(entry.get("seat"))
                found[i if seat is None else seat] = entry["name"]
        return found

    def seat_card(self, observation: Payload) -> SeatCard:
        """The seat, its role and team, and whether it is dead, from the observation."""
        return card(observation)

    def question(self, legal: LegalActions) -> str | None:
        """The question of the decision ``legal`` answers, in plain words for a person (None:
        the legal view's own ``describe()`` is written for people already)."""
        return None


def card(
    observation: Payload,
    teammates: Iterable[Any] = (),
    facts: Callable[[Namer], list[str]] = lambda name: [],
) -> SeatCard:
    """A seat card: ``You are Cleo (seat 2), the Hunter``, then its team, its ``teammates``,
    the variant's ``facts`` (written with a namer: ``Cleo (seat 2)``) and whether it is dead;
    the seat, role (``roles`` joined by ``+``, else ``role``), team and names are read from
    the observation's common keys."""
    names = observed_names(observation)

    def name(seat: Any) -> str:
        return seat_label(int(seat), names) if isinstance(seat, int) else "nobody"

    me = observation.get("seat", observation.get("player_id"))
    who = name(me) if isinstance(me, int) else "this seat"
    role = _role(observation)
    lines: list[str] = []
    if observation.get("team"):
        lines.append(f"Your team: {observation['team']}")
    mine = me if isinstance(me, int) else None
    mates = sorted({m for m in teammates if isinstance(m, int) and m != mine})
    if mates:
        lines.append("Your teammates: " + ", ".join(name(m) for m in mates))
    lines += facts(name)
    if observation.get("alive") is False:
        lines.append("You are dead")
    headline = f"You are {who}" + (f", the {role}" if role else "")
    return SeatCard(headline, tuple(lines), mine, tuple(mates))


def _role(observation: Payload) -> str | None:
    roles = observation.get("roles")
    if isinstance(roles, list) and roles:
        return "+".join(str(r).capitalize() for r in roles)
    role = observation.get("role")
    return str(role).capitalize() if role else None


def roles_line(roles: Any) -> str:
    """``roles: seat 0 Villager, seat 1 Werewolf, ...`` from a list or a ``{seat: role}`` map."""
    pairs = roles.items() if isinstance(roles, Mapping) else enumerate(roles)
    ordered = sorted(((int(s), r) for s, r in pairs), key=lambda i: i[0])
    return "roles: " + ", ".join(f"seat {s} {r}" for s, r in ordered)


def seats_words(seats: Any) -> str:
    """``seat 1, seat 4`` for a list of seats."""
    return ", ".join(f"seat {s}" for s in seats) if isinstance(seats, list) else str(seats)


def actor(event: Event) -> int | None:
    """The seat an event is about or by: the first int of ``seat``, ``player_id``, ``player``,
    ``voter``, ``by`` in its payload."""
    for key in ("seat", "player_id", "player", "voter", "by"):
        value = event.payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def casts_of(event: Event) -> list[tuple[int, int | None, float]] | None:
    """The votes of an event in the shapes the variants record them, as ``(voter, target or
    None, weight)``: ``{"votes": {voter: target}}``, ``{"votes": [{"seat"|"voter": v,
    "target": t}]}``, or one cast (a ``*vote*`` kind with a voter, a ``target`` and maybe a
    ``weight``); None if it records no votes. A target that is not a seat (a yes/no answer,
    an abstention) is None."""
    payload = event.payload
    votes = payload.get("votes")
    casts: list[tuple[int, int | None]] = []
    if isinstance(votes, Mapping):
        for voter, target in votes.items():
            seat = seat_or_none(voter)
            if seat is not None:
                casts.append((seat, seat_or_none(target)))
    elif isinstance(votes, list) and all(isinstance(v, Mapping) for v in votes):
        for cast in votes:
            seat = seat_or_none(cast.get("seat", cast.get("voter")))
            if seat is not None and "target" in cast:
                casts.append((seat, seat_or_none(cast["target"])))
    elif "vote" in event.kind.lower() and "target" in payload:
        voter = actor(event)
        if voter is None:
            return None
        casts.append((voter, seat_or_none(payload["target"])))
    else:
        return None
    weight, seat = payload.get("weight"), seat_or_none(payload.get("seat"))
    weights = {seat: float(weight)} if isinstance(weight, int | float) and seat is not None else {}
    return [(voter, target, weights.get(voter, 1.0)) for voter, target in casts]


def night_of(event: Event) -> str:
    return f"night {event.day}"


DEFAULT = Spectator()
