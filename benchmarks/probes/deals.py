"""Item 10: deals nobody can compute (issue 36), tried from outside as an entrant would.

* a tournament config without ``seed``, played twice (two operators): different deals, and
  none of them the deals of seed 0 (what anyone holding the config computed before);
* a tournament with ``seed = 11`` and ``serve --seed 1000``: each published game seed is
  tried against the first 2**20 master seeds by every derivation the code before used
  (``derive_rng(master, "tournament:B:D")`` for tournaments, BLAKE2b keyed with the master for
  ``serve``): none may match;
* ``export`` of a tournament whose second deal is still being played (its driver stopped by
  Ctrl-C while a slow model plays): no game of that deal in the public files, no seed of it in
  any file.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from hardening_probes import Background, Duskfall, Tally, stub

ITEM = 10
TITLE = "deals nobody can compute"
OUTSIDE = True
MASTERS = 2**20


def _config(folder: Path, name: str, **fields: Any) -> Path:
    lines = [f'name = "{name}"', "games = 4", 'schedule = "duplicate"', 'log_dir = "games"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in fields.items()]
    lines += ["[entrants]", 'smart = "heuristic"', 'naive = "random"']
    lines += ["[[variants]]", 'variant = "sports-mafia"']
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tournament.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _seeds(folder: Path) -> dict[int, int]:
    """Slot -> seed of the games logged under ``folder`` (the operator's view)."""
    found = {}
    for log in folder.rglob("*.jsonl"):
        header = json.loads(log.read_text().split("\n", 1)[0])
        tag = header.get("extra", {}).get("tournament") or header.get("tournament") or {}
        found[int(tag.get("slot", len(found)))] = int(header["admin"]["seed"])
    return found


def _old_tournament_seed(master: int, block: int, deal: int) -> int:
    text = f"duskfall:{master}:tournament:{block}:{deal}".encode()
    return random.Random(int.from_bytes(text + hashlib.sha512(text).digest())).getrandbits(63)


def _old_keyed(master: int, label: str) -> int:
    key = master.to_bytes(16, "big")
    return int.from_bytes(hashlib.blake2b(label.encode(), key=key, digest_size=16).digest(), "big")


def _tournament(duskfall: Duskfall, folder: Path, name: str, **fields: Any) -> dict[int, int]:
    config = _config(folder, name, **fields)
    run = duskfall.run(
        "tournament", "run", str(config), env={"DUSKFALL_DB": str(folder / "index.db")}, timeout=120
    )
    if run.code != 0:
        return {}
    return _seeds(folder / "games")


def probe(duskfall: Duskfall, background: Background, tally: Tally) -> None:
    work = duskfall.work / "deals"
    one = _tournament(duskfall, work / "one", "cup")
    two = _tournament(duskfall, work / "two", "cup")
    tally.check(len(one) == len(two) == 4, f"seedless tournaments played ({len(one)}, {len(two)})")
    tally.check(not set(one.values()) & set(two.values()), "the same config dealt the same twice")
    zero = {_old_tournament_seed(0, 0, deal) for deal in range(2)}
    tally.check(not zero & set(one.values()), "a seedless config dealt the deals of seed 0")

    eleven = _tournament(duskfall, work / "eleven", "eleven", seed=11)
    tally.check(len(eleven) == 4, f"the seed-11 tournament played ({len(eleven)})")
    published = set(eleven.values())
    found = [m for m in range(MASTERS) if _old_tournament_seed(m, 0, 0) in published]
    tally.check(not found, f"seed 11's deals: master {found[:1]} found by brute force")

    serve_seeds = _served(duskfall, work / "serve")
    tally.check(len(serve_seeds) >= 1, "serve --seed 1000 played a game")
    found = [m for m in range(MASTERS) if _old_keyed(m, "serve:0") in serve_seeds]
    tally.check(not found, f"serve --seed 1000: master {found[:1]} found by brute force")

    _unfinished_deal_export(duskfall, background, work / "export", tally)


def _served(duskfall: Duskfall, logs: Path) -> set[int]:
    server = duskfall.start(
        "serve", "--port", "0", "--seed", "1000", "--games", "1", "--fill-bots-after", "0",
        "--log-dir", str(logs),
    )  # fmt: skip
    try:
        assert server.stdout is not None
        port = re.search(r":(\d+) ", server.stdout.readline())
        if port:
            duskfall.run("connect", "--port", port.group(1), "-q", timeout=120)
        server.wait(60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return {int(seed) for seed in _seeds(logs).values()}


def _unfinished_deal_export(
    duskfall: Duskfall, background: Background, folder: Path, tally: Tally
) -> None:
    """A tournament stopped in its second deal (a slow model's games), then exported."""
    with stub(background, latency=0.3) as server:
        config = _config(folder, "slow", parallel_games=1)
        text = config.read_text().replace(
            'smart = "heuristic"', f'smart = "llm:openai:stub@{server.url}"'
        )
        config.write_text(text)
        db = folder / "index.db"
        driver = duskfall.start("tournament", "run", str(config), env={"DUSKFALL_DB": str(db)})
        try:
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and _finished(db) < 3:
                time.sleep(0.2)
            driver.send_signal(signal.SIGINT)  # the driver stops; the 4th game is cut
            driver.wait(60)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
    seeds = _seeds(folder / "games")
    tally.check(
        _finished(db) == 3, f"the slow tournament stopped in its second deal ({_finished(db)})"
    )
    out = folder / "export"
    duskfall.run("export", "--out", str(out), "--format", "jsonl", env={"DUSKFALL_DB": str(db)})
    unfinished = {seeds.get(2), seeds.get(3)} - {None}
    exported = "".join(p.read_text() for p in out.glob("*.jsonl")) if out.exists() else ""
    tally.check(bool(unfinished), "the seed of the unfinished deal is known to the operator")
    for seed in unfinished:
        tally.check(str(seed) not in exported, "export shows the seed of a deal still played")
    public = out / "games.jsonl"
    lines = public.read_text().splitlines() if public.exists() else []
    slots = [json.loads(line).get("tournament_slot") for line in lines]
    tally.check(public.exists() and 0 in slots, f"export wrote the finished deal ({slots})")
    tally.check(2 not in slots, "export's public games.jsonl holds a game of a deal still played")


def _finished(db: Path) -> int:
    try:
        with sqlite3.connect(db) as raw:
            return int(
                raw.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
            )
    except sqlite3.Error:
        return 0
