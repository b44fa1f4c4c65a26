"""Keeping the game index current: an observer for live games and summary rows for simulations.

Every logged game gets an :class:`IndexObserver` through :func:`duskfall.session.open_record`.
Code that writes logs itself (e.g. the GM mode, with a ``LogWriter``) indexes its game with
one line::

    record.observers.append(index_observer(header, log_path))   # None when indexing is off
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome, Termination
from duskfall.store.index import GameIndex, fork_tag, seat_rows, tournament_tag
from duskfall.store.log import LogHeader, utc_now
from duskfall.store.paths import default_db_path
from duskfall.store.rows import GameRow, Usage

log = logging.getLogger(__name__)


def usage_of(events: Iterable[Event]) -> Usage:
    """Days, event count, tokens and cost of a list of events."""
    usage = Usage()
    for event in events:
        usage.add(event)
    return usage


class IndexObserver:
    """Keeps one game's index row current: created ``running``, refreshed at every phase end,
    closed ``finished``/``aborted`` at the game end.

    A failing index never stops a game: the problem is logged once and the row left as is.
    """

    def __init__(
        self,
        index: GameIndex,
        header: LogHeader,
        log_path: str | Path | None,
        log_head: Callable[[], str | None] | None = None,
    ) -> None:
        self.index = index
        self.game_id = header.game_id
        self.usage = Usage()
        self._failed = False
        self._log_head = log_head
        index.record_start(header, log_path, self._chain())

    def _chain(self) -> str | None:
        """The chain hash of the log's last line, as the row records it (the log writer is
        an earlier observer: it has written the phase, and signed it, before this runs)."""
        return None if self._log_head is None else self._log_head()

    def catch_up(self, events: Iterable[Event], *, inherited: bool = False) -> None:
        """Count events recorded before this observer was attached (a resumed game); events
        ``inherited`` from a parent game (a fork's prefix) count as events and days, but their
        model usage is the parent's."""
        self.usage = usage_of(events)
        if inherited:
            self.usage = Usage(days=self.usage.days, events=self.usage.events)
        self._guard(lambda: self.index.update(self.game_id, self.usage, self._chain()))

    def on_event(self, event: Event) -> None:
        self.usage.add(event)

    def on_phase_end(self) -> None:
        self._guard(lambda: self.index.update(self.game_id, self.usage, self._chain()))

    def on_game_end(self, outcome: Outcome | None) -> None:
        winner = outcome.winner if outcome else None
        termination = outcome.termination.value if outcome else Termination.ABORTED.value
        self._guard(
            lambda: self.index.record_end(
                self.game_id, self.usage, winner, termination, self._chain()
            )
        )
        self.index.close()

    def _guard(self, write: Callable[[], None]) -> None:
        if self._failed:
            return
        try:
            write()
        except DuskfallError as exc:
            self._failed = True
            log.warning("game index not updated for %s: %s", self.game_id, exc)


def index_observer(
    header: LogHeader,
    log_path: str | Path | None,
    db: str | Path | None = None,
    log_head: Callable[[], str | None] | None = None,
    index: GameIndex | None = None,
) -> IndexObserver | None:
    """The index observer of a logged game (None for unlogged games or when indexing is off).

    ``db`` defaults to :func:`~duskfall.store.paths.default_db_path`; ``log_head`` gives the
    chain hash of the log's last line (the log writer's), which the row records; ``index`` an
    index already open (the observer closes it at the game's end). Raises
    :class:`~duskfall.store.index.GameIndexError` if the index cannot be opened.
    """
    if log_path is None:
        return None
    if index is not None:
        return IndexObserver(index, header, log_path, log_head)
    path = db if db is not None else default_db_path()
    if path is None:
        return None
    return IndexObserver(GameIndex(path), header, log_path, log_head)


def check_game_index(db: str | Path | None = None) -> None:
    """Open and close the game index (``db``, else the default) if indexing is on: raises
    :class:`~duskfall.store.index.GameIndexError` now if it cannot be used."""
    path = db if db is not None else default_db_path()
    if path is not None:
        GameIndex(path).close()


def summary_row(
    header: LogHeader,
    events: Iterable[Event],
    outcome: Outcome | None,
    *,
    log_path: str | Path | None = None,
) -> GameRow:
    """The finished row of a game played without an index observer (simulations)."""
    return finished_row(header, usage_of(events), outcome, log_path=log_path)


def finished_row(
    header: LogHeader,
    usage: Usage,
    outcome: Outcome | None,
    *,
    log_path: str | Path | None = None,
) -> GameRow:
    """:func:`summary_row` from the :class:`Usage` already folded from the game's events."""
    termination = outcome.termination.value if outcome else Termination.ABORTED.value
    now = utc_now()
    tournament, slot = tournament_tag(header)
    parent, parent_event = fork_tag(header)
    return GameRow(
        id=header.game_id,
        variant=header.variant,
        config=header.config,
        seed=header.seed,
        seats=seat_rows(header.roster),
        status="aborted" if termination == Termination.ABORTED.value else "finished",
        winner=outcome.winner if outcome else None,
        termination=termination,
        days=usage.days,
        events=usage.events,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        cached_tokens=usage.cached_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        started_at=header.started_at,
        updated_at=now,
        finished_at=now,
        log_path=None if log_path is None else str(Path(log_path).resolve()),
        tournament=tournament,
        tournament_slot=slot,
        parent=parent,
        parent_event=parent_event,
    )
