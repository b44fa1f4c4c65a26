"""Planted results, from outside (issue 38, 38p): a fork that told the Seer the other answer
to its first check (``fork --set-result``) verifies; a forger who can write the games folder
but holds no operator key changes what the fork says was planted (the header's value, the
planted event, or both, the hash chain recomputed as the log documents) and ``replay`` must
never say "verified" with exit 0. Without the key (integrity only) a planted event the header
does not name, or a header naming a value the event does not tell, still fails the replay.
Code from before planted results has no ``--set-result``: nothing holds there."""

from __future__ import annotations

import json
import re
from typing import Any

from hardening_probes import Duskfall, Run, Tally
from probes.signing import items_of, rechain

ITEM = 38
TITLE = "planted results in forks (38p)"
OUTSIDE = True

SIGNED = "verified (signed by this operator's key"


def fooled(run: Run) -> bool:
    return run.code == 0 and re.search(r"\bverified\b", run.out) is not None


def check(items: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The first Seer check's position among the lines (header = 0) and the line."""
    number = next(n for n, i in enumerate(items) if i.get("kind") == "seer_action")
    return number, items[number]


def probe(duskfall: Duskfall, background: Any, tally: Tally) -> None:
    folder = duskfall.work / "planted"
    folder.mkdir()
    parent = folder / "parent.jsonl"
    run = duskfall.run(
        "play", "-q", "-v", "werewolf", "--preset", "werewolf-12", "--seed", "4",
        "--agents", "heuristic", "--log", str(parent),
    )  # fmt: skip
    tally.check(run.code == 0 and parent.exists(), f"play: {run.code} {run.err[-200:]!r}")
    number, line = check(items_of(parent))
    seq, truth = line["seq"], line["payload"]["result"]
    told = "good" if truth == "Werewolf" else "evil"
    fork = folder / "fork.jsonl"
    run = duskfall.run(
        "fork", str(parent), "--set-result", f"{seq}={told}", "-q", "--log", str(fork)
    )
    tally.check(
        run.code == 0 and fork.exists(), f"fork --set-result: {run.code} {run.err[-200:]!r}"
    )
    if not fork.exists():
        return
    run = duskfall.run("replay", "-q", str(fork))
    tally.check(run.code == 0 and SIGNED in run.out, f"the fork verifies: {run.out[-200:]!r}")
    tally.check("planted" in run.out, "replay says what was planted")
    original = items_of(fork)
    planted = original[number]["payload"]["result"]
    tally.check(planted != truth, "the fork's event tells the planted answer")

    def forged(header_value: str | None, event_value: str | None) -> str:
        """The fork with its header's planted value (None: no plant named) and the event's
        result changed, the chain recomputed."""
        items = json.loads(json.dumps(original))
        origin = items[0]["extra"]["fork"]
        if header_value is None:
            origin.pop("planted", None)
        else:
            origin["planted"] = [{"event": seq, "value": header_value}]
        if event_value is not None:
            items[number]["payload"]["result"] = event_value
        return rechain(items)

    forgeries = {
        "header and event told the truth (a plain fork)": forged(None, truth),
        "the header's value changed": forged(truth, None),
        "the plant unnamed, the event kept": forged(None, None),
        "the plant moved to another value of both": forged(truth, truth),
    }
    for what, text in forgeries.items():
        fork.write_text(text)
        run = duskfall.run("replay", "-q", str(fork))
        tally.check(not fooled(run), f"forgery ({what}), signed: {run.code}")
        tally.check(run.code != 0, f"forgery ({what}) refused: {run.code} {run.err[-160:]!r}")
    # integrity only (no index, no key): what replay itself catches
    away = {"DUSKFALL_DB": "off", "DUSKFALL_KEY_FILE": str(folder / "no.key")}
    for what in ("the header's value changed", "the plant unnamed, the event kept"):
        fork.write_text(forgeries[what])
        run = duskfall.run("replay", "-q", str(fork), env=away)
        tally.check(run.code != 0, f"forgery ({what}), no key: replay refuses ({run.code})")
    fork.write_text(rechain(original))
    run = duskfall.run("replay", "-q", str(fork), env=away)
    tally.check(run.code == 0 and "planted" in run.out, f"the honest fork, no key: {run.code}")
