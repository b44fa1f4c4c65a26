"""The kit's fork checks: a fork rebuilds its parent exactly, and its seats see what they may.

* :func:`check_forks`: logged games of the variant's bots, forked at every phase boundary with
  the parent's agents and seed, play the parent's game again event for event; each fork's log
  replays and its link to the parent verifies (:func:`duskfall.lab.lineage.verify_fork`).
* :func:`check_fork_prompts`: forks whose seats are a scripted model: at every decision after
  the fork, the prompt the seat was sent (as its ``llm_call`` event records it) holds every
  event its seat could see, the parent's prefix included, and no line of any other (the kit's
  prompt property, :func:`duskfall.testing.prompts.check_shown`, run on forks).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import Event
from duskfall.core.registry import get_variant
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.lab.lineage import verify_fork
from duskfall.lab.rounds import Round, rounds_of
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import Replayer, replay
from duskfall.testing.prompts import check_shown, kit_of, split_seen


def play_logged(
    variant_id: str, config: Mapping[str, Any], seed: int, agents: str, path: Path
) -> Path:
    """Play and log one game; returns its log's path."""
    setup = GameSetup(variant_id, seed=seed, agents=agents, config=config, log_path=path)
    asyncio.run(run_game(setup))
    return path


def phase_boundaries(path: Path) -> list[Round]:
    """The first round of every phase of the logged game at ``path``."""
    return [round_ for round_ in rounds_of(read_log(path)) if round_.opens_phase]


def _content(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [{**event.to_dict(), "game_id": ""} for event in events]


def check_forks(
    variant_id: str,
    configs: Iterable[Mapping[str, Any]],
    tmp_path: Path,
    agents: str = "heuristic",
    seeds: Iterable[int] = range(1),
) -> int:
    """See the module docstring; returns how many forks were checked."""
    checked = 0
    tmp_path = tmp_path / f"forks-{agents}"
    tmp_path.mkdir(parents=True, exist_ok=True)
    for number, config in enumerate(configs):
        for seed in seeds:
            parent = play_logged(
                variant_id, config, seed, agents, tmp_path / f"parent-{number}-{seed}.jsonl"
            )
            original = read_log(parent)
            for round_ in phase_boundaries(parent):
                where = f"{variant_id} {dict(config)} seed {seed} at {round_.label}"
                out = tmp_path / f"fork-{number}-{seed}-{round_.number}.jsonl"
                asyncio.run(run_fork(ForkRequest(parent, at=str(round_.start), log_path=out)))
                forked = read_log(out)
                assert _content(forked.events) == _content(original.events), (
                    f"{where}: the fork with the parent's agents and seed plays another game"
                )
                replay(forked)
                verdict = verify_fork(forked, out)
                assert verdict is not None and verdict.link is not None, f"{where}: no link"
                assert verdict.origin.event == round_.start, f"{where}: forked elsewhere"
                checked += 1
    assert checked, "no fork was checked"
    return checked


def check_fork_prompts(
    variant_id: str,
    configs: Iterable[Mapping[str, Any]],
    tmp_path: Path,
    seeds: Iterable[int] = range(1),
    every: int = 1,
    parent_agents: str = "heuristic",
) -> int:
    """See the module docstring: forks at every ``every``-th phase boundary; returns how
    many prompts were checked. The scripted seats keep no conversation (``memory=stateless``),
    so each prompt must hold the seat's whole history by itself."""
    variant = get_variant(variant_id)
    if variant.info.prompt_kit is None:
        return 0
    checked = 0
    tmp_path = tmp_path / "fork-prompts"
    tmp_path.mkdir(parents=True, exist_ok=True)
    for number, config in enumerate(configs):
        for seed in seeds:
            parent = play_logged(
                variant_id, config, seed, parent_agents, tmp_path / f"p-{number}-{seed}.jsonl"
            )
            for round_ in phase_boundaries(parent)[::every]:
                out = tmp_path / f"f-{number}-{seed}-{round_.number}.jsonl"
                request = ForkRequest(
                    parent,
                    at=str(round_.start),
                    agents="llm:scripted",
                    log_path=out,
                    agent_options={"memory": "stateless"},
                )
                asyncio.run(run_fork(request))
                checked += _check_logged_prompts(out, round_.start)
    assert checked, "no prompt was checked"
    return checked


def _check_logged_prompts(path: Path, first: int) -> int:
    """Check the prompt of every model call of the game at ``path`` from event ``first`` on."""
    log = read_log(path)
    replayer = Replayer(log.header)
    kit = kit_of(replayer.variant)
    so_far: list[Event] = []
    checked = 0
    for event in log.events:
        if event.kind == kinds.LLM_CALL and event.seq >= first:
            seat = int(event.payload["seat"])
            state = replayer.state
            seen, unseen = split_seen(so_far, state, seat)
            messages = _messages(event.payload["messages"])
            user = next(m["content"] for m in reversed(messages) if m["role"] == "user")
            talk = "\n".join(m["content"] for m in messages)
            check_shown(kit, state.observe(seat), seat, seen, unseen, user, talk)
            checked += 1
        replayer.take(event)
        so_far.append(event)
    return checked


def _messages(recorded: Any) -> list[dict[str, str]]:
    """The messages of an ``llm_call`` event."""
    assert isinstance(recorded, list), "an llm_call event records its messages as a list"
    return recorded
