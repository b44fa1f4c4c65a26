"""Files a user names (configs, rule cards, policies, logs), read and written without hanging
or a traceback: a FIFO would block the open or the read for ever and ``/dev/zero`` never
ends, so only regular files are taken (a FIFO is opened without blocking, to be refused), and
small files are read up to a limit."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import IO, Literal, overload

from duskfall.core.errors import ConfigError

MAX_FILE_BYTES = 4 * 1024 * 1024


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


def read_user_text(path: str | os.PathLike[str], what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (``what`` names it in errors).

    A missing or unreadable file, a FIFO or device (``/dev/zero`` would never end), a file
    over ``limit`` bytes and text that is not UTF-8 are each one clear ConfigError.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {file}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{what} {file} is not a regular file")
        if info.st_size > limit:
            raise ConfigError(f"{what} {file} is larger than {limit // 1024} KiB")
        data = os.read(fd, limit + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {file}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ConfigError(f"{what} {file} is larger than {limit // 1024} KiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{what} {file} is not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None


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
