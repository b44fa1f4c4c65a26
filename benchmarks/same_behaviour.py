"""Do two codes play, log, show, score, encode and serve the same games? (for refactors)

Each code (today's working tree and a baseline commit, see ``benchmarks/baseline.py``) runs in
a child process and digests, part by part:

* ``engine``: every golden-file table (``tests/golden/*.json``), random and heuristic bots,
  ``--seeds`` seeds each: every observation asked, action, event and outcome (the engine loop
  of ``engine_loops.py``);
* ``logs``: games through the whole runtime and log (``session.run_game``) with random,
  heuristic, ``llm:scripted`` and ``cognitive:scripted`` seats: every logged event (so every
  prompt and reply of a model seat), volatile fields (times, ids, latencies) left out;
* ``web``: those logs through the web timeline (each event's line, scope, reveals, votes,
  ballot, marks and the seats that see it); ``cards``: a seat's card at every decision of
  random games of every golden table;
* ``metrics``: the tournament behaviour metrics of every seat of those logs;
* ``learn``: PettingZoo games of every variant (vector observations, masks, rewards; sports
  mafia's tokens too);
* ``wire``: the frames a remote client receives over TCP (game ids and tokens masked), one
  remote seat answering from the decoded legal view, the others bots;
* ``lab``: logged games forked at every phase boundary (their own agents, then random seats
  with another seed) and at a replaced speech, ``fork --samples`` of one position and the win
  line (every phase, every round, one moment) of each: every fork's events and what came out;
* ``board``: bot tournaments (a ``duplicate`` one, a ``mixed`` one stopped by the sequential
  rule) and their report: its JSON, both CSV files, the terminal
  tables and the HTML file (the behaviour tables left out of the last two: their columns come
  from the report's registry of columns since it was made).

    python benchmarks/same_behaviour.py --baseline main       # today against main
    python benchmarks/same_behaviour.py --baseline HEAD --dump /tmp/a   # keep the records
    python benchmarks/same_behaviour.py --child PART          # one part's digests, this code

Both codes run under one fixed operator key (``$DUSKFALL_KEY_FILE``), since the server's and the
tournaments' deals are keyed with it. A part that differs is printed with its digests;
``--dump DIR`` keeps each code's records (one line per item) so that ``diff`` shows the first
difference.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import functools
import hashlib
import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "logs", "web", "metrics", "learn", "wire", "lab", "board")
VOLATILE = {
    "game_id",
    "started_at",
    "ended_at",
    "latency_s",
    "mean_latency_s",
    "queue_s",
    "elapsed_s",
    "time",
    "ts",
    "at",
    "wall_s",
    "versions",
    "hash",
    "chain",
    "token",
    "seat_token",
    "deadline_ms",
    "duration_s",
}


def golden_tables() -> list[tuple[str, str, dict[str, Any]]]:
    """The golden files' tables this code can play (a table of a newer role is left out)."""
    from duskfall.core.errors import DuskfallError
    from duskfall.core.registry import get_variant
    from duskfall.core.variant import parse_config

    tables = []
    for path in sorted((ROOT / "tests" / "golden").glob("*.json")):
        data = json.loads(path.read_text())
        config = data.get("config") or {}
        try:
            parse_config(get_variant(data["variant"]), config)
        except DuskfallError:
            continue
        tables.append((path.stem, data["variant"], config))
    return tables


def scrub(value: Any) -> Any:
    """``value`` without volatile fields (times, ids, latencies, tokens)."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value


class Digest:
    """A sha256 over records, optionally also written one per line to a dump file."""

    def __init__(self, dump: Path | None) -> None:
        self.sha = hashlib.sha256()
        self.out = dump.open("w") if dump is not None else None

    def add(self, item: Any) -> None:
        text = json.dumps(item, sort_keys=True, default=repr)
        self.sha.update(text.encode())
        if self.out is not None:
            self.out.write(text + "\n")

    def hexdigest(self) -> str:
        if self.out is not None:
            self.out.close()
        return self.sha.hexdigest()[:16]


# ---------------------------------------------------------------- engine


def engine(seeds: int, dump: Path | None) -> dict[str, str]:
    from duskfall.core.registry import get_variant
    from duskfall.core.rng import derive_rng
    from duskfall.core.variant import parse_config
    from duskfall.runtime.participant import LazyObservation

    out = {}
    for name, variant_id, data in golden_tables():
        variant = get_variant(variant_id)
        config = parse_config(variant, data)
        for bot in ("random", "heuristic"):
            key = f"engine/{name}/{bot}"
            digest = Digest(dump / key.replace("/", "_") if dump else None)
            factory = variant.bots()[bot]
            for seed in range(seeds):
                state = variant.new_game(config, seed)
                bots = [factory(s, derive_rng(seed, f"agent:{s}")) for s in range(state.num_seats)]
                digest.add([e.to_dict() for e in state.opening_events()])
                while state.outcome() is None:
                    actions = {}
                    for decision in state.pending():
                        seat = decision.seat
                        obs = LazyObservation(functools.partial(state.observe, seat))
                        digest.add([seat, decision.kind, obs.to_dict()])
                        actions[seat] = bots[seat].act(obs, state.legal(seat))
                    for seat in sorted(actions):
                        events = state.apply(seat, actions[seat])
                        digest.add([seat, actions[seat].to_dict(), [e.to_dict() for e in events]])
                digest.add(repr(state.outcome()))
            out[key] = digest.hexdigest()
    return out


# ---------------------------------------------------------------- logs, web, metrics

LOG_AGENTS = ("random", "heuristic", "llm:scripted", "cognitive:scripted")
LOG_TABLES = ("werewolf-6", "werewolf-9", "mafia", "mafia-multi-role", "sports-mafia")


def play_logs(folder: Path, seeds: int) -> Iterator[tuple[str, Path]]:
    """Logged games of a few tables with each kind of agent: (name, log path)."""
    from duskfall.runtime.settings import RuntimeSettings
    from duskfall.session import GameSetup, run_game

    tables = {name: (v, c) for name, v, c in golden_tables()}
    for table in LOG_TABLES:
        variant_id, config = tables[table]
        for agents in LOG_AGENTS:
            count = seeds if agents in ("random", "heuristic") else max(1, seeds // 4)
            if agents.startswith("cognitive") and variant_id == "sports-mafia":
                count = 1
            for seed in range(count):
                name = f"{table}/{agents}/{seed}"
                path = folder / f"{table}-{agents.replace(':', '_')}-{seed}.jsonl"
                setup = GameSetup(
                    variant=variant_id,
                    seed=seed,
                    agents=agents,
                    config=config,
                    game_id=f"g-{table}-{seed}",
                    log_path=path,
                    settings=RuntimeSettings(),
                )
                asyncio.run(run_game(setup))
                yield name, path


def logs_web_metrics(seeds: int, dump: Path | None) -> dict[str, str]:
    try:
        from duskfall.report.metrics import seat_metrics
    except ImportError:  # a commit before the report package
        from duskfall.arena.metrics import seat_metrics
    from duskfall.store.log import read_log

    digests = {p: Digest(dump / p if dump else None) for p in ("logs", "web", "metrics")}
    with tempfile.TemporaryDirectory() as folder:
        for name, path in play_logs(Path(folder), seeds):
            log = read_log(path)
            digests["logs"].add([name, scrub(log.header.config), scrub(log.header.roster)])
            for event in log.events:
                digests["logs"].add(scrub(event.to_dict()))
            for item in timeline_views(log):
                digests["web"].add([name, item])
            metrics = seat_metrics(log)
            digests["metrics"].add(
                [name, {str(s): scrub(m.summary()) for s, m in sorted(metrics.items())}]
            )
    out = {f"{part}/all": d.hexdigest() for part, d in digests.items()}
    for name, cards in knowledge_cards(seeds):  # the seat cards, per golden table
        digest = Digest(dump / f"cards_{name}" if dump else None)
        digest.add(cards)
        out[f"cards/{name}"] = digest.hexdigest()
    return out


def timeline_views(log: Any) -> Iterator[Any]:
    from duskfall.web.timeline import Timeline

    timeline = Timeline(log.header)
    for event in log.events:
        frame = timeline.add(event)
        view = scrub({k: v for k, v in frame.view.items() if k != "payload"})
        yield [view, sorted(frame.seats)]
    yield {"roles": {str(k): v for k, v in timeline.roles().items()}}


def knowledge_cards(seeds: int) -> Iterator[Any]:
    """The web seat's card (what a seat knows) at every decision of random games."""
    from duskfall.core.registry import get_variant
    from duskfall.testing.playouts import play_random_game

    card = _card_function()
    for name, variant_id, config in golden_tables():
        variant = get_variant(variant_id)
        cards: list[Any] = []

        def on_decision(state: Any, cards: list[Any] = cards, variant: Any = variant) -> None:
            for decision in state.pending():
                cards.append(card(variant, state.observe(decision.seat)))

        for seed in range(seeds):
            play_random_game(variant, config, seed, on_decision=on_decision)
        yield name, cards


def _card_function() -> Callable[[Any, Any], Any]:
    try:  # the variant's own seat card (VariantInfo.spectator)
        from duskfall.core.spectator import Spectator  # noqa: F401
    except ImportError:  # before it: the web's reading of every variant's keys
        from duskfall.web import knowledge

        return lambda variant, obs: knowledge.knowledge(obs)
    return lambda variant, obs: variant.info.spectator.seat_card(obs).to_dict()


# ---------------------------------------------------------------- learn


def learn(seeds: int, dump: Path | None) -> dict[str, str]:
    import numpy as np

    from duskfall.learn.aec import DuskfallAEC

    out = {}
    for name, variant_id, config in golden_tables():
        modes = ["vector", "tokens"] if variant_id == "sports-mafia" else ["vector"]
        for mode in modes:
            key = f"learn/{name}/{mode}"
            digest = Digest(dump / key.replace("/", "_") if dump else None)
            for seed in range(seeds):
                env = DuskfallAEC(variant_id, config, observation=mode)  # type: ignore[arg-type]
                env.reset(seed=seed)
                rng = random.Random(seed)
                for agent in env.agent_iter(max_iter=5000):
                    obs, reward, done, cut, _ = env.last()
                    digest.add(
                        [
                            agent,
                            np.asarray(obs["observation"]).round(6).tolist(),
                            np.asarray(obs["action_mask"]).tolist(),
                            float(reward),
                            bool(done),
                            bool(cut),
                        ]
                    )
                    if done or cut:
                        action = None
                    else:
                        legal = np.flatnonzero(obs["action_mask"]).tolist()
                        action = rng.choice(legal)
                    env.step(action)
            out[key] = digest.hexdigest()
    return out


# ---------------------------------------------------------------- wire


def wire(seeds: int, dump: Path | None) -> dict[str, str]:
    out = {}
    for variant_id in ("werewolf", "mafia", "sports-mafia"):
        key = f"wire/{variant_id}"
        digest = Digest(dump / key.replace("/", "_") if dump else None)
        for seed in range(seeds):
            for frame in asyncio.run(_wire_game(variant_id, seed)):
                digest.add(frame)
        out[key] = digest.hexdigest()
    return out


def _mask_ids(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _mask_ids(v, ids) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_mask_ids(v, ids) for v in value]
    if isinstance(value, str) and value in ids:
        return ids[value]
    return value


async def _wire_game(variant_id: str, seed: int) -> list[Any]:
    from duskfall.core.registry import get_variant
    from duskfall.protocol import FrameDecoder, encode_message
    from duskfall.server import GameServer, ServerSettings

    variant = get_variant(variant_id)
    codec = variant.info.wire
    frames: list[Any] = []
    with tempfile.TemporaryDirectory() as folder:
        server = GameServer(
            ServerSettings(
                log_dir=Path(folder),
                port=0,
                seed=seed,
                variant=variant_id,
                games=1,
                fill_bots_after=0,
                deadline_ms=60_000,
            )
        )
        await server.start()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            decoder = FrameDecoder(16 * 1024 * 1024)
            rng = random.Random(seed)
            ids: dict[str, str] = {}
            done = False
            while not done:
                data = await asyncio.wait_for(reader.read(65536), 60)
                if not data:
                    break
                for raw in decoder.feed(data):
                    message = json.loads(raw)
                    if message.get("type") == "HELLO":
                        ids[message.get("game_id", "")] = "GAME"
                        for k in ("token", "seat_token"):
                            if isinstance(message.get(k), str):
                                ids[message[k]] = "TOKEN"
                    frames.append(_mask_ids(message, ids))
                    if message.get("type") == "ACTION_REQUEST" and message.get("valid_actions"):
                        assert codec is not None
                        legal = codec.legal_from_wire(
                            message["phase"], message["valid_actions"], message.get("legal_state")
                        )
                        answer = {
                            "type": "ACTION_RESPONSE",
                            "player_id": message["player_id"],
                            "action": legal.sample(rng).to_dict(),
                        }
                        if "request_id" in message:
                            answer["request_id"] = message["request_id"]
                        writer.write(encode_message(answer))
                        await writer.drain()
                    if message.get("type") == "GAME_EVENT" and message.get("event") == "GAME_OVER":
                        done = True
            writer.close()
        finally:
            await server.close()
    return frames


# ---------------------------------------------------------------- board

BOARD_CONFIGS: list[dict[str, Any]] = [
    {
        "name": "same-duplicate",
        "entrants": {"smart": "heuristic", "naive": "random", "half": "mix:heuristic@0.5/random"},
        "variants": [{"variant": "werewolf", "preset": "werewolf-6"}, {"variant": "mafia"}],
        "schedule": "duplicate",
    },
    {
        "name": "same-separated",
        "entrants": {"smart": "heuristic", "naive": "random"},
        "variants": [{"variant": "sports-mafia"}],
        "schedule": "mixed",
        "stop": "separated",
    },
]


def _report_parts() -> tuple[Any, Any, Any, Any, Any]:
    """run_tournament, tournament_progress, build_report, html_report, leaderboard_table."""
    try:
        from duskfall.arena.progress import tournament_progress
        from duskfall.arena.tournament import run_tournament
        from duskfall.report.html_report import html_report
        from duskfall.report.leaderboard import build_report
        from duskfall.report.terminal import leaderboard_table
    except ImportError:  # a commit before the report package
        from duskfall.arena.html_report import html_report
        from duskfall.arena.leaderboard import build_report

        from duskfall.arena.tournament import run_tournament, tournament_progress
        from duskfall.cli.tournament_display import leaderboard_table
    return run_tournament, tournament_progress, build_report, html_report, leaderboard_table


def board(seeds: int, dump: Path | None) -> dict[str, str]:
    import io
    import re

    from rich.console import Console
    from rich.table import Table

    from duskfall.arena.tournament_config import parse_tournament
    from duskfall.store.index import GameIndex

    run, progress_of, build_report, html_report, leaderboard_table = _report_parts()
    parts = ("json", "csv", "terminal", "html")
    digests = {p: Digest(dump / f"board-{p}" if dump else None) for p in parts}
    with tempfile.TemporaryDirectory() as folder:
        for number, data in enumerate(BOARD_CONFIGS):
            config = parse_tournament({**data, "games": 6 * seeds, "seed": 7 + number,
                                       "parallel_games": 1, "log_dir": "games"})  # fmt: skip
            where = Path(folder) / data["name"]
            where.mkdir()
            run(config, base_dir=where, db=where / "index.db")
            with GameIndex(where / "index.db") as index:
                report = build_report(progress_of(config, index), bootstrap=40)
            data = report.to_dict()
            data["games"] = [{k: g[k] for k in g if k not in ("id", "log")} for g in data["games"]]
            digests["json"].add(scrub(data))
            digests["csv"].add([report.csv(), report.pairs_csv()])
            buffer = io.StringIO()
            console = Console(file=buffer, width=100, color_system=None)
            for part in leaderboard_table(report):
                if not (isinstance(part, Table) and str(part.title).startswith("behaviour")):
                    console.print(part, soft_wrap=False)
            digests["terminal"].add(buffer.getvalue().splitlines())
            html = html_report(report).replace(folder, "<tmp>")
            html = re.sub(r"[a-z-]+-[0-9a-f]{16}", "<game>", html)
            html = re.sub(r'<section class="report-section" id="behaviour".*?</section>', "", html)
            digests["html"].add(html.splitlines())
    return {f"board/{part}": d.hexdigest() for part, d in digests.items()}


# ---------------------------------------------------------------- lab

LAB_GAMES = (("werewolf", "werewolf-6", "heuristic"), ("werewolf", "werewolf-9", "random"),
             ("werewolf", "werewolf-6", "llm:scripted"), ("mafia", None, "heuristic"))  # fmt: skip


def lab(seeds: int, dump: Path | None) -> dict[str, str]:
    from duskfall.lab.fork import ForkRequest, run_fork
    from duskfall.lab.rounds import rounds_of
    from duskfall.lab.samples import sample_forks
    from duskfall.lab.winline import win_line
    from duskfall.session import GameSetup, run_game
    from duskfall.store.log import read_log

    parts = ("forks", "samples", "winline")
    digests = {p: Digest(dump / f"lab-{p}" if dump else None) for p in parts}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for variant, preset, agents in LAB_GAMES:
            for seed in range(seeds):
                name = f"{preset or variant}-{agents.replace(':', '_')}-{seed}"
                parent = folder / f"{name}.jsonl"
                config = {"preset": preset} if preset else {}
                setup = GameSetup(variant, seed=seed, agents=agents, config=config,
                                  game_id=f"p-{name}", log_path=parent)  # fmt: skip
                asyncio.run(run_game(setup))
                log = read_log(parent)
                boundaries = [r for r in rounds_of(log) if r.opens_phase]
                starts = [(r.start, r.day, r.phase, r.kinds) for r in boundaries]
                digests["forks"].add([name, starts])
                speech = next((e.seq for e in log.events if e.kind == "speech"), None)
                requests = [
                    *(dict(at=str(r.start)) for r in boundaries),
                    *(dict(at=str(r.start), agents="random", seed=5) for r in boundaries[1:3]),
                    *([dict(replace=f"{speech}=I am the Seer.")] if speech is not None else []),
                    *([dict(replace=f"{speech}=I am.", at="0")] if speech is not None else []),
                    dict(at="day:99"),  # errors are compared too
                ]
                for number, options in enumerate(requests):
                    out = folder / f"{name}-fork-{number}.jsonl"
                    request = ForkRequest(parent, log_path=out, game_id=f"f-{name}-{number}",
                                          **options)  # type: ignore[arg-type]  # fmt: skip
                    try:
                        asyncio.run(run_fork(request))
                    except Exception as exc:  # what fails is compared too
                        digests["forks"].add([name, options, type(exc).__name__, str(exc)])
                        continue
                    forked = read_log(out)
                    digests["forks"].add([name, options, scrub(forked.header.extra)])
                    for event in forked.events:
                        digests["forks"].add(scrub(event.to_dict()))
                if len(boundaries) > 1:
                    at = str(boundaries[1].start)
                    found = asyncio.run(sample_forks(ForkRequest(parent, at=at), 3))
                    digests["samples"].add([name, found.n, dict(found.winners), found.seeds,
                                            found.calls])  # fmt: skip
                if agents.startswith("llm"):
                    continue
                for options in (dict(every="phase"), dict(every="round"), dict(at="day:1")):
                    line = win_line(log, rollouts=6, **options)  # type: ignore[arg-type]
                    data = line.to_dict()
                    data.pop("sampled", None)  # the sampled line's (issue 38): None here
                    digests["winline"].add([name, options, scrub(data)])
    return {f"lab/{part}": d.hexdigest() for part, d in digests.items()}


# ---------------------------------------------------------------- driver


def child(part: str, seeds: int, dump: Path | None) -> dict[str, str]:
    import os

    os.environ["DUSKFALL_DB"] = "off"  # no game index: nothing written beside the logs
    # one operator key for both codes: the server's and the tournaments' deals are keyed with it
    # (without it each process draws its own, and no two runs deal the same games)
    keys = tempfile.TemporaryDirectory()
    atexit.register(keys.cleanup)
    key = Path(keys.name) / "operator.key"
    key.write_text("ab" * 32 + "\n")
    os.environ["DUSKFALL_KEY_FILE"] = str(key)
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
    if part == "engine":
        return engine(seeds, dump)
    if part in ("logs", "web", "metrics"):
        return logs_web_metrics(seeds, dump)
    if part == "learn":
        return learn(seeds, dump)
    if part == "wire":
        return wire(seeds, dump)
    if part == "board":
        return board(seeds, dump)
    if part == "lab":
        return lab(seeds, dump)
    raise SystemExit(f"unknown part {part!r}")


SEEDS = {"engine": 500, "logs": 8, "learn": 8, "wire": 6, "lab": 2, "board": 4}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="commit (or src folder) to compare")
    parser.add_argument("--parts", nargs="+", default=["engine", "logs", "learn", "wire", "board"])
    parser.add_argument("--seeds", type=int, default=None, help="seeds per table (each part)")
    parser.add_argument("--dump", type=Path, default=None, help="keep each code's records here")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        seeds = args.seeds or SEEDS.get(args.child, SEEDS["logs"])
        print(json.dumps(child(args.child, seeds, args.dump)))
        return 0

    from baseline import baseline_src, current_src, load_average, run_python

    codes = {"baseline": baseline_src(args.baseline), "today": current_src()}
    print(f"same behaviour as {args.baseline}? {load_average()}", flush=True)
    same = True
    for part in args.parts:
        found = {}
        for name, src in codes.items():
            extra = ["--seeds", str(args.seeds)] if args.seeds else []
            if args.dump is not None:
                extra += ["--dump", str(args.dump / name)]
            found[name] = json.loads(
                run_python(src, __file__, "--child", part, *extra).strip().splitlines()[-1]
            )
        for key in sorted(found["today"].keys() | found["baseline"].keys()):
            today, before = found["today"].get(key), found["baseline"].get(key)
            if before is None:
                print(f"{key:48} new (no baseline: {today})", flush=True)
                continue
            ok = today == before
            same = same and ok
            print(f"{key:48} {'same' if ok else 'DIFFERENT'} ({today} vs {before})", flush=True)
    print(load_average())
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
