"""Strict wire form: an action must be sent exactly as the decision's JSON schema spells it.

The rules' own parsers are lenient on purpose (LLMs and people write ``"vote"``, ``"3"`` or a
player's name); a program speaking the protocol is held to the documented form instead:
``type`` present and spelled exactly, integers as JSON integers (not ``"3"`` nor ``3.0``),
booleans as ``true``/``false``, words from their list, texts within their ``maxLength``, and
no field the action does not have (a misspelt ``nomination_polcy`` is refused by name, not
ignored). :func:`wire_form_error` checks shapes, JSON types and lengths only; whether a
target is legal is left to the rules, so an illegal target is still ``invalid_target`` and a
wrong action type still ``invalid_action``.

:func:`closed_schema` is the schema this check holds an action to, as JSON Schema: the view's
``schema()`` with every object closed (``additionalProperties: false`` unless it says
otherwise). The published schema files (:mod:`duskfall.protocol.schemas`) are built from it.
"""

from __future__ import annotations

import difflib
import json
import re
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


def closed_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` with every object schema that lists ``properties`` closed to other fields
    (``additionalProperties: false`` where it says nothing), as :func:`wire_form_error` reads it."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, Mapping):
            out[key] = {name: closed_schema(sub) for name, sub in value.items()}
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            out[key] = [closed_schema(sub) for sub in value]
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = closed_schema(value)
        else:
            out[key] = value
    if "properties" in schema and "additionalProperties" not in schema:
        out["additionalProperties"] = False
    return out


def _error(value: Any, schema: Mapping[str, Any], path: str) -> str | None:
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return _branches_error(value, branches, path)
    allowed = _enumerated(schema)
    if allowed is not None:
        return _enum_error(value, allowed, path)
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else list(kind)
        if not any(_is(value, k) for k in kinds):
            return f"{path} must be {' or '.join(kinds)}, not {_show(value)}"
    if isinstance(value, str):
        return _length_error(value, schema, path)
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


def _length_error(value: str, schema: Mapping[str, Any], path: str) -> str | None:
    """Why a string breaks the schema's ``maxLength``/``minLength`` (counted in characters, as
    JSON Schema counts them), or None: the limit the schema publishes is the one enforced."""
    longest, shortest = schema.get("maxLength"), schema.get("minLength")
    if isinstance(longest, int) and len(value) > longest:
        return f"{path} is {len(value)} characters long; at most {longest} are allowed"
    if isinstance(shortest, int) and len(value) < shortest:
        return f"{path} is {len(value)} characters long; at least {shortest} are needed"
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


def _branches_error(value: Any, branches: list[Any], path: str) -> str | None:
    """Why ``value`` matches none of ``branches`` (None if one matches).

    Objects are judged by the branches their ``const`` fields select (the witch's ``potion``),
    so the reason is the chosen branch's; plain values by every branch at once ("one of ...
    or null"), never by whichever reason happens to be shortest.
    """
    errors = [_error(value, branch, path) for branch in branches]
    if not all(errors):
        return None
    if isinstance(value, dict):
        if len(set(errors)) == 1:  # every branch says the same (an unknown field)
            return errors[0]
        chosen = [e for b, e in zip(branches, errors, strict=True) if _selects(b, value)]
        if chosen:
            return min((e for e in chosen if e), key=len)
        unselected = _discriminator_error(value, branches, path)
        if unselected is not None:
            return unselected
        return min((e for e in errors if e), key=len)
    simple = [b for b in branches if isinstance(b, Mapping) and _CHECKED_NESTED.isdisjoint(b)]
    if len(simple) == len(branches):
        return f"{path} must be {' or '.join(_expected(b) for b in simple)}; got {_show(value)}"
    return min((e for e in errors if e), key=len)


_CHECKED_NESTED = frozenset(("anyOf", "oneOf", "properties", "items"))


def _selects(branch: Any, value: Mapping[str, Any]) -> bool:
    """Whether every ``const`` field of an object ``branch`` has its value in ``value``."""
    consts = _consts(branch)
    return bool(consts) and all(value.get(name) == const for name, const in consts.items())


def _consts(branch: Any) -> dict[str, Any]:
    """The ``const`` fields (besides ``type``) of an object branch: what selects it."""
    if not isinstance(branch, Mapping):
        return {}
    return {
        name: sub["const"]
        for name, sub in branch.get("properties", {}).items()
        if isinstance(sub, Mapping) and "const" in sub and name != "type"
    }


def _discriminator_error(value: Mapping[str, Any], branches: list[Any], path: str) -> str | None:
    """``potion must be one of ...`` when a field every branch fixes selects none of them."""
    consts = [_consts(b) for b in branches]
    shared = set.intersection(*(set(c) for c in consts)) if consts else set()
    for name in sorted(shared):
        allowed = [c[name] for c in consts]
        if value.get(name) not in allowed:
            where = f"{path}.{name}" if path != "action" else name
            return _enum_error(value.get(name), allowed, where) or f"{where} is wrong"
    return None


def _expected(schema: Mapping[str, Any]) -> str:
    """What a plain schema asks for, in words: ``one of "A", "B"``, ``null``, ``integer``."""
    allowed = _enumerated(schema)
    if allowed is not None:
        if len(allowed) == 1:
            return _show(allowed[0])
        shown = ", ".join(json.dumps(a) for a in allowed[:12])
        return f"one of {shown}{', ...' if len(allowed) > 12 else ''}"
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    return str(kind) if kind else "any value"


def _object_error(value: dict[str, Any], schema: Mapping[str, Any], path: str) -> str | None:
    properties: Mapping[str, Any] = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    closed = extra is False or (extra is None and "properties" in schema)
    if closed:  # a misspelt field first: it is also why a required one seems missing
        for name in value:
            if name not in properties:
                return _unknown(name, list(properties), path)
    for name in schema.get("required", ()):
        if name not in value:
            return f"{path} needs its {name!r} field"
    for name, item in value.items():
        sub = properties.get(name, extra if isinstance(extra, Mapping) else None)
        if sub is None:
            continue
        error = _error(item, sub, f"{path}.{name}" if path != "action" else name)
        if error:
            return error
    return None


def _unknown(name: str, known: list[str], path: str) -> str:
    """``action has an unknown field 'targte' (did you mean 'target'? its fields: ...)``."""
    fields = ", ".join(repr(n) for n in known)
    close = difflib.get_close_matches(str(name), known, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return f"{path} has an unknown field {str(name)[:40]!r} ({hint}its fields: {fields})"


def _enumerated(schema: Mapping[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    enum = schema.get("enum")
    return list(enum) if isinstance(enum, list) else None


WORD = re.compile(r"^[A-Z][A-Z0-9_]*$")  # a word of a fixed vocabulary (types, potions, roles)
NUMERIC = re.compile(r"^\s*-?[0-9]+\s*$")  # a number sent as a string


def _names(allowed: list[Any]) -> bool:
    """Whether a list of options holds names (players'), not words of a fixed vocabulary."""
    return any(isinstance(a, str) and not WORD.match(a) for a in allowed)


def _enum_error(value: Any, allowed: list[Any], path: str) -> str | None:
    """Words must be one of the list exactly; numbers need only the right JSON type, and
    names only not to be numbers (the rules judge their value)."""
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
        if not ok and _names(allowed):  # a player's name: which one is the rules' call
            if NUMERIC.match(value):
                return f"{path} must be an integer, not the string {_show(value)}"
            return None
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


def wire_action_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema of the actions :func:`wire_form_error` accepts for a view's
    ``schema()``: every object closed (:func:`closed_schema`) and ``type`` required."""
    closed = closed_schema(schema)
    for branch in [closed, *(closed.get("anyOf") or closed.get("oneOf") or ())]:
        if "properties" in branch and "type" in branch["properties"]:
            required = list(branch.get("required", ()))
            if "type" not in required:
                branch["required"] = ["type", *required]
    return closed
