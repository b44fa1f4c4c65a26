"""The operator's key: 256 secret bits beside the game index, private to whoever runs duskfall.

One key file per index (``duskfall.db`` -> ``duskfall.db.key``, or the file named by
``$DUSKFALL_KEY_FILE``), created on first use from the operating system's randomness, readable by
its owner only (mode 0600). Nothing derived from it is ever printed, logged or served; purposes
take independent subkeys (:func:`subkey`), so the key that signs records is not the key that
deals games. Copy the key file with the index (or a tournament folder) to keep verifying it on
another machine.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from duskfall.core.errors import ConfigError
from duskfall.store.paths import default_db_path

KEY_ENV = "DUSKFALL_KEY_FILE"
KEY_BYTES = 32
KEY_SUFFIX = ".key"


def key_path(db: str | Path | None = None) -> Path | None:
    """Where the operator key of the index at ``db`` (default: the process's) lives; None when
    indexing is off and no ``$DUSKFALL_KEY_FILE`` is set."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    path = Path(db) if db is not None else default_db_path()
    if path is None:
        return None
    return path.with_name(path.name + KEY_SUFFIX)


def load_key(db: str | Path | None = None) -> bytes | None:
    """The operator key of ``db``'s index if its file exists, else None (a one-line ConfigError
    for a file that is not a key)."""
    path = key_path(db)
    if path is None or not path.exists():
        return None
    return _read(path)


def operator_key(db: str | Path | None = None) -> bytes:
    """The operator key of ``db``'s index, created (0600, from the OS) if it does not exist yet.

    With indexing off and no ``$DUSKFALL_KEY_FILE``, a fresh key for this process only.
    """
    path = key_path(db)
    if path is None:
        return _process_key()
    if path.exists():
        return _read(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return _read(path)
    with os.fdopen(fd, "w") as out:
        out.write(key.hex() + "\n")
        out.flush()
        os.fsync(out.fileno())
    return key


def subkey(key: bytes, purpose: str) -> bytes:
    """An independent key for one ``purpose`` (``"deals"``, ``"records"``...) of ``key``."""
    return hmac.new(key, f"duskfall:{purpose}".encode(), hashlib.sha256).digest()


_process: list[bytes] = []


def _process_key() -> bytes:
    if not _process:
        _process.append(secrets.token_bytes(KEY_BYTES))
    return _process[0]


def read_key(path: str | Path) -> bytes:
    """The key in the key file ``path`` (one ConfigError line if there is none, or it is not
    a key file): a copied folder's key, given to ``replay --key``."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no key file {path}")
    return _read(path)


def _read(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeError, ValueError) as exc:
        raise ConfigError(f"{path} is not a duskfall key file ({exc.__class__.__name__})") from None
    if len(key) != KEY_BYTES:
        raise ConfigError(f"{path} is not a duskfall key file ({len(key)} bytes, not {KEY_BYTES})")
    return key
