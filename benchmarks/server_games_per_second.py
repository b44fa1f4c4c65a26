"""Server CPU per game and games per second: 10 random clients per game over loopback, games
back to back, today's server beside the baseline's (``benchmarks/baseline.py``) in one run.

    python benchmarks/server_games_per_second.py [--games 10] [--blocks 3] [--clients agent]
        [--state-updates full|changes|off] [--log] [--baseline REF]

Both servers (``duskfall serve --no-log``, each on its own code) run for the whole benchmark;
blocks of ``--games`` games alternate between them, so that both see the same machine load.
The server's CPU time (user + system, from psutil) is what a game costs the server; the
clients (duskfall's own ``--agent random`` clients, or the light raw players of
``server_common``) all run in this process and their CPU time is printed beside it.
``--state-updates`` is the HELLO option the clients send (the baseline ignores it and sends
full state updates). For scale it also plays the same games in-process with random bots.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from baseline import SPEED_BASELINE, baseline_src, current_src, load_average
from duskfall.client.agent import AgentClient, AgentPlayer
from duskfall.session import GameSetup, run_game
from server_common import cpu_seconds, seat_group, start_server, stop_server


@dataclass
class Tally:
    """What one server spent on its games."""

    label: str
    games: int = 0
    complete: int = 0
    wall: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0

    def line(self) -> str:
        per_game = 1e3 / max(self.games, 1)
        return (
            f"{self.label:>9}: {self.games} games ({self.complete} complete), "
            f"{self.rate:5.1f} games/s, server CPU {self.server_cpu * per_game:6.1f} ms/game, "
            f"clients' CPU {self.client_cpu * per_game:6.1f} ms/game"
        )

    @property
    def rate(self) -> float:
        return self.games / self.wall


async def agent_game(port: int, seed: int, state_updates: str | None) -> bool:
    clients = [
        AgentClient(
            "127.0.0.1",
            port,
            AgentPlayer("random", seed=seed * 10 + i),
            state_updates=state_updates,  # type: ignore[arg-type]
        )
        for i in range(10)
    ]
    for client in clients:
        await client.connect()
    results = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 60)
    for client in clients:
        await client.close()
    return all(r is not None for r in results)


async def raw_game(port: int, seed: int, state_updates: str | None) -> bool:
    players = await seat_group(port, 10, seed, state_updates)
    results = await asyncio.gather(*(p.play(60) for p in players))
    return all(results)


async def block(
    tally: Tally, pid: int, port: int, games: int, first_seed: int, args: argparse.Namespace
) -> None:
    """Play ``games`` games on one server; add their cost to ``tally``."""
    play = agent_game if args.clients == "agent" else raw_game
    cpu, clients, start = cpu_seconds(pid), time.process_time(), time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        tally.complete += await play(port, seed, args.state_updates)
    tally.wall += time.perf_counter() - start
    tally.client_cpu += time.process_time() - clients
    tally.server_cpu += cpu_seconds(pid) - cpu
    tally.games += games


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="games per block")
    parser.add_argument("--blocks", type=int, default=3, help="blocks per server")
    parser.add_argument("--clients", choices=("agent", "raw"), default="agent")
    parser.add_argument("--state-updates", choices=("full", "changes", "off"), default=None)
    parser.add_argument("--log", action="store_true", help="servers write their game logs")
    parser.add_argument("--baseline", default=SPEED_BASELINE, help="commit to compare with")
    args = parser.parse_args()
    sources: dict[str, Path] = {"baseline": baseline_src(args.baseline), "today": current_src()}
    servers = {}
    with tempfile.TemporaryDirectory() as logs:
        for label, src in sources.items():
            log = ["--log-dir", f"{logs}/{label}"] if args.log else ["--no-log"]
            servers[label] = await start_server("--seed", "1", *log, src=src)
        try:
            tallies = {label: Tally(label) for label in sources}
            for label, (process, port) in servers.items():  # warm-up, not counted
                await block(Tally(label), process.pid, port, 1, 10_000, args)
            for number in range(args.blocks):
                for label, (process, port) in servers.items():
                    await block(
                        tallies[label], process.pid, port, args.games, number * args.games, args
                    )
        finally:
            for process, _port in servers.values():
                await stop_server(process)
    played = tallies["today"].games
    start = time.perf_counter()
    for seed in range(played):
        await run_game(GameSetup(variant="sports-mafia", seed=seed, write_log=False))
    local = time.perf_counter() - start
    base, today = tallies["baseline"], tallies["today"]
    print(f"clients: {args.clients}, HELLO state_updates: {args.state_updates or '(none)'}")
    print(f"baseline: {args.baseline}; {args.blocks} alternating blocks of {args.games} games")
    print(base.line())
    print(today.line())
    print(
        f"server CPU per game, baseline / today: {base.server_cpu / today.server_cpu:.2f}x; "
        f"games per second, today / baseline: {today.rate / base.rate:.2f}x"
    )
    print(f"in-process (no network, no log, today's code): {played / local:.1f} games/s")
    print(load_average())


if __name__ == "__main__":
    asyncio.run(main())
