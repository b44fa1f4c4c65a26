"""Forks of games with model seats: with the parent's agents and seed, a fork at any phase
boundary plays the parent's game again event for event (the seats' conversations restored,
their calls sent the parent's seeds), and a fork takes the parent's agent options."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from duskfall.agents.llm_agent import LLMAgent, call_seed
from duskfall.lab.fidelity import first_difference
from duskfall.lab.fork import ForkRequest, plan_fork, run_fork
from duskfall.lab.rounds import rounds_of
from duskfall.session import GameSetup, options_of, run_game
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog, read_log


def played(path: Path, agents: str, **options: Any) -> Path:
    setup = GameSetup("werewolf", seed=6, agents=agents, config={"preset": "werewolf-6"},
                      log_path=path, agent_options=options)  # fmt: skip
    asyncio.run(run_game(setup))
    return path


@pytest.mark.parametrize(
    ("agents", "options"),
    [
        ("llm:scripted", {"beliefs": "daily"}),
        ("0=llm:scripted,3=llm:scripted,default=heuristic", {}),
        ("llm:scripted", {"memory": "stateless"}),
    ],
    ids=["conversation-beliefs", "mixed", "stateless"],
)
def test_a_fork_of_model_seats_replays_its_parent_at_every_round(
    index: Path, tmp_path: Path, agents: str, options: dict[str, Any]
) -> None:
    parent = played(tmp_path / "parent.jsonl", agents, **options)
    original = read_log(parent)
    boundaries = rounds_of(original)  # every round, not only phase boundaries
    assert len(boundaries) >= 10
    for round_ in boundaries:
        out = tmp_path / f"fork-{round_.number}.jsonl"
        planned = plan_fork(ForkRequest(parent, at=str(round_.start), log_path=out))
        warm = planned.warm_up
        assert warm is not None and warm.unmatched == []
        game = planned.start()
        asyncio.run(game.run())
        differs = first_difference(read_log(out).events, original.events)
        assert differs is None, f"fork at {round_.label} differs from event {differs} on"


def test_the_warm_up_goes_through_every_model_call_of_the_prefix(
    index: Path, tmp_path: Path
) -> None:
    parent = played(tmp_path / "parent.jsonl", "llm:scripted")
    log = read_log(parent)
    last = rounds_of(log)[-1]
    planned = plan_fork(ForkRequest(parent, at=str(last.start), log_path=tmp_path / "f.jsonl"))
    calls = [e for e in log.events[: last.start] if e.kind == "llm_call"]
    assert planned.warm_up is not None and planned.warm_up.relived == len(calls) > 10


def test_the_parents_options_are_logged_and_inherited_unless_overridden(
    index: Path, tmp_path: Path
) -> None:
    parent = played(tmp_path / "parent.jsonl", "llm:scripted", memory="stateless")
    assert options_of(read_log(parent).header) == {"memory": "stateless"}
    same = tmp_path / "same.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:2", agents="llm:scripted", seed=9,
                                     log_path=same)))  # fmt: skip
    forked = read_log(same)
    assert options_of(forked.header) == {"memory": "stateless"}
    origin = ForkOrigin.of(forked.header)
    assert origin is not None
    own = [e for e in forked.events[origin.prefix :] if e.kind == "llm_call"]
    # stateless: one system and one user message a call, never a conversation
    assert own and all(len(e.payload["messages"]) == 2 for e in own)
    other = tmp_path / "other.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:2", log_path=other,
                                     agent_options={"memory": "conversation"})))  # fmt: skip
    conversed = read_log(other)
    assert options_of(conversed.header) == {"memory": "conversation"}
    turns = [len(e.payload["messages"]) for e in conversed.events if e.kind == "llm_call"]
    assert max(turns) > 2


def test_a_calls_seed_is_its_place_in_the_seats_game() -> None:
    seeds = {call_seed(5, seat, n, a, p) for seat in (0, 1) for n in (1, 2) for a in (0, 1)
             for p in ("", "beliefs")}  # fmt: skip
    assert len(seeds) == 16 and all(0 <= s < 2**31 for s in seeds)
    assert call_seed(5, 0, 1) == call_seed(5, 0, 1, 0, "") != call_seed(6, 0, 1)


def test_a_fork_asks_the_parents_seeds_at_the_same_places(index: Path, tmp_path: Path) -> None:
    parent = played(tmp_path / "parent.jsonl", "llm:scripted")
    original = read_log(parent)
    out = tmp_path / "fork.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:2", log_path=out)))
    forked = read_log(out)
    origin = ForkOrigin.of(forked.header)
    assert origin is not None

    def seeds(log: GameLog) -> list[tuple[int, int]]:
        return [(e.payload["seat"], e.payload["sampling"]["seed"]) for e in log.events
                if e.kind == "llm_call"]  # fmt: skip

    assert seeds(forked) == seeds(original)
    assert len({s for _, s in seeds(original)}) == len(seeds(original))


def test_without_reliving_the_prefix_a_model_fork_plays_another_game(
    index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seats' conversations matter: a seat that starts the fork afresh is sent another
    prompt, and the scripted model answers it otherwise (so the test above has teeth)."""
    parent = played(tmp_path / "parent.jsonl", "llm:scripted")
    original = read_log(parent)
    monkeypatch.setattr(LLMAgent, "relive", lambda *args: True)
    out = tmp_path / "cold.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, at="day:2", log_path=out)))
    assert first_difference(read_log(out).events, original.events) is not None


def test_a_seat_whose_answers_were_refused_is_relived_with_its_hints(
    index: Path, tmp_path: Path
) -> None:
    """A model that answers garbage now and then: its re-asks (with the refusal's hint) are
    in its conversation, and the warm-up builds every one of them as the log has it."""
    import json
    import random

    from duskfall.llm import Model
    from duskfall.llm.providers.scripted import ScriptedProvider
    from duskfall.llm.schema import example
    from duskfall.llm.types import Request

    calls = [0]

    def answer(request: Request) -> str:
        calls[0] += 1
        if calls[0] % 7 in (1, 2) or request.schema is None:  # refused twice: a re-ask
            return "I would rather not say."
        rng = random.Random(json.dumps(list(request.messages)))
        return json.dumps(example(request.schema, rng))

    agent = LLMAgent(Model(ScriptedProvider(answer)), seat=0, game_seed=6)
    parent = tmp_path / "parent.jsonl"
    setup = GameSetup("werewolf", seed=6, agents="heuristic", config={"preset": "werewolf-6"},
                      log_path=parent, participants={0: agent})  # fmt: skip
    asyncio.run(run_game(setup))
    log = read_log(parent)
    refused = [e for e in log.events if e.kind == "invalid_action" and e.payload["seat"] == 0]
    assert refused, "no answer was refused: the test plants none"
    last = rounds_of(log)[-1]
    planned = plan_fork(ForkRequest(parent, at=str(last.start), log_path=tmp_path / "f.jsonl"))
    warm = planned.warm_up
    decided = [e for e in log.events[: last.start] if e.kind == "llm_call"]
    decided = [e for e in decided if e.payload.get("decision") != "beliefs"]
    assert warm is not None and warm.relived == len(decided) and warm.unmatched == []
