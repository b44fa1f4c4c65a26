"""The coordinator's memory, rebuilt from events: chat, secret queues, notebook, counters.

Every change goes through an :class:`~duskfall.core.Event` and :meth:`GMState.apply`, so a
game resumed from its log has exactly the state it had when the log was written.

Event kinds (all ``source="gm"``; constants in :mod:`duskfall.gm.event_kinds`):

====================  ===========  ==========================================================
kind                  visibility   payload
====================  ===========  ==========================================================
``gm_start``          public       card, title, language, players
``step``              admin        step
``llm_call``          admin        role (gm/player), step, seat, model, messages, reply,
                                   error, tokens, cost (:func:`duskfall.llm.calls.llm_call_event`;
                                   :attr:`GMState.gm_tokens` / ``player_tokens`` total them)
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
``deal``              admin        roles (player -> role; a card with a skeleton)
``phase``             public       step, round, phase (index), name
``out``               public       step, player (announced out by the GM)
``gm_audit``          admin        step, rule, detail (a rule the GM broke; see gm.audit)
====================  ===========  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.core.usage import Tally, Usage
from duskfall.gm import event_kinds as kinds
from duskfall.gm.chat import ChatMessage

SOURCE = "gm"


@dataclass(frozen=True, slots=True)
class Note:
    """One line of private traffic: a secret sent to a player, or a player's private answer."""

    direction: Literal["sent", "received"]
    player: str
    text: str


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
    gm_tokens: Tally = field(default_factory=Tally)
    player_tokens: Tally = field(default_factory=Tally)
    roles: dict[str, str] = field(default_factory=dict)
    round: int = 0
    phase: int = -1
    acted: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    opening: bool = False  # a phase has opened and the GM has not yet been heard in it
    out_now: list[str] = field(default_factory=list)  # announced out in the current phase
    audit_flags: int = 0

    def secrets_of(self, player: str) -> list[Note]:
        """What ``player`` alone knows: secrets sent to it and its own private answers."""
        return [note for note in self.notes if note.player == player]

    def apply(self, event: Event) -> None:
        payload = event.payload
        kind = event.kind
        if kind == kinds.GM_START:
            self.started = True
        elif kind == kinds.STEP:
            self.step = int(payload["step"])
        elif kind == kinds.CHAT:
            self.chat.append(
                ChatMessage(payload["role"], payload["text"], payload.get("speaker", ""))
            )
        elif kind == kinds.TURN:
            self.acted.append(payload["player"])
        elif kind == kinds.DEAL:
            self.roles = dict(payload["roles"])
        elif kind == kinds.PHASE:
            self.round, self.phase, self.acted = int(payload["round"]), int(payload["phase"]), []
            self.opening, self.out_now = True, []
        elif kind == kinds.OUT:
            self.out.append(payload["player"])
            self.out_now.append(payload["player"])
        elif kind == kinds.GM_AUDIT and payload["rule"] != kinds.UNMAPPED:  # notes: no breaks
            self.audit_flags += 1
        elif kind == kinds.SECRET:
            self.notes.append(Note("sent", payload["player"], payload["text"]))
        elif kind == kinds.PRIVATE_REPLY:
            self.notes.append(Note("received", payload["player"], payload["text"]))
        elif kind == kinds.GM_REJECTED:
            self.failures = int(payload["failures"])
            self.last_problem = str(payload["reason"])
        elif kind == kinds.GM_INSTRUCTION:
            self.opening = False
            self.failures = 0
            self.last_problem = None
        elif kind == kinds.LLM_CALL:
            side = self.gm_tokens if payload.get("role") == "gm" else self.player_tokens
            side.add(Usage.from_payload(payload))
        elif kind == kinds.GAME_OVER:
            self.outcome = Outcome.from_dict(payload)
            self.ended_by = str(payload.get("by", ""))

    @classmethod
    def from_events(cls, players: list[str], events: list[Event]) -> GMState:
        """The state after ``events`` (a resumed game's log)."""
        state = cls(players)
        for event in events:
            state.apply(event)
        return state
