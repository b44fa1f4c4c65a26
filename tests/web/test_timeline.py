"""The timeline: per-seat visibility through the one filter, alive lists, roles, log tailing."""

from __future__ import annotations

import json
from pathlib import Path

from duskfall.core.events import Event, visible_to
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.web.follow import LogFollower
from duskfall.web.timeline import Timeline


def _timeline(path: Path) -> Timeline:
    log = read_log(path)
    timeline = Timeline(log.header)
    for event in log.events:
        timeline.add(event)
    return timeline


def test_seat_view_is_exactly_the_visibility_filter(finished_log: Path) -> None:
    log = read_log(finished_log)
    state = replay(log).state
    timeline = _timeline(finished_log)
    for seat in range(state.num_seats):
        expected = [e.seq for e in log.events if visible_to(e, seat, state.channels(seat))]
        assert [f.event.seq for f in timeline.visible(seat)] == expected
    assert len(timeline.visible(None)) == len(log.events)


def test_seat_view_holds_no_other_hidden_role(finished_log: Path) -> None:
    timeline = _timeline(finished_log)
    roles = timeline.roles()
    citizen = next(s for s, r in roles.items() if r == "CITIZEN")
    seen = json.dumps([f.view for f in timeline.visible(citizen)])
    assert "SHERIFF" not in seen and '"DON"' not in seen
    assert "ROLES_DEALT" not in seen
    god = json.dumps([f.view for f in timeline.visible(None)])
    assert "SHERIFF" in god


def test_frames_track_living_seats_and_outcome(finished_log: Path) -> None:
    log = read_log(finished_log)
    timeline = _timeline(finished_log)
    assert timeline.frames[0].alive == tuple(range(10))
    assert timeline.frames[-1].alive == tuple(replay(log).state.alive())
    assert timeline.finished and timeline.outcome == log.outcome
    described = timeline.describe()
    assert described["outcome"]["winner"] == log.outcome.winner  # type: ignore[union-attr]
    assert [s["agent"] for s in described["seats"]] == ["random"] * 10


def test_unknown_variant_still_shows_its_events(finished_log: Path) -> None:
    log = read_log(finished_log)
    log.header.variant = "no-such-variant"
    timeline = Timeline(log.header)
    frames = [timeline.add(e) for e in log.events]
    assert timeline.problem and "no rules engine" in timeline.problem
    assert all(f.alive == tuple(range(10)) for f in frames)
    private = [f for f in frames if f.event.visibility.startswith("team:")]
    assert private and all(not f.seats for f in private)


def test_follower_reads_only_whole_lines_as_they_are_written(
    finished_log: Path, tmp_path: Path
) -> None:
    lines = finished_log.read_bytes().splitlines(keepends=True)
    growing = tmp_path / "growing.jsonl"
    growing.write_bytes(lines[0] + lines[1] + lines[2][:10])
    follower = LogFollower(growing)
    assert len(follower.feed.timeline.frames) == 1
    subscriber = follower.feed.subscribe(None)
    with growing.open("ab") as handle:
        handle.write(lines[2][10:] + b"".join(lines[3:6]))
    assert follower.poll() == 4
    assert [m["event"]["seq"] for m in _drain(subscriber.queue)] == [1, 2, 3, 4]
    with growing.open("ab") as handle:
        handle.write(b"".join(lines[6:]))
    follower.poll()
    assert follower.done and follower.feed.status == "finished"


def test_follower_stops_at_a_corrupt_line(finished_log: Path, tmp_path: Path) -> None:
    lines = finished_log.read_bytes().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(lines[0] + lines[1] + b"{not json\n" + lines[3])
    follower = LogFollower(broken)
    assert follower.problem is not None and "broken.jsonl:3: corrupt line" in follower.problem
    assert follower.feed.status == "stopped"


def test_vote_tallies_and_reveals_reach_the_view(finished_log: Path) -> None:
    timeline = _timeline(finished_log)
    votes = [f.view for f in timeline.frames if f.event.kind == "VOTES"]
    assert votes and all(v["votes"] for v in votes)
    team = next(f for f in timeline.frames if f.event.kind == "MAFIA_TEAM")
    assert sorted(team.view["reveals"].values()).count("MAFIA") == 2
    assert "DON" in team.view["reveals"].values()


def _drain(queue: object) -> list[dict[str, object]]:
    import asyncio

    assert isinstance(queue, asyncio.Queue)
    out = []
    while not queue.empty():
        out.append(queue.get_nowait())
    return out


def test_event_round_trip_keeps_seq(finished_log: Path) -> None:
    log = read_log(finished_log)
    assert Event.from_dict(log.events[5].to_dict()).seq == 5
