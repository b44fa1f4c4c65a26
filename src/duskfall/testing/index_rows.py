"""Index rows of every kind, made up for tests and benchmarks of the game list: variants,
statuses, winners, presets, agents, tournaments, simulated and logged games, and ids with the
characters a LIKE pattern treats specially (``%``, ``_``)."""

from __future__ import annotations

import random

from duskfall.store.rows import GameRow, SeatRow

VARIANTS = ("werewolf", "mafia", "sports-mafia")
AGENTS = ("heuristic", "random", "llm:local", "llm:openai:gpt-4o-mini", "human:browser")
STATUSES = ("finished", "aborted", "running")


def make_rows(n: int, seed: int = 0, prefix: str = "g") -> list[GameRow]:
    """``n`` index rows of every kind: variants, statuses, winners, presets, agents,
    tournaments, simulated and logged, some with ``%`` and ``_`` in their ids."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        status = rng.choices(STATUSES, weights=(8, 1, 1))[0]
        agents = [rng.choice(AGENTS) for _ in range(rng.randint(1, 4))]
        rows.append(
            GameRow(
                id=f"{prefix}{i:05d}" + rng.choice(["", "_x", "%y"]),
                variant=rng.choice(VARIANTS),
                config={"preset": rng.choice(["p6", "p9", "big_one"])}
                if rng.random() < 0.7
                else {},
                seed=i,
                seats=tuple(
                    SeatRow(s, a, a.partition(":")[2] or None) for s, a in enumerate(agents)
                ),
                status=status,
                winner=rng.choice(["village", "mafia", None]) if status != "running" else None,
                days=rng.randint(0, 6),
                events=rng.randint(0, 300),
                prompt_tokens=rng.choice([0, 0, 10, 500]),
                completion_tokens=rng.choice([0, 7]),
                cost_usd=rng.choice([0.0, 0.01, 0.2]),
                started_at=f"2025-01-{rng.randint(1, 28):02d}T10:{rng.randint(0, 59):02d}:00",
                log_path=None if rng.random() < 0.5 else f"/games/{i}.jsonl",
                tournament=rng.choice([None, None, "cup", "league"]),
            )
        )
    return rows
