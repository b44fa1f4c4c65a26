"""Per-phase prompts (seed 000, one output contract) and lenient reading of LLM-style answers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from duskfall.core.errors import IllegalAction
from duskfall.runtime.parsing import decode_reply
from duskfall.runtime.participant import BaseParticipant, DecisionRequest
from duskfall.session import GameSetup, run_game
from duskfall.variants.mafia import VARIANT
from duskfall.variants.mafia.actions import Choose, Say
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.rules import MafiaState

from .helpers import bots_game, drive, game, turn

SEED_GAME = ["DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF", "MAFIA", "MAFIA", "VIGILANTE", "VIGILANTE"]


def _prompts_at(kind: str, seat: int, script: dict[str, Any] | None = None) -> tuple[str, str]:
    state = game(SEED_GAME)
    drive(state, script, until=turn(kind, seat))
    system, user = VARIANT.render_prompts(state.observe(seat), state.legal(seat), None)
    assert "You are playing Mafia" in system
    return system, user


def _prompt_at(kind: str, seat: int, script: dict[str, Any] | None = None) -> str:
    return _prompts_at(kind, seat, script)[1]


def _system_at(kind: str, seat: int) -> str:
    return _prompts_at(kind, seat)[0]


def test_doctor_coordination_prompt() -> None:
    user = _prompt_at("DOCTOR_COORDINATION", 1, {"DOCTOR_COORDINATION": _note})
    for text in (
        '[Night 1]\n- [doctors chat, round 1 of 3] Alice (seat 0): "note from seat 0"',
        "Now:\nNight 1.\nYou are Bruno (seat 1), DOCTOR, alive. 8 of 8 players are alive.",
        "- Alice (seat 0): alive, fellow doctor",
        "- Bruno (seat 1): alive, you",
        "Doctors' private chat, night 1: write your next message to your fellow doctors",
        'Field "says": your message, up to 800 characters.',
        'shaped like {"says": "<your message>", "target": "<player it is about, or null>"}',
    ):
        assert text in user
    for advice in ("Score", "score", "PRIORITIES", "Output:", '"think"'):
        assert advice not in user


def _note(state: MafiaState, seat: int) -> Say:
    return Say(f"note from seat {seat}")


def test_doctor_vote_prompt_shows_current_votes() -> None:
    user = _prompt_at("DOCTOR_PROTECTION_VOTE", 1, {"DOCTOR_PROTECTION_VOTE": {0: 6}})
    assert "Doctors' protection vote, night 1" in user
    assert "Votes so far tonight: Alice (seat 0) -> Greta (seat 6)." in user
    assert "[doctors] Alice (seat 0) votes to protect Greta (seat 6)" in user
    assert "Anyone alive may be protected tonight, yourself included." in user
    assert 'shaped like {"target": "<player>"}' in user


def test_sheriff_prompts() -> None:
    system = _system_at("SHERIFF_COORDINATION", 2)
    assert "Your fellow sheriffs, who share a private chat with you: Dmitri (seat 3)." in system
    user = _prompt_at(
        "SHERIFF_INVESTIGATION_ASSIGNMENT", 3, {"SHERIFF_INVESTIGATION_ASSIGNMENT": {2: 4}}
    )
    assert "Investigation, night 1: choose the player you investigate tonight" in user
    assert "Already assigned tonight: Elena (seat 4)." in user
    assert "[sheriffs] Chloe (seat 2) investigated Elena (seat 4): MAFIA" in user
    assert "- Night 1: Chloe (seat 2) investigated Elena (seat 4): MAFIA." in user  # shared
    assert "- Elena (seat 4): alive, checked: MAFIA" in user


def test_vigilante_coordination_prompt() -> None:
    user = _prompt_at("VIGILANTE_COORDINATION", 7)
    assert "Vigilantes' private chat, night 1" in user
    assert "- Greta (seat 6)'s shot: not used yet." in user
    assert "- Your shot: not used yet." in user
    action = _prompt_at("VIGILANTE_ACTION", 6)
    assert "at most one vigilante shoots per night" in action
    assert 'shaped like {"target": "<player, or null to pass>"}' in action


def test_retry_hint_is_shown() -> None:
    state = game(SEED_GAME)
    drive(state, until=turn("MAFIA_VOTE", 4))
    _, user = VARIANT.render_prompts(state.observe(4), state.legal(4), "no player called 'Zed'")
    assert "Your previous answer was refused: no player called 'Zed'" in user


def _legal(kind: str, seat: int) -> Any:
    state = game(SEED_GAME)
    drive(state, until=turn(kind, seat))
    return state.legal(seat)


def test_llm_envelope_with_a_name_is_an_action() -> None:
    legal = _legal("DOCTOR_PROTECTION_VOTE", 0)
    raw = '{"think": "t", "says": "agreed", "action": {"target": "Greta", "reasoning": "r"}}'
    assert legal.parse(decode_reply(raw).action) == Choose("PROTECT", 6, "r", "agreed")


def test_llm_chat_reply_is_a_message() -> None:
    legal = _legal("DOCTOR_COORDINATION", 0)
    raw = '```json\n{"think": "hmm", "says": "Protect Greta tonight"}\n```'
    assert legal.parse(decode_reply(raw).action) == Say("Protect Greta tonight")


@pytest.mark.parametrize(
    ("answer", "target"),
    [
        ({"target": "greta"}, 6),
        ({"target": "GRE"}, 6),
        ({"target": "Greta (seat 6)"}, 6),
        ({"target": "seat 6"}, 6),
        ({"target": "6"}, 6),
        ({"target": 6.0}, 6),
        ({"type": "KILL", "target": 6}, 6),
        ("Greta", 6),
        (6, 6),
    ],
)
def test_targets_by_name_or_number(answer: Any, target: int) -> None:
    assert _legal("MAFIA_VOTE", 4).parse(answer).target == target


@pytest.mark.parametrize(
    ("answer", "code", "hint"),
    [
        ({"target": "Zed"}, "invalid_target", "no player called 'Zed'"),
        ({"target": "a"}, "invalid_target", "could mean"),
        ({"target": "Elena"}, "invalid_target", "not a legal target"),  # a fellow mafioso
        ({"target": None}, "bad_format", 'needs a "target"'),
        ({"reasoning": "no target"}, "bad_format", 'needs a "target"'),
        ({"target": True}, "bad_format", "name a player"),
        ({"type": "PASS", "target": None}, "invalid_action", "not 'PASS'"),
        ("pass", "invalid_action", "must choose a target"),
    ],
)
def test_bad_answers_get_specific_hints(answer: Any, code: str, hint: str) -> None:
    with pytest.raises(IllegalAction) as err:
        _legal("MAFIA_VOTE", 4).parse(answer)
    assert err.value.code == code
    assert hint in err.value.hint


@pytest.mark.parametrize(
    "answer",
    [{"target": None}, {"shouldShoot": False, "target": "Elena"}, "pass", {"type": "pass"}],
)
def test_vigilante_may_pass(answer: Any) -> None:
    assert _legal("VIGILANTE_ACTION", 6).parse(answer).type == "PASS"


def test_day_message_with_claim_and_target() -> None:
    state = game(SEED_GAME)
    drive(state, until=lambda s: s.phase == "DAY")
    seat = state.pending()[0].seat
    legal = state.legal(seat)
    assert isinstance(legal, SayChoice)
    said = legal.parse({"says": "x" * 5000, "target": "Elena", "claim": "sheriff"})
    assert said == Say("x" * 800, 4, "SHERIFF")
    with pytest.raises(IllegalAction, match="claim"):
        legal.parse({"says": "hi", "claim": "KING"})
    with pytest.raises(IllegalAction, match='"says"'):
        legal.parse({"target": 4})


def test_schema_names_targets_and_names() -> None:
    legal = _legal("MAFIA_VOTE", 4)
    assert isinstance(legal, TargetChoice)
    options = legal.schema()["properties"]["target"]["anyOf"]
    assert options[0]["enum"] == list(legal.targets)
    assert "Greta" in options[1]["enum"]


def test_every_event_of_a_game_formats() -> None:
    _, events = bots_game(VARIANT.config_model.model_validate({"roles": SEED_GAME}), 3)
    lines = [VARIANT.format_event(e) for e in events]
    assert any(line and "DOCTOR CONSENSUS" in line for line in lines)
    assert all(line is None or "{" not in line for line in lines)


class NameAnswerer(BaseParticipant):
    """An LLM-like participant: reads its prompt, answers JSON naming players by name; its
    first answer to a targeted decision names nobody."""

    def __init__(self) -> None:
        self.calls = 0
        self.confused = True

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> str:
        self.calls += 1
        assert "You are playing Mafia" in system_prompt
        legal = request.legal
        assert 'Your "action" is shaped like' in user_prompt and '"reasoning"' in system_prompt
        if isinstance(legal, SayChoice):
            return json.dumps({"reasoning": "...", "action": {"says": f"message {self.calls}"}})
        if self.confused:
            self.confused = False
            return '{"reasoning": "?", "action": {"target": "whoever looks guilty"}}'
        assert request.hint is None or "no player called" in request.hint
        name = request.observation["players"][legal.targets[0]]["name"]
        return json.dumps({"reasoning": "...", "action": {"target": name}})


async def test_a_game_with_llm_style_players_runs_to_the_end() -> None:
    players = {seat: NameAnswerer() for seat in range(8)}
    setup = GameSetup(
        variant="mafia",
        seed=4,
        config={"roles": SEED_GAME},
        participants=players,
        write_log=False,
    )
    game_run = await run_game(setup)
    events = game_run.record.events
    assert game_run.state.outcome() is not None
    assert not [e for e in events if e.kind == "fallback"]
    retried = [e for e in events if e.kind == "invalid_action"]
    assert retried and len({e.payload["seat"] for e in retried}) == len(retried)
    assert all(e.payload["code"] == "invalid_target" for e in retried)
    chats = [e for e in events if e.kind == "chat"]
    assert chats and all(e.payload["says"].startswith("message") for e in chats)
