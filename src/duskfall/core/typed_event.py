"""The base of a variant's typed event models (:class:`~duskfall.core.variant.EventModel`).

The rules emit plain :class:`~duskfall.core.events.Event` values (cheap in the hot path); a
variant declares one model per event kind (``VariantInfo.event_types``), a subclass of
:class:`TypedEventModel` whose fields are the event's payload. ``day``, ``phase`` and
``visibility`` are model fields too, but they go on the core event, never in its payload, and a
``GAME_EVENT`` frame does not carry them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict

from duskfall.core.events import PUBLIC, Event
from duskfall.core.model_schema import dumped_schema

WHERE = ("day", "phase", "visibility")
"""The model fields that go on the core event rather than in its payload."""


class TypedEventModel(BaseModel):
    """One event kind's model: ``kind`` names it, the fields other than :data:`WHERE` are its
    payload (all JSON-native, so an event survives the JSONL log unchanged)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=True)
    kind: ClassVar[str] = ""
    day: int = 0
    phase: str = ""
    visibility: str = PUBLIC

    def to_event(self) -> Event:
        payload = self.model_dump(exclude=set(WHERE), mode="json")
        return Event(self.kind, payload, self.visibility, self.day, self.phase)

    @classmethod
    def from_event(cls, event: Event) -> Self:
        """The model of a rules event of this kind (a ValueError if its payload does not fit)."""
        if event.kind != cls.kind:
            raise ValueError(f"a {event.kind!r} event is no {cls.kind!r}")
        where = {"day": event.day, "phase": event.phase, "visibility": event.visibility}
        return cls.model_validate({**event.payload, **where})

    @classmethod
    def wire_schema(cls) -> dict[str, Any]:
        """The payload's JSON Schema (``day``, ``phase`` and ``visibility`` are not sent)."""
        return dumped_schema(cls, exclude=WHERE)


M = TypeVar("M", bound=TypedEventModel)


def event_types(models: Iterable[type[M]]) -> dict[str, type[M]]:
    """``{kind: model}`` of ``models`` (a ValueError if a kind is unnamed or named twice)."""
    found: dict[str, type[M]] = {}
    for model in models:
        if not model.kind or model.kind in found:
            raise ValueError(f"event kind {model.kind!r} unnamed or declared twice")
        found[model.kind] = model
    return found
