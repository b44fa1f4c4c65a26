"""Small text files a user names (configs, rule cards, policies), read without hanging or a
traceback: only a regular file is taken (a FIFO is opened without blocking, to be refused, and
``/dev/zero`` would never end), up to a size limit. Every layer may read its own files so
(the model layer its LLM config), without depending on the store's.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from duskfall.core.errors import ConfigError

MAX_FILE_BYTES = 4 * 1024 * 1024


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
