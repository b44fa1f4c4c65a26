"""The built-in sports-mafia bots: legal answers only, determinism, and heuristic play."""

from __future__ import annotations

import asyncio
import random

import pytest

from duskfall.arena.simulate import simulate
from duskfall.core.rng import derive_rng
from duskfall.core.stats import Proportion
from duskfall.runtime.participant import LazyObservation
from duskfall.session import GameSetup, run_game
from duskfall.variants.sports_mafia.actions import SKIP, Declaration, EliminateAllVote, Kill, Vote
from duskfall.variants.sports_mafia.bots import BOTS, HeuristicAgent, RandomAgent
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.sports_mafia.roles import BLACK_ROLES
from duskfall.variants.sports_mafia.rules import SportsMafiaState

LINE_UPS = [
    ("random",) * 10,
    ("heuristic",) * 10,
    ("heuristic", "random") * 5,
    ("uniform", "heuristic") * 5,
]


def play_checked(seed: int, agents: tuple[str, ...]) -> SportsMafiaState:
    """Play one game; every answer must pass the full validation of its wire form."""
    state = SportsMafiaState(SportsMafiaConfig(), seed)
    bots = [BOTS[name](seat, derive_rng(seed, f"agent:{seat}")) for seat, name in enumerate(agents)]
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            legal = state.legal(seat)
            action = bots[seat].act(LazyObservation(lambda seat=seat: state.observe(seat)), legal)
            assert legal.parse(action.to_dict()) == legal.parse(action), (seed, seat, action)
            if isinstance(action, Vote) and state.role_of[seat] in BLACK_ROLES:
                reds = [t for t in legal.targets if state.role_of[t] not in BLACK_ROLES]
                if isinstance(bots[seat], HeuristicAgent) and reds:
                    assert action.target in reds, "heuristic mafia never vote a teammate"
            if isinstance(action, Declaration) and isinstance(bots[seat], RandomAgent):
                targets = [t for t, _ in action.nomination_policy]
                assert targets == sorted(targets), "the seed's policy is sorted by target"
            state.apply(seat, action)
    return state


@pytest.mark.parametrize("agents", LINE_UPS, ids=lambda a: "-".join(sorted(set(a))))
def test_bots_only_answer_legal_actions(agents):
    roles_seen = set()
    for seed in range(40):
        state = play_checked(seed, agents)
        roles_seen.update((state.role_of[s], agents[s]) for s in range(10))
    assert {role for role, _ in roles_seen} == {"CITIZEN", "SHERIFF", "MAFIA", "DON"}


def events_of(seed: int, agents: str) -> list[dict]:
    setup = GameSetup("sports-mafia", seed=seed, agents=agents, write_log=False, game_id="g")
    game = asyncio.run(run_game(setup))
    return [event.to_dict() for event in game.record.events]


@pytest.mark.parametrize("agents", ["random", "heuristic", "town=random,mafia=heuristic"])
def test_bots_are_deterministic_by_seed(agents):
    for seed in (3, 17):
        first = events_of(seed, agents)
        assert first == events_of(seed, agents)
        assert not any(e["kind"] == "fallback" for e in first)
    assert events_of(3, agents) != events_of(4, agents)


def red_rate(agents: str, games: int) -> Proportion:
    return simulate("sports-mafia", games, agents=agents, first_seed=10_000).win_rate("RED")


@pytest.mark.slow
def test_heuristic_beats_random_on_both_sides():
    baseline = red_rate("random", 200)
    heuristic_town = red_rate("town=heuristic,mafia=random", 120)
    heuristic_mafia = red_rate("town=random,mafia=heuristic", 120)
    assert heuristic_town.interval()[0] > baseline.interval()[1]
    assert heuristic_town.rate - baseline.rate > 0.2
    assert heuristic_mafia.interval()[1] < baseline.interval()[0]
    assert baseline.rate - heuristic_mafia.rate > 0.1


# -- role play on hand-made tables ---------------------------------------------------------


def table_for(seed: int, role: str) -> tuple[SportsMafiaState, int]:
    state = SportsMafiaState(SportsMafiaConfig(), seed)
    return state, state.role_of.index(role)


def claim_matrix(calls: dict[int, int]) -> list[list[int]]:
    """A claim matrix with one check per night: {target: -1 or 1}, in night order."""
    matrix = [[0] * 10 for _ in range(10)]
    for night, (target, value) in enumerate(calls.items()):
        matrix[night][target] = value
    return matrix


def test_sheriff_reveals_a_black_check_and_nominates_it():
    state, sheriff = table_for(1, "SHERIFF")
    black = state.black_team()[0]
    obs = state.observe(sheriff)
    obs["turn"] = 1
    obs["private_info"]["sheriff_checks"] = {str(black): "BLACK"}
    nominable = tuple(p for p in range(10) if p != sheriff)
    action = HeuristicAgent(sheriff, random.Random(0)).act(obs, DeclarationChoice(nominable))
    assert isinstance(action, Declaration)
    assert action.sheriff_claims[0][black] == -1
    assert action.declaration[black] == -3
    assert action.nomination_policy == ((black, 1.0),)


def test_citizens_believe_a_claimer_killed_at_night():
    state, citizen = table_for(2, "CITIZEN")
    claimer = next(p for p in range(10) if p != citizen)
    accused = next(p for p in range(10) if p not in (citizen, claimer))
    obs = state.observe(citizen)
    obs["players"][claimer]["sheriff_claims"] = claim_matrix({accused: -1})
    obs["players"][claimer]["alive"] = False
    obs["alive_players"].remove(claimer)  # not voted out: killed by the mafia
    obs["turn"] = 1
    others = tuple(p for p in obs["alive_players"] if p != citizen)
    legal = TargetChoice("VOTING", "VOTE", "vote", others)
    assert HeuristicAgent(citizen, random.Random(0)).act(obs, legal) == Vote(accused)


def test_the_don_kills_the_claimer_who_exposed_a_teammate():
    state, don = table_for(3, "DON")
    team = state.black_team()
    mafioso = next(p for p in team if p != don)
    claimer = next(p for p in range(10) if p not in team)
    obs = state.observe(don)
    obs["players"][claimer]["sheriff_claims"] = claim_matrix({mafioso: -1})
    obs["turn"] = 1
    others = tuple(p for p in range(10) if p != don)
    legal = TargetChoice("NIGHT_KILL", "KILL", "kill", others, allow_skip=True)
    assert HeuristicAgent(don, random.Random(0)).act(obs, legal) == Kill(claimer)


def test_a_mafioso_counter_claims_a_sheriff():
    state, don = table_for(4, "DON")
    team = state.black_team()
    faker = min(p for p in team if p != don)
    claimer = next(p for p in range(10) if p not in team)
    obs = state.observe(faker)
    obs["players"][claimer]["sheriff_claims"] = claim_matrix({faker: -1})
    obs["turn"] = 1
    nominable = tuple(p for p in range(10) if p != faker)
    action = HeuristicAgent(faker, random.Random(0)).act(obs, DeclarationChoice(nominable))
    assert action.sheriff_claims[0][claimer] == -1, "calls the rival claimer black"
    assert action.nomination_policy == ((claimer, 1.0),)
    assert all(action.declaration[p] > 0 for p in team)


def test_mafia_keep_tied_teammates_unless_it_wins():
    state, don = table_for(5, "DON")
    team = state.black_team()
    red = next(p for p in range(10) if p not in team)
    obs = state.observe(don)
    obs["tied_players"] = [red, next(p for p in team if p != don)]
    bot = HeuristicAgent(don, random.Random(0))
    assert bot.act(obs, EliminateAllChoice()) == EliminateAllVote(False)
    obs["tied_players"] = [red]
    assert bot.act(obs, EliminateAllChoice()) == EliminateAllVote(True)


def test_random_agent_never_reads_its_observation():
    class Untouchable(dict):
        def __getitem__(self, key):
            raise AssertionError(f"read {key}")

    state = SportsMafiaState(SportsMafiaConfig(), 0)
    bot = RandomAgent(0, random.Random(0))
    action = bot.act(Untouchable(), state.legal(0))
    assert isinstance(action, Declaration)
    assert all(target == SKIP or target in range(1, 10) for target, _ in action.nomination_policy)
