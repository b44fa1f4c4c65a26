"""Audit a game master against the werewolf rules engine: flag each step where it broke them.

A card whose skeleton says ``audit = "werewolf"`` (and maps each of its roles to a role of
the werewolf rules engine with ``rules_role``) gets a shadow game of the real rules engine
(the ``werewolf`` variant, played by :mod:`duskfall.gm.shadow`), dealt as the GM's
game was dealt, that follows what the GM announced. The shadow's decisions are answered from
the GM's game: at dawn, the wolves' kill and the witch's potion that explain the deaths the
GM announced (the witch's potion and its target, and the wolves' target when nobody died, are
read from their private replies); at the exile, every living player's vote for the player the
GM put out. The engine then says
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

from collections.abc import Mapping

from duskfall.core.events import Event
from duskfall.gm import event_kinds as kinds
from duskfall.gm.event_kinds import UNMAPPED
from duskfall.gm.shadow import NIGHT_ROLES, WEREWOLF, Flag, Night, ShadowGame, rules_role
from duskfall.gm.skeleton import Skeleton

__all__ = ["Flag", "WerewolfAudit", "audit_for"]


class WerewolfAudit:
    """The shadow game; :meth:`see` takes each event of the GM's game and returns the flags
    it raises (see the module docstring)."""

    def __init__(self, skeleton: Skeleton) -> None:
        self.skeleton = skeleton
        self.shadow: ShadowGame | None = None
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
            if self.shadow is None:
                raise
            self.shadow = None
            return [Flag(UNMAPPED, f"the audit stopped: {type(exc).__name__}: {exc}")]

    def _see(self, event: Event) -> list[Flag]:
        payload = event.payload
        kind = event.kind
        if kind == kinds.DEAL:
            return self._deal(dict(payload["roles"]))
        if self.shadow is None:
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
        try:
            rules_roles = [self._rules_role(role) for role in roles.values()]
            self.shadow = ShadowGame(list(roles), rules_roles)
        except ValueError as exc:
            return [Flag(UNMAPPED, f"the deal has no werewolf rules game: {exc}")]
        return []

    def _rules_role(self, card_role: str) -> str:
        spec = self.skeleton.role(card_role)
        return rules_role(spec.rules_role or card_role)

    @property
    def _game(self) -> ShadowGame:
        assert self.shadow is not None
        return self.shadow

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
        shadow = self._game
        out = shadow.is_out(player) or player in self.out
        last_words = shadow.take_last_words(player) or player in self.last_words
        if out and not last_words:
            flags.append(Flag("dead_player_acts", f"{player} is out but was given a turn"))
        self.last_words.discard(player)
        role = shadow.role(player)
        if self.night and private and role not in NIGHT_ROLES:
            flags.append(Flag("wrong_night_actor", f"{player} is a {role}, who has no night"))
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
        return flags + self._game.settle_day(player)

    def _settle(self) -> list[Flag]:
        """Feed the engine the half that ended, if it is still waiting."""
        half, self.unsettled = self.unsettled, None
        if half == "night":
            return self._game.settle_night(self.tonight)
        if half == "day":
            self.day_fed = True
            return self._game.settle_day(None)
        return []

    def _winner_ignored(self) -> list[Flag]:
        """The engine's winner, or where the GM put out players the rules could not, the
        sides left among the players it left in."""
        if self.won_flagged:
            return []
        shadow = self._game
        side = shadow.winner
        if side is None:
            alive = [shadow.role(name) for name in shadow.seat if name not in self.out]
            wolves = sum(r == WEREWOLF for r in alive)
            if wolves == 0 or wolves >= len(alive) - wolves:
                side = "village" if wolves == 0 else "werewolves"
        if side is None:
            return []
        self.won_flagged = True
        return [Flag("no_game_over", f"the {side} won by the rules but the game went on")]


def audit_for(skeleton: Skeleton | None) -> WerewolfAudit | None:
    """The audit a card's skeleton asks for, if any."""
    if skeleton is None or skeleton.audit != "werewolf":
        return None
    return WerewolfAudit(skeleton)
