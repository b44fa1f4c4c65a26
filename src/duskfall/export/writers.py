"""Writing one part of a table as Parquet (pyarrow, the ``export`` extra) or JSON Lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from duskfall.core.errors import MissingDependency
from duskfall.export.columns import Column, Kind

FORMATS = ("parquet", "jsonl")


def _arrow_type(kind: Kind) -> Any:
    import pyarrow as pa

    return {
        "string": pa.string(),
        "json": pa.string(),
        "int": pa.int64(),
        "float": pa.float64(),
        "bool": pa.bool_(),
        "strings": pa.list_(pa.string()),
    }[kind]


class PartWriter:
    """Rows of one part of a table, appended in batches to one file."""

    def __init__(self, path: Path, columns: Sequence[Column], fmt: str) -> None:
        self.path = path
        self.columns = tuple(columns)
        self.format = fmt
        self.rows = 0
        self._writer: Any = None
        self._file: Any = None
        if fmt == "parquet":
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise MissingDependency("pyarrow", "export") from None
            self._schema = pa.schema([(c.name, _arrow_type(c.kind)) for c in self.columns])
            self._writer = pq.ParquetWriter(path, self._schema, compression="zstd")
        else:
            self._file = path.open("w", encoding="utf-8")

    def write(self, rows: Iterable[dict[str, Any]]) -> None:
        batch = [{c.name: row.get(c.name) for c in self.columns} for row in rows]
        if not batch:
            return
        self.rows += len(batch)
        if self._writer is not None:
            import pyarrow as pa

            self._writer.write_table(pa.Table.from_pylist(batch, schema=self._schema))
        else:
            for row in batch:
                self._file.write(json.dumps(row, ensure_ascii=False) + "\n")

    def close(self) -> None:
        if self._writer is not None:
            if self.rows == 0:  # an empty file still has the schema
                import pyarrow as pa

                self._writer.write_table(pa.Table.from_pylist([], schema=self._schema))
            self._writer.close()
        if self._file is not None:
            self._file.close()
