"""Mafia's prompt kit over whole bot-played games: every visible event has a line, digests
keep what matters, players are labelled, examples are neutral and fit the schema, the system
prompt never changes, and coaching is the only source of advice."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema
import pytest

from duskfall.core.events import Event, visible_to
from duskfall.core.prompting import flatten, is_placeholder
from duskfall.core.transcript import render_decision, stateless_prompts
from duskfall.variants.mafia.bots import BOTS
from duskfall.variants.mafia.config import MafiaConfig
from duskfall.variants.mafia.legal import TargetChoice
from duskfall.variants.mafia.prompt_history import LINES, MARKERS, OPENING, clip
from duskfall.variants.mafia.prompt_kit import KIT
from duskfall.variants.mafia.rules import MafiaState

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},
    "five": {"players": 5},
    "two-of-each": {
        "roles": [
            *("MAFIA", "MAFIA", "DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF"),
            *("VIGILANTE", "VIGILANTE", "VILLAGER"),
        ]
    },
    "uncoordinated": {
        "roles": ["MAFIA", "MAFIA", "DOCTOR", "DOCTOR", "SHERIFF", "SHERIFF", "VILLAGER"],
        "coordination": False,
    },
    "multi-role": {
        "roles": [
            *("MAFIA+DOCTOR", "DOCTOR", "MAFIA+SHERIFF", "SHERIFF"),
            *("VIGILANTE", "VIGILANTE", "VILLAGER", "VILLAGER", "VILLAGER"),
        ],
        "allow_multi_role": True,
    },
}


@dataclass(frozen=True)
class Moment:
    """One decision of a bot-played game: the seat's view, its choices, what it has seen."""

    seat: int
    obs: dict[str, Any]
    legal: Any
    seen: list[dict[str, Any]]


@cache
def played(name: str, seed: int = 1) -> tuple[list[Moment], list[Event], MafiaState]:
    """Every decision of a heuristic-bot game, with the events each seat could see by then."""
    state = MafiaState(MafiaConfig.model_validate(CONFIGS[name]), seed)
    events = state.opening_events()
    bots = {s: BOTS["heuristic"](s, random.Random(seed * 31 + s)) for s in range(state.num_seats)}
    moments = []
    while state.outcome() is None:
        for decision in state.pending():
            seat = decision.seat
            obs, legal = state.observe(seat), state.legal(seat)
            seen = [flatten(e) for e in events if visible_to(e, seat, state.channels(seat))]
            moments.append(Moment(seat, dict(obs), legal, seen))
            events += state.apply(seat, bots[seat].act(obs, legal))
    return moments, events, state


def every_moment() -> Iterator[tuple[str, Moment]]:
    for name in CONFIGS:
        for moment in played(name)[0]:
            yield name, moment


def prompts(moment: Moment, *, coaching: bool = False) -> tuple[str, str]:
    entries = [*moment.seen]
    return stateless_prompts(KIT, moment.obs, moment.legal, entries, coaching=coaching)


# ------------------------------------------------------------------ lines


def test_every_visible_event_kind_has_a_line() -> None:
    kinds: set[str] = set()
    for _, moment in every_moment():
        for entry in moment.seen:
            kinds.add(entry["kind"])
            line = KIT.line(entry, moment.obs)
            assert (line is None) == (entry["kind"] in MARKERS)
            assert line is None or "{" not in line.text
    assert kinds <= set(LINES) | MARKERS
    assert {"chat", "team_vote", "mafia_target", "doctor_consensus", "investigation"} <= kinds
    assert {"dawn", "speech", "vote_result", "setup", "role", "team"} <= kinds


def test_the_end_of_the_game_has_a_line() -> None:
    _, events, state = played("default")
    end = flatten(next(e for e in events if e.kind == "game_end"))
    line = KIT.line(end, state.observe(0))
    assert line is not None and line.text.startswith("Game over: the ")
    assert KIT.period(end).title == "Game over"


@pytest.mark.parametrize("name", list(CONFIGS))
def test_observation_entries_read_like_the_events(name: str) -> None:
    """A remote client's history (from the observation) has the seat's event lines, in
    order; it adds the seat's own protections, which no visible event carries."""
    for moment in played(name)[0]:
        entries = KIT.entries(moment.obs)
        assert entries is not None
        from_obs = [(KIT.period(e), KIT.line(e, moment.obs)) for e in entries]
        from_events = [
            (KIT.period(e), KIT.line(e, moment.obs))
            for e in moment.seen
            if e["kind"] not in MARKERS | OPENING
        ]
        assert [
            (period, line)
            for period, line in from_obs
            if line is not None and "You protected" not in line.text
        ] == from_events
        periods = [period for period, _ in from_obs]
        assert periods == sorted(periods)


def test_periods_are_nights_and_days() -> None:
    moments, _, _ = played("default")
    titles = {KIT.period(e).title for m in moments for e in m.seen}
    assert {"Setup", "Night 1", "Day 1", "Night 2"} <= titles
    night = KIT.period({"kind": "dawn", "day": 2, "phase": "NIGHT"})
    day = KIT.period({"kind": "speech", "day": 2, "phase": "DAY"})
    assert night < day and night.day == day.day == 2


def test_the_whole_history_is_in_the_prompt() -> None:
    """Old days as digests, the current and previous day verbatim: nothing dropped."""
    moments, _, _ = played("two-of-each")
    last = moments[-1]
    _, user = prompts(last)
    day = max(e["day"] for e in last.seen)
    for entry in last.seen:
        line = KIT.line(entry, last.obs)
        if line is None:
            continue
        recent = KIT.period(entry).day > day - 2
        assert (line.text if recent else line.summary) in user


# ---------------------------------------------------------------- digests


NAMES = {"players": [{"seat": s, "name": n} for s, n in enumerate(["Ann", "Bob", "Cy", "Di"])]}


def digest(entry: dict[str, Any]) -> str:
    line = KIT.line(entry, NAMES)
    assert line is not None
    return line.summary


def test_digests_keep_deaths_votes_and_results() -> None:
    dawn = {
        "kind": "dawn",
        "day": 2,
        "phase": "NIGHT",
        "deaths": [{"seat": 1, "roles": ["DOCTOR"]}],
    }
    assert digest(dawn) == "Dawn: Bob (seat 1) was found dead: DOCTOR."
    vote = {
        "kind": "vote_result",
        "day": 2,
        "phase": "DAY",
        "votes": {"0": 2, "1": 2, "3": None},
        "eliminated": 2,
        "roles": ["MAFIA"],
    }
    assert digest(vote) == (
        "Day vote: Ann (seat 0) votes Cy (seat 2); Bob (seat 1) votes Cy (seat 2); "
        "Di (seat 3) abstains. Result: Cy (seat 2) is eliminated: MAFIA."
    )
    check = {"kind": "investigation", "day": 1, "seat": 3, "target": 2, "roles": ["MAFIA"]}
    assert digest(check) == "[private] Di (seat 3) investigated Cy (seat 2): MAFIA"
    shared = {**check, "channel": "sheriffs"}
    assert digest(shared).startswith("[sheriffs] Di (seat 3) investigated")
    assert digest({"kind": "protection", "day": 1, "target": 0}) == (
        "[private] You protected Ann (seat 0)"
    )
    kill_vote = {
        "kind": "team_vote",
        "channel": "mafia",
        "day": 1,
        "seat": 2,
        "target": 0,
        "tally": {"0": 1},
        "says": "",
    }
    assert digest(kill_vote) == "[mafia] Cy (seat 2) votes to kill Ann (seat 0)"
    shot = {"kind": "vigilante_shot", "day": 1, "seat": 1, "target": 2, "says": "bang"}
    assert digest(shot) == "[private] Bob (seat 1) shoots Cy (seat 2)"


def test_digests_keep_claims_and_accusations_and_clip_the_rest() -> None:
    speech = {
        "kind": "speech",
        "day": 1,
        "phase": "DAY",
        "seat": 0,
        "says": "Good morning all. I checked Cy last night! The weather is fine.",
        "target": 2,
        "claim": "SHERIFF",
    }
    assert digest(speech) == (
        'Ann (seat 0), claims SHERIFF, about Cy (seat 2): "I checked Cy last night!"'
    )
    quiet = {**speech, "says": "Nice weather.", "target": None, "claim": None}
    assert digest(quiet) == "Ann (seat 0) spoke (no claim or accusation)"
    structured = {**speech, "says": "Trust me."}
    assert digest(structured) == "Ann (seat 0), claims SHERIFF, about Cy (seat 2)"
    roles = {**quiet, "says": "A doctor should protect seat 3. Hello."}
    assert digest(roles) == 'Ann (seat 0): "A doctor should protect seat 3."'
    chat = {**quiet, "kind": "chat", "channel": "mafia", "round": 1, "rounds": 2}
    assert digest(chat) == "[mafia chat, round 1 of 2] Ann (seat 0) spoke (no claim or accusation)"


def test_long_text_is_clipped_to_about_300_characters() -> None:
    text = " ".join(f"Bob said {i} things about Cy." for i in range(40))
    kept = clip(text, NAMES)
    assert len(kept) <= 300 and kept.endswith("...")


# ----------------------------------------------------------------- labels


def _moment(name: str, kind: str, day: int = 1, seat: int | None = None) -> Moment:
    return next(
        m
        for m in played(name)[0]
        if m.obs["decision"] == kind and m.obs["day"] >= day and seat in (None, m.seat)
    )


def test_players_are_labelled_relative_to_the_seat() -> None:
    doctor = _moment("two-of-each", "DOCTOR_PROTECTION_VOTE", day=2)
    _, user = prompts(doctor)
    me, obs = doctor.seat, doctor.obs
    mine = obs["players"][me]["name"]
    assert f"- {mine} (seat {me}): alive, you" in user
    fellow = next(s for s in obs["allies"]["doctors"] if s != me)
    assert f"(seat {fellow}): " in user and "fellow doctor" in user
    dead = [p for p in obs["players"] if not p["alive"]]
    for p in dead:
        assert f"- {p['name']} (seat {p['seat']}): dead: {'+'.join(p['roles'])}" in user
    last = obs["private_log"][-1]
    assert last["kind"] == "protection" and last["day"] == obs["day"] - 1
    assert f"(seat {last['target']}): alive" in user
    assert "protected last night" in user


def test_mafia_see_their_team_and_sheriffs_their_checks() -> None:
    mafia = _moment("two-of-each", "MAFIA_VOTE", day=2)
    system, user = prompts(mafia)
    other = next(s for s in mafia.obs["allies"]["mafia"] if s != mafia.seat)
    name = mafia.obs["players"][other]["name"]
    assert f"Your fellow mafia, who share a private chat with you: {name} (seat {other})." in (
        system
    )
    assert f"- {name} (seat {other}): " in user and "fellow mafia" in user
    sheriff = _moment("two-of-each", "SHERIFF_ACTION", day=2)
    _, user = prompts(sheriff)
    assert sheriff.obs["investigations"]
    for check in sheriff.obs["investigations"]:
        assert f"checked: {'+'.join(check['roles'])}" in user


# --------------------------------------------------------------- examples


def _legal_values(schema: Mapping[str, Any]) -> list[Any]:
    """Every value a field's schema allows (enums and null), or a sample string."""
    if "enum" in schema:
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    if "anyOf" in schema:
        return [v for option in schema["anyOf"] for v in _legal_values(option)]
    if schema.get("type") == "null":
        return [None]
    return ["some text"]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_examples_are_neutral_and_fit_the_schema(name: str) -> None:
    checked: set[str] = set()
    for moment in played(name)[0]:
        example = dict(KIT.decision(moment.obs, moment.legal, coaching=False).example)
        schema = moment.legal.schema()
        names = [p["name"].lower() for p in moment.obs["players"]]
        assert not any(n in json.dumps(example).lower() for n in names)
        assert not any(ch.isdigit() for ch in json.dumps(example))
        assert all(is_placeholder(v) for v in example.values())
        key = json.dumps([example, schema], sort_keys=True)
        if key in checked:
            continue
        checked.add(key)
        assert set(example) <= set(schema["properties"])
        assert set(schema.get("required", [])) <= set(example)
        validator = jsonschema.Draft202012Validator(schema)
        choices = {field: _legal_values(schema["properties"][field]) for field in example}
        filled = {field: values[0] for field, values in choices.items()}
        for field, values in choices.items():
            for choice in values:
                validator.validate({**filled, field: choice})


def test_every_option_is_labelled() -> None:
    for _, moment in every_moment():
        text = render_decision(KIT.decision(moment.obs, moment.legal, coaching=False))
        legal = moment.legal
        seats = legal.targets if isinstance(legal, TargetChoice) else legal.mentionable
        for seat in seats:
            assert f"- {moment.obs['players'][seat]['name']} (seat {seat}): " in text
        if isinstance(legal, TargetChoice) and legal.pass_type:
            assert f"- null: {legal.pass_type}" in text


def test_speech_fields_match_the_schema() -> None:
    speech = _moment("default", "DAY_DISCUSSION")
    decision = KIT.decision(speech.obs, speech.legal, coaching=False)
    assert dict(decision.example) == {
        "says": "<your message>",
        "target": "<player it is about, or null>",
        "claim": "<role you claim, or null>",
    }
    chat = _moment("two-of-each", "MAFIA_CHAT")
    assert "claim" not in KIT.decision(chat.obs, chat.legal, coaching=False).example
    _, user = prompts(speech)
    for old in ('"says": "your message', "Output:", '"think"'):
        assert old not in user


def test_a_pass_is_offered_as_null() -> None:
    vote = _moment("default", "DAY_VOTE")
    decision = KIT.decision(vote.obs, vote.legal, coaching=False)
    assert decision.example == {"target": "<player, or null to abstain>"}
    assert "- null: ABSTAIN" in decision.fields and "null" not in decision.text  # a person


# ------------------------------------------------------------ system text


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("coaching", [False, True])
def test_the_system_prompt_never_changes_for_a_seat(name: str, coaching: bool) -> None:
    systems: dict[int, set[str]] = {}
    for moment in played(name)[0]:
        systems.setdefault(moment.seat, set()).add(prompts(moment, coaching=coaching)[0])
    assert systems and all(len(texts) == 1 for texts in systems.values())


def test_roles_not_in_play_are_not_described() -> None:
    five = played("five")[0][0]
    system, _ = prompts(five)
    assert "VIGILANTE" not in system
    assert "Doctors sharing a private chat" not in system
    assert "several roles" not in system
    multi = played("multi-role")[0][0]
    system, _ = prompts(multi)
    assert "VIGILANTE (town side)" in system and "several roles" in system


def test_the_system_prompt_holds_no_changing_knowledge() -> None:
    moments, _, _ = played("two-of-each")
    for moment in moments:
        system, _ = prompts(moment)
        for fact in ("dead:", "alive,", "checked", "protected last", "Dawn", "Output:"):
            assert fact not in system


# --------------------------------------------------------------- coaching


ADVICE = ("score", "priorit", "Strategy", "advice", "Coordinate", "should")


def test_coaching_off_gives_no_advice() -> None:
    for _, moment in every_moment():
        system, user = prompts(moment)
        text = (system + user).replace("Most votes", "")
        for word in ADVICE:
            assert word not in text, (moment.obs["decision"], word)


def test_coaching_on_gives_correct_advice() -> None:
    doctor = _moment("two-of-each", "DOCTOR_COORDINATION")
    system, user = prompts(doctor, coaching=True)
    assert "Strategy hints:" in system
    assert "Coordinate with your fellow doctors" in system
    assert "Protection priorities" in user and "score" in user
    me = doctor.obs["players"][doctor.seat]["name"]
    mine = next(line for line in user.splitlines() if line.startswith(f"{_rank(user, me)}. {me}"))
    assert "fellow doctor" not in mine and "yourself" in mine
    assert "anyone is allowed" not in user
    sheriff = _moment("default", "SHERIFF_ACTION")
    system, user = prompts(sheriff, coaching=True)
    assert "Investigation priorities" in user
    assert "Coordinate" not in system  # a lone sheriff has nobody to coordinate with


def _rank(user: str, name: str) -> str:
    for line in user.splitlines():
        head, _, rest = line.partition(". ")
        if head.isdigit() and rest.startswith(f"{name} "):
            return head
    raise AssertionError(f"{name} is not ranked")


def test_a_doctor_is_told_who_it_may_not_protect() -> None:
    first = _moment("default", "DOCTOR_ACTION")
    text = KIT.decision(first.obs, first.legal, coaching=False).text
    assert "Anyone alive may be protected tonight, yourself included." in text
    later = _moment("default", "DOCTOR_ACTION", day=2)
    text = KIT.decision(later.obs, later.legal, coaching=False).text
    banned = later.obs["context"]["cannot_protect"]
    assert banned and "Not allowed tonight (protected last night): " in text
