"""Item 11: sealed remote entrants, probed from outside.

A two-game ``sides`` tournament (``parallel_games = 1``) whose remote entrant is a Python
program that, before it plays its seat, reports what it can reach: the operator's variables in
its environment, its working folder, its user, the tournament's folder, index and key, every log
it can list or guess (the second game's programs run after the first game's log is written),
the environment of every process it can read in ``/proc`` (the driver's, the other seats'
programs'), and it forks two children (one leaves its process group), which must not outlive
the game. Its report comes back in its errors file; the probe reads it as the operator.

The program runs on an interpreter a user of its own can run
(:func:`duskfall.testing.sealed_python.sealed_python`), so that a sealed program can start.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from duskfall.testing.programs import alive

ITEM = 11
TITLE = "sealed remote entrants"
OUTSIDE = True

OPERATOR = {
    "OPENAI_API_KEY": "sk-probe-OPERATOR-5e1b77",
    "ANTHROPIC_API_KEY": "sk-ant-probe-OPERATOR-9a0c31",
    "PROBE_CANARY": "canary-of-the-operator-e2d4",
}

PROGRAM = r"""
import json, os, subprocess, sys
host, port, base, src, site = sys.argv[1:6]
seen = {"uid": os.getuid(), "cwd": os.getcwd(), "files": os.listdir("."), "env": dict(os.environ)}
children = [subprocess.Popen(["sleep", "300"]).pid,
            subprocess.Popen(["sleep", "300"], start_new_session=True).pid]
seen["children"] = children
games = os.path.join(base, "games")
targets = [games, os.path.join(games, "tournament.json"), os.path.join(base, "index.db"),
           os.path.join(base, "index.db.key")]
try:
    targets += [os.path.join(games, name) for name in os.listdir(games)]
except OSError:
    pass
try:  # the index names every log; so do earlier errors files' neighbours
    import sqlite3
    rows = sqlite3.connect("file:" + os.path.join(base, "index.db") + "?mode=ro", uri=True)
    targets += [r[0] for r in rows.execute("select log_path from games") if r[0]]
except Exception:
    pass
read = []
for path in targets:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        read.append(path)
    except OSError:
        pass
seen["read"] = read
environs = []
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        try:
            environs.append(open(f"/proc/{pid}/environ", "rb").read().decode("utf-8", "replace"))
        except OSError:
            pass
seen["environs"] = environs
sys.stderr.write("SEEN " + json.dumps(seen) + "\n")
sys.stderr.flush()
sys.path[:0] = [src, site]
from duskfall.cli import main
sys.argv = ["duskfall", "connect", "--host", host, "--port", port, "--agent", "random", "--quiet"]
main()
"""


def _reports(games: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted(games.glob("*.err")):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("SEEN "):
                found.append(json.loads(line[5:]))
    return found


def probe(duskfall: Any, background: Any, tally: Any) -> None:
    base = Path(tempfile.mkdtemp(prefix="duskfall-sealed-probe-"))
    base.chmod(0o755)  # open to all: only what the run does keeps its files private
    try:
        _probe(duskfall, base, tally)
    finally:
        for pid in _pids:
            if alive(pid):
                os.kill(pid, 9)
        shutil.rmtree(base, ignore_errors=True)


_pids: list[int] = []


def _probe(duskfall: Any, base: Path, tally: Any) -> None:
    program = base / "entrant.py"
    program.write_text(PROGRAM)
    program.chmod(0o644)
    from duskfall.testing.sealed_python import import_path, sealed_python

    site = import_path()[1]  # the dependencies; duskfall itself from the code probed
    python = sealed_python() or sys.executable
    command = [python, str(program), "{host}", "{port}", str(base), str(duskfall.src), site]
    config = base / "sealed.toml"
    config.write_text(
        "\n".join(
            [
                'name = "sealed-probe"',
                "games = 2",
                "seed = 21",
                'schedule = "sides"',
                "parallel_games = 1",
                'log_dir = "games"',
                "[entrants]",
                'house = "random"',
                'visitor = "remote"',
                "[remote.visitor]",
                f"command = {json.dumps(command)}",
                "connect_timeout = 60",
                "[[variants]]",
                'variant = "werewolf"',
                'preset = "werewolf-6"',
            ]
        )
        + "\n"
    )
    index = base / "index.db"
    env = {**OPERATOR, "DUSKFALL_DB": str(index)}
    run = duskfall.run("tournament", "run", str(config), "--db", str(index), env=env, timeout=180)
    played = "2 game(s) played" in run.out
    tally.check(played, f"the tournament plays (exit {run.code}: {run.text[-300:]!r})")
    reports = _reports(base / "games")
    tally.check(len(reports) == 6, f"every visitor program reported ({len(reports)} of 6)")
    if not reports:
        return
    for report in reports:
        _pids.extend(report["children"])
    envs = [r["env"] for r in reports]
    for name, value in OPERATOR.items():
        there = [e for e in envs if name in e or value in e.values()]
        tally.check(not there, f"{name} in a program's environment")
    tally.check(all("DUSKFALL_DB" not in e for e in envs), "DUSKFALL_DB in a program's environment")
    tally.check(
        all(e.get("HOME") == r["cwd"] for e, r in zip(envs, reports, strict=True)),
        "HOME is its own folder",
    )
    tally.check(all(r["files"] == [] for r in reports), "its working folder starts empty")
    tally.check(
        all(not r["cwd"].startswith(str(base)) for r in reports),
        "its working folder is outside the tournament's",
    )
    cwds = {r["cwd"] for r in reports}
    tally.check(len(cwds) == len(reports), "every program has a folder of its own")
    tally.check(all(r["uid"] != os.getuid() for r in reports), "it runs as a user of its own")
    read = sorted({path for r in reports for path in r["read"]})
    for what in ("games", "tournament.json", "index.db", "index.db.key"):
        hits = [p for p in read if p.endswith(what)]
        tally.check(not hits, f"a program read {what}")
    logs = [p for p in read if p.endswith(".jsonl")]
    tally.check(not logs, f"a program read a game's log: {logs[:2]}")
    environs = [x for r in reports for x in r["environs"]]
    leaked = [v for v in (*OPERATOR.values(), str(index)) if any(v in x for x in environs)]
    tally.check(not leaked, f"an operator variable read in /proc/*/environ: {leaked[:1]}")
    tokens = {e.get("DUSKFALL_SEAT_TOKEN") for e in envs}
    others = [
        t
        for r in reports
        for t in tokens
        if t and t != r["env"].get("DUSKFALL_SEAT_TOKEN") and any(t in x for x in r["environs"])
    ]
    tally.check(not others, "a program read another seat's token in /proc/*/environ")
    time.sleep(1.0)  # the kills were sent before the run ended; let them land
    children = [pid for r in reports for pid in r["children"][:1]]
    escaped = [pid for r in reports for pid in r["children"][1:]]
    tally.check(not any(map(alive, children)), "a program's child outlived its game")
    tally.check(not any(map(alive, escaped)), "a child that left its group outlived its game")
    folders = [c for c in cwds if Path(c).exists()]
    tally.check(not folders, "a program's working folder was left behind")
    games = base / "games"
    tally.check(not stat.S_IMODE(games.stat().st_mode) & 0o077, "the games folder is private")
    tally.check(not stat.S_IMODE(index.stat().st_mode) & 0o077, "the index is private")
