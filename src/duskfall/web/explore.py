"""Explore from here: the organiser forks a game at a moment of its god view and follows the fork.

``POST /api/games/{id}/fork`` (admin) takes the moment (``at``: an event number of the god view,
or ``day:N``, ``night:N``, ``VOTE:2`` as ``duskfall fork --at`` reads them), the fork's agents
(an agent spec as for ``play``; the parent's by default), a replaced move (``replace``:
``SEQ=TEXT`` or ``SEQ=ACTION``, as ``duskfall fork --replace``), the seats' seed and a pace. The
fork is planned by the lab (:func:`duskfall.lab.fork.plan_fork`: the same deal, the parent's
events up to the moment, its log beside the others in the games directory, naming its parent),
its model-backed seats are checked, and it then plays in this process like a game started from
the page: its page follows it live, its family links it to its parent, and its key moments are
computed when it ends. A game that has not ended is not forked (a fork plays its deal).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from duskfall.core.errors import DuskfallError
from duskfall.core.rng import parse_seed
from duskfall.lab.fork import ForkRequest, plan_fork
from duskfall.session import new_game_id
from duskfall.web.gates import Gates
from duskfall.web.live import MAX_PACE, GameRequest, LiveGame

AuthHeader = Annotated[str | None, Header()]


class ForkBody(BaseModel):
    at: str | None = Field(None, max_length=100)
    agents: str | None = Field(None, max_length=2000)
    replace: str | None = Field(None, max_length=20000)
    seed: int | str | None = None
    pace: float = Field(0.0, ge=0.0, le=MAX_PACE)


def explore_routes(gates: Gates) -> APIRouter:
    """``POST /api/games/{id}/fork`` (see the module docstring)."""
    router = APIRouter()
    hub = gates.hub

    @router.post("/api/games/{game_id}/fork", status_code=201)
    async def fork(
        game_id: str, body: ForkBody, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        gates.require_admin(authorization)
        live = hub.live.get(game_id)
        if live is not None and live.feed.status not in ("finished", "aborted"):
            raise DuskfallError(f"game {game_id} has not ended: wait for its end to fork it")
        parent = live.log_path if live is not None else hub.catalog.locate(game_id)[0]
        if parent is None:
            raise DuskfallError(f"game {game_id} has no log to fork")
        header = hub.feed(game_id).timeline.header
        fork_id = new_game_id(header.variant)
        request = ForkRequest(
            parent,
            at=body.at.strip() if body.at else None,
            agents=body.agents.strip() if body.agents else None,
            seed=None if body.seed is None else parse_seed(body.seed),
            replace=body.replace,
            log_path=hub.games_dir / f"{fork_id}.jsonl",
            game_id=fork_id,
        )
        planned = await asyncio.to_thread(plan_fork, request)
        await planned.preflight()
        prepared = planned.start()
        spec = ",".join(str(entry.get("agent")) for entry in prepared.header.roster)
        game = LiveGame(
            GameRequest(prepared.header.variant, prepared.header.seed, spec, pace=body.pace),
            prepared,
            {},
        )
        for event in planned.plan.events or ():  # the parent's part, already in the log
            game.feed.push(event)
        hub.adopt(game)
        origin = planned.origin
        return {
            "game_id": fork_id,
            "url": f"/games/{fork_id}",
            "parent": game_id,
            "prefix": origin.prefix,
            "at": origin.event,
        }

    for route in router.routes:  # its token is checked before its body is read
        if isinstance(route, APIRoute) and route.name == "fork":
            gates.check_body(route, lambda params, auth: gates.require_admin(auth))
    return router
