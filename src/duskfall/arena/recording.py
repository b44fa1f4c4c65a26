"""The driver's writes: played games into the record, on the driver's own disk.

Workers send games back (:class:`~duskfall.arena.game_job.GameResult`: outcome, index row,
packed log and side files); :class:`RecordWriter` writes each game's log and side files in the
games folder, then all their index rows in one transaction. A log is complete before its row
says the game is finished (written whole, fsynced, renamed into place, the folder fsynced),
so a driver killed between the two leaves at most a log nobody indexed, never a row that
points at half a log. Only this process writes: the index is a local SQLite file, never one
shared over a network filesystem (where SQLite's locking cannot be trusted).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from duskfall.arena.game_job import GameResult
from duskfall.core.errors import DuskfallError
from duskfall.store.index import GameIndex
from duskfall.store.packed import Packed, sync_folder, unpack_folder, write_log_file
from duskfall.store.rows import GameRow
from duskfall.store.signatures import record_signer


class RecordWriteError(DuskfallError):
    """A played game cannot be written (a full disk, a folder that went away...)."""


class RecordWriter:
    """Writes played games: logs and side files in ``games_dir``, rows in ``index``."""

    def __init__(self, games_dir: Path | None, index: GameIndex | None) -> None:
        self.games_dir = games_dir
        self.index = index
        # workers do not hold the operator key: the driver signs each log's end as it writes it
        self.signer = None if games_dir is None else record_signer(index.path if index else None)

    def write(self, results: Sequence[GameResult]) -> list[GameRow]:
        """Write ``results`` (one task's games); their index rows, as written."""
        rows: list[GameRow] = []
        wrote_files = False
        for result in results:
            row = result.row
            if result.log is not None and self.games_dir is not None:
                path, head = self._write_log(result)
                wrote_files = True
                if row is not None:
                    row = dataclasses.replace(row, log_path=str(path), chain=head or None)
            if row is not None:
                rows.append(dataclasses.replace(row, host=result.node or row.host))
        if wrote_files and self.games_dir is not None:
            sync_folder(self.games_dir)
        if self.index is not None and rows:
            self.index.add_rows(rows)
        return rows

    def _write_log(self, result: GameResult) -> tuple[Path, str]:
        assert self.games_dir is not None and result.log is not None
        path = self.games_dir / f"{result.game_id}.jsonl"
        self.write_files(result.files)
        try:
            head = write_log_file(path, result.log, self.signer)
        except OSError as exc:
            raise RecordWriteError(
                f"cannot write the log of game {result.game_id} in {self.games_dir}: "
                f"{exc.strerror or exc}"
            ) from None
        return path, head

    def write_files(self, files: Packed | None) -> None:
        """Unpack a game's side files into the games folder (of a failed game too: a remote
        entrant's error output says why it failed)."""
        if files is None or self.games_dir is None:
            return
        try:
            unpack_folder(files, self.games_dir)
        except OSError as exc:
            raise RecordWriteError(
                f"cannot write a game's files in {self.games_dir}: {exc.strerror or exc}"
            ) from None
