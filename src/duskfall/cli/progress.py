"""The progress bar of every long command (simulate, replay): a rich bar on the console,
redrawn only when work is reported (no refresh thread, so worker processes can be forked
while it is shown) and gone when the work is done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn


@contextmanager
def progress_bar(console: Console, description: str, total: int) -> Iterator[Callable[[int], None]]:
    """Show a bar of ``total`` steps while the block runs; yields ``advance(steps)``."""
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        auto_refresh=False,
    ) as progress:
        task = progress.add_task(description, total=total)

        def advance(steps: int) -> None:
            progress.advance(task, steps)
            progress.refresh()

        yield advance
