"""The shared choice vocabulary (a seat, nobody, yes/no, free text) and the one vote tally,
as every variant reads and counts with them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from duskfall.core.choices import (
    default_seat,
    is_nobody,
    read_seat,
    read_text,
    read_yes_no,
    sample_seat,
)
from duskfall.core.errors import IllegalAction
from duskfall.core.tally import count, seats

NAMES = ("Ada", "Bram", "Cleo")


@pytest.mark.parametrize(
    ("value", "seat"),
    [(2, 2), ("2", 2), ("seat 1", 1), ("#0", 0), ("1 (Bram)", 1), ("cleo", 2),
     ("I vote for Bram.", 1), (None, None), (-1, None), ("abstain", None), ("No one", None)],
)  # fmt: skip
def test_a_seat_is_read_from_every_common_form(value: object, seat: int | None) -> None:
    assert read_seat(value, NAMES) == seat


def test_what_is_not_a_seat_is_refused_with_a_hint() -> None:
    for value, code in (
        (True, "bad_format"),
        ([1], "bad_format"),
        ("Bram or Cleo", "invalid_target"),
    ):
        with pytest.raises(IllegalAction) as refused:
            read_seat(value, NAMES)
        assert refused.value.code == code


def test_nobody_yes_no_and_text() -> None:
    assert is_nobody(" Skip! ") and is_nobody("no kill") and not is_nobody("Bram")
    assert read_yes_no("Yes.") is True and read_yes_no(False) is False
    assert read_yes_no("stay") is False and read_yes_no("maybe") is None
    assert read_text("  two\n\nlines  ", 6) == "two li"


@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=6, unique=True), st.booleans(), st.integers()
)
def test_a_choice_of_seats_falls_back_and_samples_inside_its_options(
    options: list[int], nobody: bool, seed: int
) -> None:
    rng = random.Random(seed)
    fallback = default_seat(rng, options, nobody)
    assert fallback is None if nobody else fallback in options
    drawn = sample_seat(rng, options, nobody)
    assert drawn in options or (nobody and drawn is None)


@given(st.lists(st.tuples(st.integers(0, 8), st.one_of(st.none(), st.integers(0, 8))), max_size=12))
def test_the_tally_counts_every_cast_once_and_names_a_winner_only_without_a_tie(
    casts: list[tuple[int, int | None]],
) -> None:
    tally = count(casts)
    assert sum(tally.counts.values()) + len(tally.abstained) == len(casts)
    assert tally.top == max(tally.counts.values(), default=0)
    assert seats(tally) == sorted(t for t, n in tally.counts.items() if n == tally.top)
    assert tally.winner == (tally.leaders[0] if len(tally.leaders) == 1 else None)
    weighted = count(casts, lambda voter: 1.5 if voter == 0 else 1.0)
    assert weighted.counts.keys() == tally.counts.keys()
    assert all(isinstance(n, float) for n in weighted.counts.values())
    with_nobody = count(casts, nobody_counts=True)
    assert not with_nobody.abstained and sum(with_nobody.counts.values()) == len(casts)


def test_every_variant_reads_nobody_and_yes_no_the_same_way() -> None:
    """A word for nobody passes in werewolf and classic mafia alike; a yes/no word answers
    werewolf's badge run and sports mafia's eliminate-all vote alike."""
    from duskfall.variants.mafia.legal import TargetChoice as MafiaTarget
    from duskfall.variants.sports_mafia.legal import EliminateAllChoice
    from duskfall.variants.werewolf.legal import TargetChoice, YesNoChoice

    vote = TargetChoice("VOTE", (0, 1), True, "abstain", NAMES, "Whom?")
    assert vote.parse("hold").target is None and vote.parse("Bram").target == 1
    kill = MafiaTarget("MAFIA_VOTE", "KILL", (0, 1), NAMES, pass_type="PASS")
    assert kill.parse("no kill").target is None and kill.parse("").target is None
    assert YesNoChoice("BADGE_RUN", "Run?").parse({"type": "BADGE_RUN", "run": "sure"}).yes
    assert EliminateAllChoice().parse({"type": "ELIMINATE_ALL_VOTE", "vote": "sure"}).vote
