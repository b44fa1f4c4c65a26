"""The ``legal_state`` extension: a seat's legal-actions object in plain JSON.

``valid_actions`` is the seed's wire form, enough for a client written by hand. Built-in
agents playing over the wire need the variant's own legal-actions object (to sample, parse,
fall back), so the server also sends it as ``{"class": "module:Name", "fields": {...}}``.
It holds only what the seat is being asked, so it reveals nothing ``valid_actions`` and the
observation do not. Clients that do not know the field ignore it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any

ALLOWED_PREFIX = "duskfall.variants."


def legal_to_state(legal: Any) -> dict[str, Any] | None:
    """The JSON form of a dataclass legal-actions object, or None for other kinds."""
    if not dataclasses.is_dataclass(legal) or isinstance(legal, type):
        return None
    cls = type(legal)
    fields = {f.name: getattr(legal, f.name) for f in dataclasses.fields(legal)}
    try:
        json.dumps(fields)
    except (TypeError, ValueError):
        return None
    return {"class": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def legal_from_state(state: Any) -> Any:
    """Rebuild a legal-actions object; only classes of duskfall's variants are accepted."""
    if not isinstance(state, dict) or not isinstance(state.get("class"), str):
        raise ValueError("legal_state must be an object with a 'class'")
    module_name, _, name = state["class"].partition(":")
    if not module_name.startswith(ALLOWED_PREFIX) or not name.isidentifier():
        raise ValueError(f"legal_state class {state['class']!r} is not a duskfall variant's")
    cls: Any = getattr(importlib.import_module(module_name), name, None)
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        raise ValueError(f"legal_state class {state['class']!r} is not a legal-actions type")
    fields = state.get("fields")
    if not isinstance(fields, dict):
        raise ValueError("legal_state needs its 'fields'")
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: _tuples(v) for k, v in fields.items() if k in names})
