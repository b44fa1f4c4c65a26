"""The Werewolf prompt kit (:class:`~duskfall.core.prompting.PromptKit`): what an LLM seat is told.

* system: the rules of the roles in play and who the seat is (:mod:`.prompt_system`);
* periods: ``Setup`` (the deal, day 0), then ``Night 1``, ``Day 1``, ``Night 2``...: night N
  comes before day N, and every event belongs to the period it happened in;
* lines: one per visible event (:mod:`.prompt_lines`); ``night_start`` and ``day_start`` are
  only the headers of their periods;
* situation: phase and day, every player labelled, and the seat's private knowledge now;
* decision: the question, labelled options, an example with placeholders
  (:mod:`.prompt_decisions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.prompting import DecisionPrompt, Entry, Line, Period
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.event_text import namer
from duskfall.variants.werewolf.prompt_decisions import decision_prompt
from duskfall.variants.werewolf.prompt_labels import labelled, labelled_list, player_names
from duskfall.variants.werewolf.prompt_lines import MARKERS, history_line
from duskfall.variants.werewolf.prompt_system import system_text
from duskfall.variants.werewolf.roles import unit_of

SETUP_KINDS = frozenset({"game_start", "roles_dealt", "role_assigned", "wolf_team"})
SETUP = Period(0, 0, "Setup")
YOU, FELLOW, SHERIFF = ("you", "dead"), ("fellow werewolf",), ("sheriff",)
GUARDED = ("guarded last night",)


def period_of(entry: Entry) -> Period:
    """``Setup`` for the deal; else ``Night N`` or ``Day N`` (night N comes first)."""
    if entry["kind"] in SETUP_KINDS:
        return SETUP
    day = int(entry["day"])
    if entry["phase"] == P.NIGHT:
        return Period(2 * day - 1, day, f"Night {day}")
    return Period(2 * day, day, f"Day {day}")


def _now(obs: Mapping[str, Any]) -> str:
    return f"{'Night' if obs['phase'] == P.NIGHT else 'Day'} {obs['day']}"


def _team(obs: Mapping[str, Any]) -> list[str]:
    mates = [w for w in obs["wolves"] if w != obs["seat"]]
    if not mates:
        return ["You are the only werewolf."]
    return [f"Your fellow werewolves: {labelled_list(mates, obs, FELLOW)}."]


def _checks(obs: Mapping[str, Any]) -> list[str]:
    name = namer(player_names(obs))
    done = [f"night {c['night']}: {name(c['target'])} is {c['result']}" for c in obs["checks"]]
    return [f"Your checks: {'; '.join(done) if done else 'none yet'}."]


def _protection(obs: Mapping[str, Any]) -> list[str]:
    guarded = obs["last_guarded"]
    if guarded is None:
        return ["No protection last night: tonight you may protect anyone alive."]
    return [
        f"Last night you protected {labelled(guarded, obs, GUARDED)}: "
        "you cannot protect that player two nights running."
    ]


def knowledge(obs: Mapping[str, Any]) -> list[str]:
    """What the seat privately knows now: team-mates, checks, potions, attack, protection."""
    lines = []
    for key, lines_of in (
        ("wolves", _team),
        ("checks", _checks),
        ("last_guarded", _protection),
    ):
        if key in obs:
            lines.extend(lines_of(obs))
    lines.extend(unit_of(obs["role"]).knowledge(obs))  # a unit's own (potions...)
    return lines


def situation_text(obs: Mapping[str, Any]) -> str:
    """Phase and day, every player labelled, the sheriff, and the seat's private knowledge."""
    alive = sum(1 for p in obs["players"] if p["alive"])
    lines = [
        f"{_now(obs)}. You are {labelled(obs['seat'], obs, YOU)}, the {obs['role']}"
        + ("." if obs["alive"] else ", and you are dead."),
        f"Players ({alive} of {len(obs['players'])} alive): "
        + labelled_list([p["seat"] for p in obs["players"]], obs)
        + ".",
    ]
    if obs["rules"].get("badge"):
        sheriff = obs.get("sheriff")
        lines.append(f"Sheriff: {'none' if sheriff is None else labelled(sheriff, obs, SHERIFF)}.")
    lines.extend(knowledge(obs))
    if "outcome" in obs:
        outcome = obs["outcome"]
        lines.append(f"The game is over: {outcome.get('winner') or 'nobody'} wins.")
    return "\n".join(lines)


class WerewolfPromptKit:
    """The pieces of a Werewolf seat's prompts (see the module docstring)."""

    markers: frozenset[str] = MARKERS

    def system(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return system_text(obs, coaching=coaching)

    def period(self, entry: Entry) -> Period:
        return period_of(entry)

    def line(self, entry: Entry, obs: Mapping[str, Any]) -> Line | None:
        return history_line(entry, obs)

    def situation(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return situation_text(obs)

    def decision(self, obs: Mapping[str, Any], legal: Any, *, coaching: bool) -> DecisionPrompt:
        return decision_prompt(obs, legal)

    def entries(self, obs: Mapping[str, Any]) -> Sequence[Entry] | None:
        history: Sequence[Entry] | None = obs.get("history")
        return history


KIT = WerewolfPromptKit()
