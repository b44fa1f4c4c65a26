"""The time of a tournament's whole report from its rated games: the board (the fit, its 200
deal resamples and every interval, OpenSkill's with its own resamples, the held-out
prediction, tiers) and each format printed from it (terminal, JSON, CSV, HTML).

The games are synthetic: a ``duplicate`` tournament of ``ENTRANTS`` entrants over two blocks
(a werewolf-9 and a sports mafia table), outcomes drawn from planted skills. Run on any
commit's code (``PYTHONPATH``), it prints its times as JSON (wall clock per part, and the
process's CPU time for the whole: on a shared machine the wall clock also counts the time
other processes held the cores); ``board_calibration.py --sections speed`` runs it on the
baseline and on this tree, one core each.

    python benchmarks/board_report_speed.py 10000 6
"""

from __future__ import annotations

import io
import json
import math
import random
import sys
import time
from typing import Any

from duskfall.rating.bradley_terry import RatedGame, RatedSeat
from duskfall.report.board import build_board

BLOCKS = {"werewolf:werewolf-9": (2, 7, 0.3), "sports-mafia": (3, 7, 1.2)}  # wolves, others, h


def synthetic(games: int, k: int, seed: int = 1) -> tuple[list[RatedGame], dict[str, str]]:
    rng = random.Random(seed)
    names = [f"entrant-{i}" for i in range(k)]
    deception = {n: rng.gauss(0, 0.6) for n in names}
    detection = {n: rng.gauss(0, 0.6) for n in names}
    out: list[RatedGame] = []
    deal = 0
    while len(out) < games:
        block = list(BLOCKS)[deal % 2]
        wolves, others, h = BLOCKS[block]
        offset = 1 + deal % (k - 1)
        luck = rng.gauss(0, 0.5)
        for j in range(k):
            evil, village = names[j], names[(j + offset) % k]
            logit = h + luck + deception[evil] - detection[village]
            result = float(rng.random() < 1 / (1 + math.exp(-logit)))
            seats = (RatedSeat(evil, "Werewolf", "evil"),) * wolves + (
                RatedSeat(village, "Villager", "village"),
            ) * others
            out.append(RatedGame(block, deal, seats, result))
        deal += 1
    return out[:games], {n: "heuristic" for n in names}


def timed(games: list[RatedGame], entrants: dict[str, str], bootstrap: int) -> dict[str, Any]:
    from rich.console import Console

    from duskfall.report.calibration import Calibration
    from duskfall.report.html_report import html_report
    from duskfall.report.leaderboard import EntrantResult, TournamentReport
    from duskfall.report.terminal import leaderboard_table

    times: dict[str, Any] = {}
    cpu = time.process_time()
    started = time.perf_counter()
    board = build_board(games, entrants, bootstrap=bootstrap, seed=0)
    times["board"] = time.perf_counter() - started
    report = TournamentReport(
        name="speed", schedule="duplicate", games_scheduled=len(games), games_played=len(games),
        games_aborted=0, board=board, entrants=[EntrantResult(e.name, e.agent)
        for e in board.entrants], games=[], calibration=Calibration(),
    )  # fmt: skip
    started = time.perf_counter()
    json.dumps(report.to_dict())
    times["json"] = time.perf_counter() - started
    started = time.perf_counter()
    report.csv()
    report.pairs_csv()
    times["csv"] = time.perf_counter() - started
    started = time.perf_counter()
    console = Console(file=io.StringIO(), width=80, color_system=None)
    for part in leaderboard_table(report):
        console.print(part, soft_wrap=False)
    times["terminal"] = time.perf_counter() - started
    started = time.perf_counter()
    html_report(report)
    times["html"] = time.perf_counter() - started
    times["total"] = sum(times.values())
    times["cpu"] = time.process_time() - cpu  # this process's own CPU time: one core
    times["games"], times["entrants"], times["bootstrap"] = len(games), len(entrants), bootstrap
    return times


def main() -> None:
    games, k = int(sys.argv[1]), int(sys.argv[2])
    bootstrap = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    played, entrants = synthetic(games, k)
    print(json.dumps(timed(played, entrants, bootstrap)))


if __name__ == "__main__":
    main()
