"""Scripted tables for the sports-mafia rules (seed 001 and the reference server's behaviour)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from duskfall.core.errors import IllegalAction
from duskfall.core.outcome import Termination
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.roles import DECK
from duskfall.variants.sports_mafia.rules import SportsMafiaState

ROLES = [
    "CITIZEN",
    "CITIZEN",
    "SHERIFF",
    "MAFIA",
    "DON",
    "CITIZEN",
    "CITIZEN",
    "MAFIA",
    "CITIZEN",
    "CITIZEN",
]


def make_state(roles: list[str] = ROLES, **config: Any) -> SportsMafiaState:
    state = SportsMafiaState(SportsMafiaConfig(**config), seed=1)
    state.role_of = list(roles)
    return state


def declare_all(state: SportsMafiaState, nominations: dict[int, int] | None = None) -> list[Any]:
    """Every speaker declares in turn, nominating as given (seat -> target)."""
    events = []
    nominations = nominations or {}
    while state.phase == "DECLARATION":
        seat = state.pending()[0].seat
        action: dict[str, Any] = {"type": "DECLARATION", "declaration": [0] * 10}
        if seat in nominations:
            action["nomination"] = nominations[seat]
        events += state.apply(seat, action)
    return events


def vote_all(state: SportsMafiaState, votes: dict[int, Any]) -> list[Any]:
    events = []
    for seat, target in votes.items():
        key = "vote" if isinstance(target, bool) else "target"
        kind = "ELIMINATE_ALL_VOTE" if isinstance(target, bool) else "VOTE"
        events += state.apply(seat, {"type": kind, key: target})
    return events


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def test_deal_is_seeded_and_complete() -> None:
    first = SportsMafiaState(SportsMafiaConfig(), seed=5).role_of
    assert sorted(first) == sorted(DECK)
    assert SportsMafiaState(SportsMafiaConfig(), seed=5).role_of == first
    assert any(SportsMafiaState(SportsMafiaConfig(), seed=s).role_of != first for s in range(6, 10))


def test_day_one_starts_at_seat_zero_and_declarations_go_in_order() -> None:
    state = make_state()
    order = []
    while state.phase == "DECLARATION":
        seat = state.pending()[0].seat
        order.append(seat)
        state.apply(seat, {"type": "DECLARATION", "declaration": [0] * 10})
    assert order == list(range(10))


def test_nomination_rules() -> None:
    state = make_state()
    with pytest.raises(IllegalAction) as self_nomination:
        state.apply(0, {"type": "DECLARATION", "declaration": [0] * 10, "nomination": 0})
    assert self_nomination.value.code == "invalid_target"
    events = state.apply(0, {"type": "DECLARATION", "declaration": [0] * 10, "nomination": 4})
    assert kinds(events) == ["DECLARATION", "PLAYER_NOMINATED"]
    assert events[1].payload == {"player_id": 4, "by": 0}
    assert 4 not in state.legal(1).to_wire()["nomination"]
    with pytest.raises(IllegalAction):
        state.apply(1, {"type": "DECLARATION", "declaration": [0] * 10, "nomination": 4})
    # an empty or missing policy means no nomination; zero weights too
    assert kinds(state.apply(1, {"type": "DECLARATION", "declaration": [0] * 10})) == [
        "DECLARATION"
    ]
    policy = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_policy": {"5": 0}}
    assert kinds(state.apply(2, policy)) == ["DECLARATION"]


def test_declaration_values_are_validated() -> None:
    state = make_state()
    for bad in ([4] + [0] * 9, [0] * 9, "nope"):
        with pytest.raises(IllegalAction) as error:
            state.apply(0, {"type": "DECLARATION", "declaration": bad})
        assert error.value.code == "bad_format"
    claims = [[0] * 10 for _ in range(10)]
    claims[0][3] = 2
    with pytest.raises(IllegalAction):
        state.apply(0, {"type": "DECLARATION", "declaration": [0] * 10, "sheriff_claims": claims})


def test_vote_targets_are_nominees_or_everyone_else() -> None:
    state = make_state()
    declare_all(state)
    assert state.legal(3).to_wire() == {"vote": [0, 1, 2, 4, 5, 6, 7, 8, 9]}
    other = make_state()
    declare_all(other, {0: 4, 1: 7})
    assert other.legal(3).to_wire() == {"vote": [4, 7]}
    with pytest.raises(IllegalAction) as error:
        other.apply(3, {"type": "VOTE", "target": 5})
    assert error.value.code == "invalid_target"


def test_legal_actions_are_computed_once_per_decision() -> None:
    state = make_state()
    declare_all(state)
    legal = state.legal(3)
    assert state.legal(3) is legal
    state.apply(0, {"type": "VOTE", "target": 3})  # another vote in the round: 3's choice stays
    assert state.legal(3) is legal
    with pytest.raises(IllegalAction) as error:
        state.legal(0)  # voted: no longer pending
    assert error.value.code == "not_your_turn"
    vote_all(state, {s: 3 if s != 3 else 4 for s in range(1, 10)})
    assert state.phase == "NIGHT_KILL"
    with pytest.raises(IllegalAction):
        state.legal(3)  # voted out


def test_voting_is_simultaneous_and_unique_leader_is_eliminated() -> None:
    state = make_state()
    declare_all(state, {0: 4, 1: 7})
    assert [d.seat for d in state.pending()] == list(range(10))
    events = vote_all(state, {s: 4 if s < 6 else 7 for s in range(10)})
    assert kinds(events) == ["VOTES", "PLAYER_ELIMINATED", "NIGHT_STARTED"]
    assert events[1].payload == {"player_id": 4}
    assert state.phase == "NIGHT_KILL"
    assert state.pending()[0].seat == 3  # the Don (4) is out: the lowest living Mafia kills


def test_tie_revote_then_eliminate_all_passes_with_more_than_half() -> None:
    state = make_state()
    declare_all(state, {0: 4, 1: 7})
    events = vote_all(state, {s: 4 if s % 2 else 7 for s in range(10)})
    assert kinds(events) == ["VOTES", "REVOTE_STARTED"]
    assert state.observe(0)["tied_players"] == [4, 7]
    assert state.legal(0).to_wire() == {"vote": [4, 7]}
    events = vote_all(state, {s: 4 if s % 2 else 7 for s in range(10)})
    assert kinds(events) == ["VOTES", "ELIMINATE_ALL_STARTED"]
    assert state.phase == "VOTING"
    assert state.legal(0).to_wire() == {"eliminate_all": [True, False]}
    events = vote_all(state, {s: s < 6 for s in range(10)})  # 6 yes of 10 living
    assert kinds(events) == [
        "VOTES",
        "ELIMINATE_ALL_RESULT",
        "PLAYER_ELIMINATED",
        "PLAYER_ELIMINATED",
        "NIGHT_STARTED",
    ]
    assert not state.alive_flags[4] and not state.alive_flags[7]


def test_eliminate_all_fails_at_exactly_half() -> None:
    state = make_state()
    declare_all(state, {0: 4, 1: 7})
    vote_all(state, {s: 4 if s % 2 else 7 for s in range(10)})
    vote_all(state, {s: 4 if s % 2 else 7 for s in range(10)})
    events = vote_all(state, {s: s < 5 for s in range(10)})  # 5 yes is not more than half
    assert kinds(events) == ["VOTES", "ELIMINATE_ALL_RESULT", "NIGHT_STARTED"]
    assert events[1].payload["passed"] is False
    assert all(state.alive_flags)


def _to_night(state: SportsMafiaState) -> None:
    declare_all(state)
    vote_all(state, {s: (5 if s != 5 else 6) for s in range(10)})  # citizen 5 is voted out


def test_night_kill_check_results_are_private_and_day_rotates() -> None:
    state = make_state()
    _to_night(state)
    assert [d.seat for d in state.pending()] == [4]  # the Don kills
    assert -1 in state.legal(4).to_wire()["kill"]
    events = state.apply(4, {"type": "KILL", "target": 0})
    assert kinds(events) == ["PLAYER_KILLED"] and events[0].visibility == "public"
    events = state.apply(4, {"type": "DON_CHECK", "target": 2})
    assert events[0].kind == "DON_CHECK_RESULT"
    assert events[0].payload == {"target": 2, "is_sheriff": True}
    assert events[0].visibility == "seats:4"
    events = state.apply(2, {"type": "SHERIFF_CHECK", "target": 7})
    assert events[0].payload == {"target": 7, "team": "BLACK"}
    assert events[0].visibility == "seats:2"
    assert kinds(events)[1] == "DAY_STARTED"
    assert state.first_speaker == 1  # the first living seat after yesterday's first speaker (0)
    assert state.observe(2)["private_info"] == {"sheriff_checks": {"7": "BLACK"}}
    assert state.observe(4)["private_info"]["don_checks"] == {"2": True}
    assert "sheriff_checks" not in state.observe(4)["private_info"]
    assert state.observe(1)["private_info"] == {}
    assert state.observe(1)["known_roles"]["0"] == "UNKNOWN"
    assert state.observe(3)["private_info"]["mafia_team"] == [3, 4, 7]


def test_kill_skip_and_sheriff_killed_does_not_check() -> None:
    state = make_state()
    _to_night(state)
    assert kinds(state.apply(4, {"type": "KILL", "target": -1})) == ["NO_KILL"]
    state.apply(4, {"type": "DON_CHECK", "target": 1})
    state.apply(2, {"type": "SHERIFF_CHECK", "target": 3})
    assert state.phase == "DECLARATION"
    declare_all(state)
    vote_all(state, {s: (6 if s != 6 else 8) for s in state.alive()})
    events = state.apply(4, {"type": "KILL", "target": 2})  # the sheriff dies tonight
    assert kinds(events) == ["PLAYER_KILLED"]
    events = state.apply(4, {"type": "DON_CHECK", "target": 1})
    assert kinds(events) == ["DON_CHECK_RESULT", "DAY_STARTED"]  # no sheriff check
    assert state.phase == "DECLARATION"


def _three_black_four_red() -> SportsMafiaState:
    roles = ["CITIZEN", "SHERIFF", "MAFIA", "DON", "MAFIA"] + ["CITIZEN"] * 5
    state = make_state(roles)
    for seat in (5, 6, 7):
        state.alive_flags[seat] = False  # alive: red 0, 1, 8, 9 and black 2, 3, 4
    state._start_day()
    return state


def test_black_wins_when_equal_after_a_vote() -> None:
    state = _three_black_four_red()
    declare_all(state)
    events = vote_all(state, {s: (8 if s != 8 else 0) for s in state.alive()})
    assert kinds(events) == ["VOTES", "PLAYER_ELIMINATED"]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "BLACK"


def test_kill_takes_effect_at_once_and_black_wins() -> None:
    state = _three_black_four_red()
    state.phase = "NIGHT_KILL"  # a day where nobody left: 3 black, 4 red alive
    assert state.phase == "NIGHT_KILL"
    events = state.apply(3, {"type": "KILL", "target": 0})
    assert kinds(events) == ["PLAYER_KILLED"]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "BLACK"
    assert state.pending() == ()


def test_red_wins_when_last_black_is_voted_out() -> None:
    roles = ["DON"] + ["CITIZEN"] * 8 + ["SHERIFF"]
    state = make_state(roles)
    declare_all(state, {1: 0})
    events = vote_all(state, dict.fromkeys(state.alive(), 0))
    assert kinds(events) == ["VOTES", "PLAYER_ELIMINATED"]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "RED"
    assert outcome.termination is Termination.WIN
    assert state.pending() == ()


def test_day_limit_is_a_draw() -> None:
    state = make_state(day_limit=1)
    _to_night(state)
    state.apply(4, {"type": "KILL", "target": -1})
    state.apply(4, {"type": "DON_CHECK", "target": 1})
    state.apply(2, {"type": "SHERIFF_CHECK", "target": 1})
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.DAY_LIMIT


def test_out_of_turn_and_dead_players_are_refused() -> None:
    state = make_state()
    with pytest.raises(IllegalAction) as error:
        state.apply(5, {"type": "DECLARATION", "declaration": [0] * 10})
    assert error.value.code == "not_your_turn"
    _to_night(state)
    with pytest.raises(IllegalAction):
        state.apply(5, {"type": "KILL", "target": 1})  # dead, and not the killer
    with pytest.raises(IllegalAction) as wrong:
        state.apply(4, {"type": "VOTE", "target": 1})
    assert wrong.value.code == "invalid_action"


def test_the_public_table_is_shared_by_seats_until_the_state_changes() -> None:
    state = SportsMafiaState(SportsMafiaConfig(), 5)
    table = state.observe(0)["players"]
    assert state.observe(7)["players"] is table  # built once for every seat
    seat = state.pending()[0].seat
    state.apply(seat, state.legal(seat).sample(random.Random(1)))
    after = state.observe(0)["players"]
    assert after is not table
    assert after[seat]["declarations"] == list(state.declarations[seat])


@pytest.mark.parametrize(
    "declaration",
    [[True] + [0] * 9, [0.0] * 10, ["1"] + [0] * 9, [4] + [0] * 9, [0] * 9],
)
def test_declaration_vectors_other_than_plain_ints_go_through_the_lenient_parse(
    declaration: list[Any],
) -> None:
    state = SportsMafiaState(SportsMafiaConfig(), 5)
    seat = state.pending()[0].seat
    action = {"type": "DECLARATION", "declaration": declaration}
    if declaration in ([0.0] * 10, ["1"] + [0] * 9):
        assert state.legal(seat).parse(action).declaration == tuple(int(v) for v in declaration)
    else:
        with pytest.raises(IllegalAction):
            state.legal(seat).parse(action)
