"""The win-probability line: seeded, exact at the end, ordered by known strengths, and shown by
``duskfall analyse`` with what it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import CliRun
from duskfall.core.errors import ConfigError
from duskfall.lab.winline import win_line
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing.forks import play_logged


def test_the_line_has_a_point_per_phase_and_ends_exactly(parent: Path) -> None:
    log = read_log(parent)
    line = win_line(log, rollouts=20, seed=1)
    phases = {(e.day, e.phase) for e in log.events if e.kind == "action"}
    assert len(line.points) == len(phases) + 1
    end = line.points[-1]
    assert end.exact and end.interval() == (end.chance.rate, end.chance.rate)
    outcome = log.outcome
    assert outcome is not None and end.chance.rate == float(outcome.winner == "village")
    for point in line.points[:-1]:
        low, high = point.interval()
        assert point.rollouts == 20 and low <= point.chance.rate <= high
    assert "estimate under the 'heuristic' bot policy" in line.note


def test_the_same_seed_gives_the_same_line_and_another_seed_another(parent: Path) -> None:
    log = read_log(parent)
    first = win_line(log, rollouts=6, seed=5).to_dict()
    assert win_line(log, rollouts=6, seed=5).to_dict() == first
    others = [win_line(log, rollouts=6, seed=seed).to_dict() for seed in (6, 7)]
    assert any(o["points"] != first["points"] for o in others)


def test_a_point_at_every_round_and_who_left_in_which(parent: Path) -> None:
    log = read_log(parent)
    line = win_line(log, rollouts=2, every="round")
    assert len(line.points) > 40
    left = [d for p in line.points for d in p.departures]
    assert all(len(p.departures) <= 1 for p in line.points)  # one round between two points
    gone = set(range(12)) - set(replay(log).state.alive())
    assert sorted(seat for d in left for seat in d.seats) == sorted(gone)


def test_a_stronger_village_policy_gives_the_village_better_chances(
    tmp_path: Path, index: Path
) -> None:
    """A planted strength: heuristic villagers against random wolves, and the other way round."""
    strong = weak = 0.0
    for seed in range(3):
        log = read_log(
            play_logged(
                "werewolf", {"preset": "werewolf-9"}, seed, "random", tmp_path / f"{seed}.jsonl"
            )
        )
        strong += (
            win_line(log, policy="village=heuristic,werewolf=random", rollouts=30)
            .points[0]
            .chance.rate
        )
        weak += (
            win_line(log, policy="village=random,werewolf=heuristic", rollouts=30)
            .points[0]
            .chance.rate
        )
    assert strong / 3 > 0.6 > 0.2 > weak / 3


def test_a_policy_that_is_not_bots_is_refused(parent: Path) -> None:
    with pytest.raises(ConfigError, match="rollouts are played by bots"):
        win_line(read_log(parent), policy="llm:scripted")


def test_analyse_prints_the_line_its_swings_and_what_it_is(parent: Path, cli: CliRun) -> None:
    code, out, err = cli("analyse", str(parent), "-n", "6")
    assert code == 0, err
    text = " ".join(out.split())
    assert "village's chance of winning" in text and "the end" in text and "exact" in text
    assert "largest swings" in text and "out: village" in text
    assert "an estimate under the 'heuristic' bot policy: 6 seeded rollouts per point" in text
    code, out, err = cli("analyse", str(parent), "-n", "1", "--json", "--every", "round")
    assert code == 0, err
    data = json.loads(out.strip().splitlines()[-1])
    assert data["every"] == "round" and data["points"][-1]["exact"] and data["note"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--policy", "llm:local"), "played by bots"),
        (("--every", "minute"), "--every"),
        (("--seed", "-3"), "seed"),
    ],
)
def test_analyse_errors_are_one_line(
    parent: Path, cli: CliRun, args: tuple[str, ...], needle: str
) -> None:
    code, _out, err = cli("analyse", str(parent), "-n", "2", *args)
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and needle in lines[0], err


def test_analyse_reads_the_whole_game_a_forks_prefix_too(
    parent: Path, cli: CliRun, tmp_path: Path
) -> None:
    """A replaced speech sits at the end of the fork's prefix: analyse finds it there."""
    import asyncio

    from duskfall.lab.fork import ForkRequest, run_fork
    from duskfall.store.replay import new_state_for

    log = read_log(parent)
    roles = new_state_for(log)[1].roles()
    speech = next(
        e
        for e in log.events
        if e.kind == "speech"
        and e.visibility == "public"
        and roles[e.payload["seat"]] == "Werewolf"
    )
    out = tmp_path / "planted.jsonl"
    planted = f"{speech.seq}=Fine, I am a werewolf, but so what."
    asyncio.run(run_fork(ForkRequest(parent, replace=planted, log_path=out)))
    code, text, err = cli("analyse", str(out), "-n", "1", "--json")
    assert code == 0, err
    leaks = json.loads(text.strip().splitlines()[-1])["leaks"]
    found = [f for f in leaks["findings"] if f["kind"] == "self" and f["event"] == speech.seq]
    assert found and found[0]["event"] < leaks["prefix"]
    code, text, err = cli("analyse", str(out), "-n", "1")
    assert code == 0 and f"event {speech.seq} (before the fork)" in " ".join(text.split())
