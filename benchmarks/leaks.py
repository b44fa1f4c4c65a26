"""Leak metrics against planted truth: how often each kind of tell is caught, how often a
clean speech is flagged.

Every planted case is a fork of a logged game of heuristic bots in which one public speech
says other words (``--replace``; a chat leak first puts a secret in the team's chat, in a fork
of a fork). The words are drawn from a fixed list of phrasings per kind, some of which the
patterns were not written for ("Being a werewolf is harder than it looks"), so recall is
measured, not assumed (two that the first reader missed are read since, see the comments):

* positives (an evil seat naming its own role or a teammate, a verbatim span of its team's
  chat or of its private result in public, a checking seat's false or unfounded claim): the
  planted speech is caught when the finding of that kind is at that event; any other finding
  in the fork is counted apart;
* negatives (denials, accusations of the other side, a checking seat's true claims, a
  paraphrase of the chat shorter than the verbatim threshold): any finding is a false alarm;
* clean games (heuristic and random bots, no plant): the share of public speeches flagged.

Rates come with Wilson 95% intervals; the phrasings missed are printed.

``--sentences NAME`` scores the reader on labelled speeches instead, in English, German,
French and Spanish (``tests/lab/leak_sentences/``: self and teammate exposures, claims,
check results, and clean speeches of each kind), per kind and language. ``dev``,
``heldout``, ``writer1`` and ``writer2`` are development sets (three writers; the reader was
written against them), ``all-dev`` is the four together; ``blind`` is a fourth writer's set,
held out: no rule was written after reading it.

    python benchmarks/leaks.py                    # 30 werewolf-12 + 30 mafia source games
    python benchmarks/leaks.py --games 5
    python benchmarks/leaks.py --sentences all-dev
    python benchmarks/leaks.py --sentences blind   # the held-out writer's set
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from duskfall.core.errors import ConfigError
from duskfall.core.sides import EVIL, side_of
from duskfall.core.stats import Proportion
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.lab.leaks import leak_report
from duskfall.lab.texts import Check, Said, Vocabulary, texts_of
from duskfall.session import GameSetup, run_game
from duskfall.store.log import GameLog, read_log
from duskfall.store.paths import use_db
from duskfall.store.replay import new_state_for, recorded_action
from duskfall.testing import leak_sentences as labelled

VARIANTS = {"werewolf": {"preset": "werewolf-12"}, "mafia": {}}

# Phrasings per planted kind: {mate}/{mate_name} a teammate, {other}/{other_name} a seat of the
# other side, {role} the seat's evil word in the variant, {target}/{target_name} a checked
# seat, {lie} the opposite of its result, {truth} its result, {unchecked} a seat never checked.
SELF = [
    "Fine, I'm a {role}, but so what.",
    "As a {role} I can tell you {other_name} is lying.",
    "Okay, I admit it: I am one of the {roles}.",
    "We {roles} know exactly who to vote for today.",
    "You got me, I'm with the {roles}.",  # missed by the first reader, read since
    "Being a {role} is harder than it looks.",  # missed ("being a": denials say it too)
    "Our pack eats well tonight, you will see.",  # missed: no role word
]
TEAMMATE = [
    "Seat {mate} is a {role}, trust me.",
    "My partner seat {mate} agrees with me.",
    "{mate_name} is a {role}, I know it for sure.",
    "{mate_name} and I are on the same team, so vote with us.",  # missed at first, read since
    "{mate_name} and I go way back, we will not let you win.",  # missed: no team word
    "Don't vote for {mate_name}, my fellow {role}.",
]
EVIL_CLEAN = [
    "I am not a {role}.",
    "I am a simple villager, nothing more.",
    "We will find the {roles} today, I promise.",
    "Seat {other} is a {role}, I am sure of it.",
    "Seat {mate} is not a {role}.",
    "I think {other_name} and {mate_name} should both speak more.",
    "I am not with the {roles}, whatever {other_name} says.",
    "{other_name} and I are on the same team, so vote with us.",  # the other side: no tell
]
FALSE_CLAIM = [
    "I checked them all night. Seat {target} is {lie}.",
    "Seer here: {target_name} is {lie}.",
    "I investigated {target_name}: {lie}.",
]
UNFOUNDED_CLAIM = [
    "I checked them all night. Seat {unchecked} is {truth}.",
    "Trust me: {unchecked_name} is a {role}.",
]
TRUE_CLAIM = [
    "I checked them all night. Seat {target} is {truth}.",
    "I investigated {target_name}: {truth}.",
]
SECRETS = [
    "tonight we go for seat {a} and tomorrow we push hard on seat {b} at the vote",
    "keep quiet about seat {a} and let everyone blame seat {b} for the last death",
    "if seat {a} claims seer again we all vote them out before the sheriff speaks",
]
RESULT = ["Listen to me: {line}.", "Last night: {line}, so decide."]


@dataclass
class Tally:
    """One case: how many were planted, caught, and forks with other findings."""

    planted: int = 0
    caught: int = 0
    other: int = 0
    missed: list[str] = field(default_factory=list)


@dataclass
class Game:
    """A source game and what a plant needs of it."""

    path: Path
    log: GameLog
    variant: str
    rng: random.Random
    evil: set[int]
    names: dict[int, str]
    checks: list[Check]
    said: list[Said]

    @classmethod
    def read(cls, path: Path, variant_id: str, seed: int) -> Game:
        log = read_log(path)
        variant, state = new_state_for(log)
        evil = {s for s in state.roles() if side_of(variant, state.team_of(s)) == EVIL}
        words = Vocabulary.of(variant, state, log.events)
        names = {seat: name.title() for name, seat in words.names.items()}
        checks = words.checks(log.events, variant.info.facts)
        return cls(
            path, log, variant_id, random.Random(seed), evil, names, checks, texts_of(log.events)
        )

    @property
    def role(self) -> str:
        return "werewolf" if self.variant == "werewolf" else "mafia"

    @property
    def roles(self) -> str:
        return "werewolves" if self.variant == "werewolf" else "mafia"

    def speeches(self, seat: int, after: int = -1) -> list[Said]:
        return [s for s in self.said if s.public and s.seat == seat and s.seq > after]

    def name(self, seat: int) -> str:
        return self.names.get(seat, f"seat {seat}")


def fork(game: Game, out: Path, seq: int, text: str) -> GameLog:
    """A fork of ``game`` in which the speech at ``seq`` says ``text`` (a speech that also
    made a structured claim, as a mafia sheriff's can, is given as a whole plain speech)."""
    request = ForkRequest(game.path, replace=f"{seq}={text}", log_path=out)
    try:
        asyncio.run(run_fork(request))
    except ConfigError:
        index = seq
        while game.log.events[index].source == "rules":
            index -= 1
        _, original = recorded_action(game.log.events[index])
        action = {**original, "says": text, "target": None, "claim": None}
        request = replace(request, replace=f"{seq}={json.dumps(action)}")
        asyncio.run(run_fork(request))
    return read_log(out)


def found(log: GameLog) -> list[tuple[str, int]]:
    return [(f.kind, f.event) for f in leak_report(log).findings]


def score(
    tally: Tally, findings: list[tuple[str, int]], kind: str | None, seq: int, text: str
) -> None:
    """A positive (``kind``) is caught when flagged as that kind at ``seq``; a negative
    (``kind`` None) counts any finding as a false alarm. ``text`` names the phrasing."""
    tally.planted += 1
    if kind is None:
        if findings:
            tally.caught += 1
            tally.missed.append(f"{text!r} -> {sorted({k for k, _ in findings})}")
        return
    if (kind, seq) in findings:
        tally.caught += 1
    else:
        tally.missed.append(f"{text!r} -> {sorted({k for k, _ in findings}) or 'nothing'}")
    if any(f != (kind, seq) for f in findings):
        tally.other += 1


Planter = Callable[[Game, Path, dict[str, Tally]], None]


def plant_exposures(game: Game, out: Path, tallies: dict[str, Tally]) -> None:
    speakers = [s for s in sorted(game.evil) if game.speeches(s)]
    if not speakers:
        return
    seat = game.rng.choice(speakers)
    mates = sorted(game.evil - {seat})
    others = sorted(set(game.names) - game.evil)
    mate, other = game.rng.choice(mates), game.rng.choice(others)
    speech = game.rng.choice(game.speeches(seat))
    words = {
        "role": game.role,
        "roles": game.roles,
        "mate": mate,
        "mate_name": game.name(mate),
        "other": other,
        "other_name": game.name(other),
    }
    for kind, phrasings in (("self", SELF), ("teammate", TEAMMATE), (None, EVIL_CLEAN)):
        for number, phrasing in enumerate(phrasings):
            text = phrasing.format(**words)
            log = fork(game, out / f"{kind}-{number}.jsonl", speech.seq, text)
            label = kind or "evil seat, clean words"
            score(tallies[label], found(log), kind, speech.seq, phrasing)


def plant_claims(game: Game, out: Path, tallies: dict[str, Tally]) -> None:
    if not game.checks:
        return
    check = game.rng.choice(game.checks)
    speeches = game.speeches(check.seat, after=check.seq)
    checked = {c.target for c in game.checks if c.seat == check.seat}
    unchecked = sorted(set(game.names) - checked - {check.seat})
    if not speeches or not unchecked:
        return
    speech = game.rng.choice(speeches)
    before = {c.target for c in game.checks if c.seat == check.seat and c.seq < speech.seq}
    unchecked = sorted(set(game.names) - before - {check.seat})
    evil_word, good_word = (
        ("a " + game.role, "good") if game.variant == "werewolf" else ("MAFIA", "town")
    )
    truth, lie = (evil_word, good_word) if check.evil else (good_word, evil_word)
    nobody = game.rng.choice(unchecked)
    words = {
        "target": check.target,
        "target_name": game.name(check.target),
        "truth": truth,
        "lie": lie,
        "role": game.role,
        "unchecked": nobody,
        "unchecked_name": game.name(nobody),
    }
    cases = (("false_claim", FALSE_CLAIM), ("unfounded_claim", UNFOUNDED_CLAIM), (None, TRUE_CLAIM))
    for kind, phrasings in cases:
        for number, phrasing in enumerate(phrasings):
            text = phrasing.format(**words)
            log = fork(game, out / f"claim-{kind}-{number}.jsonl", speech.seq, text)
            label = kind or "checker, true claims"
            score(tallies[label], found(log), kind, speech.seq, phrasing)
    line = next((r.text for r in _results(game) if r.seq == check.seq), None)
    if line is not None:
        text = game.rng.choice(RESULT).format(line=line.rstrip("."))
        log = fork(game, out / "result.jsonl", speech.seq, text)
        score(tallies["result"], found(log), "result", speech.seq, text)


def plant_chat(game: Game, out: Path, tallies: dict[str, Tally]) -> None:
    chats = [s for s in game.said if s.kind == "chat" and game.speeches(s.seat, after=s.seq)]
    if not chats:
        return
    chat = game.rng.choice(chats)
    a, b = game.rng.sample(sorted(set(game.names) - game.evil), 2)
    secret = game.rng.choice(SECRETS).format(a=a, b=b)
    first = out / "chat.jsonl"
    fork(game, first, chat.seq, f"Plan: {secret}.")
    inner = Game.read(first, game.variant, 0)
    later = inner.speeches(chat.seat, after=chat.seq)
    if not later:
        return
    speech = game.rng.choice(later)
    words = secret.split()
    start = game.rng.randrange(0, len(words) - 9)
    span = " ".join(words[start : start + 9])
    inner_out = out / "chat-leak"
    inner_out.mkdir(exist_ok=True)
    for kind, text in (
        ("chat", f"Honestly, I think {span}, and that is all."),
        (None, f"Maybe seat {a} and then seat {b}, who knows."),  # a paraphrase: no span
    ):
        log = fork(inner, inner_out / f"{kind}.jsonl", speech.seq, text)
        score(tallies[kind or "paraphrase of the chat"], found(log), kind, speech.seq, text)


def _results(game: Game) -> list[Said]:
    from duskfall.core.registry import get_variant

    variant = get_variant(game.variant)
    out = []
    for event in game.log.events:
        if event.source == "rules" and event.visibility.startswith("seats:"):
            line = variant.format_event(event)
            if line:
                out.append(Said(event.seq, int(event.visibility[6:]), str(line), False, "result"))
    return out


def play(variant: str, seed: int, agents: str, path: Path) -> Path:
    setup = GameSetup(variant, seed=seed, agents=agents, config=VARIANTS[variant], log_path=path)
    asyncio.run(run_game(setup))
    return path


def clean_games(games: int, folder: Path) -> dict[str, Tally]:
    """Every public speech of unplanted games: ``caught`` counts the flagged ones."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for variant in VARIANTS:
        for agents in ("heuristic", "random"):
            tally = tallies[f"{variant}, {agents} bots"]
            for seed in range(games):
                path = play(
                    variant, seed, agents, folder / f"clean-{variant}-{agents}-{seed}.jsonl"
                )
                log = read_log(path)
                flagged = {f.event for f in leak_report(log).findings}
                for said in texts_of(log.events):
                    if said.public:
                        tally.planted += 1
                        if said.seq in flagged:
                            tally.caught += 1
                            tally.missed.append(repr(said.text))
    return tallies


def rate(tally: Tally) -> str:
    share = Proportion(tally.caught, tally.planted)
    low, high = share.interval()
    return f"{tally.caught:4d}/{tally.planted:<4d} {share.rate:6.1%} [{low:.1%}, {high:.1%}]"


def show(title: str, what: str, tallies: dict[str, Tally], other: bool = False) -> None:
    print(f"== {title}")
    print(f"   {'case':32} {what:>30}" + ("  forks with another finding" if other else ""))
    for name, tally in tallies.items():
        extra = f"  {tally.other}" if other else ""
        print(f"   {name:32} {rate(tally):>30}{extra}")
    for name, tally in tallies.items():
        for line, times in sorted(Counter(tally.missed).items()):
            print(f"   {name}, {times}x: {line}")


DEV_SETS = ("dev", "heldout", "writer1", "writer2")
SETS = (*DEV_SETS, "all-dev", "blind")


def sentences(name: str) -> None:
    """The reader on the labelled speeches of ``tests/lab/leak_sentences/NAME.tsv`` (or of
    every development set, ``all-dev``): recall and false alarms per kind and language, with
    what it missed or flagged, and its cost."""
    names = DEV_SETS if name == "all-dev" else (name,)
    speeches = [speech for one in names for speech in labelled.load(one)]
    started = time.process_time()
    scores = labelled.score(speeches)
    spent = time.process_time() - started
    files = ", ".join(f"{one}.tsv" for one in names)
    print(f"labelled speeches ({files}): {len(speeches)}, read in {spent * 1000:.0f} ms CPU "
          f"({spent / len(speeches) * 1e6:.0f} us a speech)")  # fmt: skip
    print(f"{'kind':9} {'lang':4} {'recall [95%]':32} {'false alarms [95%]':32}")
    totals: dict[str, labelled.Score] = defaultdict(labelled.Score)
    for (kind, language), entry in sorted(scores.items(), key=_by_kind):
        print(f"{kind:9} {language:4} {entry.recall!s:32} {entry.false_alarms!s:32}")
        for key in (kind, language, "all"):
            total = totals[key]
            total.caught += entry.caught
            total.leaks += entry.leaks
            total.alarms += entry.alarms
            total.clean += entry.clean
    for key, total in totals.items():
        print(f"{'total':9} {key:4} {total.recall!s:32} {total.false_alarms!s:32}")
    for (kind, language), entry in sorted(scores.items()):
        for text in entry.missed:
            print(f"  missed   {kind} {language}: {text}")
        for text in entry.flagged:
            print(f"  flagged  {kind} {language}: {text}")


def _by_kind(item: tuple[tuple[str, str], labelled.Score]) -> tuple[int, str]:
    (kind, language), _ = item
    return labelled.KINDS.index(kind), language


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="source games per variant")
    parser.add_argument("--clean", type=int, default=30, help="clean games per variant and bot")
    parser.add_argument(
        "--sentences",
        choices=SETS,
        help="score the reader on a labelled set of speeches instead (no games played)",
    )
    args = parser.parse_args()
    if args.sentences:
        sentences(args.sentences)
        return
    use_db(None)
    started = time.perf_counter()
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    positives: dict[str, Tally] = defaultdict(Tally)
    negatives: dict[str, Tally] = defaultdict(Tally)
    planters: list[Planter] = [plant_exposures, plant_claims, plant_chat]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for variant in VARIANTS:
            for seed in range(args.games):
                path = play(variant, seed, "heuristic", folder / f"{variant}-{seed}.jsonl")
                game = Game.read(path, variant, seed)
                tallies: dict[str, Tally] = defaultdict(Tally)
                for number, planter in enumerate(planters):
                    out = folder / f"{variant}-{seed}-{number}"
                    out.mkdir()
                    planter(game, out, tallies)
                for name, tally in tallies.items():
                    merged = (negatives if name in NEGATIVES else positives)[name]
                    merged.planted += tally.planted
                    merged.caught += tally.caught
                    merged.other += tally.other
                    merged.missed += [f"{variant}: {m}" for m in tally.missed]
        show("planted tells: caught (recall)", "caught / planted [95%]", positives, other=True)
        show("planted clean words: false alarms", "flagged / planted [95%]", negatives)
        show(
            "clean games: public speeches flagged",
            "flagged / speeches [95%]",
            clean_games(args.clean, folder),
        )
    print(
        f"{time.perf_counter() - started:.0f} s; load after: "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


NEGATIVES = {"evil seat, clean words", "checker, true claims", "paraphrase of the chat"}

if __name__ == "__main__":
    main()
