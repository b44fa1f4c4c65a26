"""One record of what each seat was shown (core.seen), for the runtime and the variants' rules:
read in pieces as the events grow, it equals the events filtered at once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from duskfall.core.events import ADMIN, PUBLIC, Event, seats_visibility, team_visibility, visible_to
from duskfall.core.prompting import flatten
from duskfall.core.seen import SeenEvents

SEATS = 4
VISIBILITIES = st.sampled_from(
    [PUBLIC, ADMIN, team_visibility("werewolf"), seats_visibility([0]), seats_visibility([1, 2])]
)
EVENTS = st.builds(
    Event,
    kind=st.sampled_from(["a", "b"]),
    payload=st.fixed_dictionaries({"n": st.integers(0, 9)}),
    visibility=VISIBILITIES,
    source=st.sampled_from(["rules", "rules", "chat"]),
)


@given(
    batches=st.lists(st.tuples(st.lists(EVENTS, max_size=6), st.integers(0, SEATS - 1))),
    as_list=st.booleans(),
)
def test_read_in_pieces_it_equals_the_events_filtered_at_once(
    batches: list[tuple[list[Event], int]], as_list: bool
) -> None:
    channels = [frozenset({"werewolf"}) if s in (1, 3) else frozenset() for s in range(SEATS)]
    events: list[Event] = []
    seen = SeenEvents(events if as_list else (lambda: events), channels.__getitem__)
    for batch, seat in batches:
        events.extend(batch)
        seen.entries(seat)  # some seats are brought up to date midway, others never
    for seat in range(SEATS):
        expected = [
            flatten(e)
            for e in events
            if e.source == "rules" and visible_to(e, seat, channels[seat])
        ]
        assert seen.entries(seat) == expected
