"""A served game whose log cannot be written any more (a full disk) ends for its clients with a
GAME_OVER saying why, instead of leaving them waiting; the server goes on serving."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from duskfall.store.log import LogWriter

from .support import WireClient, serving, wait_game_done


async def test_a_game_whose_log_fails_tells_its_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = 0
    on_event = LogWriter.on_event

    def failing(self: LogWriter, event: Any) -> None:
        nonlocal written
        written += 1
        if written > 30:
            raise OSError(28, "No space left on device")
        on_event(self, event)

    monkeypatch.setattr(LogWriter, "on_event", failing)
    async with serving(tmp_path, fill_bots_after=0, games=1, deadline_ms=2000) as server:
        client = await WireClient.open(server.port)
        over = await client.play(random.Random(1))
        await wait_game_done(server)
    assert over is not None, "no GAME_OVER"
    assert over["termination"] == "aborted"
    assert "could not go on" in over["reason"] and "No space left" in over["reason"]
