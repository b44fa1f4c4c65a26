"""Server options (``duskfall serve``); every limit has a safe default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from duskfall.core.rng import MAX_SEED
from duskfall.protocol.framing import DEFAULT_MAX_FRAME
from duskfall.server.stand_in import Policy
from duskfall.store.deals import run_master, run_seed

SERVE = "serve"  # the purpose games of a server are dealt for


class ServerSettings(BaseModel):
    """How the server listens, seats clients, runs and logs games."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(8765, ge=0, le=65535)
    ws_port: int | None = Field(
        None, ge=0, le=65535, description="also serve WebSocket clients on this port"
    )
    variant: str = "sports-mafia"
    config: dict[str, Any] = Field(default_factory=dict, description="variant options")
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="master seed: each game's seed derives from it and the operator's key "
        "(a keyed hash); default: a secret drawn from the OS",
    )
    games: int | None = Field(None, ge=1, description="stop after this many games")
    fill_bots_after: float | None = Field(
        None, ge=0, description="start a game with bots in its empty seats after this many s"
    )
    bot: str = Field("random", description="built-in bot for empty seats and stand-ins")
    stand_in: Policy = Field(
        Policy.FALLBACK, description="plays a silent or departed seat: fallback or bot"
    )
    deadline_ms: int = Field(60_000, ge=1, description="time a client has for one answer")
    bench_after: int = Field(
        2,
        ge=0,
        description="timeouts in a row after which a stand-in plays the seat at once until its "
        "client sends something again (0: never)",
    )
    seat_after_hello: bool = Field(
        False, description="seat a connection only once it sent a HELLO (within hello_timeout)"
    )
    strict: bool = Field(
        True, description="refuse answers not in the documented wire form (bad_format)"
    )
    retries: int = Field(2, ge=0, le=10, description="re-asks after a bad answer")
    reconnect_grace: float = Field(
        30.0, ge=0, description="seconds a dropped client may take to reclaim its seat"
    )
    max_frame: int = Field(DEFAULT_MAX_FRAME, ge=64, description="largest accepted frame, bytes")
    read_timeout: float = Field(10.0, gt=0, description="seconds one frame may take to arrive")
    hello_timeout: float = Field(
        2.0,
        gt=0,
        description="seconds a connection has to send its HELLO when one is needed "
        "(--seat-after-hello, or no seat left to give)",
    )
    hello_grace: float = Field(
        0.2,
        ge=0,
        description="seconds a new connection is given to send a HELLO with a token before it "
        "is seated (a reconnect goes straight back to its seat, never through a new one)",
    )
    max_connections: int = Field(4096, ge=1)
    write_buffer_limit: int = Field(
        default=8 * 1024 * 1024,
        ge=1024,
        description="bytes queued to a client before it is dropped",
    )
    state_updates: bool = Field(
        True, description="after each action, send other seats an empty ACTION_REQUEST"
    )
    log_dir: Path | None = Field(Path("games"), description="JSONL logs; None: no logs")
    _master: bytes | None = PrivateAttr(None)

    @property
    def deadline(self) -> float:
        return self.deadline_ms / 1000.0

    def game_seed(self, index: int) -> int:
        """Game ``index``'s seed, derived by a keyed hash from the server's secret master: the
        master seed keyed with the operator's deal key (:mod:`duskfall.store.deals`), or 256
        bits drawn from the OS at the first game. A finished game's seed tells nothing of the
        master nor of another game's, however small the master seed."""
        if self._master is None:
            self._master = run_master(self.seed, SERVE)
        return run_seed(self._master, SERVE, index)
