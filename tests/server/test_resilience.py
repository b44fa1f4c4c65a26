"""Slow, silent, departing and returning clients, and hostile neighbours: the game goes on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from duskfall.protocol import encode_message

from .support import (
    WireClient,
    autoplay,
    game_log,
    random_action,
    seat_clients,
    serving,
    wait_game_done,
)


async def test_slow_client_dribbling_bytes_within_the_deadlines(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, read_timeout=5.0) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=2)
        slow = clients[0]
        rng = random.Random(0)
        answered = 0
        while (message := await slow.recv()) is not None:
            if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                reply = {
                    "type": "ACTION_RESPONSE",
                    "player_id": 0,
                    "action": random_action(message, rng),
                    "request_id": message["request_id"],
                }
                frame = encode_message(reply)
                for i in range(0, len(frame), 7):  # the frame arrives in small pieces, slowly
                    await slow.send_raw(frame[i : i + 7])
                    await asyncio.sleep(0.002)
                answered += 1
            elif message.get("event") == "GAME_OVER":
                break
        await asyncio.gather(*tasks)
    log = game_log(server, slow.hello["game_id"])  # type: ignore[index]
    assert answered > 0
    assert not [e for e in log.events if e.kind in ("fallback", "invalid_action")]


@pytest.mark.slow
async def test_silent_client_gets_the_fallback_after_its_deadline(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, deadline_ms=2000) as server:
        clients = await seat_clients(server.port, 10)
        silent = clients[0]
        results = await asyncio.gather(silent.closed_after(), *autoplay(clients[1:], seed=3))
        await wait_game_done(server)
    assert results[0][-1]["event"] == "GAME_OVER"
    requests = [m for m in results[0] if m["type"] == "ACTION_REQUEST" and m["valid_actions"]]
    assert all(r["deadline_ms"] == 2000 for r in requests)
    log = game_log(server, silent.hello["game_id"])  # type: ignore[index]
    fallbacks = [e for e in log.events if e.kind == "fallback"]
    assert {e.payload["seat"] for e in fallbacks} == {0}
    # two timeouts in a row: told so, then the stand-in plays at once (no more requests)
    assert len(fallbacks) == len(requests) == 2
    benched = [m for m in results[0] if m["type"] == "ERROR"]
    assert [m["code"] for m in benched] == ["stand_in"]
    stand_ins = [e for e in log.events if e.kind == "seat_stand_in"]
    assert stand_ins and all(e.payload["reason"] == "benched" for e in stand_ins)
    assert len([e for e in log.events if e.kind == "decision_timeout"]) == 2


async def test_silent_client_played_by_a_bot_when_configured(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, deadline_ms=2000, stand_in="bot") as server:
        clients = await seat_clients(server.port, 10)
        await asyncio.gather(clients[0].closed_after(), *autoplay(clients[1:], seed=3))
    log = game_log(server, clients[0].hello["game_id"])  # type: ignore[index]
    stand_ins = [e for e in log.events if e.kind == "seat_stand_in"]
    reasons = [e.payload.pop("reason") for e in stand_ins]
    assert reasons[:2] == ["timeout", "timeout"] and set(reasons[2:]) == {"benched"}
    assert all(e.payload == {"seat": 0, "by": "random"} for e in stand_ins)
    assert not [e for e in log.events if e.kind == "fallback"]


async def test_client_disconnecting_mid_game_is_replaced(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, reconnect_grace=0) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=4)
        leaver = clients[0]
        await leaver.request()
        await leaver.close()  # mid-decision
        results = await asyncio.gather(*tasks)
        await wait_game_done(server)
    assert all(r is not None for r in results)
    log = game_log(server, leaver.hello["game_id"])  # type: ignore[index]
    replaced = [e for e in log.events if e.kind == "seat_stand_in"]
    assert replaced and all(e.payload["reason"] == "disconnected" for e in replaced)
    assert replaced[0].payload["seat"] == 0


async def test_client_reconnects_to_its_seat_with_its_token(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, reconnect_grace=30) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=6)
        first = clients[0]
        token = first.hello["token"]  # type: ignore[index]
        request = await first.request()
        await first.close()
        back = await WireClient.open(server.port, wait_hello=False)  # no game has a free seat
        await back.send({"type": "HELLO", "token": token, "name": "phoenix"})
        hello = await back.next("HELLO")
        assert hello["reconnected"] is True and hello["player_id"] == 0
        assert hello["game_id"] == first.hello["game_id"]  # type: ignore[index]
        again = await back.request()  # the open request is sent again
        assert again["request_id"] == request["request_id"]
        await back.answer(again, random_action(again, random.Random(0)))
        over = await back.play(random.Random(1))
        assert over is not None
        await asyncio.gather(*tasks)
    log = game_log(server, hello["game_id"])
    assert not [e for e in log.events if e.kind in ("fallback", "seat_stand_in")]
    assert log.header.roster[0]["agent"] == "remote"


async def test_reconnect_from_a_fresh_seat_frees_it(tmp_path: Path) -> None:
    async with serving(tmp_path, games=2, reconnect_grace=30) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=8)
        token = clients[0].hello["token"]  # type: ignore[index]
        await clients[0].request()
        await clients[0].close()
        back = await WireClient.open(server.port)  # seated in the second game first
        assert back.hello["game_id"] != clients[0].hello["game_id"]  # type: ignore[index]
        await back.send({"type": "HELLO", "token": token})
        hello = await back.next("HELLO")
        assert hello["reconnected"] and hello["game_id"] == clients[0].hello["game_id"]  # type: ignore[index]
        assert await back.play(random.Random(2)) is not None
        await asyncio.gather(*tasks)
        room = server.lobby.open_room
        assert room is not None and room.occupied == 0 and not room.started


async def test_a_reconnect_goes_straight_to_its_seat_and_sees_one_hello(tmp_path: Path) -> None:
    async with serving(tmp_path, games=2, reconnect_grace=30) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=9)
        token = clients[0].hello["token"]  # type: ignore[index]
        await clients[0].request()
        await clients[0].close()
        back = await WireClient.open(server.port, wait_hello=False)  # a free seat is open
        await back.send({"type": "HELLO", "token": token})
        hello = await back.next("HELLO")
        assert hello["reconnected"] and hello["game_id"] == clients[0].hello["game_id"]  # type: ignore[index]
        assert await back.play(random.Random(3)) is not None
        await asyncio.gather(*tasks)
        assert [m for m in back.seen if m["type"] == "HELLO"] == [hello]
        room = server.lobby.open_room
        assert room is None or (room.occupied == 0 and not room.started)


async def test_hostile_neighbours_do_not_disturb_a_game(tmp_path: Path) -> None:
    async with serving(tmp_path, games=2, max_frame=4096, read_timeout=0.5) as server:
        players = await seat_clients(server.port, 10)
        tasks = autoplay(players, seed=7)
        attackers = [await WireClient.open(server.port) for _ in range(5)]
        for i, attacker in enumerate(attackers):
            for j in range(40):
                await attacker.send_payload(bytes([(i * 40 + j) % 256]) * (j + 1))
            await attacker.send({"type": "ACTION_RESPONSE", "action": {"type": "KILL"}})
        await attackers[0].send_raw((10**9).to_bytes(8, "big"))
        await attackers[1].send_raw(b"\x00\x00")
        results = await asyncio.gather(*tasks)
        assert all(r is not None for r in results)
        assert await attackers[0].next("ERROR", where=lambda m: m["code"] == "frame_too_large")
        assert await attackers[1].next("ERROR", where=lambda m: m["code"] == "read_timeout")
