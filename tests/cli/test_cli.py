"""The play / simulate / replay commands, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess


def duskfall(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "duskfall", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=None if env is None else {**os.environ, **env},
    )


def test_play_shows_the_game_and_writes_a_replayable_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    played = duskfall("play", "--seed", "5", "--log", str(log), cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Day 1" in played.stdout and "wins" in played.stdout
    assert str(log) in played.stdout
    header = json.loads(log.read_text().splitlines()[0])
    assert header["type"] == "header" and header["admin"]["seed"] == "5"
    replayed = duskfall("replay", str(log), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "replay verified" in replayed.stdout


def test_same_seed_same_game(tmp_path: Path) -> None:
    outputs = []
    for name in ("a", "b"):
        result = duskfall("play", "--seed", "11", "--log", str(tmp_path / name), cwd=tmp_path)
        outputs.append([line for line in result.stdout.splitlines() if "game " not in line][2:-1])
    assert outputs[0] == outputs[1]


def test_simulate_prints_rates_with_intervals(tmp_path: Path) -> None:
    result = duskfall("simulate", "--games", "40", "--workers", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "RED" in result.stdout and "BLACK" in result.stdout and "%" in result.stdout
    assert "games/s" in result.stdout


def test_user_errors_are_one_clear_line(tmp_path: Path) -> None:
    for args, needle in [
        (("play", "--agents", "wizard"), "valid agents"),
        (("play", "--variant", "chess"), "valid variants"),
        (("play", "--set", "day_limit=0"), "day_limit"),
        (("play", "--set", "colour=red"), "colour"),
        (("replay", str(tmp_path / "missing.jsonl")), "no such log file"),
    ]:
        result = duskfall(*args, cwd=tmp_path)
        assert result.returncode != 0
        assert needle in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_torn_log_is_reported_and_the_good_part_replayed(tmp_path: Path) -> None:
    """A process killed mid-write leaves a torn last line and an index that never saw the rest.

    The game is played unindexed, so no index row claims more events than the torn log holds
    (a finished game's log cut short is refused instead: see tests/store/test_chain.py).
    """
    log = tmp_path / "game.jsonl"
    unindexed = {"DUSKFALL_DB": "off"}
    duskfall("play", "--seed", "2", "--log", str(log), "--quiet", cwd=tmp_path, env=unindexed)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:40]) + lines[40][: len(lines[40]) // 2])
    result = duskfall("replay", str(log), "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "ends mid-line" in result.stdout and "39 events" in result.stdout
    assert "did not finish" in result.stdout


def test_finished_log_cut_short_is_refused_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    duskfall("play", "--seed", "2", "--log", str(log), "--quiet", cwd=tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:40]) + lines[40][: len(lines[40]) // 2])
    result = duskfall("replay", str(log), "-q", cwd=tmp_path)
    assert result.returncode != 0
    assert "lines were cut from its end" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_replay_shows_a_game_master_log(tmp_path: Path) -> None:
    from duskfall.core.events import Event
    from duskfall.store.log import LogHeader, LogWriter

    path = tmp_path / "gm.jsonl"
    writer = LogWriter(path, LogHeader("gm-1", "gm", {}, 3, [], extra={"card": {"language": "en"}}))
    chat = {"role": "player", "text": "I trust Bob.", "speaker": "Ann"}
    for seq, event in enumerate(
        [
            Event("chat", chat, "public", source="gm"),
            Event("secret", {"player": "Ann", "text": "you are a wolf"}, "seats:0", source="gm"),
        ]
    ):
        event.seq, event.game_id = seq, "gm-1"
        writer.on_event(event)
    writer.close()
    result = duskfall("replay", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Ann" in result.stdout and "I trust Bob." in result.stdout
    assert "nothing to re-verify" in result.stdout


def test_usage_errors_are_short_and_fail(tmp_path: Path) -> None:
    for args in (("replay", "x.jsonl", "--no-such-option"), ("play", "--seed", "abc")):
        result = duskfall(*args, cwd=tmp_path)
        assert result.returncode == 2
        assert "Error:" in result.stderr and "Traceback" not in result.stderr


def test_agent_options_reach_the_agents(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = duskfall(
        "play", "--seed", "3", "-q", "--agents", "llm:scripted", "--log", str(log),
        "--agent-option", "persona=a nervous farmer who hates mornings",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "a nervous farmer who hates mornings" in log.read_text()
