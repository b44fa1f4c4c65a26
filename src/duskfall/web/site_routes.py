"""The site: its pages, and what the pages ask about the whole site (the session, the
variants a game can be started with, the list of games, the statistics)."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
from fastapi.responses import FileResponse

from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.variant import parse_config
from duskfall.store.rows import LISTED_STATUSES
from duskfall.store.search import GameQuery
from duskfall.web.access import bearer
from duskfall.web.gates import Gates
from duskfall.web.gm_live import DEFAULT_PLAYER_MODEL, GM_VARIANT, OPTIONS_HELP, card_seats
from duskfall.web.stats import statistics

STATIC = Path(__file__).parent / "static"
MODEL_AGENTS = ("llm:local", "cognitive:local")

AuthHeader = Annotated[str | None, Header()]


def _seat_count(variant: Any, config: dict[str, Any]) -> int:
    return int(variant.new_game(parse_config(variant, config), 0).num_seats)


def variant_catalog() -> list[dict[str, Any]]:
    """The variants a game can be started with: their agents (bots, then model agents), their
    presets and the seats of each (``""``: the variant's default set-up)."""
    out = []
    for vid in variant_ids():
        try:
            variant = get_variant(vid)
            bots = list(variant.bots())
            presets = {"": _seat_count(variant, {})}
            for name in variant.info.presets:
                presets[name] = _seat_count(variant, {"preset": name})
        except Exception:  # a variant that does not load here is not offered
            continue
        default = "heuristic" if "heuristic" in bots else "random"
        out.append(
            {
                "id": vid,
                "name": variant.name,
                "bots": bots,
                "agent_choices": [*bots, *MODEL_AGENTS],
                "teams": list(variant.teams),
                "agents": default,
                "seats": presets[""],
                "presets": presets,
            }
        )
    return [*out, gm_catalog_entry()]


def gm_catalog_entry() -> dict[str, Any]:
    """GM games: the card is the preset, the agents are the players' model spec, and the
    options are GM settings (``language``, ``gm_model``, ``max_steps``...)."""
    cards = card_seats()
    return {
        "id": GM_VARIANT,
        "name": "Game master (an LLM referees a rule card)",
        "bots": [],
        "agent_choices": ["local", "scripted", "openai:MODEL", "anthropic:MODEL"],
        "teams": [],
        "agents": DEFAULT_PLAYER_MODEL,
        "seats": next(iter(cards.values())),
        "presets": cards,
        "options_help": OPTIONS_HELP,
    }


def site_routes(gates: Gates, db: Path | None) -> APIRouter:
    """``/``, ``/games/{id}``, ``/stats`` and ``/api/session``, ``/api/variants``,
    ``/api/games`` (the list) and ``/api/stats``."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @router.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return FileResponse(STATIC / "stats.html")

    @router.get("/api/stats")
    async def stats() -> dict[str, Any]:
        return await asyncio.to_thread(statistics, db)

    @router.get("/api/session")
    async def session(authorization: AuthHeader = None) -> dict[str, Any]:
        return {"admin": gates.access.is_admin(bearer(authorization))}

    @router.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        return variant_catalog()

    @router.get("/api/games")
    async def games(
        variant: str | None = None,
        status: str | None = None,
        agent: str | None = None,
        tournament: str | None = None,
        source: str | None = None,
        q: str | None = None,
        sort: str = "started_at",
        order: str = "desc",
        limit: int = 50,
        offset: int = 0,
    ) -> dict[str, Any]:
        """A page of the game list: filtered, sorted and paged by the server (a bad
        parameter: 400 with one line saying what is wrong)."""
        if order not in ("asc", "desc"):
            raise HTTPException(400, f"order is asc or desc, not {order!r}")
        query = GameQuery(variant, status, agent, tournament, source, q, sort,  # type: ignore[arg-type]
                          order == "desc", limit, offset)  # fmt: skip
        query.check()
        page = await gates.hub.page(query)
        return {
            "games": page.games,
            "total": page.total,
            "offset": offset,
            "limit": limit,
            "sort": sort,
            "order": order,
            "facets": {"statuses": list(LISTED_STATUSES), **asdict(page.facets)},
        }

    return router
