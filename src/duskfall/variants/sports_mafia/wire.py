"""How a client reads sports-mafia decisions back from the wire.

``legal_state`` names: ``target`` (votes, the night kill, checks), ``eliminate_all`` and
``declaration``. The seed's ``valid_actions`` alone are enough too (a server that does not
send ``legal_state``): :func:`legal_from_valid_actions` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.legal import LegalActions
from duskfall.core.wire import DataclassCodec
from duskfall.variants.sports_mafia.actions import SKIP
from duskfall.variants.sports_mafia.legal import (
    DeclarationChoice,
    EliminateAllChoice,
    TargetChoice,
)
from duskfall.variants.sports_mafia.view import SportsMafiaObservation

# valid_actions key -> (action type, whether -1 may skip)
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


def legal_from_valid_actions(phase: str, valid_actions: Mapping[str, Any]) -> LegalActions:
    """The seed's ``valid_actions``: ``declaration``/``nomination``, ``vote``,
    ``eliminate_all`` or a night key; ValueError for anything else."""
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


WIRE = DataclassCodec(
    "sports-mafia",
    {
        "target": TargetChoice,
        "eliminate_all": EliminateAllChoice,
        "declaration": DeclarationChoice,
    },
    legal_from_valid_actions,
    observation=SportsMafiaObservation,
)
