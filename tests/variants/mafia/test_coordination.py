"""Same-role coordination (seed 000): doctors' consensus, sheriffs' split, vigilantes' one shot."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.core.errors import IllegalAction
from duskfall.variants.mafia.actions import Choose
from duskfall.variants.mafia.config import MafiaConfig

from .helpers import at, bots_game, drive, game, kinds, turn

# The seed's integration game: Doc1, Doc2, Sheriff1, Sheriff2, Mafia1, Mafia2, Villager1, 2.
SEED_GAME = ["DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF", "MAFIA", "MAFIA", "VILLAGER", "VILLAGER"]


def test_two_doctors_chat_then_vote() -> None:
    state = game(SEED_GAME)
    events = drive(state, until=at("SHERIFF_COORDINATION"))
    chat = [e for e in kinds(events, "chat") if e.payload["channel"] == "doctors"]
    assert [e.payload["seat"] for e in chat] == [0, 1] * 3  # 3 rounds, each doctor in turn
    assert [e.payload["round"] for e in chat] == [1, 1, 2, 2, 3, 3]
    assert all(e.visibility == "team:doctors" for e in chat)
    votes = kinds(events, "team_vote")
    assert [e.payload["seat"] for e in votes if e.payload["channel"] == "doctors"] == [0, 1]


@pytest.mark.parametrize("seed", range(8))
def test_two_doctors_end_on_the_same_target(seed: int) -> None:
    state = game(SEED_GAME, seed)
    events = drive(
        state, {"DOCTOR_PROTECTION_VOTE": {0: 6, 1: 7}}, until=at("SHERIFF_COORDINATION")
    )
    protections = state.tonight()["protections"]
    assert set(protections) == {0, 1}
    assert len(set(protections.values())) == 1
    consensus = kinds(events, "doctor_consensus")[0]
    assert consensus.payload["target"] in (6, 7)
    assert consensus.payload["tally"] == {"6": 1, "7": 1}
    actions = kinds(events, "doctor_action")
    assert [e.payload["seat"] for e in actions] == [0, 1]
    for event in actions:
        assert event.visibility == "admin"
        assert event.payload["coordination"] is True
        assert event.payload["target"] == consensus.payload["target"]
        assert event.payload["consensus_votes"] == {"6": 1, "7": 1}


def test_doctor_majority_wins() -> None:
    roles = ["DOCTOR", "DOCTOR", "DOCTOR", "MAFIA", "MAFIA"] + ["VILLAGER"] * 4
    state = game(roles)
    events = drive(
        state, {"DOCTOR_PROTECTION_VOTE": {0: 6, 1: 7, 2: 7}}, until=at("DAY_DISCUSSION")
    )
    consensus = kinds(events, "doctor_consensus")[0].payload
    assert (consensus["target"], consensus["votes"], consensus["of"]) == (7, 2, 3)
    assert set(state.tonight()["protections"].values()) == {7}


def test_later_doctors_see_the_current_votes() -> None:
    state = game(SEED_GAME)
    drive(
        state,
        {"DOCTOR_PROTECTION_VOTE": {0: 6}},
        until=turn("DOCTOR_PROTECTION_VOTE", 1),
    )
    context = state.observe(1)["context"]
    assert context["current_votes"] == {"0": 6}
    assert context["team"] == [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bruno"}]
    priorities = context["protection_priorities"]
    assert priorities and all({"score", "reasons", "name"} <= set(p) for p in priorities)


def test_no_protection_twice_in_a_row() -> None:
    roles = ["DOCTOR", "MAFIA", "VILLAGER", "VILLAGER", "VILLAGER", "VILLAGER", "VILLAGER"]
    state = game(roles)
    script = {
        "MAFIA_VOTE": lambda s, seat: Choose("KILL", s.legal(seat).targets[-1]),
        "DOCTOR_ACTION": {0: 0},  # self-protection on night 1
    }
    drive(state, script, until=at("DOCTOR_ACTION", 2))
    legal = state.legal(0)
    assert 0 not in legal.targets  # type: ignore[union-attr]
    with pytest.raises(IllegalAction) as err:
        state.apply(0, {"target": "Alice"})
    assert err.value.code == "invalid_target"
    assert state.observe(0)["context"]["cannot_protect"] == [0]
    state.apply(0, Choose("PROTECT", 3))
    drive(state, {"MAFIA_VOTE": script["MAFIA_VOTE"]}, until=at("DOCTOR_ACTION", 3))
    assert 0 in state.legal(0).targets  # type: ignore[union-attr]
    assert 3 not in state.legal(0).targets  # type: ignore[union-attr]


def test_coordinated_doctors_cannot_repeat_the_consensus() -> None:
    state = game(SEED_GAME)
    drive(state, {"DOCTOR_PROTECTION_VOTE": {0: 6, 1: 6}}, until=at("DOCTOR_PROTECTION_VOTE", 2))
    for seat in (0, 1):
        if state.living[seat] and state.pending()[0].seat == seat:
            assert 6 not in state.legal(seat).targets  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", range(8))
def test_two_sheriffs_have_different_targets(seed: int) -> None:
    state = game(SEED_GAME, seed)
    drive(
        state,
        {"SHERIFF_INVESTIGATION_ASSIGNMENT": {2: 4}},
        until=turn("SHERIFF_INVESTIGATION_ASSIGNMENT", 3),
    )
    assert 4 not in state.legal(3).targets  # type: ignore[union-attr]
    assert state.observe(3)["context"]["assigned_tonight"] == [4]
    with pytest.raises(IllegalAction) as err:
        state.apply(3, {"target": 4})
    assert err.value.code == "invalid_target"
    events = state.apply(3, {"target": "Farid"})
    result = kinds(events, "investigation")[0]
    assert result.visibility == "team:sheriffs"
    assert result.payload["roles"] == ["MAFIA"]


def test_sheriffs_do_not_reinvestigate_while_fresh_candidates_remain() -> None:
    roles = ["SHERIFF", "SHERIFF", "MAFIA", "DOCTOR"] + ["VILLAGER"] * 8
    state = game(roles, day_limit=6)
    script = {  # nobody dies: the mafia alternate targets and the doctor always saves
        "MAFIA_VOTE": lambda s, seat: Choose("KILL", 10 + s.day % 2),
        "DOCTOR_ACTION": lambda s, seat: Choose("PROTECT", s.tonight()["kill"]),
        "SHERIFF_INVESTIGATION_ASSIGNMENT": lambda s, seat: Choose(
            "INVESTIGATE", s.legal(seat).targets[-1]
        ),
    }
    events = drive(state, script)
    assert len(state.alive()) == 12
    investigated = [e.payload["target"] for e in kinds(events, "investigation")]
    assert len(investigated) == 12  # two a night for six nights
    # Ten candidates (the sheriffs know each other): all of them before any repeat.
    assert sorted(investigated[:10]) == list(range(2, 12))
    assert len(set(investigated[10:])) == 2


def test_uncoordinated_sheriffs_act_at_once_and_alone() -> None:
    state = game(SEED_GAME, coordination=False)
    drive(state, until=at("SHERIFF_ACTION"))
    assert {d.seat for d in state.pending()} == {2, 3}
    events = state.apply(2, {"target": 4}) + state.apply(3, {"target": 4})
    results = kinds(events, "investigation")
    assert [e.visibility for e in results] == ["seats:2", "seats:3"]
    assert state.channels(2) == frozenset()


TWO_VIGILANTES = ["VIGILANTE", "VIGILANTE", "MAFIA", "DOCTOR"] + ["VILLAGER"] * 5


def test_vigilantes_chat_and_at_most_one_shoots_a_night() -> None:
    state = game(TWO_VIGILANTES)
    events = drive(state, {"VIGILANTE_ACTION": {0: 5, 1: 6}}, until=at("DAY_DISCUSSION"))
    chat = [e for e in kinds(events, "chat") if e.payload["channel"] == "vigilantes"]
    assert [e.payload["seat"] for e in chat] == [0, 1, 0, 1]  # 2 rounds
    shots = kinds(events, "vigilante_shot")
    assert [(e.payload["seat"], e.payload["target"]) for e in shots] == [(0, 5)]
    assert shots[0].visibility == "team:vigilantes"
    assert state.shots == {0: (1, 5)}
    # Night 2: the vigilante who shot has no shot left; the other still has one.
    drive(state, until=at("VIGILANTE_ACTION", 2))
    assert [d.seat for d in state.pending()] == [1]
    assert state.observe(1)["context"]["shots"] == [
        {"seat": 0, "name": "Alice", "shot_available": False},
        {"seat": 1, "name": "Bruno", "shot_available": True},
    ]


def test_vigilantes_may_all_pass() -> None:
    state = game(TWO_VIGILANTES)
    events = drive(state, {"VIGILANTE_ACTION": {0: None, 1: None}}, until=at("DAY_DISCUSSION"))
    assert [e.payload["seat"] for e in kinds(events, "vigilante_pass")] == [0, 1]
    assert state.shots == {}


def test_no_vigilante_step_once_every_shot_is_used() -> None:
    state = game(TWO_VIGILANTES, day_limit=5)
    kinds_seen: list[tuple[int, str]] = []
    drive(state, {"VIGILANTE_ACTION": {0: 7, 1: 8}}, trace=kinds_seen)
    nights_with_shot_step = {day for day, kind in kinds_seen if kind == "VIGILANTE_ACTION"}
    assert nights_with_shot_step == {1, 2}
    assert set(state.shots) == {0, 1}


def test_a_lone_vigilante_has_no_chat() -> None:
    state = game(["VIGILANTE", "MAFIA", "DOCTOR"] + ["VILLAGER"] * 4)
    events = drive(state, until=at("DAY_DISCUSSION"))
    assert not [e for e in kinds(events, "chat") if e.payload["channel"] == "vigilantes"]
    assert kinds(events, "vigilante_pass")[0].visibility == "seats:0"


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    coordination=st.booleans(),
    bot=st.sampled_from(["random", "heuristic"]),
)
def test_night_invariants_in_whole_games(seed: int, coordination: bool, bot: str) -> None:
    """2 doctors, 2 sheriffs, 2 vigilantes: same protection, distinct investigations (when
    coordinated), at most one shot a night and one per vigilante per game."""
    config = MafiaConfig(
        roles=[
            "DOCTOR",
            "DOCTOR",
            "SHERIFF",
            "SHERIFF",
            "VIGILANTE",
            "VIGILANTE",
            "MAFIA",
            "MAFIA",
            "VILLAGER",
            "VILLAGER",
        ],
        coordination=coordination,
    )
    _, events = bots_game(config, seed, bot)
    shots_per_night: dict[int, int] = {}
    shooters: list[int] = []
    for event in kinds(events, "vigilante_shot"):
        shots_per_night[event.day] = shots_per_night.get(event.day, 0) + 1
        shooters.append(event.payload["seat"])
    assert all(n == 1 for n in shots_per_night.values())
    assert len(shooters) == len(set(shooters))
    by_night: dict[int, list[int]] = {}
    for event in kinds(events, "investigation"):
        by_night.setdefault(event.day, []).append(event.payload["target"])
    protections: dict[int, dict[int, int]] = {}
    for event in kinds(events, "doctor_action"):
        protections.setdefault(event.day, {})[event.payload["seat"]] = event.payload["target"]
    if coordination:
        assert all(len(t) == len(set(t)) for t in by_night.values()), by_night
        assert all(len(set(p.values())) == 1 for p in protections.values()), protections
    for night in sorted(protections):
        for doctor, target in protections[night].items():
            if doctor in protections.get(night - 1, {}):
                assert target != protections[night - 1][doctor]


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_seed_integration_night_with_two_doctors_and_two_sheriffs(bot: str) -> None:
    """The seed's integration test: after a night, both doctors protect the same player, the
    sheriffs investigated different players: no duplicates on any night."""
    names = ["Doc1", "Doc2", "Sheriff1", "Sheriff2", "Mafia1", "Mafia2", "Villager1", "Villager2"]
    for seed in range(20):
        config = MafiaConfig(roles=SEED_GAME, names=names, shuffle_roles=False)
        _, events = bots_game(config, seed, bot)
        night1 = [e for e in events if e.day == 1]
        protected = {e.payload["target"] for e in kinds(night1, "doctor_action")}
        investigated = [e.payload["target"] for e in kinds(night1, "investigation")]
        assert len(protected) == 1
        assert len(investigated) == 2 and len(set(investigated)) == 2
        for day in {e.day for e in kinds(events, "investigation")}:
            tonight = [e.payload["target"] for e in kinds(events, "investigation") if e.day == day]
            assert len(tonight) == len(set(tonight))
