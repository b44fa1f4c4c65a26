"""Rebuild a seat's legal actions from a request's ``valid_actions`` (for built-in agents).

A client only has the wire form. A variant may describe how to read it back by giving its
``VARIANT`` a ``legal_from_wire(phase, valid_actions)`` method; sports mafia's wire form (the
seed's) is read here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.registry import variant_ids
from duskfall.core.variant import LegalActions, Variant
from duskfall.protocol.legal_state import legal_from_state

SKIP = -1
_TARGET_KEYS = {
    "vote": ("VOTE", False),
    "kill": ("KILL", True),
    "don_check": ("DON_CHECK", False),
    "sheriff_check": ("SHERIFF_CHECK", False),
}


def _ints(values: Any, key: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise ValueError(f"valid_actions[{key!r}] is not a list of player ids")
    return tuple(values)


def sports_mafia_legal(phase: str, valid_actions: Mapping[str, Any]) -> Any:
    """Sports mafia: ``declaration``/``nomination``, ``vote``, ``eliminate_all``, night keys."""
    from duskfall.variants.sports_mafia.legal import (
        DeclarationChoice,
        EliminateAllChoice,
        TargetChoice,
    )

    if "eliminate_all" in valid_actions:
        return EliminateAllChoice(phase)
    if "declaration" in valid_actions:
        nomination = _ints(valid_actions.get("nomination", [SKIP]), "nomination")
        return DeclarationChoice(tuple(p for p in nomination if p != SKIP), phase)
    for key, (action_type, skippable) in _TARGET_KEYS.items():
        if key in valid_actions:
            targets = _ints(valid_actions[key], key)
            allow_skip = skippable and SKIP in targets
            return TargetChoice(
                phase, action_type, key, tuple(t for t in targets if t != SKIP), allow_skip
            )
    raise ValueError(f"unknown valid_actions {sorted(valid_actions)} for phase {phase}")


_READERS: dict[str, Callable[[str, Mapping[str, Any]], Any]] = {
    "sports-mafia": sports_mafia_legal,
}


def check_wire_support(variant: Variant) -> None:
    """Raise ConfigError unless built-in agents can read ``variant``'s wire actions.

    Every variant served by duskfall's own server is readable through ``legal_state``; the
    readers below also cover servers that send only the seed's ``valid_actions``.
    """
    if variant.id not in variant_ids():
        raise ConfigError(f"variant {variant.id} is not installed here")


def legal_from_wire(
    variant: Variant,
    phase: str,
    valid_actions: Mapping[str, Any],
    legal_state: Mapping[str, Any] | None = None,
) -> LegalActions:
    """The legal actions behind a request; ValueError if they cannot be read."""
    if legal_state is not None:
        rebuilt: LegalActions = legal_from_state(dict(legal_state))
        return rebuilt
    own = getattr(variant, "legal_from_wire", None)
    if callable(own):
        legal: LegalActions = own(phase, valid_actions)
        return legal
    reader = _READERS.get(variant.id)
    if reader is None:
        raise ValueError(
            f"the server sent no legal_state and {variant.id}'s valid_actions cannot be read back"
        )
    legal = reader(phase, valid_actions)
    return legal
