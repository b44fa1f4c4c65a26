"""Scripted rule tables: deal, night order and resolution, day discussion and vote, winners."""

from __future__ import annotations

import pytest

from duskfall.core.errors import ConfigError, IllegalAction
from duskfall.core.outcome import Termination
from duskfall.core.variant import parse_config
from duskfall.variants.mafia import VARIANT
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.roles import default_deal
from duskfall.variants.mafia.rules import MafiaState

from .helpers import at, drive, game, kinds, quiet

# Alice MAFIA, Bruno DOCTOR, Chloe SHERIFF, Dmitri VIGILANTE, Elena/Farid/Greta VILLAGER
SEVEN = ["MAFIA", "DOCTOR", "SHERIFF", "VIGILANTE", "VILLAGER", "VILLAGER", "VILLAGER"]


@pytest.mark.parametrize("players", range(5, 16))
def test_default_deal(players: int) -> None:
    deal = default_deal(players)
    flat = [r for roles in deal for r in roles]
    assert len(deal) == players
    assert flat.count("MAFIA") == players // 4
    assert flat.count("DOCTOR") == 1 and flat.count("SHERIFF") == 1
    assert flat.count("VIGILANTE") == (1 if players >= 6 else 0)
    assert flat.count("VILLAGER") == players - len([r for r in flat if r != "VILLAGER"])


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"players": 4}, "at least 5 players"),
        ({"roles": ["MAFIA", "WIZARD", "VILLAGER"]}, "unknown role 'WIZARD'"),
        ({"roles": ["MAFIA+DOCTOR", "VILLAGER", "VILLAGER"]}, "allow_multi_role"),
        (
            {"roles": ["MAFIA+VILLAGER", "DOCTOR", "VILLAGER"], "allow_multi_role": True},
            "VILLAGER cannot be combined",
        ),
        ({"roles": ["MAFIA", "MAFIA", "VILLAGER", "VILLAGER"]}, "outnumbered"),
        ({"roles": ["DOCTOR", "VILLAGER", "VILLAGER"]}, "at least one MAFIA"),
        ({"roles": ["MAFIA", "DOCTOR", "VILLAGER"], "players": 4}, "3 entries but players is 4"),
        ({"players": 5, "names": ["a", "b", "c", "d", "A"]}, "distinct"),
        ({"players": 5, "names": ["a", "b", "c", "d", "7"]}, "cannot be numbers"),
        ({"lynch_mode": "x"}, "unknown key .lynch_mode. .valid keys: allow_multi_role"),
    ],
)
def test_bad_config_is_one_clear_error(config: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(VARIANT, config)


def test_roles_are_dealt_by_seed_and_recorded() -> None:
    first = MafiaState(MafiaConfig(players=10), 11)
    again = MafiaState(MafiaConfig(players=10), 11)
    other = [MafiaState(MafiaConfig(players=10), s).roles() for s in range(12, 20)]
    assert first.roles() == again.roles()
    assert any(roles != first.roles() for roles in other)
    deal = next(e for e in first.opening_events() if e.kind == "deal")
    assert deal.visibility == "admin"
    assert deal.payload["roles"] == {str(s): r for s, r in first.roles().items()}


def test_each_seat_is_told_its_own_roles_only() -> None:
    state = MafiaState(MafiaConfig(players=8), 3)
    events = state.opening_events()
    for event in kinds(events, "role"):
        assert event.visibility == f"seats:{event.payload['seat']}"
    teams = kinds(events, "team")
    assert [e.payload["channel"] for e in teams] == ["mafia"]  # lone roles get no channel
    assert teams[0].visibility == "team:mafia"


def test_night_order_with_two_mafia() -> None:
    state = MafiaState(MafiaConfig(players=8), 5)
    state.opening_events()
    seen: list[str] = []
    while state.phase == "NIGHT":
        seen.append(state.pending()[0].kind)
        drive_one(state)
    assert seen == ["MAFIA_CHAT"] * 4 + ["MAFIA_VOTE"] * 2 + [
        "DOCTOR_ACTION",
        "SHERIFF_ACTION",
        "VIGILANTE_ACTION",
    ]
    assert state.pending()[0].kind == "DAY_DISCUSSION"


def drive_one(state: MafiaState) -> None:
    for decision in state.pending():
        state.apply(decision.seat, quiet(state, decision.seat))


def _night(mafia: int, doctor: int | None = None, shot: int | None = None) -> dict:
    return {
        "MAFIA_VOTE": {0: mafia},
        "DOCTOR_ACTION": {1: doctor} if doctor is not None else {},
        "VIGILANTE_ACTION": {3: shot},
        "SHERIFF_ACTION": {2: 6},
    }


@pytest.mark.parametrize(
    ("mafia", "doctor", "shot", "dead"),
    [
        (4, 4, None, []),  # protected: saved
        (4, 5, None, [4]),  # not protected: killed
        (4, 4, 5, [5]),  # saved, and the shot kills another
        (5, 4, 5, [5]),  # shot and killed: dies once
        (4, 5, 5, [4, 5]),  # two deaths
        (5, 5, 5, [5]),  # a doctor cannot block the vigilante's shot
        (4, 1, 0, [0, 4]),  # the vigilante shoots the mafioso
    ],
)
def test_night_resolution(mafia: int, doctor: int, shot: int | None, dead: list[int]) -> None:
    state = game([*SEVEN, "VILLAGER"])
    events = drive(state, _night(mafia, doctor, shot), until=at("DAY_DISCUSSION"))
    dawn = kinds(events, "dawn")[0]
    assert [d["seat"] for d in dawn.payload["deaths"]] == dead
    assert dawn.visibility == "public"
    for death in dawn.payload["deaths"]:
        assert death["roles"] == list(state.seat_roles[death["seat"]])  # revealed at death
    summary = kinds(events, "night_summary")[0]
    assert summary.visibility == "admin"
    assert summary.payload["saved"] == (mafia == doctor)


def test_dead_players_vanish_from_targets() -> None:
    state = game(SEVEN)
    drive(state, _night(4, 5), until=at("DAY_VOTE"))
    assert 4 not in state.alive()
    assert 4 not in state.legal(0).targets  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as err:
        state.apply(0, {"target": "Elena"})
    assert err.value.code == "invalid_target"


def test_discussion_length_and_speaker_limit() -> None:
    state = game(SEVEN)
    events = drive(state, _night(4, 5), until=at("DAY_VOTE"))
    speeches = kinds(events, "speech")
    assert len(speeches) == 10  # min(10, 2 x 6 alive)
    per_player = {e.payload["seat"] for e in speeches}
    assert per_player == set(state.alive())
    assert max(sum(e.payload["seat"] == s for e in speeches) for s in per_player) == 2


def test_small_day_has_two_messages_each() -> None:
    state = game(["MAFIA", "DOCTOR", "VILLAGER", "VILLAGER", "VILLAGER"])
    events = drive(state, {"MAFIA_VOTE": {0: 4}, "DOCTOR_ACTION": {1: 2}}, until=at("DAY_VOTE"))
    assert len(kinds(events, "speech")) == 8  # min(10, 2 x 4 alive)


def test_speaking_out_of_turn_is_refused() -> None:
    state = game(SEVEN)
    drive(state, _night(4, 5), until=at("DAY_DISCUSSION"))
    speaker = state.pending()[0].seat
    other = next(s for s in state.alive() if s != speaker)
    with pytest.raises(IllegalAction) as err:
        state.apply(other, Say("me first"))
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize(
    ("ballots", "eliminated"),
    [
        ({1: 0, 2: 0, 3: 5}, 0),  # unique top with two votes
        ({1: 0}, None),  # a single vote is not enough
        ({1: 0, 2: 0, 3: 5, 5: 3}, 0),
        ({1: 0, 2: 0, 3: 5, 6: 5}, None),  # tie
        ({}, None),  # everyone abstains
    ],
)
def test_day_vote(ballots: dict[int, int], eliminated: int | None) -> None:
    state = game([*SEVEN, "MAFIA", "VILLAGER"])
    night = {**_night(4, 4), "MAFIA_VOTE": {0: 4, 7: 4}}
    events = drive(state, {**night, "DAY_VOTE": ballots}, until=lambda s: s.day == 2)
    result = kinds(events, "vote_result")[0]
    assert result.payload["eliminated"] == eliminated
    assert result.visibility == "public"
    expected = {str(s): ballots.get(s) for s in range(9)}
    assert result.payload["votes"] == expected
    if eliminated is not None:
        assert result.payload["roles"] == ["MAFIA"]
        assert not state.living[eliminated]


def test_town_wins_when_the_last_mafioso_is_voted_out() -> None:
    state = game(SEVEN)
    events = drive(state, {**_night(4, 4), "DAY_VOTE": {1: 0, 2: 0}})
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == "town"
    assert kinds(events, "game_end")[0].payload["roles"]["0"] == "MAFIA"
    assert state.pending() == []


def test_mafia_win_when_they_equal_the_town() -> None:
    state = game(["MAFIA", "DOCTOR", "VILLAGER", "VILLAGER", "VILLAGER"])
    kill_last = {"MAFIA_VOTE": lambda s, seat: Choose("KILL", max(s.legal(seat).targets))}
    drive(state, kill_last)
    outcome = state.outcome()
    # The doctor protects someone else each night and nobody is voted out: three kills
    # leave one mafioso against one town player.
    assert outcome is not None and outcome.winner == "mafia"
    assert outcome.termination is Termination.WIN


def test_day_limit_is_a_draw() -> None:
    state = game(SEVEN, day_limit=2)
    script = {
        "MAFIA_VOTE": lambda s, seat: Choose("KILL", 3 + s.day),
        "DOCTOR_ACTION": lambda s, seat: Choose("PROTECT", s.tonight()["kill"]),
    }
    drive(state, script)
    assert state.alive() == list(range(7))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.DAY_LIMIT
    assert state.day == 2


def test_mafia_kill_vote_is_plurality_with_seeded_ties() -> None:
    roles = ["MAFIA", "MAFIA", "MAFIA", "DOCTOR"] + ["VILLAGER"] * 6
    picks = set()
    for seed in range(12):
        state = game(roles, seed)
        events = drive(state, {"MAFIA_VOTE": {0: 4, 1: 5, 2: 5}}, until=at("DOCTOR_ACTION"))
        assert kinds(events, "mafia_target")[0].payload["target"] == 5
        state = game(roles, seed)
        events = drive(state, {"MAFIA_VOTE": {0: 4, 1: 5, 2: 6}}, until=at("DOCTOR_ACTION"))
        picks.add(kinds(events, "mafia_target")[0].payload["target"])
        again = game(roles, seed)
        repeat = drive(again, {"MAFIA_VOTE": {0: 4, 1: 5, 2: 6}}, until=at("DOCTOR_ACTION"))
        assert kinds(repeat, "mafia_target") == kinds(events, "mafia_target")
    assert picks == {4, 5, 6}


def test_mafia_cannot_kill_a_mafioso() -> None:
    state = game(["MAFIA", "MAFIA", "DOCTOR"] + ["VILLAGER"] * 5)
    drive(state, until=at("MAFIA_VOTE"))
    assert set(state.legal(0).targets) == {2, 3, 4, 5, 6, 7}  # type: ignore[union-attr]
