"""What a fork costs: readings of the parent's log, deals, openings of the game index, and time.

A logged game (werewolf-12 of heuristic bots by default) is forked at every phase boundary
with its own agents, with the game index on (a temporary one), in a child process on today's
code and on a baseline commit's (``fea8464``: the fork before it read and dealt once, issue 37).
Printed per code: what one ``duskfall fork GAME_ID --at MOMENT`` (in process; the middle phase
boundary) does (log reads, deals of the variant, index openings), the median time to plan a
fork (read, check, deal, rebuild to the moment) and to play one to its end, and the ratios
today/baseline.

    python benchmarks/fork_cost.py                     # werewolf-12, heuristic, 5 rounds
    python benchmarks/fork_cost.py --agents llm:scripted --preset werewolf-9 --reps 3
    python benchmarks/fork_cost.py --baseline none     # today's code only
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BASELINE = "fea8464"  # the fork before it read, dealt and opened the index once (issue 37)


def counted_cli(args: list[str]) -> dict[str, int]:
    """Run ``duskfall ARGS`` in process (output thrown away); what it read, dealt, opened."""
    from duskfall.cli import main
    from duskfall.core.registry import get_variant
    from duskfall.store import index, log

    watch = {
        log.read_log.__code__: "log reads",
        index.GameIndex.__init__.__code__: "index opens",
        type(get_variant("werewolf")).new_game.__code__: "deals",
    }
    counts: Counter[str] = Counter()

    def profile(frame: Any, event: str, _: Any) -> None:
        if event == "call" and frame.f_code in watch:
            counts[watch[frame.f_code]] += 1

    sys.argv = ["duskfall", *args]
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        saved = os.dup(1)
        os.dup2(sink.fileno(), 1)
        sys.setprofile(profile)
        try:
            main()
        except SystemExit as exc:
            assert not exc.code, f"duskfall {' '.join(args)} failed"
        finally:
            sys.setprofile(None)
            os.dup2(saved, 1)
            os.close(saved)
    return {key: counts[key] for key in ("log reads", "deals", "index opens")}


def measure(preset: str, agents: str, reps: int) -> dict[str, Any]:
    """Counts of one CLI fork, and the median plan and play times of forks at every phase."""
    from duskfall.lab.fork import ForkRequest, plan_fork
    from duskfall.lab.rounds import rounds_of
    from duskfall.session import GameSetup, run_game
    from duskfall.store.log import read_log

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["DUSKFALL_DB"] = str(folder / "games.db")
        parent = folder / "parent.jsonl"
        setup = GameSetup("werewolf", seed=3, agents=agents, config={"preset": preset},
                          log_path=parent)  # fmt: skip
        asyncio.run(run_game(setup))
        log = read_log(parent)
        moments = [r.start for r in rounds_of(log) if r.opens_phase]
        counts = counted_cli(["fork", log.header.game_id, "--at", str(moments[len(moments) // 2]),
                              "--quiet", "--log", str(folder / "cli.jsonl")])  # fmt: skip
        plans: list[float] = []
        plays: list[float] = []
        for rep in range(reps):
            for at in moments:
                out = folder / f"{rep}-{at}.jsonl"
                started = time.perf_counter()
                planned = plan_fork(ForkRequest(parent, at=str(at), log_path=out))
                planned_at = time.perf_counter()
                asyncio.run(planned.preflight())
                game = planned.start()
                asyncio.run(game.run())
                plans.append(planned_at - started)
                plays.append(time.perf_counter() - planned_at)
    return {
        **counts,
        "events": len(log.events),
        "forks": len(plans),
        "plan_ms": statistics.median(plans) * 1000,
        "play_ms": statistics.median(plays) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="werewolf-12")
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--reps", type=int, default=5, help="forks at every phase boundary, times")
    parser.add_argument("--baseline", default=BASELINE, help="a commit, a src folder, or none")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        preset, agents, reps = args.child
        print(json.dumps(measure(preset, agents, int(reps))))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from baseline import baseline_src, current_src, load_average, run_python

    codes = {"today": current_src()}
    if args.baseline != "none":
        codes["baseline"] = baseline_src(args.baseline)
    print(f"forks of a {args.preset} game of {args.agents}; {load_average()}", flush=True)
    found = {}
    for name, src in codes.items():
        out = run_python(src, __file__, "--child", args.preset, args.agents, str(args.reps))
        found[name] = json.loads(out.strip().splitlines()[-1])
    keys = ("log reads", "deals", "index opens", "plan_ms", "play_ms")
    print(f"{'':10}" + "".join(f"{key:>13}" for key in keys) + f"{'forks':>8}")
    for name, row in found.items():
        cells = "".join(
            f"{row[key]:>13.1f}" if key.endswith("_ms") else f"{row[key]:>13}" for key in keys
        )
        print(f"{name:10}{cells}{row['forks']:>8}")
    if "baseline" in found:
        today, before = found["today"], found["baseline"]
        ratios = ", ".join(f"{key} {today[key] / before[key]:.2f}x" for key in keys[-2:])
        print(f"today/baseline: {ratios} (median of {today['forks']} forks each)")
    print(load_average())


if __name__ == "__main__":
    main()
