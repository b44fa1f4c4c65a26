"""Tournament pages without the ``arena`` extra: ``duskfall[web]`` alone serves every game
page, and the tournament URLs answer one line saying what to install (no traceback).

The tournament report fits ratings with numpy and scipy (the ``arena`` extra); when they are
missing, :func:`tournament_pages` serves these routes in place of
:func:`duskfall.web.tournaments.tournament_routes`.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

ARENA_PACKAGES = frozenset({"numpy", "scipy", "matplotlib", "openskill"})
NOTE = "tournament pages need the arena extra: pip install 'duskfall[arena]'"


def missing_arena_package(exc: ImportError) -> bool:
    """Whether ``exc`` is a package of the ``arena`` extra that is not installed."""
    missing = (exc.name or "").split(".")[0]
    return isinstance(exc, ModuleNotFoundError) and missing in ARENA_PACKAGES


def arena_missing_routes() -> APIRouter:
    """The tournament URLs, each answering :data:`NOTE` (503: the server lacks a part)."""
    router = APIRouter()

    @router.get("/api/tournaments", include_in_schema=False)
    @router.get("/api/tournaments/{name}", include_in_schema=False)
    async def api_note(name: str = "") -> JSONResponse:
        return JSONResponse({"detail": NOTE}, status_code=503)

    @router.get("/tournaments", include_in_schema=False)
    @router.get("/tournaments/{name}", include_in_schema=False)
    async def page_note(name: str = "") -> PlainTextResponse:
        return PlainTextResponse(NOTE + "\n", status_code=503)

    return router


def tournament_pages(db: Path | None) -> APIRouter:
    """The tournament routes, or :func:`arena_missing_routes` without the ``arena`` extra."""
    try:
        from duskfall.web.tournaments import tournament_routes
    except ImportError as exc:
        if not missing_arena_package(exc):
            raise
        return arena_missing_routes()
    return tournament_routes(db)
