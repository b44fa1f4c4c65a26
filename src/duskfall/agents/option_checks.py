"""The agent options each built-in agent kind reads, checked whatever agents a game has.

Agent options (``--agent-option KEY=VALUE``) are one mapping shared by every seat; each kind
checks the values it reads (one ConfigError for a bad one, e.g. ``max_tokens=-5``) and says
which names it reads, so that a name no kind reads (``bogus=1``) is refused too
(:func:`duskfall.agents.kinds.check_agent_options`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import fields
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.llm.options import ModelOptions, read_options


def llm_options(options: Mapping[str, Any]) -> Collection[str]:
    """The ``llm`` agent's options (retired names refused with their replacement)."""
    from duskfall.agents.llm_agent import LLMAgentOptions, check_retired

    check_retired(options)
    read_options(LLMAgentOptions, options, "llm agent")
    return set(LLMAgentOptions.model_fields)


def cognitive_options(options: Mapping[str, Any]) -> Collection[str]:
    """The ``cognitive`` agent's options: the model's and its budgets."""
    from duskfall.agents.cognitive.settings import CognitiveSettings

    read_options(ModelOptions, options, "cognitive agent")
    CognitiveSettings.from_options(options, "")
    return {*ModelOptions.model_fields, *(f.name for f in fields(CognitiveSettings))}


def human_options(options: Mapping[str, Any]) -> Collection[str]:
    """``human_timeout``: seconds a person has for one decision."""
    if "human_timeout" in options:
        value = options["human_timeout"]
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = float("nan")
        if not 0 < seconds < float("inf"):
            raise ConfigError(f"invalid agent option human_timeout: {value!r} is not seconds > 0")
    return {"human_timeout"}
