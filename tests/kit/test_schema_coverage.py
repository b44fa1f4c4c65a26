"""Every event a seat may be sent under any golden table (every variant, preset and role set
the project pins) has its published schema: a table whose role adds an event kind the
schemas' configs never reach would send frames no client could validate."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from duskfall.core.events import ADMIN
from duskfall.core.registry import get_variant
from duskfall.kit.schemas import all_files
from duskfall.testing.golden import read_golden
from duskfall.testing.playouts import play_random

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.json"))


@functools.cache
def server_defs(variant: str) -> dict[str, Any]:
    defs: dict[str, Any] = all_files([variant])[f"{variant}/server.json"]["$defs"]
    return defs


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_event_sent_under_a_golden_table_has_a_schema(path: Path) -> None:
    golden = read_golden(path)
    variant = get_variant(golden["variant"])
    sent: set[str] = set()
    for seed in range(10):
        _, events = play_random(variant, golden["config"], seed)
        sent |= {e.kind for e in events if e.visibility != ADMIN}
    missing = sorted(k for k in sent if f"event_{k}" not in server_defs(golden["variant"]))
    assert not missing, f"{path.name}: events with no schema: {missing}"
