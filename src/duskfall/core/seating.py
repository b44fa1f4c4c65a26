"""Seat orders: the same deal with its seats permuted.

A variant that deals roles by seed offers the config option ``seat_order``: seat ``i`` takes the
role (and the random stream of the deal) that the seed's deal gives seat ``seat_order[i]``. A
tournament plays one deal several times with entrants rotated through its seats; permuting the
seats between those games means nothing an entrant remembers of one game (who sat where, who
was called what) maps onto the next. Tournaments find the option by its name in the variant's
config model (:data:`SEAT_ORDER`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import Field

T = TypeVar("T")

SEAT_ORDER = "seat_order"
SEAT_ORDER_HELP = (
    "seat i takes the role the seed's deal gives seat seat_order[i] (a permutation of the "
    "seats; tournaments permute the seats between the games of one deal)"
)


def seat_order_field() -> list[int] | None:
    """The ``seat_order`` field of a variant's config model (default: the deal as dealt)."""
    default: list[int] | None = Field(None, description=SEAT_ORDER_HELP)
    return default


def check_seat_order(order: Sequence[int] | None, seats: int) -> None:
    """Raise ValueError unless ``order`` is None or a permutation of ``range(seats)``."""
    if order is None:
        return
    if len(order) != seats or sorted(order) != list(range(seats)):
        raise ValueError(
            f"seat_order must list every seat 0-{seats - 1} once, in any order "
            f"(got {len(order)} entries)"
        )


def seated(deal: Sequence[T], order: Sequence[int] | None) -> list[T]:
    """The deal with seat ``i`` given ``deal[order[i]]`` (the deal itself if no order)."""
    return list(deal) if order is None else [deal[i] for i in order]
