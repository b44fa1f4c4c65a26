"""Tokens and model calls per game with LLMAgent seats.

By default every seat is an LLMAgent over the ``scripted`` model (fast and deterministic), and
every prompt the game sent is counted with the Gemma 3 tokenizer of the embedded model;
completions are counted as if every reply filled its think/says caps (an upper bound). With
``--model local`` (or any model spec) the game is played by that model and its own usage is
reported instead.

    python benchmarks/llm_tokens.py --games 3                       # 8-player werewolf
    python benchmarks/llm_tokens.py --variant sports-mafia --games 3
    python benchmarks/llm_tokens.py --model local --games 1
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from typing import Any

from duskfall.llm.calls import LLM_CALL, call_report
from duskfall.llm.envelope import SAYS_CHARS, THINK_CHARS
from duskfall.session import GameSetup, run_game

WEREWOLF_8 = ["Werewolf", "Werewolf", "Villager", "Villager", "Villager", "Seer", "Witch", "Hunter"]
CONFIGS: dict[str, dict[str, Any]] = {"werewolf": {"roles": WEREWOLF_8}, "sports-mafia": {}}
TARGET = 50_000


def gemma_counter() -> Any:
    """A function counting Gemma tokens of a text (the embedded model's tokenizer)."""
    from llama_cpp import Llama

    from duskfall.llm.providers.local import default_model_path

    vocab = Llama(model_path=str(default_model_path()), vocab_only=True, verbose=False)
    return lambda text: len(vocab.tokenize(text.encode(), add_bos=False, special=True))


async def main(variant: str, games: int, model: str) -> None:
    count = gemma_counter() if model == "scripted" else None
    per_turn = 4  # chat-template tokens around each message
    totals: list[int] = []
    calls: list[int] = []
    for seed in range(games):
        game = await run_game(
            GameSetup(
                variant,
                seed=seed,
                agents=f"llm:{model}",
                config=CONFIGS.get(variant, {}),
                write_log=False,
            )
        )
        report = call_report(game.record.events)
        if count is not None:
            prompt = sum(
                count(m["content"]) + per_turn
                for e in game.record.events
                if e.kind == LLM_CALL
                for m in e.payload["messages"]
            )
            capped = report.calls * count("x " * ((THINK_CHARS + SAYS_CHARS) // 2) + "{}" * 20)
            total = prompt + capped
            print(
                f"game {seed}: {report.calls} calls, {prompt} prompt tokens, <= {capped} "
                f"completion tokens, total <= {total} ({game.state.outcome()})"
            )
        else:
            total = report.usage.total_tokens
            print(
                f"game {seed}: {report.calls} calls, {report.usage.prompt_tokens} prompt + "
                f"{report.usage.completion_tokens} completion tokens = {total}, "
                f"{report.retries} retries, {report.fallbacks} fallbacks ({game.state.outcome()})"
            )
        totals.append(total)
        calls.append(report.calls)
    mean = statistics.mean(totals)
    print(
        f"{variant} x {games} games with llm:{model}: mean {statistics.mean(calls):.0f} calls, "
        f"mean {mean:,.0f} tokens per game, max {max(totals):,}; "
        f"ratio to the {TARGET:,} target {mean / TARGET:.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="werewolf", choices=sorted(CONFIGS))
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--model", default="scripted", help="model spec, e.g. local")
    args = parser.parse_args()
    asyncio.run(main(args.variant, args.games, args.model))
