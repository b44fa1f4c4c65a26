"""Client-side protocol state shared by the blocking and the asyncio client (no I/O here).

:class:`ClientSession` decodes whatever bytes arrive (partial frames, several frames in one
read), validates each server message, remembers the seat, game, reconnect token and the game's
end, and the seat's latest observation (state updates asked for as ``changes`` carry only the
fields that changed: they are merged in), and encodes the client's frames.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from duskfall.protocol.errors import ProtocolError
from duskfall.protocol.framing import DEFAULT_MAX_FRAME, FrameDecoder, FrameError, encode_message
from duskfall.protocol.messages import (
    ActionPlayed,
    ActionRequest,
    AnyServerMessage,
    ErrorMessage,
    GameEvent,
    ServerHello,
    StateUpdates,
    decode_json_object,
    parse_server_message,
)

log = logging.getLogger(__name__)

RequestHandler = Callable[[ActionRequest], Any]
EventHandler = Callable[[GameEvent], None]
ErrorHandler = Callable[[ErrorMessage], None]
HelloHandler = Callable[[ServerHello], None]


class ClientSession:
    """What a client knows about its connection: seat, game, token, last error, the end."""

    def __init__(self, *, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        self.decoder = FrameDecoder(max_frame)
        self.player_id: int | None = None
        self.game_id: str | None = None
        self.variant: str | None = None
        self.token: str | None = None
        self.game_over: GameEvent | None = None
        self.last_error: ErrorMessage | None = None
        self.messages_in = 0
        self.observation: dict[str, Any] = {}  # the latest, with partial updates merged in
        self.last_seq: int | None = None  # the number of the last GAME_EVENT received
        self.played: list[ActionPlayed] = []  # requests settled without our answer

    @property
    def finished(self) -> bool:
        return self.game_over is not None

    def reset_stream(self) -> None:
        """Forget a half-read frame (after reconnecting on a new socket)."""
        self.decoder = FrameDecoder(self.decoder.max_frame)

    def receive(self, data: bytes) -> list[AnyServerMessage]:
        """Messages completed by ``data``; malformed ones are logged and skipped."""
        messages: list[AnyServerMessage] = []
        for payload in self.decoder.feed(data):
            try:
                message = parse_server_message(decode_json_object(payload))
            except (ProtocolError, ValidationError) as exc:
                log.warning("ignoring a server message I cannot read: %s", exc)
                continue
            self._note(message)
            messages.append(message)
        return messages

    def _note(self, message: AnyServerMessage) -> None:
        self.messages_in += 1
        if isinstance(message, ServerHello):
            self.player_id = message.player_id
            self.game_id = message.game_id
            self.variant = message.variant
            self.token = message.token
        elif isinstance(message, ActionRequest):
            self.player_id = message.player_id
            self.game_id = message.game_id or self.game_id
            self._observe(message)
        elif isinstance(message, ErrorMessage):
            self.last_error = message
        elif isinstance(message, ActionPlayed):
            self.played.append(message)
        else:
            self.last_seq = message.seq if message.seq is not None else self.last_seq
            if message.event == "GAME_OVER":
                self.game_over = message

    def _observe(self, request: ActionRequest) -> None:
        if not request.partial:
            self.observation = dict(request.observation)
            return
        for name, value in request.observation.items():
            if value is None:
                self.observation.pop(name, None)
            else:
                self.observation[name] = value

    def response(self, action: dict[str, Any], request: ActionRequest) -> bytes:
        """The ``ACTION_RESPONSE`` frame answering ``request`` (its ``request_id`` echoed)."""
        message: dict[str, Any] = {
            "type": "ACTION_RESPONSE",
            "player_id": request.player_id,
            "action": action,
        }
        if request.request_id is not None:
            message["request_id"] = request.request_id
        return encode_message(message)

    def hello(
        self,
        *,
        token: str | None = None,
        name: str | None = None,
        state_updates: StateUpdates | None = None,
    ) -> bytes:
        """A ``HELLO``; with a token (a reconnect), the last event number received, so that
        the server sends again exactly the events after it."""
        message: dict[str, Any] = {"type": "HELLO"}
        if token:
            message["token"] = token
            if self.last_seq is not None:
                message["last_seq"] = self.last_seq
        if name:
            message["name"] = name
        if state_updates:
            message["state_updates"] = state_updates
        return encode_message(message)


class Callbacks:
    """The seed's callback style: pass callables, or subclass and override the methods."""

    def __init__(
        self,
        on_action_request: RequestHandler | None = None,
        on_event: EventHandler | None = None,
        on_error: ErrorHandler | None = None,
        on_hello: HelloHandler | None = None,
    ) -> None:
        self._on_action_request = on_action_request
        self._on_event = on_event
        self._on_error = on_error
        self._on_hello = on_hello

    def on_event(self, event: GameEvent) -> None:
        """A ``GAME_EVENT`` (including ``GAME_OVER``)."""
        if self._on_event is not None:
            self._on_event(event)

    def on_error(self, error: ErrorMessage) -> None:
        """An ``ERROR``; the server asks again when an answer was refused."""
        if self._on_error is not None:
            self._on_error(error)
        else:
            log.info("server error: %s (%s) %s", error.message, error.code, error.detail or "")

    def on_hello(self, hello: ServerHello) -> None:
        """The server's ``HELLO``: seat, game and reconnect token."""
        if self._on_hello is not None:
            self._on_hello(hello)

    def on_played(self, played: ActionPlayed) -> None:
        """A ``TIMEOUT`` or ``FALLBACK``: a request was settled without our answer."""
        log.info(
            "request %d (%s): %s; %s played %s",
            played.request_id,
            played.phase,
            "no answer in time" if played.type == "TIMEOUT" else "answers refused",
            played.by,
            played.action,
        )

    def notify(self, message: AnyServerMessage) -> ActionRequest | None:
        """Run the callback for ``message``; return it if it is a request that needs an answer."""
        if isinstance(message, ActionRequest):
            return message if message.needs_answer else None
        if isinstance(message, GameEvent):
            self.on_event(message)
        elif isinstance(message, ErrorMessage):
            self.on_error(message)
        elif isinstance(message, ActionPlayed):
            self.on_played(message)
        else:
            self.on_hello(message)
        return None


class ClientBase(Callbacks):
    """What both clients share: where to connect, the callbacks and the protocol session."""

    def __init__(
        self,
        host: str = "localhost",
        port: int = 8765,
        *,
        name: str | None = None,
        on_action_request: RequestHandler | None = None,
        on_event: EventHandler | None = None,
        on_error: ErrorHandler | None = None,
        on_hello: HelloHandler | None = None,
        connect_timeout: float = 10.0,
        max_frame: int = DEFAULT_MAX_FRAME,
        send_hello: bool = False,
        state_updates: StateUpdates | None = None,
        reconnects: int = 3,
    ) -> None:
        """``send_hello``: open with a ``HELLO`` even without a token or name (a server started
        with ``--seat-after-hello`` seats only connections that send one). ``state_updates``:
        ask for ``changes`` (or ``off``) instead of the full observation after every action.
        ``reconnects``: tries to reclaim the seat when the connection drops before the end
        (the asyncio client; 0: none)."""
        super().__init__(on_action_request, on_event, on_error, on_hello)
        self.reconnects = reconnects
        self.send_hello = send_hello
        self.state_updates = state_updates
        self.host = host
        self.port = port
        self.name = name
        self.connect_timeout = connect_timeout
        self.session = ClientSession(max_frame=max_frame)
        self._setup()

    def _setup(self) -> None:
        """Initialise the transport's own fields (subclasses)."""

    def _requests_in(self, data: bytes) -> list[ActionRequest] | None:
        """Decode ``data``, run the callbacks, and return the requests to answer (in order);
        None when the server's stream cannot be read any more."""
        try:
            messages = self.session.receive(data)
        except FrameError as exc:
            log.error("cannot read the server's stream: %s", exc)
            return None
        return [request for m in messages if (request := self.notify(m)) is not None]
