"""Roles of seed 004's Werewolf as units: Werewolf, Villager, Hunter (the others have a
module each, ``guard.py``...)."""

from __future__ import annotations

from duskfall.core.spectator import mark
from duskfall.variants.werewolf.role_unit import (
    WOLF_TEAM,
    Obs,
    RoleUnit,
    in_play,
    said,
)

WEREWOLF, VILLAGER, HUNTER = "Werewolf", "Villager", "Hunter"


def hunter_shoots(obs: Obs) -> bool:
    return in_play(obs, HUNTER) and bool(obs["rules"]["hunter_shot"])


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
    "the votes onto good players; the {checker} and the {saver} are the most dangerous to you, "
    "and a false role claim can confuse the village.",
    view=lambda state, seat: {"wolves": [s for s in range(state.num_seats) if state.is_wolf[s]]},
)

VILLAGER_UNIT = RoleUnit(
    VILLAGER,
    power=said("You have no power at night; by day you speak and vote."),
    strategy="Listen for contradictions, watch who defends whom and how everyone votes, back a "
    "credible {checker}, and do not split the village's votes.",
)
