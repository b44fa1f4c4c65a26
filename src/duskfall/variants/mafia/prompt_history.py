"""A mafia seat's history in words: each visible event's period, line and digest line.

An entry is a flattened rules event (``{"kind", "day", "phase", **payload}``) the seat could
see, or a log entry of its observation shaped the same way (:func:`entries`). Digest lines
keep every death with the roles revealed, every vote, every private result and every claim
and accusation; free text is clipped to its sentences naming a player or a role.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.digest import pointed
from duskfall.core.prompting import Entry, Line, Period
from duskfall.variants.mafia.prompt_labels import DAY, NIGHT, Obs, roles_text, who
from duskfall.variants.mafia.roles import ROLES

MARKERS = frozenset({"night_start", "day_start"})
OPENING = frozenset({"setup", "role", "team"})
# words that make a sentence a claim or an accusation (with names and seats)
ROLE_WORDS = "|".join([*(rf"{role.lower()}s?" for role in ROLES), "mafioso"])
ACTION_VERB = {"mafia": "kill", "doctors": "protect"}

# Where an observation's log entry falls in its day (the rules' order): the night's steps by
# channel (mafia, doctors, sheriffs, vigilantes), then dawn, the speeches and the vote.
CHANNEL_STEP = {"mafia": 0, "doctors": 1, "sheriffs": 2, "vigilantes": 3}
PRIVATE_STEP = {"protection": 1, "investigation": 2, "vigilante_shot": 3, "vigilante_pass": 3}
PUBLIC_STEP = {"dawn": 4, "speech": 5, "vote_result": 6}
DAY_STEPS = frozenset({5, 6})


# ---------------------------------------------------------------- periods


def period(entry: Entry) -> Period:
    """``Setup`` (day 0), ``Night N``, ``Day N``; the end of the game closes its day."""
    if entry["kind"] in OPENING:
        return Period(0, 0, "Setup")
    day, phase = entry["day"], entry.get("phase")
    if phase == NIGHT:
        return Period(3 * day, day, f"Night {day}")
    if phase == DAY:
        return Period(3 * day + 1, day, f"Day {day}")
    return Period(3 * day + 2, day, "Game over")


# ---------------------------------------------------- observation entries


def _step(entry: Mapping[str, Any], channel: str | None) -> int:
    if channel is not None:
        return CHANNEL_STEP.get(channel, 3)
    return PRIVATE_STEP.get(entry["kind"]) or PUBLIC_STEP.get(entry["kind"], 6)


def entries(obs: Obs) -> list[dict[str, Any]]:
    """The observation's logs (public, its channels, its private notes) as flattened events,
    in the order they happened."""
    tagged: list[tuple[int, int, dict[str, Any]]] = []
    logs: list[tuple[str | None, Sequence[Mapping[str, Any]]]] = [
        (None, obs["public_log"]),
        *obs["channel_logs"].items(),
        (None, obs["private_log"]),
    ]
    for channel, log in logs:
        for raw in log:
            step = _step(raw, channel)
            entry = {**raw, "phase": DAY if step in DAY_STEPS else NIGHT}
            if channel is not None:
                entry["channel"] = channel
            tagged.append((raw["day"], step, entry))
    tagged.sort(key=lambda item: (item[0], item[1]))  # stable: each log keeps its order
    return [entry for _, _, entry in tagged]


# ------------------------------------------------------------------ lines


def _tag(entry: Entry) -> str:
    channel = entry.get("channel")
    return f"[{channel}] " if channel else "[private] "


def _quoted(says: str) -> str:
    return f'"{says}"' if says else "(silent)"


def clip(says: str, obs: Obs) -> str:
    """The sentences of ``says`` naming a player or a role, clipped ('' when none does)."""
    return pointed(says, [p["name"] for p in obs["players"]], ROLE_WORDS) or ""


def _message(entry: Entry, obs: Obs, head: str) -> Line:
    """A chat or speech: ``head``, its structured claim and target, then the text."""
    fields = []
    if entry.get("claim"):
        fields.append(f"claims {entry['claim']}")
    if entry.get("target") is not None:
        fields.append(f"about {who(obs, entry['target'])}")
    speaker = who(obs, entry["seat"]) + "".join(f", {f}" for f in fields)
    says = entry.get("says") or ""
    kept = clip(says, obs)
    if kept:
        digest = f'{head}{speaker}: "{kept}"'
    elif fields:
        digest = f"{head}{speaker}"
    else:
        digest = f"{head}{who(obs, entry['seat'])} spoke (no claim or accusation)"
    text = f"{head}{speaker}: {_quoted(says)}"
    return Line(text, None if digest == text else digest)


def _tally(tally: Mapping[str, int], obs: Obs) -> str:
    return ", ".join(f"{who(obs, int(s))} {n}" for s, n in tally.items())


def _setup(entry: Entry, obs: Obs) -> Line:
    dealt = ", ".join(f"{n} {r}" for r, n in entry["setup"].items())
    return Line(f"The game starts: {len(entry['players'])} players; roles dealt: {dealt}.")


def _role(entry: Entry, obs: Obs) -> Line:
    return Line(f"You are dealt {roles_text(entry['roles'])} ({entry['team']} side).")


def _team(entry: Entry, obs: Obs) -> Line:
    members = ", ".join(who(obs, s) for s in entry["members"])
    return Line(f"Your private {entry['channel']} chat: {members}.")


def _chat(entry: Entry, obs: Obs) -> Line:
    rounds = f", round {entry['round']} of {entry['rounds']}" if entry.get("rounds") else ""
    return _message(entry, obs, f"[{entry.get('channel', 'private')} chat{rounds}] ")


def _speech(entry: Entry, obs: Obs) -> Line:
    return _message(entry, obs, "")


def _team_vote(entry: Entry, obs: Obs) -> Line:
    verb = ACTION_VERB.get(entry.get("channel", ""), "choose")
    vote = f"{_tag(entry)}{who(obs, entry['seat'])} votes to {verb} {who(obs, entry['target'])}"
    says = f': "{entry["says"]}"' if entry.get("says") else ""
    text = f"{vote} (tally so far: {_tally(entry['tally'], obs)}){says}"
    return Line(text, vote)


def _mafia_target(entry: Entry, obs: Obs) -> Line:
    return Line(
        f"{_tag(entry)}The mafia's kill tonight: {who(obs, entry['target'])} "
        f"(votes: {_tally(entry['tally'], obs)})"
    )


def _doctor_consensus(entry: Entry, obs: Obs) -> Line:
    return Line(
        f"{_tag(entry)}Doctors' consensus: every doctor protects {who(obs, entry['target'])} "
        f"({entry['votes']} of {entry['of']} votes)"
    )


def _protection(entry: Entry, obs: Obs) -> Line:
    return Line(f"{_tag(entry)}You protected {who(obs, entry['target'])}")


def _investigation(entry: Entry, obs: Obs) -> Line:
    return Line(
        f"{_tag(entry)}{who(obs, entry['seat'])} investigated {who(obs, entry['target'])}: "
        f"{roles_text(entry['roles'])}"
    )


def _shot(entry: Entry, obs: Obs) -> Line:
    says = f': "{entry["says"]}"' if entry.get("says") else ""
    shot = f"{_tag(entry)}{who(obs, entry['seat'])} shoots {who(obs, entry['target'])}"
    return Line(shot + says, shot if says else None)


def _pass(entry: Entry, obs: Obs) -> Line:
    says = f': "{entry["says"]}"' if entry.get("says") else ""
    held = f"{_tag(entry)}{who(obs, entry['seat'])} holds fire"
    return Line(held + says, held if says else None)


def _dawn(entry: Entry, obs: Obs) -> Line:
    deaths = entry["deaths"]
    if not deaths:
        return Line("Dawn: nobody died tonight.")
    dead = "; ".join(
        f"{who(obs, d['seat'])} was found dead: {roles_text(d['roles'])}" for d in deaths
    )
    return Line(f"Dawn: {dead}.")


def _ballot(voter: str, target: int | None, obs: Obs) -> str:
    if target is None:
        return f"{who(obs, int(voter))} abstains"
    return f"{who(obs, int(voter))} votes {who(obs, target)}"


def _vote_result(entry: Entry, obs: Obs) -> Line:
    ballots = "; ".join(_ballot(v, t, obs) for v, t in entry["votes"].items())
    out = entry.get("eliminated")
    if out is None:
        result = "nobody is eliminated"
    else:
        result = f"{who(obs, out)} is eliminated: {roles_text(entry.get('roles'))}"
    return Line(f"Day vote: {ballots or 'no ballots'}. Result: {result}.")


def _game_end(entry: Entry, obs: Obs) -> Line:
    winner = f"the {entry['winner']} side wins" if entry.get("winner") else "no winner"
    roles = ", ".join(f"{who(obs, int(s))} {r}" for s, r in (entry.get("roles") or {}).items())
    return Line(f"Game over: {winner} ({entry.get('reason', '')}). Roles: {roles}.")


LINES: dict[str, Callable[[Entry, Obs], Line]] = {
    "setup": _setup,
    "role": _role,
    "team": _team,
    "chat": _chat,
    "speech": _speech,
    "team_vote": _team_vote,
    "mafia_target": _mafia_target,
    "doctor_consensus": _doctor_consensus,
    "protection": _protection,
    "investigation": _investigation,
    "vigilante_shot": _shot,
    "vigilante_pass": _pass,
    "dawn": _dawn,
    "vote_result": _vote_result,
    "game_end": _game_end,
}
"""Every kind of event a seat can see (besides the markers), and its line."""


def line(entry: Entry, obs: Obs) -> Line | None:
    """The entry as this seat is shown it; None for a marker."""
    kind = entry["kind"]
    if kind in MARKERS:
        return None
    render = LINES.get(kind)
    if render is None:
        return Line(f"{kind}: {dict(entry)}")
    return render(entry, obs)
