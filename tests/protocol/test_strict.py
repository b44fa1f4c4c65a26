"""The strict wire form: exact ``type``, JSON types as documented; values left to the rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.protocol import ErrorCode, ProtocolError, decode_json_object
from duskfall.protocol.strict import _action_types, _compiled, _error, wire_form_error
from duskfall.variants.mafia.legal import SayChoice
from duskfall.variants.mafia.legal import TargetChoice as MafiaTarget
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.werewolf.legal import SpeechChoice, WitchChoice, YesNoChoice

VOTE = TargetChoice("VOTING", "VOTE", "vote", (1, 3, 5))
NAMES = ("Ada", "Bram", "Cleo", "Dax")


@pytest.mark.parametrize(
    ("action", "why"),
    [
        ({"target": 3}, 'needs its "type" ("VOTE")'),
        ({"type": "vote", "target": 3}, 'type must be one of "VOTE"'),
        ({"type": "VOTE", "target": "3"}, "target must be"),
        ({"type": "VOTE", "target": 3.0}, "target must be"),
        ({"type": "VOTE", "target": True}, "target must be"),
        ({"type": "VOTE"}, "needs its 'target' field"),
        ("VOTE 3", "an action is a JSON object"),
    ],
)
def test_the_reference_tolerances_are_refused(action: object, why: str) -> None:
    error = wire_form_error(action, VOTE.schema())
    assert error is not None and why in error


def test_values_and_other_action_types_are_left_to_the_rules() -> None:
    assert wire_form_error({"type": "VOTE", "target": 3}, VOTE.schema()) is None
    assert wire_form_error({"type": "VOTE", "target": 99}, VOTE.schema()) is None  # invalid_target
    assert wire_form_error({"type": "KILL", "target": 3}, VOTE.schema()) is None  # invalid_action
    assert wire_form_error({"type": "VOTE", "target": 3, "note": "x"}, VOTE.schema()) is None


def test_booleans_and_declarations() -> None:
    schema = EliminateAllChoice().schema()
    assert wire_form_error({"type": "ELIMINATE_ALL_VOTE", "vote": True}, schema) is None
    error = wire_form_error({"type": "ELIMINATE_ALL_VOTE", "vote": "yes"}, schema)
    assert error is not None and "vote must be boolean" in error
    declaration = DeclarationChoice((1, 2)).schema()
    good = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_policy": {"1": 1}}
    assert wire_form_error(good, declaration) is None
    assert wire_form_error({**good, "nomination_policy": {"1": "1"}}, declaration)
    assert wire_form_error({**good, "declaration": ["0"] * 10}, declaration)


def test_werewolf_and_mafia_forms() -> None:
    witch = WitchChoice(2, True, (1, 3), NAMES).schema()
    assert wire_form_error({"type": "WITCH", "potion": "PASS"}, witch) is None
    assert wire_form_error({"type": "WITCH", "potion": "POISON", "target": 3}, witch) is None
    assert wire_form_error({"type": "WITCH", "potion": "save"}, witch)
    assert wire_form_error({"type": "WITCH", "potion": "POISON", "target": "3"}, witch)
    run = YesNoChoice("BADGE_RUN", "Run?").schema()
    assert wire_form_error({"type": "BADGE_RUN", "run": "yes"}, run)
    speech = SpeechChoice("BADGE_SPEECH", 50, "Speak.").schema()
    assert wire_form_error({"type": "BADGE_SPEECH", "says": "  long  " * 40}, speech) is None
    assert wire_form_error({"type": "SPEECH", "says": "hi"}, speech) is None  # invalid_action
    kill = MafiaTarget("MAFIA_VOTE", "KILL", (1, 2), NAMES, "PASS").schema()
    assert wire_form_error({"type": "KILL", "target": 1}, kill) is None
    assert wire_form_error({"type": "KILL", "target": "Bram"}, kill) is None  # names are documented
    assert wire_form_error({"type": "PASS", "target": None}, kill) is None
    assert wire_form_error({"target": 1}, kill)
    assert wire_form_error({"type": "KILL", "target": "2"}, kill)
    say = SayChoice("DAY_DISCUSSION", (1, 2), NAMES, 100).schema()
    assert wire_form_error({"type": "SAY", "says": "hello"}, say) is None
    assert wire_form_error({"type": "SAY", "says": 7}, say)


@pytest.mark.parametrize(
    "text", ['{"w": NaN}', '{"w": Infinity}', '{"w": -Infinity}', '{"w": 1e999}']
)
def test_non_finite_numbers_are_refused_at_decode_time(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_json_object(text.encode())
    assert caught.value.code is ErrorCode.BAD_FORMAT
    assert "finite" in caught.value.detail


ROW = [0] * 10
# (schema, an action in its form): the property test changes one part of the action
CASES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (VOTE.schema(), {"type": "VOTE", "target": 3}),
    (EliminateAllChoice().schema(), {"type": "ELIMINATE_ALL_VOTE", "vote": True}),
    (
        DeclarationChoice((1, 2)).schema(),
        {
            "type": "DECLARATION",
            "declaration": ROW,
            "sheriff_claims": [ROW] * 10,
            "nomination": 1,
            "nomination_policy": {"1": 0.5, "-1": 1},
        },
    ),
    (
        WitchChoice(2, True, (1, 3), NAMES).schema(),
        {"type": "WITCH", "potion": "POISON", "target": 3},
    ),
    (YesNoChoice("BADGE_RUN", "Run?").schema(), {"type": "BADGE_RUN", "run": False}),
    (SpeechChoice("BADGE_SPEECH", 50, "Speak.").schema(), {"type": "BADGE_SPEECH", "says": "hi"}),
    (
        MafiaTarget("MAFIA_VOTE", "KILL", (1, 2), NAMES, "PASS").schema(),
        {"type": "KILL", "target": "Bram"},
    ),
    (
        SayChoice("DAY_DISCUSSION", (1, 2), NAMES, 100).schema(),
        {"type": "SAY", "says": "x", "target": None, "claim": "DOCTOR"},
    ),
]
_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-4, 12),
        st.floats(-4, 4, allow_nan=False),
        st.sampled_from(["3", "PASS", "POISON", "KILL", "Bram", "DOCTOR", "yes", ""]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=11), st.dictionaries(st.sampled_from(["1", "-1", "x"]), inner)
    ),
    max_leaves=12,
)


def _change(value: Any, path: list[Any], new: Any) -> Any:
    """``value`` with the part at ``path`` replaced by ``new`` (a copy)."""
    if not path:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    head = path[0] % len(copy) if isinstance(copy, list) else path[0]
    copy[head] = _change(copy[head], path[1:], new)
    return copy


@st.composite
def _actions(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    schema, action = draw(st.sampled_from(CASES))
    name = draw(st.sampled_from([*action, "note"]))
    if draw(st.booleans()) and name in action:
        if draw(st.booleans()):
            return schema, {k: v for k, v in action.items() if k != name}
        part = action[name]
        path = [name]
        while isinstance(part, list | dict) and part and draw(st.booleans()):
            key = (
                draw(st.integers(0, 9))
                if isinstance(part, list)
                else draw(st.sampled_from(list(part)))
            )
            path.append(key)
            part = part[key % len(part)] if isinstance(part, list) else part[key]
        return schema, _change(action, path, draw(_VALUES))
    return schema, {**action, name: draw(_VALUES)}


@settings(max_examples=300, deadline=None)
@given(_actions())
def test_a_compiled_schema_accepts_exactly_what_the_walk_finds_nothing_in(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    schema, action = case
    compiled = _compiled(schema)
    assert compiled is not None
    assert compiled.types == _action_types(schema)
    assert compiled.accepts(action) == (_error(action, schema, "action") is None)


def test_a_compiled_schema_is_kept_by_its_exact_form() -> None:
    assert _compiled(VOTE.schema()) is _compiled(VOTE.schema())
    assert _compiled({"type": "integer", "enum": [1]}) is not _compiled({"enum": [True]})
    assert _compiled({"type": "object", "properties": {"x": object()}}) is None
