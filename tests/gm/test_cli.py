"""``duskfall gm`` run as a user runs it (scripted models through a registered provider).

Games that need a terminal (step mode, resume) run in a subprocess; the rest call the
command's entry point in-process, which is much faster.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun
from duskfall.llm import ScriptedProvider, register_provider

from .cli_driver import game_master, player, table

DRIVER = Path(__file__).with_name("cli_driver.py")
TABLE = ("--lang", "en", "--gm-model", "table:gm", "--player-model", "table:player")


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRun) -> CliRun:
    """Call ``duskfall ARGS`` in-process; returns (exit code, stdout, stderr)."""
    register_provider("table", table)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))

    return cli


def duskfall(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DUSKFALL_DB": str(cwd / "index.db")}
    return subprocess.run(
        [sys.executable, str(DRIVER), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.mark.subprocess
def test_a_whole_game_in_the_terminal_and_in_the_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    result = duskfall("gm", *TABLE, "--seed", "4", "--log", str(log), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "6-player Werewolf" in out and "seed 4" in out
    assert "GM: Welcome! [system sent a secret message to AI-Alpha]" in out
    assert "🔒 -> AI-Alpha: You are a Werewolf." in out  # the operator sees secrets
    assert "🎮 AI-Alpha: I have heard 0 players so far." in out
    assert "game over after 5 steps" in out
    header = json.loads(log.read_text().splitlines()[0])
    assert header["variant"] == "gm" and header["admin"]["seed"] == "4"


def test_public_view_hides_secrets(run: Any, tmp_path: Path) -> None:
    code, out, err = run("gm", *TABLE, "--public", "--log", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    assert "Werewolf." not in out and "🔒" not in out


@pytest.mark.subprocess
def test_step_mode_saves_and_the_game_resumes_later(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    paused = duskfall("gm", *TABLE, "--step", "--log", str(log), cwd=tmp_path, stdin="\n\ns\n")
    assert paused.returncode == 0, paused.stderr
    assert "s: save and quit" in paused.stdout
    assert f"continue with: duskfall gm --resume {log}" in paused.stdout
    assert "🎮 AI-Alpha" in paused.stdout and "🎮 AI-Beta" in paused.stdout
    assert "🎮 AI-Gamma" not in paused.stdout

    resumed = duskfall("gm", "--resume", str(log), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming" in resumed.stdout and "at step 3" in resumed.stdout
    assert "🎮 AI-Gamma: I have heard 2 players so far." in resumed.stdout
    assert "game over" in resumed.stdout
    again = duskfall("gm", "--resume", str(log), cwd=tmp_path)
    assert again.returncode == 2 and "already over" in again.stderr


@pytest.mark.subprocess
def test_quitting_in_step_mode_ends_the_game(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    result = duskfall("gm", *TABLE, "--step", "--log", str(log), cwd=tmp_path, stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert "stopped by the user" in result.stdout
    last = json.loads(log.read_text().splitlines()[-2])  # the last event, before the end record
    assert last["kind"] == "game_over" and last["payload"]["termination"] == "aborted"


def test_a_gm_that_never_gives_a_marker_stops_with_a_clear_message(
    run: Any, tmp_path: Path
) -> None:
    log = tmp_path / "g.jsonl"
    args = ("--model", "scripted", "--gm-format", "markers")
    code, out, _err = run("gm", *args, "--log", str(log))
    assert code == 1
    assert "3 unusable replies in a row (last: no marker found)" in out
    assert log.exists() and "game_over" in log.read_text()


def test_players_option_and_list_cards(run: Any, tmp_path: Path) -> None:
    _code, listed, _err = run("gm", "--list-cards")
    assert "werewolf6" in listed and "avalon5" in listed
    players = "AI-Alpha,AI-Beta=table:player,AI-Gamma"
    code, out, err = run("gm", *TABLE, "--players", players, "--log", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    assert "players: AI-Alpha (table:player), AI-Beta (table:player), AI-Gamma" in out
    header = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert len(header["roster"]) == 3
    assert header["roster"][0]["persona"].startswith("A calm analyst")


def test_config_file(run: Any, tmp_path: Path) -> None:
    config = tmp_path / "game.toml"
    config.write_text(
        'card = "avalon5"\nlanguage = "en"\ngm_model = "table:gm"\nplayer_model = "table:player"\n'
        "max_steps = 2\n"
        '[[players]]\nname = "AI-Alpha"\npersona = "bold"\n'
        '[[players]]\nname = "AI-Beta"\n'
    )
    code, out, err = run("gm", "--config", str(config), "--log", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    assert "5-player Avalon" in out
    assert "players: AI-Alpha (table:player), AI-Beta (table:player)" in out
    assert "step limit 2 reached" in out


def test_games_are_indexed(run: Any, tmp_path: Path) -> None:
    code, _out, err = run("gm", *TABLE, "--log", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    code, out, err = run("games")
    assert code == 0, err
    assert "gm" in out and "finished" in out


def test_user_errors_are_one_clear_line(run: Any, tmp_path: Path) -> None:
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("card = ")
    for args, needle in [
        (("gm", "--card", "chess"), "unknown rule card 'chess'"),
        (("gm", "--lang", "fr"), "language: Input should be 'zh' or 'en'"),
        (("gm", "--gm-model", "wizard:x"), "unknown model provider 'wizard'"),
        (("gm", "--players", "Ann,ann"), "too alike"),
        (("gm", "--config", str(bad_toml)), "not valid TOML"),
        (("gm", "--config", str(tmp_path / "none.toml")), "cannot read config"),
        (("gm", "--resume", str(tmp_path / "none.jsonl")), "no such log file"),
        (("gm", "--max-steps", "0", "--model", "table:gm"), "max_steps"),
        (("gm", "--card", str(tmp_path / "none.toml")), "does not exist"),
        (("gm", "--resume", "x.jsonl", "--card", "avalon5"), "keeps the game's card"),
    ]:
        code, out, err = run(*args)
        assert code == 2, (args, out, err)
        assert needle in " ".join(err.split()), (args, err)
        assert "Traceback" not in err


@pytest.mark.subprocess
def test_ctrl_c_keeps_a_resumable_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    env = {**os.environ, "DUSKFALL_DB": "off", "PYTHONUNBUFFERED": "1"}
    args = [*TABLE[:2], "--gm-model", "table:hang", "--player-model", "table:player"]
    with subprocess.Popen(
        [sys.executable, str(DRIVER), "gm", *args, "--log", str(log)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C's default, even when the tests run in a background job (SIGINT ignored)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:  # the game has started once the chat shows
            if "The game begins" in line:
                break
        process.send_signal(signal.SIGINT)
        out, _err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert f"interrupted; continue with: duskfall gm --resume {log}" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    kinds = [e["kind"] for e in lines if "kind" in e]  # the events, not the signature lines
    assert kinds[-1] == "paused" and "game_over" not in kinds


def test_structured_game_to_the_step_limit_exits_zero_with_the_reason(
    run: Any, tmp_path: Path
) -> None:
    log = tmp_path / "g.jsonl"
    args = ("--model", "scripted", "--gm-format", "structured", "--max-steps", "6")
    code, out, _err = run("gm", *args, "--lang", "en", "--log", str(log))
    assert code == 0, out
    assert "-- Night 1: the werewolves --" in out
    assert out.rstrip().endswith("stopped: step limit 6 reached")
    code, out, _err = run("gm", "--gm-format", "json", "--log", str(log))
    assert code == 2 and "gm_format" in out + _err


class Loading(ScriptedProvider):
    """A table model whose first pre-flight loads something (as the embedded model does)."""

    loaded = False

    def loading_note(self) -> str | None:
        return None if Loading.loaded else f"loading the model {self.model} ..."

    async def ping(self) -> None:
        Loading.loaded = True


def test_the_model_load_is_announced_before_the_game(run: Any, tmp_path: Path) -> None:
    Loading.loaded = False
    register_provider(
        "loading", lambda arg, config: Loading(game_master if arg == "gm" else player)
    )
    args = ("--lang", "en", "--gm-model", "loading:gm", "--player-model", "loading:player")
    code, out, _ = run("gm", *args, "--seed", "4", "--quiet", "--log", str(tmp_path / "g.jsonl"))
    assert code == 0
    assert out.count("loading the model ") == 1  # once, before the first load only
    assert out.index("loading the model scripted ...") < out.index("6-player Werewolf")


def test_the_scripted_model_plays_with_the_default_format(run: Any, tmp_path: Path) -> None:
    """``gm -m scripted`` needs no ``--gm-format``: a scripted model cannot write marked free
    text, so ``auto`` gives it structured turns (it aborted after 3 refused replies before)."""
    log = tmp_path / "g.jsonl"
    code, out, _err = run("gm", "-m", "scripted", "--lang", "en", "--log", str(log))
    assert code == 0, out
    assert "game over after" in out and "unusable replies" not in out
