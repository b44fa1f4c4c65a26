"""A person plays a GM game in Chromium: started from the list page's form, played to the end
from the seat's link in a text box, and the seat's page never shows another player's secret."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import httpx
import pytest

from duskfall.llm import Request, ScriptedProvider
from duskfall.llm.provider_kinds import register_provider
from duskfall.llm.schema import example
from duskfall.store.log import read_log

from .browser_kit import Server, checked_page, play_by_clicking
from .conftest import ADMIN

pytestmark = [pytest.mark.browser]

SEAT = 2
CALLS = itertools.count()
OPTIONS = {"language": "en", "gm_model": "whisperer", "gm_format": "structured", "max_steps": 40}


def whispering_turn(request: Request) -> str:
    """A valid structured turn that whispers a secret of its own to two players in turn (so
    that a leak would show), and does not end the game early."""
    assert request.schema is not None
    turn = example(request.schema, random.Random(len(request.messages[-1]["content"])))
    players = request.schema["properties"]["secrets"]["items"]["properties"]["to"]["enum"]
    k = next(CALLS)
    chosen = [players[k % len(players)], players[(k + 1) % len(players)]]
    turn["secrets"] = [{"to": name, "text": f"hush {name} {k}"} for name in chosen]
    if request.schema["properties"]["game_over"].get("type") == "boolean":
        turn["game_over"], turn["result"] = False, None
    return json.dumps(turn)


register_provider("whisperer", lambda arg, config: ScriptedProvider(whispering_turn))


def test_a_person_plays_a_gm_game_from_the_list_page(server: Server, browser: Any) -> None:
    with checked_page(browser) as page:
        page.goto(f"{server.url}/#admin={ADMIN}")
        page.wait_for_selector("#variant option[value='gm']", state="attached")
        page.select_option("#variant", "gm")
        page.select_option("#preset", "werewolf6")
        page.fill("#agents", "scripted")
        page.fill("#human-seats", str(SEAT))
        page.fill("#pace", "0")
        page.fill("#config", json.dumps(OPTIONS))
        page.click("#start")
        link = page.locator(".seat-links a").first
        href = link.get_attribute("href")
        assert href is not None and f"?seat={SEAT}#token=" in href
        page.goto(f"{server.url}{href}")
        page.wait_for_selector(f".player[data-seat='{SEAT}'].me")
        answered, _ = play_by_clicking(page, lambda n: f"Gamma speaks, turn {n}")
        content = page.content()
        assert "You are AI-Gamma" in page.locator("#knows .headline").inner_text()
        assert "secret: Your role: " in page.inner_text("#knows")  # its card: its own secrets
    game_id = href.split("?")[0].rsplit("/", 1)[-1]
    log = read_log(server.games_dir / f"{game_id}.jsonl")
    assert log.finished and log.header.roster[SEAT]["agent"] == "human:browser"
    said = [e.payload["text"] for e in log.events
            if e.kind == "chat" and e.payload["speaker"] == "AI-Gamma"]  # fmt: skip
    turns = [e for e in log.events if e.kind == "turn" and e.payload["player"] == "AI-Gamma"]
    assert answered >= 2 and len(turns) == answered
    assert len(said) == sum(not e.payload["private"] for e in turns)
    assert all(text.startswith("Gamma speaks, turn ") for text in said)
    assert not [e for e in log.events if e.kind == "player_silent"]
    # the seat page: its own secrets, never another player's nor the game master's notes
    mine = {e.payload["text"] for e in log.events if e.visibility == f"seats:{SEAT}"}
    assert any(text.startswith("hush AI-Gamma") for text in mine)
    assert all(text in content for text in mine if text.startswith("hush"))
    others = {
        e.payload["text"]
        for e in log.events
        if e.kind in ("secret", "private_reply") and e.visibility not in (f"seats:{SEAT}", "public")
    }
    public = {e.payload.get("text") for e in log.events if e.visibility == "public"}
    hidden = others - mine - public
    assert any(text.startswith("hush AI-Alpha") for text in hidden)  # the check can bite
    assert not [text for text in hidden if text in content]
    token = href.split("#token=")[1]
    assert token not in (server.games_dir / f"{game_id}.jsonl").read_text()
    assert token not in httpx.get(f"{server.url}/api/games").text
