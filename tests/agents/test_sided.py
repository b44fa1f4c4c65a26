"""``sided:EVIL/VILLAGE``: every decision of an evil seat by the first agent, every decision of
a village seat by the second, in every variant."""

from __future__ import annotations

import pytest

from duskfall.agents.kinds import calls_models, check_agent
from duskfall.agents.mix import MixBot
from duskfall.agents.specs import parse_spec
from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import parse_config
from duskfall.session import GameSetup, prepare_game, run_game

VARIANTS = [("sports-mafia", {}), ("werewolf", {"preset": "werewolf-9"}), ("mafia", {})]
SIDED = (
    "sided:mix:heuristic@0.5/random/random"  # evil: a mix (counts its decisions); village: random
)


@pytest.mark.parametrize(("variant", "config"), VARIANTS)
async def test_every_evil_decision_is_the_first_agents_and_every_village_one_the_seconds(
    variant: str, config: dict[str, object]
) -> None:
    evil_decisions = 0
    for seed in range(6):
        game = prepare_game(
            GameSetup(variant, seed=seed, agents=SIDED, config=config, write_log=False)
        )
        await game.run()
        seats = game.scheduler.participants
        asked: dict[int, int] = {}
        for event in game.record.events:
            if event.kind == "action":
                seat = event.payload["seat"]
                asked[seat] = asked.get(seat, 0) + 1
        for seat, player in seats.items():
            evil = side_of(game.variant, game.state.team_of(seat)) == EVIL
            assert isinstance(player, MixBot) == evil, (seed, seat)
            if evil:  # the mix took every decision the seat was asked
                assert sum(player.taken) == asked.get(seat, 0)
                evil_decisions += sum(player.taken)
    assert evil_decisions > 20


@pytest.mark.parametrize(("variant", "config"), VARIANTS)
async def test_a_sided_seat_plays_exactly_as_its_sides_agent_alone(
    variant: str, config: dict[str, object]
) -> None:
    v = get_variant(variant)
    for seed in range(3):
        dealt = v.new_game(parse_config(v, config), seed)
        per_seat = ",".join(
            "heuristic" if side_of(v, dealt.team_of(s)) == EVIL else "random"
            for s in range(dealt.num_seats)
        )
        runs = []
        for agents in ("sided:heuristic/random", per_seat):
            played = await run_game(
                GameSetup(variant, seed=seed, agents=agents, config=config, write_log=False)
            )
            runs.append([e.payload for e in played.record.events if e.kind == "action"])
        assert len(runs[0]) > 10
        assert runs[0] == runs[1]


def test_the_spec_splits_where_both_sides_are_agents_and_refuses_the_rest() -> None:
    v = get_variant("werewolf")
    state = v.new_game(parse_config(v, {"preset": "werewolf-9"}), 1)
    agents = parse_spec(v, "sided:mix:heuristic@0.5/random/heuristic", state.num_seats)(state)
    for seat, agent in enumerate(agents):
        evil = side_of(v, state.team_of(seat)) == EVIL
        assert agent == ("mix:heuristic@0.5/random" if evil else "heuristic")
    assert check_agent(v, "sided:random/heuristic") == "sided:random/heuristic"
    for bad in ("sided:heuristic", "sided:heuristic/", "sided:nobody/random", "sided:human/random"):
        with pytest.raises(ConfigError, match="sided:"):
            check_agent(v, bad)
    assert not calls_models("sided:mix:heuristic@0.5/random/random")
    assert calls_models("sided:heuristic/llm:openai:gpt-4o-mini")
