"""Every sports-mafia rules event converts to the typed model the variant declares for its kind
and back unchanged, under every golden table; a payload that does not fit is refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.core.events import PUBLIC, Event, seats_visibility
from duskfall.core.typed_event import TypedEventModel
from duskfall.testing.event_types import check_event_types
from duskfall.variants.sports_mafia import VARIANT
from duskfall.variants.sports_mafia.events import (
    EVENT_TYPES,
    DonCheckResult,
    GameStarted,
    MafiaTeam,
    Votes,
)

GOLDEN = sorted(Path(__file__).parents[2].joinpath("golden").glob("sports-mafia*.json"))


def test_the_variant_declares_the_models() -> None:
    assert VARIANT.info.event_types is EVENT_TYPES
    assert len(GOLDEN) >= 2  # the default table and the day-limit one


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_event_of_a_golden_table_fits_its_model_and_every_kind_is_met(path: Path) -> None:
    config = json.loads(path.read_text(encoding="utf-8"))["config"]
    met = check_event_types(VARIANT, [config], range(20))
    assert met == set(EVENT_TYPES), f"never met: {sorted(set(EVENT_TYPES) - met)}"


@settings(max_examples=25, deadline=None)
@given(
    day_limit=st.integers(1, 6),
    seat_order=st.none() | st.permutations(range(10)),
    seed=st.integers(0, 10**6),
)
def test_random_tables_events_are_typed(day_limit: int, seat_order: Any, seed: int) -> None:
    config = {"day_limit": day_limit, "seat_order": seat_order and list(seat_order)}
    assert check_event_types(VARIANT, [config], [seed]) >= {"GAME_STARTED", "DAY_STARTED"}


def test_a_model_carries_day_phase_and_visibility_on_the_event() -> None:
    check = DonCheckResult(
        day=2, phase="NIGHT_DON", visibility=seats_visibility([7]), target=3, is_sheriff=True
    )
    event = check.to_event()
    assert (event.kind, event.day, event.phase, event.visibility) == (
        "DON_CHECK_RESULT",
        2,
        "NIGHT_DON",
        "seats:7",
    )
    assert event.payload == {"target": 3, "is_sheriff": True}


def _event(kind: str, payload: dict[str, Any]) -> Event:
    return Event(kind, payload, PUBLIC, 1, "VOTING")


@pytest.mark.parametrize(
    ("model", "payload"),
    [
        (DonCheckResult, {"target": 3, "is_sheriff": True, "extra": 1}),  # a field too many
        (DonCheckResult, {"target": 3}),  # one missing
        (DonCheckResult, {"target": 10, "is_sheriff": True}),  # no such seat
        (GameStarted, {"players": 12}),  # sports mafia seats ten
        (MafiaTeam, {"members": [1, 2], "don": 1}),  # the black team is three
        (Votes, {"round": 2, "votes": {"0": 3, "1": True}}),  # a seat in the yes/no round
        (Votes, {"round": 0, "votes": {"0": True}}),  # yes/no in a seat vote
        (Votes, {"round": 0, "votes": {"voter": 3}}),  # a key that is no seat
        (Votes, {"round": 3, "votes": {}}),  # there are three rounds
    ],
)
def test_a_payload_that_does_not_fit_is_refused(model: Any, payload: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        model.from_event(_event(model.kind, payload))


def test_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="is no"):
        Votes.from_event(_event("NO_KILL", {}))


def test_role_and_team_are_closed() -> None:
    role = EVENT_TYPES["ROLE_ASSIGNED"]
    with pytest.raises(ValueError):
        role.from_event(_event("ROLE_ASSIGNED", {"player_id": 1, "role": "DOCTOR"}))
    team = EVENT_TYPES["SHERIFF_CHECK_RESULT"]
    with pytest.raises(ValueError):
        team.from_event(_event("SHERIFF_CHECK_RESULT", {"target": 1, "team": "GREEN"}))
    schema = team.wire_schema()["properties"]["team"]
    assert schema["enum"] == ["RED", "BLACK"]


class _Planted:
    """Sports mafia declaring other event models (a planted fault)."""

    def __init__(self, event_types: dict[str, Any]) -> None:
        self.info = replace(VARIANT.info, event_types=event_types)

    def __getattr__(self, name: str) -> Any:
        return getattr(VARIANT, name)


class _PlayersAsFloat(TypedEventModel):
    kind: ClassVar[str] = "GAME_STARTED"
    players: float  # 10 comes back as 10.0: equal in Python, other JSON


class _RoleAsAnything(TypedEventModel):
    kind: ClassVar[str] = "ROLE_ASSIGNED"
    player_id: int
    role: int  # no role is an integer


@pytest.mark.parametrize(
    ("model", "message"),
    [(_PlayersAsFloat, "other JSON"), (_RoleAsAnything, "does not fit")],
)
def test_the_kit_check_finds_a_planted_inexact_model(model: Any, message: str) -> None:
    planted: Any = _Planted({**EVENT_TYPES, model.kind: model})
    with pytest.raises(AssertionError, match=message):
        check_event_types(planted, [{}], [0])


def test_the_kit_check_finds_an_undeclared_kind() -> None:
    planted: Any = _Planted({"GAME_STARTED": GameStarted})
    with pytest.raises(AssertionError, match="no declared type"):
        check_event_types(planted, [{}], [0])
