"""The client is told what happened: TIMEOUT and FALLBACK frames, numbered events, the events
missed while away, and a log that quotes the deadline the client was given."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from .support import (
    WAIT,
    Message,
    WireClient,
    autoplay,
    game_log,
    random_action,
    seat_clients,
    serving,
    wait_game_done,
)


async def until(condition: Callable[[], bool]) -> None:
    """Let the server run until ``condition`` holds (bounded)."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.001)


def event_numbers(messages: list[Message]) -> list[int]:
    return [m["seq"] for m in messages if m["type"] == "GAME_EVENT"]


async def test_a_timeout_names_the_request_and_the_action_played(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, deadline_ms=150, bench_after=0) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=3)
        late = clients[0]
        request = await late.request()
        timeout = await late.next("TIMEOUT")
        await late.answer(request, random_action(request, random.Random(0)))  # too late
        stale = await late.error()
        over = await late.play(random.Random(1))
        await asyncio.gather(*tasks)
        await wait_game_done(server)
    assert over is not None
    assert timeout["request_id"] == request["request_id"]
    assert timeout["phase"] == request["phase"] and timeout["deadline_ms"] == 150
    assert stale["code"] == "stale_request" and stale["request_id"] == request["request_id"]
    log = game_log(server, late.hello["game_id"])  # type: ignore[index]
    fallback = next(e for e in log.events if e.kind == "fallback")
    assert fallback.payload["seat"] == 0 and timeout["by"] == "fallback"
    assert timeout["action"] == fallback.payload["action"]
    # the log quotes the deadline the client was told, not the runtime's margin
    assert fallback.payload["reason"] == "no answer within 0.15s"
    timed_out = next(e for e in log.events if e.kind == "decision_timeout")
    assert timed_out.payload["timeout"] == 0.15


async def test_refusals_until_the_retries_run_out_end_in_a_fallback_frame(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, games=1, retries=1) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=5)
        wrong = clients[0]
        ids = []
        for _ in range(2):
            request = await wrong.request()
            ids.append(request["request_id"])
            await wrong.answer(request, {"type": "NOT_AN_ACTION"})
            assert (await wrong.error())["code"] == "invalid_action"
        told = await wrong.next("FALLBACK")
        over = await wrong.play(random.Random(2))
        await asyncio.gather(*tasks)
    assert over is not None
    assert told["request_id"] == ids[-1] and told["by"] == "fallback"
    assert "deadline_ms" not in told
    log = game_log(server, wrong.hello["game_id"])  # type: ignore[index]
    fallback = next(e for e in log.events if e.kind == "fallback")
    assert told["action"] == fallback.payload["action"]


async def test_each_seat_numbers_only_the_events_it_is_sent(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        clients = await seat_clients(server.port, 10)
        await asyncio.gather(*autoplay(clients, seed=7))
    counts = set()
    for client in clients:
        numbers = event_numbers(client.seen)
        assert numbers == list(range(1, len(numbers) + 1))  # no gap: nothing hidden is counted
        counts.add(len(numbers))
        over = client.seen[-1]
        assert over["event"] == "GAME_OVER" and over["seq"] == len(numbers)
    assert len(counts) > 1  # the checkers were sent their results, the others were not


async def test_a_reconnect_gets_the_events_after_its_last_number(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, reconnect_grace=30) as server:
        clients = await seat_clients(server.port, 10)
        tasks = autoplay(clients[1:], seed=6)
        first = clients[0]
        token = first.hello["token"]  # type: ignore[index]
        request = await first.request()
        before = event_numbers(first.seen)
        await first.close()
        back = await WireClient.open(server.port, wait_hello=False)
        acknowledged = before[-1] - 2  # as if the last two events had been lost in flight
        await back.send({"type": "HELLO", "token": token, "last_seq": acknowledged})
        await back.next("HELLO")
        again = await back.request()
        assert again["request_id"] == request["request_id"]
        await back.answer(again, random_action(again, random.Random(0)))
        over = await back.play(random.Random(1))
        await asyncio.gather(*tasks)
    assert over is not None
    numbers = event_numbers(back.seen)
    assert numbers == list(range(acknowledged + 1, acknowledged + 1 + len(numbers)))
    replayed = [m for m in back.seen if m["type"] == "GAME_EVENT" and m["seq"] <= before[-1]]
    originals = {m["seq"]: m for m in first.seen if m["type"] == "GAME_EVENT"}
    assert replayed == [originals[m["seq"]] for m in replayed]


async def test_without_a_number_a_reconnect_gets_what_arrived_while_away(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, games=1, reconnect_grace=30) as server:
        clients = await seat_clients(server.port, 10)
        first = clients[0]
        token = first.hello["token"]  # type: ignore[index]
        request = await first.request()
        await first.answer(request, random_action(request, random.Random(0)))
        await first.close()
        seat = next(iter(server.lobby.rooms.values())).seats[0]
        assert seat is not None
        await until(lambda: seat.link is None)  # the server saw the connection go
        delivered = seat.events.delivered  # handed to the connection before it went
        tasks = autoplay(clients[1:], seed=8)
        await until(lambda: seat.waiting)  # the game went on until seat 0's next decision
        missed = seat.events.last_seq - delivered
        back = await WireClient.open(server.port, wait_hello=False)
        await back.send({"type": "HELLO", "token": token})
        await back.next("HELLO")
        again = await back.request()
        await back.answer(again, random_action(again, random.Random(0)))
        over = await back.play(random.Random(1))
        await asyncio.gather(*tasks)
        await wait_game_done(server)
    assert over is not None and missed > 0
    numbers = event_numbers(back.seen)
    assert numbers == list(range(delivered + 1, delivered + 1 + len(numbers)))


async def test_the_asyncio_client_comes_back_by_itself(tmp_path: Path) -> None:
    from duskfall.client.agent import AgentClient, AgentPlayer

    async with serving(tmp_path, games=1, reconnect_grace=30) as server:
        ours = AgentClient("127.0.0.1", server.port, AgentPlayer("random", seed=1))
        await ours.connect()
        others = await seat_clients(server.port, 9)
        tasks = autoplay(others, seed=9)
        playing = asyncio.create_task(ours.run())
        await until(lambda: ours.session.last_seq is not None and ours.session.last_seq > 5)
        assert ours.writer is not None
        ours.writer.transport.abort()  # the network fails
        over = await asyncio.wait_for(playing, WAIT)
        await asyncio.gather(*tasks)
        await ours.close()
    assert over is not None and over.event == "GAME_OVER"
    log = game_log(server, ours.session.game_id or "")
    assert not [e for e in log.events if e.kind in ("fallback", "seat_stand_in")]
