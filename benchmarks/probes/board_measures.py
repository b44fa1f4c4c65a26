"""Item 41: a board that prints only what its games determine, tried from outside.

* ``tournament plan`` of three entrants in werewolf-9 gives every schedule a number of games a
  tournament could play (under 10^6) or says the design does not measure it: never billions;
* a config that leaves ``schedule`` out gets ``duplicate``;
* a ``mixed`` tournament of two copies of a bot and another bot: its report prints no overall
  skill, verdict or tier the games leave to the prior, and the seat shares vary across games
  (so overall skill is measured at all);
* ``sided:heuristic/random`` is a valid entrant (played, rated).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

ITEM = 41
TITLE = "a board that prints only what its games determine"
OUTSIDE = True

CONFIG = """
name = "{name}"
games = {games}
seed = 3
{schedule}
[entrants]
{entrants}
[[variants]]
variant = "werewolf"
preset = "werewolf-9"
"""
COPIES = 'copy-a = "heuristic"\ncopy-b = "heuristic"\nnaive = "random"\n'


def _config(duskfall: Any, name: str, games: int, schedule: str, entrants: str) -> str:
    path = duskfall.work / f"{name}.toml"
    path.write_text(
        CONFIG.format(name=name, games=games, schedule=schedule, entrants=entrants),
        encoding="utf-8",
    )
    return str(path)


def probe(duskfall: Any, background: Any, tally: Any) -> None:
    plan = duskfall.run(
        "tournament", "plan", _config(duskfall, "planned", 30, "", COPIES), "--json",
        "--proxy-games", "20", timeout=120,
    )  # fmt: skip
    try:
        schedules = json.loads(plan.out)["schedules"]
    except (ValueError, KeyError):
        schedules = []
    tally.check(bool(schedules), f"plan --json gave no schedules: {plan.text[-300:]}")
    for need in schedules:
        games = need.get("games")
        tally.check(
            (games is None and bool(need.get("not_measured"))) or 0 < (games or 0) < 10**6,
            f"plan: {need.get('schedule')} needs {games} games",
        )
    default = _config(duskfall, "default", 3, "", COPIES)
    ran = duskfall.run("tournament", "run", default, timeout=300)
    report = duskfall.run(
        "tournament", "report", default, "--json", "--bootstrap", "5", timeout=120
    )
    try:
        schedule = json.loads(report.out).get("schedule")
    except ValueError:
        schedule = None
    tally.check(schedule == "duplicate", f"schedule left out: {schedule} ({ran.text[-200:]})")
    mixed = _config(duskfall, "mixed", 24, 'schedule = "mixed"', COPIES)
    duskfall.run("tournament", "run", mixed, timeout=300)
    report = duskfall.run("tournament", "report", mixed, "--json", "--bootstrap", "20", timeout=120)
    try:
        data = json.loads(report.out)
    except ValueError:
        data = {}
    board = data.get("board", {})
    tally.check(bool(board.get("entrants")), f"mixed report: {report.text[-300:]}")
    for entrant in board.get("entrants", []):
        overall = entrant.get("overall", {})
        tally.check(
            overall.get("point") is not None or bool(overall.get("not_measured")),
            f"mixed: {entrant.get('name')}'s overall neither a number nor 'not measured'",
        )
    shares: Counter[tuple[int, ...]] = Counter()
    for game in data.get("games", []):
        log = game.get("log")
        if not log:
            continue
        try:
            with open(log, encoding="utf-8") as handle:
                header = json.loads(handle.readline())
        except (OSError, ValueError):
            continue
        seats = ((header.get("extra") or {}).get("tournament") or {}).get("seats") or []
        shares[tuple(sorted(Counter(seats).values()))] += 1
    tally.check(len(shares) > 1, f"mixed: every table had the same seat shares {dict(shares)}")
    sided = _config(duskfall, "sided", 6, "", 'wolf = "sided:heuristic/random"\nsheep = "random"\n')
    ran = duskfall.run("tournament", "run", sided, timeout=300)
    tally.check(ran.code == 0 and "6 game(s) played" in ran.out, f"sided: {ran.text[-300:]}")
