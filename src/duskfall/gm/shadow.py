"""The shadow game of a GM's werewolf game: the real rules engine, played from what the GM did.

:class:`ShadowGame` holds a state of the ``werewolf`` variant (found with
:func:`~duskfall.core.registry.get_variant`, played through the State contract) dealt as
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

from duskfall.core.errors import DuskfallError, IllegalAction
from duskfall.core.registry import get_variant
from duskfall.core.variant import State, Variant, parse_config
from duskfall.gm.event_kinds import UNMAPPED

RULES_VARIANT = "werewolf"
# The werewolf variant's roles and decision kinds the shadow answers (its wire vocabulary).
WEREWOLF, WITCH, SEER, GUARD = "Werewolf", "Witch", "Seer", "Guard"
WOLF_CHAT, WOLF_KILL, VOTE, SPEECH, LAST_WORDS = (
    "WOLF_CHAT", "WOLF_KILL", "VOTE", "SPEECH", "LAST_WORDS",
)  # fmt: skip
SPEECH_KINDS = frozenset({WOLF_CHAT, "BADGE_SPEECH", LAST_WORDS, SPEECH})
NIGHT_ROLES = frozenset({WEREWOLF, SEER, WITCH, GUARD})

ANTIDOTE_WORDS = re.compile(r"antidote|\bsave|解药|救", re.IGNORECASE)
POISON_WORDS = re.compile(r"poison|毒", re.IGNORECASE)
SAID = "..."  # what the shadow says for a speech the GM's game does not map

Answer = Callable[[int], Any]  # a seat -> its action (wire form) in the shadow game


def werewolf() -> Variant:
    """The rules the shadow plays."""
    return get_variant(RULES_VARIANT)


def rules_role(name: str) -> str:
    """The werewolf rules' name of a role as a card writes it (``seers`` -> ``Seer``);
    ValueError if the rules have no such role."""
    named = werewolf().info.role_named
    if named is None:
        raise ValueError(f"the {RULES_VARIANT} rules name no roles")
    return named(name)


def decision_of(state: State, seat: int) -> str | None:
    """The kind of the decision ``seat`` must make now, if any."""
    return next((d.kind for d in state.pending() if d.seat == seat), None)


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
        variant = werewolf()
        config = {
            "roles": list(roles),
            "names": list(names),
            "deal": "in_order",
            "badge": False,  # the cards have no sheriff
            "wolf_rounds": 1,
            "last_words_first_night_only": False,  # the cards give every death last words
            "day_limit": 200,
        }
        try:
            self.engine: State = variant.new_game(parse_config(variant, config), 0)
        except DuskfallError as exc:
            raise ValueError(str(exc)) from None
        self.seat = {name: i for i, name in enumerate(names)}

    def role(self, player: str) -> str:
        return self.engine.roles()[self.seat[player]]

    def is_out(self, player: str) -> bool:
        return self.seat[player] not in self.engine.alive()

    def take_last_words(self, player: str) -> bool:
        """Whether the rules give ``player`` last words now (they are then said)."""
        seat = self.seat[player]
        if decision_of(self.engine, seat) != LAST_WORDS:
            return False
        self.engine.apply(seat, {"type": LAST_WORDS, "says": SAID})
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
        if kind == WITCH.upper():
            return Flag("illegal_witch_action", f"the rules refuse the witch's potion: {why}")
        if kind == VOTE:  # everyone voted for the player the GM exiled
            return Flag("dead_player_acts", f"the GM exiled a player who is out ({why})")
        return Flag("dead_player_acts", f"the GM put out a player who is out ({why})")

    def settle_day(self, exiled: str | None) -> list[Flag]:
        """The day's speeches and the vote that exiles ``exiled`` (None: nobody)."""
        target = None if exiled is None else self.seat[exiled]
        votes: dict[str, Answer] = {
            VOTE: lambda seat: {"type": VOTE, "target": None if seat == target else target}
        }
        night = (WOLF_CHAT, WOLF_KILL, WITCH.upper(), SEER.upper(), GUARD.upper())
        return self._drive(night, votes)

    def settle_night(self, tonight: Night) -> list[Flag]:
        """At dawn: the wolves' kill and the witch's potion that explain the deaths the GM
        announced; then what the rules say died, against what the GM said."""
        engine = self.engine
        flags = self._drive((WOLF_KILL,), {})
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
        dead_before = set(range(engine.num_seats)) - set(engine.alive())
        answers: dict[str, Answer] = {
            WOLF_KILL: lambda seat: {"type": WOLF_KILL, "target": attacked},
            WITCH.upper(): lambda seat: {"type": WITCH.upper(), "target": None, **witch},
            SEER.upper(): lambda seat: self._seer_check(tonight, seat),
        }
        flags += self._drive((SPEECH, LAST_WORDS, VOTE), answers)
        died = set(range(engine.num_seats)) - set(engine.alive()) - dead_before
        return flags + self._compare_deaths({self.seat[n] for n in deaths}, died)

    def _witch_plan(self, tonight: Night, deaths: list[str]) -> tuple[dict[str, Any], list[Flag]]:
        """The witch's potion tonight, from her private reply (wire form of the engine)."""
        engine = self.engine
        roles = engine.roles()
        name = next((n for n, s in self.seat.items() if roles[s] == WITCH), None)
        said = " ".join(tonight.replies.get(name, [])) if name else ""
        wants = {p for p, words in (("ANTIDOTE", ANTIDOTE_WORDS), ("POISON", POISON_WORDS))
                 if words.search(said)}  # fmt: skip
        flags = []
        potions = engine.observe(self.seat[name]) if name else {}
        for potion in ("ANTIDOTE", "POISON"):
            left = bool(potions.get(potion.lower()))
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
        roles = engine.roles()
        wolves = {n for n, s in self.seat.items() if roles[s] == WEREWOLF}
        said = " ".join(t for n in wolves for t in tonight.replies.get(n, []))
        named = [n for n in _named(said, self.seat) if n not in wolves]
        if not named:
            return None, Flag(UNMAPPED, "the witch saved, but the wolves' target is not known")
        return self.seat[named[0]], None

    def _seer_check(self, tonight: Night, seat: int) -> dict[str, Any]:
        engine = self.engine
        player = next(n for n, s in self.seat.items() if s == seat)
        said = " ".join(tonight.replies.get(player, []))
        alive = engine.alive()
        living = [n for n in _named(said, self.seat, exclude=player) if self.seat[n] in alive]
        target = self.seat[living[0]] if living else _filler(engine)(seat)["target"]
        return {"type": SEER.upper(), "target": target}

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


def _filler(engine: State) -> Answer:
    """A neutral answer to a decision the GM's game does not map: an empty speech, no kill,
    no vote, no potion; a seer's check of the first player she may check."""

    def answer(seat: int) -> dict[str, Any]:
        kind = decision_of(engine, seat)
        if kind in SPEECH_KINDS:
            return {"type": kind, "says": SAID}
        if kind == WITCH.upper():
            return {"type": kind, "potion": "PASS", "target": None}
        if kind == SEER.upper():
            target = next(s for s in engine.alive() if s != seat)
            return {"type": kind, "target": target}
        return {"type": kind, "target": None}

    return answer
