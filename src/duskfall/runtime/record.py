"""A game's event stream: stamps ``seq``/``game_id`` and notifies observers (log, web, server).

It is also where text enters the record: every event not derived by the rules (actions, model
calls, thoughts, errors, a game master's chat) has the fields of its payload that its kind
declares untrusted text (:data:`~duskfall.core.event_kinds.TEXT_FIELDS`; every field of a kind
not declared) passed through :func:`~duskfall.core.redaction.redact_payload` before anyone sees
it, so no registered secret, in any disguise, and no credential pattern is written, served or
shown, while an event of seats and numbers never reaches the matcher. (The rules' events are
built from actions already redacted where the runtime received them:
:mod:`duskfall.runtime.handler`, which searches each seat's texts joined to its previous ones
through the record's :attr:`GameRecord.tails`.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, Protocol

from duskfall.core import event_kinds as kinds
from duskfall.core.events import Event, visible_to
from duskfall.core.outcome import Outcome
from duskfall.core.redaction import SeatTails, redact_payload


class Observer(Protocol):
    """Anything that follows a game: the log writer, the web page, the server's seats.

    An observer whose class sets ``needs_every_event = False`` (a tally that reads its counts
    from the record) is given the events that are recorded anyway, but does not by itself make
    the record build the rules' events and the runtime's action records (:attr:`GameRecord.heard`).
    """

    def on_event(self, event: Event) -> None: ...

    def on_phase_end(self) -> None: ...

    def on_game_end(self, outcome: Outcome | None) -> None: ...


class GameRecord:
    """The ordered events of one game and the observers that receive them as they happen.

    ``keep_events = False`` lets the events go once the observers have seen them (``events``
    stays empty; ``seq`` still counts on): a caller that only folds a game's events (a
    simulation's tally) then keeps no game in memory, which also spares the garbage collector
    from scanning every past event of the game again and again.
    """

    def __init__(
        self, game_id: str, observers: Iterable[Observer] = (), *, keep_events: bool = True
    ) -> None:
        self.game_id = game_id
        self.events: list[Event] = []
        self.observers: list[Observer] = list(observers)
        self.keep_events = keep_events
        self._dropped = 0  # events recorded but not kept
        self.actions = 0  # actions applied through this record (counted even when unheard)
        self.tails = SeatTails()  # each seat's last texts: a secret split across two is caught

    def add(self, event: Event) -> Event:
        if event.source != "rules":  # untrusted text may be in it: secrets masked first
            fields = kinds.TEXT_FIELDS.get(event.kind)
            if fields != ():  # () declares a kind without untrusted text (an action record)
                event.payload = redact_payload(event.payload, fields)
        event.seq = len(self.events) + self._dropped
        event.game_id = self.game_id
        if self.keep_events:
            self.events.append(event)
        else:
            self._dropped += 1
        for observer in self.observers:
            observer.on_event(event)
        return event

    @property
    def recorded(self) -> int:
        """How many events the game has recorded so far, kept or not."""
        return len(self.events) + self._dropped

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.add(event)

    @property
    def heard(self) -> bool:
        """Whether anyone needs every event: kept, or followed by an observer that does. An
        unheard record need not be given the rules' and actions' events (:meth:`pass_unheard`)."""
        return self.keep_events or any(
            getattr(observer, "needs_every_event", True) for observer in self.observers
        )

    def pass_unheard(self, count: int) -> None:
        """Count ``count`` events that happened but were not built (nobody hears them)."""
        self._dropped += count

    def phase_end(self) -> None:
        for observer in self.observers:
            observer.on_phase_end()

    def game_end(self, outcome: Outcome | None) -> None:
        for observer in self.observers:
            observer.on_game_end(outcome)


class SeatFeed:
    """Forwards to ``observer`` only the events ``seat`` may see (``visible_to`` its channels).

    This is how a participant that keeps its own records of a game (``watch_game``) follows it
    without ever receiving what its seat may not know. The events it is given are numbered in
    the seat's own view (``seq`` 0, 1, 2... over the events it sees), so their numbers tell
    nothing of how many hidden events came between. An observer with ``on_final_view`` is
    given the seat's last observation (``observe()``) when the game ends, before
    ``on_game_end`` (a person's terminal shows the end in the seat's own words).
    """

    def __init__(
        self,
        seat: int,
        channels: Callable[[], Collection[str]],
        observer: Observer,
        observe: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self.seat = seat
        self.channels = channels
        self.observer = observer
        self.observe = observe
        self.shown = 0  # events forwarded: the next one's number in the seat's view

    def on_event(self, event: Event) -> None:
        if visible_to(event, self.seat, self.channels()):
            self.observer.on_event(dataclasses.replace(event, seq=self.shown))
            self.shown += 1

    def on_phase_end(self) -> None:
        self.observer.on_phase_end()

    def on_game_end(self, outcome: Outcome | None) -> None:
        final_view = getattr(self.observer, "on_final_view", None)
        if self.observe is not None and callable(final_view):
            final_view(self.observe())
        self.observer.on_game_end(outcome)


def action_event(state: Any, seat: int, action: Any, source: str) -> Event:
    """The admin record of an applied action; replay re-applies these."""
    return Event(
        kinds.ACTION,
        {"seat": seat, "action": action.to_dict(), "by": source},
        "admin",
        state.day,
        state.phase,
        source="runtime",
    )
