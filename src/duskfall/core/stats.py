"""Small statistics helpers: proportions with Wilson 95% intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    """``successes`` out of ``trials`` with its Wilson score interval."""

    successes: int
    trials: int

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        n = self.trials
        if n == 0:
            return (0.0, 1.0)
        p = self.successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        return (max(0.0, centre - half), min(1.0, centre + half))

    def __str__(self) -> str:
        low, high = self.interval()
        return f"{self.rate:.1%} [{low:.1%}, {high:.1%}] ({self.successes}/{self.trials})"
