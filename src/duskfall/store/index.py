"""The SQLite index of games: one row per game, for listing, filtering and finding logs.

The log (``store.log``) is the record of a game; the index is a summary next to it that the
``games`` command and the web pages query. A row is created when a game starts (status
``running``), refreshed at every phase end and closed when the game ends (``finished`` or
``aborted``). Simulated games without a log get a summary row only (``log_path`` is NULL).

The database runs in WAL mode with a busy timeout, so several processes (a server, a
``play`` in another terminal, the web app) can read and write it at the same time. Its schema
and the upgrades from older versions are :mod:`duskfall.store.index_schema`'s; this module
holds the rows and the queries.

Typical use::

    index = GameIndex(default_db_path())
    for row in index.list_games(variant="werewolf", status="finished", limit=20):
        print(row.id, row.winner, row.tokens, row.log_path)
    row = index.get("werewolf-7-1a2b3c4d")
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path
from typing import Any

from duskfall.core.errors import DuskfallError
from duskfall.core.redaction import redact, redact_value
from duskfall.store.index_schema import SCHEMA_VERSION as SCHEMA_VERSION
from duskfall.store.index_schema import SchemaTooNew, connect
from duskfall.store.log import LogHeader, Sealer, utc_now
from duskfall.store.repair import Repair, repair_index
from duskfall.store.rows import (
    _GAME_COLUMNS,
    INTERRUPTED,
    LISTED_STATUSES,
    GameRow,
    SeatRow,
    Usage,
    insert_rows,
    model_of,
)
from duskfall.store.search import (
    FacetCounts,
    Facets,
    GamePage,
    GameQuery,
    facet_counts,
    facets,
    search,
)
from duskfall.store.signatures import record_signer
from duskfall.store.sqlite_file import GameIndexError, write_transaction

log = logging.getLogger(__name__)


class UnknownGame(DuskfallError):
    """No game (or more than one) matches an id."""


def seat_rows(roster: Iterable[dict[str, Any]]) -> tuple[SeatRow, ...]:
    """Seat rows from a log header's roster (``[{"seat": 0, "agent": "random"}, ...]``),
    agents and models redacted (:func:`~duskfall.core.redaction.redact`)."""
    redacted: dict[str, str] = {}  # most rosters repeat one agent: each text redacted once

    def shown(text: str) -> str:
        if text not in redacted:
            redacted[text] = redact(text)
        return redacted[text]

    out = []
    for entry in roster:
        agent = shown(str(entry.get("agent", "unknown")))
        model = entry.get("model") or model_of(agent)
        out.append(SeatRow(int(entry["seat"]), agent, None if model is None else shown(model)))
    return tuple(out)


def tournament_tag(header: LogHeader) -> tuple[str | None, int | None]:
    """The tournament a game belongs to and its slot in the schedule, from the header's
    ``extra`` (``{"tournament": {"name": ..., "slot": ...}}``); (None, None) for other games."""
    tag = header.extra.get("tournament")
    if not isinstance(tag, dict):
        return (None, None)
    slot = tag.get("slot")
    return (str(tag.get("name")), int(slot) if isinstance(slot, int) else None)


def fork_tag(header: LogHeader) -> tuple[str | None, int | None]:
    """The game a fork was forked from and the parent's event number it left at, from the
    header's ``extra["fork"]``; (None, None) for other games."""
    tag = header.extra.get("fork")
    if not isinstance(tag, dict) or not isinstance(tag.get("parent"), str):
        return (None, None)
    event = tag.get("event")
    return (str(tag["parent"]), int(event) if isinstance(event, int) else None)


class GameIndex:
    """A connection to the SQLite game index at ``path`` (created on first use).

    Opening it repairs rows left ``running`` by a dead process (:mod:`duskfall.store.repair`;
    ``repair=False`` skips that); ``repairs`` lists what changed. ``any_thread``: the
    connection may be handed to another thread (a game planned in a worker thread and played
    on the event loop's), used by one at a time.
    """

    def __init__(self, path: str | Path, *, repair: bool = True, any_thread: bool = False) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise GameIndexError(f"game index {self.path} is a directory; pass a file path")
        if not self.path.parent.is_dir():
            raise GameIndexError(f"cannot create game index {self.path}: no such directory")
        try:
            self._db = connect(self.path, any_thread=any_thread)
        except SchemaTooNew as exc:
            raise GameIndexError(f"game index {self.path} {exc}; upgrade duskfall") from None
        except sqlite3.DatabaseError as exc:
            raise GameIndexError(f"cannot open game index {self.path}: {exc}") from None
        self._signer: Sealer | bool | None = False  # False: not looked up yet
        self._seats: dict[str, tuple[SeatRow, ...]] = {}  # of the games this connection started
        self.repairs: list[Repair] = self.repair() if repair else []

    @property
    def signer(self) -> Sealer | None:
        """What signs the rows this index writes: its operator key (created on first write)."""
        if self._signer is False:
            self._signer = record_signer(self.path)
        assert self._signer is not True
        return self._signer

    def repair(self) -> list[Repair]:
        """Close the rows of games whose process died after the end (or before the start)."""
        try:
            return repair_index(self)
        except (GameIndexError, sqlite3.DatabaseError) as exc:
            log.warning("game index %s not repaired: %s", self.path, exc)
            return []

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction (taken eagerly so concurrent writers queue, not deadlock)."""
        return write_transaction(self._db, self.path)

    # -- writing -----------------------------------------------------------------------

    def record_start(
        self, header: LogHeader, log_path: str | Path | None, chain: str | None = None
    ) -> None:
        """Create (or, on resume, reopen) the row of a game that is starting: ``running``."""
        now = utc_now()
        with self._write() as db:
            db.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}) "
                "VALUES (?, ?, ?, ?, 'running', NULL, NULL, 0, 0, 0, 0, 0, ?, ?, NULL, ?, ?, ?, "
                "0, 0, ?, ?, ?, ?, ?, NULL) "
                "ON CONFLICT (id) DO UPDATE SET status = 'running', winner = NULL, "
                "termination = NULL, finished_at = NULL, updated_at = excluded.updated_at, "
                "log_path = excluded.log_path, host = excluded.host, pid = excluded.pid, "
                "chain = excluded.chain",
                (
                    header.game_id,
                    header.variant,
                    json.dumps(redact_value(header.config), sort_keys=True),
                    str(header.seed),
                    header.started_at or now,
                    now,
                    None if log_path is None else str(Path(log_path).resolve()),
                    socket.gethostname(),
                    os.getpid(),
                    *tournament_tag(header),
                    *fork_tag(header),
                    chain,
                ),
            )
            seats = self._seats[header.game_id] = seat_rows(header.roster)
            self._replace_seats(db, header.game_id, seats)
            self._reseal(db, header.game_id)

    def update(self, game_id: str, usage: Usage, chain: str | None = None) -> None:
        """Refresh a running game's totals (days, events, tokens, cost) and the chain hash
        of its log's last line (``chain``, if known)."""
        with self._write() as db:
            db.execute(
                f"UPDATE games SET {_USAGE_SET}, updated_at = ?, chain = COALESCE(?, chain) "
                "WHERE id = ?",
                (*_usage_values(usage), utc_now(), chain, game_id),
            )
            self._reseal(db, game_id)

    def record_end(
        self,
        game_id: str,
        usage: Usage,
        winner: str | None,
        termination: str | None,
        chain: str | None = None,
    ) -> None:
        """Close a game's row: ``aborted`` if ``termination`` is, else ``finished``."""
        status = "aborted" if termination == "aborted" else "finished"
        now = utc_now()
        with self._write() as db:
            db.execute(
                f"UPDATE games SET {_USAGE_SET}, status = ?, winner = ?, termination = ?, "
                "updated_at = ?, finished_at = ?, pid = NULL, chain = COALESCE(?, chain) "
                "WHERE id = ?",
                (*_usage_values(usage), status, winner, termination, now, now, chain, game_id),
            )
            self._reseal(db, game_id)

    def _reseal(self, db: sqlite3.Connection, game_id: str) -> None:
        """Sign the row of ``game_id`` as it now is (in the write transaction that changed it)."""
        signer = self.signer
        if signer is None:
            return
        values = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        found = values.fetchone()
        if found is None:
            return
        seats = self._seats.get(game_id)
        if seats is None:
            listed = db.execute(
                "SELECT seat, agent, model FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            seats = tuple(SeatRow(*seat) for seat in listed)
        row = _game_row(found, seats)
        db.execute("UPDATE games SET seal = ? WHERE id = ?", (row_seal(row, signer), game_id))

    def abandon(self, game_id: str, termination: str = "abandoned") -> None:
        """Close an interrupted game that will not be continued (a tournament plays its slot
        again from the start): ``aborted``, with ``termination`` saying why; its totals stay."""
        with self._write() as db:
            db.execute(
                "UPDATE games SET status = 'aborted', termination = ?, updated_at = ?, "
                "finished_at = ?, pid = NULL WHERE id = ? AND status = 'running'",
                (termination, utc_now(), utc_now(), game_id),
            )
            self._reseal(db, game_id)

    def move_log(self, game_id: str, log_path: str | Path) -> None:
        """Say where a game's log is now (its folder was moved, or copied to another machine)."""
        with self._write() as db:
            db.execute(
                "UPDATE games SET log_path = ? WHERE id = ?",
                (str(Path(log_path).resolve()), game_id),
            )

    def add_rows(self, rows: Sequence[GameRow]) -> None:
        """Insert (or replace) whole rows in one transaction: simulations use this in batches."""
        if not rows:
            return
        signer = self.signer
        if signer is not None:
            rows = [replace(row, seal=row_seal(row, signer)) for row in rows]
        with self._write() as db:
            insert_rows(db, rows, "INSERT OR REPLACE INTO")

    @staticmethod
    def _replace_seats(db: sqlite3.Connection, game_id: str, seats: Sequence[SeatRow]) -> None:
        db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        db.executemany(
            "INSERT INTO seats (game_id, seat, agent, model) VALUES (?, ?, ?, ?)",
            [(game_id, s.seat, s.agent, s.model) for s in seats],
        )

    # -- reading -----------------------------------------------------------------------

    def list_games(
        self,
        *,
        variant: str | None = None,
        status: str | None = None,
        agent: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameRow]:
        """Games, newest first. ``agent`` matches a seat's agent (``heuristic``), its kind
        (``llm`` matches ``llm:local``) or its model (``openai:gpt-4o-mini``). ``status`` is
        one of :data:`LISTED_STATUSES`: ``running`` games whose process is gone are listed as
        ``interrupted``, not ``running``."""
        if status in ("running", INTERRUPTED):
            listed = self._running(variant, status, agent)[offset:]
            return listed if limit < 0 else listed[:limit]  # a negative limit means all (SQL)
        where, params = _filters(variant, status, agent)
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games{where} "
            "ORDER BY started_at DESC, id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        ).fetchall()
        return self._with_seats(rows)

    def count_games(
        self, *, variant: str | None = None, status: str | None = None, agent: str | None = None
    ) -> int:
        """How many games :meth:`list_games` would list without a limit."""
        if status in ("running", INTERRUPTED):
            return len(self._running(variant, status, agent))
        where, params = _filters(variant, status, agent)
        return int(self._db.execute(f"SELECT COUNT(*) FROM games{where}", params).fetchone()[0])

    def _running(self, variant: str | None, status: str, agent: str | None) -> list[GameRow]:
        """Rows stored as running, split by whether their process is gone (``interrupted``)."""
        where, params = _filters(variant, "running", agent)
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games{where} ORDER BY started_at DESC, id", params
        ).fetchall()
        gone = status == INTERRUPTED
        return [row for row in self._with_seats(rows) if (row.process_alive is False) == gone]

    def stale_running(self) -> list[GameRow]:
        """Rows stored as running whose process, on this host, is gone (what the repair
        closes). Only rows with a process id of this host are read whole: rows running
        elsewhere or without a process id cannot be stale, however many there are."""
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' AND pid IS NOT NULL "
            "AND host = ? AND log_path IS NOT NULL ORDER BY started_at DESC, id",
            (socket.gethostname(),),
        ).fetchall()
        return [row for row in self._with_seats(rows) if row.process_alive is False]

    def search(self, query: GameQuery, extra: Sequence[GameRow] = ()) -> GamePage:
        """One page of the games matching ``query``, and their count; ``extra`` rows (games
        the index does not hold) are filtered, sorted and paged with them
        (:mod:`duskfall.store.search`)."""
        return search(self._db, query, self._with_seats, extra)

    def facets(self, extra: Sequence[GameRow] = ()) -> Facets:
        """The variants, tournaments and agents the games have, to filter by."""
        return facets(self._db, extra)

    def facet_counts(self) -> FacetCounts:
        """What :meth:`facets` are made of, without rows from elsewhere (to keep a while)."""
        return facet_counts(self._db)

    def tournament_games(self, name: str) -> list[GameRow]:
        """Every game tagged with tournament ``name``, by slot (a slot played again after an
        interruption has several rows: the interrupted one and the new one)."""
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE tournament = ? "
            "ORDER BY tournament_slot, started_at, id",
            (name,),
        ).fetchall()
        return self._with_seats(rows)

    def tournaments(self) -> list[tuple[str, int, int, str]]:
        """(name, games, finished games, latest start) of every tournament, newest first."""
        rows = self._db.execute(
            "SELECT tournament, COUNT(*), SUM(status = 'finished'), MAX(started_at) FROM games "
            "WHERE tournament IS NOT NULL GROUP BY tournament ORDER BY MAX(started_at) DESC"
        ).fetchall()
        return [(str(n), int(games), int(done or 0), str(last)) for n, games, done, last in rows]

    def children(self, game_id: str) -> list[GameRow]:
        """The forks of game ``game_id``, by the parent's event they left at, then start."""
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE parent = ? "
            "ORDER BY parent_event, started_at, id",
            (game_id,),
        ).fetchall()
        return self._with_seats(rows)

    def get(self, game_id: str) -> GameRow:
        """The game with this id, or with a unique id prefix; raises :class:`UnknownGame`."""
        rows = self._db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchall()
        if not rows:
            pattern = game_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            rows = self._db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id LIKE ? ESCAPE '\\' LIMIT 3",
                (pattern + "%",),
            ).fetchall()
        if not rows:
            raise UnknownGame(f"no game {game_id!r} in the index {self.path}")
        if len(rows) > 1:
            ids = ", ".join(r[0] for r in rows[:2])
            raise UnknownGame(f"{game_id!r} matches several games ({ids}, ...); give more of it")
        return self._with_seats(rows)[0]

    def missing(self, game_ids: Sequence[str]) -> list[str]:
        """The ids of ``game_ids`` that no row of the index has, in their order."""
        known: set[str] = set()
        for start in range(0, len(game_ids), 500):
            chunk = game_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            known.update(
                i for (i,) in self._db.execute(f"SELECT id FROM games WHERE id IN ({marks})", chunk)
            )
        return [i for i in game_ids if i not in known]

    def _with_seats(self, rows: Sequence[tuple[Any, ...]]) -> list[GameRow]:
        if not rows:
            return []
        ids = [r[0] for r in rows]
        seats: dict[str, list[SeatRow]] = {game_id: [] for game_id in ids}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for game_id, seat, agent, model in self._db.execute(
                f"SELECT game_id, seat, agent, model FROM seats WHERE game_id IN ({marks}) "
                "ORDER BY game_id, seat",
                chunk,
            ):
                seats[game_id].append(SeatRow(seat, agent, model))
        return [_game_row(r, tuple(seats[r[0]])) for r in rows]


def check_status(status: str) -> None:
    """Raise :class:`GameIndexError` unless ``status`` is one of :data:`LISTED_STATUSES`."""
    if status not in LISTED_STATUSES:
        raise GameIndexError(f"unknown status {status!r}; valid: {', '.join(LISTED_STATUSES)}")


def _filters(
    variant: str | None, status: str | None, agent: str | None
) -> tuple[str, tuple[Any, ...]]:
    clauses: list[str] = []
    params: list[Any] = []
    if variant:
        clauses.append("variant = ?")
        params.append(variant)
    if status:
        check_status(status)
        clauses.append("status = ?")
        params.append(status)
    if agent:
        clauses.append(
            "id IN (SELECT game_id FROM seats WHERE agent = ? OR model = ? OR agent LIKE ?)"
        )
        kind_prefix = agent.replace("%", "").replace("_", "") + ":%"
        params.extend([agent, agent, kind_prefix])
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)


_USAGE_SET = (
    "days = ?, events = ?, prompt_tokens = ?, completion_tokens = ?, cost_usd = ?, "
    "cached_tokens = ?, cache_write_tokens = ?"
)


def _usage_values(usage: Usage) -> tuple[int, int, int, int, float, int, int]:
    return (
        usage.days,
        usage.events,
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.cost_usd,
        usage.cached_tokens,
        usage.cache_write_tokens,
    )


def sealed_values(row: GameRow) -> tuple[Any, ...]:
    """What a row's signature covers: everything a result is read from (not where its log is
    now, nor which process plays it)."""
    return (
        row.id,
        row.variant,
        json.dumps(row.config, sort_keys=True),
        str(row.seed),
        row.status,
        row.winner,
        row.termination,
        row.days,
        row.events,
        row.prompt_tokens,
        row.completion_tokens,
        repr(row.cost_usd),
        row.cached_tokens,
        row.cache_write_tokens,
        row.started_at,
        row.finished_at,
        row.tournament,
        row.tournament_slot,
        row.parent,
        row.parent_event,
        row.chain,
        sorted([seat.seat, seat.agent, seat.model or ""] for seat in row.seats),
    )


def row_seal(row: GameRow, signer: Sealer) -> str:
    """The signature of ``row`` by ``signer``: ``KEY_ID:MAC``."""
    return f"{signer.key_id}:{signer.mac(row_message(sealed_values(row)))}"


def row_message(values: Sequence[Any]) -> str:
    """What an index row's signature signs: its values, in a fixed order."""
    return "duskfall-row\x00" + json.dumps(list(values), separators=(",", ":"))


def _game_row(values: tuple[Any, ...], seats: tuple[SeatRow, ...]) -> GameRow:
    (game_id, variant, config, seed, status, winner, termination, days, events) = values[:9]
    (prompt, completion, cost, started, updated, finished, log_path, host, pid) = values[9:18]
    cached, cache_write, tournament, slot, parent, parent_event, chain, seal = values[18:]
    return GameRow(
        id=game_id,
        variant=variant,
        config=json.loads(config),
        seed=int(seed),
        seats=seats,
        status=status,
        winner=winner,
        termination=termination,
        days=days,
        events=events,
        prompt_tokens=prompt,
        completion_tokens=completion,
        cost_usd=cost,
        started_at=started,
        updated_at=updated,
        finished_at=finished,
        log_path=log_path,
        host=host,
        pid=pid,
        cached_tokens=cached,
        cache_write_tokens=cache_write,
        tournament=tournament,
        tournament_slot=slot,
        parent=parent,
        parent_event=parent_event,
        chain=chain,
        seal=seal,
    )
