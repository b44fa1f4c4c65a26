"""One model call of one stage (planner, session step, writer), recorded as an ``llm_call``.

Every call goes through :meth:`StageCaller.call`, which bounds its tokens, records the prompt,
reply, usage and latency as the same ``admin`` ``llm_call`` event the plain LLM agent emits
(tagged with the ``stage``), and adds the usage to the agent's total.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.agents.cognitive.context import SessionContext
from duskfall.core.events import Event
from duskfall.llm import LLMError, Model
from duskfall.llm.calls import llm_call_event
from duskfall.llm.types import Message, Usage

Emit = Callable[[Event], None]


@dataclass
class StageCaller:
    """Calls ``model`` for one decision of one seat and records each call through ``emit``."""

    model: Model
    context: SessionContext
    emit: Emit
    options: Mapping[str, Any] = field(default_factory=dict)
    deadline: float | None = None
    usage: Usage = field(default_factory=Usage)
    calls: int = 0

    async def call(
        self,
        stage: str,
        messages: Sequence[Message],
        *,
        max_tokens: int,
        schema: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> str:
        """The reply text; raises :class:`LLMError` (recorded) when the call fails."""
        record = {
            "seat": self.context.seat,
            "model": self.model.spec,
            "messages": list(messages),
            "decision": self.context.decision,
            "stage": stage,
            "day": self.context.day,
            "phase": self.context.phase.upper(),
            **fields,
        }
        started = time.monotonic()
        options = {**self.options, "max_tokens": max_tokens}
        try:
            completion = await self.model.complete(
                messages, schema, deadline=self.deadline, **options
            )
        except LLMError as exc:
            self.usage += exc.usage
            self.calls += 1
            self.emit(
                llm_call_event(
                    **record,
                    error=str(exc),
                    usage=exc.usage,
                    errors=getattr(exc, "errors", ()),
                    latency_s=time.monotonic() - started,
                )
            )
            raise
        self.usage += completion.usage
        self.calls += 1
        self.emit(llm_call_event(**record, completion=completion))
        return completion.text
