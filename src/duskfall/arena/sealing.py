"""Sealing a remote entrant's program: what it is given, where it runs, and as whom.

* **Environment**: only ``PATH`` (the operator's), ``HOME`` and ``TMPDIR`` (its own folder),
  ``LANG`` and ``LC_ALL`` (:data:`LOCALE`), the variables its config names (``env`` values,
  ``pass_env`` names copied from the operator's environment) and its seat token. Always.
* **Working folder**: a new, empty folder of its own (mode 0700, in the system's temporary
  folder), removed when the program has been stopped. Always.
* **User**: run as root on Linux (:func:`can_seal`), a program runs as a user and group of its
  own, an id drawn at random from ``[2**30, 2**31)`` that no account has, without supplementary
  groups. It reads only what every user may read: a tournament's folder (0700), the index and
  its key (0600) are the operator's alone, so no log (of a finished deal or not) is open to it,
  and no other program's environment or folder. Its command and what it loads must be readable
  by every user (a virtualenv under ``/root`` is not); ``sealed = false`` runs a program you
  trust as yourself.

Elsewhere (not root, not Linux) the environment and folder still hold; reading files is up to
their modes, and a tournament with remote entrants says so in one warning line when it starts
(:func:`sealing_warning`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.arena.remote_spec import RemoteEntrant

UIDS = (1 << 30, 1 << 31)  # the range a program's own user id is drawn from
LOCALE = "C.UTF-8"
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


def can_seal() -> bool:
    """Whether programs can run as users of their own here: root on Linux, with the ids they
    are drawn from mapped (a container's user namespace may map fewer)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    return all(_mapped(Path(f"/proc/self/{kind}_map")) for kind in ("uid", "gid"))


def _mapped(id_map: Path) -> bool:
    """Whether ``id_map`` (a /proc id map: inside, outside, count per line) covers :data:`UIDS`."""
    try:
        lines = id_map.read_text().splitlines()
    except OSError:
        return False
    for line in lines:
        inside, _outside, count = (int(field) for field in line.split())
        if inside <= UIDS[0] and inside + count >= UIDS[1]:
            return True
    return False


def environment(spec: RemoteEntrant, folder: Path, extra: Mapping[str, str]) -> dict[str, str]:
    """Everything a program's environment holds: the base, its config's variables, ``extra``."""
    env = {
        "PATH": os.environ.get("PATH", DEFAULT_PATH),
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": LOCALE,
        "LC_ALL": LOCALE,
    }
    env.update({name: os.environ[name] for name in spec.pass_env if name in os.environ})
    env.update(spec.env)
    env.update(extra)
    return env


def _fresh_id() -> int:
    """An id in :data:`UIDS` that no account has."""
    import pwd  # POSIX only, as sealing is

    while True:
        uid = secrets.randbelow(UIDS[1] - UIDS[0]) + UIDS[0]
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid


@dataclass
class Seal:
    """One program's folder, environment and user (None: it runs as the operator)."""

    folder: Path
    env: dict[str, str]
    uid: int | None

    @classmethod
    def make(cls, spec: RemoteEntrant, extra: Mapping[str, str]) -> Seal:
        folder = Path(tempfile.mkdtemp(prefix="duskfall-seat-"))
        uid = _fresh_id() if spec.sealed and can_seal() else None
        if uid is not None:
            os.chown(folder, uid, uid)
        return cls(folder, environment(spec, folder, extra), uid)

    def options(self) -> dict[str, Any]:
        """Keyword arguments of ``create_subprocess_exec`` that start a program so."""
        options: dict[str, Any] = {"cwd": self.folder, "env": self.env, "start_new_session": True}
        if self.uid is not None:
            options.update(user=self.uid, group=self.uid, extra_groups=[])
        return options

    def remove(self) -> None:
        """Remove the folder (once the program and its processes are gone)."""
        shutil.rmtree(self.folder, ignore_errors=True)


def _shared(folder: Path) -> bool:
    """Whether ``folder`` is one others use too (sticky, like /tmp, or not the operator's)."""
    if os.name != "posix":
        return False
    try:
        info = folder.stat()
    except OSError:
        return False
    return bool(info.st_mode & stat.S_ISVTX) or info.st_uid != os.geteuid()


def keep_private(folder: Path, index: Path) -> None:
    """Make a tournament's folder (0700) and its index (0600) the operator's alone; a folder
    others use too (:func:`_shared`) is left as it is (:func:`sealing_warning` says so).
    Nothing outside POSIX, where modes are no access control."""
    if os.name != "posix":
        return
    wal = (index.with_name(index.name + end) for end in ("-wal", "-shm"))
    for path, mode in ((folder, 0o700), (index, 0o600), *((p, 0o600) for p in wal)):
        with contextlib.suppress(OSError):  # absent, or on a filesystem without modes
            if not _shared(path) and path.stat().st_uid == os.geteuid():
                path.chmod(mode)


def sealing_warning(remote: Mapping[str, RemoteEntrant], folder: Path) -> str | None:
    """One line saying how sealing falls short for these remote entrants (``folder``: the
    tournament's); None when it is whole."""
    if not remote:
        return None
    if _shared(folder) and folder.stat().st_mode & 0o077:
        return (
            f"the games folder {folder} is shared with other users: remote entrants can read "
            "its logs; give the tournament a folder of its own (log_dir)"
        )
    if not can_seal():
        why = "not running as root" if sys.platform.startswith("linux") else f"on {sys.platform}"
        return (
            f"remote entrants run as you ({why}): their environment and working folder are "
            "their own, but they can read every file you can (README: what an entrant can see)"
        )
    trusted = [name for name, spec in remote.items() if not spec.sealed]
    if trusted:
        return (
            f"remote entrant(s) {', '.join(repr(n) for n in trusted)} run as you (sealed = false):"
            " they can read every file you can, this tournament's logs included"
        )
    return None
