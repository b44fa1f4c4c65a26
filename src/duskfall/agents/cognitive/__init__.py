"""The deliberating agent (seed 003): ``--agents cognitive:<model spec>``.

Per decision: a planner states one sentence of purpose, tool-assisted investigation sessions
read the seat's record folder step by step and update a suspicion model, a writer produces
the move and a reflector checks it. See ``docs/cognitive.md``.
"""

from __future__ import annotations

from duskfall.agents.cognitive.agent import CognitiveAgent
from duskfall.agents.cognitive.context import Knowledge, SessionContext, session_context
from duskfall.agents.cognitive.records import SeatRecords
from duskfall.agents.cognitive.settings import CognitiveSettings
from duskfall.agents.cognitive.suspicion import SuspicionModel
from duskfall.agents.cognitive.tools import Toolbox, ToolRequest
from duskfall.agents.specs import AgentContext
from duskfall.llm import RetryPolicy, get_model

__all__ = [
    "CognitiveAgent",
    "CognitiveSettings",
    "Knowledge",
    "SeatRecords",
    "SessionContext",
    "SuspicionModel",
    "ToolRequest",
    "Toolbox",
    "make_cognitive_agent",
    "session_context",
]


def make_cognitive_agent(ctx: AgentContext) -> CognitiveAgent:
    """The ``cognitive:<model spec>`` agent kind (``cognitive:local``, ``cognitive:openai:...``)."""
    options = ctx.options
    spec = ctx.arg or "local"
    default = RetryPolicy()
    retry = RetryPolicy(
        retries=int(options.get("retries", default.retries)),
        base_delay=float(options.get("retry_delay", default.base_delay)),
        format_retries=0,  # the sessions and the runtime re-ask with their own hints
    )
    model = get_model(
        spec,
        config_path=options.get("llm_config"),
        timeout=float(options["timeout"]) if options.get("timeout") else None,
        retry=retry,
    )
    settings = CognitiveSettings.from_options(options, spec)
    return CognitiveAgent(model, seat=ctx.seat, variant=ctx.variant, settings=settings)
