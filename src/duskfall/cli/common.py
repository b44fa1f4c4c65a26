"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.validation import MAX_DEPTH, check_depth
from duskfall.core.variant import Variant
from duskfall.store.files import read_user_text


def parse_config_options(pairs: list[str] | None, config_file: str | None) -> dict[str, Any]:
    """Merge ``--config-file FILE.json`` and ``--set KEY=VALUE`` options (values parsed as JSON)."""
    config: dict[str, Any] = {}
    if config_file:
        text = read_user_text(config_file, "config file")
        loaded = _json(text, f"config file {config_file}")
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {config_file} must hold a JSON object")
        config.update(loaded)
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set needs KEY=VALUE, got {pair!r}")
        try:
            config[key.strip()] = _json(value, f"--set {key.strip()}")
        except json.JSONDecodeError:
            config[key.strip()] = value
    return config


def _json(text: str, what: str) -> Any:
    """``text`` parsed as JSON, nested at most :data:`MAX_DEPTH` levels (one clear error)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ConfigError(f"{what} is nested more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        if what.startswith("--set"):
            raise
        raise ConfigError(f"{what} is not valid JSON: {exc.msg}") from None
    check_depth(value, what)
    return value


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
    if human < 0:
        raise ConfigError(f"--human {human}: seats are numbered from 0")
    if "=" in agents:
        return f"{human}=human,{agents}"
    if "," in agents:
        parts = agents.split(",")
        if not 0 <= human < len(parts):
            raise ConfigError(f"--human {human}: no such seat")
        parts[human] = "human"
        return ",".join(parts)
    return f"{human}=human,default={agents}"
