"""Exporting indexed games as a dataset: games, decisions and events, each as a public and a
hidden file, plus the dataset card."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from duskfall.core.errors import DuskfallError, LogCorrupt, ReplayMismatch
from duskfall.export.card import Provenance, dataset_card
from duskfall.export.columns import DECISIONS, EVENTS, GAMES, TABLES, Table
from duskfall.export.rows import GameRows, game_rows, split
from duskfall.export.writers import FORMATS, PartWriter
from duskfall.store.anchor import check_row
from duskfall.store.deals import released_rows
from duskfall.store.log import read_log
from duskfall.store.rows import GameRow
from duskfall.store.signatures import Signer, check_log, checking_signer

ENDED = ("finished", "aborted")


class ExportError(DuskfallError):
    """The export cannot be written (bad format, output directory in use)."""


@dataclass
class ExportResult:
    """What was written: files with their row counts, and games left out (by reason)."""

    out: Path
    games: int = 0
    files: dict[str, int] = field(default_factory=dict)
    skipped: Counter[str] = field(default_factory=Counter)


def check_out_dir(out: Path) -> None:
    """Refuse an output directory that is a file or already holds files."""
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} is a file; give a directory for the dataset")
    if out.is_dir() and any(out.iterdir()):
        raise ExportError(f"{out} is not empty; give a new or empty directory")


def export_games(
    rows: list[GameRow],
    out: Path,
    fmt: str,
    command: str,
    db: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> ExportResult:
    """Write the games of ``rows`` (ended ones with a readable log) to ``out`` as ``fmt``;
    ``progress`` is told of each game done.

    A tournament game is written only once its deal is over (marked in the index at ``db``,
    :mod:`duskfall.store.deals`): the other games of its deal share its seed and its roles
    (permuted by a seat order its config shows), so they would be given away while played."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; choose {' or '.join(FORMATS)}")
    check_out_dir(out)
    out.mkdir(parents=True, exist_ok=True)
    writers = {
        (table.name, hidden): PartWriter(out / table.file(hidden, fmt), table.part(hidden), fmt)
        for table in TABLES
        for hidden in (False, True)
    }
    result = ExportResult(out)
    released = released_rows(db, rows)
    signer = checking_signer()
    provenance = Provenance(command, datetime.now(UTC).isoformat(timespec="seconds"), fmt, 0)
    try:
        for row in rows:
            rows_of_game = _read(row, result, released, signer)
            if progress is not None:
                progress(1)
            if rows_of_game is None:
                continue
            result.games += 1
            provenance.variants[row.variant] += 1
            provenance.models.update(m for m in rows_of_game.game["models"] if m)
            _write(writers, GAMES, [rows_of_game.game])
            _write(writers, DECISIONS, rows_of_game.decisions)
            _write(writers, EVENTS, rows_of_game.events)
    finally:
        for writer in writers.values():
            writer.close()
    result.files = {w.path.name: w.rows for w in writers.values()}
    provenance.games = result.games
    provenance.skipped = dict(result.skipped)
    provenance.rows = dict(result.files)
    (out / "README.md").write_text(dataset_card(provenance), encoding="utf-8")
    return result


def _read(
    row: GameRow, result: ExportResult, released: set[tuple[str, int]], signer: Signer | None
) -> GameRows | None:
    """The rows of one game, or None (and the reason counted) if it cannot be exported (a
    log or row whose signature fails, when ``signer``'s key is here to check, is altered)."""
    if row.status not in ENDED:
        result.skipped["not ended"] += 1
        return None
    if row.tournament is not None and (row.tournament, row.tournament_slot) not in released:
        result.skipped["of a tournament deal still being played"] += 1
        return None
    if row.log_path is None:
        result.skipped["without a log (simulated)"] += 1
        return None
    try:
        log = read_log(row.log_path)
        check_log(log, signer)
        check_row(Path(row.log_path), log, row, signer)
        return game_rows(row, log)
    except (OSError, LogCorrupt, ReplayMismatch, DuskfallError, KeyError, TypeError, ValueError):
        # a log that cannot be read, or whose actions the rules refuse, is not exported
        result.skipped["with an unreadable or altered log"] += 1
        return None


def _write(
    writers: dict[tuple[str, bool], PartWriter], table: Table, rows: list[dict[str, Any]]
) -> None:
    for hidden in (False, True):
        part = list(split(rows, hidden)) if table.split_rows else rows
        writers[table.name, hidden].write(part)
