"""Roles of seed 004's Werewolf as units: Werewolf, Villager, Seer, Hunter (the others have a
module each, ``guard.py``...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from duskfall.core.events import Event, seats_visibility
from duskfall.core.spectator import mark, night_of
from duskfall.variants.werewolf.role_unit import (
    WOLF_TEAM,
    Mind,
    Night,
    NightChoice,
    Obs,
    RoleUnit,
    in_play,
    said,
)

WEREWOLF, VILLAGER, SEER, HUNTER = "Werewolf", "Villager", "Seer", "Hunter"
GOOD, BAD = "Good", "Werewolf"  # what the Seer learns


def hunter_shoots(obs: Obs) -> bool:
    return in_play(obs, HUNTER) and bool(obs["rules"]["hunter_shot"])


# -- the Seer --------------------------------------------------------------------------------


def _checks(state: Any, seat: int) -> dict[str, Any]:
    return {"checks": [{"night": n, "target": t, "result": r} for n, t, r in state.checks]}


def _check(night: Night, seat: int, target: int | None) -> None:
    assert target is not None  # the Seer must choose
    result = BAD if night.is_wolf[target] else GOOD
    state: Any = night  # the game: its checks are what the Seer's view shows
    state.checks.append((night.day, target, result))
    night.emit(
        "seer_action", seats_visibility([seat]), "SEER", seat=seat, target=target, result=result
    )


def _next_check(obs: Obs, targets: Sequence[int], mind: Mind) -> int | None:
    """The heuristic Seer's next check: a counter-claimant, then who accused it, then anyone
    unknown."""
    checked = {c["target"] for c in obs["checks"]}
    legal = set(targets)
    fresh = legal - checked
    reading = mind.reading
    against = reading.votes_against({mind.seat})
    order = [c for c in reading.claims if c != mind.seat]
    order += sorted(against, key=lambda s: (-against[s], s))
    order += sorted(reading.suspecters_of({mind.seat}))
    for seat in order:
        if seat in fresh:
            return int(seat)
    return int(mind.rng.choice(sorted(fresh or legal)))


def _check_mark(event: Event) -> list[dict[str, Any]]:
    result = event.payload.get("result")
    return mark(event.payload.get("target"), "checked", f"checked: {result}, {night_of(event)}")


SEER_UNIT = RoleUnit(
    SEER,
    god=True,
    night=31,
    power=said(
        "Each night you check one other living player and learn whether they are Good or a "
        "Werewolf; only you learn the result."
    ),
    strategy="Check the players whose side matters most (loud speakers, sheriff candidates) "
    "and reveal your results when they can swing a vote: once you claim, the werewolves hunt "
    "you.",
    night_rules=lambda obs: [
        "- The Seer checks one other living player and learns whether they are Good or a Werewolf."
    ],
    view=_checks,
    lines={
        "seer_action": lambda p, n: f"[seer] {n(p['seat'])} checks {n(p['target'])}: {p['result']}",
    },
    marks={"seer_action": _check_mark},
    choice=NightChoice(
        "SEER",
        "Whose identity do you check tonight?",
        _check,
        bot=_next_check,
        mode="inspect",
        table=("Werewolf", "Werewolf", "Witch", "Villager", "Villager"),
    ),
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
    "the votes onto good players; the Seer and the Witch are the most dangerous to you, and a "
    "false role claim can confuse the village.",
    view=lambda state, seat: {"wolves": [s for s in range(state.num_seats) if state.is_wolf[s]]},
)

VILLAGER_UNIT = RoleUnit(
    VILLAGER,
    power=said("You have no power at night; by day you speak and vote."),
    strategy="Listen for contradictions, watch who defends whom and how everyone votes, back a "
    "credible Seer, and do not split the village's votes.",
)

CLASSIC = (WEREWOLF_UNIT, VILLAGER_UNIT, SEER_UNIT)
"""The first units in the order of the roles (``units.py`` lists the others after them)."""
