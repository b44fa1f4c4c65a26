"""The Bodyguard, a role that decides at night, added as one unit (``variants/werewolf/
bodyguard.py`` and its line in ``units.py``): his rules, the test kit on a table with him, and
games of him played by bots, by a language model (schema-constrained), by a client over the
wire, by a person in the browser and by ``duskfall check-bot``; and the count of the source
files that name each decision role."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import State, parse_config
from duskfall.session import GameSetup, run_game
from duskfall.store.log import read_log
from duskfall.store.replay import replay
from duskfall.testing import VariantKit
from duskfall.testing.event_types import check_event_types

from .role_games import in_the_browser, over_the_wire

VARIANT = get_variant("werewolf")
TABLE = {"roles": ["Bodyguard", "Werewolf", "Werewolf", "Villager", "Villager", "Seer", "Witch"]}
IN_ORDER = {**TABLE, "deal": "in_order"}  # the Bodyguard is seat 0, the Seer seat 5
ROOT = Path(__file__).resolve().parents[3]


def drive(state: State, answer: Any) -> list[Any]:
    """Answer every decision (``answer(seat, kind)``, None: the fallback) until the end."""
    rng = random.Random(0)
    events = list(state.opening_events())
    while state.outcome() is None:
        for decision in list(state.pending()):
            legal = state.legal(decision.seat)
            action = answer(decision.seat, decision.kind) or legal.default(rng)
            events += state.apply(decision.seat, action)
    return events


def first_night(events: list[Any]) -> dict[str, Any]:
    return next(e.payload for e in events if e.kind == "night_resolved")


def night_one(wolves_kill: int, protects: int, witch: str = "PASS") -> list[Any]:
    state = VARIANT.new_game(parse_config(VARIANT, {**IN_ORDER, "badge": False}), 1)

    def answer(seat: int, kind: str) -> Any:
        if state.day > 1:
            return None  # the fallback plays on
        if kind == "WOLF_KILL":
            return {"type": kind, "target": wolves_kill}
        if kind == "BODYGUARD":
            return {"type": kind, "target": protects}
        if kind == "WITCH":
            return {"type": kind, "potion": witch, "target": 3 if witch == "POISON" else None}
        if kind == "SEER":
            return {"type": kind, "target": 1}
        return None

    return drive(state, answer)


def test_he_dies_in_the_place_of_the_player_he_protects() -> None:
    night = first_night(night_one(wolves_kill=5, protects=5))
    assert night["attacked"] == 5 and night["deaths"] == [{"seat": 0, "cause": "wolves"}]


def test_another_protection_leaves_the_attacked_player_to_die() -> None:
    night = first_night(night_one(wolves_kill=5, protects=4))
    assert night["deaths"] == [{"seat": 5, "cause": "wolves"}]


def test_the_antidote_saves_the_player_and_him_and_poison_is_not_stopped() -> None:
    saved = first_night(night_one(wolves_kill=5, protects=5, witch="ANTIDOTE"))
    assert saved["deaths"] == []
    poisoned = first_night(night_one(wolves_kill=4, protects=3, witch="POISON"))
    assert {"seat": 3, "cause": "poison"} in poisoned["deaths"]


def test_his_choice_is_any_other_living_player_and_he_must_choose() -> None:
    state = VARIANT.new_game(parse_config(VARIANT, IN_ORDER), 2)
    while not any(d.kind == "BODYGUARD" for d in state.pending()):
        for decision in list(state.pending()):
            state.apply(decision.seat, state.legal(decision.seat).default(random.Random(0)))
    legal = state.legal(0)
    assert legal.kind == "BODYGUARD" and 0 not in legal.targets and not legal.none_allowed
    assert "you die in their place" in legal.question
    assert {d.kind for d in state.pending()} == {"BODYGUARD", "SEER"}  # asked at once
    events = state.apply(0, {"type": "BODYGUARD", "target": 5})
    events += state.apply(5, {"type": "SEER", "target": 1})
    [action] = [e for e in events if e.kind == "bodyguard_action"]
    assert action.visibility == "seats:0"
    assert VARIANT.format_event(action).endswith("seat 0 protects seat 5")
    assert VARIANT.info.spectator.marks(action)[0]["mark"] == "guarded"


def test_every_prompt_knows_the_rule_and_his_own_says_his_power() -> None:
    kit = VARIANT.info.prompt_kit
    assert kit is not None
    state = VARIANT.new_game(parse_config(VARIANT, IN_ORDER), 2)
    system = kit.system(state.observe(3), coaching=False)
    assert "The Bodyguard protects one other living player" in system
    own = kit.system(state.observe(0), coaching=True)
    assert "You are seat 0 (Ada), the Bodyguard" in own and "you die in their place" in own
    assert VARIANT.info.facts.mode("BODYGUARD") == "protect"
    assert "BODYGUARD" in VARIANT.info.kit.rows
    assert any(t.name == "werewolf-bodyguard" for t in VARIANT.info.kit.tables)


@pytest.mark.parametrize("check", ["api", "determinism", "replay"])
def test_the_kit_passes_on_a_table_with_him(check: str, tmp_path: Path) -> None:
    VariantKit("werewolf", configs=[TABLE], playouts=60, leak_games=4).run(check, tmp_path)


def test_his_event_has_its_declared_type() -> None:
    assert "bodyguard_action" in check_event_types(VARIANT, [IN_ORDER], [1, 2])


def test_no_seat_learns_what_it_may_not_know_with_him_at_the_table() -> None:
    VariantKit("werewolf", configs=[IN_ORDER], leak_games=12).check_no_leak()


def test_heuristic_bots_protect_the_seer_and_he_falls_for_someone_in_some_games() -> None:
    config = parse_config(VARIANT, TABLE)
    fell = protected_seer = 0
    for seed in range(30):
        state = VARIANT.new_game(config, seed)
        bots = {s: VARIANT.bots()["heuristic"](s, random.Random(seed * 100 + s))
                for s in range(state.num_seats)}  # fmt: skip
        events = list(state.opening_events())
        while state.outcome() is None:
            for d in list(state.pending()):
                events += state.apply(d.seat, bots[d.seat].act(state.observe(d.seat),
                                                                state.legal(d.seat)))  # fmt: skip
        guard = state.role_of.index("Bodyguard")
        seer = state.role_of.index("Seer")
        for e in events:
            protected_seer += e.kind == "bodyguard_action" and e.payload["target"] == seer
            if e.kind == "night_resolved":
                fell += any(d["seat"] == guard for d in e.payload["deaths"]) and (
                    e.payload["attacked"] != guard
                )
    assert fell > 0 and protected_seer > 0


async def test_a_language_model_plays_him_with_constrained_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUSKFALL_DB", "off")
    path = tmp_path / "llm.jsonl"
    await run_game(GameSetup("werewolf", seed=2, agents="llm:scripted", config=IN_ORDER,
                             log_path=path))  # fmt: skip
    log = read_log(path)
    replay(log)
    calls = [e for e in log.events if e.kind == "llm_call" and e.payload.get("seat") == 0]
    assert calls and "the Bodyguard" in calls[0].payload["messages"][0]["content"]
    assert any(e.kind == "bodyguard_action" for e in log.events)
    assert not [e for e in log.events if e.kind in ("fallback", "participant_error")]


async def test_a_client_plays_him_over_the_wire(tmp_path: Path) -> None:
    requests, log = await over_the_wire(tmp_path, IN_ORDER, 2)
    assert "BODYGUARD" in [r["phase"] for r in requests]
    assert any(e.kind == "bodyguard_action" for e in log.events)


def test_a_person_plays_him_in_the_browser_seat(tmp_path: Path) -> None:
    asked, log = in_the_browser(tmp_path, IN_ORDER, 2)
    mine = [r for r in asked if r["kind"] == "BODYGUARD"]
    assert mine and mine[0]["knows"]["headline"].endswith("the Bodyguard")
    assert any(e.kind == "bodyguard_action" for e in log.events)


@pytest.mark.subprocess
def test_check_bot_plays_him_and_reports_his_decision() -> None:
    client = [sys.executable, "-m", "duskfall", "connect", "--host", "{host}", "--port",
              "{port}", "--quiet"]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "duskfall", "check-bot", "--scenario", "werewolf-bodyguard",
         "--", *client],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    print(result.stdout[-3000:], result.stderr[-2000:])
    assert result.returncode == 0
    assert re.search(r"^pass\s+werewolf BODYGUARD\s", result.stdout, re.MULTILINE)


ROLE_FILES = {
    "Bodyguard": (2, 2), "Idiot": (2, 2), "Guard": (4, 8), "Seer": (4, 5), "Witch": (4, 6),
}  # fmt: skip
"""The most files that may name each role: of ``variants/werewolf/``, and of all ``src/``. A role
that is a unit takes its module and its line in ``units.py``; the Guard, the Seer and the Witch
add the tables that deal several roles (``roles.py``: the presets, the check-bot's tables) and
the learning encoder's fixed layout (``encoder.py``), and outside the variant the GM's night
roles (``gm/shadow.py``: the werewolf rules' wire vocabulary, and the Witch's potion words, that
the GM's shadow game answers in); the Guard and the Witch also the check-bot's steering
(``kit/scenarios.py``: a bot Witch passes), and the Guard the web's unrelated request
``Guard`` (``web/guard.py``, ``web/app.py``)."""


def naming_files(role: str) -> set[str]:
    """The files of ``src/`` that name ``role``: its name or constant (``Guard``, ``GUARD``,
    ``GUARD_UNIT``; not ``Bodyguard``, ``guarded`` or ``GUARDED``), or its events
    (``guard_action``, ``witch_told``)."""
    import duskfall

    src = Path(duskfall.__file__).parent
    lower = role.lower()
    word = re.compile(
        rf"(?<![A-Za-z])({role}|{role.upper()})(?![A-Za-z])|\b{lower}_(action|told)\b"
    )
    return {
        path.relative_to(src).as_posix()
        for path in src.rglob("*.py")
        if word.search(path.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize("role", list(ROLE_FILES))
def test_each_decision_role_names_few_source_files(role: str) -> None:
    files = naming_files(role)
    in_variant = {f for f in files if f.startswith("variants/werewolf/")}
    print(role, len(in_variant), len(files), sorted(files))
    most_in_variant, most = ROLE_FILES[role]
    assert len(in_variant) <= most_in_variant and len(files) <= most, sorted(files)


def test_the_bodyguard_the_guard_and_the_witch_each_have_a_module_and_a_line_in_units() -> None:
    assert naming_files("Bodyguard") == {"variants/werewolf/bodyguard.py",
                                         "variants/werewolf/units.py"}  # fmt: skip
    assert {"variants/werewolf/guard.py", "variants/werewolf/units.py"} <= naming_files("Guard")


def test_the_seer_is_named_by_his_module_the_registry_the_tables_and_the_encoder() -> None:
    variant = "variants/werewolf/"
    assert naming_files("Seer") == {
        *(variant + name for name in ("seer.py", "units.py", "roles.py", "encoder.py")),
        "gm/shadow.py",
    }


def test_the_witch_is_named_by_her_module_the_registry_the_tables_and_the_encoder() -> None:
    variant = "variants/werewolf/"
    witch = {f for f in naming_files("Witch") if f.startswith(variant)}
    assert witch == {variant + name for name in ("witch.py", "units.py", "roles.py", "encoder.py")}
