"""The JSON Schema files of the wire protocol (``duskfall schema [--variant V] --out DIR``).

Built from the code that speaks the protocol, never written by hand:

* the messages from their pydantic models (:mod:`duskfall.protocol.messages`), closed to the
  fields the server sends (a ``GAME_EVENT``'s payload comes from the variant);
* each decision kind's ``action`` from the variant's legal views (:mod:`duskfall.kit.catalog`),
  closed and with ``type`` required exactly as the server's strict check
  (:func:`~duskfall.protocol.strict.wire_action_schema`);
* the observation from the ``TypedDict`` of the variant's ``view.py`` (declared on its wire
  codec); a state update with ``"partial": true`` carries any of its fields, or null;
* each event from the typed model its variant declares for the kind
  (``VariantInfo.event_types``), else from the rules' events as the server forwards them.

Files (draft 2020-12; each self-contained, ``$defs`` inside)::

    index.json                      what is where
    messages/server.json            any server frame, any variant (payloads open)
    messages/client.json            any client frame
    <variant>/server.json           any server frame of that game
    <variant>/client.json           any client frame of that game
    <variant>/observation.json      a request's observation
    <variant>/actions/<KIND>.json   the action answering a decision of kind KIND (the phase)
    <variant>/events/<EVENT>.json   one GAME_EVENT
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from duskfall.core.model_schema import not_null
from duskfall.core.outcome import Termination
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.variant import Variant
from duskfall.core.wire import DataclassCodec
from duskfall.kit.catalog import Catalog, collect
from duskfall.protocol.errors import ErrorCode
from duskfall.protocol.json_schema import DRAFT, from_type
from duskfall.protocol.messages import (
    ActionPlayed,
    ActionRequest,
    ActionResponse,
    ClientHello,
    ErrorMessage,
    GameEvent,
    ServerHello,
)

BASE_ID = "https://duskfall.invalid/schemas/"
SERVER_MESSAGES = ("ACTION_REQUEST", "GAME_EVENT", "ERROR", "HELLO", "TIMEOUT", "FALLBACK")


def _model(model: type[BaseModel], *, closed: bool) -> dict[str, Any]:
    """A message model's JSON Schema, without pydantic's titles; ``closed``: no other field.
    Optional extensions are left out when unset, so they are never null on the wire."""
    schema = model.model_json_schema()
    out: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    for name, prop in schema.get("properties", {}).items():
        out["properties"][name] = _untitled(
            not_null(prop)
        )  # optional extensions are left out when unset
    out["required"] = [n for n in schema.get("required", [])]
    if "type" in out["properties"] and "type" not in out["required"]:
        out["required"].insert(0, "type")
    if closed:
        out["additionalProperties"] = False
    if model.__doc__:
        out["description"] = " ".join(model.__doc__.split())
    return out


def _untitled(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untitled(v) for k, v in value.items() if k != "title"}
    if isinstance(value, list):
        return [_untitled(v) for v in value]
    return value


def _const(schema: dict[str, Any], name: str, value: Any) -> dict[str, Any]:
    schema["properties"][name] = {"const": value}
    return schema


def message_schemas() -> dict[str, dict[str, Any]]:
    """Every message, variant-independent (``valid_actions``, observations, payloads open)."""
    request = _model(ActionRequest, closed=True)
    request["properties"]["partial"] = {"const": True}
    event = _model(GameEvent, closed=False)
    error = _model(ErrorMessage, closed=True)
    error["properties"]["code"] = {"enum": [code.value for code in ErrorCode]}
    timeout = _const(_model(ActionPlayed, closed=True), "type", "TIMEOUT")
    fallback = _const(_model(ActionPlayed, closed=True), "type", "FALLBACK")
    hello = _model(ServerHello, closed=True)
    response = _model(ActionResponse, closed=True)
    response["properties"]["player_id"] = {
        "description": "informational: the seat is the connection's"
    }
    response["properties"]["action"] = {"type": "object"}
    client_hello = _model(ClientHello, closed=True)
    return {
        "server/ACTION_REQUEST": request,
        "server/GAME_EVENT": event,
        "server/ERROR": error,
        "server/HELLO": hello,
        "server/TIMEOUT": timeout,
        "server/FALLBACK": fallback,
        "client/ACTION_RESPONSE": response,
        "client/HELLO": client_hello,
    }


def _document(schema_id: str, title: str, body: Mapping[str, Any]) -> dict[str, Any]:
    return {"$schema": DRAFT, "$id": BASE_ID + schema_id, "title": title, **body}


def _one_of(defs: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in names], "$defs": dict(defs)}


def generic_files() -> dict[str, dict[str, Any]]:
    """``messages/server.json`` and ``messages/client.json``."""
    messages = message_schemas()
    server = {name: messages[f"server/{name}"] for name in SERVER_MESSAGES}
    client = {name: messages[f"client/{name}"] for name in ("ACTION_RESPONSE", "HELLO")}
    return {
        "messages/server.json": _document(
            "messages/server.json", "A server frame (any variant)", _one_of(server, server)
        ),
        "messages/client.json": _document(
            "messages/client.json", "A client frame (any variant)", _one_of(client, client)
        ),
    }


class VariantSchemas:
    """The schemas of one variant's frames, from its catalog."""

    def __init__(self, variant: Variant, catalog: Catalog | None = None) -> None:
        self.variant = variant
        self.catalog = catalog or collect(variant)
        self.messages = message_schemas()

    # -- pieces --------------------------------------------------------------------------

    def observation(self) -> dict[str, Any]:
        wire = self.variant.info.wire
        declared = wire.observation if wire is not None else None
        return from_type(declared) if declared is not None else {"type": "object"}

    def partial_observation(self) -> dict[str, Any]:
        """A state update's ``changes``: any of the observation's fields, or null (gone)."""
        full = self.observation()
        properties = full.get("properties")
        if not isinstance(properties, dict):
            return {"type": "object"}
        return {
            "type": "object",
            "properties": {
                name: {"anyOf": [sub, {"type": "null"}]} for name, sub in properties.items()
            },
            "additionalProperties": False,
        }

    def actions(self) -> dict[str, dict[str, Any]]:
        return {kind: decision.action for kind, decision in self.catalog.decisions.items()}

    def events(self) -> dict[str, dict[str, Any]]:
        """Each event a seat may be sent (met in the catalog's games): its fields from the
        typed model the variant declares for the kind, else as the games showed them."""
        declared = self.variant.info.event_types
        events: dict[str, dict[str, Any]] = {}
        for kind, shape in self.catalog.events.items():
            model = declared.get(kind)
            schema = model.wire_schema() if model is not None else shape.schema()
            schema["properties"].update(
                type={"const": "GAME_EVENT"}, event={"const": kind}, game_id={"type": "string"}
            )
            schema["properties"]["seq"] = {"type": "integer", "minimum": 1}
            required = schema.setdefault("required", [])
            required += [f for f in ("type", "event", "game_id", "seq") if f not in required]
            audience = sorted(self.catalog.visibility.get(kind, ()))
            schema["description"] = f"sent to: {', '.join(audience)}"
            events[kind] = schema
        events["GAME_OVER"] = self.game_over()
        return events

    def game_over(self) -> dict[str, Any]:
        return {
            "type": "object",
            "description": "sent to everybody; winner null: a draw or an aborted game",
            "properties": {
                "type": {"const": "GAME_EVENT"},
                "event": {"const": "GAME_OVER"},
                "winner": {"enum": [*self.variant.teams, None]},
                "termination": {"enum": [t.value for t in Termination]},
                "reason": {"type": "string"},
                "game_id": {"type": "string"},
                "seq": {"type": "integer", "minimum": 1},
            },
            "required": ["type", "event", "winner", "termination", "reason", "game_id", "seq"],
            "additionalProperties": False,
        }

    def request(self) -> dict[str, Any]:
        """``ACTION_REQUEST``: the observation, and per decision kind its ``valid_actions``."""
        request = json.loads(json.dumps(self.messages["server/ACTION_REQUEST"]))
        props = request["properties"]
        wire = self.variant.info.wire
        kinds = sorted(wire.kinds) if isinstance(wire, DataclassCodec) else []
        props["legal_state"] = {
            "type": "object",
            "properties": {
                "kind": {"enum": kinds} if kinds else {"type": "string"},
                "fields": {"type": "object"},
            },
            "required": ["kind", "fields"],
            "additionalProperties": False,
        }
        rules: list[dict[str, Any]] = [
            {
                "if": {"required": ["partial"]},
                "then": {"properties": {"observation": {"$ref": "#/$defs/partial_observation"}}},
            }
        ]
        for kind, decision in self.catalog.decisions.items():
            rules.append(
                {
                    "if": {
                        "properties": {
                            "phase": {"const": kind},
                            "valid_actions": {"minProperties": 1},
                        },
                        "required": ["phase", "valid_actions"],
                    },
                    "then": {"properties": {"valid_actions": decision.valid_actions.schema()}},
                }
            )
        props["observation"] = {}
        request["allOf"] = [
            *rules,
            {
                "if": {"not": {"required": ["partial"]}},
                "then": {"properties": {"observation": {"$ref": "#/$defs/observation"}}},
            },
        ]
        return request

    def played(self, kind: str) -> dict[str, Any]:
        schema = json.loads(json.dumps(self.messages[f"server/{kind}"]))
        schema["properties"]["phase"] = {"enum": list(self.catalog.decisions)}
        schema["properties"]["action"] = {
            "anyOf": [{"$ref": f"#/$defs/action_{k}"} for k in self.catalog.decisions]
        }
        return schema

    # -- documents -----------------------------------------------------------------------

    def files(self) -> dict[str, dict[str, Any]]:
        """Every file of this variant, by path under the output directory."""
        vid = self.variant.id
        actions, events = self.actions(), self.events()
        observation, partial = self.observation(), self.partial_observation()
        action_defs = {f"action_{k}": v for k, v in actions.items()}
        event_defs = {f"event_{k}": v for k, v in events.items()}
        server_defs: dict[str, Any] = {
            "ACTION_REQUEST": self.request(),
            "GAME_EVENT": {"anyOf": [{"$ref": f"#/$defs/event_{k}"} for k in events]},
            "ERROR": self.messages["server/ERROR"],
            "HELLO": self.messages["server/HELLO"],
            "TIMEOUT": self.played("TIMEOUT"),
            "FALLBACK": self.played("FALLBACK"),
            "observation": observation,
            "partial_observation": partial,
            **event_defs,
            **action_defs,
        }
        response = json.loads(json.dumps(self.messages["client/ACTION_RESPONSE"]))
        response["properties"]["action"] = {
            "anyOf": [{"$ref": f"#/$defs/{k}"} for k in action_defs]
        }
        client_defs = {
            "ACTION_RESPONSE": response,
            "HELLO": self.messages["client/HELLO"],
            **action_defs,
        }
        out = {
            f"{vid}/server.json": _document(
                f"{vid}/server.json",
                f"A server frame of {self.variant.name}",
                {
                    "oneOf": [{"$ref": f"#/$defs/{m}"} for m in SERVER_MESSAGES],
                    "$defs": server_defs,
                },
            ),
            f"{vid}/client.json": _document(
                f"{vid}/client.json",
                f"A client frame of {self.variant.name}",
                {
                    "oneOf": [{"$ref": "#/$defs/ACTION_RESPONSE"}, {"$ref": "#/$defs/HELLO"}],
                    "$defs": client_defs,
                },
            ),
            f"{vid}/observation.json": _document(
                f"{vid}/observation.json", f"A {self.variant.name} observation", observation
            ),
        }
        for kind, schema in actions.items():
            path = f"{vid}/actions/{kind}.json"
            out[path] = _document(path, f"The action answering a {kind} decision", schema)
        for kind, schema in events.items():
            path = f"{vid}/events/{kind}.json"
            out[path] = _document(path, f"GAME_EVENT {kind}", schema)
        return out


def all_files(variants: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every schema file (of ``variants``, default all installed), with ``index.json``."""
    chosen = list(variants) if variants is not None else list(variant_ids())
    files = generic_files()
    index: dict[str, Any] = {"$schema": DRAFT, "messages": sorted(files), "variants": {}}
    for vid in chosen:
        variant_files = VariantSchemas(get_variant(vid)).files()
        files.update(variant_files)
        index["variants"][vid] = sorted(variant_files)
    files["index.json"] = index
    return files


def write(out: Path, variants: Iterable[str] | None = None) -> list[Path]:
    """Write the files under ``out``; returns their paths."""
    written = []
    for name, schema in all_files(variants).items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written
