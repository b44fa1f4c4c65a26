"""How a spectator sees a game-master game's events (the audit's findings, phases, outs):
the GM mode's :class:`~duskfall.core.spectator.Spectator`, as a variant declares its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.spectator import Payload, Spectator, mark
from duskfall.gm import event_kinds as kinds

GM_VARIANT = "gm"  # the variant id a GM game's log header names


def _audit(p: Payload) -> str:
    if p["rule"] == "unmapped":
        return f"audit, step {p['step']}: not checked ({p['detail']})"
    return f"audit, step {p['step']}: the GM broke {p['rule']} ({p['detail']})"


_LINES: dict[str, Callable[[Payload], str]] = {
    kinds.GM_AUDIT: _audit,
    kinds.PHASE: lambda p: f"phase: {p['name']}",
    kinds.OUT: lambda p: f"{p['player']} is out",
}


class GMSpectator(Spectator):
    def line(self, event: Event, names: Mapping[int, str] | None = None) -> str | None:
        render = _LINES.get(event.kind)
        return render(event.payload) if render is not None else None

    def marks(self, event: Event) -> list[dict[str, Any]]:
        """A player the GM announced out (games recorded before outs named a seat: none)."""
        if event.kind == kinds.OUT:
            return mark(event.payload.get("seat"), "dead", f"{event.payload['player']} is out")
        return []


SPECTATOR = GMSpectator()
