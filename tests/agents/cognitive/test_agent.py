"""The whole agent: one decision end to end, re-asks, revisions, failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from duskfall.agents.cognitive import CognitiveAgent, CognitiveSettings
from duskfall.agents.cognitive.records import SESSIONS, SUSPICION, THOUGHTS
from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.core.variant import Decision
from duskfall.llm import Request
from duskfall.runtime.participant import DecisionRequest

from .helpers import WEREWOLF, fed_records, model, step

OBSERVATION = {
    "role": "Werewolf",
    "team": "werewolf",
    "day": 2,
    "phase": "DAY",
    "players": [{"seat": s, "name": n, "alive": s != 4} for s, n in enumerate("ABCDEF")],
    "history": [],
}
VOTE_SCHEMA = {"type": "object", "properties": {"type": {"const": "VOTE"}, "target": {}}}


class Legal:
    kind = "VOTE"

    def parse(self, action: object) -> object:
        return action

    def schema(self) -> dict[str, Any]:
        return VOTE_SCHEMA


def asked(events: list[Event], kind: str = "VOTE", **more: Any) -> DecisionRequest:
    return DecisionRequest(
        decision=Decision(0, kind),
        observation=OBSERVATION,
        legal=Legal(),  # type: ignore[arg-type]
        game_id="g1",
        variant="werewolf",
        emit=events.append,
        **more,
    )


def vote(target: int) -> str:
    return json.dumps({"think": "why", "says": "", "action": {"type": "VOTE", "target": target}})


def scripted_by_stage(moves: list[str]) -> tuple[Any, list[Request]]:
    """Planner, session and writer replies chosen by what each request is."""
    requests: list[Request] = []
    writes = iter(moves)

    def reply(request: Request) -> str:
        requests.append(request)
        if request.schema is None:
            return "Now your goal is to hide among the villagers."
        if "end_investigation" in request.schema.get("properties", {}):
            return step(
                suspicion_updates=[{"player_id": "p3", "delta_suspicion": 0.4, "delta_trust": 0}],
                intermediate_hypotheses={"likely_detective_candidates": ["p2"]},
            )
        return next(writes)

    return reply, requests


def agent(tmp_path: Path, replies: Any, **settings: Any) -> CognitiveAgent:
    m, _ = model(replies)
    cognitive = CognitiveAgent(
        m, seat=0, variant=WEREWOLF, settings=CognitiveSettings(records_dir=tmp_path, **settings)
    )
    cognitive.watch_game("g1", None)
    return cognitive


def feed(cognitive: CognitiveAgent, tmp_path: Path) -> None:
    assert cognitive.records is not None
    source = fed_records(tmp_path / "source", 0)
    for line in source.read_lines("history.jsonl"):
        cognitive.records.append("history.jsonl", line)


async def test_one_decision_end_to_end(tmp_path: Path) -> None:
    reply, requests = scripted_by_stage([vote(3)])
    cognitive = agent(tmp_path, reply)
    events: list[Event] = []
    raw = await cognitive.decide("SYSTEM", "USER", asked(events))
    assert json.loads(raw)["action"]["target"] == 3
    stages = [e.payload["stage"] for e in events if e.kind == "llm_call"]
    assert stages[0] == "planner" and stages[-1] == "writer" and "session" in stages
    suspicion = [e for e in events if e.kind == "suspicion"]
    # two sessions each add 0.4 to 0.5: clamped at 1
    assert suspicion and suspicion[-1].payload["players"]["3"]["suspicion"] == 1.0
    assert suspicion[-1].payload["hypotheses"]["likely_detective_candidates"] == [2]
    assert all(e.visibility == "admin" for e in events)
    root = tmp_path / "g1.records" / "seat-0"
    stored = json.loads((root / SUSPICION).read_text())
    assert stored["players"]["3"]["suspicion"] == 1.0
    thoughts = (root / THOUGHTS).read_text()
    assert "hide among the villagers" in thoughts and "p3 jumped" in thoughts
    assert len((root / SESSIONS).read_text().splitlines()) == 2
    assert cognitive.tally.usage.total_tokens > 0 and cognitive.tally.calls == len(stages)
    writer_prompt = requests[-1].messages[-1]["content"]
    assert "hide among the villagers" in writer_prompt and "p3 jumped" in writer_prompt


async def test_re_ask_reuses_the_plan_and_sessions(tmp_path: Path) -> None:
    reply, requests = scripted_by_stage([vote(3), vote(2)])
    cognitive = agent(tmp_path, reply)
    await cognitive.decide("S", "U", asked([]))
    before = len(requests)
    events: list[Event] = []
    await cognitive.decide("S", "U", asked(events, attempt=1, hint="seat 3 is dead"))
    assert len(requests) == before + 1  # the writer only
    assert "seat 3 is dead" in requests[-1].messages[1]["content"]


async def test_reflector_asks_for_one_revision(tmp_path: Path) -> None:
    # seat 1 is seat 0's fellow wolf: voting it is a conflict; the revision is returned as is
    reply, requests = scripted_by_stage([vote(1), vote(1)])
    cognitive = agent(tmp_path, reply)
    feed(cognitive, tmp_path)
    events: list[Event] = []
    raw = await cognitive.decide("S", "U", asked(events))
    stages = [e.payload["stage"] for e in events if e.kind == "llm_call"]
    assert stages[-2:] == ["writer", "writer_revision"]
    assert "team mate" in requests[-1].messages[-1]["content"]
    assert json.loads(raw)["action"]["target"] == 1
    thoughts = (tmp_path / "g1.records" / "seat-0" / THOUGHTS).read_text()
    assert "reflection" in thoughts


async def test_no_revision_when_the_move_fits(tmp_path: Path) -> None:
    reply, _ = scripted_by_stage([vote(3)])
    cognitive = agent(tmp_path, reply)
    feed(cognitive, tmp_path)
    events: list[Event] = []
    await cognitive.decide("S", "U", asked(events))
    assert "writer_revision" not in [e.payload.get("stage") for e in events]


async def test_night_potion_skips_investigations(tmp_path: Path) -> None:
    reply, requests = scripted_by_stage([vote(3)])
    cognitive = agent(tmp_path, reply)
    await cognitive.decide("S", "U", asked([], kind="WITCH"))
    assert len(requests) == 2  # planner and writer


async def test_failing_model_raises_for_the_runtime_to_handle(tmp_path: Path) -> None:
    def broken(request: Request) -> str:
        raise RuntimeError("model crashed")

    cognitive = agent(tmp_path, broken)
    events: list[Event] = []
    try:
        await cognitive.decide("S", "U", asked(events))
    except Exception as exc:  # the writer's failure reaches the handler, which re-asks/falls back
        assert "model crashed" in str(exc)
    else:
        raise AssertionError("expected the writer's failure")
    errors = [e for e in events if e.kind == "llm_call" and "error" in e.payload]
    assert errors  # every failed call is recorded


def test_describe_and_factory() -> None:
    from duskfall.agents.kinds import AgentContext, make_participant

    variant = get_variant("werewolf")
    built = make_participant("cognitive:scripted", AgentContext(variant, 2, 7, ""))
    assert isinstance(built, CognitiveAgent) and built.describe() == "cognitive:scripted"
    assert built.settings.max_steps == 3
    tuned = make_participant(
        "cognitive:scripted", AgentContext(variant, 2, 7, "", {"max_steps": "1", "reflect": "no"})
    )
    assert isinstance(tuned, CognitiveAgent)
    assert tuned.settings.max_steps == 1 and tuned.settings.reflect is False


def test_bad_options_are_one_config_error() -> None:
    from duskfall.agents.kinds import AgentContext, make_participant
    from duskfall.core.errors import ConfigError

    variant = get_variant("werewolf")
    for options, message in (
        ({"max_steps": "many"}, "invalid cognitive agent option max_steps:"),
        ({"retries": -1}, "invalid cognitive agent option retries:"),
    ):
        with pytest.raises(ConfigError, match=message):
            make_participant("cognitive:scripted", AgentContext(variant, 2, 7, "", options))
