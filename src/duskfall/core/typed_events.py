"""A base for a variant's typed event models (:class:`~duskfall.core.variant.EventModel`).

A model's ``day``, ``phase`` and ``visibility`` go on the core :class:`Event`, its other fields
in the payload. A variant whose payloads repeat the event's ``kind``, ``day`` or ``phase``
names them in ``echoed`` (the payload must then agree with the event); a field listed in
``omitted_when_none`` is left out of the payload, never sent as null. The rules keep emitting
plain events (cheap in the hot path); the variant kit checks that each converts to its model
and back unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict

from duskfall.core.events import PUBLIC, Event
from duskfall.core.model_schema import dumped_schema

PLACEMENT = ("day", "phase", "visibility")
"""The model fields that go on the core event, not in its payload."""


class TypedEventModel(BaseModel):
    """One event kind's model (subclasses set ``kind`` and declare the payload fields)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=True)
    kind: ClassVar[str] = ""
    # the event's own fields ("kind", "day", "phase") its payload repeats
    echoed: ClassVar[tuple[str, ...]] = ()
    # optional payload fields left out (never null) when they do not apply
    omitted_when_none: ClassVar[tuple[str, ...]] = ()
    day: int = 0
    phase: str = ""
    visibility: str = PUBLIC

    def to_event(self) -> Event:
        hidden = {name for name in PLACEMENT if name not in self.echoed}
        payload = self.model_dump(exclude=hidden, mode="json")
        for name in self.omitted_when_none:
            if payload[name] is None:
                del payload[name]
        if "kind" in self.echoed:
            payload["kind"] = self.kind
        return Event(self.kind, payload, self.visibility, self.day, self.phase)

    @classmethod
    def from_event(cls, event: Event) -> Self:
        """The model of a rules event of this kind (a ValueError if its payload does not fit)."""
        if event.kind != cls.kind:
            raise ValueError(f"a {event.kind!r} event is no {cls.kind!r}")
        where: dict[str, Any] = {"day": event.day, "phase": event.phase}
        payload = dict(event.payload)
        for name in cls.echoed:
            expected = cls.kind if name == "kind" else where[name]
            if name not in payload or payload.pop(name) != expected:
                raise ValueError(
                    f"a {cls.kind} event's payload must repeat its {name} {expected!r}"
                )
        _check_placement(cls.kind, payload)
        for name in cls.omitted_when_none:
            if name in payload and payload[name] is None:
                raise ValueError(f"a {cls.kind} event leaves {name!r} out rather than null")
        return cls.model_validate({**payload, **where, "visibility": event.visibility})

    @classmethod
    def wire_schema(cls) -> dict[str, Any]:
        """The payload's JSON Schema, as a ``GAME_EVENT`` frame carries it."""
        hidden = [name for name in PLACEMENT if name not in cls.echoed]
        schema = dumped_schema(cls, exclude=hidden)
        properties: dict[str, Any] = schema["properties"]
        for name in cls.omitted_when_none:
            properties[name] = _not_null(properties[name])
        if "kind" in cls.echoed:
            properties["kind"] = {"const": cls.kind}
        schema["required"] = [n for n in properties if n not in cls.omitted_when_none]
        return schema


def _check_placement(kind: str, payload: Mapping[str, Any]) -> None:
    """A payload field named like the event's own would be lost on the way to the model."""
    clash = sorted(set(payload) & {"kind", *PLACEMENT})
    if clash:
        raise ValueError(f"a {kind} event's payload has the event's own field {clash[0]!r}")


def _not_null(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``X | None`` as ``X`` (a field left out when None is never null)."""
    branches = [b for b in schema.get("anyOf", ()) if b.get("type") != "null"]
    if len(branches) == 1:
        return {**{k: v for k, v in schema.items() if k != "anyOf"}, **branches[0]}
    return dict(schema)
