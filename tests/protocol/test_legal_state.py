"""The legal_state extension rebuilds every variant's legal actions on the client side."""

from __future__ import annotations

import json

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.protocol.legal_state import legal_from_state, legal_to_state


@pytest.mark.parametrize("variant_id", ["sports-mafia", "werewolf", "mafia"])
def test_round_trip_through_json_for_every_decision(variant_id: str) -> None:
    variant = get_variant(variant_id)
    for seed in range(5):
        state = variant.new_game(parse_config(variant, {}), seed)
        rng = derive_rng(seed, "legal-state")
        while state.outcome() is None:
            decision = state.pending()[0]
            legal = state.legal(decision.seat)
            wire = json.loads(json.dumps(legal_to_state(legal)))
            rebuilt = legal_from_state(wire)
            assert rebuilt.to_wire() == legal.to_wire()
            assert rebuilt.schema() == legal.schema()
            action = rebuilt.sample(rng)
            assert legal.parse(action.to_dict()) == action
            state.apply(decision.seat, action)


@pytest.mark.parametrize(
    "state",
    [
        None,
        {"class": "os:system", "fields": {}},
        {"class": "duskfall.variants.sports_mafia.rules:SportsMafiaState", "fields": {}},
        {"class": "duskfall.variants.sports_mafia.legal:TargetChoice"},
        {"class": "duskfall.variants.sports_mafia.legal:no such"},
    ],
)
def test_anything_else_is_refused(state: object) -> None:
    with pytest.raises(ValueError):
        legal_from_state(state)
