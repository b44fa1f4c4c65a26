"""A person's decisions in Chromium (issue 30, item 6): each new decision takes the keyboard
focus and asks in plain words; the wolves' targets say "(you)" and "(teammate)"; a sports-mafia
Sheriff announces his checks from the declaration form; between decisions the seat's page says
it is waiting for the others."""

from __future__ import annotations

import re
from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.store.log import read_log

from .browser_kit import SAY, Server, checked_page, next_decision
from .test_forms import JSON_TERMS
from .test_page_play import start

pytestmark = [pytest.mark.browser]

FOCUSED_IN_DECISION = (
    "() => !!document.activeElement && !!document.activeElement.closest('#decision')"
)


def seat_of(variant_id: str, config: dict[str, Any], seed: int, role: str) -> tuple[int, set[int]]:
    """The first seat dealt ``role`` in the game of ``seed``, and that role's other seats."""
    variant = get_variant(variant_id)
    roles = variant.new_game(parse_config(variant, config), seed).roles()
    holders = [seat for seat in sorted(roles) if roles[seat].upper() == role]
    return holders[0], set(holders[1:])


def answer(page: Any, box: Any, choose: int = -1) -> None:
    """Choose a choice (the last by default), fill every speech box, send."""
    if box.locator("button.choice").count():
        box.locator("button.choice").nth(choose).click()
    for area in box.locator("textarea").all():
        area.fill(SAY)
    page.click("#decision-send")


def test_a_sports_mafia_sheriff_announces_a_check_and_waits_for_the_others(
    server: Server, browser: Any
) -> None:
    seed = 41
    sheriff, _ = seat_of("sports-mafia", {}, seed, "SHERIFF")
    target = (sheriff + 3) % 10
    started = start(server, "sports-mafia", seed=seed, human_seats=[sheriff], pace=1)
    answered: set[str] = set()
    titles: list[str] = []
    claimed = False
    with checked_page(browser) as page:
        page.goto(f"{server.url}{started['seats'][str(sheriff)]['url']}")
        while (box := next_decision(page, answered)) is not None:
            assert page.evaluate(FOCUSED_IN_DECISION), box.inner_text()
            question = box.locator(".describe").inner_text()
            assert question and not JSON_TERMS.search(question), question
            titles.append(box.locator("#decision-title").inner_text())
            if box.locator(".records-field").count() and not claimed:
                checks = box.locator(".records-field")
                assert checks.locator("legend").inner_text().startswith("Sheriff checks")
                checks.locator("button.add-record").click()
                row = checks.locator(".record").last
                row.locator("select[data-column=night]").select_option(label="1")
                row.locator("select[data-column=player]").select_option(label=f"seat {target}")
                row.locator("select[data-column=team]").select_option(label="Black")
                answer(page, box)
                claimed = True
                waiting = page.locator("#waiting")
                waiting.wait_for()
                assert waiting.inner_text().startswith("Waiting for the other players")
                continue
            answer(page, box)
        assert page.locator("#waiting").is_hidden()  # the game is over: nobody waits
    assert claimed, titles
    log = read_log(server.games_dir / f"{started['game_id']}.jsonl")
    [first] = [e for e in log.events if e.kind == "action" and e.payload["seat"] == sheriff][:1]
    claims = first.payload["action"]["sheriff_claims"]
    assert claims[0][target] == -1 and sum(abs(v) for row in claims for v in row) == 1


def test_the_wolves_targets_say_you_and_teammate(server: Server, browser: Any) -> None:
    config = {"preset": "werewolf-6"}
    seed = 40
    wolf, mates = seat_of("werewolf", config, seed, "WEREWOLF")
    assert mates
    started = start(server, "werewolf", seed=seed, human_seats=[wolf], config=config)
    answered: set[str] = set()
    titles: list[str] = []
    seen_kill = False
    with checked_page(browser) as page:
        page.goto(f"{server.url}{started['seats'][str(wolf)]['url']}")
        while (box := next_decision(page, answered)) is not None:
            assert page.evaluate(FOCUSED_IN_DECISION), box.inner_text()
            labels = box.locator("button.choice").all_inner_texts()
            for label in labels:
                seat = re.search(r"\(seat (\d+)\)", label)
                if seat is None:
                    continue
                number = int(seat.group(1))
                assert label.endswith("(you)") == (number == wolf), label
                assert label.endswith("(teammate)") == (number in mates), label
            titles.append(box.locator("#decision-title").inner_text())
            if "WOLF KILL" in titles[-1].upper():
                seen_kill = True
                assert any(label.endswith("(teammate)") for label in labels), labels
            answer(page, box, choose=0)
    assert seen_kill, titles
