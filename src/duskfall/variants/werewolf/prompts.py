"""Text for players: prompts for LLMs, the human view, and one line per event.

Everything here is built from a seat's observation (``view.observe``) and its legal choices,
never from the state, so a prompt can only contain what the seat may know.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.markup import escape

from duskfall.core.events import Event
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.roles import (
    GUARD,
    HUNTER,
    SEER,
    VILLAGER,
    WEREWOLF,
    WITCH,
    describe_counts,
)

HISTORY_LINES = 120

ROLE_GOALS = {
    WEREWOLF: "You are a WEREWOLF. Each night you and your fellow werewolves agree on one "
    "player to kill. By day, pass for a villager, protect your partners and steer the votes "
    "onto good players.",
    VILLAGER: "You are a VILLAGER, with no power at night. Listen, find the werewolves and "
    "vote them out.",
    SEER: "You are the SEER. Each night you check one player and learn whether they are "
    "Good or a Werewolf. Use what you learn to lead the village, but beware: the wolves hunt you.",
    WITCH: "You are the WITCH. Each night you learn whom the werewolves attacked. You have one "
    "antidote (save the attacked player, not yourself) and one poison (kill any player), each "
    "once per game, at most one potion a night.",
    HUNTER: "You are the HUNTER. When the werewolves kill you or the village exiles you, you "
    "may shoot one player, who dies with you (not if you were poisoned).",
    GUARD: "You are the GUARD. Each night you protect one player (yourself included) from the "
    "werewolves, but never the same player two nights running. Protection does not stop poison.",
}

OUTPUT = (
    'Answer with one JSON object: {"think": "your private reasoning", "says": "what you say '
    'aloud (for speeches)", "action": ACTION}. ACTION is shown with your decision below.'
)

Namer = Callable[[int | None], str]


def _namer(names: Sequence[str]) -> Namer:
    def name(seat: int | None) -> str:
        if seat is None:
            return "nobody"
        return f"seat {seat} ({names[seat]})" if 0 <= seat < len(names) else f"seat {seat}"

    return name


def _plain(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _rules_text(obs: Mapping[str, Any]) -> str:
    rules = obs["rules"]
    in_play = describe_counts(obs["roles_in_play"])
    wolves_win = (
        "when all gods (Seer, Witch, Hunter, Guard in play) or all plain villagers are dead"
        if rules["win_condition"] == "side-kill"
        else "when every non-werewolf is dead"
    )
    lines = [
        f"Werewolf with {len(obs['players'])} players. Roles in play: {in_play}.",
        "Night: the werewolves agree on a kill (or none); the witch learns the target and may "
        "save or poison; the guard protects and the seer checks at the same time.",
        "Day: deaths are announced without roles; speeches in seat order; then everybody "
        "votes to exile one player or abstains; a tie exiles nobody; the exiled say last words.",
        f"The werewolves win {wolves_win}; the village wins when every werewolf is dead. "
        f"After day {rules['day_limit']} the game is a draw.",
    ]
    if rules["badge"]:
        lines.append(
            "Day 1 opens with a sheriff election; the sheriff's vote counts 1.5, the sheriff "
            "speaks last and passes the badge on when dying."
        )
    return "\n".join(lines)


def knowledge_lines(obs: Mapping[str, Any]) -> list[str]:
    """What this seat privately knows (partners, checks, potions, last protection)."""
    name = _namer([p["name"] for p in obs["players"]])
    lines = []
    if "wolves" in obs:
        partners = [name(w) for w in obs["wolves"] if w != obs["seat"]]
        lines.append(
            "Your fellow werewolves: " + (", ".join(partners) if partners else "none (alone)")
        )
    if "checks" in obs:
        done = [f"night {c['night']}: {name(c['target'])} is {c['result']}" for c in obs["checks"]]
        lines.append("Your checks: " + ("; ".join(done) if done else "none yet"))
    if "antidote" in obs:
        lines.append(
            f"Antidote: {'available' if obs['antidote'] else 'used'}; "
            f"poison: {'available' if obs['poison'] else 'used'}"
        )
        if obs.get("attacked_tonight") is not None:
            lines.append(f"Tonight the werewolves attacked {name(obs['attacked_tonight'])}.")
    if "last_guarded" in obs:
        lines.append(f"Last night you protected {name(obs['last_guarded'])}.")
    return lines


def render_view(obs: Mapping[str, Any]) -> str:
    """The seat's situation in a few lines (who it is, who lives, what it knows)."""
    name = _namer([p["name"] for p in obs["players"]])
    status = "alive" if obs["alive"] else "dead"
    lines = [
        f"You are {name(obs['seat'])}, the {obs['role']} ({status}). "
        f"{'Night' if obs['phase'] == P.NIGHT else 'Day'} {obs['day']}.",
        "Alive: " + ", ".join(name(p["seat"]) for p in obs["players"] if p["alive"]),
    ]
    dead = [name(p["seat"]) for p in obs["players"] if not p["alive"]]
    if dead:
        lines.append("Dead: " + ", ".join(dead))
    if obs["sheriff"] is not None:
        lines.append(f"Sheriff: {name(obs['sheriff'])}")
    lines.extend(knowledge_lines(obs))
    return "\n".join(lines)


def history_line(entry: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One line for an entry of a seat's history."""
    return event_line(entry["kind"], entry, _namer(names))


def format_history_entry(entry: Mapping[str, Any], obs: Mapping[str, Any]) -> str | None:
    """One line of a seat's history, with the player names of its observation."""
    return history_line(entry, [p["name"] for p in obs["players"]])


def render_prompts(obs: Mapping[str, Any], legal: Any, hint: str | None) -> tuple[str, str]:
    """System prompt: rules, identity, private knowledge. User prompt: history and the decision."""
    name = _namer([p["name"] for p in obs["players"]])
    system = "\n\n".join(
        [
            f"You are {obs['name']}, playing the social deduction game Werewolf.",
            _rules_text(obs),
            f"You are {name(obs['seat'])}. {ROLE_GOALS[obs['role']]}",
            "\n".join(knowledge_lines(obs)),
            OUTPUT,
        ]
    ).replace("\n\n\n\n", "\n\n")
    names = [p["name"] for p in obs["players"]]
    history = [line for e in obs["history"] if (line := history_line(e, names))]
    if len(history) > HISTORY_LINES:
        history = ["(earlier events omitted)", *history[-HISTORY_LINES:]]
    kind = legal.kind
    example = _example(kind, legal.to_wire())
    parts = [
        render_view(obs),
        "What you have seen so far:\n" + "\n".join(f"- {h}" for h in history),
        f"Your decision now ({kind}): {legal.describe()}",
        f'Reply like: {{"think": "...", "says": "...", "action": {json.dumps(example)}}}',
        f"Legal choices: {json.dumps(legal.to_wire())}",
    ]
    if kind in P.SPEECH_KINDS:
        parts.append(
            'Put your words in "says"; they are heard by '
            + ("your fellow werewolves only." if kind == P.WOLF_CHAT else "everyone.")
        )
    if hint:
        parts.append(f"Your previous answer was refused: {hint} Answer again.")
    return system, "\n\n".join(parts)


def _example(kind: str, wire: Mapping[str, Any]) -> dict[str, Any]:
    if kind in P.SPEECH_KINDS:
        return {"type": kind}
    if kind == P.WITCH:
        return {"type": kind, "potion": "PASS", "target": None}
    if "target" in wire:
        targets = wire["target"]
        return {"type": kind, "target": targets[0] if targets else None}
    field = next(k for k in wire if k != "type")
    return {"type": kind, field: True}


def format_event(event: Event) -> str | None:
    """One line per rules event for the god view (seat numbers; rich markup escaped)."""
    line = event_line(event.kind, event.payload, _plain)
    return escape(line) if line is not None else None


def _speech(p: Mapping[str, Any], name: Namer) -> str:
    text = p["text"] or "(says nothing)"
    tag = {
        P.WOLF_CHAT: "[wolves] ",
        P.BADGE_SPEECH: "[campaign] ",
        P.LAST_WORDS: "[last words] ",
    }.get(p["sub_phase"], "")
    return f"{tag}{name(p['seat'])}: {text}"


def _votes(casts: Sequence[Mapping[str, Any]], name: Namer) -> str:
    return ", ".join(f"{name(c['seat'])} -> {name(c['target'])}" for c in casts)


def _tally(p: Mapping[str, Any], name: Namer) -> str:
    what = "sheriff vote" if p["sub_phase"] == P.BADGE_VOTE else "vote"
    tally = ", ".join(f"{name(t['seat'])} {t['votes']:g}" for t in p["tally"]) or "no votes"
    if p["chosen"] is not None:
        return f"{what} tally: {tally}"
    if p["tied"]:
        return f"{what} tally: {tally}; tie, nobody is chosen"
    return f"{what} tally: {tally}; nobody is chosen"


def _witch(p: Mapping[str, Any], name: Namer) -> str:
    action = p["action"]
    if action == "ANTIDOTE":
        return f"[witch] {name(p['seat'])} uses the antidote on {name(p['target'])}"
    if action == "POISON":
        return f"[witch] {name(p['seat'])} poisons {name(p['target'])}"
    return f"[witch] {name(p['seat'])} uses no potion"


_LINES: dict[str, Callable[[Mapping[str, Any], Namer], str]] = {
    "game_start": lambda p, n: f"Werewolf begins with {describe_counts(p['roles_in_play'])}.",
    "roles_dealt": lambda p, n: "roles: " + ", ".join(f"{i}={r}" for i, r in enumerate(p["roles"])),
    "role_assigned": lambda p, n: f"{n(p['seat'])} is dealt the {p['role']} card",
    "wolf_team": lambda p, n: "[wolves] the werewolves are " + ", ".join(map(n, p["wolves"])),
    "night_start": lambda p, n: "Night falls.",
    "day_start": lambda p, n: "Day breaks.",
    "speech": _speech,
    "wolf_votes": lambda p, n: f"[wolves] no agreement yet: {_votes(p['votes'], n)}",
    "werewolf_kill": lambda p, n: (
        f"[wolves] the werewolves attack {n(p['target'])}"
        if p["target"] is not None
        else "[wolves] the werewolves kill nobody tonight"
    ),
    "witch_told": lambda p, n: (
        f"[witch] the werewolves attacked {n(p['target'])} tonight"
        if p["target"] is not None
        else "[witch] nobody was attacked tonight"
    ),
    "witch_action": _witch,
    "guard_action": lambda p, n: f"[guard] {n(p['seat'])} protects {n(p['target'])}",
    "seer_action": lambda p, n: f"[seer] {n(p['seat'])} checks {n(p['target'])}: {p['result']}",
    "night_resolved": lambda p, n: (
        f"night: attacked {n(p['attacked'])}"
        + (" (saved)" if p["saved"] else "")
        + (" (guarded)" if p["guarded"] else "")
        + (f", poisoned {n(p['poisoned'])}" if p["poisoned"] is not None else "")
    ),
    "deaths": lambda p, n: (
        "Last night " + ", ".join(map(n, p["seats"])) + " died."
        if p["seats"]
        else "Last night was peaceful: nobody died."
    ),
    "badge_candidates": lambda p, n: (
        "Running for sheriff: " + ", ".join(map(n, p["candidates"]))
        if p["candidates"]
        else "Nobody runs for sheriff."
    ),
    "badge_withdrawals": lambda p, n: (
        "Withdrew from the race: "
        + (", ".join(map(n, p["withdrawn"])) or "nobody")
        + "; still running: "
        + (", ".join(map(n, p["remaining"])) or "nobody")
    ),
    "vote": lambda p, n: (
        (
            f"{n(p['seat'])} votes for {n(p['target'])}"
            if p["target"] is not None
            else f"{n(p['seat'])} abstains"
        )
        + (f" ({p['weight']:g} votes)" if p["weight"] != 1 else "")
    ),
    "vote_result": _tally,
    "sheriff_elected": lambda p, n: (
        f"{n(p['seat'])} is the sheriff ({p['reason']})"
        if p["seat"] is not None
        else f"No sheriff: {p['reason']}"
    ),
    "exiled": lambda p, n: f"{n(p['seat'])} is exiled.",
    "hunter_shot": lambda p, n: (
        f"{n(p['seat'])} is the Hunter and shoots {n(p['target'])}!"
        if p["target"] is not None
        else f"{n(p['seat'])} is the Hunter and holds fire."
    ),
    "badge_passed": lambda p, n: (
        f"{n(p['seat'])} passes the sheriff's badge to {n(p['target'])}"
        if p["target"] is not None
        else f"{n(p['seat'])} tears up the sheriff's badge"
    ),
    "game_end": lambda p, n: (
        f"Game over: {p['winner'] or 'nobody'} wins ({p['reason']}). Roles: "
        + ", ".join(f"{n(i)}={r}" for i, r in enumerate(p["roles"]))
    ),
}


def event_line(kind: str, payload: Mapping[str, Any], name: Namer) -> str | None:
    render = _LINES.get(kind)
    return render(payload, name) if render else None
