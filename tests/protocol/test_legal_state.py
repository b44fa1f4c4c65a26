"""Each variant's wire codec rebuilds its legal actions on the client side (``legal_state``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import WireCodec, parse_config
from duskfall.variants.sports_mafia.wire import legal_from_valid_actions

VARIANTS = ["sports-mafia", "werewolf", "mafia"]


def codec(variant_id: str) -> WireCodec:
    wire = get_variant(variant_id).info.wire
    assert wire is not None, f"{variant_id} declares no wire codec"
    return wire


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_round_trip_through_json_for_every_decision(variant_id: str) -> None:
    variant = get_variant(variant_id)
    wire = codec(variant_id)
    checked = 0
    for seed in range(8):
        state = variant.new_game(parse_config(variant, {}), seed)
        rng = derive_rng(seed, "legal-state")
        while state.outcome() is None:
            pending = state.pending()
            decision = pending[rng.randrange(len(pending))]
            legal = state.legal(decision.seat)
            sent = wire.legal_state(legal)
            assert sent is not None and set(sent) == {"kind", "fields"}
            text = json.dumps(sent)
            assert "duskfall" not in text and ":" not in sent["kind"]  # no Python paths
            message = json.loads(json.dumps(legal.to_wire()))
            rebuilt = wire.legal_from_wire(decision.kind, message, json.loads(text))
            assert rebuilt == legal
            assert rebuilt.to_wire() == legal.to_wire() and rebuilt.schema() == legal.schema()
            action = rebuilt.sample(rng)
            assert legal.parse(action.to_dict()) == action
            state.apply(decision.seat, action)
            checked += 1
    assert checked > 100


def test_sports_mafia_reads_the_seeds_valid_actions_alone() -> None:
    variant = get_variant("sports-mafia")
    wire = codec("sports-mafia")
    for seed in range(5):
        state = variant.new_game(parse_config(variant, {}), seed)
        rng = derive_rng(seed, "valid-actions")
        while state.outcome() is None:
            decision = state.pending()[0]
            legal = state.legal(decision.seat)
            valid = json.loads(json.dumps(legal.to_wire()))
            rebuilt = wire.legal_from_wire(decision.kind, valid, None)
            assert rebuilt == legal == legal_from_valid_actions(decision.kind, valid)
            state.apply(decision.seat, rebuilt.sample(rng))


@pytest.mark.parametrize("variant_id", ["werewolf", "mafia"])
def test_without_legal_state_other_variants_refuse_clearly(variant_id: str) -> None:
    with pytest.raises(ValueError, match="no legal_state"):
        codec(variant_id).legal_from_wire("VOTE", {"target": [1, 2]}, None)


@pytest.mark.parametrize("variant_id", VARIANTS)
@pytest.mark.parametrize(
    "state",
    [
        "target",
        {"fields": {}},
        {"kind": "os:system", "fields": {}},
        {"kind": "duskfall.variants.sports_mafia.legal:TargetChoice", "fields": {}},
        {"class": "duskfall.variants.sports_mafia.legal:TargetChoice", "fields": {}},
        {"kind": "no such kind", "fields": {}},
        {"kind": "target"},
        {"kind": "target", "fields": "not an object"},
        {"kind": "target", "fields": {}},
    ],
)
def test_unknown_kinds_and_broken_states_are_refused(variant_id: str, state: Any) -> None:
    with pytest.raises(ValueError):
        codec(variant_id).legal_from_wire("VOTE", {}, state)


def test_unknown_valid_actions_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown valid_actions"):
        codec("sports-mafia").legal_from_wire("VOTING", {"shrug": []}, None)
    with pytest.raises(ValueError, match="not a list of player ids"):
        codec("sports-mafia").legal_from_wire("VOTING", {"vote": ["a"]}, None)
