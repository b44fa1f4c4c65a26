"""What the page tells about roles is true, for every variant: every role an event reveals
(on the cards and in the timeline) is a true fact about the seat it is put on, and a seat's
own role never changes in its own view (issue 30: mafia put an exiled player's role on seat 0
and a check's result on the checker's own seat)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from duskfall.core.registry import get_variant
from duskfall.core.variant import State, parse_config
from duskfall.store.log import LogHeader
from duskfall.testing.playouts import play_random_game
from duskfall.web.timeline import Timeline

TABLES = [
    ("werewolf", {"preset": "werewolf-9"}),
    ("mafia", {}),
    ("mafia", {"roles": ["MAFIA+DOCTOR", "DOCTOR", "MAFIA+SHERIFF", "SHERIFF", "VIGILANTE",
                         "VIGILANTE", "VILLAGER", "VILLAGER", "VILLAGER"],
               "allow_multi_role": True}),
    ("sports-mafia", {}),
]  # fmt: skip
SEEDS = range(12)


def truths(state: State, seat: int) -> set[str]:
    """Every word that is true of ``seat``: its role(s), its team, its channels."""
    role = state.roles()[seat]
    words = {role, *role.split("+"), state.team_of(seat), *state.channels(seat)}
    return {w.lower() for w in words}


def true_of(label: str, facts: set[str]) -> bool:
    """A revealed label (``MAFIA``, ``BLACK (checked)``, ``not sheriff (checked)``) is true."""
    said = label.lower().removesuffix(" (checked)")
    if said.startswith("not "):
        return said.removeprefix("not ") not in facts
    return said in facts


@pytest.mark.parametrize(("variant_id", "config"), TABLES, ids=lambda v: str(v)[:30])
def test_every_revealed_role_is_true_and_a_seats_own_role_never_changes(
    variant_id: str, config: dict[str, object]
) -> None:
    variant = get_variant(variant_id)
    for seed in SEEDS:
        game = play_random_game(variant, config, seed)
        state = variant.new_game(parse_config(variant, config), seed)
        header = LogHeader(f"g{seed}", variant_id, dict(config), seed, [{}] * state.num_seats)
        timeline = Timeline(header)
        for event in game.events:
            timeline.add(event)
        facts = {seat: truths(state, seat) for seat in range(state.num_seats)}
        own: dict[int, set[str]] = defaultdict(set)
        for frame in timeline.frames:
            for seat, label in frame.view["reveals"].items():
                assert true_of(label, facts[int(seat)]), (seed, frame.view["text"], seat, label)
            for seat in frame.seats:  # what the seat's own view says of the seat itself
                label = frame.view["reveals"].get(str(seat))
                if label is not None:
                    own[seat].add(label.lower().removesuffix(" (checked)"))
        names = {role.lower() for role in variant.info.roles}
        for seat, labels in own.items():  # one role, besides its team's and channels' names
            groups = {state.team_of(seat).lower(), *(c.lower() for c in state.channels(seat))}
            roles = {w for w in labels - groups if w in names or "+" in w}
            assert len(roles) <= 1, (seed, seat, labels)
