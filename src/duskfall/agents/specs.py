"""Agent specs: which agent plays which seat.

A spec names one agent for every seat (``random``), one per team or role
(``town=heuristic,mafia=random``, ``werewolf=llm:local,default=heuristic``), one per seat
index (``3=human,default=random``) or a full per-seat list (``random,heuristic,...``). An
agent is a name with an optional argument after a colon: ``llm:openai:gpt-4o-mini``.

The agents themselves, and the registry of their kinds, are :mod:`duskfall.agents.kinds`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from duskfall.agents.kinds import check_agent
from duskfall.agents.sided import seat_agent
from duskfall.core.errors import ConfigError
from duskfall.core.variant import State, Variant


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
