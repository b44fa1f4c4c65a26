"""Item 16: ``check-bot`` trusts nothing of the program it checks, probed from outside.

Real ``duskfall check-bot`` processes check hostile programs: one forks a child in its process
group and exits (the child must not outlive the check), one also writes 200 MB to its standard
error (check-bot's peak memory is measured against the quiet program's), one answers its first
request with a frame whose ``type`` is a million characters, line breaks and terminal escapes
among them.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from duskfall.testing.programs import FORKS_AND_SHOUTS, LAST_WORDS, alive

ITEM = 16
TITLE = "check-bot trusts nothing"
OUTSIDE = True

SCENARIO = "sports-don"
LOUD_MB = 200


HUGE_TYPE = r"""
import json, socket, sys
sock = socket.create_connection((sys.argv[1], int(sys.argv[2])))
reader = sock.makefile("rb")
def send(message):
    data = json.dumps(message).encode()
    sock.sendall(len(data).to_bytes(8, "big") + data)
def request():
    while True:
        size = int.from_bytes(reader.read(8), "big")
        message = json.loads(reader.read(size))
        if message.get("type") == "ACTION_REQUEST" and message.get("valid_actions"):
            return message
kind = ("T" * 1000 + "\n\x1b[31m") * 800  # 805,000 characters, within a frame's limit
asked = request()  # an answer whose action's type is huge
send({"type": "ACTION_RESPONSE", "request_id": asked["request_id"], "action": {"type": kind}})
asked = request()  # a frame whose type is huge
send({"type": kind, "request_id": asked["request_id"], "action": {}})
request()
"""


def _check_bot(duskfall: Any, *program: str) -> tuple[int, str, int]:
    """Exit status, standard output and peak memory (kB) of one check-bot run."""
    command = [
        *duskfall.command(), "check-bot", "--scenario", SCENARIO, "--timeout", "30", "--",
        *program,
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        cwd=duskfall.work,
        env=duskfall.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert process.stdout is not None
    out = process.stdout.read().decode(errors="replace")
    _pid, status, usage = os.wait4(process.pid, 0)
    return os.waitstatus_to_exitcode(status), out, int(usage.ru_maxrss)


def probe(duskfall: Any, background: Any, tally: Any) -> None:
    import sys

    with tempfile.TemporaryDirectory(prefix="duskfall-checkbot-probe-") as folder:
        here = Path(folder)
        forks, huge = here / "forks.py", here / "huge_type.py"
        forks.write_text(FORKS_AND_SHOUTS)
        huge.write_text(HUGE_TYPE)
        children: list[int] = []
        try:
            _status, _out, quiet = _check_bot(
                duskfall, sys.executable, str(forks), str(here / "quiet.pid"), "0"
            )
            children.append(int((here / "quiet.pid").read_text()))
            tally.check(not alive(children[-1]), "a forked child outlived the check")
            status, out, loud = _check_bot(
                duskfall, sys.executable, str(forks), str(here / "loud.pid"), str(LOUD_MB)
            )
            children.append(int((here / "loud.pid").read_text()))
            print(
                f"      check-bot peak memory: {quiet / 1024:.0f} MB with a quiet program, "
                f"{loud / 1024:.0f} MB with {LOUD_MB} MB of stderr"
            )
            tally.check(status in (0, 1), f"{LOUD_MB} MB of stderr: exit {status} {out[-200:]!r}")
            tally.check(
                loud - quiet < 50 * 1024,
                f"{LOUD_MB} MB of stderr took {(loud - quiet) / 1024:.0f} MB more memory",
            )
            tally.check(LAST_WORDS in out, "the last error line is reported")
            tally.check(
                max(map(len, out.splitlines()), default=0) < 1000,
                "the error line printed is one short line",
            )
            status, out, _rss = _check_bot(duskfall, sys.executable, str(huge), "{host}", "{port}")
            lines = out.splitlines()
            tally.check(status in (0, 1), f"a 1 MB type: exit {status} {out[-200:]!r}")
            tally.check(max(map(len, lines), default=0) < 1000, "a 1 MB type prints a long line")
            tally.check("\x1b" not in out, "a frame's escape reaches the terminal")
            tally.check(len(lines) < 40, f"a 1 MB type printed {len(lines)} lines")
        finally:
            for pid in children:
                if alive(pid):
                    os.kill(pid, 9)
