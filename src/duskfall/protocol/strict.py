"""Strict wire form: an action must be sent exactly as the decision's JSON schema spells it.

The rules' own parsers are lenient on purpose (LLMs and people write ``"vote"``, ``"3"`` or a
player's name); a program speaking the protocol is held to the documented form instead:
``type`` present and spelled exactly, integers as JSON integers (not ``"3"`` nor ``3.0``),
booleans as ``true``/``false``, words from their list. :func:`wire_form_error` checks shapes
and JSON types only; whether a target is legal is left to the rules, so an illegal target is
still ``invalid_target`` and a wrong action type still ``invalid_action``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from duskfall.core.json_types import is_json_type


def wire_form_error(action: Any, schema: Mapping[str, Any]) -> str | None:
    """Why ``action`` is not in the wire form of ``schema`` (a one-line reason), or None."""
    if not isinstance(action, dict):
        return f"an action is a JSON object, not {_show(action)}"
    types = _action_types(schema)
    if "type" not in action:
        shown = ", ".join(json.dumps(t) for t in types)
        return f'the action needs its "type" ({shown})'
    given = action["type"]
    if isinstance(given, str) and types and given.strip().upper() not in types:
        return None  # another action altogether: the rules refuse it as invalid_action
    return _error(action, schema, "action")


def _error(value: Any, schema: Mapping[str, Any], path: str) -> str | None:
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        errors = [_error(value, branch, path) for branch in branches]
        if all(errors):
            return min((e for e in errors if e), key=len)
        return None
    allowed = _enumerated(schema)
    if allowed is not None:
        return _enum_error(value, allowed, path)
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else list(kind)
        if not any(_is(value, k) for k in kinds):
            return f"{path} must be {' or '.join(kinds)}, not {_show(value)}"
    if isinstance(value, dict):
        return _object_error(value, schema, path)
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        if _all_of_leaf_type(value, schema["items"]):
            return None  # the common case, checked in one pass (declarations, claim rows)
        for index, item in enumerate(value):
            error = _error(item, schema["items"], f"{path}[{index}]")
            if error:
                return error
    return None


# The exact Python types a JSON decoder gives for each scalar JSON type.
_LEAF_TYPES: dict[str, frozenset[type]] = {
    "integer": frozenset((int,)),
    "number": frozenset((int, float)),
    "string": frozenset((str,)),
    "boolean": frozenset((bool,)),
    "null": frozenset((type(None),)),
}
_CHECKED = frozenset(("anyOf", "oneOf", "const", "enum", "properties"))


def _all_of_leaf_type(values: list[Any], schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` asks only for a scalar JSON type, or for arrays of such (a matrix),
    and every value has it exactly.

    True means :func:`_error` finds nothing in any of ``values``; False decides nothing (the
    values are then checked one by one, for the message).
    """
    kind = schema.get("type")
    if not isinstance(kind, str) or not _CHECKED.isdisjoint(schema):
        return False
    items = schema.get("items")
    if kind == "array" and isinstance(items, Mapping):
        return all(type(row) is list and _all_of_leaf_type(row, items) for row in values)
    exact = _LEAF_TYPES.get(kind)
    if exact is None or items is not None:
        return False
    return exact.issuperset(map(type, values))  # every value's exact type allowed (in C)


def _object_error(value: dict[str, Any], schema: Mapping[str, Any], path: str) -> str | None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            return f"{path} needs its {name!r} field"
    extra = schema.get("additionalProperties")
    for name, item in value.items():
        sub = properties.get(name, extra if isinstance(extra, Mapping) else None)
        if sub is None:
            continue  # unknown fields are ignored, as everywhere in the protocol
        error = _error(item, sub, f"{path}.{name}" if path != "action" else name)
        if error:
            return error
    return None


def _enumerated(schema: Mapping[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    enum = schema.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _enum_error(value: Any, allowed: list[Any], path: str) -> str | None:
    """Words must be one of the list exactly; numbers need only the right JSON type (the rules
    judge their value)."""
    if value is None and None in allowed:
        return None
    if isinstance(value, bool):
        ok = any(isinstance(a, bool) for a in allowed)
    elif isinstance(value, int):
        ok = any(_is(a, "integer") for a in allowed)
    elif isinstance(value, float):
        ok = any(isinstance(a, float) for a in allowed)
    elif isinstance(value, str):
        ok = value in allowed
    else:
        ok = False
    if ok:
        return None
    shown = ", ".join(json.dumps(a) for a in allowed[:12]) + (", ..." if len(allowed) > 12 else "")
    return f"{path} must be one of {shown}; got {_show(value)}"


def _action_types(schema: Mapping[str, Any]) -> list[str]:
    """Every ``type`` the schema allows (across its branches)."""
    types: list[str] = []
    for branch in [schema, *(schema.get("anyOf") or schema.get("oneOf") or ())]:
        prop = branch.get("properties", {}).get("type")
        if isinstance(prop, Mapping):
            types += [str(t) for t in _enumerated(prop) or () if str(t) not in types]
    return types


_is = is_json_type


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
