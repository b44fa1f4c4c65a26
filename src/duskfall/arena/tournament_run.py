"""One run of a tournament's driver: which games to start next, and what to do with each game
that comes back (:mod:`duskfall.arena.driver`'s plan and sink).

What to start: the missing slots in schedule order, a slot to play again first; nothing once
a budget is used up; no game of an entrant whose own budget is; bot games several to a task
(a task costs a round trip, a bot game a few milliseconds), model games one to a task; and
nothing past a planned look (:class:`Looks`) until the games in flight are in and the look
says to go on.

What comes back: played games are written (:class:`~duskfall.arena.recording.RecordWriter`)
and their slots marked played, once (a slot played twice, say a task given up for lost that
came back after all, is written the first time only); failed tries are recorded with their
reason and cost, and the last one marks the slot failed. Several slots given up in a row
(none played between: a cause that every game meets) stop the run, with the reason.
"""

from __future__ import annotations

import math
import os
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from duskfall.arena.game_job import GameJob, GameResult, SlotFailure
from duskfall.arena.recording import RecordWriter
from duskfall.arena.seed_release import DealReleases
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.usage import Usage
from duskfall.store.slots import SlotTable

GIVE_UP_AFTER = 5  # slots given up in a row (none played between) that stop the run
VARIABLE = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")  # OPENAI_API_KEY, DUSKFALL_LLM_CONFIG


@dataclass
class Spending:
    """Model usage so far, in total and per entrant."""

    total: Usage = field(default_factory=Usage)
    by_entrant: dict[str, Usage] = field(default_factory=dict)

    def add(self, usage_by_entrant: dict[str, Usage]) -> None:
        for name, usage in usage_by_entrant.items():
            self.total += usage
            self.by_entrant[name] = self.by_entrant.get(name, Usage()) + usage

    def add_unattributed(self, usage: Usage) -> None:
        """Usage of no one entrant in particular (a game thrown away): in the total only."""
        self.total += usage


@dataclass
class RunEvent:
    """Progress of a run, after each finished game."""

    done: int
    total: int
    tokens: int
    cost_usd: float
    result: GameResult | None = None


@dataclass
class RunSummary:
    """What one ``run``/``resume`` did."""

    played: int = 0
    failed: list[str] = field(default_factory=list)  # slots given up: "slot N: reason"
    retried: int = 0  # failed tries that were played again
    stopped_by: str | None = None  # the budget (or look) that stopped scheduling, if any
    seconds: float = 0.0
    spending: Spending = field(default_factory=Spending)
    lost_before: int = 0  # games in flight when the previous driver stopped (played again)
    interrupted: bool = False


@dataclass(frozen=True)
class Looks:
    """Planned looks at the games so far (a stopping rule's): once ``at[i]`` games are
    recorded (and none is in flight), ``decide(recorded)`` says why to stop, or None to go
    on. Starting games holds at each planned count, so a look sees exactly that many games
    (fewer only if slots failed for good)."""

    at: Sequence[int]
    decide: Callable[[int], str | None]


class TournamentRun:
    """The plan and the sink of one run of a tournament's driver."""

    def __init__(
        self,
        config: TournamentConfig,
        jobs: Sequence[GameJob],
        *,
        record: RecordWriter,
        slots: SlotTable,
        driver: str,
        summary: RunSummary,
        done: int,
        games_per_task: int,
        progress: Callable[[RunEvent], None] | None = None,
        looks: Looks | None = None,
        releases: DealReleases | None = None,
    ) -> None:
        self.config = config
        self.releases = releases
        self.queue: deque[GameJob] = deque(jobs)
        self.record = record
        self.slots = slots
        self.driver = driver
        self.summary = summary
        self.recorded = done  # games of the tournament in the index
        self.in_flight = 0
        self.games_per_task = games_per_task
        self.progress = progress
        self.looks = looks
        self._next_look = 0
        self._written: set[int] = set()
        self._given_up_in_a_row = 0
        self.declared: set[str] = set()  # variables sent to workers (--env)

    # -- plan ----------------------------------------------------------------------------

    def take(self, idle: bool) -> list[GameJob] | None:
        if not self.queue or self.summary.stopped_by is not None:
            return None
        if self._looking(idle):
            return None
        self.summary.stopped_by = budget_stop(self.config, self.summary.spending)
        if self.summary.stopped_by is not None:
            return None
        exhausted = exhausted_entrants(self.config, self.summary.spending)
        playable = [job for job in self.queue if not exhausted & set(job.seats)]
        if not playable:
            self.summary.stopped_by = "per-entrant budget reached by " + ", ".join(
                sorted(exhausted)
            )
            return None
        batch = playable[: self._batch_size(len(playable))]
        batch = batch[: self._room_before_look()]
        for job in batch:
            self.queue.remove(job)
        self.in_flight += len(batch)
        self.slots.running(self.config.name, (job.slot for job in batch), self.driver)
        return batch

    def _batch_size(self, playable: int) -> int:
        """Bot games: enough a task to amortise its round trip, small enough that the last
        tasks end together; one game a task otherwise."""
        if self.games_per_task <= 1:
            return 1
        return max(1, min(self.games_per_task, math.ceil(playable / 8)))

    def _room_before_look(self) -> int:
        if self.looks is None or self._next_look >= len(self.looks.at):
            return len(self.queue)
        return max(0, self.looks.at[self._next_look] - self.recorded - self.in_flight)

    def _looking(self, idle: bool) -> bool:
        """Whether starting holds for a planned look (which runs here once all is in)."""
        looks = self.looks
        while looks is not None and self._next_look < len(looks.at):
            due = looks.at[self._next_look]
            if self.recorded + self.in_flight < due:
                return False
            if not idle:
                return True
            self._next_look += 1
            reason = looks.decide(self.recorded)
            if reason is not None:
                self.summary.stopped_by = reason
                return True
        return False

    def again(self, job: GameJob) -> None:
        self.queue.appendleft(job)

    # -- sink ----------------------------------------------------------------------------

    def played(self, results: list[GameResult]) -> None:
        self.in_flight -= len(results)
        fresh = [r for r in results if r.slot not in self._written]
        self.record.write(fresh)
        self.slots.played(
            self.config.name, [(r.slot, r.game_id, r.node, r.fallbacks) for r in fresh]
        )
        if self.releases is not None:  # a deal whose last game this is: its seed is public now
            self.releases.ended(r.slot for r in fresh)
        self._given_up_in_a_row = 0
        for result in fresh:
            self._written.add(result.slot)
            self.recorded += 1
            self.summary.played += 1
            self.summary.spending.add(result.usage)
            if self.progress is not None:
                spent = self.summary.spending.total
                self.progress(
                    RunEvent(
                        self.recorded,
                        self.config.total_games,
                        spent.total_tokens,
                        spent.cost_usd,
                        result,
                    )
                )

    def failed(self, job: GameJob, failure: SlotFailure, final: bool) -> None:
        self.in_flight -= 1
        self.summary.spending.add_unattributed(failure.usage)
        self.record.write_files(failure.files)
        self.slots.attempt_failed(
            self.config.name,
            job.slot,
            failure.reason,
            failure.node or None,
            failure.usage,
            final=final,
        )
        if not final:
            self.summary.retried += 1
            return
        reason = failure.reason + undeclared_hint(failure.reason, self.declared)
        self.summary.failed.append(f"slot {job.slot}: {reason}")
        self._given_up_in_a_row += 1
        if self._given_up_in_a_row >= GIVE_UP_AFTER and self.summary.stopped_by is None:
            self.summary.stopped_by = (
                f"{GIVE_UP_AFTER} games in a row could not be played (last: {reason})"
            )


def undeclared_hint(reason: str, declared: set[str]) -> str:
    """A hint for a failure that names a variable this shell has but the workers were not
    sent (they do not see the driver's environment), else nothing."""
    for name in sorted(set(VARIABLE.findall(reason)) - declared):
        if name in os.environ:
            return f" ({name} is set in the driver's shell: --env {name} sends it to workers)"
    return ""


def budget_stop(config: TournamentConfig, spending: Spending) -> str | None:
    """The budget that is used up (no new game should start), or None."""
    budget = config.budget
    total = spending.total
    if budget.max_cost_usd is not None and total.cost_usd >= budget.max_cost_usd:
        return f"max_cost_usd {budget.max_cost_usd:g} reached (${total.cost_usd:.4f})"
    if budget.max_tokens is not None and total.total_tokens >= budget.max_tokens:
        return f"max_tokens {budget.max_tokens} reached ({total.total_tokens})"
    return None


def exhausted_entrants(config: TournamentConfig, spending: Spending) -> set[str]:
    """Entrants whose own budget is used up: their games are not started."""
    budget = config.budget
    out = set()
    for name, usage in spending.by_entrant.items():
        if (
            budget.per_entrant_max_cost_usd is not None
            and usage.cost_usd >= budget.per_entrant_max_cost_usd
        ) or (
            budget.per_entrant_max_tokens is not None
            and usage.total_tokens >= budget.per_entrant_max_tokens
        ):
            out.add(name)
    return out
