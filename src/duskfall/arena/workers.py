"""Worker processes of the process-pool backend: how many, how they start, how they end.

Workers are forked where that is safe (Linux, no other thread in this process): they start at
once, with everything already imported. At most :func:`max_workers` processes are started,
and each one exits as soon as the process that started it is gone (no orphans).
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time


def max_workers() -> int:
    """The most worker processes a run starts: 4 per CPU, at least 8, at most 64."""
    return min(64, max(8, 4 * (os.cpu_count() or 1)))


def start_method() -> str:
    """``fork`` on Linux when this process runs no other thread (a fork copies no lock held
    by another thread then): workers start in milliseconds instead of importing everything
    again; ``spawn`` otherwise."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def start_worker(parent: int, limits: tuple[tuple[str, int], bytes] | None = None) -> None:
    """Worker initialiser: exit with ``parent``; leave the start-up heap out of the garbage
    collector's full scans (``gc.freeze``: it is never garbage); take endpoint limits from
    the driver's service at ``limits`` (address, key), if given."""
    gc.freeze()
    exit_with_parent(parent)
    if limits is not None:
        from duskfall.arena.shared_limits import share_pool_limits

        share_pool_limits(limits)


def exit_with_parent(parent: int) -> None:
    """A daemon thread ends this process once ``parent`` is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
