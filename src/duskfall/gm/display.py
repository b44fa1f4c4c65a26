"""A GM game in the terminal: one line per event worth showing, with or without secrets."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.gm import event_kinds as kinds
from duskfall.gm.chat import ChatMessage
from duskfall.gm.texts import Texts

log = logging.getLogger(__name__)

Line = tuple[str, str]  # text, rich style


def describe(event: Event, texts: Texts, *, show_secrets: bool) -> Line | None:
    """The terminal line of ``event``, or None. Secrets are shown only with ``show_secrets``."""
    payload = event.payload
    kind = event.kind
    if kind == kinds.CHAT:
        message = ChatMessage(payload["role"], payload["text"], payload.get("speaker", ""))
        style = {"gm": "bold", "player": "", "system": "dim"}[message.role]
        return message.line(texts), style
    if kind == kinds.SECRET and show_secrets:
        return f"   🔒 -> {payload['player']}: {payload['text']}", "magenta"
    if kind == kinds.PRIVATE_REPLY and show_secrets:
        return f"   🔒 <- {payload['player']}: {payload['text']}", "magenta"
    if kind == kinds.GM_REJECTED:
        return f"   ! GM reply refused ({payload['failures']}): {payload['reason']}", "yellow"
    if kind == kinds.PLAYER_SILENT:
        return f"   ! {payload['player']} is silent: {payload['reason']}", "yellow"
    if kind == kinds.STOPPED:
        return f"stopped: {payload['reason']}", "bold red"
    if kind == kinds.GAME_OVER:
        steps = payload["steps"]
        return (
            f"game over after {steps} step{'s' * (steps != 1)}: {payload['reason']}",
            "bold green",
        )
    return None


@dataclass
class TerminalView:
    """An observer that prints a game as it happens."""

    console: Console
    texts: Texts
    show_secrets: bool = True

    def on_event(self, event: Event) -> None:
        """Print the event's line (as text, never markup); a line that cannot be shown is left
        out with a warning: what a display does never ends a game."""
        try:
            line = describe(event, self.texts, show_secrets=self.show_secrets)
            if line is not None:
                self.console.print(Text(line[0], style=line[1]))
        except Exception as exc:
            log.warning("event %s (%s) could not be shown: %r", event.seq, event.kind, exc)

    def on_phase_end(self) -> None:
        return None

    def on_game_end(self, outcome: Outcome | None) -> None:
        return None
