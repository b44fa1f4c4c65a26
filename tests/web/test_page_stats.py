"""The statistics page leaves aborted games out of every rate and says how many, in Chromium:
a game the admin stopped and a killed one beside simulated games, whose rates stay the ones
``duskfall simulate`` printed."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from duskfall import cli
from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow, SeatRow

from .browser_kit import Server, axe_violations, checked_page
from .conftest import ADMIN, bearer

pytestmark = [pytest.mark.browser]
SIMULATED = 12


@pytest.fixture(scope="module")
def printed(server: Server) -> dict[str, str]:
    """``duskfall simulate``'s rates for werewolf-6 games it put in the server's index, a
    game the admin stopped from the page's API and one whose process was killed."""
    cli._load_commands()
    command = ["simulate", "-v", "werewolf", "--preset", "werewolf-6", "-n", str(SIMULATED),
               "--seed", "7", "--db", str(server.db)]  # fmt: skip
    with ThreadPoolExecutor(1) as pool:  # the browser driver keeps an event loop in this thread
        result = pool.submit(CliRunner().invoke, cli.app, command).result()
    assert result.exit_code == 0, result.output
    started = httpx.post(
        f"{server.url}/api/games",
        json={"variant": "werewolf", "preset": "werewolf-6", "agents": "heuristic",
              "human_seats": [2]},
        headers=bearer(ADMIN),
    ).json()  # fmt: skip
    stopped = httpx.post(f"{server.url}/api/games/{started['game_id']}/abort",
                         headers=bearer(ADMIN))  # fmt: skip
    assert stopped.json()["status"] == "aborted"
    killed = GameRow("killed", "werewolf", {"preset": "werewolf-6"}, 5, (SeatRow(0, "random"),),
                     "aborted", termination="aborted", days=3)  # fmt: skip
    with GameIndex(server.db) as index:
        index.add_rows([killed])
    return dict(
        re.findall(r"│ (\w+)\s+│ ([\d.]+% \[[\d.]+%, [\d.]+%\] \(\d+/\d+\))", result.output)
    )


def test_aborted_games_are_left_out_and_counted(
    server: Server, browser: Any, printed: dict[str, str]
) -> None:
    with checked_page(browser) as page:
        page.goto(f"{server.url}/stats")
        row = page.locator("section[data-by=variant] tr[data-variant=werewolf]")
        row.wait_for()
        assert row.locator("td").nth(0).inner_text() == str(SIMULATED)
        assert row.locator("td.aborted").inner_text() == "2"
        for result, text in printed.items():  # the draws are simulate's, not the aborted games
            assert row.locator(f"td[data-result={result}]").get_attribute("data-text") == text
        summary = page.inner_text("#stats-summary")
        assert f"{SIMULATED} finished games" in summary
        assert "2 aborted games left out" in summary
        seer = page.locator("section[data-by=role] tr[data-key=Seer] td.rate")
        assert seer.get_attribute("data-text").endswith(f"/{SIMULATED})")  # one a finished game
        assert axe_violations(page) == []
