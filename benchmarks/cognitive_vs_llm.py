"""Cognitive agent against the plain LLM agent with the same model, on the same deals.

Two tables (Werewolf, 6 seats by default):

* ``teams`` (default): each seed is played twice, ``cognitive:MODEL`` as the werewolves and
  ``llm:MODEL`` as the village, then the other way round. Reported: how often the cognitive
  side won, overall and per side.
* ``--seat N``: only seat N is played by an LLM agent, the others by ``--others`` (default
  ``heuristic``); each seed is played once with ``cognitive:MODEL`` and once with
  ``llm:MODEL`` in that seat. Reported: how often seat N's team won with each agent. Much
  cheaper (one LLM seat), so it suits slow local models.

Win rates carry Wilson 95% intervals; tokens, model calls and decisions are given per agent.

    python benchmarks/cognitive_vs_llm.py --model scripted --games 20
    python benchmarks/cognitive_vs_llm.py --model local --seat 0 --games 4 --minutes 15
    python benchmarks/cognitive_vs_llm.py --model openai:gpt-4o-mini --games 200

``--minutes`` stops starting new games once the budget is spent (the running game finishes).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from duskfall.core.stats import Proportion
from duskfall.llm.calls import call_report
from duskfall.session import GameSetup, PreparedGame, run_game

AGENTS = ("cognitive", "llm")


@dataclass
class Tally:
    """Wins per agent kind (and per side it played), and what each kind spent."""

    games: Counter[str] = field(default_factory=Counter)  # agent kind -> games it was scored in
    wins: Counter[str] = field(default_factory=Counter)
    side_games: Counter[str] = field(default_factory=Counter)  # "cognitive as village" -> n
    side_wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    played: int = 0
    tokens: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    fallbacks: int = 0

    def score(self, kind: str, side: str, won: bool) -> None:
        self.games[kind] += 1
        self.wins[kind] += won
        self.side_games[f"{kind} as {side}"] += 1
        self.side_wins[f"{kind} as {side}"] += won

    def spend(self, game: PreparedGame) -> None:
        report = call_report(game.record.events)
        self.fallbacks += report.fallbacks
        kinds = {seat: agent.split(":")[0] for seat, agent in enumerate(game.agents)}
        for seat, usage in report.by_seat.items():
            if seat is not None:
                self.tokens[kinds[seat]] += usage.total_tokens
        for event in game.record.events:
            seat = event.payload.get("seat")
            if event.kind == "llm_call" and isinstance(seat, int):
                self.calls[kinds[seat]] += 1
            elif event.kind == "action" and isinstance(seat, int):
                self.decisions[kinds[seat]] += 1


def other_side(side: str) -> str:
    return "village" if side == "werewolf" else "werewolf"


async def play(args: argparse.Namespace, seed: int, agents: str, tag: str) -> PreparedGame:
    log = args.log_dir / f"cognitive-vs-llm-{seed}-{tag}.jsonl" if args.log_dir else None
    return await run_game(
        GameSetup(
            "werewolf",
            seed=seed,
            agents=agents,
            config={"preset": args.preset},
            log_path=log,
            write_log=log is not None,
        )
    )


def winner_of(game: PreparedGame) -> str | None:
    outcome = game.state.outcome()
    return outcome.winner if outcome is not None else None


async def teams_game(args: argparse.Namespace, tally: Tally, i: int) -> str:
    """Game ``i``: the cognitive agent plays the werewolves on even games, the village on odd."""
    side = "werewolf" if i % 2 == 0 else "village"
    seed = args.seed + i // 2
    agents = f"{side}=cognitive:{args.model},{other_side(side)}=llm:{args.model}"
    game = await play(args, seed, agents, f"cognitive-{side}")
    winner = winner_of(game)
    tally.draws += winner is None
    tally.score("cognitive", side, winner == side)
    tally.score("llm", other_side(side), winner == other_side(side))
    tally.spend(game)
    return f"seed {seed}, cognitive as {side}, winner {winner or 'draw'}"


async def seat_game(args: argparse.Namespace, tally: Tally, i: int) -> str:
    """Game ``i``: seat N is cognitive on even games, llm on odd ones, on the same seed."""
    kind = AGENTS[i % 2]
    seed = args.seed + i // 2
    agents = f"{args.seat}={kind}:{args.model},default={args.others}"
    game = await play(args, seed, agents, f"seat{args.seat}-{kind}")
    side = game.state.team_of(args.seat)
    winner = winner_of(game)
    tally.draws += winner is None
    tally.score(kind, side, winner == side)
    tally.spend(game)
    return f"seed {seed}, seat {args.seat} ({side}) played by {kind}, winner {winner or 'draw'}"


def report(tally: Tally, args: argparse.Namespace, seconds: float) -> None:
    table = "teams" if args.seat is None else f"seat {args.seat} among {args.others} bots"
    print(f"\nmodel {args.model}, table: {table}")
    print(f"games: {tally.played} in {seconds:.0f}s ({tally.draws} draws)")
    for kind in AGENTS if args.seat is not None else AGENTS[:1]:
        print(f"{kind} side won: {Proportion(tally.wins[kind], tally.games[kind])}")
        for side in ("werewolf", "village"):
            key = f"{kind} as {side}"
            if tally.side_games[key]:
                print(f"  as {side}: {Proportion(tally.side_wins[key], tally.side_games[key])}")
    for kind in AGENTS:
        decisions = max(1, tally.decisions[kind])
        print(
            f"{kind}: {tally.tokens[kind]} tokens, {tally.calls[kind]} model calls, "
            f"{tally.decisions[kind]} decisions ({tally.tokens[kind] / decisions:.0f} tokens, "
            f"{tally.calls[kind] / decisions:.1f} calls per decision)"
        )
    print(f"fallbacks: {tally.fallbacks}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default="scripted", help="model spec for both agents")
    parser.add_argument("--games", type=int, default=20, help="games (in pairs on one seed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="werewolf-6")
    parser.add_argument("--seat", type=int, default=None, help="only this seat is an LLM agent")
    parser.add_argument("--others", default="heuristic", help="the other seats with --seat")
    parser.add_argument("--minutes", type=float, default=0, help="time budget (0: none)")
    parser.add_argument("--log-dir", type=Path, default=None, help="keep the games' logs here")
    args = parser.parse_args()
    tally = Tally()
    started = time.monotonic()
    one_game = teams_game if args.seat is None else seat_game
    for i in range(args.games):
        if args.minutes and time.monotonic() - started > args.minutes * 60:
            print(f"time budget spent after {i} games")
            break
        game_started = time.monotonic()
        line = await one_game(args, tally, i)
        tally.played += 1
        print(f"game {i + 1}: {line}, {time.monotonic() - game_started:.0f}s", flush=True)
    report(tally, args, time.monotonic() - started)


if __name__ == "__main__":
    asyncio.run(main())
