"""Terminal consoles that never show a secret nor obey a control sequence in what they print:
every piece of text passes through ``redact`` and ``printable``
(:mod:`duskfall.core.terminal`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from duskfall.core.terminal import guarded_console


def safe_console(**options: Any) -> Console:
    """A rich :class:`Console` (same ``options``) whose printed text is redacted and printable."""
    return guarded_console(**options)


def announcer(console: Console) -> Callable[[str], None]:
    """Prints what a slow step (loading a model) is doing, as a dim line on ``console``."""

    def announce(text: str) -> None:
        console.print(text, style="dim", markup=False, highlight=False)

    return announce
