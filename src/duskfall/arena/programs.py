"""Programs we start and do not trust (a remote entrant's, the one ``check-bot`` checks).

Each runs in a session and process group of its own (``start_new_session``): when it is done
with, :func:`stop` kills the whole group, so a child it forked does not outlive it, and, when it
ran as a user of its own (:mod:`duskfall.arena.sealing`), every process of that user, so that
not even one that left the group (``setsid``) survives. Its standard error goes to a file, read
back as a bounded tail (:func:`tail`): a program writing hundreds of megabytes costs no more
memory than the tail's size. (A file, not a pipe: a child holding a pipe open would keep
``Process.wait`` waiting after the program itself has exited.)
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

TAIL_BYTES = 64 * 1024  # what is kept of a program's standard error


def tail(path: Path, limit: int = TAIL_BYTES) -> str:
    """The last ``limit`` bytes of the file at ``path`` as text (a character cut at the start is
    replaced); what came before is never read."""
    with path.open("rb") as file:
        size = file.seek(0, os.SEEK_END)
        file.seek(max(0, size - limit))
        return file.read(limit).decode("utf-8", errors="replace")


def kill_group(pid: int) -> None:
    """Kill the process group ``pid`` leads (what is left of it); nothing if none is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def kill_user(uid: int) -> None:
    """Kill every process of user ``uid`` (a user of one program's own: never the operator's).

    A child process takes that user's identity and sends ``kill(-1)``, which reaches every
    process the user may signal, in one pass that a fork cannot escape.
    """
    if uid == os.geteuid() or uid == 0:
        raise ValueError("kill_user kills only a program's own user")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, which only makes system calls and exits
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            os._exit(0)
        except BaseException:
            os._exit(1)
        os._exit(0)
    os.waitpid(pid, 0)


async def stop(process: asyncio.subprocess.Process, grace: float, uid: int | None = None) -> None:
    """Give ``process`` ``grace`` seconds to exit, then kill it, its process group and (with
    ``uid``) every process of its user."""
    if process.returncode is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(process.wait(), grace)
    kill_group(process.pid)
    if uid is not None:
        kill_user(uid)
    if process.returncode is None:
        await process.wait()
