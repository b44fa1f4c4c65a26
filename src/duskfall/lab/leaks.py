"""Self-exposure and leak metrics, read from a game's log (:mod:`duskfall.lab.texts`).

Per seat, over its public speeches:

* **self-exposure**: an evil seat naming its own role or team in the first person ("I am a
  werewolf", "as one of the mafia", "I'm with the wolves", "we wolves", "my fellow wolves"); a
  negation ("I am not a werewolf") is not one;
* **teammate exposure**: an evil seat naming a teammate as evil ("seat 4 is a werewolf") or as
  its partner ("my partner seat 4", "seat 4 and I are on the same team");
* **leaks**: a run of at least ``min_words`` words (8 by default) of the same seat's private
  text found verbatim in a public speech, by source: its team's private chat, its reasoning
  (a model that pastes its thinking), its private results (a check, a night's news: short
  lines, so all their words but one are enough). A model that plans its speech word for word
  in its reasoning shows up as a reasoning leak too: read the findings;
* **seer claims**: a checking seat's public claims about a player ("seat 4 is a werewolf",
  "I investigated Elena: MAFIA", "seat 2 is good") against what its checks really said:
  true, false, or unfounded (a seat it never checked, or not yet); a claim that says it
  comes from a check ("I checked Elena: a wolf") is counted as a disclosed result (play,
  not a tell: no finding).

The reader (:mod:`duskfall.lab.reader`) reads English, German, French and Spanish on folded
words (:mod:`duskfall.lab.fold`: no case or accents, chat spellings and one-letter slips read
as the word) by rules with a scope: a negation in the clause, a hypothetical, words reported
from someone else or quoted, a question cancel a cue ("nobody can prove I am a wolf", "no soy
un lobo", "if I were a wolf"). No model is asked, and a game is read in milliseconds. A
seat's judgements include hedged ones ("Tom seems fine"); the seer claims above count the
firm ones only, in the game's own words ("seat 4 is a werewolf").

``since`` counts only speeches from that event on (a fork's own part: its prefix is the
parent's); reasoning is read from there too (a fork's seats never saw the parent's), chats and
results from the whole log (the seat lived through them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from duskfall.core.counts import Summable
from duskfall.core.variant import Variant
from duskfall.lab.reader import Reader
from duskfall.lab.texts import Check, Said, Vocabulary, texts_of
from duskfall.store.log import GameLog
from duskfall.store.replay import new_state_for

MIN_WORDS = 8
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[\w']+")


@dataclass
class LeakMetrics(Summable):
    """Counts for one seat of one game (or sums over many: ``a + b``)."""

    speeches: int = 0
    evil_speeches: int = 0
    self_exposures: int = 0
    teammate_exposures: int = 0
    chat_leaks: int = 0
    reasoning_leaks: int = 0
    result_leaks: int = 0
    disclosed_results: int = 0
    seer_claims: int = 0
    true_claims: int = 0
    false_claims: int = 0
    unfounded_claims: int = 0

    @property
    def exposure_rate(self) -> float | None:
        """Self and teammate exposures per public speech of an evil seat."""
        exposures = self.self_exposures + self.teammate_exposures
        return exposures / self.evil_speeches if self.evil_speeches else None

    @property
    def leak_rate(self) -> float | None:
        """Speeches with a verbatim span of private text, per public speech."""
        leaks = self.chat_leaks + self.reasoning_leaks + self.result_leaks
        return leaks / self.speeches if self.speeches else None

    @property
    def seer_accuracy(self) -> float | None:
        """The share of a checking seat's claims about checked players that were true."""
        judged = self.true_claims + self.false_claims
        return self.true_claims / judged if judged else None

    def summary(self) -> dict[str, Any]:
        return {
            **{f.name: getattr(self, f.name) for f in fields(self)},
            "exposure_rate": self.exposure_rate,
            "leak_rate": self.leak_rate,
            "seer_accuracy": self.seer_accuracy,
        }


@dataclass(frozen=True)
class Finding:
    """One flagged speech: ``kind`` (self, teammate, chat, reasoning, result, false_claim,
    unfounded_claim), the seat, the speech's event number and the words that gave it away."""

    kind: str
    seat: int
    event: int
    evidence: str


@dataclass
class LeakReport:
    """A game's leak metrics per seat and what was flagged."""

    seats: dict[int, LeakMetrics] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def flag(self, kind: str, said: Said, evidence: str, counter: str) -> None:
        metrics = self.seats.setdefault(said.seat, LeakMetrics())
        setattr(metrics, counter, getattr(metrics, counter) + 1)
        self.findings.append(Finding(kind, said.seat, said.seq, evidence))


def leak_report(log: GameLog, *, since: int = 0, min_words: int = MIN_WORDS) -> LeakReport:
    """The leak metrics of every seat of the game in ``log`` (module docstring)."""
    variant, state = new_state_for(log)
    words = Vocabulary.of(variant, state, log.events)
    said = texts_of(log.events)
    results = _result_texts(variant, log, words)
    checks = words.checks(log.events, variant.info.facts)
    report = LeakReport({seat: LeakMetrics() for seat in state.roles()})
    reader = Reader(words)
    for speech in (s for s in said if s.public and s.seq >= since):
        metrics = report.seats.setdefault(speech.seat, LeakMetrics())
        metrics.speeches += 1
        reading = _read(reader, speech.seat, speech.text, firm=True)
        if speech.seat in words.evil_seats:
            metrics.evil_speeches += 1
            _exposures(report, speech, reading)
        private = [
            s
            for s in said
            if s.seat == speech.seat
            and not s.public
            and s.seq < speech.seq
            and (s.kind != "reasoning" or s.seq >= since)
        ]
        learnt = [r for r in results.get(speech.seat, []) if r.seq < speech.seq]
        _leaks(report, speech, [*private, *learnt], min_words)
        own_checks = [c for c in checks if c.seat == speech.seat]
        _claims(report, reading, speech, own_checks)
        if own_checks and reading.disclosed:  # play, not a tell: counted only
            metrics.disclosed_results += 1
    return report


@dataclass(frozen=True)
class Reading:
    """What the reader finds in one speech of one seat: the words naming its own side, the
    words giving a teammate away, its judgements of players and the check results it tells
    (each a list of (seat, evil, words))."""

    self_exposure: str | None
    teammate: str | None
    claims: list[tuple[int, bool, str]]
    disclosed: list[tuple[int, bool, str]]


def read_speech(words: Vocabulary, seat: int, text: str) -> Reading:
    """Read one speech of ``seat`` with a game's ``words`` (what :func:`leak_report` reads
    each public speech with)."""
    return _read(Reader(words), seat, text)


def _read(reader: Reader, seat: int, text: str, *, firm: bool = False) -> Reading:
    """What ``reader`` finds in a speech; ``firm``: only judgements in the game's own words
    (the seer-claim accounting of a game: "seat 4 is a werewolf", not "Tom seems fine").
    A speech said again by a seat with the same words and teammates is read once (bots
    repeat themselves)."""
    key = (reader.seat_key(seat), text, firm)
    found = reader.memo.get(key)
    if found is None:
        found = reader.memo[key] = _reading(reader, seat, text, firm)
    return found


def _reading(reader: Reader, seat: int, text: str, firm: bool) -> Reading:
    sentences = reader.sentences(text)
    own = (reader.self_exposure(seat, s) for s in sentences)
    mate = (reader.teammate(seat, s) for s in sentences)
    claims = [
        (judged, evil, said)
        for s in sentences
        for judged, evil, said, is_firm in reader.judgements(s)
        if is_firm or not firm
    ]
    return Reading(
        next((found for found in own if found is not None), None),
        next((found for found in mate if found is not None), None),
        claims,
        [told for s in sentences for told in reader.disclosed(s)],
    )


def _exposures(report: LeakReport, speech: Said, reading: Reading) -> None:
    if reading.self_exposure is not None:
        report.flag("self", speech, reading.self_exposure, "self_exposures")
    if reading.teammate is not None:
        report.flag("teammate", speech, reading.teammate, "teammate_exposures")


_LEAK_COUNTERS = {"chat": "chat_leaks", "reasoning": "reasoning_leaks", "result": "result_leaks"}


def _leaks(report: LeakReport, speech: Said, private: Sequence[Said], min_words: int) -> None:
    """At most one finding per source kind for a speech: a long enough verbatim span (a
    private result, usually one short line, counts once all its words but one are there)."""
    public = _words(speech.text)
    for kind, counter in _LEAK_COUNTERS.items():
        for source in (s for s in private if s.kind == kind):
            words = _words(source.text)
            needed = min(min_words, max(4, len(words) - 1)) if kind == "result" else min_words
            span = _longest_common_run(public, words)
            if len(span) >= needed:
                report.flag(kind, speech, " ".join(span), counter)
                break


def _claims(report: LeakReport, reading: Reading, speech: Said, checks: Sequence[Check]) -> None:
    if not checks:  # only a seat that checks players makes seer claims
        return
    metrics = report.seats[speech.seat]
    known = {c.target: c.evil for c in checks if c.seq < speech.seq}
    for seat, evil, words in reading.claims:
        if seat == speech.seat:
            continue
        metrics.seer_claims += 1
        if seat not in known:
            report.flag("unfounded_claim", speech, words, "unfounded_claims")
        elif known[seat] == evil:
            metrics.true_claims += 1
        else:
            report.flag("false_claim", speech, words, "false_claims")


def _result_texts(variant: Variant, log: GameLog, words: Vocabulary) -> dict[int, list[Said]]:
    """Each seat's private results (events shown to it alone), as the variant words them."""
    out: dict[int, list[Said]] = {}
    for event in log.events:
        scope, _, seats = event.visibility.partition(":")
        if event.source != "rules" or scope != "seats" or not seats.isdigit():
            continue
        try:
            line = variant.format_event(event)
        except Exception:  # a variant that cannot word an event
            line = None
        if line:
            seat = int(seats)
            out.setdefault(seat, []).append(Said(event.seq, seat, str(line), False, "result"))
    return out


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def _longest_common_run(a: list[str], b: list[str]) -> list[str]:
    """The longest run of consecutive words in both ``a`` and ``b``."""
    if not a or not b:
        return []
    best_end = best_length = 0
    previous = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        current = [0] * (len(b) + 1)
        word = a[i - 1]
        for j in range(1, len(b) + 1):
            if word == b[j - 1]:
                current[j] = previous[j - 1] + 1
                if current[j] > best_length:
                    best_length, best_end = current[j], i
        previous = current
    return a[best_end - best_length : best_end]


def total(reports: Iterable[LeakMetrics]) -> LeakMetrics:
    return sum(reports, LeakMetrics())
