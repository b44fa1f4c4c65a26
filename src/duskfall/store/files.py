"""Files a user names (logs, log folders), opened and written without hanging or a traceback:
a FIFO would block the open or the read for ever and ``/dev/zero`` never ends, so only regular
files are taken (a FIFO is opened without blocking, to be refused). Small texts such as
configs are read by :func:`duskfall.core.user_files.read_user_text`."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import IO, Literal, overload

from duskfall.core.errors import ConfigError

__all__ = [
    "NotARegularFile",
    "check_writable_file",
    "open_regular",
    "prepare_log_dir",
]


class NotARegularFile(ConfigError):
    """A path a user named is a FIFO, a device, a socket or a folder, not a regular file."""


@overload
def open_regular(path: str | os.PathLike[str], what: str, mode: Literal["r"] = "r") -> IO[str]: ...
@overload
def open_regular(path: str | os.PathLike[str], what: str, mode: Literal["rb"]) -> IO[bytes]: ...
def open_regular(
    path: str | os.PathLike[str], what: str, mode: Literal["r", "rb"] = "r"
) -> IO[str] | IO[bytes]:
    """The regular file ``path`` opened for reading (text: UTF-8, newlines as they are);
    :class:`NotARegularFile` for anything else, OSError if it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotARegularFile(f"{what} {path} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    raw = os.fdopen(fd, "rb")
    if mode == "rb":
        return raw
    return io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="")


def check_writable_file(path: str | os.PathLike[str], what: str) -> None:
    """Refuse to write ``what`` at ``path`` if something other than a regular file is there
    (opening a FIFO for writing waits for a reader for ever; a device or a folder is no log)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ConfigError(f"cannot write {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise NotARegularFile(f"cannot write {what} {path}: it is {kind}")


def prepare_log_dir(path: str | os.PathLike[str], what: str = "game logs") -> Path:
    """Create the folder ``path`` (absolute), or say in one line why ``what`` cannot be written
    there (``/dev/null``, a file, a read-only place): a probe file is written and removed."""
    folder = Path(path).resolve()
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"cannot write {what} in {path}: it is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".duskfall-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ConfigError(f"cannot write {what} in {path}: {exc.strerror or exc}") from None
    return folder
