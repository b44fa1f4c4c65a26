"""The progress bar of every long command (simulate, replay, export, tournament, train): a rich
bar on a terminal, redrawn only when work is reported (no refresh thread, so worker processes
can be forked while it is shown); piped, a plain line on stderr every few seconds instead, so a
long step is never silent."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from duskfall.core.redaction import redact
from duskfall.core.terminal import printable

PIPED_EVERY = 5.0  # seconds between two progress lines when the output is not a terminal
# seconds before the first one: a command that fails at its start (a model that cannot be
# reached) still says so in one line
PIPED_FIRST = 15.0


class Bar:
    """One shown bar: call it with a number of steps, or :meth:`update` it."""

    def __init__(self, progress: Progress | None, task: TaskID, piped: PipedLines | None) -> None:
        self._progress = progress
        self._task = task
        self._piped = piped

    def __call__(self, steps: int) -> None:
        if self._piped is not None:
            self._piped.advance(steps)
        elif self._progress is not None:
            self._progress.advance(self._task, steps)
            self._progress.refresh()

    def update(
        self, *, completed: float | None = None, description: str | None = None, note: str = ""
    ) -> None:
        """Set how far the work is, the bar's label, and the note shown after the bar."""
        if self._piped is not None:
            self._piped.update(completed, description, note)
            return
        if self._progress is None:
            return
        fields: dict[str, Any] = {"note": note}
        if completed is not None:
            fields["completed"] = completed
        if description is not None:
            fields["description"] = description
        self._progress.update(self._task, **fields)
        self._progress.refresh()


class PipedLines:
    """Progress as plain lines on stderr (``name: 30/300 (10%), 12 s``), one every
    :data:`PIPED_EVERY` seconds while it is open, the first after :data:`PIPED_FIRST` (a step
    that reports nothing for a while, such as a schedule being built, still shows it is
    alive). ``still``: the work has no measure (``name: still running, 12 s``)."""

    def __init__(self, description: str, total: float, steps: bool, still: bool = False) -> None:
        self.description = description
        self.total = total
        self.steps = steps
        self.still = still
        self.completed = 0.0
        self.note = ""
        self.start = time.monotonic()
        self.shown = self.start + PIPED_FIRST - PIPED_EVERY  # the first line after PIPED_FIRST
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> PipedLines:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _tick(self) -> None:
        while not self._stop.wait(PIPED_EVERY / 5):
            now = time.monotonic()
            if now - self.shown >= PIPED_EVERY:
                self.shown = now
                self.show(now)

    def advance(self, steps: float) -> None:
        self.update(self.completed + steps, None, self.note)

    def update(self, completed: float | None, description: str | None, note: str) -> None:
        if completed is not None:
            self.completed = completed
        if description is not None:
            self.description = description
        self.note = note
        now = time.monotonic()
        if now - self.shown >= PIPED_EVERY:
            self.shown = now
            self.show(now)

    def show(self, now: float) -> None:
        if self.still:
            done = "still running"
        elif self.steps and self.total > 1:
            done = f"{self.completed:,.0f}/{self.total:,.0f} ({self.completed / self.total:.0%})"
        elif self.steps:
            done = f"{self.completed:.0%}"
        else:
            done = f"{self.completed:,.0f} of {self.total:,.0f} s"
        note = f", {self.note}" if self.note else ""
        self.line(f"{self.description}: {done}{note}", now)

    def line(self, text: str, now: float) -> None:
        """Print ``text`` with the time spent so far."""
        line = printable(redact(f"{text}, {now - self.start:,.0f} s"), one_line=True) + "\n"
        with self._lock:
            try:
                sys.stderr.write(line)
                sys.stderr.flush()
            except (OSError, ValueError):
                pass


@contextmanager
def progress_bar(
    console: Console, description: str, total: float, *, steps: bool = True, keep: bool = False
) -> Iterator[Bar]:
    """Show a bar of ``total`` while the block runs (piped: a line every few seconds).

    ``steps``: the total counts steps (shown as done/total with the time left); otherwise it is
    seconds of a time budget (shown with the time elapsed). ``keep`` leaves the bar on screen
    when the work is done.
    """
    if not console.is_terminal:
        with PipedLines(description, total, steps) as lines:
            yield Bar(None, TaskID(0), lines)
        return
    counting: list[str | ProgressColumn] = (
        [MofNCompleteColumn(), TimeRemainingColumn()] if steps else [TimeElapsedColumn()]
    )
    with Progress(
        # labels and notes name tournaments, agents and files: text, never markup
        TextColumn("{task.description}", style="progress.description", markup=False),
        BarColumn(),
        *counting,
        TextColumn("{task.fields[note]}", markup=False),
        console=console,
        transient=not keep,
        auto_refresh=False,
    ) as progress:
        yield Bar(progress, progress.add_task(description, total=total, note=""), None)


@contextmanager
def working(console: Console, description: str) -> Iterator[None]:
    """Say that a step of unknown length is running: a spinner with the time spent on a
    terminal; piped, a line on stderr every :data:`PIPED_EVERY` seconds (none for a quick one)."""
    if console.is_terminal:
        with Progress(
            SpinnerColumn(),
            "[progress.description]{task.description}",
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            progress.add_task(description, total=None)
            yield
        return
    with PipedLines(description, 0, steps=False, still=True):
        yield
