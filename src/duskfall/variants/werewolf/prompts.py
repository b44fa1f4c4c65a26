"""Text for people watching: the god-view line of each event.

Built from the events, never from the state. A seat's prompts and a person's view at the
terminal are composed from the prompt kit (:mod:`.prompt_kit`); the event lines shared by all
of them are in :mod:`.event_text`.
"""

from __future__ import annotations

from duskfall.core.events import Event
from duskfall.core.terminal import plain
from duskfall.variants.werewolf.event_text import event_line
from duskfall.variants.werewolf.event_text import plain as seat_label


def format_event(event: Event) -> str | None:
    """One line per rules event for the god view (seat numbers; rich markup escaped)."""
    line = event_line(event.kind, event.payload, seat_label)
    return plain(line) if line is not None else None
