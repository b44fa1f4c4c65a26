"""The form of a decision, built from its legal view: whole actions to choose from, each with a
distinct label people read ("Poison Ada (seat 0)", "Abstain"), and the inputs a choice cannot
list (a speech, a vector of reads, an optional claim).

:func:`decision_form` expands the finite part of the legal actions' JSON schema (constants,
enums, yes/no, alternatives) into candidate actions and keeps those the legal view accepts
(``legal.parse``), once each as the legal view reads them; what cannot be listed becomes a
field. The page assembles the answer as the
chosen action plus the fields' values: there is never a free JSON box.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Schema = Mapping[str, Any]
#: The legal view's reading of an action: its wire form, or None if it is refused.
Canon = Callable[[dict[str, Any]], dict[str, Any] | None]

MAX_CANDIDATES = 400
VERBS = {"ANTIDOTE": "Save", "SAVE": "Save", "VOTE": "Vote for", "KILL": "Kill"}
FIELD_LABELS = {
    "says": "What you say",
    "text": "What you say",
    "target": "About whom (optional)",
    "claim": "Claim a role (optional)",
    "nomination": "Nominate",
    "declaration": "Your read of each player",
    "claims": "Sheriff checks you announce (optional)",
}
SEAT_KEYS = frozenset({"player", "target", "seat"})  # a record's columns that name a seat
NONE_WORD = re.compile(r"or '([^']+)'")


def _options(schema: Schema) -> list[Schema]:
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    return list(alternatives) if alternatives else [schema]


def finite_values(schema: Schema) -> list[Any] | None:
    """The values a property may take if they can be listed (seat numbers before names)."""
    if "const" in schema:
        return [schema["const"]]
    if "enum" in schema:
        return list(schema["enum"])
    if schema.get("type") == "boolean":
        return [True, False]
    if schema.get("type") == "null":
        return [None]
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if not alternatives:
        return None
    values: list[Any] = []
    for option in alternatives:
        listed = finite_values(option)
        if listed is None:
            return None
        values += listed
    if any(isinstance(v, int) and not isinstance(v, bool) for v in values):
        values = [v for v in values if not isinstance(v, str)]  # names duplicate the seats
    return values


class Names(dict[int, str]):
    """Players' names by seat, and who the deciding seat is to itself: ``marks`` holds
    ``you`` and ``teammate`` by seat, shown on every label of that seat."""

    def __init__(self, names: Mapping[int, str], marks: Mapping[int, str] | None = None):
        super().__init__(names)
        self.marks = dict(marks or {})


def seat_label(seat: int, names: Mapping[int, str]) -> str:
    """``Ada (seat 0)``, and ``(you)`` or ``(teammate)`` where ``names`` marks the seat."""
    name = names.get(seat)
    label = f"{name} (seat {seat})" if name else f"seat {seat}"
    mark = names.marks.get(seat) if isinstance(names, Names) else None
    return f"{label} ({mark})" if mark else label


def seat_marks(me: int | None, teammates: Iterable[int]) -> dict[int, str]:
    """``{seat: "you" | "teammate"}`` for the deciding seat and the teammates it knows."""
    marks = {mate: "teammate" for mate in teammates}
    if me is not None:
        marks[me] = "you"
    return marks


def _none_word(describe: str) -> str:
    found = NONE_WORD.findall(describe)
    return found[-1].capitalize() if found else "Nobody"


def _word(value: str) -> str:
    return VERBS.get(value, value.replace("_", " ").capitalize())


def _choice_label(
    action: Mapping[str, Any], varying: list[str], names: Mapping[int, str], describe: str
) -> str:
    verbs: list[str] = []
    objects: list[str] = []
    for key in varying:
        value = action.get(key)
        if isinstance(value, bool):
            verbs.append(("Yes" if value else "No") if len(varying) == 1 else f"{key}: {value}")
        elif isinstance(value, int):
            if value >= 0:
                objects.append(seat_label(value, names))
        elif isinstance(value, str):
            verbs.append(_word(value))
    if not verbs and not objects:
        return _none_word(describe)
    return " ".join(verbs + objects)


def _field(key: str, schema: Schema, names: Mapping[int, str], required: bool) -> dict[str, Any]:
    """An input for a property that the choices do not list, or None if it needs none."""
    label = FIELD_LABELS.get(key, key.replace("_", " ").capitalize())
    kind = schema.get("type")
    items = schema.get("items") or {}
    if kind == "string":
        return {"key": key, "kind": "text", "label": label, "max": schema.get("maxLength")}
    if kind == "array" and items.get("type") == "integer" and schema.get("minItems"):
        low, high = items.get("minimum", -3), items.get("maximum", 3)
        return {
            "key": key,
            "kind": "vector",
            "label": label,
            "cells": [seat_label(i, names) for i in range(int(schema["minItems"]))],
            "values": list(range(int(low), int(high) + 1)),
        }
    if kind == "array" and items.get("type") == "object":
        return _records(key, label, schema, names)
    values = finite_values(schema)
    if values is not None:
        return {"key": key, "kind": "select", "label": label,
                "options": _select_options(values, names, required)}  # fmt: skip
    if kind in ("integer", "number"):
        return {"key": key, "kind": "number", "label": label, "min": schema.get("minimum"),
                "max": schema.get("maximum")}  # fmt: skip
    return {}


def _select_options(values: list[Any], names: Mapping[int, str], required: bool) -> list[Any]:
    """A select's options: "nobody" once and first (``-1`` or null where the values have
    one, else "(none)" when the field may be left out), then the values."""
    nobody = [v for v in values if v is None or v == -1][:1]
    if not nobody and not required:
        nobody = [None]
    seats = any(isinstance(v, int) and not isinstance(v, bool) for v in values)
    none_label = "Nobody" if seats else "(none)"
    return [{"label": none_label, "value": v} for v in nobody] + [
        {"label": _value_label(v, names), "value": v} for v in values if v is not None and v != -1
    ]


def _records(key: str, label: str, schema: Schema, names: Mapping[int, str]) -> dict[str, Any]:
    """A list of rows (a sheriff's announced checks: night, player, team), each column a
    choice of listed values; {} if a column cannot be listed."""
    props: Mapping[str, Schema] = schema["items"].get("properties") or {}
    columns = []
    for column, prop in props.items():
        values = finite_values(prop)
        if values is None:
            return {}
        seats = column in SEAT_KEYS
        options = [
            {"label": seat_label(v, names) if seats else _word(str(v)), "value": v} for v in values
        ]
        columns.append({"key": column, "label": column, "options": options})
    return {"key": key, "kind": "records", "label": label, "columns": columns,
            "max": schema.get("maxItems")}  # fmt: skip


def _value_label(value: Any, names: Mapping[int, str]) -> str:
    if value is None or value == -1:
        return "Nobody"
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int):
        return seat_label(value, names)
    return _word(str(value))


def _candidates(option: Schema) -> tuple[list[dict[str, Any]], dict[str, Schema]]:
    """The listed actions of one alternative, and the properties left for fields."""
    props: Mapping[str, Schema] = option.get("properties") or {}
    required = set(option.get("required") or [])
    listed: dict[str, list[Any]] = {}
    rest: dict[str, Schema] = {}
    for key, prop in props.items():
        values = finite_values(prop)
        if values is not None and (key in required or key == "type" or len(values) == 1):
            listed[key] = values
        elif key != "reasoning":
            rest[key] = prop
    keys = list(listed)
    combos = itertools.islice(itertools.product(*listed.values()), MAX_CANDIDATES)
    return [dict(zip(keys, combo, strict=True)) for combo in combos], rest


def decision_form(
    schema: Schema, canon: Canon, names: Mapping[int, str], describe: str = ""
) -> dict[str, Any]:
    """``{"question", "choices": [{label, value}], "fields": [...]}`` for a decision (see the
    module docstring). ``canon`` is the legal view's reading of an action: a listed action is
    kept only if it is accepted (with the fields' sample values filled in), once per reading.
    A decision with one choice lists none (its fields and Send are the form)."""
    choices: list[dict[str, Any]] = []
    readings: set[str] = set()
    fields: dict[str, dict[str, Any]] = {}
    for option in _options(schema):
        candidates, rest = _candidates(option)
        required = set(option.get("required") or [])
        for key, prop in rest.items():
            field = _field(key, prop, names, key in required)
            if field and key not in fields:
                fields[key] = field
        filler = {k: _sample(f) for k, f in fields.items() if k in required}
        for candidate in candidates:
            reading = canon({**filler, **candidate})
            if reading is None:
                continue
            listed = {k: reading.get(k) for k in candidate}
            if repr(listed) not in readings:
                readings.add(repr(listed))
                choices.append(listed)
    varying = [
        key
        for key in dict.fromkeys(k for c in choices for k in c)
        if len({repr(c.get(key)) for c in choices}) > 1
    ]
    labelled = [{"label": _choice_label(c, varying, names, describe), "value": c} for c in choices]
    _make_distinct(labelled)
    if len(labelled) == 1:
        labelled[0]["label"] = ""
    return {"question": describe, "choices": labelled, "fields": list(fields.values())}


def _sample(field: Mapping[str, Any]) -> Any:
    """A value of a field good enough to check a listed action with."""
    if field["kind"] == "text":
        return "..."
    if field["kind"] == "vector":
        return [0 if 0 in field["values"] else field["values"][0]] * len(field["cells"])
    if field["kind"] == "select":
        return field["options"][0]["value"]
    if field["kind"] == "records":
        return []
    return field.get("min") or 0


def _make_distinct(choices: list[dict[str, Any]]) -> None:
    seen: dict[str, int] = {}
    for choice in choices:
        label = choice["label"]
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            choice["label"] = f"{label} ({seen[label]})"
