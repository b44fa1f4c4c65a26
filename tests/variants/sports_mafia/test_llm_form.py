"""The LLM form of a declaration: beliefs by player and a short list of claims, every value an
enum, parsed into the same action as the seed's matrix form, which stays the wire form."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
import pytest

from duskfall.core.errors import IllegalAction
from duskfall.core.llm_form import llm_schema
from duskfall.protocol.strict import wire_form_error
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)

CHOICE = DeclarationChoice((1, 2, 5))
BELIEFS = [0, 3, -2, 0, 1, 0, 0, -3, 0, 2]
LLM_FORM: dict[str, Any] = {
    "type": "DECLARATION",
    "beliefs": {str(p): v for p, v in enumerate(BELIEFS)},
    "claims": [
        {"night": 1, "player": 7, "team": "BLACK"},
        {"night": 2, "player": 1, "team": "RED"},
    ],
    "nomination": 5,
}
MATRIX = [[0] * 10 for _ in range(10)]
MATRIX[0][7], MATRIX[1][1] = -1, 1
WIRE_FORM = {
    "type": "DECLARATION",
    "declaration": BELIEFS,
    "sheriff_claims": MATRIX,
    "nomination_policy": {"5": 1.0},
}


def test_the_llm_form_parses_to_the_same_action_as_the_matrix_form() -> None:
    action = CHOICE.parse(LLM_FORM)
    assert action == CHOICE.parse(WIRE_FORM)
    assert action.to_dict() == WIRE_FORM  # what is logged and sent is the seed's form
    jsonschema.validate(LLM_FORM, CHOICE.llm_schema())


def test_the_llm_form_without_claims_or_nomination() -> None:
    quiet = {"type": "DECLARATION", "beliefs": {"3": -1}, "nomination": -1}
    action = CHOICE.parse(quiet)
    assert action.declaration == (0, 0, 0, -1, 0, 0, 0, 0, 0, 0)
    assert not any(map(any, action.sheriff_claims)) and action.nomination_policy == ()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"beliefs": {"0": 4}}, "within -3..3"),
        ({"beliefs": {"10": 1}}, "within 0..9"),
        ({"beliefs": [0] * 10}, "beliefs must be an object"),
        ({"claims": [{"night": 0, "player": 1, "team": "RED"}]}, "within 1..10"),
        ({"claims": [{"night": 1, "player": 1, "team": "GREEN"}]}, "RED or BLACK"),
        ({"claims": [{"night": 1, "player": 1}]}, "each claim is"),
        (
            {
                "claims": [
                    {"night": 1, "player": 1, "team": "RED"},
                    {"night": 1, "player": 1, "team": "BLACK"},
                ]
            },
            "both RED and BLACK",
        ),
        ({"declaration": [0] * 10}, "either 'declaration' or 'beliefs'"),
        ({"sheriff_claims": MATRIX}, "either 'sheriff_claims' or 'claims'"),
        ({"nomination": 4}, "cannot nominate 4"),
    ],
)
def test_parse_refuses_out_of_range_llm_forms(change: dict[str, Any], why: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        CHOICE.parse({**LLM_FORM, **change})
    assert why in refused.value.hint


def _leaves(schema: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    if "properties" in schema:
        for sub in schema["properties"].values():
            yield from _leaves(sub)
    elif "items" in schema:
        yield from _leaves(schema["items"])
    else:
        yield schema


def test_every_llm_value_is_an_enum_so_a_grammar_forbids_out_of_range_values() -> None:
    schema = CHOICE.llm_schema()
    assert all("enum" in leaf or "const" in leaf for leaf in _leaves(schema))
    validator = jsonschema.Draft202012Validator(schema)
    for change in (
        {"beliefs": {**LLM_FORM["beliefs"], "0": 4}},
        {"beliefs": {"0": 1}},  # every player is given a value
        {"claims": [{"night": 11, "player": 1, "team": "RED"}]},
        {"claims": [{"night": 1, "player": 1, "team": "red"}]},
        {"claims": [{"night": 1, "player": 1, "team": "RED", "note": "x"}] * 1},
        {"claims": [{"night": 1, "player": 1, "team": "RED"}] * 11},
        {"nomination": 4},
        {"sheriff_claims": MATRIX},
    ):
        assert not validator.is_valid({**LLM_FORM, **change}), change


def test_the_wire_form_and_its_strict_check_are_unchanged() -> None:
    wire = CHOICE.schema()
    assert set(wire["properties"]) == {
        "type",
        "declaration",
        "sheriff_claims",
        "nomination",
        "nomination_policy",
    }
    assert wire["required"] == ["type", "declaration"]
    jsonschema.validate(CHOICE.parse(LLM_FORM).to_dict(), wire)
    assert wire_form_error(WIRE_FORM, wire) is None
    error = wire_form_error(LLM_FORM, wire)  # a protocol client still sends the seed's form
    assert error is not None and "declaration" in error
    assert CHOICE.to_wire() == {
        "declaration": "vector_10",
        "sheriff_claims": "matrix_10x10",
        "nomination": [-1, 1, 2, 5],
    }


def test_llm_schema_is_the_wire_schema_where_a_view_has_no_llm_form() -> None:
    vote = TargetChoice("VOTING", "VOTE", "vote", (1, 3))
    assert llm_schema(vote) == vote.schema()
    assert llm_schema(EliminateAllChoice()) == EliminateAllChoice().schema()
    assert llm_schema(CHOICE) == CHOICE.llm_schema() != CHOICE.schema()
