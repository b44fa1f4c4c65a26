"""Built-in agents playing from the wire form alone choose actions the rules accept."""

from __future__ import annotations

import random

import pytest

from duskfall.client.agent import AgentPlayer
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.protocol import ActionRequest


@pytest.mark.parametrize("agent", ["random", "heuristic"])
async def test_agent_actions_from_wire_requests_are_legal(agent: str) -> None:
    variant = get_variant("sports-mafia")
    if agent not in variant.bots():
        pytest.skip(f"sports-mafia has no {agent} bot")
    rng = random.Random(0)
    for seed in range(15):
        players = {seat: AgentPlayer(agent, seed=seat) for seat in range(10)}
        state = variant.new_game(parse_config(variant, {}), seed)
        while state.outcome() is None:
            for decision in state.pending():
                legal = state.legal(decision.seat)
                request = ActionRequest(
                    player_id=decision.seat,
                    phase=decision.kind,
                    valid_actions=legal.to_wire(),
                    observation=state.observe(decision.seat),
                    request_id=1,
                    game_id=f"g{seed}",
                )
                action = await players[decision.seat].act(request)
                state.apply(decision.seat, legal.parse(action))  # raises if illegal
                break
            rng.random()


def test_unknown_agent_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="unknown agent"):
        AgentPlayer("telepath")
