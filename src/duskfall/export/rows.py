"""The rows of one game: read from its log, with the rules replayed for what a seat saw.

A decision is one ``action`` event of the log. What led to it is gathered from the events of
its seat since its previous decision: the model calls (``llm_call``), the refused answers
(``invalid_action``), the reasoning (``thought``), a passed deadline, the beliefs it stated.
Its observation and legal actions are rebuilt by replaying the actions: for a batch of
simultaneous decisions (actions with no rules event between them) they are taken before any
of the batch is applied, as the seats were asked.

A fork's rows say where it came from: the game row names its parent and fork point, and
every event and decision it copied from its parent's prefix is marked ``inherited``, each
such decision credited to the agent of the ancestor's seat that made it (the fork's own
``intervention`` is its own).

Every text cell passes through :func:`~duskfall.core.redaction.redact_value`, so a key a
model echoed, or one in a base URL, is masked here too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duskfall.core import event_kinds as kinds
from duskfall.core.events import Event
from duskfall.core.redaction import redact_value
from duskfall.core.sides import side_of
from duskfall.core.usage import Usage
from duskfall.lab.lineage import PrefixCredit, prefix_credit
from duskfall.lab.rebuild import INTERVENTION
from duskfall.store.lineage import ForkOrigin
from duskfall.store.log import GameLog
from duskfall.store.replay import new_state_for
from duskfall.store.rows import GameRow, model_of

PUBLIC = "public"


def as_json(value: Any) -> str:
    """JSON text of a cell, secrets masked."""
    return json.dumps(redact_value(value), ensure_ascii=False, sort_keys=True, default=str)


@dataclass
class _Pending:
    """What a seat did since its previous decision."""

    calls: list[Event] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    reasoning: str | None = None
    timed_out: bool = False
    beliefs: dict[str, Any] | None = None


@dataclass
class GameRows:
    """The rows of one game for each table."""

    game: dict[str, Any]
    decisions: list[dict[str, Any]]
    events: list[dict[str, Any]]


def game_rows(row: GameRow, log: GameLog, credit: PrefixCredit | None = None) -> GameRows:
    """Every row of the game indexed as ``row`` with the log ``log``; ``credit`` says, for a
    fork, which rows it copied from its parent and who made them (default: found from the
    log's path, :func:`~duskfall.lab.lineage.prefix_credit`)."""
    if credit is None:
        credit = prefix_credit(log, Path(row.log_path) if row.log_path else None)
    variant, state = new_state_for(log)
    roster = {int(s["seat"]): str(s.get("agent", "unknown")) for s in log.header.roster}
    roles = state.roles()
    sides = {seat: side_of(variant, state.team_of(seat)) for seat in roles}
    pending: dict[int, _Pending] = {}
    asked: dict[int, tuple[Mapping[str, Any], Any]] = {}  # the batch being applied
    decisions: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    calls = 0
    for event in log.events:
        events.append(_event_row(log.header.game_id, event, credit.inherited(event.seq)))
        seat = event.payload.get("seat") if isinstance(event.payload, dict) else None
        if event.source == "rules":
            asked.clear()  # the batch was resolved: seats asked next see its results
            continue
        if event.kind == kinds.LLM_CALL and not credit.inherited(event.seq):
            calls += 1  # the game's own (a fork's copied prefix is its parent's)
        if not isinstance(seat, int) or seat not in roles:
            continue
        if event.kind == kinds.ACTION:
            if seat not in asked:
                for waiting in {d.seat for d in state.pending()} | {seat}:
                    asked.setdefault(waiting, (state.observe(waiting), state.legal(waiting)))
            observation, legal = asked.pop(seat)
            seen = pending.pop(seat, _Pending())
            made = _credited(credit, event, roster)
            decisions.append(
                _decision_row(len(decisions), event, made, roles, sides, observation, legal, seen)
            )
            state.apply(seat, event.payload["action"])
        else:
            _gather(pending.setdefault(seat, _Pending()), event)
    game = _game_row(row, log, roster, roles, sides, len(decisions), calls)
    return GameRows(game, decisions, events)


def _credited(credit: PrefixCredit, event: Event, roster: Mapping[int, str]) -> Credit:
    """Who made the decision ``event`` records, and whether the fork copied it."""
    seat = int(event.payload["seat"])
    own = roster.get(seat, "unknown")
    if event.payload.get("by") == INTERVENTION:
        return Credit(seat, INTERVENTION, False)
    if not credit.inherited(event.seq, event):
        return Credit(seat, own, False)
    return Credit(seat, credit.agent(event.seq, seat, own), True)


@dataclass(frozen=True)
class Credit:
    """A decision's seat, the agent that made it, and whether it was copied from a parent."""

    seat: int
    agent: str
    inherited: bool


def _gather(seen: _Pending, event: Event) -> None:
    payload = event.payload
    if event.kind == kinds.LLM_CALL and payload.get("decision") != "beliefs":
        seen.calls.append(event)
    elif event.kind == kinds.INVALID_ACTION:
        refused = {"attempt": payload.get("attempt"), "reply": payload.get("raw")}
        seen.refused.append({**refused, "why": payload.get("error"), "code": payload.get("code")})
    elif event.kind == kinds.PARTICIPANT_ERROR:
        seen.refused.append({"attempt": payload.get("attempt"), "why": payload.get("error")})
    elif event.kind == kinds.THOUGHT:
        seen.reasoning = str(payload.get("text", ""))
    elif event.kind == kinds.DECISION_TIMEOUT:
        seen.timed_out = True
    elif event.kind == kinds.BELIEFS:
        seen.beliefs = {k: v for k, v in payload.items() if k not in ("seat",)}


def _decision_row(
    number: int,
    event: Event,
    credit: Credit,
    roles: Mapping[int, str],
    sides: Mapping[int, str],
    observation: Mapping[str, Any],
    legal: Any,
    seen: _Pending,
) -> dict[str, Any]:
    seat = credit.seat
    usage = sum((Usage.from_payload(c.payload) for c in seen.calls), Usage())
    last = seen.calls[-1].payload if seen.calls else None
    by = str(event.payload.get("by", "agent"))
    refused = seen.refused
    answered = len(refused) + (by == "agent")
    return {
        "game_id": event.game_id,
        "decision": number,
        "seat": seat,
        "agent": redact_value(credit.agent),
        "model": redact_value(model_of(credit.agent)),
        "inherited": credit.inherited,
        "role": roles.get(seat),
        "side": sides.get(seat),
        "day": event.day,
        "phase": event.phase,
        "kind": getattr(legal, "kind", None),
        "by": by,
        "attempts": answered,
        "refused_attempts": len(refused),
        "legal_first_try": by == "agent" and not refused,
        "timed_out": seen.timed_out,
        "llm_calls": len(seen.calls),
        "latency_s": round(sum(float(c.payload.get("latency_s") or 0) for c in seen.calls), 4),
        "prompt_tokens": usage.prompt_tokens,
        "cached_tokens": usage.cached_tokens,
        "completion_tokens": usage.completion_tokens,
        "observation": as_json(observation),
        "legal_actions": as_json(legal.to_wire()),
        "messages": as_json(last.get("messages")) if last is not None else None,
        "action": as_json(event.payload.get("action")),
        "reasoning": redact_value(seen.reasoning),
        "refused": as_json(refused),
        "beliefs": as_json(seen.beliefs) if seen.beliefs is not None else None,
    }


def _event_row(game_id: str, event: Event, inherited: bool) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seq": event.seq,
        "inherited": inherited,
        "day": event.day,
        "phase": event.phase,
        "kind": event.kind,
        "visibility": event.visibility,
        "source": event.source,
        "payload": as_json(event.payload),
    }


def _game_row(
    row: GameRow,
    log: GameLog,
    roster: Mapping[int, str],
    roles: Mapping[int, str],
    sides: Mapping[int, str],
    decisions: int,
    calls: int,
) -> dict[str, Any]:
    seats = sorted(roles)
    agents = [redact_value(roster.get(seat, "unknown")) for seat in seats]
    origin = ForkOrigin.of(log.header)
    return {
        "game_id": row.id,
        "variant": row.variant,
        "config": as_json(log.header.config),
        "seats": len(seats),
        "agents": agents,
        "models": [model_of(agent) for agent in agents],
        "roles": [roles[seat] for seat in seats],
        "sides": [sides[seat] for seat in seats],
        "status": row.status,
        "winner": row.winner,
        "termination": row.termination,
        "days": row.days,
        "decisions": decisions,
        "events": len(log.events),
        "llm_calls": calls,
        "prompt_tokens": row.prompt_tokens,
        "cached_tokens": row.cached_tokens,
        "completion_tokens": row.completion_tokens,
        "cost_usd": row.cost_usd,
        "parent_game_id": origin.parent if origin else None,
        "fork_event": origin.event if origin else None,
        "fork_prefix": origin.prefix if origin else None,
        "fork_replaced": origin.replaced if origin else None,
        "tournament": row.tournament,
        "tournament_slot": row.tournament_slot,
        "started_at": row.started_at,
        "duskfall_version": str(log.header.versions.get("duskfall", "")),
        "seed": str(log.header.seed),
        "chain_hash": log.head or None,
    }


def split(rows: list[dict[str, Any]], hidden: bool) -> Iterator[dict[str, Any]]:
    """The rows of ``events`` that go to one part (public events to the public part)."""
    for event in rows:
        if (event["visibility"] == PUBLIC) != hidden:
            yield event
