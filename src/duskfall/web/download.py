"""A game's log to download, as far as the viewer may see it.

``GET /api/games/{id}/log?seat=``: the god view (the admin, or anyone in a game of bots and
models alone) downloads the log file itself, every line; a seat's view or the public view
(``seat=-1``) downloads what its page shows, as JSON lines: first the game as that view
describes it (no seed before the end, the agents as that view may know them, the roles once
the game has ended), then its events, numbered in that view, each exactly as the page gets it.
So a seat's download holds nothing its page does not: no other seat's role, no private event of
another channel, no count of the events it did not see.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response

from duskfall.core.errors import DuskfallError
from duskfall.web.access import bearer
from duskfall.web.feed import PUBLIC_VIEW
from duskfall.web.gates import Gates

AuthHeader = Annotated[str | None, Header()]
NDJSON = "application/x-ndjson"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(game_id: str, seat: int | None) -> str:
    view = "god" if seat is None else "public" if seat == PUBLIC_VIEW else f"seat{seat}"
    return f"{_UNSAFE.sub('_', game_id)[:120] or 'game'}-{view}.jsonl"


def download_routes(gates: Gates) -> APIRouter:
    """``GET /api/games/{id}/log`` (see the module docstring)."""
    router = APIRouter()
    hub = gates.hub

    @router.get("/api/games/{game_id}/log")
    async def download(
        game_id: str,
        seat: Annotated[int | None, Query()] = None,
        authorization: AuthHeader = None,
    ) -> Response:
        feed = hub.feed(game_id)
        gates.check_view(game_id, feed, seat, bearer(authorization))
        if seat is None:
            live = hub.live.get(game_id)
            path = live.log_path if live is not None else hub.catalog.locate(game_id)[0]
            if path is None:
                raise DuskfallError(f"game {game_id} keeps no log")
            body = await asyncio.to_thread(path.read_bytes)
        else:
            snapshot = feed.snapshot(seat)
            events: list[dict[str, Any]] = snapshot.pop("events")
            lines = [{**snapshot, "type": "view"}, *events]
            body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
        disposition = f'attachment; filename="{file_name(game_id, seat)}"'
        return Response(body, media_type=NDJSON, headers={"Content-Disposition": disposition})

    return router
