"""Where a server's CPU goes: ``duskfall serve --games N`` profiled, N games of 10 raw clients.

The server runs in its own process under cProfile (CPU time), or, with ``--gc``, with the
garbage collector's time per generation and the cyclic garbage a game leaves (the objects
freed only by the collector, not by reference counting) instead. The clients are the light
random players of ``server_common``. Profiler overhead inflates Python-level code against C
calls: read the shares, not the absolute times.

    python benchmarks/profile_server.py --games 20                 # self time by area, top calls
    python benchmarks/profile_server.py --games 20 --gc            # GC time and cyclic garbage
    python benchmarks/profile_server.py --games 60 --sample        # sampled: true shares
    python benchmarks/profile_server.py --state-updates changes
    python benchmarks/profile_server.py --src ../main/src       # another checkout's server
    python benchmarks/profile_server.py --save server.prof      # keep the raw stats too
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import pstats
import re
import sys
import tempfile
from pathlib import Path

from baseline import current_src, load_average, python_with
from server_common import seat_group

_PROFILED = """
import cProfile, sys, time
from duskfall.cli import main
out = sys.argv.pop(1)
profile = cProfile.Profile(time.process_time)
profile.enable()
try:
    main()
except SystemExit:
    pass
finally:
    profile.disable()
    profile.dump_stats(out)
"""

_SAMPLED = """
import collections, signal, sys
from duskfall.cli import main
out = sys.argv.pop(1)
inclusive, own = collections.Counter(), collections.Counter()
samples = [0]
def where(frame):
    return frame.f_code.co_filename.split("site-packages/")[-1].split("python3.11/")[-1].split(
        "src/")[-1] + ":" + frame.f_code.co_name
def sample(signum, frame):
    samples[0] += 1
    own[where(frame)] += 1
    seen = set()
    while frame is not None:
        seen.add(where(frame))
        frame = frame.f_back
    inclusive.update(seen)
signal.signal(signal.SIGPROF, sample)
signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
try:
    main()
except SystemExit:
    pass
signal.setitimer(signal.ITIMER_PROF, 0, 0)
with open(out, "w") as handle:
    total = max(samples[0], 1)
    handle.write(f"{samples[0]} samples (1 ms of CPU each)\\n\\n## inclusive\\n")
    for name, count in inclusive.most_common(80):
        handle.write(f"{100 * count / total:5.1f}%  {name}\\n")
    areas = collections.Counter()
    for name, count in own.items():
        path = name.split(":")[0]
        parts = path.split("/")
        areas["/".join(parts[:2]) if parts[0] == "duskfall" else parts[0]] += count
    handle.write("\\n## self by area\\n")
    for name, count in areas.most_common(15):
        handle.write(f"{100 * count / total:5.1f}%  {name}\\n")
    handle.write("\\n## self\\n")
    for name, count in own.most_common(45):
        handle.write(f"{100 * count / total:5.1f}%  {name}\\n")
"""

_COLLECTED = """
import collections, gc, sys, time
from gc_timing import GcTimer
out = sys.argv.pop(1)
from duskfall.cli import main
with GcTimer() as timer:
    try:
        main()
    except SystemExit:
        pass
gc.disable()  # what is left in cycles now was left by the games, after the last collection
gc.set_debug(gc.DEBUG_SAVEALL)
gc.collect()
kinds = collections.Counter(type(item).__name__ for item in gc.garbage)
with open(out, "w") as handle:
    for generation, (count, seconds) in timer.spent.items():
        handle.write(f"generation {generation}: {count:.0f} collections, {seconds * 1e3:.0f} ms\\n")
    handle.write(f"process CPU {time.process_time():.2f} s\\n")
    handle.write(f"cyclic garbage left: {len(gc.garbage)} objects: {kinds.most_common(12)}\\n")
"""


async def serve_and_play(code: str, out: Path, args: argparse.Namespace) -> None:
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        str(out),
        *("serve", "--host", "127.0.0.1", "--port", "0", "--no-log", "--seed", "1"),
        *("--games", str(args.games)),
        stdout=asyncio.subprocess.PIPE,
        env=python_with(args.src),
    )
    assert server.stdout is not None
    banner = (await asyncio.wait_for(server.stdout.readline(), 60)).decode()
    found = re.search(r":(\d+) ", banner)
    if found is None:
        raise SystemExit(f"server did not start: {banner!r}")
    port = int(found.group(1))
    for seed in range(args.games):
        players = await seat_group(port, 10, seed, args.state_updates)
        if not all(await asyncio.gather(*(player.play(60) for player in players))):
            raise SystemExit(f"game {seed} did not finish")
    await server.wait()


def by_area(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Self time per area: duskfall's packages, asyncio, and C calls by name."""
    areas: collections.Counter[str] = collections.Counter()
    for (file, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        if "duskfall/" in file:
            area = "duskfall/" + file.split("duskfall/")[-1].split("/")[0]
        elif "asyncio" in file:
            area = "asyncio (stdlib)"
        elif file == "~":
            area = f"C: {function}"
        else:
            area = Path(file).name
        areas[area] += row[2]
    return areas.most_common(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--state-updates", choices=("full", "changes", "off"), default=None)
    parser.add_argument("--gc", action="store_true", help="GC time and cyclic garbage instead")
    parser.add_argument(
        "--sample", action="store_true", help="CPU-time sampling (no cProfile inflation) instead"
    )
    parser.add_argument("--top", type=int, default=30, help="functions listed")
    parser.add_argument("--save", type=Path, help="also keep the raw cProfile stats there")
    parser.add_argument(
        "--src", type=Path, default=current_src(), help="the duskfall source to serve from"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "server.out"
        code = _COLLECTED if args.gc else _SAMPLED if args.sample else _PROFILED
        asyncio.run(serve_and_play(code, out, args))
        print(
            f"# duskfall serve --no-log ({args.src}), {args.games} games of 10 raw random "
            f"clients, state updates {args.state_updates or 'full'}; {load_average()}"
        )
        if args.gc or args.sample:
            print(out.read_text(), end="")
            return
        stats = pstats.Stats(str(out))
        if args.save is not None:
            stats.dump_stats(str(args.save))
        total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
        print(f"# CPU-time cProfile, start-up included; self time {total:.2f} s\n")
        for area, seconds in by_area(stats):
            print(f"{seconds:7.2f}s {100 * seconds / total:5.1f}%  {area}")
        print()
        stats.sort_stats("cumulative").print_stats(r"duskfall/(server|protocol|runtime)", args.top)


if __name__ == "__main__":
    main()
