"""A Werewolf decision as a seat is asked it: the question, labelled options, the fields.

The example answer has exactly the fields of the decision's schema, with placeholders
(``"<seat>"``, ``"<what you say>"``, ``"<true or false>"``) where the seat chooses, so it never
suggests a move. A role's own night turn puts its choice itself (``legal.prompt(obs)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duskfall.core.prompting import DecisionPrompt
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.actions import YES_NO_FIELDS
from duskfall.variants.werewolf.legal import SpeechChoice, TargetChoice, YesNoChoice
from duskfall.variants.werewolf.prompt_labels import labelled

Obs = Mapping[str, Any]

SEAT = "<seat>"
SEAT_OR_NULL = "<seat or null>"
SPEECH = "<what you say>"
YES_OR_NO = "<true or false>"

AUDIENCE = {
    P.WOLF_CHAT: "Only your fellow werewolves hear it.",
    P.BADGE_SPEECH: "Everyone hears it.",
    P.SPEECH: "Everyone hears it.",
    P.LAST_WORDS: "Everyone hears them.",
}
TARGET_NOTES = {
    P.WOLF_KILL: "Every living werewolf votes; if your votes differ you talk and vote again, "
    "up to {wolf_rounds} rounds in all.",
    P.VOTE: "The player with the most votes is exiled; a tie exiles nobody.",
    P.BADGE_VOTE: "The candidate with the most votes becomes sheriff; a tie elects nobody.",
}
YES_NO_MEANINGS = {
    P.BADGE_RUN: "true to run for sheriff, false not to",
    P.BADGE_WITHDRAW: "true to withdraw from the race, false to stay in it",
}


def _type_field(kind: str) -> str:
    return f'"type": always "{kind}"'


def speech_decision(legal: SpeechChoice) -> DecisionPrompt:
    kind = legal.kind
    text = f"{legal.question} {AUDIENCE.get(kind, '')}".rstrip()
    fields = (
        f'Fields: {_type_field(kind)}; "says": your words, at most {legal.max_chars} '
        'characters (longer text is cut). What you say goes in "says" and nowhere else.'
    )
    return DecisionPrompt(text, {"type": kind, "says": SPEECH}, fields)


def target_decision(obs: Obs, legal: TargetChoice) -> DecisionPrompt:
    kind = legal.kind
    lines = [legal.question]
    if kind in TARGET_NOTES:
        lines.append(TARGET_NOTES[kind].format_map(obs["rules"]))
    lines += ["Options:", *(f"- {labelled(t, obs)}" for t in legal.targets)]
    fields = [f"- null: {legal.none_word}"] if legal.none_allowed else []
    null = f", or null ({legal.none_word})" if legal.none_allowed else ""
    fields.append(
        f'Fields: {_type_field(kind)}; "target": the number of the seat you choose among the '
        f"options{null}."
    )
    return DecisionPrompt("\n".join(lines), {"type": kind, "target": SEAT}, "\n".join(fields))


def yes_no_decision(legal: YesNoChoice) -> DecisionPrompt:
    kind, field = legal.kind, YES_NO_FIELDS[legal.kind]
    fields = f'Fields: {_type_field(kind)}; "{field}": {YES_NO_MEANINGS[kind]}.'
    return DecisionPrompt(legal.question, {"type": kind, field: YES_OR_NO}, fields)


def decision_prompt(obs: Obs, legal: Any) -> DecisionPrompt:
    """The decision ``legal`` as ``obs``'s seat is asked it."""
    if isinstance(legal, SpeechChoice):
        return speech_decision(legal)
    if isinstance(legal, YesNoChoice):
        return yes_no_decision(legal)
    if isinstance(legal, TargetChoice):
        return target_decision(obs, legal)
    if hasattr(legal, "prompt"):  # a role's own night turn
        prompt: DecisionPrompt = legal.prompt(obs)
        return prompt
    raise TypeError(f"not a werewolf decision: {type(legal).__name__}")
