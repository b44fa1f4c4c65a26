"""The JSON Schema of a pydantic model as it is dumped whole (a variant's typed event on the
wire): every field present, objects closed, ``$ref`` inlined, no titles or defaults; a mapping
whose keys match a pattern says so with ``propertyNames`` (closed to other keys)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pydantic import BaseModel

_DROPPED = ("title", "default", "$defs", "description")


def dumped_schema(model: type[BaseModel], *, exclude: Collection[str] = ()) -> dict[str, Any]:
    """The schema of ``model.model_dump(mode="json")`` less the fields ``exclude`` names."""
    schema = model.model_json_schema(mode="serialization")
    defs: Mapping[str, Any] = schema.get("$defs", {})

    def inline(value: Any) -> Any:
        if isinstance(value, list):
            return [inline(v) for v in value]
        if not isinstance(value, dict):
            return value
        if "$ref" in value:
            target = defs[value["$ref"].rsplit("/", 1)[-1]]
            return inline({**target, **{k: v for k, v in value.items() if k != "$ref"}})
        out = {k: inline(v) for k, v in value.items() if k not in _DROPPED}
        keyed = out.get("patternProperties")
        if isinstance(keyed, dict) and len(keyed) == 1 and "properties" not in out:
            # a mapping whose keys match a pattern (seats), closed to other keys
            ((pattern, item),) = keyed.items()
            del out["patternProperties"]
            out.update(propertyNames={"pattern": pattern}, additionalProperties=item)
        if isinstance(out.get("properties"), dict):
            out["required"] = list(out["properties"])  # a dump writes every field
            out["additionalProperties"] = False
        return out

    closed: dict[str, Any] = inline(schema)
    for name in exclude:
        closed["properties"].pop(name, None)
    closed["required"] = list(closed["properties"])
    return closed


def not_null(prop: Mapping[str, Any]) -> dict[str, Any]:
    """``X | None`` as ``X``, without a default: the schema of a field that is left out, never
    sent as null, when it does not apply."""
    branches = prop.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b.get("type") != "null"]
        if len(kept) == 1:
            rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
            return {**kept[0], **rest}
    return {k: v for k, v in prop.items() if k != "default"}
