"""A child process (a worker, the endpoint-limits manager) ends when the process that started
it is gone, so a killed driver leaves no orphan behind."""

from __future__ import annotations

import os
import threading
import time


def exit_with_parent(parent: int) -> None:
    """A daemon thread ends this process once ``parent`` is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
