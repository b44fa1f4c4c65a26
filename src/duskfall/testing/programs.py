"""Hostile programs for the tests and probes of remote entrants and ``check-bot``, and how to
see that a process they left is gone (Linux: reads ``/proc``)."""

from __future__ import annotations

import time
from pathlib import Path

# forks a child that sleeps (its pid written to the file argv[1]), writes argv[2] megabytes to
# its standard error, then "the last words", and exits without ever connecting
FORKS_AND_SHOUTS = """\
import os, subprocess, sys
child = subprocess.Popen(["sleep", "300"])
open(sys.argv[1], "w").write(str(child.pid))
block = (b"x" * 1023 + b"\\n") * 1024
for _ in range(int(sys.argv[2])):
    os.write(2, block)
os.write(2, b"the last words\\n")
"""
LAST_WORDS = "the last words"


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether process ``pid`` is gone, waiting up to ``seconds`` for a kill to land."""
    end = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.05)
    return not alive(pid)
