"""Replay aids in Chromium (issue 30, item 7): the transcript grouped by speaker, each move's
reasoning beside it in the god view, suspicion over the days for seats that state beliefs,
and the replay speed; each checked against the game's log."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from duskfall.store.log import read_log

from .browser_kit import Server, checked_page, play_to_log

pytestmark = [pytest.mark.browser]


def test_transcript_by_speaker_and_reasoning_beside_each_move(server: Server, browser: Any) -> None:
    log_path = play_to_log(server.games_dir, "werewolf", 3, "llm:scripted", preset="werewolf-6")
    events = read_log(log_path).events
    spoken = Counter(e.payload["seat"] for e in events if e.kind == "speech")
    thought: dict[int, list[str]] = defaultdict(list)  # seat -> thoughts since its last move
    reasons = []  # the reasoning of each move, in order
    for e in events:
        if e.kind == "thought":
            thought[e.payload["seat"]].append(e.payload["text"])
        elif e.kind == "action":
            reasons.append("\n".join(thought.pop(e.payload["seat"], [])))
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{log_path.stem}")
        page.wait_for_selector("#outcome:not(.hidden)")
        page.check("#show-runtime")  # the moves, with their reasoning beside them
        shown = page.locator("#events .reasoning span:not(.label)").all_text_contents()
        assert shown == [r for r in reasons if r] and shown
        page.click("#mode-transcript")
        sections = page.locator("#transcript section.speaker")
        assert sections.count() == len(spoken)
        for seat, count in spoken.items():
            lines = page.locator(f"#transcript section[data-speaker='seat:{seat}'] li")
            assert lines.count() == count, seat


def test_suspicion_over_the_days_and_the_replay_speed(server: Server, browser: Any) -> None:
    log_path = play_to_log(server.games_dir, "sports-mafia", 3, "heuristic")
    declarations = [e for e in read_log(log_path).events if e.kind == "DECLARATION"]
    first = min(e.payload["player_id"] for e in declarations)
    last_of_day = {e.day: e.payload["declaration"] for e in declarations
                   if e.payload["player_id"] == first}  # fmt: skip
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{log_path.stem}")
        page.wait_for_selector("#outcome:not(.hidden)")
        beliefs = page.locator("#beliefs")
        assert beliefs.locator("svg.belief-chart circle").count() > 0
        assert beliefs.locator("#believer").input_value() == str(first)
        for target in range(10):
            row = beliefs.locator(
                f".belief-table tr[data-target='{target}'] td"
            ).all_text_contents()
            assert row == [str(last_of_day[day][target]) for day in sorted(last_of_day)], target
        assert page.locator("#speed option").all_inner_texts() == [
            "0.5×", "1×", "2×", "4×", "8×",
        ]  # fmt: skip
        page.select_option("#speed", "8")
        page.click("#first")
        page.click("#play")
        page.wait_for_function("() => page.position >= 5")  # played on at the chosen speed
        assert page.evaluate("page.speed") == 8
