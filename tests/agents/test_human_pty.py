"""A whole game with one human seat, typed through a real pseudo-terminal.

Runs ``duskfall play --variant werewolf --human 3`` with its stdin/stdout on a pty and
answers every prompt like a person: words for speeches and yes/no questions, a name or
"abstain" for seat choices, plus one nonsense answer that must be refused with a hint.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

DEADLINE = 180.0
TURN = re.compile(r"=== seat 3: your turn \((\w+)\) ===")
CHOICE = re.compile(r"seat (\d+) \((\w+)\)")


class Terminal:
    """The user's side of a pty attached to a child process."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, close_fds=True,
            env={**os.environ, "COLUMNS": "200", "TERM": "dumb", "NO_COLOR": "1"},
        )  # fmt: skip
        os.close(slave)
        self.text = ""
        self.deadline = time.monotonic() + DEADLINE

    def read_until_prompt_or_exit(self) -> bool:
        """Read until the child waits at ``> `` (True) or exits (False)."""
        while True:
            if self.text.endswith("> "):
                return True
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                self.proc.kill()
                pytest.fail(
                    f"the game did not finish in {DEADLINE}s; last output:\n{self.text[-2000:]}"
                )
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

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.master)


def answer(kind: str, choices: str, state: dict[str, bool]) -> str:
    if kind in ("SPEECH", "BADGE_SPEECH", "LAST_WORDS", "WOLF_CHAT"):
        return "I am a simple villager, I swear."
    if kind in ("BADGE_RUN", "BADGE_WITHDRAW"):
        return "no"
    if kind == "WITCH":
        return "pass"
    if not state["refused"]:
        state["refused"] = True
        return "banana"
    named = CHOICE.findall(choices)
    if "'abstain'" in choices or "'nobody'" in choices or "'no kill'" in choices:
        return "abstain" if kind == "VOTE" and len(named) % 2 else named[0][1]
    return named[-1][1]  # a name, not a number


def test_a_full_game_with_a_human_at_a_pty(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    args = [sys.executable, "-m", "duskfall", "play", "--variant", "werewolf", "--human", "3",
            "--seed", "4", "--log", str(log)]  # fmt: skip
    terminal = Terminal(args, tmp_path)
    state = {"refused": False}
    turns: list[str] = []
    try:
        while terminal.read_until_prompt_or_exit():
            screen = terminal.text
            kind = TURN.findall(screen)[-1]
            choices = screen[screen.rindex("Choices:") :]
            turns.append(kind)
            terminal.type(answer(kind, choices, state))
            terminal.text += "\n"  # the answer is echoed; keep prompts apart
    finally:
        terminal.close()
    out = terminal.text
    assert terminal.proc.returncode == 0, out[-2000:]
    assert "seats:" in out and "3:human" in out
    assert turns and set(turns) >= {"SPEECH"}
    assert "Not accepted: 'banana' is not a seat number or a player's name" in out
    assert re.search(r"(village|werewolf) wins|Draw", out), out[-1000:]
    before_end = out[: out.rindex("log written to")]
    dealt = re.findall(r"seat (\d+) \(\w+\) is dealt the", before_end)
    assert dealt == ["3"]  # the human never sees another seat's card
    records = [json.loads(line) for line in log.read_text().splitlines()]
    mine = [r for r in records if r.get("kind") == "action" and r["payload"]["seat"] == 3]
    assert len(mine) == len(turns) - 1  # one answer was refused and asked again
    assert all(r["payload"]["by"] == "agent" for r in mine)
