"""Critical path of LLM games: do simultaneous decisions really run in parallel?

Plays sports-mafia games whose ten seats are LLM agents talking to a loopback
OpenAI-compatible server that answers every call after a fixed delay (100 ms by default).
Decisions that the rules make simultaneous (votes) must overlap, so the wall time should be
close to (number of decision rounds that must be sequential) x delay. Prints that ratio
(target <= 1.1) and how many calls overlapped.

    python benchmarks/llm_critical_path.py --games 3 --latency 0.1
"""

from __future__ import annotations

import argparse
import asyncio
import time

from duskfall.llm.calls import call_report
from duskfall.session import GameSetup, prepare_game
from duskfall.testing.stub_server import StubServer


async def one_game(url: str, seed: int) -> tuple[int, int, float]:
    """Rounds (scheduler steps), calls and wall time of one game."""
    game = prepare_game(
        GameSetup("sports-mafia", seed=seed, agents=f"llm:openai:stub@{url}", write_log=False)
    )
    scheduler = game.scheduler
    rounds = 0
    step = scheduler.step

    async def counted_step() -> bool:
        nonlocal rounds
        if game.state.outcome() is None:
            rounds += 1
        return await step()

    scheduler.step = counted_step  # type: ignore[method-assign]
    started = time.perf_counter()
    await game.run()
    wall = time.perf_counter() - started
    report = call_report(game.record.events)
    assert report.retries == report.fallbacks == report.invalid_replies == 0, report
    return rounds, report.calls, wall


async def main(games: int, latency: float) -> None:
    async with StubServer(latency=latency) as server:
        await one_game(server.url, seed=10_000)  # warm up imports and connections
        server.max_in_flight = 0
        total_rounds = total_calls = 0
        total_wall = 0.0
        for seed in range(games):
            rounds, calls, wall = await one_game(server.url, seed)
            ratio = wall / (rounds * latency)
            print(
                f"game {seed}: {calls} calls in {rounds} sequential rounds, wall {wall:.2f}s, "
                f"ideal {rounds * latency:.2f}s, ratio {ratio:.3f}"
            )
            total_rounds += rounds
            total_calls += calls
            total_wall += wall
        print(
            f"all {games} games: {total_calls} calls, {total_rounds} rounds "
            f"({total_calls / total_rounds:.2f} calls per round), "
            f"max {server.max_in_flight} calls in flight at once"
        )
        print(
            f"critical-path ratio = wall / (rounds x {latency * 1000:.0f} ms) = "
            f"{total_wall / (total_rounds * latency):.3f}  (target <= 1.1)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.1, help="server delay in seconds")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.latency))
