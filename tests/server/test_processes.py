"""End to end with real processes: ten separate client processes per game."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

from duskfall.store.log import read_log
from duskfall.store.replay import replay

from .support import WAIT, game_log, serving, wait_game_done

pytestmark = pytest.mark.subprocess

SEED_CLIENT = Path(__file__).with_name("seed_client.py")
CLI = [sys.executable, "-c", "from duskfall.cli import main; main()"]


async def _run(*argv: str, timeout: float = 120.0) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_seed_document_clients_play_full_games(tmp_path: Path) -> None:
    async with serving(tmp_path, games=2) as server:
        port = str(server.port)
        runs = [_run(sys.executable, str(SEED_CLIENT), port, str(i)) for i in range(10)]
        # the second game: clients that answer every request, state updates included
        runs += [
            _run(sys.executable, str(SEED_CLIENT), port, str(i), "--answer-all")
            for i in range(10, 20)
        ]
        results = await asyncio.gather(*runs)
        await wait_game_done(server, 2)
    assert [code for code, _, _ in results] == [0] * 20, results
    for result in server.lobby.results:
        replay(game_log(server, result.game_id))


async def test_cli_serve_and_ten_connect_processes(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    server = await asyncio.create_subprocess_exec(
        *CLI,
        "serve",
        "--port",
        "0",
        "--games",
        "1",
        "--log-dir",
        str(logs),
        "--seed",
        "3",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert server.stdout is not None
        banner = (await asyncio.wait_for(server.stdout.readline(), WAIT)).decode()
        port = re.search(r":(\d+) ", banner)
        assert port, banner
        clients = await asyncio.gather(
            *(
                _run(
                    *CLI, "connect", "--port", port.group(1), "--agent", "random", "--seed", str(i)
                )
                for i in range(10)
            )
        )
        assert [code for code, _, _ in clients] == [0] * 10, clients
        assert await asyncio.wait_for(server.wait(), WAIT) == 0
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
    (log_path,) = logs.glob("*.jsonl")
    code, out, err = await _run(*CLI, "replay", str(log_path))
    assert code == 0, err
    assert "rules events reproduced exactly" in out


async def test_connect_count_plays_ten_seats_from_one_process(tmp_path: Path) -> None:
    async with serving(tmp_path, games=1) as server:
        code, out, err = await _run(
            *CLI, "connect", "--port", str(server.port), "--count", "10", "--agent", "random"
        )
        await wait_game_done(server)
    assert code == 0, err
    assert len(re.findall(r"winner (RED|BLACK|None)", out)) == 10


async def test_the_documented_minimal_client_plays_a_full_game(tmp_path: Path) -> None:
    doc = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("## A minimal client (standard library only)", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.splitlines()) < 60
    script = tmp_path / "minimal_client.py"
    script.write_text(code, encoding="utf-8")
    async with serving(tmp_path, games=1) as server:
        port = str(server.port)
        results = await asyncio.gather(
            *(_run(sys.executable, str(script), "127.0.0.1", port) for _ in range(10))
        )
        await wait_game_done(server)
    assert [code for code, _, _ in results] == [0] * 10, results
    assert all("game over, winner:" in out for _, out, _ in results)


async def test_connect_plays_werewolf_and_mafia_with_heuristic_bots(tmp_path: Path) -> None:
    """Built-in agents read every variant's decisions through the legal_state extension."""
    for variant, config, seats in (
        ("werewolf", {"preset": "werewolf-6"}, 6),
        ("mafia", {}, 8),
    ):
        async with serving(tmp_path / variant, games=1, variant=variant, config=config) as server:
            code, out, err = await _run(
                *CLI, "connect", "--port", str(server.port), "--count", str(seats),
                "--agent", "heuristic", "--variant", variant,
            )  # fmt: skip
            await wait_game_done(server)
        assert code == 0, err
        assert len(re.findall(r"winner", out)) == seats, out
        (path,) = (tmp_path / variant).glob("*.jsonl")
        events = read_log(path).events
        assert events[-1].kind == "game_over"
        assert not [e for e in events if e.kind in ("fallback", "invalid_action")]
