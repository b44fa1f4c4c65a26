"""The progress bar of every long command (simulate, replay, tournament, train): a rich bar on
the console, redrawn only when work is reported (no refresh thread, so worker processes can be
forked while it is shown)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class Bar:
    """One shown bar: call it with a number of steps, or :meth:`update` it."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress = progress
        self._task = task

    def __call__(self, steps: int) -> None:
        self._progress.advance(self._task, steps)
        self._progress.refresh()

    def update(
        self, *, completed: float | None = None, description: str | None = None, note: str = ""
    ) -> None:
        """Set how far the work is, the bar's label, and the note shown after the bar."""
        fields: dict[str, Any] = {"note": note}
        if completed is not None:
            fields["completed"] = completed
        if description is not None:
            fields["description"] = description
        self._progress.update(self._task, **fields)
        self._progress.refresh()


@contextmanager
def progress_bar(
    console: Console, description: str, total: float, *, steps: bool = True, keep: bool = False
) -> Iterator[Bar]:
    """Show a bar of ``total`` while the block runs.

    ``steps``: the total counts steps (shown as done/total with the time left); otherwise it is
    seconds of a time budget (shown with the time elapsed). ``keep`` leaves the bar on screen
    when the work is done.
    """
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
        yield Bar(progress, progress.add_task(description, total=total, note=""))
