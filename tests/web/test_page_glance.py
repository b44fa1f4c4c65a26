"""A game at a glance in Chromium: the tally of each ballot with its weights, the day's vote
picture, player cards (name and seat, role, fate, badge, what the viewer knows), plain event
lines, stepping over what the filters show, keys and links to a moment, the phone layout.

One server and one browser serve the whole module (browser tests are slow on small machines).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from duskfall.store.log import read_log
from duskfall.web.lab import view_number
from duskfall.web.timeline import Timeline

from .browser_kit import Server, checked_page, play_to_log

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def werewolf_72(server: Server) -> Path:
    """The game of the report: werewolf-6, seed 72, heuristic bots."""
    return play_to_log(server.games_dir, "werewolf", 72, "heuristic", preset="werewolf-6")


def _engine_tallies(log_path: Path) -> list[tuple[int, dict[int, float]]]:
    """``(seq, {seat: votes})`` of every vote result the rules engine recorded."""
    return [
        (e.seq, {t["seat"]: t["votes"] for t in e.payload["tally"]})
        for e in read_log(log_path).events
        if e.kind == "vote_result"
    ]


def _seat_view_number(log_path: Path, seat: int, seq: int) -> int:
    """The number game-wide event ``seq`` has in the view of ``seat`` (views number their own)."""
    log = read_log(log_path)
    timeline = Timeline(log.header)
    for event in log.events:
        timeline.add(event)
    return view_number(timeline, seat, seq)


def _shown_tally(page: Any) -> dict[int, float]:
    rows = page.locator("#tally .tally-row").all()
    return {
        int(row.get_attribute("data-target")): float(row.get_attribute("data-total"))
        for row in rows
        if row.get_attribute("data-target") != "none"
    }


def test_each_ballot_tallies_as_the_engine_with_weights(
    server: Server, browser: Any, werewolf_72: Path
) -> None:
    tallies = _engine_tallies(werewolf_72)
    assert len(tallies) == 2  # the sheriff election, then the exile vote
    with checked_page(browser) as page:
        for seq, expected in tallies:
            page.goto(f"{server.url}/games/{werewolf_72.stem}#e{seq}")
            page.wait_for_selector("#tally .tally-row")
            assert _shown_tally(page) == expected
        # the exile vote: Finn 4.5 (the sheriff's 1.5 among them), Cleo 1; no badge votes
        assert "×1.5" in page.inner_text("#tally")
        assert page.inner_text("#tally h3").startswith("exile vote")
        picture = page.inner_text("#vote-picture")
        assert "wolves' kill\tsheriff election\texile vote" in picture
        assert "Ada · 0\t\t→ Cleo · 2\t→ Finn · 5\n" in picture
        assert "Cleo · 2\t\t\t→ Finn · 5 ×1.5\n" in picture  # a candidate does not vote


def test_cards_say_who_is_who_and_what_the_viewer_knows(
    server: Server, browser: Any, werewolf_72: Path
) -> None:
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{werewolf_72.stem}")
        page.wait_for_selector("#outcome:not(.hidden)")
        cleo = page.locator(".player[data-seat='2']")
        assert cleo.locator(".seat-no").inner_text() == "Cleo · 2"
        assert cleo.locator(".role").inner_text() == "Seer"
        assert cleo.locator(".life").inner_text() == "killed by the wolves, night 2"
        assert "sheriff" in cleo.locator(".badge-mark").inner_text()
        finn = page.locator(".player[data-seat='5']")
        assert finn.locator(".life").inner_text() == "exiled, day 1"
        assert "checked: Werewolf" in finn.inner_text()
        # Cleo's own view on day 1: her check on the cards and in "What you know", no JSON
        exile_vote = _seat_view_number(werewolf_72, 2, _engine_tallies(werewolf_72)[-1][0])
        page.goto(f"{server.url}/games/{werewolf_72.stem}?seat=2#e{exile_vote}")
        page.wait_for_selector("#knows:not(.hidden) li")
        knows = page.inner_text("#knows")
        assert "Finn · 5: checked: Werewolf" in knows and "{" not in knows
        assert "Seer" in page.locator(".player[data-seat='2'] .role").inner_text()
        assert page.locator(".player[data-seat='4'] .role").inner_text() == ""  # not revealed
        assert page.locator(".player[data-seat='3'] .life").inner_text() == "died night 1"


def test_lines_are_plain_words(server: Server, browser: Any) -> None:
    mafia = play_to_log(server.games_dir, "mafia", 5, "heuristic")
    sports = play_to_log(server.games_dir, "sports-mafia", 5, "heuristic")
    with checked_page(browser) as page:
        for log_path in (mafia, sports):
            page.goto(f"{server.url}/games/{log_path.stem}")
            page.wait_for_selector("#outcome:not(.hidden)")
            page.check("#show-runtime")
            texts = page.locator("#events li .text").all_inner_texts()
            raw = [t for t in texts if re.search(r"\w=\S|\[-?\d+, -?\d+, -?\d+", t)]
            assert not raw, raw[:5]
        assert any(" calls seat " in t for t in texts)  # a declaration, in words


def test_steps_land_only_on_shown_events_and_keys_move(
    server: Server, browser: Any, werewolf_72: Path
) -> None:
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{werewolf_72.stem}")
        page.wait_for_selector("#outcome:not(.hidden)")
        shown = page.locator("#events li:not(.runtime)").count()
        assert page.locator("#events li.runtime").count() > 0  # actions are hidden by default
        page.click("#first")
        seen = set()
        for _ in range(shown - 1):
            page.click("#next")
            current = page.locator("#events li.current")
            assert current.is_visible()
            seen.add(current.get_attribute("data-index"))
        assert len(seen) == shown - 1
        assert page.inner_text("#pos") == f"{shown} / {shown}"
        # keys: Home, arrows, End; the address names the moment
        page.locator("body").press("Home")
        assert page.inner_text("#pos") == f"1 / {shown}"
        page.locator("body").press("ArrowRight")
        assert page.inner_text("#pos") == f"2 / {shown}"
        seq = page.locator("#events li.current").get_attribute("data-index")
        assert re.search(r"#e\d+$", page.url)
        link = page.url
        page.locator("body").press("End")
        assert page.inner_text("#pos") == f"{shown} / {shown}"
        page.goto("about:blank")
        page.goto(link)
        page.wait_for_selector("#events li.current")
        assert page.locator("#events li.current").get_attribute("data-index") == seq
        # events and tabs are reached and worked with the keyboard
        page.locator("body").press("End")
        third = page.locator("#events li:not(.runtime)").nth(2)
        assert third.get_attribute("tabindex") == "0"
        third.focus()
        third.press("Enter")
        assert page.inner_text("#pos") == f"3 / {shown}"
        page.focus("#tab-thoughts")
        page.keyboard.press("ArrowRight")
        assert page.locator("#tab-suspicion").get_attribute("aria-selected") == "true"
        assert page.evaluate("() => document.activeElement.id") == "tab-suspicion"
        assert page.inner_text("#pos") == f"3 / {shown}"  # the arrow moved the tab, not the game
        # the strip of days and nights jumps to a night
        page.click("#strip .segment.night >> nth=1 >> .seg-label")
        assert "Night 2" in page.inner_text("#phase")


def test_phone_shows_the_day_first(server: Server, browser: Any, werewolf_72: Path) -> None:
    with checked_page(browser, width=390, height=844) as page:
        page.goto(f"{server.url}/games/{werewolf_72.stem}")
        page.wait_for_selector("#outcome:not(.hidden)", state="attached")
        day = page.locator("#events li.current").get_attribute("data-day")
        first_of_day = page.locator(f"#events li[data-day='{day}']:visible").first
        box = first_of_day.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways
        small = page.evaluate(
            """() => [...document.querySelectorAll('button, select')]
                .filter(b => b.offsetParent !== null)
                .map(b => [b.textContent, b.getBoundingClientRect()])
                .filter(([, r]) => r.width < 44 || r.height < 44)
                .map(([text]) => text)"""
        )
        assert small == [], small  # every control is a 44 px target
