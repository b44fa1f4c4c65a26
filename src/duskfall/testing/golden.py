"""Golden files: the decision count and outcome of random games, per seed (as perft files).

A golden file pins what a variant's rules do under the kit's random play (:func:`play_random`)
for seeds ``0..N-1`` of one config: how many decisions each game took, who won, how it ended
and on which day. Any rules change that alters a game shows up as a diff. Write one after a
deliberate rules change, check it in CI::

    python -m duskfall.testing.golden write tests/golden/mafia-5.json --variant mafia \\
        --config '{"players": 5}' --seeds 50
    python -m duskfall.testing.golden write tests/golden/*.json     # regenerate in place
    python -m duskfall.testing.golden check tests/golden/*.json

or from Python: ``VariantKit("my-game").write_golden(path, config)`` and
``VariantKit("my-game").check_golden(path)``. Variants are found by id (installed ones
through the ``duskfall.variants`` entry points).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from duskfall.core.errors import DuskfallError
from duskfall.core.registry import get_variant
from duskfall.core.variant import Variant
from duskfall.testing.playouts import play_random_game

FORMAT = 1
DEFAULT_SEEDS = 50


def golden_game(variant: Variant, config: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """One seed's record: decisions, winner, termination and the day the game ended."""
    game = play_random_game(variant, config, seed)
    outcome = game.state.outcome()
    assert outcome is not None
    return {
        "seed": seed,
        "decisions": game.decisions,
        "winner": outcome.winner,
        "termination": outcome.termination.value,
        "days": game.state.day,
    }


def golden_games(
    variant: Variant, config: Mapping[str, Any], seeds: Iterable[int]
) -> list[dict[str, Any]]:
    return [golden_game(variant, config, seed) for seed in seeds]


def _dump(variant_id: str, config: Mapping[str, Any], games: list[dict[str, Any]]) -> str:
    """JSON with one game per line, so a changed seed is a one-line diff."""
    rows = ",\n".join(f"    {json.dumps(game)}" for game in games)
    return (
        f'{{\n  "format": {FORMAT},\n  "variant": {json.dumps(variant_id)},\n'
        f'  "config": {json.dumps(dict(config), sort_keys=True)},\n'
        f'  "games": [\n{rows}\n  ]\n}}\n'
    )


def write_golden(
    path: Path | str,
    variant_id: str,
    config: Mapping[str, Any] | None = None,
    seeds: Iterable[int] = range(DEFAULT_SEEDS),
) -> list[dict[str, Any]]:
    """Play ``seeds`` of ``config`` and (over)write the golden file at ``path``."""
    config = dict(config or {})
    games = golden_games(get_variant(variant_id), config, seeds)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(_dump(variant_id, config, games), encoding="utf-8")
    return games


def read_golden(path: Path | str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT or not isinstance(data.get("games"), list):
        raise DuskfallError(f"{path} is not a golden file of format {FORMAT}")
    return data


def regenerate_golden(path: Path | str) -> list[dict[str, Any]]:
    """Rewrite an existing golden file from its own variant, config and seeds."""
    data = read_golden(path)
    seeds = [game["seed"] for game in data["games"]]
    return write_golden(path, data["variant"], data["config"], seeds)


def check_golden(path: Path | str, variant_id: str | None = None) -> None:
    """Replay every seed of the golden file at ``path``; AssertionError lists the differences."""
    data = read_golden(path)
    if variant_id is not None:
        assert data["variant"] == variant_id, f"{path} is a golden file of {data['variant']!r}"
    variant = get_variant(data["variant"])
    expected: list[dict[str, Any]] = data["games"]
    assert expected, f"{path} has no games"
    actual = golden_games(variant, data["config"], [game["seed"] for game in expected])
    diffs = [
        f"  seed {want['seed']}: expected {want}, got {got}"
        for want, got in zip(expected, actual, strict=True)
        if want != got
    ]
    if diffs:
        shown = "\n".join(diffs[:10]) + (
            f"\n  ... {len(diffs) - 10} more" if len(diffs) > 10 else ""
        )
        raise AssertionError(
            f"{path}: {len(diffs)} of {len(expected)} random games of {data['variant']} "
            f"{data['config']} changed:\n{shown}\n"
            f"If the rules change is intended: python -m duskfall.testing.golden write {path}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m duskfall.testing.golden", description=__doc__.split("\n\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write", help="write golden files (regenerate existing ones)")
    write.add_argument("paths", nargs="+", type=Path)
    write.add_argument("--variant", help="variant id (for a new file)")
    write.add_argument("--config", default="{}", help="config as JSON (for a new file)")
    write.add_argument("--seeds", type=int, default=DEFAULT_SEEDS, help="seeds 0..N-1")
    check = commands.add_parser("check", help="check golden files")
    check.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args(argv)
    failed = 0
    for path in args.paths:
        try:
            if args.command == "check":
                check_golden(path)
                print(f"ok       {path}")
            elif args.variant is not None:
                games = write_golden(path, args.variant, json.loads(args.config), range(args.seeds))
                print(f"written  {path} ({len(games)} games)")
            elif path.exists():
                games = regenerate_golden(path)
                print(f"written  {path} ({len(games)} games)")
            else:
                parser.error(f"{path} does not exist: give --variant (and --config)")
        except (AssertionError, DuskfallError, json.JSONDecodeError) as exc:
            failed += 1
            print(f"FAILED   {path}: {exc}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
