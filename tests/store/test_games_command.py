"""``duskfall games`` and the index rows of simulated games, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from duskfall.arena.simulate import simulate
from duskfall.cli import store_commands
from duskfall.core.rng import game_seed
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow, SeatRow


def duskfall(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duskfall", *args],
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def listed(*args: str) -> list[dict[str, Any]]:
    """``duskfall games --json ARGS``, in process."""
    result = CliRunner().invoke(store_commands.app, ["games", "--json", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def row(game_id: str, variant: str, status: str, agents: list[str], started: str) -> GameRow:
    return GameRow(
        id=game_id,
        variant=variant,
        config={},
        seed=1,
        seats=tuple(SeatRow(s, a, a.partition(":")[2] or None) for s, a in enumerate(agents)),
        status=status,
        winner="town" if status == "finished" else None,
        prompt_tokens=1200,
        cost_usd=0.0123,
        started_at=f"2026-03-0{started}T10:00:00",
    )


@pytest.mark.subprocess
def test_games_filters(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with GameIndex(db) as index:
        index.add_rows(
            [
                row("ww-1", "werewolf", "finished", ["llm:local", "heuristic"], "1"),
                row("ww-2", "werewolf", "running", ["heuristic", "heuristic"], "2"),
                row("mf-3", "mafia", "aborted", ["random", "llm:openai:gpt-4o"], "3"),
                row("mf-4", "mafia", "finished", ["random", "random"], "4"),
            ]
        )
    ids = lambda *args: [r["id"] for r in listed("--db", str(db), *args)]  # noqa: E731
    assert ids() == ["mf-4", "mf-3", "ww-2", "ww-1"]
    assert ids("--variant", "werewolf") == ["ww-2", "ww-1"]
    assert ids("--status", "finished") == ["mf-4", "ww-1"]
    assert ids("--agent", "llm") == ["mf-3", "ww-1"]
    assert ids("--agent", "openai:gpt-4o", "--status", "aborted") == ["mf-3"]
    assert ids("--agent", "heuristic", "--variant", "mafia") == []
    assert ids("--limit", "2", "--offset", "1") == ["mf-3", "ww-2"]
    table = duskfall("games", "--db", str(db), "--variant", "werewolf", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "2 of 2 games" in table.stdout
    assert "llm:local×1, heuristic×1" in table.stdout and "1,200" in table.stdout
    assert "mf-4" not in table.stdout


def test_games_shows_cached_prompt_tokens(tmp_path: Path) -> None:
    db = tmp_path / "cached.db"
    cached = replace(row("ww-1", "werewolf", "finished", ["llm:local"], "1"), cached_tokens=900)
    with GameIndex(db) as index:
        index.add_rows([cached, row("ww-2", "werewolf", "finished", ["heuristic"], "2")])
    [second, first] = listed("--db", str(db))
    assert (first["prompt_tokens"], first["cached_tokens"], second["cached_tokens"]) == (
        1200,
        900,
        0,
    )
    runner = CliRunner(env={"COLUMNS": "200"})
    table = runner.invoke(store_commands.app, ["games", "--db", str(db)])
    assert table.exit_code == 0, table.output
    header = next(line for line in table.stdout.splitlines() if "tokens" in line)
    assert header.split().index("cached") == header.split().index("tokens") + 1
    [line] = [line for line in table.stdout.splitlines() if "ww-1" in line]
    assert "1,200" in line and " 900 " in line


@pytest.mark.subprocess
def test_simulated_games_get_summary_rows(tmp_path: Path) -> None:
    db = tmp_path / "sim.db"
    result = duskfall(
        "simulate", "-n", "24", "-w", "2", "--agents", "random", "--db", str(db), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    rows = listed("--db", str(db), "--limit", "100")
    assert len(rows) == 24 and len({r["id"] for r in rows}) == 24
    seeds = {r["seed"] for r in rows}  # from a secret drawn for the run, not from seed 0
    assert len(seeds) == 24 and not seeds & {game_seed(0, "simulate", i) for i in range(24)}
    assert all(r["status"] == "finished" and r["log_path"] is None for r in rows)
    assert all(len(r["seats"]) == 10 and r["days"] >= 1 and r["events"] > 0 for r in rows)
    assert "24 games of" in result.stdout


def test_logged_simulations_are_indexed_with_their_logs(
    tmp_path: Path, private_index: Path
) -> None:
    simulate("sports-mafia", 3, agents="random", log_dir=str(tmp_path / "logs"))
    rows = GameIndex(private_index).list_games()
    assert len(rows) == 3
    assert all(r.status == "finished" and r.log_path and Path(r.log_path).exists() for r in rows)
