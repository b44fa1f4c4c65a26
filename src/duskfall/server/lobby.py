"""The lobby: puts each new connection in the next free seat of the open room, opens rooms as
they fill (many games at once on one port), finds seats by reconnect token, counts games."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from duskfall.core.outcome import Outcome
from duskfall.core.variant import Variant
from duskfall.server.connection import Connection
from duskfall.server.remote_seat import RemoteSeat
from duskfall.server.room import Room
from duskfall.server.settings import ServerSettings
from duskfall.session import new_game_id

Placement = tuple[Room, RemoteSeat]
RESULTS_KEPT = 10_000


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, as the lobby remembers it."""

    game_id: str
    outcome: Outcome | None
    log_path: Path | None


class Lobby:
    """Seats connections in rooms; ``games_done`` counts finished games."""

    def __init__(
        self,
        variant: Variant,
        num_seats: int,
        settings: ServerSettings,
        *,
        on_game_done: Callable[[GameResult], None] = lambda result: None,
    ) -> None:
        self._on_game_done = on_game_done
        self.variant = variant
        self.num_seats = num_seats
        self.settings = settings
        self.rooms: dict[str, Room] = {}
        self.open_room: Room | None = None
        self.games_created = 0
        self.games_done = 0
        self._token_rooms: dict[str, Room] = {}
        self.results: deque[GameResult] = deque(maxlen=RESULTS_KEPT)

    @property
    def accepting(self) -> bool:
        """False once every game allowed by ``--games`` has been opened and filled."""
        if self.open_room is not None and self.open_room.has_free_seat():
            return True
        limit = self.settings.games
        return limit is None or self.games_created < limit

    @property
    def all_games_done(self) -> bool:
        limit = self.settings.games
        return limit is not None and self.games_done >= limit

    def seat(self, connection: Connection) -> Placement | None:
        """The next free seat for ``connection``, or None when no more games will be played."""
        room = self.open_room
        if room is None or not room.has_free_seat():
            if not self.accepting:
                return None
            room = self._open_room()
        seat = room.join(connection)
        assert seat.token is not None
        self._token_rooms[seat.token] = room
        if not room.has_free_seat():
            self.open_room = None
        return room, seat

    def _open_room(self) -> Room:
        seed = self.settings.game_seed(self.games_created)
        self.games_created += 1
        room = Room(
            self.variant,
            self.num_seats,
            self.settings,
            game_id=new_game_id(self.variant.id),
            seed=seed,
            on_finished=self._finished,
        )
        self.rooms[room.game_id] = room
        self.open_room = room
        return room

    def reclaim(
        self,
        token: str,
        connection: Connection,
        current: Placement | None,
        last_seq: int | None = None,
    ) -> Placement | None:
        """Move ``connection`` (from its fresh seat, if any) to the seat of ``token``; it is
        sent the events after ``last_seq`` (None: those it missed while away).

        None if the token is unknown or its seat can no longer be reclaimed.
        """
        room = self._token_rooms.get(token)
        if room is None:
            return None
        if current is not None and current[1].token == token:
            return current
        seat = room.reclaim(token, connection, last_seq)
        if seat is None:
            return None
        if current is not None:
            self._release(current, connection)
        return room, seat

    def _release(self, placement: Placement, connection: Connection) -> None:
        room, seat = placement
        room.leave(seat, connection)
        if room.started:  # the fresh seat's game had already begun: it plays on without us
            seat.abandon()
        if self.open_room is None and room.has_free_seat():
            self.open_room = room

    def _finished(self, room: Room) -> None:
        self.games_done += 1
        self.rooms.pop(room.game_id, None)
        for token in [t for t, r in self._token_rooms.items() if r is room]:
            del self._token_rooms[token]
        if self.open_room is room:
            self.open_room = None
        log_path = room.game.log_path if room.game else None
        result = GameResult(room.game_id, room.outcome, log_path)
        self.results.append(result)
        self._on_game_done(result)
