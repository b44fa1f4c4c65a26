"""The PettingZoo environments: PettingZoo's own tests, seeding, masks, tokens, no leaks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_seed
from duskfall.learn.aec import DuskfallAEC
from duskfall.learn.encoders import encoder_for
from duskfall.learn.parallel import DuskfallParallel
from duskfall.variants.sports_mafia.tokens import ID, VOCABULARY, token_ids, words

CASES = [
    ("werewolf", {"preset": "werewolf-6"}),
    ("werewolf", {"preset": "werewolf-12"}),
    ("mafia", {}),
    ("sports-mafia", {}),
]
IDS = [c.get("preset", v) for v, c in CASES]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that a Dict observation "probably should be" a Box: masks need a Dict
    warnings.filterwarnings("ignore", module="pettingzoo")


@pytest.mark.parametrize(("variant", "config"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(variant: str, config: dict) -> None:
    api_test(DuskfallAEC(variant, config), num_cycles=150)
    seed_test(lambda: DuskfallAEC(variant, config), num_cycles=150)


@pytest.mark.parametrize(("variant", "config"), CASES, ids=IDS)
def test_pettingzoo_parallel_api_and_seed_tests_pass(variant: str, config: dict) -> None:
    parallel_api_test(DuskfallParallel(variant, config), num_cycles=150)
    # PettingZoo's parallel seed test samples without the mask: illegal picks fall back
    parallel_seed_test(lambda: DuskfallParallel(variant, config, illegal="fallback"), 150)


def test_the_token_observation_passes_the_api_test_and_reads_back() -> None:
    api_test(DuskfallAEC("sports-mafia", observation="tokens"), num_cycles=100)
    assert len(set(VOCABULARY)) == len(VOCABULARY) and VOCABULARY[0] == "PAD"
    env = DuskfallAEC("sports-mafia", observation="tokens")
    env.reset(seed=4)
    seat = int(env.agent_selection.removeprefix("seat_"))
    ids = env.observe(env.agent_selection)["observation"]
    role = env.table.state.roles()[seat]
    assert words(ids).startswith(f"BOS ME P{seat} ROLE_{role} ")
    assert words(ids).endswith("EOS") and ids.dtype == np.int32
    assert token_ids(env.table.observe(seat))[-1] == ID["EOS"]


def test_tokens_are_only_for_a_variant_that_declares_them_and_bad_options_are_one_line() -> None:
    with pytest.raises(ConfigError, match="'werewolf' has no token observation"):
        DuskfallAEC("werewolf", observation="tokens")
    with pytest.raises(ConfigError, match="reward must be"):
        DuskfallAEC("mafia", reward="dense")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown bot 'genius'"):
        DuskfallAEC("mafia", opponents={1: "genius"})


def test_an_action_outside_the_mask_is_refused_with_the_legal_ones() -> None:
    env = DuskfallAEC("werewolf", {"preset": "werewolf-6"})
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=r"is not legal .* legal: \["):
        env.step(bad)


@pytest.mark.parametrize(("variant", "config"), CASES, ids=IDS)
def test_every_legal_menu_entry_is_a_legal_action(variant: str, config: dict) -> None:
    """Play games choosing every legal entry once somewhere: none is refused by the rules."""
    env = DuskfallAEC(variant, config)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter(3000):
            obs, _r, done, _t, _i = env.last()
            if done:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0, f"{agent} has no legal entry"
            env.step(int(rng.choice(legal)))


LEAK_CASES = [
    pytest.param(v, c, marks=pytest.mark.slow) if c.get("preset") == "werewolf-12" else (v, c)
    for v, c in CASES
]


@pytest.mark.parametrize(("variant", "config"), LEAK_CASES, ids=IDS)
def test_features_depend_only_on_what_the_seat_may_know(variant: str, config: dict) -> None:
    """The kit's scramble re-deals everything hidden from a seat: its features stay the same."""
    env = DuskfallAEC(variant, config)
    scramble = get_variant(variant).info.scramble_hidden
    assert scramble is not None
    rng = random.Random(3)
    checked = 0
    for seed in range(2):
        env.reset(seed=seed)
        for step, _agent in enumerate(env.agent_iter(400)):
            obs, _r, done, _t, _i = env.last()
            if done:
                env.step(None)
                continue
            if step % 11 == 0:
                state = env.table.state
                mover = int(_agent.removeprefix("seat_"))
                for seat in (mover, (mover + 1) % state.num_seats):
                    other = scramble(state, seat, rng)
                    mine = encoder_for(get_variant(variant), state.num_seats, seat)
                    theirs = encoder_for(get_variant(variant), state.num_seats, seat)
                    assert np.array_equal(
                        mine.features(state.observe(seat)), theirs.features(other.observe(seat))
                    ), f"seat {seat}'s features depend on hidden information"
                    checked += 1
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert checked > 10


def test_bots_can_take_seats_and_rewards_come_at_the_end() -> None:
    env = DuskfallAEC(
        "werewolf", {"preset": "werewolf-9"}, opponents=dict.fromkeys(range(1, 9), "heuristic")
    )
    assert env.possible_agents == ["seat_0"]
    env.reset(seed=5)
    rewards = []
    for _agent in env.agent_iter():
        obs, reward, done, _t, _i = env.last()
        rewards.append(reward)
        if done:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(r == 0 for r in rewards[:-1]) and rewards[-1] in (-1.0, 1.0)
    shaped = DuskfallAEC("werewolf", {"preset": "werewolf-9"}, reward="shaped")
    shaped.reset(seed=5)
    while shaped.agents:
        obs, _r, done, _t, _i = shaped.last()
        shaped.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))
    assert shaped.table.over


def test_reset_without_a_seed_deals_a_derived_seed() -> None:
    env = DuskfallAEC("mafia")
    env.reset(seed=7)
    assert env.table.seed == 7
    env.reset()
    assert env.table.seed == derive_seed(7, "reset")  # never 8: a seed does not give the next
    again = DuskfallAEC("mafia")
    again.reset(seed=7)
    again.reset()
    assert again.table.seed == env.table.seed
