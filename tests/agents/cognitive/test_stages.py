"""Session context, suspicion model, planner, agenda, writer and reflector."""

from __future__ import annotations

import json
from typing import Any

import pytest

from duskfall.agents.cognitive import agenda, planner, writer
from duskfall.agents.cognitive.context import Knowledge, session_context
from duskfall.agents.cognitive.reflector import reflect
from duskfall.agents.cognitive.suspicion import SuspicionModel, SuspicionUpdate
from duskfall.core.facts import MODES
from duskfall.core.registry import get_variant
from duskfall.llm import LLMError

from .helpers import caller, context

WEREWOLF, MAFIA, SPORTS = (get_variant(v).info.facts for v in ("werewolf", "mafia", "sports-mafia"))


@pytest.mark.parametrize(
    ("variant", "kind", "mode"),
    [
        ("werewolf", "SPEECH", "discussion"),
        ("mafia", "DAY_DISCUSSION", "discussion"),
        ("sports-mafia", "DECLARATION", "discussion"),
        ("werewolf", "LAST_WORDS", "discussion"),
        ("werewolf", "VOTE", "vote"),
        ("sports-mafia", "VOTING", "vote"),
        ("mafia", "DAY_VOTE", "vote"),
        ("werewolf", "BADGE_VOTE", "vote"),
        ("werewolf", "WOLF_KILL", "kill"),
        ("sports-mafia", "NIGHT_KILL", "kill"),
        ("mafia", "MAFIA_VOTE", "kill"),
        ("werewolf", "SEER", "inspect"),
        ("mafia", "SHERIFF_ACTION", "inspect"),
        ("sports-mafia", "NIGHT_SHERIFF", "inspect"),
        ("werewolf", "GUARD", "protect"),
        ("mafia", "DOCTOR_ACTION", "protect"),
        ("werewolf", "WITCH", "potion"),
        ("werewolf", "WOLF_CHAT", "team_chat"),
        ("mafia", "MAFIA_CHAT", "team_chat"),
        ("werewolf", "BADGE_RUN", "badge"),
    ],
)
def test_modes(variant: str, kind: str, mode: str) -> None:
    assert get_variant(variant).info.facts.mode(kind) == mode


def test_every_decision_kind_has_a_mode_of_the_common_vocabulary() -> None:
    from duskfall.testing.playouts import play_random_game

    for variant_id in ("werewolf", "mafia", "sports-mafia"):
        variant = get_variant(variant_id)
        kinds: set[str] = set()

        def seen(state: Any, kinds: set[str] = kinds) -> None:
            kinds.update(d.kind for d in state.pending())

        for seed in range(5):
            play_random_game(variant, {}, seed, on_decision=seen)
        modes = {variant.info.facts.mode(kind) for kind in kinds}
        assert modes <= set(MODES), variant_id


def test_context_from_each_variants_observation() -> None:
    werewolf = {
        "role": "Seer",
        "team": "village",
        "day": 2,
        "phase": "NIGHT",
        "players": [{"seat": 0, "name": "Ada", "alive": True}, {"seat": 1, "alive": False}],
    }
    ctx = session_context(0, "werewolf", "SEER", werewolf, WEREWOLF)
    assert (ctx.role, ctx.phase, ctx.mode) == ("Seer", "night", "inspect")
    assert (ctx.day, ctx.alive) == (2, (0,))
    assert ctx.players == (0, 1) and ctx.names == {0: "Ada"}
    mafia = {"roles": ["MAFIA", "DOCTOR"], "team": "mafia", "day": 1, "phase": "DAY", "players": []}
    ctx = session_context(3, "mafia", "DAY_VOTE", mafia, MAFIA)
    assert ctx.role == "MAFIA+DOCTOR" and ctx.is_evil and ctx.phase == "day"
    sports = {"turn": 2, "phase": "VOTING", "role": "DON", "alive_players": [0, 2, 5]}
    ctx = session_context(2, "sports-mafia", "VOTING", sports, SPORTS)
    assert (ctx.team, ctx.day, ctx.alive, ctx.is_evil) == ("BLACK", 3, (0, 2, 5), True)


def test_knowledge_from_private_lines_only() -> None:
    lines = [
        {"visibility": "team:werewolf", "kind": "wolf_team", "payload": {"wolves": [0, 4]}},
        {
            "visibility": "seats:0",
            "kind": "seer_action",
            "payload": {"seat": 0, "target": 2, "result": "Werewolf"},
        },
        {
            "visibility": "seats:0",
            "kind": "seer_action",
            "payload": {"seat": 0, "target": 3, "result": "Good"},
        },
        {"visibility": "public", "kind": "seer_action", "payload": {"target": 5, "result": "x"}},
    ]
    known = Knowledge.from_history(0, lines, WEREWOLF)
    assert known.allies == {4} and known.checks == {2: True, 3: False}
    sports = [{"visibility": "seats:0", "kind": "SHERIFF_CHECK_RESULT",
               "payload": {"target": 3, "team": "RED"}}]  # fmt: skip
    assert Knowledge.from_history(0, sports, SPORTS).checks == {3: False}


def test_suspicion_deltas_are_clamped_and_facts_pinned() -> None:
    model = SuspicionModel(0, range(4))
    model.apply([SuspicionUpdate(1, 0.9, -0.9, "loud"), SuspicionUpdate(1, 0.9, 0.0)])
    assert model.beliefs[1].suspicion == 1.0 and model.beliefs[1].trust == 0.0
    model.pin(2, evil=False, reason="team mate")
    assert model.apply([SuspicionUpdate(2, 0.5, -0.5), SuspicionUpdate(0, 1, 1)]) == 0
    assert 0 not in model.beliefs
    model.merge_hypotheses({"likely_strong_town": [3, 3, 9]})
    assert model.hypotheses["likely_strong_town"] == [3]
    assert model.ranked()[0] == 1 and model.ranked()[-1] == 2
    event = model.event(2, "DAY")
    assert event.visibility == "admin" and event.source == "agent" and event.kind == "suspicion"
    assert event.payload["players"]["1"] == {"suspicion": 1.0, "trust": 0.0}
    assert event.payload["seat"] == 0 and "likely_strong_town" in event.payload["hypotheses"]


async def test_planner_keeps_one_sentence() -> None:
    stage, events = caller(["Now your goal is to read p3's votes. Then p4.\nMore"])
    sentence, planned = await planner.plan(stage, "system", "user", 60)
    assert planned and sentence == "Now your goal is to read p3's votes."
    assert events[0].payload["stage"] == "planner" and events[0].payload["seat"] == 0


async def test_planner_falls_back_on_failure_or_empty_reply() -> None:
    for reply in (LLMError("down"), "  ...  "):
        stage, _ = caller([reply])
        sentence, planned = await planner.plan(stage, "system", "user", 60)
        assert not planned and sentence.startswith("Now your goal is to")


def test_agenda_by_mode() -> None:
    model = SuspicionModel(0, range(6))
    model.apply([SuspicionUpdate(4, 0.4, 0)])
    none = Knowledge()
    day = agenda.sessions_for(context(), model, none, 3)
    assert [s.session_type for s in day] == [
        "vote_pattern_analysis",
        "investigate_player",
        "investigate_player",
    ]
    assert day[1].targets == (4,)
    vote = agenda.sessions_for(context(mode="vote"), model, none, 2)
    assert vote[0].session_type == "investigate_player" and vote[0].targets == (4,)
    wolf = context(mode="kill", team="werewolf", role="Werewolf")
    kill = agenda.sessions_for(wolf, model, Knowledge(allies={1}), 2)
    assert [s.session_type for s in kill] == ["find_detective"] and 1 not in kill[0].targets
    seer = agenda.sessions_for(context(mode="inspect"), model, Knowledge(checks={4: True}), 2)
    assert 4 not in seer[0].targets
    assert agenda.sessions_for(context(mode="potion"), model, none, 2) == []
    assert agenda.sessions_for(context(), model, none, 0) == []


async def test_writer_uses_the_decisions_schema_in_the_envelope() -> None:
    stage, events = caller(['{"reasoning": "t", "action": {"type": "VOTE", "target": 3}}'])
    brief = writer.Brief("Now vote.", [], "p3: suspicion 0.9", Knowledge(checks={3: True}))
    action_schema = {"type": "object", "properties": {"target": {"enum": [3, 4]}}}
    reply = await writer.write(stage, "sys", "user", brief, action_schema, max_tokens=100)
    assert json.loads(reply)["action"]["target"] == 3
    sent = events[0].payload["messages"][1]["content"]
    assert "Now vote." in sent and "p3 (Dax) is on the evil side" in sent


class FakeLegal:
    def parse(self, action: object) -> object:
        return action


def move(target: int | None = None, says: str = "", kind: str = "VOTE") -> str:
    return json.dumps({"think": "", "says": says, "action": {"type": kind, "target": target}})


def test_reflector_catches_a_wolf_voting_its_partner() -> None:
    wolf = context(mode="vote", team="werewolf", role="Werewolf")
    model = SuspicionModel(0, range(6))
    verdict = reflect(move(1), wolf, FakeLegal(), model, Knowledge(allies={1}))  # type: ignore[arg-type]
    assert not verdict.ok and "team mate" in (verdict.conflict or "")
    assert reflect(move(2), wolf, FakeLegal(), model, Knowledge(allies={1})).ok  # type: ignore[arg-type]


def test_reflector_catches_a_seer_contradicting_its_result() -> None:
    seer = context(mode="discussion", role="Seer")
    known = Knowledge(checks={1: True, 2: False})
    model = SuspicionModel(0, range(6))
    says = "I trust Bram completely, he is innocent."
    verdict = reflect(move(says=says, kind="SPEECH"), seer, FakeLegal(), model, known)  # type: ignore[arg-type]
    assert not verdict.ok and "exposed" in (verdict.conflict or "")
    accuse = "p2 is a wolf for sure."
    verdict = reflect(move(says=accuse, kind="SPEECH"), seer, FakeLegal(), model, known)  # type: ignore[arg-type]
    assert not verdict.ok and "cleared" in (verdict.conflict or "")
    fine = "Bram is the wolf; p2 is innocent."
    assert reflect(move(says=fine, kind="SPEECH"), seer, FakeLegal(), model, known).ok  # type: ignore[arg-type]
    vote = reflect(move(2), context(mode="vote"), FakeLegal(), model, known)  # type: ignore[arg-type]
    assert not vote.ok and "good side" in (vote.conflict or "")


def test_reflector_checks_votes_against_the_model() -> None:
    model = SuspicionModel(0, range(6))
    model.apply([SuspicionUpdate(3, 0.5, -0.5), SuspicionUpdate(4, -0.5, 0.5)])
    villager = context(mode="vote")
    assert not reflect(move(4), villager, FakeLegal(), model, Knowledge()).ok  # type: ignore[arg-type]
    assert reflect(move(3), villager, FakeLegal(), model, Knowledge()).ok  # type: ignore[arg-type]
    assert reflect(move(None), villager, FakeLegal(), model, Knowledge()).ok  # type: ignore[arg-type]
