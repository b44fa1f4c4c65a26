"""The pre-flight check: once per distinct model, all at once, before anything is written."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from duskfall.agents.llm_agent import LLMAgent
from duskfall.llm import Completion, Model, TransientError
from duskfall.llm.provider import Capabilities, Provider
from duskfall.llm.types import Message
from duskfall.session import GameSetup, SeatNotReady, plan_game, prepare_checked_game
from duskfall.session.preflight import preflight


class Counting(Provider):
    """A provider without a ``ping`` of its own: it gets the tiny request; ``fails`` first."""

    name = "counting"
    capabilities = Capabilities(schema=True)
    max_concurrency = 4
    endpoint = "counting"

    def __init__(self, model: str, fails: int = 0) -> None:
        self.model = model
        self.fails = fails
        self.calls = 0

    async def complete(
        self, messages: Sequence[Message], schema: Mapping[str, Any] | None = None, **options: Any
    ) -> Completion:
        self.calls += 1
        await asyncio.sleep(0)
        if self.calls <= self.fails:
            raise TransientError(f"{self.model} is down")
        return Completion("OK")


def seat(provider: Counting) -> LLMAgent:
    return LLMAgent(Model(provider, spec=f"counting:{provider.model}"))


async def test_each_distinct_model_is_asked_once() -> None:
    first, second, other = Counting("a"), Counting("a"), Counting("b")
    seats = {0: seat(first), 1: seat(second), 2: seat(other), 3: seat(Counting("a"))}
    await preflight(seats, ["llm:counting:a", "llm:counting:a", "llm:counting:b", "llm:x"])
    assert (first.calls, second.calls, other.calls) == (1, 0, 1)


async def test_a_failure_names_every_seat_of_that_model() -> None:
    down = Counting("b", fails=99)
    seats = {0: seat(Counting("a")), 1: seat(down), 2: seat(Counting("a")), 4: seat(down)}
    agents = ["llm:counting:a", "llm:counting:b", "llm:counting:a", "random", "llm:counting:b"]
    with pytest.raises(SeatNotReady) as info:
        await preflight(seats, agents)
    assert str(info.value) == "seats 1, 4 (llm:counting:b) cannot play: b is down"
    assert down.calls == 3  # re-sent twice after a transient failure, no more


async def test_a_transient_failure_is_asked_again() -> None:
    flaky = Counting("a", fails=1)
    await preflight({0: seat(flaky)}, ["llm:counting:a"])
    assert flaky.calls == 2


async def test_a_refused_game_leaves_no_trace(tmp_path: Path, private_index: Path) -> None:
    log = tmp_path / "game.jsonl"
    setup = GameSetup(
        "sports-mafia", seed=1, agents="llm:openai:x@http://127.0.0.1:9/v1", log_path=log
    )
    with pytest.raises(SeatNotReady, match=r"seats 0-9 \(llm:openai:x@http://127.0.0.1:9/v1\)"):
        await prepare_checked_game(setup)
    assert not log.exists() and not private_index.exists()


async def test_bots_and_scripted_models_need_no_request() -> None:
    plan = plan_game(GameSetup("mafia", seed=1, agents="0=llm:scripted,default=random"))
    await plan.preflight()  # the scripted provider's own ping: no reply used up


class Loading(Counting):
    """A provider that checks itself (``ping``) and says what that does the first time."""

    capabilities = Capabilities(schema=True, ping=True)

    def __init__(self, model: str) -> None:
        super().__init__(model)
        self.loaded = False

    def loading_note(self) -> str | None:
        return None if self.loaded else f"loading {self.model} ..."

    async def ping(self) -> None:
        self.loaded = True


async def test_a_slow_check_says_what_it_is_doing_once() -> None:
    provider = Loading("weights")
    said: list[str] = []
    await preflight({0: seat(provider)}, ["llm:counting:weights"], said.append)
    await preflight({0: seat(provider)}, ["llm:counting:weights"], said.append)
    assert said == ["loading weights ..."]
    assert provider.calls == 0  # the ping was the check: no request


def test_the_embedded_model_names_what_it_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    from duskfall.llm.providers import local

    monkeypatch.setattr(local, "_LOADED", {})
    monkeypatch.setattr(local, "_DEFAULT_PATH", None)
    note = local.LocalProvider().loading_note()
    assert note == "loading the embedded model gemma-3-270m-q4_k_m (from its package) ..."


async def test_a_mixed_seat_is_checked_through_the_model_it_declares() -> None:
    """A seat declares the models it calls (``models()``): a mix of a model and a bot is
    checked before it plays, as a seat of the model alone is."""
    import random

    from duskfall.agents.mix import MixParticipant
    from duskfall.core.registry import get_variant
    from duskfall.runtime.participant import BotParticipant

    down = Counting("m", fails=99)
    bot = BotParticipant(get_variant("werewolf").bots()["random"](0, random.Random(0)))
    mixed = MixParticipant(seat(down), bot, 0.5, random.Random(1))
    with pytest.raises(SeatNotReady) as info:
        await preflight({0: mixed}, ["mix:llm:counting:m,random"])
    assert "seat 0" in str(info.value) and down.calls == 3
