"""Counters that add up field by field: per-seat metrics of one game, summed over many."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Self


class Summable:
    """A dataclass of numbers whose ``a + b`` adds every field (``sum(items, Empty())``)."""

    def __add__(self, other: Self) -> Self:
        data: Any = self
        return type(self)(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(data)}
        )
