"""Terminal consoles that never show a secret nor obey a control sequence in what they print:
every piece of text passes through ``redact`` and ``printable``
(:mod:`duskfall.core.terminal`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from duskfall.core.terminal import guarded_console


def safe_console(**options: Any) -> Console:
    """A rich :class:`Console` (same ``options``) whose printed text is redacted and printable."""
    return guarded_console(**options)


def announcer(console: Console) -> Callable[[str], None]:
    """Prints what a slow step (loading a model) is doing, as a dim line on ``console``."""

    def announce(text: str) -> None:
        console.print(text, style="dim", markup=False, highlight=False)

    return announce


class PlainTable(Table):
    """A rich table whose text cells (and title and caption) are shown as written: names of
    entrants, agents, cards and games, never markup (``Table`` parses a ``str`` cell)."""

    def __init__(self, *headers: Any, title: str | None = None, caption: str | None = None,
                 **options: Any) -> None:  # fmt: skip
        super().__init__(
            *headers,
            title=None if title is None else Text(title),
            caption=None if caption is None else Text(caption),
            **options,
        )

    def add_row(self, *renderables: RenderableType | None, **options: Any) -> None:
        cells = [Text(cell) if isinstance(cell, str) else cell for cell in renderables]
        super().add_row(*cells, **options)
