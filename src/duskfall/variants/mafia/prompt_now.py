"""A mafia seat's standing now and the decision it is asked, for its prompt.

``situation`` labels every player relative to the seat and states what it privately knows;
``decision`` asks the question, labels every legal option, says what each action field means
and gives an example with placeholders. ``coaching`` adds the engine's priority lists (seed
000's scored advice); without it the prompt holds facts and legal choices only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.prompting import DecisionPrompt
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.phases import (
    DAY_DISCUSSION,
    DAY_VOTE,
    DOCTOR_ACTION,
    DOCTOR_COORDINATION,
    DOCTOR_PROTECTION_VOTE,
    MAFIA_CHAT,
    MAFIA_VOTE,
    SHERIFF_ACTION,
    SHERIFF_COORDINATION,
    SHERIFF_INVESTIGATION_ASSIGNMENT,
    VIGILANTE_ACTION,
    VIGILANTE_COORDINATION,
)
from duskfall.variants.mafia.prompt_labels import (
    DAY,
    NIGHT,
    Obs,
    labelled,
    protections,
    roles_text,
    seats_text,
    who,
)
from duskfall.variants.mafia.roles import VIGILANTE

PRIORITY_LIMIT = 5
PLAYER = "<player>"
MESSAGE = "<your message>"
ABOUT = "<player it is about, or null>"
CLAIM = "<role you claim, or null>"
PASS_PLACEHOLDER = {"PASS": "<player, or null to pass>", "ABSTAIN": "<player, or null to abstain>"}

# ---------------------------------------------------------------- situation


def _when(obs: Obs) -> str:
    if obs["phase"] == NIGHT:
        return f"Night {obs['day']}."
    if obs["phase"] == DAY:
        return f"Day {obs['day']}."
    return "The game is over."


def _me(obs: Obs) -> str:
    alive = sum(p["alive"] for p in obs["players"])
    state = "alive" if obs["alive"] else "dead"
    return (
        f"You are {who(obs, obs['seat'])}, {roles_text(obs['roles'])}, {state}. "
        f"{alive} of {len(obs['players'])} players are alive."
    )


def _seen(obs: Obs) -> list[Mapping[str, Any]]:
    """Every entry this seat holds in its channels and private notes."""
    return [e for log in obs["channel_logs"].values() for e in log] + list(obs["private_log"])


def _shots(obs: Obs) -> list[str]:
    """The shot of this seat and of its living fellow vigilantes: used (when, at whom) or not."""
    if VIGILANTE not in obs["roles"]:
        return []
    used = {e["seat"]: e for e in _seen(obs) if e["kind"] == "vigilante_shot"}
    team = obs["allies"].get("vigilantes") or [obs["seat"]]
    out = []
    for seat in team:
        if seat != obs["seat"] and not obs["players"][seat]["alive"]:
            continue
        shooter = "Your shot" if seat == obs["seat"] else f"{who(obs, seat)}'s shot"
        shot = used.get(seat)
        if shot is None:
            out.append(f"{shooter}: not used yet.")
        else:
            out.append(f"{shooter}: used on night {shot['day']} at {who(obs, shot['target'])}.")
    return out


def _knowledge(obs: Obs) -> list[str]:
    """What the seat knows that the public does not: checks, protections, shots, the kill."""
    lines = [
        f"Night {i['night']}: {who(obs, i['sheriff'])} investigated {who(obs, i['target'])}: "
        f"{roles_text(i['roles'])}."
        for i in obs["investigations"]
    ]
    done = protections(obs)
    if done:
        nights = ", ".join(f"night {n} {who(obs, t)}" for n, t in sorted(done.items()))
        lines.append(f"Your protections: {nights}.")
    lines += _shots(obs)
    if obs["phase"] == NIGHT:
        for entry in obs["channel_logs"].get("mafia", []):
            if entry["kind"] == "mafia_target" and entry["day"] == obs["day"]:
                lines.append(f"Tonight the mafia kill {who(obs, entry['target'])}.")
    return lines


def _reasons(obs: Obs, item: Mapping[str, Any]) -> str:
    """The priority's reasons; ``fellow ...`` about the seat itself reads ``yourself``."""
    mine = item["seat"] == obs["seat"]
    reasons = [
        "yourself" if mine and r.startswith("fellow ") else r for r in item.get("reasons", [])
    ]
    return ", ".join(reasons)


def _priorities(obs: Obs, key: str, title: str) -> list[str]:
    ranked = obs.get("context", {}).get(key) or []
    if not ranked:
        return []
    return [
        f"{title} (engine advice from public information; higher scores first):",
        *(
            f"{rank}. {who(obs, p['seat'])} - score {p['score']}: {_reasons(obs, p)}"
            for rank, p in enumerate(ranked[:PRIORITY_LIMIT], 1)
        ),
    ]


def _advice(obs: Obs) -> list[str]:
    return [
        *_priorities(obs, "protection_priorities", "Protection priorities"),
        *_priorities(obs, "investigation_priorities", "Investigation priorities"),
    ]


def situation(obs: Obs, *, coaching: bool) -> str:
    """Phase and day, every player labelled, the seat's private knowledge (and, coaching,
    the engine's priorities)."""
    lines = [_when(obs), _me(obs), "Players:"]
    lines += [f"- {labelled(obs, p['seat'])}" for p in obs["players"]]
    known = _knowledge(obs)
    if known:
        lines += ["What you know privately:", *(f"- {k}" for k in known)]
    if coaching:
        lines += _advice(obs)
    return "\n".join(lines)


# ----------------------------------------------------------------- decision


def _votes_so_far(obs: Obs) -> str:
    votes = obs.get("context", {}).get("current_votes") or {}
    ballots = "; ".join(f"{who(obs, int(v))} -> {who(obs, t)}" for v, t in votes.items())
    return f"Votes so far tonight: {ballots or 'none'}."


def _not_allowed(obs: Obs) -> str:
    banned = obs.get("context", {}).get("cannot_protect") or []
    if not banned:
        return "Anyone alive may be protected tonight, yourself included."
    return f"Not allowed tonight (protected last night): {seats_text(obs, banned)}."


def _assigned(obs: Obs) -> str:
    assigned = obs.get("context", {}).get("assigned_tonight") or []
    return f"Already assigned tonight: {seats_text(obs, assigned)}."


def _messages_left(obs: Obs) -> str:
    context = obs.get("context", {})
    return (
        f"Messages left today: {context.get('messages_left', 0)} "
        f"(yours, this one included: {context.get('my_messages_left', 0)})."
    )


def _team_chat(team: str, topic: str) -> Callable[[Obs], list[str]]:
    def ask(obs: Obs) -> list[str]:
        return [
            f"{team.capitalize()}' private chat, night {obs['day']}: write your next message "
            f"to your fellow {team} (only they read it), {topic}."
        ]

    return ask


def _mafia_chat(obs: Obs) -> list[str]:
    return [
        f"Mafia chat, night {obs['day']}: write your next message to your fellow mafia "
        "(only they read it), to agree on tonight's kill."
    ]


def _mafia_vote(obs: Obs) -> list[str]:
    return [
        f"Mafia kill vote, night {obs['day']}: vote for the player the mafia kill tonight. "
        "Most votes wins; a tie is drawn at random.",
        _votes_so_far(obs),
    ]


def _doctor_vote(obs: Obs) -> list[str]:
    return [
        f"Doctors' protection vote, night {obs['day']}: vote for the player to protect "
        "tonight. Every doctor protects the player with the most votes; a tie is drawn at "
        "random.",
        _votes_so_far(obs),
        _not_allowed(obs),
    ]


def _doctor_action(obs: Obs) -> list[str]:
    return [
        f"Protection, night {obs['day']}: choose one player to protect from the mafia's kill "
        "tonight.",
        _not_allowed(obs),
    ]


def _sheriff_assignment(obs: Obs) -> list[str]:
    return [
        f"Investigation, night {obs['day']}: choose the player you investigate tonight; you "
        "learn their exact roles, and so do your fellow sheriffs.",
        _assigned(obs),
    ]


def _sheriff_action(obs: Obs) -> list[str]:
    return [
        f"Investigation, night {obs['day']}: choose one player to investigate; you learn "
        "their exact roles."
    ]


def _vigilante_action(obs: Obs) -> list[str]:
    return [
        f"Shot, night {obs['day']}: shoot one player, or pass. You have one shot for the "
        "whole game; a doctor cannot stop it; at most one vigilante shoots per night."
    ]


def _discussion(obs: Obs) -> list[str]:
    return [
        f"Day {obs['day']} discussion: your turn to speak to everyone.",
        _messages_left(obs),
    ]


def _day_vote(obs: Obs) -> list[str]:
    return [
        f"Day {obs['day']} vote: vote to eliminate a player, or abstain. A player is "
        "eliminated only if they alone have the most votes and more than one vote."
    ]


QUESTIONS: dict[str, Callable[[Obs], list[str]]] = {
    MAFIA_CHAT: _mafia_chat,
    MAFIA_VOTE: _mafia_vote,
    DOCTOR_COORDINATION: _team_chat("doctors", "about whom to protect tonight"),
    DOCTOR_PROTECTION_VOTE: _doctor_vote,
    DOCTOR_ACTION: _doctor_action,
    SHERIFF_COORDINATION: _team_chat("sheriffs", "about whom each of you investigates tonight"),
    SHERIFF_INVESTIGATION_ASSIGNMENT: _sheriff_assignment,
    SHERIFF_ACTION: _sheriff_action,
    VIGILANTE_COORDINATION: _team_chat("vigilantes", "about whether and whom to shoot tonight"),
    VIGILANTE_ACTION: _vigilante_action,
    DAY_DISCUSSION: _discussion,
    DAY_VOTE: _day_vote,
}


def _options(obs: Obs, seats: Sequence[int]) -> list[str]:
    return [f"- {labelled(obs, s)}" for s in seats]


def _choose(obs: Obs, legal: TargetChoice) -> DecisionPrompt:
    lines = [f"Options ({legal.action_type}):", *_options(obs, legal.targets)]
    target = 'Field "target": the chosen player, by name or seat number'
    if legal.pass_type is None:
        example = PLAYER
        fields = [f"{target}."]
    else:
        example = PASS_PLACEHOLDER.get(legal.pass_type, f"<player, or null to {legal.pass_type}>")
        fields = [f"- null: {legal.pass_type}", f"{target}, or null to {legal.pass_type.lower()}."]
    return DecisionPrompt("\n".join(lines), {"target": example}, "\n".join(fields))


def _say(obs: Obs, legal: SayChoice) -> DecisionPrompt:
    """Every line is about a field: the question is the whole text a person is shown."""
    lines = [
        f'Field "says": your message, up to {legal.max_chars} characters.',
        'Field "target": the living player your message is about (by name or seat number), '
        "or null:",
        *_options(obs, legal.mentionable),
    ]
    example: dict[str, Any] = {"says": MESSAGE, "target": ABOUT}
    if legal.kind == DAY_DISCUSSION:
        roles = ", ".join(legal.schema()["properties"]["claim"]["anyOf"][0]["enum"])
        lines.append(f'Field "claim": a role you claim in public, true or not ({roles}), or null.')
        example["claim"] = CLAIM
    return DecisionPrompt("", example, "\n".join(lines))


def decision(obs: Obs, legal: Any, *, coaching: bool) -> DecisionPrompt:
    """The question and the labelled options, the fields, and a placeholder example."""
    kind = obs.get("decision") or legal.kind
    question = QUESTIONS.get(kind, lambda _: [f"Decision: {kind}."])(obs)
    if isinstance(legal, SayChoice):
        asked = _say(obs, legal)
    elif isinstance(legal, TargetChoice):
        asked = _choose(obs, legal)
    else:
        raise TypeError(f"not a mafia decision: {type(legal).__name__}")
    text = "\n".join([*question, asked.text] if asked.text else question)
    return DecisionPrompt(text, asked.example, asked.fields)
