"""A small JSON-schema toolkit for model replies.

* :func:`extract_json` pulls the first JSON object out of a reply, leniently (Markdown fences,
  chatter before or after it);
* :func:`validate` checks a value against the subset of JSON schema that decisions use
  (``type``, ``enum``, ``const``, ``properties``, ``required``, ``additionalProperties``,
  ``items``, ``minItems``/``maxItems``, ``minimum``/``maximum``, ``minLength``/``maxLength``,
  ``anyOf``/``oneOf``/``allOf``, local ``$ref``) and returns readable errors for retry hints;
* :func:`example` builds a valid instance (deterministically from an ``rng``), which is how
  the scripted provider and the loopback test servers answer schema-constrained requests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from duskfall.core.json_types import is_json_type
from duskfall.core.lenient_json import NoJSON, lenient_json

__all__ = ["NoJSON", "example", "extract_json", "validate"]


def extract_json(text: str) -> Any:
    """The first JSON object in ``text`` (see :mod:`duskfall.core.lenient_json`)."""
    return lenient_json(text)


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return schema
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part]
    return _resolve(node, root)


def _type_ok(value: Any, kind: str) -> bool:
    if kind == "integer" and isinstance(value, float):
        return value.is_integer()  # lenient: a model's 3.0 is the integer 3
    return is_json_type(value, kind)


def validate(value: Any, schema: Mapping[str, Any]) -> list[str]:
    """Errors of ``value`` against ``schema`` as ``"path: problem"`` lines; empty if valid."""
    errors: list[str] = []
    _check(value, schema, schema, "$", errors)
    return errors


def _check(
    value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: str, errors: list[str]
) -> None:
    schema = _resolve(schema, root)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = schema[key]
            if not any(not _sub_errors(value, opt, root, path) for opt in options):
                errors.append(f"{path}: matches none of the allowed forms")
                return
    for sub in schema.get("allOf", ()):
        _check(value, sub, root, path, errors)
    kind = schema.get("type")
    if kind is not None:
        kinds = [kind] if isinstance(kind, str) else list(kind)
        if not any(_type_ok(value, k) for k in kinds):
            errors.append(f"{path}: expected {' or '.join(kinds)}, got {json.dumps(value)[:60]}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: must be {json.dumps(schema['const'])}")
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(json.dumps(v) for v in schema["enum"][:20])
        errors.append(f"{path}: {json.dumps(value)[:60]} is not one of {choices}")
    if isinstance(value, dict):
        _check_object(value, schema, root, path, errors)
    elif isinstance(value, list):
        _check_array(value, schema, root, path, errors)
    elif isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than {schema['maxLength']} characters")
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: above the maximum {schema['maximum']}")


def _sub_errors(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: str) -> bool:
    found: list[str] = []
    _check(value, schema, root, path, found)
    return bool(found)


def _check_object(
    value: dict[str, Any],
    schema: Mapping[str, Any],
    root: Mapping[str, Any],
    path: str,
    errors: list[str],
) -> None:
    props: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            errors.append(f"{path}: missing required field {name!r}")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in props:
            _check(item, props[name], root, f"{path}.{name}", errors)
        elif extra is False:
            errors.append(f"{path}: unexpected field {name!r}")
        elif isinstance(extra, Mapping):
            _check(item, extra, root, f"{path}.{name}", errors)


def _check_array(
    value: list[Any],
    schema: Mapping[str, Any],
    root: Mapping[str, Any],
    path: str,
    errors: list[str],
) -> None:
    if len(value) < schema.get("minItems", 0):
        errors.append(f"{path}: fewer than {schema['minItems']} items")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: more than {schema['maxItems']} items")
    items = schema.get("items")
    if isinstance(items, Mapping):
        for i, item in enumerate(value):
            _check(item, items, root, f"{path}[{i}]", errors)


def example(schema: Mapping[str, Any], rng: random.Random | None = None) -> Any:
    """A value valid against ``schema``; random choices come from ``rng`` (default: seed 0)."""
    return _example(schema, schema, rng or random.Random(0))


def _example(schema: Mapping[str, Any], root: Mapping[str, Any], rng: random.Random) -> Any:
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(list(schema["enum"]))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return _example(rng.choice(list(schema[key])), root, rng)
    if "allOf" in schema:
        merged: dict[str, Any] = {}
        for sub in schema["allOf"]:
            merged.update(_resolve(sub, root))
        return _example(merged, root, rng)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if not isinstance(kind, str):
        kind = rng.choice([k for k in kind if k != "null"] or ["null"])
    if kind == "object":
        props: Mapping[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", props))
        return {k: _example(v, root, rng) for k, v in props.items() if k in required}
    if kind == "array":
        count = max(schema.get("minItems", 0), min(1, schema.get("maxItems", 1)))
        items = schema.get("items", {"type": "string"})
        return [_example(items, root, rng) for _ in range(count)]
    if kind in ("integer", "number"):
        low = int(schema.get("minimum", 0))
        high = int(schema.get("maximum", low + 9))
        return rng.randint(low, max(low, high))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    text = "ok"
    return text[: schema.get("maxLength", len(text))].ljust(schema.get("minLength", 0), "k")
