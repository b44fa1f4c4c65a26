"""Key moments and explore-from-here in Chromium: the god view of an ended game draws its win line
(computed ahead and kept) with axes and the side it predicts, marks the largest swings on the
line and in the event list, shows the per-seat summary the API gives; a seat's download holds
only its view; the organiser forks the game at a moment and follows the fork to its end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import read_log
from duskfall.web.moments import CACHE_DIR

from .browser_kit import Server, axe_violations, checked_page, play_to_log
from .conftest import ADMIN

pytestmark = [pytest.mark.browser]

PATIENCE_MS = 120_000  # a deadline for a hang, never a verdict on speed


def _ended_werewolf(server: Server, seed: int) -> str:
    return read_log(
        play_to_log(server.games_dir, "werewolf", seed, "heuristic", preset="werewolf-12")
    ).header.game_id


def test_the_god_view_shows_the_key_moments(server: Server, browser: Any) -> None:
    game_id = _ended_werewolf(server, 3)
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{game_id}")
        page.locator("#winline-chart svg .winline-point").first.wait_for(timeout=PATIENCE_MS)
        assert list((server.games_dir / CACHE_DIR).glob("*.json")), "kept on disk"
        moments = httpx.get(f"{server.url}/api/games/{game_id}/moments").json()
        line, summary = moments["line"], moments["summary"]
        labels = page.locator("#winline-chart svg text").all_text_contents()
        assert {"0%", "50%", "100%", "P(village wins)"} <= set(labels)
        assert "end" in labels and any(label.startswith("D") for label in labels)
        assert "predicts village" in page.inner_text("#winline-note")
        assert page.locator("#winline-chart .winline-point").count() == len(line["points"])
        swings = page.locator("#winline-chart .winline-swing")
        assert swings.count() == len(line["swings"]) >= 1
        assert [
            int(swings.nth(i).get_attribute("data-event") or -1) for i in range(swings.count())
        ] == [s["at"] for s in line["swings"]]
        assert page.locator("#events li.swing").count() == len(line["swings"])
        first = line["swings"][0]
        item = page.inner_text(f"#events li[data-index='{first['at']}']")  # god view: by seq
        assert "swing 1" in item and first["what"] in item
        page.locator("#winline-swings li button").first.click()
        assert page.url.endswith(f"#e{first['at']}")
        assert "swing 1" in page.inner_text("#events li.current")
        rows = page.locator("#seat-summary tbody tr")
        assert rows.count() == len(summary["seats"])
        for i, seat in enumerate(summary["seats"]):
            cells = rows.nth(i).locator("td").all_inner_texts()
            expected = [
                seat["role"],
                str(seat["votes"]),
                str(seat["votes_on_evil"]),
                str(seat["true_claims"]),
                str(seat["false_claims"]),
                "yes" if seat["survived"] else "no",
                str(seat["leaks"]),
            ]
            assert cells == expected
        assert axe_violations(page) == []
        page.goto(f"{server.url}/games/{game_id}?seat=2")
        page.locator("#events li").first.wait_for()
        assert page.locator("#winline").is_hidden() and page.locator("#seat-summary").is_hidden()
        assert page.locator("#events li.swing").count() == 0


def test_a_seat_downloads_only_its_view(server: Server, browser: Any, tmp_path: Path) -> None:
    game_id = _ended_werewolf(server, 4)
    log = read_log(server.games_dir / f"{game_id}.jsonl")
    dealt = next(e for e in log.events if e.kind == "roles_dealt").payload["roles"]
    villager = dealt.index("Villager")
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{game_id}?seat={villager}")
        page.locator("#events li").first.wait_for()
        with page.expect_download() as caught:
            page.click("#download")
        path = tmp_path / "seat.jsonl"
        caught.value.save_as(path)
        assert caught.value.suggested_filename.endswith(f"-seat{villager}.jsonl")
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        assert lines[0]["view"] == villager
        kinds = {line.get("kind") for line in lines[1:]}
        assigned = [line for line in lines[1:] if line.get("kind") == "role_assigned"]
        assert [line["payload"]["seat"] for line in assigned] == [villager]
        assert "roles_dealt" not in kinds and "wolf_team" not in kinds
        page.goto(f"{server.url}/games/{game_id}")
        page.locator("#events li").first.wait_for()
        with page.expect_download() as caught:
            page.click("#download")
        god = tmp_path / "god.jsonl"
        caught.value.save_as(god)
        assert god.read_bytes() == (server.games_dir / f"{game_id}.jsonl").read_bytes()


def test_the_organiser_explores_from_a_moment_and_follows_the_fork(
    server: Server, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", str(server.db))
    game_id = _ended_werewolf(server, 5)
    parent = read_log(server.games_dir / f"{game_id}.jsonl")
    moment = next(e.seq for e in parent.events if e.kind == "day_start")
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{game_id}#e{moment}")
        page.locator("#events li").first.wait_for()
        assert page.locator("#explore-open").is_hidden()  # the organiser's only
        page.goto(f"{server.url}/games/{game_id}#admin={ADMIN}")
        page.reload()  # the same page with another fragment: loaded again, it takes the token
        page.locator("#explore-open").wait_for()
        page.goto(f"{server.url}/games/{game_id}#e{moment}")
        page.locator("#explore-open").click()
        assert f"event {moment}" in page.inner_text("#explore-moment")
        page.fill("#explore-agents", "random")
        assert axe_violations(page) == []
        page.click("#explore-go")
        page.wait_for_url(lambda url: game_id not in url, timeout=PATIENCE_MS)
        fork_id = page.url.rsplit("/", 1)[-1].split("#")[0].split("?")[0]
        assert fork_id != game_id
        page.locator("#status .badge.status-finished").wait_for(timeout=PATIENCE_MS)
        page.locator(f"#family a:text('{game_id}')").wait_for()
        assert "Forked from" in page.inner_text("#family")
    fork = read_log(server.games_dir / f"{fork_id}.jsonl")
    origin = ForkOrigin.of(fork.header)
    assert origin is not None and origin.parent == game_id and fork.finished
    same = [(e.kind, e.visibility, e.payload) for e in fork.events[: origin.prefix]]
    assert same == [(e.kind, e.visibility, e.payload) for e in parent.events[: origin.prefix]]
    assert origin.event <= moment
    assert all(entry["agent"] == "random" for entry in fork.header.roster)
    forks = httpx.get(f"{server.url}/api/games/{game_id}/family").json()["forks"]
    assert [f["game_id"] for f in forks] == [fork_id]
