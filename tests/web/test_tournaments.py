"""The tournament pages: the list, a tournament's report linking every game, and the JSON."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.tournament_kit import bot_config
from duskfall.arena import progress as progress_module
from duskfall.arena.tournament import run_tournament
from duskfall.store.deals import DealTable, deal_key
from duskfall.store.index import GameIndex
from duskfall.web import tournaments as tournaments_module


def test_tournament_pages_show_the_leaderboard_and_link_every_game(
    client: TestClient, isolated_index: Path, tmp_path: Path
) -> None:
    config = bot_config("sides", games=2)
    with ThreadPoolExecutor(1) as pool:  # the client keeps an event loop in this thread
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    listed = client.get("/api/tournaments").json()
    assert [(t["name"], t["finished"]) for t in listed] == [("bots-sides", 4)]
    page = client.get("/tournaments").text
    assert 'href="/tournaments/bots-sides"' in page
    report = client.get("/tournaments/bots-sides")
    assert report.status_code == 200 and '<svg class="plot"' in report.text
    assert "data:" not in report.text and "<style" not in report.text  # nothing the CSP refuses
    data = client.get("/api/tournaments/bots-sides").json()
    assert [e["name"] for e in data["board"]["entrants"]] == ["smart", "naive"]
    for game in data["games"]:
        assert f'href="/games/{game["id"]}"' in report.text
        assert "log" not in game  # no server paths
    assert str(tmp_path) not in report.text
    assert client.get("/tournaments/nope").status_code == 404


def test_the_page_of_a_small_sides_tournament_answers_and_every_interval_holds_its_point(
    client: TestClient, isolated_index: Path, tmp_path: Path
) -> None:
    """A 20-game werewolf-6 sides tournament once answered 500: a rating outside its own
    bootstrap interval made matplotlib refuse a negative error bar."""
    config = bot_config(
        "sides", games=20, name="small", variants=[{"variant": "werewolf", "preset": "werewolf-6"}]
    )
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    assert client.get("/tournaments/small").status_code == 200
    board = client.get("/api/tournaments/small").json()["board"]
    estimates = [
        value
        for entrant in board["entrants"]
        for key in ("overall", "deception", "detection", "elo", "openskill")
        if (value := entrant[key]) is not None
    ] + [pair[key] for pair in board["pairs"] for key in ("overall", "elo", "a_beats_b")]
    measured = [v for v in estimates if v.get("point", v.get("mu")) is not None]
    assert len(measured) >= 2 * 3 + 3
    for value in measured:
        point = value.get("point", value.get("mu"))
        assert value["low"] <= point <= value["high"], value


def test_a_deals_seed_is_shown_only_once_every_game_of_the_deal_has_ended(
    client: TestClient, isolated_index: Path, tmp_path: Path
) -> None:
    """The games of a deal share its seed: game 1's would give away game 2's roles."""
    config = bot_config(
        "sides", games=2, name="deal", variants=[{"variant": "werewolf", "preset": "werewolf-6"}]
    )
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    with GameIndex(isolated_index) as index:
        rows = sorted(index.tournament_games("deal"), key=lambda r: r.tournament_slot or 0)
    first, second = rows
    assert first.seed == second.seed
    seed = str(first.seed)

    def shown() -> list[object]:
        listed = {g["game_id"]: g["seed"] for g in client.get("/api/games").json()["games"]}
        return [listed[first.id], client.get(f"/api/games/{first.id}").json()["game"]["seed"]]

    assert shown() == [seed, seed]  # the whole deal has ended
    with sqlite3.connect(isolated_index) as raw:  # as while the deal's second game was played
        raw.execute("DELETE FROM deal_releases")
    assert shown() == [None, None]
    for page in (f"/games/{first.id}", f"/api/games/{first.id}", "/api/games"):
        assert seed not in client.get(page).text
    with ThreadPoolExecutor(1) as pool:  # a driver starting again marks the deals that ended
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    assert shown() == [seed, seed]


def test_the_list_reads_each_deals_state_and_never_reloads_a_tournament(
    client: TestClient, isolated_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = bot_config("duplicate", games=4)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()

    def refused(*_: Any) -> Any:
        raise AssertionError("the list reloaded a tournament")

    monkeypatch.setattr(GameIndex, "tournament_games", refused)
    monkeypatch.setattr(progress_module, "build_schedule", refused)
    for query in ("", "?tournament=bots-duplicate", "?agent=random", "?limit=3&offset=2"):
        games = client.get(f"/api/games{query}").json()["games"]
        assert games and all(g["seed"] is not None for g in games), query


def test_the_secret_of_a_seedless_tournament_is_on_no_page(
    client: TestClient, isolated_index: Path, tmp_path: Path
) -> None:
    config = bot_config("sides", games=2, seed=None, name="secret")
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    with DealTable(isolated_index) as table:
        secret = table.secret("secret", deal_key(isolated_index))
    assert secret is not None
    forms = [secret.hex(), str(int.from_bytes(secret, "big"))]
    game_id = client.get("/api/games").json()["games"][0]["game_id"]
    for page in ("/api/games", "/api/tournaments/secret", "/tournaments/secret",
                 f"/api/games/{game_id}", f"/games/{game_id}", "/api/tournaments"):  # fmt: skip
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert not any(form in answer.text for form in forms), page


def test_a_report_is_built_once_until_a_game_changes(
    client: TestClient, isolated_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reloads, the JSON and many requests at once share one build; a changed game set
    (here a game removed from the index) builds it again."""
    config = bot_config("sides", games=2)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    builds: list[int] = []
    real = tournaments_module.build_report

    def counted(progress: Any, **options: Any) -> Any:
        builds.append(len(progress.done))
        return real(progress, **options)

    monkeypatch.setattr(tournaments_module, "build_report", counted)
    assert client.get("/tournaments/bots-sides").status_code == 200
    assert client.get("/tournaments/bots-sides").status_code == 200
    assert client.get("/api/tournaments/bots-sides").json()["board"]["entrants"]
    assert builds == [4]
    cache = tournaments_module.ReportCache()
    with ThreadPoolExecutor(4) as pool:
        reports = list(pool.map(lambda _: cache.report(isolated_index, "bots-sides"), range(4)))
    assert builds == [4, 4] and all(r is reports[0] for r in reports)
    with sqlite3.connect(isolated_index) as con:
        con.execute("DELETE FROM games WHERE tournament_slot = 3")
    monkeypatch.setattr(tournaments_module, "REBUILD_SECONDS", 0.0)
    served = cache.report(isolated_index, "bots-sides")  # the last build, served at once
    assert served is reports[0]
    cache.settle()  # ... while the new one is built in the background
    assert builds == [4, 4, 3]
    assert len(cache.report(isolated_index, "bots-sides").games) == 3  # type: ignore[union-attr]


def test_a_running_tournaments_page_is_not_rebuilt_at_every_finished_game(
    client: TestClient, isolated_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = bot_config("sides", games=2)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(run_tournament, config, base_dir=tmp_path, db=isolated_index).result()
    builds: list[int] = []
    real = tournaments_module.build_report

    def counted(progress: Any, **options: Any) -> Any:
        builds.append(len(progress.done))
        return real(progress, **options)

    monkeypatch.setattr(tournaments_module, "build_report", counted)
    monkeypatch.setattr(tournaments_module, "REBUILD_SECONDS", 3600.0)
    cache = tournaments_module.ReportCache()
    first = cache.report(isolated_index, "bots-sides")
    for slot in (3, 2):  # games "finishing" (here: leaving) one after another
        with sqlite3.connect(isolated_index) as con:
            con.execute("DELETE FROM games WHERE tournament_slot = ?", (slot,))
        assert cache.report(isolated_index, "bots-sides") is first
    cache.settle()
    assert builds == [4]
