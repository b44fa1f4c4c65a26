"""Many worlds from one position: ``duskfall fork --samples N``.

The fork a request describes is played ``N`` times, each with its own seats' seed (drawn
from the request's, or the parent's, by a keyed hash: the same request gives the same
samples), with the game's own agents unless the request names others (a model's seats too:
``--samples`` multiplies their calls by N). ``--max-calls`` bounds what that costs: no sample
starts once the model calls made after the fork point reach the budget, and the report says
how many were played of those asked. The samples write no log of their own; what comes back is
how each ended, as shares of the sides with Wilson 95% intervals.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field

from duskfall.core.outcome import Outcome
from duskfall.core.rng import derive_rng
from duskfall.core.stats import Proportion
from duskfall.lab.fork import ForkRequest, Parent, load_parent, plan_fork, read_parent
from duskfall.llm.calls import call_report
from duskfall.store.index import GameIndex

DRAW = "draw"


@dataclass
class Samples:
    """How ``n`` continuations of one position ended: winners (team, or ``draw``) counted."""

    n: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    seeds: list[int] = field(default_factory=list)
    asked: int = 0
    calls: int = 0  # model calls made after the fork point, all samples together

    def shares(self) -> dict[str, Proportion]:
        """Each outcome's share of the samples, most frequent first."""
        return {team: Proportion(k, self.n) for team, k in self.winners.most_common()}

    def describe(self) -> list[str]:
        lines = []
        if self.n < self.asked:
            lines.append(
                f"stopped at the call budget: {self.n} of {self.asked} samples played "
                f"({self.calls} model calls)"
            )
        for team, share in self.shares().items():
            low, high = share.interval()
            shown = f"{share.rate:.0%} [{low:.0%}, {high:.0%}]"
            lines.append(f"{team}: {share.successes}/{self.n} = {shown}")
        return lines


def sample_seeds(request: ForkRequest, samples: int, parent: Parent | None = None) -> list[int]:
    """The seats' seeds of the samples: from the request's seed, else the parent's (``parent``:
    its log already read)."""
    base = request.seed
    if base is None:
        log = read_parent(request.source) if parent is None else parent.log
        base = log.header.seats_seed
    return [derive_rng(base, f"fork-samples:{i}").getrandbits(63) for i in range(samples)]


async def sample_forks(
    request: ForkRequest,
    samples: int,
    max_calls: int | None = None,
    *,
    parent: Parent | None = None,
    index: GameIndex | None = None,
) -> Samples:
    """Play the fork of ``request`` ``samples`` times, starting none once ``max_calls`` model
    calls have been made after the fork point (module docstring). The parent is read (and
    checked in the game ``index``, if open) once for all of them, unless given read."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    parent = load_parent(request.source, index) if parent is None else parent
    found = Samples(asked=samples)
    for seed in sample_seeds(request, samples, parent):
        if max_calls is not None and found.calls >= max_calls:
            break
        outcome, calls = await play_sample(request, parent, seed)
        found.n += 1
        found.seeds.append(seed)
        found.winners[outcome.winner or DRAW] += 1
        found.calls += calls
    return found


async def play_sample(request: ForkRequest, parent: Parent, seed: int) -> tuple[Outcome, int]:
    """One continuation of the fork of ``request`` with the seats' ``seed``, no log written:
    how it ended and the model calls it made after the fork point."""
    one = dataclasses.replace(request, seed=seed, write_log=False, log_path=None)
    planned = plan_fork(one, parent=parent)
    await planned.preflight()
    game = planned.start()
    outcome = await game.run()
    played = game.record.events[planned.origin.prefix :]
    return outcome, call_report(played).calls
