"""Does same-role coordination matter? Bot games of classic mafia with 1 or 2 doctors/sheriffs.

For each configuration it plays N games (bots act directly on ``pending``/``legal``/``observe``,
no asyncio) and prints:

* doctors: the share of nights the mafia's target was saved, and the town win rate;
* sheriffs: the share of the mafia found by day 3 (investigated on nights 1-3), duplicate
  investigations per night, and the town win rate;

each with a 95% interval, plus the difference to the one-doctor/one-sheriff baseline.

    python benchmarks/mafia_coordination.py --games 10000 --bots heuristic
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Any

from duskfall.variants.mafia.bots import BOTS
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.rules import MafiaState

TOWN = ["VIGILANTE", "VILLAGER", "VILLAGER"]
BASE = ["MAFIA", "MAFIA", "DOCTOR", "SHERIFF", *TOWN, "VILLAGER"]  # the default 8-player deal
TWO_DOCTORS = ["MAFIA", "MAFIA", "DOCTOR", "DOCTOR", "SHERIFF", *TOWN]
TWO_SHERIFFS = ["MAFIA", "MAFIA", "DOCTOR", "SHERIFF", "SHERIFF", *TOWN]

CONFIGS: dict[str, dict[str, Any]] = {
    "1 doctor, 1 sheriff (default 8)": {"roles": BASE},
    "2 doctors, coordinated": {"roles": TWO_DOCTORS},
    "2 doctors, independent": {"roles": TWO_DOCTORS, "coordination": False},
    "2 sheriffs, coordinated": {"roles": TWO_SHERIFFS},
    "2 sheriffs, independent": {"roles": TWO_SHERIFFS, "coordination": False},
}


@dataclass
class Tally:
    """Counts summed over games (additive, so workers' tallies can be merged)."""

    games: int = 0
    town_wins: int = 0
    draws: int = 0
    kill_nights: int = 0
    saved: int = 0
    mafia: int = 0
    found_by_day3: int = 0
    found_sq: float = 0.0  # sum of squared per-game shares (for the interval)
    sheriff_nights: int = 0
    duplicate_nights: int = 0
    decisions: int = 0
    extra: dict[str, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for f in fields(self):
            if f.name != "extra":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def play(config: MafiaConfig, seed: int, bot: str, tally: Tally) -> None:
    """One game; its figures are added to ``tally``."""
    state = MafiaState(config, seed)
    state.opening_events()
    players = [BOTS[bot](s, random.Random(f"{seed}:{s}")) for s in range(state.num_seats)]
    found: set[int] = set()
    investigated: dict[int, list[int]] = {}
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            action = players[seat].act(state.observe(seat), state.legal(seat))
            tally.decisions += 1
            for event in state.apply(seat, action):
                if event.kind == "night_summary" and event.payload["mafia_target"] is not None:
                    tally.kill_nights += 1
                    tally.saved += event.payload["saved"]
                elif event.kind == "investigation":
                    target = event.payload["target"]
                    investigated.setdefault(event.day, []).append(target)
                    if event.day <= 3 and "MAFIA" in event.payload["roles"]:
                        found.add(target)
    outcome = state.outcome()
    assert outcome is not None
    mafia = sum(1 for s in range(state.num_seats) if state.team_of(s) == "mafia")
    tally.games += 1
    tally.town_wins += outcome.winner == "town"
    tally.draws += outcome.winner is None
    tally.mafia += mafia
    tally.found_by_day3 += len(found)
    tally.found_sq += (len(found) / mafia) ** 2
    tally.sheriff_nights += len(investigated)
    tally.duplicate_nights += sum(len(t) != len(set(t)) for t in investigated.values())


def run_chunk(args: tuple[dict[str, Any], Iterable[int], str]) -> Tally:
    raw, seeds, bot = args
    config = MafiaConfig.model_validate(raw)
    tally = Tally()
    for seed in seeds:
        play(config, seed, bot, tally)
    return tally


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(successes: int, n: int) -> str:
    low, high = wilson(successes, n)
    return f"{successes / max(n, 1):6.1%} [{low:.1%}, {high:.1%}]"


def found_stats(tally: Tally) -> tuple[float, float]:
    """Mean share of the mafia found by day 3 per game, and the variance of that mean."""
    n = max(tally.games, 1)
    mean = tally.found_by_day3 / max(tally.mafia, 1)  # every game has the same mafia count
    variance = max(tally.found_sq / n - mean**2, 0.0)
    return mean, variance / n


def mean_share(tally: Tally) -> str:
    mean, var = found_stats(tally)
    half = 1.96 * math.sqrt(var)
    return f"{mean:6.1%} [{mean - half:.1%}, {mean + half:.1%}]"


def found_difference(a: Tally, b: Tally) -> str:
    (ma, va), (mb, vb) = found_stats(a), found_stats(b)
    diff, half = (ma - mb) * 100, 1.96 * math.sqrt(va + vb) * 100
    return f"{diff:+5.1f} pp [{diff - half:+.1f}, {diff + half:+.1f}]"


def difference(a: Tally, b: Tally, key: str = "town_wins", over: str = "games") -> str:
    """Share ``key/over`` of ``a`` minus that of ``b``, with a 95% normal interval."""
    na, nb = getattr(a, over), getattr(b, over)
    pa, pb = getattr(a, key) / na, getattr(b, key) / nb
    half = 1.96 * math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    diff = (pa - pb) * 100
    return f"{diff:+5.1f} pp [{diff - half * 100:+.1f}, {diff + half * 100:+.1f}]"


def measure(raw: dict[str, Any], games: int, bot: str, workers: int) -> Tally:
    chunks = [(raw, range(i, games, workers), bot) for i in range(workers)]
    total = Tally()
    if workers == 1:
        total.add(run_chunk(chunks[0]))
        return total
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(run_chunk, chunks):
            total.add(part)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per configuration")
    parser.add_argument("--bots", choices=sorted(BOTS), default="heuristic")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.games} games per configuration, {args.bots} bots, 8 players (2 mafia)\n")
    header = (
        f"{'configuration':34} {'mafia target saved':>26} {'mafia found by day 3':>26} "
        f"{'dup. investigation nights':>26} {'town wins':>26} {'vs baseline':>26} {'games/s':>8}"
    )
    print(header)
    print("-" * len(header))
    baseline: Tally | None = None
    results: dict[str, Tally] = {}
    for label, raw in CONFIGS.items():
        started = time.perf_counter()
        tally = measure(raw, args.games, args.bots, args.workers)
        rate = tally.games / (time.perf_counter() - started)
        baseline = baseline or tally
        results[label] = tally
        print(
            f"{label:34} {share(tally.saved, tally.kill_nights):>26} {mean_share(tally):>26} "
            f"{share(tally.duplicate_nights, tally.sheriff_nights):>26} "
            f"{share(tally.town_wins, tally.games):>26} {difference(tally, baseline):>26} "
            f"{rate:8.0f}"
        )
    doctors = results["2 doctors, coordinated"], results["2 doctors, independent"]
    sheriffs = results["2 sheriffs, coordinated"], results["2 sheriffs, independent"]
    print("\ncoordinated minus independent:")
    print(
        f"  2 doctors:  saved {difference(*doctors, 'saved', 'kill_nights')}, "
        f"town wins {difference(*doctors)}"
    )
    print(
        f"  2 sheriffs: found by day 3 {found_difference(*sheriffs)}, duplicate nights "
        f"{difference(*sheriffs, 'duplicate_nights', 'sheriff_nights')}, "
        f"town wins {difference(*sheriffs)}"
    )
    print(
        "\nsaved: nights the mafia's target was protected / nights with a mafia target;"
        "\nfound: mafia members investigated on nights 1-3 / mafia members (mean per game);"
        "\nintervals: Wilson 95% for shares, normal 95% for means and differences."
    )


if __name__ == "__main__":
    main()
