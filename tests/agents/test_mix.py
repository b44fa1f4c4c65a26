"""``mix:A@p/B``: each decision taken by A with probability p (seeded), for every variant."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from duskfall.agents.mix import MixBot, MixParticipant, parse_mix
from duskfall.core.errors import ConfigError
from duskfall.core.sides import EVIL, side_of
from duskfall.session import GameSetup, prepare_game, run_game

VARIANTS = [("sports-mafia", {}), ("werewolf", {"preset": "werewolf-9"}), ("mafia", {})]


@pytest.mark.parametrize(("variant", "config"), VARIANTS)
async def test_each_side_takes_the_first_agent_at_the_stated_rate(
    variant: str, config: dict[str, object]
) -> None:
    taken: Counter[tuple[str, int]] = Counter()  # (side, 0 first / 1 second)
    for seed in range(40):
        game = prepare_game(
            GameSetup(
                variant, seed=seed, agents="mix:heuristic@0.7/random", config=config,
                write_log=False,
            )
        )  # fmt: skip
        await game.run()
        for seat, bot in game.scheduler.participants.items():
            assert isinstance(bot, MixBot)
            side = side_of(game.variant, game.state.team_of(seat))
            taken[side, 0] += bot.taken[0]
            taken[side, 1] += bot.taken[1]
    for side in (EVIL, "village"):
        n = taken[side, 0] + taken[side, 1]
        share = taken[side, 0] / n
        assert n > 200, (side, n)
        assert abs(share - 0.7) < 4 * math.sqrt(0.7 * 0.3 / n), (side, share, n)


@pytest.mark.parametrize(("variant", "config"), VARIANTS)
async def test_the_ends_of_the_ladder_play_exactly_as_the_agents_they_mix(
    variant: str, config: dict[str, object]
) -> None:
    for p, alone in (("1", "heuristic"), ("0", "random")):
        for seed in range(3):
            mixed = await run_game(
                GameSetup(variant, seed=seed, agents=f"mix:heuristic@{p}/random", config=config,
                          write_log=False)
            )  # fmt: skip
            plain = await run_game(
                GameSetup(variant, seed=seed, agents=alone, config=config, write_log=False)
            )
            actions = [e.payload for e in mixed.record.events if e.kind == "action"]
            assert len(actions) > 10
            assert actions == [e.payload for e in plain.record.events if e.kind == "action"]


async def test_the_same_seed_gives_the_same_game_and_the_coin_is_per_seat() -> None:
    runs = []
    for _ in range(2):
        game = prepare_game(
            GameSetup("werewolf", seed=5, agents="mix:heuristic@0.5/random", write_log=False)
        )
        await game.run()
        runs.append(
            (
                [e.payload for e in game.record.events if e.kind == "action"],
                [tuple(b.taken) for b in game.scheduler.participants.values()],  # type: ignore[attr-defined]
            )
        )
    assert runs[0] == runs[1]
    assert len(set(runs[0][1])) > 1


async def test_a_model_backed_agent_can_be_mixed() -> None:
    game = prepare_game(
        GameSetup("sports-mafia", seed=2, agents="mix:llm:scripted@0.5/heuristic", write_log=False)
    )
    outcome = await game.run()
    assert outcome.winner is not None
    mixes = list(game.scheduler.participants.values())
    assert all(isinstance(m, MixParticipant) for m in mixes)
    assert sum(m.taken[0] for m in mixes) > 0 and sum(m.taken[1] for m in mixes) > 0  # type: ignore[attr-defined]
    assert any(e.kind == "llm_call" for e in game.record.events)


def test_model_specs_with_their_own_at_sign_split_at_the_probability() -> None:
    spec = parse_mix("llm:openai:m@http://127.0.0.1:8080/v1@0.25/random")
    assert (spec.first, spec.p, spec.second) == (
        "llm:openai:m@http://127.0.0.1:8080/v1",
        0.25,
        "random",
    )


@pytest.mark.parametrize(
    ("agents", "needle"),
    [
        ("mix:heuristic@1.5/random", "between 0 and 1"),
        ("mix:heuristic", "mix:A@p/B"),
        ("mix:heuristic@0.5/", "mix:A@p/B"),
        ("mix:nobody@0.5/random", "unknown agent 'nobody'"),
        ("mix:human@0.5/random", "person cannot be mixed"),
    ],
)
async def test_bad_mixes_are_one_clear_error(agents: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        await run_game(GameSetup("werewolf", seed=1, agents=agents, write_log=False))
