"""The coordinator's memory, rebuilt from events: chat, secret queues, notebook, counters.

Every change goes through an :class:`~duskfall.core.Event` and :meth:`GMState.apply`, so a
game resumed from its log has exactly the state it had when the log was written.

Event kinds (all ``source="gm"``):

====================  ===========  ==========================================================
kind                  visibility   payload
====================  ===========  ==========================================================
``gm_start``          public       card, title, language, players
``step``              admin        step
``llm_call``          admin        role (gm/player), step, seat, model, messages, reply,
                                   error, tokens, cost (:func:`duskfall.llm.calls.llm_call_event`)
``gm_rejected``       admin        step, reason, failures (in a row)
``gm_instruction``    admin        step, turn, private, secrets (names), game_over
``chat``              public       step, role (gm/player/system), speaker, text
``secret``            seats:i      step, player, text
``turn``              public       step, player, private
``player_silent``     admin        step, player, reason
``private_reply``     seats:i      step, player, text
``paused``            admin        step
``stopped``           admin        step, reason (the full reason of an abort)
``game_over``         public       winner, termination, reason, steps, by
====================  ===========  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.gm.chat import ChatMessage

SOURCE = "gm"


@dataclass(frozen=True, slots=True)
class Note:
    """One line of private traffic: a secret sent to a player, or a player's private answer."""

    direction: Literal["sent", "received"]
    player: str
    text: str


@dataclass(slots=True)
class Tokens:
    """Tokens and cost spent by one side (the GM, or all players)."""

    prompt: int = 0
    completion: int = 0
    cost_usd: float = 0.0
    calls: int = 0

    def add(self, usage: dict[str, Any]) -> None:
        self.prompt += int(usage.get("prompt_tokens", 0))
        self.completion += int(usage.get("completion_tokens", 0))
        self.cost_usd += float(usage.get("cost_usd", 0.0))
        self.calls += 1


@dataclass
class GMState:
    """Everything the coordinator knows; see the module docstring for the events."""

    players: list[str]
    chat: list[ChatMessage] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    step: int = -1
    failures: int = 0
    last_problem: str | None = None
    started: bool = False
    outcome: Outcome | None = None
    ended_by: str = ""
    gm_tokens: Tokens = field(default_factory=Tokens)
    player_tokens: Tokens = field(default_factory=Tokens)

    def secrets_of(self, player: str) -> list[Note]:
        """What ``player`` alone knows: secrets sent to it and its own private answers."""
        return [note for note in self.notes if note.player == player]

    def apply(self, event: Event) -> None:
        payload = event.payload
        kind = event.kind
        if kind == "gm_start":
            self.started = True
        elif kind == "step":
            self.step = int(payload["step"])
        elif kind == "chat":
            self.chat.append(
                ChatMessage(payload["role"], payload["text"], payload.get("speaker", ""))
            )
        elif kind == "secret":
            self.notes.append(Note("sent", payload["player"], payload["text"]))
        elif kind == "private_reply":
            self.notes.append(Note("received", payload["player"], payload["text"]))
        elif kind == "gm_rejected":
            self.failures = int(payload["failures"])
            self.last_problem = str(payload["reason"])
        elif kind == "gm_instruction":
            self.failures = 0
            self.last_problem = None
        elif kind == "llm_call":
            side = self.gm_tokens if payload.get("role") == "gm" else self.player_tokens
            side.add(payload)
        elif kind == "game_over":
            self.outcome = Outcome.from_dict(payload)
            self.ended_by = str(payload.get("by", ""))

    @classmethod
    def from_events(cls, players: list[str], events: list[Event]) -> GMState:
        """The state after ``events`` (a resumed game's log)."""
        state = cls(players)
        for event in events:
            state.apply(event)
        return state
