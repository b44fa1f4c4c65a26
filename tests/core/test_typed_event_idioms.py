"""The two payload idioms a typed event model declares: a payload that repeats the event's own
``kind``/``day`` (``echoed``), and a field left out rather than null (``omitted_when_none``)."""

from __future__ import annotations

from typing import ClassVar

import pytest

from duskfall.core.events import Event
from duskfall.core.typed_event import TypedEventModel


class Result(TypedEventModel):
    kind: ClassVar[str] = "result"
    echoed: ClassVar[tuple[str, ...]] = ("kind", "day")
    omitted_when_none: ClassVar[tuple[str, ...]] = ("channel",)
    channel: str | None = None
    seat: int


def _event(**payload: object) -> Event:
    return Event("result", {"kind": "result", "day": 2, "seat": 1, **payload}, "seats:1", 2, "N")


def test_repeated_and_left_out_fields_go_back_where_they_were() -> None:
    for event in (_event(), _event(channel="sheriffs")):
        model = Result.from_event(event)
        assert model.to_event().same_content(event)
    assert "channel" not in Result(day=2, seat=1).to_event().payload
    schema = Result.wire_schema()
    assert list(schema["properties"])[:2] == ["kind", "day"]
    assert schema["properties"]["kind"] == {"const": "result"}
    assert schema["properties"]["channel"] == {"type": "string"}
    assert schema["required"] == ["kind", "day", "seat"]
    assert "phase" not in schema["properties"] and "visibility" not in schema["properties"]


@pytest.mark.parametrize(
    "event",
    [
        _event(channel=None),  # left out, never null
        _event(day=3),  # disagrees with the event's day
        _event(kind="other"),
        _event(phase="N"),  # the event's own field, which the payload does not repeat
        Event("result", {"day": 2, "seat": 1}, "seats:1", 2, "N"),  # the repeated kind missing
    ],
)
def test_a_payload_that_breaks_an_idiom_is_refused(event: Event) -> None:
    with pytest.raises(ValueError):
        Result.from_event(event)
