"""Whole games over real loopback sockets: seating, rooms, events, isolation, logging."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from duskfall.store.replay import replay

from .support import (
    WireClient,
    autoplay,
    game_log,
    seat_clients,
    serving,
    wait_game_done,
)

PRIVATE_EVENTS = {"SHERIFF_CHECK_RESULT": "SHERIFF", "DON_CHECK_RESULT": "DON"}


async def test_ten_clients_play_a_full_game_and_see_only_their_own(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        clients = await seat_clients(server.port, 10)
        assert [c.seat for c in clients] == list(range(10))
        game_id = clients[0].hello["game_id"]  # type: ignore[index]
        assert {c.hello["game_id"] for c in clients} == {game_id}  # type: ignore[index]
        overs = await asyncio.gather(*autoplay(clients))
        await wait_game_done(server)
    log = game_log(server, game_id)
    replay(log)  # the served game replays exactly
    outcome = log.outcome
    assert outcome is not None
    assert all(o is not None and o["winner"] == outcome.winner for o in overs)
    roles = next(e for e in log.events if e.kind == "ROLES_DEALT").payload["roles"]
    eliminated = [e.payload["player_id"] for e in log.events if e.kind == "PLAYER_ELIMINATED"]
    killed = [e.payload["player_id"] for e in log.events if e.kind == "PLAYER_KILLED"]
    for client in clients:
        seat, role = client.seat, roles[client.seat]
        events = [m for m in client.seen if m["type"] == "GAME_EVENT"]
        requests = [m for m in client.seen if m["type"] == "ACTION_REQUEST"]
        assert [m["player_id"] for m in events if m["event"] == "PLAYER_ELIMINATED"] == eliminated
        assert [m["player_id"] for m in events if m["event"] == "PLAYER_KILLED"] == killed
        assert events[-1]["event"] == "GAME_OVER"
        for kind, owner in PRIVATE_EVENTS.items():
            if role != owner:
                assert not [m for m in events if m["event"] == kind], (seat, kind)
        assert all(m["player_id"] == seat for m in requests)
        assert any(not m["valid_actions"] for m in requests), "no state update was sent"
        for request in requests:
            observation = request["observation"]
            assert observation["role"] == role
            known = observation["known_roles"]
            for other, known_role in known.items():
                if int(other) != seat and known_role != "UNKNOWN":
                    assert role in ("MAFIA", "DON") and known_role in ("MAFIA", "DON")
            if role != "SHERIFF":
                assert "sheriff_checks" not in observation["private_info"]
        assigned = [m for m in events if m["event"] == "ROLE_ASSIGNED"]
        assert [m["player_id"] for m in assigned] == [seat]
    checks = [e for e in log.events if e.kind == "SHERIFF_CHECK_RESULT"]
    sheriff = roles.index("SHERIFF")
    sheriff_events = [m for m in clients[sheriff].seen if m.get("event") == "SHERIFF_CHECK_RESULT"]
    assert len(sheriff_events) == len(checks)


async def test_many_games_at_once_on_one_port(tmp_path: Path) -> None:
    async with serving(tmp_path, games=3) as server:
        clients = await seat_clients(server.port, 30)
        overs = await asyncio.gather(*autoplay(clients))
        await wait_game_done(server, 3)
    assert all(o is not None for o in overs)
    game_ids = {c.hello["game_id"] for c in clients}  # type: ignore[index]
    assert len(game_ids) == 3
    for game_id in game_ids:
        assert sorted(c.seat for c in clients if c.hello["game_id"] == game_id) == list(range(10))  # type: ignore[index]
        replay(game_log(server, game_id))


async def test_fill_bots_after_starts_with_bots_in_empty_seats(tmp_path: Path) -> None:
    async with serving(tmp_path, fill_bots_after=0, games=1) as server:
        client = await WireClient.open(server.port)
        over = await client.play(random.Random(3))
        await wait_game_done(server)
    assert over is not None
    log = game_log(server, client.hello["game_id"])  # type: ignore[index]
    agents = (
        [r["agent"] for r in log.header["roster"]]
        if isinstance(log.header, dict)
        else [r["agent"] for r in log.header.roster]
    )
    assert agents[0].startswith("remote") and all(a == "random" for a in agents[1:])


async def test_games_limit_refuses_newcomers_and_stops(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, hello_timeout=0.2) as server:
        clients = await seat_clients(server.port, 10)
        late = await WireClient.open(server.port, wait_hello=False)
        error = await late.error()
        assert error["code"] == "shutting_down"
        assert await late.closed_after() == []
        tasks = autoplay(clients)
        await asyncio.wait_for(server.serve(), 30)
        assert all(r is not None for r in await asyncio.gather(*tasks))


async def test_client_leaving_before_the_start_frees_its_seat(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        first = await WireClient.open(server.port)
        await first.close()
        others = await seat_clients(server.port, 10)
        assert sorted(c.seat for c in others) == list(range(10))
        assert all(o is not None for o in await asyncio.gather(*autoplay(others)))
