"""Agent kinds: the registry of what an agent string names, and building one seat's agent.

An agent is a name with an optional argument after a colon: ``llm:openai:gpt-4o-mini``. A
variant's bots are plain names; every other kind is registered lazily
(``name -> "module:factory"``) so that heavy dependencies are imported only when used; with
each, the check of the agent options it reads. Kinds made of other agents (``mix``,
``sided``) register the check of their argument and whether they may call a model, the same
way. Which agent plays which seat is :mod:`duskfall.agents.specs`'.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.errors import ConfigError
from duskfall.core.rng import derive_rng
from duskfall.core.variant import Variant
from duskfall.runtime.participant import Player


@dataclass
class AgentContext:
    """What a factory needs to build the agent of one seat."""

    variant: Variant
    seat: int
    seed: int
    arg: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def rng(self) -> random.Random:
        return derive_rng(self.seed, f"agent:{self.seat}")


AgentFactory = Callable[[AgentContext], Player]
OptionCheck = Callable[[Mapping[str, Any]], Collection[str]]
"""Checks the agent options a kind reads (one ConfigError for a bad value); returns their
names."""

_KINDS: dict[str, str | AgentFactory] = {
    "llm": "duskfall.agents.llm_agent:make_llm_agent",
    "cognitive": "duskfall.agents.cognitive:make_cognitive_agent",
    "human": "duskfall.agents.human:make_human",
    "mix": "duskfall.agents.mix:make_mix_agent",
    "sided": "duskfall.agents.sided:make_sided_agent",
}
_KIND_HELP = {
    "llm": "llm:<model spec> (e.g. llm:local, llm:openai:gpt-4o-mini)",
    "cognitive": "cognitive:<model spec>",
    "human": "human",
    "mix": "mix:A@p/B (each decision by A with probability p, else B)",
    "sided": "sided:E/V (the evil side's seats by E, the village's by V)",
}
_OPTION_CHECKS: dict[str, str | OptionCheck] = {
    "llm": "duskfall.agents.option_checks:llm_options",
    "cognitive": "duskfall.agents.option_checks:cognitive_options",
    "human": "duskfall.agents.option_checks:human_options",
    "mix": "duskfall.agents.mix:mix_options",
    "sided": "duskfall.agents.sided:sided_options",
}


# Kinds made of other agents: the check of their argument for a variant (one ConfigError), and
# whether an agent of the kind may call a model (from the whole agent string).
AgentCheck = Callable[[Variant, str], object]
ModelsCheck = Callable[[str], bool]
_AGENT_CHECKS: dict[str, str | AgentCheck] = {
    "mix": "duskfall.agents.mix:check_mix",
    "sided": "duskfall.agents.sided:parse_sided",
}
_CALLS_MODELS: dict[str, str | ModelsCheck] = {
    "mix": "duskfall.agents.mix:mix_calls_models",
    "sided": "duskfall.agents.sided:sided_calls_models",
}


def register_agent_kind(
    name: str,
    factory: str | AgentFactory,
    help_text: str = "",
    options: str | OptionCheck | None = None,
) -> None:
    """Register an agent kind; ``factory`` may be ``"module:callable"`` (imported lazily).

    ``options`` checks the agent options the kind reads (:data:`OptionCheck`); a kind
    registered without one may read any name, so unknown names are then let through.
    """
    _KINDS[name] = factory
    _KIND_HELP[name] = help_text or name
    if options is None:
        _OPTION_CHECKS.pop(name, None)
    else:
        _OPTION_CHECKS[name] = options


def _imported(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _loaded(table: dict[str, Any], kind: str) -> Any:
    """The entry of ``kind`` in ``table``, imported once if it is still ``"module:name"``."""
    entry = table[kind]
    if isinstance(entry, str):
        entry = table[kind] = _imported(entry)
    return entry


def valid_agent_names(variant: Variant) -> list[str]:
    """Every agent name a spec may use for ``variant``."""
    names = list(variant.bots())
    for kind in _KINDS:
        module = _KINDS[kind]
        if isinstance(module, str) and importlib.util.find_spec(module.partition(":")[0]) is None:
            continue
        names.append(_KIND_HELP.get(kind, kind))
    return names


def check_agent(variant: Variant, agent: str) -> str:
    """``agent`` (stripped) if it names a valid agent for ``variant``, else a ConfigError."""
    agent = agent.strip()
    kind = agent.partition(":")[0]
    if kind in variant.bots() and ":" not in agent:
        return agent
    if kind in _AGENT_CHECKS and kind in _KINDS:
        _loaded(_AGENT_CHECKS, kind)(variant, agent.partition(":")[2])
        return agent
    if kind in _KINDS and (kind == "human" or agent.partition(":")[2]):
        return agent
    raise ConfigError(
        f"unknown agent {agent!r} for {variant.id}; valid agents: "
        + ", ".join(valid_agent_names(variant))
    )


def calls_models(agent: str) -> bool:
    """Whether ``agent`` may call a model endpoint: ``llm:...``, ``cognitive:...``, a mix with
    one of those in it, and any kind registered by others (it may). A variant's bot, a
    ``remote`` program, ``human`` and a mix of bots call none."""
    kind, sep, _ = agent.strip().partition(":")
    if not sep:
        return False
    if kind in _CALLS_MODELS:
        return bool(_loaded(_CALLS_MODELS, kind)(agent))
    return kind != "human"


def check_agent_options(options: Mapping[str, Any]) -> None:
    """Refuse, whichever agents the game has, with one ConfigError naming every mistake: a bad
    value of an option some agent kind reads (``max_tokens=-5``), and names no kind reads
    (``bogus=1``)."""
    if not options:
        return  # nothing to refuse (and no model validation for every simulated game)
    known: set[str] = set()
    problems: list[str] = []
    every_kind_known = True
    for kind in _KINDS:
        check = _OPTION_CHECKS.get(kind)
        if check is None:
            every_kind_known = False
            continue
        if isinstance(check, str):
            check = _OPTION_CHECKS[kind] = _imported(check)
        try:
            known.update(check(options))
        except ConfigError as exc:
            problems.append(str(exc))
            known.update(check({}))  # the names it reads, to tell a typo from a bad value
    unknown = sorted(set(options) - known)
    if unknown and every_kind_known:
        names = ", ".join(repr(name) for name in unknown)
        problems.insert(
            0,
            f"unknown agent option{'s' if len(unknown) > 1 else ''} {names}; "
            f"valid options: {', '.join(sorted(known))}",
        )
    if problems:
        raise ConfigError("; ".join(dict.fromkeys(problems)))


def make_participant(agent: str, ctx: AgentContext) -> Player:
    """Build the participant for one seat from an agent string such as ``heuristic``."""
    kind, _, arg = agent.partition(":")
    bots = ctx.variant.bots()
    if kind in bots and not arg:
        bot: Bot = bots[kind](ctx.seat, ctx.rng)
        return bot
    factory = _KINDS.get(kind)
    if factory is None:
        raise ConfigError(f"unknown agent {agent!r}")
    if isinstance(factory, str):
        factory = _KINDS[kind] = _imported(factory)
    ctx.arg = arg
    assert callable(factory)
    return factory(ctx)
