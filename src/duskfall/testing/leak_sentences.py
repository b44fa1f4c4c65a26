"""Scoring the leak reader on labelled speeches (``tests/lab/leak_sentences/``).

Each speech is read as one seat of a fixed werewolf table says it (that folder's README): an
exposure is *caught* when the reader finds what its label says (the self-exposure, the
teammate given away, the judgement or the check result expected), and a clean speech is a
*false alarm* when the reader finds that kind of tell in it. :func:`score` gives both per
kind and language.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from duskfall.core.registry import get_variant
from duskfall.core.stats import Proportion
from duskfall.lab.leaks import Reading, read_speech
from duskfall.lab.texts import Vocabulary

SENTENCES = Path(__file__).resolve().parents[3] / "tests" / "lab" / "leak_sentences"
_TABLE = json.loads((SENTENCES / "table.json").read_text(encoding="utf-8"))
NAMES: dict[str, int] = _TABLE["names"]  # the table's players, by name (that folder's README)
ROLES: dict[int, str] = dict(enumerate(_TABLE["roles"]))
TEAMS = {"Werewolf": "werewolf"}
KINDS = ("self", "teammate", "claim", "result")
SPEAKER: dict[str, int] = _TABLE["speakers"]  # who says each kind of speech
WOLF = SPEAKER["self"]


@dataclass(frozen=True)
class Labelled:
    """One labelled speech."""

    language: str
    kind: str
    leak: bool
    expected: tuple[int, bool] | None
    text: str


@dataclass
class Score:
    """Caught exposures and false alarms of one kind and language, with what was missed."""

    caught: int = 0
    leaks: int = 0
    alarms: int = 0
    clean: int = 0
    missed: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)

    @property
    def recall(self) -> Proportion:
        return Proportion(self.caught, self.leaks)

    @property
    def false_alarms(self) -> Proportion:
        return Proportion(self.alarms, self.clean)


def load(name: str, folder: Path = SENTENCES) -> list[Labelled]:
    """The speeches of ``folder/name.tsv`` (language, kind, label, expected, text)."""
    out = []
    with (folder / f"{name}.tsv").open(encoding="utf-8", newline="") as lines:
        for row in csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row or row[0].startswith("#"):
                continue
            language, kind, label, expected, text = row
            wanted = None
            if expected != "-":
                seat, side = expected.split(":")
                wanted = (int(seat), side == "evil")
            out.append(Labelled(language, kind, label == "leak", wanted, text))
    return out


def table_words() -> Vocabulary:
    """The words of the table the speeches are said at."""
    variant = get_variant("werewolf")
    seats = {seat: (role, TEAMS.get(role, "village")) for seat, role in ROLES.items()}
    return Vocabulary.for_seats(variant, seats, NAMES)


def found(speech: Labelled, reading: Reading) -> bool:
    """Whether the reader found the tell ``speech``'s kind is about (its expected one, for
    an exposure that names it)."""
    if speech.kind == "self":
        return reading.self_exposure is not None
    if speech.kind == "teammate":
        return reading.teammate is not None
    judged = reading.claims if speech.kind == "claim" else reading.disclosed
    if speech.leak and speech.expected is not None:
        return any((seat, evil) == speech.expected for seat, evil, _ in judged)
    return bool(judged)


def score(speeches: Iterable[Labelled]) -> dict[tuple[str, str], Score]:
    """(kind, language) -> its score (module docstring)."""
    words = table_words()
    scores: dict[tuple[str, str], Score] = defaultdict(Score)
    for speech in speeches:
        reading = read_speech(words, SPEAKER[speech.kind], speech.text)
        entry = scores[speech.kind, speech.language]
        hit = found(speech, reading)
        if speech.kind in ("self", "teammate") and not speech.leak:
            hit = reading.self_exposure is not None or reading.teammate is not None
        if speech.leak:
            entry.leaks += 1
            entry.caught += hit
            if not hit:
                entry.missed.append(speech.text)
        else:
            entry.clean += 1
            entry.alarms += hit
            if hit:
                entry.flagged.append(speech.text)
    return dict(scores)
