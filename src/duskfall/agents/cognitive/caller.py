"""One model call of one stage (planner, session step, writer), recorded as an ``llm_call``.

Every call goes through :meth:`StageCaller.call`, which bounds its tokens and has the model
record the prompt, reply, usage and latency as the same ``admin`` ``llm_call`` event the plain
LLM agent emits (tagged with the ``stage``), counted in the agent's tally.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from duskfall.agents.cognitive.context import SessionContext
from duskfall.core.usage import Tally
from duskfall.llm import CallOptions, CallRecord, Model
from duskfall.llm.calls import Emit
from duskfall.llm.types import Message

__all__ = ["Emit", "StageCaller"]


@dataclass
class StageCaller:
    """Calls ``model`` for one decision of one seat and records each call through ``emit``."""

    model: Model
    context: SessionContext
    emit: Emit
    options: CallOptions = field(default_factory=CallOptions)
    deadline: float | None = None
    tally: Tally = field(default_factory=Tally)

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
        context = self.context
        record = CallRecord(
            self.emit,
            seat=context.seat,
            day=context.day,
            phase=context.phase.upper(),
            fields={"decision": context.decision, "stage": stage, **fields},
            tally=self.tally,
        )
        completion = await self.model.complete(
            messages,
            schema,
            options=replace(self.options, max_tokens=max_tokens),
            deadline=self.deadline,
            record=record,
        )
        return completion.text
