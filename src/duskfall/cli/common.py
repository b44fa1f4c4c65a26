"""Options and helpers shared by CLI commands."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import typer

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.rng import check_seed, new_seed
from duskfall.core.user_files import read_user_text
from duskfall.core.validation import MAX_DEPTH, check_depth
from duskfall.core.variant import Variant
from duskfall.runtime.settings import SEAT_FAILURE_POLICIES

SeatToken = Annotated[
    str | None,
    typer.Option(
        envvar="DUSKFALL_SEAT_TOKEN",
        help="seat token to send in the HELLO (a tournament's remote seat sets it)",
    ),
]
"""The ``--token`` option of a command that plays one seat of a server's game."""
HelloTimeout = Annotated[
    float, typer.Option(min=0.1, help="seconds to connect and to get the server's HELLO")
]
"""The ``--timeout`` option of a command that connects to a game server."""

RetriesOpt = Annotated[int, typer.Option(help="re-asks after an invalid answer")]
TimeoutOpt = Annotated[float, typer.Option(help="seconds per decision")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="only print the result")]
OnSeatFailureOpt = Annotated[
    str,
    typer.Option(
        "--on-seat-failure",
        help="a seat whose agent fails 3 decisions in a row (a model that cannot be reached): "
        f"{' or '.join(SEAT_FAILURE_POLICIES)} (play its fallbacks to the end)",
    ),
]


def parse_config_options(
    pairs: list[str] | None, config_file: str | None, option: str = "--set"
) -> dict[str, Any]:
    """Merge ``--config-file FILE.json`` and ``--set KEY=VALUE`` options (values parsed as JSON);
    ``option`` is the name errors give the pairs' option (``--agent-option``)."""
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
            raise ConfigError(f"{option} needs KEY=VALUE, got {pair!r}")
        try:
            config[key.strip()] = _json(value, f"{option} {key.strip()}")
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
        if what.startswith("--"):  # an option's value: kept as plain text
            raise
        raise ConfigError(f"{what} is not valid JSON: {exc.msg}") from None
    except ValueError:  # an integer over Python's limit of digits
        raise ConfigError(f"{what} holds a number with too many digits") from None
    check_depth(value, what)
    return value


def check_port(port: int) -> int:
    """``--port`` within 0..65535 (0: any free port), else one ConfigError."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}: a port is a number from 0 to 65535")
    return port


def default_agents(variant: Variant) -> str:
    """The built-in bots a game uses when no ``--agents`` is given."""
    return "heuristic" if "heuristic" in variant.bots() else "random"


def resolve_variant(name: str) -> Variant:
    return get_variant(name)


def pick_seed(seed: int | None) -> int:
    """``--seed`` checked (0 <= seed < 2**128), else a secret one drawn from the OS."""
    return new_seed() if seed is None else check_seed(seed, "--seed")


def with_preset(config: Mapping[str, Any], preset: str | None, variant: Variant) -> dict[str, Any]:
    """``config`` with ``--preset``; a variant without presets says which variants have them."""
    out = dict(config)
    if preset is None:
        return out
    if "preset" not in variant.config_model.model_fields:
        having = [v for v in variant_ids() if "preset" in get_variant(v).config_model.model_fields]
        hint = f"; add --variant {having[0]}" if len(having) == 1 else ""
        raise ConfigError(
            f"--preset {preset}: {variant.id} has no presets (presets are for "
            f"{', '.join(having) or 'no installed variant'}){hint}"
        )
    out["preset"] = preset
    return out


def with_humans(agents: str, humans: Sequence[int]) -> str:
    """Put a person on each of the seats ``humans`` (``--human``, repeatable: hot-seat play)
    in front of an agent spec. A seat the spec gives to another agent by number (a per-seat
    list, ``3=random``) is refused, not silently overridden."""
    if not humans:
        return agents
    for seat in humans:
        if seat < 0:
            raise ConfigError(f"--human {seat}: seats are numbered from 0")
    repeated = sorted({seat for seat in humans if humans.count(seat) > 1})
    if repeated:
        raise ConfigError(f"--human {repeated[0]} is given more than once")
    parts = [part.strip() for part in agents.split(",")]
    named = _agents_by_seat(parts)
    for seat in humans:
        agent = named.get(seat)
        if agent is not None and agent != "human":
            raise ConfigError(
                f"--human {seat} conflicts with --agents, which gives seat {seat} to {agent!r}; "
                f"put 'human' there in --agents, or drop --human {seat}"
            )
    if len(parts) > 1 and all("=" not in part for part in parts):
        for seat in humans:
            if seat >= len(parts):
                raise ConfigError(
                    f"--human {seat}: seat {seat} does not exist (the --agents list has "
                    f"{len(parts)} seats)"
                )
        return agents  # every human seat already says 'human'
    given = [f"{seat}=human" for seat in humans]
    rest = agents if any("=" in part for part in parts) else f"default={agents}"
    return ",".join([*given, rest])


def _agents_by_seat(parts: Sequence[str]) -> dict[int, str]:
    """The agents an agent spec gives to seats by number (a per-seat list, ``3=random``)."""
    if len(parts) > 1 and all("=" not in part for part in parts):
        return dict(enumerate(parts))
    named = {}
    for part in parts:
        key, sep, agent = part.partition("=")
        if sep and key.strip().isdigit():
            named[int(key.strip())] = agent.strip()
    return named
