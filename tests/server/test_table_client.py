"""A client that knows only the generated wire tables (docs/*.md) plays whole games, strictly.

It never touches duskfall's legal classes: it reads the table of its variant from the page,
and for each request fills the table's fields from the request's ``valid_actions``.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest

from duskfall.testing.wire_tables import read_table

from .support import WireClient, game_log, seat_clients, serving

DOCS = Path(__file__).resolve().parents[2] / "docs"
SEATS = {"werewolf": 12, "mafia": 8}


def table_action(
    table: dict[str, list[dict[str, str]]], request: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """An action for ``request`` from a table row of its phase (a case the request offers, e.g.
    a potion it lists) and its valid_actions."""
    valid = request["valid_actions"]
    rows = [row for row in table[request["phase"]] if _offered(row, valid)]
    action: dict[str, Any] = {}
    for key, spec in rng.choice(rows).items():
        name, optional = key.rstrip("?"), key.endswith("?")
        options = valid.get(name)
        if _WORD.match(spec) and name != "type":
            action[name] = spec  # this case's fixed value
            continue
        if isinstance(options, dict):  # options per value of a field chosen before
            options = next(
                options[v] for v in action.values() if isinstance(v, str) and v in options
            )
        if isinstance(options, list) and options:
            action[name] = rng.choice(options)
        elif (isinstance(options, str) and name != "type") or (options is None and not optional):
            assert "string" in spec.split("|"), f"{request['phase']}: no options for {name}"
            action[name] = "I have nothing to hide."
        elif isinstance(options, str):
            action[name] = options
    return action


_WORD = re.compile(r"^[A-Z][A-Z_]*$")


def _offered(row: dict[str, str], valid: dict[str, Any]) -> bool:
    """Whether the request offers this row's case (its fixed words are among the options)."""
    for key, spec in row.items():
        name = key.rstrip("?")
        options = valid.get(name)
        if (
            name != "type"
            and _WORD.match(spec)
            and isinstance(options, list)
            and spec not in options
        ):
            return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(SEATS))
async def test_a_table_only_client_plays_a_whole_game(variant: str, tmp_path: Path) -> None:
    table = read_table((DOCS / f"{variant}.md").read_text(encoding="utf-8"), variant)
    async with serving(tmp_path, games=1, variant=variant, retries=0) as server:
        clients = await seat_clients(server.port, SEATS[variant])

        async def play(client: WireClient, rng: random.Random) -> dict[str, Any] | None:
            while (message := await client.recv()) is not None:
                if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                    await client.answer(message, table_action(table, message, rng))
                elif message["type"] == "GAME_EVENT" and message["event"] == "GAME_OVER":
                    return message
            return None

        results = await asyncio.gather(*(play(c, random.Random(i)) for i, c in enumerate(clients)))
    assert all(r is not None for r in results)
    errors = [m for c in clients for m in c.seen if m["type"] == "ERROR"]
    assert errors == []
    log = game_log(server, clients[0].hello["game_id"])  # type: ignore[index]
    assert not [e for e in log.events if e.kind in ("fallback", "invalid_action")]
    phases = {m["phase"] for c in clients for m in c.seen if m["type"] == "ACTION_REQUEST"}
    assert len(phases & set(table)) >= 5
