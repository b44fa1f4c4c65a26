"""Forks: the moment, the agents, interventions, the link to the parent, resume and the index."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from conftest import CliRun
from duskfall.core.errors import ConfigError, LogCorrupt, ReplayMismatch
from duskfall.core.events import ADMIN, visible_to
from duskfall.lab import warmup
from duskfall.lab.fork import ForkRequest, plan_fork, run_fork
from duskfall.lab.lineage import verify_fork
from duskfall.session import GameSetup, prepare_resume, run_game
from duskfall.store.index import GameIndex
from duskfall.store.lineage import BrokenLink, ForkOrigin
from duskfall.store.log import GameLog, LogWriter, read_log
from duskfall.store.replay import new_state_for, replay


def fork(parent: Path, tmp_path: Path, name: str, **options: object) -> GameLog:
    out = tmp_path / f"{name}.jsonl"
    asyncio.run(run_fork(ForkRequest(parent, log_path=out, **options)))  # type: ignore[arg-type]
    return read_log(out)


def first(log: GameLog, kind: str, day: int, **payload: object) -> int:
    """The number of the first event of ``kind`` on ``day`` whose payload has ``payload``."""
    return next(
        e.seq
        for e in log.events
        if e.kind == kind
        and e.day == day
        and all(e.payload.get(k) == v for k, v in payload.items())
    )


def test_other_agents_play_on_from_the_moment(parent: Path, tmp_path: Path) -> None:
    original = read_log(parent)
    forked = fork(parent, tmp_path, "random", at="day:2", agents="random", seed=11)
    origin = ForkOrigin.of(forked.header)
    assert origin is not None and origin.parent == original.header.game_id
    cut = origin.event
    # the prefix ends with the night's resolution (day 2's dawn); the fork's own events follow
    assert forked.events[cut].day == 2 and forked.events[cut - 1].source == "rules"
    assert any(e.kind == "day_start" and e.day == 2 for e in forked.events[:cut])
    ours = [e.to_dict() | {"game_id": ""} for e in forked.events[:cut]]
    assert ours == [e.to_dict() | {"game_id": ""} for e in original.events[:cut]]
    assert {e["agent"] for e in forked.header.roster} == {"random"}
    assert forked.header.agent_seed == 11 and forked.header.seed == original.header.seed
    assert forked.finished and replay(forked).actions > 0


def test_without_the_warm_up_a_fork_would_not_replay_its_parent(
    index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots' memory and random draws of the prefix matter: skipping the warm-up plays
    another game (so the kit's check that forks replay their parent has teeth)."""
    randomly = tmp_path / "random.jsonl"
    setup = GameSetup("werewolf", seed=4, agents="random", log_path=randomly)
    asyncio.run(run_game(setup))
    original = read_log(randomly)
    warm = fork(randomly, tmp_path, "warm", at="day:2")
    assert [e.payload for e in warm.events] == [e.payload for e in original.events]
    monkeypatch.setattr(warmup.BotWarmUp, "__call__", lambda *args: None)
    cold = fork(randomly, tmp_path, "cold", at="day:2")
    assert [e.payload for e in cold.events] != [e.payload for e in original.events]


def test_a_replaced_speech_changes_exactly_one_event_a_seat_can_see(
    parent: Path, tmp_path: Path
) -> None:
    original = read_log(parent)
    speech = first(original, "speech", 2, sub_phase="SPEECH")
    words = "I am the Seer. Seat 0 is a werewolf."
    forked = fork(parent, tmp_path, "replaced", replace=f"{speech}={words}")
    origin = ForkOrigin.of(forked.header)
    assert origin is not None and origin.replaced == speech - 1 and origin.event == speech + 1
    before = [e.to_dict() | {"game_id": ""} for e in original.events[: origin.event]]
    after = [e.to_dict() | {"game_id": ""} for e in forked.events[: origin.prefix]]
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert [b["kind"] for _, b in changed] == ["action", "speech"]
    assert [b for _, b in changed if b["visibility"] != ADMIN] == [after[speech]]
    assert after[speech]["payload"]["text"] == words
    assert changed[0][1]["payload"]["by"] == "intervention"
    verdict = verify_fork(forked, tmp_path / "replaced.jsonl")
    assert verdict is not None and verdict.link is not None and verdict.link.replaced == 2


def test_a_replaced_vote_is_played_and_the_round_goes_on(parent: Path, tmp_path: Path) -> None:
    original = read_log(parent)
    vote = next(
        e.seq
        for e in original.events
        if e.kind == "action" and e.day == 2 and e.payload["action"]["type"] == "VOTE"
    )
    seat = original.events[vote].payload["seat"]
    target = next(
        s for s in range(12) if s != seat and s != original.events[vote].payload["action"]["target"]
    )
    action = json.dumps({"type": "VOTE", "target": target})
    forked = fork(parent, tmp_path, "vote", replace=f"{vote}={action}")
    assert forked.events[vote].payload == {
        "seat": seat,
        "action": {"type": "VOTE", "target": target},
        "by": "intervention",
    }
    origin = ForkOrigin.of(forked.header)
    assert origin is not None and origin.prefix == vote + 1  # a vote before the last: no event
    before = [e.to_dict() | {"game_id": ""} for e in original.events[:vote]]
    assert [e.to_dict() | {"game_id": ""} for e in forked.events[:vote]] == before
    cast = next(
        e for e in forked.events if e.kind == "vote" and e.day == 2 and e.payload["seat"] == seat
    )
    assert cast.payload["target"] == target and cast.payload.get("sub_phase") == "VOTE"
    assert forked.finished


def test_a_replacement_that_would_change_the_rest_of_the_prefix_is_refused(
    parent: Path, tmp_path: Path
) -> None:
    original = read_log(parent)
    vote = next(
        e.seq
        for e in original.events
        if e.kind == "action" and e.day == 2 and e.payload["action"]["type"] == "VOTE"
    )
    voted = original.events[vote].payload["action"]["target"]
    other = next(s for s in range(12) if s not in (voted, original.events[vote].payload["seat"]))
    with pytest.raises(ConfigError, match="changes event"):
        plan_fork(
            ForkRequest(
                parent,
                at="day:3",
                replace=f'{vote}={{"type": "VOTE", "target": {other}}}',
                log_path=tmp_path / "no.jsonl",
            )
        )
    assert not (tmp_path / "no.jsonl").exists()


@pytest.mark.parametrize(
    ("at", "replace", "needle"),
    [
        (None, None, "--at"),
        ("day:9", None, "no such moment"),
        ("dusk", None, "give an event number"),
        ("99999", None, "after the last decision"),
        (None, "2=hello", "not chosen by a seat"),
        (None, "abc=hello", "SEQ=TEXT"),
        ("night:1", "SPEECH", "SEQ=TEXT"),
    ],
)
def test_moments_and_replacements_that_do_not_fit_are_one_clear_error(
    parent: Path, tmp_path: Path, at: str | None, replace: str | None, needle: str
) -> None:
    with pytest.raises(ConfigError, match=needle):
        plan_fork(ForkRequest(parent, at=at, replace=replace, log_path=tmp_path / "x.jsonl"))


def test_an_illegal_or_textless_replacement_names_the_fix(parent: Path, tmp_path: Path) -> None:
    original = read_log(parent)
    vote = first(original, "action", 2)
    speech = first(original, "speech", 2, sub_phase="SPEECH")
    with pytest.raises(ConfigError, match="not a legal choice"):
        plan_fork(ForkRequest(parent, replace=f'{speech}={{"type": "VOTE", "target": 99}}'))
    kill = next(
        e.seq for e in original.events if e.kind == "action" and "target" in e.payload["action"]
    )
    with pytest.raises(ConfigError, match="no single text"):
        plan_fork(ForkRequest(parent, replace=f"{kill}=hello"))
    assert vote >= 0


def test_the_fork_never_overwrites_a_log(parent: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="already exists"):
        plan_fork(ForkRequest(parent, at="day:2", log_path=parent))


def test_a_changed_parent_or_a_changed_prefix_breaks_the_link(parent: Path, tmp_path: Path) -> None:
    forked = fork(parent, tmp_path, "child", at="day:2")
    out = tmp_path / "child.jsonl"
    verdict = verify_fork(forked, out, parent)
    assert verdict is not None and verdict.link is not None
    # the parent's lines moved: its own chain shows it
    lines = parent.read_text().splitlines(keepends=True)
    moved = tmp_path / "moved-parent.jsonl"
    moved.write_text("".join([*lines[:3], lines[4], lines[3], *lines[5:]]))
    with pytest.raises(LogCorrupt, match="hash mismatch"):
        verify_fork(forked, out, moved)
    # the parent rewritten with a fresh chain, one speech before the fork changed (action
    # and event alike, so it still replays): the chain hash the fork recorded shows it
    log = read_log(parent)
    speech = first(log, "speech", 1)
    log.events[speech].payload["text"] = log.events[speech - 1].payload["action"]["says"] = "x"
    forged = tmp_path / "forged-parent.jsonl"
    writer = LogWriter(forged, log.header)
    for event in log.events:
        writer.on_event(event)
    writer.on_game_end(log.outcome)  # a whole log: its end record too
    replay(read_log(forged))
    with pytest.raises(BrokenLink, match="changed before event"):
        verify_fork(forked, out, forged)
    # the fork's header pointing to another parent
    other = fork(parent, tmp_path, "other", at="day:3")
    assert other.header.game_id != forked.header.game_id
    with pytest.raises(BrokenLink, match="not the parent"):
        verify_fork(forked, out, tmp_path / "other.jsonl")


def test_the_parent_is_found_beside_the_fork_or_through_the_index(
    parent: Path, tmp_path: Path
) -> None:
    forked = fork(parent, tmp_path, "found", at="night:2")
    verdict = verify_fork(forked, tmp_path / "found.jsonl")  # parent.jsonl: by the index
    assert verdict is not None and verdict.parent_path == parent
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = elsewhere / "found.jsonl"
    moved.write_bytes((tmp_path / "found.jsonl").read_bytes())
    (elsewhere / f"{forked.header.extra['fork']['parent']}.jsonl").write_bytes(parent.read_bytes())
    verdict = verify_fork(read_log(moved), moved)
    assert verdict is not None and verdict.parent_path is not None
    assert verdict.parent_path.parent == elsewhere


def test_the_index_knows_parents_and_children_and_counts_only_the_forks_own_usage(
    parent: Path, tmp_path: Path, index: Path
) -> None:
    a = fork(parent, tmp_path, "a", at="day:2", agents="random")
    b = fork(parent, tmp_path, "b", at="night:2", agents="random")
    grandchild = fork(tmp_path / "a.jsonl", tmp_path, "c", at="day:3")
    with GameIndex(index) as games:
        parent_id = read_log(parent).header.game_id
        children = games.children(parent_id)
        row = games.get(a.header.game_id)
        grand = games.children(a.header.game_id)
    assert {r.id for r in children} == {a.header.game_id, b.header.game_id}
    assert [r.parent_event for r in children] == sorted(r.parent_event or 0 for r in children)
    assert row.parent == parent_id and row.status == "finished" and row.events == len(a.events)
    assert [r.id for r in grand] == [grandchild.header.game_id]


async def test_a_fork_interrupted_mid_game_resumes_to_its_end_and_keeps_its_link(
    parent: Path, tmp_path: Path
) -> None:
    out = tmp_path / "cut.jsonl"
    planned = plan_fork(ForkRequest(parent, at="day:2", agents="random", seed=5, log_path=out))
    game = planned.start()
    for _ in range(6):  # a few rounds, then the process "dies": no end is recorded
        assert await game.scheduler.step()
    game.record.phase_end()
    origin = planned.origin
    assert not read_log(out).finished and len(read_log(out).events) > origin.prefix
    resumed = prepare_resume(out, force=True)  # force: this very process is still alive
    await resumed.run()
    again = read_log(out)
    assert again.finished and again.header.agent_seed == 5
    assert ForkOrigin.of(again.header) == origin
    replay(again)
    verdict = verify_fork(again, out)
    assert verdict is not None and verdict.link is not None


def test_a_game_master_log_cannot_be_forked(tmp_path: Path) -> None:
    from duskfall.store.log import LogHeader

    path = tmp_path / "gm.jsonl"
    LogWriter(path, LogHeader("gm-1", "gm", {}, 1, [])).close()
    with pytest.raises(ConfigError, match="game master"):
        plan_fork(ForkRequest(path, at="0"))


def test_a_log_that_does_not_replay_is_refused(parent: Path, tmp_path: Path) -> None:
    log = read_log(parent)
    actions = [i for i, e in enumerate(log.events) if e.kind == "action"]
    log.events[actions[3]].payload["action"] = {"type": "GUARD", "target": 99}
    forged = tmp_path / "forged.jsonl"
    writer = LogWriter(forged, log.header)
    for event in log.events:
        writer.on_event(event)
    writer.on_game_end(log.outcome)  # a whole log: its end record too
    with pytest.raises(ReplayMismatch):
        plan_fork(ForkRequest(forged, at="day:2"))


def test_a_deliberating_seat_in_a_fork_has_the_prefix_in_its_records(
    parent: Path, tmp_path: Path
) -> None:
    """The cognitive agent reads its seat's history from its record folder: a fork fills it
    with the prefix as its seat saw it (and nothing else), before its first decision."""
    original = read_log(parent)
    wolf = next(s for s, r in new_state_for(original)[1].roles().items() if r == "Werewolf")
    out = tmp_path / "deliberate.jsonl"
    request = ForkRequest(
        parent,
        at="day:2",
        agents=f"{wolf}=cognitive:scripted,default=heuristic",
        log_path=out,
        agent_options={"max_steps": 1, "reflect": "no"},
    )
    planned = plan_fork(request)
    game = planned.start()
    history = tmp_path / f"{game.game_id}.records" / f"seat-{wolf}" / "history.jsonl"
    lines = [json.loads(line) for line in history.read_text().splitlines()]
    prefix = planned.origin.prefix
    channels = game.state.channels(wolf)
    seen = [e for e in original.events[:prefix] if visible_to(e, wolf, channels)]
    assert len(lines) == len(seen) > 20
    assert [line["kind"] for line in lines] == [e.kind for e in seen]
    assert any(line["visibility"].startswith("team:") for line in lines)  # the wolves' chat
    assert not any(line["visibility"] == ADMIN for line in lines)


async def test_a_game_that_has_not_ended_is_forked_only_when_asked(
    parent: Path, tmp_path: Path
) -> None:
    """A fork plays its parent's deal: forking a game still going on would put its hidden roles
    on the fork's pages."""
    going = tmp_path / "going.jsonl"
    planned = plan_fork(ForkRequest(parent, at="night:1", agents="random", log_path=going))
    game = planned.start()
    while game.state.day < 2:  # into day 2, then the process "dies"
        assert await game.scheduler.step()
    game.record.phase_end()
    with pytest.raises(ConfigError, match="has not ended"):
        plan_fork(ForkRequest(going, at="day:1", log_path=tmp_path / "x.jsonl"))
    allowed = plan_fork(
        ForkRequest(going, at="day:1", log_path=tmp_path / "y.jsonl", unfinished=True)
    )
    await allowed.start().run()
    assert read_log(tmp_path / "y.jsonl").finished


def test_a_forks_row_counts_its_own_model_usage_not_its_parents(
    index: Path, tmp_path: Path
) -> None:
    parent = tmp_path / "scripted.jsonl"
    setup = GameSetup(
        "werewolf", seed=6, agents="llm:scripted", config={"preset": "werewolf-6"}, log_path=parent
    )
    asyncio.run(run_game(setup))
    bots = fork(parent, tmp_path, "bots", at="day:2", agents="heuristic")
    models = fork(parent, tmp_path, "models", at="day:2")
    with GameIndex(index) as games:
        spent = games.get(read_log(parent).header.game_id).tokens
        assert spent > 0 and games.get(bots.header.game_id).tokens == 0
        own = games.get(models.header.game_id).tokens
    origin = ForkOrigin.of(models.header)
    assert origin is not None
    calls = [e for e in models.events[origin.prefix :] if e.kind == "llm_call"]
    expected = sum(e.payload["prompt_tokens"] + e.payload["completion_tokens"] for e in calls)
    assert 0 < own == expected


def test_a_private_message_can_be_replaced_and_stays_private(parent: Path, tmp_path: Path) -> None:
    """An intervention on private state: the wolves' night chat says other words, which only
    the wolves see, and the fork plays on from there."""
    original = read_log(parent)
    chat = next(e for e in original.events if e.kind == "speech" and e.visibility != "public")
    words = "Let us take seat 3 tonight, quietly."
    forked = fork(parent, tmp_path, "chat", replace=f"{chat.seq}={words}")
    replaced = forked.events[chat.seq]
    assert replaced.payload["text"] == words and replaced.visibility == chat.visibility
    state = new_state_for(forked)[1]
    village = [s for s in range(12) if not visible_to(replaced, s, state.channels(s))]
    assert village and forked.finished


class Counts:
    """Reads of a log by the lab, deals of its variant and openings of the game index."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
        from duskfall.lab import fork as forking

        self.reads: list[Path] = []
        self.deals: list[int] = []
        self.opens: list[Path] = []
        real_read, real_open = forking.read_log, GameIndex.__init__
        real_deal = type(new_state_for(read_log(log))[0]).new_game

        def read(path: Path, **options: Any) -> GameLog:
            self.reads.append(path)
            return real_read(path, **options)

        def deal(variant: Any, config: Any, seed: int) -> Any:
            self.deals.append(seed)
            return real_deal(variant, config, seed)

        def open_index(index: GameIndex, path: Path, **options: Any) -> None:
            self.opens.append(Path(path))
            real_open(index, path, **options)

        monkeypatch.setattr(forking, "read_log", read)
        monkeypatch.setattr(type(new_state_for(read_log(log))[0]), "new_game", deal)
        monkeypatch.setattr(GameIndex, "__init__", open_index)


def test_a_fork_reads_its_parent_once_deals_once_and_opens_the_index_once(
    parent: Path, index: Path, cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``duskfall fork GAME_ID``: the game id looked up, the parent read, checked against the
    index and dealt, the fork played and its row kept, on one reading, one deal (the replay
    that rebuilds the game finds its rounds) and one opening of the index."""
    from duskfall.store.lineage import chain_head

    game_id = read_log(parent).header.game_id
    counts = Counts(monkeypatch, parent)
    code, _, err = cli("fork", game_id, "--at", "day:2", "--quiet")
    assert code == 0, err
    assert counts.reads == [parent] and len(counts.deals) == 1 and counts.opens == [index]
    with GameIndex(index) as opened:
        (child,) = opened.children(game_id)
    assert child.status == "finished" and child.log_path is not None
    origin = ForkOrigin.of(read_log(Path(child.log_path)).header)
    assert origin is not None and origin.chain == chain_head(parent, origin.event)


def test_samples_read_the_parent_once_and_deal_once_each(
    parent: Path, index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from duskfall.lab.samples import sample_forks

    counts = Counts(monkeypatch, parent)
    request = ForkRequest(parent, at="night:2", agents="random")
    found = asyncio.run(sample_forks(request, 3))
    assert found.n == 3 and counts.reads == [parent] and len(counts.deals) == 3
    assert counts.opens == [index]  # the parent checked once; the samples write no row
