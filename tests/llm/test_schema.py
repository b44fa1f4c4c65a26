"""Lenient JSON extraction, schema validation and schema-valid examples."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duskfall.llm.schema import NoJSON, example, extract_json, validate

TARGET = {
    "type": "object",
    "properties": {
        "type": {"const": "VOTE"},
        "target": {"type": "integer", "enum": [1, 4, 7]},
    },
    "required": ["type", "target"],
    "additionalProperties": False,
}
VOTE_YES_NO = {
    "type": "object",
    "properties": {"vote": {"type": "boolean"}},
    "required": ["vote"],
}


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        '```json\n{"a": 1}\n```',
        'Sure! Here it is: {"a": 1} Hope that helps.',
        '```\n{"a": 1}\n``` trailing',
        'noise {not json} then {"a": 1}',
    ],
)
def test_extract_json_is_lenient(text: str) -> None:
    assert extract_json(text) == {"a": 1}


def test_extract_json_without_object_raises() -> None:
    with pytest.raises(NoJSON):
        extract_json("I vote for player three")


def test_validate_accepts_and_explains() -> None:
    assert validate({"type": "VOTE", "target": 4}, TARGET) == []
    problems = validate({"type": "VOTE", "target": 5, "why": "x"}, TARGET)
    assert any("target" in p and "not one of" in p for p in problems)
    assert any("unexpected field 'why'" in p for p in problems)
    assert validate({"type": "VOTE"}, TARGET) == ["$: missing required field 'target'"]
    assert validate("VOTE 4", TARGET) == ['$: expected object, got "VOTE 4"']


def test_validate_numbers_strings_arrays_and_alternatives() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": -1, "maximum": 3},
            "s": {"type": "string", "maxLength": 3},
            "v": {"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 2},
            "c": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
        },
    }
    assert validate({"n": 3, "s": "abc", "v": [True, False], "c": None}, schema) == []
    bad = validate({"n": 4, "s": "abcd", "v": [True], "c": "x"}, schema)
    assert len(bad) == 4
    assert validate({"n": True}, schema) == ["$.n: expected integer, got true"]


def test_local_refs_resolve() -> None:
    schema = {
        "$defs": {"t": {"enum": [1, 2]}},
        "type": "object",
        "properties": {"t": {"$ref": "#/$defs/t"}},
    }
    assert validate({"t": 2}, schema) == []
    assert validate({"t": 3}, schema)


@given(st.integers(0, 10_000))
def test_examples_are_valid(seed: int) -> None:
    rng = random.Random(seed)
    schema = {
        "type": "object",
        "properties": {
            "think": {"type": "string", "maxLength": 5},
            "action": {
                "oneOf": [
                    TARGET,
                    {
                        "type": "object",
                        "properties": {"vote": {"type": "boolean"}},
                        "required": ["vote"],
                    },
                ]
            },
            "scores": {
                "type": "array",
                "items": {"type": "integer", "minimum": -3, "maximum": 3},
                "minItems": 10,
                "maxItems": 10,
            },
        },
        "required": ["think", "action", "scores"],
    }
    value = example(schema, rng)
    assert validate(value, schema) == []


def test_examples_are_deterministic() -> None:
    assert example(TARGET, random.Random(3)) == example(TARGET, random.Random(3))
