"""The operator's deal key, and what the index keeps of tournaments' deals.

:func:`deal_key` is ``subkey(operator_key(db), "deals")``: it turns a user's seed into a secret
master (:func:`~duskfall.core.rng.keyed_master`), so game seeds stay reproducible for whoever
holds the config and the key file, and for nobody else. :func:`run_master` is the master of a
``serve`` or ``simulate`` run (a fresh secret without a seed), :func:`run_seed` its games'.

Two tables beside ``games``, created on first use:

* ``deal_secrets``: the secret master of each tournament played without a ``seed`` (32 bytes
  from the OS), sealed with the operator's deal key: XORed with a keyed hash of the tournament's
  name, with a tag that tells a wrong key from a right one. Without the key file the column is
  noise; ``resume`` with the key unseals the same master.
* ``deal_releases``: one row per slot whose deal is over (every game of the deal ended), written
  once, when the deal's last game is recorded. A tournament game's seed may be shown from then
  on; the game list reads this table for a page of rows in one query, never a schedule.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from duskfall.core.errors import ConfigError
from duskfall.core.rng import keyed_master, new_secret, secret_seed
from duskfall.store.log import utc_now
from duskfall.store.operator_key import operator_key, subkey
from duskfall.store.rows import GameRow
from duskfall.store.sqlite_file import IndexTable

SCHEMA = """
CREATE TABLE IF NOT EXISTS deal_secrets (
    tournament TEXT PRIMARY KEY,
    sealed     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deal_releases (
    tournament  TEXT NOT NULL,
    slot        INTEGER NOT NULL,
    deal        INTEGER NOT NULL,
    released_at TEXT NOT NULL,
    PRIMARY KEY (tournament, slot)
);
"""
DEALS = "deals"  # the operator key's purpose that deals games


def deal_key(db: str | Path | None = None) -> bytes:
    """The operator's deal key of the index at ``db`` (default: the process's), created with
    the operator key if there is none yet."""
    return subkey(operator_key(db), DEALS)


def run_master(seed: int | None, purpose: str, db: str | Path | None = None) -> bytes:
    """The secret master of a ``serve`` or ``simulate`` run: the ``seed`` keyed with the deal
    key of ``db``'s operator, or a fresh secret when no seed is given."""
    return new_secret() if seed is None else keyed_master(deal_key(db), seed, purpose)


def run_seed(master: bytes, purpose: str, index: int) -> int:
    """Game ``index``'s seed of a run dealt from ``master``."""
    return secret_seed(master, f"{purpose}:{index}")


def run_seeds(master: bytes, purpose: str, indexes: Iterable[int]) -> Iterator[int]:
    """:func:`run_seed` of each of ``indexes``, one at a time."""
    return (run_seed(master, purpose, index) for index in indexes)


TAG_BYTES = 16
CHUNK = 400  # slots asked about in one query (SQLite's parameter limit is far above)


def _pad(key: bytes, tournament: str, size: int) -> bytes:
    return hmac.new(key, f"duskfall:seal:{tournament}".encode(), hashlib.sha512).digest()[:size]


def _tag(key: bytes, tournament: str, secret: bytes) -> bytes:
    text = f"duskfall:tag:{tournament}:".encode() + secret
    return hmac.new(key, text, hashlib.sha256).digest()[:TAG_BYTES]


def seal(key: bytes, tournament: str, secret: bytes) -> str:
    """``secret`` (at most 64 bytes) sealed under ``key`` for ``tournament``, as hex text."""
    masked = bytes(a ^ b for a, b in zip(secret, _pad(key, tournament, len(secret)), strict=True))
    return (masked + _tag(key, tournament, secret)).hex()


def unseal(key: bytes, tournament: str, sealed: str) -> bytes:
    """The secret :func:`seal` sealed; a one-line ConfigError for another key's seal."""
    raw = bytes.fromhex(sealed)
    masked, tag = raw[:-TAG_BYTES], raw[-TAG_BYTES:]
    secret = bytes(a ^ b for a, b in zip(masked, _pad(key, tournament, len(masked)), strict=True))
    if not hmac.compare_digest(tag, _tag(key, tournament, secret)):
        raise ConfigError(
            f"the deals of tournament {tournament!r} were sealed with another operator key: "
            "use the key file that was beside the index when it started"
        )
    return secret


class DealTable(IndexTable):
    """The deal tables of the index at ``path``."""

    SCHEMA = SCHEMA

    # -- secrets -------------------------------------------------------------------------

    def secret(self, tournament: str, key: bytes) -> bytes | None:
        """The unsealed secret master of ``tournament``, None if it has none yet."""
        row = self._db.execute(
            "SELECT sealed FROM deal_secrets WHERE tournament = ?", (tournament,)
        ).fetchone()
        return None if row is None else unseal(key, tournament, row[0])

    def keep_secret(self, tournament: str, secret: bytes, key: bytes) -> bytes:
        """Keep ``secret`` as ``tournament``'s master unless it has one (another process may
        have started it first): the master it has now."""
        with self._write() as db:
            db.execute(
                "INSERT OR IGNORE INTO deal_secrets (tournament, sealed, created_at) "
                "VALUES (?, ?, ?)",
                (tournament, seal(key, tournament, secret), utc_now()),
            )
        kept = self.secret(tournament, key)
        assert kept is not None
        return kept

    # -- releases ------------------------------------------------------------------------

    def release(self, tournament: str, slots: Iterable[tuple[int, int]]) -> None:
        """Mark ``(slot, deal)`` pairs of ``tournament`` released (their deal is over)."""
        rows = [(tournament, slot, deal, utc_now()) for slot, deal in slots]
        if rows:
            with self._write() as db:
                db.executemany(
                    "INSERT OR IGNORE INTO deal_releases (tournament, slot, deal, released_at) "
                    "VALUES (?, ?, ?, ?)",
                    rows,
                )

    def released(self, tournament: str) -> set[int]:
        """The released slots of ``tournament``."""
        rows = self._db.execute(
            "SELECT slot FROM deal_releases WHERE tournament = ?", (tournament,)
        ).fetchall()
        return {int(slot) for (slot,) in rows}

    def released_among(self, tagged: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
        """Which of the ``(tournament, slot)`` pairs are released: one query a few hundred."""
        return released_among(self._db, tagged)


def released_rows(db: Path | None, rows: Iterable[GameRow]) -> set[tuple[str, int]]:
    """The ``(tournament, slot)`` of the tournament games among ``rows`` whose deal is over,
    in the index at ``db`` (one query a few hundred rows)."""
    tags = [
        (row.tournament, row.tournament_slot)
        for row in rows
        if row.tournament is not None and row.tournament_slot is not None
    ]
    if not tags or db is None or not Path(db).exists():
        return set()
    with DealTable(db) as table:
        return table.released_among(tags)


def released_among(
    db: sqlite3.Connection, tagged: Iterable[tuple[str, int]]
) -> set[tuple[str, int]]:
    """:meth:`DealTable.released_among` on an open connection to the index (none released
    when the table does not exist yet: no deal has ended there)."""
    wanted = sorted(set(tagged))
    found: set[tuple[str, int]] = set()
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        pairs = " OR ".join(["(tournament = ? AND slot = ?)"] * len(chunk))
        try:
            rows = db.execute(
                f"SELECT tournament, slot FROM deal_releases WHERE {pairs}",
                [value for pair in chunk for value in pair],
            ).fetchall()
        except sqlite3.OperationalError:  # no such table: nothing released yet
            return set()
        found.update((str(name), int(slot)) for name, slot in rows)
    return found
