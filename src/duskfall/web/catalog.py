"""Where games are found: the SQLite game index, and the log directory for games not in it.

Rows are plain dicts for the game list page. The index is opened per call (SQLite in WAL mode
makes that cheap and safe next to other processes writing it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core.errors import LogCorrupt
from duskfall.core.redaction import redact_value
from duskfall.store.deals import released_rows
from duskfall.store.index import GameIndex, UnknownGame, seat_rows, tournament_tag
from duskfall.store.log import LogHeader
from duskfall.store.repair import last_event_outcome
from duskfall.store.rows import GameRow
from duskfall.store.search import FacetCounts, Facets, GameQuery, with_rows
from duskfall.web.feed import ENDED, has_people, public_agents
from duskfall.web.follow import read_header

SCAN_LIMIT = 500  # logs the index does not know, read at most (the newest)
REPAIR_SECONDS = 30.0
FACETS_SECONDS = 10.0  # the filters' choices (variants, tournaments, agents) kept this long
IN_MEMORY = Path(":memory:")  # the index of a server without one: empty
MAX_GAME_ID = 200  # longer is no game id (a file name may not be much longer anyway)

Row = dict[str, Any]


def public_seed(seed: int, status: str, released: bool = True) -> str | None:
    """The seed as seats and spectators may see it: only once the game has ended, and for a
    tournament game once its deal is ``released`` (every game of the deal has ended: they share
    the seed); as a decimal string: 128-bit seeds do not survive a JavaScript number."""
    if status not in ENDED or not released:
        return None
    return str(seed)


def _tag(row: GameRow) -> tuple[str, int] | None:
    if row.tournament is None or row.tournament_slot is None:
        return None
    return (row.tournament, row.tournament_slot)


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


def _index_row(
    row: GameRow, *, totals: bool = True, released: set[tuple[str, int]] | None = None
) -> Row:
    """A game as the list shows it; ``totals`` False: its days, events, tokens and cost are
    not known (a log the index does not hold); ``released``: the tournament slots whose deal
    is over (:func:`~duskfall.store.deals.released_rows`)."""
    agents = [s.agent for s in row.seats]
    status = indexed_status(row)
    known = public_totals(status, row.events, row.tokens, row.cost_usd)
    return {
        "game_id": row.id,
        "variant": row.variant,
        "seed": public_seed(
            row.seed, status, row.tournament is None or _tag(row) in (released or set())
        ),
        "status": status,
        "winner": row.winner,
        "days": row.days if totals else None,
        **(known if totals else dict.fromkeys(known)),
        "started_at": row.started_at,
        "agents": public_agents(row.variant, agents),
        "protected": has_people(row.variant, agents),
        "has_log": row.log_path is not None,
        "live": False,
        "preset": row.config.get("preset"),
        "tournament": row.tournament,
    }


def _mtime(entry: os.DirEntry[str]) -> float:
    try:
        return entry.stat().st_mtime
    except OSError:
        return 0.0


def _log_game(path: Path) -> GameRow | None:
    """A log the index does not hold as an index row (its totals unknown: zero), or None if
    it is no log."""
    try:
        header = read_header(path)
    except LogCorrupt:
        return None
    outcome = last_event_outcome(path)
    status = "running"
    if outcome is not None:
        status = "aborted" if outcome.get("termination") == "aborted" else "finished"
    return header_row(
        header,
        status=status,
        winner=(outcome or {}).get("winner"),
        termination=(outcome or {}).get("termination"),
        log_path=str(path),
    )


def header_row(header: LogHeader, **fields: Any) -> GameRow:
    """An index row of the game ``header`` opens (its config redacted, its tournament tag
    read), with ``fields`` (status, winner...) as far as they are known."""
    tournament, slot = tournament_tag(header)
    return GameRow(
        id=header.game_id,
        variant=header.variant,
        config=redact_value(header.config),
        seed=header.seed,
        seats=seat_rows(header.roster),
        started_at=header.started_at,
        tournament=tournament,
        tournament_slot=slot,
        **fields,
    )


@dataclass
class ListPage:
    """One page of the game list: its rows, the count of every match, and what the games can
    be filtered by."""

    games: list[Row]
    total: int
    facets: Facets


@dataclass
class Catalog:
    """Finds games in the index at ``db`` (if any) and in the log directory ``games_dir``."""

    db: Path | None
    games_dir: Path
    _logs: dict[Path, tuple[int, int, GameRow | None]] = field(default_factory=dict, repr=False)
    _repaired_at: float = field(default=-REPAIR_SECONDS, repr=False)
    _facets: tuple[float, FacetCounts] | None = field(default=None, repr=False)

    @contextmanager
    def _index(self) -> Iterator[GameIndex | None]:
        """The index, opened for this call; it repairs itself (rows left running by a dead
        process) at most every REPAIR_SECONDS, not at every look of every page."""
        if self.db is None or not self.db.exists():
            yield None
            return
        now = time.monotonic()
        repair = now - self._repaired_at >= REPAIR_SECONDS
        index = GameIndex(self.db, repair=repair)
        if repair:
            self._repaired_at = now
        try:
            yield index
        finally:
            index.close()

    def page(self, query: GameQuery, extra: Sequence[GameRow] = ()) -> ListPage:
        """The games matching ``query``: indexed games (simulated ones, without a log, too),
        logs in the directory the index does not know, and ``extra`` rows (games running
        here that the index does not hold), filtered, sorted and paged together."""
        with self._index() as found:
            index = found if found is not None else GameIndex(IN_MEMORY)
            try:
                logs = {row.id: row for row in self._unindexed_logs(index)}
                given = {row.id: row for row in extra}
                others = [*(row for i, row in logs.items() if i not in given), *extra]
                page = index.search(query, others)
                facets = with_rows(self._facet_counts(index), others)
            finally:
                if found is None:
                    index.close()
        released = released_rows(self.db, page.rows)
        games = [
            _index_row(row, totals=row.id in given or row.id not in logs, released=released)
            for row in page.rows
        ]
        return ListPage(games, page.total, facets)

    def _facet_counts(self, index: GameIndex) -> FacetCounts:
        """The index's facets, counted again at most every FACETS_SECONDS (counting every
        seat of a 100,000-game index costs more than the page itself)."""
        now = time.monotonic()
        if self._facets is None or now - self._facets[0] >= FACETS_SECONDS:
            self._facets = (now, index.facet_counts())
        return self._facets[1]

    def _unindexed_logs(self, index: GameIndex) -> list[GameRow]:
        """The logs of ``games_dir`` the index does not know (the newest SCAN_LIMIT of them),
        each read once per change of its file."""
        try:
            entries = [e for e in os.scandir(self.games_dir) if e.name.endswith(".jsonl")]
        except OSError:
            return []
        stems = {e.name[: -len(".jsonl")]: e for e in entries}
        unknown = [stems[s] for s in index.missing(list(stems))]
        unknown.sort(key=_mtime, reverse=True)
        rows: dict[str, GameRow] = {}
        for entry in unknown[:SCAN_LIMIT]:
            row = self._log_row(Path(entry.path), entry)
            if row is not None and row.id not in rows:
                rows[row.id] = row
        named = set(index.missing(list(rows)))  # a log named otherwise than its game
        return [row for game_id, row in rows.items() if game_id in named]

    def _log_row(self, path: Path, entry: os.DirEntry[str]) -> GameRow | None:
        try:
            stat = entry.stat()
        except OSError:
            return None
        cached = self._logs.get(path)
        if cached is not None and cached[:2] == (stat.st_mtime_ns, stat.st_size):
            return cached[2]
        row = _log_game(path)
        self._logs[path] = (stat.st_mtime_ns, stat.st_size, row)
        return row

    def missing(self, game_ids: list[str]) -> list[str]:
        """The ids of ``game_ids`` the index does not hold (all of them without an index)."""
        with self._index() as index:
            return game_ids if index is None else index.missing(game_ids)

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
