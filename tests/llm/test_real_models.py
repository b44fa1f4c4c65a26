"""Whole games played by the real embedded model: in-process through llama.cpp, and over HTTP
through ``python -m llama_cpp.server`` and the ``openai`` provider. Games are kept short (one
day) so that each test takes a few minutes on two CPU cores."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from duskfall.llm.calls import call_report
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.require import require

pytestmark = [pytest.mark.llm, pytest.mark.timeout(900)]

CONFIG = {"preset": "werewolf-6", "day_limit": 1}
OPTIONS = {"reasoning_chars": 120, "max_tokens": 160}


def gguf_path() -> Path:
    require("llama_cpp", "pip install 'duskfall[local]'")
    from duskfall.llm.providers.local import default_model_path

    return default_model_path()


async def play(agents: str, log_path: Path) -> None:
    game = await run_game(
        GameSetup(
            "werewolf",
            seed=1,
            agents=agents,
            config=CONFIG,
            log_path=log_path,
            agent_options=OPTIONS,
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def llama_server(model: Path) -> AsyncIterator[str]:
    require("llama_cpp.server.app", "pip install 'llama-cpp-python[server]'")
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_threads",
        "2",
        "--n_ctx",
        "8192",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        async with asyncio.timeout(300):
            while b"Uvicorn running" not in (line := await process.stderr.readline()):
                assert line, "llama_cpp.server exited before it was ready"
        drain = asyncio.create_task(process.stderr.read())  # keep its pipe from filling up
        yield f"http://127.0.0.1:{port}/v1"
        drain.cancel()
    finally:
        process.terminate()
        with contextlib.suppress(ProcessLookupError):
            async with asyncio.timeout(30):
                await process.wait()


async def test_openai_provider_plays_a_whole_game_against_llama_server(tmp_path: Path) -> None:
    async with llama_server(gguf_path()) as url:
        await play(f"llm:openai:gemma-3-270m@{url}", tmp_path / "server.jsonl")
