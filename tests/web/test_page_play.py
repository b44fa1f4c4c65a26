"""People at the table, in Chromium: the form of every decision kind, a whole game of each
variant played by clicking, the admin's seat links, deadline and stop button, and spectators
of a finished game with people."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from duskfall.store.log import read_log
from duskfall.testing.require import require

from .browser_kit import Server, checked_page, play_by_clicking, play_to_log
from .conftest import ADMIN, answer_for, bearer
from .decision_forms import every_decision

pytestmark = [pytest.mark.browser]
WAIT_S = 30

GAMES = [
    ("werewolf", {"preset": "werewolf-6"}, 2),
    ("mafia", {}, 3),
    ("sports-mafia", {}, 4),
]


def start(server: Server, variant: str, **body: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{server.url}/api/games",
        json={"variant": variant, "agents": "random", **body},
        headers=bearer(ADMIN),
    )
    response.raise_for_status()
    started: dict[str, Any] = response.json()
    return started


FORM_FACTS = """form => {
    const built = buildForm(form);
    const box = document.createElement('div');
    box.append(built.node);
    document.body.append(box);
    const controls = [...box.querySelectorAll('select, textarea, input')];
    const buttons = [...box.querySelectorAll('button.choice')];
    const facts = {
        labels: buttons.map(b => b.textContent),
        pressed: buttons.every(b => b.hasAttribute('aria-pressed')),
        unlabelled: controls.filter(c => !c.labels || c.labels.length === 0).length,
        textareas: box.querySelectorAll('textarea').length,
    };
    box.remove();
    return facts;
}"""


def test_every_decision_kind_renders_a_form_with_distinct_labels(
    server: Server, browser: Any
) -> None:
    log_path = play_to_log(server.games_dir, "werewolf", 1, "random", preset="werewolf-6")
    decisions = every_decision()
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{log_path.stem}")
        page.wait_for_selector("#outcome:not(.hidden)")
        for key, found in decisions.items():
            form = found["form"]
            facts = page.evaluate(FORM_FACTS, form)
            labels = facts["labels"]
            assert len(set(labels)) == len(labels), (key, labels)
            assert facts["pressed"] and facts["unlabelled"] == 0, (key, facts)
            texts = sum(1 for f in form["fields"] if f["kind"] == "text")
            assert facts["textareas"] == texts, key  # speech boxes only, never a JSON box


@pytest.mark.parametrize(("variant", "config", "seat"), GAMES)
def test_a_person_plays_a_whole_game_by_clicking(
    server: Server, browser: Any, variant: str, config: dict[str, Any], seat: int
) -> None:
    started = start(server, variant, seed=40 + seat, human_seats=[seat], config=config)
    with checked_page(browser) as page:
        page.goto(f"{server.url}{started['seats'][str(seat)]['url']}")
        page.wait_for_selector(f".player[data-seat='{seat}'].me")
        answered, saw_speeches = play_by_clicking(page)
        assert saw_speeches or variant != "werewolf"  # today's speeches beside the vote
        assert answered > 0
        assert "Your move" not in page.title()
        assert "You are " in page.locator("#knows .headline").inner_text()
    log = read_log(server.games_dir / f"{started['game_id']}.jsonl")
    mine = [e for e in log.events if e.kind == "action" and e.payload["seat"] == seat]
    assert len(mine) == answered and all(e.payload["by"] == "agent" for e in mine)


def test_admin_shows_seat_links_again_and_stops_a_game(server: Server, browser: Any) -> None:
    started = start(
        server, "werewolf", agents="heuristic", human_seats=[0], human_timeout=120,
        preset="werewolf-6",
    )  # fmt: skip
    game_id = started["game_id"]
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{game_id}?seat=0#admin={ADMIN}")
        page.wait_for_selector("#decision:not(.hidden)")
        deadline = page.inner_text("#decision-deadline")  # 120 s per decision
        assert re.fullmatch(r"answer within (1:5\d|2:00)", deadline), deadline
        assert page.title().startswith("● Your move")
        assert page.inner_text("#announce").startswith("Your move")
        page.click("#show-links")
        link = page.locator("#seat-links a").first
        assert f"/games/{game_id}?seat=0#token=" in link.inner_text()
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#abort")
        page.wait_for_selector("#status .status-aborted")
    log = read_log(server.games_dir / f"{game_id}.jsonl")
    last = log.events[-1]
    assert last.kind == "game_over" and last.payload["termination"] == "aborted"
    assert last.payload["reason"] == "stopped by the admin"
    listed = httpx.get(f"{server.url}/api/games").json()["games"]
    assert next(g for g in listed if g["game_id"] == game_id)["status"] == "aborted"


def _answer_until_the_end(server: Server, game_id: str, seat: int, token: str) -> None:
    """A person at ``seat`` who answers over the API (legal answers from the schema), told of
    each decision by the game's WebSocket."""
    client = require("websockets.sync.client", "pip install 'duskfall[web]'")
    url = server.url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    with client.connect(url) as ws, httpx.Client(base_url=server.url) as http:
        ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
        answered: set[int] = set()
        while True:
            message = json.loads(ws.recv(timeout=WAIT_S))
            request = message.get("request")
            if message["type"] in ("snapshot", "status") and message["status"] != "running":
                return
            if request and request["request_id"] not in answered:
                answered.add(request["request_id"])
                body = {"request_id": request["request_id"], "action": answer_for(request)}
                answer = http.post(
                    f"/api/games/{game_id}/seats/{seat}/action", json=body, headers=bearer(token)
                )
                assert answer.status_code == 200, answer.text


def test_spectators_follow_a_finished_game_with_people(server: Server, browser: Any) -> None:
    started = start(server, "werewolf", seed=7, human_seats=[1], preset="werewolf-6")
    game_id = started["game_id"]
    _answer_until_the_end(server, game_id, 1, started["seats"]["1"]["token"])
    log = read_log(server.games_dir / f"{game_id}.jsonl")
    secret = [e for e in log.events if e.visibility != "public" and e.kind == "seer_action"]
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{game_id}")
        page.wait_for_selector("#outcome:not(.hidden)")
        assert "seat=public" in page.url and page.locator("#view").input_value() == "public"
        shown = page.locator("#events li").count()
        assert shown == sum(1 for e in log.events if e.visibility == "public")
        roles = page.locator(".player .role").all_inner_texts()
        assert all(roles) and "Werewolf" in roles  # every role, once the game has ended
        content = page.content()
        assert all(f"checks seat {e.payload['target']}" not in content for e in secret)
        assert "[wolves]" not in content
