"""What each seat has been shown so far: the game's rules events it could see, in order.

An LLM seat's prompt is built from these (:mod:`duskfall.core.transcript`), so it holds
everything the seat may know. Each seat's list grows as the record does; a seat's events are
filtered once, when it is next asked (the record keeps every event of a game that asks a
prompt-reading participant).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from duskfall.core.events import Event, visible_to
from duskfall.core.prompting import Entry, flatten


class SeenEvents:
    """Per seat, the flattened rules events of ``events`` visible to it (see module doc)."""

    def __init__(
        self, events: Callable[[], Sequence[Event]], channels: Callable[[int], Collection[str]]
    ) -> None:
        self._events = events
        self._channels = channels
        self._seen: dict[int, list[Entry]] = {}
        self._read_upto: dict[int, int] = {}

    def entries(self, seat: int) -> list[Entry]:
        """Every rules event ``seat`` could see so far, flattened, oldest first."""
        seen = self._seen.setdefault(seat, [])
        start = self._read_upto.get(seat, 0)
        events = self._events()
        if start < len(events):
            channels = self._channels(seat)
            seen.extend(
                flatten(event)
                for event in events[start:]
                if event.source == "rules" and visible_to(event, seat, channels)
            )
            self._read_upto[seat] = len(events)
        return seen
