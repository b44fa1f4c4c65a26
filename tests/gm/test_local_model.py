"""A complete game with the embedded local model (Gemma 3 270M) as game master and players.

The model is far too small to run a good game; what matters is that the loop copes with
whatever it writes: the game ends (by the GM, the step limit or refused replies), nothing
hangs, the log is complete, and no player's prompt holds another player's secret.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.core.events import visible_to
from duskfall.gm.config import GMSettings
from duskfall.gm.session import new_game
from duskfall.store.log import read_log
from duskfall.testing.require import require

from .support import of_kind, player_calls, prompt_text

pytestmark = [pytest.mark.llm, pytest.mark.timeout(1500)]


@pytest.fixture(autouse=True)
def local_model() -> None:
    require("llama_cpp", "pip install 'duskfall[local]'")


async def test_local_model_plays_a_bounded_game_without_crashing(tmp_path: Path) -> None:
    settings = GMSettings(
        seed=1,
        max_steps=3,
        max_gm_failures=2,
        gm_max_tokens=48,
        player_max_tokens=32,
        gm_timeout=600,
        player_timeout=600,
    )
    assert (settings.card, settings.gm_model, settings.player_model) == (
        "werewolf6",
        "local",
        "local",
    )
    path = tmp_path / "local.jsonl"
    game, _ = new_game(settings, log_path=path)
    outcome = await asyncio.wait_for(game.run(), 1400)

    log = read_log(path)
    assert log.finished and log.outcome == outcome
    calls = of_kind(log.events, "llm_call")
    assert calls and all(call.payload["model"] == "local" for call in calls)
    assert any(call.payload.get("reply") for call in calls)
    # A text counts as leaked only if the player could not have it legitimately: the GM may
    # send the same words to two players or also say them in public.
    seat = {name: i for i, name in enumerate(game.names)}
    secrets = of_kind(log.events, "secret")
    public = " ".join(str(e.payload) for e in log.events if e.visibility == "public")
    for call in player_calls(log.events):
        me = seat[call.payload["player"]]
        mine = {s.payload["text"] for s in secrets if visible_to(s, me)}
        text = prompt_text(call)
        for secret in secrets:
            words = secret.payload["text"]
            if words in mine or words in public or len(words) <= 3:
                continue
            assert words not in text, (call.payload["player"], words)


async def test_local_model_games_repeat_with_the_same_seed(tmp_path: Path) -> None:
    settings = GMSettings(
        language="en",
        seed=3,
        max_steps=2,
        max_gm_failures=2,
        gm_max_tokens=24,
        player_max_tokens=16,
        gm_timeout=600,
        player_timeout=600,
    )
    replies = []
    for name in ("a", "b"):
        game, _ = new_game(settings, log_path=tmp_path / f"{name}.jsonl")
        await asyncio.wait_for(game.run(), 1400)
        replies.append(
            [
                (e.payload["reply"], e.payload.get("error"))
                for e in of_kind(game.record.events, "llm_call")
            ]
        )
    assert replies[0] == replies[1]


async def test_structured_turns_on_the_embedded_model_are_never_refused(tmp_path: Path) -> None:
    """The short one: with its defaults (structured turns, the card's skeleton) the embedded
    model's every reply is a usable turn, and the game gets through the first night into the day."""
    settings = GMSettings(language="en", seed=1, max_steps=4, gm_timeout=600, player_timeout=600)
    game, _ = new_game(settings, log_path=tmp_path / "structured.jsonl")
    outcome = await asyncio.wait_for(game.run(), 1400)
    events = game.record.events
    assert game.structured and game.skeleton is not None
    assert not of_kind(events, "gm_rejected")
    turns = [t.payload["private"] for t in of_kind(events, "turn")]
    assert turns == [True, True, True, False]  # three night phases, then the day opens
    assert outcome.termination.value == "day_limit"
