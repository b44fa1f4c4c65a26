"""Small JSON Schema (draft 2020-12) tools for the published schema files.

* :func:`from_type`: a schema from a Python type annotation: the ``TypedDict`` a variant's
  ``view.py`` declares its observation with (``NotRequired`` keys optional, objects closed),
  lists, ``dict[str, X]``, unions, ``Any``.
* :class:`Shape`: the schema of JSON values seen, field by field (the events a variant's rules
  emit, the ``valid_actions`` its legal views give): types merged, a field required when every
  value had it, seat-keyed objects (``{"3": ...}``) as maps, UPPER_CASE words as enums.
* :func:`generalize` and :func:`merge`: a legal view's per-decision schema made into one for
  every decision of its kind (a seat list becomes "an integer"; a name list "a string"; the
  words stay), and such schemas merged (branches matched by their ``const`` fields).
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping
from typing import Any, NotRequired, Required, Union, get_args, get_origin

DRAFT = "https://json-schema.org/draft/2020-12/schema"
WORD = re.compile(r"^[A-Z][A-Z0-9_]*$")
SEAT_KEY = re.compile(r"^-?[0-9]+$")
NUMBER = re.compile(r"^\s*-?[0-9]+\s*$")  # a number written as a string
MAX_WORDS = 40  # more distinct words than this in one field: a string, not an enum

_SCALARS: dict[Any, str] = {int: "integer", float: "number", str: "string", bool: "boolean"}


def from_type(annotation: Any) -> dict[str, Any]:
    """The JSON Schema of values of ``annotation`` (see the module docstring)."""
    origin = get_origin(annotation)
    if annotation is Any or annotation is object:
        return {}
    if annotation is None or annotation is type(None):
        return {"type": "null"}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin in (NotRequired, Required):
        return from_type(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return _union([from_type(arg) for arg in get_args(annotation)])
    if origin in (list, tuple, typing.Sequence) or annotation in (list, tuple):
        args = get_args(annotation)
        return {"type": "array", "items": from_type(args[0])} if args else {"type": "array"}
    if origin in (dict, typing.Mapping) or annotation is dict:
        args = get_args(annotation)
        value = from_type(args[1]) if len(args) == 2 else {}
        return {"type": "object", "additionalProperties": value}
    if typing.is_typeddict(annotation):
        hints = typing.get_type_hints(annotation, include_extras=True)
        required = [name for name, hint in hints.items() if _required(annotation, name, hint)]
        return {
            "type": "object",
            "properties": {name: from_type(hint) for name, hint in hints.items()},
            "required": required,
            "additionalProperties": False,
        }
    raise TypeError(f"no JSON schema for {annotation!r}")


def _required(typed_dict: Any, name: str, hint: Any) -> bool:
    """Whether a TypedDict key is required: ``NotRequired``/``Required`` say so (read from the
    hint: under postponed annotations ``__required_keys__`` cannot see them), else ``total``."""
    origin = get_origin(hint)
    if origin is NotRequired:
        return False
    if origin is Required:
        return True
    return bool(typed_dict.__total__)


def _union(branches: list[dict[str, Any]]) -> dict[str, Any]:
    """``X | Y``: one ``type`` list when every branch is a bare type, else ``anyOf``."""
    if all(set(b) == {"type"} and isinstance(b["type"], str) for b in branches):
        return {"type": [b["type"] for b in branches]}
    return {"anyOf": branches}


class Shape:
    """The schema of the JSON values :meth:`add`-ed to it (see the module docstring)."""

    __slots__ = ("count", "fields", "items", "objects", "present", "types", "words")

    def __init__(self) -> None:
        self.count = 0
        self.objects = 0  # how many of the values were objects
        self.types: set[str] = set()
        self.fields: dict[str, Shape] = {}  # an object's fields
        self.present: dict[str, int] = {}  # how many objects had each field
        self.items: Shape | None = None  # an array's items
        self.words: set[str] | None = set()  # the strings seen, while all are few WORDS

    def add(self, value: Any) -> None:
        self.count += 1
        if value is None:
            self.types.add("null")
        elif isinstance(value, bool):
            self.types.add("boolean")
        elif isinstance(value, int):
            self.types.add("integer")
        elif isinstance(value, float):
            self.types.add("number")
        elif isinstance(value, str):
            self.types.add("string")
            if self.words is not None:
                self.words.add(value)
                if not WORD.match(value) or len(self.words) > MAX_WORDS:
                    self.words = None
        elif isinstance(value, list | tuple):
            self.types.add("array")
            if self.items is None:
                self.items = Shape()
            for item in value:
                self.items.add(item)
        elif isinstance(value, Mapping):
            self.types.add("object")
            self.objects += 1
            for key, item in value.items():
                self.fields.setdefault(str(key), Shape()).add(item)
                self.present[str(key)] = self.present.get(str(key), 0) + 1
        else:
            raise TypeError(f"not JSON: {type(value).__name__}")

    def schema(self) -> dict[str, Any]:
        branches: list[dict[str, Any]] = []
        for kind in sorted(self.types, key=_TYPE_ORDER.index):
            if kind == "object":
                branches.append(self._object())
            elif kind == "array":
                items = self.items.schema() if self.items and self.items.count else {}
                branches.append({"type": "array", "items": items} if items else {"type": "array"})
            elif kind == "string" and self.words:
                branches.append({"type": "string", "enum": sorted(self.words)})
            else:
                branches.append({"type": kind})
        if not branches:
            return {}
        if len(branches) == 1:
            return branches[0]
        return _union(branches)

    def _object(self) -> dict[str, Any]:
        if self.fields and all(SEAT_KEY.match(key) for key in self.fields):
            merged = Shape()
            for shape in self.fields.values():
                merged.absorb(shape)
            return {
                "type": "object",
                "propertyNames": {"pattern": SEAT_KEY.pattern},
                "additionalProperties": merged.schema(),
            }
        seen = self.objects
        return {
            "type": "object",
            "properties": {name: shape.schema() for name, shape in sorted(self.fields.items())},
            "required": sorted(n for n, c in self.present.items() if c == seen and seen),
            "additionalProperties": False,
        }

    def absorb(self, other: Shape) -> None:
        """Merge what ``other`` saw into this shape."""
        self.count += other.count
        self.objects += other.objects
        self.types |= other.types
        for name, shape in other.fields.items():
            self.fields.setdefault(name, Shape()).absorb(shape)
            self.present[name] = self.present.get(name, 0) + other.present.get(name, 0)
        if other.items is not None:
            if self.items is None:
                self.items = Shape()
            self.items.absorb(other.items)
        if self.words is not None and other.words is not None:
            self.words |= other.words
        elif "string" in other.types:
            self.words = None


_TYPE_ORDER = ["object", "array", "string", "integer", "number", "boolean", "null"]


def generalize(schema: Mapping[str, Any]) -> dict[str, Any]:
    """One decision's schema made into its kind's: listed seats become integers (from -1 when
    -1 was listed), listed names strings; ``const`` and UPPER_CASE words stay."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, Mapping):
            out[key] = {name: generalize(sub) for name, sub in value.items()}
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            out[key] = [generalize(sub) for sub in value]
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = generalize(value)
        elif key == "propertyNames":
            out[key] = {"pattern": SEAT_KEY.pattern}
        elif key != "enum":
            out[key] = value
    if "enum" in schema:
        out.pop("type", None)
        out.update(_enum_kind(list(schema["enum"])))
    return out


def _enum_kind(values: list[Any]) -> dict[str, Any]:
    """A listed enum as its kind's schema (see :func:`generalize`)."""
    kinds: list[str] = []
    words: list[str] = []
    low: int | None = None
    for value in values:
        if value is None:
            kind = "null"
        elif isinstance(value, bool):
            kind = "boolean"
        elif isinstance(value, int):
            kind = "integer"
            low = value if low is None else min(low, value)
        elif isinstance(value, str) and WORD.match(value):
            kind = "word"
            words.append(value)
        else:
            kind = "string"
        if kind not in kinds:
            kinds.append(kind)
    branches: list[dict[str, Any]] = []
    for kind in kinds:
        if kind == "integer":
            branches.append({"type": "integer", "minimum": min(low or 0, 0)})
        elif kind == "word":
            if "string" not in kinds:
                branches.append({"type": "string", "enum": words})
        elif kind == "string":  # names (players'): any string but a number
            branches.append({"type": "string", "not": {"pattern": NUMBER.pattern}})
        else:
            branches.append({"type": kind})
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


def merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """The schema of what ``a`` or ``b`` allows, for the schemas :func:`generalize` gives."""
    if a == b:
        return dict(a)
    a_branches, b_branches = _branches(a), _branches(b)
    if len(a_branches) > 1 or len(b_branches) > 1 or not _same_branch(a, b):
        merged: list[dict[str, Any]] = []
        for branch in [*a_branches, *b_branches]:
            for i, have in enumerate(merged):
                if _same_branch(have, branch):
                    merged[i] = merge(have, branch)
                    break
            else:
                merged.append(dict(branch))
        return merged[0] if len(merged) == 1 else {"anyOf": merged}
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            if key not in ("required", "minimum", "maxItems", "minItems"):
                out[key] = value
        elif key == "properties":
            props = dict(out[key])
            for name, sub in value.items():
                props[name] = merge(props[name], sub) if name in props else sub
            out[key] = props
        elif key == "required":
            out[key] = [name for name in out[key] if name in value]
        elif key == "enum":
            out[key] = [*out[key], *(v for v in value if v not in out[key])]
        elif key == "minimum":
            out[key] = min(out[key], value)
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = merge(out[key], value) if isinstance(out[key], Mapping) else value
        elif out[key] != value and key in ("maxLength", "maxItems"):
            out[key] = max(out[key], value)
    if "required" in out and "required" not in b:
        out["required"] = []
    return out


def _branches(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(schema.get("anyOf") or schema.get("oneOf") or [schema])


def _same_branch(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two branches describe the same case: the same ``const`` fields for objects,
    the same ``type`` for plain values."""
    if "properties" in a or "properties" in b:
        return _consts(a) == _consts(b)
    return a.get("type") == b.get("type") and ("const" in a) == ("const" in b)


def _consts(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: sub["const"]
        for name, sub in schema.get("properties", {}).items()
        if isinstance(sub, Mapping) and "const" in sub
    }
