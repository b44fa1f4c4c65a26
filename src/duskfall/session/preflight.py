"""Pre-flight: every model-backed seat is checked once before a game writes anything.

A participant that declares models (``models()``: the ``llm`` and ``cognitive`` agents, a mix
with one of them) is checked through each (:func:`duskfall.llm.preflight.check_model`), once
per distinct model spec however many seats share it, all specs at once. The first failure, in seat
order, is one :class:`SeatNotReady` naming the seats of that spec and the fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from duskfall.core.errors import ConfigError
from duskfall.llm.model import Model
from duskfall.llm.preflight import Announce, first_not_ready
from duskfall.runtime.participant import BaseParticipant, Player
from duskfall.session.participants import seats_cannot_play


class SeatNotReady(ConfigError):
    """A seat's model failed its pre-flight check; the game was not started."""


def models_by_spec(participants: Mapping[int, object]) -> dict[str, tuple[Model, list[int]]]:
    """Each distinct model spec of the participants (the models each declares:
    :meth:`~duskfall.runtime.participant.BaseParticipant.models`): one of its models and its
    seats."""
    found: dict[str, tuple[Model, list[int]]] = {}
    for seat in sorted(participants):
        player = participants[seat]
        declared = player.models() if isinstance(player, BaseParticipant) else ()
        for model in declared:
            if isinstance(model, Model):
                seats = found.setdefault(model.spec, (model, []))[1]
                if seat not in seats:
                    seats.append(seat)
    return found


async def preflight(
    participants: Mapping[int, Player],
    agents: Sequence[str],
    announce: Announce | None = None,
) -> None:
    """Check every model-backed seat (see the module docstring); raises SeatNotReady.
    ``announce`` is told what a slow check (loading a model) is doing."""
    by_spec = models_by_spec(participants)
    models = {spec: model for spec, (model, _) in by_spec.items()}
    failed = await first_not_ready(models, announce)
    if failed is not None:
        spec, why = failed
        seats = by_spec[spec][1]
        raise SeatNotReady(seats_cannot_play(seats, agents[seats[0]], str(why)))
