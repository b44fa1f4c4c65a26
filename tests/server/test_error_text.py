"""A client decides how long its frames are, not how long the errors they cause are: a frame
of a million-character ``type`` and an answer naming a million-character target are refused
with a short ERROR, and the log keeps their error text capped (one client once made a 20 MB log
in one game)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from duskfall.runtime.capped import CLIENT_TEXT, ERROR_TEXT, capped, one_line

from .support import autoplay, game_log, random_action, seat_clients, serving

HUGE = 1_000_000
SHORT = CLIENT_TEXT + 40  # a capped text and its "... (1,000,008 chars)"


def test_capped_keeps_the_head_and_says_how_long() -> None:
    assert capped("short") == "short"
    text = capped("x" * HUGE)
    assert text.startswith("x" * CLIENT_TEXT) and text.endswith("... (1,000,000 chars)")
    assert len(text) < SHORT


def test_one_line_escapes_breaks_and_controls() -> None:
    line = one_line("a\nb\x1b[31m\u200bc" * HUGE)
    assert "\n" not in line and "\x1b" not in line and "\u200b" not in line
    assert line.startswith("a\\nb\\x1b[31m\\u200bc") and line.isprintable()
    assert len(line) < 3 * SHORT


async def test_huge_client_frames_make_short_errors_and_a_small_log(tmp_path: Path) -> None:
    async with serving(tmp_path, retries=3, games=1, max_frame=4 * HUGE) as server:
        clients = await seat_clients(server.port, 10)
        a, others = clients[0], list(autoplay(clients[1:], seed=5))
        request = await a.request()
        await a.send({"type": "T" * HUGE, "action": {}})
        unknown = await a.error()
        request = await a.request()
        huge_target = {"type": "DECLARATION", "declaration": [0] * 10, "nomination_policy": {}}
        huge_target["nomination_policy"] = {"N" * HUGE: 1}
        await a.answer(request, huge_target)
        refused = await a.error()
        request = await a.request()
        await a.answer(request, random_action(request, random.Random(1)))
        results = await asyncio.gather(a.play(random.Random(2)), *others)
        assert all(r is not None for r in results)
    for error in (unknown, refused):
        assert len(error["detail"]) < SHORT, error["detail"][:300]
    assert "chars)" in refused["detail"]
    log = game_log(server, a.hello["game_id"])  # type: ignore[index]
    errors = [e.payload for e in log.events if e.kind in ("invalid_action", "participant_error")]
    assert len(errors) == 2
    for payload in errors:
        assert len(payload["error"]) < ERROR_TEXT + 100, payload["error"][:300]
    fallback_reasons = [e.payload["reason"] for e in log.events if e.kind == "fallback"]
    assert all(len(reason) < ERROR_TEXT + 100 for reason in fallback_reasons)
    size = (tmp_path / f"{a.hello['game_id']}.jsonl").stat().st_size  # type: ignore[index]
    assert size < HUGE  # the log holds no copy of either frame
