"""The shadow game of a GM's werewolf game: the real rules engine, played from what the GM did.

:class:`ShadowGame` holds a :class:`~duskfall.variants.werewolf.rules.WerewolfState` dealt as
the GM's game was dealt and answers its decisions from the GM's game (see
:mod:`duskfall.gm.audit`): at dawn, the wolves' kill and the witch's potion that explain the
deaths the GM announced; at the exile, every living player's vote for the player the GM put
out; neutral fillers for the rest (an empty speech, no vote). What the engine refuses, and
deaths that differ from those the GM announced, come back as :class:`Flag` values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.gm.event_kinds import UNMAPPED
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.config import WerewolfConfig
from duskfall.variants.werewolf.roles import WEREWOLF, WITCH
from duskfall.variants.werewolf.rules import WerewolfState

ANTIDOTE_WORDS = re.compile(r"antidote|\bsave|解药|救", re.IGNORECASE)
POISON_WORDS = re.compile(r"poison|毒", re.IGNORECASE)
SAID = "..."  # what the shadow says for a speech the GM's game does not map

Answer = Callable[[int], Any]  # a seat -> its action (wire form) in the shadow game


@dataclass(frozen=True, slots=True)
class Flag:
    """One rule the GM broke (or, with rule ``unmapped``, what could not be checked)."""

    rule: str
    detail: str


@dataclass
class Night:
    """What the GM's game said during one night, read when the night is settled at dawn."""

    replies: dict[str, list[str]] = field(default_factory=dict)  # player -> private replies
    deaths: list[str] = field(default_factory=list)  # announced out at dawn


class ShadowGame:
    """The rules engine dealt ``roles`` (rules roles, in seat order) for the players ``names``;
    raises ValueError if the rules have no such game."""

    def __init__(self, names: Sequence[str], roles: Sequence[str]) -> None:
        config = WerewolfConfig(
            roles=list(roles),
            names=list(names),
            deal="in_order",
            badge=False,  # the cards have no sheriff
            wolf_rounds=1,
            last_words_first_night_only=False,  # the cards give every death last words
            day_limit=200,
        )
        self.engine = WerewolfState(config, 0)
        self.seat = {name: i for i, name in enumerate(names)}

    def role(self, player: str) -> str:
        return self.engine.role_of[self.seat[player]]

    def is_out(self, player: str) -> bool:
        return not self.engine.is_alive[self.seat[player]]

    def take_last_words(self, player: str) -> bool:
        """Whether the rules give ``player`` last words now (they are then said)."""
        seat = self.seat[player]
        if self.engine.decision_of(seat) != P.LAST_WORDS:
            return False
        self.engine.apply(seat, {"type": P.LAST_WORDS, "says": SAID})
        return True

    @property
    def winner(self) -> str | None:
        outcome = self.engine.outcome()
        return outcome.winner if outcome is not None else None

    def _drive(self, until: Iterable[str], answers: Mapping[str, Answer]) -> list[Flag]:
        """Answer the engine's decisions (``answers`` by kind, else a neutral filler) until
        one of kind ``until`` is asked or the game has ended; a refused answer is a flag."""
        engine = self.engine
        stop = set(until)
        flags: list[Flag] = []
        while engine.outcome() is None:
            pending = engine.pending()
            if not pending or any(d.kind in stop for d in pending):
                break
            decision = pending[0]
            answer = answers.get(decision.kind, _filler(engine))
            try:
                engine.apply(decision.seat, answer(decision.seat))
            except IllegalAction as exc:
                flags.append(self._refused(decision.kind, str(exc)))
                engine.apply(decision.seat, _filler(engine)(decision.seat))
        return flags

    @staticmethod
    def _refused(kind: str, why: str) -> Flag:
        if kind == P.WITCH:
            return Flag("illegal_witch_action", f"the rules refuse the witch's potion: {why}")
        if kind == P.VOTE:  # everyone voted for the player the GM exiled
            return Flag("dead_player_acts", f"the GM exiled a player who is out ({why})")
        return Flag("dead_player_acts", f"the GM put out a player who is out ({why})")

    def settle_day(self, exiled: str | None) -> list[Flag]:
        """The day's speeches and the vote that exiles ``exiled`` (None: nobody)."""
        target = None if exiled is None else self.seat[exiled]
        votes: dict[str, Answer] = {
            P.VOTE: lambda seat: {"type": P.VOTE, "target": None if seat == target else target}
        }
        return self._drive((P.WOLF_CHAT, P.WOLF_KILL, P.WITCH, P.SEER, P.GUARD), votes)

    def settle_night(self, tonight: Night) -> list[Flag]:
        """At dawn: the wolves' kill and the witch's potion that explain the deaths the GM
        announced; then what the rules say died, against what the GM said."""
        engine = self.engine
        flags = self._drive((P.WOLF_KILL,), {})
        if engine.outcome() is not None:
            return flags
        deaths = tonight.deaths
        witch, flags_witch = self._witch_plan(tonight, deaths)
        flags += flags_witch
        poisoned = witch.get("target") if witch.get("potion") == "POISON" else None
        attacked, saved = self._wolves_target(
            tonight, deaths, poisoned, witch.get("potion") == "ANTIDOTE"
        )
        if saved is not None:
            flags.append(saved)
            witch = {"potion": "PASS"}
        dead_before = {s for s in range(engine.num_seats) if not engine.is_alive[s]}
        answers: dict[str, Answer] = {
            P.WOLF_KILL: lambda seat: {"type": P.WOLF_KILL, "target": attacked},
            P.WITCH: lambda seat: {"type": P.WITCH, "target": None, **witch},
            P.SEER: lambda seat: self._seer_check(tonight, seat),
        }
        flags += self._drive((P.SPEECH, P.LAST_WORDS, P.VOTE), answers)
        died = {s for s in range(engine.num_seats) if not engine.is_alive[s]} - dead_before
        return flags + self._compare_deaths({self.seat[n] for n in deaths}, died)

    def _witch_plan(self, tonight: Night, deaths: list[str]) -> tuple[dict[str, Any], list[Flag]]:
        """The witch's potion tonight, from her private reply (wire form of the engine)."""
        engine = self.engine
        name = next((n for n, s in self.seat.items() if engine.role_of[s] == WITCH), None)
        said = " ".join(tonight.replies.get(name, [])) if name else ""
        wants = {p for p, words in (("ANTIDOTE", ANTIDOTE_WORDS), ("POISON", POISON_WORDS))
                 if words.search(said)}  # fmt: skip
        flags = []
        for potion, left in (("ANTIDOTE", engine.antidote), ("POISON", engine.poison)):
            if potion in wants and not left:
                flags.append(
                    Flag("witch_potion_twice", f"the witch used her {potion.lower()} again")
                )
                wants.discard(potion)
        if len(wants) > 1:
            flags.append(Flag("witch_potion_twice", "the witch used both potions in one night"))
            wants = {"POISON"} if len(deaths) > 1 else {"ANTIDOTE"}
        if "POISON" in wants:
            named = _named(said, self.seat, exclude=name)
            target = next((n for n in named if n in deaths), None)
            target = target or (deaths[-1] if len(deaths) > 1 else named[0] if named else None)
            if target is None:
                return {"potion": "PASS"}, [
                    *flags,
                    Flag(UNMAPPED, "the witch's poison has no target"),
                ]
            return {"potion": "POISON", "target": self.seat[target]}, flags
        return {"potion": wants.pop() if wants else "PASS"}, flags

    def _wolves_target(
        self, tonight: Night, deaths: list[str], poisoned: int | None, saved: bool
    ) -> tuple[int | None, Flag | None]:
        """The wolves' target: a death the poison does not explain; or, when the witch saved,
        the player the wolves named (None and a note if they named nobody)."""
        killed = [self.seat[n] for n in deaths if self.seat[n] != poisoned]
        if killed:
            return killed[0], None
        if not saved:
            return None, None
        engine = self.engine
        wolves = {n for n, s in self.seat.items() if engine.role_of[s] == WEREWOLF}
        said = " ".join(t for n in wolves for t in tonight.replies.get(n, []))
        named = [n for n in _named(said, self.seat) if n not in wolves]
        if not named:
            return None, Flag(UNMAPPED, "the witch saved, but the wolves' target is not known")
        return self.seat[named[0]], None

    def _seer_check(self, tonight: Night, seat: int) -> dict[str, Any]:
        engine = self.engine
        player = next(n for n, s in self.seat.items() if s == seat)
        said = " ".join(tonight.replies.get(player, []))
        living = [
            n for n in _named(said, self.seat, exclude=player) if engine.is_alive[self.seat[n]]
        ]
        target = self.seat[living[0]] if living else _filler(engine)(seat)["target"]
        return {"type": P.SEER, "target": target}

    def _compare_deaths(self, announced: set[int], died: set[int]) -> list[Flag]:
        if announced == died:
            return []
        names = {s: n for n, s in self.seat.items()}

        def listed(seats: set[int]) -> str:
            return ", ".join(names[s] for s in sorted(seats)) or "nobody"

        if len(announced) > max(len(died), 1):
            detail = f"{len(announced)} deaths announced in one night; the rules allow {len(died)}"
            return [Flag("second_night_kill", detail)]
        detail = f"the GM announced {listed(announced)} dead; the rules kill {listed(died)}"
        return [Flag("night_deaths_differ", detail)]


def _named(text: str, seats: Mapping[str, int], exclude: str | None = None) -> list[str]:
    """The players ``text`` names, in the order it names them."""
    lowered = text.lower()
    found = [(lowered.find(n.lower()), n) for n in seats if n != exclude]
    return [n for at, n in sorted(found) if at >= 0]


def _filler(engine: WerewolfState) -> Answer:
    """A neutral answer to a decision the GM's game does not map: an empty speech, no kill,
    no vote, no potion; a seer's check of the first player she may check."""

    def answer(seat: int) -> dict[str, Any]:
        kind = engine.decision_of(seat)
        if kind in P.SPEECH_KINDS:
            return {"type": kind, "says": SAID}
        if kind == P.WITCH:
            return {"type": P.WITCH, "potion": "PASS", "target": None}
        if kind == P.SEER:
            target = next(s for s in engine.alive() if s != seat)
            return {"type": P.SEER, "target": target}
        return {"type": kind, "target": None}

    return answer
