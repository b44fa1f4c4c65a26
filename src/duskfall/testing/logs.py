"""Helpers for tests that edit game logs on purpose (and so must redo the hash chain)."""

from __future__ import annotations

import json
from typing import Any

from duskfall.store.log import END, chained_line


def parse_lines(data: bytes) -> list[dict[str, Any]]:
    """The lines of a log as dicts, without their chain hashes."""
    out = []
    for line in data.splitlines():
        item = json.loads(line)
        item.pop("h", None)
        out.append(item)
    return out


def rechain(items: list[dict[str, Any]]) -> bytes:
    """A log of ``items`` with a fresh, valid hash chain, its end record (if it has one) naming
    the events before it (what a deliberate edit must redo)."""
    head, out, events = "", [], 0
    for index, item in enumerate(items):
        if item.get("type") == END:
            item = {**item, "events": events, "last": head}
        elif index > 0:
            events += 1
        line, head = chained_line(head, item)
        out.append(line)
    return "".join(out).encode()
