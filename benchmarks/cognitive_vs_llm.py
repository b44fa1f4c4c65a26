"""Cognitive agent against the plain LLM agent, same model, sides swapped.

Werewolf (6 seats by default): in each pair of games the same seed (same deal) is played
twice, once with ``cognitive:MODEL`` as the werewolves and ``llm:MODEL`` as the village, once
the other way round. Prints the cognitive side's win rate with a Wilson 95% interval, the
win rate per side against the same-side baseline, and the tokens each agent kind used.

    python benchmarks/cognitive_vs_llm.py --model scripted --games 20
    python benchmarks/cognitive_vs_llm.py --model local --games 4 --minutes 15
    python benchmarks/cognitive_vs_llm.py --model openai:gpt-4o-mini --games 100

``--minutes`` stops starting new games once the budget is spent (the running game finishes).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from duskfall.arena.stats import Proportion
from duskfall.llm.calls import call_report
from duskfall.runtime.game import GameSetup, PreparedGame, run_game


@dataclass
class Tally:
    games: int = 0
    cognitive_wins: int = 0
    draws: int = 0
    by_side: Counter[str] = field(default_factory=Counter)  # side -> cognitive wins there
    side_games: Counter[str] = field(default_factory=Counter)
    tokens: Counter[str] = field(default_factory=Counter)  # agent kind -> tokens
    calls: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    fallbacks: int = 0


async def play(
    model: str, seed: int, cognitive_side: str, preset: str, log_dir: Path | None
) -> PreparedGame:
    other = "village" if cognitive_side == "werewolf" else "werewolf"
    agents = f"{cognitive_side}=cognitive:{model},{other}=llm:{model}"
    log = log_dir / f"cognitive-vs-llm-{seed}-{cognitive_side}.jsonl" if log_dir else None
    return await run_game(
        GameSetup(
            "werewolf",
            seed=seed,
            agents=agents,
            config={"preset": preset},
            log_path=log,
            write_log=log is not None,
        )
    )


def account(tally: Tally, game: PreparedGame, cognitive_side: str) -> str:
    outcome = game.state.outcome()
    winner = outcome.winner if outcome is not None else None
    tally.games += 1
    tally.side_games[cognitive_side] += 1
    if winner == cognitive_side:
        tally.cognitive_wins += 1
        tally.by_side[cognitive_side] += 1
    elif winner is None:
        tally.draws += 1
    report = call_report(game.record.events)
    tally.fallbacks += report.fallbacks
    kinds = {seat: agent.split(":")[0] for seat, agent in enumerate(game.agents)}
    for seat, usage in report.by_seat.items():
        if seat is not None:
            tally.tokens[kinds[seat]] += usage.total_tokens
    for event in game.record.events:
        seat = event.payload.get("seat")
        if event.kind == "llm_call" and isinstance(seat, int):
            tally.calls[kinds[seat]] += 1
        elif event.kind == "action" and isinstance(seat, int):
            tally.decisions[kinds[seat]] += 1
    return winner or "draw"


def report(tally: Tally, seconds: float) -> None:
    overall = Proportion(tally.cognitive_wins, tally.games)
    print(f"games: {tally.games} in {seconds:.0f}s ({tally.draws} draws)")
    print(f"cognitive side won: {overall}")
    for side in ("werewolf", "village"):
        won = Proportion(tally.by_side[side], tally.side_games[side])
        print(f"  cognitive as {side}: {won}")
    for kind in ("cognitive", "llm"):
        decisions = max(1, tally.decisions[kind])
        print(
            f"{kind}: {tally.tokens[kind]} tokens, {tally.calls[kind]} model calls, "
            f"{tally.decisions[kind]} decisions ({tally.tokens[kind] / decisions:.0f} tokens each)"
        )
    print(f"fallbacks: {tally.fallbacks}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="scripted", help="model spec for both agents")
    parser.add_argument("--games", type=int, default=20, help="games (pairs of swapped sides)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="werewolf-6")
    parser.add_argument("--minutes", type=float, default=0, help="time budget (0: none)")
    parser.add_argument("--log-dir", type=Path, default=None, help="keep the games' logs here")
    args = parser.parse_args()
    tally = Tally()
    started = time.monotonic()
    for i in range(args.games):
        if args.minutes and time.monotonic() - started > args.minutes * 60:
            print(f"time budget spent after {i} games")
            break
        side = "werewolf" if i % 2 == 0 else "village"
        seed = args.seed + i // 2
        game_started = time.monotonic()
        game = await play(args.model, seed, side, args.preset, args.log_dir)
        winner = account(tally, game, side)
        print(
            f"game {i + 1}: seed {seed}, cognitive as {side}, winner {winner}, "
            f"{time.monotonic() - game_started:.0f}s",
            flush=True,
        )
    report(tally, time.monotonic() - started)


if __name__ == "__main__":
    asyncio.run(main())
