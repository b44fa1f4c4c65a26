"""Helpers for tests that edit game logs on purpose (and so must redo the hash chain)."""

from __future__ import annotations

import json
from typing import Any

from duskfall.store.log import END, SEAL, chained_line


def parse_lines(data: bytes) -> list[dict[str, Any]]:
    """The lines of a log as dicts, without their chain hashes."""
    out = []
    for line in data.splitlines():
        item = json.loads(line)
        item.pop("h", None)
        out.append(item)
    return out


def rechain(items: list[dict[str, Any]]) -> bytes:
    """A log of ``items`` with a fresh, valid hash chain, its end record and seals (if it has
    any) naming the events and the line before them (what a deliberate edit must redo; their
    signatures are kept as they were, since only the key could redo those)."""
    head, out, events = "", [], 0
    for index, item in enumerate(items):
        if item.get("type") in (END, SEAL):
            item = {**item, "events": events, "last": head}
        elif index > 0:
            events += 1
        line, head = chained_line(head, item)
        out.append(line)
    return "".join(out).encode()


def unsigned(items: list[dict[str, Any]], format: int | None = None) -> list[dict[str, Any]]:
    """``items`` without their signatures (seal lines dropped, the end record's ``key`` and
    ``mac`` removed), the header's format set to ``format`` if given."""
    out = []
    for item in items:
        if item.get("type") == SEAL:
            continue
        item = {k: v for k, v in item.items() if item.get("type") != END or k not in ("key", "mac")}
        if format is not None and item.get("type") == "header":
            item["format"] = format
        out.append(item)
    return out
