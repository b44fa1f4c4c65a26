"""The lab on the game page: a game's family (the game it was forked from, its forks) and its
win-probability line.

* ``GET /api/games/{id}/family?seat=``: the parent (game id, the day and phase the fork left
  it at, and that moment's number in the viewer's own numbering, in the parent and here) and
  the forks of this game (each with the moment it left this game at, numbered likewise). A
  seat or public view is told numbers of its own view only, so a link tells nothing of the
  hidden events before it; the forks of a game are listed only once it has ended, or to its
  god view (a fork plays the same deal).
* ``GET /api/games/{id}/winline?rollouts=``: the god view's line
  (:mod:`duskfall.lab.winline`), computed in a worker thread from the game's log and kept for
  as long as the log does not grow; what it is (an estimate under a bot policy) comes with it.
* ``GET /api/games/{id}/moments?wait=``: the god view's key moments
  (:mod:`duskfall.web.moments`): the line with its swings placed at their events, and the
  per-seat summary; ``status`` ``computing`` while they are computed (ahead of the view, or
  from now on), unless ``wait`` is true.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query

from duskfall.core.errors import DuskfallError
from duskfall.store.index import GameIndex
from duskfall.store.lineage import ForkOrigin
from duskfall.store.paths import default_db_path
from duskfall.store.rows import GameRow
from duskfall.web.access import bearer
from duskfall.web.feed import PUBLIC_VIEW, GameFeed
from duskfall.web.hub import GameHub
from duskfall.web.moments import Target
from duskfall.web.timeline import Timeline

CheckView = Callable[[str, GameFeed, int | None, str | None], None]
AuthHeader = Annotated[str | None, Header()]


def view_number(timeline: Timeline, seat: int | None, seq: int) -> int:
    """How many events before game-wide event ``seq`` the view of ``seat`` shows: the number a
    moment at ``seq`` has in that view."""
    if seat is None:
        return seq
    frames = timeline.frames[:seq]
    if seat == PUBLIC_VIEW:
        return sum(1 for frame in frames if frame.event.visibility == "public")
    return sum(1 for frame in frames if seat in frame.seats)


def _moment(timeline: Timeline, seq: int) -> dict[str, Any]:
    frames = timeline.frames
    event = frames[min(seq, len(frames) - 1)].event if frames else None
    return {"day": event.day if event else 0, "phase": event.phase if event else ""}


def family_of(
    feed: GameFeed, seat: int | None, db: Path | None, feed_of: Callable[[str], GameFeed | None]
) -> dict[str, Any]:
    """The family of the game ``feed`` shows, as the view of ``seat`` may see it."""
    timeline = feed.timeline
    out: dict[str, Any] = {"parent": None, "forks": []}
    origin = ForkOrigin.of(timeline.header)
    if origin is not None:
        parent = feed_of(origin.parent)
        out["parent"] = {
            "game_id": origin.parent,
            **_moment(timeline, origin.prefix),
            "here": view_number(timeline, seat, origin.prefix),
            "there": None if parent is None else view_number(parent.timeline, seat, origin.event),
            "replaced": origin.replaced is not None,
            # a seat believes what it was told: only the god view, or the ended game, says
            "planted": [p.event for p in origin.planted]
            if seat is None or timeline.finished
            else [],
        }
    if seat is None or timeline.finished:
        out["forks"] = [
            {
                "game_id": row.id,
                "status": row.status,
                "winner": row.winner if row.status == "finished" else None,
                **_moment(timeline, row.parent_event or 0),
                "here": view_number(timeline, seat, row.parent_event or 0),
            }
            for row in _children(timeline.game_id, db)
        ]
    return out


def _children(game_id: str, db: Path | None) -> list[GameRow]:
    path = db or default_db_path()
    if path is None or not path.exists():
        return []
    with GameIndex(path, repair=False) as index:
        return index.children(game_id)


def lab_routes(hub: GameHub, check_view: CheckView, db: Path | None) -> APIRouter:
    """The family and line routes over ``hub`` (``check_view`` guards each view)."""
    router = APIRouter()

    def feed_of(game_id: str) -> GameFeed | None:
        try:
            return hub.feed(game_id)
        except DuskfallError:  # a parent whose log is gone: no number there
            return None

    @router.get("/api/games/{game_id}/family")
    async def family(
        game_id: str,
        seat: Annotated[int | None, Query()] = None,
        authorization: AuthHeader = None,
    ) -> dict[str, Any]:
        feed = hub.feed(game_id)
        check_view(game_id, feed, seat, bearer(authorization))
        return await asyncio.to_thread(family_of, feed, seat, db, feed_of)

    @router.get("/api/games/{game_id}/winline")
    async def winline(
        game_id: str,
        rollouts: Annotated[int, Query(ge=10, le=2000)] = 100,
        authorization: AuthHeader = None,
    ) -> dict[str, Any]:
        target = god_target(game_id, rollouts, authorization)
        entry, _ = await hub.moments.get(target, wait=True)
        assert entry is not None
        if entry["line"] is None:
            raise DuskfallError(entry["problem"])
        line: dict[str, Any] = entry["line"]
        return line

    @router.get("/api/games/{game_id}/moments")
    async def moments(
        game_id: str, wait: bool = False, authorization: AuthHeader = None
    ) -> dict[str, Any]:
        target = god_target(game_id, None, authorization)
        entry, kept = await hub.moments.get(target, wait=wait)
        if entry is None:
            return {"status": "computing", "rollouts": target.rollouts}
        return {"status": "ready", "cached": kept, "rollouts": target.rollouts, **entry}

    def god_target(game_id: str, rollouts: int | None, authorization: str | None) -> Target:
        """The log of ``game_id`` to compute from, once its god view is allowed."""
        feed = hub.feed(game_id)
        check_view(game_id, feed, None, bearer(authorization))  # the god view's only
        live = hub.live.get(game_id)
        path = live.log_path if live is not None else hub.catalog.locate(game_id)[0]
        if path is None:
            raise DuskfallError(f"game {game_id} has no log to estimate its line from")
        return hub.moments.target(game_id, path, rollouts)

    return router
