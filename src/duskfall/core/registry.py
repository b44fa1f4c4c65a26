"""Finding variants: the ``duskfall.variants`` entry-point group, plus programmatic registration.

A package adds a variant without editing duskfall by declaring, in its ``pyproject.toml``::

    [project.entry-points."duskfall.variants"]
    my-game = "my_package.my_game:VARIANT"

Variants are imported on first use only.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from duskfall.core.errors import ConfigError
from duskfall.core.variant import Variant

ENTRY_POINT_GROUP = "duskfall.variants"

_REGISTERED: dict[str, str] = {}
_LOADED: dict[str, Variant] = {}


def register_variant(variant_id: str, target: str) -> None:
    """Register a variant as ``"package.module:ATTRIBUTE"`` (besides the entry points)."""
    _REGISTERED[variant_id] = target
    _LOADED.pop(variant_id, None)


def _targets() -> dict[str, str]:
    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    found.update(_REGISTERED)
    return found


def variant_ids() -> list[str]:
    """Ids of the registered variants."""
    return list(_targets())


def get_variant(variant_id: str) -> Variant:
    """Find a variant by id; a wrong id raises ConfigError listing the valid ones."""
    loaded = _LOADED.get(variant_id)
    if loaded is not None:
        return loaded
    targets = _targets()
    target = targets.get(variant_id)
    if target is None:
        raise ConfigError(f"unknown variant {variant_id!r}; valid variants: {', '.join(targets)}")
    module_name, _, attr = target.partition(":")
    try:
        variant: Variant = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"variant {variant_id!r} cannot be loaded from {target}: {exc}") from None
    _LOADED[variant_id] = variant
    return variant
