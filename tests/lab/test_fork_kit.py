"""Forks of every variant, through the kit: at every phase boundary a fork with the parent's
agents and seed plays the parent's game again and its link verifies; forked model seats are
shown their seat's whole history and nothing else (a few games in the quick tier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from duskfall.core.prompting import Entry, flatten
from duskfall.runtime import seen
from duskfall.testing.forks import check_fork_prompts, check_forks

CONFIGS = {
    "werewolf": [{"preset": "werewolf-12"}, {"preset": "werewolf-6", "badge": False}],
    "mafia": [{}, {"players": 6}],
    "sports-mafia": [{}],
}


@pytest.mark.parametrize("variant", sorted(CONFIGS))
def test_a_fork_at_every_phase_boundary_replays_the_parent_exactly(
    variant: str, tmp_path: Path
) -> None:
    assert check_forks(variant, CONFIGS[variant], tmp_path) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(CONFIGS))
def test_forks_of_more_games_and_random_bots(variant: str, tmp_path: Path) -> None:
    check_forks(variant, CONFIGS[variant], tmp_path, seeds=range(1, 4))
    check_forks(variant, CONFIGS[variant], tmp_path, agents="random", seeds=range(2))


@pytest.mark.parametrize("variant", sorted(CONFIGS))
def test_forked_model_seats_see_their_whole_history_and_nothing_else(
    variant: str, tmp_path: Path
) -> None:
    assert check_fork_prompts(variant, CONFIGS[variant][:1], tmp_path, every=3) > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(CONFIGS))
def test_forked_model_seats_at_every_boundary(variant: str, tmp_path: Path) -> None:
    check_fork_prompts(variant, CONFIGS[variant], tmp_path, seeds=range(1, 3))


def test_the_fork_prompt_check_catches_a_seat_shown_what_it_could_not_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A planted leak: every seat's history made of every rules event of the game."""

    def everything(self: seen.SeenEvents, seat: int) -> list[Entry]:
        return [flatten(event) for event in self._events() if event.source == "rules"]

    monkeypatch.setattr(seen.SeenEvents, "entries", everything)
    with pytest.raises(AssertionError, match="could not see"):
        check_fork_prompts("werewolf", [{"preset": "werewolf-6"}], tmp_path, every=100)
