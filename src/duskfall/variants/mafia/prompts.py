"""Per-phase prompts (seed 000), built from a seat's observation only, and god-view lines.

Every reply is one JSON object: ``{"think": ..., "says": ...}`` in chats and discussion, and
``{"think": ..., "says": ..., "action": {"target": ..., "reasoning": ...}}`` for actions.
Targets may be given by name or seat number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.events import Event
from duskfall.core.variant import LegalActions
from duskfall.variants.mafia.roles import ROLES

HISTORY_LINES = 60
CHAT_OUTPUT = 'Output: {"think": "your reasoning", "says": "your message to the team"}'
SPEECH_OUTPUT = (
    'Output: {"think": "your reasoning", "says": "your message to everyone", '
    '"target": "the player your message is about, or null", '
    '"claim": "a role you claim in public, or null"}'
)
ACTION_OUTPUT = (
    'Output: {"action": {"target": "Player Name", "reasoning": "your reason"}, '
    '"think": "...", "says": "..."}'
)
OPTIONAL_OUTPUT = (
    'Output: {"action": {"target": "Player Name" or null to %s, "reasoning": "your reason"}, '
    '"think": "...", "says": "..."}'
)

RULES = """You are playing Mafia, a social-deduction game, as {name} (seat {seat}).
Your roles: {roles}. You are on the {team} side.
{role_lines}

Rules: the game alternates nights and days. At night the mafia privately choose one player to
kill; doctors protect one player each (never the same player two nights in a row); sheriffs
investigate one player each and learn their exact roles; a vigilante may shoot once per game.
A shot cannot be stopped; the mafia's victim survives only if protected. At dawn the dead are
announced with their roles. By day everyone discusses, then votes (or abstains): a player is
eliminated only if they alone have the most votes and more than one vote. The town wins when
no mafia remains; the mafia win when they are at least as many as the town.
Players sharing a role coordinate in private chats; never reveal a private chat elsewhere
unless it helps your side.

Answer with exactly one JSON object and nothing else."""


def render_prompts(
    observation: Mapping[str, Any], legal: LegalActions, hint: str | None
) -> tuple[str, str]:
    """The system and user prompt of one decision."""
    names = [p["name"] for p in observation["players"]]
    roles = observation["roles"]
    system = RULES.format(
        name=observation["name"],
        seat=observation["seat"],
        roles=" + ".join(roles),
        team=observation["team"],
        role_lines="\n".join(f"- {r}: {ROLES[r].description}" for r in roles),
    )
    kind = observation.get("decision") or legal.kind
    parts = [
        _situation(observation, names),
        _history(observation, names),
        PHASES.get(kind, _generic)(observation, names),
        "CHOICES: " + legal.describe(),
    ]
    if hint:
        parts.append(f"Your previous answer was refused: {hint}\nPlease answer again.")
    return system, "\n\n".join(p for p in parts if p)


# ------------------------------------------------------------------ situation


def _situation(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    time = "Night" if obs["phase"] == "NIGHT" else "Day"
    lines = [f"{time} {obs['day']}. You are {obs['name']} (seat {obs['seat']})."]
    lines.append("Setup: " + ", ".join(f"{n} {r}" for r, n in obs["setup"].items()))
    lines.append("PLAYERS:")
    for p in obs["players"]:
        status = "alive" if p["alive"] else "dead"
        known = f", {'+'.join(p['roles'])}" if p["roles"] and p["seat"] != obs["seat"] else ""
        lines.append(f"  {p['name']} (seat {p['seat']}) - {status}{known}")
    mafia = obs["allies"].get("mafia")
    if mafia and len(mafia) > 1:
        lines.append("MAFIA TEAM: " + ", ".join(names[s] for s in mafia))
    if obs["investigations"]:
        lines.append("INVESTIGATION HISTORY:")
        lines += [
            f"  {names[i['target']]}: {'+'.join(i['roles'])} (night {i['night']}, "
            f"by {names[i['sheriff']]})"
            for i in obs["investigations"]
        ]
    return "\n".join(lines)


def _history(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    public = [describe_entry(e, names) for e in obs["public_log"]][-HISTORY_LINES:]
    private = [describe_entry(e, names) for e in obs["private_log"]]
    text = "PUBLIC HISTORY:\n" + ("\n".join(f"  {line}" for line in public) or "  (none yet)")
    if private:
        text += "\nYOUR PRIVATE NOTES:\n" + "\n".join(f"  {line}" for line in private)
    return text


def _tonight(obs: Mapping[str, Any], names: Sequence[str], title: str) -> str:
    entries = obs.get("context", {}).get("tonight", [])
    lines = [f"  - {describe_entry(e, names)}" for e in entries]
    return f"{title}:\n" + ("\n".join(lines) or "  (nothing yet)")


def _team(obs: Mapping[str, Any]) -> str:
    return ", ".join(m["name"] for m in obs.get("context", {}).get("team", []))


def _priorities(obs: Mapping[str, Any], key: str, limit: int | None = None) -> str:
    ranked = obs.get("context", {}).get(key, [])[:limit]
    return "\n".join(
        f"{i}. {p['name']} - Score: {p['score']}\n  Reasons: {', '.join(p['reasons'])}"
        for i, p in enumerate(ranked, 1)
    )


def _current_votes(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    votes = obs.get("context", {}).get("current_votes", {})
    counts: dict[int, int] = {}
    for target in votes.values():
        counts[target] = counts.get(target, 0) + 1
    return "CURRENT VOTES: " + (", ".join(f"{names[t]}: {n}" for t, n in counts.items()) or "none")


# --------------------------------------------------------------------- phases


def _mafia_chat(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: MAFIA CHAT",
            "You are in a PRIVATE CHAT with the mafia. Agree on tonight's kill.",
            f"MAFIA TEAM: {_team(obs)}",
            _tonight(obs, names, "Mafia discussion so far"),
            CHAT_OUTPUT,
        ]
    )


def _mafia_vote(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: MAFIA KILL VOTE",
            "Vote for tonight's victim. Most votes wins; a tie is drawn at random.",
            _tonight(obs, names, "Mafia discussion"),
            _current_votes(obs, names),
            ACTION_OUTPUT,
        ]
    )


def _doctor_coordination(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: DOCTOR COORDINATION",
            "You are in a PRIVATE CHAT with other doctors.",
            "",
            "- You are a DOCTOR with the ability to protect players",
            "- Coordinate with your fellow doctors on who to protect tonight",
            "- Discuss strategic priorities (shared below)",
            "- Try to reach consensus on protection targets",
            "- You can each only protect ONE player, so coordinate wisely",
            "",
            f"DOCTOR TEAM: {_team(obs)}",
            "",
            "SHARED PROTECTION PRIORITIES:",
            _priorities(obs, "protection_priorities"),
            "",
            _tonight(obs, names, "Doctor discussion so far"),
            "",
            CHAT_OUTPUT,
        ]
    )


def _doctor_vote(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    ranked = obs.get("context", {}).get("protection_priorities", [])
    return "\n".join(
        [
            "## PHASE: DOCTOR PROTECTION VOTE",
            "Doctor chat complete. Time to agree on protection targets.",
            "",
            "PROTECTION CONSTRAINTS:",
            "- You CANNOT protect the same player two nights in a row (unless night 1)",
            "- Multiple doctors should coordinate (ideally agree on target)",
            "- Every doctor protects the player with the most votes",
            _current_votes(obs, names),
            "",
            "PRIORITIES: " + ", ".join(p["name"] for p in ranked),
            "",
            ACTION_OUTPUT,
        ]
    )


def _doctor_action(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    banned = obs.get("context", {}).get("cannot_protect", [])
    return "\n".join(
        [
            "## PHASE: DOCTOR ACTION",
            "Choose one player to protect tonight (yourself allowed).",
            "You CANNOT protect: " + (", ".join(names[s] for s in banned) or "anyone is allowed"),
            "PROTECTION PRIORITIES:",
            _priorities(obs, "protection_priorities", 5),
            ACTION_OUTPUT,
        ]
    )


def _sheriff_coordination(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: SHERIFF COORDINATION",
            "You are in a PRIVATE CHAT with other sheriffs.",
            "",
            "- Coordinate investigations to avoid duplicates",
            "- Split high-suspicion targets between sheriffs",
            "- Share investigation history (some targets already investigated)",
            "",
            f"SHERIFF TEAM: {_team(obs)}",
            "",
            "INVESTIGATION PRIORITIES:",
            _priorities(obs, "investigation_priorities", 5),
            "",
            _tonight(obs, names, "Sheriff discussion"),
            "",
            CHAT_OUTPUT,
        ]
    )


def _sheriff_assignment(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    context = obs.get("context", {})
    assigned = context.get("assigned_tonight", [])
    ranked = context.get("investigation_priorities", [])
    return "\n".join(
        [
            "## PHASE: SHERIFF INVESTIGATION ASSIGNMENT",
            "Sheriff coordination complete. Choose a target to investigate.",
            "",
            "ALREADY ASSIGNED: " + (", ".join(names[s] for s in assigned) or "None"),
            "",
            f"AVAILABLE TARGETS: {len(ranked)} players",
            "",
            "INVESTIGATION PRIORITIES:",
            _priorities(obs, "investigation_priorities", 3),
            "",
            ACTION_OUTPUT,
        ]
    )


def _sheriff_action(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: SHERIFF ACTION",
            "Choose one player to investigate; you will learn their exact roles.",
            "INVESTIGATION PRIORITIES:",
            _priorities(obs, "investigation_priorities", 3),
            ACTION_OUTPUT,
        ]
    )


def _vigilante_team(obs: Mapping[str, Any]) -> str:
    shots = obs.get("context", {}).get("shots", [])
    return ", ".join(
        f"{v['name']} ({'shot available' if v['shot_available'] else 'shot used'})" for v in shots
    )


def _vigilante_coordination(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: VIGILANTE COORDINATION",
            "You are in a PRIVATE CHAT with other vigilantes.",
            "",
            "- Coordinate shooting decisions to avoid friendly fire",
            "- Discuss targets and evidence",
            "- Only ONE vigilante may shoot tonight (each has one shot per game)",
            "- Agree on who shoots, or all pass",
            "",
            f"VIGILANTE TEAM: {_vigilante_team(obs)}",
            "",
            _tonight(obs, names, "Vigilante discussion"),
            "",
            CHAT_OUTPUT,
        ]
    )


def _vigilante_action(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: VIGILANTE ACTION",
            "You have ONE shot for the whole game. Shoot only when you are confident;",
            "a shot cannot be blocked. At most one vigilante shoots per night.",
            f"VIGILANTE TEAM: {_vigilante_team(obs)}" if len(_vigilante_team(obs)) else "",
            _tonight(obs, names, "Vigilante discussion") if obs["allies"].get("vigilantes") else "",
            OPTIONAL_OUTPUT % "pass",
        ]
    )


def _day_discussion(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    context = obs.get("context", {})
    return "\n".join(
        [
            "## PHASE: DAY DISCUSSION",
            "Speak to everyone. Share suspicions, defend yourself, or claim a role.",
            f"Messages left today: {context.get('messages_left', 0)} "
            f"(yours: {context.get('my_messages_left', 0)})",
            SPEECH_OUTPUT,
        ]
    )


def _day_vote(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(
        [
            "## PHASE: DAY VOTE",
            "Vote to eliminate a player, or abstain. Only a unique top vote-getter with more",
            "than one vote is eliminated.",
            OPTIONAL_OUTPUT % "abstain",
        ]
    )


def _generic(obs: Mapping[str, Any], names: Sequence[str]) -> str:
    return ACTION_OUTPUT


PHASES: dict[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {
    "MAFIA_CHAT": _mafia_chat,
    "MAFIA_VOTE": _mafia_vote,
    "DOCTOR_COORDINATION": _doctor_coordination,
    "DOCTOR_PROTECTION_VOTE": _doctor_vote,
    "DOCTOR_ACTION": _doctor_action,
    "SHERIFF_COORDINATION": _sheriff_coordination,
    "SHERIFF_INVESTIGATION_ASSIGNMENT": _sheriff_assignment,
    "SHERIFF_ACTION": _sheriff_action,
    "VIGILANTE_COORDINATION": _vigilante_coordination,
    "VIGILANTE_ACTION": _vigilante_action,
    "DAY_DISCUSSION": _day_discussion,
    "DAY_VOTE": _day_vote,
}


# -------------------------------------------------------------------- entries


def _roles(entry: Mapping[str, Any]) -> str:
    return "+".join(entry.get("roles") or ()) or "?"


def _seat(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names is not None and 0 <= seat < len(names) else f"#{seat}"


def _about(entry: Mapping[str, Any], names: Sequence[str] | None) -> str:
    target = entry.get("target")
    if target is None:
        return ""
    return f" (about {entry.get('target_name') or _seat(target, names)})"


def describe_entry(entry: Mapping[str, Any], names: Sequence[str] | None) -> str:
    """One line for a log entry (public, channel or private)."""
    kind, day = entry["kind"], entry.get("day", 0)
    if kind in ("speech", "chat"):
        claim = f" (claims {entry['claim']})" if entry.get("claim") else ""
        text = entry["says"] or "(silent)"
        when = f"Day {day}" if kind == "speech" else f"Night {day}"
        return f"{when} {entry['name']}{claim}: {text}{_about(entry, names)}"
    if kind == "dawn":
        deaths = entry["deaths"]
        if not deaths:
            return f"Night {day}: nobody died"
        return f"Night {day}: " + ", ".join(
            f"{d['name']} was found dead ({_roles(d)})" for d in deaths
        )
    if kind == "vote_result":
        votes = ", ".join(
            f"{_seat(int(v), names)}->{_seat(t, names) if t is not None else 'abstain'}"
            for v, t in entry["votes"].items()
        )
        out = entry.get("eliminated")
        result = (
            f"{entry['name']} is eliminated ({_roles(entry)})" if out is not None else "nobody out"
        )
        return f"Day {day} vote: {votes}. {result}"
    if kind == "team_vote":
        target = entry.get("target_name") or _seat(entry["target"], names)
        return f"Night {day}: {entry['name']} votes for {target}"
    if kind == "mafia_target":
        return f"Night {day}: the mafia chose {entry['target_name']}"
    if kind == "doctor_consensus":
        return (
            f"Night {day}: DOCTOR CONSENSUS: protect {entry['target_name']} "
            f"({entry['votes']}/{entry['of']} votes)"
        )
    if kind == "investigation":
        return f"Night {day}: {entry['name']} investigated {entry['target_name']}: {_roles(entry)}"
    if kind == "vigilante_shot":
        return f"Night {day}: {entry['name']} shoots {entry['target_name']}"
    if kind == "vigilante_pass":
        return f"Night {day}: {entry['name']} holds fire"
    if kind == "protection":
        return f"Night {day}: you protected {_seat(entry['target'], names)}"
    return f"{kind}: {dict(entry)}"


def format_event(event: Event) -> str | None:
    """One terminal line (god view) for a rules event, or None to skip it."""
    p = event.payload
    kind = event.kind
    if kind == "setup":
        return "players: " + ", ".join(f"{q['seat']}={q['name']}" for q in p["players"])
    if kind == "deal":
        return "roles: " + ", ".join(f"#{s}={r}" for s, r in p["roles"].items())
    if kind == "night_start":
        return f"[blue]Night {p['night']}[/]"
    if kind == "day_start":
        return f"[bold]Day {p['day']}[/]"
    if kind == "night_summary":
        return None
    if kind == "doctor_action":
        return f"(doctor) #{p['seat']} protects {p['target_name']}"
    if kind == "game_end":
        return f"[bold]game over: {p['winner'] or 'draw'} ({p['reason']})[/]"
    if kind in ("role", "team"):
        return None
    if "kind" not in p:
        return None
    line = describe_entry(p, None)
    channel = p.get("channel")
    return f"({channel}) {line}" if channel else line
