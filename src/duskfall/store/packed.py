"""A game's record packed where it is played and written where it is kept.

A worker (a process of a pool, a Ray task on another machine) plays a game without touching
any disk the record lives on: :class:`LogBuffer` builds the game's log in memory, line for
line what :class:`~duskfall.store.log.LogWriter` writes (the same header, events and chain
hashes; unsigned, since workers do not hold the operator key), compressed as it grows;
:func:`pack_folder` packs the side files a game leaves (a cognitive seat's record folder, a
remote entrant's error output). The driver writes both where the record lives:
:func:`write_log_file` (whole file, its end record signed there, fsynced, renamed into place,
so a log in the games folder is always complete) and :func:`unpack_folder` (regular files and
folders only, never outside the target).
"""

from __future__ import annotations

import io
import os
import tarfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from duskfall.core.errors import DuskfallError
from duskfall.core.events import Event
from duskfall.core.outcome import Outcome
from duskfall.store.log import LogEnd, LogHeader, Sealer, chained_line, sign_end

COMPRESSION_LEVEL = 1  # fast: a game's log shrinks about 5-10x at level 1 already


class PackedDamaged(DuskfallError):
    """A packed log or folder cannot be unpacked (damaged on its way)."""


@dataclass(frozen=True, slots=True)
class Packed:
    """Bytes of a log or a folder, zlib-compressed or not (a game played in the driver's
    own process is not worth compressing)."""

    data: bytes
    compressed: bool = True

    def raw(self) -> bytes:
        if not self.compressed:
            return self.data
        try:
            return zlib.decompress(self.data)
        except zlib.error as exc:
            raise PackedDamaged(f"a packed game record is damaged: {exc}") from None

    def __len__(self) -> int:
        return len(self.data)


def packed_file(path: Path, *, compress: bool = True) -> Packed:
    """A file's bytes packed to travel (a fork's source log sent to a worker)."""
    data = path.read_bytes()
    return Packed(zlib.compress(data, COMPRESSION_LEVEL) if compress else data, compress)


class LogBuffer:
    """An observer that builds a game's log in memory: :meth:`packed` gives its bytes."""

    def __init__(self, header: LogHeader, *, compress: bool = True) -> None:
        self._compressor = zlib.compressobj(COMPRESSION_LEVEL) if compress else None
        self._parts: list[bytes] = []
        self._head = ""
        self._events = 0
        self._write(header.to_dict())

    def _write(self, data: dict[str, object]) -> None:
        line, self._head = chained_line(self._head, data)
        encoded = line.encode("utf-8")
        if self._compressor is not None:
            encoded = self._compressor.compress(encoded)
            if not encoded:
                return
        self._parts.append(encoded)

    def on_event(self, event: Event) -> None:
        self._write(event.to_dict())
        self._events += 1

    def on_phase_end(self) -> None:
        pass

    def on_game_end(self, outcome: Outcome | None) -> None:
        self._write(LogEnd(self._events, self._head).to_dict())  # as LogWriter ends a log

    def packed(self) -> Packed:
        """The log so far (call once, at the end: it closes the compressed stream)."""
        if self._compressor is None:
            return Packed(b"".join(self._parts), compressed=False)
        self._parts.append(self._compressor.flush())
        return Packed(b"".join(self._parts))


def write_log_file(path: Path, log: Packed, signer: Sealer | None = None) -> str:
    """Write a whole log at ``path``: to a temporary name, fsynced, then renamed into place,
    its end record signed by ``signer`` (raises OSError; :class:`PackedDamaged` if ``log``
    does not unpack); returns the chain hash of its last line."""
    text = log.raw()
    text, head = sign_end(text, signer) if signer is not None else (text, "")
    partial = path.with_name(f".{path.name}.part")
    with partial.open("wb") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    partial.replace(path)
    return head


def sync_folder(folder: Path) -> None:
    """fsync a folder, so the names just renamed into it survive a power loss."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def pack_folder(folder: Path, *, compress: bool = True) -> Packed | None:
    """Every regular file under ``folder`` (with its folders), packed; None if there is none."""
    files = [path for path in sorted(folder.rglob("*")) if path.is_file() and not path.is_symlink()]
    if not files:
        return None
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for path in files:
            archive.add(path, arcname=str(path.relative_to(folder)), recursive=False)
    data = buffer.getvalue()
    return Packed(zlib.compress(data, COMPRESSION_LEVEL), True) if compress else Packed(data, False)


def unpack_folder(packed: Packed, target: Path) -> None:
    """Unpack :func:`pack_folder`'s files into ``target``: regular files and folders only,
    every one inside ``target`` (raises :class:`PackedDamaged` otherwise, OSError)."""
    root = target.resolve()
    try:
        with tarfile.open(fileobj=io.BytesIO(packed.raw()), mode="r") as archive:
            members = archive.getmembers()
            for member in members:
                place = (root / member.name).resolve()
                if not (member.isfile() or member.isdir()) or not place.is_relative_to(root):
                    raise PackedDamaged(f"a packed game folder holds {member.name!r}")
            for member in members:
                place = root / member.name
                if member.isdir():
                    place.mkdir(parents=True, exist_ok=True)
                    continue
                place.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                assert source is not None
                with source, place.open("wb") as out:
                    out.write(source.read())
    except tarfile.TarError as exc:
        raise PackedDamaged(f"a packed game folder is damaged: {exc}") from None
