"""Events and their visibility.

Every event carries a ``visibility``:

* ``public``: every seat sees it;
* ``team:NAME``: seats whose channels include NAME (a team, or a private role chat);
* ``seats:1,4``: exactly those seats;
* ``admin``: no seat (prompts, thoughts, hidden roles); only the god view.

:func:`visible_to` is the one filter used by the server, the web seat view and the agents'
history tools.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

PUBLIC = "public"
ADMIN = "admin"


def team_visibility(team: str) -> str:
    """Visibility for seats on channel ``team``."""
    return f"team:{team}"


def seats_visibility(seats: Iterable[int]) -> str:
    """Visibility for exactly ``seats``."""
    return "seats:" + ",".join(str(s) for s in sorted(set(seats)))


@dataclass(slots=True)
class Event:
    """One thing that happened in a game.

    ``seq`` and ``game_id`` are stamped by the game's event stream when the event is recorded;
    the rules leave them unset. ``source`` is ``rules`` for events the rules produce (replay
    re-derives and checks those) and something else (``runtime``, ``llm``, ``agent``...) for
    events recorded around them (actions, retries, fallbacks, prompts, thoughts).
    """

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    visibility: str = PUBLIC
    day: int = 0
    phase: str = ""
    seq: int = -1
    game_id: str = ""
    source: str = "rules"

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "game_id": self.game_id,
            "day": self.day,
            "phase": self.phase,
            "kind": self.kind,
            "visibility": self.visibility,
            "payload": self.payload,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """An event from :meth:`to_dict`'s form. ``visibility`` is required: an event whose
        audience is unknown is never taken as public (KeyError)."""
        return cls(
            kind=data["kind"],
            payload=data.get("payload", {}),
            visibility=data["visibility"],
            day=data.get("day", 0),
            phase=data.get("phase", ""),
            seq=data.get("seq", -1),
            game_id=data.get("game_id", ""),
            source=data.get("source", "rules"),
        )

    def same_content(self, other: Event) -> bool:
        """Equal apart from ``seq`` and ``game_id``."""
        return (
            self.kind == other.kind
            and self.payload == other.payload
            and self.visibility == other.visibility
            and self.day == other.day
            and self.phase == other.phase
            and self.source == other.source
        )


def visible_to(event: Event, seat: int | None, channels: Collection[str] = ()) -> bool:
    """Whether ``seat`` (with its ``channels``) may see ``event``; ``seat=None`` is the god view."""
    vis = event.visibility
    if seat is None:
        return True
    if vis == PUBLIC:
        return True
    if vis == ADMIN:
        return False
    scope, _, rest = vis.partition(":")
    if scope == "team":
        return rest in channels
    if scope == "seats":
        return rest != "" and str(seat) in rest.split(",")
    raise ValueError(f"unknown visibility {vis!r}")
