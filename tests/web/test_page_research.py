"""For researchers, in Chromium: the statistics page against ``duskfall simulate`` on the same
games, simulated games in the list, list filters, sorting and rows updated in place, the
prompt inspector (filters; an expanded call stays open as live events arrive), and axe-core on
the list, game, seat and statistics pages."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from duskfall import cli

from .browser_kit import (
    Server,
    axe_violations,
    checked_page,
    play_to_log,
)
from .conftest import ADMIN, bearer
from .test_browser import _with_agent_records

pytestmark = [pytest.mark.browser]
SIMULATED = 30


@pytest.fixture(scope="module")
def simulated(server: Server) -> str:
    """``duskfall simulate``'s table for werewolf-6 games it put in the server's index."""
    cli._load_commands()
    args = ["simulate", "-v", "werewolf", "--preset", "werewolf-6", "-n", str(SIMULATED)]
    command = [*args, "--seed", "100", "--db", str(server.db)]
    with ThreadPoolExecutor(1) as pool:  # the browser driver keeps an event loop in this thread
        result = pool.submit(CliRunner().invoke, cli.app, command).result()
    assert result.exit_code == 0, result.output
    return result.output


def test_statistics_match_simulate_on_the_same_games(
    server: Server, browser: Any, simulated: str
) -> None:
    printed = dict(re.findall(r"│ (\w+)\s+│ ([\d.]+% \[[\d.]+%, [\d.]+%\] \(\d+/\d+\))", simulated))
    assert set(printed) == {"village", "werewolf", "draw"}, simulated
    with checked_page(browser) as page:
        page.goto(f"{server.url}/stats")
        row = page.locator("section[data-by=variant] tr[data-variant=werewolf]")
        row.wait_for()
        for result, text in printed.items():
            assert row.locator(f"td[data-result={result}]").get_attribute("data-text") == text
        preset = page.locator("section[data-by=preset] tr[data-key=werewolf-6]")
        assert preset.locator("td").nth(0).inner_text() == str(SIMULATED)
        assert f"{SIMULATED} simulated" in page.inner_text("#stats-summary")
        assert page.locator("section[data-by=agents] tr").count() >= 2
        seer = page.locator("section[data-by=role] tr[data-key=Seer] td.rate")
        assert seer.get_attribute("data-text").endswith(f"/{SIMULATED})")  # one Seer a game
        assert axe_violations(page) == []


def test_the_list_shows_simulated_games_filters_sorts_and_keeps_focus(
    server: Server, browser: Any, simulated: str
) -> None:
    play_to_log(server.games_dir, "mafia", 3, "random")
    with checked_page(browser) as page:
        page.goto(f"{server.url}/")
        page.wait_for_selector("#games tbody tr .badge:text('simulated')")
        page.select_option("#filter-variant", "mafia")
        page.wait_for_function(
            "() => document.getElementById('page-range').textContent === '1–1 of 1'"
        )
        assert page.locator("#games tbody tr").count() == 1
        page.select_option("#filter-variant", "")
        page.click("button.sort[data-key=days]")
        header = page.locator("th:has(button.sort[data-key=days])")
        page.wait_for_function(
            "() => document.querySelector('th:has(button.sort[data-key=days])')"
            ".getAttribute('aria-sort') !== 'none'"
        )
        assert header.get_attribute("aria-sort") in ("ascending", "descending")
        link = page.locator("#games tbody a").first
        link.focus()
        page.evaluate("() => { document.activeElement.dataset.marked = 'yes'; }")
        refreshes = int(page.evaluate("() => document.body.dataset.refreshes"))
        page.wait_for_function(
            "n => Number(document.body.dataset.refreshes) >= n + 2", arg=refreshes
        )
        assert page.evaluate("() => document.activeElement.dataset.marked") == "yes"
        assert axe_violations(page) == []
        page.goto("about:blank")  # a new load (a change of fragment alone would not reload)
        page.goto(f"{server.url}/#admin={ADMIN}")
        page.wait_for_selector("#variant option[value='werewolf']", state="attached")
        page.select_option("#variant", "werewolf")
        page.select_option("#preset", "werewolf-6")
        assert page.inner_text("#agents-help").startswith("6 seats (0-5)")
        assert "village=heuristic,werewolf=random" in page.inner_text("#agents-help")
        choices = page.locator("#agent-choices option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        assert {"heuristic", "random", "llm:local"} <= set(choices)
        assert axe_violations(page) == []


def test_an_expanded_prompt_stays_open_while_live_events_arrive(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    whole = play_to_log(tmp_path, "sports-mafia", 37, "random")
    _with_agent_records(whole)
    lines = whole.read_bytes().splitlines(keepends=True)
    served = server.games_dir / whole.name
    served.write_bytes(b"".join(lines[:30]))  # a game being played: its log so far
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{whole.stem}")
        page.click("#tab-prompts")
        page.wait_for_selector(".calls summary")
        assert page.locator("#tab-prompts").get_attribute("aria-selected") == "true"
        page.select_option("#prompt-seat", "2")
        assert page.locator(".calls li").count() == 1
        page.select_option("#prompt-seat", "0")
        assert page.locator(".calls li").count() == 0
        page.select_option("#prompt-seat", "")
        page.click(".calls summary")
        count = page.locator("#events li").count()
        with served.open("ab") as log:
            log.write(b"".join(lines[30:]))
        page.wait_for_function("n => document.querySelectorAll('#events li').length > n", arg=count)
        page.wait_for_selector("#status .status-finished")
        assert page.locator(".calls details[open]").count() == 1
        assert "Who is the mafia?" in page.inner_text(".calls")
        assert axe_violations(page) == []
        page.click(".calls .to-action")  # the action the call led to, on the timeline
        current = page.locator("#events li.current")
        assert current.get_attribute("data-kind") == "action"
        assert "seat 2 acts: declaration: calls" in current.locator(".text").inner_text()


def test_the_seat_page_passes_axe(server: Server, browser: Any) -> None:
    response = httpx.post(
        f"{server.url}/api/games",
        json={"variant": "werewolf", "preset": "werewolf-6", "seed": 72, "agents": "heuristic",
              "human_seats": [4]},
        headers=bearer(ADMIN),
    )  # fmt: skip
    started = response.json()
    with checked_page(browser) as page:
        page.goto(f"{server.url}{started['seats']['4']['url']}")
        page.wait_for_selector("#decision:not(.hidden) textarea")  # a wolf's first word
        assert axe_violations(page) == []
    httpx.post(f"{server.url}/api/games/{started['game_id']}/abort", headers=bearer(ADMIN))


def test_axe_is_vendored_from_npm() -> None:
    axe = Path(__file__).parent / "assets" / "axe.min.js"
    assert axe.read_text(encoding="utf-8").startswith("/*! axe v4.")
