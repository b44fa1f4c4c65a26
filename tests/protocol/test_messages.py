"""Message validation: the one gate every client frame passes, and the server's messages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.protocol import (
    ActionRequest,
    ActionResponse,
    ClientHello,
    ErrorCode,
    ErrorMessage,
    GameEvent,
    ProtocolError,
    ServerHello,
    error_message,
    parse_client_message,
    parse_server_message,
)


def _bytes(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def test_seed_action_response_parses() -> None:
    message = parse_client_message(
        _bytes({"type": "ACTION_RESPONSE", "player_id": 0, "action": {"type": "VOTE", "target": 3}})
    )
    assert isinstance(message, ActionResponse)
    assert message.action == {"type": "VOTE", "target": 3}
    assert message.request_id is None


def test_extensions_parse() -> None:
    response = parse_client_message(
        _bytes({"type": "ACTION_RESPONSE", "action": {}, "request_id": 7, "player_id": 3})
    )
    assert isinstance(response, ActionResponse) and response.request_id == 7
    hello = parse_client_message(_bytes({"type": "HELLO", "token": "abc", "name": "bob"}))
    assert isinstance(hello, ClientHello) and hello.token == "abc" and hello.name == "bob"


@pytest.mark.parametrize(
    ("message", "misspelt", "meant"),
    [
        ({"type": "ACTION_RESPONSE", "action": {}}, "reqest_id", "request_id"),
        ({"type": "ACTION_RESPONSE", "action": {}}, "playerid", "player_id"),
        ({"type": "ACTION_RESPONSE", "action": {}}, "actoin", "action"),
        ({"type": "HELLO"}, "tokn", "token"),
        ({"type": "HELLO"}, "last_sq", "last_seq"),
        ({"type": "HELLO"}, "nmae", "name"),
        ({"type": "HELLO"}, "state_update", "state_updates"),
        ({"type": "HELLO"}, "password", None),
    ],
)
def test_a_misspelt_top_level_field_is_refused_by_name(
    message: dict[str, object], misspelt: str, meant: str | None
) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(_bytes({**message, misspelt: 1}))
    assert caught.value.code is ErrorCode.BAD_MESSAGE
    assert repr(misspelt) in str(caught.value)
    if meant is not None:
        assert f"did you mean {meant!r}" in str(caught.value)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"\xff\xfe", ErrorCode.BAD_UTF8),
        (b"{not json", ErrorCode.BAD_JSON),
        (b"", ErrorCode.BAD_JSON),
        (b"[1, 2]", ErrorCode.BAD_MESSAGE),
        (b'"ACTION_RESPONSE"', ErrorCode.BAD_MESSAGE),
        (_bytes({"action": {}}), ErrorCode.UNKNOWN_TYPE),
        (_bytes({"type": "ACTION_REQUEST"}), ErrorCode.UNKNOWN_TYPE),
        (_bytes({"type": ["ACTION_RESPONSE"]}), ErrorCode.UNKNOWN_TYPE),
        (_bytes({"type": "ACTION_RESPONSE"}), ErrorCode.BAD_MESSAGE),
        (_bytes({"type": "ACTION_RESPONSE", "action": 3}), ErrorCode.BAD_MESSAGE),
        (
            _bytes({"type": "ACTION_RESPONSE", "action": {}, "request_id": "7"}),
            ErrorCode.BAD_MESSAGE,
        ),
        (_bytes({"type": "HELLO", "token": 5}), ErrorCode.BAD_MESSAGE),
        (_bytes({"type": "HELLO", "name": "x" * 1000}), ErrorCode.BAD_MESSAGE),
        (b"[" * 100_000 + b"]" * 100_000, ErrorCode.BAD_JSON),
        (
            b'{"type": "ACTION_RESPONSE", "action": {"target": ' + b"9" * 5000 + b"}}",
            ErrorCode.BAD_JSON,
        ),
    ],
)
def test_bad_frames_get_a_specific_code(payload: bytes, code: ErrorCode) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(payload)
    assert info.value.code is code
    assert info.value.detail


def test_error_message_keeps_the_seed_wording() -> None:
    assert error_message(ErrorCode.NOT_YOUR_TURN) == {
        "type": "ERROR",
        "message": "Not your turn",
        "code": "not_your_turn",
    }
    assert error_message(ErrorCode.INVALID_TARGET, "9 is dead", request_id=3)["message"] == (
        "Invalid target"
    )
    assert error_message(ErrorCode.INVALID_ACTION)["message"] == "Invalid action"


def test_server_messages_round_trip() -> None:
    request = ActionRequest(
        player_id=0, phase="VOTING", valid_actions={"vote": [1, 2]}, observation={"turn": 0}
    )
    wire = request.to_wire()
    assert wire == {
        "type": "ACTION_REQUEST",
        "player_id": 0,
        "phase": "VOTING",
        "valid_actions": {"vote": [1, 2]},
        "observation": {"turn": 0},
    }
    assert parse_server_message(wire) == request
    event = parse_server_message(
        {"type": "GAME_EVENT", "event": "PLAYER_ELIMINATED", "player_id": 3}
    )
    assert isinstance(event, GameEvent) and event.payload == {"player_id": 3}
    error = parse_server_message({"type": "ERROR", "message": "Not your turn"})
    assert isinstance(error, ErrorMessage) and error.code is None
    hello = ServerHello(player_id=1, game_id="g", variant="sports-mafia", num_players=10, token="t")
    assert parse_server_message(hello.to_wire()) == hello
    assert not ActionRequest(player_id=0, phase="X", valid_actions={}, observation={}).needs_answer


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=500))
def test_fuzz_bytes_are_a_message_or_a_protocol_error(payload: bytes) -> None:
    try:
        message = parse_client_message(payload)
    except ProtocolError as exc:
        assert isinstance(exc.code, ErrorCode) and exc.message
    else:
        assert isinstance(message, ActionResponse | ClientHello)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["ACTION_RESPONSE", "HELLO", "ERROR"]) | json_values,
            "action": json_values,
            "player_id": json_values,
            "request_id": json_values,
            "token": json_values,
            "name": json_values,
        },
    )
)
def test_fuzz_json_objects_are_a_message_or_a_protocol_error(data: dict[str, Any]) -> None:
    try:
        message = parse_client_message(_bytes(data))
    except ProtocolError as exc:
        assert exc.code in ErrorCode
        return
    if isinstance(message, ActionResponse):
        assert isinstance(message.action, dict)
        assert message.request_id is None or type(message.request_id) is int
    else:
        assert message.token is None or isinstance(message.token, str)
