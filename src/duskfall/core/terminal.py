"""The one sanitiser of untrusted text on terminals: control characters and rich markup are
shown, not obeyed.

A model's reply, a client's speech or HELLO name, a GM player's words, a log's text: any of
them may hold terminal escape sequences (``ESC[2J`` clears the screen, ``ESC]0;...BEL``
retitles the window, an 8-bit ``CSI``, a carriage return that overwrites the line) or Unicode
direction overrides that make a line read as another. :func:`printable` shows every such
character escaped (``\\x1b``, ``\\x9b``, ``\\u202e``): C0 controls but the newline and tab,
DEL, C1 controls, and the bidirectional embeddings, overrides, isolates and marks.

Rich markup (``[bold]``, ``[/]``, ``[link=URL]``) is parsed before any hook sees the text, so
untrusted text placed in a line that holds markup goes through :func:`plain` (printable, then
every ``[`` that could open a tag escaped): a speech ``oops [/bold]`` prints as said instead of
raising ``MarkupError``, ``[link=...]`` never becomes a hyperlink. Lines without markup of
their own are printed with ``markup=False`` or as :class:`~rich.text.Text`; and should a line
still fail to parse, the guarded console prints it literally rather than fail (a display never
ends a game).

Every terminal duskfall writes to goes through it: :func:`guarded_console` is a rich
``Console`` whose render hook (:class:`TerminalGuard`) masks secrets
(:func:`~duskfall.core.redaction.redact`) and makes every piece of text it prints printable
(``duskfall.cli.console.safe_console`` is this console; a person's seat at the terminal uses
it too). Text printed as JSON goes through :func:`printable_json` instead, which keeps it
valid JSON, and log records (a server's error quoted by a client) through
:class:`PrintableFormatter`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.errors import MarkupError
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from duskfall.core.redaction import redact

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")
_UNSAFE_IN_JSON = re.compile(f"[\x7f-\x9f{_BIDI}]")  # JSON escapes C0 itself


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control character escaped (``ESC`` -> ``\\x1b``); with
    ``one_line``, newlines and tabs too (a name, a table cell)."""
    pattern = _UNSAFE_ONE_LINE if one_line else _UNSAFE
    return pattern.sub(_escaped, text)


def plain(text: object, *, one_line: bool = False) -> str:
    """Untrusted ``text`` for a line of rich markup: :func:`printable`, with markup escaped
    (``[red]`` prints as ``[red]``); ``one_line`` as for :func:`printable`."""
    return escape(printable(str(text), one_line=one_line))


def printable_json(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with the characters JSON does
    not escape itself but a terminal obeys (DEL, C1, direction controls) written as
    ``\\u00XX``: still the same JSON."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _PrintableSegments:
    """A renderable rendered as it would be, with the text of every segment made printable
    (rich's own styles and cursor controls are not text, so they pass)."""

    def __init__(self, renderable: ConsoleRenderable) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or not _UNSAFE.search(segment.text):
                yield segment
            else:
                yield Segment(printable(redact(segment.text)), segment.style)


class TerminalGuard(RenderHook):
    """A console's render hook: secrets masked and control characters shown escaped in all
    it prints (a text before it is laid out; anything else, a table, segment by segment)."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_guarded(r) for r in renderables]


def _guarded(renderable: ConsoleRenderable) -> ConsoleRenderable:
    if not isinstance(renderable, Text):
        return _PrintableSegments(renderable)
    plain = renderable.plain
    safe = printable(redact(plain))
    if safe == plain:
        return renderable
    return Text(safe, style=renderable.style, end=renderable.end)  # styling spans dropped


class GuardedConsole(Console):
    """A rich :class:`Console` that prints a line whose markup does not parse as it is, instead
    of raising :class:`~rich.errors.MarkupError` (text that should have gone through
    :func:`plain` never stops what prints it)."""

    def print(self, *objects: Any, **options: Any) -> None:
        try:
            super().print(*objects, **options)
        except MarkupError:
            super().print(*objects, **{**options, "markup": False})


def guarded_console(**options: Any) -> Console:
    """A rich :class:`Console` (same ``options``) whose printed text is masked and printable."""
    console = GuardedConsole(**options)
    console.push_render_hook(TerminalGuard())
    return console


class PrintableFormatter(logging.Formatter):
    """Formats log records with secrets masked and control characters shown escaped."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(redact(super().format(record)))


def guard_logging(level: int = logging.WARNING) -> None:
    """Log to stderr through :class:`PrintableFormatter` at ``level`` (once per process; a
    later call only changes the level)."""
    root = logging.getLogger()
    if not any(isinstance(h.formatter, PrintableFormatter) for h in root.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(PrintableFormatter("%(levelname)s:%(name)s:%(message)s"))
        root.addHandler(handler)
    root.setLevel(level)


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
