"""Whole games played by the real embedded model: in-process through llama.cpp, and over HTTP
through ``python -m llama_cpp.server`` and the ``openai`` provider. Games are kept short (one
day) so that each test takes a few minutes on two CPU cores; the server runs the docs' recipe
(:mod:`duskfall.testing.llama_server`: with the server's defaults each generated token costs
about ten times as much, and a killed test leaves no server behind)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from duskfall.llm.calls import call_report
from duskfall.runtime.settings import RuntimeSettings
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.require import require

pytestmark = [pytest.mark.llm, pytest.mark.timeout(900)]

CONFIG = {"preset": "werewolf-6", "day_limit": 1}
# deadlines far past any machine's speed: a busy 2-core machine took over a minute for a call,
# and a timeout there says nothing of the provider (a hung call still ends the test)
DEADLINES = {"timeout": 300, "decision_timeout": 600}
OPTIONS = {"reasoning_chars": 120, "max_tokens": 160, **DEADLINES}


def gguf_path() -> Path:
    require("llama_cpp", "pip install 'duskfall[local]'")
    from duskfall.llm.providers.local import default_model_path

    return default_model_path()


async def play(agents: str, log_path: Path, options: dict[str, Any] = OPTIONS) -> None:
    game = await run_game(
        GameSetup(
            "werewolf",
            seed=1,
            agents=agents,
            config=CONFIG,
            log_path=log_path,
            agent_options=options,
            settings=RuntimeSettings(decision_timeout=DEADLINES["decision_timeout"]),
        )
    )
    assert game.state.outcome() is not None
    replay(read_log(log_path))  # every applied action is legal under the rules
    report = call_report(game.record.events)
    actions = [e for e in game.record.events if e.kind == "action"]
    assert report.calls >= len(actions) > 0
    assert report.usage.prompt_tokens > 0 and report.usage.completion_tokens > 0
    assert report.participant_errors == report.timeouts == 0
    assert sum(a.payload["by"] == "agent" for a in actions) >= 0.8 * len(actions)


async def test_embedded_model_plays_a_whole_game(tmp_path: Path) -> None:
    gguf_path()
    await play("llm:local", tmp_path / "local.jsonl")


async def test_openai_provider_plays_a_whole_game_against_llama_server(tmp_path: Path) -> None:
    require("llama_cpp.server.app", "pip install 'llama-cpp-python[server]'")
    from duskfall.testing.llama_server import LlamaServer

    print("starting python -m llama_cpp.server with the bundled model (the docs' recipe)")
    with LlamaServer(gguf_path()) as server:
        options = {**server.agent_options, **OPTIONS}
        await play(server.agent_spec, tmp_path / "server.jsonl", options)
