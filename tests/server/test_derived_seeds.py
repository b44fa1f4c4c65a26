"""Games played from one master seed get seeds derived by a keyed hash, never counted up: a
finished game's seed (public once it ends) does not give the next game's deal. ``serve`` and
``simulate`` key the master seed with the operator's deal key first."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from duskfall.arena.simulate import simulate
from duskfall.core.rng import derive_seed, game_seed
from duskfall.server.settings import ServerSettings
from duskfall.store.deals import run_master, run_seed
from duskfall.store.log import read_log

from .support import WireClient, serving, wait_game_done

MASTER = 1000


def test_derived_seeds_are_keyed_and_not_a_sequence() -> None:
    seeds = [game_seed(MASTER, "serve", i) for i in range(50)]
    assert len(set(seeds)) == 50 and not set(seeds) & set(range(MASTER, MASTER + 50))
    steps = {b - a for a, b in itertools.pairwise(seeds)}
    assert len(steps) == 49  # no constant step to extrapolate
    assert [game_seed(MASTER, "serve", i) for i in range(50)] == seeds  # reproducible
    assert game_seed(MASTER + 1, "serve", 0) not in seeds  # another master, other seeds
    assert all(0 <= s < 2**128 for s in seeds) and derive_seed(0, "x") != derive_seed(1, "x")


async def test_serve_seed_derives_each_games_seed(tmp_path: Path) -> None:
    async with serving(tmp_path, games=3, seed=MASTER, fill_bots_after=0, deadline_ms=2000) as s:
        for game in range(3):
            client = await WireClient.open(s.port)
            await client.play(random.Random(game))
            await wait_game_done(s, game + 1)
            await client.close()
    seeds = sorted(read_log(path).header.seed for path in tmp_path.glob("*.jsonl"))
    master = run_master(MASTER, "serve")  # the operator key of this process's index
    assert seeds == sorted(run_seed(master, "serve", i) for i in range(3))
    assert not set(seeds) & {MASTER, MASTER + 1, MASTER + 2}
    assert not set(seeds) & {game_seed(MASTER, "serve", i) for i in range(3)}  # not unkeyed


def test_simulate_seed_derives_each_games_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")
    simulate("sports-mafia", 4, agents="random", first_seed=MASTER, log_dir=str(tmp_path))
    seeds = sorted(read_log(path).header.seed for path in tmp_path.glob("*.jsonl"))
    master = run_master(MASTER, "simulate")  # this process's key: the index is off
    assert seeds == sorted(run_seed(master, "simulate", i) for i in range(4))


def test_serve_and_simulate_without_a_seed_deal_from_a_new_secret_each_run() -> None:
    assert ServerSettings().game_seed(0) != ServerSettings().game_seed(0)
    settings = ServerSettings()
    assert settings.game_seed(1) == settings.game_seed(1) != settings.game_seed(2)
    assert run_master(None, "simulate") != run_master(None, "simulate")
