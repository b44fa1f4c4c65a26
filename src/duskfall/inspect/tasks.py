"""The inspect_ai tasks, one per registered variant: ``duskfall/werewolf``, ``duskfall/mafia``,
``duskfall/sports_mafia``...

::

    inspect eval duskfall/werewolf --model openai/gpt-4o-mini -T opponents=heuristic -T games=20

Each sample is one game; the model under evaluation holds the sample's seats through inspect's
own model API, the ``opponents`` agent every other seat. Task options (``-T NAME=VALUE``):

* ``games`` (20): games to play, one sample each;
* ``opponents`` (``heuristic``): the agent of the other seats (``random``, ``heuristic``,
  ``llm:local``, ``llm:openai:MODEL@URL``, ``llm:inspect:PROVIDER/MODEL``...);
* ``seats`` (``rotate``): the model's seats: ``rotate`` (game ``i`` gives it seat ``i mod N``),
  ``all``, seat numbers (``0,3``) or a team or role (``werewolf``, ``seer``);
* ``preset``: the role preset (``werewolf-6``...); ``config``: other config options (a mapping);
* ``seed``: a base seed making every game reproducible (each game's seed is derived from it);
  without it each game's seed is secret, drawn by duskfall;
* ``beliefs`` (``daily``): ask the model's seats P(evil) of each player once a day, for the
  calibration score (``off``: not asked);
* ``options``: other agent options of the model's seats (a mapping, or JSON text), as
  ``--agent-option`` takes them (``memory``, ``reasoning_chars``, ``max_tokens``...);
* ``log_dir`` (``games``) and ``db`` (duskfall's default index): where the duskfall logs and
  index rows of the games go.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from duskfall.core.errors import ConfigError
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.variant import parse_config
from duskfall.inspect.game import GamePlan, play_game, use_index
from duskfall.inspect.scorers import behaviour, calibration, win
from duskfall.llm.provider_kinds import register_provider

# ``llm:inspect`` (the model under evaluation) and ``llm:inspect:PROVIDER/MODEL``
register_provider("inspect", "duskfall.inspect.provider:InspectProvider")


def _mapping(value: Mapping[str, Any] | str | None, what: str) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{what} must be a mapping or JSON object text: {exc}") from None
    if not isinstance(value, Mapping):
        raise ConfigError(f"{what} must be a mapping, not {type(value).__name__}")
    return dict(value)


def duskfall_task(
    variant_id: str,
    *,
    games: int,
    opponents: str,
    seats: str,
    preset: str | None,
    config: Mapping[str, Any] | str | None,
    seed: int | None,
    beliefs: str,
    options: Mapping[str, Any] | str | None,
    log_dir: str,
    db: str | None,
) -> Task:
    """The task of one variant (see the module docstring for the options)."""
    if games < 1:
        raise ConfigError(f"games must be at least 1, not {games}")
    if beliefs not in ("daily", "off"):
        raise ConfigError(f"beliefs must be daily or off, not {beliefs!r}")
    variant = get_variant(variant_id)
    settings = _mapping(config, "config")
    if preset is not None:
        settings["preset"] = preset
    num_seats = variant.new_game(parse_config(variant, settings), 0).num_seats
    agent_options = {"beliefs": beliefs, **_mapping(options, "options")}
    use_index(db)
    plan = GamePlan(
        variant=variant.id,
        config=settings,
        opponents=str(opponents),
        seats=str(seats),
        seed=seed,
        agent_options=agent_options,
        log_dir=Path(log_dir).resolve(),
        task=f"duskfall/{variant.id}",
    )
    label = f"{variant.id}" + (f" ({preset})" if preset else "")
    samples = [
        Sample(
            id=game + 1,
            input=f"Game {game + 1} of {label}: the model plays seats '{seats}' "
            f"against {opponents}.",
            metadata={"game": game, "num_seats": num_seats},
        )
        for game in range(games)
    ]
    return Task(
        dataset=MemoryDataset(samples, name=f"duskfall-{variant.id}"),
        solver=play_game(plan),
        scorer=[win(), behaviour(), calibration()],
        metadata={
            "variant": variant.id,
            "config": settings,
            "opponents": opponents,
            "seats": seats,
            "agent_options": agent_options,
        },
    )


def _variant_task(variant_id: str) -> Callable[..., Task]:
    """The ``@task`` of one registered variant (named after it: ``duskfall/sports_mafia``)."""
    variant = get_variant(variant_id)

    def run(
        games: int = 20,
        opponents: str = "heuristic",
        seats: str = "rotate",
        preset: str | None = None,
        config: dict[str, Any] | str | None = None,
        seed: int | None = None,
        beliefs: str = "daily",
        options: dict[str, Any] | str | None = None,
        log_dir: str = "games",
        db: str | None = None,
    ) -> Task:
        return duskfall_task(variant_id, games=games, opponents=opponents, seats=seats,
                             preset=preset, config=config, seed=seed, beliefs=beliefs,
                             options=options, log_dir=log_dir, db=db)  # fmt: skip

    name = variant_id.replace("-", "_")
    presets = ", ".join(variant.info.presets)
    run.__name__ = run.__qualname__ = name
    run.__doc__ = (
        f"{variant.name} ({', '.join(variant.info.roles)}"
        + (f"; presets {presets}" if presets else "")
        + "), one game per sample."
    )
    return task(name=name)(run)


TASKS: dict[str, Callable[..., Task]] = {
    variant_id.replace("-", "_"): _variant_task(variant_id) for variant_id in variant_ids()
}
"""Every registered variant's task, by task name (``werewolf``, ``sports_mafia``...)."""


def __getattr__(name: str) -> Callable[..., Task]:
    """``from duskfall.inspect.tasks import werewolf``: a variant's task by its name."""
    try:
        return TASKS[name]
    except KeyError:
        raise AttributeError(name) from None
