"""The wire protocol: framing (8-byte big-endian length + UTF-8 JSON) and message models."""

from duskfall.protocol.errors import ERROR_MESSAGES, ErrorCode, ProtocolError
from duskfall.protocol.framing import (
    DEFAULT_MAX_FRAME,
    HEADER_SIZE,
    FrameDecoder,
    FrameError,
    FrameTooLarge,
    encode_frame,
    encode_message,
)
from duskfall.protocol.messages import (
    PROTOCOL_VERSION,
    ActionRequest,
    ActionResponse,
    ClientHello,
    ErrorMessage,
    GameEvent,
    ServerHello,
    decode_json_object,
    error_message,
    parse_client_message,
    parse_server_message,
)

__all__ = [
    "DEFAULT_MAX_FRAME",
    "ERROR_MESSAGES",
    "HEADER_SIZE",
    "PROTOCOL_VERSION",
    "ActionRequest",
    "ActionResponse",
    "ClientHello",
    "ErrorCode",
    "ErrorMessage",
    "FrameDecoder",
    "FrameError",
    "FrameTooLarge",
    "GameEvent",
    "ProtocolError",
    "ServerHello",
    "decode_json_object",
    "encode_frame",
    "encode_message",
    "error_message",
    "parse_client_message",
    "parse_server_message",
]
