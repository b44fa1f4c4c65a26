"""What a person at the terminal is shown of a decision, for every built-in variant: the
question and labelled options with no JSON (the field notes are for models only), and a form
naming what to type."""

from __future__ import annotations

import random

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import parse_config

GAMES = {"werewolf": {"preset": "werewolf-9"}, "mafia": {"players": 7}, "sports-mafia": {}}


@pytest.mark.parametrize("variant_id", list(GAMES))
def test_every_decision_reads_without_json_and_has_a_form(variant_id: str) -> None:
    variant = get_variant(variant_id)
    kit, form_of = variant.info.prompt_kit, variant.info.terminal_form
    assert kit is not None and form_of is not None
    for seed in range(3):
        state = variant.new_game(parse_config(variant, GAMES[variant_id]), seed)
        rng = random.Random(seed)
        while state.outcome() is None:
            seat = state.pending()[0].seat
            obs, legal = state.observe(seat), state.legal(seat)
            decision = kit.decision(obs, legal, coaching=False)
            shown = decision.text
            assert "Field" not in shown and "null" not in shown
            assert not any(f'"{key}"' in shown for key in decision.example), shown
            form = form_of(obs, legal)
            assert form is not None and form.questions
            state.apply(seat, legal.sample(rng))
