"""Untrusted text reaches no terminal as control sequences: a model's reply, a TCP client's
speech and HELLO name, a GM player's words are shown escaped by ``play``, ``gm``, ``replay``,
``games`` (table and JSON), ``connect`` and a person's seat, never obeyed (a screen clear, a
window title, an 8-bit CSI, a carriage return, a direction override)."""

from __future__ import annotations

import asyncio
import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.table import Table
from rich.text import Text

from conftest import CliRun, InBackground
from duskfall.client.wire_legal import legal_from_wire
from duskfall.core.registry import get_variant
from duskfall.core.terminal import guarded_console, printable
from duskfall.testing.hostile import HOSTILE_TEXT, hostile_answer, obeyable
from duskfall.testing.stub_server import StubServer


@pytest.fixture
def stub(in_background: InBackground[Any]) -> Iterator[StubServer]:
    server = StubServer(answer=hostile_answer)
    in_background(server.start())
    yield server
    in_background(server.close())


def test_printable_shows_every_control_escaped() -> None:
    shown = printable(HOSTILE_TEXT)
    assert obeyable(shown) == []
    assert shown == "\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eevil\\x0dX"
    assert printable("two\nlines\tok") == "two\nlines\tok"
    assert printable("a\nb", one_line=True) == "a\\x0ab"
    out = io.StringIO()
    console = guarded_console(file=out, width=200)
    table = Table()
    table.add_column("name")
    table.add_row(HOSTILE_TEXT)
    console.print(Text(HOSTILE_TEXT), table, HOSTILE_TEXT, markup=False)
    assert obeyable(out.getvalue()) == [] and out.getvalue().count("\\x1b[2J") == 3


@pytest.mark.slow
def test_play_gm_replay_and_games_show_escapes(
    stub: StubServer, cli: CliRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    spec = f"openai:stub@{stub.url}"
    log = tmp_path / "play.jsonl"
    outputs = []
    code, out, err = cli("play", "-v", "werewolf", "--preset", "werewolf-6", "--seed", "2",
                         "--agents", f"llm:{spec}", "--log", str(log))  # fmt: skip
    assert code == 0, out + err
    assert "\\u001b[2J" in log.read_text()  # the log keeps the text as it was said
    outputs.append(out + err)
    code, out, err = cli("gm", "--model", spec, "--gm-format", "structured", "--lang", "en",
                         "--max-steps", "4", "--log", str(tmp_path / "gm.jsonl"))  # fmt: skip
    assert code == 0, out + err
    outputs.append(out + err)
    for args in (["replay", str(log)], ["games"], ["games", "--json"]):
        code, out, err = cli(*args)
        assert code == 0, out + err
        outputs.append(out + err)
    assert sum("\\x1b" in text for text in outputs) >= 3  # play, gm, replay: escaped
    for text in outputs:
        assert obeyable(text) == []


async def test_a_remote_clients_name_and_speech_are_shown_escaped(
    tmp_path: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    from server.support import WireClient, game_log, serving, wait_game_done

    monkeypatch.setenv("DUSKFALL_DB", str(tmp_path / "index.db"))
    variant = get_variant("werewolf")
    rng = random.Random(3)

    def says(request: dict[str, Any]) -> dict[str, Any]:
        legal = legal_from_wire(
            variant, request["phase"], request["valid_actions"], request.get("legal_state")
        )
        action: dict[str, Any] = legal.sample(rng).to_dict()
        if "says" in action:
            action["says"] = HOSTILE_TEXT
        return action

    async with serving(
        tmp_path, variant="werewolf", config={"preset": "werewolf-6"}, fill_bots_after=0,
        games=1, seat_after_hello=True,
    ) as server:  # fmt: skip
        client = await WireClient.open(server.port, wait_hello=False)
        await client.send({"type": "HELLO", "name": f"bob{HOSTILE_TEXT}"})
        client.hello = await client.next("HELLO")
        played = asyncio.create_task(client.play(rng, says))
        await wait_game_done(server)
        await played
    log = game_log(server, client.hello["game_id"])
    path = tmp_path / f"{log.header.game_id}.jsonl"
    outputs = []
    for args in (["replay", str(path)], ["games"], ["games", "--json"]):
        code, out, err = await asyncio.to_thread(cli, *args)
        assert code == 0, out + err
        outputs.append(out + err)
    assert any("\\x1b[2J" in text for text in outputs)
    for text in outputs:
        assert obeyable(text) == []
