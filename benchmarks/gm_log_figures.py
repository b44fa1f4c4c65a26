"""Figures of finished GM games, read from their logs.

    python benchmarks/gm_log_figures.py games/gm-werewolf6-....jsonl [...]

Prints, per log: steps, GM and player calls, prompt and completion tokens, refused GM replies,
silent players, players asked at least once (of all), phases opened, audit flags, the end and
the wall time between the first and the last model call.
"""

from __future__ import annotations

import sys
from pathlib import Path

from duskfall.store.log import read_log


def figures(path: Path) -> str:
    log = read_log(path)
    events = log.events
    calls = [e for e in events if e.kind == "llm_call"]
    gm = [c for c in calls if c.payload.get("role") == "gm"]
    prompt = sum(int(c.payload.get("prompt_tokens", 0)) for c in calls)
    completion = sum(int(c.payload.get("completion_tokens", 0)) for c in calls)
    players = [seat["name"] for seat in log.header.roster]
    asked = {e.payload["player"] for e in events if e.kind == "turn"}
    phases = [e.payload["name"] for e in events if e.kind == "phase"]
    over = next((e.payload for e in events if e.kind == "game_over"), {})
    latency = sum(float(c.payload.get("latency_s", 0.0)) for c in calls)
    count = {k: sum(e.kind == k for e in events) for k in ("gm_rejected", "player_silent")}
    return (
        f"{path.name}: {over.get('steps')} steps; calls {len(calls)} (GM {len(gm)}, players "
        f"{len(calls) - len(gm)}); tokens {prompt}+{completion}; refused GM replies "
        f"{count['gm_rejected']}; silent players {count['player_silent']}; asked "
        f"{len(asked & set(players))}/{len(players)}; phases {len(phases)} "
        f"({phases[0] if phases else '-'} .. {phases[-1] if phases else '-'}); audit flags "
        f"{sum(e.kind == 'gm_audit' for e in events)}; model time {latency:.0f}s; "
        f"end: {over.get('termination')}: {over.get('reason')}"
    )


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(figures(Path(name)))
