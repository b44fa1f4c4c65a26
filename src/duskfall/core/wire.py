"""A :class:`~duskfall.core.variant.WireCodec` for legal views that are plain dataclasses.

A variant declares a table of short names (``{"target": TargetChoice, ...}``); a legal view
goes on the wire as ``{"kind": "target", "fields": {...}}`` (its dataclass fields, tuples as
lists) and comes back as the same object. Only the declared classes are ever built from the
wire, and no Python path crosses it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from duskfall.core.legal import LegalActions

ValidActionsReader = Callable[[str, Mapping[str, Any]], LegalActions]


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    if isinstance(value, dict):
        return {k: _from_json(v) for k, v in value.items()}
    return value


class DataclassCodec:
    """Encodes the legal views named in ``kinds``; ``read_valid_actions`` (optional) rebuilds a
    view from the seed's ``valid_actions`` alone, for servers that send no ``legal_state``;
    ``observation`` is the type of the observation a request carries (the ``TypedDict`` of the
    variant's ``view.py``), from which its published JSON schema is made."""

    def __init__(
        self,
        variant_id: str,
        kinds: Mapping[str, type[Any]],
        read_valid_actions: ValidActionsReader | None = None,
        *,
        observation: type[Any] | None = None,
    ) -> None:
        for name, cls in kinds.items():
            if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
                raise TypeError(f"legal_state kind {name!r}: {cls!r} is not a dataclass")
        self.variant_id = variant_id
        self.observation = observation
        self.kinds: dict[str, type[Any]] = dict(kinds)
        self._names: dict[type[Any], str] = {cls: name for name, cls in kinds.items()}
        self._read = read_valid_actions

    def legal_state(self, legal: LegalActions) -> dict[str, Any] | None:
        """``{"kind": NAME, "fields": {...}}`` for a declared view, else None."""
        cls: type[Any] = type(legal)
        name = self._names.get(cls)
        if name is None:
            return None
        fields = {f.name: _to_json(getattr(legal, f.name)) for f in dataclasses.fields(cls)}
        return {"kind": name, "fields": fields}

    def legal_from_wire(
        self,
        phase: str,
        valid_actions: Mapping[str, Any],
        legal_state: Mapping[str, Any] | None,
    ) -> LegalActions:
        """The legal view behind a request; ValueError if it cannot be read."""
        if legal_state is not None:
            return self.from_legal_state(legal_state)
        if self._read is None:
            raise ValueError(
                f"the server sent no legal_state and {self.variant_id}'s valid_actions "
                "cannot be read back"
            )
        return self._read(phase, valid_actions)

    def from_legal_state(self, legal_state: Any) -> LegalActions:
        """Rebuild a view from its ``legal_state``; only the declared kinds are accepted."""
        if not isinstance(legal_state, Mapping):
            raise ValueError("legal_state must be an object")
        kind = legal_state.get("kind")
        cls = self.kinds.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise ValueError(
                f"unknown legal_state kind {kind!r} for {self.variant_id}; "
                f"known kinds: {', '.join(sorted(self.kinds))}"
            )
        fields = legal_state.get("fields")
        if not isinstance(fields, Mapping):
            raise ValueError("legal_state needs its 'fields' object")
        names = {f.name for f in dataclasses.fields(cls) if f.init}
        try:
            legal: LegalActions = cls(**{k: _from_json(v) for k, v in fields.items() if k in names})
        except TypeError as exc:
            raise ValueError(f"legal_state {kind!r} has wrong fields: {exc}") from None
        return legal
