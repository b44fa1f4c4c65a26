"""Finding games in the index: filters, a sort and a page, all done by SQLite.

A :class:`GameQuery` says which games (variant, status, agent, tournament, simulated or
logged, a text) in which order and which page of them; :func:`search` answers it with the
page's rows and the count of every match, so a list of any length is paged by the database
and every game of the index can be reached, not only the newest few.

``interrupted`` is not stored: it is a ``running`` row whose process is gone. The query
computes it with a function registered on the connection (:data:`SHOWN_STATUS`), so that the
status filter and the sort by status see the status the list shows.
"""

from __future__ import annotations

import socket
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from duskfall.core.errors import DuskfallError
from duskfall.store.rows import (
    _GAME_COLUMNS,
    INTERRUPTED,
    LISTED_STATUSES,
    GameRow,
    insert_rows,
    pid_alive,
)

Source = Literal["simulated", "logged"]
SOURCES: tuple[Source, ...] = ("simulated", "logged")
MAX_PAGE = 500
MAX_TEXT = 200

#: The status a row is listed with (``interrupted`` for a running game whose process died).
SHOWN_STATUS = (
    f"(CASE WHEN status = 'running' AND process_gone(host, pid) THEN '{INTERRUPTED}' "
    "ELSE status END)"
)
#: Sort keys and the SQL they order by.
SORTS: dict[str, str] = {
    "started_at": "started_at",
    "game_id": "id",
    "variant": "variant",
    "status": SHOWN_STATUS,
    "winner": "winner",
    "days": "days",
    "events": "events",
    "tokens": "prompt_tokens + completion_tokens",
    "cost_usd": "cost_usd",
    "tournament": "tournament",
}


class BadQuery(DuskfallError):
    """A game query the index cannot answer (an unknown sort, status or source)."""


@dataclass(frozen=True, slots=True)
class GameQuery:
    """Which games, in which order, and which page. ``agent`` matches a seat's agent
    (``heuristic``), its kind (``llm`` matches ``llm:local``) or its model; ``text`` is
    looked for, ignoring case, in the game id, variant, preset, winner, agents and
    tournament; ``source`` is ``simulated`` (a row without a log) or ``logged``."""

    variant: str | None = None
    status: str | None = None
    agent: str | None = None
    tournament: str | None = None
    source: Source | None = None
    text: str | None = None
    sort: str = "started_at"
    descending: bool = True
    limit: int = 50
    offset: int = 0

    def check(self) -> None:
        """Raise :class:`BadQuery` with one line saying what is wrong."""
        if self.sort not in SORTS:
            raise BadQuery(f"cannot sort by {self.sort!r}; sort by one of {', '.join(SORTS)}")
        if self.status and self.status not in LISTED_STATUSES:
            raise BadQuery(f"unknown status {self.status!r}; valid: {', '.join(LISTED_STATUSES)}")
        if self.source and self.source not in SOURCES:
            raise BadQuery(f"unknown source {self.source!r}; valid: {', '.join(SOURCES)}")
        if not 1 <= self.limit <= MAX_PAGE:
            raise BadQuery(f"a page holds 1 to {MAX_PAGE} games, not {self.limit}")
        if self.offset < 0:
            raise BadQuery(f"the offset is 0 or more, not {self.offset}")
        if self.text and len(self.text) > MAX_TEXT:
            raise BadQuery(f"the search text is at most {MAX_TEXT} characters")


@dataclass(frozen=True, slots=True)
class GamePage:
    """One page of a query's matches, and how many games match in all."""

    rows: list[GameRow]
    total: int


def where(
    query: GameQuery, seats: str = "seats", matched: int | None = None
) -> tuple[str, tuple[Any, ...]]:
    """The WHERE clause of ``query`` ("" when it filters nothing) and its parameters;
    ``seats`` is the table of seats to match a text in. An agent filter reads the ``matched``
    games :func:`_match_agent` found: when they are many, as a test of each game met in the
    list's order (``+id``: the page is the first games met), else as the rows to start from."""
    clauses: list[str] = []
    params: list[Any] = []
    if query.variant:
        clauses.append("variant = ?")
        params.append(query.variant)
    if query.status:
        stored = "running" if query.status == INTERRUPTED else query.status
        clauses.append(f"status = ? AND {SHOWN_STATUS} = ?")
        params += [stored, query.status]
    if query.agent:
        column = "+id" if matched is None or matched > FEW_MATCHES else "id"
        clauses.append(f"{column} IN (SELECT game_id FROM {AGENT_GAMES})")
    if query.tournament:
        clauses.append("tournament = ?")
        params.append(query.tournament)
    if query.source:
        simulated = query.source == "simulated"
        clauses.append("log_path IS NULL" if simulated else "log_path IS NOT NULL")
    text = (query.text or "").strip()
    if text:
        pattern = f"%{_escaped(text)}%"
        fields = ("id", "variant", "winner", "tournament", "json_extract(config, '$.preset')")
        found = " OR ".join(f"{field} LIKE ? ESCAPE '\\'" for field in fields)
        clauses.append(
            f"({found} OR id IN (SELECT game_id FROM {seats} WHERE agent LIKE ? ESCAPE '\\'))"
        )
        params += [pattern] * (len(fields) + 1)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(params)


AGENT_GAMES = "temp.agent_games"  # the ids of the games an agent filter matches, per query
FEW_MATCHES = 2000  # fewer matches than this: read them and sort (else: walk the list's order)


def _match_agent(db: sqlite3.Connection, agent: str, seats: str) -> int:
    """Fill :data:`AGENT_GAMES` with the games one of whose seats is ``agent``, of the kind
    ``agent`` (``llm`` for ``llm:local``) or played by the model ``agent``: three lookups in the
    seats' indexes (a kind is a range of agents: ``llm:`` up to ``llm;``), run once a query,
    not once for the count and again for the page. Returns how many games it found."""
    db.executescript(
        f"CREATE TABLE IF NOT EXISTS {AGENT_GAMES} (game_id TEXT PRIMARY KEY);"
        f"DELETE FROM {AGENT_GAMES};"
    )
    db.execute(
        f"INSERT OR IGNORE INTO {AGENT_GAMES} "
        f"SELECT game_id FROM {seats} WHERE agent = ? UNION "
        f"SELECT game_id FROM {seats} WHERE model = ? UNION "
        f"SELECT game_id FROM {seats} WHERE agent >= ? AND agent < ?",
        (agent, agent, f"{agent}:", f"{agent};"),
    )
    return int(db.execute(f"SELECT COUNT(*) FROM {AGENT_GAMES}").fetchone()[0])


def _escaped(text: str) -> str:
    """``text`` for a LIKE pattern with ``\\`` as escape (``%`` and ``_`` taken literally)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def order_by(query: GameQuery) -> str:
    """The ORDER BY clause: the sort key, then the id, both in the query's direction."""
    direction = "DESC" if query.descending else "ASC"
    return f" ORDER BY {SORTS[query.sort]} {direction}, id {direction}"


def _process_gone(host: str | None, pid: int | None) -> bool:
    """Whether the process of a running row is known to be gone (see ``GameRow``)."""
    if pid is None or host != socket.gethostname():
        return False
    return not pid_alive(pid)


def search(
    db: sqlite3.Connection,
    query: GameQuery,
    with_seats: Callable[[Sequence[tuple[Any, ...]]], list[GameRow]],
    extra: Sequence[GameRow] = (),
) -> GamePage:
    """The page of ``query`` over the index ``db`` and ``extra`` rows the index does not
    hold (logs found beside it: they are filtered, sorted and paged with the others)."""
    query.check()
    db.create_function("process_gone", 2, _process_gone)
    games, seats = ("games", "seats") if not extra else _with_extra(db, extra)
    matched = _match_agent(db, query.agent, seats) if query.agent else None
    clause, params = where(query, seats, matched)
    if matched is not None and not extra and query == GameQuery(
        agent=query.agent, sort=query.sort, descending=query.descending,
        limit=query.limit, offset=query.offset,
    ):  # fmt: skip
        total = matched  # every seat's game is in the index (foreign key): no second count
    else:
        total = int(db.execute(f"SELECT COUNT(*) FROM {games}{clause}", params).fetchone()[0])
    found = db.execute(
        f"SELECT {_GAME_COLUMNS} FROM {games}{clause}{order_by(query)} LIMIT ? OFFSET ?",
        (*params, query.limit, query.offset),
    ).fetchall()
    given = {row.id: row for row in extra}
    rows = [given.get(row.id, row) for row in with_seats(found)]
    return GamePage(rows, total)


def _with_extra(db: sqlite3.Connection, extra: Sequence[GameRow]) -> tuple[str, str]:
    """Temporary tables of ``extra`` rows and views of them beside the index's own rows
    (they go with the connection)."""
    db.executescript(
        "CREATE TEMP TABLE IF NOT EXISTS extra_games AS SELECT * FROM main.games WHERE 0;"
        "CREATE TEMP TABLE IF NOT EXISTS extra_seats AS SELECT * FROM main.seats WHERE 0;"
        "DELETE FROM temp.extra_games; DELETE FROM temp.extra_seats;"
        "CREATE TEMP VIEW IF NOT EXISTS listed_games AS "
        "SELECT * FROM main.games UNION ALL SELECT * FROM temp.extra_games;"
        "CREATE TEMP VIEW IF NOT EXISTS listed_seats AS "
        "SELECT * FROM main.seats UNION ALL SELECT * FROM temp.extra_seats;"
    )
    insert_rows(db, extra, games="temp.extra_games", seats="temp.extra_seats")
    return "listed_games", "listed_seats"


@dataclass(frozen=True, slots=True)
class Facets:
    """What the games of an index can be filtered by: their variants, tournaments and
    agents (the most used first, at most :data:`MAX_AGENTS`)."""

    variants: list[str]
    tournaments: list[str]
    agents: list[str]


@dataclass(frozen=True, slots=True)
class FacetCounts:
    """What :class:`Facets` are made of in an index: its variants, tournaments and the seats
    of each agent (kept a while by a page that asks often: they change slowly)."""

    variants: list[str]
    tournaments: list[str]
    seats: dict[str, int]


MAX_AGENTS = 200


def facets(db: sqlite3.Connection, extra: Sequence[GameRow] = ()) -> Facets:
    """The :class:`Facets` of the index ``db`` and ``extra`` rows."""
    return with_rows(facet_counts(db), extra)


def facet_counts(db: sqlite3.Connection) -> FacetCounts:
    """The :class:`FacetCounts` of the index ``db``."""
    variants = [v for (v,) in db.execute("SELECT DISTINCT variant FROM games")]
    tournaments = [
        t for (t,) in db.execute("SELECT DISTINCT tournament FROM games WHERE tournament NOT NULL")
    ]
    used: dict[str, int] = dict(
        db.execute(
            "SELECT agent, COUNT(*) AS n FROM seats GROUP BY agent ORDER BY n DESC LIMIT ?",
            (MAX_AGENTS,),
        ).fetchall()
    )
    return FacetCounts(variants, tournaments, used)


def with_rows(known: FacetCounts, extra: Sequence[GameRow]) -> Facets:
    """The facets of ``known`` counts with those of ``extra`` rows."""
    variants, tournaments = set(known.variants), set(known.tournaments)
    used = dict(known.seats)
    for row in extra:
        variants.add(row.variant)
        if row.tournament:
            tournaments.add(row.tournament)
        for seat in row.seats:
            used[seat.agent] = used.get(seat.agent, 0) + 1
    agents = sorted(used, key=lambda a: (-used[a], a))[:MAX_AGENTS]
    return Facets(sorted(variants), sorted(tournaments), agents)
