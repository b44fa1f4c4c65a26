"""Classic mafia's prompt kit (:class:`~duskfall.core.prompting.PromptKit`), from which
duskfall composes every LLM seat's prompt: fixed rules and role (:mod:`.prompt_rules`), the
history by night and day (:mod:`.prompt_history`), the standing and decision now
(:mod:`.prompt_now`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duskfall.core.prompting import DecisionPrompt, Entry, Line, Period
from duskfall.variants.mafia import prompt_history, prompt_now, prompt_rules


class MafiaPromptKit:
    """The pieces of a mafia seat's prompts, read from its observation and visible events."""

    @property
    def markers(self) -> frozenset[str]:
        return prompt_history.MARKERS

    def system(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return prompt_rules.system_text(obs, coaching=coaching)

    def period(self, entry: Entry) -> Period:
        return prompt_history.period(entry)

    def line(self, entry: Entry, obs: Mapping[str, Any]) -> Line | None:
        return prompt_history.line(entry, obs)

    def situation(self, obs: Mapping[str, Any], *, coaching: bool) -> str:
        return prompt_now.situation(obs, coaching=coaching)

    def decision(self, obs: Mapping[str, Any], legal: Any, *, coaching: bool) -> DecisionPrompt:
        return prompt_now.decision(obs, legal, coaching=coaching)

    def entries(self, obs: Mapping[str, Any]) -> Sequence[Entry] | None:
        return prompt_history.entries(obs)


KIT = MafiaPromptKit()
