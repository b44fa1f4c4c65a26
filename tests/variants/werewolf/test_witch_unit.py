"""The Witch as a role unit (``variants/werewolf/witch.py``): her night turn is declared on her
unit and everything else asks the units registry for it (the rules, the facts, the kit, the
wire, the forms, the no-leak check). Her rules themselves are in ``test_night.py``."""

from __future__ import annotations

import random
from typing import Any

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config
from duskfall.testing import VariantKit
from duskfall.variants.werewolf.units import ATTACK_TOLD, TURNS, UNIT_CHOICES
from duskfall.variants.werewolf.witch import WITCH_UNIT, Potion, WitchChoice

VARIANT = get_variant("werewolf")
TABLE = {"roles": ["Witch", "Werewolf", "Werewolf", "Seer", "Villager", "Villager"],
         "deal": "in_order", "badge": False}  # fmt: skip


def test_her_turn_is_the_registry_s_only_turn_and_everything_reads_it_from_there() -> None:
    assert TURNS == {"WITCH": WITCH_UNIT}
    assert UNIT_CHOICES == (WitchChoice,)  # noqa: SIM300
    assert ATTACK_TOLD == {"witch_told"}  # noqa: SIM300
    assert VARIANT.info.facts.mode("WITCH") == "potion"
    rows = list(VARIANT.info.kit.rows)
    assert rows.index("WITCH") == rows.index("WOLF_KILL") + 1 < rows.index("GUARD")
    first = VARIANT.info.kit.tables[0]
    assert first.name == "werewolf-witch" and first.goal == "witch"
    assert first.config["roles"][0] == "Witch"
    assert VARIANT.info.wire is not None


def _told_and_asked(seed: int) -> tuple[Any, WitchChoice]:
    state = VARIANT.new_game(parse_config(VARIANT, TABLE), seed)
    rng = random.Random(0)
    while not any(d.kind == "WITCH" for d in state.pending()):
        for d in list(state.pending()):
            legal = state.legal(d.seat)
            action = {"type": "WOLF_KILL", "target": 3} if d.kind == "WOLF_KILL" else None
            state.apply(d.seat, action or legal.default(rng))
    legal = state.legal(0)
    assert isinstance(legal, WitchChoice)
    return state, legal


def test_she_is_told_the_attack_and_her_choice_puts_itself_to_every_kind_of_seat() -> None:
    state, legal = _told_and_asked(1)
    obs = state.observe(0)
    assert obs["attacked_tonight"] == 3 and obs["antidote"] and obs["poison"]
    assert legal.attacked == 3 and legal.can_save and 0 not in legal.poison_targets
    words = VARIANT.info.spectator.question(legal)
    assert words is not None and words.startswith("The wolves attacked Dax (seat 3)")
    kit, forms = VARIANT.info.prompt_kit, VARIANT.info.terminal_form
    assert kit is not None and forms is not None
    prompt = kit.decision(obs, legal, coaching=False)
    assert '"potion"' in prompt.fields and "attacked" in prompt.text
    form = forms(obs, legal)
    assert form is not None and "poison <seat>" in form.questions[0].prompt
    _, user = VARIANT.render_prompts(obs, legal, None)
    assert "Your antidote: available; your poison: available." in user


def test_the_antidote_is_spent_once_and_her_view_says_so() -> None:
    state, _ = _told_and_asked(1)
    events = state.apply(0, Potion("ANTIDOTE", 3))
    assert [e.kind for e in events][:1] == ["witch_action"]
    while state.day < 2 or state.phase != "NIGHT":
        for d in list(state.pending()):
            state.apply(d.seat, state.legal(d.seat).default(random.Random(0)))
        if state.outcome() is not None:
            return
    assert state.observe(0)["antidote"] is False


def test_no_seat_learns_her_potions_or_what_she_was_told() -> None:
    VariantKit("werewolf", configs=[TABLE], leak_games=8).check_no_leak()
