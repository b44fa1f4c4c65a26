"""Endpoint slots as leases: never more holders than the limit, a dead holder's slot back
once its lease runs out, a ticket given back before it was granted never granted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from duskfall.arena.leases import LeaseTable


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_dead_holders_slot_comes_back_when_its_lease_runs_out() -> None:
    clock = Clock()
    table = LeaseTable(ttl=3.0, clock=clock)
    assert table.take("endpoint", 1, "t1", "worker-a") is True
    assert table.take("endpoint", 1, "t2", "worker-b") is False  # the only slot is held
    clock.now = 2.0
    assert table.renew("worker-a") == 1  # worker-a is alive: held until 5.0
    clock.now = 4.9
    assert table.take("endpoint", 1, "t2", "worker-b") is False
    clock.now = 5.0  # worker-a died after its renewal at 2.0: nobody renewed since
    assert table.take("endpoint", 1, "t2", "worker-b") is True
    assert table.holders() == [("endpoint", "worker-b")]


def test_a_ticket_given_back_while_it_waited_is_never_granted() -> None:
    table = LeaseTable(ttl=10.0, clock=Clock())
    assert table.take("endpoint", 1, "t1", "a") is True
    assert table.take("endpoint", 1, "t2", "b") is False
    assert table.give_back("t2") is False  # the caller gave up waiting
    assert table.give_back("t1") is True
    assert table.take("endpoint", 1, "t2", "b") is None  # the late wait is not granted
    assert table.held("endpoint") == 0


operations = st.lists(
    st.tuples(
        st.sampled_from(["take", "give_back", "renew", "tick"]),
        st.integers(0, 5),  # ticket / holder number
        st.floats(0, 2),  # time step
    ),
    max_size=80,
)


@settings(max_examples=200, deadline=None)
@given(operations, st.integers(1, 3))
def test_no_more_leases_than_the_limit_whatever_happens(
    steps: list[tuple[str, int, float]], limit: int
) -> None:
    clock = Clock()
    table = LeaseTable(ttl=1.5, clock=clock)
    for action, number, step in steps:
        if action == "take":
            table.take("endpoint", limit, f"t{number}", f"h{number % 3}")
        elif action == "give_back":
            table.give_back(f"t{number}")
        elif action == "renew":
            table.renew(f"h{number % 3}")
        else:
            clock.now += step
        table.expire()
        assert 0 <= table.held("endpoint") <= limit
        assert table.held("endpoint") == len(table.holders())


def test_a_table_started_again_learns_the_slots_still_held_and_hands_out_none_before() -> None:
    clock = Clock()
    table = LeaseTable(ttl=3.0, clock=clock, restarted=True)
    assert table.take("endpoint", 1, "new", "c") is False  # grace: holders may not have told yet
    table.renew("a", {"t1": "endpoint"})  # a's renewal: it still holds t1
    clock.now = 1.6  # grace over
    assert table.take("endpoint", 1, "new", "c") is False  # t1 is held
    table.give_back("t1")
    table.renew("a", {"t1": "endpoint"})  # a renewal sent before the release, arriving after it
    assert table.take("endpoint", 1, "new", "c") is True


def test_a_table_that_never_restarted_trusts_only_itself() -> None:
    table = LeaseTable(ttl=3.0, clock=Clock())
    table.renew("a", {"ghost": "endpoint"})
    assert table.held("endpoint") == 0
