"""A game's WebSocket: after a hello naming its view, the page gets a snapshot and then that
view's events, status and decisions as they happen (nothing else is read from the page)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect

from duskfall.core.errors import DuskfallError
from duskfall.web.gates import Gates
from duskfall.web.hello import BadHello, parse_hello

HELLO_TIMEOUT = 10.0


def socket_routes(gates: Gates) -> APIRouter:
    """``WS /api/games/{id}/ws``."""
    router = APIRouter()
    hub = gates.hub

    @router.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        try:
            message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await _refuse(websocket, f"no hello within {HELLO_TIMEOUT:g} s")
            return
        if message["type"] == "websocket.disconnect":
            return
        try:
            hello = parse_hello(message)
            seat = hello.seat
            feed = hub.feed(game_id)
            gates.check_view(game_id, feed, seat, hello.token)
        except (BadHello, HTTPException, DuskfallError) as exc:
            await _refuse(websocket, exc.detail if isinstance(exc, HTTPException) else str(exc))
            return
        subscriber = feed.subscribe(seat)
        hub.follow(game_id)
        try:
            await websocket.send_json(gates.snapshot(game_id, feed, seat))
            await _pump(websocket, subscriber.queue)
        finally:
            feed.unsubscribe(subscriber)

    return router


async def _refuse(websocket: WebSocket, message: str) -> None:
    """Tell the client why in an ``error`` message, then close the socket (1008)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=1008)


async def _pump(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Send queued messages until the page goes away; the page sends nothing after its
    hello, so a message from it is refused and closes the socket."""
    reader = asyncio.create_task(websocket.receive())
    try:
        while not reader.done():
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            await websocket.send_json(getter.result())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
            if (await reader)["type"] == "websocket.receive":
                await _refuse(websocket, "nothing is expected after the hello")
