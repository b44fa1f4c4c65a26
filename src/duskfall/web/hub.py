"""Every game the web app knows: those it runs, and those it reads from logs.

:meth:`GameHub.feed` gives the :class:`~duskfall.web.feed.GameFeed` of a game whichever way
it is driven, so that pages follow a game the same way in both cases.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from pathlib import Path

from duskfall.store.rows import GameRow
from duskfall.store.search import GameQuery
from duskfall.web.catalog import Catalog, ListPage, header_row, no_game
from duskfall.web.feed import ENDED, GameFeed
from duskfall.web.follow import LogFollower
from duskfall.web.gm_live import GMRequest, open_gm_game
from duskfall.web.hosted import HostedGame
from duskfall.web.live import GameRequest, open_live_game
from duskfall.web.moments import KeyMoments

KEEP_FOLLOWERS = 32


class GameHub:
    """Live games of this process, and followers of logs (the most recent few are kept);
    ``moments``: the games' key moments, computed ahead when a game here ends and when a
    finished game's log is first opened."""

    def __init__(self, catalog: Catalog, moments: KeyMoments | None = None) -> None:
        self.catalog = catalog
        self.moments = moments or KeyMoments(catalog.games_dir)
        self.live: dict[str, HostedGame] = {}
        self.followers: OrderedDict[str, LogFollower] = OrderedDict()

    @property
    def games_dir(self) -> Path:
        return self.catalog.games_dir

    async def start(self, request: GameRequest | GMRequest) -> HostedGame:
        """Check, prepare and start a game (a rules game or a GM game) in this process
        (raises ConfigError on a bad request or a seat that cannot play)."""
        game: HostedGame
        if isinstance(request, GMRequest):
            game = await open_gm_game(request, self.games_dir)
        else:
            game = await open_live_game(request, self.games_dir)
        self.adopt(game)
        return game

    def adopt(self, game: HostedGame) -> None:
        """Run ``game`` here (started), and compute its key moments once it ends."""
        self.live[game.game_id] = game
        game.start()
        assert game.task is not None
        game.task.add_done_callback(lambda _: self._ahead(game))

    def _ahead(self, game: HostedGame) -> None:
        if game.log_path is not None and game.feed.timeline.finished:
            self.moments.soon(self.moments.target(game.game_id, game.log_path))

    def feed(self, game_id: str) -> GameFeed:
        """The feed of a live game, or of a game's log (read now, tailed while watched)."""
        if game_id in self.live:
            return self.live[game_id].feed
        follower = self.followers.get(game_id)
        if follower is None or follower.problem is not None:
            follower = self._open(game_id)
        else:
            self.followers.move_to_end(game_id)
            follower.poll()
        return follower.feed

    def follow(self, game_id: str) -> None:
        """Keep a followed log's feed current while it has subscribers."""
        follower = self.followers.get(game_id)
        if follower is not None:
            follower.ensure_following()

    def _open(self, game_id: str) -> LogFollower:
        path, indexed_status = self.catalog.locate(game_id)
        follower = LogFollower(path)
        if follower.game_id != game_id and game_id not in (path.stem, follower.game_id):
            raise no_game(game_id)
        if not follower.done and indexed_status in ("interrupted", "aborted"):
            follower.feed.status = indexed_status
        self.followers[follower.game_id] = follower
        if follower.done:  # a finished game's first view: its key moments, ahead of a look
            self.moments.soon(self.moments.target(follower.game_id, path))
        while len(self.followers) > KEEP_FOLLOWERS:
            _, oldest = self.followers.popitem(last=False)
            oldest.feed.subscribers.clear()
        return follower

    async def page(self, query: GameQuery) -> ListPage:
        """A page of the game list (:meth:`Catalog.page`, in a thread), with the games this
        process runs: those the index does not hold are listed too, and each says it runs
        here."""
        live = [_live_row(game) for game in self.live.values()]
        page = await asyncio.to_thread(self._page, query, live)
        for listed in page.games:
            game = self.live.get(listed["game_id"])
            if game is not None:
                listed.update(live=True, status=game.feed.status, protected=game.feed.protected)
        return page

    def _page(self, query: GameQuery, live: list[GameRow]) -> ListPage:
        unindexed = set(self.catalog.missing([row.id for row in live]))
        return self.catalog.page(query, [row for row in live if row.id in unindexed])

    async def close(self) -> None:
        for game in list(self.live.values()):
            await game.stop()
        for follower in list(self.followers.values()):
            await follower.stop()


def _live_row(game: HostedGame) -> GameRow:
    """A game running here as an index row (the index may not hold it: no index, say)."""
    header = game.header
    outcome = game.feed.timeline.outcome
    ended = game.feed.status in ENDED
    return header_row(
        header,
        status=game.feed.status if ended else "running",
        winner=outcome.winner if outcome else None,
        days=game.days,
        events=len(game.feed.timeline.frames),
        log_path=None if game.log_path is None else str(game.log_path),
    )
