"""Where a tournament stands, read from the index: the finished slots, the interrupted and
running ones, the rest of the schedule, the execution record of its slots and the model usage
spent so far. The driver reads it to know what to play; the reports, to know what was played."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from duskfall.arena.deals import with_deals
from duskfall.arena.schedule import Slot, build_schedule
from duskfall.arena.tournament_config import TournamentConfig
from duskfall.arena.tournament_run import Spending
from duskfall.core import event_kinds as kinds
from duskfall.core.usage import Usage
from duskfall.store.index import GameIndex
from duskfall.store.log import read_log
from duskfall.store.rows import GameRow
from duskfall.store.slots import FAILED, INTERRUPTED, RUNNING, SlotRecord, slot_records

ABANDONED = "abandoned"  # termination of an interrupted game whose slot is played again


@dataclass
class TournamentProgress:
    """Where a tournament stands, from the index: finished slots, interrupted ones, the rest,
    and the execution record of its slots (``slots``: failed tries, nodes, fallbacks)."""

    config: TournamentConfig
    schedule: list[Slot]
    done: dict[int, GameRow]
    interrupted: list[GameRow]
    running: list[GameRow]
    abandoned: list[GameRow]
    slots: dict[int, SlotRecord] = field(default_factory=dict)

    @property
    def missing(self) -> list[Slot]:
        return [slot for slot in self.schedule if slot.index not in self.done]

    @property
    def failed(self) -> list[SlotRecord]:
        """Slots given up after every try failed (``resume`` tries them again)."""
        return [r for r in self.slots.values() if r.state == FAILED and r.slot not in self.done]

    @property
    def in_flight(self) -> list[SlotRecord]:
        """Slots a driver handed to workers and has not had back (its own, while it lives;
        a dead driver's are taken over by the next one)."""
        return [r for r in self.slots.values() if r.state == RUNNING]

    @property
    def lost(self) -> list[SlotRecord]:
        """Slots that were in flight when their driver stopped, not played since."""
        return [
            r for r in self.slots.values() if r.state == INTERRUPTED and r.slot not in self.done
        ]

    @property
    def with_fallbacks(self) -> dict[int, int]:
        """Finished slot -> decisions its game settled with a fallback (only those with any)."""
        return {
            slot: record.fallbacks
            for slot, record in self.slots.items()
            if slot in self.done and record.fallbacks
        }

    def without_fallbacks(self) -> TournamentProgress:
        """This progress with the games that had fallbacks left out (for a report that
        excludes them)."""
        flagged = self.with_fallbacks
        done = {slot: row for slot, row in self.done.items() if slot not in flagged}
        return replace(self, done=done)

    def games_per_node(self) -> Counter[str]:
        """Finished games by the node (host) that played them."""
        return Counter(row.host or "?" for row in self.done.values())

    def spent(self) -> Spending:
        """Model usage of the games played so far (interrupted ones included: they were paid
        for, and failed tries too), per entrant from the logs' ``llm_call`` events."""
        spending = Spending()
        for row in [*self.done.values(), *self.interrupted, *self.abandoned]:
            spending.add(entrant_usage(row))
        for record in self.slots.values():
            if record.spent_tokens or record.spent_cost_usd:
                spending.add_unattributed(
                    Usage(prompt_tokens=record.spent_tokens, cost_usd=record.spent_cost_usd)
                )
        return spending


def tournament_progress(config: TournamentConfig, index: GameIndex) -> TournamentProgress:
    """The state of ``config``'s tournament in ``index`` (dealt from its secret there)."""
    config = with_deals(config, index.path, create=True)
    schedule = build_schedule(config)
    done: dict[int, GameRow] = {}
    interrupted, running, abandoned = [], [], []
    for row in index.tournament_games(config.name):
        if row.tournament_slot is None:
            continue
        if row.termination == ABANDONED:
            abandoned.append(row)
        elif row.status in ("finished", "aborted"):
            done.setdefault(row.tournament_slot, row)
        elif row.process_alive is False:
            interrupted.append(row)
        else:
            running.append(row)
    slots = slot_records(index.path, config.name)
    return TournamentProgress(config, schedule, done, interrupted, running, abandoned, slots)


def entrant_usage(row: GameRow) -> dict[str, Usage]:
    """Model usage of a tournament game per entrant, from its log's ``llm_call`` events
    (nothing for a game that used no model, without reading its log)."""
    if row.tokens == 0 and row.cost_usd == 0:
        return {}
    if row.log_path is None or not Path(row.log_path).exists():
        return {"?": Usage(row.prompt_tokens, row.completion_tokens, row.cost_usd)}
    log = read_log(row.log_path, strict=False)
    entrants = list((log.header.extra.get("tournament") or {}).get("seats") or [])
    out: dict[str, Usage] = {}
    for event in log.events:
        seat = event.payload.get("seat")
        if event.kind == kinds.LLM_CALL and isinstance(seat, int) and seat < len(entrants):
            name = entrants[seat]
            out[name] = out.get(name, Usage()) + Usage.from_payload(event.payload)
    return out
