"""Key moments, the log download and explore-from-here over the API (real SQLite, real files)."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from duskfall.core.registry import get_variant
from duskfall.core.sides import EVIL, side_of
from duskfall.lab.leaks import leak_report
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import read_log
from duskfall.store.replay import new_state_for, replay
from duskfall.testing.logs import parse_lines, rechain, unsigned
from duskfall.web.access import Access
from duskfall.web.app import WebSettings, create_app
from duskfall.web.moments import CACHE_DIR

from .browser_kit import play_to_log
from .conftest import ADMIN, LINE_ROLLOUTS, TEST_HOST, bearer, play_logged

PATIENCE = 300  # seconds: a deadline for a hang, never a verdict on speed


def cache_files(games_dir: Path) -> list[Path]:
    return sorted((games_dir / CACHE_DIR).glob("*.json"))


def wait_until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + PATIENCE
    while not (found := check()):
        assert time.monotonic() < deadline, f"{what} never happened"
        time.sleep(0.05)
    return found


def open_client(games_dir: Path, db: Path) -> TestClient:
    settings = WebSettings(
        games_dir=games_dir,
        db=db,
        access=Access(ADMIN),
        allow_hosts=(TEST_HOST,),
        line_rollouts=LINE_ROLLOUTS,
    )
    return TestClient(create_app(settings))


def test_a_logged_games_moments_are_computed_on_its_first_view_and_kept_on_disk(
    client: TestClient, games_dir: Path, isolated_index: Path
) -> None:
    game_id = read_log(play_logged(games_dir, seed=3, agents="heuristic")).header.game_id
    assert cache_files(games_dir) == []
    assert client.get(f"/api/games/{game_id}").status_code == 200  # the first view, no more
    wait_until(lambda: cache_files(games_dir), "the moments computed ahead")
    first = client.get(f"/api/games/{game_id}/moments").json()
    assert first["status"] == "ready" and first["cached"] is True
    assert first["rollouts"] == LINE_ROLLOUTS and first["line"]["side"] == "RED"
    # a restarted server reads them from disk: no rollout, no waiting
    with open_client(games_dir, isolated_index) as again:
        kept = again.get(f"/api/games/{game_id}/moments").json()
    assert kept == first


def test_a_game_run_by_the_app_has_its_moments_computed_when_it_ends(
    client: TestClient, games_dir: Path
) -> None:
    body = {"variant": "werewolf", "preset": "werewolf-12", "agents": "heuristic", "seed": 5}
    game_id = client.post("/api/games", json=body, headers=bearer(ADMIN)).json()["game_id"]
    wait_until(lambda: cache_files(games_dir), "the moments computed at the game's end")
    status = client.get(f"/api/games/{game_id}").json()["status"]
    assert status == "finished"
    moments = client.get(f"/api/games/{game_id}/moments").json()
    assert moments["status"] == "ready" and moments["cached"] is True
    assert moments["line"]["side"] == "village" and moments["line"]["points"][-1]["exact"]


def test_swings_are_placed_where_their_seats_left_the_game(
    client: TestClient, games_dir: Path
) -> None:
    path = play_to_log(games_dir, "werewolf", 3, "heuristic", preset="werewolf-12")
    log = read_log(path)
    game_id = log.header.game_id
    moments = client.get(f"/api/games/{game_id}/moments?wait=true").json()
    line = moments["line"]
    chance = {p["event"]: p["chance"] for p in line["points"]}
    assert line["swings"], "a werewolf game of bots has swings"
    state = replay(log).state
    roles = state.roles()
    for swing in line["swings"]:
        assert abs(swing["change"] - (chance[swing["to"]] - chance[swing["from"]])) < 1e-9
        assert swing["from"] <= swing["at"] < swing["to"]
        assert swing["what"]
        for seat in swing["out"]:  # alive before the swing's event, out by its end
            assert f"seat {seat} ({roles[seat]})" in swing["text"]
            before, after = _alive_at(log, swing["from"]), _alive_at(log, swing["at"] + 1)
            assert seat in before and seat not in after
    assert any(s["out"] for s in line["swings"])


def _alive_at(log: Any, stop: int) -> set[int]:
    """Who is alive after the log's first ``stop`` events (its actions re-applied)."""
    _, state = new_state_for(log)
    for event in log.events[:stop]:
        if event.kind == "action":
            state.apply(event.payload["seat"], event.payload["action"])
    return set(state.alive())


def test_the_per_seat_summary_counts_what_the_log_holds(
    client: TestClient, games_dir: Path
) -> None:
    path = play_to_log(games_dir, "werewolf", 3, "heuristic", preset="werewolf-12")
    log = read_log(path)
    summary = client.get(f"/api/games/{log.header.game_id}/moments?wait=true").json()["summary"]
    variant = get_variant("werewolf")
    end = replay(log).state
    roles = end.roles()
    sides = {seat: side_of(variant, end.team_of(seat)) for seat in roles}
    votes: Counter[int] = Counter()
    on_evil: Counter[int] = Counter()
    claims: Counter[int] = Counter()
    true_claims: Counter[int] = Counter()
    for event in log.events:
        ballot = variant.info.facts.ballot(event)
        if ballot is not None and ballot.exile:
            for voter, target, _ in ballot.casts:
                if target is not None:
                    votes[voter] += 1
                    on_evil[voter] += sides[target] == EVIL
        for claim in variant.info.facts.claims(event):
            claims[claim.seat] += 1
            true_claims[claim.seat] += claim.role in roles[claim.seat].upper()
    flagged = Counter(f.seat for f in leak_report(log).findings)
    assert summary["evil_team"] == "werewolf"
    assert [s["seat"] for s in summary["seats"]] == sorted(roles)
    for row in summary["seats"]:
        seat = row["seat"]
        assert row["role"] == roles[seat] and row["side"] == sides[seat]
        assert (row["votes"], row["votes_on_evil"]) == (votes[seat], on_evil[seat])
        assert row["claims"] == claims[seat] and row["true_claims"] == true_claims[seat]
        assert row["false_claims"] == claims[seat] - true_claims[seat]
        assert row["survived"] == (seat in end.alive())
        assert row["leaks"] == flagged[seat]
    assert sum(row["votes"] for row in summary["seats"]) > 0
    assert sum(row["claims"] for row in summary["seats"]) > 0


def test_key_moments_are_the_god_views(client: TestClient, games_dir: Path) -> None:
    people = "human,random,random,random,random,random,random,random,random,random"
    game_id = read_log(play_logged(games_dir, seed=4, agents=people)).header.game_id
    assert client.get(f"/api/games/{game_id}/moments").status_code == 403
    assert client.get("/api/games/nope/moments").status_code == 404
    allowed = client.get(f"/api/games/{game_id}/moments?wait=true", headers=bearer(ADMIN))
    assert allowed.json()["status"] == "ready"


def _unfinished_with_a_planted_role(games_dir: Path) -> tuple[str, int, int]:
    """A werewolf game cut before its end, one wolf's dealt role renamed to a marker: (game id,
    the wolf's seat, a village seat)."""
    path = play_to_log(games_dir, "werewolf", 3, "heuristic", preset="werewolf-12")
    items = parse_lines(path.read_bytes())
    header, events = items[0], [i for i in items[1:] if "seq" in i][:60]
    dealt = next(e for e in events if e["kind"] == "roles_dealt")["payload"]["roles"]
    wolf, villager = dealt.index("Werewolf"), dealt.index("Villager")
    for event in events:
        if event["kind"] == "role_assigned" and event["payload"]["seat"] == wolf:
            event["payload"]["role"] = "PLANTED-HIDDEN-ROLE"
    path.write_bytes(rechain([header, *events]))
    return header["game_id"], wolf, villager


def _download(client: TestClient, game_id: str, seat: int | None) -> tuple[str, list[Any]]:
    query = "" if seat is None else f"?seat={seat}"
    reply = client.get(f"/api/games/{game_id}/log{query}")
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-disposition"].startswith("attachment; filename=")
    return reply.text, [json.loads(line) for line in reply.text.splitlines()]


def test_a_downloaded_log_holds_only_what_its_view_may_see(
    client: TestClient, games_dir: Path
) -> None:
    game_id, wolf, villager = _unfinished_with_a_planted_role(games_dir)
    god_text, _ = _download(client, game_id, None)
    assert god_text == (games_dir / f"{game_id}.jsonl").read_text()  # the log file itself
    assert "PLANTED-HIDDEN-ROLE" in god_text
    text, lines = _download(client, game_id, villager)
    assert "PLANTED-HIDDEN-ROLE" not in text and "wolf_team" not in text
    assert lines[0]["type"] == "view" and lines[0]["view"] == villager
    assert "roles" not in lines[0] and lines[0]["game"]["seed"] is None
    page = client.get(f"/api/games/{game_id}?seat={villager}").json()["events"]
    assert lines[1:] == page  # what the seat's page shows, numbered in its view
    assert [line["seq"] for line in lines[1:]] == list(range(len(page)))
    wolf_text, _ = _download(client, game_id, wolf)
    assert "PLANTED-HIDDEN-ROLE" in wolf_text  # its own role
    public_text, _ = _download(client, game_id, -1)
    assert "PLANTED-HIDDEN-ROLE" not in public_text and "role_assigned" not in public_text


def test_a_protected_games_downloads_need_their_tokens(client: TestClient, games_dir: Path) -> None:
    people = "human,random,random,random,random,random,random,random,random,random"
    game_id = read_log(play_logged(games_dir, seed=4, agents=people)).header.game_id
    assert client.get(f"/api/games/{game_id}/log").status_code == 403
    assert client.get(f"/api/games/{game_id}/log?seat=2").status_code == 403
    assert client.get(f"/api/games/{game_id}/log?seat=-1").status_code == 200
    assert client.get(f"/api/games/{game_id}/log", headers=bearer(ADMIN)).status_code == 200


def _same(event: Any) -> tuple[Any, ...]:
    return (event.seq, event.kind, event.visibility, event.day, event.phase, event.payload)


def _wait_finished(client: TestClient, game_id: str) -> None:
    wait_until(
        lambda: client.get(f"/api/games/{game_id}").json()["status"] == "finished",
        f"the end of {game_id}",
    )


def test_explore_from_here_forks_the_game_and_plays_the_fork_to_its_end(
    client: TestClient, games_dir: Path
) -> None:
    parent_path = play_to_log(games_dir, "werewolf", 3, "heuristic", preset="werewolf-12")
    parent = read_log(parent_path)
    parent_id = parent.header.game_id
    moment = next(e.seq for e in parent.events if e.kind == "day_start")
    refused = client.post(f"/api/games/{parent_id}/fork", json={"at": str(moment)})
    assert refused.status_code == 403  # the organiser's only
    made = client.post(
        f"/api/games/{parent_id}/fork",
        json={"at": str(moment), "agents": "random"},
        headers=bearer(ADMIN),
    )
    assert made.status_code == 201, made.text
    fork_id = made.json()["game_id"]
    assert made.json()["url"] == f"/games/{fork_id}"
    _wait_finished(client, fork_id)
    fork = read_log(games_dir / f"{fork_id}.jsonl")
    origin = ForkOrigin.of(fork.header)
    assert origin is not None and origin.parent == parent_id
    assert origin.prefix == made.json()["prefix"] > 0
    assert [_same(e) for e in fork.events[: origin.prefix]] == [
        _same(e) for e in parent.events[: origin.prefix]
    ]
    assert fork.finished and fork.header.roster[0]["agent"] == "random"
    forks = client.get(f"/api/games/{parent_id}/family").json()["forks"]
    assert [f["game_id"] for f in forks] == [fork_id]
    # the fork's page shows its prefix too, as the log does
    view = client.get(f"/api/games/{fork_id}").json()
    assert len(view["events"]) == len(fork.events)


def test_explore_with_a_replaced_move(client: TestClient, games_dir: Path) -> None:
    parent = read_log(play_to_log(games_dir, "werewolf", 3, "heuristic", preset="werewolf-12"))
    chat = next(e for e in parent.events if e.kind == "action" and "says" in e.payload["action"])
    made = client.post(
        f"/api/games/{parent.header.game_id}/fork",
        json={"replace": f"{chat.seq}=We take seat 7 tonight."},
        headers=bearer(ADMIN),
    )
    assert made.status_code == 201, made.text
    fork_id = made.json()["game_id"]
    _wait_finished(client, fork_id)
    fork = read_log(games_dir / f"{fork_id}.jsonl")
    assert [_same(e) for e in fork.events[: chat.seq]] == [
        _same(e) for e in parent.events[: chat.seq]
    ]
    assert fork.events[chat.seq].payload["action"]["says"] == "We take seat 7 tonight."
    assert fork.finished


def test_explore_refuses_what_cannot_be_forked_in_one_line(
    client: TestClient, games_dir: Path
) -> None:
    parent = read_log(play_logged(games_dir, seed=3))
    reply = client.post(
        f"/api/games/{parent.header.game_id}/fork",
        json={"at": "day:99"},
        headers=bearer(ADMIN),
    )
    assert reply.status_code == 400 and "no such moment" in reply.json()["detail"]
    reply = client.post(
        f"/api/games/{parent.header.game_id}/fork",
        json={"at": "1", "agents": "nonsense-agent"},
        headers=bearer(ADMIN),
    )
    assert reply.status_code == 400 and "\n" not in reply.json()["detail"]


def test_a_game_without_a_line_keeps_its_reason(client: TestClient, games_dir: Path) -> None:
    """A game the rules engine cannot rebuild (here: a log whose variant has none) gets its
    reason, once, not a computation at every view."""
    path = play_logged(games_dir, seed=6)
    items = unsigned(parse_lines(path.read_bytes()))
    items[0]["variant"] = "no-such-variant"
    path.write_bytes(rechain(items))
    game_id = items[0]["game_id"]
    admin = bearer(ADMIN)  # its agents are no bots this server knows: a protected game
    first = client.get(f"/api/games/{game_id}/moments?wait=true", headers=admin).json()
    assert first["status"] == "ready" and first["line"] is None and first["summary"] is None
    assert first["problem"].startswith("no win line for this game")
    again = client.get(f"/api/games/{game_id}/moments", headers=admin).json()
    assert again == {**first, "cached": True}
    line = client.get(f"/api/games/{game_id}/winline?rollouts=10", headers=admin)
    assert line.status_code == 400 and line.json()["detail"] == first["problem"]
