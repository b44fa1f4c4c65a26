"""The kinds of the events recorded around the rules' own events (runtime, LLM, agents).

Rules events use their variant's own kinds; these are the variant-independent ones that the
runtime, the LLM layer, the agents, the store and the web page all refer to.
"""

from __future__ import annotations

from typing import Final

ACTION: Final = "action"
"""An applied action (admin); replay re-applies these."""
GAME_OVER: Final = "game_over"
"""The outcome, recorded once at the end."""
FALLBACK: Final = "fallback"
"""A seat's decision was settled by the documented fallback."""
INVALID_ACTION: Final = "invalid_action"
"""A reply was refused; the seat is asked again with a hint."""
DECISION_TIMEOUT: Final = "decision_timeout"
"""A participant did not answer within its deadline."""
PARTICIPANT_ERROR: Final = "participant_error"
"""A participant raised instead of answering."""
THOUGHT: Final = "thought"
"""A seat's private reasoning (admin)."""
LLM_CALL: Final = "llm_call"
"""One model call: prompt, reply, tokens, cost (admin)."""
SEAT_STAND_IN: Final = "seat_stand_in"
"""A seat's stand-in took over (its remote player left or never answered)."""
SUSPICION: Final = "suspicion"
"""A deliberating agent's beliefs about every player (admin)."""
BELIEFS: Final = "beliefs"
"""A seat's stated probability that each other living player is evil (admin)."""
REMOTE_ANSWER: Final = "remote_answer"
"""How long a remote seat's client took to answer one request, or that it did not (admin)."""

TEXT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    ACTION: (),  # an action's text is redacted where it is received (the runtime's handler)
    GAME_OVER: ("reason",),
    FALLBACK: ("reason",),
    INVALID_ACTION: ("raw", "error"),
    DECISION_TIMEOUT: (),
    REMOTE_ANSWER: (),  # a seat, a decision kind and a time
    PARTICIPANT_ERROR: ("error",),
    THOUGHT: (),  # redacted where it is received (the handler), joined to the seat's last
    # a model call: its prompt (the labels a caller adds are the caller's own, apart from a
    # deliberating agent's session type, which its model chose). Its other texts are redacted
    # once, where they are made: the ``reply`` by the model as it arrived (joined to the seat's
    # last reply), the spec, ``error`` and ``retry_reasons`` as the event is built
    # (:func:`duskfall.llm.calls.llm_call_event`)
    LLM_CALL: ("messages", "session_type"),
}
"""The payload fields that carry untrusted text (a reply, a client's frame, an error's words),
per kind: only these go through the redaction matcher where an event enters the record, so an
event of seats and numbers costs nothing. A kind not listed (a stand-in, a game
master's chat, an agent's beliefs) has every field searched."""
