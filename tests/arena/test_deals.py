"""Deals nobody can compute: seedless tournaments deal from a secret kept sealed in the index,
explicit seeds are keyed with the operator's key, and a published seed leads nowhere."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from pathlib import Path

import pytest

from arena.tournament_kit import bot_config, run
from duskfall.arena.deals import with_deals
from duskfall.arena.progress import tournament_progress
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.seed_release import DealReleases
from duskfall.arena.tournament import dealt_as_stored, stored_config
from duskfall.core.errors import ConfigError
from duskfall.core.rng import keyed_master, secret_seed
from duskfall.export.dataset import export_games
from duskfall.server.settings import ServerSettings
from duskfall.store.deals import DealTable, deal_key, run_master, run_seed, seal, unseal
from duskfall.store.index import GameIndex
from duskfall.store.operator_key import KEY_ENV, KEY_SUFFIX

MILLION = 2**20


def _seeds(db: Path, name: str) -> dict[int, int]:
    with GameIndex(db) as index:
        return {r.tournament_slot or 0: r.seed for r in index.tournament_games(name)}


def test_a_seedless_config_deals_other_games_in_every_index_and_the_same_on_resume(
    tmp_path: Path,
) -> None:
    """Even under one operator key: the secret is drawn per tournament, not from the key."""
    config = bot_config("sides", games=4, seed=None)
    run(config, tmp_path / "a")
    run(config, tmp_path / "b")
    first, second = (
        _seeds(tmp_path / "a/index.db", config.name),
        _seeds(tmp_path / "b/index.db", config.name),
    )
    assert len(first) == len(second) == 8
    assert not set(first.values()) & set(second.values())
    # the schedule read back from the index (its sealed secret) is the one that was played
    with GameIndex(tmp_path / "a/index.db") as index:
        schedule = tournament_progress(config, index).schedule
    assert {slot.index: slot.seed for slot in schedule} == first
    # resume: a slot played again gets the seed it had
    lost = sorted(first)[3]
    with sqlite3.connect(tmp_path / "a/index.db") as raw:
        (game_id, log) = raw.execute(
            "SELECT id, log_path FROM games WHERE tournament_slot = ?", (lost,)
        ).fetchone()
        raw.execute("DELETE FROM games WHERE id = ?", (game_id,))
    Path(log).unlink()
    assert run(config, tmp_path / "a").played == 1
    assert _seeds(tmp_path / "a/index.db", config.name) == first


def test_an_explicit_seed_deals_the_same_games_only_with_the_operators_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(KEY_ENV)  # each index its own key file
    config = bot_config("duplicate", games=4)
    same = [s.seed for s in build_schedule(with_deals(config, tmp_path / "one.db"))]
    assert same == [s.seed for s in build_schedule(with_deals(config, tmp_path / "one.db"))]
    other = [s.seed for s in build_schedule(with_deals(config, tmp_path / "two.db"))]
    assert not set(same) & set(other)  # another operator key: other deals
    key_file = tmp_path / f"one.db{KEY_SUFFIX}"
    (tmp_path / f"three.db{KEY_SUFFIX}").write_text(key_file.read_text())
    copied = [s.seed for s in build_schedule(with_deals(config, tmp_path / "three.db"))]
    assert copied == same  # the key file copied with the config reproduces them


def test_a_sealed_secret_opens_only_with_its_key(tmp_path: Path) -> None:
    key, other = b"k" * 32, b"o" * 32
    sealed = seal(key, "cup", b"s" * 32)
    assert unseal(key, "cup", sealed) == b"s" * 32
    assert b"s" * 32 not in bytes.fromhex(sealed)
    with pytest.raises(ConfigError, match="another operator key"):
        unseal(other, "cup", sealed)
    with pytest.raises(ConfigError, match="has no deals"):
        with_deals(bot_config(seed=None, name="never"), tmp_path / "index.db")


def _published(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """Seeds a tournament with seed 11, ``serve --seed 1000`` and ``simulate --seed 1000``
    publish (their first games': enough for an attacker)."""
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    config = with_deals(bot_config("duplicate", games=4), tmp_path / "index.db")
    tournament = {slot.seed for slot in build_schedule(config)}
    serve = {ServerSettings(seed=1000).game_seed(i) for i in range(3)}
    simulate = {run_seed(run_master(1000, "simulate"), "simulate", i) for i in range(3)}
    assert len(tournament) == 4 and len(serve) == len(simulate) == 3  # 2 blocks, 2 deals each
    return tournament | serve | simulate


def _unkeyed(master: int, label: str) -> int:
    """The derivation anyone could compute from a master seed before the operator's key
    (:func:`duskfall.core.rng.derive_seed`), by hashlib."""
    digest = hashlib.blake2b(label.encode(), key=master.to_bytes(16, "big"), digest_size=16)
    return int.from_bytes(digest.digest(), "big")


def _guessed_key(master: int, purpose: str, label: str) -> int:
    """Today's derivation with a key an attacker might guess (all zeros)."""
    return secret_seed(keyed_master(bytes(32), master, purpose), label)


def test_no_published_seed_comes_from_any_of_the_first_million_master_seeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    published = _published(tmp_path, monkeypatch)
    found = [m for m in range(MILLION) if _unkeyed(m, "serve:0") in published]
    found += [m for m in range(MILLION) if _unkeyed(m, "simulate:0") in published]
    found += [m for m in range(MILLION // 16) if _guessed_key(m, "serve", "serve:0") in published]
    assert found == []


@pytest.mark.slow
def test_no_tournament_seed_comes_from_the_first_masters_by_the_schedules_derivation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schedule's own stream (``derive_rng(master, "tournament:B:D")``, what anyone holding
    a config computed before) of each of the first 2**18 candidate masters (a generator seeded
    per candidate: 10-20 s): without the operator's key the seed 11 is no help."""
    published = _published(tmp_path, monkeypatch)
    for master in range(MILLION // 4):
        text = f"duskfall:{master}:tournament:0:0".encode()
        stream = random.Random(int.from_bytes(text + hashlib.sha512(text).digest()))
        assert stream.getrandbits(63) not in published
        if master % 2**18 == 0:
            print(f"{master:,} masters tried", flush=True)


def test_the_secret_is_in_no_log_export_or_public_column(tmp_path: Path) -> None:
    config = bot_config("sides", games=2, seed=None)
    run(config, tmp_path)
    db = tmp_path / "index.db"
    with DealTable(db) as table:
        secret = table.secret(config.name, deal_key(db))
    assert secret is not None
    forms = [secret, secret.hex().encode(), str(int.from_bytes(secret, "big")).encode()]
    with GameIndex(db) as index:
        rows = index.tournament_games(config.name)
    out = tmp_path / "export"
    assert export_games(rows, out, "jsonl", "duskfall export", db).games == 4
    files = [p for p in tmp_path.rglob("*") if p.is_file() and not p.name.endswith(KEY_SUFFIX)]
    assert any(p.suffix == ".jsonl" for p in files) and db in files
    for path in files:
        data = path.read_bytes()
        assert not any(form in data for form in forms), path
    published = json.loads((out / "games_hidden.jsonl").read_text().splitlines()[0])["seed"]
    assert int(published) in set(_seeds(db, config.name).values())


def test_a_deal_is_released_once_when_its_last_game_ends(tmp_path: Path) -> None:
    schedule = [
        Slot(i, 0, "sports-mafia", 7, {}, ("a",), deal=i // 2, deal_games=2) for i in range(4)
    ]
    db = tmp_path / "index.db"
    releases = DealReleases("cup", schedule, db)
    assert releases.ended([0]) == []
    assert releases.ended([1]) == [0]
    assert releases.ended([1, 0]) == []  # once
    with DealTable(db) as table:
        assert table.released("cup") == {0, 1}
        assert table.released_among([("cup", 1), ("cup", 2), ("other", 0)]) == {("cup", 1)}
    again = DealReleases("cup", schedule, db)  # a driver starting again
    assert again.ended([0, 1, 3]) == [] and again.ended([2]) == [1]


def test_a_tournaments_deals_are_released_as_they_end(tmp_path: Path) -> None:
    config = bot_config("duplicate", games=4)
    run(config, tmp_path)
    with DealTable(tmp_path / "index.db") as table:
        assert table.released(config.name) == set(range(8))


def test_a_tournament_started_before_keyed_deals_keeps_its_deals(tmp_path: Path) -> None:
    """Its copy has no ``deals`` mark: resume and reports deal as its games were dealt."""
    config = bot_config("duplicate", games=2, variants=[{"variant": "sports-mafia"}])
    run(config, tmp_path)
    copy = tmp_path / "games" / "tournament.json"
    stored = json.loads(copy.read_text())
    assert stored.pop("deals") == "keyed"
    copy.write_text(json.dumps(stored))
    legacy = dealt_as_stored(config, tmp_path / "games", tmp_path / "index.db")
    assert legacy.deal_master == 11  # the seed itself, as the schedule used it then
    with GameIndex(tmp_path / "index.db") as index:
        assert stored_config(index, config.name).deal_master == 11
    fresh = tmp_path / "fresh"
    run(config, fresh)  # a new tournament: keyed
    assert json.loads((fresh / "games" / "tournament.json").read_text())["deals"] == "keyed"
