"""Agent specs: which agent plays which seat.

A spec names one agent for every seat (``random``), one per team or role
(``town=heuristic,mafia=random``, ``werewolf=llm:local,default=heuristic``), one per seat
index (``3=human,default=random``) or a full per-seat list (``random,heuristic,...``). An
agent is a name with an optional argument after a colon: ``llm:openai:gpt-4o-mini``.

Agent kinds are registered lazily (``name -> "module:factory"``) so that heavy dependencies
are imported only when used; with each, the check of the agent options it reads.
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
from duskfall.core.variant import State, Variant
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
    if kind == "mix" and kind in _KINDS:
        from duskfall.agents.mix import check_mix

        check_mix(variant, agent.partition(":")[2])
        return agent
    if kind == "sided" and kind in _KINDS:
        from duskfall.agents.sided import parse_sided

        parse_sided(variant, agent.partition(":")[2])
        return agent
    if kind in _KINDS and (kind == "human" or agent.partition(":")[2]):
        return agent
    raise ConfigError(
        f"unknown agent {agent!r} for {variant.id}; valid agents: "
        + ", ".join(valid_agent_names(variant))
    )


def parse_spec(variant: Variant, spec: str, num_seats: int) -> Callable[[State], list[str]]:
    """Validate ``spec`` now; return a resolver giving each seat's agent once roles are dealt."""
    spec = spec.strip()
    if not spec:
        raise ConfigError("empty agent spec; e.g. 'random' or 'town=heuristic,mafia=random'")
    parts = [p.strip() for p in spec.split(",")]
    if all("=" not in p for p in parts):
        if len(parts) == 1:
            agent = check_agent(variant, parts[0])
            return lambda state: _by_side(variant, state, [agent] * state.num_seats)
        if len(parts) != num_seats:
            raise ConfigError(
                f"agent list has {len(parts)} entries but the game has {num_seats} seats"
            )
        agents = [check_agent(variant, p) for p in parts]
        return lambda state: _by_side(variant, state, agents)
    by_key: dict[str, str] = {}
    for part in parts:
        key, sep, agent = part.partition("=")
        if not sep:
            raise ConfigError(f"agent spec part {part!r} needs KEY=AGENT when others use '='")
        by_key[_normalise_key(variant, key.strip(), num_seats)] = check_agent(variant, agent)

    def resolve(state: State) -> list[str]:
        roles = state.roles()
        _check_keys(variant, state, roles, by_key)
        out = []
        for seat in range(state.num_seats):
            candidates = _keys_of(state, seat, roles)
            chosen = next((by_key[c] for c in candidates if c in by_key), by_key.get("default"))
            if chosen is None:
                raise ConfigError(
                    f"agent spec {spec!r} names no agent for seat {seat} "
                    f"({state.team_of(seat)}); add default=AGENT"
                )
            out.append(chosen)
        return _by_side(variant, state, out)

    return resolve


def _by_side(variant: Variant, state: State, agents: list[str]) -> list[str]:
    """Each seat's agent with ``sided:E/V`` resolved by the seat's side
    (:mod:`duskfall.agents.sided`)."""
    if not any(a.startswith("sided:") for a in agents):
        return list(agents)
    from duskfall.agents.sided import seat_agent

    return [seat_agent(variant, agent, state, seat) for seat, agent in enumerate(agents)]


def _check_keys(
    variant: Variant, state: State, roles: Mapping[int, str], by_key: Mapping[str, str]
) -> None:
    """Refuse a key that names no seat of this game (a misspelt team or role), naming the
    keys that do."""
    named = {key for seat in range(state.num_seats) for key in _keys_of(state, seat, roles)}
    unknown = [key for key in by_key if key != "default" and key not in named]
    if not unknown:
        return
    teams = sorted({state.team_of(seat) for seat in range(state.num_seats)})
    aliases = sorted(alias for alias, team in variant.team_aliases.items() if team in teams)
    role_names = sorted(named - set(teams) - {str(s) for s in range(state.num_seats)})
    raise ConfigError(
        f"agent spec key {unknown[0]!r} names no seat of this game; valid keys: seat numbers "
        f"0-{state.num_seats - 1}, teams {', '.join(sorted({*teams, *aliases}))}, roles "
        f"{', '.join(role_names)}, and default"
    )


def _keys_of(state: State, seat: int, roles: Mapping[int, str]) -> list[str]:
    """The keys a spec may name ``seat`` by: its number, each of its roles, its team."""
    return [str(seat), *(r.strip() for r in roles[seat].lower().split("+")), state.team_of(seat)]


def seats_of_key(variant: Variant, key: str, state: State) -> list[int]:
    """The seats a spec key names (a seat number, a team or its alias, a role): the seats
    ``KEY=AGENT`` would give to AGENT. Raises ConfigError for a seat that does not exist."""
    wanted = _normalise_key(variant, key.strip(), state.num_seats)
    roles = state.roles()
    return [seat for seat in range(state.num_seats) if wanted in _keys_of(state, seat, roles)]


def _normalise_key(variant: Variant, key: str, num_seats: int) -> str:
    low = key.lower()
    if low in ("default", "*", "rest", "others"):
        return "default"
    if low.isdigit():
        if int(low) >= num_seats:
            raise ConfigError(f"seat {low} does not exist (seats are 0-{num_seats - 1})")
        return str(int(low))
    if low in variant.team_aliases:
        return variant.team_aliases[low]
    return low  # a role name, matched against each seat's roles


def agents_of(spec: str) -> list[str]:
    """The agents a spec names: ``town=heuristic,mafia=llm:local`` gives ``heuristic`` and
    ``llm:local``; ``random`` gives ``random``."""
    agents = []
    for part in spec.split(","):
        key, sep, agent = part.partition("=")
        agents.append((agent if sep and ":" not in key else part).strip())
    return agents


def calls_models(agent: str) -> bool:
    """Whether ``agent`` may call a model endpoint: ``llm:...``, ``cognitive:...``, a mix with
    one of those in it, and any kind registered by others (it may). A variant's bot, a
    ``remote`` program, ``human`` and a mix of bots call none."""
    kind, sep, arg = agent.strip().partition(":")
    if not sep:
        return False
    if kind == "mix":
        from duskfall.agents.mix import parse_mix

        mixed = parse_mix(arg)
        return calls_models(mixed.first) or calls_models(mixed.second)
    if kind == "sided":
        from duskfall.agents.sided import parts_of

        parts = parts_of(agent)
        return parts is None or any(calls_models(part) for part in parts)
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
