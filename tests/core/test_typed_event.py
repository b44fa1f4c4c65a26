"""The base of the variants' typed event models: day, phase and visibility go on the core
event, the rest is the payload; a payload that does not fit, or another kind, is refused."""

from __future__ import annotations

from typing import ClassVar

import pytest

from duskfall.core.events import Event
from duskfall.core.typed_event import TypedEventModel, event_types


class Shot(TypedEventModel):
    kind: ClassVar[str] = "shot"
    seat: int
    target: int | None


def test_a_model_splits_where_from_the_payload_and_back() -> None:
    event = Event("shot", {"seat": 2, "target": None}, "seats:2", 3, "NIGHT")
    shot = Shot.from_event(event)
    assert (shot.day, shot.phase, shot.visibility, shot.seat) == (3, "NIGHT", "seats:2", 2)
    assert shot.to_event().same_content(event)
    schema = Shot.wire_schema()
    assert schema["required"] == ["seat", "target"] and schema["additionalProperties"] is False


@pytest.mark.parametrize(
    "event",
    [
        Event("shot", {"seat": 2}, "public", 1, "NIGHT"),  # a field missing
        Event("shot", {"seat": 2, "target": 1, "extra": 0}, "public", 1, "NIGHT"),  # one more
        Event("shot", {"seat": "two", "target": 1}, "public", 1, "NIGHT"),  # mistyped
        Event("vote", {"seat": 2, "target": 1}, "public", 1, "DAY"),  # another kind
    ],
)
def test_a_payload_that_does_not_fit_is_refused(event: Event) -> None:
    with pytest.raises(ValueError):
        Shot.from_event(event)


def test_event_types_refuses_a_kind_declared_twice() -> None:
    assert event_types([Shot]) == {"shot": Shot}
    with pytest.raises(ValueError, match="twice"):
        event_types([Shot, Shot])
