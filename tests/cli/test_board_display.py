"""The terminal report fits an 80-column terminal without cutting a word or a number."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from arena.tournament_kit import bot_config, report, run
from duskfall.report.terminal import leaderboard_table

LADDER = {f"rung-{i}": f"mix:heuristic@{i / 4:g}/random" for i in range(5)}


@pytest.mark.slow
def test_the_report_of_a_five_entrant_ladder_fits_80_columns(tmp_path: Path) -> None:
    config = bot_config(
        "duplicate",
        games=40,
        entrants=LADDER,
        variants=[{"variant": "werewolf", "preset": "werewolf-9"}],
    )
    run(config, tmp_path)
    result = report(config, tmp_path, bootstrap=30)
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    for part in leaderboard_table(result):
        console.print(part, soft_wrap=False)
    text = buffer.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in text and ".." not in text  # nothing elided
    for name, agent in LADDER.items():  # names and agents whole, on one line
        assert any(agent in line for line in lines), agent
        assert any(re.search(rf"\b{name}\b", line) for line in lines)
    for title in ("board", "pairs", "head to head", "held-out", "behaviour", "vote acc."):
        assert title in text
    board = result.board
    for entrant in board.entrants:  # every interval printed whole on one line
        elo = entrant.elo
        assert f"{elo.point:.0f} [{elo.low:.0f}, {elo.high:.0f}]" in text
    for pair in board.pairs:
        assert f"{pair.a} > {pair.b}" in text
