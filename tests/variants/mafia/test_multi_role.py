"""Multi-role players: a MAFIA+DOCTOR acts in both phases and never leaks the mafia channel."""

from __future__ import annotations

import json

from duskfall.agents.specs import parse_spec
from duskfall.core.events import visible_to
from duskfall.variants.mafia import VARIANT
from duskfall.variants.mafia.actions import Say
from duskfall.variants.mafia.rules import MafiaState

from .helpers import at, drive, game, kinds, quiet, turn

ROLES = [
    "MAFIA+DOCTOR",
    "DOCTOR",
    "MAFIA",
    "SHERIFF",
    "VILLAGER",
    "VILLAGER",
    "VILLAGER",
    "VILLAGER",
]
SECRET = "SECRET-PLAN-7731"


def _secret_chat(state: MafiaState, seat: int) -> Say:
    return Say(f"{SECRET}: kill Farid, I will protect myself", 5)


def test_roles_team_and_channels() -> None:
    state = game(ROLES)
    assert state.roles()[0] == "MAFIA+DOCTOR"
    assert state.team_of(0) == "mafia" and state.team_of(1) == "town"
    assert state.channels(0) == {"mafia", "doctors"}
    assert state.channels(1) == {"doctors"}
    assert state.channels(2) == {"mafia"}


def test_agent_specs_match_each_role_of_a_multi_role_seat() -> None:
    state = game(ROLES)
    agents = parse_spec(VARIANT, "doctor=heuristic,default=random", 8)(state)
    assert agents[:3] == ["heuristic", "heuristic", "random"]
    agents = parse_spec(VARIANT, "mafia=heuristic,default=random", 8)(state)
    assert agents[:3] == ["heuristic", "random", "heuristic"]


def test_mafia_doctor_acts_in_both_phases() -> None:
    state = game(ROLES)
    asked: set[str] = set()
    while state.phase == "NIGHT":
        decision = state.pending()[0]
        if decision.seat == 0:
            asked.add(decision.kind)
        state.apply(decision.seat, quiet(state, decision.seat))
    assert asked == {"MAFIA_CHAT", "MAFIA_VOTE", "DOCTOR_COORDINATION", "DOCTOR_PROTECTION_VOTE"}


def test_mafia_chat_never_reaches_the_other_doctor() -> None:
    state = game(ROLES)
    script = {"MAFIA_CHAT": _secret_chat, "MAFIA_VOTE": {0: 5, 2: 5}}
    events = drive(state, script, until=turn("DOCTOR_COORDINATION", 1))
    mafia_events = [e for e in events if e.payload.get("channel") == "mafia"]
    assert {e.kind for e in mafia_events} == {"chat", "team_vote", "mafia_target"}
    for event in mafia_events:
        assert event.visibility == "team:mafia"
        assert visible_to(event, 0, state.channels(0))
        assert not visible_to(event, 1, state.channels(1))
    view = state.observe(1)
    dumped = json.dumps(view)
    assert SECRET not in dumped
    assert "mafia" not in view["channel_logs"] and "mafia" not in view["allies"]
    assert view["players"][0]["roles"] is None  # the other doctor does not learn MAFIA
    system, user = VARIANT.render_prompts(view, state.legal(1), None)
    assert SECRET not in system + user
    assert "fellow mafia" not in system + user
    assert "Your fellow doctors, who share a private chat with you: Alice (seat 0)." in system
    assert "- Alice (seat 0): alive, fellow doctor" in user
    # The mafia doctor sees both of its channels.
    own = state.observe(0)
    assert SECRET in json.dumps(own["channel_logs"]["mafia"])
    assert "doctors" in own["channel_logs"]


def test_doctor_chat_is_shared_by_both_doctors_only() -> None:
    state = game(ROLES)
    script = {"DOCTOR_COORDINATION": lambda s, seat: Say(f"doctor note {seat}")}
    events = drive(state, script, until=at("SHERIFF_ACTION"))
    chat = [e for e in kinds(events, "chat") if e.payload["channel"] == "doctors"]
    assert len(chat) == 6
    for seat in range(8):
        sees = all(visible_to(e, seat, state.channels(seat)) for e in chat)
        assert sees == (seat in (0, 1))
    assert "doctor note 1" in json.dumps(state.observe(0)["channel_logs"]["doctors"])
    assert "doctor note 1" not in json.dumps(state.observe(2))  # plain mafia: not a doctor


def test_a_sheriff_learns_every_role_of_a_multi_role_target() -> None:
    state = game(ROLES)
    events = drive(state, {"SHERIFF_ACTION": {3: 0}}, until=at("DAY_DISCUSSION"))
    result = kinds(events, "investigation")[0]
    assert result.payload["roles"] == ["MAFIA", "DOCTOR"]
    assert result.visibility == "seats:3"
    assert state.observe(3)["players"][0]["roles"] == ["MAFIA", "DOCTOR"]


def test_mafia_doctor_votes_count_in_the_consensus() -> None:
    state = game(ROLES)
    script = {"MAFIA_VOTE": {0: 5, 2: 5}, "DOCTOR_PROTECTION_VOTE": {0: 0, 1: 5}}
    events = drive(state, script, until=at("SHERIFF_ACTION"))
    consensus = kinds(events, "doctor_consensus")[0].payload
    assert consensus["tally"] == {"0": 1, "5": 1}
    assert state.tonight()["protections"] == {0: consensus["target"], 1: consensus["target"]}
