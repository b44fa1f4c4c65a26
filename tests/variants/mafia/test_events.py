"""Every mafia rules event converts to the typed model the variant declares and back unchanged
(every golden table: coordinated, uncoordinated, multi-role), and a payload that does not fit
its model is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest

from duskfall.core.events import Event
from duskfall.core.variant import parse_config
from duskfall.testing import VariantKit, play_random
from duskfall.testing.event_types import check_event_types
from duskfall.testing.golden import read_golden
from duskfall.variants.mafia import VARIANT
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.events import (
    EVENT_TYPES,
    Channel,
    DoctorAction,
    Investigation,
    MafiaEvent,
    Role,
    RoleName,
    Speech,
    Team,
    VigilantePass,
    VigilanteShot,
    VoteResult,
)
from duskfall.variants.mafia.roles import MAFIA_TEAM, ROLES, TOWN

from .helpers import bots_game

GOLDEN = sorted((Path(__file__).parents[2] / "golden").glob("mafia*.json"))
CONFIGS = [read_golden(path)["config"] for path in GOLDEN]
SEEDS = range(6)


def test_the_golden_tables_include_uncoordinated_and_multi_role_ones() -> None:
    assert all(read_golden(path)["variant"] == "mafia" for path in GOLDEN)
    assert any(config.get("coordination") is False for config in CONFIGS)
    assert any(config.get("allow_multi_role") for config in CONFIGS)


def test_the_kit_check_meets_every_kind_under_the_golden_tables() -> None:
    VariantKit("mafia", configs=CONFIGS).check_event_types(SEEDS)
    assert check_event_types(VARIANT, CONFIGS, SEEDS) == set(EVENT_TYPES)


def _typed(config: dict[str, Any], seeds: range = SEEDS) -> list[MafiaEvent]:
    models = []
    for seed in seeds:
        _, events = play_random(VARIANT, config, seed)
        for event in events:
            again = Event.from_dict(json.loads(json.dumps(event.to_dict())))
            models.append(EVENT_TYPES[event.kind].from_event(again))
    return models


def _golden(stem: str) -> dict[str, Any]:
    return read_golden(Path(__file__).parents[2] / "golden" / f"{stem}.json")["config"]


def test_coordinated_and_lone_results_both_fit() -> None:
    """Coordinated sheriffs and vigilantes report to their channel; alone (or with
    ``coordination: false``) to the seat, and the payload has no ``channel``."""
    apart = _typed(_golden("mafia-two-of-each-no-coordination"))
    together = _typed(_golden("mafia-two-of-each"))
    for models, channel in ((apart, None), (together, "sheriffs")):
        results = [m for m in models if isinstance(m, Investigation)]
        assert results and {m.channel for m in results} == {channel}
        assert all(m.coordination == (channel is not None) for m in results)
        assert all(("channel" in m.to_event().payload) == (channel is not None) for m in results)
    lone_doctors = [m for m in apart if isinstance(m, DoctorAction)]
    assert lone_doctors and all(m.consensus_votes is None for m in lone_doctors)
    agreed = [m for m in together if isinstance(m, DoctorAction) and m.coordination]
    assert agreed and all(m.consensus_votes for m in agreed)
    vigilantes = [m for m in apart + together if isinstance(m, VigilanteShot | VigilantePass)]
    assert {m.channel for m in vigilantes} == {None, "vigilantes"}


def test_multi_role_seats_fit() -> None:
    models = _typed(_golden("mafia-multi-role"))
    dealt = {tuple(m.roles) for m in models if isinstance(m, Role)}
    assert ("MAFIA", "DOCTOR") in dealt and ("MAFIA", "SHERIFF") in dealt
    labels = {
        label for m in models if m.kind == "deal" for label in m.model_dump()["roles"].values()
    }
    assert "MAFIA+DOCTOR" in labels
    votes = [m for m in models if isinstance(m, VoteResult)]
    assert {m.eliminated is None for m in votes} == {True, False}


def test_a_public_claim_fits() -> None:
    """Random players never claim a role; the heuristic bots do."""
    claims = set()
    for seed in range(3):
        _, events = bots_game(MafiaConfig(), seed)
        for event in events:
            model = EVENT_TYPES[event.kind].from_event(event)
            assert model.to_event().same_content(event)
            if isinstance(model, Speech):
                claims.add(model.claim)
    assert claims - {None} <= set(ROLES) and claims - {None}


def test_the_closed_sets_are_the_roles_own() -> None:
    assert get_args(RoleName) == tuple(ROLES)
    assert set(get_args(Team)) == {TOWN, MAFIA_TEAM} == set(VARIANT.teams)
    assert set(get_args(Channel)) == {r.channel for r in ROLES.values() if r.channel}


def _night_result() -> Event:
    payload = {
        "kind": "investigation",
        "day": 1,
        "seat": 4,
        "name": "Elena",
        "target": 2,
        "target_name": "Chloe",
        "roles": ["MAFIA", "DOCTOR"],
        "coordination": False,
    }
    return Event("investigation", payload, "seats:4", 1, "NIGHT")


def _with(event: Event, **changes: Any) -> Event:
    fields = {**event.to_dict(), **changes}
    return Event.from_dict(fields)


def _payload(event: Event, **changes: Any) -> Event:
    return _with(event, payload={**event.payload, **changes})


def test_a_payload_that_does_not_fit_is_refused() -> None:
    event = _night_result()
    model = Investigation.from_event(event)
    assert model.to_event().same_content(event) and model.channel is None
    refused = [
        _payload(event, seat="4"),  # a string for a seat: refused, not coerced
        _payload(event, coordination=1),
        _payload(event, target=-1),
        _payload(event, roles=["mafia"]),  # roles are capitals
        _payload(event, roles=[]),
        _payload(event, extra=1),  # an unknown field
        _payload(event, channel=None),  # left out, never null
        _payload(event, channel="sheriffs"),  # to the channel, yet visible to the seat only
        _payload(event, day=2),  # the payload's day is the event's
        _payload(event, kind="chat"),
        _payload(event, phase="DAY"),  # the event's own field, in the payload
        _with(event, visibility="public"),  # a secret declared public
        _with(event, phase="DAY"),
        _with(event, payload={k: v for k, v in event.payload.items() if k != "target_name"}),
        _with(event, kind="chat"),  # another kind
    ]
    for bad in refused:
        with pytest.raises(ValueError):
            Investigation.from_event(bad)
    shared = _with(
        _payload(event, channel="sheriffs", coordination=True), visibility="team:sheriffs"
    )
    assert Investigation.from_event(shared).to_event().same_content(shared)


def test_a_vote_reveals_exactly_the_eliminated_player() -> None:
    base = {"kind": "vote_result", "day": 2, "votes": {"0": 3, "1": None}, "tally": {"3": 1}}
    nobody = Event("vote_result", {**base, "eliminated": None, "roles": None}, "public", 2, "DAY")
    assert VoteResult.from_event(nobody).to_event().same_content(nobody)
    for bad in (
        {**base, "eliminated": None, "roles": None, "name": None},
        {**base, "eliminated": 3, "roles": None},
        {**base, "eliminated": 3, "roles": ["VILLAGER"]},
        {**base, "eliminated": None, "roles": None, "tally": {"3": 1.5}},
        {**base, "eliminated": None, "roles": None, "votes": {"zero": 3}},
    ):
        with pytest.raises(ValueError):
            VoteResult.from_event(Event("vote_result", bad, "public", 2, "DAY"))


def test_the_wire_schema_is_the_payload_as_sent() -> None:
    schema = Investigation.wire_schema()
    assert schema["properties"]["kind"] == {"const": "investigation"}
    assert schema["properties"]["channel"]["const"] == "sheriffs"
    assert "channel" not in schema["required"] and "day" in schema["required"]
    assert not {"phase", "visibility"} & set(schema["properties"])
    assert schema["additionalProperties"] is False
    setup = EVENT_TYPES["setup"].wire_schema()["properties"]["setup"]
    assert setup["propertyNames"] == {"enum": list(ROLES)}
    assert "day" not in EVENT_TYPES["setup"].wire_schema()["properties"]


def test_the_variant_declares_the_models() -> None:
    assert VARIANT.info.event_types is EVENT_TYPES
    state = VARIANT.new_game(parse_config(VARIANT, {"players": 5}), 0)
    assert {e.kind for e in state.opening_events()} <= set(EVENT_TYPES)
