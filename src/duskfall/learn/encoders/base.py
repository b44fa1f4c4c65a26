"""What every variant's encoder provides, and the small numeric helpers they share.

An encoder belongs to one seat of one game: :meth:`SeatEncoder.features` turns the seat's
observation (``observe``, so nothing the seat may not know) into a fixed-size float32
vector, incrementally where it reads the history; :meth:`mask` (given the legal view and the
same observation) marks the menu entries
(:mod:`duskfall.learn.menu`) the legal view allows; :meth:`action` turns an index back into
the variant's action. Decisions nobody asks of the seat get the NONE entry only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from duskfall.learn.menu import Menu

MORE = object()
"""Returned by :meth:`SeatEncoder.action` for the first step of a two-step decision: the seat
is asked again (with another mask) before anything is applied."""


class SeatEncoder(Protocol):
    menu: Menu
    size: int

    def features(self, obs: Mapping[str, Any]) -> np.ndarray: ...

    def mask(self, legal: Any, obs: Mapping[str, Any]) -> np.ndarray: ...

    def action(self, legal: Any, obs: Mapping[str, Any], index: int) -> Any: ...


class Features:
    """A float32 vector filled block by block (each block's offset fixed by its order)."""

    def __init__(self, size: int) -> None:
        self.vec = np.zeros(size, dtype=np.float32)
        self.at = 0

    def one_hot(self, index: int | None, width: int) -> None:
        if index is not None and 0 <= index < width:
            self.vec[self.at + index] = 1.0
        self.at += width

    def values(self, values: Iterable[float] | np.ndarray, width: int) -> None:
        arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values)
        self.vec[self.at : self.at + width] = arr.reshape(-1)[:width]
        self.at += width

    def scalar(self, value: float) -> None:
        self.vec[self.at] = value
        self.at += 1

    def seats(self, seats: Iterable[int], width: int, value: float = 1.0) -> None:
        for seat in seats:
            if 0 <= seat < width:
                self.vec[self.at + seat] = value
        self.at += width

    def done(self) -> np.ndarray:
        assert self.at == len(self.vec), f"filled {self.at} of {len(self.vec)} features"
        return np.clip(self.vec, -1.0, 1.0, out=self.vec)


def none_only(menu: Menu) -> np.ndarray:
    mask = np.zeros(menu.size, dtype=np.int8)
    mask[menu.none] = 1
    return mask


def target_mask(menu: Menu, targets: Sequence[int], none: bool) -> np.ndarray:
    mask = np.zeros(menu.size, dtype=np.int8)
    mask[list(targets)] = 1
    if none:
        mask[menu.none] = 1
    return mask


def index_of(values: Sequence[str], value: str | None) -> int | None:
    return values.index(value) if value in values else None
