"""The same server and framing serve every installed variant."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.core.registry import variant_ids
from duskfall.store.replay import replay

from .support import WireClient, game_log, serving, wait_game_done


@pytest.mark.parametrize("variant", [v for v in variant_ids() if v != "sports-mafia"])
async def test_variant_served_over_the_wire(tmp_path: Path, variant: str) -> None:
    async with serving(
        tmp_path, variant=variant, fill_bots_after=0, games=1, deadline_ms=100, retries=0
    ) as server:
        client = await WireClient.open(server.port)
        assert client.hello is not None and client.hello["variant"] == variant
        request = await client.request()
        assert request["observation"] and request["valid_actions"]
        await client.answer(request, {"type": "NOT_A_MOVE"})
        error = await client.error()
        assert error["code"] in ("invalid_action", "bad_format"), error
        rest = await client.closed_after()  # silent from now on: fallbacks play the seat
        await wait_game_done(server)
    assert rest[-1]["type"] == "GAME_EVENT" and rest[-1]["event"] == "GAME_OVER"
    requests = [m for m in client.seen if m["type"] == "ACTION_REQUEST"]
    assert {m["player_id"] for m in requests} == {client.seat}
    replay(game_log(server, client.hello["game_id"]))
