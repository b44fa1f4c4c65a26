"""Whole games with one human seat, typed through a real pseudo-terminal, for every variant.

Runs ``duskfall play --human N`` with its stdin/stdout on a pty and answers every prompt like
a person: Enter where a default is offered, words for speeches, ``n`` for yes/no questions, a
name or number for a choice (trying the next option when one is refused), plus one nonsense
answer that must be refused with a one-line reason. Checks that the screen never shows JSON,
that it shows day/night headers and labelled options, and that the end (every role) is shown.
Ctrl-C prints the resume command, and the game then resumes to its end.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import duskfall

pytestmark = pytest.mark.subprocess

DEADLINE = 240.0
TURN = re.compile(r"seat (\d+): your turn \((\w+)\)")
OPTION = re.compile(r"^- (?:seat \d+ \((\w+)\)|(\w+) \(seat \d+\))", re.MULTILINE)
SPEECH = "I am a simple villager, I swear."
CHOICE_PROMPTS = ("Seat number or name", "Name or seat number", "Player number")
SOURCE = str(Path(duskfall.__file__).parents[1])  # this checkout's duskfall, from any folder


def _interruptible() -> None:
    """Ctrl-C's default in the child, as at a terminal: a shell starting the tests in the
    background leaves SIGINT ignored, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    """The user's side of a pty attached to a child process."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, close_fds=True,
            env={**os.environ, "PYTHONPATH": SOURCE, "TERM": "dumb", "NO_COLOR": "1"},
            preexec_fn=_interruptible,
        )  # fmt: skip
        os.close(slave)
        self.text = ""
        self.deadline = time.monotonic() + DEADLINE

    def read_until_prompt_or_exit(self, *, prompt: bool = True) -> bool:
        """Read until the child waits at ``> `` (True; only with ``prompt``) or exits (False)."""
        while True:
            if prompt and self.text.endswith("> "):
                return True
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                self.proc.kill()
                pytest.fail(f"no end in {DEADLINE}s; last output:\n{self.text[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(remaining, 5.0))
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536).decode("utf-8", "replace")
            except OSError:  # the child closed the terminal
                chunk = ""
            if not chunk:
                self.proc.wait(timeout=30)
                return False
            self.text += chunk.replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())
        self.text += "\n"  # the echo is on the prompt's line; keep prompts apart

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.master)


class Person:
    """Answers prompts as a person would; ``turns`` lists the decision kinds asked."""

    def __init__(self, first_beliefs: str = "4:-2 7:+3") -> None:
        self.turns: list[str] = []
        self.refused_once = False
        self.tries = 0
        self.beliefs = first_beliefs

    def answer(self, screen: str) -> str:
        turn = screen.rindex("your turn (")
        kind = TURN.search(screen, turn - 20).group(2)  # type: ignore[union-attr]
        if not self.turns or screen.count("your turn (") > len(self.turns):
            self.turns.append(kind)
            self.tries = 0
        prompt = screen[screen.rindex("\n") + 1 :]
        if prompt.startswith("Beliefs") and self.beliefs:
            self.beliefs, typed = "", self.beliefs
            return typed
        if "[" in prompt:  # a default: Enter takes it
            return ""
        if prompt.startswith(("What you say", "Your message")):
            return SPEECH
        if "y or n" in prompt:
            return "n"
        if prompt.startswith(CHOICE_PROMPTS):
            if not self.refused_once:
                self.refused_once = True
                return "banana"
            question = screen.rfind("Options", turn)
            names = [a or b for a, b in OPTION.findall(screen[max(turn, question) :])]
            options = [*names, *map(str, range(12))]
            self.tries += 1
            return options[(self.tries - 1) % len(options)]
        pytest.fail(f"unexpected prompt {prompt!r}")


def play(terminal: Terminal, person: Person) -> str:
    try:
        while terminal.read_until_prompt_or_exit():
            terminal.type(person.answer(terminal.text))
    finally:
        terminal.close()
    return terminal.text


def duskfall(*args: str) -> list[str]:
    return [sys.executable, "-m", "duskfall", *args]


def check_screen(out: str, seat: int, returncode: int | None) -> None:
    """A finished game as a person saw it: readable, the end and every role shown."""
    assert returncode == 0, out[-2000:]
    assert f"{seat}:human" in out
    assert '{"' not in out and "Fields" not in out and "sheriff_claims" not in out
    assert "\nDay 1\n" in out and "\nNow\n" in out
    assert re.search(r"Not accepted: .*banana", out), out[-1000:]
    end = out.rindex(f"seat {seat}: the end")
    assert re.search(r"roles: 0=\w+, 1=\w+", out[end:]), out[-1000:]
    assert re.search(r"wins|Draw", out[end:])


def my_actions(log: Path, seat: int) -> list[dict[str, object]]:
    records = [json.loads(line) for line in log.read_text().splitlines()]
    return [r for r in records if r.get("kind") == "action" and r["payload"]["seat"] == seat]


def test_a_werewolf_game_at_a_pty(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = duskfall("play", "-v", "werewolf", "--preset", "werewolf-6", "--human", "3",
                    "--seed", "4", "--log", str(log))  # fmt: skip
    terminal, person = Terminal(args, tmp_path), Person()
    out = play(terminal, person)
    check_screen(out, 3, terminal.proc.returncode)
    assert "Options:\n- seat 0 (Ada)" in out
    before_end = out[: out.rindex("roles:")]
    assert re.findall(r"seat (\d+) \(\w+\)(?: \(you\))? is dealt the", before_end) == ["3"]
    mine = my_actions(log, 3)
    assert len(mine) == len(person.turns) and all(r["payload"]["by"] == "agent" for r in mine)


def test_a_sports_mafia_game_at_a_pty(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = duskfall("play", "-v", "sports-mafia", "--human", "3", "--seed", "5",
                    "--set", "day_limit=3", "--log", str(log))  # fmt: skip
    terminal, person = Terminal(args, tmp_path), Person()
    out = play(terminal, person)
    check_screen(out, 3, terminal.proc.returncode)
    assert "DECLARATION" in person.turns
    assert "player 3 (you) declares: beliefs 4:-2, 7:+3" in out
    assert "Options: player" in out and "Players you may nominate: player" in out
    assert all(r["payload"]["by"] == "agent" for r in my_actions(log, 3))


def test_a_classic_mafia_game_at_a_pty(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = duskfall("play", "-v", "mafia", "--set", "players=6", "--human", "0", "-a",
                    "heuristic", "--seed", "3", "--log", str(log))  # fmt: skip
    terminal, person = Terminal(args, tmp_path), Person()
    out = play(terminal, person)
    check_screen(out, 0, terminal.proc.returncode)
    assert "DAY_DISCUSSION" in person.turns
    assert f'Alice (seat 0): "{SPEECH}"' in out
    assert "Options (VOTE):\n- " in out
    assert all(r["payload"]["by"] == "agent" for r in my_actions(log, 0))


def test_ctrl_c_prints_the_resume_command_and_the_game_resumes(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = duskfall("play", "-v", "werewolf", "--preset", "werewolf-6", "--human", "3",
                    "--seed", "4", "--log", str(log))  # fmt: skip
    terminal = Terminal(args, tmp_path)
    try:
        assert terminal.read_until_prompt_or_exit()
        terminal.proc.send_signal(signal.SIGINT)
        assert not terminal.read_until_prompt_or_exit(prompt=False)
    finally:
        terminal.close()
    out = terminal.text
    assert terminal.proc.returncode == 130, out[-1000:]
    assert f"interrupted; continue with: duskfall resume {log}" in out
    assert "Traceback" not in out
    resumed = Terminal(duskfall("resume", str(log)), tmp_path)
    again = play(resumed, Person())
    assert resumed.proc.returncode == 0, again[-2000:]
    assert "seat 3: your turn" in again and "seat 3: the end" in again
    assert "log appended to" in again
