"""Visibility filter and event serialisation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duskfall.core.events import (
    ADMIN,
    PUBLIC,
    Event,
    seats_visibility,
    team_visibility,
    visible_to,
)


def test_public_admin_team_and_seats() -> None:
    assert visible_to(Event("x", visibility=PUBLIC), 3)
    assert not visible_to(Event("x", visibility=ADMIN), 3)
    assert visible_to(Event("x", visibility=ADMIN), None)  # god view
    wolves = Event("x", visibility=team_visibility("werewolf"))
    assert visible_to(wolves, 1, frozenset({"werewolf"}))
    assert not visible_to(wolves, 1, frozenset({"doctor"}))
    only = Event("x", visibility=seats_visibility([4, 12]))
    assert only.visibility == "seats:4,12"
    assert visible_to(only, 4) and visible_to(only, 12)
    assert not visible_to(only, 1) and not visible_to(only, 2)  # no prefix matching


def test_unknown_visibility_is_an_error() -> None:
    with pytest.raises(ValueError):
        visible_to(Event("x", visibility="everyone"), 1)


@given(
    kind=st.text(min_size=1, max_size=20),
    day=st.integers(0, 100),
    seats=st.lists(st.integers(0, 20), min_size=1, max_size=5),
)
def test_event_round_trip(kind: str, day: int, seats: list[int]) -> None:
    event = Event(kind, {"a": [1, 2]}, seats_visibility(seats), day, "VOTING", 4, "g", "runtime")
    again = Event.from_dict(event.to_dict())
    assert again == event and again.same_content(event)
