"""The execution record of tournaments: what became of each slot of a schedule, and where.

The ``games`` table of the index holds the games themselves; a finished game of a slot is
what makes the slot done. Beside it, the driver of a tournament keeps one row per slot it
has touched in ``tournament_slots``:

* ``running``: handed to a worker by the driver named in ``driver`` (``host:pid``). A driver
  holds its tournament's lock while it lives, so a ``running`` row found by a driver that got
  the lock was left by one that is gone: :meth:`SlotTable.take_over` marks those
  ``interrupted``, from any host, at once (no waiting for a timeout, no process to ask);
* ``played``: its game is in the index (``game_id``, the ``node`` that played it, how many of
  its decisions were ``fallbacks``);
* ``failed``: every try failed (``resume`` tries again).

``attempts`` counts the failed tries, ``reason`` says why the last one failed (also once the
slot is played), and ``spent_*`` what they cost (a game thrown away
because its model endpoint could not be reached was still paid for). Only the driver writes
this table, in the same SQLite file as the index, on its own disk.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from duskfall.core.usage import Usage
from duskfall.store.log import utc_now
from duskfall.store.sqlite_file import GameIndexError, IndexTable

RUNNING, PLAYED, FAILED, INTERRUPTED = "running", "played", "failed", "interrupted"

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament_slots (
    tournament     TEXT NOT NULL,
    slot           INTEGER NOT NULL,
    state          TEXT NOT NULL,
    attempts       INTEGER NOT NULL DEFAULT 0,
    node           TEXT,
    game_id        TEXT,
    fallbacks      INTEGER NOT NULL DEFAULT 0,
    reason         TEXT,
    driver         TEXT,
    spent_tokens   INTEGER NOT NULL DEFAULT 0,
    spent_cost_usd REAL NOT NULL DEFAULT 0,
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (tournament, slot)
);
"""
_COLUMNS = (
    "slot, state, attempts, node, game_id, fallbacks, reason, driver, spent_tokens, "
    "spent_cost_usd, updated_at"
)


@dataclass(frozen=True, slots=True)
class SlotRecord:
    """One slot's row."""

    slot: int
    state: str
    attempts: int = 0
    node: str | None = None
    game_id: str | None = None
    fallbacks: int = 0
    reason: str | None = None
    driver: str | None = None
    spent_tokens: int = 0
    spent_cost_usd: float = 0.0
    updated_at: str = ""


class SlotTable(IndexTable):
    """The ``tournament_slots`` table of the index at ``path`` (created on first use)."""

    SCHEMA = SCHEMA

    # -- the driver's writes -------------------------------------------------------------

    def take_over(self, tournament: str) -> list[SlotRecord]:
        """Mark ``running`` rows ``interrupted`` (their driver is gone: the caller holds the
        tournament's lock); the rows as they were."""
        left = [r for r in self.records(tournament) if r.state == RUNNING]
        if left:
            with self._write() as db:
                db.execute(
                    "UPDATE tournament_slots SET state = ?, updated_at = ? "
                    "WHERE tournament = ? AND state = ?",
                    (INTERRUPTED, utc_now(), tournament, RUNNING),
                )
        return left

    def running(self, tournament: str, slots: Iterable[int], driver: str) -> None:
        """``slots`` are handed to workers by ``driver``."""
        now = utc_now()
        with self._write() as db:
            db.executemany(
                "INSERT INTO tournament_slots (tournament, slot, state, driver, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament, slot) DO UPDATE SET "
                "state = excluded.state, driver = excluded.driver, "
                "updated_at = excluded.updated_at",
                [(tournament, slot, RUNNING, driver, now) for slot in slots],
            )

    def played(self, tournament: str, games: Iterable[tuple[int, str, str, int]]) -> None:
        """Games recorded in the index: (slot, game id, node, fallbacks) each."""
        now = utc_now()
        with self._write() as db:
            db.executemany(
                "INSERT INTO tournament_slots "
                "(tournament, slot, state, game_id, node, fallbacks, reason, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, NULL, ?) ON CONFLICT (tournament, slot) DO UPDATE "
                "SET state = excluded.state, game_id = excluded.game_id, "
                "node = excluded.node, fallbacks = excluded.fallbacks, "
                "updated_at = excluded.updated_at",
                [(tournament, slot, PLAYED, gid, node, fb, now) for slot, gid, node, fb in games],
            )

    def attempt_failed(
        self,
        tournament: str,
        slot: int,
        reason: str,
        node: str | None,
        usage: Usage,
        *,
        final: bool,
    ) -> None:
        """A try at ``slot`` failed (``final``: none is left, the slot is ``failed``)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO tournament_slots (tournament, slot, state, attempts, node, reason, "
                "spent_tokens, spent_cost_usd, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?) "
                "ON CONFLICT (tournament, slot) DO UPDATE SET state = excluded.state, "
                "attempts = attempts + 1, node = excluded.node, reason = excluded.reason, "
                "spent_tokens = spent_tokens + excluded.spent_tokens, "
                "spent_cost_usd = spent_cost_usd + excluded.spent_cost_usd, "
                "updated_at = excluded.updated_at",
                (
                    tournament,
                    slot,
                    FAILED if final else RUNNING,
                    node,
                    reason,
                    usage.total_tokens,
                    usage.cost_usd,
                    utc_now(),
                ),
            )

    def stopped(self, tournament: str, driver: str) -> None:
        """The driver stops (Ctrl-C, an error): its ``running`` slots are ``interrupted``."""
        with self._write() as db:
            db.execute(
                "UPDATE tournament_slots SET state = ?, updated_at = ? "
                "WHERE tournament = ? AND state = ? AND driver = ?",
                (INTERRUPTED, utc_now(), tournament, RUNNING, driver),
            )

    # -- reading -------------------------------------------------------------------------

    def records(self, tournament: str) -> list[SlotRecord]:
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM tournament_slots WHERE tournament = ? ORDER BY slot",
            (tournament,),
        ).fetchall()
        return [SlotRecord(*row) for row in rows]


def slot_records(db: str | Path, tournament: str) -> dict[int, SlotRecord]:
    """Slot -> record of ``tournament`` in the index at ``db``, read-only (empty if the index
    has none: a tournament of before this table, or no tournament at all)."""
    path = Path(db)
    if not path.is_file():
        return {}
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        ) as raw:
            rows = raw.execute(
                f"SELECT {_COLUMNS} FROM tournament_slots WHERE tournament = ? ORDER BY slot",
                (tournament,),
            ).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return {}
        raise GameIndexError(f"cannot read game index {path}: {exc}") from None
    return {row[0]: SlotRecord(*row) for row in rows}
