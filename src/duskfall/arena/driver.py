"""The driver loop shared by tournaments and ``simulate``: keep a backend busy with batches of
games, hand each finished batch back, stop starting new ones when told.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from duskfall.arena.backends import Backend
from duskfall.arena.game_job import GameJob, GameResult


def drive(
    runner: Backend,
    next_batch: Callable[[], Sequence[GameJob] | None],
    on_results: Callable[[list[GameResult]], None],
    on_failure: Callable[[BaseException], None],
) -> None:
    """Start batches from ``next_batch`` while ``runner`` has room, until it returns None (no
    more: the games left, a budget, a failure); then wait for the batches in flight. An empty
    batch means "nothing to start until a batch in flight ends" (a tournament's planned look
    waits for the games before it).

    ``on_results`` gets every finished batch's games; ``on_failure`` every failed batch's
    exception (it may raise it, which stops the run at once).
    """
    in_flight = 0
    starting = True
    while True:
        while starting and in_flight < runner.capacity:
            batch = next_batch()
            if batch is None:
                starting = False
                break
            if not batch:
                break
            runner.start(batch)
            in_flight += 1
        if in_flight == 0:
            return
        for finished in runner.wait():
            in_flight -= 1
            if isinstance(finished, BaseException):
                on_failure(finished)
            else:
                on_results(finished)
