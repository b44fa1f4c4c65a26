"""The Werewolf prompt kit: periods, a line for every event, digests, labels, examples, system."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
import pytest

from duskfall.core.events import ADMIN
from duskfall.core.prompting import flatten, is_placeholder
from duskfall.core.transcript import render_decision, system_prompt
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.events import TABLE_EVENTS
from duskfall.variants.werewolf.prompt_kit import KIT
from duskfall.variants.werewolf.roles import PRESETS
from duskfall.variants.werewolf.units import UNITS

from .prompt_games import CONFIGS, decisions, new_state, play
from .table import GUARD, QUIET_DAY, QUIET_NIGHT, SEER, WITCH, game, settle

ADMIN_KINDS = {"roles_dealt", "night_resolved"}  # seen by no seat


# -- periods and lines ---------------------------------------------------------------------


def test_the_deal_is_the_setup_and_night_n_comes_before_day_n() -> None:
    state = game()
    settle(state, **QUIET_NIGHT, **QUIET_DAY, WOLF_KILL=None, BADGE_RUN=False)
    periods = [KIT.period(flatten(e)) for e in state.events]
    titles = list(dict.fromkeys(p.title for p in periods))
    assert titles[:4] == ["Setup", "Night 1", "Day 1", "Night 2"]
    assert [p.day for p in periods] == sorted(p.day for p in periods)
    assert periods == sorted(periods)  # the game's order is the periods' order


def test_every_event_a_seat_sees_has_a_line_and_the_markers_none() -> None:
    seen: set[str] = set()
    for config, seed in itertools.product(CONFIGS, range(3)):
        for bot in ("heuristic", "random"):
            state = play(config, seed, bot)
            for seat in range(state.num_seats):
                obs = state.observe(seat)
                for entry in obs["history"]:
                    line = KIT.line(entry, obs)
                    assert (line is None) == (entry["kind"] in KIT.markers), entry
                    seen.add(entry["kind"])
            assert not {e.kind for e in state.events if e.visibility != ADMIN} - seen
    twelve = PRESETS["werewolf-12"]
    dealt = [e for unit in UNITS.values() if unit.name in twelve for e in unit.events]
    kinds = {m.kind for m in (*TABLE_EVENTS, *dealt)}
    assert seen == kinds - ADMIN_KINDS  # every kind a seat sees occurred


def test_every_decisions_prompt_holds_a_line_for_everything_the_seat_saw() -> None:
    for config in CONFIGS[:2]:
        for _, obs, legal in decisions(new_state(config, 7), 7, "random"):
            _, user = VARIANT.render_prompts(obs, legal, None)
            for entry in obs["history"]:
                line = KIT.line(entry, obs)
                if line is not None:
                    assert line.text in user or line.summary in user, line


def test_lines_name_players_and_the_seat_itself() -> None:
    state = game()
    settle(state, WOLF_CHAT="Edda talks too much.", WOLF_KILL={0: 4, "*": 5})
    obs = state.observe(0)
    lines = [line.text for e in obs["history"] if (line := KIT.line(e, obs))]
    assert "seat 0 (Ada) (you) is dealt the Werewolf card" in lines
    assert '[wolves] seat 1 (Bram) says: "Edda talks too much."' in lines
    assert (
        "[wolves] no agreement yet: seat 0 (Ada) (you) -> seat 4 (Edda), "
        "seat 1 (Bram) -> seat 5 (Finn), seat 2 (Cleo) -> seat 5 (Finn), "
        "seat 3 (Dax) -> seat 5 (Finn)"
    ) in lines


def play_to_night_3() -> Any:
    """Night 1: Edda killed, Cleo checked; day 1: the seer claims, Cleo exiled; night 2
    guarded, poisoned; day 2 quiet; stops at night 3's guard and seer."""
    state = game(badge=False)
    night = {**QUIET_NIGHT, "WOLF_CHAT": "", "GUARD": 5, "SEER": 2}
    settle(state, **night, WOLF_KILL=4)
    speeches = {
        SEER: "I am the Seer. Last night I checked seat 2: Cleo is a werewolf! Vote her out.",
        1: "Good morning everyone. It is a fine day. We should think hard.",
        "*": "",
    }
    settle(state, LAST_WORDS="", SPEECH=speeches, VOTE={1: None, 2: 0, "*": 2})
    settle(state, **{**night, "GUARD": 7, "SEER": 3, "WITCH": "poison 1"}, WOLF_KILL=6)
    settle(state, **QUIET_DAY)
    settle(state, WOLF_CHAT="", WOLF_KILL=None, WITCH="pass")
    assert {d.kind for d in state.pending()} == {"GUARD", "SEER"}
    return state


def user_prompt(state: Any, seat: int) -> str:
    return VARIANT.render_prompts(state.observe(seat), state.legal(seat), None)[1]


def section(prompt: str, title: str) -> str:
    start = prompt.index(f"[{title}]")
    end = prompt.find("\n\n", start)
    return prompt[start:end]


def test_older_days_are_digests_keeping_deaths_votes_results_and_claims() -> None:
    state = play_to_night_3()
    seer = user_prompt(state, SEER)
    night1, day1 = section(seer, "Night 1 (digest)"), section(seer, "Day 1 (digest)")
    assert "[seer] seat 8 (Iris) (you) checks seat 2 (Cleo): Werewolf" in night1
    assert "Last night seat 4 (Edda) died." in day1
    assert "[exile vote] seat 2 (Cleo) votes for seat 0 (Ada)" in day1
    for voter in [0, 3, 5, 6, 7, 8, 9, 10, 11]:
        assert re.search(rf"\[exile vote\] seat {voter} \(\w+\)( \(you\))? votes for seat 2", day1)
    assert "[exile vote] seat 1 (Bram) abstains" in day1
    assert "seat 2 (Cleo) is exiled." in day1
    assert (
        '- seat 8 (Iris) (you) says (excerpt): "I am the Seer. Last night I checked seat 2: '
        'Cleo is a werewolf!"\n'
    ) in day1  # "Vote her out." names nobody
    assert "seat 1 (Bram) spoke (no claim or accusation)" in day1
    assert "[Night 2]" in seer and "[Day 2]" in seer  # the previous day stays verbatim
    guard = user_prompt(state, GUARD)
    assert "[guard] seat 11 (Lars) (you) protects seat 5 (Finn)" in section(
        guard, "Night 1 (digest)"
    )


def test_a_digest_keeps_the_potions_and_the_wolves_kill_votes() -> None:
    state = play_to_night_3()
    settle(state, GUARD=None, SEER=5, SPEECH="", LAST_WORDS="", VOTE=None, HUNTER_SHOT=None)
    settle(state, WOLF_CHAT="", WOLF_KILL=None)
    witch = user_prompt(state, WITCH)
    assert "[witch] seat 9 (Jonas) (you) poisons seat 1 (Bram)" in section(
        witch, "Night 2 (digest)"
    )
    obs = state.observe(0)
    lines = [KIT.line(e, obs) for e in obs["history"] if e["kind"] == "werewolf_kill"]
    assert lines[0] is not None and lines[0].digest is None  # kept whole in digests
    assert lines[0].text.endswith(
        "(kill votes: seat 0 (Ada) (you) -> seat 4 (Edda), seat 1 (Bram) -> seat 4 (Edda), "
        "seat 2 (Cleo) -> seat 4 (Edda), seat 3 (Dax) -> seat 4 (Edda))"
    )


@pytest.mark.parametrize(
    ("text", "digest"),
    [
        ("", "seat 5 (Finn) says nothing."),
        ("Lovely weather. Let us be calm.", "seat 5 (Finn) spoke (no claim or accusation)"),
        ("Lovely weather. I am the Hunter.", 'seat 5 (Finn) says (excerpt): "I am the Hunter."'),
        ("Hmm. Bram lies; vote #3.", 'seat 5 (Finn) says (excerpt): "Bram lies; vote #3."'),
        ("Calm down. player 7 is odd.", 'seat 5 (Finn) says (excerpt): "player 7 is odd."'),
    ],
)
def test_a_speech_digest_keeps_the_sentences_naming_a_player_or_a_role(
    text: str, digest: str
) -> None:
    obs = game().observe(0)
    entry = {"kind": "speech", "day": 2, "phase": "DAY", "sub_phase": "SPEECH", "seat": 5}
    line = KIT.line({**entry, "text": text}, obs)
    assert line is not None and line.summary == digest


def test_a_long_speech_digest_is_clipped_with_an_ellipsis() -> None:
    obs = game().observe(0)
    text = "Edda is a wolf, " + "and Finn is with her, " * 40 + "trust me."
    entry = {"kind": "speech", "day": 1, "phase": "DAY", "sub_phase": "LAST_WORDS", "seat": 4}
    line = KIT.line({**entry, "text": text}, obs)
    assert line is not None and line.digest is not None
    assert line.digest.startswith('[last words] seat 4 (Edda) says (excerpt): "Edda is a wolf')
    quoted = line.digest.split('"')[1]
    assert quoted.endswith("...") and 250 <= len(quoted) <= 300
    assert text in line.text  # the verbatim line keeps it all


# -- the situation: labels and private knowledge ---------------------------------------------


def test_a_dead_team_mate_is_marked_dead() -> None:
    state = game(badge=False)
    settle(state, **QUIET_NIGHT, WOLF_KILL=4)
    settle(state, LAST_WORDS="", SPEECH="", VOTE={1: 0, "*": 1})
    _, user = VARIANT.render_prompts(state.observe(0), state.legal(0), None)
    assert "Your fellow werewolves: seat 1 (Bram) (dead), seat 2 (Cleo), seat 3 (Dax)." in user
    assert "seat 1 (Bram) (fellow werewolf) (dead)" in user
    assert "Night 2. You are seat 0 (Ada), the Werewolf." in user


def test_options_are_labelled_for_the_seat() -> None:
    state = game(badge=False)
    settle(state, **{**QUIET_NIGHT, "GUARD": 5, "SEER": 2}, WOLF_KILL=4)
    settle(state, LAST_WORDS="", SPEECH="")
    guard, seer = user_prompt(state, GUARD), user_prompt(state, SEER)
    assert "- seat 5 (Finn) (guarded last night)\n" in guard
    assert "seat 11 (Lars) (you)" in guard
    assert "- seat 2 (Cleo) (checked: Werewolf)\n" in seer
    assert "Players (11 of 12 alive)" in seer and "seat 4 (Edda) (dead)" in seer
    settle(state, VOTE=None)
    settle(state, WOLF_CHAT="")
    wolf = user_prompt(state, 0)
    assert "- seat 0 (Ada) (you)\n- seat 1 (Bram) (fellow werewolf)\n" in wolf


def test_the_witch_is_told_tonights_attack_and_her_potions() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=4)
    situation = KIT.situation(state.observe(WITCH), coaching=False)
    assert "Your antidote: available; your poison: available." in situation
    assert "Tonight the werewolves attacked seat 4 (Edda)." in situation
    assert "seat 4 (Edda) (attacked tonight)" in situation


# -- decisions: examples with placeholders, the witch's one shape ----------------------------


def property_values(schema: Mapping[str, Any], field: str) -> list[Any]:
    """The values ``schema`` allows for ``field`` (a few words for free text)."""
    branches = schema.get("anyOf", [schema])
    values: list[Any] = []
    for branch in branches:
        spec = branch["properties"][field]
        if "const" in spec:
            found = [spec["const"]]
        elif "enum" in spec:
            found = list(spec["enum"])
        elif spec.get("type") == "boolean":
            found = [True, False]
        elif spec.get("type") == "null":
            found = [None]
        else:
            found = ["some words"]
        values.extend(v for v in found if v not in values)
    return values


def check_example(example: Mapping[str, Any], schema: Mapping[str, Any], legal: Any) -> None:
    branches = schema.get("anyOf", [schema])
    for branch in branches:
        assert set(example) == set(branch["properties"]), (example, branch)
    targets = set(getattr(legal, "targets", ())) | set(getattr(legal, "poison_targets", ()))
    assert not [v for v in example.values() if isinstance(v, int) and v in targets]
    holes = [k for k, v in example.items() if is_placeholder(v)]
    validator = jsonschema.Draft202012Validator(schema)
    valid = []
    for values in itertools.product(*(property_values(schema, k) for k in holes)):
        filled = {**example, **dict(zip(holes, values, strict=True))}
        if validator.is_valid(filled):
            valid.append(values)
    assert valid, example
    for i, hole in enumerate(holes):  # every legal value of a placeholder fits the shape
        assert {v[i] for v in valid} == set(property_values(schema, hole)), (hole, valid)


def every_decision() -> Iterator[tuple[Any, Any]]:
    for config, seed in itertools.product(CONFIGS, range(2)):
        for bot in ("heuristic", "random"):
            for _, obs, legal in decisions(new_state(config, seed), seed, bot):
                yield obs, legal


def test_every_example_is_shaped_like_the_schema_and_names_no_target() -> None:
    kinds = set()
    for obs, legal in every_decision():
        decision = KIT.decision(obs, legal, coaching=False)
        check_example(decision.example, legal.schema(), legal)
        kinds.add(legal.kind)
        if hasattr(legal, "targets"):
            for target in legal.targets:
                assert f"- seat {target} (" in decision.text
    assert kinds == {
        "WOLF_CHAT", "WOLF_KILL", "WITCH", "GUARD", "SEER", "BADGE_RUN", "BADGE_SPEECH",
        "BADGE_WITHDRAW", "BADGE_VOTE", "LAST_WORDS", "HUNTER_SHOT", "BADGE_PASS", "SPEECH",
        "VOTE",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("night", "potions"),
    [
        ({"WOLF_KILL": 4}, ["PASS", "ANTIDOTE", "POISON"]),
        ({"WOLF_KILL": None}, ["PASS", "POISON"]),
        ({"WOLF_KILL": WITCH}, ["PASS", "POISON"]),
    ],
)
def test_the_witch_is_shown_one_shape(night: dict[str, Any], potions: list[str]) -> None:
    state = game()
    settle(state, WOLF_CHAT="", **night)
    legal = state.legal(WITCH)
    assert legal.potions() == potions
    decision = KIT.decision(state.observe(WITCH), legal, coaching=False)
    assert decision.example == {"type": "WITCH", "potion": "<potion>", "target": "<seat or null>"}
    for potion in ["PASS", "ANTIDOTE", "POISON"]:
        assert (f'"potion": "{potion}"' in decision.fields) == (potion in potions)
    assert '"potion"' not in decision.text  # what a person at the terminal is shown
    text = render_decision(decision).lower()
    assert "'save'" not in text and "poison n" not in text and "'pass'" not in text
    check_example(decision.example, legal.schema(), legal)


def test_a_witch_with_only_pass_left_is_shown_the_pass_itself() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=None, WITCH="poison 5", GUARD=None, SEER=3)
    settle(state, **QUIET_DAY, BADGE_RUN=False)
    settle(state, WOLF_CHAT="", WOLF_KILL=WITCH)  # her antidote cannot save herself
    legal = state.legal(WITCH)
    assert legal.potions() == ["PASS"]
    decision = KIT.decision(state.observe(WITCH), legal, coaching=False)
    assert decision.example == {"type": "WITCH", "potion": "PASS", "target": None}
    assert (
        "Not available tonight: the antidote (you cannot save yourself); the poison (used up)."
    ) in decision.fields
    check_example(decision.example, legal.schema(), legal)


# -- the system prompt -------------------------------------------------------------------------


def test_a_seats_system_prompt_is_the_same_at_every_decision_of_a_game() -> None:
    for config in CONFIGS[:3]:
        systems: dict[int, set[str]] = {}
        for seat, obs, legal in decisions(new_state(config, 5), 5):
            system, _ = VARIANT.render_prompts(obs, legal, None)
            systems.setdefault(seat, set()).add(system)
        assert systems and all(len(found) == 1 for found in systems.values())
        assert len({next(iter(found)) for found in systems.values()}) == len(systems)


def test_the_rules_describe_only_the_roles_and_options_in_play() -> None:
    six = game(["Werewolf", "Werewolf", "Villager", "Villager", "Seer", "Witch"], badge=False)
    system = KIT.system(six.observe(2), coaching=False)
    assert "Seer" in system and "Witch" in system and "antidote" in system
    for absent in ("Guard", "Hunter", "protect", "shoot", "sheriff", "badge"):
        assert absent not in system, absent
    no_witch = game(["Werewolf", "Villager", "Villager", "Hunter", "Guard"], hunter_shot=False)
    system = KIT.system(no_witch.observe(1), coaching=False)
    for absent in ("Witch", "antidote", "Seer", "Good or a Werewolf"):
        assert absent not in system, absent
    assert "sheriff" in system and "does not shoot" in system
    assert "The werewolves win when every god (Hunter, Guard) is dead" in system


def test_coaching_adds_strategy_only_when_on() -> None:
    state = game()
    for seat in (0, 4, SEER, WITCH, 10, GUARD):
        obs = state.observe(seat)
        plain, coached = KIT.system(obs, coaching=False), KIT.system(obs, coaching=True)
        assert "Strategy" not in plain and "strategy" not in plain
        assert coached.startswith(plain) and "Strategy hints:" in coached
    assert "Strategy" not in system_prompt(KIT, state.observe(0))  # off by default
