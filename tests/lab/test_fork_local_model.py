"""A fork played on by the embedded model: its seat's first prompt holds the prefix its seat
saw (a speech and the exile of day 1), never the wolves' chat of a village seat, and the fork
plays to its end and verifies."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.core.events import visible_to
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.lab.lineage import verify_fork
from duskfall.store.log import read_log
from duskfall.store.replay import new_state_for, replay
from duskfall.testing.forks import play_logged
from duskfall.testing.require import require

pytestmark = [pytest.mark.llm, pytest.mark.timeout(1800)]


async def test_a_local_model_seat_plays_a_fork_on_with_the_whole_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require("llama_cpp", "pip install 'duskfall[local]'")
    monkeypatch.setenv("DUSKFALL_DB", "off")
    parent = tmp_path / "parent.jsonl"
    import asyncio

    await asyncio.to_thread(
        play_logged, "werewolf", {"preset": "werewolf-6"}, 2, "heuristic", parent
    )
    log = read_log(parent)
    roles = new_state_for(log)[1].roles()
    villager = next(s for s, r in roles.items() if r == "Villager")
    out = tmp_path / "fork.jsonl"
    request = ForkRequest(
        parent, at="day:2", agents=f"{villager}=llm:local,default=heuristic", log_path=out
    )
    print(f"forking {parent.name} at day 2 with seat {villager} on the local model", flush=True)
    game = await run_fork(request)
    forked = read_log(out)
    assert forked.finished and replay(forked).actions > 0
    verdict = verify_fork(forked, out, parent)
    assert verdict is not None and verdict.link is not None
    calls = [e for e in forked.events if e.kind == "llm_call" and e.payload["seat"] == villager]
    assert calls, "the model seat was never asked"
    first = "\n".join(m["content"] for m in calls[0].payload["messages"])
    state = new_state_for(forked)[1]
    prefix = forked.events[: verdict.origin.prefix]
    speech = next(e for e in prefix if e.kind == "speech" and e.visibility == "public")
    assert speech.payload["text"] in first
    wolf_chat = [
        e
        for e in prefix
        if e.kind == "speech" and not visible_to(e, villager, state.channels(villager))
    ]
    assert wolf_chat and all(e.payload["text"] not in first for e in wolf_chat)
    assert game.state.outcome() is not None
