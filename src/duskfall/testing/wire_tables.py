"""The docs' wire tables, generated from the published JSON Schemas so docs and code cannot drift.

Three kinds of block, each between ``<!-- NAME-table VARIANT -->`` and ``<!-- /NAME-table -->``:

* ``wire-table``: one row per decision kind (the request's ``phase``) and per case of it (the
  witch's potions, sports mafia's vote or eliminate-all round): an example ``valid_actions``
  and the ``action``'s fields with their JSON types (``?``: may be left out; an UPPER_CASE word:
  that exact value). From :meth:`duskfall.kit.schemas.VariantSchemas.actions`, the schemas the
  server's strict check holds answers to.
* ``event-table``: every ``GAME_EVENT`` a seat may be sent, who receives it, and its fields.
* ``observation-table``: every field of a request's ``observation`` (from the view's TypedDict).

::

    python -m duskfall.testing.wire_tables write docs/protocol.md docs/werewolf.md docs/mafia.md
    python -m duskfall.testing.wire_tables check docs/protocol.md docs/werewolf.md docs/mafia.md

:func:`read_table` parses a page's action rows back (``{kind: [{field: spec}, ...]}``), which
is all a client needs besides the request (tests/server/test_table_client.py plays games so).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.kit.schemas import VariantSchemas

_BLOCK = re.compile(
    r"(<!-- (?P<name>wire|event|observation)-table (?P<variant>[\w-]+) -->\n)(?P<body>.*?)"
    r"(<!-- /(?P=name)-table -->)",
    re.S,
)
_ROW = re.compile(r"^\| `(?P<kind>[A-Z_]+)` \| (?P<valid>.*) \| `(?P<fields>.*)` \|$")
_WORD = re.compile(r"^[A-Z][A-Z0-9_]*$")


@functools.cache
def schemas(variant_id: str) -> VariantSchemas:
    return VariantSchemas(get_variant(variant_id))


def describe(schema: Mapping[str, Any]) -> str:
    """A field's schema in a few words: ``integer``, ``ANTIDOTE|PASS``, ``[integer] x10``..."""
    if "const" in schema:
        return _value(schema["const"])
    if "enum" in schema:
        return "|".join(_value(v) for v in schema["enum"])
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return "|".join(dict.fromkeys(describe(b) for b in branches))
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(kind)
    if kind == "array":
        items = schema.get("items")
        text = f"[{describe(items)}]" if isinstance(items, Mapping) and items else "array"
        size = schema.get("minItems")
        return f"{text} x{size}" if size is not None and size == schema.get("maxItems") else text
    if kind == "object" and isinstance(schema.get("properties"), Mapping) and schema["properties"]:
        required = set(schema.get("required", ()))
        fields = (
            f"{n}{'' if n in required else '?'}: {describe(sub)}"
            for n, sub in schema["properties"].items()
        )
        return "{" + ", ".join(fields) + "}"
    if kind == "object":
        value = schema.get("additionalProperties")
        if not isinstance(value, Mapping) or not value:
            return "object"
        names = schema.get("propertyNames")
        if isinstance(names, Mapping) and "enum" in names:
            key = describe(names)
        else:
            key = "seat" if names else "name"
        return f"{{{key}: {describe(value)}}}"
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"integer {low}..{high}"
        return "integer" if not low else f"integer >= {low}"
    return str(kind or "any")


def _value(value: Any) -> str:
    if isinstance(value, str) and _WORD.match(value):
        return value
    return json.dumps(value)


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(schema.get("anyOf") or schema.get("oneOf") or [schema])


def _spec(branch: Mapping[str, Any]) -> dict[str, str]:
    """``{field: "integer|null", "optional?": "string", ...}``, ``type`` first."""
    required = set(branch.get("required", ()))
    names = sorted(branch.get("properties", {}), key=lambda n: n != "type")
    return {(n if n in required else f"{n}?"): describe(branch["properties"][n]) for n in names}


def action_rows(variant_id: str) -> str:
    """The ``wire-table`` of ``variant_id``: one row per decision kind and case."""
    found = schemas(variant_id)
    lines = [
        "| `phase` (decision) | `valid_actions` (an example) | `action` fields "
        "(`?`: may be left out) |",
        "| --- | --- | --- |",
    ]
    for kind in sorted(found.catalog.decisions):
        decision = found.catalog.decisions[kind]
        shown = None
        for branch in _branches(decision.action):
            example = decision.example(_type_of(branch))
            valid = "(as above)" if example is shown else _code(json.dumps(example))
            shown = example
            spec = json.dumps(_spec(branch)).replace("|", "\\|")
            lines.append(f"| `{kind}` | {valid} | `{spec}` |")
    return "\n".join(lines) + "\n"


def _type_of(branch: Mapping[str, Any]) -> str | None:
    prop = branch.get("properties", {}).get("type", {})
    return str(prop["const"]) if "const" in prop else None


def _code(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


_AUDIENCE = {
    "public": "everyone",
    "team": "a team (its channel)",
    "seats": "the seats concerned",
}


def event_rows(variant_id: str) -> str:
    """The ``event-table``: every event a seat may be sent, who gets it, its fields."""
    found = schemas(variant_id)
    lines = ["| `event` | sent to | fields (`?`: not always there) |", "| --- | --- | --- |"]
    for kind, schema in sorted(found.events().items()):
        audience = found.catalog.visibility.get(kind, {"public"})
        who = ", ".join(_AUDIENCE.get(a, a) for a in sorted(audience))
        spec = {k: v for k, v in _spec(schema).items() if k.rstrip("?") not in _FRAME_FIELDS}
        fields = ", ".join(f"`{name}` {text}" for name, text in spec.items()) or "none"
        lines.append(f"| `{kind}` | {who} | {fields.replace('|', chr(92) + '|')} |")
    return "\n".join(lines) + "\n"


_FRAME_FIELDS = ("type", "event", "game_id", "seq")


def observation_rows(variant_id: str) -> str:
    """The ``observation-table``: every field of the observation."""
    schema = schemas(variant_id).observation()
    required = set(schema.get("required", ()))
    lines = ["| field | type | present |", "| --- | --- | --- |"]
    for name, sub in schema.get("properties", {}).items():
        present = "always" if name in required else "when it applies"
        lines.append(f"| `{name}` | {describe(sub).replace('|', chr(92) + '|')} | {present} |")
    return "\n".join(lines) + "\n"


_RENDER = {"wire": action_rows, "event": event_rows, "observation": observation_rows}


def read_table(text: str, variant_id: str) -> dict[str, list[dict[str, str]]]:
    """The action rows of ``variant_id`` in a page: ``{kind: [{field: spec}, ...]}``."""
    for block in _BLOCK.finditer(text):
        if block["name"] == "wire" and block["variant"] == variant_id:
            table: dict[str, list[dict[str, str]]] = {}
            for line in block["body"].splitlines():
                row = _ROW.match(line)
                if row:
                    spec = json.loads(row["fields"].replace("\\|", "|"))
                    table.setdefault(row["kind"], []).append(spec)
            return table
    raise ValueError(f"no wire table for {variant_id} in the page")


def update(text: str) -> str:
    """``text`` with every table regenerated."""
    return _BLOCK.sub(lambda m: m[1] + _RENDER[m["name"]](m["variant"]) + m[5], text)


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
