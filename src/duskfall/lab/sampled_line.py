"""The win line from the game's own agents: each point estimated by ``fork --samples``.

The bot line (:mod:`duskfall.lab.winline`) asks what the policy's bots would make of each
position. This one asks the game's own seats (models included: their conversations are
brought through the prefix as a fork's are, :mod:`duskfall.lab.warmup`), or the agents given:
at each point the game is forked and played on to its end, with the samples' seeds of
:func:`~duskfall.lab.samples.sample_seeds` (the same seeds at every point). The samples are
dealt round by round (one for every point, then a second for every point...), so a call
budget (``max_calls``: no sample starts once the model calls made after the fork points reach
it) leaves every point estimated before any has more; each point says how many it used
(its ``rollouts``), with its Wilson 95% interval, and a point that got none is left out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from duskfall.lab.fork import ForkRequest, Parent
from duskfall.lab.rollouts import village_won
from duskfall.lab.samples import play_sample, sample_seeds
from duskfall.lab.winline import Every, Progress, Sampled, WinLine, walk_line

OWN_AGENTS = "own agents"  # the line's ``policy`` when the game's own agents play the samples


async def sampled_line(
    parent: Parent,
    *,
    samples: int,
    max_calls: int | None = None,
    agents: str | None = None,
    seed: int = 0,
    every: Every = "phase",
    at: str | None = None,
    progress: Progress | None = None,
) -> WinLine:
    """The line of ``parent`` (read by :func:`~duskfall.lab.fork.load_parent`) from
    ``samples`` continuations per point (module docstring); ``progress`` is told (samples
    played, samples asked)."""
    if samples < 1:
        raise ValueError("at least one sample per point")
    walk = walk_line(parent.log, policy=None, seed=seed, every=every, at=at)
    base = ForkRequest(Path(parent.path), agents=agents, seed=seed, write_log=False,
                       unfinished=True)  # fmt: skip
    wins = [0] * len(walk.chosen)
    played = [0] * len(walk.chosen)
    calls = done = 0
    asked = samples * len(walk.chosen)
    for sample_seed in sample_seeds(base, samples, parent):
        for number, (round_, _) in enumerate(walk.chosen):
            if max_calls is not None and calls >= max_calls:
                break
            request = dataclasses.replace(base, at=str(round_.start))
            outcome, used = await play_sample(request, parent, sample_seed)
            wins[number] += village_won(walk.variant, outcome)
            played[number] += 1
            calls += used
            done += 1
            if progress is not None:
                progress(done, asked)
    line = walk.line(OWN_AGENTS if agents is None else agents, samples, seed)
    line.sampled = Sampled(agents, samples, calls, max_calls)
    for number in range(len(walk.chosen)):
        if played[number]:
            walk.add_point(line, number, wins[number], played[number])
    return walk.finish(line)
