"""Where games are found: the SQLite game index, and the log directory for games not in it.

Rows are plain dicts for the game list page. The index is opened per call (SQLite in WAL mode
makes that cheap and safe next to other processes writing it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.arena.seed_release import tournament_seed_shown
from duskfall.core.errors import LogCorrupt
from duskfall.store.index import GameIndex, GameRow, UnknownGame
from duskfall.store.repair import last_event_outcome
from duskfall.web.feed import ENDED, has_people, public_agents
from duskfall.web.follow import read_header

SCAN_LIMIT = 500
MAX_GAME_ID = 200  # longer is no game id (a file name may not be much longer anyway)

Row = dict[str, Any]


def public_seed(seed: int, status: str, tournament: Mapping[str, Any] | None = None) -> str | None:
    """The seed as seats and spectators may see it: only once the game has ended, and for a
    tournament game (its tag ``{"name", "slot"}``) once every game of its deal has ended (they
    share the seed); as a decimal string: 128-bit seeds do not survive a JavaScript number."""
    if status not in ENDED or not tournament_seed_shown(tournament):
        return None
    return str(seed)


def _tag(row: GameRow) -> dict[str, Any] | None:
    if row.tournament is None:
        return None
    return {"name": row.tournament, "slot": row.tournament_slot}


def shown_id(game_id: str) -> str:
    """``game_id`` in a short form for a message (it may be anything a URL carried)."""
    shown = game_id if len(game_id) <= 60 else f"{game_id[:60]}… ({len(game_id)} characters)"
    return repr(shown)


def no_game(game_id: str) -> UnknownGame:
    """The 404 of ``game_id``, named in a short form."""
    return UnknownGame(f"no game {shown_id(game_id)}")


def plausible_game_id(game_id: str) -> bool:
    """Whether ``game_id`` could name a game: not too long, printable, no path in it."""
    return (
        0 < len(game_id) <= MAX_GAME_ID
        and game_id.isprintable()
        and not game_id.startswith(".")
        and not any(c in game_id for c in "/\\")
    )


def public_totals(status: str, events: int | None, tokens: int | None, cost: float | None) -> Row:
    """A game's totals as the list may show them: only once it has ended. While it runs,
    its count of events and the tokens its models spent grow with hidden actions too (a
    night's kills, checks and potions), so they would tell what the public may not know."""
    ended = status in ENDED
    return {
        "events": events if ended else None,
        "tokens": tokens if ended else None,
        "cost_usd": cost if ended else None,
    }


def indexed_status(row: GameRow) -> str:
    """The index's status, with ``interrupted`` for a running game whose process is gone."""
    return "interrupted" if row.process_alive is False else row.status


def _index_row(row: GameRow) -> Row:
    agents = [s.agent for s in row.seats]
    status = indexed_status(row)
    return {
        "game_id": row.id,
        "variant": row.variant,
        "seed": public_seed(row.seed, status, _tag(row)),
        "status": status,
        "winner": row.winner,
        "days": row.days,
        **public_totals(status, row.events, row.tokens, row.cost_usd),
        "started_at": row.started_at,
        "agents": public_agents(row.variant, agents),
        "protected": has_people(row.variant, agents),
        "has_log": row.log_path is not None,
        "live": False,
        "preset": row.config.get("preset"),
    }


def _log_row(path: Path) -> Row | None:
    try:
        header = read_header(path)
    except LogCorrupt:
        return None
    outcome = last_event_outcome(path)
    agents = [str(entry.get("agent", "?")) for entry in header.roster]
    status = "running"
    if outcome is not None:
        status = "aborted" if outcome.get("termination") == "aborted" else "finished"
    return {
        "game_id": header.game_id,
        "variant": header.variant,
        "seed": public_seed(header.seed, status, header.extra.get("tournament")),
        "status": status,
        "winner": (outcome or {}).get("winner"),
        "days": None,
        "events": None,
        "tokens": None,
        "cost_usd": None,
        "started_at": header.started_at,
        "agents": public_agents(header.variant, agents),
        "protected": has_people(header.variant, agents),
        "has_log": True,
        "live": False,
        "preset": header.config.get("preset"),
    }


@dataclass
class Catalog:
    """Finds games in the index at ``db`` (if any) and in the log directory ``games_dir``."""

    db: Path | None
    games_dir: Path

    @contextmanager
    def _index(self) -> Iterator[GameIndex | None]:
        if self.db is None or not self.db.exists():
            yield None
            return
        index = GameIndex(self.db)
        try:
            yield index
        finally:
            index.close()

    def list_games(self, limit: int = 200) -> list[Row]:
        """Indexed games (simulated ones, without a log, too), then logs in the directory the
        index does not know."""
        rows: dict[str, Row] = {}
        with self._index() as index:
            if index is not None:
                for game in index.list_games(limit=limit):
                    rows[game.id] = _index_row(game)
        if self.games_dir.is_dir():
            logs = sorted(
                self.games_dir.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True
            )
            for path in logs[:SCAN_LIMIT]:
                if path.stem in rows:
                    continue
                row = _log_row(path)
                if row is not None and row["game_id"] not in rows:
                    rows[row["game_id"]] = row
        ordered = sorted(rows.values(), key=lambda r: str(r["started_at"]), reverse=True)
        return ordered[:limit]

    def locate(self, game_id: str) -> tuple[Path, str | None]:
        """The log of ``game_id`` and the index's status for it; raises UnknownGame."""
        if not plausible_game_id(game_id):
            raise no_game(game_id)
        with self._index() as index:
            if index is not None:
                try:
                    row = index.get(game_id)
                except UnknownGame:
                    row = None
                if row is not None and row.log_path is not None:
                    return Path(row.log_path), indexed_status(row)
        path = self.games_dir / f"{game_id}.jsonl"
        try:
            if path.is_file():
                return path, None
        except OSError:  # a name the file system refuses (too long for it, say)
            pass
        raise no_game(game_id)
