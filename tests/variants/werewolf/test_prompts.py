"""Prompts are built from the seat's view only, and ask for one output contract."""

from __future__ import annotations

import json
import random

from duskfall.core.transcript import stateless_prompts
from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.prompt_kit import KIT
from duskfall.variants.werewolf.testing import scramble_hidden

from .table import QUIET_NIGHT, SEER, WITCH, game, settle


def test_a_werewolfs_prompt_names_its_partners_but_never_the_seer() -> None:
    state = game()  # wolves 0-3, seer 8 (Iris)
    system, user = VARIANT.render_prompts(state.observe(0), state.legal(0), None)
    assert "You are seat 0 (Ada), the Werewolf, on the werewolf team." in system
    assert "Your fellow werewolves: seat 1 (Bram), seat 2 (Cleo), seat 3 (Dax)." in system
    assert "(Iris) (" not in system + user  # nothing is known of the seer's seat
    # the strong form: move the seer anywhere else and the wolf's prompts do not change
    for seed in range(20):
        other = scramble_hidden(state, 0, random.Random(seed))
        assert VARIANT.render_prompts(other.observe(0), other.legal(0), None) == (system, user)


def test_the_seers_results_are_in_its_situation_and_nowhere_in_a_villagers_prompt() -> None:
    state = game()
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 4, "SEER": 2})
    seer_system, seer_user = VARIANT.render_prompts(state.observe(SEER), state.legal(SEER), None)
    assert "Your checks: night 1: seat 2 (Cleo) is Werewolf." in seer_user
    assert "seat 2 (Cleo) (checked: Werewolf)" in seer_user
    assert "Cleo) is Werewolf" not in seer_system  # private knowledge that changes
    villager_system, villager_user = VARIANT.render_prompts(state.observe(5), state.legal(5), None)
    assert "Cleo) is Werewolf" not in villager_system + villager_user
    assert "checked" not in villager_user and "fellow werewolves" not in villager_system


def test_prompts_ask_for_reasoning_and_action_only_and_carry_the_hint() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=4)
    system, user = VARIANT.render_prompts(state.observe(WITCH), state.legal(WITCH), "try again")
    assert '"reasoning"' in system and 'then "action"' in system
    assert '"think"' not in system + user and '"says"' not in system + user
    assert "Tonight the werewolves attacked seat 4 (Edda)." in user
    assert user.endswith("Your previous answer was refused: try again Answer again.")


def test_render_prompts_is_the_stateless_composition_of_the_kit() -> None:
    state = game()
    settle(state, WOLF_CHAT="I say we take Edda.", WOLF_KILL=4)
    obs, legal = state.observe(WITCH), state.legal(WITCH)
    assert VARIANT.info.prompt_kit is KIT
    assert KIT.entries(obs) is obs["history"]
    expected = stateless_prompts(KIT, obs, legal, obs["history"], hint="h")
    assert VARIANT.render_prompts(obs, legal, "h") == expected


def test_a_speech_decision_asks_for_the_words_in_the_action_and_says_who_hears_them() -> None:
    state = game()
    _, user = VARIANT.render_prompts(state.observe(0), state.legal(0), None)
    assert "Only your fellow werewolves hear it." in user
    example = {"type": "WOLF_CHAT", "says": "<what you say>"}
    assert f'Your "action" is shaped like {json.dumps(example)}' in user


def test_god_view_lines_escape_markup_and_cover_every_event() -> None:
    state = game()
    settle(state, WOLF_CHAT="[bold]kill[/bold] seat 4", WOLF_KILL=4)
    lines = [VARIANT.format_event(e) for e in state.events]
    assert all(lines), [e.kind for e, line in zip(state.events, lines, strict=True) if not line]
    assert any("\\[bold]kill" in line for line in lines if line)
