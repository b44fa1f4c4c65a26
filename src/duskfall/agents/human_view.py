"""What a person at the terminal is shown of their seat: the same facts as an LLM seat's prompt,
formatted for people.

With the variant's prompt kit (:class:`KitView`) each turn shows the events the seat saw since
the person's last decision under their period headers (``Night 1``, ``Day 1``), the seat's
standing when it changed, and the decision's question with its labelled options (never the
answer's JSON fields, nor the raw observation). The end of the game shows the events since the
last decision, older days as digests. A variant without a kit (:class:`PlainView`) is shown
its ``render_view`` (else the observation's fields), its history lines and
``legal.describe()``.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from duskfall.core.prompting import Entry, Period, PromptKit
from duskfall.core.transcript import Section, build_sections, current_day, is_recent
from duskfall.core.variant import Variant

HISTORY_KEYS = ("history", "events", "log")
NOW = "Now"
BULLET = " - "


class SeatView(Protocol):
    """The pieces of a person's screen; each returns what to print."""

    def turn(
        self, obs: Mapping[str, Any], legal: Any, news: Sequence[Entry]
    ) -> list[RenderableType]:
        """A decision: ``news`` (the events not shown yet), the standing, the question."""
        ...

    def again(self, obs: Mapping[str, Any], legal: Any) -> list[RenderableType]:
        """The standing and the question again (the person typed ``?``)."""
        ...

    def ending(self, obs: Mapping[str, Any], news: Sequence[Entry]) -> list[RenderableType]:
        """The end of the game: the events not shown yet."""
        ...


def view_for(variant: Variant) -> SeatView:
    kit = variant.info.prompt_kit
    return KitView(kit) if kit is not None else PlainView(variant)


def header(title: str) -> Text:
    return Text(title, style="bold")


class Bullets:
    """Lines as a bulleted list, wrapped to the terminal's width under their bullet."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, len(BULLET) + 20)
        for line in self.lines:
            wrapped = textwrap.fill(
                line, width, initial_indent=BULLET, subsequent_indent=" " * len(BULLET)
            )
            yield Text(wrapped, no_wrap=True, overflow="ignore")


class KitView:
    """A seat's screen composed from the variant's prompt kit (see the module docstring)."""

    def __init__(self, kit: PromptKit) -> None:
        self.kit = kit
        self._period: Period | None = None  # of the last event shown
        self._standing: str | None = None  # as last shown

    def turn(
        self, obs: Mapping[str, Any], legal: Any, news: Sequence[Entry]
    ) -> list[RenderableType]:
        shown = self._sections(obs, news, digest_old=False)
        standing = self.kit.situation(obs, coaching=False)
        if standing != self._standing:
            shown += self._standing_part(standing)
        return [*shown, self._question(obs, legal)]

    def again(self, obs: Mapping[str, Any], legal: Any) -> list[RenderableType]:
        standing = self._standing_part(self.kit.situation(obs, coaching=False))
        return [*standing, self._question(obs, legal)]

    def ending(self, obs: Mapping[str, Any], news: Sequence[Entry]) -> list[RenderableType]:
        return self._sections(obs, news, digest_old=True)

    def _standing_part(self, standing: str) -> list[RenderableType]:
        self._standing = standing
        return [header(NOW), Text(standing)]

    def _question(self, obs: Mapping[str, Any], legal: Any) -> Text:
        return Text(self.kit.decision(obs, legal, coaching=False).text, style="bold")

    def _sections(
        self, obs: Mapping[str, Any], news: Sequence[Entry], *, digest_old: bool
    ) -> list[RenderableType]:
        """``news`` under their period headers (``continued`` where an earlier turn showed
        the same period); with ``digest_old``, days before the last two as digests."""
        sections = build_sections(self.kit, news, obs)
        day = current_day(sections)
        out: list[RenderableType] = []
        for section in sections:
            if not section.lines:
                continue
            digest = digest_old and not is_recent(section, day)
            out += self._section(section, digest)
        return out

    def _section(self, section: Section, digest: bool) -> list[RenderableType]:
        title = section.period.title
        if digest:
            title += " (digest)"
        elif section.period == self._period:
            title += " (continued)"
        self._period = section.period
        lines = [line.summary if digest else line.text for line in section.lines]
        return [header(title), Bullets(lines)]


class PlainView:
    """A seat's screen for a variant without a prompt kit."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._shown: dict[str, int] = {}

    def turn(
        self, obs: Mapping[str, Any], legal: Any, news: Sequence[Entry]
    ) -> list[RenderableType]:
        return [*self._history(obs), *self.again(obs, legal)]

    def again(self, obs: Mapping[str, Any], legal: Any) -> list[RenderableType]:
        return [Text(self._view(obs)), Text(legal.describe(), style="bold")]

    def ending(self, obs: Mapping[str, Any], news: Sequence[Entry]) -> list[RenderableType]:
        return self._history(obs)

    def _history(self, obs: Mapping[str, Any]) -> list[RenderableType]:
        """The entries of the observation's history not shown yet."""
        for key in HISTORY_KEYS:
            entries = obs.get(key)
            if isinstance(entries, list):
                start, self._shown[key] = self._shown.get(key, 0), len(entries)
                lines = [line for e in entries[start:] if (line := self._line(e, obs))]
                return [Bullets(lines)] if lines else []
        return []

    def _line(self, entry: Any, obs: Mapping[str, Any]) -> str | None:
        render = self.variant.info.format_history_entry
        if render is not None:
            return render(entry, obs)
        return entry if isinstance(entry, str) else json.dumps(entry, default=str)

    def _view(self, obs: Mapping[str, Any]) -> str:
        render = self.variant.info.render_view
        if render is not None:
            return render(obs)
        return "\n".join(
            f"{key}: {value if isinstance(value, str) else json.dumps(value, default=str)}"
            for key, value in obs.items()
            if key not in HISTORY_KEYS
        )
