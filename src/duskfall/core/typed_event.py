"""The base of a variant's typed event models (:class:`~duskfall.core.variant.EventModel`).

The rules emit plain :class:`~duskfall.core.events.Event` values (cheap in the hot path); a
variant declares one model per event kind (``VariantInfo.event_types``), a subclass of
:class:`TypedEventModel` whose fields are the event's payload. ``day``, ``phase`` and
``visibility`` are model fields too, but they go on the core event, never in its payload, and a
``GAME_EVENT`` frame does not carry them. Two idioms of a variant's payloads are declared, not
hand-coded: a payload that repeats the event's ``kind``, ``day`` or ``phase`` names them in
``echoed`` (the payload must then agree with the event), and an optional field listed in
``omitted_when_none`` is left out of the payload when it does not apply, never sent as null.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict

from duskfall.core.events import PUBLIC, Event
from duskfall.core.model_schema import dumped_schema, not_null

WHERE = ("day", "phase", "visibility")
"""The model fields that go on the core event rather than in its payload."""


class TypedEventModel(BaseModel):
    """One event kind's model: ``kind`` names it, the fields other than :data:`WHERE` are its
    payload (all JSON-native, so an event survives the JSONL log unchanged)."""

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
        payload = self.model_dump(exclude=_unsent(self.echoed), mode="json")
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
        clash = sorted(set(payload) & {"kind", *WHERE})
        if clash:  # it would be lost on the way to the model
            raise ValueError(f"a {cls.kind} event's payload has the event's own {clash[0]!r}")
        for name in cls.omitted_when_none:
            if name in payload and payload[name] is None:
                raise ValueError(f"a {cls.kind} event leaves {name!r} out rather than null")
        return cls.model_validate({**payload, **where, "visibility": event.visibility})

    @classmethod
    def wire_schema(cls) -> dict[str, Any]:
        """The payload's JSON Schema (``day``, ``phase`` and ``visibility`` are not sent unless
        ``echoed``; the repeated fields first, as the payload has them)."""
        schema = dumped_schema(cls, exclude=_unsent(cls.echoed))
        properties: dict[str, Any] = schema["properties"]
        for name in cls.omitted_when_none:
            properties[name] = not_null(properties[name])  # left out when None
        if "kind" in cls.echoed:
            properties["kind"] = {"const": cls.kind}
        ordered = {name: properties[name] for name in cls.echoed} | properties
        schema["properties"] = ordered
        schema["required"] = [n for n in ordered if n not in cls.omitted_when_none]
        return schema


def _unsent(echoed: Iterable[str]) -> set[str]:
    return set(WHERE) - set(echoed)


M = TypeVar("M", bound=TypedEventModel)


def event_types(models: Iterable[type[M]]) -> dict[str, type[M]]:
    """``{kind: model}`` of ``models`` (a ValueError if a kind is unnamed or named twice)."""
    found: dict[str, type[M]] = {}
    for model in models:
        if not model.kind or model.kind in found:
            raise ValueError(f"event kind {model.kind!r} unnamed or declared twice")
        found[model.kind] = model
    return found
