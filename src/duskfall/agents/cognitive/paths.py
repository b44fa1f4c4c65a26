"""Paths inside one seat's record folder, resolved so that nothing outside it can be read.

A model names paths in its tool calls, and anything may have been planted in the folder, so:
no absolute paths, no ``..``, no NUL bytes; no symbolic link is followed (any component that
is a link is refused, and files are opened with ``O_NOFOLLOW``); the real path must lie inside
the folder's real path; only regular files are read (a FIFO or a device never blocks or
streams), and at most :data:`MAX_READ` bytes of one. Every refusal is an :class:`UnsafePath`
with a message for the model.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

MAX_READ = 1 << 20  # bytes of one record file a tool reads at most


class UnsafePath(Exception):
    """A path the sandbox refuses (the message says why, for the model)."""


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def resolve_inside(root: Path, relative: str) -> Path:
    """``relative`` as a real path inside ``root`` (it need not exist); else UnsafePath."""
    if "\x00" in relative:
        raise UnsafePath("a path may not contain a NUL byte")
    candidate = PurePosixPath(relative.replace("\\", "/"))
    if candidate.is_absolute() or relative.startswith("~"):
        raise UnsafePath(f"{relative!r} is outside your records; use paths like 'history.jsonl'")
    if ".." in candidate.parts:
        raise UnsafePath(f"{relative!r} is outside your records; '..' is not allowed")
    real_root = _real(root)
    current = real_root
    for part in candidate.parts:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            break  # the rest does not exist either: the caller says "no such record"
        except OSError as exc:
            raise UnsafePath(f"cannot read {relative!r}: {exc.strerror or exc}") from None
        if stat.S_ISLNK(mode):
            raise UnsafePath(f"{relative!r} goes through a link; links are not followed")
    resolved = _real(real_root / candidate)
    if resolved != real_root and real_root not in resolved.parents:
        raise UnsafePath(f"{relative!r} is outside your records; you may not read it")
    return resolved


def read_text(path: Path, limit: int = MAX_READ) -> str:
    """The text of the regular file ``path`` (a link, FIFO or device is refused), clipped."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UnsafePath(f"cannot read {path.name!r}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafePath(f"{path.name!r} is not a record file")
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", errors="replace")


def walk(root: Path, start: Path) -> list[tuple[str, bool]]:
    """``(relative path, is folder)`` of everything under ``start``, links left out (and not
    followed), sorted."""
    real_root = _real(root)
    found: list[tuple[str, bool]] = []
    for folder, dirs, files in os.walk(start, followlinks=False):
        here = Path(folder)
        dirs[:] = [d for d in dirs if not (here / d).is_symlink()]
        for name in dirs:
            found.append((str((here / name).relative_to(real_root)), True))
        for name in files:
            path = here / name
            if not path.is_symlink() and path.is_file() and not name.endswith(".tmp"):
                found.append((str(path.relative_to(real_root)), False))
    return sorted(found)
