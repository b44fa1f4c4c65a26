"""Rebuild a seat's legal actions from a request (for built-in agents playing over the wire).

A client only has the wire form: the seed's ``valid_actions`` and duskfall's ``legal_state``
extension. Each variant declares how to read them back in ``info.wire``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.legal import LegalActions
from duskfall.core.registry import variant_ids
from duskfall.core.variant import Variant


def check_wire_support(variant: Variant) -> None:
    """Raise ConfigError unless built-in agents can read ``variant``'s wire actions."""
    if variant.id not in variant_ids():
        raise ConfigError(f"variant {variant.id} is not installed here")
    if variant.info.wire is None:
        raise ConfigError(f"variant {variant.id} declares no wire codec; agents cannot play it")


def legal_from_wire(
    variant: Variant,
    phase: str,
    valid_actions: Mapping[str, Any],
    legal_state: Mapping[str, Any] | None = None,
) -> LegalActions:
    """The legal actions behind a request; ValueError if they cannot be read."""
    wire = variant.info.wire
    if wire is None:
        raise ValueError(f"variant {variant.id} declares no wire codec (info.wire)")
    return wire.legal_from_wire(phase, valid_actions, legal_state)
