"""Games as a dataset: ``duskfall export`` writes the games of the index (and the decisions
and events of their logs) as Parquet or JSON Lines, each table split into a public file and a
hidden one, with a dataset card that ``datasets.load_dataset`` and the Hugging Face Hub read.
"""

from duskfall.export.columns import DECISIONS, EVENTS, GAMES, TABLES, Column, Table
from duskfall.export.dataset import ExportError, ExportResult, export_games

__all__ = [
    "DECISIONS",
    "EVENTS",
    "GAMES",
    "TABLES",
    "Column",
    "ExportError",
    "ExportResult",
    "Table",
    "export_games",
]
