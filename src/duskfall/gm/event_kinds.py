"""The kinds of the events of a GM game (all ``source="gm"``; see :mod:`duskfall.gm.state`).

``llm_call`` and ``game_over`` are the shared kinds of :mod:`duskfall.core.event_kinds`.
"""

from __future__ import annotations

from typing import Final

from duskfall.core.event_kinds import GAME_OVER, LLM_CALL

GM_START: Final = "gm_start"
STEP: Final = "step"
GM_REJECTED: Final = "gm_rejected"
GM_INSTRUCTION: Final = "gm_instruction"
CHAT: Final = "chat"
SECRET: Final = "secret"
TURN: Final = "turn"
PLAYER_SILENT: Final = "player_silent"
PRIVATE_REPLY: Final = "private_reply"
PAUSED: Final = "paused"
STOPPED: Final = "stopped"
DEAL: Final = "deal"
PHASE: Final = "phase"
OUT: Final = "out"
GM_AUDIT: Final = "gm_audit"
#: The ``rule`` of a ``gm_audit`` note saying what could not be checked (not a rule break).
UNMAPPED: Final = "unmapped"

__all__ = [
    "CHAT",
    "DEAL",
    "GAME_OVER",
    "GM_AUDIT",
    "GM_INSTRUCTION",
    "GM_REJECTED",
    "GM_START",
    "LLM_CALL",
    "OUT",
    "PAUSED",
    "PHASE",
    "PLAYER_SILENT",
    "PRIVATE_REPLY",
    "SECRET",
    "STEP",
    "STOPPED",
    "TURN",
    "UNMAPPED",
]
