"""``beliefs=daily``: once a day each model seat states P(evil) of the other living players,
asked with exactly its own prompt for the decision at hand (nothing more), off the record."""

from __future__ import annotations

import json
import random
from pathlib import Path

from duskfall.agents.beliefs import living_others, read_beliefs
from duskfall.agents.llm_agent import LLMAgent
from duskfall.core import event_kinds as kinds
from duskfall.llm import Model, Request, ScriptedProvider
from duskfall.llm.calls import call_report
from duskfall.llm.schema import example
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log


async def test_daily_beliefs_use_the_seats_own_prompt_and_name_only_living_others(
    tmp_path: Path,
) -> None:
    log_path = tmp_path / "g.jsonl"
    setup = GameSetup(
        "werewolf",
        seed=4,
        agents="llm:scripted",
        config={"preset": "werewolf-6"},
        log_path=log_path,
        agent_options={"beliefs": "daily"},
    )
    await run_game(setup)
    events = read_log(log_path).events
    calls = [e for e in events if e.kind == kinds.LLM_CALL]
    asked = [c for c in calls if c.payload.get("decision") == "beliefs"]
    stated = [e for e in events if e.kind == kinds.BELIEFS]
    assert asked and len(stated) == len(asked)
    days = {(e.payload["seat"], e.payload["day"]) for e in stated}
    assert len(days) == len(stated)  # once a day per seat
    for call in asked:
        seat = call.payload["seat"]
        following = next(
            c
            for c in calls[calls.index(call) + 1 :]
            if c.payload["seat"] == seat and c.payload.get("decision") != "beliefs"
        )
        mine, theirs = call.payload["messages"], following.payload["messages"]
        assert mine[:-1] == theirs[:-1]  # the same conversation: nothing added
        assert mine[-1]["content"].startswith(theirs[-1]["content"])
        assert "probability" in mine[-1]["content"][len(theirs[-1]["content"]) :]
    for event in stated:
        assert str(event.payload["seat"]) not in event.payload["beliefs"]
        assert event.visibility == "admin"


def test_unreadable_beliefs_are_dropped() -> None:
    players = [(1, "Bram"), (2, "Cleo")]
    assert read_beliefs('{"beliefs": {"1": 0.2, "2": 0.9}}', players) == {"1": 0.2, "2": 0.9}
    assert read_beliefs('{"beliefs": {"1": 0.2}}', players) is None
    assert read_beliefs('{"beliefs": {"1": 0.2, "2": 1.5}}', players) is None
    assert read_beliefs("not json", players) is None
    observation = {"seat": 0, "players": [{"seat": 0, "alive": True}, {"seat": 1, "alive": False},
                                          {"seat": 2, "alive": True, "name": "Cleo"}]}  # fmt: skip
    assert living_others(observation) == [(2, "Cleo")]


async def test_beliefs_outside_the_unit_interval_are_recorded_as_refused_and_counted(
    tmp_path: Path,
) -> None:
    """A model that states P(evil) = 1.5 (after the re-ask too) leaves a refused ``beliefs``
    event with what it stated; the call report counts it and calibration skips it."""

    def reply(request: Request) -> str:
        properties = (request.schema or {}).get("properties", {})
        if "beliefs" in properties:
            players = properties["beliefs"]["properties"]
            return json.dumps({"beliefs": {p: 1.5 for p in players}})
        return json.dumps(example(dict(request.schema or {}), random.Random(0)))

    model = Model(ScriptedProvider(reply))
    log_path = tmp_path / "g.jsonl"
    setup = GameSetup(
        "werewolf",
        seed=4,
        agents="heuristic",
        config={"preset": "werewolf-6"},
        log_path=log_path,
        participants={0: LLMAgent(model, seat=0, beliefs="daily")},
    )
    await run_game(setup)
    events = read_log(log_path).events
    stated = [e for e in events if e.kind == kinds.BELIEFS]
    assert stated and all("beliefs" not in e.payload for e in stated)
    assert all(e.payload["refused"].startswith("outside [0, 1]") for e in stated)
    assert all(set(e.payload["stated"].values()) == {1.5} for e in stated)
    report = call_report(events)
    assert report.beliefs_asked == report.beliefs_refused == len(stated)
