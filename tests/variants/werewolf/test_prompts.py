"""Prompts are built from the seat's view only (the seed's filtering test, and stronger)."""

from __future__ import annotations

import random

from duskfall.variants.werewolf import VARIANT
from duskfall.variants.werewolf.testing import scramble_hidden

from .table import QUIET_NIGHT, SEER, game, settle


def test_a_werewolfs_prompt_names_its_partners_but_never_the_seer() -> None:
    state = game()  # wolves 0-3, seer 8 (Iris)
    system, user = VARIANT.render_prompts(state.observe(0), state.legal(0), None)
    assert "You are seat 0 (Ada). You are a WEREWOLF." in system
    assert "Your fellow werewolves: seat 1 (Bram), seat 2 (Cleo), seat 3 (Dax)" in system
    assert "seat 8" not in system and "Iris" not in system
    assert [line for line in user.splitlines() if "Seer" in line] == [
        "- Werewolf begins with 4 Werewolves, 4 Villagers, Seer, Witch, Hunter, Guard."
    ]  # the public list of roles in play, nothing more
    # the strong form: move the seer anywhere else and the wolf's prompts do not change
    for seed in range(20):
        other = scramble_hidden(state, 0, random.Random(seed))
        assert VARIANT.render_prompts(other.observe(0), other.legal(0), None) == (system, user)


def test_the_seers_prompt_holds_its_results_and_a_villagers_does_not() -> None:
    state = game()
    settle(state, **{**QUIET_NIGHT, "WOLF_KILL": 4, "SEER": 2})
    seer_system, _ = VARIANT.render_prompts(state.observe(SEER), state.legal(SEER), None)
    assert "Your checks: night 1: seat 2 (Cleo) is Werewolf" in seer_system
    villager_system, villager_user = VARIANT.render_prompts(state.observe(5), state.legal(5), None)
    assert "Cleo) is Werewolf" not in villager_system + villager_user
    assert "fellow werewolves" not in villager_system


def test_prompts_carry_the_decision_the_answer_format_and_the_hint() -> None:
    state = game()
    settle(state, WOLF_CHAT="", WOLF_KILL=4)
    system, user = VARIANT.render_prompts(state.observe(9), state.legal(9), "try again")
    assert '"think"' in system and '"action"' in system
    assert "Your decision now (WITCH)" in user
    assert "'save' to use the antidote on seat 4 (Edda)" in user
    assert "Tonight the werewolves attacked seat 4 (Edda)." in system
    assert user.endswith("Your previous answer was refused: try again Answer again.")


def test_god_view_lines_escape_markup_and_cover_every_event() -> None:
    state = game()
    settle(state, WOLF_CHAT="[bold]kill[/bold] seat 4", WOLF_KILL=4)
    lines = [VARIANT.format_event(e) for e in state.events]
    assert all(lines), [e.kind for e, line in zip(state.events, lines, strict=True) if not line]
    assert any("\\[bold]kill" in line for line in lines if line)
