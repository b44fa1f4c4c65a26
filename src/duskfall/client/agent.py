"""Play a seat over the wire with any duskfall agent (``random``, ``heuristic``, ``llm:...``).

The agent sees exactly what the server sent: the request's observation, the legal actions read
back from ``valid_actions``, and, after an ``ERROR``, the server's reason as the retry hint.
Agents are built through :mod:`duskfall.agents.kinds`, so every registered kind works.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from duskfall.agents.kinds import AgentContext, make_participant
from duskfall.agents.specs import parse_spec
from duskfall.client.aio import AsyncClient
from duskfall.client.wire_legal import check_wire_support, legal_from_wire
from duskfall.core.bot import Bot
from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalActions
from duskfall.core.registry import get_variant
from duskfall.core.variant import Decision, Variant
from duskfall.protocol.messages import ActionRequest, ErrorMessage, ServerHello
from duskfall.runtime.parsing import decode_reply
from duskfall.runtime.participant import BotParticipant, DecisionRequest, Participant

log = logging.getLogger(__name__)


class AgentPlayer:
    """Turns ACTION_REQUESTs into actions with a duskfall agent built from an agent string."""

    def __init__(
        self,
        agent: str,
        *,
        variant: str = "sports-mafia",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.agent = agent.strip()
        self.seed = seed
        self.options = dict(options or {})
        self.variant = self._checked_variant(variant)
        self.participant: Participant | None = None
        self.seat: int | None = None
        self.game_id: str | None = None

    def _checked_variant(self, variant_id: str) -> Variant:
        variant = get_variant(variant_id)
        parse_spec(variant, self.agent, 1)  # raises ConfigError on an unknown agent
        check_wire_support(variant)
        return variant

    def use_variant(self, variant_id: str) -> None:
        """The server said which game this is (its HELLO)."""
        if variant_id != self.variant.id:
            self.variant = self._checked_variant(variant_id)
            self.participant = None

    def _participant_for(self, seat: int, game_id: str | None) -> Participant:
        """The agent of this seat in this game (agents may keep state within a game)."""
        if self.participant is None or (self.seat, self.game_id) != (seat, game_id):
            ctx = AgentContext(self.variant, seat, self.seed, "", self.options)
            participant = make_participant(self.agent, ctx)
            if isinstance(participant, Bot):
                participant = BotParticipant(participant)
            self.participant = participant
            self.seat, self.game_id = seat, game_id
        return self.participant

    async def act(
        self, request: ActionRequest, hint: str | None = None, attempt: int = 0
    ) -> dict[str, Any]:
        """The ``action`` object answering ``request``."""
        variant = self.variant
        seat = request.player_id
        participant = self._participant_for(seat, request.game_id)
        legal = legal_from_wire(variant, request.phase, request.valid_actions, request.legal_state)
        observation = request.observation
        system = user = ""
        if participant.renders_prompts:
            system, user = variant.render_prompts(observation, legal, hint)
        asked = DecisionRequest(
            decision=Decision(seat, request.phase),
            observation=observation,
            legal=legal,
            game_id=request.game_id or "",
            variant=variant.id,
            hint=hint,
            attempt=attempt,
        )
        raw = await participant.decide(system, user, asked)
        return _wire_action(raw, legal)

    def describe(self) -> str:
        return self.agent


def _wire_action(raw: Any, legal: LegalActions) -> dict[str, Any]:
    """The agent's reply as a wire action; an unreadable one is sent as is for the server to
    refuse (it answers with an ERROR and asks again)."""
    try:
        reply = decode_reply(raw)
    except IllegalAction as exc:
        return {"type": "UNREADABLE", "error": exc.hint}
    try:
        action: dict[str, Any] = legal.parse(reply.action).to_dict()
        return action
    except IllegalAction:
        if isinstance(reply.action, dict):
            return reply.action
        return {"type": "UNREADABLE", "reply": str(reply.action)[:500]}


class AgentClient(AsyncClient):
    """An :class:`AsyncClient` whose decisions come from an :class:`AgentPlayer`."""

    def __init__(self, host: str, port: int, player: AgentPlayer, **options: Any) -> None:
        options.setdefault("send_hello", True)  # seated by --seat-after-hello servers too
        super().__init__(host, port, **options)
        self.player = player
        self._hint: str | None = None
        self._attempt = 0

    def on_hello(self, hello: ServerHello) -> None:
        self.player.use_variant(hello.variant)
        super().on_hello(hello)

    def on_error(self, error: ErrorMessage) -> None:
        self._hint = error.detail or error.message
        super().on_error(error)

    async def determine_action(self, request: ActionRequest) -> dict[str, Any] | None:
        hint, self._hint = self._hint, None
        self._attempt = self._attempt + 1 if hint else 0
        return await self.player.act(request, hint, self._attempt)
