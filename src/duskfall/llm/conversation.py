"""A seat's memory as one growing conversation, so a prefix cache saves what was sent before.

The system prompt is fixed for the game (rules of the roles in play, the seat's role and team,
the output contract, the persona). Each decision adds one user turn (the events the seat was
shown since its previous decision, under their day and night headers, then its standing and the
decision) and, once the model has answered, its answer as an assistant turn. Every call
therefore repeats the previous call and appends to it: provider prefix caches (OpenAI-compatible
servers, Anthropic breakpoints, llama.cpp's KV state) only evaluate the new part.

A refused answer stays in the conversation, followed by a turn giving the reason. When the
conversation would outgrow ``budget_tokens``, it is started again from one turn that holds the
whole history (older days as their digest): never cut silently.

:func:`stateless_messages` is the other memory: one self-contained prompt per decision with the
same complete information.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.prompting import Entry, PromptKit
from duskfall.core.transcript import (
    HISTORY_TITLE,
    Section,
    build_sections,
    render_history,
    render_now,
    render_section,
)
from duskfall.llm.types import Message, approx_tokens

NOTHING_NEW = "Nothing new since your previous decision."
RESTARTED = (
    "(This conversation had grown too long for the model, so it starts again here: the whole "
    "game so far follows, older days as their digest.)"
)
REFUSED = "Your previous answer was refused: {hint} Answer the same decision again."
UNCHANGED = "(Your standing is as shown with your previous decision.)"


def estimate_tokens(messages: Sequence[Message]) -> int:
    """A provider-independent estimate of the tokens ``messages`` take."""
    return sum(approx_tokens(m["content"]) + 4 for m in messages)


@dataclass
class SeatConversation:
    """One seat's conversation (see the module docstring).

    ``system`` builds the fixed system prompt from the seat's first observation; ``count``
    measures messages against ``budget_tokens`` (the model's own count where it has one).
    """

    kit: PromptKit
    system: Callable[[Mapping[str, Any]], str]
    coaching: bool = False
    budget_tokens: int = 100_000
    count: Callable[[Sequence[Message]], int] = estimate_tokens
    turns: list[Message] = field(default_factory=list)
    restarts: int = 0
    _system_text: str | None = None
    _shown: int = 0  # entries already in the conversation
    _last_section: Section | None = None
    _pending: tuple[Message, int, Section | None, str] | None = None
    _last_situation: str | None = None

    def messages(
        self,
        obs: Mapping[str, Any],
        legal: Any,
        entries: Sequence[Entry],
        *,
        hint: str | None = None,
        retry: bool = False,
    ) -> list[Message]:
        """The messages for this call; :meth:`answered` then keeps the model's answer."""
        if self._system_text is None:
            self._system_text = self.system(obs)
        system: Message = {"role": "system", "content": self._system_text}
        if retry and hint and self.turns and self.turns[-1]["role"] == "assistant":
            turn: Message = {"role": "user", "content": REFUSED.format(hint=hint)}
            self._pending = (turn, self._shown, self._last_section, self._last_situation or "")
            return [system, *self.turns, turn]
        turn = self._next_turn(obs, legal, entries, hint)
        messages = [system, *self.turns, turn]
        if self.turns and self.count(messages) > self.budget_tokens:
            self.turns.clear()
            self.restarts += 1
            turn = self._first_turn(obs, legal, entries, hint, restarted=True)
            messages = [system, turn]
        return messages

    def answered(self, reply: str) -> None:
        """Keep the user turn just sent and the model's ``reply`` to it."""
        if self._pending is None:
            return
        turn, shown, last, situation = self._pending
        self.turns.extend([turn, {"role": "assistant", "content": reply}])
        self._shown, self._last_section, self._last_situation = shown, last, situation
        self._pending = None

    def _next_turn(
        self, obs: Mapping[str, Any], legal: Any, entries: Sequence[Entry], hint: str | None
    ) -> Message:
        if not self.turns:
            return self._first_turn(obs, legal, entries, hint)
        sections = build_sections(self.kit, entries[self._shown :], obs)
        parts = []
        for i, section in enumerate(sections):
            continued = (
                i == 0
                and self._last_section is not None
                and section.period == self._last_section.period
            )
            parts.append(render_section(section, continued=continued))
        news = "\n\n".join(parts) if parts else NOTHING_NEW
        situation = self.kit.situation(obs, coaching=self.coaching)
        shown = UNCHANGED if situation == self._last_situation else situation
        now = render_now(self.kit, obs, legal, coaching=self.coaching, hint=hint, situation=shown)
        return self._stage(f"{news}\n\n{now}", entries, sections, situation)

    def _first_turn(
        self,
        obs: Mapping[str, Any],
        legal: Any,
        entries: Sequence[Entry],
        hint: str | None,
        *,
        restarted: bool = False,
    ) -> Message:
        sections = build_sections(self.kit, entries, obs)
        history = f"{HISTORY_TITLE}\n\n{render_history(sections)}"
        if restarted:
            history = f"{RESTARTED}\n\n{history}"
        situation = self.kit.situation(obs, coaching=self.coaching)
        now = render_now(
            self.kit, obs, legal, coaching=self.coaching, hint=hint, situation=situation
        )
        return self._stage(f"{history}\n\n{now}", entries, sections, situation)

    def _stage(
        self, text: str, entries: Sequence[Entry], sections: list[Section], situation: str
    ) -> Message:
        turn: Message = {"role": "user", "content": text}
        last = sections[-1] if sections else self._last_section
        self._pending = (turn, len(entries), last, situation)
        return turn


def stateless_messages(
    kit: PromptKit,
    system: str,
    obs: Mapping[str, Any],
    legal: Any,
    entries: Sequence[Entry],
    *,
    coaching: bool = False,
    hint: str | None = None,
    notes: str = "",
) -> list[Message]:
    """One self-contained prompt: the whole history (older days as digest), standing, decision."""
    history = render_history(build_sections(kit, entries, obs))
    parts = [f"{HISTORY_TITLE}\n\n{history}"]
    if notes:
        parts.append(notes)
    parts.append(render_now(kit, obs, legal, coaching=coaching, hint=hint))
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]
