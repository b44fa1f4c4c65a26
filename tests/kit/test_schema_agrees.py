"""The published action schemas and the server's strict check agree, on every decision kind:
every legal action passes both; a missing field, an unknown field or a value of the wrong
JSON type fails both (generated from the legal views met in random games)."""

from __future__ import annotations

import functools
import random
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.core.legal import LegalActions
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.kit.schemas import VariantSchemas
from duskfall.protocol.strict import wire_form_error

VARIANTS = ("sports-mafia", "werewolf", "mafia")


@functools.cache
def views(variant_id: str) -> list[LegalActions]:
    """Legal views met in a few random games of each config."""
    variant = get_variant(variant_id)
    found: list[LegalActions] = []
    for config in variant.info.kit.catalog:
        for seed in range(3):
            state = variant.new_game(parse_config(variant, config), seed)
            rng = derive_rng(seed, "agree")
            while state.outcome() is None:
                pending = state.pending()
                found += [state.legal(d.seat) for d in pending]
                decision = pending[rng.randrange(len(pending))]
                state.apply(decision.seat, state.legal(decision.seat).sample(rng))
    return found


@functools.cache
def validator(variant_id: str, kind: str) -> Any:
    actions = VariantSchemas(get_variant(variant_id)).actions()
    return jsonschema_rs.Draft202012Validator(actions[kind])


def required(schema: dict[str, Any], action: dict[str, Any]) -> list[str]:
    """The fields the branch of ``schema`` that ``action`` chose requires (besides type)."""
    for branch in schema.get("anyOf") or [schema]:
        props = branch.get("properties", {})
        consts = {n: p["const"] for n, p in props.items() if "const" in p}
        if all(action.get(n) == v for n, v in consts.items()):
            return [n for n in branch.get("required", ()) if n != "type" and n in action]
    return []


def mutate(
    action: dict[str, Any], how: str, rng: random.Random, schema: dict[str, Any]
) -> dict[str, Any] | None:
    """``action`` made wrong in one way (None when that way does not apply)."""
    fields = [name for name in action if name != "type"]
    if how == "unknown":
        return {**action, "comment": "x"}
    needed = required(schema, action)
    if how == "missing" and needed:
        name = rng.choice(needed)
        return {k: v for k, v in action.items() if k != name}
    if how == "type" and fields:
        name = rng.choice(fields)
        value = action[name]
        wrong: Any = "3" if isinstance(value, int) and not isinstance(value, bool) else 3.5
        if isinstance(value, str):
            wrong = 7
        return {**action, name: wrong}
    return None


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", VARIANTS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_schema_and_strict_check_agree(variant_id: str, data: st.DataObject) -> None:
    legal = data.draw(st.sampled_from(views(variant_id)))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    action = legal.sample(rng).to_dict()
    schema = validator(variant_id, legal.kind)
    assert wire_form_error(action, legal.schema()) is None
    assert schema.is_valid(action), action
    how = data.draw(st.sampled_from(["unknown", "missing", "type"]))
    wrong = mutate(action, how, rng, legal.schema())
    if wrong is None or wrong == action:
        return
    strict = wire_form_error(wrong, legal.schema())
    assert strict is not None, (how, wrong)
    assert not schema.is_valid(wrong), (how, wrong, strict)
