"""Interventions as rules: one change that finds its own event in each of many logged games.

``duskfall fork --replace SEQ=...`` and ``--set-result SEQ=...`` name an event of one log; a
``[[forks]]`` block forks many source games, where that event has another number in each. An
intervention rule says which event to change by what it is:

* ``first-check:flip``: the first private result before the fork point that the variant lets
  a fork change (a Werewolf check), told the other answer (``--set-result``);
* ``speech:day:N:WHO=TEXT``: the first public speech of day N by WHO (a seat number, a role or
  a team, as the block's ``seats`` names them) given the words TEXT (``--replace``).

:func:`parse_rule` reads a rule (one ConfigError when malformed); :meth:`Rule.resolve` finds
its event in one game's log and returns the fork's option and value (one ConfigError when the
game has no such event).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from duskfall.agents.specs import seats_of_key
from duskfall.core import event_kinds as kinds
from duskfall.core.errors import ConfigError
from duskfall.core.events import PUBLIC
from duskfall.lab.interventions import parse_replacement
from duskfall.lab.moments import find_round
from duskfall.lab.planting import first_planting, parse_planting
from duskfall.lab.rebuild import cut_after
from duskfall.lab.rounds import rounds_of
from duskfall.store.lineage import rules_run
from duskfall.store.log import GameLog
from duskfall.store.replay import new_state_for

SET_RESULT, REPLACE = "set_result", "replace"  # the ForkRequest fields a rule fills
_SPEECH = re.compile(r"speech:day:(\d+):([^=]+)=(.*)", re.DOTALL)
RULES_HELP = "first-check:flip, or speech:day:N:WHO=TEXT (WHO: a seat, a role or a team)"


@dataclass(frozen=True)
class Rule:
    """An intervention rule (module docstring): ``kind`` ``check`` or ``speech``."""

    kind: str
    day: int = 0
    who: str = ""
    text: str = ""

    def resolve(self, log: GameLog, before: int) -> tuple[str, str]:
        """The fork's option (``set_result`` or ``replace``) and its ``SEQ=...`` value for
        ``log``, whose fork keeps its first ``before`` events."""
        if self.kind == "check":
            planting = first_planting(log, before)
            return SET_RESULT, f"{planting.index}={planting.fact.word_of(planting.value)}"
        return REPLACE, f"{self._speech(log, before)}={self.text}"

    def _speech(self, log: GameLog, before: int) -> int:
        variant, dealt = new_state_for(log.header)
        who = self.who.strip()
        seats = {int(who)} if who.isdigit() else set(seats_of_key(variant, who, dealt))
        events = log.events
        for index, event in enumerate(events[:before]):
            if event.kind != kinds.ACTION or event.day != self.day:
                continue
            if event.payload.get("seat") not in seats or not _spoken(log, index):
                continue
            return index
        raise ConfigError(
            f"game {log.header.game_id} has no public speech of {who} on day {self.day} "
            f"before event {before}"
        )


AFTER = "after"  # a [[forks]] block's ``at``: right after the intervention's event


@dataclass(frozen=True)
class Resolved:
    """A rule found in one game: the fork's option and value, and the moment every fork of
    that game starts from (with or without the intervention)."""

    option: str
    value: str
    at: str


def resolve_in(rule: Rule, log: GameLog, at: str) -> Resolved:
    """``rule`` in ``log`` forked ``at`` (a moment, or :data:`AFTER`: the first round that
    starts once the changed event's action and its events are over)."""
    rounds = rounds_of(log)
    before = len(log.events) if at == AFTER else find_round(rounds, at).start
    option, value = rule.resolve(log, before)
    if at != AFTER:
        return Resolved(option, value, at)
    if option == SET_RESULT:
        cut = parse_planting(value, log).cut(log)
    else:
        cut = cut_after(log, parse_replacement(value, log))
    start = next((r.start for r in rounds if r.start >= cut), None)
    if start is None:
        raise ConfigError(f"game {log.header.game_id}: no decision is left after event {cut}")
    return Resolved(option, value, str(start))


def _spoken(log: GameLog, index: int) -> bool:
    """Whether the action at ``index`` is a speech: one text field, said in public."""
    action = log.events[index].payload.get("action")
    if not isinstance(action, dict):
        return False
    texts = [k for k, v in action.items() if k != "type" and isinstance(v, str)]
    produced = log.events[index + 1 : index + 1 + rules_run(log.events, index)]
    return len(texts) == 1 and any(e.visibility == PUBLIC for e in produced)


def parse_rule(text: str) -> Rule:
    """The rule ``text`` states (module docstring); one ConfigError when it states none."""
    stripped = text.strip()
    if stripped == "first-check:flip":
        return Rule("check")
    found = _SPEECH.fullmatch(stripped)
    if found is None:
        raise ConfigError(f"intervention {text[:40]!r}: give {RULES_HELP}")
    day, who, words = int(found[1]), found[2].strip(), found[3].strip()
    if not words:
        raise ConfigError(f"intervention {text[:40]!r}: the new words are empty")
    if day < 1 or not who:
        raise ConfigError(f"intervention {text[:40]!r}: name a day (1 on) and who speaks")
    return Rule("speech", day, who, words)
