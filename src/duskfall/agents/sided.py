"""Entrants of known two-sided strength: ``sided:EVIL/VILLAGE`` plays every seat of the evil
side with agent ``EVIL`` and every seat of the village with agent ``VILLAGE``.

A board measures two skills, *deception* (as the evil side) and *detection* (as the village);
a ladder of ``mix:`` entrants plants one strength on both sides at once, so it checks only
their mean. ``sided:heuristic/random`` is a strong wolf and a weak villager, and with ``mix:``
inside (``sided:mix:heuristic@0.8/random/mix:heuristic@0.2/random``) a ladder has a known
deception order and a known, different detection order.

The side is the seat's team when the roles are dealt (the variant's last team is its evil
side, :func:`duskfall.core.sides.side_of`); no variant here moves a seat to another team. The
spec is resolved there, by the agent spec's resolver (:func:`duskfall.agents.specs.parse_spec`):
the seat gets exactly the agent its side names, built as it would be alone (the same seeded
stream), so every decision of an evil seat is the first agent's and every decision of a village
seat the second's. Any agents may be used, in every variant (``mix:``, a model, a bot).

The split is at the first ``/`` with a valid agent on each side, so agents with their own
``/`` (``mix:A@p/B``, ``llm:openai:m@http://host/v1``) can be used too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from duskfall.agents.kinds import calls_models, check_agent
from duskfall.core.errors import ConfigError
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import State, Variant

KIND = "sided"
HELP = "sided:EVIL/VILLAGE (the evil side's seats played by EVIL, the village's by VILLAGE)"


@dataclass(frozen=True)
class SidedSpec:
    """The parts of ``sided:EVIL/VILLAGE``."""

    evil: str
    village: str


def parse_sided(variant: Variant, arg: str) -> SidedSpec:
    """``EVIL/VILLAGE`` (the part after ``sided:``) split at the first ``/`` that leaves a
    valid agent for ``variant`` on each side (one ConfigError otherwise)."""
    last: ConfigError | None = None
    for at in (i for i, c in enumerate(arg) if c == "/"):
        evil, village = arg[:at].strip(), arg[at + 1 :].strip()
        if not evil or not village:
            continue
        try:
            for agent in (evil, village):
                if agent.partition(":")[0] == "human":
                    raise ConfigError(f"{KIND}:{arg}: a person plays every seat it is given")
                check_agent(variant, agent)
        except ConfigError as exc:
            last = exc
            continue
        return SidedSpec(evil, village)
    if last is not None:
        raise ConfigError(f"{KIND}:{arg}: {last}") from None
    raise ConfigError(f"{KIND}:{arg}: write {HELP}")


def is_sided(agent: str) -> bool:
    return agent.strip().partition(":")[0] == KIND


def seat_agent(variant: Variant, agent: str, state: State, seat: int) -> str:
    """The agent that plays ``seat`` for ``agent``: itself, or for ``sided:E/V`` the part of
    the seat's side (resolved again if that part is ``sided:`` too)."""
    while is_sided(agent):
        spec = parse_sided(variant, agent.strip().partition(":")[2])
        agent = spec.evil if side_of(variant, state.team_of(seat)) == EVIL else spec.village
    return agent


def parts_of(agent: str) -> tuple[str, str] | None:
    """The two agents of ``sided:E/V`` without a variant to check them by (the first split
    with text on both sides that is not inside a ``mix:`` probability), or None."""
    if not is_sided(agent):
        return None
    arg = agent.strip().partition(":")[2]
    for at in (i for i, c in enumerate(arg) if c == "/"):
        evil, village = arg[:at].strip(), arg[at + 1 :].strip()
        if evil and village and not evil.rsplit("@", 1)[-1].replace(".", "").isdigit():
            return evil, village
    return None


def sided_calls_models(agent: str) -> bool:
    """Whether ``sided:E/V`` may call a model: whether E or V may (True if it does not split)."""
    parts = parts_of(agent)
    return parts is None or any(calls_models(part) for part in parts)


def make_sided_agent(ctx: Any) -> Any:
    """``sided:`` is resolved where the roles are dealt (an agent spec), never built alone."""
    raise ConfigError(
        f"{KIND}:{ctx.arg}: the seat's side decides its agent, so give it in an agent spec "
        "(play, simulate, a tournament entrant), where roles are dealt first"
    )


def sided_options(options: Mapping[str, Any]) -> Collection[str]:
    """The kind reads no option itself: its agents' kinds check theirs."""
    return ()
