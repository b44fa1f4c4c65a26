"""Error codes of the wire protocol and the seed-compatible message each one is sent with.

An ``ERROR`` frame always carries ``message`` (the seed's wording, e.g. ``"Not your turn"``); the
extensions add a stable ``code`` and a ``detail`` that says exactly what was wrong.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    NOT_YOUR_TURN = "not_your_turn"
    INVALID_ACTION = "invalid_action"
    INVALID_TARGET = "invalid_target"
    BAD_FORMAT = "bad_format"
    PLAYER_DEAD = "player_dead"
    STALE_REQUEST = "stale_request"
    BAD_UTF8 = "bad_utf8"
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    FRAME_TOO_LARGE = "frame_too_large"
    READ_TIMEOUT = "read_timeout"
    BAD_TOKEN = "bad_token"
    STAND_IN = "stand_in"
    HELLO_REQUIRED = "hello_required"
    SERVER_FULL = "server_full"
    SHUTTING_DOWN = "shutting_down"


ERROR_MESSAGES: dict[ErrorCode, str] = {
    ErrorCode.NOT_YOUR_TURN: "Not your turn",
    ErrorCode.INVALID_ACTION: "Invalid action",
    ErrorCode.INVALID_TARGET: "Invalid target",
    ErrorCode.BAD_FORMAT: "Invalid action",
    ErrorCode.PLAYER_DEAD: "Player is dead",
    ErrorCode.STALE_REQUEST: "Stale response",
    ErrorCode.BAD_UTF8: "Invalid message",
    ErrorCode.BAD_JSON: "Invalid message",
    ErrorCode.BAD_MESSAGE: "Invalid message",
    ErrorCode.UNKNOWN_TYPE: "Unknown message type",
    ErrorCode.FRAME_TOO_LARGE: "Frame too large",
    ErrorCode.READ_TIMEOUT: "Read timeout",
    ErrorCode.BAD_TOKEN: "Unknown or expired token",
    ErrorCode.STAND_IN: "Seat played by a stand-in",
    ErrorCode.HELLO_REQUIRED: "HELLO required",
    ErrorCode.SERVER_FULL: "Server full",
    ErrorCode.SHUTTING_DOWN: "Server shutting down",
}


def error_code(code: str) -> ErrorCode:
    """The known code for ``code`` (e.g. an ``IllegalAction.code``), else ``invalid_action``."""
    try:
        return ErrorCode(code)
    except ValueError:
        return ErrorCode.INVALID_ACTION


class ProtocolError(Exception):
    """A client message the server refuses; becomes an ``ERROR`` frame."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        return ERROR_MESSAGES[self.code]
