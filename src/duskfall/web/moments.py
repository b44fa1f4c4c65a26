"""Key moments of a game: its win line and per-seat summary, computed ahead and kept on disk.

A game's key moments are its win-probability line (:mod:`duskfall.lab.winline`), its largest
swings each placed at the event where it happened (the event after which a seat the swing
names left the game, else the swing's first point) with that event's text, and the per-seat
summary (:mod:`duskfall.web.seat_summary`). They take seconds to minutes of rollouts, so
:class:`KeyMoments` computes them ahead, in a worker thread and one game at a time: when a game
run by the web app ends, and when a logged game's page is first opened. What it computed is
written to ``.moments/`` under the games directory (one JSON file per game and rollout count,
named by a digest of the game id) and kept in memory, so a second view, or the first view
after a restart, is read, not computed. An entry holds the size of the log it was computed
from: a log that grew (a game still running) is computed again. A game that cannot have a line
(no rules engine here, no decision yet) keeps its reason instead, and is not retried.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duskfall.lab.fork import read_parent
from duskfall.lab.winline import win_line
from duskfall.web.seat_summary import seat_summary
from duskfall.web.timeline import Frame, Timeline

log = logging.getLogger(__name__)

CACHE_DIR = ".moments"
FORMAT = 1
DEFAULT_ROLLOUTS = 100
KEPT = 64


@dataclass(frozen=True)
class Target:
    """A game's log and the rollouts per point its line is computed with."""

    game_id: str
    path: Path
    rollouts: int

    @property
    def key(self) -> tuple[str, int]:
        return self.game_id, self.rollouts

    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return -1


def compute(target: Target) -> dict[str, Any]:
    """The key moments of ``target``'s game (module docstring): blocking, seconds or more."""
    started = time.perf_counter()
    size = target.size()
    out: dict[str, Any] = {"format": FORMAT, "game_id": target.game_id, "log_size": size}
    try:
        game = read_parent(target.path)
        line = win_line(game, rollouts=target.rollouts).to_dict()
        out["summary"] = seat_summary(game)
    except Exception as exc:  # a GM game, a log with no decision, a cut log: say why, once
        out.update(line=None, summary=None, problem=f"no win line for this game: {exc}")
    else:
        timeline = Timeline(game.header)
        for event in game.events:
            timeline.add(event)
        mark_swings(line, timeline.frames)
        out.update(line=line, problem=None)
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


def mark_swings(line: dict[str, Any], frames: Sequence[Frame]) -> None:
    """Place each swing of ``line`` at its event (``at``): the event that tells the first seat
    it names out of the game (an exile, a night's deaths told), else the decision after which
    that seat was out; a swing with nobody out at the first event its round shows (not an
    agent's record). With that event's text (``what``) and the seats that left (``out``)."""
    points = {point["event"]: point for point in line["points"]}
    for swing in line["swings"]:
        left = set(points[swing["from"]]["left"])
        start, stop = swing["from"], min(swing["to"], len(frames))
        at = next((i for i in range(start, stop) if _shown(frames[i])), start)
        out: list[int] = []
        for index in range(start, stop):
            out = sorted(left - set(frames[index].alive))
            if out:
                at = next((i for i in range(index, stop) if _announces(frames[i], out)), index)
                break
        swing["at"] = at
        swing["out"] = out
        swing["what"] = frames[at].view["text"] if at < len(frames) else ""


OUT_MARKS = frozenset({"dead", "exiled"})


def _announces(frame: Frame, seats: list[int]) -> bool:
    """Whether ``frame`` marks one of ``seats`` out (exiled, or dead)."""
    return any(m["mark"] in OUT_MARKS and m["seat"] in seats for m in frame.view["marks"])


def _shown(frame: Frame) -> bool:
    """A game event the event list shows by default (not an agent's record, not bookkeeping)."""
    return frame.event.source == "rules" and not frame.view["detail"]


class KeyMoments:
    """The key moments computed so far, on disk under ``root`` (None: in memory only), and
    those being computed."""

    def __init__(self, root: Path | None, rollouts: int = DEFAULT_ROLLOUTS) -> None:
        self.root = root
        self.rollouts = rollouts
        self.kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.pending: dict[tuple[str, int], asyncio.Task[dict[str, Any]]] = {}
        self.lock = asyncio.Lock()  # one game at a time: each takes a core for seconds

    def target(self, game_id: str, path: Path, rollouts: int | None = None) -> Target:
        return Target(game_id, path, rollouts or self.rollouts)

    def _file(self, target: Target) -> Path | None:
        if self.root is None:
            return None
        digest = hashlib.sha256(target.game_id.encode("utf-8")).hexdigest()[:24]
        return self.root / CACHE_DIR / f"{digest}-{target.rollouts}.json"

    def cached(self, target: Target) -> dict[str, Any] | None:
        """The moments of ``target`` if computed from its log as it is now (memory, then
        disk), else None."""
        size = target.size()
        entry = self.kept.get(target.key)
        if entry is not None and entry["log_size"] == size:
            self.kept.move_to_end(target.key)
            return entry
        entry = self._read(target)
        if entry is not None and entry["log_size"] == size:
            self._keep(target, entry)
            return entry
        return None

    def _read(self, target: Target) -> dict[str, Any] | None:
        path = self._file(target)
        if path is None:
            return None
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        ok = isinstance(entry, dict) and entry.get("format") == FORMAT
        return entry if ok and entry.get("game_id") == target.game_id else None

    def _write(self, target: Target, entry: dict[str, Any]) -> None:
        path = self._file(target)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_name(f"{path.name}.{os.getpid()}.part")
            part.write_text(json.dumps(entry), encoding="utf-8")
            part.replace(path)
        except OSError as exc:  # a read-only games directory: kept in memory only
            log.warning("key moments of %s not written: %s", target.game_id, exc)

    def _keep(self, target: Target, entry: dict[str, Any]) -> None:
        self.kept[target.key] = entry
        self.kept.move_to_end(target.key)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)

    def ahead(self, target: Target) -> asyncio.Task[dict[str, Any]] | None:
        """Start computing ``target``'s moments in the background unless they are kept or
        under way (None when kept); needs a running event loop."""
        if self.cached(target) is not None:
            return None
        task = self.pending.get(target.key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._compute(target))
            self.pending[target.key] = task
        return task

    def soon(self, target: Target) -> None:
        """:meth:`ahead` from code that may run outside the event loop (then: nothing)."""
        with contextlib.suppress(RuntimeError):
            self.ahead(target)

    async def _compute(self, target: Target) -> dict[str, Any]:
        try:
            async with self.lock:
                entry = self.cached(target)
                if entry is None:
                    entry = await asyncio.to_thread(compute, target)
                    self._keep(target, entry)
                    await asyncio.to_thread(self._write, target, entry)
                return entry
        finally:
            self.pending.pop(target.key, None)

    async def get(self, target: Target, *, wait: bool) -> tuple[dict[str, Any] | None, bool]:
        """(the moments, whether they were kept) of ``target``; without ``wait``, None while
        they are computed (computing starts if needed)."""
        entry = self.cached(target)
        if entry is not None:
            return entry, True
        task = self.ahead(target)
        if task is None:  # computed between the two looks
            return self.cached(target), True
        if not wait:
            return None, False
        return await asyncio.shield(task), False
