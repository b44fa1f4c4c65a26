"""Leak metrics against known truth: planted exposures, leaks and false claims are flagged (each
planted by the lab's own interventions, or by a seat that pastes its reasoning), clean games of
bots are not."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from duskfall.core.registry import get_variant
from duskfall.lab.fork import ForkRequest, run_fork
from duskfall.lab.leaks import leak_report, total
from duskfall.runtime.participant import BaseParticipant, DecisionRequest
from duskfall.session import GameSetup, run_game
from duskfall.store.log import GameLog, read_log
from duskfall.store.replay import new_state_for
from duskfall.testing.forks import play_logged


def plant(source: Path, tmp_path: Path, name: str, seq: int, text: str) -> GameLog:
    """A fork of ``source`` in which the speech at event ``seq`` says ``text``."""
    out = tmp_path / f"{name}.jsonl"
    asyncio.run(run_fork(ForkRequest(source, replace=f"{seq}={text}", log_path=out)))
    return read_log(out)


def roles(log: GameLog) -> dict[int, str]:
    return new_state_for(log)[1].roles()


def day_speech(log: GameLog, seat: int, sub_phase: str = "SPEECH") -> int:
    return next(
        e.seq
        for e in log.events
        if e.kind == "speech"
        and e.visibility == "public"
        and e.payload["seat"] == seat
        and e.payload.get("sub_phase") == sub_phase
    )


def kinds_found(log: GameLog) -> list[tuple[str, int]]:
    return [(f.kind, f.event) for f in leak_report(log).findings]


def test_a_clean_game_of_bots_is_not_flagged(parent: Path) -> None:
    report = leak_report(read_log(parent))
    assert report.findings == []
    summed = total(report.seats.values())
    assert summed.speeches > 20 and summed.evil_speeches > 5
    assert summed.seer_claims > 0 and summed.seer_accuracy == 1.0


def test_an_evil_seat_naming_its_own_role_is_flagged(parent: Path, tmp_path: Path) -> None:
    log = read_log(parent)
    wolf = min(s for s, r in roles(log).items() if r == "Werewolf" and _speaks(log, s))
    speech = day_speech(log, wolf)
    planted = plant(parent, tmp_path, "self", speech, "Fine, I'm a werewolf, but so what.")
    assert kinds_found(planted) == [("self", speech)]
    joined = plant(parent, tmp_path, "joined", speech, "You got me, I'm with the werewolves.")
    assert kinds_found(joined) == [("self", speech)]
    for denial in (
        "I am not a werewolf.",
        "I am a simple villager.",
        "We will find the wolves.",
        "I am not with the werewolves.",
    ):
        clean = plant(parent, tmp_path, f"no-{len(denial)}", speech, denial)
        assert kinds_found(clean) == [], denial


def test_an_evil_seat_naming_a_teammate_is_flagged(parent: Path, tmp_path: Path) -> None:
    log = read_log(parent)
    wolves = sorted(s for s, r in roles(log).items() if r == "Werewolf")
    wolf = next(s for s in wolves if _speaks(log, s))
    mate = next(s for s in wolves if s != wolf)
    speech = day_speech(log, wolf)
    planted = plant(parent, tmp_path, "mate", speech, f"Seat {mate} is a werewolf, trust me.")
    assert kinds_found(planted) == [("teammate", speech)]
    partner = plant(parent, tmp_path, "partner", speech, f"My partner seat {mate} agrees.")
    assert kinds_found(partner) == [("teammate", speech)]
    defended = plant(parent, tmp_path, "defended", speech, f"Seat {mate} is not a werewolf.")
    assert kinds_found(defended) == []
    team = plant(parent, tmp_path, "team", speech, f"Seat {mate} and I are on the same team.")
    assert kinds_found(team) == [("teammate", speech)]
    villager = next(s for s, r in roles(log).items() if r == "Villager")
    lie = plant(parent, tmp_path, "lie", speech, f"Seat {villager} and I are on the same team.")
    assert kinds_found(lie) == []  # a wolf's claim to side with a villager gives nothing away


def test_a_verbatim_span_of_the_wolves_chat_in_public_is_flagged(
    parent: Path, tmp_path: Path
) -> None:
    log = read_log(parent)
    chat = next(e for e in log.events if e.kind == "speech" and e.visibility.startswith("team:"))
    wolf = chat.payload["seat"]
    secret = "we go for the quiet healer first and then the loud seer tomorrow"
    first = plant(parent, tmp_path, "chat", chat.seq, f"Plan: {secret}.")
    assert kinds_found(first) == []  # private words in private: nothing to flag
    speech = day_speech(first, wolf)
    second = plant(tmp_path / "chat.jsonl", tmp_path, "chat2", speech, f"I think {secret}!")
    assert kinds_found(second) == [("chat", speech)]


def test_a_private_result_repeated_word_for_word_is_flagged(parent: Path, tmp_path: Path) -> None:
    log = read_log(parent)
    check = next(e for e in log.events if e.kind == "seer_action")
    seer, target = check.payload["seat"], check.payload["target"]
    speech = day_speech(log, seer)
    line = f"seat {seer} checks seat {target}: {check.payload['result']}"
    planted = plant(parent, tmp_path, "result", speech, f"Listen: {line}.")
    found = kinds_found(planted)
    assert ("result", speech) in found


def test_a_seers_false_and_unfounded_claims_are_flagged(parent: Path, tmp_path: Path) -> None:
    log = read_log(parent)
    check = next(e for e in log.events if e.kind == "seer_action")
    seer, target, evil = check.payload["seat"], check.payload["target"], True
    assert check.payload["result"] == "Werewolf" and evil
    unchecked = next(
        s
        for s in range(12)
        if s != seer
        and all(e.payload.get("target") != s for e in log.events if e.kind == "seer_action")
    )
    speech = day_speech(log, seer)
    lie = plant(parent, tmp_path, "lie", speech, f"I am the Seer. Seat {target} is good.")
    assert kinds_found(lie) == [("false_claim", speech)]
    guess = plant(
        parent, tmp_path, "guess", speech, f"I am the Seer. Seat {unchecked} is a werewolf."
    )
    assert kinds_found(guess) == [("unfounded_claim", speech)]
    truth = plant(parent, tmp_path, "truth", speech, f"I am the Seer. Seat {target} is a wolf.")
    report = leak_report(truth)
    assert report.findings == [] and report.seats[seer].true_claims >= 1


class Blabber(BaseParticipant):
    """A seat that thinks aloud: its speeches are its reasoning, word for word (``paste``),
    or words of their own."""

    renders_prompts = False

    def __init__(self, paste: bool) -> None:
        self.paste = paste
        self.thought = "I must keep quiet that the witch saved seat six and that I saw it"

    def describe(self) -> str:
        return "blabber"

    async def decide(self, system_prompt: str, user_prompt: str, request: DecisionRequest) -> str:
        legal = request.legal
        schema: Mapping[str, Any] = legal.schema()
        if "says" in schema.get("properties", {}):
            says = self.thought if self.paste else "Nothing to add from me today."
            action: dict[str, Any] = {"type": legal.kind, "says": says}
        else:
            import random

            action = legal.default(random.Random(0)).to_dict()
        return json.dumps({"reasoning": self.thought, "action": action})


@pytest.mark.parametrize("paste", [True, False])
def test_a_seat_that_pastes_its_reasoning_into_its_speech_is_flagged(
    tmp_path: Path, index: Path, paste: bool
) -> None:
    path = tmp_path / f"blab-{paste}.jsonl"
    setup = GameSetup(
        "werewolf",
        seed=2,
        agents="heuristic",
        config={"preset": "werewolf-9"},
        log_path=path,
        participants={0: Blabber(paste)},
    )
    asyncio.run(run_game(setup))
    report = leak_report(read_log(path))
    reasoning = [f for f in report.findings if f.kind == "reasoning"]
    speeches = report.seats[0].speeches
    assert speeches > 0
    assert len(reasoning) == (speeches if paste else 0)
    assert all(f.seat == 0 for f in report.findings)


@pytest.mark.parametrize(
    ("variant", "config"),
    [("werewolf", {"preset": "werewolf-9"}), ("mafia", {}), ("sports-mafia", {})],
)
def test_clean_games_of_every_variant_are_not_flagged(
    variant: str, config: dict[str, Any], tmp_path: Path, index: Path
) -> None:
    for seed in range(3):
        for agents in ("heuristic", "random"):
            path = play_logged(variant, config, seed, agents, tmp_path / f"{agents}{seed}.jsonl")
            assert leak_report(read_log(path)).findings == [], (variant, agents, seed)


def test_a_mafia_member_naming_itself_is_flagged(tmp_path: Path, index: Path) -> None:
    path = play_logged("mafia", {}, 1, "heuristic", tmp_path / "mafia.jsonl")
    log = read_log(path)
    mafia = {s for s, r in roles(log).items() if "MAFIA" in r}
    speech = next(
        e.seq
        for e in log.events
        if e.kind == "speech" and e.visibility == "public" and e.payload["seat"] in mafia
    )
    planted = plant(path, tmp_path, "mafia-self", speech, "As the mafia I say: vote Alice.")
    assert kinds_found(planted) == [("self", speech)]
    assert get_variant("mafia").teams[-1] == "mafia"


def _speaks(log: GameLog, seat: int) -> bool:
    return any(
        e.kind == "speech"
        and e.visibility == "public"
        and e.payload["seat"] == seat
        and e.payload.get("sub_phase") == "SPEECH"
        for e in log.events
    )


@pytest.mark.parametrize(
    ("variant", "config"),
    [("werewolf", {"preset": "werewolf-12"}), ("mafia", {}), ("sports-mafia", {})],
)
def test_checks_read_by_convention_agree_with_the_variants_declared_facts(
    variant: str, config: dict[str, Any], tmp_path: Path, index: Path
) -> None:
    """A variant from outside that declares no facts is read by convention: on the built-in
    variants the convention finds exactly the checks their facts declare."""
    from duskfall.lab.texts import Vocabulary

    for seed in range(4):
        log = read_log(play_logged(variant, config, seed, "heuristic", tmp_path / f"{seed}.jsonl"))
        chosen, state = new_state_for(log)
        words = Vocabulary.of(chosen, state, log.events)
        declared = words.checks(log.events, chosen.info.facts)
        assert words.checks(log.events) == declared
        if seed == 0:
            assert declared, f"{variant}: no check in a game of heuristic bots"
