"""One whole game with every seat played by the embedded model, today's code beside the code
before the context work, in the same run: wall time, calls, input tokens evaluated and reused,
and the legal-first-try rate per decision kind.

The process's CPU time is printed beside the wall time: on a busy machine it says what the game
cost (llama.cpp runs two threads, so on an idle machine the wall time is about half of it).

A decision is *legal first try* when the reply to its first model call was accepted (no refusal
or model failure at attempt 0). Each version plays in its own child process (the model loads
once per process; loading is not in the game's wall time).

    python benchmarks/llm_local_game.py                          # werewolf-6, seed 1
    python benchmarks/llm_local_game.py --variant sports-mafia --only now
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline import baseline_src, current_src, run_python
from llm_tokens import LLM_CONTEXT_BASELINE

CONFIGS: dict[str, dict[str, Any]] = {
    "werewolf": {"preset": "werewolf-6"},
    "mafia": {"players": 6},
    "sports-mafia": {},
}
TARGET_WALL_S = {"werewolf": 90.0, "sports-mafia": 600.0}


def ending(events: list[Any]) -> str:
    """How the game ended, in words: the winner and the day, or why it stopped."""
    over = next((e for e in reversed(events) if e.kind == "game_over"), None)
    if over is None:
        return "no game_over event"
    payload = over.payload
    if payload.get("winner"):
        return f"{payload['winner']} won on day {over.day}"
    return f"{payload.get('termination', 'ended')} on day {over.day}: {payload.get('reason', '')}"


def first_try_rates(events: list[Any]) -> dict[str, tuple[int, int]]:
    """Per decision kind: (decisions whose first reply was accepted, decisions asked)."""
    asked: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    kind_of: dict[int, str] = {}
    for event in events:
        payload = event.payload
        if event.kind == "llm_call" and payload.get("attempt", 0) == 0:
            kind = str(payload.get("decision"))
            asked[kind] += 1  # one call per decision at attempt 0 (retries are inside it)
            kind_of[payload["seat"]] = kind
        elif event.kind in ("invalid_action", "participant_error") and payload["attempt"] == 0:
            seat = payload["seat"]
            if seat in kind_of:
                failed[kind_of[seat]] += 1
    return {kind: (asked[kind] - failed[kind], asked[kind]) for kind in asked}


def child(variant: str, seed: int) -> None:
    """Play the game on whatever duskfall is importable; print its figures as JSON."""
    import asyncio
    import time

    from duskfall.llm import CallOptions, get_model
    from duskfall.llm.calls import call_report
    from duskfall.session import GameSetup, run_game

    async def play() -> dict[str, Any]:
        hello = [{"role": "user", "content": "hi"}]
        await get_model("local").complete(hello, options=CallOptions(max_tokens=2))
        started, cpu_started = time.perf_counter(), time.process_time()
        setup = GameSetup(
            variant, seed=seed, agents="llm:local", config=CONFIGS[variant], write_log=False
        )
        game = await run_game(setup)
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        report = call_report(game.record.events)
        usage = report.usage
        return {
            "wall": wall,
            "cpu": cpu,
            "calls": report.calls,
            "prompt": usage.prompt_tokens,
            "reused": getattr(usage, "cached_tokens", 0),
            "completion": usage.completion_tokens,
            "refused": report.invalid_replies,
            "fallbacks": report.fallbacks,
            "outcome": ending(game.record.events),
            "finished": game.state.outcome() is not None,
            "first_try": first_try_rates(game.record.events),
        }

    print(json.dumps(asyncio.run(play())))


def show(name: str, figures: dict[str, Any]) -> None:
    evaluated = figures["prompt"] - figures["reused"]
    print(
        f"{name}: wall {figures['wall']:.1f}s (CPU {figures['cpu']:.1f}s), "
        f"{figures['calls']} calls, input "
        f"{figures['prompt']:,} tokens ({evaluated:,} evaluated, {figures['reused']:,} reused), "
        f"{figures['completion']:,} completion; {figures['refused']} refused, "
        f"{figures['fallbacks']} fallbacks; {figures['outcome']}"
    )
    for kind, (good, asked) in sorted(figures["first_try"].items()):
        print(f"    {kind:<16} legal first try {good}/{asked} = {good / max(1, asked):.0%}")


def main(variant: str, seed: int, only: str | None) -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    versions = [("before", baseline_src(LLM_CONTEXT_BASELINE)), ("now", current_src())]
    results = {}
    for name, src in versions:
        if only is not None and name != only:
            continue
        out = run_python(src, __file__, "--child", variant, str(seed), timeout=3600)
        results[name] = json.loads(out.strip().splitlines()[-1])
        show(f"{name:<6} {variant} seed {seed}", results[name])
    if len(results) == 2:
        ratio = results["before"]["wall"] / results["now"]["wall"]
        print(f"wall time before / now = {ratio:.2f}")
    target = TARGET_WALL_S.get(variant)
    if target is not None and "now" in results:
        now = results["now"]
        verdict = "met" if now["finished"] and now["wall"] <= target else "MISSED"
        print(f"target: the game finished within {target:.0f}s wall: {verdict}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="werewolf", choices=sorted(CONFIGS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["before", "now"])
    args = parser.parse_args()
    main(args.variant, args.seed, args.only)
