"""``fork --samples N``: N continuations of one position, each its own seed, and how they
ended (the same request, the same samples)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import CliRun
from duskfall.lab.fork import ForkRequest
from duskfall.lab.samples import sample_forks, sample_seeds


def test_samples_of_one_position_end_in_a_distribution(parent: Path) -> None:
    request = ForkRequest(parent, at="day:2", agents="random")
    found = asyncio.run(sample_forks(request, 12))
    assert found.n == 12 and sum(found.winners.values()) == 12
    assert len(set(found.seeds)) == 12 and found.seeds == sample_seeds(request, 12)
    assert len(found.winners) >= 2  # random seats: the same position ends either way
    for share in found.shares().values():
        low, high = share.interval()
        assert 0 <= low < share.rate < high <= 1
    again = asyncio.run(sample_forks(request, 12))
    assert again.winners == found.winners
    assert not list(parent.parent.glob("werewolf-*.jsonl"))  # the samples write no log


def test_the_command_shows_the_shares(parent: Path, cli: CliRun) -> None:
    code, out, err = cli("fork", str(parent), "--at", "day:2", "--samples", "4", "--agents",
                         "random")  # fmt: skip
    assert code == 0, err
    text = " ".join(out.split())
    assert "4 continuations from the same position" in text and "/4 = " in text
    code, out, err = cli("fork", str(parent), "--at", "day:2", "--samples", "0")
    assert code == 2 and "Traceback" not in err


def test_a_call_budget_stops_model_samples_and_says_so(parent: Path, cli: CliRun) -> None:
    """Model seats' calls after the fork point are counted; no sample starts past the budget."""
    request = ForkRequest(parent, at="day:2", agents="llm:scripted")
    whole = asyncio.run(sample_forks(request, 3))
    assert whole.n == 3 and whole.calls > 0
    per_sample = whole.calls / 3
    budgeted = asyncio.run(sample_forks(request, 3, max_calls=1))
    assert budgeted.n == 1 and budgeted.asked == 3 and budgeted.calls >= 1
    assert budgeted.calls <= per_sample * 2  # one sample's calls, not three
    assert budgeted.describe()[0].startswith("stopped at the call budget: 1 of 3 samples")
    args = ("--at", "day:2", "--agents", "llm:scripted", "--samples", "3", "--max-calls", "1")
    code, out, err = cli("fork", str(parent), *args)
    assert code == 0 and "1 of 3 samples played" in " ".join(out.split()), err
    code, out, err = cli("fork", str(parent), "--max-calls", "5")
    assert code == 2 and "give --samples N too" in err
