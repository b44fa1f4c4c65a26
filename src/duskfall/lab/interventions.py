"""Interventions: one decision of a logged game replaced before a fork plays on.

``--replace SEQ=TEXT`` gives a speech other words: SEQ is the speech's event (or the action
that made it) and TEXT replaces the action's one text field. ``--replace SEQ=ACTION`` replaces
the whole action with a JSON object in the action's wire form (``{"type": "VOTE", "target":
3}``). Either way the new action must be legal where the old one was played; the rules then
produce its events in place of the old ones, and the fork plays on from right after it
(unless ``--at`` names a later moment whose prefix the change leaves as it was).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError
from duskfall.core.redaction import redact
from duskfall.core.validation import MAX_DEPTH, check_depth
from duskfall.store.log import GameLog
from duskfall.store.replay import recorded_action


@dataclass(frozen=True)
class Replacement:
    """The action at ``index`` of the parent's log (``seat``'s), to be played as ``action``."""

    given: int
    index: int
    seat: int
    action: dict[str, Any]
    speech: bool


def parse_replacement(text: str, log: GameLog) -> Replacement:
    """``SEQ=TEXT`` or ``SEQ=ACTION`` read against ``log`` (module docstring); one ConfigError
    when it names no decision or its value does not fit."""
    number, sep, value = text.partition("=")
    if not sep or not number.strip().isdigit():
        raise ConfigError(
            f"--replace {text[:40]!r}: give SEQ=TEXT (a speech's new words) or "
            'SEQ={"type": ...} (a new action), SEQ being an event number'
        )
    given = int(number)
    index = _action_index(log, given)
    seat, original = recorded_action(log.events[index])
    if value.lstrip().startswith("{"):
        return Replacement(given, index, seat, _json_action(value, given), speech=False)
    return Replacement(given, index, seat, _with_text(original, value, given), speech=True)


def _action_index(log: GameLog, given: int) -> int:
    """The index of the action event that ``given`` is, or whose rules events hold it."""
    events = log.events
    if given >= len(events):
        raise ConfigError(f"--replace {given}: the log has events 0-{len(events) - 1} only")
    index = given
    while index >= 0 and events[index].source == "rules":
        index -= 1
    event = events[index] if index >= 0 else None
    if event is None or event.kind != kinds.ACTION:
        what = events[given].kind
        raise ConfigError(
            f"--replace {given}: event {given} ({what}) was not chosen by a seat; give a "
            "speech, a vote or another seat's action (or the action event that made it)"
        )
    return index


def _json_action(value: str, given: int) -> dict[str, Any]:
    try:
        action = json.loads(value)
    except RecursionError:
        raise ConfigError(
            f"--replace {given}: the new action is nested more than {MAX_DEPTH} levels deep"
        ) from None
    except ValueError as exc:
        raise ConfigError(f"--replace {given}: the new action is not valid JSON ({exc})") from None
    check_depth(action, f"--replace {given}: the new action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ConfigError(f'--replace {given}: an action is a JSON object with a "type"')
    return action


def _with_text(original: dict[str, Any], text: str, given: int) -> dict[str, Any]:
    fields = [key for key, value in original.items() if key != "type" and isinstance(value, str)]
    if len(fields) != 1:
        shown = json.dumps(original, ensure_ascii=False)[:120]
        raise ConfigError(
            f"--replace {given}: that decision has no single text to replace ({shown}); "
            f"give the whole new action as JSON instead: {given}='{{\"type\": ...}}'"
        )
    if not text.strip():
        raise ConfigError(f"--replace {given}: the new words are empty")
    return {**original, fields[0]: redact(text)}
