"""``duskfall run-bot``: a bot on standard input and output plays over the wire, in a served game
and as a tournament's remote entrant."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.tournament_kit import report, run
from duskfall.arena.tournament_config import parse_tournament
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.testing.sealed_python import prelude, sealed_python
from server.support import autoplay, seat_clients, serving, wait_game_done

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).parents[2]
BOT = ROOT / "examples" / "stdio" / "bot.py"
PRELUDE = (
    f"import sys; sys.path.insert(0, {str(ROOT / 'src')!r}); from duskfall.cli import main; main()"
)
RUN_BOT = [sys.executable, "-c", PRELUDE, "run-bot"]


async def _run_bot(port: int, *command: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *RUN_BOT, "--port", str(port), "--", *command,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def test_a_stdin_bot_plays_a_served_game(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        bot = asyncio.create_task(_run_bot(server.port, sys.executable, str(BOT)))
        await asyncio.sleep(0.5)  # the bot takes seat 0
        others = await seat_clients(server.port, 9)
        await asyncio.gather(*autoplay(others, seed=4))
        code, err = await bot
        await wait_game_done(server)
        (result,) = server.lobby.results
        log = read_log(server.settings.log_dir / f"{result.game_id}.jsonl")  # type: ignore[operator]
    assert code == 0, err
    assert "game over:" in err  # the bot was told the end
    assert not [e for e in log.events if e.kind == "fallback"]
    assert any(e.payload.get("seat") == 0 for e in log.events if e.kind == "action")


async def test_a_silent_or_garbled_bot_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text(
        "import sys\n"
        "for i, line in enumerate(sys.stdin):\n"
        "    print('not json' if i == 0 else '[1, 2]', flush=True)\n"
    )
    async with serving(tmp_path, games=1, deadline_ms=2000, retries=0) as server:
        bot = asyncio.create_task(_run_bot(server.port, sys.executable, str(script)))
        await asyncio.sleep(0.5)
        others = await seat_clients(server.port, 9)
        await asyncio.gather(*autoplay(others, seed=5))
        code, err = await bot
        await wait_game_done(server)
    assert code == 0
    assert "the bot's answer is not JSON" in err and "not a JSON object" in err


def test_a_stdin_bot_is_a_tournament_entrant(tmp_path: Path) -> None:
    python = sealed_python()  # sealed when this machine can seal, with an interpreter it can run
    run_bot = [python or sys.executable, "-c", prelude("from duskfall.cli import main; main()")]
    options = ["run-bot", "--host", "{host}", "--port", "{port}", "--"]
    command = [*run_bot, *options, python or sys.executable, str(BOT)]
    remote = {"command": command, "connect_timeout": 60, "sealed": python is not None}
    data: dict[str, Any] = {
        "name": "stdio",
        "entrants": {"house": "random", "visitor": "remote"},
        "remote": {"visitor": remote},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}],
        "games": 2,
        "seed": 5,
        "schedule": "duplicate",
        "parallel_games": 2,
        "log_dir": "games",
    }
    config = parse_tournament(data)
    summary = run(config, tmp_path)
    assert summary.failed == [] and summary.played == 2
    latency = {e.name: e.metrics.mean_latency_s for e in report(config, tmp_path).entrants}
    assert latency["visitor"] is not None and 0 < latency["visitor"] < 5  # answer times shown
    assert latency["house"] is None  # bots answer in no time worth a figure
    with GameIndex(tmp_path / "index.db") as index:
        rows = index.tournament_games("stdio")
    for row in rows:
        assert row.log_path is not None
        events = read_log(row.log_path).events
        assert not [e for e in events if e.kind == "fallback"], json.dumps(row.id)
