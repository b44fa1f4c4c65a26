"""Hostile and broken clients: strict wire form, non-finite numbers, slowloris, oversized
frames, idle connections and silent seats."""

from __future__ import annotations

import asyncio
import json
import random
import socket
from pathlib import Path

from duskfall.client.agent import AgentClient, AgentPlayer
from duskfall.protocol import FrameDecoder, encode_frame

from .support import WAIT, WireClient, autoplay, game_log, random_action, seat_clients, serving

LENIENT_FORMS = [
    lambda t: {"target": t},  # no type
    lambda t: {"type": "vote", "target": t},
    lambda t: {"type": "VOTE", "target": str(t)},
    lambda t: {"type": "VOTE", "target": float(t)},
]


async def _vote_request(client: WireClient, rng: random.Random) -> dict[str, object]:
    """Play seat ``client`` at random until it is asked to VOTE."""
    while True:
        request = await client.request()
        if "vote" in request["valid_actions"]:
            return request
        await client.answer(request, random_action(request, rng))


async def test_strict_by_default_refuses_the_reference_tolerances(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, retries=10) as server:
        clients = await seat_clients(server.port, 10)
        others = autoplay(clients[1:], seed=7)
        me, rng = clients[0], random.Random(7)
        request = await _vote_request(me, rng)
        target = request["valid_actions"]["vote"][0]  # type: ignore[index]
        for form in LENIENT_FORMS:
            await me.answer(request, form(target))
            error = await me.error()
            assert (error["code"], error["message"]) == ("bad_format", "Invalid action")
            request = await me.request()
        await me.answer(request, {"type": "VOTE", "target": target})
        assert await me.play(rng) is not None
        assert all(await asyncio.gather(*others))


async def test_lenient_accepts_what_the_reference_server_accepted(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, strict=False) as server:
        clients = await seat_clients(server.port, 10)
        others = autoplay(clients[1:], seed=8)
        me, rng = clients[0], random.Random(8)
        request = await _vote_request(me, rng)
        target = request["valid_actions"]["vote"][0]  # type: ignore[index]
        await me.answer(request, {"type": "vote", "target": str(target)})
        assert await me.play(rng) is not None
        await asyncio.gather(*others)
    assert not [m for m in me.seen if m["type"] == "ERROR"]


async def test_nan_weights_are_refused_and_never_logged(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, retries=10) as server:
        clients = await seat_clients(server.port, 10)
        others = autoplay(clients[1:], seed=9)
        me = clients[0]
        request = await me.request()
        assert request["phase"] == "DECLARATION"
        for weight in (b"NaN", b"Infinity", b"-Infinity", b"1e999"):
            body = (
                b'{"type": "ACTION_RESPONSE", "request_id": %d, "action": {"type": '
                % (request["request_id"])
            )
            body += b'"DECLARATION", "declaration": [0,0,0,0,0,0,0,0,0,0], '
            body += b'"nomination_policy": {"1": ' + weight + b"}}}"
            await me.send_payload(body)
            error = await me.error()
            assert error["code"] == "bad_format" and "finite" in error["detail"]
            request = await me.request()
        await me.answer(request, random_action(request, random.Random(9)))
        assert await me.play(random.Random(9)) is not None
        await asyncio.gather(*others)
    path = server.settings.log_dir / f"{me.hello['game_id']}.jsonl"  # type: ignore[operator,index]
    for line in path.read_text().splitlines():
        json.loads(line, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    assert game_log(server, me.hello["game_id"])  # type: ignore[index]


async def test_slowloris_is_cut_by_the_per_frame_deadline(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, read_timeout=0.5) as server:
        slow = await WireClient.open(server.port)
        frame = encode_frame(b'{"type": "HELLO", "name": "' + b"x" * 60 + b'"}')
        loop = asyncio.get_running_loop()
        started = loop.time()
        error = None
        for byte in frame:  # one byte every 50 ms: never idle 0.5 s, but far too slow
            await slow.send_raw(bytes([byte]))
            await asyncio.sleep(0.05)
            while slow.inbox or not slow.reader.at_eof():
                try:
                    message = await slow.recv(timeout=0.001)
                except AssertionError:
                    break
                if message is not None and message["type"] == "ERROR":
                    error = message
                if message is None:
                    break
            if error is not None:
                break
        assert error is not None and error["code"] == "read_timeout"
        assert loop.time() - started < 2.0
        assert await slow.closed_after() == []


def _send_all_then_read(port: int, data: bytes) -> tuple[bytes, bool]:
    """A naive blocking client: send everything, then read until the server closes; returns
    what it read and whether the connection ended in a clean close (not a reset)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(data)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:
            return received, False
        return received, True


async def test_oversized_frame_error_arrives_before_a_clean_close(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, max_frame=1024) as server:
        # the length is refused from its header; the body (still unread) comes regardless
        data = (2**20).to_bytes(8, "big") + b"x" * 300_000
        received, clean = await asyncio.to_thread(_send_all_then_read, server.port, data)
    messages = [json.loads(p) for p in FrameDecoder().feed(received)]
    assert [m["type"] for m in messages] == ["HELLO", "ERROR"]
    assert messages[1]["code"] == "frame_too_large"
    assert clean, "the server reset the connection instead of closing it"


async def test_seat_after_hello_ignores_idle_connections(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, seat_after_hello=True, hello_timeout=0.3) as server:
        idle = [await WireClient.open(server.port, wait_hello=False) for _ in range(15)]
        closed = await asyncio.gather(*(c.closed_after() for c in idle))
        assert all([m["code"] for m in got] == ["hello_required"] for got in closed)
        assert server.lobby.games_created == 0
        players = []
        for i in range(10):
            client = await WireClient.open(server.port, wait_hello=False)
            await client.send({"type": "HELLO", "name": f"p{i}"})
            client.hello = await client.next("HELLO")
            assert client.hello["player_id"] == i
            players.append(client)
        assert all(await asyncio.gather(*autoplay(players, seed=10)))
    assert server.lobby.games_created == 1


async def test_benched_seat_comes_back_when_it_speaks(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, deadline_ms=600) as server:
        clients = await seat_clients(server.port, 10)
        others = autoplay(clients[1:], seed=11)
        me = clients[0]
        first = await me.request()
        second = await me.request()  # the first timed out
        assert second["request_id"] != first["request_id"]
        error = await me.error()  # the second too: benched
        assert error["code"] == "stand_in" and "until you send" in error["detail"]
        await me.send({"type": "HELLO"})
        request = await me.request()  # asked again
        await me.answer(request, random_action(request, random.Random(11)))
        assert await me.play(random.Random(11)) is not None
        await asyncio.gather(*others)
    log = game_log(server, me.hello["game_id"])  # type: ignore[index]
    actions = [e for e in log.events if e.kind == "action" and e.payload["seat"] == 0]
    assert actions, "the seat played again after it came back"


async def test_built_in_agents_are_seated_by_a_seat_after_hello_server(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1, seat_after_hello=True) as server:
        clients = [
            AgentClient("127.0.0.1", server.port, AgentPlayer("random", seed=i)) for i in range(10)
        ]
        for client in clients:
            await client.connect()
        results = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), WAIT)
        for client in clients:
            await client.close()
    assert all(r is not None for r in results)
    assert not [m for c in clients if (m := c.session.last_error) is not None]
