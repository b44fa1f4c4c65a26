"""The two sides of a social-deduction game: the informed minority (``evil``: the variant's last
team) and everyone else (``village``)."""

from __future__ import annotations

from duskfall.core.variant import Variant

EVIL, VILLAGE = "evil", "village"


def side_of(variant: Variant, team: str) -> str:
    """``evil`` for the variant's last team, ``village`` for the others."""
    return EVIL if team == variant.teams[-1] else VILLAGE
