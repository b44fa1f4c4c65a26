"""What recording a game costs, today and on a baseline commit, in the same run: CPU per game of

* a werewolf-12 game of ``llm:scripted`` seats (every seat a model: replies, reasoning and
  model calls recorded, so every untrusted text is redacted at record entry), logged and
  indexed;
* a bot tournament of ``--games`` werewolf-9 games (heuristic against random), every game
  logged and indexed by the driver.

Each figure comes from a child Python on the code measured (``baseline.baseline_src``), the two
codes alternating round by round; CPU seconds are the child's own and its children's
(``time.process_time`` and ``RUSAGE_CHILDREN``), the best of ``--rounds`` (the least disturbed
by other load), with the load average.

    python benchmarks/recording_cost.py                        # vs 283f9b6, 1,000 games
    python benchmarks/recording_cost.py --games 200 --llm-games 2 --rounds 1
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from baseline import baseline_src, current_src, load_average, run_python

# the code before redaction at record entry (issue 40's baseline)
BASELINE = "283f9b6"

# CPU seconds of this process and of the children it waited for (none when games run here)
CPU = """
import resource, time
def cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
"""

SCRIPTED = (
    CPU
    + """
import asyncio, json, os, sys, tempfile
from pathlib import Path
games = int(sys.argv[1])
with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
    os.environ["DUSKFALL_DB"] = str(Path(folder) / "i.db")
    from duskfall.session import GameSetup, prepare_game
    events = 0
    start = cpu()
    for seed in range(games):
        game = prepare_game(GameSetup(
            "werewolf", seed=seed, agents="llm:scripted", config={"preset": "werewolf-12"},
            log_path=Path(folder) / f"{seed}.jsonl",
        ))
        asyncio.run(game.run())
        events += game.record.recorded
    print(json.dumps({"cpu": cpu() - start, "events": events}))
"""
)

TOURNAMENT = (
    CPU
    + """
import json, sys, tempfile
from pathlib import Path
from duskfall.arena.tournament import run_tournament
from duskfall.arena.tournament_config import parse_tournament
games = int(sys.argv[1])
config = parse_tournament({
    "name": "bench", "entrants": {"first": "heuristic", "second": "random"},
    "variants": [{"variant": "werewolf", "preset": "werewolf-9"}], "games": games, "seed": 1,
    "workers": 1, "parallel_games": 1, "log_dir": "games",
})
with tempfile.TemporaryDirectory(prefix="duskfall-bench-") as folder:
    start = cpu()
    summary = run_tournament(config, base_dir=Path(folder), db=Path(folder) / "i.db")
    assert summary.played == games, summary
    print(json.dumps({"cpu": cpu() - start}))
"""
)


def measure(src: Path, script: str, games: int) -> dict[str, float]:
    out = run_python(src, "-c", script, str(games))
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of the bot tournament")
    parser.add_argument("--llm-games", type=int, default=3, help="werewolf-12 scripted games")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs of each code")
    parser.add_argument("--baseline", default=BASELINE, help="commit or src folder to compare")
    args = parser.parse_args()
    codes = {"today": current_src(), "baseline": baseline_src(args.baseline)}
    work = {
        "werewolf-12 llm:scripted game": (SCRIPTED, args.llm_games),
        f"werewolf-9 bot tournament ({args.games} games)": (TOURNAMENT, args.games),
    }
    print(f"recording cost, today vs {args.baseline}; {load_average()}")
    best: dict[tuple[str, str], float] = {}
    for round_ in range(args.rounds):
        for what, (script, games) in work.items():
            order = list(codes.items())
            for name, src in order if round_ % 2 == 0 else order[::-1]:
                cpu = measure(src, script, games)["cpu"] / games
                best[name, what] = min(best.get((name, what), float("inf")), cpu)
    print(f"CPU seconds per game (one core; best of {args.rounds} rounds)")
    for what in work:
        today, base = best["today", what], best["baseline", what]
        print(
            f"  {what}: today {today * 1e3:8.1f} ms, {args.baseline} {base * 1e3:8.1f} ms"
            f" -> speed-up {base / today:.2f}x"
        )
    print(load_average())


if __name__ == "__main__":
    main()
