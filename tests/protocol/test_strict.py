"""The strict wire form: exact ``type``, JSON types as documented; values left to the rules."""

from __future__ import annotations

import pytest

from duskfall.protocol import ErrorCode, ProtocolError, decode_json_object
from duskfall.protocol.strict import wire_form_error
from duskfall.variants.mafia.legal import SayChoice
from duskfall.variants.mafia.legal import TargetChoice as MafiaTarget
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.werewolf.legal import SpeechChoice, YesNoChoice
from duskfall.variants.werewolf.witch import WitchChoice

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


def test_unknown_fields_are_refused_by_name() -> None:
    error = wire_form_error({"type": "VOTE", "target": 3, "note": "x"}, VOTE.schema())
    assert error == "action has an unknown field 'note' (its fields: 'type', 'target')"
    declaration = DeclarationChoice((1, 2)).schema()
    misspelt = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_polcy": {"1": 1}}
    error = wire_form_error(misspelt, declaration)
    assert error is not None and "unknown field 'nomination_polcy'" in error
    assert "'nomination_policy'" in error  # the right spelling is listed


def test_reasons_name_the_branch_the_action_chose() -> None:
    witch = WitchChoice(2, True, (1, 3), NAMES).schema()
    assert wire_form_error({"type": "WITCH", "potion": "POISON"}, witch) == (
        "action needs its 'target' field"
    )
    assert wire_form_error({"type": "WITCH", "potion": "ANTIDOTE"}, witch) == (
        "action needs its 'target' field"
    )
    error = wire_form_error({"type": "WITCH", "potion": "save"}, witch)
    assert error is not None and error.startswith('potion must be one of "PASS", "ANTIDOTE"')
    say = SayChoice("DAY_DISCUSSION", (1, 2), NAMES, 100).schema()
    error = wire_form_error({"type": "SAY", "says": "x", "claim": "villager"}, say)
    assert error == (
        'claim must be one of "MAFIA", "DOCTOR", "SHERIFF", "VIGILANTE", "VILLAGER" or null; '
        'got "villager"'
    )


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
    assert wire_form_error({"type": "BADGE_SPEECH", "says": "long " * 10}, speech) is None
    too_long = wire_form_error({"type": "BADGE_SPEECH", "says": "x" * 51}, speech)
    assert too_long == "says is 51 characters long; at most 50 are allowed"
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
