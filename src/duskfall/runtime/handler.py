"""Handlers (seed 004): settle one sub-phase's pending decisions.

A handler is stateless: it receives the context and the participants at call time. It builds
each seat's prompts from that seat's view only (lazily: bots never pay for prompts), queries
the participants concurrently, decodes and validates their replies against ``legal(seat)``,
re-asks with a hint (``settings.retries`` times) and then applies the documented fallback
(``legal.default``), recording every refusal, timeout and fallback as an ``admin`` event.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from duskfall.core.bot import Bot
from duskfall.core.errors import IllegalAction
from duskfall.core.events import ADMIN, Event
from duskfall.core.variant import Decision, LegalActions, State, Variant
from duskfall.runtime.parsing import decode_reply
from duskfall.runtime.participant import LazyObservation, Participant
from duskfall.runtime.settings import RuntimeSettings

RAW_LOG_LIMIT = 2000


@dataclass
class PhaseContext:
    """What a handler may read: the state (through ``observe``/``legal`` only), and settings."""

    variant: Variant
    state: State
    game_id: str
    decisions: Sequence[Decision]
    rng: random.Random
    settings: RuntimeSettings = field(default_factory=RuntimeSettings)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def runtime_event(self, kind: str, payload: dict[str, Any], visibility: str = ADMIN) -> Event:
        return Event(kind, payload, visibility, self.state.day, self.state.phase, source="runtime")


@dataclass
class HandlerResult:
    """A legal action for every decision, and the events recorded while getting them."""

    actions: dict[int, Any]
    subphase_log: list[Event] = field(default_factory=list)
    debug_info: str | None = None


class Handler(Protocol):
    async def __call__(
        self, context: PhaseContext, participants: Sequence[tuple[int, Participant]]
    ) -> HandlerResult: ...


def _timeout_for(participant: Participant, settings: RuntimeSettings) -> float:
    own = getattr(participant, "decision_timeout", None)
    return float(own) if own else settings.decision_timeout


def _plain_bot(participant: Participant | Bot) -> Bot | None:
    """The participant if it is a :class:`~duskfall.core.bot.Bot` (a synchronous ``act``).

    Such a bot is called directly (no task, no timer, no prompts): a deadline could not
    interrupt it anyway, and its answer and any error it raises are handled exactly as usual.
    """
    return participant if isinstance(participant, Bot) else None


def _prompts(
    context: PhaseContext,
    participant: Participant,
    observation: LazyObservation,
    legal: LegalActions,
    hint: str | None,
) -> tuple[str, str]:
    if isinstance(participant, Bot) or not getattr(participant, "renders_prompts", True):
        return "", ""
    return context.variant.render_prompts(observation, legal, hint)


async def ask(
    context: PhaseContext,
    seat: int,
    participant: Participant,
    log: list[Event],
    kind: str | None = None,
) -> Any:
    """Ask one seat until it gives a legal action; return it (or the recorded fallback)."""
    state = context.state
    legal = state.legal(seat)
    observation = LazyObservation(lambda: state.observe(seat))
    decision = Decision(seat, kind or legal.kind)
    hint: str | None = None
    reason = "no answer"
    timeout = _timeout_for(participant, context.settings)
    bot = _plain_bot(participant)
    for attempt in range(context.settings.retries + 1):
        system, user = _prompts(context, participant, observation, legal, hint)
        try:
            if bot is not None:
                raw = bot.act(observation, legal)
            else:
                raw = await asyncio.wait_for(
                    participant.decide(
                        system,
                        user,
                        decision=decision,
                        observation=observation,
                        legal=legal,
                        schema=_LazySchema(legal.schema),
                        hint=hint,
                        attempt=attempt,
                        game_id=context.game_id,
                        variant=context.variant.id,
                        day=state.day,
                        phase=state.phase,
                        emit=log.append,
                    ),
                    timeout,
                )
        except TimeoutError:
            reason = f"no answer within {timeout:g}s"
            log.append(
                context.runtime_event("decision_timeout", {"seat": seat, "timeout": timeout})
            )
            break
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a participant's failure must not stop the game
            reason = f"participant error: {type(exc).__name__}: {exc}"
            log.append(
                context.runtime_event(
                    "participant_error", {"seat": seat, "attempt": attempt, "error": reason}
                )
            )
            hint = None
            continue
        try:
            reply = decode_reply(raw)
            action = legal.parse(reply.action)
        except IllegalAction as exc:
            hint = exc.hint
            reason = f"{exc.code}: {exc.hint}"
            log.append(
                context.runtime_event(
                    "invalid_action",
                    {
                        "seat": seat,
                        "attempt": attempt,
                        "raw": _loggable(raw),
                        "error": exc.hint,
                        "code": exc.code,
                    },
                )
            )
            continue
        if reply.think:
            log.append(context.runtime_event("thought", {"seat": seat, "text": reply.think}))
        return action
    action = legal.default(context.rng)
    log.append(
        context.runtime_event(
            "fallback", {"seat": seat, "reason": reason, "action": action.to_dict()}
        )
    )
    return action


class _LazySchema:
    """The JSON schema of a decision, built only if an agent asks for it."""

    __slots__ = ("_build", "_value")

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._value: dict[str, Any] | None = None

    def get(self) -> dict[str, Any]:
        if self._value is None:
            self._value = self._build()
        return self._value


def _loggable(raw: Any) -> Any:
    if isinstance(raw, str):
        return raw if len(raw) <= RAW_LOG_LIMIT else raw[:RAW_LOG_LIMIT] + "..."
    to_dict = getattr(raw, "to_dict", None)
    return to_dict() if callable(to_dict) else repr(raw)[:RAW_LOG_LIMIT]


class AskHandler:
    """The default handler: ask every pending seat concurrently, each until legal or fallback.

    Kinds the variant declares in ``info.sequential_kinds`` (speeches...) are asked one seat
    at a time, in the given order.
    """

    async def __call__(
        self, context: PhaseContext, participants: Sequence[tuple[int, Participant]]
    ) -> HandlerResult:
        logs: list[list[Event]] = [[] for _ in participants]
        sequential = context.variant.info.sequential_kinds
        if (
            len(participants) == 1
            or all(_plain_bot(p) for _, p in participants)
            or (context.decisions and context.decisions[0].kind in sequential)
        ):
            # one seat, a sequential kind, or bots that never suspend (asking in seat order
            # is what gather does for them)
            actions = [
                await ask(context, seat, participant, logs[i])
                for i, (seat, participant) in enumerate(participants)
            ]
        else:
            actions = await asyncio.gather(
                *(
                    ask(context, seat, participant, logs[i])
                    for i, (seat, participant) in enumerate(participants)
                )
            )
        merged = [event for log in logs for event in log]
        return HandlerResult(
            {seat: action for (seat, _), action in zip(participants, actions, strict=True)},
            merged,
        )
