"""Every refusal path: each gets an ERROR with the seed's message and a code; the game goes on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from duskfall.protocol import HEADER_SIZE

from .support import WireClient, autoplay, game_log, random_action, seat_clients, serving

GOOD_DECLARATION = {"type": "DECLARATION", "declaration": [0] * 10}


async def _table(port: int) -> tuple[WireClient, WireClient, list[asyncio.Task[object]]]:
    """Seats 0 and 1 controlled by the test, seats 2-9 answered at random in the background."""
    clients = await seat_clients(port, 10)
    return clients[0], clients[1], list(autoplay(clients[2:], seed=5))


async def _finish(a: WireClient, b: WireClient, others: list[asyncio.Task[object]]) -> None:
    results = await asyncio.gather(a.play(random.Random(1)), b.play(random.Random(2)), *others)
    assert all(r is not None for r in results), "the game did not reach GAME_OVER for everyone"


async def test_refused_answers_get_errors_and_the_seat_is_asked_again(tmp_path: Path) -> None:
    async with serving(tmp_path, retries=10, games=1) as server:
        a, b, others = await _table(server.port)
        request = await a.request()
        assert request["phase"] == "DECLARATION" and request["player_id"] == 0
        rid = request["request_id"]
        # not your turn: seat 1 answers while seat 0 is being asked
        await b.answer({"player_id": 1}, GOOD_DECLARATION)
        error = await b.error()
        assert (error["message"], error["code"]) == ("Not your turn", "not_your_turn")

        cases = [
            (lambda: a.answer(request, {"type": "VOTE", "target": 3}), "invalid_action"),
            (
                lambda: a.answer(request, {**GOOD_DECLARATION, "nomination_policy": {"0": 1}}),
                "invalid_target",
            ),
            (
                lambda: a.answer(request, {"type": "DECLARATION", "declaration": [9] * 10}),
                "bad_format",
            ),
            (lambda: a.send_payload(b"{oops"), "bad_json"),
            (lambda: a.send_payload(b"\xc3\x28"), "bad_utf8"),
            (lambda: a.send_payload(b"[]"), "bad_message"),
            (lambda: a.send({"type": "ACTION_RESPONSE", "action": "VOTE 3"}), "bad_message"),
            (lambda: a.send({"type": "SHOUT", "action": {}}), "unknown_type"),
        ]
        messages = {
            "invalid_action": "Invalid action",
            "invalid_target": "Invalid target",
            "bad_format": "Invalid action",
            "bad_json": "Invalid message",
            "bad_utf8": "Invalid message",
            "bad_message": "Invalid message",
            "unknown_type": "Unknown message type",
        }
        for send, code in cases:
            await send()
            error = await a.error()
            assert error["code"] == code, error
            assert error["message"] == messages[code]
            assert error["detail"]
            assert error["request_id"] == rid
            again = await a.request()  # asked again, with a fresh request id
            assert again["phase"] == "DECLARATION" and again["request_id"] > rid
            request, rid = again, again["request_id"]

        # a stale request id is refused, the open request stays open
        await a.answer(request, GOOD_DECLARATION, request_id=rid - 1)
        error = await a.error()
        assert error["code"] == "stale_request"
        # the seat is the connection's, whatever player_id says
        await a.answer({**request, "player_id": 7}, GOOD_DECLARATION)
        turn = await b.request()  # seat 1 speaks next: seat 0's answer was taken
        assert turn["phase"] == "DECLARATION"
        await b.answer(turn, random_action(turn, random.Random(0)))
        await _finish(a, b, others)
    log = game_log(server, a.hello["game_id"])  # type: ignore[index]
    first = next(e for e in log.events if e.kind == "action")
    assert first.payload["seat"] == 0 and first.payload["by"] == "agent"
    refusals = [e for e in log.events if e.kind in ("invalid_action", "participant_error")]
    assert len(refusals) == len(cases)


async def test_after_the_retries_the_fallback_plays_and_the_game_goes_on(tmp_path: Path) -> None:
    async with serving(tmp_path, retries=1, games=1) as server:
        a, b, others = await _table(server.port)
        for _ in range(2):
            request = await a.request()
            await a.answer(request, {"type": "KILL", "target": 1})
            assert (await a.error())["code"] == "invalid_action"
        turn = await b.request()  # seat 0 got the fallback; seat 1 is next
        await b.answer(turn, random_action(turn, random.Random(0)))
        await _finish(a, b, others)
    log = game_log(server, a.hello["game_id"])  # type: ignore[index]
    fallback = next(e for e in log.events if e.kind == "fallback")
    assert fallback.payload["seat"] == 0


async def test_oversized_frame_is_refused_before_its_body(tmp_path: Path) -> None:
    async with serving(tmp_path, max_frame=1000) as server:
        client = await WireClient.open(server.port)
        await client.send_raw((1001).to_bytes(HEADER_SIZE, "big"))  # the header only
        error = await client.error()
        assert error["code"] == "frame_too_large" and error["message"] == "Frame too large"
        assert await client.closed_after() == []
        second = await WireClient.open(server.port)  # the server is fine
        await second.send_raw((2**63).to_bytes(HEADER_SIZE, "big"))
        assert (await second.error())["code"] == "frame_too_large"


async def test_a_frame_must_complete_within_the_read_deadline(tmp_path: Path) -> None:
    async with serving(tmp_path, read_timeout=0.3) as server:
        client = await WireClient.open(server.port)
        await client.send_raw(b"\x00\x00\x00")  # a header that never completes
        error = await client.error()
        assert error["code"] == "read_timeout"
        assert await client.closed_after() == []


def vote_out_seat_0(request: dict[str, object]) -> dict[str, object] | None:
    """Everyone nominates and votes for seat 0 on day 1."""
    valid = request["valid_actions"]
    assert isinstance(valid, dict)
    if "nomination" in valid and 0 in valid["nomination"]:
        return {**GOOD_DECLARATION, "nomination_policy": {"0": 1}}
    if 0 in valid.get("vote", []):
        return {"type": "VOTE", "target": 0}
    return None


async def test_a_dead_player_is_told_so(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=9, policy=vote_out_seat_0)
        victim = clients[0]
        while True:
            message = await victim.next()
            if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                await victim.answer(message, random_action(message, random.Random(4)))
            elif message.get("event") == "PLAYER_ELIMINATED":
                assert message["player_id"] == 0
                break
        await victim.answer({"player_id": 0}, {"type": "VOTE", "target": 1})
        error = await victim.error()
        assert (error["code"], error["message"]) == ("player_dead", "Player is dead")
        assert await victim.play(random.Random(0)) is not None
        await asyncio.gather(*tasks)


async def test_bad_token_and_full_server(tmp_path: Path) -> None:
    async with serving(tmp_path, max_connections=2) as server:
        first = await WireClient.open(server.port)
        await first.send({"type": "HELLO", "token": "not-a-token"})
        error = await first.error()
        assert error["code"] == "bad_token"
        second = await WireClient.open(server.port)
        third = await WireClient.open(server.port, wait_hello=False)
        assert (await third.error())["code"] == "server_full"
        assert await third.closed_after() == []
        await second.close()
