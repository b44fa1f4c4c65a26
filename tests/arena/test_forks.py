"""The paired-ablation block: forks of the same games, one per entrant, measured from the fork."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from duskfall.arena.forks import (
    REST,
    ForksBlock,
    fork_request,
    fork_slots,
    paired_differences,
    play_forks,
    read_results,
)
from duskfall.core.errors import ConfigError
from duskfall.store.index import use_db
from duskfall.store.log import read_log
from duskfall.testing.forks import play_logged

ENTRANTS = {"smart": "heuristic", "naive": "random"}


def logged_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> Path:
    """``count`` logged werewolf-9 games of heuristic bots, in ``tmp_path/sources``."""
    monkeypatch.setenv("DUSKFALL_DB", "off")
    use_db(None)
    folder = tmp_path / "sources"
    folder.mkdir()
    for seed in range(count):
        play_logged(
            "werewolf", {"preset": "werewolf-9"}, seed, "heuristic", folder / f"{seed:02d}.jsonl"
        )
    return folder


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return logged_games(tmp_path, monkeypatch, 12)


def play_block(block: ForksBlock, base: Path, out: Path) -> list[Path]:
    slots = fork_slots(block, list(ENTRANTS), seed=1, base=base)
    requests = [fork_request(slot, block, ENTRANTS, "ablation", out) for slot in slots]
    return asyncio.run(play_forks(requests, parallel=4))


def check_votes(block: ForksBlock, base: Path, games: int) -> None:
    logs = play_block(block, base, base / "forks")
    assert len(logs) == 2 * games
    results = read_results(logs)
    pairs = {(p.measure, p.first, p.second): p for p in paired_differences(results, list(ENTRANTS))}
    votes = pairs["vote accuracy", "smart", "naive"]
    print(votes.describe())
    assert votes.point > 0 and votes.separated and votes.low > 0
    assert {p.measure for p in pairs.values()} == {"vote accuracy", "survival", "win"}


def test_heuristic_villagers_vote_better_than_random_ones_with_separated_intervals(
    sources: Path, tmp_path: Path
) -> None:
    """Against random wolves (``rest``), from day 1: twelve source games are enough."""
    block = ForksBlock(source="sources/*.jsonl", at="day:1", seats="village", rest="random")
    check_votes(block, tmp_path, 12)


@pytest.mark.slow
def test_in_the_source_games_own_company_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against the source games' own heuristic wolves the gap is smaller: thirty games."""
    logged_games(tmp_path, monkeypatch, 30)
    check_votes(ForksBlock(source="sources/*.jsonl", at="day:1", seats="village"), tmp_path, 30)


def test_the_forks_of_one_source_differ_by_the_entrant_alone(sources: Path, tmp_path: Path) -> None:
    block = ForksBlock(source="sources/0*.jsonl", at="day:2", seats="seer", games=2, repeats=2)
    slots = fork_slots(block, list(ENTRANTS), seed=4, base=tmp_path)
    assert len(slots) == 2 * 2 * 2
    assert len({(s.deal, s.repeat, s.seed) for s in slots}) == 4  # entrants share the seed
    logs = play_block(block, tmp_path, tmp_path / "forks")
    for path in logs:
        log = read_log(path)
        tag, ablation = log.header.extra["tournament"], log.header.extra["ablation"]
        roles = next(e.payload for e in log.events if e.kind == "roles_dealt")["roles"]
        seer = roles.index("Seer")
        assert ablation["seats"] == [seer] and tag["seats"][seer] == ablation["entrant"]
        assert all(name == REST for s, name in enumerate(tag["seats"]) if s != seer)
        roster = {e["seat"]: e["agent"] for e in log.header.roster}
        assert roster[seer] == ENTRANTS[ablation["entrant"]]
        assert all(agent == "heuristic" for s, agent in roster.items() if s != seer)


@pytest.mark.parametrize(
    ("block", "needle"),
    [
        (ForksBlock(source="nowhere/*.jsonl"), "no finished game logs"),
        (ForksBlock(source="sources/*.jsonl", seats=[42]), "seats are 0-8"),
        (ForksBlock(source="sources/*.jsonl", seats="dragon"), "names no seat"),
        (ForksBlock(source="sources/*.jsonl", at="day:30"), "no such moment"),
    ],
)
def test_a_block_that_does_not_fit_is_one_clear_error(
    sources: Path, tmp_path: Path, block: ForksBlock, needle: str
) -> None:
    with pytest.raises(ConfigError, match=needle):
        play_block(block, tmp_path, tmp_path / "forks")
