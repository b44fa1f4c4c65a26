"""Is a game's secret seed derivable from what seats and spectators see?

Everything a viewer received (ids, frames, JSON documents, text) goes to
:func:`seed_candidates`, which takes out every integer in it: JSON numbers, runs of decimal
digits inside strings, and runs of hex digits read as base-16 integers. :func:`leaked_seeds`
then tries each as the seed of the game's variant and config and returns those that reproduce
its secrets: the deal (every seat's role) and the bots' random streams. A chance match of the
deal alone (small games have a few thousand deals) is not a leak; both together are.

    seen = [hello_frames, api_json, page_title]
    assert leaked_seeds(seen, "werewolf", config, seed) == []
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.rng import derive_rng
from duskfall.core.variant import parse_config

_DIGITS = re.compile(r"\d+")
_HEX = re.compile(r"[0-9a-fA-F]+")
MAX_DIGITS = 4000  # int() refuses longer digit strings; no seed is that long


def _text(item: Any) -> str:
    if isinstance(item, str | bytes):
        return item.decode("utf-8", "replace") if isinstance(item, bytes) else item
    return json.dumps(item, default=str)


def seed_candidates(seen: Iterable[Any]) -> set[int]:
    """Every integer in ``seen`` (objects are read as their JSON text)."""
    found: set[int] = set()
    for item in seen:
        text = _text(item)
        found.update(int(run) for run in _DIGITS.findall(text) if len(run) <= MAX_DIGITS)
        found.update(int(run, 16) for run in _HEX.findall(text) if len(run) <= MAX_DIGITS)
    return found


def _secrets(variant_id: str, config: Mapping[str, Any], seed: int) -> tuple[Any, int]:
    variant = get_variant(variant_id)
    state = variant.new_game(parse_config(variant, config), seed)
    return state.roles(), derive_rng(seed, "agent:0").getrandbits(64)


def leaked_seeds(
    seen: Iterable[Any], variant_id: str, config: Mapping[str, Any], seed: int
) -> list[int]:
    """The integers in ``seen`` that reproduce the game's deal and its bots' random streams."""
    roles, stream = _secrets(variant_id, config, seed)
    variant = get_variant(variant_id)
    parsed = parse_config(variant, config)
    leaked = []
    for candidate in seed_candidates(seen):
        if variant.new_game(parsed, candidate).roles() != roles:
            continue
        if derive_rng(candidate, "agent:0").getrandbits(64) == stream:
            leaked.append(candidate)
    return sorted(leaked)
