"""Audit a game master against the werewolf rules engine: flag each step where it broke them.

A card whose skeleton says ``audit = "werewolf"`` (and maps each of its roles to a role of
the werewolf rules engine with ``rules_role``) gets a shadow game of the real rules engine
(:mod:`duskfall.variants.werewolf`), dealt as the GM's game was dealt, that follows what the
GM announced. The shadow's decisions are answered from the GM's game: at dawn, the wolves'
kill and the witch's potion that explain the deaths the GM announced (the witch's potion and
its target, and the wolves' target when nobody died, are read from their private replies);
at the exile, every living player's vote for the player the GM put out. The engine then says
what the rules allow, and each difference becomes an admin ``gm_audit`` event (step, rule,
detail), shown in the web god view and counted in the game's summary:

* ``dead_player_acts``: a player the rules (or the GM) have put out is given a turn (other
  than the last words the rules give), or is put out again;
* ``wrong_night_actor``: a night's private turn goes to a role that has no night action;
* ``second_night_kill``: more deaths announced at dawn than the rules allow that night;
* ``night_deaths_differ``: the deaths announced at dawn are not the ones the rules give (a
  saved player announced dead, a poisoned one left alive);
* ``second_exile``: more than one player exiled in one day;
* ``witch_potion_twice``: the witch is let use her antidote (or her poison) a second time,
  or both potions in one night; ``illegal_witch_action``: another potion the rules refuse;
* ``no_game_over``: a side has won by the rules but the game goes on.

What cannot be mapped onto the engine (a save whose target nobody named, a poison without a
target) is said in a ``gm_audit`` event of rule ``unmapped`` (not a break, not counted), and
the engine goes on without it rather than guessing. The seer's check changes none of the
rules above; a seer reply that names nobody is fed to the engine as a check of the first
player it may check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.events import Event
from duskfall.gm import event_kinds as kinds
from duskfall.gm.event_kinds import UNMAPPED
from duskfall.gm.skeleton import Skeleton
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.config import WerewolfConfig
from duskfall.variants.werewolf.roles import GUARD, SEER, WEREWOLF, WITCH, canonical_role
from duskfall.variants.werewolf.rules import WerewolfState

ANTIDOTE_WORDS = re.compile(r"antidote|\bsave|解药|救", re.IGNORECASE)
POISON_WORDS = re.compile(r"poison|毒", re.IGNORECASE)
NIGHT_ROLES = {WEREWOLF, SEER, WITCH, GUARD}
SAID = "..."  # what the shadow says for a speech the GM's game does not map


@dataclass(frozen=True, slots=True)
class Flag:
    """One rule the GM broke (or, with rule ``unmapped``, what could not be checked)."""

    rule: str
    detail: str


Answer = Callable[[int], Any]  # a seat -> its action (wire form) in the shadow game


@dataclass
class Night:
    """What the GM's game said during one night, read when the night is settled at dawn."""

    replies: dict[str, list[str]] = field(default_factory=dict)  # player -> private replies
    deaths: list[str] = field(default_factory=list)  # announced out at dawn


class WerewolfAudit:
    """The shadow game; :meth:`see` takes each event of the GM's game and returns the flags
    it raises (see the module docstring)."""

    def __init__(self, skeleton: Skeleton) -> None:
        self.skeleton = skeleton
        self.engine: WerewolfState | None = None
        self.seat: dict[str, int] = {}
        self.out: set[str] = set()  # announced out by the GM
        self.night = True  # the game opens with a night
        self.opening = False  # a phase of the other half of the round opened; nobody acted yet
        self.last_words: set[str] = set()  # out now, with last words by the card
        self.phase_index = -1
        self.tonight = Night()
        self.unsettled: str | None = None  # "night" or "day": ended, not yet fed to the engine
        self.day_fed = True  # this day's speeches and vote were fed to the engine
        self.exiles = 0
        self.won_flagged = False

    # -- reading the GM's game -----------------------------------------------------------

    def see(self, event: Event) -> list[Flag]:
        """The flags ``event`` raises. Should the shadow fail (a case the audit does not
        know), it stops with a note: an audit never stops the game it watches."""
        try:
            return self._see(event)
        except Exception as exc:
            if self.engine is None:
                raise
            self.engine = None
            return [Flag(UNMAPPED, f"the audit stopped: {type(exc).__name__}: {exc}")]

    def _see(self, event: Event) -> list[Flag]:
        payload = event.payload
        kind = event.kind
        if kind == kinds.DEAL:
            return self._deal(dict(payload["roles"]))
        if self.engine is None:
            return []
        if kind == kinds.PHASE:
            return self._phase(int(payload["phase"]))
        if kind == kinds.TURN:
            return self._turn(str(payload["player"]), bool(payload["private"]))
        if kind == kinds.OUT:
            return self._out(str(payload["player"]))
        if kind == kinds.PRIVATE_REPLY:
            self.tonight.replies.setdefault(str(payload["player"]), []).append(payload["text"])
            return []
        if kind == kinds.GM_INSTRUCTION and not payload.get("game_over"):
            return self._winner_ignored()
        return []

    def _deal(self, roles: Mapping[str, str]) -> list[Flag]:
        names = list(roles)
        try:
            rules_roles = [self._rules_role(roles[name]) for name in names]
            config = WerewolfConfig(
                roles=rules_roles,
                names=names,
                deal="in_order",
                badge=False,  # the cards have no sheriff
                wolf_rounds=1,
                last_words_first_night_only=False,  # the cards give every death last words
                day_limit=200,
            )
        except ValueError as exc:
            return [Flag(UNMAPPED, f"the deal has no werewolf rules game: {exc}")]
        self.engine = WerewolfState(config, 0)
        self.seat = {name: i for i, name in enumerate(names)}
        return []

    def _rules_role(self, card_role: str) -> str:
        spec = self.skeleton.role(card_role)
        return canonical_role(spec.rules_role or card_role)

    def _role(self, player: str) -> str:
        assert self.engine is not None
        return self.engine.role_of[self.seat[player]]

    def _phase(self, index: int) -> list[Flag]:
        phase = self.skeleton.phases[index]
        self.phase_index, self.last_words = index, set()
        night = phase.private and any(self._rules_role(a) in NIGHT_ROLES for a in phase.actors)
        if night == self.night:
            return []
        # nightfall or dawn: the news of the half that ended comes first (and is fed to the
        # engine at the first turn of this half, or by the exile it announces)
        flags = self._settle()
        self.night, self.opening = night, True
        if night:
            self.tonight = Night()
            self.unsettled = None if self.day_fed else "day"
        else:
            self.unsettled, self.day_fed, self.exiles = "night", False, 0
        return flags

    def _turn(self, player: str, private: bool) -> list[Flag]:
        flags = self._settle()
        self.opening = False
        engine = self.engine
        assert engine is not None
        seat = self.seat[player]
        if engine.decision_of(seat) == P.LAST_WORDS:
            engine.apply(seat, {"type": P.LAST_WORDS, "says": SAID})
        elif (not engine.is_alive[seat] or player in self.out) and player not in self.last_words:
            flags.append(Flag("dead_player_acts", f"{player} is out but was given a turn"))
        self.last_words.discard(player)
        if self.night and private and self._role(player) not in NIGHT_ROLES:
            flags.append(
                Flag("wrong_night_actor", f"{player} is a {self._role(player)}, who has no night")
            )
        return flags

    def _out(self, player: str) -> list[Flag]:
        if player in self.out:
            return [Flag("dead_player_acts", f"{player} was announced out twice")]
        self.out.add(player)
        if self.phase_index >= 0 and self.skeleton.phases[self.phase_index].last_words:
            self.last_words.add(player)
        if not self.night and self.opening:  # announced at dawn: the night's deaths
            self.tonight.deaths.append(player)
            return []
        self.exiles += 1  # announced at nightfall or by day: the day's exile
        if self.exiles > 1:
            return [Flag("second_exile", f"{self.exiles} players exiled in one day")]
        if self.unsettled == "day":
            self.unsettled = None  # this exile ends that day
        flags = self._settle()
        self.day_fed = True
        return flags + self._settle_day(player)

    def _settle(self) -> list[Flag]:
        """Feed the engine the half that ended, if it is still waiting."""
        half, self.unsettled = self.unsettled, None
        if half == "night":
            return self._settle_night()
        if half == "day":
            self.day_fed = True
            return self._settle_day(None)
        return []

    # -- driving the shadow game ---------------------------------------------------------

    def _drive(self, until: Iterable[str], answers: Mapping[str, Answer]) -> list[Flag]:
        """Answer the engine's decisions (``answers`` by kind, else a neutral filler) until
        one of kind ``until`` is asked or the game has ended; a refused answer is a flag."""
        engine = self.engine
        assert engine is not None
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
                flags.append(self._refused(decision.kind, decision.seat, str(exc)))
                engine.apply(decision.seat, _filler(engine)(decision.seat))
        return flags

    def _refused(self, kind: str, seat: int, why: str) -> Flag:
        engine = self.engine
        assert engine is not None
        if kind == P.WITCH:
            return Flag("illegal_witch_action", f"the rules refuse the witch's potion: {why}")
        if kind == P.VOTE:  # everyone voted for the player the GM exiled
            return Flag("dead_player_acts", f"the GM exiled a player who is out ({why})")
        return Flag("dead_player_acts", f"the GM put out a player who is out ({why})")

    def _settle_day(self, exiled: str | None) -> list[Flag]:
        """The day's speeches and the vote that exiles ``exiled`` (None: nobody)."""
        target = None if exiled is None else self.seat[exiled]
        votes: dict[str, Answer] = {
            P.VOTE: lambda seat: {"type": P.VOTE, "target": None if seat == target else target}
        }
        return self._drive((P.WOLF_CHAT, P.WOLF_KILL, P.WITCH, P.SEER, P.GUARD), votes)

    def _settle_night(self) -> list[Flag]:
        """At dawn: the wolves' kill and the witch's potion that explain the deaths the GM
        announced; then what the rules say died, against what the GM said."""
        engine = self.engine
        assert engine is not None
        flags = self._drive((P.WOLF_KILL,), {})
        if engine.outcome() is not None:
            return flags
        deaths = self.tonight.deaths
        witch, flags_witch = self._witch_plan(deaths)
        flags += flags_witch
        poisoned = witch.get("target") if witch.get("potion") == "POISON" else None
        attacked, saved = self._wolves_target(deaths, poisoned, witch.get("potion") == "ANTIDOTE")
        if saved is not None:
            flags.append(saved)
            witch = {"potion": "PASS"}
        dead_before = {s for s in range(engine.num_seats) if not engine.is_alive[s]}
        answers: dict[str, Answer] = {
            P.WOLF_KILL: lambda seat: {"type": P.WOLF_KILL, "target": attacked},
            P.WITCH: lambda seat: {"type": P.WITCH, "target": None, **witch},
            P.SEER: lambda seat: self._seer_check(seat),
        }
        flags += self._drive((P.SPEECH, P.LAST_WORDS, P.VOTE), answers)
        died = {s for s in range(engine.num_seats) if not engine.is_alive[s]} - dead_before
        return flags + self._compare_deaths({self.seat[n] for n in deaths}, died)

    def _witch_plan(self, deaths: list[str]) -> tuple[dict[str, Any], list[Flag]]:
        """The witch's potion tonight, from her private reply (wire form of the engine)."""
        engine = self.engine
        assert engine is not None
        name = next((n for n, s in self.seat.items() if engine.role_of[s] == WITCH), None)
        said = " ".join(self.tonight.replies.get(name, [])) if name else ""
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
        self, deaths: list[str], poisoned: int | None, saved: bool
    ) -> tuple[int | None, Flag | None]:
        """The wolves' target: a death the poison does not explain; or, when the witch saved,
        the player the wolves named (None and a note if they named nobody)."""
        killed = [self.seat[n] for n in deaths if self.seat[n] != poisoned]
        if killed:
            return killed[0], None
        if not saved:
            return None, None
        engine = self.engine
        assert engine is not None
        wolves = {n for n, s in self.seat.items() if engine.role_of[s] == WEREWOLF}
        said = " ".join(t for n in wolves for t in self.tonight.replies.get(n, []))
        named = [n for n in _named(said, self.seat) if n not in wolves]
        if not named:
            return None, Flag(UNMAPPED, "the witch saved, but the wolves' target is not known")
        return self.seat[named[0]], None

    def _seer_check(self, seat: int) -> dict[str, Any]:
        engine = self.engine
        assert engine is not None
        player = next(n for n, s in self.seat.items() if s == seat)
        said = " ".join(self.tonight.replies.get(player, []))
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

    def _winner_ignored(self) -> list[Flag]:
        """The engine's winner, or where the GM put out players the rules could not, the
        sides left among the players it left in."""
        engine = self.engine
        assert engine is not None
        if self.won_flagged:
            return []
        outcome = engine.outcome()
        side = outcome.winner if outcome is not None else None
        if side is None:
            alive = [engine.role_of[s] for n, s in self.seat.items() if n not in self.out]
            wolves = sum(r == WEREWOLF for r in alive)
            if wolves == 0 or wolves >= len(alive) - wolves:
                side = "village" if wolves == 0 else "werewolves"
        if side is None:
            return []
        self.won_flagged = True
        return [Flag("no_game_over", f"the {side} won by the rules but the game went on")]


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


def audit_for(skeleton: Skeleton | None) -> WerewolfAudit | None:
    """The audit a card's skeleton asks for, if any."""
    if skeleton is None or skeleton.audit != "werewolf":
        return None
    return WerewolfAudit(skeleton)
