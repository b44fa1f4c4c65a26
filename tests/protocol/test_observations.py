"""Request frames encoded field by field are the bytes ``encode_message`` gives."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.protocol.framing import encode_message
from duskfall.protocol.messages import ActionRequest, action_request
from duskfall.protocol.observations import ObservationFrames, SharedFields

VARIANT = get_variant("sports-mafia")


def played_state(steps: int) -> Any:
    state = VARIANT.new_game(parse_config(VARIANT, {}), 7)
    rng = random.Random(7)
    for _ in range(steps):
        decision = state.pending()[0]
        state.apply(decision.seat, state.legal(decision.seat).sample(rng))
    return state


def test_action_request_is_the_model_without_the_model() -> None:
    plain = action_request(3, "VOTING", {"vote": [1, 2]}, {"a": 1}, request_id=4, game_id="g")
    model = ActionRequest(
        player_id=3,
        phase="VOTING",
        valid_actions={"vote": [1, 2]},
        observation={"a": 1},
        request_id=4,
        game_id="g",
    )
    assert plain == model.to_wire() and list(plain) == list(model.to_wire())


def test_frames_equal_encode_message_for_every_seat_and_step() -> None:
    frames = ObservationFrames()
    for steps in (0, 12, 25):
        state = played_state(steps)
        for seat in range(10):
            message = action_request(seat, state.phase, {}, dict(state.observe(seat)), game_id="g")
            assert frames.frame(message) == encode_message(message)


def test_an_equal_value_of_another_json_type_is_encoded_again() -> None:
    frames = ObservationFrames()
    for value in (1, True, 1.0, [1, 0], [True, False], {"x": 1}, {"x": True}, "é"):
        message = action_request(0, "X", {}, {"field": value, "other": [value]})
        assert frames.frame(message) == encode_message(message)


def test_only_string_keys_are_split_into_fields() -> None:
    frames = ObservationFrames()
    message = action_request(0, "X", {}, {1: "one"})  # type: ignore[dict-item]
    assert frames.fields(message["observation"]) is None
    assert frames.frame(message) == encode_message(message)


def test_the_items_of_a_large_list_are_cached_exactly() -> None:
    frames = ObservationFrames()
    rows: list[Any] = [[1] * 60, [0] * 60, ["a"] * 60]
    for changed in ([True] * 60, [1.0] * 60, [1] * 60, {"x": [1] * 60}):
        rows = [changed, *rows[1:]]
        message = action_request(0, "X", {}, {"table": rows, "same": rows})
        assert frames.frame(message) == encode_message(message)


def rounds_of_fields(
    frames: ObservationFrames,
) -> Iterator[tuple[Any, int, dict[str, Any], Any, SharedFields]]:
    """Every seat's observation at a few points of a game, with its fields encoded as a round
    of seats does (``shared`` between the seats of one point): (state, seat, observation,
    fields, shared)."""
    for steps in (0, 12, 25, 40):
        state = played_state(steps)
        shared: SharedFields = {}
        for seat in range(10):
            observation = dict(state.observe(seat))
            yield state, seat, observation, frames.fields(observation, shared), shared


def test_a_round_of_seats_sharing_their_table_gives_the_same_frames() -> None:
    frames = ObservationFrames()
    for state, seat, observation, fields, shared in rounds_of_fields(frames):
        message = action_request(seat, state.phase, {}, observation, game_id="g")
        assert frames.frame(message, fields) == encode_message(message)
        # the public table is one object for the round: encoded once, then found by identity
        assert any(name == "players" for name, _ in shared)


def test_a_value_equal_but_not_identical_is_not_taken_from_the_round() -> None:
    frames = ObservationFrames()
    shared: SharedFields = {}
    first = [1, 0]
    frames.fields({"flags": first}, shared)
    fields = frames.fields({"flags": [True, False]}, shared)
    assert fields is not None and fields["flags"].text == '"flags":[true,false]'


def test_values_are_reused_by_identity_only_until_the_state_changes() -> None:
    frames = ObservationFrames()
    assert frames.unchanged is None  # nobody follows the state: nothing is reused
    frames.follow_state()
    table = [1, 2]
    assert frames.unchanged is not None
    frames.fields({"table": table}, frames.unchanged)
    table.append(3)  # only ever done by a state change, which is announced first:
    frames.state_changed()
    fields = frames.fields({"table": table}, frames.unchanged)
    assert fields is not None and fields["table"].text == '"table":[1,2,3]'


def test_state_update_frames_are_the_messages_bytes() -> None:
    frames = ObservationFrames()
    for state, seat, observation, fields, _ in rounds_of_fields(frames):
        assert fields is not None
        for game_id, partial in (("g", False), ('é"1', True), (None, False), (None, True)):
            message = action_request(
                seat, state.phase, {}, observation, game_id=game_id, partial=partial or None
            )
            assert frames.state_update(
                seat, state.phase, fields, game_id, partial=partial
            ) == encode_message(message)


def test_a_small_value_seen_again_is_the_same_field_only_if_its_json_is() -> None:
    frames = ObservationFrames()
    first = frames.fields({"role": "RED", "flags": [1, 0], "n": 1})
    again = frames.fields({"role": "RED", "flags": [True, False], "n": True})
    assert first is not None and again is not None
    assert again["role"] is first["role"]  # kept: one field for every seat holding it
    assert again["flags"].text == '"flags":[true,false]' and again["n"].text == '"n":true'
