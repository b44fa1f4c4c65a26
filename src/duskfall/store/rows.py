"""The rows of the game index: a game, its seats and its usage totals, and how a row is written.

:mod:`duskfall.store.index` keeps them in SQLite; :mod:`duskfall.store.search` pages them and
:mod:`duskfall.store.repair` closes the ones a dead process left ``running``.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.event_kinds import LLM_CALL
from duskfall.core.events import Event
from duskfall.core.usage import Tally, call_usage
from duskfall.store.index_schema import V1_COLUMNS

STATUSES = ("running", "finished", "aborted")
INTERRUPTED = "interrupted"  # not stored: a running game whose process is gone
LISTED_STATUSES = (*STATUSES, INTERRUPTED)


_GAME_COLUMNS = (
    V1_COLUMNS
    + ", cached_tokens, cache_write_tokens, tournament, tournament_slot, parent, parent_event"
    + ", chain, seal"
)
_GAME_PLACES = ", ".join("?" for _ in _GAME_COLUMNS.split(","))


def insert_rows(
    db: sqlite3.Connection,
    rows: Sequence[GameRow],
    verb: str = "INSERT INTO",
    games: str = "games",
    seats: str = "seats",
) -> None:
    """Write whole rows (a game and its seats) into the tables ``games`` and ``seats``."""
    db.executemany(
        f"{verb} {games} ({_GAME_COLUMNS}) VALUES ({_GAME_PLACES})",
        [_row_values(row) for row in rows],
    )
    db.executemany(
        f"{verb} {seats} (game_id, seat, agent, model) VALUES (?, ?, ?, ?)",
        [(row.id, s.seat, s.agent, s.model) for row in rows for s in row.seats],
    )


def model_of(agent: str) -> str | None:
    """The model behind an agent string: ``llm:openai:gpt-4o`` -> ``openai:gpt-4o``."""
    kind, sep, arg = agent.partition(":")
    return arg if sep and kind in ("llm", "cognitive") and arg else None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who played one seat."""

    seat: int
    agent: str
    model: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game in the index. ``log_path`` is None for summary-only (simulated) games."""

    id: str
    variant: str
    config: dict[str, Any]
    seed: int
    seats: tuple[SeatRow, ...]
    status: str
    winner: str | None = None
    termination: str | None = None
    days: int = 0
    events: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    started_at: str = ""
    updated_at: str = ""
    finished_at: str | None = None
    log_path: str | None = None
    host: str | None = None
    pid: int | None = None
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    tournament: str | None = None
    tournament_slot: int | None = None
    parent: str | None = None
    parent_event: int | None = None
    chain: str | None = None
    seal: str | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def process_alive(self) -> bool | None:
        """For a ``running`` game: whether its process still exists (None if unknown, e.g.
        it runs on another host). A dead one was interrupted: resume it."""
        if self.status != "running" or self.pid is None or self.host != socket.gethostname():
            return None
        return pid_alive(self.pid)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this host (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Usage:
    """Running totals of a game, folded from its events (model usage in :mod:`core.usage`)."""

    days: int = 0
    events: int = 0
    llm: Tally = field(default_factory=Tally)

    def add(self, event: Event) -> None:
        self.events += 1
        if event.day > self.days:
            self.days = event.day
        if event.kind == LLM_CALL:  # (call_usage's test, inline: this runs for every event)
            usage = call_usage(event)
            assert usage is not None
            self.llm.add(usage)

    @property
    def prompt_tokens(self) -> int:
        return self.llm.usage.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.llm.usage.completion_tokens

    @property
    def cached_tokens(self) -> int:
        return self.llm.usage.cached_tokens

    @property
    def cache_write_tokens(self) -> int:
        return self.llm.usage.cache_write_tokens

    @property
    def cost_usd(self) -> float:
        return self.llm.usage.cost_usd


def _row_values(row: GameRow) -> tuple[Any, ...]:
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
        row.cost_usd,
        row.started_at,
        row.updated_at or row.started_at,
        row.finished_at,
        row.log_path,
        row.host,
        row.pid,
        row.cached_tokens,
        row.cache_write_tokens,
        row.tournament,
        row.tournament_slot,
        row.parent,
        row.parent_event,
        row.chain,
        row.seal,
    )
