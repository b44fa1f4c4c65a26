"""Whole games with cognitive seats: every variant, records, no leaks, determinism."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duskfall.core.events import visible_to
from duskfall.llm.calls import call_report
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.require import require

GAMES = [
    ("werewolf", {"preset": "werewolf-6"}),
    ("mafia", {}),
    ("sports-mafia", {}),
]


@pytest.mark.parametrize(("variant", "config"), GAMES)
async def test_cognitive_game_finishes_legally(variant: str, config: dict, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    game = await run_game(
        GameSetup(variant, seed=4, agents="cognitive:scripted", config=config, log_path=log)
    )
    assert game.state.outcome() is not None
    report = call_report(game.record.events)
    assert report.fallbacks == report.participant_errors == report.timeouts == 0
    stages = {e.payload.get("stage") for e in game.record.events if e.kind == "llm_call"}
    assert {"planner", "session", "writer"} <= stages
    assert any(e.kind == "suspicion" for e in game.record.events)
    assert game.agents == ["cognitive:scripted"] * game.state.num_seats
    replay(read_log(log))
    folder = tmp_path / f"{game.game_id}.records"
    assert sorted(p.name for p in folder.iterdir()) == [
        f"seat-{s}" for s in sorted(range(game.state.num_seats), key=str)
    ]


@pytest.mark.parametrize(("variant", "config"), GAMES)
async def test_records_hold_only_what_each_seat_may_see(
    variant: str, config: dict, tmp_path: Path
) -> None:
    game = await run_game(
        GameSetup(
            variant,
            seed=9,
            agents="cognitive:scripted",
            config=config,
            log_path=tmp_path / "g.jsonl",
        )
    )
    folder = tmp_path / f"{game.game_id}.records"
    for seat in range(game.state.num_seats):
        channels = game.state.channels(seat)
        root = folder / f"seat-{seat}"
        seen = [json.loads(x) for x in (root / "history.jsonl").read_text().splitlines()]
        expected = [e for e in game.record.events if visible_to(e, seat, channels)]
        assert [(x["kind"], x["payload"]) for x in seen] == [(e.kind, e.payload) for e in expected]
        # numbered in the seat's own view: no gap tells of a hidden event
        assert [x["seq"] for x in seen] == list(range(len(expected)))


async def test_same_seed_same_game() -> None:
    async def actions(seed: int) -> list[dict]:
        game = await run_game(
            GameSetup(
                "werewolf",
                seed=seed,
                agents="cognitive:scripted",
                config={"preset": "werewolf-6"},
                write_log=False,
            )
        )
        return [e.payload for e in game.record.events if e.kind == "action"]

    assert await actions(3) == await actions(3)


async def test_temporary_records_are_removed_without_a_log() -> None:
    game = await run_game(
        GameSetup(
            "werewolf",
            seed=1,
            agents="0=cognitive:scripted,default=heuristic",
            config={"preset": "werewolf-6"},
            write_log=False,
        )
    )
    from duskfall.agents.cognitive import CognitiveAgent

    agent = game.scheduler.participants[0]
    assert isinstance(agent, CognitiveAgent) and agent.records is not None
    assert agent.records.root.parts[-3].startswith("duskfall-records-")
    assert not agent.records.root.parent.parent.exists()


@pytest.mark.llm
@pytest.mark.timeout(1800)  # a few minutes on an idle machine; far more on a busy one
async def test_local_model_game_finishes(tmp_path: Path) -> None:
    """One cognitive seat on the local model among bots: the game ends, nothing hangs."""
    require("llama_cpp", "pip install 'duskfall[local]'")
    game = await run_game(
        GameSetup(
            "werewolf",
            seed=2,
            agents="0=cognitive:local,default=heuristic",
            config={"preset": "werewolf-6"},
            log_path=tmp_path / "local.jsonl",
        )
    )
    assert game.state.outcome() is not None
    report = call_report(game.record.events)
    assert report.calls > 0 and report.participant_errors == 0
    stages = {e.payload.get("stage") for e in game.record.events if e.kind == "llm_call"}
    assert {"planner", "writer"} <= stages
