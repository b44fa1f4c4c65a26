"""The messages of the wire protocol (seed 001, extended compatibly) as pydantic models.

Server to client: ``ACTION_REQUEST``, ``GAME_EVENT``, ``ERROR`` (the seed's), ``HELLO`` (an
extension: the seat, game and reconnect token, sent when a seat is assigned) and ``TIMEOUT`` /
``FALLBACK`` (extensions: a request was settled without the client's answer, and what was
played for it). Client to server: ``ACTION_RESPONSE`` (the seed's) and an optional ``HELLO``
(reconnect with a token and the last event number seen, a name, the state updates wanted).

Extension fields are optional and additive, so clients written from the seed document alone
ignore them. :func:`parse_client_message` is the one gate every client frame passes.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from duskfall.protocol.errors import ERROR_MESSAGES, ErrorCode, ProtocolError

PROTOCOL_VERSION = 1
MAX_NAME_LENGTH = 64
MAX_TOKEN_LENGTH = 128


class _Message(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    def to_wire(self) -> dict[str, Any]:
        """The JSON object sent on the wire (unset optional extensions left out)."""
        return self.model_dump(mode="json", exclude_none=True)


# --- server to client -----------------------------------------------------------------------


class ActionRequest(_Message):
    """Asks ``player_id`` to act; empty ``valid_actions`` is a state update (do not answer)."""

    type: Literal["ACTION_REQUEST"] = "ACTION_REQUEST"
    player_id: int
    phase: str
    valid_actions: dict[str, Any]
    observation: dict[str, Any]
    request_id: int | None = None
    deadline_ms: int | None = None
    game_id: str | None = None
    legal_state: dict[str, Any] | None = None
    partial: bool | None = None  # a state update with only the changed observation fields

    @property
    def needs_answer(self) -> bool:
        return bool(self.valid_actions)


def action_request(
    player_id: int,
    phase: str,
    valid_actions: dict[str, Any],
    observation: dict[str, Any],
    **extensions: Any,
) -> dict[str, Any]:
    """An ``ACTION_REQUEST`` object as ``ActionRequest(...).to_wire()`` gives it (the same keys
    in the same order, unset extensions left out), without building the model: the server
    makes one per seat per action. ``extensions``: ``request_id``, ``deadline_ms``,
    ``game_id``, ``legal_state``, ``partial``."""
    message: dict[str, Any] = {
        "type": "ACTION_REQUEST",
        "player_id": player_id,
        "phase": phase,
        "valid_actions": valid_actions,
        "observation": observation,
    }
    for name in _REQUEST_EXTENSIONS:
        value = extensions.pop(name, None)
        if value is not None:
            message[name] = value
    if extensions:
        raise TypeError(f"unknown ACTION_REQUEST fields: {sorted(extensions)}")
    return message


_REQUEST_EXTENSIONS = ("request_id", "deadline_ms", "game_id", "legal_state", "partial")


class GameEvent(_Message):
    """Something happened: ``event`` is its name, the other fields its payload; ``seq``
    numbers the events this seat was sent, 1, 2, 3... (only the events it may see)."""

    type: Literal["GAME_EVENT"] = "GAME_EVENT"
    event: str
    game_id: str | None = None
    seq: int | None = None

    @property
    def payload(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class ErrorMessage(_Message):
    """The last message was refused; ``message`` is the seed's wording, ``code`` is stable."""

    type: Literal["ERROR"] = "ERROR"
    message: str
    code: str | None = None
    detail: str | None = None
    request_id: int | None = None
    game_id: str | None = None


class ServerHello(_Message):
    """Extension: sent when a seat is assigned (or regained with a token)."""

    type: Literal["HELLO"] = "HELLO"
    protocol: int = PROTOCOL_VERSION
    player_id: int
    game_id: str
    variant: str
    num_players: int
    token: str
    deadline_ms: int | None = None
    max_frame: int | None = None
    reconnected: bool = False


class ActionPlayed(_Message):
    """Extension: request ``request_id`` was settled without the client's answer (``TIMEOUT``:
    its deadline passed; ``FALLBACK``: its answers were refused until the retries ran out) and
    ``action`` was played for the seat, by ``by`` (``fallback``, or the stand-in bot)."""

    type: Literal["TIMEOUT", "FALLBACK"]
    request_id: int
    phase: str
    action: dict[str, Any]
    by: str
    deadline_ms: int | None = None
    game_id: str | None = None


AnyServerMessage = ActionRequest | GameEvent | ErrorMessage | ServerHello | ActionPlayed
_SERVER_ADAPTER: TypeAdapter[AnyServerMessage] = TypeAdapter(
    Annotated[AnyServerMessage, Field(discriminator="type")]
)


def parse_server_message(data: dict[str, Any]) -> AnyServerMessage:
    """Validate a decoded server message (clients use this); raises ``ValidationError``."""
    return _SERVER_ADAPTER.validate_python(data)


# --- client to server -----------------------------------------------------------------------


class _ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)


class ActionResponse(_ClientMessage):
    """A client's answer. ``player_id`` is informational: the seat is the connection's."""

    type: Literal["ACTION_RESPONSE"] = "ACTION_RESPONSE"
    player_id: Any = None
    action: dict[str, Any]
    request_id: StrictInt | None = None


StateUpdates = Literal["full", "changes", "off"]


class ClientHello(_ClientMessage):
    """Optional first message: ``token`` reclaims a seat after a dropped connection, and
    ``last_seq`` is the last ``GAME_EVENT`` ``seq`` the client holds (the events after it are
    sent again; without it, those sent while it was away); ``state_updates`` chooses the state
    updates this connection gets (``full``: the whole observation after every action, the
    default; ``changes``: only the fields that changed; ``off``: none)."""

    type: Literal["HELLO"] = "HELLO"
    token: Annotated[str, Field(max_length=MAX_TOKEN_LENGTH)] | None = None
    name: Annotated[str, Field(max_length=MAX_NAME_LENGTH)] | None = None
    state_updates: StateUpdates | None = None
    last_seq: Annotated[StrictInt, Field(ge=0)] | None = None


AnyClientMessage = ActionResponse | ClientHello
_CLIENT_ADAPTER: TypeAdapter[AnyClientMessage] = TypeAdapter(
    Annotated[AnyClientMessage, Field(discriminator="type")]
)
_CLIENT_TYPES = ("ACTION_RESPONSE", "HELLO")


class NonFiniteNumber(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a frame: not JSON, never accepted."""


def _refuse_constant(name: str) -> Any:
    raise NonFiniteNumber(f"{name} is not a JSON number; numbers must be finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # e.g. 1e400
        raise NonFiniteNumber(f"{text[:20]} is out of range; numbers must be finite")
    return value


# One decoder for every frame (json.loads with hooks would build one per call).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def decode_json_object(payload: bytes) -> dict[str, Any]:
    """UTF-8 JSON object from a frame payload; raises :class:`ProtocolError` with the reason."""
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        detail = f"frame is not valid UTF-8 ({exc.reason})"
        raise ProtocolError(ErrorCode.BAD_UTF8, detail) from None
    try:
        if text.startswith("\ufeff"):  # as json.loads says it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        data = _DECODER.decode(text)
    except NonFiniteNumber as exc:
        raise ProtocolError(ErrorCode.BAD_FORMAT, str(exc)) from None
    except json.JSONDecodeError as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"frame is not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_JSON, "frame is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise ProtocolError(ErrorCode.BAD_JSON, f"frame is not usable JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"a message is a JSON object, not {type(data).__name__}"
        )
    return data


_CLIENT_FIELDS: dict[str, tuple[str, ...]] = {
    "ACTION_RESPONSE": tuple(ActionResponse.model_fields),
    "HELLO": tuple(ClientHello.model_fields),
}


def _unknown_field_error(kind: str, data: Mapping[str, Any]) -> str | None:
    """A one-line refusal naming the first field ``kind`` does not have (with the closest one it
    has), or None: a misspelt ``reqest_id`` or ``tokn`` is refused, never silently dropped."""
    known = _CLIENT_FIELDS[kind]
    for field in data:
        if field not in known:
            shown = str(field)[:40]
            close = difflib.get_close_matches(str(field), known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            return f"{kind}: unknown field {shown!r}{hint}; its fields are {', '.join(known)}"
    return None


def parse_client_message(payload: bytes) -> ActionResponse | ClientHello:
    """Decode and validate one client frame; every problem becomes a :class:`ProtocolError`."""
    data = decode_json_object(payload)
    kind = data.get("type")
    if kind not in _CLIENT_TYPES:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type {str(kind)[:40]!r}; expected ACTION_RESPONSE or HELLO",
        )
    unknown = _unknown_field_error(kind, data)
    if unknown is not None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, unknown)
    try:
        return _CLIENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "message"
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: {where}: {first['msg']}") from None


def action_played(
    kind: Literal["TIMEOUT", "FALLBACK"],
    request_id: int,
    phase: str,
    action: dict[str, Any],
    *,
    by: str,
    deadline_ms: int | None = None,
    game_id: str | None = None,
) -> dict[str, Any]:
    """A ``TIMEOUT`` or ``FALLBACK`` frame's object (see :class:`ActionPlayed`)."""
    return ActionPlayed(
        type=kind,
        request_id=request_id,
        phase=phase,
        action=action,
        by=by,
        deadline_ms=deadline_ms,
        game_id=game_id,
    ).to_wire()


def error_message(
    code: ErrorCode,
    detail: str | None = None,
    *,
    request_id: int | None = None,
    game_id: str | None = None,
) -> dict[str, Any]:
    """An ``ERROR`` frame's object: the seed's ``message`` plus ``code`` and ``detail``."""
    message: dict[str, Any] = {"type": "ERROR", "message": ERROR_MESSAGES[code], "code": code.value}
    if detail:
        message["detail"] = detail
    if request_id is not None:
        message["request_id"] = request_id
    if game_id is not None:
        message["game_id"] = game_id
    return message
