"""The kit's check of a variant's typed events: every event of random games converts to the
model the variant declares for its kind (``VariantInfo.event_types``) and back unchanged, down
to its JSON text (Python finds ``1 == True == 1.0``; a client does not)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from duskfall.core.variant import Variant
from duskfall.testing.playouts import play_random


def check_event_types(
    variant: Variant, configs: Iterable[Mapping[str, Any]], seeds: Iterable[int]
) -> set[str]:
    """Check every event of the games of ``configs`` x ``seeds``; the kinds met. A variant that
    declares no types has nothing to check."""
    declared = variant.info.event_types
    met: set[str] = set()
    if not declared:
        return met
    for config in configs:
        for seed in seeds:
            _, events = play_random(variant, config, seed)
            for event in events:
                model = declared.get(event.kind)
                assert model is not None, f"{event.kind!r}: an event kind with no declared type"
                try:
                    typed = model.from_event(event)
                except ValueError as exc:
                    raise AssertionError(f"{event.kind!r} does not fit its type: {exc}") from exc
                again = typed.to_event()
                assert again.same_content(event), (event.to_dict(), again.to_dict())
                assert _json(again.payload) == _json(event.payload), (
                    f"{event.kind!r} comes back as other JSON: {_json(event.payload)} != "
                    f"{_json(again.payload)}"
                )
                met.add(event.kind)
    return met


def _json(payload: Mapping[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True)
