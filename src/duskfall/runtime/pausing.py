"""Pause and resume between steps of a game loop."""

from __future__ import annotations

import asyncio


class Pausable:
    """A loop that waits at ``await self.running.wait()`` between steps can be paused."""

    running: asyncio.Event

    def _init_pausing(self) -> None:
        self.running = asyncio.Event()
        self.running.set()

    def pause(self) -> None:
        """Stop before the next step (the current one finishes)."""
        self.running.clear()

    def resume(self) -> None:
        self.running.set()

    @property
    def paused(self) -> bool:
        return not self.running.is_set()
