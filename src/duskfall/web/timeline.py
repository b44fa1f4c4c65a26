"""A game's events as the web shows them: each with who may see it and who is alive then.

A :class:`Timeline` is fed a log header and then events one by one, from a game running in
this process or from a log being read or tailed; both go through the same code. It rebuilds
the rules state by re-applying each recorded ``action`` (as :mod:`duskfall.store.replay`
does), so that every event gets the seats that may see it, computed with the one filter
:func:`duskfall.core.events.visible_to` and each seat's ``state.channels(seat)`` at that
moment, and the list of living seats after it. Variants without a rules engine (a game-master
game) still show: their private events are then visible to the god view only.

Numbering is per view: the god view numbers events as the log does (``seq``), but a seat's
view and the public view number only the events they show (0, 1, 2...), so neither a moment
link (``#e12``) nor a count tells a viewer how many hidden events happened in between
(:meth:`Frame.view_for`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duskfall.arena.seed_release import tournament_seed_shown
from duskfall.core import event_kinds as kinds
from duskfall.core.errors import DuskfallError
from duskfall.core.events import Event, visible_to
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import redact, redact_value
from duskfall.core.registry import get_variant
from duskfall.core.variant import State, Variant, parse_config
from duskfall.store.log import LogHeader
from duskfall.web import present

#: What agents record (dated from their own view): shown at the game's day and phase.
AGENT_KINDS = frozenset(
    {kinds.ACTION, kinds.THOUGHT, kinds.LLM_CALL, kinds.SUSPICION, kinds.INVALID_ACTION}
)

#: The ``seat`` of the public view (public events only, open to everyone); also the key of
#: its numbers in :attr:`Frame.numbers`.
PUBLIC_VIEW = -1


@dataclass(frozen=True, slots=True)
class Frame:
    """One event, the seats that may see it, and the living seats once it happened.

    ``numbers`` holds the event's number in each view that shows it: per seat, and under
    :data:`PUBLIC_VIEW` for the public view (public events only); ``view`` is the god
    view's form (numbered by ``seq``)."""

    event: Event
    seats: frozenset[int]
    alive: tuple[int, ...]
    view: dict[str, Any] = field(compare=False)
    numbers: dict[int, int] = field(default_factory=dict, compare=False)

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The event as the view of ``seat`` shows it (None: the god view; ``-1``: the
        public one), numbered in that view."""
        if seat is None:
            return self.view
        return {**self.view, "seq": self.numbers[seat]}


def _rules_for(header: LogHeader) -> tuple[Variant | None, State | None, str | None]:
    try:
        variant = get_variant(header.variant)
    except DuskfallError:
        return None, None, f"variant {header.variant!r} has no rules engine here"
    try:
        state = variant.new_game(parse_config(variant, header.config), header.seed)
    except Exception as exc:  # a log from another version: show the events anyway
        return variant, None, f"cannot rebuild the game state: {exc}"
    return variant, state, None


class Timeline:
    """The frames of one game, in order; see the module docstring."""

    def __init__(self, header: LogHeader) -> None:
        self.header = header
        self.num_seats = len(header.roster)
        self.variant, self.state, self.problem = _rules_for(header)
        self.spectator = present.spectator_of(header.variant, self.variant)
        self.frames: list[Frame] = []
        self.outcome: Outcome | None = None
        self.names: dict[int, str] = {}
        self._alive: tuple[int, ...] = self._living()
        self._shown: dict[int, int] = {}  # per view (seat, or PUBLIC_VIEW): events shown
        self._clock: tuple[int, str] | None = None  # the day and phase of the last rules event

    @property
    def game_id(self) -> str:
        return self.header.game_id

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def _living(self) -> tuple[int, ...]:
        if self.state is None:
            return tuple(range(self.num_seats))
        alive: Any = self.state.alive
        return tuple(alive() if callable(alive) else alive)  # tolerate a plain attribute

    def _channels(self, seat: int) -> frozenset[str]:
        return self.state.channels(seat) if self.state is not None else frozenset()

    def _apply(self, event: Event) -> None:
        if self.state is None or event.kind != kinds.ACTION:
            return
        try:
            self.state.apply(event.payload["seat"], event.payload["action"])
        except Exception as exc:  # the log disagrees with the rules: stop tracking the state
            self.problem = f"day {event.day}: the rules refused a recorded action ({exc})"
            self.state = None
            return
        self._alive = self._living()

    def add(self, event: Event) -> Frame:
        """Record the next event and return its frame."""
        self._apply(event)
        if self.state is None:  # no rules engine to ask (a GM game): the players marked out
            dead = {m["seat"] for m in present.marks(self.spectator, event) if m["mark"] == "dead"}
            self._alive = tuple(seat for seat in self._alive if seat not in dead)
        seats = frozenset(
            s for s in range(self.num_seats) if visible_to(event, s, self._channels(s))
        )
        if event.visibility == "public" and not self.names:
            self.names = present.names(self.spectator, event)
        if event.kind == kinds.GAME_OVER:
            self.outcome = Outcome.from_dict(event.payload)
        views = [*seats, PUBLIC_VIEW] if event.visibility == "public" else seats
        numbers = {view: self._number(view) for view in views}
        frame = Frame(event, seats, self._alive, self._view(event), numbers)
        self.frames.append(frame)
        return frame

    def _number(self, view: int) -> int:
        """The next event number of ``view`` (a seat, or PUBLIC_VIEW)."""
        number = self._shown.get(view, 0)
        self._shown[view] = number + 1
        return number

    def _when(self, event: Event) -> tuple[int, str]:
        """The day and phase an event is shown in: a game event's own (a rules event's, or
        any event of a game without a rules engine); an agent's record (a model call, a
        thought, an action) the game's at that moment, since agents date their records from
        their own view (sports mafia's counts its turns from 0, a GM game's calls say day 0)."""
        if event.source == "rules" or (self.state is None and event.kind not in AGENT_KINDS):
            self._clock = (event.day, event.phase)
            return self._clock
        return self._clock or (event.day, event.phase)

    def _view(self, event: Event) -> dict[str, Any]:
        day, phase = self._when(event)
        spectator = self.spectator
        ballot = present.ballot(spectator, event)
        reveals = present.reveals(spectator, event)
        text = present.event_line(spectator, self.variant, event, self.names)
        payload: dict[str, Any] = event.payload
        if event.source != "rules":  # model calls, errors, agents' text: secrets masked
            text, payload = redact(text), redact_value(payload)
        return {
            "seq": event.seq,
            "day": day,
            "phase": phase,
            "kind": event.kind,
            "source": event.source,
            "scope": present.scope(event),
            "visibility": event.visibility,
            "text": text,
            "actor": present.actor(event),
            "alive": list(self._alive),
            "reveals": {str(s): r for s, r in reveals.items()},
            "votes": None if ballot is None else [list(cast) for cast in ballot.casts],
            "ballot": None if ballot is None else ballot.name,
            "marks": present.marks(spectator, event),
            "detail": present.detail(spectator, event),
            "names": present.names(spectator, event) if event.visibility == "public" else {},
            "payload": payload,
        }

    def visible(self, seat: int | None) -> list[Frame]:
        """The frames ``seat`` may see; ``None`` is the god view (all of them)."""
        if seat is None:
            return list(self.frames)
        return [f for f in self.frames if seat in f.seats]

    def roles(self) -> dict[int, str]:
        """Every seat's role (god view): from the rules state, else from the events."""
        if self.state is not None:
            return dict(self.state.roles())
        found: dict[int, str] = {}
        for frame in self.frames:
            found.update(present.reveals(self.spectator, frame.event))
        return found

    def describe(self) -> dict[str, Any]:
        """What every viewer may know about the game: ids, seats and their agents; the seed
        (a decimal string) only once the game has ended (a tournament game's: once its whole
        deal has)."""
        header = self.header
        return {
            "game_id": header.game_id,
            "variant": header.variant,
            "variant_name": self.variant.name if self.variant is not None else header.variant,
            "seed": str(header.seed)
            if self.outcome is not None and tournament_seed_shown(header.extra.get("tournament"))
            else None,
            "config": redact_value(header.config),
            "started_at": header.started_at,
            "seats": [
                {
                    "seat": entry.get("seat", i),
                    "agent": redact(str(entry.get("agent", "?"))),
                    "name": self.names.get(i),
                }
                for i, entry in enumerate(header.roster)
            ],
            "outcome": self.outcome.to_dict() if self.outcome is not None else None,
            "problem": self.problem,
        }
