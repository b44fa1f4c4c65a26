"""Scripted day tables: sheriff election, deaths, last words, speeches, votes, hunter, badge."""

from __future__ import annotations

from .table import (
    GUARD,
    HUNTER,
    QUIET_NIGHT,
    SEER,
    batch,
    find,
    game,
    kinds,
    one,
    settle,
)

NIGHT = {**QUIET_NIGHT, "WOLF_KILL": None}


def to_day(state, **night):
    """Play night 1 (no kill unless given) and stop at the first day decision."""
    return settle(state, **{**NIGHT, **night})


def elect(state, sheriff: int):
    """Run a day-1 election that ``sheriff`` wins unopposed."""
    return settle(state, BADGE_RUN={sheriff: True, "*": False})


def test_badge_election_campaign_withdrawal_and_vote() -> None:
    state = game()
    to_day(state)
    assert set(kinds(state)) == set(range(12)) and set(kinds(state).values()) == {"BADGE_RUN"}
    events = batch(state, {SEER: True, 4: True, 5: True, "*": False})
    assert one(events, "badge_candidates")["candidates"] == [4, 5, SEER]
    order = []
    while set(kinds(state).values()) == {"BADGE_SPEECH"}:
        order.extend(kinds(state))
        batch(state, "vote for me")
    assert order == [4, 5, SEER]
    assert kinds(state) == {4: "BADGE_WITHDRAW", 5: "BADGE_WITHDRAW", SEER: "BADGE_WITHDRAW"}
    events = batch(state, {5: True, "*": False})
    assert one(events, "badge_withdrawals") == {
        "withdrawn": [5],
        "remaining": [4, SEER],
        "sub_phase": "BADGE_WITHDRAW",
    }
    voters = set(kinds(state))
    assert voters == set(range(12)) - {4, 5, SEER}  # candidates (even withdrawn) do not vote
    assert state.legal(0).targets == (4, SEER)
    events = batch(state, {0: 4, 1: 4, "*": SEER})
    assert one(events, "sheriff_elected") == {
        "seat": SEER,
        "reason": "elected",
        "sub_phase": "BADGE_VOTE",
    }
    assert state.observe(0)["sheriff"] == SEER


def test_badge_tie_and_empty_races_leave_no_sheriff() -> None:
    state = game()
    to_day(state)
    batch(state, {4: True, 5: True, "*": False})
    settle(state, BADGE_SPEECH="", BADGE_WITHDRAW=False)
    events = batch(state, {0: 4, 1: 5, "*": None})
    assert one(events, "vote_result")["tied"] == [4, 5]
    assert one(events, "sheriff_elected")["seat"] is None

    state = game()
    to_day(state)
    events = batch(state, False)
    assert one(events, "sheriff_elected") == {
        "seat": None,
        "reason": "nobody ran",
        "sub_phase": "BADGE_VOTE",
    }

    state = game()
    to_day(state)
    batch(state, {4: True, 5: True, "*": False})
    events = settle(state, BADGE_SPEECH="", BADGE_WITHDRAW=True)
    assert one(events, "sheriff_elected")["reason"] == "every candidate withdrew"


def test_the_election_comes_before_the_death_announcement_and_the_dead_sheriff_passes() -> None:
    state = game()
    to_day(state, WOLF_KILL=4)
    events = elect(state, 4)  # the victim does not know yet, and wins the badge
    assert one(events, "sheriff_elected")["seat"] == 4
    assert one(events, "deaths")["seats"] == [4]
    assert [e.kind for e in events].index("sheriff_elected") < [e.kind for e in events].index(
        "deaths"
    )
    assert kinds(state) == {4: "LAST_WORDS"}  # night 1: last words
    settle(state, LAST_WORDS="bye")
    assert kinds(state) == {4: "BADGE_PASS"}
    assert 4 not in state.legal(4).targets
    events = batch(state, SEER)
    assert one(events, "badge_passed") == {"seat": 4, "target": SEER, "sub_phase": "BADGE_PASS"}
    assert state.observe(0)["sheriff"] == SEER


def test_the_badge_can_be_torn_up() -> None:
    state = game()
    to_day(state, WOLF_KILL=4)
    elect(state, 4)
    events = settle(state, LAST_WORDS="", BADGE_PASS=None)
    assert one(events, "badge_passed")["target"] is None
    assert state.observe(0)["sheriff"] is None


def test_speeches_in_seat_order_with_the_sheriff_last() -> None:
    state = game()
    to_day(state)
    elect(state, 5)
    order = []
    while set(kinds(state).values()) == {"SPEECH"}:
        order.extend(kinds(state))
        batch(state, "hello")
    assert order == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 5]


def test_the_sheriffs_vote_counts_one_and_a_half() -> None:
    state = game()
    to_day(state)
    elect(state, 5)
    settle(state, SPEECH="")
    events = batch(state, {5: 6, 0: 7, "*": None})
    assert {(v["seat"], v["weight"]) for v in find(events, "vote") if v["target"] is not None} == {
        (5, 1.5),
        (0, 1.0),
    }
    result = one(events, "vote_result")
    assert result["tally"] == [{"seat": 6, "votes": 1.5}, {"seat": 7, "votes": 1.0}]
    assert result["chosen"] == 6
    assert one(events, "exiled")["seat"] == 6


def test_a_tie_or_all_abstaining_exiles_nobody() -> None:
    state = game(badge=False)
    to_day(state)
    settle(state, SPEECH="")
    events = batch(state, {0: 6, 1: 7, "*": None})
    assert one(events, "vote_result") == {
        "tally": [{"seat": 6, "votes": 1.0}, {"seat": 7, "votes": 1.0}],
        "chosen": None,
        "tied": [6, 7],
        "sub_phase": "VOTE",
    }
    assert find(events, "exiled") == []
    assert kinds(state) == {0: "WOLF_CHAT"}  # straight to night 2

    state = game(badge=False)
    to_day(state)
    settle(state, SPEECH="")
    events = batch(state, None)
    assert one(events, "vote_result")["chosen"] is None


def test_nobody_may_vote_for_themselves() -> None:
    state = game(badge=False)
    to_day(state)
    settle(state, SPEECH="")
    assert 3 not in state.legal(3).targets and state.legal(3).none_allowed


def test_last_words_for_night_deaths_on_night_one_only_and_for_every_exile() -> None:
    state = game(badge=False)
    to_day(state, WOLF_KILL=4)
    assert kinds(state) == {4: "LAST_WORDS"}
    settle(state, LAST_WORDS="", SPEECH="")
    batch(state, {5: 6, "*": 5})  # exile seat 5 (seat 5 votes for... itself is illegal)
    assert kinds(state) == {5: "LAST_WORDS"}
    settle(state, LAST_WORDS="")
    events = settle(state, **{**NIGHT, "WOLF_KILL": 6})
    assert one(events, "deaths")["seats"] == [6]
    assert kinds(state) == {0: "SPEECH"}  # night 2 death: no last words


def test_hunter_killed_by_wolves_shoots_after_last_words() -> None:
    state = game(badge=False)
    to_day(state, WOLF_KILL=HUNTER)
    assert kinds(state) == {HUNTER: "LAST_WORDS"}
    settle(state, LAST_WORDS="I am the hunter")
    assert kinds(state) == {HUNTER: "HUNTER_SHOT"}
    events = batch(state, 0)
    assert one(events, "hunter_shot") == {"seat": HUNTER, "target": 0, "sub_phase": "HUNTER_SHOT"}
    assert not state.observe(4)["players"][0]["alive"]
    assert kinds(state) == {1: "SPEECH"}  # the shot player has no last words


def test_exiled_hunter_shoots_and_may_hold_fire() -> None:
    state = game(badge=False)
    to_day(state)
    settle(state, SPEECH="")
    batch(state, {HUNTER: 0, "*": HUNTER})
    settle(state, LAST_WORDS="")
    assert kinds(state) == {HUNTER: "HUNTER_SHOT"}
    events = batch(state, "hold fire")
    assert one(events, "hunter_shot")["target"] is None


def test_poisoned_hunter_cannot_shoot() -> None:
    state = game(badge=False)
    events = to_day(state, WITCH=f"poison {HUNTER}")
    assert one(events, "deaths")["seats"] == [HUNTER]
    settle(state, LAST_WORDS="")
    assert kinds(state) == {0: "SPEECH"}
    assert find(state.events, "hunter_shot") == []


def test_hunter_shot_can_be_switched_off() -> None:
    state = game(badge=False, hunter_shot=False)
    to_day(state, WOLF_KILL=HUNTER)
    settle(state, LAST_WORDS="")
    assert kinds(state) == {0: "SPEECH"}


def test_hunter_shooting_the_sheriff_makes_the_sheriff_pass_the_badge() -> None:
    state = game()
    to_day(state, WOLF_KILL=HUNTER)
    elect(state, 6)
    settle(state, LAST_WORDS="")
    batch(state, 6)
    assert kinds(state) == {6: "BADGE_PASS"}


def test_roles_are_never_revealed_at_death() -> None:
    state = game(badge=False)
    events = to_day(state, WITCH=f"poison {SEER}", WOLF_KILL=GUARD)
    public = [e for e in events if e.visibility == "public"]
    assert all("role" not in e.payload and "cause" not in str(e.payload) for e in public)
    assert one(events, "deaths")["seats"] == [SEER, GUARD]
