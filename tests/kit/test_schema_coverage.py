"""Every event a seat may be sent under any golden table (every variant, preset and role set
the project pins) has its published schema, and its frame validates against it: a table whose
role adds an event kind the schemas' games never reach would send frames no client could
validate."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from duskfall.core.events import ADMIN
from duskfall.core.registry import get_variant
from duskfall.kit.schemas import all_files
from duskfall.server.broadcast import game_event_message
from duskfall.testing.golden import read_golden
from duskfall.testing.playouts import play_random

GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.json"))


@functools.cache
def server_defs(variant: str) -> dict[str, Any]:
    defs: dict[str, Any] = all_files([variant])[f"{variant}/server.json"]["$defs"]
    return defs


@functools.cache
def validator(variant: str, kind: str) -> Any:
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/$defs/event_{kind}", "$defs": server_defs(variant)}
    )


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_every_event_sent_under_a_golden_table_has_a_schema_it_fits(path: Path) -> None:
    golden = read_golden(path)
    vid = golden["variant"]
    missing: set[str] = set()
    for seed in range(10):
        _, events = play_random(get_variant(vid), golden["config"], seed)
        for event in events:
            if event.visibility == ADMIN:
                continue
            if f"event_{event.kind}" not in server_defs(vid):
                missing.add(event.kind)
                continue
            frame = game_event_message(event.kind, event.payload, "g") | {"seq": 1}
            errors = [e.message for e in validator(vid, event.kind).iter_errors(frame)]
            assert not errors, f"{path.name} seed {seed}: {event.kind}: {errors[:3]}"
    assert not missing, f"{path.name}: events with no schema: {sorted(missing)}"
