"""Terminal consoles that never show a secret: every line passes through ``redact``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console, ConsoleRenderable, RenderHook
from rich.text import Text

from duskfall.core.redaction import redact


class Redactor(RenderHook):
    """Masks secrets (:func:`~duskfall.core.redaction.redact`) in the text a console prints."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_redacted(r) for r in renderables]


def _redacted(renderable: ConsoleRenderable) -> ConsoleRenderable:
    if not isinstance(renderable, Text):
        return renderable
    plain = redact(renderable.plain)
    if plain == renderable.plain:
        return renderable
    return Text(plain, style=renderable.style, end=renderable.end)  # styling spans dropped


def safe_console(**options: Any) -> Console:
    """A rich :class:`Console` (same ``options``) whose printed text is redacted."""
    console = Console(**options)
    console.push_render_hook(Redactor())
    return console


def announcer(console: Console) -> Callable[[str], None]:
    """Prints what a slow step (loading a model) is doing, as a dim line on ``console``."""

    def announce(text: str) -> None:
        console.print(text, style="dim", markup=False, highlight=False)

    return announce
