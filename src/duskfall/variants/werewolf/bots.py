"""Built-in Werewolf bots: ``random`` and ``heuristic``.

The heuristic bot reads its own observation only (:mod:`.bot_reading` folds the history) and
speaks plainly, so it follows LLMs and people who speak like it, and they can follow it:

* **the checker** (the role that claims its checks, :data:`~.units.CHECKER`): checks as its
  unit's night choice says; claims on day 1 with every result (its unit's ``claim``, then
  "Seat 4 is a werewolf."), runs for sheriff, passes the badge to a player it checked good;
* **village**: trusts the first claimed checker it cannot refute (a claim calling *it* a
  werewolf is a lie; a claimant the witch saw attacked by the wolves is believed first);
  exiles, in order, the trusted checker's wolves, counter-claimants, the sheriff's pick, who
  voted against the trusted checker or its good checks, who suspected it, and otherwise the
  table's most suspected player (everyone converges on it) or abstains;
* **witch**: keeps the antidote for the trusted checker or sheriff (first night: saves anyone),
  poisons a wolf the trusted checker named, or a counter-claimant;
* **guard**: protects the trusted checker, else the sheriff, else itself (never the same seat
  twice in a row, as the rules want); **hunter**: shoots a known wolf or a counter-claimant;
* **wolves**: agree on the first proposal in their chat, never kill a partner, hunt the
  claimant, then the sheriff, then whoever accuses them; on day 1 the lowest wolf sometimes
  (30%) runs for sheriff on a fake claim naming a good player a werewolf, and keeps it up;
  by day they blend in (suspect and vote with the table) instead of voting as a block,
  counter-claim against a claimant who named a partner, and never vote out a partner (no
  bussing pattern to read).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from duskfall.core.bot import Bot
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import Pick, Say, YesNo
from duskfall.variants.werewolf.bot_reading import GOOD_RESULT, WOLF_RESULT, Reading
from duskfall.variants.werewolf.roles import WEREWOLF, unit_of
from duskfall.variants.werewolf.units import CHECKER, CHOICES, TURNS


class RandomBot(Bot):
    """A uniformly random legal action for every decision."""

    name = "random"

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        return legal.sample(self.rng)


class HeuristicBot(Bot):
    """Plays each role by simple, readable rules of thumb (see the module docstring)."""

    name = "heuristic"

    BOLD_WOLF = 0.3  # how often the lowest wolf runs for sheriff on a fake claim

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.reading = Reading()
        self.fake_claim: int | None = None  # whom this wolf's fake claim calls a wolf

    # -- beliefs ---------------------------------------------------------------------------

    def _alive(self, obs: Mapping[str, Any]) -> set[int]:
        return {p["seat"] for p in obs["players"] if p["alive"]}

    def _wolves(self, obs: Mapping[str, Any]) -> set[int]:
        return set(obs.get("wolves", ()))

    def trusted_checker(self, obs: Mapping[str, Any]) -> int | None:
        """Whose claimed checks this seat believes: its own (it holds the checking role), else
        the first claimant it cannot refute (what a role's night choice asks the bot too).

        A claimant the wolves attacked (the witch was told) is believed first; a claimant
        calling this good seat a werewolf is lying; wolves believe no one.
        """
        if unit_of(obs["role"]).claim:  # it checks players itself
            return self.seat
        if obs["role"] == WEREWOLF:
            return None
        claims = self.reading.claims
        liars = {c for c, results in claims.items() if results.get(self.seat) == WOLF_RESULT}
        candidates = [c for c in claims if c != self.seat and c not in liars]
        for claimant in candidates:
            if claimant in self.reading.attacked:
                return claimant
        return candidates[0] if candidates else None

    def sure_wolves(self, obs: Mapping[str, Any]) -> list[int]:
        """The living wolves the trusted checker named, then the counter-claimants."""
        alive = self._alive(obs)
        return self._known_wolves(obs, alive) + self._liars(obs, alive)

    def _results(self, obs: Mapping[str, Any]) -> dict[int, str]:
        if unit_of(obs["role"]).claim:
            return {c["target"]: c["result"] for c in obs["checks"]}
        checker = self.trusted_checker(obs)
        return dict(self.reading.claims.get(checker, {})) if checker is not None else {}

    def _known_wolves(self, obs: Mapping[str, Any], alive: set[int]) -> list[int]:
        return [s for s, r in self._results(obs).items() if r == WOLF_RESULT and s in alive]

    def _trusted(self, obs: Mapping[str, Any]) -> set[int]:
        """The checker this seat trusts and the players it checked good (and this seat)."""
        checker = self.trusted_checker(obs)
        good = {s for s, r in self._results(obs).items() if r == GOOD_RESULT}
        return good | {self.seat} | ({checker} if checker is not None else set())

    def _liars(self, obs: Mapping[str, Any], alive: set[int]) -> list[int]:
        """Claimants other than the trusted one (counter-claimants), still alive."""
        checker = self.trusted_checker(obs)
        return [c for c in self.reading.claims if c != checker and c != self.seat and c in alive]

    def _suspect(self, obs: Mapping[str, Any], alive: set[int]) -> int | None:
        """The good side's pick for the exile, or None to abstain (see the module docstring)."""
        trusted = self._trusted(obs)
        candidates = alive - trusted
        for wolf in self._known_wolves(obs, alive):
            if wolf in candidates:
                return wolf
        liars = [c for c in self._liars(obs, alive) if c in candidates]
        if liars:
            return liars[0]
        sheriff = obs["sheriff"]
        if (
            sheriff is not None
            and sheriff != self.seat
            and sheriff not in liars
            and self.reading.suggested in candidates
        ):
            return self.reading.suggested
        against = self.reading.votes_against(trusted - {self.seat})
        ranked = [s for s, _ in sorted(against.items(), key=lambda kv: (-kv[1], kv[0]))]
        ranked += sorted(self.reading.suspecters_of(trusted - {self.seat}))
        for seat in ranked:
            if seat in candidates:
                return seat
        return self._table_pick(obs, candidates)

    def _table_pick(self, obs: Mapping[str, Any], candidates: set[int]) -> int | None:
        """Today's most suspected candidate in speeches (lowest seat on a tie), else None."""
        today = self.reading.suspected_today(obs["day"])
        named = [(n, s) for s, n in today.items() if s in candidates]
        if not named:
            return None
        top = max(n for n, _ in named)
        return min(s for n, s in named if n == top)

    # -- decisions -------------------------------------------------------------------------

    def act(self, observation: Mapping[str, Any], legal: Any) -> Any:
        self.reading.update(observation)
        kind = legal.kind
        if kind in P.SPEECH_KINDS:
            return Say(kind, self._speech(observation, kind))
        turner = TURNS.get(kind)
        if turner is not None and turner.turn is not None:  # a role's own night turn
            return turner.turn.bot(observation, legal, self)
        if kind == P.BADGE_RUN:
            return YesNo(kind, self._runs(observation))
        if kind == P.BADGE_WITHDRAW:
            checker = self.trusted_checker(observation)
            role = observation["role"]
            stays = bool(unit_of(role).claim) or role == WEREWOLF or checker in (None, self.seat)
            return YesNo(kind, not stays)
        unit = CHOICES.get(kind)
        if unit is not None and unit.choice is not None:  # a role's own night choice
            target = unit.choice.bot(observation, legal.targets, self)
        else:
            target = self._target(observation, kind, set(legal.targets))
        if target is None or target not in legal.targets:
            target = None if legal.none_allowed else self.rng.choice(legal.targets)
        return Pick(kind, target)

    def _runs(self, obs: Mapping[str, Any]) -> bool:
        if unit_of(obs["role"]).claim:
            return True
        bold = obs["role"] == WEREWOLF and self.seat == min(self._wolves(obs))
        if bold and self.rng.random() < self.BOLD_WOLF:
            prey = sorted(self._alive(obs) - self._wolves(obs))
            self.fake_claim = self.rng.choice(prey) if prey else None
            return self.fake_claim is not None
        return self.rng.random() < (0.3 if obs["role"] == WEREWOLF else 0.2)

    def _target(self, obs: Mapping[str, Any], kind: str, targets: set[int]) -> int | None:
        alive = self._alive(obs)
        wolves = self._wolves(obs)
        checker = self.trusted_checker(obs)
        if kind == P.WOLF_KILL:
            agreed = [t for t in self.reading.proposals.values() if t not in wolves]
            return agreed[0] if agreed else self._prey(obs, alive)
        if kind == P.VOTE:
            return self._wolf_vote(obs, alive) if wolves else self._suspect(obs, alive)
        if kind == P.HUNTER_SHOT:
            if wolves:
                return self._wolf_vote(obs, alive)
            sure = self.sure_wolves(obs)
            return sure[0] if sure else None
        if kind == P.BADGE_VOTE:
            if wolves:
                ours = sorted(targets & wolves)
                return ours[0] if ours else self.rng.choice(sorted(targets))
            return checker if checker in targets else None
        if kind == P.BADGE_PASS:
            if wolves:
                ours = sorted(targets & wolves)
                return ours[0] if ours else None
            good = sorted((self._trusted(obs) - {self.seat}) & targets)
            return good[0] if good else None
        return None

    def _prey(self, obs: Mapping[str, Any], alive: set[int]) -> int | None:
        """The wolves' victim: the claimant, the sheriff, an accuser, else anyone good."""
        wolves = self._wolves(obs)
        prey = sorted(alive - wolves)
        if not prey:
            return None
        claimants = [c for c in self.reading.claims if c in prey]
        if claimants:
            return claimants[0]
        if obs["sheriff"] in prey:
            return int(obs["sheriff"])
        accusers = sorted(self.reading.suspecters_of(wolves) & set(prey))
        if accusers:
            return self.rng.choice(accusers)
        return self.rng.choice(prey)

    def _exposed(self, obs: Mapping[str, Any], alive: set[int]) -> list[int]:
        """Living wolves a claimant (not a wolf) has named."""
        wolves = self._wolves(obs)
        return [
            s
            for claimant in self.reading.claims
            if claimant not in wolves
            for s in self.reading.accused_by(claimant)
            if s in alive and s in wolves
        ]

    def _wolf_vote(self, obs: Mapping[str, Any], alive: set[int]) -> int | None:
        """Blend in: vote with the table against a good player; never bus first."""
        wolves = self._wolves(obs)
        exposed = self._exposed(obs, alive)
        claimants = [c for c in self.reading.claims if c not in wolves and c in alive]
        if exposed and claimants:
            return claimants[0]  # defend the partner: push back on the claimant
        if self.reading.suggested in alive - wolves:
            return self.reading.suggested
        pick = self._table_pick(obs, alive - wolves - {self.seat})
        if pick is not None:
            return pick
        prey = sorted(alive - wolves)
        return self.rng.choice(prey) if prey else None

    # -- speech ----------------------------------------------------------------------------

    def _speech(self, obs: Mapping[str, Any], kind: str) -> str:
        alive = self._alive(obs)
        if kind == P.WOLF_CHAT:
            proposals = self.reading.proposals
            if proposals:
                target = next(iter(proposals.values()))
                return f"Agreed: kill seat {target}." if target is not None else "Agreed: no kill."
            choice = self._prey(obs, alive)
            return f"Let us kill seat {choice}." if choice is not None else "No kill tonight."
        role = obs["role"]
        if unit_of(role).claim:
            results = " ".join(
                f"Seat {c['target']} is {'a werewolf' if c['result'] == WOLF_RESULT else 'good'}."
                for c in obs["checks"]
            )
            text = f"{unit_of(role).claim} {results}".strip()
            pick = self._suspect(obs, alive)
        elif role == WEREWOLF:
            text, pick = self._wolf_cover(obs, alive)
        else:
            text = unit_of(role).bot_words
            pick = self._suspect(obs, alive)
        if pick is not None and kind != P.BADGE_SPEECH:
            text += f" I suspect seat {pick}."
        if kind == P.SPEECH and obs["sheriff"] == self.seat and pick is not None:
            text += f" As sheriff I say: exile seat {pick}."
        return text

    def _wolf_cover(self, obs: Mapping[str, Any], alive: set[int]) -> tuple[str, int | None]:
        """A wolf's speech and pick: a bold wolf keeps up its fake claim; otherwise the
        lowest living wolf counter-claims against a claimant who named a partner."""
        wolves = self._wolves(obs)
        if self.fake_claim is not None:  # keep up the fake claim, and push its "wolf"
            fake = self.fake_claim
            pick = fake if fake in alive else self._wolf_vote(obs, alive)
            return f"{CHECKER.claim} Seat {fake} is a werewolf.", pick
        leader = min(w for w in wolves if w in alive) if wolves & alive else self.seat
        for claimant in self.reading.claims:
            named = [s for s in self.reading.accused_by(claimant) if s in wolves]
            if claimant not in wolves and named and claimant in alive and leader == self.seat:
                return f"{CHECKER.claim} Seat {claimant} is a werewolf.", claimant
        return "I am a villager.", self._wolf_vote(obs, alive)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}
