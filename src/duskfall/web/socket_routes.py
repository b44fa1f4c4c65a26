"""A game's WebSocket: after a hello naming its view, the page gets a snapshot and then that
view's events, status and decisions as they happen (nothing else is read from the page).

A socket is open for as long as its game is watched, so open sockets are capped per client
address (``max_sockets_per_client``, below the server's cap on connections): one address can
never hold every connection the server allows and starve the honest requests. A socket past the
cap is accepted and closed at once with an ``error`` message and the close code 1013 (try
again later).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import Any

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect

from duskfall.core.errors import DuskfallError
from duskfall.web.gates import Gates
from duskfall.web.hello import BadHello, parse_hello

HELLO_TIMEOUT = 10.0
DEFAULT_SOCKETS_PER_CLIENT = 16
POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


def socket_routes(gates: Gates, max_per_client: int = DEFAULT_SOCKETS_PER_CLIENT) -> APIRouter:
    """``WS /api/games/{id}/ws``, at most ``max_per_client`` open from one address."""
    router = APIRouter()
    hub = gates.hub
    open_from: Counter[str] = Counter()  # client address -> its open sockets

    @router.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        address = websocket.client.host if websocket.client is not None else ""
        await websocket.accept()
        if open_from[address] >= max_per_client:
            why = f"too many sockets open from your address (at most {max_per_client})"
            await _refuse(websocket, f"{why}; close one and try again", TRY_AGAIN_LATER)
            return
        open_from[address] += 1
        try:
            await _serve(websocket, game_id)
        finally:
            open_from[address] -= 1
            if not open_from[address]:
                del open_from[address]

    async def _serve(websocket: WebSocket, game_id: str) -> None:
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


async def _refuse(websocket: WebSocket, message: str, code: int = POLICY_VIOLATION) -> None:
    """Tell the client why in an ``error`` message, then close the socket with ``code``."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=code)


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
