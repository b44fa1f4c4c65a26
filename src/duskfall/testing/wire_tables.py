"""Wire tables generated from the variants' own legal views, so docs and code cannot drift.

For every decision kind of a variant, random games (:func:`play_random_game`) collect the legal
views the rules hand out; a table row shows the kind, an example ``valid_actions``
(``legal.to_wire()``) and the action's fields with their JSON types, merged over every view
seen (``legal.schema()``; a field marked ``?`` may be left out). The rows sit in a variant's
page between ``<!-- wire-table VARIANT -->`` and ``<!-- /wire-table -->``::

    python -m duskfall.testing.wire_tables write docs/werewolf.md docs/mafia.md
    python -m duskfall.testing.wire_tables check docs/werewolf.md docs/mafia.md

:func:`read_table` parses a page's table back (``{kind: {field: spec}}``), which is all a
client needs besides the request (tests/protocol/test_wire_tables.py plays whole games so).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.variant import LegalActions, State
from duskfall.testing.playouts import play_random_game

# configs whose random games reach every decision kind of each variant
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "werewolf": [{}, {"preset": "werewolf-9"}],
    "mafia": [
        {},
        {"roles": ["MAFIA", "MAFIA", "DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF", "VILLAGER"]},
        {"roles": ["MAFIA", "MAFIA", "VIGILANTE", "VIGILANTE", "VILLAGER", "VILLAGER"]},
    ],
}
SEEDS = range(40)
_BLOCK = re.compile(
    r"(<!-- wire-table (?P<variant>[\w-]+) -->\n)(?P<body>.*?)(<!-- /wire-table -->)", re.S
)
_ROW = re.compile(r"^\| `(?P<kind>[A-Z_]+)` \| `(?P<valid>.*)` \| `(?P<fields>.*)` \|$")
_WORD = re.compile(r"^[A-Z][A-Z_]*$")


@dataclass
class _Kind:
    """What the views of one decision kind allow, merged over every view seen."""

    example: dict[str, Any] | None = None
    fields: dict[str, set[str]] = field(default_factory=dict)
    required: set[str] | None = None

    def add(self, legal: LegalActions) -> None:
        wire = legal.to_wire()
        if self.example is None or len(json.dumps(wire)) > len(json.dumps(self.example)):
            self.example = wire
        for branch in _branches(legal.schema()):
            required = set(branch.get("required", ())) | {"type"}
            self.required = required if self.required is None else self.required & required
            for name, sub in branch.get("properties", {}).items():
                self.fields.setdefault(name, set()).update(_tokens(sub))

    def spec(self) -> dict[str, str]:
        """``{field: "integer|null", "optional?": "string", ...}``, ``type`` first."""
        required = self.required or set()
        names = sorted(self.fields, key=lambda n: n != "type")
        return {
            (n if n in required else f"{n}?"): "|".join(_ordered(self.fields[n])) for n in names
        }


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(schema.get("anyOf") or schema.get("oneOf") or [schema])


def _tokens(schema: Mapping[str, Any]) -> set[str]:
    """JSON types of a field; a list of UPPER_CASE words is spelled out."""
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return set().union(*(_tokens(b) for b in branches))
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    if values is not None:
        found: set[str] = set()
        for value in values:
            if value is None:
                found.add("null")
            elif isinstance(value, bool):
                found.add("boolean")
            elif isinstance(value, int):
                found.add("integer")
            elif isinstance(value, str) and _WORD.match(value):
                found.add(value)
            else:
                found.add("string")
        return found
    kind = schema.get("type", "object")
    return {kind} if isinstance(kind, str) else set(kind)


def _ordered(tokens: set[str]) -> list[str]:
    words = sorted(t for t in tokens if _WORD.match(t))
    order = ["integer", "number", "string", "boolean", "array", "object", "null"]
    return words + [t for t in order if t in tokens]


def collect(
    variant_id: str, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> dict[str, _Kind]:
    """Every decision kind met in random games of ``configs`` x ``seeds``, in order met."""
    variant = get_variant(variant_id)
    kinds: dict[str, _Kind] = {}

    def note(state: State) -> None:
        for decision in state.pending():
            kinds.setdefault(decision.kind, _Kind()).add(state.legal(decision.seat))

    seed_list = list(seeds)
    for config in configs:
        for seed in seed_list:
            play_random_game(variant, config, seed, on_decision=note)
    return kinds


def render(variant_id: str) -> str:
    """The table of ``variant_id`` (header and one row per decision kind)."""
    kinds = collect(variant_id, CONFIGS.get(variant_id, [{}]), SEEDS)
    lines = [
        "| `phase` (decision) | `valid_actions` (an example) | `action` fields "
        "(`?`: may be left out) |",
        "| --- | --- | --- |",
    ]
    for kind in sorted(kinds):
        entry = kinds[kind]
        valid = json.dumps(entry.example).replace("|", "\\|")
        spec = json.dumps(entry.spec()).replace("|", "\\|")
        lines.append(f"| `{kind}` | `{valid}` | `{spec}` |")
    return "\n".join(lines) + "\n"


def read_table(text: str, variant_id: str) -> dict[str, dict[str, str]]:
    """The generated table of ``variant_id`` in a page: ``{kind: {field: spec}}``."""
    for block in _BLOCK.finditer(text):
        if block["variant"] == variant_id:
            rows = (_ROW.match(line) for line in block["body"].splitlines())
            return {
                row["kind"]: json.loads(row["fields"].replace("\\|", "|")) for row in rows if row
            }
    raise ValueError(f"no wire table for {variant_id} in the page")


def update(text: str) -> str:
    """``text`` with every wire table regenerated."""
    return _BLOCK.sub(lambda m: m[1] + render(m["variant"]) + m[4], text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m duskfall.testing.wire_tables")
    parser.add_argument("command", choices=["write", "check"])
    parser.add_argument("pages", nargs="+", type=Path)
    args = parser.parse_args(argv)
    stale = []
    for page in args.pages:
        text = page.read_text(encoding="utf-8")
        if not _BLOCK.search(text):
            print(f"{page}: no <!-- wire-table VARIANT --> block", file=sys.stderr)
            return 2
        new = update(text)
        if new != text:
            stale.append(page)
            if args.command == "write":
                page.write_text(new, encoding="utf-8")
    if args.command == "check" and stale:
        names = " ".join(str(p) for p in stale)
        print(
            f"wire tables out of date in {names}; run: python -m duskfall.testing.wire_tables "
            f"write {names}",
            file=sys.stderr,
        )
        return 1
    for page in stale:
        print(f"updated {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
