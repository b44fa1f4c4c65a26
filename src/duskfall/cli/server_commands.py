"""``serve`` (the game server) and ``connect`` (join a server with built-in agents)."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from duskfall.cli import app
from duskfall.cli.common import (
    HelloTimeout,
    SeatToken,
    check_port,
    parse_config_options,
    resolve_variant,
    with_preset,
)
from duskfall.cli.console import safe_console
from duskfall.client.agent import AgentClient, AgentPlayer
from duskfall.client.aio import NoHello
from duskfall.core.errors import ConfigError
from duskfall.core.rng import check_seed, game_seeds
from duskfall.core.terminal import guard_logging, plain
from duskfall.protocol.framing import DEFAULT_MAX_FRAME
from duskfall.protocol.messages import GameEvent
from duskfall.server import GameServer, ServerSettings
from duskfall.server.lobby import GameResult
from duskfall.server.stand_in import Policy
from duskfall.store.files import prepare_log_dir
from duskfall.store.indexing import check_game_index

console = safe_console()


@app.command()
def serve(
    variant: Annotated[str, typer.Option("--variant", "-v", help="game to serve")] = "sports-mafia",
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port (0: any free port)")] = 8765,
    ws: Annotated[
        int | None,
        typer.Option(
            "--ws",
            help="also serve the same messages over WebSocket on this port (one message per "
            "frame; needs duskfall[web])",
        ),
    ] = None,
    games: Annotated[int | None, typer.Option(help="stop after this many games")] = None,
    fill_bots_after: Annotated[
        float | None,
        typer.Option(
            help="start a game this many seconds after its first client, bots in the empty seats"
        ),
    ] = None,
    bot: Annotated[str, typer.Option(help="built-in bot for empty seats / stand-ins")] = "random",
    stand_in: Annotated[
        Policy, typer.Option(help="plays a silent or departed seat: fallback or bot")
    ] = Policy.FALLBACK,
    deadline_ms: Annotated[int, typer.Option(help="milliseconds a client has per answer")] = 60000,
    retries: Annotated[int, typer.Option(help="re-asks after a refused answer")] = 2,
    bench_after: Annotated[
        int,
        typer.Option(
            help="timeouts in a row after which a stand-in plays the seat until its client "
            "sends something again (0: never)"
        ),
    ] = 2,
    seat_after_hello: Annotated[
        bool,
        typer.Option(
            "--seat-after-hello",
            help="seat a connection only after its HELLO (idle connections start no games)",
        ),
    ] = False,
    lenient: Annotated[
        bool,
        typer.Option(
            "--lenient",
            help="accept answers outside the documented wire form, as the reference server "
            'did (e.g. a missing type, "vote", "3" as a target)',
        ),
    ] = False,
    reconnect_grace: Annotated[
        float, typer.Option(help="seconds a dropped client may take to reclaim its seat")
    ] = 30.0,
    max_frame: Annotated[int, typer.Option(help="largest accepted frame in bytes")] = (
        DEFAULT_MAX_FRAME
    ),
    read_timeout: Annotated[float, typer.Option(help="seconds one frame may take")] = 10.0,
    max_connections: Annotated[int, typer.Option(help="simultaneous connections")] = 4096,
    state_updates: Annotated[
        bool, typer.Option(help="send other seats an empty ACTION_REQUEST after each action")
    ] = True,
    log_dir: Annotated[Path, typer.Option(help="directory of the game logs")] = Path("games"),
    no_log: Annotated[bool, typer.Option("--no-log", help="do not write game logs")] = False,
    seed: Annotated[
        int | None,
        typer.Option(help="master seed: each game's seed is derived from it by a keyed hash"),
    ] = None,
    preset: Annotated[str | None, typer.Option(help="role preset (werewolf)")] = None,
    set_: Annotated[
        list[str] | None, typer.Option("--set", help="config option KEY=VALUE (repeatable)")
    ] = None,
    config_file: Annotated[str | None, typer.Option(help="JSON config file")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", help="log connections and errors")] = False,
) -> None:
    """Serve games over TCP (8-byte big-endian length + UTF-8 JSON frames, seed 001 protocol),
    and with --ws over WebSocket."""
    guard_logging(logging.INFO if verbose else logging.WARNING)
    settings = ServerSettings(
        host=host,
        port=port,
        ws_port=ws,
        variant=variant,
        config=with_preset(
            parse_config_options(set_, config_file), preset, resolve_variant(variant)
        ),
        seed=None if seed is None else check_seed(seed, "--seed"),
        games=games,
        fill_bots_after=fill_bots_after,
        bot=bot,
        stand_in=stand_in,
        deadline_ms=deadline_ms,
        retries=retries,
        bench_after=bench_after,
        seat_after_hello=seat_after_hello,
        strict=not lenient,
        reconnect_grace=reconnect_grace,
        max_frame=max_frame,
        read_timeout=read_timeout,
        max_connections=max_connections,
        state_updates=state_updates,
        log_dir=None if no_log else log_dir,
    )
    asyncio.run(_serve(settings))


async def _serve(settings: ServerSettings) -> None:
    def report(result: GameResult) -> None:
        outcome = result.outcome
        winner = (outcome.winner or "nobody") if outcome else "nobody"
        how = outcome.termination.value if outcome else "aborted"
        where = f" -> {result.log_path}" if result.log_path else ""
        console.print(
            f"game {result.game_id}: {winner} ({how}){where}", soft_wrap=True, markup=False
        )

    if settings.log_dir is not None:  # before any client connects, not inside the first game
        prepare_log_dir(settings.log_dir)  # /dev/null, a file, a read-only place: one line
        check_game_index()
    server = GameServer(settings, on_game_done=report)
    if settings.bot not in server.variant.bots():
        raise ConfigError(
            f"unknown bot {settings.bot!r} for {server.variant.id}; "
            f"valid bots: {', '.join(server.variant.bots())}"
        )
    await server.start()
    # everything imported so far lives as long as the process: out of the collector's sight,
    # full collections (triggered by each game's garbage) no longer scan it again and again
    gc.freeze()
    limit = f", stops after {settings.games} game(s)" if settings.games else ""
    websocket = f", WebSocket on ws://{settings.host}:{server.ws_port}/" if server.ws_port else ""
    console.print(
        f"serving {server.variant.id} on {settings.host}:{server.port}{websocket}"
        f" ({server.lobby.num_seats} seats per game{limit})",
        highlight=False,
        soft_wrap=True,
    )
    try:
        await server.serve()
    finally:
        await server.close()


@app.command()
def connect(
    host: Annotated[str, typer.Option(help="server address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="server port")] = 8765,
    agent: Annotated[
        str, typer.Option("--agent", "-a", help="random, heuristic, llm:<model spec>, ...")
    ] = "random",
    count: Annotated[int, typer.Option(help="how many clients to start at once")] = 1,
    variant: Annotated[
        str, typer.Option(help="game, if the server does not say (it does in its HELLO)")
    ] = "sports-mafia",
    seed: Annotated[
        int, typer.Option(help="master seed of the agents' choices (one derived per client)")
    ] = 0,
    name: Annotated[str | None, typer.Option(help="name sent to the server")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="print only failures")] = False,
    token: SeatToken = None,
    timeout: HelloTimeout = 10.0,
) -> None:
    """Join a server with built-in agents; each plays one game."""
    if count < 1:
        raise ConfigError("--count must be at least 1")
    if token is not None and count != 1:
        raise ConfigError("--token names one seat: use it with --count 1")
    check_port(port)
    seeds = game_seeds(check_seed(seed, "--seed"), "connect", range(count))
    players = [AgentPlayer(agent, variant=variant, seed=s) for s in seeds]
    results = asyncio.run(_connect(host, port, players, name, token, timeout))
    unreachable = [r for _, r in results if isinstance(r, NoHello | ConfigError)]
    if len(unreachable) == len(results):  # no client got in: one line, as for a bad option
        raise ConfigError(str(unreachable[0]))
    failed = 0
    for index, (client, game_over) in enumerate(results):
        seat = plain(client.session.player_id, one_line=True)  # all a server says is data
        if isinstance(game_over, BaseException):
            failed += 1
            console.print(f"client {index}: [red]failed[/]: {plain(game_over)}")
        elif game_over is None:
            failed += 1
            console.print(f"client {index} (seat {seat}): [red]connection closed before the end[/]")
        elif not quiet:
            console.print(
                f"client {index}: seat {seat} of {plain(client.session.game_id, one_line=True)}: "
                f"winner {plain(game_over.payload.get('winner'), one_line=True)}",
                highlight=False,
            )
    if failed:
        sys.exit(1)  # a plain exit status: typer.Exit's code is not propagated by main()


async def _connect(
    host: str,
    port: int,
    players: list[AgentPlayer],
    name: str | None,
    token: str | None,
    timeout: float,
) -> list[tuple[AgentClient, GameEvent | BaseException | None]]:
    clients = [
        AgentClient(host, port, player, name=name, connect_timeout=timeout) for player in players
    ]

    async def play(client: AgentClient) -> GameEvent | None:
        try:
            await client.connect(token=token)
        except (OSError, TimeoutError) as exc:
            raise ConfigError(f"cannot connect to {host}:{port}: {exc}") from None
        try:
            return await client.run()
        finally:
            await client.close()

    outcomes = await asyncio.gather(*(play(c) for c in clients), return_exceptions=True)
    return list(zip(clients, outcomes, strict=True))
