"""What each seat hears of its game: the rules events it may see, GAME_OVER, state updates.

:class:`WireObserver` follows a game's record. A ``rules`` event goes to every connected seat
for which ``visible_to(event, seat, state.channels(seat))`` holds, as
``{"type": "GAME_EVENT", "event": kind, **payload}``; the runtime's ``game_over`` becomes
``GAME_OVER`` with the winner, for everyone. After the actions of each step, seats that did not
act and are not being asked get an ``ACTION_REQUEST`` with empty ``valid_actions`` carrying
their fresh observation (the reference server's state update; clients do not answer it), or,
for a client that asked for ``changes`` in its HELLO, only the observation fields that changed
since it was last sent one (``"partial": true``; nothing when nothing changed), or nothing
(``off``). Each seat's observation is built once per update and encoded field by field through
the game's :class:`~duskfall.protocol.observations.ObservationFrames`, so the public table,
the same for every seat, is encoded once.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import PUBLIC, Event, visible_to
from duskfall.core.outcome import Outcome
from duskfall.core.variant import State
from duskfall.protocol.messages import action_request
from duskfall.protocol.observations import Field, ObservationFrames, SharedFields
from duskfall.server.remote_seat import RemoteSeat, plain_observation
from duskfall.server.seat_events import event_body

_RESERVED = ("type", "event", "game_id", "seq")


def game_event_message(kind: str, payload: Mapping[str, Any], game_id: str) -> dict[str, Any]:
    """The ``GAME_EVENT`` frame of a rules event (payload fields at the top level)."""
    message: dict[str, Any] = {"type": "GAME_EVENT", "event": kind}
    message.update((k, v) for k, v in payload.items() if k not in _RESERVED)
    message["game_id"] = game_id
    return message


def game_over_message(payload: Mapping[str, Any], game_id: str) -> dict[str, Any]:
    """``GAME_OVER``: the seed's ``winner`` plus ``termination`` and ``reason``."""
    return game_event_message(
        "GAME_OVER",
        {
            "winner": payload.get("winner"),
            "termination": payload.get("termination"),
            "reason": payload.get("reason", ""),
        },
        game_id,
    )


def announce_end(seats: Mapping[int, RemoteSeat], game_id: str, payload: Mapping[str, Any]) -> None:
    """Send every seat the ``GAME_OVER`` of ``payload`` (the game_over event's)."""
    body = event_body(game_over_message(payload, game_id))
    for seat in seats.values():
        seat.send_event(body)


class WireObserver:
    """Forwards a game's events to its remote seats (an observer of the game record);
    ``ended`` once it has sent them ``GAME_OVER``."""

    def __init__(
        self,
        state: State,
        seats: Mapping[int, RemoteSeat],
        game_id: str,
        *,
        state_updates: bool = True,
        frames: ObservationFrames | None = None,
    ) -> None:
        self.state = state
        self.seats = dict(seats)
        self.game_id = game_id
        self.state_updates = state_updates
        self.frames = frames or ObservationFrames()
        # every change of the state comes after an event (the runtime records each action
        # before applying it): between two events, a value shared by the seats' observations
        # is encoded once, for state updates and requests alike
        self.frames.follow_state()
        self._acted: set[int] = set()
        self._update: asyncio.Handle | None = None
        self.ended = False

    def on_event(self, event: Event) -> None:
        self.frames.state_changed()
        if event.source == "rules":
            self._forward(event)
        elif event.kind == kinds.ACTION:
            seat_index = int(event.payload["seat"])
            played, action = self.seats.get(seat_index), event.payload.get("action")
            if played is not None and isinstance(action, dict):
                played.action_played(action, event.payload.get("by", "agent"))
            if self.state_updates:
                self._acted.add(seat_index)
                if self._update is None:
                    self._update = asyncio.get_running_loop().call_soon(self._send_state_updates)
        elif event.kind == kinds.GAME_OVER:
            if self._update is not None:
                self._update.cancel()
                self._update = None
            announce_end(self.seats, self.game_id, event.payload)
            self.ended = True

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        pass

    def _forward(self, event: Event) -> None:
        """Send the event to every seat that may see it, numbered per seat; a seat without a
        connection keeps it for its reconnect."""
        body: bytes | None = None  # encoded once, for every seat that may see it
        everyone = event.visibility == PUBLIC
        by_team = event.visibility.startswith("team:")  # only then do the seat's channels matter
        for index, seat in self.seats.items():
            if not everyone:
                channels = self.state.channels(index) if by_team else ()
                if not visible_to(event, index, channels):
                    continue
            if body is None:
                body = event_body(game_event_message(event.kind, event.payload, self.game_id))
            seat.send_event(body)

    def _send_state_updates(self) -> None:
        self._update = None
        acted, self._acted = self._acted, set()
        state = self.state
        if state.outcome() is not None:
            return
        shared = self.frames.unchanged
        if shared is None:  # one state for every seat: a shared value is encoded once
            shared = {}
        for index, seat in self.seats.items():
            if seat.link is None or seat.waiting or index in acted or seat.state_updates == "off":
                continue
            self._send_state_update(index, seat, shared)

    def _send_state_update(self, index: int, seat: RemoteSeat, shared: SharedFields) -> None:
        """The seat's state update: its whole observation, or the fields that changed."""
        observation = plain_observation(self.state.observe(index))
        frames, phase = self.frames, self.state.phase
        fields = frames.fields(observation, shared)
        shown, seat.shown = seat.shown, fields
        if fields is None:  # not a plain mapping of names: encoded whole
            message = action_request(index, phase, {}, observation, game_id=self.game_id)
            seat.send_state_update(frames.frame(message))
        elif seat.state_updates == "changes" and shown is not None:
            changed = changed_fields(shown, fields)
            if changed:
                update = frames.state_update(index, phase, changed, self.game_id, partial=True)
                seat.send_state_update(update)
        else:
            seat.send_state_update(frames.state_update(index, phase, fields, self.game_id))


def changed_fields(shown: Mapping[str, Field], fields: Mapping[str, Field]) -> dict[str, Field]:
    """The fields of ``fields`` that differ from ``shown`` (a field gone from it reads null)."""
    changed = {
        name: field
        for name, field in fields.items()
        if (old := shown.get(name)) is not field
        and (old is None or field.snapshot is None or old.snapshot != field.snapshot)
    }
    for name in shown.keys() - fields.keys():
        changed[name] = Field(None, f"{json.dumps(name, ensure_ascii=False)}:null")
    return changed
