"""The garbage collector's time per generation, measured with ``gc.callbacks``."""

from __future__ import annotations

import gc
import time


class GcTimer:
    """Counts collections and their (wall-clock) time per generation while installed."""

    def __init__(self) -> None:
        self.spent: dict[int, list[float]] = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
        self._started = 0.0

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self._timed)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._timed)

    def _timed(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            entry = self.spent[info["generation"]]
            entry[0] += 1
            entry[1] += time.perf_counter() - self._started
