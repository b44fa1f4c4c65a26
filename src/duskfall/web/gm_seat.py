"""A GM game's seat played by a person in the browser.

A GM game asks its players as it asks models (free text in, free text out), so a person in
the browser is a provider: :class:`BrowserPlayer` publishes the turn (what the prompt built
for this seat asks now, a text box, the deadline) to the seat's page and waits for
:meth:`BrowserPlayer.answer`. The prompt is built by the game from this player's own view
(the public chat and its own secrets), so nothing else reaches the page. The game's deadline
cancels the wait; the game then records the player as silent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.errors import DuskfallError
from duskfall.llm.model import Model
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.retry import RetryPolicy
from duskfall.llm.types import Completion, Message
from duskfall.web.human import BROWSER_AGENT, PageRequests

MAX_REPLY = 2000  # characters of one reply
KNOWN_LINES = 12  # the most recent secrets shown on the seat's card
TEXT_FIELD = {"key": "text", "kind": "text", "label": "What you say", "max": MAX_REPLY}


class BadReply(DuskfallError):
    """An answer that is not ``{"text": "..."}`` (or is too long)."""


def read_reply(action: Any) -> str:
    """The text of an answer from the page; raises :class:`BadReply`."""
    text = action.get("text") if isinstance(action, Mapping) else None
    if not isinstance(text, str):
        raise BadReply('a reply is {"text": "what you say"}')
    if len(text) > MAX_REPLY:
        raise BadReply(f"a reply has at most {MAX_REPLY} characters")
    return text


def asked_now(messages: Sequence[Message]) -> str:
    """What the prompt asks now: the last paragraph of its last user message."""
    prompt = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    return prompt.strip().rsplit("\n\n", 1)[-1]


class BrowserPlayer(PageRequests, Provider):
    """One person's seat (see the module docstring); :meth:`model` is what the game asks."""

    name = "human"
    capabilities = Capabilities(ping=True)
    model = BROWSER_AGENT
    max_concurrency = 1

    def __init__(self, seat: int, player: str, timeout: float) -> None:
        super().__init__(seat)
        self.player = player
        self.timeout = timeout
        self.endpoint = f"{BROWSER_AGENT}:{id(self)}"
        #: what this player alone knows, newest last (its secrets and private answers)
        self.known: Callable[[], Sequence[str]] = tuple
        #: the role duskfall dealt this player (None: the card deals none, or not yet)
        self.role: Callable[[], str | None] = lambda: None

    async def ping(self) -> None:
        """Nothing to check: the person answers or is recorded as silent."""

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        question = asked_now(messages)
        known = list(self.known())[-KNOWN_LINES:]

        def request(request_id: int) -> dict[str, Any]:
            return {
                "request_id": request_id,
                "seat": self.seat,
                "kind": "turn",
                "describe": question,
                "form": {
                    "question": question,
                    "choices": [{"label": "", "value": {}}],
                    "fields": [TEXT_FIELD],
                },
                "knows": {"headline": self.headline(), "lines": known},
                "hint": None,
                "timeout": self.timeout,
                "deadline": time.time() + self.timeout,
            }

        return Completion((await self._requests.ask(request)).strip())

    def headline(self) -> str:
        """``You are Cleo (seat 2), the Villager`` (the role once it is dealt)."""
        role = self.role()
        return f"You are {self.player} (seat {self.seat})" + (f", the {role}" if role else "")

    def answer(self, request_id: int, action: Any) -> None:
        """Hand in the reply to the open turn ``request_id``; raises StaleAnswer or BadReply."""
        text = read_reply(action)
        self._requests.answer(request_id, text)

    def as_model(self) -> Model:
        """The seat as the game's model: asked once, for at most ``timeout`` seconds."""
        return Model(
            self,
            spec=BROWSER_AGENT,
            retry=RetryPolicy(retries=0, format_retries=0),
            timeout=self.timeout,
        )
