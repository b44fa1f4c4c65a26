"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.variant import Variant


def parse_config_options(pairs: list[str] | None, config_file: str | None) -> dict[str, Any]:
    """Merge ``--config-file FILE.json`` and ``--set KEY=VALUE`` options (values parsed as JSON)."""
    config: dict[str, Any] = {}
    if config_file:
        try:
            with open(config_file, encoding="utf-8") as handle:
                loaded = json.load(handle)
        except OSError as exc:
            raise ConfigError(f"cannot read config file {config_file}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"config file {config_file} is not valid JSON: {exc.msg}") from None
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {config_file} must hold a JSON object")
        config.update(loaded)
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set needs KEY=VALUE, got {pair!r}")
        try:
            config[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            config[key.strip()] = value
    return config


def default_agents(variant: Variant) -> str:
    """The built-in bots a game uses when no ``--agents`` is given."""
    return "heuristic" if "heuristic" in variant.bots() else "random"


def resolve_variant(name: str) -> Variant:
    return get_variant(name)


def pick_seed(seed: int | None) -> int:
    """``--seed`` checked (0 <= seed < 2**128), else a secret one drawn from the OS."""
    return new_seed() if seed is None else check_seed(seed, "--seed")


def with_preset(config: Mapping[str, Any], preset: str | None) -> dict[str, Any]:
    out = dict(config)
    if preset is not None:
        out["preset"] = preset
    return out


def with_human(agents: str, human: int | None) -> str:
    """Put a human on seat ``human`` in front of an agent spec."""
    if human is None:
        return agents
    if "=" in agents:
        return f"{human}=human,{agents}"
    if "," in agents:
        parts = agents.split(",")
        if not 0 <= human < len(parts):
            raise ConfigError(f"--human {human}: no such seat")
        parts[human] = "human"
        return ",".join(parts)
    return f"{human}=human,default={agents}"
