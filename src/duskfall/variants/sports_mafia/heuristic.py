"""The heuristic sports-mafia agent: a Bayesian reading of the table, then role play.

Reading: every possible black trio is weighed by how well it explains what the seat sees
(hard facts: its own role, its checks, that the game is still on; soft evidence: who claims
sheriff and what, whether claims stayed consistent, who died at night, who voted for whom).
That gives each player's probability of being black and of being the sheriff.

Role play:

* citizens declare their beliefs, nominate and vote the most likely black player;
* the sheriff checks the most suspicious unchecked player and, once it has a black check,
  two checks, or a rival claimer, claims and reveals every check truthfully; it declares
  its checks at +-3 and nominates and votes its black checks;
* the don checks the likeliest sheriff (claimers first) and kills the sheriff it found or
  the claimer it believes real, else a trusted red player;
* mafia never vote a teammate while a red player can be voted, coordinate on one red
  target, and one of them (the lowest-seated non-don) fakes a sheriff claim: it calls a
  rival claimer (or some red player) black and its teammates red.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any

from duskfall.core.bot import Bot
from duskfall.core.legal import LegalActions
from duskfall.variants.sports_mafia.actions import (
    NUM_PLAYERS,
    ZERO_CLAIMS,
    Declaration,
    DonCheck,
    EliminateAllVote,
    Kill,
    SheriffCheck,
    Vote,
)
from duskfall.variants.sports_mafia.legal import DeclarationChoice, TargetChoice
from duskfall.variants.sports_mafia.policies import ClaimMatrix, SheriffPolicy

# Every possible black team: (bit mask, members, the indices of its three pairs).
TRIOS: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (sum(1 << p for p in trio), trio, tuple(a * NUM_PLAYERS + b for a, b in combinations(trio, 2)))
    for trio in combinations(range(NUM_PLAYERS), 3)
)
ALL = (1 << NUM_PLAYERS) - 1
MEMBERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(NUM_PLAYERS) if mask >> p & 1) for mask in range(ALL + 1)
)
# Likelihoods of the soft evidence (relative; only ratios matter).
KILLED_AT_NIGHT_IF_BLACK = 0.1  # the mafia rarely kill their own
VOTE_FOR_TEAMMATE = 0.5  # a black player rarely votes for a teammate
BLACK_CLAIMS = 0.3  # a black player fakes a sheriff claim
BLACK_CALLS_TEAMMATE_BLACK = 0.2
CITIZEN_CLAIMS = 0.05  # a citizen (falsely) claims sheriff
SHERIFF_RIGHT, SHERIFF_WRONG = 0.95, 0.05  # a real sheriff reports a check
INCONSISTENT_SHERIFF = 0.2  # a real sheriff rewrote a revealed check
EPSILON = 1e-9
SHERIFF = "SHERIFF"


def _mask(players: Iterable[int]) -> int:
    return sum(1 << p for p in players)


@dataclass(frozen=True, slots=True)
class Claim:
    """One player's sheriff claims: whom it called black and red (bit masks)."""

    player: int
    black: int
    red: int
    inconsistent: bool = False

    def errors(self, trio: int) -> int:
        """How many of the claimed checks are wrong if ``trio`` is the black team."""
        return (self.black & ~trio).bit_count() + (self.red & trio).bit_count()

    def as_sheriff(self, trio: int) -> float:
        """The likelihood of these claims from a real sheriff if ``trio`` is the black team."""
        wrong = self.errors(trio)
        right = (self.black | self.red).bit_count() - wrong
        likelihood = SHERIFF_RIGHT**right * SHERIFF_WRONG**wrong
        return likelihood * (INCONSISTENT_SHERIFF if self.inconsistent else 1.0)

    def as_black(self, trio: int) -> float:
        """The likelihood of these claims from a black player of team ``trio``."""
        return BLACK_CLAIMS * BLACK_CALLS_TEAMMATE_BLACK ** (self.black & trio).bit_count()


@dataclass(frozen=True, slots=True)
class Evidence:
    """The public facts the beliefs are computed from (hashable, so results are cached)."""

    alive_mask: int
    night_killed: int
    claims: tuple[Claim, ...]
    teammate_votes: tuple[int, ...]  # per unordered pair a*10+b: votes between a and b


@dataclass
class Memory:
    """What the agent remembers between decisions."""

    revealed: dict[int, dict[int, tuple[int, ...]]] = field(default_factory=dict)
    inconsistent: set[int] = field(default_factory=set)
    check_turns: dict[int, int] = field(default_factory=dict)  # target -> night of the check

    def watch_claims(self, player: int, matrix: Sequence[Sequence[int]]) -> None:
        """Remember revealed rows; a player who rewrites one is marked inconsistent."""
        seen = self.revealed.setdefault(player, {})
        for turn, row in enumerate(matrix):
            if not any(row):
                if turn in seen:
                    self.inconsistent.add(player)
                continue
            current = tuple(row)
            if seen.setdefault(turn, current) != current:
                self.inconsistent.add(player)


@dataclass
class Table:
    """The facts of one observation, as bit masks and counts."""

    seat: int
    role: str
    turn: int
    alive: list[int]
    alive_mask: int
    tied: list[int]
    team: list[int]
    don: int | None
    claims: dict[int, Claim]
    evidence: Evidence
    sheriff_checks: dict[int, bool]  # target -> is black
    don_checks: dict[int, bool]  # target -> is sheriff

    @classmethod
    def read(cls, obs: Mapping[str, Any], memory: Memory) -> Table:
        claims: dict[int, Claim] = {}
        for info in obs["players"]:
            player = info["player_id"]
            matrix = info["sheriff_claims"]
            if player in memory.revealed or any(map(any, matrix)):
                memory.watch_claims(player, matrix)
                claims[player] = _read_claim(player, matrix, player in memory.inconsistent)
        alive = list(obs["alive_players"])
        alive_mask = _mask(alive)
        voted_out, pairs = _read_votes(obs["vote_history"])
        teammate_votes = [0] * (NUM_PLAYERS * NUM_PLAYERS)
        for (voter, target), count in pairs.items():
            teammate_votes[min(voter, target) * NUM_PLAYERS + max(voter, target)] += count
        dead = _mask(range(NUM_PLAYERS)) & ~alive_mask
        evidence = Evidence(
            alive_mask,
            dead & ~voted_out,
            tuple(c for c in claims.values() if c.black or c.red),
            tuple(teammate_votes),
        )
        private = obs["private_info"]
        return cls(
            seat=obs["player_id"],
            role=obs["role"],
            turn=obs["turn"],
            alive=alive,
            alive_mask=alive_mask,
            tied=list(obs["tied_players"]),
            team=list(private.get("mafia_team", ())),
            don=next((int(p) for p, r in obs["known_roles"].items() if r == "DON"), None),
            claims=claims,
            evidence=evidence,
            sheriff_checks={
                int(t): team == "BLACK" for t, team in private.get("sheriff_checks", {}).items()
            },
            don_checks={int(t): bool(v) for t, v in private.get("don_checks", {}).items()},
        )


def _read_claim(player: int, matrix: Sequence[Sequence[int]], inconsistent: bool) -> Claim:
    black = red = 0
    for row in matrix:
        for target, value in enumerate(row):
            if value < 0:
                black |= 1 << target
            elif value > 0:
                red |= 1 << target
    return Claim(player, black, red, inconsistent)


def _read_votes(history: Sequence[Mapping[str, Any]]) -> tuple[int, Counter[tuple[int, int]]]:
    """Players voted out (as a mask) and how often each voter voted for each target."""
    voted_out = 0
    pairs: Counter[tuple[int, int]] = Counter()
    for record in history:
        votes = {int(v): t for v, t in record["votes"].items()}
        if record["round"] == 2:
            if sum(1 for v in votes.values() if v) > len(votes) / 2:
                voted_out |= _mask(_tied_of(history, record))
            continue
        counts = Counter(votes.values())
        top = max(counts.values())
        leaders = [t for t, c in counts.items() if c == top]
        if len(leaders) == 1:
            voted_out |= 1 << leaders[0]
        pairs.update(votes.items())
    return voted_out, pairs


def _tied_of(history: Sequence[Mapping[str, Any]], record: Mapping[str, Any]) -> list[int]:
    """The players tied in the re-vote that led to an eliminate-all ``record``."""
    index = next(i for i, r in enumerate(history) if r is record)
    revote = history[index - 1]
    counts = Counter(revote["votes"].values())
    top = max(counts.values())
    return [t for t, c in counts.items() if c == top]


@dataclass
class Beliefs:
    """Each player's probability of being black and of being the sheriff."""

    black: list[float]
    sheriff: list[float]


def read_beliefs(
    table: Table,
    known_red: int = 0,
    known_black: int = 0,
    sheriff: int | None = None,
    not_sheriff: int = 0,
    with_sheriff: bool = False,
) -> Beliefs:
    """Each player's probability of being black (and the sheriff) given what ``table`` shows.

    ``known_red``/``known_black`` are bit masks of players whose team the reader knows,
    ``sheriff`` the sheriff if known, ``not_sheriff`` players known not to be it. The
    sheriff probabilities are computed only ``with_sheriff`` (else they are zeros).
    """
    black, sheriff_p = _weigh(
        table.evidence, known_red, known_black, sheriff, not_sheriff, with_sheriff
    )
    return Beliefs(list(black), list(sheriff_p))


# One possible black team as the public evidence weighs it: its bit mask, members, weight
# from the evidence that does not depend on who the sheriff is, and each sheriff
# candidate's share of the claims evidence (None: no red claimer, every share is 1).
Weighed = tuple[int, tuple[int, ...], float, dict[int, float] | None]


@lru_cache(maxsize=1024)
def _weigh_trios(evidence: Evidence) -> tuple[Weighed, ...]:
    """Weigh every black trio still possible (the game is on) by the public evidence."""
    alive_mask = evidence.alive_mask
    alive_count = alive_mask.bit_count()
    killed = evidence.night_killed
    votes = evidence.teammate_votes
    claims = evidence.claims
    weighed = []
    for trio, members, pairs in TRIOS:
        living_black = (trio & alive_mask).bit_count()
        if living_black == 0 or 2 * living_black >= alive_count:
            continue  # the game would be over
        weight = KILLED_AT_NIGHT_IF_BLACK ** (trio & killed).bit_count()
        weight *= VOTE_FOR_TEAMMATE ** (votes[pairs[0]] + votes[pairs[1]] + votes[pairs[2]])
        # The sheriff is a red player; red claimers who are not the sheriff lie.
        shares: dict[int, float] | None = None
        for claim in claims:
            if trio >> claim.player & 1:
                weight *= claim.as_black(trio)
                continue
            if shares is None:
                shares = dict.fromkeys(MEMBERS[~trio & ALL], 1.0)
            for s in shares:
                shares[s] *= claim.as_sheriff(trio) if s == claim.player else CITIZEN_CLAIMS
        weighed.append((trio, members, weight, shares))
    return tuple(weighed)


@lru_cache(maxsize=4096)
def _weigh(
    evidence: Evidence,
    known_red: int,
    known_black: int,
    sheriff: int | None,
    not_sheriff: int,
    with_sheriff: bool,
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Condition the weighed trios on what the reader knows; sum up per player."""
    black = [0.0] * NUM_PLAYERS
    sheriff_p = [0.0] * NUM_PLAYERS
    total = 0.0
    for trio, members, base, shares in _weigh_trios(evidence):
        if trio & known_red or known_black & ~trio:
            continue
        # the sheriff is one of the candidates, equally likely a priori
        candidates = (sheriff,) if sheriff is not None else MEMBERS[~(trio | not_sheriff) & ALL]
        if shares is None:
            evidence_weight = float(len(candidates))
        else:
            evidence_weight = sum(shares[s] for s in candidates)
        if evidence_weight <= 0:
            continue
        weight = base * (evidence_weight / len(candidates))
        total += weight
        for p in members:
            black[p] += weight
        if with_sheriff:
            for s in candidates:
                share = 1.0 if shares is None else shares[s]
                sheriff_p[s] += weight * share / evidence_weight
    if total <= 0:
        return (0.3,) * NUM_PLAYERS, (0.1,) * NUM_PLAYERS
    return tuple(b / total for b in black), tuple(s / total for s in sheriff_p)


def _best(players: Iterable[int], score: Callable[[int], float], rng: random.Random) -> int:
    """The highest-scoring player, ties broken with ``rng``."""
    scored = [(score(p), p) for p in players]
    top = max(value for value, _ in scored)
    return rng.choice([p for value, p in scored if value >= top - EPSILON])


def _first_best(players: Iterable[int], score: Callable[[int], float]) -> int:
    """The highest-scoring player, ties to the lowest seat (so teammates agree)."""
    return max(players, key=lambda p: (score(p), -p))


def belief_value(p_black: float) -> int:
    """A probability of being black as a declaration value (-3 surely black .. 3 surely red)."""
    return max(-3, min(3, round(3 - 6 * p_black)))


class HeuristicAgent(Bot):
    """Plays every role sensibly; see the module docstring."""

    name = "heuristic"

    def __init__(self, seat: int, rng: random.Random) -> None:
        super().__init__(seat, rng)
        self.memory = Memory()
        self.claims: SheriffPolicy | None = None

    def act(self, observation: Mapping[str, Any], legal: LegalActions) -> Any:
        table = Table.read(observation, self.memory)
        if table.team:
            return self._act_black(table, legal)
        return self._act_red(table, legal)

    # -- red: citizen and sheriff ------------------------------------------------------

    def _red_beliefs(self, table: Table) -> Beliefs:
        checks = table.sheriff_checks
        black_checks = _mask(t for t, is_black in checks.items() if is_black)
        red_checks = _mask(t for t, is_black in checks.items() if not is_black)
        is_sheriff = table.role == SHERIFF
        return read_beliefs(
            table,
            known_red=red_checks | 1 << self.seat,
            known_black=black_checks,
            sheriff=self.seat if is_sheriff else None,
            not_sheriff=0 if is_sheriff else 1 << self.seat,
        )

    def _act_red(self, table: Table, legal: LegalActions) -> Any:
        beliefs = self._red_beliefs(table)
        suspicion = beliefs.black.__getitem__
        if isinstance(legal, DeclarationChoice):
            values = [belief_value(p) for p in beliefs.black]
            values[self.seat] = 3
            claims = self._true_claims(table) if table.role == SHERIFF else ZERO_CLAIMS
            return self._declaration(values, claims, legal.nominable, suspicion)
        if isinstance(legal, TargetChoice):
            if legal.action_type == "SHERIFF_CHECK":
                unchecked = [t for t in legal.targets if t not in table.sheriff_checks]
                target = _best(unchecked or legal.targets, suspicion, self.rng)
                self.memory.check_turns[target] = table.turn
                return SheriffCheck(target)
            return Vote(_best(legal.targets, suspicion, self.rng))
        tied_share = sum(beliefs.black[p] for p in table.tied) / max(1, len(table.tied))
        alive_share = sum(beliefs.black[p] for p in table.alive) / len(table.alive)
        return EliminateAllVote(tied_share >= alive_share)

    def _declaration(
        self,
        values: list[int],
        claims: ClaimMatrix,
        nominable: Sequence[int],
        score: Callable[[int], float],
    ) -> Declaration:
        nomination = ((_best(nominable, score, self.rng), 1.0),) if nominable else ()
        return Declaration(tuple(values), claims, nomination)

    def _true_claims(self, table: Table) -> ClaimMatrix:
        """The sheriff reveals every check, truthfully, once it has something worth saying."""
        policy = self.claims = self.claims or SheriffPolicy(self.seat)
        policy.update_turn(table.turn, table.alive)
        nights = self.memory.check_turns
        free = iter(t for t in range(table.turn) if t not in nights.values())
        for target, is_black in table.sheriff_checks.items():
            night = nights.get(target)
            if night is None:  # e.g. a resumed game: put it in the first free night
                night = nights[target] = next(free, table.turn)
            policy.record_check(night, target, is_black)
        black_alive = any(
            is_black and table.alive_mask >> t & 1 for t, is_black in table.sheriff_checks.items()
        )
        rival = any(p != self.seat for p in table.claims)
        if policy.claiming or black_alive or rival or len(table.sheriff_checks) >= 2:
            return policy.claim_now(self.rng)
        return policy.matrix()

    # -- black: mafia and don ----------------------------------------------------------

    def _act_black(self, table: Table, legal: LegalActions) -> Any:
        team = set(table.team)
        if isinstance(legal, TargetChoice) and legal.action_type in ("KILL", "DON_CHECK"):
            return self._night(table, legal, team)
        public = read_beliefs(table)
        red_claimers = {p for p in table.claims if p not in team and p in table.alive}

        def threat(p: int) -> float:
            return public.black[p] + (1.0 if p in red_claimers else 0.0)

        if isinstance(legal, DeclarationChoice):
            values = [belief_value(p) for p in public.black]
            for p in red_claimers:
                values[p] = -3
            for p in team:
                values[p] = max(values[p], 2)
            values[self.seat] = 3
            reds = [p for p in legal.nominable if p not in team]
            claims = self._fake_claims(table, team, red_claimers)
            return self._declaration(values, claims, reds, threat)
        if isinstance(legal, TargetChoice):
            reds = [t for t in legal.targets if t not in team]
            if reds:
                return Vote(_first_best(reds, threat))
            return Vote(_first_best(legal.targets, public.black.__getitem__))
        tied_team = sum(1 for p in table.tied if p in team)
        if tied_team == 0:
            return EliminateAllVote(True)
        black_after = sum(1 for p in table.alive if p in team) - tied_team
        red_after = len(table.alive) - len(table.tied) - black_after
        return EliminateAllVote(black_after > 0 and black_after >= red_after)

    def _night(self, table: Table, legal: TargetChoice, team: set[int]) -> Any:
        """The killer and the don hunt the sheriff: claimers first, then trusted players."""
        found = [t for t, is_sheriff in table.don_checks.items() if is_sheriff]
        beliefs = read_beliefs(
            table,
            known_red=_mask(range(NUM_PLAYERS)) & ~_mask(team),
            known_black=_mask(team),
            sheriff=found[0] if found else None,
            not_sheriff=_mask(t for t, is_sheriff in table.don_checks.items() if not is_sheriff),
            with_sheriff=True,
        )
        public = read_beliefs(table)

        def sheriff_score(p: int) -> float:
            return beliefs.sheriff[p] + 0.01 * (1.0 - public.black[p])

        reds = [t for t in legal.targets if t not in team] or list(legal.targets)
        if legal.action_type == "KILL":
            return Kill(_best(reds, sheriff_score, self.rng))
        unchecked = [t for t in reds if t not in table.don_checks] or reds
        return DonCheck(_best(unchecked, sheriff_score, self.rng))

    def _fake_claims(self, table: Table, team: set[int], red_claimers: set[int]) -> ClaimMatrix:
        """One black player (the lowest non-don) fakes a sheriff claim; the others never do."""
        living = [p for p in table.team if table.alive_mask >> p & 1]
        faker = min((p for p in living if p != table.don), default=table.don)
        if faker != self.seat:
            return ZERO_CLAIMS
        policy = self.claims = self.claims or SheriffPolicy(
            self.seat, claim_prob=0.5, black_prob=0.7, protected=frozenset(team)
        )
        policy.update_turn(table.turn, table.alive)
        named = policy.named()
        rivals = {p: 1.0 for p in red_claimers if p not in named}
        if rivals:
            policy.target_weights = rivals
            policy.black_prob = 1.0
            return policy.claim_now(self.rng)
        policy.target_weights = {p: 0.3 if p in team else 1.0 for p in table.alive}
        policy.black_prob = 0.7
        return policy.sample_sheriff_claims(self.rng)
