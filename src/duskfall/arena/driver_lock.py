"""One driver per tournament, and a dead driver known as dead at once, from any host.

The driver of a tournament holds an exclusive lock on ``.driver.lock`` in the tournament's
games folder for as long as it runs (a POSIX record lock: the kernel drops it when the
process dies, however it dies, and it is not inherited by the worker processes it forks).
The file holds who took it (host, pid, since when). So:

* a second driver is refused with the first one's name (:class:`TournamentBusy`);
* a driver that gets the lock knows every slot still marked ``running`` was left by a driver
  that is gone (:meth:`duskfall.store.slots.SlotTable.take_over`), whatever its host: no
  process id to ask a host about, no timeout to wait out;
* ``tournament status`` asks the lock whether a driver is alive (:func:`driver_of`).

On a network filesystem the lock is the server's (NFSv4 leases: the lock of a machine that
vanished is freed when its lease runs out, about 90 seconds).

A process must not open the lock file besides its own lock's handle while it holds the lock
(closing any handle of the file drops POSIX locks): only this module touches it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.store.log import utc_now

LOCK_NAME = ".driver.lock"
TRIES = 5


class TournamentBusy(DuskfallError):
    """Another live process is playing games of this tournament."""


@dataclass(frozen=True)
class DriverInfo:
    """Who holds (or last held) a tournament's lock."""

    host: str
    pid: int
    since: str

    @property
    def name(self) -> str:
        return f"{self.host}:{self.pid}"

    def __str__(self) -> str:
        return f"process {self.pid} on {self.host} (since {self.since})"


def _read_info(text: str) -> DriverInfo | None:
    try:
        data = json.loads(text)
        return DriverInfo(str(data["host"]), int(data["pid"]), str(data["since"]))
    except (ValueError, KeyError, TypeError):
        return None


class DriverLock:
    """The lock of the tournament whose games are in ``games_dir`` (``with``: taken, or
    :class:`TournamentBusy`)."""

    def __init__(self, games_dir: Path, tournament: str) -> None:
        self.path = games_dir / LOCK_NAME
        self.tournament = tournament
        self.me = DriverInfo(socket.gethostname(), os.getpid(), utc_now())
        self._fd: int | None = None

    def __enter__(self) -> DriverLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        for attempt in range(TRIES):
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if attempt < TRIES - 1:  # `status` may be looking at it this instant
                    time.sleep(0.1)
        else:
            held = _read_info(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
            os.close(fd)
            who = str(held) if held is not None else "another process"
            raise TournamentBusy(
                f"tournament {self.tournament!r} is being played by {who}; wait for it or "
                "stop it first"
            ) from None
        info = {"host": self.me.host, "pid": self.me.pid, "since": self.me.since}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        os.fsync(fd)
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # drops the lock
            self._fd = None


def driver_of(games_dir: Path) -> DriverInfo | None:
    """The live driver of the tournament in ``games_dir``, or None if none is running
    (never call it from a process that holds that lock)."""
    path = games_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return _read_info(os.pread(fd, 4096, 0).decode("utf-8", "replace")) or DriverInfo(
                "?", 0, "?"
            )
        return None  # it was free (closing the handle frees it again)
    finally:
        os.close(fd)
