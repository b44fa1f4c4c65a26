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
from duskfall.agents.kinds import AgentContext
from duskfall.llm.options import ModelOptions, read_options

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
    spec = ctx.arg or "local"
    options = read_options(ModelOptions, ctx.options, "cognitive agent")
    # the sessions and the runtime re-ask with their own hints: no format re-asks
    model = options.build_model(spec, format_retries=0)
    settings = CognitiveSettings.from_options(ctx.options, spec)
    return CognitiveAgent(
        model,
        seat=ctx.seat,
        variant=ctx.variant,
        settings=settings,
        sampler=options.sampler_settings(),
    )
