"""Tournament pages: the list of tournaments in the index and each one's report.

* ``GET /tournaments``: every tournament with its game counts, linking its page;
* ``GET /tournaments/{name}``: the leaderboard, behaviour, head-to-head and plots of the
  HTML report (:mod:`duskfall.arena.html_report`), each game linking its page ``/games/{id}``;
* ``GET /api/tournaments`` and ``GET /api/tournaments/{name}``: the same as JSON.

Only finished games are reported, so nothing hidden of a game in progress is shown. A
tournament's config is read from the copy its run keeps next to its games' logs.
"""

from __future__ import annotations

import asyncio
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse

from duskfall.arena.html_report import html_report
from duskfall.arena.leaderboard import TournamentReport, build_report
from duskfall.arena.tournament import stored_config, tournament_progress
from duskfall.core.errors import ConfigError
from duskfall.store.index import GameIndex, default_db_path


def _db(db: Path | None) -> Path:
    path = db or default_db_path()
    if path is None or not path.exists():
        raise HTTPException(404, "no game index here")
    return path


def _report(db: Path, name: str) -> TournamentReport:
    with GameIndex(db) as index:
        try:
            config = stored_config(index, name)
        except ConfigError as exc:
            raise HTTPException(404, str(exc)) from None
        progress = tournament_progress(config, index)
    return build_report(progress)  # the config's resamples: the numbers the CLI prints


def tournament_routes(db: Path | None) -> APIRouter:
    """The tournament pages over the index at ``db`` (None: the process's default)."""
    router = APIRouter()

    def listed() -> list[dict[str, Any]]:
        with GameIndex(_db(db)) as index:
            return [
                {"name": n, "games": games, "finished": done, "latest": last}
                for n, games, done, last in index.tournaments()
            ]

    @router.get("/api/tournaments")
    async def tournaments() -> list[dict[str, Any]]:
        return listed()

    @router.get("/api/tournaments/{name}")
    async def tournament(name: str) -> dict[str, Any]:
        report = await asyncio.to_thread(_report, _db(db), name)
        data = report.to_dict()
        for game in data["games"]:
            game.pop("log", None)  # a path on the server: the game page is the link
        return data

    @router.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
    async def list_page() -> str:
        rows = "".join(
            f'<tr><td><a href="/tournaments/{quote(t["name"])}">{escape(t["name"])}</a></td>'
            f"<td>{t['finished']}</td><td>{t['games']}</td><td>{escape(t['latest'])}</td></tr>"
            for t in listed()
        )
        return (
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            "<title>Tournaments</title></head><body><h1>Tournaments</h1>"
            "<table><thead><tr><th>name</th><th>finished</th><th>games</th><th>latest</th>"
            f"</tr></thead><tbody>{rows}</tbody></table></body></html>"
        )

    @router.get("/tournaments/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def page(name: str) -> str:
        report = await asyncio.to_thread(_report, _db(db), name)
        return html_report(report, game_href=lambda g: f"/games/{quote(g.game_id)}")

    return router
