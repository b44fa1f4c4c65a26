"""Fork fidelity: the share of forks that play their parent's game again, beside a baseline.

For each variant and agents, ``--games`` logged games are played (seeds 0, 1...); each is
forked at every phase boundary with its own agents and seed, and the fork is compared with
its parent event for event (apart from the game id and what a model call records of the
server: its timings and the tokens its prompt cache held). A
fork that reproduces its parent proves the lab rebuilt every seat as it stood: bots' memory
and random draws, models' conversations and call seeds. The same work runs in a child
process on today's code and on the baseline commit's (the lab before model forks, 8859672).

    python benchmarks/fork_fidelity.py                      # 3 games per variant and agents
    python benchmarks/fork_fidelity.py --games 20 --agents heuristic llm:scripted
    python benchmarks/fork_fidelity.py --baseline none      # today's code only
    python benchmarks/fork_fidelity.py --games 1 --variants werewolf \
        --agents "0=llm:local,default=heuristic" --baseline none
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

VARIANTS = {"werewolf": {"preset": "werewolf-6"}, "mafia": {}, "sports-mafia": {}}
BASELINE = "8859672"  # the lab before model forks replayed (issue 38)
TIMINGS = {"latency_s", "queue_s", "cached_tokens", "cache_write_tokens"}  # not the game's


def comparable(event: Any) -> dict[str, Any]:
    """An event as compared (written here, so the baseline's code is measured the same way)."""
    data = {**event.to_dict(), "game_id": ""}
    payload = data.get("payload")
    if isinstance(payload, dict):
        data["payload"] = {k: v for k, v in payload.items() if k not in TIMINGS}
    return data


def measure(variant: str, agents: str, games: int) -> dict[str, int]:
    """Forks and reproducing forks of ``games`` logged games (run on the code imported)."""
    from duskfall.lab.fork import ForkRequest, run_fork
    from duskfall.lab.rounds import rounds_of
    from duskfall.session import GameSetup, run_game
    from duskfall.store.log import read_log

    forks = same = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for seed in range(games):
            parent = folder / f"{seed}.jsonl"
            setup = GameSetup(variant, seed=seed, agents=agents, config=VARIANTS[variant],
                              log_path=parent)  # fmt: skip
            asyncio.run(run_game(setup))
            original = [comparable(e) for e in read_log(parent).events]
            for round_ in (r for r in rounds_of(read_log(parent)) if r.opens_phase):
                out = folder / f"{seed}-{round_.number}.jsonl"
                asyncio.run(run_fork(ForkRequest(parent, at=str(round_.start), log_path=out)))
                forks += 1
                same += [comparable(e) for e in read_log(out).events] == original
    return {"forks": forks, "same": same}


def child(variant: str, agents: str, games: int) -> None:
    os.environ["DUSKFALL_DB"] = "off"
    print(json.dumps(measure(variant, agents, games)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="logged games per variant")
    parser.add_argument("--agents", nargs="+", default=["heuristic", "llm:scripted"])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--baseline", default=BASELINE, help="a commit, a src folder, or none")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        variant, agents, games = args.child
        child(variant, agents, int(games))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from baseline import baseline_src, current_src, load_average, run_python

    codes = {"today": current_src()}
    if args.baseline != "none":
        codes["baseline"] = baseline_src(args.baseline)
    started = time.perf_counter()
    print(load_average())
    print(f"{'variant':13} {'agents':13} " + " ".join(f"{name:>22}" for name in codes))
    for variant in args.variants:
        for agents in args.agents:
            cells = []
            for src in codes.values():
                out = run_python(src, __file__, "--child", variant, agents, str(args.games))
                found = json.loads(out.strip().splitlines()[-1])
                share = found["same"] / found["forks"] if found["forks"] else 0.0
                cells.append(f"{found['same']:>4}/{found['forks']:<4} ({share:6.1%})")
            print(f"{variant:13} {agents:13} " + " ".join(f"{c:>22}" for c in cells), flush=True)
    print(f"{time.perf_counter() - started:.0f} s; {load_average()}")


if __name__ == "__main__":
    main()
