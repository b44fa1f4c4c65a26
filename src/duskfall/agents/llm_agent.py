"""LLMAgent: a seat played by a language model, one model call per decision.

The prompts come from the variant (``system``: rules, role, win condition; ``user``: the
seat's view, what it may see of the history, the legal choices). The agent adds its persona
to the system prompt and its compact running memory (its own earlier notes) to the user
prompt, and asks for ``{"think", "says", "action"}`` constrained by a JSON schema built from
the decision's legal actions wherever the provider can constrain output. It returns the raw
reply: the handler decodes, validates and re-asks with a hint (seed 004).

Every call, successful or not, is recorded by the model (a
:class:`~duskfall.llm.calls.CallRecord` around ``extra["emit"]``) as an ``admin`` ``llm_call``
event with the prompt, reply, tokens, cost, latency and retries.

Options (``AgentContext.options``, shared by every LLM seat of a game):

* ``persona``: text for every LLM seat, or ``personas``: ``{seat: text}`` / a list by seat;
* ``memory_chars`` (default 400): the running memory's size; 0 turns it off;
* ``history``: ``compact`` (default) leaves out history lines this seat was already shown
  (keeping the latest few), ``full`` sends the variant's prompt unchanged;
* ``max_tokens`` (default 400), ``temperature``: sampling options for each call;
* ``think_chars`` / ``says_chars`` (default 200): caps on the envelope's free text;
* ``timeout`` (seconds for one model call), ``retries`` (re-sends after failures) and
  ``retry_delay`` (seconds before the first re-send; doubling after that);
* ``decision_timeout``: seconds for one decision, retries included;
* ``llm_config``: path of an LLM config file (keys, prices; see :mod:`duskfall.llm.config`).

They are read into :class:`LLMAgentOptions` (a bad value is one clear ConfigError).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from duskfall.agents.specs import AgentContext
from duskfall.core.errors import IllegalAction
from duskfall.core.usage import Tally
from duskfall.llm import CallOptions, CallRecord, LLMError, Model, ProviderUnavailable
from duskfall.llm.compaction import HistoryCompactor
from duskfall.llm.envelope import SAYS_CHARS, THINK_CHARS, envelope_schema, length_note
from duskfall.llm.memory import RunningMemory, clip
from duskfall.llm.options import ModelOptions, read_options
from duskfall.llm.types import Message
from duskfall.runtime.parsing import decode_reply

DEFAULT_MAX_TOKENS = 400
MEMORY_HEADER = "Your own notes from earlier in this game (private):"


class LLMAgentOptions(ModelOptions):
    """The ``llm`` agent's options (see the module docstring); unknown keys are ignored."""

    persona: str | None = None
    personas: dict[int | str, str | None] | list[str | None] | None = None
    memory_chars: int = Field(default=400, ge=0)
    history: Literal["compact", "full"] = "compact"
    max_tokens: int = Field(default=DEFAULT_MAX_TOKENS, ge=1)
    think_chars: int = Field(default=THINK_CHARS, ge=1)
    says_chars: int = Field(default=SAYS_CHARS, ge=1)

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


class LLMAgent:
    """A participant backed by a :class:`~duskfall.llm.Model`."""

    renders_prompts = True

    def __init__(
        self,
        model: Model,
        *,
        seat: int | None = None,
        persona: str | None = None,
        memory: RunningMemory | None = None,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float | None = None,
        think_chars: int = THINK_CHARS,
        says_chars: int = SAYS_CHARS,
        decision_timeout: float | None = None,
        history: HistoryCompactor | None = None,
    ) -> None:
        self.model = model
        self.seat = seat
        self.persona = persona.strip() if persona else None
        self.memory = memory if memory is not None else RunningMemory()
        self.history = history
        self.options = CallOptions(max_tokens=max_tokens, temperature=temperature)
        self.think_chars = think_chars
        self.says_chars = says_chars
        # a decision may wait for its turn at the model and retry; leave room for both
        self.decision_timeout = decision_timeout or max(120.0, 3 * model.timeout)
        self.tally = Tally()
        self._broken: LLMError | None = None
        self._decisions = 0

    def describe(self) -> str:
        return f"llm:{self.model.spec}"

    def messages(self, system_prompt: str, user_prompt: str) -> list[Message]:
        """The chat sent for one decision: persona + variant system prompt, memory + view."""
        system = f"{system_prompt}\n\n{length_note(self.think_chars, self.says_chars)}"
        if self.persona:
            system = f"{system}\n\nYour persona (play in this character): {self.persona}"
        if self.history is not None:
            user_prompt = self.history.compact(user_prompt)
        notes = self.memory.render()
        user = f"{MEMORY_HEADER}\n{notes}\n\n{user_prompt}" if notes else user_prompt
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    async def decide(self, system_prompt: str, user_prompt: str, **extra: Any) -> str:
        """One model call; returns the raw reply for the handler to decode and validate."""
        if self._broken is not None:
            raise self._broken  # the provider refused us for good (bad key, unknown model)
        schema_source = extra.get("schema")
        action_schema = schema_source.get() if schema_source is not None else None
        schema = envelope_schema(
            action_schema, think_chars=self.think_chars, says_chars=self.says_chars
        )
        messages = self.messages(system_prompt, user_prompt)
        decision = extra.get("decision")
        where = _where(extra.get("observation"), decision)
        record = CallRecord(
            extra.get("emit") or _drop,
            seat=self.seat,
            day=where["day"],
            phase=where["phase"],
            fields={
                "decision": getattr(decision, "kind", None),
                "attempt": extra.get("attempt", 0),
            },
            tally=self.tally,
        )
        if not extra.get("attempt"):
            self._decisions += 1  # a retry of the same decision replaces its memory note
        try:
            completion = await self.model.complete(
                messages,
                schema,
                options=self.options,
                deadline=self.decision_timeout * 0.9,
                record=record,
            )
        except ProviderUnavailable as exc:
            self._broken = exc
            raise
        self._remember(completion.text, decision, where)
        return completion.text

    def _remember(self, reply: str, decision: Any, where: Mapping[str, Any]) -> None:
        if self.memory.budget_chars <= 0:
            return
        try:
            decoded = decode_reply(reply)
        except IllegalAction:  # an undecodable reply leaves no note; the handler will re-ask
            return
        kind = getattr(decision, "kind", "decision")
        parts = [f"day {where['day']} {kind}:"]
        if decoded.think:
            parts.append(f"thought {clip(decoded.think, 90)!r};")
        if decoded.says:
            parts.append(f"said {clip(decoded.says, 60)!r};")
        parts.append(f"chose {_compact(decoded.action)}")
        self.memory.note(str(self._decisions), " ".join(parts))


def _where(observation: Mapping[str, Any] | None, decision: Any) -> dict[str, Any]:
    """Day and phase of a decision, read from the seat's observation where it has them."""
    obs = observation if observation is not None else {}
    day = obs.get("day", obs.get("turn", 0))
    phase = obs.get("phase") or getattr(decision, "kind", "")
    return {"day": int(day) if isinstance(day, int) else 0, "phase": str(phase)}


def _compact(action: Any) -> str:
    """A short rendering of an action for the memory (long lists are summarised)."""
    if isinstance(action, Mapping):
        items = []
        for key, value in action.items():
            if key == "says":
                continue
            if isinstance(value, list) and len(value) > 3:
                value = "[...]"
            items.append(f"{key}={value}")
        return clip(", ".join(items), 70)
    return clip(str(action), 70)


def _drop(event: Any) -> None:
    """Where the calls of an agent asked without ``emit`` go."""


def make_llm_agent(ctx: AgentContext) -> LLMAgent:
    """The ``llm:<model spec>`` agent kind (``llm:local``, ``llm:openai:gpt-4o-mini``...)."""
    options = read_options(LLMAgentOptions, ctx.options, "llm agent")
    return LLMAgent(
        options.build_model(ctx.arg or "local"),
        seat=ctx.seat,
        persona=options.persona_for(ctx.seat),
        memory=RunningMemory(budget_chars=options.memory_chars),
        max_tokens=options.max_tokens,
        temperature=options.temperature,
        think_chars=options.think_chars,
        says_chars=options.says_chars,
        decision_timeout=options.decision_timeout,
        history=HistoryCompactor() if options.history == "compact" else None,
    )
