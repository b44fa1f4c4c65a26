"""A game's audience: the pages following it, each receiving only what its view may see.

A :class:`GameFeed` wraps a :class:`~duskfall.web.timeline.Timeline`. Whatever drives the game
(a game running in this process, or a log being tailed) calls :meth:`GameFeed.push` for each
event; every subscriber gets the event if its seat may see it (the timeline's frame says so),
god-view subscribers get everything. Messages are plain dicts sent as JSON.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from duskfall.core.events import PUBLIC, Event
from duskfall.core.outcome import Outcome, Termination
from duskfall.core.redaction import redact
from duskfall.core.registry import get_variant
from duskfall.web.timeline import PUBLIC_VIEW, Frame, Timeline

MODEL_KINDS = frozenset({"llm", "cognitive"})

Message = dict[str, Any]
ENDED = ("finished", "aborted")


def ended_status(outcome: Outcome | None) -> str:
    """``aborted`` for a game stopped before its end, else ``finished``."""
    aborted = outcome is not None and outcome.termination is Termination.ABORTED
    return "aborted" if aborted else "finished"


class Subscriber:
    """One page following a game: ``seat`` None is the god view, PUBLIC_VIEW the public one."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[Message] = asyncio.Queue()

    def sees(self, frame: Frame) -> bool:
        if self.seat == PUBLIC_VIEW:
            return frame.event.visibility == PUBLIC
        return self.seat is None or self.seat in frame.seats

    def send(self, message: Message) -> None:
        self.queue.put_nowait(message)


def agent_kind(agent: str) -> str:
    return agent.partition(":")[0]


@functools.lru_cache(maxsize=64)
def _machine_kinds(variant_id: str) -> frozenset[str]:
    try:
        bots = frozenset(get_variant(variant_id).bots())
    except Exception:  # no rules engine for this variant here: trust only model agents
        bots = frozenset()
    return bots | MODEL_KINDS


def is_person(variant_id: str, agent: str) -> bool:
    """Whether a seat's agent may be a person or a remote client: anything but the variant's
    bots and model agents."""
    return agent_kind(agent) not in _machine_kinds(variant_id)


def has_people(variant_id: str, agents: list[str]) -> bool:
    """Games with people keep the god view (hidden roles) behind the admin token."""
    return any(is_person(variant_id, a) for a in agents)


def public_agents(variant_id: str, agents: list[str]) -> list[str]:
    """Seat agents as anyone may see them. Agents can be assigned per team or role
    (``mafia=llm:x,town=heuristic``), so in a game with people and several kinds of machine
    agent the others only learn which seats are people. Agents are redacted."""
    agents = [redact(a) for a in agents]
    if not has_people(variant_id, agents):
        return list(agents)
    machines = {a for a in agents if not is_person(variant_id, a)}
    if len(machines) <= 1:
        return list(agents)
    return [a if is_person(variant_id, a) else "ai" for a in agents]


class GameFeed:
    """The timeline of one game and the subscribers following it."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.subscribers: set[Subscriber] = set()
        self.status = ended_status(timeline.outcome) if timeline.finished else "running"

    @property
    def agents(self) -> list[str]:
        return [redact(str(entry.get("agent", "?"))) for entry in self.timeline.header.roster]

    @property
    def protected(self) -> bool:
        return has_people(self.timeline.header.variant, self.agents)

    def push(self, event: Event) -> Frame:
        frame = self.timeline.add(event)
        for subscriber in self.subscribers:
            if subscriber.sees(frame):  # numbered in the subscriber's own view
                subscriber.send({"type": "event", "event": frame.view_for(subscriber.seat)})
        if self.timeline.finished and self.status not in ENDED:
            self.set_status(ended_status(self.timeline.outcome))
        return frame

    def set_status(self, status: str) -> None:
        self.status = status
        for subscriber in self.subscribers:
            subscriber.send(self.status_message(subscriber.seat))

    def status_message(self, seat: int | None) -> Message:
        message: Message = {
            "type": "status",
            "status": self.status,
            "outcome": self.timeline.describe()["outcome"],
        }
        if seat is None or self.status in ENDED:  # every view learns every role at the end
            message["roles"] = {str(s): r for s, r in self.timeline.roles().items()}
        return message

    def subscribe(self, seat: int | None) -> Subscriber:
        subscriber = Subscriber(seat)
        self.subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.discard(subscriber)

    def _agents_for(self, seat: int | None) -> list[str]:
        if seat is None:
            return self.agents
        return public_agents(self.timeline.header.variant, self.agents)

    def _frames(self, seat: int | None) -> list[Frame]:
        if seat == PUBLIC_VIEW:
            return [f for f in self.timeline.frames if f.event.visibility == PUBLIC]
        return self.timeline.visible(seat)

    def snapshot(self, seat: int | None) -> Message:
        """Everything a new subscriber with this view needs: the game, its status, its events."""
        game = self.timeline.describe()
        for entry, agent in zip(game["seats"], self._agents_for(seat), strict=True):
            entry["agent"] = agent
        game["protected"] = self.protected
        return {
            "type": "snapshot",
            "view": "god" if seat is None else "public" if seat == PUBLIC_VIEW else seat,
            "game": game,
            "events": [frame.view_for(seat) for frame in self._frames(seat)],
            **{k: v for k, v in self.status_message(seat).items() if k != "type"},
        }
