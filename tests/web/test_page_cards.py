"""Every card on the page is true of its player at every moment, in every view, in every
variant, preset and GM card (issue 42: a MAFIA+DOCTOR seat read "doctors", GM roles read
"player", sports mafia seats never saw the roles at the end).

The tables come from the registries, so a new variant, preset or card is covered without
being named here: each variant's default table, its presets, the tables its kit's catalog
plays and one dealing every role it declares (Guard, Idiot and Bodyguard in Werewolf), the
2+2 multi-role mafia table the issue toured, and a game of the scripted GM on every built-in
card in every language. For one game of each and for each view (god, public, every seat),
the page is stepped through every event of that view and each card's role is compared with
what that view knows then, worked out here from the log: the god view knows the deal from the
start; the public view and a seat know what the events they were shown revealed (latest
first) and, once the game has ended, every role. Every role shown is also checked against the
deal, and a seat's own card never shows less than its whole dealt role once it is dealt.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from duskfall.core.events import PUBLIC
from duskfall.core.registry import get_variant, variant_ids
from duskfall.core.variant import Variant, parse_config
from duskfall.gm.cards import builtin_cards
from duskfall.kit.catalog import every_role
from duskfall.store.log import read_log
from duskfall.web.timeline import Frame, Timeline

from .browser_kit import Server, checked_page, play_to_log
from .conftest import ADMIN, bearer
from .test_reveals import true_of, truths

pytestmark = [pytest.mark.browser]

MULTI_ROLE = {
    "roles": ["MAFIA+DOCTOR", "DOCTOR", "MAFIA+SHERIFF", "SHERIFF", "VIGILANTE", "VIGILANTE",
              "VILLAGER", "VILLAGER", "VILLAGER"],
    "allow_multi_role": True,
}  # fmt: skip
GM_OPTIONS = {"gm_model": "scripted", "gm_format": "structured", "max_steps": 24}
SEED = 1

#: At every moment of the view: [position, [[seat, role text, life], ...], headline].
CARDS_AT_EVERY_MOMENT = """() => {
    const shown = [];
    for (let i = 0; i < page.events.length; i++) {
        page.position = i;
        renderPlayers();
        const cards = [...document.querySelectorAll('#players .player')].map((p) => [
            Number(p.dataset.seat), p.querySelector('.role').textContent]);
        const headline = document.querySelector('#knows:not(.hidden) .headline');
        shown.push([cards, headline ? headline.textContent : null]);
    }
    return shown;
}"""


def _tables(variant: Variant) -> dict[str, dict[str, Any]]:
    """The tables of ``variant`` by name: its presets, its default, its kit's catalog tables
    and one dealing every role it declares (a table dealing the same roles with the same
    options as one before it is left out: ``{}`` after the default preset)."""
    named = [*((p, {"preset": p}) for p in variant.info.presets), ("default", {})]
    named += [(f"catalog-{i}", dict(c)) for i, c in enumerate(variant.info.kit.catalog)]
    named += [("every-role", c) for c in every_role(variant)]
    tables: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for name, config in named:
        deal = sorted(variant.new_game(parse_config(variant, config), SEED).roles().values())
        options = {k: v for k, v in config.items() if k not in ("preset", "roles")}
        key = json.dumps([deal, options], sort_keys=True)
        if key not in seen:
            seen.add(key)
            tables[name] = config
    return tables


#: Every game this test plays: ``variant:table`` -> (variant, config); ``gm:card.language``.
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    f"{variant_id}:{name}": (variant_id, config)
    for variant_id in variant_ids()
    for name, config in _tables(get_variant(variant_id)).items()
}
GAMES["mafia:multi-role-2+2"] = ("mafia", MULTI_ROLE)
GAMES.update({f"gm:{card}.{language}": ("gm", {}) for card, language in builtin_cards()})


def _gm_log(server: Server, card: str, language: str) -> Path:
    """A GM game of the scripted GM on ``card``, started and played to its end by the server."""
    body = {"variant": "gm", "preset": card, "agents": "scripted", "seed": 4,
            "pace": 0, "config": {**GM_OPTIONS, "language": language}}  # fmt: skip
    started = httpx.post(f"{server.url}/api/games", json=body, headers=bearer(ADMIN))
    started.raise_for_status()
    game_id = started.json()["game_id"]
    for _ in range(600):  # at most a minute; the scripted GM needs a few seconds
        status = httpx.get(f"{server.url}/api/games/{game_id}", headers=bearer(ADMIN)).json()
        if status["status"] in ("finished", "aborted"):
            break
        time.sleep(0.1)
    [log] = [p for p in server.games_dir.glob("*.jsonl") if read_log(p).header.game_id == game_id]
    return log


def _deal(log: Path) -> tuple[dict[int, str], dict[int, set[str]]]:
    """The dealt role of every seat, and the words true of each seat (its roles, team and
    channels; a GM game: its role)."""
    game = read_log(log)
    header = game.header
    if header.variant == "gm":
        [deal] = [e for e in game.events if e.kind == "deal"]
        names = [entry["name"] for entry in header.roster]
        roles = {names.index(name): role for name, role in deal.payload["roles"].items()}
        return roles, {seat: {role.lower()} for seat, role in roles.items()}
    variant = get_variant(header.variant)
    state = variant.new_game(parse_config(variant, header.config), header.seed)
    return dict(state.roles()), {s: truths(state, s) for s in range(state.num_seats)}


def _frames(timeline: Timeline, view: str) -> list[Frame]:
    if view == "god":
        return list(timeline.frames)
    if view == "public":
        return [f for f in timeline.frames if f.event.visibility == PUBLIC]
    return timeline.visible(int(view))


def _known(timeline: Timeline, view: str, dealt: dict[int, str]) -> Iterator[dict[int, str]]:
    """What ``view`` knows of each seat's role at each of its moments (see the docstring)."""
    frames = _frames(timeline, view)
    known: dict[int, str] = {}
    for i, frame in enumerate(frames):
        if view == "god":
            yield dict(dealt)
            continue
        known.update({int(s): r for s, r in frame.view["reveals"].items()})
        yield {**known, **dealt} if i == len(frames) - 1 else dict(known)


def _check_view(page: Any, url: str, log: Path, view: str) -> int:
    dealt, facts = _deal(log)
    timeline = Timeline(read_log(log).header)
    for event in read_log(log).events:
        timeline.add(event)
    page.goto(f"{url}/games/{log.stem}" + ("" if view == "god" else f"?seat={view}"))
    page.wait_for_selector("#outcome:not(.hidden)")
    moments = page.evaluate(CARDS_AT_EVERY_MOMENT)
    expected = list(_known(timeline, view, dealt))
    assert len(moments) == len(expected), (view, len(moments), len(expected))
    checked = 0
    for at, ((cards, headline), known) in enumerate(zip(moments, expected, strict=True)):
        where = (log.stem, view, at)
        for seat, role in cards:
            assert role == known.get(seat, ""), (*where, seat, role, known.get(seat))
            if role:
                assert true_of(role, facts[seat]), (*where, seat, role)
                checked += 1
        if view not in ("god", "public"):
            own = known.get(int(view))
            if own is not None:  # its whole dealt role, on its card and in "What you know"
                assert own == dealt[int(view)], (*where, own)
                assert headline is not None and own in headline, (*where, headline)
    return checked


@pytest.fixture(scope="module")
def played(server: Server) -> Callable[[str], Path]:
    """The log of one game of ``GAMES``, played to its end by bots (once per module)."""
    logs: dict[str, Path] = {}

    def log_of(game: str) -> Path:
        if game not in logs:
            variant_id, config = GAMES[game]
            if variant_id == "gm":
                card, _, language = game.removeprefix("gm:").rpartition(".")
                logs[game] = _gm_log(server, card, language)
            else:
                game_id = "glance-" + "".join(c if c.isalnum() else "-" for c in game)
                logs[game] = play_to_log(
                    server.games_dir, variant_id, SEED, "heuristic", game_id=game_id, **config
                )
        return logs[game]

    return log_of


@pytest.mark.parametrize("game", GAMES)
def test_every_card_is_true_of_its_player_at_every_moment_of_every_view(
    server: Server, browser: Any, played: Callable[[str], Path], game: str
) -> None:
    started = time.monotonic()
    log = played(game)
    seats = len(read_log(log).header.roster)
    print(f"\n  {game}: {log.stem}, {seats} seats ({time.monotonic() - started:.0f} s)", flush=True)
    with checked_page(browser) as page:
        for view in ["god", "public", *map(str, range(seats))]:
            checked = _check_view(page, server.url, log, view)
            took = time.monotonic() - started
            print(f"  {game} {view}: {checked} roles checked ({took:.0f} s)", flush=True)
            if view in ("god", "public"):
                assert checked, (game, view)  # the god view and the end show roles


def test_every_variant_preset_and_card_is_played() -> None:
    """The games come from the registries: every variant, preset, declared role and card."""
    assert {"werewolf:werewolf-9", "werewolf:werewolf-6", "werewolf:every-role"} <= set(GAMES)
    assert {"sports-mafia:default", "mafia:default", "gm:werewolf6.en", "gm:avalon5.zh"} <= set(
        GAMES
    )
    every = GAMES["werewolf:every-role"][1]["roles"]
    assert {"Guard", "Idiot", "Bodyguard"} <= set(every)


def test_the_games_have_what_the_issue_saw(played: Callable[[str], Path]) -> None:
    """The games above have what issue 42 saw: a seat in two private channels, and a GM game
    whose chats carry a ``role`` of ``player``."""
    mafia, gm = played("mafia:multi-role-2+2"), played("gm:werewolf6.en")
    teams = [e for e in read_log(mafia).events if e.kind == "team"]
    in_two = {m for e in teams for m in e.payload["members"]}
    assert any(sum(m in e.payload["members"] for e in teams) > 1 for m in in_two)
    chats = [e.payload for e in read_log(gm).events if e.kind == "chat"]
    assert any(c["role"] == "player" for c in chats), json.dumps(chats)[:300]


def test_a_spectator_without_a_token_who_picks_a_seat_sees_the_public_view(
    server: Server, browser: Any
) -> None:
    """Issue 42: in a game with people, such a spectator was told "You are Cleo" and saw every
    card "alive"; the seat's view is refused, so the page follows the public view and says so."""
    body = {"variant": "sports-mafia", "agents": "random", "seed": 3, "human_seats": [2]}
    started = httpx.post(f"{server.url}/api/games", json=body, headers=bearer(ADMIN)).json()
    with checked_page(browser) as page:
        page.goto(f"{server.url}/games/{started['game_id']}?seat=3")
        page.wait_for_function("() => page.view === PUBLIC && page.game !== null")
        page.wait_for_selector("#players .player")
        assert page.input_value("#view") == "public"
        assert "?seat=public" in page.url
        assert page.locator("#knows").is_hidden()  # no "You are ..." card
        assert "public view" in page.inner_text("#error")
        assert page.locator("#players .player.me").count() == 0
    httpx.post(f"{server.url}/api/games/{started['game_id']}/abort", headers=bearer(ADMIN))
