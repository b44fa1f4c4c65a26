"""``duskfall train`` and the ``trained:PATH`` agent (the ``[learn]`` extra, imported lazily)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from duskfall.agents.kinds import register_agent_kind
from duskfall.cli import app
from duskfall.cli.console import safe_console
from duskfall.cli.progress import progress_bar
from duskfall.core.errors import ConfigError

register_agent_kind(
    "trained",
    "duskfall.learn.trained:make_trained_agent",
    "trained:<policy.json> (sports-mafia; from duskfall train)",
    options=lambda options: (),
)


@app.command()
def train(
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="variant to train")
    ] = "sports-mafia",
    minutes: Annotated[float, typer.Option(min=0.1, help="time budget of the training")] = 14.0,
    out: Annotated[Path, typer.Option(help="folder for checkpoints and the curve")] = Path(
        "runs/sports-mafia"
    ),
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="processes")] = 2,
    games: Annotated[int, typer.Option(min=2, help="games per candidate and generation")] = 48,
    popsize: Annotated[int, typer.Option(min=4, help="CMA-ES population size")] = 16,
    seed: Annotated[int, typer.Option(help="seed of the search and of its games")] = 0,
    method: Annotated[
        str,
        typer.Option(
            help="policy: CMA-ES self-play of a linear policy over the env observation; "
            "seed001: CMA-ES over seed 001's probabilistic policy parameters"
        ),
    ] = "policy",
) -> None:
    """Train a policy by CMA-ES self-play (sports-mafia); play it with --agents trained:PATH."""
    if method not in ("policy", "seed001"):
        raise ConfigError(f"--method must be policy or seed001, not {method!r}")
    if variant != "sports-mafia":
        raise ConfigError(
            f"training exists for sports-mafia only, not {variant!r} "
            "(the PettingZoo environments of duskfall.learn cover every variant)"
        )
    from duskfall.learn import require

    require()
    console = safe_console()
    if method == "seed001":
        _search(console, out, minutes, workers, seed, games, popsize)
        return
    from duskfall.learn.train import CurvePoint, TrainSettings
    from duskfall.learn.train import train as run_training

    settings = TrainSettings(
        out=out, minutes=minutes, workers=workers, games=games, popsize=popsize, seed=seed
    )
    budget = minutes * 60
    with progress_bar(console, "generation 0", budget, steps=False, keep=True) as bar:

        def show(seconds: float, point: CurvePoint) -> None:
            text = f"generation {point.generation}: fitness {point.mean_fitness:.3f}"
            if point.red_vs_random is not None:
                text += (
                    f", vs random RED {point.red_vs_random:.1%} BLACK {point.black_vs_random:.1%}"
                )
            bar.update(completed=min(seconds, budget), description=text)

        result = run_training(settings, show)
    last = result.curve[-1] if result.curve else None
    console.print(
        f"{len(result.curve)} generations; policy: {result.policy}"
        + (f" (fitness {last.mean_fitness:.3f})" if last else "")
        + f"\nplay it: duskfall simulate --variant sports-mafia "
        f"--agents red=trained:{result.policy},black=random",
        highlight=False,
        markup=False,
    )


def _search(
    console: Any, out: Path, minutes: float, workers: int, seed: int, games: int, popsize: int
) -> None:
    from duskfall.learn.search import search

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot write checkpoints in {out}: {exc.strerror}") from None
    path = out / "seed001-params.json"
    budget = minutes * 60
    with progress_bar(console, "generation 0", budget, steps=False) as bar:

        def show(generation: int, seconds: float, fitness: float) -> None:
            bar.update(
                completed=min(seconds, budget),
                description=f"generation {generation}: fitness {fitness:.3f}",
            )

        curve = search(
            path, minutes, games=games, popsize=popsize, workers=workers, seed=seed, progress=show
        )
    (out / "seed001-curve.json").write_text(json.dumps(curve, indent=1))
    console.print(
        f"{len(curve)} generations; parameters: {path}\nplay them: duskfall simulate "
        f"--variant sports-mafia --agents red=trained:{path},black=random",
        highlight=False,
        markup=False,
    )
