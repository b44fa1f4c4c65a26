"""The one validation of a participant's answer, and answers that carry their own verdict.

:func:`check_answer` decodes a raw answer (:func:`~duskfall.runtime.parsing.decode_reply`) and
parses its action against the seat's legal actions. A participant that must judge an answer
the moment it arrives (the server's remote seat tells its client at once) wraps the result in a
:class:`CheckedAnswer` (:meth:`CheckedAnswer.of`: an answer off the wire is checked for its
wire form and its legality in one step); the runtime then takes that verdict as it is
instead of checking again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from duskfall.core.errors import IllegalAction
from duskfall.core.legal import LegalActions
from duskfall.protocol.strict import wire_form_error
from duskfall.runtime.parsing import Reply, decode_reply


@dataclass(frozen=True, slots=True)
class CheckedAnswer:
    """A raw answer and its verdict: the decoded reply with the parsed action, or the refusal."""

    raw: Any
    reply: Reply | None = None
    refusal: IllegalAction | None = None

    @classmethod
    def of(cls, raw: Any, legal: LegalActions, *, wire_form: bool = False) -> CheckedAnswer:
        """Check ``raw`` against ``legal`` once and keep the verdict. With ``wire_form`` (an
        answer off the wire, from a strict server's client), its shape is checked against the
        wire schema of ``legal`` in the same step, before its legality: a ``bad_format``
        refusal names the first thing wrong with it."""
        if wire_form:
            problem = wire_form_error(raw, legal.schema())
            if problem is not None:
                return cls(raw, refusal=IllegalAction(problem, "bad_format"))
        try:
            return cls(raw, reply=check_answer(raw, legal))
        except IllegalAction as refusal:
            return cls(raw, refusal=refusal)


def check_answer(raw: Any, legal: LegalActions) -> Reply:
    """The reply of ``raw`` with its action parsed by ``legal``; raises IllegalAction.

    A :class:`CheckedAnswer` gives its own verdict (it was checked against the same ``legal``).
    """
    if isinstance(raw, CheckedAnswer):
        if raw.refusal is not None:
            raise raw.refusal
        if raw.reply is None:
            raise ValueError("a CheckedAnswer needs a reply or a refusal")
        return raw.reply
    reply = decode_reply(raw)
    reply.action = legal.parse(reply.action)
    return reply


def raw_of(answer: Any) -> Any:
    """The answer as the participant gave it (for the log)."""
    if isinstance(answer, CheckedAnswer):
        return answer.raw
    if isinstance(answer, Reply) and answer.raw is not None:
        return answer.raw
    return answer
