"""Roles of seed 004's Werewolf as units: Werewolf, Villager, Witch, Hunter (the others have a
module each, ``guard.py``...)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.events import Event
from duskfall.core.spectator import mark, night_of
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.role_unit import (
    WOLF_TEAM,
    Namer,
    Obs,
    RoleUnit,
    in_play,
    said,
)

WEREWOLF, VILLAGER, WITCH, HUNTER = "Werewolf", "Villager", "Witch", "Hunter"


def hunter_shoots(obs: Obs) -> bool:
    return in_play(obs, HUNTER) and bool(obs["rules"]["hunter_shot"])


# -- the Witch -------------------------------------------------------------------------------


def _potions(state: Any, seat: int) -> dict[str, Any]:
    return {
        "antidote": state.antidote,
        "poison": state.poison,
        "attacked_tonight": state.told_to_witch if state.phase == P.NIGHT else None,
    }


def _witch_line(p: Mapping[str, Any], name: Namer) -> str:
    action = p["action"]
    if action == "ANTIDOTE":
        return f"[witch] {name(p['seat'])} uses the antidote on {name(p['target'])}"
    if action == "POISON":
        return f"[witch] {name(p['seat'])} poisons {name(p['target'])}"
    return f"[witch] {name(p['seat'])} uses no potion"


def _witch_mark(event: Event) -> list[dict[str, Any]]:
    action = event.payload.get("action")
    if action == "ANTIDOTE":
        return mark(event.payload.get("target"), "saved", f"saved (antidote), {night_of(event)}")
    if action == "POISON":
        return mark(event.payload.get("target"), "poisoned", f"poisoned, {night_of(event)}")
    return []


WITCH_UNIT = RoleUnit(
    WITCH,
    god=True,
    night=20,
    power=said(
        "Each night you are told whom the werewolves attacked. You have one antidote (it "
        "saves the attacked player, but not yourself) and one poison (it kills any other "
        "living player), each once per game, at most one potion a night."
    ),
    strategy="Saving the first night's victim is usually right; keep the poison for a player "
    "you are confident is a werewolf, such as one a credible {checker} named.",
    night_rules=lambda obs: [
        "- The Witch is then told whom the werewolves attacked, if anyone. She has one "
        "antidote, which saves the attacked player (not herself), and one poison, which "
        "kills any other living player; each works once per game, and she uses at most one "
        "potion a night. She is asked only while she has a potion left."
    ],
    view=_potions,
    lines={
        "witch_told": lambda p, n: (
            f"[witch] the werewolves attacked {n(p['target'])} tonight"
            if p["target"] is not None
            else "[witch] nobody was attacked tonight"
        ),
        "witch_action": _witch_line,
    },
    marks={"witch_action": _witch_mark},
    bot_words="I am a good player.",
)

# -- the Hunter ------------------------------------------------------------------------------


def _hunter_power(obs: Obs) -> str:
    if not hunter_shoots(obs):
        return "At this table the Hunter has no power: you speak and vote by day."
    return (
        "When the werewolves kill you or the village exiles you, you may shoot one living "
        "player, who dies with you (not if you were poisoned)."
    )


def _hunter_rules(obs: Obs) -> list[str]:
    if hunter_shoots(obs):
        return [
            "- When the Hunter is killed by the werewolves or exiled, it reveals itself and may "
            "shoot one living player, who dies at once without last words; a poisoned Hunter "
            "cannot shoot."
        ]
    if in_play(obs, HUNTER):
        return ["- At this table the Hunter does not shoot: it has no power."]
    return []


HUNTER_UNIT = RoleUnit(
    HUNTER,
    god=True,
    power=_hunter_power,
    strategy="Keep your role hidden so the werewolves do not avoid you; if you are killed or "
    "exiled, shoot the player you suspect most.",
    day_rules=_hunter_rules,
    lines={
        "hunter_shot": lambda p, n: (
            f"{n(p['seat'])} is the Hunter and shoots {n(p['target'])}!"
            if p["target"] is not None
            else f"{n(p['seat'])} is the Hunter and holds fire."
        ),
    },
    marks={
        "hunter_shot": lambda e: mark(
            e.payload.get("target"), "dead", f"shot by the hunter, day {e.day}"
        )
    },
    bot_words="I am a good player.",
)

# -- the wolves and the villagers ------------------------------------------------------------

WEREWOLF_UNIT = RoleUnit(
    WEREWOLF,
    team=WOLF_TEAM,
    plural="Werewolves",
    night=10,
    power=said(
        "Each night you and your fellow werewolves choose a player to attack. By day you "
        "speak and vote like everyone else; only the werewolves know who the werewolves are."
    ),
    strategy="Pass for a villager by day, defend your partners without seeming to, and steer "
    "the votes onto good players; the {checker} and the Witch are the most dangerous to you, and a "
    "false role claim can confuse the village.",
    view=lambda state, seat: {"wolves": [s for s in range(state.num_seats) if state.is_wolf[s]]},
)

VILLAGER_UNIT = RoleUnit(
    VILLAGER,
    power=said("You have no power at night; by day you speak and vote."),
    strategy="Listen for contradictions, watch who defends whom and how everyone votes, back a "
    "credible {checker}, and do not split the village's votes.",
)
