"""Signed records, from outside: a forger who can write the games folder (and even the index
rows) but does not hold the operator key rewrites a speech and recomputes the hash chain, as
the log's format documents it; ``replay`` must never say "verified" with exit 0 for it. A
copied game and a copied tournament folder verify on "another machine" (no index) with their
key file; without it ``replay`` says it can check integrity only. On code from before signed
records the forgery passes as verified (the probes do not hold there)."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from hardening_probes import Duskfall, Run, Tally

ITEM = 12
TITLE = "signed records"
OUTSIDE = True

SIGNED = "verified (signed by this operator's key"
TOURNAMENT = """
name = "sealed"
games = 4
seed = 9
schedule = "mixed"

[entrants]
smart = "heuristic"
naive = "random"

[[variants]]
variant = "werewolf"
preset = "werewolf-6"
"""


def items_of(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text().splitlines():
        item = json.loads(line)
        item.pop("h", None)
        out.append(item)
    return out


def rechain(items: list[dict[str, Any]]) -> str:
    """The forger's chain: SHA-256 of the previous hash and the line, as the log documents;
    an end record (or any other record naming the events and the line before it) follows."""
    head, out, events = "", [], 0
    for number, item in enumerate(items):
        if "type" in item and item["type"] != "header":
            item = {**item, "events": events, "last": head}
        elif number > 0:
            events += 1
        body = json.dumps(item, ensure_ascii=False, separators=(",", ":"))
        head = hashlib.sha256((head + body).encode()).hexdigest()
        out.append(f'{body[:-1]},"h":"{head}"}}\n')
    return "".join(out)


def forged(items: list[dict[str, Any]], *, strip: bool, format: int | None = None) -> str:
    """A speech rewritten (in its action and the rules' echo), the chain recomputed; with
    ``strip`` every signature dropped too (``format``: passed off as an older log)."""
    speech = next(i for i in items if i.get("kind") == "speech")
    said = json.dumps(speech["payload"]["text"])[1:-1]
    out = [json.loads(json.dumps(i).replace(said, "I am the seer, trust me")) for i in items]
    if strip:
        out = [i for i in out if i.get("type") != "seal"]
        out = [{k: v for k, v in i.items() if k not in ("key", "mac")} for i in out]
    if format is not None:
        out[0]["format"] = format
    return rechain(out)


def fooled(run: Run) -> bool:
    """Whether ``replay`` passed a forgery as verified."""
    return run.code == 0 and re.search(r"\bverified\b", run.out) is not None


def play(duskfall: Duskfall, log: Path, seed: int, env: dict[str, str] | None = None) -> Run:
    return duskfall.run(
        "play", "-q", "-v", "werewolf", "--preset", "werewolf-6", "--seed", str(seed),
        "--agents", "heuristic", "--log", str(log), env=env,
    )  # fmt: skip


def probe(duskfall: Duskfall, background: Any, tally: Tally) -> None:
    folder = duskfall.work / "signing"
    folder.mkdir()
    game = folder / "game.jsonl"
    run = play(duskfall, game, 5)
    tally.check(run.code == 0 and game.exists(), f"play: {run.code} {run.err[-200:]!r}")
    key = Path(str(duskfall.work / "index.db") + ".key")
    tally.check(key.exists() and key.stat().st_mode & 0o077 == 0, "the key beside the index, 0600")
    secret = key.read_text().strip() if key.exists() else "no key"
    run = duskfall.run("replay", "-q", str(game))
    tally.check(run.code == 0 and SIGNED in run.out, f"the real log verifies: {run.out[-200:]!r}")
    original = items_of(game)

    # forgeries beside the index (it names this log)
    variants = {
        "chain recomputed": forged(original, strip=False),
        "signatures stripped": forged(original, strip=True),
        "passed off as format 3": forged(original, strip=True, format=3),
    }
    for what, text in variants.items():
        game.write_text(text)
        run = duskfall.run("replay", "-q", str(game))
        tally.check(not fooled(run), f"forgery ({what}), index present: {run.code}")
        tally.check(run.code != 0 and "forged or altered" in run.err, f"said forged ({what})")

    # the index row edited: another winner
    game.write_text(rechain(original))
    with sqlite3.connect(duskfall.work / "index.db") as db:
        db.execute("UPDATE games SET winner = 'nobody' WHERE log_path = ?", (str(game.resolve()),))
    run = duskfall.run("replay", "-q", str(game))
    tally.check(run.code != 0 and "index row" in run.err, f"a tampered row: {run.code}")

    # another machine: the log and its key copied, no index
    there = duskfall.work / "elsewhere"
    there.mkdir()
    copied = there / "game.jsonl"
    copied.write_text(rechain(original))
    copy_key = there / "operator.key"
    if key.exists():
        shutil.copy(key, copy_key)
    away = {"DUSKFALL_DB": "off", "DUSKFALL_KEY_FILE": str(copy_key)}
    run = duskfall.run("replay", "-q", str(copied), env=away)
    tally.check(run.code == 0 and SIGNED in run.out, "a copied log verifies with its key")
    run = duskfall.run("replay", "-q", str(copied), env={"DUSKFALL_DB": "off"})
    tally.check(
        run.code == 0 and "integrity only" in run.out and not re.search(r"\bverified\b", run.out),
        "without the key: integrity only, said plainly",
    )
    for what, text in variants.items():
        copied.write_text(text)
        run = duskfall.run("replay", "-q", str(copied), env=away)
        tally.check(not fooled(run), f"forgery ({what}), copied with the key: {run.code}")

    # another operator's key: not this operator's record
    other = duskfall.work / "other"
    other.mkdir()
    theirs = other / "game.jsonl"
    play(duskfall, theirs, 6, env={"DUSKFALL_DB": str(other / "index.db")})
    run = duskfall.run("replay", "-q", str(theirs), env=away)
    tally.check(not fooled(run), "a log signed by another key is not verified")

    # a tournament folder copied to another machine
    tour = duskfall.work / "tour"
    tour.mkdir()
    (tour / "t.toml").write_text(TOURNAMENT)
    env = {"DUSKFALL_DB": str(tour / "t.db")}
    run = duskfall.run("tournament", "run", str(tour / "t.toml"), "--db", str(tour / "t.db"),
                       env=env, timeout=300)  # fmt: skip
    logs = sorted(tour.glob("tournaments/sealed/*.jsonl"))
    tally.check(run.code == 0 and len(logs) == 4, f"tournament: {run.code} {len(logs)} logs")
    moved = there / "sealed"
    if logs:
        shutil.copytree(logs[0].parent, moved)
    tour_key = Path(str(tour / "t.db") + ".key")
    if tour_key.exists():
        shutil.copy(tour_key, there / "tour.key")
    moved_env = {"DUSKFALL_DB": "off", "DUSKFALL_KEY_FILE": str(there / "tour.key")}
    for path in sorted(moved.glob("*.jsonl")):
        run = duskfall.run("replay", "-q", str(path), env=moved_env)
        tally.check(run.code == 0 and SIGNED in run.out, f"copied tournament log {path.name}")
    if logs:
        path = sorted(moved.glob("*.jsonl"))[0]
        path.write_text(forged(items_of(path), strip=False))
        run = duskfall.run("replay", "-q", str(path), env=moved_env)
        tally.check(not fooled(run), "a forged tournament log, copied with the key")

    # the key itself is never shown
    shown = [
        game.read_text(),
        run.text,
        (duskfall.work / "index.db").read_bytes().decode("latin-1"),
    ]
    tally.check(all(secret not in text for text in shown), "the key is in no log, output or row")
