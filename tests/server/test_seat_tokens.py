"""A seat's reconnect token is a secret: a client that says it gets it masked where its words
enter the record, and the server forgets a game's tokens once that game is over."""

from __future__ import annotations

from pathlib import Path

from duskfall.core.redaction import MASK, redact

from .support import Message, WireClient, serving, wait_game_done


def _answer(request: Message, token: str) -> Message:
    """Every speech says the token; every other decision takes the first choice offered."""
    legal = request["legal_state"]
    fields, kind = legal["fields"], legal["fields"]["kind"]
    if legal["kind"] == "speech":
        return {"type": kind, "says": f"my reconnect token is {token}"}
    if legal["kind"] == "target":
        return {"type": kind, "target": fields["targets"][0] if fields["targets"] else None}
    if legal["kind"] == "yes_no":
        field = next(k for k in request["valid_actions"] if k != "type")
        return {"type": kind, field: False}
    return {"type": kind, "potion": "PASS", "target": None}


async def test_a_token_said_by_its_seat_is_masked_in_the_record_and_then_forgotten(
    tmp_path: Path,
) -> None:
    options = {"variant": "werewolf", "fill_bots_after": 0, "games": 1, "seed": 2}
    async with serving(tmp_path, deadline_ms=5000, retries=0, **options) as server:
        client = await WireClient.open(server.port)
        assert client.hello is not None
        token = client.hello["token"]
        speeches = 0
        while (message := await client.recv()) is not None:
            if message["type"] == "ACTION_REQUEST" and message["valid_actions"]:
                speeches += message["legal_state"]["kind"] == "speech"
                await client.answer(message, _answer(message, token))
        await wait_game_done(server)
    assert speeches > 0  # the seat lived to speak (seed 2 lets it)
    record = (tmp_path / f"{client.hello['game_id']}.jsonl").read_text()
    assert token not in record and f"my reconnect token is {MASK}" in record
    assert redact(token) == token  # the game is over: its token is no longer held
