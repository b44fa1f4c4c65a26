"""Built-in Werewolf bots: ``random`` and ``heuristic``.

The heuristic bot reads its own observation only. It understands plain speech the way a
person would: "I am the Seer. Seat 4 is a werewolf." is a seer claim with a result, "exile
seat 2" a suggestion; so it follows LLMs and humans who speak like that, and other bots.

* the seer checks unknown players and reveals its results (running for sheriff);
* the witch saves on the first night or when the attacked player is a likely god (the seer
  claimant or the sheriff), and poisons a player the credible seer named a werewolf;
* the guard protects the credible seer, else the sheriff, else itself;
* wolves agree on the first proposal in their chat, never kill a partner, hunt the seer,
  counter-claim when a partner is exposed, and vote out an exposed partner when cornered;
* the village follows the credible seer (the first claimant), then the sheriff's suggestion.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from duskfall.core.bot import Bot
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import (
    ANTIDOTE,
    PASS,
    POISON,
    Pick,
    Potion,
    Say,
    YesNo,
)
from duskfall.variants.werewolf.roles import SEER, WEREWOLF, WITCH

SEER_CLAIM = re.compile(r"\bi am the seer\b", re.IGNORECASE)
RESULT = re.compile(r"\bseat (\d+)(?: \([^)]*\))? is (?:a )?(werewolf|good)\b", re.IGNORECASE)
SUGGESTION = re.compile(r"\b(?:exile|vote(?: for)?|kill) seat (\d+)\b", re.IGNORECASE)
SUSPECT = re.compile(r"\bsuspect seat (\d+)\b", re.IGNORECASE)
NO_KILL = re.compile(r"\bno kill\b", re.IGNORECASE)


class RandomBot(Bot):
    """A uniformly random legal action for every decision."""

    name = "random"

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        return legal.sample(self.rng)


class HeuristicBot(Bot):
    """Plays each role by simple, readable rules of thumb (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self._read = 0
        self.claims: dict[int, dict[int, str]] = {}  # seer claimant -> {seat: result}
        self.suggested: int | None = None  # the sheriff's latest "exile seat N"
        self.proposals: dict[int, int | None] = {}  # tonight's wolf chat: wolf -> target
        self.votes: list[tuple[int, int]] = []  # every (voter, target) of the day votes
        self.mentions: Counter[int] = Counter()  # "I suspect seat N" heard today

    # -- reading the history -----------------------------------------------------------

    def _update(self, obs: Mapping[str, Any]) -> None:
        history = obs["history"]
        for entry in history[self._read :]:
            kind = entry["kind"]
            if kind == "night_start":
                self.proposals = {}
            elif kind == "day_start":
                self.mentions = Counter()
            elif kind == "speech":
                self._hear(entry, obs)
            elif kind == "vote" and entry["sub_phase"] == P.VOTE and entry["target"] is not None:
                self.votes.append((entry["seat"], entry["target"]))
        self._read = len(history)

    def _hear(self, entry: Mapping[str, Any], obs: Mapping[str, Any]) -> None:
        speaker, text = entry["seat"], entry["text"]
        if entry["sub_phase"] == P.WOLF_CHAT:
            if NO_KILL.search(text):
                self.proposals.setdefault(speaker, None)
            elif match := SUGGESTION.search(text):
                self.proposals.setdefault(speaker, int(match.group(1)))
            return
        if SEER_CLAIM.search(text):
            results = self.claims.setdefault(speaker, {})
            for seat, result in RESULT.findall(text):
                results[int(seat)] = "Werewolf" if result.lower() == "werewolf" else "Good"
        if speaker == obs["sheriff"] and (match := SUGGESTION.search(text)):
            self.suggested = int(match.group(1))
        if match := SUSPECT.search(text):
            self.mentions[int(match.group(1))] += 1

    # -- what the bot believes -----------------------------------------------------------

    def _credible_seer(self, obs: Mapping[str, Any]) -> int | None:
        """Who this bot believes is the seer: itself, else the first claimant it trusts."""
        if obs["role"] == SEER:
            return self.seat
        wolves = set(obs.get("wolves", ()))
        for claimant in self.claims:
            if claimant not in wolves and claimant != self.seat:
                return claimant
        return None

    def _results(self, obs: Mapping[str, Any]) -> dict[int, str]:
        if obs["role"] == SEER:
            return {c["target"]: c["result"] for c in obs["checks"]}
        seer = self._credible_seer(obs)
        return dict(self.claims.get(seer, {})) if seer is not None else {}

    def _known_wolves(self, obs: Mapping[str, Any], alive: set[int]) -> list[int]:
        return [s for s, r in self._results(obs).items() if r == "Werewolf" and s in alive]

    def _suspect(self, obs: Mapping[str, Any], alive: set[int], exclude: set[int]) -> int | None:
        """The good side's pick: a known wolf, the sheriff's suggestion, a false claimant."""
        candidates = alive - exclude - {self.seat}
        for wolf in self._known_wolves(obs, alive):
            if wolf in candidates:
                return wolf
        good = {s for s, r in self._results(obs).items() if r == "Good"}
        if self.suggested in candidates and self.suggested not in good:
            return self.suggested
        seer = self._credible_seer(obs)
        false_claims = [c for c in self.claims if c != seer and c in candidates]
        if false_claims:
            return false_claims[0]
        unknown = candidates - good - ({seer} if seer is not None else set())
        trusted = good | ({seer} if seer is not None else set())
        against = Counter(v for v, t in self.votes if t in trusted and v in unknown)
        if against:
            return max(sorted(against), key=against.__getitem__)
        mentioned = [s for s, _ in self.mentions.most_common() if s in unknown]
        if mentioned:
            return mentioned[0]
        return self.rng.choice(sorted(unknown)) if unknown else None

    # -- decisions -----------------------------------------------------------------------

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        self._update(observation)
        kind = legal.kind
        if kind in P.SPEECH_KINDS:
            return Say(kind, self._speech(observation, kind))
        if kind == P.WITCH:
            return self._witch(observation, legal)
        if kind == P.BADGE_RUN:
            return YesNo(kind, self._runs(observation))
        if kind == P.BADGE_WITHDRAW:
            seer = self._credible_seer(observation)
            stays = observation["role"] in (SEER, WEREWOLF) or seer is None or seer == self.seat
            return YesNo(kind, not stays)
        target = self._target(observation, kind, set(legal.targets))
        if target is None or target not in legal.targets:
            target = None if legal.none_allowed else self.rng.choice(legal.targets)
        return Pick(kind, target)

    def _runs(self, obs: Mapping[str, Any]) -> bool:
        if obs["role"] == SEER:
            return True
        return self.rng.random() < (0.3 if obs["role"] == WEREWOLF else 0.2)

    def _target(self, obs: Mapping[str, Any], kind: str, targets: set[int]) -> int | None:
        alive = {p["seat"] for p in obs["players"] if p["alive"]}
        wolves = set(obs.get("wolves", ()))
        seer = self._credible_seer(obs)
        if kind == P.WOLF_KILL:
            agreed = [t for t in self.proposals.values() if t not in wolves]
            return agreed[0] if agreed else self._wolf_choice(obs, alive)
        if kind == P.SEER:
            checked = {c["target"] for c in obs["checks"]}
            fresh = sorted(targets - checked)
            suspects = [c for c in self.claims if c in fresh]
            return suspects[0] if suspects else self.rng.choice(fresh or sorted(targets))
        if kind == P.GUARD:
            for choice in (seer, obs["sheriff"], self.seat):
                if choice in targets:
                    return choice
            return None
        if kind in (P.VOTE, P.HUNTER_SHOT):
            if wolves:
                return self._wolf_vote(obs, alive, wolves)
            pick = self._suspect(obs, alive, set())
            return pick if kind == P.VOTE or pick in self._known_wolves(obs, alive) else None
        if kind == P.BADGE_VOTE:
            if wolves:
                ours = sorted(targets & wolves)
                return ours[0] if ours else self.rng.choice(sorted(targets))
            return seer if seer in targets else self.rng.choice(sorted(targets))
        if kind == P.BADGE_PASS:
            if wolves:
                ours = sorted(targets & wolves)
                return ours[0] if ours else None
            good = [s for s, r in self._results(obs).items() if r == "Good" and s in targets]
            if seer in targets:
                return seer
            return good[0] if good else self.rng.choice(sorted(targets))
        return None

    def _wolf_choice(self, obs: Mapping[str, Any], alive: set[int]) -> int | None:
        """The wolves' preferred victim: the seer claimant, then the sheriff, then anyone good."""
        wolves = set(obs["wolves"])
        prey = sorted(alive - wolves)
        if not prey:
            return None
        claimants = [c for c in self.claims if c in prey]
        if claimants:
            return claimants[0]
        if obs["sheriff"] in prey:
            return int(obs["sheriff"])
        return self.rng.choice(prey)

    def _wolf_vote(self, obs: Mapping[str, Any], alive: set[int], wolves: set[int]) -> int | None:
        """Vote with the table against a good player, or bus an exposed partner when cornered."""
        exposed = [
            s
            for claimant, results in self.claims.items()
            if claimant not in wolves
            for s, r in results.items()
            if r == "Werewolf" and s in alive and s in wolves and s != self.seat
        ]
        if exposed:
            return exposed[0]
        seer_claimants = [c for c in self.claims if c not in wolves and c in alive]
        if seer_claimants:
            return seer_claimants[0]
        if self.suggested in alive and self.suggested not in wolves:
            return self.suggested
        prey = sorted(alive - wolves)
        return self.rng.choice(prey) if prey else None

    def _witch(self, obs: Mapping[str, Any], legal: Any) -> Potion:
        attacked = obs.get("attacked_tonight")
        seer = self._credible_seer(obs)
        if legal.can_save and (obs["day"] == 1 or attacked in (seer, obs["sheriff"])):
            return Potion(ANTIDOTE, attacked)
        alive = {p["seat"] for p in obs["players"] if p["alive"]}
        wolves = [w for w in self._known_wolves(obs, alive) if w in legal.poison_targets]
        if wolves:
            return Potion(POISON, wolves[0])
        return Potion(PASS)

    def _speech(self, obs: Mapping[str, Any], kind: str) -> str:
        alive = {p["seat"] for p in obs["players"] if p["alive"]}
        if kind == P.WOLF_CHAT:
            if self.proposals:
                target = next(iter(self.proposals.values()))
                return f"Agreed: kill seat {target}." if target is not None else "Agreed: no kill."
            choice = self._wolf_choice(obs, alive)
            return f"Let us kill seat {choice}." if choice is not None else "No kill tonight."
        role = obs["role"]
        if role == SEER:
            results = " ".join(
                f"Seat {c['target']} is {'a werewolf' if c['result'] == 'Werewolf' else 'good'}."
                for c in obs["checks"]
            )
            text = f"I am the Seer. {results}".strip()
        elif role == WEREWOLF:
            text = self._wolf_cover(obs, alive)
        else:
            text = "I am a villager." if role != WITCH else "I am a good player."
            if kind == P.SPEECH and (pick := self._suspect(obs, alive, set())) is not None:
                text += f" I suspect seat {pick}."
        if kind == P.SPEECH and obs["sheriff"] == self.seat:
            pick = (
                self._wolf_vote(obs, alive, set(obs["wolves"]))
                if role == WEREWOLF
                else self._suspect(obs, alive, set())
            )
            if pick is not None:
                text += f" As sheriff I say: exile seat {pick}."
        return text

    def _wolf_cover(self, obs: Mapping[str, Any], alive: set[int]) -> str:
        """A wolf's speech; it counter-claims seer against an accuser when a partner is exposed."""
        wolves = set(obs["wolves"])
        for claimant, results in self.claims.items():
            accused = [s for s, r in results.items() if r == "Werewolf" and s in wolves]
            leader = min(w for w in wolves if w in alive)
            if claimant not in wolves and accused and claimant in alive and leader == self.seat:
                return f"I am the Seer. Seat {claimant} is a werewolf."
        pick = self._wolf_vote(obs, alive, wolves)
        return "I am a villager." + (f" I suspect seat {pick}." if pick is not None else "")


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
