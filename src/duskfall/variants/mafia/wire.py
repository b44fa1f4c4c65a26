"""How a client reads classic-mafia decisions back from the wire.

``legal_state`` names: ``target`` (votes, kills, protections, investigations, shots) and
``say`` (chat lines and day speeches). ``valid_actions`` alone do not say enough (the players'
names), so a request without ``legal_state`` cannot be read back.
"""

from __future__ import annotations

from duskfall.core.wire import DataclassCodec
from duskfall.variants.mafia.legal import SayChoice, TargetChoice
from duskfall.variants.mafia.view import MafiaObservation

WIRE = DataclassCodec(
    "mafia", {"target": TargetChoice, "say": SayChoice}, observation=MafiaObservation
)
