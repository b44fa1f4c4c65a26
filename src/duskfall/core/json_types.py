"""JSON Schema's type names and the Python values that match them."""

from __future__ import annotations

from typing import Any

JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def is_json_type(value: Any, kind: str) -> bool:
    """Whether ``value`` has JSON Schema type ``kind`` (``True`` is never a number; an unknown
    kind matches anything)."""
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, JSON_TYPES.get(kind, (object,)))
