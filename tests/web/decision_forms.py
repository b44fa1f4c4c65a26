"""Every decision kind of every variant, with the form the web page gets for it (random
playouts until each kind, and each shape of the witch's choice, was asked once)."""

from __future__ import annotations

import random
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.web.human import seat_form

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mafia", {}),
    ("sports-mafia", {}),
    ("werewolf", {"preset": "werewolf-6"}),
    ("werewolf", {"preset": "werewolf-9"}),
    ("werewolf", {"preset": "werewolf-12"}),
]
SEEDS = range(12)


def _shape(variant: str, kind: str, wire: dict[str, Any]) -> tuple[Any, ...]:
    potions = wire.get("potion")
    return (variant, kind, tuple(potions) if isinstance(potions, list) else None)


def every_decision() -> dict[tuple[Any, ...], dict[str, Any]]:
    """``(variant, kind, shape) -> {"form", "legal"}`` for each decision met."""
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for variant_id, config in CONFIGS:
        variant = get_variant(variant_id)
        for seed in SEEDS:
            state = variant.new_game(parse_config(variant, config), seed)
            rng = random.Random(seed)
            while state.outcome() is None:
                actions = {}
                for decision in state.pending():
                    legal = state.legal(decision.seat)
                    key = _shape(variant_id, decision.kind, legal.to_wire())
                    if key not in found:
                        observation = dict(state.observe(decision.seat))
                        spectator = variant.info.spectator
                        form, card = seat_form(spectator, decision.seat, legal, observation)
                        found[key] = {
                            "form": form, "legal": legal, "seat": decision.seat, "card": card,
                        }  # fmt: skip
                    actions[decision.seat] = legal.sample(rng)
                if len(actions) == 1:
                    ((seat, action),) = actions.items()
                    state.apply(seat, action)
                else:
                    state.apply_all(actions)
    return found
