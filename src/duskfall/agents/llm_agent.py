"""LLMAgent: a seat played by a language model, one model call per decision.

The prompts are composed from the variant's prompt kit (:mod:`duskfall.core.prompting`) and
the events the seat was shown so far (the runtime passes them as ``entries`` and, as the agent
``composes_prompts``, renders no prompt of its own for it), so the model
sees everything its seat may know, under day and night headers, and nothing else. It answers
``{"reasoning": ..., "action": {...}}``, constrained by a JSON schema built from the
decision's legal actions wherever the provider can constrain output. The model parses the
reply's JSON once; the agent returns it decoded (a :class:`~duskfall.runtime.parsing.Reply`
keeping the text for the log), and the handler validates it and re-asks with a hint (seed 004).

Memory (``memory`` option):

* ``conversation`` (default): one growing conversation per seat, the system prompt fixed, so
  a provider's prefix cache only evaluates each call's new part
  (:class:`~duskfall.llm.conversation.SeatConversation`);
* ``stateless``: one self-contained prompt per decision with the same complete information
  (older days as their digest), plus the seat's own short notes of its earlier decisions.

Every call, successful or not, is recorded by the model (a
:class:`~duskfall.llm.calls.CallRecord` around ``request.emit``) as an ``admin`` ``llm_call``
event with the prompt, reply, tokens, cost, latency and retries.

Options (``AgentContext.options``, shared by every LLM seat of a game):

* ``persona``: text for every LLM seat, or ``personas``: ``{seat: text}`` / a list by seat;
* ``memory``: ``conversation`` or ``stateless`` (above);
* ``coaching``: ``off`` (default, for measurement: rules, role, facts and legal choices only)
  or ``on`` (the variant's strategy hints and heuristic priorities too);
* ``reasoning_chars`` (default 1000; 300 for the embedded ``local`` model): how long the
  reasoning may be;
* ``context_tokens``: the conversation's budget before it restarts from a digest (default: the
  model's context window where known, else 100,000);
* ``memory_chars`` (default 400): the stateless memory's own notes; 0 turns them off;
* ``max_tokens`` (default 600; 1200 for ``local``, room for the longest reply its grammar
  allows: 300 characters of reasoning and an 800-character speech), ``temperature``,
  ``top_k``, ``top_p``, ``min_p``, ``repeat_penalty``: sampling options (the last four are
  llama.cpp's, for servers that take them);
* ``timeout`` (seconds for one model call), ``retries`` (re-sends after failures) and
  ``retry_delay`` (seconds before the first re-send; doubling after that);
* ``decision_timeout``: seconds for one decision, retries included;
* ``llm_config``: path of an LLM config file (keys, prices; see :mod:`duskfall.llm.config`);
* ``fold_system``: send the system prompt inside the first user turn (servers whose chat
  template has no system role);
* ``beliefs``: ``off`` (default) or ``daily``: once a day, before its first decision, the seat
  states P(evil) of every other living player (:mod:`duskfall.agents.beliefs`).

Every call carries a sampling seed derived from the game's secret seed, the seat and the
call's place in the seat's game (:func:`call_seed`), so a game replayed with the same seed
sends the same seeds to an endpoint that takes one, whatever order the calls finish in, and a
fork sends its parent's seeds at the same places. A fork brings the seat through its prefix
with :meth:`LLMAgent.relive` (the logged replies kept, no call made), so its conversation
stands as the parent's did.

They are read into :class:`LLMAgentOptions` (a bad value is one clear ConfigError; the retired
``history``, ``think_chars`` and ``says_chars`` say what replaced them).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

from duskfall.agents.beliefs import DailyBeliefs, ask_beliefs
from duskfall.agents.kinds import AgentContext
from duskfall.core.errors import ConfigError, IllegalAction
from duskfall.core.prompting import Entry, PromptKit
from duskfall.core.transcript import contract_text, system_prompt
from duskfall.core.usage import Tally
from duskfall.core.variant import Decision
from duskfall.llm import CallOptions, CallRecord, LLMError, Model, ProviderUnavailable
from duskfall.llm.conversation import SeatConversation, stateless_messages
from duskfall.llm.envelope import REASONING_CHARS, envelope_schema
from duskfall.llm.memory import RunningMemory, clip
from duskfall.llm.options import ModelOptions, read_options
from duskfall.llm.types import Message
from duskfall.runtime.parsing import decode_reply, reply_of
from duskfall.runtime.participant import BaseParticipant, DecisionRequest, SeatAnswer

DEFAULT_MAX_TOKENS = 600
DEFAULT_CONTEXT_TOKENS = 100_000
EXACT_COUNT_SHARE = 0.97  # of the window left after the reply, when the model counts tokens
ESTIMATED_COUNT_SHARE = 0.85
# The bundled 270M model rambles: its reasoning is held to 300 characters (the grammar enforces
# the schema's maxLength) and max_tokens leaves room for the longest reply the grammar allows,
# so a reply is never cut off mid-JSON (both can still be set).
LOCAL_DEFAULTS = {"reasoning_chars": 300, "max_tokens": 1200}
MEMORY_HEADER = "Your own notes from your earlier decisions (private):"
Memory = Literal["conversation", "stateless"]
RETIRED_OPTIONS = {
    "history": "memory=conversation|stateless (every seat now sees its whole history)",
    "think_chars": "reasoning_chars",
    "says_chars": "reasoning_chars (speech text is part of a speech decision's action)",
}


class LLMAgentOptions(ModelOptions):
    """The ``llm`` agent's options (see the module docstring); unknown keys are ignored."""

    persona: str | None = None
    personas: dict[int | str, str | None] | list[str | None] | None = None
    memory: Memory = "conversation"
    coaching: bool = False
    reasoning_chars: int = Field(default=REASONING_CHARS, ge=1)
    context_tokens: int | None = Field(default=None, ge=1000)
    memory_chars: int = Field(default=400, ge=0)
    max_tokens: int = Field(default=DEFAULT_MAX_TOKENS, ge=1)
    beliefs: Literal["off", "daily"] = "off"

    def persona_for(self, seat: int) -> str | None:
        """The persona of ``seat``: its own from ``personas``, else the shared ``persona``."""
        personas = self.personas
        if isinstance(personas, dict):
            chosen = personas.get(seat, personas.get(str(seat)))
            if chosen:
                return chosen
        elif isinstance(personas, list) and seat < len(personas) and personas[seat]:
            return personas[seat]
        return self.persona or None


class LLMAgent(BaseParticipant):
    """A participant backed by a :class:`~duskfall.llm.Model`."""

    renders_prompts = True
    composes_prompts = True  # from the kit and the entries: nothing is rendered for it there
    decision_timeout: float

    def __init__(
        self,
        model: Model,
        *,
        seat: int | None = None,
        persona: str | None = None,
        memory: Memory = "conversation",
        coaching: bool = False,
        reasoning_chars: int = REASONING_CHARS,
        context_tokens: int | None = None,
        notes: RunningMemory | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float | None = None,
        sampler: CallOptions | None = None,
        decision_timeout: float | None = None,
        beliefs: Literal["off", "daily"] = "off",
        game_seed: int | None = None,
    ) -> None:
        self.model = model
        self.game_seed = game_seed
        self.beliefs = DailyBeliefs(beliefs)
        self.seat = seat
        self.persona = persona.strip() if persona else None
        self.memory = memory
        self.coaching = coaching
        self.reasoning_chars = reasoning_chars
        window = context_tokens or getattr(model, "context_tokens", None) or DEFAULT_CONTEXT_TOKENS
        # an estimated count (about four characters a token) needs a wide margin
        share = EXACT_COUNT_SHARE if model.exact_counts else ESTIMATED_COUNT_SHARE
        self.budget_tokens = max(500, int(share * (int(window) - max_tokens)))
        self.notes = notes if notes is not None else RunningMemory()
        self.options = dataclasses.replace(
            sampler or CallOptions(), max_tokens=max_tokens, temperature=temperature
        )
        # a decision may wait for its turn at the model and retry; leave room for both
        self.decision_timeout = decision_timeout or max(120.0, 3 * model.timeout)
        self.tally = Tally()
        self.conversation: SeatConversation | None = None
        self._broken: LLMError | None = None
        self._decisions = 0

    def describe(self) -> str:
        return f"llm:{self.model.spec}"

    def models(self) -> tuple[Model]:
        """The one model this seat calls."""
        return (self.model,)

    def _with_persona(self, system: str) -> str:
        if self.persona:
            return f"{system}\n\nYour persona (play in this character): {self.persona}"
        return system

    def _system(self, kit: PromptKit, obs: Mapping[str, Any]) -> str:
        text = system_prompt(kit, obs, coaching=self.coaching, reasoning_chars=self.reasoning_chars)
        return self._with_persona(text)

    def messages(
        self,
        system_prompt_text: str,
        user_prompt: str,
        *,
        kit: PromptKit | None = None,
        entries: Sequence[Entry] | None = None,
        observation: Mapping[str, Any] | None = None,
        legal: Any = None,
        hint: str | None = None,
        retry: bool = False,
    ) -> list[Message]:
        """The chat sent for one decision (composed from the kit where the variant has one)."""
        if kit is None or entries is None or observation is None or legal is None:
            system = self._with_persona(
                f"{system_prompt_text}\n\n{contract_text(self.reasoning_chars)}"
            )
            notes = self.notes.render()
            user = f"{MEMORY_HEADER}\n{notes}\n\n{user_prompt}" if notes else user_prompt
            return [{"role": "system", "content": system}, {"role": "user", "content": user}]
        if self.memory == "conversation":
            if self.conversation is None:
                self.conversation = SeatConversation(
                    kit,
                    lambda obs: self._system(kit, obs),
                    coaching=self.coaching,
                    budget_tokens=self.budget_tokens,
                    count=self.model.count_tokens,
                )
            return self.conversation.messages(observation, legal, entries, hint=hint, retry=retry)
        notes = self.notes.render()
        return stateless_messages(
            kit,
            self._system(kit, observation),
            observation,
            legal,
            entries,
            coaching=self.coaching,
            hint=hint,
            notes=f"{MEMORY_HEADER}\n{notes}" if notes else "",
        )

    async def decide(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> SeatAnswer:
        """One model call; returns the reply for the handler to validate: decoded from the
        object the model parsed (its text kept for the log), or the text where it held none."""
        if self._broken is not None:
            raise self._broken  # the provider refused us for good (bad key, unknown model)
        schema = envelope_schema(request.schema, self.reasoning_chars)
        attempt = request.attempt
        messages, where, beliefs = self._next_call(system_prompt, user_prompt, request)
        record = CallRecord(
            request.emit,
            seat=self.seat,
            day=where["day"],
            phase=where["phase"],
            fields={"decision": request.kind, "attempt": attempt},
            tally=self.tally,
        )
        if beliefs:
            await self._daily_beliefs(messages, request, where)
        try:
            completion = await self.model.complete(
                messages,
                schema,
                options=self._options_for(attempt),
                deadline=self.decision_timeout * 0.9,
                record=record,
            )
        except ProviderUnavailable as exc:
            self._broken = exc
            raise
        answer: SeatAnswer = completion.text
        if completion.answer is not None:
            answer = reply_of(completion.answer, completion.text)
        self._answered(completion.text, answer, request, where)
        return answer

    def relive(
        self,
        system_prompt: str,
        user_prompt: str,
        request: DecisionRequest,
        reply: str | None,
        sent: Sequence[Message] | None = None,
    ) -> bool:
        """Go through one attempt of a decision as a log recorded it, without calling the
        model: its messages are built as :meth:`decide` builds them and ``reply`` (None: the
        call failed) is kept as the model's. A fork brings its model seats through the prefix
        this way, so their conversation, notes and call count stand as the parent's did.
        Returns whether the messages built are ``sent``, the ones the log recorded."""
        messages, where, _ = self._next_call(system_prompt, user_prompt, request)
        if reply is not None:
            self._answered(reply, reply, request, where)
        return sent is None or [dict(m) for m in sent] == messages

    def _next_call(
        self, system_prompt: str, user_prompt: str, request: DecisionRequest
    ) -> tuple[list[Message], dict[str, Any], bool]:
        """The messages of the next call, where it stands, and whether beliefs are due first
        (a decision's first attempt counts it)."""
        messages = self.messages(
            system_prompt,
            user_prompt,
            kit=request.prompt_kit,
            entries=request.entries,
            observation=request.observation,
            legal=request.legal,
            hint=request.hint,
            retry=bool(request.attempt),
        )
        where = _where(request.observation, request.decision)
        beliefs = False
        if not request.attempt:
            self._decisions += 1  # a retry of the same decision replaces its memory note
            beliefs = self.beliefs.due(where["day"])
        return messages, where, beliefs

    def _answered(
        self,
        text: str,
        answer: SeatAnswer,
        request: DecisionRequest,
        where: Mapping[str, Any],
    ) -> None:
        """Keep the reply ``text`` in the conversation and ``answer`` (decoded, or the text)
        in the notes."""
        if self.conversation is not None:
            self.conversation.answered(text)
        self._remember(answer, request.decision, where)

    async def _daily_beliefs(
        self, messages: list[Message], request: DecisionRequest, where: Mapping[str, Any]
    ) -> None:
        """With ``beliefs=daily``: the first decision of a day asks for beliefs first."""
        await ask_beliefs(
            self.model,
            messages,
            request.observation,
            seat=self.seat,
            day=where["day"],
            phase=where["phase"],
            emit=request.emit,
            options=self._options_for(0, "beliefs"),
            deadline=self.decision_timeout * 0.4,
        )

    def _options_for(self, attempt: int, purpose: str = "") -> CallOptions:
        """The sampling options of one call: the seat's, with a seed from the game's."""
        if self.game_seed is None:
            return self.options
        seed = call_seed(self.game_seed, self.seat, self._decisions, attempt, purpose)
        return dataclasses.replace(self.options, seed=seed)

    def _remember(self, reply: SeatAnswer, decision: Decision, where: Mapping[str, Any]) -> None:
        if self.conversation is not None or self.notes.budget_chars <= 0:
            return
        try:
            decoded = decode_reply(reply)  # a Reply already decoded is taken as it is
        except IllegalAction:  # an undecodable reply leaves no note; the handler will re-ask
            return
        parts = [f"{where['phase']} {where['day']}, {decision.kind}:"]
        if decoded.think:
            parts.append(f"thought {clip(decoded.think, 90)!r};")
        parts.append(f"chose {_compact(decoded.action)}")
        self.notes.note(str(self._decisions), " ".join(parts))


def call_seed(
    game_seed: int, seat: int | None, decision: int, attempt: int = 0, purpose: str = ""
) -> int:
    """A call's sampling seed: a hash of the game's secret seed, the seat and the call's
    place in the seat's game (its ``decision``-th decision, the ``attempt`` at it, the
    call's ``purpose``), 31 bits (every server takes it). It gives nothing of the game's seed
    away, the same game asks the same seeds in any call order, and a fork (whose seats count
    their decisions from the parent's start) asks the parent's seeds at the same places,
    whatever it changed before them."""
    text = json.dumps([str(game_seed), seat, decision, attempt, purpose])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 1


def _where(obs: Mapping[str, Any], decision: Decision) -> dict[str, Any]:
    """Day and phase of a decision, read from the seat's observation where it has them."""
    day = obs.get("day", obs.get("turn", 0))
    phase = obs.get("phase") or decision.kind
    return {"day": int(day) if isinstance(day, int) else 0, "phase": str(phase)}


def _compact(action: Any) -> str:
    """A short rendering of an action for the notes (long lists are summarised)."""
    if isinstance(action, Mapping):
        items = []
        for key, value in action.items():
            if isinstance(value, list) and len(value) > 3:
                value = "[...]"
            items.append(f"{key}={value}")
        return clip(", ".join(items), 70)
    return clip(str(action), 70)


def check_retired(options: Mapping[str, Any]) -> None:
    """Refuse an option this agent no longer reads, naming what replaced it."""
    for key, replacement in RETIRED_OPTIONS.items():
        if key in options:
            raise ConfigError(f"the llm agent option {key!r} was replaced by {replacement}")


def make_llm_agent(ctx: AgentContext) -> LLMAgent:
    """The ``llm:<model spec>`` agent kind (``llm:local``, ``llm:openai:gpt-4o-mini``...)."""
    check_retired(ctx.options)
    given = dict(ctx.options)
    if (ctx.arg or "local").split(":")[0] == "local":
        given = {**LOCAL_DEFAULTS, **given}
    options = read_options(LLMAgentOptions, given, "llm agent")
    return LLMAgent(
        options.build_model(ctx.arg or "local"),
        seat=ctx.seat,
        persona=options.persona_for(ctx.seat),
        memory=options.memory,
        coaching=options.coaching,
        reasoning_chars=options.reasoning_chars,
        context_tokens=options.context_tokens,
        notes=RunningMemory(budget_chars=options.memory_chars),
        max_tokens=options.max_tokens,
        temperature=options.temperature,
        sampler=options.sampler_settings(),
        decision_timeout=options.decision_timeout,
        beliefs=options.beliefs,
        game_seed=ctx.seed,
    )
