"""The leak reader on its development sets of labelled speeches in four languages, by three
writers (``dev``, ``heldout``, ``writer1``, ``writer2``): floors on what it catches and on its
false alarms, a guard against a change that loses what the reader reads today. The held-out
writer's set (``blind``) is only checked for its shape here; its figures come from
``benchmarks/leaks.py --sentences blind``."""

from __future__ import annotations

import pytest

from duskfall.lab.leaks import read_speech
from duskfall.testing.leak_sentences import SPEAKER, WOLF, Score, load, score, table_words

CHECKER = SPEAKER["claim"]  # the seat that checks players (the claims and results are hers)

KINDS = ("self", "teammate", "claim", "result")
LANGUAGES = ("en", "de", "fr", "es")
# (set, lowest recall of a kind and language, recall of the whole set): measured figures,
# a little below them (dev, heldout: 100%; writer1: 190/192; writer2: 168/192)
FLOORS = [("dev", 1.0, 1.0), ("heldout", 1.0, 1.0), ("writer1", 0.9, 0.98),
          ("writer2", 0.55, 0.85)]  # fmt: skip


@pytest.mark.parametrize(("name", "cell_floor", "set_floor"), FLOORS)
def test_a_development_set_is_read_in_every_language(
    name: str, cell_floor: float, set_floor: float
) -> None:
    speeches = load(name)
    assert {s.language for s in speeches} == set(LANGUAGES)
    scores = score(speeches)
    whole = Score()
    for (kind, language), entry in scores.items():
        assert entry.leaks and entry.clean, (kind, language)
        assert entry.alarms == 0, (kind, language, entry.flagged)
        assert entry.recall.rate >= cell_floor, (kind, language, entry.missed)
        whole.caught += entry.caught
        whole.leaks += entry.leaks
    assert whole.recall.rate >= set_floor, whole.recall


def test_one_of_us_is_a_teammate_exposure_too() -> None:
    """It gives the speaker away ("us werewolves") and its teammate ("seat 5 is one of us")."""
    reading = read_speech(table_words(), WOLF, "Seat 5 is one of us werewolves.")
    assert reading.teammate is not None and reading.teammate.startswith("Seat 5 is one of us")
    assert reading.self_exposure == "us werewolves"
    clean = read_speech(table_words(), WOLF, "Seat 6 is one of us villagers, trust him.")
    assert clean.teammate is None


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("ok real talk im a wolf, gg", "im a wolf"),  # no apostrophe
        ("Je suis un loooup, voilà.", "Je suis un loooup"),  # a letter said three times
        ("Ich bin ein Werwolff.", "Ich bin ein Werwolff"),  # a letter too many
        ("tonight we eat Tom", "we eat"),  # the team's night kill
        ("Heut Nacht fressen wir Tom.", "fressen wir"),  # the verb first
        ("si vous continuez je croque Nina cette nuit", "je croque"),  # a threat, not an "if"
    ],
)
def test_the_wolf_is_read_in_chat_spellings(text: str, found: str) -> None:
    assert read_speech(table_words(), WOLF, text).self_exposure == found


@pytest.mark.parametrize(
    "text",
    [
        "If I were a wolf, I would eat Tom tonight.",
        "si j'étais loup je serais pas aussi bruyant",
        'Tom said "I am a werewolf" as a joke.',
        "Nadie puede probar que soy un lobo.",
        "Ich bin kein Werwolf, ehrlich.",
        "They will eat me tonight, I know it.",
        "Sofia thinks I'm a wolf, she is wrong.",
        "I'm a wolf hunter, not a wolf.",  # the role word qualifies another
        "My wolf read is Tom.",  # a guess, not a pack
        "mon loup c'est Tom",
        "As the wolves would say, tough luck.",
        "The wolves will eat someone tonight, we must vote well.",
        "Elena and I both think Tom is the wolf.",  # paired, but about Tom
        "Elena and I will hunt the wolves together.",
        "Wir Dorfbewohner müssen zusammenhalten.",
    ],
)
def test_denials_hypotheticals_and_quotes_are_no_exposure(text: str) -> None:
    reading = read_speech(table_words(), WOLF, text)
    assert reading.self_exposure is None and reading.teammate is None


def test_judgements_are_hedged_negated_or_withheld() -> None:
    def claims(text: str) -> list[tuple[int, bool]]:
        return [(seat, evil) for seat, evil, _ in read_speech(table_words(), CHECKER, text).claims]

    assert claims("honestly tom seems fine to me") == [(4, False)]
    assert claims("marcos def not a wolf, trust") == [(6, False)]
    assert claims("mi instinto dice q el numero 2 es malo") == [(2, True)]
    assert claims("The oracle's answer on seat six was favourable.") == [(6, False)]
    assert claims("Is Elena a wolf?") == []
    assert claims("bruno sagt lia ist sus") == []
    assert claims("je dis pas que nina est mechante") == []
    assert claims("Si Bruno était un loup, il défendrait Elena.") == []


def test_a_result_is_told_not_planned() -> None:
    def told(text: str) -> bool:
        return bool(read_speech(table_words(), CHECKER, text).disclosed)

    assert told("marco came back clean btw")
    assert told("Hab mir Platz 6 angeschaut, der ist gut.")
    assert not told("I'll check Marco tonight and tell you if he is good.")
    assert not told("tom says he checked bruno, wolf apparently")
    assert not told("je pense qu'elena est loup mais pas de check")


@pytest.mark.parametrize("name", ["blind", "writer1", "writer2"])
def test_the_other_writers_sets_are_whole_and_well_formed(name: str) -> None:
    """Every kind and language, with 12 exposures and 10 clean speeches of each (the blind
    set is read for its figures by ``benchmarks/leaks.py --sentences blind`` only)."""
    speeches = load(name)
    assert len(speeches) == 352
    cells = {(s.kind, s.language) for s in speeches}
    assert cells == {(k, lang) for k in KINDS for lang in LANGUAGES}
    for kind, language in cells:
        cell = [s for s in speeches if (s.kind, s.language) == (kind, language)]
        assert sum(s.leak for s in cell) == 12 and sum(not s.leak for s in cell) == 10
