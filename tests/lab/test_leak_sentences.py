"""The leak reader on its development set of labelled speeches in four languages (the
held-out set is read by ``benchmarks/leaks.py --sentences heldout`` only)."""

from __future__ import annotations

from duskfall.lab.leaks import read_speech
from duskfall.testing.leak_sentences import WOLF, load, score, table_words


def test_the_development_set_is_read_in_every_language() -> None:
    speeches = load("dev")
    assert {s.language for s in speeches} == {"en", "de", "fr", "es"}
    scores = score(speeches)
    for (kind, language), entry in scores.items():
        assert entry.leaks and entry.clean, (kind, language)
        assert entry.alarms == 0, (kind, language, entry.flagged)
        assert entry.recall.rate >= 0.8, (kind, language, entry.missed)


def test_one_of_us_is_a_teammate_exposure_too() -> None:
    """It gives the speaker away ("us werewolves") and its teammate ("seat 5 is one of us")."""
    reading = read_speech(table_words(), WOLF, "Seat 5 is one of us werewolves.")
    assert reading.teammate is not None and reading.teammate.startswith("Seat 5 is one of us")
    assert reading.self_exposure == "us werewolves"
    clean = read_speech(table_words(), WOLF, "Seat 6 is one of us villagers, trust him.")
    assert clean.teammate is None


def test_the_blind_set_is_whole_and_well_formed() -> None:
    """The other writer's set (read for its figures by ``benchmarks/leaks.py --sentences
    blind`` only): every kind and language, with exposures and clean speeches of each."""
    speeches = load("blind")
    assert len(speeches) == 352
    cells = {(s.kind, s.language) for s in speeches}
    assert cells == {
        (k, lang)
        for k in ("self", "teammate", "claim", "result")
        for lang in ["en", "de", "fr", "es"]
    }
    for kind, language in cells:
        cell = [s for s in speeches if (s.kind, s.language) == (kind, language)]
        assert sum(s.leak for s in cell) == 12 and sum(not s.leak for s in cell) == 10
