"""The sports-mafia prompt kit: lines for every visible event, digests, labels, examples and a
system prompt fixed for the whole game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest

from duskfall.core.events import Event, visible_to
from duskfall.core.llm_form import llm_schema
from duskfall.core.prompting import flatten, is_placeholder
from duskfall.core.registry import get_variant
from duskfall.core.transcript import build_sections, render_history, stateless_prompts
from duskfall.variants.sports_mafia import prompt_lines
from duskfall.variants.sports_mafia.config import SportsMafiaConfig
from duskfall.variants.sports_mafia.prompt_kit import KIT, label
from duskfall.variants.sports_mafia.rules import SportsMafiaState

SEEDS = range(12)


@dataclass
class Asked:
    """One decision of a played game, with the events its seat had seen by then."""

    seat: int
    obs: Mapping[str, Any]
    legal: Any
    seen: list[dict[str, Any]]


def seen_by(events: list[Event], state: SportsMafiaState, seat: int) -> list[dict[str, Any]]:
    channels = state.channels(seat)
    return [flatten(e) for e in events if visible_to(e, seat, channels)]


def play(seed: int) -> Iterator[Asked]:
    """A random game (seeded), one decision at a time."""
    state = SportsMafiaState(SportsMafiaConfig(), seed)
    rng = random.Random(seed)
    events = list(state.opening_events())
    while state.outcome() is None:
        seat = state.pending()[0].seat
        legal = state.legal(seat)
        yield Asked(seat, state.observe(seat), legal, seen_by(events, state, seat))
        events += state.apply(seat, legal.sample(rng))


@pytest.fixture(scope="module")
def games() -> list[list[Asked]]:
    return [list(play(seed)) for seed in SEEDS]


def test_every_visible_event_kind_has_a_line(games: list[list[Asked]]) -> None:
    kinds: set[str] = set()
    for game in games:
        for asked in game:
            for entry in asked.seen:
                kinds.add(entry["kind"])
                line = KIT.line(entry, asked.obs)
                assert (line is None) == (entry["kind"] in KIT.markers)
            build_sections(KIT, asked.seen, asked.obs)
    shown = set(prompt_lines.LINES) | KIT.markers
    assert kinds == shown - {"ROLES_DEALT"}  # the random games reach every kind a seat sees


def test_periods_follow_days_and_nights() -> None:
    assert KIT.period({"kind": "ROLE_ASSIGNED", "day": 1, "phase": "DECLARATION"}).title == "Setup"
    day = KIT.period({"kind": "VOTES", "day": 2, "phase": "VOTING"})
    night = KIT.period({"kind": "PLAYER_KILLED", "day": 2, "phase": "NIGHT_KILL"})
    next_day = KIT.period({"kind": "DAY_STARTED", "day": 3, "phase": "DECLARATION"})
    assert (day.title, night.title, next_day.title) == ("Day 2", "Night 2", "Day 3")
    assert day < night < next_day and day.day == night.day == 2


DECLARATION = {
    "kind": "DECLARATION",
    "day": 1,
    "phase": "DECLARATION",
    "player_id": 4,
    "declaration": [0, 1, 3, 0, 0, -2, 0, -3, 0, 0],
    "sheriff_claims": [[0, 0, 0, -1, 0, 0, 0, 0, 0, 0]] + [[0] * 10] * 9,
}
OBS: dict[str, Any] = {"player_id": 4}


def test_a_declaration_shows_non_zero_beliefs_and_claims_by_night() -> None:
    line = KIT.line(DECLARATION, OBS)
    assert line is not None
    assert line.text == (
        "player 4 (you) declares: beliefs 1:+1, 2:+3, 5:-2, 7:-3; claims: night 1 player 3 is BLACK"
    )
    assert line.summary == (
        "player 4 (you) declared: firm beliefs 2:+3, 7:-3; claims: night 1 player 3 is BLACK"
    )


def test_old_days_keep_votes_claims_deaths_and_checks() -> None:
    day1 = [
        DECLARATION,
        {"kind": "PLAYER_NOMINATED", "day": 1, "phase": "DECLARATION", "player_id": 3, "by": 4},
        {"kind": "VOTES", "day": 1, "phase": "VOTING", "round": 0, "votes": {"4": 3, "5": 7}},
        {"kind": "REVOTE_STARTED", "day": 1, "phase": "VOTING", "tied": [3, 7]},
        {"kind": "VOTES", "day": 1, "phase": "VOTING", "round": 1, "votes": {"4": 3, "5": 7}},
        {"kind": "ELIMINATE_ALL_STARTED", "day": 1, "phase": "VOTING", "tied": [3, 7]},
        {
            "kind": "VOTES",
            "day": 1,
            "phase": "VOTING",
            "round": 2,
            "votes": {"4": True, "5": False},
        },
        {
            "kind": "ELIMINATE_ALL_RESULT",
            **{"day": 1, "phase": "VOTING", "tied": [3, 7], "yes": 1, "no": 1, "passed": False},
        },
        {"kind": "NIGHT_STARTED", "day": 1, "phase": "NIGHT_KILL"},
        {"kind": "PLAYER_KILLED", "day": 1, "phase": "NIGHT_KILL", "player_id": 5},
        {
            "kind": "SHERIFF_CHECK_RESULT",
            "day": 1,
            "phase": "NIGHT_SHERIFF",
            "target": 7,
            "team": "BLACK",
        },
    ]
    later = [
        {"kind": "DAY_STARTED", "day": d, "phase": "DECLARATION", "turn": d - 1, "first_speaker": 0}
        for d in (2, 3)
    ]
    history = render_history(build_sections(KIT, day1 + later, OBS))
    assert "[Day 1 (digest)]" in history and "[Night 1 (digest)]" in history
    for kept in (
        "firm beliefs 2:+3, 7:-3",
        "claims: night 1 player 3 is BLACK",
        "player 4 (you) nominates player 3",
        "vote (voter->target): 4->3, 5->7",
        "re-vote among the tied (voter->target): 4->3, 5->7",
        "eliminate-all vote: yes 4; no 5",
        "yes 1, no 1: failed",
        "player 5 is killed in the night",
        "your Sheriff check: player 7 is BLACK",
    ):
        assert kept in history, kept
    assert "1:+1" not in history  # a soft belief of an old day is summarised away


def _black_obs() -> dict[str, Any]:
    obs = SportsMafiaState(SportsMafiaConfig(), 4).observe(3)  # the Don; team 2, 3, 9
    obs["alive_players"] = [p for p in obs["alive_players"] if p not in (9, 5)]
    obs["private_info"]["don_checks"] = {"1": True, "6": False}
    obs["nominated_players"] = [6]
    return obs


def test_labels_say_who_is_who() -> None:
    obs = _black_obs()
    assert obs["role"] == "DON"
    assert label(3, obs) == "player 3 (you)"
    assert label(2, obs) == "player 2 (fellow BLACK)"
    assert label(9, obs) == "player 9 (fellow BLACK, dead)"
    assert label(5, obs) == "player 5 (dead)"
    assert label(1, obs) == "player 1 (checked: the Sheriff)"
    assert label(6, obs) == "player 6 (nominated, checked: not the Sheriff)"
    assert label(0, obs) == "player 0"
    situation = KIT.situation(obs, coaching=False)
    assert "player 9 (fellow BLACK, dead)" in situation and "Day 1, declarations" in situation
    sheriff = SportsMafiaState(SportsMafiaConfig(), 4).observe(1)
    sheriff["private_info"]["sheriff_checks"] = {"2": "BLACK"}
    assert label(2, sheriff) == "player 2 (checked: BLACK)"


def _substituted(example: Any, schema: Mapping[str, Any]) -> Any:
    """The example with each placeholder replaced by a legal value the schema allows."""
    if is_placeholder(example):
        if "enum" in schema:
            return schema["enum"][-1]
        if schema.get("type") == "boolean":
            return True
        return schema.get("minimum", 0)
    if isinstance(example, dict):
        props = schema["properties"]
        return {k: _substituted(v, props[k]) for k, v in example.items()}
    if isinstance(example, list):
        return [_substituted(v, schema["items"]) for v in example]
    return example


def _values(example: Any) -> Iterator[Any]:
    if isinstance(example, dict):
        for value in example.values():
            yield from _values(value)
    elif isinstance(example, list):
        for value in example:
            yield from _values(value)
    else:
        yield example


def test_examples_match_the_schema_and_name_no_target(games: list[list[Asked]]) -> None:
    kinds = set()
    for game in games:
        for asked in game:
            schema = llm_schema(asked.legal)
            decision = KIT.decision(asked.obs, asked.legal, coaching=False)
            kinds.add(decision.example["type"])
            assert set(decision.example) <= set(schema["properties"])
            assert set(schema["required"]) <= set(decision.example)
            filled = _substituted(dict(decision.example), schema)
            jsonschema.validate(filled, schema)
            asked.legal.parse(filled)
            targets = set(getattr(asked.legal, "targets", ())) | set(
                getattr(asked.legal, "nominable", ())
            )
            names = [v for v in _values(decision.example) if not isinstance(v, str)]
            assert not names, f"the example names a choice: {decision.example}"
            assert not targets & set(names)
    assert kinds == {
        "DECLARATION",
        "VOTE",
        "ELIMINATE_ALL_VOTE",
        "KILL",
        "DON_CHECK",
        "SHERIFF_CHECK",
    }


def test_decisions_label_every_option(games: list[list[Asked]]) -> None:
    for asked in games[0]:
        text = KIT.decision(asked.obs, asked.legal, coaching=False).text
        for target in getattr(asked.legal, "targets", ()):
            assert label(target, asked.obs) in text


def test_the_system_prompt_is_fixed_for_a_seat_for_the_whole_game(
    games: list[list[Asked]],
) -> None:
    for game in games:
        for coaching in (False, True):
            systems: dict[int, set[str]] = {}
            for asked in game:
                systems.setdefault(asked.seat, set()).add(KIT.system(asked.obs, coaching=coaching))
            assert all(len(texts) == 1 for texts in systems.values())


def test_the_system_prompt_states_seat_role_team_and_mates() -> None:
    obs = SportsMafiaState(SportsMafiaConfig(), 4).observe(3)
    plain = KIT.system(obs, coaching=False)
    assert "You are player 3, the DON (team BLACK)" in plain
    assert "Your BLACK team-mates: players 2, 9." in plain
    assert "turn" not in plain and "night 1 player 3 is BLACK" in plain
    assert "Hints" not in plain and "Hints" in KIT.system(obs, coaching=True)
    citizen = KIT.system(SportsMafiaState(SportsMafiaConfig(), 4).observe(0), coaching=False)
    assert "team-mates" not in citizen and "You are player 0, a CITIZEN" in citizen


def test_render_prompts_asks_only_the_new_contract(games: list[list[Asked]]) -> None:
    variant = get_variant("sports-mafia")
    assert variant.info.prompt_kit is KIT
    for asked in games[1]:
        system, user = variant.render_prompts(asked.obs, asked.legal, "bad target.")
        assert (system, user) == stateless_prompts(
            KIT, asked.obs, asked.legal, None, hint="bad target."
        )
        assert '"says"' not in system + user and '"think"' not in system + user
        assert '"reasoning"' in system and "Your previous answer was refused: bad target." in user
        json.dumps(KIT.decision(asked.obs, asked.legal, coaching=False).example)
