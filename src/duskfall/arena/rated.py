"""A scheduled game's result as the board's model reads it (:class:`RatedGame`).

Who sat where comes from the schedule's slot, each seat's role and side from the deal (the
slot's config and seed), the result from the winner: 1 the evil side won, 0 the village, 0.5 a
draw. An aborted game is not rated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from duskfall.arena.schedule import Slot
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.core.registry import get_variant
from duskfall.core.sides import EVIL, side_of
from duskfall.core.variant import parse_config
from duskfall.rating.bradley_terry import RatedGame, RatedSeat

ABORTED = "aborted"


def block_labels(config: TournamentConfig) -> list[str]:
    """A name per block (``werewolf:werewolf-9``, then the forks blocks' ``forks:day:2:village``),
    numbered where two share one."""
    labels = [block.label for block in config.variants] + [b.label for b in config.forks]
    repeated = {label for label, n in Counter(labels).items() if n > 1}
    return [f"{label}#{i + 1}" if label in repeated else label for i, label in enumerate(labels)]


def result_of(winner_side: str | None, termination: str) -> float | None:
    """1.0 evil won, 0.0 village won, 0.5 a draw, None not rated (aborted)."""
    if termination == ABORTED:
        return None
    if winner_side is None:
        return 0.5
    return 1.0 if winner_side == EVIL else 0.0


def rated_game(
    slot: Slot, labels: Sequence[str], winner_team: str | None, termination: str
) -> RatedGame | None:
    """The slot's game with this ending (``winner_team``: the variant's team name)."""
    variant = get_variant(slot.variant)
    side = None if winner_team is None else side_of(variant, winner_team)
    result = result_of(side, termination)
    if result is None:
        return None
    state = variant.new_game(parse_config(variant, slot.config), slot.seed)
    roles = state.roles()
    seats = tuple(
        RatedSeat(slot.seats[s], roles[s], side_of(variant, state.team_of(s)))
        for s in range(state.num_seats)
    )
    return RatedGame(labels[slot.block], slot.deal, seats, result)
