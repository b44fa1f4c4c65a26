"""Statistics over the game index, for the statistics page: win rates with Wilson 95%
intervals (the same :class:`~duskfall.core.stats.Proportion` that ``duskfall simulate``
prints) by variant, preset and agent line-up; seats' win rates by role and by agent; game
length; tokens (cached and uncached) and cost, per game and per seat. Simulated games (index
rows without a log) count like any other.

The index keeps no roles: a seat's role and team come from the deal, which the rules redo from
the game's config and seed (public once the game has ended).

Games count once they have finished: an aborted game (a killed process, a seat that kept
failing, a game the admin stopped) ended without a result, so it is left out of every rate,
length and mean, and each group says how many it left out. A finished game without a winner
counts as a draw, as ``duskfall simulate`` counts it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from duskfall.core.redaction import redact
from duskfall.core.registry import get_variant
from duskfall.core.stats import Proportion
from duskfall.core.variant import parse_config
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow
from duskfall.web.feed import ENDED

FINISHED = "finished"

LIST_ALL = -1  # the index's "no limit"


def lineup(row: GameRow) -> str:
    """The agents of a game, counted: ``4× heuristic, 2× random`` (secrets in specs masked)."""
    counts = Counter(redact(seat.agent) for seat in row.seats)
    return ", ".join(f"{n}× {agent}" for agent, n in sorted(counts.items()))


def _teams(variant_id: str, rows: Iterable[GameRow]) -> list[str]:
    try:
        teams = list(get_variant(variant_id).teams)
    except Exception:  # a variant not installed here: the winners seen
        teams = []
    teams += sorted({r.winner for r in rows if r.winner and r.winner not in teams})
    return [*teams, "draw"]


def _rate(successes: int, trials: int) -> dict[str, Any]:
    share = Proportion(successes, trials)
    low, high = share.interval()
    return {"successes": successes, "trials": trials, "rate": share.rate, "low": low,
            "high": high, "text": str(share)}  # fmt: skip


def summarize(variant_id: str, rows: list[GameRow]) -> dict[str, Any]:
    """Win rates, length, tokens and cost of some games of one variant."""
    games = len(rows)
    wins = Counter(r.winner or "draw" for r in rows)
    seats = sum(len(r.seats) for r in rows) or 1
    cached = sum(r.cached_tokens for r in rows)
    prompt = sum(r.prompt_tokens for r in rows)
    completion = sum(r.completion_tokens for r in rows)
    cost = sum(r.cost_usd for r in rows)
    return {
        "games": games,
        "rates": [
            {"result": team, **_rate(wins.get(team, 0), games)} for team in _teams(variant_id, rows)
        ],
        "mean_days": sum(r.days for r in rows) / games if games else 0.0,
        "mean_events": sum(r.events for r in rows) / games if games else 0.0,
        "tokens": {
            "cached": cached,
            "uncached": prompt - cached,
            "completion": completion,
            "per_game": (prompt + completion) / games if games else 0.0,
            "per_seat": (prompt + completion) / seats,
        },
        "cost_usd": cost,
        "cost_per_game": cost / games if games else 0.0,
        "cost_per_seat": cost / seats,
    }


def _groups(
    rows: list[GameRow], by: str, key: Callable[[GameRow], str | None]
) -> list[dict[str, Any]]:
    """Per (variant, key): the summary of its finished games and its count of aborted ones."""
    buckets: dict[tuple[str, str], list[GameRow]] = defaultdict(list)
    for row in rows:
        value = key(row)
        if value is not None:
            buckets[(row.variant, value)].append(row)
    groups = []
    for (variant, value), members in sorted(buckets.items()):
        finished = [r for r in members if r.status == FINISHED]
        summary = summarize(variant, finished)
        aborted = len(members) - len(finished)
        groups.append({"by": by, "variant": variant, "key": value, **summary, "aborted": aborted})
    return groups


SeatResult = tuple[str, str, str, bool]  # variant, role, agent, whether its team won


def seat_results(row: GameRow) -> list[SeatResult]:
    """Each seat's role, agent and result, from the deal the rules redo (none if they cannot)."""
    try:
        variant = get_variant(row.variant)
        state = variant.new_game(parse_config(variant, row.config), row.seed)
        roles = state.roles()
        return [
            (row.variant, roles[s.seat], redact(s.agent), state.team_of(s.seat) == row.winner)
            for s in row.seats
        ]
    except Exception:  # a variant or a config this version cannot deal: no seat results
        return []


def _seat_groups(rows: list[GameRow]) -> list[dict[str, Any]]:
    """Seats' win rates by role and by agent (the share of its seats whose team won)."""
    buckets: dict[tuple[str, str, str], list[bool]] = defaultdict(list)
    for row in rows:
        if row.status != FINISHED:
            continue
        for variant, role, agent, won in seat_results(row):
            buckets[("role", variant, role)].append(won)
            buckets[("agent", variant, agent)].append(won)
    groups = []
    for (by, variant, key), results in sorted(buckets.items()):
        rate = {"result": "seat wins", **_rate(sum(results), len(results))}
        groups.append({"by": by, "variant": variant, "key": key, "seats": len(results),
                       "rates": [rate]})  # fmt: skip
    return groups


def statistics(db: Path | None) -> dict[str, Any]:
    """The statistics of the index at ``db`` (none when there is no index): its finished
    games, and how many aborted ones were left out."""
    rows: list[GameRow] = []
    if db is not None and db.exists():
        with GameIndex(db) as index:
            rows = [r for r in index.list_games(limit=LIST_ALL) if r.status in ENDED]
    finished = [r for r in rows if r.status == FINISHED]
    return {
        "games": len(finished),
        "simulated": sum(1 for r in finished if r.log_path is None),
        "aborted": len(rows) - len(finished),
        "groups": [
            *_groups(rows, "variant", lambda r: r.variant),
            *_groups(rows, "preset", lambda r: r.config.get("preset")),
            *_groups(rows, "agents", lineup),
        ],
        "seat_groups": _seat_groups(rows),
    }
