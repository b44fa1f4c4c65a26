"""Audit a game master against the werewolf rules: flag each step where it broke them.

A card whose skeleton says ``audit = "werewolf"`` (and maps each of its roles to a role of
the werewolf rules engine with ``rules_role``) gets a shadow state that follows what the GM
announced: the deal, the phases, who was given a turn, who it announced out, and what the
witch answered in private. Each rule break becomes an admin ``gm_audit`` event (step, rule,
detail), shown in the web god view and counted in the game's summary:

* ``dead_player_acts``: a player already out is given a turn (other than for last words in
  the phase that announced it out, where the card gives them);
* ``wrong_night_actor``: a night phase's private turn goes to a role that does not act then;
* ``second_night_kill``: a night ends with more deaths than the wolves' kill plus the witch's
  poison that night;
* ``second_exile``: more than one player exiled in one day;
* ``witch_potion_twice``: the witch is let use her antidote (or her poison) a second time,
  or both potions in one night;
* ``no_game_over``: a side has won by the rules but the game goes on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from duskfall.core.events import Event
from duskfall.gm import event_kinds as kinds
from duskfall.gm.skeleton import Skeleton
from duskfall.variants.werewolf.roles import SEER, VILLAGER, WEREWOLF, WITCH, canonical_role

ANTIDOTE_WORDS = re.compile(r"antidote|\bsave|解药|救", re.IGNORECASE)
POISON_WORDS = re.compile(r"poison|毒", re.IGNORECASE)
NIGHT_ROLES = {WEREWOLF, SEER, WITCH}


@dataclass(frozen=True, slots=True)
class Flag:
    """One rule the GM broke."""

    rule: str
    detail: str


@dataclass
class WerewolfAudit:
    """The shadow state; :meth:`see` takes each event and returns the flags it raises."""

    skeleton: Skeleton
    roles: dict[str, str] = field(default_factory=dict)  # player -> werewolf rules role
    out: set[str] = field(default_factory=set)
    night: bool = False
    night_deaths: int = 0
    day_exiles: int = 0
    potions_tonight: set[str] = field(default_factory=set)
    potions_used: set[str] = field(default_factory=set)
    won_flagged: bool = False
    opening: bool = False  # a phase of the other half of the round opened; nobody acted yet
    last_words: set[str] = field(default_factory=set)  # out now, with last words to say
    phase_index: int = -1

    def see(self, event: Event) -> list[Flag]:
        payload = event.payload
        kind = event.kind
        if kind == kinds.DEAL:
            self.roles = {
                name: self._rules_role(role) for name, role in dict(payload["roles"]).items()
            }
            return []
        if not self.roles:
            return []
        if kind == kinds.PHASE:
            return self._phase(int(payload["phase"]))
        if kind == kinds.TURN:
            return self._turn(str(payload["player"]), bool(payload["private"]))
        if kind == kinds.OUT:
            return self._out(str(payload["player"]))
        if kind == kinds.PRIVATE_REPLY and self.roles.get(payload["player"]) == WITCH:
            return self._witch(str(payload["text"]))
        if kind == kinds.GM_INSTRUCTION and not payload.get("game_over"):
            return self._winner_ignored()
        return []

    def _rules_role(self, card_role: str) -> str:
        spec = self.skeleton.role(card_role)
        return canonical_role(spec.rules_role or card_role)

    def _phase(self, index: int) -> list[Flag]:
        phase = self.skeleton.phases[index]
        self.phase_index, self.last_words = index, set()
        night = phase.private and any(self._rules_role(a) in NIGHT_ROLES for a in phase.actors)
        if night != self.night:  # nightfall or dawn: the news of the other half comes first
            self.night, self.opening = night, True
            if night:
                self.night_deaths, self.potions_tonight = 0, set()
            else:
                self.day_exiles = 0
        return []

    def _turn(self, player: str, private: bool) -> list[Flag]:
        self.opening = False
        flags = []
        if player in self.out and player not in self.last_words:
            flags.append(Flag("dead_player_acts", f"{player} is out but was given a turn"))
        self.last_words.discard(player)
        if self.night and private and self.roles.get(player) == VILLAGER:
            flags.append(Flag("wrong_night_actor", f"{player} is a villager, who has no night"))
        return flags

    def _out(self, player: str) -> list[Flag]:
        flags = []
        if player in self.out:
            flags.append(Flag("dead_player_acts", f"{player} was announced out twice"))
        self.out.add(player)
        if self.phase_index >= 0 and self.skeleton.phases[self.phase_index].last_words:
            self.last_words.add(player)
        # Announced at nightfall: the day's exile; at dawn: the night's deaths.
        if self.night != self.opening:
            self.night_deaths += 1
            allowed = 1 + ("poison" in self.potions_tonight)
            if self.night_deaths > allowed:
                flags.append(Flag("second_night_kill", f"{self.night_deaths} deaths in one night"))
        else:
            self.day_exiles += 1
            if self.day_exiles > 1:
                flags.append(Flag("second_exile", f"{self.day_exiles} players exiled in one day"))
        return flags

    def _witch(self, text: str) -> list[Flag]:
        flags = []
        used = set()
        if ANTIDOTE_WORDS.search(text):
            used.add("antidote")
        if POISON_WORDS.search(text):
            used.add("poison")
        for potion in sorted(used):
            if potion in self.potions_used:
                flags.append(Flag("witch_potion_twice", f"the witch used her {potion} again"))
        if len(used | self.potions_tonight) > 1:
            flags.append(Flag("witch_potion_twice", "the witch used both potions in one night"))
        self.potions_used |= used
        self.potions_tonight |= used
        return flags

    def _winner_ignored(self) -> list[Flag]:
        if self.won_flagged:
            return []
        alive = [r for p, r in self.roles.items() if p not in self.out]
        wolves = sum(r == WEREWOLF for r in alive)
        if wolves == 0 or wolves >= len(alive) - wolves:
            self.won_flagged = True
            side = "the village" if wolves == 0 else "the werewolves"
            return [Flag("no_game_over", f"{side} won by the rules but the game went on")]
        return []


def audit_for(skeleton: Skeleton | None) -> WerewolfAudit | None:
    """The audit a card's skeleton asks for, if any."""
    if skeleton is None or skeleton.audit != "werewolf":
        return None
    return WerewolfAudit(skeleton)
