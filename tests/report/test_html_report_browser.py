"""Full tier: the HTML report opens offline in Chromium and shows its plots (inline SVG)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.tournament_kit import bot_config, report, run
from duskfall.report.html_report import html_report
from duskfall.testing.require import require, require_program

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


@pytest.mark.browser
def test_the_html_report_opens_in_chromium_and_shows_its_plots(tmp_path: Path) -> None:
    config = bot_config("sides", games=4, beliefs="off")
    run(config, tmp_path)
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(report(config, tmp_path)))
    sync_api = require("playwright.sync_api", "pip install 'duskfall[test]'")
    executable = require_program("chromium", "apt-get install chromium")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        try:
            context = chromium.new_context(offline=True)  # everything is in the file
            page = context.new_page()
            page.goto(page_file.as_uri())
            assert page.locator("h1").inner_text() == "Tournament bots-sides"
            plots = page.locator("svg.plot")
            assert plots.count() >= 3
            sizes = plots.evaluate_all(
                "svgs => svgs.map(s => [s.getBoundingClientRect().width,"
                " s.getBoundingClientRect().height, s.querySelectorAll('circle, rect').length])"
            )
            for width, height, marks in sizes:
                assert width > 200 and height > 100 and marks > 0  # drawn plots
            assert "smart" in page.locator("table").first.inner_text()
        finally:
            chromium.close()
