"""State updates: full by default, only the changed fields or none when a client's HELLO asks."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config
from duskfall.protocol.framing import FrameDecoder, encode_message
from duskfall.protocol.messages import action_request
from duskfall.server.broadcast import WireObserver
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.stand_in import FallbackPlayer

from .support import (
    Message,
    WireClient,
    autoplay,
    game_log,
    random_action,
    seat_clients,
    serving,
    wait_game_done,
)

VARIANT = get_variant("sports-mafia")


class Frames:
    """A seat link that decodes and keeps the frames it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | bytes) -> None:
        if isinstance(message, bytes):
            (payload,) = FrameDecoder().feed(message)
            message = json.loads(payload)
        self.sent.append(message)


def seat(index: int) -> tuple[RemoteSeat, Frames]:
    remote = RemoteSeat(
        index,
        variant=VARIANT,
        game_id="g",
        deadline=5.0,
        stand_in=lambda: FallbackPlayer(derive_rng(1, "stand-in")),
    )
    link = Frames()
    remote.attach(link)
    return remote, link


async def test_changes_merge_into_the_full_observation() -> None:
    state = VARIANT.new_game(parse_config(VARIANT, {}), 5)
    seats = {i: seat(i) for i in range(3)}
    seats[1][0].state_updates = "changes"
    seats[2][0].state_updates = "off"
    observer = WireObserver(state, {i: s for i, (s, _) in seats.items()}, "g")
    rng = random.Random(5)
    merged: dict[str, Any] = {}
    partial = 0
    for _ in range(40):
        decision = state.pending()[0]
        observer.on_event(Event("action", {"seat": decision.seat}, source="runtime"))
        state.apply(decision.seat, state.legal(decision.seat).sample(rng))
        await asyncio.sleep(0)
        for message in seats[1][1].sent:
            assert message["valid_actions"] == {}
            if message.get("partial"):
                partial += 1
                merged.update(message["observation"])
            else:
                merged = dict(message["observation"])
        seats[1][1].sent.clear()
        if decision.seat != 1:
            assert merged == state.observe(1)
        full = seats[0][1].sent
        if decision.seat != 0:
            assert full[-1]["observation"] == state.observe(0) and "partial" not in full[-1]
    assert partial > 0
    assert seats[2][1].sent == []  # off: no state updates at all


class RawFrames:
    """A seat link that keeps the bytes it is sent."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send(self, message: dict[str, Any] | bytes) -> None:
        self.sent.append(message if isinstance(message, bytes) else encode_message(message))


async def test_full_updates_are_the_bytes_of_the_plain_encoding() -> None:
    state = VARIANT.new_game(parse_config(VARIANT, {}), 9)
    seats = {i: seat(i)[0] for i in range(10)}
    links = {i: RawFrames() for i in range(10)}
    for index, remote in seats.items():
        remote.attach(links[index])
    observer = WireObserver(state, seats, "g-é")
    rng = random.Random(9)
    checked = 0
    while state.outcome() is None:
        decision = state.pending()[0]
        observer.on_event(Event("action", {"seat": decision.seat}, source="runtime"))
        state.apply(decision.seat, state.legal(decision.seat).sample(rng))
        await asyncio.sleep(0)
        for index, link in links.items():
            for frame in link.sent:  # each seat's update made from its observation now
                observation = dict(state.observe(index))
                message = action_request(index, state.phase, {}, observation, game_id="g-é")
                assert frame == encode_message(message)
                checked += 1
            link.sent.clear()
    assert checked > 100


async def test_hello_options_over_the_wire(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        clients = await seat_clients(server.port, 3)
        await clients[1].send({"type": "HELLO", "state_updates": "changes"})
        await clients[2].send({"type": "HELLO", "state_updates": "off"})
        clients += await seat_clients(server.port, 7)  # their HELLOs are in before the start
        overs = await asyncio.gather(*autoplay(clients))
        await wait_game_done(server)
    assert all(o is not None for o in overs)

    def updates(index: int) -> list[dict[str, Any]]:
        return [
            m
            for m in clients[index].seen
            if m["type"] == "ACTION_REQUEST" and not m["valid_actions"]
        ]

    assert updates(0) and not any(m.get("partial") for m in updates(0))
    assert any(m.get("partial") for m in updates(1))
    assert updates(2) == []


async def _answer_everything(client: WireClient, rng: random.Random) -> Message | None:
    """A client written from the seed's text alone that answers every ACTION_REQUEST, state
    updates included, without a request id (as its skeleton does): a state update gets a vote
    for somebody alive, or a declaration in the declaration phase."""
    while (message := await client.recv()) is not None:
        if message["type"] == "GAME_EVENT" and message["event"] == "GAME_OVER":
            return message
        if message["type"] != "ACTION_REQUEST":
            continue
        if message["valid_actions"]:
            action = random_action(message, rng)
        elif message["phase"] == "DECLARATION":
            action = {"type": "DECLARATION", "declaration": [0] * 10}
        else:
            alive = message["observation"].get("alive_players") or [0]
            action = {"type": "VOTE", "target": rng.choice(alive)}
        await client.send({"type": "ACTION_RESPONSE", "player_id": client.seat, "action": action})
    return None


async def test_answers_to_state_updates_never_use_up_a_decisions_re_asks(tmp_path: Path) -> None:
    games = 3
    async with serving(tmp_path, games=games, retries=0) as server:
        for game in range(games):
            clients = await seat_clients(server.port, 10)
            rngs = [random.Random(game * 10 + i) for i in range(10)]
            overs = await asyncio.gather(*map(_answer_everything, clients, rngs))
            assert all(over is not None for over in overs)
        await wait_game_done(server, games)
        codes = {
            m["code"] for c in clients for m in c.seen if m["type"] == "ERROR"
        }  # the last game's
        logs = [game_log(server, r.game_id) for r in server.lobby.results]
    assert len(logs) == games
    assert codes <= {"not_your_turn", "player_dead"}, codes
    assert not [e for log in logs for e in log.events if e.kind == "fallback"]
