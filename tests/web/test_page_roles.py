"""The roles the page shows are true, in Chromium (issue 30: in mafia seed 3 a Sheriff who
checked a mafioso saw his own card say MAFIA, and the public view showed the Doctor as MAFIA:
an exile's role was put on seat 0 and a check's result on the checker's own seat).

At every moment of a finished game, in the public view and in each seat's view, every role on
a player's card is true of that player, and a seat's own card never names a role but its own.
"""

from __future__ import annotations

from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config

from .browser_kit import Server, checked_page, play_to_log
from .test_reveals import true_of, truths

pytestmark = [pytest.mark.browser]

#: The role on every player's card at each moment but the last (which shows every role).
CARDS_AT_EVERY_MOMENT = """() => {
    const shown = [];
    for (let i = 0; i < page.events.length - 1; i++) {
        page.position = i;
        renderPlayers();
        shown.push([...document.querySelectorAll('#players .player')].map(
            (p) => [Number(p.dataset.seat), p.querySelector('.role').textContent]));
    }
    return shown;
}"""


@pytest.mark.parametrize(("variant_id", "seed"), [("mafia", 3), ("mafia", 5), ("werewolf", 3)])
def test_every_role_on_the_page_is_true_in_every_view(
    server: Server, browser: Any, variant_id: str, seed: int
) -> None:
    config = {"preset": "werewolf-9"} if variant_id == "werewolf" else {}
    log = play_to_log(server.games_dir, variant_id, seed, "heuristic", **config)
    variant = get_variant(variant_id)
    state = variant.new_game(parse_config(variant, config), seed)
    facts = {seat: truths(state, seat) for seat in range(state.num_seats)}
    checked = 0
    with checked_page(browser) as page:
        for view in ["public", *map(str, range(state.num_seats))]:
            page.goto(f"{server.url}/games/{log.stem}?seat={view}")
            page.wait_for_selector("#outcome:not(.hidden)")
            for cards in page.evaluate(CARDS_AT_EVERY_MOMENT):
                for seat, role in cards:
                    if role:
                        assert true_of(role, facts[seat]), (view, seat, role)
                        checked += 1
    assert checked > 100  # roles were shown (the team's, the checks', the exiles')
