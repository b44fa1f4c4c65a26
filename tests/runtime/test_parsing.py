"""Lenient decoding of raw replies."""

import pytest

from duskfall.core.errors import IllegalAction
from duskfall.runtime.parsing import decode_reply


def test_envelope_with_fence_and_trailing_text() -> None:
    body = '{"think": "hm", "says": "I vote 3", "action": {"type": "VOTE", "target": 3}}'
    raw = f"Sure!\n```json\n{body}\n```\nbye"
    reply = decode_reply(raw)
    assert reply.action == {"type": "VOTE", "target": 3, "says": "I vote 3"}
    assert reply.think == "hm" and reply.says == "I vote 3"


def test_bare_object_with_trailing_text() -> None:
    reply = decode_reply('{"type": "KILL", "target": -1} because it is safer')
    assert reply.action == {"type": "KILL", "target": -1}


def test_raw_control_characters_inside_strings_are_kept() -> None:
    # llama.cpp grammars let a raw newline into a string; the reply means what it says
    raw = '{"reasoning": "seat 1 lied\n twice", "action": {"type": "VOTE", "target": 1}}'
    reply = decode_reply(raw)
    assert reply.think == "seat 1 lied\n twice"
    assert reply.action == {"type": "VOTE", "target": 1}
    assert decode_reply(f"ok {raw}").action == {"type": "VOTE", "target": 1}


def test_bare_choice_and_objects_pass_through() -> None:
    assert decode_reply(" 7 ").action == "7"
    sentinel = object()
    assert decode_reply(sentinel).action is sentinel
    assert decode_reply({"action": 5}).action == 5


@pytest.mark.parametrize("raw", ["", "   ", "{not json", "{'single': 'quotes'}"])
def test_junk_is_refused_with_a_hint(raw: str) -> None:
    with pytest.raises(IllegalAction) as error:
        decode_reply(raw)
    assert error.value.code == "bad_format" and error.value.hint
