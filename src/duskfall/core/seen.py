"""What each seat has been shown so far: a game's rules events it could see, in order.

One object per game, shared by whoever needs a seat's history: the runtime (an LLM seat's
prompt is built from it, :mod:`duskfall.core.transcript`) and a variant's rules (werewolf's
observation holds it). Each seat's list grows as the events do and is brought up to date
only when the seat is next asked for, so seats nobody asks cost nothing; every event is
flattened once for all seats, and whether a seat sees a visibility is worked out once per
seat and visibility (again should the seat's channels change).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from duskfall.core.events import Event, visible_to
from duskfall.core.prompting import flatten


class SeenEvents:
    """Per seat, the flattened rules events of ``events`` (a list that grows, or a callable
    giving it) visible to it (see module doc); ``channels(seat)`` gives the seat's private
    channels. Copied with the state that holds it (``copy.deepcopy``), it reads the copy's
    events when they are given as a list."""

    def __init__(
        self,
        events: Sequence[Event] | Callable[[], Sequence[Event]],
        channels: Callable[[int], Collection[str]],
    ) -> None:
        self._source = events
        self._channels = channels
        self._seen: dict[int, list[dict[str, Any]]] = {}
        self._read_upto: dict[int, int] = {}
        self._flat: list[
            dict[str, Any] | None
        ] = []  # every event flattened (None: not a rules event)
        self._sees: dict[int, tuple[Collection[str], dict[str, bool]]] = {}

    def _events(self) -> Sequence[Event]:
        source = self._source
        return source() if callable(source) else source

    def _flatten(self, events: Sequence[Event]) -> list[dict[str, Any] | None]:
        flat = self._flat
        for event in events[len(flat) :]:
            flat.append(flatten(event) if event.source == "rules" else None)
        return flat

    def entries(self, seat: int) -> list[dict[str, Any]]:
        """Every rules event ``seat`` could see so far, flattened, oldest first."""
        seen = self._seen.setdefault(seat, [])
        start = self._read_upto.get(seat, 0)
        events = self._events()
        if start < len(events):
            flat = self._flatten(events)
            channels = self._channels(seat)
            cached = self._sees.get(seat)
            if cached is None or cached[0] != channels:
                cached = self._sees[seat] = (channels, {})
            sees = cached[1]
            for i in range(start, len(events)):
                entry = flat[i]
                if entry is None:
                    continue
                event = events[i]
                visible = sees.get(event.visibility)
                if visible is None:
                    visible = sees[event.visibility] = visible_to(event, seat, channels)
                if visible:
                    seen.append(entry)
            self._read_upto[seat] = len(events)
        return seen
