"""The embedded model on this machine: generation speed, and the wall time of one full game.

Loads the default local model (Gemma 3 270M Q4_K_M through llama.cpp, 2 threads), times a few
schema-constrained decisions, then plays one complete game with every seat ``llm:local`` and
prints calls, tokens, tokens per second and wall time.

    python benchmarks/llm_local_model.py                       # 6-player werewolf
    python benchmarks/llm_local_model.py --variant sports-mafia
"""

from __future__ import annotations

import argparse
import asyncio
import time

from duskfall.llm import get_model
from duskfall.llm.calls import LLM_CALL, call_report
from duskfall.session import GameSetup, run_game

CONFIGS = {"werewolf": {"preset": "werewolf-6"}, "sports-mafia": {}, "mafia": {}}
SCHEMA = {
    "type": "object",
    "properties": {
        "think": {"type": "string"},
        "says": {"type": "string"},
        "action": {
            "type": "object",
            "properties": {"type": {"const": "VOTE"}, "target": {"enum": [1, 2, 4, 5]}},
            "required": ["type", "target"],
        },
    },
    "required": ["think", "says", "action"],
}


async def raw_speed(calls: int) -> None:
    model = get_model("local")
    started = time.perf_counter()
    await model.complete([{"role": "user", "content": "Say hi."}], max_tokens=4)
    print(f"model load + first call: {time.perf_counter() - started:.2f}s")
    completion_tokens = 0
    generating = 0.0
    for i in range(calls):
        messages = [
            {"role": "system", "content": "You play Werewolf as seat 3. Be brief."},
            {"role": "user", "content": f"Day {i + 1}. Alive: 1, 2, 4, 5. Whom do you vote?"},
        ]
        reply = await model.complete(messages, SCHEMA, max_tokens=200)
        completion_tokens += reply.usage.completion_tokens
        generating += reply.latency_s
    print(
        f"{calls} decisions: {completion_tokens} completion tokens in {generating:.2f}s = "
        f"{completion_tokens / generating:.1f} tokens/s (prompt processing included)"
    )


async def full_game(variant: str, seed: int) -> None:
    started = time.perf_counter()
    game = await run_game(
        GameSetup(variant, seed=seed, agents="llm:local", config=CONFIGS[variant], write_log=False)
    )
    wall = time.perf_counter() - started
    report = call_report(game.record.events)
    busy = sum(e.payload["latency_s"] for e in game.record.events if e.kind == LLM_CALL)
    usage = report.usage
    print(
        f"one {variant} game ({game.state.num_seats} seats, {game.state.outcome()}): "
        f"wall {wall:.1f}s, {report.calls} calls, {usage.prompt_tokens} prompt + "
        f"{usage.completion_tokens} completion tokens"
    )
    print(
        f"  {usage.completion_tokens / wall:.1f} completion tokens/s and "
        f"{usage.total_tokens / wall:.1f} total tokens/s of wall time; "
        f"{wall / max(1, report.calls):.2f}s per call; summed call latency {busy:.1f}s "
        f"(calls queue for the one model); {report.retries} retries, "
        f"{report.invalid_replies} refused replies, {report.fallbacks} fallbacks"
    )


async def main(variant: str, calls: int, seed: int) -> None:
    await raw_speed(calls)
    await full_game(variant, seed)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="werewolf", choices=sorted(CONFIGS))
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.variant, args.calls, args.seed))
